"""After a seek in a replay the Readouts plots hold the run from step 0 to the seek's step, row for
row as replaying the recording headless gives it: never pieces of different
seeks joined by straight lines."""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication, QSlider, QStyle, QStyleOptionSlider
from qt_helpers import WAIT_MS, settle

from clothlab.sim.core.readouts import CSV_COLUMNS, READOUTS
from clothlab.sim.document.commands import GrabMove, GrabRelease, GrabStart, SetSpeed
from clothlab.sim.document.recording import Recording
from clothlab.sim.document.scene import CameraSpec
from clothlab.sim.lab.engine import KEEP_EVERY, Engine
from clothlab.ui.docks.readouts_dock import envelope
from tests.ui.test_typed_values import type_into
from tests.ui.window.test_recorder import frame_step, pause, run_for

SCALES = {readout.key: readout.shown_scale for readout in READOUTS}


def record(qtbot, window, steps: int) -> Recording:
    """A recording of `steps` or more with a grab in it, so its rows are no plain fall."""
    controller = window.controller
    qtbot.waitUntil(lambda: controller.latest is not None, timeout=WAIT_MS)
    controller.submit(SetSpeed(math.inf))
    window.action_record.trigger()
    qtbot.waitUntil(lambda: controller.latest.steps == 0, timeout=WAIT_MS)
    run_for(qtbot, window, 30)
    controller.submit(GrabStart(160, (0.5, -1.0, 0.6)))
    controller.submit(GrabMove((1.5, -0.5, 1.0)))
    run_for(qtbot, window, 20)
    controller.submit(GrabRelease())
    run_for(qtbot, window, steps)
    pause(qtbot, window)
    window.action_record.trigger()
    return window.recorder.kept


def headless_rows(recording: Recording, step: int) -> np.ndarray:
    """The readout rows the replay of `recording` records from step 0 to `step`, as the app
    records them (every record_stride steps)."""
    engine = Engine.of(recording, record_every=None)
    engine.advance_to(step)
    return np.array(engine.take_rows())


def shown_rows(qtbot, window, step: int) -> np.ndarray:
    history = window.readouts_panel.history
    qtbot.waitUntil(lambda: frame_step(window) == step, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: len(history) and history.rows[-1, 0] == step, timeout=WAIT_MS)
    settle(window.controller)  # a late snapshot would have come by now
    return history.rows.copy()


def assert_plots_hold_the_replay(qtbot, window, recording: Recording, step: int) -> None:
    rows = shown_rows(qtbot, window, step)
    expected = headless_rows(recording, step)
    assert rows.shape == expected.shape, (step, rows[:, 0], expected[:, 0])
    assert np.array_equal(rows, expected, equal_nan=True), step
    # and the curves drawn are those rows' (the whole run fits the plots' 20 s window)
    panel = window.readouts_panel
    qtbot.waitUntil(lambda: not panel._dirty, timeout=WAIT_MS)
    t = expected[:, CSV_COLUMNS.index("t")]
    for key in ("motion", "max_speed", "max_stretch", "total_energy"):
        drawn_t, drawn = panel._curves[key].getData()
        assert np.all(np.diff(drawn_t) >= 0), f"{key}: a line drawn back in time at step {step}"
        values = expected[:, CSV_COLUMNS.index(key)] * SCALES[key]
        want_t, want = envelope(t, values, max(16, panel.plots[key].width()))
        assert np.array_equal(drawn_t, want_t) and np.array_equal(drawn, want), (key, step)


