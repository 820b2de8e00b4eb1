"""Real fabrics in the window: the Selected body group's fabric chooser
and SI numbers, the Validation panel and Fit my fabric, driven by real clicks and typing."""

from __future__ import annotations

import csv
import io
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QComboBox, QFileDialog, QLabel
from qt_helpers import WAIT_MS, a_frame_drawn, layout_settled
from sim_helpers import WIRING_MESHES

from clothlab.sim.core import constraints
from clothlab.sim.core.constraint_sets import SolveReport
from clothlab.sim.core.materials import SI_FABRICS
from clothlab.sim.core.parameters import Settings
from clothlab.sim.document import composition
from clothlab.sim.document.scene import SIMaterialSpec
from clothlab.sim.lab import textile
from clothlab.ui.docks.parameters_dock import OWN_FABRIC, model_note, solve_note
from clothlab.ui.selection import Selection
from clothlab.ui.user_fabrics import UserFabrics, fabrics_file
from tests.ui.test_typed_values import type_into

SHOTS = Path("/tmp/fabricsui")


def choose(qtbot, combo: QComboBox, text_start: str) -> None:
    """Open the combo's list with a click and click the entry whose text starts so."""
    row = next(r for r in range(combo.count()) if combo.itemText(r).startswith(text_start))
    # first: a window not active when its popup opens is not made active by it (Xvfb has no
    # window manager), and the fields typed into next take no focus
    combo.window().activateWindow()
    qtbot.waitUntil(combo.window().isActiveWindow, timeout=WAIT_MS)
    qtbot.mouseClick(combo, Qt.MouseButton.LeftButton)
    view = combo.view()
    qtbot.waitUntil(view.isVisible, timeout=WAIT_MS)
    index = combo.model().index(row, 0)
    view.scrollTo(index)
    # Qt's popup ignores a release within a double-click interval of opening (a press-drag-release)
    qtbot.wait(QApplication.doubleClickInterval() + 100)
    qtbot.mouseClick(
        view.viewport(), Qt.MouseButton.LeftButton, pos=view.visualRect(index).center()
    )
    qtbot.waitUntil(lambda: not view.isVisible(), timeout=WAIT_MS)


def selected_sheet(make_window):
    window = make_window(paused=True)
    window.parameters_dock.raise_()
    window.editor.selection.select(Selection("body", 0))
    return window, window.parameters_panel.body_group


def test_choose_denim_type_a_density_and_undo(qtbot, make_window):
    window, group = selected_sheet(make_window)
    controller = window.controller
    choose(qtbot, group.material, "denim — 350 g/m², B 9.0e-5 N·m")
    fabric = controller.scene.bodies[0].si_material
    assert fabric is not None and fabric.name == "denim"
    assert fabric.material == SI_FABRICS["denim"]
    assert controller.undo_stack.text(0) == "Set sheet to denim"
    assert group.fabric_fields.isVisible() and not group.stiffness.isVisible()
    # (9e-5/(0.35·9.8))^⅓, named by how it is found
    assert group.fabric_fields.bending_length.text() == "c = 2.97 cm from (B/ρg)^⅓"
    density = group.fabric_fields.boxes["areal_density"]
    assert density.value() == 350.0
    type_into(qtbot, density, "420")
    fabric = controller.scene.bodies[0].si_material
    assert fabric.areal_density == pytest.approx(0.42) and fabric.name == "denim (changed)"
    assert fabric.bending_warp == SI_FABRICS["denim"].bending_warp  # the rest as it was
    assert controller.undo_stack.count() == 2
    assert group.fabric_fields.bending_length.text() == "c = 2.80 cm from (B/ρg)^⅓"
    assert group.material.currentText().startswith("denim (changed) — 420 g/m²")
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert window.parameters_dock.grab().save(str(SHOTS / "selected-body-fabric.png"))
    window.action_undo.trigger()
    assert controller.scene.bodies[0].si_material.areal_density == 0.35
    assert density.value() == 350.0
    assert group.material.currentText().startswith("denim — 350 g/m²")
    window.action_undo.trigger()
    assert controller.scene.bodies[0].si_material is None
    assert group.material.currentText() == "World settings"


