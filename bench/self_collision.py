"""What self-collision costs, before and after a change, side by side in one
run: the close-pair search on the same positions, and the steps/s with self-collision on.

    .venv/bin/python bench/self_collision.py [--before REV] [--rounds 3]

The search is given the links where it leaves linked particles to them. The state is the
bench sheet's after 60 steps with self-collision on (at 128 × 128 it has
gathered into folds: many close pairs), made once in this tree and saved. Both trees search
its positions at the same distance (this tree's automatic one), and step 30 times from it at
their own automatic distance, three times a round; and run clothlab bench's self-collision
option from rest. From rest, the two trees' sheets fold differently (a crumpling sheet is
chaotic, and any change of the pairs' order changes it), and the close pairs they meet can
differ threefold: the figures from the saved state are the fairer comparison. The trees take
turns `--rounds` times; each figure is the median of every run. A run that blew up prints what
happened instead of a figure.
"""

from __future__ import annotations

import json
import statistics
import tempfile
from pathlib import Path

from trees import IMPORT_TREE, revisions, run_child

from clothlab.sim.core.constraint_sets import AUTO_COLLISION_FRACTION

GRIDS = ("64x64", "128x128", "256x256")
SETTLE_STEPS = 60

# The bench sheet (clothlab bench's) with self-collision, in whichever tree runs it.
SHEET = r"""
from clothlab.app.bench import BENCH_SHEET
def bench_sheet(cols, rows):
    width, height = BENCH_SHEET
    builder = TopologyBuilder()
    builder.add_sheet(cols, rows, width / (cols - 1), spacing_y=height / (rows - 1))
    topology = builder.build()
    corners = {i: tuple(topology.rest_positions[i]) for i in (0, cols - 1)}
    sim = Simulation(topology, pins=corners)
    sim.settings = sim.settings.with_value("passes", 8).with_value("self_collision", True)
    return sim
"""

# In the tree at sys.argv[1]: the search timed on the saved positions, then clothlab bench's
# self-collision option, per grid.
CHILD = (
    IMPORT_TREE
    + r"""
import inspect
import numpy as np
from clothlab.sim.core.solver import Simulation
from clothlab.sim.core.topology import TopologyBuilder
FROM_STATE_STEPS = 30
"""
    + SHEET
    + r"""
from clothlab.app.bench import BENCH_OPTIONS, BENCH_SHEET, bench_grid
from clothlab.sim.core import constraints
from clothlab.sim.core.constraint_sets import PAIR_SEARCH_MARGIN
out = []
for grid, saved in json.loads(sys.argv[2]):
    cols, rows = (int(v) for v in grid.split("x"))
    x, rest, x_prev = np.load(saved)
    distance = float(sys.argv[3]) * BENCH_SHEET[0] / (cols - 1)  # the same in both trees
    radius = PAIR_SEARCH_MARGIN * distance
    pairs = np.zeros((4 * len(x) + 16, 2), dtype=np.int32)
    targets = np.zeros(len(pairs))
    sim = bench_sheet(cols, rows)
    extra = ()  # a search that leaves linked particles to their link is given the links
    if "linked" in inspect.signature(constraints.find_close_pairs.py_func).parameters:
        from clothlab.sim.core.constraint_sets import link_adjacency
        links = link_adjacency(sim.topology)
        extra = ((links.offsets, links.neighbour, links.via, sim.state.link_alive),)
    times = []
    for _ in range(52):
        started = time.perf_counter()
        count = constraints.find_close_pairs(x, rest, radius, distance, *extra, pairs, targets)
        times.append(time.perf_counter() - started)
        if count > len(pairs):
            pairs = np.zeros((2 * count, 2), dtype=np.int32)
            targets = np.zeros(2 * count)
    rates = []
    for _ in range(3):  # from the saved state each time: the same folds to work through
        sim.state.x[:], sim.state.x_prev[:] = x, x_prev
        started = time.perf_counter()
        if sim.step(FROM_STATE_STEPS) != FROM_STATE_STEPS:
            rates = ["blew up"]
            break
        rates.append(FROM_STATE_STEPS / (time.perf_counter() - started) * sim.settings.dt)
    step = bench_grid(cols, rows, 8, 5, "self_collision", BENCH_OPTIONS["self_collision"])
    out.append({"search": sorted(times[1:])[25], "pairs": count, "bench": step,
                "from_state": sorted(rates)[len(rates) // 2]})
print(json.dumps(out))
"""
)

