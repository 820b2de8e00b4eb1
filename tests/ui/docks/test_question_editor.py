"""A teacher's workflow in the real window, by real key presses and clicks (QTest): File ▸ New
question set…, three questions typed into the editor (a choice, a number with unit and
tolerance, one with a "now try"), Check, Save as one file, the set reopened in the Questions
panel in class mode and answered; then two students' answer files counted in Class results."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QFileDialog,
    QLineEdit,
    QMessageBox,
    QWidget,
)
from qt_helpers import WAIT_MS

from clothlab.sim.lab.questions import ClassMode, load_builtin_set, load_question_set
from clothlab.sim.text import tr
from clothlab.ui.docks.questions_dock import Answer, ProgressStore

LEFT = Qt.MouseButton.LeftButton


def type_into(qtbot, widget: QWidget, text: str) -> None:
    """Click into a field, select what it holds and type over it."""
    qtbot.mouseClick(widget, LEFT)
    qtbot.keyClick(widget, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(widget, text)


def choose(qtbot, combo: QComboBox, data: str) -> None:
    """Pick an item of a combo box with the arrow keys, as a keyboard user does."""
    combo.setFocus()
    qtbot.keyClick(combo, Qt.Key.Key_Home)
    for _ in range(combo.count()):
        if combo.currentData() == data or combo.currentText() == data:
            return
        qtbot.keyClick(combo, Qt.Key.Key_Down)
    raise AssertionError(f"{data} not in the combo box")


USER_ROLE = Qt.ItemDataRole.UserRole


def tick(qtbot, widget: QWidget) -> None:
    """A check box, radio button or checkable group box, by the keyboard (Space)."""
    widget.setFocus()
    qtbot.keyClick(widget, Qt.Key.Key_Space)


def tick_setting(qtbot, editor, key: str) -> None:
    """A setting in the class-mode list, by the keyboard: made current, then Space."""
    settings = editor.hidden_settings
    row = next(k for k in range(settings.count()) if settings.item(k).data(USER_ROLE) == key)
    settings.setFocus()
    settings.setCurrentRow(row)
    qtbot.keyClick(settings.viewport(), Qt.Key.Key_Space)
    assert settings.item(row).checkState() == Qt.CheckState.Checked


def answer_teacher(qtbot, passphrase: str) -> None:
    """Type `passphrase` into the teacher's passphrase box when it comes (it is modal), and
    close the "not the passphrase" box that a wrong one brings, by keys."""

    def type_it(tries: int = 100) -> None:
        box = QApplication.activeModalWidget()
        if box is None:
            if tries:  # not yet there (or, after a right passphrase, nothing more comes)
                QTimer.singleShot(20, lambda: type_it(tries - 1))
            return
        if box.objectName() == "teacher_passphrase":
            qtbot.keyClicks(box.findChild(QLineEdit), passphrase)
            QTimer.singleShot(20, lambda: type_it(10))  # a wrong one: the warning after it
        qtbot.keyClick(box, Qt.Key.Key_Return)

    QTimer.singleShot(0, type_it)


def answer_name(qtbot, name: str) -> None:
    """Type `name` into the student's name box when it comes (modal), then Enter."""

    def type_it(tries: int = 100) -> None:
        box = QApplication.activeModalWidget()
        if box is None or box.objectName() != "student_name":
            if tries:
                QTimer.singleShot(20, lambda: type_it(tries - 1))
            return
        qtbot.keyClicks(box.findChild(QLineEdit), name)
        qtbot.keyClick(box, Qt.Key.Key_Return)

    QTimer.singleShot(0, type_it)


def save_and_wait(qtbot, editor, path: Path) -> None:
    """Save runs the checks first (unless Check just ran them on the set as it is), then
    writes the file."""
    if not editor.save_to(path):
        assert editor.status.text() == tr("Checking before saving…"), editor.status.text()
        qtbot.waitUntil(lambda: not editor.waiting_to_save, timeout=4 * WAIT_MS)
        assert str(path) in editor.status.text(), editor.status.text()  # "Saved …"


