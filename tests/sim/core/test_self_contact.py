"""Self-collision: the close-pair search against brute force (every pair once, in order, on any
number of threads), and a sheet folded four times that lands on the floor with its five layers
still in order."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from clothlab.sim.core import constraints
from clothlab.sim.core.constraint_sets import AUTO_COLLISION_FRACTION, adjacency
from clothlab.sim.core.solver import Simulation
from clothlab.sim.core.topology import TopologyBuilder


def clustered_points(seed: int, n: int = 3000) -> np.ndarray:
    """(n, 3): half spread over a box, half packed into three small clumps (many pairs)."""
    rng = np.random.default_rng(seed)
    spread = rng.uniform(-2.0, 2.0, (n // 2, 3))
    clumps = (
        rng.normal(0.0, 0.05, (n - n // 2, 3))
        + rng.uniform(-2, 2, (3, 3))[rng.integers(0, 3, n - n // 2)]
    )
    return np.concatenate([spread, clumps])


def brute_force(x: np.ndarray, rest: np.ndarray, radius: float, distance: float) -> dict:
    """{(i, j): target} of every pair i < j closer than radius."""
    gaps = np.linalg.norm(x[:, None] - x[None], axis=2)
    i, j = np.nonzero(np.triu(gaps < radius, k=1))
    rest_gaps = np.linalg.norm(rest[i] - rest[j], axis=1)
    found = zip(i.tolist(), j.tolist(), rest_gaps, strict=True)
    return {(a, b): min(distance, g) for a, b, g in found}


def linked(ends: np.ndarray, n: int, alive: np.ndarray | None = None) -> tuple:
    """find_close_pairs' `linked` for n particles joined by the links `ends` (all alive)."""
    links = adjacency(ends, n)
    alive = np.ones(len(ends), dtype=bool) if alive is None else alive
    return links.offsets, links.neighbour, links.via, alive


def unlinked(n: int) -> tuple:
    return linked(np.zeros((0, 2), dtype=np.int32), n)


def search(x, rest, radius, distance, rows, links=None):
    pairs, targets = np.zeros((rows, 2), dtype=np.int32), np.zeros(rows)
    links = unlinked(len(x)) if links is None else links
    count = constraints.find_close_pairs(x, rest, radius, distance, links, pairs, targets)
    return count, pairs[: min(count, rows)], targets[: min(count, rows)]


@pytest.mark.parametrize("seed", range(4))
def test_the_search_finds_every_close_pair_once_in_order(seed):
    x = clustered_points(seed)
    rest = clustered_points(seed + 100)
    radius, distance = 0.06, 0.04
    expected = brute_force(x, rest, radius, distance)
    count, pairs, targets = search(x, rest, radius, distance, 1_000_000)
    found = {(int(a), int(b)): t for (a, b), t in zip(pairs, targets, strict=True)}
    assert count == len(expected) == len(found) > 1000  # each pair once
    assert found.keys() == expected.keys()
    assert all(found[p] == pytest.approx(expected[p], rel=1e-12) for p in expected)
    assert (np.diff(pairs[:, 0]) >= 0).all()  # in order of i: a Gauss–Seidel order kept


def test_a_short_output_asks_for_more_and_then_gives_the_same_pairs():
    x, rest = clustered_points(7), clustered_points(8)
    full_count, full, full_targets = search(x, rest, 0.06, 0.04, 1_000_000)
    count, _, _ = search(x, rest, 0.06, 0.04, 50)
    assert count > 50  # too short: says how many rows to give it
    again, pairs, targets = search(x, rest, 0.06, 0.04, count)
    assert again == full_count
    assert np.array_equal(pairs, full) and np.array_equal(targets, full_targets)


def test_the_pairs_do_not_depend_on_the_number_of_threads():
    x, rest = clustered_points(3), clustered_points(4)
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = search(x, rest, 0.06, 0.04, 100_000)
    finally:
        numba.set_num_threads(threads)
    many = search(x, rest, 0.06, 0.04, 100_000)
    assert one[0] == many[0]
    assert np.array_equal(one[1], many[1]) and np.array_equal(one[2], many[2])


def test_particles_joined_by_a_link_are_not_a_pair():
    """A link keeps its two ends apart itself; cut it, and they are a pair again."""
    x, rest = clustered_points(11), clustered_points(12)
    _, every, _ = search(x, rest, 0.06, 0.04, 1_000_000)
    joined = every[::3]  # a third of the close pairs, linked
    count, pairs, _ = search(x, rest, 0.06, 0.04, 1_000_000, linked(joined, len(x)))
    left = {tuple(p) for p in every.tolist()} - {tuple(p) for p in joined.tolist()}
    assert count == len(left) and {tuple(p) for p in pairs.tolist()} == left
    alive = np.ones(len(joined), dtype=bool)
    alive[0] = False  # the first link cut
    _, pairs, _ = search(x, rest, 0.06, 0.04, 1_000_000, linked(joined, len(x), alive))
    assert tuple(joined[0]) in {tuple(p) for p in pairs.tolist()}