def test_a_density_out_of_range_is_refused_in_one_line(qtbot, make_window):
    window, group = selected_sheet(make_window)
    choose(qtbot, group.material, "silk")  # the model-units silk: no SI numbers shown
    assert window.controller.scene.bodies[0].material == "silk"
    assert not group.fabric_fields.isVisible()
    choose(qtbot, group.material, "silk — 55 g/m²")
    said = []
    window.parameters_panel.refused.connect(said.append)
    type_into(qtbot, group.fabric_fields.boxes["areal_density"], "0")
    assert said == ["Areal density 0: expected 1…10000 g/m²"]
    assert window.controller.scene.bodies[0].si_material.areal_density == 0.055
    assert window.controller.undo_stack.count() == 2


def test_the_bias_shows_the_mean_until_typed_and_refuses_under_a_quarter(qtbot, make_window):
    window, group = selected_sheet(make_window)
    choose(qtbot, group.material, "cotton — 120 g/m², B 1.2e-5 N·m")  # no bias of its own
    bias = group.fabric_fields.boxes["bending_bias"]
    assert bias.value() == 10.0  # µN·m: the mean of cotton's 12 and 8
    said = []
    window.parameters_panel.refused.connect(said.append)
    type_into(qtbot, bias, "4")  # under (12 + 8) / 4 = 5
    assert said == [
        "Bending bias 4 µN·m: under a quarter of warp + weft (5 µN·m), the least a fabric "
        "resists with along its bias"
    ]
    assert window.controller.scene.bodies[0].si_material.bending_bias is None
    assert bias.value() == 10.0
    type_into(qtbot, bias, "100")
    fabric = window.controller.scene.bodies[0].si_material
    assert fabric.bending_bias == pytest.approx(1e-4) and fabric.name == "cotton (changed)"
    assert fabric.material.torsion == pytest.approx(4e-4 - 2e-5)
    warp = group.fabric_fields.boxes["bending_warp"]
    type_into(qtbot, warp, "500")  # (500 + 8) / 4 = 127 > the bias typed, 100
    assert said[1] == (
        "Bending warp 500 µN·m: the bending bias, 100 µN·m, would be under a quarter of warp + "
        "weft (127 µN·m); raise the bias first"
    )
    assert window.controller.scene.bodies[0].si_material == fabric and warp.value() == 12.0
    choose(qtbot, group.material, "denim — 350 g/m²")
    assert bias.value() == 68.0  # µN·m: denim's own, measured along its bias


def test_a_block_is_offered_no_si_fabric(qtbot, make_window):
    window = make_window("soft-block", paused=True)
    block = next(i for i, b in enumerate(window.controller.scene.bodies) if b.kind == "block")
    window.editor.selection.select(Selection("body", block))
    combo = window.parameters_panel.body_group.material
    model = combo.model()
    rows = {combo.itemText(r): model.item(r).isEnabled() for r in range(combo.count())}
    assert rows["denim"] and rows["World settings"]
    assert not rows[next(t for t in rows if t.startswith("denim —"))]
    assert not rows[OWN_FABRIC]


# --- the Validation panel ------------------------------------------------------------------------


def click(qtbot, widget) -> None:
    """A left click inside what the widget draws: a check box stretched by its layout takes
    clicks on its box and text only, not at the middle of its width."""
    where = QPoint(min(widget.sizeHint().width(), widget.width()) // 2, widget.height() // 2)
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton, pos=where)


