"""File ▸ Open sweep results…: a sweep's CSV (`clothlab sweep --csv`) as plots, a readout
against one varied setting, one curve per value of another."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFormLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from clothlab.sim.core.readouts import READOUTS, shown_scale
from clothlab.sim.lab.sweep_results import SweepResults, SweepResultsError, load_sweep_results
from clothlab.sim.text import QT_TR_NOOP, tr
from clothlab.ui.docks.readouts_dock import COLOURS, unit_text
from clothlab.ui.layouts import nest
from clothlab.ui.numbers import plot_widget
from clothlab.ui.window import dialogs, file_dialogs

NO_SECOND = QT_TR_NOOP("(none)")  # the "One curve per" choice of no second setting


class SweepPlot(QDialog):
    """The plot of one sweep; the combo boxes choose what is drawn against what."""

    def __init__(self, results: SweepResults, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("Sweep — {title}").format(title=title))
        self.resize(760, 520)
        self.results = results
        self.readout, self.along, self.per = QComboBox(), QComboBox(), QComboBox()
        for readout in READOUTS:
            self.readout.addItem(tr(readout.label), readout.key)
        self.along.addItems(list(results.keys))
        self.per.addItem(tr(NO_SECOND), None)  # the settings themselves are their keys
        for key in results.keys:
            self.per.addItem(key, key)
        if len(results.keys) > 1:
            self.per.setCurrentIndex(2)
        self.plot = plot_widget(background="w")
        self.plot.showGrid(x=True, y=True, alpha=0.3)
        self.legend = self.plot.addLegend(offset=(-10, 10))
        failed = sum(row.status != "ok" for row in results.rows)
        self.summary = QLabel(
            tr("%n variant(s), {failed} without readouts", "", len(results.rows)).format(
                failed=failed
            )
        )
        form = QFormLayout()
        form.addRow(tr("Readout"), self.readout)
        form.addRow(tr("Along"), self.along)
        form.addRow(tr("One curve per"), self.per)
        layout = QVBoxLayout(self)
        nest(layout, form)
        layout.addWidget(self.plot, 1)
        layout.addWidget(self.summary)
        for combo in (self.readout, self.along, self.per):
            combo.currentIndexChanged.connect(self.redraw)
        self.redraw()

    def redraw(self) -> None:
        self.plot.clear()
        self.legend.clear()
        key, along = self.readout.currentData(), self.along.currentText()
        chosen = self.per.currentData()
        per = None if chosen in (None, along) else chosen
        readout = next(r for r in READOUTS if r.key == key)
        for k, (group, (xs, ys)) in enumerate(self.results.curves(key, along, per).items()):
            colour = COLOURS[k % len(COLOURS)]
            name = f"{per} = {group}" if per else tr(readout.label)
            shown = [y * shown_scale(readout, self.results.si) for y in ys]
            self.plot.plot(xs, shown, pen=pg.mkPen(colour, width=2), symbol="o",
                           symbolBrush=colour, symbolPen=None, name=name)  # fmt: skip
        unit, label = unit_text(readout, self.results.si), tr(readout.label)
        self.plot.setLabel("left", f"{label} ({unit})" if unit else label)
        self.plot.setLabel("bottom", along)


def open_sweep_results(parent: QWidget) -> SweepPlot | None:
    """Ask for a sweep's CSV and show it; a file that is not one gets a one-line error."""
    path, _ = file_dialogs.get_open_file_name(parent, tr("Open sweep results"), "CSV (*.csv)")
    if not path:
        return None
    try:
        results = load_sweep_results(path)
    except SweepResultsError as error:
        dialogs.show_error(parent, tr("Cannot open the sweep's results"), tr(str(error)))
        return None
    plot = SweepPlot(results, path, parent)
    plot.show()
    return plot
