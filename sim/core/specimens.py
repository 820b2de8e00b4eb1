"""The textile lab's specimens, recognised in a scene by how they are held, and what a lab
measures on them: a cantilever's droop (ASTM D1388), a hanging strip's elongation and a drape
specimen's drape coefficient and folds (Cusick; sim.core.drape measures the shadow).

A cantilever is the first sheet lying flat, clamped along whole rows at its start and free
beyond (sim.lab.textile builds one); a hanging strip is the first sheet hanging in a vertical
plane from its whole top row and nothing else; a drape specimen is the first disc held over a
round region in its middle and nothing else. Recognising them by their pins rather than by a
mark in the file keeps every scene a plain scene: a user who clamps a strip has a cantilever.
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from clothlab.sim.core import drape
from clothlab.sim.core.topology import SheetGrid, Topology

if TYPE_CHECKING:
    from clothlab.sim.core.solver import Simulation


@dataclass(frozen=True, eq=False)
class Cantilever:
    edge: np.ndarray  # (C,) int64, the clamp's last row: on the platform's edge
    tip: np.ndarray  # (C,) int64, the free end
    overhang: float  # rest length from the edge row to the tip row, m


@dataclass(frozen=True, eq=False)
class HangingStrip:
    top: np.ndarray  # (C,) int64, the clamped row
    bottom: np.ndarray  # (C,) int64
    length: float  # rest distance from the top row to the bottom row, m


@dataclass(frozen=True, eq=False)
class DrapeSpecimen:
    body: int  # the disc's index among the bodies
    support_radius: float  # m: midway between the held particles and the free ones
    area: float  # m², the disc mesh's at rest: what reads 100 % flat


@dataclass(frozen=True, eq=False)
class Specimens:
    cantilever: Cantilever | None
    strip: HangingStrip | None
    drape: DrapeSpecimen | None


def _rows(grid: SheetGrid) -> np.ndarray:
    """(rows, cols) int64 particle indices of a sheet."""
    return grid.first_particle + np.arange(grid.particle_count).reshape(grid.rows, grid.cols)


def _clamped_rows(grid: SheetGrid, pins: np.ndarray) -> int:
    """How many whole rows from the first the pins hold, if they hold exactly those and
    nothing else of the sheet; 0 otherwise."""
    rows = _rows(grid)
    held = np.isin(rows, pins)
    count = int(np.argmin(held.all(axis=1))) if not held.all() else grid.rows
    whole = held[:count].all() and not held[count:].any()
    return count if whole and int(np.count_nonzero(held)) == len(pins) else 0


def find_cantilever(topology: Topology, pins: np.ndarray) -> Cantilever | None:
    if not topology.sheets:
        return None
    grid = topology.sheets[0]
    clamped = _clamped_rows(grid, pins)
    rest = topology.rest_positions
    rows = _rows(grid)
    if not 1 <= clamped < grid.rows - 1 or np.ptp(rest[rows, 1]) > 1e-9:
        return None
    edge, tip = rows[clamped - 1], rows[-1]
    overhang = float(np.linalg.norm(rest[tip].mean(axis=0) - rest[edge].mean(axis=0)))
    return Cantilever(edge=edge, tip=tip, overhang=overhang)


def find_hanging_strip(topology: Topology, pins: np.ndarray) -> HangingStrip | None:
    if not topology.sheets:
        return None
    grid = topology.sheets[0]
    rest = topology.rest_positions
    rows = _rows(grid)
    if _clamped_rows(grid, pins) != 1 or np.ptp(rest[rows[0], 1]) > 1e-9:
        return None
    if np.ptp(rest[rows, 1]) <= 1e-9:  # lying flat: not hanging
        return None
    length = float(rest[rows[0], 1].mean() - rest[rows[-1], 1].mean())
    return HangingStrip(top=rows[0], bottom=rows[-1], length=length)


def find_drape(topology: Topology, pins: np.ndarray) -> DrapeSpecimen | None:
    if not topology.discs:
        return None
    disc = topology.discs[0]
    particles = np.arange(disc.first_particle, disc.first_particle + disc.particle_count)
    held = np.isin(particles, pins)
    if not held.any() or held.all() or int(np.count_nonzero(held)) != len(pins):
        return None
    rest = topology.rest_positions[particles]
    r = np.hypot(rest[:, 0] - disc.center[0], rest[:, 2] - disc.center[2])
    inner, outer = float(r[held].max()), float(r[~held].min())
    if inner >= outer:
        return None
    body = next(k for k, b in enumerate(topology.bodies) if b.first_particle == particles[0])
    area = drape.specimen_area(topology, disc)
    return DrapeSpecimen(body=body, support_radius=0.5 * (inner + outer), area=area)


# id(topology) → {pins bytes: specimens}, while the topology lives
_FOUND: dict[int, dict[bytes, Specimens]] = {}


def specimens(sim: Simulation) -> Specimens:
    """The simulation's cantilever, hanging strip and drape specimen, found once per pins."""
    topology, pins = sim.topology, sim.state.pin_index
    key = id(topology)
    if key not in _FOUND:
        _FOUND[key] = {}
        weakref.finalize(topology, _FOUND.pop, key, None)
    found = _FOUND[key]
    if pins.tobytes() not in found:
        found.clear()  # pins change rarely; keep one entry
        found[pins.tobytes()] = Specimens(
            find_cantilever(topology, pins),
            find_hanging_strip(topology, pins),
            find_drape(topology, pins),
        )
    return found[pins.tobytes()]


