"""Kernels beyond the classic model: XPBD links, tethers, tetrahedral volume, self-contact,
friction, aerodynamic wind and tearing. Each is a small function over flat arrays; the solver
decides which run and in what order.

XPBD (Macklin et al. 2016): a constraint C with compliance α keeps a Lagrange multiplier λ over
the passes of one (sub)step; each visit adds Δλ = (−C − α̃λ) / (Σ w|∇C|² + α̃), α̃ = α/h².
With α = 0 it is plain PBD at stiffness 1.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from clothlab.sim.core.kernels import (
    FASTMATH,
    HEALTHY,
    MAX_SPEED,
    NO_REFCOUNTS,
    _tet_volume,
    along_start,
    gust,
    move_link_ends,
    particle_health,
)
from clothlab.sim.core.records import (
    Air,
    Graph,
    Jacobian,
    LinearStencils,
    LinkMoves,
    Links,
    Pairs,
    PairSearch,
    Particles,
    PathTree,
    ShearCells,
    SparseRows,
    Surface,
    SystemRows,
)


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH)
def accelerate(
    particles: Particles,  # x and x_prev updated in place
    acceleration: np.ndarray,  # (N, 3) float64
    damping: float,
    h: float,
) -> int:
    """Verlet predict with a per-particle acceleration (the classic predict, generalised).
    Returns the health of the state it found, as kernels.predict does."""
    x, x_prev, inv_mass = particles
    h2 = h * h
    max_step = MAX_SPEED * h
    health = HEALTHY
    for i in range(x.shape[0]):
        if inv_mass[i] == 0.0:
            continue
        if health == HEALTHY:
            health = particle_health(
                x[i, 0], x[i, 1], x[i, 2],
                x[i, 0] - x_prev[i, 0], x[i, 1] - x_prev[i, 1], x[i, 2] - x_prev[i, 2],
                max_step,
            )  # fmt: skip
        for k in range(3):
            current = x[i, k]
            x[i, k] = current + (current - x_prev[i, k]) * damping + acceleration[i, k] * h2
            x_prev[i, k] = current
    return health


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH)
def classic_acceleration(
    x: np.ndarray,  # (N, 3) float64
    gravity: float,
    wind: float,
    t: float,
    out: np.ndarray,  # (N, 3) float64, written
) -> None:
    for i in range(x.shape[0]):
        out[i, 0] = 0.0
        out[i, 1] = -gravity
        out[i, 2] = wind * gust(t, x[i, 0])


# The aerodynamic pass's fastmath: no contraction into fused multiply-adds and no reassociation,
# with which its one-thread and two-thread loops rounded differently (by 1e-14), and a run's
# bits would depend on its thread count.
AIR_FASTMATH = {"nsz", "arcp", "afn"}


@njit(cache=True, nogil=True, fastmath=AIR_FASTMATH, **NO_REFCOUNTS)
def add_aerodynamic_forces(
    x: np.ndarray,  # (N, 3) float64
    x_prev: np.ndarray,  # (N, 3) float64
    surface: Surface,  # surface.force is scratch: _triangle_air_force's rows
    air: Air,
    out: np.ndarray,  # (N, 3) float64, accelerations, accumulated
    stiffness: np.ndarray,  # (N, 3, 3) float64, −∂a/∂v of each particle, accumulated
) -> None:
    """Force on each triangle from the air's velocity v relative to it: a pressure
    drag·A·(v·n)|v·n| along the normal and lift·A·|v·n| across, in the triangle's plane.
    Edge-on (v·n = 0) gets nothing; facing the flow gets the most. A third goes to each
    corner, divided by the rest area the corner stands for: the cloth's mass per area is
    one particle per rest area, so a flat sheet facing the flow feels drag·v² whatever its
    resolution.

    The force grows with the square of the speed, so applied explicitly it overshoots once
    drag·speed·h is of order one. `stiffness` collects how fast each corner's acceleration
    falls as its own velocity rises (the triangle moves at the mean of its corners): the
    predict (`accelerate_implicit`) solves for the new velocity with it, which is stable at
    any drag and leaves the steady state, e.g. the terminal speed, as it is.

    Each triangle's force is found first (into `surface.force`), then each particle gathers
    its triangles' in order: add_aerodynamic_forces_parallel does the same on two threads,
    with the same bits (AIR_FASTMATH)."""
    triangles, force = surface.triangles, surface.force
    for k in range(triangles.shape[0]):
        _triangle_air_force(x, x_prev, triangles, k, air, force)
    for v in range(x.shape[0]):
        _gather_air_forces(surface, out, stiffness, v)


@njit(cache=True, nogil=True, fastmath=AIR_FASTMATH, parallel=True)
def add_aerodynamic_forces_parallel(
    x: np.ndarray,  # (N, 3) float64
    x_prev: np.ndarray,  # (N, 3) float64
    surface: Surface,
    air: Air,
    out: np.ndarray,  # (N, 3) float64
    stiffness: np.ndarray,  # (N, 3, 3) float64
) -> None:
    """add_aerodynamic_forces on the thread pool: the triangles are independent, and so are
    the particles gathering their forces, each in the same order as on one thread."""
    triangles, force = surface.triangles, surface.force
    for k in prange(triangles.shape[0]):
        _triangle_air_force(x, x_prev, triangles, k, air, force)
    for v in prange(x.shape[0]):
        _gather_air_forces(surface, out, stiffness, v)


@njit(cache=True, nogil=True, fastmath=AIR_FASTMATH, **NO_REFCOUNTS, inline="always")
def _gather_air_forces(surface: Surface, out: np.ndarray, stiffness: np.ndarray, v: int) -> None:
    """Particle v's triangles' forces on it, in their order, divided by the rest area it
    stands for, added to its acceleration and its drag stiffness."""
    corner_start, corner_triangle, force = (
        surface.corner_start,
        surface.corner_triangle,
        surface.force,
    )
    area = surface.vertex_area[v]
    if area <= 0.0:
        return
    for m in range(corner_start[v], corner_start[v + 1]):
        k = corner_triangle[m]
        if force[k, 8] == 0.0:  # edge-on to nothing: no area, no force
            continue
        out[v, 0] += force[k, 0] / area
        out[v, 1] += force[k, 1] / area
        out[v, 2] += force[k, 2] / area
        along, plane = force[k, 3], force[k, 4]
        for i in range(3):
            stiffness[v, i, i] += plane / area
            for j in range(3):
                stiffness[v, i, j] += (along - plane) * force[k, 5 + i] * force[k, 5 + j] / area


@njit(cache=True, nogil=True, fastmath=AIR_FASTMATH, **NO_REFCOUNTS, inline="always")
def _triangle_air_force(
    x: np.ndarray,
    x_prev: np.ndarray,
    triangles: np.ndarray,
    k: int,
    air: Air,
    force: np.ndarray,  # (T, 9) float64: row k written
) -> None:
    """Into force[k]: triangle k's force on each of its corners (3), the drag stiffness's
    `along` and `plane` terms, its unit normal (3) and twice its area (0: no force)."""
    velocity, t, h, drag, lift = air
    a, b, c = triangles[k, 0], triangles[k, 1], triangles[k, 2]
    # the triangle's own velocity, subtracted from the air's below
    r0 = (x[a, 0] + x[b, 0] + x[c, 0] - x_prev[a, 0] - x_prev[b, 0] - x_prev[c, 0]) / (3.0 * h)
    r1 = (x[a, 1] + x[b, 1] + x[c, 1] - x_prev[a, 1] - x_prev[b, 1] - x_prev[c, 1]) / (3.0 * h)
    r2 = (x[a, 2] + x[b, 2] + x[c, 2] - x_prev[a, 2] - x_prev[b, 2] - x_prev[c, 2]) / (3.0 * h)
    nx, ny, nz = _triangle_cross(x, a, b, c)
    twice_area = math.sqrt(nx * nx + ny * ny + nz * nz)
    force[k, 8] = twice_area
    if twice_area == 0.0:
        return
    nx /= twice_area
    ny /= twice_area
    nz /= twice_area
    blowing = gust(t, (x[a, 0] + x[b, 0] + x[c, 0]) / 3.0)
    r0 = velocity[0] * blowing - r0
    r1 = velocity[1] * blowing - r1
    r2 = velocity[2] * blowing - r2
    normal_speed = r0 * nx + r1 * ny + r2 * nz
    pressure = drag * 0.5 * twice_area * normal_speed * abs(normal_speed)
    across = lift * 0.5 * twice_area * abs(normal_speed)
    force[k, 0] = (pressure * nx + across * (r0 - normal_speed * nx)) / 3.0
    force[k, 1] = (pressure * ny + across * (r1 - normal_speed * ny)) / 3.0
    force[k, 2] = (pressure * nz + across * (r2 - normal_speed * nz)) / 3.0
    # ∂(pressure·n)/∂v_corner = −2·drag·A·|v·n|·n nᵀ / 3 (a corner is a third of v); the
    # lift's pull along the plane counts as −lift·A·|v·n|·(I − n nᵀ) / 3: `along`, `plane`
    force[k, 3] = 2.0 * drag * 0.5 * twice_area * abs(normal_speed) / 9.0
    force[k, 4] = across / 9.0
    force[k, 5] = nx
    force[k, 6] = ny
    force[k, 7] = nz


@njit(cache=True, nogil=True, fastmath=FASTMATH)
def accelerate_implicit(
    particles: Particles,  # x and x_prev updated in place
    acceleration: np.ndarray,  # (N, 3) float64, at the current velocity
    stiffness: np.ndarray,  # (N, 3, 3) float64, −∂a/∂v (symmetric, positive semi-definite)
    damping: float,
    h: float,
) -> int:
    """Verlet predict with velocity-dependent forces taken implicitly: the new velocity u
    solves (I + h·K)·u = damping·v + h·a + h·K·v (linearised backward Euler), where v is the
    last step's velocity. With K = 0 this is `accelerate`. Returns the state's health."""
    x, x_prev, inv_mass = particles
    max_step = MAX_SPEED * h
    health = HEALTHY
    rhs = np.empty(3)
    system = np.empty((3, 3))
    for i in range(x.shape[0]):
        if inv_mass[i] == 0.0:
            continue
        v0 = (x[i, 0] - x_prev[i, 0]) / h
        v1 = (x[i, 1] - x_prev[i, 1]) / h
        v2 = (x[i, 2] - x_prev[i, 2]) / h
        if health == HEALTHY:
            health = particle_health(x[i, 0], x[i, 1], x[i, 2], v0 * h, v1 * h, v2 * h, max_step)
        for r in range(3):
            kv = stiffness[i, r, 0] * v0 + stiffness[i, r, 1] * v1 + stiffness[i, r, 2] * v2
            rhs[r] = damping * (v0, v1, v2)[r] + h * (acceleration[i, r] + kv)
            for c in range(3):
                system[r, c] = h * stiffness[i, r, c] + (1.0 if r == c else 0.0)
        u0, u1, u2 = _solve3(system, rhs)
        for r in range(3):
            x_prev[i, r] = x[i, r]
        x[i, 0] += u0 * h
        x[i, 1] += u1 * h
        x[i, 2] += u2 * h
    return health


@njit(cache=True, nogil=True, **NO_REFCOUNTS, inline="always")
def _solve3(m: np.ndarray, b: np.ndarray) -> tuple[float, float, float]:
    """Cramer's rule for a 3 × 3 system (here I + h·K: never singular, K ⪰ 0)."""
    c00 = m[1, 1] * m[2, 2] - m[1, 2] * m[2, 1]
    c01 = m[1, 2] * m[2, 0] - m[1, 0] * m[2, 2]
    c02 = m[1, 0] * m[2, 1] - m[1, 1] * m[2, 0]
    det = m[0, 0] * c00 + m[0, 1] * c01 + m[0, 2] * c02
    u0 = (
        b[0] * c00
        + m[0, 1] * (m[1, 2] * b[2] - b[1] * m[2, 2])
        + m[0, 2] * (b[1] * m[2, 1] - m[1, 1] * b[2])
    ) / det
    u1 = (
        m[0, 0] * (b[1] * m[2, 2] - m[1, 2] * b[2])
        + b[0] * c01
        + m[0, 2] * (m[1, 0] * b[2] - b[1] * m[2, 0])
    ) / det
    u2 = (
        m[0, 0] * (m[1, 1] * b[2] - b[1] * m[2, 1])
        + m[0, 1] * (b[1] * m[2, 0] - m[1, 0] * b[2])
        + b[0] * c02
    ) / det
    return u0, u1, u2


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH)
def project_links_xpbd(
    particles: Particles,  # x updated in place
    links: Links,  # start: kernels.start_directions of this (sub)step; moved accumulates
    lambdas: np.ndarray,  # (L,) float64, Lagrange multipliers of this (sub)step
    torn: np.ndarray,  # (L,) bool, set when a link tears
    xpbd: bool,  # each link's compliance (XPBD), or its stiffness (the classic rule)
    h: float,  # substep length, s
    tear_ratio: float,  # 0: no tearing
) -> int:
    """One pass over distance links: XPBD with each link's compliance, or the classic
    stiffness rule (so tearing can run with the classic solver). Returns how many tore."""
    tore = 0
    for r in range(links.runs.shape[0]):
        tore += _project_run_xpbd(particles, links, r, lambdas, torn, xpbd, h * h, tear_ratio)
    return tore


