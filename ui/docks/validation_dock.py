"""The Validation panel: the textile lab's tests on chosen fabrics, measured
against published bands, as `clothlab validate` prints them (sim.lab.textile.validate).

Each check takes seconds (the drape test the longest), so they run one after another on a
ValidationRun thread and each row fills as its check arrives; Cancel stops between checks.
The drape test's specimen is drawn from above: its shadow (sim.core.drape.shadow_outline), the
shadow's outline, the support disc and the flat specimen's rim. "Open in view" opens the selected
row's test scene for its fabric in the main window; "Export CSV…" writes the checks through the
guarded writer.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt, QThread, Signal
from PySide6.QtGui import QColor, QImage, QPainter, QPaintEvent, QPen, QPolygonF
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from clothlab.sim.core.drape import Shadow, shadow_outline
from clothlab.sim.core.fabrics import fabric_label
from clothlab.sim.core.materials import SI_FABRICS, SIMaterial
from clothlab.sim.document.files import describe, write_atomically
from clothlab.sim.document.scene import Scene, SIMaterialSpec
from clothlab.sim.lab import textile
from clothlab.sim.text import QT_TR_NOOP, tr
from clothlab.ui.layouts import nest
from clothlab.ui.number_box import IntBox, Limits
from clothlab.ui.numbers import localized
from clothlab.ui.user_fabrics import UserFabrics
from clothlab.ui.window import file_dialogs

# the mark early: a narrow dock shows it without scrolling
COLUMNS = (QT_TR_NOOP("Fabric"), QT_TR_NOOP("Test"), "", QT_TR_NOOP("Measured"), QT_TR_NOOP("Band"),
           QT_TR_NOOP("Note"))  # fmt: skip
MARK, MEASURED, BAND, NOTE = 2, 3, 4, 5
PASS, OUT = QT_TR_NOOP("PASS"), QT_TR_NOOP("OUT")
PASS_COLOUR, OUT_COLOUR = "#2e7d32", "#c62828"
CSV_FILTER = QT_TR_NOOP("CSV files (*.csv)")
KEY_ROLE = Qt.ItemDataRole.UserRole  # a row's fabric and test by their keys, not as shown
SUPPORT_DIAMETER = 0.18  # m: the Cusick meter's support disc (sim.lab.textile's default)
SPECIMEN_DIAMETER = 0.30  # m


@dataclass(frozen=True, eq=False)
class DrapedSpecimen:
    """What the picture of a drape test shows: the shadow raster and its outline (x, z)."""

    fabric: str
    shadow: Shadow
    outline: np.ndarray  # (bins, 2) float64, m
    center: tuple[float, float]  # (x, z) of the support's centre, m
    drape_coefficient: float  # %
    folds: int


class ValidationRun(QThread):
    """Runs each test for each fabric, one check at a time, off the GUI thread."""

    check_done = Signal(object, object)  # a textile.Check, and a DrapedSpecimen or None
    failed = Signal(str)  # one line: the error of a check that raised

    def __init__(
        self,
        fabrics: dict[str, SIMaterial],
        tests: tuple[str, ...],
        specimens: int = 1,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.fabrics, self.tests, self.specimens = fabrics, tests, specimens
        self._stop = threading.Event()

    def cancel(self) -> None:
        """Stop before the next check (a check under way runs to its end)."""
        self._stop.set()

    @property
    def cancelled(self) -> bool:
        return self._stop.is_set()

    def run(self) -> None:
        try:
            for name, material in self.fabrics.items():
                for test in self.tests:
                    if self._stop.is_set():
                        return
                    self.check_done.emit(*measure(name, material, test, self.specimens))
        except (ValueError, ArithmeticError, MemoryError) as error:  # a run that blew up
            self.failed.emit(str(error))


def measure(
    name: str, material: SIMaterial, test: str, specimens: int = 1
) -> tuple[textile.Check, DrapedSpecimen | None]:
    """One check; for the drape test also its first specimen, settled once for both (the
    check's coefficient is the mean of `specimens` on each mesh)."""
    if test != "cusick-drape":
        return textile.CHECKS[test](name, material), None
    sim = textile.draped_specimen(name, material)
    check = textile.drape_check_of(name, sim, material, specimens)
    cast, outline = shadow_outline(sim, 0)
    readouts = sim.readouts()
    center = (0.0, 0.0)  # cusick_drape_scene centres the specimen on the y axis
    specimen = DrapedSpecimen(
        name, cast, outline, center, readouts.drape_coefficient, int(readouts.folds)
    )
    return check, specimen


class DrapePicture(QWidget):
    """The draped specimen from above: shadow grey, outline blue, support disc and the flat
    specimen's rim dashed."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("drape_picture")
        self.setMinimumSize(160, 160)
        self.specimen: DrapedSpecimen | None = None
        self._image: QImage | None = None

    def show_specimen(self, specimen: DrapedSpecimen | None) -> None:
        self.specimen = specimen
        self._image = None if specimen is None else shadow_image(specimen.shadow)
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt override)
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.fillRect(self.rect(), self.palette().base())
        specimen = self.specimen
        if specimen is None or self._image is None:
            painter.setPen(self.palette().placeholderText().color())
            painter.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, tr("Run the drape test"))
            return
        side = min(self.width(), self.height()) - 8
        scale = side / (SPECIMEN_DIAMETER * 1.1)  # pixels per metre
        cx, cz = specimen.center
        middle = QPointF(self.width() / 2, self.height() / 2)

        def to_screen(x: float, z: float) -> QPointF:
            return QPointF(middle.x() + (x - cx) * scale, middle.y() + (z - cz) * scale)

        cast = specimen.shadow
        rows, cols = cast.covered.shape
        top_left = to_screen(cast.origin[0], cast.origin[1])
        target = QRectF(
            top_left.x(), top_left.y(), cols * cast.pixel * scale, rows * cast.pixel * scale
        )
        painter.drawImage(target, self._image)
        painter.setPen(QPen(QColor("#1565c0"), 2))
        painter.drawPolygon(QPolygonF([to_screen(x, z) for x, z in specimen.outline]))
        dashed = QPen(QColor("#c62828"), 1.5, Qt.PenStyle.DashLine)
        painter.setPen(dashed)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for diameter in (SUPPORT_DIAMETER, SPECIMEN_DIAMETER):
            r = diameter / 2 * scale
            painter.drawEllipse(to_screen(cx, cz), r, r)


def shadow_image(cast: Shadow) -> QImage:
    """The shadow raster as a grey image with transparent gaps (row = z, column = x)."""
    covered = np.ascontiguousarray(cast.covered)
    rows, cols = covered.shape
    pixels = np.zeros((rows, cols, 4), dtype=np.uint8)  # BGRA, as Format_ARGB32 is stored
    pixels[covered] = (150, 150, 150, 255)
    image = QImage(pixels.data, cols, rows, cols * 4, QImage.Format.Format_ARGB32)
    return image.copy()  # owns its pixels: the numpy buffer goes with this function


class ValidationPanel(QWidget):
    """Choose fabrics and tests, Run, watch each row arrive, Cancel, export, look."""

    scene_requested = Signal(object)  # a Scene: "Open in view"
    fit_requested = Signal()  # "Fit my fabric…"
    said = Signal(str)  # one line for the status bar

    def __init__(self, user_fabrics: UserFabrics | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.user_fabrics = user_fabrics if user_fabrics is not None else UserFabrics()
        self.run_thread: ValidationRun | None = None
        self.checks: list[textile.Check] = []
        self.specimens: dict[str, DrapedSpecimen] = {}
        self._fabrics: dict[str, SIMaterial] = {}
        self._rows: dict[tuple[str, str], int] = {}
        self._build()
        self.refresh_fabrics()

    def _build(self) -> None:
        self.fabric_box = QGroupBox(tr("Fabrics"))
        self.fabric_grid = QGridLayout(self.fabric_box)
        self.fabric_checks: dict[str, QCheckBox] = {}
        test_box = QGroupBox(tr("Tests"))
        test_rows = QVBoxLayout(test_box)
        tests_row = QHBoxLayout()
        self.test_checks: dict[str, QCheckBox] = {}
        for test in textile.TESTS:
            check = QCheckBox(tr(textile.TEST_NAMES[test]))
            check.setObjectName(f"validate_test_{test}")
            check.setChecked(True)
            tests_row.addWidget(check)
            self.test_checks[test] = check
        tests_row.addStretch(1)
        nest(test_rows, tests_row)
        # A lab drapes several specimens and averages them: their folds differ, as here.
        self.specimens_box = IntBox(
            Limits(tr("Drape specimens"), 1, textile.MAX_SPECIMENS, integer=True)
        )
        self.specimens_box.setObjectName("validate_specimens")
        self.specimens_box.setValue(1)
        self.specimens_box.setToolTip(
            tr("Drape this many specimens on each mesh, each started raised its own way, and "
               "compare their mean, as a lab averages its specimens")
        )  # fmt: skip
        specimens_label = QLabel(tr("Drape specimens"))
        specimens_label.setBuddy(self.specimens_box)
        specimens_row = QHBoxLayout()
        specimens_row.addWidget(specimens_label)
        specimens_row.addWidget(self.specimens_box)
        specimens_row.addStretch(1)
        nest(test_rows, specimens_row)
        self.run_button = QPushButton(tr("Run"))
        self.run_button.setObjectName("validate_run")
        self.cancel_button = QPushButton(tr("Cancel"))
        self.cancel_button.setObjectName("validate_cancel")
        self.cancel_button.setEnabled(False)
        self.export_button = QPushButton(tr("Export CSV…"))
        self.export_button.setObjectName("validate_export")
        self.export_button.setEnabled(False)
        self.fit_button = QPushButton(tr("Fit my fabric…"))
        self.fit_button.setObjectName("validate_fit")
        self.progress = QLabel("")
        self.progress.setObjectName("validate_progress")
        buttons = QHBoxLayout()
        for button in (self.run_button, self.cancel_button, self.export_button, self.fit_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setObjectName("validate_table")
        self.table.setHorizontalHeaderLabels([tr(c) if c else c for c in COLUMNS])
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setTabKeyNavigation(False)  # Tab leaves the table; arrows move in it
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.picture_title = QLabel(tr("Drape from above"))
        self.picture_title.setObjectName("drape_title")
        self.picture_title.setWordWrap(True)
        self.picture = DrapePicture()
        self.open_button = QPushButton(tr("Open in view"))
        self.open_button.setObjectName("validate_open")
        self.open_button.setEnabled(False)
        self.open_button.setToolTip(tr("Open the selected row's test scene for its fabric"))
        picture_side = QWidget()
        side = QVBoxLayout(picture_side)
        side.setContentsMargins(0, 0, 0, 0)
        side.addWidget(self.picture_title)
        side.addWidget(self.picture, 1)
        side.addWidget(self.open_button)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.table)
        splitter.addWidget(picture_side)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.fabric_box)
        layout.addWidget(test_box)
        nest(layout, buttons)
        layout.addWidget(self.progress)
        layout.addWidget(splitter, 1)
        self.run_button.clicked.connect(self.start)
        self.cancel_button.clicked.connect(self.cancel)
        self.export_button.clicked.connect(self.export_dialog)
        self.fit_button.clicked.connect(self.fit_requested)
        self.open_button.clicked.connect(self.open_selected)
        self.table.itemSelectionChanged.connect(self._row_selected)

    # --- fabrics ------------------------------------------------------------------------------

    def refresh_fabrics(self) -> None:
        """The presets and the user's own fabrics (read again: one may have been saved)."""
        first = not self.fabric_checks  # at first every preset, as `clothlab validate` runs
        chosen = (
            set(SI_FABRICS)
            if first
            else {n for n, c in self.fabric_checks.items() if c.isChecked()}
        )
        self._fabrics = dict(SI_FABRICS)
        self._fabrics.update({n: s.material for n, s in self.user_fabrics.fabrics().items()})
        for check in self.fabric_checks.values():
            self.fabric_grid.removeWidget(check)
            check.deleteLater()
        self.fabric_checks = {}
        for k, name in enumerate(self._fabrics):
            check = QCheckBox(
                fabric_label(name) if name in SI_FABRICS else tr("{name} (yours)").format(name=name)
            )
            check.setObjectName(f"validate_fabric_{name}")
            check.setChecked(name in chosen)
            self.fabric_grid.addWidget(check, k // 3, k % 3)
            self.fabric_checks[name] = check

    def choose(self, fabrics: list[str], tests: list[str]) -> None:
        """Tick exactly these fabrics and tests (what a script or the Fit dialog asks for)."""
        for name, check in self.fabric_checks.items():
            check.setChecked(name in fabrics)
        for test, check in self.test_checks.items():
            check.setChecked(test in tests)

    # --- running ------------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self.run_thread is not None and self.run_thread.isRunning()

    def start(self) -> None:
        if self.running:
            return
        fabrics = {n: self._fabrics[n] for n, c in self.fabric_checks.items() if c.isChecked()}
        tests = tuple(t for t, c in self.test_checks.items() if c.isChecked())
        if not fabrics or not tests:
            self.progress.setText(tr("Choose at least one fabric and one test."))
            return
        self.checks, self.specimens, self._rows = [], {}, {}
        self.table.setRowCount(0)
        self.picture.show_specimen(None)
        for name in fabrics:
            for test in tests:
                self._add_row(name, test)
        run = ValidationRun(fabrics, tests, self.specimens_box.value(), self)
        run.check_done.connect(self._check_done)
        run.failed.connect(self._failed)
        run.finished.connect(self._finished)
        self.run_thread = run
        self._set_running(True)
        self._show_progress()
        run.start()

    def cancel(self) -> None:
        if self.run_thread is not None:
            self.run_thread.cancel()
            self.progress.setText(tr("Cancelling after the check under way…"))

    def _set_running(self, running: bool) -> None:
        self.run_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        self.export_button.setEnabled(not running and bool(self.checks))
        for check in [*self.fabric_checks.values(), *self.test_checks.values()]:
            check.setEnabled(not running)

    def _add_row(self, fabric: str, test: str) -> None:
        row = self.table.rowCount()
        self.table.insertRow(row)
        name = tr(textile.TEST_NAMES[test])
        for column, text in enumerate((fabric_label(fabric), name, "", "…", "", tr("waiting"))):
            self.table.setItem(row, column, QTableWidgetItem(text))
        self._cell(row, 0).setData(KEY_ROLE, fabric)  # the names `selected` gives
        self._cell(row, 1).setData(KEY_ROLE, test)
        self._rows[(fabric, test)] = row

    def _cell(self, row: int, column: int) -> QTableWidgetItem:
        item = self.table.item(row, column)
        assert item is not None  # every cell is made with its row (_add_row)
        return item

    def _check_done(self, check: textile.Check, specimen: DrapedSpecimen | None) -> None:
        self.checks.append(check)
        row = self._rows[(check.fabric, check.test)]
        mark = tr(PASS if check.passed else OUT)
        texts = (
            fabric_label(check.fabric),
            tr(textile.TEST_NAMES[check.test]),
            mark,
            localized(f"{check.measured:.4g} {check.unit}"),
            localized(f"{check.low:.4g}…{check.high:.4g} {check.unit}") if check.has_band else "—",
            localized(tr(check.note)),
        )
        for column, text in enumerate(texts):
            self._cell(row, column).setText(text)
        self._cell(row, MEASURED).setToolTip(tr(check.quantity))
        self._cell(row, BAND).setToolTip(
            tr("Band: {reference}").format(reference=tr(check.reference))
        )
        mark_cell = self._cell(row, MARK)
        mark_cell.setForeground(QColor(PASS_COLOUR if check.passed else OUT_COLOUR))
        font = mark_cell.font()
        font.setBold(True)
        mark_cell.setFont(font)
        if specimen is not None:
            self.specimens[check.fabric] = specimen
            if self.picture.specimen is None:
                self.table.selectRow(row)
        self._row_selected()
        self._show_progress()

    def _show_progress(self) -> None:
        total = len(self._rows)
        passed = sum(c.passed for c in self.checks)
        self.progress.setText(
            tr("{done} of {total} checks, {passed} in their bands").format(
                done=len(self.checks), total=total, passed=passed
            )
        )

    def _failed(self, error: str) -> None:
        message = tr("validation stopped: {error}").format(error=tr(error))
        self.progress.setText(message)
        self.said.emit(message)

    def _finished(self) -> None:
        run = self.run_thread
        cancelled = run is not None and run.cancelled
        measured = {(c.fabric, c.test) for c in self.checks}
        for key, row in self._rows.items():
            if key not in measured:  # still "waiting"
                self._cell(row, NOTE).setText(tr("cancelled") if cancelled else tr("not run"))
                self._cell(row, MEASURED).setText("—")
        self._set_running(False)
        done, total = len(self.checks), len(self._rows)
        passed = sum(c.passed for c in self.checks)
        if cancelled and done < total:
            text = tr("Cancelled: {done} of {total} checks, {passed} in their bands")
        else:
            text = tr("Done: {done} of {total} checks, {passed} in their bands")
        self.progress.setText(text.format(done=done, total=total, passed=passed))
        if run is not None:
            run.deleteLater()
        self.run_thread = None

    def wait_for_run(self, timeout_ms: int = 600_000) -> bool:
        """Block until the run's thread ends (closing the window, tests)."""
        return self.run_thread is None or self.run_thread.wait(timeout_ms)

    # --- the selected row ---------------------------------------------------------------------

    def selected(self) -> tuple[str, str] | None:
        rows = self.table.selectionModel().selectedRows()
        if not rows:
            return None
        row = rows[0].row()
        return str(self._cell(row, 0).data(KEY_ROLE)), str(self._cell(row, 1).data(KEY_ROLE))

    def _row_selected(self) -> None:
        chosen = self.selected()
        self.open_button.setEnabled(chosen is not None)
        fabric = chosen[0] if chosen is not None else None
        specimen = self.specimens.get(fabric or "")
        if specimen is None and self.specimens and fabric is None:
            return
        self.picture.show_specimen(specimen)
        if specimen is None:
            self.picture_title.setText(
                tr("{fabric}: no drape test run").format(fabric=fabric)
                if fabric
                else tr("Drape from above")
            )
        else:
            self.picture_title.setText(
                tr(
                    "{fabric} from above: drape coefficient {coefficient:.1f} %, {folds} folds"
                ).format(
                    fabric=specimen.fabric,
                    coefficient=specimen.drape_coefficient,
                    folds=specimen.folds,
                )
            )

    def test_scene(self, fabric: str, test: str) -> Scene:
        """The test's scene with the fabric, as `clothlab validate` builds it."""
        return textile.PRESETS[test](SIMaterialSpec.of(fabric, self._fabrics[fabric]))

    def open_selected(self) -> None:
        chosen = self.selected()
        if chosen is not None:
            self.scene_requested.emit(self.test_scene(*chosen))

    # --- export -------------------------------------------------------------------------------

    def export_csv(self, path: Path) -> None:
        write_atomically(Path(path), textile.checks_csv(self.checks).encode("utf-8"))

    def export_dialog(self) -> None:
        path, _ = file_dialogs.get_save_file_name(
            self, tr("Export validation CSV"), "validation.csv", tr(CSV_FILTER)
        )
        if not path:
            return
        try:
            self.export_csv(Path(path))
        except OSError as error:
            self.said.emit(
                tr("Cannot export {name}: {reason}").format(
                    name=Path(path).name, reason=describe(error)
                )
            )
            return
        self.said.emit(
            tr("Exported %n check(s) to {name}", "", len(self.checks)).format(name=Path(path).name)
        )

    def shutdown(self) -> None:
        """Stop a run and wait for it (the window is closing)."""
        if self.run_thread is not None:
            self.run_thread.cancel()
            self.run_thread.wait()
