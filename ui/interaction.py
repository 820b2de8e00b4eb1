"""Editing tools in the viewport: select, grab, pin, cut and move obstacle.

The interaction turns mouse gestures into intents (signals); it never touches the simulation.
Left-button gestures belong to the active tool where the tool finds something to act on;
everything else (right or middle drags, left drags on empty background) moves the camera.

Selecting is a click, not a drag: with the Select tool, or Ctrl held in any tool, a left press
goes to the camera as usual, and a release without moving selects what is under the pointer
(`selection_requested`). Ctrl, not Alt: many Linux window managers take Alt-drags to move the
window.
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
from clothlab.ui.selection import Selection

PICK_RADIUS_PX = 14.0  # how close on screen a pin or particle must be to the pointer
CLICK_SLOP_PX = 4.0  # a press and release closer than this is a click, not a drag


class Tool(Enum):
    SELECT = "select"
    GRAB = "grab"
    PIN = "pin"
    CUT = "cut"
    BALL = "ball"  # moves the ball or any other obstacle


TOOL_HINTS = {
    Tool.SELECT: "Select: click a body or an obstacle to select it, the background to select "
    "nothing; drag to orbit. Ctrl+click selects in every tool.",
    Tool.GRAB: "Grab: drag the cloth or the block; right-drag orbits, middle-drag pans. "
    "Ctrl+click selects.",
    Tool.PIN: "Pin: click a particle to pin or unpin it; drag a pin to move its anchor. "
    "Ctrl+click selects.",
    Tool.CUT: "Cut: drag a stroke across the cloth; every link it crosses is cut. "
    "Ctrl+click selects.",
    Tool.BALL: "Move: drag the ball or any obstacle to move it; right-drag orbits. "
    "Ctrl+click selects.",
}

_CURSORS = {
    Tool.SELECT: Qt.CursorShape.ArrowCursor,
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
    # Obstacle index (into scene.obstacles, BALL for the ball) and its new centre (3,): a live
    # preview while it is dragged; then index, centre before, centre after on release.
    obstacle_move_requested = Signal(int, object)
    obstacle_move_finished = Signal(int, object, object)
    selection_requested = Signal(object)  # Selection, or None for a click on the background

    def __init__(self, view: QWidget) -> None:
        super().__init__(view)
        self.view = view  # a ui.viewport.Viewport
        self.tool = Tool.GRAB
        self._gesture: str | None = None  # "grab", "pin", "pin-click", "cut", "move"
        self._subject = -1  # particle grabbed, pin dragged or obstacle moved
        self._start = np.zeros(3)  # anchor or obstacle centre when the drag began
        self._click_pending = False  # a select click the camera holds (holds_click)
        self._current = np.zeros(3)
        self._plane_point = np.zeros(3)
        self._offset = np.zeros(3)  # from the pointer on the drag plane to the dragged point
        self._press = QPointF()
        self.stroke: list[QPointF] = []

    def set_tool(self, tool: Tool) -> None:
        if tool != self.tool:
            self.cancel()
            self.tool = tool
            self.tool_changed.emit(tool)
        self.view.setCursor(_CURSORS[tool])

    # --- gestures ------------------------------------------------------------------------------

    def press(self, event: QMouseEvent) -> bool:
        """True when the press starts a tool gesture (otherwise the camera takes it)."""
        snapshot = self.view.snapshot()
        if event.button() != Qt.MouseButton.LeftButton or snapshot is None:
            return False
        if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            return False  # Shift-drag pans in every tool
        self._press = event.position()
        if self.tool is Tool.SELECT or event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            self._click_pending = True
            return False  # the camera takes the press; a release without a drag selects
        begin = {
            Tool.GRAB: self._begin_grab,
            Tool.PIN: self._begin_pin,
            Tool.CUT: self._begin_cut,
            Tool.BALL: self._begin_move,
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
        point = point + self._offset
        self._current = point
        if self._gesture == "grab":
            self.grab_move_requested.emit(point)
        elif self._gesture == "pin":
            self.pin_move_requested.emit(self._subject, point)
        elif self._gesture == "move":
            self.obstacle_move_requested.emit(self._subject, point)

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
        elif gesture == "move" and moved:
            self.obstacle_move_finished.emit(self._subject, self._start, self._current)
        event.accept()

    def cancel(self) -> None:
        """Drop a gesture in progress (tool switch, scene change); a grab lets go."""
        if self._gesture == "grab":
            self.release_requested.emit()
        self._gesture = None
        self._click_pending = False
        self.stroke = []
        self.view.update()

    # --- selecting: a click the camera holds -----------------------------------------------------

    def holds_click(self, position: QPointF) -> bool:
        """While a select click is pending and the pointer has not left CLICK_SLOP_PX, the
        camera should not move; once it has, the press is a camera drag, not a click."""
        if self._click_pending and (position - self._press).manhattanLength() > CLICK_SLOP_PX:
            self._click_pending = False
        return self._click_pending

    def finish_click(self, event: QMouseEvent) -> None:
        """The camera drag of a pending select click ended: select if it never moved."""
        pending, self._click_pending = self._click_pending, False
        if not pending or event.button() != Qt.MouseButton.LeftButton:
            return
        if (event.position() - self._press).manhattanLength() <= CLICK_SLOP_PX:
            position = event.position()
            self.selection_requested.emit(self.selection_at(position.x(), position.y()))

    def selection_at(self, x: float, y: float) -> Selection | None:
        """What a click at widget pixel (x, y) selects: the nearer of the obstacle the ray hits
        and the body whose particle is under the pointer; None on empty background."""
        snapshot = self.view.snapshot()
        if snapshot is None:
            return None
        origin, direction = self.view.ray(x, y)
        obstacle = picking.pick_obstacle(snapshot, origin, direction, self.view.obstacle_kinds())
        body = picking.pick_body(
            snapshot, origin, direction, self.view.project(snapshot.x), (x, y), PICK_RADIUS_PX
        )
        if obstacle is not None and (body is None or obstacle[1] <= body[1]):
            return Selection("obstacle", obstacle[0])
        return None if body is None else Selection("body", body[0])

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

    def _begin_move(self, snapshot: Snapshot, position: QPointF) -> bool:
        origin, direction = self.view.ray(position.x(), position.y())
        candidates = picking.obstacles(snapshot, self.view.obstacle_kinds())
        hit = picking.nearest_obstacle(candidates, origin, direction)
        if hit is None:
            return False
        self._start_drag("move", hit[0].index, hit[0].center)
        # The drag plane goes through the centre; the obstacle keeps its place under the
        # pointer (a box grabbed by a corner does not jump to centre itself on it).
        grabbed = self._on_drag_plane(position)
        if grabbed is not None:
            self._offset = self._start - grabbed
        return True

    def _start_drag(self, gesture: str, subject: int, point: np.ndarray) -> None:
        self._gesture, self._subject = gesture, subject
        self._start = np.array(point, dtype=np.float64)
        self._current = self._start.copy()
        self._plane_point = self._start.copy()
        self._offset = np.zeros(3)

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
