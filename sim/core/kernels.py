"""Numba kernels of the classic position-based model. Flat arrays in, arrays updated in place.

fastmath is limited to flags that keep NaN and infinity semantics (no `nnan`/`ninf`), so a
blow-up stays visible to the checks that look for it.

Loops that allocate nothing and run on one thread are compiled with `**NO_REFCOUNTS`
(`_nrt=False`: numba's reference counting off; here, in constraints.py and drape.py). With it
on, a helper inlined into a loop that takes arrays and returns early kept an atomic incref and
decref of each array per call: the classic link pass ran at a quarter of the speed of the same
loop written out (RESEARCH §3). A loop that allocates, and every parallel loop (its lowering
allocates), keeps it on.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import njit, prange

from clothlab.sim.core.records import Contacts, Held, Links, Particles, World

FASTMATH = {"nsz", "arcp", "contract", "afn", "reassoc"}
NO_REFCOUNTS: dict[str, Any] = {"_nrt": False}  # see above; numba's typing stubs lack it

# Health of the state, checked by the predict loops as they read each particle (no extra pass).
HEALTHY, NOT_FINITE, TOO_FAR, TOO_FAST = 0, 1, 2, 3
INTERRUPTED = 4  # not a problem of the model: another thread asked to abandon the step
MAX_COORDINATE = 1e6  # units: nothing in a scene is anywhere near this
MAX_SPEED = 1e4  # units/s: ~700× the free-fall terminal speed of the classic model


@njit(cache=True, nogil=True, **NO_REFCOUNTS, inline="always")
def particle_health(
    px: float, py: float, pz: float, vx: float, vy: float, vz: float, max_step: float
) -> int:
    """HEALTHY, or why not: position (px, py, pz), last step's displacement (vx, vy, vz).
    Written as `not (a < b)` so that NaN fails every test."""
    if not (abs(px) + abs(py) + abs(pz) + abs(vx) + abs(vy) + abs(vz) < np.inf):
        return NOT_FINITE
    if not (abs(px) < MAX_COORDINATE and abs(py) < MAX_COORDINATE and abs(pz) < MAX_COORDINATE):
        return TOO_FAR
    if not (vx * vx + vy * vy + vz * vz < max_step * max_step):
        return TOO_FAST
    return HEALTHY


@njit(cache=True, nogil=True, inline="always")
def gust(t: float, x: float) -> float:
    """The wind's gust at time t for a particle (or a triangle's centre) at x along the sheet:
    the share of the wind's strength it blows with, 0.2…1.0, its gusts running across x."""
    return 0.6 + 0.4 * math.sin(2.0 * t + x)


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH, inline="always")
def _predict_particle(
    x: np.ndarray, x_prev: np.ndarray, i: int, damping: float, gravity: float, gust: float,
    dt2: float,
) -> None:  # fmt: skip
    px, py, pz = x[i, 0], x[i, 1], x[i, 2]
    x[i, 0] = px + (px - x_prev[i, 0]) * damping
    x[i, 1] = py + (py - x_prev[i, 1]) * damping - gravity * dt2
    x[i, 2] = pz + (pz - x_prev[i, 2]) * damping + gust * dt2
    x_prev[i, 0] = px
    x_prev[i, 1] = py
    x_prev[i, 2] = pz


# A link that turned further than this within the step (or flipped through itself) is
# corrected along itself now: in a strong wind links turn by 30° and more a step, and only the
# direction now holds them; in a tangle, links flip, and the start line set them jittering.
MAX_KEPT_TURN_COS = 0.9  # cos 26°


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH)
def start_directions(
    x_prev: np.ndarray,  # (N, 3) float64, the positions the (sub)step began from
    link_a: np.ndarray,  # (L,) int32
    link_b: np.ndarray,  # (L,) int32
    out: np.ndarray,  # (L, 3) float64: each link's unit direction a → b then (0 if none)
) -> None:
    """Each link's direction as the step begins, once a step: the passes then read it in link
    order instead of both ends' x_prev (they ran at half the seed's speed that way)."""
    for k in range(link_a.shape[0]):
        _start_direction(x_prev, link_a, link_b, out, k)


