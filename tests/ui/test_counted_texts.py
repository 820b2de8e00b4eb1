"""Counts shown to the user take the word's singular for one: "Fabric solve: 1 iteration",
"Pin left edge (1 pin)" in English, "1 Iteration", "2 Iterationen" in German (Qt's plural forms:
`tr("%n iteration(s)", "", n)` and the catalogue's numerus forms)."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree

import pytest
from PySide6.QtCore import QLocale

from clothlab.app import language
from clothlab.sim.core.constraint_sets import SolveReport
from clothlab.sim.core.parameters import Settings
from clothlab.sim.document.composition import unpin_all
from clothlab.sim.document.presets import load_preset
from clothlab.sim.text import COUNT
from clothlab.ui.docks.parameters_dock import model_note, solve_note
from clothlab.ui.docks.scene_model import settings_summary
from tests.test_translations import CATALOGUES, fields


@pytest.fixture
def speak():
    """speak(code): the app's texts in that language; English again afterwards."""
    before = QLocale()

    def install(code: str) -> None:
        assert language.install(code) == code

    yield install
    language.install("en")
    QLocale.setDefault(before)


def report(iterations: int) -> SolveReport:
    return SolveReport(iterations=iterations, residual=0.01, projective=False)


EXPECTED = {
    "en": (
        ("Fabric solve: 1 iteration;", "Fabric solve: 2 iterations;"),
        ("1 pass, Δt", "2 passes, Δt"),
        ("(1 pin)", "(2 pins)"),
    ),
    "de": (
        ("Stofflösung: 1 Iteration;", "Stofflösung: 2 Iterationen;"),
        ("1 Durchgang, Δt", "2 Durchgänge, Δt"),
        ("(1 Fixpunkt)", "(2 Fixpunkte)"),
    ),
}


@pytest.mark.parametrize("code", ["en", "de"])
def test_a_count_of_one_takes_the_singular_and_two_the_plural(speak, code):
    speak(code)
    (solve_one, solve_two), (passes_one, passes_two), (pins_one, pins_two) = EXPECTED[code]
    assert solve_note(report(1)).startswith(solve_one)
    assert solve_note(report(2)).startswith(solve_two)
    assert settings_summary("solver", Settings(passes=1)).startswith(passes_one)
    assert settings_summary("solver", Settings(passes=2)).startswith(passes_two)
    hanging = load_preset("hanging-sheet")  # two pins
    for pins, wanted in ((hanging.pins[:1], pins_one), (hanging.pins, pins_two)):
        scene = hanging.model_copy(update={"pins": pins})
        assert unpin_all(scene, 0).text.endswith(wanted)
    raised = model_note(Settings(substeps=1), Settings(substeps=2))
    assert ("2 substeps a step" if code == "en" else "2 Teilschritten pro Schritt") in raised


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: p.stem)
def test_every_counted_text_has_the_languages_forms_each_with_its_count(path):
    counted = [m for m in ElementTree.parse(path).iter("message") if m.get("numerus") == "yes"]
    assert len(counted) >= 20
    for message in counted:
        source = message.findtext("source") or ""
        forms = [form.text or "" for form in message.iter("numerusform")]
        assert COUNT in source and len(forms) == 2, source  # German: one, and more (or none)
        assert all(COUNT in form and fields(form) == fields(source) for form in forms), source
