"""A scene's unit system, decided here once, and the name of every unit in it.

A run measures in one of two systems. A scene whose every body has an SI fabric gives its
particles their masses in kg and its lengths in metres, so it runs in SI units: lengths in m,
speeds in m/s, forces in N, energies in J. Any other scene runs in the classic model's units:
lengths in "units" (which behave as metres: gravity is 9.8 units/s²) and a mass of 1 a particle,
so a force is in mass·units/s² and an energy in mass·units²/s², never newtons or joules.

Every readout, probe column and setting declares its unit once, in the model's spelling; the
CSV header, the API's `Table.units`, the plots and the panels all name it with `shown_in` for
the scene's system (`is_si`), so they cannot disagree.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

# The model's units (as declared), each with its SI counterpart. Units not listed (s, °, %,
# "fraction", the counts' "") are the same in both systems.
LENGTH: Final = "units"
SPEED: Final = "units/s"
ACCELERATION: Final = "units/s²"
FORCE: Final = "mass·units/s²"
FORCE_PER_LENGTH: Final = "mass/s²"
ENERGY: Final = "mass·units²/s²"
SI_UNITS: Final = {
    LENGTH: "m",
    "units³": "m³",
    SPEED: "m/s",
    ACCELERATION: "m/s²",
    "units/force": "m/N",
    "1/units": "1/m",
    FORCE: "N",
    FORCE_PER_LENGTH: "N/m",
    ENERGY: "J",
    f"{ENERGY} per step": "J per step",
}
# A CSV header stays ASCII, as it was before it had units: a spreadsheet that takes UTF-8 for
# its own code page would show "unitsÂ³".
_ASCII = str.maketrans({"²": "^2", "³": "^3", "·": "*", "°": "deg"})


def is_si(si_materials: Iterable[object | None]) -> bool:
    """Whether a run whose bodies have these SI materials (None: a body without one) is in SI
    units: there is a body and every one has an SI material. Otherwise it is in the model's
    units: a particle of a body without an SI material has mass 1, so no force of the run is
    in newtons."""
    materials = list(si_materials)
    return bool(materials) and all(material is not None for material in materials)


def shown_in(unit: str, si: bool) -> str:
    """`unit` (declared in the model's spelling) as a run in SI units (`si`) or in the model's
    units names it."""
    return SI_UNITS.get(unit, unit) if si else unit


def ascii_unit(unit: str) -> str:
    """A unit as a CSV header writes it: "mass·units/s²" → "mass*units/s^2"."""
    return unit.translate(_ASCII)
