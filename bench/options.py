"""Every option of `clothlab bench --options` (the classic model, then each option beyond it
alone) at one grid, in a revision and in this checkout, side by side.

    .venv/bin/python bench/options.py --before REV [--rounds 3] [--grid 128x128] [--passes 8]
        [--mode automatic|classic|colour|two-threads] [--only OPTION,OPTION...]

The two trees take turns in child processes, --rounds times, so that a machine whose speed
drifts slows both alike; each round runs `bench_grid` (three timed runs of ~0.3 s, their
median) for every option. Prints, per option, × real time in each tree (median of the rounds,
with their range) and their ratio. A run that blew up prints what happened, not a figure.
--mode fixes the link order and threads of every run (the solver_mode setting; automatic
times one thread against two as it goes, so its figures mix both). --only runs those options
alone (a 256² sheet's every option takes minutes a round).
"""

from __future__ import annotations

import json
import sys

from trees import IMPORT_TREE, revisions, run_child, side_by_side

from clothlab.app.bench import parse_grid
from clothlab.app.errors import UsageError
from clothlab.sim.core import ordering

MODES = {
    "automatic": ordering.AUTOMATIC,
    "classic": ordering.CLASSIC_ORDER,
    "colour": ordering.COLOUR_ORDER,
    "two-threads": ordering.TWO_THREADS,
}

# Imports clothlab from the tree at sys.argv[1]; for the grid and passes in sys.argv[2], each
# option's bench_grid result.
OPTIONS_RUN = (
    IMPORT_TREE
    + r"""
from clothlab.app.bench import BENCH_OPTIONS, bench_grid
cols, rows, passes, mode, only = json.loads(sys.argv[2])
print(json.dumps([bench_grid(cols, rows, passes, 3, option, {"solver_mode": mode, **settings})
                  for option, settings in BENCH_OPTIONS.items() if not only or option in only]))
"""
)


def main() -> None:
    args, trees = revisions(
        __doc__.splitlines()[0], "HEAD", grid="128x128", passes=8, mode="automatic", only=""
    )
    try:
        cols, rows = parse_grid(args.grid)
    except UsageError as error:
        sys.exit(str(error))
    if args.mode not in MODES:
        sys.exit(f"--mode must be one of {', '.join(MODES)}, not {args.mode!r}")
    only = [option for option in args.only.split(",") if option]
    job = json.dumps([cols, rows, args.passes, MODES[args.mode], only])
    runs: dict[str, dict[str, list[dict]]] = {}  # option → tree → its bench_grid results
    for _ in range(args.rounds):
        for tree, path in trees.items():
            for result in json.loads(run_child(OPTIONS_RUN, str(path), job)):
                runs.setdefault(result["option"], {}).setdefault(tree, []).append(result)
    if not runs:
        sys.exit(f"--only {args.only}: no such option")
    print(f"{cols}x{rows}, {args.passes} passes, {args.mode}, {args.rounds} rounds; × real time, "
          f"median (min–max) of the rounds")  # fmt: skip
    print(f"{'option':>15} {'before ' + args.before:>22} {'this checkout':>22} {'ratio':>6}")
    for option, by_tree in runs.items():
        failed = {tree: r["failed"] for tree, rs in by_tree.items() for r in rs if "failed" in r}
        if failed:
            print(f"{option:>15}  a run failed: {failed}")
            continue
        factors = {tree: [r["realtime_factor"] for r in rs] for tree, rs in by_tree.items()}
        print(f"{option:>15} {side_by_side(factors)}")


if __name__ == "__main__":
    main()
