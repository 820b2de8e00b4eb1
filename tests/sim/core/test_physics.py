"""Physics facts of the classic model, with numbers: invariants and analytic results."""

import itertools
import math

import numpy as np
import pytest
from sim_helpers import hanging_sheet, lone_particles, move_pin, sheet_topology

from clothlab.sim.core import readouts
from clothlab.sim.core.parameters import Settings
from clothlab.sim.core.solver import Simulation
from clothlab.sim.document.commands import apply_to_simulation
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.scene import build_simulation

DT = 1.0 / 120.0
G = 9.8
DAMPING = 0.994
SETTLE_STEPS = 600  # 5 s of model time: ~3.6 damping time constants 1/(1 − 0.994) steps


def preset_sim(name, **changes):
    sim = build_simulation(load_preset(name))
    for key, value in changes.items():
        sim.settings = sim.settings.with_value(key, value)
    return sim


def settled(name="hanging-sheet", steps=SETTLE_STEPS, **changes):
    sim = preset_sim(name, **changes)
    sim.step(steps)
    return sim


def assert_pins_exact(sim):
    for particle, anchor in sim.pins.items():
        assert tuple(sim.state.x[particle]) == anchor  # exactly, not approximately


# --- pins and finiteness ----------------------------------------------------------------------


def test_pins_stay_exactly_on_anchors_over_many_steps():
    sim = preset_sim("hanging-sheet")
    for _ in range(10):
        sim.step(60)
        assert_pins_exact(sim)
    assert np.isfinite(sim.state.x).all()
    assert readouts.sag(sim) > 0.005  # the sheet did move


def test_pins_stay_exactly_on_anchors_with_wind_and_ball():
    sim = preset_sim("ball-start", wind=20.0)
    for _ in range(300):
        sim.step()
        assert_pins_exact(sim)
    assert np.isfinite(sim.state.x).all()


def test_pins_jump_exactly_to_a_moved_anchor():
    sim = preset_sim("hanging-sheet", wind=5.0)
    sim.step(120)
    apply_to_simulation(sim, move_pin(sim, 14, (0.9, 1.3, 0.25)))
    sim.step()
    assert tuple(sim.state.x[14]) == (0.9, 1.3, 0.25)
    sim.step(239)
    assert_pins_exact(sim)
    assert np.isfinite(sim.state.x).all()


# --- predict, wind, terminal speed -------------------------------------------------------------


def test_one_predict_step_from_rest_falls_exactly_g_dt_squared():
    sim = Simulation(lone_particles([0.7, 0.3, 0.1]), Settings(floor=False))
    sim.step()
    assert sim.state.x[0, 1] == 0.3 - G * DT * DT
    assert sim.state.x[0, 0] == 0.7
    assert sim.state.x[0, 2] == 0.1
    assert tuple(sim.state.x_prev[0]) == (0.7, 0.3, 0.1)


def test_one_step_of_a_free_sheet_translates_every_particle_by_g_dt_squared():
    sim = Simulation(sheet_topology(4, 3), Settings(floor=False))
    x0 = sim.state.x.copy()
    sim.step()
    displacement = sim.state.x - x0
    assert np.allclose(displacement[:, 1], -G * DT * DT, rtol=0, atol=1e-15)
    assert np.allclose(displacement[:, [0, 2]], 0.0, rtol=0, atol=1e-15)


@pytest.mark.parametrize("x", [-1.4, 0.0, 0.7, 2.0])
def test_wind_pushes_along_plus_z_with_the_gust_formula(x):
    wind = 5.0
    sim = Simulation(lone_particles([x, 0.3, 0.1]), Settings(floor=False, gravity=0.0, wind=wind))
    sim.step()
    expected = wind * (0.6 + 0.4 * math.sin(2.0 * 0.0 + x)) * DT * DT
    assert sim.state.x[0, 2] - 0.1 == pytest.approx(expected, rel=1e-12, abs=0)
    assert sim.state.x[0, 0] == x
    assert sim.state.x[0, 1] == 0.3


def test_wind_gust_follows_model_time():
    wind, x = 5.0, 0.7
    sim = Simulation(lone_particles([x, 0.0, 0.0]), Settings(floor=False, gravity=0.0, wind=wind))
    sim.step(10)
    before = sim.state.x[0, 2] - sim.state.x_prev[0, 2]
    t = sim.state.t
    assert t == pytest.approx(10 * DT, rel=1e-12)
    assert sim.state.steps == 10
    sim.step()
    gust = wind * (0.6 + 0.4 * math.sin(2.0 * t + x))
    step = sim.state.x[0, 2] - sim.state.x_prev[0, 2]
    assert step == pytest.approx(before * DAMPING + gust * DT * DT, rel=1e-12)


def test_free_particle_tends_to_terminal_speed_g_dt_over_one_minus_damping():
    terminal = G * DT / (1.0 - DAMPING)
    assert terminal == pytest.approx(13.6111111, rel=1e-8)
    sim = Simulation(lone_particles([0.0, 0.0, 0.0]), Settings(floor=False))
    sim.step(1000)
    # after n steps the speed is g·Δt·(1 − 0.994ⁿ)/(1 − 0.994)
    analytic = terminal * (1.0 - DAMPING**1000)
    assert sim.readouts().motion == pytest.approx(analytic, rel=1e-9)
    assert sim.readouts().motion < terminal * 0.998
    sim.step(3000)
    print(f"speed after 4000 steps {sim.readouts().motion:.9f}, limit {terminal:.9f}")
    assert sim.readouts().motion == pytest.approx(terminal, rel=1e-6)


# --- sag against solver settings and load ----------------------------------------------------


