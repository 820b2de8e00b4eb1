"""The drape meter's cotton specimen with its links solved by Gauss–Seidel passes alone (the
revision before links were solved together) and solved together first (this checkout), side by
side: drape coefficient, folds, the side links' strain and steps/s, per grid and substeps ×
passes. A run that blew up says so.

    .venv/bin/python bench/links_together.py [--before REV] [--rounds 1] [--seconds 2]

Steps/s are medians over the rounds; the first step (numba's compiling) is not timed.
"""

from __future__ import annotations

import json
import statistics

from trees import IMPORT_TREE, revisions, run_child

# (tree, substeps × passes) per grid: Gauss–Seidel as the drape preset ran it (32 × 16), at the
# new preset's 16 × 4, and at 64 × 64, where it converges (RESEARCH.md §8); together at 16 × 4
RUNS = [("before", "16x4"), ("before", "32x16"), ("before", "64x64"), ("after", "16x4")]
GRIDS = (41, 51)
FABRIC = "cotton"

CHILD = (
    IMPORT_TREE
    + r"""
import numpy as np
from clothlab.sim.document.scene import build_simulation, with_settings
from clothlab.sim.lab import textile
cols, solver, steps, fabric = int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5]
substeps, passes = (int(n) for n in solver.split("x"))
scene = textile.cusick_drape_scene(fabric, cols)
sim = build_simulation(with_settings(scene, {"substeps": substeps, "passes": passes}))
sim.step(1)
started = time.perf_counter()
done = sim.step(steps - 1)
took = time.perf_counter() - started
if done < steps - 1 or sim.instability is not None:
    print(json.dumps({"failed": f"blew up at step {sim.state.steps + 1}: {sim.instability}"}))
    raise SystemExit
links, x = sim.links, sim.state.x
strain = np.linalg.norm(x[links.b] - x[links.a], axis=1) / links.rest - 1.0
side = links.rest < 1.2 * 0.3 / (cols - 1)  # not the diagonals, which shear as the cloth does
readouts = sim.readouts()
print(json.dumps({"dc": readouts.drape_coefficient, "folds": readouts.folds,
                  "strain": [float(strain[side].min()), float(strain[side].max())],
                  "rate": (steps - 1) / took}))
"""
)


def main() -> None:
    args, trees = revisions(__doc__.split("\n\n")[0], "9a9b1b8", rounds=1, seconds=2.0)
    steps = round(args.seconds * 120)
    print(f"{FABRIC} drape specimen after {args.seconds:g} s; before = {args.before}, "
          f"{args.rounds} round(s)")  # fmt: skip
    print(f"{'across':>6} {'links':>22} {'solver':>7} {'DC':>6} {'folds':>5} "
          f"{'side links strain':>18} {'steps/s':>8}")  # fmt: skip
    for cols in GRIDS:
        for label, solver in RUNS:
            child = (CHILD, str(trees[label]), str(cols), solver, str(steps), FABRIC)
            results = [json.loads(run_child(*child)) for _ in range(int(args.rounds))]
            how = "passes" if label == "before" else "together, then passes"
            head = f"{cols:>6} {how:>22} {solver:>7}"
            failed = next((r["failed"] for r in results if "failed" in r), None)
            if failed:
                print(f"{head}  no figure: {failed}")
                continue
            last = results[-1]  # deterministic: every round drapes the same
            low, high = (100 * s for s in last["strain"])
            rate = statistics.median(r["rate"] for r in results)
            print(f"{head} {last['dc']:5.1f}% {last['folds']:5.0f} "
                  f"{f'{low:.2f}…{high:.2f} %':>18} {rate:8.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
