"""What every panel shows (the docks, and the status bar's numbers): the window hands each of
them the same three things, so adding a panel means adding it to the window's list, not another
call in each of its handlers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from clothlab.sim.core.snapshot import Snapshot
    from clothlab.sim.document.scene import Scene


@runtime_checkable
class Panel(Protocol):
    def show_scene(self, scene: Scene) -> None:
        """A new document was loaded: rebuild what depends on its bodies and pins."""

    def show_edit(self, scene: Scene, command: object) -> None:
        """The document after a command, an undo or a redo (`command` None: resynchronise, e.g.
        after a refused request)."""

    def show_snapshot(self, snapshot: Snapshot) -> None:
        """The newest frame of the simulation, at most FRAME_HZ (30) times a second."""
