"""Our own toolbar icons, drawn as SVG in resources/icons."""

from __future__ import annotations

from functools import cache

from PySide6.QtGui import QIcon

from clothlab.resources import resource

ICON_DIR = resource("icons")


@cache
def icon(name: str) -> QIcon:
    """The icon resources/icons/<name>.svg; an empty icon (text-only action) if it is missing."""
    path = ICON_DIR / f"{name}.svg"
    return QIcon(str(path)) if path.is_file() else QIcon()
