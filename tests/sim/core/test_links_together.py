"""Links solved together (constraint_sets.LinksTogether): conjugate gradients on the
linearised XPBD system of every link at once, against a dense solve of the same system, and
what it does for a stiff fabric's run."""

from types import SimpleNamespace

import numpy as np
import pytest

from clothlab.sim.core import constraints, kernels
from clothlab.sim.core.constraint_sets import LinksTogether, Stencils
from clothlab.sim.core.records import Links, Particles
from clothlab.sim.core.topology import TopologyBuilder
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.scene import build_simulation
from clothlab.sim.lab import textile


def _sheet(cols: int, rows: int, seed: int):
    """A small sheet's links, bent out of its plane at random, two corners pinned."""
    builder = TopologyBuilder()
    builder.add_sheet(cols, rows, 1.0, (0.0, 1.0, 0.0))
    topology = builder.build()
    rng = np.random.default_rng(seed)
    x = topology.rest_positions + rng.normal(0.0, 0.02, topology.rest_positions.shape)
    inv_mass = rng.uniform(0.5, 2.0, topology.particle_count)
    inv_mass[[0, cols - 1]] = 0.0
    a, b = topology.links[:, 0].copy(), topology.links[:, 1].copy()
    rest = topology.rest_lengths.copy()
    compliance = rng.choice([0.0, 1e-6, 1e-3], len(rest))
    return x, inv_mass, a, b, rest, compliance


def _dense_system(x, inv_mass, a, b, rest, compliance, lambdas, h):
    """The linearised system (G·W·Gᵀ + α̃)·(−Δλ) = C + α̃·λ as a dense matrix and right-hand
    side, G the links' unit directions (the step begins where the particles are), and its
    solution; links between two held particles are left out (−Δλ = 0)."""
    d = x[b] - x[a]
    length = np.linalg.norm(d, axis=1)
    g = d / length[:, None]
    count, n = len(a), len(x)
    jacobian = np.zeros((count, 3 * n))  # rows: ∂(move along g) of each end
    for k in range(count):
        jacobian[k, 3 * a[k] : 3 * a[k] + 3] = g[k]
        jacobian[k, 3 * b[k] : 3 * b[k] + 3] = -g[k]
    weights = np.repeat(inv_mass, 3)
    alpha = compliance / h**2
    matrix = (jacobian * weights) @ jacobian.T + np.diag(alpha)
    included = (inv_mass[a] + inv_mass[b]) > 0
    solution = np.zeros(count)
    rhs = length - rest + alpha * lambdas
    sub = np.ix_(included, included)
    solution[included] = np.linalg.solve(matrix[sub], rhs[included])
    rhs[~included] = 0.0
    return matrix, rhs, solution


def _solve(x, inv_mass, a, b, rest, compliance, lambdas, h, factored, guess=None, shapes=()):
    """LinksTogether's solve of these links (and shapes) at x (moved in place); returns it and
    the links' arrays, with the moves it booked."""
    start = np.zeros((len(a), 3))
    kernels.start_directions(x, a, b, start)
    moved = np.zeros(len(a))
    no_runs, no_sets = np.zeros((0, 5), dtype=np.uint64), np.zeros(1, dtype=np.int64)
    record = Links(a, b, no_runs, no_sets, rest, np.ones(len(a)), compliance, start, moved)
    links = SimpleNamespace(
        a=a, b=b, rest=rest, start=start, moved=moved, record=lambda material: record
    )
    sub = SimpleNamespace(
        x=x,
        inv_mass=inv_mass,
        h=h,
        material=SimpleNamespace(compliance=compliance),
        particles=Particles(x, x, inv_mass),
    )
    together = LinksTogether(len(a), len(x))
    together.factored = factored
    if guess is not None:
        together.change[:] = guess
    together.solve(sub, links, lambdas, np.zeros(len(a), dtype=bool), shapes=shapes)
    return together, links


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_conjugate_gradients_solve_the_links_linearised_system(seed):
    x, inv_mass, a, b, rest, compliance = _sheet(7, 6, seed)
    h = 1.0 / 240
    lambdas = np.random.default_rng(seed).normal(0.0, 1e-4, len(a))
    matrix, rhs, expected = _dense_system(x, inv_mass, a, b, rest, compliance, lambdas, h)
    before = x.copy()
    scratch, links = _solve(x, inv_mass, a, b, rest, compliance, lambdas, h, factored=False)
    iterations, start, moved = scratch.iterations, links.start, links.moved
    assert 0 < iterations < constraints.TOGETHER_MAX_ITERATIONS
    # every link's residual within the tolerance, so the solution near the exact one
    residual = np.abs(matrix @ scratch.change - rhs)
    assert np.all(residual <= 1.001 * constraints.TOGETHER_TOLERANCE * rest)
    assert np.abs(scratch.change - expected).max() < 0.02 * np.abs(expected).max()
    # applied as a pass applies its corrections: each end moves by its inverse mass
    pull = start * scratch.change[:, None]
    moves = np.zeros_like(x)
    np.add.at(moves, a, pull)
    np.add.at(moves, b, -pull)
    assert np.allclose(x - before, moves * inv_mass[:, None], rtol=0.0, atol=1e-12)
    assert np.allclose(moved, scratch.change, rtol=1e-12)  # mass × distance along a unit vector
    assert np.all(x[[0, 6]] == before[[0, 6]])  # pins stay