def validation_panel(qtbot, window, fabrics: list[str], tests: list[str]):
    """Lab ▸ Validate fabrics…, then tick exactly these fabrics and tests by clicking."""
    window.action_validate_fabrics.trigger()
    assert window.validation_dock.isVisible()
    panel = window.validation_panel
    for name, box in [*panel.fabric_checks.items(), *panel.test_checks.items()]:
        if box.isChecked() != (name in fabrics or name in tests):
            click(qtbot, box)
            assert box.isChecked() == (name in fabrics or name in tests), name
    return panel


def test_validation_of_denim_fills_rows_equal_to_the_checks_exports_and_opens(
    qtbot, make_window, monkeypatch, tmp_path
):
    monkeypatch.setattr(textile, "CHECK_COLS", WIRING_MESHES)
    window = make_window(paused=True)
    assert not window.validation_dock.isVisible()  # hidden by default
    panel = validation_panel(qtbot, window, ["denim"], ["cantilever", "cusick-drape"])
    click(qtbot, panel.run_button)
    assert panel.running and not panel.run_button.isEnabled()
    qtbot.waitUntil(lambda: not panel.running and panel.run_thread is None, timeout=600_000)
    assert [(c.fabric, c.test) for c in panel.checks] == [
        ("denim", "cantilever"), ("denim", "cusick-drape")
    ]  # fmt: skip
    expected = textile.cantilever_check("denim", SI_FABRICS["denim"])
    assert panel.checks[0] == expected
    row = [panel.table.item(0, c).text() for c in range(panel.table.columnCount())]
    assert row[2] == ("PASS" if expected.passed else "OUT")
    assert (
        row[3] == f"{expected.measured:.4g} cm"
        and row[4] == f"{expected.low:.4g}…{expected.high:.4g} cm"
    )
    assert row[5] == expected.note
    drape = panel.checks[1]
    assert panel.table.item(1, 3).text() == f"{drape.measured:.4g} %"
    assert panel.progress.text().startswith("Done: 2 of 2 checks")
    # the drape picture: the shadow and its title, as measured
    panel.table.selectRow(1)
    specimen = panel.picture.specimen
    assert specimen is not None and specimen.drape_coefficient == drape.measured
    assert panel.picture_title.text() == (
        f"denim from above: drape coefficient {drape.measured:.1f} %, {specimen.folds} folds"
    )
    image = panel.picture.grab().toImage()
    middle = image.pixelColor(image.width() // 2, image.height() // 2)
    assert middle.red() == middle.green() == middle.blue() == 150  # the shadow's grey
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert window.validation_dock.grab().save(str(SHOTS / "validation-panel.png"))
    # Export CSV…: through the project's file dialog, read back
    target = tmp_path / "checks.csv"
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", lambda *args, **kwargs: (str(target), "CSV files (*.csv)")
    )
    click(qtbot, panel.export_button)
    rows = list(csv.reader(io.StringIO(target.read_text(encoding="utf-8"))))
    assert rows == list(csv.reader(io.StringIO(textile.checks_csv(panel.checks))))
    assert rows[1][:2] == ["denim", "cantilever"] and float(rows[1][3]) == pytest.approx(
        expected.measured, rel=1e-5
    )
    # Open in view: the cantilever of denim in the main window
    panel.table.selectRow(0)
    click(qtbot, panel.open_button)
    scene = window.controller.scene
    assert scene.name == "Cantilever bending test (ASTM D1388)"
    assert scene.bodies[0].si_material == SIMaterialSpec.of("denim", SI_FABRICS["denim"])
    a_frame_drawn(qtbot, window.viewport)  # a frame of the cantilever in the view
    window.resize(1600, 900)
    layout_settled(qtbot, window)
    a_frame_drawn(qtbot, window.viewport)
    assert window.window_image().save(str(SHOTS / "window-validation.png"))