@njit(cache=True, nogil=True, fastmath=FASTMATH, parallel=True)
def project_links_xpbd_parallel(
    particles: Particles,
    links: Links,  # in colour order: run_start says where each independent set's runs begin
    lambdas: np.ndarray,  # (L,) float64
    torn: np.ndarray,  # (L,) bool
    xpbd: bool,
    h: float,
    tear_ratio: float,
) -> int:
    """project_links_xpbd on the thread pool: no two links of a colour share a particle, so
    threads split a colour's runs without locks; colours follow each other as in
    Gauss–Seidel. The same arithmetic per link as the sequential pass in colour order, so the
    same result."""
    tore = 0
    run_start = links.run_start
    for c in range(run_start.shape[0] - 1):
        for r in prange(run_start[c], run_start[c + 1]):
            tore += _project_run_xpbd(particles, links, r, lambdas, torn, xpbd, h * h, tear_ratio)
    return tore


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH)
def _project_run_xpbd(
    particles: Particles,
    links: Links,
    r: int,
    lambdas: np.ndarray,
    torn: np.ndarray,
    xpbd: bool,
    h2: float,
    tear_ratio: float,
) -> int:
    """The links of run r in order; how many tore (not inlined: kernels._project_run). The
    update is written out in the loop: a shared inlined function of it rounded some sums
    differently (fastmath lets the compiler reassociate them as the code's shape suggests),
    and recordings must replay bit for bit."""
    x, inv_mass = particles.x, particles.inv_mass
    runs, rest, start, moved = links.runs, links.rest, links.start, links.moved
    stiffness, compliance = links.stiffness, links.compliance
    tore = 0
    first, step, gap = runs[r, 0], runs[r, 3], runs[r, 4]
    i = runs[r, 2] - step  # the loop steps first, so a link it skips still steps
    for k in range(first, first + runs[r, 1]):
        i += step
        j = i + gap
        if torn[k]:
            continue
        dx = x[j, 0] - x[i, 0]
        dy = x[j, 1] - x[i, 1]
        dz = x[j, 2] - x[i, 2]
        length = math.sqrt(dx * dx + dy * dy + dz * dz)
        if tear_ratio > 0.0 and length > tear_ratio * rest[k]:
            torn[k] = True
            tore += 1
            continue
        wi = inv_mass[i]
        wj = inv_mass[j]
        w = wi + wj
        if w == 0.0 or length == 0.0:
            continue
        error = length - rest[k]
        vx, vy, vz, top, size = along_start(start, k, dx, dy, dz, length)
        if not xpbd:
            s = error * stiffness[k] * top / (length * w)
        else:
            alpha = compliance[k] / h2
            delta = (error + alpha * lambdas[k]) / (w + alpha)  # = −Δλ
            lambdas[k] -= delta
            s = delta * top / length
        moved[k] += s * size
        move_link_ends(x, i, j, vx, vy, vz, s * wi, s * wj)
    return tore


