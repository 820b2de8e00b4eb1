"""The textile checks' small SI specimens settled in a revision and in this checkout, side by
side: where a step is hundreds of passes over a few dozen particles, what a pass costs besides
its kernels' work (Python and numba's dispatch) is most of the time.

    .venv/bin/python bench/small_specimens.py --before REV [--rounds 3]

The two trees take turns in child processes, --rounds times. Each child settles every specimen
for 0.05 s (its kernels load) and then for 3 s of model time; printed per specimen: seconds of
wall time in each tree (median of the rounds, with their range) and their ratio. A settle that
blew up or failed prints what happened, not a figure.
"""

from __future__ import annotations

import json

from trees import IMPORT_TREE, revisions, run_child, side_by_side

# Imports clothlab from the tree at sys.argv[1]; prints each specimen's settle in seconds, or
# what went wrong.
SPECIMENS_RUN = (
    IMPORT_TREE
    + r"""
from clothlab.sim.lab import textile

SPECIMENS = {  # name: (scene, model seconds)
    "hanging strip": (textile.hanging_strip_scene("cotton", length=1.0), 3.0),
    "cantilever": (textile.cantilever_scene("cotton"), 3.0),
    "drape 31 across": (textile.cusick_drape_scene(textile.si_spec("cotton"), 31),
                        textile.DRAPE_SECONDS),
}
timings = {}
for name, (scene, seconds) in SPECIMENS.items():
    try:
        textile.settle(scene, 0.05)  # its kernels load
        start = time.perf_counter()
        sim = textile.settle(scene, seconds)
        elapsed = time.perf_counter() - start
        timings[name] = elapsed if sim.instability is None else f"blew up: {sim.instability}"
    except Exception as error:
        timings[name] = f"failed: {type(error).__name__}: {error}"
print(json.dumps(timings))
"""
)


def main() -> None:
    args, trees = revisions(__doc__.splitlines()[0], "HEAD")
    runs: dict[str, dict[str, list]] = {}  # specimen → tree → its seconds (or what happened)
    for _ in range(args.rounds):
        for tree, path in trees.items():
            for name, result in json.loads(run_child(SPECIMENS_RUN, str(path))).items():
                runs.setdefault(name, {}).setdefault(tree, []).append(result)
    print(f"{args.rounds} rounds; seconds of wall time, median (min–max) of the rounds")
    print(f"{'specimen':>20} {'before ' + args.before:>22} {'this checkout':>22} {'ratio':>6}")
    for name, by_tree in runs.items():
        failed = [r for results in by_tree.values() for r in results if isinstance(r, str)]
        if failed:
            print(f"{name:>20}  {failed[0]}")
            continue
        print(f"{name:>20} {side_by_side(by_tree)}")


if __name__ == "__main__":
    main()