def test_cancel_stops_a_validation_between_checks_and_the_window_keeps_responding(
    qtbot, make_window
):
    window = make_window(paused=True)
    panel = validation_panel(qtbot, window, ["silk", "cotton"], ["cantilever", "hanging-strip"])
    ticks = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(1))
    timer.start(50)
    click(qtbot, panel.run_button)
    assert panel.table.rowCount() == 4
    qtbot.waitUntil(lambda: len(panel.checks) >= 1, timeout=300_000)
    click(qtbot, panel.cancel_button)
    qtbot.waitUntil(lambda: panel.run_thread is None, timeout=300_000)
    timer.stop()
    assert 1 <= len(panel.checks) < 4
    notes = [panel.table.item(r, 5).text() for r in range(4)]
    assert notes.count("cancelled") == 4 - len(panel.checks)
    assert panel.progress.text().startswith(f"Cancelled: {len(panel.checks)} of 4 checks")
    assert len(ticks) >= 5  # the GUI thread's timers ran while the checks did
    assert panel.run_button.isEnabled() and panel.export_button.isEnabled()


def test_the_panel_drapes_as_many_specimens_as_typed_and_refuses_more_than_the_most(
    qtbot, make_window
):
    window = make_window(paused=True)
    panel = validation_panel(qtbot, window, ["silk"], ["cantilever"])
    box = panel.specimens_box
    assert box.value() == 1 and box.maximum() == textile.MAX_SPECIMENS
    type_into(qtbot, box, str(textile.MAX_SPECIMENS + 1))
    assert box.value() == 1  # refused, not clamped to the most
    type_into(qtbot, box, "3")
    assert box.value() == 3
    click(qtbot, panel.run_button)
    assert panel.run_thread is not None and panel.run_thread.specimens == 3
    qtbot.waitUntil(lambda: panel.run_thread is None, timeout=300_000)
    assert [(c.fabric, c.test) for c in panel.checks] == [("silk", "cantilever")]


# --- Fit my fabric -------------------------------------------------------------------------------


def test_fit_denim_from_its_density_and_overhang_then_save_and_choose_it(qtbot, make_window):
    window, group = selected_sheet(make_window)
    denim = SI_FABRICS["denim"]
    choose(qtbot, group.material, OWN_FABRIC)  # "Your own…" opens Fit my fabric
    dialog = window.fit_dialog
    qtbot.waitExposed(dialog)
    assert window.controller.undo_stack.count() == 0  # choosing it changed nothing
    type_into(qtbot, dialog.density, "350")
    type_into(qtbot, dialog.overhang, f"{2 * denim.bending_length() * 100:.3f}")
    assert dialog.density.value() == 350.0
    assert dialog.overhang.value() == pytest.approx(2 * denim.bending_length() * 100, abs=1e-3)
    assert dialog.angle.value() == 41.5
    click(qtbot, dialog.fit_button)
    qtbot.waitUntil(lambda: dialog.fit_run is None, timeout=600_000)
    fit = dialog.fit
    assert fit is not None, dialog.result_line.text()
    assert fit.bending_rigidity == pytest.approx(9e-5, rel=0.05), (fit.guess, fit.swept)
    assert len(fit.swept) == 5 and dialog.result_line.text().startswith("B = 9.0")
    assert fit.material.areal_density == pytest.approx(0.35)
    dialog.name.setFocus()
    qtbot.keyClicks(dialog.name, "denim")
    click(qtbot, dialog.save_button)
    assert dialog.save_line.text() == "denim is a preset fabric: choose another name"
    dialog.name.clear()
    qtbot.keyClicks(dialog.name, "my jeans")
    SHOTS.mkdir(parents=True, exist_ok=True)
    click(qtbot, dialog.save_button)
    assert dialog.save_line.text().startswith("Saved as my jeans")
    assert dialog.grab().save(str(SHOTS / "fit-my-fabric.png"))
    click(qtbot, dialog.save_button)  # the same name again: refused, the saved one kept
    assert dialog.save_line.text().startswith("You already have a fabric named my jeans")
    dialog.close()
    choose(qtbot, group.material, "my jeans (yours) — 350 g/m²")
    fabric = window.controller.scene.bodies[0].si_material
    assert fabric.name == "my jeans" and fabric.bending_warp == pytest.approx(fit.bending_rigidity)
    assert UserFabrics().fabrics()["my jeans"] == fabric  # kept for the next run
    window.action_validate_fabrics.trigger()
    assert "my jeans" in window.validation_panel.fabric_checks


