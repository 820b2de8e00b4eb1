"""A wheel over the Parameters panel scrolls it: it changed every slider the
pointer passed over (bend compliance 0.050 → 0.041, three History entries). A field takes the
wheel once it has the focus."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication, QScrollArea, QSlider
from qt_helpers import WAIT_MS


def wheel(widget, notches: int) -> None:
    """A wheel turn over the middle of `widget`, as the window system delivers it."""
    centre = QPointF(widget.rect().center())
    event = QWheelEvent(
        centre, QPointF(widget.mapToGlobal(centre.toPoint())), QPoint(0, 0),
        QPoint(0, -120 * notches), Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase, False,
    )  # fmt: skip
    QApplication.sendEvent(widget, event)


def test_a_wheel_over_a_slider_scrolls_the_panel_and_changes_nothing(qtbot, make_window):
    window = make_window("hanging-sheet", size=(1200, 700), paused=True)
    window.activateWindow()  # Xvfb has no window manager to make it active
    qtbot.waitUntil(window.isActiveWindow, timeout=WAIT_MS)
    window.parameters_dock.raise_()
    panel = window.parameters_panel
    scroll = panel.findChild(QScrollArea)
    qtbot.waitUntil(lambda: scroll.verticalScrollBar().maximum() > 0, timeout=WAIT_MS)
    slider = panel.editors["stiffness"].findChild(QSlider)
    before, edits = slider.value(), window.controller.undo_stack.count()
    window.viewport.setFocus()
    wheel(slider, 3)
    assert slider.value() == before and window.controller.undo_stack.count() == edits
    assert scroll.verticalScrollBar().value() > 0  # the panel scrolled instead

    slider.setFocus()  # a field with the focus takes the wheel
    qtbot.waitUntil(slider.hasFocus, timeout=WAIT_MS)
    wheel(slider, 1)
    assert slider.value() != before
