"""The drape meter's measurements (Cusick, BS 5058 / ISO 9073-9) on a disc body.

A circular specimen is held flat on a support disc and drapes under its own weight; a light
above casts its shadow on the plane below. The drape coefficient is the shadow's share of the
specimen's overhang: (shadow area − support area) / (specimen area − support area) × 100, so a
specimen that stays flat reads 100 % and one that hangs straight down 0 %. The shadow is the
union of the cloth's triangles projected onto the horizontal (x–z) plane, folds and overlaps
counted once, found by rasterizing them into a grid of square pixels (a pixel is covered when
its centre is inside a triangle).

The folds ("nodes") are counted on the shadow's outline: its farthest covered pixel from the
centre in each of FOLD_BINS directions, smoothed over FOLD_SMOOTHING_DEG, and a fold is a rise
that stands out by FOLD_PROMINENCE of the radius from the dips on both sides.

sim.lab.textile's `cusick_drape_scene` builds the meter's set-up.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

import numpy as np
from numba import njit

from clothlab.sim.core.kernels import NO_REFCOUNTS
from clothlab.sim.core.topology import DiscGrid, Topology

if TYPE_CHECKING:
    from clothlab.sim.core.solver import Simulation

PIXELS_ACROSS: Final = 400  # the default pixel: this fraction of the specimen's diameter
MAX_PIXELS: Final = 50_000_000  # a raster past this (a blown-up run's extent) is refused
FOLD_BINS: Final = 360
FOLD_SMOOTHING_DEG: Final = 15.0
FOLD_PROMINENCE: Final = 0.02  # of the specimen's radius


@dataclass(frozen=True, eq=False)
class Shadow:
    """A shadow on the x–z plane as a raster: pixel (row, col) covers x from x0 + col·pixel and
    z from z0 + row·pixel, one pixel on."""

    covered: np.ndarray  # (rows, cols) bool
    origin: tuple[float, float]  # (x0, z0)
    pixel: float  # m

    @property
    def area(self) -> float:
        """m² covered."""
        return float(np.count_nonzero(self.covered)) * self.pixel * self.pixel

    def pixel_centres(self) -> np.ndarray:
        """(K, 2) float64 (x, z) of the covered pixels' centres."""
        rows, cols = np.nonzero(self.covered)
        x = self.origin[0] + (cols + 0.5) * self.pixel
        z = self.origin[1] + (rows + 0.5) * self.pixel
        return np.stack([x, z], axis=1)


def shadow(x: np.ndarray, triangles: np.ndarray, pixel: float | None = None) -> Shadow:
    """The shadow of `triangles` (T, 3) int32 of positions `x` (N, 3) float64 on the x–z plane,
    in pixels of `pixel` m (None: 1/PIXELS_ACROSS of the larger side of the shadow's bounding
    box). ValueError (one line) for a pixel that is not positive or a raster too large."""
    x = np.ascontiguousarray(x, dtype=np.float64)
    triangles = np.ascontiguousarray(triangles, dtype=np.int32).reshape(-1, 3)
    if not len(triangles):
        return Shadow(np.zeros((0, 0), dtype=bool), (0.0, 0.0), pixel or 1.0)
    corners = x[np.unique(triangles)][:, [0, 2]]
    if not np.all(np.isfinite(corners)):
        raise ValueError("shadow: a position is not finite (the run blew up)")
    low, high = corners.min(axis=0), corners.max(axis=0)
    if pixel is None:
        pixel = max(float(np.max(high - low)) / PIXELS_ACROSS, 1e-12)
    if not (math.isfinite(pixel) and pixel > 0.0):
        raise ValueError(f"shadow: pixel {pixel:g} m: expected a size above 0")
    cols, rows = (int(n) + 1 for n in np.ceil((high - low) / pixel))
    if rows * cols > MAX_PIXELS:
        raise ValueError(
            f"shadow: {rows} × {cols} pixels of {pixel:g} m is more than {MAX_PIXELS} pixels"
        )
    covered = np.zeros((rows, cols), dtype=np.bool_)
    _rasterize(x, triangles, float(low[0]), float(low[1]), pixel, covered)
    return Shadow(covered, (float(low[0]), float(low[1])), pixel)


def shadow_area(x: np.ndarray, triangles: np.ndarray, pixel: float | None = None) -> float:
    """m²: the area of the union of the triangles' projections on the x–z plane (see shadow)."""
    return shadow(x, triangles, pixel).area


