"""What a view may ask for that no sim record says: the requests beside the sim's own commands.

Views turn gestures into command records and emit them on one signal, `command_requested`;
the window hands every one to `WindowContext.submit` (ui.context), which passes them on to
`Controller.submit` (app.controller). Where the simulation has a record for the request, that
record is what a view emits: sim.document.commands' GrabStart, GrabMove, GrabRelease, Run, Pause,
Step, SetSpeed and sim.document.edits' CutLinks, SetPin. The records here cover the
rest: a change of composition made against the document as it is when the request arrives, a live
preview of a drag, the window's own business (selection, its actions), and requests that only the
document's holder can spell out (the seam cut, reset, a new document).

A SetPin's `previous` is what the view saw, or None: the controller takes it from the document,
which only it holds; so a setting is asked for by ChangeSetting, which the controller makes the
SetSetting from the value the document has. Nothing here imports Qt.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from clothlab.sim.document import composition
from clothlab.sim.document.composition import Composed
from clothlab.sim.document.scene import Scene, SheetSpec

if TYPE_CHECKING:
    from clothlab.sim.document.edits import SetPin
    from clothlab.ui.selection import Selection


# --- for the controller ------------------------------------------------------------------------


@dataclass(frozen=True)
class Compose:
    """A change of the scene's composition: `make(scene, *args, **changes)` (a
    sim.document.composition function) is called on the document when the request arrives, so a view
    need not hold the newest scene. One undoable edit, named by the Composed's text."""

    make: Callable[..., Composed]
    args: tuple[Any, ...] = ()
    changes: Mapping[str, Any] = field(default_factory=dict)

    def composed(self, scene: Scene) -> Composed:
        return self.make(scene, *self.args, **self.changes)


@dataclass(frozen=True)
class ChangeSetting:
    """Set a setting (sim.core.parameters' table) to `value`: one undoable SetSetting from the
    value the document has."""

    key: str
    value: Any


@dataclass(frozen=True)
class Preview:
    """Show `command` in the running model while it is being dragged, without recording it: the
    drag's end asks for the change itself, one undoable edit from where the drag began."""

    command: SetPin | ChangeSetting | Compose


@dataclass(frozen=True)
class BeginGesture:
    """A drag began (a slider pressed): its changes of one setting undo as one, until
    EndGesture."""


@dataclass(frozen=True)
class EndGesture:
    pass


@dataclass(frozen=True)
class SeamCut:
    """The model's own seam cut, down the middle of the document's first sheet."""


@dataclass(frozen=True)
class ToggleProbe:
    """A probe on the particle, or off it if it has one (the Probe tool's click): the
    controller makes it the SetProbe that fits the document (the next probe's number, or the
    slot the particle's probe is in)."""

    particle: int


@dataclass(frozen=True)
class Reset:
    """Back to t = 0 and rest positions; the edits stay, what the model tore is whole again."""


@dataclass(frozen=True)
class SetThenReset:
    """A setting changed (one undo entry), then back to t = 0 as Reset does: for a setting that
    holds the cloth to its rest state (tethers), which switched on in a tangled or overstretched
    run would pull it into a worse tangle (a melted 128² sheet: 144 % stretch, energy 10⁸)."""

    change: ChangeSetting


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
