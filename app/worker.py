"""The solver thread: a worker object that owns the Simulation and steps it in model time paced
to the wall clock.

Everything that changes the simulation is a command (sim.commands) put on one queue, the
`CommandQueue`; a queued signal wakes the worker, which applies each command between steps at
the step it was stamped for (or the next one) and records the step it used in its journal, so
the journal replays the run bit for bit. The only thing that leaves the worker is an immutable
Snapshot, handed over through a one-slot mailbox: the worker emits `snapshot_ready` only when
the mailbox was empty, so however fast it steps, the GUI event queue holds at most one pending
notification and the GUI always takes the newest frame.

While a recording is replayed the worker keeps a copy of the whole simulation every so many
steps (`KeptStates`), so a seek can start from the newest kept state at or before its step
and replay forward from there instead of from step 0.
"""

from __future__ import annotations

import copy
import math
import threading
import time
from collections import deque
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QObject, Qt, QTimer, Signal, Slot

from clothlab.sim.commands import (
    WORKER_COMMANDS,
    CommandError,
    Load,
    Pause,
    Run,
    SetSpeed,
    Stamped,
    Step,
    apply_to_simulation,
    validate,
)
from clothlab.sim.readouts import CSV_COLUMNS, record_stride, row
from clothlab.sim.scene import build_simulation
from clothlab.sim.snapshot import Snapshot, merged, take_snapshot
from clothlab.sim.solver import Simulation
from clothlab.sim.stuck import StuckWatch, stuck_message

AS_FAST_AS_POSSIBLE = math.inf
# The stamp of a live command: apply at the current step (the journal records which).
APPLY_NOW = -1
TICK_MS = 8  # pacing timer; 1× needs one 1/120 s step per tick on average
STEP_BUDGET_S = 0.005  # wall time one tick may spend stepping: leaves the GUI (and a software
# OpenGL renderer) most of a core even when the solver cannot keep up
MAX_CATCH_UP_S = 0.1  # after a stall (JIT compile, a suspended laptop) do not try to catch up
SNAPSHOT_INTERVAL_S = 1.0 / 60.0  # more would only be dropped by the GUI
TIMING_WINDOW_S = 0.5  # real-time factor is averaged over this much wall time
BEHIND_RATIO = 0.95  # below this fraction of the target speed the solver cannot keep up
KEEP_EVERY = 240  # model steps between kept states of a replay (2 s at 1/120 s)
KEEP_AT_MOST = 64  # kept states of one replay; when full, every other one goes
Row = tuple[float, ...]


def copy_simulation(sim: Simulation) -> Simulation:
    """A copy that steps on bit for bit as the original would: one deepcopy, so the caches
    keyed by identity (the link material's key, the XPBD multipliers' links) still point at
    the copy's own arrays. The topology never changes after a build: it is shared."""
    return copy.deepcopy(sim, {id(sim.topology): sim.topology})


@dataclass(frozen=True)
class KeptState:
    step: int
    sim: Simulation  # never stepped: restoring copies it
    row_count: int  # the session's readout rows from step 0 up to and including `step`


class KeptStates:
    """The states kept of one replay (a session), read by the GUI thread and written by the
    worker. A state is kept after the step to its step and before the commands stamped for
    that step: restoring it, those commands are still to apply."""

    def __init__(self, every: int = KEEP_EVERY, at_most: int = KEEP_AT_MOST) -> None:
        self._lock = threading.Lock()
        # The readout rows of the session's run from step 0, as far as it has gone: the same
        # in every replay of it, so kept states share them (a count each) instead of each
        # holding its own copy. Only the worker reads and writes them.
        self.rows: list[Row] = []
        self._base_every = every
        self._at_most = max(2, at_most)
        self._session: int | None = None
        self._every = every
        self._states: list[KeptState] = []  # in step order

    def begin(self, session: int) -> None:
        """Keep for `session`; the states of another session go."""
        with self._lock:
            if session != self._session:
                self._session, self._every, self._states = session, self._base_every, []
                self.rows = []

    def wants(self, session: int, step: int) -> bool:
        with self._lock:
            newest = self._states[-1].step if self._states else 0
            return session == self._session and step % self._every == 0 and step > newest

    def add(self, session: int, state: KeptState) -> None:
        with self._lock:
            if session != self._session:
                return
            self._states.append(state)
            if len(self._states) > self._at_most:
                # Thin evenly: keep the multiples of twice the spacing, and keep at that.
                self._every *= 2
                self._states = [k for k in self._states if k.step % self._every == 0]

    def nearest(self, session: int, step: int) -> KeptState | None:
        """The newest state of `session` at or before `step`, if any."""
        with self._lock:
            if session != self._session:
                return None
            return next((k for k in reversed(self._states) if k.step <= step), None)

    def steps(self) -> list[int]:
        with self._lock:
            return [k.step for k in self._states]


