"""Editing tools in the viewport: grab, pin, cut and ball.

The interaction turns mouse gestures into intents (signals); it never touches the simulation.
Left-button gestures belong to the active tool where the tool finds something to act on;
everything else (right or middle drags, left drags on empty background) moves the camera.
"""

from __future__ import annotations

from enum import Enum

import numpy as np
from PySide6.QtCore import QObject, QPointF, Qt, Signal
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QWidget

from clothlab.sim.edits import links_crossing_stroke
from clothlab.sim.snapshot import Snapshot
from clothlab.ui import picking

PICK_RADIUS_PX = 14.0  # how close on screen a pin or particle must be to the pointer
CLICK_SLOP_PX = 4.0  # a press and release closer than this is a click, not a drag


class Tool(Enum):
    GRAB = "grab"
    PIN = "pin"
    CUT = "cut"
    BALL = "ball"


TOOL_HINTS = {
    Tool.GRAB: "Grab: drag the cloth or the block; right-drag orbits, middle-drag pans.",
    Tool.PIN: "Pin: click a particle to pin or unpin it; drag a pin to move its anchor.",
    Tool.CUT: "Cut: drag a stroke across the cloth; every link it crosses is cut.",
    Tool.BALL: "Ball: drag the ball to move it; right-drag orbits.",
}

_CURSORS = {
    Tool.GRAB: Qt.CursorShape.OpenHandCursor,
    Tool.PIN: Qt.CursorShape.PointingHandCursor,
    Tool.CUT: Qt.CursorShape.CrossCursor,
    Tool.BALL: Qt.CursorShape.SizeAllCursor,
}


