"""`clothlab run --obj-dir DIR` and `--video FILE`: frames of a headless run, taken every
1/fps of model time from step 0, as a numbered mesh sequence (for Blender) or a video.

Like every output of `run`, nothing is written unless the run succeeds: meshes go to a hidden
folder beside DIR, which replaces DIR whole at the end (sim.document.folders: DIR never holds
frames of two runs); the video is encoded in a temporary file and written over FILE
atomically. A video needs Qt and OpenGL (under Xvfb on a machine with no screen); they are
imported only when one is asked for, so the rest of the CLI stays Qt-free.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

from clothlab.app.errors import UsageError
from clothlab.sim.core.snapshot import take_snapshot
from clothlab.sim.core.solver import Simulation
from clothlab.sim.document.files import FileRefusedError, describe, write_new_file
from clothlab.sim.document.folders import AtomicFolder
from clothlab.sim.document.scene import Scene
from clothlab.sim.lab.mesh_export import (
    FORMATS,
    SEQUENCE_NAME,
    is_frame_name,
    mesh_bytes,
    steps_per_frame,
)

FRAME_RATES = (24, 30, 60)
MAX_VIDEO_SIDE = 3840


def parse_size(text: str) -> tuple[int, int]:
    width, _, height = text.lower().partition("x")
    try:
        size = int(width), int(height)
    except ValueError:
        raise UsageError(f"--video-size {text}: expected WIDTHxHEIGHT, e.g. 1280x720") from None
    if not all(16 <= side <= MAX_VIDEO_SIDE for side in size):
        raise UsageError(f"--video-size {text}: each side must be within 16…{MAX_VIDEO_SIDE}")
    return size


class MeshFrames:
    """A mesh per frame into a new folder beside `folder`, swapped in whole on commit: the
    folder then holds this run's frames only. A folder holding anything but frames is refused
    before the run."""

    def __init__(self, folder: Path, fmt: str) -> None:
        if fmt not in FORMATS:
            raise UsageError(f"--mesh-format {fmt}: use one of {', '.join(FORMATS)}")
        try:
            self._folder = AtomicFolder(folder, is_frame_name)
        except FileRefusedError as error:
            if error.errno == errno.ENOTEMPTY:  # a folder of the user's, not of frames
                raise UsageError(f"{folder}: {error}, not a frame: the run's frames replace the "
                                 "folder whole; give a new or empty one") from None  # fmt: skip
            raise UsageError(f"{folder}: {error}") from None
        except OSError as error:
            raise UsageError(f"{folder}: cannot write: {describe(error)}") from None
        self.folder, self.fmt, self.count = folder, fmt, 0

    def add(self, snapshot: Any) -> None:
        name = SEQUENCE_NAME.format(self.count, self.fmt)
        try:
            write_new_file(self._folder.staging / name, mesh_bytes(snapshot, self.fmt))
        except OSError as error:  # the frame as the user will look for it, not the staging file
            raise OSError(error.errno, describe(error), str(self.folder / name)) from None
        self.count += 1

    def commit(self) -> None:
        try:
            self._folder.commit()
        except FileRefusedError as error:  # changed during the run
            raise UsageError(f"{self.folder}: {error}") from None
        except OSError as error:
            raise UsageError(f"{self.folder}: cannot write: {describe(error)}") from None

    def discard(self) -> None:
        self._folder.discard()


class VideoFrames:
    """The run drawn by an off-screen 3D view, from the scene's camera, into a video."""

    def __init__(
        self, path: Path, scene: Scene, size: tuple[int, int], fps: int, frame_seconds: float
    ) -> None:
        """`frame_seconds`: the model time between frames, which each is shown for."""
        if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
            raise UsageError("--video: needs a display with OpenGL (on a server: xvfb-run …)")
        from PySide6.QtWidgets import QApplication

        from clothlab.ui.window.export import (
            OffscreenView,
            VideoError,
            VideoSpec,
            VideoWriter,
            ViewLook,
        )

        self._app = QApplication.instance() or QApplication(["clothlab"])
        fmt = path.suffix.lower().lstrip(".")
        self._error = VideoError
        try:
            spec = VideoSpec(size[0], size[1], fps, 1.0, fmt)  # its length: unused by a writer
            self._writer = VideoWriter(path, spec, frame_seconds)
        except (VideoError, ValueError) as error:
            raise UsageError(f"--video {path}: {error}") from None
        self._view = OffscreenView(size[0], size[1], ViewLook(scene.camera, scene=scene))
        self.count = 0

    def add(self, snapshot: Any) -> None:
        try:
            self._writer.append(self._view.render(snapshot))
        except self._error as error:
            raise UsageError(f"--video: {error}") from None
        self.count += 1

    def commit(self) -> None:
        self._view.close()
        self._writer.commit()

    def discard(self) -> None:
        self._view.close()
        self._writer.discard()


class FrameOutputs:
    """The run's frame outputs, fed every `spacing` steps from step 0."""

    def __init__(self, args: Any, scene: Scene, dt: float) -> None:
        self.sinks: list[MeshFrames | VideoFrames] = []
        if args.fps not in FRAME_RATES:
            raise UsageError(f"--fps {args.fps}: use one of {', '.join(map(str, FRAME_RATES))}")
        self.spacing = steps_per_frame(args.fps, dt)
        try:
            if args.obj_dir is not None:
                self.sinks.append(MeshFrames(args.obj_dir, args.mesh_format))
            if args.video is not None:
                size = parse_size(args.video_size)
                frame_seconds = self.spacing * dt  # 1/fps unless Δt does not divide it
                self.sinks.append(VideoFrames(args.video, scene, size, args.fps, frame_seconds))
        except BaseException:
            self.discard()
            raise

    def after_step(self, sim: Simulation) -> None:
        """Take a frame if the run is at one (step 0, spacing, 2 × spacing, …)."""
        if self.sinks and sim.state.steps % self.spacing == 0:
            snapshot = take_snapshot(sim, frame=sim.state.steps // self.spacing)
            for sink in self.sinks:
                sink.add(snapshot)

    def commit(self) -> None:
        for sink in self.sinks:
            sink.commit()
        self.sinks = []

    def discard(self) -> None:
        for sink in self.sinks:
            sink.discard()
        self.sinks = []
