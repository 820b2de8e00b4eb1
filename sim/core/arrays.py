"""The arrays the kernels read besides positions, built by pure functions.

They are derived from the topology and the state and rebuilt only when what they depend on
changes: `LinkArrays` when links are cut, torn or restored (or the link order changes),
`FixedArrays` when pins or the grab change, `LinkMaterial` when the links or a stiffness or
compliance change, `Obstacles` when the ball or an obstacle changes. Nothing here runs in the
inner loop.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from clothlab.sim.core import ordering
from clothlab.sim.core.records import Contacts, Held, LinkMoves, Links, Particles
from clothlab.sim.core.topology import Topology

Vec3 = tuple[float, float, float]


# eq=False throughout: the fields are arrays, so a generated __eq__ would compare them element
# by element (an error, or an ambiguous truth value). Each is built anew when what it depends on
# changes, so identity is the equality the caches (Simulation.link_material) need.
@dataclass(frozen=True, eq=False)
class LinkArrays:
    """The live links, compacted so the hot loop has no branch on a mask, in solver order."""

    live: np.ndarray  # (L,) int64, topology index of each compacted link
    a: np.ndarray  # (L,) int32, first particle
    b: np.ndarray  # (L,) int32, second particle
    rest: np.ndarray  # (L,) float64, rest length
    colour_start: np.ndarray  # (C + 1,) int64, where each independent set begins
    runs: np.ndarray  # (R, 5) uint64, the links as runs whose ends step evenly (link_runs)
    run_start: np.ndarray  # (C + 1,) int64, where each independent set's runs begin
    coloured: bool  # in colour order (independent sets) rather than the classic family order
    parallel: bool  # the two-thread kernel applies
    solver_mode: int  # the setting these were built for (ordering.AUTOMATIC, …)
    start: np.ndarray  # (L, 3) float64, scratch: each link's direction as the step began
    # (L,) float64, scratch: mass × how far each link moved its ends over the last (sub)step's
    # passes, along its correction (its pull × Δt²); sim.core.forces reads it
    moved: np.ndarray
    # the last record and the material it was made with (`record`)
    _kept: list[tuple[LinkMaterial, Links]] = field(default_factory=list, init=False, repr=False)

    @property
    def count(self) -> int:
        return len(self.rest)

    def record(self, material: LinkMaterial) -> Links:
        """The links as a pass over them reads them, with each one's stiffness and compliance:
        kept while the material is the same, as the step's kernels, passes and solves ask for
        it again (numba types a new record more slowly than one it has seen)."""
        if not self._kept or self._kept[0][0] is not material:
            made = Links(
                self.a,
                self.b,
                self.runs,
                self.run_start,
                self.rest,
                material.stiffness,
                material.compliance,
                self.start,
                self.moved,
            )
            self._kept[:] = [(material, made)]
        return self._kept[0][1]

    @property
    def moves(self) -> LinkMoves:
        """What the last (sub)step's passes moved, for the forces."""
        return LinkMoves(self.a, self.b, self.start, self.moved)


@dataclass(frozen=True, eq=False)
class FixedArrays:
    """Particles held in place: pins, and the grabbed particle while it is held."""

    index: np.ndarray  # (P,) int32, pins in ascending order, then the grabbed particle
    anchor: np.ndarray  # (P, 3) float64, where each sits
    inv_mass: np.ndarray  # (N,) float64, 0 for held particles, 1 / mass otherwise

    def particles(self, x: np.ndarray, x_prev: np.ndarray) -> Particles:
        """Positions `x` and `x_prev` ((N, 3) float64) with these inverse masses."""
        return Particles(x, x_prev, self.inv_mass)

    @property
    def held(self) -> Held:
        return Held(self.index, self.anchor)