def fill_common(qtbot, editor, title: str, evidence: str) -> None:
    type_into(qtbot, editor.title, title)
    type_into(qtbot, editor.question_text, f"{title}: what happens?")
    choose(qtbot, editor.evidence_box, evidence)
    type_into(qtbot, editor.watch_text, "Watch the evidence plot.")
    type_into(qtbot, editor.explanation_text, "Because the pins hold the weight.")


def test_a_teacher_makes_checks_saves_and_a_class_opens_a_three_question_set(
    qtbot, make_window, tmp_path, monkeypatch
):
    window = make_window("hanging-sheet", paused=True)
    panel = window.questions_panel
    window.action_new_question_set.trigger()
    editor = panel.editor
    assert editor is not None and editor.isVisible()
    qtbot.waitExposed(editor)
    type_into(qtbot, editor.set_title, "Forces in a hanging sheet")

    # 1: choices, the second one correct, checked: sag after 2 s is more than 0.001
    fill_common(qtbot, editor, "Does it sag", "sag")
    type_into(qtbot, editor.choice_edits[0], "No, it stays flat")
    type_into(qtbot, editor.choice_edits[1], "Yes, a little")
    qtbot.mouseClick(editor.correct_buttons[1], LEFT)
    type_into(qtbot, editor.at_edit, "2")
    choose(qtbot, editor.op_box, ">")
    type_into(qtbot, editor.value_edit, "0.001")

    # 2: a number with a unit and a tolerance: the pins hold 165 × 9.8 = 1617 N after 5 s
    qtbot.mouseClick(editor.add_button, LEFT)
    assert editor.question_list.count() == 2 and editor.question_list.currentRow() == 1
    fill_common(qtbot, editor, "How hard do the pins pull", "pin_force")
    qtbot.mouseClick(editor.number_radio, LEFT)
    assert editor.number_box.isVisible() and not editor.choices_box.isVisible()
    type_into(qtbot, editor.answer_edit, "1617")
    type_into(qtbot, editor.unit_edit, "N")
    type_into(qtbot, editor.tolerance_edit, "8")
    type_into(qtbot, editor.at_edit, "5")

    # 3: a "now try" (32 passes), its own check too
    qtbot.mouseClick(editor.add_button, LEFT)
    fill_common(qtbot, editor, "More passes", "sag")
    type_into(qtbot, editor.choice_edits[0], "It sags less")
    type_into(qtbot, editor.choice_edits[1], "It sags more")
    qtbot.mouseClick(editor.correct_buttons[0], LEFT)
    type_into(qtbot, editor.at_edit, "2")
    choose(qtbot, editor.op_box, ">")
    type_into(qtbot, editor.value_edit, "0")
    tick(qtbot, editor.now_try_box)
    assert editor.now_try_box.isChecked()
    choose(qtbot, editor.setting_box, "passes")
    type_into(qtbot, editor.try_value, "32")
    type_into(qtbot, editor.try_note, "Reset and run: the sag is smaller.")
    tick(qtbot, editor.try_check)
    choose(qtbot, editor.try_op_box, ">")
    type_into(qtbot, editor.try_value_edit, "0")

    # class mode: the parameters and compare panels hidden from students
    tick(qtbot, editor.hide_boxes["parameters"])
    tick(qtbot, editor.hide_boxes["compare"])
    tick_setting(qtbot, editor, "gravity")  # and two settings (saved in the panel's order)
    tick_setting(qtbot, editor, "passes")
    type_into(qtbot, editor.passphrase_edit, "owl 42")  # the teacher's, to leave class mode

    qtbot.mouseClick(editor.check_button, LEFT)
    assert editor.checking and editor.status.text().startswith("Checking")  # the window is live
    qtbot.waitUntil(lambda: not editor.checking, timeout=WAIT_MS)
    assert [passed for _, passed, _ in editor.results] == [True] * 4, editor.status.text()
    assert editor.result_list.count() == 4
    assert editor.status.text() == "4 of 4 checks pass"
    assert editor.result_list.item(1).text().startswith("PASS  How hard do the pins pull: pin_")

    path = tmp_path / "class" / "forces.json"
    path.parent.mkdir()
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    qtbot.mouseClick(editor.save_button, LEFT)
    assert editor.status.text().startswith(f"Saved {path} (3 questions")
    assert sorted(p.name for p in path.parent.iterdir()) == ["forces.json"]  # one file
    data = json.loads(path.read_text())
    # the three questions share the current scene: stored once, under the first one's id
    assert list(data["scenes"]) == ["does-it-sag.json"]
    assert [q["scene"] for q in data["questions"]] == ["does-it-sag.json"] * 3
    teacher = data["class_mode"].pop("teacher")
    assert data["class_mode"] == {
        "hide": ["parameters", "compare"],
        "hide_settings": ["passes", "gravity"],
    }
    assert set(teacher) == {"salt", "hash"} and "owl 42" not in path.read_text()
    # a reader of the file does not see the answers: the correct choice is a salted hash
    assert '"correct": true' not in path.read_text()
    predictions = [q["prediction"] for q in data["questions"]]
    assert all("sealed" in p for p in predictions if "choices" in p)
    saved = load_question_set(path)
    number = saved.questions[1].prediction.number
    assert number is not None and (number.answer, number.unit, number.tolerance) == (1617, "N", 8)
    assert saved.questions[1].checks[0].expect.op == "=="
    assert [len(q.now_try) for q in saved.questions] == [0, 0, 1]
    assert saved.questions[2].now_try[0].value == 32
    assert saved.questions[2].checks[1].set == {"passes": 32}
    # the teacher's own window shows the saved set without going into its class mode
    assert not window.parameters_dock.isHidden() and not window.action_leave_class_mode.isEnabled()
    editor.close()
    window.leave_class_mode()
    assert window.parameters_dock.toggleViewAction().isChecked()

    # a student opens the one file in the Questions panel: class mode hides the two panels
    other = tmp_path / "student"
    other.mkdir()
    copy = other / "forces.json"
    copy.write_bytes(path.read_bytes())
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(copy), ""))
    panel.set_question_set(load_builtin_set())  # the set shown before the student opens it
    assert panel.set_label.text() != "Forces in a hanging sheet"
    window.action_open.trigger()  # File ▸ Open takes a question set to the Questions panel
    assert panel.set_label.text() == "Forces in a hanging sheet"
    assert panel.question_set.path == copy and window.controller.scene.name == "Hanging sheet"
    assert panel.question_box.count() == 3
    assert window.parameters_dock.isHidden() and window.compare_dock.isHidden()
    assert not window.readouts_dock.isHidden()
    assert window.action_leave_class_mode.isEnabled()
    editors = window.parameters_panel.editors
    assert editors["gravity"].isHidden() and editors["passes"].isHidden()
    assert not editors["wind"].isHidden()
    # … and answers the numeric question
    panel.select(1)
    qtbot.mouseClick(panel.start_button, LEFT)
    assert panel.stage == "predict"
    assert window.controller.scene == saved.scenes[saved.questions[1].scene]
    type_into(qtbot, panel.number_box, "1610")
    answer_name(qtbot, "Ana Lima")  # asked once, at the first Lock in of the set
    qtbot.mouseClick(panel.lock_button, LEFT)
    assert panel.store.student(panel.question_set.id) == "Ana Lima"
    assert panel.student_label.text() == "Student: Ana Lima"
    qtbot.mouseClick(panel.run_button, LEFT)
    latest = lambda: window.controller.latest  # noqa: E731
    qtbot.waitUntil(lambda: latest() is not None and latest().steps >= 30, timeout=WAIT_MS)
    window.controller.set_running(False)
    qtbot.mouseClick(panel.explain_button, LEFT)
    assert panel.verdict_label.text().startswith("✓ Your prediction matched: <b>1610.00 N")
    # the results carry the name, and so does the file's suggested name
    suggested: list[str] = []
    exported = tmp_path / "ana.csv"

    def save_as(_parent, _title, suggestion, *_args):
        suggested.append(Path(suggestion).name)
        return str(exported), ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_as)
    qtbot.mouseClick(panel.export_button, LEFT)
    assert suggested == ["forces-in-a-hanging-sheet-ana-lima-answers.csv"]
    row = list(csv.DictReader(exported.open(encoding="utf-8")))[1]
    assert (row["student"], row["question"]) == ("Ana Lima", "how-hard-do-the-pins-pull")
    assert (row["prediction"], row["matched"], row["attempts"]) == ("1610.00 N", "yes", "1")
    # the way out and the editor are the teacher's: a wrong passphrase keeps class mode
    assert not window.parameters_dock.toggleViewAction().isEnabled()  # not via View ▸ Panels
    answer_teacher(qtbot, "guess")
    window.action_leave_class_mode.trigger()
    assert window.parameters_dock.isHidden() and window.action_leave_class_mode.isEnabled()
    answer_teacher(qtbot, "guess")
    qtbot.mouseClick(panel.edit_button, LEFT)
    assert panel.editor is editor  # no new editor opened
    answer_teacher(qtbot, "owl 42")
    window.action_leave_class_mode.trigger()
    assert not window.parameters_dock.isHidden() and not window.compare_dock.isHidden()
    assert not editors["gravity"].isHidden() and not editors["passes"].isHidden()


