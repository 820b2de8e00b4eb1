"""The Ruler and the Stopwatch in the real window: the Ruler tool dragged with real mouse events
between two particles makes one undoable ruler whose label reads their distance, frame by frame
as the cloth moves, and a click on the label removes it; the Stopwatch reads model time (N
steps read N·Δt exactly at ¼× and as fast as possible), its laps are copied as text lines, and
its buttons are reached and pressed by the keyboard (F6, Tab, Enter)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QGuiApplication, QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from qt_helpers import WAIT_MS, a_frame_drawn, drag, screen_point, settle

from clothlab.sim.document import composition
from clothlab.sim.document.commands import SetSpeed, Step
from clothlab.sim.document.edits import SetPin
from clothlab.sim.document.requests import Compose
from clothlab.sim.document.scene import BoxSpec, RulerEnd, RulerSpec
from clothlab.ui.viewport.key_tools import RULER_HINT
from clothlab.ui.viewport.ruler_overlay import LABEL_FILL
from clothlab.ui.window.main_window import MainWindow

LEFT = Qt.MouseButton.LeftButton
NO_MODIFIER = Qt.KeyboardModifier.NoModifier
BOTTOM_LEFT, BOTTOM_RIGHT = 150, 164  # the hanging sheet's bottom corners (15 × 11)


@pytest.fixture
def window(qtbot, make_window) -> MainWindow:
    """The real window on hanging-sheet, paused at t = 0 so the cloth stays where it is drawn,
    with the Stopwatch shown (View ▸ Panels ▸ Stopwatch)."""
    made = make_window("hanging-sheet", size=(1200, 800), paused=True)
    qtbot.waitUntil(lambda: made.viewport.snapshot() is not None, timeout=WAIT_MS)
    assert made.stopwatch_dock.isHidden()  # hidden by default, as Validation is
    made.stopwatch_dock.toggleViewAction().trigger()
    made.stopwatch_dock.raise_()
    return made


def step(qtbot, window: MainWindow, count: int) -> None:
    """Step the paused model `count` steps and wait until the window has drawn that frame."""
    controller, viewport = window.controller, window.viewport
    target = controller.latest.steps + count
    controller.submit(Step(count))
    qtbot.waitUntil(lambda: viewport.snapshot().steps == target, timeout=WAIT_MS)


def label_pixels(window: MainWindow, mark) -> int:
    """Pixels of the label's fill inside its box, in the view's own framebuffer."""
    image = window.viewport.grabFramebuffer().convertToFormat(QImage.Format.Format_RGB888)
    ratio = image.width() / window.viewport.width()
    box = mark.label.adjusted(2, 2, -2, -2)
    rows = np.frombuffer(image.constBits(), dtype=np.uint8).reshape(image.height(), -1)
    rgb = rows[:, : image.width() * 3].reshape(image.height(), image.width(), 3)
    top, bottom = round(box.top() * ratio), round(box.bottom() * ratio)
    left, right = round(box.left() * ratio), round(box.right() * ratio)
    patch = rgb[top:bottom, left:right].astype(int)
    fill = np.array([LABEL_FILL.red(), LABEL_FILL.green(), LABEL_FILL.blue()])
    # the fill is drawn over the scene at 84 % cover: dark, near its colour
    return int(np.count_nonzero(np.abs(patch - fill).max(axis=2) < 45))


def test_a_ruler_dragged_between_two_particles_reads_their_distance_as_the_cloth_moves(
    qtbot, window
):
    controller, viewport = window.controller, window.viewport
    window.tool_actions["ruler"].trigger()
    assert viewport.interaction.tool == "ruler"
    x = controller.latest.x
    start, end = screen_point(window, x[BOTTOM_LEFT]), screen_point(window, x[BOTTOM_RIGHT])
    drag(viewport, [start + (end - start) * (k / 8) for k in range(9)])

    expected = RulerSpec(start=RulerEnd(particle=BOTTOM_LEFT), end=RulerEnd(particle=BOTTOM_RIGHT))
    assert controller.scene.rulers == [expected]
    assert controller.undo_stack.undoText() == "Add ruler"

    def label_reads_the_frame() -> bool:
        marks, shown = viewport.ruler_marks(), viewport.snapshot()
        distance = np.linalg.norm(shown.x[BOTTOM_LEFT] - shown.x[BOTTOM_RIGHT])
        return len(marks) == 1 and marks[0].text == f"{distance:.4f} units"

    assert label_reads_the_frame()
    first = viewport.ruler_marks()[0]
    qtbot.waitUntil(lambda: label_pixels(window, first) > 100, timeout=WAIT_MS)  # it is drawn
    step(qtbot, window, 90)  # the sheet sags: its bottom corners swing in
    assert label_reads_the_frame()
    assert viewport.ruler_marks()[0].text != first.text

    controller.undo_stack.undo()
    assert controller.scene.rulers == [] and viewport.ruler_marks() == []
    controller.undo_stack.redo()
    assert controller.scene.rulers == [expected]


def test_a_click_on_a_ruler_label_removes_it_and_undo_puts_it_back(qtbot, window):
    controller, viewport = window.controller, window.viewport
    window.tool_actions["ruler"].trigger()
    x = controller.latest.x
    for a, b in ((3, 11), (BOTTOM_LEFT, BOTTOM_RIGHT)):  # labels apart: top and bottom
        start, end = screen_point(window, x[a]), screen_point(window, x[b])
        drag(viewport, [start + (end - start) * (k / 6) for k in range(7)])
    assert len(controller.scene.rulers) == 2
    kept = controller.scene.rulers[1]
    label = viewport.ruler_marks()[0].label
    QTest.mouseClick(viewport, LEFT, NO_MODIFIER, label.center().toPoint())
    assert controller.scene.rulers == [kept]
    assert controller.undo_stack.undoText() == "Remove ruler"
    controller.undo_stack.undo()
    assert len(controller.scene.rulers) == 2
    # Edit ▸ Remove rulers: every ruler at once, in one undo step
    remove_all = window.action_remove_rulers
    assert remove_all.isEnabled()
    remove_all.trigger()
    assert controller.scene.rulers == [] and viewport.ruler_marks() == []
    assert controller.undo_stack.undoText() == "Remove rulers" and not remove_all.isEnabled()
    controller.undo_stack.undo()
    assert len(controller.scene.rulers) == 2 and remove_all.isEnabled()


def test_a_ruler_end_off_the_cloth_snaps_to_a_pin_anchor(qtbot, window):
    controller, viewport = window.controller, window.viewport
    snapshot = controller.latest
    particle = int(snapshot.pin_index[0])
    before = tuple(map(float, snapshot.pin_anchor[0]))
    raised = (before[0], before[1] + 0.6, before[2])  # 0.6 above the cloth: no particle near
    controller.submit(SetPin(particle, raised, before))
    qtbot.waitUntil(lambda: np.allclose(viewport.snapshot().pin_anchor[0], raised), timeout=WAIT_MS)
    window.tool_actions["ruler"].trigger()
    start = screen_point(window, snapshot.x[BOTTOM_LEFT])
    end = screen_point(window, np.array(raised)) + QPoint(5, -4)  # near it, within the radius
    drag(viewport, [start, start + (end - start) / 2, end])
    ruler = controller.scene.rulers[0]
    assert ruler.start == RulerEnd(particle=BOTTOM_LEFT)
    assert ruler.end == RulerEnd(point=raised)  # the anchor itself, not where the pointer was


# --- the stopwatch ------------------------------------------------------------------------------


@pytest.mark.parametrize("speed", [0.25, math.inf], ids=["quarter", "fastest"])
def test_the_stopwatch_reads_n_steps_as_n_time_steps_exactly_at_any_speed(qtbot, window, speed):
    controller, panel = window.controller, window.stopwatch_panel
    controller.submit(SetSpeed(speed))
    step(qtbot, window, 7)  # started at model t0 = 7 Δt, not at 0
    QTest.mouseClick(panel.start_button, LEFT)
    assert panel.watch.running and panel.start_button.text() == "Stop"
    step(qtbot, window, 120)
    step(qtbot, window, 33)
    QTest.mouseClick(panel.start_button, LEFT)
    dt = controller.settings.dt
    assert panel.watch.reading == 153 * dt  # exactly: steps × Δt, not a sum of rounded Δt
    assert panel.display.text() == f"{153 * dt:.4f} s"
    step(qtbot, window, 50)  # stopped: the model runs on, the stopwatch does not
    assert panel.watch.reading == 153 * dt


def test_the_stopwatch_follows_model_time_while_the_model_runs_at_a_quarter(qtbot, window):
    controller, panel = window.controller, window.stopwatch_panel
    controller.submit(SetSpeed(0.25))
    QTest.mouseClick(panel.start_button, LEFT)
    begun = window.viewport.snapshot().steps
    controller.set_running(True)
    qtbot.waitUntil(lambda: window.viewport.snapshot().steps >= begun + 12, timeout=WAIT_MS)
    controller.set_running(False)
    qtbot.waitUntil(lambda: not controller.running, timeout=WAIT_MS)
    settle(controller)
    a_frame_drawn(qtbot, window.viewport)  # the frame the pause leaves, drawn
    shown = window.viewport.snapshot()
    assert panel.watch.reading == (shown.steps - begun) * controller.settings.dt
    assert panel.watch.reading == pytest.approx(shown.t - begun * controller.settings.dt)


def test_laps_are_listed_and_copied_to_the_clipboard_as_text_lines(qtbot, window):
    panel = window.stopwatch_panel
    dt = window.controller.settings.dt
    QTest.mouseClick(panel.start_button, LEFT)
    step(qtbot, window, 12)
    QTest.mouseClick(panel.lap_button, LEFT)
    step(qtbot, window, 24)
    QTest.mouseClick(panel.lap_button, LEFT)
    assert panel.laps.count() == 2
    assert panel.laps.item(1).text() == f"Lap 2   {36 * dt:.4f} s   (+{24 * dt:.4f} s)"
    clipboard = QGuiApplication.clipboard()
    clipboard.setText("")
    QTest.mouseClick(panel.copy_button, LEFT)
    expected = f"lap\ttime (s)\tsplit (s)\n1\t{12 * dt:.4f}\t{12 * dt:.4f}\n"
    expected += f"2\t{36 * dt:.4f}\t{24 * dt:.4f}\n"
    assert clipboard.text() == expected
    clipboard.setText("")
    window.activateWindow()
    window.stopwatch_dock.raise_()
    qtbot.waitUntil(lambda: not window.stopwatch_dock.visibleRegion().isEmpty(), timeout=WAIT_MS)
    panel.laps.setFocus()
    qtbot.waitUntil(panel.laps.hasFocus, timeout=WAIT_MS)
    QTest.keyClick(panel.laps, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert clipboard.text() == expected
    QTest.mouseClick(panel.reset_button, LEFT)
    assert panel.laps.count() == 0 and panel.watch.reading == 0.0


def test_the_stopwatch_buttons_are_reached_by_f6_and_tab_and_pressed_by_enter(qtbot, window):
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=WAIT_MS)
    window.stopwatch_dock.raise_()
    qtbot.waitUntil(lambda: not window.stopwatch_dock.visibleRegion().isEmpty(), timeout=WAIT_MS)
    assert window.stopwatch_dock in window.focus_areas.shown()
    panel = window.stopwatch_panel
    for _ in range(len(window.focus_areas.shown())):
        QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_F6)
        if panel.isAncestorOf(QApplication.focusWidget()):
            break
    assert panel.isAncestorOf(QApplication.focusWidget()), "F6 never reached the stopwatch"
    for _ in range(10):
        if QApplication.focusWidget() is panel.start_button:
            break
        QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is panel.start_button
    # Enter presses the focused button; Space plays or pauses wherever the focus is (keyboard.py)
    QTest.keyClick(panel.start_button, Qt.Key.Key_Return)
    assert panel.watch.running
    QTest.keyClick(panel.start_button, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is panel.lap_button
    QTest.keyClick(panel.lap_button, Qt.Key.Key_Return)
    assert len(panel.watch.laps) == 1


def test_the_stopwatch_reads_the_model_time_of_a_replay(qtbot, window):
    controller, panel = window.controller, window.stopwatch_panel
    step(qtbot, window, 60)
    recording = controller.recording()
    controller.play(recording)
    qtbot.waitUntil(lambda: window.viewport.snapshot().steps == 0, timeout=WAIT_MS)
    controller.set_running(False)
    QTest.mouseClick(panel.start_button, LEFT)
    step(qtbot, window, 45)
    QTest.mouseClick(panel.start_button, LEFT)
    assert panel.watch.reading == 45 * controller.settings.dt
    assert controller.replay is recording


def test_a_ruler_end_on_an_obstacle_snaps_to_its_surface(qtbot, window):
    controller, viewport = window.controller, window.viewport
    box = BoxSpec(center=(2.3, 0.0, 0.0), size=(0.6, 0.6, 0.6))
    window.context.submit(Compose(composition.add_obstacle, (box,), {}))
    qtbot.waitUntil(lambda: len(viewport.snapshot().boxes) == 1, timeout=WAIT_MS)
    window.tool_actions["ruler"].trigger()
    start = screen_point(window, controller.latest.x[BOTTOM_RIGHT])
    end = screen_point(window, np.array(box.center))
    drag(viewport, [start, start + (end - start) / 2, end])
    ruler = controller.scene.rulers[0]
    assert ruler.start == RulerEnd(particle=BOTTOM_RIGHT)
    assert ruler.end.point is not None
    offset = np.abs(np.array(ruler.end.point) - box.center)
    assert offset.max() == pytest.approx(0.3)  # on a face of the box, not inside or free
    assert np.all(offset <= 0.3 + 1e-9)


def test_a_ruler_made_by_keys_alone_with_the_view_cursor(qtbot, window):
    """Enter puts the cursor on the cloth, M marks a ruler's end, arrows step, M again adds it."""
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=WAIT_MS)
    controller, viewport = window.controller, window.viewport
    viewport.setFocus()
    qtbot.waitUntil(viewport.hasFocus, timeout=WAIT_MS)
    QTest.keyClick(viewport, Qt.Key.Key_Return)
    first = viewport.keys.particle
    assert first is not None
    QTest.keyClick(viewport, Qt.Key.Key_M)
    assert viewport.keys.hint() == RULER_HINT
    for _ in range(4):
        QTest.keyClick(viewport, Qt.Key.Key_Down)
    second = viewport.keys.particle
    assert second != first
    QTest.keyClick(viewport, Qt.Key.Key_M)
    expected = RulerSpec(start=RulerEnd(particle=first), end=RulerEnd(particle=second))
    assert controller.scene.rulers == [expected]
    assert controller.undo_stack.undoText() == "Add ruler"
    assert viewport.interaction.tool == "grab"  # with the cursor, M is the cursor's key
    shown = viewport.snapshot().x
    assert viewport.ruler_marks()[0].text == (
        f"{np.linalg.norm(shown[first] - shown[second]):.4f} units"
    )
    QTest.keyClick(viewport, Qt.Key.Key_M)  # a first end again; Esc drops it
    QTest.keyClick(viewport, Qt.Key.Key_Escape)
    assert viewport.keys.ruler_start is None and viewport.keys.active


