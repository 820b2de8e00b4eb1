"""Parameters and Readouts panels."""

from __future__ import annotations

import csv
import gc
import math
import sys
import time
from collections.abc import Callable

import numpy as np
import pytest
from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtWidgets import QCheckBox, QComboBox, QSpinBox

from clothlab.sim.core.parameters import PARAMETERS, Settings
from clothlab.sim.core.readouts import CSV_HEADER, READOUTS, column_key
from clothlab.sim.core.snapshot import take_snapshot
from clothlab.sim.document.files import write_atomically
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.requests import ChangeSetting
from clothlab.sim.document.scene import build_simulation
from clothlab.ui.docks.parameters_dock import FloatEditor, ParametersPanel
from clothlab.ui.docks.readouts_dock import COLUMNS, ReadoutsPanel, envelope


def test_every_declared_parameter_has_a_widget_of_its_kind(qtbot):
    panel = ParametersPanel()
    qtbot.addWidget(panel)
    assert set(panel.editors) == set(PARAMETERS)
    for key, parameter in PARAMETERS.items():
        expected = {bool: QCheckBox, int: QSpinBox, float: FloatEditor}[parameter.kind]
        if parameter.choices:
            expected = QComboBox
            assert panel.editors[key].count() == len(parameter.choices)
        assert isinstance(panel.editors[key], expected), key
        tooltip = panel.editors[key].toolTip()
        assert parameter.tooltip in tooltip
        if parameter.kind is not bool:
            assert f"{parameter.maximum:g}" in tooltip


def test_float_editor_uses_declared_range_and_unit(qtbot):
    panel = ParametersPanel()
    qtbot.addWidget(panel)
    gravity = panel.editors["gravity"]
    assert gravity.spin_box.minimum() == PARAMETERS["gravity"].minimum
    assert gravity.spin_box.maximum() == PARAMETERS["gravity"].maximum
    assert gravity.spin_box.suffix() == " units/s²"


def test_set_settings_shows_values_without_requesting_changes(qtbot):
    panel = ParametersPanel()
    qtbot.addWidget(panel)
    settings = Settings(passes=12, wind=3.0, ball=True)
    with qtbot.assertNotEmitted(panel.command_requested):
        panel.set_settings(settings)
    assert panel.editors["passes"].value() == 12
    assert panel.editors["wind"].value() == pytest.approx(3.0)
    assert panel.editors["ball"].isChecked()


def test_a_fabrics_world_settings_are_in_metres(qtbot):
    """Gravity in m/s² and lengths in m for a scene whose bodies have SI fabrics; the model's
    units for any other."""
    panel = ParametersPanel()
    qtbot.addWidget(panel)
    panel.show_scene(load_preset("hanging-strip"))
    assert panel.editors["gravity"].spin_box.suffix() == " m/s²"
    assert panel.editors["ball_radius"].spin_box.suffix() == " m"
    assert panel.editors["dt"].spin_box.suffix() == " s"
    panel.show_scene(load_preset("hanging-sheet"))
    assert panel.editors["gravity"].spin_box.suffix() == " units/s²"
    assert panel.editors["ball_radius"].spin_box.suffix() == " units"


def test_user_changes_become_requests(qtbot):
    panel = ParametersPanel()
    qtbot.addWidget(panel)
    panel.set_settings(Settings())
    with qtbot.waitSignal(panel.command_requested) as blocker:
        panel.editors["passes"].setValue(16)
    assert blocker.args == [ChangeSetting("passes", 16)]
    with qtbot.waitSignal(panel.command_requested) as blocker:
        panel.editors["ball"].setChecked(True)
    assert blocker.args == [ChangeSetting("ball", True)]
    with qtbot.waitSignal(panel.command_requested) as blocker:
        panel.editors["wind"].slider.setValue(panel.editors["wind"].slider.value() + 25)
    assert blocker.args[0].key == "wind"
    assert blocker.args[0].value == pytest.approx(2.5)


def snapshots(scene_name: str, count: int, steps_between: int = 3):
    sim = build_simulation(load_preset(scene_name))
    for frame in range(count):
        sim.step(steps_between)
        yield take_snapshot(sim, frame)


