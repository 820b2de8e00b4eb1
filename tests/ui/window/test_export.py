"""File ▸ Export mesh… and Export video… (ui.window.export) in the real window under Xvfb:
videos are decoded back with imageio, meshes read back as text or bytes."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox
from qt_helpers import WAIT_MS, ticks_pass

from clothlab.ui.window import export
from clothlab.ui.window.export import MISSING_VIDEO, VideoSpec, export_video, gif_durations

pytestmark = pytest.mark.gl

imageio = pytest.importorskip("imageio", reason="the video extra: pip install clothlab[video]")
pytest.importorskip("imageio_ffmpeg")


@pytest.fixture
def shown(monkeypatch):
    """The one-line messages the window shows, as (title, text)."""
    messages: list[tuple[str, str]] = []
    monkeypatch.setattr(
        QMessageBox, "warning", lambda _parent, title, text, *args: messages.append((title, text))
    )
    return messages


@pytest.fixture
def save_dialog(monkeypatch):
    answers: list[str] = []
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", lambda *args, **kwargs: (answers.pop(0), "")
    )
    return answers


def ready(qtbot, make_window, scene="drop"):
    window = make_window(scene)
    qtbot.waitUntil(lambda: window.controller.latest is not None, timeout=WAIT_MS)
    return window


def test_a_two_second_mp4_at_30_fps_has_60_frames_of_the_chosen_size(qtbot, make_window, tmp_path):
    window = ready(qtbot, make_window)
    window.controller.set_running(True)
    qtbot.waitUntil(lambda: window.controller.running, timeout=WAIT_MS)
    seen: list[tuple[int, int]] = []
    path = tmp_path / "drop.mp4"
    spec = VideoSpec(640, 400, 30, 2.0, "mp4")
    result = export_video(
        window.controller, window.viewport, path, spec, lambda d, t: seen.append((d, t)) or True
    )
    assert (result.frames, result.cancelled) == (60, False)
    assert seen[-1] == (60, 60)
    # exactly 59 × 4 steps of 1/120 s between the first frame and the last
    assert result.t_end - result.t_start == pytest.approx(59 / 30, abs=1e-9)
    reader = imageio.get_reader(path)
    assert reader.count_frames() == 60
    frame = reader.get_data(0)
    assert frame.shape == (400, 640, 3)
    assert reader.get_meta_data()["fps"] == 30
    reader.close()
    # the window still draws at its own size, and the model runs on: it was running before
    assert window.viewport.width() != 640
    qtbot.waitUntil(lambda: window.controller.running, timeout=WAIT_MS)
    assert [p.name for p in tmp_path.iterdir()] == ["drop.mp4"]  # no temporary files left


def test_a_gif_export_has_every_frame_and_the_cloth_moves(qtbot, make_window, tmp_path):
    window = ready(qtbot, make_window)
    window.controller.set_running(False)
    path = tmp_path / "drop.gif"
    spec = VideoSpec(320, 200, 30, 2.0, "gif")
    result = export_video(window.controller, window.viewport, path, spec)
    assert result.frames == 60
    frames = imageio.v3.imread(path, index=None)
    assert frames.shape == (60, 200, 320, 3)
    assert not np.array_equal(frames[0], frames[-1])  # the cloth fell
    assert not window.controller.running  # it was paused before, and stays so


def test_gif_delays_keep_the_clock():
    assert gif_durations(6, 1 / 30) == [30, 40, 30, 30, 40, 30]
    assert sum(gif_durations(60, 1 / 30)) == 2000
    assert sum(gif_durations(24, 1 / 24)) == 1000 and set(gif_durations(24, 1 / 24)) == {40, 50}
    # 60 fps: no delay of 1/100 s (browsers play it as 1/10 s): that frame is left out (0)
    sixty = gif_durations(60, 1 / 60)
    assert sum(sixty) == 1000 and set(sixty) == {0, 20, 30}


def gif_delays(path) -> list[int]:
    from PIL import Image, ImageSequence

    with Image.open(path) as gif:
        return [frame.info["duration"] for frame in ImageSequence.Iterator(gif)]


def test_a_gif_lasts_the_model_time_it_shows_when_the_step_does_not_divide_the_frame(
    qtbot, make_window, tmp_path
):
    """Curtain steps 1/60 s, so a 24 fps video takes a frame every 2 steps
    (1/30 s); shown for 1/24 s each, 2 s of model time took 48 frames of 1.6 s of model time."""
    window = ready(qtbot, make_window, "curtain")
    window.controller.set_running(False)
    path = tmp_path / "curtain.gif"
    result = export_video(
        window.controller, window.viewport, path, VideoSpec(320, 200, 24, 2.0, "gif")
    )
    assert result.frames == 60
    assert result.t_end - result.t_start == pytest.approx(59 / 30, abs=1e-9)
    assert sum(gif_delays(path)) == 2000  # ms: the 2 s of model time it shows

    path = tmp_path / "one-second.gif"
    export_video(window.controller, window.viewport, path, VideoSpec(320, 200, 30, 1.0, "gif"))
    assert sum(gif_delays(path)) == 1000


def test_cancel_saves_nothing_and_keeps_the_old_file(qtbot, make_window, tmp_path):
    window = ready(qtbot, make_window)
    path = tmp_path / "old.gif"
    path.write_bytes(b"old")
    spec = VideoSpec(320, 200, 24, 2.0, "gif")
    result = export_video(window.controller, window.viewport, path, spec, lambda d, t: d < 5)
    assert (result.frames, result.cancelled) == (5, True)
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["old.gif"]


def test_missing_video_modules_are_named_in_one_line(qtbot, make_window, monkeypatch, shown):
    window = ready(qtbot, make_window)
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "imageio" else real(name, *a)
    )
    assert export.missing_video_support("mp4") == MISSING_VIDEO
    monkeypatch.setattr(export.VideoDialog, "exec", lambda self: export.QDialog.DialogCode.Accepted)
    window.action_export_video.trigger()
    assert shown == [("Cannot export video", "Video export needs: pip install clothlab[video]")]


def test_export_video_from_the_menu(qtbot, make_window, monkeypatch, save_dialog, tmp_path):
    window = ready(qtbot, make_window)
    monkeypatch.setattr(export.VideoDialog, "exec", lambda self: export.QDialog.DialogCode.Accepted)
    monkeypatch.setattr(
        export.VideoDialog, "spec", lambda self: VideoSpec(320, 200, 24, 0.5, "gif")
    )
    save_dialog.append(str(tmp_path / "menu"))  # no suffix: the format's is added
    window.action_export_video.trigger()
    frames = imageio.v3.imread(tmp_path / "menu.gif", index=None)
    assert frames.shape == (12, 200, 320, 3)
    assert "Exported 12 frames" in window.statusBar().currentMessage()


def test_the_video_dialog_offers_sizes_rates_and_formats(qtbot):
    dialog = export.VideoDialog(None, VideoSpec(1920, 1080, 60, 3.5, "gif"))
    qtbot.addWidget(dialog)
    assert dialog.spec() == VideoSpec(1920, 1080, 60, 3.5, "gif")
    assert dialog.size_box.count() == len(export.VIDEO_SIZES)
    assert [dialog.fps_box.itemData(k) for k in range(dialog.fps_box.count())] == [24, 30, 60]


@pytest.mark.parametrize("suffix", ["obj", "ply"])
def test_export_mesh_writes_the_frame_shown(qtbot, make_window, save_dialog, tmp_path, suffix):
    window = ready(qtbot, make_window, "hanging-sheet")
    save_dialog.append(str(tmp_path / f"sheet.{suffix}"))
    window.action_export_mesh.trigger()
    data = (tmp_path / f"sheet.{suffix}").read_bytes()
    n = window.controller.latest.topology.particle_count
    if suffix == "obj":
        assert sum(line.startswith(b"v ") for line in data.splitlines()) == n
    else:
        assert f"element vertex {n}\n".encode() in data
    assert "Exported the mesh" in window.statusBar().currentMessage()


def test_export_mesh_refuses_other_suffixes_in_one_line(
    qtbot, make_window, save_dialog, shown, tmp_path
):
    window = ready(qtbot, make_window, "hanging-sheet")
    save_dialog.append(str(tmp_path / "sheet.stl"))
    window.action_export_mesh.trigger()
    reason = f"{tmp_path / 'sheet.stl'}: the name must end in .obj or .ply"
    assert shown == [("Cannot export mesh", reason)]
    assert not list(tmp_path.iterdir())


def test_a_replay_exports_as_a_mesh_sequence_to_its_end(qtbot, make_window, tmp_path):
    from clothlab.sim.document.presets import load_preset
    from clothlab.sim.document.recording import Recording
    from clothlab.sim.lab.mesh_export import steps_per_frame
    from clothlab.ui.window.export import export_mesh_sequence

    window = ready(qtbot, make_window)
    controller = window.controller
    controller.play(Recording(load_preset("drop"), (), 60))  # 0.5 s, no commands
    qtbot.waitUntil(lambda: controller.latest is not None and controller.replay is not None,
                    timeout=WAIT_MS)  # fmt: skip
    controller.seek(0)
    qtbot.waitUntil(lambda: controller.latest is not None and controller.latest.steps == 0,
                    timeout=WAIT_MS)  # fmt: skip
    written = export_mesh_sequence(controller, tmp_path / "seq", "obj")
    assert steps_per_frame(30, 1 / 120) == 4
    assert [p.name for p in written] == [f"frame_{k:04d}.obj" for k in range(16)]  # 60 / 4 + 1
    assert controller.latest.steps == 0  # the frames came from a copy: the replay stays put
    text = written[-1].read_text()
    assert text.count("\nv ") == 165 and text.count("\nf ") == 2 * 14 * 10


def test_five_seconds_of_meshes_from_a_plain_run(qtbot, make_window, tmp_path):
    from clothlab.ui.window.export import export_mesh_sequence

    window = ready(qtbot, make_window, "hanging-sheet")
    written = export_mesh_sequence(window.controller, tmp_path, "ply", fps=24, seconds=0.5)
    assert len(written) == 12 and all(p.suffix == ".ply" for p in written)


def _set_running(qtbot, window, running: bool) -> None:
    window.controller.set_running(running)
    qtbot.waitUntil(lambda: window.controller.running == running, timeout=WAIT_MS)


def _still(qtbot, window, running: bool) -> None:
    """Running or paused as before, and still so a while later (a queued Run or Pause would
    have arrived by then)."""
    ticks_pass(qtbot, window.controller)
    assert window.controller.running == running
    assert window.controller.worker.running == running


@pytest.mark.parametrize("running", [True, False], ids=["running", "paused"])
def test_export_mesh_leaves_the_run_as_it_found_it(
    qtbot, make_window, save_dialog, tmp_path, running
):
    window = ready(qtbot, make_window, "hanging-sheet")
    _set_running(qtbot, window, running)
    save_dialog.append(str(tmp_path / "sheet.obj"))
    window.action_export_mesh.trigger()
    assert (tmp_path / "sheet.obj").is_file()
    _still(qtbot, window, running)


@pytest.mark.parametrize("running", [True, False], ids=["running", "paused"])
def test_export_video_leaves_the_run_as_it_found_it(
    qtbot, make_window, monkeypatch, save_dialog, tmp_path, running
):
    window = ready(qtbot, make_window)
    _set_running(qtbot, window, running)
    monkeypatch.setattr(export.VideoDialog, "exec", lambda self: export.QDialog.DialogCode.Accepted)
    monkeypatch.setattr(
        export.VideoDialog, "spec", lambda self: VideoSpec(320, 200, 24, 0.5, "gif")
    )
    save_dialog.append(str(tmp_path / "run.gif"))
    window.action_export_video.trigger()
    assert (tmp_path / "run.gif").is_file()
    _still(qtbot, window, running)


@pytest.mark.parametrize("running", [True, False], ids=["running", "paused"])
def test_export_mesh_sequence_leaves_the_run_as_it_found_it(
    qtbot, make_window, monkeypatch, tmp_path, running
):
    window = ready(qtbot, make_window, "hanging-sheet")
    _set_running(qtbot, window, running)
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(tmp_path))
    window.action_export_meshes.trigger()
    assert len(list(tmp_path.glob("frame_*.obj"))) == 150  # 5 s at 30 frames a second
    _still(qtbot, window, running)
