"""The scene's rulers drawn over the 3D view: a line between the ends and a label with the length,
placed from the newest snapshot every frame so that a ruler on the cloth follows it.

`ruler_marks` lays them out (screen ends, label text and its box) without painting, so the Ruler
tool finds a label under the pointer with the same boxes the view draws.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPen

from clothlab.sim.core.snapshot import Snapshot
from clothlab.sim.document.scene import RulerSpec, Scene
from clothlab.sim.lab.rulers import fits, length_text, ruler_points, ruler_unit
from clothlab.sim.text import QT_TR_NOOP
from clothlab.ui.numbers import localized

LINE_COLOUR = QColor(255, 196, 0)
LABEL_FILL = QColor(20, 24, 28, 215)
LABEL_TEXT = QColor(255, 232, 150)
LABEL_PAD_PX = 4.0
END_RADIUS_PX = 4.0


@dataclass(frozen=True)
class RulerMark:
    """One ruler as drawn: `index` in the scene's rulers (-1: the one being drawn)."""

    index: int
    start: QPointF
    end: QPointF
    text: str
    label: QRectF  # the label's box in widget pixels


def ruler_marks(
    rulers: Sequence[RulerSpec],
    scene: Scene | None,
    snapshot: Snapshot,
    project: Callable[[np.ndarray], np.ndarray],
    font: QFont,
) -> list[RulerMark]:
    """Every ruler the snapshot can show (both ends in front of the eye, its particles in the
    model), laid out in widget pixels."""
    marks = []
    count = len(snapshot.x)
    for index, ruler in enumerate(rulers):
        if not fits(ruler, count):  # a document edited ahead of the frames: drawn next frame
            continue
        unit = QT_TR_NOOP("units")  # the model's length unit, translated where it is shown
        if scene is not None:
            unit = ruler_unit(scene, snapshot.topology, ruler)
        mark = mark_of(index, ruler_points(ruler, snapshot.x), unit, project, font)
        if mark is not None:
            marks.append(mark)
    return marks


def mark_of(
    index: int,
    points: np.ndarray,  # (2, 3) float64, the ends in the world
    unit: str,
    project: Callable[[np.ndarray], np.ndarray],
    font: QFont,
) -> RulerMark | None:
    """A ruler between two world points laid out on screen; None if an end is behind the eye."""
    screen = project(points)
    if not np.all(np.isfinite(screen)):
        return None
    start, end = QPointF(*screen[0]), QPointF(*screen[1])
    text = localized(length_text(float(np.linalg.norm(points[1] - points[0])), unit))
    size = QFontMetricsF(font).size(0, text)
    middle = (start + end) / 2
    box = QRectF(0, 0, size.width() + 2 * LABEL_PAD_PX, size.height() + LABEL_PAD_PX)
    box.moveCenter(middle + QPointF(0, -box.height()))  # above the line's middle, off the cloth
    return RulerMark(index, start, end, text, box)


def label_at(marks: Sequence[RulerMark], position: QPointF) -> int | None:
    """The scene index of the ruler whose label is under `position`, the topmost (last drawn)."""
    for mark in reversed(marks):
        if mark.index >= 0 and mark.label.contains(position):
            return mark.index
    return None


def paint_marks(painter: QPainter, marks: Sequence[RulerMark], font: QFont) -> None:
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setFont(font)
    for mark in marks:
        shadow = QPen(QColor(0, 0, 0, 140), 4.0)
        shadow.setCapStyle(Qt.PenCapStyle.RoundCap)
        painter.setPen(shadow)
        painter.drawLine(mark.start, mark.end)
        painter.setPen(QPen(LINE_COLOUR, 2.0))
        painter.drawLine(mark.start, mark.end)
        painter.setBrush(LINE_COLOUR)
        for point in (mark.start, mark.end):
            painter.drawEllipse(point, END_RADIUS_PX, END_RADIUS_PX)
        painter.setPen(QPen(LINE_COLOUR, 1.0))
        painter.setBrush(LABEL_FILL)
        painter.drawRoundedRect(mark.label, 3.0, 3.0)
        painter.setPen(LABEL_TEXT)
        painter.drawText(mark.label, Qt.AlignmentFlag.AlignCenter, mark.text)
    painter.setBrush(Qt.BrushStyle.NoBrush)
