"""The records the kernels take: what travels together, one argument each.

Each is a `typing.NamedTuple` of arrays and scalars. Numba types one as a heterogeneous tuple
and reads its fields by name in nopython mode, so a kernel takes `(particles, held, links,
world, contacts, stop)` where it took two dozen positionals. A field keeps one dtype and shape
in every record of its kind (`floor_on` is always a bool, `t` always a float), so that each
kernel compiles once per role, not once per caller. The Python-side owners hand out their
record (`FixedArrays.particles`, `LinkArrays.record`, `Obstacles.contacts`, `Settings.world`):
callers never spell the fields out. A second step backend (sim.core.backend) receives the same
records.

numba's dispatcher types a record field by field at every call (≈1 µs, where a plain tuple
takes 0.5), as long as a pass's work on a small specimen: `prepared` finds a kernel's compiled
code once for calls repeated with the same arguments.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, NamedTuple

import numpy as np
from numba._dispatcher import compute_fingerprint
from numba.core.dispatcher import Dispatcher

# A kernel's compiled code for the types of its arguments, each told by its class and numba's
# fingerprint of it (dtypes, dimensions, layouts, writability; a record's of every field).
_COMPILED: dict[tuple[Dispatcher, tuple[tuple[type, bytes], ...]], Callable[..., Any]] = {}


def prepared(kernel: Dispatcher, *args: Any) -> Callable[[], Any]:
    """`kernel(*args)` as a call to repeat: a pass's calls are made once a step and repeated
    every pass of its substeps (a hanging strip's 64 substeps of 8 passes). The compiled code
    for these arguments' types is called without the dispatcher. Until the dispatcher has it (the
    kernel's first call compiles or loads it), or where it would convert an argument, the call
    goes through the dispatcher."""
    try:
        key = (kernel, tuple((type(arg), compute_fingerprint(arg)) for arg in args))
    except NotImplementedError:  # an argument numba has no fingerprint for
        return partial(kernel, *args)
    compiled = _COMPILED.get(key)
    if compiled is None:
        # numba's typing stubs leave entry_point (the compiled code's Python callable) out
        overload: Any = kernel.overloads.get(tuple(kernel.typeof_pyval(arg) for arg in args))
        if overload is None:
            return partial(kernel, *args)
        compiled = _COMPILED[key] = overload.entry_point
    return partial(compiled, *args)


class Particles(NamedTuple):
    """The particles a kernel moves."""

    x: np.ndarray  # (N, 3) float64, positions, updated in place
    x_prev: np.ndarray  # (N, 3) float64, positions a (sub)step before (Verlet's velocity)
    inv_mass: np.ndarray  # (N,) float64, 0 for held particles


class Held(NamedTuple):
    """What holds particles in place: the pins, then the grabbed particle while it is held."""

    particle: np.ndarray  # (P,) int32, the held particles (`index` is a tuple method)
    anchor: np.ndarray  # (P, 3) float64, where each sits


class Links(NamedTuple):
    """Distance constraints in solver order, as a pass over them reads and writes them: the
    live links (LinkArrays with their LinkMaterial) or the bending links (BendingSet)."""

    a: np.ndarray  # (L,) int32, first particle
    b: np.ndarray  # (L,) int32, second particle
    runs: np.ndarray  # (R, 5) uint64, the links as runs whose ends step evenly (ordering)
    run_start: np.ndarray  # (C + 1,) int64, where each independent set's runs begin
    rest: np.ndarray  # (L,) float64, rest length
    stiffness: np.ndarray  # (L,) float64, the classic rule's factor
    compliance: np.ndarray  # (L,) float64, XPBD's α
    start: np.ndarray  # (L, 3) float64, scratch: each link's unit direction as the step began
    moved: np.ndarray  # (L,) float64, out: mass × how far each moved its ends (its pull × Δt²)


class LinkMoves(NamedTuple):
    """What a pass over distance constraints moved, as the forces read it (sim.core.forces)."""

    a: np.ndarray  # (L,) int32
    b: np.ndarray  # (L,) int32
    start: np.ndarray  # (L, 3) float64, each link's unit direction as the (sub)step began
    moved: np.ndarray  # (L,) float64, mass × how far it moved its ends over the passes


class World(NamedTuple):
    """What one step of the classic rule runs with besides arrays."""

    passes: int  # Gauss–Seidel passes over the links
    damping: float  # the factor the predict keeps of the last step's motion (per step)
    gravity: float  # units/s², along −y
    wind: float  # units/s², along +z before gusting (kernels.gust)
    t: float  # model time as the step begins, s
    dt: float  # the step's length, s


class Contacts(NamedTuple):
    """What particles are pushed out of after each pass."""

    spheres: np.ndarray  # (S, 4) float64, centre and radius; the ball first when it is on
    boxes: np.ndarray  # (B, 6) float64, centre and half size along x, y, z
    floor_on: bool
    floor_y: float  # height of the floor, units
    pushed: np.ndarray  # (S + B + 1,) float64, accumulates mass × depth: spheres, boxes, floor


class Surface(NamedTuple):
    """What aerodynamic wind acts on: the live triangles, the rest area each particle stands
    for, each particle's triangles in order, and scratch for each triangle's force."""

    triangles: np.ndarray  # (T, 3) int32
    vertex_area: np.ndarray  # (N,) float64, rest area each particle stands for (0: none)
    corner_start: np.ndarray  # (N + 1,) int64, where each particle's triangles begin
    corner_triangle: np.ndarray  # (3T,) int64, each particle's triangles, in order
    force: np.ndarray  # (T, 9) float64, scratch: constraints._triangle_air_force's rows


class Air(NamedTuple):
    """The air aerodynamic wind blows with over one substep."""

    velocity: np.ndarray  # (3,) float64, before gusting, units/s
    t: float  # model time, s (the gusts follow it)
    h: float  # substep length, s
    drag: float  # pressure coefficient along the normal
    lift: float  # coefficient across, in the triangle's plane


class Graph(NamedTuple):
    """The topology's links as a graph to walk: particle i's links are entries
    offsets[i]:offsets[i + 1] of neighbour and via, dead links included (walks skip them)."""

    offsets: np.ndarray  # (N + 1,) int64
    neighbour: np.ndarray  # (2M,) int32, the particle at the link's other end
    via: np.ndarray  # (2M,) int64, the topology link
    weight: np.ndarray  # (M,) float64, each topology link's rest length
    alive: np.ndarray  # (M,) bool


class PathTree(NamedTuple):
    """Shortest paths over the live links from a set of sources (the pins), as a tree."""

    length: np.ndarray  # (N,) float64, along the cloth at rest from the nearest source; inf: none
    parent_link: np.ndarray  # (N,) int64, the link each path arrives by; -1 at a source or none
    origin: np.ndarray  # (N,) int64, the source each path starts at; -1 where unreachable


class PairSearch(NamedTuple):
    """What a search for close pairs of particles reads (constraints.find_close_pairs)."""

    x: np.ndarray  # (N, 3) float64, positions now
    rest: np.ndarray  # (N, 3) float64, rest positions
    radius: float  # pairs closer than this are found
    distance: float  # each must end at least this far apart (or as far as at rest, if less)
    # (cells (N, 3) int64, order (N,) int64, starts (M + 1,) int64, mask): the particles in a
    # spatial hash of cells 2 × radius across (constraints._bin_particles)
    grid: tuple[np.ndarray, np.ndarray, np.ndarray, int]
    # (offsets, neighbour, via, alive) of Graph: pairs joined by a live link are left to it
    linked: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


class Pairs(NamedTuple):
    """Close pairs as found, written row by row."""

    ends: np.ndarray  # (P, 2) int32, the two particles, i < j
    targets: np.ndarray  # (P,) float64, the distance each must end apart


class BlockMatrix(NamedTuple):
    """A symmetric matrix of 3 × 3 blocks in block CSR (sim.core.multigrid)."""

    indptr: np.ndarray  # (n + 1,) int64
    indices: np.ndarray  # (nnz,) int64
    data: np.ndarray  # (nnz, 3, 3) float64


class LineFactors(NamedTuple):
    """One direction's lines of a multigrid level and their factored bands, as a line
    Gauss–Seidel sweep reads them (multigrid.line_sweep)."""

    order: np.ndarray  # (n,) int64, the nodes line by line
    start: np.ndarray  # (lines + 1,) int64, where each line begins in `order`
    outside: np.ndarray  # (nnz,) bool, the blocks that couple two lines
    band: np.ndarray  # (3n, w + 1) float64, each line's band Cholesky factor (factor_bands)


class LinearStencils(NamedTuple):
    """Linear constraints C = Σ c_m·x_m of one kind, three components each (x, y, z), as an
    XPBD pass reads them (constraints.project_stencils_xpbd)."""

    members: np.ndarray  # (K, M) int32, the particles of each stencil
    coefficients: np.ndarray  # (K, M) float64, each stencil's c_m
    compliance: np.ndarray  # (K,) float64
    lambdas: np.ndarray  # (K, 3) float64, Lagrange multipliers of this substep


class ShearCells(NamedTuple):
    """Cells held square by their shear conditions, as an XPBD pass reads them
    (constraints.project_cell_shear)."""

    cells: np.ndarray  # (C, 4) int32, corners 00, 01, 11, 10
    coefficients: np.ndarray  # (C, 2, 4) float64, F_u and F_v from the corners
    compliance: np.ndarray  # (C,) float64
    lambdas: np.ndarray  # (C,) float64, Lagrange multipliers of this substep
    gradient: np.ndarray  # (C, 4, 3) float64, out: each corner's ∇C as last projected


class Jacobian(NamedTuple):
    """G, the rows of the system the links, the cells' shear and the linear shapes are solved
    together in (constraint_sets.LinksTogether), each a row of −∇C: the links' first, then the
    cells', then the shapes' (three rows a shape, x, y, z)."""

    link_gradient: np.ndarray  # (L, 3) float64, each link's row (constraints.links_rows)
    link_a: np.ndarray  # (L,) int32
    link_b: np.ndarray  # (L,) int32
    cells: np.ndarray  # (C, 4) int32, corners 00, 01, 11, 10
    shear_gradient: np.ndarray  # (C, 4, 3) float64, each cell's row (constraints.shear_rows)
    members: np.ndarray  # (K, M) int32, each shape's particles (padded: coefficient 0)
    shape_gradient: np.ndarray  # (K, M) float64, each shape's −c_m, one row per axis


class SystemRows(NamedTuple):
    """The same system's right-hand side and what each row adds to its diagonal, row by row
    as Jacobian orders them."""

    residual: np.ndarray  # (R,) float64, C + α̃·λ
    alpha: np.ndarray  # (R,) float64, α̃ = compliance / h²
    inverse_diagonal: np.ndarray  # (R,) float64, 1 / the diagonal; 0: a row left out


class SparseRows(NamedTuple):
    """A matrix in compressed sparse rows, as scipy keeps one (a `csr_matrix`'s arrays)."""

    indptr: np.ndarray  # (rows + 1,) int32, where each row's entries start
    indices: np.ndarray  # (nnz,) int32, each entry's column
    data: np.ndarray  # (nnz,) float64

    @classmethod
    def of(cls, matrix: Any) -> SparseRows:
        """Of a scipy sparse matrix (converted to CSR with int32 indices)."""
        csr = matrix.tocsr()
        return cls(
            csr.indptr.astype(np.int32), csr.indices.astype(np.int32),
            np.ascontiguousarray(csr.data, dtype=np.float64),
        )  # fmt: skip


class BlockSlots(NamedTuple):
    """Where each row's couplings land among the 3 × 3 blocks of P = W⁻¹ + Gᵀ·α̃⁻¹·G in block
    CSR (multigrid.Pattern): every particle's own block, each link's ends, each cell's corners
    and each shape's members, pair by pair."""

    diagonal: np.ndarray  # (N,) int64, the block (p, p)
    link_slots: np.ndarray  # (L, 2, 2) int64, the block (end m, end n) of each link
    cell_slots: np.ndarray  # (C, 4, 4) int64
    shape_slots: np.ndarray  # (K, M, M) int64
