"""The 3D view's editing tools: one small class per tool, and TOOLS, one row per tool, from which
the Tool menu and toolbar entries (ui.window.actions), the status bar's hint and the view's dispatch
(ui.viewport.interaction) all come. A new tool is a class here and a row in TOOLS.

A tool turns the left-button gestures it takes into command records (sim.document.commands,
.edits, .requests) and hands them to `emit`; it never touches the simulation. What a tool does at
a point or along a stroke it states once, in class methods that make the records: the mouse
drives them here, and the keyboard cursor (ui.viewport.key_tools) drives the same ones — a
DragTool's lift, drag and drop by Enter and the arrows, another tool's `at_cursor` by its
`cursor_key`. `press` says
whether the tool takes the gesture; when it does not, the camera does. Selecting is not a
tool's gesture: every tool selects on Ctrl+click and the Select tool on every click
(`clicks_select`), both done by ui.viewport.interaction.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Protocol

import numpy as np
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen, QPolygonF

from clothlab.sim.core.snapshot import Snapshot
from clothlab.sim.document import composition
from clothlab.sim.document.commands import EditRulers, GrabMove, GrabRelease, GrabStart
from clothlab.sim.document.edits import CutLinks, SetPin, links_crossing_stroke
from clothlab.sim.document.requests import ChangeSetting, Compose, Preview, ToggleProbe
from clothlab.sim.document.scene import RulerEnd, RulerSpec
from clothlab.sim.lab.rulers import end_position, particle_end, point_end, ruler_length
from clothlab.sim.text import QT_TR_NOOP, tr
from clothlab.ui.selection import BALL
from clothlab.ui.viewport import picking, ruler_overlay
from clothlab.ui.viewport.camera import OrbitCamera

PICK_RADIUS_PX = 14.0  # how close on screen a pin or particle must be to the pointer
Vec3 = tuple[float, float, float]
Emit = Callable[[object], None]


class ToolView(Protocol):
    """What a tool sees of the 3D view (ui.viewport.Viewport)."""

    camera: OrbitCamera

    def snapshot(self) -> Snapshot | None: ...

    def project(self, points: np.ndarray) -> np.ndarray: ...

    def ray(self, x: float, y: float) -> tuple[np.ndarray, np.ndarray]: ...

    def obstacle_kinds(self) -> tuple[str, ...] | None: ...

    def rulers(self) -> list[RulerSpec]: ...

    def ruler_marks(self) -> list[ruler_overlay.RulerMark]: ...

    def ruler_mark(self, ruler: RulerSpec) -> ruler_overlay.RulerMark | None: ...

    def ruler_font(self) -> QFont: ...

    def setCursor(self, cursor: Qt.CursorShape) -> None: ...  # noqa: N802 (Qt's name)

    def update(self) -> None: ...


class CursorSpot(Protocol):
    """What a tool's key sees of the keyboard cursor (ui.viewport.key_tools.KeyCursor)."""

    view: ToolView
    emit: Emit
    said: Callable[[str], None]  # what the key did, in words (the view's description)
    particle: int | None  # the cursor's particle, None on an obstacle or with no cursor
    marks: list[int]  # a cut's marked ends, particles
    ruler_start: int | None  # a ruler's first end, a particle

    @property
    def holding(self) -> bool: ...  # Enter has picked something up


class Tool:
    """A tool's gesture, press to release: `move` and `release` follow only a press the tool
    took; `cancel` drops a gesture under way (a tool switch, a new scene)."""

    cursor: ClassVar[Qt.CursorShape] = Qt.CursorShape.ArrowCursor
    clicks_select: ClassVar[bool] = False  # every left click selects, as Ctrl+click does
    # the letter key that uses the tool at the keyboard cursor (`at_cursor`), "" for none, and
    # what it does there in the Keyboard shortcuts list (QT_TR_NOOP), with a note on the key
    cursor_key: ClassVar[str] = ""
    cursor_words: ClassVar[str] = ""
    cursor_note: ClassVar[str] = ""

    @classmethod
    def at_cursor(cls, cursor: CursorSpot, snapshot: Snapshot) -> None:
        """What the tool's key does at the keyboard cursor."""

    def __init__(self, view: ToolView, emit: Emit) -> None:
        self.view = view
        self.emit = emit

    def press(self, snapshot: Snapshot, position: QPointF) -> bool:
        """True when the tool takes the gesture; otherwise the camera does."""
        return False

    def move(self, position: QPointF) -> None:
        pass

    def release(self, position: QPointF, moved: bool) -> None:
        """The gesture ends; `moved`: the pointer left the click's slop, a drag, not a click."""

    def cancel(self) -> None:
        pass

    def has_overlay(self) -> bool:
        return False

    def paint(self, painter: QPainter) -> None:
        """Draw over the 3D view while the gesture lasts (has_overlay)."""


