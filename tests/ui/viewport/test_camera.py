"""Orbit camera math: plain numpy, no Qt, no OpenGL."""

from __future__ import annotations

import math

import numpy as np
import pytest

from clothlab.sim.document.scene import CameraSpec
from clothlab.ui.viewport.camera import MIN_ASPECT, MIN_DISTANCE, OrbitCamera

VIEWS = [
    CameraSpec(),
    CameraSpec(target=(0.0, -0.1, 0.0), distance=5.0, yaw=25.0, pitch=12.0),
    CameraSpec(target=(1.0, 2.0, -3.0), distance=0.5, yaw=-170.0, pitch=-80.0),
    CameraSpec(target=(0.3, 0.3, 0.4), distance=40.0, yaw=300.0, pitch=89.0),
]


def distance_to_ray(point: np.ndarray, origin: np.ndarray, direction: np.ndarray) -> float:
    offset = point - origin
    return float(np.linalg.norm(offset - np.dot(offset, direction) * direction))


def test_default_view_looks_along_minus_z_from_plus_z() -> None:
    camera = OrbitCamera(target=(0.0, 0.0, 0.0), distance=5.0, yaw=0.0, pitch=0.0)
    np.testing.assert_allclose(camera.eye(), [0.0, 0.0, 5.0], atol=1e-12)
    right, up, forward = camera.basis()
    np.testing.assert_allclose(right, [1, 0, 0], atol=1e-12)
    np.testing.assert_allclose(up, [0, 1, 0], atol=1e-12)
    np.testing.assert_allclose(forward, [0, 0, -1], atol=1e-12)


def test_positive_yaw_moves_the_eye_towards_plus_x_and_pitch_lifts_it() -> None:
    camera = OrbitCamera(distance=2.0, yaw=90.0, pitch=0.0)
    np.testing.assert_allclose(camera.eye(), [2.0, 0.0, 0.0], atol=1e-12)
    camera = OrbitCamera(distance=2.0, yaw=0.0, pitch=30.0)
    np.testing.assert_allclose(camera.eye(), [0.0, 1.0, math.sqrt(3.0)], atol=1e-12)


@pytest.mark.parametrize("spec", VIEWS)
def test_spec_round_trip(spec: CameraSpec) -> None:
    back = OrbitCamera.from_spec(spec).to_spec()
    assert back.target == pytest.approx(spec.target)
    assert back.distance == pytest.approx(spec.distance)
    assert back.pitch == pytest.approx(spec.pitch)
    # yaw is kept in −180…180; the direction is what matters
    assert math.cos(math.radians(back.yaw)) == pytest.approx(math.cos(math.radians(spec.yaw)))
    assert math.sin(math.radians(back.yaw)) == pytest.approx(math.sin(math.radians(spec.yaw)))


@pytest.mark.parametrize("spec", VIEWS)
def test_view_matrix_puts_eye_at_origin_and_target_straight_ahead(spec: CameraSpec) -> None:
    camera = OrbitCamera.from_spec(spec)
    view = camera.view_matrix()
    np.testing.assert_allclose(view @ [*camera.eye(), 1.0], [0, 0, 0, 1], atol=1e-9)
    np.testing.assert_allclose(view @ [*camera.target, 1.0], [0, 0, -spec.distance, 1], atol=1e-9)
    np.testing.assert_allclose(view[:3, :3] @ view[:3, :3].T, np.eye(3), atol=1e-12)


@pytest.mark.parametrize("spec", VIEWS)
@pytest.mark.parametrize("size", [(320, 240), (1000, 300), (200, 900)])
def test_target_projects_to_viewport_centre(spec: CameraSpec, size: tuple[int, int]) -> None:
    width, height = size
    pixel = OrbitCamera.from_spec(spec).project(np.array([spec.target]), width, height)
    np.testing.assert_allclose(pixel, [[width / 2, height / 2]], atol=1e-6)


def test_projection_orientation_top_left_origin() -> None:
    camera = OrbitCamera(distance=5.0, yaw=0.0, pitch=0.0)
    pixels = camera.project(np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]), 400, 300)
    assert pixels[0, 0] > 200  # +x is to the right
    assert pixels[1, 1] < 150  # +y is up, so towards row 0


def test_vertical_field_of_view_is_forty_degrees() -> None:
    camera = OrbitCamera(distance=5.0, yaw=0.0, pitch=0.0)
    half_height = 5.0 * math.tan(math.radians(20.0))
    pixels = camera.project(np.array([[0.0, half_height, 0.0]]), 640, 480)
    np.testing.assert_allclose(pixels, [[320.0, 0.0]], atol=1e-6)


def test_narrow_view_keeps_the_horizontal_extent() -> None:
    camera = OrbitCamera(distance=5.0, yaw=0.0, pitch=0.0)
    edge = 5.0 * math.tan(math.radians(20.0)) * MIN_ASPECT  # right edge of a MIN_ASPECT view
    for width, height in [(480, 400), (300, 600), (100, 900)]:
        pixel = camera.project(np.array([[edge, 0.0, 0.0]]), width, height)[0]
        assert pixel[0] == pytest.approx(width)


