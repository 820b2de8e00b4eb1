"""Class results (sim.lab.class_results): students' exported progress CSVs counted per question,
and files that are not such CSVs refused with one line."""

from __future__ import annotations

import os

import pytest

from clothlab.sim.lab.class_results import (
    MAX_CSV_BYTES,
    ClassResultsError,
    class_summary,
    parse_progress_csv,
    read_progress_csv,
)

HEADER = "set,question,title,prediction,answer,matched,time\n"


def progress(*rows: tuple[str, str], set_id: str = "mine") -> str:
    """A file as the Questions panel exports it: (question, matched) per row."""
    lines = [
        f"{set_id},{q},Title {q},said,the answer,{m},{'2026-12-02T10:00:00+00:00' if m else ''}\n"
        for q, m in rows
    ]
    return HEADER + "".join(lines)


def test_two_students_are_counted_per_question(tmp_path):
    first = tmp_path / "ana.csv"
    second = tmp_path / "ben.csv"
    first.write_text(progress(("a", "yes"), ("b", "no"), ("c", "yes")))
    second.write_text(progress(("a", "yes"), ("b", "yes"), ("c", "")))
    files = [(str(p), read_progress_csv(p)) for p in (first, second)]
    tallies = class_summary(files)
    assert [t.question for t in tallies] == ["a", "b", "c"]
    assert [(t.students, t.answered, t.right, t.wrong) for t in tallies] == [
        (2, 2, 2, 0),
        (2, 2, 1, 1),
        (2, 1, 1, 0),
    ]
    assert tallies[0].title == "Title a" and tallies[0].answer == "the answer"


def test_the_panels_own_export_is_read(tmp_path):
    # quoting as csv.writer does it: commas and quotes in a title and a prediction
    text = HEADER + 'mine,a,"Where, and ""why""?","1.50 m",1.5 ± 0.1 m,yes,t\n'
    (answer,) = parse_progress_csv(text.encode(), "x.csv")
    assert answer.title == 'Where, and "why"?' and answer.matched is True


HOSTILE = [
    ("empty", b"", "expected the header"),
    ("another CSV", b"a,b,c\n1,2,3\n", "line 1: expected the header"),
    ("header only", HEADER.encode(), "no questions listed"),
    ("truncated row", (HEADER + "mine,a,Title").encode(), "line 2: 3 columns, expected 7"),
    ("extra column", progress(("a", "yes")).replace("\n", ",x\n").replace("time,x", "time")
     .encode(), "line 2: 8 columns"),
    ("matched word", progress(("a", "maybe")).encode(), "matched: 'maybe' is not yes, no"),
    ("question twice", progress(("a", "yes"), ("a", "no")).encode(), "listed twice"),
    ("a path as id", progress(("../../etc", "yes")).encode(), "question: '../../etc' is not an"),
    ("two sets", (progress(("a", "yes")) + "other,b,T,p,a,yes,t\n").encode(), "set 'other'"),
    ("not UTF-8", HEADER.encode() + b"mine,a,\xff,p,a,yes,t\n", "not UTF-8"),
    ("NUL bytes", HEADER.encode() + b"mine,a,\0,p,a,yes,t\n", "NUL bytes"),
    ("open quote", (HEADER + 'mine,a,"never closed,p,a,yes,t\n').encode(), "line"),
    ("huge cell", (HEADER + f"mine,a,{'x' * 5000},p,a,yes,t\n").encode(), "longer than 4000"),
    ("too many rows", progress(*[(f"q{k}", "yes") for k in range(101)]).encode(), "more than 100"),
    ("huge", b"x" * (MAX_CSV_BYTES + 1), "larger than 1 MiB"),
]  # fmt: skip


@pytest.mark.parametrize(("what", "raw", "words"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_a_file_that_is_not_a_progress_csv_is_one_line(tmp_path, what, raw, words):
    path = tmp_path / "student.csv"
    path.write_bytes(raw)
    with pytest.raises(ClassResultsError) as caught:
        read_progress_csv(path)
    line = str(caught.value)
    assert "\n" not in line and line.startswith(str(path)) and words in line, line


def test_files_of_two_sets_and_no_files_are_refused(tmp_path):
    mine = ("a.csv", parse_progress_csv(progress(("a", "yes")), "a.csv"))
    other = ("b.csv", parse_progress_csv(progress(("a", "yes"), set_id="lab"), "b.csv"))
    with pytest.raises(ClassResultsError, match=r"b\.csv: answers to set 'lab', not 'mine'"):
        class_summary([mine, other])
    with pytest.raises(ClassResultsError, match="no progress files"):
        class_summary([])


def test_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "student.csv"
    os.mkfifo(fifo)
    with pytest.raises(ClassResultsError, match="not a progress CSV"):
        read_progress_csv(fifo)


def test_names_and_attempts_are_read_and_an_old_export_still_counts(tmp_path):
    new = (
        "student,set,question,title,prediction,answer,matched,time,attempts\n"
        "Ana Lima,mine,a,Title a,said,the answer,no,2026-12-02T10:00:00+00:00,3\n"
        "Ana Lima,mine,b,Title b,,the answer,,,0\n"
    )
    answers = parse_progress_csv(new, "ana.csv")
    assert [(a.student, a.attempts, a.matched) for a in answers] == [
        ("Ana Lima", 3, False),
        ("Ana Lima", 0, None),
    ]
    old = parse_progress_csv(progress(("a", "yes"), ("b", "")), "old.csv")
    assert [(a.student, a.attempts) for a in old] == [("", 1), ("", 0)]
    with pytest.raises(ClassResultsError, match="attempts: 'x' is not a count"):
        parse_progress_csv(new.replace(",3\n", ",x\n"), "bad.csv")
