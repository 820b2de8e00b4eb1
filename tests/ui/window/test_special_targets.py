"""Every file the app writes goes through the guarded writer: settings, the window layout, the
recovery file, question progress and the exports (readouts CSV, PNG screenshot, OBJ mesh,
video), each written through a symlink to a character device (a node of the test's own), a
FIFO, a socket, a folder and a read-only file. Each time the target is left as it was, nothing is
left beside it, and one line says why. As root, Qt's settings writer once replaced the device a
link named this way."""

from __future__ import annotations

import os
import stat
from datetime import datetime
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox
from qt_helpers import WAIT_MS
from special_targets import KINDS, REASONS, looks, make_special, unblocking

from clothlab.app.autosave import Autosaver
from clothlab.sim.document.files import FileRefusedError
from clothlab.ui.docks.questions_dock import Answer, ProgressStore
from clothlab.ui.window import preferences
from clothlab.ui.window.export import VideoSpec, VideoWriter


def test_the_special_files_are_the_tests_own(tmp_path):
    """Whatever a writer does through them, nothing outside the test's folder is reached."""
    for kind in KINDS:
        path = tmp_path / kind.replace(" ", "-")
        make_special(path, kind)
        assert Path(os.path.realpath(path)).is_relative_to(tmp_path), kind
        if kind == "link to a device":
            assert stat.S_ISCHR(os.stat(path).st_mode)
            with open(path, "wb") as device:  # the null device: what is written goes nowhere
                device.write(b"nothing")
    (tmp_path / "read-only-file").chmod(0o644)


def warnings(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("clothlab: warning:")]


@pytest.fixture
def dialogs(monkeypatch):
    """The user's answers to save dialogs (a list of paths, in order) and the warnings shown."""
    answers: list[Path] = []
    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", lambda *args, **kwargs: (str(answers.pop(0)), "")
    )
    monkeypatch.setattr(
        QMessageBox, "warning", lambda _parent, title, text, *args: shown.append((title, text))
    )
    return answers, shown


# --- settings and layout ------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_settings_through_a_special_file_stay_in_memory_with_one_warning(qapp, capfd, kind):
    file = preferences.settings_file()
    assert file is not None
    make_special(file, kind)
    before = looks(file)
    with unblocking(file):  # Qt opened a FIFO to read it, and waited for a writer
        preferences.store_preferences(preferences.Preferences(plot_window_s=45, theme="dark"))
        preferences.add_recent_file(Path("/somewhere/scene.json"))
        preferences.settings().sync()
    assert looks(file) == before
    said = warnings(capfd.readouterr().err)
    assert said == [
        f"clothlab: warning: settings file {file}: {REASONS[kind]}; "
        "settings are kept for this session only"
    ]
    # for the rest of the session, the settings are what was set
    assert preferences.theme() == "dark" and preferences.plot_window_s() == 45
    assert preferences.recent_files() == [str(Path("/somewhere/scene.json").resolve())]


def test_a_read_only_settings_file_is_read_but_never_written(qapp, capfd):
    file = preferences.settings_file()
    assert file is not None
    file.parent.mkdir(parents=True)
    file.write_text("[preferences]\ntheme=dark\nplot_window_s=30\n")
    file.chmod(0o444)
    before = looks(file)
    preferences.set_theme("light")
    assert preferences.plot_window_s() == 30  # what the file holds, read
    assert preferences.theme() == "light"  # what was set, kept in memory
    preferences.settings().sync()
    assert looks(file) == before
    assert len(warnings(capfd.readouterr().err)) == 1


@pytest.mark.parametrize("kind", ["FIFO", "link to a device"])
def test_a_special_lock_beside_the_settings_file_keeps_qt_from_writing(qapp, capfd, kind):
    """Qt takes `Cloth Lab.conf.lock` to write, and reads a lock it finds: a FIFO blocks."""
    file = preferences.settings_file()
    assert file is not None
    lock = Path(f"{file}.lock")
    make_special(lock, kind)
    before = looks(lock)
    with unblocking(lock):
        preferences.set_theme("dark")
        preferences.settings().sync()
    assert looks(lock) == before and not file.exists()
    assert warnings(capfd.readouterr().err) == [
        f"clothlab: warning: settings file {file}: its lock file {lock} {REASONS[kind]}; "
        "settings are kept for this session only"
    ]
    assert preferences.theme() == "dark"


def test_a_settings_file_qt_can_write_is_written(qapp, capfd):
    """The guard keeps Qt's own store where it may write: the same file Qt would choose."""
    from PySide6.QtCore import QSettings

    file = preferences.settings_file()
    assert str(file) == QSettings(preferences.ORGANIZATION, preferences.APPLICATION).fileName()
    preferences.set_theme("dark")
    preferences.settings().sync()
    assert "theme=dark" in file.read_text()
    assert capfd.readouterr().err == ""


