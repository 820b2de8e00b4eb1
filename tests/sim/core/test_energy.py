"""Energy readouts: kinetic and potential energy, and what the damping, the wind and the solver
take out or put in per step, checked against analytic results and against the kernels run by
hand.

Energies are of mass 1 per particle, with v = (x − x_prev)/h (h = Δt / substeps) and PE = g·y
at the midpoint (y + y_prev)/2 of the last substep, where that velocity lives."""

import math

import numpy as np
import pytest
from sim_helpers import hanging_sheet, lone_particles, sheet_topology

from clothlab.sim.core import kernels, readouts
from clothlab.sim.core.parameters import Settings, damping_per_step
from clothlab.sim.core.solver import Simulation
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.scene import build_simulation

G, H = 9.8, 1.0 / 120.0


def _energy(sim: Simulation) -> float:
    r = sim.readouts()
    return r.kinetic_energy + r.potential_energy


def test_a_free_particle_tends_to_the_damped_verlet_terminal_energy():
    """The predict's displacement u = x − x_prev obeys u ← d·u − g·Δt² (d = 0.994 per 1/120 s),
    whose fixed point is u = −g·Δt²/(1 − d): v_t = u/Δt = g·Δt/(1 − d) = 13.6111 units/s (not
    g·Δt·d/(1 − d) = 13.5294, which would be the speed one damping later). u approaches it as
    dⁿ, 0.994⁴⁰⁰⁰ ≈ 3.5·10⁻¹¹. There each step the damping takes out exactly what gravity puts
    in, g·v_t·Δt = g²Δt²/(1 − d) per particle, and the solver nothing."""
    sim = Simulation(lone_particles([[0.0, 0.0, 0.0], [1.0, 5.0, 0.0]]), Settings(floor=False))
    d = sim.settings.damping
    terminal = G * H / (1.0 - d)
    assert terminal == pytest.approx(13.6111, abs=5e-5)
    sim.step(4000)
    r = sim.readouts()
    assert r.kinetic_energy == pytest.approx(2 * 0.5 * terminal**2, rel=1e-9)
    assert r.motion == pytest.approx(terminal, rel=1e-9)
    per_particle = G**2 * H**2 / (1.0 - d)
    assert r.damping_loss == pytest.approx(2 * per_particle, rel=1e-9)
    before = r.potential_energy
    sim.step()
    assert sim.readouts().potential_energy - before == pytest.approx(-2 * per_particle, rel=1e-6)
    assert sim.readouts().solver_loss == pytest.approx(0.0, abs=1e-9 * per_particle)
    assert sim.readouts().wind_work == 0.0


def _free_fall(steps: int, **settings) -> tuple[Simulation, np.ndarray, np.ndarray]:
    """Particles with every link cut, no floor: the energy before each step, and after it."""
    topology = sheet_topology(3, 2)
    sim = Simulation(topology, Settings(floor=False, **settings))
    sim.set_cut(np.arange(topology.link_count), True)
    sim.state.x_prev[:, 0] -= 2.0 * H  # moving sideways and up at 2 and 3 units/s
    sim.state.x_prev[:, 1] -= 3.0 * H
    energies, naive = [_energy(sim)], [_naive_energy(sim)]
    for _ in range(steps):
        sim.step()
        energies.append(_energy(sim))
        naive.append(_naive_energy(sim))
    return sim, np.array(energies), np.array(naive)


def _naive_energy(sim: Simulation) -> float:
    """KE with PE at x itself rather than at the midpoint."""
    return sim.readouts().kinetic_energy + G * float(sim.state.x[:, 1].sum())


