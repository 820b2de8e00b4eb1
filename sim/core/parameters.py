"""Every setting of the solver and the world, declared once.

One row per setting: key, label, unit, range, step, default, tooltip, where it lives in a scene
file (section and field) and whether it belongs to the seed's classic model. `Settings` (what
the kernels read), the scene file's section schemas and defaults (sim.document.scene), `clothlab run
--set`, the Parameters panel and the Scene panel are all derived from this table: adding an
option is one row here plus its kernel.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, fields, replace
from typing import Any

import numpy as np

from clothlab.sim.core.records import Air, World
from clothlab.sim.text import QT_TR_NOOP, tr

Vec3 = tuple[float, float, float]
COORDINATE_LIMIT = 1e4  # what scene files accept for a position
DAMPING_DT = 1.0 / 120.0  # damping is the fraction of motion kept per this much model time
# fabric_solver's choices (sim.core.constraint_sets.LinksTogether, sim.core.fabric_solve)
LINKS_THEN_PASSES, PROJECTIVE, LINKS_BY_MULTIGRID = 0, 1, 2


def damping_per_step(damping: float, h: float) -> float:
    """The factor a Verlet step of h seconds keeps: damping^(h / (1/120 s)), so the seed's
    0.994 per 1/120 s damps the same per second at any time step (and is exact at 1/120 s)."""
    return damping ** (h / DAMPING_DT)


@dataclass(frozen=True)
class Parameter:
    key: str
    label: str
    unit: str
    minimum: float
    maximum: float
    step: float
    default: Any
    tooltip: str
    section: str  # the scene file's section that stores it
    field: str = ""  # its name in that section; the key when empty
    kind: type = float  # float, int, bool, or tuple (a position, no slider)
    classic: bool = True  # part of the seed's model; False: an option beyond it
    switches_option: bool = False  # a value other than the default turns the option on
    choices: tuple[str, ...] = ()  # an int setting with named values 0, 1, …

    @property
    def name_in_section(self) -> str:
        return self.field or self.key

    @property
    def group(self) -> str:
        return QT_TR_NOOP("Classic model") if self.classic else QT_TR_NOOP("Beyond classic")

    def parse(self, text: str) -> Any:
        """Parse a command-line value; raises ValueError with a one-line reason."""
        if self.kind is bool:
            lowered = text.strip().lower()
            if lowered in ("on", "true", "1", "yes"):
                return True
            if lowered in ("off", "false", "0", "no"):
                return False
            raise ValueError(tr("expected on/off, got {value}").format(value=_shown(text)))
        if self.kind is tuple:
            return self.check(tuple(float(v) for v in text.split(",")))
        if self.choices and text in self.choices:
            return self.choices.index(text)
        try:
            value = self.kind(text)
        except ValueError:
            expected = (
                tr("expected an integer, got {value}")
                if self.kind is int
                else tr("expected a number, got {value}")
            )
            raise ValueError(expected.format(value=_shown(text))) from None
        return self.check(value)

    def check(self, value: Any) -> Any:
        """The value in this setting's type; raises ValueError outside the range (and NaN)."""
        if self.kind is bool:
            if not isinstance(value, (bool, int)) or value not in (0, 1):
                raise ValueError(tr("expected on/off, got {value}").format(value=_shown(value)))
            return bool(value)
        if self.kind is tuple:
            value = tuple(_as_float(v) for v in value)
            if len(value) != 3 or not all(
                math.isfinite(v) and abs(v) <= self.maximum for v in value
            ):
                raise ValueError(
                    tr("expected three finite numbers within ±{limit:g}").format(limit=self.maximum)
                )
            return value
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError(tr("{value} is not a finite number").format(value=value))
        if self.kind is int:
            if isinstance(value, bool) or int(value) != value:
                raise ValueError(tr("expected an integer, got {value}").format(value=_shown(value)))
            value = int(value)
        else:
            value = _as_float(value)
        if not (self.minimum <= value <= self.maximum):  # also rejects NaN
            raise ValueError(
                tr("{value} is outside {minimum:g}…{maximum:g} {unit}")
                .format(
                    value=_shown(value),
                    minimum=self.minimum,
                    maximum=self.maximum,
                    unit=tr(self.unit) if self.unit else "",
                )
                .rstrip()
            )
        return value


