"""The time step beyond the classic model: substeps, XPBD, bending, tethers, tearing, volume,
self-collision, friction and aerodynamic wind, each switched on by its setting.

With every option off this path computes what the classic kernel computes (a test holds it to
that), but the Simulation uses the classic kernel then: it is the seed's model, and faster.
"""

from __future__ import annotations

import heapq
import math
from typing import TYPE_CHECKING

import numpy as np

from clothlab.sim import constraints, kernels

if TYPE_CHECKING:
    from clothlab.sim.solver import Simulation

# Pairs are found once per substep, before the passes move particles: search wider than the
# collision distance so that pairs closing in during the passes are already known.
PAIR_SEARCH_MARGIN = 1.5
# Corners around each cell's 0–7 diagonal, as in kernels.cells_volume: six tetrahedra a cell.
_RING = (1, 3, 2, 6, 4, 5)


class ExtendedStepper:
    """Derived constraint data for one simulation, rebuilt when its topology or pins change."""

    def __init__(self, sim: Simulation) -> None:
        self.sim = sim
        n = sim.topology.particle_count
        self._acceleration = np.zeros((n, 3))  # (N, 3) float64
        self._tets, self._tet_rest = block_tetrahedra(sim)
        self._pairs = np.zeros((4 * n + 16, 2), dtype=np.int32)  # (P, 2) int32, grows
        self._pair_targets = np.zeros(len(self._pairs))  # (P,) float64
        self.rebuild()

    def rebuild(self) -> None:
        """After cuts, tears or pin changes: live bend links, tethers, triangles."""
        sim = self.sim
        self._bend_a, self._bend_b, self._bend_rest = bend_links(sim)
        self._tether_particle, self._tether_anchor, self._tether_length = tethers(sim)
        self._triangles = live_triangles(sim)
        self._vertex_area = vertex_areas(sim, self._triangles)
        self._lambdas = np.zeros(len(sim._rest))  # (L,) float64
        self._torn = np.zeros(len(sim._rest), dtype=bool)  # (L,) bool
        self._bend_lambdas = np.zeros(len(self._bend_rest))
        self._bend_torn = np.zeros(len(self._bend_rest), dtype=bool)

    def step(self) -> int:
        """One Δt; returns kernels.HEALTHY, or the problem the predict found (and stops)."""
        sim, s, state = self.sim, self.sim.settings, self.sim.state
        x, x_prev, inv_mass = state.x, state.x_prev, sim._inv_mass
        h = s.dt / s.substeps
        damping = s.damping ** (1.0 / s.substeps)
        ball_center = np.asarray(s.ball_center, dtype=np.float64)
        air = _air_velocity(s.wind, s.wind_yaw)
        friction = s.friction_static > 0.0 or s.friction_kinetic > 0.0
        compliance = s.compliance if s.xpbd else -1.0
        tear_ratio = s.tear_ratio if s.tearing else 0.0
        torn = 0
        for sub in range(s.substeps):
            t = state.t + sub * h
            if s.aerodynamic:
                constraints.classic_acceleration(x, s.gravity, 0.0, t, self._acceleration)
                constraints.add_aerodynamic_forces(
                    x,
                    x_prev,
                    self._triangles,
                    air,
                    t,
                    h,
                    s.drag,
                    s.lift,
                    self._vertex_area,
                    self._acceleration,
                )
            else:
                constraints.classic_acceleration(x, s.gravity, s.wind, t, self._acceleration)
            fixed = sim._fixed_index
            x_prev[fixed] = x[fixed]
            health = constraints.accelerate(x, x_prev, inv_mass, self._acceleration, damping, h)
            if health != kernels.HEALTHY:
                return health
            kernels.place_pins(x, fixed, sim._fixed_anchor)
            pair_count = self._find_pairs() if s.self_collision else 0
            self._lambdas[:] = 0.0
            self._bend_lambdas[:] = 0.0
            for _ in range(s.passes):
                torn += constraints.project_links_xpbd(
                    x, inv_mass, sim._link_a, sim._link_b, sim._rest, self._lambdas,
                    compliance, h, s.stiffness, tear_ratio, self._torn,
                )  # fmt: skip
                if s.bending:
                    constraints.project_links_xpbd(
                        x, inv_mass, self._bend_a, self._bend_b, self._bend_rest,
                        self._bend_lambdas, s.bend_compliance, h, 1.0, 0.0, self._bend_torn,
                    )  # fmt: skip
                if s.tethers:
                    constraints.project_tethers(
                        x, inv_mass, self._tether_particle, self._tether_anchor,
                        self._tether_length,
                    )  # fmt: skip
                if s.volume_constraint:
                    constraints.project_volumes(x, inv_mass, self._tets, self._tet_rest)
                if pair_count:
                    constraints.project_pairs(
                        x, inv_mass, self._pairs, self._pair_targets, pair_count
                    )
                if friction:
                    constraints.collide_with_friction(
                        x, x_prev, inv_mass, s.ball, ball_center, s.ball_radius, s.floor,
                        s.floor_y, s.friction_static, s.friction_kinetic,
                    )  # fmt: skip
                else:
                    kernels.collide(
                        x, inv_mass, s.ball, ball_center, s.ball_radius, s.floor, s.floor_y
                    )
        if torn:
            sim._tear(np.flatnonzero(self._torn))
        return kernels.HEALTHY

    def _find_pairs(self) -> int:
        sim, s = self.sim, self.sim.settings
        while True:
            count = constraints.find_close_pairs(
                sim.state.x, sim.topology.rest_positions,
                PAIR_SEARCH_MARGIN * s.collision_distance, s.collision_distance,
                self._pairs, self._pair_targets,
            )  # fmt: skip
            if count <= len(self._pairs):
                return count
            self._pairs = np.zeros((2 * count, 2), dtype=np.int32)
            self._pair_targets = np.zeros(2 * count)


