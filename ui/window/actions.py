"""Every action of the main window, declared once as a row of ACTIONS, and the QActions, menus
and toolbar built from the table.

A row says what the action reads and does for the user (text, shortcuts, icon, tip, checkable),
which menu it sits in, where on the toolbar, and what it does: `does` finds the callback on the
window's parts (an ActionTarget: the window, its file commands, its editor …), or `request`
makes it send a command record the one way every request takes. Rows are in menu order: a menu
appears at its first row, a submenu at its first row inside it, and the shortcuts dialog lists
actions in the same order.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence, QShortcut
from PySide6.QtWidgets import QComboBox, QMainWindow, QMenu, QMenuBar, QToolBar, QWidget

from clothlab.sim.document.commands import Pause, Run, SetSpeed, Step
from clothlab.sim.document.presets import load_preset, preset_names
from clothlab.sim.document.requests import ChangeSetting, Reset, SeamCut
from clothlab.sim.document.scene import SceneError
from clothlab.sim.text import QT_TR_NOOP, tr
from clothlab.ui.icons import icon
from clothlab.ui.numbers import localized
from clothlab.ui.viewport.tools import TOOLS
from clothlab.ui.window import dialogs
from clothlab.ui.window.preferences_dialog import edit_preferences

if TYPE_CHECKING:
    from clothlab.ui.context import WindowContext
    from clothlab.ui.viewport.viewport import Viewport
    from clothlab.ui.window.dialogs import SceneFiles
    from clothlab.ui.window.editor import SceneEditor
    from clothlab.ui.window.export import Exporter
    from clothlab.ui.window.recorder import Recorder

Key = QKeySequence.StandardKey | str
StandardKey = QKeySequence.StandardKey

SPEEDS: tuple[tuple[float, str], ...] = (
    (0.25, QT_TR_NOOP("¼×")),
    (0.5, QT_TR_NOOP("½×")),
    (1.0, QT_TR_NOOP("1×")),
    (2.0, QT_TR_NOOP("2×")),
    (4.0, QT_TR_NOOP("4×")),
    (math.inf, QT_TR_NOOP("As fast as possible")),
)
SPEED_BOX_PLACE = 23  # the speed box sits on the toolbar right after Reset


class ActionTarget(Protocol):
    """What the rows' callbacks are found on: the main window, its parts and its commands."""

    @property
    def context(self) -> WindowContext: ...  # `submit`, the one way every request takes

    @property
    def files(self) -> SceneFiles: ...

    @property
    def viewport(self) -> Viewport: ...

    @property
    def editor(self) -> SceneEditor: ...

    @property
    def recorder(self) -> Recorder: ...

    @property
    def exporter(self) -> Exporter: ...

    def close(self) -> bool: ...

    def edit_scene_properties(self) -> None: ...

    def reset_layout(self) -> None: ...

    def set_full_screen(self, on: bool) -> None: ...

    def request_leave_class_mode(self) -> bool: ...

    def show_questions(self) -> None: ...

    def open_question_set(self) -> None: ...

    def new_question_set(self) -> None: ...

    def show_class_results(self) -> None: ...

    def show_validation(self) -> None: ...

    def fit_my_fabric(self) -> object: ...

    def open_sweep_results(self) -> None: ...

    def show_shortcuts(self) -> None: ...

    def show_document(self, name: str) -> bool: ...

    def show_about(self) -> None: ...


# A row's callback, found on the window's parts: called bare, with a checkable row's new state,
# or with a grouped row's value.
Does = Callable[[ActionTarget], Callable[..., object]]


def request(command: object) -> Does:
    """A row that sends `command` the one way every request takes (WindowContext.submit)."""
    return lambda target: partial(target.context.submit, command)


def _play_or_pause(target: ActionTarget) -> Callable[[], object]:
    return lambda: target.context.submit(Pause() if target.context.controller.running else Run())


def _switch_ball(target: ActionTarget) -> Callable[[bool], object]:
    return lambda on: target.context.submit(ChangeSetting("ball", on))


