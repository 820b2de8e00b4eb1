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

A run has a clock besides the model's step count: the steps on its timeline, which never goes
back. It equals the step count until the model blows up: the instability guard then puts back
an earlier state (the step count goes back), while the clock counts the failed step and goes
on. Commands are stamped, scheduled and kept states placed on the clock, and the blow-up is
journalled (a BlowUp) where it happened; so a recording made across an instability has its
commands in order and replays it: the replay blows up at the same step by itself, finds the
BlowUp it expects there, and goes on as the run did.
"""

from __future__ import annotations

import bisect
import copy
import functools
import itertools
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TypeAlias

import numpy as np

from clothlab.sim.core import forces, probes, units
from clothlab.sim.core.readouts import CSV_COLUMNS, Readouts, record_stride, row
from clothlab.sim.core.snapshot import Snapshot, measures_in_si, take_snapshot
from clothlab.sim.core.solver import Simulation
from clothlab.sim.document.commands import (
    WORKER_COMMANDS,
    BlowUp,
    Command,
    CommandError,
    Load,
    SetProbe,
    Stamped,
    apply_to_simulation,
    validate,
)
from clothlab.sim.document.recording import Recording, from_journal
from clothlab.sim.document.scene import Scene, build_simulation
from clothlab.sim.text import tr

Row = tuple[float, ...]  # sim.core.readouts.CSV_COLUMNS
Source: TypeAlias = Scene | Recording
KEEP_EVERY = 240  # model steps between kept states of a replay (2 s at 1/120 s)
KEEP_AT_MOST = 64  # kept states of one replay; when full, every other one goes
NO_PROBES: Row = probes.values([], probes.MAX_PROBES)  # the probe row of a run without probes


def copy_simulation(sim: Simulation) -> Simulation:
    """A copy that steps on bit for bit as the original would: one deepcopy, so the caches
    keyed by identity (the link material's key, the XPBD multipliers' links) still point at
    the copy's own arrays. The topology never changes after a build: it is shared."""
    return copy.deepcopy(sim, {id(sim.topology): sim.topology})


