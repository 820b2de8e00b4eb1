"""Fabric presets: sensible settings beyond the classic model for familiar materials, for the
whole world (`clothlab run --set fabric=…`, sim.lab.variants) or for one body (its material).

Values are in model units (a particle per 0.2 × 0.2 units, mass 1) and were chosen by eye and by
the droop test in RESEARCH.md, not measured from real cloth. XPBD's compliance law holds only
once the solver has converged, so each fabric takes small substeps of one or two passes (as the
XPBD authors recommend) and its settled stretch is within 2 % of the converged one on the
default sheet (tests/sim/core/test_beyond_classic.py); stiffer fabrics need more substeps.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from clothlab.sim.text import QT_TR_NOOP, tr


@dataclass(frozen=True)
class Fabric:
    """A fabric preset in model units: its name as the app shows it (translated where shown,
    fabric_label), the world settings it stands for (`--set fabric=…`), and the classic rule's
    stiffness of a body made of it (ordered from stretchy to stiff, chosen by eye at 8 passes;
    its XPBD compliance is the settings'). A body's material sets its own links only."""

    label: str
    settings: Mapping[str, Any]
    stiffness: float

    @property
    def compliance(self) -> float:
        return float(self.settings["compliance"])


FABRICS: dict[str, Fabric] = {
    # light and stretchy, folds at nothing, little air resistance lost to damping
    "silk": Fabric(QT_TR_NOOP("silk"), {
        "xpbd": True, "compliance": 2e-4, "bending": True, "bend_compliance": 1.0,
        "damping": 0.996, "friction_static": 0.2, "friction_kinetic": 0.15, "substeps": 16,
        "passes": 1}, 0.3),
    "cotton": Fabric(QT_TR_NOOP("cotton"), {
        "xpbd": True, "compliance": 5e-5, "bending": True, "bend_compliance": 0.05,
        "damping": 0.994, "friction_static": 0.5, "friction_kinetic": 0.4, "substeps": 16,
        "passes": 1}, 0.6),
    "denim": Fabric(QT_TR_NOOP("denim"), {
        "xpbd": True, "compliance": 1e-5, "bending": True, "bend_compliance": 5e-3,
        "damping": 0.99, "friction_static": 0.7, "friction_kinetic": 0.5, "substeps": 16,
        "passes": 1}, 0.9),
    "leather": Fabric(QT_TR_NOOP("leather"), {
        "xpbd": True, "compliance": 2e-6, "bending": True, "bend_compliance": 5e-4,
        "damping": 0.985, "friction_static": 0.8, "friction_kinetic": 0.6, "substeps": 32,
        "passes": 2}, 1.0),
    # inextensible and stiff to fold; more passes to hold the bending links
    "paper": Fabric(QT_TR_NOOP("paper"), {
        "xpbd": True, "compliance": 0.0, "bending": True, "bend_compliance": 0.0,
        "substeps": 32, "passes": 2, "damping": 0.99, "friction_static": 0.4,
        "friction_kinetic": 0.3}, 1.0),
}  # fmt: skip


def body_link_properties(
    material: str | None, stiffness: float | None, world_stiffness: float, world_compliance: float
) -> tuple[float, float]:
    """(stiffness, compliance) of a body's links: its own stiffness over its material's over
    the world's; compliance from its material, else the world's."""
    if material is None:
        return (world_stiffness if stiffness is None else stiffness), world_compliance
    fabric = FABRICS[material]
    return (fabric.stiffness if stiffness is None else stiffness), fabric.compliance


# The names of the fabrics measured in SI units only (sim.core.materials.SI_FABRICS), which
# have no preset here; the keys stay the names in scene files and on the command line.
SI_ONLY_NAMES: dict[str, str] = {"wool": QT_TR_NOOP("wool"), "polyester": QT_TR_NOOP("polyester")}
FABRIC_NAMES: dict[str, str] = {
    **{name: fabric.label for name, fabric in FABRICS.items()},
    **SI_ONLY_NAMES,
}


def fabric_label(name: str) -> str:
    """A fabric's name as the app shows it: a preset's in the app's language, a user's own as
    it was given."""
    return tr(FABRIC_NAMES[name]) if name in FABRIC_NAMES else name
