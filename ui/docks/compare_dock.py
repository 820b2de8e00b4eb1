"""The Compare panel: up to four variants of the main run (each a few setting changes, typed as
`clothlab compare --variant` takes them), run side by side in the background while the main
view plays; one plot overlays a readout of each against the main run's, and a table gives the
latest value of every readout with each variant's status.

The runs themselves belong to the app layer (app.compare_runner.CompareRunner), which the
window's builder attaches with `attach`; this panel only reads what it posts.
"""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING, Any

import pyqtgraph as pg
from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from clothlab.sim.core.fabrics import FABRICS
from clothlab.sim.core.readouts import CSV_COLUMNS, READOUTS, Readout, shown_scale, shown_unit
from clothlab.sim.core.snapshot import Snapshot
from clothlab.sim.document.scene import Scene, build_topology
from clothlab.sim.lab.engine import in_si_units
from clothlab.sim.lab.variants import Variant, VariantError, parse_variant
from clothlab.sim.text import QT_TR_NOOP, tr
from clothlab.ui.docks.readouts_dock import unit_text
from clothlab.ui.layouts import nest
from clothlab.ui.numbers import localized
from clothlab.ui.readable_plots import PlotHover, legend_above, readable_plot_widget
from clothlab.ui.theme import colour_plot

if TYPE_CHECKING:  # the runner is handed in (app.compare_runner is one)
    from clothlab.ui.front_door import CompareRuns
    from clothlab.ui.viewport.compare_view import SideView

ROWS = 4
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd")  # one per variant row
MAIN_COLOUR = "#8c8c8c"  # the main run, "as is"
PRESETS = (
    (QT_TR_NOOP("passes 4"), "passes=4"), (QT_TR_NOOP("passes 16"), "passes=16"),
    (QT_TR_NOOP("XPBD on"), "xpbd=on"),
    (QT_TR_NOOP("friction on"), "friction_static=0.5,friction_kinetic=0.4"),
    (QT_TR_NOOP("stiffness 0.5"), "stiffness=0.5"),
)  # fmt: skip
# The world fabric presets (sim.core.fabrics), after a line: `fabric=silk` as the CLI takes it;
# each by its name, shown as "Fabric: silk"
FABRIC_PRESETS = tuple((name, f"fabric={name}") for name in FABRICS)
REDRAW_HZ = 10
COLUMN_MIN = 72  # pixels: "-1.538e-26" whole
LEGEND_COLUMNS = 1  # the legend's names one under the other above the plot: whole
LEGEND_NAME = 40  # characters of a variant's name in the legend; the table's header has it all
ERROR_COLOUR = "#d62728"
ERROR_STYLE = f"color: {ERROR_COLOUR};"
TABLE_HEAD = (QT_TR_NOOP("Status"), QT_TR_NOOP("Step"))
STALE_TEXT = QT_TR_NOOP("Scene changed: Run again")
# the main run's column and curve; `value` and `status` know it by this name in any language
MAIN_RUN = QT_TR_NOOP("as is")


