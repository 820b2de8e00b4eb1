"""The main window: viewport in the middle, Scene / Parameters / Readouts / History docks, menus,
toolbar and status bar, all wired to a controller (ui.front_door.FrontDoor, which the app's
Controller is); the scene's composition (the Add menu, the selection, obstacle drags) is wired
by ui.window.editor.

The window only asks the controller for changes and shows what comes back (documents,
snapshots, timing); it never touches the simulation. Every view's requests are command records
on its `command_requested` signal, and all of them take one way, WindowContext.submit
(ui.context); the window's parts get that context, never the window. Its actions, menus and
toolbar come from the table in ui.window.actions, what it remembers between runs from
ui.window.preferences, its file commands and dialogs from ui.window.dialogs.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from PySide6.QtCore import QEvent, QPoint, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QImage, QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QMainWindow,
    QStackedWidget,
    QWidget,
)

from clothlab.sim.core.snapshot import Snapshot, merged
from clothlab.sim.document.commands import SetProbe, SetSceneInfo, SetSpeed
from clothlab.sim.document.files import write_atomically
from clothlab.sim.document.scene import Scene
from clothlab.sim.lab.questions import HIDEABLE_PANELS, ClassMode
from clothlab.sim.text import tr
from clothlab.ui import theme
from clothlab.ui.context import WindowContext
from clothlab.ui.docks.compare_dock import ComparePanel
from clothlab.ui.docks.history_dock import HistoryView
from clothlab.ui.docks.panels import Panel
from clothlab.ui.docks.parameters_dock import ParametersPanel
from clothlab.ui.docks.probes_dock import ProbesPanel
from clothlab.ui.docks.questions_dock import QuestionsPanel
from clothlab.ui.docks.readouts_dock import ReadoutsPanel
from clothlab.ui.docks.scene_dock import ScenePanel
from clothlab.ui.docks.scene_model import SceneModel
from clothlab.ui.docks.stopwatch_dock import StopwatchPanel
from clothlab.ui.docks.teacher import teacher_allows
from clothlab.ui.docks.validation_dock import ValidationPanel
from clothlab.ui.selection import SelectionModel
from clothlab.ui.user_fabrics import UserFabrics
from clothlab.ui.viewport import meshes
from clothlab.ui.viewport.compare_view import beside
from clothlab.ui.viewport.describer import ViewDescriber
from clothlab.ui.viewport.tools import DEFAULT_TOOL, tool_row
from clothlab.ui.viewport.viewport import Viewport
from clothlab.ui.window import actions as action_table
from clothlab.ui.window import (
    dialogs,
    dock_table,
    keyboard,
    preferences,
    preferences_dialog,
    whole_texts,
)
from clothlab.ui.window.dock_table import DockParts
from clothlab.ui.window.editor import SceneEditor
from clothlab.ui.window.export import Exporter, png_bytes
from clothlab.ui.window.layout import WindowLayout
from clothlab.ui.window.preferences import settings as settings  # tests read the store through here
from clothlab.ui.window.recorder import Recorder
from clothlab.ui.window.status_bar import StatusBar

if TYPE_CHECKING:
    from clothlab.ui.front_door import FrontDoor
    from clothlab.ui.window.fit_dialog import FitDialog  # imported when first opened

W = TypeVar("W", bound=QWidget)
DEFAULT_SIZE = (1280, 800)
FRAME_HZ = 60  # most frames drawn per second
# Set explicitly, so the side-by-side docks' minimum widths do not hold the window wide: it may
# be made narrower, and ui.window.layout then puts the docks in one column of tabs.
MINIMUM_SIZE = (640, 480)


def fitted_size(wanted: tuple[int, int], available: QSize) -> QSize:
    """`wanted` (logical pixels), made no larger than the screen's available area: at
    QT_SCALE_FACTOR=2 a 1600 × 1000 screen has 800 × 500 of them, and 1280 × 800 would open
    the window at twice the screen's size."""
    return QSize(min(wanted[0], available.width()), min(wanted[1], available.height()))


