"""Autosave and crash recovery.

While the document has unsaved changes, an Autosaver writes it every 60 s (Edit ▸ Preferences
changes that) to a recovery file of its own in the data folder
(``$XDG_DATA_HOME/ClothLab/Cloth Lab/recovery`` on Linux). A save, an undo back to the saved
state, opening another document or a clean exit removes the file, so a file left behind means a
run that ended without asking: the next launch offers to recover it.

Each running Cloth Lab has its own file (``autosave-<pid>-<start>.json``) guarded by a
QLockFile, so a second window's autosave is never offered, overwritten or deleted by the first;
a lock whose process is gone (crashed, killed) is stale and frees the file for recovery.

The recovery file is JSON::

    {"format": "clothlab-recovery", "version": 1,
     "saved_at": "2025-01-31T14:05:09+01:00",   # ISO 8601 with the local offset
     "path": "/home/me/scenes/curtain.json",    # where Save writes, or null (never saved)
     "scene": {...}}                            # the document, camera included (scene format)
"""

from __future__ import annotations

import json
import math
import os
import stat
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QLockFile, QObject, QStandardPaths, Qt, QTimer, Signal
from PySide6.QtWidgets import QMessageBox, QWidget

from clothlab.sim.document.files import (
    FileTooLargeError,
    NotARegularFileError,
    describe,
    file_kind,
    read_regular_file,
    remove_stale_temps,
    write_atomically,
)
from clothlab.sim.document.scene import MAX_FILE_BYTES, CameraSpec, Scene, parse_scene, scene_json
from clothlab.ui.window import preferences
from clothlab.ui.window.preferences import (  # the folder names QSettings uses
    APPLICATION,
    ORGANIZATION,
)

if TYPE_CHECKING:
    from clothlab.app.controller import Controller

FORMAT = "clothlab-recovery"
VERSION = 1
INTERVAL_ENV = "CLOTHLAB_AUTOSAVE_SECONDS"  # a shorter interval, for tests and the curious
# Answer the startup question without asking (tests); unset means ask.
CHOICE_ENV = "CLOTHLAB_RECOVERY"
CHOICES = ("recover", "discard")
PREFIX = "autosave-"
FILE_NAMES = r"autosave-\d+-\d+\.json"  # every run's recovery file: PREFIX, pid, start (ms)


def recovery_folder() -> Path:
    """Where recovery files live; follows XDG_DATA_HOME on Linux, so tests stay isolated."""
    data = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.GenericDataLocation)
    return Path(data) / ORGANIZATION / APPLICATION / "recovery"


def autosave_interval() -> float:
    """Seconds between autosaves: CLOTHLAB_AUTOSAVE_SECONDS if set and sensible (tests need
    less than the preference's 10 s), else the stored preference (default 60)."""
    text = os.environ.get(INTERVAL_ENV)
    chosen = float(preferences.autosave_interval_s())
    if not text:
        return chosen
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0.01 <= value <= 86_400):
        _warn(f"{INTERVAL_ENV}={text!r} is not a number of seconds; autosaving every {chosen:g} s")
        return chosen
    return value


def _warn(message: str) -> None:
    print(f"clothlab: warning: {message}", file=sys.stderr)


def _lock_path(file: Path) -> Path:
    return file.with_suffix(".lock")


def write_held(file: Path, lock: QLockFile | None, data: bytes) -> QLockFile:
    """`data` written atomically to `file` (its folder made), holding its lock (`lock`, or one
    made now; returned to be kept): another instance holding it raises OSError, as a failed
    write does."""
    file.parent.mkdir(parents=True, exist_ok=True)
    if lock is None:
        lock = _new_lock(file)
    if not lock.isLocked() and not lock.tryLock(0):
        raise OSError(f"cannot lock {_lock_path(file)}")
    write_atomically(file, data)
    return lock


def _new_lock(file: Path) -> QLockFile:
    """A QLockFile for `file`. Raises NotARegularFileError if its lock file is something other
    than a file: QLockFile reads a lock it finds, and reading a FIFO waits for a writer forever
    (a recovery file's FIFO lock froze the window at start-up)."""
    path = _lock_path(file)
    try:
        status = os.stat(path)
    except FileNotFoundError:
        status = None
    if status is not None and not stat.S_ISREG(status.st_mode):
        raise NotARegularFileError(path, file_kind(status.st_mode))
    lock = QLockFile(str(path))
    lock.setStaleLockTime(0)  # stale only when its process is gone, never because it is old
    return lock


@dataclass(frozen=True)
class Recovery:
    """A recovery file left by a run that did not end cleanly."""

    file: Path
    scene: Scene
    path: Path | None  # the document's own file, where Save writes
    saved_at: datetime

    @property
    def name(self) -> str:
        return self.scene.name or (self.path.stem if self.path else "Untitled")

    @property
    def when(self) -> str:
        local = self.saved_at.astimezone()
        if local.date() == datetime.now().astimezone().date():
            return f"{local:%H:%M} today"
        return f"{local:%Y-%m-%d %H:%M}"


