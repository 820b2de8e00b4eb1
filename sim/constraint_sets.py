"""Constraint sets of the extended integrator, and the pure functions that derive them.

A constraint set is switched on by a setting (`enabled`), derives its arrays from the model
(`build`: from the topology, the live links and the pins), may prepare each substep (`begin`)
and corrects positions once per pass (`project`). Each declares what invalidates it
(`depends_on`): tetrahedra depend on the topology only, tethers on links and pins, so a cut
rebuilds the second and not the first. Adding a constraint type is one class here plus its
kernel in sim/constraints.py.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from clothlab.sim import constraints, kernels
from clothlab.sim.arrays import LinkArrays, LinkMaterial, Obstacles
from clothlab.sim.topology import Topology

LINKS, PINS = "links", "pins"  # what can invalidate a constraint set
# Pairs are found once per substep, before the passes move particles: search wider than the
# collision distance so that pairs closing in during the passes are already known.
PAIR_SEARCH_MARGIN = 1.5
# The automatic collision distance, as a fraction of the finest rest spacing (the rest-distance
# rule): far enough apart to keep layers from passing, near enough that neighbours at rest are
# not pairs.
AUTO_COLLISION_FRACTION = 0.4
# Corners around each cell's 0–7 diagonal, as in kernels.cells_volume: six tetrahedra a cell.
_RING = (1, 3, 2, 6, 4, 5)


@dataclass(frozen=True)
class Model:
    """What a constraint set builds from."""

    topology: Topology
    link_alive: np.ndarray  # (M,) bool
    face_alive: np.ndarray  # (F,) bool
    pin_index: np.ndarray  # (P,) int32, pins only (not the grab)
    links: LinkArrays


@dataclass
class Substep:
    """What a projection reads and writes during one substep."""

    x: np.ndarray  # (N, 3) float64, updated in place
    x_prev: np.ndarray  # (N, 3) float64
    inv_mass: np.ndarray  # (N,) float64
    settings: Any  # sim.parameters.Settings
    h: float  # substep length, s
    material: LinkMaterial  # each live link's stiffness and compliance
    obstacles: Obstacles


class ConstraintSet:
    depends_on: ClassVar[frozenset[str]] = frozenset()

    def enabled(self, s: Any) -> bool:
        return True

    def build(self, model: Model) -> None:
        pass

    def begin(self, sub: Substep) -> None:
        pass

    def project(self, sub: Substep) -> None:
        raise NotImplementedError


class LinkSet(ConstraintSet):
    """Every live link: the classic rule, or XPBD with a compliance; tears when overstretched."""

    depends_on = frozenset({LINKS})

    def build(self, model: Model) -> None:
        self.links = model.links
        self.lambdas = np.zeros(model.links.count)  # (L,) float64, per substep
        self.torn = np.zeros(model.links.count, dtype=bool)  # (L,) bool, this step's tears
        self.tore = 0

    def begin(self, sub: Substep) -> None:
        self.lambdas[:] = 0.0

    def project(self, sub: Substep) -> None:
        s, links, material = sub.settings, self.links, sub.material
        tear_ratio = s.tear_ratio if s.tearing else 0.0
        if links.parallel:  # colour order on two threads, as the classic kernel chose
            self.tore += constraints.project_links_xpbd_parallel(
                sub.x, sub.inv_mass, links.a, links.b, links.rest, links.colour_start,
                self.lambdas, s.xpbd, material.compliance, sub.h, material.stiffness,
                tear_ratio, self.torn,
            )  # fmt: skip
        else:
            self.tore += constraints.project_links_xpbd(
                sub.x, sub.inv_mass, links.a, links.b, links.rest, self.lambdas, s.xpbd,
                material.compliance, sub.h, material.stiffness, tear_ratio, self.torn,
            )  # fmt: skip

    def lambdas_for(self, links: LinkArrays) -> bool:
        """Whether `lambdas` holds the multipliers of these links (built, not stale)."""
        return getattr(self, "links", None) is links

    def take_torn(self) -> np.ndarray:
        """Topology indices of the links torn since the last call."""
        if not self.tore:
            return np.zeros(0, dtype=np.int64)
        self.tore = 0
        return self.links.live[np.flatnonzero(self.torn)]


class BendingSet(ConstraintSet):
    depends_on = frozenset({LINKS})

    def enabled(self, s: Any) -> bool:
        return s.bending

    def build(self, model: Model) -> None:
        self.a, self.b, self.rest = bend_links(model)
        self.lambdas = np.zeros(len(self.rest))  # (B,) float64
        self.never_torn = np.zeros(len(self.rest), dtype=bool)  # (B,) bool
        self.unused = np.ones(len(self.rest))  # (B,) float64: the classic rule's stiffness
        self.compliance = np.zeros(len(self.rest))  # (B,) float64

    def begin(self, sub: Substep) -> None:
        self.lambdas[:] = 0.0
        self.compliance[:] = sub.settings.bend_compliance

    def project(self, sub: Substep) -> None:
        constraints.project_links_xpbd(
            sub.x, sub.inv_mass, self.a, self.b, self.rest, self.lambdas, True,
            self.compliance, sub.h, self.unused, 0.0, self.never_torn,
        )  # fmt: skip


class TetherSet(ConstraintSet):
    depends_on = frozenset({LINKS, PINS})

    def enabled(self, s: Any) -> bool:
        return s.tethers

    def build(self, model: Model) -> None:
        self.particle, self.anchor, self.length = tethers(model)

    def project(self, sub: Substep) -> None:
        constraints.project_tethers(sub.x, sub.inv_mass, self.particle, self.anchor, self.length)


class VolumeSet(ConstraintSet):
    def enabled(self, s: Any) -> bool:
        return s.volume_constraint

    def build(self, model: Model) -> None:
        self.tets, self.rest = block_tetrahedra(model.topology)

    def project(self, sub: Substep) -> None:
        constraints.project_volumes(sub.x, sub.inv_mass, self.tets, self.rest)


class SelfContactSet(ConstraintSet):
    """Particles that come close are pushed apart; pairs are found once per substep."""

    def enabled(self, s: Any) -> bool:
        return s.self_collision

    def build(self, model: Model) -> None:
        n = model.topology.particle_count
        self.rest_positions = model.topology.rest_positions
        rest = model.topology.rest_lengths
        self.spacing = float(rest[rest > 0].min()) if (rest > 0).any() else 0.2
        self.pairs = np.zeros((4 * n + 16, 2), dtype=np.int32)  # (P, 2) int32, grows
        self.targets = np.zeros(len(self.pairs))  # (P,) float64
        self.count = 0

    def distance(self, s: Any) -> float:
        return s.collision_distance or AUTO_COLLISION_FRACTION * self.spacing

    def begin(self, sub: Substep) -> None:
        distance = self.distance(sub.settings)
        while True:
            self.count = constraints.find_close_pairs(
                sub.x, self.rest_positions, PAIR_SEARCH_MARGIN * distance, distance,
                self.pairs, self.targets,
            )  # fmt: skip
            if self.count <= len(self.pairs):
                return
            self.pairs = np.zeros((2 * self.count, 2), dtype=np.int32)
            self.targets = np.zeros(2 * self.count)

    def project(self, sub: Substep) -> None:
        if self.count:
            constraints.project_pairs(sub.x, sub.inv_mass, self.pairs, self.targets, self.count)


class ContactSet(ConstraintSet):
    """Ball and floor, after every pass; with Coulomb friction when a coefficient is set."""

    depends_on = frozenset({LINKS})  # whether the threads are worth it follows the links

    def build(self, model: Model) -> None:
        self.parallel = model.links.parallel

    def project(self, sub: Substep) -> None:
        s, obstacles = sub.settings, sub.obstacles
        # friction reads each particle's own motion only, so the threads may split it too
        collide = kernels.collide_parallel if self.parallel else kernels.collide
        collide(
            sub.x, sub.x_prev, sub.inv_mass, obstacles.spheres, obstacles.boxes, s.floor,
            s.floor_y, s.friction_static, s.friction_kinetic,
        )  # fmt: skip


def constraint_sets() -> list[ConstraintSet]:
    """A fresh set of each kind, in the order the passes visit them."""
    return [LinkSet(), BendingSet(), TetherSet(), VolumeSet(), SelfContactSet(), ContactSet()]


# --- derived constraint sets (pure functions of topology, live links and pins) ---------------


def bend_links(model: Model) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Skip-one links across and down every sheet, (B,) int32 ends and (B,) rest lengths,
    kept only while both links they span are live (a cut also cuts the bending)."""
    alive = model.link_alive
    a_parts, b_parts = [], []
    for grid in model.topology.sheets:
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
    rest_positions = model.topology.rest_positions
    rest = np.linalg.norm(rest_positions[b] - rest_positions[a], axis=1)
    return a, b, rest


