"""How make_window (tests/conftest.py) builds a main window, and how it gives a test module's later
tests the window its first test built, reset to what a fresh one would be: building, showing and
closing a window costs about a second of CPU, most of a short window test.

What the reset covers, at the end of a test (`tidy`) and as the next one asks (`reset`):
* every dialog, menu and other top-level widget shown closed; a compare run, a validation
  run, a recording and a fabric fit stopped; the stopwatch stopped and cleared; class mode
  left; the solver paused;
* the requested preset loaded afresh (undo history empty, not modified, no file, speed 1×,
  the solver running only if the test starts it), nothing selected;
* the requested size (or a fresh window's), not full screen, the default dock layout;
* the default tool, the view options and preferences a fresh window reads from the test's
  own (empty) settings folder, the user's fabrics and the answers' folder of the test's
  own data folder, the Readouts panel's plot window; the Questions panel's built-in set at
  its first question, from the beginning;
* the status bar's message cleared, the focus in the 3D view (a fresh window is shown, not
  made active: neither is this one).
A window the reset cannot bring back is not shared again, `tidy` says so: the test closed it,
changed the application's language or palette under it, showed the OpenGL failure's message
in place of the 3D view, or used a panel that keeps its work across scenes (Compare,
Validation, Questions).
"""

from __future__ import annotations

import os
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from PySide6.QtCore import QLocale, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication
from qt_helpers import layout_settled

from clothlab.sim import text
from clothlab.sim.document.commands import SetSpeed
from clothlab.sim.document.presets import load_preset
from clothlab.ui.docks.questions_dock import ProgressStore, QuestionsPanel
from clothlab.ui.user_fabrics import fabrics_file
from clothlab.ui.viewport.tools import DEFAULT_TOOL
from clothlab.ui.window import preferences
from clothlab.ui.window.main_window import DEFAULT_SIZE, MainWindow, fitted_size

if TYPE_CHECKING:
    from pytestqt.qtbot import QtBot

LOOK_ROLES = (
    QPalette.ColorRole.Window, QPalette.ColorRole.WindowText, QPalette.ColorRole.Base,
    QPalette.ColorRole.Text, QPalette.ColorRole.Button, QPalette.ColorRole.Highlight,
)  # fmt: skip


def in_the_default_look() -> bool:
    """Whether the application speaks English, in the system's number locale, in the
    desktop's palette: what a window takes as it is built, which a reset cannot change. Only
    a window made and left so is shared."""
    from clothlab.ui.window import preferences_dialog

    desktops = preferences_dialog._system_palette or QApplication.palette()  # kept once replaced
    return (
        text.language == "en"
        and QLocale().name() == QLocale.system().name()
        and colours(QApplication.palette()) == colours(desktops)
    )


def colours(palette: QPalette) -> tuple[int, ...]:
    return tuple(palette.color(role).rgba() for role in LOOK_ROLES)


def stored_anything(config_folder: Path) -> bool:
    """Whether the test has stored settings (a layout, preferences) or data (fabrics, answers)
    before asking for its window: a window reads them as it is built, so it must be fresh."""
    folders = [config_folder, Path(os.environ.get("XDG_DATA_HOME", config_folder))]
    return any(path.is_file() for folder in folders for path in folder.rglob("*"))


def patched_the_ui(patches: object) -> bool:
    """Whether the test has patched a module or class of the app's ui or app layers (a docks
    table, a panel's class) before asking for its window: one built with the patch may differ
    from the shared one. Patches of Qt's dialogs and of sim/ are read when called."""
    for target, _name, _old in getattr(patches, "_setattr", []):
        module = target.__name__ if isinstance(target, ModuleType) else target.__module__
        if module.startswith(("clothlab.ui", "clothlab.app")):
            return True
    return False


def build(qtbot: QtBot, scene: str, *, size: tuple[int, int] | None, paused: bool) -> MainWindow:
    """A new window on its own controller, `scene` loaded, shown and exposed."""
    from clothlab.app.controller import Controller

    controller = Controller()
    window = MainWindow(controller)
    if paused:
        controller.set_running(False)
    controller.load(load_preset(scene))
    if size is not None:
        window.resize(*size)
    window.show()
    qtbot.waitExposed(window)
    return window


def close(window: MainWindow) -> None:
    """A window `build` made, closed, its solver thread stopped, deleted."""
    window.close()
    window.controller.shutdown()
    window.deleteLater()


def tidy(qtbot: QtBot, window: MainWindow) -> bool:
    """As a test ends: close what the window opened and stop what it runs, so nothing of it
    reaches the module's other tests. False when the window cannot be shared again."""
    if not window.isVisible() or not window.controller._thread.isRunning():
        return False
    close_top_levels(window)
    stop_runs(qtbot, window)
    window.hide()
    return panels_untouched(window)


