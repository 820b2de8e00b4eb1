"""What a new user looked for or tripped over in the window: the title, small
windows, readouts that do not apply, menus and lists, and the missing file commands."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QDesktopServices, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QMessageBox,
    QStyleOptionViewItem,
)
from qt_helpers import WAIT_MS

from clothlab.sim.core.readouts import READOUTS
from clothlab.sim.document.presets import load_preset, preset_path
from clothlab.sim.document.requests import ChangeSetting
from clothlab.sim.document.scene import blank_scene, build_topology, load_scene
from clothlab.ui.docks.readouts_dock import ReadoutsPanel
from clothlab.ui.docks.scene_dock import ValueDelegate
from clothlab.ui.docks.scene_model import SceneModel
from clothlab.ui.viewport.key_tools import CURSOR_KEYS
from clothlab.ui.window import dialogs
from clothlab.ui.window.dialogs import window_title
from clothlab.ui.window.layout import tabs_width
from tests.ui.docks.test_scene_model import find_value

LEFT, RIGHT = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea


@pytest.fixture
def save_dialog(monkeypatch):
    """Answer the next file dialogs with the paths in the returned list, in order."""
    answers: list[Path] = []
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", lambda *args, **kwargs: (str(answers.pop(0)), "")
    )
    return answers


@pytest.fixture
def information(monkeypatch):
    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(
        QMessageBox, "information", lambda _parent, title, text, *args: shown.append((title, text))
    )
    monkeypatch.setattr(
        QMessageBox, "warning", lambda _parent, title, text, *args: shown.append((title, text))
    )
    return shown


# --- 12: the title shows the file --------------------------------------------------------------


def test_title_names_the_file_after_save_as(make_window, save_dialog, tmp_path):
    window = make_window()
    assert window.windowTitle() == "Hanging sheet[*] — Cloth Lab"  # no file yet
    save_dialog.append(tmp_path / "edited.json")
    assert window.files.save_as()
    assert window.windowTitle() == "edited.json[*] — Hanging sheet — Cloth Lab"
    assert not window.isWindowModified()
    window.controller.set_setting("wind", 2.0)
    assert window.isWindowModified()  # Qt shows the [*] as *


def test_title_gives_the_scene_name_only_where_the_file_name_does_not_say_it():
    """ "file — scene name — Cloth Lab", nothing twice (the title read "Cloth
    Lab — Hanging sheet — Cloth Lab", as Qt adds its display name to a title without it, and a
    new scene saved showed "flag.json (Untitled)")."""
    assert window_title("Hanging sheet", None) == "Hanging sheet[*] — Cloth Lab"
    assert window_title("Hanging sheet", Path("/x/hanging-sheet.json")) == (
        "hanging-sheet.json[*] — Cloth Lab"
    )
    assert window_title("Drop on the ball", Path("/x/mine.json")) == (
        "mine.json[*] — Drop on the ball — Cloth Lab"
    )
    assert window_title("", Path("/x/mine.json")) == "mine.json[*] — Cloth Lab"
    assert window_title("Untitled", Path("/x/flag.json")) == "flag.json[*] — Cloth Lab"
    assert window_title("Untitled", None) == "Untitled[*] — Cloth Lab"


# --- 14: small windows keep most of their width for the 3D view -----------------------------


def test_a_small_window_keeps_half_its_width_for_the_3d_view(qtbot, make_window):
    """Half, or what the docks leave when their tab titles need more (six
    tabs in one column need 464 px to read "Parameters", not "Param…")."""
    window = make_window(size=(800, 600))
    assert window.width() == 800
    titles = tuple(dock.windowTitle() for dock in window.docks)
    share = min(window.width() / 2, window.width() - tabs_width(titles) - 20)
    # the docks give way once the layout has settled (on a busy machine, later than 100 ms)
    qtbot.waitUntil(lambda: window.viewport.width() >= share, timeout=WAIT_MS)
    # the readouts gave way as a tab of the left column, and are still there
    assert window.dockWidgetArea(window.readouts_dock) == LEFT
    assert window.readouts_dock in window.tabifiedDockWidgets(window.parameters_dock)
    assert window.readouts_dock.toggleViewAction().isChecked()
    # a wide window puts them back beside the view
    window.resize(1800, 1000)
    qtbot.waitUntil(lambda: window.dockWidgetArea(window.readouts_dock) == RIGHT, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: window.readouts_dock.isVisible(), timeout=WAIT_MS)


def test_the_default_window_keeps_the_readouts_beside_the_view(qtbot, make_window):
    window = make_window(size=(1280, 800))
    window.layout_keeper.schedule()  # the fit a resize asks for, run before the checks
    qtbot.waitUntil(lambda: not window.layout_keeper._timer.isActive(), timeout=WAIT_MS)
    assert window.dockWidgetArea(window.readouts_dock) == RIGHT
    assert window.readouts_dock.isVisible()
    assert window.viewport.width() >= 0.4 * window.width()


def test_docks_the_user_widened_give_way_only_as_far_as_they_stay_usable(qtbot, make_window):
    window = make_window(size=(1800, 1000))
    qtbot.waitUntil(lambda: window.dockWidgetArea(window.readouts_dock) == RIGHT, timeout=WAIT_MS)
    window.resizeDocks([window.readouts_dock], [800], Qt.Orientation.Horizontal)
    qtbot.waitUntil(lambda: window.readouts_dock.width() >= 700, timeout=WAIT_MS)
    window.resize(1700, 1000)  # a resize: the view gets its share back from the wide dock
    qtbot.waitUntil(lambda: window.viewport.width() >= 1700 - 1140, timeout=WAIT_MS)
    assert window.readouts_dock.width() >= window.readouts_dock.minimumSizeHint().width()


# --- 15: readouts that mean nothing for the scene are not shown ------------------------------


@pytest.mark.parametrize(
    ("scene", "sag", "volume"),
    [("hanging-sheet", True, False), ("drop", False, False), ("flag", False, False),
     ("soft-block", False, True), ("curtain", False, False), ("shifted-pins", True, False)],
)  # fmt: skip
def test_readouts_panel_shows_only_what_applies(qtbot, scene, sag, volume):
    panel = ReadoutsPanel()
    qtbot.addWidget(panel)
    panel.show_scene(load_preset(scene))
    assert panel.plots["sag"].isVisibleTo(panel) == sag
    assert panel.plots["volume"].isVisibleTo(panel) == volume
    assert panel.plots["motion"].isVisibleTo(panel)


def test_sag_applies_only_while_both_top_corners_are_pinned(qtbot):
    panel = ReadoutsPanel()
    qtbot.addWidget(panel)
    scene = load_preset("hanging-sheet")
    panel.show_scene(scene)
    assert panel.plots["sag"].isVisibleTo(panel)
    one_pin = scene.model_copy(update={"pins": scene.pins[:1]})
    panel.show_edit(one_pin, None)
    assert not panel.plots["sag"].isVisibleTo(panel)
    panel.show_edit(scene, None)
    assert panel.plots["sag"].isVisibleTo(panel)


def test_the_readout_table_says_what_applies():
    sag = next(r for r in READOUTS if r.key == "sag")
    hanging = load_preset("hanging-sheet")
    topology = build_topology(hanging)
    assert sag.applies(topology, [p.particle for p in hanging.pins])
    assert not sag.applies(topology, [])
    assert not sag.applies(topology, range(15))  # a top edge pinned all along cannot sag
    assert not sag.applies(build_topology(load_preset("soft-block")), [0, 4])


# --- 16: menus, lists and labels --------------------------------------------------------------


def test_menus_and_the_shortcuts_list_show_the_primary_keys_and_base_names(make_window):
    window = make_window()
    window.controller.set_setting("ball", True)
    assert window.action_undo.text().replace("&", "") == "Undo Set ball"
    assert [s.toString() for s in window.action_undo.shortcuts()] == ["Ctrl+Z"]
    rows = dict(window.shortcut_rows())
    assert rows["Undo"] == "Ctrl+Z"
    assert not [name for name in rows if name.startswith("Undo ")]
    assert rows["Redo"] == "Ctrl+Shift+Z, Ctrl+Y"
    # the platform's other bindings still undo, without being listed
    others = set(QKeySequence.keyBindings(QKeySequence.StandardKey.Undo)[1:])
    assert others <= {s.key() for s in window.findChildren(QShortcut)}


def test_the_keyboard_page_lists_every_key_of_the_view_cursor_and_of_moving_around(make_window):
    keys = " ".join(dict(make_window().shortcut_rows()).values())
    for key in CURSOR_KEYS:
        assert QKeySequence(key).toString() in keys
    for key in ("F6", "Shift+F6", "Tab", "Shift+Tab", "Enter", "F2"):
        assert key in keys


def test_the_keyboard_page_lists_a_new_tools_cursor_key_from_its_row(monkeypatch):
    from clothlab.ui.viewport.tools import TOOLS, Tool, ToolRow

    class StampTool(Tool):
        cursor_key = "J"
        cursor_words = "Cursor: stamp"
        cursor_note = "once"

    row = ToolRow("stamp", "&Stamp", "select", "", "", StampTool)
    monkeypatch.setattr(dialogs, "TOOLS", (*TOOLS, row))
    rows = dialogs.shortcut_rows([])
    assert ("Cursor: stamp", "J (once)") in rows
    assert ("Cursor: pin or unpin", "P") in rows


def test_every_action_row_carries_what_it_does(qtbot):
    """The table alone connects the actions: each row's `does` finds its callback on the
    window's parts, or sends its request (here on a stand-in that records the calls)."""
    from PySide6.QtWidgets import QMainWindow

    from clothlab.sim.document.commands import SetSpeed, Step
    from clothlab.sim.document.requests import SeamCut
    from clothlab.ui.window import actions as action_table

    calls: list[tuple[str, tuple]] = []

    class StandIn:
        """Any part, any method: a call is recorded under its dotted name."""

        def __init__(self, name: str = "") -> None:
            self.name = name

        def __getattr__(self, name: str) -> StandIn:
            if name.startswith("__"):  # Qt asks a slot for __self__, __func__ …
                raise AttributeError(name)
            return StandIn(f"{self.name}.{name}".lstrip("."))

        def __call__(self, *args: object) -> None:
            calls.append((self.name, args))

    target = StandIn()
    window = QMainWindow()
    qtbot.addWidget(window)
    made = action_table.make_actions(window, {})
    undone = [row.name for row in action_table.action_rows() if row.does is None]
    assert undone == ["undo", "redo"]  # made by the undo stack, with their doing
    action_table.connect_actions(made, target)
    for name in ("seam", "step", "speed_1", "revert", "tool_pin", "pin_top_corners"):
        made[name].trigger()
    made["wireframe"].setChecked(True)
    submit = "context.submit"
    assert calls == [
        (submit, (SeamCut(),)), (submit, (Step(),)), (submit, (SetSpeed(0.5),)),
        ("files.revert", ()), ("viewport.interaction.set_tool", ("pin",)),
        ("editor.pin", ("top corners",)), ("viewport.set_wireframe", (True,)),
    ]  # fmt: skip