def test_fit_a_bending_rigidity_to_a_drape_coefficient(qtbot, make_window, monkeypatch):
    monkeypatch.setattr(textile, "CHECK_COLS", WIRING_MESHES)
    window = make_window(paused=True)
    window.action_fit_fabric.trigger()
    dialog = window.fit_dialog
    qtbot.waitExposed(dialog)
    assert not dialog.form.isRowVisible(dialog.drape)  # a cantilever's overhang by default
    click(qtbot, dialog.from_drape)
    assert dialog.form.isRowVisible(dialog.drape) and not dialog.form.isRowVisible(dialog.overhang)
    assert "Cusick" in dialog.intro.text()
    type_into(qtbot, dialog.density, "120")
    type_into(qtbot, dialog.drape, "64")
    click(qtbot, dialog.fit_button)
    assert dialog.result_line.text().startswith("Fitting: five specimens")
    qtbot.waitUntil(lambda: " of 5 done" in dialog.result_line.text(), timeout=600_000)
    assert dialog.result_line.text().startswith("Fitting: five specimens")  # with its progress
    qtbot.waitUntil(lambda: dialog.fit_run is None, timeout=600_000)
    fit = dialog.fit
    assert fit is not None, dialog.result_line.text()
    assert fit.guess is None and len(fit.swept) == 5
    coefficients = [m for _, m in fit.swept]
    assert min(coefficients) < 64.0 < max(coefficients)
    assert 1e-6 < fit.bending_rigidity < 1e-4 and fit.material.areal_density == 0.12
    result = dialog.result_line.text()
    assert result.startswith("B = ") and "Peirce" not in result
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert dialog.grab().save(str(SHOTS / "fit-from-drape.png"))
    click(qtbot, dialog.from_cantilever)  # back: the cantilever's fields and words
    assert dialog.form.isRowVisible(dialog.overhang) and "41.5°" in dialog.intro.text()
    dialog.close()


def test_cancel_stops_a_fit_and_says_so(qtbot, make_window):
    window = make_window(paused=True)
    panel = validation_panel(qtbot, window, [], [])
    click(qtbot, panel.run_button)  # nothing ticked: says so, runs nothing
    assert panel.progress.text() == "Choose at least one fabric and one test."
    assert panel.run_thread is None
    click(qtbot, panel.fit_button)  # the panel's way to Fit my fabric
    dialog = window.fit_dialog
    qtbot.waitExposed(dialog)
    click(qtbot, dialog.fit_button)
    assert dialog.running and dialog.cancel_button.isEnabled()
    click(qtbot, dialog.cancel_button)
    qtbot.waitUntil(lambda: dialog.fit_run is None, timeout=300_000)
    assert dialog.fit is None and dialog.result_line.text() == "the fit was stopped"
    assert dialog.fit_button.isEnabled() and not dialog.save_button.isEnabled()


def test_closing_the_window_during_a_validation_and_a_fit_ends_their_threads(qtbot, make_window):
    window = make_window(paused=True)
    panel = validation_panel(qtbot, window, ["silk"], ["cantilever"])
    click(qtbot, panel.run_button)
    window.action_fit_fabric.trigger()
    dialog = window.fit_dialog
    click(qtbot, dialog.fit_button)
    validation, fit = panel.run_thread, dialog.fit_run
    assert validation.isRunning() and fit.isRunning()
    window.close()
    assert not validation.isRunning() and not fit.isRunning()


