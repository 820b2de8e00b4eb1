"""What the Qt tests (tests/app, tests/ui) share besides fixtures: how long they wait, and how
they prove a snapshot that crossed from the solver thread is whole.

Importable from any test module as `from qt_helpers import WAIT_MS`: tests/ is on sys.path
because tests/conftest.py sits there (pytest's default "prepend" import mode)."""

from __future__ import annotations

import zlib
from typing import Any

import numpy as np
from PySide6.QtCore import QCoreApplication, QMetaObject, QModelIndex, QObject, QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLayoutItem, QWidget
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


def window_fingerprint(window: Any) -> dict[str, object]:
    """What a person or a test could tell apart between two main windows, by name: the size and
    title, the controller's document and run, the tool, the status message, the focus, the
    top-level widgets shown (but main windows), each dock's place, each action's state and the
    value of every input widget. Two windows built alike (or one reset as make_window does)
    give equal ones; `fingerprint_changes` lists where two differ."""
    from PySide6.QtWidgets import QApplication

    controller, stack = window.controller, window.controller.undo_stack
    focused = window.focusWidget()  # the window's focus, whether the window is active or not
    tooltip = Qt.WindowType.ToolTip
    shown = [
        widget for widget in QApplication.topLevelWidgets()
        if widget.isVisible() and not isinstance(widget, type(window))
        and widget.windowType() != tooltip
    ]  # fmt: skip
    prints: dict[str, object] = {
        "size": (window.width(), window.height()),
        "window state": window.windowState(),
        "title": (window.windowTitle(), window.isWindowModified()),
        "document": (controller.scene, controller.path, controller.replay is None),
        "run": (controller.running, controller.speed),
        "undo": (stack.count(), stack.index(), stack.isClean()),
        "tool": window.viewport.interaction.tool,
        "selection": window.selection.current,
        "status message": window.status.currentMessage(),
        "focus": None if focused is None else widget_path(window, focused),
        "active": QApplication.activeWindow() is window,
        "top levels shown": sorted(type(widget).__name__ for widget in shown),
        "class mode": (window.class_mode, len(window.class_hidden)),
        "fit dialog": window.fit_dialog is not None,
        "central": widget_path(window, window.central.currentWidget()),
    }
    for name, dock in window.docks_by_name.items():
        prints[f"dock {name}"] = (
            dock.toggleViewAction().isChecked(), dock.isFloating(), window.dockWidgetArea(dock),
            sorted(other.objectName() for other in window.tabifiedDockWidgets(dock)),
            not dock.visibleRegion().isEmpty(),
        )  # fmt: skip
        if not dock.visibleRegion().isEmpty():  # one hidden or behind a tab keeps an old size
            prints[f"dock {name} size"] = (dock.width(), dock.height())
    for name, action in window._actions.items():
        prints[f"action {name}"] = (action.isChecked(), action.isEnabled(), action.isVisible())
    for widget in window.findChildren(QWidget):
        value = _input_value(widget)
        if value is not None:
            prints[widget_path(window, widget)] = (value, widget.isVisibleTo(window))
    return prints


def widget_path(window: Any, widget: Any) -> str:
    """A widget's place in the window: its ancestors' and its own names, or for one without a
    name its class and rank among its parent's children of that class, so that two windows
    built alike name their widgets alike."""
    parts: list[str] = []
    while widget is not None and widget is not window:
        parent = widget.parentWidget()
        if widget.objectName():
            parts.append(widget.objectName())
        else:
            siblings = [] if parent is None else parent.findChildren(
                type(widget), options=Qt.FindChildOption.FindDirectChildrenOnly
            )  # fmt: skip
            rank = siblings.index(widget) if widget in siblings else 0
            parts.append(f"{type(widget).__name__}[{rank}]")
        widget = parent
    return "/".join(reversed(parts))


def _input_value(widget: Any) -> object:
    """What an input widget holds, or None for a widget that holds no input."""
    from PySide6.QtWidgets import (
        QAbstractButton,
        QAbstractItemView,
        QAbstractSpinBox,
        QComboBox,
        QLineEdit,
        QPlainTextEdit,
        QTabBar,
        QTextEdit,
    )  # fmt: skip

    if isinstance(widget, QLineEdit):
        return widget.text()
    if isinstance(widget, QAbstractSpinBox):
        return widget.text()
    if isinstance(widget, QComboBox):
        return (widget.currentText(), widget.count())
    if isinstance(widget, QAbstractButton):
        return (widget.isChecked(), widget.isEnabled(), widget.text())
    if isinstance(widget, QTabBar):
        return (widget.currentIndex(), widget.count())
    if isinstance(widget, QAbstractItemView) and widget.model() is not None:
        return widget.model().rowCount(QModelIndex())
    if isinstance(widget, QTextEdit | QPlainTextEdit):
        return widget.toPlainText()
    return None


def fingerprint_changes(before: dict[str, object], after: dict[str, object]) -> list[str]:
    """Where two window fingerprints differ: one line each."""
    keys = sorted(set(before) | set(after))
    missing = "(none)"
    return [
        f"{key}: {before.get(key, missing)!r} → {after.get(key, missing)!r}"
        for key in keys
        if not _alike(key, before.get(key, missing), after.get(key, missing))
    ]


def _alike(key: str, before: Any, after: Any) -> bool:
    """Equal, or sizes a pixel or two apart (a dock layout rounds its splits)."""
    if key.endswith(" size") and isinstance(before, tuple) and isinstance(after, tuple):
        return all(abs(a - b) <= 2 for a, b in zip(before, after, strict=True))
    return before == after
