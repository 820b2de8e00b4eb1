"""Runs sim.lab.resolution's check of a finer sheet off the GUI thread: running the edited
scene from rest takes from a fraction of a second (60 × 43) to several (256 × 256), and the
window must not wait for it. The newest edit's check is the one that counts: a later edit, a
load or the window closing makes the running one give up at its next step."""

from __future__ import annotations

import threading

from PySide6.QtCore import QObject, Signal, Slot

from clothlab.sim.document.scene import Scene
from clothlab.sim.lab.resolution import Advice, finer_sheet_advice, worth_checking


class FinerSheetCheck(QObject):
    found = Signal(object)  # Advice, for the edit checked last, if nothing came after it
    _done = Signal(int, object)  # from the checking thread: (generation, Advice)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._generation = 0
        self._threads: list[threading.Thread] = []
        self._done.connect(self._deliver)  # queued: emitted on the checking thread

    def start(self, before: Scene, after: Scene) -> None:
        """Check the edit `before` → `after` if it made a sheet finer (else only cancel)."""
        self.cancel()
        if not worth_checking(before, after):
            return
        generation = self._generation
        thread = threading.Thread(
            target=self._run, args=(before, after, generation), name="finer-sheet-check",
            daemon=True,
        )  # fmt: skip
        self._threads = [t for t in self._threads if t.is_alive()] + [thread]
        thread.start()

    def cancel(self) -> None:
        self._generation += 1

    def wait(self) -> None:
        """Cancel and wait for the checking threads (at shutdown)."""
        self.cancel()
        for thread in self._threads:
            thread.join()

    def _run(self, before: Scene, after: Scene, generation: int) -> None:
        advice = finer_sheet_advice(before, after, lambda: generation != self._generation)
        if advice is not None:
            self._done.emit(generation, advice)

    @Slot(int, object)
    def _deliver(self, generation: int, advice: Advice) -> None:
        if generation == self._generation:
            self.found.emit(advice)
