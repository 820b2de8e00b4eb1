"""The lab's questions as data: predict, watch, explain — and the numbers behind each answer.

A question set is a versioned JSON file (``"format": "clothlab-questions"``,
``"schema_version": 1``). Each question names its scene (a preset, or a scene file next to the
set), asks for a prediction (two to four choices, or a number with a unit), says what to watch
and which readout is the evidence, explains the answer in the model's own terms and offers
"now try" changes of one setting each. Every question also carries **checks**: runs of its
scene, headless, whose numbers must bear the explanation out. `check_question` evaluates them;
`clothlab questions --check` prints one line per question.

A check is one run and an expectation::

    {"claim": "without friction the sheet ends on the floor",
     "scene": "drop", "steps": 720, "set": {"friction_static": 0.0}, "apply": ["seam"],
     "expect": {"readout": "on_ball", "op": "<", "value": 1}}

or a comparison of two runs, by their ratio (first / second) or difference (first − second)::

    {"claim": "twice the passes, half the sag",
     "compare": {"first": {"steps": 600, "set": {"passes": 16}}, "second": {"steps": 600},
                 "by": "ratio"},
     "expect": {"readout": "sag", "op": "==", "value": 0.5, "tolerance": 0.1}}

A run without a scene starts from the question's own scene with the question's settings; a run
with one starts from that scene as it is.

**Sharing as one file.** A set may carry its scenes inside it: a ``"scenes"`` object of file
name → scene document (``{"scenes": {"swing.json": {"format": "clothlab-scene", …}}}``), and a
question names an embedded scene as it would name a file beside the set (``"scene":
"swing.json"``). One JSON file rather than a zip, because then the one hardened JSON reader
(sim.document.files.read_json_object: size cap, UTF-8, no duplicate keys, no NaN, nesting cap)
checks the whole file before anything is looked at, each embedded scene is validated by the
scene format's own migrate + model, and there is no archive to unpack (no member paths, zip
bombs or second size accounting to get right). An embedded scene's name is a plain file name
(no folder, no ``..``); a set that embeds scenes must embed every scene file it names, so it
never reads a file beside it. Nothing in a set is ever run as code. `save_shared_set` writes one
atomically, after checking that the text it writes opens again.

A set may also ask for **class mode** (``"class_mode": {"hide": ["parameters", "compare"]}``):
the app hides those panels while the set is open, until the user leaves class mode.

Files are validated like scenes (strict types, no unknown keys, finite numbers, sizes), and a
bad file raises `QuestionSetError`, one line naming the file and the field. Scene files are
resolved against the set's folder and may not leave it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import os
import re
import secrets
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from pathlib import Path, PurePosixPath
from typing import Annotated, Any, Final, Literal, get_args

import numpy as np
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from clothlab.resources import resource
from clothlab.sim.core import readouts
from clothlab.sim.core.parameters import COORDINATE_LIMIT, PARAMETERS, SETTINGS_TABLE
from clothlab.sim.core.solver import Simulation
from clothlab.sim.document.commands import GrabStart
from clothlab.sim.document.files import (
    SceneError,
    describe,
    read_document,
    read_json_object,
    resolved,
    write_atomically,
)
from clothlab.sim.document.presets import is_preset, load_preset
from clothlab.sim.document.scene import (
    Scene,
    body_counts,
    build_topology,
    check_version,
    load_scene,
    migrate,
    parse_scene,
    scene_json,
    validation_message,
    with_settings,
)
from clothlab.sim.lab.engine import Engine
from clothlab.sim.lab.session import with_seam
from clothlab.sim.text import in_language

FORMAT: Final = "clothlab-questions"
SCHEMA_VERSION: Final = 1
BUILTIN_SET = "lab"  # resources/questions/lab.json
MAX_FILE_BYTES = 8 * 1024 * 1024  # checked before parsing; room for a few embedded scenes
MAX_SCENES = 32  # embedded in one set
EMBEDDED_NAME = r"[a-z0-9][a-z0-9-]{0,63}\.json"  # a plain file name: no folder, no ".."
# the panels class mode may hide (the window's docks, by the names it gives them)
HideablePanel = Literal["parameters", "scene", "history", "readouts", "compare"]
HIDEABLE_PANELS: Final[tuple[HideablePanel, ...]] = get_args(HideablePanel)
MAX_QUESTIONS = 100
MAX_CHECKS = 8
MAX_STEPS = 20_000  # per run: a check stays a matter of seconds
SLUG = r"[a-z0-9][a-z0-9-]{0,63}"
BALL_CONTACT = 0.01  # units outside the ball's surface that still count as touching it


class QuestionSetError(SceneError):
    """A question set that cannot be read; the message is one line naming the file and field."""


# --- what a check can measure ----------------------------------------------------------------


@dataclass(frozen=True)
class RunContext:
    """What a measure may need to know about the run besides the simulation."""

    held: tuple[int, tuple[float, float, float]] | None = None  # grabbed particle, its target


def _velocities(sim: Simulation) -> np.ndarray:
    """(N, 3) float64: each particle's velocity over the last substep."""
    s = sim.model_settings
    return (sim.state.x - sim.state.x_prev) / (s.dt / s.substeps)


