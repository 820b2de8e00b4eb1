"""What the 3D view paints over the cloth to show forces and maps: an arrow on each pin (the
force it holds the cloth with, labelled in the scene's force unit: N only with SI fabrics) and
the legend of the stretch or tension colours. Painted with a QPainter into the view's
framebuffer (Viewport._paint_overlay), in widget pixels, so that screenshots and exports show
them as the screen does."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QLinearGradient,
    QPainter,
    QPainterPath,
    QPen,
)

from clothlab.sim.core import units
from clothlab.sim.core.snapshot import Snapshot
from clothlab.sim.text import tr
from clothlab.ui.numbers import localized
from clothlab.ui.viewport import meshes

Project = Callable[[np.ndarray], np.ndarray]  # (K, 3) world → (K, 2) widget pixels, NaN behind

# A force as large as the cloth's whole weight is drawn as long as this share of the cloth's
# size at rest: the two pins of a hanging sheet get arrows a quarter of its width or so.
WEIGHT_REACH = 0.5
ARROW_COLOR = QColor(255, 214, 77)  # the pins' yellow (meshes.PIN_COLOR)
ARROW_OUTLINE = QColor(40, 30, 10)
HEAD_PX = 10.0
LEGEND_SIZE_PX = (180.0, 12.0)
MARGIN_PX = 12.0
LABEL_PX = 14.0  # the legend's labels under its bar
LABEL_OFFSET_PX = 6.0  # an arrow's label sits this far right of and above its tip
EDGE_PX = 4.0  # and at least this far inside the view's edges


@dataclass(frozen=True)
class Arrow:
    start: QPointF  # widget pixels: the pin
    end: QPointF
    label: str


def weight_reach(snapshot: Snapshot) -> float:
    """World length of the arrow of a force equal to the cloth's weight."""
    rest = snapshot.topology.rest_positions
    return WEIGHT_REACH * float(np.ptp(rest, axis=0).max()) if len(rest) else 1.0


def pin_arrows(snapshot: Snapshot, project: Project) -> list[Arrow]:
    """An arrow from each pin along the force it exerts on the cloth, on screen, and one from
    a grabbed particle for the hand's ("hand 12 N"); none where the forces are not measured
    yet (before the first step) or a point is behind the eye."""
    forces = snapshot.forces
    if forces is None or forces.weight <= 0.0:
        return []
    held = np.asarray(snapshot.pin_index, dtype=np.int64)
    # each arrow's label, filled with its force: a pin's is the number and its unit only
    pulls, labels = forces.pin_force, ["{force:.3g} {unit}"] * len(held)
    if forces.grab_force is not None and snapshot.grabbed is not None:
        held = np.append(held, snapshot.grabbed)
        pulls = np.vstack([pulls, forces.grab_force])
        labels = [*labels, tr("hand {force:.3g} {unit}")]
    if not len(held):
        return []
    starts = np.asarray(snapshot.x, dtype=np.float64)[held]
    reach = weight_reach(snapshot) / forces.weight  # world units per unit of force
    unit = tr(units.shown_in(units.FORCE, snapshot.si))  # N only where the masses are in kg
    screen = project(np.concatenate([starts, starts + pulls * reach]))
    arrows = []
    for p, label in enumerate(labels):
        start, end = screen[p], screen[len(held) + p]
        if not (np.all(np.isfinite(start)) and np.all(np.isfinite(end))):
            continue
        magnitude = float(np.linalg.norm(pulls[p]))
        text = localized(label.format(force=magnitude, unit=unit))
        arrows.append(Arrow(QPointF(*start), QPointF(*end), text))
    return arrows


def paint_pin_forces(painter: QPainter, snapshot: Snapshot, project: Project) -> None:
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setFont(_small_font(painter))
    device, ratio = painter.device(), _ratio(painter)
    view = QRectF(0.0, 0.0, device.width() / ratio, device.height() / ratio)
    for arrow in pin_arrows(snapshot, project):
        _paint_arrow(painter, arrow, view)


def label_rect(metrics: QFontMetricsF, tip: QPointF, text: str, view: QRectF) -> QRectF:
    """Where an arrow's label goes, in widget pixels: right of and above its tip; left of it
    where it would run past the view's right edge, below it past the top, and shifted inside
    the view where even that is not enough (an arrow's tip can be off the view)."""
    width, ascent, descent = metrics.horizontalAdvance(text), metrics.ascent(), metrics.descent()
    height = ascent + descent
    left = tip.x() + LABEL_OFFSET_PX
    if left + width > view.right() - EDGE_PX:
        left = tip.x() - LABEL_OFFSET_PX - width
    top = tip.y() - LABEL_OFFSET_PX - ascent
    if top < view.top() + EDGE_PX:
        top = tip.y() + LABEL_OFFSET_PX
    left = _within(left, view.left() + EDGE_PX, view.right() - EDGE_PX - width)
    top = _within(top, view.top() + EDGE_PX, view.bottom() - EDGE_PX - height)
    return QRectF(left, top, width, height)


