"""A wheel over a scrolled panel scrolls it: a slider, number box or list in it takes the wheel
only once it has the focus (a click or Tab gave it). Without this, scrolling the Parameters
panel turned every slider the pointer passed over (bend compliance 0.050 → 0.041, three History
entries)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QAbstractSlider,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QWidget,
)

WHEEL_EDITORS = (QAbstractSlider, QAbstractSpinBox, QComboBox)


class WheelGuard(QObject):
    """The event filter: a wheel event for an editor without the focus goes to the scroll area
    around it instead. (Handed on by hand: Qt passes an ignored wheel event on to the parent
    only when it came from the window system, not when a program sent it.)"""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        wheel = event.type() == QEvent.Type.Wheel
        if not (wheel and isinstance(watched, QWidget)) or watched.hasFocus():
            return False
        area = watched.parentWidget()
        while area is not None and not isinstance(area, QAbstractScrollArea):
            area = area.parentWidget()
        if area is not None:
            QApplication.sendEvent(area.viewport(), event.clone())
        event.accept()  # taken: not the editor's, nor passed on again
        return True


def guard_wheel(container: QWidget) -> WheelGuard:
    """Make the wheel scroll `container` unless the editor under it has the focus: every
    slider, number box and list inside it now. Such an editor takes the focus from a click or
    Tab, never from the wheel (Qt gives a number box the focus on a wheel by default)."""
    guard = WheelGuard(container)
    for editor in container.findChildren(QWidget):
        if isinstance(editor, WHEEL_EDITORS):
            if editor.focusPolicy() == Qt.FocusPolicy.WheelFocus:
                editor.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
            editor.installEventFilter(guard)
    return guard
