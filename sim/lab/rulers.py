"""Rulers: where a ruler's ends are in a state and how far apart, in the scene's length unit.

A ruler (sim.document.scene.RulerSpec) is part of the document; its length is not stored but
read from a state, so that a ruler between two particles follows the cloth as it moves. An end
on a particle is where the particle is now; an end on a point stays where it was put.
"""

from __future__ import annotations

import numpy as np

from clothlab.sim.core import units
from clothlab.sim.core.topology import Topology
from clothlab.sim.document.scene import RulerEnd, RulerSpec, Scene
from clothlab.sim.text import QT_TR_NOOP, tr

MODEL_UNIT = QT_TR_NOOP("units")  # units.LENGTH, translated where shown: length_text
SI_UNIT = units.shown_in(units.LENGTH, si=True)


def end_position(end: RulerEnd, x: np.ndarray) -> np.ndarray:
    """(3,) float64: the end's place in a state of positions x ((N, 3) float64)."""
    if end.particle is not None:
        return np.array(x[end.particle], dtype=np.float64)
    assert end.point is not None  # RulerEnd holds exactly one of the two
    return np.array(end.point, dtype=np.float64)


def ruler_points(ruler: RulerSpec, x: np.ndarray) -> np.ndarray:
    """(2, 3) float64: the ruler's start and end in the state x ((N, 3) float64)."""
    return np.stack([end_position(ruler.start, x), end_position(ruler.end, x)])


def ruler_length(ruler: RulerSpec, x: np.ndarray) -> float:
    """The distance between the ruler's ends in the state x ((N, 3) float64)."""
    start, end = ruler_points(ruler, x)
    return float(np.linalg.norm(end - start))


def ruler_lengths(rulers: list[RulerSpec], x: np.ndarray) -> np.ndarray:
    """(R,) float64: every ruler's length in the state x; NaN for a ruler whose particle the
    state does not hold (a scene edited to fewer particles than a ruler was put on)."""
    count = len(x)
    return np.array(
        [ruler_length(r, x) if fits(r, count) else np.nan for r in rulers], dtype=np.float64
    )


def fits(ruler: RulerSpec, particles: int) -> bool:
    """Whether each of the ruler's particle ends is one of `particles`."""
    return all(e.particle is None or e.particle < particles for e in (ruler.start, ruler.end))


def ruler_unit(scene: Scene, topology: Topology, ruler: RulerSpec) -> str:
    """The unit "m" where the ruler measures bodies given a fabric in SI units (their positions are
    metres), else the model's "units". An end on a particle says which body it measures; a
    ruler with no particle end measures the scene, in metres only if every body is SI."""
    particles = [e.particle for e in (ruler.start, ruler.end) if e.particle is not None]
    count = topology.particle_count
    if particles and all(p < count for p in particles):
        bodies = [scene.bodies[topology.body_of(p)] for p in particles]
    else:
        bodies = list(scene.bodies)
    return SI_UNIT if units.is_si(body.si_material for body in bodies) else MODEL_UNIT


def length_text(length: float, unit: str) -> str:
    """A ruler's label: "0.8400 units", "0.2500 m"; "—" for a ruler that cannot be read."""
    if not np.isfinite(length):
        return "—"
    return f"{length:.4f} {tr(unit)}"


def particle_end(particle: int) -> RulerEnd:
    return RulerEnd(particle=int(particle))


def point_end(point: np.ndarray | tuple[float, float, float]) -> RulerEnd:
    return RulerEnd(point=(float(point[0]), float(point[1]), float(point[2])))
