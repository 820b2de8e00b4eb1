"""Edits as data: seam cut, inverses, undo text, and which links a stroke crosses."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sim_helpers import (
    add_pin,
    cut,
    hanging_sheet,
    move_ball,
    move_pin,
    remove_pin,
    set_setting,
    sheet_topology,
)

from clothlab.sim.core.solver import Simulation
from clothlab.sim.core.topology import TopologyBuilder
from clothlab.sim.document.commands import apply_to_simulation
from clothlab.sim.document.edits import (
    CutLinks,
    SetPin,
    SetSetting,
    links_crossing_stroke,
    seam_links,
)


def snapshot(sim):
    return (
        sim.state.link_alive.copy(),
        sim.state.face_alive.copy(),
        dict(sim.pins),
        sim.settings,
        sim.links.count,
    )


def assert_same(a, b):
    assert np.array_equal(a[0], b[0])
    assert np.array_equal(a[1], b[1])
    assert a[2] == b[2]
    assert a[3] == b[3]
    assert a[4] == b[4]


# --- seam cut ----------------------------------------------------------------------------------


def test_seam_cut_removes_31_links_and_10_faces_on_15_by_11():
    sim = Simulation(sheet_topology(15, 11))
    edit = cut(sim, seam_links(sim.topology))
    assert len(edit.links) == 31
    apply_to_simulation(sim, edit)
    assert sim.state.link_alive.sum() == 584 - 31
    assert sim.state.face_alive.sum() == 140 - 10
    assert edit.text == "Cut 31 links"
    assert edit.inverse().text == "Restore 31 links"


def test_seam_cut_is_11_across_and_20_diagonals_between_columns_7_and_8():
    topology = sheet_topology(15, 11)
    links = topology.links[seam_links(topology)]
    cols = np.sort(links % 15, axis=1)
    assert np.all(cols == (6, 7))  # 0-based: columns 7 and 8 counted from 1
    rows = links // 15
    assert (rows[:, 0] == rows[:, 1]).sum() == 11  # across
    assert (rows[:, 0] != rows[:, 1]).sum() == 20  # diagonals; no down link changes column


@pytest.mark.parametrize("cols, rows", [(2, 2), (3, 5), (4, 3), (16, 9), (31, 23)])
def test_seam_cut_counts_follow_the_formula(cols, rows):
    sim = Simulation(sheet_topology(cols, rows))
    links = seam_links(sim.topology)
    assert len(links) == rows + 2 * (rows - 1)
    apply_to_simulation(sim, cut(sim, links))
    assert sim.state.face_alive.sum() == (cols - 1) * (rows - 1) - (rows - 1)
    # the two halves are no longer linked to each other
    left = cols // 2 - 1
    live = sim.topology.links[sim.state.link_alive] % cols
    assert not np.any((live.min(axis=1) <= left) & (live.max(axis=1) > left))


def test_seam_of_a_second_sheet_indexes_into_that_sheet():
    builder = TopologyBuilder()
    builder.add_sheet(3, 2, 0.2)
    builder.add_sheet(15, 11, 0.2)
    topology = builder.build()
    links = seam_links(topology, sheet=1)
    assert len(links) == 31
    assert links.min() >= topology.sheets[1].first_link


def test_undo_texts():
    sim = hanging_sheet(4, 3)
    assert CutLinks((4,)).text == "Cut 1 link"
    assert add_pin(sim, 5).text == "Add pin"
    assert move_pin(sim, 0, (0.0, 0.0, 0.0)).text == "Move pin"
    assert remove_pin(sim, 0).text == "Remove pin"
    assert move_ball(sim, (0.0, 1.0, 0.0)).text == "Move ball"
    assert set_setting(sim, "ball_radius", 0.3).text == "Set ball radius"


# --- inverses ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make_edit",
    [
        lambda sim: cut(sim, seam_links(sim.topology)),
        lambda sim: add_pin(sim, 5),
        lambda sim: add_pin(sim, 6, (0.1, 0.2, 0.3)),
        lambda sim: move_pin(sim, 0, (-1.0, 1.5, 0.2)),
        lambda sim: remove_pin(sim, 3),
        lambda sim: move_ball(sim, (0.3, -0.2, 0.1)),
        lambda sim: set_setting(sim, "ball", True),
        lambda sim: set_setting(sim, "passes", 3),
        lambda sim: set_setting(sim, "stiffness", 0.25),
    ],
    ids=["cut", "add", "add-at", "move", "remove", "ball", "ball-on", "passes", "stiffness"],
)
def test_each_edits_inverse_restores_exactly(make_edit):
    sim = hanging_sheet(4, 3)
    sim.step(30)
    before = snapshot(sim)
    edit = make_edit(sim)
    apply_to_simulation(sim, edit)
    changed = snapshot(sim)
    assert not all(
        np.array_equal(a, b) if isinstance(a, np.ndarray) else a == b
        for a, b in zip(before, changed, strict=True)
    )
    sim.step(5)
    apply_to_simulation(sim, edit.inverse())
    assert_same(snapshot(sim), before)
    assert edit.inverse().inverse() == edit


def test_a_removed_pin_lets_the_particle_fall_and_its_undo_puts_it_back():
    sim = hanging_sheet(4, 3)
    anchor = sim.pins[3]
    edit = remove_pin(sim, 3)
    apply_to_simulation(sim, edit)
    sim.step(60)
    assert sim.state.x[3, 1] < anchor[1] - 0.05
    apply_to_simulation(sim, edit.inverse())
    sim.step()
    assert tuple(sim.state.x[3]) == anchor


def test_apply_edit_rejects_non_edits_and_out_of_range_settings():
    sim = hanging_sheet(4, 3)
    with pytest.raises(TypeError):
        apply_to_simulation(sim, "cut everything")
    with pytest.raises(ValueError):
        apply_to_simulation(sim, SetSetting("stiffness", 1.5, 1.0))
    with pytest.raises(KeyError):
        apply_to_simulation(sim, SetSetting("colour", 1, 0))


cut_sets = st.lists(st.integers(0, 54), max_size=20)  # 5 × 4 sheet: 16 + 15 + 2·12 = 55 links
pin_moves = st.tuples(
    st.integers(0, 19),
    st.one_of(st.none(), st.tuples(*[st.floats(-3, 3, allow_nan=False)] * 3)),
)


@given(first=cut_sets, second=cut_sets, pins=st.lists(pin_moves, max_size=4))
@settings(max_examples=60, deadline=None)
def test_edits_then_inverses_in_reverse_order_restore_the_state(first, second, pins):
    sim = hanging_sheet(5, 4)
    before = snapshot(sim)
    applied = []
    for links in (first, second):
        edit = cut(sim, links)
        apply_to_simulation(sim, edit)
        applied.append(edit)
    for particle, anchor in pins:
        edit = remove_pin(sim, particle) if anchor is None else move_pin(sim, particle, anchor)
        apply_to_simulation(sim, edit)
        applied.append(edit)
    sim.step(2)
    for edit in reversed(applied):
        apply_to_simulation(sim, edit.inverse())
    assert_same(snapshot(sim), before)


@given(links=cut_sets, particle=st.integers(0, 19))
@settings(max_examples=40, deadline=None)
def test_edit_then_inverse_is_the_identity(links, particle):
    sim = hanging_sheet(5, 4)
    apply_to_simulation(sim, cut(sim, [0, 50, 54]))
    for edit in (cut(sim, links), add_pin(sim, particle), remove_pin(sim, particle)):
        before = snapshot(sim)
        apply_to_simulation(sim, edit)
        apply_to_simulation(sim, edit.inverse())
        assert_same(snapshot(sim), before)


# --- strokes -------------------------------------------------------------------------------


def flat(cols=6, rows=4):
    topology = sheet_topology(cols, rows)
    screen = np.ascontiguousarray(topology.rest_positions[:, :2])
    alive = np.ones(topology.link_count, dtype=bool)
    return topology, screen, alive


def gap_links(topology, cols, left):
    """Links joining column `left` to column `left + 1` (computed from indices)."""
    c = topology.links % cols
    return set(np.flatnonzero((c.min(axis=1) == left) & (c.max(axis=1) == left + 1)).tolist())


def column_gap_x(screen, left):
    return 0.5 * (screen[left, 0] + screen[left + 1, 0])


def test_vertical_stroke_crosses_exactly_that_column_gaps_across_and_diagonal_links():
    cols, rows = 6, 4
    topology, screen, alive = flat(cols, rows)
    x = column_gap_x(screen, 2)
    hit = links_crossing_stroke(screen, topology.links, alive, [[x, 2.0], [x, -2.0]])
    assert set(hit.tolist()) == gap_links(topology, cols, 2)
    assert len(hit) == rows + 2 * (rows - 1)
    n_across = (cols - 1) * rows
    n_down = cols * (rows - 1)
    assert not np.any((hit >= n_across) & (hit < n_across + n_down))  # no down link


def test_horizontal_stroke_crosses_down_links_and_diagonals_of_that_row_gap():
    cols, rows = 6, 4
    topology, screen, alive = flat(cols, rows)
    y = 0.5 * (screen[0, 1] + screen[cols, 1])
    hit = links_crossing_stroke(screen, topology.links, alive, [[-3.0, y], [3.0, y]])
    r = topology.links // cols
    expected = np.flatnonzero((r.min(axis=1) == 0) & (r.max(axis=1) == 1))
    assert hit.tolist() == expected.tolist()
    assert len(hit) == cols + 2 * (cols - 1)


def test_stroke_outside_the_sheet_crosses_nothing():
    topology, screen, alive = flat()
    for stroke in ([[5.0, 2.0], [5.0, -2.0]], [[-3.0, 3.0], [3.0, 3.0]], [[0.05, 0.95]] * 2):
        assert len(links_crossing_stroke(screen, topology.links, alive, stroke)) == 0


def test_a_single_point_stroke_crosses_nothing():
    topology, screen, alive = flat()
    assert len(links_crossing_stroke(screen, topology.links, alive, [[0.0, 0.5]])) == 0


def test_nan_screen_positions_never_cross():
    cols = 6
    topology, screen, alive = flat(cols)
    hidden = [2, 3 + cols]  # one end of some gap links, hidden behind the camera
    screen[hidden] = np.nan
    x = column_gap_x(flat(cols)[1], 2)
    hit = set(links_crossing_stroke(screen, topology.links, alive, [[x, 2], [x, -2]]).tolist())
    touches_hidden = set(np.flatnonzero(np.isin(topology.links, hidden).any(axis=1)).tolist())
    assert hit == gap_links(topology, cols, 2) - touches_hidden
    assert 0 < len(hit) < len(gap_links(topology, cols, 2))


def test_dead_links_are_not_returned():
    cols = 6
    topology, screen, alive = flat(cols)
    gap = sorted(gap_links(topology, cols, 2))
    alive[gap[::2]] = False
    x = column_gap_x(screen, 2)
    hit = links_crossing_stroke(screen, topology.links, alive, [[x, 2], [x, -2]])
    assert hit.tolist() == gap[1::2]


def test_polyline_with_several_segments_crosses_both_gaps_once():
    cols = 6
    topology, screen, alive = flat(cols)
    x1, x2 = column_gap_x(screen, 1), column_gap_x(screen, 3)
    stroke = [[x1, 2.0], [x1, -2.0], [x2, -2.0], [x2, 2.0]]  # down, along below, back up
    hit = links_crossing_stroke(screen, topology.links, alive, np.array(stroke))
    assert hit.tolist() == sorted(gap_links(topology, cols, 1) | gap_links(topology, cols, 3))


def test_stroke_in_the_seam_gap_cuts_exactly_the_seam():
    topology, screen, alive = flat(15, 11)
    x = column_gap_x(screen, 6)
    hit = links_crossing_stroke(screen, topology.links, alive, [[x, 1.5], [x, -1.5]])
    assert len(hit) == 31
    assert hit.tolist() == seam_links(topology).tolist()


def test_a_stroke_cut_applied_removes_the_faces_it_crossed():
    sim = Simulation(sheet_topology(15, 11))
    screen = sim.state.x[:, :2]
    x = column_gap_x(screen, 6)
    stroke = [[x, 1.5], [x, 0.15]]  # the top part only: rows 0 … 4 (y 1.0 … 0.2)
    links = links_crossing_stroke(screen, sim.topology.links, sim.state.link_alive, stroke)
    edit = cut(sim, links)
    apply_to_simulation(sim, edit)
    assert edit.text == "Cut 13 links"  # 5 across + 2 · 4 diagonals
    # four squares lose their diagonals, the fifth (rows 4–5) its top side
    assert sim.state.face_alive.sum() == 140 - 5


def test_set_pin_record_round_trip():
    edit = SetPin(4, (0.0, 1.0, 0.0), None)
    assert edit.inverse() == SetPin(4, None, (0.0, 1.0, 0.0))
