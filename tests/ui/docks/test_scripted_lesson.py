"""A whole lesson, scripted in the real window by real clicks and keys, in English and in
German: a teacher writes three questions in the editor and saves them for a class (passphrase,
answers sealed); three students answer in class mode, each on their own machine (their own
progress folder), one of them killed mid-question and back where they were; the teacher collects
the named results in Class results and exports them."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from PySide6.QtCore import QLocale
from PySide6.QtWidgets import QApplication
from qt_helpers import WAIT_MS

from clothlab.app import language
from clothlab.sim.lab.questions import load_question_set
from clothlab.ui.docks.questions_dock import ProgressStore
from tests.ui.docks.test_question_editor import (
    LEFT,
    answer_name,
    choose,
    fill_common,
    save_and_wait,
    tick,
    type_into,
)


@pytest.fixture(params=["en", "de"])
def speaking(request):
    """The app in English or German (its words and its numbers), as --language makes it."""
    before = QLocale()
    assert language.install(request.param) == request.param
    language.attach(QApplication.instance())
    yield request.param
    language.install("en")
    QLocale.setDefault(before)


def number(text: str, speaking: str) -> str:
    return text.replace(".", ",") if speaking == "de" else text


def click(qtbot, widget) -> None:
    qtbot.wait(QApplication.doubleClickInterval() + 50)  # never half of a double click
    qtbot.mouseClick(widget, LEFT)


def teacher_writes_three_questions(qtbot, make_window, path: Path, speaking: str) -> None:
    window = make_window("hanging-sheet", paused=True)
    window.action_new_question_set.trigger()
    editor = window.questions_panel.editor
    qtbot.waitExposed(editor)
    type_into(qtbot, editor.set_title, "Class 9c")
    fill_common(qtbot, editor, "Does it sag", "sag")  # 1: choices, the second one correct
    type_into(qtbot, editor.choice_edits[0], "No")
    type_into(qtbot, editor.choice_edits[1], "Yes")
    click(qtbot, editor.correct_buttons[1])
    type_into(qtbot, editor.at_edit, "2")
    choose(qtbot, editor.op_box, ">")
    type_into(qtbot, editor.value_edit, number("0.001", speaking))
    click(qtbot, editor.add_button)  # 2: a number, typed as the language writes it
    fill_common(qtbot, editor, "How much sag", "sag")
    click(qtbot, editor.number_radio)
    type_into(qtbot, editor.answer_edit, number("0.0105", speaking))
    type_into(qtbot, editor.unit_edit, "LE")
    type_into(qtbot, editor.tolerance_edit, number("0.002", speaking))
    type_into(qtbot, editor.at_edit, "5")
    click(qtbot, editor.add_button)  # 3: choices with a now try
    fill_common(qtbot, editor, "More passes", "sag")
    type_into(qtbot, editor.choice_edits[0], "Less sag")
    type_into(qtbot, editor.choice_edits[1], "More sag")
    click(qtbot, editor.correct_buttons[0])
    type_into(qtbot, editor.at_edit, "2")
    choose(qtbot, editor.op_box, ">")
    type_into(qtbot, editor.value_edit, "0")
    tick(qtbot, editor.now_try_box)
    choose(qtbot, editor.setting_box, "passes")
    type_into(qtbot, editor.try_value, "32")
    tick(qtbot, editor.hide_boxes["parameters"])
    type_into(qtbot, editor.passphrase_edit, "owl 42")
    save_and_wait(qtbot, editor, path)
    assert [passed for _, passed, _ in editor.results] == [True] * 3, editor.status.text()
    editor.close()


def answer(qtbot, window, index: int, choice: int | str) -> None:
    """Load question `index`'s scene, predict and lock (the name asked the first time)."""
    panel = window.questions_panel
    panel.select(index)
    click(qtbot, panel.start_button)
    qtbot.waitUntil(lambda: panel.stage == "predict", timeout=WAIT_MS)
    if isinstance(choice, int):
        click(qtbot, panel.choice_buttons[choice])
    else:
        type_into(qtbot, panel.number_box, choice)
    if not panel.store.student(panel.question_set.id):  # asked once: at the first Lock in
        answer_name(qtbot, window.student_name)
    click(qtbot, panel.lock_button)
    assert panel.store.student(panel.question_set.id) == window.student_name
    assert panel.stage == "watch"