@njit(cache=True, nogil=True, fastmath=FASTMATH, parallel=True)
def start_directions_parallel(
    x_prev: np.ndarray,  # (N, 3) float64
    link_a: np.ndarray,  # (L,) int32
    link_b: np.ndarray,  # (L,) int32
    out: np.ndarray,  # (L, 3) float64
) -> None:
    """start_directions on the thread pool (each link's own: the same bits)."""
    for k in prange(link_a.shape[0]):
        _start_direction(x_prev, link_a, link_b, out, k)


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH, inline="always")
def _start_direction(
    x_prev: np.ndarray, link_a: np.ndarray, link_b: np.ndarray, out: np.ndarray, k: int
) -> None:
    i, j = link_a[k], link_b[k]
    ex = x_prev[j, 0] - x_prev[i, 0]
    ey = x_prev[j, 1] - x_prev[i, 1]
    ez = x_prev[j, 2] - x_prev[i, 2]
    norm = math.sqrt(ex * ex + ey * ey + ez * ez)
    scale = 1.0 / norm if norm > 0.0 else 0.0
    out[k, 0] = ex * scale
    out[k, 1] = ey * scale
    out[k, 2] = ez * scale


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH, inline="always")
def along_start(
    start: np.ndarray, k: int, dx: float, dy: float, dz: float, length: float
) -> tuple[float, float, float, float, float]:
    """What link k's correction moves along, as (vx, vy, vz, top, size): the unit direction it
    moves along is (vx, vy, vz)·top/length, and (vx, vy, vz) is `size` long. (dx, dy, dz) =
    x_j − x_i is the link now, of `length`; of its unit direction only the part along the link
    as the step began (start[k], start_directions) is kept. Left over `length` so that the
    caller divides once per link, as the seed's kernel did.

    Along the link now, a correction on a link that turns within the step adds a torque
    (x_prev_i − x_prev_j) × Δx_i. On a sheet whose passes fight gravity every step, that
    torque put back exactly what damping took out, and a spinning sheet spun for ever
    (RESEARCH.md §1, "Corrections move along the link as the step began"). Along the link
    as it began, each correction keeps the step's angular momentum Σ x_prev × x, as SHAKE
    does in molecular dynamics. Only the part along it is kept (not the whole correction
    turned onto it), so a turned link is corrected a little less, never more: turning the
    whole correction overshot and a tangled block gained energy. A link turned by more than
    26° (MAX_KEPT_TURN_COS), or flipped, is corrected along itself now."""
    ex, ey, ez = start[k, 0], start[k, 1], start[k, 2]
    dot = dx * ex + dy * ey + dz * ez  # = length·cos(turn)
    if dot > 0.0 and dot * dot >= MAX_KEPT_TURN_COS**2 * (length * length):
        return ex, ey, ez, dot, 1.0  # ê·(u·ê), u = d/length
    return dx, dy, dz, 1.0, length


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH, inline="always")
def _project_link(
    x: np.ndarray,
    inv_mass: np.ndarray,
    start: np.ndarray,
    k: int,
    i: int,
    j: int,
    rest: float,
    stiffness: float,
    moved: np.ndarray,
) -> None:
    """Move both ends of link k by (L − rest)·stiffness, shared by inverse mass, along the
    link as the step began (along_start). moved[k] gathers how far it moved them, times
    their mass (sim.core.forces): its pull on them × Δt²."""
    wi = inv_mass[i]
    wj = inv_mass[j]
    w = wi + wj
    if w == 0.0:
        return
    dx = x[j, 0] - x[i, 0]
    dy = x[j, 1] - x[i, 1]
    dz = x[j, 2] - x[i, 2]
    length = math.sqrt(dx * dx + dy * dy + dz * dz)
    if length == 0.0:
        return
    vx, vy, vz, top, size = along_start(start, k, dx, dy, dz, length)
    s = (length - rest) * stiffness * top / (length * w)
    moved[k] += s * size
    move_link_ends(x, i, j, vx, vy, vz, s * wi, s * wj)


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH, inline="always")
def move_link_ends(
    x: np.ndarray, i: int, j: int, dx: float, dy: float, dz: float, si: float, sj: float
) -> None:
    """i moves by si and j by −sj along the link direction (dx, dy, dz) = x_j − x_i: the
    last step of every distance-like constraint."""
    x[i, 0] += dx * si
    x[i, 1] += dy * si
    x[i, 2] += dz * si
    x[j, 0] -= dx * sj
    x[j, 1] -= dy * sj
    x[j, 2] -= dz * sj


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH)
def predict(
    x: np.ndarray,  # (N, 3) float64, updated in place
    x_prev: np.ndarray,  # (N, 3) float64, updated in place
    inv_mass: np.ndarray,  # (N,) float64, 0 for pinned or grabbed particles
    damping: float,
    gravity: float,
    wind: float,
    t: float,
    dt: float,
) -> int:
    """Verlet: x_new = x + (x − x_prev)·damping + a·Δt², with gusting wind along +z.
    Returns the health of the state it found (HEALTHY or the first problem)."""
    dt2 = dt * dt
    max_step = MAX_SPEED * dt
    health = HEALTHY
    for i in range(x.shape[0]):
        if inv_mass[i] == 0.0:
            continue
        px, py, pz = x[i, 0], x[i, 1], x[i, 2]
        if health == HEALTHY:
            health = particle_health(
                px, py, pz, px - x_prev[i, 0], py - x_prev[i, 1], pz - x_prev[i, 2], max_step
            )
        _predict_particle(x, x_prev, i, damping, gravity, wind * gust(t, px), dt2)
    return health


