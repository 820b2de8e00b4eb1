"""The Questions panel in the real window: every built-in question walked through (scene,
prediction, run, explanation, a "now try" and its undo), the evidence highlight, opening a
teacher's set, and the progress kept in the data folder."""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox
from qt_helpers import WAIT_MS

from clothlab.sim.document.presets import preset_path
from clothlab.sim.document.requests import ChangeSetting
from clothlab.sim.lab.questions import load_builtin_set
from clothlab.ui.docks.panels import Panel
from clothlab.ui.docks.questions_dock import (
    CSV_HEADER,
    Answer,
    ProgressStore,
    QuestionsPanel,
    progress_folder,
)
from clothlab.ui.docks.readouts_dock import HIGHLIGHT_STYLE, ReadoutsPanel

BUILTIN = load_builtin_set()


def wrong_or_right(question, right: bool) -> int | float:
    prediction = question.prediction
    if prediction.choices is not None:
        correct = next(k for k, c in enumerate(prediction.choices) if c.correct)
        return correct if right else (correct + 1) % len(prediction.choices)
    assert prediction.number is not None
    miss = 10 * (prediction.number.tolerance + 1)
    return prediction.number.answer + (0 if right else miss)


def test_every_builtin_question_walks_through_the_real_window(qtbot, make_window, tmp_path):
    window = make_window("hanging-sheet", paused=True)
    controller, panel = window.controller, window.questions_panel
    assert isinstance(panel, Panel) and panel in window.panels
    window.show_questions()
    qtbot.waitUntil(lambda: not window.questions_dock.visibleRegion().isEmpty(), timeout=WAIT_MS)
    for k, question in enumerate(BUILTIN.questions):
        if k:
            panel.next_button.click()
        assert panel.index == k and panel.title_label.text() == question.title
        assert panel.stage == "start" and not panel.prediction_group.isVisible()

        panel.start_button.click()  # loads its scene, paused, as a new document
        assert panel.stage == "predict"
        assert controller.scene == BUILTIN.scene_for(question) and controller.path is None
        qtbot.waitUntil(lambda: controller.latest is not None, timeout=WAIT_MS)
        assert not controller.running
        assert not panel.lock_button.isEnabled() or question.prediction.number is not None

        right = k % 2 == 0
        answer = wrong_or_right(question, right)
        if question.prediction.choices is not None:
            panel.choice_buttons[int(answer)].click()
        else:
            panel.number_box.setValue(answer)
        panel.lock_button.click()
        assert panel.stage == "watch"
        assert window.readouts_panel.highlighted == question.evidence  # points at the evidence

        if question.id == "seam-faces":  # the question never locks the app: tools still work
            window.action_seam.trigger()
            qtbot.waitUntil(lambda: controller.latest.readouts.links == 553, timeout=WAIT_MS)
        panel.run_button.click()
        qtbot.waitUntil(lambda: controller.running, timeout=WAIT_MS)
        qtbot.waitUntil(lambda: controller.latest.steps >= 30, timeout=WAIT_MS)
        controller.set_running(False)

        panel.explain_button.click()
        assert panel.stage == "explained" and panel.explanation_group.isVisible()
        assert panel.explanation_label.text() == question.explanation
        verdict = panel.verdict_label.text()
        assert verdict.startswith("✓" if right else "✗"), verdict
        if not right:
            assert question.prediction.answer_text in verdict

        suggestion = question.now_try[0]
        before = getattr(controller.settings, suggestion.setting)
        assert before != suggestion.value
        panel.now_try_buttons[0].click()  # one click, through Controller.set_setting
        assert getattr(controller.settings, suggestion.setting) == suggestion.value
        qtbot.waitUntil(  # and the solver has it
            lambda s=suggestion: getattr(controller.latest.settings, s.setting) == s.value,
            timeout=WAIT_MS,
        )
        assert panel.now_try_buttons[0].text().startswith("✓")
        assert controller.undo_stack.undoText() == f"Set {suggestion.setting.replace('_', ' ')}"
        window.action_undo.trigger()
        assert getattr(controller.settings, suggestion.setting) == before
        qtbot.waitUntil(
            lambda s=suggestion, b=before: getattr(controller.latest.settings, s.setting) == b,
            timeout=WAIT_MS,
        )
        assert not panel.now_try_buttons[0].text().startswith("✓")

    # progress: every question answered, half of them right, saved in the data folder
    total = len(BUILTIN.questions)
    matched = (total + 1) // 2
    assert panel.progress_label.text() == f"{total} of {total} answered · {matched} matched"
    stored = progress_folder() / "lab.json"
    assert stored.is_file()
    assert str(stored).startswith(os.environ["XDG_DATA_HOME"])
    data = json.loads(stored.read_text(encoding="utf-8"))
    assert data["format"] == "clothlab-progress" and set(data["questions"]) == {
        q.id for q in BUILTIN.questions
    }
    first, second = (q.id for q in BUILTIN.questions[:2])  # answered right, then wrong
    assert [a["matched"] for a in data["questions"][first]] == [True]
    assert [a["matched"] for a in data["questions"][second]] == [False]
    assert all(row[3] in ("✓", "✗") for row in panel.summary_rows())
    assert "✓" in panel.question_box.itemText(0) and "✗" in panel.question_box.itemText(1)

    exported = tmp_path / "answers.csv"
    panel.export_csv(exported)
    rows = list(csv.reader(exported.open(encoding="utf-8")))
    assert rows[0] == list(CSV_HEADER)
    assert [row[2] for row in rows[1:]] == [q.id for q in BUILTIN.questions]
    assert [row[6] for row in rows[1:]] == ["yes" if k % 2 == 0 else "no" for k in range(total)]
    assert [row[8] for row in rows[1:]] == ["1"] * total  # one attempt each
    last_right = (total - 1) % 2 == 0
    assert rows[-1][4] == ("13.6 units/s" if last_right else "30.6 units/s")  # with its unit


