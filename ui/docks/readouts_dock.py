"""The Readouts panel: live plots of sag, volume, motion (mean and fastest particle), max
stretch and energy against model time, and the links and faces counts under them.

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
    QFrame,
    QGraphicsView,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from clothlab.sim.core.readouts import (
    CSV_COLUMNS,
    READOUTS,
    SHOWN_KEYS,
    Readout,
    ReadoutHistory,
    shown_scale,
    shown_unit,
)
from clothlab.sim.core.snapshot import Snapshot
from clothlab.sim.core.specimens import peirce_bending_length
from clothlab.sim.document.scene import Scene, build_topology
from clothlab.sim.lab.engine import in_si_units
from clothlab.sim.lab.textile import BendingLengths, bending_lengths
from clothlab.sim.text import QT_TR_NOOP, tr
from clothlab.ui.intents import Trigger
from clothlab.ui.layouts import nest, release_item_wrappers
from clothlab.ui.number_box import IntBox, Limits
from clothlab.ui.numbers import localized
from clothlab.ui.readable_plots import PlotHover, readable_plot_widget, value_range
from clothlab.ui.theme import colour_plot
from clothlab.ui.window.preferences import PLOT_WINDOW

COLUMNS = CSV_COLUMNS  # step, t, then every readout
REDRAW_HZ = 10  # plenty for a 20 s window; each redraw of the plots costs ~15 ms
DEFAULT_WINDOW_S = 20
COLOURS = ("#1f77b4", "#2ca02c", "#ff7f0e", "#d62728", "#9467bd", "#8c564b", "#e377c2")
SERIES: tuple[Readout, ...] = tuple(r for r in READOUTS if r.plotted)
READOUTS_BY_KEY = {series.key: series for series in SERIES}
# Each plot, by its own readout's key: the readouts drawn on it (its own first, then those
# drawn with it as a second curve, e.g. the fastest particle with Motion, the mean).
PLOTS: dict[str, tuple[Readout, ...]] = {
    r.key: (r, *(c for c in SERIES if c.plot_with == r.key)) for r in SERIES if not r.plot_with
}
COUNTS: tuple[Readout, ...] = tuple(r for r in READOUTS if r.key in SHOWN_KEYS and not r.plotted)
HIGHLIGHT = "#f0a000"  # the evidence a question points at
HIGHLIGHT_STYLE = f"background: {HIGHLIGHT}; color: black; border-radius: 3px; padding: 0 3px;"
# The units with words in them, which the panels translate (unit_text); the symbols (%, N, m,
# J, °) and the units in the CSV files stay as they are
WORDED_UNITS = (
    QT_TR_NOOP("units"), QT_TR_NOOP("units³"), QT_TR_NOOP("units/s"), QT_TR_NOOP("mass·units/s²"),
    QT_TR_NOOP("mass·units²/s²"), QT_TR_NOOP("mass·units²/s² per step"), QT_TR_NOOP("J per step"),
)  # fmt: skip


# pixels: a time axis (ticks and label, 38) under 50 of data, which hold three value ticks
PLOT_MIN_HEIGHT = 88
SWATCH_WIDTH = 14  # pixels: the line in a curve's colour before a readout's name


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
        self.plots: dict[str, pg.PlotWidget] = {}  # by readout: a second curve's is its host's
        self._curves: dict[str, pg.PlotCurveItem] = {}
        self._curve_keys: dict[pg.PlotCurveItem, str] = {}  # the readout each curve draws
        self.hovers: dict[str, PlotHover] = {}  # the readout under the pointer, by plot
        self._rows: dict[str, tuple[QLabel, QLabel]] = {}  # name and value
        self.swatches: dict[str, QLabel] = {}  # a line in the colour of the readout's curve
        self._grid_rows: dict[str, int] = {}  # a plot's row in the grid, by its own key
        self.applies: dict[str, bool] = {r.key: True for r in (*SERIES, *COUNTS)}
        self.si = False  # whether the scene's run is in SI units (sim.lab.engine.in_si_units)
        self._curve_shown: dict[str, bool] = {series.key: True for series in SERIES}
        self.highlighted: str | None = None  # the readout a question points at

        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(2)
        nest(layout, self._build_controls())
        grid = QGridLayout()
        grid.setSpacing(2)
        self._grid = grid
        row = 0
        for key, drawn in PLOTS.items():
            row = self._add_plot(grid, row, key, drawn)
        layout.addWidget(_scrolling(grid), 1)
        # a cantilever strip's bending length by each method, under the plots
        self.bending_lengths: BendingLengths | None = None
        self.bending_lengths_label = QLabel()
        self.bending_lengths_label.setObjectName("bending_lengths")
        self.bending_lengths_label.setWordWrap(True)
        self.bending_lengths_label.setToolTip(
            tr(
                "One strip, three methods: (B/ρg)^⅓ from the fabric's numbers; ASTM D1388's "
                "half the overhang (its reading at a 41.5° droop); Peirce's formula "
                "l·(cos(θ/2)/(8·tan θ))^⅓ at the chord angle θ measured. They differ by a few "
                "per cent, as the methods do."
            )
        )
        self.bending_lengths_label.hide()
        layout.addWidget(self.bending_lengths_label)
        self.time_label = QLabel("t = 0.00 s")
        footer = QHBoxLayout()
        footer.addWidget(self.time_label)
        footer.addStretch(1)
        self.count_labels: dict[str, QLabel] = {}  # links, faces
        for count in COUNTS:
            label = QLabel(f"{tr(count.label)} —")
            label.setObjectName(f"readout_{count.key}")
            label.setToolTip(tr(count.tooltip))
            footer.addSpacing(12)
            footer.addWidget(label)
            self.count_labels[count.key] = label
        self.links_label = self.count_labels["links"]
        nest(layout, footer)

        # Changes that come without a snapshot (clear, window, unfreeze) redraw on their own.
        # So do the newest rows of a solver that went quiet within a redraw's interval.
        self._redraw_timer = QTimer(self)
        self._redraw_timer.setSingleShot(True)
        self._redraw_timer.timeout.connect(self.redraw)

    def _build_controls(self) -> QHBoxLayout:
        self.pause_button = QPushButton(tr("Pause"))
        self.pause_button.setCheckable(True)
        self.pause_button.setToolTip(tr("Freeze the plots to look at them; recording goes on."))
        self.pause_button.toggled.connect(self.set_frozen)
        self.clear_button = QPushButton(tr("Clear"))
        self.clear_button.setToolTip(tr("Forget the recorded readouts."))
        self.clear_button.clicked.connect(self.clear)
        self.export_button = QPushButton(tr("Export CSV…"))
        self.export_button.setToolTip(  # the columns by their names in the file
            tr("Save every recorded row: {columns}.").format(columns=", ".join(COLUMNS))
        )
        self.export_button.clicked.connect(
            lambda: self.command_requested.emit(Trigger("export_csv"))
        )
        low, high = PLOT_WINDOW.minimum, PLOT_WINDOW.maximum  # the preference's range
        self.window_box = IntBox(Limits(tr("Plot window"), low, high, PLOT_WINDOW.unit, True))
        self.window_box.setValue(DEFAULT_WINDOW_S)
        self.window_box.setSuffix(f" {PLOT_WINDOW.unit}")
        self.window_box.setToolTip(
            tr("Model time shown by the plots ({low} … {high} s).").format(low=low, high=high)
        )
        self.window_box.valueChanged.connect(self._mark_dirty)
        self.window_box.refused.connect(self.refused)
        controls = QHBoxLayout()
        for button in (self.pause_button, self.clear_button, self.export_button):
            controls.addWidget(button)
        controls.addStretch(1)
        controls.addWidget(QLabel(tr("Window")))
        controls.addWidget(self.window_box)
        return controls

    def _add_plot(
        self, grid: QGridLayout, first_row: int, key: str, drawn: tuple[Readout, ...]
    ) -> int:
        """A plot under the name and value of each readout drawn on it, from `first_row` of the
        grid; a plot with more than one curve names them in a legend. Returns the next row."""
        background = self.palette().color(QPalette.ColorRole.Base)
        plot = readable_plot_widget(background=background)
        plot.setObjectName(f"plot_{key}")
        # The plots share whatever height there is above their least; the cantilever's seven
        # scroll in a 1280 × 800 window (at a fixed height the panel covered the status bar).
        plot.setMinimumHeight(PLOT_MIN_HEIGHT)
        plot.setToolTip("\n".join(tr(series.tooltip) for series in drawn))
        # a screen reader's name; its description gives the latest values (redraw)
        names = tr(drawn[0].label)
        for series in drawn[1:]:
            names = tr("{first} and {second}").format(first=names, second=tr(series.label))
        plot.setAccessibleName(tr("{names} plot").format(names=names))
        # The panel repaints each plot when it redraws. Left to itself, each plot's scene asks
        # for its repaint from a queued call of its own, after the window's repaint has begun,
        # and the window is then flushed (a whole composition with software OpenGL, as the
        # window holds an OpenGL widget) once per plot instead of once for everything.
        plot.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.NoViewportUpdate)
        item = plot.getPlotItem()
        item.showGrid(x=False, y=False)
        item.hideButtons()
        item.setLabel("left", units=None, text="")
        item.getAxis("left").setWidth(48)
        for axis in ("left", "bottom"):
            item.getAxis(axis).setTextPen(self.palette().color(QPalette.ColorRole.Text))
        # each plot its own time axis: any of them may be the lowest one shown, or stand alone
        item.setLabel("bottom", tr("model time (s)"))
        item.setMouseEnabled(x=False, y=False)
        for k, series in enumerate(drawn):
            # PlotCurveItem, not item.plot()'s PlotDataItem: PlotDataItem calls
            # QObject.property() for a missing property on every setData and paint, and PySide6
            # 6.12 returns None from that without a reference, so a long run ends in
            # "deallocating None".
            colour = COLOURS[_colour_index(series) % len(COLOURS)]
            self._add_name(grid, first_row + k, series, colour)
            curve = pg.PlotCurveItem(pen=pg.mkPen(colour, width=2), name=tr(series.curve))
            item.addItem(curve)
            self._curves[series.key] = curve
            self._curve_keys[curve] = series.key
            self.plots[series.key] = plot
        self.hovers[key] = PlotHover(plot, self._describe)
        row = first_row + len(drawn)
        grid.addWidget(plot, row, 0, 1, 2)
        grid.setRowStretch(row, 1)
        self._grid_rows[key] = row
        return row + 1

    def _add_name(self, grid: QGridLayout, row: int, series: Readout, colour: str) -> None:
        """The readout's name after a line in its curve's colour, and its value: the rows above
        a plot are its legend, which leaves the plot's data uncovered."""
        swatch = QLabel()
        swatch.setObjectName(f"swatch_{series.key}")
        swatch.setFixedSize(SWATCH_WIDTH, 3)
        swatch.setStyleSheet(f"background: {colour};")
        name = QLabel(tr(series.label))
        name.setToolTip(tr(series.tooltip))
        value = QLabel("—")
        value.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        value.setToolTip(tr(series.tooltip))
        font = QFont(value.font())
        font.setBold(True)
        value.setFont(font)
        value.setObjectName(f"readout_{series.key}")
        named = QHBoxLayout()
        named.setSpacing(6)
        named.addWidget(swatch)
        named.addWidget(name, 1)
        grid.addLayout(named, row, 0)
        release_item_wrappers(named)
        grid.addWidget(value, row, 1)
        self.value_labels[series.key] = value
        self.swatches[series.key] = swatch
        self._rows[series.key] = (name, value)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:  # a new theme (Edit ▸ Preferences)
            self._colour_plots()

    def _colour_plots(self) -> None:
        for key in PLOTS:
            colour_plot(self.plots[key], self.palette())
            self.hovers[key].recolour(self.palette())

    def _describe(self, curve: pg.PlotCurveItem, value: float) -> str:
        """A curve's line in the box under the pointer: "Sag 0.01144 units"."""
        key = self._curve_keys[curve]
        return f"{tr(READOUTS_BY_KEY[key].label)} {value_text(key, value, self.si)}"

    # --- the panel protocol (ui.docks.panels) ----------------------------------------------------

    def show_scene(self, scene: Scene) -> None:
        self._show_what_applies(scene)
        self.clear()

    def show_edit(self, scene: Scene, command: object) -> None:
        was_si = self.si
        self._show_what_applies(scene)  # pins come and go: sag needs the two top corners
        if self.si != was_si:
            # a fabric given or taken mid-run: the rows so far are in the other system's units
            self.clear()

    def _show_what_applies(self, scene: Scene) -> None:
        """Show only the readouts that mean something for the scene (the table's `applies`):
        no volume without a block, no sag unless the first sheet hangs from its top corners."""
        topology, pins = build_topology(scene), [pin.particle for pin in scene.pins]
        self.si = in_si_units(scene)  # metres and joules, not the model's units
        self.bending_lengths = bending_lengths(scene)
        self.bending_lengths_label.setVisible(self.bending_lengths is not None)
        for series in SERIES:
            self.applies[series.key] = series.applies(topology, pins)
            self._show_series(series.key, self.applies[series.key])
        for count in COUNTS:
            self.applies[count.key] = count.applies(topology, pins)
            self.count_labels[count.key].setVisible(self.applies[count.key])

    def show_snapshot(self, snapshot: Snapshot) -> None:
        self.add_snapshot(snapshot)
        if not self._frozen:  # frozen plots keep the time they stopped at
            self._show_clock(snapshot.t, snapshot.steps)

    def _show_clock(self, t: float, step: int) -> None:
        """The time and step of the frame shown, as the status bar and the replay bar show it
        (the newest recorded row, redrawn a few times a second and recorded every few steps
        on big sheets, lagged: 3.42 s, step 428, beside the status bar's 3.57 s, step 443)."""
        text = localized(tr("t = {t:.2f} s · step {step}").format(t=t, step=step))
        if self.time_label.text() != text:
            self.time_label.setText(text)

    # --- data ---------------------------------------------------------------------------------

    def add_snapshot(self, snapshot: Snapshot) -> None:
        """Record the rows the solver measured since the last snapshot (every step, or every
        few on big sheets: sim.core.readouts.record_stride), then the snapshot's own readouts
        at its step unless that step falls between recorded ones. The snapshot's readouts are
        of the state it shows: a row of its step that came with it may be of the state before
        an edit, an undo or a reset made since (rows of an older snapshot ride on a newer
        one), and the newer readouts take that row's place. A snapshot measured in the other
        unit system starts the history afresh in its own: a fabric was given or taken, by an
        edit or by the recording a replay plays, and the rows so far are in other units."""
        if snapshot.si != self.si:
            self.si = snapshot.si
            self.clear()
        rows = snapshot.rows
        added = self.history.extend(rows, snapshot.probe_rows)
        if not len(rows) or rows[-1, 0] == snapshot.steps:
            added = self.history.append(snapshot.steps, snapshot.readouts) or added
        if not added:
            return
        self._dirty = True
        wait = self._last_redraw + 1.0 / REDRAW_HZ - time.perf_counter()
        if wait <= 0:
            self.redraw()
        elif not self._redraw_timer.isActive():
            # Too soon after the last redraw. A running solver's next snapshot redraws (and
            # stops this timer); a paused one sends none, and the state it stopped at, reset
            # to or edited must still be shown, not the one before it.
            self._redraw_timer.start(math.ceil((wait + 1.0 / REDRAW_HZ) * 1000))

    def clear(self) -> None:
        self.history.clear()
        for curve in self._curves.values():
            curve.setData([], [])
        self._mark_dirty()

    def set_frozen(self, frozen: bool) -> None:
        self._frozen = frozen
        self.pause_button.setChecked(frozen)
        self.pause_button.setText(tr("Resume") if frozen else tr("Pause"))
        self._mark_dirty()

    def _mark_dirty(self) -> None:
        self._dirty = True
        self._redraw_timer.start(0)

    def highlight(self, key: str | None) -> None:
        """Point at one readout: its name, value and the plot it is drawn on (or a count under
        the plots); None points at nothing. A question uses it to show where its evidence is."""
        self.highlighted = key if key in self._rows or key in self.count_labels else None
        for name, (label, value) in self._rows.items():
            on = name == self.highlighted
            label.setStyleSheet(HIGHLIGHT_STYLE if on else "")
            value.setStyleSheet(HIGHLIGHT_STYLE if on else "")
        for key_of_plot in PLOTS:
            on = any(series.key == self.highlighted for series in PLOTS[key_of_plot])
            self.plots[key_of_plot].setStyleSheet(f"border: 3px solid {HIGHLIGHT};" if on else "")
        for name, label in self.count_labels.items():
            label.setStyleSheet(HIGHLIGHT_STYLE if name == self.highlighted else "")
        self._mark_dirty()  # a readout not measured yet shows while it is pointed at

    def _show_series(self, key: str, visible: bool) -> None:
        """Only the readouts the scene has (no sag without a sheet, no volume without a block);
        a plot shows while one of its curves does, and a hidden plot gives its height to the
        others."""
        for widget in (*self._rows[key], self.swatches[key]):
            widget.setVisible(visible)
        self._curves[key].setVisible(visible)
        self._curve_shown[key] = visible
        host = READOUTS_BY_KEY[key].plot_with or key
        shown = any(self._curve_shown[series.key] for series in PLOTS[host])
        self.plots[host].setVisible(shown)
        self._grid.setRowStretch(self._grid_rows[host], 1 if shown else 0)

    def redraw(self) -> None:
        """Update plots and numbers if anything changed since the last redraw."""
        if not self._dirty or self._frozen:
            return
        self._redraw_timer.stop()  # a redraw it was waiting to make is this one
        self._dirty = False
        self._last_redraw = time.perf_counter()
        self.redraw_count += 1
        rows = self.history.window(self.window_box.value())
        if not len(rows):
            for label in self.value_labels.values():
                label.setText("—")
            for count in COUNTS:
                self.count_labels[count.key].setText(f"{tr(count.label)} —")
            return
        t = rows[:, 1]
        end = max(float(t[-1]), 1e-6)
        start = max(0.0, end - self.window_box.value())
        for key, drawn in PLOTS.items():
            shown, words = [], []
            for series in drawn:
                values = rows[:, COLUMNS.index(series.key)] * shown_scale(series, self.si)
                measured = not math.isnan(values[-1])
                # the evidence a question points at shows (empty, "—") before it is measured:
                # forces are measured by a step, and a question's scene starts paused
                pointed_at = series.key == self.highlighted
                visible = self.applies[series.key] and (measured or pointed_at)
                self._show_series(series.key, visible)
                if visible and not measured:
                    self.value_labels[series.key].setText("—")
                elif visible:
                    shown.append(values)
                    self._draw(series.key, t, values)
                    text = value_text(series.key, values[-1], self.si)
                    self.value_labels[series.key].setText(text)
                    words.append(f"{tr(series.label)} {text}, {tr(trend(values))}")
            if shown:
                self._frame(key, start, end, shown)
                described = tr("Latest: {values}.").format(values="; ".join(words))
                if self.plots[key].accessibleDescription() != described:
                    self.plots[key].setAccessibleDescription(described)
        self._show_bending_lengths(float(rows[-1, COLUMNS.index("chord_angle")]))
        for count in COUNTS:
            value = rows[-1, COLUMNS.index(count.key)]
            label = self.count_labels[count.key]
            label.setVisible(self.applies[count.key])  # folds: only on a drape specimen
            label.setText(f"{tr(count.label)} {'—' if math.isnan(value) else int(value)}")

    def _show_bending_lengths(self, angle: float) -> None:
        """The strip's bending length by each method, Peirce's at the newest chord angle."""
        lengths = self.bending_lengths
        if lengths is None:
            return
        peirce = peirce_bending_length(2.0 * lengths.astm, angle)
        text = tr(
            "Bending length: {rigidity} cm from (B/ρg)^⅓ · {astm} cm by ASTM (overhang/2) · "
            "{peirce} cm by Peirce's formula at {angle}°"
        ).format(
            rigidity=f"{lengths.from_rigidity * 100:.3g}",
            astm=f"{lengths.astm * 100:.3g}",
            peirce="—" if math.isnan(peirce) else f"{peirce * 100:.4g}",
            angle="—" if math.isnan(angle) else f"{angle:.2f}",
        )
        text = localized(text)
        if self.bending_lengths_label.text() != text:
            self.bending_lengths_label.setText(text)

    def _draw(self, key: str, t: np.ndarray, values: np.ndarray) -> None:
        self._curves[key].setData(*envelope(t, values, max(16, self.plots[key].width())))

    def _frame(self, key: str, start: float, end: float, curves: list[np.ndarray]) -> None:
        """The plot's time window and a value range that holds every curve on it; repainted
        now, so the one window repaint that shows the 3D view has it."""
        plot = self.plots[key]
        plot.setXRange(start, max(end, start + 1.0), padding=0)
        low = min(float(np.nanmin(values)) for values in curves)
        high = max(float(np.nanmax(values)) for values in curves)
        _follow(plot, low, high)
        plot.viewport().update()