@njit(cache=True, nogil=True, **NO_REFCOUNTS)
def place_pins(
    x: np.ndarray,  # (N, 3) float64
    pin_index: np.ndarray,  # (P,) int32
    pin_anchor: np.ndarray,  # (P, 3) float64
) -> None:
    for p in range(pin_index.shape[0]):
        i = pin_index[p]
        x[i, 0] = pin_anchor[p, 0]
        x[i, 1] = pin_anchor[p, 1]
        x[i, 2] = pin_anchor[p, 2]


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH)
def project_links(
    x: np.ndarray,  # (N, 3) float64, updated in place
    inv_mass: np.ndarray,  # (N,) float64
    runs: np.ndarray,  # (R, 5) uint64, the live links as runs (ordering.link_runs)
    rest: np.ndarray,  # (L,) float64
    stiffness: np.ndarray,  # (L,) float64, of each link's body
    start: np.ndarray,  # (L, 3) float64, start_directions of this step
    moved: np.ndarray,  # (L,) float64, accumulates what each link moved (_project_link)
) -> None:
    """One Gauss–Seidel pass: each link moves its ends along itself by (L − rest)·stiffness,
    shared by inverse mass."""
    for r in range(runs.shape[0]):
        _project_run(x, inv_mass, runs, r, rest, stiffness, start, moved)


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH)
def _project_run(
    x: np.ndarray,
    inv_mass: np.ndarray,
    runs: np.ndarray,
    r: int,
    rest: np.ndarray,
    stiffness: np.ndarray,
    start: np.ndarray,
    moved: np.ndarray,
) -> None:
    """The links of run r in order (a function of its own, not inlined: called from a thread
    pool's loop it keeps its own loop free of reference counting)."""
    first, i, step, gap = runs[r, 0], runs[r, 2], runs[r, 3], runs[r, 4]
    for k in range(first, first + runs[r, 1]):
        _project_link(x, inv_mass, start, k, i, i + gap, rest[k], stiffness[k], moved)
        i += step


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH)
def collide(
    particles: Particles,  # x updated in place, x_prev read for friction
    contacts: Contacts,  # contacts.pushed accumulates
    static: float,  # friction coefficients; 0 and 0: none (the classic model)
    kinetic: float,
) -> None:
    """Push free particles out of every sphere and box onto its surface, and up onto the
    floor; with friction, then slow their slide along each surface they were pushed from.
    A particle's contacts never read another's, so one sweep over the particles per obstacle
    gives what one sweep with every obstacle per particle would: and each sweep is a loop
    without an inner loop, as fast as the classic ball-and-floor one. `contacts.pushed` gathers
    how far each obstacle pushed, weighted by mass: its normal force × Δt² (sim.core.forces)."""
    x, x_prev, inv_mass = particles
    spheres, boxes, floor_on, floor_y, pushed = contacts
    n = x.shape[0]
    spheres_count, boxes_count = spheres.shape[0], boxes.shape[0]
    for k in range(spheres_count):
        total = 0.0
        for i in range(n):
            total += _collide_sphere(x, x_prev, inv_mass, i, spheres[k], static, kinetic)
        pushed[k] += total
    for k in range(boxes_count):
        total = 0.0
        for i in range(n):
            total += _collide_box(x, x_prev, inv_mass, i, boxes[k], static, kinetic)
        pushed[spheres_count + k] += total
    if floor_on:
        total = 0.0
        for i in range(n):
            total += _collide_floor(x, x_prev, inv_mass, i, floor_y, static, kinetic)
        pushed[spheres_count + boxes_count] += total


