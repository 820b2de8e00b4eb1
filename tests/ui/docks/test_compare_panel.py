"""The Compare panel in the real window: variants typed, run alongside the main run on their own
thread, plotted and tabled; their values are exactly a headless sim.lab.variants run's; a bad entry
runs nothing; Stop stops; an edit makes the comparison stale."""

from __future__ import annotations

import math

import numpy as np
import pytest
from PySide6.QtWidgets import QApplication
from qt_helpers import WAIT_MS, assert_whole, snapshot_crc

from clothlab.app import compare_runner
from clothlab.sim.core.readouts import CSV_COLUMNS
from clothlab.sim.lab.engine import Engine
from clothlab.sim.lab.variants import changed, run_variant
from clothlab.ui.docks.compare_dock import STALE_TEXT, ComparePanel
from clothlab.ui.docks.panels import Panel

ONE_SECOND = 120  # steps of 1/120 s


def type_variants(panel: ComparePanel, *texts: str) -> None:
    for row, text in zip(panel.rows, texts, strict=False):
        row.edit.setText(text)


def run_for(qtbot, window, steps: int) -> None:
    qtbot.waitUntil(lambda: window.controller.latest is not None, timeout=WAIT_MS)
    window.controller.set_running(True)
    qtbot.waitUntil(lambda: window.controller.latest.steps >= steps, timeout=10 * WAIT_MS)


def caught_up(window) -> bool:
    """Every running variant has reached the main run's newest step."""
    runner, steps = window.compare_panel.runner, window.controller.latest.steps
    return all(run.steps >= steps for run in runner.runs if run.status == "running")


def test_variants_run_alongside_and_match_a_headless_run(qtbot, compare_window):
    window = compare_window()
    panel, controller = window.compare_panel, window.controller
    assert isinstance(panel, Panel) and panel in window.panels
    assert window.compare_dock.toggleViewAction() in window.panels_menu.actions()
    type_variants(panel, "passes=4", "passes=16")
    qtbot.waitUntil(lambda: controller.latest is not None, timeout=WAIT_MS)
    panel.run_button.click()
    runner = panel.runner
    assert runner.running and panel.run_button.text() == "Stop"
    run_for(qtbot, window, ONE_SECOND)
    controller.set_running(False)
    qtbot.waitUntil(lambda: not controller.running, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: caught_up(window), timeout=WAIT_MS)
    panel.run_button.click()  # Stop
    assert not runner.running and panel.run_button.text() == "Run"
    panel.redraw()

    # never ahead of the main run, and caught up with it once it paused
    main_steps = controller.latest.steps
    assert [run.steps for run in runner.runs] == [main_steps, main_steps]
    assert [run.status for run in runner.runs] == ["stopped", "stopped"]
    # one curve for the main run and one per variant, with points up to the step reached
    assert len(panel._curves) == 3
    for curve in panel._curves:
        x, _y = curve.getData()
        assert x is not None and len(x) > 100
    assert [item.text for _sample, item in panel.legend.items] == [
        "as is", "passes=4", "passes=16",
    ]  # fmt: skip

    sag4, sag16 = panel.value("passes=4", "sag"), panel.value("passes=16", "sag")
    assert sag4 > sag16 > 0  # fewer passes leave the links longer: the sheet sags more

    # exactly what a headless run of the same variant to the same step gives
    recording = controller.recording()
    for run in runner.runs:
        headless = run_variant(recording, run.variant.changes, run.steps, keep_rows=False)
        assert headless.failure is None
        expected = headless.final_row
        assert np.array_equal(np.array(run.final), np.array(expected), equal_nan=True)
        for key in ("sag", "motion", "max_stretch", "total_energy"):
            value = expected[CSV_COLUMNS.index(key)]
            assert panel.value(run.variant.name, key) == value  # as floats, not as shown


def test_a_bad_entry_shows_its_error_and_runs_nothing(qtbot, compare_window):
    window = compare_window(paused=True)
    panel = window.compare_panel
    qtbot.waitUntil(lambda: window.controller.latest is not None, timeout=WAIT_MS)
    type_variants(panel, "passes=4", "pases=16")
    panel.run_button.click()
    assert not panel.runner.running and panel.runner.runs == []
    assert panel.rows[1].error_label.isVisible()
    assert "pases: unknown setting" in panel.rows[1].error_label.text()
    assert not panel.rows[0].error_label.isVisible()
    panel.rows[1].edit.setText("passes=16")  # typing clears the error
    assert not panel.rows[1].error_label.isVisible()


