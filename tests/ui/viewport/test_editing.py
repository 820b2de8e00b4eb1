"""Editing through the real viewport with real mouse events: grab, cut, pin drag, ball,
undo/redo, seam cut, save and load."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from qt_helpers import WAIT_MS, drag, screen_point

from clothlab.app.controller import Controller
from clothlab.sim.document.commands import GrabMove, GrabRelease, GrabStart
from clothlab.sim.document.edits import SetPin, links_crossing_stroke
from clothlab.sim.document.scene import load_scene
from clothlab.sim.lab.engine import Engine
from clothlab.ui.viewport.tools import TOOLS
from clothlab.ui.window.main_window import MainWindow

LEFT = Qt.MouseButton.LeftButton
NO_MODIFIER = Qt.KeyboardModifier.NoModifier


@pytest.fixture
def window(qtbot, make_window) -> MainWindow:
    """The real window on hanging-sheet, paused at t = 0 so the cloth stays where it is drawn."""
    made = make_window("hanging-sheet", size=(1200, 800), paused=True)
    qtbot.waitUntil(lambda: made.viewport.snapshot() is not None, timeout=WAIT_MS)
    return made


def test_grab_pulls_a_particle_toward_the_pointer(qtbot, window):
    controller, viewport = window.controller, window.viewport
    particle = 10 * 15 + 7  # bottom middle
    start = controller.latest.x[particle].copy()
    press = screen_point(window, start)
    target = press + QPoint(0, 80)
    controller.set_running(True)
    QTest.mousePress(viewport, LEFT, NO_MODIFIER, press)
    for step in range(1, 9):
        QTest.mouseMove(viewport, press + QPoint(0, 10 * step))
    qtbot.waitUntil(lambda: controller.latest.grabbed == particle, timeout=WAIT_MS)
    origin, direction = viewport.ray(target.x(), target.y())

    def miss() -> float:  # the held particle's distance from the pointer's ray
        return float(np.linalg.norm(np.cross(controller.latest.x[particle] - origin, direction)))

    # The moves' targets arrive one by one: wait for the last (the particle under the pointer)
    # rather than for some drop an earlier target may already give.
    qtbot.waitUntil(lambda: miss() < 0.05, timeout=WAIT_MS)
    assert controller.latest.x[particle][1] < start[1] - 0.3  # pulled well down
    QTest.mouseRelease(viewport, LEFT, NO_MODIFIER, target)
    qtbot.waitUntil(lambda: controller.latest.grabbed is None, timeout=WAIT_MS)


def test_a_slow_drag_moves_the_held_particle_at_the_pointers_pace_not_a_jump_a_frame(qtbot, window):
    """Pointer reports a tenth of a second apart (≈12 steps) used to move
    the particle in one jump a report, at 12 × the hand's speed."""
    controller, viewport = window.controller, window.viewport
    particle = 10 * 15 + 7  # bottom middle
    press = screen_point(window, controller.latest.x[particle])
    controller.set_running(True)
    QTest.mousePress(viewport, LEFT, NO_MODIFIER, press)
    for step in range(1, 9):
        reported = controller.latest.steps  # the next report ≈12 steps (0.1 s) later
        qtbot.waitUntil(lambda: controller.latest.steps >= reported + 12, timeout=WAIT_MS)  # noqa: B023
        QTest.mouseMove(viewport, press + QPoint(6 * step, 0))
    QTest.mouseRelease(viewport, LEFT, NO_MODIFIER, press + QPoint(48, 0))
    qtbot.waitUntil(lambda: controller.latest.grabbed is None, timeout=WAIT_MS)
    controller.set_running(False)
    qtbot.waitUntil(lambda: not controller.running, timeout=WAIT_MS)

    journal = list(controller.journal)
    held = [s for s in journal if isinstance(s.command, (GrabStart, GrabMove))]
    gaps = [later.step - earlier.step for earlier, later in itertools.pairwise(held)]
    assert [s.command.over_steps for s in held[1:]] == [min(g, 60) for g in gaps]
    assert max(gaps) > 3  # reports came steps apart: a jump a report would have been fast
    # The pointer's fastest pace between two reports, and the held particle's fastest step,
    # in a replay of the journal one step at a time.
    engine = Engine(journal[0].command.scene, journal[1:], record_every=0)
    dt = engine.sim.settings.dt
    targets = [np.array(s.command.target) for s in held]
    pointer = max(
        np.linalg.norm(b - a) / (g * dt)
        for a, b, g in zip(targets, targets[1:], gaps, strict=False)
        if g > 0
    )
    release = next(s.step for s in journal if isinstance(s.command, GrabRelease))
    engine.advance_to(held[0].step)
    fastest = 0.0
    while engine.clock < release:
        engine.advance(1)
        x, x_prev = engine.sim.state.x[particle], engine.sim.state.x_prev[particle]
        fastest = max(fastest, float(np.linalg.norm(x - x_prev) / dt))
    assert fastest < 2 * pointer


