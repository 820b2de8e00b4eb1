"""Colour order and the two-thread solver: independent sets, same physics as classic order."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit
from sim_helpers import block_topology, sheet_topology

from clothlab.sim.core import kernels, ordering
from clothlab.sim.core.arrays import build_links
from clothlab.sim.core.constraint_sets import tether_chunks
from clothlab.sim.core.parameters import Settings
from clothlab.sim.core.solver import Simulation
from clothlab.sim.core.topology import TopologyBuilder, sheet_link_count
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.scene import build_simulation


def corner_pinned(cols: int, rows: int, mode: int) -> Simulation:
    builder = TopologyBuilder()
    builder.add_sheet(cols, rows, 0.2)
    topology = builder.build()
    sim = Simulation(topology, pins={i: tuple(topology.rest_positions[i]) for i in (0, cols - 1)})
    sim.settings = sim.settings.with_value("solver_mode", mode)
    return sim


@pytest.mark.parametrize("build", ["sheet", "block"])
def test_each_colour_is_an_independent_set_covering_every_link(build):
    builder = TopologyBuilder()
    if build == "sheet":
        builder.add_sheet(33, 17, 0.2)
    else:
        builder.add_block(4, 0.2, (0.0, 0.0, 0.0))
    topology = builder.build()
    links = topology.links
    order, starts = ordering.colour_order(links[:, 0], links[:, 1], topology.particle_count)
    assert sorted(order.tolist()) == list(range(len(links)))
    for c in range(len(starts) - 1):
        ends = links[order[starts[c] : starts[c + 1]]].ravel()
        assert len(np.unique(ends)) == len(ends)  # no particle twice within a colour
    if build == "sheet":
        assert len(starts) - 1 == 8  # two per link family


def test_colour_order_keeps_family_order_within_a_colour():
    builder = TopologyBuilder()
    builder.add_sheet(6, 5, 0.2)
    topology = builder.build()
    order, starts = ordering.colour_order(
        topology.links[:, 0], topology.links[:, 1], topology.particle_count
    )
    for c in range(len(starts) - 1):
        block = order[starts[c] : starts[c + 1]]
        assert np.all(np.diff(block) > 0)


def test_automatic_mode_keeps_small_sheets_in_classic_order_on_one_thread():
    assert ordering.resolve_mode(ordering.AUTOMATIC, 584) == (False, False)
    assert ordering.resolve_mode(ordering.AUTOMATIC, 260_610) == (True, True)
    assert ordering.resolve_mode(ordering.CLASSIC_ORDER, 260_610) == (False, False)
    sim = build_simulation(load_preset("hanging-sheet"))
    assert np.array_equal(sim.links.live, np.arange(584))  # the seed's order, untouched


def test_two_threads_compute_exactly_what_colour_order_computes_on_one():
    one, two = (
        corner_pinned(40, 30, ordering.COLOUR_ORDER),
        corner_pinned(40, 30, ordering.TWO_THREADS),
    )
    one.step(120)
    two.step(120)
    # Within a colour no two links touch the same particle: the split changes no bit.
    assert np.array_equal(one.state.x, two.state.x)


def link_orders() -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Links (a, b) and colour starts, in the orders the solver meets and some it never does."""
    sheet, block = sheet_topology(33, 17), block_topology()
    alive = np.random.default_rng(5).random(len(sheet.links)) > 0.1  # a tenth cut or torn
    orders = {}
    for name, topology, live, mode in (
        ("sheet, classic order", sheet, np.ones(len(sheet.links), bool), ordering.CLASSIC_ORDER),
        ("sheet, colour order", sheet, np.ones(len(sheet.links), bool), ordering.COLOUR_ORDER),
        ("sheet with links cut, colour order", sheet, alive, ordering.COLOUR_ORDER),
        ("soft block, colour order", block, np.ones(len(block.links), bool), ordering.COLOUR_ORDER),
    ):
        links = build_links(topology, live, mode)
        orders[name] = (links.a, links.b, links.colour_start)
    shuffled = np.random.default_rng(6).permutation(len(sheet.links))
    a, b = sheet.links[shuffled, 0], sheet.links[shuffled, 1]
    one_colour = np.array([0, len(a)], dtype=np.int64)
    orders["shuffled"] = (a, b, one_colour)
    orders["ends swapped, last link first"] = (b[::-1].copy(), a[::-1].copy(), one_colour)
    return orders


