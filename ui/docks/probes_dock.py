"""The Probes panel: each probe's height, speed and the tension around its particle, live.
One plot per quantity, one curve per probe in its colour (ui.theme's
PROBE_COLOURS, as its marker in the 3D view), and a table of the latest values.

The readings come from the frames the window shows (sim.core.probes on a snapshot's positions),
so a probe attached to a replay reads the recorded run wherever the replay is; the document's
probes say which particles are read. Curves are kept by particle, so taking probe 1 off moves
probe 2's curve up a colour without losing what it drew.
"""

from __future__ import annotations

import functools
import math
import time

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGraphicsView,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from clothlab.sim.core import forces, probes
from clothlab.sim.core.snapshot import Snapshot
from clothlab.sim.document.scene import Scene
from clothlab.sim.lab.engine import in_si_units
from clothlab.sim.text import QT_TR_NOOP, tr
from clothlab.ui.docks.scene_model import shown_unit
from clothlab.ui.numbers import localized, plot_widget
from clothlab.ui.theme import PROBE_COLOURS, colour_plot
from clothlab.ui.viewport.tools import tool_row

REDRAW_HZ = 10
WINDOW_S = 20.0  # model time the plots show
MAX_POINTS = 20_000  # per probe; then the oldest half goes
EMPTY_HINT = QT_TR_NOOP(  # {shortcut}: the tool's key from its row, so the hint follows it
    "No probes: choose the Probe tool ({shortcut}) and click a particle (up to 4)."
)


def empty_hint() -> str:
    """EMPTY_HINT as shown: in the app's language, with the Probe tool's key."""
    return tr(EMPTY_HINT).format(shortcut=tool_row("probe").shortcut)


