"""The textile lab's specimens, recognised in a scene by how they are held, and what a lab
measures on them: a cantilever's droop (ASTM D1388) and a hanging strip's elongation.

A cantilever is the first sheet lying flat, clamped along whole rows at its start and free
beyond (sim.lab.textile builds one); a hanging strip is the first sheet hanging in a vertical
plane from its whole top row and nothing else. Recognising them by their pins rather than by a
mark in the file keeps every scene a plain scene: a user who clamps a strip has a cantilever.
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

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


# id(topology) → {pins bytes: (cantilever, strip)}, while the topology lives
_FOUND: dict[int, dict[bytes, tuple[Cantilever | None, HangingStrip | None]]] = {}


def specimens(sim: Simulation) -> tuple[Cantilever | None, HangingStrip | None]:
    """The simulation's cantilever and hanging strip, if it holds one, found once per pins."""
    topology, pins = sim.topology, sim.state.pin_index
    key = id(topology)
    if key not in _FOUND:
        _FOUND[key] = {}
        weakref.finalize(topology, _FOUND.pop, key, None)
    found = _FOUND[key]
    if pins.tobytes() not in found:
        found.clear()  # pins change rarely; keep one entry
        found[pins.tobytes()] = (
            find_cantilever(topology, pins),
            find_hanging_strip(topology, pins),
        )
    return found[pins.tobytes()]


def tip_drop(sim: Simulation) -> float:
    """How far the free end hangs below the platform's edge, m; NaN without a cantilever."""
    cantilever = specimens(sim)[0]
    if cantilever is None:
        return math.nan
    y = sim.state.x[:, 1]
    return float(y[cantilever.edge].mean() - y[cantilever.tip].mean())


def chord_angle(sim: Simulation) -> float:
    """Degrees below horizontal of the line from the platform's edge to the tip."""
    cantilever = specimens(sim)[0]
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
    cantilever = specimens(sim)[0]
    if cantilever is None:
        return math.nan
    return peirce_bending_length(cantilever.overhang, chord_angle(sim))


def elongation(sim: Simulation) -> float:
    """How much longer a hanging strip is than at rest, m (top row to bottom row)."""
    strip = specimens(sim)[1]
    if strip is None:
        return math.nan
    y = sim.state.x[:, 1]
    return float(y[strip.top].mean() - y[strip.bottom].mean()) - strip.length


def pin_force(sim: Simulation) -> float:
    """|Σ of the pins' forces on the cloth|, N with SI materials; NaN where not measured."""
    forces = sim.pin_forces()
    if forces is None or len(forces) == 0:
        return math.nan
    return float(np.linalg.norm(forces.sum(axis=0)))