@pytest.mark.parametrize("name", list(link_orders()))
def test_runs_walk_exactly_the_links_in_their_order(name):
    a, b, colour_start = link_orders()[name]
    runs, run_start = ordering.link_runs(a, b, colour_start)
    walked_a, walked_b, walked_colour = [], [], []
    for c in range(len(colour_start) - 1):
        for first, count, i, step, gap in runs[run_start[c] : run_start[c + 1]].tolist():
            for m in range(count):
                assert first + m == len(walked_a)  # runs follow each other with no gap
                end = (i + m * step) % 2**64  # unsigned sums wrap, as in the kernels
                walked_a.append(end)
                walked_b.append((end + gap) % 2**64)
                walked_colour.append(c)
    assert walked_a == a.tolist() and walked_b == b.tolist()
    colour_of_link = np.repeat(np.arange(len(colour_start) - 1), np.diff(colour_start))
    assert walked_colour == colour_of_link.tolist()  # no run crosses a colour's start


def test_a_grid_sheet_in_colour_order_is_long_runs():
    links = build_links(sheet_topology(128, 128), np.ones(sheet_link_count(128, 128), bool), 2)
    assert links.count / len(links.runs) > 40  # rows of a colour: 57 links a run on average


@njit(fastmath=kernels.FASTMATH)  # an inlined function takes its caller's rounding
def pass_link_by_link(x, inv_mass, a, b, rest, stiffness, start, moved):
    """The pass as it was before runs: each link's ends read from a and b."""
    for k in range(a.shape[0]):
        kernels._project_link(x, inv_mass, start, k, a[k], b[k], rest[k], stiffness[k], moved)


@pytest.mark.parametrize("name", list(link_orders()))
def test_a_pass_over_runs_is_a_pass_link_by_link_bit_for_bit(name):
    a, b, colour_start = link_orders()[name]
    rng = np.random.default_rng(7)
    n = int(max(a.max(), b.max())) + 1
    x = rng.normal(size=(n, 3))
    inv_mass = np.where(rng.random(n) < 0.05, 0.0, 1.0)  # some pinned
    rest, stiffness = rng.uniform(0.1, 0.3, len(a)), rng.uniform(0.5, 1.0, len(a))
    start = rng.normal(size=(len(a), 3))
    start /= np.linalg.norm(start, axis=1)[:, None]
    runs, _ = ordering.link_runs(a, b, colour_start)
    by_runs, by_links = x.copy(), x.copy()
    moved_runs, moved_links = np.zeros(len(a)), np.zeros(len(a))
    kernels.project_links(by_runs, inv_mass, runs, rest, stiffness, start, moved_runs)
    pass_link_by_link(by_links, inv_mass, a, b, rest, stiffness, start, moved_links)
    assert not np.array_equal(by_runs, x)  # the pass moved them
    assert np.array_equal(by_runs, by_links) and np.array_equal(moved_runs, moved_links)


def test_colour_order_settles_to_the_same_physics_as_classic_order():
    stretch, sag = {}, {}
    for mode in (ordering.CLASSIC_ORDER, ordering.COLOUR_ORDER, ordering.TWO_THREADS):
        sim = build_simulation(load_preset("hanging-sheet"))
        sim.settings = sim.settings.with_value("solver_mode", mode)
        sim.step(1200)
        stretch[mode], sag[mode] = sim.readouts().max_stretch, sim.readouts().sag
    print(f"\nsettled max stretch by order: {stretch}, sag: {sag}")
    for mode in (ordering.COLOUR_ORDER, ordering.TWO_THREADS):
        assert stretch[mode] == pytest.approx(stretch[ordering.CLASSIC_ORDER], rel=0.05)
        # the residual error is spread differently: the sag differs more, but not in kind
        assert sag[mode] == pytest.approx(sag[ordering.CLASSIC_ORDER], rel=0.25)


@pytest.mark.parametrize(
    "options",
    [
        {"xpbd": True},
        {"tearing": True, "tear_ratio": 1.3},
        {"tethers": True},
        {"self_collision": True},
        {"aerodynamic": True, "wind": 5.0},
        {"bending": True},
    ],
    ids=["xpbd", "tearing", "tethers", "self-collision", "aerodynamic", "bending"],
)
def test_the_extended_path_on_two_threads_equals_one_thread_in_colour_order(options):
    """Within a colour no two links share a particle: the threads change nothing but speed."""
    topology = sheet_topology(40, 40, 2.8 / 39)
    pins = {0: tuple(topology.rest_positions[0]), 39: tuple(topology.rest_positions[39])}
    final = {}
    for mode in (ordering.COLOUR_ORDER, ordering.TWO_THREADS):
        sim = Simulation(topology, Settings(solver_mode=mode, **options), pins)
        assert sim.links.parallel == (mode == ordering.TWO_THREADS)
        sim.step(60)
        final[mode] = (sim.state.x.copy(), sim.torn)
    assert np.array_equal(final[ordering.COLOUR_ORDER][0], final[ordering.TWO_THREADS][0])
    assert final[ordering.COLOUR_ORDER][1] == final[ordering.TWO_THREADS][1]


