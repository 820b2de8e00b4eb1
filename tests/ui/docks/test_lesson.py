"""A lesson that holds, in the real window by real clicks: a locked prediction stays
locked across a relaunch, every attempt is kept with its time and counted in the CSV."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from PySide6.QtCore import QLocale, QModelIndex, Qt
from PySide6.QtWidgets import QApplication, QMessageBox
from qt_helpers import WAIT_MS

from clothlab.sim.document.presets import load_preset
from clothlab.sim.lab.questions import (
    ClassMode,
    QuestionSetSpec,
    load_builtin_set,
    load_question_set,
    save_shared_set,
)
from clothlab.ui.docks.questions_dock import progress_folder
from clothlab.ui.docks.scene_model import ADDRESS_ROLE
from tests.ui.docks.test_question_editor import save_and_wait, type_into

LEFT = Qt.MouseButton.LeftButton
BUILTIN = load_builtin_set()


def correct_index(question) -> int:
    return next(k for k, c in enumerate(question.prediction.choices) if c.correct)


def click(qtbot, widget) -> None:
    """A click, not taken for the second half of a double click with the one before."""
    qtbot.wait(QApplication.doubleClickInterval() + 50)
    qtbot.mouseClick(widget, LEFT)


def load_scene(qtbot, window) -> None:
    panel = window.questions_panel
    qtbot.mouseClick(panel.start_button, LEFT)
    qtbot.waitUntil(lambda: panel.stage != "start", timeout=WAIT_MS)
    # the panel's next button may sit where this one was: a click there now would be a
    # double click, which a push button does not take
    qtbot.wait(QApplication.doubleClickInterval() + 50)


def test_a_locked_prediction_stays_locked_after_a_relaunch_and_attempts_are_kept(
    qtbot, make_window, tmp_path
):
    question = BUILTIN.questions[0]  # a question with choices
    right = correct_index(question)
    wrong = (right + 1) % len(question.prediction.choices)

    # the first run: a wrong prediction locked, then the app is gone before the explanation
    first = make_window("hanging-sheet", paused=True)
    panel = first.questions_panel
    load_scene(qtbot, first)
    assert panel.stage == "predict"
    qtbot.mouseClick(panel.choice_buttons[wrong], LEFT)
    qtbot.mouseClick(panel.lock_button, LEFT)
    assert panel.stage == "watch"
    stored = json.loads((progress_folder() / "lab.json").read_text(encoding="utf-8"))
    (attempt,) = stored["questions"][question.id]  # kept at Lock in, before any explanation
    assert attempt["value"] == wrong and attempt["matched"] is False
    assert attempt["locked"] and attempt["explained"] == ""
    first.close()

    # relaunched: Load the scene shows the prediction locked, not a new one to make
    second = make_window("hanging-sheet", paused=True)
    panel = second.questions_panel
    second.show_questions()  # the panel reads its set when first shown
    assert "Locked in" in panel.previous_answer_label.text()
    load_scene(qtbot, second)
    assert panel.stage == "watch"
    assert panel.choice_buttons[wrong].isChecked()
    assert not any(button.isEnabled() for button in panel.choice_buttons)
    assert not panel.lock_button.isVisible()
    qtbot.mouseClick(panel.explain_button, LEFT)
    assert panel.verdict_label.text().startswith("✗")

    # and again: Load the scene shows the explanation, still the wrong prediction
    load_scene(qtbot, second)
    assert panel.stage == "explained" and panel.verdict_label.text().startswith("✗")

    # practice outside class mode: a second attempt is kept, the first still counts
    assert panel.again_button.isVisible()
    qtbot.mouseClick(panel.again_button, LEFT)
    qtbot.waitUntil(lambda: panel.stage == "predict", timeout=WAIT_MS)
    qtbot.mouseClick(panel.choice_buttons[right], LEFT)
    qtbot.mouseClick(panel.lock_button, LEFT)
    qtbot.mouseClick(panel.explain_button, LEFT)
    assert panel.verdict_label.text().startswith("✓")
    stored = json.loads((progress_folder() / "lab.json").read_text(encoding="utf-8"))
    kept = stored["questions"][question.id]
    assert [a["value"] for a in kept] == [wrong, right]
    assert all(a["locked"] and a["explained"] for a in kept)

    exported = tmp_path / "answers.csv"
    panel.export_csv(exported)
    rows = list(csv.DictReader(exported.open(encoding="utf-8")))
    assert rows[0]["prediction"] == question.prediction.choices[wrong].text
    assert rows[0]["matched"] == "no" and rows[0]["attempts"] == "2"
    assert rows[1]["attempts"] == "0" and rows[1]["matched"] == ""


@pytest.fixture
def german_numbers():
    """The app's locale German, as --language de makes it (its words stay English here)."""
    before = QLocale()
    QLocale.setDefault(QLocale(QLocale.Language.German, QLocale.Country.Germany))
    yield
    QLocale.setDefault(before)


def number_set(folder: Path) -> Path:
    spec = QuestionSetSpec.model_validate({
        "id": "numbers", "title": "Numbers", "questions": [{
            "id": "sag", "title": "How much sag?", "scene": "hanging-sheet",
            "question": "How much?", "watch": "Sag.", "evidence": "sag", "explanation": "So.",
            "prediction": {"number": {"unit": "LE", "answer": 0.01, "tolerance": 0.005,
                                      "decimals": 3}},
            "now_try": [],
            "checks": [{"claim": "about 0.0105", "steps": 600,
                        "expect": {"readout": "sag", "op": "==", "value": 0.0105,
                                   "tolerance": 0.001}}],
        }],
    })  # fmt: skip
    path = folder / "numbers.json"
    save_shared_set(spec, {}, path)
    return path


