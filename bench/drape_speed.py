"""The drape test's speed, in a revision and in this checkout, side by side: the Cusick meter's
specimen of a fabric (`clothlab validate`'s drape check), `--cols` particles across, settled for
`--seconds` of model time from its raised start; the wall time each tree takes, and the drape
coefficient it reads.

    .venv/bin/python bench/drape_speed.py [--before REV] [--rounds 1] [--fabric denim]
        [--cols 61] [--seconds 3]

The trees take turns in child processes, --rounds times; each figure is the median over the
rounds, with the ratio after / before. A run that blew up says so instead of a figure.
"""

from __future__ import annotations

import json
import statistics

from trees import IMPORT_TREE, revisions, run_child

# In the tree at sys.argv[1]: {"wall": s or an error, "drape": %} for the fabric sys.argv[2],
# sys.argv[3] particles across, settled sys.argv[4] s.
CHILD = (
    IMPORT_TREE
    + r"""
from clothlab.sim.core.materials import SI_FABRICS
from clothlab.sim.document.scene import SIMaterialSpec, build_simulation, with_settings
from clothlab.sim.lab import textile
name, cols, seconds = sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
scene = textile.cusick_drape_scene(SIMaterialSpec.of(name, SI_FABRICS[name]), cols)
sim = build_simulation(with_settings(scene, {"specimen": 1}))
sim.step(1)  # compiles or loads the machine code
steps = round(seconds / sim.settings.dt)
started = time.perf_counter()
if sim.step(steps) != steps:
    print(json.dumps({"wall": f"blew up: {sim.instability}", "drape": 0.0}))
else:
    wall = time.perf_counter() - started
    print(json.dumps({"wall": wall, "drape": sim.readouts().drape_coefficient}))
"""
)


def main() -> None:
    args, trees = revisions(
        __doc__.split("\n\n")[0], "dba3542", rounds=1, fabric="denim", cols=61, seconds=3.0
    )
    runs: dict[str, list[dict]] = {tree: [] for tree in trees}
    for _ in range(args.rounds):
        for tree, path in trees.items():
            child = (CHILD, str(path), args.fabric, str(args.cols), str(args.seconds))
            runs[tree].append(json.loads(run_child(*child)))
    print(f"{args.fabric} drape specimen, {args.cols} across, {args.seconds:g} s of model time; "
          f"{args.rounds} round(s); before = {args.before}")  # fmt: skip
    figures = {}
    for tree in trees:
        failed = [r["wall"] for r in runs[tree] if isinstance(r["wall"], str)]
        figures[tree] = failed[0] if failed else statistics.median(r["wall"] for r in runs[tree])
    before, after = figures["before"], figures["after"]
    if isinstance(before, str) or isinstance(after, str):
        print(f"  before {before}; after {after}")
        return
    drapes = [statistics.median(r["drape"] for r in runs[t]) for t in trees]
    print(
        f"  wall: before {before:.1f} s, after {after:.1f} s ({after / before:.2f} × before); "
        f"drape coefficient {drapes[0]:.2f} → {drapes[1]:.2f} %"
    )


if __name__ == "__main__":
    main()
