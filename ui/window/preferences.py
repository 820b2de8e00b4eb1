"""What Cloth Lab remembers between runs, in one QSettings store: the window's geometry and dock
layout, the view options, the recent files and the preferences (Edit ▸ Preferences: autosave
interval, frame-rate cap, plot window, theme); and the application's names, which also name the
folders QSettings and the autosave use.

Imports no widget module, so the app layer (autosave, start-up) can use the names and the store
without building a window.
"""

from __future__ import annotations

import errno
import hashlib
import math
import os
import stat
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QByteArray, QDataStream, QObject, QSettings, QStandardPaths, Signal

from clothlab.sim.document.files import FileRefusedError, describe, file_kind, inspect_target
from clothlab.sim.text import LANGUAGES, QT_TR_NOOP
from clothlab.ui.window.dock_state import dock_state_readable

if TYPE_CHECKING:  # only for the hints: the window is passed in, never built here
    from PySide6.QtWidgets import QMainWindow

ORGANIZATION = "ClothLab"
APPLICATION = "Cloth Lab"
STATE_VERSION = 2  # bump when docks are added or renamed, so old layouts are ignored
MAX_RECENT = 10
GEOMETRY_KEY = "window/geometry"
STATE_KEY = "window/state"
CHECKSUM_KEY = "window/sha256"  # of geometry and state as stored: Qt trusts what it restores
VIEW_PREFIX = "view/"
RECENT_KEY = "recent_files"
LAST_FOLDER_KEY = "files/last_folder"


# --- the store ----------------------------------------------------------------------------------
# Qt reads the settings file when a QSettings is made and replaces it when one is synced, without
# asking what it is: a FIFO there blocked start-up before any window appeared, and a symlink to
# /dev/null had its device replaced by a plain file (Qt's QSaveFile renames over the link's
# target, as root too). So the file is looked at first, with the checks every save of the lab
# makes (sim.document.files.inspect_target); a file they refuse is never handed to Qt, and the
# settings live in memory for the session instead, said once on stderr.


class SessionSettings:
    """Settings kept in memory for this run only, with the part of QSettings' interface the app
    uses: what settings() gives when the settings file may not be read or written."""

    def __init__(self, file: Path, values: dict[str, Any] | None = None) -> None:
        self._file = file
        self._values: dict[str, Any] = dict(values or {})

    def fileName(self) -> str:  # noqa: N802 (QSettings' name)
        return str(self._file)

    def value(self, key: str, default: Any = None) -> Any:
        return self._values.get(key, default)

    def setValue(self, key: str, value: Any) -> None:  # noqa: N802
        self._values[key] = value

    def allKeys(self) -> list[str]:  # noqa: N802
        return list(self._values)

    def clear(self) -> None:
        self._values.clear()

    def sync(self) -> None:
        """Nothing to write: these settings end with the session."""


Store = QSettings | SessionSettings
_session: SessionSettings | None = None  # set once the settings file is refused


def settings() -> Store:
    """The settings store: Qt's on the settings file, or this session's in memory when the file
    is one Cloth Lab must not read or write (see settings_refusal)."""
    global _session
    if _session is not None:
        return _session
    file = settings_file()
    if file is None:  # the registry or a property list: no file to check
        return QSettings(ORGANIZATION, APPLICATION)
    reason = settings_refusal(file)
    if reason is None:
        # the file by name, not (ORGANIZATION, APPLICATION): those also read fallback files
        # (ClothLab.conf, /etc/xdg/…) that nothing here has looked at
        return QSettings(str(file), QSettings.Format.IniFormat)
    _session = SessionSettings(file, _readable_values(file))
    print(
        f"clothlab: warning: settings file {file}: {reason}; "
        "settings are kept for this session only",
        file=sys.stderr,
    )
    return _session


def settings_file() -> Path | None:
    """Where QSettings(ORGANIZATION, APPLICATION) keeps the settings as an INI file, worked out
    without making one (that reads the file); None where the settings are not a file Qt reads
    as INI (Windows' registry, macOS' property lists)."""
    if sys.platform in ("win32", "darwin"):
        return None
    location = QStandardPaths.StandardLocation.GenericConfigLocation
    return Path(QStandardPaths.writableLocation(location)) / ORGANIZATION / f"{APPLICATION}.conf"


