"""The Questions panel: the lab's questions, one at a time — load its scene, predict, run and
watch (the Readouts panel points at the evidence), then read the explanation and try a change.

Nothing here locks the app: the panel only asks the window for things (a scene, a run, a setting,
a readout to point at) by signals, and every tool keeps working while a question is open. Each
"now try" is an ordinary setting change, so Undo reverts it.

Answers are kept per question set (by its id) in the data folder, next to the autosave's
recovery folder: ``$XDG_DATA_HOME/ClothLab/Cloth Lab/progress/<set id>.json`` on Linux::

    {"format": "clothlab-progress", "version": 2, "set": "lab", "student": "Ana",
     "questions": {"drop": [{"prediction": "It slides off…", "value": 1, "matched": true,
                             "locked": "2025-01-31T14:05:09+01:00",
                             "explained": "2025-01-31T14:06:30+01:00"}]}}

A prediction is stored when it is locked in, before the scene runs: once locked it stays locked
(a relaunched app, or Load the scene again, shows it locked rather than asking again). Every
attempt is kept with its times; the first is the one that counts (matched, in the CSV), and the
CSV says how many there were. Version 1 files (the latest answer per question) are read as one
attempt each. Writes are atomic (sim.document.files).
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QStandardPaths, Qt, QTimer, Signal
from PySide6.QtGui import QMouseEvent, QPaintEvent, QShowEvent
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDockWidget,
    QGroupBox,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QMessageBox,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from clothlab.sim.core.parameters import SETTINGS_TABLE, Settings
from clothlab.sim.core.snapshot import Snapshot
from clothlab.sim.document.commands import Run
from clothlab.sim.document.files import (
    FileRefusedError,
    describe,
    read_regular_file,
    write_atomically,
)
from clothlab.sim.document.requests import ChangeSetting
from clothlab.sim.document.scene import Scene, field_range, scene_settings
from clothlab.sim.lab.class_results import PROGRESS_CSV_HEADER
from clothlab.sim.lab.questions import (
    BUILTIN_SET,
    ClassMode,
    NumberAnswer,
    Question,
    QuestionSet,
    QuestionSetError,
    load_builtin_set,
    load_question_set,
)
from clothlab.sim.text import QT_TR_NOOP, tr
from clothlab.ui.docks.teacher import teacher_allows
from clothlab.ui.intents import NewDocument
from clothlab.ui.layouts import nest
from clothlab.ui.number_box import FloatBox, Limits, RefusalLine
from clothlab.ui.numbers import localized
from clothlab.ui.plain_text import as_written
from clothlab.ui.window import file_dialogs
from clothlab.ui.window.preferences import APPLICATION, ORGANIZATION

if TYPE_CHECKING:  # made when first opened, so the panel's import leaves them for later
    from clothlab.ui.docks.class_results_dialog import ClassResultsDialog
    from clothlab.ui.docks.question_editor import QuestionEditor

PROGRESS_FORMAT = "clothlab-progress"
PROGRESS_VERSION = 2
MAX_PROGRESS_BYTES = 16 * 1024 * 1024  # a set of 1 000 questions answered is ≈ 200 kB
QUESTION_FILTER = QT_TR_NOOP("Cloth Lab question sets (*.json);;All files (*)")
CSV_FILTER = QT_TR_NOOP("CSV files (*.csv);;All files (*)")
BUILTIN_SOURCE = "questions "  # a built-in set's source: "questions lab"
CSV_HEADER = PROGRESS_CSV_HEADER  # what Lab ▸ Class results reads back (sim.lab.class_results)
STAGES = ("start", "predict", "watch", "explained")
MATCHED, MISSED = "✓", "✗"
MAX_NAME = 80  # characters of a student's name
MATCHED_COLOUR, MISSED_COLOUR = "#2e7d32", "#c62828"


# --- progress ------------------------------------------------------------------------------------


def progress_folder() -> Path:
    """Where answers are kept; follows XDG_DATA_HOME on Linux, so tests stay isolated."""
    data = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.GenericDataLocation)
    return Path(data) / ORGANIZATION / APPLICATION / "progress"


@dataclass(frozen=True)
class Attempt:
    """One locked prediction of a question."""

    prediction: str  # as written to the CSV: the choice's words, or the number (unrounded), unit
    value: float | None  # the choice's index or the number, to show it locked again; None: v1
    matched: bool
    locked: str  # ISO 8601 with the local offset
    explained: str = ""  # when the explanation was shown; "" not yet

    def as_json(self) -> dict[str, Any]:
        return dict(self.__dict__)

    @classmethod
    def from_json(cls, data: Any) -> Attempt:
        if not isinstance(data, dict) or set(data) != set(cls.__dataclass_fields__):
            raise ValueError("an attempt has the keys " + ", ".join(cls.__dataclass_fields__))
        value = data["value"]
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)):
            raise ValueError("value: expected a number or null")
        if not isinstance(data["matched"], bool):
            raise ValueError("matched: expected true or false")
        texts = (data["prediction"], data["locked"], data["explained"])
        if not all(isinstance(text, str) for text in texts):
            raise ValueError("prediction, locked, explained: expected text")
        return cls(data["prediction"], value, data["matched"], data["locked"], data["explained"])


@dataclass(frozen=True)
class Answer:
    """A question's answer as it counts: its first locked prediction, and how many there were."""

    prediction: str  # as the person saw it: the choice's words, or the number with its unit
    matched: bool
    time: str  # ISO 8601 with the local offset
    attempts: int = 1
    explained: bool = True  # False: locked, its explanation not read yet


def answer_of(attempts: list[Attempt]) -> Answer:
    first = attempts[0]
    explained = any(attempt.explained for attempt in attempts)
    return Answer(first.prediction, first.matched, first.locked, len(attempts), explained)


