"""After a scene loads the 3D view has the keys (a field kept the focus, and
"q" typed next went into "Solver passes"); the unsaved-changes question has Alt keys."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox
from qt_helpers import WAIT_MS

from clothlab.ui.window.dialogs import AltKeys

CTRL = Qt.KeyboardModifier.ControlModifier


def test_after_a_load_the_keys_go_to_the_3d_view_not_a_field(qtbot, make_window):
    window = make_window("hanging-sheet", size=(1200, 800), paused=True)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=WAIT_MS)
    window.parameters_dock.raise_()
    passes = window.parameters_panel.editors["passes"]
    qtbot.waitUntil(passes.isVisible, timeout=WAIT_MS)
    QTest.mouseClick(passes, Qt.MouseButton.LeftButton, pos=QPoint(8, passes.height() // 2))
    qtbot.waitUntil(passes.hasFocus, timeout=WAIT_MS)
    scene = window.controller.scene
    QTest.keyClick(passes, Qt.Key.Key_N, CTRL)  # File ▸ New
    qtbot.waitUntil(lambda: window.controller.scene != scene, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is window.viewport, timeout=WAIT_MS)
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_8)
    assert window.controller.settings.passes == 8


def test_the_unsaved_changes_buttons_have_alt_keys(qtbot):
    buttons = QMessageBox.StandardButton
    box = QMessageBox(QMessageBox.Icon.Question, "Unsaved changes", "Save the changes?",
                      buttons.Save | buttons.Discard | buttons.Cancel)  # fmt: skip
    qtbot.addWidget(box)
    with AltKeys():
        box.show()
        qtbot.waitExposed(box)
    box.activateWindow()  # Xvfb has no window manager to make it active
    qtbot.waitUntil(box.isActiveWindow, timeout=WAIT_MS)
    assert [box.button(b).text() for b in (buttons.Save, buttons.Discard)] == ["&Save", "&Discard"]
    QTest.keyClick(box, Qt.Key.Key_D, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: not box.isVisible(), timeout=WAIT_MS)
    assert box.clickedButton() is box.button(buttons.Discard)