# Links solved together (constraint_sets.LinksTogether): a link whose residual is below this
# share of its rest length is solved, a three-hundredth of the strain a fabric's own weight gives
# it (cotton's: 3e-5 on average down a 1 m strip). What is left sums along a strip: at 1e-5 its
# stretch at four substeps was off by up to 3 %, at 1e-6 by 1 % (cotton at four substeps, 1.010 ×
# ρgL²/2k once the factored preconditioner landed elsewhere within it), at 1e-7 by 0.05 %
# (RESEARCH.md §8). The Gauss–Seidel passes that follow polish what is left.
TOGETHER_TOLERANCE = 1e-7
TOGETHER_MAX_ITERATIONS = 500


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH)
def links_rows(
    particles: Particles,
    links: Links,  # the live links; their rest, start directions and compliance
    torn: np.ndarray,  # (L,) bool
    lambdas: np.ndarray,  # (L,) float64
    h2: float,
    gradient: np.ndarray,  # (L, 3) float64, out: G's rows
    rows: SystemRows,  # out in [:L]: C + α̃·λ, α̃, 1 / the diagonal (0: left out)
) -> None:
    """The links' rows of the linearised XPBD system at x, (G·W·Gᵀ + α̃)·(−Δλ) = C + α̃·λ:
    each row's gradient and right-hand side. G's rows are the directions the passes move a
    link's ends along (along_start), so a solve keeps angular momentum as they do. A torn link,
    one of no length and one with both ends held are left out (zero rows)."""
    x, inv_mass = particles.x, particles.inv_mass
    link_a, link_b, rest, start = links.a, links.b, links.rest, links.start
    compliance = links.compliance
    residual, alpha, inverse_diagonal = rows
    for k in range(link_a.shape[0]):
        i, j = link_a[k], link_b[k]
        dx = x[j, 0] - x[i, 0]
        dy = x[j, 1] - x[i, 1]
        dz = x[j, 2] - x[i, 2]
        length = math.sqrt(dx * dx + dy * dy + dz * dz)
        alpha[k] = compliance[k] / h2
        if torn[k] or length == 0.0 or inv_mass[i] + inv_mass[j] == 0.0:
            gradient[k, 0] = gradient[k, 1] = gradient[k, 2] = 0.0
            residual[k] = inverse_diagonal[k] = 0.0
            continue
        vx, vy, vz, top, _size = along_start(start, k, dx, dy, dz, length)
        scale = top / length
        gradient[k, 0], gradient[k, 1], gradient[k, 2] = vx * scale, vy * scale, vz * scale
        reach = gradient[k, 0] ** 2 + gradient[k, 1] ** 2 + gradient[k, 2] ** 2
        residual[k] = length - rest[k] + alpha[k] * lambdas[k]
        inverse_diagonal[k] = 1.0 / (reach * (inv_mass[i] + inv_mass[j]) + alpha[k])


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH)
def shape_rows(
    particles: Particles,
    jacobian: Jacobian,  # its shapes' members and rows, −c_m (constant)
    compliance: np.ndarray,  # (K,) float64
    h2: float,
    first: int,  # the first shape row's index in the system (after the links' and cells')
    rows: SystemRows,  # out in [first:]: C (three rows, x, y, z, a shape), α̃, 1 / the diagonal
) -> None:
    """The linear shapes' rows of the same system (project_stencils_xpbd's constraints
    C = Σ c_m·x_m, each axis a row): their multipliers start each substep at zero, so the
    right-hand side is C. A shape with no free particle is left out."""
    x, inv_mass = particles.x, particles.inv_mass
    members, gradient = jacobian.members, jacobian.shape_gradient
    residual, alpha, inverse_diagonal = rows
    for k in range(members.shape[0]):
        w = 0.0
        for m in range(members.shape[1]):
            w += gradient[k, m] * gradient[k, m] * inv_mass[members[k, m]]
        for c in range(3):
            row = first + 3 * k + c
            alpha[row] = compliance[k] / h2
            if w == 0.0:
                residual[row] = inverse_diagonal[row] = 0.0
                continue
            error = 0.0
            for m in range(members.shape[1]):
                error -= gradient[k, m] * x[members[k, m], c]
            residual[row] = error
            inverse_diagonal[row] = 1.0 / (w + alpha[row])


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH)
def apply_together_change(
    particles: Particles,  # x updated in place
    jacobian: Jacobian,  # G's rows: the links', the cells' shear, the shapes'
    change: np.ndarray,  # (R,) float64, −Δλ, 0 for a row left out
    lambdas: np.ndarray,  # (L,) float64, the links', updated
    moved: np.ndarray,  # (L,) float64, accumulates
    moves: np.ndarray,  # (N, 3) float64, scratch
) -> None:
    """Move the particles by W·Gᵀ·(−Δλ) and book the links' multipliers and moves as a pass
    would (the cells' and shapes' multipliers are the caller's: they live in their sets)."""
    x, inv_mass = particles.x, particles.inv_mass
    gradient, link_a = jacobian.link_gradient, jacobian.link_a
    spread(change, jacobian, inv_mass, moves)
    for p in range(x.shape[0]):
        for c in range(3):
            x[p, c] += moves[p, c]
    for k in range(link_a.shape[0]):
        lambdas[k] -= change[k]
        # as a pass's correction: mass × distance along its direction (|gradient| long)
        moved[k] += change[k] * math.sqrt(
            gradient[k, 0] ** 2 + gradient[k, 1] ** 2 + gradient[k, 2] ** 2
        )


@njit(cache=True, nogil=True)
def dot(
    a: np.ndarray,  # (R,) float64
    b: np.ndarray,  # (R,) float64
) -> float:
    """Σ a·b in index order, on the calling thread. numpy's dot is OpenBLAS's, whose threads
    then spin beside numba's and the solver's on two cores: the conjugate gradients of a denim
    drape specimen 61 across spent three quarters of their time in two dots an iteration (23
    ms an iteration under load; a dot on one thread takes 10 µs). And its sum's order depends
    on the thread count."""
    total = 0.0
    for k in range(len(a)):
        total += a[k] * b[k]
    return total


@njit(cache=True, nogil=True, **NO_REFCOUNTS)
def woodbury_right_side(
    residual: np.ndarray,  # (R,) float64
    rows: np.ndarray,  # (R',) int64, the rows in the system
    inverse_alpha: np.ndarray,  # (R',) float64, α̃⁻¹ of those rows
    g_t: SparseRows,  # (3F, R') Gᵀ over the free coordinates
    scaled: np.ndarray,  # (R',) float64, overwritten: α̃⁻¹·r
    rhs: np.ndarray,  # (3F,) float64, overwritten: Gᵀ·α̃⁻¹·r
) -> None:
    """The first half of LinksInverse.solve. Its products sum each row's entries in their
    order from 0, as scipy's do: the same bits (no fastmath: no fused multiply-adds)."""
    for k in range(len(rows)):
        scaled[k] = inverse_alpha[k] * residual[rows[k]]
    for row in range(len(rhs)):
        rhs[row] = _row_product(g_t, row, scaled)


@njit(cache=True, nogil=True, **NO_REFCOUNTS)
def woodbury_answer(
    residual: np.ndarray,  # (R,) float64
    rows: np.ndarray,  # (R',) int64
    inverse_alpha: np.ndarray,  # (R',) float64
    g: SparseRows,  # (R', 3F) G over the free coordinates
    scaled: np.ndarray,  # (R',) float64, α̃⁻¹·r (woodbury_right_side)
    moves: np.ndarray,  # (3F,) float64, P⁻¹·Gᵀ·α̃⁻¹·r
    out: np.ndarray,  # (R,) float64, overwritten: r, and α̃⁻¹·r − α̃⁻¹·G·moves on `rows`
) -> None:
    """The second half of LinksInverse.solve."""
    for k in range(len(residual)):
        out[k] = residual[k]
    for k in range(len(rows)):
        out[rows[k]] = scaled[k] - inverse_alpha[k] * _row_product(g, k, moves)


