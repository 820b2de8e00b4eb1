"""`Lab`: one run of a scene, driven from Python as the app and the CLI drive it.

A Lab wraps the engine (sim.lab.engine.Engine) that the app's solver thread, `clothlab run` and the
Compare panel step, so the same scene, settings and commands give the same numbers bit for bit:
`Lab.run` returns the readout rows `clothlab run --csv` writes. Edits (`cut`, `pin`, `set` after
the first step) are the commands the app records, so `Lab.recording` replays in the app.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import io
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, NoReturn, ParamSpec, TypeVar

import numpy as np

from clothlab import _boundary as boundary
from clothlab._boundary import shown
from clothlab.sim.core import probes, readouts
from clothlab.sim.core.forces import Forces
from clothlab.sim.core.parameters import COORDINATE_LIMIT
from clothlab.sim.document.commands import (
    Command,
    CommandError,
    Edit,
    EditRulers,
    GrabMove,
    GrabRelease,
    GrabStart,
    SetPositions,
    apply_to_document,
)
from clothlab.sim.document.edits import CutLinks, SetPin, SetProbe
from clothlab.sim.document.files import SceneError, write_atomically
from clothlab.sim.document.recording import Recording, parse_recording, recording_json
from clothlab.sim.document.requests import ChangeSetting, Reset, SeamCut
from clothlab.sim.document.scene import (
    RulerEnd,
    RulerSpec,
    Scene,
    as_point,
    capture_scene,
    parse_scene,
    scene_json,
)
from clothlab.sim.lab import rulers as ruler_math
from clothlab.sim.lab import variants
from clothlab.sim.lab.engine import Engine, Source, in_si_units
from clothlab.sim.lab.session import Session
from clothlab.state import LabState, Run, read_only, velocities_of

Vec3 = tuple[float, float, float]
Row = tuple[float, ...]
Progress = Callable[[int, int], object]  # (steps done, steps asked for)
P = ParamSpec("P")
R = TypeVar("R")
# Rows one run keeps when not told `every` or `keep` (≈ 0.6 GB with four probes): a recording
# of 10⁹ steps once made `run()` keep 2.4 GB of rows per 10⁷ steps, and go on.
MAX_ROWS = 2_000_000
# Work between looks for Ctrl+C, calls of `progress` and takes of rows, s: whatever the sheet's
# size, a run stops within about this long (a step slower than 20 ms is undone, sim.core.solver)
CHUNK_S = 0.1


class Table(dict[str, np.ndarray]):
    """Readout rows, one per step, as pandas and numpy users expect them: a read-only mapping
    from CSV column key ("step", "t", "sag", …) to a (rows,) float64 array, `len` the number of
    rows, `np.asarray(table)` the (rows, columns) array and `pd.DataFrame(table)` a frame of
    rows × named columns (`to_pandas` adds the units). NaN where a readout does not apply
    (volume without a block). With probes, their columns follow: "probe1_y", "probe1_speed",
    "probe1_tension", "probe2_y", … (NaN where the probe was not attached at that step).

    A dict underneath so that pandas reads it by column: it takes a dict column by column, and
    any other mapping as a list of its keys (a frame of column names)."""

    columns: tuple[str, ...] = readouts.CSV_COLUMNS  # without probes; with, see __init__
    units: dict[str, str] = readouts.CSV_UNITS  # of a run in model units; see __init__

    def __init__(self, rows: np.ndarray, probe_slots: int = 0, si: bool = False) -> None:
        self.rows = rows  # (rows, columns) float64, columns as `columns`
        self.rows.flags.writeable = False
        self.probe_slots, self._si = probe_slots, si
        self.columns = (*readouts.CSV_COLUMNS, *probes.column_keys(probe_slots))
        self.units = {**readouts.csv_units(si), **probes.units(probe_slots, si)}
        super().__init__((key, rows[:, k]) for k, key in enumerate(self.columns))

    def __missing__(self, key: str) -> NoReturn:
        raise KeyError(f"{key}: not a column (columns: {', '.join(self.columns)})")

    def __len__(self) -> int:
        """Rows, as len() of a DataFrame or an array (the columns: `len(table.columns)`)."""
        return len(self.rows)

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        """(rows, columns): `np.asarray(table)`, column order as `columns`."""
        if dtype is None and not copy:
            return self.rows
        return np.array(self.rows, dtype=dtype, copy=True)

    def _read_only(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("a Table is read-only: copy a column (table['sag'].copy()) to change it")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _read_only
    __ior__ = _read_only

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (np.array(self.rows), self.probe_slots, self._si))

    def __copy__(self) -> Table:
        return self  # read-only: a copy would be the same

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        return type(self)(np.array(self.rows), self.probe_slots, self._si)

    @property
    def count(self) -> int:
        """Rows in the table (as len(table))."""
        return len(self.rows)

    def to_pandas(self) -> Any:
        """A pandas DataFrame of the rows, columns named as `columns`, the units in
        `frame.attrs["units"]` (column → unit). Needs pandas (pip install pandas)."""
        try:
            import pandas as pd
        except ImportError:
            raise ImportError("Table.to_pandas needs pandas: pip install pandas") from None
        frame = pd.DataFrame(np.array(self.rows), columns=list(self.columns))
        frame.attrs["units"] = dict(self.units)
        return frame

    def csv(self) -> str:
        """The text `clothlab run --csv` writes for these rows (header with units)."""
        return readouts.csv_text(self.rows, self.probe_slots, self._si)

    def save_csv(self, path: str | os.PathLike[str]) -> None:
        """Write `csv()` to a file, atomically."""
        write_atomically(Path(path), self.csv().encode("utf-8"))

    def __repr__(self) -> str:
        return f"<Table: {self.count} rows × {len(self.columns)} columns>"

    @classmethod
    def of(
        cls,
        rows: Sequence[tuple[float, ...]] | np.ndarray,
        probe_rows: Sequence[tuple[float, ...]] | np.ndarray = (),
        si: bool = False,
    ) -> Table:
        """A table of readout rows and, if given, the probe rows beside them (MAX_PROBES slots
        each, sim.core.probes.values): as many probes' columns as were ever attached."""
        table = np.array(rows, dtype=np.float64).reshape(len(rows), len(readouts.CSV_COLUMNS))
        if not len(probe_rows):
            return cls(table, 0, si)
        width = len(probes.QUANTITIES)
        probed = np.array(probe_rows, dtype=np.float64).reshape(len(rows), -1)
        # (MAX_PROBES,): the slots a probe was ever in (a probe's y is never NaN)
        used = np.flatnonzero(~np.isnan(probed[:, ::width]).all(axis=0))
        slots = int(used[-1]) + 1 if len(used) else 0
        return cls(np.hstack([table, probed[:, : slots * width]]), slots, si)


