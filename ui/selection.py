"""What the person has selected: a body, an obstacle (the ball is obstacle "ball"), or nothing.

One `SelectionModel` per window; the Scene panel and the viewport both set it and both show
it, so clicking a body in either selects it in the other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from PySide6.QtCore import QObject, Signal

from clothlab.sim.document.scene import Scene

BALL = -1  # the obstacle index of the classic model's ball (the first sphere)


@dataclass(frozen=True)
class Selection:
    kind: Literal["body", "obstacle"]
    index: int  # into scene.bodies, or scene.obstacles (BALL for the ball)

    def exists_in(self, scene: Scene) -> bool:
        if self.kind == "body":
            return 0 <= self.index < len(scene.bodies)
        return self.index == BALL or 0 <= self.index < len(scene.obstacles)


class SelectionModel(QObject):
    changed = Signal(object)  # Selection | None

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.current: Selection | None = None

    def select(self, selection: Selection | None) -> None:
        if selection != self.current:
            self.current = selection
            self.changed.emit(selection)

    def keep_valid(self, scene: Scene) -> None:
        """Drop the selection if the scene no longer has it (a body removed, an undo)."""
        if self.current is not None and not self.current.exists_in(scene):
            self.select(None)

    @property
    def body(self) -> int | None:
        """The selected body's index, if a body is selected."""
        s = self.current
        return s.index if s is not None and s.kind == "body" else None