@njit(cache=True, nogil=True, **NO_REFCOUNTS, inline="always")
def _row_product(matrix: SparseRows, row: int, v: np.ndarray) -> float:
    """Row `row` of the matrix times v, its entries summed in their order from 0."""
    total = 0.0
    for entry in range(matrix.indptr[row], matrix.indptr[row + 1]):
        total += matrix.data[entry] * v[matrix.indices[entry]]
    return total


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH)
def multiply_together(
    v: np.ndarray,  # (R,) float64: the links' rows, the cells', then the shapes' (three each)
    jacobian: Jacobian,  # G's rows: the links', the cells' shear, the shapes'
    inv_mass: np.ndarray,  # (N,) float64
    rows: SystemRows,  # α̃ and 1 / the diagonal (0 for a row left out)
    moves: np.ndarray,  # (N, 3) float64, scratch
    out: np.ndarray,  # (R,) float64, overwritten: (G·W·Gᵀ + α̃)·v
) -> None:
    spread(v, jacobian, inv_mass, moves)
    gather(moves, jacobian, rows, v, out)


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH)
def gather(
    moves: np.ndarray,  # (N, 3) float64, how far each particle moves
    jacobian: Jacobian,  # G's rows: the links', the cells' shear, the shapes'
    rows: SystemRows,  # α̃ and 1 / the diagonal (0 for a row left out)
    v: np.ndarray,  # (R,) float64: α̃·v is added (zeros: G·moves alone)
    out: np.ndarray,  # (R,) float64, overwritten: G·moves + α̃·v, 0 on a row left out
) -> None:
    gradient, link_a, link_b, cells, shear_gradient, members, shape_gradient = jacobian
    alpha, inverse_diagonal = rows.alpha, rows.inverse_diagonal
    links = link_a.shape[0]
    for k in range(links):
        if inverse_diagonal[k] == 0.0:
            out[k] = 0.0
            continue
        i, j = link_a[k], link_b[k]
        out[k] = (
            gradient[k, 0] * (moves[i, 0] - moves[j, 0])
            + gradient[k, 1] * (moves[i, 1] - moves[j, 1])
            + gradient[k, 2] * (moves[i, 2] - moves[j, 2])
            + alpha[k] * v[k]
        )
    for k in range(cells.shape[0]):
        row = links + k
        if inverse_diagonal[row] == 0.0:
            out[row] = 0.0
            continue
        total = alpha[row] * v[row]
        for m in range(4):
            p = cells[k, m]
            for c in range(3):
                total += shear_gradient[k, m, c] * moves[p, c]
        out[row] = total
    first = links + cells.shape[0]
    for k in range(members.shape[0]):
        for c in range(3):
            row = first + 3 * k + c
            if inverse_diagonal[row] == 0.0:
                out[row] = 0.0
                continue
            total = alpha[row] * v[row]
            for m in range(members.shape[1]):
                total += shape_gradient[k, m] * moves[members[k, m], c]
            out[row] = total


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH)
def spread(
    v: np.ndarray,  # (R,) float64, −Δλ of each row: the links', the cells', the shapes'
    jacobian: Jacobian,  # G's rows: the links', the cells' shear, the shapes'
    inv_mass: np.ndarray,  # (N,) float64
    out: np.ndarray,  # (N, 3) float64, overwritten: W·Gᵀ·v, how far each particle moves
) -> None:
    gradient, link_a, link_b, cells, shear_gradient, members, shape_gradient = jacobian
    out[:] = 0.0
    links = link_a.shape[0]
    for k in range(links):
        i, j = link_a[k], link_b[k]
        for c in range(3):
            out[i, c] += gradient[k, c] * v[k]
            out[j, c] -= gradient[k, c] * v[k]
    for k in range(cells.shape[0]):
        for m in range(4):
            p = cells[k, m]
            for c in range(3):
                out[p, c] += shear_gradient[k, m, c] * v[links + k]
    first = links + cells.shape[0]
    for k in range(members.shape[0]):
        for m in range(members.shape[1]):
            p = members[k, m]
            for c in range(3):
                out[p, c] += shape_gradient[k, m] * v[first + 3 * k + c]
    for p in range(out.shape[0]):
        for c in range(3):
            out[p, c] *= inv_mass[p]


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH)
def project_tethers(
    x: np.ndarray,  # (N, 3) float64, updated in place
    inv_mass: np.ndarray,  # (N,) float64
    particle: np.ndarray,  # (T,) int32
    anchor: np.ndarray,  # (T,) int32, the pinned particle it is tethered to
    length: np.ndarray,  # (T,) float64, distance along the cloth at rest
    pulled: np.ndarray,  # (T,) float64, accumulates mass × how far each tether pulled
) -> None:
    """Unilateral: only a particle further from its pin than `length` is pulled back.
    `pulled` is each tether's force × h² towards its pin (sim.core.forces)."""
    for k in range(particle.shape[0]):
        i = particle[k]
        if inv_mass[i] == 0.0:
            continue
        p = anchor[k]
        dx = x[i, 0] - x[p, 0]
        dy = x[i, 1] - x[p, 1]
        dz = x[i, 2] - x[p, 2]
        distance = math.sqrt(dx * dx + dy * dy + dz * dz)
        if distance > length[k]:
            scale = length[k] / distance
            pulled[k] += (distance - length[k]) / inv_mass[i]
            x[i, 0] = x[p, 0] + dx * scale
            x[i, 1] = x[p, 1] + dy * scale
            x[i, 2] = x[p, 2] + dz * scale


@njit(cache=True, nogil=True, parallel=True)
def project_tethers_parallel(
    x: np.ndarray,  # (N, 3) float64, updated in place
    inv_mass: np.ndarray,  # (N,) float64
    particle: np.ndarray,  # (T,) int32, each particle's tethers together
    anchor: np.ndarray,  # (T,) int32
    length: np.ndarray,  # (T,) float64
    pulled: np.ndarray,  # (T,) float64
    bounds: np.ndarray,  # (C + 1,) int64, chunks of tethers that split no particle's
) -> None:
    """`project_tethers` on the chunks bounds[c] … bounds[c + 1] − 1 at once. A tether moves
    only its own particle (its pin stays put), and no particle's tethers span two chunks, so
    the result is the serial one bit for bit."""
    for c in prange(bounds.shape[0] - 1):
        a, b = bounds[c], bounds[c + 1]
        project_tethers(x, inv_mass, particle[a:b], anchor[a:b], length[a:b], pulled[a:b])


# --- tether paths: shortest paths over the live links, kept up to date as links die ----------


@njit(cache=True, nogil=True, **NO_REFCOUNTS, inline="always")
def _heap_push(
    keys: np.ndarray,  # (H,) float64
    nodes: np.ndarray,  # (H,) int64
    size: int,
    key: float,
    node: int,
) -> int:
    """Add to a binary min-heap held in keys[:size], nodes[:size]; returns the new size."""
    k = size
    while k > 0:
        up = (k - 1) // 2
        if keys[up] <= key:
            break
        keys[k] = keys[up]
        nodes[k] = nodes[up]
        k = up
    keys[k] = key
    nodes[k] = node
    return size + 1


@njit(cache=True, nogil=True, **NO_REFCOUNTS, inline="always")
def _heap_pop(
    keys: np.ndarray,  # (H,) float64
    nodes: np.ndarray,  # (H,) int64
    size: int,
) -> tuple[float, int, int]:
    """(key, node, new size) of the smallest entry, removed."""
    key, node = keys[0], nodes[0]
    size -= 1
    last_key, last_node = keys[size], nodes[size]
    k = 0
    while True:
        child = 2 * k + 1
        if child >= size:
            break
        if child + 1 < size and keys[child + 1] < keys[child]:
            child += 1
        if keys[child] >= last_key:
            break
        keys[k] = keys[child]
        nodes[k] = nodes[child]
        k = child
    if size > 0:
        keys[k] = last_key
        nodes[k] = last_node
    return key, node, size


@njit(cache=True, nogil=True, **NO_REFCOUNTS)
def _settle(
    graph: Graph,
    open_: np.ndarray,  # (N,) bool, particles whose length may still fall; cleared as they settle
    tree: PathTree,  # updated in place
    keys: np.ndarray,  # (H,) float64, the heap's path lengths
    nodes: np.ndarray,  # (H,) int64, the heap's particles
    size: int,  # entries already on the heap
) -> None:
    """Dijkstra from the entries already on the heap, over live links, into particles still
    open (their length is not final); closes each particle as it settles."""
    offsets, neighbour, via, weight, alive = graph
    length, parent_link, origin = tree
    while size > 0:
        d, i, size = _heap_pop(keys, nodes, size)
        if not open_[i] or d > length[i]:
            continue  # settled already, or a stale entry
        open_[i] = False
        for e in range(offsets[i], offsets[i + 1]):
            link = via[e]
            j = neighbour[e]
            if not alive[link] or not open_[j]:
                continue
            candidate = d + weight[link]
            if candidate < length[j]:
                length[j] = candidate
                parent_link[j] = link
                origin[j] = origin[i]
                size = _heap_push(keys, nodes, size, candidate, j)


