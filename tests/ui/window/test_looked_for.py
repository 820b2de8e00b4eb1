"""What a new user looked for and did not find: full screen, the fabric
presets in Compare's list, and the user guide shown inside the app."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices, QImage, QTextDocument
from qt_helpers import WAIT_MS

from clothlab.sim.core.fabrics import FABRICS
from clothlab.ui.docks.compare_dock import ComparePanel
from clothlab.ui.window.dialogs import DocumentViewer

ROOT = Path(__file__).resolve().parents[3]


def test_f11_toggles_full_screen_and_the_view_menu_follows(make_window, qtbot):
    window = make_window()
    window.activateWindow()  # a window shortcut needs its window active, as on a desktop
    qtbot.waitUntil(window.isActiveWindow, timeout=WAIT_MS)
    window.viewport.setFocus()
    assert not window.isFullScreen()
    assert window.action_full_screen.text().replace("&", "") == "Full screen"
    view_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&View")
    assert window.action_full_screen in view_menu.actions()

    qtbot.keyClick(window.viewport, Qt.Key.Key_F11)
    qtbot.waitUntil(window.isFullScreen, timeout=WAIT_MS)
    assert window.action_full_screen.isChecked()

    qtbot.keyClick(window.viewport, Qt.Key.Key_F11)
    qtbot.waitUntil(lambda: not window.isFullScreen(), timeout=WAIT_MS)
    assert not window.action_full_screen.isChecked()


def test_view_full_screen_from_the_menu_and_back(make_window, qtbot):
    window = make_window()
    window.action_full_screen.trigger()  # View ▸ Full screen
    qtbot.waitUntil(window.isFullScreen, timeout=WAIT_MS)
    window.action_full_screen.trigger()
    qtbot.waitUntil(lambda: not window.isFullScreen(), timeout=WAIT_MS)


def test_help_user_guide_shows_the_readme_inside_the_app(make_window, qtbot, monkeypatch):
    """Help ▸ User guide said "no program was set up to open it": the guide is shown in a window
    of the app itself, rendered from README.md, without asking the desktop."""
    window = make_window()
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: pytest.fail(f"opened {url}"))
    window.action_readme.trigger()
    viewer = window.findChild(DocumentViewer)
    assert viewer is not None and viewer.isVisible()
    qtbot.waitExposed(viewer)
    text = viewer.browser.toPlainText()
    assert text.startswith("Cloth Lab"), text[:80]  # the README's title, rendered: no "# "
    assert "View ▸ Full screen" in text
    assert "User guide" in viewer.windowTitle()
    window.action_research.trigger()  # the model notes in the same viewer
    assert "RESEARCH" in viewer.windowTitle() or "Model notes" in viewer.windowTitle()
    assert "Gauss" in viewer.browser.toPlainText()
    assert window.findChildren(DocumentViewer) == [viewer]


def choose_in_popup(qtbot, combo, text: str) -> None:
    """Open the combo's list and walk down to `text` with the arrow keys, then Enter."""
    combo.setFocus()
    qtbot.keyClick(combo, Qt.Key.Key_Space)  # opens the list, as a click does
    view = combo.view()
    qtbot.waitUntil(view.isVisible, timeout=WAIT_MS)
    while view.currentIndex().data() != text:
        before = view.currentIndex().row()
        qtbot.keyClick(view, Qt.Key.Key_Down)
        assert view.currentIndex().row() != before, f"{text!r} is not in the list"
    qtbot.keyClick(view, Qt.Key.Key_Return)


def test_compare_offers_every_fabric_preset(qtbot):
    """The user looked for the fabrics (sim.core.fabrics) in Compare's preset list."""
    panel = ComparePanel()
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitExposed(panel)
    row = panel.rows[1]
    listed = [row.presets.itemText(i) for i in range(row.presets.count())]
    for fabric in FABRICS:
        assert f"Fabric: {fabric}" in listed, listed
        choose_in_popup(qtbot, row.presets, f"Fabric: {fabric}")
        assert row.edit.text() == f"fabric={fabric}"
        assert row.presets.currentIndex() == 0  # ready for the next choice
        assert row.variant() is not None  # a variant the runner takes, as typed


def test_the_guide_fits_its_pictures_to_the_viewer(make_window, qtbot):
    """The README's screenshots are wider than the viewer: shown whole, scaled to its width."""
    window = make_window()
    window.action_readme.trigger()
    viewer = window.findChild(DocumentViewer)
    qtbot.waitExposed(viewer)
    browser = viewer.browser
    picture = QUrl("docs/screenshots/hanging-sheet.png")
    assert QImage(str(ROOT / picture.path())).width() > browser.viewport().width()
    shown = browser.loadResource(QTextDocument.ResourceType.ImageResource.value, picture)
    assert isinstance(shown, QImage) and 0 < shown.width() <= browser.viewport().width()