@njit(cache=True, nogil=True, fastmath=FASTMATH, parallel=True)
def collide_parallel(
    particles: Particles, contacts: Contacts, static: float, kinetic: float
) -> None:
    """collide on the thread pool: each particle is its own (the sums are reductions)."""
    x, x_prev, inv_mass = particles
    spheres, boxes, floor_on, floor_y, pushed = contacts
    n = x.shape[0]
    spheres_count, boxes_count = spheres.shape[0], boxes.shape[0]
    for k in range(spheres_count):
        total = 0.0
        for i in prange(n):
            total += _collide_sphere(x, x_prev, inv_mass, i, spheres[k], static, kinetic)
        pushed[k] += total
    for k in range(boxes_count):
        total = 0.0
        for i in prange(n):
            total += _collide_box(x, x_prev, inv_mass, i, boxes[k], static, kinetic)
        pushed[spheres_count + k] += total
    if floor_on:
        total = 0.0
        for i in prange(n):
            total += _collide_floor(x, x_prev, inv_mass, i, floor_y, static, kinetic)
        pushed[spheres_count + boxes_count] += total


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH, inline="always")
def _collide_sphere(
    x: np.ndarray, x_prev: np.ndarray, inv_mass: np.ndarray, i: int, sphere: np.ndarray,
    static: float, kinetic: float,
) -> float:  # fmt: skip
    """Returns mass × how far it pushed particle i out (0 if not in contact)."""
    if inv_mass[i] == 0.0:
        return 0.0
    dx = x[i, 0] - sphere[0]
    dy = x[i, 1] - sphere[1]
    dz = x[i, 2] - sphere[2]
    radius = sphere[3]
    d2 = dx * dx + dy * dy + dz * dz
    if d2 < radius * radius and d2 > 0.0:
        distance = math.sqrt(d2)
        scale = radius / distance
        x[i, 0] = sphere[0] + dx * scale
        x[i, 1] = sphere[1] + dy * scale
        x[i, 2] = sphere[2] + dz * scale
        if static > 0.0 or kinetic > 0.0:
            _friction(x, x_prev, i, dx / distance, dy / distance, dz / distance,
                      radius - distance, static, kinetic)  # fmt: skip
        return (radius - distance) / inv_mass[i]
    return 0.0


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH, inline="always")
def _collide_box(
    x: np.ndarray, x_prev: np.ndarray, inv_mass: np.ndarray, i: int, box: np.ndarray,
    static: float, kinetic: float,
) -> float:  # fmt: skip
    """Inside: out through the nearest face, the one the particle is least deep behind.
    Returns mass × depth, as _collide_sphere."""
    if inv_mass[i] == 0.0:
        return 0.0
    depth_x = box[3] - abs(x[i, 0] - box[0])
    depth_y = box[4] - abs(x[i, 1] - box[1])
    depth_z = box[5] - abs(x[i, 2] - box[2])
    if not (depth_x > 0.0 and depth_y > 0.0 and depth_z > 0.0):
        return 0.0
    axis, depth = 0, depth_x
    if depth_y < depth:
        axis, depth = 1, depth_y
    if depth_z < depth:
        axis, depth = 2, depth_z
    side = 1.0 if x[i, axis] >= box[axis] else -1.0
    x[i, axis] = box[axis] + side * box[3 + axis]
    if static > 0.0 or kinetic > 0.0:
        nx = side if axis == 0 else 0.0
        ny = side if axis == 1 else 0.0
        nz = side if axis == 2 else 0.0
        _friction(x, x_prev, i, nx, ny, nz, depth, static, kinetic)
    return depth / inv_mass[i]


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH, inline="always")
def _collide_floor(
    x: np.ndarray, x_prev: np.ndarray, inv_mass: np.ndarray, i: int, floor_y: float,
    static: float, kinetic: float,
) -> float:  # fmt: skip
    """Returns mass × depth, as _collide_sphere."""
    if inv_mass[i] == 0.0 or not x[i, 1] < floor_y:
        return 0.0
    depth = floor_y - x[i, 1]
    x[i, 1] = floor_y
    if static > 0.0 or kinetic > 0.0:
        _friction(x, x_prev, i, 0.0, 1.0, 0.0, depth, static, kinetic)
    return depth / inv_mass[i]