class DragTool(Tool):
    """Drags a point on the camera-facing plane through where the drag began. The keyboard
    cursor lifts what the tool drags with Enter (`lift`), moves it with the arrows (`dragged`)
    and puts it down (`dropped`), or back with Esc (`put_back`)."""

    holds_particle: ClassVar[bool] = False  # the particle itself follows (not an anchor)

    @classmethod
    def lift(
        cls, view: ToolView, snapshot: Snapshot, particle: int | None, obstacle: int | None
    ) -> tuple[int, np.ndarray] | None:
        """(subject, where it is: (3,) float64) of what the tool drags at the keyboard cursor
        (on `particle`, or on `obstacle`), or None when the tool drags nothing there."""
        return None

    @classmethod
    def lifted(cls, subject: int, point: np.ndarray) -> tuple[object | None, str]:
        """The request a lift makes (None: none) and what it says."""
        return None, ""

    @classmethod
    def dragged(cls, subject: int, point: np.ndarray) -> object:
        """The request while the subject is dragged to `point`."""
        raise NotImplementedError

    @classmethod
    def dropped(cls, subject: int, point: np.ndarray | None, start: np.ndarray) -> object:
        """The request that leaves the subject at `point`, dragged from `start`."""
        raise NotImplementedError

    @classmethod
    def put_back(cls, subject: int, start: np.ndarray) -> tuple[object, str]:
        """The request that puts the subject back at `start` (Esc), and what it says."""
        raise NotImplementedError

    @classmethod
    def dropped_words(cls, subject: int) -> str:
        return ""

    def __init__(self, view: ToolView, emit: Emit) -> None:
        super().__init__(view, emit)
        self.subject = -1  # the particle grabbed, the pin dragged or the obstacle moved
        self.start = np.zeros(3)  # where the dragged point was when the drag began
        self.current = np.zeros(3)
        self._offset = np.zeros(3)  # from the pointer on the drag plane to the dragged point

    def _start_drag(self, subject: int, point: np.ndarray) -> None:
        self.subject = subject
        self.start = np.array(point, dtype=np.float64)
        self.current = self.start.copy()
        self._offset = np.zeros(3)

    def _on_drag_plane(self, position: QPointF) -> np.ndarray | None:
        """The pointer on the camera-facing plane through the drag's start."""
        origin, direction = self.view.ray(position.x(), position.y())
        _, _, forward = self.view.camera.basis()
        return picking.drag_plane_point(origin, direction, self.start, forward)

    def _dragged_to(self, position: QPointF) -> np.ndarray | None:
        """Where the dragged point goes for the pointer at `position` (None: off the plane)."""
        point = self._on_drag_plane(position)
        if point is not None:
            self.current = point + self._offset
        return None if point is None else self.current


class SelectTool(Tool):
    """Clicks select; drags orbit (ui.viewport.interaction does both)."""

    clicks_select = True


