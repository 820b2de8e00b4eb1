"""Where a step of the extended integrator goes: each constraint set's
per-substep `begin` and per-pass projections, timed around their calls, in ms a step.

    .venv/bin/python bench/step_parts.py [--option self_collision] [--grid 128x128]
        [--settle 60] [--steps 60] [--before REV [--rounds 3]]

The sheet is clothlab bench's (pinned at two corners, 8 passes) with one of its options; it is
stepped --settle steps first (for self-collision: until it has folded into close pairs), then
--steps steps are timed. The remainder (prediction, forces, pins, Python) is the step's time
less the sets'. A run that blew up says so instead. With --before, that revision and this
checkout take turns in child processes, --rounds times, and each prints its medians.
"""

from __future__ import annotations

import argparse
import collections
import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from trees import IMPORT_TREE, ROOT, before_tree, run_child

from clothlab.app.bench import BENCH_OPTIONS, bench_sheet, parse_grid

HERE = Path(__file__).resolve().parent


def timed(call: Callable, key: str, spent: collections.Counter) -> Callable:
    def wrapper(*args: object) -> object:
        started = time.perf_counter()
        result = call(*args)
        spent[key] += time.perf_counter() - started
        return result

    return wrapper


def projected(projections: Callable, key: str, spent: collections.Counter) -> Callable:
    """`projections` whose calls are each timed."""

    def wrapper(sub: object) -> tuple[Callable, ...]:
        return tuple(timed(call, key, spent) for call in projections(sub))

    return wrapper


def measure(option: str, grid: str, settle: int, steps: int) -> dict[str, float] | str:
    """ms a step of each set's begin and project, "step" (the whole) and "× real time"; or
    what went wrong."""
    cols, rows = parse_grid(grid)
    sim = bench_sheet(cols, rows, 8, BENCH_OPTIONS[option])
    if sim.step(settle + 1) != settle + 1:
        return f"blew up while settling: {sim.instability}"
    if sim._extended is None:
        return f"{option} runs the classic integrator: it has no constraint sets to time"
    spent: collections.Counter = collections.Counter()
    for c in sim._extended.sets:
        name = type(c).__name__
        c.begin = timed(c.begin, f"{name}.begin", spent)
        if hasattr(c, "projections"):  # a pass's calls, prepared once a step
            c.projections = projected(c.projections, f"{name}.project", spent)
        else:  # a revision before them: project(sub), once a pass
            c.project = timed(c.project, f"{name}.project", spent)
    started = time.perf_counter()
    taken = sim.step(steps)
    total = time.perf_counter() - started
    if taken != steps:
        return f"blew up after {taken} of {steps} timed steps: {sim.instability}"
    parts = {key: 1e3 * seconds / steps for key, seconds in spent.most_common()}
    parts["the rest"] = 1e3 * (total - sum(spent.values())) / steps
    return {"step": 1e3 * total / steps, "× real time": steps / total * sim.settings.dt, **parts}


def report(title: str, figures: dict[str, list[float]]) -> None:
    """Each figure's median over the rounds (and range, when there are several)."""

    def shown(values: list[float]) -> str:
        middle = f"{statistics.median(values):6.2f}"
        return middle if len(values) == 1 else f"{middle} ({min(values):.2f}–{max(values):.2f})"

    whole = ("step", "× real time")
    print(f"{title}: {shown(figures['step'])} ms a step, "
          f"{shown(figures['× real time'])}× real time")  # fmt: skip
    for key, values in figures.items():
        if key not in whole:
            print(f"  {key:<26} {shown(values)} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--option", choices=sorted(BENCH_OPTIONS), default="self_collision")
    parser.add_argument("--grid", default="128x128")
    parser.add_argument("--settle", type=int, default=60)
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--before", help="a revision to measure in turn with this checkout")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    title = f"{args.option}, {args.grid}, {args.steps} steps after {args.settle}"
    if args.before is None:
        measured = measure(args.option, args.grid, args.settle, args.steps)
        if isinstance(measured, str):
            print(measured)
            return
        report(title, {key: [value] for key, value in measured.items()})
        return
    trees = {f"before {args.before}": before_tree(args.before), "this checkout": ROOT}
    child = IMPORT_TREE + CHILD
    figures: dict[str, dict[str, list[float]]] = {name: {} for name in trees}
    for _ in range(args.rounds):
        for name, tree in trees.items():
            out = run_child(child, str(tree), str(HERE), json.dumps(vars(args)))
            measured = json.loads(out)
            if isinstance(measured, str):
                print(f"{name}: {measured}")
                return
            for key, value in measured.items():
                figures[name].setdefault(key, []).append(value)
    for name, by_key in figures.items():
        report(f"{name}: {title}, {args.rounds} rounds, medians", by_key)


# A child measures in the tree at sys.argv[1] with this file's measure (sys.argv[2] its folder).
CHILD = """
sys.path.insert(0, sys.argv[2])
import step_parts
a = json.loads(sys.argv[3])
print(json.dumps(step_parts.measure(a["option"], a["grid"], a["settle"], a["steps"])))
"""


if __name__ == "__main__":
    main()
