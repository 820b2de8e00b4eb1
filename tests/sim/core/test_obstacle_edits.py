"""An obstacle edited under a resting cloth pushes it out gently: the
cloth is moved out of the grown or moved obstacle, and that move is not a velocity."""

from __future__ import annotations

import numpy as np
import pytest

from clothlab.sim.core.solver import RELAX_MIN_ROUNDS, RELAX_ROUNDS, Simulation, relax_rounds
from clothlab.sim.document.commands import apply_to_simulation
from clothlab.sim.document.composition import add_obstacle, change_obstacle, edit_of
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.scene import Scene, SphereSpec, build_simulation, with_setting

SETTLE_STEPS = 1500  # drop: the fastest particle below 0.01 units/s by then
GENTLE = 2.0  # units/s: the fastest particle after the edit stays slower than this


def _speeds(sim: Simulation) -> np.ndarray:
    h = sim.settings.dt / sim.settings.substeps
    return np.linalg.norm(sim.state.x - sim.state.x_prev, axis=1) / h


def _with_friction(scene: Scene) -> Scene:
    """Friction (table-cloth's) keeps the sheet resting on the sphere: without it, it slides
    off onto the floor and an enlarged sphere touches nothing."""
    scene = with_setting(scene, "friction_static", 0.6)
    return with_setting(scene, "friction_kinetic", 0.5)


def _drop_on_a_sphere() -> tuple[Scene, Simulation]:
    """`drop` with its ball swapped for a sphere obstacle in the same place, settled."""
    drop = _with_friction(load_preset("drop"))
    ball = SphereSpec(center=(0.0, -0.5, 0.0), radius=0.5)
    scene = with_setting(drop, "ball", False).model_copy(update={"obstacles": [ball]})
    sim = build_simulation(scene)
    sim.step(SETTLE_STEPS)
    return scene, sim


def _peak_speed_after(sim: Simulation, steps: int) -> float:
    peak = 0.0
    for _ in range(steps):
        sim.step()
        peak = max(peak, float(_speeds(sim).max()))
    return peak


@pytest.mark.parametrize("grow", [1.2, 1.5])
def test_enlarging_a_sphere_under_a_resting_sheet_pushes_it_out_gently(grow):
    scene, sim = _drop_on_a_sphere()
    before = float(_speeds(sim).max())
    radius = 0.5 * grow
    touching = np.linalg.norm(sim.state.x - [0.0, -0.5, 0.0], axis=1) < radius
    assert touching.sum() > 20  # the sheet rests on the sphere: the edit pushes it
    apply_to_simulation(sim, edit_of(scene, change_obstacle(scene, 0, radius=radius)))
    distance = np.linalg.norm(sim.state.x - [0.0, -0.5, 0.0], axis=1)
    assert distance.min() >= radius - 1e-9  # out at once, even while paused
    peak = _peak_speed_after(sim, 60)
    print(f"grow ×{grow}: fastest before {before:.3f}, after the edit {peak:.3f} units/s")
    assert peak < GENTLE
    distance = np.linalg.norm(sim.state.x - [0.0, -0.5, 0.0], axis=1)
    assert distance.min() >= radius - 1e-6


def test_enlarging_the_ball_under_a_resting_sheet_pushes_it_out_gently():
    sim = build_simulation(_with_friction(load_preset("drop")))
    sim.step(SETTLE_STEPS)
    sim.settings = sim.settings.with_value("ball_radius", 0.65)
    peak = _peak_speed_after(sim, 60)
    center = np.asarray(sim.settings.ball_center)
    assert peak < GENTLE
    assert np.linalg.norm(sim.state.x - center, axis=1).min() >= 0.65 - 1e-6


def test_an_obstacle_edit_that_reaches_no_particle_changes_nothing():
    scene, sim = _drop_on_a_sphere()
    x, x_prev = sim.state.x.copy(), sim.state.x_prev.copy()
    far = SphereSpec(center=(5.0, 3.0, 5.0), radius=0.5)
    apply_to_simulation(sim, edit_of(scene, add_obstacle(scene, far)))
    assert np.array_equal(sim.state.x, x) and np.array_equal(sim.state.x_prev, x_prev)


def test_a_big_sheet_is_relaxed_by_fewer_rounds_never_none():
    assert relax_rounds(584, 8) == RELAX_ROUNDS  # drop's sheet: every round
    assert relax_rounds(100_000, 8) == RELAX_MIN_ROUNDS  # a 128² sheet: a bounded cost
