"""What the German window still showed in English ways: "Δt 0.00833 s" in the Scene panel and
"Zustand bei t = 32.43 s speichern…" (points, not commas), a tool hint cut off at "…Strg+K"."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QLocale
from qt_helpers import WAIT_MS

from clothlab.sim.core.parameters import Settings
from clothlab.sim.document.scene import SphereSpec
from clothlab.ui.docks.scene_model import obstacle_summary, settings_summary
from clothlab.ui.viewport.tools import TOOLS
from clothlab.ui.window.actions import state_text
from tests.test_translations import CATALOGUES, catalogue


@pytest.fixture
def german_numbers():
    before = QLocale()
    QLocale.setDefault(QLocale(QLocale.Language.German, QLocale.Country.Germany))
    yield
    QLocale.setDefault(before)


def test_scene_panel_summaries_and_save_state_take_the_decimal_comma(german_numbers):
    assert "Δt 0,00833 s" in settings_summary("solver", Settings(dt=1 / 120))
    assert settings_summary("wind", Settings(wind=2.5)).startswith("2,5 ")
    assert obstacle_summary(SphereSpec(radius=0.5)) == "radius 0,5"
    assert state_text(32.43) == "Save S&tate at t = 32,43 s…"


def test_every_german_tool_hint_fits_the_status_bar_of_a_1280_window(qtbot, make_window):
    window = make_window(size=(1280, 800))
    window.controller.set_running(True)  # the status bar's numbers take their room
    label, status = window.status.tool_label, window.status
    qtbot.waitUntil(lambda: status.fps > 0 and label.width() > 200, timeout=WAIT_MS)
    assert label.fontMetrics().horizontalAdvance(TOOLS[1].hint) <= label.contentsRect().width()
    german = catalogue(next(c for c in CATALOGUES if c.stem.endswith("_de")))
    room = label.contentsRect().width()
    for row in TOOLS:
        text = german[row.hint][0]
        width = label.fontMetrics().horizontalAdvance(text)
        assert width <= room, f"{width} px > {room} px: {text}"


def test_a_hint_too_long_for_its_room_ends_in_an_ellipsis(qtbot, make_window):
    window = make_window(size=(900, 800), paused=True)
    label = window.status.tool_label
    hint = TOOLS[0].hint + " " + TOOLS[1].hint
    window.status.show_tool(hint)
    qtbot.waitUntil(lambda: label.width() > 100)
    assert label.text() == hint and label.toolTip() == hint
    shown = label.shown_text()
    assert shown.endswith("…") and hint.startswith(shown[:-1])
