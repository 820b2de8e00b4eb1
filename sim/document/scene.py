"""Scenes as data: the versioned JSON file format, its validation, migration and atomic save,
and the bridge between a scene and a running Simulation.

A scene describes how to build the model (bodies, pins, ball, floor, wind, solver settings), the
edits made to it (cuts, moved pins) and where the camera looks; a saved state (state_scene) adds
the links a run had torn. It never stores positions: a loaded scene starts at rest.
"""

from __future__ import annotations

import functools
import json
import os
import re
import threading
import typing
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Final, Literal

import numpy as np
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    Strict,
    TypeAdapter,
    ValidationError,
    create_model,
    model_validator,
)
from pydantic.dataclasses import dataclass

from clothlab.sim.core.backend import StepBackend
from clothlab.sim.core.fabrics import FABRICS
from clothlab.sim.core.materials import SIMaterial
from clothlab.sim.core.parameters import (
    COORDINATE_LIMIT,
    SECTIONS,
    SETTINGS_TABLE,
    Parameter,
    Settings,
    section_parameters,
)
from clothlab.sim.core.probes import MAX_PROBES
from clothlab.sim.core.solver import BodyMaterial, Simulation
from clothlab.sim.core.topology import Topology, TopologyBuilder, disc_parts
from clothlab.sim.document.files import (
    MAX_FILE_BYTES,
    SceneError,
    no_garbage_collection,
    read_document,
    read_json_object,
    write_atomically,
)
from clothlab.sim.text import tr

FORMAT: Final = "clothlab-scene"
# 2: torn links are kept apart from cuts ("tears"); 3: sheets by width and height in units,
# named bodies with materials, obstacles (spheres and boxes); 4: fabrics in SI units, discs;
# 5: rulers and probes; 6: imperfection, bending bias; 7: specimen; 8: fabric solver
SCHEMA_VERSION: Final = 8
# Checked before parsing, and above the largest file a legal scene saves to, so that every scene
MAX_PARTICLES = 300_000  # a 512 × 512 sheet fits with room to spare
MAX_BODIES = 8
MAX_LIST = 2_000_000
# Sheet spacing and cube side: below this, positions near the coordinate limit round together
# and rest lengths of 0 would divide every strain readout by zero.
MIN_SPACING = 1e-4  # 0.1 mm: a textile test cuts a 25 mm strip into 80 segments of 0.5 mm

Finite = Annotated[float, Field(allow_inf_nan=False, ge=-COORDINATE_LIMIT, le=COORDINATE_LIMIT)]
# JSON has arrays, not tuples: accept a list here and let strict validation check its items.


