"""The projective fabric solve: stretch, shear, bending and twist of the SI bodies solved
together each substep, by a matrix factored once (RESEARCH.md §8, "One solve").

Every energy of the fabric is a stencil: a linear combination C = Σ c_m·x_m of up to four
particles, held near a target p by the energy ½·w·|C − p|², where p is the point of the
stencil's rest set nearest C:

* a side link (SPRING, C = x_b − x_a): p = rest·C/|C|, a spring of stiffness w = k·w_link/L;
* a bending run or a twist (SHAPE): p = |C_rest|·C/|C|, zero on a flat sheet, so the energy is
  the quadratic ½·|C|²/α the passes solve for;
* a cell's shear (SHEAR, two stencils: the deformation gradient's weft and warp columns F_u,
  F_v): p the nearest pair of square vectors, so that stretch, which keeps them square, costs
  nothing (sim.core.materials.shear_coefficients).

An implicit Euler step minimises ½·|x − y|²_M/h² + Σ ½·w·|C(x) − p|² over the free particles'
x (y the prediction). Projective dynamics (Bouaziz et al. 2014) alternates a local step (each
p for the current x) with a global one, the linear system (M/h² + Σ w·cᵀc)·x = M/h²·y +
Σ w·cᵀ·p, whose matrix is constant while the links, pins and substep are: it is factored once
(sparse Cholesky) and each iteration costs one solve. Its gradient A·x − b(x) is the force left
unbalanced on each particle; the solve stops when that is below TOLERANCE of every particle's
weight, or after MAX_ITERATIONS.

Measured (bench/fabric_solvers.py, RESEARCH.md §8 "One solve"), it is exact where the cloth is
at rest and pulled along itself (a strip's ρgL²/2k for any shear) but slow where it turns: the
global matrix resists a link's sideways motion with the link's full stiffness k, where the true
resistance is its tension, about strain × k. On cotton the iterations left 1.4, 10 and 26 times
a particle's weight unbalanced at 32², 64² and 128² after 60 iterations, so it is an option
(`fabric_solver`), not the default.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sparse
from numba import njit

from clothlab.sim.core.factor import Factor
from clothlab.sim.core.kernels import FASTMATH, NO_REFCOUNTS

SPRING, SHAPE, SHEAR = 0, 1, 2  # a stencil's kind: what its target is (module docstring)
# Unbalanced force left on every particle, as a share of its weight (m·g, g = 9.8 m/s²), at
# which the solve stops: a 1 m strip hanging from its clamp then stretches by ρgL²/2k to 10⁻⁴
# (bench/fabric_solvers.py --part statics).
TOLERANCE = 1e-3
MAX_ITERATIONS = 60
STANDARD_GRAVITY = 9.8
# Chebyshev's estimate of the local–global iteration's spectral radius, and the iterations
# before it starts (Wang 2015 waits ten); a rise of the residual restarts it.
CHEBYSHEV_RHO = 0.95
CHEBYSHEV_DELAY = 4


@dataclass(frozen=True, eq=False)
class FabricEnergy:
    """Every stencil of the fabric's energy; a SHEAR stencil's pair is the next one."""

    members: np.ndarray  # (S, 4) int32, unused places repeat a member with coefficient 0
    coefficients: np.ndarray  # (S, 4) float64
    weight: np.ndarray  # (S,) float64, w: N/m for springs and shear, N/m³ for runs
    kind: np.ndarray  # (S,) int8: SPRING, SHAPE or SHEAR
    size: np.ndarray  # (S,) float64: a spring's rest length, a shape's rest |C|; 0 for shear
    springs: np.ndarray  # (L,) int64, each link's stencil (LinkArrays order); −1: none
    spring_count: int  # the springs come first


def fabric_energy(
    rest_positions: np.ndarray,  # (N, 3) float64
    links: tuple[np.ndarray, np.ndarray, np.ndarray],  # (L,) a, b int32 and stiffness; NaN: none
    shapes: list[tuple[np.ndarray, np.ndarray, np.ndarray]],  # (K, m) members, coefficients, α
    cells: tuple[np.ndarray, np.ndarray, np.ndarray],  # (C, 4) corners, (C, 2, 4) F, (C,) w
) -> FabricEnergy:
    """The stencils of live links (those with a stiffness), shapes (bending runs and twists,
    compliance α: w = 1/α) and cells."""
    a, b, stiffness = links
    spring = np.flatnonzero(~np.isnan(stiffness))
    parts_members = [_padded(np.stack([a[spring], b[spring]], axis=1))]
    parts_coefficients = [_padded(np.tile([-1.0, 1.0], (len(spring), 1)))]
    parts_weight = [stiffness[spring]]
    parts_kind = [np.full(len(spring), SPRING, np.int8)]
    x = rest_positions
    parts_size = [np.linalg.norm(x[b[spring]] - x[a[spring]], axis=1)]
    for members, coefficients, compliance in shapes:
        rest = np.einsum("km,kmc->kc", coefficients, x[members])
        parts_members.append(_padded(members))
        parts_coefficients.append(_padded(coefficients))
        parts_weight.append(1.0 / compliance)
        parts_kind.append(np.full(len(members), SHAPE, np.int8))
        parts_size.append(np.linalg.norm(rest, axis=1))
    corners, gradient, weight = cells
    parts_members.append(np.repeat(corners, 2, axis=0))
    parts_coefficients.append(gradient.reshape(-1, 4))
    parts_weight.append(np.repeat(weight, 2))
    parts_kind.append(np.full(2 * len(corners), SHEAR, np.int8))
    parts_size.append(np.zeros(2 * len(corners)))
    springs = np.full(len(a), -1, dtype=np.int64)
    springs[spring] = np.arange(len(spring))
    return FabricEnergy(
        members=np.ascontiguousarray(np.concatenate(parts_members), dtype=np.int32),
        coefficients=np.ascontiguousarray(np.concatenate(parts_coefficients)),
        weight=np.ascontiguousarray(np.concatenate(parts_weight)),
        kind=np.concatenate(parts_kind),
        size=np.ascontiguousarray(np.concatenate(parts_size)),
        springs=springs,
        spring_count=len(spring),
    )


def _padded(array: np.ndarray) -> np.ndarray:
    """(K, 4): members repeat their first, coefficients are 0 in the places past m."""
    if array.shape[1] == 4:
        return array
    fill = array[:, :1] if array.dtype.kind == "i" else np.zeros((len(array), 1))
    return np.concatenate([array, np.repeat(fill, 4 - array.shape[1], axis=1)], axis=1)


class ProjectiveSolve:
    """The factored system of one set of stencils, free particles and substep length."""

    # Chebyshev's acceleration: a candidate bench/fabric_solvers.py measures; off, as it
    # lost (RESEARCH.md §8, "One solve")
    chebyshev = False

    def __init__(
        self, energy: FabricEnergy, mass: np.ndarray, inv_mass: np.ndarray, h: float
    ) -> None:
        self.energy, self.h, self.inv_mass = energy, h, inv_mass
        self.free = np.flatnonzero(inv_mass > 0.0)  # (F,) int64
        self.slot = np.full(len(mass), -1, dtype=np.int64)  # (N,) int64, row of each free one
        self.slot[self.free] = np.arange(len(self.free))
        self.inertia = mass[self.free] / (h * h)  # (F,) float64, M/h²
        self.matrix = system_matrix(energy, self.slot, self.inertia)  # (F, F) CSR
        self._factor = Factor(self.matrix)
        self.weight_force = mass[self.free] * STANDARD_GRAVITY  # (F,) float64, N
        self._base = np.zeros((len(self.free), 3))  # (F, 3): M/h²·y minus the held part
        self._rhs = np.zeros((len(self.free), 3))  # (F, 3)
        self._solution = np.zeros((len(self.free), 3))  # (F, 3)
        self.iterations = 0  # the last solve's
        self.residual = 0.0  # its largest unbalanced force over weight

    def solve(self, x: np.ndarray) -> None:
        """x ((N, 3) float64): in, the prediction y with the held particles on their
        anchors; out, the implicit step's positions."""
        e, free = self.energy, self.free
        self._base[:] = self.inertia[:, None] * x[free]
        held_part(x, e.members, e.coefficients, e.weight, self.slot, self._base)
        older = x[free].copy() if self.chebyshev else None
        omega, last = 1.0, math.inf
        for iteration in range(1, MAX_ITERATIONS + 1):
            self._rhs[:] = self._base
            local_targets(x, e.members, e.coefficients, e.weight, e.kind, e.size, self.slot,
                          self._rhs)  # fmt: skip
            unbalanced = self.matrix @ x[free] - self._rhs  # (F, 3), N
            self.residual = float(
                np.max(np.linalg.norm(unbalanced, axis=1) / self.weight_force, initial=0.0)
            )
            self.iterations = iteration - 1
            if self.residual <= TOLERANCE:
                return
            self._factor.solve(self._rhs, self._solution)
            if older is not None:
                if self.residual > last or iteration <= CHEBYSHEV_DELAY:
                    omega = 1.0  # restart: plain steps until the delay or the rise is past
                elif omega == 1.0:
                    omega = 2.0 / (2.0 - CHEBYSHEV_RHO**2)
                else:
                    omega = 4.0 / (4.0 - CHEBYSHEV_RHO**2 * omega)
                current = x[free]
                self._solution[:] = omega * (self._solution - older) + older
                older[:] = current
            last = self.residual
            x[free] = self._solution
        self.iterations = MAX_ITERATIONS


