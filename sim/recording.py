"""Recordings: a scene and the commands applied to it, each at its step, in one file.

A recording replays bit for bit: `sim.engine.replay` applies every command at the step it
was recorded at. The file is versioned JSON, validated like a scene file (strict types, no
unknown keys, finite numbers, indices in range, steps in order) and written atomically::

    {"format": "clothlab-recording", "schema_version": 1,
     "scene": {...},                      # the scene at step 0 (scene file format)
     "steps": 720,                        # how long the run went on after the last command
     "commands": [{"step": 20, "type": "grab_start", "particle": 160,
                   "target": [0.5, -1.0, 0.6], "place": false}, ...]}
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic_core import to_jsonable_python

from clothlab.sim.commands import (
    Command,
    CommandError,
    GrabMove,
    GrabRelease,
    GrabStart,
    Load,
    Pause,
    Run,
    SetSpeed,
    Stamped,
    Step,
    validate,
)
from clothlab.sim.edits import CutLinks, EditScene, SetPin, SetSetting
from clothlab.sim.files import read_document, write_atomically
from clothlab.sim.parameters import SETTINGS_TABLE
from clothlab.sim.scene import (
    MAX_BODIES,
    MAX_LIST,
    MAX_OBSTACLES,
    Body,
    Obstacle,
    PinSpec,
    Scene,
    SceneError,
    Vec3,
    body_counts,
    no_garbage_collection,
    parse_scene,
    read_json_object,
)

FORMAT = "clothlab-recording"
SCHEMA_VERSION = 1
MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_STEPS = 10**9

Point = Vec3  # a finite position within the scene file's coordinate limit
Index = Annotated[int, Field(ge=0)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    step: Index


class _Cut(_Strict):
    type: Literal["cut"]
    links: list[Index] = Field(max_length=MAX_LIST)
    restore: bool = False


class _Pin(_Strict):
    type: Literal["set_pin"]
    particle: Index
    anchor: Point | None
    previous: Point | None


class _Setting(_Strict):
    type: Literal["set_setting"]
    key: str
    value: bool | int | float | Point
    previous: bool | int | float | Point


class _Parts(BaseModel):
    """The parts of a scene a live composition change replaces (sim.edits.EditScene)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    bodies: list[Body] | None = Field(None, max_length=MAX_BODIES)
    obstacles: list[Obstacle] | None = Field(None, max_length=MAX_OBSTACLES)
    pins: list[PinSpec] | None = Field(None, max_length=MAX_LIST)

    def given(self) -> dict[str, Any]:
        return {k: v for k in self.model_fields_set if (v := getattr(self, k)) is not None}


class _Compose(_Strict):
    type: Literal["edit_scene"]
    text: str = Field(max_length=200)
    after: _Parts
    before: _Parts


class _GrabStart(_Strict):
    type: Literal["grab_start"]
    particle: Index
    target: Point
    place: bool = False


class _GrabMove(_Strict):
    type: Literal["grab_move"]
    target: Point
    place: bool = False


class _Bare(_Strict):
    type: Literal["grab_release", "run", "pause"]


class _Step(_Strict):
    type: Literal["step"]
    count: Index = 1


class _Speed(_Strict):
    type: Literal["set_speed"]
    speed: float | None  # None: as fast as possible


_Entry = Annotated[
    _Cut | _Pin | _Setting | _Compose | _GrabStart | _GrabMove | _Bare | _Step | _Speed,
    Field(discriminator="type"),
]