def explain(qtbot, window) -> str:
    click(qtbot, window.questions_panel.explain_button)
    return window.questions_panel.verdict_label.text()


def student_window(make_window, path: Path, folder: Path, name: str):
    window = make_window("hanging-sheet", paused=True)
    window.questions_panel.store = ProgressStore(folder)  # this student's machine
    window.student_name = name
    assert window.questions_panel.open_set(path)
    assert window.parameters_dock.isHidden()  # class mode
    return window


def test_a_scripted_lesson(qtbot, make_window, tmp_path, speaking):
    path = tmp_path / "class-9c.json"
    teacher_writes_three_questions(qtbot, make_window, path, speaking)
    assert '"correct": true' not in path.read_text()
    assert load_question_set(path).questions[1].prediction.number.answer == 0.0105

    right, wrong = number("0.011", speaking), number("0.05", speaking)
    plans = {"Ana": (1, right, 0), "Ben": (0, wrong, 1), "Cleo": (1, right, 1)}
    exported = []
    for name, (first, second, third) in plans.items():
        folder = tmp_path / name
        window = student_window(make_window, path, folder, name)
        answer(qtbot, window, 0, first)
        explain(qtbot, window)
        answer(qtbot, window, 1, second)
        if name == "Ben":  # killed with the prediction locked, before its explanation
            state = window.questions_panel.lesson_state()
            window.close()
            window = student_window(make_window, path, folder, name)
            assert window.questions_panel.restore_lesson(state)
            panel = window.questions_panel
            qtbot.waitUntil(lambda p=panel: p.stage == "watch", timeout=WAIT_MS)
            assert panel.index == 1 and panel.locked.prediction == "0.05 LE"
            assert window.parameters_dock.isHidden()
        verdict = explain(qtbot, window)
        assert verdict.startswith("✗" if name == "Ben" else "✓"), verdict
        answer(qtbot, window, 2, third)
        explain(qtbot, window)
        csv_path = tmp_path / f"{name}.csv"
        window.questions_panel.export_csv(csv_path)
        exported.append(str(csv_path))

    # the teacher collects the named results and exports them
    window = make_window("hanging-sheet", paused=True)
    assert window.questions_panel.open_set(path)  # the teacher's own copy
    dialog = window.questions_panel.show_class_results()
    dialog.add_files(Path(p) for p in exported)
    assert dialog.problems.text() == ""
    tallies = [(t.right, t.wrong) for t in dialog.tallies]
    assert tallies == [(2, 1), (2, 1), (1, 2)]
    out = tmp_path / "class-results.csv"
    dialog.export_csv(out)
    rows = list(csv.DictReader(out.read_text(encoding="utf-8-sig").splitlines()))
    by = {(r["student"], r["question"]): r for r in rows}
    ben = by[("Ben", "how-much-sag")]
    assert (ben["prediction"], ben["matched"], ben["attempts"]) == ("0.05 LE", "no", "1")
    assert by[("Ana", "does-it-sag")]["matched"] == "yes"
    assert json.loads((tmp_path / "Ben" / "class-9c.json").read_text())["student"] == "Ben"


def test_class_results_say_why_a_file_is_left_out_in_the_apps_language(
    qtbot, make_window, tmp_path, speaking
):
    window = make_window("hanging-sheet", paused=True)
    dialog = window.questions_panel.show_class_results()
    notes = tmp_path / "notes.csv"
    notes.write_text("my notes\n")
    dialog.add_files([notes])
    expected = {
        "en": f"Left out: {notes}: line 1: expected the header",
        "de": f"Ausgelassen: {notes}: Zeile 1: erwartet wird die Kopfzeile",
    }[speaking]
    assert dialog.problems.text().startswith(expected), dialog.problems.text()