def test_edit_questions_opens_the_set_shown_and_keeps_its_checks(qtbot, make_window, tmp_path):
    window = make_window("hanging-sheet", paused=True)
    panel = window.questions_panel
    panel.select(1)
    qtbot.mouseClick(panel.edit_button, LEFT)
    editor = panel.editor
    assert editor.question_list.count() == len(panel.question_set.questions)
    assert editor.question_list.currentRow() == 1
    assert editor.title.text() == panel.question_set.questions[1].title
    assert editor.check_box.isChecked()  # the evidence after a time: shown in the form
    assert editor.kept_label.text() == "and 3 checks kept from the file:"
    save_and_wait(qtbot, editor, tmp_path / "copy.json")  # the built-in set, as one file
    copy = load_question_set(tmp_path / "copy.json")
    assert [q.checks for q in copy.questions] == [q.checks for q in panel.question_set.questions]
    assert panel.question_set.path == tmp_path / "copy.json"


def student_file(folder: Path, name: str, rights: dict[str, bool], panel) -> Path:
    store = ProgressStore(folder / name)
    store.set_student("lab", name.capitalize())
    for question, right in rights.items():
        store.record("lab", question, Answer("said", right, "2026-12-02T10:00:00+00:00"))
    path = folder / f"{name}.csv"
    path.write_text(store.csv_text(panel.question_set), encoding="utf-8")
    return path


