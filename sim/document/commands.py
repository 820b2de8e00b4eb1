"""Every user action as a command record, each declared once: its fields, its check, its
effects and its entry in a recording.

A command is a frozen dataclass deriving from `Command`. The `kind` its class is declared with
is its "type" in a recording and puts it in COMMANDS. Its methods carry it out:

* `check(particles, links)` raises CommandError unless it fits a model of that size;
* `on_document(scene)` is the document after it (edits only);
* `on_simulation(sim)` carries it out on a simulation (edits and grabs);
* `on_thread(thread)` carries it out on the solver thread (run, pause, step, speed).

Its entry in a recording file (sim.document.recording) is derived from its fields: their annotations
are the scene file's validating types. A record whose file form differs says so beside it
(`file_fields`, `to_file`, `from_file`). So a new command is one class here, plus, if it
steers the solver thread, the method it calls there (SolverThread, app.worker).

Edits (cut, pin, setting, composition) change the document and the simulation and know their
inverse, for undo; grabs steer the simulation only; the solver thread's commands (load, run,
pause, step, speed) say how it runs. A run is a list of `Stamped` commands: each carries the
step it was applied at, so replaying the list from the same scene (an sim.lab.engine.Engine does)
applies every command at the same step and reproduces the positions bit for bit.
"""

from __future__ import annotations

import bisect
import dataclasses
import math
import typing
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Protocol, TypeAlias

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, GetPydanticSchema
from pydantic_core import core_schema, to_jsonable_python

from clothlab.sim.core.parameters import COORDINATE_LIMIT, SETTINGS_TABLE
from clothlab.sim.core.probes import MAX_PROBES, after_change
from clothlab.sim.core.solver import Simulation
from clothlab.sim.document.scene import (
    MAX_BODIES,
    MAX_LIST,
    MAX_OBSTACLES,
    MAX_PARTICLES,
    MAX_RULERS,
    Body,
    Obstacle,
    PinSpec,
    RulerSpec,
    Scene,
    SceneDescription,
    SceneName,
    Vec3,
    as_point,
    bodies_restructure,
    body_materials,
    check_ruler_particles,
    max_length,
    obstacle_shapes,
    with_setting,
)
from clothlab.sim.text import tr

# The validating types of the fields (what a recording's entry may hold), from the scene
# file's: Vec3 is three finite numbers within its coordinate limit.
Index = Annotated[int, Field(ge=0)]
SettingValue: TypeAlias = bool | int | float | Vec3


def _array(item: Any, max_length: int) -> GetPydanticSchema:
    """A tuple a file holds as a JSON array: validated as a list (so errors name a list) and
    kept as a tuple."""
    listed = Annotated[list[item], Field(max_length=max_length)]
    return GetPydanticSchema(
        lambda _source, handler: core_schema.no_info_after_validator_function(
            tuple, handler.generate_schema(listed)
        )
    )


class CommandError(ValueError):
    """A command that does not fit the model it is meant for; the message is one line."""


# --- the record --------------------------------------------------------------------------------

COMMANDS: dict[str, type[Command]] = {}  # "type" in a recording → its record, as declared


class Command:
    """A user action as a frozen dataclass; see the module's doc. A subclass declared with
    `kind="..."` can be in a recording; one without (Load) never is."""

    kind: ClassVar[str | None] = None

    def __init_subclass__(cls, kind: str | None = None, **options: Any) -> None:
        super().__init_subclass__(**options)
        cls.kind = kind
        if kind is not None:
            if kind in COMMANDS:
                raise TypeError(f"{cls.__name__}: {COMMANDS[kind].__name__} is {kind!r} already")
            COMMANDS[kind] = cls

    def check(self, particles: int, links: int) -> None:
        """Raise CommandError unless the command fits a model of that many particles and
        links: indices in range, finite coordinates, settings of their declared type and
        range."""

    def on_document(self, scene: Scene) -> Scene:
        """The document after the command; a command that does not edit it leaves it."""
        return scene

    def on_simulation(self, sim: Simulation) -> None:
        """Carry out the command on a simulation (not for the solver thread's commands)."""

    def on_thread(self, thread: SolverThread) -> None:
        """Carry out the command on the solver thread, once the run has journalled it."""

    def as_applied(self, journal: Sequence[Stamped], clock: int, dt: float) -> Command:
        """The command as an engine applies and journals it at step `clock` of a run whose
        journal so far is `journal` (Δt `dt`): one that depends on when it comes (a pointer's
        grab move, which measures how long the pointer took) is made definite here, so that
        its recording replays the same."""
        return self

    # --- its entry in a recording (sim.document.recording adds "step" and "type") ---

    @classmethod
    def file_fields(cls) -> dict[str, tuple[Any, Any]]:
        """The entry's fields, as pydantic takes them: name → (type, default or ...)."""
        hints = typing.get_type_hints(cls, include_extras=True)
        return {
            f.name: (hints[f.name], ... if f.default is dataclasses.MISSING else f.default)
            for f in dataclasses.fields(cls)  # type: ignore[arg-type]  # every record is one
        }

    def to_file(self) -> dict[str, Any]:
        """The entry's fields, for json.dumps."""
        return dict(vars(self))  # a dataclass's fields, read in one go: a recording is long

    @classmethod
    def from_file(cls, fields: dict[str, Any]) -> Command:
        """The record of an entry's fields (name → value, validated by `file_fields`);
        CommandError if they do not make one."""
        return cls(**fields)


