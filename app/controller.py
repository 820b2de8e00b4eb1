"""The controller: owns the document (the current Scene and its path), the solver thread and
the undo stack, and is the one place the GUI asks for changes.

The document is the scene as loaded plus every edit on the undo stack; edits are applied to it
here (pure functions on the pydantic model) and sent to the worker as queued calls, so saving
never has to read the simulation across threads.
"""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QMetaObject, QObject, Qt, QThread, Signal, Slot
from PySide6.QtGui import QUndoCommand, QUndoStack

from clothlab.app.worker import SolverWorker
from clothlab.sim.edits import CutLinks, Edit, SetPin, SetSetting, seam_links
from clothlab.sim.parameters import PARAMETERS, Settings
from clothlab.sim.presets import load_preset, resolve_scene
from clothlab.sim.scene import (
    SETTING_FIELDS,
    CameraSpec,
    PinSpec,
    Scene,
    build_topology,
    save_scene,
    scene_settings,
)
from clothlab.sim.snapshot import Snapshot

MERGE_WINDOW_S = 1.5  # changes of one setting closer together than this undo as one
_SETTING_COMMAND_ID = 1000  # + index of the key, so only changes of the same key merge


# --- the document: a Scene with edits applied ------------------------------------------------


def scene_with_setting(scene: Scene, key: str, value: Any) -> Scene:
    """The scene with one setting (a Settings field name) replaced."""
    section, field = SETTING_FIELDS[key]
    updated = getattr(scene, section).model_copy(update={field: value})
    return scene.model_copy(update={section: updated})


def scene_with_edit(scene: Scene, edit: Edit) -> Scene:
    if isinstance(edit, SetSetting):
        return scene_with_setting(scene, edit.key, edit.value)
    if isinstance(edit, SetPin):
        pins = [p for p in scene.pins if p.particle != edit.particle]
        if edit.anchor is not None:
            pins.append(PinSpec(particle=edit.particle, anchor=tuple(edit.anchor)))
        return scene.model_copy(update={"pins": sorted(pins, key=lambda p: p.particle)})
    if isinstance(edit, CutLinks):
        cuts = set(scene.cuts)
        cuts = cuts - set(edit.links) if edit.restore else cuts | set(edit.links)
        return scene.model_copy(update={"cuts": sorted(cuts)})
    raise TypeError(f"not an edit: {edit!r}")


# --- undo ----------------------------------------------------------------------------------


class EditCommand(QUndoCommand):
    """One sim edit record; undo applies its inverse. Quick changes of one setting merge, so a
    slider drag is one step in the Edit menu."""

    def __init__(self, controller: Controller, edit: Edit) -> None:
        super().__init__(edit.text)
        self._controller = controller
        self.edit = edit
        self._stamp = time.monotonic()

    def redo(self) -> None:
        self._controller.apply_edit(self.edit)

    def undo(self) -> None:
        self._controller.apply_edit(self.edit.inverse())

    def id(self) -> int:
        if isinstance(self.edit, SetSetting) and self.edit.key in PARAMETERS:
            return _SETTING_COMMAND_ID + list(PARAMETERS).index(self.edit.key)
        return -1

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 (Qt override)
        if not isinstance(other, EditCommand) or other.id() != self.id():
            return False
        if other._stamp - self._stamp > MERGE_WINDOW_S:
            return False
        assert isinstance(self.edit, SetSetting) and isinstance(other.edit, SetSetting)
        self.edit = SetSetting(self.edit.key, other.edit.value, self.edit.previous)
        self._stamp = other._stamp
        self.setObsolete(self.edit.value == self.edit.previous)
        return True


# --- the controller --------------------------------------------------------------------------