class ProgressStore:
    """Every locked prediction of each question, and the student's name, one file per set."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder if folder is not None else progress_folder()
        self.warning = ""  # the last problem with a file, for the panel to show
        self._said: set[str] = set()

    def file(self, set_id: str) -> Path:
        return self.folder / f"{set_id}.json"

    def answers(self, set_id: str) -> dict[str, Answer]:
        """Each answered question's answer as it counts (its first attempt)."""
        return {q: answer_of(attempts) for q, attempts in self.attempts(set_id).items()}

    def attempts(self, set_id: str) -> dict[str, list[Attempt]]:
        """Every attempt per question, oldest first."""
        return self._read(set_id)[0]

    def student(self, set_id: str) -> str:
        """The name the student gave for this set ("" if none yet)."""
        return self._read(set_id)[1]

    def _read(self, set_id: str) -> tuple[dict[str, list[Attempt]], str]:
        """The stored attempts and name; an unreadable file is moved aside (*.corrupt) and read
        as none."""
        file = self.file(set_id)
        if not os.path.lexists(file):
            return {}, ""
        try:  # a regular file only, without blocking: a FIFO here froze the panel
            raw = read_regular_file(file, MAX_PROGRESS_BYTES)
        except FileRefusedError as refused:  # not a file Cloth Lab wrote: leave it where it is
            self._warn(
                QT_TR_NOOP("progress file {file} not read: {reason}"), file=file, reason=refused
            )
            return {}, ""
        except OSError as error:
            self._warn(
                QT_TR_NOOP("progress file {file} not read: {reason}"),
                file=file,
                reason=describe(error),
            )
            return {}, ""
        try:
            return _progress_from_json(json.loads(raw), set_id)
        except (OSError, ValueError, KeyError, TypeError, RecursionError) as error:
            self._set_aside(file, str(error) or type(error).__name__)
            return {}, ""

    def _set_aside(self, file: Path, reason: str) -> None:
        aside = file.with_name(f"{file.name}.corrupt")
        try:
            os.replace(file, aside)
        except OSError:
            aside = file
        self._warn(
            QT_TR_NOOP("unreadable progress file {file} ({reason}); moved to {aside}"),
            file=file,
            reason=reason[:200],
            aside=aside.name,
        )

    def _warn(self, template: str, **parts: object) -> None:
        """One line on stderr (in English), kept for the panel (in the app's language); each is
        said once (the panel reads the file again at every refresh). `template` is marked with
        QT_TR_NOOP where it is written."""
        warning = template.format(**parts)
        if warning not in self._said:
            self._said.add(warning)
            print(f"clothlab: warning: {warning}", file=sys.stderr)
        self.warning = tr(template).format(**parts)

    def lock(self, set_id: str, question_id: str, attempt: Attempt) -> bool:
        """Keep a newly locked prediction after the question's earlier ones; False (and a
        warning) if the progress file cannot be written."""
        attempts, student = self._read(set_id)
        attempts[question_id] = [*attempts.get(question_id, []), attempt]
        return self._save(set_id, attempts, student)

    def explained(self, set_id: str, question_id: str, time: str) -> bool:
        """Note when the latest attempt's explanation was shown."""
        attempts, student = self._read(set_id)
        if not attempts.get(question_id):
            return True
        last = attempts[question_id][-1]
        attempts[question_id][-1] = replace(last, explained=last.explained or time)
        return self._save(set_id, attempts, student)

    def record(self, set_id: str, question_id: str, answer: Answer) -> bool:
        """An answer locked and explained at once (a prediction whose value is not known)."""
        attempt = Attempt(answer.prediction, None, answer.matched, answer.time, answer.time)
        return self.lock(set_id, question_id, attempt)

    def set_student(self, set_id: str, name: str) -> bool:
        attempts, _ = self._read(set_id)
        return self._save(set_id, attempts, name)

    def _save(self, set_id: str, attempts: dict[str, list[Attempt]], student: str) -> bool:
        try:
            self._write(set_id, attempts, student)
        except OSError as error:
            self._warn(
                QT_TR_NOOP("progress not saved to {file}: {reason}"),
                file=self.file(set_id),
                reason=describe(error),
            )
            return False
        return True

    def reset(self, set_id: str) -> None:
        self.file(set_id).unlink(missing_ok=True)

    def _write(self, set_id: str, attempts: dict[str, list[Attempt]], student: str) -> None:
        document = {
            "format": PROGRESS_FORMAT,
            "version": PROGRESS_VERSION,
            "set": set_id,
            "student": student,
            "questions": {q: [a.as_json() for a in kept] for q, kept in attempts.items()},
        }
        self.folder.mkdir(parents=True, exist_ok=True)
        payload = (json.dumps(document, indent=1, ensure_ascii=False) + "\n").encode("utf-8")
        write_atomically(self.file(set_id), payload)

    def csv_text(self, question_set: QuestionSet) -> str:
        """One row per question of the set, in its order; unanswered questions have blanks.
        Numbers are written as Python writes them (a point), whatever the app's language: a CSV
        is read by programs."""
        attempts, student = self._read(question_set.id)
        stream = io.StringIO()
        writer = csv.writer(stream, lineterminator="\n")
        writer.writerow(CSV_HEADER)
        for question in question_set.questions:
            kept = attempts.get(question.id)
            answer = answer_of(kept) if kept else None
            matched = "" if answer is None else "yes" if answer.matched else "no"
            writer.writerow((
                student, question_set.id, question.id, question.title,
                answer.prediction if answer else "", question.prediction.answer_text,
                matched, answer.time if answer else "", len(kept) if kept else 0,
            ))  # fmt: skip
        return stream.getvalue()