def settings_refusal(file: Path) -> str | None:
    """Why Qt must not read or write the settings `file` ("is a FIFO (named pipe), not a
    regular file"), or None. Qt also takes a lock file beside it to write, which it reads."""
    try:
        inspect_target(file)
    except FileRefusedError as refused:
        if refused.errno != errno.ENOENT:  # a folder Qt would make is no reason
            return str(refused)
    except OSError as error:
        return describe(error)
    lock = Path(f"{file}.lock")
    if os.path.lexists(lock):
        try:
            kind = file_kind(os.stat(lock).st_mode)
        except OSError as error:
            return f"its lock file {lock} cannot be read: {describe(error)}"
        if kind != "a regular file":
            return f"its lock file {lock} is {kind}, not a regular file"
    return None


def _readable_values(file: Path) -> dict[str, Any]:
    """The settings a refused file holds if it can be read without harm (a regular file, made
    read-only to keep the settings as they are), so the session starts from them."""
    try:
        if not stat.S_ISREG(os.stat(file).st_mode):
            return {}
    except OSError:
        return {}
    stored = QSettings(
        str(file), QSettings.Format.IniFormat
    )  # only read: never set, so never written
    return {key: stored.value(key) for key in stored.allKeys()}


def forget_session_settings() -> None:
    """Go back to the settings file at the next settings() (tests: each has its own file)."""
    global _session
    _session = None


# --- window layout ------------------------------------------------------------------------------


def restore_window(window: QMainWindow) -> bool:
    """Apply the stored dock layout and geometry to `window`; False if either is missing or
    unreadable (the caller then puts the default layout back).

    A readable geometry that Qt will not apply is no failure: Qt refuses one saved on a screen
    more than 25 % wider or narrower (another QT_SCALE_FACTOR, another monitor), and the window
    then keeps the size it has (the caller's, fitted to the screen) with the docks as stored."""
    stored = settings()
    geometry, state = stored.value(GEOMETRY_KEY), stored.value(STATE_KEY)
    if not (isinstance(geometry, QByteArray) and isinstance(state, QByteArray)):
        return False
    # Qt parses a stored dock state without checking it: one damaged byte crashed every
    # launch. Only what this app wrote, byte for byte, is handed to Qt.
    if stored.value(CHECKSUM_KEY) != layout_checksum(geometry, state):
        return False
    if not geometry_readable(geometry):
        return False
    # A matching checksum says the bytes are as stored, not that Qt can read them (a dock area
    # numbered 5 still crashed it): their structure is read here first.
    if not dock_state_readable(bytes(state.data()), STATE_VERSION):
        return False
    try:
        window.restoreGeometry(geometry)  # False on a screen of another size: see above
        return window.restoreState(state, STATE_VERSION)
    except (TypeError, ValueError, RuntimeError):
        return False


GEOMETRY_MAGIC = 0x01D9D0CB  # what QWidget.saveGeometry() writes first
GEOMETRY_MAJOR_VERSIONS = (1, 2, 3)


def geometry_readable(geometry: QByteArray) -> bool:
    """Whether `geometry` is what QWidget.saveGeometry() writes (its magic number and a format
    version Qt reads), whether or not Qt applies it on this screen."""
    stream = QDataStream(geometry)
    stream.setVersion(QDataStream.Version.Qt_4_0)  # as Qt writes the header
    if geometry.size() < 8:
        return False
    magic, major = stream.readUInt32(), stream.readUInt16()
    return magic == GEOMETRY_MAGIC and major in GEOMETRY_MAJOR_VERSIONS


def layout_checksum(geometry: QByteArray, state: QByteArray) -> str:
    """sha256 of the stored geometry and dock state, with their lengths (hex)."""
    digest = hashlib.sha256()
    for part in (geometry, state):
        data = bytes(part.data())
        digest.update(len(data).to_bytes(8, "little") + data)
    return digest.hexdigest()


