"""On the dark theme an unchecked check box shows: Fusion outlined it in the window colour
darkened, the colour of the Scene panel's cells, and the Scene tree's "off" boxes were invisible."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QRect
from PySide6.QtGui import QImage, QPainter, QPalette
from PySide6.QtWidgets import QApplication, QStyle, QStyleOptionButton, QStyleOptionViewItem

from clothlab.ui.theme import install_focus_ring
from clothlab.ui.window.preferences_dialog import dark_palette

SIDE = 16
INKED = 20  # pixels of a 16-pixel box that stand out of the cell, at least


def inked_pixels(element: QStyle.PrimitiveElement, option) -> int:
    palette = dark_palette()
    option.palette = palette
    option.rect = QRect(2, 2, SIDE, SIDE)
    option.state = QStyle.StateFlag.State_Enabled | QStyle.StateFlag.State_Off
    image = QImage(SIDE + 4, SIDE + 4, QImage.Format.Format_RGB32)
    base = palette.color(QPalette.ColorRole.Base)
    image.fill(base)
    painter = QPainter(image)
    QApplication.style().drawPrimitive(element, option, painter, None)
    painter.end()
    pixels = np.frombuffer(image.constBits(), np.uint8).reshape(SIDE + 4, -1, 4)[:, : SIDE + 4, :3]
    lightness = pixels.astype(float).mean(axis=2) / 255.0
    return int((np.abs(lightness - base.lightnessF()) > 0.25).sum())


@pytest.mark.parametrize(
    ("element", "option"),
    [
        (QStyle.PrimitiveElement.PE_IndicatorItemViewItemCheck, QStyleOptionViewItem),
        (QStyle.PrimitiveElement.PE_IndicatorCheckBox, QStyleOptionButton),
    ],
)
def test_an_unchecked_box_stands_out_of_a_dark_cell(qapp, element, option):
    install_focus_ring()  # the window's style, as MainWindow installs it
    assert inked_pixels(element, option()) >= INKED
