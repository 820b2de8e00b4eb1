"""Geometric multigrid for the particles' system of the fabric solve, P = W⁻¹ + Gᵀ·α̃⁻¹·G
(sim.core.constraint_sets.LinksTogether), on the grids the sheets and discs are made of.

One V-cycle is the preconditioner of conjugate gradients on P: each level is smoothed by line
Gauss–Seidel along its warp rows and then its weft columns, each line's band of P solved
exactly (a link's stiffness along its line is what a point smoother cannot carry), the
residual moves to a grid of half the spacing by bilinear weights, and back up; the coarsest
level is factored. Its iterations stay flat as the mesh is refined and each costs O(n): in the
solver a clamped cotton sheet moving took a median of 5, 5, 7 and 9 from 32² to 256², where the
factored preconditioner took 6, 10, 7 and 27. A cycle costs 2–3 of the factor's solves, so the
factor is faster up to 128² over half a second of a fall, at rest up to 160² at least, and on
the drape specimen; this is faster from 128² up in the first 0.1 s of a fall, where the factor
goes stale, and 5 times as fast at 256² (RESEARCH.md §8, "Multigrid in the solve, measured in
milliseconds").

The finest level is P itself, assembled each substep into a fixed pattern; the coarse levels
(Pᵀ_transfer·A·P_transfer, Galerkin) are made when the caller asks, from the finest as it was
then: a coarse level made a little earlier does nearly as well (the same section).

Blocks are 3 × 3 (a particle's x, y, z); a matrix is block CSR: indptr (n + 1,), indices
(nnz,) and data (nnz, 3, 3), each row's blocks sorted by column.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sparse
from numba import njit

from clothlab.sim.core.factor import Factor
from clothlab.sim.core.kernels import FASTMATH, NO_REFCOUNTS
from clothlab.sim.core.records import BlockMatrix, BlockSlots, Jacobian, LineFactors, SystemRows
from clothlab.sim.core.topology import Topology

# A level of this many nodes or fewer is factored: its solve costs less than the sweeps and
# the Python of the levels below it would (a 572-node level of the drape specimen: 0.1 ms)
COARSEST_NODES = 1500


def grid_keys(topology: Topology) -> np.ndarray | None:
    """(N, 3) int64: each particle's (body, row, col) on its sheet's or disc's grid; None when
    a particle lies on no grid (a soft block's)."""
    keys = np.full((topology.particle_count, 3), -1, dtype=np.int64)
    body = 0
    for sheet in topology.sheets:
        rows, cols = np.divmod(np.arange(sheet.particle_count), sheet.cols)
        span = slice(sheet.first_particle, sheet.first_particle + sheet.particle_count)
        keys[span] = np.stack([np.full_like(rows, body), rows, cols], axis=1)
        body += 1
    for disc in topology.discs:
        span = slice(disc.first_particle, disc.first_particle + disc.particle_count)
        keys[span, 0] = body
        keys[span, 1:] = disc.cell_ij
        body += 1
    return None if np.any(keys[:, 0] < 0) else keys


@dataclass(frozen=True)
class Lines:
    """One direction's lines of a level: the nodes in line order, where each line starts, and
    each node's line and place in the order."""

    order: np.ndarray  # (n,) int64, the nodes line by line, each line in order along it
    start: np.ndarray  # (lines + 1,) int64
    line: np.ndarray  # (n,) int64, each node's line
    place: np.ndarray  # (n,) int64, each node's index in `order`
    outside: np.ndarray  # (nnz,) bool, each of the matrix's blocks couples two lines
    width: int  # the band's half width in scalars: couplings within a line reach this far

    @classmethod
    def along(cls, keys: np.ndarray, axis: int, indptr: np.ndarray, indices: np.ndarray) -> Lines:
        """The lines along `axis` (2: warp rows, along the columns; 1: weft columns)."""
        across = 3 - axis
        order = np.lexsort((keys[:, axis], keys[:, across], keys[:, 0]))
        ends = np.r_[True, np.any(np.diff(keys[order][:, [0, across]], axis=0) != 0, axis=1)]
        start = np.r_[np.flatnonzero(ends), len(order)].astype(np.int64)
        line = np.empty(len(order), dtype=np.int64)
        line[order] = np.cumsum(ends) - 1
        place = np.empty(len(order), dtype=np.int64)
        place[order] = np.arange(len(order))
        rows = np.repeat(np.arange(len(order)), np.diff(indptr))
        same = line[rows] == line[indices]
        reach = int(np.max(np.abs(place[rows] - place[indices])[same], initial=0))
        return cls(order.astype(np.int64), start, line, place, ~same, 3 * reach + 2)


class Level:
    """One level's matrix, its two directions' lines and their band factors."""

    def __init__(self, indptr: np.ndarray, indices: np.ndarray, data: np.ndarray,
                 keys: np.ndarray) -> None:  # fmt: skip
        self.indptr, self.indices, self.data = indptr, indices, data
        self.keys = keys
        self.lines = [Lines.along(keys, axis, indptr, indices) for axis in (2, 1)]
        n = len(keys)
        self.bands = [np.zeros((3 * n, lines.width + 1)) for lines in self.lines]
        self.scratch = np.zeros(3 * n)  # (3n,) float64

    @property
    def size(self) -> int:
        return len(self.keys)

    @property
    def matrix(self) -> BlockMatrix:
        return BlockMatrix(self.indptr, self.indices, self.data)

    def factor_lines(self) -> None:
        """Each line's band of the level's matrix, factored (banded Cholesky)."""
        for lines, band in zip(self.lines, self.bands, strict=True):
            line_bands(self.indptr, self.indices, self.data, lines.line, lines.place, band)
            factor_bands(lines.start, band)

    def sweep(self, r: np.ndarray, z: np.ndarray, backward: bool) -> None:
        """Line Gauss–Seidel on A·z = r ((n, 3) each): warp then weft lines, or back."""
        matrix = self.matrix
        for k in (1, 0) if backward else (0, 1):
            lines = self.lines[k]
            factors = LineFactors(lines.order, lines.start, lines.outside, self.bands[k])
            line_sweep(matrix, factors, r, z, backward, self.scratch)

    def scalar(self) -> sparse.csr_matrix:
        """(3n, 3n) the level's matrix as scalar CSR."""
        return as_scalar(self.indptr, self.indices, self.data)


def bilinear(keys: np.ndarray, free: np.ndarray) -> tuple[sparse.csr_matrix, np.ndarray]:
    """(transfer (3n, 3m) from the coarse grid's m nodes to these n, the coarse keys): each
    node takes the four coarse nodes around its half-spacing point by bilinear weights; a held
    node (not `free`) takes nothing, so a correction never moves it."""
    half, odd = keys[:, 1:] // 2, keys[:, 1:] % 2
    rows, coarse, weights = [], [], []
    for corner in ((0, 0), (0, 1), (1, 0), (1, 1)):
        share = np.where(corner, odd * 0.5, 1.0 - odd * 0.5).prod(axis=1)
        keep = (share > 0.0) & free
        rows.append(np.flatnonzero(keep))
        coarse.append(np.column_stack([keys[keep, 0], half[keep] + corner]))
        weights.append(share[keep])
    found, node = np.unique(np.concatenate(coarse), axis=0, return_inverse=True)
    row = np.concatenate(rows)
    scalar_rows = (3 * row[:, None] + np.arange(3)).ravel()
    scalar_cols = (3 * node.ravel()[:, None] + np.arange(3)).ravel()
    transfer = sparse.csr_matrix(
        (np.repeat(np.concatenate(weights), 3), (scalar_rows, scalar_cols)),
        shape=(3 * len(keys), 3 * len(found)),
    )
    return transfer, found


def as_blocks(matrix: sparse.csr_matrix) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Block CSR (indptr, indices, data) of a scalar matrix of 3 × 3 blocks, every block of its
    pattern stored whole; a node with nothing on its diagonal (no fine node reaches it) gets
    the identity, so that the level stays positive definite."""
    blocks = matrix.tobsr(blocksize=(3, 3))
    blocks.sort_indices()
    indptr, indices = blocks.indptr.astype(np.int64), blocks.indices.astype(np.int64)
    data = np.ascontiguousarray(blocks.data)
    rows = np.repeat(np.arange(len(indptr) - 1), np.diff(indptr))
    diagonal = np.flatnonzero(rows == indices)
    empty = np.abs(data[diagonal]).sum(axis=(1, 2)) == 0.0
    data[diagonal[empty]] = np.eye(3)
    return indptr, indices, data


def as_scalar(indptr: np.ndarray, indices: np.ndarray, data: np.ndarray) -> sparse.csr_matrix:
    """The scalar CSR of a block CSR."""
    size = 3 * (len(indptr) - 1)
    return sparse.bsr_matrix((data, indices, indptr), shape=(size, size)).tocsr()


class Multigrid:
    """The V-cycle of a finest level whose pattern is fixed and whose values change each
    substep (`finest.data`, then `refresh_finest`); `coarsen` makes the coarse levels from the
    finest as it is."""

    def __init__(self, finest: Level) -> None:
        self.finest = finest
        self.levels: list[Level] = [finest]
        self.transfers: list[sparse.csr_matrix] = []
        self.restrictions: list[sparse.csr_matrix] = []  # each transfer's transpose
        self.coarsest: Factor | None = None

    def coarsen(self, free: np.ndarray) -> None:
        """The coarse levels from the finest as it is; `free` ((n,) bool) the nodes that move
        (a held one's correction is the caller's to drop, should it move later)."""
        a, keys = self.finest.scalar(), self.finest.keys
        self.transfers, coarse = [], []
        while len(keys) > COARSEST_NODES or (
            not self.transfers and np.max(np.ptp(keys[:, 1:], axis=0)) > 1
        ):  # at least one coarse level: the finest changes every substep, a factor would not
            transfer, keys = bilinear(keys, free)
            free = np.ones(len(keys), dtype=bool)
            blocks = as_blocks(transfer.T @ a @ transfer)
            a = as_scalar(*blocks)  # with as_blocks' identities where nothing reached
            self.transfers.append(transfer)
            coarse.append((*blocks, keys))
        self.restrictions = [t.T.tocsr() for t in self.transfers]
        # the coarsest is factored, the others smoothed
        self.coarsest = Factor(a) if coarse else None
        self.levels = [self.finest] + [Level(*level) for level in coarse[:-1]]
        for level in self.levels[1:]:
            level.factor_lines()

    def refresh_finest(self) -> None:
        """The finest level's band factors, after its values changed."""
        self.finest.factor_lines()

    def cycle(self, r: np.ndarray, z: np.ndarray, level: int = 0) -> None:
        """z ((n, 3), overwritten) ≈ A⁻¹·r by one symmetric V-cycle from `level` down."""
        if level == len(self.levels):
            assert self.coarsest is not None
            self.coarsest.solve(np.ascontiguousarray(r.ravel()), z.reshape(-1))
            return
        a = self.levels[level]
        z[:] = 0.0
        a.sweep(r, z, backward=False)
        if level < len(self.transfers):
            left = np.empty_like(r)
            residual(a.indptr, a.indices, a.data, r, z, left)
            coarse_r = (self.restrictions[level] @ left.reshape(-1)).reshape(-1, 3)
            coarse_z = np.empty_like(coarse_r)
            self.cycle(coarse_r, coarse_z, level + 1)
            z += (self.transfers[level] @ coarse_z.reshape(-1)).reshape(-1, 3)
        a.sweep(r, z, backward=True)


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH, inline="always")
def _block_times(data: np.ndarray, e: int, z: np.ndarray, q: int) -> tuple[float, float, float]:
    """Block e of a block CSR times node q's z."""
    zx, zy, zz = z[q, 0], z[q, 1], z[q, 2]
    return (
        data[e, 0, 0] * zx + data[e, 0, 1] * zy + data[e, 0, 2] * zz,
        data[e, 1, 0] * zx + data[e, 1, 1] * zy + data[e, 1, 2] * zz,
        data[e, 2, 0] * zx + data[e, 2, 1] * zy + data[e, 2, 2] * zz,
    )


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH)
def multiply(
    indptr: np.ndarray,  # (n + 1,) int64
    indices: np.ndarray,  # (nnz,) int64
    data: np.ndarray,  # (nnz, 3, 3) float64
    z: np.ndarray,  # (n, 3) float64
    out: np.ndarray,  # (n, 3) float64, overwritten: A·z
) -> None:
    for p in range(indptr.shape[0] - 1):
        sx = sy = sz = 0.0
        for e in range(indptr[p], indptr[p + 1]):
            bx, by, bz = _block_times(data, e, z, indices[e])
            sx += bx
            sy += by
            sz += bz
        out[p, 0], out[p, 1], out[p, 2] = sx, sy, sz


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH)
def residual(
    indptr: np.ndarray,  # (n + 1,) int64
    indices: np.ndarray,  # (nnz,) int64
    data: np.ndarray,  # (nnz, 3, 3) float64
    r: np.ndarray,  # (n, 3) float64
    z: np.ndarray,  # (n, 3) float64
    out: np.ndarray,  # (n, 3) float64, overwritten: r − A·z
) -> None:
    multiply(indptr, indices, data, z, out)
    for p in range(out.shape[0]):
        for c in range(3):
            out[p, c] = r[p, c] - out[p, c]


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH)
def line_bands(
    indptr: np.ndarray,  # (n + 1,) int64
    indices: np.ndarray,  # (nnz,) int64
    data: np.ndarray,  # (nnz, 3, 3) float64
    line: np.ndarray,  # (n,) int64, each node's line
    place: np.ndarray,  # (n,) int64, each node's index in the lines' order
    band: np.ndarray,  # (3n, w + 1) float64, overwritten: band[s, d] = A[s, s − d] in line order
) -> None:
    """The lower band of each line's block of A, in the lines' order (scalar s = 3·place + c)."""
    band[:] = 0.0
    for p in range(indptr.shape[0] - 1):
        ip = place[p]
        for e in range(indptr[p], indptr[p + 1]):
            q = indices[e]
            if line[q] != line[p] or place[q] > ip:
                continue
            for c in range(3):
                for d in range(3):
                    gap = 3 * (ip - place[q]) + c - d
                    if gap >= 0:
                        band[3 * ip + c, gap] = data[e, c, d]


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH)
def factor_bands(
    start: np.ndarray,  # (lines + 1,) int64
    band: np.ndarray,  # (3n, w + 1) float64, in: the lower bands; out: their Cholesky factors
) -> None:
    """L·Lᵀ of each line's band in place (band[s, d] = L[s, s − d]), the diagonal stored as
    1/L[s, s]: the solves multiply where they would divide, whose latency bounds them."""
    w = band.shape[1] - 1
    for k in range(start.shape[0] - 1):
        lo, hi = 3 * start[k], 3 * start[k + 1]
        for j in range(lo, hi):
            total = band[j, 0]
            for d in range(1, min(w, j - lo) + 1):
                total -= band[j, d] * band[j, d]
            inverse = 1.0 / math.sqrt(total) if total > 0.0 else 0.0  # 0: a singular line
            band[j, 0] = inverse
            for i in range(j + 1, min(j + w, hi - 1) + 1):
                d = i - j
                value = band[i, d]
                for m in range(1, min(w - d, j - lo) + 1):
                    value -= band[i, d + m] * band[j, m]
                band[i, d] = value * inverse


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH)
def line_sweep(
    matrix: BlockMatrix,
    lines: LineFactors,
    r: np.ndarray,  # (n, 3) float64
    z: np.ndarray,  # (n, 3) float64, updated in place
    backward: bool,
    scratch: np.ndarray,  # (3n,) float64
) -> None:
    """One Gauss–Seidel sweep over the lines (forward, or backward for the adjoint): each line's
    unknowns solved exactly from r less the couplings to every other line's latest z."""
    indptr, indices, data = matrix
    order, start, outside, band = lines
    w = band.shape[1] - 1
    count = start.shape[0] - 1
    for step in range(count):
        k = count - 1 - step if backward else step
        lo, hi = start[k], start[k + 1]
        for t in range(lo, hi):
            p = order[t]
            sx, sy, sz = r[p, 0], r[p, 1], r[p, 2]
            for e in range(indptr[p], indptr[p + 1]):
                if outside[e]:
                    bx, by, bz = _block_times(data, e, z, indices[e])
                    sx -= bx
                    sy -= by
                    sz -= bz
            scratch[3 * t], scratch[3 * t + 1], scratch[3 * t + 2] = sx, sy, sz
        a, b = 3 * lo, 3 * hi
        # by columns: each unknown, once solved, is taken from the rows it reaches, updates
        # that do not wait on each other (a row's sum would wait on its every term in turn)
        for j in range(a, b):  # L·y = s
            y = scratch[j] * band[j, 0]
            scratch[j] = y
            for d in range(1, min(w, b - 1 - j) + 1):
                scratch[j + d] -= band[j + d, d] * y
        for i in range(b - 1, a - 1, -1):  # Lᵀ·x = y
            x = scratch[i] * band[i, 0]
            scratch[i] = x
            for d in range(1, min(w, i - a) + 1):
                scratch[i - d] -= band[i, d] * x
        for t in range(lo, hi):
            p = order[t]
            z[p, 0], z[p, 1], z[p, 2] = scratch[3 * t], scratch[3 * t + 1], scratch[3 * t + 2]


