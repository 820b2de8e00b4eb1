"""What the plots share beyond pyqtgraph's defaults: a readout of the values under the pointer
(a vertical line at the pointer's time and the value of every curve there), a legend in a row
above the data instead of over it, and a value range that keeps the axis numbers on a flat curve.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QToolTip

from clothlab.sim.text import tr
from clothlab.ui.numbers import LocalizedAxis, localized

SHORT_TICK = 6  # characters: a longer tick label is written as 4.2e-4
FLAT_SHARE = 0.05  # a curve that varies by less than 5 % of its size is framed as if it did
FLAT_ZERO_SPAN = 1.0  # a curve that stays at 0 is framed from -0.75 to 0.75
MARGIN = 0.25  # of the span, above and below the data


class CompactAxis(LocalizedAxis):
    """A value axis whose tick labels stay short enough for its width: "0.00042" (which
    pyqtgraph leaves out of a 48-pixel axis, as it does every label that does not fit) is
    written "4.2e-4", with as many digits as the ticks' spacing needs."""

    def tickStrings(self, values: list[float], scale: float, spacing: float) -> list[str]:  # noqa: N802
        strings = super().tickStrings(values, scale, spacing)
        if all(len(text) <= SHORT_TICK for text in strings) or not values:
            return strings
        return [localized(text) for text in short_ticks(values, scale * spacing)]


def short_ticks(values: list[float], spacing: float) -> list[str]:
    """Tick values in powers of ten of the largest of them: 0.00041, 0.00042 as 4.1e-4,
    4.2e-4; 1.5e7 as 1.5e7."""
    largest = max(abs(value) for value in values)
    if largest == 0.0 or spacing <= 0.0:
        return [f"{value:g}" for value in values]
    exponent = math.floor(math.log10(largest))
    decimals = max(0, exponent - math.floor(math.log10(spacing)))
    texts = []
    for value in values:
        mantissa = f"{value / 10.0**exponent:.{decimals}f}"
        texts.append("0" if float(mantissa) == 0.0 else f"{mantissa}e{exponent}")
    return texts


def readable_plot_widget(**options: object) -> pg.PlotWidget:
    """A PlotWidget (same options) whose value axis keeps its numbers short (CompactAxis) and
    whose time axis writes them as the app's language does. It has no context menu: a panel's
    plots follow the panel's controls, and pyqtgraph's menus, built with each plot, were a
    third of the time a window took to build."""
    axes = {"left": CompactAxis("left"), "bottom": LocalizedAxis("bottom")}
    return pg.PlotWidget(axisItems=axes, enableMenu=False, **options)


def value_range(low: float, high: float) -> tuple[float, float]:
    """The value range a plot shows for data from `low` to `high`: a quarter of the span above
    and below. A flat curve gets a span of FLAT_SHARE of its size (FLAT_ZERO_SPAN at 0), so the
    axis ticks are a few round numbers apart: on a span of 10⁻⁹ they took more digits than the
    axis has room for, and pyqtgraph leaves out a number that does not fit."""
    size = max(abs(low), abs(high))
    span = max(high - low, FLAT_SHARE * size)
    if span <= 0.0:
        span = FLAT_ZERO_SPAN
    middle = 0.5 * (low + high)
    half = 0.5 * span + MARGIN * span
    return middle - half, middle + half


def legend_above(item: pg.PlotItem, columns: int) -> pg.LegendItem:
    """A legend in one row above the plot's data (in the title's place), never over a curve:
    the curves added to `item` with a name appear in it."""
    legend = pg.LegendItem(colCount=max(1, columns), verSpacing=-6, horSpacing=12)
    legend.setParentItem(item)
    item.layout.removeItem(item.titleLabel)
    item.titleLabel.hide()
    item.layout.addItem(legend, 0, 1)
    item.legend = legend  # PlotItem.addItem puts each named curve in it
    return legend


def nearest(curve: pg.PlotCurveItem, t: float) -> float | None:
    """The curve's value at the sample nearest to time `t`; None for an empty or hidden curve."""
    times, values = curve.getData()
    if times is None or not len(times) or not curve.isVisible():
        return None
    index = int(np.clip(np.searchsorted(times, t), 1, len(times) - 1)) if len(times) > 1 else 0
    if index and abs(times[index - 1] - t) <= abs(times[index] - t):
        index -= 1
    return float(values[index])


class PlotHover:
    """A line at the pointer's time over a plot, and a tooltip beside the pointer with that time
    and each curve's value there (a box inside the plot would not fit a plot 50 pixels high);
    both go when the pointer leaves the data. `describe(curve, value)` writes a curve's line
    ("Sag 0.01144 units")."""

    def __init__(self, plot: pg.PlotWidget, describe: Callable[[pg.PlotCurveItem, float], str]):
        self.plot = plot
        self.describe = describe
        self.text = ""  # what the tooltip says, "" while hidden
        self.line = pg.InfiniteLine(angle=90, movable=False)
        self.line.setZValue(10)
        self.line.hide()
        plot.getPlotItem().addItem(self.line, ignoreBounds=True)
        self.recolour(plot.palette())
        plot.scene().sigMouseMoved.connect(self.follow)
        plot.viewport().installEventFilter(_HoverEvents(self, plot.viewport()))

    def recolour(self, palette: QPalette) -> None:
        colour = QColor(palette.color(QPalette.ColorRole.Text))
        colour.setAlpha(140)
        self.line.setPen(pg.mkPen(colour, width=1, style=Qt.PenStyle.DashLine))

    def curves(self) -> list[pg.PlotCurveItem]:
        items = self.plot.getPlotItem().listDataItems()
        return [curve for curve in items if isinstance(curve, pg.PlotCurveItem)]

    def follow(self, scene_position: QPointF) -> None:
        view = self.plot.getPlotItem().getViewBox()
        if not view.sceneBoundingRect().contains(scene_position):
            self.hide()
            return
        t = view.mapSceneToView(scene_position).x()
        lines = []
        for curve in self.curves():
            value = nearest(curve, t)
            if value is not None:
                lines.append(self.describe(curve, value))
        if not lines:
            self.hide()
            return
        self.text = "\n".join([localized(tr("t = {t:.2f} s").format(t=t)), *lines])
        self.line.setPos(t)
        self.line.show()
        self.plot.viewport().update()  # the Readouts plots repaint only when asked
        self._show_tip(self.plot.mapToGlobal(self.plot.mapFromScene(scene_position)))

    def _show_tip(self, pointer: QPoint) -> None:
        QToolTip.showText(pointer + TIP_OFFSET, self.text, self.plot.viewport())

    def hide(self) -> None:
        if self.text or self.line.isVisible():
            self.text = ""
            self.line.hide()
            self.plot.viewport().update()
            QToolTip.hideText()


TIP_OFFSET = QPoint(14, 14)  # the tooltip below and right of the pointer, off the line


class _HoverEvents(QObject):
    """Hides the hover readout when the pointer leaves the plot; while it shows, the plot's
    own tooltip (what its readouts mean) gives way to it."""

    def __init__(self, hover: PlotHover, parent: QObject) -> None:
        super().__init__(parent)
        self.hover = hover

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        if event.type() == QEvent.Type.Leave:
            self.hover.hide()
        elif event.type() == QEvent.Type.ToolTip and self.hover.text:
            self.hover._show_tip(event.globalPos())  # type: ignore[attr-defined]
            return True
        return False