def build_links(topology: Topology, link_alive: np.ndarray, solver_mode: int) -> LinkArrays:
    """The live links in solver order. In colour order they are the topology's colour order
    (`topology_colouring`, of every link, live or not) with the dead links dropped: a colour
    minus some links is still an independent set. So the order is a function of which links
    live, whatever cut or tore them and in what order, and a tear costs a filter, not a
    recolouring."""
    coloured, parallel = ordering.resolve_mode(solver_mode, int(np.count_nonzero(link_alive)))
    if coloured:
        order, colour = topology_colouring(topology)
        live, a, b, rest, colour_start = _live_in_colour_order(
            order, colour, link_alive, topology.links, topology.rest_lengths
        )
    else:
        live = np.flatnonzero(link_alive)
        links = topology.links[live]
        a, b = np.ascontiguousarray(links[:, 0]), np.ascontiguousarray(links[:, 1])
        rest = np.ascontiguousarray(topology.rest_lengths[live])
        colour_start = np.array([0, len(live)], dtype=np.int64)
    runs, run_start = ordering.link_runs(a, b, colour_start)
    return LinkArrays(
        live=live,
        a=a,
        b=b,
        rest=rest,
        colour_start=colour_start,
        runs=runs,
        run_start=run_start,
        coloured=coloured,
        parallel=parallel,
        solver_mode=solver_mode,
        start=np.zeros((len(rest), 3)),
        moved=np.zeros(len(rest)),
    )


