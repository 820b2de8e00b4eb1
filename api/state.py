"""A Lab's whole state at a step, kept in memory or in a file, to go back to or start from.

In memory a `LabState` holds a copy of the run (sim.lab.engine.Engine.fork: the simulation,
its journal and its commands to come), so restoring it goes on bit for bit as the run would
have, and the recording still replays. In a file it is the run's recording and a digest of its
positions: reading it replays the recording to its step and checks the positions reached
against the digest, bit for bit. Replaying takes as long as the run did; a file is small and
holds nothing a recording does not (no velocities to trust: they are replayed).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from pathlib import Path

import numpy as np

from clothlab.sim.document.files import SceneError, read_document, read_json_object
from clothlab.sim.document.recording import MAX_FILE_BYTES, Recording, parse_recording
from clothlab.sim.document.recording import recording_json as recording_text
from clothlab.sim.document.scene import Scene
from clothlab.sim.lab.engine import Engine

STATE_FORMAT = "clothlab-state"
STATE_SCHEMA = 1
STATE_KEYS = ("format", "schema_version", "steps", "positions_sha256", "recording")


@dataclasses.dataclass(frozen=True, eq=False)
class Run:
    """What a Lab is at a step: where it started, its scene as set up, its engine."""

    source: Scene | Recording
    document: Scene
    engine: Engine
    followed: int  # journal entries the document has had


@dataclasses.dataclass(frozen=True, eq=False)
class LabState:
    """A Lab's state at a step (Lab.state()): give it to Lab.restore to go back to it, as often
    as wanted, or save it to a file (`save`, read by clothlab.load_state). `positions` and
    `velocities` are (N, 3) float64 and read-only; `steps` and `t` say where it is."""

    name: str
    run: Run

    @property
    def steps(self) -> int:
        """Steps taken since step 0, at this state."""
        return self.run.engine.steps

    @property
    def t(self) -> float:
        """Model time at this state, s."""
        return self.run.engine.t

    @property
    def positions(self) -> np.ndarray:
        """(N, 3) float64, read-only: every particle's position."""
        return read_only(self.run.engine.sim.state.x)

    @property
    def velocities(self) -> np.ndarray:
        """(N, 3) float64, read-only: every particle's velocity over the last substep."""
        return velocities_of(self.run.engine)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the state as its run's recording and a digest of its positions, atomically
        and once it reads back (clothlab.load_state replays it to this step)."""
        from clothlab.lab import write_reopening  # the Lab's saves' own check and writer

        write_reopening(path, state_json(self.run.engine), parse_state_text)

    def __repr__(self) -> str:
        return f"<LabState {self.name!r}: step {self.steps}, t = {self.t:.4f} s>"


def read_only(array: np.ndarray) -> np.ndarray:
    """A view of `array` that cannot be written through (the array itself still can)."""
    view = array.view()
    view.flags.writeable = False
    return view


def velocities_of(engine: Engine) -> np.ndarray:
    """(N, 3) float64, read-only: (x − x_prev) / h, h = Δt / substeps, as the readouts' speeds."""
    sim = engine.sim
    h = sim.model_settings.dt / sim.model_settings.substeps
    result = (sim.state.x - sim.state.x_prev) / h
    result.flags.writeable = False
    return result


def positions_digest(engine: Engine) -> str:
    """sha256 of the positions and the positions a substep back, as stored (hex)."""
    state = engine.sim.state
    digest = hashlib.sha256()
    for array in (state.x, state.x_prev):
        digest.update(np.ascontiguousarray(array, dtype="<f8").tobytes())
    return digest.hexdigest()


def state_json(engine: Engine) -> str:
    recording = engine.recording()
    return json.dumps(
        {
            "format": STATE_FORMAT,
            "schema_version": STATE_SCHEMA,
            "steps": engine.clock,
            "positions_sha256": positions_digest(engine),
            "recording": json.loads(recording_text(recording)),
        },
        indent=1,
    )


@dataclasses.dataclass(frozen=True)
class StateFile:
    recording: Recording
    steps: int  # on the run's clock
    digest: str


def parse_state_text(text: str | bytes, source: str = "state") -> StateFile:
    """A state file's parts, checked; SceneError in one line naming the file and the field."""
    data = read_json_object(text, source, MAX_FILE_BYTES)
    if data.get("format") != STATE_FORMAT:
        raise SceneError(f'{source}: format: not a Cloth Lab state ("{STATE_FORMAT}")')
    unknown = sorted(set(data) - set(STATE_KEYS))
    missing = [key for key in STATE_KEYS if key not in data]
    if unknown or missing:
        what = f"unknown key {unknown[0]!r}" if unknown else f"missing key {missing[0]!r}"
        raise SceneError(f"{source}: {what}"[:200])
    if data["schema_version"] != STATE_SCHEMA or isinstance(data["schema_version"], bool):
        raise SceneError(f"{source}: schema_version: this Cloth Lab reads {STATE_SCHEMA}")
    digest = data["positions_sha256"]
    if not (isinstance(digest, str) and len(digest) == 64 and _is_hex(digest)):
        raise SceneError(f"{source}: positions_sha256: not a sha256 in hex")
    if not isinstance(data["recording"], dict):
        raise SceneError(f"{source}: recording: not a recording")
    recording = parse_recording(json.dumps(data["recording"]), f"{source}: recording")
    steps = data["steps"]
    if isinstance(steps, bool) or not isinstance(steps, int) or not 0 <= steps <= recording.steps:
        raise SceneError(f"{source}: steps: not a step of the recording (0…{recording.steps})")
    return StateFile(recording, steps, digest)


def _is_hex(text: str) -> bool:
    return all(c in "0123456789abcdef" for c in text)


def read_state_file(path: str | os.PathLike[str]) -> StateFile:
    raw = read_document(Path(path), MAX_FILE_BYTES, "a state file", SceneError)
    return parse_state_text(raw, os.fspath(path))


def replayed(stored: StateFile, source: str) -> Run:
    """The run a state file holds: its recording replayed to its step, the positions checked."""
    from clothlab.sim.lab import variants

    recording = stored.recording
    engine = Engine.of(recording, record_probes=True)
    engine.record_every = 0  # the rows of the replay are not the state's
    engine.advance_to(stored.steps)
    engine.record_every = 1
    if engine.clock != stored.steps:
        raise SceneError(
            f"{source}: its recording stops at step {engine.clock}, not {stored.steps}"
        )
    if positions_digest(engine) != stored.digest:
        raise SceneError(f"{source}: its recording does not replay to the positions it holds")
    if stored.steps:
        engine.take_rows(), engine.take_probe_rows()
    return Run(recording, variants.scene_of(recording), engine, 1)  # the Lab follows the rest


def state_from_file(path: str | os.PathLike[str]) -> LabState:
    stored = read_state_file(path)
    run = replayed(stored, os.fspath(path))
    return LabState(stored.recording.scene.name, run)
