"""sim.document.folders: a folder replaced whole, never a mix of old and new files."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from clothlab.sim.document import folders
from clothlab.sim.document.files import FileRefusedError
from clothlab.sim.document.folders import AtomicFolder, remove_stale_folders


def is_frame(name: str) -> bool:
    return name.startswith("frame_")


def contents(folder: Path) -> dict[str, str]:
    return {path.name: path.read_text() for path in sorted(folder.iterdir())}


def hidden(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def a_dead_pid() -> int:
    process = subprocess.Popen(["true"])
    process.wait()
    return process.pid


def write(folder: AtomicFolder, files: dict[str, str]) -> None:
    for name, text in files.items():
        (folder.staging / name).write_text(text)
    folder.commit()


@pytest.mark.parametrize("exchange", [True, False], ids=["exchanged", "renamed aside"])
def test_the_folder_holds_only_the_new_files(tmp_path, monkeypatch, exchange):
    if not exchange:  # as on a system without renameat2
        monkeypatch.setattr(folders, "_exchange", lambda first, second: False)
    target = tmp_path / "out"
    write(AtomicFolder(target, is_frame), {f"frame_{k}": "old" for k in range(5)})
    target.chmod(0o750)
    write(AtomicFolder(target, is_frame), {"frame_0": "new", "frame_1": "new"})
    assert contents(target) == {"frame_0": "new", "frame_1": "new"}
    assert oct(target.stat().st_mode & 0o777) == oct(0o750)  # the user's folder's mode
    assert hidden(tmp_path) == []


def test_a_link_to_a_folder_stays_a_link(tmp_path):
    real, link = tmp_path / "real", tmp_path / "link"
    real.mkdir()
    (real / "frame_9").write_text("old")
    link.symlink_to(real)
    write(AtomicFolder(link, is_frame), {"frame_0": "new"})
    assert link.is_symlink() and contents(real) == {"frame_0": "new"}


def test_a_folder_holding_other_files_is_refused_and_kept(tmp_path):
    target = tmp_path / "out"
    target.mkdir()
    (target / "frame_0").write_text("old")
    (target / "notes.txt").write_text("mine")
    with pytest.raises(FileRefusedError, match=r"holds 'notes.txt'"):
        AtomicFolder(target, is_frame)
    assert contents(target) == {"frame_0": "old", "notes.txt": "mine"}
    assert hidden(tmp_path) == []


@pytest.mark.parametrize("existed", [True, False], ids=["folder of frames", "no folder"])
def test_files_added_during_the_write_are_never_deleted(tmp_path, existed):
    target = tmp_path / "out"
    if existed:
        target.mkdir()
    folder = AtomicFolder(target, is_frame)
    (folder.staging / "frame_0").write_text("new")
    target.mkdir(exist_ok=True)
    (target / "notes.txt").write_text("made while the run ran")
    with pytest.raises(FileRefusedError, match=r"holds 'notes.txt'"):
        folder.commit()
    assert contents(target) == {"notes.txt": "made while the run ran"}
    assert hidden(tmp_path) == []


def test_a_read_only_folder_is_refused_and_kept(tmp_path):
    target = tmp_path / "out"
    target.mkdir()
    (target / "frame_0").write_text("old")
    target.chmod(0o555)
    try:
        with pytest.raises(FileRefusedError, match=r"is read-only \(mode 0555\)"):
            AtomicFolder(target, is_frame)
        assert contents(target) == {"frame_0": "old"} and hidden(tmp_path) == []
    finally:
        target.chmod(0o755)


def test_a_folder_inside_a_read_only_folder_is_refused(tmp_path):
    """Root may write into a 0555 folder whatever its mode; a save of a file there is refused,
    and so is a folder of frames."""
    parent = tmp_path / "shut"
    parent.mkdir()
    parent.chmod(0o555)
    try:
        with pytest.raises(FileRefusedError, match=r"folder .*shut is read-only \(mode 0555\)"):
            AtomicFolder(parent / "frames", is_frame)
        assert list(parent.iterdir()) == []
    finally:
        parent.chmod(0o755)


def test_a_file_is_not_a_folder(tmp_path):
    (tmp_path / "out").write_text("a file")
    with pytest.raises(FileRefusedError, match="is a regular file, not a folder"):
        AtomicFolder(tmp_path / "out", is_frame)


def test_a_folder_set_aside_by_a_killed_write_is_put_back(tmp_path):
    """Renamed aside, then killed before the new one went in: no folder; the next write puts
    the old one back, removes the dead process's new folder and keeps a live process's."""
    dead = a_dead_pid()
    aside = tmp_path / f".out.{dead}.0123abcd.old"
    aside.mkdir()
    (aside / "frame_0").write_text("old")
    staged = tmp_path / f".out.{dead}.89abcdef.new"
    staged.mkdir()
    live = tmp_path / f".out.{os.getppid()}.00000000.new"
    live.mkdir()
    removed = remove_stale_folders(tmp_path / "out")
    assert sorted(removed) == sorted([aside.name, staged.name])
    assert contents(tmp_path / "out") == {"frame_0": "old"}
    assert hidden(tmp_path) == [live.name]