@njit(cache=True, nogil=True)
def shortest_paths(
    graph: Graph,  # rest lengths as weights
    sources: np.ndarray,  # (S,) int32, where every path starts (the pins)
    tree: PathTree,  # written
) -> None:
    """Shortest paths over the live links (rest lengths as weights) from the nearest of the
    sources: the tree of them, as each particle's length, arriving link and source."""
    length, parent_link, origin = tree
    n = length.shape[0]
    length[:] = np.inf
    parent_link[:] = -1
    origin[:] = -1
    open_ = np.ones(n, dtype=np.bool_)
    keys = np.empty(graph.via.shape[0] + sources.shape[0] + 1)
    nodes = np.empty(keys.shape[0], dtype=np.int64)
    size = 0
    for s in sources:
        if length[s] > 0.0:
            length[s] = 0.0
            origin[s] = s
            size = _heap_push(keys, nodes, size, 0.0, s)
    _settle(graph, open_, tree, keys, nodes, size)


@njit(cache=True, nogil=True)
def repair_shortest_paths(
    graph: Graph,  # with the removed links dead
    ends: np.ndarray,  # (M, 2) int32, the two particles of each topology link
    removed: np.ndarray,  # (K,) int64, links that died since the tree was made
    tree: PathTree,  # updated in place
) -> int:
    """Bring a shortest_paths tree up to date after links died; returns how many particles
    had a path through a removed link. Removing links only lengthens paths, and a particle
    whose path in the tree kept all its links keeps its length exactly; the others (the
    subtrees below the removed links) are found again by Dijkstra, started from their live
    neighbours outside those subtrees. The result is what shortest_paths computes afresh,
    up to which of two equally short paths a particle takes."""
    offsets, neighbour, via, weight, alive = graph
    length, parent_link, origin = tree
    n = length.shape[0]
    affected = np.zeros(n, dtype=np.bool_)
    members = np.empty(n, dtype=np.int64)  # the affected particles; a stack while found
    count = 0
    for k in removed:
        for end in range(2):
            i = ends[k, end]
            if parent_link[i] == k and not affected[i]:
                affected[i] = True
                members[count] = i
                count += 1
    if count == 0:
        return 0
    scanned = 0
    while scanned < count:  # the subtrees: a child is reached by a link from its parent
        i = members[scanned]
        scanned += 1
        for e in range(offsets[i], offsets[i + 1]):
            j = neighbour[e]
            if parent_link[j] == via[e] and not affected[j]:
                affected[j] = True
                members[count] = j
                count += 1
    pushes = count
    for m in range(count):
        i = members[m]
        length[i] = np.inf
        parent_link[i] = -1
        origin[i] = -1
        pushes += offsets[i + 1] - offsets[i]
    keys = np.empty(pushes + 1)
    nodes = np.empty(pushes + 1, dtype=np.int64)
    size = 0
    for m in range(count):  # start from the nearest live neighbour whose path still holds
        i = members[m]
        for e in range(offsets[i], offsets[i + 1]):
            link = via[e]
            j = neighbour[e]
            if alive[link] and not affected[j] and origin[j] >= 0:
                candidate = length[j] + weight[link]
                if candidate < length[i]:
                    length[i] = candidate
                    parent_link[i] = link
                    origin[i] = origin[j]
        if origin[i] >= 0:
            size = _heap_push(keys, nodes, size, length[i], i)
    _settle(graph, affected, tree, keys, nodes, size)
    return count


@njit(cache=True, nogil=True)
def nearest_tethers(
    length: np.ndarray,  # (R, N) float64, each particle's distance along the cloth, per tree
    origin: np.ndarray,  # (R, N) int64, the pin it is measured from (-1: unreachable)
    free: np.ndarray,  # (N,) bool, particles that get tethers (not pinned)
    keep: int,  # tethers per particle at most
    rest: np.ndarray,  # (M, 3) float64, rest positions (origin indexes them)
    spread: float,  # passed over: a pin nearer a taken one than spread × the taken one's length
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(T,) int32 particle, (T,) int32 pin, (T,) float64 length: each free particle tethered
    to up to `keep` pins it can reach, nearest first (the lower row first on a tie), passing
    over a pin that lies at rest within `spread` × d of a pin already taken at distance d: as
    seen from the particle it is in the same direction, and its tether would hold the same
    way. So a particle takes its tethers from every clamp of pins near it, not four from the
    nearest clamp (RESEARCH.md §8, "Tethers to clustered pins"). Particles in ascending order."""
    trees, n = length.shape
    keep = min(keep, trees)
    particle = np.empty(n * keep, dtype=np.int32)
    anchor = np.empty(n * keep, dtype=np.int32)
    out = np.empty(n * keep)
    passed = np.zeros(trees, dtype=np.bool_)  # taken, or near a taken pin
    chosen = np.empty(keep, dtype=np.int64)  # the rows taken for this particle
    t = 0
    for i in range(n):
        if not free[i]:
            continue
        passed[:] = False
        taken = 0
        while taken < keep:
            best = -1
            for r in range(trees):
                if origin[r, i] < 0 or passed[r]:
                    continue
                if best >= 0 and length[r, i] >= length[best, i]:
                    continue
                if _near_a_taken_pin(origin, length, rest, i, r, chosen, taken, spread):
                    passed[r] = True
                    continue
                best = r
            if best < 0:
                break
            passed[best] = True
            chosen[taken] = best
            taken += 1
            particle[t] = i
            anchor[t] = origin[best, i]
            out[t] = length[best, i]
            t += 1
    return particle[:t].copy(), anchor[:t].copy(), out[:t].copy()


@njit(cache=True, nogil=True, **NO_REFCOUNTS, inline="always")
def _near_a_taken_pin(
    origin: np.ndarray,
    length: np.ndarray,
    rest: np.ndarray,
    i: int,
    r: int,
    chosen: np.ndarray,
    taken: int,
    spread: float,
) -> bool:
    """Whether row r's pin lies at rest within spread × d of a pin taken for particle i at d."""
    q = origin[r, i]
    for c in range(taken):
        p = origin[chosen[c], i]
        dx = rest[q, 0] - rest[p, 0]
        dy = rest[q, 1] - rest[p, 1]
        dz = rest[q, 2] - rest[p, 2]
        near = spread * length[chosen[c], i]
        if dx * dx + dy * dy + dz * dz < near * near:
            return True
    return False


@njit(cache=True, nogil=True, **NO_REFCOUNTS)
def triangle_vertex_areas(
    rest: np.ndarray,  # (N, 3) float64, rest positions
    triangles: np.ndarray,  # (T, 3) int32
    out: np.ndarray,  # (N,) float64, zeroed by the caller, accumulated
) -> None:
    """A third of each triangle's rest area added to each of its corners (rebuilt after every
    tear when the wind is aerodynamic; numpy's gathers and cross products took ten times
    longer on a 128² sheet)."""
    for k in range(triangles.shape[0]):
        a, b, c = triangles[k, 0], triangles[k, 1], triangles[k, 2]
        nx, ny, nz = _triangle_cross(rest, a, b, c)
        third = 0.5 * math.sqrt(nx * nx + ny * ny + nz * nz) / 3.0
        out[a] += third
        out[b] += third
        out[c] += third


@njit(cache=True, nogil=True, **NO_REFCOUNTS, inline="always")
def _triangle_cross(x: np.ndarray, a: int, b: int, c: int) -> tuple[float, float, float]:
    """(x_b − x_a) × (x_c − x_a): the triangle's normal, twice its area long."""
    ux, uy, uz = x[b, 0] - x[a, 0], x[b, 1] - x[a, 1], x[b, 2] - x[a, 2]
    vx, vy, vz = x[c, 0] - x[a, 0], x[c, 1] - x[a, 1], x[c, 2] - x[a, 2]
    return uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH)
