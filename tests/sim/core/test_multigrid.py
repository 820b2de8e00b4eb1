"""The fabric solve's multigrid preconditioner (sim.core.multigrid; `fabric_solver` 2): each
line's band solved exactly, the V-cycle's iterations flat as the mesh is refined, and the same
cloth as the factored preconditioner gives."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sparse

from clothlab.sim.core import multigrid
from clothlab.sim.core.parameters import LINKS_BY_MULTIGRID, LINKS_THEN_PASSES
from clothlab.sim.core.solver import Simulation
from clothlab.sim.document.composition import change_body
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.scene import build_simulation, with_settings
from clothlab.sim.lab import textile


def clamped_cotton(size: int, solver: int) -> Simulation:
    scene = textile.with_fabric(load_preset("hanging-sheet"), "cotton")
    scene = change_body(scene, 0, cols=size, rows=size).scene
    scene = with_settings(scene, {"damping": textile.TEST_DAMPING, "fabric_solver": solver})
    sim = build_simulation(scene)
    sim.set_pins(textile.clamps(sim.topology.rest_positions, (0, size - 1), 0.2))
    return sim


def together(sim: Simulation):
    assert sim._extended is not None
    return next(c.together for c in sim._extended._active if getattr(c, "together", None))


def test_a_lines_band_is_solved_exactly():
    """On a grid of one row, the warp line holds every node: one sweep is the exact solve."""
    rng = np.random.default_rng(3)
    n = 9
    dense = np.zeros((3 * n, 3 * n))
    for p in range(n):  # couplings reach two nodes along the line, as bending runs' do
        for q in range(p, min(n, p + 3)):
            block = rng.standard_normal((3, 3))
            block = block + block.T if q == p else block
            dense[3 * p : 3 * p + 3, 3 * q : 3 * q + 3] = block
            dense[3 * q : 3 * q + 3, 3 * p : 3 * p + 3] = block.T
    dense += 20.0 * np.eye(3 * n)  # positive definite
    indptr, indices, data = multigrid.as_blocks(sparse.csr_matrix(dense))
    keys = np.stack([np.zeros(n), np.zeros(n), np.arange(n)], axis=1).astype(np.int64)
    level = multigrid.Level(indptr, indices, data, keys)
    assert level.lines[0].width == 3 * 2 + 2
    level.factor_lines()
    r = rng.standard_normal((n, 3))
    z = np.zeros_like(r)
    level.sweep(r, z, backward=False)
    assert z.ravel() == pytest.approx(np.linalg.solve(dense, r.ravel()), abs=1e-12)


def test_grid_keys_place_sheets_and_discs_and_refuse_a_block():
    sheet = build_simulation(load_preset("hanging-sheet")).topology
    keys = multigrid.grid_keys(sheet)
    assert keys is not None
    cols = sheet.sheets[0].cols
    assert keys[cols + 2].tolist() == [0, 1, 2]  # particle (row 1, col 2) of body 0
    disc = build_simulation(textile.cusick_drape_scene("cotton")).topology
    keys = multigrid.grid_keys(disc)
    assert keys is not None and np.array_equal(keys[:, 1:], disc.discs[0].cell_ij)
    assert multigrid.grid_keys(build_simulation(load_preset("soft-block")).topology) is None


def test_its_iterations_stay_flat_and_it_hangs_the_sheet_as_the_factor_does():
    worst = {}
    for size in (16, 32):
        runs = {}
        for solver in (LINKS_THEN_PASSES, LINKS_BY_MULTIGRID):
            sim = clamped_cotton(size, solver)
            iterations = []
            for _ in range(12):
                assert sim.step(1) == 1
                iterations.append(together(sim).iterations)
            runs[solver] = sim.state.x.copy()
            if solver == LINKS_BY_MULTIGRID:
                worst[size] = max(iterations)
        # both stop within the links' tolerance of one answer
        assert np.abs(runs[LINKS_BY_MULTIGRID] - runs[LINKS_THEN_PASSES]).max() < 1e-7
    assert worst[16] >= 1 and worst[32] <= 2 * worst[16] <= 30


def test_a_grab_held_particle_stays_where_it_is_held():
    sim = clamped_cotton(16, LINKS_BY_MULTIGRID)
    sim.step(5)
    target = sim.state.x[200] + np.array([0.0, 0.05, 0.02])
    sim.grab(200, target, place=True)
    for _ in range(5):
        assert sim.step(1) == 1
        assert sim.state.x[200] == pytest.approx(target, abs=1e-12)


def test_the_same_scene_gives_the_same_bits():
    def run() -> np.ndarray:
        sim = build_simulation(
            with_settings(
                textile.cusick_drape_scene("denim", 21), {"fabric_solver": LINKS_BY_MULTIGRID}
            )
        )
        sim.step(20)
        return sim.state.x.copy()

    first = run()
    assert np.array_equal(first, run())
    assert np.isfinite(first).all()


def test_particles_off_any_grid_fall_back_to_the_factor():
    sim = clamped_cotton(16, LINKS_BY_MULTIGRID)
    sim.step(1)
    solve = together(sim)
    solve.grid_keys = None  # as for a soft block's particles
    solve.factorisations = 0
    assert sim.step(5) == 5
    assert solve.factorisations >= 1 and solve.iterations < 40


def test_at_rest_the_factor_solves_and_a_grab_hands_the_solve_back_to_the_cycle():
    """Multigrid's solves are the factor's once the cloth rests (0–1 iterations where a cycle
    takes 2–3), and the cycle's again as soon as the cloth moves: a grab's first solve by the
    factor comes to FACTOR_WORTH iterations, and the cycle solves it from the same guess. The
    sheet hangs as the factor alone hangs it."""
    sim = clamped_cotton(16, LINKS_BY_MULTIGRID)
    assert sim.step(1) == 1
    solve = together(sim)
    assert not solve.resting  # a flat sheet falls
    while not solve.resting:
        assert sim.step(1) == 1 and sim.state.steps < 600
    resting = []
    for _ in range(30):
        assert sim.step(1) == 1
        resting.append((solve.resting, solve.iterations))
    assert all(rests and taken <= 2 for rests, taken in resting), resting
    factored = clamped_cotton(16, LINKS_THEN_PASSES)
    factored.step(sim.state.steps)
    assert np.abs(sim.state.x - factored.state.x).max() < 1e-6
    sim.grab(200, sim.state.x[200] + np.array([0.0, 0.3, 0.3]), place=True)
    assert sim.step(1) == 1
    assert not solve.resting and solve.iterations > solve.FACTOR_WORTH