@dataclass(frozen=True)
class KeptState:
    """A replay's state after the step to `step`, before the commands stamped with it."""

    step: int  # on the run's clock
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
        record_probes: bool = False,
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
        self.clock = 0  # steps on the run's timeline: see the module's doc
        self.diverged = False  # a BlowUp came due that this run did not blow up at
        self.blew_up = False  # the last advance ended in a blow-up (`sim.instability` says why)
        self.restores = 0  # times a seek went back to a kept state (the journal was cut)
        self.stepped = 0  # steps taken in all, counting those a seek went back over
        # the clocks at which a command gave or took a fabric and so changed the unit system
        # the run measures in (sim.core.units): the rows before the last are in the other one
        self.system_changes: list[int] = []
        self._schedule: list[Stamped] = []  # in step order; before `_next` applied
        self._next = 0
        self._pending: list[Row] = []  # rows recorded and not taken yet
        self._readouts: Readouts | None = None  # of the state as it is, if measured
        self.probes: tuple[int, ...] = tuple(scene.probes)  # as the commands so far leave them
        # Record the probes' readings beside each readout row (the CLI's CSV and the API do):
        # MAX_PROBES slots a row (sim.core.probes.values), taken with take_probe_rows.
        self.record_probes = record_probes
        self._pending_probes: list[Row] = []
        self.schedule(commands)
        self._arrive()

    @classmethod
    def of(
        cls,
        source: Source,
        record_every: int | None = 1,
        keep: KeptStates | None = None,
        record_probes: bool = False,
    ) -> Engine:
        """A run of a scene, or the replay of a recording (its simulation commands at their
        steps; those that steered the solver thread only said how the user watched)."""
        if isinstance(source, Scene):
            return cls(source, (), record_every, keep, record_probes)
        commands = [s for s in source.commands if not isinstance(s.command, WORKER_COMMANDS)]
        return cls(source.scene, commands, record_every, keep, record_probes)

    @property
    def steps(self) -> int:
        """The model's step count (it goes back when the model blows up; `clock` does not)."""
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
        command = command.as_applied(self.journal, self.clock, self.sim.settings.dt)
        stamped = Stamped(self.clock, command)
        if not isinstance(command, WORKER_COMMANDS):
            self._apply_to_simulation(command)
            self._follow_probes(command)
            if not getattr(command, "leaves_model", False):  # a probe: still the recording's
                self.exact = False  # the user's own change: no longer the recording's run
            self._readouts = None
        self.journal.append(stamped)
        return stamped

    def _apply_due(self) -> None:
        schedule, clock = self._schedule, self.clock
        while self._next < len(schedule) and schedule[self._next].step <= clock:
            item = schedule[self._next]
            self._next += 1
            if isinstance(item.command, BlowUp):  # reached without blowing up: not this run's
                self.diverged = True
                continue
            command = item.command.as_applied(self.journal, clock, self.sim.settings.dt)
            self._apply_to_simulation(command)
            self._follow_probes(command)
            self.journal.append(Stamped(clock, command))
            self._readouts = None

    def _apply_to_simulation(self, command: Command) -> None:
        si = measures_in_si(self.sim)
        apply_to_simulation(self.sim, command)
        if measures_in_si(self.sim) != si:
            self.system_changes.append(self.clock)

    @property
    def unit_system_since(self) -> int:
        """The step from which the run has measured in its present unit system: 0, or that
        of the last command that changed it (its row is of the state after the command)."""
        return self.system_changes[-1] if self.system_changes else 0

    def _follow_probes(self, command: Command) -> None:
        if isinstance(command, SetProbe):
            self.probes = probes.after_change(
                self.probes, command.particle, command.add, command.slot
            )

    def _blew_up_as_scheduled(self) -> bool:
        """After a blow-up: whether the schedule has it next, at this clock, with the same step
        put back (a replay of a run that blew up there); if so it is journalled as applied."""
        if self._next >= len(self._schedule):
            return False
        item = self._schedule[self._next]
        expected = (
            item.step == self.clock
            and isinstance(item.command, BlowUp)
            and item.command.restored == self.steps
        )
        if expected:
            self._next += 1
            self.journal.append(Stamped(self.clock, item.command))
        return expected

    # --- stepping --------------------------------------------------------------------------

    def advance(self, count: int, deadline: float | None = None) -> int:
        """Take up to `count` steps, applying on the way the commands due. Stops early at a
        blow-up (`blew_up`: the simulation has its last good state back), when another thread
        sets `sim.stop` (`sim.interrupted`), or after the step that passes `deadline`
        (time.perf_counter). Returns the steps taken."""
        self.blew_up = False
        start, target = self.clock, self.clock + max(0, count)
        while self.clock < target:
            chunk = 1 if deadline is not None else self._chunk(target)
            taken = self.sim.step(chunk)
            self.stepped += taken
            self.clock += taken
            self._readouts = None
            if taken < chunk:  # interrupted (sim.interrupted: the step undone) or blown up
                if self.sim.interrupted:
                    return self.clock - start
                self.clock += 1  # the failed step: what follows it is stamped after it
                if not self._blew_up_as_scheduled():
                    self.journal.append(Stamped(self.clock, BlowUp(self.steps)))
                    self.blew_up, self.exact = True, False  # not the schedule's run any more
                    return self.clock - start
                self._apply_due()  # what the run that blew up here did next
                continue
            self._arrive()
            if deadline is not None and time.perf_counter() > deadline:
                break
        return self.clock - start

    def fork(self, rows: bool = False) -> Engine:
        """A copy that goes on from here by itself, bit for bit as this run would (the
        commands scheduled included); it keeps no states for seeking. With `rows`, it also has
        the rows recorded and not taken yet (a Lab's copy returns them as the Lab would)."""
        twin = copy.copy(self)
        twin.sim = copy_simulation(self.sim)
        twin.journal, twin._schedule = list(self.journal), list(self._schedule)
        twin._pending = list(self._pending) if rows else []
        twin._pending_probes = list(self._pending_probes) if rows else []
        twin.keep = None
        return twin

    def advance_to(self, step: int) -> int:
        """Advance until the clock reads `step`."""
        return self.advance(step - self.clock)

    def _chunk(self, target: int) -> int:
        """Steps to the next place something happens: a command, a row, a kept state."""
        steps, clock = self.steps, self.clock
        chunk = target - clock
        if self._next < len(self._schedule):
            chunk = min(chunk, self._schedule[self._next].step - clock)
        if self.record_every > 0:  # rows are of the model's steps
            chunk = min(chunk, self.record_every - steps % self.record_every)
        if self.keep is not None and self.exact:  # kept states are placed on the clock
            chunk = min(chunk, self.keep.every - clock % self.keep.every)
        return max(1, chunk)

    def _arrive(self) -> None:
        """At a step reached: keep a state, apply the commands stamped with it, record."""
        steps = self.steps
        keep = self.keep
        if keep is not None and self.exact and keep.wants(self.clock):
            rows = bisect.bisect_left(keep.rows, float(steps), key=lambda r: r[0])
            keep.add(KeptState(self.clock, copy_simulation(self.sim), rows))
        self._apply_due()
        if self.record_every > 0 and steps % self.record_every == 0:
            line = self._record()
            if keep is not None and self.exact and self._history_is_ours():
                keep.rows.append(line)

    def _record(self) -> Row:
        """Record the readout row of the state as it is (and the probes' beside it)."""
        self._readouts = self.sim.readouts()
        line = row(self.steps, self._readouts)
        self._pending.append(line)
        if self.record_probes:  # one shared row while no probe is on: a long run keeps many
            self._pending_probes.append(self.probe_row() if self.probes else NO_PROBES)
        return line

    def record_again(self) -> None:
        """Record the row of the step the run is at anew, in place of the one recorded there
        and not taken yet: after a command applied at a step whose row was already recorded,
        the row is of the state the command left, as a replay (which applies the command
        before it records) has it."""
        steps = self.steps
        if not self._pending or self._pending[-1][0] != steps:
            return
        self._pending.pop()
        if self.record_probes and self._pending_probes:
            self._pending_probes.pop()
        self._record()

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
        behind = kept is not None and kept.step > self.clock
        if not self.exact or step < self.clock or behind:
            self._restart(kept)
        self.advance_to(step)

    def _restart(self, kept: KeptState | None) -> None:
        """Back to a kept state, or to step 0: the journal, rows and schedule as they were."""
        self.restores += 1
        stop = self.sim.stop  # whoever may interrupt a step holds this flag: keep it
        # a kept state is taken before the commands of its step, which arriving applies again
        self.system_changes = [s for s in self.system_changes if kept is not None and s < kept.step]
        if kept is None:
            self.sim = build_simulation(self.scene)
            self._next, self._pending, self.clock = 0, [], 0
        else:
            assert self.keep is not None
            self.sim = copy_simulation(kept.sim)  # the kept one stays as it was
            self.clock = kept.step
            self._next = bisect.bisect_left(self._schedule, kept.step, key=lambda s: s.step)
            self._pending = list(self.keep.rows[: kept.row_count])
        self.sim.stop = stop
        # An exact run applied each scheduled command at its own step: its journal up to here
        # is the schedule's commands before this step.
        self.journal = [self.journal[0], *self._schedule[: self._next]]
        self.probes = tuple(self.scene.probes)
        for stamped in self.journal[1:]:
            self._follow_probes(stamped.command)
        self._pending_probes = []  # a replay's seek: the app reads probes off its frames
        self.exact, self._readouts, self.diverged = True, None, False
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

    def probe_readings(self) -> list[probes.ProbeReading]:
        """What each probe reads now, probe 1 first (tension NaN where the last step's forces
        are not known: at step 0, or just after pins or the grab changed)."""
        sim = self.sim
        s, state = sim.model_settings, sim.state
        measured = sim.forces() if self.probes else None
        around = None
        if measured is not None:
            around = functools.partial(forces.tension_around, sim.topology, measured.link_tension)
        return probes.read_all(self.probes, state.x, state.x_prev, s.dt / s.substeps, around)

    def probe_row(self) -> Row:
        """The probes' readings now as MAX_PROBES slots of columns (sim.core.probes.values)."""
        return probes.values(self.probe_readings(), probes.MAX_PROBES)

    def take_probe_rows(self) -> list[Row]:
        """The probe rows (probe_row) recorded beside the readout rows since the last take,
        when `record_probes` is on: one per readout row take_rows gave."""
        rows, self._pending_probes = self._pending_probes, []
        return rows

    def snapshot(
        self,
        frame: int,
        load: int = 0,
        rows: list[Row] | None = None,
        probe_rows: list[Row] | None = None,
    ) -> Snapshot:
        """A frozen copy of the state, with `rows` (by default those recorded since the last
        take) and, when it records probes, their `probe_rows` beside them (likewise)."""
        if rows is None:
            rows, probe_rows = self.take_rows(), self.take_probe_rows()
        table = np.array(rows, dtype=np.float64).reshape(len(rows), len(CSV_COLUMNS))
        snapshot = take_snapshot(self.sim, frame, load, table, self.readouts(), self.clock)
        if not self.record_probes or probe_rows is None or len(probe_rows) != len(rows):
            return snapshot
        width = probes.MAX_PROBES * len(probes.QUANTITIES)
        probes_table = np.array(probe_rows, dtype=np.float64).reshape(len(rows), width)
        probes_table.flags.writeable = False
        return replace(snapshot, probe_rows=probes_table)

    def recording(self) -> Recording:
        """The run so far as a recording: its scene and every command at its step."""
        return from_journal(self.journal, max(self.clock, self.journal[-1].step))


