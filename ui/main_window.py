"""The main window: viewport in the middle, Scene / Parameters / Readouts docks, menus,
toolbar and status bar, all wired to a controller (app.controller.Controller).

The window only asks the controller for changes and shows what comes back (documents,
snapshots, timing); it never touches the simulation.
"""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QByteArray, QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QImage, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDockWidget,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QStackedWidget,
    QTableWidget,
    QTableWidgetItem,
    QToolBar,
    QUndoView,
    QVBoxLayout,
    QWidget,
)

from clothlab.sim.presets import load_preset, preset_names
from clothlab.sim.scene import Scene, SceneError
from clothlab.sim.snapshot import Snapshot
from clothlab.ui.docks.parameters_dock import ParametersPanel
from clothlab.ui.docks.readouts_dock import ReadoutsPanel
from clothlab.ui.docks.scene_dock import ScenePanel
from clothlab.ui.icons import icon
from clothlab.ui.interaction import TOOL_HINTS, Tool
from clothlab.ui.scene_model import SceneModel
from clothlab.ui.viewport import Viewport

if TYPE_CHECKING:  # the app layer builds the window; ui never imports app at run time
    from clothlab.app.controller import Controller

ORGANIZATION = "ClothLab"
APPLICATION = "Cloth Lab"
STATE_VERSION = 1  # bump when docks are added or renamed, so old layouts are ignored
MAX_RECENT = 10
DEFAULT_SIZE = (1280, 800)
SPEEDS: tuple[tuple[float, str], ...] = (
    (0.25, "¼×"),
    (0.5, "½×"),
    (1.0, "1×"),
    (2.0, "2×"),
    (4.0, "4×"),
    (math.inf, "As fast as possible"),
)
STATUS_HZ = 4
FRAME_HZ = 30  # most frames drawn per second
SCENE_FILTER = "Cloth Lab scenes (*.json);;All files (*)"
WARNING_STYLE = "color: #c62828; font-weight: bold;"


def settings() -> QSettings:
    return QSettings(ORGANIZATION, APPLICATION)


