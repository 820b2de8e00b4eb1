"""Steps/s of a fine sheet while it tears, and how much of the time goes to rebuilding what the
tears invalidate (the live-link arrays, the constraint sets that depend on the links).

The default sheet's cloth (2.8 × 2.0 units) at 64² and 128², pinned at its top corners, with
tearing on. A grab rips it: it holds a particle of the bottom-left corner and pulls it down and
out of the plane at PULL_SPEED; whenever the held particle is no longer part of the biggest
piece (it tore loose, or holds a torn-off flap) it takes the particle of the biggest piece
nearest to the pointer, as a hand ripping cloth does. So the sheet tears steadily for the
whole run. Each run is a fresh simulation; figures are the median and min–max over the runs.
Only the time inside Simulation.step counts: the grab's bookkeeping is the bench's own.

    .venv/bin/python bench/tearing.py [--sizes 64 128] [--runs 3] [--seconds 2]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import numba
import numpy as np
from numba import njit

from clothlab.sim.core import constraint_sets, integrators, solver
from clothlab.sim.core.solver import Simulation
from clothlab.sim.core.topology import TopologyBuilder

SHEET = (2.8, 2.0)  # units: the default sheet's size, as `clothlab bench` uses
PULL_SPEED = 1.0  # units/s, of the grab's pointer
PULL_DIRECTION = np.array([0.0, -1.0, 1.0]) / np.sqrt(2.0)  # down and out of the sheet
CHECK_EVERY = 6  # steps between looks at whether the grab still holds the sheet
# Without tethers the sheet stretches to many times its rest length under its own weight
# (8 passes of Gauss–Seidel do not converge on 128 rows): at a low ratio it would tear off its
# pins in the first steps and then hang from the grab alone.
CASES = (
    ("tethers", {"tethers": True, "tear_ratio": 1.5}),
    ("no tethers", {"tethers": False, "tear_ratio": 4.0}),
    # every set that a tear invalidates: bending links and the aerodynamic triangles too
    ("all sets", {"tethers": True, "tear_ratio": 1.5, "bending": True, "aerodynamic": True}),
)
# What a tear makes rebuild: the solver's own update and each constraint set's build.
SETS = (
    constraint_sets.LinkSet,
    constraint_sets.BendingSet,
    constraint_sets.TetherSet,
    constraint_sets.ContactSet,
)
# Rebuilt outside the sets, found by name where they are called from: the links' stiffness
# and compliance (the solver, when the links changed) and the surface aerodynamic wind acts on
# (the extended integrator).
ELSEWHERE = (
    (solver, "build_link_material"),
    (integrators, "air_surface"),
)
REBUILDS = (
    "_update_links",
    *(f"{cls.__name__}.build" for cls in SETS),
    *(name for _, name in ELSEWHERE),
)


@njit(cache=True, nogil=True)
def biggest_piece(
    particle_count: int,
    link_a: np.ndarray,  # (L,) int32, live links
    link_b: np.ndarray,  # (L,) int32
) -> np.ndarray:
    """(N,) bool: the particles of the biggest connected piece (union–find)."""
    parent = np.arange(particle_count)
    for k in range(link_a.shape[0]):
        i, j = link_a[k], link_b[k]
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        while parent[j] != j:
            parent[j] = parent[parent[j]]
            j = parent[j]
        if i != j:
            parent[max(i, j)] = min(i, j)
    size = np.zeros(particle_count, dtype=np.int64)
    root = np.empty(particle_count, dtype=np.int64)
    for i in range(particle_count):
        r = i
        while parent[r] != r:
            r = parent[r]
        root[i] = r
        size[r] += 1
    return root == np.argmax(size)


class Timers:
    """Seconds spent in each wrapped method, while `on`."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self.on = False

    def wrap(self, name: str, method: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return method(*args, **kwargs)
            finally:
                if self.on:
                    self.seconds[name] += time.perf_counter() - started
                    self.calls[name] += 1

        return timed


TIMERS = Timers()
for _cls in SETS:
    _cls.build = TIMERS.wrap(f"{_cls.__name__}.build", _cls.build)
for _module, _name in ELSEWHERE:  # looked up in the module's globals when they run
    setattr(_module, _name, TIMERS.wrap(_name, getattr(_module, _name)))


def make_sheet(n: int, settings: dict[str, Any]) -> Simulation:
    width, height = SHEET
    builder = TopologyBuilder()
    builder.add_sheet(n, n, width / (n - 1), spacing_y=height / (n - 1))
    topology = builder.build()
    sim = Simulation(topology, pins={i: tuple(topology.rest_positions[i]) for i in (0, n - 1)})
    for key, value in {"tearing": True, "floor": False, **settings}.items():
        sim.settings = sim.settings.with_value(key, value)
    sim._update_links = TIMERS.wrap("_update_links", sim._update_links)  # type: ignore[method-assign]
    return sim


def run(n: int, settings: dict[str, Any], seconds: float) -> dict[str, Any]:
    """One ripping run: steps/s inside Simulation.step, links torn, rebuild seconds."""
    sim = make_sheet(n, settings)
    topology = sim.topology
    held = (n - 1) * n  # bottom-left corner
    target = sim.state.x[held].copy()
    sim.grab(held, target)
    steps = round(seconds / sim.settings.dt)
    TIMERS.seconds.clear()
    TIMERS.calls.clear()
    TIMERS.on = True
    stepping, taken, regrabs = 0.0, 0, 0
    failed = None
    try:
        while taken < steps:
            for _ in range(min(CHECK_EVERY, steps - taken)):
                target += PULL_DIRECTION * PULL_SPEED * sim.settings.dt
                sim.move_grab(target)
                started = time.perf_counter()
                done = sim.step(1)
                stepping += time.perf_counter() - started
                if done != 1:
                    failed = sim.instability.message if sim.instability else "blew up"
                    break
                taken += 1
            if failed:
                break
            alive = sim.state.link_alive
            links = topology.links[alive]
            piece = biggest_piece(topology.particle_count, links[:, 0], links[:, 1])
            piece[sim.state.pin_index] = False  # a pin cannot be grabbed
            if not piece[held] and piece.any():
                candidates = np.flatnonzero(piece)
                distance = np.linalg.norm(sim.state.x[candidates] - target, axis=1)
                held = int(candidates[np.argmin(distance)])
                target = sim.state.x[held].copy()
                sim.grab(held, target)
                regrabs += 1
    finally:
        TIMERS.on = False
    return {
        "failed": failed,
        "steps": taken,
        "steps_per_second": taken / stepping if stepping else 0.0,
        "stepping": stepping,
        "torn": len(sim.torn),
        "regrabs": regrabs,
        "rebuild": dict(TIMERS.seconds),
        "calls": dict(TIMERS.calls),
    }


def report(n: int, label: str, settings: dict[str, Any], runs: int, seconds: float) -> None:
    results = []
    for _ in range(runs):
        result = run(n, settings, seconds)
        if result["failed"]:
            print(f"{n}² {label:<11}  FAILED: {result['failed']} (after {result['steps']} steps)")
            return
        results.append(result)
    rates = [r["steps_per_second"] for r in results]
    middle = sorted(results, key=lambda r: r["steps_per_second"])[len(results) // 2]
    rebuild = sum(middle["rebuild"].values())
    print(
        f"{n}² {label:<11}  {statistics.median(rates):7.1f} steps/s "
        f"({min(rates):.1f}–{max(rates):.1f}), {middle['steps']} steps, "
        f"{middle['torn']} links torn ({middle['regrabs']} regrabs), "
        f"rebuilds {rebuild:.2f} s of {middle['stepping']:.2f} s "
        f"({rebuild / middle['stepping']:.0%})"
    )
    for name in REBUILDS:
        if middle["calls"].get(name):
            print(
                f"      {name:<22} {middle['rebuild'][name] * 1e3:8.1f} ms "
                f"in {middle['calls'][name]} calls"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[64, 128])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=2.0, help="model time per run")
    args = parser.parse_args()
    print(
        f"{os.cpu_count()} cores, {numba.config.NUMBA_NUM_THREADS} numba threads; "
        f"{args.runs} runs of {args.seconds:g} s model time each"
    )
    for _, settings in CASES:  # compile, or load the cached machine code, of every path
        for n in (16, max(args.sizes)):
            run(n, settings, 0.1)
    for n in args.sizes:
        for label, settings in CASES:
            report(n, label, settings, args.runs, args.seconds)


if __name__ == "__main__":
    main()
