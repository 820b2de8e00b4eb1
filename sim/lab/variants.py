"""Variants of a run: one scene (or recording) with some settings changed, run headless.

A variant's changes are what `clothlab run --set KEY=VALUE` takes: the settings table's scalar
keys, `fabric=NAME`, the reshapes of the first sheet and the SI fabric of every sheet
(SCENE_KEYS, `material=NAME`). They are parsed and
applied here, once, for `run`, `compare` and `sweep` and for worker processes on this machine or
a cluster, so that a variant gives bit for bit the run `clothlab run --set` gives. A recording's
commands are applied at their steps, as `sim.lab.engine.replay` applies them.

Pure: no Qt, no printing, no processes; whatever `run_variant` returns pickles.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import reduce
from typing import Any

import numpy as np

from clothlab.sim.core import readouts
from clothlab.sim.core.fabrics import FABRICS
from clothlab.sim.core.materials import SI_FABRICS
from clothlab.sim.core.parameters import PARAMETERS
from clothlab.sim.document.commands import (
    WORKER_COMMANDS,
    CommandError,
    Stamped,
    apply_to_document,
)
from clothlab.sim.document.composition import change_body, first_sheet, shift_right_pins
from clothlab.sim.document.recording import Recording, is_recording_file, load_recording
from clothlab.sim.document.scene import (
    Scene,
    SceneError,
    SIMaterialSpec,
    body_counts,
    field_range,
    with_settings,
)
from clothlab.sim.lab.engine import Engine, Row, Source
from clothlab.sim.lab.textile import (
    FABRIC_VALUE_KEYS,
    of_si_fabric,
    with_fabric,
    with_fabric_values,
    with_overhang,
)
from clothlab.sim.text import tr

Note = Callable[[str], None]

# Keys that reshape the first sheet: a new resolution keeps its size in units, a new size its
# resolution (COLSxROWS sets both counts).
SCENE_KEYS: dict[str, tuple[float, float]] = {
    "cols": (2, 512), "rows": (2, 512), "width": (1e-3, 1000.0), "height": (1e-3, 1000.0),
    "resolution": (2, 512), "pin_shift": (-100.0, 100.0),
    # every sheet's SI fabric's numbers (sim.lab.textile), as its file format takes them
    **{key: field_range(SIMaterialSpec, fields[0]) for key, fields in FABRIC_VALUE_KEYS.items()},
    "overhang": (1e-3, 10.0),  # a cantilever's, m
}  # fmt: skip
SHEET_KEYS = ("cols", "rows", "width", "height")
# When no row is measured, steps are taken in chunks of about STOP_CHECK_S of work (at most
# STOP_CHECK_EVERY steps), asking whether to stop between them: a Cusick specimen's 64 steps
# took 6 to 30 s, which a stopped fit waited for.
STOP_CHECK_EVERY = 64
STOP_CHECK_S = 0.2
MAX_GRID = 256  # variants in a sweep: more is a typo (or a job for a script), not a sweep


class VariantError(ValueError):
    """A change that cannot be made; the message is one line naming the key."""


def known_keys() -> list[str]:
    return [*PARAMETERS, *SCENE_KEYS, "fabric", "material"]


# --- parsing ---------------------------------------------------------------------------------


def parse_change(key: str, text: str) -> Any:
    """The value of one `KEY=VALUE` change, checked against its range; VariantError if not."""
    try:
        if key in PARAMETERS:
            return PARAMETERS[key].parse(text)
        if key == "fabric":
            if text not in FABRICS:
                raise ValueError(f"unknown fabric {text!r} (fabrics: {', '.join(FABRICS)})")
            return text
        if key == "material":
            if text not in SI_FABRICS:
                raise ValueError(f"unknown fabric {text!r} (fabrics: {', '.join(SI_FABRICS)})")
            return text
        if key == "resolution":
            cols, _, rows = text.lower().partition("x")
            return (int(_scene_value(key, cols.strip())), int(_scene_value(key, rows.strip())))
        if key in SCENE_KEYS:
            return _scene_value(key, text)
    except ValueError as error:
        raise VariantError(f"{key}: {error}") from None
    raise VariantError(f"{key}: unknown setting (known: {', '.join(known_keys())})")


def _scene_value(key: str, text: str) -> float:
    low, high = SCENE_KEYS[key]
    try:
        value: float = int(text) if isinstance(low, int) else float(text)
    except ValueError:
        expected = "COLSxROWS" if key == "resolution" else "a number"
        raise ValueError(f"expected {expected}, got {text!r}") from None
    if not low <= value <= high:  # also rejects NaN
        raise ValueError(f"{value} is outside {low}…{high}")
    return value


def change_text(value: Any) -> str:
    """A Python value as `--set` takes it typed (16, True, "denim", (30, 20), (0, -0.6, 0.75)),
    so that it parses exactly as the command line's does."""
    if isinstance(value, str):
        return value
    if isinstance(value, np.ndarray):  # a point from numpy: its numbers, not its repr
        value = value.tolist()
    if isinstance(value, (tuple, list)):
        return ("x" if len(value) == 2 else ",").join(str(v) for v in value)
    return str(value)