@njit(cache=True, nogil=True, **NO_REFCOUNTS)
def _rasterize(
    x: np.ndarray,  # (N, 3) float64
    triangles: np.ndarray,  # (T, 3) int32
    x0: float,
    z0: float,
    pixel: float,
    covered: np.ndarray,  # (rows, cols) bool, set where a pixel's centre is in a triangle
) -> None:
    rows, cols = covered.shape
    for t in range(len(triangles)):
        a, b, c = triangles[t, 0], triangles[t, 1], triangles[t, 2]
        ax, az = (x[a, 0] - x0) / pixel, (x[a, 2] - z0) / pixel  # in pixels from the origin
        bx, bz = (x[b, 0] - x0) / pixel, (x[b, 2] - z0) / pixel
        cx, cz = (x[c, 0] - x0) / pixel, (x[c, 2] - z0) / pixel
        doubled = (bx - ax) * (cz - az) - (bz - az) * (cx - ax)
        if doubled == 0.0:
            continue  # seen edge-on, a triangle casts no area
        sign = 1.0 if doubled > 0.0 else -1.0  # either winding: a fold shows its back
        col_low = max(math.floor(min(ax, bx, cx) - 0.5), 0)
        col_high = min(math.ceil(max(ax, bx, cx) - 0.5), cols - 1)
        row_low = max(math.floor(min(az, bz, cz) - 0.5), 0)
        row_high = min(math.ceil(max(az, bz, cz) - 0.5), rows - 1)
        for row in range(row_low, row_high + 1):
            pz = row + 0.5
            for col in range(col_low, col_high + 1):
                if covered[row, col]:
                    continue
                px = col + 0.5
                # inside (edges included) when the centre is on the inner side of all three
                e0 = sign * ((bx - ax) * (pz - az) - (bz - az) * (px - ax))
                e1 = sign * ((cx - bx) * (pz - bz) - (cz - bz) * (px - bx))
                e2 = sign * ((ax - cx) * (pz - cz) - (az - cz) * (px - cx))
                if e0 >= 0.0 and e1 >= 0.0 and e2 >= 0.0:
                    covered[row, col] = True


# --- the disc's measurements -------------------------------------------------------------------


def disc_of(topology: Topology, body: int) -> DiscGrid:
    """The disc that is body `body` (scene order); ValueError (one line) if it is not one."""
    if not 0 <= body < len(topology.bodies):
        raise ValueError(f"body {body} is not within 0…{len(topology.bodies) - 1}")
    first = topology.bodies[body].first_particle
    for disc in topology.discs:
        if disc.first_particle == first:
            return disc
    raise ValueError(f"body {body} is not a disc")


def disc_triangles(topology: Topology, disc: DiscGrid, face_alive: np.ndarray) -> np.ndarray:
    """(T, 3) int32: two triangles per live face of the disc, split as the 3D view splits them."""
    faces = topology.faces
    own = (faces[:, 0] >= disc.first_particle) & (
        faces[:, 0] < disc.first_particle + disc.particle_count
    )
    quads = faces[own & np.asarray(face_alive, dtype=bool)]
    return np.concatenate([quads[:, [0, 1, 2]], quads[:, [0, 2, 3]]]).astype(np.int32)


def specimen_area(topology: Topology, disc: DiscGrid) -> float:
    """m²: the disc mesh's area at rest (every face), a little under π R² (its rim is chords)."""
    triangles = disc_triangles(topology, disc, np.ones(topology.face_count, dtype=bool))
    p = topology.rest_positions
    a, b, c = p[triangles[:, 0]], p[triangles[:, 1]], p[triangles[:, 2]]
    return float(0.5 * np.linalg.norm(np.cross(b - a, c - a), axis=1).sum())


def disc_shadow(sim: Simulation, body: int, pixel: float | None = None) -> Shadow:
    """The shadow the disc `body` casts now, in pixels of 1/PIXELS_ACROSS of its diameter."""
    disc = disc_of(sim.topology, body)
    pixel = 2.0 * disc.radius / PIXELS_ACROSS if pixel is None else pixel
    triangles = disc_triangles(sim.topology, disc, sim.state.face_alive)
    return shadow(sim.state.x, triangles, pixel)


def drape_coefficient(sim: Simulation, disc_body: int, support_radius: float) -> float:
    """%: the disc's drape coefficient now (coefficient), its area its rest mesh's."""
    specimen = specimen_area(sim.topology, disc_of(sim.topology, disc_body))
    return coefficient(disc_shadow(sim, disc_body).area, specimen, support_radius)