def test_in_german_the_view_labels_and_the_stopwatch_write_a_decimal_comma(qtbot, window):
    """Numbers drawn in the 3D view (rulers, the pins' force arrows) and the stopwatch's reading
    and laps take the locale's decimal point, as the panels' numbers do; copied laps stay as a
    spreadsheet reads them."""
    from PySide6.QtCore import QLocale
    from PySide6.QtGui import QFont

    from clothlab.ui.viewport.force_overlay import pin_arrows
    from clothlab.ui.viewport.ruler_overlay import mark_of

    before = QLocale()
    QLocale.setDefault(QLocale(QLocale.Language.German))
    try:
        panel = window.stopwatch_panel
        QTest.mouseClick(panel.start_button, LEFT)
        step(qtbot, window, 12)
        QTest.mouseClick(panel.lap_button, LEFT)
        dt = window.controller.settings.dt
        assert panel.display.text() == f"{12 * dt:.4f} s".replace(".", ",")
        assert panel.laps.item(0).text().startswith(f"Lap 1   {12 * dt:.4f} s".replace(".", ","))
        QTest.mouseClick(panel.copy_button, LEFT)
        assert f"{12 * dt:.4f}" in QGuiApplication.clipboard().text()  # a point, for a sheet

        project = window.viewport.project
        ends = np.array([[0.0, 0.0, 0.0], [0.5, 0.0, 0.0]])
        assert mark_of(0, ends, "m", project, QFont()).text == "0,5000 m"
        snapshot = window.viewport.snapshot()
        labels = [arrow.label for arrow in pin_arrows(snapshot, project)]
        assert len(labels) == 2 and all("," in label and "." not in label for label in labels)
    finally:
        QLocale.setDefault(before)