def test_the_window_layout_is_not_written_through_special_files(make_window, capfd):
    window = make_window()
    file = preferences.settings_file()
    assert file is not None
    for kind in KINDS:
        remove_special(file)
        preferences.forget_session_settings()
        make_special(file, kind)
        before = looks(file)
        capfd.readouterr()
        with unblocking(file):
            window.save_layout()
            preferences.settings().sync()
        assert looks(file) == before, kind
        assert warnings(capfd.readouterr().err) == [
            f"clothlab: warning: settings file {file}: {REASONS[kind]}; "
            "settings are kept for this session only"
        ], kind
        assert preferences.restore_window(window), kind  # from the session's memory


def remove_special(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        for child in path.iterdir():
            child.unlink()
        path.rmdir()
    elif os.path.lexists(path):
        path.unlink()


# --- the recovery file and question progress ----------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_the_recovery_file_is_not_written_through_a_special_file(
    make_controller, qtbot, capfd, kind
):
    controller = make_controller("hanging-sheet")
    autosaver = Autosaver(controller, interval_s=3600)
    failures: list[str] = []
    autosaver.failed.connect(failures.append)
    autosaver.folder.mkdir(parents=True, exist_ok=True)
    make_special(autosaver.file, kind)
    before = looks(autosaver.file)
    controller.set_setting("wind", 3.0)
    qtbot.waitUntil(lambda: not controller.undo_stack.isClean(), timeout=WAIT_MS)
    with unblocking(autosaver.file):
        assert not autosaver.autosave()
    autosaver.finish()  # as on closing: removes this run's lock and only a file it wrote
    controller.undo_stack.cleanChanged.disconnect(autosaver._clean_changed)
    assert looks(autosaver.file) == before
    line = f"autosave to {autosaver.file} failed: {REASONS[kind]}"
    assert failures == [line]
    assert warnings(capfd.readouterr().err) == [f"clothlab: warning: {line}"]


@pytest.mark.parametrize("kind", KINDS)
def test_question_progress_is_not_written_or_moved_through_a_special_file(
    qapp, tmp_path, capfd, kind
):
    store = ProgressStore(tmp_path / "progress")
    file = store.file("pendulum")
    earlier = Answer("2 s", False, datetime.now().isoformat())
    if kind == "read-only file":  # one that holds answers, so that it is read, not set aside
        store.record("pendulum", "q0", earlier)
        file.chmod(0o444)
    else:
        make_special(file, kind)
    before = looks(file)
    with unblocking(file):
        saved = store.record("pendulum", "q1", Answer("3 s", True, datetime.now().isoformat()))
        answers = store.answers("pendulum")
    assert not saved
    assert answers == ({"q0": earlier} if kind == "read-only file" else {})
    assert looks(file) == before  # not replaced, and not set aside
    said = warnings(capfd.readouterr().err)
    # not read (a special file) and not written; each said once, however often it is read
    assert len(said) == (1 if kind == "read-only file" else 2)
    assert all(str(file) in line and REASONS[kind] in line for line in said)


# --- exports ------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_the_app_exports_nothing_through_a_special_file(
    make_window, qtbot, dialogs, tmp_path, kind
):
    """File ▸ Export readouts (CSV), Save screenshot (PNG) and Export mesh (OBJ)."""
    answers, shown = dialogs
    window = make_window()
    qtbot.waitUntil(lambda: window.controller.latest is not None, timeout=WAIT_MS)
    exports = {
        "readouts.csv": window.files.export_readouts,
        "window.png": window.files.save_screenshot_dialog,  # QImage.save wrote into anything
        "mesh.obj": window.exporter.export_mesh,
    }
    for name, export in exports.items():
        target = tmp_path / name
        make_special(target, kind)
        before = looks(target)
        answers.append(target)
        with unblocking(target):
            export()
        assert looks(target) == before, name
        assert len(shown) == 1 and shown[0][1] == f"{target}: {REASONS[kind]}", (name, shown)
        shown.clear()


@pytest.mark.parametrize("kind", KINDS)
def test_a_video_is_not_started_through_a_special_file(qapp, tmp_path, kind):
    target = tmp_path / "run.mp4"
    make_special(target, kind)
    before = looks(target)
    with pytest.raises(FileRefusedError) as refused:
        VideoWriter(target, VideoSpec(64, 64, 30, 1.0, "mp4"))
    assert str(refused.value) == REASONS[kind]
    assert looks(target) == before
