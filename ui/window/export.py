"""File ▸ Export mesh… and File ▸ Export video…: the frame shown as an OBJ or PLY mesh
(sim.lab.mesh_export), and a run as an MP4 (H.264) or animated GIF rendered by the 3D view.

A video is taken at exact model-time steps, not from the screen: a copy of the run (its engine,
sim.lab.engine) takes round(1/fps / dt) steps for each frame (sim.lab.mesh_export.steps_per_frame),
and the video shows each frame for those steps' model time (1/fps unless Δt does not divide it; a
GIF's delays, in hundredths, end where the frames' model times do). A snapshot of that state is
drawn by a second, off-screen Viewport of the chosen size (same camera, same view options as the
window's), and the picture goes to the writer. So the video's clock is model time, however slowly
the frames are drawn; the window's own 3D view keeps its size, and the run itself goes on (or stays
paused) as it was. The file is written in a private temporary folder and then copied over the
target with sim.document.files.write_atomically, as every file the lab writes.

`render_video` (snapshots in, file out) and `export_video` (from a window's controller) are
plain functions; the dialogs here only collect their parameters. Video needs the optional
`video` extra (imageio, imageio-ffmpeg, Pillow); without it the one-line MISSING_VIDEO says so.
"""

from __future__ import annotations

import errno
import importlib.util
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QObject, Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QProgressDialog,
    QWidget,
)

from clothlab.sim.core.snapshot import Snapshot
from clothlab.sim.document.files import (
    describe,
    inspect_target,
    make_temp_folder,
    naming,
    write_atomically,
)
from clothlab.sim.document.scene import CameraSpec, Scene
from clothlab.sim.lab.engine import Engine
from clothlab.sim.lab.mesh_export import (
    UnstableRunError,
    run_frames,
    steps_per_frame,
    write_mesh,
    write_sequence,
)
from clothlab.sim.text import QT_TR_NOOP, tr
from clothlab.ui.number_box import FloatBox, Limits, RefusalLine
from clothlab.ui.viewport.items import ViewOptions
from clothlab.ui.viewport.viewport import Viewport
from clothlab.ui.window import file_dialogs
from clothlab.ui.window.dialogs import show_error, slug

if TYPE_CHECKING:
    from clothlab.ui.context import WindowContext
    from clothlab.ui.front_door import FrontDoor

# the file dialogs' filters, translated where they are shown (a format's name is its filter's
# text before " (")
MESH_FILTERS = {
    "obj": QT_TR_NOOP("OBJ meshes (*.obj)"),
    "ply": QT_TR_NOOP("PLY meshes, binary (*.ply)"),
}
VIDEO_FILTERS = {
    "mp4": QT_TR_NOOP("MP4 video, H.264 (*.mp4)"),
    "gif": QT_TR_NOOP("Animated GIF (*.gif)"),
}
VIDEO_SIZES = ((640, 400), (640, 480), (1280, 720), (1280, 800), (1920, 1080))  # even: H.264
FRAME_RATES = (24, 30, 60)
MIN_SECONDS, MAX_SECONDS = 0.1, 600.0  # of model time a video may show
MISSING_VIDEO = QT_TR_NOOP("Video export needs: pip install clothlab[video]")
# What each format needs besides imageio: its encoder
VIDEO_MODULES = {"mp4": ("imageio", "imageio_ffmpeg"), "gif": ("PIL",)}
MESSAGE_MS = 6000
VIDEO_TEMP_PREFIX = "clothlab-video"  # the folder a video is encoded in, in the temporary folder


class VideoError(RuntimeError):
    """Why a video could not be made, in one line."""