class Edit(Command):
    """A command that changes the document and the simulation. It knows its inverse (undo
    applies it) and has a `text`, its undo entry's words ("Cut 31 links")."""

    # The change moves particles or changes their number: the model starts afresh from the
    # edited scene (a Load) instead of taking the change live.
    restart = False
    # The change leaves everything the model computes as it was (a probe only reads it): a
    # replay it is made in stays the recording's run, bit for bit, and seeks as one.
    leaves_model: ClassVar[bool] = False

    if TYPE_CHECKING:  # each kind says it its own way: a property, or a field (EditScene)

        @property
        def text(self) -> str: ...

    def inverse(self) -> Edit:
        raise NotImplementedError

    def merged(self, later: Edit) -> Edit | None:
        """This edit and a `later` one as one edit (one step of a drag), if they merge."""
        return None


class WorkerCommand(Command):
    """A command for the solver thread: it says how the run goes (start it, run, pause, step,
    pace it) and leaves the document and the simulation as they are. The engine journals it
    and no more, and a replay leaves it out: it only said how the user watched."""


WORKER_COMMANDS = (WorkerCommand,)  # for isinstance: every command the solver thread carries out


class SolverThread(Protocol):
    """What the solver thread's commands steer (app.worker.SolverWorker)."""

    def set_running(self, running: bool) -> None: ...

    def set_speed(self, speed: float) -> None: ...

    def step_paused(self, count: int) -> None: ...


@dataclass(frozen=True)
class Stamped:
    step: int  # apply when the simulation has taken this many steps (or later, if past)
    command: Command


# --- edits ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class CutLinks(Edit, kind="cut"):
    # link indices, all live before a cut (all dead before a restore)
    links: Annotated[tuple[int, ...], _array(Index, MAX_LIST)]
    restore: bool = False

    def inverse(self) -> CutLinks:
        return CutLinks(self.links, not self.restore)

    @property
    def text(self) -> str:
        count = len(self.links)
        if self.restore:
            text = tr("Restore {count} link") if count == 1 else tr("Restore {count} links")
        else:
            text = tr("Cut {count} link") if count == 1 else tr("Cut {count} links")
        return text.format(count=count)

    def check(self, particles: int, links: int) -> None:
        _indices(self.links, links, "link")

    def on_document(self, scene: Scene) -> Scene:
        cuts = set(scene.cuts)
        cuts = cuts - set(self.links) if self.restore else cuts | set(self.links)
        return scene.model_copy(update={"cuts": sorted(cuts)})

    def on_simulation(self, sim: Simulation) -> None:
        sim.set_cut(self.links, not self.restore)


