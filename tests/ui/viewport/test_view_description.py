"""The 3D view's words for screen readers (ui.viewport.description), the keyboard cut's stroke
and a plot's trend: pure functions, no display."""

from __future__ import annotations

import dataclasses

import numpy as np

from clothlab.sim.core.snapshot import take_snapshot
from clothlab.sim.document.edits import links_crossing_stroke, seam_links
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.scene import BlockSpec, SheetSpec, build_simulation
from clothlab.ui.docks.readouts_dock import trend
from clothlab.ui.viewport.description import cursor_words, describe, pieces_per_body
from clothlab.ui.viewport.key_tools import cut_stroke


def snapshot_of(scene):
    return take_snapshot(build_simulation(scene), frame=1)


def test_the_hanging_sheet_is_said_as_phet_says_it():
    snapshot = snapshot_of(load_preset("hanging-sheet"))
    text = describe(snapshot, running=False, happened="Cut 31 links", hint="Press Enter")
    assert text.startswith("A sheet, 15 by 11, hangs from two pins; the ball is off.")
    assert "Paused: at rest; sag 0.00 units; stretch 0 %." in text
    assert text.endswith("Cut 31 links. Press Enter.")
    in_metres = describe(snapshot, running=False, si=True)  # a sheet of an SI fabric
    assert "Paused: at rest; sag 0.00 m; stretch 0 %." in in_metres


def test_motion_words_follow_the_mean_speed():
    snapshot = snapshot_of(load_preset("hanging-sheet"))

    def moving(speed: float) -> str:
        readouts = dataclasses.replace(snapshot.readouts, motion=speed)
        return describe(dataclasses.replace(snapshot, readouts=readouts), running=True)

    assert "Running: swinging;" in moving(0.5)
    assert "Running: settling;" in moving(0.02)
    assert "Running: at rest;" in moving(0.001)


def test_a_seam_cut_sheet_is_in_two_pieces_and_a_block_in_one():
    scene = load_preset("hanging-sheet")
    snapshot = snapshot_of(scene)
    alive = np.array(snapshot.link_alive)
    assert pieces_per_body(snapshot.topology, alive) == [1]
    alive[seam_links(snapshot.topology)] = False
    assert pieces_per_body(snapshot.topology, alive) == [2]
    cut = dataclasses.replace(snapshot, link_alive=alive)
    assert describe(cut, False).startswith("A sheet, 15 by 11, in two pieces, hangs from")
    # a particle cut loose on its own is no piece
    sheet = snapshot.topology.sheets[0]
    alone = np.array(snapshot.link_alive)
    links = snapshot.topology.links
    alone[(links == sheet.particle(10, 14)).any(axis=1)] = False
    assert pieces_per_body(snapshot.topology, alone) == [1]
    both = scene.model_copy(update={"bodies": (SheetSpec(), BlockSpec())})
    assert pieces_per_body(snapshot_of(both).topology, snapshot_of(both).link_alive) == [1, 1]


def test_the_cursor_is_placed_by_row_and_column():
    snapshot = snapshot_of(load_preset("hanging-sheet"))
    sheet = snapshot.topology.sheets[0]
    assert cursor_words(snapshot, sheet.particle(2, 6)) == (
        f"Cursor on particle {sheet.particle(2, 6)}: row 3 of 11, column 7 of 15"
    )
    assert cursor_words(snapshot, sheet.particle(0, 0)).endswith(", pinned")


def test_the_keyboard_cut_runs_beside_the_marks_and_past_them():
    # a 3 × 3 grid of particles 10 px apart on screen; marks on the top and bottom of column 1
    screen = np.array([(10.0 * c, 10.0 * r) for r in range(3) for c in range(3)])
    across = [(r * 3 + c, r * 3 + c + 1) for r in range(3) for c in range(2)]
    down = [(r * 3 + c, r * 3 + c + 3) for r in range(2) for c in range(3)]
    links = np.array(across + down, dtype=np.int32)
    stroke = cut_stroke(screen[1], screen[7], 10.0)
    # facing down the screen, its right is towards −x: between columns 0 and 1
    assert np.allclose(stroke, [[5.0, -5.0], [5.0, 25.0]])
    crossed = links_crossing_stroke(screen, links, np.ones(len(links), bool), stroke)
    assert sorted(tuple(links[k]) for k in crossed) == [(0, 1), (3, 4), (6, 7)]


def test_a_plot_trend_is_rising_falling_or_steady():
    assert trend(np.linspace(0.0, 1.0, 100)) == "rising"
    assert trend(np.linspace(1.0, 0.0, 100)) == "falling"
    assert trend(np.full(100, 0.3)) == "steady"
    assert trend(np.array([np.nan, 0.3])) == "steady"