def _on_ball(sim: Simulation, _run: RunContext) -> float:
    s = sim.settings
    if not s.ball:
        return 0.0
    distance = np.linalg.norm(sim.state.x - np.asarray(s.ball_center), axis=1)
    return float(np.count_nonzero(distance <= s.ball_radius + BALL_CONTACT))


def _height(sim: Simulation, _run: RunContext) -> float:
    return float(sim.state.x[:, 1].mean())


def _slide_speed(sim: Simulation, _run: RunContext) -> float:
    v = _velocities(sim)
    return float(np.hypot(v[:, 0], v[:, 2]).mean())


def _held_gap(sim: Simulation, run: RunContext) -> float:
    if run.held is None:
        return math.nan
    particle, target = run.held
    return float(np.linalg.norm(sim.state.x[particle] - np.asarray(target)))


def _hardest_at_pin(sim: Simulation, _run: RunContext) -> float:
    """The largest tension of a link at a pin over the largest of any link: 1 when the sheet
    pulls hardest at a pin; NaN before a step has measured the forces."""
    forces = sim.forces()
    if forces is None or forces.max_tension <= 0.0:
        return math.nan
    links = sim.topology.links
    at_pin = np.isin(links, sim.state.pin_index).any(axis=1)
    return float(forces.link_tension[at_pin].max(initial=0.0)) / forces.max_tension


# Beyond the readouts (sim.core.readouts.READOUTS, which the app shows and the CSV holds):
# numbers only a check needs, seen in the 3D view rather than read off a panel.
PROBES: dict[str, tuple[str, Callable[[Simulation, RunContext], float]]] = {
    "on_ball": (f"particles touching the ball (within {BALL_CONTACT} of its surface)", _on_ball),
    "height": ("mean height (y) of all particles, units", _height),
    "slide_speed": ("mean horizontal speed (x–z) of the particles, units/s", _slide_speed),
    "held_gap": ("distance from the grabbed particle to where it is held, units", _held_gap),
    "hardest_at_pin": ("largest tension at a pin ÷ largest tension anywhere", _hardest_at_pin),
}
MEASURES: tuple[str, ...] = (*readouts.READOUT_KEYS, *PROBES)
# What the Readouts panel can point at: its plots and curves, and the counts under them.
EVIDENCE: tuple[str, ...] = readouts.SHOWN_KEYS


def measure(sim: Simulation, key: str, run: RunContext | None = None) -> float:
    """One readout or probe of a simulation as it stands."""
    if key in PROBES:
        return PROBES[key][1](sim, run or RunContext())
    return float(getattr(sim.readouts(), key))


# --- the file format ---------------------------------------------------------------------------


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


Text = Annotated[str, Field(min_length=1, max_length=600)]
Slug = Annotated[str, Field(pattern=f"^{SLUG}$")]
Finite = Annotated[float, Field(allow_inf_nan=False, ge=-1e9, le=1e9)]
Coordinate = Annotated[float, Field(allow_inf_nan=False, ge=-COORDINATE_LIMIT, le=COORDINATE_LIMIT)]
Vec3 = Annotated[
    tuple[Coordinate, Coordinate, Coordinate],
    BeforeValidator(lambda v: tuple(v) if isinstance(v, list) else v),
]


def _scene_reference(text: str) -> str:
    """A preset name, or a relative path to a .json file inside the set's folder."""
    if re.fullmatch(SLUG, text):
        return text
    path = PurePosixPath(text)
    if "\\" in text or path.is_absolute() or ":" in text:
        raise ValueError(f"{text!r}: expected a preset name or a relative path with '/'")
    if any(part in ("..", ".") for part in path.parts) or not path.parts:
        raise ValueError(f"{text!r}: a scene path may not leave the set's folder")
    if path.suffix != ".json":
        raise ValueError(f"{text!r}: a scene file name ends in .json")
    return text


