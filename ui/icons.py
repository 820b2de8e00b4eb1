"""Our own toolbar icons, drawn as SVG in resources/icons; their outlines follow the theme
(ui.theme.ThemedSvgEngine)."""

from __future__ import annotations

from functools import cache

from PySide6.QtGui import QIcon

from clothlab.resources import resource
from clothlab.ui.theme import themed_icon

ICON_DIR = resource("icons")


@cache
def icon(name: str) -> QIcon:
    """The icon resources/icons/<name>.svg; an empty icon (text-only action) if it is missing."""
    path = ICON_DIR / f"{name}.svg"
    return themed_icon(path.read_text(encoding="utf-8")) if path.is_file() else QIcon()
