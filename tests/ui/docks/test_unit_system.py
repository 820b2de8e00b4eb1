"""One unit system per scene, named the same in every panel: model units (mass 1 a particle)
are never called newtons, and a fabric chosen mid-run switches the panels, the plots' history
and the Scene panel's settings to SI units together."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt
from qt_helpers import WAIT_MS

from clothlab.ui.selection import Selection
from tests.ui.docks.test_fabrics_panel import choose
from tests.ui.docks.test_scene_model import find_value

MODEL_FORCE = "mass·units/s²"


def running(qtbot, window):
    qtbot.waitUntil(lambda: window.controller.latest is not None, timeout=WAIT_MS)
    window.controller.set_running(True)
    return window


def pin_force_text(window) -> str:
    return window.readouts_panel.value_labels["pin_force"].text()


def scene_text(window, address) -> str:
    return find_value(window.scene_model, address).data()


def tooltip(window, address) -> str:
    return find_value(window.scene_model, address).data(Qt.ItemDataRole.ToolTipRole)


def first_pin_force_row(window) -> str:
    """The Scene panel's reading of the first listed pin's force."""
    model = window.scene_model
    pins = next(
        model.index(row, 0)
        for row in range(model.rowCount())
        if model.is_pins_group(model.index(row, 0))
    )
    particle = model.index(0, 0, pins)
    readings = [model.index(row, 1, particle) for row in range(model.rowCount(particle))]
    return next(r.data() for r in readings if r.siblingAtColumn(0).data() == "Force")


def test_a_model_units_scene_never_calls_its_forces_newtons(qtbot, make_window):
    window = running(qtbot, make_window("hanging-sheet"))
    qtbot.waitUntil(lambda: pin_force_text(window) != "—", timeout=WAIT_MS)
    assert pin_force_text(window).endswith(f" {MODEL_FORCE}")
    assert window.readouts_panel.value_labels["max_tension"].text().endswith(f" {MODEL_FORCE}")
    qtbot.waitUntil(lambda: first_pin_force_row(window) != "—", timeout=WAIT_MS)
    assert f" {MODEL_FORCE}  (" in first_pin_force_row(window)
    assert " N" not in first_pin_force_row(window)
    assert scene_text(window, ("setting", "gravity")) == "9.8 units/s²"


def test_a_fabric_chosen_mid_run_switches_every_panel_to_si_units(qtbot, make_window):
    window = running(qtbot, make_window("hanging-sheet"))
    panel, history = window.readouts_panel, window.readouts_panel.history
    # 165 particles of mass 1 at 9.8 units/s² weigh 1617 mass·units/s²
    qtbot.waitUntil(lambda: np.nanmax([0, *history.column("pin_force")]) > 1000, timeout=WAIT_MS)
    model_weight = float(np.nanmax(history.column("pin_force")))
    window.parameters_dock.raise_()
    window.editor.selection.select(Selection("body", 0))
    choose(qtbot, window.parameters_panel.body_group.material, "denim — 350 g/m²")
    qtbot.waitUntil(lambda: pin_force_text(window).endswith(" N"), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: len(history) > 10, timeout=WAIT_MS)
    # the plots hold the run since the fabric only: no model-unit row under the SI labels
    assert (
        panel.si and float(np.nanmax(history.column("pin_force"))) < 0.05 * model_weight
    )  # a denim sheet weighs ≈ 19 N
    assert scene_text(window, ("body", 0, "width")).endswith(" m")
    assert scene_text(window, ("setting", "gravity")) == "9.8 m/s²"
    assert scene_text(window, ("setting", "drag")).endswith(" 1/m")
    drag = window.parameters_panel.editors["drag"]
    assert drag.spin_box.suffix() == " 1/m"  # the Parameters panel says the same
    # and the tooltips give the ranges in the same units
    assert tooltip(window, ("body", 0, "width")).endswith(" m.")
    assert tooltip(window, ("ball_center", 0)).endswith(" m.")
    assert "units" not in tooltip(window, ("ball_center", 0))
    gravity_tip = window.parameters_panel.labels["gravity"].toolTip()
    assert "m/s²" in gravity_tip and "units" not in gravity_tip
    qtbot.waitUntil(lambda: first_pin_force_row(window).split("  (")[0].endswith(" N"))
    last_si_step = history.rows[-1, 0]
    window.action_undo.trigger()  # back to model units: the SI rows go too
    qtbot.waitUntil(lambda: pin_force_text(window).endswith(MODEL_FORCE), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: len(history) > 10, timeout=WAIT_MS)
    assert not panel.si and history.rows[0, 0] > last_si_step
    assert scene_text(window, ("setting", "gravity")) == "9.8 units/s²"


def test_a_replay_that_crosses_a_fabric_change_plots_one_unit_system_at_a_time(qtbot, make_window):
    """A recorded run given denim mid-way, replayed: at its end the plots hold the rows since
    the fabric only, in N; seeked back before it, the rows from step 0, in model units."""
    window = running(qtbot, make_window("hanging-sheet"))
    controller, history = window.controller, window.readouts_panel.history
    window.action_record.trigger()
    qtbot.waitUntil(lambda: controller.latest.steps >= 60, timeout=WAIT_MS)
    window.parameters_dock.raise_()
    window.editor.selection.select(Selection("body", 0))
    choose(qtbot, window.parameters_panel.body_group.material, "denim — 350 g/m²")
    qtbot.waitUntil(lambda: pin_force_text(window).endswith(" N"), timeout=WAIT_MS)
    changed_at = next(s.step for s in controller.journal[1:] if "denim" in repr(s.command))
    qtbot.waitUntil(lambda: controller.latest.steps >= changed_at + 60, timeout=WAIT_MS)
    window.action_record.trigger()
    recording = window.recorder.kept
    controller.play(recording)
    bar = window.recorder.bar
    qtbot.waitUntil(bar.isVisible, timeout=WAIT_MS)
    bar.slider.setValue(recording.steps)
    qtbot.waitUntil(
        lambda: len(history) and history.rows[-1, 0] == recording.steps, timeout=WAIT_MS
    )
    qtbot.waitUntil(lambda: pin_force_text(window).endswith(" N"), timeout=WAIT_MS)
    assert window.readouts_panel.si
    assert history.rows[0, 0] >= changed_at  # no model-unit row under the SI labels
    bar.slider.setValue(changed_at - 20)
    qtbot.waitUntil(
        lambda: len(history) and history.rows[-1, 0] == changed_at - 20, timeout=WAIT_MS
    )
    assert not window.readouts_panel.si and history.rows[0, 0] == 0
    assert np.nanmin(history.column("pin_force")[1:]) > 100.0  # 165 particles of mass 1