@dataclass(frozen=True)
class SetPin(Edit, kind="set_pin"):
    """Pin, move or (anchor None) unpin a particle. `anchor` is the document's: the set-up
    anchors a pin made during a run at its particle's rest place, so that step 0 (a load, a
    Reset) starts unstretched. `live`, if given, is where the running model holds it now (where
    the particle was when the Pin tool pinned it): the simulation takes that instead."""

    particle: Index
    anchor: Vec3 | None  # None: not pinned
    previous: Vec3 | None
    live: Vec3 | None = None  # the simulation's anchor, if not `anchor`; a recording keeps it

    def inverse(self) -> SetPin:
        return SetPin(self.particle, self.previous, self.anchor)

    @property
    def text(self) -> str:
        if self.previous is None:
            return tr("Add pin")
        return tr("Remove pin") if self.anchor is None else tr("Move pin")

    def check(self, particles: int, links: int) -> None:
        _indices((self.particle,), particles, "particle")
        if self.anchor is not None:
            _point(self.anchor, "anchor")
        if self.live is not None:
            if self.anchor is None:
                raise CommandError("set_pin: a live anchor needs an anchor")
            _point(self.live, "live anchor")

    def on_document(self, scene: Scene) -> Scene:
        # The other pins' specs are kept as they are: building every PinSpec anew made each
        # edit cost 50 ms at 10 000 pins. Pins stay in particle order.
        pins = [p for p in scene.pins if p.particle != self.particle]
        if self.anchor is not None:
            pin = PinSpec(particle=self.particle, anchor=self.anchor)
            bisect.insort(pins, pin, key=lambda p: p.particle)
        return scene.model_copy(update={"pins": pins})

    def on_simulation(self, sim: Simulation) -> None:
        anchor = self.anchor if self.live is None else self.live
        sim.set_pins(with_pin(sim.pins, self.particle, anchor))

    # In a file, `live` only where it is given: entries read the same as before it existed.
    def to_file(self) -> dict[str, Any]:
        fields = dict(vars(self))
        if fields["live"] is None:
            del fields["live"]
        return fields


@dataclass(frozen=True)
class SetSetting(Edit, kind="set_setting"):
    key: str
    # Its type is the key's (SETTINGS_TABLE): `check` says so, as it does for a live edit.
    value: SettingValue
    previous: SettingValue

    def inverse(self) -> SetSetting:
        return SetSetting(self.key, self.previous, self.value)

    @property
    def text(self) -> str:
        if self.key == "ball_center":
            return tr("Move ball")
        setting = self.key.replace("_", " ")
        parameter = SETTINGS_TABLE.get(self.key)
        if parameter is not None and tr(parameter.label) != parameter.label:
            setting = tr(parameter.label)  # the English text names the key, as it always did
        return tr("Set {setting}").format(setting=setting)

    def merged(self, later: Edit) -> SetSetting | None:
        """Changes of one setting in a row go from the first's previous value to the last's
        value."""
        if not isinstance(later, SetSetting) or later.key != self.key:
            return None
        return SetSetting(self.key, later.value, self.previous)

    def check(self, particles: int, links: int) -> None:
        if self.key not in SETTINGS_TABLE:
            raise CommandError(f"set_setting: unknown setting {self.key!r}")
        # `previous` too: undo applies it (a recording's, replayed in the app, may be undone)
        for value, what in ((self.value, ""), (self.previous, " (previous)")):
            try:
                SETTINGS_TABLE[self.key].check(value)
            except (TypeError, ValueError) as error:
                raise CommandError(f"{self.key}{what}: {error}") from None

    def on_document(self, scene: Scene) -> Scene:
        return with_setting(scene, self.key, self.value)

    def on_simulation(self, sim: Simulation) -> None:
        sim.settings = sim.settings.with_value(self.key, self.value)


@dataclass(frozen=True)
class SetSceneInfo(Edit, kind="set_scene_info"):
    """The scene's name and description (File ▸ Scene properties): the document's words about
    the experiment, so the simulation is left as it is."""

    name: SceneName
    description: SceneDescription
    previous_name: SceneName
    previous_description: SceneDescription

    def inverse(self) -> SetSceneInfo:
        return SetSceneInfo(
            self.previous_name, self.previous_description, self.name, self.description
        )

    @property
    def text(self) -> str:
        if self.name != self.previous_name:
            return tr("Rename scene “{name}”").format(name=self.name)
        return tr("Describe scene")

    def check(self, particles: int, links: int) -> None:
        for words, field in ((self.name, "name"), (self.description, "description")):
            limit = max_length(Scene, field)
            if not isinstance(words, str) or len(words) > limit:
                raise CommandError(f"scene {field}: expected text of at most {limit} characters")

    def on_document(self, scene: Scene) -> Scene:
        return scene.model_copy(update={"name": self.name, "description": self.description})


