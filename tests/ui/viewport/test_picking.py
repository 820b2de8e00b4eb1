"""GL-free picking: rays against the cloth, nearest particles, obstacles, bodies, the drag
plane."""

from __future__ import annotations

import numpy as np

from clothlab.sim.core.snapshot import take_snapshot
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.scene import (
    BlockSpec,
    BoxSpec,
    Scene,
    SheetSpec,
    SphereSpec,
    build_simulation,
    with_setting,
)
from clothlab.ui.selection import BALL
from clothlab.ui.viewport import picking


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


# --- obstacles and bodies ----------------------------------------------------------------------

DOWN_Z = np.array([0.0, 0.0, -1.0])  # looking along −z, as the default camera does


def obstacle_snapshot(*obstacles, ball: bool = False):
    scene = Scene(obstacles=list(obstacles))
    scene = with_setting(scene, "ball", ball)
    return take_snapshot(build_simulation(scene), frame=1), tuple(o.kind for o in obstacles)


def test_a_ray_through_a_box_centre_picks_that_box_by_its_scene_index():
    box = BoxSpec(center=(0.0, -1.1, 0.8), size=(1.0, 0.6, 1.0))
    snapshot, kinds = obstacle_snapshot(SphereSpec(center=(3.0, 0.0, 0.0), radius=0.2), box)
    origin = np.array([0.0, -1.1, 6.0])
    hit = picking.pick_obstacle(snapshot, origin, DOWN_Z, kinds)
    assert hit is not None and hit[0] == 1  # the box is the scene's second obstacle
    assert abs(hit[1] - (6.0 - 1.3)) < 1e-9  # its front face, at z = 0.8 + 0.5
    # through empty space: nothing
    assert picking.pick_obstacle(snapshot, np.array([0.0, 2.5, 6.0]), DOWN_Z, kinds) is None


def test_the_nearest_of_ball_and_box_wins():
    box = BoxSpec(center=(0.0, -0.6, -1.0), size=(1.0, 1.0, 1.0))  # behind the ball
    snapshot, kinds = obstacle_snapshot(box, ball=True)  # the ball: (0, −0.6, 0), radius 0.5
    origin = np.array([0.0, -0.6, 6.0])
    hit = picking.pick_obstacle(snapshot, origin, DOWN_Z, kinds)
    assert hit is not None and hit[0] == picking.BALL == BALL and abs(hit[1] - 5.5) < 1e-9
    # from behind, the box is nearer
    hit = picking.pick_obstacle(snapshot, np.array([0.0, -0.6, -6.0]), -DOWN_Z, kinds)
    assert hit is not None and hit[0] == 0 and abs(hit[1] - 4.5) < 1e-9


def test_obstacle_indices_follow_the_scene_order_of_kinds():
    assert picking.obstacle_indices(("box", "sphere", "box"), 1, 2) == ([1], [0, 2])
    # unknown or out of step with the snapshot: spheres first
    assert picking.obstacle_indices(None, 1, 2) == ([0], [1, 2])
    assert picking.obstacle_indices(("box",), 1, 2) == ([0], [1, 2])


def test_ray_box_handles_parallel_rays_and_an_origin_inside():
    centre, size = np.zeros(3), np.array([2.0, 2.0, 2.0])
    # parallel to the x and y slabs, inside them: limited by z only
    assert picking.ray_box(np.array([0.5, 0.5, 5.0]), DOWN_Z, centre, size) == 4.0
    # parallel and outside the x slab: a miss
    assert picking.ray_box(np.array([1.5, 0.0, 5.0]), DOWN_Z, centre, size) is None
    # from inside, the exit
    assert picking.ray_box(np.zeros(3), DOWN_Z, centre, size) == 1.0
    # behind the origin
    assert picking.ray_box(np.array([0.0, 0.0, -5.0]), DOWN_Z, centre, size) is None


def test_a_ray_at_the_second_body_picks_that_body():
    scene = Scene(
        bodies=[SheetSpec(top_center=(-2.0, 1.0, 0.0)), BlockSpec(min_corner=(1.0, -0.5, 0.0))]
    )
    snapshot = take_snapshot(build_simulation(scene), frame=1)
    screen = np.full((len(snapshot.x), 2), np.nan)
    block = snapshot.topology.bodies[1]
    centre = snapshot.x[block.first_particle : block.first_particle + block.particle_count]
    target = centre.mean(axis=0)
    hit = picking.pick_body(snapshot, target + np.array([0, 0, 5.0]), DOWN_Z, screen, (0, 0), 10)
    assert hit is not None and hit[0] == 1
    sheet_point = snapshot.x[5 * 15 + 7]
    hit = picking.pick_body(
        snapshot, sheet_point + np.array([0, 0, 5.0]), DOWN_Z, screen, (0, 0), 10
    )
    assert hit is not None and hit[0] == 0 and abs(hit[1] - 5.0) < 1e-9
    assert picking.pick_body(snapshot, np.array([0, 5.0, 5.0]), DOWN_Z, screen, (0, 0), 10) is None
