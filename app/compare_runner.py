"""The Compare panel's background runs: up to four variants of the main run, stepped on a
worker thread alongside it, never ahead of it, so their readouts line up in model time.

Each variant starts from the main run's step 0: the scene its last Load built and the journal
of what the worker applied since (controller.recording()), with the variant's changes made
(sim.lab.variants.changed), and takes every later command of the journal at its step too (grabs,
cuts, pins, a replay's commands). So a variant at step N is exactly what
`sim.lab.variants.run_variant(controller.recording(), changes, N)` gives.

Keeping pace: the GUI side hears of each of the main run's snapshots, and only in a later pass
of the event loop (a queued call) lets the variants go up to that snapshot's step. The worker
journals a command (a queued signal) before it posts the snapshot of any later step, so by
then every command stamped up to that step is in the journal, and has reached the variants
before they step past it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QCoreApplication, QMetaObject, QObject, Qt, QThread, QTimer, Signal, Slot

from clothlab.sim.core.readouts import CSV_COLUMNS, ReadoutHistory
from clothlab.sim.core.snapshot import Snapshot, take_snapshot
from clothlab.sim.document.commands import WORKER_COMMANDS, CommandError, Load, Stamped
from clothlab.sim.document.recording import from_journal
from clothlab.sim.document.scene import SceneError, body_counts
from clothlab.sim.lab.engine import Engine, Row, Source
from clothlab.sim.lab.variants import Variant, VariantError, changed, run_source, scene_of

if TYPE_CHECKING:
    from clothlab.app.controller import Controller

MAX_VARIANTS = 4  # as `clothlab compare` takes
SLICE_S = 0.01  # one variant's turn on the worker thread before the next one's
POST_INTERVAL_S = 1 / 30  # rows go to the GUI at most this often
SNAPSHOT_INTERVAL_S = 1 / 30  # and so do the snapshots of the variant shown beside the main view
RUNNING, STOPPED = "running", "stopped"
GESTURE_MISFIT = "stopped: the run's gestures name particles this variant does not have"


class CompareError(RuntimeError):
    """The comparison cannot start (no main run yet); the message is one line."""


@dataclass
class VariantRun:
    """What the GUI knows of one variant: its rows so far, its status and its last row."""

    variant: Variant
    history: ReadoutHistory = field(default_factory=ReadoutHistory)
    status: str = RUNNING
    final: tuple[float, ...] | None = None  # CSV_COLUMNS row at the variant's newest step

    @property
    def steps(self) -> int:
        return 0 if self.final is None else int(self.final[0])


@dataclass(frozen=True)
class _Update:
    index: int
    rows: np.ndarray  # (k, columns)
    final: tuple[float, ...] | None
    status: str


class _Follower:
    """A variant's run, taking the commands the main run journals after it started."""

    def __init__(self, index: int, source: Source, fits_journal: bool) -> None:
        self.engine = Engine.of(source, record_every=None)
        self.index = index
        self.fits_journal = fits_journal  # same particles and links as the main run
        self.failure: str | None = None
        self.rows: list[Row] = self.engine.take_rows()  # the row of step 0
        self.final: Row | None = self.rows[0]

    @property
    def steps(self) -> int:
        """On the run's clock, as the main run's journal and snapshots count them."""
        return self.engine.clock

    def follow(self, commands: Sequence[Stamped]) -> None:
        live = [item for item in commands if not isinstance(item.command, WORKER_COMMANDS)]
        if live and not self.fits_journal:
            self.failure = GESTURE_MISFIT
            return
        self.engine.schedule(live)  # those stamped with the step reached apply at once

    def advance(self, target: int, deadline: float) -> None:
        """Step towards `target` until the deadline; the newest row becomes `final`."""
        engine = self.engine
        moved = engine.advance(target - engine.clock, deadline) > 0
        if engine.blew_up:
            instability = engine.sim.instability  # as sim.lab.variants reports it
            at = instability.step if instability else engine.steps + 1
            self.failure = f"blew up at step {at}"
            # the good state the guard went back to; not plotted, as it may be an earlier step
            self.final = engine.row()
            return
        self.rows.extend(engine.take_rows())
        if moved:
            if not self.rows or self.rows[-1][0] != engine.steps:
                self.rows.append(engine.row())  # the table shows the step reached
            self.final = self.rows[-1]

    def take_update(self) -> _Update:
        rows, self.rows = self.rows, []
        array = np.array(rows).reshape(len(rows), len(CSV_COLUMNS))
        return _Update(self.index, array, self.final, self.failure or RUNNING)