class MainWindow(QMainWindow):
    def __init__(
        self, controller: FrontDoor, remember_layout: bool = True, parent: QWidget | None = None
    ) -> None:
        """`remember_layout` False: start from the default layout and do not store it (the
        screenshot mode, so pictures do not depend on the user's settings)."""
        super().__init__(parent)
        self.controller = controller
        self.remember_layout = remember_layout
        self.setObjectName("main_window")
        self.setMinimumSize(fitted_size(MINIMUM_SIZE, self.screen().availableGeometry().size()))
        self.setDockNestingEnabled(True)
        self._state_before_full_screen = Qt.WindowState.WindowNoState  # see set_full_screen
        self._front_when_shown: QDockWidget | None = None  # see _bring_forward
        self._build_central()
        self._build_status_bar()
        self._build_docks()
        self.files = dialogs.SceneFiles(
            self, controller, self.viewport.camera_spec, self.readouts_panel, self.save_screenshot
        )
        self.selection = SelectionModel(self)  # a body or an obstacle, or nothing (ui.selection)
        self._build_actions()
        # What the window's parts get instead of the window, and every request's one way
        self.context = WindowContext(
            controller, self.selection, self.status, self.viewport, self, self._actions,
            self.files.confirm_discard, self._show_document,
        )  # fmt: skip
        self._build_menus_and_toolbar()
        self._connect_controller()
        # Adding, removing and changing bodies and obstacles: ui.window.editor.
        self.editor = SceneEditor(self.context)
        self.exporter = Exporter(self.context)  # File ▸ Export mesh…, video…: ui.window.export
        self.recorder = Recorder(self.context)  # Record, replay bar, seek: ui.window.recorder
        self.addToolBar(Qt.ToolBarArea.BottomToolBarArea, self.recorder.bar)
        self._connect_actions()
        self._build_keyboard()
        self.layout_keeper = WindowLayout(self, self.docks, self.parameters_dock, self.status)
        self.resize(fitted_size(DEFAULT_SIZE, self.screen().availableGeometry().size()))
        if remember_layout:
            self.restore_layout()
            for name, action in action_table.remembered(self._actions).items():
                action.setChecked(preferences.stored_view_option(name))
        # Status numbers follow snapshots; this timer only covers a paused solver.
        self._status_timer = self._timer(1000, self._update_status)
        self._pending_snapshot: Snapshot | None = None
        self._frame_clock = self._timer(round(1000 / FRAME_HZ), self._present)
        theme.install_focus_ring()  # visible on the dark theme as on the light one
        whole_texts.install()  # every dialog as wide as its title
        # Edit ▸ Preferences, as stored and whenever they change
        self.live_preferences = preferences_dialog.LivePreferences(
            self.set_frame_rate_cap, self.readouts_panel.window_box.setValue, self
        )
        if remember_layout:  # the screenshot mode keeps the defaults, as it keeps the layout
            self.live_preferences.apply()
        self._show_scene(controller.scene)
        self.viewport.setFocus()  # so Space, '.' and the view's keys work from the start

    # --- construction -----------------------------------------------------------------------------

    def _timer(self, interval_ms: int, slot: Callable[[], None]) -> QTimer:
        timer = QTimer(self)
        timer.setInterval(interval_ms)
        timer.timeout.connect(slot)
        timer.start()
        return timer

    def _build_central(self) -> None:
        self.viewport = Viewport()
        self.viewport.setObjectName("viewport")
        self.viewport.setToolTip("")
        self.gl_message = dialogs.gl_failure_label()
        self.central = QStackedWidget()
        self.central.addWidget(self.viewport)
        self.central.addWidget(self.gl_message)
        self.setCentralWidget(self.central)
        self.viewport.gl_failed.connect(self.show_gl_failure)

    def _build_status_bar(self) -> None:
        self.status = StatusBar(tr(tool_row(DEFAULT_TOOL).hint))
        self.setStatusBar(self.status)
        self.viewport.frame_drawn.connect(self.status.count_frame)

    def _build_docks(self) -> None:
        """The docks of the table in ui.window.dock_table, laid out as the default layout."""
        self.scene_model = SceneModel(self)
        self.user_fabrics = UserFabrics()  # Fit my fabric's, offered by the fabric choosers
        parts = DockParts(
            self.controller, self.scene_model, self.user_fabrics,
            lambda: beside(self.central, self.viewport),
        )  # fmt: skip
        self.docks_by_name = dock_table.build_docks(self, parts)
        # Reset layout shows these; the others are hidden in the default layout
        self.docks = tuple(self.docks_by_name[row.name] for row in dock_table.DOCKS if row.shown)
        self._name_docks()
        # Everything that follows the document and the frames; the status bar comes last, as
        # its numbers describe the frame the others show. The 3D view in words for screen
        # readers (ui.viewport.describer) follows what the panels do.
        self.describer = ViewDescriber(self.viewport, lambda: self.controller.running)
        widgets = [dock.widget() for dock in self.docks_by_name.values()]
        panels = [widget for widget in widgets if isinstance(widget, Panel)]
        self.panels: list[Panel] = [*panels, self.describer, self.status]
        self.fit_dialog: FitDialog | None = None  # Lab ▸ Fit my fabric…, made when first asked
        if self.user_fabrics.warning:  # read by the panels just made
            warning = self.user_fabrics.warning
            self.status.showMessage(warning[:1].upper() + warning[1:], 15_000)

    def _name_docks(self) -> None:
        """The docks and widgets the window itself wires, by name: <name>_dock, <name>_panel."""
        self.scene_dock, self.scene_panel = self._dock_of("scene", ScenePanel)
        self.parameters_dock, self.parameters_panel = self._dock_of("parameters", ParametersPanel)
        self.readouts_dock, self.readouts_panel = self._dock_of("readouts", ReadoutsPanel)
        self.history_dock, self.history_view = self._dock_of("history", HistoryView)
        self.questions_dock, self.questions_panel = self._dock_of("questions", QuestionsPanel)
        self.compare_dock, self.compare_panel = self._dock_of("compare", ComparePanel)
        self.probes_dock, self.probes_panel = self._dock_of("probes", ProbesPanel)
        self.stopwatch_dock, self.stopwatch_panel = self._dock_of("stopwatch", StopwatchPanel)
        self.validation_dock, self.validation_panel = self._dock_of("validation", ValidationPanel)

    def _dock_of(self, name: str, kind: type[W]) -> tuple[QDockWidget, W]:
        dock = self.docks_by_name[name]
        widget = dock.widget()
        assert isinstance(widget, kind), f"the {name} dock holds a {type(widget).__name__}"
        return dock, widget

    def _build_actions(self) -> None:
        """The actions of the table in ui.window.actions: row `x` is `action_x`, the tool and
        speed rows are `tool_actions` and `speed_actions`."""
        stack = self.controller.undo_stack
        made = {"undo": stack.createUndoAction(self, tr("&Undo"))}
        made["redo"] = stack.createRedoAction(self, tr("&Redo"))
        self._actions = action_table.make_actions(self, made)
        for row in action_table.action_rows():
            if not row.group:
                setattr(self, f"action_{row.name}", self._actions[row.name])
        self.tool_actions: dict[str, QAction] = action_table.grouped(self._actions, "tool")
        self.speed_actions: dict[float, QAction] = action_table.grouped(self._actions, "speed")

    def _connect_actions(self) -> None:
        """Every row of the action table to what it does (its `does`), once the parts it
        reaches (files, editor, recorder, exporter) are made."""
        action_table.connect_actions(self._actions, self)
        # checked, and the view takes the tool's cursor
        self.tool_actions[DEFAULT_TOOL].trigger()
        self.viewport.colors_changed.connect(self._show_colors)

    def _show_colors(self, colors: str) -> None:
        """Check the action of the map the view shows: one at a time (Viewport._show_colors)."""
        for action, shown in (
            (self._actions["stretch"], meshes.STRETCH),
            (self._actions["tension"], meshes.TENSION),
        ):
            blocked = action.blockSignals(True)
            action.setChecked(colors == shown)
            action.blockSignals(blocked)

    def _build_menus_and_toolbar(self) -> None:
        c, menus = self.controller, action_table.build_menus(self.menuBar(), self._actions)
        self.preset_menu, self.recent_menu = menus["preset"], menus["recent"]
        self.panels_menu = menus["panels"]
        action_table.fill_preset_menu(self.preset_menu, self.files.new_from_preset)
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        self.file_menu = menus["&File"]  # by its path in the table: its title is translated
        self.file_menu.aboutToShow.connect(self._show_state_time)
        docks = self.docks_by_name.values()
        self.panels_menu.addActions([dock.toggleViewAction() for dock in docks])
        self.speed_box = action_table.make_speed_box(
            lambda speed: self.context.submit(SetSpeed(speed))
        )
        widgets = {action_table.SPEED_BOX_PLACE: self.speed_box}
        self.toolbar = action_table.build_toolbar(self, self._actions, widgets)
        self._show_speed(c.speed)

    def _build_keyboard(self) -> None:
        """Tab through the toolbar, the view and the docks; F6 between them; Space from a
        number field pauses (ui.window.keyboard)."""
        keyboard.make_toolbars_reachable(self)
        keyboard.drop_empty_stops(self)
        self.focus_areas = keyboard.FocusAreas(self, self.keyboard_areas)
        self.space_key = keyboard.SpaceKey(self)
        self.viewport.key_hint_changed.connect(self._show_key_hint)
        self._actions["reset"].triggered.connect(
            lambda: self.describer.happened(tr("Reset: back to t = 0, the scene as set up"))
        )
        keyboard.name_for_screen_readers(self)

    def keyboard_areas(self) -> list[QWidget]:
        """F6's areas: the toolbar, the view, then the docks left to right, top to bottom,
        and the replay bar; those hidden are skipped when F6 is pressed."""

        def place(dock: QDockWidget) -> tuple[int, int]:
            corner = dock.mapTo(self, QPoint(0, 0))
            return corner.x(), corner.y()

        docks = sorted(self.docks_by_name.values(), key=place)
        shown = [self.toolbar, self.central.currentWidget(), *docks, self.recorder.bar]
        return [widget for widget in shown if widget is not None]

    def focusNextPrevChild(self, forward: bool) -> bool:  # noqa: N802 (Qt override)
        """Tab and Shift+Tab skip the docks behind another's tab (ui.window.keyboard)."""
        return keyboard.focus_next_shown(forward, super().focusNextPrevChild)

    def _connect_controller(self) -> None:
        c, tools = self.controller, self.viewport.interaction
        # Bound methods, not lambdas: Qt drops them when the window goes, the controller stays.
        for signal, slot in (
            (c.scene_loaded, self._show_scene), (c.scene_edited, self._show_edit),
            (c.path_changed, self._update_title), (c.undo_stack.cleanChanged, self._show_clean),
            (c.snapshot_changed, self._show_snapshot), (c.running_changed, self._show_running),
            (c.timing_changed, self._show_timing), (c.speed_changed, self._show_speed),
            (c.load_failed, self._show_load_failure), (c.instability_found, self._show_instability),
            (c.stuck_found, self.status.show_stuck),
            (c.advice_found, self.status.show_advice),
            (self.scene_model.edit_refused, self.context.say),
            (self.questions_panel.evidence_changed, self._point_at_evidence),
            (self.questions_panel.class_mode_changed, self.enter_class_mode),
            (self.validation_panel.scene_requested, self.open_test_scene),
            (self.validation_panel.fit_requested, self.fit_my_fabric),
            (self.parameters_panel.fit_requested, self.fit_my_fabric),
            (self.selection.changed, self.scene_panel.show_selection),
            (self.selection.changed, self.parameters_panel.show_selection),
            (self.selection.changed, self.viewport.set_selection),
            (tools.tool_changed, self._show_tool),
        ):  # fmt: skip
            signal.connect(slot)
        # Every view's requests take one way: command records to WindowContext.submit.
        for view in (tools, self.scene_model, self.status):
            view.command_requested.connect(self.context.submit)
        for dock in self.docks_by_name.values():
            dock_table.connect_widget(dock.widget(), self.context.submit, self.context.say)
        self.class_hidden: list[QDockWidget] = []  # by a question set's class mode
        self.class_mode = ClassMode()  # the one in force
        self._actions["leave_class_mode"].setEnabled(False)

    # --- showing the controller's state -----------------------------------------------------------

    def _show_scene(self, scene: Scene) -> None:
        self.viewport.interaction.cancel()
        self.viewport.keys.leave()  # its particle may not be in the new scene
        self._actions["ball"].setChecked(scene.ball.enabled)
        for panel in self.panels:
            panel.show_scene(scene)
        self.viewport.set_probes(scene.probes)
        if scene.probes:  # the scene was set up to be probed: its readings to the front
            self._bring_forward(self.probes_dock)
        self.viewport.set_camera(scene.camera)
        self._update_title()
        self._show_running(self.controller.running)
        QTimer.singleShot(0, self._focus_after_load)  # once the panels have settled

    def _focus_after_load(self) -> None:
        """A new scene's keys are the 3D view's (Space, '.', the tools'): a field of the
        panels the scene rebuilt keeps no focus ("Solver passes" took the q the person typed
        after a load), unless the person is in a dialog or answering a question (the
        Questions panel loads the scene of each)."""
        focused = QApplication.focusWidget()
        if focused is None or focused.window() is not self or focused is self.viewport:
            return
        if self.questions_dock.isAncestorOf(focused):
            return
        self.viewport.setFocus(Qt.FocusReason.OtherFocusReason)

    def _show_edit(self, scene: Scene, command: object) -> None:
        for panel in self.panels:
            panel.show_edit(scene, command)
        self.viewport.set_probes(scene.probes)
        if isinstance(command, SetProbe) and command.add:
            self._bring_forward(self.probes_dock)
        self._actions["ball"].setChecked(self.controller.settings.ball)
        self._update_title()  # a renamed scene, or its undo

    def _bring_forward(self, dock: QDockWidget) -> None:
        """Shown, its tab in front: now, or once the window shows (a dock shown in a window
        not shown yet, as at start-up, joins a tab group its raise_ never reaches)."""
        if not self.isVisible():
            self._front_when_shown = dock
            return
        dock.show()
        dock.raise_()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt override)
        super().showEvent(event)
        dock, self._front_when_shown = self._front_when_shown, None
        if dock is not None:
            QTimer.singleShot(0, lambda: self._bring_forward(dock))

    def _show_document(self) -> None:
        """After a refused request: the panels drop what was typed and show the document."""
        self._show_edit(self.controller.scene, None)

    def _show_snapshot(self, snapshot: Snapshot) -> None:
        # Drawn by the frame clock, newest first; the readout rows of a snapshot it did not
        # draw ride on with the newer one (dropped, they left gaps in the plots and the CSV).
        pending = self._pending_snapshot
        self._pending_snapshot = snapshot if pending is None else merged(pending, snapshot)

    def _present(self) -> None:
        """Show the newest snapshot, at most FRAME_HZ times a second. Drawing on every
        snapshot would let repaints (slow with software OpenGL) crowd out timers and input."""
        snapshot, self._pending_snapshot = self._pending_snapshot, None
        if snapshot is None:
            return
        # Everything a snapshot changes is updated here, so one window flush shows it all;
        # the panels go first, as the plots' repaints come from calls queued behind them.
        for panel in self.panels:
            panel.show_snapshot(snapshot)
        self.recorder.show_snapshot(snapshot)
        self.viewport.show_snapshot(snapshot)

    def _update_status(self) -> None:
        self.status.show_numbers(self.controller.latest)
        self._show_state_time()

    def _show_state_time(self) -> None:
        """File ▸ Save State names the time of the state it saves: the newest frame's."""
        snapshot = self.controller.current_snapshot()
        self._actions["save_state"].setEnabled(snapshot is not None)
        text = action_table.state_text(snapshot.t if snapshot is not None else None)
        if self._actions["save_state"].text() != text:
            self._actions["save_state"].setText(text)

    def _show_running(self, running: bool) -> None:
        action_table.show_running(self._actions, running)
        self.status.show_running(running)
        self.describer.refresh()  # paused: no frame comes to say so

    def _show_timing(self, factor: float, behind: bool) -> None:
        self.status.show_timing(factor, behind, self.controller.running)

    def _show_speed(self, speed: float) -> None:
        if speed in self.speed_actions:
            self.speed_actions[speed].setChecked(True)
            self.speed_box.setCurrentIndex(action_table.speed_index(speed))

    def _show_tool(self, name: str) -> None:
        self.tool_actions[name].setChecked(True)
        self.status.show_tool(tr(tool_row(name).hint))

    def _show_key_hint(self, hint: str) -> None:
        """While the view has the focus, the status bar says what its keys do; else the tool's
        hint."""
        self.status.show_tool(hint or tr(tool_row(self.viewport.interaction.tool).hint))

    def _show_instability(self, message: str) -> None:
        message = tr(message)
        self.status.showMessage(message, 15000)
        dialogs.show_error(self, tr("The model became unstable"), message)

    def _show_load_failure(self, message: str) -> None:
        dialogs.show_error(self, tr("Cannot build the scene"), tr(message))

    def _update_title(self, *_: object) -> None:
        self.setWindowTitle(dialogs.window_title(self.controller.scene.name, self.controller.path))
        self._show_clean(self.controller.undo_stack.isClean())
        self._actions["revert"].setEnabled(self.controller.path is not None)

    def _show_clean(self, clean: bool) -> None:
        # from the signal's argument: the stack also says so as it is destroyed
        self.setWindowModified(not clean)

    def show_gl_failure(self, reason: str) -> None:
        """No OpenGL: say so where the 3D view would be; panels and plots keep working."""
        self.gl_message.setText(dialogs.gl_failure_text(reason))
        self.central.setCurrentWidget(self.gl_message)
        self.status.showMessage(tr("OpenGL failed: {reason}").format(reason=reason))

    def set_frame_rate_cap(self, fps: int) -> None:
        """Draw at most `fps` frames a second (Edit ▸ Preferences)."""
        self._frame_clock.setInterval(round(1000 / fps))

    @property
    def fps(self) -> float:
        """Frames drawn per second, as the status bar last measured it."""
        return self.status.fps

    # --- questions: the panel asks, the window loads, runs and points -----------------------------

    def show_questions(self) -> None:
        self.questions_dock.show()
        self.questions_dock.raise_()

    def open_question_set(self) -> None:
        self.show_questions()
        self.questions_panel.open_set_dialog()

    def open_question_set_file(self, path: Path) -> bool:
        """File ▸ Open on a question set: the Questions panel opens it (the scene stays)."""
        self.show_questions()
        return self.questions_panel.open_set(path)

    def new_question_set(self) -> None:
        """File ▸ New question set…: the editor, empty, on the current scene."""
        self.show_questions()
        self.questions_panel.edit_set(new=True)

    def show_class_results(self) -> None:
        self.show_questions()
        self.questions_panel.show_class_results()

    def _class_docks(self) -> dict[str, QDockWidget]:
        """The docks a question set's class mode may hide, by the name the set gives them."""
        return {name: self.docks_by_name[name] for name in HIDEABLE_PANELS}

    def enter_class_mode(self, mode: ClassMode) -> None:
        """A set's class mode: hide the panels and settings it names (a set without one shows
        what class mode hid); View ▸ Leave class mode shows them again. With a teacher's
        passphrase the hidden panels cannot be shown from View ▸ Panels either, and leaving
        asks for it."""
        self.leave_class_mode()
        self.class_mode = mode
        docks = self._class_docks()
        # docks the user has open, in a tab or not (a tab behind another is not "visible")
        named = [docks[name] for name in mode.hide]
        self.class_hidden = [dock for dock in named if dock.toggleViewAction().isChecked()]
        for dock in self.class_hidden:
            dock.hide()
        if mode.teacher is not None:
            for dock in named:
                dock.toggleViewAction().setEnabled(False)
            self._actions["reset_layout"].setEnabled(False)  # it would show them again
        self.parameters_panel.hide_settings(mode.hide_settings)
        self.scene_panel.hide_settings(mode.hide_settings)
        self._actions["leave_class_mode"].setEnabled(bool(mode))
        hidden = [docks[name].windowTitle() for name in mode.hide]
        if mode.hide_settings:
            count = len(mode.hide_settings)
            settings = tr("{count} setting") if count == 1 else tr("{count} settings")
            hidden.append(settings.format(count=count))
        if hidden and mode.teacher is not None:  # the way out is the teacher's
            self.context.say(tr("Class mode: {hidden} hidden").format(hidden=", ".join(hidden)))
        elif hidden:
            said = tr("Class mode: {hidden} hidden (View ▸ Leave class mode)")
            self.context.say(said.format(hidden=", ".join(hidden)))

    def request_leave_class_mode(self) -> bool:
        """View ▸ Leave class mode: the teacher's passphrase first, if the set has one."""
        if not teacher_allows(self, self.class_mode):
            return False
        self.questions_panel.class_mode_left()
        self.leave_class_mode()
        return True

    def leave_class_mode(self) -> None:
        for dock in self.class_hidden:
            dock.show()
        for dock in self._class_docks().values():
            dock.toggleViewAction().setEnabled(True)
        self._actions["reset_layout"].setEnabled(True)
        self.class_hidden = []
        self.class_mode = ClassMode()
        self.parameters_panel.hide_settings(())
        self.scene_panel.hide_settings(())
        self._actions["leave_class_mode"].setEnabled(False)

    def _point_at_evidence(self, key: str | None) -> None:
        self.readouts_panel.highlight(key)
        if key is not None:
            self.readouts_dock.show()
            self.readouts_dock.raise_()

    # --- real fabrics: validation and Fit my fabric -----------------------------------------------

    def show_validation(self) -> None:
        """Lab ▸ Validate fabrics…: the Validation panel, with the user's newest fabrics."""
        if not self.validation_panel.running:
            self.validation_panel.refresh_fabrics()
        self.validation_dock.show()
        self.validation_dock.raise_()

    def open_test_scene(self, scene: Scene) -> None:
        """The Validation panel's "Open in view": a new document, after asking about changes."""
        if self.files.confirm_discard():
            self.controller.load(scene, None)

    def open_sweep_results(self) -> None:
        """File ▸ Open sweep results…: the plot and its libraries are imported when asked."""
        from clothlab.ui.docks.sweep_plot import open_sweep_results

        open_sweep_results(self)

    def fit_my_fabric(self) -> FitDialog:
        """Lab ▸ Fit my fabric… (and the panels' entries): a dialog of its own, not modal, so
        the window stays usable while the fit runs; a saved fabric joins every chooser."""
        if self.fit_dialog is not None and (self.fit_dialog.isVisible() or self.fit_dialog.running):
            self.fit_dialog.show()  # one at a time: its fit may still be running
            self.fit_dialog.raise_()
            return self.fit_dialog
        if self.fit_dialog is not None:
            self.fit_dialog.deleteLater()
        from clothlab.ui.window.fit_dialog import FitDialog  # its fit's libraries: when asked

        dialog = FitDialog(self.user_fabrics, self)
        dialog.saved.connect(self._fabric_saved)
        dialog.show()
        self.fit_dialog = dialog
        return dialog

    def _fabric_saved(self, name: str) -> None:
        self.parameters_panel.body_group.reload_fabrics()
        if not self.validation_panel.running:
            self.validation_panel.refresh_fabrics()
        self.context.say(
            tr("Saved your fabric {name}: the fabric choosers offer it").format(name=name)
        )

    # --- pictures ---------------------------------------------------------------------------------

    def save_screenshot(self, path: Path) -> None:
        """The window as a PNG file, written as every file of the lab is (QImage.save writes
        into whatever has the name: a FIFO blocked it, a link to a device was written into).
        Raises OSError with the reason."""
        write_atomically(path, png_bytes(self.window_image()))

    def window_image(self) -> QImage:
        """The whole window as an image. Qt 6's QWidget.grab() renders QOpenGLWidget content
        from its framebuffer object, so the 3D view is included as the screen shows it: the
        viewport keeps the framebuffer opaque and paints its cut stroke into it (a test
        compares the two under Xvfb)."""
        self._update_status()  # the numbers in the picture belong to the frame in it
        return self.grab().toImage()

    # --- layout (ui.window.layout) and recent files (ui.window.preferences) ----------------------

    def restore_layout(self) -> bool:
        """Restore the stored geometry and dock layout; anything unreadable → default layout."""
        return self.layout_keeper.restore()

    def save_layout(self) -> None:
        options = action_table.remembered(self._actions).items()
        # class mode belongs to the question set, not to the user's layout: store it without
        class_hidden = list(self.class_hidden)
        for dock in class_hidden:
            dock.show()
        self.layout_keeper.save({name: action.isChecked() for name, action in options})
        for dock in class_hidden:
            dock.hide()

    def reset_layout(self) -> None:
        self.layout_keeper.reset()

    def set_full_screen(self, on: bool) -> None:
        """View ▸ Full screen (F11): the window fills the screen, or goes back as it was."""
        if on == self.isFullScreen():
            return
        if on:
            self._state_before_full_screen = self.windowState()
            self.showFullScreen()
        else:
            self.setWindowState(self._state_before_full_screen & ~Qt.WindowState.WindowFullScreen)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        super().changeEvent(event)
        if event.type() == QEvent.Type.WindowStateChange:  # the desktop may leave full screen too
            self._actions["full_screen"].setChecked(self.isFullScreen())

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        self.layout_keeper.schedule()

    def recent_files(self) -> list[str]:
        return preferences.recent_files()

    def _fill_recent_menu(self) -> None:
        files, clear = self.recent_files(), preferences.clear_recent_files
        action_table.fill_recent_menu(self.recent_menu, files, self.files.open_recent, clear)

    # --- dialogs and shutdown ---------------------------------------------------------------------

    def edit_scene_properties(self) -> None:
        """File ▸ Scene properties: a new name or description is one undoable edit."""
        scene = self.controller.scene
        entered = dialogs.ask_scene_properties(self, scene)
        if entered is None or entered == (scene.name, scene.description):
            return
        name, description = entered
        self.context.submit(SetSceneInfo(name, description, scene.name, scene.description))

    def show_shortcuts(self) -> None:
        dialogs.ShortcutsDialog(self.shortcut_rows(), self).exec()

    def shortcut_rows(self) -> list[tuple[str, str]]:
        return action_table.shortcut_rows(self._actions, self.actions())

    def show_about(self) -> None:
        dialogs.show_about(self)

    def show_document(self, name: str) -> bool:
        """Open README.md ("readme") or RESEARCH.md ("research") from Help."""
        return dialogs.open_document(self, name)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt override)
        if not self.files.confirm_discard():
            event.ignore()
            return
        if self.remember_layout:
            self.save_layout()
        self._status_timer.stop()
        self.validation_panel.shutdown()
        if self.fit_dialog is not None:
            self.fit_dialog.close()  # stops its fit: a thread must end before its dialog goes
        self.controller.shutdown()
        event.accept()
