"""The 3D view: an OpenGL 3.3 core widget drawing the latest snapshot.

The viewport never changes the simulation. It keeps a reference to the newest snapshot
(`show_snapshot`) and draws it when Qt asks for a frame; camera interaction only changes the
camera. Geometry is prepared by `ui.meshes` (GL-free) and uploaded in place with
`glBufferSubData` into buffers that are created once per topology.

GL failures never escape `initializeGL`/`paintGL`: they are logged, reported once through
`gl_failed(reason)`, and the widget then draws nothing.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import logging
from importlib.resources.abc import Traversable

import numpy as np
from OpenGL import GL
from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtGui import (
    QMouseEvent,
    QOffscreenSurface,
    QOpenGLContext,
    QPainter,
    QSurfaceFormat,
    QWheelEvent,
)
from PySide6.QtOpenGLWidgets import QOpenGLWidget
from PySide6.QtWidgets import QWidget

from clothlab.resources import resource
from clothlab.sim.scene import CameraSpec
from clothlab.sim.snapshot import Snapshot
from clothlab.sim.topology import Topology
from clothlab.ui import meshes
from clothlab.ui.camera import OrbitCamera
from clothlab.ui.interaction import Interaction, Tool

log = logging.getLogger(__name__)

SHADER_DIR = resource("shaders")

# Backdrop in the spirit of the three.js demo (0x0b1020), a little lighter towards the horizon.
BACKGROUND_TOP = (0.043, 0.063, 0.125)
BACKGROUND_HORIZON = (0.105, 0.140, 0.245)
# Towards the key light: above, in front (+z, where the default camera is) and to the right.
KEY_DIRECTION = np.array([0.45, 0.80, 0.55]) / np.linalg.norm([0.45, 0.80, 0.55])
FILL_DIRECTION = np.array([-0.6, 0.25, -0.75]) / np.linalg.norm([-0.6, 0.25, -0.75])
PIN_MARKER_SIZE = 0.07  # model units, edge of the cube drawn at each pin
GRAB_MARKER_RADIUS = 0.05
CHECKER_CELL = 0.5
FLOOR_HALF_SIZE = 100.0
LINE_LIFT = 0.008  # model units towards the eye, so lines on the cloth stay visible
SHADOW_STRENGTH = 0.38

# Attribute (location, size, offset in floats) per buffer; locations match the shaders.
Layout = tuple[tuple[int, int, int], ...]
_DYNAMIC_LAYOUT: Layout = ((0, 3, 0), (1, 3, 3), (2, 3, 6))  # position, normal, stretch colour
_STATIC_LAYOUT: Layout = ((3, 3, 0), (4, 3, 3), (5, 4, 6))  # front, back, fabric
_SOLID_LAYOUT: Layout = _DYNAMIC_LAYOUT + tuple(
    (location, size, offset + meshes.DYNAMIC_FLOATS) for location, size, offset in _STATIC_LAYOUT
)
_LINE_LAYOUT: Layout = ((0, 3, 0), (1, 3, 3))
_POSITION_LAYOUT: Layout = ((0, 3, 0),)


def surface_format() -> QSurfaceFormat:
    """The format the viewport asks for: OpenGL 3.3 core, depth, stencil (planar shadows),
    4× multisampling. An application may pass it to `QSurfaceFormat.setDefaultFormat` before
    creating QApplication so every context in the process agrees."""
    fmt = QSurfaceFormat()
    fmt.setRenderableType(QSurfaceFormat.RenderableType.OpenGL)
    fmt.setVersion(3, 3)
    fmt.setProfile(QSurfaceFormat.OpenGLContextProfile.CoreProfile)
    fmt.setDepthBufferSize(24)
    fmt.setStencilBufferSize(8)
    fmt.setSamples(4)
    return fmt


@functools.cache
def software_renderer() -> bool:
    """Whether OpenGL is rendered on the CPU (Mesa llvmpipe under Xvfb or in a VM), where
    multisampling more than doubles the cost of a frame. Probed once with a throw-away context;
    needs a QGuiApplication."""
    context = QOpenGLContext()
    context.setFormat(surface_format())
    if not context.create():
        return False
    surface = QOffscreenSurface()
    surface.setFormat(context.format())
    surface.create()
    try:
        if not context.makeCurrent(surface):
            return False
        renderer = GL.glGetString(GL.GL_RENDERER) or b""
    except Exception:  # no usable GL at all: the viewport reports it when it initialises
        return False
    finally:
        context.doneCurrent()
        surface.destroy()
    return any(name in renderer.lower() for name in (b"llvmpipe", b"softpipe", b"swrast"))


class GLFailureError(RuntimeError):
    """A one-line reason why the viewport cannot draw."""


class _Program:
    """A linked shader program and its uniform locations."""

    def __init__(self, name: str) -> None:
        self.name = name
        vertex = _compile(GL.GL_VERTEX_SHADER, SHADER_DIR / f"{name}.vert")
        fragment = _compile(GL.GL_FRAGMENT_SHADER, SHADER_DIR / f"{name}.frag")
        program = GL.glCreateProgram()
        GL.glAttachShader(program, vertex)
        GL.glAttachShader(program, fragment)
        GL.glLinkProgram(program)
        GL.glDeleteShader(vertex)
        GL.glDeleteShader(fragment)
        if not GL.glGetProgramiv(program, GL.GL_LINK_STATUS):
            message = _first_line(GL.glGetProgramInfoLog(program))
            GL.glDeleteProgram(program)
            raise GLFailureError(f"shader program {name!r} does not link: {message}")
        self.id = program
        self._locations: dict[str, int] = {}

    def use(self) -> None:
        GL.glUseProgram(self.id)

    def _location(self, uniform: str) -> int:
        if uniform not in self._locations:
            self._locations[uniform] = GL.glGetUniformLocation(self.id, uniform)
        return self._locations[uniform]

    def set_matrix(self, uniform: str, matrix: np.ndarray) -> None:
        # Row-major numpy matrix; GL_TRUE transposes it into GL's column-major order.
        data = np.ascontiguousarray(matrix, dtype=np.float32)
        GL.glUniformMatrix4fv(self._location(uniform), 1, GL.GL_TRUE, data)

    def set_vec(self, uniform: str, *values: float) -> None:
        location = self._location(uniform)
        setters = {1: GL.glUniform1f, 2: GL.glUniform2f, 3: GL.glUniform3f, 4: GL.glUniform4f}
        setters[len(values)](location, *(float(v) for v in values))

    def delete(self) -> None:
        GL.glDeleteProgram(self.id)


class _Mesh:
    """A vertex array with its vertex buffers (one per layout) and optional index buffer."""

    def __init__(
        self,
        buffers: list[tuple[np.ndarray, Layout, bool]],  # (vertices, layout, dynamic)
        indices: np.ndarray | None = None,
        dynamic_indices: bool = False,
    ) -> None:
        self.vao = GL.glGenVertexArrays(1)
        GL.glBindVertexArray(self.vao)
        self.vbos: list[int] = []
        self.vertex_bytes: list[int] = []
        for vertices, layout, dynamic in buffers:
            vertices = np.ascontiguousarray(vertices, dtype=np.float32)
            usage = GL.GL_DYNAMIC_DRAW if dynamic else GL.GL_STATIC_DRAW
            vbo = GL.glGenBuffers(1)
            GL.glBindBuffer(GL.GL_ARRAY_BUFFER, vbo)
            GL.glBufferData(GL.GL_ARRAY_BUFFER, max(vertices.nbytes, 4), vertices, usage)
            stride = vertices.shape[1] * 4
            for location, size, offset in layout:
                GL.glEnableVertexAttribArray(location)
                GL.glVertexAttribPointer(
                    location, size, GL.GL_FLOAT, GL.GL_FALSE, stride, ctypes.c_void_p(offset * 4)
                )
            self.vbos.append(vbo)
            self.vertex_bytes.append(vertices.nbytes)
        self.ebo = 0
        self.index_count = 0
        if indices is not None:
            indices = np.ascontiguousarray(indices, dtype=np.uint32)
            usage = GL.GL_DYNAMIC_DRAW if dynamic_indices else GL.GL_STATIC_DRAW
            self.ebo = GL.glGenBuffers(1)
            GL.glBindBuffer(GL.GL_ELEMENT_ARRAY_BUFFER, self.ebo)  # recorded in the VAO
            GL.glBufferData(GL.GL_ELEMENT_ARRAY_BUFFER, max(indices.nbytes, 4), indices, usage)
            self.index_count = len(indices)
        GL.glBindVertexArray(0)

    def update_vertices(self, vertices: np.ndarray, buffer: int = 0) -> None:
        GL.glBindBuffer(GL.GL_ARRAY_BUFFER, self.vbos[buffer])
        GL.glBufferSubData(GL.GL_ARRAY_BUFFER, 0, vertices.nbytes, vertices)

    def update_indices(self, indices: np.ndarray, count: int) -> None:
        self.index_count = count
        if count:
            GL.glBindVertexArray(self.vao)
            GL.glBufferSubData(GL.GL_ELEMENT_ARRAY_BUFFER, 0, count * 4, indices[:count])
            GL.glBindVertexArray(0)

    def draw_elements(self, mode: int = GL.GL_TRIANGLES) -> None:
        if self.index_count:
            GL.glBindVertexArray(self.vao)
            GL.glDrawElements(mode, self.index_count, GL.GL_UNSIGNED_INT, ctypes.c_void_p(0))

    def draw_arrays(self, mode: int, first: int, count: int) -> None:
        if count:
            GL.glBindVertexArray(self.vao)
            GL.glDrawArrays(mode, first, count)

    def delete(self) -> None:
        GL.glDeleteVertexArrays(1, [self.vao])
        GL.glDeleteBuffers(len(self.vbos), self.vbos)
        if self.ebo:
            GL.glDeleteBuffers(1, [self.ebo])


def _compile(kind: int, path: Traversable) -> int:
    try:
        source = path.read_text(encoding="utf-8")
    except OSError as error:
        raise GLFailureError(f"cannot read shader {path.name}: {error.strerror}") from None
    shader = GL.glCreateShader(kind)
    GL.glShaderSource(shader, source)
    GL.glCompileShader(shader)
    if not GL.glGetShaderiv(shader, GL.GL_COMPILE_STATUS):
        message = _first_line(GL.glGetShaderInfoLog(shader))
        GL.glDeleteShader(shader)
        raise GLFailureError(f"shader {path.name} does not compile: {message}")
    return shader


def _first_line(log_text: bytes | str) -> str:
    text = log_text.decode(errors="replace") if isinstance(log_text, bytes) else str(log_text)
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[0] if lines else "no log"


def _translate_scale(position: np.ndarray | tuple[float, ...], scale: float) -> np.ndarray:
    model = np.diag([scale, scale, scale, 1.0])
    model[:3, 3] = position
    return model


class Viewport(QOpenGLWidget):
    """Draws snapshots; orbit/pan/zoom with the mouse. See the module docstring."""

    frame_drawn = Signal(int)  # the snapshot frame id just drawn
    camera_changed = Signal()
    gl_failed = Signal(str)  # one-line reason; the viewport stays blank afterwards

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        fmt = surface_format()
        if software_renderer():
            fmt.setSamples(0)  # edges get jaggier, but frames come twice as fast
        self.setFormat(fmt)
        self.setMinimumSize(160, 120)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.camera = OrbitCamera.from_spec(CameraSpec())
        self._home_spec = CameraSpec()
        self._snapshot: Snapshot | None = None
        self._wireframe = False
        self._stretch_colors = False
        self._drag_mode: str | None = None  # "orbit" or "pan" while the camera is dragged
        self._drag_last = QPointF()
        self.interaction = Interaction(self)
        self.interaction.set_tool(Tool.GRAB)
        self._reset_gl_state()

    # --- public API ------------------------------------------------------------------------

    def show_snapshot(self, snapshot: Snapshot) -> None:
        """Keep the newest snapshot and schedule a repaint; older ones are simply dropped."""
        self._snapshot = snapshot
        self.update()

    def snapshot(self) -> Snapshot | None:
        return self._snapshot

    def set_camera(self, spec: CameraSpec) -> None:
        """Look from `spec`, and remember it as the place `reset_camera` returns to."""
        self._home_spec = spec
        self.camera.set_spec(spec)
        self._camera_moved()

    def camera_spec(self) -> CameraSpec:
        return self.camera.to_spec()

    def reset_camera(self) -> None:
        self.camera.set_spec(self._home_spec)
        self._camera_moved()

    def set_wireframe(self, on: bool) -> None:
        if bool(on) != self._wireframe:
            self._wireframe = bool(on)
            self._mesh_dirty = True
            self.update()

    def wireframe(self) -> bool:
        return self._wireframe

    def set_stretch_colors(self, on: bool) -> None:
        if bool(on) != self._stretch_colors:
            self._stretch_colors = bool(on)
            self._mesh_dirty = True
            self.update()

    def stretch_colors(self) -> bool:
        return self._stretch_colors

    def project(self, points: np.ndarray) -> np.ndarray:
        """(N, 2) float64 widget (logical) pixel coordinates of (N, 3) world points, top-left
        origin; NaN rows for points behind the eye."""
        return self.camera.project(points, self.width(), self.height())

    def ray(self, x: float, y: float) -> tuple[np.ndarray, np.ndarray]:
        """(origin, unit direction) of the ray under widget pixel (x, y), for picking."""
        return self.camera.ray(x, y, self.width(), self.height())

    def is_gl_ok(self) -> bool:
        return self._gl_ok

    # --- mouse: overridable hooks ------------------------------------------------------------
    # Editing tools will claim presses first (`_tool_press` returning True); whatever they
    # leave drives the camera.

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt override)
        if self._drag_mode is None and self._tool_press(event):
            return
        self._begin_camera_drag(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt override)
        if self._drag_mode is not None:
            self._drag_camera(event)
        else:
            self._tool_move(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt override)
        if self._drag_mode is not None:
            self._end_camera_drag(event)
        else:
            self._tool_release(event)

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 (Qt override)
        steps = event.angleDelta().y() / 120.0
        if steps:
            self.camera.zoom(steps)
            self._camera_moved()
        event.accept()

    def _tool_press(self, event: QMouseEvent) -> bool:
        """The editing tools take the press when they find something to act on."""
        return self.interaction.press(event)

    def _tool_move(self, event: QMouseEvent) -> None:
        self.interaction.move(event)

    def _tool_release(self, event: QMouseEvent) -> None:
        self.interaction.release(event)

    def _begin_camera_drag(self, event: QMouseEvent) -> None:
        """Left or right drag orbits; middle drag, or any drag with Shift, pans."""
        button = event.button()
        shift = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        if button == Qt.MouseButton.MiddleButton or (
            shift and button in (Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton)
        ):
            self._drag_mode = "pan"
        elif button in (Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton):
            self._drag_mode = "orbit"
        else:
            event.ignore()
            return
        self._drag_button = button
        self._drag_last = event.position()
        self.setCursor(
            Qt.CursorShape.SizeAllCursor
            if self._drag_mode == "pan"
            else Qt.CursorShape.ClosedHandCursor
        )
        event.accept()

    def _drag_camera(self, event: QMouseEvent) -> None:
        position = event.position()
        dx = position.x() - self._drag_last.x()
        dy = position.y() - self._drag_last.y()
        self._drag_last = position
        if self._drag_mode == "pan":
            self.camera.pan(dx, dy, self.height(), self.width())
        else:
            self.camera.orbit(dx, dy)
        self._camera_moved()
        event.accept()

    def _end_camera_drag(self, event: QMouseEvent) -> None:
        if event.button() == self._drag_button:
            self._drag_mode = None
            self.interaction.set_tool(self.interaction.tool)  # the tool's cursor again
        event.accept()

    def _camera_moved(self) -> None:
        self.camera_changed.emit()
        self.update()

    # --- OpenGL ------------------------------------------------------------------------------

    def _reset_gl_state(self) -> None:
        self._gl_ok = False
        self._failure_reported = False
        self._programs: dict[str, _Program] = {}
        self._static: dict[str, _Mesh] = {}
        self._topology: Topology | None = None
        self._body_mesh: meshes.BodyMesh | None = None
        self._body_gl: _Mesh | None = None
        self._lines_gl: _Mesh | None = None
        self._uploaded: Snapshot | None = None
        self._mesh_dirty = True
        self._pin_marker_size = PIN_MARKER_SIZE

    def initializeGL(self) -> None:  # noqa: N802 (Qt override)
        # A re-parented QOpenGLWidget gets a fresh context; everything is created again.
        self._reset_gl_state()
        try:
            context = self.context()
            if context is None or not context.isValid():
                raise GLFailureError("no valid OpenGL context")
            fmt = context.format()
            if (fmt.majorVersion(), fmt.minorVersion()) < (3, 3):
                raise GLFailureError(
                    f"OpenGL 3.3 is needed, the driver offers "
                    f"{fmt.majorVersion()}.{fmt.minorVersion()}"
                )
            context.aboutToBeDestroyed.connect(self._release_gl)
            for name in ("background", "floor", "surface", "shadow", "lines"):
                self._programs[name] = _Program(name)
            self._create_static_meshes()
            self._gl_ok = True
        except Exception as error:
            self._fail(error)

    def _create_static_meshes(self) -> None:
        # Core profiles draw nothing without a bound vertex array, even attribute-free.
        self._static["background"] = _Mesh([])
        floor_positions, floor_indices = meshes.floor_quad(FLOOR_HALF_SIZE)
        self._static["floor"] = _Mesh([(floor_positions, _POSITION_LAYOUT, False)], floor_indices)
        positions, indices = meshes.uv_sphere()
        sphere = meshes.pack_surface(positions, positions, meshes.BALL_COLOR)
        self._static["sphere"] = _Mesh([(sphere, _SOLID_LAYOUT, False)], indices)
        positions, normals, indices = meshes.cube(0.5)
        pin = meshes.pack_surface(positions, normals, meshes.PIN_COLOR)
        self._static["pin"] = _Mesh([(pin, _SOLID_LAYOUT, False)], indices)

    def _release_gl(self) -> None:
        if not self._programs and not self._static:
            return
        self.makeCurrent()
        try:
            for program in self._programs.values():
                program.delete()
            for mesh in (*self._static.values(), self._body_gl, self._lines_gl):
                if mesh is not None:
                    mesh.delete()
        except Exception as error:  # the context is going away; nothing else to do
            log.debug("releasing GL objects failed: %s", error)
        finally:
            self.doneCurrent()
        self._reset_gl_state()

    def _fail(self, error: BaseException) -> None:
        self._gl_ok = False
        reason = str(error) if isinstance(error, GLFailureError) else f"OpenGL error: {error}"
        reason = " ".join(reason.split())[:300]
        if not self._failure_reported:
            self._failure_reported = True
            log.error(
                "viewport cannot draw: %s", reason, exc_info=not isinstance(error, GLFailureError)
            )
            self.gl_failed.emit(reason)

    def resizeGL(self, width: int, height: int) -> None:  # noqa: N802 (Qt override)
        # paintGL sets the viewport every frame from devicePixelRatio; nothing to keep here.
        pass

    def paintGL(self) -> None:  # noqa: N802 (Qt override)
        if not self._gl_ok:
            return
        snapshot = self._snapshot
        try:
            self._draw(snapshot)
        except Exception as error:
            self._fail(error)
            return
        if self.interaction.stroke:
            painter = QPainter(self)  # Qt restores its own GL state around the painter
            self.interaction.paint_overlay(painter)
            painter.end()
        if snapshot is not None:
            self.frame_drawn.emit(snapshot.frame)

    # --- drawing -----------------------------------------------------------------------------

    def _draw(self, snapshot: Snapshot | None) -> None:
        ratio = self.devicePixelRatioF()
        width_px = max(1, round(self.width() * ratio))
        height_px = max(1, round(self.height() * ratio))
        GL.glViewport(0, 0, width_px, height_px)
        GL.glClearColor(*BACKGROUND_TOP, 1.0)
        GL.glClearStencil(0)
        GL.glDepthMask(GL.GL_TRUE)
        GL.glStencilMask(0xFF)
        GL.glClear(GL.GL_COLOR_BUFFER_BIT | GL.GL_DEPTH_BUFFER_BIT | GL.GL_STENCIL_BUFFER_BIT)

        view_projection = self.camera.view_projection(self.width() / max(self.height(), 1))
        eye = self.camera.eye()

        self._draw_background()
        if snapshot is None:
            return
        if snapshot.topology is not self._topology:
            self._rebuild_body(snapshot.topology)
        self._update_body(snapshot)

        settings = snapshot.settings
        GL.glEnable(GL.GL_DEPTH_TEST)
        GL.glDepthFunc(GL.GL_LEQUAL)
        GL.glDisable(GL.GL_CULL_FACE)  # cloth is seen from both sides

        if settings.floor:
            self._draw_floor(view_projection, eye, settings.floor_y, width_px, height_px)
            self._draw_shadows(view_projection, snapshot)
        self._draw_solids(view_projection, eye, snapshot)
        self._draw_lines(view_projection, eye, ratio)
        GL.glBindVertexArray(0)
        GL.glUseProgram(0)

    def _draw_background(self) -> None:
        GL.glDisable(GL.GL_DEPTH_TEST)
        program = self._programs["background"]
        program.use()
        program.set_vec("u_top_color", *BACKGROUND_TOP)
        program.set_vec("u_horizon_color", *BACKGROUND_HORIZON)
        GL.glBindVertexArray(self._static["background"].vao)
        GL.glDrawArrays(GL.GL_TRIANGLES, 0, 3)

    def _draw_floor(
        self, view_projection: np.ndarray, eye: np.ndarray, floor_y: float, width: int, height: int
    ) -> None:
        program = self._programs["floor"]
        program.use()
        program.set_matrix("u_view_projection", view_projection)
        program.set_vec("u_floor_y", floor_y)
        program.set_vec("u_eye", *eye)
        program.set_vec("u_cell", CHECKER_CELL)
        program.set_vec("u_viewport_size", width, height)
        program.set_vec("u_top_color", *BACKGROUND_TOP)
        program.set_vec("u_horizon_color", *BACKGROUND_HORIZON)
        program.set_vec("u_key_direction", *KEY_DIRECTION)
        self._static["floor"].draw_elements()

    def _draw_shadows(self, view_projection: np.ndarray, snapshot: Snapshot) -> None:
        # The stencil lets each floor pixel darken once, however many layers cast onto it.
        program = self._programs["shadow"]
        program.use()
        program.set_matrix("u_view_projection", view_projection)
        program.set_vec("u_key_direction", *KEY_DIRECTION)
        program.set_vec("u_floor_y", snapshot.settings.floor_y)
        program.set_vec("u_strength", SHADOW_STRENGTH)
        GL.glEnable(GL.GL_BLEND)
        GL.glBlendFunc(GL.GL_SRC_ALPHA, GL.GL_ONE_MINUS_SRC_ALPHA)
        GL.glDepthMask(GL.GL_FALSE)
        GL.glEnable(GL.GL_STENCIL_TEST)
        GL.glStencilFunc(GL.GL_EQUAL, 0, 0xFF)
        GL.glStencilOp(GL.GL_KEEP, GL.GL_KEEP, GL.GL_INCR)
        program.set_matrix("u_model", np.eye(4))
        if self._body_gl is not None and not self._wireframe:
            self._body_gl.draw_elements()
        settings = snapshot.settings
        if settings.ball:
            program.set_matrix(
                "u_model", _translate_scale(settings.ball_center, settings.ball_radius)
            )
            self._static["sphere"].draw_elements()
        GL.glDisable(GL.GL_STENCIL_TEST)
        GL.glDepthMask(GL.GL_TRUE)
        GL.glDisable(GL.GL_BLEND)

    def _draw_solids(
        self, view_projection: np.ndarray, eye: np.ndarray, snapshot: Snapshot
    ) -> None:
        program = self._programs["surface"]
        program.use()
        program.set_matrix("u_view_projection", view_projection)
        program.set_vec("u_eye", *eye)
        program.set_vec("u_key_direction", *KEY_DIRECTION)
        program.set_vec("u_fill_direction", *FILL_DIRECTION)
        program.set_vec("u_tint", 0.0, 0.0, 0.0, 0.0)
        program.set_vec("u_stretch", 1.0 if self._stretch_colors else 0.0)

        program.set_vec("u_shininess", 24.0)
        program.set_vec("u_specular", 0.08)  # fabric: a dull sheen
        program.set_matrix("u_model", np.eye(4))
        if self._body_gl is not None and not self._wireframe:
            self._body_gl.draw_elements()

        settings = snapshot.settings
        program.set_vec("u_stretch", 0.0)
        program.set_vec("u_shininess", 48.0)
        program.set_vec("u_specular", 0.35)
        if settings.ball:
            program.set_matrix(
                "u_model", _translate_scale(settings.ball_center, settings.ball_radius)
            )
            self._static["sphere"].draw_elements()
        marker = self._pin_marker_size
        for anchor in np.asarray(snapshot.pin_anchor).reshape(-1, 3):
            program.set_matrix("u_model", _translate_scale(anchor, marker))
            self._static["pin"].draw_elements()
        if snapshot.grabbed is not None and 0 <= snapshot.grabbed < len(snapshot.x):
            program.set_vec("u_tint", *meshes.GRAB_COLOR, 0.8)
            program.set_matrix(
                "u_model", _translate_scale(snapshot.x[snapshot.grabbed], GRAB_MARKER_RADIUS)
            )
            self._static["sphere"].draw_elements()

    def _draw_lines(self, view_projection: np.ndarray, eye: np.ndarray, ratio: float) -> None:
        mesh, lines = self._body_mesh, self._lines_gl
        if mesh is None or lines is None:
            return
        program = self._programs["lines"]
        program.use()
        program.set_matrix("u_view_projection", view_projection)
        program.set_vec("u_eye", *eye)
        program.set_vec("u_lift", LINE_LIFT)
        _line_width(1.0 * ratio)
        lines.draw_arrays(GL.GL_LINES, *mesh.link_range)
        program.set_vec("u_lift", 0.0)
        _line_width(1.5 * ratio)
        lines.draw_arrays(GL.GL_LINES, *mesh.wire_range)
        _line_width(1.0)

    # --- buffers -----------------------------------------------------------------------------

    def _rebuild_body(self, topology: Topology) -> None:
        """A new topology (a scene was loaded): new CPU and GPU buffers sized for it."""
        for mesh in (self._body_gl, self._lines_gl):
            if mesh is not None:
                mesh.delete()
        self._topology = topology
        # Markers no bigger than half a cell, so a pinned row stays a row of markers.
        spacings = [grid.spacing for grid in topology.sheets] + [b.side for b in topology.blocks]
        self._pin_marker_size = min([PIN_MARKER_SIZE] + [0.5 * s for s in spacings])
        self._body_mesh = meshes.BodyMesh(topology)
        mesh = self._body_mesh
        self._body_gl = _Mesh(
            [(mesh.dynamic, _DYNAMIC_LAYOUT, True), (mesh.static, _STATIC_LAYOUT, False)],
            mesh.indices,
            dynamic_indices=True,
        )
        self._body_gl.index_count = 0
        self._lines_gl = _Mesh([(mesh.lines, _LINE_LAYOUT, True)])
        self._uploaded = None

    def _update_body(self, snapshot: Snapshot) -> None:
        mesh, body, lines = self._body_mesh, self._body_gl, self._lines_gl
        assert mesh is not None and body is not None and lines is not None
        if snapshot is self._uploaded and not self._mesh_dirty:
            return  # a repaint for the camera: the buffers already hold this frame
        mesh.update(snapshot, self._stretch_colors, self._wireframe)
        body.update_vertices(mesh.dynamic)
        if mesh.indices_changed or self._uploaded is None:
            body.update_indices(mesh.indices, mesh.index_count)
        if mesh.lines.nbytes != lines.vertex_bytes[0]:  # more pins than ever before
            lines.delete()
            lines = self._lines_gl = _Mesh([(mesh.lines, _LINE_LAYOUT, True)])
        if mesh.line_count:
            lines.update_vertices(mesh.lines[: mesh.line_count])
        self._uploaded = snapshot
        self._mesh_dirty = False


def _line_width(width: float) -> None:
    # Core profiles may refuse widths above 1 (forward-compatible contexts); thin lines are a
    # fine fallback, not a failure.
    with contextlib.suppress(GL.GLError):
        GL.glLineWidth(max(1.0, min(width, 8.0)))
