"""A lab session by key events only: real key presses on whatever widget has the
focus in the real window, each effect checked on the simulation's newest snapshot; every
focusable widget named for screen readers; the 3D view's description following what happens."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import QAccessible
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QSlider, QWidget
from qt_helpers import WAIT_MS, layout_item_wrappers

from clothlab.ui.selection import BALL, Selection
from clothlab.ui.viewport.key_tools import CAMERA_HINT, CURSOR_HINT, step_length
from clothlab.ui.window import keyboard

SHIFT = Qt.KeyboardModifier.ShiftModifier
CTRL = Qt.KeyboardModifier.ControlModifier
ROWS, COLS = 11, 15  # the hanging sheet


@pytest.fixture
def window(qtbot, make_window):
    made = make_window("hanging-sheet", paused=True)
    made.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is made, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: made.controller.latest is not None, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: not made.layout_keeper._timer.isActive(), timeout=WAIT_MS)
    return made


def press(key: Qt.Key, modifier=Qt.KeyboardModifier.NoModifier, times: int = 1) -> QWidget:
    for _ in range(times):
        QTest.keyClick(QApplication.focusWidget(), key, modifier)
    focused = QApplication.focusWidget()
    assert focused is not None
    return focused


def latest_after(qtbot, window, condition):
    """The newest snapshot once `condition(snapshot)` holds."""
    qtbot.waitUntil(lambda: condition(window.controller.latest), timeout=WAIT_MS)
    return window.controller.latest


def at(snapshot, row: int, col: int) -> int:
    return snapshot.topology.sheets[0].particle(row, col)


def test_a_session_by_keys_alone(qtbot, window):
    view, controller = window.viewport, window.controller
    first = controller.latest
    # reach the view: Tab away from it, then F6 round the areas back to it
    assert press(Qt.Key.Key_Tab) is not view
    for _ in window.focus_areas.shown():
        if press(Qt.Key.Key_F6) is view:
            break
    assert QApplication.focusWidget() is view
    assert window.status.tool_label.text() == CAMERA_HINT
    # orbit, pan and zoom
    yaw, target, distance = view.camera.yaw, view.camera.target.copy(), view.camera.distance
    press(Qt.Key.Key_Left, times=2)
    assert view.camera.yaw == pytest.approx(yaw + 12.0)
    press(Qt.Key.Key_Up, SHIFT)
    assert not np.allclose(view.camera.target, target)
    press(Qt.Key.Key_Plus)
    assert view.camera.distance < distance
    # without the cursor, P and G are still the tools' shortcuts
    tools = view.interaction
    press(Qt.Key.Key_P)
    assert tools.tool == "pin"
    press(Qt.Key.Key_G)
    assert tools.tool == "grab"
    # the cursor: Enter puts it on the cloth; Down and Left to the bottom-left corner
    press(Qt.Key.Key_Return)
    assert view.keys.particle is not None
    assert window.status.tool_label.text() == CURSOR_HINT
    press(Qt.Key.Key_Down, times=ROWS)
    press(Qt.Key.Key_Left, times=COLS)
    corner = at(first, ROWS - 1, 0)
    assert view.keys.particle == corner
    assert (
        f"Cursor on particle {corner}: row 11 of 11, column 1 of 15" in view.accessibleDescription()
    )
    # grab it and move it down three steps: paused, the particle goes there at once
    rest = first.x[corner].copy()
    press(Qt.Key.Key_Return)
    grabbed = latest_after(qtbot, window, lambda s: s.grabbed == corner)
    step = step_length(grabbed)
    _, up, _ = view.camera.basis()
    press(Qt.Key.Key_Down, times=3)
    moved = latest_after(
        qtbot, window, lambda s: np.allclose(s.x[corner], rest - 3 * step * up, atol=1e-9)
    )
    press(Qt.Key.Key_Return)
    latest_after(qtbot, window, lambda s: s.grabbed is None)
    # P pins it where it is
    press(Qt.Key.Key_P)
    pinned = latest_after(qtbot, window, lambda s: corner in s.pin_index.tolist())
    anchor = pinned.pin_anchor[pinned.pin_index.tolist().index(corner)]
    assert np.allclose(anchor, moved.x[corner])
    assert [p.particle for p in controller.scene.pins].count(corner) == 1
    assert tools.tool == "grab"  # with the cursor, P is the cursor's
    assert controller.undo_stack.text(controller.undo_stack.index() - 1) == "Add pin"
    # Enter lifts the pin; Left twice and once finely (Shift); Enter puts it down
    right, _, _ = view.camera.basis()
    press(Qt.Key.Key_Return)
    press(Qt.Key.Key_Left, times=2)
    press(Qt.Key.Key_Left, SHIFT)
    press(Qt.Key.Key_Return)
    placed = anchor - 2.2 * step * right
    latest_after(
        qtbot, window,
        lambda s: np.allclose(s.pin_anchor[s.pin_index.tolist().index(corner)], placed),
    )  # fmt: skip
    pin = next(p for p in controller.scene.pins if p.particle == corner)
    assert np.allclose(pin.anchor, placed)
    moves = controller.undo_stack.count()
    # the cut: K at the bottom of the middle column, K at its top, Enter
    press(Qt.Key.Key_Right, times=7)
    assert view.keys.particle == at(first, ROWS - 1, 7)
    press(Qt.Key.Key_K)
    press(Qt.Key.Key_Up, times=ROWS - 1)
    assert view.keys.particle == at(first, 0, 7)
    press(Qt.Key.Key_K)
    press(Qt.Key.Key_Return)
    cut = latest_after(qtbot, window, lambda s: s.readouts.links < first.readouts.links)
    assert first.readouts.links - cut.readouts.links == 31  # 11 across, 20 diagonals
    assert controller.undo_stack.text(moves) == "Cut 31 links"
    says = view.accessibleDescription
    qtbot.waitUntil(lambda: "in two pieces" in says(), timeout=WAIT_MS)  # a frame later
    # undo, by its shortcut from the view: the links are back
    press(Qt.Key.Key_Z, CTRL)
    latest_after(qtbot, window, lambda s: s.readouts.links == first.readouts.links)
    qtbot.waitUntil(lambda: "in two pieces" not in says(), timeout=WAIT_MS)
    # Esc leaves the cursor, and Tab the view
    press(Qt.Key.Key_Escape)
    assert view.keys.particle is None
    assert press(Qt.Key.Key_Tab) is not view


def test_tab_with_the_cursor_visits_bodies_pins_and_obstacles_then_leaves(qtbot, window):
    view = window.viewport
    window.action_ball.trigger()  # the ball on: an obstacle to visit
    latest_after(qtbot, window, lambda s: s.settings.ball)
    view.setFocus(Qt.FocusReason.TabFocusReason)
    press(Qt.Key.Key_Return)
    visited = []
    for _ in range(10):
        if press(Qt.Key.Key_Tab) is not view:
            break
        visited.append((view.keys.particle, view.keys.obstacle))
    snapshot = window.controller.latest
    pins = [(int(p), None) for p in snapshot.pin_index]
    assert visited == [*pins, (None, -1)], "the two pins, then the ball, then out of the view"
    assert window.selection.current == Selection("obstacle", BALL)  # selected as Tab reached it
    assert view.keys.particle is None and view.keys.obstacle is None


def test_the_description_changes_after_a_cut_a_pin_move_and_a_reset(qtbot, window):
    view = window.viewport
    described = [view.accessibleDescription()]

    def changed(*words: str) -> None:
        """Wait until the description has changed and says `words` (the edit is said as it is
        made, the state it leaves as the next frame comes)."""
        qtbot.waitUntil(
            lambda: (
                view.accessibleDescription() != described[-1]
                and all(word in view.accessibleDescription() for word in words)
            ),
            timeout=WAIT_MS,
        )
        described.append(view.accessibleDescription())

    window.action_seam.trigger()
    changed("Cut 31 links", "in two pieces")
    view.setFocus(Qt.FocusReason.TabFocusReason)
    press(Qt.Key.Key_Return)
    press(Qt.Key.Key_Tab, times=2)  # the first pin
    press(Qt.Key.Key_Return)
    press(Qt.Key.Key_Up)
    press(Qt.Key.Key_Return)
    changed("Pin put down")
    assert described[-1] != described[-2]
    window.action_reset.trigger()
    changed("Reset")
    assert described[-1] != described[-2]
    # and a screen reader reads it through Qt's accessibility interface
    interface = QAccessible.queryAccessibleInterface(view)
    assert interface.text(QAccessible.Text.Description) == described[-1]
    assert interface.text(QAccessible.Text.Name) == "3D view of the scene"


def focusable(window) -> list[QWidget]:
    """Every widget of the window and its docks that Tab or a click can focus and that shows."""
    for dock in window.docks:
        dock.show()
    return [
        w
        for w in window.findChildren(QWidget)
        if w.focusPolicy() != Qt.FocusPolicy.NoFocus and w.isVisibleTo(window)
    ]


def test_every_focusable_widget_has_an_accessible_name(qtbot, window):
    # the panels that build fields as the selection changes: a body selected
    window.scene_dock.raise_()
    window.selection.select(Selection("body", 0))
    QApplication.sendPostedEvents()  # the fields the selection builds
    naming = window.findChild(keyboard._Namer).findChild(QTimer)
    with qtbot.waitSignal(naming.timeout, timeout=WAIT_MS):  # they are named at its next tick
        pass
    widgets = focusable(window)
    assert len(widgets) > 40
    unnamed = sorted(
        f"{type(w).__name__} {w.objectName()!r} in {w.parentWidget().objectName()!r}"
        for w in widgets
        if not QAccessible.queryAccessibleInterface(w).text(QAccessible.Text.Name).strip()
        or not w.accessibleName().strip()
    )
    assert not unnamed, f"{len(unnamed)} without a name: {unnamed[:20]}"
    # a number field's description says its unit
    box = window.readouts_panel.window_box
    assert box.accessibleName() == "Window" and box.accessibleDescription().endswith("in s")
    gravity = window.findChild(QWidget, "parameter_gravity").findChild(QSlider)
    assert gravity.accessibleName() == "Gravity" and "units/s²" in gravity.accessibleDescription()


def test_naming_leaves_no_wrapper_of_a_layout_item(qtbot, window):
    """PySide keeps the wrapper of a layout item it handed out alive with its layout; Qt deletes
    the item when its widget goes, and Qt's next object at that address was then taken for
    the stale wrapper (a selection model read as a QWidgetItem; segfaults in model resets)."""
    window.scene_dock.raise_()
    for body in (0, None, 0):  # the Parameters panel builds and drops its body fields
        window.selection.select(Selection("body", body) if body is not None else None)
        keyboard.name_all(window)
        QApplication.sendPostedEvents()  # the panel's rebuild, its old fields' deletion
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    assert layout_item_wrappers() == []


def test_readout_plots_say_their_latest_value(qtbot, window):
    window.action_step.trigger()
    plot = window.readouts_panel.plots["sag"]
    qtbot.waitUntil(
        lambda: plot.accessibleDescription().startswith("Latest: Sag "), timeout=WAIT_MS
    )
    assert plot.accessibleName() == "Sag plot"
    assert plot.accessibleDescription().endswith(("rising.", "falling.", "steady."))


def test_o_at_the_cursor_attaches_a_probe_and_takes_it_off(qtbot, window):
    """The probes are keyboard-reachable too, as the Probe tool's click."""
    view, controller = window.viewport, window.controller
    view.setFocus()
    qtbot.waitUntil(view.hasFocus, timeout=WAIT_MS)
    press(Qt.Key.Key_Return)  # the cursor, on the particle nearest the view's middle
    particle = view.keys.particle
    assert particle is not None
    press(Qt.Key.Key_O)
    qtbot.waitUntil(lambda: controller.scene.probes == [particle], timeout=WAIT_MS)
    assert view.interaction.tool != "probe"  # with the cursor, O is the cursor's
    press(Qt.Key.Key_O)
    qtbot.waitUntil(lambda: controller.scene.probes == [], timeout=WAIT_MS)