def test_a_blow_up_or_a_bad_value_stops_only_that_variant(qtbot, compare_window, monkeypatch):
    class BlowingUp(Engine):  # passes=1 "blows up" at step 40: the model's guard is tested in sim
        def advance(self, count: int, deadline: float | None = None) -> int:
            if self.sim.settings.passes != 1:
                return super().advance(count, deadline)
            taken = super().advance(min(count, 40 - self.steps), deadline)
            self.blew_up = self.steps >= 40 and taken < count
            return taken

    monkeypatch.setattr(compare_runner, "Engine", BlowingUp)
    window = compare_window(paused=True)
    panel, controller = window.compare_panel, window.controller
    first = panel.rows[0].presets
    first.activated.emit(first.findText("passes 16"))
    assert panel.rows[0].edit.text() == "passes=16"
    type_variants(panel, "passes=16", "passes=1", "cols=512,width=0.01")
    qtbot.waitUntil(lambda: controller.latest is not None, timeout=WAIT_MS)
    panel.run_button.click()
    run_for(qtbot, window, ONE_SECOND)
    qtbot.waitUntil(lambda: panel.runner.runs[0].steps >= ONE_SECOND, timeout=WAIT_MS)
    panel.redraw()
    good, blown, bad = panel.runner.runs
    assert good.status == "running" and panel.status("passes=16") == "running"
    assert blown.status == "blew up at step 41" and blown.steps == 40
    assert panel.status("passes=1") == "blew up at step 41"
    assert bad.status.startswith("bad value: ") and bad.final is None
    assert panel.status("cols=512,width=0.01").startswith("bad value: ")


def test_stop_and_an_edit_makes_the_comparison_stale(qtbot, compare_window):
    window = compare_window()
    panel, controller = window.compare_panel, window.controller
    type_variants(panel, "xpbd=on")
    qtbot.waitUntil(lambda: controller.latest is not None, timeout=WAIT_MS)
    panel.run_button.click()
    run_for(qtbot, window, 30)
    qtbot.waitUntil(lambda: panel.runner.runs[0].steps >= 10, timeout=WAIT_MS)
    controller.set_setting("passes", 12)  # an edit: the variant no longer follows the run
    qtbot.waitUntil(lambda: not panel.runner.running, timeout=WAIT_MS)
    assert STALE_TEXT in panel.message_label.text()
    assert panel.runner.runs[0].status == "stopped"
    steps = panel.runner.runs[0].steps
    assert panel.runner._last_worker._thread.isFinished()  # its thread ended
    QApplication.sendPostedEvents()  # what it posted on the way out
    assert panel.runner.runs[0].steps == steps  # stopped means stopped
    assert not math.isnan(panel.value("xpbd=on", "sag"))


def choose_beside(panel: ComparePanel, row: int | None) -> None:
    panel.beside_box.setCurrentIndex(panel.beside_box.findData(row))


def shown_steps(window) -> int:
    snapshot = window.compare_panel.side_view.viewport.snapshot()
    return -1 if snapshot is None else snapshot.steps


def test_a_variant_is_shown_beside_the_main_view(qtbot, compare_window):
    window = compare_window()
    panel, controller = window.compare_panel, window.controller
    side = panel.side_view
    assert side.isHidden()  # "none" at first
    type_variants(panel, "passes=16", "passes=2")
    choose_beside(panel, 1)
    assert side.isVisible() and "passes=2" in side.caption.text()
    qtbot.waitUntil(lambda: controller.latest is not None, timeout=WAIT_MS)
    panel.run_button.click()
    assert side.caption.text() == "passes=2"
    run_for(qtbot, window, ONE_SECOND // 2)
    controller.set_running(False)
    qtbot.waitUntil(lambda: not controller.running, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: caught_up(window), timeout=WAIT_MS)
    run = panel.runner.runs[1]
    qtbot.waitUntil(lambda: shown_steps(window) == run.steps, timeout=WAIT_MS)

    # the variant's own cloth, exactly as a headless run of it to that step
    snapshot = side.viewport.snapshot()
    crc = snapshot_crc(snapshot)
    assert snapshot.steps >= ONE_SECOND // 2
    engine = Engine.of(changed(controller.recording(), run.variant.changes))
    assert engine.advance_to(snapshot.steps) == snapshot.steps
    assert np.array_equal(snapshot.x, engine.sim.state.x)
    main = controller.latest
    assert main.steps == snapshot.steps and not np.array_equal(main.x, snapshot.x)

    # seen with the main view's camera, following it when it moves
    assert side.viewport.camera_spec() == window.viewport.camera_spec()
    spec = window.viewport.camera_spec()
    window.viewport.set_camera(spec.model_copy(update={"yaw": spec.yaw + 30.0}))
    assert side.viewport.camera_spec() == window.viewport.camera_spec()
    # the main view keeps its own size beside the second one
    assert window.viewport.isVisible() and window.viewport.width() > 100
    # and the variant's snapshot stayed whole while it was shown and compared
    assert_whole(snapshot, crc)

    assert side.main_caption.isVisible() and side.main_caption.text() == "as is"
    choose_beside(panel, None)
    assert side.isHidden() and not side.main_caption.isVisible()


@pytest.mark.gl
def test_the_second_view_draws_the_variants_cloth(qtbot, compare_window):
    from tests.ui.viewport.test_viewport_gl import cloth_fraction

    window = compare_window(paused=True)
    panel = window.compare_panel
    side = panel.side_view
    type_variants(panel, "passes=4")
    qtbot.waitUntil(lambda: window.controller.latest is not None, timeout=WAIT_MS)
    panel.run_button.click()
    choose_beside(panel, 0)
    qtbot.waitUntil(lambda: side.viewport.snapshot() is not None, timeout=WAIT_MS)
    with qtbot.waitSignal(side.viewport.frame_drawn, timeout=WAIT_MS):
        side.viewport.update()
    image = side.viewport.grabFramebuffer()
    assert cloth_fraction(image) > 0.05
