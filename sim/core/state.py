"""The model's changing state: positions, live links and faces, pins, model time."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from clothlab.sim.core.topology import Topology, vertex_normals


@dataclass
class State:
    x: np.ndarray  # (N, 3) float64, positions
    x_prev: np.ndarray  # (N, 3) float64, positions one step ago (Verlet velocity = x − x_prev)
    link_alive: np.ndarray  # (M,) bool
    face_alive: np.ndarray  # (F,) bool, False once any of the face's six links is gone
    pin_index: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))  # (P,) int32
    pin_anchor: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))  # (P, 3) float64
    t: float = 0.0  # model time, s
    steps: int = 0

    @classmethod
    def at_rest(cls, topology: Topology) -> State:
        x = topology.rest_positions.copy()
        return cls(
            x=x,
            x_prev=x.copy(),
            link_alive=np.ones(topology.link_count, dtype=bool),
            face_alive=np.ones(topology.face_count, dtype=bool),
        )

    @property
    def pins(self) -> dict[int, tuple[float, float, float]]:
        return {
            int(i): (float(a[0]), float(a[1]), float(a[2]))
            for i, a in zip(self.pin_index, self.pin_anchor, strict=True)
        }


def raise_out_of_plane(
    state: State, topology: Topology, held: np.ndarray, spread: float, seed: int
) -> None:
    """Move each particle not `held` ((H,) int32) out of its body's plane by a random amount
    of `spread` (normal, drawn from `seed`: the same seed, the same draw), x and x_prev alike
    (at rest): a particle along its faces' mean normal, turned to +y (+z for a sheet in a
    vertical plane); one of no face stays."""
    free = np.ones(topology.particle_count, dtype=bool)
    free[held] = False
    amount = np.random.default_rng(seed).normal(0.0, spread, np.count_nonzero(free))
    offset = rest_normals(topology)[free] * amount[:, None]
    state.x[free] += offset
    state.x_prev[free] += offset


def rest_normals(topology: Topology) -> np.ndarray:
    """(N, 3) float64 unit normals of the particles' faces at rest, each turned to +y (+z where
    y is 0); zero for a particle of no face."""
    normals = vertex_normals(topology.rest_positions, topology.faces)
    flip = (normals[:, 1] < 0.0) | ((normals[:, 1] == 0.0) & (normals[:, 2] < 0.0))
    normals[flip] *= -1.0
    return normals


def faces_alive(link_alive: np.ndarray, face_links: np.ndarray) -> np.ndarray:
    """(F,) bool: a face lives while all six of its links do."""
    if len(face_links) == 0:
        return np.zeros(0, dtype=bool)
    return link_alive[face_links].all(axis=1)


def pin_arrays(pins: dict[int, tuple[float, float, float]]) -> tuple[np.ndarray, np.ndarray]:
    """(P,) int32 particles in ascending order and their (P, 3) float64 anchors."""
    order = sorted(pins)
    index = np.array(order, dtype=np.int32)
    anchor = np.array([pins[i] for i in order], dtype=np.float64).reshape(-1, 3)
    return index, anchor
