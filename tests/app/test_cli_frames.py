"""`clothlab run --obj-dir` and `--video`: frames of a headless run, all or nothing."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from cli_helpers import clothlab_in_process

ROOT = Path(__file__).resolve().parents[2]


clothlab = clothlab_in_process  # a kill, Ctrl+C or another environment: a subprocess


def read_obj(path: Path) -> tuple[np.ndarray, list[list[int]]]:
    vertices, faces = [], []
    for line in path.read_text().splitlines():
        if line.startswith("v "):
            vertices.append([float(v) for v in line.split()[1:]])
        elif line.startswith("f "):
            faces.append([int(corner.split("/")[0]) for corner in line.split()[1:]])
    return np.array(vertices), faces


def test_a_mesh_per_frame_from_step_0_equal_to_the_run(tmp_path):
    folder = tmp_path / "frames"
    positions = tmp_path / "end.npy"
    result = clothlab("run", "drop", "--steps", "120", "--obj-dir", str(folder),
                      "--positions", str(positions))  # fmt: skip
    assert result.returncode == 0, result.stderr
    names = sorted(p.name for p in folder.iterdir())
    assert names == [f"frame_{k:04d}.obj" for k in range(31)]  # 120 steps / 4 per frame + 1
    first, faces = read_obj(folder / "frame_0000.obj")
    last, _ = read_obj(folder / "frame_0030.obj")
    assert first.shape == (165, 3) and len(faces) == 2 * 14 * 10
    assert np.allclose(last, np.load(positions), atol=5e-7)  # the OBJ holds 7 significant digits
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".frames.")]


def test_ply_frames_at_24_fps(tmp_path):
    result = clothlab("run", "hanging-sheet", "--steps", "50", "--obj-dir", str(tmp_path / "p"),
                      "--mesh-format", "ply", "--fps", "24")  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert len(list((tmp_path / "p").glob("frame_*.ply"))) == 11  # every 5 steps from 0


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        (["--fps", "25", "--obj-dir", "x"], "--fps 25: use one of 24, 30, 60"),
        (["--obj-dir", "x", "--mesh-format", "stl"], "--mesh-format stl: use one of"),
        (["--video", "v.mp4", "--video-size", "10x10"], "each side must be within 16"),
    ],
)
def test_bad_frame_options_are_one_line_and_write_nothing(tmp_path, options, problem):
    options = [str(tmp_path / o) if o in ("x", "v.mp4") else o for o in options]
    result = clothlab("run", "drop", "--steps", "10", *options)
    assert result.returncode == 2 and problem in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_frames_into_a_read_only_folder_are_refused_as_a_csv_is(tmp_path):
    shut = tmp_path / "shut"
    shut.mkdir()
    shut.chmod(0o555)
    try:
        for option, name in (("--csv", "run.csv"), ("--obj-dir", "frames")):
            result = clothlab("run", "drop", "--steps", "4", option, str(shut / name))
            assert result.returncode == 2, (option, result.stdout)
            (line,) = result.stderr.splitlines()
            assert line.endswith(
                f"folder {shut} is read-only" + (" (mode 0555)" * (name == "frames"))
            )
        assert list(shut.iterdir()) == []
    finally:
        shut.chmod(0o755)


def test_an_interrupted_run_leaves_no_frames(tmp_path):
    folder = tmp_path / "frames"
    process = subprocess.Popen(
        [sys.executable, "-m", "clothlab.app.main", "run", "hanging-sheet", "--steps",
         "100000000", "--obj-dir", str(folder)],
        cwd=ROOT, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    for _ in range(200):  # until the hidden folder has frames in it
        staging = [p for p in tmp_path.iterdir() if p.name.startswith(".frames.")]
        if staging and len(list(staging[0].iterdir())) > 2:
            break
        subprocess.run(["sleep", "0.05"])
    process.send_signal(2)  # SIGINT, as Ctrl+C
    assert process.wait(timeout=60) == 130
    assert list(tmp_path.iterdir()) == []


def test_video_without_a_display_is_one_line(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    result = subprocess.run(
        [sys.executable, "-m", "clothlab.app.main", "run", "drop", "--steps", "10", "--video",
         str(tmp_path / "v.mp4")], capture_output=True, text=True, cwd=ROOT, env=env, timeout=300,
    )  # fmt: skip
    assert result.returncode == 2 and "needs a display with OpenGL" in result.stderr
    assert list(tmp_path.iterdir()) == []


def frames_of(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def leftovers(folder: Path, name: str) -> list[str]:
    """Hidden folders of writes to `folder / name` (new or set aside)."""
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(f".{name}."))


def test_a_second_run_replaces_the_first_runs_frames_whole(tmp_path):
    """121 frames of the sheet, then 41 of the drop: the folder holds the drop's 41 only (the
    sheet's frame_0041 … frame_0120 were left among them), each as a run of its own writes it."""
    out, alone = tmp_path / "out", tmp_path / "alone"
    for scene, steps, folder in (("hanging-sheet", "480", out), ("drop", "160", out),
                                 ("drop", "160", alone)):  # fmt: skip
        result = clothlab("run", scene, "--steps", steps, "--obj-dir", str(folder))
        assert result.returncode == 0, result.stderr
    assert list(frames_of(out)) == [f"frame_{k:04d}.obj" for k in range(41)]
    assert frames_of(out) == frames_of(alone)
    assert leftovers(tmp_path, "out") == []