def parse_pair(pair: str) -> tuple[str, Any]:
    key, equals, text = pair.partition("=")
    if not equals:
        raise VariantError(f"{pair}: expected KEY=VALUE")
    return key.strip(), parse_change(key.strip(), text)


def parse_changes(pairs: Iterable[str]) -> dict[str, Any]:
    """`KEY=VALUE` pairs as one dict of changes. A repeated key moves to the end, so that
    applying the dict in order gives what applying the pairs one by one gives (a later
    `fabric` overrides an earlier `passes`, and the other way round)."""
    changes: dict[str, Any] = {}
    for pair in pairs:
        key, value = parse_pair(pair)
        changes.pop(key, None)
        changes[key] = value
    return changes


def split_changes(changes: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(settings-table changes, scene changes: reshapes and fabrics), in the order given."""
    settings: dict[str, Any] = {}
    reshapes: dict[str, Any] = {}
    for key, value in changes.items():
        if key == "fabric":
            settings.update(FABRICS[value].settings)
        elif key == "resolution":
            reshapes["cols"], reshapes["rows"] = value
        elif key in SCENE_KEYS or key == "material":
            reshapes[key] = value
        else:
            settings[key] = value
    return settings, reshapes


# --- applying --------------------------------------------------------------------------------


def reshape_scene(scene: Scene, reshapes: dict[str, Any], note: Note | None = None) -> Scene:
    """The scene with its first sheet reshaped; pins follow it (sim.document.composition). Cuts of a
    sheet given a new resolution are dropped, and `note` is told so. Then every sheet's SI fabric
    (a preset's, then numbers changed), then a cantilever's overhang."""
    sheet_changes = {k: v for k, v in reshapes.items() if k in SHEET_KEYS}
    if sheet_changes:
        composed = change_body(scene, first_sheet(scene), **sheet_changes)
        if composed.message and note:
            note(composed.message)
        scene = composed.scene
    if "pin_shift" in reshapes:
        scene = shift_right_pins(scene, reshapes["pin_shift"])
    if "material" in reshapes:
        scene = with_fabric(scene, reshapes["material"])
    values = {k: v for k, v in reshapes.items() if k in FABRIC_VALUE_KEYS}
    if values:
        scene = with_fabric_values(scene, values)
    if "overhang" in reshapes:
        scene = with_overhang(scene, reshapes["overhang"])
    return scene


def apply_changes(scene: Scene, changes: dict[str, Any], note: Note | None = None) -> Scene:
    """The scene with the changes made, as `--set` makes them: reshapes first, then settings.
    SceneError (one line) if the reshaped scene breaks a rule."""
    settings, reshapes = split_changes(changes)
    scene = reshape_scene(scene, reshapes, note)
    if "fabric" in changes and of_si_fabric(scene):
        # a model-units fabric is solver settings (passes, damping, …), which would change an
        # SI fabric's experiment and leave its fabric as it was
        raise SceneError(
            tr("fabric: the scene's cloth is of an SI fabric, which fabric= does not change "
               "(its numbers are the cloth's); material=NAME gives it another")
        )  # fmt: skip
    return with_settings(scene, settings)


def changed(source: Source, changes: dict[str, Any], note: Note | None = None) -> Source:
    """The scene, or the recording with its scene, changed. A recording's commands name
    particles and links by index, so a change of resolution does not apply to one."""
    if isinstance(source, Scene):
        return apply_changes(source, changes, note)
    scene = apply_changes(source.scene, changes, note)
    if body_counts(scene.bodies) != body_counts(source.scene.bodies):
        keys = ", ".join(k for k in changes if k in SCENE_KEYS)
        raise VariantError(f"{keys}: a recording's commands name particles and links by index: "
                           "change its resolution in the app and record again")  # fmt: skip
    return with_scene(source, scene)


def run_source(recording: Recording) -> Source:
    """A run from its step 0 as a source: the recording when it holds commands for the
    simulation, else just its scene (so a variant may change its resolution)."""
    if all(isinstance(item.command, WORKER_COMMANDS) for item in recording.commands):
        return recording.scene
    return recording


def with_scene(recording: Recording, scene: Scene) -> Recording:
    """The recording's commands on another scene of the same bodies."""
    return Recording(scene, recording.commands, recording.steps)


def scene_of(source: Source) -> Scene:
    return source if isinstance(source, Scene) else source.scene


def commands_of(source: Source) -> tuple[Stamped, ...]:
    return () if isinstance(source, Scene) else source.commands


def document_at_end(source: Source) -> Scene:
    """The document as it stands after every recorded command (what `--save` saves)."""
    return reduce(lambda scene, item: apply_to_document(scene, item.command),
                  commands_of(source), scene_of(source))  # fmt: skip


def last_command_step(source: Source) -> int:
    commands = commands_of(source)
    return commands[-1].step if commands else 0


def read_source(name_or_path: str) -> Source:
    """A preset, a scene file or a recording, told apart by the file's first bytes. Raises
    SceneError (one line naming the file); OSError for a name the system refuses."""
    from clothlab.sim.document.presets import is_preset, resolve_scene

    if not is_preset(name_or_path) and is_recording_file(name_or_path):
        return load_recording(name_or_path)
    return resolve_scene(name_or_path)[0]


# --- running ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Variant:
    name: str  # as the tables and CSVs show it: "passes=16,xpbd=on", or "as is"
    changes: dict[str, Any] = field(default_factory=dict)  # --set keys → parsed values
    given: dict[str, str] = field(default_factory=dict)  # the same keys → the values as typed


BASELINE = Variant("as is")


@dataclass(frozen=True)
class VariantResult:
    rows: tuple[Row, ...]  # CSV_COLUMNS rows from step 0 (none unless kept)
    final: Any | None  # the Readouts at the last step; None when the run failed
    failure: str | None  # "blew up at step N", "bad value: …", "interrupted"; None: ok
    steps: int  # steps taken
    detail: str = ""  # the whole story of a failure (the instability guard's advice)

    @property
    def status(self) -> str:
        return self.failure or "ok"

    @property
    def final_row(self) -> Row | None:
        return None if self.final is None else readouts.row(self.steps, self.final)


def run_variant(
    source: Source,
    changes: dict[str, Any],
    steps: int,
    keep_rows: bool = True,
    should_stop: Callable[[], bool] | None = None,
    on_row: Callable[[Row], None] | None = None,
) -> VariantResult:
    """Run the source with the changes made for `steps` steps, measuring every step when the
    rows are kept or `on_row` streams them. A failure (a bad combination of values, a blow-up,
    `should_stop` asked between steps) is in the result, not raised: a sweep goes on."""
    measuring = keep_rows or on_row is not None
    try:
        engine = Engine.of(changed(source, changes), record_every=1 if measuring else 0)
    except (SceneError, VariantError, CommandError) as error:
        return VariantResult((), None, f"bad value: {error}", 0)
    rows: list[Row] = []

    def take() -> None:
        taken = engine.take_rows()
        rows.extend(taken if keep_rows else ())
        if on_row is not None:
            for line in taken:
                on_row(line)

    take()
    chunk = 1  # steps between asking whether to stop: 1 while measuring, else see STOP_CHECK_S
    while engine.clock < steps:  # a recording's steps are on the clock (sim.lab.engine)
        if should_stop and should_stop():
            return VariantResult(tuple(rows), None, "interrupted", engine.steps)
        count = min(steps - engine.clock, chunk)
        started = time.perf_counter()
        engine.advance(count)
        if engine.blew_up:
            return _blown_up(engine, rows)
        take()
        if not measuring:
            took = max(time.perf_counter() - started, 1e-9)
            chunk = max(1, min(STOP_CHECK_EVERY, int(count * STOP_CHECK_S / took)))
    return VariantResult(tuple(rows), engine.readouts(), None, engine.steps)


def _blown_up(engine: Engine, rows: list[Row]) -> VariantResult:
    instability = engine.sim.instability
    at = instability.step if instability else engine.steps + 1
    detail = instability.message if instability else ""
    return VariantResult(tuple(rows), None, f"blew up at step {at}", engine.steps, detail)


# --- grids -----------------------------------------------------------------------------------


def parse_variant(text: str) -> Variant:
    """`KEY=VALUE,KEY=VALUE…` as one variant; VariantError naming the pair if it is bad."""
    pairs = [pair.strip() for pair in text.split(",")]
    if not all(pairs):
        raise VariantError(f"{text}: expected KEY=VALUE pairs separated by commas")
    given = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        given[key.strip()] = value.strip()
    changes = parse_changes(pairs)
    return Variant(",".join(f"{k}={v}" for k, v in given.items()), changes, given)


def parse_axis(text: str) -> tuple[str, list[tuple[str, Any]]]:
    """`KEY=V1,V2,…` as the key and its (text, value) pairs; VariantError if it is bad."""
    key, equals, values = text.partition("=")
    key = key.strip()
    texts = [v.strip() for v in values.split(",")]
    if not equals or not key:
        raise VariantError(f"{text}: expected KEY=V1,V2,…")
    if not any(texts):
        raise VariantError(f"{key}: no values to vary over")
    if not all(texts):
        raise VariantError(f"{key}: an empty value in {values!r}")
    return key, [(t, parse_change(key, t)) for t in texts]


def grid(axes: list[tuple[str, list[tuple[str, Any]]]]) -> list[Variant]:
    """Every combination of the axes' values (the first axis slowest), at most MAX_GRID."""
    keys = [key for key, _ in axes]
    for key in keys:
        if keys.count(key) > 1:
            raise VariantError(f"{key} is varied twice")
    size = math.prod(len(values) for _, values in axes)
    if size > MAX_GRID:
        sizes = " × ".join(str(len(values)) for _, values in axes)
        raise VariantError(f"{sizes} = {size} variants, more than {MAX_GRID}")
    variants = []
    for combination in itertools.product(*(values for _, values in axes)):
        given = {key: text for key, (text, _) in zip(keys, combination, strict=True)}
        changes = {key: value for key, (_, value) in zip(keys, combination, strict=True)}
        name = ",".join(f"{k}={v}" for k, v in given.items())
        variants.append(Variant(name, changes, given))
    return variants