def test_reset_progress_asks_first(qtbot, make_window, monkeypatch):
    window = make_window("hanging-sheet", paused=True)
    panel = window.questions_panel
    panel.store.record("lab", "drop", Answer("It slides off", True, "2025-01-31T14:05:09+01:00"))
    panel.set_question_set(BUILTIN)
    assert panel.progress_label.text().startswith("1 of ")
    assert "Answered 2025-01-31 14:05: ✓ It slides off" in panel.previous_answer_label.text()
    answer = {"button": QMessageBox.StandardButton.No}
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: answer["button"])
    panel.reset_button.click()
    assert panel.progress_label.text().startswith("1 of ")
    answer["button"] = QMessageBox.StandardButton.Yes
    panel.reset_button.click()
    assert panel.progress_label.text().startswith("0 of ")
    assert not panel.store.file("lab").exists()


def test_help_questions_and_view_panels_show_the_dock(qtbot, make_window):
    window = make_window("hanging-sheet", paused=True)
    help_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Help")
    questions = next(a for a in help_menu.actions() if a.text() == "&Questions")
    assert window.questions_dock.visibleRegion().isEmpty()  # a tab behind Parameters
    questions.trigger()
    qtbot.waitUntil(lambda: not window.questions_dock.visibleRegion().isEmpty(), timeout=WAIT_MS)
    panel_texts = [action.text() for action in window.panels_menu.actions()]
    assert "Questions" in panel_texts
    window.questions_dock.close()
    assert not window.questions_dock.isVisible()
    window.reset_layout()
    assert window.questions_dock.toggleViewAction().isChecked()


