"""Garbage is collected on the GUI thread only.

Python's collector runs on whichever thread allocates past its threshold. On the solver thread
it could collect a Qt object of the window left in a reference cycle (a menu, an action) and
destroy it there: the solver thread then waited for Qt's lock held by the GUI thread, which was
waiting for the GIL, and the app hung (seen in a test run: a replay seek's readouts, allocating
on the solver thread, collected a QMenu). So while a Controller runs, automatic collection is
off and the GUI thread collects on a timer, generation by generation as the thresholds say (as
pyqtgraph's GarbageCollector does)."""

from __future__ import annotations

import functools
import gc
import itertools

from PySide6.QtCore import QObject, QTimer

INTERVAL_MS = 250
_running: set[int] = set()  # collectors running: automatic collection is back on when none is
_numbers = itertools.count()


def _forget(number: int, *_destroyed: object) -> None:
    _running.discard(number)
    if not _running:
        gc.enable()


class MainThreadCollector(QObject):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._number = next(_numbers)
        _running.add(self._number)
        gc.disable()
        self._timer = QTimer(self)
        self._timer.timeout.connect(self.collect)
        self._timer.start(INTERVAL_MS)
        # a controller deleted without shutdown() must not leave collection off for good
        self.destroyed.connect(functools.partial(_forget, self._number))

    def collect(self) -> None:
        """What the automatic collector would have done by now, on this (the GUI) thread."""
        counts, thresholds = gc.get_count(), gc.get_threshold()
        for generation in (2, 1, 0):  # the oldest due takes the younger ones with it
            if counts[generation] > thresholds[generation]:
                gc.collect(generation)
                return

    def stop(self) -> None:
        """Stop collecting here; the last collector to stop turns automatic collection on."""
        self._timer.stop()
        _forget(self._number)