def test_a_good_guess_needs_no_iterations():
    """Given the exact answer as its guess (a cloth at rest: the last substep's solve), the solve
    checks it and stops."""
    x, inv_mass, a, b, rest, compliance = _sheet(5, 5, 4)
    h = 1.0 / 120
    lambdas = np.zeros(len(a))
    _, _, expected = _dense_system(x, inv_mass, a, b, rest, compliance, lambdas, h)
    scratch, _links = _solve(
        x, inv_mass, a, b, rest, compliance, lambdas, h, factored=False, guess=expected
    )
    iterations = scratch.iterations
    assert iterations == 0


def test_a_draped_specimen_at_rest_checks_its_links_in_a_few_iterations():
    """Each solve starts from the last one's answer, which for a cloth at rest is the answer:
    the multipliers after the passes would not be (bending and the contacts move them), and
    from them a settled cotton specimen took tens of iterations every substep."""
    sim = build_simulation(textile.cusick_drape_scene("cotton", 21))
    sim.step(360)
    iterations = []
    for _ in range(10):
        sim.step(1)
        iterations.append(sim._extended.links_set.together.iterations)
    assert max(iterations) <= 20


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("inextensible", [True, False])
def test_factored_the_solve_gives_the_dense_answer_at_once(seed, inextensible):
    """Preconditioned by the system factored where it stands (through the particles' system
    when every link has a compliance, LinksInverse; the links' own when one has none),
    conjugate gradients take one iteration and end where the diagonal preconditioner's do."""
    x, inv_mass, a, b, rest, compliance = _sheet(7, 6, seed)
    if not inextensible:
        compliance = np.maximum(compliance, 1e-6)
    h = 1.0 / 240
    lambdas = np.random.default_rng(seed).normal(0.0, 1e-4, len(a))
    _, _, expected = _dense_system(x, inv_mass, a, b, rest, compliance, lambdas, h)
    ends = []
    for factored in (False, True):
        moved = x.copy()
        together, _links = _solve(moved, inv_mass, a, b, rest, compliance, lambdas.copy(), h,
                                  factored)  # fmt: skip
        ends.append((moved, together.iterations, together.change.copy()))
    (diagonal_x, many, _), (factored_x, once, change) = ends
    assert once == 1 < many
    assert np.abs(change - expected).max() < 1e-6 * np.abs(expected).max()
    assert np.abs(factored_x - diagonal_x).max() < 1e-6


