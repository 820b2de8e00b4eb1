"""The seam a second solver backend plugs into: what a step reads, and what it writes.

A step of the seed's model reads, and never writes, the model: the settings (a frozen
record), the live links (`LinkArrays`: their ends, rest lengths and order, independent sets
and runs), the held particles and every particle's inverse mass (`FixedArrays`), each link's
stiffness and compliance (`LinkMaterial`) and the obstacles (`Obstacles`). It writes the state:
the positions and previous positions (`State.x`, `State.x_prev`), and, as its record of what
it moved for the forces, each link's direction at the step's start and its pull × Δt²
(`LinkArrays.start`, `.moved`) and each obstacle's push (`Obstacles.pushed`). Everything else
the lab does (readouts, forces, probes, recordings, undo, the window) reads the state and that
record through `Simulation`, never a backend's own arrays.

The kernels read what a step reads as the records of sim/core/records.py, which the owners
hand out: `fixed.particles(state.x, state.x_prev)` and `fixed.held`, `links.record(material)`,
`s.world(state.t)` and `obstacles.contacts(s.floor, s.floor_y)`. A second backend receives the
same records, their fields named and their shapes and dtypes documented there, and maps them
onto its own arrays; `ClassicIntegrator.step` passes them to `kernels.step_classic` or
`step_parallel` as they are.

`ClassicIntegrator` (numba, on one or both cores) is the backend every run uses. A GPU backend
(NVIDIA Warp, say) would implement the same two methods with the arrays on its device, copying
the state back after a step (or every few, for the view) and the three records when forces are
read. Its replay promise would be its own: Warp's deterministic mode gives the same bits run to
run on one device, not the CPU's bits, so a recording made on it would replay bit for bit on it
and to within the solver's tolerance here. tests/sim/core/test_backend_seam.py proves the seam
with a second backend written in plain numpy: its readouts and forces equal the numba one's.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from clothlab.sim.core.arrays import FixedArrays, LinkArrays, LinkMaterial, Obstacles
from clothlab.sim.core.forces import Impulses
from clothlab.sim.core.parameters import Settings
from clothlab.sim.core.state import State


class StepBackend(Protocol):
    """What steps the seed's model (the classic rule)."""

    def step(
        self,
        state: State,
        s: Settings,
        links: LinkArrays,
        fixed: FixedArrays,
        material: LinkMaterial,
        obstacles: Obstacles,
        stop: np.ndarray,
    ) -> int:
        """One Δt: state.x and x_prev advanced, the links' start and moved and the obstacles'
        pushed written. Returns kernels.HEALTHY, the problem the step found, or
        kernels.INTERRUPTED if `stop` ((1,) uint8) was set during it. What it reads comes as
        the records the arguments hand out (sim.core.records: Particles, Held, Links, World,
        Contacts), the same the numba kernels take."""
        ...

    def impulses(
        self, s: Settings, links: LinkArrays, obstacles: Obstacles, fixed: FixedArrays
    ) -> Impulses:
        """What the last step's links and obstacles moved (sim.core.forces)."""
        ...