class _Worker(QObject):
    """Steps the live variants in turns up to the main run's step. Background runs have one
    threading model: like the solver's worker, this is a QObject on a QThread of its own,
    driven by queued calls and a timer. Target, commands and the shown run are set from the
    GUI thread (under a lock); a stopped worker's simulations may be read from any thread."""

    _woken = Signal()  # from the GUI thread: there is work (queued to the worker's thread)

    def __init__(
        self,
        followers: list[_Follower],
        post: Callable[[list[_Update]], None],
        publish: Callable[[_Worker, int, Snapshot], None],
        load: int,
    ) -> None:
        super().__init__()
        self.followers = followers
        self._post = post
        self._publish = publish  # the shown variant's snapshots, from this thread
        self._load = load
        self._lock = threading.Lock()
        self._target = 0
        self._commands: list[Stamped] = []
        self._shown: int | None = None  # the run index whose snapshots are published
        self._publish_now = False  # the choice changed: publish even if it did not move
        self._published = (-1, -1)  # (run index, steps) of the last snapshot published
        self._last_publish = -float("inf")
        self._last_post = -float("inf")
        self._frame = 0
        self._timer: QTimer | None = None
        self._thread = QThread()
        self._thread.setObjectName("compare")
        self.moveToThread(self._thread)
        self._thread.started.connect(self._begin)
        self._woken.connect(self._wake)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """From the GUI thread: end the thread (after the slice under way) and wait for it;
        the last rows are posted on the way out."""
        if self._thread.isRunning():
            QMetaObject.invokeMethod(self, "_end", Qt.ConnectionType.BlockingQueuedConnection)
            self._thread.quit()
            self._thread.wait()

    def advance_to(self, target: int, commands: Sequence[Stamped]) -> None:
        """From the GUI thread: commands journalled since the last call, and the new target."""
        with self._lock:
            self._commands.extend(commands)
            self._target = max(self._target, target)
        self._woken.emit()

    def show(self, index: int | None) -> None:
        """From the GUI thread: publish the snapshots of this run (None: of none)."""
        with self._lock:
            self._shown, self._publish_now = index, index is not None
        self._woken.emit()

    def publish_shown(self, force: bool = False) -> None:
        """A snapshot of the shown variant if it moved (or `force`), at most ~30 a second.
        On the worker thread, or on any thread once it has stopped."""
        follower = self._shown_follower()
        if follower is None:
            return
        now = time.perf_counter()
        key = (follower.index, follower.steps)
        if not force and (key == self._published or now - self._last_publish < SNAPSHOT_INTERVAL_S):
            return
        self._frame += 1
        snapshot = take_snapshot(follower.engine.sim, self._frame, self._load)
        self._published, self._last_publish = key, now
        self._publish(self, follower.index, snapshot)

    def publish_pending(self) -> None:
        """Once stopped: the step the shown variant stopped at, if it was not published."""
        if self._publish_delay() is not None:
            self.publish_shown(force=True)

    def _shown_follower(self) -> _Follower | None:
        return next((f for f in self.followers if f.index == self._shown), None)

    def _publish_delay(self) -> float | None:
        """Seconds until the shown variant's unpublished state may be published; None if it
        is published."""
        follower = self._shown_follower()
        if follower is None or (follower.index, follower.steps) == self._published:
            return None
        return max(0.0, SNAPSHOT_INTERVAL_S - (time.perf_counter() - self._last_publish))

    def _live(self) -> list[_Follower]:
        return [f for f in self.followers if f.failure is None]

    # --- in the worker's thread -----------------------------------------------------------

    @Slot()
    def _begin(self) -> None:
        self._timer = QTimer(self)  # it must belong to the thread it fires in
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._turn)
        self._post_updates()  # the rows of step 0
        self._wake()

    @Slot()
    def _wake(self) -> None:
        if self._timer is not None and not self._timer.isActive():
            self._timer.start(0)

    @Slot()
    def _end(self) -> None:
        if self._timer is not None:
            self._timer.stop()
        self._post_updates()

    @Slot()
    def _turn(self) -> None:
        """One turn: the new commands to every variant, a slice of steps each, the rows to the
        GUI when caught up (or every POST_INTERVAL_S), then another turn if there is work."""
        try:
            with self._lock:
                target, commands, self._commands = self._target, self._commands, []
                publish_now, self._publish_now = self._publish_now, False
            if publish_now:
                self.publish_shown(force=True)
            for follower in self._live():
                follower.follow(commands)
            for follower in self._live():
                follower.advance(target, time.perf_counter() + SLICE_S)
            caught_up = all(f.steps >= target for f in self._live())
            if caught_up or time.perf_counter() - self._last_post >= POST_INTERVAL_S:
                self._post_updates()
            self.publish_shown()
        except Exception as error:  # a bug must not leave the panel saying "running"
            for follower in self.followers:
                follower.failure = follower.failure or f"failed: {error}"
            self._post_updates()
            raise
        self._schedule(caught_up)

    def _schedule(self, caught_up: bool) -> None:
        assert self._timer is not None
        with self._lock:
            more = bool(self._commands) or self._publish_now
        if more or not caught_up:
            self._timer.start(0)
        elif (delay := self._publish_delay()) is not None:  # held back by the rate limit
            self._timer.start(round(delay * 1000))

    def _post_updates(self) -> None:
        self._post([f.take_update() for f in self.followers])
        self._last_post = time.perf_counter()


