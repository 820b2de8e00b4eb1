"""How the Cusick drape test's drape coefficient depends on the resolution and the solver:
for each fabric, grid and substeps × passes, the drape coefficient after each second
of model time, the folds, the side links' strain range and steps/s. With --seeds N, N specimens
each (the first flat, the others raised out of their plane by a random 0.1 mm or so, as no two
real specimens lie the same; the second as the scene's own setting raises it) and their mean.
A run that blew up says so. --shear G gives every fabric that in-plane shear stiffness (N/m)
instead of its own, to see what the cells' diagonals do to a mesh's reading.

    .venv/bin/python bench/drape_convergence.py [--fabric cotton] [--cols 41 --cols 51]
        [--solver 16x4 --solver 32x4] [--seconds 3] [--seeds 1] [--shear G]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from clothlab.sim.core.materials import SI_FABRICS
from clothlab.sim.core.solver import Simulation
from clothlab.sim.document.scene import SIMaterialSpec, build_simulation, with_settings
from clothlab.sim.lab import textile


def specimen(
    fabric: str, cols: int, substeps: int, passes: int, seed: int, shear: float | None
) -> Simulation:
    """Seed 0 lies flat; seed k is the scene's raised start as the setting `specimen` k draws
    it (1: the scene's own). `shear`: the fabric's in-plane shear stiffness, if not its own."""
    material = SI_FABRICS[fabric] if shear is None else SI_FABRICS[fabric].with_values(shear=shear)
    scene = textile.cusick_drape_scene(SIMaterialSpec.of(fabric, material), cols)
    start = (
        {"imperfection": textile.IMPERFECTION, "specimen": seed} if seed else {"imperfection": 0.0}
    )
    return build_simulation(with_settings(scene, {"substeps": substeps, "passes": passes, **start}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fabric", action="append", help="default: cotton")
    parser.add_argument("--cols", action="append", type=int, help="default: 41 and 51")
    parser.add_argument("--solver", action="append", help="SUBSTEPSxPASSES (default 16x4)")
    parser.add_argument("--seconds", type=int, default=3)
    parser.add_argument("--seeds", type=int, default=1)
    parser.add_argument("--shear", type=float, help="N/m, for every fabric (default: its own)")
    args = parser.parse_args()
    print(f"{'fabric':<10} {'across':>6} {'solver':>7} {'seed':>4}  "
          f"{'DC after each second (%)':<26}{'folds':>5} {'side links strain':>18} "
          f"{'steps/s':>8}")  # fmt: skip
    for fabric in args.fabric or ["cotton"]:
        for cols in args.cols or [41, 51]:
            for solver in args.solver or ["16x4"]:
                substeps, passes = (int(n) for n in solver.split("x"))
                specimens = (
                    specimen(fabric, cols, substeps, passes, seed, args.shear)
                    for seed in range(args.seeds)
                )
                finals = [
                    run(fabric, cols, solver, sim, seed, args.seconds)
                    for seed, sim in enumerate(specimens)
                ]
                if args.seeds > 1 and None not in finals:
                    print(f"{fabric:<10} {cols:>6} {solver:>7} {'mean':>4}  "
                          f"{statistics.mean(finals):.1f}")  # fmt: skip


def run(
    fabric: str, cols: int, solver: str, sim: Simulation, seed: int, seconds: int
) -> float | None:
    """Steps the specimen, prints its line and returns its last drape coefficient (None: it
    blew up)."""
    head = f"{fabric:<10} {cols:>6} {solver:>7} {seed:>4}  "
    sim.step(1)  # compiles
    started, coefficients = time.perf_counter(), []
    for second in range(seconds):
        if sim.step(120 - (second == 0)) < 120 - (second == 0):
            print(f"{head}blew up at step {sim.state.steps + 1}: {sim.instability}")
            return None
        coefficients.append(sim.readouts().drape_coefficient)
    took = time.perf_counter() - started
    links, x = sim.links, sim.state.x
    strain = np.linalg.norm(x[links.b] - x[links.a], axis=1) / links.rest - 1.0
    side = links.rest < 1.2 * 0.3 / (cols - 1)  # not the diagonals, which shear as cloth does
    strains = f"{100 * strain[side].min():.2f}…{100 * strain[side].max():.2f} %"
    shown = " ".join(f"{c:.1f}" for c in coefficients)
    print(f"{head}{shown:<26}{sim.readouts().folds:>5.0f} {strains:>18} "
          f"{(seconds * 120 - 1) / took:8.0f}")  # fmt: skip
    return coefficients[-1]


if __name__ == "__main__":
    main()
