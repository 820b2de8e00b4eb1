"""`Lab`: one run of a scene, driven from Python as the app and the CLI drive it.

A Lab wraps the engine (sim.lab.engine.Engine) that the app's solver thread, `clothlab run` and the
Compare panel step, so the same scene, settings and commands give the same numbers bit for bit:
`Lab.run` returns the readout rows `clothlab run --csv` writes. Edits (`cut`, `pin`, `set` after
the first step) are the commands the app records, so `Lab.recording` replays in the app.
"""

from __future__ import annotations

import dataclasses
import io
import os
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from clothlab.sim.core import probes, readouts
from clothlab.sim.core.forces import Forces
from clothlab.sim.document.commands import (
    Command,
    CommandError,
    EditRulers,
    GrabMove,
    GrabRelease,
    GrabStart,
    apply_to_document,
)
from clothlab.sim.document.edits import CutLinks, SetPin, SetProbe, SetSetting, seam_links
from clothlab.sim.document.files import write_atomically
from clothlab.sim.document.recording import Recording, save_recording
from clothlab.sim.document.scene import RulerEnd, RulerSpec, Scene, capture_scene, save_scene
from clothlab.sim.lab import rulers as ruler_math
from clothlab.sim.lab import variants
from clothlab.sim.lab.engine import Engine, Source, in_si_units

Vec3 = tuple[float, float, float]