def test_an_unreadable_fabrics_file_is_set_aside_and_read_as_none(tmp_path):
    file = tmp_path / "fabrics.json"
    file.write_text('{"format": "clothlab-fabrics", "version": 1, "fabrics": {"x": {}}}')
    store = UserFabrics(file)
    assert store.fabrics() == {}
    assert "unreadable fabrics file" in store.warning and "\n" not in store.warning
    assert (tmp_path / "fabrics.json.corrupt").exists() and not file.exists()
    store.save(SIMaterialSpec.of("mine", SI_FABRICS["wool"]))
    assert UserFabrics(file).fabrics() == {"mine": SIMaterialSpec.of("mine", SI_FABRICS["wool"])}


def test_the_window_says_in_one_line_that_it_set_an_unreadable_fabrics_file_aside(make_window):
    file = fabrics_file()
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_bytes(b"{not json")
    window = make_window(paused=True)
    message = window.status.currentMessage()
    assert message.startswith(f"Unreadable fabrics file {file}") and "\n" not in message
    assert file.with_name("fabrics.json.corrupt").read_bytes() == b"{not json"  # kept
    assert [t for t in map(window.parameters_panel.body_group.material.itemText,
                           range(window.parameters_panel.body_group.material.count()))
            if "(yours)" in t] == []  # fmt: skip


def test_an_si_fabric_held_at_a_point_says_so_and_offers_a_clamp_not_tethers(qtbot, make_window):
    """A real fabric's sheet hung from point pins stretches most next to them, and its sag
    there grows as the sheet is refined (RESEARCH.md §8): the Selected body group says so and
    offers a clamp, tethers on or off; tethers would hold the cloth stiffer than its fabric."""
    window, group = selected_sheet(make_window)
    choose(qtbot, group.material, "cotton — 120 g/m²")
    qtbot.waitUntil(group.point_pin_hint.isVisible, timeout=WAIT_MS)
    texts = [label.text() for label in group.point_pin_hint.findChildren(QLabel)]
    texts.append(group.clamp_button.text())
    assert not any("ether" in text for text in texts), texts
    window.controller.set_setting("tethers", True)
    qtbot.waitUntil(lambda: window.controller.scene.fabric.tethers, timeout=WAIT_MS)
    assert group.point_pin_hint.isVisible()


def test_the_point_pin_hint_is_for_sheets_held_at_points_not_for_the_textile_tests(
    qtbot, make_window
):
    """The drape meter holds its disc over a region and the hanging strip is clamped along a
    row: no point pin, no hint."""
    for preset in ("cusick-drape", "hanging-strip"):
        window = make_window(preset, paused=True)
        window.editor.selection.select(Selection("body", 0))
        group = window.parameters_panel.body_group
        qtbot.waitUntil(group.fabric_fields.isVisible, timeout=WAIT_MS)
        assert not group.point_pin_hint.isVisible(), preset


def test_the_point_pin_hint_clamps_the_top_corners_in_one_click_and_one_undo(qtbot, make_window):
    """The button pins what Edit ▸ Pin selected sheet ▸ Pin top corner clamps does: every
    particle within a tenth of the width of a top corner. The sheet is then held at no point,
    and the hint goes."""
    window, group = selected_sheet(make_window)
    controller = window.controller
    choose(qtbot, group.material, "cotton — 120 g/m²")
    qtbot.waitUntil(group.point_pin_hint.isVisible, timeout=WAIT_MS)
    before = controller.scene
    corners = {pin.particle for pin in before.pins}
    qtbot.mouseClick(group.clamp_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(controller.scene.pins) > len(corners), timeout=WAIT_MS)
    assert controller.scene.pins == composition.pin_set(before, 0, "top corner clamps").scene.pins
    qtbot.waitUntil(lambda: not group.point_pin_hint.isVisible(), timeout=WAIT_MS)
    controller.undo_stack.undo()
    qtbot.waitUntil(lambda: {p.particle for p in controller.scene.pins} == corners, timeout=WAIT_MS)
    assert controller.scene.bodies[0].si_material is not None  # the fabric stays


