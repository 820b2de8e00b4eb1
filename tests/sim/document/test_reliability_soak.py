"""Reliability 4 — long runs with random edits.

A hypothesis state machine steps the hanging sheet and edits it at random: cuts (link subsets
and strokes), pins added, removed and moved, the ball moved and toggled, undo and redo of all
of these through `sim.document.edits` records and their inverses. After every rule: no NaN, no link
refers to a missing particle, derived link data matches the mask; after a step, every pin
sits exactly on its anchor; undo returns the state hash from before the edit and redo the one
after it. The short run is part of the default suite; the soak of ≥ 10⁶ steps is `slow`.
"""

from __future__ import annotations

import gc
import hashlib
import time
import tracemalloc
import warnings

import numpy as np
import pytest
import sim_helpers
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from clothlab.sim.core.state import faces_alive
from clothlab.sim.document import edits
from clothlab.sim.document.commands import apply_to_document, apply_to_simulation
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.scene import build_simulation, capture_scene, parse_scene, scene_json

SCENE = load_preset("hanging-sheet")
totals = {"steps": 0, "edits": 0, "undos": 0, "redos": 0, "instabilities": 0}

coordinate = st.floats(-1.8, 1.8, allow_nan=False)
offset = st.floats(-0.5, 0.5, allow_nan=False)


def state_hash(sim) -> str:
    """What edits change: the live-link mask, the pins and the settings (not positions)."""
    digest = hashlib.sha256(sim.state.link_alive.tobytes())
    digest.update(repr(sorted(sim.pins.items())).encode())
    digest.update(repr(sim.settings).encode())
    return digest.hexdigest()


