"""A model that has come to rest where it cannot have meant to: tangled or turned inside out,
far more stretched than the same scene rests from its start, and still. A change of settings
can leave it so (stiffness near 0 lets a sheet fall through itself; raised again, the links
hold it tangled for good), and nothing in the model will undo it.

`StuckWatch` watches the readouts of each step for a state at rest with a large stretch; then
`rests_from_start` runs the same model from rest, to tell a tangle (it rests far less stretched
from the start) from a scene that is simply stretched (caught on the ball, a heavy load, a low
stiffness on purpose), which it would rest in from the start too.
"""

from __future__ import annotations

import math

import numpy as np

from clothlab.sim.core.solver import Simulation

AT_REST_MOTION = 0.01  # units/s: mean particle speed below this is at rest
AT_REST_FOR_S = 1.0  # of model time, before a state at rest is looked at
SUSPECT_STRETCH = 0.25  # max stretch above this, at rest, is worth the check
FROM_START_S = 8.0  # model time the check runs the model from rest, at most
TANGLED_RATIO = 2.0  # stuck: stretched more than this × the stretch it rests in from the start
CHECK_MAX_LINKS = 20_000  # bigger models are not checked: the run from rest would take seconds


class StuckWatch:
    """Fed the readouts of each recorded step; says once when a state deserves the check."""

    def __init__(self) -> None:
        self._at_rest_since: float | None = None
        self._looked = False  # at this rest already: say nothing until the model moves again

    def observe(self, t: float, motion: float, max_stretch: float) -> bool:
        if not (motion < AT_REST_MOTION and max_stretch > SUSPECT_STRETCH):
            self._at_rest_since, self._looked = None, False
            return False
        if self._at_rest_since is None:
            self._at_rest_since = t
        if self._looked or t - self._at_rest_since < AT_REST_FOR_S:
            return False
        self._looked = True
        return True


def rests_from_start(sim: Simulation) -> float:
    """The max stretch the same model (topology, settings, pins, cuts, tears, materials,
    obstacles) comes to rest with when started from its rest shape."""
    fresh = Simulation(
        sim.topology, sim.settings, sim.pins, np.flatnonzero(sim.cut), sim.torn, sim.materials,
        sim.spheres, sim.boxes,
    )  # fmt: skip
    at_rest = 0
    for _ in range(math.ceil(FROM_START_S / sim.settings.dt)):
        if fresh.step(1) == 0:
            break
        readouts = fresh.readouts()
        at_rest = at_rest + 1 if readouts.motion < AT_REST_MOTION else 0
        if at_rest * sim.settings.dt >= AT_REST_FOR_S:
            break
    return float(fresh.readouts().max_stretch)


def stuck_message(sim: Simulation) -> str | None:
    """A one-line message if `sim` (at rest, stretched) is stuck, else None."""
    if sim.links.count > CHECK_MAX_LINKS:
        return None
    now, from_start = float(sim.readouts().max_stretch), rests_from_start(sim)
    if now <= TANGLED_RATIO * max(from_start, 0.01):
        return None
    return f"Stuck: at rest with {100 * now:.0f} % stretch, {100 * from_start:.0f} % from the start"
