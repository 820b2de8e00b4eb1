"""Nesting one layout in another without leaving wrappers of Qt's layout items behind.

Adding a layout that holds widgets to a layout that already belongs to a widget
(QBoxLayout.addLayout, QFormLayout.addRow with a layout) makes PySide wrap each item of the
added layout and keep those wrappers alive with the outer layout. Qt deletes an item when its
widget goes without telling the wrapper, which stays registered at the item's address; Qt's
next object made there (a selection model, an event) was then handed to Python as that stale
wrapper: an AttributeError at best, a segfault in a model reset at worst. So the layouts here
are nested by `nest` and `form_row`, which let go of those wrappers at once."""

from __future__ import annotations

from PySide6.QtWidgets import QBoxLayout, QFormLayout, QLayout, QWidget
from shiboken6 import Shiboken


def nest(outer: QBoxLayout, inner: QLayout, stretch: int = 0) -> None:
    """outer.addLayout(inner, stretch)."""
    outer.addLayout(inner, stretch)
    release_item_wrappers(inner)


def form_row(form: QFormLayout, label: str | QWidget, inner: QLayout) -> None:
    """form.addRow(label, inner)."""
    form.addRow(label, inner)
    release_item_wrappers(inner)


def release_item_wrappers(layout: QLayout) -> None:
    """Unregister the wrappers of the items Qt made in `layout` and the layouts it holds (a
    widget's item, a stretch); the items themselves are untouched."""
    for k in range(layout.count()):
        item = layout.itemAt(k)
        if item is None:
            continue
        held = item.layout()
        if held is not None:  # a layout is a QObject: its wrapper hears of its deletion
            release_item_wrappers(held)
        elif not Shiboken.createdByPython(item):
            Shiboken.invalidate(item)