SceneRef = Annotated[str, Field(min_length=1, max_length=200)]
Settings = Annotated[dict[str, Any], Field(max_length=len(SETTINGS_TABLE))]


def _checked_settings(values: dict[str, Any]) -> dict[str, Any]:
    checked = {}
    for key, value in values.items():
        if key not in SETTINGS_TABLE:
            raise ValueError(f"{key}: unknown setting (known: {', '.join(SETTINGS_TABLE)})")
        try:
            checked[key] = SETTINGS_TABLE[key].check(value)
        except (TypeError, ValueError) as error:
            raise ValueError(f"{key}: {error}") from None
    return checked


class Choice(_Strict):
    text: Annotated[str, Field(min_length=1, max_length=300)]
    correct: bool = False


class NumberAnswer(_Strict):
    unit: Annotated[str, Field(max_length=40)] = ""
    answer: Finite
    tolerance: Annotated[float, Field(ge=0.0, le=1e9, allow_inf_nan=False)] = 0.0
    decimals: Annotated[int, Field(ge=0, le=6)] = 2  # digits the answer box shows


Hex = Annotated[str, Field(pattern=r"^[0-9a-f]{32,128}$")]


class Sealed(_Strict):
    """A secret kept as a salted hash: a sealed answer (the correct choice's words) or the
    teacher's passphrase. Whoever reads the file sees neither; the app checks by hashing."""

    salt: Hex
    hash: Hex

    @classmethod
    def of(cls, secret: str, stretch: bool = False) -> Sealed:
        salt = secrets.token_hex(16)
        return cls(salt=salt, hash=_digest(secret, salt, stretch))

    def holds(self, secret: str, stretch: bool = False) -> bool:
        return hmac.compare_digest(_digest(secret, self.salt, stretch), self.hash)


PASSPHRASE_ROUNDS = 200_000  # PBKDF2: a guess at a teacher's passphrase costs this much


def _digest(secret: str, salt: str, stretch: bool) -> str:
    if stretch:  # a passphrase: slow to guess
        key = hashlib.pbkdf2_hmac("sha256", secret.encode(), bytes.fromhex(salt), PASSPHRASE_ROUNDS)
        return key.hex()
    return hashlib.sha256(bytes.fromhex(salt) + secret.encode()).hexdigest()


class Prediction(_Strict):
    """Exactly one of: two to four choices (one correct), or a number. In a set for a class
    the correct choice is `sealed` (its words' salted hash) rather than marked."""

    choices: Annotated[list[Choice], Field(min_length=2, max_length=4)] | None = None
    number: NumberAnswer | None = None
    sealed: Sealed | None = None
    _correct: int = PrivateAttr(default=-1)

    @model_validator(mode="after")
    def _one_kind(self) -> Prediction:
        if (self.choices is None) == (self.number is None):
            raise ValueError("give either choices or number")
        if self.choices is None:
            if self.sealed is not None:
                raise ValueError("sealed: only choices are sealed")
            return self
        if self.sealed is None:
            marked = [k for k, c in enumerate(self.choices) if c.correct]
        else:
            if any(c.correct for c in self.choices):
                raise ValueError("choices: a sealed answer marks no choice correct")
            marked = [k for k, c in enumerate(self.choices) if self.sealed.holds(c.text)]
        if len(marked) != 1:
            raise ValueError("choices: exactly one must be correct")
        self._correct = marked[0]
        return self

    @property
    def correct_index(self) -> int:
        """The correct choice's index (marked, or found by its sealed hash)."""
        assert self.choices is not None
        return self._correct

    def sealed_copy(self) -> Prediction:
        """The same prediction with its correct choice sealed rather than marked."""
        if self.choices is None:
            return self
        choices = [Choice(text=c.text) for c in self.choices]
        sealed = Sealed.of(self.choices[self.correct_index].text)
        return Prediction(choices=choices, sealed=sealed)

    def matches(self, answer: int | float) -> bool:
        """Whether a prediction (a choice's index, or a number) is right."""
        if self.choices is not None:
            return int(answer) == self.correct_index
        assert self.number is not None
        return abs(float(answer) - self.number.answer) <= self.number.tolerance + 1e-12

    def describe(self, answer: int | float) -> str:
        """A prediction as text: the choice's words, or the number with its unit, with the
        set's decimals unless it has more (never rounded: 0.0105 stays 0.0105)."""
        if self.choices is not None:
            return self.choices[int(answer)].text
        assert self.number is not None
        unit = f" {self.number.unit}" if self.number.unit else ""
        return f"{number_text(float(answer), self.number.decimals)}{unit}"

    @property
    def answer_text(self) -> str:
        if self.choices is not None:
            return self.choices[self.correct_index].text
        assert self.number is not None
        tolerance = f" ± {self.number.tolerance:g}" if self.number.tolerance else ""
        unit = f" {self.number.unit}" if self.number.unit else ""
        return f"{self.number.answer:g}{tolerance}{unit}"


