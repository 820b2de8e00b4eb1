"""What a killed writer leaves is cleaned up by the next one: 50 SIGKILLs
left autosave temporary files (each run saves to a new name, so a save's own clean-up never met
them) and `/tmp/clothlab-video-*` folders. Every such name holds its process's id, and a writer
removes those of processes that are gone, never a live one's. Each test kills a real process
mid-write, runs the writer again, and looks. (`--obj-dir`'s staging folders: sim.document.folders,
tests/sim/document/test_folders.py.)"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from clothlab.app.autosave import Autosaver, recovery_folder
from clothlab.app.controller import Controller
from clothlab.ui.window.export import VIDEO_TEMP_PREFIX

ROOT = Path(__file__).resolve().parents[2]
LIMIT_S = 180

# Holds a save open, half written, and says where its temporary file is.
HALF_SAVED = textwrap.dedent(
    """
    import sys, time
    from clothlab.sim.document.files import AtomicFile

    file = AtomicFile(sys.argv[1])
    file.write(b"{" * 200_000)
    print(file.temporary, flush=True)
    time.sleep(600)
    """
)

# Holds a writer's folder, as one still at work does, and says where it is.
FOLDER_IN_USE = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from clothlab.sim.document.files import make_temp_folder

    print(make_temp_folder(Path(sys.argv[1]), sys.argv[2]), flush=True)
    time.sleep(600)
    """
)


@pytest.fixture
def processes() -> Iterator[Callable[..., subprocess.Popen[str]]]:
    """start(*args, env=None): a Python process of ours, killed at the end if still running."""
    started: list[subprocess.Popen[str]] = []

    def start(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
        process = subprocess.Popen(
            [sys.executable, *args], cwd=ROOT, env=env, text=True,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )  # fmt: skip
        started.append(process)
        return process

    yield start
    for process in started:
        if process.poll() is None:
            process.kill()
        process.communicate(timeout=LIMIT_S)


def first_line(process: subprocess.Popen[str]) -> str:
    assert process.stdout is not None
    line = process.stdout.readline().strip()
    assert line, process.communicate(timeout=LIMIT_S)
    return line


def kill(process: subprocess.Popen[str]) -> None:
    process.send_signal(signal.SIGKILL)  # nothing of the process's own runs after this
    process.communicate(timeout=LIMIT_S)
    assert process.returncode == -signal.SIGKILL


def wait_for(found: Callable[[], list[Path]], process: subprocess.Popen[str]) -> list[Path]:
    deadline = time.monotonic() + LIMIT_S
    while not (paths := found()):
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "nothing appeared"
        time.sleep(0.05)
    return paths


def clothlab_command(*args: str) -> list[str]:
    return ["-m", "clothlab.app.main", *args]


def test_an_autosave_killed_mid_write_leaves_nothing_after_the_next_launch(qapp, processes):
    folder = recovery_folder()
    folder.mkdir(parents=True)
    killed = processes("-c", HALF_SAVED, str(folder / "autosave-4242-1733140000000.json"))
    killed_temporary = Path(first_line(killed))
    kill(killed)
    # another Cloth Lab, still running, in the middle of its own autosave
    running = processes("-c", HALF_SAVED, str(folder / "autosave-4343-1733140000001.json"))
    running_temporary = Path(first_line(running))
    assert killed_temporary.exists() and running_temporary.exists()

    controller = Controller()
    try:
        Autosaver(controller, interval_s=3600)  # a new launch's
    finally:
        controller.shutdown()
    assert not killed_temporary.exists()
    assert running_temporary.exists()  # its process is alive: it may still rename it


def video_folders(parent: Path) -> list[Path]:
    return sorted(p for p in parent.iterdir() if p.name.startswith("clothlab-video"))


def frames_written(folder: Path) -> bool:
    """The video being encoded in `folder` has frames in it: killed now, it is cut mid-write."""
    return any(path.stat().st_size > 0 for path in folder.iterdir())


def test_a_video_run_killed_mid_write_leaves_nothing_after_the_next_run(tmp_path, processes):
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    env = {**os.environ, "TMPDIR": str(temporary)}
    env.pop("QT_QPA_PLATFORM", None)  # the real platform (Xvfb): the view needs OpenGL
    video = tmp_path / "run.mp4"
    killed = processes(*clothlab_command("run", "hanging-sheet", "--steps", "1000000", "--video",
                                         str(video), "--video-size", "64x64"), env=env)  # fmt: skip
    wait_for(lambda: [f for f in video_folders(temporary) if frames_written(f)], killed)
    kill(killed)
    leftovers = video_folders(temporary)
    assert leftovers
    running = processes("-c", FOLDER_IN_USE, str(temporary), VIDEO_TEMP_PREFIX, env=env)
    in_use = Path(first_line(running))

    again = subprocess.run(
        [sys.executable, *clothlab_command("run", "hanging-sheet", "--steps", "10", "--video",
                                           str(video), "--video-size", "64x64")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=LIMIT_S,
    )  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert video.stat().st_size > 0
    assert video_folders(temporary) == [in_use]  # the killed run's gone, the live one's kept