def test_class_results_counts_two_students_files(qtbot, make_window, tmp_path, monkeypatch):
    window = make_window("hanging-sheet", paused=True)
    panel = window.questions_panel
    ben = student_file(tmp_path, "ben", {"drop": True, "pull-hardest": True}, panel)
    ana = student_file(tmp_path, "ana", {"drop": True, "pull-hardest": False}, panel)
    broken = tmp_path / "notes.csv"
    broken.write_text("my notes\n")
    window.action_class_results.trigger()
    dialog = panel.results_dialog
    assert dialog is not None and dialog.isVisible()
    chosen = [str(ben), str(ana), str(broken)]
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: (chosen, ""))
    qtbot.mouseClick(dialog.add_button, LEFT)
    table = dialog.table
    assert table.rowCount() == len(panel.question_set.questions)

    def row(k: int) -> list[str]:
        return [table.item(k, c).text() for c in range(table.columnCount())]

    # right, wrong, answered, students
    assert row(0)[1:5] == ["2", "0", "2", "2"]  # drop: both answered, both right
    assert row(1)[1:5] == ["1", "1", "2", "2"]  # pull-hardest: one right, one wrong
    assert row(2)[1:5] == ["0", "0", "0", "2"]  # nobody answered the third
    assert row(0)[0] == f"1. {panel.question_set.questions[0].title}"
    assert dialog.summary.text() == f"Set {panel.question_set.title}: 2 students' files"
    assert dialog.problems.text() == f"Left out: {broken}: line 1: expected the header " \
        "student,set,question,title,prediction,answer,matched,time,attempts (a file from " \
        "the Questions panel's Export CSV…)"  # fmt: skip

    # per student and question, sortable by a click on a header, exported for a spreadsheet
    students = dialog.students
    questions = len(panel.question_set.questions)
    assert students.rowCount() == 2 * questions
    qtbot.mouseClick(dialog.tabs.tabBar(), LEFT, pos=dialog.tabs.tabBar().tabRect(1).center())
    assert dialog.tabs.currentWidget() is students
    header = students.horizontalHeader()
    qtbot.mouseClick(header.viewport(), LEFT, pos=QPoint(header.sectionViewportPosition(0) + 5, 5))
    names = [students.item(k, 0).text() for k in range(students.rowCount())]
    assert names == sorted(names) and names[0] == "Ana"
    exported = tmp_path / "class.csv"
    dialog.export_csv(exported)
    raw = exported.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # a byte-order mark: spreadsheets read UTF-8 right
    rows = list(csv.DictReader(raw.decode("utf-8-sig").splitlines()))
    assert len(rows) == 2 * questions
    first = next(r for r in rows if r["student"] == "Ana" and r["question"] == "pull-hardest")
    assert (first["prediction"], first["matched"], first["attempts"]) == ("said", "no", "1")