class GrabTool(DragTool):
    """Holds a free particle at the pointer while the button is down."""

    cursor = Qt.CursorShape.OpenHandCursor

    def press(self, snapshot: Snapshot, position: QPointF) -> bool:
        particle = particle_at(self.view, snapshot, position, free_only=True)
        if particle is None:
            return False
        self._start_drag(particle, snapshot.x[particle])
        self.emit(self.lifted(particle, self.current)[0])
        self.view.setCursor(Qt.CursorShape.ClosedHandCursor)
        return True

    def move(self, position: QPointF) -> None:
        point = self._dragged_to(position)
        if point is not None:
            self.emit(self.dragged(self.subject, point))

    def release(self, position: QPointF, moved: bool) -> None:
        self.emit(self.dropped(self.subject, self.current, self.start))
        self.view.setCursor(self.cursor)

    def cancel(self) -> None:
        self.emit(GrabRelease())  # a grab lets go

    holds_particle = True

    @classmethod
    def lift(
        cls, view: ToolView, snapshot: Snapshot, particle: int | None, obstacle: int | None
    ) -> tuple[int, np.ndarray] | None:
        pinned = particle in np.asarray(snapshot.pin_index).tolist()
        if particle is None or obstacle is not None or pinned:
            return None
        return particle, np.array(snapshot.x[particle], dtype=np.float64)

    @classmethod
    def lifted(cls, subject: int, point: np.ndarray) -> tuple[object | None, str]:
        said = tr("Grabbed particle {particle}; arrows move it, Enter lets go")
        return GrabStart(subject, vec3(point)), said.format(particle=subject)

    @classmethod
    def dragged(cls, subject: int, point: np.ndarray) -> object:
        return GrabMove(vec3(point))

    @classmethod
    def dropped(cls, subject: int, point: np.ndarray | None, start: np.ndarray) -> object:
        return GrabRelease()

    @classmethod
    def put_back(cls, subject: int, start: np.ndarray) -> tuple[object, str]:
        return GrabRelease(), cls.dropped_words(subject)  # a grab only lets go

    @classmethod
    def dropped_words(cls, subject: int) -> str:
        return tr("Let go of particle {particle}").format(particle=subject)


class PinTool(DragTool):
    """A click on a free particle pins it where it is (in the run; the set-up pins it at its rest
    place), a click on a pin unpins it, a drag of a pin moves its anchor, on purpose (shown live,
    one undoable edit on release)."""

    cursor = Qt.CursorShape.PointingHandCursor

    def __init__(self, view: ToolView, emit: Emit) -> None:
        super().__init__(view, emit)
        self.dragging = False  # a pin; else a free particle that a click would pin

    def press(self, snapshot: Snapshot, position: QPointF) -> bool:
        self.dragging = False
        if len(snapshot.pin_index):
            screen = self.view.project(snapshot.pin_anchor)
            k = picking.nearest_on_screen(screen, (position.x(), position.y()), PICK_RADIUS_PX)
            if k is not None:
                self._start_drag(int(snapshot.pin_index[k]), snapshot.pin_anchor[k])
                self.dragging = True
                return True
        particle = particle_at(self.view, snapshot, position, free_only=True)
        if particle is None:
            return False
        self.subject = particle
        return True

    def move(self, position: QPointF) -> None:
        if not self.dragging:
            return  # a press on an unpinned particle that turns into a drag does nothing
        point = self._dragged_to(position)
        if point is not None:
            self.emit(self.dragged(self.subject, point))

    def release(self, position: QPointF, moved: bool) -> None:
        if self.dragging:
            anchor = self.current if moved else None  # a click on a pin unpins it
            self.emit(self.dropped(self.subject, anchor, self.start))
            return
        snapshot = self.view.snapshot()
        if not moved and snapshot is not None:
            self.emit(pin_here(snapshot, self.subject))

    cursor_key = "P"
    cursor_words = QT_TR_NOOP("Cursor: pin or unpin")

    @classmethod
    def at_cursor(cls, cursor: CursorSpot, snapshot: Snapshot) -> None:
        """Pin the cursor's particle where it is in the run (the set-up at its rest place, as a
        click does), or unpin it."""
        particle = cursor.particle
        if particle is None or cursor.holding:
            return
        pins = list(np.asarray(snapshot.pin_index).tolist())
        if particle in pins:
            start = np.asarray(snapshot.pin_anchor[pins.index(particle)], dtype=np.float64)
            cursor.emit(cls.dropped(particle, None, start))
            cursor.said(tr("Unpinned particle {particle}").format(particle=particle))
            return
        cursor.emit(pin_here(snapshot, particle))
        cursor.said(tr("Pinned particle {particle}").format(particle=particle))

    @classmethod
    def lift(
        cls, view: ToolView, snapshot: Snapshot, particle: int | None, obstacle: int | None
    ) -> tuple[int, np.ndarray] | None:
        pins = list(np.asarray(snapshot.pin_index).tolist())
        if particle is None or obstacle is not None or particle not in pins:
            return None
        return particle, np.array(snapshot.pin_anchor[pins.index(particle)], dtype=np.float64)

    @classmethod
    def lifted(cls, subject: int, point: np.ndarray) -> tuple[object | None, str]:
        said = tr("Lifted the pin of particle {particle}; arrows move it")
        return None, said.format(particle=subject)

    @classmethod
    def dragged(cls, subject: int, point: np.ndarray) -> object:
        return Preview(SetPin(subject, vec3(point), None))  # shown live, not an edit yet

    @classmethod
    def dropped(cls, subject: int, point: np.ndarray | None, start: np.ndarray) -> object:
        """The pin's anchor moved from `start` to `point` (None: unpinned), one edit."""
        return SetPin(subject, None if point is None else vec3(point), vec3(start))

    @classmethod
    def put_back(cls, subject: int, start: np.ndarray) -> tuple[object, str]:
        return Preview(SetPin(subject, vec3(start), None)), tr("Pin put back")

    @classmethod
    def dropped_words(cls, subject: int) -> str:
        return tr("Pin put down")


