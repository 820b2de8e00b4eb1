"""The theme reaches what Qt does not re-colour by itself, measured on the
real window's pixels after switching Dark → Light → Dark: toolbar icons (the active tool's
too) stand out of the toolbar, the Compare plot and table follow the palette, and the widget
with the keyboard focus has a ring that shows."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage, QPalette
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QCheckBox, QLineEdit, QToolButton
from qt_helpers import WAIT_MS

from clothlab.app.compare_runner import CompareRunner
from clothlab.ui.theme import focus_colour
from clothlab.ui.window.keyboard import is_number_field
from clothlab.ui.window.preferences_dialog import apply_theme

CONTRAST = 0.3  # luminance (0…1) an icon's ink differs from its button's background by, at least
INKED_PIXELS = 20  # pixels of a 24-px icon that must have that contrast
RING_PIXELS = 40  # a ring round the smallest focusable widget (a text-less check box) at least
ISSUE_ICONS = ("tool_grab", "tool_cut", "reset")  # the ones the report found invisible


@pytest.fixture
def themes():
    """Apply a theme and let the window repaint; the light palette is put back after."""

    def switch(qtbot, name: str) -> None:
        apply_theme(name)
        QApplication.sendPostedEvents()  # the palette and style changes it posted

    yield switch
    apply_theme("light")


def pixels(image: QImage) -> np.ndarray:
    """(h, w, 3) float RGB in 0…1 of a grabbed widget."""
    image = image.convertToFormat(QImage.Format.Format_RGB888)
    width, height = image.width(), image.height()
    rows = np.frombuffer(image.constBits(), dtype=np.uint8).reshape(height, image.bytesPerLine())
    return rows[:, : width * 3].reshape(height, width, 3).astype(float) / 255.0


def luminance(rgb: np.ndarray) -> np.ndarray:
    return rgb @ np.array([0.2126, 0.7152, 0.0722])


def inked_pixels(button: QToolButton) -> int:
    """Pixels of the button's icon that stand out of the button's own background (its
    border's commonest luminance)."""
    light = luminance(pixels(button.grab().toImage()))
    border = np.concatenate([light[0], light[-1], light[:, 0], light[:, -1]])
    background = float(np.median(border))
    return int(np.count_nonzero(np.abs(light - background) > CONTRAST))


def toolbar_buttons(window) -> dict[str, QToolButton]:
    buttons = {}
    for name, action in window._actions.items():
        widget = window.toolbar.widgetForAction(action)
        if isinstance(widget, QToolButton) and not action.icon().isNull():
            buttons[name] = widget
    return buttons


def test_toolbar_icons_and_the_active_tool_stand_out_in_both_themes(qtbot, make_window, themes):
    window = make_window("hanging-sheet", paused=True)
    window._actions["tool_grab"].trigger()  # the active tool: a checked button
    buttons = toolbar_buttons(window)
    assert set(ISSUE_ICONS) <= set(buttons) and buttons["tool_grab"].isChecked()
    for theme in ("dark", "light", "dark"):
        themes(qtbot, theme)
        faint = {n: inked_pixels(b) for n, b in buttons.items() if b.isEnabled()}
        faint = {n: count for n, count in faint.items() if count < INKED_PIXELS}
        assert not faint, f"{theme}: icons that hardly show: {faint}"


def test_the_compare_plot_and_values_follow_the_theme_both_ways(qtbot, make_window, themes):
    window = make_window("hanging-sheet", paused=True)
    panel = window.compare_panel
    runner = CompareRunner(window.controller, window.controller)
    panel.attach(runner)
    window.compare_dock.show()
    window.compare_dock.raise_()
    try:
        panel.rows[0].edit.setText("passes=4")
        qtbot.waitUntil(lambda: window.controller.latest is not None, timeout=WAIT_MS)
        panel.run_button.click()
        qtbot.waitUntil(lambda: runner.runs and runner.runs[0].final is not None, timeout=WAIT_MS)
        panel.redraw()
        for theme in ("dark", "light", "dark", "light"):
            themes(qtbot, theme)
            palette = panel.palette()
            base = palette.color(QPalette.ColorRole.Base)
            assert panel.plot.backgroundBrush().color() == base, theme
            plot = pixels(panel.plot.grab().toImage())
            corner = plot[2:6, -6:-2].reshape(-1, 3)  # inside the plot area, no curve there
            assert np.allclose(corner, [base.redF(), base.greenF(), base.blueF()], atol=0.02)
            text = palette.color(QPalette.ColorRole.Text)
            value = panel.table.item(2, 0)  # a value of the main run ("as is")
            assert value is not None and value.text() not in ("", "—")
            own = value.data(Qt.ItemDataRole.ForegroundRole)  # None: the palette's text
            shown = text if own is None else own.color() if hasattr(own, "color") else own
            contrast = abs(shown.lightnessF() - base.lightnessF())
            assert contrast > 0.5, f"{theme}: values in {shown.name()} on {base.name()}"
    finally:
        runner.stop()


def ring_pixels(widget, theme_palette: QPalette) -> int:
    """Pixels of the widget drawn in (about) the focus ring's colour."""
    ring = focus_colour(theme_palette)
    rgb = pixels(widget.grab().toImage())
    target = np.array([ring.redF(), ring.greenF(), ring.blueF()])
    return int(np.count_nonzero(np.abs(rgb - target).max(axis=2) < 0.08))


@pytest.mark.parametrize("kind", [QCheckBox, QLineEdit], ids=["check box", "line edit"])
def test_the_focused_widget_has_a_ring_in_both_themes(qtbot, make_window, themes, kind):
    window = make_window("hanging-sheet", paused=True)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=WAIT_MS)
    window.compare_dock.raise_()  # its variant fields: line edits on show (Tab skips hidden tabs)
    QApplication.sendPostedEvents()
    widget = next(
        w
        for w in window.findChildren(kind)
        if w.isEnabled() and not w.visibleRegion().isEmpty() and not is_number_field(w)
    )
    for theme in ("dark", "light", "dark"):
        themes(qtbot, theme)
        window.viewport.setFocus()
        before = ring_pixels(widget, widget.palette())
        # reach it with the keyboard: Tab from the widget before it in the focus chain
        widget.previousInFocusChain().setFocus()
        QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        qtbot.waitUntil(lambda: widget.hasFocus(), timeout=WAIT_MS)
        after = ring_pixels(widget, widget.palette())
        print(f"{theme} {kind.__name__}: ring-coloured pixels {before} → {after}")
        assert after - before >= RING_PIXELS, theme