def test_the_editor_says_what_is_wrong_in_one_line_and_writes_nothing(qtbot, make_window, tmp_path):
    window = make_window("hanging-sheet", paused=True)
    window.action_new_question_set.trigger()
    editor = window.questions_panel.editor
    qtbot.waitExposed(editor)
    path = tmp_path / "set.json"
    assert not editor.save_to(path)
    assert editor.status.text() == "Cannot make the set: Set title: empty"
    type_into(qtbot, editor.set_title, "Mine")
    fill_common(qtbot, editor, "Sag", "sag")
    qtbot.mouseClick(editor.number_radio, LEFT)
    type_into(qtbot, editor.answer_edit, "lots")
    assert not editor.save_to(path)
    assert editor.status.text() == "Cannot make the set: Question 1: answer: 'lots' is not a number"
    type_into(qtbot, editor.answer_edit, "0.5")  # far from the sag after 2 s (about 0.01)
    type_into(qtbot, editor.at_edit, "2")
    qtbot.mouseClick(editor.check_button, LEFT)
    assert editor.checking and editor.status.text().startswith("Checking")  # the window is live
    qtbot.waitUntil(lambda: not editor.checking, timeout=WAIT_MS)
    assert [passed for _, passed, _ in editor.results] == [False]
    assert editor.result_list.item(0).text().startswith("FAIL  Sag: sag 0.01")
    assert editor.status.text().startswith("0 of 1 checks pass; 1 fail")
    type_into(qtbot, editor.at_edit, "1000")  # 120 000 steps: more than a check may run
    assert not editor.save_to(path)
    assert "steps: Input should be less than or equal to 20000" in editor.status.text()
    assert "\n" not in editor.status.text()
    assert not path.exists()


def test_class_mode_is_not_kept_in_the_stored_layout(qtbot, make_window):
    """Class mode belongs to the set that asked for it: a window closed in class mode stores
    the layout as the user had it, so the next start shows every panel."""
    window = make_window("hanging-sheet", paused=True)
    window.enter_class_mode(ClassMode(hide=["parameters", "readouts"]))
    assert window.parameters_dock.isHidden() and window.readouts_dock.isHidden()
    window.save_layout()
    assert window.parameters_dock.isHidden()  # still in class mode after saving
    later = make_window("hanging-sheet", paused=True)
    assert later.restore_layout()
    assert not later.parameters_dock.isHidden() and not later.readouts_dock.isHidden()


