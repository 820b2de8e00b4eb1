"""Settings of the solver and the world, with the metadata that widgets and the CLI read.

Every setting is declared once here (label, unit, range, step, tooltip); the Parameters dock
builds its widgets from this table and `clothlab run --set` validates against it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any


@dataclass(frozen=True)
class Parameter:
    key: str
    label: str
    unit: str
    minimum: float
    maximum: float
    step: float
    tooltip: str
    kind: type = float  # float, int or bool
    group: str = "Classic model"  # "Beyond classic" settings are off (classic) by default
    choices: tuple[str, ...] = ()  # an int setting with named values 0, 1, …

    def parse(self, text: str) -> Any:
        """Parse a command-line value; raises ValueError with a one-line reason."""
        if self.kind is bool:
            lowered = text.strip().lower()
            if lowered in ("on", "true", "1", "yes"):
                return True
            if lowered in ("off", "false", "0", "no"):
                return False
            raise ValueError(f"expected on/off, got {text!r}")
        try:
            value = self.kind(text)
        except ValueError:
            raise ValueError(
                f"expected {'an integer' if self.kind is int else 'a number'}, got {text!r}"
            ) from None
        return self.check(value)

    def check(self, value: Any) -> Any:
        if self.kind is bool:
            return bool(value)
        if not (self.minimum <= value <= self.maximum):  # also rejects NaN
            raise ValueError(
                f"{value} is outside {self.minimum:g}…{self.maximum:g} {self.unit}".rstrip()
            )
        return value


_DECLARED = (
    Parameter(
        "passes", "Solver passes", "", 1, 200, 1,
        "Gauss–Seidel passes over every link per step; more passes leave less stretch.", int,
    ),
    Parameter(
        "stiffness", "Stiffness", "", 0.0, 1.0, 0.01,
        "Fraction of each link's length error corrected per visit "
        "(a solver setting, not a fabric property).",
    ),
    Parameter(
        "damping", "Damping", "", 0.0, 1.0, 0.001,
        "Fraction of the last step's motion kept by the Verlet predict (0.994 classic).",
    ),
    Parameter("gravity", "Gravity", "units/s²", 0.0, 100.0, 0.1, "Downward acceleration (−y)."),
    Parameter(
        "wind", "Wind", "units/s²", -100.0, 100.0, 0.1,
        "Gusting acceleration along +z: wind·(0.6 + 0.4·sin(2t + x)).",
    ),
    Parameter(
        "dt", "Time step", "s", 1e-4, 0.05, 1e-4,
        "Model time advanced per step (1/120 s in the classic model).",
    ),
    Parameter(
        "solver_mode", "Link order", "", 0, 3, 1,
        "Order of the Gauss–Seidel passes: automatic (classic order on small sheets, colour "
        "order on two threads from 20 000 links), the classic family order, or independent "
        "sets (colours) on one or two threads.", int, "Classic model",
        ("automatic", "classic order", "colour order", "colour order, 2 threads"),
    ),
    Parameter("ball", "Ball", "", 0, 1, 1, "Collide free particles with the ball.", bool),
    Parameter("ball_radius", "Ball radius", "units", 0.01, 10.0, 0.01, "Radius of the ball."),
    Parameter("floor", "Floor", "", 0, 1, 1, "Keep every particle above the floor.", bool),
    Parameter("floor_y", "Floor height", "units", -100.0, 100.0, 0.05, "Height of the floor (y)."),
)  # fmt: skip

_BEYOND = "Beyond classic"
_EXTENSIONS = (
    Parameter(
        "xpbd", "XPBD", "", 0, 1, 1,
        "Extended PBD: links get a compliance instead of a stiffness factor, so their "
        "stretch no longer depends on passes or time step.", bool, _BEYOND,
    ),
    Parameter(
        "compliance", "Link compliance", "units/force", 0.0, 1e-1, 1e-6,
        "XPBD: inverse stiffness of every link (0 = inextensible).", float, _BEYOND,
    ),
    Parameter(
        "substeps", "Substeps", "", 1, 64, 1,
        "Steps of Δt/substeps each, every one a full predict and passes.", int, _BEYOND,
    ),
    Parameter(
        "tethers", "Tethers", "", 0, 1, 1,
        "Long-range attachments: no particle may get further from a pin than its distance "
        "along the cloth at rest.", bool, _BEYOND,
    ),
    Parameter(
        "bending", "Bending", "", 0, 1, 1,
        "Skip-one links across and down the sheet resist folding.", bool, _BEYOND,
    ),
    Parameter(
        "bend_compliance", "Bend compliance", "units/force", 0.0, 10.0, 1e-3,
        "Inverse stiffness of the bending links (0 = rigid).", float, _BEYOND,
    ),
    Parameter(
        "friction_static", "Static friction", "", 0.0, 2.0, 0.01,
        "Coulomb static coefficient on the ball and the floor (0 = classic, none).",
        float, _BEYOND,
    ),
    Parameter(
        "friction_kinetic", "Kinetic friction", "", 0.0, 2.0, 0.01,
        "Coulomb kinetic coefficient on the ball and the floor.", float, _BEYOND,
    ),
    Parameter(
        "aerodynamic", "Aerodynamic wind", "", 0, 1, 1,
        "Wind as air moving at `wind` units/s, pressing on each triangle by its normal and "
        "its own motion, instead of a uniform push.", bool, _BEYOND,
    ),
    Parameter(
        "wind_yaw", "Wind heading", "°", -180.0, 180.0, 1.0,
        "Aerodynamic wind direction about +y: 0° blows along +z, 90° along +x.",
        float, _BEYOND,
    ),
    Parameter(
        "drag", "Drag", "1/units", 0.0, 10.0, 0.01,
        "Aerodynamic pressure coefficient along the triangle normal (per unit area, mass 1).",
        float, _BEYOND,
    ),
    Parameter(
        "lift", "Lift", "1/units", 0.0, 10.0, 0.01,
        "Aerodynamic coefficient across the flow, in the plane of the triangle.",
        float, _BEYOND,
    ),
    Parameter(
        "tearing", "Tearing", "", 0, 1, 1,
        "A link breaks when stretched past the tear ratio.", bool, _BEYOND,
    ),
    Parameter(
        "tear_ratio", "Tear ratio", "× rest", 1.05, 20.0, 0.05,
        "Length, in rest lengths, at which a link tears.", float, _BEYOND,
    ),
    Parameter(
        "volume_constraint", "Keep volume", "", 0, 1, 1,
        "Every tetrahedron of the soft block keeps its rest volume.", bool, _BEYOND,
    ),
    Parameter(
        "self_collision", "Self-collision", "", 0, 1, 1,
        "Particles keep at least the collision distance apart (unless closer at rest).",
        bool, _BEYOND,
    ),
    Parameter(
        "collision_distance", "Collision distance", "units", 0.005, 1.0, 0.005,
        "Minimum distance between particles under self-collision.", float, _BEYOND,
    ),
)  # fmt: skip
PARAMETERS: dict[str, Parameter] = {p.key: p for p in (*_DECLARED, *_EXTENSIONS)}


@dataclass(frozen=True)
class Settings:
    """Everything the step kernel reads besides positions and topology."""

    passes: int = 8
    stiffness: float = 1.0
    damping: float = 0.994
    gravity: float = 9.8
    wind: float = 0.0
    dt: float = 1.0 / 120.0
    solver_mode: int = 0  # sim.ordering: automatic, classic order, colour order, 2 threads
    ball: bool = False
    ball_center: tuple[float, float, float] = (0.0, -0.6, 0.0)
    ball_radius: float = 0.5
    floor: bool = True
    floor_y: float = -1.6
    # Beyond the classic model; every default leaves the seed's model exactly as it is.
    xpbd: bool = False
    compliance: float = 1e-5
    substeps: int = 1
    tethers: bool = False
    bending: bool = False
    bend_compliance: float = 0.05
    friction_static: float = 0.0
    friction_kinetic: float = 0.0
    aerodynamic: bool = False
    wind_yaw: float = 0.0
    drag: float = 0.5
    lift: float = 0.1
    tearing: bool = False
    tear_ratio: float = 2.2
    volume_constraint: bool = False
    self_collision: bool = False
    collision_distance: float = 0.08

    @property
    def is_classic(self) -> bool:
        """True when only the seed's model is switched on (the fast classic kernel applies)."""
        return not (
            self.xpbd or self.substeps > 1 or self.tethers or self.bending or self.aerodynamic
            or self.tearing or self.volume_constraint or self.self_collision
            or self.friction_static > 0.0 or self.friction_kinetic > 0.0
        )  # fmt: skip

    def with_value(self, key: str, value: Any) -> Settings:
        """A copy with one setting changed, range-checked where the setting is declared."""
        if key not in {f.name for f in fields(self)}:
            raise KeyError(key)
        if key in PARAMETERS:
            value = PARAMETERS[key].check(value)
        if key == "ball_center":
            value = tuple(float(v) for v in value)
        return replace(self, **{key: value})