def _air_velocity(speed: float, yaw_degrees: float) -> np.ndarray:
    yaw = math.radians(yaw_degrees)
    return np.array([speed * math.sin(yaw), 0.0, speed * math.cos(yaw)])


# --- derived constraint sets (pure functions of topology, live links and pins) ---------------


def bend_links(sim: Simulation) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Skip-one links across and down every sheet, (B,) int32 ends and (B,) rest lengths,
    kept only while both links they span are live (a cut also cuts the bending)."""
    alive = sim.state.link_alive
    a_parts, b_parts = [], []
    for grid in sim.topology.sheets:
        cols, rows = grid.cols, grid.rows
        index = np.arange(cols * rows).reshape(rows, cols)
        n_across = (cols - 1) * rows
        across = grid.first_link + np.arange(n_across).reshape(rows, cols - 1)
        down = grid.first_link + n_across + np.arange(cols * (rows - 1)).reshape(rows - 1, cols)
        keep_across = alive[across[:, :-1]] & alive[across[:, 1:]]
        keep_down = alive[down[:-1, :]] & alive[down[1:, :]]
        a_parts += [index[:, :-2][keep_across], index[:-2, :][keep_down]]
        b_parts += [index[:, 2:][keep_across], index[2:, :][keep_down]]
        a_parts[-2:] = [p + grid.first_particle for p in a_parts[-2:]]
        b_parts[-2:] = [p + grid.first_particle for p in b_parts[-2:]]
    a = np.concatenate(a_parts).astype(np.int32) if a_parts else np.zeros(0, np.int32)
    b = np.concatenate(b_parts).astype(np.int32) if b_parts else np.zeros(0, np.int32)
    rest = np.linalg.norm(sim.topology.rest_positions[b] - sim.topology.rest_positions[a], axis=1)
    return a, b, rest


TETHERS_PER_PARTICLE = 4  # nearest pins only: a curtain has a pin per column
_PATH_PINS = 8  # a cut sheet with more pins is tethered to its nearest pin only
_CHUNK = 4096  # particles per block of the distance table, to bound memory


def tethers(sim: Simulation) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(T,) particle, (T,) pin and (T,) length: each free particle tethered to its nearest
    pins at its distance from them along the cloth at rest — the straight rest distance on
    an uncut sheet, the shortest path over live links once it is cut (a cut only lengthens the
    way round). Several pins matter: tethered to one each, the two halves of a sheet held at
    both top corners could swing apart at the middle."""
    pins = sim.state.pin_index
    free = np.ones(sim.topology.particle_count, dtype=bool)
    free[pins] = False
    parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    if len(pins) == 0:
        pass
    elif sim.state.link_alive.all():
        rest = sim.topology.rest_positions
        for start in range(0, len(free), _CHUNK):
            rows = np.flatnonzero(free[start : start + _CHUNK]) + start
            table = np.linalg.norm(rest[rows, None, :] - rest[None, pins, :], axis=2)
            parts.append(_nearest(rows, table, pins))
    elif len(pins) <= _PATH_PINS:
        table = np.stack([_path_lengths(sim, [p])[0] for p in pins], axis=1)  # (N, P)
        rows = np.flatnonzero(free)
        parts.append(_nearest(rows, table[rows], pins))
    else:
        length, source = _path_lengths(sim, pins)
        rows = np.flatnonzero(free & np.isfinite(length))
        parts.append((rows, source[rows], length[rows]))
    if not parts:
        return np.zeros(0, np.int32), np.zeros(0, np.int32), np.zeros(0)
    particle, anchor, length = (np.concatenate(column) for column in zip(*parts, strict=True))
    return particle.astype(np.int32), anchor.astype(np.int32), np.ascontiguousarray(length)