@dataclass(frozen=True)
class VideoSpec:
    width: int = 1280
    height: int = 720
    fps: int = 30
    seconds: float = 5.0  # of model time
    fmt: str = "mp4"  # "mp4" or "gif"

    @property
    def frames(self) -> int:
        return max(1, round(self.seconds * self.fps))

    def frames_of(self, frame_seconds: float | None) -> int:
        """The frames that show `seconds` of model time, `frame_seconds` apart (1/fps: None)."""
        if frame_seconds is None:
            return self.frames
        return max(1, round(self.seconds / frame_seconds))


@dataclass(frozen=True)
class ViewLook:
    """What the off-screen view copies from the window's: camera and view options."""

    camera: CameraSpec
    # the view's options; the selection's outline is not copied
    options: ViewOptions = field(default_factory=ViewOptions)
    scene: Scene | None = None  # for the order of its obstacles

    @classmethod
    def of(cls, viewport: Viewport, scene: Scene | None) -> ViewLook:
        options = replace(viewport.view_options(), selection=None)
        return cls(viewport.camera_spec(), options, scene)


@dataclass(frozen=True)
class VideoResult:
    frames: int  # written; fewer than asked when cancelled (then nothing is saved)
    cancelled: bool
    t_start: float  # model time of the first and last frame
    t_end: float


# progress(frames done, frames in all) -> False to cancel
Progress = Callable[[int, int], bool]


def missing_video_support(fmt: str) -> str | None:
    """MISSING_VIDEO if a module `fmt` needs is not installed, else None."""
    modules = VIDEO_MODULES.get(fmt)
    if modules is None:
        raise ValueError(f"unknown video format {fmt!r}: use one of {', '.join(VIDEO_MODULES)}")
    if any(importlib.util.find_spec(name) is None for name in modules):
        return MISSING_VIDEO
    return None


# --- writing -----------------------------------------------------------------------------------


GIF_TICK_MS = 10  # a GIF's delays are whole hundredths of a second
# Browsers play a delay under 2 hundredths as 10 hundredths: a frame that would get one is left
# out, and the one before it shown for its time too.
GIF_SHORTEST_MS = 20


def gif_durations(frames: int, frame_seconds: float) -> list[int]:
    """Per-frame GIF delays in ms for frames `frame_seconds` of model time apart. GIF counts in
    1/100 s: each frame starts where its model time, rounded to a hundredth, does, so 30 fps
    alternates 30 and 40 ms and the whole lasts frames × frame_seconds, where one rounded delay
    would drift (33 fps). A frame that would last under GIF_SHORTEST_MS gets 0: it is left out,
    and the one shown before it lasts its time too (60 fps: 20, 30, 0, 20, 30, 0 ms)."""
    starts = [GIF_TICK_MS * round(1000.0 * k * frame_seconds / GIF_TICK_MS)
              for k in range(frames + 1)]  # fmt: skip
    durations = [0] * frames
    shown = [0]  # the frames shown, in order
    for k in range(1, frames):
        if starts[k] - starts[shown[-1]] >= GIF_SHORTEST_MS:
            shown.append(k)
    if len(shown) > 1 and starts[frames] - starts[shown[-1]] < GIF_SHORTEST_MS:
        shown.pop()  # the last would be too short: the one before lasts to the end
    for this, following in zip(shown, [*shown[1:], frames], strict=True):
        durations[this] = starts[following] - starts[this]
    return durations


class GifFrames:
    """Frames to an animated GIF by Pillow, which writes a GIF only once it has every frame.
    The delays are given for as many frames as came: the run's length need not be known
    before (a list of delays shorter than the frames was an IndexError in Pillow's writer).
    Each frame is kept as Pillow's writer would turn it anyway, 256 colours of its own: a
    third of the bytes of RGB."""

    def __init__(self, path: Path, frame_seconds: float) -> None:
        self.path, self.frame_seconds = path, frame_seconds  # model time between frames
        self.frames: list[Any] = []  # PIL.Image.Image, imported only when a video is made

    def append_data(self, frame: np.ndarray) -> None:
        from PIL import Image

        self.frames.append(
            Image.fromarray(frame, "RGB").convert("P", palette=Image.Palette.ADAPTIVE)
        )

    def close(self) -> None:
        if not self.frames:
            return
        durations = gif_durations(len(self.frames), self.frame_seconds)
        shown = [(f, d) for f, d in zip(self.frames, durations, strict=True) if d > 0]
        self.frames = []
        (first, _), rest = shown[0], [f for f, _ in shown[1:]]
        first.save(self.path, format="GIF", save_all=True, append_images=rest,
                   duration=[d for _, d in shown], loop=0)  # fmt: skip