def _progress_from_json(data: Any, set_id: str) -> tuple[dict[str, list[Attempt]], str]:
    """A progress file's attempts and name (version 1: one attempt per answer, no name)."""
    if not isinstance(data, dict) or data.get("format") != PROGRESS_FORMAT:
        raise ValueError(f"format: expected {PROGRESS_FORMAT!r}")
    if data.get("set") != set_id:
        raise ValueError("set does not match")
    if data.get("version") == 1:
        return {
            str(question): [Attempt(str(a["prediction"]), None, bool(a["matched"]),
                                    str(a["time"]), str(a["time"]))]
            for question, a in dict(data["answers"]).items()
        }, ""  # fmt: skip
    if data.get("version") != PROGRESS_VERSION:
        raise ValueError(f"version: expected {PROGRESS_VERSION}")
    student = data.get("student", "")
    if not isinstance(student, str):
        raise ValueError("student: expected text")
    attempts = {}
    for question, kept in dict(data["questions"]).items():
        if not isinstance(kept, list) or not kept:
            raise ValueError(f"{question}: expected a list of attempts")
        attempts[str(question)] = [Attempt.from_json(attempt) for attempt in kept]
    return attempts, student


def now_text() -> str:
    return datetime.now().astimezone().isoformat(timespec="seconds")


# --- the panel -----------------------------------------------------------------------------------


def _wrapped(text: str = "", object_name: str = "", rich: bool = False) -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    # a set file's text is shown as written, even with a "<" in it
    label.setTextFormat(Qt.TextFormat.RichText if rich else Qt.TextFormat.PlainText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    if object_name:
        label.setObjectName(object_name)
    return label


class ChoiceLabel(QLabel):
    """A choice's words beside its radio button, wrapped to the panel's width (a radio button's
    own text does not wrap: a long choice pushed the panel into a horizontal scroll bar); a
    click on them chooses, as a click on a radio button's text does."""

    def __init__(self, text: str, button: QRadioButton) -> None:
        super().__init__(text)
        self.button = button
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setBuddy(button)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt override)
        if self.button.isEnabled():
            self.button.click()
        event.accept()