def _as_float(value: Any) -> float:
    """float(value), a ValueError for an integer beyond a float's range (JSON allows any
    number of digits: 10**309 is an OverflowError to float())."""
    try:
        return float(value)
    except OverflowError:
        raise ValueError(tr("{value} is not a finite number").format(value=_shown(value))) from None


def _shown(value: Any) -> str:
    """A value for a one-line message: an integer of hundreds of digits by its size (str()
    of one past 4300 digits is itself an error)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**21:
        return tr("an integer of about {digits} digits").format(
            digits=round(value.bit_length() * math.log10(2))
        )
    text = repr(value)  # a typed value of hundreds of digits, too
    return text if len(text) <= 60 else text[:57] + "…"


ROW = "row"  # a Settings field's metadata: its settings table row, less its key, kind, default
KINDS: dict[str, type] = {"int": int, "float": float, "bool": bool, "Vec3": tuple}


def setting(
    label: str,
    unit: str,
    minimum: float,
    maximum: float,
    step: float,
    default: Any,
    tooltip: str,
    section: str,
    field: str = "",
    **options: Any,
) -> Any:
    """A Settings field and its row of the settings table (Parameter's fields, in its order;
    `options`: classic, switches_option, choices): its key is the field's name and its kind
    the field's type, so a setting is declared once."""
    row = {"label": label, "unit": unit, "minimum": minimum, "maximum": maximum, "step": step,
           "tooltip": tooltip, "section": section, "field": field, **options}  # fmt: skip
    return dataclasses.field(default=default, metadata={ROW: row})