def pin_here(snapshot: Snapshot, particle: int) -> SetPin:
    """Pin a free particle: the run holds it where the newest frame has it; the set-up at its
    rest place, so that Reset starts unstretched."""
    rest = snapshot.topology.rest_positions[particle]
    return SetPin(particle, vec3(rest), None, live=vec3(snapshot.x[particle]))


class ProbeTool(Tool):
    """A click on a particle attaches a probe to it (up to four), a click on a probed particle
    takes the probe off; the controller decides which (sim.document.requests.ToggleProbe)."""

    cursor = Qt.CursorShape.PointingHandCursor

    def __init__(self, view: ToolView, emit: Emit) -> None:
        super().__init__(view, emit)
        self.subject: int | None = None

    def press(self, snapshot: Snapshot, position: QPointF) -> bool:
        self.subject = particle_at(self.view, snapshot, position, free_only=False)
        return self.subject is not None

    def release(self, position: QPointF, moved: bool) -> None:
        if not moved and self.subject is not None:
            self.emit(ToggleProbe(self.subject))
        self.subject = None

    def cancel(self) -> None:
        self.subject = None

    cursor_key = "O"
    cursor_words = QT_TR_NOOP("Cursor: a probe on or off")

    @classmethod
    def at_cursor(cls, cursor: CursorSpot, snapshot: Snapshot) -> None:
        if cursor.particle is not None:
            cursor.emit(ToggleProbe(cursor.particle))  # as a click does
            said = tr("Probe on or off particle {particle}")
            cursor.said(said.format(particle=cursor.particle))


