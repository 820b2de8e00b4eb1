"""Forces from the solver (sim.core.forces): what each pin, link and obstacle pushes with, from
what the passes moved. Checked against statics: at rest the forces on every particle cancel, so
the pins hold the weight, a chain's links each carry the weight below them, the floor carries
what lies on it."""

import math

import numpy as np
import pytest
from sim_helpers import cut, hanging_sheet, sheet_topology

from clothlab.sim.core import ordering
from clothlab.sim.core.forces import tension_around
from clothlab.sim.core.materials import SI_FABRICS
from clothlab.sim.core.parameters import Settings
from clothlab.sim.core.solver import Simulation
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.scene import build_simulation, with_setting, with_settings
from clothlab.sim.lab import textile

AT_REST = 1e-9  # units/s: mean speed below which a scene counts as settled


def settled(sim: Simulation, most: int = 20_000) -> Simulation:
    """Steps until the sheet is at rest (its mean speed below AT_REST)."""
    for _ in range(most // 500):
        sim.step(500)
        if sim.readouts().motion < AT_REST:
            return sim
    raise AssertionError(f"not at rest after {most} steps: motion {sim.readouts().motion}")


def preset(name: str, **settings: object) -> Simulation:
    return build_simulation(with_settings(load_preset(name), settings))


def weight(sim: Simulation) -> float:
    """Σ m·g, from the masses themselves (not from what the forces say it is)."""
    return float(sim.mechanics.mass.sum()) * sim.settings.gravity


@pytest.mark.parametrize("xpbd", [False, True], ids=["classic", "xpbd"])
@pytest.mark.parametrize("passes", [8, 32])
def test_the_pins_of_the_hanging_sheet_hold_its_weight_and_share_it_equally(xpbd, passes):
    sim = settled(preset("hanging-sheet", xpbd=xpbd, passes=passes))
    forces = sim.forces()
    assert forces is not None and forces.pin_force.shape == (2, 3)
    total = forces.pin_total
    assert total[1] == pytest.approx(weight(sim), rel=0.01)
    assert abs(total[0]) < 0.01 * weight(sim) and abs(total[2]) < 0.01 * weight(sim)
    left, right = forces.pin_force
    assert left[1] == pytest.approx(right[1], rel=0.01)  # by symmetry
    assert left[0] == pytest.approx(-right[0], rel=0.01)
    assert left[0] < 0.0  # each corner pin pulls the sheet outwards, away from the other
    assert sim.readouts().pin_force == pytest.approx(weight(sim), rel=0.01)


@pytest.mark.parametrize("option", ["bending", "tethers"])
def test_the_pins_hold_the_weight_with_bending_links_and_tethers_too(option):
    sim = settled(preset("hanging-sheet", **{option: True}))
    assert sim.forces().pin_total[1] == pytest.approx(weight(sim), rel=0.01)


def test_each_link_of_a_hanging_chain_carries_the_weight_below_it():
    n = 8
    chain = sheet_topology(1, n)  # one column: a chain of n particles, n − 1 links
    top = tuple(float(v) for v in chain.rest_positions[0])
    sim = settled(Simulation(chain, Settings(floor=False), pins={0: top}))
    tension = sim.forces().link_tension
    assert len(tension) == n - 1
    below = sim.topology.links.max(axis=1)  # the link's lower end: particles from it down
    expected = (n - below) * sim.settings.gravity
    np.testing.assert_allclose(tension, expected, rtol=0.01)
    assert sim.readouts().max_tension == pytest.approx((n - 1) * sim.settings.gravity, rel=0.01)
    assert tension_around(sim.topology, tension, 1) == pytest.approx(tension[0])


def test_the_floor_carries_a_sheet_lying_on_it():
    topology = sheet_topology(6, 5, horizontal=True, top_center=(0.0, -1.5, 0.0))
    sim = settled(Simulation(topology, Settings(floor_y=-1.6)))
    forces = sim.forces()
    assert forces.contact["floor"] == pytest.approx(weight(sim), rel=0.01)
    assert sim.readouts().contact_force == pytest.approx(weight(sim), rel=0.01)
    assert not len(forces.pin_force) and math.isnan(sim.readouts().pin_force)


def test_dropped_on_the_ball_the_ball_and_floor_carry_the_sheet_between_them():
    sim = settled(preset("drop"), most=40_000)
    contact = sim.forces().contact
    assert set(contact) == {"ball", "floor"}
    assert contact["ball"] + contact["floor"] == pytest.approx(weight(sim), rel=0.01)
    assert contact["ball"] >= 0.0 and contact["floor"] >= 0.0


def test_shifted_pins_pull_sideways_equally_and_oppositely():
    sim = settled(preset("shifted-pins"))
    (left, right), w = sim.forces().pin_force, weight(sim)
    assert abs(left[0] + right[0]) < 0.01 * w
    assert abs(left[0]) > 0.1 * w  # the sheet really pulls the pins together
    assert left[1] + right[1] == pytest.approx(w, rel=0.01)


def test_a_hanging_si_strip_held_with_tethers_weighs_its_weight_in_newtons():
    scene = with_setting(textile.hanging_strip_scene("cotton", length=0.5), "tethers", True)
    sim = settled(build_simulation(scene), most=40_000)
    assert np.any(sim._extended.impulses(sim.model_settings, sim.links, sim.obstacles(),
                                         sim.fixed).tether_pulled)  # fmt: skip
    assert sim.readouts().pin_force == pytest.approx(weight(sim), rel=0.01)


@pytest.mark.parametrize("segments", [10, 20])
def test_an_si_strip_hangs_from_its_clamp_with_its_weight_per_unit_width(segments):
    """Tension per unit length (N/m) across the links below the clamp: the weight below them
    over the strip's width, ρ·g·(L − s/2), the same fabric at either resolution."""
    length, spacing = 0.5, 0.5 / segments
    sim = settled(build_simulation(textile.hanging_strip_scene("cotton", length, segments)))
    per_length = sim.forces().tension_per_length
    y = sim.topology.rest_positions[:, 1]
    a, b = sim.topology.links.T
    sides = np.isfinite(sim.mechanics.link_width)  # a diagonal has no width of its own
    below_clamp = (np.maximum(y[a], y[b]) == y.max()) & (y[a] != y[b]) & sides
    assert below_clamp.sum() == 3  # the strip is two cells wide
    expected = SI_FABRICS["cotton"].areal_density * 9.8 * (length - spacing / 2)
    assert per_length[below_clamp] == pytest.approx(expected, rel=0.01)
    assert np.isnan(per_length[~sides]).all()


def test_a_sheet_in_model_units_has_no_tension_per_length():
    classic = settled(preset("hanging-sheet"))
    assert classic.forces().tension_per_length is None  # model units: a link's pull only


def test_the_two_thread_colour_order_measures_what_one_thread_does():
    """Same moves, same sums: the two-thread kernel's forces are the one-thread kernel's."""
    one, two = (hanging_sheet(12, 10, solver_mode=m)
                for m in (ordering.COLOUR_ORDER, ordering.TWO_THREADS))  # fmt: skip
    one.step(50), two.step(50)
    assert two.links.parallel and not one.links.parallel
    np.testing.assert_array_equal(one.forces().link_tension, two.forces().link_tension)
    np.testing.assert_array_equal(one.forces().pin_force, two.forces().pin_force)


def test_forces_are_of_the_last_step_and_follow_edits_honestly():
    sim = hanging_sheet(6, 5)
    assert sim.forces() is None  # no step yet
    sim.step(20)
    forces = sim.forces()
    assert forces is not None and forces.max_tension > 0.0
    sim.set_cut(cut(sim, [0, 1]).links, True)
    assert np.all(sim.forces().link_tension[[0, 1]] == 0.0)  # a cut link pulls nothing
    sim.set_pins({0: (0.0, 2.0, 0.0)})
    assert sim.forces() is None  # other pins: unknown until the next step
    sim.step()
    assert sim.forces().pin_force.shape == (1, 3)


@pytest.mark.parametrize("xpbd", [False, True])
def test_the_integrators_reused_record_of_impulses_follows_a_cut(xpbd):
    """Each integrator keeps its record of what the step moved while the arrays stay the same
    (the readouts read it every step); a cut rebuilds the bending links' arrays, and the forces
    after it are the ones a fresh record gives."""
    sim = preset("hanging-sheet", bending=True, xpbd=xpbd)
    sim.step(30)
    sim.forces()
    sim.set_cut(cut(sim, range(40, 60)).links, True)
    sim.step(3)
    reused = sim.forces()
    sim._forces = sim._classic._impulses = sim._extended._impulses = None
    fresh = sim.forces()
    assert fresh is not reused
    assert np.array_equal(reused.link_tension, fresh.link_tension)
    assert np.array_equal(reused.pin_force, fresh.pin_force)


def test_a_hand_lifting_the_sheet_takes_its_share_of_the_weight():
    sim = settled(preset("hanging-sheet"))
    bottom_middle = sim.topology.particle_count - 8
    sim.grab(bottom_middle, sim.state.x[bottom_middle] + np.array([0.0, 0.3, 0.0]))
    forces = settled(sim).forces()
    assert forces.grab_force is not None and forces.grab_force[1] > 0.01 * weight(sim)
    held = forces.pin_total + forces.grab_force
    assert held[1] == pytest.approx(weight(sim), rel=0.01)
    sim.release()
    sim.step()
    assert sim.forces().grab_force is None
