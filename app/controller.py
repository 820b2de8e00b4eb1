"""The controller: holds the window's Session (sim.lab.session: the document, its history and
the one way to change them), the document's path, the solver thread and the undo stack, and is
the one place the GUI asks for changes.

Every request is a command record (sim.document.commands, .edits, .requests, or an app request
of ui.intents) handed to `submit`, the one way in. The session checks it against the document,
enters an edit in its history and applies it; what it sends to the run goes into the solver
thread's one inbox, and the undo stack is a view of the session's history, so the Edit menu and
the History panel undo through the session. So saving never has to read the simulation across
threads: the document is the experiment's set-up, the scene as loaded plus the user's edits.
What the model does while it runs (the links it tears, where the particles go) is never written
into it; `save_state` exports the links torn so far, from the newest snapshot, as a scene file
of its own. A command the solver thread refuses is said on `message`.
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
from clothlab.sim.core.parameters import PARAMETERS, Settings
from clothlab.sim.core.snapshot import Snapshot
from clothlab.sim.document.commands import (
    AS_THE_POINTER_TOOK,
    CommandError,
    Edit,
    EditRulers,
    GrabMove,
    GrabStart,
    Load,
    Pause,
    Run,
    SetProbe,
    SetSpeed,
    Stamped,
    apply_to_document,
)
from clothlab.sim.document.composition import Composed
from clothlab.sim.document.presets import load_preset, resolve_scene
from clothlab.sim.document.recording import (
    Recording,
    from_journal,
    is_recording_file,
    load_recording,
)
from clothlab.sim.document.requests import ChangeSetting, Compose, Reset
from clothlab.sim.document.scene import (
    CameraSpec,
    RulerSpec,
    Scene,
    as_point,
    save_scene,
    state_scene,
)
from clothlab.sim.lab.engine import Engine
from clothlab.sim.lab.session import Pushed, Session, merge_key
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
    """The undo stack's entry for one entry of the session's history: its text, and its undo
    and redo (the Edit menu's, the History panel's), which are the session's. It merges with the
    next one exactly when the session's history merged them (sim.lab.session.History: one
    setting's changes within one gesture)."""

    def __init__(self, controller: Controller, edit: Edit) -> None:
        super().__init__(edit.text)
        self._controller = controller
        self.edit = edit
        self._pushed = True  # the session applied it as it entered: the stack's first redo
        key = merge_key(edit)
        self._id = -1 if key is None else _SETTING_COMMAND_ID + list(PARAMETERS).index(key)

    def redo(self) -> None:
        if self._pushed:
            self._pushed = False
            return
        self._controller._follow_stack(self._controller.session.redo)

    def undo(self) -> None:
        self._controller._follow_stack(self._controller.session.undo)

    def id(self) -> int:
        return self._id

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 (Qt override)
        outcome = self._controller._outcome
        if outcome is Pushed.MERGED:
            self.edit = self._controller.session.history.entries[-1].edit
            self.setText(self.edit.text)
        self.setObsolete(outcome is Pushed.DROPPED)  # a drag back to where it began
        return outcome is not Pushed.ADDED


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
        self.session = Session(Scene(), self, self)  # this is its model and its observer
        self._outcome = Pushed.ADDED  # how the session's history took the edit being pushed
        self._stack_follows = False  # the stack moves to where the session already is
        self.path: Path | None = None
        self.latest: Snapshot | None = None
        self.running = False
        self.speed = 1.0
        self.journal: list[Stamped] = []  # what the worker applied since the last load
        self.replay: Recording | None = None  # the recording being replayed, if any
        # the replay's ruler edits (found once: a long recording has a million commands)
        self._ruler_edits: tuple[Recording | None, tuple[Stamped, ...]] = (None, ())
        self._replay_end_pending = False  # its closing Pause is queued, not yet applied
        self._plays = 0  # recordings played; the worker's kept states are of one of them
        self._loads = 0  # Load commands sent; snapshots of older loads are ignored
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
        worker.command_failed.connect(self.message)  # a refused command is said, never lost

    @property
    def scene(self) -> Scene:
        """The document: the session's."""
        return self.session.scene

    @scene.setter
    def scene(self, scene: Scene) -> None:
        """The document replaced without an undo entry (a save's camera, a replay's rulers)."""
        self.session.scene = scene

    def send(self, command: WorkerInput) -> None:
        """Queue a command for the solver thread (the document is not touched)."""
        self.send_all([command])

    def send_all(self, commands: Sequence[WorkerInput]) -> None:
        """Queue commands for the solver thread, which takes them all in one go."""
        for command in commands:
            self.worker.inbox.put(command)
        self.worker.interrupt()
        self.commands_posted.emit()

    # --- the session's model: the solver thread --------------------------------------------

    def restart(self, scene: Scene, because: str | None) -> None:
        """Start the model afresh from `scene`; an edit of its bodies says so first."""
        if because is not None:
            self.restart_coming.emit(because)
        self._start(scene)

    def torn(self) -> frozenset[int]:
        """The links the run has torn: the newest snapshot's (the file's and its own)."""
        snapshot = self.current_snapshot()
        return frozenset(snapshot.torn if snapshot is not None else self.scene.tears)

    # --- the session's observer: the views and the undo stack -------------------------------

    def edited(self, scene: Scene, edit: Edit | None) -> None:
        self.scene_edited.emit(scene, edit)

    def pushed(self, edit: Edit, outcome: Pushed) -> None:
        """The undo stack follows the session's history: a new entry, or merged into the last."""
        self._outcome = outcome
        self.undo_stack.push(EditCommand(self, edit))

    def said(self, message: str) -> None:
        self.message.emit(message)

    def _follow_stack(self, step: Callable[[], object]) -> None:
        """An entry's undo or redo: the session's, unless the stack is only catching up."""
        if not self._stack_follows:
            step()

    # --- documents ---------------------------------------------------------------------------

    def load(self, scene: Scene, path: Path | None = None, play: Play | None = None) -> None:
        """Make `scene` the document (from `path`, or None for a preset or a new scene), and
        start it, or `play` a recording of it."""
        self.session.replace(scene)
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
        self._plays += 1  # states kept of an earlier replay are of another run
        self.load(recording.scene, None, Play(recording, self._plays))

    def seek(self, step: int) -> None:
        """Show the replay at `step` (clamped to 0…its steps), paused, exactly as replaying
        the recording from step 0 builds it; the worker starts from the newest state it kept
        of this replay at or before `step`. Raises ValueError when nothing is replayed."""
        recording = self.replay
        if recording is None:
            raise ValueError(tr("no recording is being replayed"))
        step = max(0, min(int(step), recording.steps))
        if self._replay_edited():  # back to the recording's scene
            self.load(recording.scene, None, Play(recording, self._plays, step, seek=True))
            return
        # The same document (the probes the user attached to the replay stay: they only read
        # it): the views and camera stay.
        self.scene = recording.scene.model_copy(update={"probes": self.scene.probes})
        self._replay_end_pending = True
        self.send(Seek(step))

    def _replay_edited(self) -> bool:
        """Whether the user changed the replayed run: an edit on the undo stack that changes
        what the model computes (a probe does not)."""
        return any(not entry.edit.leaves_model for entry in self.session.history.entries)

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
        self.session.history.mark_saved()
        self.undo_stack.setClean()
        if target != self.path:
            self.path = target
            self.path_changed.emit(target)
        return target

    def mark_recovered(self) -> None:
        """The document was restored from a backup file: not clean until a save, in the undo
        stack (Qt's resetClean: the title shows [*]) and in the session's history alike."""
        self.session.history.forget_saved()
        self.undo_stack.resetClean()

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
        """Carry out a request: what the session takes (sim.lab.session.Session.submit: edits,
        run commands, sim.document.requests), or the app's own (a grab made while paused shows
        at once, the speed, a replay's seek, a new document). Raises ValueError (CommandError,
        SceneError; one line) or KeyError (an unknown setting) and changes nothing when the
        request does not fit the document, TypeError when it is not a request at all."""
        handler = self._handlers.get(type(command), self.session.submit)
        handler(command)

    def _request_handlers(self) -> dict[type, Callable[[Any], None]]:
        """The requests the controller carries out itself, by type; the session takes the rest."""
        return {
            GrabStart: self._grab, GrabMove: self._grab, SetSpeed: self._set_speed,
            Composed: self._compose, Compose: self._compose,
            SeekReplay: self._seek_replay, NewDocument: self._new_document,
        }  # fmt: skip

    @property
    def settings(self) -> Settings:
        """The document's settings, as the simulation has them once queued edits land."""
        return self.session.settings

    def go_to_history(self, index: int) -> None:
        """Undo or redo up to undo stack index `index` (the History panel's click) as one
        batch (Session.go_to); the stack then moves there without doing it again."""
        if index == self.undo_stack.index():
            return
        self.session.go_to(index)
        self._stack_follows = True
        try:
            self.undo_stack.setIndex(index)
        finally:
            self._stack_follows = False

    def _compose(self, request: Composed | Compose) -> None:
        """A change of composition, the session's; a sheet made finer is then checked: it may
        hang far more stretched."""
        before = self.scene
        self.session.submit(request)
        if self.scene is not before:
            self._finer_sheet.start(before, self.scene)

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
        self.session.submit(command)

    # --- simulation --------------------------------------------------------------------------

    def _set_speed(self, request: SetSpeed) -> None:
        self.session.submit(request)
        self.speed = request.speed
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