def test_no_two_actions_share_a_key_and_seam_cut_has_one(make_window):
    window = make_window()
    assert window.action_seam.shortcut().toString() == "X"
    keys = [s.toString() for a in window.actions() for s in a.shortcuts()]
    assert len(keys) == len(set(keys)), sorted(keys)


def test_scene_tree_names_choices_as_the_parameters_panel_does(qtbot):
    model = SceneModel()
    model.set_scene(load_preset("hanging-sheet"))
    index = find_value(model, ("setting", "solver_mode"))
    assert index.data() == "automatic"
    delegate = ValueDelegate()
    editor = delegate.createEditor(None, QStyleOptionViewItem(), index)
    assert isinstance(editor, QComboBox) and editor.currentText() == "automatic"
    delegate.setEditorData(editor, index)
    requests: list[object] = []
    model.command_requested.connect(requests.append)
    editor.setCurrentIndex(1)
    delegate.setModelData(editor, model, index)
    assert requests == [ChangeSetting("solver_mode", 1)]
    editor.deleteLater()


def test_readouts_pause_button_says_resume_while_frozen(qtbot):
    panel = ReadoutsPanel()
    qtbot.addWidget(panel)
    assert panel.pause_button.text() == "Pause"
    panel.pause_button.click()
    assert panel.pause_button.text() == "Resume"
    panel.pause_button.click()
    assert panel.pause_button.text() == "Pause"