def system_matrix(energy: FabricEnergy, slot: np.ndarray, inertia: np.ndarray) -> sparse.csr_matrix:
    """(F, F): M/h² + Σ w·cᵀc over the free particles (`slot` ≥ 0)."""
    m = energy.members
    rows = slot[np.repeat(m, 4, axis=1)].ravel()  # (S·16,) member p of each pair (p, q)
    cols = slot[np.tile(m, (1, 4))].ravel()
    c = energy.coefficients
    values = (energy.weight[:, None] * np.repeat(c, 4, axis=1) * np.tile(c, (1, 4))).ravel()
    keep = (rows >= 0) & (cols >= 0) & (values != 0.0)
    n = len(inertia)
    stencils = sparse.coo_matrix((values[keep], (rows[keep], cols[keep])), shape=(n, n))
    return (stencils + sparse.diags(inertia)).tocsr()


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH)
def held_part(
    x: np.ndarray,  # (N, 3) float64, the held particles on their anchors
    members: np.ndarray,  # (S, 4) int32
    coefficients: np.ndarray,  # (S, 4) float64
    weight: np.ndarray,  # (S,) float64
    slot: np.ndarray,  # (N,) int64, −1 for a held particle
    out: np.ndarray,  # (F, 3) float64, accumulates −Σ w·c_m·(Σ_held c_n·x_n)
) -> None:
    """The held particles' share of each stencil, moved to the right-hand side: constant over
    a substep, as the anchors are."""
    for s in range(members.shape[0]):
        held = False
        for m in range(4):
            held |= slot[members[s, m]] < 0 and coefficients[s, m] != 0.0
        if not held:
            continue
        for c in range(3):
            part = 0.0
            for m in range(4):
                if slot[members[s, m]] < 0:
                    part += coefficients[s, m] * x[members[s, m], c]
            for m in range(4):
                row = slot[members[s, m]]
                if row >= 0:
                    out[row, c] -= weight[s] * coefficients[s, m] * part


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH, inline="always")
def _value(x: np.ndarray, members: np.ndarray, coefficients: np.ndarray, s: int) -> tuple:
    cx = cy = cz = 0.0
    for m in range(4):
        p, c = members[s, m], coefficients[s, m]
        cx += c * x[p, 0]
        cy += c * x[p, 1]
        cz += c * x[p, 2]
    return cx, cy, cz


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH, inline="always")
def _towards(cx: float, cy: float, cz: float, size: float) -> tuple:
    """The point of length `size` in C's direction (C itself when C is 0)."""
    length = math.sqrt(cx * cx + cy * cy + cz * cz)
    if length == 0.0:
        return cx, cy, cz
    scale = size / length
    return cx * scale, cy * scale, cz * scale


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH, inline="always")
def _square_pair(ux: float, uy: float, uz: float, vx: float, vy: float, vz: float) -> tuple:
    """The pair (u', v') with u'·v' = 0 nearest (u, v): u' = (u − μv)/(1 − μ²), v' likewise,
    μ the root of (u·v)·μ² − (|u|² + |v|²)·μ + u·v = 0 below 1 in size."""
    dot = ux * vx + uy * vy + uz * vz
    if dot == 0.0:
        return ux, uy, uz, vx, vy, vz
    total = ux * ux + uy * uy + uz * uz + vx * vx + vy * vy + vz * vz
    mu = 2.0 * dot / (total + math.sqrt(max(total * total - 4.0 * dot * dot, 0.0)))
    scale = 1.0 / (1.0 - mu * mu)
    return (
        (ux - mu * vx) * scale, (uy - mu * vy) * scale, (uz - mu * vz) * scale,
        (vx - mu * ux) * scale, (vy - mu * uy) * scale, (vz - mu * uz) * scale,
    )  # fmt: skip


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH, inline="always")
def _targets(
    x: np.ndarray,
    members: np.ndarray,
    coefficients: np.ndarray,
    kind: np.ndarray,
    size: np.ndarray,
    s: int,
) -> tuple:
    """Stencil s's value C and target p (and, for SHEAR, its pair's: s + 1)."""
    cx, cy, cz = _value(x, members, coefficients, s)
    if kind[s] == SHEAR:
        dx, dy, dz = _value(x, members, coefficients, s + 1)
        px, py, pz, qx, qy, qz = _square_pair(cx, cy, cz, dx, dy, dz)
        return cx, cy, cz, px, py, pz, dx, dy, dz, qx, qy, qz
    px, py, pz = _towards(cx, cy, cz, size[s])
    return cx, cy, cz, px, py, pz, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH)