class _File(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    format: Literal["clothlab-recording"]
    schema_version: Literal[1]
    scene: dict[str, Any]
    steps: Annotated[int, Field(ge=0, le=MAX_STEPS)]
    commands: list[_Entry] = Field(max_length=MAX_LIST)


@dataclass(frozen=True)
class Recording:
    scene: Scene  # at step 0
    commands: tuple[Stamped, ...]  # in step order, no Load among them
    steps: int  # the run's length

    @property
    def journal(self) -> list[Stamped]:
        """What `sim.engine.replay` takes: the Load first, then the commands."""
        return [Stamped(0, Load(self.scene)), *self.commands]


def from_journal(journal: list[Stamped], steps: int) -> Recording:
    """A worker's journal (Load first) as a recording of a run `steps` long."""
    if not journal or not isinstance(journal[0].command, Load):
        raise CommandError("a journal starts with a Load")
    return Recording(journal[0].command.scene, tuple(journal[1:]), steps)


# --- writing ----------------------------------------------------------------------------------

_NAMES = {
    CutLinks: "cut", SetPin: "set_pin", SetSetting: "set_setting", EditScene: "edit_scene",
    GrabStart: "grab_start",
    GrabMove: "grab_move", GrabRelease: "grab_release", Run: "run", Pause: "pause",
    Step: "step", SetSpeed: "set_speed",
}  # fmt: skip


def _entry(item: Stamped) -> dict[str, Any]:
    command = item.command
    fields = dict(vars(command))
    if isinstance(command, SetSpeed):
        fields["speed"] = None if math.isinf(command.speed) else command.speed
    if isinstance(command, CutLinks):
        fields["links"] = list(command.links)
    if isinstance(command, EditScene):  # a restart is a Load: a journal never holds one
        fields = {"text": command.text, "after": _parts(command.after),
                  "before": _parts(command.before)}  # fmt: skip
    return {"step": item.step, "type": _NAMES[type(command)], **fields}


def _parts(parts: dict[str, Any]) -> dict[str, Any]:
    return {k: to_jsonable_python(values) for k, values in parts.items()}


def recording_json(recording: Recording) -> str:
    document = {
        "format": FORMAT,
        "schema_version": SCHEMA_VERSION,
        "scene": recording.scene.model_dump(mode="json"),
        "steps": recording.steps,
        "commands": [_entry(item) for item in recording.commands],
    }
    return json.dumps(document, separators=(",", ":")) + "\n"


def save_recording(recording: Recording, path: str | os.PathLike[str]) -> None:
    write_atomically(Path(path), recording_json(recording).encode("utf-8"))


# --- reading ----------------------------------------------------------------------------------


def is_recording(text: str | bytes) -> bool:
    """Whether a document says it is a recording (cheap: looks at the start only)."""
    head = text[:200] if isinstance(text, str) else text[:200].decode("utf-8", "replace")
    return FORMAT in head


def is_recording_file(path: str | os.PathLike[str]) -> bool:
    """Whether `path` is a regular file that says it is a recording. Anything else (a FIFO,
    which would block, a folder, an unreadable file) is left to the scene reader to name."""
    path = Path(path)
    try:
        if not path.is_file():
            return False
        with path.open("rb") as file:
            return is_recording(file.read(200))
    except OSError:
        return False


def _command(entry: Any) -> Command:
    kind = entry.type
    if kind == "cut":
        return CutLinks(tuple(entry.links), entry.restore)
    if kind == "set_pin":
        return SetPin(entry.particle, entry.anchor, entry.previous)
    if kind == "set_setting":
        if entry.key not in SETTINGS_TABLE:
            raise CommandError(f"set_setting: unknown setting {entry.key!r}")
        return SetSetting(entry.key, entry.value, entry.previous)
    if kind == "edit_scene":
        if set(entry.after.given()) != set(entry.before.given()):
            raise CommandError("edit_scene: after and before must name the same parts")
        return EditScene(entry.after.given(), entry.before.given(), entry.text)
    if kind == "grab_start":
        return GrabStart(entry.particle, entry.target, entry.place)
    if kind == "grab_move":
        return GrabMove(entry.target, entry.place)
    if kind == "step":
        return Step(entry.count)
    if kind == "set_speed":
        return SetSpeed(math.inf if entry.speed is None else entry.speed)
    return {"grab_release": GrabRelease, "run": Run, "pause": Pause}[kind]()


@no_garbage_collection()  # a long recording is millions of objects, and no cycles
def parse_recording(text: str | bytes, source: str = "recording") -> Recording:
    """Validate a recording; raises SceneError with one line naming the source and field."""
    data = read_json_object(text, source, MAX_FILE_BYTES)
    try:
        document = _File.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"] if not str(p).startswith("_"))
        raise SceneError(f"{source}: {where}: {first['msg']}") from None
    scene = parse_scene(json.dumps(document.scene), f"{source}: scene")
    particles, links = body_counts(scene.bodies)
    commands, last = [], 0
    for k, entry in enumerate(document.commands):
        where = f"{source}: commands.{k}"
        if entry.step < last:
            raise SceneError(f"{where}: step {entry.step} comes after step {last}")
        if entry.step > document.steps:
            raise SceneError(f"{where}: step {entry.step} is past the run's {document.steps}")
        try:
            command = _command(entry)
            validate(command, particles, links)
        except CommandError as error:
            raise SceneError(f"{where}: {error}") from None
        commands.append(Stamped(entry.step, command))
        last = entry.step
    return Recording(scene, tuple(commands), document.steps)


def load_recording(path: str | os.PathLike[str]) -> Recording:
    """Read and validate a recording file: a regular file only, opened without blocking (a
    FIFO would wait for a writer forever). Raises SceneError, one line naming the file."""
    path = Path(path)
    raw = read_document(path, MAX_FILE_BYTES, "a recording", SceneError)
    return parse_recording(raw, str(path))