def teacher_set(folder: Path) -> Path:
    scene = json.loads(preset_path("hanging-sheet").read_text(encoding="utf-8"))
    scene["name"] = "Class sheet"
    (folder / "scenes").mkdir(parents=True)
    (folder / "scenes" / "class.json").write_text(json.dumps(scene), encoding="utf-8")
    data = {
        "format": "clothlab-questions", "schema_version": 1, "id": "class-7b",
        "title": "Class 7b", "questions": [{
            "id": "sag", "title": "How much sag?", "scene": "scenes/class.json",
            "question": "How much does it sag, in hundredths of a unit?",
            "prediction": {"number": {"unit": "units", "answer": 0.01, "tolerance": 0.005,
                                      "decimals": 3}},
            "watch": "Watch Sag.", "evidence": "sag", "explanation": "About 0.0105.",
            "now_try": [{"label": "4 passes", "setting": "passes", "value": 4}],
            "checks": [{"claim": "about 0.0105", "steps": 600,
                        "expect": {"readout": "sag", "op": "==", "value": 0.0105,
                                   "tolerance": 0.001}}],
        }],
    }  # fmt: skip
    path = folder / "class.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_file_open_question_set_loads_a_teachers_file_and_keeps_the_set_on_a_bad_one(
    qtbot, make_window, tmp_path, monkeypatch
):
    window = make_window("hanging-sheet", paused=True)
    panel = window.questions_panel
    path = teacher_set(tmp_path / "class")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    window.action_open_questions.trigger()
    assert panel.set_label.text() == "Class 7b" and panel.question_box.count() == 1
    assert panel.scene_label.text() == "Scene: Class sheet"
    assert not window.questions_dock.visibleRegion().isEmpty() or window.questions_dock.isVisible()
    panel.start_button.click()
    assert window.controller.scene.name == "Class sheet"
    panel.number_box.setValue(0.012)
    panel.lock_button.click()
    panel.explain_button.click()
    assert panel.verdict_label.text().startswith("✓ Your prediction matched: <b>0.012 units")
    assert set(panel.store.answers("class-7b")) == {"sag"}  # kept per set id
    assert panel.store.answers("lab") == {}

    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _p, title, text: shown.append((title, text)))
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "clothlab-questions", "schema_version": 1, "id": "x"}')
    assert not panel.open_set(bad)
    assert shown and shown[0][0] == "Cannot open question set"
    assert shown[0][1].startswith(f"{bad}: title: Field required")
    assert panel.set_label.text() == "Class 7b"  # the set stays


def test_choosing_another_question_stops_pointing(qtbot, make_window):
    window = make_window("hanging-sheet", paused=True)
    panel = window.questions_panel
    panel.start()
    panel.choice_buttons[1].click()
    panel.lock_prediction()
    assert window.readouts_panel.highlighted == "motion"
    panel.select(2)
    assert window.readouts_panel.highlighted is None
    assert panel.stage == "start"


def test_loading_another_scene_stops_pointing(qtbot, make_window, monkeypatch):
    """The evidence highlight belongs to the question's scene: File ▸ New (another scene)
    clears it, from the Readouts panel's labels too; a Reset of the question's scene keeps it."""
    window = make_window("hanging-sheet", paused=True)
    panel, readouts = window.questions_panel, window.readouts_panel
    panel.start_button.click()
    panel.choice_buttons[1].click()
    panel.lock_button.click()
    assert readouts.highlighted == "motion"
    window.action_reset.trigger()
    qtbot.waitUntil(lambda: window.controller.latest is not None, timeout=WAIT_MS)
    assert readouts.highlighted == "motion"
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Discard)
    window.action_new.trigger()
    assert window.controller.scene != BUILTIN.scene_for(panel.question)
    assert readouts.highlighted is None
    assert all(label.styleSheet() != HIGHLIGHT_STYLE for label in readouts.count_labels.values())