class Interaction(QObject):
    """The active tool's state machine; lives beside the Viewport it serves."""

    tool_changed = Signal(object)  # Tool
    grab_requested = Signal(int, object)  # particle, target (3,)
    grab_move_requested = Signal(object)  # target (3,)
    release_requested = Signal()
    pin_toggle_requested = Signal(int, object)  # particle, anchor (3,) to pin at, or None
    pin_move_requested = Signal(int, object)  # particle, anchor: a live preview of a drag
    pin_move_finished = Signal(int, object, object)  # particle, anchor before, anchor after
    cut_requested = Signal(object)  # (K,) link indices crossed by a stroke
    ball_move_requested = Signal(object)  # centre: live preview
    ball_move_finished = Signal(object, object)  # centre before, centre after

    def __init__(self, view: QWidget) -> None:
        super().__init__(view)
        self.view = view  # a ui.viewport.Viewport
        self.tool = Tool.GRAB
        self._gesture: str | None = None  # "grab", "pin", "pin-click", "cut", "ball"
        self._subject = -1  # particle grabbed or pin dragged
        self._start = np.zeros(3)  # anchor or ball centre when the drag began
        self._current = np.zeros(3)
        self._plane_point = np.zeros(3)
        self._press = QPointF()
        self.stroke: list[QPointF] = []

    def set_tool(self, tool: Tool) -> None:
        if tool != self.tool:
            self.cancel()
            self.tool = tool
            self.tool_changed.emit(tool)
        self.view.setCursor(_CURSORS[tool])

    @property
    def busy(self) -> bool:
        return self._gesture is not None

    # --- gestures ------------------------------------------------------------------------------

    def press(self, event: QMouseEvent) -> bool:
        """True when the press starts a tool gesture (otherwise the camera takes it)."""
        snapshot = self.view.snapshot()
        if event.button() != Qt.MouseButton.LeftButton or snapshot is None:
            return False
        if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            return False  # Shift-drag pans in every tool
        self._press = event.position()
        begin = {
            Tool.GRAB: self._begin_grab,
            Tool.PIN: self._begin_pin,
            Tool.CUT: self._begin_cut,
            Tool.BALL: self._begin_ball,
        }[self.tool]
        started = begin(snapshot, event.position())
        if started:
            event.accept()
        return started

    def move(self, event: QMouseEvent) -> None:
        if self._gesture is None:
            return
        position = event.position()
        if self._gesture == "cut":
            self.stroke.append(position)
            self.view.update()
            return
        if self._gesture == "pin-click":
            if (position - self._press).manhattanLength() <= CLICK_SLOP_PX:
                return
            return  # a press on an unpinned particle that turns into a drag does nothing
        point = self._on_drag_plane(position)
        if point is None:
            return
        self._current = point
        if self._gesture == "grab":
            self.grab_move_requested.emit(point)
        elif self._gesture == "pin":
            self.pin_move_requested.emit(self._subject, point)
        elif self._gesture == "ball":
            self.ball_move_requested.emit(point)

    def release(self, event: QMouseEvent) -> None:
        gesture, self._gesture = self._gesture, None
        if gesture is None:
            return
        moved = (event.position() - self._press).manhattanLength() > CLICK_SLOP_PX
        if gesture == "grab":
            self.release_requested.emit()
            self.view.setCursor(_CURSORS[self.tool])
        elif gesture == "pin":
            if moved:
                self.pin_move_finished.emit(self._subject, self._start, self._current)
            else:
                self.pin_toggle_requested.emit(self._subject, None)  # a click on a pin unpins
        elif gesture == "pin-click":
            if not moved:
                position = self.view.snapshot().x[self._subject].copy()
                self.pin_toggle_requested.emit(self._subject, position)
        elif gesture == "cut":
            self._finish_cut()
        elif gesture == "ball" and moved:
            self.ball_move_finished.emit(self._start, self._current)
        event.accept()

    def cancel(self) -> None:
        """Drop a gesture in progress (tool switch, scene change); a grab lets go."""
        if self._gesture == "grab":
            self.release_requested.emit()
        self._gesture = None
        self.stroke = []
        self.view.update()

    # --- starting each tool's gesture ------------------------------------------------------------

    def _begin_grab(self, snapshot: Snapshot, position: QPointF) -> bool:
        particle = self._particle_at(snapshot, position, free_only=True)
        if particle is None:
            return False
        self._start_drag("grab", particle, snapshot.x[particle])
        self.grab_requested.emit(particle, self._current.copy())
        self.view.setCursor(Qt.CursorShape.ClosedHandCursor)
        return True

    def _begin_pin(self, snapshot: Snapshot, position: QPointF) -> bool:
        if len(snapshot.pin_index):
            screen = self.view.project(snapshot.pin_anchor)
            k = picking.nearest_on_screen(screen, (position.x(), position.y()), PICK_RADIUS_PX)
            if k is not None:
                self._start_drag("pin", int(snapshot.pin_index[k]), snapshot.pin_anchor[k])
                return True
        particle = self._particle_at(snapshot, position, free_only=True)
        if particle is None:
            return False
        self._gesture, self._subject = "pin-click", particle
        return True

    def _begin_cut(self, snapshot: Snapshot, position: QPointF) -> bool:
        self._gesture = "cut"
        self.stroke = [position]
        return True

    def _begin_ball(self, snapshot: Snapshot, position: QPointF) -> bool:
        settings = snapshot.settings
        if not settings.ball:
            return False
        centre = np.asarray(settings.ball_center, dtype=np.float64)
        origin, direction = self.view.ray(position.x(), position.y())
        to_centre = centre - origin
        along = float(np.dot(to_centre, direction))
        miss = float(np.linalg.norm(to_centre - along * direction))
        if along <= 0.0 or miss > settings.ball_radius:
            return False
        self._start_drag("ball", -1, centre)
        return True

    def _start_drag(self, gesture: str, subject: int, point: np.ndarray) -> None:
        self._gesture, self._subject = gesture, subject
        self._start = np.array(point, dtype=np.float64)
        self._current = self._start.copy()
        self._plane_point = self._start.copy()

    # --- helpers -------------------------------------------------------------------------------

    def _particle_at(self, snapshot: Snapshot, position: QPointF, free_only: bool) -> int | None:
        origin, direction = self.view.ray(position.x(), position.y())
        screen = self.view.project(snapshot.x)
        return picking.pick_particle(
            snapshot, origin, direction, screen, (position.x(), position.y()), PICK_RADIUS_PX,
            free_only,
        )  # fmt: skip

    def _on_drag_plane(self, position: QPointF) -> np.ndarray | None:
        """The pointer on the camera-facing plane through the dragged thing's start."""
        origin, direction = self.view.ray(position.x(), position.y())
        _, _, forward = self.view.camera.basis()
        return picking.drag_plane_point(origin, direction, self._plane_point, forward)

    def _finish_cut(self) -> None:
        snapshot = self.view.snapshot()
        stroke = np.array([(p.x(), p.y()) for p in self.stroke], dtype=np.float64)
        self.stroke = []
        self.view.update()
        if snapshot is None or len(stroke) < 2:
            return
        screen = self.view.project(snapshot.x)
        crossed = links_crossing_stroke(
            screen, snapshot.topology.links, snapshot.link_alive, stroke
        )
        if len(crossed):
            self.cut_requested.emit(crossed)

    # --- overlay -------------------------------------------------------------------------------

    def paint_overlay(self, painter: QPainter) -> None:
        """The cut stroke, drawn over the 3D view while it is being made."""
        if len(self.stroke) < 2:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        glow = QPen(QColor(255, 255, 255, 90), 7.0)
        glow.setCapStyle(Qt.PenCapStyle.RoundCap)
        glow.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        painter.setPen(glow)
        polyline = QPolygonF(self.stroke)
        painter.drawPolyline(polyline)
        blade = QPen(QColor(255, 214, 64), 2.0, Qt.PenStyle.DashLine)
        painter.setPen(blade)
        painter.drawPolyline(polyline)