def _locked(method: Callable[P, R]) -> Callable[P, R]:
    """Run a Lab's method holding its lock: a Lab used from two threads once wrote recordings
    whose commands went back in time (a command stamped while the other thread stepped)."""

    @functools.wraps(method)
    def locked(*args: P.args, **kwargs: P.kwargs) -> R:
        with args[0]._lock:  # type: ignore[attr-defined]  # args[0] is the Lab
            return method(*args, **kwargs)

    return locked


class Lab:
    """One run of a scene (or the replay of a recording); see clothlab.open. Safe to share
    between threads: each call holds the Lab's lock, so a command lands between whole runs."""

    def __init__(self, source: Source, name: str = "") -> None:
        self.name = name or variants.scene_of(source).name
        self._lock = threading.RLock()
        self._session = Session(variants.scene_of(source), _LabModel(self))
        self._start(source)

    # --- the state --------------------------------------------------------------------------

    @property
    @_locked
    def steps(self) -> int:
        """Steps taken since step 0."""
        return self._engine.steps

    @property
    @_locked
    def t(self) -> float:
        """Model time, s."""
        return self._engine.t

    @property
    @_locked
    def positions(self) -> np.ndarray:
        """(N, 3) float64: every particle's position now (a copy)."""
        return self._engine.sim.state.x.copy()

    @property
    @_locked
    def positions_view(self) -> np.ndarray:
        """(N, 3) float64: every particle's position, without a copy: a read-only view of the
        model's own array, which each step writes in place, so it reads the positions of
        the step the Lab is at, whenever it is read (a blow-up's good state is put back into it).
        `reset` and `restore` give the Lab another array: take a view again after them."""
        return read_only(self._engine.sim.state.x)

    @property
    @_locked
    def velocities(self) -> np.ndarray:
        """(N, 3) float64: every particle's velocity now, over the last substep (as the
        readouts' speeds: `motion` is the mean of their lengths), units/s (m/s in SI)."""
        return velocities_of(self._engine).copy()

    @_locked
    def set_positions(self, positions: Any, velocities: Any = None) -> None:
        """Put every particle at `positions` ((N, 3) numbers) moving at `velocities` ((N, 3),
        units/s; at rest if not given): a state of your own to go on from, as a command at the
        current step, so the recording holds it and replays it bit for bit. Pinned and held
        particles stay on their anchors. `reset` starts from the scene again (at rest)."""
        count = self.particles
        x = boundary.coordinates(positions, "positions", count)
        speed = np.zeros_like(x) if velocities is None else boundary.finite_array(
            velocities, "velocities", count
        )  # fmt: skip
        settings = self._engine.sim.model_settings
        previous = x - speed * (settings.dt / settings.substeps)
        if np.abs(previous).max(initial=0.0) > COORDINATE_LIMIT:
            raise ValueError(f"velocities: a particle's place a substep before is beyond "
                             f"±{COORDINATE_LIMIT:g}")  # fmt: skip
        self._submit(SetPositions(tuple(x.ravel().tolist()), tuple(previous.ravel().tolist())))
        self._engine.record_again()  # the row of this step is of the state set

    # --- the whole state: kept, restored, copied ---------------------------------------------

    @_locked
    def state(self) -> LabState:
        """The Lab's whole state now: `restore` goes back to it (bit for bit, as often as
        wanted; the recording goes back with it), `state.save(path)` writes it to a file."""
        return LabState(self.name, self._run(rows=True))

    @_locked
    def restore(self, state: LabState) -> None:
        """Go back to a state that `state()` or clothlab.load_state gave: the model, its
        recording and its scene as set up are as they were then, and the Lab goes on from there
        as it went on then. A state of another scene makes the Lab a run of that scene."""
        if not isinstance(state, LabState):
            raise ValueError(f"state {shown(state)}: expected a LabState (from lab.state())")
        run = state.run
        self._source, self._followed = run.source, run.followed
        self._session = Session(run.document, _LabModel(self))  # its history: from here on
        self._engine = run.engine.fork(rows=True)  # the state stays as it is, to restore again
        self._follow_recording()

    @_locked
    def copy(self) -> Lab:
        """Another Lab at this one's state, going on by itself (from another thread too): the
        same steps and commands give both the same numbers bit for bit."""
        return Lab.of_state(self.state(), self.name)

    @classmethod
    def of_state(cls, state: LabState, name: str = "") -> Lab:
        """A new Lab at a state (`state()` or clothlab.load_state)."""
        lab = cls.__new__(cls)
        lab.name = name or state.name
        lab._lock = threading.RLock()
        lab.restore(state)
        return lab

    def _run(self, rows: bool) -> Run:
        return Run(self._source, self._document, self._engine.fork(rows), self._followed)

    @property
    def _document(self) -> Scene:
        """The scene as set up: the session's document."""
        return self._session.scene

    @property
    @_locked
    def readouts(self) -> dict[str, float]:
        """The readouts of the state now, by CSV column key (counts as int)."""
        return {"step": self.steps, **dataclasses.asdict(self._engine.readouts())}

    @property
    @_locked
    def pin_forces(self) -> np.ndarray:
        """(P, 3) float64: each pin's force on the cloth over the last step, one row per pin in
        ascending particle order (N with SI fabrics, model units otherwise); NaN before the
        first step."""
        return self._forces().pin_force.copy()

    @property
    @_locked
    def link_tensions(self) -> np.ndarray:
        """(M,) float64: each link's pull on its ends over the last step (< 0: a push), 0 for a
        cut or torn link; NaN before the first step."""
        return self._forces().link_tension.copy()

    @property
    @_locked
    def tension_per_length(self) -> np.ndarray | None:
        """(M,) float64, N/m: across each side link of a body with an SI fabric, the fabric's
        tension per unit length (NaN for diagonals and bodies in model units); None when no
        body has an SI fabric. The same fabric gives the same values at any resolution."""
        per_length = self._forces().tension_per_length
        return None if per_length is None else per_length.copy()

    @property
    @_locked
    def contact_forces(self) -> dict[str, float]:
        """Each obstacle's normal force on the cloth over the last step: "floor", "ball",
        "sphere 1", "box 1", …; empty before the first step."""
        return dict(self._forces().contact)

    def _forces(self) -> Forces:
        sim = self._engine.sim
        measured = sim.forces()
        if measured is not None:
            return measured
        unknown = np.full((len(sim.state.pin_index), 3), np.nan)
        weight = float(sim.mechanics.mass.sum()) * sim.model_settings.gravity
        return Forces(np.full(sim.topology.link_count, np.nan), unknown, {}, weight)

    @property
    @_locked
    def scene(self) -> Scene:
        """The scene as set up: the one opened, with the changes and edits made since (a
        recording's own edits, cuts, pins and rulers, as far as the replay has gone)."""
        return self._document

    @property
    @_locked
    def particles(self) -> int:
        """The model's particle count: particle indices run 0 … particles − 1."""
        return self._engine.sim.topology.particle_count

    @property
    @_locked
    def links(self) -> int:
        """The model's link count, cut and torn links included: link indices for `cut`."""
        return self._engine.sim.topology.link_count

    # --- running ----------------------------------------------------------------------------

    @_locked
    def run(
        self,
        steps: int | None = None,
        *,
        every: int = 1,
        keep: int | None = None,
        progress: Progress | None = None,
    ) -> Table:
        """Take `steps` steps (a recording's: to its end) and return their readout rows: one
        per step, or only those of steps that are multiples of `every`, and only the last
        `keep` of them if given; the first call also returns the row of step 0. `progress`, if
        given, is called as progress(steps done, steps) about every CHUNK_S seconds. A run that
        would keep more than MAX_ROWS rows is refused: ask for fewer with `every` or `keep`.
        Raises RuntimeError if the model blows up (it has its last good state back); Ctrl+C
        stops the run at a whole step and raises KeyboardInterrupt (the rows of this call are
        dropped: the next run goes on from `steps`)."""
        count = self._steps_to_run(steps)
        every = boundary.index(every, "every")
        if every < 1:
            raise ValueError(f"every: {every} is not a count of steps (1 or more)")
        if keep is not None:
            keep = boundary.index(keep, "keep")
            if keep < 0:
                raise ValueError(f"keep: {keep} is not a count of rows")
        if progress is not None and not callable(progress):
            raise ValueError(f"progress: {shown(progress)} is not a function (done, steps)")
        if keep is None and count // every > MAX_ROWS:
            raise ValueError(
                f"run({count}) would keep {count // every:_} rows, more than {MAX_ROWS:_}: "
                "keep fewer with every= (a row every so many steps) or keep= (the last rows)"
            )
        rows = _Rows(keep)
        engine = self._engine
        engine.record_every = every
        try:
            with _ctrl_c_stops(engine.sim) as pressed:
                self._advance(count, rows, progress, pressed)
        finally:
            engine.record_every = 1
            self._follow_recording()
        if engine.blew_up:
            instability = engine.sim.instability
            raise RuntimeError(instability.message if instability else "the model blew up")
        return Table.of(rows.readouts(), rows.probes(), in_si_units(self._source))

    def _advance(
        self,
        count: int,
        rows: _Rows,
        progress: Progress | None,
        pressed: Callable[[], bool],
    ) -> None:
        """Advance in chunks of about CHUNK_S of work, taking the rows after each (a row is
        recorded where the step count is a multiple of `every`, however the steps are split)."""
        engine, done, chunk = self._engine, 0, 1
        while done < count:
            asked = min(chunk, count - done)
            started = time.perf_counter()
            done += engine.advance(asked)
            rows.add(engine.take_rows(), engine.take_probe_rows())
            if pressed():
                raise KeyboardInterrupt(f"the run stopped at step {engine.steps}")
            if engine.blew_up:
                return
            if progress is not None:
                progress(done, count)
            chunk = _next_chunk(asked, time.perf_counter() - started)

    def _steps_to_run(self, steps: int | None) -> int:
        if steps is not None:
            return boundary.step_count(steps)
        if not isinstance(self._source, Recording):
            raise ValueError("give the number of steps to run")
        return max(0, self._source.steps - self._engine.clock)

    @_locked
    def reset(self) -> None:
        """Back to step 0 of the scene as set up now (the edits kept, and undoable; the
        journal afresh)."""
        self._submit(Reset())

    def _at_start(self) -> bool:
        """At step 0 with nothing applied yet: a change is the scene's, as `--set` makes it."""
        return self.steps == 0 and len(self._engine.journal) == 1

    def _start(self, source: Source) -> None:
        self._source = source
        self._session.scene = variants.scene_of(source)
        self._engine = Engine.of(source, record_probes=True)
        self._followed = 1  # journal entries the document has had (the Load is step 0's)
        self._follow_recording()

    def _follow_recording(self) -> None:
        """The document after the recording's own commands applied since it was last brought
        up to date (its cuts, pins and rulers, as the app's document follows a replay); the
        session's own edits are in it already."""
        journal = self._engine.journal
        for stamped in journal[self._followed :]:
            self._session.scene = apply_to_document(self._session.scene, stamped.command)
        self._followed = len(journal)

    # --- settings ---------------------------------------------------------------------------

    @_locked
    def set(self, **changes: Any) -> None:
        """Change settings by the keys `clothlab run --set` takes (passes=16, wind=2.0,
        fabric="denim", resolution=(30, 20), …). Before the first step they change the scene, as
        `--set` does; after it, settings change at the current step, as the app's parameter
        panel does, and reshapes are refused."""
        parsed = {k: variants.parse_change(k, variants.change_text(v)) for k, v in changes.items()}
        if self._at_start():
            self._start(variants.changed(self._source, parsed))
            return
        reshapes = [k for k in parsed if k in variants.SCENE_KEYS or k == "material"]
        if reshapes:
            raise ValueError(f"{', '.join(reshapes)}: reshapes only before the first step (reset)")
        settings, _ = variants.split_changes(parsed)
        for key, value in settings.items():
            self._submit(ChangeSetting(key, value))

    # --- the commands the app records ---------------------------------------------------------

    @_locked
    def cut(self, links: Sequence[int]) -> int:
        """Cut these links (indices into the model's links) where still live; returns how many
        were cut."""
        indices = boundary.indices_below(links, "link", self.links)
        before = len(self._document.cuts)
        self._submit(CutLinks(tuple(indices)))  # the session cuts those still live
        return len(self._document.cuts) - before

    @_locked
    def cut_seam(self, sheet: int = 0) -> int:
        """The model's seam cut of a sheet, top to bottom down its middle."""
        sheets = len(self._engine.sim.topology.sheets)
        if not sheets:
            raise ValueError(f"sheet {shown(sheet)}: the scene has no sheets")
        chosen = boundary.index_below(sheet, "sheet", sheets)
        before = len(self._document.cuts)
        self._submit(SeamCut(chosen))
        return len(self._document.cuts) - before

    @_locked
    def pin(self, particle: int, at: Vec3 | None = None) -> None:
        """Pin a particle where it is now, as the app's Pin tool does: the run holds it there and
        the set-up (`scene`, a save, `reset`) at its rest place, so step 0 starts unstretched.
        Or pin it, or move its pin, at `at`: a place chosen on purpose, the set-up's too."""
        sim = self._engine.sim
        particle = self._particle(particle)  # say it before reading x
        place = None if at is None else boundary.point(at, "at")
        previous = self._anchor(particle)
        if place is not None:
            self._submit(SetPin(particle, place, previous))
            return
        rest, now = as_point(sim.topology.rest_positions[particle]), as_point(sim.state.x[particle])
        self._submit(SetPin(particle, rest, previous, live=None if now == rest else now))

    @_locked
    def unpin(self, particle: int) -> None:
        """Take a particle's pin off (the Pin tool on a pinned particle)."""
        particle = self._particle(particle)
        self._submit(SetPin(particle, None, self._anchor(particle)))

    # --- undo ---------------------------------------------------------------------------------

    @_locked
    def undo(self) -> str | None:
        """Undo the last edit (a cut, pin, setting, probe or ruler), as the app's Edit ▸ Undo
        does: its inverse applies at the current step (and is recorded), or to the scene itself
        at step 0. Returns what was undone ("Cut 14 links"), None when nothing is left."""
        edit = self._session.undo()
        return None if edit is None else edit.text

    @_locked
    def redo(self) -> str | None:
        """Redo the last edit undone; returns what was redone, None when nothing is left."""
        edit = self._session.redo()
        return None if edit is None else edit.text

    @property
    @_locked
    def history(self) -> list[str]:
        """The edits that undo would take back, oldest first, as the app's History panel
        lists them (those undone and not redone are left out)."""
        history = self._session.history
        return [entry.edit.text for entry in history.entries[: history.index]]

    # --- probes ------------------------------------------------------------------------------

    @property
    @_locked
    def probes(self) -> tuple[int, ...]:
        """The particles with a probe, probe 1 first (the CSV's probe1_y, … columns)."""
        return self._engine.probes

    @_locked
    def add_probe(self, particle: int) -> int:
        """Attach a probe to a particle (at most sim.core.probes.MAX_PROBES) and return its
        number (1 for the first); from then on `run` gives its columns and `probe` reads it."""
        particle = self._particle(particle)
        self._submit(SetProbe(particle, True, len(self.probes)))
        return len(self.probes)

    @_locked
    def remove_probe(self, particle: int) -> None:
        """Take the probe off a particle; the probes after it move up a number."""
        particle = boundary.index(particle, "particle")
        if particle not in self.probes:
            raise ValueError(f"particle {shown(particle)} has no probe")
        self._submit(SetProbe(particle, False, self.probes.index(particle)))

    @_locked
    def probe(self, number: int) -> dict[str, float]:
        """What probe `number` (1 for the first, as its CSV columns are named) reads now: its
        particle, height y (units), speed (units/s) and the largest tension among the links at
        it over the last step (N with SI fabrics, model units otherwise; NaN before the first
        step, as `link_tensions`)."""
        attached = self.probes
        try:
            number = boundary.index(number, "probe")
        except ValueError:
            asked = f"probe {shown(number)}: give a probe's number, 1 for the first"
            raise ValueError(asked) from None
        if not 1 <= number <= len(attached):
            held = f"1…{len(attached)}" if attached else "none: add one with add_probe"
            raise ValueError(f"probe {shown(number)}: the probes are {held}")
        return dataclasses.asdict(self._engine.probe_readings()[number - 1])

    def _particle(self, particle: Any) -> int:
        return boundary.index_below(particle, "particle", self.particles)

    @_locked
    def grab(self, particle: int, to: Vec3) -> None:
        """Hold a particle at a point (as the mouse does) until `release`."""
        self._submit(GrabStart(self._particle(particle), boundary.point(to, "to")))

    @_locked
    def move_grab(self, to: Vec3) -> None:
        """Move the held particle's point (the mouse moving during a drag)."""
        self._submit(GrabMove(boundary.point(to, "to")))

    @_locked
    def release(self) -> None:
        """Let the held particle go (the mouse button released)."""
        self._submit(GrabRelease())

    # --- rulers ------------------------------------------------------------------------------

    @property
    @_locked
    def rulers(self) -> list[RulerSpec]:
        """The scene's rulers (saved with it), in the order they were added."""
        return list(self._document.rulers)

    @property
    @_locked
    def ruler_lengths(self) -> list[float]:
        """Each ruler's length now, in the scene's units (metres for SI fabrics: `ruler_unit`),
        as the app's view labels them."""
        return [float(v) for v in ruler_math.ruler_lengths(self._document.rulers, self._x())]

    @_locked
    def ruler_unit(self, index: int) -> str:
        """The unit of a ruler's length: "m" on a fabric in SI units, else "units"."""
        ruler = self._ruler(index)
        return ruler_math.ruler_unit(self._document, self._engine.sim.topology, ruler)

    @_locked
    def add_ruler(self, start: int | Vec3, end: int | Vec3) -> int:
        """Add a ruler between two ends, each a particle (an int: the end follows it) or a
        point (x, y, z) that stays put; returns its index. An undoable edit in the app, a
        command in the recording."""
        count = self._engine.sim.topology.particle_count
        ruler = RulerSpec(start=_ruler_end(start, count), end=_ruler_end(end, count))
        before = tuple(self._document.rulers)
        self._submit(EditRulers((*before, ruler), before))
        return len(before)

    @_locked
    def remove_ruler(self, index: int) -> None:
        """Remove a ruler by its index, 0 for the first (the ruler tool on its label)."""
        index = self._ruler_index(index)
        before = tuple(self._document.rulers)
        self._submit(EditRulers(before[:index] + before[index + 1 :], before))

    def _ruler(self, index: Any) -> RulerSpec:
        return self._document.rulers[self._ruler_index(index)]

    def _ruler_index(self, index: Any) -> int:
        rulers = self._document.rulers
        try:
            index = boundary.index(index, "ruler")
        except ValueError:
            asked = f"ruler {shown(index)}: give a ruler's index, 0 for the first"
            raise ValueError(asked) from None
        if not 0 <= index < len(rulers):
            raise ValueError(f"ruler {shown(index)}: the scene has {len(rulers)} rulers")
        return int(index)

    def _x(self) -> np.ndarray:
        return self._engine.sim.state.x

    def _anchor(self, particle: int) -> Vec3 | None:
        return next((p.anchor for p in self._document.pins if p.particle == particle), None)

    def _submit(self, request: object) -> None:
        """A request to the Lab's session (sim.lab.session): an edit of the set-up (undoable;
        at step 0 with nothing applied, of the scene itself, as `--seam` cuts) or a command at
        the current step. One ValueError (or KeyError) when it does not fit, nothing changed."""
        try:
            self._session.submit(request)
        except CommandError as error:
            raise ValueError(str(error)) from None

    def _restart(self, scene: Scene) -> None:
        """Step 0 of `scene`, a recording's commands still scheduled on it."""
        source = self._source
        self._start(scene if isinstance(source, Scene) else variants.with_scene(source, scene))

    # --- files ------------------------------------------------------------------------------

    @property
    @_locked
    def recording(self) -> Recording:
        """The run so far as a recording: the scene at step 0 and every command at its step."""
        return self._engine.recording()

    @_locked
    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the scene as set up (`scene`: what `clothlab run --save` writes), atomically:
        never the links the run tore nor where it moved the particles."""
        write_reopening(path, scene_json(self._document), parse_scene)

    @_locked
    def save_state(self, path: str | os.PathLike[str]) -> None:
        """Write the set-up with the links the run has torn so far (what `--save-state` writes;
        File ▸ Save State in the app), named "… — state at t = … s (N links torn)". Positions
        are not stored: the file opens at rest, torn."""
        scene = capture_scene(self._document, self._engine.sim)
        write_reopening(path, scene_json(scene), parse_scene)

    @_locked
    def save_recording(self, path: str | os.PathLike[str]) -> None:
        """Write the run so far as a recording (File ▸ Open plays it in the app)."""
        write_reopening(path, recording_json(self.recording), parse_recording)

    @_locked
    def save_positions(self, path: str | os.PathLike[str]) -> None:
        """The positions as a .npy file (what `clothlab run --positions` writes)."""
        buffer = io.BytesIO()
        np.save(buffer, self.positions, allow_pickle=False)
        write_atomically(Path(path), buffer.getvalue())

    @_locked
    def __repr__(self) -> str:
        return f"<Lab {self.name!r}: step {self.steps}, t = {self.t:.4f} s>"


class _LabModel:
    """A Lab's run as its session's model: a command is applied to the engine at the current
    step; an edit at step 0 with nothing applied yet is the scene's own, so the run starts
    afresh from the edited scene (as `--seam` and `--set` make it)."""

    def __init__(self, lab: Lab) -> None:
        self._lab = lab

    def send(self, command: Command) -> None:
        lab = self._lab
        at_start = lab._at_start() and isinstance(command, Edit)
        lab._follow_recording()  # the recording's own, before the session's
        try:
            lab._engine.apply(command)
        except CommandError as error:
            raise ValueError(str(error)) from None
        lab._followed = len(lab._engine.journal)  # the session's document has it already
        if at_start:
            lab._restart(lab._session.scene)

    def send_all(self, commands: list[Command]) -> None:
        for command in commands:
            self.send(command)

    def restart(self, scene: Scene, because: str | None) -> None:
        """A reset (None) starts the scene as set up; an edit of its bodies keeps a
        recording's commands scheduled."""
        if because is None:
            self._lab._start(scene)
        else:
            self._lab._restart(scene)

    def torn(self) -> frozenset[int]:
        return frozenset(np.flatnonzero(~self._lab._engine.sim.state.link_alive).tolist())