def _set_speed(target: ActionTarget) -> Callable[[float], object]:
    return lambda speed: target.context.submit(SetSpeed(speed))


def _choose_tool(target: ActionTarget) -> Callable[[str], object]:
    return target.viewport.interaction.set_tool


def _pin(which: str) -> Does:
    """A row that pins the selected sheet's pin set `which` (composition.pin_set)."""
    return lambda target: partial(target.editor.pin, which)


@dataclass(frozen=True)
class ActionRow:
    name: str  # the window's attribute is action_<name>; grouped rows go in dicts by value
    text: str  # the English source (marked with QT_TR_NOOP); tr() where it is shown
    menu: str  # menu path: "&Edit/&Tool" is the Tool submenu of the Edit menu (see MENU_TITLES)
    keys: tuple[Key, ...] = ()
    icon: str = ""
    tip: str = ""  # the status tip; the tooltip too, with the shortcut (else the text is)
    checkable: bool = False
    toolbar: int = 0  # place on the toolbar, 0 for none; a new tens digit starts a new section
    separator: bool = False  # a line above this row in its menu
    group: str = ""  # rows of one group are exclusive (one tool, one speed at a time)
    value: Any = None  # what a grouped row stands for: its tool's name or speed
    every_binding: bool = False  # a standard key brings all the platform's bindings for it
    # a view option kept between runs under this name (ui.window.preferences)
    remembered_as: str = ""
    does: Does | None = None  # None: the action is made elsewhere, with its doing (undo, redo)


@dataclass(frozen=True)
class SubmenuRow:
    """A submenu the window fills itself (presets, recent files, panels)."""

    name: str
    text: str
    menu: str
    separator: bool = False


STATE_TEXT = QT_TR_NOOP("Save S&tate…")  # with the model time once a frame is shown: state_text


def state_text(t: float | None) -> str:
    """File ▸ Save State's text: "Save State at t = 3.20 s…" (the newest frame's time)."""
    if t is None:
        return tr(STATE_TEXT)
    return localized(tr("Save S&tate at t = {t:.2f} s…").format(t=t))  # "32,43" in German


# The menus' titles, for the catalogue: a row's menu path is made of them ("&Edit/&Tool"), and
# build_menus translates each as it makes its menu. A submenu the window fills is titled by its
# row's text instead.
MENU_TITLES = (
    QT_TR_NOOP("&File"), QT_TR_NOOP("&Edit"), QT_TR_NOOP("&Tool"),
    QT_TR_NOOP("Pi&n selected sheet"), QT_TR_NOOP("&Add"), QT_TR_NOOP("&View"),
    QT_TR_NOOP("&Simulation"), QT_TR_NOOP("S&peed"), QT_TR_NOOP("&Lab"), QT_TR_NOOP("&Help"),
)  # fmt: skip


TOOLS_PLACE = 30  # the tools' place on the toolbar, in the order of ui.viewport.tools.TOOLS