def layout_stored() -> bool:
    """Whether anything is stored for the layout, readable or not."""
    stored = settings()
    return stored.value(GEOMETRY_KEY) is not None or stored.value(STATE_KEY) is not None


def store_layout(window: QMainWindow, view_options: Mapping[str, bool]) -> None:
    """Remember `window`'s geometry and docks, and the view options by name."""
    stored = settings()
    geometry, state = window.saveGeometry(), window.saveState(STATE_VERSION)
    stored.setValue(GEOMETRY_KEY, geometry)
    stored.setValue(STATE_KEY, state)
    stored.setValue(CHECKSUM_KEY, layout_checksum(geometry, state))
    for name, on in view_options.items():
        stored.setValue(VIEW_PREFIX + name, on)
    stored.sync()


def stored_view_option(name: str) -> bool:
    return _as_bool(settings().value(VIEW_PREFIX + name, False))


# --- recent files -------------------------------------------------------------------------------


def recent_files() -> list[str]:
    """The most recently opened or saved scene files, newest first."""
    value = settings().value(RECENT_KEY, [])
    if isinstance(value, str):  # QSettings turns a one-item list into a string
        value = [value]
    if not isinstance(value, list):
        return []
    return [v for v in value if isinstance(v, str)][:MAX_RECENT]


def add_recent_file(path: Path) -> None:
    text = str(path.resolve())
    files = [text, *[f for f in recent_files() if f != text]][:MAX_RECENT]
    settings().setValue(RECENT_KEY, files)


def forget_recent_file(file: str) -> None:
    settings().setValue(RECENT_KEY, [f for f in recent_files() if f != file])


def clear_recent_files() -> None:
    settings().setValue(RECENT_KEY, [])


# --- the last folder used -----------------------------------------------------------------------


def last_folder() -> Path | None:
    """The folder of the last file chosen, opened or saved (file dialogs start there), if it
    is still a folder."""
    value = settings().value(LAST_FOLDER_KEY)
    if not isinstance(value, str) or not value:
        return None
    folder = Path(value)
    return folder if folder.is_dir() else None


def remember_folder(folder: Path) -> None:
    settings().setValue(LAST_FOLDER_KEY, str(folder.resolve()))


# --- preferences (Edit ▸ Preferences) --------------------------------------------------------


@dataclass(frozen=True)
class NumberPreference:
    """A whole number the user chooses; a stored value of the wrong type or outside the range
    (an older version's, or an edited file) reads as the default. `label` and `tooltip` are
    marked for the catalogue (QT_TR_NOOP) and translated where they are shown."""

    key: str
    label: str
    unit: str
    default: int
    minimum: int
    maximum: int
    tooltip: str


AUTOSAVE_INTERVAL = NumberPreference(
    "preferences/autosave_interval_s", QT_TR_NOOP("Autosave every"), "s", 60, 10, 3600,
    QT_TR_NOOP("How often unsaved changes are written to the recovery file "
               "(CLOTHLAB_AUTOSAVE_SECONDS, when set, wins)."),
)  # fmt: skip
# The defaults are ui.window.main_window.FRAME_HZ and ui.docks.readouts_dock.DEFAULT_WINDOW_S (a
# test holds them equal): this module imports no widget module.
FRAME_RATE_CAP = NumberPreference(
    "preferences/frame_rate_cap", QT_TR_NOOP("Frame-rate cap"), "fps", 60, 10, 120,
    QT_TR_NOOP("Most frames the 3D view and the panels draw per second; lower leaves more of "
               "the machine to the solver."),
)  # fmt: skip
PLOT_WINDOW = NumberPreference(
    "preferences/plot_window_s", QT_TR_NOOP("Plot window"), "s", 20, 2, 600,
    QT_TR_NOOP("Model time the Readouts plots show: the panel's Window box starts at this."),
)  # fmt: skip
NUMBER_PREFERENCES = (AUTOSAVE_INTERVAL, FRAME_RATE_CAP, PLOT_WINDOW)
LANGUAGE_KEY = "preferences/language"
SYSTEM_LANGUAGE = ""  # follow the system's locale (where there is a catalogue for it)
THEME_KEY = "preferences/theme"
THEMES = ("system", "light", "dark")  # system: the desktop's palette, as Qt found it
DEFAULT_THEME = "system"


