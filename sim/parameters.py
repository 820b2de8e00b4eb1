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
    Parameter("ball", "Ball", "", 0, 1, 1, "Collide free particles with the ball.", bool),
    Parameter("ball_radius", "Ball radius", "units", 0.01, 10.0, 0.01, "Radius of the ball."),
    Parameter("floor", "Floor", "", 0, 1, 1, "Keep every particle above the floor.", bool),
    Parameter("floor_y", "Floor height", "units", -100.0, 100.0, 0.05, "Height of the floor (y)."),
)  # fmt: skip
PARAMETERS: dict[str, Parameter] = {p.key: p for p in _DECLARED}


@dataclass(frozen=True)
class Settings:
    """Everything the step kernel reads besides positions and topology."""

    passes: int = 8
    stiffness: float = 1.0
    damping: float = 0.994
    gravity: float = 9.8
    wind: float = 0.0
    dt: float = 1.0 / 120.0
    ball: bool = False
    ball_center: tuple[float, float, float] = (0.0, -0.6, 0.0)
    ball_radius: float = 0.5
    floor: bool = True
    floor_y: float = -1.6

    def with_value(self, key: str, value: Any) -> Settings:
        """A copy with one setting changed, range-checked where the setting is declared."""
        if key not in {f.name for f in fields(self)}:
            raise KeyError(key)
        if key in PARAMETERS:
            value = PARAMETERS[key].check(value)
        if key == "ball_center":
            value = tuple(float(v) for v in value)
        return replace(self, **{key: value})