# In this tree: the positions both trees search and step on from.
POSITIONS = (
    r"""
import json, sys
import numpy as np
from clothlab.sim.core.solver import Simulation
from clothlab.sim.core.topology import TopologyBuilder
"""
    + SHEET
    + r"""
for grid, saved in json.loads(sys.argv[1]):
    cols, rows = (int(v) for v in grid.split("x"))
    sim = bench_sheet(cols, rows)
    sim.step(int(sys.argv[2]))
    np.save(saved, np.stack([sim.state.x, sim.topology.rest_positions, sim.state.x_prev]))
"""
)


def main() -> None:
    args, trees = revisions(__doc__.split("\n\n")[0], "9df6171")
    with tempfile.TemporaryDirectory(prefix="clothlab-self-collision-") as folder:
        cases = [(grid, str(Path(folder) / f"{grid}.npy")) for grid in GRIDS]
        run_child(POSITIONS, json.dumps(cases), str(SETTLE_STEPS))
        searches: dict[tuple[str, int], list[float]] = {}
        pairs: dict[tuple[str, int], int] = {}
        # × real time, per kind: from rest (clothlab bench), from the saved state
        rates: dict[tuple[str, str, int], list[float]] = {}
        failed: dict[tuple[str, str, int], str] = {}
        for _ in range(args.rounds):
            for label, tree in trees.items():
                out = run_child(CHILD, str(tree), json.dumps(cases), str(AUTO_COLLISION_FRACTION))
                for case, result in enumerate(json.loads(out)):
                    searches.setdefault((label, case), []).append(result["search"])
                    pairs[label, case] = result["pairs"]
                    bench, from_state = result["bench"], result["from_state"]
                    if "failed" in bench:
                        failed["rest", label, case] = bench["failed"]
                    else:
                        rates.setdefault(("rest", label, case), []).append(
                            bench["realtime_factor"]  # steps/s × Δt
                        )
                    if isinstance(from_state, str):
                        failed["state", label, case] = from_state
                    else:
                        rates.setdefault(("state", label, case), []).append(from_state)
    print(f"self-collision, {args.rounds} rounds; before = {args.before}; saved state after"
          f" {SETTLE_STEPS} steps")  # fmt: skip
    print(f"{'grid':>8} {'pairs before':>12} {'after':>7} {'search before':>14} {'after':>9}"
          f" {'ratio':>6} {'× real from the state: before':>30} {'after':>6} {'ratio':>6}"
          f" {'from rest: before':>18} {'after':>6} {'ratio':>6}")  # fmt: skip
    for case, grid in enumerate(GRIDS):
        before, after = (statistics.median(searches[label, case]) for label in trees)
        row = (f"{grid:>8} {pairs['before', case]:>12} {pairs['after', case]:>7}"
               f" {1e3 * before:12.2f}ms {1e3 * after:7.2f}ms {after / before:6.3f}")  # fmt: skip
        for kind, width in (("state", 30), ("rest", 18)):
            reasons = [f"{label}: {failed[kind, label, case]}" for label in trees
                       if (kind, label, case) in failed]  # fmt: skip
            if reasons:
                row += f"  no figure ({'; '.join(reasons)})"
                continue
            slow, fast = (statistics.median(rates[kind, label, case]) for label in trees)
            row += f" {slow:{width}.2f} {fast:6.2f} {fast / slow:6.3f}"
        print(row)
    print(
        "search: find_close_pairs on the same positions, median; × real: steps/s × Δt, median;"
        " from the state: 30 steps from the saved one, 3 times a round; from rest: clothlab"
        " bench's self_collision option (pinned at two corners)"
    )


if __name__ == "__main__":
    main()