@njit(cache=True, nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH, inline="always")
def _friction(
    x: np.ndarray, x_prev: np.ndarray, i: int, nx: float, ny: float, nz: float, depth: float,
    static: float, kinetic: float,
) -> None:  # fmt: skip
    """Coulomb friction on a contact of normal n just pushed out by `depth`: the tangential
    motion of this step is cancelled if below static·depth, else shortened by kinetic·depth
    (Müller et al., position-based friction)."""
    mx = x[i, 0] - x_prev[i, 0]
    my = x[i, 1] - x_prev[i, 1]
    mz = x[i, 2] - x_prev[i, 2]
    normal = mx * nx + my * ny + mz * nz
    tx = mx - normal * nx
    ty = my - normal * ny
    tz = mz - normal * nz
    slide = math.sqrt(tx * tx + ty * ty + tz * tz)
    if slide == 0.0:
        return
    keep = 0.0 if slide < static * depth else max(0.0, 1.0 - kinetic * depth / slide)
    x[i, 0] -= tx * (1.0 - keep)
    x[i, 1] -= ty * (1.0 - keep)
    x[i, 2] -= tz * (1.0 - keep)


@njit(cache=True, nogil=True, **NO_REFCOUNTS)
def step_classic(
    particles: Particles,
    held: Held,  # pins and the grabbed particle
    links: Links,  # links.start is scratch; links.moved, out: what each moved (forces)
    world: World,
    contacts: Contacts,  # contacts.pushed, out: what each obstacle pushed (forces)
    stop: np.ndarray,  # (1,) uint8, set by another thread to abandon the step
) -> int:
    """One Δt of the seed's model: predict, then `passes` × (links, then obstacles and floor).
    Returns the health the predict found; the caller restores a good state if it is bad.
    With `stop` set it returns INTERRUPTED before the next pass, the step half done: the
    caller puts back the state it kept from before the step."""
    x, x_prev, inv_mass = particles
    pin_index, pin_anchor = held
    runs, rest, stiffness, start, moved = (
        links.runs,
        links.rest,
        links.stiffness,
        links.start,
        links.moved,
    )
    for p in range(pin_index.shape[0]):  # a dragged pin's motion shows up as its velocity
        i = pin_index[p]
        for k in range(3):
            x_prev[i, k] = x[i, k]
    health = predict(
        x, x_prev, inv_mass, world.damping, world.gravity, world.wind, world.t, world.dt
    )
    if health != HEALTHY:
        return health
    place_pins(x, pin_index, pin_anchor)
    start_directions(x_prev, links.a, links.b, start)
    moved[:] = 0.0
    contacts.pushed[:] = 0.0
    for _ in range(world.passes):
        if stop[0]:
            return INTERRUPTED
        project_links(x, inv_mass, runs, rest, stiffness, start, moved)
        collide(particles, contacts, 0.0, 0.0)
    return HEALTHY