def test_an_undamped_unconstrained_fall_conserves_energy_to_rounding():
    """Verlet with v_{n+½} = (x_{n+1} − x_n)/Δt and PE at (x_{n+1} + x_n)/2: from
    v_{n+½} = v_{n−½} − g·Δt, ΔKE = −g·Δt·v_{n−½} + ½g²Δt² and ΔPE = g·Δt·(v_{n−½} + v_{n+½})/2
    = g·Δt·v_{n−½} − ½g²Δt²: they cancel exactly. With PE at x instead, KE + PE loses exactly
    ½g²Δt² per particle per step (the velocity is half a step behind the position)."""
    steps, n = 1000, 6
    sim, energies, naive = _free_fall(steps, damping=1.0)
    scale = sim.readouts().kinetic_energy  # 6 × ½ × 79.0² ≈ 18 700 after 8.3 s
    drift = np.abs(energies - energies[0]).max() / scale
    assert drift < 1e-10  # measured 6.7e-12: rounding of x ≈ −300 units after 8.3 s
    per_step = np.diff(naive)
    assert per_step == pytest.approx(np.full(steps, -n * 0.5 * G**2 * H**2), rel=1e-6)
    r = sim.readouts()
    assert r.damping_loss == 0.0 and r.wind_work == 0.0
    assert abs(r.solver_loss) < 1e-12 * scale


def test_a_damped_fall_loses_exactly_the_damping_loss():
    sim, energies, _ = _free_fall(300, damping=0.9)
    losses = []
    for _ in range(50):
        before = _energy(sim)
        sim.step()
        losses.append((before - _energy(sim), sim.readouts().damping_loss))
    losses = np.array(losses)
    assert losses[:, 0] == pytest.approx(losses[:, 1], rel=1e-9)
    assert np.all(np.diff(energies) < 0.0)


def _predict_by_hand(sim: Simulation, x: np.ndarray, x_prev: np.ndarray, damping: float) -> None:
    """The predict of kernels.step_classic, alone: pins at rest, then Verlet."""
    s, fixed = sim.settings, sim.fixed
    x_prev[fixed.index] = x[fixed.index]
    kernels.predict(x, x_prev, fixed.inv_mass, damping, s.gravity, s.wind, sim.state.t, s.dt)
    kernels.place_pins(x, fixed.index, fixed.anchor)


def _energy_of(x: np.ndarray, x_prev: np.ndarray, h: float) -> float:
    v = (x - x_prev) / h
    return 0.5 * float((v * v).sum()) + 0.5 * G * float((x[:, 1] + x_prev[:, 1]).sum())


def test_damping_and_solver_losses_balance_the_hanging_sheet_every_step():
    """Each of 600 steps of the default scene: the damping loss is what the damped predict
    loses against an undamped one (which keeps KE + PE), the solver loss what the passes take
    from the predicted state, and damping loss + solver loss + ΔKE + ΔPE = 0."""
    sim = build_simulation(load_preset("hanging-sheet"))
    s = sim.settings
    assert s.is_classic and s.wind == 0.0
    d = damping_per_step(s.damping, s.dt)
    worst = {"damping": 0.0, "solver": 0.0, "balance": 0.0}
    energy = _energy(sim)
    solver_total = 0.0
    for _ in range(600):
        damped = (sim.state.x.copy(), sim.state.x_prev.copy())
        free = (sim.state.x.copy(), sim.state.x_prev.copy())
        _predict_by_hand(sim, *damped, d)
        _predict_by_hand(sim, *free, 1.0)
        sim.step()
        r = sim.readouts()
        after = r.kinetic_energy + r.potential_energy
        scale = r.kinetic_energy + G * float(np.abs(sim.state.x[:, 1]).sum())
        predicted = _energy_of(*damped, s.dt)
        checks = {
            "damping": r.damping_loss - (_energy_of(*free, s.dt) - predicted),
            "solver": r.solver_loss - (predicted - after),
            "balance": r.damping_loss + r.solver_loss + (after - energy),
        }
        for key, error in checks.items():
            worst[key] = max(worst[key], abs(error) / scale)
        energy = after
        solver_total += r.solver_loss
    assert worst["damping"] < 1e-12 and worst["solver"] < 1e-12 and worst["balance"] < 1e-13
    assert solver_total > 0.0  # the projections are inelastic: they take energy out