def test_a_question_waits_for_its_scene(qtbot, make_window, monkeypatch):
    """If the person keeps their unsaved scene (Cancel), the question does not move on."""
    window = make_window("hanging-sheet", paused=True)
    window.controller.set_setting("passes", 12)
    answer = {"button": QMessageBox.StandardButton.Cancel}
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: answer["button"])
    window.questions_panel.start_button.click()
    assert window.questions_panel.stage == "start"
    assert window.controller.settings.passes == 12
    answer["button"] = QMessageBox.StandardButton.Discard  # as the fixture's close expects
    window.questions_panel.start_button.click()
    assert window.questions_panel.stage == "predict"
    assert window.controller.settings.passes == 8


# --- the parts on their own ------------------------------------------------------------------


def test_readouts_highlight_points_at_one_readout(qtbot):
    panel = ReadoutsPanel()
    qtbot.addWidget(panel)
    panel.highlight("sag")
    assert panel.highlighted == "sag"
    assert panel.value_labels["sag"].styleSheet() == HIGHLIGHT_STYLE
    assert "border" in panel.plots["sag"].styleSheet()
    assert panel.value_labels["motion"].styleSheet() == ""
    panel.highlight("links")
    assert panel.links_label.styleSheet() == HIGHLIGHT_STYLE
    assert panel.value_labels["sag"].styleSheet() == ""
    panel.highlight("nonsense")
    assert panel.highlighted is None and panel.links_label.styleSheet() == ""


def test_the_fastest_particle_is_plotted_with_motion_and_can_be_pointed_at(qtbot):
    """max_speed is a second curve on the Motion plot, named by its row above the plot (a line
    in its colour, its name and value); pointing at it marks its name and value and the plot it
    is drawn on."""
    panel = ReadoutsPanel()
    qtbot.addWidget(panel)
    motion = panel.plots["motion"]
    assert panel.plots["max_speed"] is motion
    curves = motion.getPlotItem().listDataItems()
    assert [curve.name() for curve in curves] == ["mean", "fastest"]
    colours = [panel.swatches[key].styleSheet() for key in ("motion", "max_speed")]
    assert colours[0] != colours[1]
    panel.highlight("max_speed")
    assert panel.highlighted == "max_speed"
    assert panel.value_labels["max_speed"].styleSheet() == HIGHLIGHT_STYLE
    assert panel.value_labels["motion"].styleSheet() == ""
    assert "border" in motion.styleSheet()
    panel.highlight("faces")
    assert panel.count_labels["faces"].styleSheet() == HIGHLIGHT_STYLE
    assert "border" not in motion.styleSheet()


def test_why_do_particles_jump_points_at_the_fastest_particle(qtbot, make_window):
    """Question 2 asks how fast the fastest particle moves in the first step.
    A student who locks "tens of units per second", presses Step (.) and reads the highlighted
    readout sees 46.9 units/s there, which bears the answer out (Motion, the mean, reads 5.5)."""
    from PySide6.QtCore import Qt

    window = make_window("hanging-sheet", paused=True)
    controller, panel = window.controller, window.questions_panel
    window.show_questions()
    panel.select(BUILTIN.questions.index(BUILTIN.question("ball-start")))
    panel.start_button.click()
    qtbot.waitUntil(lambda: controller.latest is not None and panel.stage == "predict",
                    timeout=WAIT_MS)  # fmt: skip
    qtbot.waitUntil(lambda: controller.latest.settings.ball, timeout=WAIT_MS)  # its scene
    question = panel.question
    correct = next(k for k, c in enumerate(question.prediction.choices) if c.correct)
    assert question.prediction.choices[correct].text == "Tens of units per second."
    panel.choice_buttons[correct].click()
    panel.lock_button.click()
    readouts = window.readouts_panel
    assert readouts.highlighted == "max_speed"
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=WAIT_MS)
    window.viewport.setFocus()
    qtbot.keyClick(window.viewport, Qt.Key.Key_Period)
    qtbot.waitUntil(lambda: controller.latest.steps == 1, timeout=WAIT_MS)
    # The frame clock hands the step's row to the readouts a moment later; until then the
    # label shows the row of step 0 (0.0 units/s, nothing has moved yet).
    qtbot.waitUntil(lambda: readouts.history.column("step")[-1:].tolist() == [1],
                    timeout=WAIT_MS)  # fmt: skip
    readouts.redraw()
    shown = readouts.value_labels[readouts.highlighted]
    value, unit = shown.text().split(" ", 1)
    assert unit == "units/s" and float(value) == pytest.approx(46.91, abs=0.01)
    assert 10 <= float(value) < 100  # tens of units per second
    assert float(readouts.value_labels["motion"].text().split()[0]) == pytest.approx(5.55, abs=0.01)


