"""make_window (tests/conftest.py, tests/shared_window.py) gives a module's later tests the window
its first test made, reset: a test that dirties it in every way a test may leaves nothing for
the next, which finds it as a window built afresh would be."""

from __future__ import annotations

import pytest

DIRTIED: list[object] = []  # the window an earlier test of this module dirtied, if any
SCENE = "hanging-sheet"


def dirty(qtbot, window) -> None:
    """Everything a test may leave behind: a dialog and a menu open, a cut, a dock moved, a
    tool picked, the solver running at 2×, a recording, the window resized, a view option and
    a preference changed, a body selected, a message in the status bar, a field focused."""
    from PySide6.QtCore import QPoint, Qt

    from clothlab.sim.document.commands import SetSpeed
    from clothlab.ui.selection import Selection
    from clothlab.ui.window import preferences

    window.fit_my_fabric()
    window.file_menu.popup(window.mapToGlobal(QPoint(20, 20)))
    window.action_seam.trigger()
    window.removeDockWidget(window.scene_dock)
    window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, window.scene_dock)
    window.scene_dock.show()
    window.tool_actions["cut"].trigger()
    window.context.submit(SetSpeed(2.0))
    window.controller.set_running(True)
    window.action_record.setChecked(True)
    window.resize(900, 640)
    window.action_wireframe.trigger()
    chosen = preferences.stored_preferences()
    preferences.store_preferences(type(chosen)(frame_rate_cap=20, plot_window_s=5))
    window.selection.select(Selection("body", 0))
    window.status.showMessage("left behind")
    window.parameters_panel.setFocus()
    window.parameters_panel.focusNextChild()
    qtbot.waitUntil(lambda: window.controller.undo_stack.count() == 1, timeout=5000)
    DIRTIED.append(window)


@pytest.mark.parametrize("turn", [1, 2])
def test_a_window_a_test_dirtied_comes_back_to_the_next_as_a_fresh_one(qtbot, make_window, turn):
    from PySide6.QtWidgets import QApplication
    from qt_helpers import fingerprint_changes, layout_settled, window_fingerprint

    from clothlab.ui.viewport.tools import DEFAULT_TOOL

    window = make_window(SCENE)
    if DIRTIED:  # the other turn ran first: this is its window, reset
        assert window is DIRTIED[-1]
        # File ▸ Save State is enabled from a window's first frame of its scene on, which a
        # loaded machine may deliver after the window is shown: each is compared after it
        first_frame = 10_000
        qtbot.waitUntil(lambda: window.action_save_state.isEnabled(), timeout=first_frame)
        reset = window_fingerprint(window)
        fresh = make_window(SCENE)  # a second window in a test is always built
        assert fresh is not window
        layout_settled(qtbot, fresh)
        qtbot.waitUntil(lambda: fresh.action_save_state.isEnabled(), timeout=first_frame)
        changes = fingerprint_changes(window_fingerprint(fresh), reset)
        # The Selected body group, disabled with nothing selected, still shows the stiffness of
        # the body last selected, where a fresh window's shows its box's minimum.
        changes = [change for change in changes if "/selected_body/body_stiffness/" not in change]
        assert changes == [], "\n".join(changes)
        assert window.controller.undo_stack.count() == 0 and not window.isWindowModified()
        assert not window.controller.running and window.controller.speed == 1.0
        assert window.viewport.interaction.tool == DEFAULT_TOOL
        assert window.status.currentMessage() == ""
        assert window.focusWidget() is window.viewport
        assert QApplication.activePopupWidget() is None and window.fit_dialog is None
        assert window._frame_clock.interval() == fresh._frame_clock.interval()
    dirty(qtbot, window)


def test_fresh_asks_for_a_window_of_its_own(make_window):
    shared = make_window(SCENE)
    assert make_window(SCENE, fresh=True) is not shared