def project_stencils_xpbd(
    particles: Particles,  # x updated in place
    stencils: LinearStencils,  # stencils.lambdas updated
    h: float,
) -> None:
    """One XPBD pass over linear constraints C = Σ c_m·x_m = 0 (sim.core.materials' bending:
    a run's curvature, x_l − 2·x_i + x_r when evenly spaced, a cell's twist x_00 − x_01 + x_11
    − x_10), each stencil with its own coefficients: three
    linear components each, gradients c_m, so each update is exact for its stencil."""
    x, inv_mass = particles.x, particles.inv_mass
    members, coefficients, compliance, lambdas = stencils
    h2 = h * h
    size = members.shape[1]
    for k in range(members.shape[0]):
        w = 0.0
        for m in range(size):
            w += coefficients[k, m] * coefficients[k, m] * inv_mass[members[k, m]]
        if w == 0.0:
            continue
        alpha = compliance[k] / h2
        for c in range(3):
            error = 0.0
            for m in range(size):
                error += coefficients[k, m] * x[members[k, m], c]
            step = (-error - alpha * lambdas[k, c]) / (w + alpha)
            lambdas[k, c] += step
            for m in range(size):
                p = members[k, m]
                x[p, c] += coefficients[k, m] * inv_mass[p] * step


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH, inline="always")
def _cell_shear(
    x: np.ndarray,
    inv_mass: np.ndarray,
    cells: np.ndarray,
    coefficients: np.ndarray,
    k: int,
    sign: float,
    gradient: np.ndarray,
) -> tuple[float, float]:
    """Cell k's shear condition C = F_u·F_v and Σ w_m·|∇_m C|², its gradient written into
    gradient[k] times `sign` (1: ∇C; −1: a row of the links' system, −∇C as theirs)."""
    fu0 = fu1 = fu2 = fv0 = fv1 = fv2 = 0.0
    for m in range(4):
        p = cells[k, m]
        cu, cv = coefficients[k, 0, m], coefficients[k, 1, m]
        fu0 += cu * x[p, 0]
        fu1 += cu * x[p, 1]
        fu2 += cu * x[p, 2]
        fv0 += cv * x[p, 0]
        fv1 += cv * x[p, 1]
        fv2 += cv * x[p, 2]
    w = 0.0
    for m in range(4):
        cu, cv = coefficients[k, 0, m], coefficients[k, 1, m]
        gradient[k, m, 0] = sign * (cu * fv0 + cv * fu0)
        gradient[k, m, 1] = sign * (cu * fv1 + cv * fu1)
        gradient[k, m, 2] = sign * (cu * fv2 + cv * fu2)
        w += inv_mass[cells[k, m]] * (
            gradient[k, m, 0] ** 2 + gradient[k, m, 1] ** 2 + gradient[k, m, 2] ** 2
        )
    return fu0 * fv0 + fu1 * fv1 + fu2 * fv2, w


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH)
def project_cell_shear(
    particles: Particles,  # x updated in place
    shear: ShearCells,  # shear.lambdas updated, shear.gradient written
    h: float,
) -> None:
    """One XPBD pass over the cells' shear conditions C = F_u·F_v (materials.shear_coefficients:
    the deformation gradient's weft and warp columns, unit and square at rest): sheared by γ,
    C = sin γ, and ½·C²/α with α = 1/(G·A) is the continuum ½·G·γ²·A; stretched, the columns
    stay square and C stays 0, so a fabric's stretch does not depend on its shear."""
    x, inv_mass = particles.x, particles.inv_mass
    cells, coefficients, compliance, lambdas, gradient = shear
    for k in range(cells.shape[0]):
        error, w = _cell_shear(x, inv_mass, cells, coefficients, k, 1.0, gradient)
        if w == 0.0:
            continue
        alpha = compliance[k] / (h * h)
        step = (-error - alpha * lambdas[k]) / (w + alpha)
        lambdas[k] += step
        for m in range(4):
            p = cells[k, m]
            for c in range(3):
                x[p, c] += inv_mass[p] * gradient[k, m, c] * step


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH)
def shear_rows(
    particles: Particles,
    shear: ShearCells,  # its gradient out: G's rows, −∇C (as the links')
    h2: float,
    first: int,  # the first cell's row in the system
    rows: SystemRows,  # out in [first:first + C]: C (multipliers start at 0), α̃, 1 / the diagonal
) -> None:
    """The cells' shear conditions (project_cell_shear) as rows of the links' system,
    linearised at x."""
    x, inv_mass = particles.x, particles.inv_mass
    cells, coefficients, gradient = shear.cells, shear.coefficients, shear.gradient
    compliance = shear.compliance
    residual, alpha, inverse_diagonal = rows
    for k in range(cells.shape[0]):
        error, w = _cell_shear(x, inv_mass, cells, coefficients, k, -1.0, gradient)
        row = first + k
        alpha[row] = compliance[k] / h2
        if w == 0.0:
            residual[row] = inverse_diagonal[row] = 0.0
            continue
        residual[row] = error
        inverse_diagonal[row] = 1.0 / (w + alpha[row])


@njit(cache=True, nogil=True, fastmath=FASTMATH)
def shear_forces_on_held(
    inv_mass: np.ndarray,  # (N,) float64
    cells: np.ndarray,  # (C, 4) int32
    gradient: np.ndarray,  # (C, 4, 3) float64, ∇C as last projected
    lambdas: np.ndarray,  # (C,) float64, the substep's multipliers after its passes
    h: float,
    out: np.ndarray,  # (N, 3) float64, accumulates
) -> None:
    """The force each cell's shear condition exerts on its held corners over the last substep:
    ∇C × λ / h²."""
    h2 = h * h
    for k in range(cells.shape[0]):
        for m in range(4):
            p = cells[k, m]
            if inv_mass[p] == 0.0:
                for c in range(3):
                    out[p, c] += gradient[k, m, c] * lambdas[k] / h2


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH)
def link_forces(
    x: np.ndarray,  # (N, 3) float64
    inv_mass: np.ndarray,  # (N,) float64, 0 for held particles
    moves: LinkMoves,  # the links and what their last substep's passes moved
    h: float,
    live: np.ndarray,  # (L,) int64, each link's topology index; (0,): write no tension
    tension: np.ndarray,  # (M,) float64 by topology index, written where `live` says
    on_held: np.ndarray,  # (N, 3) float64, accumulates the force on each held particle
) -> None:
    """Each link's tension, and the force it pulls a held (pinned) end with, over the last
    substep: it moved its free end by `moved` / mass along u, its correction's unit direction
    (along_start), so it pulls each end with moved / h² along u, towards the other end when
    > 0. One pass for both: measuring is one call, not one per array."""
    link_a, link_b, start, moved = moves
    h2 = h * h
    with_tension = live.shape[0] == link_a.shape[0]
    for k in range(link_a.shape[0]):
        if with_tension:
            tension[live[k]] = moved[k] / h2
        i, j = link_a[k], link_b[k]
        if inv_mass[i] != 0.0 and inv_mass[j] != 0.0:
            continue
        dx = x[j, 0] - x[i, 0]
        dy = x[j, 1] - x[i, 1]
        dz = x[j, 2] - x[i, 2]
        length = math.sqrt(dx * dx + dy * dy + dz * dz)
        if length == 0.0:
            continue
        vx, vy, vz, _top, size = along_start(start, k, dx, dy, dz, length)
        f = moved[k] / (size * h2)
        if inv_mass[i] == 0.0:
            on_held[i, 0] += vx * f
            on_held[i, 1] += vy * f
            on_held[i, 2] += vz * f
        if inv_mass[j] == 0.0:
            on_held[j, 0] -= vx * f
            on_held[j, 1] -= vy * f
            on_held[j, 2] -= vz * f


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH)
def stencil_forces_on_held(
    inv_mass: np.ndarray,  # (N,) float64
    members: np.ndarray,  # (K, M) int32
    coefficients: np.ndarray,  # (K, M) float64
    lambdas: np.ndarray,  # (K, 3) float64, the substep's multipliers after its passes
    h: float,
    out: np.ndarray,  # (N, 3) float64, accumulates
) -> None:
    """The force each stencil (project_stencils_xpbd) exerts on its held members over the
    last substep: its gradient coefficient × λ / h²."""
    h2 = h * h
    for k in range(members.shape[0]):
        for m in range(members.shape[1]):
            p = members[k, m]
            if inv_mass[p] == 0.0:
                for c in range(3):
                    out[p, c] += coefficients[k, m] * lambdas[k, c] / h2