class _Rows:
    """The rows a run keeps: taken from the engine a chunk at a time as arrays (a row as a
    tuple of floats is four times its numbers), only the last `keep` if given."""

    def __init__(self, keep: int | None) -> None:
        self._keep = keep
        self._readouts: list[np.ndarray] = []
        self._probes: list[np.ndarray] = []
        self._count = 0

    def add(self, readout_rows: list[Row], probe_rows: list[Row]) -> None:
        if not readout_rows:
            return
        self._readouts.append(np.array(readout_rows, dtype=np.float64))
        self._probes.append(np.array(probe_rows, dtype=np.float64).reshape(len(readout_rows), -1))
        self._count += len(readout_rows)
        if self._keep is not None and self._count > self._keep:
            self._readouts = [_last(np.concatenate(self._readouts), self._keep)]
            self._probes = [_last(np.concatenate(self._probes), self._keep)]
            self._count = self._keep

    def readouts(self) -> np.ndarray:
        if not self._readouts:
            return np.empty((0, len(readouts.CSV_COLUMNS)))
        return np.concatenate(self._readouts)

    def probes(self) -> np.ndarray:
        return np.concatenate(self._probes) if self._probes else np.empty((0, 0))


def _next_chunk(steps: int, elapsed: float) -> int:
    """Steps for about CHUNK_S of work, from the last chunk's pace; at most twice as many."""
    if elapsed <= 0.0:
        return 2 * steps
    return max(1, min(2 * steps, int(steps * CHUNK_S / elapsed)))