class Soak(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.sim = build_simulation(SCENE)
        self.scene = SCENE  # the document: every edit goes to it and to the simulation
        self.rest_xy = self.sim.topology.rest_positions[:, :2].copy()  # the cut "screen"
        self.undo_stack: list[tuple[edits.Edit, str, str]] = []  # edit, hash before, after
        self.redo_stack: list[tuple[edits.Edit, str, str]] = []
        self.pins_settled = False  # True: a step came after the last pin change

    # --- helpers ---------------------------------------------------------------------------

    def apply(self, edit: edits.Edit) -> None:
        apply_to_simulation(self.sim, edit)
        self.scene = apply_to_document(self.scene, edit)

    def do(self, edit: edits.Edit) -> None:
        before = state_hash(self.sim)
        self.apply(edit)
        self.undo_stack.append((edit, before, state_hash(self.sim)))
        self.redo_stack.clear()
        self.pins_settled &= not isinstance(edit, edits.SetPin)
        totals["edits"] += 1

    def pick_pin(self, which: int) -> int:
        return sorted(self.sim.pins)[which % len(self.sim.pins)]

    # --- rules -----------------------------------------------------------------------------

    @rule(count=st.integers(1, 500))
    def step(self, count: int) -> None:
        taken = self.sim.step(count)
        totals["steps"] += taken
        if taken < count:  # a blow-up: the guard restored a good state
            totals["instabilities"] += 1
            totals["steps"] += self.sim.step(count - taken)
        self.pins_settled = True

    @rule(links=st.lists(st.integers(0, 583), max_size=40))
    def cut_links(self, links: list[int]) -> None:
        self.do(sim_helpers.cut(self.sim, links))

    @rule(stroke=st.lists(st.tuples(coordinate, coordinate), min_size=2, max_size=5))
    def cut_stroke(self, stroke: list[tuple[float, float]]) -> None:
        sim = self.sim
        crossed = edits.links_crossing_stroke(
            self.rest_xy, sim.topology.links, sim.state.link_alive, np.array(stroke)
        )
        self.do(sim_helpers.cut(sim, crossed))

    @rule(particle=st.integers(0, 164))
    def add_pin(self, particle: int) -> None:
        self.do(sim_helpers.add_pin(self.sim, particle))

    @precondition(lambda self: self.sim.pins)
    @rule(which=st.integers(0, 1000))
    def remove_pin(self, which: int) -> None:
        self.do(sim_helpers.remove_pin(self.sim, self.pick_pin(which)))

    @precondition(lambda self: self.sim.pins)
    @rule(which=st.integers(0, 1000), by=st.tuples(offset, offset, offset))
    def move_pin(self, which: int, by: tuple[float, float, float]) -> None:
        particle = self.pick_pin(which)
        anchor = np.clip(np.add(self.sim.pins[particle], by), -3.0, 3.0)
        self.do(sim_helpers.move_pin(self.sim, particle, tuple(anchor)))

    @rule(center=st.tuples(coordinate, coordinate, st.floats(-1.0, 1.0)))
    def move_ball(self, center: tuple[float, float, float]) -> None:
        self.do(sim_helpers.move_ball(self.sim, center))

    @rule()
    def toggle_ball(self) -> None:
        self.do(sim_helpers.set_setting(self.sim, "ball", not self.sim.settings.ball))

    @precondition(lambda self: self.undo_stack)
    @rule()
    def undo(self) -> None:
        edit, before, after = self.undo_stack.pop()
        assert state_hash(self.sim) == after
        self.apply(edit.inverse())
        assert state_hash(self.sim) == before
        self.redo_stack.append((edit, before, after))
        self.pins_settled &= not isinstance(edit, edits.SetPin)
        totals["undos"] += 1

    @precondition(lambda self: self.redo_stack)
    @rule()
    def redo(self) -> None:
        edit, before, after = self.redo_stack.pop()
        assert state_hash(self.sim) == before
        self.apply(edit)
        assert state_hash(self.sim) == after
        self.undo_stack.append((edit, before, after))
        self.pins_settled &= not isinstance(edit, edits.SetPin)
        totals["redos"] += 1

    @precondition(lambda self: self.undo_stack)
    @rule()
    def undo_then_redo(self) -> None:
        start = state_hash(self.sim)
        edit, _, _ = self.undo_stack[-1]
        self.apply(edit.inverse())
        self.apply(edit)
        assert state_hash(self.sim) == start

    @rule()
    def save_and_reload(self) -> None:
        sim = self.sim
        again = build_simulation(parse_scene(scene_json(capture_scene(self.scene, sim))))
        assert np.array_equal(again.state.link_alive, sim.state.link_alive)
        assert again.pins == sim.pins and again.settings == sim.settings

    # --- invariants ------------------------------------------------------------------------

    @invariant()
    def finite(self) -> None:
        assert np.isfinite(self.sim.state.x).all() and np.isfinite(self.sim.state.x_prev).all()

    @invariant()
    def links_refer_to_particles_and_match_the_mask(self) -> None:
        sim = self.sim
        n = sim.topology.particle_count
        assert sim.topology.links.min() >= 0 and sim.topology.links.max() < n
        live = np.flatnonzero(sim.state.link_alive)
        assert np.array_equal(np.sort(sim.links.live), live)
        assert sim.links.count == len(live)
        for ends in (sim.links.a, sim.links.b):
            assert len(ends) == 0 or (ends.min() >= 0 and ends.max() < n)
        assert np.array_equal(sim.links.a, sim.topology.links[sim.links.live, 0])
        assert np.array_equal(sim.links.b, sim.topology.links[sim.links.live, 1])
        face_alive = faces_alive(sim.state.link_alive, sim.topology.face_links)
        assert np.array_equal(sim.state.face_alive, face_alive)

    @invariant()
    def pins_on_their_anchors_after_a_step(self) -> None:
        if self.pins_settled:
            for particle, anchor in self.sim.pins.items():
                assert tuple(self.sim.state.x[particle]) == anchor


def run_soak(examples: int, rules_per_example: int) -> None:
    run_state_machine_as_test(
        Soak,
        settings=settings(
            max_examples=examples,
            stateful_step_count=rules_per_example,
            deadline=None,
            database=None,  # fresh random runs every time, nothing replayed
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )


def test_soak_short():
    before = totals["steps"]
    run_soak(examples=10, rules_per_example=40)
    print(f"\nshort soak: {totals['steps'] - before} steps, {totals['edits']} edits")
    assert totals["steps"] - before >= 1000


def rss_kib() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


@pytest.mark.slow
def test_soak_a_million_steps():
    # warm up first (hypothesis starts with tiny examples that never step): numba loads its
    # cached kernels and their typing tables on the first step, a one-time ~17 MB
    run_soak(examples=20, rules_per_example=100)
    gc.collect()
    for key in totals:
        totals[key] = 0
    tracemalloc.start()
    traced = [tracemalloc.get_traced_memory()[0]]
    rss = [rss_kib()]
    started = time.perf_counter()
    while totals["steps"] < 1_000_000:
        run_soak(examples=20, rules_per_example=100)
        gc.collect()
        traced.append(tracemalloc.get_traced_memory()[0])
        rss.append(rss_kib())
    seconds = time.perf_counter() - started
    tracemalloc.stop()
    half = len(traced) // 2
    print(
        f"\nsoak: {totals['steps']} steps in {seconds:.0f} s ({len(traced) - 1} × 20 runs of "
        f"100 rules), {totals['edits']} edits, {totals['undos']} undos, {totals['redos']} "
        f"redos, {totals['instabilities']} instabilities; memory growth: traced "
        f"{(traced[-1] - traced[0]) / 1024:.0f} KiB ({(traced[-1] - traced[half]) / 1024:.0f} "
        f"KiB in the second half), RSS {rss[-1] - rss[0]} KiB ({rss[-1] - rss[half]} KiB)"
    )
    assert totals["instabilities"] == 0  # nothing in these edits should blow up the model
    assert traced[-1] - traced[0] < 8 * 1024 * 1024


def test_a_stroke_almost_parallel_to_a_link_cuts_nothing_and_warns_nothing():
    """Found by the soak: a stroke with a subnormal slope made the intersection division
    overflow (a RuntimeWarning on every such stroke); the overflow now counts as no hit."""
    screen = np.array([[0.0, -0.2], [1.0, -0.2]])
    links = np.array([[0, 1]], dtype=np.int32)
    stroke = np.array([[-1.0, 0.0], [1.0, 5e-324]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        crossed = edits.links_crossing_stroke(screen, links, np.ones(1, bool), stroke)
    assert len(crossed) == 0
