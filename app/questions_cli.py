"""`clothlab questions [SET] [--check] [--question ID]`: list a question set's questions, or run
every question's scene headless and check its explanation by numbers.

`--check` prints one line per question, PASS or FAIL with each measured number, and exits 0 if
every check holds, 1 if any fails. A bad set file is exit 2 and one line on stderr (the CLI's
usual handling of a SceneError). Imports no Qt, like every headless command.
"""

from __future__ import annotations

import argparse
from typing import Any

from clothlab.sim.lab.questions import (
    BUILTIN_SET,
    QuestionSetError,
    builtin_set_names,
    check_set,
    resolve_set,
)

EXIT_FAILED = 1


def add_parser(commands: Any) -> None:
    """Add the `questions` subcommand to the CLI's subparsers."""
    parser = commands.add_parser(
        "questions", help="list a question set, or check every answer by numbers"
    )
    parser.add_argument(
        "set", nargs="?", default=BUILTIN_SET,
        help=f"built-in set ({', '.join(builtin_set_names())}) or a question-set file "
        f"(default {BUILTIN_SET})",
    )  # fmt: skip
    parser.add_argument(
        "--check", action="store_true",
        help="run each question's scene and its numeric checks: one PASS/FAIL line each",
    )  # fmt: skip
    parser.add_argument(
        "--question", action="append", default=[], metavar="ID",
        help="only this question (repeatable)",
    )  # fmt: skip


def questions_command(args: argparse.Namespace) -> int:
    question_set = resolve_set(args.set)
    known = {q.id for q in question_set.questions}
    for wanted in args.question:
        if wanted not in known:
            raise QuestionSetError(
                f"--question {wanted}: not in {question_set.source} (ids: {', '.join(known)})"
            )
    chosen = [q for q in question_set.questions if not args.question or q.id in args.question]
    width = max(len(q.id) for q in chosen)
    if not args.check:
        print(f"{question_set.title} ({question_set.id}, {len(chosen)} questions)")
        scene_width = max(len(q.scene) for q in chosen)
        for question in chosen:
            kind = "choice" if question.prediction.choices is not None else "number"
            print(f"{question.id:<{width}}  {kind:<6}  {question.scene:<{scene_width}}  "
                  f"{question.title}")  # fmt: skip
        return 0
    results = check_set(question_set, chosen)
    for result in results:
        verdict = "PASS" if result.passed else "FAIL"
        details = "; ".join(
            check.text if check.passed else f"{check.text} [FAILS: {check.claim}]"
            for check in result.checks
        )
        print(f"{verdict}  {result.question.id:<{width}}  {details}")
    return 0 if all(result.passed for result in results) else EXIT_FAILED
