"""A fabric sheet's speed under the default solver, in a revision and in this checkout, side by
side: a cotton sheet 2.8 × 2 m of N × N particles, each top corner held by a 20 cm clamp (as
bench/fabric_solvers.py), × real time over `--seconds` from the flat start ("moving") and from
the state each tree settled it in `--settle` s ("at rest").

    .venv/bin/python bench/fabric_speed.py [--before REV] [--rounds 1] [--grids 32,64,128]
        [--seconds 0.5] [--settle 3]

The trees take turns in child processes, --rounds times; each figure is the median over the
rounds, with the ratio after / before. A run that blew up says so instead of a figure.
"""

from __future__ import annotations

import json
import statistics

from trees import IMPORT_TREE, revisions, run_child

# In the tree at sys.argv[1]: {"moving": × real time or an error, "at rest": …, "sag": mm} for
# the grid sys.argv[2], sys.argv[3] s measured after sys.argv[4] s of settling.
CHILD = (
    IMPORT_TREE
    + r"""
from clothlab.sim.document.composition import change_body
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.scene import build_simulation, with_settings
from clothlab.sim.lab import textile
size, seconds, settle = int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
def sheet():
    scene = textile.with_fabric(load_preset("hanging-sheet"), "cotton")
    scene = change_body(scene, 0, cols=size, rows=size).scene
    sim = build_simulation(with_settings(scene, {"damping": textile.TEST_DAMPING}))
    sim.set_pins(textile.clamps(sim.topology.rest_positions, (0, size - 1), 0.2))
    return sim
def timed(sim):
    steps = round(seconds / sim.settings.dt)
    sim.step(1)  # compiles or loads the machine code, and makes the first factor
    started = time.perf_counter()
    if sim.step(steps) != steps:
        return f"blew up: {sim.instability}"
    return steps * sim.settings.dt / (time.perf_counter() - started)
result = {"moving": timed(sheet())}
settled = sheet()
if settled.step(round(settle / settled.settings.dt)) != round(settle / settled.settings.dt):
    result["at rest"] = f"blew up while settling: {settled.instability}"
else:
    result["at rest"] = timed(settled)
result["sag"] = 1000 * settled.readouts().sag
print(json.dumps(result))
"""
)


def main() -> None:
    args, trees = revisions(
        __doc__.split("\n\n")[0], "e26e712", rounds=1, grids="32,64,128", seconds=0.5, settle=3.0
    )
    grids = [int(g) for g in args.grids.split(",")]
    runs: dict[tuple[int, str], list[dict]] = {}
    for _ in range(args.rounds):
        for size in grids:
            for tree, path in trees.items():
                child = (CHILD, str(path), str(size), str(args.seconds), str(args.settle))
                runs.setdefault((size, tree), []).append(json.loads(run_child(*child)))
    print(f"cotton sheet, clamped top corners, × real time over {args.seconds:g} s; "
          f"{args.rounds} round(s); before = {args.before}")  # fmt: skip
    for size in grids:
        for state in ("moving", "at rest"):
            figures = {}
            for tree in trees:
                values = [run[state] for run in runs[size, tree]]
                failed = [v for v in values if isinstance(v, str)]
                figures[tree] = failed[0] if failed else statistics.median(values)
            before, after = figures["before"], figures["after"]
            if isinstance(before, str) or isinstance(after, str):
                print(f"  {size:>4}² {state:>7}: before {before}; after {after}")
                continue
            sags = [statistics.median(r["sag"] for r in runs[size, t]) for t in trees]
            print(
                f"  {size:>4}² {state:>7}: before {before:.3f}×, after {after:.3f}× "
                f"({after / before:.2f} × before); sag {sags[0]:.2f} → {sags[1]:.2f} mm"
            )


if __name__ == "__main__":
    main()
