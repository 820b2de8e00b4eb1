"""The Parameters panel at the window's default size: every label and value field whole inside
the panel's visible area, in English and in German (whose labels and units are longer)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QLocale, QPoint, QRect
from PySide6.QtWidgets import QAbstractSpinBox, QCheckBox, QComboBox, QLabel, QScrollArea, QWidget

from clothlab.app import language


@pytest.fixture(params=["en", "de"])
def spoken(request):
    """The app speaking a language while the window is built; English again afterwards."""
    before = QLocale()
    assert language.install(request.param) == request.param
    yield request.param
    language.install("en")
    QLocale.setDefault(before)


def visible_rect(widget: QWidget, viewport: QWidget) -> QRect:
    """`widget`'s rectangle in the viewport's coordinates."""
    return QRect(widget.mapTo(viewport, QPoint(0, 0)), widget.size())


def shown_fields(host: QWidget) -> list[QWidget]:
    kinds = (QAbstractSpinBox, QComboBox, QCheckBox, QLabel)
    return [w for w in host.findChildren(QWidget) if isinstance(w, kinds) and w.isVisibleTo(host)]


def test_every_parameter_field_lies_inside_the_panel_at_1280_by_800(qtbot, make_window, spoken):
    window = make_window(size=(1280, 800), paused=True)
    scroll = window.parameters_panel.findChild(QScrollArea)
    viewport, host = scroll.viewport(), scroll.widget()
    qtbot.waitUntil(lambda: viewport.width() > 200 and host.width() > 0)
    fields = shown_fields(host)
    assert len(fields) > 40  # the labels, spin boxes, combo boxes and check boxes
    room = viewport.rect()
    for field in fields:
        rect = visible_rect(field, viewport)
        assert room.left() <= rect.left() and rect.right() <= room.right(), (
            f"{spoken}: {type(field).__name__} {field.objectName() or field.text()!r} "
            f"spans x {rect.left()}…{rect.right()}, the panel shows 0…{room.right()}"
        )
        if isinstance(field, QAbstractSpinBox | QComboBox):
            assert field.width() >= field.minimumSizeHint().width()  # not squeezed either