def test_file_open_on_a_hostile_shared_set_is_one_dialog_line(
    qtbot, make_window, tmp_path, monkeypatch
):
    window = make_window("hanging-sheet", paused=True)
    panel = window.questions_panel
    before = panel.question_set
    hostile = tmp_path / "shared.json"
    hostile.write_text(json.dumps({
        "format": "clothlab-questions", "schema_version": 1, "id": "x", "title": "X",
        "questions": [], "scenes": {"../../etc/passwd.json": {}},
    }))  # fmt: skip
    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _p, title, text: shown.append((title, text)))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(hostile), ""))
    window.action_open.trigger()
    assert len(shown) == 1 and shown[0][0] == "Cannot open question set"
    assert shown[0][1].startswith(f"{hostile}: ") and "\n" not in shown[0][1]
    assert panel.question_set is before and window.controller.scene.name == "Hanging sheet"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["shared.json"]


def round_trip_set(folder: Path) -> Path:
    """A teacher's set with the checks the editor makes (one reworded) and one it does not."""
    from clothlab.sim.document.presets import load_preset
    from clothlab.sim.lab.questions import QuestionSetSpec, save_shared_set

    expect = {"readout": "pin_force", "op": "==", "value": 1617.0, "tolerance": 30.0}
    spec = QuestionSetSpec.model_validate({
        "id": "class-9c", "title": "Class 9c", "description": "Forces",
        "questions": [{
            "id": "pull", "title": "How hard?", "scene": "sheet.json", "question": "Guess.",
            "prediction": {"choices": [{"text": "Hard", "correct": True}, {"text": "Soft"}]},
            "watch": "Pin force.", "evidence": "pin_force", "explanation": "The weight.",
            "now_try": [{"label": "Sixteen passes", "setting": "passes", "value": 16}],
            "checks": [
                {"claim": "it compares", "compare": {"first": {"steps": 10},
                 "second": {"steps": 10, "set": {"passes": 4}}, "by": "ratio"},
                 "expect": {"readout": "sag", "op": ">", "value": 0.0}},
                {"claim": "the pins hold the weight, in my words", "steps": 600,
                 "expect": expect},
                {"claim": "with 16 passes too", "steps": 600, "set": {"passes": 16},
                 "expect": {"readout": "pin_force", "op": ">", "value": 1000.0}},
            ],
        }],
    })  # fmt: skip
    path = folder / "class-9c.json"
    save_shared_set(spec, {"sheet.json": load_preset("hanging-sheet")}, path)
    return path


def test_the_editor_round_trips_a_set_and_edits_and_deletes_its_checks(
    qtbot, make_window, tmp_path
):
    path = round_trip_set(tmp_path)
    original = json.loads(path.read_text())
    window = make_window("hanging-sheet", paused=True)
    panel = window.questions_panel
    assert panel.open_set(path)
    qtbot.mouseClick(panel.edit_button, LEFT)
    editor = panel.editor
    qtbot.waitExposed(editor)
    # what it opens it shows: the answer check and the now-try check ticked, with their numbers
    assert editor.check_box.isChecked() and editor.try_check.isChecked()
    assert editor.try_check.isEnabled()  # its now try is ticked: it can be unticked
    assert (editor.at_edit.text(), editor.op_box.currentText()) == ("5", "==")
    assert (editor.value_edit.text(), editor.check_tolerance_edit.text()) == ("1617", "30")
    assert (editor.try_op_box.currentText(), editor.try_value_edit.text()) == (">", "1000")
    assert editor.kept_list.count() == 1 and editor.kept_label.text().startswith("and 1 check")

    # … and what it shows it saves: unchanged, the file is written as it was
    copy = tmp_path / "copy.json"
    save_and_wait(qtbot, editor, copy)
    assert json.loads(copy.read_text()) == original

    # a tolerance changed replaces the check; a kept check deleted is gone
    type_into(qtbot, editor.check_tolerance_edit, "20")
    qtbot.mouseClick(editor.delete_check_button, LEFT)
    assert editor.kept_list.count() == 0 and not editor.kept_list.isVisible()
    save_and_wait(qtbot, editor, copy)
    checks = json.loads(copy.read_text())["questions"][0]["checks"]
    assert [c["expect"].get("tolerance") for c in checks] == [20.0, 0.0]
    assert [c["expect"]["op"] for c in checks] == ["==", ">"]
    assert checks[1]["claim"] == "with 16 passes too"  # untouched: the file's own words