@dataclass(frozen=True)
class EditRulers(Edit, kind="edit_rulers"):
    """The scene's rulers replaced as a whole (one added, one removed or all): the document's
    instruments, so the simulation is left as it is."""

    after: Annotated[tuple[RulerSpec, ...], _array(RulerSpec, MAX_RULERS)]
    before: Annotated[tuple[RulerSpec, ...], _array(RulerSpec, MAX_RULERS)]

    def inverse(self) -> EditRulers:
        return EditRulers(self.before, self.after)

    @property
    def text(self) -> str:
        if len(self.after) > len(self.before):
            return tr("Add ruler")
        if len(self.before) - len(self.after) == 1:
            return tr("Remove ruler")
        return tr("Remove rulers")

    def check(self, particles: int, links: int) -> None:
        if len(self.after) > MAX_RULERS:
            raise CommandError(tr("a scene holds at most {count} rulers").format(count=MAX_RULERS))
        try:  # `before` too: undo applies it
            check_ruler_particles(self.after, particles)
            check_ruler_particles(self.before, particles)
        except ValueError as error:
            raise CommandError(f"edit_rulers: {error}") from None

    def on_document(self, scene: Scene) -> Scene:
        return scene.model_copy(update={"rulers": list(self.after)})

    def to_file(self) -> dict[str, Any]:
        return {k: to_jsonable_python(v) for k, v in vars(self).items()}


@dataclass(frozen=True)
class SetProbe(Edit, kind="set_probe"):
    """Attach a probe to a particle (`add`) at `slot` (0: probe 1), or take it off the
    particle (the probe at `slot`). The document's alone: a probe reads the model and changes
    nothing in it (sim.core.probes)."""

    particle: Index
    add: bool
    slot: Annotated[int, Field(ge=0, lt=MAX_PROBES)]

    leaves_model: ClassVar[bool] = True

    def inverse(self) -> SetProbe:
        return SetProbe(self.particle, not self.add, self.slot)

    @property
    def text(self) -> str:
        text = tr("Add probe {number}") if self.add else tr("Remove probe {number}")
        return text.format(number=self.slot + 1)

    def check(self, particles: int, links: int) -> None:
        _indices((self.particle,), particles, "particle")
        if isinstance(self.slot, bool) or not 0 <= self.slot < MAX_PROBES:
            raise CommandError(f"set_probe: slot {self.slot!r} is not within 0…{MAX_PROBES - 1}")

    def fits(self, scene: Scene) -> None:
        """Raise CommandError unless it applies to `scene`: at most MAX_PROBES, one a particle,
        and a removal of a probe the scene has, at its slot."""
        probes = list(scene.probes)
        if not self.add and (self.slot >= len(probes) or probes[self.slot] != self.particle):
            raise CommandError(
                tr("particle {particle} has no probe {number}").format(
                    particle=self.particle, number=self.slot + 1
                )
            )
        try:
            after_change(probes, self.particle, self.add, self.slot)
        except ValueError as error:
            raise CommandError(str(error)) from None

    def on_document(self, scene: Scene) -> Scene:
        probes = after_change(scene.probes, self.particle, self.add, self.slot)
        return scene.model_copy(update={"probes": list(probes)})


# Of a scene, for EditScene. Tears (a saved state's) change only with a change of bodies,
# which starts the model afresh: its links are not the torn ones; probes follow the bodies'
# particles (sim.document.composition).
EDITABLE_PARTS = ("bodies", "obstacles", "pins", "cuts", "tears", "rulers", "probes")


