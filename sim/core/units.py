"""The model's units and what they are in SI units.

The classic model's units behave as metres and seconds, with mass 1 a particle. A run whose
every body has an SI fabric (sim.lab.engine.in_si_units) gives its particles their masses in kg,
so its units are SI units: lengths in m, speeds in m/s, energies in J. Forces read N either way.
"""

from __future__ import annotations

from typing import Final

SI_UNITS: Final = {
    "units": "m",
    "units³": "m³",
    "units/s": "m/s",
    "units/s²": "m/s²",
    "units/force": "m/N",
    "mass·units²/s²": "J",
    "mass·units²/s² per step": "J per step",
}


def shown_in(unit: str, si: bool) -> str:
    """`unit` as a run in SI units (`si`) or in model units names it."""
    return SI_UNITS.get(unit, unit) if si else unit