@dataclass(frozen=True)
class Settings:
    """Everything the kernels read besides positions and topology, one field a setting, each
    declared with its row of the settings table (`setting`; SETTINGS_TABLE is made of them)."""

    # --- the seed's model -------------------------------------------------------------------
    passes: int = setting(
        QT_TR_NOOP("Solver passes"),
        "",
        1,
        200,
        1,
        8,
        QT_TR_NOOP("Gauss–Seidel passes over every link per step; more passes leave less stretch."),
        "solver",
    )
    stiffness: float = setting(
        QT_TR_NOOP("Stiffness"),
        "",
        0.01,
        1.0,
        0.01,
        1.0,
        QT_TR_NOOP(
            "Fraction of each link's length error corrected per visit (a solver setting, not a "
            "fabric property). At 0 no link would act at all, so it starts at 0.01."
        ),
        "solver",
    )
    damping: float = setting(
        QT_TR_NOOP("Damping"),
        "",
        0.0,
        1.0,
        0.001,
        0.994,
        QT_TR_NOOP(
            "Fraction of the motion kept per 1/120 s by the Verlet predict (0.994 classic); "
            "other time steps and substeps use damping^(Δt·120), so it damps the same per second."
        ),
        "solver",
    )
    gravity: float = setting(
        QT_TR_NOOP("Gravity"),
        QT_TR_NOOP("units/s²"),
        0.0,
        100.0,
        0.1,
        9.8,
        QT_TR_NOOP("Downward acceleration (−y)."),
        "solver",
    )
    wind: float = setting(
        QT_TR_NOOP("Wind"),
        QT_TR_NOOP("units/s²"),
        -100.0,
        100.0,
        0.1,
        0.0,
        QT_TR_NOOP("Gusting acceleration along +z: wind·(0.6 + 0.4·sin(2t + x))."),
        "wind",
        "strength",
    )
    dt: float = setting(
        QT_TR_NOOP("Time step"),
        "s",
        1e-4,
        0.05,
        1e-4,
        1.0 / 120.0,
        QT_TR_NOOP("Model time advanced per step (1/120 s in the classic model)."),
        "solver",
    )
    solver_mode: int = setting(
        QT_TR_NOOP("Link order"),
        "",
        0,
        3,
        1,
        0,
        QT_TR_NOOP(
            "Order of the Gauss–Seidel passes: automatic (classic order on small sheets; from "
            "20 000 links colour order on one thread or two, whichever its timing finds faster), "
            "the classic family order, or independent sets (colours) on one or two threads."
        ),
        "solver",
        choices=(
            QT_TR_NOOP("automatic"),
            QT_TR_NOOP("classic order"),
            QT_TR_NOOP("colour order"),
            QT_TR_NOOP("colour order, 2 threads"),
        ),
    )
    fabric_solver: int = setting(
        QT_TR_NOOP("Fabric solver"),
        "",
        0,
        2,
        1,
        LINKS_THEN_PASSES,
        QT_TR_NOOP(
            "How a run whose every body has an SI fabric solves it each substep: its links "
            "together (conjugate gradients preconditioned by their factored system), then passes "
            "for bending, whose substeps grow with the mesh; or stretch, shear, bending and twist "
            "in one projective solve of a matrix factored once: any substeps, shear that does not "
            "resist stretch, but slow to converge on a stiff fabric while it moves; or the links "
            "together preconditioned by a multigrid cycle on the sheets' grids while the cloth "
            "moves, whose cost per iteration grows only as the mesh does, and by their factored "
            "system once it rests (RESEARCH.md §8)."
        ),
        "solver",
        classic=False,
        choices=(
            QT_TR_NOOP("links together, then passes"),
            QT_TR_NOOP("one projective solve"),
            QT_TR_NOOP("links together by multigrid, then passes"),
        ),
    )
    ball: bool = setting(
        QT_TR_NOOP("Ball"),
        "",
        0,
        1,
        1,
        False,
        QT_TR_NOOP("Collide free particles with the ball."),
        "ball",
        "enabled",
    )
    ball_center: Vec3 = setting(  # noqa: RUF009 (setting returns a dataclasses.field)
        QT_TR_NOOP("Ball centre"),
        QT_TR_NOOP("units"),
        -COORDINATE_LIMIT,
        COORDINATE_LIMIT,
        0.05,
        (0.0, -0.6, 0.0),
        QT_TR_NOOP("Centre of the ball."),
        "ball",
        "center",
    )
    ball_radius: float = setting(
        QT_TR_NOOP("Ball radius"),
        QT_TR_NOOP("units"),
        0.01,
        10.0,
        0.01,
        0.5,
        QT_TR_NOOP("Radius of the ball."),
        "ball",
        "radius",
    )
    floor: bool = setting(
        QT_TR_NOOP("Floor"),
        "",
        0,
        1,
        1,
        True,
        QT_TR_NOOP("Keep every particle above the floor."),
        "floor",
        "enabled",
    )
    floor_y: float = setting(
        QT_TR_NOOP("Floor height"),
        QT_TR_NOOP("units"),
        -100.0,
        100.0,
        0.05,
        -1.6,
        QT_TR_NOOP("Height of the floor (y)."),
        "floor",
        "y",
    )
    # --- beyond the classic model: every default leaves the seed's model as it is -----------
    xpbd: bool = setting(
        QT_TR_NOOP("XPBD"),
        "",
        0,
        1,
        1,
        False,
        QT_TR_NOOP(
            "Extended PBD: links get a compliance instead of a stiffness factor, so their "
            "stretch no longer depends on passes or time step."
        ),
        "solver",
        classic=False,
        switches_option=True,
    )
    compliance: float = setting(
        QT_TR_NOOP("Link compliance"),
        QT_TR_NOOP("units/force"),
        0.0,
        1e-1,
        1e-6,
        1e-5,
        QT_TR_NOOP("XPBD: inverse stiffness of every link (0 = inextensible)."),
        "solver",
        classic=False,
    )
    substeps: int = setting(
        QT_TR_NOOP("Substeps"),
        "",
        1,
        64,
        1,
        1,
        QT_TR_NOOP("Steps of Δt/substeps each, every one a full predict and passes."),
        "solver",
        classic=False,
        switches_option=True,
    )
    tethers: bool = setting(
        QT_TR_NOOP("Tethers"),
        "",
        0,
        1,
        1,
        False,
        QT_TR_NOOP(
            "Long-range attachments: no particle may get further from a pin than its distance "
            "along the cloth at rest."
        ),
        "fabric",
        classic=False,
        switches_option=True,
    )
    bending: bool = setting(
        QT_TR_NOOP("Bending"),
        "",
        0,
        1,
        1,
        False,
        QT_TR_NOOP("Skip-one links across and down the sheet resist folding."),
        "fabric",
        classic=False,
        switches_option=True,
    )
    bend_compliance: float = setting(
        QT_TR_NOOP("Bend compliance"),
        QT_TR_NOOP("units/force"),
        0.0,
        10.0,
        1e-3,
        0.05,
        QT_TR_NOOP("Inverse stiffness of the bending links (0 = rigid)."),
        "fabric",
        classic=False,
    )
    friction_static: float = setting(
        QT_TR_NOOP("Static friction"),
        "",
        0.0,
        2.0,
        0.01,
        0.0,
        QT_TR_NOOP(
            "Coulomb static coefficient on the ball, obstacles and floor (0 = classic, none)."
        ),
        "fabric",
        classic=False,
        switches_option=True,
    )
    friction_kinetic: float = setting(
        QT_TR_NOOP("Kinetic friction"),
        "",
        0.0,
        2.0,
        0.01,
        0.0,
        QT_TR_NOOP("Coulomb kinetic coefficient on the ball, obstacles and floor."),
        "fabric",
        classic=False,
        switches_option=True,
    )
    aerodynamic: bool = setting(
        QT_TR_NOOP("Aerodynamic wind"),
        "",
        0,
        1,
        1,
        False,
        QT_TR_NOOP(
            "Wind as air moving at `wind` units/s, pressing on each triangle by its normal and "
            "its own motion, instead of a uniform push."
        ),
        "wind",
        classic=False,
        switches_option=True,
    )
    wind_yaw: float = setting(
        QT_TR_NOOP("Wind heading"),
        "°",
        -180.0,
        180.0,
        1.0,
        0.0,
        QT_TR_NOOP("Aerodynamic wind direction about +y: 0° blows along +z, 90° along +x."),
        "wind",
        "yaw",
        classic=False,
    )
    drag: float = setting(
        QT_TR_NOOP("Drag"),
        QT_TR_NOOP("1/units"),
        0.0,
        10.0,
        0.01,
        0.5,
        QT_TR_NOOP(
            "Aerodynamic pressure coefficient along the triangle normal (per unit area, mass 1)."
        ),
        "wind",
        classic=False,
    )
    lift: float = setting(
        QT_TR_NOOP("Lift"),
        QT_TR_NOOP("1/units"),
        0.0,
        10.0,
        0.01,
        0.1,
        QT_TR_NOOP("Aerodynamic coefficient across the flow, in the plane of the triangle."),
        "wind",
        classic=False,
    )
    tearing: bool = setting(
        QT_TR_NOOP("Tearing"),
        "",
        0,
        1,
        1,
        False,
        QT_TR_NOOP("A link breaks when stretched past the tear ratio."),
        "fabric",
        classic=False,
        switches_option=True,
    )
    tear_ratio: float = setting(
        QT_TR_NOOP("Tear ratio"),
        QT_TR_NOOP("× rest"),
        1.05,
        20.0,
        0.05,
        2.2,
        QT_TR_NOOP("Length, in rest lengths, at which a link tears."),
        "fabric",
        classic=False,
    )
    volume_constraint: bool = setting(
        QT_TR_NOOP("Keep volume"),
        "",
        0,
        1,
        1,
        False,
        QT_TR_NOOP("Every tetrahedron of the soft block keeps its rest volume."),
        "fabric",
        classic=False,
        switches_option=True,
    )
    upright_cells: bool = setting(
        QT_TR_NOOP("Cells right side out"),
        "",
        0,
        1,
        1,
        False,
        QT_TR_NOOP(
            "A soft block's tetrahedron squashed inside out (negative volume) is pushed back to "
            "its rest volume. Links alone hold a mirrored cell as well as the right one, so a "
            "hard squash could leave the block inside out."
        ),
        "fabric",
        classic=False,
        switches_option=True,
    )
    self_collision: bool = setting(
        QT_TR_NOOP("Self-collision"),
        "",
        0,
        1,
        1,
        False,
        QT_TR_NOOP("Particles keep at least the collision distance apart (unless closer at rest)."),
        "fabric",
        classic=False,
        switches_option=True,
    )
    collision_distance: float = setting(
        QT_TR_NOOP("Collision distance"),
        QT_TR_NOOP("units"),
        0.0,
        1.0,
        0.005,
        0.0,
        QT_TR_NOOP(
            "Minimum distance between particles under self-collision; 0 = automatic, 0.75 × the "
            "finest rest spacing (0.15 on a 0.2 grid): no layer gets through the middle of a "
            "cell, and a finer sheet keeps its proportions."
        ),
        "fabric",
        classic=False,
    )
    imperfection: float = setting(
        QT_TR_NOOP("Start imperfection"),
        QT_TR_NOOP("units"),
        0.0,
        1.0,
        0.0001,
        0.0,
        QT_TR_NOOP(
            "Each free particle of a sheet or disc (and of a block's surface) starts this far "
            "out of its faces' plane, at random (the spread of a normal distribution; the same "
            "draw every run). No real cloth lies perfectly flat: a flat start on a square grid "
            "lets the grid's symmetry choose how it buckles and folds. Takes effect when the "
            "scene starts."
        ),
        "fabric",
        classic=False,
    )
    specimen: int = setting(
        QT_TR_NOOP("Specimen"),
        "",
        1,
        9999,
        1,
        1,
        QT_TR_NOOP(
            "Which draw of the start imperfection the scene starts from: the same number, the "
            "same start; another number, another specimen, which buckles and folds its own "
            "way, as no two real specimens drape alike. Takes effect when the scene starts."
        ),
        "fabric",
        classic=False,
    )

    @property
    def is_classic(self) -> bool:
        """True when only the seed's model is switched on (the fast classic kernel applies)."""
        return all(getattr(self, p.key) == p.default for p in _TABLE if p.switches_option)

    def world(self, t: float, h: float | None = None) -> World:
        """What a classic step from model time `t` runs with (kernels.step_classic), or a
        substep of h seconds: its length and the damping over it."""
        h = self.dt if h is None else h
        damping = damping_per_step(self.damping, h)
        return World(
            int(self.passes),
            float(damping),
            float(self.gravity),
            float(self.wind),
            float(t),
            float(h),
        )

    def air(self, t: float, h: float) -> Air:
        """The air aerodynamic wind blows with over a substep of h from model time t: the
        wind's strength along its yaw from +z towards +x."""
        yaw = math.radians(self.wind_yaw)
        velocity = np.array([self.wind * math.sin(yaw), 0.0, self.wind * math.cos(yaw)])
        return Air(velocity, float(t), float(h), float(self.drag), float(self.lift))

    def with_value(self, key: str, value: Any) -> Settings:
        """A copy with one setting changed, type- and range-checked against the table."""
        if key not in SETTINGS_TABLE:
            raise KeyError(key)
        return replace(self, **{key: SETTINGS_TABLE[key].check(value)})

    def as_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


_TABLE: tuple[Parameter, ...] = tuple(
    Parameter(f.name, default=f.default, kind=KINDS[str(f.type)], **f.metadata[ROW])
    for f in fields(Settings)
)

SETTINGS_TABLE: dict[str, Parameter] = {p.key: p for p in _TABLE}
# The scalar settings: one widget each in the Parameters panel, and `--set KEY=VALUE`.
PARAMETERS: dict[str, Parameter] = {k: p for k, p in SETTINGS_TABLE.items() if p.kind is not tuple}
SECTIONS: tuple[str, ...] = tuple(dict.fromkeys(p.section for p in _TABLE))


def section_parameters(section: str) -> list[Parameter]:
    """The settings a scene-file section stores, in table order."""
    return [p for p in _TABLE if p.section == section]
