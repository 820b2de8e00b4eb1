"""What a view may ask for that no sim record says: the requests beside the sim's own commands.

Views turn gestures into command records and emit them on one signal, `command_requested`;
the window hands every one to `WindowContext.submit` (ui.context), which passes them on to
`Controller.submit` (app.controller). Where the simulation has a record for the request, that
record is what a view emits: sim.document.commands' run and edit records and the session's
requests (sim.document.requests). The records here cover the rest: the app's own documents (a
new one, a replay's seek) and the window's own business (selection, its actions). Nothing here
imports Qt.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from clothlab.sim.document import composition
from clothlab.sim.document.composition import Composed
from clothlab.sim.document.scene import Scene, SheetSpec

if TYPE_CHECKING:
    from clothlab.ui.selection import Selection


# --- for the controller ------------------------------------------------------------------------


@dataclass(frozen=True)
class SeekReplay:
    """Show the replay at `step`; nothing happens when no recording is being replayed."""

    step: int


@dataclass(frozen=True)
class NewDocument:
    """Make `scene` the document (no file yet), running or `paused`. The window asks about
    unsaved changes first."""

    scene: Scene
    paused: bool = False
    # False: the document is a question's scene, its changes only the question's exploring
    # (a "now try", a cut), so the next question's scene replaces it without asking
    ask: bool = True


# --- for the window ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Select:
    """Select a body or an obstacle; None selects nothing."""

    selection: Selection | None


@dataclass(frozen=True)
class Trigger:
    """Do what the window's action of row `action` (ui.window.actions) does: a panel's button that
    repeats a menu entry (Export readouts CSV…) asks for it by name."""

    action: str


# --- compositions the views ask for ------------------------------------------------------------


def change_body(scene: Scene, index: int, **changes: Any) -> Composed:
    """composition.change_body, where a sheet's new width or height keeps its rule (its
    resolution, or its spacing if locked), as both the Scene and Parameters panels want."""
    body = scene.bodies[index] if 0 <= index < len(scene.bodies) else None
    if isinstance(body, SheetSpec) and {"width", "height"} & set(changes):
        width = changes.pop("width", body.width)
        height = changes.pop("height", body.height)
        changes.update(composition.resize_sheet_keeping_rule(body, width, height))
    return composition.change_body(scene, index, **changes)
