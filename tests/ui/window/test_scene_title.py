"""The title bar and the scene's name: "file — scene name — Cloth Lab",
each said once, and the name edited in File ▸ Scene properties, undoable; the Questions panel's
text wraps instead of hiding behind a horizontal scroll bar."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication
from qt_helpers import WAIT_MS

from clothlab.sim.document.scene import load_scene
from clothlab.sim.lab.questions import load_builtin_set
from clothlab.ui.window.dialogs import ScenePropertiesDialog
from clothlab.ui.window.preferences import APPLICATION


def shown_title(window) -> str:
    """The title as the title bar shows it: Qt adds the application's display name to a title
    that does not end with it (QPlatformWindow::formatWindowTitle), and shows [*] as * when
    there are unsaved changes."""
    title = window.windowTitle().replace("[*]", "*" if window.isWindowModified() else "")
    display = QApplication.applicationDisplayName()
    return title if title.endswith(display) else f"{title} — {display}"


@pytest.fixture
def display_name():
    """The display name the app sets (app.gui), which Qt appends to window titles."""
    before = QApplication.applicationDisplayName()
    QApplication.setApplicationDisplayName(APPLICATION)
    yield
    QApplication.setApplicationDisplayName(before)


def type_scene_properties(qtbot, window, name: str, description: str | None = None) -> None:
    """File ▸ Scene properties, with real keys: select the name, type, press Enter (OK)."""

    def fill() -> None:
        dialog = next(w for w in QApplication.topLevelWidgets()
                      if isinstance(w, ScenePropertiesDialog) and w.isVisible())  # fmt: skip
        if description is not None:
            dialog.description_edit.setFocus()
            dialog.description_edit.selectAll()
            qtbot.keyClicks(dialog.description_edit, description)
        dialog.name_edit.setFocus()
        dialog.name_edit.selectAll()
        qtbot.keyClicks(dialog.name_edit, name)
        qtbot.keyClick(dialog.name_edit, Qt.Key.Key_Return)

    QTimer.singleShot(100, fill)
    window.action_scene_properties.trigger()  # the dialog runs until Enter accepts it


def test_the_title_bar_says_the_application_once(qtbot, make_window, display_name):
    window = make_window()
    assert shown_title(window) == "Hanging sheet — Cloth Lab"  # was "Cloth Lab — … — Cloth Lab"


def test_the_scene_name_is_edited_undone_and_saved(qtbot, make_window, display_name, tmp_path):
    window = make_window(paused=True)
    controller = window.controller
    window.action_new.trigger()
    assert shown_title(window) == "Untitled — Cloth Lab"
    path = tmp_path / "flag.json"
    assert window.files.save_to(path)
    assert shown_title(window) == "flag.json — Cloth Lab"  # not "flag.json (Untitled)"

    type_scene_properties(qtbot, window, "Flag in the wind", "A flag, left edge pinned")
    qtbot.waitUntil(lambda: controller.scene.name == "Flag in the wind", timeout=WAIT_MS)
    assert controller.scene.description == "A flag, left edge pinned"
    assert shown_title(window) == "flag.json* — Flag in the wind — Cloth Lab"
    stack = controller.undo_stack
    assert stack.text(stack.count() - 1) == "Rename scene “Flag in the wind”"
    window.action_undo.trigger()
    assert controller.scene.name == "Untitled" and controller.scene.description == ""
    assert shown_title(window) == "flag.json — Cloth Lab"
    window.action_redo.trigger()
    assert window.files.save_to(path)
    assert load_scene(path).name == "Flag in the wind"
    assert shown_title(window) == "flag.json — Flag in the wind — Cloth Lab"


def test_the_same_name_again_is_no_edit(qtbot, make_window):
    window = make_window(paused=True)
    type_scene_properties(qtbot, window, "Hanging sheet")
    assert window.controller.undo_stack.count() == 0


def test_a_description_too_long_for_a_file_keeps_ok_off(qtbot):
    dialog = ScenePropertiesDialog(None, "Sheet", "x" * 2001)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.refusal_line.text() == "Description: 2001 characters, at most 2000"
    assert not dialog.ok.isEnabled()


@pytest.mark.parametrize("question", range(len(load_builtin_set().questions)))
def test_the_questions_text_wraps_without_a_sideways_scroll_bar(qtbot, make_window, question):
    window = make_window(paused=True)
    panel = window.questions_panel
    window.show_questions()
    panel.select(question)
    panel.start_button.click()
    if panel.choice_buttons:
        panel.choice_labels[0].setFocus()
        qtbot.mouseClick(panel.choice_labels[-1], Qt.MouseButton.LeftButton)  # chooses it
        assert panel.choice_buttons[-1].isChecked()
    panel.lock_button.click()
    panel.explain_button.click()
    QApplication.sendPostedEvents()  # the layout the explanation asked for
    assert not panel.scroll_area.horizontalScrollBar().isVisible()
    content = panel.scroll_area.widget()
    assert content.width() <= panel.scroll_area.viewport().width()  # nothing cut off on the right
