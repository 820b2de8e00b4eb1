"""Every action of the main window, declared once as a row of ACTIONS, and the QActions, menus
and toolbar built from the table.

A row says what the action reads and does for the user (text, shortcuts, icon, tip, checkable),
which menu it sits in and where on the toolbar; what it calls is the window's business. Rows are
in menu order: a menu appears at its first row, a submenu at its first row inside it, and the
shortcuts dialog lists actions in the same order.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence, QShortcut
from PySide6.QtWidgets import QComboBox, QMainWindow, QMenu, QMenuBar, QToolBar, QWidget

from clothlab.sim.document.presets import load_preset, preset_names
from clothlab.sim.document.scene import SceneError
from clothlab.ui.icons import icon
from clothlab.ui.viewport.tools import TOOLS
from clothlab.ui.window import dialogs

Key = QKeySequence.StandardKey | str
StandardKey = QKeySequence.StandardKey

SPEEDS: tuple[tuple[float, str], ...] = (
    (0.25, "¼×"),
    (0.5, "½×"),
    (1.0, "1×"),
    (2.0, "2×"),
    (4.0, "4×"),
    (math.inf, "As fast as possible"),
)
SPEED_BOX_PLACE = 23  # the speed box sits on the toolbar right after Reset


@dataclass(frozen=True)
class ActionRow:
    name: str  # the window's attribute is action_<name>; grouped rows go in dicts by value
    text: str
    menu: str  # menu path: "&Edit/&Tool" is the Tool submenu of the Edit menu
    keys: tuple[Key, ...] = ()
    icon: str = ""
    tip: str = ""  # the status tip; the tooltip too, with the shortcut (else the text is)
    checkable: bool = False
    toolbar: int = 0  # place on the toolbar, 0 for none; a new tens digit starts a new section
    separator: bool = False  # a line above this row in its menu
    group: str = ""  # rows of one group are exclusive (one tool, one speed at a time)
    value: Any = None  # what a grouped row stands for: its tool's name or speed
    every_binding: bool = False  # a standard key brings all the platform's bindings for it
    remembered_as: str = ""  # a view option kept between runs under this name (ui.preferences)


@dataclass(frozen=True)
class SubmenuRow:
    """A submenu the window fills itself (presets, recent files, panels)."""

    name: str
    text: str
    menu: str
    separator: bool = False


STATE_TEXT = "Save S&tate…"  # with the model time once a frame is shown: see state_text


def state_text(t: float | None) -> str:
    """File ▸ Save State's text: "Save State at t = 3.20 s…" (the newest frame's time)."""
    return STATE_TEXT if t is None else f"Save S&tate at t = {t:.2f} s…"


TOOLS_PLACE = 30  # the tools' place on the toolbar, in the order of ui.tools.TOOLS

ACTIONS: tuple[ActionRow | SubmenuRow, ...] = (
    ActionRow("new", "&New", "&File", (StandardKey.New,),
              tip="Start a blank scene: one default sheet, no pins"),
    SubmenuRow("preset", "New &from preset", "&File"),
    ActionRow("open", "&Open…", "&File", (StandardKey.Open,), "open", "Open a scene file",
              toolbar=10),
    SubmenuRow("recent", "Open &recent", "&File"),
    ActionRow("open_questions", "Open &question set…", "&File",
              tip="Open a question set file: a teacher's own questions"),
    ActionRow("new_question_set", "New q&uestion set…", "&File",
              tip="Make your own questions: the question editor, the current scene inside"),
    ActionRow("open_recording", "Open recor&ding…", "&File",
              tip="Open a recording and replay it: play, step or seek to any step"),
    ActionRow("open_sweep", "Open s&weep results…", "&File",
              tip="Plot a sweep's results (clothlab sweep --csv): a readout against a setting"),
    ActionRow("save", "&Save", "&File", (StandardKey.Save,), "save", "Save the scene",
              toolbar=11, separator=True),
    ActionRow("save_as", "Save &As…", "&File", (StandardKey.SaveAs,),
              tip="Save the scene to a new file"),
    ActionRow("save_state", STATE_TEXT, "&File",
              tip="Save the set-up with the links torn so far, as a scene file of its own "
              "(positions are not stored: it opens at rest)"),
    ActionRow("revert", "Re&vert", "&File",
              tip="Load the scene's file again, dropping the changes since it was saved"),
    ActionRow("close", "&Close", "&File", (StandardKey.Close,),
              tip="Close the scene and start from a blank one"),
    ActionRow("scene_properties", "Scene p&roperties…", "&File",
              tip="Name the scene (the window's title shows it) and describe it"),
    ActionRow("export_csv", "&Export readouts CSV…", "&File",
              tip="Save the recorded readouts as CSV", separator=True),
    ActionRow("export_positions", "Export &positions…", "&File",
              tip="Save the particle positions of the frame shown as an (N, 3) .npy array"),
    ActionRow("export_mesh", "Export &mesh…", "&File",
              tip="Save the cloth of the frame shown as an OBJ or PLY mesh"),
    ActionRow("export_meshes", "Export mesh se&quence…", "&File",
              tip="Save a mesh per frame (30 a second) into a folder: a replay to its end, or "
              "5 s from the frame shown"),
    ActionRow("export_video", "Export vi&deo…", "&File",
              tip="Record the model from the frame shown as an MP4 or animated GIF"),
    ActionRow("screenshot", "Save screens&hot…", "&File", ("Ctrl+Shift+P",), "screenshot",
              "Save an image of the window", toolbar=50),
    ActionRow("quit", "&Quit", "&File", (StandardKey.Quit,), tip="Quit Cloth Lab",
              separator=True),
    ActionRow("undo", "&Undo", "&Edit", (StandardKey.Undo,), every_binding=True),
    ActionRow("redo", "&Redo", "&Edit", ("Ctrl+Shift+Z", "Ctrl+Y")),
    ActionRow("seam", "Seam &cut", "&Edit", ("X",), "seam",
              "Cut the sheet top to bottom down its middle", toolbar=36, separator=True),
    *(
        ActionRow(f"tool_{tool.name}", tool.label, "&Edit/&Tool", (tool.shortcut,), tool.icon,
                  tool.hint, checkable=True, toolbar=TOOLS_PLACE, group="tool", value=tool.name)
        for tool in TOOLS
    ),
    ActionRow("duplicate_body", "&Duplicate body", "&Edit", ("Ctrl+D",), "duplicate",
              "Copy the selected body beside it, with its pins", separator=True),
    ActionRow("remove_selected", "Remo&ve selected", "&Edit", ("Delete",), "remove",
              "Remove the selected body or obstacle"),
    ActionRow("remove_rulers", "Remove ru&lers", "&Edit",
              tip="Take every ruler off the scene (one undo step)"),
    *(
        ActionRow(f"pin_{which.replace(' ', '_')}", text, "&Edit/Pi&n selected sheet",
                  icon="pin-edge" if which == "top edge" else "",
                  tip=f"Pin the {which} of the selected sheet at its rest place (as set up)",
                  toolbar=39 if which == "top edge" else 0)
        for which, text in (("top edge", "Pin &top edge"), ("top corners", "Pin top &corners"),
                            ("left edge", "Pin &left edge"))
    ),
    ActionRow("pin_every_nth", "Pin &every n-th of top edge…", "&Edit/Pi&n selected sheet",
              tip="Pin every n-th particle of the selected sheet's top edge (asks n)"),
    ActionRow("unpin_all", "&Unpin all", "&Edit/Pi&n selected sheet",
              tip="Remove every pin of the selected body", separator=True),
    # The standard key is Cmd+, on macOS but unbound on most Linux desktops: Ctrl+, there.
    ActionRow("preferences", "Pr&eferences…", "&Edit", (StandardKey.Preferences, "Ctrl+,"),
              tip="Autosave interval, frame-rate cap, plot window and theme", separator=True),
    ActionRow("add_sheet", "&Sheet", "&Add", icon="add-sheet", toolbar=37,
              tip="Add a sheet of cloth beside the other bodies, hanging from its top corners"),
    ActionRow("add_disc", "&Disc", "&Add", icon="add-disc",
              tip="Add a circular sheet lying flat beside the other bodies, held at its middle"),
    ActionRow("add_block", "Soft &block", "&Add", icon="add-block",
              tip="Add a soft block beside the other bodies"),
    ActionRow("add_sphere", "S&phere", "&Add", icon="add-sphere", separator=True,
              tip="Add a sphere obstacle where the camera looks"),
    ActionRow("add_box", "B&ox", "&Add", icon="add-box", toolbar=38,
              tip="Add a box obstacle where the camera looks"),
    SubmenuRow("panels", "&Panels", "&View"),
    ActionRow("reset_layout", "Reset &layout", "&View",
              tip="Put the panels back where they started"),
    ActionRow("wireframe", "&Wireframe", "&View", ("W",), "wireframe", "Draw the links",
              checkable=True, toolbar=40, separator=True, remembered_as="wireframe"),
    ActionRow("stretch", "&Stretch colours", "&View", ("S",), "stretch",
              "Colour the links by strain", checkable=True, toolbar=41,
              remembered_as="stretch_colors"),
    ActionRow("tension", "&Tension map", "&View", ("T",),
              tip="Colour the cloth by its links' tension, from the solver's forces (legend in N)",
              checkable=True, remembered_as="tension_colors"),
    ActionRow("pin_forces", "Pin &force arrows", "&View", ("A",),
              tip="Draw the force each pin holds the cloth with, as an arrow labelled in N",
              checkable=True, remembered_as="pin_forces"),
    ActionRow("leave_class_mode", "Lea&ve class mode", "&View",
              tip="Show the panels a question set's class mode hid"),
    ActionRow("reset_camera", "Reset &camera", "&View", ("Home",), "reset-camera",
              "Look at the scene from its own camera", toolbar=42),
    ActionRow("frame_scene", "&Frame scene", "&View", ("F",),
              tip="Turn the camera on everything in the scene, from where it looks now"),
    ActionRow("full_screen", "F&ull screen", "&View", ("F11",), checkable=True, separator=True,
              tip="Fill the screen with the window; F11 again to leave"),
    ActionRow("play", "&Play", "&Simulation", ("Space",), "play", "Run or pause the simulation",
              toolbar=20),
    ActionRow("step", "S&tep", "&Simulation", (".",), "step",
              "Advance one step of 1/120 s while paused", toolbar=21),
    ActionRow("reset", "&Reset", "&Simulation", ("Ctrl+R",), "reset",
              "Back to t = 0 with the scene as loaded", toolbar=22),
    ActionRow("record", "Re&cord", "&Simulation", icon="record", checkable=True, toolbar=24,
              separator=True,
              tip="Record from t = 0: every grab, cut and edit at its step, to replay exactly"),
    ActionRow("save_recording", "Sa&ve recording…", "&Simulation",
              tip="Save the last recording to a file"),
    ActionRow("ball", "&Ball", "&Simulation", ("Shift+B",), "ball-switch",
              "Switch the ball on or off", checkable=True, toolbar=35, separator=True),
    *(
        ActionRow(f"speed_{place}", label, "&Simulation/S&peed", checkable=True, group="speed",
                  value=speed)
        for place, (speed, label) in enumerate(SPEEDS)
    ),
    ActionRow("validate_fabrics", "&Validate fabrics…", "&Lab",
              tip="The textile lab's tests on the fabrics, measured against published values"),
    ActionRow("fit_fabric", "&Fit my fabric…", "&Lab",
              tip="B from your own fabric's density and cantilever overhang, saved by name"),
    ActionRow("class_results", "&Class results…", "&Lab",
              tip="Count students' exported answer files: per question, how many predicted right"),
    ActionRow("questions", "&Questions", "&Help",
              tip="The lab's questions: predict, run and watch, then read why"),
    ActionRow("shortcuts", "&Keyboard shortcuts", "&Help", (StandardKey.HelpContents,),
              tip="List the keyboard shortcuts"),
    ActionRow("readme", "&User guide (README)", "&Help", separator=True,
              tip="Show README.md: using the app, the command line, the scenes"),
    ActionRow("research", "&Model notes (RESEARCH)", "&Help",
              tip="Show RESEARCH.md: the model's equations, measured figures and limits"),
    ActionRow("about", "&About Cloth Lab", "&Help", separator=True),
)  # fmt: skip


def action_rows() -> list[ActionRow]:
    return [row for row in ACTIONS if isinstance(row, ActionRow)]


def make_actions(window: QMainWindow, made: Mapping[str, QAction]) -> dict[str, QAction]:
    """One QAction per row, by name. Actions in `made` (the undo stack's, whose text follows the
    stack) only get their shortcuts. All are added to the window, so their shortcuts work while
    the menu bar is hidden, too.

    An action has the row's own keys; the extra bindings a platform has for a standard key
    (`every_binding`: F14 and the Undo key besides Ctrl+Z) work as window shortcuts that
    trigger it, so menus, tooltips and the shortcuts list show only the keys people type."""
    actions: dict[str, QAction] = {}
    groups: dict[str, QActionGroup] = {}
    for row in action_rows():
        action = made[row.name] if row.name in made else _new_action(window, row)
        action.setShortcuts(_shortcuts(row))
        for key in _extra_bindings(row):
            extra = QShortcut(key, window)
            extra.activated.connect(action.trigger)
        if row.name not in made:
            keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            tip = row.tip or base_text(row)
            action.setToolTip(tip + (f" ({keys})" if keys else ""))
        if row.group:
            if row.group not in groups:
                groups[row.group] = QActionGroup(window)
            groups[row.group].addAction(action)
        window.addAction(action)
        actions[row.name] = action
    return actions


def _shortcuts(row: ActionRow) -> list[QKeySequence]:
    """The row's keys, without a standard key the platform leaves unbound (empty) and without
    repeats (a standard key that is also typed out), so the first is one people can type."""
    sequences: list[QKeySequence] = []
    for sequence in map(QKeySequence, row.keys):
        if not sequence.isEmpty() and sequence not in sequences:
            sequences.append(sequence)
    return sequences


def _extra_bindings(row: ActionRow) -> list[QKeySequence]:
    """The platform's other bindings of a row's standard keys, when the row asks for them."""
    if not row.every_binding:
        return []
    own = _shortcuts(row)
    every = [s for key in row.keys for s in QKeySequence.keyBindings(key)]
    return [s for s in every if s not in own]


def base_text(row: ActionRow) -> str:
    """The row's text as a list shows it: no mnemonic, no ellipsis ("Undo", "Open")."""
    return row.text.replace("&", "").rstrip("…")


