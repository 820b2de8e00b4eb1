"""The solver thread: a worker object that owns the Simulation and steps it in model time paced
to the wall clock.

Everything that changes the simulation arrives as a queued call (a signal connected across
threads) and so runs between steps, never during one. The only thing that leaves the worker is
an immutable Snapshot, handed over through a one-slot mailbox: the worker emits
`snapshot_ready` only when the mailbox was empty, so however fast it steps, the GUI event queue
holds at most one pending notification and the GUI always takes the newest frame.
"""

from __future__ import annotations

import math
import threading
import time

from PySide6.QtCore import QObject, Qt, QTimer, Signal, Slot

from clothlab.sim.edits import Edit, apply_edit
from clothlab.sim.scene import Scene, build_simulation
from clothlab.sim.snapshot import Snapshot, take_snapshot
from clothlab.sim.solver import Simulation

AS_FAST_AS_POSSIBLE = math.inf
TICK_MS = 8  # pacing timer; 1× needs one 1/120 s step per tick on average
STEP_BUDGET_S = 0.005  # wall time one tick may spend stepping: leaves the GUI (and a software
# OpenGL renderer) most of a core even when the solver cannot keep up
MAX_CATCH_UP_S = 0.1  # after a stall (JIT compile, a suspended laptop) do not try to catch up
SNAPSHOT_INTERVAL_S = 1.0 / 60.0  # more would only be dropped by the GUI
TIMING_WINDOW_S = 0.5  # real-time factor is averaged over this much wall time
BEHIND_RATIO = 0.95  # below this fraction of the target speed the solver cannot keep up


class SnapshotMailbox:
    """A thread-safe slot holding at most the newest snapshot."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._snapshot: Snapshot | None = None

    def post(self, snapshot: Snapshot) -> bool:
        """Replace the content; True if the slot was empty (the reader needs waking)."""
        with self._lock:
            was_empty = self._snapshot is None
            self._snapshot = snapshot
        return was_empty

    def take(self) -> Snapshot | None:
        with self._lock:
            snapshot, self._snapshot = self._snapshot, None
        return snapshot


class SolverWorker(QObject):
    """Owns the Simulation; lives in the solver thread. Call its slots through queued signals."""

    snapshot_ready = Signal()  # the mailbox holds a snapshot: call take_snapshot()
    timing_changed = Signal(float, bool)  # real-time factor, cannot keep up
    running_changed = Signal(bool)
    load_failed = Signal(str)  # one-line reason a scene could not be built
    instability_found = Signal(str)  # the model blew up: paused, last good state restored

    def __init__(self) -> None:
        super().__init__()
        self.mailbox = SnapshotMailbox()
        self._sim: Simulation | None = None
        self._scene: Scene | None = None
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

    @Slot(object)
    def load_scene(self, scene: Scene) -> None:
        """Build a fresh simulation; keeps the previous one if the scene cannot be built."""
        try:
            sim = build_simulation(scene)
        except (ValueError, IndexError, MemoryError) as error:
            self.load_failed.emit(f"{scene.name}: {error}".splitlines()[0])
            return
        self._scene, self._sim = scene, sim
        self._restart_pacing()

    @Slot()
    def reset(self) -> None:
        """Back to t = 0 and rest positions with the scene last loaded."""
        if self._scene is not None:
            self.load_scene(self._scene)

    @Slot(bool)
    def set_running(self, running: bool) -> None:
        if running != self._running:
            self._running = running
            self._reset_clock()
            self.running_changed.emit(running)
            self.timing_changed.emit(0.0, False)

    @Slot()
    def step_once(self) -> None:
        """One Δt; only while paused (while running the clock owns stepping)."""
        if self._sim is not None and not self._running:
            self._take_steps(1)
            self._dirty = True
            self._publish(force=True)

    @Slot(float)
    def set_speed(self, speed: float) -> None:
        """Model seconds per wall second; math.inf for as fast as possible."""
        self._speed = speed if speed > 0 else AS_FAST_AS_POSSIBLE
        self._reset_clock()
        self._apply_interval()

    @Slot(int, object)
    def grab(self, particle: int, target: object) -> None:
        """Hold a particle at the pointer (not an edit: nothing to undo or save)."""
        if self._sim is not None and 0 <= particle < self._sim.topology.particle_count:
            self._sim.grab(particle, target)
            self._dirty = True

    @Slot(object)
    def move_grab(self, target: object) -> None:
        if self._sim is not None:
            self._sim.move_grab(target)
            self._dirty = True
            self._publish(force=not self._running)

    @Slot()
    def release(self) -> None:
        if self._sim is not None:
            self._sim.release()

    @Slot(object)
    def apply_edit(self, edit: Edit) -> None:
        if self._sim is None:
            return
        apply_edit(self._sim, edit)
        self._dirty = True
        self._publish(force=not self._running)

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

    def _restart_pacing(self) -> None:
        self._dirty = True
        self._reset_clock()
        self._publish(force=True)

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
        deadline = time.perf_counter() + STEP_BUDGET_S
        steps = 0
        while fastest or self._debt >= dt:
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
        """Step; on a blow-up (the simulation has already restored a good state) pause and
        tell the user why. False when the steps were not all taken."""
        sim = self._sim
        assert sim is not None
        if sim.step(count) == count:
            return True
        self.set_running(False)
        self._debt = 0.0
        self._dirty = True
        self.instability_found.emit(sim.instability.message)
        return False

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
        if self.mailbox.post(take_snapshot(self._sim, self._frame)):
            self.snapshot_ready.emit()
