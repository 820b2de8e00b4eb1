"""Probes: what an instrument attached to one particle reads.

A probe reads its particle's height y, its speed |x − x_prev| / h (h = Δt / substeps, since
x_prev is one substep back: the speed the Motion readout averages) and, where the solver's
forces are given, the largest tension among the live links at it. Up to MAX_PROBES per scene,
numbered from 1 in the order they were attached (probe1_y, …); the scene file keeps them as a
list of particle indices (sim.document.scene).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np

from clothlab.sim.core import units as unit_names
from clothlab.sim.text import QT_TR_NOOP, tr

MAX_PROBES: Final = 4
QUANTITIES: Final = ("y", "speed", "tension")  # what each probe reads, its columns' order
# Units as measured, in the model's spelling: a run in SI units names them with
# sim.core.units.shown_in (m, m/s, N), a CSV header with ascii_unit.
UNITS: Final = {"y": unit_names.LENGTH, "speed": unit_names.SPEED, "tension": unit_names.FORCE}
LABELS: Final = {
    "y": QT_TR_NOOP("Height"),
    "speed": QT_TR_NOOP("Speed"),
    "tension": QT_TR_NOOP("Tension around"),
}


@dataclass(frozen=True)
class ProbeReading:
    """What one probe reads at one moment. NaN tension: no forces were measured."""

    particle: int
    y: float  # units
    speed: float  # units/s
    tension: float  # mass·units/s² (N in SI runs); NaN without forces


# (particle) → the largest tension at it, or None when the forces are not known
TensionAround = Callable[[int], float] | None


def read(
    particle: int,
    x: np.ndarray,  # (N, 3) float64
    x_prev: np.ndarray,  # (N, 3) float64, one substep back
    substep: float,  # s: Δt / substeps
    tension_around: TensionAround = None,
) -> ProbeReading:
    """One probe's reading of a state."""
    speed = float(np.linalg.norm(x[particle] - x_prev[particle])) / substep
    tension = math.nan if tension_around is None else float(tension_around(particle))
    return ProbeReading(int(particle), float(x[particle, 1]), speed, tension)


def read_all(
    probes: Sequence[int],
    x: np.ndarray,
    x_prev: np.ndarray,
    substep: float,
    tension_around: TensionAround = None,
) -> list[ProbeReading]:
    return [read(p, x, x_prev, substep, tension_around) for p in probes]


def values(readings: Sequence[ProbeReading], slots: int) -> tuple[float, ...]:
    """The readings as one row of `slots` probes' columns (column_keys), NaN for a slot
    without a probe."""
    cells: list[float] = []
    for k in range(slots):
        if k < len(readings):
            reading = readings[k]
            cells += [getattr(reading, quantity) for quantity in QUANTITIES]
        else:
            cells += [math.nan] * len(QUANTITIES)
    return tuple(cells)


def column_key(number: int, quantity: str) -> str:
    """A probe's column: probe 1's height is "probe1_y"."""
    return f"probe{number}_{quantity}"


def column_keys(slots: int) -> tuple[str, ...]:
    """The columns of `slots` probes: probe1_y, probe1_speed, probe1_tension, probe2_y, …"""
    return tuple(column_key(k + 1, q) for k in range(slots) for q in QUANTITIES)


def header_names(slots: int, si: bool = False) -> tuple[str, ...]:
    """The columns' names in a CSV header, with their units as the readouts' are written
    (`si`: a run in SI units, sim.lab.engine.in_si_units)."""
    named = units(slots, si)
    return tuple(f"{key} ({unit_names.ascii_unit(unit)})" for key, unit in named.items())


def unit_of(quantity: str, si: bool = False) -> str:
    """The unit a probe's quantity is in, for a run in SI units (`si`) or in model units."""
    return unit_names.shown_in(UNITS[quantity], si)


def units(slots: int, si: bool = False) -> dict[str, str]:
    """Each probe column's unit, in column order."""
    return {column_key(k + 1, q): unit_of(q, si) for k in range(slots) for q in QUANTITIES}


def csv_cells(row: Sequence[float]) -> list[str]:
    """Text cells of a row of probe values: round-trip exact, NaN empty (as the readouts')."""
    return ["" if math.isnan(value) else repr(float(value)) for value in row]


def after_change(probes: Sequence[int], particle: int, add: bool, slot: int) -> tuple[int, ...]:
    """The probes after one is attached to `particle` at `slot` (add) or taken off it. Raises
    ValueError, one line, when the change does not fit: a fifth probe, a particle probed
    twice, or one not probed."""
    listed = list(probes)
    if add:
        if particle in listed:
            raise ValueError(
                tr("particle {particle} has a probe already").format(particle=particle)
            )
        if len(listed) >= MAX_PROBES:
            raise ValueError(
                tr("at most {count} probes: take one off first").format(count=MAX_PROBES)
            )
        if not 0 <= slot <= len(listed):
            raise ValueError(
                tr("probe slot {slot} is not within 0…{last}").format(slot=slot, last=len(listed))
            )
        listed.insert(slot, particle)
    else:
        if particle not in listed:
            raise ValueError(tr("particle {particle} has no probe").format(particle=particle))
        listed.remove(particle)
    return tuple(listed)