def _as_tuple(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


Vec3 = Annotated[tuple[Finite, Finite, Finite], BeforeValidator(_as_tuple)]


def as_point(values: Iterable[Any]) -> tuple[float, float, float]:
    """Three numbers (numpy's among them) as a Vec3 of Python floats; ValueError if not three."""
    x, y, z = (float(v) for v in values)
    return x, y, z


StrictFinite = Annotated[Finite, Strict()]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    def replaced(self, **changes: Any) -> Any:
        """A validated copy with fields changed; SceneError (one line) if it breaks a rule."""
        try:
            return type(self).model_validate({**self.model_dump(), **changes})
        except ValidationError as error:
            raise SceneError(validation_message(error)) from None


MAX_NAME = 100  # characters of a body's or obstacle's name
SCENE_NAME_LIMIT = 200  # characters of a scene's name
SCENE_DESCRIPTION_LIMIT = 2000
MAX_OBSTACLES = 16  # spheres and boxes besides the ball and the floor


def _fabric_preset(name: str) -> str:
    if name not in FABRICS:
        raise ValueError(f"expected one of {', '.join(map(repr, FABRICS))}")
    return name


MaterialName = Annotated[str, Strict(), AfterValidator(_fabric_preset)]  # sim.core.fabrics'
Stiffness = Annotated[float, Field(ge=0.01, le=1.0, allow_inf_nan=False)]
# A length below the finest spacing is no shape (a sheet or block that small is refused for its
# spacing anyway); inclusive at both ends, so an editor can say the range as "0.001…1000".
Length = Annotated[float, Field(ge=MIN_SPACING, le=1000.0, allow_inf_nan=False)]
Size3 = Annotated[tuple[Length, Length, Length], BeforeValidator(_as_tuple)]


# What SI fabric numbers a file may hold: beyond any fabric, but finite and positive.
ArealDensity = Annotated[float, Field(ge=1e-3, le=10.0, allow_inf_nan=False)]  # kg/m²
StretchStiffness = Annotated[float, Field(ge=1.0, le=1e7, allow_inf_nan=False)]  # N/m
ShearStiffness = Annotated[float, Field(ge=1e-3, le=1e7, allow_inf_nan=False)]  # N/m
BendingRigidity = Annotated[float, Field(ge=1e-9, le=1.0, allow_inf_nan=False)]  # N·m


class SIMaterialSpec(_Strict):
    """A fabric in SI units (sim.core.materials.SIMaterial), stored by its numbers so that a
    file keeps its fabric whatever a later preset table says; `name` says where they came from
    ("denim", or the user's own)."""

    name: str = Field("", max_length=MAX_NAME)
    areal_density: ArealDensity
    stretch_warp: StretchStiffness
    stretch_weft: StretchStiffness
    shear: ShearStiffness
    bending_warp: BendingRigidity
    bending_weft: BendingRigidity
    bending_bias: BendingRigidity | None = None  # measured at 45°; None: the mean of the two

    @staticmethod
    def least_bias(bending_warp: float, bending_weft: float) -> float:
        """The least B along the bias a fabric can have, N·m: bent along the bias it resists
        with (B_warp + B_weft + T)/4, T ≥ 0."""
        return (bending_warp + bending_weft) / 4.0

    @model_validator(mode="after")
    def _bias_at_least_a_quarter(self) -> SIMaterialSpec:
        least = self.least_bias(self.bending_warp, self.bending_weft)
        if self.bending_bias is not None and self.bending_bias < least:
            raise ValueError(
                tr(
                    "bending_bias: {bias:g} N·m is under {least:g} N·m, a quarter of "
                    "bending_warp + bending_weft: the least a fabric resists with along its bias"
                ).format(bias=self.bending_bias, least=least)
            )
        return self

    @classmethod
    def of(cls, name: str, material: SIMaterial) -> SIMaterialSpec:
        return cls(name=name, **vars(material))

    @property
    def material(self) -> SIMaterial:
        return SIMaterial(**self.model_dump(exclude={"name"}))


class _BodySpec(_Strict):
    kind: str
    name: str = Field("", max_length=MAX_NAME)
    material: MaterialName | None = None  # sim.core.fabrics; None: the world's link settings
    stiffness: Stiffness | None = None  # the body's own, over its material's
    # a fabric in SI units, over both: its links, bending and masses come from it
    si_material: SIMaterialSpec | None = None

    @property
    def label(self) -> str:
        return self.name or self.default_label

    @property
    def default_label(self) -> str:
        raise NotImplementedError

    def moved(self, offset: Vec3) -> _BodySpec:
        raise NotImplementedError


class SheetSpec(_BodySpec):
    """A sheet of cols × rows particles, width × height units, hanging in the x–y plane from
    its top edge's centre (or lying in the x–z plane), turned yaw degrees about +y."""

    kind: Literal["sheet"] = "sheet"
    cols: int = Field(15, ge=2, le=512)
    rows: int = Field(11, ge=2, le=512)
    width: Length = 2.8
    height: Length = 2.0
    top_center: Vec3 = (0.0, 1.0, 0.0)
    horizontal: bool = False  # lie in the x–z plane instead of hanging in x–y
    yaw: float = Field(0.0, ge=-360.0, le=360.0, allow_inf_nan=False)  # degrees about +y
    lock_spacing: bool = False  # a new width or height changes the resolution instead

    @model_validator(mode="after")
    def _spacing_not_too_fine(self) -> SheetSpec:
        if min(self.spacing_x, self.spacing_y) < MIN_SPACING:
            raise ValueError(
                tr(
                    "a {width:g} × {height:g} sheet of {cols} × {rows} particles is finer than "
                    "{spacing:g} units between particles"
                ).format(
                    width=self.width,
                    height=self.height,
                    cols=self.cols,
                    rows=self.rows,
                    spacing=MIN_SPACING,
                )
            )
        return self

    @property
    def spacing_x(self) -> float:
        return self.width / (self.cols - 1)

    @property
    def spacing_y(self) -> float:
        return self.height / (self.rows - 1)

    @property
    def default_label(self) -> str:
        return tr("Sheet {cols} × {rows}").format(cols=self.cols, rows=self.rows)

    def moved(self, offset: Vec3) -> SheetSpec:
        return self.replaced(top_center=_add(self.top_center, offset))


class BlockSpec(_BodySpec):
    """A soft block of cubes³ small linked cubes, size units along each edge."""

    kind: Literal["block"] = "block"
    cubes: int = Field(4, ge=1, le=32)
    size: Length = 0.8
    min_corner: Vec3 = (-0.4, -0.6, -0.4)

    @model_validator(mode="after")
    def _cubes_not_too_small(self) -> BlockSpec:
        if self.si_material is not None:
            raise ValueError(tr("an SI fabric is a sheet's material, not a block's"))
        if self.side < MIN_SPACING:
            raise ValueError(
                tr(
                    "a block of {size:g} units in {cubes} cubes a side has cubes smaller than "
                    "{spacing:g} units"
                ).format(size=self.size, cubes=self.cubes, spacing=MIN_SPACING)
            )
        return self

    @property
    def side(self) -> float:
        return self.size / self.cubes

    @property
    def default_label(self) -> str:
        n = self.cubes
        return tr("Block {n} × {n} × {n}").format(n=n)

    def moved(self, offset: Vec3) -> BlockSpec:
        return self.replaced(min_corner=_add(self.min_corner, offset))


class DiscSpec(_BodySpec):
    """A circular sheet `diameter` units across, cols particles across its diameter, lying flat
    in the x–z plane with its centre at `center`, turned yaw degrees about +y (as a flat sheet:
    its grid turns with it). sim.core.topology says which grid points and links it keeps."""

    kind: Literal["disc"] = "disc"
    diameter: Length = 0.3
    cols: int = Field(31, ge=3, le=512)
    center: Vec3 = (0.0, 1.0, 0.0)
    yaw: float = Field(0.0, ge=-360.0, le=360.0, allow_inf_nan=False)  # degrees about +y

    @model_validator(mode="after")
    def _spacing_not_too_fine(self) -> DiscSpec:
        if self.spacing < MIN_SPACING:
            raise ValueError(
                tr(
                    "a disc {diameter:g} across of {cols} particles across is finer than "
                    "{spacing:g} units between particles"
                ).format(diameter=self.diameter, cols=self.cols, spacing=MIN_SPACING)
            )
        return self

    @property
    def spacing(self) -> float:
        return self.diameter / (self.cols - 1)

    @property
    def default_label(self) -> str:
        return tr("Disc {cols} across").format(cols=self.cols)

    def moved(self, offset: Vec3) -> DiscSpec:
        return self.replaced(center=_add(self.center, offset))


BodyShape = SheetSpec | BlockSpec | DiscSpec  # any body, for type hints
Body = Annotated[BodyShape, Field(discriminator="kind")]


class SphereSpec(_Strict):
    kind: Literal["sphere"] = "sphere"
    name: str = Field("", max_length=MAX_NAME)
    center: Vec3 = (0.0, -0.6, 0.0)
    radius: Length = 0.5

    @property
    def label(self) -> str:
        return self.name or tr("Sphere")

    def moved(self, offset: Vec3) -> SphereSpec:
        return self.replaced(center=_add(self.center, offset))


class BoxSpec(_Strict):
    """An axis-aligned box: centre and full size along x, y and z."""

    kind: Literal["box"] = "box"
    name: str = Field("", max_length=MAX_NAME)
    center: Vec3 = (0.0, -1.1, 0.0)
    size: Size3 = (1.0, 1.0, 1.0)

    @property
    def label(self) -> str:
        return self.name or tr("Box")

    def moved(self, offset: Vec3) -> BoxSpec:
        return self.replaced(center=_add(self.center, offset))


Obstacle = Annotated[SphereSpec | BoxSpec, Field(discriminator="kind")]


def field_range(spec: type[BaseModel], name: str) -> tuple[float, float]:
    """The inclusive range (ge, le) a number field of a body, obstacle or fabric accepts; for a
    vector (a position, a box's size), the range of each of its coordinates, and for an
    optional number (a fabric's bending_bias), the number's. Editors read it here, so the file
    format is the one place that says it."""
    annotation, metadata = spec.model_fields[name].annotation, spec.model_fields[name].metadata
    if typing.get_origin(annotation) in (tuple, typing.Union):
        # Annotated[float, FieldInfo] per coordinate, or first in `… | None`
        metadata = typing.get_args(typing.get_args(annotation)[0])[1].metadata
    limits = {type(rule).__name__: rule for rule in metadata}
    if "Ge" not in limits or "Le" not in limits:
        raise ValueError(f"{spec.__name__}.{name} has no inclusive range")
    return limits["Ge"].ge, limits["Le"].le


def max_length(model: type[BaseModel], name: str) -> int:
    """The longest text a field takes (its max_length): editors limit their text to it."""
    return next(
        rule.max_length for rule in model.model_fields[name].metadata if hasattr(rule, "max_length")
    )


def _add(a: Vec3, b: Vec3) -> Vec3:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


# A dataclass rather than a model: a scene may hold 300 000 pins, and pydantic builds these
# 6× faster (0.15 s against 1.0 for the largest legal scene). Strict field by field, as the
# models are (a model's strict config would refuse a dict for a strict dataclass).
@dataclass(frozen=True, slots=True, config=ConfigDict(extra="forbid"))
class PinSpec:
    particle: Annotated[int, Strict(), Field(ge=0)]
    anchor: Annotated[tuple[StrictFinite, StrictFinite, StrictFinite], BeforeValidator(_as_tuple)]


_PINS = TypeAdapter(list[PinSpec])

MAX_RULERS = 32


class RulerEnd(_Strict):
    """One end of a ruler: a particle (it follows it as the cloth moves) or a fixed point in
    the world (a pin's anchor, a point on an obstacle, or free): exactly one of the two."""

    particle: Annotated[int, Field(ge=0)] | None = None
    point: Vec3 | None = None

    @model_validator(mode="after")
    def _one_of_two(self) -> RulerEnd:
        if (self.particle is None) == (self.point is None):
            raise ValueError("a ruler end is a particle or a point, exactly one of the two")
        return self


class RulerSpec(_Strict):
    """A ruler between two ends; its length is read from a state (sim.lab.rulers)."""

    start: RulerEnd
    end: RulerEnd


def _section_field(parameter: Parameter) -> tuple[Any, Any]:
    """The pydantic field of one setting: its type, default and range from the table."""
    if parameter.kind is tuple:
        return Vec3, parameter.default
    if parameter.kind is bool:
        return bool, parameter.default
    low, high = parameter.minimum, parameter.maximum
    if parameter.kind is int:
        return int, Field(parameter.default, ge=low, le=high)
    return float, Field(parameter.default, ge=low, le=high, allow_inf_nan=False)


class _Section(_Strict):
    """A scene file's section of settings, its fields made from the settings table at import
    (a type checker sees any field as Any)."""

    if TYPE_CHECKING:

        def __init__(self, **values: Any) -> None: ...
        def __getattr__(self, name: str) -> Any: ...


def _section_model(section: str) -> type[_Section]:
    fields: dict[str, Any] = {
        p.name_in_section: _section_field(p) for p in section_parameters(section)
    }
    return create_model(f"{section.title()}Spec", __base__=_Section, **fields)


# One model per section of the settings table: solver, wind, ball, floor, fabric.
SECTION_MODELS: dict[str, type[_Section]] = {name: _section_model(name) for name in SECTIONS}
if TYPE_CHECKING:

    class SolverSpec(_Section): ...

    class WindSpec(_Section): ...

    class BallSpec(_Section): ...

    class FloorSpec(_Section): ...

    class FabricSpec(_Section): ...

else:
    SolverSpec = SECTION_MODELS["solver"]
    WindSpec = SECTION_MODELS["wind"]
    BallSpec = SECTION_MODELS["ball"]
    FloorSpec = SECTION_MODELS["floor"]
    FabricSpec = SECTION_MODELS["fabric"]


def _default_sheet() -> Body:
    return SheetSpec()


class CameraSpec(_Strict):
    target: Vec3 = (0.0, 0.0, 0.0)
    distance: float = Field(5.5, gt=0.05, le=1e3, allow_inf_nan=False)
    yaw: float = Field(0.0, ge=-360.0, le=360.0, allow_inf_nan=False)  # degrees about +y
    pitch: float = Field(10.0, ge=-89.0, le=89.0, allow_inf_nan=False)  # degrees above horizon


UNTITLED: Final = "Untitled"  # a new scene's name: it has none of its own yet
SceneName = Annotated[str, Field(max_length=SCENE_NAME_LIMIT)]
SceneDescription = Annotated[str, Field(max_length=SCENE_DESCRIPTION_LIMIT)]


class Scene(_Strict):
    format: Literal["clothlab-scene"] = FORMAT
    # the version this Cloth Lab writes (migrate lifts older files to it before they parse)
    schema_version: Annotated[int, Field(ge=SCHEMA_VERSION, le=SCHEMA_VERSION)] = SCHEMA_VERSION
    name: SceneName = UNTITLED
    description: SceneDescription = ""
    bodies: list[Body] = Field(default_factory=lambda: [_default_sheet()], max_length=MAX_BODIES)
    pins: list[PinSpec] = Field(default_factory=list, max_length=MAX_LIST)
    ball: BallSpec = BallSpec()  # the classic model's ball: the first sphere
    obstacles: list[Obstacle] = Field(default_factory=list, max_length=MAX_OBSTACLES)
    floor: FloorSpec = FloorSpec()
    wind: WindSpec = WindSpec()
    solver: SolverSpec = SolverSpec()
    fabric: FabricSpec = FabricSpec()
    cuts: list[Annotated[int, Field(ge=0)]] = Field(default_factory=list, max_length=MAX_LIST)
    # Links a run had torn (the tearing option), in a saved state (state_scene): dead like
    # cuts, but not undone with them. A save of the document never adds the model's tears: they
    # are what a run did, not the set-up. A file that holds some starts with them.
    tears: list[Annotated[int, Field(ge=0)]] = Field(default_factory=list, max_length=MAX_LIST)
    camera: CameraSpec = CameraSpec()
    rulers: list[RulerSpec] = Field(default_factory=list, max_length=MAX_RULERS)
    # Particles with a probe (sim.core.probes), probe 1 first: the Probes dock's curves and the
    # CSV's probe1_y, … columns follow this order.
    probes: list[Annotated[int, Field(ge=0)]] = Field(default_factory=list, max_length=MAX_PROBES)

    @model_validator(mode="after")
    def _rulers_in_range(self) -> Scene:
        if self.rulers:  # before the bodies' own check, which names a bigger problem first
            particles, _ = body_counts(self.bodies)
            check_ruler_particles(self.rulers, particles)
        return self

    @model_validator(mode="after")
    def _probes_on_particles(self) -> Scene:
        particles, _ = body_counts(self.bodies)
        _first_at_or_above(self.probes, particles, "probes.{}: particle {} is not below {}")
        if len(set(self.probes)) != len(self.probes):
            raise ValueError("probes: a particle has two probes")
        return self

    @model_validator(mode="after")
    def _indices_in_range(self) -> Scene:
        particles, links = body_counts(self.bodies)
        if particles > MAX_PARTICLES:
            raise ValueError(
                tr("bodies have {particles} particles, more than {limit}").format(
                    particles=particles, limit=MAX_PARTICLES
                )
            )
        # As arrays (the largest legal scene lists 287 511 pins and 2 million dead links),
        # once every index is known to fit one: a file may say 10**400.
        pinned = [p.particle for p in self.pins]
        _first_at_or_above(pinned, particles, "pins.{}.particle {} is not below {}")
        if _marked(pinned, particles) is None:
            raise ValueError("pins: a particle is pinned twice")
        dead = {}
        for name in ("cuts", "tears"):
            listed = getattr(self, name)
            _first_at_or_above(listed, links, f"{name}.{{}}: link {{}} is not below {{}}")
            dead[name] = _marked(listed, links)
            if dead[name] is None:
                raise ValueError(f"{name}: a link is listed twice")
        cut, torn = dead["cuts"], dead["tears"]
        if cut is not None and torn is not None and np.any(cut & torn):
            raise ValueError("tears: a link is both cut and torn")
        return self


def check_ruler_particles(rulers: Iterable[RulerSpec], particles: int) -> None:
    """ValueError naming the first ruler end whose particle is not below `particles`."""
    for k, ruler in enumerate(rulers):
        for side in ("start", "end"):
            particle = getattr(ruler, side).particle
            if particle is not None and particle >= particles:
                raise ValueError(f"rulers.{k}.{side}.particle {particle} is not below {particles}")


def _first_at_or_above(values: list[int], limit: int, message: str) -> None:
    """Raise message.format(index, value, limit) for the first value ≥ limit."""
    if values and max(values) >= limit:  # max in C; the search only when there is one
        k = next(k for k, value in enumerate(values) if value >= limit)
        raise ValueError(message.format(k, values[k], limit))


def _marked(values: list[int], size: int) -> np.ndarray | None:
    """(size,) bool, True at each of `values` (all in 0…size - 1), or None if one repeats. A
    mask, not a sort: the largest legal scene lists 2 million links."""
    marks = np.zeros(size, dtype=bool)
    marks[np.array(values, dtype=np.int64)] = True
    return marks if np.count_nonzero(marks) == len(values) else None


def body_counts(bodies: list[BodyShape]) -> tuple[int, int]:
    """(particles, links) the bodies will build, computed without building them."""
    particles = links = 0
    for body in bodies:
        p, k = body_size(body)
        particles += p
        links += k
    return particles, links


# Fields that do not change where a body's particles are: a change of these only restyles it.
APPEARANCE_FIELDS = frozenset({"name", "material", "stiffness", "si_material", "lock_spacing"})


def bodies_restructure(before: list[BodyShape], after: list[BodyShape]) -> bool:
    """Whether bodies changed from `before` to `after` move particles or change their number
    (anything beyond their appearance), so that a model of them must start afresh."""
    if len(before) != len(after):
        return True
    return any(
        a.model_dump(exclude=set(APPEARANCE_FIELDS)) != b.model_dump(exclude=set(APPEARANCE_FIELDS))
        for a, b in zip(before, after, strict=True)
    )


def body_size(body: BodyShape) -> tuple[int, int]:
    """(particles, links) of one body."""
    if isinstance(body, SheetSpec):
        c, r = body.cols, body.rows
        return c * r, (c - 1) * r + c * (r - 1) + 2 * (c - 1) * (r - 1)
    if isinstance(body, DiscSpec):
        parts = disc_parts(body.cols)
        return len(parts.cell_ij), len(parts.links)
    n = body.cubes
    return (n + 1) ** 3, 3 * n * (n + 1) ** 2 + 6 * n * n * (n + 1) + 4 * n**3


# --- reading -------------------------------------------------------------------------------


_TAGS = {"bodies": ("sheet", "block", "disc"), "obstacles": ("sphere", "box")}


def _field_path(location: tuple[Any, ...]) -> str:
    # pydantic puts the discriminator's tag in the path ("bodies.0.sheet.cols"); drop it
    tags = _TAGS.get(location[0], ()) if location else ()
    parts = [str(p) for p in location if p not in tags]
    return ".".join(part or '""' for part in parts)  # an empty key is still named


def validation_message(error: ValidationError) -> str:
    """The first problem pydantic found, as "field.path: what is wrong"."""
    first = error.errors()[0]
    message = first["msg"].removeprefix("Value error, ")
    if first["type"] == "unexpected_keyword_argument":  # a dataclass's word for it (pins)
        message = "Extra inputs are not permitted"
    where = _field_path(first["loc"])
    return f"{where + ': ' if where else ''}{message}"


@no_garbage_collection()
def parse_scene(text: str | bytes, source: str = "scene") -> Scene:
    """Validate a scene document; raises SceneError with one line naming source and field."""
    data = migrate(read_json_object(text, source), source)
    try:
        return Scene.model_validate(data)
    except ValidationError as error:
        raise SceneError(f"{source}: {validation_message(error)}") from None


def load_scene(path: str | os.PathLike[str]) -> Scene:
    """Read and validate a scene file. Only a regular file is opened, and without blocking: a
    FIFO would wait for a writer forever. Raises SceneError, one line naming the file."""
    path = Path(path)
    return parse_scene(read_document(path, MAX_FILE_BYTES, "a scene file", SceneError), str(path))


# --- migration -----------------------------------------------------------------------------


def _from_version_0(data: dict[str, Any]) -> dict[str, Any]:
    """Version 0 files held one sheet under "sheet" and the solver settings at the top level."""
    data = dict(data)
    if "sheet" in data:
        sheet = data.pop("sheet")
        if not isinstance(sheet, dict):
            raise SceneError("sheet: expected an object (schema_version 0)")
        data["bodies"] = [{"kind": "sheet", **sheet}]
    solver = {k: data.pop(k) for k in ("passes", "stiffness", "damping", "gravity") if k in data}
    if solver:
        if not isinstance(data.get("solver", {}), dict):
            raise SceneError("solver: expected an object")
        data["solver"] = {**data.get("solver", {}), **solver}
    data["schema_version"] = 1
    return data


def _from_version_1(data: dict[str, Any]) -> dict[str, Any]:
    """Version 1 files had no "tears": everything dead was a cut."""
    return {**data, "schema_version": 2}


def _from_version_2(data: dict[str, Any]) -> dict[str, Any]:
    """Version 2 sized a sheet by its spacing (square cells) and a block by its cubes' side:
    version 3 by their size in units, so that a new resolution keeps the cloth's size."""
    bodies = data.get("bodies")
    if not isinstance(bodies, list):
        return {**data, "schema_version": 3}  # the version-3 validation names the problem
    return {**data, "bodies": [_body_from_version_2(k, b) for k, b in enumerate(bodies)],
            "schema_version": 3}  # fmt: skip


def _body_from_version_2(k: int, body: Any) -> Any:
    if not isinstance(body, dict):
        return body
    body = dict(body)

    def number(key: str, default: float) -> float:
        value = body.pop(key, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise SceneError(f"bodies.{k}.{key}: expected a number (schema_version 2)")
        return value

    if body.get("kind", "sheet") == "sheet":
        spacing = number("spacing", 0.2)
        cols, rows = body.get("cols", 15), body.get("rows", 11)
        if isinstance(cols, int) and isinstance(rows, int):
            body["width"] = (cols - 1) * spacing
            body["height"] = (rows - 1) * spacing
    elif body.get("kind") == "block":
        side = number("side", 0.2)
        cubes = body.get("cubes", 4)
        if isinstance(cubes, int):
            body["size"] = cubes * side
    return body


def _from_version_3(data: dict[str, Any]) -> dict[str, Any]:
    """Version 4 added SI fabrics (`si_material` on a body) and discs: a version-3 file has
    neither."""
    return {**data, "schema_version": 4}


def _from_version_4(data: dict[str, Any]) -> dict[str, Any]:
    """Version 5 added rulers and probes: a version-4 file has none."""
    return {**data, "rulers": [], "schema_version": 5}


def _from_version_5(data: dict[str, Any]) -> dict[str, Any]:
    """Version 6 added the fabric section's `imperfection` (a start raised out of its plane)
    and an SI fabric's `bending_bias`: a version-5 file starts flat, as its default 0 does, and
    its fabrics take the mean of warp and weft along the bias, as they did."""
    return {**data, "schema_version": 6}


def _from_version_6(data: dict[str, Any]) -> dict[str, Any]:
    """Version 7 added the fabric section's `specimen` (which draw of the start imperfection):
    a version-6 file's start is the draw its default 1 makes."""
    return {**data, "schema_version": 7}


def _from_version_7(data: dict[str, Any]) -> dict[str, Any]:
    """Version 8 added the solver section's `fabric_solver`: a version-7 file's SI fabrics
    have their links solved together, as its default 0 does (an earlier Cloth Lab then says
    that a version-8 file is newer than it, instead of refusing an unknown key)."""
    return {**data, "schema_version": 8}


# version → function lifting it to version + 1
MIGRATIONS = {
    0: _from_version_0, 1: _from_version_1, 2: _from_version_2, 3: _from_version_3,
    4: _from_version_4, 5: _from_version_5, 6: _from_version_6, 7: _from_version_7,
}  # fmt: skip


def check_version(
    data: dict[str, Any],
    source: str,
    expected_format: str = FORMAT,
    latest: int = SCHEMA_VERSION,
    error: type[SceneError] = SceneError,
) -> int:
    """The document's schema_version, once its `format` is the one expected and the version
    an integer no newer than `latest`; else `error` with one line."""
    if data.get("format") != expected_format:
        got = data.get("format")
        problem = error(f"{source}: format: expected {expected_format!r}, got {got!r}")
        problem.format_found = got
        raise problem
    version = data.get("schema_version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise error(f"{source}: schema_version: expected an integer")
    if version > latest:
        raise error(
            tr(
                "{source}: schema_version: {version} is newer than this Cloth Lab "
                "(reads up to {latest})"
            ).format(source=source, version=version, latest=latest)
        )
    return version


def migrate(data: dict[str, Any], source: str = "scene") -> dict[str, Any]:
    version = check_version(data, source)
    while version < SCHEMA_VERSION:
        if version not in MIGRATIONS:
            raise SceneError(f"{source}: schema_version: {version} is not a known version")
        try:
            data = MIGRATIONS[version](data)
        except SceneError as error:
            raise SceneError(f"{source}: {error}") from None
        version = data["schema_version"]
    return data


# --- writing -------------------------------------------------------------------------------


def scene_json(scene: Scene) -> str:
    """The scene file's text: indented JSON, except that the lists that grow with the model are
    compact (cuts and tears on one line, a line per pin), so that the largest legal scene
    saves to a file under MAX_FILE_BYTES. Indented, 300 000 pins alone would be 40 MB."""
    data = scene.model_dump(mode="json", exclude={"pins"})
    parts = []
    for key in type(scene).model_fields:
        if key == "pins":
            text = pins_json(scene.pins)
        elif key in ("cuts", "tears"):
            text = json.dumps(data[key], separators=(",", ":"))
        else:  # a string never holds a raw line break (JSON escapes it), so this only indents
            text = json.dumps(data[key], indent=2).replace("\n", "\n  ")
        parts.append(f"  {json.dumps(key)}: {text}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def pins_json(pins: list[PinSpec]) -> str:
    """The pins as a JSON list, a line each (pins hold no strings, so "},{" only ever sits
    between two of them)."""
    if not pins:
        return "[]"
    lines = _PINS.dump_json(pins).decode("ascii")[1:-1].replace("},{", "},\n    {")
    return f"[\n    {lines}\n  ]"


def save_scene(scene: Scene, path: str | os.PathLike[str]) -> None:
    """Write atomically: a temporary file in the same folder, flushed, then renamed over."""
    write_atomically(Path(path), scene_json(scene).encode("utf-8"))


# --- scene ⇄ simulation ----------------------------------------------------------------------


def build_body(builder: TopologyBuilder, body: BodyShape) -> None:
    """Append one body's particles, links and faces to a topology being built."""
    if isinstance(body, SheetSpec):
        builder.add_sheet(
            body.cols, body.rows, body.spacing_x, body.top_center, body.horizontal, body.yaw,
            body.spacing_y,
        )  # fmt: skip
    elif isinstance(body, DiscSpec):
        builder.add_disc(body.diameter, body.cols, body.center, body.yaw)
    else:
        builder.add_block(body.cubes, body.side, body.min_corner)


def build_topology(scene: Scene) -> Topology:
    """The topology of the scene's bodies. Shared: equal bodies give the same object (the
    window's panels and the solver each want the one of a scene they open), so nobody writes
    into its arrays."""
    with _TOPOLOGY_LOCK:  # the solver thread builds it too: the second caller waits
        return _topology_of(tuple(scene.bodies))


_TOPOLOGY_LOCK = threading.Lock()


@functools.lru_cache(maxsize=4)
def _topology_of(bodies: tuple[BodyShape, ...]) -> Topology:
    builder = TopologyBuilder()
    for body in bodies:
        build_body(builder, body)
    return builder.build()


def scene_settings(scene: Scene) -> Settings:
    """The settings a scene stores, read through the settings table."""
    return Settings(
        **{
            key: getattr(getattr(scene, p.section), p.name_in_section)
            for key, p in SETTINGS_TABLE.items()
        }
    )


def with_settings(scene: Scene, changes: dict[str, Any]) -> Scene:
    """The scene with settings (Settings keys) replaced, each range-checked by the table."""
    sections: dict[str, dict[str, Any]] = {}
    for key, value in changes.items():
        p = SETTINGS_TABLE[key]
        sections.setdefault(p.section, {})[p.name_in_section] = p.check(value)
    return scene.model_copy(
        update={
            name: getattr(scene, name).model_copy(update=update)
            for name, update in sections.items()
        }
    )


def with_setting(scene: Scene, key: str, value: Any) -> Scene:
    return with_settings(scene, {key: value})


# File ▸ New's sheet starts this far out of its plane, at random (the setting `imperfection`:
# 0.5 % of the grid's 0.2 spacing, the same draw every time). No real cloth is perfectly flat:
# a perfectly flat sheet let fall on its edge stands on it for ever, since nothing in the model
# pushes it out of its plane; with this it folds down within 2 s. Presets keep their settings.
BLANK_IMPERFECTION = 0.001


def blank_scene() -> Scene:
    """File ▸ New's document: the default sheet, no pins, a tiny start imperfection."""
    return with_setting(Scene(), "imperfection", BLANK_IMPERFECTION)


def body_materials(bodies: list[BodyShape]) -> list[BodyMaterial]:
    """Each body's material, as Simulation takes them."""
    return [
        BodyMaterial(b.material, b.stiffness, b.si_material.material if b.si_material else None)
        for b in bodies
    ]


def obstacle_shapes(
    obstacles: list[SphereSpec | BoxSpec],
) -> tuple[list[tuple[Vec3, float]], list[tuple[Vec3, Vec3]]]:
    """The spheres (centre, radius) and boxes (centre, size) of a scene's obstacles list."""
    spheres = [(o.center, o.radius) for o in obstacles if isinstance(o, SphereSpec)]
    boxes = [(o.center, o.size) for o in obstacles if isinstance(o, BoxSpec)]
    return spheres, boxes


def build_simulation(scene: Scene, backend: StepBackend | None = None) -> Simulation:
    """The scene's simulation; `backend` steps its seed's model (sim.core.backend)."""
    topology = build_topology(scene)
    pins = {p.particle: p.anchor for p in scene.pins}
    spheres, boxes = obstacle_shapes(scene.obstacles)
    return Simulation(
        topology, scene_settings(scene), pins, scene.cuts, scene.tears,
        body_materials(scene.bodies), spheres, boxes, backend,
    )  # fmt: skip


# What a state's name adds to its scene's ("Flag — state at t = 3.20 s (32 links torn)"): a
# state of a state is named from the set-up's name, not with the phrase twice.
STATE_SUFFIX = re.compile(r" — state at t = .*$", re.DOTALL)
STATE_NOTE = (
    "The set-up of “{name}” with the {torn} the model had torn by t = {t:.2f} s. Positions "
    "are not stored (a scene file has none): it opens at rest, torn."
)


def state_scene(scene: Scene, torn: Iterable[int], t: float) -> Scene:
    """The set-up `scene` with the links a run of it had torn by model time `t` (links the
    user cut stay cuts): what File ▸ Save State and `--save-state` write, named and described
    as such. Save writes the set-up alone."""
    cut = set(scene.cuts)
    tears = sorted({int(k) for k in torn} - cut)
    noun = f"{len(tears)} link{'' if len(tears) == 1 else 's'} torn"
    setup = STATE_SUFFIX.sub("", scene.name)
    suffix = f" — state at t = {t:.2f} s ({noun})"
    name = setup[: SCENE_NAME_LIMIT - len(suffix)] + suffix
    note = STATE_NOTE.format(name=setup, torn=noun.removesuffix(" torn"), t=t)
    description = f"{note}\n\n{scene.description}" if scene.description else note
    update = {"tears": tears, "name": name, "description": description[:SCENE_DESCRIPTION_LIMIT]}
    return scene.model_copy(update=update)


def capture_scene(scene: Scene, sim: Simulation) -> Scene:
    """The state of `sim`, a run of the set-up `scene`: see state_scene."""
    return state_scene(scene, sim.torn, sim.state.t)
