"""Class results: the answers students export from the Questions panel (Export CSV…), read
back and counted per question — how many answered, how many predicted right.

A progress CSV has the header ``student,set,question,title,prediction,answer,matched,time,attempts``
and a row per question of the set; ``matched`` is ``yes``, ``no``, or empty for a question not
answered; ``prediction``, ``matched`` and ``time`` are the first locked prediction's (the one that
counts), ``attempts`` how many were locked in all. Files exported before names and attempts were
kept (header ``set,question,title,prediction,answer,matched,time``) are still read. The
files come from many hands, so they are read as strictly as every other file of the lab: a size
cap, UTF-8, the exact header, the right number of columns, one row per question, one set for
all the files; anything else is a ClassResultsError with one line naming the file and the row.
No Qt here (the Questions panel's dialog shows what `class_summary` returns).
"""

from __future__ import annotations

import _csv
import csv
import io
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from clothlab.sim.document.files import SceneError, read_document
from clothlab.sim.text import tr

PROGRESS_CSV_HEADER: Final = (
    "student", "set", "question", "title", "prediction", "answer", "matched", "time", "attempts",
)  # fmt: skip
# what the panel exported before it kept names and attempts: still counted
OLD_PROGRESS_CSV_HEADER: Final = PROGRESS_CSV_HEADER[1:-1]
MAX_ATTEMPTS = 1000
MATCHED_WORDS: Final = {"yes": True, "no": False, "": None}
MAX_CSV_BYTES = 1024 * 1024  # a set of 100 questions answered is ≈ 30 kB
MAX_ROWS = 100  # questions in a set (sim.lab.questions.MAX_QUESTIONS)
MAX_FIELD = 4000  # characters in a cell: the longest prediction a set allows, with room
MAX_FILES = 1000  # students in one summary
SLUG = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")


class ClassResultsError(SceneError):
    """A progress file that cannot be counted; one line naming the file and the row."""


@dataclass(frozen=True)
class StudentAnswer:
    set_id: str
    question: str
    title: str
    answer: str  # the set's answer, as the panel wrote it
    matched: bool | None  # None: not answered
    student: str = ""  # the name the student gave ("" in an old file)
    attempts: int = 0  # predictions locked in (an old file: 1 if answered)
    prediction: str = ""  # the first locked prediction, the one that counts
    time: str = ""  # when it was locked


@dataclass(frozen=True)
class QuestionTally:
    question: str
    title: str
    answer: str
    students: int  # files that list the question
    answered: int
    right: int

    @property
    def wrong(self) -> int:
        return self.answered - self.right


def parse_progress_csv(text: str | bytes, source: str) -> list[StudentAnswer]:
    """One student's exported answers; ClassResultsError with one line if the text is not one."""
    if len(text) > MAX_CSV_BYTES:
        raise ClassResultsError(f"{source}: file is larger than {MAX_CSV_BYTES / 1024**2:g} MiB")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as problem:
            raise ClassResultsError(
                tr("{source}: not UTF-8 text (byte {byte})").format(
                    source=source, byte=problem.start
                )
            ) from None
    if "\0" in text:
        raise ClassResultsError(
            tr("{source}: not a CSV file (it holds NUL bytes)").format(source=source)
        )
    rows = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(rows, None)
        if header is None or tuple(header) not in (PROGRESS_CSV_HEADER, OLD_PROGRESS_CSV_HEADER):
            raise ClassResultsError(
                tr(
                    "{source}: line 1: expected the header {header} (a file from the Questions "
                    "panel's Export CSV…)"
                ).format(source=source, header=",".join(PROGRESS_CSV_HEADER))
            )
        return _answers(rows, source, len(header))
    except csv.Error as problem:
        raise ClassResultsError(f"{source}: line {rows.line_num}: {problem}") from None


