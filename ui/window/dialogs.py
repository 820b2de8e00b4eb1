"""The main window's dialogs and messages: its file commands (new, open, revert, close, save,
save state, export, screenshot) with their file choosers, the unsaved-changes question and the
recent-files list they keep; the keyboard shortcuts table, the documentation, About, and the
text shown when OpenGL is missing."""

from __future__ import annotations

import html
import importlib.metadata
import io
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QEvent, QObject, Qt, QUrl
from PySide6.QtGui import QAction, QDesktopServices, QImage, QKeySequence, QTextDocument
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMessageBox,
    QPlainTextEdit,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from clothlab.sim.document.files import describe, write_atomically
from clothlab.sim.document.scene import (
    UNTITLED,
    CameraSpec,
    Scene,
    SceneError,
    blank_scene,
    max_length,
)
from clothlab.sim.lab.engine import in_si_units
from clothlab.sim.lab.questions import FORMAT as QUESTIONS_FORMAT
from clothlab.sim.text import QT_TR_NOOP, tr
from clothlab.ui.number_box import IntBox, Limits, RefusalLine, number_box
from clothlab.ui.plain_text import as_written
from clothlab.ui.viewport.tools import TOOLS
from clothlab.ui.window import file_dialogs, preferences
from clothlab.ui.window.preferences import APPLICATION

if TYPE_CHECKING:
    from clothlab.ui.docks.readouts_dock import ReadoutsPanel
    from clothlab.ui.front_door import FrontDoor

# shown in the file dialogs: translated there, with tr
SCENE_FILTER = QT_TR_NOOP("Cloth Lab scenes (*.json);;All files (*)")
CSV_FILTER = QT_TR_NOOP("CSV files (*.csv);;All files (*)")
# File ▸ Open takes a scene, a recording or a question set (each JSON, told apart by "format")
OPEN_FILTER = QT_TR_NOOP("Cloth Lab files (*.json);;All files (*)")
PNG_FILTER = QT_TR_NOOP("PNG images (*.png)")
NPY_FILTER = QT_TR_NOOP("NumPy arrays (*.npy)")
STATE_MESSAGE_MS = 8000  # long enough to read what a saved state holds
# The documents Help opens. A checkout has them next to the packages' folders; a wheel does not
# install them, so Help then says where they are.
DOCUMENTS = {"readme": "README.md", "research": "RESEARCH.md"}
DOCUMENT_TITLES = {"readme": QT_TR_NOOP("User guide"), "research": QT_TR_NOOP("Model notes")}
# a new scene's name where the window's title shows it (the scene keeps UNTITLED, in English)
UNTITLED_SHOWN = QT_TR_NOOP("Untitled")
VIEWER_SIZE = (820, 640)
CHECKOUT = Path(__file__).resolve().parents[2]
# What the mouse and the 3D view do, listed after the actions' own shortcuts: the view's keys,
# then each tool's key at the keyboard cursor (from the tool table: cursor_tool_shortcuts), then
# moving around the window and the mouse.
VIEW_SHORTCUTS = (
    (QT_TR_NOOP("Orbit the camera (in the 3D view)"), QT_TR_NOOP("Arrows")),
    (QT_TR_NOOP("Pan the camera (in the 3D view)"), QT_TR_NOOP("Shift+arrows")),
    (QT_TR_NOOP("Zoom (in the 3D view)"), QT_TR_NOOP("+ and −")),
    (
        QT_TR_NOOP("Keyboard cursor on the cloth (in the 3D view)"),
        QT_TR_NOOP("Enter; Esc leaves it"),
    ),
    (QT_TR_NOOP("Cursor: step / next body, pin or obstacle"), QT_TR_NOOP("Arrows / Tab")),
    (
        QT_TR_NOOP("Cursor: grab or lift, then put down"),
        QT_TR_NOOP("Enter (arrows move; Shift: fine)"),
    ),
)
MOVING_SHORTCUTS = (
    (QT_TR_NOOP("Next / previous control"), QT_TR_NOOP("Tab / Shift+Tab")),
    (QT_TR_NOOP("Next / previous area: toolbar, 3D view, each panel"), QT_TR_NOOP("F6 / Shift+F6")),
    (
        QT_TR_NOOP("Press the focused button or check box"),
        QT_TR_NOOP("Enter (Space runs or pauses)"),
    ),
    (QT_TR_NOOP("Edit a value in the Scene panel"), QT_TR_NOOP("F2, or double-click")),
    (QT_TR_NOOP("Orbit the camera"), QT_TR_NOOP("Left or right drag in the 3D view")),
    (QT_TR_NOOP("Pan the camera"), QT_TR_NOOP("Middle drag, or Shift + drag")),
    (QT_TR_NOOP("Zoom"), QT_TR_NOOP("Mouse wheel")),
)
ABOUT_TEXT = QT_TR_NOOP(
    "<h3>{application} {version}</h3><p>A desktop physics lab for cloth: position-based "
    "dynamics (Verlet predict, Gauss–Seidel link passes), live readouts, editable scenes.</p>"
    "<p>Model time advances in steps of 1/120 s on a solver thread; the window draws the newest "
    "finished frame.</p>"
)