def test_a_tool_rows_key_and_lift_drive_the_keyboard_cursor_without_code_of_its_own(monkeypatch):
    """The keyboard's tools are the tool table's: a new row with a `cursor_key` is used at the
    cursor by its key, and a new drag tool is lifted by Enter and dragged by the arrows, through
    the same class methods a mouse drag calls."""
    from types import SimpleNamespace

    from PySide6.QtCore import QEvent
    from PySide6.QtGui import QKeyEvent

    from clothlab.ui.viewport import key_tools
    from clothlab.ui.viewport.tools import TOOLS, DragTool, Tool, ToolRow

    class StampTool(Tool):
        cursor_key = "J"

        @classmethod
        def at_cursor(cls, cursor, snapshot) -> None:
            cursor.emit(("stamp", cursor.particle))

    class LiftTool(DragTool):
        @classmethod
        def lift(cls, view, snapshot, particle, obstacle):
            return particle, np.zeros(3)

        @classmethod
        def lifted(cls, subject, point):
            return ("lift", subject), ""

        @classmethod
        def dragged(cls, subject, point):
            return ("drag", subject, tuple(point))

    rows = (ToolRow("lift", "&Lift", "grab", "", "", LiftTool),
            ToolRow("stamp", "&Stamp", "select", "", "", StampTool))  # fmt: skip
    monkeypatch.setattr(key_tools, "TOOLS", (*rows, *TOOLS))
    camera = SimpleNamespace(basis=lambda: (np.array([1.0, 0, 0]), np.array([0, 1.0, 0]), None))
    snapshot = SimpleNamespace(topology=SimpleNamespace(rest_lengths=np.array([0.5])))
    view = SimpleNamespace(snapshot=lambda: snapshot, update=lambda: None, camera=camera)
    emitted: list[object] = []
    cursor = key_tools.KeyCursor(view, emitted.append, lambda said: None)
    cursor.particle = 7

    def key(code: Qt.Key) -> bool:
        event = QKeyEvent(QEvent.Type.KeyPress, code, Qt.KeyboardModifier.NoModifier)
        return cursor.key(event, 100, 100)

    assert key(Qt.Key.Key_J) and key(Qt.Key.Key_Return) and key(Qt.Key.Key_Right)
    assert emitted == [("stamp", 7), ("lift", 7), ("drag", 7, (0.5, 0.0, 0.0))]
