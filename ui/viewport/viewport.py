"""The 3D view: an OpenGL 3.3 core widget drawing the latest snapshot.

The viewport never changes the simulation. It keeps a reference to the newest snapshot
(`show_snapshot`) and draws it when Qt asks for a frame; camera interaction only changes the
camera. What is drawn is a list of `ui.viewport.items` (background, floor, shadows, bodies,
obstacles, markers, lines, the selection outline), each re-uploading only what changed since the
last frame; the GL plumbing is in `ui.viewport.gl` and the geometry is prepared by
`ui.viewport.meshes`, both usable without this widget.

GL failures never escape `initializeGL`/`paintGL`: they are logged, reported once through
`gl_failed(reason)`, and the widget then draws nothing.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from typing import Any

import numpy as np
from OpenGL import GL
from PySide6.QtCore import QEvent, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QFocusEvent,
    QFont,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPen,
    QWheelEvent,
)
from PySide6.QtOpenGL import QOpenGLPaintDevice
from PySide6.QtOpenGLWidgets import QOpenGLWidget
from PySide6.QtWidgets import QWidget

from clothlab.sim.core import units
from clothlab.sim.core.snapshot import Snapshot
from clothlab.sim.document.scene import CameraSpec, RulerSpec, Scene
from clothlab.sim.lab.rulers import MODEL_UNIT, fits, ruler_points, ruler_unit
from clothlab.sim.text import QT_TR_NOOP, tr
from clothlab.ui.selection import Selection
from clothlab.ui.theme import PROBE_COLOURS, focus_colour
from clothlab.ui.viewport import force_overlay, items, meshes, ruler_overlay
from clothlab.ui.viewport.camera import OrbitCamera
from clothlab.ui.viewport.gl import GLFailureError, Program, software_renderer, surface_format
from clothlab.ui.viewport.interaction import Interaction
from clothlab.ui.viewport.key_tools import KeyCursor

MSAA_SAMPLES = 4  # on a GPU
RULER_FONT_PX = 13  # in pixels, not points: the overlay's paint device has its own DPI
PROBE_MARKER_PX = 7.0  # radius of a probe's numbered disc
FOCUS_RING_PX = 3.0  # the view's keyboard focus ring, wider than a field's: it frames a big area

__all__ = ["GLFailureError", "Viewport", "software_renderer", "surface_format"]

log = logging.getLogger(__name__)


def scene_points(
    particles: np.ndarray,  # (N, 3) float64
    spheres: Sequence[tuple[Sequence[float], float]],  # (centre, radius)
    boxes: Sequence[tuple[Sequence[float], Sequence[float]]],  # (centre, full size)
) -> np.ndarray:
    """(K, 3) float64: the particles and the corners of every obstacle's bounding box."""
    points = [np.asarray(particles, dtype=np.float64).reshape(-1, 3)]
    points += [np.asarray(c) + np.outer([-1.0, 1.0], [r, r, r]) for c, r in spheres]
    points += [np.asarray(c) + np.outer([-0.5, 0.5], size) for c, size in boxes]
    return np.vstack(points)