@dataclass(frozen=True)
class KeepStates:
    """Worker-internal: the scene just loaded is the replay `session`'s, up to step `until`;
    keep states of it until something not in the recording is applied."""

    session: int
    until: int


@dataclass(frozen=True)
class Restore:
    """Worker-internal, after the replay's Load: go on from a kept state instead. `journal`
    is what the rebuild from step 0 would have journalled before the kept state's step."""

    session: int
    until: int
    kept: KeptState
    journal: tuple[Stamped, ...]


INTERNAL_COMMANDS = (KeepStates, Restore)


class SnapshotMailbox:
    """A thread-safe slot holding at most the newest snapshot."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._snapshot: Snapshot | None = None

    def post(self, snapshot: Snapshot) -> bool:
        """Replace the content, keeping the readout rows of a snapshot not taken yet; True
        if the slot was empty (the reader needs waking)."""
        with self._lock:
            was_empty = self._snapshot is None
            self._snapshot = snapshot if was_empty else merged(self._snapshot, snapshot)
        return was_empty

    def take(self) -> Snapshot | None:
        with self._lock:
            snapshot, self._snapshot = self._snapshot, None
        return snapshot


class CommandQueue:
    """Stamped commands from any thread to the worker. Commands stamped APPLY_NOW come out in
    the order they were put; the others (a replay's) wait for their step. A Load drops the
    waiting commands put before it: they belonged to the scene it replaces."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._now: deque[tuple[int, Stamped]] = deque()
        self._scheduled: deque[tuple[int, Stamped]] = deque()  # in step order
        self._count = 0

    def put(self, item: Stamped) -> None:
        with self._lock:
            self._count += 1
            (self._now if item.step == APPLY_NOW else self._scheduled).append((self._count, item))

    def take_due(self, steps: int) -> list[Stamped]:
        """Every command to apply now: the immediate ones, then those stamped for `steps` or
        earlier."""
        due = []
        with self._lock:
            while self._now:
                order, item = self._now.popleft()
                due.append(item)
                if isinstance(item.command, (Load, Restore)):
                    self._scheduled = deque(e for e in self._scheduled if e[0] > order)
                    # what follows is due against the new state's steps
                    steps = item.command.kept.step if isinstance(item.command, Restore) else 0
            while self._scheduled and self._scheduled[0][1].step <= steps:
                due.append(self._scheduled.popleft()[1])
        return due

    def pending(self) -> int:
        with self._lock:
            return len(self._now) + len(self._scheduled)


class SolverWorker(QObject):
    """Owns the Simulation; lives in the solver thread. Put commands on `queue`, then emit a
    signal connected to `drain`."""

    snapshot_ready = Signal()  # the mailbox holds a snapshot: call take_snapshot()
    command_applied = Signal(object)  # Stamped: a command and the step it was applied at
    timing_changed = Signal(float, bool)  # real-time factor, cannot keep up
    running_changed = Signal(bool)
    load_failed = Signal(str)  # one-line reason a scene could not be built
    command_failed = Signal(str)  # one-line reason a command was refused
    instability_found = Signal(str)  # the model blew up: paused, last good state restored
    stuck_found = Signal(str)  # at rest tangled, far from how it rests from the start

    def __init__(self) -> None:
        super().__init__()
        self.mailbox = SnapshotMailbox()
        self.queue = CommandQueue()
        self._sim: Simulation | None = None
        self._stuck = StuckWatch()
        self._stop = np.zeros(1, dtype=np.uint8)  # (1,) the simulations' stop (interrupt())
        self._loads = 0  # Load commands taken; snapshots carry it
        self._rows: list[tuple[float, ...]] = []  # readout rows since the last snapshot
        self._measured: object = None  # the readouts of the state as it is, if taken
        self._timer: QTimer | None = None
        self._running = False
        self._speed = 1.0
        self._frame = 0
        self._dirty = False  # state changed since the last snapshot
        self._last_tick = 0.0
        self._debt = 0.0  # model time owed to the wall clock, s
        self._last_snapshot = -math.inf
        self._window_start = 0.0
        self._window_model_time = 0.0
        self.kept = KeptStates()  # of the replay; replace before playing to keep more often
        self._keeping: KeepStates | None = None  # the replay being kept, while it is exact
        self._history_count = 0  # readout rows from step 0 of this run, while keeping
        self._loaded = False  # the last Load built its scene
        self.steps_taken = 0  # steps taken since start, for tests
        self.last_seek_from: int | None = None  # the kept step last restored, None after a Load

    # --- lifecycle (run in the solver thread) ---------------------------------------------

    @Slot()
    def start(self) -> None:
        """Create the pacing timer; it must belong to the thread it fires in."""
        self._timer = QTimer(self)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.timeout.connect(self._tick)
        self._reset_clock()
        self._apply_interval()
        self._timer.start()

    @Slot()
    def stop(self) -> None:
        self._running = False
        if self._timer is not None:
            self._timer.stop()

    # --- commands --------------------------------------------------------------------------

    def interrupt(self) -> None:
        """From any thread, after putting a command on the queue: a slow step under way stops
        at its next pass and is undone, so the command (or a shutdown) need not wait for it."""
        self._stop[0] = 1

    @Slot()
    def drain(self) -> None:
        """Apply every command that is due now."""
        self._stop[0] = 0  # before taking the commands: one put after this interrupts again
        steps = self._sim.state.steps if self._sim is not None else 0
        for item in self.queue.take_due(steps):
            self._apply(item)
        self._publish(force=not self._running)

    def _apply(self, item: Stamped) -> None:
        command = item.command
        self._measured = None  # a command may change what the readouts read
        self._stuck = StuckWatch()  # and whether the model can leave where it rests
        if isinstance(command, INTERNAL_COMMANDS):
            self._apply_internal(command)
            return
        if item.step == APPLY_NOW and not isinstance(command, WORKER_COMMANDS):
            self._stop_keeping()  # the user's own change: no longer the recording's run
        sim = self._sim
        if isinstance(command, Load):
            self._load(command)
        elif isinstance(command, (Run, Pause)):
            self._set_running(isinstance(command, Run))
        elif isinstance(command, SetSpeed):
            self._speed = command.speed if command.speed > 0 else AS_FAST_AS_POSSIBLE
            self._reset_clock()
            self._apply_interval()
        elif sim is None:
            return
        elif isinstance(command, Step):
            if not self._running:
                self._take_steps(command.count)
        else:
            try:
                validate(command, sim.topology.particle_count, sim.topology.link_count)
            except CommandError as error:
                self.command_failed.emit(str(error))
                return
            apply_to_simulation(sim, command)
        self._dirty = True
        steps = self._sim.state.steps if self._sim is not None else 0
        self.command_applied.emit(Stamped(steps, command))

    def _load(self, command: Load) -> None:
        """Build a fresh simulation; keeps the previous one if the scene cannot be built."""
        self._loads += 1
        self._keeping = None  # until told this is a replay's scene
        self._loaded = False
        try:
            self._sim = self._own(build_simulation(command.scene))
        except (ValueError, IndexError, MemoryError) as error:
            self.load_failed.emit(f"{command.scene.name}: {error}".splitlines()[0])
            return
        self._rows = []
        self._record()  # the row of step 0
        self._history_count = len(self._rows)
        self._loaded = True
        self.last_seek_from = None
        self._reset_clock()

    def _own(self, sim: Simulation) -> Simulation:
        sim.stop = self._stop  # one flag for every simulation this worker steps
        return sim

    def _apply_internal(self, command: KeepStates | Restore) -> None:
        if isinstance(command, Restore):
            self._restore(command)
        if self._loaded:  # the replay's scene, not one kept after a failed Load
            self._keeping = KeepStates(command.session, command.until)
            self.kept.begin(command.session)
            if not self.kept.rows:  # the row of step 0, recorded by the Load
                self.kept.rows.extend(self._rows[: self._history_count])

    def _restore(self, command: Restore) -> None:
        """Go on from a kept state: a new load for the GUI, with the readout rows and the
        journal the rebuild from step 0 would have had by then."""
        kept = command.kept
        self._loads += 1
        self._sim = self._own(copy_simulation(kept.sim))  # the kept one stays as it was
        self._rows = self.kept.rows[: kept.row_count]
        self._history_count = kept.row_count
        self._loaded = True
        self.last_seek_from = kept.step
        self._dirty = True
        self._reset_clock()
        for item in command.journal:
            self.command_applied.emit(item)

    def _stop_keeping(self) -> None:
        self._keeping = None

    def _keep(self, sim: Simulation) -> None:
        """Keep a copy if this step is due one; called after a step, before the commands
        stamped for the step reached."""
        keeping, step = self._keeping, sim.state.steps
        if keeping is None or step > keeping.until or not self.kept.wants(keeping.session, step):
            return
        kept = KeptState(step, copy_simulation(sim), self._history_count)
        self.kept.add(keeping.session, kept)

    def _record(self) -> None:
        sim = self._sim
        assert sim is not None
        if sim.state.steps % record_stride(sim.links.count) == 0:
            readouts = sim.readouts()
            self._rows.append(row(sim.state.steps, readouts))
            if self._stuck.observe(readouts.t, readouts.motion, readouts.max_stretch):
                message = stuck_message(sim)
                if message is not None:
                    self.stuck_found.emit(message)
            if self._keeping is not None:
                if self._history_count == len(self.kept.rows):  # further than the run went yet
                    self.kept.rows.append(self._rows[-1])
                self._history_count += 1
            self._measured = readouts  # the snapshot of this state need not measure again

    def _set_running(self, running: bool) -> None:
        if running != self._running:
            self._running = running
            self._reset_clock()
            self.running_changed.emit(running)
            self.timing_changed.emit(0.0, False)

    # --- reading (any thread) ---------------------------------------------------------------

    def take_snapshot(self) -> Snapshot | None:
        return self.mailbox.take()

    @property
    def running(self) -> bool:
        return self._running

    @property
    def simulation(self) -> Simulation | None:
        """For tests only, and only while the worker thread is not stepping."""
        return self._sim

    # --- pacing ----------------------------------------------------------------------------

    def _apply_interval(self) -> None:
        if self._timer is not None:
            self._timer.setInterval(0 if math.isinf(self._speed) else TICK_MS)

    def _reset_clock(self) -> None:
        now = time.perf_counter()
        self._last_tick = now
        self._debt = 0.0
        self._window_start = now
        self._window_model_time = 0.0

    @Slot()
    def _tick(self) -> None:
        now = time.perf_counter()
        elapsed = min(now - self._last_tick, MAX_CATCH_UP_S)
        self._last_tick = now
        if self._running and self._sim is not None:
            self._advance(elapsed)
            self._report_timing(now)
        self._publish()

    def _advance(self, elapsed: float) -> None:
        sim = self._sim
        assert sim is not None
        dt = sim.settings.dt
        fastest = math.isinf(self._speed)
        if not fastest:
            self._debt += elapsed * self._speed
        # Paced, the solver takes the fewest threads that keep up, leaving a core to drawing.
        sim.threads.required_rate = None if fastest else self._speed / dt
        deadline = time.perf_counter() + STEP_BUDGET_S
        steps = 0
        while self._running and (fastest or self._debt >= dt):
            if not self._take_steps(1):
                break
            steps += 1
            self._debt -= dt
            if time.perf_counter() > deadline:
                break
        if not fastest and self._debt >= dt:
            # Out of budget: forget the rest so model time slows instead of piling up.
            self._debt = 0.0
        self._debt = max(self._debt, 0.0)
        self._window_model_time += steps * dt
        self._dirty = self._dirty or steps > 0

    def _take_steps(self, count: int) -> bool:
        """Step, applying on the way the commands stamped for a later step. False when not all
        steps were taken: a Load replaced the simulation, or it blew up (it has restored a
        good state already; pause and tell the user why)."""
        sim = self._sim
        assert sim is not None
        self._dirty = True
        running = self._running
        for _ in range(count):
            self._measured = None
            self._apply_due(sim)
            if self._sim is not sim or (running and not self._running):
                return False  # a Load, or a Pause stamped for this step: stop before it
            if sim.step(1) == 0:
                if sim.interrupted:  # undone: a command is waiting (drain runs it next)
                    return False
                self._stop_keeping()  # a recovered state is not the recording's
                self._set_running(False)
                self._debt = 0.0
                self.instability_found.emit(sim.instability.message)
                return False
            self.steps_taken += 1
            self._record()
            self._keep(sim)
        # What is stamped for the step reached belongs to it: a seek to step N (a replay's
        # Step stamped 0) ends with the commands of step N applied, as sim.commands.replay
        # does, and a replay's closing Pause stops the run exactly at its last step.
        self._apply_due(sim)
        return self._sim is sim

    def _apply_due(self, sim: Simulation) -> None:
        for item in self.queue.take_due(sim.state.steps):
            self._apply(item)

    def _report_timing(self, now: float) -> None:
        wall = now - self._window_start
        if wall < TIMING_WINDOW_S:
            return
        factor = self._window_model_time / wall
        behind = not math.isinf(self._speed) and factor < BEHIND_RATIO * self._speed
        self.timing_changed.emit(factor, behind)
        self._window_start = now
        self._window_model_time = 0.0

    def _publish(self, force: bool = False) -> None:
        """Post a snapshot if the state changed, at most ~60 per second unless forced."""
        if self._sim is None or not self._dirty:
            return
        now = time.perf_counter()
        if not force and now - self._last_snapshot < SNAPSHOT_INTERVAL_S:
            return
        self._frame += 1
        self._last_snapshot = now
        self._dirty = False
        rows = np.array(self._rows).reshape(len(self._rows), len(CSV_COLUMNS))
        self._rows = []
        snapshot = take_snapshot(self._sim, self._frame, self._loads, rows, self._measured)
        if self.mailbox.post(snapshot):
            self.snapshot_ready.emit()
