"""Refining keeps the cloth: a sheet of an SI fabric hanging from its two top corners keeps its
sag and its stretch as its resolution grows, where the classic rule's sheet stretches
more and more (bench/finer_sheets.py). Prints sag, max stretch, the 99th percentile of the
links' strains and the settled motion after `--seconds` of model time for each grid, then how
far apart the grids' figures lie; a run that blew up says so instead of figures.

    .venv/bin/python bench/si_refinement.py [--fabric cotton] [--grid 128x128 ...]
        [--clamp METRES] [--tethers]

The default grids refine the default sheet's square cells (15 × 11, 29 × 21, 57 × 41, 113 × 81)
and then take the issue's 128 × 128 and 256 × 256 (cells 1.4 times as wide as tall). --clamp R
holds every particle within R of either top corner where it lies at rest, as a clamp of that
size would (textile.clamps), instead of the two corner particles alone: a point pin's load is
a singularity of the continuum, whose stretch (and the sag it gives) the grid resolves more and
more finely. --tethers switches tethers on, which the links' solve then leaves out.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from clothlab.sim.core.readouts import live_strains
from clothlab.sim.document.composition import change_body
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.scene import build_simulation, with_settings
from clothlab.sim.lab import textile

GRIDS = [(15, 11), (29, 21), (57, 41), (113, 81), (128, 128), (256, 256)]


def refined(fabric: str, cols: int, rows: int, tethers: bool):
    """The default sheet (2.8 × 2 m, pinned at its top corners) in `fabric` at cols × rows,
    tethers as asked."""
    scene = textile.with_fabric(load_preset("hanging-sheet"), fabric)
    scene = change_body(scene, 0, cols=cols, rows=rows).scene
    return with_settings(scene, {"tethers": tethers, "damping": textile.TEST_DAMPING})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fabric", default="cotton")
    parser.add_argument("--grid", action="append", help="COLSxROWS (default 15x11 … 256x256)")
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--tethers", action="store_true")
    parser.add_argument("--clamp", type=float, default=0.0, help="metres held at each corner")
    args = parser.parse_args()
    grids = [tuple(int(n) for n in g.split("x")) for g in args.grid or []] or GRIDS
    print(f"{args.fabric}, tethers {'on' if args.tethers else 'off'}, {args.seconds:g} s, "
          f"corners held over {args.clamp:g} m")  # fmt: skip
    print(f"{'sheet':>9} {'pins':>5} {'substeps':>8} {'sag (m)':>9} {'stretch':>9} {'99th':>9} "
          f"{'motion':>9} {'wall s':>7}")  # fmt: skip
    figures: list[tuple[float, float, float]] = []  # sag, max stretch, 99th percentile
    for cols, rows in grids:
        sim = build_simulation(refined(args.fabric, cols, rows, args.tethers))
        sim.set_pins(textile.clamps(sim.topology.rest_positions, (0, cols - 1), args.clamp))
        started = time.perf_counter()
        steps = round(args.seconds / sim.settings.dt)
        taken = sim.step(steps)
        took = time.perf_counter() - started
        if taken < steps:
            print(f"{f'{cols}×{rows}':>9} blew up at step {taken + 1}: {sim.instability}")
            continue
        r = sim.readouts()
        figures.append((r.sag, r.max_stretch, float(np.percentile(live_strains(sim), 99))))
        print(f"{f'{cols}×{rows}':>9} {len(sim.pins):>5} {sim.model_settings.substeps:>8} "
              f"{r.sag:9.4f} {100 * r.max_stretch:8.2f}% {100 * figures[-1][2]:8.3f}% "
              f"{r.motion:9.2g} {took:7.1f}")  # fmt: skip
    if len(figures) > 1:
        largest, smallest = np.max(figures, axis=0), np.min(figures, axis=0)
        sag, stretch, top = 100 * (largest / smallest - 1)
        print(f"largest over smallest − 1: sag {sag:.1f} %, stretch {stretch:.1f} %, "
              f"99th {top:.1f} %")  # fmt: skip


if __name__ == "__main__":
    main()