class Table(Mapping[str, np.ndarray]):
    """Readout rows, one per step: a mapping from CSV column key ("step", "t", "sag", …) to a
    (rows,) float64 array. NaN where a readout does not apply (volume without a block). With
    probes, their columns follow: "probe1_y", "probe1_speed", "probe1_tension", "probe2_y", …
    (NaN where the probe was not attached at that step)."""

    columns: tuple[str, ...] = readouts.CSV_COLUMNS  # without probes; with, see __init__
    units: dict[str, str] = readouts.CSV_UNITS  # of a run in model units; see __init__

    def __init__(self, rows: np.ndarray, probe_slots: int = 0, si: bool = False) -> None:
        self.rows = rows  # (rows, columns) float64, columns as `columns`
        self.rows.flags.writeable = False
        self.probe_slots, self._si = probe_slots, si
        self.columns = (*readouts.CSV_COLUMNS, *probes.column_keys(probe_slots))
        self.units = {**readouts.csv_units(si), **probes.units(probe_slots, si)}

    def __getitem__(self, key: str) -> np.ndarray:
        try:
            return self.rows[:, self.columns.index(key)]
        except ValueError:
            raise KeyError(f"{key}: not a column (columns: {', '.join(self.columns)})") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self.columns)

    def __len__(self) -> int:
        return len(self.columns)

    @property
    def count(self) -> int:
        """Rows in the table."""
        return len(self.rows)

    def csv(self) -> str:
        """The text `clothlab run --csv` writes for these rows (header with units)."""
        return readouts.csv_text(self.rows, self.probe_slots, self._si)

    def save_csv(self, path: str | os.PathLike[str]) -> None:
        write_atomically(Path(path), self.csv().encode("utf-8"))

    def __repr__(self) -> str:
        return f"<Table: {self.count} rows × {len(self.columns)} columns>"

    @classmethod
    def of(
        cls,
        rows: Sequence[tuple[float, ...]],
        probe_rows: Sequence[tuple[float, ...]] = (),
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


class Lab:
    """One run of a scene (or the replay of a recording); see clothlab.open."""

    def __init__(self, source: Source, name: str = "") -> None:
        self.name = name or variants.scene_of(source).name
        self._source: Source = source  # what step 0 is: the scene (or recording) as set up
        self._document: Scene = variants.scene_of(source)  # the set-up with the edits made here
        self._engine = Engine.of(source, record_probes=True)

    # --- the state --------------------------------------------------------------------------

    @property
    def steps(self) -> int:
        """Steps taken since step 0."""
        return self._engine.steps

    @property
    def t(self) -> float:
        """Model time, s."""
        return self._engine.t

    @property
    def positions(self) -> np.ndarray:
        """(N, 3) float64: every particle's position now (a copy)."""
        return self._engine.sim.state.x.copy()

    @property
    def readouts(self) -> dict[str, float]:
        """The readouts of the state now, by CSV column key (counts as int)."""
        return {"step": self.steps, **dataclasses.asdict(self._engine.readouts())}

    @property
    def pin_forces(self) -> np.ndarray:
        """(P, 3) float64: each pin's force on the cloth over the last step, one row per pin in
        ascending particle order (N with SI fabrics, model units otherwise); NaN before the
        first step."""
        return self._forces().pin_force.copy()

    @property
    def link_tensions(self) -> np.ndarray:
        """(M,) float64: each link's pull on its ends over the last step (< 0: a push), 0 for a
        cut or torn link; NaN before the first step."""
        return self._forces().link_tension.copy()

    @property
    def tension_per_length(self) -> np.ndarray | None:
        """(M,) float64, N/m: across each side link of a body with an SI fabric, the fabric's
        tension per unit length (NaN for diagonals and bodies in model units); None when no
        body has an SI fabric. The same fabric gives the same values at any resolution."""
        per_length = self._forces().tension_per_length
        return None if per_length is None else per_length.copy()

    @property
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
    def scene(self) -> Scene:
        """The scene as set up: the one opened with the changes and edits made since."""
        return self._document

    @property
    def particles(self) -> int:
        return self._engine.sim.topology.particle_count

    @property
    def links(self) -> int:
        return self._engine.sim.topology.link_count

    # --- running ----------------------------------------------------------------------------

    def run(self, steps: int | None = None) -> Table:
        """Take `steps` steps (a recording's: to its end) and return their readout rows, one per
        step; the first call also returns the row of step 0. Raises RuntimeError if the model
        blows up (it has its last good state back)."""
        if steps is None:
            if not isinstance(self._source, Recording):
                raise ValueError("give the number of steps to run")
            steps = max(0, self._source.steps - self._engine.clock)
        if isinstance(steps, bool) or not isinstance(steps, int) or steps < 0:
            raise ValueError(f"steps: {steps!r} is not a count of steps")
        engine = self._engine
        engine.advance(steps)
        rows, probe_rows = engine.take_rows(), engine.take_probe_rows()
        if engine.blew_up:
            instability = engine.sim.instability
            raise RuntimeError(instability.message if instability else "the model blew up")
        return Table.of(rows, probe_rows, in_si_units(self._source))

    def reset(self) -> None:
        """Back to step 0 of the scene as set up now (the edits kept, the journal afresh)."""
        self._start(self._document)

    def _at_start(self) -> bool:
        """At step 0 with nothing applied yet: a change is the scene's, as `--set` makes it."""
        return self.steps == 0 and len(self._engine.journal) == 1

    def _start(self, source: Source) -> None:
        self._source, self._document = source, variants.scene_of(source)
        self._engine = Engine.of(source, record_probes=True)

    # --- settings ---------------------------------------------------------------------------

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
            previous = getattr(self._engine.sim.settings, key)
            if value != previous:
                self._edit(SetSetting(key, value, previous))

    # --- the commands the app records ---------------------------------------------------------

    def cut(self, links: Sequence[int]) -> int:
        """Cut these links (indices into the model's links) where still live; returns how many
        were cut."""
        live = self._engine.sim.state.link_alive
        indices = [int(k) for k in links]
        bad = [k for k in indices if not 0 <= k < len(live)]
        if bad:
            raise ValueError(f"link {bad[0]} is not within 0…{len(live) - 1}")
        chosen = tuple(sorted({k for k in indices if live[k]}))
        if chosen:
            self._edit(CutLinks(chosen))
        return len(chosen)

    def cut_seam(self, sheet: int = 0) -> int:
        """The model's seam cut of a sheet, top to bottom down its middle."""
        topology = self._engine.sim.topology
        if not 0 <= sheet < len(topology.sheets):
            raise ValueError(f"sheet {sheet}: the scene has {len(topology.sheets)} sheets")
        return self.cut(seam_links(topology, sheet).tolist())

    def pin(self, particle: int, at: Vec3 | None = None) -> None:
        """Pin a particle where it is now, as the app's Pin tool does: the run holds it there and
        the set-up (`scene`, a save, `reset`) at its rest place, so step 0 starts unstretched.
        Or pin it, or move its pin, at `at`: a place chosen on purpose, the set-up's too."""
        sim = self._engine.sim
        if not 0 <= particle < sim.topology.particle_count:  # say it before reading x
            raise ValueError(f"particle {particle} is not within 0…{self.particles - 1}")
        previous = self._anchor(particle)
        if at is not None:
            self._edit(SetPin(particle, _point(at), previous))
            return
        rest, now = _point(sim.topology.rest_positions[particle]), _point(sim.state.x[particle])
        self._edit(SetPin(particle, rest, previous, live=None if now == rest else now))

    def unpin(self, particle: int) -> None:
        self._edit(SetPin(particle, None, self._anchor(particle)))

    # --- probes ------------------------------------------------------------------------------

    @property
    def probes(self) -> tuple[int, ...]:
        """The particles with a probe, probe 1 first (the CSV's probe1_y, … columns)."""
        return self._engine.probes

    def add_probe(self, particle: int) -> int:
        """Attach a probe to a particle (at most sim.core.probes.MAX_PROBES) and return its
        number (1 for the first); from then on `run` gives its columns and `probe` reads it."""
        self._check_particle(particle)
        self._edit(SetProbe(particle, True, len(self.probes)))
        return len(self.probes)

    def remove_probe(self, particle: int) -> None:
        """Take the probe off a particle; the probes after it move up a number."""
        if particle not in self.probes:
            raise ValueError(f"particle {particle} has no probe")
        self._edit(SetProbe(particle, False, self.probes.index(particle)))

    def probe(self, number: int) -> dict[str, float]:
        """What probe `number` (1 for the first, as its CSV columns are named) reads now: its
        particle, height y (units), speed (units/s) and the largest tension among the links at
        it over the last step (N with SI fabrics, model units otherwise; NaN before the first
        step, as `link_tensions`)."""
        attached = self.probes
        if isinstance(number, bool) or not isinstance(number, int):
            raise ValueError(f"probe {number!r}: give a probe's number, 1 for the first")
        if not 1 <= number <= len(attached):
            held = f"1…{len(attached)}" if attached else "none: add one with add_probe"
            raise ValueError(f"probe {number}: the probes are {held}")
        return dataclasses.asdict(self._engine.probe_readings()[number - 1])

    def _check_particle(self, particle: int) -> None:
        if isinstance(particle, bool) or not isinstance(particle, (int, np.integer)):
            raise ValueError(f"particle {particle!r} is not an index")
        if not 0 <= particle < self.particles:
            raise ValueError(f"particle {particle} is not within 0…{self.particles - 1}")

    def grab(self, particle: int, to: Vec3) -> None:
        """Hold a particle at a point (as the mouse does) until `release`."""
        self._command(GrabStart(particle, _point(to)))

    def move_grab(self, to: Vec3) -> None:
        self._command(GrabMove(_point(to)))

    def release(self) -> None:
        self._command(GrabRelease())

    # --- rulers ------------------------------------------------------------------------------

    @property
    def rulers(self) -> list[RulerSpec]:
        """The scene's rulers (saved with it), in the order they were added."""
        return list(self._document.rulers)

    @property
    def ruler_lengths(self) -> list[float]:
        """Each ruler's length now, in the scene's units (metres for SI fabrics: `ruler_unit`),
        as the app's view labels them."""
        return [float(v) for v in ruler_math.ruler_lengths(self._document.rulers, self._x())]

    def ruler_unit(self, index: int) -> str:
        """The unit of a ruler's length: "m" on a fabric in SI units, else "units"."""
        ruler = self._ruler(index)
        return ruler_math.ruler_unit(self._document, self._engine.sim.topology, ruler)

    def add_ruler(self, start: int | Vec3, end: int | Vec3) -> int:
        """Add a ruler between two ends, each a particle (an int: the end follows it) or a
        point (x, y, z) that stays put; returns its index. An undoable edit in the app, a
        command in the recording."""
        ruler = RulerSpec(start=_ruler_end(start), end=_ruler_end(end))
        before = tuple(self._document.rulers)
        self._edit(EditRulers((*before, ruler), before))
        return len(before)

    def remove_ruler(self, index: int) -> None:
        self._ruler(index)
        before = tuple(self._document.rulers)
        self._edit(EditRulers(before[:index] + before[index + 1 :], before))

    def _ruler(self, index: int) -> RulerSpec:
        rulers = self._document.rulers
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(rulers):
            raise ValueError(f"ruler {index!r}: the scene has {len(rulers)} rulers")
        return rulers[index]

    def _x(self) -> np.ndarray:
        return self._engine.sim.state.x

    def _anchor(self, particle: int) -> Vec3 | None:
        return next((p.anchor for p in self._document.pins if p.particle == particle), None)

    def _edit(self, edit: CutLinks | SetPin | SetSetting | EditRulers | SetProbe) -> None:
        """An edit of the set-up: of the scene itself at the start (as `--seam` cuts), else a
        command at the current step."""
        if isinstance(edit, SetProbe):
            try:
                edit.fits(self._document)
            except CommandError as error:
                raise ValueError(str(error)) from None
        at_start = self._at_start()
        self._command(edit)  # checked against the model, and applied to the run
        self._document = apply_to_document(self._document, edit)
        if at_start:  # step 0 is the edited scene: start it afresh
            source, scene = self._source, self._document
            self._start(scene if isinstance(source, Scene) else variants.with_scene(source, scene))

    def _command(self, command: Command) -> None:
        try:
            self._engine.apply(command)
        except CommandError as error:
            raise ValueError(str(error)) from None

    # --- files ------------------------------------------------------------------------------

    @property
    def recording(self) -> Recording:
        """The run so far as a recording: the scene at step 0 and every command at its step."""
        return self._engine.recording()

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the scene as set up (`scene`: what `clothlab run --save` writes), atomically:
        never the links the run tore nor where it moved the particles."""
        save_scene(self._document, path)

    def save_state(self, path: str | os.PathLike[str]) -> None:
        """Write the set-up with the links the run has torn so far (what `--save-state` writes;
        File ▸ Save State in the app), named "… — state at t = … s (N links torn)". Positions
        are not stored: the file opens at rest, torn."""
        save_scene(capture_scene(self._document, self._engine.sim), path)

    def save_recording(self, path: str | os.PathLike[str]) -> None:
        """Write the run so far as a recording (File ▸ Open plays it in the app)."""
        save_recording(self.recording, path)

    def save_positions(self, path: str | os.PathLike[str]) -> None:
        """The positions as a .npy file (what `clothlab run --positions` writes)."""
        buffer = io.BytesIO()
        np.save(buffer, self.positions, allow_pickle=False)
        write_atomically(Path(path), buffer.getvalue())

    def __repr__(self) -> str:
        return f"<Lab {self.name!r}: step {self.steps}, t = {self.t:.4f} s>"


def _ruler_end(value: Any) -> RulerEnd:
    """A particle (an int) or a point (three numbers); ValueError in one line otherwise."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        if value < 0:
            raise ValueError(f"ruler end {value}: a particle is not negative")
        return ruler_math.particle_end(int(value))
    try:
        point = _point(value)
    except (TypeError, ValueError):
        raise ValueError(f"ruler end {value!r}: expected a particle or a point (x, y, z)") from None
    try:
        return ruler_math.point_end(point)
    except ValueError:  # pydantic's: not finite or beyond the coordinate limit
        raise ValueError(f"ruler end {value!r}: expected finite coordinates") from None


def _point(values: Any) -> Vec3:
    x, y, z = (float(v) for v in values)
    return (x, y, z)
