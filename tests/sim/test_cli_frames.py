"""`clothlab run --obj-dir` and `--video`: frames of a headless run, all or nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]


def clothlab(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "clothlab.app.main", *args],
        capture_output=True, text=True, cwd=ROOT, timeout=300, env=env,
    )  # fmt: skip


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
    result = clothlab("run", "drop", "--steps", "10", "--video", str(tmp_path / "v.mp4"), env=env)
    assert result.returncode == 2 and "needs a display with OpenGL" in result.stderr
    assert list(tmp_path.iterdir()) == []