def _within(value: float, low: float, high: float) -> float:
    """`value` moved into [low, high]; `low` when the range is empty (a label wider than the
    view starts at its left edge)."""
    return max(low, min(value, high))


def _paint_arrow(painter: QPainter, arrow: Arrow, view: QRectF) -> None:
    path = QPainterPath(arrow.start)
    path.lineTo(arrow.end)
    dx, dy = arrow.end.x() - arrow.start.x(), arrow.end.y() - arrow.start.y()
    length = math.hypot(dx, dy)
    if length > 1.0:
        ux, uy = dx / length, dy / length
        head = min(HEAD_PX, 0.5 * length)
        for side in (-1.0, 1.0):  # the two barbs, 25° either side of the shaft
            bx = ux * math.cos(0.44) - side * uy * math.sin(0.44)
            by = uy * math.cos(0.44) + side * ux * math.sin(0.44)
            path.moveTo(arrow.end)
            path.lineTo(arrow.end.x() - head * bx, arrow.end.y() - head * by)
    for colour, width in ((ARROW_OUTLINE, 5.0), (ARROW_COLOR, 2.5)):  # a dark halo, then it
        pen = QPen(colour, width)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        painter.setPen(pen)
        painter.drawPath(path)
    metrics = QFontMetricsF(painter.font())
    box = label_rect(metrics, arrow.end, arrow.label, view)
    _paint_label(painter, QPointF(box.left(), box.top() + metrics.ascent()), arrow.label)


def paint_legend(
    painter: QPainter, colors: str, tension_scale: float, unit: str = units.FORCE
) -> None:
    """The colour ramp of the map shown, bottom left, with what its ends mean; the tension
    map's top is `tension_scale` in `unit` (a force a link, or N/m across the SI fabrics)."""
    w, h = LEGEND_SIZE_PX
    bottom = painter.device().height() / _ratio(painter) - MARGIN_PX - LABEL_PX
    bar = QRectF(MARGIN_PX, bottom - h, w, h)
    if colors == meshes.TENSION:
        per_length = unit == units.shown_in(units.FORCE_PER_LENGTH, si=True)
        title = tr("Tension per unit length") if per_length else tr("Tension (each link's pull)")
        top = (
            localized(f"{tension_scale:.3g} {tr(unit)}")
            if tension_scale > 0.0
            else tr("not measured yet")
        )
    else:
        title, top = tr("Stretch (L − rest) / rest"), f"{100 * meshes.STRAIN_FULL_RED:.0f} %"
    ramp = QLinearGradient(bar.topLeft(), bar.topRight())
    for stop in np.linspace(0.0, 1.0, 9):
        r, g, b = meshes._strain_rgb(stop * meshes.STRAIN_FULL_RED)
        ramp.setColorAt(float(stop), QColor.fromRgbF(r, g, b))
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setFont(_small_font(painter))
    painter.setPen(QPen(ARROW_OUTLINE, 1.0))
    painter.setBrush(ramp)
    painter.drawRect(bar)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    _paint_label(painter, bar.topLeft() + QPointF(0.0, -6.0), title)
    _paint_label(painter, bar.bottomLeft() + QPointF(0.0, LABEL_PX), "0")
    right = bar.bottomRight() + QPointF(-painter.fontMetrics().horizontalAdvance(top), LABEL_PX)
    _paint_label(painter, right, top)


def _paint_label(painter: QPainter, at: QPointF, text: str) -> None:
    """Light text with a dark halo: readable on the backdrop, the floor and the cloth."""
    path = QPainterPath()
    path.addText(at, painter.font(), text)
    painter.setPen(QPen(ARROW_OUTLINE, 3.0))
    painter.drawPath(path)
    painter.fillPath(path, QColor(250, 250, 250))


def _small_font(painter: QPainter) -> QFont:
    return label_font(painter.font())


def label_font(base: QFont) -> QFont:
    """The labels' font: `base` (the view's) at 9 pt."""
    font = QFont(base)
    font.setPointSizeF(9.0)
    return font


def _ratio(painter: QPainter) -> float:
    return float(painter.device().devicePixelRatioF()) or 1.0
