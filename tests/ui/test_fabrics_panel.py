"""Real fabrics in the window (issue 25 items 1, 4, 5): the Selected body group's fabric chooser
and SI numbers, the Validation panel and Fit my fabric, driven by real clicks and typing."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QComboBox
from qt_helpers import WAIT_MS
from test_typed_values import type_into

from clothlab.sim.core.materials import SI_FABRICS
from clothlab.ui.docks.parameters_dock import OWN_FABRIC
from clothlab.ui.selection import Selection

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
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.visualRect(index).center())
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
    assert group.fabric_fields.bending_length.text() == "c = 2.97 cm"  # (9e-5/(0.35·9.8))^⅓
    density = group.fabric_fields.boxes["areal_density"]
    assert density.value() == 350.0
    type_into(qtbot, density, "420")
    fabric = controller.scene.bodies[0].si_material
    assert fabric.areal_density == pytest.approx(0.42) and fabric.name == "denim (changed)"
    assert fabric.bending_warp == SI_FABRICS["denim"].bending_warp  # the rest as it was
    assert controller.undo_stack.count() == 2
    assert group.fabric_fields.bending_length.text() == "c = 2.80 cm"
    assert group.material.currentText().startswith("denim (changed) — 420 g/m²")
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
