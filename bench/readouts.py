"""What measuring the readouts costs: per sheet size, every readout
(`readouts.measure`) against one step, and the speeds pass that gives motion (the mean) and
max_speed (the fastest) against a pass that gives the mean alone, the kernel motion used before
max_speed (what a second pass of max_speed's own would have cost again). Best of many runs,
interleaved in one process, so that a busy machine slows both alike.

    .venv/bin/python bench/readouts.py [--grid 256x256 ...]

With --before REV, instead: every readout after a step (what the app and the CLI measure each
recorded step) in that revision and in this checkout, side by side. The two trees take turns in
child processes, --rounds times; each figure is the median of their medians over 101 steps.

    .venv/bin/python bench/readouts.py --before REV [--rounds 5] [--grid 128x128 ...]
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from numba import njit
from trees import IMPORT_TREE, before_tree, run_child

from clothlab.app.bench import BENCH_SHEET
from clothlab.sim.core import kernels, readouts
from clothlab.sim.core.solver import Simulation
from clothlab.sim.core.topology import TopologyBuilder

# Imports clothlab from the tree at sys.argv[1]; for each grid, the median time of every readout
# measured after a step, and of the step.
AFTER_A_STEP = (
    IMPORT_TREE
    + r"""
from clothlab.app.bench import BENCH_SHEET
from clothlab.sim.core import readouts
from clothlab.sim.core.solver import Simulation
from clothlab.sim.core.topology import TopologyBuilder
out = []
for cols, rows in json.loads(sys.argv[2]):
    width, height = BENCH_SHEET
    builder = TopologyBuilder()
    builder.add_sheet(cols, rows, width / (cols - 1), spacing_y=height / (rows - 1))
    topology = builder.build()
    sim = Simulation(topology, pins={i: tuple(topology.rest_positions[i]) for i in (0, cols - 1)})
    sim.step(20)
    readouts.measure(sim)
    steps, measures = [], []
    for _ in range(101):
        started = time.perf_counter(); sim.step(); steps.append(time.perf_counter() - started)
        started = time.perf_counter(); readouts.measure(sim)
        measures.append(time.perf_counter() - started)
    out.append((sorted(measures)[50], sorted(steps)[50]))
print(json.dumps(out))
"""
)


@njit(cache=True, nogil=True)
def mean_speed_only(x: np.ndarray, x_prev: np.ndarray, dt: float) -> float:
    """kernels.mean_speed as it was before max_speed: the same loop without the maximum."""
    n = x.shape[0]
    if n == 0:
        return 0.0
    total = 0.0
    for i in range(n):
        dx = x[i, 0] - x_prev[i, 0]
        dy = x[i, 1] - x_prev[i, 1]
        dz = x[i, 2] - x_prev[i, 2]
        total += math.sqrt(dx * dx + dy * dy + dz * dz)
    return total / (n * dt)


def bench_sheet(cols: int, rows: int) -> Simulation:
    """The bench's sheet (2.8 × 2.0 at any resolution), pinned at its top corners."""
    width, height = BENCH_SHEET
    builder = TopologyBuilder()
    builder.add_sheet(cols, rows, width / (cols - 1), spacing_y=height / (rows - 1))
    topology = builder.build()
    return Simulation(topology, pins={i: tuple(topology.rest_positions[i]) for i in (0, cols - 1)})


def per_call(function: Callable[[], object], calls: int) -> float:
    started = time.perf_counter()
    for _ in range(calls):
        function()
    return (time.perf_counter() - started) / calls


def bench_grid(cols: int, rows: int) -> str:
    sim = bench_sheet(cols, rows)
    sim.step(20)  # moving, so that no pass is over zeros
    x, x_prev, h = sim.state.x, sim.state.x_prev, sim.settings.dt
    assert kernels.speeds(x, x_prev, h)[0] == mean_speed_only(x, x_prev, h)  # same bits
    calls = max(5, 200_000 // (cols * rows))
    mean = both = everything = step = math.inf
    for _ in range(200):
        mean = min(mean, per_call(lambda: mean_speed_only(x, x_prev, h), calls))
        both = min(both, per_call(lambda: kernels.speeds(x, x_prev, h), calls))
    for _ in range(30):
        everything = min(everything, per_call(lambda: readouts.measure(sim), 1))
        step = min(step, per_call(sim.step, 1))
    return (
        f"{cols:>3}x{rows:<3} {cols * rows:>6} particles: speeds pass {mean * 1e6:8.2f} µs "
        f"mean only, {both * 1e6:8.2f} µs mean + fastest (+{(both - mean) * 1e6:.2f} µs); "
        f"every readout {everything * 1e6:8.1f} µs, one step {step * 1e6:8.1f} µs"
    )


def side_by_side(before: str, rounds: int, grids: list[tuple[int, int]]) -> None:
    trees = {"before": str(before_tree(before)), "after": str(Path(__file__).resolve().parents[1])}
    runs: dict[str, list[list[tuple[float, float]]]] = {name: [] for name in trees}
    for _ in range(rounds):
        for name, tree in trees.items():
            runs[name].append(json.loads(run_child(AFTER_A_STEP, tree, json.dumps(grids))))
    print(f"every readout after a step, {before} (before) against this checkout (after), "
          f"medians of {rounds} rounds")  # fmt: skip
    for k, (cols, rows) in enumerate(grids):
        measure = {n: statistics.median(r[k][0] for r in runs[n]) for n in trees}
        step = {n: statistics.median(r[k][1] for r in runs[n]) for n in trees}
        print(f"{cols:>3}x{rows:<3} readouts {measure['before'] * 1e3:.3f} → "
              f"{measure['after'] * 1e3:.3f} ms (×{measure['after'] / measure['before']:.2f}); "
              f"a step {step['before'] * 1e3:.3f} → {step['after'] * 1e3:.3f} ms")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grid", action="append", default=[], metavar="COLSxROWS")
    parser.add_argument("--before", help="a revision to measure beside this checkout")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    grids = [tuple(int(v) for v in g.split("x")) for g in args.grid]
    if args.before:
        side_by_side(args.before, args.rounds, grids or [(64, 64), (128, 128), (256, 256)])
        return
    for cols, rows in grids or [(15, 11), (64, 64), (128, 128), (256, 256)]:
        print(bench_grid(cols, rows))


if __name__ == "__main__":
    main()
