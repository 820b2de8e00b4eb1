"""Cloth Lab's data files (scenes, shaders, icons), installed as package data and read with
`importlib.resources`, so a wheel works as well as a checkout."""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable


def resource(*parts: str) -> Traversable:
    """A file or folder below resources/, e.g. resource("scenes", "drop.json")."""
    path = files(__name__)
    for part in parts:
        path = path / part
    return path
