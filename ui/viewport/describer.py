"""Keeps the 3D view's accessibleDescription (what a screen reader reads for it) set to
ui.viewport.description's text for the newest frame, and its accessibleName short.

A panel of the window (ui.docks.panels.Panel): it follows the document and the frames; the
window tells it what just happened (`happened`: an edit, an undo, a reset) and the view's keys
say what they did. Qt sends the accessibility event on each change of the text; the text is only
set when it changes, so a reader is not told the same thing thirty times a second.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from PySide6.QtCore import QObject, QTimer

from clothlab.sim.core.snapshot import Snapshot
from clothlab.sim.document.scene import Scene
from clothlab.sim.lab.engine import in_si_units
from clothlab.sim.text import QT_TR_NOOP, tr
from clothlab.ui.numbers import localized
from clothlab.ui.viewport.description import describe, pieces_per_body
from clothlab.ui.viewport.viewport import Viewport

VIEW_NAME = QT_TR_NOOP("3D view of the scene")
FRAME_WORDS_MS = 250  # frames are described at most this often: the newest one, always


class ViewDescriber(QObject):
    def __init__(self, view: Viewport, running: Callable[[], bool]) -> None:
        super().__init__(view)
        self.view = view
        self._running = running
        self._happened = ""
        self._frame: Snapshot | None = None  # the newest frame, to describe when the timer ends
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(FRAME_WORDS_MS)
        self._timer.timeout.connect(lambda: self.refresh(self._frame))
        self._pieces: tuple[object, bytes, list[int]] | None = None  # topology, links, pieces
        self._si = False  # whether the scene's run is in SI units (sim.lab.engine.in_si_units)
        view.setAccessibleName(tr(VIEW_NAME))
        view.key_said.connect(self.happened)
        view.key_hint_changed.connect(lambda _hint: self.refresh())
        self.refresh()

    def happened(self, text: str) -> None:
        """What was just done, said until the next thing is."""
        self._happened = text
        self.refresh()

    def show_scene(self, scene: Scene) -> None:
        self._si = in_si_units(scene)
        name = scene.name or tr("an untitled scene")
        self.happened(tr("Opened {name}").format(name=name))

    def show_edit(self, scene: Scene, command: object) -> None:
        self._si = in_si_units(scene)  # a body's fabric may have changed
        text = getattr(command, "text", "")
        if text:
            self.happened(tr(str(text)))  # an edit's text, marked with QT_TR_NOOP in sim

    def show_snapshot(self, snapshot: Snapshot) -> None:
        self._frame = snapshot
        if not self._timer.isActive():
            self._timer.start()

    def _pieces_of(self, snapshot: Snapshot) -> list[int]:
        """pieces_per_body, counted again only when the live links have changed."""
        alive = np.packbits(snapshot.link_alive).tobytes()
        known = self._pieces
        if known is None or known[0] is not snapshot.topology or known[1] != alive:
            pieces = pieces_per_body(snapshot.topology, snapshot.link_alive)
            known = (snapshot.topology, alive, pieces)
            self._pieces = known
        return known[2]

    def text(self, snapshot: Snapshot | None = None) -> str:
        keys = self.view.keys
        snapshot = snapshot if snapshot is not None else self.view.snapshot()
        return localized(
            describe(
                snapshot,
                self._running(),
                happened=self._happened,
                hint=keys.hint(),
                cursor=keys.words(),
                pieces=None if snapshot is None else self._pieces_of(snapshot),
                si=self._si,
            )
        )

    def refresh(self, snapshot: Snapshot | None = None) -> None:
        text = self.text(snapshot)
        if text != self.view.accessibleDescription():
            self.view.setAccessibleDescription(text)
