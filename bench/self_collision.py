"""What self-collision costs (issue 31 item 2), before and after a change, side by side in one
run: the close-pair search on the same positions, and clothlab bench's self-collision steps/s.

    .venv/bin/python bench/self_collision.py [--before REV] [--rounds 3]

The positions are the bench sheet's after 60 steps with self-collision on (at 128 × 128 it has
gathered into folds: many close pairs), made once and saved, so both trees search the same
points at the same distance (this tree's automatic one); the steps/s are each tree's own, at
its own automatic distance. The trees take turns `--rounds` times; each figure is the median of
every run (a search timed 51 times a round; clothlab bench's runs of ~0.3 s). A run that blew
up prints what happened instead of a figure.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from trees import IMPORT_TREE, ROOT, before_tree

from clothlab.sim.core.constraint_sets import AUTO_COLLISION_FRACTION

GRIDS = ("64x64", "128x128", "256x256")
SETTLE_STEPS = 60

# In the tree at sys.argv[1]: the search timed on the saved positions, then clothlab bench's
# self-collision option, per grid.
CHILD = (
    IMPORT_TREE
    + r"""
import numpy as np
from clothlab.app.bench import BENCH_OPTIONS, BENCH_SHEET, bench_grid
from clothlab.sim.core import constraints
from clothlab.sim.core.constraint_sets import PAIR_SEARCH_MARGIN
out = []
for grid, saved in json.loads(sys.argv[2]):
    cols, rows = (int(v) for v in grid.split("x"))
    x, rest = np.load(saved)
    distance = float(sys.argv[3]) * BENCH_SHEET[0] / (cols - 1)  # the same in both trees
    radius = PAIR_SEARCH_MARGIN * distance
    pairs = np.zeros((4 * len(x) + 16, 2), dtype=np.int32)
    targets = np.zeros(len(pairs))
    times = []
    for _ in range(52):
        started = time.perf_counter()
        count = constraints.find_close_pairs(x, rest, radius, distance, pairs, targets)
        times.append(time.perf_counter() - started)
        if count > len(pairs):
            pairs = np.zeros((2 * count, 2), dtype=np.int32)
            targets = np.zeros(2 * count)
    step = bench_grid(cols, rows, 8, 5, "self_collision", BENCH_OPTIONS["self_collision"])
    out.append({"search": sorted(times[1:])[25], "pairs": count, "bench": step})
print(json.dumps(out))
"""
)

# In this tree: the positions both trees search.
POSITIONS = r"""
import json, sys
import numpy as np
from clothlab.app.bench import BENCH_SHEET
from clothlab.sim.core.solver import Simulation
from clothlab.sim.core.topology import TopologyBuilder
for grid, saved in json.loads(sys.argv[1]):
    cols, rows = (int(v) for v in grid.split("x"))
    width, height = BENCH_SHEET
    builder = TopologyBuilder()
    builder.add_sheet(cols, rows, width / (cols - 1), spacing_y=height / (rows - 1))
    topology = builder.build()
    corners = {i: tuple(topology.rest_positions[i]) for i in (0, cols - 1)}
    sim = Simulation(topology, pins=corners)
    sim.settings = sim.settings.with_value("passes", 8).with_value("self_collision", True)
    sim.step(int(sys.argv[2]))
    np.save(saved, np.stack([sim.state.x, topology.rest_positions]))
"""


def run(script: str, *args: str) -> str:
    return subprocess.run(
        [sys.executable, "-c", script, *args], capture_output=True, text=True, check=True,
        cwd=tempfile.gettempdir(),
    ).stdout  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", default="9df6171")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    trees = {"before": before_tree(args.before), "after": ROOT}
    with tempfile.TemporaryDirectory(prefix="clothlab-self-collision-") as folder:
        cases = [(grid, str(Path(folder) / f"{grid}.npy")) for grid in GRIDS]
        run(POSITIONS, json.dumps(cases), str(SETTLE_STEPS))
        searches: dict[tuple[str, int], list[float]] = {}
        rates: dict[tuple[str, int], list[float]] = {}
        failed: dict[tuple[str, int], str] = {}
        pairs: dict[tuple[str, int], int] = {}
        for _ in range(args.rounds):
            for label, tree in trees.items():
                out = run(CHILD, str(tree), json.dumps(cases), str(AUTO_COLLISION_FRACTION))
                for case, result in enumerate(json.loads(out)):
                    searches.setdefault((label, case), []).append(result["search"])
                    pairs[label, case] = result["pairs"]
                    if "failed" in result["bench"]:
                        failed[label, case] = result["bench"]["failed"]
                    else:
                        rate = result["bench"]["realtime_factor"]  # steps/s × Δt
                        rates.setdefault((label, case), []).append(rate)
    print(f"self-collision, {args.rounds} rounds; before = {args.before}; positions after"
          f" {SETTLE_STEPS} steps")  # fmt: skip
    print(f"{'grid':>8} {'pairs before':>12} {'after':>7} {'search before':>14} {'after':>9}"
          f" {'after/before':>13} {'× real before':>14} {'after':>6}"
          f" {'after/before':>13}")  # fmt: skip
    for case, grid in enumerate(GRIDS):
        before, after = (statistics.median(searches[label, case]) for label in trees)
        row = (f"{grid:>8} {pairs['before', case]:>12} {pairs['after', case]:>7}"
               f" {1e3 * before:12.2f}ms {1e3 * after:7.2f}ms {after / before:13.3f}")  # fmt: skip
        if any((label, case) in failed for label in trees):
            reasons = "; ".join(f"{label}: {failed[label, case]}" for label in trees
                                if (label, case) in failed)  # fmt: skip
            print(f"{row}  × real: no figure, the run failed ({reasons})")
            continue
        slow, fast = (statistics.median(rates[label, case]) for label in trees)
        print(f"{row} {slow:14.2f} {fast:6.2f} {fast / slow:13.3f}")
    print(
        "search: find_close_pairs on the same positions, median; × real: clothlab bench's"
        " self_collision option (steps/s × Δt, from rest, pinned at two corners), median"
    )


if __name__ == "__main__":
    main()