def test_evidence_the_scene_never_shows_is_refused_in_one_line(qtbot, make_window, tmp_path):
    window = make_window("soft-block", paused=True)
    window.action_new_question_set.trigger()
    editor = window.questions_panel.editor
    qtbot.waitExposed(editor)
    type_into(qtbot, editor.set_title, "Block")
    fill_common(qtbot, editor, "Squash", "sag")  # the soft block has no sag to show
    type_into(qtbot, editor.choice_edits[0], "Less")
    type_into(qtbot, editor.choice_edits[1], "More")
    qtbot.mouseClick(editor.correct_buttons[0], LEFT)
    type_into(qtbot, editor.value_edit, "0")
    path = tmp_path / "block.json"
    assert not editor.save_to(path)
    assert editor.status.text() == (
        "Cannot make the set: Question 1: evidence: the scene “Soft block” never shows Sag: "
        "choose another"
    )
    qtbot.mouseClick(editor.check_button, LEFT)  # Check says the same, and runs nothing
    assert not editor.checking and "never shows Sag" in editor.status.text()
    choose(qtbot, editor.evidence_box, "volume")
    choose(qtbot, editor.op_box, ">")
    save_and_wait(qtbot, editor, path)
    assert load_question_set(path).questions[0].evidence == "volume"


def test_a_set_with_a_failing_check_asks_before_it_is_saved(
    qtbot, make_window, tmp_path, monkeypatch
):
    window = make_window("hanging-sheet", paused=True)
    window.action_new_question_set.trigger()
    editor = window.questions_panel.editor
    qtbot.waitExposed(editor)
    type_into(qtbot, editor.set_title, "Mine")
    fill_common(qtbot, editor, "Sag", "sag")
    qtbot.mouseClick(editor.number_radio, LEFT)
    type_into(qtbot, editor.answer_edit, "0.5")  # the sag after 2 s is about 0.01: it fails
    type_into(qtbot, editor.at_edit, "2")
    asked: list[str] = []
    reply = {"button": QMessageBox.StandardButton.Cancel}

    def warning(_parent, _title, text, *_args):
        asked.append(text)
        return reply["button"]

    monkeypatch.setattr(QMessageBox, "warning", warning)
    path = tmp_path / "mine.json"
    assert not editor.save_to(path)  # the checks run first, then it asks
    qtbot.waitUntil(lambda: bool(asked), timeout=WAIT_MS)
    assert asked == [
        "1 of 1 checks fail: the numbers do not bear the answers out. Save the set anyway?"
    ]
    assert editor.status.text() == "Not saved: 1 checks fail" and not path.exists()
    reply["button"] = QMessageBox.StandardButton.Save
    assert editor.save_to(path)  # checked already: it asks again at once, and saves
    assert len(asked) == 2 and path.is_file()


