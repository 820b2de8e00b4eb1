"""What Cloth Lab remembers between runs, in one QSettings store: the window's geometry and dock
layout, the view options and the recent files; and the application's names, which also name the
folders QSettings and the autosave use.

Imports no widget module, so the app layer (autosave, start-up) can use the names and the store
without building a window.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QByteArray, QSettings

if TYPE_CHECKING:  # only for the hints: the window is passed in, never built here
    from PySide6.QtWidgets import QMainWindow

ORGANIZATION = "ClothLab"
APPLICATION = "Cloth Lab"
STATE_VERSION = 2  # bump when docks are added or renamed, so old layouts are ignored
MAX_RECENT = 10
GEOMETRY_KEY = "window/geometry"
STATE_KEY = "window/state"
VIEW_PREFIX = "view/"
RECENT_KEY = "recent_files"


def settings() -> QSettings:
    return QSettings(ORGANIZATION, APPLICATION)


# --- window layout ------------------------------------------------------------------------------


def restore_window(window: QMainWindow) -> bool:
    """Apply the stored geometry and dock layout to `window`; False if either is missing or
    unreadable (the caller then puts the default layout back)."""
    stored = settings()
    geometry, state = stored.value(GEOMETRY_KEY), stored.value(STATE_KEY)
    if not (isinstance(geometry, QByteArray) and isinstance(state, QByteArray)):
        return False
    try:
        return window.restoreGeometry(geometry) and window.restoreState(state, STATE_VERSION)
    except (TypeError, ValueError, RuntimeError):
        return False


def layout_stored() -> bool:
    """Whether anything is stored for the layout, readable or not."""
    stored = settings()
    return stored.value(GEOMETRY_KEY) is not None or stored.value(STATE_KEY) is not None


def store_layout(window: QMainWindow, view_options: Mapping[str, bool]) -> None:
    """Remember `window`'s geometry and docks, and the view options by name."""
    stored = settings()
    stored.setValue(GEOMETRY_KEY, window.saveGeometry())
    stored.setValue(STATE_KEY, window.saveState(STATE_VERSION))
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


def _as_bool(value: Any) -> bool:
    return value in (True, "true", "1", 1)
