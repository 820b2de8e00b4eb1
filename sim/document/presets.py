"""Built-in scenes: JSON files in resources/scenes (package data), parsed like any user file."""

from __future__ import annotations

from importlib.resources.abc import Traversable
from pathlib import Path

from clothlab.resources import resource
from clothlab.sim.document.files import describe
from clothlab.sim.document.scene import Scene, SceneError, load_scene, parse_scene
from clothlab.sim.text import in_language

DEFAULT_PRESET = "hanging-sheet"
PRESET_WORDS = frozenset({"name", "description"})  # the scene's and its bodies' (sim.text)
_SCENES = resource("scenes")


def preset_names() -> list[str]:
    """Presets in menu order: the default first, then alphabetical."""
    names = sorted(
        p.name.removesuffix(".json") for p in _SCENES.iterdir() if p.name.endswith(".json")
    )
    return sorted(names, key=lambda n: n != DEFAULT_PRESET)


MAX_NAME = 100  # characters; a longer "name" is a path or a typo, never a preset


def is_preset(name: str) -> bool:
    return "/" not in name and len(name) <= MAX_NAME and (_SCENES / f"{name}.json").is_file()


def preset_path(name: str) -> Traversable:
    """The preset's file in the package (read it with read_bytes or read_text)."""
    return _SCENES / f"{name}.json"


def load_preset(name: str) -> Scene:
    if not is_preset(name):
        raise SceneError(f"{name}: no such preset (presets: {', '.join(preset_names())})")
    data = in_language(preset_path(name).read_bytes(), "presets", PRESET_WORDS)
    return parse_scene(data, f"preset {name}")


def resolve_scene(name_or_path: str) -> tuple[Scene, Path | None]:
    """A preset by name, or a scene file by path; the path is None for presets."""
    if is_preset(name_or_path):
        return load_preset(name_or_path), None
    path = Path(name_or_path)
    try:
        exists = path.exists()
    except OSError as error:  # a name longer than the file system allows, say
        raise SceneError(f"{name_or_path}: cannot read: {describe(error)}") from None
    if not exists and path.suffix == "" and "/" not in name_or_path:
        names = ", ".join(preset_names())
        raise SceneError(f"{name_or_path}: no such preset or file (presets: {names})")
    return load_scene(path), path