def test_a_grab_factors_the_links_again_as_it_begins_and_ends_not_at_every_move():
    """The factor is a preconditioner, made again when a solve costs more than its average
    since it was made (LinksTogether.refactor_by_average): a grab begun and one let go on a
    resting sheet cost at most one factorisation each, and its moves none."""
    sim = build_simulation(textile.with_fabric(load_preset("hanging-sheet"), "cotton"))
    sim.step(30)
    together = sim._extended.links_set.together
    made = together.factorisations
    held = 80
    sim.grab(held, sim.state.x[held])
    for k in range(6):
        sim.move_grab(sim.state.x[held] + (0.0, 0.0, 0.001 * k))
        sim.step(1)
        assert together.iterations <= LinksTogether.EXPECTED_ITERATIONS
    assert together.factorisations <= made + 1  # one for the grab, if any: not one a move
    grabbed = together.factorisations
    sim.release()
    sim.step(2)
    assert together.factorisations <= grabbed + 1
    assert together.iterations < constraints.TOGETHER_MAX_ITERATIONS


@pytest.mark.parametrize("factored", [False, True])
def test_bending_runs_solved_with_the_links_reach_their_own_balance(factored):
    """The shapes' rows (a run's x_l − 2·x_i + x_r, three rows a run) are solved with the links:
    afterwards each linear shape holds C(x) + α̃·λ = 0 where it now stands, and each link its
    linearisation, as a dense solve of the same system says. A shape's row pulled the wrong
    way (its gradient −∇C, as a link's is) passes a solve checked against itself and bent a
    cantilever away from the elastica within one step."""
    cols, rows = 7, 6
    x, inv_mass, a, b, rest, compliance = _sheet(cols, rows, 5)
    compliance = np.maximum(compliance, 1e-6)
    grid = np.arange(cols * rows).reshape(rows, cols)
    runs = np.concatenate(
        [np.stack([grid[:, :-2], grid[:, 1:-1], grid[:, 2:]], axis=-1).reshape(-1, 3),
         np.stack([grid[:-2], grid[1:-1], grid[2:]], axis=-1).reshape(-1, 3)]
    )  # fmt: skip
    shapes = Stencils(runs, np.tile([1.0, -2.0, 1.0], (len(runs), 1)), np.full(len(runs), 1e-4))
    h = 1.0 / 240
    together, _links = _solve(
        x, inv_mass, a, b, rest, compliance, np.zeros(len(a)), h, factored, shapes=(shapes,)
    )
    bent = x[runs[:, 0]] - 2.0 * x[runs[:, 1]] + x[runs[:, 2]]  # (K, 3)
    balance = bent + 1e-4 / h**2 * shapes.lambdas
    assert np.abs(bent).max() > 1e-3  # the sheet is still bent: compliance balances it
    assert np.abs(balance).max() < 1e-3 * np.abs(bent).max()
    assert together.iterations < constraints.TOGETHER_MAX_ITERATIONS


@pytest.mark.parametrize("seed", [4, 5])
def test_the_inverse_through_the_particles_is_scipys_products_to_the_last_bit(seed):
    """LinksInverse.solve's two kernels sum as scipy's sparse products do: the same bits as
    α̃⁻¹·r − α̃⁻¹·G·P⁻¹·Gᵀ·α̃⁻¹·r written with scipy, and r on the rows left out."""
    import scipy.sparse as sparse

    from clothlab.sim.core.constraint_sets import LinksInverse

    rng = np.random.default_rng(seed)
    particles, count = 12, 30
    g = sparse.random(count, 3 * particles, density=0.2, random_state=seed, format="csr")
    inv_mass = rng.uniform(0.5, 2.0, particles)
    inv_mass[[0, 5]] = 0.0
    alpha = rng.uniform(1e-3, 1.0, count)
    rows = rng.random(count) > 0.2
    residual = rng.normal(size=count)
    inverse = LinksInverse(g, inv_mass, alpha, rows)
    out = np.zeros(count)
    inverse.solve(residual, out)

    scaled = inverse.inverse_alpha * residual[rows]
    moves = np.zeros(inverse.g.shape[1])
    inverse.factor.solve(np.ascontiguousarray(inverse.g_t @ scaled), moves)
    expected = residual.copy()
    expected[rows] = scaled - inverse.inverse_alpha * (inverse.g @ moves)
    assert np.array_equal(out, expected)
