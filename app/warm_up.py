"""`clothlab warm-up`: compile every kernel now, into numba's cache beside the sources, so that
no launch waits for the compiler. `make` runs it once after installing, so
that the first launch after install starts as fast as every later one.

Numba compiles a kernel for the types it is first called with, so the warm-up calls each one as
the app does: it runs, for a few steps each, the scenes and options that reach every kernel (the
classic rule on one and two threads, every option beyond it, XPBD on two threads, a block, SI
fabrics with their tests and the projective solve, cuts under tethers), measures every readout
and the forces, and prepares the 3D view's meshes (ui.viewport.meshes is numba and numpy, no
Qt). Imports no Qt.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterator
from typing import Any

from clothlab.sim.core import ordering
from clothlab.sim.core.parameters import LINKS_BY_MULTIGRID, PROJECTIVE
from clothlab.sim.core.snapshot import take_snapshot
from clothlab.sim.core.solver import Simulation
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.scene import Scene, build_simulation, with_settings
from clothlab.sim.lab import textile
from clothlab.ui.viewport import meshes

STEPS = 3  # a few steps reach every kernel a step calls


def add_parser(commands: Any) -> None:
    commands.add_parser("warm-up", help="compile the solver now (make does it after installing)")


def warm_up_command(_args: argparse.Namespace) -> int:
    started = time.perf_counter()
    for name, sim in runs():
        begun = time.perf_counter()
        exercise(sim)
        print(f"{name:36} {time.perf_counter() - begun:6.1f} s", flush=True)
    print(f"compiled in {time.perf_counter() - started:.0f} s: later launches load it from disk")
    return 0


def runs() -> Iterator[tuple[str, Simulation]]:
    """Simulations that, stepped, reach every kernel: built one at a time (a compile at a time
    shows where the time goes)."""
    sheet = load_preset("hanging-sheet")
    yield "classic, one thread", build_simulation(sheet)
    yield "classic, two threads", _with(sheet, solver_mode=ordering.TWO_THREADS)
    options: dict[str, dict[str, object]] = {
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
        # a collision distance over the spacing: neighbours are close pairs from the start
        "tearing, self-collision": {
            "tearing": True,
            "self_collision": True,
            "collision_distance": 0.5,
        },
        "self-collision, two threads": {
            "self_collision": True,
            "collision_distance": 0.5,
            "solver_mode": ordering.TWO_THREADS,
        },
    }
    for name, settings in options.items():
        yield name, _with(sheet, **settings)
    yield "block, keep volume", _with(load_preset("soft-block"), volume_constraint=True)
    yield "ball, floor", build_simulation(load_preset("drop"))
    yield "boxes, spheres", build_simulation(load_preset("table-cloth"))
    yield "SI cantilever", build_simulation(textile.cantilever_scene("cotton"))
    drape = textile.cusick_drape_scene("cotton")
    yield "SI drape", build_simulation(drape)
    yield "SI drape, multigrid", _with(drape, fabric_solver=LINKS_BY_MULTIGRID)
    fabric = textile.with_fabric(sheet, "cotton")
    yield "SI sheet, one projective solve", _with(fabric, fabric_solver=PROJECTIVE)


def _with(scene: Scene, **settings: object) -> Simulation:
    return build_simulation(with_settings(scene, settings))


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
