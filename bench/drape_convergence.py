"""How the Cusick drape test's drape coefficient depends on the resolution and the solver
(issue 25): for each fabric, grid and substeps × passes, the drape coefficient after each second
of model time, the folds, the links' strain range and steps/s. A run that blew up says so.

    .venv/bin/python bench/drape_convergence.py [--fabric cotton] [--cols 31 --cols 41]
        [--solver 32x16 --solver 64x16] [--seconds 3]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from clothlab.sim.document.scene import build_simulation, with_settings
from clothlab.sim.lab import textile


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fabric", action="append", help="default: cotton")
    parser.add_argument("--cols", action="append", type=int, help="default: 31 and 41")
    parser.add_argument("--solver", action="append", help="SUBSTEPSxPASSES (default 32x16)")
    parser.add_argument("--seconds", type=int, default=3)
    args = parser.parse_args()
    print(f"{'fabric':<10} {'across':>6} {'solver':>7}  {'DC after each second (%)':<26}"
          f"{'folds':>5} {'strain range':>16} {'steps/s':>8}")  # fmt: skip
    for fabric in args.fabric or ["cotton"]:
        for cols in args.cols or [31, 41]:
            for solver in args.solver or ["32x16"]:
                substeps, passes = (int(n) for n in solver.split("x"))
                scene = textile.cusick_drape_scene(fabric, cols)
                sim = build_simulation(
                    with_settings(scene, {"substeps": substeps, "passes": passes})
                )
                started, coefficients = time.perf_counter(), []
                for _ in range(args.seconds):
                    if sim.step(120) < 120:
                        break
                    coefficients.append(f"{sim.readouts().drape_coefficient:.1f}")
                took = time.perf_counter() - started
                head = f"{fabric:<10} {cols:>6} {solver:>7}  "
                if sim.instability is not None:
                    print(f"{head}blew up at step {sim.state.steps + 1}: {sim.instability}")
                    continue
                links, x = sim.links, sim.state.x
                strain = np.linalg.norm(x[links.b] - x[links.a], axis=1) / links.rest - 1.0
                strains = f"{100 * strain.min():.1f}…{100 * strain.max():.1f} %"
                print(f"{head}{' '.join(coefficients):<26}{sim.readouts().folds:>5} "
                      f"{strains:>16} {args.seconds * 120 / took:8.0f}")  # fmt: skip


if __name__ == "__main__":
    main()