class VideoWriter:
    """Frames to a video file: encoded in a private temporary folder, then written over
    `path` atomically on commit(); discard() leaves `path` as it was."""

    def __init__(self, path: Path, spec: VideoSpec, frame_seconds: float | None = None) -> None:
        """`frame_seconds`: the model time between frames (by default 1/spec.fps), which the
        video plays each frame for: a step that does not divide 1/fps makes it differ."""
        missing = missing_video_support(spec.fmt)
        if missing:
            raise VideoError(tr(missing))
        inspect_target(path)  # a file that cannot be replaced fails before any frame is drawn
        self.path = path
        # named with this process's id, so that a later export removes it if this one is killed
        self._folder = make_temp_folder(Path(tempfile.gettempdir()), VIDEO_TEMP_PREFIX)
        self._temporary = self._folder / f"video.{spec.fmt}"
        self._writer: Any
        try:
            self._writer = self._encoder(spec, frame_seconds or 1.0 / spec.fps)
        except BaseException:
            shutil.rmtree(self._folder, ignore_errors=True)
            raise

    def _encoder(self, spec: VideoSpec, frame_seconds: float) -> Any:
        if spec.fmt == "gif":
            return GifFrames(self._temporary, frame_seconds)
        import imageio.v2 as imageio  # the optional extra: only now

        # yuv420p plays everywhere; macro block 2 keeps 1920 × 1080 as it is, not 1088
        return imageio.get_writer(
            self._temporary, mode="I", format="FFMPEG", fps=1.0 / frame_seconds, codec="libx264",
            quality=8, pixelformat="yuv420p", macro_block_size=2, ffmpeg_log_level="error",
        )  # fmt: skip

    def append(self, frame: np.ndarray) -> None:
        """One (H, W, 3) uint8 RGB frame. OSError names the video being encoded."""
        try:
            self._writer.append_data(frame)
        except OSError as error:  # imageio-ffmpeg's holds the command and its output: one line
            reason = (describe(error).strip().splitlines() or [tr("cannot write")])[0]
            raise OSError(error.errno, reason, str(self._temporary)) from None

    def commit(self) -> None:
        """Finish the video and write it over `path`. An OSError names the file it was
        writing: the video being encoded, or `path`."""
        try:
            with naming(self._temporary):
                self._writer.close()
            write_atomically(self.path, self._temporary.read_bytes())
        finally:
            shutil.rmtree(self._folder, ignore_errors=True)

    def discard(self) -> None:
        if isinstance(self._writer, GifFrames):
            self._writer.frames = []  # nothing to encode
        try:
            self._writer.close()
        except Exception:  # a half-written video is thrown away anyway
            pass
        finally:
            shutil.rmtree(self._folder, ignore_errors=True)


