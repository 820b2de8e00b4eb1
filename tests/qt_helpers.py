"""What the Qt tests (tests/app, tests/ui) share besides fixtures: how long they wait, and how
they prove a snapshot that crossed from the solver thread is whole.

Importable from any test module as `from qt_helpers import WAIT_MS`: tests/ is on sys.path
because tests/conftest.py sits there (pytest's default "prepend" import mode)."""

from __future__ import annotations

import zlib
from typing import Any

import numpy as np
from PySide6.QtCore import QCoreApplication, QMetaObject, QObject, QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLayoutItem
from shiboken6 import Shiboken

from clothlab.sim.core.snapshot import Snapshot
from clothlab.sim.core.state import faces_alive

# Generous because the first wait of a session also compiles the numba kernels; a wait that
# succeeds returns as soon as its condition holds, so a passing run never waits this long.
WAIT_MS = 30_000

SNAPSHOT_ARRAYS = ("x", "x_prev", "link_alive", "face_alive", "pin_index", "pin_anchor", "rows")


def snapshot_crc(snapshot: Snapshot) -> int:
    """crc32 of every array of a snapshot: take one when it is received, then compare it with
    `assert_whole` later, after the solver thread has stepped on."""
    crc = 0
    for name in SNAPSHOT_ARRAYS:
        crc = zlib.crc32(np.ascontiguousarray(getattr(snapshot, name)).data, crc)
    return crc


def assert_whole(snapshot: Snapshot, crc_on_receipt: int) -> None:
    """The snapshot is not torn and was never changed after it was received: its arrays are
    read-only, its faces are live exactly where all their links are (the solver derives the
    one mask from the other, so a copy taken between the two updates shows here), and its
    arrays still give the crc they gave on receipt (an array shared with the running model
    would not)."""
    for name in SNAPSHOT_ARRAYS:
        assert not getattr(snapshot, name).flags.writeable, f"frame {snapshot.frame}: {name}"
    expected = faces_alive(snapshot.link_alive, snapshot.topology.face_links)
    assert np.array_equal(snapshot.face_alive, expected), f"frame {snapshot.frame}: torn masks"
    assert snapshot_crc(snapshot) == crc_on_receipt, f"frame {snapshot.frame}: changed"


def settle(controller: Any) -> None:
    """Return once the solver thread has taken every command sent so far and what it passed on
    (journal entries, the newest snapshot) has reached the controller: a blocking call into the
    solver thread runs after every event queued there before it, and the events it queued for
    this thread on the way are delivered next, in order. A wait on a condition, not on time."""
    QMetaObject.invokeMethod(controller.worker, "drain", Qt.ConnectionType.BlockingQueuedConnection)
    QCoreApplication.sendPostedEvents()


def a_step_later(qtbot: Any, controller: Any) -> None:
    """Wait for the running solver to show a step past the one shown now."""
    shown = controller.latest.steps
    qtbot.waitUntil(lambda: controller.latest.steps > shown, timeout=WAIT_MS)


def ticks_pass(qtbot: Any, controller: Any, count: int = 5) -> None:
    """Wait for the solver thread's pacing clock to tick `count` times, then for what those
    ticks passed on: a running solver steps on every tick, so after this a paused one that
    has not moved has really stopped."""
    ticks: list[int] = []
    timer = controller.worker._timer
    counting = timer.timeout.connect(lambda: ticks.append(1), Qt.ConnectionType.DirectConnection)
    try:
        qtbot.waitUntil(lambda: len(ticks) >= count, timeout=WAIT_MS)
    finally:
        timer.timeout.disconnect(counting)
    settle(controller)


def a_frame_drawn(qtbot: Any, viewport: Any) -> None:
    """Ask the 3D view for a frame and wait until it has drawn one: what it shows on return
    is the state and the look (theme, camera) it has now."""
    with qtbot.waitSignal(viewport.frame_drawn, timeout=WAIT_MS):
        viewport.update()


def layout_settled(qtbot: Any, window: Any) -> None:
    """Wait until the window's dock layout has settled: the resizes and moves queued so far
    are taken, and the fit they scheduled (ui.window.layout) has run."""
    QCoreApplication.sendPostedEvents()
    qtbot.waitUntil(lambda: not window.layout_keeper._timer.isActive(), timeout=WAIT_MS)


def screen_point(window: Any, point: np.ndarray) -> QPoint:
    """Where a world point is in the window's 3D view, in its widget pixels."""
    x, y = window.viewport.project(np.asarray(point).reshape(1, 3))[0]
    return QPoint(round(x), round(y))


def drag(viewport: Any, points: list[QPoint]) -> None:
    """A left-button drag through `points` with real mouse events."""
    left, plain = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    QTest.mousePress(viewport, left, plain, points[0])
    for point in points[1:]:
        QTest.mouseMove(viewport, point)
    QTest.mouseRelease(viewport, left, plain, points[-1])


def layout_item_wrappers() -> list[str]:
    """The type names of live wrappers of layout items Qt made: there must be none (see
    ui/layouts.py; a layout, a QObject, and an item made in Python are told when they go)."""
    return [
        type(w).__name__ for w in Shiboken.getAllValidWrappers()
        if isinstance(w, QLayoutItem) and not isinstance(w, QObject)
        and not Shiboken.createdByPython(w)
    ]  # fmt: skip