class ProbeTrace:
    """One probe's readings over model time: (t, y, speed, tension) rows."""

    def __init__(self) -> None:
        self.rows = np.zeros((0, 4))

    def add(self, t: float, reading: probes.ProbeReading) -> None:
        if len(self.rows) and t < self.rows[-1, 0]:
            self.rows = np.zeros((0, 4))  # back in time: a reset, a seek back
        elif len(self.rows) and t == self.rows[-1, 0]:
            self.rows = self.rows[:-1]  # the same step again (an edit while paused)
        if len(self.rows) >= MAX_POINTS:
            self.rows = self.rows[MAX_POINTS // 2 :]
        row = (t, reading.y, reading.speed, reading.tension)
        self.rows = np.vstack([self.rows, row])


def snapshot_readings(snapshot: Snapshot, particles: list[int]) -> list[probes.ProbeReading]:
    """What each probe reads on a frame (particles the frame does not have are skipped)."""
    count = len(snapshot.x)
    inside = [p for p in particles if 0 <= p < count]
    measured = snapshot.forces
    around = None
    if measured is not None:
        around = functools.partial(forces.tension_around, snapshot.topology, measured.link_tension)
    return probes.read_all(inside, snapshot.x, snapshot.x_prev, snapshot.substep, around)


class ProbesPanel(QWidget):
    command_requested = Signal(object)  # (none yet: a probe is added with the Probe tool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.probes: list[int] = []  # the document's, probe 1 first
        self.si = False  # whether the scene's run is in SI units: the plots' titles say so
        self.traces: dict[int, ProbeTrace] = {}  # by particle
        self.plots: dict[str, pg.PlotWidget] = {}  # by quantity
        self._curves: dict[tuple[str, int], pg.PlotCurveItem] = {}  # (quantity, slot)
        self._dirty = False
        self._last_redraw = -math.inf
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(2)
        self.hint = QLabel(empty_hint())
        self.hint.setWordWrap(True)
        layout.addWidget(self.hint)
        self.table = self._build_table()
        layout.addWidget(self.table)
        for quantity in probes.QUANTITIES:
            layout.addWidget(self._build_plot(quantity), 1)
        self.plots[probes.QUANTITIES[-1]].getPlotItem().setLabel("bottom", tr("model time (s)"))
        self._redraw_timer = QTimer(self)
        self._redraw_timer.setSingleShot(True)
        self._redraw_timer.timeout.connect(self.redraw)
        self._show_rows()

    def _build_table(self) -> QTableWidget:
        headers = [tr("Probe"), tr("Particle"), *(tr(probes.LABELS[q]) for q in probes.QUANTITIES)]
        table = QTableWidget(0, len(headers))
        table.setObjectName("probes_table")
        table.setHorizontalHeaderLabels(headers)
        table.verticalHeader().hide()
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.setTabKeyNavigation(False)  # Tab leaves it, as every table in the window
        table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self._describe_table(table, si=False)
        return table

    @staticmethod
    def _describe_table(table: QTableWidget, si: bool) -> None:
        """The table's tooltip, naming each column's unit in the scene's system."""
        shown = {q: shown_unit(probes.unit_of(q, si)) for q in probes.QUANTITIES}
        table.setToolTip(
            tr(
                "Each probe's particle and its latest height ({y}), speed ({speed}) and the "
                "largest tension in the links at it ({tension})"
            ).format(**shown)
        )

    def _build_plot(self, quantity: str) -> pg.PlotWidget:
        plot = plot_widget(
            background=self.palette().color(QPalette.ColorRole.Base), enableMenu=False
        )
        plot.setObjectName(f"probe_plot_{quantity}")
        plot.setMinimumHeight(70)
        plot.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.NoViewportUpdate)
        item = plot.getPlotItem()
        item.hideButtons()
        item.setMouseEnabled(x=False, y=False)
        self._title(plot, quantity, si=False)
        item.getAxis("left").setWidth(48)
        if quantity != probes.QUANTITIES[-1]:
            item.hideAxis("bottom")
        for slot, colour in enumerate(PROBE_COLOURS):
            curve = pg.PlotCurveItem(pen=pg.mkPen(colour, width=2))
            item.addItem(curve)
            self._curves[(quantity, slot)] = curve
        self.plots[quantity] = plot
        colour_plot(plot, self.palette())
        return plot

    @staticmethod
    def _title(plot: pg.PlotWidget, quantity: str, si: bool) -> None:
        unit = probes.unit_of(quantity, si)
        title = f"{tr(probes.LABELS[quantity])} ({shown_unit(unit)})"
        plot.getPlotItem().setTitle(title, size="9pt")

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            for plot in self.plots.values():
                colour_plot(plot, self.palette())

    # --- the panel protocol (ui.docks.panels) ---------------------------------------------------

    def show_scene(self, scene: Scene) -> None:
        self.traces = {}
        self.show_edit(scene, None)

    def show_edit(self, scene: Scene, command: object) -> None:
        self._show_units(in_si_units(scene))  # m, m/s and N with SI fabrics
        self._set_probes(scene.probes)

    def _show_units(self, si: bool) -> None:
        """Title the plots and the table in SI units or the model's; a change of system (a
        fabric given or taken) starts the traces afresh, as the ones so far are in other units."""
        if si == self.si:
            return
        self.si = si
        self.traces = {}
        self._describe_table(self.table, si)
        for quantity, plot in self.plots.items():
            self._title(plot, quantity, si)

    def show_snapshot(self, snapshot: Snapshot) -> None:
        self._show_units(snapshot.si)  # a replay's recording may give or take a fabric
        if not self.probes:
            return
        for reading in snapshot_readings(snapshot, self.probes):
            self.traces.setdefault(reading.particle, ProbeTrace()).add(snapshot.t, reading)
        self._show_values(snapshot)
        self._dirty = True
        wait = self._last_redraw + 1.0 / REDRAW_HZ - time.perf_counter()
        if wait <= 0:
            self.redraw()
        elif not self._redraw_timer.isActive():
            self._redraw_timer.start(math.ceil(wait * 1000) + 1)

    # --- showing ------------------------------------------------------------------------------

    def _set_probes(self, attached: list[int]) -> None:
        self.probes = list(attached)
        self.traces = {p: self.traces.get(p, ProbeTrace()) for p in self.probes}
        self._show_rows()
        self._dirty = True
        self.redraw()

    def _show_rows(self) -> None:
        self.hint.setVisible(not self.probes)
        self.table.setRowCount(len(self.probes))
        for slot, particle in enumerate(self.probes):
            name = QTableWidgetItem(f"● {slot + 1}")
            name.setForeground(QColor(PROBE_COLOURS[slot]))
            self.table.setItem(slot, 0, name)
            self.table.setItem(slot, 1, QTableWidgetItem(str(particle)))
            for column in range(2, 2 + len(probes.QUANTITIES)):
                if self.table.item(slot, column) is None:
                    self.table.setItem(slot, column, QTableWidgetItem("—"))
        height = self.table.horizontalHeader().height() + 4
        height += sum(self.table.rowHeight(k) for k in range(len(self.probes)))
        self.table.setFixedHeight(height)

    def _show_values(self, snapshot: Snapshot) -> None:
        for slot, reading in enumerate(snapshot_readings(snapshot, self.probes)):
            for k, quantity in enumerate(probes.QUANTITIES):
                value = getattr(reading, quantity)
                text = "—" if math.isnan(value) else localized(f"{value:.4g}")
                item = self.table.item(slot, 2 + k)
                if item is not None:
                    item.setText(text)
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight)

    def redraw(self) -> None:
        """The curves of the last WINDOW_S of model time, each plot framed to hold them (set
        here: the plots do not repaint by themselves, NoViewportUpdate, as the Readouts')."""
        if not self._dirty:
            return
        self._redraw_timer.stop()
        self._dirty = False
        self._last_redraw = time.perf_counter()
        shown = [self.traces[p].rows for p in self.probes if len(self.traces[p].rows)]
        end = max((float(rows[-1, 0]) for rows in shown), default=0.0)
        start = max(0.0, end - WINDOW_S)
        for slot in range(len(PROBE_COLOURS)):
            rows = np.zeros((0, 4))
            if slot < len(self.probes):
                rows = self.traces[self.probes[slot]].rows
                rows = rows[rows[:, 0] >= start]
            for k, quantity in enumerate(probes.QUANTITIES):
                values = rows[:, 1 + k]
                kept = ~np.isnan(values)
                self._curves[(quantity, slot)].setData(rows[kept, 0], values[kept])
        for k, quantity in enumerate(probes.QUANTITIES):
            plot = self.plots[quantity]
            plot.setXRange(start, max(end, start + 1.0), padding=0)
            columns = [rows[rows[:, 0] >= start, 1 + k] for rows in shown]
            finite = np.concatenate([c[~np.isnan(c)] for c in columns] or [np.zeros(0)])
            if len(finite):
                low, high = float(np.min(finite)), float(np.max(finite))
                margin = max(0.05 * (high - low), 1e-3 * max(abs(low), abs(high)), 1e-9)
                plot.setYRange(low - margin, high + margin, padding=0)
            plot.viewport().update()
