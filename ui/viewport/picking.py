"""What is under the pointer: rays against the cloth's live triangles, the nearest free
particle, pins on screen, the obstacles (ball, spheres, boxes), the body under the pointer, and
the camera-facing drag plane. Pure numpy, no Qt.

Snapshots list the obstacles split by kind (`spheres`, `boxes`); the scene's obstacle index of
each comes from the scene's order of kinds (`obstacle_indices`), which the caller passes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from clothlab.sim.core.snapshot import Snapshot

BALL = -1  # the ball's obstacle index; the same as ui.selection.BALL, which needs Qt


@dataclass(frozen=True, eq=False)
class Obstacle:
    """One obstacle as a snapshot places it."""

    index: int  # into the scene's obstacles, BALL for the ball
    kind: str  # "sphere" or "box"
    center: np.ndarray  # (3,) float64
    extent: np.ndarray  # (3,) float64: a box's full size; a sphere's radius three times


def ray_triangles(
    origin: np.ndarray,  # (3,) float64
    direction: np.ndarray,  # (3,) float64, unit
    x: np.ndarray,  # (N, 3) float64
    triangles: np.ndarray,  # (T, 3) int
) -> tuple[float, int] | None:
    """(distance, triangle) of the nearest triangle the ray hits in front of its origin
    (Möller–Trumbore, both sides), or None."""
    if len(triangles) == 0:
        return None
    a = x[triangles[:, 0]]
    e1 = x[triangles[:, 1]] - a
    e2 = x[triangles[:, 2]] - a
    p = np.cross(direction, e2)
    determinant = np.einsum("ij,ij->i", e1, p)
    usable = np.abs(determinant) > 1e-12
    inverse = np.divide(1.0, determinant, out=np.zeros_like(determinant), where=usable)
    s = origin - a
    u = np.einsum("ij,ij->i", s, p) * inverse
    q = np.cross(s, e1)
    v = (q @ direction) * inverse
    t = np.einsum("ij,ij->i", e2, q) * inverse
    hit = usable & (u >= 0) & (v >= 0) & (u + v <= 1) & (t > 1e-9)
    if not hit.any():
        return None
    candidates = np.flatnonzero(hit)
    best = candidates[np.argmin(t[candidates])]
    return float(t[best]), int(best)


def live_triangles(snapshot: Snapshot) -> np.ndarray:
    """(T, 3) int32: the two triangles of every live face."""
    faces = snapshot.topology.faces[snapshot.face_alive]
    return np.concatenate([faces[:, [0, 1, 2]], faces[:, [0, 2, 3]]])


def free_mask(snapshot: Snapshot) -> np.ndarray:
    """(N,) bool: particles that are not pinned."""
    free = np.ones(snapshot.topology.particle_count, dtype=bool)
    free[snapshot.pin_index] = False
    return free


def pick_particle(
    snapshot: Snapshot,
    origin: np.ndarray,
    direction: np.ndarray,
    screen: np.ndarray,  # (N, 2) projected particles, NaN off screen
    pointer: tuple[float, float],
    radius_px: float,
    free_only: bool = True,
) -> int | None:
    """The particle under the pointer: where the ray hits the cloth, the nearest (free)
    particle to the hit point; where it misses, the nearest one on screen within radius_px."""
    hit = _particle_hit(snapshot, origin, direction, screen, pointer, radius_px, free_only)
    return None if hit is None else hit[0]


def pick_body(
    snapshot: Snapshot,
    origin: np.ndarray,
    direction: np.ndarray,
    screen: np.ndarray,  # (N, 2) projected particles, NaN off screen
    pointer: tuple[float, float],
    radius_px: float,
) -> tuple[int, float] | None:
    """(body index, distance along the ray) of the body whose particle is under the pointer
    (as `pick_particle` finds it, pinned ones included), or None."""
    hit = _particle_hit(snapshot, origin, direction, screen, pointer, radius_px, False)
    if hit is None:
        return None
    particle, distance = hit
    return snapshot.topology.body_of(particle), distance


def _particle_hit(
    snapshot: Snapshot,
    origin: np.ndarray,
    direction: np.ndarray,
    screen: np.ndarray,
    pointer: tuple[float, float],
    radius_px: float,
    free_only: bool,
) -> tuple[int, float] | None:
    """(particle, distance along the ray to the cloth there, or to the particle itself when
    the ray misses the cloth and the particle was found on screen)."""
    allowed = free_mask(snapshot) if free_only else np.ones(len(snapshot.x), dtype=bool)
    if not allowed.any():
        return None
    hit = ray_triangles(origin, direction, snapshot.x, live_triangles(snapshot))
    if hit is not None:
        point = origin + hit[0] * direction
        distance = np.linalg.norm(snapshot.x - point, axis=1)
        distance[~allowed] = np.inf
        return int(np.argmin(distance)), hit[0]
    particle = nearest_on_screen(screen, pointer, radius_px, allowed)
    if particle is None:
        return None
    return particle, float(np.dot(snapshot.x[particle] - origin, direction))


def nearest_on_screen(
    screen: np.ndarray,  # (N, 2)
    pointer: tuple[float, float],
    radius_px: float,
    allowed: np.ndarray | None = None,  # (N,) bool
) -> int | None:
    """Index of the nearest allowed point within radius_px of the pointer, or None."""
    if len(screen) == 0:
        return None
    distance = np.hypot(screen[:, 0] - pointer[0], screen[:, 1] - pointer[1])
    distance = np.where(np.isnan(distance), np.inf, distance)
    if allowed is not None:
        distance[~allowed] = np.inf
    best = int(np.argmin(distance))
    return best if distance[best] <= radius_px else None


def drag_plane_point(
    origin: np.ndarray,  # (3,) ray origin
    direction: np.ndarray,  # (3,) ray direction
    through: np.ndarray,  # (3,) a point of the plane
    normal: np.ndarray,  # (3,) the plane's normal (the camera's forward axis)
) -> np.ndarray | None:
    """Where the ray meets the plane through `through` facing the camera; None if parallel
    or behind the eye."""
    denominator = float(np.dot(direction, normal))
    if abs(denominator) < 1e-9:
        return None
    t = float(np.dot(through - origin, normal)) / denominator
    if t <= 0.0:
        return None
    return origin + t * direction


# --- obstacles -------------------------------------------------------------------------------


def obstacle_indices(
    kinds: Sequence[str] | None, spheres: int, boxes: int
) -> tuple[list[int], list[int]]:
    """The scene obstacle index of each of a snapshot's spheres and of each of its boxes.

    `kinds` is the scene's obstacle kinds in order ("sphere", "box"). When it is unknown or out
    of step with the snapshot (an edit the solver has not caught up with yet), the spheres are
    taken to come first: right for most scenes, and only for a frame or two otherwise."""
    if kinds is not None:
        sphere_index = [k for k, kind in enumerate(kinds) if kind == "sphere"]
        box_index = [k for k, kind in enumerate(kinds) if kind == "box"]
        if (len(sphere_index), len(box_index)) == (spheres, boxes):
            return sphere_index, box_index
    return list(range(spheres)), list(range(spheres, spheres + boxes))


def obstacles(snapshot: Snapshot, kinds: Sequence[str] | None = None) -> list[Obstacle]:
    """The ball (when on) and every obstacle of the snapshot, at their collision size."""
    found: list[Obstacle] = []
    settings = snapshot.settings
    if settings.ball:
        found.append(_sphere(BALL, settings.ball_center, settings.ball_radius))
    sphere_index, box_index = obstacle_indices(kinds, len(snapshot.spheres), len(snapshot.boxes))
    for index, (center, radius) in zip(sphere_index, snapshot.spheres, strict=True):
        found.append(_sphere(index, center, radius))
    for index, (center, size) in zip(box_index, snapshot.boxes, strict=True):
        found.append(Obstacle(index, "box", np.array(center, float), np.array(size, float)))
    found.sort(key=lambda obstacle: obstacle.index)
    return found


def _sphere(index: int, center: Sequence[float], radius: float) -> Obstacle:
    return Obstacle(index, "sphere", np.array(center, float), np.full(3, float(radius)))


def ray_sphere(
    origin: np.ndarray, direction: np.ndarray, center: np.ndarray, radius: float
) -> float | None:
    """Distance along the (unit) ray to where it enters the sphere, or leaves it when the
    origin is inside; None if it misses or the sphere is behind."""
    to_center = center - origin
    along = float(np.dot(to_center, direction))
    miss_squared = float(np.dot(to_center, to_center)) - along * along
    if miss_squared > radius * radius:
        return None
    half_chord = np.sqrt(radius * radius - miss_squared)
    for t in (along - half_chord, along + half_chord):
        if t > 1e-9:
            return float(t)
    return None


def ray_box(
    origin: np.ndarray, direction: np.ndarray, center: np.ndarray, size: np.ndarray
) -> float | None:
    """Distance along the ray to where it enters the axis-aligned box (slab test), or leaves
    it when the origin is inside; None if it misses or the box is behind."""
    half = 0.5 * np.asarray(size, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        inverse = 1.0 / direction  # ±inf along axes the ray runs parallel to
        t1 = (center - half - origin) * inverse
        t2 = (center + half - origin) * inverse
    # A parallel ray inside a slab gives nan (0 × inf): that slab does not limit it.
    near = np.nanmax(np.where(np.isnan(t1), -np.inf, np.minimum(t1, t2)))
    far = np.nanmin(np.where(np.isnan(t1), np.inf, np.maximum(t1, t2)))
    if near > far or far <= 1e-9:
        return None
    return float(near if near > 1e-9 else far)


def ray_obstacle(origin: np.ndarray, direction: np.ndarray, obstacle: Obstacle) -> float | None:
    if obstacle.kind == "box":
        return ray_box(origin, direction, obstacle.center, obstacle.extent)
    return ray_sphere(origin, direction, obstacle.center, float(obstacle.extent[0]))


def nearest_obstacle(
    candidates: Sequence[Obstacle], origin: np.ndarray, direction: np.ndarray
) -> tuple[Obstacle, float] | None:
    """(obstacle, distance) of the nearest obstacle the ray hits, or None."""
    best: tuple[Obstacle, float] | None = None
    for obstacle in candidates:
        t = ray_obstacle(origin, direction, obstacle)
        if t is not None and (best is None or t < best[1]):
            best = (obstacle, t)
    return best


def pick_obstacle(
    snapshot: Snapshot,
    origin: np.ndarray,
    direction: np.ndarray,
    kinds: Sequence[str] | None = None,
) -> tuple[int, float] | None:
    """(obstacle index, distance along the ray) of the nearest obstacle under the ray: BALL
    for the ball, the scene's obstacle index for a sphere or box (see `obstacle_indices`)."""
    hit = nearest_obstacle(obstacles(snapshot, kinds), origin, direction)
    return None if hit is None else (hit[0].index, hit[1])
