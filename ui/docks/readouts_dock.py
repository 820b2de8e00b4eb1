"""The Readouts panel: live plots of sag, volume, motion and max stretch against model time.

Every snapshot that reaches the GUI adds one row to the history (the CSV export writes all of
it); the plots show a scrolling window of the last seconds and redraw at most REDRAW_HZ times a
second, so a fast solver cannot make the GUI spend its time on plotting. Redraws happen while a
snapshot is being handed over, i.e. in the same event-loop pass that schedules the viewport's
repaint: in a window with an OpenGL widget every flush composes the whole window, so one flush
for both is much cheaper than two.
"""

from __future__ import annotations

import math
import time

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QFont, QPalette
from PySide6.QtWidgets import (
    QGraphicsView,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from clothlab.sim.core.readouts import CSV_COLUMNS, READOUTS, Readout, ReadoutHistory
from clothlab.sim.core.snapshot import Snapshot
from clothlab.sim.document.scene import Scene, build_topology
from clothlab.ui.intents import Trigger
from clothlab.ui.number_box import IntBox, Limits
from clothlab.ui.window.preferences import PLOT_WINDOW

COLUMNS = CSV_COLUMNS  # step, t, then every readout
REDRAW_HZ = 10  # plenty for a 20 s window; each redraw of the plots costs ~15 ms
DEFAULT_WINDOW_S = 20
COLOURS = ("#1f77b4", "#2ca02c", "#ff7f0e", "#d62728", "#9467bd", "#8c564b", "#e377c2")
SERIES: tuple[Readout, ...] = tuple(r for r in READOUTS if r.plotted)
READOUTS_BY_KEY = {series.key: series for series in SERIES}
HIGHLIGHT = "#f0a000"  # the evidence a question points at
HIGHLIGHT_STYLE = f"background: {HIGHLIGHT}; color: black; border-radius: 3px; padding: 0 3px;"


class ReadoutsPanel(QWidget):
    # Trigger("export_csv"): the button does what File ▸ Export readouts CSV… does
    command_requested = Signal(object)
    refused = Signal(str)  # one line: a typed plot window outside its range

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.history = ReadoutHistory()
        self._dirty = False
        self._frozen = False
        self._last_redraw = -math.inf
        self.redraw_count = 0  # plot redraws so far, for the frame-rate benchmark
        self.value_labels: dict[str, QLabel] = {}
        self.plots: dict[str, pg.PlotWidget] = {}
        self._curves: dict[str, pg.PlotCurveItem] = {}
        self._rows: dict[str, tuple[QLabel, QLabel, pg.PlotWidget]] = {}
        self._grid_rows: dict[str, int] = {}
        self.applies: dict[str, bool] = {series.key: True for series in SERIES}
        self.highlighted: str | None = None  # the readout a question points at

        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(2)
        layout.addLayout(self._build_controls())
        grid = QGridLayout()
        grid.setSpacing(2)
        self._grid = grid
        for row, series in enumerate(SERIES):
            self._add_series(grid, row * 2, series)
        self.plots[SERIES[-1].key].getPlotItem().setLabel("bottom", "model time (s)")
        layout.addLayout(grid, 1)
        self.links_label = QLabel("Links —")
        self.links_label.setToolTip("Live links (cuts remove links).")
        self.time_label = QLabel("t = 0.00 s")
        footer = QHBoxLayout()
        footer.addWidget(self.time_label)
        footer.addStretch(1)
        footer.addWidget(self.links_label)
        layout.addLayout(footer)

        # Changes that come without a snapshot (clear, window, unfreeze) redraw on their own.
        self._redraw_timer = QTimer(self)
        self._redraw_timer.setSingleShot(True)
        self._redraw_timer.setInterval(0)
        self._redraw_timer.timeout.connect(self.redraw)

    def _build_controls(self) -> QHBoxLayout:
        self.pause_button = QPushButton("Pause")
        self.pause_button.setCheckable(True)
        self.pause_button.setToolTip("Freeze the plots to look at them; recording goes on.")
        self.pause_button.toggled.connect(self.set_frozen)
        self.clear_button = QPushButton("Clear")
        self.clear_button.setToolTip("Forget the recorded readouts.")
        self.clear_button.clicked.connect(self.clear)
        self.export_button = QPushButton("Export CSV…")
        self.export_button.setToolTip(f"Save every recorded row: {', '.join(COLUMNS)}.")
        self.export_button.clicked.connect(
            lambda: self.command_requested.emit(Trigger("export_csv"))
        )
        low, high = PLOT_WINDOW.minimum, PLOT_WINDOW.maximum  # the preference's range
        self.window_box = IntBox(Limits("Plot window", low, high, PLOT_WINDOW.unit, True))
        self.window_box.setValue(DEFAULT_WINDOW_S)
        self.window_box.setSuffix(f" {PLOT_WINDOW.unit}")
        self.window_box.setToolTip(f"Model time shown by the plots ({low} … {high} s).")
        self.window_box.valueChanged.connect(self._mark_dirty)
        self.window_box.refused.connect(self.refused)
        controls = QHBoxLayout()
        for button in (self.pause_button, self.clear_button, self.export_button):
            controls.addWidget(button)
        controls.addStretch(1)
        controls.addWidget(QLabel("Window"))
        controls.addWidget(self.window_box)
        return controls

    def _add_series(self, grid: QGridLayout, row: int, series: Readout) -> None:
        name = QLabel(series.label)
        name.setToolTip(series.tooltip)
        value = QLabel("—")
        value.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        value.setToolTip(series.tooltip)
        font = QFont(value.font())
        font.setBold(True)
        value.setFont(font)
        value.setObjectName(f"readout_{series.key}")
        background = self.palette().color(QPalette.ColorRole.Base)
        plot = pg.PlotWidget(background=background)
        plot.setObjectName(f"plot_{series.key}")
        plot.setMinimumHeight(80)
        plot.setToolTip(series.tooltip)
        # The panel repaints each plot when it redraws. Left to itself, each plot's scene asks
        # for its repaint from a queued call of its own, after the window's repaint has begun,
        # and the window is then flushed (a whole composition with software OpenGL, as the
        # window holds an OpenGL widget) once per plot instead of once for everything.
        plot.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.NoViewportUpdate)
        item = plot.getPlotItem()
        item.showGrid(x=False, y=False)
        item.setMenuEnabled(False)
        item.hideButtons()
        item.setLabel("left", units=None, text="")
        item.getAxis("left").setWidth(48)
        for axis in ("left", "bottom"):
            item.getAxis(axis).setTextPen(self.palette().color(QPalette.ColorRole.Text))
        if series is not SERIES[-1]:  # one time axis, under the last plot: they share it
            item.hideAxis("bottom")
        item.setMouseEnabled(x=False, y=False)
        # PlotCurveItem, not item.plot()'s PlotDataItem: PlotDataItem calls QObject.property()
        # for a missing property on every setData and paint, and PySide6 6.12 returns None
        # from that without a reference, so a long run ends in "deallocating None".
        colour = COLOURS[SERIES.index(series) % len(COLOURS)]
        curve = pg.PlotCurveItem(pen=pg.mkPen(colour, width=2))
        item.addItem(curve)
        grid.addWidget(name, row, 0)
        grid.addWidget(value, row, 1)
        grid.addWidget(plot, row + 1, 0, 1, 2)
        grid.setRowStretch(row + 1, 1)
        self.value_labels[series.key] = value
        self.plots[series.key] = plot
        self._curves[series.key] = curve
        self._rows[series.key] = (name, value, plot)
        self._grid_rows[series.key] = row + 1

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:  # a new theme (Edit ▸ Preferences)
            self._colour_plots()

    def _colour_plots(self) -> None:
        """Give the plots the panel's Base and Text colours again: pyqtgraph took them once, at
        construction, and does not follow the palette."""
        palette = self.palette()
        for plot in self.plots.values():
            plot.setBackground(palette.color(QPalette.ColorRole.Base))
            for axis in ("left", "bottom"):
                plot.getPlotItem().getAxis(axis).setTextPen(palette.color(QPalette.ColorRole.Text))
            plot.viewport().update()  # the plots repaint only when asked (NoViewportUpdate)

    # --- the panel protocol (ui.panels) -------------------------------------------------------

    def show_scene(self, scene: Scene) -> None:
        self._show_what_applies(scene)
        self.clear()

    def show_edit(self, scene: Scene, command: object) -> None:
        self._show_what_applies(scene)  # pins come and go: sag needs the two top corners

    def _show_what_applies(self, scene: Scene) -> None:
        """Show only the readouts that mean something for the scene (the table's `applies`):
        no volume without a block, no sag unless the first sheet hangs from its top corners."""
        topology, pins = build_topology(scene), [pin.particle for pin in scene.pins]
        for series in SERIES:
            self.applies[series.key] = series.applies(topology, pins)
            self._show_series(series.key, self.applies[series.key])

    def show_snapshot(self, snapshot: Snapshot) -> None:
        self.add_snapshot(snapshot)

    # --- data ---------------------------------------------------------------------------------

    def add_snapshot(self, snapshot: Snapshot) -> None:
        """Record the rows the solver measured since the last snapshot (every step, or every
        few on big sheets: sim.core.readouts.record_stride), or the snapshot's own readouts."""
        if len(snapshot.rows):
            added = self.history.extend(snapshot.rows)
        else:
            added = self.history.append(snapshot.steps, snapshot.readouts)
        if added:
            self._dirty = True
            if time.perf_counter() - self._last_redraw >= 1.0 / REDRAW_HZ:
                self.redraw()

    def clear(self) -> None:
        self.history.clear()
        for curve in self._curves.values():
            curve.setData([], [])
        self._mark_dirty()

    def set_frozen(self, frozen: bool) -> None:
        self._frozen = frozen
        self.pause_button.setChecked(frozen)
        self.pause_button.setText("Resume" if frozen else "Pause")
        self._mark_dirty()

    def _mark_dirty(self) -> None:
        self._dirty = True
        self._redraw_timer.start()

    def highlight(self, key: str | None) -> None:
        """Point at one readout: its name, value and plot (or, for "links", the links count);
        None points at nothing. A question uses it to show where its evidence is."""
        self.highlighted = key if key in self._rows or key == "links" else None
        for name, (label, value, plot) in self._rows.items():
            on = name == self.highlighted
            label.setStyleSheet(HIGHLIGHT_STYLE if on else "")
            value.setStyleSheet(HIGHLIGHT_STYLE if on else "")
            plot.setStyleSheet(f"border: 3px solid {HIGHLIGHT};" if on else "")
        self.links_label.setStyleSheet(HIGHLIGHT_STYLE if self.highlighted == "links" else "")

    def _show_series(self, key: str, visible: bool) -> None:
        """Only the readouts the scene has (no sag without a sheet, no volume without a block);
        a hidden row gives its height to the others."""
        for widget in self._rows[key]:
            widget.setVisible(visible)
        self._grid.setRowStretch(self._grid_rows[key], 1 if visible else 0)

    def redraw(self) -> None:
        """Update plots and numbers if anything changed since the last redraw."""
        if not self._dirty or self._frozen:
            return
        self._dirty = False
        self._last_redraw = time.perf_counter()
        self.redraw_count += 1
        rows = self.history.window(self.window_box.value())
        if not len(rows):
            for label in self.value_labels.values():
                label.setText("—")
            return
        t = rows[:, 1]
        end = max(float(t[-1]), 1e-6)
        start = max(0.0, end - self.window_box.value())
        latest: dict[str, float] = {}
        for series in SERIES:
            values = rows[:, COLUMNS.index(series.key)] * series.shown_scale
            shown = self.applies[series.key] and not math.isnan(values[-1])
            self._show_series(series.key, shown)
            if shown:
                self._plot(series.key, t, values, start, end)
                latest[series.key] = float(values[-1])
        for key, value in latest.items():
            series = READOUTS_BY_KEY[key]
            self.value_labels[key].setText(_number(value, series.shown_unit or series.unit))
        self.time_label.setText(f"t = {t[-1]:.2f} s · step {int(rows[-1, 0])}")
        self.links_label.setText(f"Links {int(rows[-1, COLUMNS.index('links')])}")
        for key in latest:  # now, so the one window repaint that shows the 3D view has them
            self.plots[key].viewport().update()

    def _plot(self, key: str, t: np.ndarray, values: np.ndarray, start: float, end: float) -> None:
        plot = self.plots[key]
        self._curves[key].setData(*envelope(t, values, max(16, plot.width())))
        plot.setXRange(start, max(end, start + 1.0), padding=0)
        _follow(plot, float(np.nanmin(values)), float(np.nanmax(values)))


