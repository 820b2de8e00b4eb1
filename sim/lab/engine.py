"""The engine: the one thing that advances a Simulation.

An `Engine` holds a run: the simulation built from a scene, the commands scheduled for later
steps, the journal of every command applied (a Load first, each stamped with the step it was
applied at), the readout rows it records and, for a replay, states kept for seeking. Every
caller drives the same object: the solver thread paces one against the wall clock, the CLI, the
Python API, compare, sweep, the questions' checks, exports and the Compare panel step theirs
headless. So a command lands at the same step everywhere, and a journal replays bit for bit.

The order at a step N is fixed: the step to N, a kept state (if one is due), the commands
stamped N, then the readout row of N. Steps are taken in as few `Simulation.step` calls as
these allow, since its energy accounting follows the last step of a call.
"""

from __future__ import annotations

import bisect
import copy
import itertools
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypeAlias

import numpy as np

from clothlab.sim.core.readouts import CSV_COLUMNS, Readouts, record_stride, row
from clothlab.sim.core.snapshot import Snapshot, take_snapshot
from clothlab.sim.core.solver import Simulation
from clothlab.sim.document.commands import (
    WORKER_COMMANDS,
    Command,
    CommandError,
    Load,
    Stamped,
    apply_to_simulation,
    validate,
)
from clothlab.sim.document.recording import Recording, from_journal
from clothlab.sim.document.scene import Scene, build_simulation

Row = tuple[float, ...]  # sim.core.readouts.CSV_COLUMNS
Source: TypeAlias = Scene | Recording
KEEP_EVERY = 240  # model steps between kept states of a replay (2 s at 1/120 s)
KEEP_AT_MOST = 64  # kept states of one replay; when full, every other one goes


def copy_simulation(sim: Simulation) -> Simulation:
    """A copy that steps on bit for bit as the original would: one deepcopy, so the caches
    keyed by identity (the link material's key, the XPBD multipliers' links) still point at
    the copy's own arrays. The topology never changes after a build: it is shared."""
    return copy.deepcopy(sim, {id(sim.topology): sim.topology})


@dataclass(frozen=True)
class KeptState:
    """A replay's state after the step to `step`, before the commands stamped with it."""

    step: int
    sim: Simulation  # never stepped: restoring copies it
    row_count: int  # readout rows recorded before this step's row


class KeptStates:
    """The states kept of one replay, evenly spaced: when there are more than `at_most`, every
    other one goes and the spacing doubles. They outlive the engine that kept them, so a replay
    started again from its scene (after an edit) still seeks from them."""

    def __init__(self, every: int = KEEP_EVERY, at_most: int = KEEP_AT_MOST) -> None:
        self.every = self._first_every = every
        self._at_most = max(2, at_most)
        self.states: list[KeptState] = []  # in step order
        self.rows: list[Row] = []  # the replay's readout rows from step 0, as far as it went

    def wants(self, step: int) -> bool:
        newest = self.states[-1].step if self.states else 0
        return step % self.every == 0 and step > newest

    def add(self, state: KeptState) -> None:
        self.states.append(state)
        if len(self.states) > self._at_most:
            self.every *= 2
            self.states = [k for k in self.states if k.step % self.every == 0]

    def nearest(self, step: int) -> KeptState | None:
        """The newest state at or before `step`, if any."""
        return next((k for k in reversed(self.states) if k.step <= step), None)

    def emptied(self) -> KeptStates:
        """None kept, at the spacing this one started with: for another replay."""
        return KeptStates(self._first_every, self._at_most)


