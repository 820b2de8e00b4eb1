"""What is under the pointer: rays against the cloth's live triangles, the nearest free
particle, pins and the ball on screen, and the camera-facing drag plane. Pure numpy, no Qt."""

from __future__ import annotations

import numpy as np

from clothlab.sim.snapshot import Snapshot


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
    allowed = free_mask(snapshot) if free_only else np.ones(len(snapshot.x), dtype=bool)
    if not allowed.any():
        return None
    hit = ray_triangles(origin, direction, snapshot.x, live_triangles(snapshot))
    if hit is not None:
        point = origin + hit[0] * direction
        distance = np.linalg.norm(snapshot.x - point, axis=1)
        distance[~allowed] = np.inf
        return int(np.argmin(distance))
    return nearest_on_screen(screen, pointer, radius_px, allowed)


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
