"""Built-in scenes: JSON files in resources/scenes, loaded like any user file."""

from __future__ import annotations

from pathlib import Path

from sim.scene import Scene, SceneError, load_scene

PRESET_DIR = Path(__file__).resolve().parent.parent / "resources" / "scenes"
DEFAULT_PRESET = "hanging-sheet"


def preset_names() -> list[str]:
    """Presets in menu order: the default first, then alphabetical."""
    names = sorted(p.stem for p in PRESET_DIR.glob("*.json"))
    return sorted(names, key=lambda n: n != DEFAULT_PRESET)


def preset_path(name: str) -> Path:
    return PRESET_DIR / f"{name}.json"


def load_preset(name: str) -> Scene:
    return load_scene(preset_path(name))


def resolve_scene(name_or_path: str) -> tuple[Scene, Path | None]:
    """A preset by name, or a scene file by path; the path is None for presets."""
    if preset_path(name_or_path).is_file() and "/" not in name_or_path:
        return load_preset(name_or_path), None
    path = Path(name_or_path)
    if not path.exists() and path.suffix == "" and "/" not in name_or_path:
        names = ", ".join(preset_names())
        raise SceneError(f"{name_or_path}: no such preset or file (presets: {names})")
    return load_scene(path), path
