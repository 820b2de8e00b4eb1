"""The instability guard: recent good states to fall back on, and what to tell the user.

The kernels check the state's health as their predict loop reads each particle (no extra
pass); when one reports a problem the simulation puts back the newest good state from here.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from clothlab.sim.core.parameters import Settings

import numpy as np

from clothlab.sim.core import kernels
from clothlab.sim.core.parameters import Settings

GOOD_STATE_EVERY = 30  # steps between the states kept for recovery (a quarter second)
GOOD_STATES_KEPT = 4

_HEALTH_TEXT = {
    kernels.NOT_FINITE: "positions became NaN or infinite",
    kernels.TOO_FAR: f"a particle flew beyond {kernels.MAX_COORDINATE:g} units",
    kernels.TOO_FAST: f"a particle moved faster than {kernels.MAX_SPEED:g} units/s",
}


@dataclass(frozen=True)
class Instability:
    """A blow-up caught by the step: when, what, and the step restored."""

    step: int
    health: int  # kernels.NOT_FINITE, TOO_FAR or TOO_FAST
    restored_step: int
    advice: str

    @property
    def message(self) -> str:
        what = _HEALTH_TEXT.get(self.health, "the state became invalid")
        return (
            f"The model became unstable at step {self.step}: {what}. Restored step "
            f"{self.restored_step}. Likely cause: {self.advice}"
        )


def likely_cause(s: Settings) -> str:
    """The setting most likely to blame, and what to change (checked in order of likelihood)."""
    if s.dt > 1.0 / 60.0:
        return f"a long time step ({s.dt:.4g} s); try 1/120 s or more substeps."
    if abs(s.wind) > 50.0 or s.gravity > 50.0:
        return "very strong wind or gravity; lower them or take a shorter time step."
    if s.damping > 0.9995:
        return "almost no damping; lower damping below 0.999."
    if s.xpbd and s.compliance == 0.0 and s.passes < 4:
        return "rigid XPBD links with few passes; raise the passes or the compliance."
    return "a sudden large edit (a pin or the ball moved far in one step); undo it or reset."


@dataclass(frozen=True)
class GoodState:
    steps: int
    t: float
    x: np.ndarray  # (N, 3) float64, a copy
    x_prev: np.ndarray  # (N, 3) float64, a copy


class GoodStates:
    """A ring of the last few finite states, one every GOOD_STATE_EVERY steps."""

    def __init__(self, rest_positions: np.ndarray) -> None:
        self._rest = rest_positions  # (N, 3) float64: the fallback before any state was kept
        self._ring: deque[GoodState] = deque(maxlen=GOOD_STATES_KEPT)

    def remember(self, steps: int, t: float, x: np.ndarray, x_prev: np.ndarray) -> None:
        if steps % GOOD_STATE_EVERY == 0 and np.isfinite(x).all() and np.isfinite(x_prev).all():
            self._ring.append(GoodState(steps, t, x.copy(), x_prev.copy()))

    def start_from(self, steps: int, t: float, x: np.ndarray, x_prev: np.ndarray) -> None:
        """Forget the states kept and keep this one: the model was put in a state of its
        caller's (Simulation.set_positions), and an earlier one is no longer its past."""
        self._ring.clear()
        self._ring.append(GoodState(steps, t, x.copy(), x_prev.copy()))

    def newest(self) -> GoodState:
        if self._ring:
            return self._ring[-1]
        return GoodState(0, 0.0, self._rest, self._rest)