def test_an_empty_field_is_named_as_the_form_and_the_list_name_it(qtbot, make_window, tmp_path):
    window = make_window("hanging-sheet", paused=True)
    window.action_new_question_set.trigger()
    editor = window.questions_panel.editor
    qtbot.waitExposed(editor)
    type_into(qtbot, editor.set_title, "Mine")
    for k in range(2):
        if k:
            qtbot.mouseClick(editor.add_button, LEFT)
        fill_common(qtbot, editor, f"Sag {k + 1}", "sag")
        qtbot.mouseClick(editor.number_radio, LEFT)
        type_into(qtbot, editor.answer_edit, "0.0105")
        type_into(qtbot, editor.tolerance_edit, "0.002")
    type_into(qtbot, editor.watch_text, "")  # the second question's "What to watch" emptied
    qtbot.keyClick(editor.watch_text, Qt.Key.Key_Delete)
    assert not editor.save_to(tmp_path / "mine.json")
    assert editor.status.text() == "Cannot make the set: Question 2: What to watch: empty"


def test_a_preset_picked_in_the_editor_and_a_check_after_the_seam_cut(qtbot, make_window, tmp_path):
    window = make_window("soft-block", paused=True)  # the window's scene is not the question's
    window.action_new_question_set.trigger()
    editor = window.questions_panel.editor
    qtbot.waitExposed(editor)
    type_into(qtbot, editor.set_title, "Seams")
    choose(qtbot, editor.preset_box, "hanging-sheet")  # each item the arrows reach is taken
    assert editor.scene_label.text() == "Hanging sheet (preset hanging-sheet)"
    fill_common(qtbot, editor, "Faces after the seam", "faces")
    qtbot.mouseClick(editor.number_radio, LEFT)
    type_into(qtbot, editor.answer_edit, "130")  # 140 faces, the seam takes a column of 10
    type_into(qtbot, editor.at_edit, "1")
    tick(qtbot, editor.seam_box)
    path = tmp_path / "seams.json"
    save_and_wait(qtbot, editor, path)
    assert [passed for _, passed, _ in editor.results] == [True], editor.status.text()
    question = load_question_set(path).questions[0]
    assert question.scene == "hanging-sheet" and question.checks[0].apply == ["seam"]
    editor.close()

    assert window.questions_panel.open_set(path)
    qtbot.mouseClick(window.questions_panel.edit_button, LEFT)
    reopened = window.questions_panel.editor
    assert reopened.check_box.isChecked() and reopened.seam_box.isChecked()
    assert reopened.kept_list.count() == 0


def test_a_check_that_holds_a_particle_round_trips(qtbot, make_window, tmp_path):
    window = make_window("hanging-sheet", paused=True)
    window.action_new_question_set.trigger()
    editor = window.questions_panel.editor
    qtbot.waitExposed(editor)
    type_into(qtbot, editor.set_title, "Grabs")
    fill_common(qtbot, editor, "Pulled", "max_stretch")
    type_into(qtbot, editor.choice_edits[0], "It stretches")
    type_into(qtbot, editor.choice_edits[1], "It does not")
    qtbot.mouseClick(editor.correct_buttons[0], LEFT)
    type_into(qtbot, editor.at_edit, "1")
    choose(qtbot, editor.op_box, ">")
    type_into(qtbot, editor.value_edit, "0")
    type_into(qtbot, editor.grab_edits[0], "the middle")
    path = tmp_path / "grabs.json"
    assert not editor.save_to(path)
    assert editor.status.text() == (
        "Cannot make the set: Question 1: hold particle: 'the middle' is not a particle's number"
    )
    for edit, text in zip(editor.grab_edits, ("160", "0.5", "-1", "0.6"), strict=True):
        type_into(qtbot, edit, text)
    save_and_wait(qtbot, editor, path)
    (held,) = load_question_set(path).questions[0].checks[0].apply
    assert (held.grab, held.to) == (160, (0.5, -1.0, 0.6))
    editor.close()
    assert window.questions_panel.open_set(path)
    qtbot.mouseClick(window.questions_panel.edit_button, LEFT)
    reopened = window.questions_panel.editor
    assert [e.text() for e in reopened.grab_edits] == ["160", "0.5", "-1", "0.6"]
    assert reopened.kept_list.count() == 0