def _nearest(
    rows: np.ndarray, table: np.ndarray, pins: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The TETHERS_PER_PARTICLE shortest finite entries of each row of an (R, P) table."""
    keep = min(TETHERS_PER_PARTICLE, table.shape[1])
    column = np.argpartition(table, keep - 1, axis=1)[:, :keep]
    length = np.take_along_axis(table, column, axis=1)
    reachable = np.isfinite(length)
    particle = np.broadcast_to(rows[:, None], column.shape)
    return particle[reachable], pins[column][reachable], length[reachable]


def _path_lengths(
    sim: Simulation, sources: np.ndarray | list[int]
) -> tuple[np.ndarray, np.ndarray]:
    """Dijkstra over the live links (rest lengths as weights) from the nearest of `sources`:
    (N,) path length (inf where unreachable) and (N,) the source reached from."""
    n = sim.topology.particle_count
    live = np.flatnonzero(sim.state.link_alive)
    ends = sim.topology.links[live]
    weight = sim.topology.rest_lengths[live]
    neighbours: list[list[tuple[int, float]]] = [[] for _ in range(n)]
    for (i, j), w in zip(ends.tolist(), weight.tolist(), strict=True):
        neighbours[i].append((j, w))
        neighbours[j].append((i, w))
    length = np.full(n, np.inf)
    source_of = np.full(n, -1, dtype=np.int64)
    queue = [(0.0, int(p), int(p)) for p in sources]
    while queue:
        d, i, source = heapq.heappop(queue)
        if d >= length[i]:
            continue
        length[i] = d
        source_of[i] = source
        for j, w in neighbours[i]:
            if d + w < length[j]:
                heapq.heappush(queue, (d + w, j, source))
    return length, source_of


def block_tetrahedra(sim: Simulation) -> tuple[np.ndarray, np.ndarray]:
    """(T, 4) int32 tetrahedra of every block cell and their (T,) rest volumes."""
    parts = [
        np.stack([cells[:, 0], cells[:, a], cells[:, b], cells[:, 7]], axis=1)
        for block in sim.topology.blocks
        for cells in (block.cells,)
        for a, b in zip(_RING, _RING[1:] + _RING[:1], strict=True)
    ]
    tets = np.concatenate(parts).astype(np.int32) if parts else np.zeros((0, 4), np.int32)
    return tets, constraints.tet_volumes(sim.topology.rest_positions, tets)


def live_triangles(sim: Simulation) -> np.ndarray:
    """(T, 3) int32: two triangles per live face, wound like the face."""
    faces = sim.topology.faces[sim.state.face_alive]
    return np.ascontiguousarray(
        np.concatenate([faces[:, [0, 1, 2]], faces[:, [0, 2, 3]]]), dtype=np.int32
    )


def vertex_areas(sim: Simulation, triangles: np.ndarray) -> np.ndarray:
    """(N,) float64: a third of the rest area of every live triangle round each particle."""
    rest = sim.topology.rest_positions
    edges = rest[triangles[:, 1:]] - rest[triangles[:, :1]]  # (T, 2, 3)
    area = 0.5 * np.linalg.norm(np.cross(edges[:, 0], edges[:, 1]), axis=1)
    return np.bincount(
        triangles.ravel(), weights=np.repeat(area / 3.0, 3), minlength=sim.topology.particle_count
    )
