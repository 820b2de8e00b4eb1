"""Tearing updates what depends on the links incrementally: the link arrays drop the torn
links from the colour order, the tethers find again only the paths that went through them.
Each must equal a build from scratch, and a torn-off piece must never stay tethered."""

from __future__ import annotations

import numpy as np
import pytest

from clothlab.sim.core import ordering
from clothlab.sim.core.arrays import build_links
from clothlab.sim.core.constraint_sets import Model, TetherSet, tethers
from clothlab.sim.core.parameters import Settings
from clothlab.sim.core.solver import Simulation
from clothlab.sim.core.topology import TopologyBuilder

COLS, ROWS, SPACING = 16, 12, 0.1


def sheet(pins, cols=COLS, rows=ROWS, **settings) -> Simulation:
    builder = TopologyBuilder()
    builder.add_sheet(cols, rows, SPACING)
    topology = builder.build()
    anchors = {p: tuple(topology.rest_positions[p]) for p in pins}
    values = {"tearing": True, "tear_ratio": 1.5, "tethers": True, "floor": False, **settings}
    return Simulation(topology, Settings(**values), pins=anchors)


def live_degree(sim: Simulation) -> np.ndarray:
    """(N,) int: live links at each particle."""
    ends = sim.topology.links[sim.state.link_alive]
    return np.bincount(ends.ravel(), minlength=sim.topology.particle_count)


def rip_out(sim: Simulation, particle: int, after_step=None, most_steps: int = 40) -> None:
    """Grab a particle and pull it out of the sheet (+z) until its links have torn (or a
    scrap still hangs from it), then let go."""
    target = sim.state.x[particle].copy()
    sim.grab(particle, target)
    for _ in range(most_steps):
        if live_degree(sim)[particle] == 0:
            break
        target[2] += 0.05
        sim.move_grab(target)
        assert sim.step() == 1
        if after_step is not None:
            after_step(sim)
    sim.release()


def held_by_pins(sim: Simulation, link_alive: np.ndarray) -> np.ndarray:
    """(N,) bool: particles joined to a pin by these live links."""
    ends = sim.topology.links[link_alive]
    held = np.zeros(sim.topology.particle_count, dtype=bool)
    held[sim.state.pin_index] = True
    while True:
        grown = held.copy()
        grown[ends[held[ends[:, 0]], 1]] = True
        grown[ends[held[ends[:, 1]], 0]] = True
        if np.array_equal(grown, held):
            return held
        held = grown


def tether_set(sim: Simulation) -> TetherSet:
    return next(c for c in sim._extended.sets if isinstance(c, TetherSet))


def model(sim: Simulation, link_alive: np.ndarray | None = None) -> Model:
    """What the constraint sets build from; by default, as the links are now (the sets see
    the tears of a step at the start of the next)."""
    state = sim.state
    alive = state.link_alive if link_alive is None else link_alive
    return Model(sim.topology, alive, state.face_alive, state.pin_index, sim.links, sim.mechanics)


def as_table(particle, anchor, length) -> dict[tuple[int, int], float]:
    return dict(
        zip(zip(particle.tolist(), anchor.tolist(), strict=True), length.tolist(), strict=True)
    )


def assert_same_tethers(kept: TetherSet, fresh: tuple[np.ndarray, ...]) -> None:
    """The same tethers (particle, pin) and lengths as a build from scratch (to rounding: two
    equally short paths may sum their rest lengths in another order)."""
    ours, theirs = as_table(kept.particle, kept.anchor, kept.length), as_table(*fresh)
    assert ours.keys() == theirs.keys()
    for key, length in theirs.items():
        assert ours[key] == pytest.approx(length, rel=1e-12, abs=1e-12)


def test_a_sheet_torn_fully_across_drops_its_lower_piece_despite_the_tethers():
    row = ROWS // 2
    sim = sheet(pins=(0, COLS - 1))
    sim.step(30)  # tethers built on the whole sheet: straight rest distances to both pins
    before = as_table(*tethers(model(sim)))
    repairs = []  # the tethers are brought up to date at the start of each step after a tear
    for col in range(COLS):  # rip the middle row out, particle by particle: two pieces
        rip_out(sim, row * COLS + col, lambda s: repairs.append(tether_set(s).repaired))
    torn = sim.state.link_alive
    sim.step()
    repairs.append(tether_set(sim).repaired)
    assert max(repairs) > 0  # the tethers were repaired, not built afresh
    assert_same_tethers(tether_set(sim), tethers(model(sim, torn)))
    below = np.arange((row + 1) * COLS, ROWS * COLS)
    lower = below[~held_by_pins(sim, torn)[below]]
    assert len(lower) == len(below)  # torn fully across: no live path from below to a pin
    assert not np.isin(tether_set(sim).particle, lower).any()  # and no tether
    sim.step(120)  # one second of free fall
    pins = sim.state.x[[0, COLS - 1]]
    for particle in lower.tolist():
        for k, pin in enumerate((0, COLS - 1)):
            allowed = before[(particle, pin)]  # its tether before the tear
            distance = np.linalg.norm(sim.state.x[particle] - pins[k])
            assert distance > allowed + 2.0  # fell far beyond any tether's reach
    held = held_by_pins(sim, sim.state.link_alive)  # the upper piece, less a few scraps
    assert held[: row * COLS].mean() > 0.8
    assert sim.state.x[held, 1].min() > -0.5  # still hangs: the tethers hold what they should