def panels_untouched(window: MainWindow) -> bool:
    """Whether the parts that keep what was done to them across scenes are as they were
    built: the 3D view in the middle (not an OpenGL failure's message), the Compare panel (its
    variants, runs and table), the Validation panel (its choices and results) and the
    Questions panel. A test that changed them leaves a window no reset clears."""
    compare, validation = window.compare_panel, window.validation_panel
    checks = [*validation.fabric_checks.values(), *validation.test_checks.values()]
    return (
        window.central.currentWidget() is not window.gl_message
        and compare.runner is None
        and not any(row.edit.text() or row.presets.currentIndex() > 0 for row in compare.rows)
        and compare.table.rowCount() == 0
        and compare.beside_box.currentIndex() == 0
        and compare._chosen_readout == "sag"
        and validation.run_thread is None
        and validation.table.rowCount() == 0
        and all(check.isChecked() for check in checks)
        and questions_untouched(window.questions_panel)
    )


def questions_untouched(panel: QuestionsPanel) -> bool:
    """The Questions panel keeps its set across scenes: it has not read the built-in set yet,
    or shows it (`for_this_test` takes it back to its first question, from the beginning),
    outside class mode, no editor or class results opened."""
    shown = panel._question_set
    return panel._builtin_pending or (
        shown is not None and shown.path is None and not panel._class_mode_on
        and panel.editor is None and panel.results_dialog is None
    )  # fmt: skip


def close_top_levels(window: MainWindow) -> None:
    """Every popup, dialog and other top-level widget shown, but the window, closed."""
    while (popup := QApplication.activePopupWidget()) is not None:
        popup.close()
    for widget in QApplication.topLevelWidgets():
        if widget is not window and widget.isVisible():
            widget.close()


def stop_runs(qtbot: QtBot, window: MainWindow) -> None:
    """Compare and validation runs, a fabric fit and a recording stopped; the solver paused."""
    compare = window.compare_panel.runner
    if compare is not None:
        compare.stop()
    validation = window.validation_panel
    if validation.run_thread is not None:
        validation.shutdown()
    if window.fit_dialog is not None:
        window.fit_dialog.close()  # stops its fit
        window.fit_dialog.deleteLater()
        window.fit_dialog = None
    stopwatch = window.stopwatch_panel  # it counts on across loads, as a stopwatch does
    if stopwatch.watch.running:
        stopwatch.start_or_stop()
    stopwatch.reset()
    window.action_record.setChecked(False)
    window.recorder.kept = None  # nothing recorded for Save recording… to offer
    window.recorder._enable_save()
    window.leave_class_mode()
    window.controller.set_running(False)


def reset(
    qtbot: QtBot, window: MainWindow, scene: str, *, size: tuple[int, int] | None, paused: bool
) -> None:
    """The shared window as `build` would have made it for this test."""
    window.set_full_screen(False)
    window.setWindowState(Qt.WindowState.WindowNoState)  # not maximized; still hidden
    controller = window.controller
    if controller.speed != 1.0:
        window.context.submit(SetSpeed(1.0))
    window.selection.select(None)
    for_this_test(window)
    controller.load(load_preset(scene))  # a new document: the undo history goes with the old
    window.tool_actions[DEFAULT_TOOL].trigger()
    window.status.clearMessage()
    window.show()
    qtbot.waitExposed(window)
    # shown first: a hidden window's dock layout takes its sizes only when it is shown again
    if size is None:  # a fresh window's size
        window.resize(fitted_size(DEFAULT_SIZE, window.screen().availableGeometry().size()))
    else:
        window.resize(*size)
    window.reset_layout()
    layout_settled(qtbot, window)
    window.layout_keeper.schedule()  # again, on the sizes the restored layout has taken now
    layout_settled(qtbot, window)
    window.viewport.setFocus(Qt.FocusReason.OtherFocusReason)


def for_this_test(window: MainWindow) -> None:
    """What a window reads from the test's settings and data folders as it is built, read
    from this test's (empty) ones: view options, preferences, fabrics, the answers' folder."""
    for name, action in preferences_actions(window).items():
        action.setChecked(preferences.stored_view_option(name))
    window.live_preferences.apply()
    window.set_frame_rate_cap(preferences.frame_rate_cap())
    window.readouts_panel.window_box.setValue(preferences.plot_window_s())
    window.user_fabrics.file = fabrics_file()
    window.user_fabrics.warning = ""
    window.parameters_panel.body_group.reload_fabrics()
    window.validation_panel.refresh_fabrics()
    questions = window.questions_panel
    questions.store = ProgressStore()
    if not questions._builtin_pending:  # the built-in set (tidy): its first question afresh
        questions._show_student()
        questions.select(0)


def preferences_actions(window: MainWindow) -> dict[str, object]:
    from clothlab.ui.window import actions

    return actions.remembered(window._actions)


def check_against_fresh(
    qtbot: QtBot, window: MainWindow, scene: str, *, size: tuple[int, int] | None, paused: bool
) -> list[str]:
    """Where the shared window, reset, differs from a window built afresh alike (the fresh one
    is built, looked at and closed first, so each is looked at as it comes to the test)."""
    from qt_helpers import fingerprint_changes, window_fingerprint

    fresh = build(qtbot, scene, size=size, paused=paused)
    layout_settled(qtbot, fresh)
    fresh_print = window_fingerprint(fresh)
    close(fresh)
    reset(qtbot, window, scene, size=size, paused=paused)
    return fingerprint_changes(fresh_print, window_fingerprint(window))