class QuestionsPanel(QWidget):
    """A ui.docks.panels.Panel; its requests go the window's one way (ui.context), its evidence to
    the readouts."""

    # NewDocument (the question's scene, paused), Run, ChangeSetting (a "now try", undoable)
    command_requested = Signal(object)
    evidence_changed = Signal(object)  # the readout key to point at, or None
    class_mode_changed = Signal(object)  # the set's ClassMode: what it hides, maybe nothing
    lesson_changed = Signal(object)  # lesson_state(): where the lesson is, for crash recovery

    def __init__(self, store: ProgressStore | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store = store if store is not None else ProgressStore()
        self._question_set: QuestionSet | None = None
        # the built-in set is read when the panel is first shown or its set asked for: reading
        # it builds its validators, a quarter of a second that a launch need not wait for
        self._builtin_pending = True
        self._dock_seen: bool | None = None  # whether its dock is on screen (see showEvent)
        self.index = 0
        self.stage = "start"
        self.prediction: int | float | None = None  # a choice's index, or a number
        self.locked: Attempt | None = None  # the prediction locked for the question shown
        self._class_mode_on = False  # the set's class mode is in force
        self._question_document = False  # the document is a scene this panel loaded
        self._again = False  # "Predict again": the next scene asks for a new prediction
        self._requested: Scene | None = None  # the scene asked for, until it is shown
        self._settings: Settings | None = None  # the document's, for the "now try" buttons
        self._scene: Scene | None = None  # the document's, for the editor's "current scene"
        self.editor: QuestionEditor | None = None
        self.results_dialog: ClassResultsDialog | None = None
        self.choice_buttons: list[QRadioButton] = []
        self.choice_labels: list[ChoiceLabel] = []
        self.now_try_buttons: list[QPushButton] = []
        self._built: dict[str, list[QWidget]] = {"choices": [], "now_try": []}  # per question
        self._build()

    # --- construction ----------------------------------------------------------------------------

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        header = QHBoxLayout()
        self.set_label = QLabel()
        self.set_label.setTextFormat(Qt.TextFormat.PlainText)  # the set file's title, as written
        self.set_label.setObjectName("question_set_title")
        font = self.set_label.font()
        font.setBold(True)
        self.set_label.setFont(font)
        self.open_button = QPushButton(tr("Open set…"))
        self.open_button.setToolTip(tr("Open a question set file (a teacher's own questions)"))
        self.open_button.clicked.connect(self.open_set_dialog)
        header.addWidget(self.set_label, 1)
        header.addWidget(self.open_button)
        nest(layout, header)

        chooser = QHBoxLayout()
        self.previous_button = QPushButton("◀")
        self.previous_button.setToolTip(tr("Previous question"))
        self.previous_button.setFixedWidth(32)
        self.previous_button.clicked.connect(lambda: self.select(self.index - 1))
        self.question_box = QComboBox()
        self.question_box.setObjectName("question_box")
        # long titles must not make the dock column wide: the box elides them instead
        self.question_box.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.question_box.setMinimumContentsLength(12)
        self.question_box.activated.connect(self.select)
        self.next_button = QPushButton("▶")
        self.next_button.setToolTip(tr("Next question"))
        self.next_button.setFixedWidth(32)
        self.next_button.clicked.connect(lambda: self.select(self.index + 1))
        chooser.addWidget(self.previous_button)
        chooser.addWidget(self.question_box, 1)
        chooser.addWidget(self.next_button)
        nest(layout, chooser)

        self.scroll_area = QScrollArea()
        self.scroll_area.setWidgetResizable(True)
        # the text wraps to the panel's width: nothing to scroll sideways to
        self.scroll_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        content = QWidget()
        body = QVBoxLayout(content)
        body.setContentsMargins(2, 2, 2, 2)
        self.title_label = _wrapped(object_name="question_title")
        title_font = self.title_label.font()
        title_font.setBold(True)
        title_font.setPointSizeF(title_font.pointSizeF() * 1.2)
        self.title_label.setFont(title_font)
        self.question_label = _wrapped(object_name="question_text")
        # named, so that a screen reader names them while they are empty (before a set is read)
        self.scene_label = _wrapped(object_name="question_scene")
        scene_font = self.scene_label.font()
        scene_font.setItalic(True)
        self.scene_label.setFont(scene_font)
        self.previous_answer_label = _wrapped(object_name="previous_answer")
        self.start_button = QPushButton(tr("Load the scene"))
        self.start_button.setToolTip(
            tr("Open the question's scene, paused, ready for a prediction")
        )
        self.start_button.clicked.connect(self.start)
        for widget in (self.title_label, self.question_label, self.scene_label,
                       self.previous_answer_label, self.start_button):  # fmt: skip
            body.addWidget(widget)

        self.prediction_group = QGroupBox(tr("1 · Your prediction"))
        prediction = QVBoxLayout(self.prediction_group)
        self.choices_layout = QVBoxLayout()
        self.choice_group = QButtonGroup(self)
        self.choice_group.idClicked.connect(self._choice_made)
        # any number an answer may be (the question format's range)
        answers = field_range(NumberAnswer, "answer")
        self.number_box = FloatBox(Limits(tr("Prediction"), *answers))
        self.number_box.setObjectName("prediction_number")
        self.number_box.valueChanged.connect(self._number_made)
        self.number_box.lineEdit().textChanged.connect(self._number_typed)
        # a refused number leaves the box's value, and that is the prediction again
        self.number_box.refused.connect(lambda _: self._number_made(self.number_box.value()))
        self.number_refusal = RefusalLine([self.number_box])
        self.lock_button = QPushButton(tr("Lock in my prediction"))
        self.lock_button.clicked.connect(self.lock_prediction)
        nest(prediction, self.choices_layout)
        prediction.addWidget(self.number_box)
        prediction.addWidget(self.number_refusal)
        prediction.addWidget(self.lock_button)
        body.addWidget(self.prediction_group)

        self.watch_group = QGroupBox(tr("2 · Run it and watch"))
        watch = QVBoxLayout(self.watch_group)
        self.watch_label = _wrapped(object_name="question_watch")
        self.evidence_label = _wrapped(object_name="question_evidence", rich=True)
        self.run_button = QPushButton(tr("Run ▶"))
        self.run_button.setToolTip(tr("Run the simulation (Space); every tool keeps working"))
        self.run_button.clicked.connect(lambda: self.command_requested.emit(Run()))
        self.explain_button = QPushButton(tr("I have watched it: explain"))
        self.explain_button.clicked.connect(self.explain)
        buttons = QHBoxLayout()
        buttons.addWidget(self.run_button)
        buttons.addWidget(self.explain_button, 1)
        for widget in (self.watch_label, self.evidence_label):
            watch.addWidget(widget)
        nest(watch, buttons)
        body.addWidget(self.watch_group)

        self.explanation_group = QGroupBox(tr("3 · Why"))
        explanation = QVBoxLayout(self.explanation_group)
        self.verdict_label = _wrapped(object_name="question_verdict", rich=True)
        self.explanation_label = _wrapped(object_name="question_explanation")
        # wrapped: the German line is wider than the panel and pushed the whole step sideways
        self.now_try_label = _wrapped(tr("Now try (one click; Undo takes it back):"))
        self.now_try_layout = QVBoxLayout()
        self.again_button = QPushButton(tr("Predict again"))
        self.again_button.setObjectName("predict_again")
        self.again_button.setToolTip(
            tr("A new prediction for practice: the first one still counts, every one is kept")
        )
        self.again_button.clicked.connect(self.predict_again)
        for widget in (self.verdict_label, self.explanation_label, self.now_try_label):
            explanation.addWidget(widget)
        nest(explanation, self.now_try_layout)
        explanation.addWidget(self.again_button)
        body.addWidget(self.explanation_group)
        body.addStretch(1)
        self.scroll_area.setWidget(content)
        layout.addWidget(self.scroll_area, 1)

        self.progress_label = QLabel()
        self.progress_label.setObjectName("question_progress")
        layout.addWidget(self.progress_label)
        self.student_label = _wrapped(object_name="question_student")
        layout.addWidget(self.student_label)
        footer = QHBoxLayout()
        self.summary_button = QPushButton(tr("Summary…"))
        self.summary_button.setToolTip(tr("Every question with your prediction and the answer"))
        self.summary_button.clicked.connect(self.show_summary)
        self.export_button = QPushButton(tr("Export CSV…"))
        self.export_button.setToolTip(
            tr("Save the answers as CSV: {columns}").format(columns=", ".join(CSV_HEADER))
        )
        self.export_button.clicked.connect(self.export_dialog)
        self.reset_button = QPushButton(tr("Reset"))
        self.reset_button.setToolTip(tr("Forget the answers to this question set"))
        self.reset_button.clicked.connect(lambda: self.reset_progress(ask=True))
        for button in (self.summary_button, self.export_button, self.reset_button):
            footer.addWidget(button)
        nest(layout, footer)
        teacher = QHBoxLayout()  # a teacher's tools: their own questions, their class's answers
        self.edit_button = QPushButton(tr("Edit questions…"))
        self.edit_button.setToolTip(tr("Edit this set's questions (a built-in set as a copy)"))
        self.edit_button.clicked.connect(lambda: self.edit_set())
        self.results_button = QPushButton(tr("Class results…"))
        self.results_button.setToolTip(
            tr("Count your students' exported answer files per question")
        )
        self.results_button.clicked.connect(lambda: self.show_class_results())
        teacher.addWidget(self.edit_button)
        teacher.addWidget(self.results_button)
        nest(layout, teacher)

    # --- the set and the question ----------------------------------------------------------------

    @property
    def question_set(self) -> QuestionSet | None:
        """The set shown: the built-in one until another is opened, read when first needed."""
        if self._builtin_pending:
            self._show_set(load_builtin_set(BUILTIN_SET), enter_class_mode=True)
        return self._question_set

    @property
    def question(self) -> Question:
        assert self.question_set is not None
        return self.question_set.questions[self.index]

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt override)
        super().showEvent(event)
        if not self._builtin_pending:
            return
        # A dock tabbed behind another counts as shown but is not on screen, and its tab chosen
        # later sends no new showEvent: its dock's visibilityChanged says both.
        dock = self.parentWidget()
        if isinstance(dock, QDockWidget) and self._dock_seen is None:
            self._dock_seen = not dock.visibleRegion().isEmpty()
            dock.visibilityChanged.connect(self._dock_visibility_changed)
        QTimer.singleShot(0, self._read_set_if_seen)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt override)
        super().paintEvent(event)
        if self._builtin_pending:  # on screen at last, however its tab came to the front
            self._dock_seen = True
            QTimer.singleShot(0, self._read_set_if_seen)

    def _dock_visibility_changed(self, visible: bool) -> None:
        self._dock_seen = visible
        self._read_set_if_seen()

    def _read_set_if_seen(self) -> None:
        seen = self._dock_seen if self._dock_seen is not None else self.isVisible()
        if self._builtin_pending and seen:
            self.question_set  # noqa: B018 (reads the built-in set, and shows it)

    def set_question_set(self, question_set: QuestionSet, enter_class_mode: bool = True) -> None:
        """Show a set; its class mode comes into force unless `enter_class_mode` is False (the
        teacher's own window, after saving the set from the editor)."""
        self._show_set(question_set, enter_class_mode)
        if enter_class_mode:
            self.class_mode_changed.emit(question_set.spec.class_mode or ClassMode())

    def _show_set(self, question_set: QuestionSet, enter_class_mode: bool) -> None:
        self._question_set, self._builtin_pending = question_set, False
        if enter_class_mode:
            self._class_mode_on = bool(question_set.spec.class_mode)
        self.set_label.setText(question_set.title)
        self.set_label.setToolTip(as_written(question_set.spec.description or question_set.source))
        self.index = 0
        self._refresh_list()
        self._show_student()
        self.select(0)
        # in class the answers are the class's: Reset would let a student answer again
        self.reset_button.setVisible(not self.in_class_mode)

    def open_set(self, path: str | Path) -> bool:
        """Open a set file; a bad file shows its one-line reason and keeps the current set.
        In class mode with a teacher's passphrase, only the teacher may open another set."""
        if not teacher_allows(self, self.class_mode):
            return False
        try:
            question_set = load_question_set(path)
        except QuestionSetError as error:
            QMessageBox.warning(self, tr("Cannot open question set"), as_written(str(error)))
            return False
        self.set_question_set(question_set)
        return True

    def edit_set(self, new: bool = False) -> QuestionEditor | None:
        """The question editor, on this set (or a new one); a saved set opens here. In class
        mode with a teacher's passphrase, only after it is typed (None otherwise)."""
        if not teacher_allows(self, self.class_mode):
            return None
        scene = self._scene if self._scene is not None else Scene()
        chosen = None if new else self.question_set
        if self.editor is not None:
            self.editor.close()
            self.editor.deleteLater()
        from clothlab.ui.docks.question_editor import QuestionEditor

        self.editor = QuestionEditor(scene, chosen, 0 if new else self.index, self)
        # the teacher's own window shows the saved set, without going into its class mode
        self.editor.saved.connect(lambda saved: self.set_question_set(saved, False))
        self.editor.show()
        return self.editor

    def show_class_results(self) -> ClassResultsDialog:
        if self.results_dialog is None:
            from clothlab.ui.docks.class_results_dialog import ClassResultsDialog

            self.results_dialog = ClassResultsDialog(self)
        if self.question_set is not None:  # the set shown is named by its title
            self.results_dialog.set_titles[self.question_set.id] = self.question_set.title
        self.results_dialog.show()
        self.results_dialog.raise_()
        return self.results_dialog

    def open_set_dialog(self) -> None:
        path, _ = file_dialogs.get_open_file_name(
            self, tr("Open question set"), tr(QUESTION_FILTER)
        )
        if path:
            self.open_set(path)

    def select(self, index: int) -> None:
        """Show a question, from the beginning (its scene is loaded by Load the scene)."""
        assert self.question_set is not None
        self.index = max(0, min(index, len(self.question_set.questions) - 1))
        self.question_box.setCurrentIndex(self.index)
        question = self.question
        self.title_label.setText(question.title)
        self.question_label.setText(question.question)
        scene = self.question_set.scenes[question.scene]
        self.scene_label.setText(tr("Scene: {name}").format(name=scene.name))
        self._build_prediction(question)
        self.watch_label.setText(question.watch)
        self.explanation_label.setText(question.explanation)
        self._build_now_try(question)
        self._requested = None
        self.locked, self._again = None, False
        self._set_stage("start")
        self._show_previous_answer()
        self.evidence_changed.emit(None)
        self.previous_button.setEnabled(self.index > 0)
        self.next_button.setEnabled(self.index < len(self.question_set.questions) - 1)

    def _build_prediction(self, question: Question) -> None:
        for button in self.choice_buttons:
            self.choice_group.removeButton(button)
        self._discard("choices")
        self.choice_buttons, self.choice_labels = [], []
        self.prediction = None
        choices, number = question.prediction.choices, question.prediction.number
        for k, choice in enumerate(choices or []):
            button = QRadioButton()
            button.setObjectName(f"choice_{k}")
            button.setAccessibleName(choice.text)
            label = ChoiceLabel(choice.text, button)
            row = QWidget()
            line = QHBoxLayout(row)
            line.setContentsMargins(0, 0, 0, 0)
            line.addWidget(button, 0, Qt.AlignmentFlag.AlignTop)
            line.addWidget(label, 1)
            self.choice_group.addButton(button, k)
            self.choices_layout.addWidget(row)
            self._built["choices"].append(row)
            self.choice_buttons.append(button)
            self.choice_labels.append(label)
        self.number_box.setVisible(number is not None)
        if number is not None:
            self.number_box.blockSignals(True)
            self.number_box.shown_decimals = number.decimals
            self.number_box.setSuffix(f" {number.unit}" if number.unit else "")
            self.number_box.setValue(0.0)
            self.number_box.blockSignals(False)

    def _discard(self, part: str) -> None:
        """Delete the widgets built for the last question's `part` (each leaves its layout
        as it goes). Tracked here rather than taken from the layout: wrappers of a layout's
        items outlive the items in PySide (see ui/layouts.py)."""
        for widget in self._built[part]:
            widget.hide()
            widget.deleteLater()
        self._built[part] = []

    def _build_now_try(self, question: Question) -> None:
        self._discard("now_try")
        self.now_try_buttons = []
        for k, suggestion in enumerate(question.now_try):
            parameter = SETTINGS_TABLE[suggestion.setting]
            button = QPushButton(suggestion.label)
            button.setObjectName(f"now_try_{k}")
            button.setToolTip(f"{tr(parameter.label)} → {_value_text(suggestion.value)}")
            button.clicked.connect(lambda _checked=False, k=k: self.apply_now_try(k))
            self.now_try_layout.addWidget(button)
            self._built["now_try"].append(button)
            if suggestion.note:
                note = _wrapped(suggestion.note)
                self.now_try_layout.addWidget(note)
                self._built["now_try"].append(note)
            self.now_try_buttons.append(button)
        self.now_try_label.setVisible(bool(question.now_try))  # a teacher's may have none
        self._show_now_try_state()

    def _set_stage(self, stage: str) -> None:
        self.stage = stage
        step = STAGES.index(stage)
        self.start_button.setText(tr("Load the scene") if step == 0 else tr("Reload the scene"))
        self.prediction_group.setVisible(step >= 1)
        for widget in (*self.choice_buttons, *self.choice_labels, self.number_box):
            widget.setEnabled(step == 1)
        self.lock_button.setVisible(step == 1)
        self.lock_button.setEnabled(step == 1 and self.prediction is not None)
        self.watch_group.setVisible(step >= 2)
        self.explain_button.setEnabled(step == 2)
        self.explanation_group.setVisible(step >= 3)
        self.lesson_changed.emit(self.lesson_state())
        # practice only outside class mode: in class the first prediction is the answer
        self.again_button.setVisible(step == 3 and not self.in_class_mode)

    @property
    def in_class_mode(self) -> bool:
        return self._class_mode_on

    @property
    def class_mode(self) -> ClassMode:
        """The set's class mode while it is in force (an empty one otherwise)."""
        if not self._class_mode_on or self._question_set is None:
            return ClassMode()
        return self._question_set.spec.class_mode or ClassMode()

    def class_mode_left(self) -> None:
        """The window left class mode (the teacher let it): a student's tools come back."""
        self._class_mode_on = False
        self.reset_button.setVisible(True)
        self._set_stage(self.stage)

    # --- the lesson, kept for crash recovery (app.lesson_keeper) ---------------------------------

    def lesson_state(self) -> dict[str, Any] | None:
        """Where the lesson is (the set, the question, class mode, whether its scene is loaded),
        or None when there is no lesson under way to come back to."""
        chosen = self._question_set  # the built-in set not read yet: no lesson under way
        if chosen is None or not chosen.questions:
            return None
        if chosen.path is not None:
            where = {"path": str(chosen.path.resolve())}
        elif chosen.source.startswith(BUILTIN_SOURCE):
            where = {"builtin": chosen.source.removeprefix(BUILTIN_SOURCE)}
        else:
            return None
        scene = self.stage != "start"
        if not (scene or self._class_mode_on or chosen.path is not None):
            return None  # the built-in set, nothing begun: nothing to come back to
        return {"set": where, "question": self.question.id, "class_mode": self._class_mode_on,
                "scene": scene}  # fmt: skip

    def restore_lesson(self, state: dict[str, Any]) -> bool:
        """Back where a lesson was (app.lesson_keeper's state): its set, in class mode if it
        was, its question, and its scene loaded (a locked prediction then shows locked).
        False, with one line on stderr, if the set cannot be opened any more."""
        where = state["set"]
        try:
            if "path" in where:
                chosen = load_question_set(where["path"])
            else:
                chosen = load_builtin_set(where["builtin"])
        except QuestionSetError as error:
            print(f"clothlab: warning: lesson not restored: {error}", file=sys.stderr)
            return False
        self.set_question_set(chosen, enter_class_mode=state["class_mode"])
        ids = [q.id for q in chosen.questions]
        self.select(ids.index(state["question"]) if state["question"] in ids else 0)
        if state["scene"]:
            self.start()
        return True

    # --- the steps of a question -----------------------------------------------------------------

    def start(self) -> None:
        """Ask for the question's scene; the prediction opens when the scene arrives."""
        assert self.question_set is not None
        self._requested = self.question_set.scene_for(self.question)
        ask = not self._question_document
        self.command_requested.emit(NewDocument(self._requested, paused=True, ask=ask))

    def _choice_made(self, index: int) -> None:
        self.prediction = index
        self.lock_button.setEnabled(self.stage == "predict")

    def _number_typed(self, _text: str) -> None:
        """A number in range is the prediction as soon as it is typed, so "Lock in" takes it
        (the box itself takes it on Enter or when the focus leaves)."""
        if self.number_box.typed_refusal() is None:
            number = self.number_box.typed_number()
            if number is not None:
                self._number_made(number)

    def _number_made(self, value: float) -> None:
        self.prediction = value
        self.lock_button.setEnabled(self.stage == "predict")

    def lock_prediction(self) -> None:
        """Keep the prediction, in the progress file at once: from now on it is the answer."""
        if self.stage != "predict" or self.prediction is None:
            return
        assert self.question_set is not None
        if self.in_class_mode and not self.ask_student_name():
            return  # a class's answers carry a name: none given, nothing locked
        question = self.question
        attempt = Attempt(
            prediction=question.prediction.describe(self.prediction),
            value=float(self.prediction),
            matched=question.prediction.matches(self.prediction),
            locked=now_text(),
        )
        saved = self.store.lock(self.question_set.id, question.id, attempt)
        self._show_locked(attempt, saved)
        self._refresh_list()

    def ask_student_name(self) -> bool:
        """The student's name (or id), asked once per set: it goes into the results and the
        exported file's name. True once there is one."""
        assert self.question_set is not None
        if self.store.student(self.question_set.id):
            return True
        dialog = QInputDialog(self)
        dialog.setObjectName("student_name")
        dialog.setWindowTitle(tr("Your name"))
        dialog.setLabelText(tr("Your name (or the id your teacher gave you), once for this set:"))
        while dialog.exec():
            name = " ".join(dialog.textValue().split())[:MAX_NAME]
            if name:
                self.store.set_student(self.question_set.id, name)
                self._show_student()
                return True
        return False

    def _show_student(self) -> None:
        assert self.question_set is not None
        name = self.store.student(self.question_set.id)
        self.student_label.setVisible(bool(name))
        self.student_label.setText(tr("Student: {name}").format(name=name))

    def _show_locked(self, attempt: Attempt, saved: bool = True) -> None:
        """The watch step with `attempt` as the prediction, which can no longer change."""
        self.locked = attempt
        self._show_choice(attempt.value)
        text = tr(
            "Your prediction: <b>{prediction}</b><br>The evidence is highlighted in the "
            "Readouts panel."
        ).format(prediction=_escaped(localized(attempt.prediction)))
        if not saved:
            text += tr("<br>Not saved: {warning}").format(warning=_escaped(self.store.warning))
        self.evidence_label.setText(text)
        self._set_stage("watch")
        self.evidence_changed.emit(self.question.evidence)

    def _show_choice(self, value: float | None) -> None:
        """The locked choice ticked, or the locked number in the box (None: an old record)."""
        self.prediction = value
        if value is None:
            return
        if self.question.prediction.choices is not None:
            index = int(value)
            if 0 <= index < len(self.choice_buttons):
                self.choice_buttons[index].setChecked(True)
        else:
            self.number_box.blockSignals(True)
            self.number_box.setValue(value)
            self.number_box.blockSignals(False)

    def predict_again(self) -> None:
        """Practice: the scene again, and a new prediction (kept as one more attempt)."""
        self._again = True
        self.start()

    def explain(self) -> None:
        if self.stage != "watch" or self.locked is None:
            return
        assert self.question_set is not None
        question, prediction = self.question, self.question.prediction
        matched, said = self.locked.matched, localized(self.locked.prediction)
        if matched:
            verdict = tr("{mark} Your prediction matched: <b>{prediction}</b>").format(
                mark=MATCHED, prediction=_escaped(said)
            )
        else:
            verdict = tr(
                "{mark} You predicted {prediction}<br>The model says: <b>{answer}</b>"
            ).format(
                mark=MISSED,
                prediction=_escaped(said),
                answer=_escaped(localized(prediction.answer_text)),
            )
        if not self.store.explained(self.question_set.id, question.id, now_text()):
            verdict += tr("<br>Not saved: {warning}").format(warning=_escaped(self.store.warning))
        self.verdict_label.setText(verdict)
        self.verdict_label.setStyleSheet(f"color: {MATCHED_COLOUR if matched else MISSED_COLOUR};")
        self._set_stage("explained")
        self._refresh_list()
        self._show_previous_answer()
        self.scroll_area.ensureWidgetVisible(self.explanation_group)

    def apply_now_try(self, index: int) -> None:
        suggestion = self.question.now_try[index]
        self.command_requested.emit(ChangeSetting(suggestion.setting, suggestion.value))

    # --- progress --------------------------------------------------------------------------------

    def answers(self) -> dict[str, Answer]:
        assert self.question_set is not None
        return self.store.answers(self.question_set.id)

    def _refresh_list(self) -> None:
        assert self.question_set is not None
        answers = self.answers()
        self.question_box.clear()
        for k, question in enumerate(self.question_set.questions, start=1):
            answer = answers.get(question.id)
            mark = "" if answer is None else f"  {_mark(answer)}"
            self.question_box.addItem(f"{k}. {question.title}{mark}")
        self.question_box.setCurrentIndex(self.index)
        matched = sum(
            a.matched and a.explained for q, a in answers.items() if q in self._question_ids()
        )
        answered = sum(q in answers for q in self._question_ids())
        total = len(self.question_set.questions)
        self.progress_label.setText(
            tr("{answered} of {total} answered · {matched} matched").format(
                answered=answered, total=total, matched=matched
            )
        )
        if self.store.warning:
            self.progress_label.setToolTip(as_written(self.store.warning))

    def _question_ids(self) -> list[str]:
        assert self.question_set is not None
        return [q.id for q in self.question_set.questions]

    def _show_previous_answer(self) -> None:
        answer = self.answers().get(self.question.id)
        self.previous_answer_label.setVisible(answer is not None and self.stage != "explained")
        if answer is not None:
            when, said = answer.time[:16].replace("T", " "), localized(answer.prediction)
            if answer.explained:
                text = tr("Answered {time}: {mark} {prediction}").format(
                    time=when, mark=_mark(answer), prediction=said
                )
            else:
                text = tr("Locked in {time}: {prediction}").format(time=when, prediction=said)
            if answer.attempts > 1:
                text += tr(" ({count} attempts; the first counts)").format(count=answer.attempts)
            self.previous_answer_label.setText(text)

    def summary_rows(self) -> list[tuple[str, str, str, str, str]]:
        """(question, your prediction, the answer, matched, time) for every question."""
        assert self.question_set is not None
        answers = self.answers()
        rows = []
        for k, question in enumerate(self.question_set.questions, start=1):
            answer = answers.get(question.id)
            mark = "" if answer is None else _mark(answer)
            shown = answer is not None and answer.explained
            rows.append((
                f"{k}. {question.title}", localized(answer.prediction) if answer else "—",
                localized(question.prediction.answer_text) if shown else "", mark,
                answer.time[:16].replace("T", " ") if answer else "",
            ))  # fmt: skip
        return rows

    def show_summary(self) -> None:
        SummaryDialog(self.set_label.text(), self.summary_rows(), self).exec()

    def export_csv(self, path: Path) -> None:
        assert self.question_set is not None
        write_atomically(Path(path), self.store.csv_text(self.question_set).encode("utf-8"))

    def export_dialog(self) -> None:
        assert self.question_set is not None
        name = _file_part(self.store.student(self.question_set.id))
        suggestion = f"{self.question_set.id}-{name + '-' if name else ''}answers.csv"
        path, _ = file_dialogs.get_save_file_name(
            self, tr("Export answers"), suggestion, tr(CSV_FILTER)
        )
        if not path:
            return
        try:
            self.export_csv(Path(path))
        except OSError as error:
            failed = as_written(f"{path}: {error.strerror}")
            QMessageBox.warning(self, tr("Cannot export answers"), failed)

    def reset_progress(self, ask: bool = True) -> None:
        assert self.question_set is not None
        if ask:
            buttons = QMessageBox.StandardButton
            forget = tr("Forget every answer to “{title}”?")
            answer = QMessageBox.question(
                self, tr("Reset progress"),
                as_written(forget.format(title=self.question_set.title)),
                buttons.Yes | buttons.No, buttons.No,
            )  # fmt: skip
            if answer != buttons.Yes:
                return
        self.store.reset(self.question_set.id)
        self._refresh_list()
        self._show_student()
        self._show_previous_answer()

    # --- the panel protocol (ui.docks.panels) ----------------------------------------------------

    def show_scene(self, scene: Scene) -> None:
        self._scene = scene
        if self.editor is not None:
            self.editor.current_scene = scene
        self._settings = scene_settings(scene)
        self._show_now_try_state()
        self._question_document = self._requested is not None and scene == self._requested
        if self._question_document:
            self._requested = None
            self.choice_group.setExclusive(False)  # so a fresh start shows no choice
            for button in self.choice_buttons:
                button.setChecked(False)
            self.choice_group.setExclusive(True)
            self.prediction = None if self.question.prediction.choices else self.number_box.value()
            self.evidence_changed.emit(None)
            self._restore_or_predict()
        else:  # another document: the evidence of this question's run is no longer shown
            self.evidence_changed.emit(None)

    def _restore_or_predict(self) -> None:
        """A question with a locked prediction shows it locked (and its explanation, if read):
        only "Predict again" (practice, outside class mode) asks for another."""
        assert self.question_set is not None
        kept = self.store.attempts(self.question_set.id).get(self.question.id, [])
        if not kept or self._again:
            self._again = False
            self._set_stage("predict")
            return
        self._show_locked(kept[-1])
        if kept[-1].explained:
            self.explain()

    def show_edit(self, scene: Scene, command: object) -> None:
        self._scene = scene
        if self.editor is not None:
            self.editor.current_scene = scene
        self._settings = scene_settings(scene)
        self._show_now_try_state()

    def show_snapshot(self, snapshot: Snapshot) -> None:
        pass

    def _show_now_try_state(self) -> None:
        """A suggestion the document already has is marked as applied."""
        if self._question_set is None:
            return
        for button, suggestion in zip(self.now_try_buttons, self.question.now_try, strict=True):
            applied = (
                self._settings is not None
                and getattr(self._settings, suggestion.setting) == suggestion.value
            )
            button.setText(f"{MATCHED} {suggestion.label}" if applied else suggestion.label)