def stored_number(preference: NumberPreference) -> int:
    """The stored value, or the default if it is missing, not a whole number or out of range.
    INI files give numbers back as text, so text is read too."""
    value = settings().value(preference.key)
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return preference.default
    try:
        number = float(value)
    except ValueError:
        return preference.default
    if not (math.isfinite(number) and number.is_integer()):
        return preference.default
    if not preference.minimum <= number <= preference.maximum:
        return preference.default
    return int(number)


def store_number(preference: NumberPreference, value: int) -> None:
    _check_number(preference, value)
    settings().setValue(preference.key, int(value))


def _check_number(preference: NumberPreference, value: int) -> None:
    if not preference.minimum <= value <= preference.maximum:
        bounds = f"{preference.minimum}…{preference.maximum} {preference.unit}"
        raise ValueError(f"{preference.key}: {value} is outside {bounds}")


def autosave_interval_s() -> int:
    return stored_number(AUTOSAVE_INTERVAL)


def frame_rate_cap() -> int:
    return stored_number(FRAME_RATE_CAP)


def plot_window_s() -> int:
    return stored_number(PLOT_WINDOW)


def theme() -> str:
    value = settings().value(THEME_KEY, DEFAULT_THEME)
    return value if value in THEMES else DEFAULT_THEME


def set_theme(name: str) -> None:
    _check_theme(name)
    settings().setValue(THEME_KEY, name)


def _check_theme(name: str) -> None:
    if name not in THEMES:
        raise ValueError(f"{THEME_KEY}: {name!r} is not one of {', '.join(THEMES)}")


def language() -> str:
    """The language chosen for the next start (sim.text.LANGUAGES), or SYSTEM_LANGUAGE."""
    value = settings().value(LANGUAGE_KEY, SYSTEM_LANGUAGE)
    return value if value in LANGUAGES else SYSTEM_LANGUAGE


def _check_language(code: str) -> None:
    if code != SYSTEM_LANGUAGE and code not in LANGUAGES:
        raise ValueError(f"{LANGUAGE_KEY}: {code!r} is not one of {', '.join(LANGUAGES)}")


@dataclass(frozen=True)
class Preferences:
    """The five preferences together, as the dialog edits them."""

    autosave_interval_s: int = AUTOSAVE_INTERVAL.default
    frame_rate_cap: int = FRAME_RATE_CAP.default
    plot_window_s: int = PLOT_WINDOW.default
    theme: str = DEFAULT_THEME
    language: str = SYSTEM_LANGUAGE  # taken at the next start: the window is built in one


def stored_preferences() -> Preferences:
    return Preferences(
        autosave_interval_s(), frame_rate_cap(), plot_window_s(), theme(), language()
    )


def store_preferences(chosen: Preferences) -> None:
    """Store all five and tell the followers; a bad value raises ValueError, and then none is
    stored."""
    numbers = list(zip(NUMBER_PREFERENCES, _numbers(chosen), strict=True))
    for preference, value in numbers:
        _check_number(preference, value)
    _check_theme(chosen.theme)
    _check_language(chosen.language)
    for preference, value in numbers:
        store_number(preference, value)
    set_theme(chosen.theme)
    settings().setValue(LANGUAGE_KEY, chosen.language)
    settings().sync()
    signals().preferences_changed.emit()


def _numbers(chosen: Preferences) -> tuple[int, int, int]:  # in NUMBER_PREFERENCES' order
    return (chosen.autosave_interval_s, chosen.frame_rate_cap, chosen.plot_window_s)


class PreferenceSignals(QObject):
    """Tells whoever follows the preferences that new ones were stored: the autosave (app
    layer) is not reachable from the window, so it listens here."""

    preferences_changed = Signal()


_signals: PreferenceSignals | None = None


def signals() -> PreferenceSignals:
    global _signals
    if _signals is None:
        _signals = PreferenceSignals()
    return _signals


def _as_bool(value: Any) -> bool:
    return value in (True, "true", "1", 1)
