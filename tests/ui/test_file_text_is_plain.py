"""Text from a file is shown as text: hostile files opened in every place that
shows their text, the real message boxes read back as they display it. A scene name "<img …>"
once loaded a local image in "Save the changes to …?"; an unknown key "<a href='file:///…'>" made
a live link in the error dialog; a question set's title was rendered as rich text."""

from __future__ import annotations

import json
from datetime import datetime

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import Qt as GuiQt  # Qt's namespace with mightBeRichText
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox
from qt_helpers import WAIT_MS

from clothlab.app import autosave
from clothlab.app.autosave import Autosaver, offer_recovery, recovery_folder
from clothlab.sim.document.edits import SetSetting
from clothlab.sim.document.presets import load_preset, preset_path
from clothlab.ui.plain_text import as_written

HOSTILE = "<img src='file:///etc/hostname'><a href='file:///etc/passwd'>click</a> & <b>x</b>"
REAL_QUESTION = QMessageBox.question  # the window fixture answers it Discard: this asks
BUTTON = QMessageBox.StandardButton
DISCARD = BUTTON.Discard


def displayed(label: QLabel) -> str:
    """The text a label shows, as a reader sees it: rich text rendered, plain text as is."""
    text, format_ = label.text(), label.textFormat()
    rich = format_ == Qt.TextFormat.RichText or (
        format_ == Qt.TextFormat.AutoText and GuiQt.mightBeRichText(text)
    )
    if not rich:
        return text
    document = QTextDocument()
    document.setHtml(text)
    return document.toPlainText()


def answer_box(qtbot, button: QMessageBox.StandardButton, seen: list[tuple[str, str]]) -> None:
    """Once a message box is up (exec() blocks the test until then): read what its text and
    informative text show, then click a button."""

    def read() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(50, read)
            return
        try:
            text = displayed(box.findChild(QLabel, "qt_msgbox_label"))
            informative = box.findChild(QLabel, "qt_msgbox_informativelabel")
            seen.append((text, displayed(informative) if informative else ""))
        finally:  # a failure here must not leave the box blocking the test
            box.button(button).click()

    QTimer.singleShot(0, read)


def test_as_written_leaves_text_without_tags_and_escapes_the_rest():
    assert as_written("curtain.json: wind: bad") == "curtain.json: wind: bad"
    document = QTextDocument()
    document.setHtml(as_written(HOSTILE + "\n  two"))
    assert document.toPlainText() == HOSTILE + "\n  two"


def test_a_scene_name_is_plain_text_in_save_the_changes(make_window, qtbot, monkeypatch):
    window = make_window(paused=True)
    scene = load_preset("hanging-sheet").model_copy(update={"name": HOSTILE})
    window.controller.load(scene, None)
    window.controller.submit(SetSetting("wind", 2.0, 0.0))  # unsaved: closing asks
    monkeypatch.setattr(QMessageBox, "question", REAL_QUESTION)
    seen: list[tuple[str, str]] = []
    try:
        answer_box(qtbot, BUTTON.Cancel, seen)
        assert not window.files.confirm_discard()
    finally:
        monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: DISCARD)
    assert seen == [(f"Save the changes to “{HOSTILE}”?", "")]


def test_an_unknown_key_is_plain_text_in_the_error_dialog(make_window, qtbot, tmp_path):
    window = make_window(paused=True)
    data = json.loads(preset_path("hanging-sheet").read_text(encoding="utf-8"))
    data["<a href='file:///etc/passwd'>key</a>"] = 1
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    seen: list[tuple[str, str]] = []
    answer_box(qtbot, BUTTON.Ok, seen)
    assert not window.files.open_path(path)
    assert len(seen) == 1
    assert "<a href='file:///etc/passwd'>key</a>" in seen[0][0]  # as written: no link


def test_a_question_sets_title_is_plain_text_in_the_panel_and_the_reset_box(
    make_window, qtbot, tmp_path, monkeypatch
):
    window = make_window(paused=True)
    panel = window.questions_panel
    text = json.loads(
        (preset_path("hanging-sheet").parents[1] / "questions" / "lab.json").read_text()
    )
    text["title"] = text["description"] = HOSTILE
    text["questions"] = text["questions"][:1]  # on a preset: the others' files are not here
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(text), encoding="utf-8")
    monkeypatch.setattr(QMessageBox, "warning", lambda _parent, _title, why: pytest.fail(why))
    assert panel.open_set(path)
    assert displayed(panel.set_label) == HOSTILE
    tip = QLabel(panel.set_label.toolTip())  # a tooltip guesses its format as a label does
    assert displayed(tip) == HOSTILE
    monkeypatch.setattr(QMessageBox, "question", REAL_QUESTION)
    seen: list[tuple[str, str]] = []
    try:
        answer_box(qtbot, BUTTON.No, seen)
        panel.reset_progress()
        qtbot.waitUntil(lambda: bool(seen), timeout=WAIT_MS)
    finally:
        monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: DISCARD)
    assert seen == [(f"Forget every answer to “{HOSTILE}”?", "")]


def test_a_scene_name_is_plain_text_in_the_recovery_box(make_window, qtbot, tmp_path):
    scene = load_preset("hanging-sheet").model_copy(update={"name": HOSTILE})
    folder = recovery_folder()
    folder.mkdir(parents=True, exist_ok=True)
    saved_at = datetime(2024, 5, 1, 14, 5)
    target = tmp_path / "<b>where</b>.json"
    payload = autosave.recovery_payload(scene, target, saved_at)
    (folder / "autosave-999999-1.json").write_bytes(payload)
    window = make_window()
    autosaver = Autosaver(window.controller, interval_s=3600)
    seen: list[tuple[str, str]] = []
    answer_box(qtbot, BUTTON.Discard, seen)
    assert offer_recovery(window, autosaver) == "discard"
    autosaver.finish()
    text, informative = seen[0]
    assert text == f"Recover unsaved changes to “{HOSTILE}” from 2024-05-01 14:05?"
    assert f"Saving will write to {target}." in informative