@dataclass(frozen=True)
class Pattern:
    """Where each row's couplings land in the block CSR of P over every particle: the pairs of
    each link's ends, each cell's corners and each shape's members, and every diagonal."""

    indptr: np.ndarray  # (N + 1,) int64
    indices: np.ndarray  # (nnz,) int64
    slots: BlockSlots  # where the diagonal and each row's couplings land among those blocks

    @classmethod
    def of(cls, n: int, links: np.ndarray, cells: np.ndarray, members: np.ndarray) -> Pattern:
        """links (L, 2), cells (C, 4) and members (K, M) int32 over n particles."""
        groups = [g.astype(np.int64) for g in (links, cells, members)]
        pairs = [(g[:, :, None] * n + g[:, None, :]).ravel() for g in groups]
        diagonal = np.arange(n, dtype=np.int64) * (n + 1)
        keys = np.unique(np.concatenate([diagonal, *pairs]))
        rows, indices = np.divmod(keys, n)
        indptr = np.searchsorted(rows, np.arange(n + 1)).astype(np.int64)
        slots = [np.searchsorted(keys, p).reshape(g.shape[0], g.shape[1], g.shape[1])
                 for p, g in zip(pairs, groups, strict=True)]  # fmt: skip
        return cls(indptr, indices, BlockSlots(np.searchsorted(keys, diagonal), *slots))


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH)
def assemble(
    inv_mass: np.ndarray,  # (N,) float64
    jacobian: Jacobian,  # G's rows (constraints.links_rows, shear_rows, shape_rows)
    rows: SystemRows,  # α̃ > 0 on every row in the system; 1 / the diagonal, 0: left out
    slots: BlockSlots,  # where each coupling lands (Pattern.slots)
    data: np.ndarray,  # (nnz, 3, 3) float64, overwritten: P = W⁻¹ + Gᵀ·α̃⁻¹·G
) -> None:
    """P over the free particles; a held particle's row is the identity and nothing couples to
    it (it does not move: its part of each row is on the right-hand side already)."""
    gradient, link_a, link_b, cells, shear_gradient, members, shape_gradient = jacobian
    alpha, inverse_diagonal = rows.alpha, rows.inverse_diagonal
    diagonal, link_slots, cell_slots, shape_slots = slots
    data[:] = 0.0
    for p in range(inv_mass.shape[0]):
        mass = 1.0 / inv_mass[p] if inv_mass[p] > 0.0 else 1.0
        for c in range(3):
            data[diagonal[p], c, c] = mass
    for k in range(link_a.shape[0]):
        if inverse_diagonal[k] == 0.0:
            continue
        ends = (link_a[k], link_b[k])
        w = 1.0 / alpha[k]
        for m in range(2):
            for n in range(2):
                if inv_mass[ends[m]] == 0.0 or inv_mass[ends[n]] == 0.0:
                    continue
                sign = w if m == n else -w
                slot = link_slots[k, m, n]
                for c in range(3):
                    for d in range(3):
                        data[slot, c, d] += sign * gradient[k, c] * gradient[k, d]
    links = link_a.shape[0]
    for k in range(cells.shape[0]):
        row = links + k
        if inverse_diagonal[row] == 0.0:
            continue
        w = 1.0 / alpha[row]
        for m in range(4):
            for n in range(4):
                if inv_mass[cells[k, m]] == 0.0 or inv_mass[cells[k, n]] == 0.0:
                    continue
                slot = cell_slots[k, m, n]
                for c in range(3):
                    for d in range(3):
                        data[slot, c, d] += w * shear_gradient[k, m, c] * shear_gradient[k, n, d]
    first = links + cells.shape[0]
    width = members.shape[1]
    for k in range(members.shape[0]):
        for m in range(width):
            for n in range(width):
                if inv_mass[members[k, m]] == 0.0 or inv_mass[members[k, n]] == 0.0:
                    continue
                slot = shape_slots[k, m, n]
                for c in range(3):
                    row = first + 3 * k + c
                    if inverse_diagonal[row] > 0.0:
                        data[slot, c, c] += shape_gradient[k, m] * shape_gradient[k, n] / alpha[row]
