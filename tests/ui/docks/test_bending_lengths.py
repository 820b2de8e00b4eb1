"""One cantilever strip, three bending lengths, each named by its method and shown side by side:
(B/ρg)^⅓ from the fabric, ASTM's half the overhang, Peirce's formula at the chord angle measured;
Fit my fabric names its first guess by its formula beside ASTM's ρg(O/2)³, and shows a line, not
empty axes, before its first fit."""

from __future__ import annotations

import math

import pytest
from qt_helpers import WAIT_MS

from clothlab.sim.core.materials import SI_FABRICS
from clothlab.sim.core.specimens import peirce_bending_length
from clothlab.sim.document.presets import load_preset
from clothlab.sim.lab import textile
from clothlab.sim.lab.fit import Fit, peirce_guess
from clothlab.sim.lab.textile import bending_lengths
from clothlab.ui.docks.fabric_fields import short_e
from tests.ui.test_typed_values import type_into


def test_the_three_bending_lengths_of_the_cantilever_preset():
    scene = load_preset("cantilever")
    lengths = bending_lengths(scene, 41.63)
    assert lengths is not None
    material = scene.bodies[0].si_material.material
    c = (material.bending_warp / (material.areal_density * 9.8)) ** (1 / 3)
    assert lengths.from_rigidity == pytest.approx(c, rel=1e-12)
    assert lengths.astm == pytest.approx(c, rel=1e-9)  # the preset pushes it 2c over the edge
    assert lengths.peirce == pytest.approx(peirce_bending_length(2 * c, 41.63), rel=1e-12)
    assert lengths.peirce * 100 == pytest.approx(2.206, abs=5e-4)  # a few % from the others
    assert math.isnan(bending_lengths(scene).peirce)  # no angle measured yet
    assert bending_lengths(load_preset("hanging-sheet")) is None


def test_the_readouts_show_the_three_side_by_side(qtbot, make_window):
    window = make_window("cantilever")
    panel = window.readouts_panel
    window.readouts_dock.raise_()
    window.controller.set_running(True)
    label = panel.bending_lengths_label
    qtbot.waitUntil(lambda: "°" in label.text() and "— cm" not in label.text(), timeout=WAIT_MS)
    assert label.isVisible()
    text = label.text()
    assert "2.17 cm from (B/ρg)^⅓" in text and "2.17 cm by ASTM (overhang/2)" in text
    assert "by Peirce's formula at" in text
    angle = float(text.rsplit(" at ", 1)[1].rstrip("°"))
    shown = float(text.split(" cm by Peirce")[0].rsplit("· ", 1)[1])
    assert shown == pytest.approx(peirce_bending_length(2 * 0.021689921, angle) * 100, abs=6e-4)


def test_no_bending_lengths_line_for_a_hanging_sheet(qtbot, make_window):
    window = make_window("hanging-sheet", paused=True)
    assert not window.readouts_panel.bending_lengths_label.isVisible()


def test_fit_names_its_guess_beside_astms_reading_and_hints_before_a_fit(qtbot, make_window):
    window = make_window(paused=True)
    window.action_fit_fabric.trigger()
    dialog = window.fit_dialog
    qtbot.waitExposed(dialog)
    assert dialog.plot_hint.isVisible() and not dialog.plot.isVisible()  # no empty axes
    type_into(qtbot, dialog.density, "350")
    type_into(qtbot, dialog.overhang, "5.8")
    dialog.target = dialog.angle.value()  # as Fit sets it when it starts
    guess = peirce_guess(0.35, 0.058, 41.5)
    material = SI_FABRICS["denim"].with_values(areal_density=0.35, bending_warp=9e-5)
    dialog._fitted(Fit(9e-5, material, ((8e-5, 44.0), (1e-4, 39.0)), guess))
    text = dialog.result_line.text()
    astm = 0.35 * textile.GRAVITY * 0.029**3
    assert f"First guess {short_e(guess, 3)} N·m by Peirce's formula at 41.5°" in text
    assert "ASTM's ρg(O/2)³" in text
    shown_astm = float(text.rsplit(" ", 2)[1])
    assert shown_astm == pytest.approx(astm, rel=5e-3)
    assert dialog.plot.isVisible() and not dialog.plot_hint.isVisible()
    dialog.close()