def _new_action(window: QMainWindow, row: ActionRow) -> QAction:
    action = QAction(row.text, window)
    if row.icon:
        action.setIcon(icon(row.icon))
    action.setCheckable(row.checkable)
    action.setStatusTip(row.tip)
    return action


def grouped(actions: Mapping[str, QAction], group: str) -> dict[Any, QAction]:
    """The actions of one group by the value their rows stand for."""
    return {row.value: actions[row.name] for row in action_rows() if row.group == group}


def remembered(actions: Mapping[str, QAction]) -> dict[str, QAction]:
    """The view options kept between runs, by the name they are stored under."""
    return {row.remembered_as: actions[row.name] for row in action_rows() if row.remembered_as}


def connect_actions(
    actions: Mapping[str, QAction], slots: Mapping[str, Callable[..., Any]]
) -> None:
    """Connect each row to the slot named after it, or after its group. A grouped row passes
    its value when chosen, another checkable row its new state; the others call it bare."""
    for row in action_rows():
        action, slot = actions[row.name], slots.get(row.group or row.name)
        if slot is None:
            continue  # made elsewhere, with its own connections (undo, redo)
        if row.group:
            action.triggered.connect(lambda _checked=False, call=slot, v=row.value: call(v))
        elif row.checkable:
            action.toggled.connect(slot)
        else:
            action.triggered.connect(lambda _checked=False, call=slot: call())