def _follow(plot: pg.PlotWidget, low: float, high: float) -> None:
    """Keep the data in view, changing the value range only when the data leaves it or fills
    less than a third of it: an axis whose range changes re-lays its ticks and labels, the
    costliest part of a redraw, and a range that shifts every redraw makes a steady curve
    look as if it moved."""
    (shown_low, shown_high) = plot.getPlotItem().viewRange()[1]
    span = max(high - low, abs(high) * 1e-3, 1e-9)
    inside = shown_low <= low and high <= shown_high
    if inside and (shown_high - shown_low) <= 3.0 * span:
        return
    margin = 0.25 * span
    plot.setYRange(low - margin, high + margin, padding=0)


def envelope(t: np.ndarray, values: np.ndarray, bins: int) -> tuple[np.ndarray, np.ndarray]:
    """At most 2·bins + 2 of the samples that draw the same line as all of them on a plot
    `bins` pixels wide: each bin's lowest and highest sample in time order, plus the first
    and the newest. Every sample falls in a bin (the bins hold count // bins samples, the
    oldest count % bins of them one more), so no peak is lost anywhere in the window. Drawing
    thousands of points a pixel apart costs the plots most of their redraw; the envelope drawn
    is the same."""
    count = len(values)
    if count <= 2 * bins + 2:
        return t, values
    per, longer = divmod(count, bins)
    split = longer * (per + 1)
    picked = [np.array([0, count - 1])]
    for first, block in ((0, values[:split].reshape(longer, per + 1)),
                         (split, values[split:].reshape(bins - longer, per))):  # fmt: skip
        lowest, highest = block.argmin(axis=1), block.argmax(axis=1)
        offsets = first + block.shape[1] * np.arange(len(block))
        picked += [offsets + lowest, offsets + highest]
    chosen = np.unique(np.concatenate(picked))  # sorted: each bin's two in time order
    return t[chosen], values[chosen]


def _number(value: float, unit: str) -> str:
    return f"{value:.4g} {unit}"