def test_the_material_list_heads_its_model_units_and_si_fabrics(qtbot, make_window):
    """The list held "cotton" twice, a model-units material and a measured SI
    fabric, with nothing to tell them apart."""
    _window, group = selected_sheet(make_window)
    combo = group.material
    texts = [combo.itemText(row) for row in range(combo.count())]
    model_heading = texts.index("Model units: stiffness of the links")
    si_heading = texts.index("SI units: measured fabrics")
    assert model_heading < texts.index("cotton") < si_heading
    assert si_heading < next(k for k, t in enumerate(texts) if t.startswith("cotton — "))
    before = combo.currentIndex()
    combo.window().activateWindow()
    qtbot.waitUntil(combo.window().isActiveWindow, timeout=WAIT_MS)
    qtbot.mouseClick(combo, Qt.MouseButton.LeftButton)
    view = combo.view()
    qtbot.waitUntil(view.isVisible, timeout=WAIT_MS)
    qtbot.wait(QApplication.doubleClickInterval() + 100)
    for heading in (model_heading, si_heading):  # a heading is never chosen
        assert not combo.model().item(heading).isEnabled()
        index = combo.model().index(heading, 0)
        view.scrollTo(index)
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                         pos=view.visualRect(index).center())  # fmt: skip
        assert combo.currentIndex() == before
    QTest.keyClick(view, Qt.Key.Key_Escape)


def test_the_panel_says_what_an_si_fabric_runs_with(qtbot, make_window):
    """The scene's substeps read 1 while cotton ran 12 of them."""
    window, group = selected_sheet(make_window)
    panel = window.parameters_panel
    assert not panel.model_note.isVisible()
    choose(qtbot, group.material, "cotton — 120 g/m²")
    window.action_step.trigger()  # a snapshot of the sheet in cotton
    qtbot.waitUntil(panel.model_note.isVisible, timeout=WAIT_MS)
    latest = window.controller.latest
    assert latest.model_settings.xpbd and not latest.settings.xpbd
    assert panel.model_note.text() == "The SI fabric runs with XPBD: what its stiffness needs."


def test_the_panel_shows_how_the_fabric_solve_went(qtbot, make_window):
    """Its iterations and what it left, from the snapshot of the last step: none for a sheet in
    the model's units, the links' residual for cotton."""
    window, group = selected_sheet(make_window)
    panel = window.parameters_panel
    window.action_step.trigger()
    qtbot.waitUntil(lambda: window.controller.latest is not None, timeout=WAIT_MS)
    assert not panel.solve_note.isVisible()
    choose(qtbot, group.material, "cotton — 120 g/m²")
    window.action_step.trigger()
    qtbot.waitUntil(panel.solve_note.isVisible, timeout=WAIT_MS)
    report = window.controller.latest.solve
    assert report is not None and not report.projective
    assert report.residual <= constraints.TOGETHER_TOLERANCE * 1.001  # solved, to its tolerance
    iterations = "1 iteration" if report.iterations == 1 else f"{report.iterations} iterations"
    assert panel.solve_note.text() == (
        f"Fabric solve: {iterations}; the links within {report.residual:.2g} of their length."
    )


def test_the_solve_note_reads_the_projective_residual_as_weight():
    report = SolveReport(iterations=60, residual=1.45, projective=True)
    assert (
        solve_note(report) == "Fabric solve: 60 iterations; 1.4 of a particle's weight unbalanced."
    )
    assert solve_note(None) == ""


def test_the_note_names_each_setting_the_fabric_raised():
    scene = Settings()
    model = replace(scene, xpbd=True, substeps=12, passes=max(scene.passes, 4) + 2)
    assert model_note(scene, model) == (
        f"The SI fabric runs with XPBD, 12 substeps a step, {model.passes} passes: what its "
        "stiffness needs."
    )
    assert model_note(scene, scene) == ""