TETHERS_PER_PARTICLE = 4  # nearest pins only: a curtain has a pin per column
_PATH_PINS = 8  # a cut sheet with more pins is tethered to its nearest pin only
_CHUNK = 4096  # particles per block of the distance table, to bound memory


def tethers(model: Model) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(T,) particle, (T,) pin and (T,) length: each free particle tethered to its nearest
    pins at its distance from them along the cloth at rest — the straight rest distance on
    an uncut sheet, the shortest path over live links once it is cut (a cut only lengthens the
    way round). Several pins matter: tethered to one each, the two halves of a sheet held at
    both top corners could swing apart at the middle."""
    pins = model.pin_index
    free = np.ones(model.topology.particle_count, dtype=bool)
    free[pins] = False
    parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    if len(pins) == 0:
        pass
    elif model.link_alive.all():
        rest = model.topology.rest_positions
        for start in range(0, len(free), _CHUNK):
            rows = np.flatnonzero(free[start : start + _CHUNK]) + start
            table = np.linalg.norm(rest[rows, None, :] - rest[None, pins, :], axis=2)
            parts.append(_nearest(rows, table, pins))
    elif len(pins) <= _PATH_PINS:
        table = np.stack([_path_lengths(model, [p])[0] for p in pins], axis=1)  # (N, P)
        rows = np.flatnonzero(free)
        parts.append(_nearest(rows, table[rows], pins))
    else:
        length, source = _path_lengths(model, pins)
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


def _path_lengths(model: Model, sources: np.ndarray | list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Dijkstra over the live links (rest lengths as weights) from the nearest of `sources`:
    (N,) path length (inf where unreachable) and (N,) the source reached from."""
    n = model.topology.particle_count
    live = np.flatnonzero(model.link_alive)
    ends = model.topology.links[live]
    weight = model.topology.rest_lengths[live]
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


