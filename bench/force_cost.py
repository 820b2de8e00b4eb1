"""What the force accounting costs: steps/s of the solver before and after it, side by
side in one run, and what measuring the forces for the readouts costs beside a step.

    .venv/bin/python bench/force_cost.py [--before REV] [--rounds 3]

`--before` is a revision without the accounting (default 0d10791, the last one before it); it is
checked out into a temporary worktree, imported from there in child processes, and the two trees
take turns, `--rounds` times, so that a noisy machine hurts both alike. Each figure is the
median of every timed run (clothlab bench's runs of ~0.3 s); a run that blew up prints what
happened instead of a figure.
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path

from trees import IMPORT_TREE, revisions, run_child

CASES = (("15x11", "classic"), ("128x128", "classic"), ("256x256", "classic"),
         ("15x11", "xpbd"), ("128x128", "xpbd"))  # fmt: skip

# Imports clothlab from the tree at sys.argv[1], then times clothlab bench's grids.
CHILD = (
    IMPORT_TREE
    + r"""
from clothlab.app.bench import BENCH_OPTIONS, bench_grid
out = []
for grid, option in json.loads(sys.argv[2]):
    cols, rows = (int(v) for v in grid.split("x"))
    result = bench_grid(cols, rows, 8, 5, option, BENCH_OPTIONS[option])
    out.append(result)
print(json.dumps(out))
"""
)

# In the tree with the accounting: how long measuring the forces takes beside a step.
MEASURE = r"""
import json, sys, time
from clothlab.app.bench import BENCH_OPTIONS, bench_grid
from clothlab.sim.core.readouts import record_stride
from clothlab.sim.core.solver import Simulation
from clothlab.sim.core.topology import TopologyBuilder
SAMPLES = 101
out = []
for grid, option in json.loads(sys.argv[1]):
    cols, rows = (int(v) for v in grid.split("x"))
    builder = TopologyBuilder()
    builder.add_sheet(cols, rows, 2.8 / (cols - 1), spacing_y=2.0 / (rows - 1))
    topology = builder.build()
    sim = Simulation(topology, pins={i: tuple(topology.rest_positions[i]) for i in (0, cols - 1)})
    for key, value in BENCH_OPTIONS[option].items():
        sim.settings = sim.settings.with_value(key, value)
    sim.step(20)
    steps, forces = [], []
    for _ in range(SAMPLES):
        started = time.perf_counter(); sim.step(); steps.append(time.perf_counter() - started)
        started = time.perf_counter(); sim.forces(); forces.append(time.perf_counter() - started)
    out.append({"step": sorted(steps)[SAMPLES // 2], "forces": sorted(forces)[SAMPLES // 2],
                "stride": record_stride(sim.links.count)})
print(json.dumps(out))
"""


def run_tree(tree: Path) -> list[dict]:
    return json.loads(run_child(CHILD, str(tree), json.dumps(CASES)))


def main() -> None:
    args, trees = revisions(__doc__.split("\n\n")[0], "0d10791")
    rates: dict[tuple[str, int], list[float]] = {}
    failed: dict[tuple[str, int], str] = {}
    for _ in range(args.rounds):
        for label, tree in trees.items():
            for case, result in enumerate(run_tree(tree)):
                if "failed" in result:
                    failed[label, case] = result["failed"]
                else:
                    rates.setdefault((label, case), []).append(result["steps_per_second"])
    measured = json.loads(run_child(MEASURE, json.dumps(CASES)))
    print(f"force accounting, {args.rounds} rounds of 5 runs each; before = {args.before}")
    print(f"{'grid':>9} {'option':>8} {'before':>10} {'after':>10} {'after/before':>13}"
          f" {'measure':>9} {'measure/step':>13} {'per step':>9}")  # fmt: skip
    for case, (grid, option) in enumerate(CASES):
        cells = []
        for label in trees:
            if (label, case) in failed:
                cells.append(f"failed: {failed[label, case]}")
            else:
                cells.append(f"{statistics.median(rates[label, case]):10.1f}")
        ratio = ""
        if not any(key[1] == case for key in failed):
            before, after = (statistics.median(rates[label, case]) for label in trees)
            ratio = f"{after / before:13.3f}"
        m = measured[case]
        print(f"{grid:>9} {option:>8} {cells[0]:>10} {cells[1]:>10} {ratio:>13}"
              f" {1000 * m['forces']:7.3f}ms {m['forces'] / m['step']:13.3f}"
              f" {m['forces'] / m['step'] / m['stride']:9.3f}")  # fmt: skip
    print(
        "steps/s: medians; measure: one Simulation.forces() after a step, median of 101;"
        " per step: measure/step over the readouts' record stride (sim.core.readouts)"
    )


if __name__ == "__main__":
    main()