def show_running(actions: Mapping[str, QAction], running: bool) -> None:
    """Play turns into Pause while the simulation runs; Step works only while it is paused."""
    verb = "Pause" if running else "Play"
    play = actions["play"]
    play.setText(f"&{verb}")
    play.setIcon(icon(verb.lower()))
    play.setToolTip(f"{verb} (Space)")
    actions["step"].setEnabled(not running)


def build_menus(bar: QMenuBar, actions: Mapping[str, QAction]) -> dict[str, QMenu]:
    """Fill the menu bar from the table; returns the submenus the window fills, by name."""
    menus: dict[str, QMenu] = {}

    def menu_at(path: str) -> QMenu:
        if path not in menus:
            parent, _, title = path.rpartition("/")
            menus[path] = menu_at(parent).addMenu(title) if parent else bar.addMenu(title)
        return menus[path]

    to_fill: dict[str, QMenu] = {}
    for row in ACTIONS:
        menu = menu_at(row.menu)
        if row.separator:
            menu.addSeparator()
        if isinstance(row, SubmenuRow):
            to_fill[row.name] = menu_at(f"{row.menu}/{row.text}")
        else:
            menu.addAction(actions[row.name])
    return to_fill


def build_toolbar(
    window: QMainWindow, actions: Mapping[str, QAction], widgets: Mapping[int, QWidget]
) -> QToolBar:
    """The main toolbar: rows with a toolbar place, and `widgets` at theirs. Rows of one place
    (the tools) stand in table order, so a new tool needs no place of its own."""
    toolbar = QToolBar("Main toolbar", window)
    toolbar.setObjectName("main_toolbar")
    toolbar.setMovable(False)
    toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
    places: dict[int, list[QAction | QWidget]] = {}
    for row in action_rows():
        if row.toolbar:
            places.setdefault(row.toolbar, []).append(actions[row.name])
    for place, widget in widgets.items():
        places.setdefault(place, []).append(widget)
    section = None
    for place in sorted(places):
        if section is not None and place // 10 != section:
            toolbar.addSeparator()
        section = place // 10
        for item in places[place]:
            if isinstance(item, QWidget):
                toolbar.addWidget(item)
            else:
                toolbar.addAction(item)
    window.addToolBar(toolbar)
    return toolbar


