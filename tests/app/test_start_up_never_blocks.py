"""Nothing the app reads at start-up blocks: a settings file that was a FIFO
blocked before any window appeared (QSettings reads it as it is made), and a recovery file's
lock that was a FIFO froze the window (QLockFile reads a lock it finds). Each case runs the real
app in another process, with a time limit, and it has to start and close normally."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

from clothlab.app import autosave
from clothlab.sim.document.presets import load_preset

ROOT = Path(__file__).resolve().parents[2]
LIMIT_S = 120  # a start-up takes a few seconds; a blocked one never ends

# The real app (app.gui.main) on hanging-sheet; once its window shows, it says so and closes.
START_AND_CLOSE = textwrap.dedent(
    """
    import sys
    from PySide6.QtCore import QTimer
    from clothlab.ui.window.main_window import MainWindow
    from clothlab.app import gui

    show = MainWindow.show

    def show_and_close(window):
        show(window)
        print("started", flush=True)
        QTimer.singleShot(300, window.close)

    MainWindow.show = show_and_close
    sys.exit(gui.main(["hanging-sheet"]))
    """
)


def start(tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PYQTGRAPH_QT_LIB": "PySide6",
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
    }
    env.pop("QT_QPA_PLATFORM", None)  # the real platform (Xvfb): the viewport needs OpenGL
    env.pop(autosave.CHOICE_ENV, None)
    return subprocess.run(
        [sys.executable, "-c", START_AND_CLOSE], cwd=ROOT, env=env,
        capture_output=True, text=True, timeout=LIMIT_S,
    )  # fmt: skip


def warnings(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("clothlab: warning:")]


def is_fifo(path: Path) -> bool:
    return stat.S_ISFIFO(os.lstat(path).st_mode)


def start_with_fifo(fifo: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """Make `fifo` (and its folder), run the app: it must start, show and close normally."""
    fifo.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(fifo)
    started = start(tmp_path)
    assert started.returncode == 0, started.stderr
    assert started.stdout.splitlines() == ["started"]
    return started


def test_the_app_starts_with_a_fifo_for_its_settings_file(tmp_path):
    file = tmp_path / "config" / "ClothLab" / "Cloth Lab.conf"
    started = start_with_fifo(file, tmp_path)
    assert warnings(started.stderr) == [
        f"clothlab: warning: settings file {file}: is a FIFO (named pipe), not a regular file; "
        "settings are kept for this session only"
    ]
    assert is_fifo(file)


def test_the_app_starts_and_closes_with_a_fifo_for_its_settings_lock(tmp_path):
    """Qt takes the lock to write the settings as the window closes."""
    lock = tmp_path / "config" / "ClothLab" / "Cloth Lab.conf.lock"
    started = start_with_fifo(lock, tmp_path)
    assert len(warnings(started.stderr)) == 1 and "is a FIFO" in started.stderr
    assert is_fifo(lock)


def test_the_app_starts_with_a_fifo_for_the_organizations_settings_file(tmp_path):
    """QSettings(organization, application) also reads ClothLab.conf beside the folder."""
    started = start_with_fifo(tmp_path / "config" / "ClothLab.conf", tmp_path)
    assert warnings(started.stderr) == []  # never read: the app's own file is named
    assert (tmp_path / "config" / "ClothLab" / "Cloth Lab.conf").is_file()  # written


def test_the_app_starts_with_a_fifo_for_the_users_fabrics(tmp_path):
    fabrics = tmp_path / "data" / "ClothLab" / "Cloth Lab" / "fabrics.json"
    started = start_with_fifo(fabrics, tmp_path)
    assert warnings(started.stderr) == [
        f"clothlab: warning: fabrics file {fabrics} not read: is a FIFO (named pipe), not a "
        "regular file"
    ]
    assert is_fifo(fabrics)  # left where it was, not set aside


def test_the_app_starts_with_a_fifo_for_a_recovery_files_lock(tmp_path):
    folder = tmp_path / "data" / "ClothLab" / "Cloth Lab" / "recovery"
    folder.mkdir(parents=True)
    recovery = folder / "autosave-999999-1.json"
    recovery.write_bytes(autosave.recovery_payload(load_preset("hanging-sheet"), None))
    lock = recovery.with_suffix(".lock")
    started = start_with_fifo(lock, tmp_path)
    assert warnings(started.stderr) == [
        f"clothlab: warning: recovery file {recovery} skipped: its lock {lock} is a FIFO "
        "(named pipe), not a regular file"
    ]
    assert is_fifo(lock) and recovery.is_file()  # both left as they were