def _file_part(name: str) -> str:
    """A name as part of a file name: "Jürgen Roß" → "jürgen-roß" (letters kept, no "/")."""
    return re.sub(r"[^\w-]+", "-", name.lower()).strip("-_")[:40]


def _mark(answer: Answer) -> str:
    """✓ or ✗ once the explanation was read; before that, a locked prediction is not judged."""
    if not answer.explained:
        return "•"
    return MATCHED if answer.matched else MISSED


def _value_text(value: Any) -> str:
    if isinstance(value, bool):
        return tr("on") if value else tr("off")
    return f"{value:g}" if isinstance(value, float) else str(value)


def _escaped(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class SummaryDialog(QDialog):
    """Every question of the set with the latest prediction, the answer and when."""

    def __init__(self, title: str, rows: Sequence[tuple[str, ...]], parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(tr("Answers — {title}").format(title=title))
        self.table = QTableWidget(len(rows), 5, self)
        self.table.setHorizontalHeaderLabels(
            [tr("Question"), tr("Your prediction"), tr("Answer"), tr("Matched"), tr("When")]
        )
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setTabKeyNavigation(False)  # Tab leaves the table; arrows move in it
        for row, cells in enumerate(rows):
            for column, text in enumerate(cells):
                self.table.setItem(row, column, QTableWidgetItem(text))
        self.table.resizeColumnsToContents()
        self.table.horizontalHeader().setStretchLastSection(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        self.resize(900, 420)