def number_text(value: float, decimals: int) -> str:
    """`value` with `decimals` digits after the point, or all it has if it has more."""
    text = f"{value:.{decimals}f}"
    return text if float(text) == value else f"{value:.12g}"


class Grab(_Strict):
    """Hold a particle at a point from step 0 to the end of the run, as the Grab tool does."""

    grab: Annotated[int, Field(ge=0)]
    to: Vec3


Action = Literal["seam"] | Grab
Actions = Annotated[list[Action], Field(max_length=4)]


class _RunFields(_Strict):
    """Validation shared by a run and a check that is one run."""

    @field_validator("scene", check_fields=False)
    @classmethod
    def _reference(cls, value: str | None) -> str | None:
        return None if value is None else _scene_reference(value)

    @field_validator("set", check_fields=False)
    @classmethod
    def _settings(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        return None if value is None else _checked_settings(value)

    @field_validator("apply", check_fields=False)
    @classmethod
    def _one_grab(cls, value: list[Action] | None) -> list[Action] | None:
        if value is not None and sum(isinstance(a, Grab) for a in value) > 1:
            raise ValueError("one grab at a time")
        return value


class RunSpec(_RunFields):
    scene: SceneRef | None = None  # None: the question's scene with the question's settings
    set: Settings = Field(default_factory=dict)
    steps: Annotated[int, Field(ge=0, le=MAX_STEPS)]
    apply: Actions = Field(default_factory=list)

    @property
    def held(self) -> Grab | None:
        return next((a for a in self.apply if isinstance(a, Grab)), None)


class Compare(_Strict):
    first: RunSpec
    second: RunSpec
    by: Literal["ratio", "difference"] = "ratio"


class Expect(_Strict):
    readout: str
    op: Literal["<", "<=", ">", ">=", "=="]
    value: Finite
    tolerance: Annotated[float, Field(ge=0.0, le=1e9, allow_inf_nan=False)] = 0.0

    @field_validator("readout")
    @classmethod
    def _known(cls, key: str) -> str:
        if key not in MEASURES:
            raise ValueError(f"{key!r}: unknown readout (known: {', '.join(MEASURES)})")
        return key

    def holds(self, measured: float) -> bool:
        if math.isnan(measured):
            return False
        if self.op == "==":
            return abs(measured - self.value) <= self.tolerance
        return {
            "<": measured < self.value,
            "<=": measured <= self.value,
            ">": measured > self.value,
            ">=": measured >= self.value,
        }[self.op]

    @property
    def text(self) -> str:
        if self.op == "==":
            return f"== {self.value:g}" + (f" ± {self.tolerance:g}" if self.tolerance else "")
        return f"{self.op} {self.value:g}"


class Check(_RunFields):
    """One run (scene, set, steps, apply) or a comparison of two, and what must hold."""

    claim: Text
    scene: SceneRef | None = None
    set: Settings | None = None
    steps: Annotated[int, Field(ge=0, le=MAX_STEPS)] | None = None
    apply: Actions | None = None
    compare: Compare | None = None
    expect: Expect

    @model_validator(mode="after")
    def _run_or_compare(self) -> Check:
        inline = [k for k in ("scene", "set", "steps", "apply") if getattr(self, k) is not None]
        if self.compare is not None and inline:
            raise ValueError(f"{inline[0]}: belongs in compare.first / compare.second")
        if self.compare is None and self.steps is None:
            raise ValueError("steps: a check needs steps (or a compare of two runs)")
        return self

    def runs(self) -> tuple[RunSpec, ...]:
        if self.compare is not None:
            return self.compare.first, self.compare.second
        fields = {k: getattr(self, k) for k in ("scene", "set", "steps", "apply")}
        return (RunSpec(**{k: v for k, v in fields.items() if v is not None}),)


class NowTry(_Strict):
    """A change of one setting, applied with one click (and undoable)."""

    label: Annotated[str, Field(min_length=1, max_length=80)]
    setting: str
    value: Any
    note: Annotated[str, Field(max_length=600)] = ""  # what to look for after the click

    @field_validator("value")
    @classmethod
    def _declared_type(cls, value: Any, info: ValidationInfo) -> Any:
        setting = info.data.get("setting")
        if setting is None:  # its own error is reported
            return value
        return _checked_settings({setting: value})[setting]


class Question(_Strict):
    id: Slug
    title: Annotated[str, Field(min_length=1, max_length=120)]
    scene: SceneRef
    set: Settings = Field(default_factory=dict)
    question: Text
    prediction: Prediction
    watch: Text
    evidence: str
    explanation: Annotated[str, Field(min_length=1, max_length=3000)]
    # none: a teacher's question may stop at the explanation (the built-in ones all have one)
    now_try: Annotated[list[NowTry], Field(max_length=3)]
    checks: Annotated[list[Check], Field(min_length=1, max_length=MAX_CHECKS)]

    @field_validator("scene")
    @classmethod
    def _reference(cls, value: str) -> str:
        return _scene_reference(value)

    @field_validator("set")
    @classmethod
    def _settings(cls, value: dict[str, Any]) -> dict[str, Any]:
        return _checked_settings(value)

    @field_validator("evidence")
    @classmethod
    def _shown(cls, key: str) -> str:
        if key not in EVIDENCE:
            raise ValueError(f"{key!r}: not a readout the panel shows ({', '.join(EVIDENCE)})")
        return key


class ClassMode(_Strict):
    """What a class should not touch while the set is open: panels the app hides, and settings
    the Parameters panel does not show (by their --set keys)."""

    hide: Annotated[list[HideablePanel], Field(max_length=len(HIDEABLE_PANELS))] = Field(
        default_factory=list
    )
    hide_settings: Annotated[list[str], Field(max_length=len(PARAMETERS))] = Field(
        default_factory=list
    )
    # the teacher's passphrase (salted, stretched): leaving class mode and editing need it
    teacher: Sealed | None = None

    def teacher_holds(self, passphrase: str) -> bool:
        """Whether `passphrase` is the teacher's (any is, for a set without one)."""
        return self.teacher is None or self.teacher.holds(passphrase, stretch=True)

    @field_validator("hide_settings")
    @classmethod
    def _known_settings(cls, keys: list[str]) -> list[str]:
        unknown = [key for key in keys if key not in PARAMETERS]
        if unknown:
            raise ValueError(f"{unknown[0]!r}: not a setting of the Parameters panel")
        return keys

    def __bool__(self) -> bool:
        return bool(self.hide or self.hide_settings or self.teacher)


class QuestionSetSpec(_Strict):
    format: Literal["clothlab-questions"] = FORMAT
    schema_version: Literal[1] = SCHEMA_VERSION
    id: Slug  # progress is kept per id
    title: Annotated[str, Field(min_length=1, max_length=120)]
    description: Annotated[str, Field(max_length=2000)] = ""
    questions: Annotated[list[Question], Field(min_length=1, max_length=MAX_QUESTIONS)]
    class_mode: ClassMode | None = None
    # embedded scene documents, validated as scenes when the set is loaded (_embedded_scenes)
    scenes: Annotated[dict[str, dict[str, Any]], Field(max_length=MAX_SCENES)] = Field(
        default_factory=dict
    )

    @field_validator("scenes")
    @classmethod
    def _plain_names(cls, scenes: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        for name in scenes:
            if not re.fullmatch(EMBEDDED_NAME, name):
                raise ValueError(
                    f"{name[:80]!r}: an embedded scene's name is a plain file name like "
                    "'swing.json' (lower case, no folder)"
                )
        return scenes

    @model_validator(mode="after")
    def _unique_ids(self) -> QuestionSetSpec:
        seen: set[str] = set()
        for k, question in enumerate(self.questions):
            if question.id in seen:
                raise ValueError(f"questions.{k}.id: {question.id!r} is used twice")
            seen.add(question.id)
        return self


# --- a loaded set ------------------------------------------------------------------------------


@dataclass(frozen=True)
class QuestionSet:
    """A validated set with every scene it names loaded."""

    spec: QuestionSetSpec
    source: str  # the file, as messages name it
    path: Path | None  # the file on disk; None for a built-in set
    scenes: Mapping[str, Scene] = field(repr=False)  # scene reference → scene as stored

    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def title(self) -> str:
        return self.spec.title

    @property
    def questions(self) -> list[Question]:
        return self.spec.questions

    def question(self, question_id: str) -> Question:
        for question in self.spec.questions:
            if question.id == question_id:
                return question
        raise KeyError(question_id)

    def scene_for(self, question: Question) -> Scene:
        """The scene a question loads: its scene with its settings."""
        return with_settings(self.scenes[question.scene], question.set)

    def run_scene(self, question: Question, run: RunSpec) -> Scene:
        """The scene a run starts from, before its own settings and actions."""
        if run.scene is None:
            return self.scene_for(question)
        return self.scenes[run.scene]


Folder = Path | Traversable


def _field_path(location: tuple[Any, ...]) -> str:
    # pydantic names the member of a union it tried ("literal['seam']", "Grab"); drop those
    # (an embedded scene's name, "swing.json", is kept)
    keep = re.compile(r"[a-z0-9_][a-z0-9_.-]*")
    parts = [str(p) for p in location if isinstance(p, int) or keep.fullmatch(str(p))]
    return ".".join(parts)


def parse_question_set(
    text: str | bytes, source: str = "questions", folder: Folder | None = None
) -> QuestionSet:
    """Validate a question set and load the scenes it names (presets, or files in `folder`);
    raises QuestionSetError with one line naming `source` and the field."""
    data = read_json_object(text, source, MAX_FILE_BYTES, QuestionSetError)
    version = check_version(data, source, FORMAT, SCHEMA_VERSION, QuestionSetError)
    if version != SCHEMA_VERSION:
        raise QuestionSetError(f"{source}: schema_version: {version} is not a known version")
    try:
        spec = QuestionSetSpec.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        message = first["msg"].removeprefix("Value error, ")
        where = _field_path(first["loc"])
        raise QuestionSetError(f"{source}: {where + ': ' if where else ''}{message}") from None
    scenes = _load_scenes(spec, source, folder)
    question_set = QuestionSet(spec, source, None, scenes)
    _check_runs_fit(question_set)
    return question_set


def _embedded_scenes(spec: QuestionSetSpec, source: str) -> dict[str, Scene]:
    """Each embedded scene document, migrated and validated as a scene file would be."""
    scenes = {}
    for name, document in spec.scenes.items():
        where = f"{source}: scenes.{name}"
        try:
            scenes[name] = Scene.model_validate(migrate(document, where))
        except ValidationError as error:
            raise QuestionSetError(f"{where}: {validation_message(error)}") from None
        except SceneError as error:
            raise QuestionSetError(str(error)) from None
    return scenes


def _load_scenes(spec: QuestionSetSpec, source: str, folder: Folder | None) -> dict[str, Scene]:
    scenes = _embedded_scenes(spec, source)
    if spec.scenes:  # a shared set holds every scene it names: it reads no file beside it
        folder = None
    for k, question in enumerate(spec.questions):
        places = [(f"questions.{k}.scene", question.scene)]
        for c, check in enumerate(question.checks):
            for name, run in zip(("first", "second"), check.runs(), strict=False):
                where = f"questions.{k}.checks.{c}" + (f".compare.{name}" if check.compare else "")
                if run.scene is not None:
                    places.append((f"{where}.scene", run.scene))
        for where, reference in places:
            if reference not in scenes:
                try:
                    scenes[reference] = _load_scene(reference, folder)
                except SceneError as error:
                    raise QuestionSetError(f"{source}: {where}: {error}") from None
    return scenes


def _load_scene(reference: str, folder: Folder | None) -> Scene:
    if re.fullmatch(SLUG, reference):
        if not is_preset(reference):
            raise SceneError(f"{reference!r} is not a preset")
        return load_preset(reference)
    if folder is None:
        raise SceneError(f"{reference}: not a preset, and not a scene embedded in the set")
    parts = PurePosixPath(reference).parts
    if isinstance(folder, Path):
        try:
            base = resolved(folder)
            target = resolved(base.joinpath(*parts))
        except OSError as error:  # a loop of symbolic links
            raise SceneError(f"{reference}: {describe(error)}") from None
        if not target.is_relative_to(base):  # e.g. through a symbolic link
            raise SceneError(f"{reference}: leaves the set's folder")
        return load_scene(target)
    packaged = folder.joinpath(*parts)
    if not packaged.is_file():
        raise SceneError(f"{reference}: no such file")
    return parse_scene(packaged.read_bytes(), reference)


def _check_runs_fit(question_set: QuestionSet) -> None:
    """Grabs of particles the scene has, seams of scenes with a sheet."""
    for k, question in enumerate(question_set.questions):
        for c, check in enumerate(question.checks):
            for run in check.runs():
                scene = question_set.run_scene(question, run)
                particles, _ = body_counts(scene.bodies)
                held = run.held
                if held is not None and held.grab >= particles:
                    raise QuestionSetError(
                        f"{question_set.source}: questions.{k}.checks.{c}: grab {held.grab} is "
                        f"not below the scene's {particles} particles"
                    )
                if "seam" in run.apply and not build_topology(scene).sheets:
                    raise QuestionSetError(
                        f"{question_set.source}: questions.{k}.checks.{c}: seam: "
                        f"scene {scene.name!r} has no sheet"
                    )


def evidence_shown(scene: Scene, key: str) -> bool:
    """Whether `scene` shows the readout `key` at all: after one step it reads a number, not
    NaN (sag needs a sheet held by two pins, volume a soft block, …)."""
    engine = Engine(scene, record_every=0)
    engine.advance(1)
    return not math.isnan(measure(engine.sim, key))


def load_question_set(path: str | os.PathLike[str]) -> QuestionSet:
    """A teacher's set from a file; its scene files are resolved against its folder."""
    path = Path(path)
    raw = read_document(path, MAX_FILE_BYTES, "a question set", QuestionSetError)
    loaded = parse_question_set(raw, str(path), path.parent)
    return QuestionSet(loaded.spec, loaded.source, path, loaded.scenes)


def check_at_time(
    claim: str,
    readout: str,
    seconds: float,
    dt: float,
    expect: tuple[str, float, float],
    settings: Mapping[str, Any] | None = None,
    apply: Iterable[Any] = (),
) -> dict[str, Any]:
    """A check as a question editor makes it from what a teacher typed: run the question's
    scene (with `settings`, and `apply`: "seam" cuts the seam before step 0, {"grab": particle,
    "to": [x, y, z]} holds a particle there) for `seconds` of
    model time at step `dt`, then `readout` must meet `expect` = (op, value, tolerance).
    Returned as the file holds it, for the set to validate."""
    op, value, tolerance = expect
    check: dict[str, Any] = {
        "claim": claim,
        "steps": round(seconds / dt),  # the set says when that is more than MAX_STEPS
        "expect": {"readout": readout, "op": op, "value": value, "tolerance": tolerance},
    }
    if settings:
        check["set"] = dict(settings)
    if apply:
        check["apply"] = list(apply)
    return check


def sealed_for_class(spec: QuestionSetSpec, teacher: Sealed) -> QuestionSetSpec:
    """The set as a class gets it: every correct choice sealed (its salted hash, no
    ``"correct": true`` to read), and the teacher's passphrase (its stretched hash) in its class
    mode. Numeric answers stay: their tolerance is the check. Hashes keep the answers from a
    reader of the file, not from someone who hashes each choice with the app's code."""
    questions = [
        q.model_copy(update={"prediction": q.prediction.sealed_copy()}) for q in spec.questions
    ]
    class_mode = (spec.class_mode or ClassMode()).model_copy(update={"teacher": teacher})
    return spec.model_copy(update={"questions": questions, "class_mode": class_mode})


def shared_set_json(spec: QuestionSetSpec, scenes: Mapping[str, Scene]) -> str:
    """A set as one file: `spec` with `scenes` (file name → scene) embedded."""
    document = spec.model_dump(mode="json", exclude_none=True, exclude={"scenes"})
    if not spec.class_mode:
        document.pop("class_mode", None)
    document["scenes"] = {name: json.loads(scene_json(scene)) for name, scene in scenes.items()}
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def save_shared_set(
    spec: QuestionSetSpec, scenes: Mapping[str, Scene], path: str | os.PathLike[str]
) -> QuestionSet:
    """Write a set with its scenes embedded, atomically, once the text is known to open again
    (QuestionSetError if not: nothing is written). Returns the set as it will load."""
    text = shared_set_json(spec, scenes)
    loaded = parse_question_set(text.encode("utf-8"), str(path))
    write_atomically(Path(path), text.encode("utf-8"))
    return QuestionSet(loaded.spec, loaded.source, Path(path), loaded.scenes)


_BUILTIN = resource("questions")


def builtin_set_names() -> list[str]:
    """The built-in sets: files in resources/questions whose format is a question set (the
    other files there are the scenes they use)."""
    names = []
    for item in sorted(_BUILTIN.iterdir(), key=lambda p: p.name):
        if item.name.endswith(".json"):
            try:
                data = json.loads(item.read_bytes())
            except (ValueError, RecursionError):
                continue
            if isinstance(data, dict) and data.get("format") == FORMAT:
                names.append(item.name.removesuffix(".json"))
    return names


def load_builtin_set(name: str = BUILTIN_SET) -> QuestionSet:
    """A built-in set, in the app's language where resources/i18n has its words."""
    if name not in builtin_set_names():
        known = ", ".join(builtin_set_names())
        raise QuestionSetError(f"{name}: no such question set (built-in: {known})")
    data = in_language((_BUILTIN / f"{name}.json").read_bytes(), name, TRANSLATED_FIELDS)
    return parse_question_set(data, f"questions {name}", _BUILTIN)


# The fields of a set whose values are its words (sim.text.in_language)
TRANSLATED_FIELDS = frozenset(
    {"title", "description", "question", "text", "watch", "explanation", "label", "note",
     "claim", "unit"}
)  # fmt: skip


def resolve_set(name_or_path: str) -> QuestionSet:
    """A built-in set by name, or a set file by path."""
    if re.fullmatch(SLUG, name_or_path) and not Path(name_or_path).exists():
        return load_builtin_set(name_or_path)
    return load_question_set(name_or_path)


# --- checking the explanations by numbers ------------------------------------------------------


@dataclass(frozen=True)
class CheckResult:
    claim: str
    readout: str
    measured: float  # NaN when the model blew up
    expect: Expect
    by: str = ""  # "ratio" or "difference" for a comparison
    failure: str = ""  # why no number could be measured

    @property
    def passed(self) -> bool:
        return not self.failure and self.expect.holds(self.measured)

    @property
    def text(self) -> str:
        """e.g. "sag ratio 0.487 == 0.5 ± 0.1"."""
        name = f"{self.readout} {self.by}".strip()
        if self.failure:
            return f"{name}: {self.failure}"
        return f"{name} {self.measured:.4g} {self.expect.text}"


@dataclass(frozen=True)
class QuestionResult:
    question: Question
    checks: tuple[CheckResult, ...]

    @property
    def passed(self) -> bool:
        return all(check.passed for check in self.checks)


RunCache = dict[str, tuple[Simulation, RunContext, str]]


def run_check_scene(scene: Scene, run: RunSpec) -> tuple[Simulation, RunContext, str]:
    """Build and step a run's simulation: its settings, then its actions before step 0.
    Returns the simulation, what the measures need and, if the model blew up, why."""
    scene = with_settings(scene, run.set)
    if "seam" in run.apply:
        scene = with_seam(scene)
    engine = Engine(scene, record_every=0)
    context = RunContext()
    held = run.held
    if held is not None:
        engine.apply(GrabStart(held.grab, held.to))
        context = RunContext(held=(held.grab, held.to))
    failure = ""
    if engine.advance(run.steps) != run.steps:  # without a deadline: only if it blew up
        blown = engine.sim.instability
        failure = f"the model blew up at step {blown.step if blown else engine.sim.state.steps}"
    return engine.sim, context, failure


def _run(
    question_set: QuestionSet, question: Question, run: RunSpec, cache: RunCache
) -> tuple[Simulation, RunContext, str]:
    scene = question_set.run_scene(question, run)
    key = json.dumps([scene.model_dump(mode="json"), run.model_dump(mode="json")], sort_keys=True)
    if key not in cache:
        cache[key] = run_check_scene(scene, run)
    return cache[key]


def evaluate_check(
    question_set: QuestionSet, question: Question, check: Check, cache: RunCache | None = None
) -> CheckResult:
    cache = {} if cache is None else cache
    key = check.expect.readout
    values, failure = [], ""
    for run in check.runs():
        sim, context, failure = _run(question_set, question, run, cache)
        if failure:
            break
        values.append(measure(sim, key, context))
    if failure:
        return CheckResult(check.claim, key, math.nan, check.expect, failure=failure)
    if check.compare is None:
        return CheckResult(check.claim, key, values[0], check.expect)
    first, second = values
    if check.compare.by == "difference":
        measured = first - second
    else:
        measured = first / second if second != 0 else math.copysign(math.inf, first)
    return CheckResult(check.claim, key, measured, check.expect, by=check.compare.by)


def check_question(
    question_set: QuestionSet, question: Question, cache: RunCache | None = None
) -> QuestionResult:
    """Run a question's checks (runs shared between checks are made once)."""
    cache = {} if cache is None else cache
    results = tuple(evaluate_check(question_set, question, c, cache) for c in question.checks)
    return QuestionResult(question, results)


def check_set(
    question_set: QuestionSet, questions: Iterable[Question] | None = None
) -> list[QuestionResult]:
    cache: RunCache = {}
    chosen = question_set.questions if questions is None else list(questions)
    return [check_question(question_set, question, cache) for question in chosen]