def _answers(rows: _csv.Reader, source: str, columns: int) -> list[StudentAnswer]:
    answers: list[StudentAnswer] = []
    seen: set[str] = set()
    for row in rows:
        where = tr("{source}: line {line}").format(source=source, line=rows.line_num)
        if not row:
            continue
        if len(answers) >= MAX_ROWS:
            raise ClassResultsError(f"{where}: more than {MAX_ROWS} questions")
        if len(row) != columns:
            raise ClassResultsError(
                tr("{where}: {count} columns, expected {expected}").format(
                    where=where, count=len(row), expected=columns
                )
            )
        if columns == len(OLD_PROGRESS_CSV_HEADER):  # as the new header orders them
            row = ["", *row, "1" if row[5] else "0"]
        student, set_id, question, title, prediction, answer, matched, time, attempts = row
        if any(len(cell) > MAX_FIELD for cell in row):
            raise ClassResultsError(f"{where}: a cell is longer than {MAX_FIELD} characters")
        for name, value in (("set", set_id), ("question", question)):
            if not SLUG.fullmatch(value):
                raise ClassResultsError(f"{where}: {name}: {value[:40]!r} is not an id")
        if matched not in MATCHED_WORDS:
            raise ClassResultsError(f"{where}: matched: {matched[:40]!r} is not yes, no or empty")
        if not attempts.isdigit() or int(attempts) > MAX_ATTEMPTS:
            raise ClassResultsError(f"{where}: attempts: {attempts[:40]!r} is not a count")
        if answers and student != answers[0].student:
            raise ClassResultsError(
                f"{where}: student {student[:40]!r} after {answers[0].student!r}"
            )
        if answers and set_id != answers[0].set_id:
            raise ClassResultsError(f"{where}: set {set_id!r} after {answers[0].set_id!r}")
        if question in seen:
            raise ClassResultsError(f"{where}: question {question!r} is listed twice")
        seen.add(question)
        answers.append(StudentAnswer(
            set_id, question, title, answer, MATCHED_WORDS[matched], student, int(attempts),
            prediction, time,
        ))  # fmt: skip
    if not answers:
        raise ClassResultsError(tr("{source}: no questions listed").format(source=source))
    return answers


def read_progress_csv(path: str | os.PathLike[str]) -> list[StudentAnswer]:
    """A progress CSV from disk (a regular file only, never blocking on a FIFO)."""
    raw = read_document(path, MAX_CSV_BYTES, "a progress CSV", ClassResultsError)
    return parse_progress_csv(raw, str(path))


STUDENT_CSV_HEADER: Final = (
    "student", "file", "question", "title", "prediction", "answer", "matched", "time", "attempts",
)  # fmt: skip


def student_rows(files: Sequence[tuple[str, Sequence[StudentAnswer]]]) -> list[tuple[str, ...]]:
    """One row per student and question (STUDENT_CSV_HEADER): a student without a name in
    their file is named by the file."""
    rows: list[tuple[str, ...]] = []
    for source, answers in files:
        stem = os.path.splitext(os.path.basename(source))[0]
        for a in answers:
            matched = {True: "yes", False: "no", None: ""}[a.matched]
            rows.append((
                a.student or stem, os.path.basename(source), a.question, a.title, a.prediction,
                a.answer, matched, a.time, str(a.attempts),
            ))  # fmt: skip
    return rows


def student_csv_text(files: Sequence[tuple[str, Sequence[StudentAnswer]]]) -> str:
    """The per-student rows as CSV, numbers as written in the files (with a point)."""
    stream = io.StringIO()
    writer = csv.writer(stream, lineterminator="\r\n")  # as spreadsheets write CSV
    writer.writerow(STUDENT_CSV_HEADER)
    writer.writerows(student_rows(files))
    return stream.getvalue()


def class_summary(files: Sequence[tuple[str, Sequence[StudentAnswer]]]) -> list[QuestionTally]:
    """Per question (in the order the files first list them): how many students' files list
    it, answered it and predicted right. All files must be of one set."""
    if not files:
        raise ClassResultsError("no progress files to count")
    if len(files) > MAX_FILES:
        raise ClassResultsError(f"{len(files)} files: at most {MAX_FILES} at a time")
    first_source, first = files[0]
    tallies: dict[str, list[int]] = {}
    about: dict[str, tuple[str, str]] = {}
    for source, answers in files:
        if answers and first and answers[0].set_id != first[0].set_id:
            raise ClassResultsError(
                tr("{source}: answers to set {set}, not {first} like {first_source}").format(
                    source=source, set=repr(answers[0].set_id), first=repr(first[0].set_id),
                    first_source=first_source,
                )
            )  # fmt: skip
        for answer in answers:
            about.setdefault(answer.question, (answer.title, answer.answer))
            counts = tallies.setdefault(answer.question, [0, 0, 0])
            counts[0] += 1
            counts[1] += answer.matched is not None
            counts[2] += answer.matched is True
    return [
        QuestionTally(question, *about[question], *counts) for question, counts in tallies.items()
    ]