class MainWindow(QMainWindow):
    def __init__(
        self, controller: Controller, remember_layout: bool = True, parent: QWidget | None = None
    ) -> None:
        """`remember_layout` False: start from the default layout and do not store it (the
        screenshot mode, so pictures do not depend on the user's settings)."""
        super().__init__(parent)
        self.controller = controller
        self.remember_layout = remember_layout
        self.setObjectName("main_window")
        self.resize(*DEFAULT_SIZE)
        self.setDockNestingEnabled(True)
        self._frames_drawn = 0
        self._fps_clock = time.perf_counter()
        self._last_status = -math.inf
        self.fps = 0.0
        self.real_time_factor = 0.0
        self.behind = False

        self._build_central()
        self._build_docks()
        self._build_actions()
        self._build_menus()
        self._build_toolbar()
        self._build_status_bar()
        self._connect_controller()
        self._default_state = self.saveState(STATE_VERSION)
        self._default_geometry = self.saveGeometry()
        if remember_layout:
            self.restore_layout()
            self._restore_view_options()

        # Status numbers follow snapshots; this timer only covers a paused solver.
        self._status_timer = QTimer(self)
        self._status_timer.setInterval(1000)
        self._status_timer.timeout.connect(self._update_status)
        self._status_timer.start()
        self._pending_snapshot: Snapshot | None = None
        self._frame_clock = QTimer(self)
        self._frame_clock.setInterval(round(1000 / FRAME_HZ))
        self._frame_clock.timeout.connect(self._present)
        self._frame_clock.start()
        self._show_scene(controller.scene)
        self.viewport.setFocus()  # so Space, '.' and Right work from the start

    # --- construction -----------------------------------------------------------------------------

    def _build_central(self) -> None:
        self.viewport = Viewport()
        self.viewport.setObjectName("viewport")
        self.viewport.setToolTip("")
        self.gl_message = QLabel()
        self.gl_message.setObjectName("gl_message")
        self.gl_message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.gl_message.setWordWrap(True)
        self.gl_message.setMargin(24)
        self.central = QStackedWidget()
        self.central.addWidget(self.viewport)
        self.central.addWidget(self.gl_message)
        self.setCentralWidget(self.central)
        self.viewport.frame_drawn.connect(self._count_frame)
        self.viewport.gl_failed.connect(self.show_gl_failure)

    def _dock(self, title: str, name: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    def _build_docks(self) -> None:
        self.scene_model = SceneModel(self)
        self.scene_panel = ScenePanel(self.scene_model)
        self.parameters_panel = ParametersPanel()
        self.readouts_panel = ReadoutsPanel()
        left, right = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
        self.parameters_dock = self._dock(
            "Parameters", "parameters_dock", self.parameters_panel, left
        )
        self.scene_dock = self._dock("Scene", "scene_dock", self.scene_panel, left)
        self.readouts_dock = self._dock("Readouts", "readouts_dock", self.readouts_panel, right)
        self.history_view = QUndoView(self.controller.undo_stack)
        self.history_view.setEmptyLabel("Scene as loaded")
        self.history_dock = self._dock("History", "history_dock", self.history_view, left)
        self.tabifyDockWidget(self.parameters_dock, self.scene_dock)
        self.tabifyDockWidget(self.scene_dock, self.history_dock)
        self.parameters_dock.raise_()
        self.resizeDocks(
            [self.parameters_dock, self.readouts_dock], [330, 340], Qt.Orientation.Horizontal
        )
        self.docks = (self.scene_dock, self.parameters_dock, self.readouts_dock, self.history_dock)

    def _action(
        self,
        text: str,
        slot: Any,
        shortcut: QKeySequence | str | list[Any] | None = None,
        icon_name: str | None = None,
        tip: str = "",
        checkable: bool = False,
    ) -> QAction:
        action = QAction(text, self)
        if icon_name:
            action.setIcon(icon(icon_name))
        if shortcut is not None:
            shortcuts = shortcut if isinstance(shortcut, list) else [shortcut]
            action.setShortcuts([QKeySequence(s) for s in shortcuts])
        action.setCheckable(checkable)
        keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        action.setToolTip(
            f"{tip or text.replace('&', '').rstrip('…')}" + (f" ({keys})" if keys else "")
        )
        action.setStatusTip(tip)
        if checkable:
            action.toggled.connect(slot)
        else:
            action.triggered.connect(lambda _checked=False: slot())
        self.addAction(action)  # shortcuts work while the menu bar is hidden, too
        return action

    def _build_actions(self) -> None:
        c = self.controller
        self.action_open = self._action(
            "&Open…", self.open_dialog, QKeySequence.StandardKey.Open, "open", "Open a scene file"
        )
        self.action_save = self._action(
            "&Save", self.save, QKeySequence.StandardKey.Save, "save", "Save the scene"
        )
        self.action_save_as = self._action(
            "Save &As…",
            self.save_as,
            QKeySequence.StandardKey.SaveAs,
            tip="Save the scene to a new file",
        )
        self.action_export_csv = self._action(
            "&Export readouts CSV…", self.export_readouts, tip="Save the recorded readouts as CSV"
        )
        self.action_screenshot = self._action(
            "Save scree&nshot…",
            self.save_screenshot_dialog,
            "Ctrl+Shift+P",
            "screenshot",
            "Save an image of the window",
        )
        self.action_quit = self._action(
            "&Quit", self.close, QKeySequence.StandardKey.Quit, tip="Quit Cloth Lab"
        )
        self.action_undo = c.undo_stack.createUndoAction(self, "&Undo")
        self.action_undo.setShortcuts(QKeySequence.StandardKey.Undo)
        self.action_redo = c.undo_stack.createRedoAction(self, "&Redo")
        self.action_redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        self.action_seam = self._action(
            "Seam &cut", c.seam_cut, None, "seam", "Cut the sheet top to bottom down its middle"
        )
        self.action_ball = self._action(
            "&Ball", self._toggle_ball, "Shift+B", "ball-switch", "Switch the ball on or off", True
        )
        self._build_tool_actions()
        self.action_play = self._action(
            "&Play", c.toggle_running, "Space", "play", "Run or pause the simulation"
        )
        self.action_step = self._action(
            "S&tep", c.step, ".", "step", "Advance one step of 1/120 s while paused"
        )
        self.action_reset = self._action(
            "&Reset", c.reset, "Ctrl+R", "reset", "Back to t = 0 with the scene as loaded"
        )
        self.action_wireframe = self._action(
            "&Wireframe", self.viewport.set_wireframe, "W", "wireframe", "Draw the links", True
        )
        self.action_stretch = self._action(
            "&Stretch colours",
            self.viewport.set_stretch_colors,
            "S",
            "stretch",
            "Colour the links by strain",
            True,
        )
        self.action_reset_camera = self._action(
            "Reset &camera",
            self.viewport.reset_camera,
            "Home",
            "reset-camera",
            "Look at the scene from its own camera",
        )
        self.action_reset_layout = self._action(
            "Reset &layout", self.reset_layout, tip="Put the panels back where they started"
        )
        self.action_shortcuts = self._action(
            "&Keyboard shortcuts",
            self.show_shortcuts,
            QKeySequence.StandardKey.HelpContents,
            tip="List the keyboard shortcuts",
        )
        self.action_about = self._action("&About Cloth Lab", self.show_about)
        # Right steps only in the 3D view: item views and spin boxes need it for themselves.
        self.step_shortcut = QShortcut(QKeySequence("Right"), self.central)
        self.step_shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.step_shortcut.activated.connect(self.action_step.trigger)
        self.speed_group = QActionGroup(self)
        self.speed_actions: dict[float, QAction] = {}
        for speed, label in SPEEDS:
            action = QAction(label, self.speed_group)
            action.setCheckable(True)
            action.setChecked(speed == c.speed)
            action.triggered.connect(lambda _checked=False, s=speed: c.set_speed(s))
            self.speed_actions[speed] = action

    def _build_tool_actions(self) -> None:
        self.tool_group = QActionGroup(self)
        self.tool_actions: dict[Tool, QAction] = {}
        for tool, text, key in (
            (Tool.GRAB, "&Grab", "G"),
            (Tool.PIN, "&Pin", "P"),
            (Tool.CUT, "&Cut", "C"),
            (Tool.BALL, "&Ball tool", "B"),
        ):
            action = self._action(
                text,
                lambda on, t=tool: on and self.viewport.interaction.set_tool(t),
                key,
                tool.value,
                TOOL_HINTS[tool],
                True,
            )
            self.tool_group.addAction(action)
            self.tool_actions[tool] = action
        self.tool_actions[Tool.GRAB].setChecked(True)

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        self.preset_menu = file_menu.addMenu("&New from preset")
        for name in preset_names():
            title = _preset_title(name)
            action = self.preset_menu.addAction(title)
            action.setStatusTip(f"Start a new scene from the {name} preset")
            action.triggered.connect(lambda _checked=False, n=name: self.new_from_preset(n))
        file_menu.addAction(self.action_open)
        self.recent_menu = file_menu.addMenu("Open &recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        file_menu.addSeparator()
        file_menu.addAction(self.action_save)
        file_menu.addAction(self.action_save_as)
        file_menu.addSeparator()
        file_menu.addAction(self.action_export_csv)
        file_menu.addAction(self.action_screenshot)
        file_menu.addSeparator()
        file_menu.addAction(self.action_quit)

        edit_menu = bar.addMenu("&Edit")
        edit_menu.addAction(self.action_undo)
        edit_menu.addAction(self.action_redo)
        edit_menu.addSeparator()
        edit_menu.addAction(self.action_seam)
        tools_menu = edit_menu.addMenu("&Tool")
        tools_menu.addActions(self.tool_group.actions())

        view_menu = bar.addMenu("&View")
        self.panels_menu = view_menu.addMenu("&Panels")
        for dock in self.docks:
            self.panels_menu.addAction(dock.toggleViewAction())
        view_menu.addAction(self.action_reset_layout)
        view_menu.addSeparator()
        view_menu.addAction(self.action_wireframe)
        view_menu.addAction(self.action_stretch)
        view_menu.addAction(self.action_reset_camera)

        simulation_menu = bar.addMenu("&Simulation")
        simulation_menu.addAction(self.action_play)
        simulation_menu.addAction(self.action_step)
        simulation_menu.addAction(self.action_reset)
        simulation_menu.addSeparator()
        simulation_menu.addAction(self.action_ball)
        speed_menu = simulation_menu.addMenu("S&peed")
        speed_menu.addActions(self.speed_group.actions())

        help_menu = bar.addMenu("&Help")
        help_menu.addAction(self.action_shortcuts)
        help_menu.addAction(self.action_about)

    def _build_toolbar(self) -> None:
        toolbar = QToolBar("Main toolbar", self)
        toolbar.setObjectName("main_toolbar")
        toolbar.setMovable(False)
        toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
        toolbar.addActions([self.action_open, self.action_save])
        toolbar.addSeparator()
        toolbar.addActions([self.action_play, self.action_step, self.action_reset])
        self.speed_box = QComboBox()
        self.speed_box.setObjectName("speed_box")
        self.speed_box.setToolTip("Model seconds per wall-clock second")
        for speed, label in SPEEDS:
            self.speed_box.addItem(label, speed)
        self.speed_box.setCurrentIndex([s for s, _ in SPEEDS].index(self.controller.speed))
        self.speed_box.activated.connect(
            lambda index: self.controller.set_speed(self.speed_box.itemData(index))
        )
        toolbar.addWidget(self.speed_box)
        toolbar.addSeparator()
        toolbar.addActions(self.tool_group.actions())
        toolbar.addActions([self.action_ball, self.action_seam])
        toolbar.addSeparator()
        toolbar.addActions([self.action_wireframe, self.action_stretch, self.action_reset_camera])
        toolbar.addSeparator()
        toolbar.addAction(self.action_screenshot)
        self.addToolBar(toolbar)
        self.toolbar = toolbar

    def _build_status_bar(self) -> None:
        bar = self.statusBar()
        self.tool_label = QLabel(TOOL_HINTS[Tool.GRAB])
        self.tool_label.setObjectName("tool_label")
        self.tool_label.setContentsMargins(6, 0, 6, 0)
        bar.addWidget(self.tool_label, 1)
        self.state_label = QLabel("Paused")
        self.time_label = QLabel("t = 0.00 s")
        self.factor_label = QLabel("—")
        self.factor_label.setToolTip("Model seconds per wall-clock second (real-time factor)")
        self.fps_label = QLabel("— fps")
        self.fps_label.setToolTip("Frames drawn by the viewport per second")
        self.count_label = QLabel("")
        self.count_label.setToolTip("Particles and live links")
        for label in (
            self.state_label,
            self.time_label,
            self.factor_label,
            self.fps_label,
            self.count_label,
        ):
            label.setContentsMargins(6, 0, 6, 0)
            bar.addPermanentWidget(label)

    def _connect_controller(self) -> None:
        c = self.controller
        c.scene_loaded.connect(self._show_scene)
        c.scene_edited.connect(self._show_edit)
        c.path_changed.connect(self._update_title)
        c.snapshot_changed.connect(self._show_snapshot)
        c.running_changed.connect(self._show_running)
        c.timing_changed.connect(self._show_timing)
        c.speed_changed.connect(self._show_speed)
        # Bound methods, not lambdas: Qt drops them when the window goes, the controller stays.
        c.load_failed.connect(self._show_load_failure)
        c.undo_stack.cleanChanged.connect(self._update_title)
        self.scene_model.setting_edit_requested.connect(self._request_setting)
        self.scene_model.pin_edit_requested.connect(c.move_pin)
        self.parameters_panel.setting_edit_requested.connect(self._request_setting)
        self.readouts_panel.export_requested.connect(self.export_readouts)
        c.instability_found.connect(self._show_instability)
        tools = self.viewport.interaction
        tools.tool_changed.connect(self._show_tool)
        tools.grab_requested.connect(c.grab)
        tools.grab_move_requested.connect(c.move_grab)
        tools.release_requested.connect(c.release_grab)
        tools.pin_toggle_requested.connect(c.move_pin)
        tools.pin_move_requested.connect(c.preview_pin)
        tools.pin_move_finished.connect(self._finish_pin_move)
        tools.cut_requested.connect(c.cut)
        tools.ball_move_requested.connect(c.preview_ball)
        tools.ball_move_finished.connect(self._finish_ball_move)

    # --- showing the controller's state -----------------------------------------------------------

    def _show_scene(self, scene: Scene) -> None:
        self.viewport.interaction.cancel()
        self.action_ball.setChecked(scene.ball.enabled)
        self.scene_model.set_scene(scene)
        self.parameters_panel.set_settings(self.controller.settings)
        self.readouts_panel.clear()
        self.viewport.set_camera(scene.camera)
        self._update_title()
        self._show_running(self.controller.running)

    def _show_edit(self, scene: Scene, _edit: object) -> None:
        self.scene_model.update_from_scene(scene)
        self.parameters_panel.set_settings(self.controller.settings)
        self.action_ball.setChecked(self.controller.settings.ball)

    def _show_snapshot(self, snapshot: Snapshot) -> None:
        self._pending_snapshot = snapshot  # drawn by the frame clock, newest first

    def _present(self) -> None:
        """Show the newest snapshot, at most FRAME_HZ times a second. Drawing on every
        snapshot would let repaints (slow with software OpenGL) crowd out timers and input."""
        snapshot, self._pending_snapshot = self._pending_snapshot, None
        if snapshot is None:
            return
        # Everything a snapshot changes is updated here, so one window flush shows it all.
        self.viewport.show_snapshot(snapshot)
        self.readouts_panel.add_snapshot(snapshot)
        if time.perf_counter() - self._last_status >= 1.0 / STATUS_HZ:
            self._update_status()

    def _show_running(self, running: bool) -> None:
        self.action_play.setText("&Pause" if running else "&Play")
        self.action_play.setIcon(icon("pause" if running else "play"))
        self.action_play.setToolTip(("Pause" if running else "Play") + " (Space)")
        self.action_step.setEnabled(not running)
        self.state_label.setText("Running" if running else "Paused")
        if not running:
            self._show_timing(0.0, False)

    def _show_timing(self, factor: float, behind: bool) -> None:
        self.real_time_factor, self.behind = factor, behind
        if not self.controller.running:
            self.factor_label.setText("— × real time")
        else:
            self.factor_label.setText(
                f"{factor:.2f}× real time" + (" — can't keep up" if behind else "")
            )
        self.factor_label.setStyleSheet(WARNING_STYLE if behind else "")

    def _show_speed(self, speed: float) -> None:
        if speed in self.speed_actions:
            self.speed_actions[speed].setChecked(True)
            self.speed_box.setCurrentIndex([s for s, _ in SPEEDS].index(speed))

    def _show_tool(self, tool: Tool) -> None:
        self.tool_actions[tool].setChecked(True)
        self.tool_label.setText(TOOL_HINTS[tool])

    def _show_instability(self, message: str) -> None:
        self.statusBar().showMessage(message, 15000)
        self._error("The model became unstable", message)

    def _finish_pin_move(self, particle: int, _start: object, end: object) -> None:
        self.controller.move_pin(particle, end)

    def _finish_ball_move(self, _start: object, end: object) -> None:
        self.controller.set_setting("ball_center", end)

    def _toggle_ball(self, on: bool) -> None:
        if on != self.controller.settings.ball:
            self.controller.set_setting("ball", on)

    def _show_load_failure(self, message: str) -> None:
        self._error("Cannot build the scene", message)

    def _update_title(self, *_: object) -> None:
        self.setWindowTitle(f"{APPLICATION} — {self.controller.title_name}[*]")
        self.setWindowModified(not self.controller.undo_stack.isClean())

    def _count_frame(self, _frame: int) -> None:
        self._frames_drawn += 1

    def _update_status(self) -> None:
        now = time.perf_counter()
        self._last_status = now
        elapsed = now - self._fps_clock
        if elapsed >= 1.0:
            self.fps = self._frames_drawn / elapsed
            self._frames_drawn = 0
            self._fps_clock = now
            self.fps_label.setText(f"{self.fps:.0f} fps")
        snapshot = self.controller.latest
        if snapshot is not None:
            self.time_label.setText(f"t = {snapshot.t:.2f} s")
            particles = snapshot.topology.particle_count
            self.count_label.setText(f"{particles} particles · {snapshot.readouts.links} links")

    def show_gl_failure(self, reason: str) -> None:
        """No OpenGL: say so where the 3D view would be; panels and plots keep working."""
        self.gl_message.setText(
            "<h3>The 3D view is not available</h3>"
            f"<p>OpenGL 3.3 could not be used: {_escape(reason)}</p>"
            "<p>The simulation, panels and plots still work. Updating the graphics driver, or "
            "running with Mesa's software renderer (LIBGL_ALWAYS_SOFTWARE=1), may help.</p>"
        )
        self.central.setCurrentWidget(self.gl_message)
        self.statusBar().showMessage(f"OpenGL failed: {reason}")

    # --- requests ---------------------------------------------------------------------------------

    def _request_setting(self, key: str, value: Any) -> None:
        try:
            self.controller.set_setting(key, value)
        except (KeyError, ValueError) as error:
            self.statusBar().showMessage(f"{key}: {error}", 5000)
            self._show_edit(self.controller.scene, None)

    def new_from_preset(self, name: str) -> None:
        if self._confirm_discard():
            self.controller.new_from_preset(name)

    def open_dialog(self) -> None:
        if not self._confirm_discard():
            return
        start = str(self.controller.path.parent) if self.controller.path else str(Path.home())
        path, _ = QFileDialog.getOpenFileName(self, "Open scene", start, SCENE_FILTER)
        if path:
            self.open_path(path)

    def open_path(self, path: str | Path) -> bool:
        """Open a scene file; a bad file shows its one-line reason and keeps the current scene."""
        try:
            self.controller.open(Path(path))
        except SceneError as error:
            self._error("Cannot open scene", str(error))
            return False
        self._add_recent(Path(path))
        return True

    def save(self) -> bool:
        if self.controller.path is None:
            return self.save_as()
        return self._save_to(self.controller.path)

    def save_as(self) -> bool:
        folder = self.controller.path.parent if self.controller.path else Path.home()
        suggestion = folder / f"{_slug(self.controller.title_name)}.json"
        path, _ = QFileDialog.getSaveFileName(self, "Save scene as", str(suggestion), SCENE_FILTER)
        return bool(path) and self._save_to(Path(path))

    def _save_to(self, path: Path) -> bool:
        try:
            saved = self.controller.save(path, camera=self.viewport.camera_spec())
        except (OSError, ValueError) as error:
            self._error("Cannot save scene", f"{path}: {error}")
            return False
        self._add_recent(saved)
        self.statusBar().showMessage(f"Saved {saved}", 4000)
        return True

    def export_readouts(self) -> None:
        suggestion = Path.home() / f"{_slug(self.controller.title_name)}-readouts.csv"
        path, _ = QFileDialog.getSaveFileName(
            self, "Export readouts", str(suggestion), "CSV files (*.csv);;All files (*)"
        )
        if not path:
            return
        try:
            self.readouts_panel.history.write_csv(Path(path))
        except OSError as error:
            self._error("Cannot export readouts", f"{path}: {error.strerror}")
            return
        self.statusBar().showMessage(
            f"Exported {len(self.readouts_panel.history)} rows to {path}", 4000
        )

    def save_screenshot_dialog(self) -> None:
        suggestion = Path.home() / f"{_slug(self.controller.title_name)}.png"
        path, _ = QFileDialog.getSaveFileName(
            self, "Save screenshot", str(suggestion), "PNG images (*.png)"
        )
        if path and not self.save_screenshot(Path(path)):
            self._error("Cannot save screenshot", f"{path}: could not write the image")

    def save_screenshot(self, path: Path) -> bool:
        return self.window_image().save(str(path))

    def window_image(self) -> QImage:
        """The whole window as an image. Qt 6's QWidget.grab() renders QOpenGLWidget content
        from its framebuffer object, so the 3D view is included (checked under Xvfb)."""
        self._update_status()  # the numbers in the picture belong to the frame in it
        return self.grab().toImage()

    # --- layout -----------------------------------------------------------------------------------

    def restore_layout(self) -> bool:
        """Restore the stored geometry and dock layout; anything unreadable → default layout."""
        stored = settings()
        geometry, state = stored.value("window/geometry"), stored.value("window/state")
        ok = isinstance(geometry, QByteArray) and isinstance(state, QByteArray)
        try:
            ok = ok and self.restoreGeometry(geometry) and self.restoreState(state, STATE_VERSION)
        except (TypeError, ValueError, RuntimeError):
            ok = False
        if not ok:
            self.reset_layout()
            if geometry is not None or state is not None:  # stored, but unreadable
                warning = "the stored window layout could not be read; using the default layout"
                print(f"clothlab: warning: {warning}", file=sys.stderr)
                self.statusBar().showMessage(warning.capitalize(), 10_000)
        return ok

    def save_layout(self) -> None:
        stored = settings()
        stored.setValue("window/geometry", self.saveGeometry())
        stored.setValue("window/state", self.saveState(STATE_VERSION))
        stored.setValue("view/wireframe", self.action_wireframe.isChecked())
        stored.setValue("view/stretch_colors", self.action_stretch.isChecked())
        stored.sync()

    def reset_layout(self) -> None:
        self.restoreState(self._default_state, STATE_VERSION)
        for dock in self.docks:
            dock.setFloating(False)
            dock.show()
        self.parameters_dock.raise_()

    def _restore_view_options(self) -> None:
        stored = settings()
        self.action_wireframe.setChecked(_as_bool(stored.value("view/wireframe", False)))
        self.action_stretch.setChecked(_as_bool(stored.value("view/stretch_colors", False)))

    # --- recent files -----------------------------------------------------------------------------

    def recent_files(self) -> list[str]:
        value = settings().value("recent_files", [])
        if isinstance(value, str):  # QSettings turns a one-item list into a string
            value = [value]
        return (
            [v for v in value if isinstance(v, str)][:MAX_RECENT] if isinstance(value, list) else []
        )

    def _add_recent(self, path: Path) -> None:
        text = str(path.resolve())
        files = [text, *[f for f in self.recent_files() if f != text]][:MAX_RECENT]
        settings().setValue("recent_files", files)

    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        files = self.recent_files()
        for number, file in enumerate(files, start=1):
            action = self.recent_menu.addAction(f"&{number % 10} {Path(file).name}")
            action.setStatusTip(file)
            action.triggered.connect(lambda _checked=False, f=file: self._open_recent(f))
        if not files:
            self.recent_menu.addAction("No recent files").setEnabled(False)
        self.recent_menu.addSeparator()
        self.recent_menu.addAction("Clear menu", lambda: settings().setValue("recent_files", []))

    def _open_recent(self, file: str) -> None:
        if self._confirm_discard() and not self.open_path(file):
            settings().setValue("recent_files", [f for f in self.recent_files() if f != file])

    # --- dialogs ----------------------------------------------------------------------------------

    def _error(self, title: str, message: str) -> None:
        QMessageBox.warning(self, title, message)

    def _confirm_discard(self) -> bool:
        """True if there are no unsaved edits, or the user saved or chose to discard them."""
        if self.controller.undo_stack.isClean():
            return True
        answer = QMessageBox.question(
            self, "Unsaved changes", f"Save the changes to “{self.controller.title_name}”?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel,
        )  # fmt: skip
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def show_shortcuts(self) -> None:
        ShortcutsDialog(self.shortcut_rows(), self).exec()

    def shortcut_rows(self) -> list[tuple[str, str]]:
        rows = []
        for action in [*self.actions(), self.action_undo, self.action_redo]:
            keys = ", ".join(
                s.toString(QKeySequence.SequenceFormat.NativeText) for s in action.shortcuts()
            )
            if keys:
                rows.append((action.text().replace("&", ""), keys))
        rows += [
            ("Step (in the 3D view)", "Right"),
            ("Orbit the camera", "Left or right drag in the 3D view"),
            ("Pan the camera", "Middle drag, or Shift + drag"),
            ("Zoom", "Mouse wheel"),
        ]
        return rows

    def show_about(self) -> None:
        QMessageBox.about(
            self, f"About {APPLICATION}",
            f"<h3>{APPLICATION}</h3><p>A desktop physics lab for cloth: position-based "
            "dynamics (Verlet predict, Gauss–Seidel link passes), live readouts, editable "
            "scenes.</p><p>Model time advances in steps of 1/120 s on a solver thread; "
            "the window draws the newest finished frame.</p>",
        )  # fmt: skip

    # --- shutdown ---------------------------------------------------------------------------------

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt override)
        if not self._confirm_discard():
            event.ignore()
            return
        if self.remember_layout:
            self.save_layout()
        self._status_timer.stop()
        self.controller.shutdown()
        event.accept()


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


def _preset_title(name: str) -> str:
    try:
        return load_preset(name).name
    except SceneError:
        return name


def _slug(name: str) -> str:
    slug = "".join(ch if ch.isalnum() else "-" for ch in name.lower()).strip("-")
    return "-".join(part for part in slug.split("-") if part) or "scene"


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _as_bool(value: Any) -> bool:
    return value in (True, "true", "1", 1)