def test_a_folder_holding_more_than_frames_is_refused_before_the_run(tmp_path):
    out = tmp_path / "out"
    assert clothlab("run", "drop", "--steps", "8", "--obj-dir", str(out)).returncode == 0
    (out / "notes.txt").write_text("mine")
    before = frames_of(out)
    result = clothlab("run", "drop", "--steps", "4", "--obj-dir", str(out))
    assert result.returncode == 2
    (line,) = result.stderr.splitlines()
    assert line == f"clothlab: error: {out}: holds 'notes.txt', not a frame: the run's frames " \
        "replace the folder whole; give a new or empty one"  # fmt: skip
    assert frames_of(out) == before and leftovers(tmp_path, "out") == []


def test_a_kill_during_the_swap_never_leaves_frames_of_two_runs(tmp_path):
    """A run SIGKILLed at random moments around the end, where its frames go in: the folder
    holds all the earlier run's frames or all the new run's, byte for byte, every time."""
    rng = np.random.default_rng(30)
    old, new, out = tmp_path / "old", tmp_path / "new", tmp_path / "out"
    args = ["--steps", "240", "--fps", "60"]  # 121 frames
    for scene, folder in (("hanging-sheet", old), ("drop", new)):
        assert clothlab("run", scene, *args, "--obj-dir", str(folder)).returncode == 0
    runs = {"old": frames_of(old), "new": frames_of(new)}
    assert len(runs["old"]) == len(runs["new"]) == 121
    outcomes, killed = [], 0
    for _ in range(12):
        shutil.rmtree(out, ignore_errors=True)
        shutil.copytree(old, out)
        earlier = leftovers(tmp_path, "out")  # of the runs killed before: this run removes them
        process = subprocess.Popen(
            [sys.executable, "-m", "clothlab.app.main", "run", "drop", *args, "--obj-dir",
             str(out)], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        _wait_for_all_frames(tmp_path, earlier, process, 119)  # 2 more to write, then the swap
        time.sleep(rng.uniform(0.0, 0.03))
        process.kill()
        killed += process.wait(timeout=60) == -signal.SIGKILL
        now = frames_of(out)
        outcomes.append(next((name for name, frames in runs.items() if frames == now), None))
    print(f"{killed} of {len(outcomes)} killed; outcomes {outcomes}")  # shown with -s
    assert None not in outcomes, outcomes  # a mix, or a frame of neither
    assert killed >= 6, outcomes  # most kills came before the run's end
    assert clothlab("run", "drop", *args, "--obj-dir", str(out)).returncode == 0
    assert frames_of(out) == runs["new"]
    assert leftovers(tmp_path, "out") == []  # the killed runs' folders, cleaned by this one


def _wait_for_all_frames(
    folder: Path, earlier: list[str], process: subprocess.Popen[bytes], count: int
) -> None:
    """Until the run's hidden folder holds `count` frames: it is about to swap them in."""
    deadline = time.monotonic() + 120
    while process.poll() is None and time.monotonic() < deadline:
        for hidden in set(leftovers(folder, "out")) - set(earlier):
            with contextlib.suppress(OSError):
                if len(os.listdir(folder / hidden)) >= count:
                    return
        time.sleep(0.001)
