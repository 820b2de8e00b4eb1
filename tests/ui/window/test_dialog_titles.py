"""Dialogs as wide as their titles, which a desktop writes with the app's name after them: a
message box sized to its text showed "Unsaved cha… — Cloth Lab", the video export "Export vid…"."""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMessageBox

from clothlab.ui.window.export import VideoDialog
from clothlab.ui.window.whole_texts import TITLE_BAR_EXTRA, shown_title, title_width


def test_the_unsaved_changes_box_and_the_video_dialog_fit_their_titles(qtbot, make_window):
    window = make_window(paused=True)
    QGuiApplication.setApplicationDisplayName("Cloth Lab")
    try:
        assert shown_title("Unsaved changes") == "Unsaved changes — Cloth Lab"
        buttons = QMessageBox.StandardButton
        box = QMessageBox(QMessageBox.Icon.Question, "Unsaved changes", "Save the changes?",
                          buttons.Save | buttons.Discard | buttons.Cancel, window)  # fmt: skip
        box.show()
        qtbot.waitExposed(box)
        assert box.width() >= title_width("Unsaved changes") > TITLE_BAR_EXTRA
        box.close()
        dialog = VideoDialog(window)
        dialog.show()
        qtbot.waitExposed(dialog)
        assert dialog.width() >= title_width(dialog.windowTitle())
        dialog.close()
    finally:
        QGuiApplication.setApplicationDisplayName("")