def test_readouts_record_and_show_current_values(qtbot):
    panel = ReadoutsPanel()
    qtbot.addWidget(panel)
    for snapshot in snapshots("hanging-sheet", 30):
        panel.add_snapshot(snapshot)
    panel.redraw()
    assert len(panel.history) == 30
    assert panel.value_labels["sag"].text().endswith("units")
    assert not panel.plots["volume"].isVisibleTo(panel)  # a sheet has no volume
    assert panel.plots["sag"].isVisibleTo(panel)
    panel.clear()
    assert len(panel.history) == 0


def test_readouts_of_a_block_show_volume_not_sag(qtbot):
    panel = ReadoutsPanel()
    qtbot.addWidget(panel)
    for snapshot in snapshots("soft-block", 5):
        panel.add_snapshot(snapshot)
    panel.redraw()
    assert panel.plots["volume"].isVisibleTo(panel)
    assert not panel.plots["sag"].isVisibleTo(panel)
    assert panel.value_labels["volume"].text().endswith("units³")


def test_a_fabrics_readouts_are_in_metres_and_joules_and_its_export_says_so(qtbot):
    """A run whose bodies have SI fabrics is in metres and kilograms: the panel shows m/s and J
    where a model-units run shows units/s and mass·units²/s², and its CSV header the same."""
    panel = ReadoutsPanel()
    qtbot.addWidget(panel)
    panel.show_scene(load_preset("hanging-strip"))
    for snapshot in snapshots("hanging-strip", 3):
        panel.add_snapshot(snapshot)
    panel.redraw()
    assert panel.si
    assert panel.value_labels["motion"].text().endswith(" m/s")
    assert panel.value_labels["total_energy"].text().endswith(" J")
    assert panel.value_labels["pin_force"].text().endswith(" N")
    header = panel.history.csv_text(si=panel.si).splitlines()[0].split(",")
    assert "total_energy (J)" in header and "motion (m/s)" in header
    panel.show_scene(load_preset("hanging-sheet"))
    for snapshot in snapshots("hanging-sheet", 2):
        panel.add_snapshot(snapshot)
    panel.redraw()
    assert not panel.si
    assert panel.value_labels["total_energy"].text().endswith(" mass·units²/s²")


def test_the_plotted_envelope_keeps_every_peak_the_ends_and_the_order():
    rng = np.random.default_rng(7)
    t = np.linspace(0.0, 20.0, 2401)
    values = np.sin(t) + 0.1 * rng.standard_normal(t.size)
    values[1234] = 9.0  # a one-sample spike must survive
    shown_t, shown = envelope(t, values, 300)
    assert len(shown) <= 602
    assert shown_t[0] == t[0] and shown_t[-1] == t[-1] and shown[-1] == values[-1]
    assert np.all(np.diff(shown_t) > 0)
    assert shown.max() == values.max() and shown.min() == values.min()
    # each pixel column's extremes are drawn within a column of where they are
    columns = np.minimum((t / 20.0 * 300).astype(int), 299)
    shown_columns = np.minimum((shown_t / 20.0 * 300).astype(int), 299)
    for column in range(300):
        near = shown[np.abs(shown_columns - column) <= 1]
        assert near.max() >= values[columns == column].max()
        assert near.min() <= values[columns == column].min()
    short = np.arange(10.0)
    assert envelope(short, short, 300)[1] is short  # few samples are drawn as they are


