"""The controller: owns the document (the current Scene and its path), the solver thread and
the undo stack, and is the one place the GUI asks for changes.

Every request is a command record (sim.document.commands, sim.document.edits, or a ui.intents
request) handed to `submit`, the one way in: it validates the record against the document,
pushes an undo entry when it edits the document (applied here by `apply_to_document`), and
queues it for the solver thread, where every command goes into one inbox. So saving never has
to read the simulation across threads: the document is the experiment's set-up, the scene as
loaded plus the user's edits. What the model does while it runs (the links it tears, where the
particles go) is never written into it; `save_state` exports the links torn so far, from the
newest snapshot, as a scene file of its own.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QMetaObject, QObject, Qt, QThread, Signal, Slot
from PySide6.QtGui import QUndoCommand, QUndoStack

from clothlab.app.finer_sheet_check import FinerSheetCheck
from clothlab.app.main_thread_gc import MainThreadCollector
from clothlab.app.worker import Play, Seek, SolverWorker, WorkerInput
from clothlab.sim.core.parameters import PARAMETERS, SETTINGS_TABLE, Settings
from clothlab.sim.core.snapshot import Snapshot
from clothlab.sim.document.commands import (
    AS_THE_POINTER_TOOK,
    CommandError,
    CutLinks,
    Edit,
    EditRulers,
    EditScene,
    GrabMove,
    GrabRelease,
    GrabStart,
    Load,
    Pause,
    Run,
    SetPin,
    SetProbe,
    SetSceneInfo,
    SetSetting,
    SetSpeed,
    Stamped,
    Step,
    apply_to_document,
    validate,
)
from clothlab.sim.document.composition import Composed, edit_of, pins_away_from_rest
from clothlab.sim.document.edits import seam_links
from clothlab.sim.document.presets import load_preset, resolve_scene
from clothlab.sim.document.recording import (
    Recording,
    from_journal,
    is_recording_file,
    load_recording,
)
from clothlab.sim.document.requests import (
    BeginGesture,
    ChangeSetting,
    Compose,
    EndGesture,
    Preview,
    Reset,
    SeamCut,
    SetThenReset,
    ToggleProbe,
)
from clothlab.sim.document.scene import (
    CameraSpec,
    RulerSpec,
    Scene,
    as_point,
    body_counts,
    build_topology,
    save_scene,
    state_scene,
)
from clothlab.sim.document.scene import scene_settings as settings_of
from clothlab.sim.lab.engine import Engine
from clothlab.sim.text import tr
from clothlab.ui.intents import NewDocument, SeekReplay


def rulers_at(scene: Scene, ruler_edits: Sequence[Stamped], clock: int) -> list[RulerSpec]:
    """The rulers a recorded run of `scene` had once `clock` steps were taken: the scene's, as
    its ruler edits (stamped EditRulers, in step order) up to that step left them."""
    rulers = list(scene.rulers)
    for item in ruler_edits:
        if item.step > clock:
            break
        assert isinstance(item.command, EditRulers)
        rulers = list(item.command.after)
    return rulers


_SETTING_COMMAND_ID = 1000  # + index of the key, so only changes of the same key merge


class EditCommand(QUndoCommand):
    """One sim edit record; undo applies its inverse. Changes of one setting within one gesture
    (a slider drag, press to release) merge, so a whole drag is one step in the Edit menu and
    two drags are two, however quick or slow."""

    def __init__(self, controller: Controller, edit: Edit, gesture: int | None = None) -> None:
        super().__init__(edit.text)
        self._controller = controller
        self.edit = edit
        self.gesture = gesture

    def redo(self) -> None:
        self._controller.apply_edit(self.edit)

    def undo(self) -> None:
        self._controller.apply_edit(self.edit.inverse())

    def id(self) -> int:
        # Only the parameter sliders' changes merge: they are what a drag makes many of.
        if isinstance(self.edit, SetSetting) and self.edit.key in PARAMETERS:
            return _SETTING_COMMAND_ID + list(PARAMETERS).index(self.edit.key)
        return -1

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 (Qt override)
        if not isinstance(other, EditCommand) or other.id() != self.id():
            return False
        if self.gesture is None or other.gesture != self.gesture:
            return False
        merged = self.edit.merged(other.edit)
        if merged is None:
            return False
        self.edit = merged
        self.setObsolete(merged == merged.inverse())  # a drag back to where it began
        return True


class Controller(QObject):
    """Document, solver thread and undo stack. Create one per window; call shutdown() once."""

    scene_loaded = Signal(object)  # Scene: a new document (new bodies): rebuild views
    scene_edited = Signal(object, object)  # Scene, Command: the document after an edit or undo
    path_changed = Signal(object)  # Path | None
    snapshot_changed = Signal(object)  # the newest Snapshot
    timing_changed = Signal(float, bool)  # real-time factor, cannot keep up
    running_changed = Signal(bool)
    speed_changed = Signal(float)
    load_failed = Signal(str)
    instability_found = Signal(str)
    stuck_found = Signal(str)  # the model rests tangled: the window offers Reset
    advice_found = Signal(object)  # sim.lab.resolution.Advice: a setting that serves an edit
    message = Signal(str)  # one line for the status bar: what an edit could not carry over
    commands_posted = Signal()  # to the worker, across threads: drain the command queue
    _fork_requested = Signal(object)  # to the worker, blocking: a list to put a copy of the run in
    replay_changed = Signal(object)  # the Recording being replayed, or None when it is over
    replay_finished = Signal(int)  # the replay reached its last step and paused there
    # An edit's text, just before it starts the model afresh (a change of bodies, or its undo):
    # the journal still holds the run before it (a recording under way keeps it then).
    restart_coming = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.undo_stack = QUndoStack(self)
        self.scene: Scene = Scene()
        self.path: Path | None = None
        self.latest: Snapshot | None = None
        self.running = False
        self.speed = 1.0
        self.journal: list[Stamped] = []  # what the worker applied since the last load
        self.replay: Recording | None = None  # the recording being replayed, if any
        # the replay's ruler edits (found once: a long recording has a million commands)
        self._ruler_edits: tuple[Recording | None, tuple[Stamped, ...]] = (None, ())
        self._replay_end_pending = False  # its closing Pause is queued, not yet applied
        self._session = 0  # recordings played; the worker's kept states are of one of them
        self._loads = 0  # Load commands sent; snapshots of older loads are ignored
        self._gestures = 0  # gestures begun; the open one's number, or None
        self._gesture: int | None = None
        self._counts = body_counts(self.scene.bodies)  # (particles, links) of the document
        self._batch: list[Edit] | None = None  # edits applied to the document, not yet sent
        self._thread = QThread()
        self._thread.setObjectName("solver")
        self.worker = SolverWorker()
        self.worker.moveToThread(self._thread)
        self._handlers = self._request_handlers()
        self._collector = MainThreadCollector(self)  # never on the solver thread: see there
        self._finer_sheet = FinerSheetCheck(self)
        self._finer_sheet.found.connect(self.advice_found)
        self._connect_worker()
        self._thread.started.connect(self.worker.start)
        self._thread.start()

    def _connect_worker(self) -> None:
        worker = self.worker
        self.commands_posted.connect(worker.drain)
        self._fork_requested.connect(worker.fork, Qt.ConnectionType.BlockingQueuedConnection)
        worker.command_applied.connect(self._record)
        worker.instability_found.connect(self.instability_found)
        worker.stuck_found.connect(self.stuck_found)
        worker.snapshot_ready.connect(self._take_snapshot)
        worker.timing_changed.connect(self.timing_changed)
        worker.running_changed.connect(self._on_running_changed)
        worker.load_failed.connect(self.load_failed)

    def send(self, command: WorkerInput) -> None:
        """Queue a command for the solver thread (the document is not touched)."""
        self.send_all([command])

    def send_all(self, commands: Sequence[WorkerInput]) -> None:
        """Queue commands for the solver thread, which takes them all in one go."""
        for command in commands:
            self.worker.inbox.put(command)
        self.worker.interrupt()
        self.commands_posted.emit()

    # --- documents ---------------------------------------------------------------------------

    def load(self, scene: Scene, path: Path | None = None, play: Play | None = None) -> None:
        """Make `scene` the document (from `path`, or None for a preset or a new scene), and
        start it, or `play` a recording of it."""
        self.scene = scene
        self.path = path
        self._finer_sheet.cancel()
        self.undo_stack.clear()
        self.undo_stack.setClean()
        self.latest = None
        self._start(scene, play)
        self.scene_loaded.emit(scene)
        self.path_changed.emit(path)

    def _start(self, scene: Scene, play: Play | None = None) -> None:
        """Start the model afresh from `scene`, or replay a recording of it."""
        self._loads += 1
        self._counts = body_counts(scene.bodies)
        self.send(play or Load(scene))
        if self.replay is not None and play is None:  # a Load ends any replay
            self.replay = None
            self.replay_changed.emit(None)
        if play is not None:
            self.replay = play.recording
            self._replay_end_pending = True
            self.replay_changed.emit(play.recording)

    # --- recordings ----------------------------------------------------------------------------

    def record(self) -> None:
        """Start a recording: back to step 0 of the document; everything applied from now on
        is journalled (the journal always runs from the last load)."""
        self.submit(Reset())

    def recording(self) -> Recording:
        """The run since the last load or reset, as a recording up to the newest frame."""
        journal = list(self.journal)
        if not journal:  # the worker has not taken the first load yet: nothing has run
            return Recording(self.scene, (), 0)
        steps = self.latest.clock if self.latest is not None else 0  # as the journal counts
        # The journal may be ahead of the newest frame: a run as long as its last command.
        return from_journal(journal, max(steps, journal[-1].step if journal else 0))

    def play(self, recording: Recording) -> None:
        """Replay a recording: its scene becomes the document and the worker applies its
        commands at their steps, so running (or stepping) reproduces the run bit for bit, and
        it pauses at the last step (`replay_finished`). Play, pause, step and speed are the
        user's: a running model plays it at once. So is anything else the user does."""
        self._session += 1  # states kept of an earlier replay are of another run
        self.load(recording.scene, None, Play(recording, self._session))

    def seek(self, step: int) -> None:
        """Show the replay at `step` (clamped to 0…its steps), paused, exactly as replaying
        the recording from step 0 builds it; the worker starts from the newest state it kept
        of this replay at or before `step`. Raises ValueError when nothing is replayed."""
        recording = self.replay
        if recording is None:
            raise ValueError(tr("no recording is being replayed"))
        step = max(0, min(int(step), recording.steps))
        if self._replay_edited():  # back to the recording's scene
            self.load(recording.scene, None, Play(recording, self._session, step, seek=True))
            return
        # The same document (the probes the user attached to the replay stay: they only read
        # it): the views and camera stay.
        self.scene = recording.scene.model_copy(update={"probes": self.scene.probes})
        self._replay_end_pending = True
        self.send(Seek(step))

    def _replay_edited(self) -> bool:
        """Whether the user changed the replayed run: an edit on the undo stack that changes
        what the model computes (a probe does not)."""
        stack = self.undo_stack
        edits = (stack.command(k) for k in range(stack.count()))
        return any(not (isinstance(e, EditCommand) and e.edit.leaves_model) for e in edits)

    def open(self, name_or_path: str | Path) -> None:
        """Open a preset by name, a scene file, or a recording (played, see `play`); raises
        SceneError and keeps the document."""
        if is_recording_file(name_or_path):
            self.play(load_recording(name_or_path))
            return
        scene, path = resolve_scene(str(name_or_path))
        self.load(scene, path)

    def new_from_preset(self, name: str) -> None:
        self.load(load_preset(name), None)

    def save(self, path: Path | None = None, camera: CameraSpec | None = None) -> Path:
        """Write the document, the set-up (to `path`, else its own path); raises OSError,
        ValueError."""
        target = Path(path) if path is not None else self.path
        if target is None:
            raise ValueError(tr("the scene has no file yet: choose one with Save As"))
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

    def state(self, snapshot: Snapshot | None = None, camera: CameraSpec | None = None) -> Scene:
        """The set-up with the links the model had torn by `snapshot` (the newest frame of the
        document by default), named as a state (state_scene). Raises ValueError before the
        first frame."""
        if snapshot is None:
            snapshot = self.current_snapshot()
        if snapshot is None:
            raise ValueError(tr("no frame of the scene has been computed yet"))
        scene = self.scene
        if camera is not None:
            scene = scene.model_copy(update={"camera": camera})
        return state_scene(scene, snapshot.torn, snapshot.t)

    def save_state(
        self, path: Path, camera: CameraSpec | None = None, snapshot: Snapshot | None = None
    ) -> Scene:
        """Write `state(snapshot, camera)`: an export of the run's state, so the document keeps
        its path and its clean state. Returns the scene written; raises OSError, ValueError."""
        state = self.state(snapshot, camera)
        save_scene(state, Path(path))
        return state

    def current_snapshot(self) -> Snapshot | None:
        """The newest frame, if it is of the document as it runs now (not of a start before a
        Reset, or of another scene before a load's first frame has come)."""
        latest = self.latest
        return latest if latest is not None and latest.load == self._loads else None

    @property
    def title_name(self) -> str:
        return self.scene.name or (self.path.stem if self.path else tr("Untitled"))

    # --- requests: the one way in -------------------------------------------------------------

    def submit(self, command: object) -> None:
        """Carry out a request: a command record of sim.document.commands (or .edits), a
        Composed, or a ui.intents request. An edit is checked against the document, pushed on
        the undo stack as one entry (nothing when it changes nothing) and queued for the solver
        thread; the other commands are checked and queued, or steer the document (a new one,
        reset, seek).
        Raises ValueError (CommandError, SceneError; one line) or KeyError (an unknown setting)
        and changes nothing when the request does not fit the document, TypeError when it is
        not a request at all."""
        handler = self._handlers.get(type(command))
        if handler is None:
            raise TypeError(f"not a request: {command!r}")
        handler(command)

    def _request_handlers(self) -> dict[type, Callable[[Any], None]]:
        """By the request's type: one place says what each request does."""
        return {
            ChangeSetting: self._set_setting, SetSetting: self._set_setting,
            SetPin: self._set_pin, CutLinks: self._cut,
            EditScene: self._push, SetSceneInfo: self._push, EditRulers: self._push,
            Composed: self._compose,
            Compose: lambda request: self._compose(request.composed(self.scene)),
            Preview: self._preview,
            BeginGesture: self._begin_gesture, EndGesture: self._end_gesture,
            GrabStart: self._grab, GrabMove: self._grab, GrabRelease: self._queue,
            Run: self._queue, Pause: self._queue, Step: self._queue, SetSpeed: self._set_speed,
            SetProbe: self._set_probe, ToggleProbe: self._toggle_probe,
            SeamCut: self._seam_cut, Reset: self._reset, SeekReplay: self._seek_replay,
            SetThenReset: self._set_then_reset,
            NewDocument: self._new_document,
        }  # fmt: skip

    # --- edits -------------------------------------------------------------------------------

    def _push(self, edit: Edit) -> None:
        """An undoable edit; raises CommandError (a ValueError) if it does not fit the model."""
        validate(edit, *self._counts)
        self.undo_stack.push(EditCommand(self, edit, self._gesture))

    def _begin_gesture(self, _request: BeginGesture) -> None:
        self._gestures += 1
        self._gesture = self._gestures

    def _end_gesture(self, _request: EndGesture) -> None:
        self._gesture = None

    @property
    def settings(self) -> Settings:
        """The document's settings, as the simulation has them once queued edits land."""
        return settings_of(self.scene)

    def apply_edit(self, edit: Edit) -> None:
        """Apply without touching the undo stack (commands call this from redo/undo). A
        change of bodies starts the model afresh from the edited scene."""
        self.scene = apply_to_document(self.scene, edit)
        if self._batch is not None:  # go_to_history sends them, and says so, once
            self._batch.append(edit)
            return
        if edit.restart:
            self.restart_coming.emit(edit.text)
            self._start(self.scene)
        else:
            self.send(edit)
        self.scene_edited.emit(self.scene, edit)

    def go_to_history(self, index: int) -> None:
        """Undo or redo up to undo stack index `index` (the History panel's click) as one
        batch: the document takes the edits one by one, then the model starts afresh once if
        any of them changes bodies, or else takes the live edits in one go, and the views are
        told once (920 entries had meant 920 restarts and redraws: 1.6 s)."""
        if index == self.undo_stack.index():
            return
        self._batch = []
        try:
            self.undo_stack.setIndex(index)
        finally:
            edits, self._batch = self._batch, None
        restart = next((edit for edit in edits if edit.restart), None)
        if restart is not None:
            self.restart_coming.emit(restart.text)
            self._start(self.scene)  # from the scene the edits leave: the live ones included
        else:
            self.send_all(edits)
        self.scene_edited.emit(self.scene, None)  # None: the whole document may have changed

    def _compose(self, composed: Composed) -> None:
        """A change of the scene's composition (sim.document.composition): one undoable edit, named
        by its text; what it could not carry over is said on `message`."""
        if composed.scene == self.scene or not composed.text:
            return
        before = self.scene
        self._push(edit_of(self.scene, composed))
        self._finer_sheet.start(before, self.scene)  # a finer sheet may hang far more stretched
        if composed.message:
            self.message.emit(composed.message)

    def _preview(self, preview: Preview) -> None:
        """Show a change being dragged (a pin, the ball, an obstacle) without recording it:
        the drag's end asks for one undoable edit from where it began. Live changes only."""
        command = preview.command
        edit: Edit
        if isinstance(command, Compose):
            edit = edit_of(self.scene, command.composed(self.scene))
            if edit.restart:
                return
        elif isinstance(command, SetPin) and command.anchor is not None:  # a pin dragged
            edit = SetPin(command.particle, as_point(command.anchor), None)
        elif isinstance(command, ChangeSetting):
            value = SETTINGS_TABLE[command.key].check(command.value)
            edit = SetSetting(command.key, value, value)
        else:
            raise TypeError(f"not a preview: {command!r}")
        validate(edit, *self._counts)
        self.send(edit)

    def _set_setting(self, request: ChangeSetting | SetSetting) -> None:
        """Change a setting (undoable) from the value the document has (a SetSetting's own
        `previous` is what its sender saw); raises ValueError outside the declared range."""
        key = request.key
        if key not in SETTINGS_TABLE:
            raise KeyError(f"{key}: no such setting")
        try:
            value = SETTINGS_TABLE[key].check(request.value)
        except ValueError as error:  # named, as the status bar says it without the field
            raise ValueError(f"{key}: {error}") from None
        previous = getattr(self.settings, key)
        if value != previous:
            self._push(SetSetting(key, value, previous))

    def _set_pin(self, request: SetPin) -> None:
        """Pin, move or (anchor None) unpin a particle: one undoable edit. A pin made where the
        particle is in the run (`live`, the Pin tool's) is the document's at `anchor`."""
        particle, anchor, live = request.particle, request.anchor, request.live
        previous = next((p.anchor for p in self.scene.pins if p.particle == particle), None)
        if anchor is not None:
            anchor = as_point(anchor)
        if live is not None:
            live = as_point(live)
        if anchor != previous:
            self._push(SetPin(particle, anchor, previous, None if live == anchor else live))

    def _cut(self, request: CutLinks) -> None:
        """Cut the links of a stroke that are still live (restore those that are cut): one
        undoable edit."""
        links = {int(k) for k in request.links}
        if request.restore:
            chosen = links & set(self.scene.cuts)
        else:
            snapshot = self.current_snapshot()  # the run's tears: the file's and its own
            torn = snapshot.torn if snapshot is not None else self.scene.tears
            chosen = links - set(self.scene.cuts) - set(torn)
        if chosen:
            self._push(CutLinks(tuple(sorted(chosen)), request.restore))

    def _set_probe(self, edit: SetProbe) -> None:
        """Attach or take off a probe: one undoable edit; raises CommandError (one line) when
        it does not fit the document (a fifth probe, a particle probed twice)."""
        edit.fits(self.scene)
        self._push(edit)

    def _toggle_probe(self, request: ToggleProbe) -> None:
        """The Probe tool's click: a probe on the particle, or off it if it has one."""
        particle, probes = int(request.particle), self.scene.probes
        if particle in probes:
            self._set_probe(SetProbe(particle, False, probes.index(particle)))
        else:
            self._set_probe(SetProbe(particle, True, len(probes)))

    def _seam_cut(self, _request: SeamCut) -> None:
        """The model's own seam cut of the first sheet."""
        topology = build_topology(self.scene)
        if topology.sheets:
            self._cut(CutLinks(tuple(seam_links(topology))))

    # --- grab (not an edit: it changes only the running state) -------------------------------

    def _grab(self, request: GrabStart | GrabMove) -> None:
        # Paused, nothing steps: the particle goes to the pointer at once so the grab shows.
        command = dataclasses.replace(
            request, target=as_point(request.target), place=not self.running
        )
        if isinstance(command, GrabStart):
            command = dataclasses.replace(command, particle=int(command.particle))
        else:  # a pointer's move: the particle follows over the steps the pointer took
            command = dataclasses.replace(command, over_steps=AS_THE_POINTER_TOOK)
        self._queue(command)

    # --- simulation --------------------------------------------------------------------------

    def _queue(self, command: GrabStart | GrabMove | GrabRelease | Run | Pause | Step) -> None:
        validate(command, *self._counts)
        self.send(command)

    def _reset(self, _request: Reset) -> None:
        """Back to t = 0 and the set-up: rest positions, the edits on the undo stack applied,
        the links the run tore whole again (a file's own tears, a saved state's, stay: they are
        its set-up). Pins of the set-up anchor rest places, so the sheet starts unstretched;
        if pins were moved on purpose it starts stretched, and `message` says so."""
        self._start(self.scene)
        away = pins_away_from_rest(self.scene)
        if away:
            message = (
                tr("Reset: 1 pin is away from its rest place — the cloth starts stretched")
                if away == 1
                else tr(
                    "Reset: {count} pins are away from their rest places — the cloth starts "
                    "stretched"
                )
            )
            self.message.emit(message.format(count=away))

    def _set_then_reset(self, request: SetThenReset) -> None:
        self._set_setting(request.change)  # raises, changing nothing, if it does not fit
        self._reset(Reset())

    def _set_speed(self, request: SetSpeed) -> None:
        self.speed = request.speed
        self.send(request)
        self.speed_changed.emit(request.speed)

    def _seek_replay(self, request: SeekReplay) -> None:
        if self.replay is not None:  # the bar is hidden then; a late seek does nothing
            self.seek(request.step)

    def _new_document(self, request: NewDocument) -> None:
        if request.paused:  # before the load: its first frame is shown, not run past
            self.send(Pause())
        self.load(request.scene, None)

    # --- the two requests many callers make: thin wrappers over submit ------------------------

    def set_setting(self, key: str, value: Any) -> None:
        """submit(ChangeSetting(key, value)): raises KeyError or ValueError."""
        self.submit(ChangeSetting(key, value))

    def set_running(self, running: bool) -> None:
        self.submit(Run() if running else Pause())

    def fork(self) -> Engine | None:
        """A copy of the run as the solver thread has it now, to step on its own (an export
        takes its frames from one, leaving the run as it is); None before the first load."""
        box: list[Engine] = []
        self.worker.interrupt()  # a slow step stops at its next pass instead of being waited for
        self._fork_requested.emit(box)
        return box[0] if box else None

    def shutdown(self) -> None:
        """Stop the solver thread and wait for it; safe to call twice."""
        self._finer_sheet.wait()
        self._collector.stop()
        if not self._thread.isRunning():
            return
        self.worker.interrupt()  # a slow step stops at its next pass
        QMetaObject.invokeMethod(self.worker, "stop", Qt.ConnectionType.BlockingQueuedConnection)
        self._thread.quit()
        self._thread.wait()

    # --- from the worker -----------------------------------------------------------------------

    @Slot()
    def _take_snapshot(self) -> None:
        snapshot = self.worker.take_snapshot()
        if snapshot is None or snapshot.load != self._loads:
            return  # a frame of a scene the document no longer is
        self.latest = snapshot  # what the model did stays here, never in the document
        self._follow_replayed_rulers(snapshot)
        self.snapshot_changed.emit(snapshot)

    def _follow_replayed_rulers(self, snapshot: Snapshot) -> None:
        """A replay shows the rulers the recorded run had at the frame's step. Rulers are the
        document's alone (the model has none), and a replay's document is the recording's scene,
        so the recorded ruler edits would never show. Once the user edits the replay, the
        document is theirs (as a seek then says, by starting it afresh)."""
        replay = self.replay
        if replay is None or self.undo_stack.count():
            return
        start = replay.scene
        if self._ruler_edits[0] is not replay:
            edits = tuple(i for i in replay.commands if isinstance(i.command, EditRulers))
            self._ruler_edits = (replay, edits)
        rulers = rulers_at(start, self._ruler_edits[1], snapshot.clock)
        if rulers != self.scene.rulers:
            edit = EditRulers(tuple(rulers), tuple(self.scene.rulers))
            self.scene = edit.on_document(self.scene)
            self.scene_edited.emit(self.scene, edit)

    @Slot(object)
    def _record(self, stamped: Stamped) -> None:
        if isinstance(stamped.command, Load):
            self.journal.clear()
        self.journal.append(stamped)
        if self.replay is not None and isinstance(stamped.command, SetProbe):
            self._follow_recorded_probe(stamped.command)
        replay = self.replay
        if (
            replay is not None and self._replay_end_pending
            and isinstance(stamped.command, Pause) and stamped.step >= replay.steps
        ):  # fmt: skip
            self._replay_end_pending = False
            self.replay_finished.emit(stamped.step)

    def _follow_recorded_probe(self, edit: SetProbe) -> None:
        """A probe the recorded run attached or took off, reached by the replay: the document
        shows it (the views follow it). One the document has already done is left: the user's
        own, or one a seek back replays again."""
        try:
            edit.fits(self.scene)
        except CommandError:
            return
        self.scene = apply_to_document(self.scene, edit)
        self.scene_edited.emit(self.scene, edit)

    @Slot(bool)
    def _on_running_changed(self, running: bool) -> None:
        self.running = running
        self.running_changed.emit(running)