def _scrolling(grid: QGridLayout) -> QScrollArea:
    """The plots in an area that scrolls when the panel is too short for all of them at their
    least height (seven plots of a cantilever in a 1280 × 800 window): a plot squeezed below it
    has its value and time numbers drawn over each other."""
    plots = QWidget()
    plots.setLayout(grid)
    area = QScrollArea()
    area.setObjectName("readouts_plots")
    area.setWidget(plots)
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    return area


def _colour_index(series: Readout) -> int:
    """A plot's own curve takes the colour of its place among the plots; the others on it the
    colours after that one, in their order on it, so that no two curves of a plot look alike."""
    host = series.plot_with or series.key
    return list(PLOTS).index(host) + PLOTS[host].index(series)


def _follow(plot: pg.PlotWidget, low: float, high: float) -> None:
    """Keep the data in view, changing the value range only when the data leaves it or fills
    less than a third of it: an axis whose range changes re-lays its ticks and labels, the
    costliest part of a redraw, and a range that shifts every redraw makes a steady curve
    look as if it moved. A flat curve gets a range of a few round numbers (value_range)."""
    (shown_low, shown_high) = plot.getPlotItem().viewRange()[1]
    wanted_low, wanted_high = value_range(low, high)
    inside = shown_low <= low and high <= shown_high
    if inside and (shown_high - shown_low) <= 2.0 * (wanted_high - wanted_low):
        return
    plot.setYRange(wanted_low, wanted_high, padding=0)


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