def test_a_one_sample_spike_anywhere_in_the_window_is_drawn_at_every_plot_width():
    """The envelope kept sample 0 and skipped samples 1 … (count mod width),
    so 1 500 samples on a 280-pixel plot left 0.008–0.825 s undrawn and a peak there vanished."""
    # every width from 50 px on 600 samples (from 299 px they are drawn one by one), and the
    # report's 1 500 samples on 280 px
    cases = [(600, width) for width in range(50, 2001) if 2 * width + 2 < 600]
    cases += [(1500, 280), (1077, 370)]
    for count, width in cases:
        t = np.arange(count) / 120.0
        for spike in range(count):
            values = np.zeros(count)
            values[spike] = 1.0
            shown_t, shown = envelope(t, values, width)
            assert shown.max() == 1.0 and t[spike] in shown_t, (count, width, spike)
            assert len(shown) <= 2 * width + 2
        # and no stretch of the window is drawn as one straight line: the points drawn are at
        # most two bins apart (a remainder of count % width samples lumped into one bin was)
        values = np.sin(t * 7.0)
        shown_t, _ = envelope(t, values, width)
        gaps = np.diff(np.searchsorted(t, shown_t))
        assert gaps.max() <= 2 * (count // width + 1), (count, width)


def test_a_steady_readout_keeps_its_value_range_from_redraw_to_redraw(qtbot):
    """A range that changes re-lays the axis (the costliest part of a redraw)."""
    panel = ReadoutsPanel()
    qtbot.addWidget(panel)
    stream = snapshots("hanging-sheet", 400)
    ranges = []
    for k, snapshot in enumerate(stream):
        panel.add_snapshot(snapshot)
        if k >= 300 and k % 10 == 0:  # settled: sag is steady
            panel.redraw()
            ranges.append(tuple(panel.plots["sag"].getPlotItem().viewRange()[1]))
    assert len(set(ranges)) == 1
    low, high = ranges[0]
    assert low < panel.history.rows[-1, COLUMNS.index("sag")] < high


def test_a_jump_back_in_time_starts_a_new_record(qtbot):
    panel = ReadoutsPanel()
    qtbot.addWidget(panel)
    for snapshot in snapshots("hanging-sheet", 5):
        panel.add_snapshot(snapshot)
    for snapshot in snapshots("hanging-sheet", 2, steps_between=1):  # a reset
        panel.add_snapshot(snapshot)
    assert len(panel.history) == 2


def test_pause_freezes_plots_but_keeps_recording(qtbot):
    panel = ReadoutsPanel()
    qtbot.addWidget(panel)
    stream = snapshots("hanging-sheet", 10)
    panel.add_snapshot(next(stream))
    panel.redraw()
    shown = panel.value_labels["sag"].text()
    panel.pause_button.click()
    for snapshot in stream:
        panel.add_snapshot(snapshot)
    panel.redraw()
    assert panel.value_labels["sag"].text() == shown
    assert len(panel.history) == 10


def test_export_csv_has_the_documented_columns(qtbot, tmp_path):
    panel = ReadoutsPanel()
    qtbot.addWidget(panel)
    for snapshot in snapshots("hanging-sheet", 4):
        panel.add_snapshot(snapshot)
    path = tmp_path / "readouts.csv"
    write_atomically(path, panel.history.csv_text().encode("utf-8"))
    with path.open() as stream:
        rows = list(csv.reader(stream))
    assert rows[0] == list(CSV_HEADER)  # each column's name with its unit: "t (s)"
    header = [column_key(name) for name in rows[0]]
    assert header == list(COLUMNS) == ["step", "t", *(r.key for r in READOUTS)]
    assert {"sag", "volume", "motion", "max_stretch", "links"} <= set(header)
    assert [int(row[0]) for row in rows[1:]] == [3, 6, 9, 12]
    assert rows[1][header.index("volume")] == ""  # no block, no volume
    assert int(rows[1][header.index("links")]) == 584
    assert math.isclose(float(rows[4][1]), 12 / 120)


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="None is immortal from Python 3.12")
def test_plot_updates_keep_none_alive(qtbot):
    """PySide6 6.12.0 drops a reference to None on void calls; on Python 3.11 a long run then
    dies with "deallocating None". Guard the readouts against it (see the report)."""
    panel = ReadoutsPanel()
    qtbot.addWidget(panel)
    panel.show()
    stream = list(snapshots("hanging-sheet", 400, steps_between=1))
    # windows of earlier tests that are still to be deleted would free their references
    # during the loop below
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()
    before = sys.getrefcount(None)
    for snapshot in stream:
        panel.add_snapshot(snapshot)
        panel.redraw()
    QCoreApplication.processEvents()  # what the redraws posted
    gc.collect()
    # a healthy binding stays within a few hundred (other objects come and go); 6.12.0 loses
    # about sixty references per redraw
    assert sys.getrefcount(None) - before > -5000, (
        "the Qt binding loses references to None (PySide6 6.12.0 on Python 3.11 does): "
        "a long session would crash; install PySide6-Essentials < 6.12"
    )


