"""The 3D view by keyboard: the camera keys and the keyboard cursor.

Without the cursor, arrows orbit, Shift+arrows pan and + / − zoom. Enter puts a cursor on the
cloth (the particle nearest the middle of the view); with it, arrows step to the linked
particle nearest the arrow's direction on screen, Tab and Shift+Tab go to the next body, pin or
obstacle (past the last, out of the view: no focus trap), Enter picks up what is under the
cursor — a free particle is grabbed, a pin or an obstacle lifted — arrows then move it in the
camera's plane (Shift: fine steps) and Enter puts it down; P pins or unpins the particle, O
attaches or takes off a probe, K marks a cut's end and, with two marks, Enter cuts every link
between them; M marks a ruler's end and, at the second, adds the ruler between them. Esc puts
down what is held, then drops the marks, then leaves the cursor.

The keyboard's tools are the mouse's, from the tool table (ui.viewport.tools.TOOLS): Enter
lifts what a DragTool drags (the grab, a pin, an obstacle) and the arrows drag it through the
same class methods the mouse drives; each other tool with a `cursor_key` (P, O, K, M) does its
`at_cursor`. So every change is the same request the mouse tools make (sim.document.commands,
.edits, sim.document.requests), handed to `emit`, and undo, recording and the panels see no
difference.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QKeyEvent, QPainter, QPen

from clothlab.sim.core.snapshot import Snapshot
from clothlab.sim.text import QT_TR_NOOP, tr
from clothlab.ui.intents import Select
from clothlab.ui.selection import Selection
from clothlab.ui.viewport import picking
from clothlab.ui.viewport.description import cursor_words
from clothlab.ui.viewport.tools import TOOLS, CutTool, DragTool, Emit, Tool, ToolView

ORBIT_STEP_PX = 20.0  # an arrow orbits as a drag of this many pixels does (6°)
PAN_STEP_PX = 30.0
ZOOM_STEP = 0.5  # wheel steps per + or −
FINE = 0.2  # Shift: a fifth of a step
SAME_WAY = 0.3  # an arrow steps only to a neighbour within about 70° of its direction
CURSOR_PX = 11.0
CURSOR_COLOUR = QColor(0, 229, 255)  # cyan: seen on every fabric colour and on the dark sky
MARK_COLOUR = QColor(255, 214, 64)  # the cut stroke's yellow
ARROWS = {
    Qt.Key.Key_Left: (-1.0, 0.0),
    Qt.Key.Key_Right: (1.0, 0.0),
    Qt.Key.Key_Up: (0.0, -1.0),  # screen y grows downwards
    Qt.Key.Key_Down: (0.0, 1.0),
}
ZOOM_KEYS = {Qt.Key.Key_Plus: 1.0, Qt.Key.Key_Equal: 1.0, Qt.Key.Key_Minus: -1.0}
ENTER_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter)


def cursor_tools() -> dict[Qt.Key, type[Tool]]:
    """The tools used at the cursor, by their keys (the tool table's `cursor_key`s)."""
    return {Qt.Key[f"Key_{row.tool.cursor_key}"]: row.tool for row in TOOLS if row.tool.cursor_key}


def drag_tools() -> tuple[type[DragTool], ...]:
    """What Enter may lift, in the tool table's order: its drag tools."""
    return tuple(row.tool for row in TOOLS if issubclass(row.tool, DragTool))


# the view's only with a cursor
CURSOR_KEYS = (*cursor_tools(), Qt.Key.Key_Escape)

CAMERA_HINT = QT_TR_NOOP(
    "3D view keys: arrows orbit, Shift+arrows pan, + and − zoom; Enter puts a cursor on the cloth."
)
CURSOR_HINT = QT_TR_NOOP(
    "Cursor: arrows step, Tab goes to the next body, pin or obstacle; Enter grabs or lifts, "
    "P pins or unpins, O probes, K marks a cut's end, M a ruler's; Esc leaves the cursor."
)
HOLDING_HINT = QT_TR_NOOP(
    "Holding: arrows move it (Shift: fine steps), Enter puts it down, Esc puts it back."
)
MARKED_HINT = QT_TR_NOOP("One cut mark: step to the other end and press K, then Enter to cut.")
CUT_HINT = QT_TR_NOOP("Two cut marks: Enter cuts every link between them, Esc drops the marks.")
RULER_HINT = QT_TR_NOOP(
    "One ruler end: step to the other end and press M to measure, Esc drops it."
)


@dataclass
class Held:
    """What Enter picked up: a grabbed particle, a lifted pin or a lifted obstacle."""

    tool: type[DragTool]  # the tool that drags it: its requests, as the mouse's
    subject: int  # the particle, or the obstacle's index (BALL for the ball)
    start: np.ndarray  # (3,) float64, where it was picked up
    point: np.ndarray  # (3,) float64, where it is now


class KeyCursor:
    """The view's keys beyond the window's shortcuts. `key` takes a key press and says whether
    it was the view's; `wants` says so before the window's shortcuts see it (P and K are tool
    shortcuts when no cursor shows). `said` reports what a key did, for the description."""

    def __init__(self, view: ToolView, emit: Emit, said: Callable[[str], None]) -> None:
        self.view = view
        self.emit = emit
        self.said = said
        self.particle: int | None = None  # the cursor's particle (None: no cursor)
        self.obstacle: int | None = None  # or the obstacle it is on
        self.held: Held | None = None
        self.marks: list[int] = []  # the cut's marked ends, particles
        self.ruler_start: int | None = None  # a ruler's first end (M), a particle

    @property
    def active(self) -> bool:
        return self.particle is not None or self.obstacle is not None

    @property
    def holding(self) -> bool:
        return self.held is not None

    def hint(self) -> str:
        """What the keys do now, in the app's language."""
        if self.held is not None:
            return tr(HOLDING_HINT)
        if len(self.marks) == 2:
            return tr(CUT_HINT)
        if self.marks:
            return tr(MARKED_HINT)
        if self.ruler_start is not None:
            return tr(RULER_HINT)
        return tr(CURSOR_HINT) if self.active else tr(CAMERA_HINT)

    def words(self) -> str:
        """Where the cursor is, for the description ('' without a cursor)."""
        snapshot = self.view.snapshot()
        if snapshot is None or not self.active:
            return ""
        if self.obstacle is not None:
            if self.obstacle < 0:
                return tr("Cursor on the ball")
            return tr("Cursor on obstacle {number}").format(number=self.obstacle + 1)
        assert self.particle is not None
        return cursor_words(snapshot, self.particle)

    # --- keys ------------------------------------------------------------------------------

    def wants(self, event: QKeyEvent) -> bool:
        key = event.key()
        if key in ARROWS or key in ZOOM_KEYS or key in ENTER_KEYS:
            return not event.modifiers() & ~(
                Qt.KeyboardModifier.ShiftModifier | Qt.KeyboardModifier.KeypadModifier
            )
        mine = key in cursor_tools() or key == Qt.Key.Key_Escape
        return self.active and mine and _plain(event)

    def key(self, event: QKeyEvent, width: int, height: int) -> bool:
        """Do what `event`'s key does in the view; False when it is not the view's key."""
        snapshot = self.view.snapshot()
        if snapshot is None or not self.wants(event):
            return False
        key, shift = (
            Qt.Key(event.key()),
            bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier),
        )
        if key in ZOOM_KEYS:
            self.view.camera.zoom(ZOOM_KEYS[key] * ZOOM_STEP)
        elif key in ARROWS:
            self._arrow(snapshot, ARROWS[key], shift, width, height)
        elif key in ENTER_KEYS:
            self._enter(snapshot, width, height)
        elif key in (tools := cursor_tools()):
            tools[key].at_cursor(self, snapshot)
        elif key == Qt.Key.Key_Escape:
            self._escape()
        self.view.update()
        return True

    def _arrow(
        self, snapshot: Snapshot, way: tuple[float, float], shift: bool, width: int, height: int
    ) -> None:
        if self.held is not None:
            self._move_held(way, FINE if shift else 1.0, snapshot)
        elif shift:
            self.view.camera.pan(way[0] * PAN_STEP_PX, way[1] * PAN_STEP_PX, height, width)
        elif self.particle is not None:
            self._step(snapshot, way)
        else:
            self.view.camera.orbit(way[0] * ORBIT_STEP_PX, way[1] * ORBIT_STEP_PX)

    def _enter(self, snapshot: Snapshot, width: int, height: int) -> None:
        if self.held is not None:
            self._put_down(keep=True)
        elif len(self.marks) == 2:
            self._cut(snapshot)
        elif not self.active:
            self._place(snapshot, width, height)
        else:
            self._pick_up(snapshot)

    # --- the cursor ------------------------------------------------------------------------

    def _place(self, snapshot: Snapshot, width: int, height: int) -> None:
        """The cursor on the particle nearest the middle of the view."""
        screen = self.view.project(snapshot.x)
        distance = np.hypot(screen[:, 0] - width / 2, screen[:, 1] - height / 2)
        if not len(distance) or np.all(np.isnan(distance)):
            self.said(tr("No cloth in view for the cursor"))
            return
        self._go_to(snapshot, int(np.nanargmin(distance)))

    def _go_to(self, snapshot: Snapshot, particle: int) -> None:
        self.particle, self.obstacle = particle, None
        self.said(cursor_words(snapshot, particle))

    def _step(self, snapshot: Snapshot, way: tuple[float, float]) -> None:
        """To the particle linked to the cursor's whose direction on screen is nearest the
        arrow's: so Up goes up the sheet as it is seen now, however it hangs or is turned."""
        assert self.particle is not None
        links = snapshot.topology.links
        ends = links[(links[:, 0] == self.particle) | (links[:, 1] == self.particle)]
        neighbours = np.unique(ends[ends != self.particle])
        screen = self.view.project(snapshot.x)
        offsets = screen[neighbours] - screen[self.particle]
        lengths = np.hypot(offsets[:, 0], offsets[:, 1])
        with np.errstate(invalid="ignore", divide="ignore"):
            along = (offsets @ np.array(way)) / lengths
        along[~np.isfinite(along)] = -1.0
        if not len(along) or along.max() < SAME_WAY:
            self.said(tr("The edge: no particle that way"))
            return
        # the straightest neighbour; of two about as straight, the nearer (a side, not a diagonal)
        score = along - 0.05 * lengths / max(float(np.nanmax(lengths)), 1e-9)
        self._go_to(snapshot, int(neighbours[int(np.argmax(score))]))

    def tab(self, forward: bool) -> bool:
        """The cursor to the next body, pin or obstacle; False past the last (or with no cursor):
        the focus then leaves the view as usual."""
        snapshot = self.view.snapshot()
        if snapshot is None or not self.active or self.held is not None:
            return False
        stops = self._stops(snapshot)
        here = next(
            (k for k, stop in enumerate(stops) if stop == (self.particle, self.obstacle)), -1
        )
        if here < 0:  # a particle inside a body: Tab goes on from its body's stop
            here = snapshot.topology.body_of(self.particle) if self.particle is not None else 0
        following = here + (1 if forward else -1)
        if not 0 <= following < len(stops):
            self.leave()
            return False
        self.particle, self.obstacle = stops[following]
        if self.obstacle is not None:
            self.emit(Select(Selection("obstacle", self.obstacle)))
        self.said(self.words())
        self.view.update()
        return True

    def _stops(self, snapshot: Snapshot) -> list[tuple[int | None, int | None]]:
        """Tab's stops in order: each body (its middle particle), each pin, each obstacle."""
        stops: list[tuple[int | None, int | None]] = [
            (span.first_particle + span.particle_count // 2, None)
            for span in snapshot.topology.bodies
        ]
        stops += [(int(p), None) for p in snapshot.pin_index]
        kinds = self.view.obstacle_kinds()
        stops += [(None, o.index) for o in picking.obstacles(snapshot, kinds)]
        return stops

    def put_down(self) -> None:
        """Let go of what is held, where it is (the focus left the view)."""
        if self.held is not None:
            self._put_down(keep=True)

    def leave(self) -> None:
        """No cursor any more: what is held is put down where it is."""
        self.put_down()
        self.particle = self.obstacle = None
        self.marks = []
        self.ruler_start = None
        self.view.update()

    def _escape(self) -> None:
        if self.held is not None:
            self._put_down(keep=False)
        elif self.marks:
            self.marks = []
            self.said(tr("Cut marks dropped"))
        elif self.ruler_start is not None:
            self.ruler_start = None
            self.said(tr("Ruler end dropped"))
        else:
            self.leave()
            self.said(tr("Cursor left"))

    # --- what the keys do to the model --------------------------------------------------------

    def _pick_up(self, snapshot: Snapshot) -> None:
        """Lift what a drag tool drags under the cursor: an obstacle, a pin, a free particle."""
        for tool in drag_tools():
            found = tool.lift(self.view, snapshot, self.particle, self.obstacle)
            if found is not None:
                subject, point = found
                self.held = Held(tool, subject, point.copy(), point.copy())
                command, said = tool.lifted(subject, point)
                if command is not None:
                    self.emit(command)
                self.said(said)
                return

    def _move_held(self, way: tuple[float, float], scale: float, snapshot: Snapshot) -> None:
        held = self.held
        assert held is not None
        right, up, _ = self.view.camera.basis()
        held.point = held.point + step_length(snapshot) * scale * (way[0] * right - way[1] * up)
        self.emit(held.tool.dragged(held.subject, held.point))

    def _put_down(self, keep: bool) -> None:
        """Let go of the grab, or put the pin or obstacle down (keep: where it is now, one
        undoable edit from where it was lifted; else back where it was)."""
        held, self.held = self.held, None
        if held is None:
            return
        if keep:
            self.emit(held.tool.dropped(held.subject, held.point, held.start))
            self.said(held.tool.dropped_words(held.subject))
            return
        command, said = held.tool.put_back(held.subject, held.start)
        self.emit(command)
        self.said(said)

    def _cut(self, snapshot: Snapshot) -> None:
        """Every live link the line between the marks crosses on screen, run half a link's
        length to one side of it (so it passes between rows of particles, not along one) and
        on past both marks (so marks on the edges cut right across)."""
        screen = self.view.project(snapshot.x)
        stroke = cut_stroke(screen[self.marks[0]], screen[self.marks[1]], link_px(screen, snapshot))
        self.marks = []
        cut = CutTool.cut_along(snapshot, screen, stroke)  # as the Cut tool's stroke
        if cut is not None:
            self.emit(cut)
        else:
            self.said(tr("The cut crossed no links"))

    # --- drawing ----------------------------------------------------------------------------

    def has_overlay(self) -> bool:
        return self.active

    def paint(self, painter: QPainter) -> None:
        """The cursor (a ring, filled while it holds something) and the cut marks."""
        snapshot = self.view.snapshot()
        if snapshot is None:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        where = self._cursor_point(snapshot)
        # the cut to come: between the two marks, or from the one mark to the cursor
        line = [snapshot.x[m] for m in self.marks]
        if len(line) == 1 and where is not None:
            line.append(where)
        if len(line) == 2:
            ends = self.view.project(np.array(line, dtype=np.float64))
            if np.all(np.isfinite(ends)):
                painter.setPen(QPen(MARK_COLOUR, 2.0, Qt.PenStyle.DashLine))
                painter.drawLine(QPointF(*ends[0]), QPointF(*ends[1]))
        for mark in self.marks:
            self._ring(painter, snapshot.x[mark], 6.0, MARK_COLOUR, False)
        if where is not None:
            self._ring(painter, where, CURSOR_PX, CURSOR_COLOUR, self.held is not None)

    def _cursor_point(self, snapshot: Snapshot) -> np.ndarray | None:
        if self.held is not None and not self.held.tool.holds_particle:
            return self.held.point
        if self.particle is not None:
            return np.asarray(snapshot.x[self.particle])
        found = picking.obstacles(snapshot, self.view.obstacle_kinds())
        return next((o.center for o in found if o.index == self.obstacle), None)

    def _ring(
        self, painter: QPainter, point: np.ndarray, radius: float, colour: QColor, filled: bool
    ) -> None:
        x, y = self.view.project(np.asarray(point, dtype=np.float64).reshape(1, 3))[0]
        if not (np.isfinite(x) and np.isfinite(y)):
            return
        centre = QPointF(float(x), float(y))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(QColor(0, 0, 0, 200), 5.0))  # seen on light cloth and dark sky
        painter.drawEllipse(centre, radius, radius)
        painter.setPen(QPen(colour, 3.0))
        if filled:
            painter.setBrush(colour)
        painter.drawEllipse(centre, radius, radius)
        painter.setBrush(Qt.BrushStyle.NoBrush)


