"""The aerodynamic force pass alone, in a revision and in this checkout, side by side: each
tree's kernel on the same positions of a sheet, on one thread and, where the tree has one, on
two; median ms per call.

    .venv/bin/python bench/aero_pass.py [--before REV] [--rounds 3] [--grid 128x128]

The trees take turns in child processes, --rounds times; each figure is the median over every
round's 40 calls.
"""

from __future__ import annotations

import json
import statistics

from trees import IMPORT_TREE, revisions, run_child

from clothlab.app.bench import parse_grid

# In the tree at sys.argv[1]: its kernel(s) timed on the grid sys.argv[2], as {label: [s, …]}.
CHILD = (
    IMPORT_TREE
    + r"""
import inspect
import numba
import numpy as np
from clothlab.sim.core import constraints
from clothlab.sim.core.constraint_sets import Model, live_triangles, vertex_areas
from clothlab.sim.core.solver import Simulation
from clothlab.sim.core.topology import TopologyBuilder
cols, rows = (int(v) for v in sys.argv[2].split("x"))
builder = TopologyBuilder()
builder.add_sheet(cols, rows, 2.8 / (cols - 1), spacing_y=2.0 / (rows - 1))
topology = builder.build()
sim = Simulation(topology)
state = sim.state
model = Model(topology, state.link_alive, state.face_alive, state.pin_index, sim.links,
              sim.mechanics)
rng = np.random.default_rng(3)
x = topology.rest_positions + rng.normal(0.0, 0.01, topology.rest_positions.shape)
x_prev = x + rng.normal(0.0, 0.002, x.shape)
air = np.array([0.0, 0.0, 5.0])
out, stiffness = np.zeros_like(x), np.zeros((len(x), 3, 3))
kernels = {}
parameters = inspect.signature(constraints.add_aerodynamic_forces.py_func).parameters
if "surface" in parameters:
    from clothlab.sim.core.constraint_sets import air_surface
    from clothlab.sim.core.records import Air
    s, blowing = air_surface(model), Air(air, 0.7, 1 / 60, 1.2, 0.3)
    for label, add in (("one thread", constraints.add_aerodynamic_forces),
                       ("two threads", constraints.add_aerodynamic_forces_parallel)):
        kernels[label] = lambda add=add: add(x, x_prev, s, blowing, out, stiffness)
elif "corner_start" in parameters:
    from clothlab.sim.core.constraint_sets import air_surface
    s = air_surface(model)
    for label, add in (("one thread", constraints.add_aerodynamic_forces),
                       ("two threads", constraints.add_aerodynamic_forces_parallel)):
        kernels[label] = lambda add=add: add(
            x, x_prev, s.triangles, s.corner_start, s.corner_triangle, air, 0.7, 1 / 60, 1.2,
            0.3, s.vertex_area, s.force, out, stiffness)
else:
    triangles = live_triangles(model)
    area = vertex_areas(topology, triangles)
    kernels["one thread"] = lambda: constraints.add_aerodynamic_forces(
        x, x_prev, triangles, air, 0.7, 1 / 60, 1.2, 0.3, area, out, stiffness)
times = {label: [] for label in kernels}
for call in kernels.values():
    call()  # compiles or loads the machine code
for _ in range(40):
    for label, call in kernels.items():
        started = time.perf_counter()
        call()
        times[label].append(time.perf_counter() - started)
print(json.dumps(times))
"""
)


def main() -> None:
    args, trees = revisions(__doc__.split("\n\n")[0], "c93521d", grid="128x128")
    parse_grid(args.grid)  # a bad grid is one line, before any child runs
    times: dict[tuple[str, str], list[float]] = {}
    for _ in range(args.rounds):
        for tree, path in trees.items():
            for label, seconds in json.loads(run_child(CHILD, str(path), args.grid)).items():
                times.setdefault((tree, label), []).extend(seconds)
    before = statistics.median(times["before", "one thread"])
    print(f"aerodynamic force pass, {args.grid}, {args.rounds} rounds; before = {args.before}")
    for (tree, label), seconds in times.items():
        median = statistics.median(seconds)
        print(f"  {tree:>6} {label:<12} {1e3 * median:7.2f} ms  ({median / before:.2f} × before)")


if __name__ == "__main__":
    main()