class CutTool(Tool):
    """A stroke across the cloth cuts every link whose on-screen segment it crosses."""

    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, view: ToolView, emit: Emit) -> None:
        super().__init__(view, emit)
        self.stroke: list[QPointF] = []

    def press(self, snapshot: Snapshot, position: QPointF) -> bool:
        self.stroke = [position]
        return True

    def move(self, position: QPointF) -> None:
        self.stroke.append(position)
        self.view.update()

    def release(self, position: QPointF, moved: bool) -> None:
        snapshot = self.view.snapshot()
        stroke = np.array([(p.x(), p.y()) for p in self.stroke], dtype=np.float64)
        self.cancel()
        self.view.update()
        if snapshot is None or len(stroke) < 2:
            return
        cut = self.cut_along(snapshot, self.view.project(snapshot.x), stroke)
        if cut is not None:
            self.emit(cut)

    def cancel(self) -> None:
        self.stroke = []

    @classmethod
    def cut_along(
        cls, snapshot: Snapshot, screen: np.ndarray, stroke: np.ndarray
    ) -> CutLinks | None:
        """The cut of every live link whose on-screen segment the `stroke` crosses (screen:
        (N, 2) the particles on screen; stroke: (k, 2) screen points), None if it crosses none."""
        crossed = links_crossing_stroke(
            screen, snapshot.topology.links, snapshot.link_alive, stroke
        )
        return CutLinks(tuple(int(k) for k in crossed)) if len(crossed) else None

    cursor_key = "K"
    cursor_words = QT_TR_NOOP("Cursor: mark a cut's end")
    cursor_note = QT_TR_NOOP("two marks, then Enter")

    @classmethod
    def at_cursor(cls, cursor: CursorSpot, snapshot: Snapshot) -> None:
        """Mark one end of the cut at the cursor's particle; with two marks Enter cuts the
        stroke between them (ui.viewport.key_tools.cut_stroke)."""
        if cursor.particle is None or cursor.holding:
            return
        cursor.marks = [*cursor.marks[-1:], cursor.particle]
        if len(cursor.marks) == 1:
            said = tr("Cut mark at particle {particle}, the first end")
        else:
            said = tr("Cut mark at particle {particle}, the second end: Enter cuts")
        cursor.said(said.format(particle=cursor.particle))

    def has_overlay(self) -> bool:
        return bool(self.stroke)

    def paint(self, painter: QPainter) -> None:
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


class MoveTool(DragTool):
    """Drags the ball or any other obstacle (shown live, one undoable edit on release)."""

    cursor = Qt.CursorShape.SizeAllCursor

    def press(self, snapshot: Snapshot, position: QPointF) -> bool:
        origin, direction = self.view.ray(position.x(), position.y())
        candidates = picking.obstacles(snapshot, self.view.obstacle_kinds())
        hit = picking.nearest_obstacle(candidates, origin, direction)
        if hit is None:
            return False
        self._start_drag(hit[0].index, hit[0].center)
        # The drag plane goes through the centre; the obstacle keeps its place under the
        # pointer (a box grabbed by a corner does not jump to centre itself on it).
        grabbed = self._on_drag_plane(position)
        if grabbed is not None:
            self._offset = self.start - grabbed
        return True

    def move(self, position: QPointF) -> None:
        point = self._dragged_to(position)
        if point is not None:
            self.emit(self.dragged(self.subject, point))

    def release(self, position: QPointF, moved: bool) -> None:
        if moved:
            self.emit(self.dropped(self.subject, self.current, self.start))

    @classmethod
    def lift(
        cls, view: ToolView, snapshot: Snapshot, particle: int | None, obstacle: int | None
    ) -> tuple[int, np.ndarray] | None:
        found = picking.obstacles(snapshot, view.obstacle_kinds())
        center = next((o.center for o in found if o.index == obstacle), None)
        return None if obstacle is None or center is None else (obstacle, center.copy())

    @classmethod
    def lifted(cls, subject: int, point: np.ndarray) -> tuple[object | None, str]:
        return None, tr("Lifted; arrows move it")

    @classmethod
    def dragged(cls, subject: int, point: np.ndarray) -> object:
        return Preview(obstacle_moved_to(subject, point))  # shown live, not an edit yet

    @classmethod
    def dropped(cls, subject: int, point: np.ndarray | None, start: np.ndarray) -> object:
        return obstacle_moved_to(subject, start if point is None else point)

    @classmethod
    def put_back(cls, subject: int, start: np.ndarray) -> tuple[object, str]:
        return obstacle_moved_to(subject, start), tr("Obstacle put back")

    @classmethod
    def dropped_words(cls, subject: int) -> str:
        return tr("Obstacle put down")


def obstacle_moved_to(index: int, center: np.ndarray) -> ChangeSetting | Compose:
    """The request that puts obstacle `index` (BALL: the ball) with its centre at `center`."""
    # The ball is a setting of the classic model; the other obstacles are the scene's.
    if index == BALL:
        return ChangeSetting("ball_center", vec3(center))
    return Compose(composition.change_obstacle, (index,), {"center": vec3(center)})


