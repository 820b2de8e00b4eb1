"""Fit my fabric: from what a person measured on their own fabric (a swatch's
areal density, and either the overhang at which a cantilever strip of it droops to 41.5°, or
another angle, or its drape coefficient on a Cusick meter) the bending rigidity B the model's
strip or specimen needs to do the same (sim.lab.fit), fitted by a sweep on a LocalPool(2) on a
FitRun thread; Cancel stops the sweep. "Save as…" keeps the fitted fabric under a name in the
user's fabrics (ui.user_fabrics), which every fabric chooser offers.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, Qt, QThread, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from clothlab.sim.core.materials import SI_FABRICS
from clothlab.sim.document.files import describe
from clothlab.sim.document.scene import MAX_NAME, SIMaterialSpec
from clothlab.sim.lab import textile
from clothlab.sim.lab.fit import Fit, FitError, fit_bending_rigidity, fit_bending_rigidity_to_drape
from clothlab.sim.lab.sweep import LocalPool
from clothlab.sim.text import QT_TR_NOOP, tr
from clothlab.ui.docks.fabric_fields import short_e
from clothlab.ui.layouts import nest
from clothlab.ui.number_box import FloatBox, Limits, RefusalLine
from clothlab.ui.numbers import localized, plot_widget
from clothlab.ui.theme import colour_plot
from clothlab.ui.user_fabrics import UserFabrics

FIT_WORKERS = 2  # the machine's cores: the sweep's five runs in two processes
TREND_POINTS = 50  # samples of the dashed curve a drape coefficient's B is read off
# their labels are said in a refusal, translated there
DENSITY = Limits(QT_TR_NOOP("Areal density"), 1.0, 1e4, "g/m²")
OVERHANG = Limits(QT_TR_NOOP("Overhang"), 0.5, 100.0, "cm")
ANGLE = Limits(QT_TR_NOOP("Droop angle"), 5.0, 85.0, "°")
DRAPE = Limits(QT_TR_NOOP("Drape coefficient"), 1.0, 99.0, "%")
# a fit of sim.lab.fit with what was measured given: it takes pool=, should_stop= and progress=
FitJob = Callable[..., Fit]


class FitRun(QThread):
    """A fit (sim.lab.fit) on a LocalPool, off the GUI thread."""

    fitted = Signal(object)  # a sim.lab.fit.Fit
    failed = Signal(str)  # one line
    progress = Signal(int, int)  # the sweep's specimens done so far, of how many

    def __init__(self, job: FitJob, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.job = job
        self._stop = threading.Event()

    def cancel(self) -> None:
        self._stop.set()

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    def run(self) -> None:
        try:
            pool = LocalPool(FIT_WORKERS)
        except OSError as error:  # no processes to be had
            message = tr("cannot start the fit's processes: {reason}")
            self.failed.emit(message.format(reason=describe(error)))
            return
        try:
            fit = self.job(pool=pool, should_stop=self._stop.is_set, progress=self.progress.emit)
        except FitError as error:
            self.failed.emit(str(error))
        except (OSError, RuntimeError) as error:  # a worker process died (BrokenProcessPool)
            self.failed.emit(tr("the fit failed: {reason}").format(reason=describe(error)))
        else:
            self.fitted.emit(fit)
        finally:
            pool.close()


class FitDialog(QDialog):
    """Density and an overhang or a drape coefficient in, Fit, the swept points and the fitted
    B out, Save as…."""

    saved = Signal(str)  # the name a fabric was saved under

    def __init__(self, user_fabrics: UserFabrics | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("fit_dialog")
        self.setWindowTitle(tr("Fit my fabric"))
        self.user_fabrics = user_fabrics if user_fabrics is not None else UserFabrics()
        self.fit_run: FitRun | None = None
        self.fit: Fit | None = None
        self.target = 0.0  # what the fit running or shown was asked for: a droop angle or a DC
        self.intro = QLabel("")
        self.intro.setWordWrap(True)
        self.from_cantilever = QRadioButton(tr("A cantilever's overhang"))
        self.from_cantilever.setObjectName("fit_from_cantilever")
        self.from_drape = QRadioButton(tr("A drape coefficient"))
        self.from_drape.setObjectName("fit_from_drape")
        ways = QButtonGroup(self)
        for way in (self.from_cantilever, self.from_drape):
            ways.addButton(way)
        self.from_cantilever.setChecked(True)
        self.density = FloatBox(DENSITY, 1)
        self.density.setObjectName("fit_density")
        self.density.setSuffix(" g/m²")
        self.density.setValue(200.0)
        self.overhang = FloatBox(OVERHANG, 2)
        self.overhang.setObjectName("fit_overhang")
        self.overhang.setSuffix(" cm")
        self.overhang.setValue(5.0)
        self.angle = FloatBox(ANGLE, 1)
        self.angle.setObjectName("fit_angle")
        self.angle.setSuffix(" °")
        self.angle.setValue(textile.PEIRCE_ANGLE)
        self.angle.setToolTip(tr("41.5° is the standard's (ASTM D1388); any angle you measured at"))
        self.drape = FloatBox(DRAPE, 1)
        self.drape.setObjectName("fit_drape")
        self.drape.setSuffix(" %")
        self.drape.setValue(65.0)
        self.drape.setToolTip(tr("Measured on a 30 cm specimen over an 18 cm support"))
        self.fit_button = QPushButton(tr("Fit"))
        self.fit_button.setObjectName("fit_run")
        self.cancel_button = QPushButton(tr("Cancel"))
        self.cancel_button.setObjectName("fit_cancel")
        self.cancel_button.setEnabled(False)
        self.refusal = RefusalLine(
            [self.density, self.overhang, self.angle, self.drape], self.fit_button
        )
        self.result_line = QLabel("")
        self.result_line.setObjectName("fit_result")
        self.result_line.setWordWrap(True)
        self.plot = plot_widget()
        self.plot.setObjectName("fit_plot")
        self.plot.setMinimumHeight(180)
        self.plot.setLogMode(x=True, y=False)
        self.plot.setLabel("bottom", tr("bending rigidity B"), units="N·m")
        self.plot.showGrid(x=True, y=True, alpha=0.3)
        colour_plot(self.plot, self.palette())
        self.name = QLineEdit()
        self.name.setObjectName("fit_name")
        self.name.setPlaceholderText(tr("a name for your fabric"))
        self.name.setMaxLength(MAX_NAME)
        self.save_button = QPushButton(tr("Save as…"))
        self.save_button.setObjectName("fit_save")
        self.save_button.setEnabled(False)
        self.save_line = QLabel("")
        self.save_line.setObjectName("fit_save_line")
        self.save_line.setWordWrap(True)
        close = QPushButton(tr("Close"))
        way_row = QHBoxLayout()
        way_row.addWidget(QLabel(tr("What you measured:")))
        way_row.addWidget(self.from_cantilever)
        way_row.addWidget(self.from_drape)
        way_row.addStretch(1)
        self.form = form = QFormLayout()
        form.addRow(tr("Areal density"), self.density)
        form.addRow(tr("Overhang at the angle"), self.overhang)
        form.addRow(tr("Droop angle"), self.angle)
        form.addRow(tr("Drape coefficient"), self.drape)
        run_row = QHBoxLayout()
        run_row.addWidget(self.fit_button)
        run_row.addWidget(self.cancel_button)
        run_row.addStretch(1)
        save_row = QHBoxLayout()
        save_row.addWidget(self.name, 1)
        save_row.addWidget(self.save_button)
        save_row.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        nest(layout, way_row)
        nest(layout, form)
        layout.addWidget(self.refusal)
        nest(layout, run_row)
        layout.addWidget(self.result_line)
        layout.addWidget(self._plot_or_hint(), 1)
        nest(layout, save_row)
        layout.addWidget(self.save_line)
        self.from_drape.toggled.connect(self._show_way)
        self._show_way()
        self.fit_button.clicked.connect(self.start)
        self.cancel_button.clicked.connect(self.cancel)
        self.save_button.clicked.connect(self.save)
        close.clicked.connect(self.close)
        # Enter commits a typed number only: a dialog's default button would start a fit from
        # the first number typed, with the others not yet entered
        for button in (self.fit_button, self.cancel_button, self.save_button, close):
            button.setAutoDefault(False)
            button.setDefault(False)
        self.resize(520, 560)

    # --- fitting ------------------------------------------------------------------------------

    def _show_way(self) -> None:
        """The fields and words of the measurement chosen: a cantilever's or a drape meter's."""
        drape = self.from_drape.isChecked()
        for box, shown in (
            (self.overhang, not drape),
            (self.angle, not drape),
            (self.drape, drape),
        ):
            self.form.setRowVisible(box, shown)
        if drape:
            self.intro.setText(tr(
                "Weigh a swatch for its areal density, and measure its drape coefficient on a "
                "Cusick drape meter (a 30 cm specimen on an 18 cm support). The fit finds the "
                "bending rigidity B at which the model's specimen drapes the same; as a real "
                "specimen's, its coefficient moves by a few points with the folds it makes."
            ))  # fmt: skip
            self.plot.setLabel("left", tr("drape coefficient"), units="%")
        else:
            self.intro.setText(tr(
                "Weigh a swatch for its areal density, then push a 2.5 cm strip of it over a "
                "table's edge until its tip droops to 41.5° below the edge (a line from the edge "
                "to the tip), and measure the overhang. The fit finds the bending rigidity B at "
                "which the model's strip droops the same."
            ))  # fmt: skip
            self.plot.setLabel("left", tr("chord angle"), units="°")

    @property
    def running(self) -> bool:
        return self.fit_run is not None and self.fit_run.isRunning()

    def start(self) -> None:
        if self.running or any(b.typed_refusal() for b in self.refusal.boxes):
            return
        self.fit = None
        self.save_button.setEnabled(False)
        self.plot.clear()
        self.plot_place.setCurrentWidget(self.plot_hint)
        density = self.density.value() / 1e3
        if self.from_drape.isChecked():
            self.target = self.drape.value()
            job: FitJob = partial(fit_bending_rigidity_to_drape, density, self.target)
            doing = tr("Fitting: five specimens of bending lengths 0.8 to 4 cm, in two processes…")
        else:
            overhang, self.target = self.overhang.value() / 100.0, self.angle.value()
            job = partial(fit_bending_rigidity, density, overhang, angle=self.target)
            doing = tr("Fitting: five strips of B round Peirce's guess, in two processes…")
        run = FitRun(job, self)
        run.fitted.connect(self._fitted)
        run.failed.connect(self._failed)
        run.progress.connect(partial(self._show_progress, doing))
        run.finished.connect(self._finished)
        self.fit_run = run
        self.fit_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.result_line.setText(doing)
        run.start()

    def _plot_or_hint(self) -> QStackedWidget:
        """The plot once a fit exists; before it, a line saying what will show there (empty
        axes said nothing)."""
        self.plot_hint = QLabel(
            tr("Fit draws here the strips it swept and the B it found, once a fit is done.")
        )
        self.plot_hint.setObjectName("fit_plot_hint")
        self.plot_hint.setWordWrap(True)
        self.plot_hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.plot_place = QStackedWidget()
        self.plot_place.addWidget(self.plot_hint)
        self.plot_place.addWidget(self.plot)
        self.plot_place.setCurrentWidget(self.plot_hint)
        return self.plot_place

    def _show_progress(self, doing: str, done: int, count: int) -> None:
        """The sweep's progress after what it is doing, until it is told to stop."""
        if self.fit_run is not None and not self.fit_run.stopping:
            line = tr("{doing} {done} of {count} done").format(doing=doing, done=done, count=count)
            self.result_line.setText(line)

    def cancel(self) -> None:
        if self.fit_run is not None:
            self.fit_run.cancel()
            self.result_line.setText(tr("Stopping…"))

    def _fitted(self, fit: Fit) -> None:
        self.fit = fit
        c = fit.material.bending_length(textile.GRAVITY) * 100
        rigidity = short_e(fit.bending_rigidity, 3)
        if fit.guess is None:  # a drape coefficient's: no formula to guess from
            line = tr("B = {rigidity} N·m (bending length {length:.2f} cm)").format(
                rigidity=rigidity, length=c
            )
        else:  # the sweep's first guess, by Peirce's formula, beside ASTM's reading
            overhang = self.overhang.value() / 100.0
            astm = self.density.value() / 1e3 * textile.GRAVITY * (overhang / 2.0) ** 3
            line = tr(
                "B = {rigidity} N·m (bending length {length:.2f} cm from (B/ρg)^⅓). First guess "
                "{guess} N·m by Peirce's formula at {angle:g}°; ASTM's ρg(O/2)³ {astm} N·m"
            ).format(
                rigidity=rigidity, length=c, guess=short_e(fit.guess, 3), angle=self.target,
                astm=short_e(astm, 3),
            )  # fmt: skip
        self.result_line.setText(localized(line))
        values = [b for b, _ in fit.swept]
        measured = [m for _, m in fit.swept]
        self.plot.plot(values, measured, pen=pg.mkPen("#1565c0", width=2), symbol="o",
                       symbolBrush="#1565c0", name=tr("swept"))  # fmt: skip
        if fit.trend is not None:  # the curve a drape coefficient's B is read off
            along = np.geomspace(values[0], values[-1], TREND_POINTS)
            dashed = pg.mkPen("#c62828", width=1, style=Qt.PenStyle.DashLine)
            self.plot.plot(along, np.polyval(fit.trend, np.log(along)), pen=dashed)
        self.plot.plot([fit.bending_rigidity], [self.target], pen=None, symbol="x",
                       symbolSize=14, symbolPen=pg.mkPen("#c62828", width=3))  # fmt: skip
        self.plot_place.setCurrentWidget(self.plot)
        self.save_button.setEnabled(True)

    def _failed(self, message: str) -> None:
        self.result_line.setText(message)

    def _finished(self) -> None:
        self.fit_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        if self.fit_run is not None:
            self.fit_run.deleteLater()
        self.fit_run = None

    def wait_for_run(self, timeout_ms: int = 600_000) -> bool:
        return self.fit_run is None or self.fit_run.wait(timeout_ms)

    # --- saving -------------------------------------------------------------------------------

    def save(self) -> bool:
        """Keep the fitted fabric under the typed name; one line says why not (no name, a
        preset's name, a name already used: nothing the user saved is overwritten)."""
        name = self.name.text().strip()
        problem = self._name_problem(name)
        if problem is None and self.fit is not None:
            try:
                self.user_fabrics.save(SIMaterialSpec.of(name, self.fit.material))
            except (OSError, ValueError) as error:
                problem = tr("Cannot save {name}: {reason}").format(
                    name=name, reason=describe(error)
                )
        if problem is not None or self.fit is None:
            self.save_line.setText(problem or tr("Fit first"))
            return False
        self.save_line.setText(
            tr("Saved as {name}: every fabric chooser offers it.").format(name=name)
        )
        self.saved.emit(name)
        return True

    def _name_problem(self, name: str) -> str | None:
        if not name:
            return tr("Name: type a name for your fabric")
        if name in SI_FABRICS:
            return tr("{name} is a preset fabric: choose another name").format(name=name)
        if name in self.user_fabrics.fabrics():
            return tr("You already have a fabric named {name}: choose another name").format(
                name=name
            )
        return None

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:  # a new theme (Edit ▸ Preferences)
            colour_plot(self.plot, self.palette())

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt override)
        if self.fit_run is not None:
            self.fit_run.cancel()
            self.fit_run.wait()
        super().closeEvent(event)
