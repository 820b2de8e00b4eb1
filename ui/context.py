"""What the window's parts get instead of the window: the controller, the selection, the status
bar, the 3D view, the actions, and the one path every request takes (`submit`).

The scene editor (ui.window.editor), the exporter (ui.window.export) and the recorder
(ui.window.recorder) each take a
WindowContext; the panels take nothing and emit command records on `command_requested`, which
the window connects to `WindowContext.submit`. So no part reaches into another through the
window, and only ui.window.main_window (and app.gui, which builds the window) imports it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QStatusBar, QWidget

from clothlab.sim.document.requests import Preview
from clothlab.sim.text import tr
from clothlab.ui.intents import NewDocument, Select, Trigger
from clothlab.ui.selection import SelectionModel
from clothlab.ui.viewport.viewport import Viewport

if TYPE_CHECKING:
    from clothlab.ui.front_door import FrontDoor

MESSAGE_MS = 8000  # how long a refusal or a note stays in the status bar


@dataclass(frozen=True)
class WindowContext:
    controller: FrontDoor
    selection: SelectionModel
    status: QStatusBar
    viewport: Viewport
    parent: QWidget  # the window as a parent for dialogs: nothing of it is reached through here
    actions: Mapping[str, QAction]  # by row name (ui.window.actions)
    confirm_discard: Callable[[], bool]  # unsaved edits: True if the user saved or dropped them
    show_document: Callable[[], None]  # the panels show the document again, not what was typed

    def submit(self, command: object) -> bool:
        """Carry out what a view asks: selecting and the window's actions here, everything else
        by the controller (FrontDoor.submit). A refusal is said in the status bar in one line,
        and the panels drop what was typed; a refused preview says nothing, as the drag's end
        will. True if the request was carried out."""
        if isinstance(command, Select):
            self.selection.select(command.selection)
            return True
        if isinstance(command, Trigger):
            self.actions[command.action].trigger()
            return True
        if isinstance(command, NewDocument):
            ask = command.ask or self.controller.path is not None  # a file: the user's own
            if ask and not self.confirm_discard():
                return False
        try:
            self.controller.submit(command)
        except (KeyError, ValueError) as error:
            if not isinstance(command, Preview):
                message = str(error.args[0]) if isinstance(error, KeyError) else str(error)
                self.say(tr(message))  # a sim message marked with QT_TR_NOOP, if it is one
                self.show_document()
            return False
        return True

    def say(self, text: str, timeout_ms: int = MESSAGE_MS) -> None:
        """One line in the status bar: a note on an edit, or why one was refused."""
        self.status.showMessage(text, timeout_ms)