@njit(cache=True, nogil=True, fastmath=FASTMATH)
def held_reactions(
    on_held: np.ndarray,  # (N, 3) float64, what the constraints pull each held particle with
    held: np.ndarray,  # (H,) int32, the pins in order, then the grabbed particle if any
    mass: np.ndarray,  # (N,) float64
    gravity: float,
) -> np.ndarray:  # (H, 3) float64
    """Each holder's force on the cloth: the reaction to the constraints' pull on its particle,
    plus that particle's weight, which it holds too. One call where numpy took four: this runs
    each time the readouts are read."""
    out = np.empty((held.shape[0], 3))
    for k in range(held.shape[0]):
        p = held[k]
        out[k, 0] = -on_held[p, 0]
        out[k, 1] = mass[p] * gravity - on_held[p, 1]
        out[k, 2] = -on_held[p, 2]
    return out


@njit(cache=True, nogil=True, fastmath=FASTMATH)
def project_volumes(
    x: np.ndarray,  # (N, 3) float64, updated in place
    inv_mass: np.ndarray,  # (N,) float64
    tets: np.ndarray,  # (T, 4) int32
    rest_volume: np.ndarray,  # (T,) float64
    inverted_only: bool,
) -> None:
    """Each tetrahedron back to its rest volume along the volume gradient (PBD, stiffness 1);
    with `inverted_only`, only those of negative volume, and only back to zero: the links then
    open them the right way (pushed to their rest volume, a cell held inside out by a hand
    fought the hand)."""
    gradient = np.empty((4, 3))
    for k in range(tets.shape[0]):
        corners = tets[k]
        p0 = corners[0]
        a = (x[corners[1], 0] - x[p0, 0], x[corners[1], 1] - x[p0, 1], x[corners[1], 2] - x[p0, 2])
        b = (x[corners[2], 0] - x[p0, 0], x[corners[2], 1] - x[p0, 1], x[corners[2], 2] - x[p0, 2])
        c = (x[corners[3], 0] - x[p0, 0], x[corners[3], 1] - x[p0, 1], x[corners[3], 2] - x[p0, 2])
        _cross_into(b, c, gradient, 1)  # ∂V/∂p1 = (b × c)/6, and so on round the corners
        _cross_into(c, a, gradient, 2)
        _cross_into(a, b, gradient, 3)
        volume = (a[0] * gradient[1, 0] + a[1] * gradient[1, 1] + a[2] * gradient[1, 2]) / 6.0
        if inverted_only and volume >= 0.0:
            continue
        target = 0.0 if inverted_only else rest_volume[k]
        denominator = 0.0
        for d in range(3):
            gradient[0, d] = -(gradient[1, d] + gradient[2, d] + gradient[3, d])
        for m in range(4):
            g = gradient[m]
            denominator += inv_mass[corners[m]] * (g[0] * g[0] + g[1] * g[1] + g[2] * g[2]) / 36.0
        if denominator == 0.0:
            continue
        s = -(volume - target) / denominator / 6.0
        for m in range(4):
            w = inv_mass[corners[m]]
            for d in range(3):
                x[corners[m], d] += s * w * gradient[m, d]


@njit(cache=True, nogil=True, **NO_REFCOUNTS, inline="always")
def _cross_into(a, b, out, row):
    out[row, 0] = a[1] * b[2] - a[2] * b[1]
    out[row, 1] = a[2] * b[0] - a[0] * b[2]
    out[row, 2] = a[0] * b[1] - a[1] * b[0]


@njit(cache=True, nogil=True)
def tet_volumes(x: np.ndarray, tets: np.ndarray) -> np.ndarray:
    """(T,) float64 signed volumes of (T, 4) tetrahedra."""
    out = np.empty(tets.shape[0])
    for k in range(tets.shape[0]):
        out[k] = _tet_volume(x, tets[k, 0], tets[k, 1], tets[k, 2], tets[k, 3])
    return out


# --- self-collision ----------------------------------------------------------------------


# Particles are searched in this many chunks on the thread pool, each chunk writing its own
# slice of the output; closing the gaps after gives the serial order on any number of threads.
# Below PARALLEL_SEARCH_MIN particles one thread searches: starting the pool costs more.
SEARCH_CHUNKS, PARALLEL_SEARCH_MIN = 16, 1000


@njit(cache=True, nogil=True)
def find_close_pairs(
    x: np.ndarray,  # (N, 3) float64
    rest: np.ndarray,  # (N, 3) float64, rest positions
    radius: float,
    distance: float,
    linked: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],  # Adjacency's 3, link_alive
    pairs: np.ndarray,  # (P, 2) int32, written
    targets: np.ndarray,  # (P,) float64, written: min(distance, rest distance)
) -> int:
    """Pairs (i < j) closer than `radius` now and not joined by a live link (`linked`: the
    topology's Adjacency offsets, neighbour and via, and which links live), each once, in
    order of i; each must end at least `distance` apart, or as far as it is at rest if that is
    less. Returns how many were found, or, when `pairs` is too short, a number larger than
    len(pairs): call again with at least that many rows.

    Particles are binned in a spatial hash of cells twice the radius across, so a particle's
    neighbourhood meets at most two cells along each axis: 8 lookups, not 27 as with cells
    the radius across."""
    n = x.shape[0]
    search = PairSearch(x, rest, radius, distance, _bin_particles(x, 2.0 * radius), linked)
    out = Pairs(pairs, targets)
    if n < PARALLEL_SEARCH_MIN:
        return _pairs_of_chunk(search, 0, n, out, 0, len(pairs))
    room = pairs.shape[0] // SEARCH_CHUNKS
    found = _pairs_of_chunks(search, out, room)
    return _close_gaps(found, room, pairs, targets)


@njit(cache=True, nogil=True, parallel=True)
def _pairs_of_chunks(search: PairSearch, out: Pairs, room: int) -> np.ndarray:
    """(SEARCH_CHUNKS,) int64: how many pairs each chunk of particles found, written from
    row c × room of chunk c while they fit."""
    # the thread pool's loop takes no record within a record: it is taken apart here and made
    # again in the loop
    x, rest, radius, distance, grid, linked = search
    n = x.shape[0]
    found = np.zeros(SEARCH_CHUNKS, dtype=np.int64)
    half = SEARCH_CHUNKS // 2
    for k in prange(SEARCH_CHUNKS):
        # The pool gives each of two threads a run of k: map them to the even and the odd
        # chunks, so that both search all over the sheet. A sheet crumples where it hangs
        # lowest, and in runs the chunks of its bottom rows took twice the others' time.
        c = 2 * (k % half) + k // half
        first, end = c * n // SEARCH_CHUNKS, (c + 1) * n // SEARCH_CHUNKS
        chunk = PairSearch(x, rest, radius, distance, grid, linked)
        found[c] = _pairs_of_chunk(chunk, first, end, out, c * room, room)
    return found


@njit(cache=True, nogil=True)
def _close_gaps(found: np.ndarray, room: int, rows: np.ndarray, values: np.ndarray) -> int:
    """The chunks' rows (each chunk c wrote found[c] rows from c × room) moved together, in
    order; returns their number, or, if a chunk had more than `room`, how many rows to give
    the search instead (more than len(rows))."""
    chunks = found.shape[0]
    if found.max() > room:
        return max(found.max() * chunks, rows.shape[0] + 1)
    total = 0
    for c in range(chunks):
        for k in range(found[c]):
            rows[total + k, 0] = rows[c * room + k, 0]
            rows[total + k, 1] = rows[c * room + k, 1]
            values[total + k] = values[c * room + k]
        total += found[c]
    return total