class Controller(QObject):
    """Document, solver thread and undo stack. Create one per window; call shutdown() once."""

    scene_loaded = Signal(object)  # Scene: a new document (new bodies): rebuild views
    scene_edited = Signal(object, object)  # Scene, Edit: the document after an edit or undo
    path_changed = Signal(object)  # Path | None
    snapshot_changed = Signal(object)  # the newest Snapshot
    timing_changed = Signal(float, bool)  # real-time factor, cannot keep up
    running_changed = Signal(bool)
    speed_changed = Signal(float)
    load_failed = Signal(str)
    instability_found = Signal(str)

    # Intents for the worker; connected across threads, so they arrive as queued calls.
    load_requested = Signal(object)
    edit_requested = Signal(object)
    running_requested = Signal(bool)
    step_requested = Signal()
    speed_requested = Signal(float)
    grab_requested = Signal(int, object)
    grab_move_requested = Signal(object)
    release_requested = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.undo_stack = QUndoStack(self)
        self.scene: Scene = Scene()
        self.path: Path | None = None
        self.latest: Snapshot | None = None
        self.running = False
        self.speed = 1.0
        self._thread = QThread()
        self._thread.setObjectName("solver")
        self.worker = SolverWorker()
        self.worker.moveToThread(self._thread)
        self._connect_worker()
        self._thread.started.connect(self.worker.start)
        self._thread.start()

    def _connect_worker(self) -> None:
        worker = self.worker
        self.load_requested.connect(worker.load_scene)
        self.edit_requested.connect(worker.apply_edit)
        self.running_requested.connect(worker.set_running)
        self.step_requested.connect(worker.step_once)
        self.speed_requested.connect(worker.set_speed)
        self.grab_requested.connect(worker.grab)
        self.grab_move_requested.connect(worker.move_grab)
        self.release_requested.connect(worker.release)
        worker.instability_found.connect(self.instability_found)
        worker.snapshot_ready.connect(self._take_snapshot)
        worker.timing_changed.connect(self.timing_changed)
        worker.running_changed.connect(self._on_running_changed)
        worker.load_failed.connect(self.load_failed)

    # --- documents ---------------------------------------------------------------------------

    def load(self, scene: Scene, path: Path | None = None) -> None:
        """Make `scene` the document (from `path`, or None for a preset or a new scene)."""
        self.scene = scene
        self.path = path
        self.undo_stack.clear()
        self.undo_stack.setClean()
        self.latest = None
        self.load_requested.emit(scene)
        self.scene_loaded.emit(scene)
        self.path_changed.emit(path)

    def open(self, name_or_path: str | Path) -> None:
        """Open a preset by name or a scene file; raises SceneError and keeps the document."""
        scene, path = resolve_scene(str(name_or_path))
        self.load(scene, path)

    def new_from_preset(self, name: str) -> None:
        self.load(load_preset(name), None)

    def save(self, path: Path | None = None, camera: CameraSpec | None = None) -> Path:
        """Write the document (to `path`, else its own path); raises OSError, ValueError."""
        target = Path(path) if path is not None else self.path
        if target is None:
            raise ValueError("the scene has no file yet: choose one with Save As")
        scene = self.scene
        if camera is not None:
            scene = scene.model_copy(update={"camera": camera})
        save_scene(scene, target)
        self.scene = scene
        self.undo_stack.setClean()
        if target != self.path:
            self.path = target
            self.path_changed.emit(target)
        return target

    @property
    def title_name(self) -> str:
        return self.scene.name or (self.path.stem if self.path else "Untitled")

    # --- edits -------------------------------------------------------------------------------

    def push_edit(self, edit: Edit) -> None:
        """An undoable edit."""
        self.undo_stack.push(EditCommand(self, edit))

    @property
    def settings(self) -> Settings:
        """The document's settings, as the simulation has them once queued edits land."""
        return scene_settings(self.scene)

    def apply_edit(self, edit: Edit) -> None:
        """Apply without touching the undo stack (commands call this from redo/undo)."""
        self.scene = scene_with_edit(self.scene, edit)
        self.edit_requested.emit(edit)
        self.scene_edited.emit(self.scene, edit)

    def set_setting(self, key: str, value: Any) -> None:
        """Change a setting (undoable); raises ValueError outside the declared range."""
        if key in PARAMETERS:
            value = PARAMETERS[key].check(value)
        elif key == "ball_center":
            value = tuple(float(v) for v in value)
            if not all(math.isfinite(v) and abs(v) <= 1e4 for v in value):
                raise ValueError("ball centre must be finite and within ±10000")
        else:
            raise KeyError(key)
        previous = getattr(self.settings, key)
        if value != previous:
            self.push_edit(SetSetting(key, value, previous))

    def move_pin(self, particle: int, anchor: tuple[float, float, float] | None) -> None:
        """Pin, move or (anchor None) unpin a particle: one undoable edit."""
        previous = next((p.anchor for p in self.scene.pins if p.particle == particle), None)
        if anchor is not None:
            anchor = tuple(float(v) for v in anchor)
        if anchor != previous:
            self.push_edit(SetPin(particle, anchor, previous))

    def preview(self, edit: Edit) -> None:
        """Show an edit in progress (a pin or the ball being dragged) without recording it;
        the drag's end records one undoable edit from where it began."""
        self.edit_requested.emit(edit)

    def preview_pin(self, particle: int, anchor: object) -> None:
        self.preview(SetPin(particle, tuple(float(v) for v in anchor), None))

    def preview_ball(self, centre: object) -> None:
        value = tuple(float(v) for v in centre)
        self.preview(SetSetting("ball_center", value, value))

    def cut(self, links: object) -> None:
        """Cut the links of a stroke (those still live): one undoable edit."""
        cut = set(self.scene.cuts)
        live = tuple(sorted(int(k) for k in set(map(int, links)) - cut))
        if live:
            self.push_edit(CutLinks(live))

    def seam_cut(self) -> None:
        """The model's own seam cut of the first sheet."""
        topology = build_topology(self.scene)
        if topology.sheets:
            self.cut(seam_links(topology))

    # --- grab (not an edit: it changes only the running state) -------------------------------

    def grab(self, particle: int, target: object) -> None:
        self.grab_requested.emit(particle, tuple(float(v) for v in target))

    def move_grab(self, target: object) -> None:
        self.grab_move_requested.emit(tuple(float(v) for v in target))

    def release_grab(self) -> None:
        self.release_requested.emit()

    # --- simulation --------------------------------------------------------------------------

    def set_running(self, running: bool) -> None:
        self.running_requested.emit(running)

    def toggle_running(self) -> None:
        self.set_running(not self.running)

    def step(self) -> None:
        """One step; the worker ignores it while running."""
        self.step_requested.emit()

    def reset(self) -> None:
        """Back to t = 0 and rest positions; edits on the undo stack stay applied."""
        self.load_requested.emit(self.scene)

    def set_speed(self, speed: float) -> None:
        self.speed = speed
        self.speed_requested.emit(speed)
        self.speed_changed.emit(speed)

    def shutdown(self) -> None:
        """Stop the solver thread and wait for it; safe to call twice."""
        if not self._thread.isRunning():
            return
        QMetaObject.invokeMethod(self.worker, "stop", Qt.ConnectionType.BlockingQueuedConnection)
        self._thread.quit()
        self._thread.wait()

    # --- from the worker -----------------------------------------------------------------------

    @Slot()
    def _take_snapshot(self) -> None:
        snapshot = self.worker.take_snapshot()
        if snapshot is not None:
            self.latest = snapshot
            self.snapshot_changed.emit(snapshot)

    @Slot(bool)
    def _on_running_changed(self, running: bool) -> None:
        self.running = running
        self.running_changed.emit(running)