def coefficient(shadow_area: float, specimen_area: float, support_radius: float) -> float:
    """%: (shadow area − support area) / (specimen area − support area) × 100, the support's
    area π r² (so a flat specimen reads 100 and one hanging straight down 0)."""
    support = math.pi * support_radius**2
    if specimen_area <= support:
        raise ValueError(
            f"support radius {support_radius:g} m: the support covers the whole specimen"
        )
    return (shadow_area - support) / (specimen_area - support) * 100.0


def outline_radius(
    shadow: Shadow, center: tuple[float, float], bins: int = FOLD_BINS
) -> np.ndarray:
    """(bins,) float64: the distance from `center` (x, z) of the farthest covered pixel centre
    in each of `bins` equal sectors, sector k from angle 2πk/bins (atan2(z, x)); a sector with
    no pixel takes the nearest sectors' values between them (0 if the shadow is empty)."""
    points = shadow.pixel_centres() - np.asarray(center, dtype=np.float64)
    radius = np.full(bins, -1.0)
    if len(points):
        angle = np.arctan2(points[:, 1], points[:, 0]) % (2.0 * math.pi)
        sector = np.minimum((angle / (2.0 * math.pi) * bins).astype(np.int64), bins - 1)
        np.maximum.at(radius, sector, np.hypot(points[:, 0], points[:, 1]))
    filled = radius >= 0.0
    if not filled.any():
        return np.zeros(bins)
    where = np.arange(bins)
    return np.interp(where, where[filled], radius[filled], period=bins)


def count_lobes(radius: np.ndarray, prominence: float, smoothing_bins: int) -> int:
    """How many maxima of the circular signal `radius`, smoothed by a moving mean over
    `smoothing_bins`, stand out by more than `prominence` from the minima on both sides."""
    kernel = np.ones(max(smoothing_bins, 1)) / max(smoothing_bins, 1)
    half = len(kernel) // 2
    wrapped = np.concatenate([radius[-half:] if half else radius[:0], radius, radius[:half]])
    smooth = np.convolve(wrapped, kernel, mode="valid")[: len(radius)]
    start = int(np.argmin(smooth))  # a dip: every fold lies wholly between two of them
    low, high, rising, count = smooth[start], smooth[start], False, 0
    for value in np.roll(smooth, -start)[1:]:
        if not rising:
            low = min(low, value)
            if value > low + prominence:
                rising, high = True, value
        else:
            high = max(high, value)
            if value < high - prominence:  # fallen off a fold by enough: it counts
                count += 1
                rising, low = False, value
    if rising and high - smooth[start] > prominence:  # the last fold falls back to the start
        count += 1
    return count


def fold_count(sim: Simulation, disc_body: int) -> int:
    """The number of folds (nodes) of the draped disc: maxima of its shadow's outline radius
    around the disc's centre (FOLD_BINS sectors, smoothed over FOLD_SMOOTHING_DEG) standing
    out by more than FOLD_PROMINENCE of its radius from the dips on both sides."""
    return fold_count_of(sim.topology, disc_body, disc_shadow(sim, disc_body))


def fold_count_of(topology: Topology, disc_body: int, cast: Shadow) -> int:
    """fold_count of the shadow `cast` the disc `disc_body` casts."""
    disc = disc_of(topology, disc_body)
    radius = outline_radius(cast, (disc.center[0], disc.center[2]))
    smoothing = round(FOLD_SMOOTHING_DEG / 360.0 * FOLD_BINS)
    return count_lobes(radius, FOLD_PROMINENCE * disc.radius, smoothing)


def shadow_outline(
    sim: Simulation, disc_body: int, bins: int = FOLD_BINS
) -> tuple[Shadow, np.ndarray]:
    """The disc's shadow (its raster) and its outline as a closed polygon: (bins, 2) float64
    (x, z) of the farthest covered point in each sector round the disc's centre, for a picture
    of the draped specimen from above."""
    disc = disc_of(sim.topology, disc_body)
    cast = disc_shadow(sim, disc_body)
    center = (disc.center[0], disc.center[2])
    radius = outline_radius(cast, center, bins)
    angle = (np.arange(bins) + 0.5) * (2.0 * math.pi / bins)
    points = np.stack([center[0] + radius * np.cos(angle), center[1] + radius * np.sin(angle)], 1)
    return cast, points
