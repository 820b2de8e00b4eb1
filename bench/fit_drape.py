"""Fit my fabric from a drape coefficient, round trip (sim.lab.fit): a specimen of cotton's
density, stretch and shear with B = 10 µN·m drapes to some coefficient, and the fit from that
coefficient and the density finds B again. Prints the coefficient, each swept specimen's, the
fitted B and the wall time of the sweep (two local worker processes).

    .venv/bin/python bench/fit_drape.py
"""

from __future__ import annotations

import time

from clothlab.sim.core.materials import SI_FABRICS
from clothlab.sim.document.scene import SIMaterialSpec
from clothlab.sim.lab import fit, textile
from clothlab.sim.lab.sweep import LocalPool

MADE_WITH = 1e-5  # N·m


def main() -> None:
    made = SI_FABRICS["cotton"].with_values(bending_warp=MADE_WITH, bending_weft=MADE_WITH)
    scene = textile.cusick_drape_scene(SIMaterialSpec.of("made", made))
    coefficient = textile.settle(scene, textile.DRAPE_SECONDS).readouts().drape_coefficient
    print(f"made with B = {MADE_WITH * 1e6:g} µN·m: drape coefficient {coefficient:.1f} %")
    pool = LocalPool(2)
    started = time.perf_counter()
    try:
        found = fit.fit_bending_rigidity_to_drape(made.areal_density, coefficient, pool)
    finally:
        pool.close()
    took = time.perf_counter() - started
    for rigidity, read in found.swept:
        print(f"  swept B = {rigidity * 1e6:6.2f} µN·m: {read:.1f} %")
    print(f"fitted B = {found.bending_rigidity * 1e6:.2f} µN·m "
          f"({found.bending_rigidity / MADE_WITH - 1:+.1%}), sweep {took:.0f} s")  # fmt: skip


if __name__ == "__main__":
    main()
