"""Cloth Lab's solver against a plain C -O3 loop of the same algorithm, side by side.

    .venv/bin/python bench/compare.py [--grid 256x256]... [--repeats 5] [--json]

Builds bench/baseline.c with the system compiler (`cc`) into a temporary folder, then for each
grid alternates C and numba runs of the same steps and prints medians and their ratio.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from clothlab.app.bench import parse_grid
from clothlab.app.errors import UsageError
from clothlab.sim.core import ordering
from clothlab.sim.core.solver import Simulation
from clothlab.sim.core.topology import TopologyBuilder

HERE = Path(__file__).resolve().parent
PASSES = 8


def build_baseline(folder: Path) -> Path | None:
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        return None
    binary = folder / "baseline"
    subprocess.run(
        [compiler, "-O3", "-o", str(binary), str(HERE / "baseline.c"), "-lm"], check=True
    )
    return binary


def c_rate(binary: Path, cols: int, rows: int, steps: int, order: str) -> float:
    """Link projections/s of one C run."""
    out = subprocess.run(
        [str(binary), str(cols), str(rows), str(PASSES), str(steps), order],
        capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    return float(out[1])


def numba_rate(cols: int, rows: int, steps: int, mode: int) -> float:
    builder = TopologyBuilder()
    builder.add_sheet(cols, rows, 0.2)
    topology = builder.build()
    sim = Simulation(topology, pins={i: tuple(topology.rest_positions[i]) for i in (0, cols - 1)})
    sim.settings = sim.settings.with_value("solver_mode", mode).with_value("floor", False)
    sim.step()  # load the compiled kernels
    started = time.perf_counter()
    sim.step(steps)
    return steps * sim.link_projections_per_step() / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grid", action="append", default=[])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    args = parser.parse_args()
    results = []
    try:
        grids = [parse_grid(g) for g in args.grid] or [(128, 128), (256, 256)]
    except UsageError as error:
        sys.exit(str(error))
    with tempfile.TemporaryDirectory() as folder:
        binary = build_baseline(Path(folder))
        if binary is None:
            sys.exit("no C compiler (cc) on this machine")
        runs = {
            "C family order": lambda c, r, s: c_rate(binary, c, r, s, "family"),
            "C colour order": lambda c, r, s: c_rate(binary, c, r, s, "colour"),
            "numba classic order": lambda c, r, s: numba_rate(c, r, s, ordering.CLASSIC_ORDER),
            "numba colour order": lambda c, r, s: numba_rate(c, r, s, ordering.COLOUR_ORDER),
            "numba colour, 2 threads": lambda c, r, s: numba_rate(c, r, s, ordering.TWO_THREADS),
        }
        for cols, rows in grids:
            steps = max(20, int(2e8 / (cols * rows * 4 * PASSES)))  # about 1 s of C work
            rates: dict[str, list[float]] = {name: [] for name in runs}
            for _ in range(args.repeats):  # interleaved, so drift hits every variant alike
                for name, run in runs.items():
                    rates[name].append(run(cols, rows, steps))
            median = {name: statistics.median(values) for name, values in rates.items()}
            links = (cols - 1) * rows + cols * (rows - 1) + 2 * (cols - 1) * (rows - 1)
            results.append({"grid": f"{cols}x{rows}", "steps": steps, "runs": args.repeats,
                            "proj_per_second": median, "links": links})  # fmt: skip
            if args.json:
                continue
            print(f"{cols}x{rows}: {steps} steps × {args.repeats} runs, medians")
            for name, value in median.items():
                ratio = value / median["C family order"]
                real_time = value / (links * PASSES * 120)
                print(f"  {name:<26} {value / 1e6:7.1f} M proj/s  {ratio:5.2f}× C  "
                      f"{real_time:5.2f}× real time")  # fmt: skip
    if args.json:
        print(json.dumps(results))


if __name__ == "__main__":
    main()
