"""The main window's dialogs and messages: its file commands (open, save, export, screenshot) with
their file choosers, the unsaved-changes question and the recent-files list they keep; the
keyboard shortcuts table, About, and the text shown when OpenGL is missing."""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from clothlab.sim.scene import CameraSpec, SceneError
from clothlab.ui import preferences
from clothlab.ui.preferences import APPLICATION

if TYPE_CHECKING:  # the app layer builds the window; ui never imports app at run time
    from clothlab.app.controller import Controller
    from clothlab.ui.docks.readouts_dock import ReadoutsPanel

SCENE_FILTER = "Cloth Lab scenes (*.json);;All files (*)"
CSV_FILTER = "CSV files (*.csv);;All files (*)"
PNG_FILTER = "PNG images (*.png)"
# What the mouse and the 3D view do, listed after the actions' own shortcuts.
VIEW_SHORTCUTS = (
    ("Step (in the 3D view)", "Right"),
    ("Orbit the camera", "Left or right drag in the 3D view"),
    ("Pan the camera", "Middle drag, or Shift + drag"),
    ("Zoom", "Mouse wheel"),
)
ABOUT_TEXT = (
    f"<h3>{APPLICATION}</h3><p>A desktop physics lab for cloth: position-based dynamics (Verlet "
    "predict, Gauss–Seidel link passes), live readouts, editable scenes.</p><p>Model time "
    "advances in steps of 1/120 s on a solver thread; the window draws the newest finished "
    "frame.</p>"
)


class SceneFiles:
    """The window's file commands. A failure is shown as a message box with its one-line reason
    and leaves the document as it was; a success is reported in the status bar."""

    def __init__(
        self,
        window: QMainWindow,
        controller: Controller,
        camera: Callable[[], CameraSpec],
        readouts: ReadoutsPanel,
        save_image: Callable[[Path], bool],
    ) -> None:
        self.window = window
        self.controller = controller
        self.camera = camera  # the view's camera, saved with the scene
        self.readouts = readouts
        self.save_image = save_image

    def confirm_discard(self) -> bool:
        """True if there are no unsaved edits, or the user saved or chose to discard them."""
        if self.controller.undo_stack.isClean():
            return True
        buttons = QMessageBox.StandardButton
        answer = QMessageBox.question(
            self.window, "Unsaved changes", f"Save the changes to “{self.controller.title_name}”?",
            buttons.Save | buttons.Discard | buttons.Cancel,
        )  # fmt: skip
        if answer == buttons.Save:
            return self.save()
        return answer == buttons.Discard

    def new_from_preset(self, name: str) -> None:
        if self.confirm_discard():
            self.controller.new_from_preset(name)

    def open_dialog(self) -> None:
        if not self.confirm_discard():
            return
        folder = str(self._folder())
        path, _ = QFileDialog.getOpenFileName(self.window, "Open scene", folder, SCENE_FILTER)
        if path:
            self.open_path(path)

    def open_path(self, path: str | Path) -> bool:
        try:
            self.controller.open(Path(path))
        except SceneError as error:
            show_error(self.window, "Cannot open scene", str(error))
            return False
        preferences.add_recent_file(Path(path))
        return True

    def open_recent(self, file: str) -> None:
        if self.confirm_discard() and not self.open_path(file):
            preferences.forget_recent_file(file)  # gone or broken: do not offer it again

    def save(self) -> bool:
        if self.controller.path is None:
            return self.save_as()
        return self.save_to(self.controller.path)

    def save_as(self) -> bool:
        suggestion = self._folder() / f"{slug(self.controller.title_name)}.json"
        path = self._ask_save_path("Save scene as", suggestion, SCENE_FILTER)
        return path is not None and self.save_to(path)

    def save_to(self, path: Path) -> bool:
        try:
            saved = self.controller.save(path, camera=self.camera())
        except (OSError, ValueError) as error:
            show_error(self.window, "Cannot save scene", f"{path}: {error}")
            return False
        preferences.add_recent_file(saved)
        self.window.statusBar().showMessage(f"Saved {saved}", 4000)
        return True

    def export_readouts(self) -> None:
        suggestion = Path.home() / f"{slug(self.controller.title_name)}-readouts.csv"
        path = self._ask_save_path("Export readouts", suggestion, CSV_FILTER)
        if path is None:
            return
        history = self.readouts.history
        try:
            history.write_csv(path)
        except OSError as error:
            show_error(self.window, "Cannot export readouts", f"{path}: {error.strerror}")
            return
        self.window.statusBar().showMessage(f"Exported {len(history)} rows to {path}", 4000)

    def save_screenshot_dialog(self) -> None:
        suggestion = Path.home() / f"{slug(self.controller.title_name)}.png"
        path = self._ask_save_path("Save screenshot", suggestion, PNG_FILTER)
        if path is not None and not self.save_image(path):
            show_error(self.window, "Cannot save screenshot", f"{path}: could not write the image")

    def _folder(self) -> Path:
        """Where the scene file dialogs start: the document's folder, else the home folder."""
        return self.controller.path.parent if self.controller.path else Path.home()

    def _ask_save_path(self, title: str, suggestion: Path, file_filter: str) -> Path | None:
        path, _ = QFileDialog.getSaveFileName(self.window, title, str(suggestion), file_filter)
        return Path(path) if path else None


