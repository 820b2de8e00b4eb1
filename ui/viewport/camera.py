"""Orbit camera math for the viewport, free of Qt and OpenGL so it can be tested on its own.

Conventions (the same as `sim.document.scene.CameraSpec`):

* The camera orbits `target` at `distance`. `yaw` (degrees) turns it about +y, `pitch`
  (degrees) lifts it above the horizon. Yaw 0, pitch 0 puts the eye on the +z side looking
  along −z, square onto the sheet that hangs in the x–y plane; positive yaw moves the eye
  towards +x.
* Matrices are numpy arrays in the mathematical (row-major) layout and act on column
  vectors: `clip = projection @ view @ [x, y, z, 1]`. OpenGL reads a `float[16]` as
  column-major, so upload them transposed (`glUniformMatrix4fv(..., GL_TRUE, m)` or `m.T`).
* Pixel coordinates have their origin at the top-left corner and grow right and down, like
  Qt's widget coordinates; normalised device coordinates grow right and up.
"""

from __future__ import annotations

import math

import numpy as np

from clothlab.sim.document.scene import CameraSpec, as_point

FOV_Y_DEGREES = 40.0
PITCH_LIMIT = 89.0  # CameraSpec's range; at ±90 the view's up vector would be undefined
MIN_DISTANCE = 0.1
MAX_DISTANCE = 500.0
TARGET_LIMIT = 1e4  # CameraSpec's Finite range
MIN_ASPECT = 1.2  # narrower views widen their vertical field so the scene still fits across
ORBIT_DEGREES_PER_PIXEL = 0.3
ZOOM_FACTOR_PER_STEP = 0.88  # one wheel notch brings the eye 12 % closer


