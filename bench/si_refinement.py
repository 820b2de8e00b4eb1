"""Refining keeps the cloth: a sheet of an SI fabric hanging from two pins keeps its sag and its
stretch as its resolution grows (issue 25), where the classic rule's sheet stretches more and
more (bench/finer_sheets.py). Prints sag, max stretch and the settled motion after `--seconds`
of model time for each grid; a run that blew up says so instead of figures.

    .venv/bin/python bench/si_refinement.py [--fabric cotton] [--grid 128x128 ...]
        [--clamp METRES]

--clamp R holds every particle within R of either top corner where it lies at rest, as a clamp
of that size would, instead of the two corner particles alone (whose point loads the stretch
next to them resolves more and more finely as the grid refines). Stretch is also given as the
99th percentile of the links' strains, which one link beside a pin does not set.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from clothlab.sim.core import kernels
from clothlab.sim.document.composition import change_body
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.scene import build_simulation, with_settings
from clothlab.sim.lab import textile

GRIDS = [(15, 11), (64, 64), (128, 128), (256, 256)]


def refined(fabric: str, cols: int, rows: int, tethers: bool):
    """The default sheet (2.8 × 2 m, pinned at its top corners) in `fabric` at cols × rows,
    tethers as asked."""
    scene = textile.with_fabric(load_preset("hanging-sheet"), fabric)
    scene = change_body(scene, 0, cols=cols, rows=rows).scene
    return with_settings(scene, {"tethers": tethers, "damping": textile.TEST_DAMPING})


def clamped(rest: np.ndarray, corners: tuple[int, ...], radius: float) -> dict:
    """Pins holding every particle within `radius` of a corner where it lies at rest."""
    held = {int(c) for c in corners}
    for c in corners:
        held.update(np.flatnonzero(np.linalg.norm(rest - rest[c], axis=1) <= radius).tolist())
    return {i: tuple(rest[i]) for i in sorted(held)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fabric", default="cotton")
    parser.add_argument("--grid", action="append", help="COLSxROWS (default 15x11 … 256x256)")
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--no-tethers", action="store_true")
    parser.add_argument("--clamp", type=float, default=0.0, help="metres held at each corner")
    args = parser.parse_args()
    grids = [tuple(int(n) for n in g.split("x")) for g in args.grid or []] or GRIDS
    print(f"{args.fabric}, tethers {'off' if args.no_tethers else 'on'}, {args.seconds:g} s, "
          f"corners held over {args.clamp:g} m")  # fmt: skip
    print(f"{'sheet':>9} {'pins':>5} {'substeps':>8} {'sag (m)':>9} {'stretch':>9} {'99th':>9} "
          f"{'motion':>9} {'wall s':>7}")  # fmt: skip
    for cols, rows in grids:
        sim = build_simulation(refined(args.fabric, cols, rows, not args.no_tethers))
        sim.set_pins(clamped(sim.topology.rest_positions, (0, cols - 1), args.clamp))
        started = time.perf_counter()
        steps = round(args.seconds / sim.settings.dt)
        taken = sim.step(steps)
        took = time.perf_counter() - started
        if taken < steps:
            print(f"{f'{cols}×{rows}':>9} blew up at step {taken + 1}: {sim.instability}")
            continue
        r, topology = sim.readouts(), sim.topology
        strain = np.empty(topology.link_count)
        kernels.link_strains(sim.state.x, topology.links, topology.rest_lengths, strain)
        strain = strain[sim.state.link_alive]
        print(f"{f'{cols}×{rows}':>9} {len(sim.pins):>5} {sim.model_settings.substeps:>8} "
              f"{r.sag:9.4f} {100 * r.max_stretch:8.2f}% {100 * np.percentile(strain, 99):8.3f}% "
              f"{r.motion:9.2g} {took:7.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