class CompareRunner(QObject):
    """Runs variants of the controller's main run in the background (see the module's doc).
    Lives in the GUI thread; the stepping is on a worker thread of its own."""

    updated = Signal()  # rows, finals or statuses changed (of a variant or the main run)
    running_changed = Signal(bool)
    went_stale = Signal(str)  # the main run was started afresh or edited: the comparison is over
    _posted = Signal()  # from the worker thread: the inbox has updates
    _snapshot_settled = Signal(int, int)  # queued to self: (load, steps) of a snapshot
    # the shown variant's (run index, Snapshot); snapshots are frozen copies, safe to hand over
    variant_snapshot = Signal(int, object)
    _published = Signal(object, int, object)  # from the worker thread: (worker, index, snapshot)

    def __init__(self, controller: Controller, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.main = ReadoutHistory()  # the main run's rows, "as is"
        self.runs: list[VariantRun] = []
        self._worker: _Worker | None = None
        # Updates in the order the worker made them; a queued signal per update could be
        # taken after stop() has merged newer ones.
        self._inbox: list[_Update] = []
        self._inbox_lock = threading.Lock()
        self._load: int | None = None  # the main run's Load the variants follow
        self._journal_seen = 0
        self._shown: int | None = None
        self._last_worker: _Worker | None = None  # stopped: its simulations can be read here
        self._published.connect(self._take_snapshot, Qt.ConnectionType.QueuedConnection)
        self._posted.connect(self._take_updates, Qt.ConnectionType.QueuedConnection)
        self._snapshot_settled.connect(self._follow, Qt.ConnectionType.QueuedConnection)
        controller.snapshot_changed.connect(self._on_snapshot)
        application = QCoreApplication.instance()
        if application is not None:  # the worker thread must not outlive the application
            application.aboutToQuit.connect(self.stop)
        if controller.latest is not None:
            self.main.extend(controller.latest.rows)

    @property
    def running(self) -> bool:
        return self._worker is not None

    def start(self, chosen: Sequence[Variant]) -> None:
        """Run the variants from the main run's step 0 (at most MAX_VARIANTS). One whose
        changes do not fit the scene gets a "bad value: …" status; the others run. Raises
        CompareError before the main run's first frame."""
        if not 0 < len(chosen) <= MAX_VARIANTS:
            raise ValueError(f"give 1 to {MAX_VARIANTS} variants, not {len(chosen)}")
        latest, journal = self.controller.latest, list(self.controller.journal)
        if latest is None or not journal or not isinstance(journal[0].command, Load):
            raise CompareError("The main run has not started yet")
        self.stop()
        self.runs = [VariantRun(variant) for variant in chosen]
        source = run_source(from_journal(journal, latest.clock))
        followers = list(_followers(self.runs, source))
        self._load, self._journal_seen = latest.load, len(journal)
        self._worker = self._last_worker = _Worker(
            followers, self._post, self._publish, latest.load
        )
        self._worker.show(self._shown)
        self._worker.start()
        self._worker.advance_to(latest.clock, ())
        self.running_changed.emit(True)
        self.updated.emit()

    def stop(self, status: str = STOPPED) -> None:
        """Stop the worker thread and wait for it; the runs keep their rows."""
        worker, self._worker = self._worker, None
        if worker is None:
            return
        worker.stop()
        worker.publish_pending()
        self._take_updates()  # the worker's last post is in the inbox by now
        for run in self.runs:
            if run.status == RUNNING:
                run.status = status
        self.running_changed.emit(False)
        self.updated.emit()

    def mark_stale(self, reason: str) -> None:
        """The document changed: what the variants run is no longer the main run."""
        if self.runs and self._load is not None:
            self.stop()
            self._load = None
            self.went_stale.emit(reason)

    def forget(self) -> None:
        """A new document: stop the variants and drop them with their rows, which are runs of
        another scene; the main run's rows start afresh with its first step anyway."""
        self.stop()
        self.runs = []
        self._load = None
        self._last_worker = None  # nothing of the old scene is shown beside the new one
        self.updated.emit()

    def show(self, index: int | None) -> None:
        """Publish `variant_snapshot`s of run `index` (None: stop publishing): from the worker
        after it stepped, or one at once from a stopped comparison's simulation."""
        self._shown = index
        worker = self._worker or self._last_worker
        if worker is None:
            return
        worker.show(index)
        if self._worker is None:  # its thread has ended: nothing else touches the simulations
            worker.publish_shown(force=True)

    def _publish(self, worker: _Worker, index: int, snapshot: Snapshot) -> None:  # any thread
        self._published.emit(worker, index, snapshot)

    @Slot(object, int, object)
    def _take_snapshot(self, worker: object, index: int, snapshot: Snapshot) -> None:
        # a queued snapshot of an earlier comparison, or of the variant shown before, is dropped
        if worker is self._last_worker and index == self._shown:
            self.variant_snapshot.emit(index, snapshot)

    # --- following the main run ---------------------------------------------------------

    @Slot(object)
    def _on_snapshot(self, snapshot: Snapshot) -> None:
        if self.main.extend(snapshot.rows):
            self.updated.emit()
        if self._worker is not None:  # let the journal's queued commands land first
            self._snapshot_settled.emit(snapshot.load, snapshot.clock)

    @Slot(int, int)
    def _follow(self, load: int, steps: int) -> None:
        if self._worker is None:
            return
        journal = self.controller.journal
        commands = journal[self._journal_seen :]
        if (
            load != self._load
            or len(journal) < self._journal_seen
            or any(isinstance(item.command, Load) for item in commands)
        ):
            self.mark_stale("The main run started again")
            return
        self._journal_seen = len(journal)
        self._worker.advance_to(steps, commands)

    def _post(self, updates: list[_Update]) -> None:  # on the worker thread
        with self._inbox_lock:
            self._inbox.extend(updates)
        self._posted.emit()

    @Slot()
    def _take_updates(self) -> None:
        with self._inbox_lock:
            updates, self._inbox = self._inbox, []
        for update in updates:
            self._merge(self.runs[update.index], update)
        if updates:
            self.updated.emit()

    def _merge(self, run: VariantRun, update: _Update) -> None:
        if len(update.rows):
            run.history.extend(update.rows)
        run.final = update.final if update.final is not None else run.final
        if run.status == RUNNING:
            run.status = update.status


def _followers(runs: Iterable[VariantRun], source: Source) -> Iterable[_Follower]:
    counts = body_counts(scene_of(source).bodies)
    for index, run in enumerate(runs):
        try:
            variant_source = changed(source, run.variant.changes)
            fits = body_counts(scene_of(variant_source).bodies) == counts
            yield _Follower(index, variant_source, fits)
        except (SceneError, VariantError, CommandError, ValueError) as error:
            run.status = f"bad value: {error}"