class OrbitCamera:
    """An eye orbiting a target point; all angles in degrees."""

    def __init__(
        self,
        target: tuple[float, float, float] | np.ndarray = (0.0, 0.0, 0.0),
        distance: float = 5.5,
        yaw: float = 0.0,
        pitch: float = 10.0,
        fov: float = FOV_Y_DEGREES,
    ) -> None:
        self.target = np.asarray(target, dtype=np.float64).reshape(3).copy()  # (3,) float64
        self.distance = float(distance)
        self.yaw = float(yaw)
        self.pitch = float(pitch)
        self.fov = float(fov)  # vertical field of view, degrees
        self._sanitise()

    # --- CameraSpec --------------------------------------------------------------------

    @classmethod
    def from_spec(cls, spec: CameraSpec) -> OrbitCamera:
        return cls(spec.target, spec.distance, spec.yaw, spec.pitch)

    def set_spec(self, spec: CameraSpec) -> None:
        other = OrbitCamera.from_spec(spec)
        self.target, self.distance = other.target, other.distance
        self.yaw, self.pitch = other.yaw, other.pitch

    def to_spec(self) -> CameraSpec:
        """The camera as a scene's CameraSpec, with values inside the spec's ranges."""
        self._sanitise()
        return CameraSpec(
            target=as_point(self.target),
            distance=float(self.distance),
            yaw=float(self.yaw),
            pitch=float(self.pitch),
        )

    def copy(self) -> OrbitCamera:
        return OrbitCamera(self.target, self.distance, self.yaw, self.pitch, self.fov)

    # --- frame ---------------------------------------------------------------------------

    def eye(self) -> np.ndarray:
        """(3,) float64 position of the eye."""
        return self.target + self.distance * self._backward()

    def basis(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(right, up, forward) unit vectors of the camera in world space."""
        forward = -self._backward()
        yaw = math.radians(self.yaw)
        right = np.array([math.cos(yaw), 0.0, -math.sin(yaw)])
        up = np.cross(right, forward)
        return right, up, forward

    def view_matrix(self) -> np.ndarray:
        """(4, 4) float64 world → eye space (look-at), row-major, for column vectors."""
        right, up, forward = self.basis()
        eye = self.eye()
        view = np.eye(4)
        view[0, :3] = right
        view[1, :3] = up
        view[2, :3] = -forward  # eye space looks down its −z
        view[:3, 3] = -view[:3, :3] @ eye
        return view

    def clip_range(self) -> tuple[float, float]:
        """(near, far) planes scaled with the distance, so depth precision follows the zoom."""
        near = min(max(self.distance * 0.01, 0.005), 1.0)
        far = self.distance * 20.0 + 120.0  # the floor grid reaches about 100 units out
        return near, far

    def half_extents(self, aspect: float) -> tuple[float, float]:
        """tan of half the horizontal and vertical field of view. `fov` is vertical; a view
        narrower than MIN_ASPECT keeps the horizontal extent it would have at MIN_ASPECT, so
        a tall, thin viewport does not crop the sides of the scene."""
        aspect = aspect if aspect > 0.0 and math.isfinite(aspect) else 1.0
        half_height = math.tan(math.radians(self.fov) / 2.0)
        if aspect < MIN_ASPECT:
            half_height *= MIN_ASPECT / aspect
        return half_height * aspect, half_height

    def projection_matrix(self, aspect: float) -> np.ndarray:
        """(4, 4) float64 perspective projection (OpenGL clip space, z in −w…w)."""
        near, far = self.clip_range()
        half_width, half_height = self.half_extents(aspect)
        projection = np.zeros((4, 4))
        projection[0, 0] = 1.0 / half_width
        projection[1, 1] = 1.0 / half_height
        projection[2, 2] = (far + near) / (near - far)
        projection[2, 3] = 2.0 * far * near / (near - far)
        projection[3, 2] = -1.0
        return projection

    def view_projection(self, aspect: float) -> np.ndarray:
        return self.projection_matrix(aspect) @ self.view_matrix()

    def frame(self, points: np.ndarray, aspect: float, margin: float = 1.15) -> None:
        """Look at the middle of `points` ((K, 3) float64) from the current direction, just far
        enough that a sphere round them fits the narrower half of the view (with `margin`)."""
        low, high = points.min(axis=0), points.max(axis=0)
        radius = max(float(np.linalg.norm(high - low)) / 2.0, 0.05)
        half_width, half_height = self.half_extents(aspect)
        half_angle = math.atan(min(half_width, half_height))
        self.target = (low + high) / 2.0
        self.distance = margin * radius / math.sin(half_angle)
        self._sanitise()

    # --- interaction ---------------------------------------------------------------------

    def orbit(self, dx_pixels: float, dy_pixels: float) -> None:
        """Drag right swings the scene to the right; drag down lifts the eye over the top."""
        self.yaw -= dx_pixels * ORBIT_DEGREES_PER_PIXEL
        self.pitch += dy_pixels * ORBIT_DEGREES_PER_PIXEL
        self._sanitise()

    def pan(
        self, dx: float, dy: float, viewport_height: float, viewport_width: float | None = None
    ) -> None:
        """Move the target so that the point under the pointer follows it (at target depth).
        The width only matters for views narrower than MIN_ASPECT."""
        right, up, _ = self.basis()
        height = max(float(viewport_height), 1.0)
        aspect = max(float(viewport_width), 1.0) / height if viewport_width else MIN_ASPECT
        units_per_pixel = 2.0 * self.distance * self.half_extents(aspect)[1] / height
        self.target = self.target - right * dx * units_per_pixel + up * dy * units_per_pixel
        self._sanitise()

    def zoom(self, wheel_steps: float) -> None:
        """Positive steps (wheel away from the user) move the eye closer; never through."""
        # Clamp the exponent: a flood of wheel events must not overflow to inf or 0.
        steps = min(max(float(wheel_steps), -100.0), 100.0) if math.isfinite(wheel_steps) else 0.0
        self.distance *= ZOOM_FACTOR_PER_STEP**steps
        self._sanitise()

    # --- picking and projection ------------------------------------------------------------

    def ray(
        self, x_px: float, y_px: float, width: float, height: float
    ) -> tuple[np.ndarray, np.ndarray]:
        """(origin, unit direction), both (3,) float64, of the ray through a pixel."""
        width = max(float(width), 1.0)
        height = max(float(height), 1.0)
        ndc_x = 2.0 * x_px / width - 1.0
        ndc_y = 1.0 - 2.0 * y_px / height
        half_width, half_height = self.half_extents(width / height)
        right, up, forward = self.basis()
        direction = forward + right * ndc_x * half_width + up * ndc_y * half_height
        return self.eye(), direction / np.linalg.norm(direction)

    def project(self, points: np.ndarray, width: float, height: float) -> np.ndarray:
        """(N, 2) float64 pixel coordinates of (N, 3) world points, top-left origin; NaN rows
        for points at or behind the eye plane (they have no place on the screen)."""
        points = np.asarray(points, dtype=np.float64).reshape(-1, 3)
        width = max(float(width), 1.0)
        height = max(float(height), 1.0)
        matrix = self.view_projection(width / height)
        clip = points @ matrix[:3, :3].T + matrix[:3, 3]  # x, y, z of clip space
        w = points @ matrix[3, :3] + matrix[3, 3]
        result = np.full((len(points), 2), np.nan)
        front = w > 1e-9
        result[front, 0] = (clip[front, 0] / w[front] + 1.0) * 0.5 * width
        result[front, 1] = (1.0 - clip[front, 1] / w[front]) * 0.5 * height
        return result

    # --- internals -------------------------------------------------------------------------

    def _backward(self) -> np.ndarray:
        yaw = math.radians(self.yaw)
        pitch = math.radians(self.pitch)
        return np.array(
            [math.sin(yaw) * math.cos(pitch), math.sin(pitch), math.cos(yaw) * math.cos(pitch)]
        )

    def _sanitise(self) -> None:
        # Keep every value inside CameraSpec's ranges so a saved scene always validates.
        if not math.isfinite(self.yaw):
            self.yaw = 0.0
        self.yaw = (self.yaw + 180.0) % 360.0 - 180.0
        self.pitch = min(
            max(self.pitch if math.isfinite(self.pitch) else 0.0, -PITCH_LIMIT), PITCH_LIMIT
        )
        if not math.isfinite(self.distance):
            self.distance = 5.5
        self.distance = min(max(self.distance, MIN_DISTANCE), MAX_DISTANCE)
        target = np.nan_to_num(self.target, nan=0.0, posinf=TARGET_LIMIT, neginf=-TARGET_LIMIT)
        self.target = np.clip(target, -TARGET_LIMIT, TARGET_LIMIT)