def test_the_pairs_go_in_three_groups_in_the_order_found():
    x, rest = clustered_points(5), clustered_points(6)
    count, found, found_targets = search(x, rest, 0.06, 0.04, 1_000_000)
    side = np.random.default_rng(0).random(len(x)) < 0.5
    pairs, targets = np.zeros_like(found), np.zeros_like(found_targets)
    second, third = constraints.group_pairs(found, found_targets, count, side, pairs, targets)
    within = side[found[:, 0]] == side[found[:, 1]]
    groups = [within & ~side[found[:, 0]], within & side[found[:, 0]], ~within]
    assert [second, third] == np.cumsum([g.sum() for g in groups])[:2].tolist()
    assert min(second, third - second, count - third) > 100  # each group has pairs
    bounds = (slice(0, second), slice(second, third), slice(third, count))
    for group, rows in zip(groups, bounds, strict=True):
        assert np.array_equal(pairs[rows], found[group])  # in the order found
        assert np.array_equal(targets[rows], found_targets[group])


def test_two_threads_push_the_pairs_apart_with_the_bits_of_one():
    x, rest = clustered_points(9), clustered_points(10)
    count, found, found_targets = search(x, rest, 0.06, 0.04, 1_000_000)
    side = x[:, 0] > np.median(x[:, 0])
    pairs, targets = np.zeros_like(found), np.zeros_like(found_targets)
    groups = constraints.group_pairs(found, found_targets, count, side, pairs, targets)
    inv_mass = np.random.default_rng(1).uniform(0.5, 2.0, len(x))
    one, two = x.copy(), x.copy()
    for _ in range(4):
        constraints.project_pairs(one, inv_mass, pairs, targets, count)
        constraints.project_pairs_parallel(two, inv_mass, pairs, targets, count, groups)
    assert not np.array_equal(one, x)  # the pairs moved
    assert np.array_equal(one, two)


# --- a sheet folded onto itself four times, dropped ------------------------------------------

COLS, ROWS, SPACING = 41, 11, 0.2  # five layers of 8 cells, folded at columns 8, 16, 24, 32
CELLS = 8


def folded_sheet(**settings) -> Simulation:
    """A flat sheet's particles laid in an accordion of five layers 0.16 apart, half a unit above
    a floor with friction: it falls and lands as a stack."""
    builder = TopologyBuilder()
    builder.add_sheet(COLS, ROWS, SPACING, (0.0, 0.0, 0.0), True)
    sim = Simulation(builder.build())
    for key, value in {"floor": True, "floor_y": -1.0, "friction_static": 0.5,
                       "friction_kinetic": 0.5, **settings}.items():  # fmt: skip
        sim.settings = sim.settings.with_value(key, value)
    gap = 0.8 * SPACING
    row, col = np.divmod(np.arange(COLS * ROWS), COLS)
    layer = np.minimum(col // CELLS, 4)
    along = col - CELLS * layer  # 0 … 8 from the layer's start
    forth = layer % 2 == 0
    sim.state.x[:, 0] = SPACING * np.where(forth, along, CELLS - along)
    sim.state.x[:, 1] = -0.5 + gap * layer
    sim.state.x[:, 2] = SPACING * row
    fold = (col % CELLS == 0) & (col > 0) & (col < COLS - 1)  # the creases, between two layers
    sim.state.x[fold, 1] -= gap / 2
    sim.state.x_prev[:] = sim.state.x
    return sim


def stacks(sim: Simulation) -> np.ndarray:
    """(footprints, 5) heights of the five layers over each inner point of the footprint."""
    y = sim.state.x[:, 1].reshape(ROWS, COLS)
    columns = [
        [CELLS * k + (a if k % 2 == 0 else CELLS - a) for k in range(5)] for a in range(1, CELLS)
    ]
    return np.stack([y[:, c] for c in columns]).reshape(-1, 5)


def test_a_sheet_folded_four_times_lands_with_its_layers_in_order():
    """At the automatic collision distance. Particle pairs leave a hole in the middle of every
    cell, 0.71 spacings from its corners; at 0.4 spacings (the automatic distance before) the
    stack's weight pushed layers through each other's holes."""
    h = AUTO_COLLISION_FRACTION * SPACING
    landed = folded_sheet(self_collision=True)
    assert (np.diff(stacks(landed), axis=1) > 0).all()  # the layers start in order
    assert landed.step(360) == 360  # 3 s: it falls 0.5 and settles on the floor
    heights = stacks(landed)
    assert heights.min() < -0.95  # on the floor
    order = np.diff(heights, axis=1)
    print(f"\nfolded sheet: smallest gap between layers {order.min():.4f} (h = {h})")
    assert (order > 0.5 * h).all()  # no particle passed through another layer

    passing = folded_sheet()  # without self-collision the layers fall through each other
    assert passing.step(360) == 360
    assert not (np.diff(stacks(passing), axis=1) > 0.5 * h).all()
