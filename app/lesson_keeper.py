"""Crash recovery for a lesson: the question set, the question, class mode and whether its scene
was loaded, so that a relaunched app puts the student back where they were. The locked
prediction itself is in the progress file already (written at Lock in), so a restored question
shows it locked.

While a lesson is under way (a teacher's set open, a question's scene loaded, or class mode in
force) the Questions panel's state is written to a file of this run's own in the recovery folder
(``lesson-<pid>-<start>.json``, guarded by a QLockFile as the autosave's is)::

    {"format": "clothlab-lesson", "version": 1, "set": {"path": "/home/ana/class-9c.json"},
     "question": "sag", "class_mode": true, "scene": true}

(``"set": {"builtin": "lab"}`` for a built-in set). A clean exit removes it — unless class mode
with a teacher's passphrase is in force: then the next start opens the lesson again, so that
quitting is no way out of class mode. The next launch restores the newest file whose run has
ended, without asking (the student's answers were never at risk; their place in the lesson
is)."""

from __future__ import annotations

import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QLockFile, QObject

from clothlab.app.autosave import _new_lock, recovery_folder, write_held
from clothlab.sim.document.files import (
    describe,
    read_regular_file,
    remove_stale_temps,
)
from clothlab.ui.docks.questions_dock import QuestionsPanel

FORMAT = "clothlab-lesson"
VERSION = 1
PREFIX = "lesson-"
FILE_NAMES = r"lesson-\d+-\d+\.json"
MAX_BYTES = 64 * 1024
SLUG = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")


def lesson_json(state: dict[str, Any]) -> bytes:
    return (json.dumps({"format": FORMAT, "version": VERSION, **state}, indent=1) + "\n").encode()


def parse_lesson(raw: bytes) -> dict[str, Any]:
    """A lesson file's state (set, question, class_mode, scene); ValueError with a short
    reason if it is not one."""
    data = json.loads(raw.decode("utf-8"))
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"format: expected {FORMAT!r}")
    if data.get("version") != VERSION:
        raise ValueError(f"version: expected {VERSION}")
    if set(data) != {"format", "version", "set", "question", "class_mode", "scene"}:
        raise ValueError("expected the keys format, version, set, question, class_mode, scene")
    chosen = data["set"]
    if not isinstance(chosen, dict) or len(chosen) != 1:
        raise ValueError("set: expected {path: …} or {builtin: …}")
    ((kind, name),) = chosen.items()
    if kind == "builtin" and not (isinstance(name, str) and SLUG.fullmatch(name)):
        raise ValueError("set: builtin: expected a set's name")
    if kind == "path" and not (isinstance(name, str) and name and "\0" not in name):
        raise ValueError("set: path: expected a file name")
    if kind not in ("builtin", "path"):
        raise ValueError("set: expected path or builtin")
    if not (isinstance(data["question"], str) and SLUG.fullmatch(data["question"])):
        raise ValueError("question: expected a question's id")
    if not isinstance(data["class_mode"], bool) or not isinstance(data["scene"], bool):
        raise ValueError("class_mode, scene: expected true or false")
    return {k: data[k] for k in ("set", "question", "class_mode", "scene")}


def _warn(message: str) -> None:
    print(f"clothlab: warning: {message}", file=sys.stderr)


class LessonKeeper(QObject):
    """Keeps the Questions panel's lesson in this run's lesson file, and restores the newest
    one a run left behind."""

    def __init__(
        self, panel: QuestionsPanel, folder: Path | None = None, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.panel = panel
        self.folder = folder if folder is not None else recovery_folder()
        started = time.time_ns() // 1_000_000
        self.file = self.folder / f"{PREFIX}{os.getpid()}-{started}.json"
        remove_stale_temps(self.file, FILE_NAMES)
        self._lock: QLockFile | None = None
        self.state: dict[str, Any] | None = None
        panel.lesson_changed.connect(self.keep)

    def keep(self, state: dict[str, Any] | None) -> None:
        """Write the lesson as it is now (None: no lesson, nothing to keep)."""
        self.state = state
        if state is None:
            self._remove()
            return
        try:
            self._lock = write_held(self.file, self._lock, lesson_json(state))
        except OSError as error:
            _warn(f"lesson not kept in {self.file}: {describe(error)}")

    def _remove(self) -> None:
        if self._lock is not None and self._lock.isLocked():
            self.file.unlink(missing_ok=True)
            self._lock.unlock()

    def finish(self) -> None:
        """A clean exit: the lesson file goes, unless the teacher's class mode is in force."""
        if self.panel.class_mode.teacher is not None and self.state is not None:
            if self._lock is not None and self._lock.isLocked():
                self._lock.unlock()  # the file stays, free for the next start
            return
        self._remove()

    def pending(self) -> tuple[Path, dict[str, Any]] | None:
        """The newest lesson file of a run that has ended, and its state."""
        try:
            files = sorted(
                self.folder.glob(f"{PREFIX}*.json"), key=lambda f: f.stat().st_mtime, reverse=True
            )
        except OSError:
            return None
        for file in files:
            if file == self.file or not re.fullmatch(FILE_NAMES, file.name):
                continue
            try:
                lock = _new_lock(file)
            except OSError:
                continue
            if not lock.tryLock(0):
                continue  # a running Cloth Lab's lesson
            lock.unlock()
            try:
                return file, parse_lesson(read_regular_file(file, MAX_BYTES))
            except (OSError, ValueError, RecursionError) as error:
                _warn(f"lesson file {file} not read ({error}); removed")
                file.unlink(missing_ok=True)
        return None

    def restore(self) -> bool:
        """Put the newest left-behind lesson back in the panel; True if there was one."""
        found = self.pending()
        if found is None:
            return False
        file, state = found
        restored = self.panel.restore_lesson(state)
        file.unlink(missing_ok=True)
        file.with_suffix(".lock").unlink(missing_ok=True)
        return restored