def local_targets(
    x: np.ndarray,  # (N, 3) float64
    members: np.ndarray,  # (S, 4) int32
    coefficients: np.ndarray,  # (S, 4) float64
    weight: np.ndarray,  # (S,) float64
    kind: np.ndarray,  # (S,) int8
    size: np.ndarray,  # (S,) float64
    slot: np.ndarray,  # (N,) int64
    out: np.ndarray,  # (F, 3) float64, accumulates Σ w·c_m·p
) -> None:
    """The local step: each stencil's target p for the current x, into the right-hand side."""
    s = 0
    count = members.shape[0]
    while s < count:
        _cx, _cy, _cz, px, py, pz, _dx, _dy, _dz, qx, qy, qz = _targets(
            x, members, coefficients, kind, size, s
        )
        pairs = 2 if kind[s] == SHEAR else 1
        for k in range(pairs):
            t = s + k
            tx, ty, tz = (px, py, pz) if k == 0 else (qx, qy, qz)
            for m in range(4):
                row = slot[members[t, m]]
                if row >= 0:
                    f = weight[t] * coefficients[t, m]
                    out[row, 0] += f * tx
                    out[row, 1] += f * ty
                    out[row, 2] += f * tz
        s += pairs


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH)
def stencil_pulls(
    x: np.ndarray,  # (N, 3) float64
    members: np.ndarray,  # (S, 4) int32
    coefficients: np.ndarray,  # (S, 4) float64
    weight: np.ndarray,  # (S,) float64
    kind: np.ndarray,  # (S,) int8
    size: np.ndarray,  # (S,) float64
    h: float,
    out: np.ndarray,  # (S, 3) float64, −h²·w·(C − p)
) -> None:
    h2 = h * h
    s = 0
    count = members.shape[0]
    while s < count:
        cx, cy, cz, px, py, pz, dx, dy, dz, qx, qy, qz = _targets(
            x, members, coefficients, kind, size, s
        )
        out[s, 0] = -h2 * weight[s] * (cx - px)
        out[s, 1] = -h2 * weight[s] * (cy - py)
        out[s, 2] = -h2 * weight[s] * (cz - pz)
        if kind[s] == SHEAR:
            out[s + 1, 0] = -h2 * weight[s + 1] * (dx - qx)
            out[s + 1, 1] = -h2 * weight[s + 1] * (dy - qy)
            out[s + 1, 2] = -h2 * weight[s + 1] * (dz - qz)
            s += 2
        else:
            s += 1


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH)
def link_pulls(
    x: np.ndarray,  # (N, 3) float64
    link_a: np.ndarray,  # (L,) int32
    link_b: np.ndarray,  # (L,) int32
    springs: np.ndarray,  # (L,) int64, each link's stencil; −1: none (a diagonal)
    weight: np.ndarray,  # (S,) float64
    size: np.ndarray,  # (S,) float64
    h: float,
    start: np.ndarray,  # (L, 3) float64, out: each link's unit direction
    moved: np.ndarray,  # (L,) float64, out: h²·tension, as the passes gather it
) -> None:
    """Each link's pull as sim.core.forces reads the passes': its tension w·(L − rest) × h²
    along its own direction (a diagonal carries none: the cells' shear condition does)."""
    h2 = h * h
    for k in range(link_a.shape[0]):
        i, j = link_a[k], link_b[k]
        dx = x[j, 0] - x[i, 0]
        dy = x[j, 1] - x[i, 1]
        dz = x[j, 2] - x[i, 2]
        length = math.sqrt(dx * dx + dy * dy + dz * dz)
        if length > 0.0:
            start[k, 0], start[k, 1], start[k, 2] = dx / length, dy / length, dz / length
        s = springs[k]
        moved[k] = h2 * weight[s] * (length - size[s]) if s >= 0 else 0.0
