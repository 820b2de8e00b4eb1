"""`clothlab warm-up`: compile every kernel now, into numba's cache beside the sources, so that
no launch waits for the compiler. `make` runs it once after installing, so
that the first launch after install starts as fast as every later one. Two processes share the
runs on a machine of two cores (`--jobs`).

Numba compiles a kernel for the types it is first called with, so the warm-up calls each one as
the app does: it runs, for a few steps each, the scenes and options that reach every kernel (the
classic rule on one and two threads, every option beyond it, XPBD on two threads, a block, SI
fabrics with their tests and the projective solve, cuts under tethers), measures every readout
and the forces, and prepares the 3D view's meshes (ui.viewport.meshes is numba and numpy, no
Qt). Imports no Qt.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from clothlab.app.errors import UsageError
from clothlab.sim.core import ordering
from clothlab.sim.core.parameters import LINKS_BY_MULTIGRID, PROJECTIVE
from clothlab.sim.core.snapshot import take_snapshot
from clothlab.sim.core.solver import Simulation
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.scene import Scene, build_simulation, with_settings
from clothlab.sim.lab import textile
from clothlab.ui.viewport import meshes

STEPS = 3  # a few steps reach every kernel a step calls
MAX_JOBS = 64


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "warm-up", help="compile the solver now (make does it after installing)"
    )
    parser.add_argument(
        "--jobs", type=int, default=min(2, os.cpu_count() or 1),
        help="processes compiling at once, each a share of the runs (default: 2, or 1 on a "
        "machine of one core)",
    )  # fmt: skip


def warm_up_command(args: argparse.Namespace) -> int:
    """The runs in `args.jobs` processes (numba compiles on one core: a second process
    compiling the other half of the kernels halves the time on two cores)."""
    if not 1 <= args.jobs <= MAX_JOBS:
        raise UsageError(f"--jobs: {args.jobs} is outside 1…{MAX_JOBS}")
    started = time.perf_counter()
    if args.jobs == 1:
        warm_up_share(0, 1)
    else:  # fresh processes (spawn): no forked numba or threads
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(args.jobs, mp_context=context) as pool:
            list(pool.map(warm_up_share, range(args.jobs), [args.jobs] * args.jobs))
    print(f"compiled in {time.perf_counter() - started:.0f} s: later launches load it from disk")
    return 0


def warm_up_share(share: int, shares: int) -> None:
    """Every `shares`-th run from the `share`-th, each built and exercised in turn (a compile
    at a time shows where the time goes)."""
    for name, scene in runs()[share::shares]:
        begun = time.perf_counter()
        exercise(build_simulation(scene))
        print(f"{name:36} {time.perf_counter() - begun:6.1f} s", flush=True)


def runs() -> list[tuple[str, Scene]]:
    """Scenes that, stepped, reach every kernel, the slowest to compile first: the classic
    rule on two threads, then tearing with self-collision."""
    sheet = load_preset("hanging-sheet")
    options: dict[str, dict[str, object]] = {
        "classic, two threads": {"solver_mode": ordering.TWO_THREADS},
        "tearing, self-collision": {
            # a collision distance over the spacing: neighbours are close pairs from the start
            "tearing": True,
            "self_collision": True,
            "collision_distance": 0.5,
        },
        "classic, one thread": {},
        "xpbd, substeps": {"xpbd": True, "substeps": 2},
        "xpbd, two threads": {"xpbd": True, "solver_mode": ordering.TWO_THREADS},
        "bending, tethers": {"bending": True, "tethers": True},
        "bending, tethers, two threads": {
            "bending": True,
            "tethers": True,
            "solver_mode": ordering.TWO_THREADS,
        },
        "friction, aerodynamic wind": {"friction_static": 0.5, "aerodynamic": True, "wind": 5.0},
        "friction, aerodynamic wind, two threads": {
            "friction_static": 0.5,
            "aerodynamic": True,
            "wind": 5.0,
            "solver_mode": ordering.TWO_THREADS,
        },
        "self-collision, two threads": {
            "self_collision": True,
            "collision_distance": 0.5,
            "solver_mode": ordering.TWO_THREADS,
        },
    }
    drape = textile.cusick_drape_scene("cotton")
    fabric = textile.with_fabric(sheet, "cotton")
    block = with_settings(load_preset("soft-block"), {"volume_constraint": True})
    return [
        *((name, with_settings(sheet, settings)) for name, settings in options.items()),
        ("block, keep volume", block),
        ("ball, floor", load_preset("drop")),
        ("boxes, spheres", load_preset("table-cloth")),
        ("SI cantilever", textile.cantilever_scene("cotton")),
        ("SI drape", drape),
        ("SI drape, multigrid", with_settings(drape, {"fabric_solver": LINKS_BY_MULTIGRID})),
        ("SI sheet, one projective solve", with_settings(fabric, {"fabric_solver": PROJECTIVE})),
    ]


def exercise(sim: Simulation) -> None:
    """A few steps, every readout and the forces, a cut under tethers, and the view's meshes."""
    sim.step(STEPS)
    sim.readouts()
    sim.forces()
    if sim.settings.tethers and sim.pins:  # cuts make the tethers find their paths again
        sim.set_cut(list(range(0, sim.topology.link_count, 7)), True)
        sim.step(STEPS)
        sim.set_cut(list(range(3, sim.topology.link_count, 11)), True)
        sim.step(1)
    snapshot = take_snapshot(sim, frame=1)
    mesh = meshes.BodyMesh(sim.topology)
    for colors in ("", meshes.STRETCH, meshes.TENSION):
        for wireframe in (False, True):
            mesh.update(snapshot, colors, wireframe)