class VariantRow(QWidget):
    """One variant: a colour, a line edit of KEY=VALUE pairs, presets, and its error."""

    def __init__(self, index: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.colour = COLOURS[index]
        swatch = QLabel()
        swatch.setFixedSize(12, 12)
        swatch.setStyleSheet(f"background: {self.colour}; border-radius: 2px;")
        self.edit = QLineEdit()
        self.edit.setObjectName(f"variant_{index}")
        self.edit.setPlaceholderText(tr("e.g. passes=16,xpbd=on"))
        self.edit.setToolTip(tr("Setting changes, as `clothlab compare --variant` takes them."))
        self.edit.setClearButtonEnabled(True)
        self.edit.textChanged.connect(lambda _text: self.show_error(None))
        self.presets = QComboBox()
        self.presets.addItem(tr("Preset…"))
        for label, text in PRESETS:
            self.presets.addItem(tr(label), text)
        self.presets.insertSeparator(self.presets.count())
        for name, text in FABRIC_PRESETS:
            self.presets.addItem(tr("Fabric: {name}").format(name=name), text)
        self.presets.setToolTip(tr("Fill in a common variant, or a fabric's settings."))
        self.presets.activated.connect(self._choose_preset)
        self.error_label = QLabel()
        self.error_label.setStyleSheet(ERROR_STYLE)
        self.error_label.setWordWrap(True)
        self.error_label.hide()
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(4)
        grid.setVerticalSpacing(0)
        grid.addWidget(swatch, 0, 0)
        grid.addWidget(self.edit, 0, 1)
        grid.addWidget(self.presets, 0, 2)
        grid.addWidget(self.error_label, 1, 1, 1, 2)

    def _choose_preset(self, index: int) -> None:
        if self.presets.itemData(index):  # not "Preset…" nor the line
            self.edit.setText(self.presets.itemData(index))
        self.presets.setCurrentIndex(0)

    def variant(self) -> Variant | None:
        """The variant typed, None when empty; VariantError (shown here) when it is bad."""
        text = self.edit.text().strip()
        if not text:
            return None
        try:
            return parse_variant(text)
        except VariantError as error:
            self.show_error(tr(str(error)))
            raise

    def show_error(self, message: str | None) -> None:
        self.error_label.setText(message or "")
        self.error_label.setVisible(bool(message))


class ComparePanel(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runner: CompareRuns | None = None
        self.side_view: SideView | None = None  # the view beside the main one (show_beside)
        self.rows = [VariantRow(k) for k in range(ROWS)]
        self._run_rows: list[int] = []  # the row each of the runner's runs was typed in
        self._applies: dict[str, bool] = {r.key: True for r in READOUTS}
        self.si = False  # whether the scene runs in SI units (sim.lab.engine.in_si_units)
        self._last_redraw = -math.inf
        self._curves: list[pg.PlotCurveItem] = []  # the main run's, then one per variant
        self._colours: list[str] = list(COLOURS)
        self._chosen_readout = "sag"
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(3)
        for row in self.rows:
            layout.addWidget(row)
        nest(layout, self._build_controls())
        nest(layout, self._build_beside())
        self.message_label = QLabel()
        self.message_label.setWordWrap(True)
        layout.addWidget(self.message_label)
        layout.addWidget(self._build_plot(), 3)
        layout.addWidget(self._build_table(), 2)
        self._redraw_timer = QTimer(self)  # the last change of a burst is drawn too
        self._redraw_timer.setSingleShot(True)
        self._redraw_timer.timeout.connect(self.redraw)

    def _build_controls(self) -> QHBoxLayout:
        self.run_button = QPushButton(tr("Run"))
        self.run_button.setToolTip(tr("Run the variants from step 0 alongside the main run."))
        self.run_button.setEnabled(False)  # until a runner is attached
        self.run_button.clicked.connect(self.toggle_running)
        self.readout_box = QComboBox()
        self.readout_box.setToolTip(tr("The readout the plot shows."))
        self.readout_box.currentIndexChanged.connect(self._schedule_redraw)
        self.readout_box.activated.connect(self._choose_readout)
        controls = QHBoxLayout()
        controls.addWidget(self.run_button)
        controls.addStretch(1)
        controls.addWidget(QLabel(tr("Plot")))
        controls.addWidget(self.readout_box)
        self._fill_readout_box()
        return controls

    def _build_beside(self) -> QHBoxLayout:
        self.beside_box = QComboBox()
        self.beside_box.setObjectName("compare_beside")
        self.beside_box.setToolTip(
            tr("Show this variant's cloth in a second view, seen as the main one.")
        )
        self.beside_box.addItem(tr("none"), None)
        for k, row in enumerate(self.rows):
            self.beside_box.addItem("", k)
            self.beside_box.setItemData(k + 1, QColor(row.colour), Qt.ItemDataRole.DecorationRole)
            row.edit.textChanged.connect(self._name_beside_items)
        self._name_beside_items()
        self.beside_box.currentIndexChanged.connect(self._show_beside_choice)
        line = QHBoxLayout()
        line.addWidget(QLabel(tr("Show beside the main view")))
        line.addWidget(self.beside_box, 1)
        return line

    def _name_beside_items(self, *_: object) -> None:
        for k, row in enumerate(self.rows):
            text = row.edit.text().strip()
            self.beside_box.setItemText(
                k + 1,
                f"{k + 1}: {text}" if text else tr("variant {number}").format(number=k + 1),
            )

    def _build_plot(self) -> pg.PlotWidget:
        self.plot = readable_plot_widget(background=self.palette().color(QPalette.ColorRole.Base))
        self.plot.setObjectName("compare_plot")
        self.plot.setMinimumHeight(140)
        item = self.plot.getPlotItem()
        item.hideButtons()
        item.setMouseEnabled(x=False, y=False)
        item.setLabel("bottom", tr("model time (s)"))
        item.getAxis("left").setWidth(48)
        self.legend = legend_above(item, LEGEND_COLUMNS)  # no curve hides behind it
        self.hover = PlotHover(self.plot, self._describe)
        self._colour_plot()
        return self.plot

    def _describe(self, curve: pg.PlotCurveItem, value: float) -> str:
        """A run's line in the box under the pointer: "passes=16  0.01144"."""
        return f"{curve.name()}  {localized(f'{value:.4g}')}"

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:  # a new theme (Edit ▸ Preferences)
            self._colour_plot()
            if self.runner is not None and self.table.columnCount():
                self._fill_table()  # the headers' and errors' colours are the table's own

    def _colour_plot(self) -> None:
        colour_plot(self.plot, self.palette())
        self.hover.recolour(self.palette())

    def _build_table(self) -> QTableWidget:
        self.table = QTableWidget(0, 0)
        self.table.setObjectName("compare_table")
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setTabKeyNavigation(False)  # Tab leaves the table; arrows move in it
        header = self.table.horizontalHeader()
        # the runs share the panel's width, each at least a value's (the table scrolls past
        # that); a long variant's name ends in "…" in its header, whole in its tooltip
        header.setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        header.setMinimumSectionSize(COLUMN_MIN)
        header.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.table.verticalHeader().setDefaultSectionSize(20)
        self.table.setMinimumHeight(120)
        return self.table

    # --- the runner -----------------------------------------------------------------------

    def attach(self, runner: CompareRuns) -> None:
        """Use this runner (app.compare_runner) for the runs; the window's builder calls it."""
        self.runner = runner
        runner.updated.connect(self._schedule_redraw)
        runner.running_changed.connect(self._show_running)
        runner.went_stale.connect(self._show_stale)
        runner.variant_snapshot.connect(self._show_variant_snapshot)
        self.run_button.setEnabled(True)
        self._show_running(runner.running)

    def show_beside(self, side_view: SideView) -> None:
        """Show the variant chosen in "Show beside the main view" in this view (compare_view)."""
        self.side_view = side_view
        self._show_beside_choice()

    def _show_beside_choice(self, *_: object) -> None:
        """Show or hide the second view, and tell the runner whose snapshots it needs."""
        row = self.beside_box.currentData()
        run = self._run_rows.index(row) if row in self._run_rows else None
        if run is not None and (self.runner is None or run >= len(self.runner.runs)):
            run = None  # the variants were read but did not start
        if self.runner is not None:
            self.runner.show(run)
        if self.side_view is None:
            return
        if row is None:
            self.side_view.hide_variant()
            return
        name = self.rows[row].edit.text().strip() or tr("variant {number}").format(number=row + 1)
        if run is not None and self.runner is not None:
            name = self.runner.runs[run].variant.name  # what runs, even if the text changed
        else:
            name = tr("{name}: not running (Run to see it)").format(name=name)
        self.side_view.show_variant(name, self.rows[row].colour)

    def _show_variant_snapshot(self, index: int, snapshot: Snapshot) -> None:
        if self.side_view is not None and not self.side_view.isHidden():
            self.side_view.show_snapshot(snapshot)

    def variants(self) -> list[Variant] | None:
        """Every variant typed, or None (the errors shown) if any is bad."""
        chosen: list[Variant] = []
        colours: list[str] = []
        run_rows: list[int] = []
        bad = False
        for k, row in enumerate(self.rows):
            try:
                variant = row.variant()
            except VariantError:
                bad = True
                continue
            if variant is not None:
                chosen.append(variant)
                colours.append(row.colour)
                run_rows.append(k)
        if bad:
            return None
        self._colours = colours  # the colour of the row each variant was typed in
        self._run_rows = run_rows
        return chosen

    def toggle_running(self) -> None:
        if self.runner is None:
            return
        if self.runner.running:
            self.runner.stop()
            return
        chosen = self.variants()
        if chosen is None:
            self._say(tr("Fix the variants marked in red."), error=True)
            return
        if not chosen:
            self._say(tr("Type a variant (or choose a preset) first."), error=True)
            return
        try:
            self.runner.start(chosen)
        except RuntimeError as error:  # CompareError: no main run yet
            self._say(tr(str(error)), error=True)
            return
        self._say("")
        self._rebuild_curves()
        self._show_beside_choice()  # the new runs: the chosen row may be another run's now

    def _show_running(self, running: bool) -> None:
        self.run_button.setText(tr("Stop") if running else tr("Run"))
        self._schedule_redraw()

    def _show_stale(self, reason: str) -> None:
        stale = tr(STALE_TEXT)
        self._say(f"{tr(reason)}. {stale}" if reason else stale, error=True)

    def _say(self, text: str, error: bool = False) -> None:
        self.message_label.setText(text)
        self.message_label.setStyleSheet(ERROR_STYLE if error else "")

    # --- the panel protocol (ui.docks.panels) ---------------------------------------------------

    def show_scene(self, scene: Scene) -> None:
        self._show_what_applies(scene)
        if self.side_view is not None:
            self.side_view.set_scene(scene)  # the order of its obstacles, for drawing
        if self.runner is not None and self.runner.runs:
            # the variants ran another scene: their curves and columns go with it
            self.runner.forget()
            self._show_stale(QT_TR_NOOP("New scene"))  # translated where shown
            self._show_beside_choice()

    def show_edit(self, scene: Scene, command: object) -> None:
        self._show_what_applies(scene)
        if self.side_view is not None:
            self.side_view.set_scene(scene)
        if self.runner is not None and command is not None:
            self.runner.mark_stale(QT_TR_NOOP("Scene edited"))

    def show_snapshot(self, snapshot: Snapshot) -> None:
        self._schedule_redraw()

    def _show_what_applies(self, scene: Scene) -> None:
        topology, pins = build_topology(scene), [pin.particle for pin in scene.pins]
        self._applies = {r.key: r.applies(topology, pins) for r in READOUTS}
        self.si = in_si_units(scene)  # the unit system the runs measure in
        self._fill_readout_box()

    def _choose_readout(self, index: int) -> None:
        self._chosen_readout = self.readout_box.itemData(index)

    def _fill_readout_box(self) -> None:
        # the user's choice, kept across scenes that have it; else the first that applies
        current = self._chosen_readout
        shown = [r for r in READOUTS if r.plotted and self._applies[r.key]]
        self.readout_box.blockSignals(True)
        self.readout_box.clear()
        for readout in shown:
            self.readout_box.addItem(tr(readout.label), readout.key)
        index = self.readout_box.findData(current)
        self.readout_box.setCurrentIndex(max(index, 0))
        self.readout_box.blockSignals(False)
        self._schedule_redraw()

    # --- drawing --------------------------------------------------------------------------

    def readout(self) -> Readout:
        key = self.readout_box.currentData() or READOUTS[0].key
        return next(r for r in READOUTS if r.key == key)

    def _rebuild_curves(self) -> None:
        """One curve for the main run and one per variant, named in the legend."""
        item = self.plot.getPlotItem()
        for curve in self._curves:
            item.removeItem(curve)
        self.legend.clear()
        runs = self.runner.runs if self.runner is not None else []
        # PlotCurveItem, not PlotDataItem: see ui.docks.readouts_dock
        self._curves = [pg.PlotCurveItem(pen=pg.mkPen(MAIN_COLOUR, width=2), name=tr(MAIN_RUN))]
        for run, colour in zip(runs, self._colours, strict=False):
            pen = pg.mkPen(colour, width=2)
            self._curves.append(pg.PlotCurveItem(pen=pen, name=_short(run.variant.name)))
        for curve in self._curves:
            item.addItem(curve)

    def _schedule_redraw(self, *_: object) -> None:
        if time.perf_counter() - self._last_redraw >= 1.0 / REDRAW_HZ:
            self.redraw()
        elif not self._redraw_timer.isActive():
            self._redraw_timer.start(round(1000 / REDRAW_HZ))

    def redraw(self) -> None:
        self._last_redraw = time.perf_counter()
        if self.runner is None:
            return
        if len(self._curves) != len(self.runner.runs) + 1:
            self._rebuild_curves()
        readout = self.readout()
        column = CSV_COLUMNS.index(readout.key)
        histories = [self.runner.main, *(run.history for run in self.runner.runs)]
        for curve, history in zip(self._curves, histories, strict=True):
            rows = history.rows
            curve.setData(rows[:, 1], rows[:, column] * shown_scale(readout, self.si))
        main = self.runner.main.rows
        if len(main):  # the main run's time: a variant of another Δt goes past the end
            self.plot.setXRange(0.0, max(float(main[-1, 1]), 1e-3), padding=0.02)
        unit, label = unit_text(readout, self.si), tr(readout.label)
        self.plot.getPlotItem().setLabel("left", f"{label} ({unit})" if unit else label)
        self._fill_table()

    def _table_readouts(self) -> list[Readout]:
        return [r for r in READOUTS if self._applies[r.key]]

    def _fill_table(self) -> None:
        """A column per run ("as is" first), a row per readout that applies, status and step
        on top: in a dock as narrow as the Readouts panel every variant's values stay in
        view, as in the table `clothlab compare` prints."""
        assert self.runner is not None
        readouts = self._table_readouts()
        main_rows = self.runner.main.rows
        final = tuple(main_rows[-1]) if len(main_rows) else None
        columns: list[tuple[str, str, str, Any]] = [
            (MAIN_RUN, MAIN_COLOUR, QT_TR_NOOP("main run"), final)
        ]
        for run, colour in zip(self.runner.runs, self._colours, strict=False):
            columns.append((run.variant.name, colour, run.status, run.final))
        table = self.table
        table.setRowCount(len(TABLE_HEAD) + len(readouts))
        table.setColumnCount(len(columns))
        heads = [tr(head) for head in TABLE_HEAD]
        table.setVerticalHeaderLabels([*heads, *(_header(r, self.si) for r in readouts)])
        for c, (name, colour, status, final) in enumerate(columns):
            shown = tr(name) if name == MAIN_RUN else name  # a variant's name is its settings
            header = QTableWidgetItem(shown)
            header.setForeground(QColor(colour))
            header.setToolTip(shown)
            header.setData(Qt.ItemDataRole.UserRole, name)  # `value` and `status` find it by it
            table.setHorizontalHeaderItem(c, header)
            self._set_cell(0, c, tr(status), None, error=_failed(status))
            self._item(0, c).setData(Qt.ItemDataRole.UserRole + 1, status)
            self._set_cell(1, c, "—" if final is None else str(int(final[0])), None)
            for r, readout in enumerate(readouts, start=len(TABLE_HEAD)):
                value = math.nan if final is None else final[CSV_COLUMNS.index(readout.key)]
                self._set_cell(r, c, _shown(readout, value, self.si), value)

    def _item(self, row: int, column: int) -> QTableWidgetItem:
        """A cell _set_cell has made."""
        cell = self.table.item(row, column)
        if cell is None:
            raise LookupError(f"no cell at row {row}, column {column}")
        return cell

    def _set_cell(
        self, row: int, column: int, text: str, value: float | None, error: bool = False
    ) -> None:
        cell = self.table.item(row, column)
        if cell is None:
            cell = QTableWidgetItem()
            self.table.setItem(row, column, cell)
        cell.setText(text)
        cell.setToolTip(text)  # a status ("bad value: …") is longer than its column
        cell.setData(Qt.ItemDataRole.UserRole, value)  # the exact value, for tests and copying
        cell.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        # a value takes the table's text colour as the palette has it now (a colour set here
        # stayed white on white after Dark → Light); only an error has its own
        cell.setData(Qt.ItemDataRole.ForegroundRole, QColor(ERROR_COLOUR) if error else None)

    def value(self, run_name: str, key: str) -> float:
        """The table's value of a readout for a variant ("as is": the main run)."""
        row = len(TABLE_HEAD) + [r.key for r in self._table_readouts()].index(key)
        return float(self._item(row, self._column(run_name)).data(Qt.ItemDataRole.UserRole))

    def status(self, run_name: str) -> str:
        return self._item(0, self._column(run_name)).data(Qt.ItemDataRole.UserRole + 1)

    def _column(self, run_name: str) -> int:
        headers = (self.table.horizontalHeaderItem(c) for c in range(self.table.columnCount()))
        names = [h.data(Qt.ItemDataRole.UserRole) if h else None for h in headers]
        return names.index(run_name)


def _short(name: str) -> str:
    """A variant's name as the legend shows it: its first LEGEND_NAME characters and "…"
    (friction_static=0.5,friction_kinetic=0.4 ran off the plot's right edge)."""
    return name if len(name) <= LEGEND_NAME else name[: LEGEND_NAME - 1] + "…"


def _failed(status: str) -> bool:
    return status.startswith(("blew up", "bad value", "stopped:", "failed"))


def _header(readout: Readout, si: bool) -> str:
    unit, label = shown_unit(readout, si), tr(readout.label)
    # a short unit only (its English length: the same rows name their unit in every language)
    return f"{label} ({unit_text(readout, si)})" if unit and len(unit) <= 6 else label


def _shown(readout: Readout, value: float, si: bool) -> str:
    if math.isnan(value):
        return "—"
    if readout.integer:
        return str(int(value))
    return f"{value * shown_scale(readout, si):.4g}"