class Engine:
    """A run of a scene: see the module's doc. A readout row is recorded every `record_every`
    steps (0: none; None: as often as the app plots, sim.core.readouts.record_stride); `keep` makes
    it a replay that keeps states for `seek`."""

    def __init__(
        self,
        scene: Scene,
        commands: Iterable[Stamped] = (),
        record_every: int | None = 1,
        keep: KeptStates | None = None,
    ) -> None:
        self.scene = scene  # at step 0
        self.sim = build_simulation(scene)
        self.journal: list[Stamped] = [Stamped(0, Load(scene))]
        if record_every is None:
            record_every = record_stride(self.sim.links.count)
        self.record_every = record_every
        self.keep = keep
        # Only the schedule's commands applied so far: the run is the recording's, and seeks
        # may start from its kept states.
        self.exact = True
        self.blew_up = False  # the last advance ended in a blow-up (`sim.instability` says why)
        self.restores = 0  # times a seek went back to a kept state (the journal was cut)
        self.stepped = 0  # steps taken in all, counting those a seek went back over
        self._schedule: list[Stamped] = []  # in step order; before `_next` applied
        self._next = 0
        self._pending: list[Row] = []  # rows recorded and not taken yet
        self._readouts: Readouts | None = None  # of the state as it is, if measured
        self.schedule(commands)
        self._arrive()

    @classmethod
    def of(
        cls, source: Source, record_every: int | None = 1, keep: KeptStates | None = None
    ) -> Engine:
        """A run of a scene, or the replay of a recording (its simulation commands at their
        steps; those that steered the solver thread only said how the user watched)."""
        if isinstance(source, Scene):
            return cls(source, (), record_every, keep)
        commands = [s for s in source.commands if not isinstance(s.command, WORKER_COMMANDS)]
        return cls(source.scene, commands, record_every, keep)

    @property
    def steps(self) -> int:
        return self.sim.state.steps

    @property
    def t(self) -> float:
        return self.sim.state.t

    # --- commands ------------------------------------------------------------------------

    def schedule(self, items: Iterable[Stamped]) -> None:
        """Commands to apply when the run reaches their steps (at once if it has), in step
        order after those already scheduled for the same step."""
        for item in items:
            if isinstance(item.command, Load):
                raise CommandError("a run holds one Load: start another run")
            at = bisect.bisect_right(self._schedule, item.step, lo=self._next,
                                     key=lambda s: s.step)  # fmt: skip
            self._schedule.insert(at, item)
        self._apply_due()

    def apply(self, command: Command) -> Stamped:
        """Apply a command now and journal it; raises CommandError if it does not fit the
        model. Commands for the solver thread (run, pause, speed, step) are only journalled."""
        topology = self.sim.topology
        validate(command, topology.particle_count, topology.link_count)
        if isinstance(command, Load):
            raise CommandError("a run holds one Load: start another run")
        stamped = Stamped(self.steps, command)
        if not isinstance(command, WORKER_COMMANDS):
            apply_to_simulation(self.sim, command)
            self.exact = False  # the user's own change: no longer the recording's run
            self._readouts = None
        self.journal.append(stamped)
        return stamped

    def _apply_due(self) -> None:
        schedule, steps = self._schedule, self.steps
        while self._next < len(schedule) and schedule[self._next].step <= steps:
            item = schedule[self._next]
            self._next += 1
            apply_to_simulation(self.sim, item.command)
            self.journal.append(Stamped(steps, item.command))
            self._readouts = None

    # --- stepping --------------------------------------------------------------------------

    def advance(self, count: int, deadline: float | None = None) -> int:
        """Take up to `count` steps, applying on the way the commands due. Stops early at a
        blow-up (`blew_up`: the simulation has its last good state back), when another thread
        sets `sim.stop` (`sim.interrupted`), or after the step that passes `deadline`
        (time.perf_counter). Returns the steps taken."""
        self.blew_up = False
        start, target = self.steps, self.steps + max(0, count)
        while self.steps < target:
            chunk = 1 if deadline is not None else self._chunk(target)
            taken = self.sim.step(chunk)
            self.stepped += taken
            self._readouts = None
            if taken < chunk:  # interrupted (sim.interrupted: the step undone) or blown up
                if not self.sim.interrupted:
                    self.blew_up, self.exact = True, False  # a recovered state is no replay's
                return max(0, self.steps - start)
            self._arrive()
            if deadline is not None and time.perf_counter() > deadline:
                break
        return self.steps - start

    def fork(self) -> Engine:
        """A copy that goes on from here by itself, bit for bit as this run would (the
        commands scheduled included); it keeps no states for seeking."""
        twin = copy.copy(self)
        twin.sim = copy_simulation(self.sim)
        twin.journal, twin._schedule = list(self.journal), list(self._schedule)
        twin._pending, twin.keep = [], None
        return twin

    def advance_to(self, step: int) -> int:
        return self.advance(step - self.steps)

    def _chunk(self, target: int) -> int:
        """Steps to the next place something happens: a command, a row, a kept state."""
        steps = self.steps
        chunk = target - steps
        if self._next < len(self._schedule):
            chunk = min(chunk, self._schedule[self._next].step - steps)
        for every in (self.record_every, self.keep.every if self.keep and self.exact else 0):
            if every > 0:
                chunk = min(chunk, every - steps % every)
        return max(1, chunk)

    def _arrive(self) -> None:
        """At a step reached: keep a state, apply the commands stamped with it, record."""
        steps = self.steps
        keep = self.keep
        if keep is not None and self.exact and keep.wants(steps):
            rows = bisect.bisect_left(keep.rows, float(steps), key=lambda r: r[0])
            keep.add(KeptState(steps, copy_simulation(self.sim), rows))
        self._apply_due()
        if self.record_every > 0 and steps % self.record_every == 0:
            self._readouts = self.sim.readouts()
            line = row(steps, self._readouts)
            self._pending.append(line)
            if keep is not None and self.exact and self._history_is_ours():
                keep.rows.append(line)

    def _history_is_ours(self) -> bool:
        """Whether the kept rows end where this run is: a replay further than any before it
        extends them; one that goes over ground already covered leaves them as they are."""
        assert self.keep is not None
        rows = self.keep.rows
        return not rows or rows[-1][0] < self.steps

    # --- seeking ----------------------------------------------------------------------------

    def seek(self, step: int) -> None:
        """Go to `step` as a replay from step 0 would have it: forward from here if nothing was
        applied but the schedule's and no later state was kept, else from the newest state
        kept at or before `step` (or the scene) and forward from there."""
        kept = self.keep.nearest(step) if self.keep is not None else None
        behind = kept is not None and kept.step > self.steps
        if not self.exact or step < self.steps or behind:
            self._restart(kept)
        self.advance_to(step)

    def _restart(self, kept: KeptState | None) -> None:
        """Back to a kept state, or to step 0: the journal, rows and schedule as they were."""
        self.restores += 1
        stop = self.sim.stop  # whoever may interrupt a step holds this flag: keep it
        if kept is None:
            self.sim = build_simulation(self.scene)
            self._next, self._pending = 0, []
        else:
            assert self.keep is not None
            self.sim = copy_simulation(kept.sim)  # the kept one stays as it was
            self._next = bisect.bisect_left(self._schedule, kept.step, key=lambda s: s.step)
            self._pending = list(self.keep.rows[: kept.row_count])
        self.sim.stop = stop
        # An exact run applied each scheduled command at its own step: its journal up to here
        # is the schedule's commands before this step.
        self.journal = [self.journal[0], *self._schedule[: self._next]]
        self.exact, self._readouts = True, None
        self._arrive()  # the step's commands and row, as on any arrival (no state to keep)

    # --- reading -----------------------------------------------------------------------------

    def readouts(self) -> Readouts:
        """The readouts (sim.core.readouts.Readouts) of the state as it is."""
        if self._readouts is None:
            self._readouts = self.sim.readouts()
        return self._readouts

    def row(self) -> Row:
        return row(self.steps, self.readouts())

    def take_rows(self) -> list[Row]:
        """The rows recorded since the last take (or a seek that went back)."""
        rows, self._pending = self._pending, []
        return rows

    def snapshot(self, frame: int, load: int = 0, rows: list[Row] | None = None) -> Snapshot:
        """A frozen copy of the state, with `rows` (by default those recorded since the last
        take)."""
        rows = self.take_rows() if rows is None else rows
        table = np.array(rows, dtype=np.float64).reshape(len(rows), len(CSV_COLUMNS))
        return take_snapshot(self.sim, frame, load, table, self.readouts())

    def recording(self) -> Recording:
        """The run so far as a recording: its scene and every command at its step."""
        return from_journal(self.journal, max(self.steps, self.journal[-1].step))


def replay(journal: Sequence[Stamped], steps: int) -> Simulation:
    """The simulation a journal (a Load first, then stamped commands) gives at `steps`: every
    command applied when the run has taken exactly the steps it is stamped with."""
    recording = from_journal(list(journal), steps)  # CommandError unless a Load starts it
    for before, after in itertools.pairwise(journal):
        if after.step < before.step:
            raise CommandError(f"journal goes back in time: step {after.step} after {before.step}")
    engine = Engine(recording.scene, recording.commands, record_every=0)
    if engine.advance_to(steps) != steps or engine.blew_up:
        raise CommandError(f"the model blew up replaying step {engine.steps}")
    return engine.sim
