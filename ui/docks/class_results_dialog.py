"""Class results: several students' exported progress CSVs, counted per question in a table —
how many listed it, answered it, predicted right and wrong — and listed per student and question
in a second, sortable table (name, prediction, matched, attempts, time), which Export CSV…
writes for a spreadsheet (UTF-8 with a byte-order mark, so that a spreadsheet reads the names'
accents right). sim.lab.class_results does the counting; this only shows it. A file that is not
a progress CSV is left out with its one-line reason under the tables; the others are still
counted."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from clothlab.sim.document.files import describe, write_atomically
from clothlab.sim.lab.class_results import (
    ClassResultsError,
    QuestionTally,
    StudentAnswer,
    class_summary,
    read_progress_csv,
    student_csv_text,
    student_rows,
)
from clothlab.sim.text import QT_TR_NOOP, tr
from clothlab.ui.layouts import nest
from clothlab.ui.window import file_dialogs

CSV_FILTER = QT_TR_NOOP("CSV files (*.csv);;All files (*)")
# the counts first, so they stay in view beside long titles; the answer's words last
COLUMNS = (
    QT_TR_NOOP("Question"),
    QT_TR_NOOP("Right"),
    QT_TR_NOOP("Wrong"),
    QT_TR_NOOP("Answered"),
    QT_TR_NOOP("Students"),
    QT_TR_NOOP("Answer"),
)
MATCHED_COLUMN = 6
MATCHED_SHOWN = {"yes": QT_TR_NOOP("✓ yes"), "no": QT_TR_NOOP("✗ no")}
STUDENT_COLUMNS = (
    QT_TR_NOOP("Student"),
    QT_TR_NOOP("File"),
    QT_TR_NOOP("Question"),
    QT_TR_NOOP("Title"),
    QT_TR_NOOP("Prediction"),
    QT_TR_NOOP("Answer"),
    QT_TR_NOOP("Matched"),
    QT_TR_NOOP("When"),
    QT_TR_NOOP("Attempts"),
)


class ClassResultsDialog(QDialog):
    """Per question of a set: how a class predicted, from the files its students exported."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("Class results"))
        self.files: list[tuple[str, list[StudentAnswer]]] = []
        self.tallies: list[QuestionTally] = []
        self.set_titles: dict[str, str] = {}  # set id → title, for the sets the app knows
        self.table = QTableWidget(0, len(COLUMNS), self)
        self.table.setObjectName("class_results_table")
        self.table.setHorizontalHeaderLabels([tr(column) for column in COLUMNS])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setTabKeyNavigation(False)
        self.students = QTableWidget(0, len(STUDENT_COLUMNS), self)
        self.students.setObjectName("class_results_students")
        self.students.setHorizontalHeaderLabels([tr(column) for column in STUDENT_COLUMNS])
        self.students.verticalHeader().hide()
        self.students.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.students.setTabKeyNavigation(False)
        self.students.setSortingEnabled(True)  # a click on a header sorts by it
        self.tabs = QTabWidget(self)
        self.tabs.addTab(self.table, tr("Per question"))
        self.tabs.addTab(self.students, tr("Per student"))
        self.summary = QLabel(tr("Open the answer files (CSV) your students exported."))
        self.summary.setObjectName("class_results_summary")
        self.problems = QLabel("")
        self.problems.setObjectName("class_results_problems")
        self.problems.setWordWrap(True)
        self.problems.setTextFormat(Qt.TextFormat.PlainText)
        self.add_button = QPushButton(tr("Add answer files…"))
        self.add_button.clicked.connect(self.add_dialog)
        self.clear_button = QPushButton(tr("Clear"))
        self.clear_button.clicked.connect(self.clear)
        self.export_button = QPushButton(tr("Export CSV…"))
        self.export_button.setToolTip(tr("Every student's answer to every question, as CSV"))
        self.export_button.clicked.connect(self.export_dialog)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        row = QHBoxLayout()
        row.addWidget(self.add_button)
        row.addWidget(self.clear_button)
        row.addWidget(self.export_button)
        row.addStretch(1)
        row.addWidget(buttons)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.problems)
        nest(layout, row)
        self.resize(900, 460)

    def add_dialog(self) -> None:
        start = str(file_dialogs.start_folder())
        paths, _ = QFileDialog.getOpenFileNames(
            self, tr("Open answer files"), start, tr(CSV_FILTER)
        )
        if paths:
            self.add_files(Path(p) for p in paths)

    def add_files(self, paths: Iterable[Path]) -> None:
        """Read each file; one that cannot be counted is named with its reason and left out."""
        problems = []
        for path in paths:
            try:
                answers = read_progress_csv(path)
                class_summary([*self.files, (str(path), answers)])  # of the same set?
            except ClassResultsError as error:
                problems.append(str(error))
                continue
            self.files = [(s, a) for s, a in self.files if s != str(path)]  # read again
            self.files.append((str(path), answers))
        left_out = tr("Left out: {problem}")
        self.problems.setText("\n".join(left_out.format(problem=p) for p in problems))
        self._show()

    def clear(self) -> None:
        self.files = []
        self.problems.setText("")
        self._show()

    def _show(self) -> None:
        self.tallies = class_summary(self.files) if self.files else []
        self.table.setRowCount(len(self.tallies))
        for row, tally in enumerate(self.tallies):
            cells = (f"{row + 1}. {tally.title}", tally.right, tally.wrong, tally.answered,
                     tally.students, tally.answer)  # fmt: skip
            for column, value in enumerate(cells):
                item = QTableWidgetItem(str(value))
                if isinstance(value, int):
                    item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                self.table.setItem(row, column, item)
        self.table.resizeColumnsToContents()
        self.table.horizontalHeader().setStretchLastSection(True)
        self._show_students()
        set_id = self.files[0][1][0].set_id if self.files else ""
        title = self.set_titles.get(set_id, set_id)
        self.summary.setText(
            tr("Set {set}: {count} students' files").format(set=title, count=len(self.files))
            if self.files
            else tr("Open the answer files (CSV) your students exported.")
        )

    def _show_students(self) -> None:
        rows = student_rows(self.files)
        self.students.setSortingEnabled(False)  # filled as listed, then sortable again
        self.students.setRowCount(len(rows))
        for row, cells in enumerate(rows):
            for column, text in enumerate(cells):
                item = QTableWidgetItem()
                # counts sort as numbers ("10" after "9")
                value: object = int(text) if column == len(cells) - 1 else text
                if column == MATCHED_COLUMN and text:  # the file's word, in the app's language
                    value = tr(MATCHED_SHOWN[text])
                item.setData(Qt.ItemDataRole.DisplayRole, value)
                self.students.setItem(row, column, item)
        self.students.setSortingEnabled(True)
        self.students.resizeColumnsToContents()

    def export_csv(self, path: Path) -> None:
        """Every student's answer to every question (sim.lab.class_results.STUDENT_CSV_HEADER)."""
        write_atomically(path, student_csv_text(self.files).encode("utf-8-sig"))

    def export_dialog(self) -> None:
        if not self.files:
            return
        set_id = self.files[0][1][0].set_id
        path, _ = file_dialogs.get_save_file_name(
            self, tr("Export class results"), f"{set_id}-class-results.csv", tr(CSV_FILTER)
        )
        if not path:
            return
        try:
            self.export_csv(Path(path))
        except OSError as error:
            QMessageBox.warning(self, tr("Cannot export answers"), f"{path}: {describe(error)}")