@pytest.mark.parametrize("spec", VIEWS)
@pytest.mark.parametrize("size", [(640, 480), (300, 900)])
def test_ray_through_projected_point_passes_through_it(
    spec: CameraSpec, size: tuple[int, int]
) -> None:
    camera = OrbitCamera.from_spec(spec)
    rng = np.random.default_rng(3)
    points = np.asarray(spec.target) + rng.normal(scale=0.4, size=(20, 3))
    pixels = camera.project(points, *size)
    for point, (px, py) in zip(points, pixels, strict=True):
        if np.isnan(px):
            continue
        origin, direction = camera.ray(px, py, *size)
        assert np.linalg.norm(direction) == pytest.approx(1.0)
        assert np.dot(point - origin, direction) > 0.0
        assert distance_to_ray(point, origin, direction) < 1e-9 * max(1.0, spec.distance)


def test_ray_through_centre_is_the_view_direction() -> None:
    camera = OrbitCamera(target=(1.0, 2.0, 3.0), distance=4.0, yaw=40.0, pitch=-20.0)
    origin, direction = camera.ray(50, 40, 100, 80)
    np.testing.assert_allclose(origin, camera.eye())
    np.testing.assert_allclose(direction, camera.basis()[2], atol=1e-12)


def test_points_behind_the_eye_project_to_nan() -> None:
    camera = OrbitCamera(distance=5.0, yaw=0.0, pitch=0.0)
    pixels = camera.project(np.array([[0.0, 0.0, 6.0], [0.0, 0.0, 5.0], [0.0, 0.0, 0.0]]), 10, 10)
    assert np.isnan(pixels[0]).all()
    assert np.isnan(pixels[1]).all()
    assert np.isfinite(pixels[2]).all()


def test_orbit_clamps_pitch_and_wraps_yaw() -> None:
    camera = OrbitCamera(yaw=170.0, pitch=10.0)
    camera.orbit(0.0, 10_000.0)
    assert camera.pitch == 89.0
    camera.orbit(0.0, -100_000.0)
    assert camera.pitch == -89.0
    camera.orbit(-200.0, 0.0)  # dragging left swings the eye towards +yaw
    assert -180.0 <= camera.yaw < 180.0
    assert camera.yaw == pytest.approx(170.0 + 60.0 - 360.0)
    camera.to_spec()  # within CameraSpec's ranges, so it validates


def test_orbit_keeps_target_and_distance() -> None:
    camera = OrbitCamera(target=(1.0, 0.0, -1.0), distance=3.0)
    camera.orbit(37.0, -12.0)
    np.testing.assert_allclose(camera.target, [1.0, 0.0, -1.0])
    assert np.linalg.norm(camera.eye() - camera.target) == pytest.approx(3.0)


def test_zoom_keeps_distance_positive_and_bounded() -> None:
    camera = OrbitCamera(distance=5.0)
    camera.zoom(1.0)
    assert camera.distance < 5.0
    camera.zoom(10_000.0)
    assert camera.distance == MIN_DISTANCE > 0.0
    camera.zoom(-10_000.0)
    assert math.isfinite(camera.distance)
    camera.to_spec()
    camera.zoom(-3.0)
    camera.zoom(3.0)
    assert camera.distance == pytest.approx(camera.to_spec().distance)


def test_zoom_steps_compose() -> None:
    a = OrbitCamera(distance=5.0)
    b = OrbitCamera(distance=5.0)
    a.zoom(2.0)
    b.zoom(1.0)
    b.zoom(1.0)
    assert a.distance == pytest.approx(b.distance)


def test_pan_moves_the_old_target_with_the_pointer() -> None:
    camera = OrbitCamera(target=(0.0, 0.0, 0.0), distance=5.0, yaw=30.0, pitch=15.0)
    old_target = camera.target.copy()
    camera.pan(40.0, -25.0, 480)
    pixel = camera.project(old_target[None], 640, 480)[0]
    np.testing.assert_allclose(pixel, [320.0 + 40.0, 240.0 - 25.0], atol=1e-6)
    assert camera.distance == 5.0


def test_pan_in_a_narrow_view_follows_the_pointer_too() -> None:
    camera = OrbitCamera(target=(0.0, 0.0, 0.0), distance=5.0, yaw=-20.0, pitch=5.0)
    old_target = camera.target.copy()
    camera.pan(-15.0, 30.0, 800, 300)
    pixel = camera.project(old_target[None], 300, 800)[0]
    np.testing.assert_allclose(pixel, [150.0 - 15.0, 400.0 + 30.0], atol=1e-6)


def test_framing_puts_every_point_in_view_from_the_same_direction():
    camera = OrbitCamera(yaw=30.0, pitch=20.0)
    points = np.array([[-1.4, 1.0, 0.0], [4.6, -1.6, 0.0], [1.0, 0.0, 1.5]])
    camera.frame(points, aspect=1.6)
    assert (camera.yaw, camera.pitch) == (30.0, 20.0)
    screen = camera.project(points, 1600.0, 1000.0)
    assert np.all((screen >= 0) & (screen <= (1600.0, 1000.0)))
    # and not from afar: the points span a good part of the view
    assert np.ptp(screen[:, 0]) > 0.3 * 1600.0