def test_german_numbers_go_in_and_out_of_the_editor_and_the_panel_unrounded(
    qtbot, make_window, tmp_path, german_numbers
):
    path = number_set(tmp_path)
    window = make_window("hanging-sheet", paused=True)
    panel = window.questions_panel
    assert panel.open_set(path)
    qtbot.mouseClick(panel.edit_button, LEFT)
    editor = panel.editor
    qtbot.waitExposed(editor)
    assert (editor.answer_edit.text(), editor.tolerance_edit.text()) == ("0,01", "0,005")
    assert editor.kept_list.item(0).text() == "about 0,0105 (sag == 0,0105 ± 0,001)"
    type_into(qtbot, editor.answer_edit, "0,0105")
    save_and_wait(qtbot, editor, path)
    number = load_question_set(path).questions[0].prediction.number
    assert number is not None and number.answer == 0.0105 and number.tolerance == 0.005
    editor.close()

    # the student types a German number: shown in German, stored unrounded
    load_scene(qtbot, window)
    type_into(qtbot, panel.number_box, "0,0123456")
    qtbot.mouseClick(panel.lock_button, LEFT)
    assert "<b>0,0123456 LE</b>" in panel.evidence_label.text()
    stored = json.loads((progress_folder() / "numbers.json").read_text(encoding="utf-8"))
    (attempt,) = stored["questions"]["sag"]
    assert attempt["value"] == 0.0123456 and attempt["prediction"] == "0.0123456 LE"
    qtbot.mouseClick(panel.explain_button, LEFT)
    assert panel.verdict_label.text() == "✓ Your prediction matched: <b>0,0123456 LE</b>"


def test_moving_on_after_a_now_try_does_not_ask_to_save_the_questions_scene(
    qtbot, make_window, monkeypatch
):
    window = make_window("hanging-sheet", paused=True)
    panel = window.questions_panel
    asked: list[str] = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a[2]))
    load_scene(qtbot, window)
    click(qtbot, panel.choice_buttons[0])
    click(qtbot, panel.lock_button)
    click(qtbot, panel.explain_button)
    click(qtbot, panel.now_try_buttons[0])  # an ordinary, undoable edit
    assert not window.controller.undo_stack.isClean()
    click(qtbot, panel.next_button)
    load_scene(qtbot, window)  # the next question's scene replaces it without asking
    assert asked == [] and panel.stage == "predict"
    assert window.controller.scene == BUILTIN.scene_for(BUILTIN.questions[1])

    # a document of the user's own (another scene opened) is still asked about
    window.controller.load(load_preset("flag"), None)
    window.controller.set_setting("wind", 3.0)
    click(qtbot, panel.start_button)
    assert len(asked) == 1 and "Flag" in asked[0]


def test_the_pin_force_evidence_shows_at_lock_in_before_the_first_step(qtbot, make_window):
    """Forces are measured by a step; a question's scene waits paused at step 0. The plot the
    panel says is highlighted must be there, empty, rather than appear only after a step."""
    window = make_window("hanging-sheet", paused=True)
    controller, readouts = window.controller, window.readouts_panel
    qtbot.waitUntil(lambda: controller.latest is not None, timeout=WAIT_MS)
    assert controller.latest.steps == 0
    readouts.redraw()
    assert readouts.plots["pin_force"].isHidden()  # nothing measured, nothing pointed at
    readouts.highlight("pin_force")
    qtbot.waitUntil(lambda: not readouts.plots["pin_force"].isHidden(), timeout=WAIT_MS)
    assert readouts.value_labels["pin_force"].text() == "—"
    readouts.highlight(None)
    qtbot.waitUntil(lambda: readouts.plots["pin_force"].isHidden(), timeout=WAIT_MS)


def setting_rows(panel, key: str) -> list[bool]:
    """Whether each of the scene tree's rows of setting `key` is hidden."""
    model, view, found = panel.model, panel.view, []

    def visit(parent) -> None:
        for row in range(model.rowCount(parent)):
            if model.index(row, 1, parent).data(ADDRESS_ROLE) == ("setting", key):
                found.append(view.isRowHidden(row, parent))
            visit(model.index(row, 0, parent))

    visit(QModelIndex())
    return found


def test_class_mode_hides_its_settings_in_the_scene_panel_too(qtbot, make_window):
    window = make_window("hanging-sheet", paused=True)
    panel = window.scene_panel
    assert setting_rows(panel, "gravity") == [False]
    window.enter_class_mode(ClassMode(hide_settings=["gravity"]))
    assert setting_rows(panel, "gravity") == [True]
    assert setting_rows(panel, "wind") == [False]
    window.controller.load(load_preset("flag"), None)  # a new document keeps them hidden
    qtbot.waitUntil(lambda: window.controller.scene.name == "Flag", timeout=WAIT_MS)
    assert setting_rows(panel, "gravity") == [True]
    window.leave_class_mode()
    assert setting_rows(panel, "gravity") == [False]