def slug(name: str) -> str:
    """A file name stem from a scene name: "Hanging sheet" → "hanging-sheet"."""
    text = "".join(ch if ch.isalnum() else "-" for ch in name.lower()).strip("-")
    return "-".join(part for part in text.split("-") if part) or "scene"


def show_error(parent: QWidget, title: str, message: str) -> None:
    QMessageBox.warning(parent, title, message)


def show_about(parent: QWidget) -> None:
    QMessageBox.about(parent, f"About {APPLICATION}", ABOUT_TEXT)


def gl_failure_label() -> QLabel:
    """Where the 3D view would be, for when OpenGL cannot be used: see gl_failure_text."""
    label = QLabel()
    label.setObjectName("gl_message")
    label.setAlignment(Qt.AlignmentFlag.AlignCenter)
    label.setWordWrap(True)
    label.setMargin(24)
    return label


def gl_failure_text(reason: str) -> str:
    """Rich text for where the 3D view would be when OpenGL cannot be used."""
    return (
        "<h3>The 3D view is not available</h3>"
        f"<p>OpenGL 3.3 could not be used: {html.escape(reason, quote=False)}</p>"
        "<p>The simulation, panels and plots still work. Updating the graphics driver, or "
        "running with Mesa's software renderer (LIBGL_ALWAYS_SOFTWARE=1), may help.</p>"
    )


def shortcut_rows(actions: Iterable[QAction]) -> list[tuple[str, str]]:
    """(what, keys) for every action with a shortcut, then what the mouse does."""
    rows = []
    for action in actions:
        native = QKeySequence.SequenceFormat.NativeText
        keys = ", ".join(s.toString(native) for s in action.shortcuts())
        if keys:
            rows.append((action.text().replace("&", ""), keys))
    return [*rows, *VIEW_SHORTCUTS]


class ShortcutsDialog(QDialog):
    def __init__(self, rows: list[tuple[str, str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts")
        table = QTableWidget(len(rows), 2, self)
        table.setHorizontalHeaderLabels(["Action", "Keys"])
        table.verticalHeader().hide()
        table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        for row, (action, keys) in enumerate(rows):
            table.setItem(row, 0, QTableWidgetItem(action))
            table.setItem(row, 1, QTableWidgetItem(keys))
        table.resizeColumnsToContents()
        table.horizontalHeader().setStretchLastSection(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(table)
        layout.addWidget(buttons)
        self.resize(520, 520)