def test_after_every_seek_the_plots_hold_the_replay_from_step_0(qtbot, make_window):
    window = make_window()
    recording = record(qtbot, window, 2 * KEEP_EVERY + 100)
    assert recording.steps > 2 * KEEP_EVERY + 100
    window.controller.play(recording)
    bar = window.recorder.bar
    qtbot.waitUntil(bar.isVisible, timeout=WAIT_MS)
    assert_plots_hold_the_replay(qtbot, window, recording, 0)

    # forward past the kept states, back before them, forward from a kept state, and so on
    last = recording.steps
    for step in (2 * KEEP_EVERY + 20, 120, last - 10, KEEP_EVERY + 7, 33):
        bar.slider.setValue(step)  # a key or a click on the groove
        assert_plots_hold_the_replay(qtbot, window, recording, step)

    type_into(qtbot, bar.step_box, str(KEEP_EVERY * 2 + 1))  # a typed step
    assert_plots_hold_the_replay(qtbot, window, recording, KEEP_EVERY * 2 + 1)

    bar.slider.setFocus()
    qtbot.keyClick(bar.slider, Qt.Key.Key_End)  # real keys on the seek bar
    assert_plots_hold_the_replay(qtbot, window, recording, last)
    qtbot.keyClick(bar.slider, Qt.Key.Key_Left)
    assert_plots_hold_the_replay(qtbot, window, recording, last - 1)
    window.viewport.set_camera(CameraSpec(target=(0.3, 0.0, 0.0), distance=4.0, yaw=35.0))
    camera = window.viewport.camera_spec()  # not the scene's: Reset camera would change it
    qtbot.keyClick(bar.slider, Qt.Key.Key_Home)  # the slider's, not View ▸ Reset camera's
    assert_plots_hold_the_replay(qtbot, window, recording, 0)
    assert window.viewport.camera_spec() == camera

    # played on from a seek, then seeked back: still the one run from step 0
    bar.slider.setValue(200)
    assert_plots_hold_the_replay(qtbot, window, recording, 200)
    run_for(qtbot, window, 60)
    pause(qtbot, window)
    played_to = frame_step(window)
    assert_plots_hold_the_replay(qtbot, window, recording, played_to)
    bar.slider.setValue(150)
    assert_plots_hold_the_replay(qtbot, window, recording, 150)

    # seeks in quick succession, the replay running: the last one's run, from step 0
    window.controller.set_running(True)
    for step in (KEEP_EVERY + 60, 40, 2 * KEEP_EVERY + 5):
        bar.slider.setValue(step)
    assert_plots_hold_the_replay(qtbot, window, recording, 2 * KEEP_EVERY + 5)

    # a drag of the slider's handle with the mouse seeks where it is let go (paused: a running
    # replay moved the handle on past the range asserted before it was read)
    # The recording is longer than asked on a loaded machine (the pause comes late), so the
    # handle goes to a step's share of the groove, not to a fixed share.
    pause(qtbot, window)
    drag_handle(qtbot, bar.slider, (KEEP_EVERY + 40) / last)
    assert 0 < bar.slider.value() < 2 * KEEP_EVERY
    assert_plots_hold_the_replay(qtbot, window, recording, bar.slider.value())

    # an edit made in the replay, then a seek: the recording's run again (its scene reloaded)
    window.action_ball.trigger()
    qtbot.waitUntil(lambda: window.controller.undo_stack.count() == 1, timeout=WAIT_MS)
    run_for(qtbot, window, 30)
    pause(qtbot, window)
    bar.slider.setValue(KEEP_EVERY + 90)
    assert_plots_hold_the_replay(qtbot, window, recording, KEEP_EVERY + 90)


def drag_handle(qtbot, slider: QSlider, fraction: float) -> None:
    """Press on the handle, move it to `fraction` of the groove in steps, let go."""
    option = QStyleOptionSlider()
    slider.initStyleOption(option)
    style = slider.style()
    handle = style.subControlRect(QStyle.ComplexControl.CC_Slider, option,
                                  QStyle.SubControl.SC_SliderHandle, slider)  # fmt: skip
    start = handle.center()
    end = QPoint(round(fraction * slider.width()), start.y())
    qtbot.mousePress(slider, Qt.MouseButton.LeftButton, pos=start)
    for i in range(1, 9):
        at = start + (end - start) * (i / 8)
        move = QMouseEvent(QEvent.Type.MouseMove, QPointF(at), QPointF(slider.mapToGlobal(at)),
                           Qt.MouseButton.NoButton, Qt.MouseButton.LeftButton,
                           Qt.KeyboardModifier.NoModifier)  # fmt: skip
        QApplication.sendEvent(slider, move)
        QApplication.processEvents()  # what the move posted (the dragged step shown) is taken
    qtbot.mouseRelease(slider, Qt.MouseButton.LeftButton, pos=end)