def tip_drop(sim: Simulation) -> float:
    """How far the free end hangs below the platform's edge, m; NaN without a cantilever."""
    cantilever = specimens(sim).cantilever
    if cantilever is None:
        return math.nan
    y = sim.state.x[:, 1]
    return float(y[cantilever.edge].mean() - y[cantilever.tip].mean())


def chord_angle(sim: Simulation) -> float:
    """Degrees below horizontal of the line from the platform's edge to the tip."""
    cantilever = specimens(sim).cantilever
    if cantilever is None:
        return math.nan
    x = sim.state.x
    edge, tip = x[cantilever.edge].mean(axis=0), x[cantilever.tip].mean(axis=0)
    run = math.hypot(tip[0] - edge[0], tip[2] - edge[2])
    return math.degrees(math.atan2(edge[1] - tip[1], run))


def peirce_bending_length(overhang: float, chord_degrees: float) -> float:
    """Peirce's bending length c = l·(cos(θ/2) / (8·tan θ))^(1/3) from the overhang l and
    the chord angle θ (ASTM D1388 reads c at θ = 41.5°, where c = l/2); NaN at θ ≤ 0."""
    theta = math.radians(chord_degrees)
    if not 0.0 < theta < math.pi / 2:
        return math.nan
    return overhang * (math.cos(theta / 2) / (8 * math.tan(theta))) ** (1.0 / 3.0)


def bending_length(sim: Simulation) -> float:
    cantilever = specimens(sim).cantilever
    if cantilever is None:
        return math.nan
    return peirce_bending_length(cantilever.overhang, chord_angle(sim))


def elongation(sim: Simulation) -> float:
    """How much longer a hanging strip is than at rest, m (top row to bottom row)."""
    strip = specimens(sim).strip
    if strip is None:
        return math.nan
    y = sim.state.x[:, 1]
    return float(y[strip.top].mean() - y[strip.bottom].mean()) - strip.length


# The last shadow measured: (simulation id, step, its specimen's shadow). Both drape readouts
# read it, and the panels measure every readout of a step at once.
_SHADOW: list[tuple[int, int, drape.Shadow]] = []


def _shadow(sim: Simulation, specimen: DrapeSpecimen) -> drape.Shadow:
    key = (id(sim), sim.state.steps)
    if not _SHADOW or _SHADOW[0][:2] != key:
        _SHADOW[:] = [(*key, drape.disc_shadow(sim, specimen.body))]
    return _SHADOW[0][2]


def drape_coefficient(sim: Simulation) -> float:
    """%: the drape specimen's shadow's share of its overhanging ring; NaN without one."""
    specimen = specimens(sim).drape
    if specimen is None or not np.all(np.isfinite(sim.state.x)):
        return math.nan
    return drape.coefficient(_shadow(sim, specimen).area, specimen.area, specimen.support_radius)


def folds(sim: Simulation) -> float:
    """The drape specimen's folds (nodes) round its shadow's outline; NaN without one."""
    specimen = specimens(sim).drape
    if specimen is None or not np.all(np.isfinite(sim.state.x)):
        return math.nan
    return drape.fold_count_of(sim.topology, specimen.body, _shadow(sim, specimen))