def step_length(snapshot: Snapshot) -> float:
    """How far an arrow moves what is held: the cloth's typical link length (world units)."""
    rest = snapshot.topology.rest_lengths
    return float(np.median(rest)) if len(rest) else 0.1


def link_px(screen: np.ndarray, snapshot: Snapshot) -> float:
    """The typical length of a link on screen, pixels."""
    links = snapshot.topology.links
    lengths = np.linalg.norm(screen[links[:, 0]] - screen[links[:, 1]], axis=1)
    lengths = lengths[np.isfinite(lengths)]
    return float(np.median(lengths)) if len(lengths) else 10.0


def cut_stroke(a: np.ndarray, b: np.ndarray, link_length_px: float) -> np.ndarray:
    """(2, 2) float64: the keyboard cut's stroke for marks at screen points a and b: half a
    link to the right of the line a→b (as one faces from a to b) and half a link past each."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    along = b - a
    norm = float(np.hypot(*along))
    if norm == 0.0 or not np.isfinite(norm):
        return np.array([a, b])
    along /= norm
    side = np.array([-along[1], along[0]])  # screen y is down: this is to the right
    shift, reach = 0.5 * link_length_px, 0.5 * link_length_px
    return np.array([a - reach * along + shift * side, b + reach * along + shift * side])


def _plain(event: QKeyEvent) -> bool:
    return not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
