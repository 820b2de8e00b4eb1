"""One line that names the file on a full disk, and one line without a display:
`--obj-dir` and `--video` said "No space left on device" and not where (a write(2) error
names no file); the app launched without a display aborted with 7 lines of Qt's (exit 134)."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest

from clothlab.app import cli, gui

ROOT = Path(__file__).resolve().parents[2]
FULL = "No space left on device"


@pytest.fixture
def full_disk(monkeypatch):
    """Every write(2) to a file fails as on a full disk (the terminal's still work)."""
    write = os.write

    def write_to_a_full_disk(fd: int, data: bytes) -> int:
        if fd > 2:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return write(fd, data)

    monkeypatch.setattr(os, "write", write_to_a_full_disk)


def test_obj_dir_on_a_full_disk_names_the_frame(full_disk, tmp_path, capsys):
    out = tmp_path / "frames"
    code = cli.main(["run", "hanging-sheet", "--steps", "10", "--obj-dir", str(out)])
    assert code == 2
    assert capsys.readouterr().err == f"clothlab: error: {out / 'frame_0000.obj'}: {FULL}\n"
    assert not out.exists() and os.listdir(tmp_path) == []  # and nothing left behind


def test_video_on_a_full_disk_names_the_video(qapp, full_disk, tmp_path, capsys):
    video = tmp_path / "run.mp4"
    args = ["run", "hanging-sheet", "--steps", "10", "--video", str(video), "--video-size", "64x64"]
    assert cli.main(args) == 2
    assert capsys.readouterr().err == f"clothlab: error: {video}: {FULL}\n"
    assert os.listdir(tmp_path) == []


def test_the_app_without_a_display_says_so_in_one_line():
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}  # fmt: skip
    result = subprocess.run(
        [sys.executable, "-m", "clothlab.app.main", "hanging-sheet"], cwd=ROOT, env=env,
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 2  # was -6 (134 in a shell): Qt's abort
    assert result.stderr == f"clothlab: error: {gui.NO_DISPLAY}\n"


@pytest.mark.parametrize(
    ("environment", "missing"),
    [
        ({}, True),
        ({"DISPLAY": ":99"}, False),
        ({"WAYLAND_DISPLAY": "wayland-0"}, False),
        ({"QT_QPA_PLATFORM": "xcb"}, True),
        ({"QT_QPA_PLATFORM": "xcb", "WAYLAND_DISPLAY": "wayland-0"}, True),
        ({"QT_QPA_PLATFORM": "wayland;xcb", "DISPLAY": ":99"}, False),
        ({"QT_QPA_PLATFORM": "offscreen"}, False),
        ({"QT_QPA_PLATFORM": "vnc:size=800x600"}, False),
    ],
)
def test_a_display_is_found_as_qt_would_find_one(monkeypatch, environment, missing):
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    assert gui.no_display() is missing
