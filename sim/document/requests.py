"""The requests a Session takes beside the edit and run records (sim.document.commands): what
only the document's holder can spell out. A change of composition made against the document as
it is when the request arrives, a setting changed from the value the document has, a live
preview of a drag, a gesture that makes many changes one undo entry, the seam cut, a probe's
toggle, a reset.

A SetPin's `previous` is what its sender saw, or None: the session takes it from the document;
so a setting is asked for by ChangeSetting, which the session makes the SetSetting from the
value the document has.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from clothlab.sim.document.commands import SetPin
from clothlab.sim.document.composition import Composed
from clothlab.sim.document.scene import Scene


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
    """The model's own seam cut, down the middle of one of the document's sheets."""

    sheet: int = 0  # which sheet, in the order the scene's bodies list them


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