def png_bytes(image: QImage) -> bytes:
    """`image` encoded as PNG; OSError if Qt cannot encode it."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):  # type: ignore[call-overload]  # the stub wants bytes, the binding str
        raise OSError(errno.EIO, tr("the image could not be encoded as PNG"))
    buffer.close()
    return bytes(data.data())


# --- rendering ---------------------------------------------------------------------------------


def image_array(image: QImage, width: int, height: int) -> np.ndarray:
    """(height, width, 3) uint8 RGB of `image`, scaled if it is not that size (a HiDPI screen
    renders the off-screen view at its device pixel ratio)."""
    if (image.width(), image.height()) != (width, height):
        mode = Qt.TransformationMode.SmoothTransformation
        image = image.scaled(width, height, Qt.AspectRatioMode.IgnoreAspectRatio, mode)
    image = image.convertToFormat(QImage.Format.Format_RGB888)
    rows = np.frombuffer(image.constBits(), dtype=np.uint8).reshape(height, image.bytesPerLine())
    return rows[:, : width * 3].reshape(height, width, 3).copy()


class OffscreenView:
    """A Viewport of an exact size that is never on screen, drawing given snapshots.

    A QOpenGLWidget only gets a context and a framebuffer of its size once shown;
    WA_DontShowOnScreen shows it without a window appearing (measured under Xvfb with
    llvmpipe: a hidden widget's framebuffer keeps its first size)."""

    def __init__(self, width: int, height: int, look: ViewLook) -> None:
        self.width, self.height = width, height
        self.view = Viewport()
        self.view.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen)
        self.view.resize(width, height)
        self.view.set_camera(look.camera)
        self.view.set_view_options(look.options)
        self.view.set_scene(look.scene)
        self.view.show()

    def render(self, snapshot: Snapshot) -> np.ndarray:
        self.view.show_snapshot(snapshot)
        image = self.view.grabFramebuffer()  # draws now, into the widget's framebuffer
        if not self.view.is_gl_ok() or image.isNull():
            raise VideoError(tr("the 3D view cannot draw (OpenGL 3.3 is not available)"))
        return image_array(image, self.width, self.height)

    def close(self) -> None:
        self.view.close()
        self.view.deleteLater()


def render_video(
    frames: Iterable[Snapshot],
    path: Path,
    spec: VideoSpec,
    look: ViewLook,
    progress: Progress | None = None,
    frame_seconds: float | None = None,
) -> VideoResult:
    """Draw each snapshot (spec.frames_of(frame_seconds) of them at most, `frame_seconds` of
    model time apart: by default 1/spec.fps) and write the video to `path`.
    Raises VideoError, OSError; a cancel saves nothing."""
    writer = VideoWriter(Path(path), spec, frame_seconds)
    view = OffscreenView(spec.width, spec.height, look)
    done, times, count = 0, [], spec.frames_of(frame_seconds)
    try:
        for snapshot in frames:
            writer.append(view.render(snapshot))
            done += 1
            times.append(snapshot.t)
            if progress is not None and not progress(done, count) and done < count:
                writer.discard()
                return VideoResult(done, True, times[0], times[-1])
            if done >= count:
                break
        writer.commit()
    except BaseException:
        writer.discard()
        raise
    finally:
        view.close()
    return VideoResult(done, False, times[0] if times else 0.0, times[-1] if times else 0.0)


# --- frames of a copy of the run ---------------------------------------------------------------


def _forked(controller: FrontDoor) -> Engine:
    engine = controller.fork()
    if engine is None:
        raise VideoError(tr("no frame has been computed yet"))
    return engine


def _frames(engine: Engine, count: int, steps: int) -> Iterator[Snapshot]:
    """`count` snapshots of the run, `steps` model steps apart, from its state now on."""
    try:
        yield from run_frames(engine, count, steps)
    except UnstableRunError as error:
        raise VideoError(tr("the model became unstable: {reason}").format(reason=error)) from None


def export_video(
    controller: FrontDoor,
    viewport: Viewport,
    path: Path,
    spec: VideoSpec,
    progress: Progress | None = None,
) -> VideoResult:
    """A video of the model from its state now on, as the window's 3D view sees it. The frames
    come from a copy of the run (FrontDoor.fork), stepped here: the run itself goes on, or
    stays paused, as it was."""
    engine = _forked(controller)
    spacing = steps_per_frame(spec.fps, engine.sim.settings.dt)
    frame_seconds = spacing * engine.sim.settings.dt  # 1/fps unless Δt does not divide it
    frames = _frames(engine, spec.frames_of(frame_seconds), spacing)
    look = ViewLook.of(viewport, controller.scene)
    return render_video(frames, path, spec, look, progress, frame_seconds)


