"""The solver thread: pacing around the run's engine (sim.lab.engine), in model time paced to the
wall clock.

Everything that changes the run is a command put on one inbox; a queued signal wakes the worker,
which applies the commands between steps. The engine does the stepping, applies the commands
scheduled for later steps (a replay's) and keeps the journal, which the worker passes on to
the controller entry by entry (`command_applied`), each before the snapshot of any later step.
The only other thing that leaves the worker is an immutable Snapshot, handed over through a
one-slot mailbox: the worker emits `snapshot_ready` only when the mailbox was empty, so however
fast it steps, the GUI event queue holds at most one pending notification and the GUI always
takes the newest frame.
"""

from __future__ import annotations

import math
import queue
import threading
import time
from dataclasses import dataclass
from typing import TypeAlias

import numpy as np
from PySide6.QtCore import QObject, Qt, QTimer, Signal, Slot

from clothlab.sim.core.readouts import CSV_COLUMNS
from clothlab.sim.core.snapshot import Snapshot, measures_in_si, merged
from clothlab.sim.document.commands import Command, CommandError, Load, Pause
from clothlab.sim.document.recording import Recording
from clothlab.sim.document.scene import Scene
from clothlab.sim.lab.engine import Engine, KeptStates, Row
from clothlab.sim.lab.stuck import StuckWatch, stuck_message
from clothlab.sim.lab.variants import scene_of

AS_FAST_AS_POSSIBLE = math.inf
TICK_MS = 8  # pacing timer; 1× needs one 1/120 s step per tick on average
STEP_BUDGET_S = 0.005  # wall time one tick may spend stepping: leaves the GUI (and a software
# OpenGL renderer) most of a core even when the solver cannot keep up
MAX_CATCH_UP_S = 0.1  # after a stall (JIT compile, a suspended laptop) do not try to catch up
SNAPSHOT_INTERVAL_S = 1.0 / 60.0  # more would only be dropped by the GUI
TIMING_WINDOW_S = 0.5  # real-time factor is averaged over this much wall time
BEHIND_RATIO = 0.95  # below this fraction of the target speed the solver cannot keep up
_T, _MOTION, _STRETCH = (CSV_COLUMNS.index(k) for k in ("t", "motion", "max_stretch"))


@dataclass(frozen=True)
class Play:
    """Replay a recording from its scene, running or paused as the run was, or (`seek`) paused
    at `step`. Replays of one `session` share the states kept for seeking."""

    recording: Recording
    session: int
    step: int = 0
    seek: bool = False


@dataclass(frozen=True)
class Seek:
    """Go to `step` of the replay being played, paused, as replaying it from step 0 would."""

    step: int


WorkerInput: TypeAlias = Command | Play | Seek


