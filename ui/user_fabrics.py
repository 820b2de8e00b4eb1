"""The user's own fabrics (Fit my fabric's "Save as…"): named SI fabrics kept in one JSON file
beside the app's other data, written through the guarded writer (sim.document.files), so that
the Parameters panel's fabric chooser offers them for any body in this run and the next.

An unreadable file is moved aside (*.corrupt) and read as no fabrics, with one warning line:
what the user saved is never overwritten by a file the app could not read.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from pydantic import ValidationError
from PySide6.QtCore import QStandardPaths

from clothlab.sim.document.files import (
    FileTooLargeError,
    describe,
    read_json_object,
    read_regular_file,
    write_atomically,
)
from clothlab.sim.document.scene import MAX_NAME, SceneError, SIMaterialSpec
from clothlab.sim.text import QT_TR_NOOP, tr
from clothlab.ui.window.preferences import APPLICATION, ORGANIZATION

FABRICS_FORMAT = "clothlab-fabrics"
FABRICS_VERSION = 1
MAX_FABRICS_BYTES = 1024 * 1024


def fabrics_file() -> Path:
    """Where the user's fabrics are kept; follows XDG_DATA_HOME on Linux, so tests stay
    isolated."""
    data = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.GenericDataLocation)
    return Path(data) / ORGANIZATION / APPLICATION / "fabrics.json"


class UserFabrics:
    """The user's named fabrics, read from and written to `file` at each call (two windows, or
    a run after this one, see the same fabrics)."""

    def __init__(self, file: Path | None = None) -> None:
        self.file = file if file is not None else fabrics_file()
        self.warning = ""  # the last problem reading the file, one line, as the window shows it
        self._said = ""  # the same in English, as stderr had it

    def fabrics(self) -> dict[str, SIMaterialSpec]:
        """Name → fabric, in the order saved; {} when there is no file or it is unreadable."""
        if not os.path.lexists(self.file):
            return {}
        try:  # a regular file only, without blocking: a FIFO here froze the window's start
            raw = read_regular_file(self.file, MAX_FABRICS_BYTES)
        except FileTooLargeError:
            too_large = QT_TR_NOOP("{name}: file is larger than {limit} bytes")
            fields = {"name": self.file.name, "limit": MAX_FABRICS_BYTES}
            self._set_aside(too_large.format(**fields), tr(too_large).format(**fields))
            return {}
        except OSError as error:  # not a file the app wrote (a FIFO, a folder): left alone
            self._warn(
                QT_TR_NOOP("fabrics file {file} not read: {reason}"),
                file=self.file,
                reason=describe(error),
            )
            return {}
        try:
            data = read_json_object(raw, self.file.name, MAX_FABRICS_BYTES)
            if data.get("format") != FABRICS_FORMAT or data.get("version") != FABRICS_VERSION:
                raise SceneError(f"format: expected {FABRICS_FORMAT!r} version {FABRICS_VERSION}")
            stored = data.get("fabrics")
            if not isinstance(stored, dict):
                raise SceneError("fabrics: expected an object of named fabrics")
            return {
                str(n): SIMaterialSpec.model_validate({**f, "name": n}) for n, f in stored.items()
            }
        except (OSError, SceneError, ValidationError, TypeError) as error:
            reason = str(error).splitlines()[0] if str(error) else type(error).__name__
            self._set_aside(reason, reason)
            return {}

    def save(self, spec: SIMaterialSpec) -> None:
        """Keep `spec` under its name (replacing one of that name); OSError if it cannot be
        written, the file then as it was."""
        name = spec.name.strip()
        if not name or len(name) > MAX_NAME:
            raise ValueError(
                tr("fabric name: expected 1…{count} characters").format(count=MAX_NAME)
            )
        fabrics = {**self.fabrics(), name: spec.model_copy(update={"name": name})}
        document = {
            "format": FABRICS_FORMAT,
            "version": FABRICS_VERSION,
            "fabrics": {n: f.model_dump(exclude={"name"}) for n, f in fabrics.items()},
        }
        self.file.parent.mkdir(parents=True, exist_ok=True)
        payload = (json.dumps(document, indent=1, ensure_ascii=False) + "\n").encode("utf-8")
        write_atomically(self.file, payload)

    def _set_aside(self, reason: str, shown_reason: str) -> None:
        """Move the file aside; `reason` why, in English for stderr and `shown_reason` in the
        app's language for the status bar."""
        aside = self.file.with_name(f"{self.file.name}.corrupt")
        try:
            os.replace(self.file, aside)
        except OSError:
            aside = self.file
        self._warn(
            QT_TR_NOOP("unreadable fabrics file {file} ({reason}); moved to {aside}"),
            file=self.file,
            reason=(reason[:200], shown_reason[:200]),
            aside=aside.name,
        )

    def _warn(self, template: str, **fields: object) -> None:
        """One warning line from `template` (marked with QT_TR_NOOP): in English on stderr, and
        kept in `warning` in the app's language for the window to show. A field given as a pair
        is (English, shown)."""
        english = template.format(**{k: _said(v, 0) for k, v in fields.items()})
        if english != self._said:  # the file is read again at each refresh: said once
            print(f"clothlab: warning: {english}", file=sys.stderr)
        self._said = english
        self.warning = tr(template).format(**{k: _said(v, 1) for k, v in fields.items()})


def _said(value: object, which: int) -> object:
    """A warning's field in English (which 0) or as shown (1): a pair holds both."""
    return value[which] if isinstance(value, tuple) else value