class Viewport(QOpenGLWidget):
    """Draws snapshots; orbit/pan/zoom with the mouse. See the module docstring."""

    frame_drawn = Signal(int)  # the snapshot frame id just drawn
    camera_changed = Signal()
    gl_failed = Signal(str)  # one-line reason; the viewport stays blank afterwards
    colors_changed = Signal(str)  # what the cloth's colours show now (ViewOptions.colors)
    key_hint_changed = Signal(str)  # what the view's keys do now; "" when it lost the focus
    key_said = Signal(str)  # what a key just did ("Grabbed particle 37"), for the description

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # Without a GPU, multisampling costs more than it is worth: edges get jaggier, but
        # frames come twice as fast.
        self.setFormat(surface_format(samples=0 if software_renderer() else MSAA_SAMPLES))
        self.setMinimumSize(160, 120)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.camera = OrbitCamera.from_spec(CameraSpec())
        self._home_spec = CameraSpec()
        self._snapshot: Snapshot | None = None
        self._options = items.ViewOptions()
        self._probes: tuple[int, ...] = ()  # particles with a probe, probe 1 first
        self._drag_mode: str | None = None  # "orbit" or "pan" while the camera is dragged
        self._drag_last = QPointF()
        self._scene: Scene | None = None  # the document: its rulers, their units
        self.interaction = Interaction(self)  # the editing tools (ui.viewport.tools) and selecting
        # the keyboard's camera keys and cursor (ui.viewport.key_tools), asking for what the
        # tools do
        self.keys = KeyCursor(self, self.interaction.command_requested.emit, self.key_said.emit)
        self._reset_gl_state()

    # --- public API ------------------------------------------------------------------------

    def show_snapshot(self, snapshot: Snapshot | None) -> None:
        """Keep the newest snapshot (None: none to draw) and schedule a repaint; older ones are
        simply dropped."""
        self._snapshot = snapshot
        particle = self.keys.particle
        count = 0 if snapshot is None else snapshot.topology.particle_count
        if particle is not None and particle >= count:
            self.keys.leave()  # the bodies changed under the cursor
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

    def frame_scene(self) -> None:
        """Look at everything the newest frame holds: every particle and obstacle."""
        snapshot = self._snapshot
        if snapshot is not None and len(snapshot.x):
            s = snapshot.settings
            ball = [(s.ball_center, s.ball_radius)] if s.ball else []
            self.frame(scene_points(snapshot.x, [*ball, *snapshot.spheres], snapshot.boxes))

    def frame(self, points: np.ndarray) -> None:
        """Look at `points` ((K, 3) float64) from where the camera looks now."""
        self.camera.frame(points, self.width() / max(self.height(), 1))
        self._camera_moved()

    def set_wireframe(self, on: bool) -> None:
        self._set_options(wireframe=bool(on))

    def wireframe(self) -> bool:
        return self._options.wireframe

    def view_options(self) -> items.ViewOptions:
        return self._options

    def set_view_options(self, options: items.ViewOptions) -> None:
        """Show as another view shows (an off-screen copy for exports)."""
        if options != self._options:
            self._options = options  # the items see new options and re-upload what they show
            self.update()

    def set_stretch_colors(self, on: bool) -> None:
        self._show_colors(meshes.STRETCH, on)

    def stretch_colors(self) -> bool:
        return self._options.colors == meshes.STRETCH

    def set_tension_colors(self, on: bool) -> None:
        """The tension map: the cloth coloured by its links' tension, with a legend."""
        self._show_colors(meshes.TENSION, on)

    def tension_colors(self) -> bool:
        return self._options.colors == meshes.TENSION

    def _show_colors(self, colors: str, on: bool) -> None:
        """One map at a time: turning one on turns the other off (colors_changed says so)."""
        if on:
            self._set_options(colors=colors)
        elif self._options.colors == colors:
            self._set_options(colors="")
        self.colors_changed.emit(self._options.colors)

    def set_pin_forces(self, on: bool) -> None:
        """Arrows on the pins: the force each holds the cloth with, labelled in N."""
        self._set_options(pin_forces=bool(on))

    def pin_forces(self) -> bool:
        return self._options.pin_forces

    def set_scene(self, scene: Scene | None) -> None:
        """Learn the order of the scene's obstacles (call on every load and edit): snapshots
        list spheres and boxes apart, and picking, dragging and the outline need each one's
        scene index. Until then, spheres are taken to come before boxes."""
        kinds = None if scene is None else tuple(o.kind for o in scene.obstacles)
        self._set_options(obstacle_kinds=kinds)
        if scene is None or self._scene is None or scene.rulers != self._scene.rulers:
            self.update()
        self._scene = scene

    def rulers(self) -> list[RulerSpec]:
        """The document's rulers, as the last `set_scene` gave them."""
        return [] if self._scene is None else list(self._scene.rulers)

    def ruler_font(self) -> QFont:
        font = QFont(self.font())
        font.setPixelSize(RULER_FONT_PX)
        return font

    def ruler_mark(self, ruler: RulerSpec) -> ruler_overlay.RulerMark | None:
        """A ruler not (yet) in the document, laid out on the newest frame: the one the Ruler
        tool is drawing. None before the first frame or with an end behind the eye."""
        snapshot = self._snapshot
        if snapshot is None or not fits(ruler, len(snapshot.x)):
            return None
        scene = self._scene
        unit = ruler_unit(scene, snapshot.topology, ruler) if scene is not None else MODEL_UNIT
        points = ruler_points(ruler, snapshot.x)
        return ruler_overlay.mark_of(-1, points, unit, self.project, self.ruler_font())

    def ruler_marks(self) -> list[ruler_overlay.RulerMark]:
        """The rulers as the view draws them on the newest frame: ends, label text and box."""
        snapshot = self._snapshot
        if snapshot is None or self._scene is None:
            return []
        return ruler_overlay.ruler_marks(
            self._scene.rulers, self._scene, snapshot, self.project, self.ruler_font()
        )

    def obstacle_kinds(self) -> tuple[str, ...] | None:
        return self._options.obstacle_kinds

    def set_probes(self, particles: Sequence[int]) -> None:
        """Mark these particles' probes (probe 1 first), each in its colour, from the next
        frame on (call on every load and edit)."""
        probes = tuple(int(p) for p in particles)
        if probes != self._probes:
            self._probes = probes
            self.update()

    def probes(self) -> tuple[int, ...]:
        return self._probes

    def set_selection(self, selection: Selection | None, scene: Scene | None = None) -> None:
        """Outline `selection` (None: nothing) from the next frame on, following every new
        snapshot; `scene`, when given, is passed to `set_scene` first."""
        if scene is not None:
            self.set_scene(scene)
        self._set_options(selection=selection)

    def selection(self) -> Selection | None:
        return self._options.selection

    def _set_options(self, **changes: Any) -> None:
        self.set_view_options(dataclasses.replace(self._options, **changes))

    def project(self, points: np.ndarray) -> np.ndarray:
        """(N, 2) float64 widget (logical) pixel coordinates of (N, 3) world points, top-left
        origin; NaN rows for points behind the eye."""
        return self.camera.project(points, self.width(), self.height())

    def ray(self, x: float, y: float) -> tuple[np.ndarray, np.ndarray]:
        """(origin, unit direction) of the ray under widget pixel (x, y), for picking."""
        return self.camera.ray(x, y, self.width(), self.height())

    def is_gl_ok(self) -> bool:
        return self._gl_ok

    # --- keyboard (ui.viewport.key_tools) --------------------------------------------------------

    def event(self, event: QEvent) -> bool:
        # The view's keys come before the window's shortcuts while it has the focus: P and K
        # are the cursor's when it shows, the Pin tool's otherwise.
        overriding = event.type() == QEvent.Type.ShortcutOverride
        if overriding and isinstance(event, QKeyEvent) and self.keys.wants(event):
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt override)
        if self.keys.key(event, self.width(), self.height()):
            event.accept()
            self._camera_moved()
            self.key_hint_changed.emit(self.keys.hint())
            return
        super().keyPressEvent(event)

    def focusNextPrevChild(self, forward: bool) -> bool:  # noqa: N802 (Qt override)
        """With the cursor showing, Tab goes to the next body, pin or obstacle; past the last
        (or without a cursor) the focus leaves the view as from any widget."""
        if self.keys.tab(forward):
            self.key_hint_changed.emit(self.keys.hint())
            return True
        return super().focusNextPrevChild(forward)

    # --- mouse: overridable hooks ------------------------------------------------------------
    # Editing tools will claim presses first (`_tool_press` returning True); whatever they
    # leave drives the camera.

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt override)
        if not self.keys.active:
            self.key_hint_changed.emit("")  # the mouse's turn: the tool's hint again
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
            self.interaction.finish_click(event)  # a select click the camera was holding
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
        if self.interaction.holds_click(position):
            return  # still a (select) click: the camera waits until the pointer really moves
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
        self._programs: dict[str, Program] = {}
        self._items: list[items.Item] = []

    def initializeGL(self) -> None:  # noqa: N802 (Qt override)
        # A re-parented QOpenGLWidget gets a fresh context; everything is created again.
        self._reset_gl_state()
        try:
            context = self.context()
            if context is None or not context.isValid():
                raise GLFailureError(QT_TR_NOOP("no valid OpenGL context"))
            fmt = context.format()
            if (fmt.majorVersion(), fmt.minorVersion()) < (3, 3):
                raise GLFailureError(
                    QT_TR_NOOP("OpenGL 3.3 is needed, the driver offers {version}"),
                    version=f"{fmt.majorVersion()}.{fmt.minorVersion()}",
                )
            context.aboutToBeDestroyed.connect(self._release_gl)
            for name in items.PROGRAM_NAMES:
                self._programs[name] = Program(name)
            self._items = items.scene_items()
            for item in self._items:
                item.create(self._programs)
            self._gl_ok = True
        except Exception as error:
            self._fail(error)

    def _release_gl(self) -> None:
        if not self._programs and not self._items:
            return
        self.makeCurrent()
        try:
            for item in self._items:
                item.release()
            for program in self._programs.values():
                program.delete()
        except Exception as error:  # the context is going away; nothing else to do
            log.debug("releasing GL objects failed: %s", error)
        finally:
            self.doneCurrent()
        self._reset_gl_state()

    def _fail(self, error: BaseException) -> None:
        self._gl_ok = False
        failure = isinstance(error, GLFailureError)
        if isinstance(error, GLFailureError):  # the log's reason in English, the user's shown
            reason, shown = str(error), error.shown()
        else:
            reason = f"OpenGL error: {error}"
            shown = tr("OpenGL error: {error}").format(error=error)
        reason = " ".join(reason.split())[:300]
        shown = " ".join(shown.split())[:300]
        if not self._failure_reported:
            self._failure_reported = True
            log.error("viewport cannot draw: %s", reason, exc_info=not failure)
            self.gl_failed.emit(shown)

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
        overlays = (self.interaction.has_overlay(), self.keys.has_overlay(), self._shows_focus())
        if any(overlays) or self._shows_forces() or self.rulers() or self._probes:
            self._paint_overlay()
        if snapshot is not None:
            self.frame_drawn.emit(snapshot.frame)

    def _paint_overlay(self) -> None:
        """The rulers and the tool's overlay (the cut stroke, the ruler being drawn), painted
        into the framebuffer itself. A QPainter
        on the widget would do on screen, but while QWidget.grab() renders the window
        (screenshots) Qt redirects such a painter to the grabbed image and then covers it with
        the framebuffer."""
        ratio = self.devicePixelRatioF()
        device = QOpenGLPaintDevice(round(self.width() * ratio), round(self.height() * ratio))
        device.setDevicePixelRatio(ratio)
        painter = QPainter(device)  # Qt restores its own GL state around the painter
        if self._shows_forces():
            self._paint_forces(painter)
        ruler_overlay.paint_marks(painter, self.ruler_marks(), self.ruler_font())
        if self._probes and self._snapshot is not None:
            self._paint_probes(painter, self._snapshot)
        if self.interaction.has_overlay():
            self.interaction.paint_overlay(painter)
        if self.keys.has_overlay():
            self.keys.paint(painter)
        if self._shows_focus():
            self._paint_focus_ring(painter)
        painter.end()

    def _paint_probes(self, painter: QPainter, snapshot: Snapshot) -> None:
        """Each probe's marker: a disc in its colour, numbered, on its particle. Drawn over the
        cloth, so a probe behind a fold still shows where it is."""
        inside = [(k, p) for k, p in enumerate(self._probes) if p < len(snapshot.x)]
        if not inside:
            return
        screen = self.project(snapshot.x[[p for _, p in inside]])
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        font = painter.font()
        font.setBold(True)
        font.setPointSizeF(7.5)
        painter.setFont(font)
        for (slot, _particle), (x, y) in zip(inside, screen, strict=True):
            if not (np.isfinite(x) and np.isfinite(y)):
                continue  # behind the eye
            centre = QPointF(float(x), float(y))
            painter.setPen(QPen(QColor("white"), 1.5))
            painter.setBrush(QColor(PROBE_COLOURS[slot]))
            painter.drawEllipse(centre, PROBE_MARKER_PX, PROBE_MARKER_PX)
            box = QRectF(centre.x() - PROBE_MARKER_PX, centre.y() - PROBE_MARKER_PX,
                         2 * PROBE_MARKER_PX, 2 * PROBE_MARKER_PX)  # fmt: skip
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter, str(slot + 1))
        painter.setBrush(Qt.BrushStyle.NoBrush)

    def _shows_forces(self) -> bool:
        options = self._options
        return self._snapshot is not None and (bool(options.colors) or options.pin_forces)

    def _paint_forces(self, painter: QPainter) -> None:
        snapshot, options = self._snapshot, self._options
        assert snapshot is not None
        if options.pin_forces:
            force_overlay.paint_pin_forces(painter, snapshot, self.project)
        if options.colors:
            bodies = next((i for i in self._items if isinstance(i, items.Bodies)), None)
            mesh = bodies.mesh if bodies is not None else None
            scale, unit = (
                (mesh.tension_scale, mesh.tension_unit) if mesh is not None else (0.0, units.FORCE)
            )
            force_overlay.paint_legend(painter, options.colors, scale, unit)

    def _shows_focus(self) -> bool:
        """The view has the focus and it came by the keyboard (Tab, F6), as a button's ring."""
        return self.hasFocus() and self.window().testAttribute(
            Qt.WidgetAttribute.WA_KeyboardFocusChange
        )

    def _paint_focus_ring(self, painter: QPainter) -> None:
        inset = FOCUS_RING_PX / 2
        painter.setPen(QPen(focus_colour(self.palette()), FOCUS_RING_PX))
        painter.drawRect(QRectF(self.rect()).adjusted(inset, inset, -inset, -inset))

    def focusInEvent(self, event: QFocusEvent) -> None:  # noqa: N802 (Qt override)
        super().focusInEvent(event)
        self.update()  # the ring
        # reached by the keyboard, the status bar says what the keys do here; a click keeps
        # the tool's hint
        keyboard = (
            Qt.FocusReason.TabFocusReason, Qt.FocusReason.BacktabFocusReason,
            Qt.FocusReason.ShortcutFocusReason,
        )  # fmt: skip
        if event.reason() in keyboard or self.keys.active:
            self.key_hint_changed.emit(self.keys.hint())

    def focusOutEvent(self, event: QFocusEvent) -> None:  # noqa: N802 (Qt override)
        super().focusOutEvent(event)
        self.keys.put_down()  # a grab held by the keyboard ends as the keys go elsewhere
        self.update()
        self.key_hint_changed.emit("")

    def _draw(self, snapshot: Snapshot | None) -> None:
        ratio = self.devicePixelRatioF()
        size_px = (max(1, round(self.width() * ratio)), max(1, round(self.height() * ratio)))
        GL.glViewport(0, 0, *size_px)
        GL.glClearColor(*items.BACKGROUND_TOP, 1.0)
        GL.glClearStencil(0)
        GL.glDepthMask(GL.GL_TRUE)
        GL.glStencilMask(0xFF)
        GL.glClear(GL.GL_COLOR_BUFFER_BIT | GL.GL_DEPTH_BUFFER_BIT | GL.GL_STENCIL_BUFFER_BIT)
        GL.glEnable(GL.GL_DEPTH_TEST)
        GL.glDepthFunc(GL.GL_LEQUAL)
        GL.glDisable(GL.GL_CULL_FACE)  # cloth is seen from both sides

        frame = items.Frame(
            view_projection=self.camera.view_projection(self.width() / max(self.height(), 1)),
            eye=np.asarray(self.camera.eye(), dtype=np.float64),
            size_px=size_px,
            ratio=ratio,
        )
        # Everything is uploaded before anything is drawn: the shadows, drawn early, are cast
        # by the bodies and the ball, which upload later in the list.
        for item in self._items:
            item.upload(snapshot, self._options)
        for item in self._items:
            item.draw(frame)
        GL.glBindVertexArray(0)
        GL.glUseProgram(0)
