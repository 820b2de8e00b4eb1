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


def test_a_gif_of_the_default_run_holds_all_its_frames(tmp_path):
    """600 steps at 30 fps: 151 frames (more than 30 was an IndexError in Pillow's writer, for
    a list of delays made for 1 s). Pillow merges a frame equal to the one before into it,
    adding up their delays: the delays end where the run's frames end, and last 151 frames."""
    from itertools import accumulate

    from PIL import Image, ImageSequence

    from clothlab.ui.window.export import gif_durations

    video = tmp_path / "g.gif"
    result = clothlab("run", "hanging-sheet", "--video", str(video), "--video-size", "320x200")
    assert result.returncode == 0, result.stderr
    with Image.open(video) as gif:
        assert gif.format == "GIF" and gif.size == (320, 200)
        delays = [frame.info["duration"] for frame in ImageSequence.Iterator(gif)]
        first, last = (_frame(gif, k) for k in (0, gif.n_frames - 1))
    frame_ends = list(accumulate(gif_durations(151, 1 / 30)))
    assert set(accumulate(delays)) <= set(frame_ends) and sum(delays) == frame_ends[-1] == 5030
    assert 2 <= len(delays) <= 151
    assert (first != last).any()  # the sheet swung before it settled


def _frame(gif, k: int) -> np.ndarray:
    gif.seek(k)
    return np.asarray(gif.convert("RGB"))


def test_a_gif_of_a_run_whose_step_does_not_divide_the_frame_lasts_its_model_time(tmp_path):
    """Curtain steps 1/60 s; at 24 fps a frame is taken every 2 steps, so each
    is 1/30 s of model time and is shown that long (it was 1/24 s: 25 % slow)."""
    from PIL import Image, ImageSequence

    video = tmp_path / "c.gif"
    result = clothlab("run", "curtain", "--steps", "60", "--fps", "24", "--video", str(video),
                      "--video-size", "160x100")  # fmt: skip
    assert result.returncode == 0, result.stderr
    with Image.open(video) as gif:
        delays = [frame.info["duration"] for frame in ImageSequence.Iterator(gif)]
    assert sum(delays) == 1030  # 31 frames (steps 0, 2, …, 60) of 1/30 s: to the hundredth
