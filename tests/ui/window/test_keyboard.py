"""The main window by keyboard alone, with real key events on the focused
widget: Tab goes round the toolbar, the 3D view and every dock and leaves tables; F6 cycles
the main areas; Space pauses or runs from a number field without touching its text."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDockWidget, QLineEdit, QTableWidgetItem, QWidget
from qt_helpers import WAIT_MS, a_frame_drawn, ticks_pass

from clothlab.ui.theme import focus_colour
from clothlab.ui.window.preferences_dialog import apply_theme

MOST_TABS = 200  # presses allowed to go once round the whole window
RING_PIXELS = 200  # pixels of the view in the focus ring's colour, at least, when it is ringed


@pytest.fixture
def window(qtbot, make_window):
    """The window from launch, paused, active: the focus where the window put it (the view)."""
    made = make_window("hanging-sheet", paused=True)
    made.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is made, timeout=WAIT_MS)
    # the docks as the user meets them: tabbed once the layout has fitted the window's size
    qtbot.waitUntil(lambda: not made.layout_keeper._timer.isActive(), timeout=WAIT_MS)
    yield made
    apply_theme("light")


def press(key: Qt.Key, modifier=Qt.KeyboardModifier.NoModifier) -> QWidget:
    """Press `key` on the focused widget, as a user would; the widget focused after it."""
    QTest.keyClick(QApplication.focusWidget(), key, modifier)
    focused = QApplication.focusWidget()
    assert focused is not None
    return focused


def on_show(widget: QWidget) -> bool:
    """In no dock, or in one that shows (the front tab of its group)."""
    dock = widget
    while dock is not None and not isinstance(dock, QDockWidget):
        dock = dock.parentWidget()
    return dock is None or not dock.visibleRegion().isEmpty()


def inside(widget: QWidget, area: QWidget) -> bool:
    return widget is area or area.isAncestorOf(widget)


def test_tab_from_launch_goes_round_toolbar_view_and_every_dock(window):
    assert QApplication.focusWidget() is window.viewport
    visited = []
    for _ in range(MOST_TABS):
        visited.append(press(Qt.Key.Key_Tab))
        if visited[-1] is window.viewport:
            break
    assert visited[-1] is window.viewport, "Tab never came back round to the view"
    assert not inside(visited[0], window.viewport), "the first Tab did not leave the view"
    assert any(inside(w, window.toolbar) for w in visited), "the toolbar was never reached"
    shown = [dock for dock in window.docks if on_show(dock)]
    assert len(shown) >= 2
    missed = [d.objectName() for d in shown if not any(inside(w, d) for w in visited)]
    assert not missed, f"docks Tab never reached: {missed}"
    # Qt moves a dock behind another's tab off the window: focus there is focus nobody sees
    unseen = {type(w).__name__ for w in visited if not on_show(w)}
    assert not unseen, f"Tab went into docks behind a tab: {unseen}"
    # and Shift+Tab leaves the view the other way
    assert not inside(press(Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier), window.viewport)


@pytest.mark.parametrize(
    ("key", "modifier"),
    [
        (Qt.Key.Key_Tab, Qt.KeyboardModifier.NoModifier),
        (Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier),
        (Qt.Key.Key_Tab, Qt.KeyboardModifier.ControlModifier),
        (
            Qt.Key.Key_Backtab,
            Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
        ),
    ],
    ids=["Tab", "Shift+Tab", "Ctrl+Tab", "Ctrl+Shift+Tab"],
)
def test_tab_leaves_the_compare_table_in_one_press(qtbot, window, key, modifier):
    window.compare_dock.show()
    window.compare_dock.raise_()
    table = window.compare_panel.table
    table.setRowCount(3), table.setColumnCount(3)  # cells to cycle through, as after a run
    for row in range(3):
        for column in range(3):
            table.setItem(row, column, QTableWidgetItem(f"{row}.{column}"))
    table.setFocus(Qt.FocusReason.TabFocusReason)
    table.setCurrentCell(1, 1)
    qtbot.waitUntil(table.hasFocus, timeout=WAIT_MS)
    assert press(key, modifier) is not table


def test_f6_and_shift_f6_visit_each_area_once_round(window):
    areas = window.focus_areas.shown()
    assert window.toolbar in areas and any(inside(window.viewport, a) for a in areas)
    assert [d for d in window.docks if d in areas] == [d for d in window.docks if on_show(d)]
    assert sum(dock in areas for dock in window.docks) >= 2
    for key, modifier in (
        (Qt.Key.Key_F6, Qt.KeyboardModifier.NoModifier),
        (Qt.Key.Key_F6, Qt.KeyboardModifier.ShiftModifier),
    ):
        reached = []
        for _ in areas:
            focused = press(key, modifier)
            reached.append(next(a for a in areas if inside(focused, a)))
        assert sorted(map(id, reached)) == sorted(map(id, areas)), "an area missed or twice"
        assert inside(press(key, modifier), reached[0]), "F6 did not come back round"


def ring_pixels(widget: QWidget) -> int:
    ring = focus_colour(widget.palette())
    image = widget.grab().toImage().convertToFormat(widget.grab().toImage().Format.Format_RGB888)
    rows = np.frombuffer(image.constBits(), dtype=np.uint8).reshape(image.height(), -1)
    rgb = rows[:, : image.width() * 3].reshape(image.height(), image.width(), 3) / 255.0
    target = np.array([ring.redF(), ring.greenF(), ring.blueF()])
    return int(np.count_nonzero(np.abs(rgb - target).max(axis=2) < 0.08))


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_f6_to_the_view_rings_it(qtbot, window, theme):
    apply_theme(theme)
    a_frame_drawn(qtbot, window.viewport)
    before = ring_pixels(window.viewport)
    for _ in window.focus_areas.shown():
        if press(Qt.Key.Key_F6) is window.viewport:
            break
    assert QApplication.focusWidget() is window.viewport
    qtbot.waitUntil(lambda: ring_pixels(window.viewport) - before >= RING_PIXELS, timeout=WAIT_MS)


def toggles_pause_once(qtbot, window, key_presser) -> None:
    """Pressing runs a paused model: `running` turns on, and stays on (one toggle, not two)."""
    controller = window.controller
    assert not controller.running
    with qtbot.waitSignal(controller.running_changed, timeout=WAIT_MS) as changed:
        key_presser()
    assert changed.args == [True]
    ticks_pass(qtbot, controller)  # a second toggle would have reached the solver by now
    assert controller.running


def reach_by_tab(qtbot, widget: QWidget) -> None:
    """Focus `widget` as Tab does (its text all selected): Tab from the stop before it."""
    widget.previousInFocusChain().setFocus()
    press(Qt.Key.Key_Tab)
    qtbot.waitUntil(lambda: QApplication.focusWidget() in (widget, widget.focusProxy()))


def test_space_in_a_spin_box_pauses_and_leaves_its_text(qtbot, window):
    box = window.readouts_panel.window_box
    reach_by_tab(qtbot, box)
    text = box.text()
    toggles_pause_once(qtbot, window, lambda: press(Qt.Key.Key_Space))
    assert box.text() == text and box.hasFocus()


def test_space_in_a_text_field_pauses_until_one_types_in_it(qtbot, window):
    edit = window.findChild(QLineEdit, "variant_0")
    window.compare_dock.show()
    window.compare_dock.raise_()
    edit.setText("passes=4")
    reach_by_tab(qtbot, edit)
    toggles_pause_once(qtbot, window, lambda: press(Qt.Key.Key_Space))
    assert edit.text() == "passes=4"
    # once typing in it, Space is a space
    edit.setCursorPosition(len(edit.text()))
    press(Qt.Key.Key_0), press(Qt.Key.Key_Space)
    assert edit.text() == "passes=40 " and window.controller.running


def test_space_with_the_view_focused_pauses(qtbot, window):
    assert QApplication.focusWidget() is window.viewport
    toggles_pause_once(qtbot, window, lambda: press(Qt.Key.Key_Space))


@pytest.mark.parametrize("which", ["button", "checkbox", "toolbar button"])
def test_space_on_a_button_or_checkbox_pauses_and_enter_presses_it(qtbot, window, which):
    window.parameters_dock.raise_()
    widget = {
        "button": window.readouts_panel.clear_button,
        "checkbox": window.findChild(QWidget, "parameter_floor"),
        "toolbar button": window.toolbar.widgetForAction(window.action_wireframe),
    }[which]
    checked = widget.isChecked()
    reach_by_tab(qtbot, widget)
    toggles_pause_once(qtbot, window, lambda: press(Qt.Key.Key_Space))
    assert widget.isChecked() == checked and widget.hasFocus()
    # Enter is the key that presses it
    with qtbot.waitSignal(widget.clicked, timeout=WAIT_MS):
        press(Qt.Key.Key_Return)
    assert window.controller.running
