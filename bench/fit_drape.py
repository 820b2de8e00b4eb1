"""Fit my fabric from a drape coefficient, round trip (sim.lab.fit): a specimen of cotton's
density, stretch and shear with B = 10 µN·m drapes on the drape check's mesh to some
coefficient (or take `--target`), the fit from that coefficient and the density finds B on a
sweep of specimens `--cols` across, and the drape check (`clothlab validate --own`'s, on
textile.CHECK_COLS) then reads the fitted fabric. Prints each swept specimen's coefficient, the
fitted B, the wall time of the sweep (two local worker processes) and what the check reads
against the coefficient fitted to.

    .venv/bin/python bench/fit_drape.py [--cols 41] [--target 66]
"""

from __future__ import annotations

import argparse
import time

from clothlab.sim.core.materials import SI_FABRICS
from clothlab.sim.lab import fit, textile
from clothlab.sim.lab.sweep import LocalPool

MADE_WITH = 1e-5  # N·m


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cols", type=int, default=textile.CHECK_COLS[0],
                        help="particles across the swept specimens")  # fmt: skip
    parser.add_argument("--target", type=float, help="the drape coefficient to fit, %%")
    args = parser.parse_args()
    made = SI_FABRICS["cotton"].with_values(bending_warp=MADE_WITH, bending_weft=MADE_WITH)
    target = args.target
    if target is None:
        target = textile.draped_specimen("made", made).readouts().drape_coefficient
        print(f"made with B = {MADE_WITH * 1e6:g} µN·m: drape coefficient {target:.1f} % "
              f"({textile.CHECK_COLS[0]} across)")  # fmt: skip
    pool = LocalPool(2)
    started = time.perf_counter()
    try:
        found = fit.fit_bending_rigidity_to_drape(made.areal_density, target, pool, cols=args.cols)
    finally:
        pool.close()
    took = time.perf_counter() - started
    for rigidity, read in found.swept:
        print(f"  swept B = {rigidity * 1e6:6.2f} µN·m ({args.cols} across): {read:.1f} %")
    print(f"fitted B = {found.bending_rigidity * 1e6:.2f} µN·m "
          f"({found.bending_rigidity / MADE_WITH - 1:+.1%} of {MADE_WITH * 1e6:g}), "
          f"sweep {took:.0f} s")  # fmt: skip
    check = textile.drape_check("fitted", found.material)
    print(f"the drape check reads the fitted fabric {check.measured:.1f} % "
          f"({check.measured - target:+.1f} points from {target:.1f}); {check.note}")  # fmt: skip


if __name__ == "__main__":
    main()
