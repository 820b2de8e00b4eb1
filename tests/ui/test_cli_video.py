"""`clothlab run --video`: a headless run drawn by an off-screen 3D view (OpenGL under Xvfb)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]


def clothlab(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "clothlab.app.main", *args],
        capture_output=True, text=True, cwd=ROOT, timeout=300,
    )  # fmt: skip


def test_a_headless_video_has_a_frame_per_thirtieth_of_a_second(tmp_path):
    import imageio.v3 as iio

    video = tmp_path / "drop.mp4"
    result = clothlab("run", "drop", "--steps", "240", "--video", str(video), "--video-size",
                      "320x200")  # fmt: skip
    assert result.returncode == 0, result.stderr
    frames = iio.imread(video, plugin="pyav") if _has_pyav() else iio.imread(video)
    assert frames.shape == (61, 200, 320, 3)  # 2 s at 30 fps, from step 0
    assert np.abs(frames[0].astype(int) - frames[-1].astype(int)).mean() > 1.0  # it moved


def _has_pyav() -> bool:
    import importlib.util

    return importlib.util.find_spec("av") is not None
