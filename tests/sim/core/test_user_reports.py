"""What a new user hit, in numbers: the grab stays in the world the model allows,
switching the ball on traps no sheet, stiffness cannot switch every link off, and what stops
the squashed block's spin."""

from __future__ import annotations

import numpy as np
import pytest
from sim_helpers import hanging_sheet

from clothlab.sim.core.parameters import PARAMETERS
from clothlab.sim.document.commands import GrabMove, GrabStart, apply_to_simulation
from clothlab.sim.document.presets import load_preset, preset_names
from clothlab.sim.document.scene import build_simulation, scene_settings, with_setting


def test_a_grabbed_particle_is_held_above_the_floor_and_outside_the_ball():
    sim = hanging_sheet(5, 4, ball=True, ball_center=(0.0, 0.0, 2.0), ball_radius=0.5)
    apply_to_simulation(sim, GrabStart(7, (0.0, -1.72, 0.0)))  # floor at −1.6
    sim.step(2)
    assert sim.state.x[7, 1] == pytest.approx(-1.6)
    apply_to_simulation(sim, GrabMove((0.0, 0.0, 1.8)))  # 0.2 inside the ball
    sim.step(2)
    assert np.linalg.norm(sim.state.x[7] - [0.0, 0.0, 2.0]) == pytest.approx(0.5)


def test_a_grab_while_paused_moves_the_held_particle_at_once_and_at_rest():
    sim = hanging_sheet(5, 4)
    steps = sim.state.steps
    apply_to_simulation(sim, GrabStart(12, (0.3, -0.5, 0.4), place=True))
    assert tuple(sim.state.x[12]) == (0.3, -0.5, 0.4)
    apply_to_simulation(sim, GrabMove((0.4, -0.5, 0.4), place=True))
    assert tuple(sim.state.x[12]) == (0.4, -0.5, 0.4)
    assert np.array_equal(sim.state.x_prev[12], sim.state.x[12])  # no velocity from a pause
    assert sim.state.steps == steps


@pytest.mark.parametrize("name", [n for n in preset_names() if not load_preset(n).ball.enabled])
def test_switching_the_ball_on_in_a_preset_traps_no_particle(name):
    """Shift+B on the default scene put the ball in the sheet's plane (294 % stretch)."""
    scene = load_preset(name)
    settings = scene_settings(scene)
    rest = build_simulation(scene).state.x
    gap = np.linalg.norm(rest - np.asarray(settings.ball_center), axis=1) - settings.ball_radius
    assert gap.min() > 0.1, f"{name}: a particle {-gap.min():.2f} inside the ball"
    sim = build_simulation(with_setting(scene, "ball", True))
    sim.step(120)  # a trapped particle is pulled out through the sheet in the first steps
    assert sim.readouts().max_stretch < 0.5


def test_stiffness_cannot_switch_every_link_off():
    """At stiffness 0 no link acts: the sheet falls through itself and does not come back."""
    assert PARAMETERS["stiffness"].minimum > 0.0
    with pytest.raises(ValueError):
        PARAMETERS["stiffness"].check(0.0)


def squashed_and_held(depth: float = 0.4, **settings):
    """soft-block settled, its top-centre particle pulled `depth` down and held for 6 s."""
    sim = build_simulation(load_preset("soft-block"))
    for key, value in settings.items():
        sim.settings = sim.settings.with_value(key, value)
    sim.step(120)
    x = sim.state.x
    top = np.flatnonzero(np.isclose(x[:, 1], x[:, 1].max(), atol=0.05))
    centre = top[np.argmin(np.linalg.norm(x[top, ::2] - x[top, ::2].mean(axis=0), axis=1))]
    sim.grab(centre, x[centre] - (0.0, depth, 0.0))
    sim.step(720)
    v = (sim.state.x - sim.state.x_prev) * 120.0
    spin = np.cross(sim.state.x - sim.state.x.mean(axis=0), v).sum(axis=0)[1]
    return sim.readouts().motion, spin


@pytest.mark.parametrize("depth", [0.1, 0.25, 0.4])
def test_a_squashed_and_held_block_comes_to_rest_without_turning(depth):
    """soft-block stands on a floor with friction (μ 0.5 / 0.4): squashed and held from its
    top centre it settles with motion → 0 and no angular momentum about its centre."""
    motion, spin = squashed_and_held(depth)
    print(f"\nsquashed {depth}: motion {motion:.2e} units/s, L_y {spin:.2e}")
    assert motion < 1e-3 and abs(spin) < 1e-2


def test_on_a_frictionless_floor_the_squashed_block_turns_while_held():
    """Why the preset's floor has friction (a known limit, RESEARCH.md §5). Held squashed on
    the frictionless floor, the links under the hand turn by more than 26° a step and are
    corrected along themselves now, which turns the block; let go, it comes to rest
    (tests/sim/core/test_damping_wins.py)."""
    motion, spin = squashed_and_held(friction_static=0.0, friction_kinetic=0.0)
    print(f"\nfrictionless: motion {motion:.3f} units/s, L_y {spin:.1f}")
    assert motion > 0.5 and abs(spin) > 20.0