# The standard buttons' words with an Alt key, where Qt's have none ("Discard", "Save")
ALT_KEY_TEXTS = {
    QMessageBox.StandardButton.Save: QT_TR_NOOP("&Save"),
    QMessageBox.StandardButton.Discard: QT_TR_NOOP("&Discard"),
}


class AltKeys(QObject):
    """While inside, a message box shown gets ALT_KEY_TEXTS on its buttons: Alt+D discards,
    Alt+S saves. (QMessageBox.question makes its box itself: it is caught as it shows.)"""

    def __enter__(self) -> AltKeys:
        if (application := QApplication.instance()) is not None:
            application.installEventFilter(self)
        return self

    def __exit__(self, *_exception: object) -> None:
        if (application := QApplication.instance()) is not None:
            application.removeEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        if event.type() == QEvent.Type.Show and isinstance(watched, QMessageBox):
            for which, text in ALT_KEY_TEXTS.items():
                button = watched.button(which)
                if button is not None:
                    button.setText(tr(text))
        return False


class SceneFiles:
    """The window's file commands. A failure is shown as a message box with its one-line reason
    and leaves the document as it was; a success is reported in the status bar."""

    def __init__(
        self,
        window: QMainWindow,
        controller: FrontDoor,
        camera: Callable[[], CameraSpec],
        readouts: ReadoutsPanel,
        save_image: Callable[[Path], None],  # raises OSError
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
        question = tr("Save the changes to “{name}”?").format(name=self.controller.title_name)
        with AltKeys():
            answer = QMessageBox.question(
                self.window, tr("Unsaved changes"), as_written(question),
                buttons.Save | buttons.Discard | buttons.Cancel,
            )  # fmt: skip
        if answer == buttons.Save:
            return self.save()
        return answer == buttons.Discard

    def new_from_preset(self, name: str) -> None:
        if self.confirm_discard():
            self.controller.new_from_preset(name)

    def new(self) -> None:
        """A blank document: the default sheet (15 × 11, no pins, a tiny start imperfection so
        that it does not balance on its edge), no file yet. Close does the same: the window
        always shows a scene."""
        if self.confirm_discard():
            self.controller.load(blank_scene(), None)

    def revert(self) -> bool:
        """Load the document's file again; with unsaved changes, only if the user agrees to
        drop them. False if there is no file, the user declined, or the file cannot be read."""
        path = self.controller.path
        if path is None:
            return False
        if not self.controller.undo_stack.isClean():
            buttons = QMessageBox.StandardButton
            answer = QMessageBox.question(
                self.window, tr("Revert"),
                as_written(tr("Drop the changes and load {file} again?").format(file=path.name)),
                buttons.Discard | buttons.Cancel, buttons.Cancel,
            )  # fmt: skip
            if answer != buttons.Discard:
                return False
        return self.open_path(path)

    def open_dialog(self) -> None:
        if not self.confirm_discard():
            return
        path, _ = file_dialogs.get_open_file_name(
            self.window, tr("Open a scene or question set"), tr(OPEN_FILTER)
        )
        if path:
            self.open_path(path)

    def open_path(self, path: str | Path) -> bool:
        try:
            self.controller.open(Path(path))
        except SceneError as error:
            # a shared question set (one file, its scenes inside) opens in the Questions panel
            opener = getattr(self.window, "open_question_set_file", None)
            if opener is not None and error.format_found == QUESTIONS_FORMAT:
                return bool(opener(Path(path)))
            show_error(self.window, tr("Cannot open scene"), str(error))
            return False
        preferences.add_recent_file(Path(path))
        preferences.remember_folder(Path(path).parent)  # where the next file dialog starts
        return True

    def open_recent(self, file: str) -> None:
        if self.confirm_discard() and not self.open_path(file):
            preferences.forget_recent_file(file)  # gone or broken: do not offer it again

    def save(self) -> bool:
        if self.controller.path is None:
            return self.save_as()
        return self.save_to(self.controller.path)

    def save_as(self) -> bool:
        suggestion = f"{slug(self.controller.title_name)}.json"
        path = self._ask_save_path(tr("Save scene as"), suggestion, tr(SCENE_FILTER))
        return path is not None and self.save_to(path)

    def save_to(self, path: Path) -> bool:
        try:
            saved = self.controller.save(path, camera=self.camera())
        except (OSError, ValueError) as error:
            show_error(self.window, tr("Cannot save scene"), f"{path}: {describe(error)}")
            return False
        preferences.add_recent_file(saved)
        preferences.remember_folder(saved.parent)
        self.window.statusBar().showMessage(tr("Saved {path}").format(path=saved), 4000)
        return True

    def save_state(self) -> bool:
        """File ▸ Save State: the set-up with the links torn by the frame shown now, to a file
        of its own; the document keeps its file and its unsaved changes."""
        snapshot = self.controller.current_snapshot()
        if snapshot is None:
            show_error(
                self.window, tr("Cannot save the state"), tr("No frame has been computed yet.")
            )
            return False
        state = self.controller.state(snapshot)
        what = f"t = {snapshot.t:.2f} s ({_torn(len(state.tears))})"
        suggestion = f"{slug(self.controller.title_name)}-state-{snapshot.t:.2f}s.json"
        title = tr("Save state at {what} — positions are not stored").format(what=what)
        path = self._ask_save_path(title, suggestion, tr(SCENE_FILTER))
        if path is None:
            return False
        try:
            self.controller.save_state(path, self.camera(), snapshot)
        except (OSError, ValueError) as error:
            show_error(self.window, tr("Cannot save the state"), f"{path}: {describe(error)}")
            return False
        message = tr(
            "Saved the state at {what} to {path} — no positions: it opens at rest, torn"
        ).format(what=what, path=path)
        self.window.statusBar().showMessage(message, STATE_MESSAGE_MS)
        return True

    def export_readouts(self) -> None:
        suggestion = f"{slug(self.controller.title_name)}-readouts.csv"
        path = self._ask_save_path(tr("Export readouts"), suggestion, tr(CSV_FILTER))
        if path is None:
            return
        history = self.readouts.history
        try:
            # the probes' columns too, their tensions in N on SI fabrics, as `run --csv` writes
            text = history.csv_text(si=in_si_units(self.controller.scene))
            write_atomically(path, text.encode("utf-8"))
        except OSError as error:
            show_error(self.window, tr("Cannot export readouts"), f"{path}: {describe(error)}")
            return
        message = tr("Exported %n row(s) to {path}", "", len(history)).format(path=path)
        self.window.statusBar().showMessage(message, 4000)

    def export_positions(self) -> None:
        """The positions of the newest frame as an (N, 3) float64 .npy in particle order, as
        `clothlab run --positions` writes them."""
        snapshot = self.controller.latest
        if snapshot is None:
            show_error(
                self.window, tr("Cannot export positions"), tr("No frame has been computed yet.")
            )
            return
        suggestion = f"{slug(self.controller.title_name)}-positions.npy"
        path = self._ask_save_path(tr("Export positions"), suggestion, tr(NPY_FILTER))
        if path is None:
            return
        if not path.suffix:
            path = path.with_suffix(".npy")
        try:
            write_positions(path, snapshot.x)
        except OSError as error:
            show_error(self.window, tr("Cannot export positions"), f"{path}: {describe(error)}")
            return
        message = tr("Exported %n position(s) at t = {t:.2f} s to {path}", "", len(snapshot.x))
        message = message.format(t=snapshot.t, path=path)
        self.window.statusBar().showMessage(message, 4000)

    def save_screenshot_dialog(self) -> None:
        suggestion = f"{slug(self.controller.title_name)}.png"
        path = self._ask_save_path(tr("Save screenshot"), suggestion, tr(PNG_FILTER))
        if path is None:
            return
        try:
            self.save_image(path)
        except OSError as error:
            show_error(self.window, tr("Cannot save screenshot"), f"{path}: {describe(error)}")

    def _ask_save_path(self, title: str, file_name: str, file_filter: str) -> Path | None:
        """A path to save to, the dialog started in the last folder used with `file_name`."""
        path, _ = file_dialogs.get_save_file_name(self.window, title, file_name, file_filter)
        return Path(path) if path else None


def _torn(count: int) -> str:
    if count == 1:
        return tr("{count} link torn").format(count=count)
    return tr("{count} links torn").format(count=count)


def write_positions(path: Path, x: np.ndarray) -> None:
    """(N, 3) float64 positions to a .npy file, written atomically."""
    buffer = io.BytesIO()
    np.save(buffer, np.asarray(x, dtype=np.float64), allow_pickle=False)
    write_atomically(Path(path), buffer.getvalue())


def slug(name: str) -> str:
    """A file name stem from a scene name: "Hanging sheet" → "hanging-sheet"."""
    text = "".join(ch if ch.isalnum() else "-" for ch in name.lower()).strip("-")
    return "-".join(part for part in text.split("-") if part) or "scene"


def show_error(parent: QWidget, title: str, message: str) -> None:
    """A warning; its message shown as written (it often quotes a file: a name, a key)."""
    QMessageBox.warning(parent, title, as_written(message))


def version() -> str:
    try:
        return importlib.metadata.version("clothlab")
    except importlib.metadata.PackageNotFoundError:  # run from a folder, not installed
        return tr("(version unknown)")


def about_text() -> str:
    return tr(ABOUT_TEXT).format(application=APPLICATION, version=html.escape(version()))


def show_about(parent: QWidget) -> None:
    QMessageBox.about(
        parent, tr("About {application}").format(application=APPLICATION), about_text()
    )


def document_path(name: str) -> Path | None:
    """Where the document Help entry `name` ("readme", "research") is, if this is a checkout."""
    path = CHECKOUT / DOCUMENTS[name]
    return path if path.is_file() else None


class GuideBrowser(QTextBrowser):
    """A text browser whose pictures fit its width: the README's screenshots are wider than the
    viewer, and a picture wider than the page pushes the text under a horizontal scrollbar."""

    def loadResource(self, kind: int, name: QUrl | str) -> object:  # noqa: N802 (Qt override)
        resource = super().loadResource(kind, name)
        if kind != QTextDocument.ResourceType.ImageResource.value:
            return resource
        image = resource if isinstance(resource, QImage) else QImage.fromData(resource)
        width = max(200, self.viewport().width() - 40)
        if image.isNull() or image.width() <= width:
            return resource
        return image.scaledToWidth(width, Qt.TransformationMode.SmoothTransformation)


class DocumentViewer(QDialog):
    """Help's documents shown inside the app (a desktop may have no program for .md files): the
    Markdown rendered in a browser that follows the documents' links to each other and their
    pictures, and hands web links to the desktop's browser. Not modal: the lab keeps working."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("document_viewer")
        self.browser = GuideBrowser(self)
        self.browser.setOpenLinks(False)  # follow_link decides where each link opens
        self.browser.anchorClicked.connect(self.follow_link)
        self.browser.sourceChanged.connect(self._name_document)  # a link followed too
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.browser)
        self.resize(*VIEWER_SIZE)

    def show_document(self, name: str, path: Path) -> None:
        """Show the document Help entry `name` is, read from `path`, and bring the viewer up."""
        self.browser.setSource(
            QUrl.fromLocalFile(str(path)), QTextDocument.ResourceType.MarkdownResource
        )
        self.show()
        self.raise_()
        self.activateWindow()

    def follow_link(self, link: QUrl) -> None:
        """A Markdown document (README → RESEARCH.md, docs/api.md) or a place in this one opens
        here; a web link, a folder (examples) or another file opens in the desktop's program."""
        target = self.browser.source().resolved(link)
        if link.toString().startswith("#"):
            self.browser.scrollToAnchor(link.fragment())
        elif target.isLocalFile() and target.fileName().endswith(".md"):
            self.browser.setSource(target, QTextDocument.ResourceType.MarkdownResource)
        else:
            QDesktopServices.openUrl(target)

    def _name_document(self, source: QUrl) -> None:
        """ "User guide (README.md)": the desktop adds the app's name after a window's title."""
        file = source.fileName()
        titles = {DOCUMENTS[key]: title for key, title in DOCUMENT_TITLES.items()}
        title = titles.get(file)
        self.setWindowTitle(f"{tr(title)} ({file})" if title else file)


def open_document(parent: QWidget, name: str) -> bool:
    """Show a document in the app's own viewer (one per window); where it is not installed, say
    where it is."""
    path = document_path(name)
    if path is None:
        file = DOCUMENTS[name]
        QMessageBox.information(
            parent,
            file,
            tr(
                "{file} is not installed with the package: it is at the top of Cloth Lab's source "
                "repository (README.md is the user guide, RESEARCH.md the model notes)."
            ).format(file=file),
        )
        return False
    viewer = parent.findChild(DocumentViewer) or DocumentViewer(parent)
    viewer.show_document(name, path)
    return True


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
    return tr(
        "<h3>The 3D view is not available</h3>"
        "<p>OpenGL 3.3 could not be used: {reason}</p>"
        "<p>The simulation, panels and plots still work. Updating the graphics driver, or "
        "running with Mesa's software renderer (LIBGL_ALWAYS_SOFTWARE=1), may help.</p>"
    ).format(reason=html.escape(reason, quote=False))


def shortcut_rows(actions: Iterable[tuple[str, QAction]]) -> list[tuple[str, str]]:
    """(what, keys) for every (name, action) with a shortcut, then what the mouse does. The name
    is the action's own ("Undo"), not what its text says at the moment ("Undo Set ball")."""
    rows = []
    for name, action in actions:
        native = QKeySequence.SequenceFormat.NativeText
        keys = ", ".join(s.toString(native) for s in action.shortcuts())
        if keys:
            rows.append((name, keys))
    view = [(tr(what), tr(keys)) for what, keys in VIEW_SHORTCUTS]
    moving = [(tr(what), tr(keys)) for what, keys in MOVING_SHORTCUTS]
    return [*rows, *view, *cursor_tool_shortcuts(), *moving]


def cursor_tool_shortcuts() -> list[tuple[str, str]]:
    """(what, keys) of each tool used at the keyboard cursor by its key, in the tool table's
    order (ui.viewport.tools: cursor_key, cursor_words, cursor_note)."""
    rows = []
    for row in TOOLS:
        tool = row.tool
        if tool.cursor_key:
            note = f" ({tr(tool.cursor_note)})" if tool.cursor_note else ""
            rows.append((tr(tool.cursor_words), tool.cursor_key + note))
    return rows


class ShortcutsDialog(QDialog):
    def __init__(self, rows: list[tuple[str, str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("Keyboard shortcuts"))
        table = QTableWidget(len(rows), 2, self)
        table.setHorizontalHeaderLabels([tr("Action"), tr("Keys")])
        table.verticalHeader().hide()
        table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        table.setTabKeyNavigation(False)  # Tab leaves the table; arrows move in it
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


def window_title(scene_name: str, path: Path | None) -> str:
    """The window's title, "file — scene name — Cloth Lab", each said once: the scene's name
    only where the file name does not say it already, and no "Untitled" beside a file (a new
    scene's name says only that it has none). Before there is a file, "scene name — Cloth Lab".
    Qt shows the [*] as * while there are unsaved changes. The title ends with the application's
    name, so Qt does not add it again (it appends its display name to a title without it)."""
    name = "" if scene_name == UNTITLED else scene_name
    if path is None:
        parts = [f"{name or tr(UNTITLED_SHOWN)}[*]"]
    else:
        parts = [f"{path.name}[*]"]
        if name and slug(name) != slug(path.stem):
            parts.append(name)
    return " — ".join([*parts, APPLICATION])


# --- scene properties ------------------------------------------------------------------------


class ScenePropertiesDialog(QDialog):
    """File ▸ Scene properties: the scene's name (the window's title shows it) and its
    description, within the lengths a scene file takes."""

    def __init__(self, parent: QWidget | None, name: str, description: str) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("Scene properties"))
        self.setObjectName("scene_properties")
        self.name_edit = QLineEdit(name)
        self.name_edit.setObjectName("scene_name")
        self.name_edit.setMaxLength(max_length(Scene, "name"))
        self.name_edit.setToolTip(
            tr("The scene's name: the window's title and a saved file keep it")
        )
        self.description_edit = QPlainTextEdit(description)
        self.description_edit.setObjectName("scene_description")
        self.description_edit.setTabChangesFocus(True)
        self.description_edit.setPlaceholderText(tr("What the experiment shows (optional)"))
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        # a description too long for a scene file is said, and OK waits: nothing is cut
        self.refusal_line = QLabel()
        self.refusal_line.setStyleSheet("color: #c62828;")
        self.description_edit.textChanged.connect(self._check_length)
        form = QFormLayout(self)
        form.addRow(tr("Name"), self.name_edit)
        form.addRow(tr("Description"), self.description_edit)
        form.addRow(self.refusal_line)
        form.addRow(buttons)
        self._check_length()
        self.resize(420, self.sizeHint().height())

    def _check_length(self) -> None:
        length, limit = len(self.description_edit.toPlainText()), max_length(Scene, "description")
        too_long = length > limit
        self.refusal_line.setText(
            tr("Description: {length} characters, at most {limit}").format(
                length=length, limit=limit
            )
            if too_long
            else ""
        )
        self.refusal_line.setVisible(too_long)
        self.ok.setEnabled(not too_long)

    def values(self) -> tuple[str, str]:
        """The name (spaces trimmed; none is "Untitled") and the description, as entered."""
        return self.name_edit.text().strip() or UNTITLED, self.description_edit.toPlainText()


def ask_scene_properties(parent: QWidget | None, scene: Scene) -> tuple[str, str] | None:
    """The name and description the user entered, or None if they cancelled."""
    dialog = ScenePropertiesDialog(parent, scene.name, scene.description)
    return dialog.values() if dialog.exec() == QDialog.DialogCode.Accepted else None


# --- asking for a number ---------------------------------------------------------------------


class NumberDialog(QDialog):
    """One number, in its range (Qt's QInputDialog clamps a typed number without a word): a
    number out of range is said under the box, and OK waits until the number is one in range."""

    def __init__(
        self, parent: QWidget | None, title: str, label: str, limits: Limits, value: float
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.box = number_box(limits)
        if isinstance(self.box, IntBox):
            self.box.setValue(round(value))
        else:
            self.box.setValue(value)
        ok, cancel = QDialogButtonBox.StandardButton.Ok, QDialogButtonBox.StandardButton.Cancel
        buttons = QDialogButtonBox(ok | cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.refusal_line = RefusalLine([self.box], buttons.button(ok))
        form = QFormLayout(self)
        form.addRow(label, self.box)
        form.addRow(self.refusal_line)
        form.addRow(buttons)


def ask_number(
    parent: QWidget | None, title: str, label: str, limits: Limits, value: float
) -> float | None:
    """The number the user chose, or None if they cancelled."""
    dialog = NumberDialog(parent, title, label, limits, value)
    return dialog.box.value() if dialog.exec() == QDialog.DialogCode.Accepted else None