def recovery_payload(scene: Scene, path: Path | None, saved_at: datetime | None = None) -> bytes:
    header = {
        "format": FORMAT,
        "version": VERSION,
        "saved_at": (saved_at or datetime.now()).astimezone().isoformat(timespec="seconds"),
        "path": str(path.resolve()) if path is not None else None,
    }
    # The scene as a scene file writes it (its long lists compact), so that every scene that
    # can be saved can be recovered: indented, the largest one would be over twice the cap.
    head = json.dumps(header, indent=1).removesuffix("\n}")
    return f'{head},\n "scene": {scene_json(scene).rstrip()}\n}}\n'.encode()


def read_recovery(file: Path) -> Recovery:
    """Parse a recovery file; raises ValueError (or OSError) with a short reason."""
    try:  # a regular file only, opened without blocking: a FIFO would hang every launch
        raw = read_regular_file(file, MAX_FILE_BYTES * 2)
    except FileTooLargeError:
        raise ValueError("file is too large") from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ValueError("not UTF-8 text") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"not valid JSON: {error.msg} at line {error.lineno}") from None
    except RecursionError:
        raise ValueError("not valid JSON: nested too deeply") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"format: expected {FORMAT!r}")
    if data.get("version") != VERSION:
        raise ValueError(f"version: expected {VERSION}, got {data.get('version')!r}")
    if set(data) != {"format", "version", "saved_at", "path", "scene"}:
        raise ValueError("expected the keys format, version, saved_at, path, scene")
    path = data["path"]
    if path is not None and (not isinstance(path, str) or not path or "\0" in path):
        raise ValueError("path: expected a file name or null")
    if not isinstance(data["saved_at"], str):
        raise ValueError("saved_at: expected an ISO 8601 time")
    try:
        saved_at = datetime.fromisoformat(data["saved_at"])
    except ValueError:
        raise ValueError("saved_at: expected an ISO 8601 time") from None
    try:  # in local time once, here: 9999-12-31T23:59-14:00 is past the year 9999 in UTC
        saved_at = saved_at.astimezone()
    except (OverflowError, ValueError):
        raise ValueError(f"saved_at: {data['saved_at'][:40]} is out of range") from None
    # The scene section goes through the scene file's own validation (and its messages).
    scene = parse_scene(json.dumps(data["scene"], separators=(",", ":")), "scene")
    return Recovery(file, scene, Path(path) if path is not None else None, saved_at)


def _is_regular(file: Path) -> bool:
    try:
        return stat.S_ISREG(file.stat().st_mode)
    except OSError:
        return False


def _remove(file: Path) -> None:
    file.unlink(missing_ok=True)
    _lock_path(file).unlink(missing_ok=True)


