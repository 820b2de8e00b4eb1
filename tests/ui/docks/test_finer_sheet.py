"""A finer sheet melts no more without a word: typed into the Scene panel, a
finer resolution gets one line in the status bar with the stretch the sheet will hang at, and
the fix a click away, undoable like any change of the settings."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from qt_helpers import WAIT_MS

from clothlab.ui.selection import Selection
from tests.ui.test_typed_values import type_into_tree


def test_typing_a_finer_resolution_offers_tethers_and_one_click_sets_them(qtbot, make_window):
    window = make_window(paused=True)
    controller, status = window.controller, window.status
    window.editor.selection.select(Selection("body", 0))
    type_into_tree(qtbot, window, ("body", 0, "cols"), "60")
    type_into_tree(qtbot, window, ("body", 0, "rows"), "43")  # the newest edit's check counts
    assert (controller.scene.bodies[0].cols, controller.scene.bodies[0].rows) == (60, 43)
    qtbot.waitUntil(
        lambda: status.notice.isVisible() and "60 × 43" in status.notice_label.text(),
        timeout=4 * WAIT_MS,
    )
    text = status.notice_label.text()
    assert (
        text.startswith("At 60 × 43 this sheet hangs ≈ ") and "with 8 passes (12 % before)" in text
    )
    assert status.notice_button.text() == "Tethers on" and not status.tool_label.isVisible()
    edits = controller.undo_stack.count()
    window.action_step.trigger()  # the run has gone on: tethers start it again from rest
    qtbot.waitUntil(lambda: controller.latest.steps == 1, timeout=WAIT_MS)
    load = controller.latest.load
    QTest.mouseClick(status.notice_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: controller.settings.tethers, timeout=WAIT_MS)
    assert controller.undo_stack.count() == edits + 1 and not status.notice.isVisible()
    qtbot.waitUntil(lambda: controller.latest.load > load, timeout=WAIT_MS)
    assert controller.latest.steps == 0
    window.activateWindow()  # Xvfb has no window manager to make it active
    qtbot.waitUntil(window.isActiveWindow, timeout=WAIT_MS)
    window.viewport.setFocus()
    QTest.keyClick(window.viewport, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not controller.settings.tethers, timeout=WAIT_MS)


def test_a_coarser_resolution_says_nothing(qtbot, make_window):
    window = make_window(paused=True)
    window.editor.selection.select(Selection("body", 0))
    type_into_tree(qtbot, window, ("body", 0, "cols"), "8")
    assert window.controller.scene.bodies[0].cols == 8
    for check in window.controller._finer_sheet._threads:  # a check, were one started, ends
        check.join()
    QApplication.sendPostedEvents()  # and what it found is delivered
    assert not window.status.notice.isVisible()
