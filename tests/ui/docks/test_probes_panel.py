"""Probes in the real window: the Probe tool clicked on particles with real
mouse events, the Probes panel's rows and curves, undo, replays, and the keyboard."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from qt_helpers import WAIT_MS, screen_point

from clothlab.sim.core.forces import tension_around
from clothlab.sim.document.edits import SetProbe
from clothlab.ui.window.main_window import MainWindow

LEFT = Qt.MouseButton.LeftButton
NO_MODIFIER = Qt.KeyboardModifier.NoModifier


@pytest.fixture
def window(qtbot, make_window) -> MainWindow:
    """The real window on hanging-sheet, paused at t = 0 so the cloth stays where it is drawn."""
    made = make_window("hanging-sheet", size=(1200, 800), paused=True)
    qtbot.waitUntil(lambda: made.viewport.snapshot() is not None, timeout=WAIT_MS)
    return made


def click_particle(window: MainWindow, particle: int) -> None:
    point = screen_point(window, window.controller.latest.x[particle])
    QTest.mouseClick(window.viewport, LEFT, NO_MODIFIER, point)


def table_text(window: MainWindow, row: int, column: int) -> str:
    item = window.probes_panel.table.item(row, column)
    return "" if item is None else item.text()


def test_clicking_a_particle_with_the_probe_tool_shows_it_in_the_probes_panel(qtbot, window):
    controller, panel = window.controller, window.probes_panel
    assert panel.hint.isVisibleTo(panel) and panel.table.rowCount() == 0
    assert window.probes_dock.isHidden()  # until a probe is attached: the default layout's tabs
    window.tool_actions["probe"].trigger()
    assert window.viewport.interaction.tool == "probe"
    middle = 5 * 15 + 7
    click_particle(window, middle)
    assert controller.scene.probes == [middle]
    assert controller.undo_stack.undoText() == "Add probe 1"
    assert window.viewport.probes() == (middle,)  # its marker
    qtbot.waitUntil(lambda: not window.probes_dock.visibleRegion().isEmpty(), timeout=WAIT_MS)
    assert panel.table.rowCount() == 1 and table_text(window, 0, 1) == str(middle)
    assert not panel.hint.isVisibleTo(panel)
    click_particle(window, 14)  # a pinned corner takes a probe too
    assert controller.scene.probes == [middle, 14]

    # Running, the panel reads each frame's height and speed and draws them
    window.action_play.trigger()
    qtbot.waitUntil(lambda: controller.latest.t > 0.5, timeout=WAIT_MS)
    window.action_play.trigger()
    qtbot.waitUntil(lambda: not controller.running, timeout=WAIT_MS)
    qtbot.waitUntil(
        lambda: window.viewport.snapshot().frame == controller.latest.frame, timeout=WAIT_MS
    )
    latest = window.viewport.snapshot()
    assert float(table_text(window, 0, 2)) == pytest.approx(latest.x[middle, 1], abs=5e-4)
    assert float(table_text(window, 1, 2)) == pytest.approx(latest.x[14, 1], abs=5e-4)
    corner_tension = tension_around(latest.topology, latest.link_tension, 14)
    assert corner_tension > 0 and float(table_text(window, 1, 4)) == pytest.approx(
        corner_tension, rel=1e-3
    )  # the pinned corner's links pull, as the solver's forces say
    panel.redraw()
    times, heights = panel._curves[("y", 0)].getData()
    assert len(times) >= 3 and np.all(np.diff(times) > 0)  # a point per frame shown
    assert times[-1] == pytest.approx(latest.t) and heights[0] == pytest.approx(0.0, abs=1e-9)
    assert heights[-1] < heights[0]  # the sheet sags: the middle goes down
    assert len(panel._curves[("speed", 1)].getData()[0]) == len(times)

    # A click on the probed particle takes the probe off; Undo puts it back in its place
    click_particle(window, middle)
    assert controller.scene.probes == [14]
    assert controller.undo_stack.undoText() == "Remove probe 1"
    assert table_text(window, 0, 1) == "14"
    window.action_undo.trigger()
    assert controller.scene.probes == [middle, 14]
    assert panel.table.rowCount() == 2 and window.viewport.probes() == (middle, 14)
    window.action_undo.trigger()
    window.action_undo.trigger()
    assert controller.scene.probes == [] and panel.table.rowCount() == 0
    window.action_redo.trigger()
    assert controller.scene.probes == [middle]


def test_a_fifth_probe_is_refused_in_the_status_bar(qtbot, window):
    controller = window.controller
    window.tool_actions["probe"].trigger()
    for particle in (3 * 15 + 3, 3 * 15 + 11, 8 * 15 + 3, 8 * 15 + 11):
        click_particle(window, particle)
    assert len(controller.scene.probes) == 4
    click_particle(window, 5 * 15 + 7)
    assert len(controller.scene.probes) == 4
    assert "at most 4 probes" in window.status.currentMessage()


def test_a_probe_added_to_a_replay_reads_the_recorded_run(qtbot, window, tmp_path):
    controller = window.controller
    window.action_play.trigger()
    qtbot.waitUntil(lambda: controller.latest.t > 0.5, timeout=WAIT_MS)
    window.action_play.trigger()
    qtbot.waitUntil(lambda: not controller.running, timeout=WAIT_MS)
    recording = controller.recording()
    recorded_y = controller.latest.x[160, 1]  # the run's, at the recording's last step
    assert controller.latest.clock == recording.steps
    controller.play(recording)
    qtbot.waitUntil(lambda: controller.replay is not None, timeout=WAIT_MS)
    controller.seek(recording.steps // 2)
    qtbot.waitUntil(
        lambda: controller.latest is not None and controller.latest.clock == recording.steps // 2,
        timeout=WAIT_MS,
    )
    controller.submit(SetProbe(160, True, 0))
    assert controller.scene.probes == [160]
    controller.seek(recording.steps)  # still the recording: the probe stays with the replay
    qtbot.waitUntil(lambda: controller.latest.clock == recording.steps, timeout=WAIT_MS)
    assert controller.replay is recording and controller.scene.probes == [160]
    qtbot.waitUntil(
        lambda: window.viewport.snapshot().frame == controller.latest.frame, timeout=WAIT_MS
    )
    assert controller.latest.x[160, 1] == recorded_y  # bit for bit: the recorded run
    assert float(table_text(window, 0, 2)) == pytest.approx(recorded_y, abs=5e-4)

    def drawn_until() -> float:  # the curve is empty for a moment after the seek's frame
        times, _ = window.probes_panel._curves[("y", 0)].getData()
        return float(times[-1]) if times is not None and len(times) else -1.0

    qtbot.waitUntil(lambda: drawn_until() == pytest.approx(recording.steps / 120), timeout=WAIT_MS)


def test_f6_reaches_the_probes_panel_and_o_chooses_the_probe_tool(qtbot, window):
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: not window.layout_keeper._timer.isActive(), timeout=WAIT_MS)
    window.probes_dock.show()
    window.probes_dock.raise_()
    qtbot.waitUntil(lambda: not window.probes_dock.visibleRegion().isEmpty(), timeout=WAIT_MS)
    window.viewport.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is window.viewport, timeout=WAIT_MS)
    QTest.keyClick(window.viewport, Qt.Key.Key_O)
    assert window.viewport.interaction.tool == "probe"
    reached = False
    for _ in range(len(window.keyboard_areas())):
        QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_F6)
        focused = QApplication.focusWidget()
        if focused is not None and window.probes_dock.isAncestorOf(focused):
            reached = True
            break
    assert reached, "F6 never reached the Probes panel"


def test_a_probed_scene_opens_with_its_probes_in_front(qtbot):
    """As `clothlab probed.json` starts: the scene loads before the window shows."""
    from clothlab.app.controller import Controller
    from clothlab.sim.document.presets import load_preset

    controller = Controller()
    window = MainWindow(controller, remember_layout=False)
    try:
        controller.set_running(False)
        controller.load(load_preset("hanging-sheet").model_copy(update={"probes": [7, 152]}))
        window.show()
        qtbot.waitExposed(window)
        qtbot.waitUntil(lambda: not window.probes_dock.visibleRegion().isEmpty(), timeout=WAIT_MS)
        assert window.viewport.probes() == (7, 152)
        qtbot.waitUntil(lambda: window.probes_panel.table.rowCount() == 2, timeout=WAIT_MS)
    finally:
        window.close()
        controller.shutdown()
        window.deleteLater()


def test_a_probe_attached_while_recording_comes_back_when_the_replay_reaches_it(qtbot, window):
    controller = window.controller
    window.action_play.trigger()
    qtbot.waitUntil(lambda: controller.latest.t > 0.2, timeout=WAIT_MS)
    controller.submit(SetProbe(160, True, 0))  # during the run: a command of the recording
    qtbot.waitUntil(
        lambda: any(isinstance(s.command, SetProbe) for s in controller.journal), timeout=WAIT_MS
    )
    qtbot.waitUntil(lambda: controller.latest.t > 0.5, timeout=WAIT_MS)
    window.action_play.trigger()
    qtbot.waitUntil(lambda: not controller.running, timeout=WAIT_MS)
    recording = controller.recording()
    added_at = next(s.step for s in recording.commands if isinstance(s.command, SetProbe))
    assert recording.scene.probes == [] and 0 < added_at < recording.steps
    controller.play(recording)
    qtbot.waitUntil(lambda: controller.replay is recording, timeout=WAIT_MS)
    assert controller.scene.probes == []  # the recording's scene at step 0
    controller.seek(added_at - 1)
    qtbot.waitUntil(
        lambda: controller.latest is not None and controller.latest.clock == added_at - 1,
        timeout=WAIT_MS,
    )
    assert controller.scene.probes == [] and window.probes_panel.table.rowCount() == 0
    controller.seek(recording.steps)
    qtbot.waitUntil(lambda: controller.scene.probes == [160], timeout=WAIT_MS)
    qtbot.waitUntil(lambda: window.probes_panel.table.rowCount() == 1, timeout=WAIT_MS)
    assert window.viewport.probes() == (160,) and controller.undo_stack.count() == 0


def test_a_fabrics_probe_plots_are_titled_in_si_units(qtbot):
    from clothlab.sim.document.presets import load_preset
    from clothlab.ui.docks.probes_dock import ProbesPanel

    panel = ProbesPanel()
    qtbot.addWidget(panel)

    def titles() -> list[str]:
        return [plot.getPlotItem().titleLabel.text for plot in panel.plots.values()]

    panel.show_scene(load_preset("hanging-strip"))
    assert [title.rsplit("(", 1)[1] for title in titles()] == ["m)", "m/s)", "N)"]
    panel.show_scene(load_preset("hanging-sheet"))
    assert [title.rsplit("(", 1)[1] for title in titles()] == [
        "units)",
        "units/s)",
        "mass·units/s²)",
    ]
