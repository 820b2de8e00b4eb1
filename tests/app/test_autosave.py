"""Autosave and crash recovery: the recovery file follows unsaved changes, a corrupt one is set
aside with one line, and a killed app's edits come back on the next launch."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import threading
import time
from datetime import datetime
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox
from qt_helpers import WAIT_MS

from clothlab.app import autosave
from clothlab.app.autosave import Autosaver, offer_recovery, read_recovery, recovery_folder
from clothlab.app.controller import Controller
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.scene import load_scene, scene_json

ROOT = Path(__file__).resolve().parents[2]
TICK_S = 0.05

# make_window (a real window and controller on hanging-sheet, closed answering Discard and shut
# down after the test): tests/conftest.py


def autosave_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("autosave-*.json"))


def plant(folder: Path, wind: float = 3.0, path: Path | None = None) -> Path:
    """A recovery file as a killed run leaves it: no process holds its lock."""
    scene = load_preset("hanging-sheet")
    scene = scene.model_copy(update={"wind": scene.wind.model_copy(update={"strength": wind})})
    folder.mkdir(parents=True, exist_ok=True)
    file = folder / "autosave-999999-1.json"
    file.write_bytes(autosave.recovery_payload(scene, path, datetime(2024, 5, 1, 14, 5)))
    return file


def test_recovery_folder_follows_xdg_data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert recovery_folder() == tmp_path / "ClothLab" / "Cloth Lab" / "recovery"


def test_interval_comes_from_the_environment(monkeypatch, capsys):
    monkeypatch.delenv(autosave.INTERVAL_ENV, raising=False)
    assert autosave.autosave_interval() == 60.0
    monkeypatch.setenv(autosave.INTERVAL_ENV, "1.5")
    assert autosave.autosave_interval() == 1.5
    monkeypatch.setenv(autosave.INTERVAL_ENV, "soon")
    assert autosave.autosave_interval() == 60.0
    assert capsys.readouterr().err.count("\n") == 1


def test_writes_only_while_there_are_unsaved_changes(make_window, qtbot, tmp_path):
    window = make_window()
    controller = window.controller
    autosaver = Autosaver(controller, window.viewport.camera_spec, interval_s=TICK_S)
    folder = autosaver.folder

    qtbot.waitUntil(lambda: autosaver.ticks >= 3, timeout=WAIT_MS)
    assert autosave_files(folder) == []  # nothing unsaved, nothing written

    controller.set_setting("wind", 3.0)
    qtbot.waitUntil(lambda: autosaver.file.exists(), timeout=WAIT_MS)
    recovery = read_recovery(autosaver.file)
    assert recovery.scene.wind.strength == 3.0
    assert recovery.path is None
    assert recovery.scene.camera == window.viewport.camera_spec()
    raw = json.loads(autosaver.file.read_text())
    assert raw["format"] == "clothlab-recovery" and raw["version"] == 1
    # This run holds the file: it is not offered as a crashed run's.
    assert Autosaver(controller, interval_s=3600).pending_recovery() is None

    saved = tmp_path / "mine.json"
    assert window.files.save_to(saved)
    assert not autosaver.file.exists()  # saved: nothing to recover
    ticks = autosaver.ticks
    qtbot.waitUntil(lambda: autosaver.ticks >= ticks + 3, timeout=WAIT_MS)
    assert autosave_files(folder) == []

    controller.set_setting("wind", 5.0)
    qtbot.waitUntil(lambda: autosaver.file.exists(), timeout=WAIT_MS)
    assert read_recovery(autosaver.file).path == saved.resolve()
    controller.undo_stack.undo()  # back to the saved state
    assert controller.undo_stack.isClean()
    assert not autosaver.file.exists()
    autosaver.finish()


def test_clean_close_removes_the_recovery_file(make_window, qtbot):
    window = make_window()
    autosaver = Autosaver(window.controller, window.viewport.camera_spec, interval_s=TICK_S)
    window.controller.set_setting("wind", 3.0)
    qtbot.waitUntil(lambda: autosaver.file.exists(), timeout=WAIT_MS)
    window.close()  # unsaved: the fixture answers Discard, as app.gui.run then calls finish()
    assert not window.isVisible()
    autosaver.finish()
    assert autosave_files(autosaver.folder) == []
    assert list(autosaver.folder.glob("*.lock")) == []


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"{not json", "not valid JSON"),
        (b"\xff\xfe\x00", "not UTF-8"),
        (b'{"format": "clothlab-scene"}', "format"),
        (b"[1, 2]", "format"),
        (
            b'{"format": "clothlab-recovery", "version": 1, "saved_at": "2024-05-01T14:05:00",'
            b' "path": null, "scene": {"format": "clothlab-scene", "schema_version": 1,'
            b' "wind": {"strength": "lots"}}}',
            "wind.strength",
        ),
        (
            b'{"format": "clothlab-recovery", "version": 1, "saved_at": "yesterday",'
            b' "path": null, "scene": {}}',
            "saved_at",
        ),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        *(  # past the datetime range in UTC or in local time
            (
                b'{"format": "clothlab-recovery", "version": 1, "saved_at": "%s",'
                b' "path": null, "scene": {"format": "clothlab-scene", "schema_version": 1}}'
                % when.encode(),
                f"saved_at: {when} is out of range",
            )
            for when in ("9999-12-31T23:59:59-14:00", "0001-01-01T00:00:00+14:00")
        ),
    ],
)
def test_a_corrupt_recovery_file_gives_one_line_and_is_set_aside(qapp, capsys, content, reason):
    folder = recovery_folder()
    folder.mkdir(parents=True)
    file = folder / "autosave-999999-1.json"
    file.write_bytes(content)
    autosaver = Autosaver(Controller(), interval_s=3600)
    try:
        assert autosaver.pending_recovery() is None
    finally:
        autosaver.controller.shutdown()
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert err.startswith("clothlab: warning: unreadable recovery file")
    assert str(file) in err and reason in err
    assert not file.exists()
    assert (folder / "autosave-999999-1.json.corrupt").read_bytes() == content  # kept


@pytest.mark.parametrize("garbage", ["garbage", '"saved_at": "9999-12-31T23:59:59-14:00"'])
def test_a_corrupt_file_does_not_hide_an_older_good_one(qapp, capsys, garbage):
    folder = recovery_folder()
    good = plant(folder)
    os.utime(good, (1, 1))
    if garbage.startswith('"saved_at"'):  # the good file, but saved out of the datetime range
        garbage = re.sub(r'"saved_at": "[^"]*"', garbage, good.read_text())
    (folder / "autosave-999998-2.json").write_text(garbage)
    autosaver = Autosaver(Controller(), interval_s=3600)
    try:
        recovery = autosaver.pending_recovery()
    finally:
        autosaver.controller.shutdown()
    assert recovery is not None and recovery.file == good
    assert capsys.readouterr().err.count("\n") == 1


@contextlib.contextmanager
def unblocking(fifo: Path, after_s: float = 10.0):
    """If a reader still blocks on `fifo` after `after_s`, open and close its other end: code
    that would hang a launch then fails the test instead of hanging it."""
    done = threading.Event()

    def release() -> None:
        if not done.wait(after_s):
            with contextlib.suppress(OSError):  # ENXIO: nobody is reading it, as it should be
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))

    watchdog = threading.Thread(target=release, daemon=True)
    watchdog.start()
    try:
        yield
    finally:
        done.set()
        watchdog.join()


def test_a_fifo_in_the_recovery_folder_is_skipped_without_blocking(qapp, capsys):
    """A FIFO named like a recovery file, newer than a good one, would block every launch."""
    folder = recovery_folder()
    good = plant(folder)
    os.utime(good, (1, 1))
    fifo = folder / "autosave-999997-3.json"
    os.mkfifo(fifo)
    autosaver = Autosaver(Controller(), interval_s=3600)
    try:
        with unblocking(fifo):
            recovery = autosaver.pending_recovery()
    finally:
        autosaver.controller.shutdown()
    assert recovery is not None and recovery.file == good
    assert fifo.exists() and not fifo.with_name(f"{fifo.name}.corrupt").exists()  # left alone
    assert capsys.readouterr().err == ""


def test_reading_a_fifo_as_a_recovery_file_is_refused_without_opening_it(tmp_path):
    fifo = tmp_path / "autosave-1-1.json"
    os.mkfifo(fifo)
    with unblocking(fifo), pytest.raises(OSError, match="FIFO"):
        read_recovery(fifo)


def test_a_recovery_file_holds_the_scene_as_compactly_as_a_scene_file():
    """Every scene that saves can be recovered: the recovery file holds the scene as a scene
    file writes it, compact lists and all."""
    scene = load_preset("hanging-sheet").model_copy(update={"cuts": list(range(584))})
    payload = autosave.recovery_payload(scene, None)
    assert len(payload) < len(scene_json(scene)) + 200
    file_lines = payload.decode().splitlines()
    assert sum('"cuts": [0,1,2,' in line for line in file_lines) == 1


def click_when_shown(qtbot, button_text: str, seen: list[str]) -> None:
    """Click a button of the recovery box once it is up (exec() blocks the test until then)."""

    def click() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(50, click)
            return
        seen.append(box.text())
        button = next(b for b in box.buttons() if b.text().replace("&", "") == button_text)
        button.click()

    QTimer.singleShot(0, click)


def test_recover_from_the_box_loads_a_modified_document_that_saves_to_its_file(
    make_window, qtbot, tmp_path
):
    original = tmp_path / "curtain.json"
    planted = plant(recovery_folder(), wind=3.0, path=original)
    window = make_window()
    controller = window.controller
    autosaver = Autosaver(controller, window.viewport.camera_spec, interval_s=3600)
    seen: list[str] = []
    click_when_shown(qtbot, "Recover", seen)

    assert offer_recovery(window, autosaver) == "recover"
    assert seen == ["Recover unsaved changes to “Hanging sheet” from 2024-05-01 14:05?"]
    assert controller.scene.wind.strength == 3.0
    assert controller.settings.wind == 3.0
    assert controller.path == original
    assert not controller.undo_stack.isClean()
    assert window.isWindowModified() and "[*]" in window.windowTitle()
    # This run's autosave holds the document now; the crashed run's file is gone.
    assert autosave_files(autosaver.folder) == [autosaver.file]
    assert not planted.exists()

    assert window.files.save()  # to the original path, no dialog
    assert load_scene(original).wind.strength == 3.0
    assert not window.isWindowModified()
    assert autosave_files(autosaver.folder) == []
    autosaver.finish()


def test_discard_from_the_box_deletes_the_file_and_keeps_the_document(make_window, qtbot):
    planted = plant(recovery_folder())
    window = make_window()
    autosaver = Autosaver(window.controller, interval_s=3600)
    click_when_shown(qtbot, "Discard", [])
    assert offer_recovery(window, autosaver) == "discard"
    assert not planted.exists()
    assert window.controller.scene.wind.strength == 0.0
    assert window.controller.undo_stack.isClean()
    autosaver.finish()


def test_the_environment_answers_without_a_box(make_window, monkeypatch):
    monkeypatch.setattr(QMessageBox, "exec", lambda self: pytest.fail("asked"))
    window = make_window()
    autosaver = Autosaver(window.controller, interval_s=3600)
    assert offer_recovery(window, autosaver) is None  # nothing to recover: nothing asked
    monkeypatch.setenv(autosave.CHOICE_ENV, "recover")
    plant(recovery_folder(), wind=7.0)
    assert offer_recovery(window, autosaver) == "recover"
    assert window.controller.scene.wind.strength == 7.0
    assert window.isWindowModified()
    autosaver.finish()


# --- end to end: kill the real app, launch it again -----------------------------------------

# Runs the real app (app.gui.main) and, once its window shows, makes an edit through the
# controller as the Wind slider would.
EDIT_AND_WAIT = textwrap.dedent(
    """
    import sys
    from PySide6.QtCore import QTimer
    from clothlab.ui.window.main_window import MainWindow
    from clothlab.app import gui

    show = MainWindow.show

    def show_and_edit(window):
        show(window)
        QTimer.singleShot(200, lambda: window.controller.set_setting("wind", 3.0))

    MainWindow.show = show_and_edit
    sys.exit(gui.main(["hanging-sheet"]))
    """
)

# Runs the real app again; once the document is recovered it reports what it sees, then quits
# the way a person does (closing the window, answering Discard to "Save the changes?").
REPORT_AND_CLOSE = textwrap.dedent(
    """
    import json, sys
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QMessageBox
    from clothlab.ui.window.main_window import MainWindow
    from clothlab.app import autosave, gui

    QMessageBox.question = lambda *a, **k: QMessageBox.StandardButton.Discard
    show = MainWindow.show

    def show_and_report(window):
        show(window)

        def report():
            controller = window.controller
            if controller.scene.wind.strength != 3.0:
                QTimer.singleShot(100, report)
                return
            folder = autosave.recovery_folder()
            print(json.dumps({
                "wind": controller.settings.wind,
                "modified": window.isWindowModified(),
                "clean": controller.undo_stack.isClean(),
                "path": None if controller.path is None else str(controller.path),
                "files": sorted(f.name for f in folder.glob("autosave-*.json")),
            }), flush=True)
            window.close()

        QTimer.singleShot(0, report)

    MainWindow.show = show_and_report
    sys.exit(gui.main(["hanging-sheet"]))
    """
)


def app_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {
        **os.environ,
        "PYQTGRAPH_QT_LIB": "PySide6",
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        **extra,
    }
    env.pop("QT_QPA_PLATFORM", None)  # the real platform (Xvfb): the viewport needs OpenGL
    return env


def test_a_killed_processs_autosave_is_offered_and_restores_the_edits(qapp, tmp_path):
    env = app_env(tmp_path, CLOTHLAB_AUTOSAVE_SECONDS="0.5")
    env.pop(autosave.CHOICE_ENV, None)
    folder = tmp_path / "data" / "ClothLab" / "Cloth Lab" / "recovery"
    first = subprocess.Popen(
        [sys.executable, "-c", EDIT_AND_WAIT], cwd=ROOT, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 180
        while not autosave_files(folder):
            assert first.poll() is None, first.communicate()
            assert time.monotonic() < deadline, "no autosave appeared"
            time.sleep(0.1)
        written = autosave_files(folder)[0]
        assert read_recovery(written).scene.wind.strength == 3.0
    finally:
        first.send_signal(signal.SIGKILL)  # a crash: no cleanup runs
        first.communicate(timeout=60)
    assert first.returncode == -signal.SIGKILL
    assert autosave_files(folder) == [written]  # left behind

    second = subprocess.run(
        [sys.executable, "-c", REPORT_AND_CLOSE], cwd=ROOT,
        env={**env, autosave.CHOICE_ENV: "recover"}, capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert second.returncode == 0, second.stderr
    report = json.loads(second.stdout.strip().splitlines()[-1])
    assert report["wind"] == 3.0
    assert report["modified"] is True and report["clean"] is False
    assert report["path"] is None  # a preset: Save will ask where
    # While recovered, only the second run's own autosave exists; the killed run's is gone.
    assert len(report["files"]) == 1 and report["files"] != [written.name]
    # A clean close leaves nothing to recover.
    assert autosave_files(folder) == []
    assert list(folder.glob("*.lock")) == []
