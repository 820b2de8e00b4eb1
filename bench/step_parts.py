"""Where a step of the extended integrator goes (issue 31 item 2): each constraint set's
per-substep `begin` and per-pass `project`, timed around their calls, in ms a step.

    .venv/bin/python bench/step_parts.py [--option self_collision] [--grid 128x128]
        [--settle 60] [--steps 60]

The sheet is clothlab bench's (pinned at two corners, 8 passes) with one of its options; it is
stepped --settle steps first (for self-collision: until it has folded into close pairs), then
--steps steps are timed. The remainder (prediction, forces, pins, Python) is the step's time
less the sets'. A run that blew up says so instead.
"""

from __future__ import annotations

import argparse
import collections
import time
from collections.abc import Callable

from clothlab.app.bench import BENCH_OPTIONS, bench_sheet, parse_grid


def timed(call: Callable, key: str, spent: collections.Counter) -> Callable:
    def wrapper(*args: object) -> None:
        started = time.perf_counter()
        call(*args)
        spent[key] += time.perf_counter() - started

    return wrapper


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--option", choices=sorted(BENCH_OPTIONS), default="self_collision")
    parser.add_argument("--grid", default="128x128")
    parser.add_argument("--settle", type=int, default=60)
    parser.add_argument("--steps", type=int, default=60)
    args = parser.parse_args()
    cols, rows = parse_grid(args.grid)
    sim = bench_sheet(cols, rows, 8, BENCH_OPTIONS[args.option])
    if sim.step(args.settle + 1) != args.settle + 1:
        print(f"blew up while settling: {sim.instability}")
        return
    if sim._extended is None:
        print(f"{args.option} runs the classic integrator: it has no constraint sets to time")
        return
    spent: collections.Counter = collections.Counter()
    for c in sim._extended.sets:
        for name in ("begin", "project"):
            setattr(c, name, timed(getattr(c, name), f"{type(c).__name__}.{name}", spent))
    started = time.perf_counter()
    taken = sim.step(args.steps)
    total = time.perf_counter() - started
    if taken != args.steps:
        print(f"blew up after {taken} of {args.steps} timed steps: {sim.instability}")
        return
    per_step = 1e3 / args.steps
    print(f"{args.option}, {args.grid}, {args.steps} steps after {args.settle}: "
          f"{1e3 * total / args.steps:.2f} ms a step, "
          f"{args.steps / total * sim.settings.dt:.2f}× real time")  # fmt: skip
    for key, seconds in spent.most_common():
        print(f"  {key:<26} {seconds * per_step:6.2f} ms")
    print(f"  {'the rest':<26} {(total - sum(spent.values())) * per_step:6.2f} ms")


if __name__ == "__main__":
    main()
