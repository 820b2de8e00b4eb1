"""`clothlab bench`: steps/s and link projections/s of the solver on sheets of several sizes,
each option beyond the classic model alone if asked, and the start-up cost of the JIT.

Medians of several timed runs (with their min and max), the kernel path each run took, and for
a run in which the model blew up no figures: what happened instead.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import TYPE_CHECKING, Any

from clothlab.app.errors import UsageError

if TYPE_CHECKING:
    from clothlab.sim.core.solver import Simulation


def add_parser(commands: Any) -> None:
    bench = commands.add_parser("bench", help="measure solver speed")
    bench.add_argument(
        "--grid", action="append", default=[], metavar="COLSxROWS",
        help="sheet size (repeatable; default 15x11 64x64 128x128 256x256)",
    )  # fmt: skip
    bench.add_argument("--passes", type=int, default=8)
    bench.add_argument("--repeats", type=int, default=5, help="timed runs per grid (median)")
    bench.add_argument("--json", action="store_true", help="print JSON instead of a table")
    bench.add_argument(
        "--options", action="store_true",
        help="also measure each option beyond the classic model, one at a time",
    )  # fmt: skip


def parse_grid(text: str) -> tuple[int, int]:
    cols, _, rows = text.lower().partition("x")
    try:
        size = int(cols), int(rows)
    except ValueError:
        raise UsageError(f"--grid {text}: expected COLSxROWS, e.g. 64x64") from None
    if not all(2 <= n <= 512 for n in size):
        raise UsageError(f"--grid {text}: cols and rows must be within 2…512")
    return size


def bench_command(args: argparse.Namespace) -> int:
    grids = [parse_grid(g) for g in args.grid] or [(15, 11), (64, 64), (128, 128), (256, 256)]
    if not 1 <= args.passes <= 200:
        raise UsageError(f"--passes: {args.passes} is outside 1…200")
    if not 1 <= args.repeats <= 100:
        raise UsageError(f"--repeats: {args.repeats} is outside 1…100")

    report = {
        "passes": args.passes,
        "jit": jit_start_times(),
        "grids": [
            bench_grid(cols, rows, args.passes, args.repeats, option, settings)
            for cols, rows in grids
            for option, settings in (BENCH_OPTIONS.items() if args.options else [("classic", {})])
        ],
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        _print_bench(report)
    return 0


# Each option beyond the classic model on its own, as `clothlab bench --options` runs them.
BENCH_OPTIONS: dict[str, dict[str, object]] = {
    "classic": {},
    "xpbd": {"xpbd": True},
    "substeps=4": {"xpbd": True, "substeps": 4},
    "tethers": {"tethers": True},
    "bending": {"bending": True},
    "friction": {"friction_static": 0.5, "friction_kinetic": 0.4},
    "aerodynamic": {"aerodynamic": True, "wind": 5.0},
    "tearing": {"tearing": True},
    "self_collision": {"self_collision": True},
}


BENCH_SHEET = (2.8, 2.0)  # units: the default sheet's size, at every resolution benchmarked


def bench_sheet(cols: int, rows: int, passes: int, settings: dict[str, object]) -> Simulation:
    """The default sheet's cloth at cols × rows, pinned at its top corners, with `passes`
    passes and the settings given: what clothlab bench steps."""
    from clothlab.sim.core.solver import Simulation
    from clothlab.sim.core.topology import TopologyBuilder

    width, height = BENCH_SHEET
    builder = TopologyBuilder()
    builder.add_sheet(cols, rows, width / (cols - 1), spacing_y=height / (rows - 1))
    topology = builder.build()
    corners = (0, cols - 1)
    sim = Simulation(topology, pins={i: tuple(topology.rest_positions[i]) for i in corners})
    sim.settings = sim.settings.with_value("passes", passes)
    for key, value in settings.items():
        sim.settings = sim.settings.with_value(key, value)
    return sim


def bench_grid(
    cols: int,
    rows: int,
    passes: int,
    repeats: int,
    option: str = "classic",
    settings: dict[str, object] | None = None,
) -> dict[str, object]:
    """Steps/s and link projections/s (min, median, max of the timed runs) for the default
    sheet's cloth at cols × rows, pinned at its top corners. A run in which the model blew up
    gives no figures: `failed` says at which step and why."""
    sim = bench_sheet(cols, rows, passes, settings or {})
    topology = sim.topology
    result: dict[str, object] = {
        "grid": f"{cols}x{rows}", "option": option, "particles": topology.particle_count,
        "links": topology.link_count, "runs": repeats,
    }  # fmt: skip

    def timed(steps: int) -> float | None:
        started = time.perf_counter()
        taken = sim.step(steps)
        elapsed = time.perf_counter() - started
        result["path"] = _bench_path(sim)  # automatic mode picks threads as it goes
        if taken != steps:
            result["failed"] = sim.instability.message if sim.instability else "blew up"
            return None
        return elapsed

    first_step = timed(1)  # compiles or loads the cached machine code
    probe = timed(10) if first_step is not None else None
    if probe is None:
        return result
    steps = max(10, int(0.3 / max(probe / 10, 1e-7)))  # ~0.3 s of work per timed run
    rates = []
    for _ in range(repeats):
        elapsed = timed(steps)
        if elapsed is None:
            return result
        rates.append(steps / elapsed)
    per_step = sim.link_projections_per_step()
    return {
        **result,
        "first_step_seconds": first_step,
        "steps_per_second": statistics.median(rates),
        "steps_per_second_min": min(rates),
        "steps_per_second_max": max(rates),
        "link_projections_per_second": statistics.median(rates) * per_step,
        "realtime_factor": statistics.median(rates) * sim.settings.dt,
        "steps_per_run": steps,
    }


def _bench_path(sim: Simulation) -> str:
    """Which kernel path the run took: the classic or the extended integrator, the link order,
    and the threads (in automatic mode, the count its timing chose)."""
    integrator = "classic" if sim.settings.is_classic else "extended"
    if not sim.links.parallel:
        order = "colour" if sim.links.coloured else "seed order"
        return f"{integrator}, {order}, 1 thread"
    from clothlab.sim.core.ordering import AUTOMATIC, MOST_THREADS

    automatic = sim.settings.solver_mode == AUTOMATIC
    threads = sim.threads.choice if automatic else MOST_THREADS
    return f"{integrator}, colour, {threads} thread{'s' * (threads > 1)}{' (timed)' * automatic}"


_FIRST_STEP_PROBE = """
import time
started = time.perf_counter()
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.scene import build_simulation
sim = build_simulation(load_preset("hanging-sheet"))
imported = time.perf_counter()
sim.step()
sim.readouts()
print(imported - started, time.perf_counter() - imported)
"""


def jit_start_times() -> dict[str, float]:
    """Import and first-step seconds in fresh processes: with an empty numba cache (every
    kernel compiled) and again with the cache it left (machine code loaded from disk)."""
    import os
    import subprocess
    import tempfile

    times: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="clothlab-jit-") as cache:
        for label in ("cold", "warm"):
            env = {**os.environ, "NUMBA_CACHE_DIR": cache}
            output = subprocess.run(
                [sys.executable, "-c", _FIRST_STEP_PROBE],
                env=env, capture_output=True, text=True, check=True, cwd=cache,
            ).stdout  # fmt: skip
            imported, first_step = (float(v) for v in output.split())
            times[f"{label}_import_seconds"] = imported
            times[f"{label}_first_step_seconds"] = first_step
    return times


def _print_bench(report: dict) -> None:
    jit = report["jit"]
    print(
        f"passes {report['passes']}; start-up (import + first step): "
        f"cold JIT {jit['cold_import_seconds']:.2f} + {jit['cold_first_step_seconds']:.2f} s, "
        f"warm cache {jit['warm_import_seconds']:.2f} + {jit['warm_first_step_seconds']:.2f} s"
    )
    header = ("grid", "option", "links", "path", "first step", "steps/s (min–max)", "M proj/s",
              "× real")  # fmt: skip
    print("{:>9} {:>14} {:>8} {:>20} {:>11} {:>24} {:>9} {:>7}".format(*header))
    for r in report["grids"]:
        start = f"{r['grid']:>9} {r['option']:>14} {r['links']:>8} {r['path']:>20}"
        if "failed" in r:
            print(f"{start}  FAILED: {r['failed']}")
            continue
        spread = (f"{r['steps_per_second']:.1f} ({r['steps_per_second_min']:.0f}–"
                  f"{r['steps_per_second_max']:.0f})")  # fmt: skip
        print(
            f"{start} {r['first_step_seconds']:>10.3f}s {spread:>24} "
            f"{r['link_projections_per_second'] / 1e6:>9.1f} {r['realtime_factor']:>7.2f}"
        )
