"""Qt's file dialogs, started in the last folder used and remembering the one chosen (not
the home folder each time). Every file dialog of the window goes through
these; their shapes are Qt's static functions', which they call (tests replace those)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QWidget

from clothlab.ui.window import preferences


def start_folder() -> Path:
    """Where a file dialog starts: the last folder used (ui.window.preferences), else home."""
    return preferences.last_folder() or Path.home()


def get_open_file_name(parent: QWidget | None, title: str, filters: str) -> tuple[str, str]:
    """(path, chosen filter), the path empty if cancelled, as QFileDialog.getOpenFileName."""
    path, chosen = QFileDialog.getOpenFileName(parent, title, str(start_folder()), filters)
    _remember(path, is_folder=False)
    return path, chosen


def get_save_file_name(
    parent: QWidget | None, title: str, file_name: str, filters: str, selected: str = ""
) -> tuple[str, str]:
    """(path, chosen filter) for `file_name` suggested in the start folder; the path empty if
    cancelled, as QFileDialog.getSaveFileName."""
    suggestion = str(start_folder() / file_name)
    if selected:
        path, chosen = QFileDialog.getSaveFileName(parent, title, suggestion, filters, selected)
    else:
        path, chosen = QFileDialog.getSaveFileName(parent, title, suggestion, filters)
    _remember(path, is_folder=False)
    return path, chosen


def get_existing_directory(parent: QWidget | None, title: str) -> str:
    """A folder, or "" if cancelled, as QFileDialog.getExistingDirectory."""
    folder = QFileDialog.getExistingDirectory(parent, title, str(start_folder()))
    _remember(folder, is_folder=True)
    return folder


def _remember(chosen: str, is_folder: bool) -> None:
    if chosen:
        path = Path(chosen)
        preferences.remember_folder(path if is_folder else path.parent)
