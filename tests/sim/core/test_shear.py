"""Shear in the default fabric solver: each cell's shear condition (constraints.
project_cell_shear), measured as a textile lab would, by the force a patch sheared between two
clamps puts on them."""

import pytest

from clothlab.sim.core.materials import SI_FABRICS
from clothlab.sim.document.scene import (
    PinSpec,
    Scene,
    SheetSpec,
    SIMaterialSpec,
    build_simulation,
    build_topology,
    with_settings,
)
from clothlab.sim.lab import textile

WIDTH, HEIGHT, COLS, ROWS = 1.0, 0.2, 51, 11


def sheared_force(shear: float, offset: float) -> float:
    """The sideways force (N) on the moved clamp of a cotton patch WIDTH × HEIGHT with that
    shear stiffness, its top row clamped and its bottom row clamped `offset` metres aside,
    settled without gravity."""
    material = SI_FABRICS["cotton"].with_values(shear=shear)
    patch = SheetSpec(
        name="patch", cols=COLS, rows=ROWS, width=WIDTH, height=HEIGHT,
        top_center=(0.0, 1.0, 0.0), si_material=SIMaterialSpec.of("custom", material),
    )  # fmt: skip
    rest = build_topology(Scene(bodies=[patch])).rest_positions
    bottom = range(COLS * (ROWS - 1), COLS * ROWS)
    pins = [PinSpec(particle=p, anchor=tuple(rest[p])) for p in range(COLS)] + [
        PinSpec(particle=p, anchor=(rest[p][0] + offset, rest[p][1], rest[p][2])) for p in bottom
    ]
    scene = Scene(name="Shear", bodies=[patch], pins=pins)
    sim = build_simulation(with_settings(scene, {"gravity": 0.0, "damping": textile.TEST_DAMPING}))
    sim.step(360)
    forces = sim.forces()
    assert forces is not None
    return float(forces.pin_force[COLS:, 0].sum())


@pytest.mark.parametrize("shear", [11.0, 56.0, 110.0])
def test_a_patch_sheared_between_clamps_reads_its_shear_stiffness(shear):
    """Simple shear γ = offset / height: the clamp holds G·γ·width (silk's, cotton's and
    denim's G on cotton's k). The warp, turned by γ, stretches too and adds k·γ²/(2·G) of the
    force: at γ = 0.0025, 0.6 % for G = 11 N/m (2.3 % at twice the offset). The free sides
    carry no shear, which takes a strip along each off the total: the stiffer the shear against
    the stretch, the wider (G = 2 000 N/m, leather's, reads 3 % low on this patch)."""
    offset = 0.0005
    assert sheared_force(shear, offset) == pytest.approx(shear * offset / HEIGHT * WIDTH, rel=0.02)