def block_tetrahedra(topology: Topology) -> tuple[np.ndarray, np.ndarray]:
    """(T, 4) int32 tetrahedra of every block cell and their (T,) rest volumes."""
    parts = [
        np.stack([cells[:, 0], cells[:, a], cells[:, b], cells[:, 7]], axis=1)
        for block in topology.blocks
        for cells in (block.cells,)
        for a, b in zip(_RING, _RING[1:] + _RING[:1], strict=True)
    ]
    tets = np.concatenate(parts).astype(np.int32) if parts else np.zeros((0, 4), np.int32)
    return tets, constraints.tet_volumes(topology.rest_positions, tets)


def live_triangles(model: Model) -> np.ndarray:
    """(T, 3) int32: two triangles per live face, wound like the face."""
    faces = model.topology.faces[model.face_alive]
    return np.ascontiguousarray(
        np.concatenate([faces[:, [0, 1, 2]], faces[:, [0, 2, 3]]]), dtype=np.int32
    )


def vertex_areas(topology: Topology, triangles: np.ndarray) -> np.ndarray:
    """(N,) float64: a third of the rest area of every live triangle round each particle."""
    rest = topology.rest_positions
    edges = rest[triangles[:, 1:]] - rest[triangles[:, :1]]  # (T, 2, 3)
    area = 0.5 * np.linalg.norm(np.cross(edges[:, 0], edges[:, 1]), axis=1)
    return np.bincount(
        triangles.ravel(), weights=np.repeat(area / 3.0, 3), minlength=topology.particle_count
    )
