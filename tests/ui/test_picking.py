"""GL-free picking: rays against the cloth, nearest particles, the drag plane."""

from __future__ import annotations

import numpy as np

from clothlab.sim.presets import load_preset
from clothlab.sim.scene import build_simulation
from clothlab.sim.snapshot import take_snapshot
from clothlab.ui import picking


def sheet_snapshot():
    return take_snapshot(build_simulation(load_preset("hanging-sheet")), frame=1)


def test_a_ray_through_a_triangle_hits_it_at_the_right_distance():
    x = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    hit = picking.ray_triangles(
        np.array([0.2, 0.2, 5.0]), np.array([0.0, 0.0, -1.0]), x, np.array([[0, 1, 2]])
    )
    assert hit is not None and abs(hit[0] - 5.0) < 1e-12 and hit[1] == 0
    miss = picking.ray_triangles(
        np.array([0.8, 0.8, 5.0]), np.array([0.0, 0.0, -1.0]), x, np.array([[0, 1, 2]])
    )
    assert miss is None  # outside the triangle (u + v > 1)
    behind = picking.ray_triangles(
        np.array([0.2, 0.2, -5.0]), np.array([0.0, 0.0, -1.0]), x, np.array([[0, 1, 2]])
    )
    assert behind is None


def test_the_ray_picks_the_free_particle_nearest_the_hit_point():
    snapshot = sheet_snapshot()
    # straight at particle (row 5, col 9) from in front of the sheet
    target = snapshot.x[5 * 15 + 9] + np.array([0.03, -0.02, 0.0])
    origin = target + np.array([0.0, 0.0, 4.0])
    direction = np.array([0.0, 0.0, -1.0])
    screen = np.full((len(snapshot.x), 2), np.nan)
    assert picking.pick_particle(snapshot, origin, direction, screen, (0, 0), 10) == 5 * 15 + 9


def test_pinned_particles_are_never_grabbed():
    snapshot = sheet_snapshot()
    origin = snapshot.x[0] + np.array([0.01, -0.01, 4.0])  # at the top-left pin
    particle = picking.pick_particle(
        snapshot, origin, np.array([0.0, 0.0, -1.0]), snapshot.x[:, :2], (0, 0), 10
    )
    assert particle is not None and particle != 0 and particle not in snapshot.pin_index


def test_a_miss_falls_back_to_the_nearest_particle_on_screen_within_the_radius():
    screen = np.array([[10.0, 10.0], [50.0, 50.0], [np.nan, np.nan]])
    assert picking.nearest_on_screen(screen, (12.0, 11.0), 5.0) == 0
    assert picking.nearest_on_screen(screen, (30.0, 30.0), 5.0) is None
    allowed = np.array([False, True, True])
    assert picking.nearest_on_screen(screen, (12.0, 11.0), 100.0, allowed) == 1


def test_the_drag_plane_faces_the_camera_through_the_grabbed_point():
    through = np.array([0.5, -0.3, 0.2])
    normal = np.array([0.0, 0.0, -1.0])  # camera looks along −z
    point = picking.drag_plane_point(
        np.array([0.0, 0.0, 5.0]), np.array([0.1, 0.0, -1.0]), through, normal
    )
    assert point is not None and abs(point[2] - 0.2) < 1e-12
    assert picking.drag_plane_point(np.zeros(3), np.array([1.0, 0, 0]), through, normal) is None