def _last(rows: np.ndarray, keep: int) -> np.ndarray:
    return rows[len(rows) - keep :]


@contextlib.contextmanager
def _ctrl_c_stops(sim: Any) -> Iterator[Callable[[], bool]]:
    """Ctrl+C during a run sets a flag (and the simulation's `stop`, which undoes a slow step
    under way) instead of raising wherever the interpreter is: raised there, it once left a
    half-taken step and rows the next run returned (123 605 of them for run(2)). Only where
    Ctrl+C raises KeyboardInterrupt as usual: the main thread, Python's own handler."""
    in_main = threading.current_thread() is threading.main_thread()
    if not in_main or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield lambda: False
        return
    pressed: list[bool] = []

    def on_ctrl_c(signum: int, frame: Any) -> None:
        pressed.append(True)
        sim.stop[0] = 1

    previous = signal.signal(signal.SIGINT, on_ctrl_c)
    try:
        yield lambda: bool(pressed)
    finally:
        signal.signal(signal.SIGINT, previous)
        sim.stop[0] = 0


def write_reopening(path: str | os.PathLike[str], text: str, parse: Callable[..., Any]) -> None:
    """Write a file atomically, once its text has read back: a file that would not reopen is
    not written (SceneError, one line), so a save never replaces good work with a bad file."""
    try:
        parse(text, os.fspath(path))
    except SceneError as error:
        raise SceneError(f"not written, it would not reopen: {error}") from None
    write_atomically(Path(path), text.encode("utf-8"))


def _ruler_end(value: Any, particles: int) -> RulerEnd:
    """One of the `particles` (an int) or a point (three numbers); ValueError in one short line
    otherwise (a particle of 400 digits once came back whole from the edit's own check)."""
    if hasattr(value, "__index__") and not isinstance(value, bool | np.bool_):
        return ruler_math.particle_end(boundary.index_below(value, "ruler end", particles))
    if isinstance(value, str | bytes) or len(_items(value)) != 3:
        raise ValueError(f"ruler end {shown(value)}: expected a particle or a point (x, y, z)")
    return ruler_math.point_end(boundary.point(value, "ruler end"))


def _items(value: Any) -> list[Any]:
    try:
        return list(value)
    except TypeError:
        return []