def later(clock: Callable[[], float], seconds: float) -> Callable[[], float]:
    return lambda: clock() + seconds


def test_a_slider_drag_is_one_undo_entry_and_two_drags_are_two(qtbot, make_window, monkeypatch):
    """Real mouse drags on the Wind slider of the Parameters panel."""
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtTest import QTest

    window = make_window(paused=True)
    window.parameters_dock.raise_()
    slider = window.parameters_panel.editors["wind"].slider
    qtbot.waitExposed(slider)
    stack = window.controller.undo_stack

    def drag(to_x: list[int], held_s: float = 0.0) -> None:
        """Press, move through `to_x`, release; held `held_s` seconds longer between moves by
        every clock Python reads (moved on, not waited out)."""
        y = slider.height() // 2
        handle = QPoint(slider.width() // 2, y)  # wind 0 sits in the middle of −100…100
        QTest.mousePress(slider, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, handle)
        for x in to_x:
            QTest.mouseMove(slider, QPoint(x, y), 20)
            if held_s:
                for clock in ("monotonic", "perf_counter", "time"):
                    monkeypatch.setattr(time, clock, later(getattr(time, clock), held_s))
        QTest.mouseRelease(
            slider, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QPoint(to_x[-1], y)
        )

    middle = slider.width() // 2
    drag([middle + 10, middle + 20, middle + 30])
    assert stack.count() == 1
    window.parameters_panel.set_value("wind", 0.0)  # the handle back where the next drag starts
    drag([middle - 10, middle - 20])
    assert stack.count() == 2  # two drags, two entries, however close together
    window.parameters_panel.set_value("wind", 0.0)
    drag([middle + 15, middle + 25], held_s=1.0)  # one slow drag with long pauses
    assert stack.count() == 3
    assert stack.text(2).startswith("Set wind")


def test_a_message_shown_before_the_window_does_not_draw_over_the_tool_hint(qtbot):
    from PySide6.QtWidgets import QMainWindow

    from clothlab.ui.window.status_bar import StatusBar

    window = QMainWindow()
    qtbot.addWidget(window)
    status = StatusBar("Grab: drag the cloth")
    window.setStatusBar(status)
    status.showMessage("Replaying 720 steps", 0)  # as a replay opened at start-up says
    window.show()
    qtbot.waitExposed(window)
    assert not status.tool_label.isVisible()
    status.clearMessage()
    assert status.tool_label.isVisible()


def test_a_first_step_that_takes_long_says_the_solver_is_being_prepared(qtbot):
    """A cold start compiles the solver for seconds: the status bar says so, not 0 fps alone."""
    from clothlab.ui.window.status_bar import PREPARING, PREPARING_AFTER_MS, StatusBar

    status = StatusBar("Grab: drag the cloth")
    qtbot.addWidget(status)
    stream = snapshots("hanging-sheet", 3, steps_between=1)
    status.show_running(True)
    status.show_scene(load_preset("hanging-sheet"))
    status.show_snapshot(take_snapshot(build_simulation(load_preset("hanging-sheet")), 0))
    qtbot.waitUntil(lambda: status.currentMessage() == PREPARING, timeout=4 * PREPARING_AFTER_MS)
    status.show_snapshot(next(stream))  # the first step is done
    assert status.currentMessage() == ""
    status.show_scene(load_preset("hanging-sheet"))  # a quick one says nothing
    status.show_snapshot(take_snapshot(build_simulation(load_preset("hanging-sheet")), 0))
    status.show_snapshot(next(stream))
    assert not status._preparing.isActive()  # no "Preparing" is still to come
    assert status.currentMessage() == ""