def test_the_classic_step_is_the_fused_kernel_bit_for_bit():
    """240 steps of the default scene through Simulation.step (which now also accounts for the
    energy) give exactly the positions of kernels.step_classic called directly."""
    sim = build_simulation(load_preset("hanging-sheet"))
    s, links, fixed = sim.settings, sim.links, sim.fixed
    assert s.is_classic and not links.parallel
    x, x_prev = sim.state.x.copy(), sim.state.x_prev.copy()
    material, obstacles = sim.link_material(), sim.obstacles()
    scratch = links.record(material)._replace(
        start=np.zeros((links.count, 3)), moved=np.zeros(links.count)
    )
    contacts = obstacles.contacts(s.floor, s.floor_y, np.zeros(len(obstacles.pushed)))
    t = 0.0
    for _ in range(240):
        health = kernels.step_classic(
            fixed.particles(x, x_prev),
            fixed.held,
            scratch,
            s.world(t),
            contacts,
            np.zeros(1, dtype=np.uint8),
        )
        assert health == kernels.HEALTHY
        t += s.dt
    assert sim.step(240) == 240
    assert np.array_equal(sim.state.x, x) and np.array_equal(sim.state.x_prev, x_prev)


def test_the_gusting_wind_work_balances_a_free_particle():
    """Wind a·(0.6 + 0.4·sin(2t + x)) along +z: ΔKE + ΔPE = wind work − damping loss."""
    sim = Simulation(lone_particles([[0.3, 0.0, 0.0]]), Settings(floor=False, wind=4.0))
    for _ in range(200):
        before = _energy(sim)
        sim.step()
        r = sim.readouts()
        change = _energy(sim) - before
        assert change == pytest.approx(r.wind_work - r.damping_loss, rel=1e-9, abs=1e-12)
        assert abs(r.solver_loss) < 1e-9 * r.kinetic_energy
    assert sim.readouts().wind_work > 0.0


def test_a_dragged_pin_puts_energy_in_through_the_solver():
    sim = hanging_sheet(4, 3, damping=1.0)
    sim.step(120)
    anchor = np.array(sim.pins[0]) + np.array([0.0, 0.05, 0.0])  # up 5 cm in one step
    sim.set_pins({**sim.pins, 0: tuple(anchor)})
    sim.step()
    assert sim.readouts().solver_loss < 0.0


def test_losses_are_zero_at_step_0_and_nan_after_an_edit_outside_steps():
    sim = hanging_sheet(4, 3)
    r = sim.readouts()
    assert r.damping_loss == r.solver_loss == r.wind_work == 0.0  # no step has run
    assert r.potential_energy == pytest.approx(G * sim.topology.rest_positions[:, 1].sum())
    sim.step(3)
    assert math.isfinite(sim.readouts().solver_loss)
    sim.grab(5, (0.0, 2.0, 0.0), place=True)  # moved while paused: no step to blame
    assert math.isnan(sim.readouts().solver_loss) and math.isnan(sim.readouts().damping_loss)


def test_a_recovered_blow_up_keeps_the_losses_finite_at_step_0():
    sim = hanging_sheet(4, 3)
    sim.state.x_prev[5, 0] -= 1000.0  # 1.2·10⁵ units/s: beyond kernels.MAX_SPEED
    assert sim.step(5) == 0 and sim.instability is not None
    r = sim.readouts()
    assert sim.state.steps == 0 and r.damping_loss == r.solver_loss == 0.0


def test_with_substeps_the_losses_are_an_estimate_and_still_balance():
    sim = hanging_sheet(4, 3, substeps=4)
    sim.step(60)
    before = _energy(sim)
    sim.step()
    r = sim.readouts()
    assert not sim.energy_account.exact
    change = _energy(sim) - before
    assert r.damping_loss + r.solver_loss + change == pytest.approx(0.0, abs=1e-12)
    assert readouts.damping_loss(sim) == r.damping_loss > 0.0