@njit(cache=True, nogil=True, **NO_REFCOUNTS)
def speeds(
    x: np.ndarray,  # (N, 3) float64
    x_prev: np.ndarray,  # (N, 3) float64
    dt: float,
) -> tuple[float, float]:
    """(mean, largest) of |x − x_prev| / dt over the particles, in one pass; (0, 0) for none.
    The mean adds the gaps in particle order, as it always has: its figures stay bit for bit."""
    n = x.shape[0]
    if n == 0:
        return 0.0, 0.0
    total = 0.0
    fastest = 0.0
    for i in range(n):
        dx = x[i, 0] - x_prev[i, 0]
        dy = x[i, 1] - x_prev[i, 1]
        dz = x[i, 2] - x_prev[i, 2]
        gap = math.sqrt(dx * dx + dy * dy + dz * dz)
        total += gap
        if gap > fastest or gap != gap:  # a NaN stays, as it does in the mean
            fastest = gap
    return total / (n * dt), fastest / dt


@njit(cache=True, nogil=True, **NO_REFCOUNTS)
def link_strains(
    x: np.ndarray,  # (N, 3) float64
    links: np.ndarray,  # (M, 2) int32
    rest: np.ndarray,  # (M,) float64
    out: np.ndarray,  # (M,) float64, written
) -> None:
    for k in range(links.shape[0]):
        i = links[k, 0]
        j = links[k, 1]
        dx = x[j, 0] - x[i, 0]
        dy = x[j, 1] - x[i, 1]
        dz = x[j, 2] - x[i, 2]
        out[k] = (math.sqrt(dx * dx + dy * dy + dz * dz) - rest[k]) / rest[k]


_RING = np.array([1, 3, 2, 6, 4, 5], dtype=np.int64)


@njit(cache=True, nogil=True, **NO_REFCOUNTS)
def cells_volume(
    x: np.ndarray,  # (N, 3) float64
    cells: np.ndarray,  # (C, 8) int32, corner k at bits (x, y, z) of k
) -> float:
    """Sum of six tetrahedra per hexahedral cell, all sharing the diagonal from corner 0 to 7."""
    total = 0.0
    for c in range(cells.shape[0]):
        p0 = cells[c, 0]
        p7 = cells[c, 7]
        for t in range(6):
            # the ring of corners around the 0–7 diagonal: 1, 3, 2, 6, 4, 5 (right-handed)
            a = cells[c, _RING[t]]
            b = cells[c, _RING[(t + 1) % 6]]
            total += _tet_volume(x, p0, a, b, p7)
    return total


@njit(cache=True, nogil=True, **NO_REFCOUNTS, inline="always")
def _tet_volume(x: np.ndarray, p: int, a: int, b: int, q: int) -> float:
    ax = x[a, 0] - x[p, 0]
    ay = x[a, 1] - x[p, 1]
    az = x[a, 2] - x[p, 2]
    bx = x[b, 0] - x[p, 0]
    by = x[b, 1] - x[p, 1]
    bz = x[b, 2] - x[p, 2]
    cx = x[q, 0] - x[p, 0]
    cy = x[q, 1] - x[p, 1]
    cz = x[q, 2] - x[p, 2]
    return (ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx)) / 6.0