def test_tether_chunks_never_split_a_particles_tethers():
    particle = np.repeat(np.arange(10, 60), np.arange(50) % 4 + 1).astype(np.int32)
    bounds = tether_chunks(particle, 4)
    assert bounds[0] == 0 and bounds[-1] == len(particle) and len(bounds) == 5
    assert np.all(np.diff(bounds) > 0)  # four chunks, none empty here
    for cut in bounds[1:-1]:
        assert particle[cut] != particle[cut - 1]
    assert max(np.diff(bounds)) < len(particle) / 4 + 4  # about even
    scattered = np.array([3, 4, 3, 5], dtype=np.int32)  # particle 3's tethers apart
    assert tether_chunks(scattered, 4).tolist() == [0, 4]
    assert tether_chunks(particle, 1).tolist() == [0, len(particle)]


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def drive(chooser: ordering.ThreadChooser, clock: FakeClock, cost: dict[int, float], steps: int):
    """Take `steps` steps costing cost[threads] seconds each; returns the counts used."""
    used = []
    for _ in range(steps):
        threads = chooser.threads
        used.append(threads)
        clock.now += cost[threads]
        chooser.measured(cost[threads])
    return used


def test_the_thread_chooser_keeps_the_faster_count_and_gives_up_on_a_hopeless_one_at_once():
    clock = FakeClock()
    chooser = ordering.ThreadChooser(most=2, clock=clock)
    drive(chooser, clock, {1: 0.004, 2: 0.002}, 40)  # a quiet machine: two threads win
    assert chooser.choice == 2
    assert chooser.rate(1) == pytest.approx(250) and chooser.rate(2) == pytest.approx(500)

    # Another process takes a core: two threads now wait at every barrier, 64× slower.
    busy = {1: 0.004, 2: 0.128}
    used = drive(chooser, clock, busy, 400)
    assert chooser.choice == 1
    assert used.count(2) <= 12, used  # the change is seen within a trial, not after seconds
    # later re-tries of two threads cost one step each and come ever more rarely
    late = drive(chooser, clock, busy, 4000)
    assert 1 <= late.count(2) <= 8, late.count(2)

    drive(chooser, clock, {1: 0.004, 2: 0.002}, 20_000)  # the machine is quiet again
    assert chooser.choice == 2


def test_a_paced_solver_takes_the_fewest_threads_that_keep_up():
    clock = FakeClock()
    chooser = ordering.ThreadChooser(most=2, clock=clock)
    chooser.required_rate = 120.0  # 1× real time at Δt = 1/120 s
    drive(chooser, clock, {1: 0.004, 2: 0.002}, 40)
    assert chooser.choice == 1  # 250 steps/s is enough: the other core is left to drawing
    chooser.required_rate = 240.0
    drive(chooser, clock, {1: 0.004, 2: 0.002}, 4000)
    assert chooser.choice == 2  # 250 is not 1.3 × 240


def test_one_core_offers_nothing_to_choose():
    chooser = ordering.ThreadChooser(most=1)
    for _ in range(10):
        chooser.measured(0.01)
    assert chooser.threads == 1 and chooser.options == (1,)


def test_automatic_mode_switching_threads_mid_run_computes_what_two_threads_compute():
    """The chooser's trials switch the count every few steps; the positions do not notice."""
    topology = sheet_topology(128, 128, 2.8 / 127)
    pins = {0: tuple(topology.rest_positions[0]), 127: tuple(topology.rest_positions[127])}
    final = {}
    for mode in (ordering.AUTOMATIC, ordering.TWO_THREADS):
        sim = Simulation(topology, Settings(solver_mode=mode), pins)
        assert sim.links.parallel
        used = set()
        for _ in range(40):
            used.add(sim.threads.threads)
            sim.step(1)
        final[mode] = sim.state.x.copy()
        if mode == ordering.AUTOMATIC and ordering.MOST_THREADS > 1:
            assert used == {1, 2}
    assert np.array_equal(final[ordering.AUTOMATIC], final[ordering.TWO_THREADS])