def make_speed_box(chosen: Callable[[float], None]) -> QComboBox:
    """The toolbar's speed chooser, with the same speeds as the Speed menu; the window shows
    the current one with setCurrentIndex(speed_index(speed))."""
    box = QComboBox()
    box.setObjectName("speed_box")
    box.setToolTip("Model seconds per wall-clock second")
    for value, label in SPEEDS:
        box.addItem(label, value)
    box.activated.connect(lambda index: chosen(box.itemData(index)))
    return box


def speed_index(speed: float) -> int:
    return [value for value, _ in SPEEDS].index(speed)


def fill_preset_menu(menu: QMenu, chosen: Callable[[str], None]) -> None:
    for name in preset_names():
        action = menu.addAction(_preset_title(name))
        action.setStatusTip(f"Start a new scene from the {name} preset")
        action.triggered.connect(lambda _checked=False, preset=name: chosen(preset))


def fill_recent_menu(
    menu: QMenu, files: list[str], chosen: Callable[[str], None], clear: Callable[[], None]
) -> None:
    """The files numbered 1 … 0 (keys that pick them while the menu is open), then Clear."""
    menu.clear()
    for number, file in enumerate(files, start=1):
        action = menu.addAction(f"&{number % 10} {Path(file).name}")
        action.setStatusTip(file)
        action.triggered.connect(lambda _checked=False, path=file: chosen(path))
    if not files:
        menu.addAction("No recent files").setEnabled(False)
    menu.addSeparator()
    menu.addAction("Clear menu", clear)


def _preset_title(name: str) -> str:
    try:
        return load_preset(name).name
    except SceneError:
        return name


def shortcut_rows(made: Mapping[str, QAction], others: list[QAction]) -> list[tuple[str, str]]:
    """The table's actions by their own names ("Undo", not "Undo Set ball"), then any other
    action of the window by its text."""
    named = [(base_text(row), made[row.name]) for row in action_rows()]
    listed = {id(action) for _, action in named}
    rest = [(a.text().replace("&", ""), a) for a in others if id(a) not in listed]
    return dialogs.shortcut_rows([*named, *rest])