class Autosaver(QObject):
    """Writes the controller's document to this run's recovery file every `interval_s` while
    it has unsaved changes, and removes the file as soon as there are none."""

    saved = Signal(object)  # Path: the recovery file was written
    failed = Signal(str)  # one line: the recovery file could not be written

    def __init__(
        self,
        controller: Controller,
        camera: Callable[[], CameraSpec] | None = None,
        interval_s: float | None = None,
        folder: Path | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.controller = controller
        self.camera = camera
        self.folder = folder if folder is not None else recovery_folder()
        started = time.time_ns() // 1_000_000
        self.file = self.folder / f"{PREFIX}{os.getpid()}-{started}.json"
        # Each run writes a file of a new name, so a save's own clean-up of the temporary files
        # a SIGKILL leaves never finds an earlier run's: they are looked for here, by pattern.
        remove_stale_temps(self.file, FILE_NAMES)
        self._lock: QLockFile | None = None  # made at the first write
        self._written: bytes | None = None  # the document last written, without its time
        self.ticks = 0
        self._failing = False  # warn once per run of failed writes, not every minute
        self._timer = QTimer(self)
        self.set_interval(interval_s or autosave_interval())
        self._timer.timeout.connect(self.autosave)
        self._timer.start()
        controller.undo_stack.cleanChanged.connect(self._clean_changed)
        if interval_s is None:  # not told one: follow Edit ▸ Preferences as it changes
            preferences.signals().preferences_changed.connect(self._follow_preferences)

    def set_interval(self, seconds: float) -> None:
        """Autosave every `seconds` from now (a running timer restarts)."""
        self._timer.setInterval(round(1000 * seconds))

    @property
    def interval_s(self) -> float:
        return self._timer.interval() / 1000

    def _follow_preferences(self) -> None:
        self.set_interval(autosave_interval())

    # --- writing -------------------------------------------------------------------------------

    def document(self) -> tuple[Scene, Path | None]:
        scene = self.controller.scene
        if self.camera is not None:
            scene = scene.model_copy(update={"camera": self.camera()})
        return scene, self.controller.path

    def autosave(self) -> bool:
        """Write the recovery file now if there are unsaved changes; True if it was written."""
        self.ticks += 1
        if self.controller.undo_stack.isClean():
            self.remove()
            return False
        scene, path = self.document()
        unchanged = recovery_payload(scene, path, datetime.fromtimestamp(0))
        if unchanged == self._written and self.file.exists():
            return False  # nothing new since the last autosave: keep its time
        try:
            self._lock = write_held(self.file, self._lock, recovery_payload(scene, path))
        except OSError as error:
            culprit = f"{error.filename} " if error.filename not in (None, str(self.file)) else ""
            message = f"autosave to {self.file} failed: {culprit}{describe(error)}"
            if not self._failing:
                _warn(message)
            self._failing = True
            self.failed.emit(message)
            return False
        self._failing = False
        self._written = unchanged
        self.saved.emit(self.file)
        return True

    def remove(self) -> None:
        """Remove this run's recovery file (nothing unsaved is left to recover)."""
        if self._written is not None:  # only what this run's saves put there
            self.file.unlink(missing_ok=True)
        self._written = None
        if self._lock is not None and self._lock.isLocked():
            self._lock.unlock()  # removes the lock file

    def finish(self) -> None:
        """A clean exit: stop autosaving and remove the recovery file."""
        self._timer.stop()
        self.remove()

    def _clean_changed(self, *_: object) -> None:
        if self.controller.undo_stack.isClean():
            self.remove()

    # --- recovery --------------------------------------------------------------------------------

    def pending_recovery(self) -> Recovery | None:
        """The newest recovery file left by a run that has ended, or None. Never raises: an
        unreadable one is reported in one line on stderr and renamed to *.corrupt."""
        try:
            candidates = sorted(
                self.folder.glob(f"{PREFIX}*.json"),
                key=lambda f: f.stat().st_mtime if f.exists() else 0.0,
                reverse=True,
            )
        except OSError:
            return None
        for file in candidates:
            if file == self.file or not _is_regular(file) or not self._orphaned(file):
                continue  # ours, not a file Cloth Lab wrote (a FIFO would block), or in use
            try:
                return read_recovery(file)
            except (OSError, ValueError, RecursionError) as error:
                self._set_aside(file, str(error) or type(error).__name__)
        return None

    @staticmethod
    def _orphaned(file: Path) -> bool:
        """True if no running Cloth Lab owns `file` (its lock is free or stale). A lock that is
        not a file is no Cloth Lab's: the recovery file is then skipped with a warning."""
        try:
            lock = _new_lock(file)
        except OSError as error:
            _warn(f"recovery file {file} skipped: its lock {error.filename} {error}")
            return False
        if not lock.tryLock(0):
            return False
        lock.unlock()
        return True

    @staticmethod
    def _set_aside(file: Path, reason: str) -> None:
        reason = " ".join(reason.split())[:300]
        aside = file.with_name(f"{file.name}.corrupt")
        try:
            os.replace(file, aside)
        except OSError as error:
            _warn(f"unreadable recovery file {file} ({reason}); cannot move it: {error.strerror}")
            return
        _lock_path(file).unlink(missing_ok=True)
        _warn(f"unreadable recovery file {file} ({reason}); moved to {aside.name}")

    def recover(self, recovery: Recovery) -> None:
        """Make the recovered scene the document, with unsaved changes and its own path."""
        self.controller.load(recovery.scene, recovery.path)
        self.controller.mark_recovered()  # [*] in the title, and no undo makes it clean
        if self.autosave():  # ours holds it now, so the old file can go
            _remove(recovery.file)

    def discard(self, recovery: Recovery) -> None:
        _remove(recovery.file)


def offer_recovery(window: QWidget, autosaver: Autosaver) -> str | None:
    """Ask whether to recover the newest crashed run's document: 'recover', 'discard', 'keep'
    (the box was closed: ask again next launch) or None (nothing to recover).
    CLOTHLAB_RECOVERY=recover|discard answers without asking."""
    recovery = autosaver.pending_recovery()
    if recovery is None:
        return None
    choice = os.environ.get(CHOICE_ENV, "")
    if choice and choice not in CHOICES:
        _warn(f"{CHOICE_ENV}={choice!r} is not one of {', '.join(CHOICES)}; asking")
    if choice not in CHOICES:
        choice = ask(window, recovery)
    if choice == "recover":
        autosaver.recover(recovery)
    elif choice == "discard":
        autosaver.discard(recovery)
    return choice


def ask(window: QWidget, recovery: Recovery) -> str:
    box = QMessageBox(window)
    box.setIcon(QMessageBox.Icon.Question)
    box.setWindowTitle("Recover unsaved changes")
    box.setText(f"Recover unsaved changes to “{recovery.name}” from {recovery.when}?")
    box.setInformativeText(
        "Cloth Lab did not close normally last time. "
        + (f"Saving will write to {recovery.path}." if recovery.path else "It was never saved.")
    )
    box.setTextFormat(Qt.TextFormat.PlainText)  # the scene's name and path, as written
    recover = box.addButton("Recover", QMessageBox.ButtonRole.AcceptRole)
    discard = box.addButton(QMessageBox.StandardButton.Discard)
    box.setDefaultButton(recover)
    box.setObjectName("recovery_box")
    box.exec()
    clicked = box.clickedButton()
    return "recover" if clicked is recover else "discard" if clicked is discard else "keep"