def _sags(key, values):
    figures = []
    for value in values:
        sim = settled(**{key: value})
        readouts = sim.readouts()
        figures.append((value, readouts.sag, readouts.max_stretch))
        assert np.isfinite(sim.state.x).all()
    for value, sag, stretch in figures:
        print(f"{key}={value}: sag {sag:.5f} max stretch {stretch:.5f}")
    return [sag for _, sag, _ in figures], [stretch for _, _, stretch in figures]


def test_sag_grows_as_stiffness_drops():
    sags, _ = _sags("stiffness", [1.0, 0.5, 0.2, 0.1])
    assert all(b > 1.5 * a for a, b in itertools.pairwise(sags))


def test_sag_and_stretch_grow_as_passes_drop():
    sags, stretches = _sags("passes", [32, 16, 8, 4, 2])
    assert all(b > 1.5 * a for a, b in itertools.pairwise(sags))
    # stretch is the error left after the passes
    assert stretches[4] > stretches[2] > stretches[0] > 0.0  # 2 > 8 > 32 passes


def test_sag_grows_with_gravity():
    sags, _ = _sags("gravity", [0.0, 2.0, 9.8, 20.0, 40.0])
    assert sags[0] < 1e-12  # no load: the sheet keeps its rest shape
    assert all(b > 1.5 * a for a, b in itertools.pairwise(sags))


# --- collisions --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["drop", "ball-start"])
def test_no_free_particle_inside_the_ball_after_any_step(name):
    sim = preset_sim(name)
    s = sim.settings
    assert s.ball
    free = np.setdiff1d(np.arange(sim.topology.particle_count), list(sim.pins))
    closest = math.inf
    for _ in range(360):
        sim.step()
        distance = np.linalg.norm(sim.state.x[free] - np.asarray(s.ball_center), axis=1)
        assert distance.min() >= s.ball_radius - 1e-9
        closest = min(closest, distance.min())
    assert closest < s.ball_radius + 1e-6  # the sheet did touch the ball


@pytest.mark.parametrize("name", ["soft-block", "drop"])
def test_nothing_goes_below_the_floor(name):
    sim = preset_sim(name, ball=False)
    floor_y = sim.settings.floor_y
    lowest = math.inf
    for _ in range(360):
        sim.step()
        assert sim.state.x[:, 1].min() >= floor_y
        lowest = min(lowest, sim.state.x[:, 1].min())
    assert lowest == floor_y  # it did land


def test_floor_off_lets_particles_fall_through():
    sim = preset_sim("soft-block", floor=False)
    sim.step(240)
    assert sim.state.x[:, 1].max() < sim.settings.floor_y


# --- grab ---------------------------------------------------------------------------------------


def test_grab_holds_the_particle_on_the_target_and_it_moves_on_after_release():
    sim = hanging_sheet(4, 3)
    sim.step(120)
    held = 9  # bottom row
    target = sim.state.x[held].copy()
    sim.grab(held, target)
    for _ in range(10):
        target = target + np.array([0.0, 0.0, 0.01])
        sim.move_grab(target)
        sim.step()
        assert np.array_equal(sim.state.x[held], target)
    assert sim.grabbed == held
    sim.release()
    assert sim.grabbed is None
    before = sim.state.x[held].copy()
    sim.step()
    # keeps the pointer's last velocity, 0.01 a step, less what its links pull back (≈ ½)
    assert sim.state.x[held, 2] - before[2] > 0.004
    sim.step(1200)
    assert abs(sim.state.x[held, 2]) < 0.01  # and then falls back under the pins


def test_a_stationary_grab_lets_go_and_the_particle_falls():
    sim = hanging_sheet(4, 3)
    held = 10
    target = np.array([0.5, 2.0, 0.0])  # lifted above the pins
    sim.grab(held, target)
    sim.step(30)
    assert np.array_equal(sim.state.x[held], target)
    sim.release()
    sim.step(30)
    assert sim.state.x[held, 1] < target[1] - 0.05


# --- motion readout ----------------------------------------------------------------------------


def test_motion_readout_is_mean_speed():
    sim = preset_sim("flag")
    sim.step(90)
    x, x_prev = sim.state.x, sim.state.x_prev
    expected = np.linalg.norm(x - x_prev, axis=1).mean() / sim.settings.dt
    assert expected > 0.01
    assert sim.readouts().motion == pytest.approx(expected, rel=1e-12)


def test_readouts_have_no_nan_for_a_sheet_and_volume_nan_without_block():
    readouts = settled(steps=60).readouts()
    assert math.isnan(readouts.volume)
    assert all(math.isfinite(v) for v in (readouts.sag, readouts.motion, readouts.max_stretch))
    assert readouts.links == 584


@pytest.mark.parametrize("dt", [1 / 480, 1 / 240, 1 / 120, 1 / 60])
def test_damping_is_per_1_120_s_so_the_terminal_speed_does_not_depend_on_the_time_step(dt):
    """v ← d^(Δt·120)·v + g·Δt tends to g·Δt / (1 − d^(Δt·120)), 13.61 units/s at 1/120 s and
    within 0.5 % of it at other steps (the limit for Δt → 0 is g / (120·ln(1/d)) = 13.57)."""
    sim = Simulation(lone_particles([0.0, 0.0, 0.0]), Settings(floor=False, dt=dt))
    sim.step(round(60 / dt))  # 60 s of model time
    expected = G * dt / (1.0 - DAMPING ** (dt * 120))
    assert sim.readouts().motion == pytest.approx(expected, rel=1e-6)
    assert sim.readouts().motion == pytest.approx(G * DT / (1.0 - DAMPING), rel=5e-3)