class _Parts(BaseModel):
    """The parts of a scene a live composition change replaces, in a recording (a change of
    cuts or tears comes with a change of bodies: a restart, never in a recording)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    bodies: list[Body] | None = Field(None, max_length=MAX_BODIES)
    obstacles: list[Obstacle] | None = Field(None, max_length=MAX_OBSTACLES)
    pins: list[PinSpec] | None = Field(None, max_length=MAX_LIST)
    rulers: list[RulerSpec] | None = Field(None, max_length=MAX_RULERS)
    probes: list[Index] | None = Field(None, max_length=MAX_PROBES)

    def given(self) -> dict[str, Any]:
        return {k: v for k in self.model_fields_set if (v := getattr(self, k)) is not None}


@dataclass(frozen=True)
class EditScene(Edit, kind="edit_scene"):
    """Parts of the scene replaced as a whole: any of bodies, obstacles, pins, cuts and tears,
    with what they were (sim.document.composition makes these). `restart`: see Edit."""

    after: dict[str, Any]  # scene field → its new value (a list of specs or indices)
    before: dict[str, Any]
    text: str
    restart: bool = False
    # The run's pins follow the document's as a Pin tool click does: a new pin holds its
    # particle where the run has it (the document pins it at its anchor, the set-up, where
    # Reset starts), a pin whose anchor the edit leaves keeps the run's. Else every pin goes
    # to the document's anchor: "Pin left edge" on a sheet lying on the floor jumped the edge
    # back to its rest place and folded the sheet over (101 % stretch). A recording keeps it.
    live: bool = False

    def inverse(self) -> EditScene:
        return EditScene(self.before, self.after, self.text, self.restart, self.live)

    def check(self, particles: int, links: int) -> None:
        if self.restart:  # a new model: its scene is checked when it is built
            return
        if "pins" in self.after:
            _indices([p.particle for p in self.after["pins"]], particles, "particle")
        if "rulers" in self.after:
            EditRulers(tuple(self.after["rulers"]), ()).check(particles, links)
        if "probes" in self.after:
            _indices(self.after["probes"], particles, "particle")
        for part in ("cuts", "tears"):
            if part in self.after:
                raise CommandError(f"{self.text}: {part} change with bodies only (a restart)")
        if "bodies" in self.after and bodies_restructure(
            self.before["bodies"], self.after["bodies"]
        ):
            raise CommandError(f"{self.text}: a change of bodies must start afresh")

    def fits(self, scene: Scene) -> None:
        """Raise CommandError unless this live edit applies to `scene` (the document as the
        commands before it leave it, in a recording): its bodies before are the scene's, and
        those after are the same model (particles and links), only their materials changed.
        (Obstacles and pins are not compared: a drag's previews move them on the way.)"""
        if "bodies" not in self.after:
            return
        if self.before["bodies"] != scene.bodies:
            raise CommandError(f"{self.text}: its bodies before are not the scene's there")
        if bodies_restructure(scene.bodies, self.after["bodies"]):
            raise CommandError(f"{self.text}: a change of bodies must start afresh")

    def on_document(self, scene: Scene) -> Scene:
        update = dict(self.after)
        if self.restart:  # a new model: no tears unless the edit says (an undo gives them back)
            update.setdefault("tears", [])
        return scene.model_copy(update=update)

    def on_simulation(self, sim: Simulation) -> None:
        """The live parts of a composition change: pins, obstacles, bodies' materials."""
        if self.restart:
            raise CommandError(f"{self.text}: a change of bodies starts the model afresh (a Load)")
        if "pins" in self.after:
            sim.set_pins(self._run_pins(sim) if self.live else
                         {p.particle: p.anchor for p in self.after["pins"]})  # fmt: skip
        if "obstacles" in self.after:
            sim.set_obstacles(*obstacle_shapes(self.after["obstacles"]))
        if "bodies" in self.after:
            sim.set_materials(body_materials(self.after["bodies"]))

    def _run_pins(self, sim: Simulation) -> dict[int, Vec3]:
        """The pins the run holds after a live edit (see `live`)."""
        before = {p.particle: p.anchor for p in self.before["pins"]}
        running, x = sim.pins, sim.state.x
        pins: dict[int, Vec3] = {}
        for pin in self.after["pins"]:
            particle = pin.particle
            if particle not in before:  # new: held where it lies
                pins[particle] = running.get(particle, as_point(x[particle]))
            elif before[particle] == pin.anchor and particle in running:  # left as it was
                pins[particle] = running[particle]
            else:  # moved on purpose
                pins[particle] = pin.anchor
        return pins

    # In a file: the text first, the parts as scene specs, no `restart` (a restart is a Load:
    # a journal never holds one), and `live` only where it is set: entries read as before it.
    @classmethod
    def file_fields(cls) -> dict[str, tuple[Any, Any]]:
        return {
            "text": (Annotated[str, Field(max_length=200)], ...),
            "after": (_Parts, ...),
            "before": (_Parts, ...),
            "live": (bool, False),
        }

    def to_file(self) -> dict[str, Any]:
        def specs(parts: dict[str, Any]) -> dict[str, Any]:
            return {k: to_jsonable_python(values) for k, values in parts.items()}

        fields = {"text": self.text, "after": specs(self.after), "before": specs(self.before)}
        return {**fields, "live": True} if self.live else fields

    @classmethod
    def from_file(cls, fields: dict[str, Any]) -> EditScene:
        after, before = fields["after"].given(), fields["before"].given()
        if set(after) != set(before):
            raise CommandError("edit_scene: after and before must name the same parts")
        return cls(after, before, fields["text"], live=fields["live"])


def with_pin(pins: dict[int, Vec3], particle: int, anchor: Vec3 | None) -> dict[int, Vec3]:
    result = dict(pins)
    if anchor is None:
        result.pop(particle, None)
    else:
        result[particle] = anchor
    return result


# --- grabs: the simulation only --------------------------------------------------------------


@dataclass(frozen=True)
class GrabStart(Command, kind="grab_start"):
    particle: Index
    target: Vec3
    place: bool = False  # put the particle there now (the solver is paused), not at a step

    def check(self, particles: int, links: int) -> None:
        _indices((self.particle,), particles, "particle")
        _point(self.target, "grab target")

    def on_simulation(self, sim: Simulation) -> None:
        sim.grab(self.particle, self.target, self.place)


Coordinates = Annotated[tuple[float, ...], _array(float, 3 * MAX_PARTICLES)]


@dataclass(frozen=True)
class SetPositions(Command, kind="set_positions"):
    """Put every particle at a place of the caller's, with a velocity: a state to go on from
    (the Python API's Lab.set_positions). `positions` and `previous` are the (N, 3) positions
    now and a substep before, flattened x, y, z, x, y, z, …, so that the recording holds the
    state bit for bit. Pinned and held particles stay on their anchors."""

    positions: Coordinates
    previous: Coordinates

    def check(self, particles: int, links: int) -> None:
        for name in ("positions", "previous"):
            values = getattr(self, name)
            if len(values) != 3 * particles:
                raise CommandError(
                    f"set_positions: {name} holds {len(values)} coordinates, not 3 × {particles}"
                )
            array = np.asarray(values, dtype=np.float64)
            if not np.isfinite(array).all() or np.abs(array).max(initial=0.0) > COORDINATE_LIMIT:
                raise CommandError(
                    f"set_positions: {name} must be finite numbers within ±{COORDINATE_LIMIT:g}"
                )

    def on_simulation(self, sim: Simulation) -> None:
        shape = (-1, 3)
        sim.set_positions(np.reshape(self.positions, shape), np.reshape(self.previous, shape))


# A pointer that stood still and moves again has its first move glide at most this long: the
# steps since its last report would count the standstill as the time the move took.
GLIDE_AT_MOST_S = 0.5
AS_THE_POINTER_TOOK = None  # GrabMove.over_steps: measured when the move is applied


@dataclass(frozen=True)
class GrabMove(Command, kind="grab_move"):
    """Move the held particle to the target: at once (`over_steps` 0, `place`), or over the
    next `over_steps` steps at a steady pace (sim.core.solver.Simulation.move_grab). A
    pointer's move is sent with AS_THE_POINTER_TOOK: the engine that applies it counts the
    steps since the previous grab command, so the particle follows at the hand's speed
    whatever the frame rate, and journals the count, so its recording replays the same."""

    target: Vec3
    place: bool = False
    over_steps: Index | None = 0

    def check(self, particles: int, links: int) -> None:
        _point(self.target, "grab target")
        steps = self.over_steps
        if steps is not None and (isinstance(steps, bool) or not isinstance(steps, int)
                                  or steps < 0):  # fmt: skip
            raise CommandError(f"grab_move: over_steps {steps!r} is not a count of steps")

    def on_simulation(self, sim: Simulation) -> None:
        sim.move_grab(self.target, self.place, self.over_steps or 0)

    def as_applied(self, journal: Sequence[Stamped], clock: int, dt: float) -> GrabMove:
        if self.over_steps is not AS_THE_POINTER_TOOK:
            return self
        if self.place:  # paused: nothing steps, it goes there at once
            return dataclasses.replace(self, over_steps=0)
        at_most = max(1, round(GLIDE_AT_MOST_S / dt))
        return dataclasses.replace(
            self, over_steps=min(clock - _last_report(journal, clock), at_most)
        )


def _last_report(journal: Sequence[Stamped], clock: int) -> int:
    """The step of the pointer's previous report: the newest grab command before `clock`. Two
    reports in one step are one move (the later says where to); one in the step the grab
    started goes there at once."""
    for stamped in reversed(journal):
        command = stamped.command
        if isinstance(command, GrabStart | GrabMove):
            if stamped.step < clock:
                return stamped.step
            if isinstance(command, GrabStart):
                return clock
    return clock


@dataclass(frozen=True)
class GrabRelease(Command, kind="grab_release"):
    def on_simulation(self, sim: Simulation) -> None:
        sim.release()


# --- what the model did by itself -------------------------------------------------------------


@dataclass(frozen=True)
class BlowUp(Command, kind="blew_up"):
    """The model blew up on the step before this one's and the instability guard put back the
    state of step `restored` (sim.core.guard). A run's journal holds it where it happened, so
    a recording made across an instability replays it: the replay blows up at the same step
    by itself and goes on from the same state. Stamped on the run's clock (sim.lab.engine),
    which counts the failed step and never goes back, so what the user did next comes after
    it. Carrying it out does nothing: the step that blew up did it."""

    restored: Index

    def check(self, particles: int, links: int) -> None:
        if isinstance(self.restored, bool) or not isinstance(self.restored, int):
            raise CommandError(f"blew_up: {self.restored!r} is not a step")


# --- the solver thread -------------------------------------------------------------------------


@dataclass(frozen=True)
class Load(WorkerCommand):
    """Start afresh from a scene at step 0 (opening a file, a preset, or Reset). Never in a
    recording's commands: a recording's scene is its Load."""

    scene: Scene

    def on_document(self, scene: Scene) -> Scene:
        return self.scene


@dataclass(frozen=True)
class Run(WorkerCommand, kind="run"):
    def on_thread(self, thread: SolverThread) -> None:
        thread.set_running(True)


@dataclass(frozen=True)
class Pause(WorkerCommand, kind="pause"):
    def on_thread(self, thread: SolverThread) -> None:
        thread.set_running(False)


@dataclass(frozen=True)
class Step(WorkerCommand, kind="step"):
    """Advance this many steps while paused."""

    count: Index = 1

    def check(self, particles: int, links: int) -> None:
        if not (isinstance(self.count, int) and self.count >= 0):
            raise CommandError(f"step: {self.count!r} is not a count of steps")

    def on_thread(self, thread: SolverThread) -> None:
        thread.step_paused(self.count)


@dataclass(frozen=True)
class SetSpeed(WorkerCommand, kind="set_speed"):
    speed: float  # model seconds per wall second; math.inf for as fast as possible

    def on_thread(self, thread: SolverThread) -> None:
        thread.set_speed(self.speed)

    # In a file, as fast as possible is null: JSON has no infinity.
    @classmethod
    def file_fields(cls) -> dict[str, tuple[Any, Any]]:
        return {"speed": (float | None, ...)}

    def to_file(self) -> dict[str, Any]:
        return {"speed": None if math.isinf(self.speed) else self.speed}

    @classmethod
    def from_file(cls, fields: dict[str, Any]) -> SetSpeed:
        speed = fields["speed"]
        return cls(math.inf if speed is None else speed)


# --- where commands are carried out ----------------------------------------------------------


def apply_to_document(scene: Scene, command: Command) -> Scene:
    """The document after a command; commands that do not edit it leave it as it is."""
    return command.on_document(scene)


def apply_to_simulation(sim: Simulation, command: Command) -> None:
    """Carry out a command on a simulation. Load, run, pause, step and speed belong to the
    solver thread (app.worker) and do nothing here."""
    if not isinstance(command, Command):  # say what was passed, not which method it lacks
        raise TypeError(f"not a command: {command!r}")
    command.on_simulation(sim)


def validate(command: Command, particles: int, links: int) -> None:
    """Raise CommandError unless the command fits a model of that many particles and links:
    indices in range, finite coordinates, settings of their declared type and range."""
    command.check(particles, links)


def _indices(values: Any, limit: int, what: str) -> None:
    for value in values:
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise CommandError(f"{what} {value!r} is not an index")
        if not 0 <= value < limit:
            raise CommandError(f"{what} {value} is not within 0…{limit - 1}")


def _point(values: Any, what: str) -> None:
    """Three finite numbers within the scene file's coordinate limit (what a file can hold)."""
    if len(values) != 3 or not all(
        isinstance(v, (int, float, np.floating, np.integer))
        and math.isfinite(v)
        and abs(float(v)) <= COORDINATE_LIMIT
        for v in values
    ):
        raise CommandError(f"{what} must be three finite numbers within ±{COORDINATE_LIMIT:g}")