def probe_slots(source: Source) -> int:
    """How many probe columns a run of `source` fills: the most probes it has at once (a
    recording's may be attached and taken off on the way)."""
    if isinstance(source, Scene):
        return len(source.probes)
    attached, most = tuple(source.scene.probes), len(source.scene.probes)
    for stamped in source.commands:
        command = stamped.command
        if isinstance(command, SetProbe):
            attached = probes.after_change(attached, command.particle, command.add, command.slot)
            most = max(most, len(attached))
    return most


def in_si_units(source: Source) -> bool:
    """Whether a run of `source` measures in SI units (lengths in m, forces in N, energies in
    J) or in the model's (mass 1 a particle): sim.core.units.is_si of its bodies."""
    scene = source if isinstance(source, Scene) else source.scene
    return units.is_si(body.si_material for body in scene.bodies)


def replay(journal: Sequence[Stamped], steps: int) -> Simulation:
    """The simulation a journal (a Load first, then stamped commands) gives at `steps`: every
    command applied when the run has taken exactly the steps it is stamped with."""
    recording = from_journal(list(journal), steps)  # CommandError unless a Load starts it
    for before, after in itertools.pairwise(journal):
        if after.step < before.step:
            raise CommandError(
                tr("journal goes back in time: step {step} after {before}").format(
                    step=after.step, before=before.step
                )
            )
    engine = Engine(recording.scene, recording.commands, record_every=0)
    if engine.advance_to(steps) != steps or engine.blew_up:
        raise CommandError(tr("the model blew up replaying step {step}").format(step=engine.steps))
    if engine.diverged:
        raise CommandError(tr("the journal says the model blew up where its replay did not"))
    return engine.sim