def test_about_gives_the_version():
    import importlib.metadata

    assert importlib.metadata.version("clothlab") in dialogs.about_text()


def test_help_shows_the_docs_of_a_checkout_in_the_app(make_window, monkeypatch, information):
    window = make_window()
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: pytest.fail("opened"))
    shown: list[str] = []
    for name in ("readme", "research"):
        assert window.show_document(name)
        viewer = window.findChild(dialogs.DocumentViewer)
        shown.append(Path(viewer.browser.source().toLocalFile()).name)
    assert shown == ["README.md", "RESEARCH.md"]
    assert not information


def test_help_says_where_the_docs_are_when_they_are_not_installed(
    make_window, monkeypatch, information, tmp_path
):
    window = make_window()
    monkeypatch.setattr(dialogs, "CHECKOUT", tmp_path)  # as in a wheel: no docs beside it
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: pytest.fail("opened"))
    assert not window.show_document("readme")
    assert len(information) == 1
    title, text = information[0]
    assert "README.md" in title and "source repository" in text


# --- the file commands a user looked for ----------------------------------------------------


def test_new_and_close_start_a_blank_scene(make_window):
    window = make_window("flag")
    window.controller.set_setting("wind", 1.0)  # unsaved: the fixture answers Discard
    for action in (window.action_new, window.action_close):
        action.trigger()
        scene = window.controller.scene
        assert scene == blank_scene()  # the default sheet, with its start imperfection
        assert window.controller.path is None
        assert len(scene.bodies) == 1 and not scene.pins
        assert window.windowTitle() == "Untitled[*] — Cloth Lab"
        assert not window.isWindowModified()
    assert not window.action_revert.isEnabled()  # no file to go back to