@njit(cache=True, nogil=True)
def _live_in_colour_order(
    order: np.ndarray,  # (M,) int64, every topology link in colour order
    colour: np.ndarray,  # (M,) int64, the colour of each, ascending
    alive: np.ndarray,  # (M,) bool, by topology index
    ends: np.ndarray,  # (M, 2) int32
    rest_lengths: np.ndarray,  # (M,) float64
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The live links in that order: (L,) topology index, (L,) ends a and b, (L,) rest length
    and (C + 1,) where each colour begins. A colour with no live link left gets no entry: it
    would be a pass of its own over nothing."""
    m = order.shape[0]
    live = np.empty(m, dtype=np.int64)
    a = np.empty(m, dtype=np.int32)
    b = np.empty(m, dtype=np.int32)
    rest = np.empty(m)
    colour_start = np.empty(m + 1, dtype=np.int64)
    count = 0
    colours = 0
    current = -1
    for p in range(m):
        k = order[p]
        if not alive[k]:
            continue
        if colour[p] != current:
            current = colour[p]
            colour_start[colours] = count
            colours += 1
        live[count] = k
        a[count] = ends[k, 0]
        b[count] = ends[k, 1]
        rest[count] = rest_lengths[k]
        count += 1
    colour_start[colours] = count
    return (
        live[:count].copy(), a[:count].copy(), b[:count].copy(), rest[:count].copy(),
        colour_start[: colours + 1].copy(),
    )  # fmt: skip


# id(topology) → its colouring, while the topology lives (Topology compares by value, arrays
# and all, so it cannot be a dictionary key itself).
_COLOURINGS: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def topology_colouring(topology: Topology) -> tuple[np.ndarray, np.ndarray]:
    """(M,) int64 every topology link in colour order (ordering.colour_order) and (M,) int64
    the colour of each, in that order; computed once per topology."""
    key = id(topology)
    found = _COLOURINGS.get(key)
    if found is None:
        ends = topology.links
        order, starts = ordering.colour_order(ends[:, 0], ends[:, 1], topology.particle_count)
        colour = np.repeat(np.arange(len(starts) - 1, dtype=np.int64), np.diff(starts))
        found = (order.astype(np.int64), colour)
        _COLOURINGS[key] = found
        weakref.finalize(topology, _COLOURINGS.pop, key, None)
    return found


def build_fixed(
    particle_count: int,
    pin_index: np.ndarray,  # (P,) int32
    pin_anchor: np.ndarray,  # (P, 3) float64
    grab: tuple[int, np.ndarray] | None,  # (particle, target) while a particle is held
    mass: np.ndarray | None = None,  # (N,) float64, kg; None: every particle of mass 1
) -> FixedArrays:
    index, anchor = pin_index, pin_anchor
    if grab is not None and grab[0] not in set(pin_index.tolist()):
        index = np.append(pin_index, np.int32(grab[0])).astype(np.int32)
        anchor = np.vstack([pin_anchor, grab[1]])
    inv_mass = np.ones(particle_count) if mass is None else 1.0 / mass
    inv_mass[index] = 0.0
    return FixedArrays(
        index=np.ascontiguousarray(index, dtype=np.int32),
        anchor=np.ascontiguousarray(anchor, dtype=np.float64).reshape(-1, 3),
        inv_mass=inv_mass,
    )


@dataclass(frozen=True, eq=False)
class Obstacles:
    """What particles collide with besides the floor, as the kernels read it."""

    spheres: np.ndarray  # (S, 4) float64, centre and radius; the ball first when it is on
    boxes: np.ndarray  # (B, 6) float64, centre and half size along x, y, z
    # (S + B + 1,) float64: mass × depth each sphere, box and the floor pushed particles out by
    # over the last (sub)step's passes (kernels.collide); sim.core.forces reads it
    pushed: np.ndarray
    names: tuple[str, ...]  # of pushed's entries: "ball", "sphere 1", …, "box 1", …, "floor"

    def contacts(
        self, floor_on: bool, floor_y: float, pushed: np.ndarray | None = None
    ) -> Contacts:
        """These obstacles and the floor, pushes gathered into `pushed` (None: self.pushed)."""
        return Contacts(
            self.spheres,
            self.boxes,
            bool(floor_on),
            float(floor_y),
            self.pushed if pushed is None else pushed,
        )


def build_obstacles(
    ball: tuple[Vec3, float] | None,
    spheres: list[tuple[Vec3, float]],  # (centre, radius) of the scene's other spheres
    boxes: list[tuple[Vec3, Vec3]],  # (centre, full size)
) -> Obstacles:
    all_spheres = ([ball] if ball is not None else []) + list(spheres)
    return Obstacles(
        spheres=np.array([(*c, r) for c, r in all_spheres], dtype=np.float64).reshape(-1, 4),
        boxes=np.array(
            [(*c, *(0.5 * v for v in size)) for c, size in boxes], dtype=np.float64
        ).reshape(-1, 6),
        pushed=np.zeros(len(all_spheres) + len(boxes) + 1),
        names=(
            *(["ball"] if ball is not None else []),
            *(f"sphere {k}" for k in range(1, len(spheres) + 1)),
            *(f"box {k}" for k in range(1, len(boxes) + 1)),
            "floor",
        ),
    )


@dataclass(frozen=True, eq=False)
class LinkMaterial:
    """Each live link's stiffness (classic rule) and compliance (XPBD), in solver order."""

    stiffness: np.ndarray  # (L,) float64
    compliance: np.ndarray  # (L,) float64


def build_link_material(
    links: LinkArrays,
    link_body: np.ndarray,  # (M,) int32, the body each topology link belongs to
    body_properties: list[tuple[float, float]],  # (stiffness, compliance) of each body
    own_compliance: np.ndarray | None = None,  # (M,) float64 by topology index, NaN: the body's
) -> LinkMaterial:
    """Each live link's stiffness and compliance: its body's, or (an SI material's links,
    sim.core.materials) the link's own compliance."""
    table = np.array(body_properties, dtype=np.float64).reshape(-1, 2)  # (bodies, 2)
    body = link_body[links.live]
    compliance = table[body, 1]
    if own_compliance is not None:
        own = own_compliance[links.live]
        compliance = np.where(np.isnan(own), compliance, own)
    return LinkMaterial(
        stiffness=np.ascontiguousarray(table[body, 0]),
        compliance=np.ascontiguousarray(compliance),
    )
