"""The 3D view's mouse gestures: the active tool's (ui.viewport.tools), the camera's, and selecting.

The interaction hands left-button presses to the active tool, which turns its gestures into
command records, emitted here on `command_requested`; it never touches the simulation.
Left-button gestures belong to the active tool where the tool finds something to act on;
everything else (right or middle drags, left drags on empty background) moves the camera.

Selecting is a click, not a drag: with the Select tool, or Ctrl held in any tool, a left press
goes to the camera as usual, and a release without moving selects what is under the pointer
(a Select request). Ctrl, not Alt: many Linux window managers take Alt-drags to move the
window.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QPointF, Qt, Signal
from PySide6.QtGui import QMouseEvent, QPainter

from clothlab.ui.intents import Select
from clothlab.ui.selection import Selection
from clothlab.ui.viewport import picking
from clothlab.ui.viewport.tools import DEFAULT_TOOL, PICK_RADIUS_PX, TOOLS, Tool

if TYPE_CHECKING:  # the viewport makes its interaction
    from clothlab.ui.viewport.viewport import Viewport

CLICK_SLOP_PX = 4.0  # a press and release closer than this is a click, not a drag


class Interaction(QObject):
    """The tools of one view (one instance of each row of ui.viewport.tools.TOOLS) and which is
    active; lives beside the Viewport it serves."""

    tool_changed = Signal(str)  # the active tool's name (a row of ui.viewport.tools.TOOLS)
    command_requested = Signal(object)  # what the tools and selecting clicks ask for

    def __init__(self, view: Viewport) -> None:
        super().__init__(view)
        self.view = view
        emit = self.command_requested.emit
        self.tools: dict[str, Tool] = {row.name: row.tool(view, emit) for row in TOOLS}
        self.tool = DEFAULT_TOOL
        self._taken = False  # the active tool took the left press: its gesture is under way
        self._click_pending = False  # a select click the camera holds (holds_click)
        self._press = QPointF()
        view.setCursor(self.active.cursor)

    @property
    def active(self) -> Tool:
        return self.tools[self.tool]

    def set_tool(self, name: str) -> None:
        if name != self.tool:
            self.cancel()
            self.tool = name
            self.tool_changed.emit(name)
        self.view.setCursor(self.active.cursor)

    # --- gestures ------------------------------------------------------------------------------

    def press(self, event: QMouseEvent) -> bool:
        """True when the press starts a tool gesture (otherwise the camera takes it)."""
        snapshot = self.view.snapshot()
        if event.button() != Qt.MouseButton.LeftButton or snapshot is None:
            return False
        if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            return False  # Shift-drag pans in every tool
        self._press = event.position()
        if self.active.clicks_select or event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            self._click_pending = True
            return False  # the camera takes the press; a release without a drag selects
        self._taken = self.active.press(snapshot, event.position())
        if self._taken:
            event.accept()
        return self._taken

    def move(self, event: QMouseEvent) -> None:
        if self._taken:
            self.active.move(event.position())

    def release(self, event: QMouseEvent) -> None:
        taken, self._taken = self._taken, False
        if not taken:
            return
        moved = (event.position() - self._press).manhattanLength() > CLICK_SLOP_PX
        self.active.release(event.position(), moved)
        event.accept()

    def cancel(self) -> None:
        """Drop a gesture in progress (tool switch, scene change); a grab lets go."""
        taken, self._taken = self._taken, False
        if taken:
            self.active.cancel()
        self._click_pending = False
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
            self.command_requested.emit(Select(self.selection_at(position.x(), position.y())))

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

    # --- overlay -------------------------------------------------------------------------------

    def has_overlay(self) -> bool:
        return self._taken and self.active.has_overlay()

    def paint_overlay(self, painter: QPainter) -> None:
        """What the active tool draws over the 3D view while its gesture lasts (a cut stroke)."""
        self.active.paint(painter)