@njit(cache=True, nogil=True)
def _bin_particles(x: np.ndarray, size: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """(cells (N, 3) int64, order (N,) int64, starts (M + 1,) int64, mask): each particle's
    cell, the particles sorted by their cell's hash bucket (a counting sort), and where each
    bucket's particles begin in `order`. M is a power of two ≥ 2N: a bit mask replaces a
    division per lookup."""
    n = x.shape[0]
    buckets = 1
    while buckets < 2 * n:
        buckets *= 2
    mask = buckets - 1
    starts = np.zeros(buckets + 1, dtype=np.int64)
    cells = np.empty((n, 3), dtype=np.int64)
    keys = np.empty(n, dtype=np.int64)
    for i in range(n):
        for d in range(3):
            cells[i, d] = math.floor(x[i, d] / size)
        keys[i] = _cell_hash(cells[i, 0], cells[i, 1], cells[i, 2], mask)
        starts[keys[i] + 1] += 1
    for b in range(buckets):
        starts[b + 1] += starts[b]
    order = np.empty(n, dtype=np.int64)
    fill = starts[:-1].copy()
    for i in range(n):
        order[fill[keys[i]]] = i
        fill[keys[i]] += 1
    return cells, order, starts, mask


@njit(cache=True, nogil=True, **NO_REFCOUNTS)
def _pairs_of_chunk(
    search: PairSearch,
    first: int,
    end: int,  # particles first … end − 1
    out: Pairs,
    base: int,  # the chunk's slice of the output: rows base … base + room − 1
    room: int,
) -> int:
    """The close pairs (i, j > i) of particles i in first … end − 1, written from row `base`
    while they fit. Returns how many there are."""
    x, rest, radius, distance, grid, linked = search
    pairs, targets = out
    cells, order, starts, mask = grid
    offsets, neighbour, via, alive = linked
    size = 2.0 * radius  # the grid's cells
    found = 0
    r2 = radius * radius
    for i in range(first, end):
        lo_x = math.floor((x[i, 0] - radius) / size)
        lo_y = math.floor((x[i, 1] - radius) / size)
        lo_z = math.floor((x[i, 2] - radius) / size)
        hi_x = math.floor((x[i, 0] + radius) / size)
        hi_y = math.floor((x[i, 1] + radius) / size)
        hi_z = math.floor((x[i, 2] + radius) / size)
        for cx in range(lo_x, hi_x + 1):
            for cy in range(lo_y, hi_y + 1):
                for cz in range(lo_z, hi_z + 1):
                    bucket = _cell_hash(cx, cy, cz, mask)
                    for slot in range(starts[bucket], starts[bucket + 1]):
                        j = order[slot]
                        # another cell may share the bucket: its particles are met there
                        if j <= i or cells[j, 0] != cx or cells[j, 1] != cy or cells[j, 2] != cz:
                            continue
                        dx = x[j, 0] - x[i, 0]
                        dy = x[j, 1] - x[i, 1]
                        dz = x[j, 2] - x[i, 2]
                        if dx * dx + dy * dy + dz * dz >= r2:
                            continue
                        joined = False  # by a live link, which keeps them apart already
                        for link in range(offsets[i], offsets[i + 1]):
                            joined |= neighbour[link] == j and alive[via[link]]
                        if joined:
                            continue
                        if found < room:
                            pairs[base + found, 0] = i
                            pairs[base + found, 1] = j
                            ex = rest[j, 0] - rest[i, 0]
                            ey = rest[j, 1] - rest[i, 1]
                            ez = rest[j, 2] - rest[i, 2]
                            targets[base + found] = min(
                                distance, math.sqrt(ex * ex + ey * ey + ez * ez)
                            )
                        found += 1
    return found


@njit(cache=True, nogil=True, **NO_REFCOUNTS, inline="always")
def _cell_hash(ix: int, iy: int, iz: int, bits: int) -> int:
    return ((ix * 73856093) ^ (iy * 19349663) ^ (iz * 83492791)) & bits


@njit(cache=True, nogil=True, **NO_REFCOUNTS)
def group_pairs(
    found: np.ndarray,  # (P, 2) int32, find_close_pairs' pairs
    found_targets: np.ndarray,  # (P,) float64, their targets
    count: int,
    side: np.ndarray,  # (N,) bool, which of two halves of the body each particle is in
    pairs: np.ndarray,  # (P, 2) int32, written
    targets: np.ndarray,  # (P,) float64, written
) -> tuple[int, int]:
    """The `count` pairs found, copied in three groups, each in the order found: the pairs
    within side False, those within side True, those across. Returns where the second and the
    third group begin. The first two share no particle: two threads may take them at once."""
    within_false = within_true = 0
    for k in range(count):
        a, b = side[found[k, 0]], side[found[k, 1]]
        if a == b:
            if a:
                within_true += 1
            else:
                within_false += 1
    second, third = within_false, within_false + within_true
    next_false, next_true, next_across = 0, second, third  # each group's next row
    for k in range(count):
        a, b = side[found[k, 0]], side[found[k, 1]]
        if a != b:
            row, next_across = next_across, next_across + 1
        elif a:
            row, next_true = next_true, next_true + 1
        else:
            row, next_false = next_false, next_false + 1
        pairs[row, 0] = found[k, 0]
        pairs[row, 1] = found[k, 1]
        targets[row] = found_targets[k]
    return second, third


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH)
def project_pairs(
    x: np.ndarray,  # (N, 3) float64, updated in place
    inv_mass: np.ndarray,  # (N,) float64
    pairs: np.ndarray,  # (P, 2) int32
    targets: np.ndarray,  # (P,) float64, minimum distance of each pair
    count: int,
) -> None:
    """Push apart the pairs closer than their minimum distance (unilateral), in order."""
    _project_pair_run(x, inv_mass, pairs, targets, 0, count)


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH, parallel=True)
def project_pairs_parallel(
    x: np.ndarray,  # (N, 3) float64, updated in place
    inv_mass: np.ndarray,  # (N,) float64
    pairs: np.ndarray,  # (P, 2) int32, in group_pairs' three groups
    targets: np.ndarray,  # (P,) float64
    count: int,
    groups: tuple[int, int],  # group_pairs': where the second and the third group begin
) -> None:
    """project_pairs with the first two groups on two threads: they share no particle, so
    the bits are project_pairs'."""
    second, third = groups
    for group in prange(2):
        if group == 0:
            _project_pair_run(x, inv_mass, pairs, targets, 0, second)
        else:
            _project_pair_run(x, inv_mass, pairs, targets, second, third)
    _project_pair_run(x, inv_mass, pairs, targets, third, count)


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH, inline="always")
def _project_pair_run(
    x: np.ndarray,
    inv_mass: np.ndarray,
    pairs: np.ndarray,
    targets: np.ndarray,
    first: int,
    end: int,  # the pairs first … end − 1
) -> None:
    for k in range(first, end):
        i = pairs[k, 0]
        j = pairs[k, 1]
        w = inv_mass[i] + inv_mass[j]
        if w == 0.0:
            continue
        dx = x[j, 0] - x[i, 0]
        dy = x[j, 1] - x[i, 1]
        dz = x[j, 2] - x[i, 2]
        distance = math.sqrt(dx * dx + dy * dy + dz * dz)
        if distance >= targets[k] or distance == 0.0:
            continue
        s = (distance - targets[k]) / (distance * w)
        move_link_ends(x, i, j, dx, dy, dz, s * inv_mass[i], s * inv_mass[j])


@njit(cache=True, nogil=True, **NO_REFCOUNTS)
def link_measures(
    x: np.ndarray,  # (N, 3) float64
    links: Links,  # each link's compliance is read with the multipliers
    lambdas: np.ndarray,  # (L,) float64 XPBD multipliers, or (0,) for none
    h: float,  # the substep the multipliers were solved over
) -> tuple[float, float]:
    """(max (L − rest)/rest, max |C + α̃·λ| / rest) over the links, in one pass; (0, 0) for
    none. C = L − rest, α̃ = compliance/h²: the second is how far the positions are from what
    the solver is solving for (each link's compliance law under XPBD, rest length otherwise)."""
    link_a, link_b, rest, compliance = links.a, links.b, links.rest, links.compliance
    stretch = -np.inf
    worst = 0.0
    with_lambdas = lambdas.shape[0] == link_a.shape[0]
    h2 = h * h
    for k in range(link_a.shape[0]):
        i = link_a[k]
        j = link_b[k]
        dx = x[j, 0] - x[i, 0]
        dy = x[j, 1] - x[i, 1]
        dz = x[j, 2] - x[i, 2]
        residual = math.sqrt(dx * dx + dy * dy + dz * dz) - rest[k]
        strain = residual / rest[k]
        if strain > stretch:
            stretch = strain
        if with_lambdas:
            worst = max(worst, abs(residual + compliance[k] / h2 * lambdas[k]) / rest[k])
        else:  # |C| / rest is |strain|, exactly (a division rounds the same either sign)
            worst = max(worst, abs(strain))
    return (stretch if link_a.shape[0] > 0 else 0.0), worst
