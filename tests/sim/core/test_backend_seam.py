"""The backend seam (sim.core.backend): a second backend, the seed's model written again in plain
numpy, steps a scene through `Simulation` and every readout and force the lab reads equals the
numba backend's. What the lab reads goes through the seam, not through a backend's own arrays."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from clothlab.sim.core import kernels, ordering
from clothlab.sim.core.arrays import FixedArrays, LinkArrays, LinkMaterial, Obstacles
from clothlab.sim.core.backend import StepBackend
from clothlab.sim.core.forces import Impulses
from clothlab.sim.core.parameters import Settings, damping_per_step
from clothlab.sim.core.state import State
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.scene import build_simulation, with_settings


class NumpyClassic:
    """The classic rule in colour order, a colour of links at a time as arrays: within a colour
    no two links share a particle, so a colour's corrections are one vector operation."""

    def __init__(self) -> None:
        self.steps = 0

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
        assert links.coloured and not len(obstacles.boxes) and not len(obstacles.spheres)
        x, x_prev, w = state.x, state.x_prev, fixed.inv_mass
        x_prev[fixed.index] = x[fixed.index]
        free = w > 0.0
        was = x[free].copy()
        moved_to = was + (was - x_prev[free]) * damping_per_step(s.damping, s.dt)
        moved_to[:, 1] -= s.gravity * s.dt**2
        moved_to[:, 2] += s.wind * (0.6 + 0.4 * np.sin(2.0 * state.t + was[:, 0])) * s.dt**2
        x_prev[free], x[free] = was, moved_to
        x[fixed.index] = fixed.anchor
        begun = x_prev[links.b] - x_prev[links.a]
        norm = np.linalg.norm(begun, axis=1, keepdims=True)
        links.start[:] = np.divide(begun, norm, out=np.zeros_like(begun), where=norm > 0.0)
        links.moved[:] = 0.0
        obstacles.pushed[:] = 0.0
        for _ in range(s.passes):
            for first, end in zip(links.colour_start[:-1], links.colour_start[1:], strict=True):
                self._project(x, w, links, material, slice(first, end))
            if s.floor:
                below = free & (x[:, 1] < s.floor_y)
                obstacles.pushed[-1] += np.sum((s.floor_y - x[below, 1]) / w[below])
                x[below, 1] = s.floor_y
        self.steps += 1
        return kernels.HEALTHY

    @staticmethod
    def _project(
        x: np.ndarray, w: np.ndarray, links: LinkArrays, material: LinkMaterial, k: slice
    ) -> None:
        a, b = links.a[k], links.b[k]
        shared = w[a] + w[b]
        d = x[b] - x[a]
        length = np.linalg.norm(d, axis=1)
        live = (shared > 0.0) & (length > 0.0)
        start = links.start[k]
        dot = np.einsum("ij,ij->i", d, start)
        kept = (dot > 0.0) & (dot * dot >= kernels.MAX_KEPT_TURN_COS**2 * length * length)
        along = np.where(kept[:, None], start, d)
        top = np.where(kept, dot, 1.0)
        size = np.where(kept, 1.0, length)
        safe = np.where(live, length * shared, 1.0)
        amount = np.where(live, (length - links.rest[k]) * material.stiffness[k] * top / safe, 0.0)
        links.moved[k] += amount * size
        x[a] += along * (amount * w[a])[:, None]
        x[b] -= along * (amount * w[b])[:, None]

    def impulses(
        self, s: Settings, links: LinkArrays, obstacles: Obstacles, fixed: FixedArrays
    ) -> Impulses:
        return Impulses(s.dt, links, obstacles, fixed)


def test_a_second_backend_gives_the_same_readouts_and_forces_through_the_seam():
    backend = NumpyClassic()
    seam: StepBackend = backend  # the protocol it plugs in by
    scene = with_settings(
        load_preset("hanging-sheet"), {"solver_mode": ordering.COLOUR_ORDER, "wind": 2.0}
    )
    numba_run, numpy_run = build_simulation(scene), build_simulation(scene, seam)
    for sim in (numba_run, numpy_run):
        assert sim.step(90) == 90
    assert backend.steps == 90  # the numpy backend took every step
    assert numpy_run.state.x == pytest.approx(numba_run.state.x, abs=1e-9)
    ours, theirs = numpy_run.readouts(), numba_run.readouts()
    for field in dataclasses.fields(theirs):
        value = getattr(theirs, field.name)
        if isinstance(value, float) and np.isfinite(value):
            assert getattr(ours, field.name) == pytest.approx(value, rel=1e-6, abs=1e-9), field.name
    forces, expected = numpy_run.forces(), numba_run.forces()
    assert forces is not None and expected is not None
    assert forces.pin_total == pytest.approx(expected.pin_total, rel=1e-6)
    assert expected.pin_total[1] > 0.0  # the pins hold the sheet up: a comparison of something