class RulerTool(Tool):
    """Press, drag and release between two points to measure them: each end snaps to what is
    under the pointer within PICK_RADIUS_PX — a particle (the end then follows the cloth), a
    pin's anchor, an obstacle's surface — or else is a free point on the camera-facing plane.
    Each ruler is one undoable edit; a click on a ruler's label removes that ruler."""

    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, view: ToolView, emit: Emit) -> None:
        super().__init__(view, emit)
        self.start: RulerEnd | None = None  # the ruler being drawn, press to release
        self.end: RulerEnd | None = None
        self.label: int | None = None  # the ruler whose label the press was on

    def press(self, snapshot: Snapshot, position: QPointF) -> bool:
        self.label = ruler_overlay.label_at(self.view.ruler_marks(), position)
        if self.label is None:
            self.start = self.end = self._end_at(snapshot, position, None)
        return True

    def move(self, position: QPointF) -> None:
        snapshot = self.view.snapshot()
        if self.start is not None and snapshot is not None:
            self.end = self._end_at(snapshot, position, self.start)
            self.view.update()

    def release(self, position: QPointF, moved: bool) -> None:
        label, start = self.label, self.start
        snapshot = self.view.snapshot()
        self.cancel()
        self.view.update()
        rulers = tuple(self.view.rulers())
        if label is not None:
            if not moved and label < len(rulers):  # a click on it, not a drag off it
                self.emit(EditRulers(rulers[:label] + rulers[label + 1 :], rulers))
            return
        if start is None or not moved or snapshot is None:
            return
        end = self._end_at(snapshot, position, start)
        if end != start:  # a drag from a particle back onto it measures nothing
            self.emit(self.measured(rulers, start, end))

    def cancel(self) -> None:
        self.start = self.end = None
        self.label = None

    @classmethod
    def measured(cls, rulers: tuple[RulerSpec, ...], start: RulerEnd, end: RulerEnd) -> EditRulers:
        """The rulers with one more, from `start` to `end`: one undoable edit."""
        return EditRulers((*rulers, RulerSpec(start=start, end=end)), rulers)

    cursor_key = "M"
    cursor_words = QT_TR_NOOP("Cursor: a ruler's end, then the ruler")
    cursor_note = QT_TR_NOOP("twice")

    @classmethod
    def at_cursor(cls, cursor: CursorSpot, snapshot: Snapshot) -> None:
        """The first press marks a ruler's end at the cursor's particle, the second adds the
        ruler from there to the cursor's particle (as a drag between them does)."""
        particle, start = cursor.particle, cursor.ruler_start
        if particle is None or cursor.holding:
            return
        if start is None or start == particle:
            cursor.ruler_start = particle
            said = tr("Ruler end at particle {particle}: step to the other end and press M")
            cursor.said(said.format(particle=particle))
            return
        cursor.ruler_start = None
        ruler = RulerSpec(start=particle_end(start), end=particle_end(particle))
        cursor.emit(cls.measured(tuple(cursor.view.rulers()), ruler.start, ruler.end))
        said = tr("Ruler from particle {start} to particle {end}: {length:.4f} long")
        length = ruler_length(ruler, snapshot.x)
        cursor.said(said.format(start=start, end=particle, length=length))

    def has_overlay(self) -> bool:
        return self.start is not None and self.end is not None and self.end != self.start

    def paint(self, painter: QPainter) -> None:
        """The ruler being drawn, with its length, as the view will draw it once made."""
        if self.start is None or self.end is None:
            return
        mark = self.view.ruler_mark(RulerSpec(start=self.start, end=self.end))
        if mark is not None:
            ruler_overlay.paint_marks(painter, [mark], self.view.ruler_font())

    def _end_at(self, snapshot: Snapshot, position: QPointF, start: RulerEnd | None) -> RulerEnd:
        """What a ruler end at `position` snaps to: a particle, else a pin's anchor, else an
        obstacle's surface under the ray, else the camera-facing plane through the other end
        (through the camera's target for the first)."""
        particle = particle_at(self.view, snapshot, position, free_only=False)
        if particle is not None:
            return particle_end(particle)
        pointer = (position.x(), position.y())
        if len(snapshot.pin_anchor):
            screen = self.view.project(snapshot.pin_anchor)
            k = picking.nearest_on_screen(screen, pointer, PICK_RADIUS_PX)
            if k is not None:
                return point_end(snapshot.pin_anchor[k])
        origin, direction = self.view.ray(*pointer)
        candidates = picking.obstacles(snapshot, self.view.obstacle_kinds())
        hit = picking.nearest_obstacle(candidates, origin, direction)
        if hit is not None:
            return point_end(origin + hit[1] * direction)
        through = (
            np.asarray(self.view.camera.target, dtype=np.float64)
            if start is None
            else end_position(start, snapshot.x)
        )
        _, _, forward = self.view.camera.basis()
        point = picking.drag_plane_point(origin, direction, through, forward)
        try:  # a ray grazing the plane meets it beyond what a scene can hold
            return point_end(through if point is None else point)
        except ValueError:
            return point_end(through)