def test_revert_reloads_the_file_after_asking(make_window, monkeypatch, tmp_path):
    window = make_window()
    path = tmp_path / "flag copy.json"
    path.write_bytes(preset_path("flag").read_bytes())
    assert window.files.open_path(path)
    assert window.action_revert.isEnabled()
    wind = window.controller.scene.wind.strength
    window.controller.set_setting("wind", wind + 1.0)

    asked: list[str] = []

    def answer(button):
        def ask(_parent, title, text, *args, **kwargs):
            asked.append(text)
            return button

        return ask

    monkeypatch.setattr(QMessageBox, "question", answer(QMessageBox.StandardButton.Cancel))
    window.action_revert.trigger()
    assert window.controller.scene.wind.strength == wind + 1.0  # declined: nothing changed
    monkeypatch.setattr(QMessageBox, "question", answer(QMessageBox.StandardButton.Discard))
    window.action_revert.trigger()
    assert len(asked) == 2 and "flag copy.json" in asked[0]
    assert window.controller.scene == load_scene(path)
    assert window.controller.path == path
    assert not window.isWindowModified()
    window.action_revert.trigger()  # nothing to lose: no question
    assert len(asked) == 2


def test_export_positions_writes_the_latest_frame(qtbot, make_window, save_dialog, tmp_path):
    window = make_window(paused=True)
    qtbot.waitUntil(lambda: window.controller.latest is not None, timeout=WAIT_MS)
    save_dialog.append(tmp_path / "positions")  # no suffix: .npy is added
    window.action_export_positions.trigger()
    saved = np.load(tmp_path / "positions.npy")
    assert saved.dtype == np.float64 and saved.shape == (165, 3)
    np.testing.assert_array_equal(saved, window.controller.latest.x)