TREND_SAMPLES = 60  # a trend is read over the last half second of rows (every step)
STEADY = 0.01  # a change under 1 % of the value (or of the range shown) is steady


def trend(values: np.ndarray) -> str:
    """'rising', 'falling' or 'steady': the newest value against the one TREND_SAMPLES rows
    earlier, for a screen reader's description of a plot (in English: `tr` it to show it)."""
    recent = values[-TREND_SAMPLES:]
    recent = recent[np.isfinite(recent)]
    if len(recent) < 2:
        return QT_TR_NOOP("steady")
    change = float(recent[-1] - recent[0])
    scale = max(abs(float(recent[-1])), float(np.ptp(values[np.isfinite(values)])), 1e-12)
    if abs(change) < STEADY * scale:
        return QT_TR_NOOP("steady")
    return QT_TR_NOOP("rising") if change > 0 else QT_TR_NOOP("falling")


def value_text(key: str, shown: float, si: bool = False) -> str:
    """A readout's value as the panel writes it, `shown` in the panel's unit (its value
    times shown_scale): "0.006578 units", "21.53 %" (`si`: a run in SI units, "0.006578 m")."""
    series = READOUTS_BY_KEY[key]
    if math.isnan(shown):  # not measured (pin force with the classic rule)
        return "—"
    return localized(f"{float(shown):.4g} {unit_text(series, si)}")


def unit_text(readout: Readout, si: bool = False) -> str:
    """The unit a panel shows a readout's value in (sim.core.readouts.shown_unit): its model
    unit in the app's language ("units" in German is "Einheiten"), a symbol as it is; SI units
    for a run in them."""
    # a symbol has no translation: as it is
    return tr(shown_unit(readout, si))