def test_progress_store_round_trip_and_a_corrupt_file(tmp_path, capsys):
    store = ProgressStore(tmp_path / "progress")
    assert store.answers("lab") == {}
    answer = Answer("13.6 units/s", True, "2025-01-31T14:05:09+01:00")
    store.record("lab", "terminal-speed", answer)
    store.record("lab", "drop", Answer("It stays", False, "2025-01-31T14:06:00+01:00"))
    again = ProgressStore(tmp_path / "progress")
    assert again.answers("lab")["terminal-speed"] == answer
    assert len(again.answers("lab")) == 2
    assert not list((tmp_path / "progress").glob(".*.tmp"))  # atomic writes leave no temp files
    store.file("lab").write_text("{not json")
    assert store.answers("lab") == {}
    assert (tmp_path / "progress" / "lab.json.corrupt").is_file()
    assert "unreadable progress file" in capsys.readouterr().err
    store.record("lab", "drop", answer)  # a fresh start after the corrupt one
    assert set(store.answers("lab")) == {"drop"}


def test_the_panel_shows_a_number_question_with_its_unit(qtbot):
    panel = QuestionsPanel(ProgressStore(Path(os.environ["XDG_DATA_HOME"]) / "p"))
    qtbot.addWidget(panel)
    panel.select([q.id for q in BUILTIN.questions].index("terminal-speed"))
    assert panel.number_box.suffix() == " units/s" and panel.number_box.shown_decimals == 1
    assert not panel.choice_buttons
    panel.select(0)
    assert len(panel.choice_buttons) == 3 and not panel.number_box.isVisibleTo(panel)


@pytest.mark.parametrize("question_id", ["drop", "seam-faces"])
def test_now_try_buttons_say_what_they_change(qtbot, question_id):
    panel = QuestionsPanel(ProgressStore(Path(os.environ["XDG_DATA_HOME"]) / "p"))
    qtbot.addWidget(panel)
    panel.select([q.id for q in BUILTIN.questions].index(question_id))
    question = BUILTIN.question(question_id)
    button = panel.now_try_buttons[0]
    assert button.text() == question.now_try[0].label
    assert "→" in button.toolTip()
    with qtbot.waitSignal(panel.command_requested) as blocker:
        button.click()
    suggestion = question.now_try[0]
    assert blocker.args == [ChangeSetting(suggestion.setting, suggestion.value)]


@pytest.mark.parametrize(
    ("old", "new"),
    [  # an OverflowError, not a dialog
        ('"value": 1.0', f'"value": {10**400}'),  # a "now try" value
        ('"set": {"friction_static": 1.0}', f'"set": {{"friction_static": {10**400}}}'),
    ],
)
def test_open_question_set_with_a_401_digit_setting_is_one_dialog(
    make_window, tmp_path, monkeypatch, old, new
):
    window = make_window("hanging-sheet", paused=True)
    panel = window.questions_panel
    before = panel.question_set
    text = (Path(__file__).resolve().parents[3] / "resources/questions/lab.json").read_text()
    assert old in text
    path = tmp_path / "hostile.json"
    path.write_text(text.replace(old, new, 1))
    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _p, title, text: shown.append((title, text)))
    assert not panel.open_set(path)
    assert len(shown) == 1 and shown[0][0] == "Cannot open question set"
    assert "an integer of about 400 digits" in shown[0][1] and "\n" not in shown[0][1]
    assert panel.question_set is before