def test_a_cut_stroke_removes_what_the_pure_function_says_and_undo_redo_restore_it(qtbot, window):
    controller, viewport = window.controller, window.viewport
    window.tool_actions["cut"].trigger()
    assert viewport.interaction.tool == "cut"
    snapshot = controller.latest
    top = screen_point(window, (snapshot.x[6] + snapshot.x[7]) / 2) + QPoint(0, -40)
    bottom = screen_point(window, (snapshot.x[160] + snapshot.x[161]) / 2) + QPoint(0, 40)
    stroke = [top + (bottom - top) * (k / 10) for k in range(11)]
    expected = links_crossing_stroke(
        viewport.project(snapshot.x),
        snapshot.topology.links,
        snapshot.link_alive,
        np.array([(p.x(), p.y()) for p in stroke], dtype=float),
    )
    assert len(expected) >= 31  # at least the seam: 11 across, 20 diagonals
    drag(viewport, stroke)
    assert controller.undo_stack.count() == 1
    assert controller.undo_stack.undoText() == f"Cut {len(expected)} links"
    qtbot.waitUntil(
        lambda: controller.latest.readouts.links == 584 - len(expected), timeout=WAIT_MS
    )
    assert sorted(controller.scene.cuts) == sorted(int(k) for k in expected)
    assert not controller.latest.face_alive.all()

    window.action_undo.trigger()
    qtbot.waitUntil(lambda: controller.latest.readouts.links == 584, timeout=WAIT_MS)
    assert controller.latest.face_alive.all()
    window.action_redo.trigger()
    qtbot.waitUntil(
        lambda: controller.latest.readouts.links == 584 - len(expected), timeout=WAIT_MS
    )


def test_dragging_a_pin_moves_its_anchor_as_one_undo_entry(qtbot, window):
    controller, viewport = window.controller, window.viewport
    window.tool_actions["pin"].trigger()
    anchor = np.array(controller.scene.pins[1].anchor)  # the top-right pin, particle 14
    start = screen_point(window, anchor)
    drag(viewport, [start + QPoint(-6 * k, 4 * k) for k in range(11)])
    assert controller.undo_stack.count() == 1
    assert controller.undo_stack.undoText() == "Move pin"
    moved = dict((p.particle, np.array(p.anchor)) for p in controller.scene.pins)[14]
    assert moved[0] < anchor[0] - 0.2 and moved[1] < anchor[1]

    def anchor_in_solver() -> np.ndarray:
        latest = controller.latest
        return latest.pin_anchor[list(latest.pin_index).index(14)]

    qtbot.waitUntil(lambda: np.allclose(anchor_in_solver(), moved), timeout=WAIT_MS)
    window.action_undo.trigger()
    restored = dict((p.particle, np.array(p.anchor)) for p in controller.scene.pins)[14]
    assert np.allclose(restored, anchor)


def test_clicking_pins_and_unpins_a_particle(qtbot, window):
    controller, viewport = window.controller, window.viewport
    window.tool_actions["pin"].trigger()
    particle = 5 * 15 + 3
    point = screen_point(window, controller.latest.x[particle])
    QTest.mouseClick(viewport, LEFT, NO_MODIFIER, point)
    assert controller.undo_stack.undoText() == "Add pin"
    assert particle in {p.particle for p in controller.scene.pins}
    qtbot.waitUntil(lambda: particle in viewport.snapshot().pin_index, timeout=WAIT_MS)
    QTest.mouseClick(viewport, LEFT, NO_MODIFIER, point)
    assert controller.undo_stack.undoText() == "Remove pin"
    assert particle not in {p.particle for p in controller.scene.pins}


def test_ball_toggle_and_drag_are_undoable(qtbot, window):
    controller, viewport = window.controller, window.viewport
    window.action_ball.trigger()
    assert controller.settings.ball and controller.undo_stack.undoText() == "Set ball"
    window.tool_actions["ball"].trigger()
    centre = np.array(controller.settings.ball_center)
    qtbot.waitUntil(lambda: viewport.snapshot().settings.ball, timeout=WAIT_MS)  # as drawn
    start = screen_point(window, centre)
    drag(viewport, [start + QPoint(8 * k, 0) for k in range(11)])
    assert controller.undo_stack.undoText() == "Move ball"
    assert controller.settings.ball_center[0] > centre[0] + 0.2
    window.action_undo.trigger()
    assert np.allclose(controller.settings.ball_center, centre)


def test_seam_cut_action_cuts_31_links(qtbot, window):
    window.action_seam.trigger()
    controller = window.controller
    assert controller.undo_stack.undoText() == "Cut 31 links"
    qtbot.waitUntil(lambda: controller.latest.readouts.links == 553, timeout=WAIT_MS)


def test_right_drag_orbits_in_every_tool(qtbot, window):
    viewport = window.viewport
    for tool in TOOLS:
        window.tool_actions[tool.name].trigger()
        before = viewport.camera_spec().yaw
        centre = QPoint(viewport.width() // 2, viewport.height() // 2)
        QTest.mousePress(viewport, Qt.MouseButton.RightButton, NO_MODIFIER, centre)
        QTest.mouseMove(viewport, centre + QPoint(60, 0))
        QTest.mouseRelease(
            viewport, Qt.MouseButton.RightButton, NO_MODIFIER, centre + QPoint(60, 0)
        )
        assert viewport.camera_spec().yaw != before
    assert window.controller.undo_stack.count() == 0


def test_save_then_load_gives_the_same_scene(qtbot, window, tmp_path):
    controller = window.controller
    window.action_seam.trigger()
    controller.submit(SetPin(5 * 15 + 3, (0.1, 0.2, 0.3), None))
    controller.set_setting("wind", 2.5)
    controller.set_setting("ball", True)
    path = tmp_path / "edited.json"
    controller.save(path, window.viewport.camera_spec())
    assert controller.undo_stack.isClean() and not window.isWindowModified()
    loaded = load_scene(path)
    assert loaded == controller.scene
    assert len(loaded.cuts) == 31 and loaded.wind.strength == 2.5 and loaded.ball.enabled
    fresh = Controller()
    try:
        fresh.open(path)
        assert fresh.scene == controller.scene
    finally:
        fresh.shutdown()
