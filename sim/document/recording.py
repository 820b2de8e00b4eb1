"""Recordings: a scene and the commands applied to it, each at its step, in one file.

A recording replays bit for bit: `sim.lab.engine.replay` applies every command at the step it
was recorded at. The file is versioned JSON, validated like a scene file (strict types, no
unknown keys, finite numbers, indices in range, steps in order) and written atomically::

    {"format": "clothlab-recording", "schema_version": 1,
     "scene": {...},                      # the scene at step 0 (scene file format)
     "steps": 720,                        # how long the run went on after the last command
     "commands": [{"step": 20, "type": "grab_start", "particle": 160,
                   "target": [0.5, -1.0, 0.6], "place": false}, ...]}

A command's entry is its step, its type (the record's `kind`) and the fields its record in
sim.document.commands declares for a file; nothing here names a command. Steps are the run's
clock (sim.lab.engine): a blow-up the guard recovered from is an entry of its own ("blew_up",
the step put back), and the steps after it go on from the failed one, never back.

A recording is checked as a whole: each edit of the scene's parts against the document as the
entries before it leave it, so that a replay simulates the bodies `--save` writes, and what it
writes opens again.
"""

from __future__ import annotations

import functools
import json
import operator
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from clothlab.sim.document.commands import (
    COMMANDS,
    Command,
    CommandError,
    Edit,
    EditScene,
    Index,
    Load,
    SetProbe,
    Stamped,
    validate,
)
from clothlab.sim.document.files import (
    SceneError,
    no_garbage_collection,
    read_document,
    read_json_object,
    write_atomically,
)
from clothlab.sim.document.scene import MAX_LIST, Scene, body_counts, parse_scene, scene_json

FORMAT: Final = "clothlab-recording"
SCHEMA_VERSION: Final = 1
MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_STEPS = 10**9


class _Entry(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    step: Index
    if TYPE_CHECKING:  # each kind's model declares its own Literal
        type: str


def _entry_model(command: type[Command]) -> type[_Entry]:
    """A command's entry: its step, its type and the fields its record declares for a file."""
    fields: dict[str, Any] = {"type": (Literal[command.kind], ...), **command.file_fields()}
    return create_model(f"_{command.__name__}", __base__=_Entry, **fields)


# One entry per kind of command (sim.document.commands.COMMANDS), told apart by "type". A type
# checker sees their common base: the union is made at import.
if TYPE_CHECKING:
    _Entries = _Entry
else:
    _Entries = Annotated[
        functools.reduce(operator.or_, map(_entry_model, COMMANDS.values())),
        Field(discriminator="type"),
    ]


class _File(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    format: Literal["clothlab-recording"]
    schema_version: Literal[1]
    scene: dict[str, Any]
    steps: Annotated[int, Field(ge=0, le=MAX_STEPS)]
    commands: list[_Entries] = Field(max_length=MAX_LIST)


@dataclass(frozen=True)
class Recording:
    scene: Scene  # at step 0
    commands: tuple[Stamped, ...]  # in step order, no Load among them
    steps: int  # the run's length

    @property
    def journal(self) -> list[Stamped]:
        """What `sim.lab.engine.replay` takes: the Load first, then the commands."""
        return [Stamped(0, Load(self.scene)), *self.commands]


def from_journal(journal: list[Stamped], steps: int) -> Recording:
    """A worker's journal (Load first) as a recording of a run `steps` long."""
    if not journal or not isinstance(journal[0].command, Load):
        raise CommandError("a journal starts with a Load")
    return Recording(journal[0].command.scene, tuple(journal[1:]), steps)


# --- writing ----------------------------------------------------------------------------------


def _entry(item: Stamped) -> dict[str, Any]:
    command = item.command
    if command.kind is None:
        raise CommandError(f"{type(command).__name__} is never in a recording's commands")
    return {"step": item.step, "type": command.kind, **command.to_file()}


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
    # A recording is checked as a whole: each edit against the document the commands before it
    # leave, so that what a replay simulates is what `--save` writes, and that opens again.
    now = scene
    for k, entry in enumerate(document.commands):
        where = f"{source}: commands.{k}"
        if entry.step < last:
            raise SceneError(f"{where}: step {entry.step} comes after step {last}")
        if entry.step > document.steps:
            raise SceneError(f"{where}: step {entry.step} is past the run's {document.steps}")
        try:
            fields = dict(vars(entry))  # a model's fields, read in one go: a recording is long
            del fields["step"], fields["type"]
            command = COMMANDS[entry.type].from_file(fields)
            validate(command, particles, links)
            if isinstance(command, EditScene | SetProbe):
                command.fits(now)
        except CommandError as error:
            raise SceneError(f"{where}: {error}") from None
        if isinstance(command, Edit):
            now = command.on_document(now)
            if isinstance(command, EditScene):  # pins, obstacles: the scene after must be one
                parse_scene(scene_json(now), f"{where}: the scene after it")
        commands.append(Stamped(entry.step, command))
        last = entry.step
    return Recording(scene, tuple(commands), document.steps)


def load_recording(path: str | os.PathLike[str]) -> Recording:
    """Read and validate a recording file: a regular file only, opened without blocking (a
    FIFO would wait for a writer forever). Raises SceneError, one line naming the file."""
    path = Path(path)
    raw = read_document(path, MAX_FILE_BYTES, "a recording file", SceneError)
    return parse_recording(raw, str(path))