def export_mesh_sequence(
    controller: FrontDoor, folder: Path, fmt: str, fps: int = 30, seconds: float | None = None
) -> list[Path]:
    """A mesh per frame from the model's state now on, `fps` frames a model second, into
    `folder` (frame_0000.obj, …): for a replay to its end unless `seconds` is given, else 5 s.
    The frames come from a copy of the run, as for a video."""
    engine = _forked(controller)
    spacing = steps_per_frame(fps, engine.sim.settings.dt)
    if seconds is None and controller.replay is not None:
        count = max(1, (controller.replay.steps - engine.steps) // spacing + 1)
    else:
        count = max(1, round((seconds or VideoSpec().seconds) * fps))
    return write_sequence(folder, _frames(engine, count, spacing), fmt)


# --- dialogs -----------------------------------------------------------------------------------


class VideoDialog(QDialog):
    """Asks size, frame rate, length in model seconds and format."""

    def __init__(self, parent: QWidget | None = None, spec: VideoSpec | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("Export video"))
        spec = spec or VideoSpec()
        self.size_box = QComboBox()
        for width, height in VIDEO_SIZES:
            self.size_box.addItem(f"{width} × {height}", (width, height))
        size = (spec.width, spec.height)  # findData cannot compare tuples
        self.size_box.setCurrentIndex(VIDEO_SIZES.index(size) if size in VIDEO_SIZES else 0)
        self.fps_box = QComboBox()
        for fps in FRAME_RATES:
            self.fps_box.addItem(tr("{fps} frames per second").format(fps=fps), fps)
        self.fps_box.setCurrentIndex(max(0, self.fps_box.findData(spec.fps)))
        limits = Limits(tr("Length"), MIN_SECONDS, MAX_SECONDS, "s")
        self.seconds_box = FloatBox(limits, shown_decimals=1)
        self.seconds_box.setSuffix(tr(" s of model time"))
        self.seconds_box.setValue(spec.seconds)
        self.format_box = QComboBox()
        for fmt, label in VIDEO_FILTERS.items():
            self.format_box.addItem(tr(label).split(" (")[0], fmt)
        self.format_box.setCurrentIndex(max(0, self.format_box.findData(spec.fmt)))
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        rows = (
            (tr("Size"), self.size_box),
            (tr("Frame rate"), self.fps_box),
            (tr("Length"), self.seconds_box),
            (tr("Format"), self.format_box),
        )
        for label, widget in rows:
            form.addRow(label, widget)
        # a length out of range is said here, and OK waits until it is one in range
        ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.refusal_line = RefusalLine([self.seconds_box], ok)
        form.addRow(self.refusal_line)
        form.addRow(buttons)

    def spec(self) -> VideoSpec:
        width, height = self.size_box.currentData()
        fps, fmt = int(self.fps_box.currentData()), str(self.format_box.currentData())
        return VideoSpec(width, height, fps, float(self.seconds_box.value()), fmt)


class Exporter(QObject):
    """File ▸ Export mesh…, mesh sequence… and video… (their rows in ui.window.actions call
    these methods; one per window)."""

    def __init__(self, context: WindowContext) -> None:
        super().__init__(context.parent)
        self.context = context
        self.controller = context.controller
        self.last_video = VideoSpec()  # the dialog offers the last choices again

    def _ask_path(self, title: str, stem: str, filters: Mapping[str, str], fmt: str) -> Path | None:
        """A save path; with no suffix, the chosen filter's is added. `filters` are the
        untranslated filters: the dialog shows them translated."""
        filters = {key: tr(label) for key, label in filters.items()}
        choices = ";;".join(filters.values())
        name, chosen = file_dialogs.get_save_file_name(
            self.context.parent, title, f"{stem}.{fmt}", choices, filters[fmt]
        )
        if not name:
            return None
        path = Path(name)
        if not path.suffix:
            by_filter = {label: key for key, label in filters.items()}
            path = path.with_suffix(f".{by_filter.get(chosen, fmt)}")
        return path

    def export_mesh(self) -> None:
        """The frame shown as OBJ or PLY, by the file name's suffix."""
        snapshot = self.controller.latest
        title = tr("Cannot export mesh")
        if snapshot is None:
            show_error(self.context.parent, title, tr("No frame has been computed yet."))
            return
        stem = f"{slug(self.controller.title_name)}-t{snapshot.t:.2f}".replace(".", "_")
        path = self._ask_path(tr("Export mesh"), stem, MESH_FILTERS, "obj")
        if path is None:
            return
        try:
            write_mesh(
                path, snapshot, comment=f"{self.controller.title_name}, t = {snapshot.t:.4f} s"
            )
        except (OSError, ValueError) as error:
            show_error(self.context.parent, title, f"{path}: {describe(error)}")
            return
        message = tr("Exported the mesh at t = {t:.2f} s to {path}")
        self.context.say(message.format(t=snapshot.t, path=path), MESSAGE_MS)

    def export_meshes(self) -> None:
        """A replay to its end (or 5 s from the frame shown) as an OBJ sequence in a folder."""
        folder = file_dialogs.get_existing_directory(
            self.context.parent, tr("Export mesh sequence into")
        )
        if not folder:
            return
        try:
            written = export_mesh_sequence(self.controller, Path(folder), "obj")
        except (OSError, ValueError, VideoError) as error:
            show_error(
                self.context.parent, tr("Cannot export meshes"), f"{folder}: {describe(error)}"
            )
            return
        message = tr("Exported %n mesh(es) to {folder}", "", len(written))
        self.context.say(message.format(folder=folder), MESSAGE_MS)

    def export_video(self) -> None:
        title = tr("Cannot export video")
        parent = self.context.parent
        dialog = VideoDialog(parent, self.last_video)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        spec = self.last_video = dialog.spec()
        missing = missing_video_support(spec.fmt)
        if missing:
            show_error(parent, title, tr(missing))
            return
        stem = slug(self.controller.title_name)
        path = self._ask_path(
            tr("Export video"), stem, {spec.fmt: VIDEO_FILTERS[spec.fmt]}, spec.fmt
        )
        if path is None:
            return
        progress = _progress_dialog(parent, spec.frames)
        try:
            result = export_video(self.controller, self.context.viewport, path, spec,
                                  lambda done, _total: _show_progress(progress, done))  # fmt: skip
        except (OSError, VideoError) as error:
            show_error(parent, title, f"{path}: {describe(error)}")
            return
        finally:
            progress.close()
        self._report(result, path)

    def _report(self, result: VideoResult, path: Path) -> None:
        if result.cancelled:
            message = tr(
                "Video export cancelled after %n frame(s); nothing was saved", "", result.frames
            )
        else:
            span = f"t = {result.t_start:.2f} … {result.t_end:.2f} s"
            message = tr("Exported %n frame(s) ({span}) to {path}", "", result.frames).format(
                span=span, path=path
            )
        self.context.say(message, MESSAGE_MS)


def _progress_dialog(parent: QWidget, frames: int) -> QProgressDialog:
    progress = QProgressDialog(tr("Rendering the video…"), tr("Cancel"), 0, frames, parent)
    progress.setWindowTitle(tr("Export video"))
    progress.setWindowModality(Qt.WindowModality.WindowModal)  # no edits while it records
    progress.setMinimumDuration(0)
    progress.setValue(0)
    return progress


def _show_progress(progress: QProgressDialog, done: int) -> bool:
    progress.setValue(done)
    return not progress.wasCanceled()