@dataclass(frozen=True)
class ToolRow:
    name: str  # its action is tool_<name> (ui.window.actions)
    label: str  # in the Edit ▸ Tool menu, with its mnemonic (QT_TR_NOOP: tr where shown)
    icon: str  # resources/icons/<icon>.svg
    shortcut: str
    hint: str  # the status bar's line while the tool is chosen; the action's tip (QT_TR_NOOP)
    tool: type[Tool]


TOOLS: tuple[ToolRow, ...] = (
    ToolRow("select", QT_TR_NOOP("&Select"), "select", "Q",
            QT_TR_NOOP("Select: click a body or an obstacle to select it, the background to "
                       "select nothing; drag to orbit. Ctrl+click selects in every tool."),
            SelectTool),
    ToolRow("grab", QT_TR_NOOP("&Grab"), "grab", "G",
            QT_TR_NOOP("Grab: drag the cloth or the block; right-drag orbits, middle-drag pans. "
                       "Ctrl+click selects."), GrabTool),
    ToolRow("pin", QT_TR_NOOP("&Pin"), "pin", "P",
            QT_TR_NOOP("Pin: click a particle to pin or unpin it; drag a pin to move its anchor. "
                       "Ctrl+click selects."), PinTool),
    ToolRow("probe", QT_TR_NOOP("Pr&obe"), "probe", "O",
            QT_TR_NOOP("Probe: click a particle to attach a probe (up to 4, read in the Probes "
                       "panel), a probed one to take it off. Ctrl+click selects."),
            ProbeTool),
    ToolRow("cut", QT_TR_NOOP("&Cut"), "cut", "C",
            QT_TR_NOOP("Cut: drag a stroke across the cloth; every link it crosses is cut. "
                       "Ctrl+click selects."), CutTool),
    ToolRow("ball", QT_TR_NOOP("&Ball tool"), "ball", "B",
            QT_TR_NOOP("Move: drag the ball or any obstacle to move it; right-drag orbits. "
                       "Ctrl+click selects."), MoveTool),
    ToolRow("ruler", QT_TR_NOOP("&Ruler"), "ruler", "R",
            QT_TR_NOOP("Ruler: drag between two points to measure; click a ruler's label to "
                       "remove it. Ctrl+click selects."), RulerTool),
)  # fmt: skip
DEFAULT_TOOL = "grab"


def tool_row(name: str) -> ToolRow:
    return next(row for row in TOOLS if row.name == name)


# --- picking ------------------------------------------------------------------------------------


def particle_at(
    view: ToolView, snapshot: Snapshot, position: QPointF, free_only: bool
) -> int | None:
    """The particle under the pointer, if one is within PICK_RADIUS_PX of it on screen."""
    origin, direction = view.ray(position.x(), position.y())
    screen = view.project(snapshot.x)
    particle = picking.pick_particle(
        snapshot, origin, direction, screen, (position.x(), position.y()), PICK_RADIUS_PX,
        free_only,
    )  # fmt: skip
    return None if particle is None else int(particle)


def vec3(values: Sequence[float] | np.ndarray) -> Vec3:
    return (float(values[0]), float(values[1]), float(values[2]))
