"""The real app killed mid-lesson (SIGKILL, no cleanup), launched again: the
student is back where they were — the set, the question, class mode and the locked prediction."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from clothlab.app.lesson_keeper import lesson_json, parse_lesson
from clothlab.sim.lab.questions import (
    QuestionSetSpec,
    Sealed,
    load_question_set,
    save_shared_set,
    sealed_for_class,
)
from tests.app.test_autosave import ROOT, app_env

QUESTION = {
    "title": "Sag", "scene": "hanging-sheet", "question": "Does it sag?",
    "watch": "Watch Sag.", "evidence": "sag", "explanation": "It sags a little.",
    "prediction": {"choices": [{"text": "Yes", "correct": True}, {"text": "No"}]},
    "now_try": [],
    "checks": [{"claim": "it sags", "steps": 30,
                "expect": {"readout": "sag", "op": ">", "value": 0.001}}],
}  # fmt: skip

# The real app: opens the set, goes to its second question, loads the scene, locks "No" (wrong),
# says so and waits to be killed.
LOCK_AND_WAIT = textwrap.dedent(
    """
    import os, sys
    from PySide6.QtCore import QTimer
    from clothlab.ui.window.main_window import MainWindow
    from clothlab.app import gui

    show = MainWindow.show

    def show_and_lock(window):
        show(window)
        panel = window.questions_panel

        def begin():
            panel.open_set(os.environ["LESSON_SET"])
            panel.select(1)
            panel.start_button.click()
            QTimer.singleShot(100, lock)

        def lock():
            if panel.stage != "predict":
                QTimer.singleShot(100, lock)
                return
            panel.store.set_student(panel.question_set.id, "Ana")  # as if asked before
            panel.choice_buttons[1].click()
            panel.lock_button.click()
            print("locked", flush=True)

        QTimer.singleShot(300, begin)

    MainWindow.show = show_and_lock
    sys.exit(gui.main(["hanging-sheet"]))
    """
)

# The real app again: once the lesson is back it reports what it sees, then quits as a person
# does (closing the window).
REPORT_AND_CLOSE = textwrap.dedent(
    """
    import json, sys, time
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QMessageBox
    from clothlab.ui.window.main_window import MainWindow
    from clothlab.app import gui

    QMessageBox.question = lambda *a, **k: QMessageBox.StandardButton.Discard
    show = MainWindow.show
    ends = time.monotonic() + 60

    def show_and_report(window):
        show(window)
        panel = window.questions_panel

        def report():
            if panel.stage == "start" and time.monotonic() < ends:
                QTimer.singleShot(100, report)
                return
            print(json.dumps({
                "set": panel.set_label.text(), "question": panel.index, "stage": panel.stage,
                "scene": window.controller.scene.name,
                "parameters_hidden": window.parameters_dock.isHidden(),
                "leave_enabled": window.action_leave_class_mode.isEnabled(),
                "checked": [b.isChecked() for b in panel.choice_buttons],
                "enabled": [b.isEnabled() for b in panel.choice_buttons],
            }), flush=True)
            window.close()

        QTimer.singleShot(0, report)

    MainWindow.show = show_and_report
    sys.exit(gui.main(["hanging-sheet"]))
    """
)


def class_set(folder: Path) -> Path:
    spec = QuestionSetSpec.model_validate({
        "id": "class-9c", "title": "Class 9c",
        "questions": [{**QUESTION, "id": "first"}, {**QUESTION, "id": "second"}],
        "class_mode": {"hide": ["parameters"]},
    })  # fmt: skip
    path = folder / "class-9c.json"
    save_shared_set(sealed_for_class(spec, Sealed.of("owl", stretch=True)), {}, path)
    return path


def lessons(folder: Path) -> list[Path]:
    return sorted(folder.glob("lesson-*.json"))


def test_a_lesson_killed_mid_question_comes_back_on_the_next_launch(qapp, tmp_path):
    path = class_set(tmp_path)
    assert load_question_set(path).spec.class_mode is not None
    env = app_env(tmp_path, LESSON_SET=str(path))
    folder = tmp_path / "data" / "ClothLab" / "Cloth Lab" / "recovery"
    first = subprocess.Popen(
        [sys.executable, "-c", LOCK_AND_WAIT], cwd=ROOT, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert first.stdout is not None
        assert first.stdout.readline().strip() == "locked", first.stderr
        deadline = time.monotonic() + 60
        while not lessons(folder):
            assert time.monotonic() < deadline, "no lesson file appeared"
            time.sleep(0.1)
        state = parse_lesson(lessons(folder)[0].read_bytes())
        assert state == {"set": {"path": str(path.resolve())}, "question": "second",
                         "class_mode": True, "scene": True}  # fmt: skip
    finally:
        first.send_signal(signal.SIGKILL)  # a crash: no cleanup runs
        first.communicate(timeout=60)

    second = subprocess.run(
        [sys.executable, "-c", REPORT_AND_CLOSE], cwd=ROOT, env=env,
        capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert second.returncode == 0, second.stderr
    report = json.loads(second.stdout.strip().splitlines()[-1])
    assert report == {
        "set": "Class 9c", "question": 1, "stage": "watch", "scene": "Hanging sheet",
        "parameters_hidden": True, "leave_enabled": True,
        "checked": [False, True], "enabled": [False, False],  # "No", locked
    }  # fmt: skip
    # closed in the teacher's class mode: the next start opens the lesson again
    (kept,) = lessons(folder)
    assert parse_lesson(kept.read_bytes())["class_mode"] is True
    assert list(folder.glob("lesson-*.lock")) == []


def test_a_lesson_file_that_is_not_one_is_refused_with_a_reason():
    good = {"set": {"builtin": "lab"}, "question": "drop", "class_mode": False, "scene": True}
    assert parse_lesson(lesson_json(good)) == good
    for bad, words in [
        ({**good, "set": {"path": 3}}, "set: path"),
        ({**good, "question": "../x"}, "question"),
        ({**good, "extra": 1}, "expected the keys"),
    ]:
        try:
            parse_lesson(lesson_json(bad))
        except ValueError as error:
            assert words in str(error)
        else:
            raise AssertionError(bad)