@pytest.mark.parametrize(
    "pins",
    [(0, COLS - 1), (0, COLS // 2, COLS - 1), tuple(range(0, COLS, 2))],
    ids=["two pins", "three pins", "eight pins"],
)
def test_tethers_kept_up_to_date_equal_a_fresh_build_after_every_tear(pins):
    sim = sheet(pins)
    sim.step(10)
    checked = []
    built_for = [sim.state.link_alive]  # the links as the next step's builds see them

    def check(sim: Simulation) -> None:
        if tether_set(sim).repaired:  # this step's build found some paths again
            assert_same_tethers(tether_set(sim), tethers(model(sim, built_for[0])))
            checked.append(tether_set(sim).repaired)
        built_for[0] = sim.state.link_alive

    for particle in (ROWS - 1) * COLS + np.arange(0, COLS, 3):  # rip along the bottom edge
        rip_out(sim, int(particle), after_step=check)
    for particle in (ROWS // 2) * COLS + np.arange(COLS // 2):  # and half across the middle
        rip_out(sim, int(particle), after_step=check)
    assert len(checked) >= 5
    # a cut removes links as a tear does; undoing it brings links back, which can only
    # shorten paths: the set then builds afresh, and still agrees
    sim.settings = sim.settings.with_value("tearing", False)  # nothing tears behind our back
    live = np.flatnonzero(sim.state.link_alive)
    cut = live[len(live) // 3 : len(live) // 3 + 8]
    sim.set_cut(cut, True)
    sim.step()
    assert_same_tethers(tether_set(sim), tethers(model(sim)))
    sim.set_cut(cut, False)
    sim.step()
    assert tether_set(sim).repaired == 0
    assert_same_tethers(tether_set(sim), tethers(model(sim)))


def test_many_pins_keep_the_tether_lengths_of_the_fresh_build():
    """With more pins than paths are kept for, the pins are grouped (pin_groups) and each
    particle is tethered to the nearest pin of some of the groups: two pins equally near may
    be swapped, the lengths may not."""
    pins = (*range(COLS), COLS * 3)  # the top row and one more
    sim = sheet(pins)
    sim.step(10)
    for particle in (ROWS - 1) * COLS + np.arange(0, COLS, 4):
        rip_out(sim, int(particle))
    torn = sim.state.link_alive
    sim.step()  # whose start brings the tethers up to date with those tears
    kept, fresh = tether_set(sim), tethers(model(sim, torn))

    def lengths(particle: np.ndarray, length: np.ndarray) -> dict[int, list[float]]:
        return {int(p): sorted(length[particle == p].tolist()) for p in np.unique(particle)}

    ours, theirs = lengths(kept.particle, kept.length), lengths(fresh[0], fresh[2])
    assert ours.keys() == theirs.keys()
    assert max(len(v) for v in theirs.values()) > 1  # groups: more than the nearest pin
    for p, expected in theirs.items():
        assert ours[p] == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("mode", [ordering.COLOUR_ORDER, ordering.TWO_THREADS])
def test_torn_link_arrays_are_the_uncut_colour_order_without_the_dead_links(mode):
    sim = sheet(pins=(0, COLS - 1), solver_mode=mode)
    whole = build_links(sim.topology, np.ones(sim.topology.link_count, bool), mode)
    sim.step(10)
    for particle in ((ROWS - 1) * COLS + 5, (ROWS // 2) * COLS + 7, 3 * COLS + 2):
        rip_out(sim, particle)
    alive, links = sim.state.link_alive, sim.links
    assert (~alive).sum() > 10 and links.coloured and links.parallel == (mode == 3)
    assert np.array_equal(links.live, whole.live[alive[whole.live]])  # same order, dead gone
    topology = sim.topology
    assert np.array_equal(links.a, topology.links[links.live, 0])
    assert np.array_equal(links.b, topology.links[links.live, 1])
    assert np.array_equal(links.rest, topology.rest_lengths[links.live])
    # each colour is the uncut colour minus its dead links, still an independent set
    expected_start = [0]
    for c in range(len(whole.colour_start) - 1):
        members = whole.live[whole.colour_start[c] : whole.colour_start[c + 1]]
        survivors = members[alive[members]]
        if len(survivors):
            expected_start.append(expected_start[-1] + len(survivors))
            ours = links.live[expected_start[-2] : expected_start[-1]]
            assert np.array_equal(ours, survivors)
            ends = topology.links[ours].ravel()
            assert len(np.unique(ends)) == len(ends)
    assert links.colour_start.tolist() == expected_start
    # the order follows from which links live, not from how they died: a simulation loaded
    # with these tears has the very same arrays
    loaded = Simulation(topology, sim.settings, pins=sim.pins, tears=sim.torn)
    for field in ("live", "a", "b", "rest", "colour_start"):
        assert np.array_equal(getattr(loaded.links, field), getattr(links, field)), field
