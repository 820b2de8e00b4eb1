"""Our own toolbar icons, drawn as SVG in resources/icons."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from PySide6.QtGui import QIcon

ICON_DIR = Path(__file__).resolve().parent.parent / "resources" / "icons"


@cache
def icon(name: str) -> QIcon:
    """The icon resources/icons/<name>.svg; an empty icon (text-only action) if it is missing."""
    path = ICON_DIR / f"{name}.svg"
    return QIcon(str(path)) if path.is_file() else QIcon()