ACTIONS: tuple[ActionRow | SubmenuRow, ...] = (
    ActionRow("new", QT_TR_NOOP("&New"), "&File", (StandardKey.New,),
              tip=QT_TR_NOOP("Start a blank scene: one default sheet, no pins"),
              does=lambda w: w.files.new),
    SubmenuRow("preset", QT_TR_NOOP("New &from preset"), "&File"),
    ActionRow("open", QT_TR_NOOP("&Open…"), "&File", (StandardKey.Open,), "open",
              QT_TR_NOOP("Open a scene file"), toolbar=10,
              does=lambda w: w.files.open_dialog),
    SubmenuRow("recent", QT_TR_NOOP("Open &recent"), "&File"),
    ActionRow("open_questions", QT_TR_NOOP("Open &question set…"), "&File",
              tip=QT_TR_NOOP("Open a question set file: a teacher's own questions"),
              does=lambda w: w.open_question_set),
    ActionRow("new_question_set", QT_TR_NOOP("New q&uestion set…"), "&File",
              tip=QT_TR_NOOP("Make your own questions: the question editor, the current scene "
                             "inside"),
              does=lambda w: w.new_question_set),
    ActionRow("open_recording", QT_TR_NOOP("Open recor&ding…"), "&File",
              tip=QT_TR_NOOP("Open a recording and replay it: play, step or seek to any step"),
              does=lambda w: w.recorder.open_dialog),
    ActionRow("open_sweep", QT_TR_NOOP("Open s&weep results…"), "&File",
              tip=QT_TR_NOOP("Plot a sweep's results (clothlab sweep --csv): a readout against a "
                             "setting"),
              does=lambda w: w.open_sweep_results),
    ActionRow("save", QT_TR_NOOP("&Save"), "&File", (StandardKey.Save,), "save",
              QT_TR_NOOP("Save the scene"), toolbar=11, separator=True,
              does=lambda w: w.files.save),
    ActionRow("save_as", QT_TR_NOOP("Save &As…"), "&File", (StandardKey.SaveAs,),
              tip=QT_TR_NOOP("Save the scene to a new file"),
              does=lambda w: w.files.save_as),
    ActionRow("save_state", STATE_TEXT, "&File",
              tip=QT_TR_NOOP("Save the set-up with the links torn so far, as a scene file of its "
                             "own (positions are not stored: it opens at rest)"),
              does=lambda w: w.files.save_state),
    ActionRow("revert", QT_TR_NOOP("Re&vert"), "&File",
              tip=QT_TR_NOOP("Load the scene's file again, dropping the changes since it was "
                             "saved"),
              does=lambda w: w.files.revert),
    ActionRow("close", QT_TR_NOOP("&Close"), "&File", (StandardKey.Close,),
              tip=QT_TR_NOOP("Close the scene and start from a blank one"),
              does=lambda w: w.files.new),
    ActionRow("scene_properties", QT_TR_NOOP("Scene p&roperties…"), "&File",
              tip=QT_TR_NOOP("Name the scene (the window's title shows it) and describe it"),
              does=lambda w: w.edit_scene_properties),
    ActionRow("export_csv", QT_TR_NOOP("&Export readouts CSV…"), "&File",
              tip=QT_TR_NOOP("Save the recorded readouts as CSV"), separator=True,
              does=lambda w: w.files.export_readouts),
    ActionRow("export_positions", QT_TR_NOOP("Export &positions…"), "&File",
              tip=QT_TR_NOOP("Save the particle positions of the frame shown as an (N, 3) .npy "
                             "array"),
              does=lambda w: w.files.export_positions),
    ActionRow("export_mesh", QT_TR_NOOP("Export &mesh…"), "&File",
              tip=QT_TR_NOOP("Save the cloth of the frame shown as an OBJ or PLY mesh"),
              does=lambda w: w.exporter.export_mesh),
    ActionRow("export_meshes", QT_TR_NOOP("Export mesh se&quence…"), "&File",
              tip=QT_TR_NOOP("Save a mesh per frame (30 a second) into a folder: a replay to its "
                             "end, or 5 s from the frame shown"),
              does=lambda w: w.exporter.export_meshes),
    ActionRow("export_video", QT_TR_NOOP("Export vi&deo…"), "&File",
              tip=QT_TR_NOOP("Record the model from the frame shown as an MP4 or animated GIF"),
              does=lambda w: w.exporter.export_video),
    ActionRow("screenshot", QT_TR_NOOP("Save screens&hot…"), "&File", ("Ctrl+Shift+P",),
              "screenshot", QT_TR_NOOP("Save an image of the window"), toolbar=50,
              does=lambda w: w.files.save_screenshot_dialog),
    ActionRow("quit", QT_TR_NOOP("&Quit"), "&File", (StandardKey.Quit,),
              tip=QT_TR_NOOP("Quit Cloth Lab"), separator=True,
              does=lambda w: w.close),
    ActionRow("undo", QT_TR_NOOP("&Undo"), "&Edit", (StandardKey.Undo,), every_binding=True),
    ActionRow("redo", QT_TR_NOOP("&Redo"), "&Edit", ("Ctrl+Shift+Z", "Ctrl+Y")),
    ActionRow("seam", QT_TR_NOOP("Seam &cut"), "&Edit", ("X",), "seam",
              QT_TR_NOOP("Cut the sheet top to bottom down its middle"), toolbar=36,
              separator=True,
              does=request(SeamCut())),
    *(
        ActionRow(f"tool_{tool.name}", tool.label, "&Edit/&Tool", (tool.shortcut,), tool.icon,
                  tool.hint, checkable=True, toolbar=TOOLS_PLACE, group="tool", value=tool.name,
                  does=_choose_tool)
        for tool in TOOLS
    ),
    ActionRow("duplicate_body", QT_TR_NOOP("&Duplicate body"), "&Edit", ("Ctrl+D",),
              "duplicate", QT_TR_NOOP("Copy the selected body beside it, with its pins"),
              separator=True,
              does=lambda w: w.editor.duplicate_body),
    ActionRow("remove_selected", QT_TR_NOOP("Remo&ve selected"), "&Edit", ("Delete",), "remove",
              QT_TR_NOOP("Remove the selected body or obstacle"),
              does=lambda w: w.editor.remove_selected),
    ActionRow("remove_rulers", QT_TR_NOOP("Remove ru&lers"), "&Edit",
              tip=QT_TR_NOOP("Take every ruler off the scene (one undo step)"),
              does=lambda w: w.editor.remove_rulers),
    *(
        ActionRow(f"pin_{which.replace(' ', '_')}", text, "&Edit/Pi&n selected sheet",
                  icon="pin-edge" if which == "top edge" else "", tip=tip,
                  toolbar=39 if which == "top edge" else 0, does=_pin(which))
        for which, text, tip in (
            ("top edge", QT_TR_NOOP("Pin &top edge"),
             QT_TR_NOOP("Pin the top edge of the selected sheet at its rest place (as set up)")),
            ("top corners", QT_TR_NOOP("Pin top &corners"),
             QT_TR_NOOP("Pin the top corners of the selected sheet at its rest place "
                        "(as set up)")),
            ("left edge", QT_TR_NOOP("Pin &left edge"),
             QT_TR_NOOP("Pin the left edge of the selected sheet at its rest place (as set up)")),
            ("top corner clamps", QT_TR_NOOP("Pin top corner cl&amps"),
             QT_TR_NOOP("Hold the selected sheet at its rest place by every particle within a "
                        "tenth of its width of a top corner, as a lab's clamp: unlike a point "
                        "pin, it holds an SI fabric alike at any resolution")),
        )
    ),
    ActionRow("pin_every_nth", QT_TR_NOOP("Pin &every n-th of top edge…"),
              "&Edit/Pi&n selected sheet",
              tip=QT_TR_NOOP("Pin every n-th particle of the selected sheet's top edge (asks n)"),
              does=lambda w: w.editor.pin_every_nth),
    ActionRow("unpin_all", QT_TR_NOOP("&Unpin all"), "&Edit/Pi&n selected sheet",
              tip=QT_TR_NOOP("Remove every pin of the selected body"), separator=True,
              does=lambda w: w.editor.unpin_all),
    # The standard key is Cmd+, on macOS but unbound on most Linux desktops: Ctrl+, there.
    ActionRow("preferences", QT_TR_NOOP("Pr&eferences…"), "&Edit",
              (StandardKey.Preferences, "Ctrl+,"), separator=True,
              tip=QT_TR_NOOP("Autosave interval, frame-rate cap, plot window and theme"),
              does=lambda w: partial(edit_preferences, w.context.parent)),
    ActionRow("add_sheet", QT_TR_NOOP("&Sheet"), "&Add", icon="add-sheet", toolbar=37,
              tip=QT_TR_NOOP("Add a sheet of cloth beside the other bodies, hanging from its top "
                             "corners"),
              does=lambda w: w.editor.add_sheet),
    ActionRow("add_disc", QT_TR_NOOP("&Disc"), "&Add", icon="add-disc",
              tip=QT_TR_NOOP("Add a circular sheet lying flat beside the other bodies, held at "
                             "its middle"),
              does=lambda w: w.editor.add_disc),
    ActionRow("add_block", QT_TR_NOOP("Soft &block"), "&Add", icon="add-block",
              tip=QT_TR_NOOP("Add a soft block beside the other bodies"),
              does=lambda w: w.editor.add_block),
    ActionRow("add_sphere", QT_TR_NOOP("S&phere"), "&Add", icon="add-sphere", separator=True,
              tip=QT_TR_NOOP("Add a sphere obstacle where the camera looks"),
              does=lambda w: w.editor.add_sphere),
    ActionRow("add_box", QT_TR_NOOP("B&ox"), "&Add", icon="add-box", toolbar=38,
              tip=QT_TR_NOOP("Add a box obstacle where the camera looks"),
              does=lambda w: w.editor.add_box),
    SubmenuRow("panels", QT_TR_NOOP("&Panels"), "&View"),
    ActionRow("reset_layout", QT_TR_NOOP("Reset &layout"), "&View",
              tip=QT_TR_NOOP("Put the panels back where they started"),
              does=lambda w: w.reset_layout),
    ActionRow("wireframe", QT_TR_NOOP("&Wireframe"), "&View", ("W",), "wireframe",
              QT_TR_NOOP("Draw the links"), checkable=True, toolbar=40, separator=True,
              remembered_as="wireframe",
              does=lambda w: w.viewport.set_wireframe),
    ActionRow("stretch", QT_TR_NOOP("&Stretch colours"), "&View", ("S",), "stretch",
              QT_TR_NOOP("Colour the links by strain"), checkable=True, toolbar=41,
              remembered_as="stretch_colors",
              does=lambda w: w.viewport.set_stretch_colors),
    ActionRow("tension", QT_TR_NOOP("&Tension map"), "&View", ("T",),
              tip=QT_TR_NOOP("Colour the cloth by its links' tension, from the solver's forces "
                             "(legend in N with SI fabrics, else in mass·units/s²)"),
              checkable=True, remembered_as="tension_colors",
              does=lambda w: w.viewport.set_tension_colors),
    ActionRow("pin_forces", QT_TR_NOOP("Pin &force arrows"), "&View", ("A",),
              tip=QT_TR_NOOP("Draw the force each pin holds the cloth with, as an arrow labelled "
                             "in N with SI fabrics, else in mass·units/s²"),
              checkable=True, remembered_as="pin_forces",
              does=lambda w: w.viewport.set_pin_forces),
    ActionRow("leave_class_mode", QT_TR_NOOP("Lea&ve class mode"), "&View",
              tip=QT_TR_NOOP("Show the panels a question set's class mode hid"),
              does=lambda w: w.request_leave_class_mode),
    ActionRow("reset_camera", QT_TR_NOOP("Reset &camera"), "&View", ("Home",), "reset-camera",
              QT_TR_NOOP("Look at the scene from its own camera"), toolbar=42,
              does=lambda w: w.viewport.reset_camera),
    ActionRow("frame_scene", QT_TR_NOOP("&Frame scene"), "&View", ("F",),
              tip=QT_TR_NOOP("Turn the camera on everything in the scene, from where it looks "
                             "now"),
              does=lambda w: w.viewport.frame_scene),
    ActionRow("full_screen", QT_TR_NOOP("F&ull screen"), "&View", ("F11",), checkable=True,
              separator=True,
              tip=QT_TR_NOOP("Fill the screen with the window; F11 again to leave"),
              does=lambda w: w.set_full_screen),
    ActionRow("play", QT_TR_NOOP("&Play"), "&Simulation", ("Space",), "play",
              QT_TR_NOOP("Run or pause the simulation"), toolbar=20,
              does=_play_or_pause),
    ActionRow("step", QT_TR_NOOP("S&tep"), "&Simulation", (".",), "step",
              QT_TR_NOOP("Advance one step of 1/120 s while paused"), toolbar=21,
              does=request(Step())),
    ActionRow("reset", QT_TR_NOOP("&Reset"), "&Simulation", ("Ctrl+R",), "reset",
              QT_TR_NOOP("Back to t = 0 with the scene as loaded"), toolbar=22,
              does=request(Reset())),
    ActionRow("record", QT_TR_NOOP("Re&cord"), "&Simulation", icon="record", checkable=True,
              toolbar=24, separator=True,
              tip=QT_TR_NOOP("Record from t = 0: every grab, cut and edit at its step, to replay "
                             "exactly"),
              does=lambda w: w.recorder.set_recording),
    ActionRow("save_recording", QT_TR_NOOP("Sa&ve recording…"), "&Simulation",
              tip=QT_TR_NOOP("Save the last recording to a file"),
              does=lambda w: w.recorder.save_dialog),
    ActionRow("ball", QT_TR_NOOP("&Ball"), "&Simulation", ("Shift+B",), "ball-switch",
              QT_TR_NOOP("Switch the ball on or off"), checkable=True, toolbar=35,
              separator=True,
              does=_switch_ball),
    *(
        ActionRow(f"speed_{place}", label, "&Simulation/S&peed", checkable=True, group="speed",
                  value=speed, does=_set_speed)
        for place, (speed, label) in enumerate(SPEEDS)
    ),
    ActionRow("validate_fabrics", QT_TR_NOOP("&Validate fabrics…"), "&Lab",
              tip=QT_TR_NOOP("The textile lab's tests on the fabrics, measured against published "
                             "values"),
              does=lambda w: w.show_validation),
    ActionRow("fit_fabric", QT_TR_NOOP("&Fit my fabric…"), "&Lab",
              tip=QT_TR_NOOP("B from your own fabric's density and cantilever overhang or drape "
                             "coefficient, saved by name"),
              does=lambda w: w.fit_my_fabric),
    ActionRow("class_results", QT_TR_NOOP("&Class results…"), "&Lab",
              tip=QT_TR_NOOP("Count students' exported answer files: per question, how many "
                             "predicted right"),
              does=lambda w: w.show_class_results),
    ActionRow("questions", QT_TR_NOOP("&Questions"), "&Help",
              tip=QT_TR_NOOP("The lab's questions: predict, run and watch, then read why"),
              does=lambda w: w.show_questions),
    ActionRow("shortcuts", QT_TR_NOOP("&Keyboard shortcuts"), "&Help",
              (StandardKey.HelpContents,), tip=QT_TR_NOOP("List the keyboard shortcuts"),
              does=lambda w: w.show_shortcuts),
    ActionRow("readme", QT_TR_NOOP("&User guide (README)"), "&Help", separator=True,
              tip=QT_TR_NOOP("Show README.md: using the app, the command line, the scenes"),
              does=lambda w: partial(w.show_document, "readme")),
    ActionRow("research", QT_TR_NOOP("&Model notes (RESEARCH)"), "&Help",
              tip=QT_TR_NOOP("Show RESEARCH.md: the model's equations, measured figures and "
                             "limits"),
              does=lambda w: partial(w.show_document, "research")),
    ActionRow("about", QT_TR_NOOP("&About Cloth Lab"), "&Help", separator=True,
              does=lambda w: w.show_about),
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
            tip = tr(row.tip) if row.tip else base_text(row)
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
    for key in row.keys:
        sequence = QKeySequence(key)
        if not sequence.isEmpty() and sequence not in sequences:
            sequences.append(sequence)
    return sequences


def _extra_bindings(row: ActionRow) -> list[QKeySequence]:
    """The platform's other bindings of a row's standard keys, when the row asks for them."""
    if not row.every_binding:
        return []
    own = _shortcuts(row)
    standard = [key for key in row.keys if isinstance(key, QKeySequence.StandardKey)]
    every = [s for key in standard for s in QKeySequence.keyBindings(key)]
    return [s for s in every if s not in own]


def base_text(row: ActionRow) -> str:
    """The row's text as a list shows it, in the app's language: no mnemonic, no ellipsis
    ("Undo", "Open")."""
    return tr(row.text).replace("&", "").rstrip("…")


def _new_action(window: QMainWindow, row: ActionRow) -> QAction:
    action = QAction(tr(row.text), window)
    if row.icon:
        action.setIcon(icon(row.icon))
    action.setCheckable(row.checkable)
    action.setStatusTip(tr(row.tip) if row.tip else "")
    return action


def grouped(actions: Mapping[str, QAction], group: str) -> dict[Any, QAction]:
    """The actions of one group by the value their rows stand for."""
    return {row.value: actions[row.name] for row in action_rows() if row.group == group}


def remembered(actions: Mapping[str, QAction]) -> dict[str, QAction]:
    """The view options kept between runs, by the name they are stored under."""
    return {row.remembered_as: actions[row.name] for row in action_rows() if row.remembered_as}


def connect_actions(actions: Mapping[str, QAction], target: ActionTarget) -> None:
    """Connect each row to what it does, found on `target`. A grouped row passes its value
    when chosen, another checkable row its new state; the others call it bare."""
    for row in action_rows():
        if row.does is None:
            continue  # made elsewhere, with its own connections (undo, redo)
        action, slot = actions[row.name], row.does(target)
        if row.group:
            action.triggered.connect(lambda _checked=False, call=slot, v=row.value: call(v))
        elif row.checkable:
            action.toggled.connect(slot)
        else:
            action.triggered.connect(lambda _checked=False, call=slot: call())


def show_running(actions: Mapping[str, QAction], running: bool) -> None:
    """Play turns into Pause while the simulation runs; Step works only while it is paused."""
    play = actions["play"]
    if running:
        play.setText(tr("&Pause"))
        play.setToolTip(tr("Pause (Space)"))
    else:
        play.setText(tr("&Play"))
        play.setToolTip(tr("Play (Space)"))
    play.setIcon(icon("pause" if running else "play"))
    actions["step"].setEnabled(not running)


def build_menus(bar: QMenuBar, actions: Mapping[str, QAction]) -> dict[str, QMenu]:
    """Fill the menu bar from the table; returns the submenus the window fills, by name
    ("recent"), and every menu by its path in the table ("&File", "&Edit/&Tool"): the path
    stays English while the titles are translated."""
    menus: dict[str, QMenu] = {}

    def menu_at(path: str) -> QMenu:
        if path not in menus:
            parent, _, title = path.rpartition("/")
            title = tr(title)
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
    return {**menus, **to_fill}


def build_toolbar(
    window: QMainWindow, actions: Mapping[str, QAction], widgets: Mapping[int, QWidget]
) -> QToolBar:
    """The main toolbar: rows with a toolbar place, and `widgets` at theirs. Rows of one place
    (the tools) stand in table order, so a new tool needs no place of its own."""
    toolbar = QToolBar(tr("Main toolbar"), window)
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


def make_speed_box(chosen: Callable[[float], object]) -> QComboBox:
    """The toolbar's speed chooser, with the same speeds as the Speed menu; the window shows
    the current one with setCurrentIndex(speed_index(speed))."""
    box = QComboBox()
    box.setObjectName("speed_box")
    box.setToolTip(tr("Model seconds per wall-clock second"))
    for value, label in SPEEDS:
        box.addItem(tr(label), value)
    box.activated.connect(lambda index: chosen(box.itemData(index)))
    return box


def speed_index(speed: float) -> int:
    return [value for value, _ in SPEEDS].index(speed)


def fill_preset_menu(menu: QMenu, chosen: Callable[[str], None]) -> None:
    for name in preset_names():
        action = menu.addAction(_preset_title(name))
        action.setStatusTip(tr("Start a new scene from the {name} preset").format(name=name))
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
        menu.addAction(tr("No recent files")).setEnabled(False)
    menu.addSeparator()
    menu.addAction(tr("Clear menu"), clear)


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