class SnapshotMailbox:
    """A thread-safe slot holding at most the newest snapshot."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._snapshot: Snapshot | None = None

    def post(self, snapshot: Snapshot) -> bool:
        """Replace the content, keeping the readout rows of a snapshot not taken yet; True
        if the slot was empty (the reader needs waking)."""
        with self._lock:
            kept = self._snapshot
            self._snapshot = snapshot if kept is None else merged(kept, snapshot)
        return kept is None

    def take(self) -> Snapshot | None:
        with self._lock:
            snapshot, self._snapshot = self._snapshot, None
        return snapshot


class Pacer:
    """Model time owed to the wall clock at a speed, and the real-time factor achieved."""

    def __init__(self) -> None:
        self.speed = 1.0  # model seconds per wall second; inf: as fast as possible
        self.reset()

    @property
    def fastest(self) -> bool:
        return math.isinf(self.speed)

    def reset(self) -> None:
        now = time.perf_counter()
        self._last_tick = now
        self.debt = 0.0  # model time owed, s
        self._window_start = now
        self._window_model_time = 0.0

    def tick(self) -> None:
        now = time.perf_counter()
        if not self.fastest:
            self.debt += min(now - self._last_tick, MAX_CATCH_UP_S) * self.speed
        self._last_tick = now

    def owed(self, dt: float) -> int:
        """Whole steps owed (as many as a tick's budget allows, when as fast as possible)."""
        return 1 << 30 if self.fastest else int(self.debt / dt)

    def paid(self, steps: int, dt: float) -> None:
        self.debt -= steps * dt
        if not self.fastest and self.debt >= dt:
            self.debt = 0.0  # out of budget: forget the rest so model time slows, not piles up
        self.debt = max(self.debt, 0.0)
        self._window_model_time += steps * dt

    def timing(self) -> tuple[float, bool] | None:
        """(real-time factor, behind) once per TIMING_WINDOW_S of wall time, else None."""
        now = time.perf_counter()
        wall = now - self._window_start
        if wall < TIMING_WINDOW_S:
            return None
        factor = self._window_model_time / wall
        self._window_start, self._window_model_time = now, 0.0
        return factor, not self.fastest and factor < BEHIND_RATIO * self.speed


class SolverWorker(QObject):
    """Owns the run; lives in the solver thread. Put inputs on `inbox`, then emit a signal
    connected to `drain`."""

    snapshot_ready = Signal()  # the mailbox holds a snapshot: call take_snapshot()
    command_applied = Signal(object)  # Stamped: a journal entry (a Load starts a new journal)
    timing_changed = Signal(float, bool)  # real-time factor, cannot keep up
    running_changed = Signal(bool)
    load_failed = Signal(str)  # one-line reason a scene could not be built
    command_failed = Signal(str)  # one-line reason a command was refused
    instability_found = Signal(str)  # the model blew up: paused, last good state restored
    stuck_found = Signal(str)  # at rest tangled, far from how it rests from the start

    def __init__(self) -> None:
        super().__init__()
        self.mailbox = SnapshotMailbox()
        self.inbox: queue.SimpleQueue[WorkerInput] = queue.SimpleQueue()
        self.engine: Engine | None = None
        self.kept = KeptStates()  # of the replay; replace before playing to keep more often
        self._session: int | None = None  # the replay whose states `kept` holds
        self._replay: Recording | None = None  # being played: pause at its end
        self._replay_end: int | None = None  # its last step, until reached
        self._pacer = Pacer()
        self._stuck = StuckWatch()
        self._rows: list[Row] = []  # readout rows for the next snapshot
        self._probe_rows: list[Row] = []  # the probes' readings beside them
        self._stop = np.zeros(1, dtype=np.uint8)  # (1,) the engines' stop (interrupt())
        self._loads = 0  # Loads and Plays taken; snapshots carry it
        self._journal_sent = (0, 0)  # (engine's restores, entries) passed on to the controller
        self._timer: QTimer | None = None
        self._running = False
        self._frame = 0
        self._dirty = False  # state changed since the last snapshot
        self._last_snapshot = -math.inf
        self._earlier_steps = 0  # steps the engines before this one took

    # --- lifecycle (run in the solver thread) ---------------------------------------------

    @Slot()
    def start(self) -> None:
        """Create the pacing timer; it must belong to the thread it fires in."""
        self._timer = QTimer(self)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.timeout.connect(self._tick)
        self._pacer.reset()
        self._apply_interval()
        self._timer.start()

    @Slot()
    def stop(self) -> None:
        self._running = False
        if self._timer is not None:
            self._timer.stop()

    # --- inputs ----------------------------------------------------------------------------

    def interrupt(self) -> None:
        """From any thread, after putting a command in the inbox: a slow step under way stops
        at its next pass and is undone, so the command (or a shutdown) need not wait for it."""
        self._stop[0] = 1

    @Slot()
    def drain(self) -> None:
        """Apply every input waiting."""
        self._stop[0] = 0  # before taking the inputs: one put after this interrupts again
        while True:
            try:
                item = self.inbox.get_nowait()
            except queue.Empty:
                break
            self._take(item)
        self._publish(force=not self._running)

    def _take(self, item: WorkerInput) -> None:
        self._stuck = StuckWatch()  # a command may change whether the model can leave its rest
        self._dirty = True
        if isinstance(item, Load):
            self._load(*_built(item.scene))
        elif isinstance(item, Play):
            self._play(item)
        elif isinstance(item, Seek):
            self._seek(item.step)
        elif self.engine is not None:
            self._command(self.engine, item)

    def _command(self, engine: Engine, command: Command) -> None:
        si = measures_in_si(engine.sim)
        try:
            engine.apply(command)  # the solver thread's own commands are only journalled
        except CommandError as error:
            self.command_failed.emit(str(error))
            return
        if measures_in_si(engine.sim) != si:
            # a fabric given or taken: the rows not yet posted are in the other unit system,
            # and the panels start their history afresh in the new one
            self._rows, self._probe_rows = [], []
        command.on_thread(self)  # run, pause, step and speed call the methods below

    # --- what the solver thread's commands steer (sim.document.commands.SolverThread) ------
    # Called in the solver thread only, by the commands it takes: others put a command in the
    # inbox.

    def set_running(self, running: bool) -> None:
        if running != self._running:
            self._running = running
            self._pacer.reset()
            self.running_changed.emit(running)
            self.timing_changed.emit(0.0, False)

    def set_speed(self, speed: float) -> None:
        self._pacer.speed = speed if speed > 0 else AS_FAST_AS_POSSIBLE
        self._pacer.reset()
        self._apply_interval()

    def step_paused(self, count: int) -> None:
        """Steps asked for while paused; running, the pacing takes its own."""
        if not self._running:
            self._advance(count)

    def _load(self, engine: Engine | None, failure: str = "") -> bool:
        """Make a new engine the run (a new load for the snapshots); keeps the previous one
        if the scene could not be built."""
        self._loads += 1
        self._replay = self._replay_end = None  # until told this is a replay
        if engine is None:
            self.load_failed.emit(failure)
            return False
        engine.sim.stop = self._stop  # one flag for every simulation this worker steps
        self._earlier_steps = self.steps_taken
        self.engine = engine
        self._rows = engine.take_rows()  # the row of step 0
        self._probe_rows = engine.take_probe_rows()  # the probes' readings beside it
        self._journal_sent = (engine.restores, 0)
        self._pacer.reset()
        return True

    def _play(self, play: Play) -> None:
        if play.session != self._session:  # states kept of an earlier replay are another run's
            self._session, self.kept = play.session, self.kept.emptied()
        if self._load(*_built(play.recording, self.kept)):
            self._replay = play.recording
            self._seek(play.step, pause=play.seek)

    def _seek(self, step: int, pause: bool = True) -> None:
        engine, recording = self.engine, self._replay
        if engine is None or recording is None:
            self.command_failed.emit("no recording is being replayed")
            return
        if pause:
            self.set_running(False)
        engine.seek(max(0, min(step, recording.steps)))
        self._replay_end = recording.steps
        self._after_steps(engine)

    @Slot(object)
    def fork(self, box: list[Engine]) -> None:
        """Put a copy of the run as it is now in `box` (called blocking from another thread,
        which interrupted any slow step first)."""
        self._stop[0] = 0
        if self.engine is not None:
            box.append(self.engine.fork())

    # --- reading (any thread) ---------------------------------------------------------------

    def take_snapshot(self) -> Snapshot | None:
        return self.mailbox.take()

    @property
    def running(self) -> bool:
        return self._running

    @property
    def steps_taken(self) -> int:
        """Steps taken since start, seeks included (for tests and benchmarks)."""
        return self._earlier_steps + (self.engine.stepped if self.engine is not None else 0)

    # --- pacing ----------------------------------------------------------------------------

    def _apply_interval(self) -> None:
        if self._timer is not None:
            self._timer.setInterval(0 if self._pacer.fastest else TICK_MS)

    @Slot()
    def _tick(self) -> None:
        self._pacer.tick()
        engine = self.engine
        if self._running and engine is not None:
            dt = engine.sim.settings.dt
            # Paced, the solver takes the fewest threads that keep up, leaving a core to drawing.
            pacer = self._pacer
            engine.sim.threads.required_rate = None if pacer.fastest else pacer.speed / dt
            owed = pacer.owed(dt)
            taken = self._advance(owed, time.perf_counter() + STEP_BUDGET_S) if owed else 0
            pacer.paid(taken, dt)
            timing = pacer.timing()
            if timing is not None:
                self.timing_changed.emit(*timing)
        self._publish()

    def _advance(self, count: int, deadline: float | None = None) -> int:
        """Step the run (never past the end of a replay while running); pause and say why if
        it blew up."""
        engine = self.engine
        assert engine is not None
        if self._running and self._replay_end is not None:
            count = min(count, max(0, self._replay_end - engine.clock))
        taken = engine.advance(count, deadline)
        self._dirty = self._dirty or taken > 0
        if engine.blew_up:
            self.set_running(False)
            self._pacer.debt = 0.0
            instability = engine.sim.instability
            self.instability_found.emit(instability.message if instability else "blew up")
        self._after_steps(engine)
        return taken

    def _after_steps(self, engine: Engine) -> None:
        """A replay that reached its end pauses there (and journals so); the stuck watch
        looks at every row recorded on the way."""
        end = self._replay_end
        if end is not None and engine.clock >= end:
            self._replay_end = None
            self.set_running(False)
            engine.apply(Pause())
        rows = engine.take_rows()
        self._rows.extend(rows)
        self._probe_rows.extend(engine.take_probe_rows())
        for line in rows:
            if self._stuck.observe(line[_T], line[_MOTION], line[_STRETCH]):
                message = stuck_message(engine.sim)
                if message is not None:
                    self.stuck_found.emit(message)

    def _publish(self, force: bool = False) -> None:
        """Pass on the new journal entries, then post a snapshot if the state changed, at most
        ~60 per second unless forced."""
        engine = self.engine
        if engine is None:
            return
        self._send_journal(engine)
        if not self._dirty:
            return
        now = time.perf_counter()
        if not force and now - self._last_snapshot < SNAPSHOT_INTERVAL_S:
            return
        self._frame += 1
        self._last_snapshot = now
        self._dirty = False
        rows, probe_rows = self._rows_in_the_present_system(engine)
        self._rows, self._probe_rows = [], []
        if self.mailbox.post(engine.snapshot(self._frame, self._loads, rows, probe_rows)):
            self.snapshot_ready.emit()

    def _rows_in_the_present_system(self, engine: Engine) -> tuple[list[Row], list[Row]]:
        """The rows not yet posted (and their probes' readings), less those from before the
        last command that gave or took a fabric: a replay can cross one within a frame, and a
        seek back brings the rows from step 0 again."""
        since = engine.unit_system_since
        if not self._rows or self._rows[0][0] >= since:
            return self._rows, self._probe_rows
        kept = [k for k, row in enumerate(self._rows) if row[0] >= since]
        probe_rows = self._probe_rows
        if len(probe_rows) == len(self._rows):
            probe_rows = [probe_rows[k] for k in kept]
        return [self._rows[k] for k in kept], probe_rows

    def _send_journal(self, engine: Engine) -> None:
        restores, sent = self._journal_sent
        if restores != engine.restores:  # a seek went back: the journal starts again
            restores, sent = engine.restores, 0
        for item in engine.journal[sent:]:
            self.command_applied.emit(item)
        self._journal_sent = (restores, len(engine.journal))


def _built(source: Scene | Recording, keep: KeptStates | None = None) -> tuple[Engine | None, str]:
    """A run of the scene or replay of the recording, or None and the one-line reason not."""
    try:
        return Engine.of(source, record_every=None, keep=keep, record_probes=True), ""
    except (ValueError, IndexError, MemoryError) as error:
        return None, f"{scene_of(source).name}: {error}".splitlines()[0]