@njit(cache=True, nogil=True, fastmath=FASTMATH, parallel=True)
def step_parallel(
    particles: Particles,
    held: Held,
    links: Links,  # in colour order; as in step_classic
    world: World,
    contacts: Contacts,
    stop: np.ndarray,  # (1,) uint8, set by another thread to abandon the step
) -> int:
    """step_classic on the thread pool: within a colour no two links share a particle, so
    the threads split its runs without locks; colours follow each other as in Gauss–Seidel."""
    x, x_prev, inv_mass = particles
    pin_index, pin_anchor = held
    link_a, link_b, runs, run_start = links.a, links.b, links.runs, links.run_start
    rest, stiffness, start, moved = links.rest, links.stiffness, links.start, links.moved
    damping, gravity, wind, t, dt = world.damping, world.gravity, world.wind, world.t, world.dt
    n = x.shape[0]
    dt2 = dt * dt
    max_step = MAX_SPEED * dt
    for p in range(pin_index.shape[0]):
        i = pin_index[p]
        for k in range(3):
            x_prev[i, k] = x[i, k]
    health = np.zeros(n, dtype=np.int8)  # per particle: threads must not share a flag
    for i in prange(n):
        if inv_mass[i] == 0.0:
            continue
        px, py, pz = x[i, 0], x[i, 1], x[i, 2]
        health[i] = particle_health(
            px, py, pz, px - x_prev[i, 0], py - x_prev[i, 1], pz - x_prev[i, 2], max_step
        )
        _predict_particle(x, x_prev, i, damping, gravity, wind * gust(t, px), dt2)
    worst = health.max()
    if worst != HEALTHY:
        return worst
    place_pins(x, pin_index, pin_anchor)
    for k in prange(link_a.shape[0]):
        _start_direction(x_prev, link_a, link_b, start, k)
        moved[k] = 0.0
    contacts.pushed[:] = 0.0
    for _ in range(world.passes):
        if stop[0]:
            return INTERRUPTED
        for c in range(run_start.shape[0] - 1):
            for r in prange(run_start[c], run_start[c + 1]):
                _project_run(x, inv_mass, runs, r, rest, stiffness, start, moved)
        collide_parallel(particles, contacts, 0.0, 0.0)
    return HEALTHY


@njit(cache=True, nogil=True, **NO_REFCOUNTS)
def potential_energy(
    x: np.ndarray,  # (N, 3) float64
    x_prev: np.ndarray,  # (N, 3) float64
    gravity: float,
) -> float:
    """Σ m·g·y, mass 1 each, reference y = 0, with y at the midpoint (y + y_prev)/2 of the last
    (sub)step: where the velocity (x − x_prev)/h lives, so that KE + PE is what Verlet keeps."""
    total = 0.0
    for i in range(x.shape[0]):
        total += x[i, 1] + x_prev[i, 1]
    return 0.5 * gravity * total


@njit(cache=True, nogil=True, **NO_REFCOUNTS)
def predict_energy(
    particles: Particles,  # the state a step starts from, read only
    mass: np.ndarray,  # (N,) float64, 1 each in model units (× 1.0 is exact: the same sums)
    world: World,  # of the predict: its damping, gravity, wind, t and length (world.dt = h)
) -> tuple[float, float, float]:
    """(KE + PE now, energy the next predict's damping takes out, work its wind does), from
    the state before the predict, read only. With u0 = x − x_prev the predict makes
    u1 = d·u0 + a·h²; the particle moves (u0 + u1)/2 at the midpoints where PE is measured, so
    ΔKE + ΔPE = wind work − damping loss exactly, with damping loss = ½(1 − d)·u0·(u0 + u1)/h²
    (the impulse −(1 − d)·u0/h times the mean velocity) and wind work = a_z·(u0_z + u1_z)/2."""
    x, x_prev, inv_mass = particles
    damping, gravity, wind, t, h = world.damping, world.gravity, world.wind, world.t, world.dt
    h2 = h * h
    kinetic = 0.0
    height = 0.0
    damped = 0.0
    blown = 0.0
    for i in range(x.shape[0]):
        ux = x[i, 0] - x_prev[i, 0]
        uy = x[i, 1] - x_prev[i, 1]
        uz = x[i, 2] - x_prev[i, 2]
        m = mass[i]
        kinetic += m * (ux * ux + uy * uy + uz * uz)
        height += m * (x[i, 1] + x_prev[i, 1])
        if inv_mass[i] == 0.0:  # pins are not predicted (the kernels reset their x_prev)
            continue
        blowing = wind * gust(t, x[i, 0])
        wx = ux * (1.0 + damping)
        wy = uy * (1.0 + damping) - gravity * h2
        wz = uz * (1.0 + damping) + blowing * h2
        damped += m * (ux * wx + uy * wy + uz * wz)
        blown += m * blowing * wz
    energy = 0.5 * kinetic / h2 + 0.5 * gravity * height
    return energy, 0.5 * (1.0 - damping) * damped / h2, 0.5 * blown
