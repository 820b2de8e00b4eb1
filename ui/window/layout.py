"""The main window's layout: stored and restored (ui.window.preferences), put back to the default,
and docks that give way to the 3D view in small windows.

After a resize the 3D view keeps at least VIEW_SHARE of the window's width, or VIEW_WIDTH pixels
where that is less; the dock columns get the rest, each narrowed no further than it stays
usable. When two columns cannot both be usable, the right column's docks join the left one as
tabs, and go back when the window is wide enough again.

A usable column shows its tabs' titles in full ("Parameters", not "Param…"): docks tabbed
together are given the width their tab bar needs as their minimum, and where the window is too
small for that and half of it for the 3D view (800 × 500 logical pixels, a 1600 × 1000 screen at
QT_SCALE_FACTOR=2), the titles win.
"""

from __future__ import annotations

import functools
import sys

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QDockWidget, QMainWindow, QStatusBar, QStyle, QTabBar

from clothlab.sim.text import QT_TR_NOOP, tr
from clothlab.ui.window import preferences
from clothlab.ui.window.preferences import STATE_VERSION

VIEW_SHARE = 0.5
VIEW_WIDTH = 560
USABLE_DOCK_WIDTH = 320  # a dock is narrowed no further than this (or its own minimum)
SIDES = (Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea)
# in English on stderr; in the app's language, capitalised, in the status bar
LAYOUT_WARNING = QT_TR_NOOP("the stored window layout could not be read; using the default layout")


class WindowLayout:
    def __init__(
        self, window: QMainWindow, docks: tuple[QDockWidget, ...], first: QDockWidget,
        status: QStatusBar,
    ) -> None:  # fmt: skip
        """Call once the docks are in their default places: that is the default layout."""
        self.window, self.docks, self.first, self.status = window, docks, first, status
        self.default_state = window.saveState(STATE_VERSION)
        self.tabbed_right: list[QDockWidget] = []  # docks moved to the left column
        self.right_on_top: QDockWidget | None = None  # the one of them shown before they moved
        self._timer = QTimer(window)  # resizes come in bursts: fit once after them
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.fit)
        for dock in docks:  # a dock dragged into or out of a tab group: its titles' width
            dock.dockLocationChanged.connect(self.schedule)

    def restore(self) -> bool:
        """The stored geometry and dock layout; anything unreadable → the default layout, and
        one warning when something was stored."""
        restored = preferences.restore_window(self.window)
        if not restored:
            self.reset()
            if preferences.layout_stored():
                print(f"clothlab: warning: {LAYOUT_WARNING}", file=sys.stderr)
                warning = tr(LAYOUT_WARNING)
                self.status.showMessage(warning[:1].upper() + warning[1:], 10_000)
        return restored

    def save(self, view_options: dict[str, bool]) -> None:
        """Remember the layout as the user made it: docks that only moved to the left column
        because the window was small are stored where they were."""
        moved = self.put_back()
        preferences.store_layout(self.window, view_options)
        if moved:
            self.schedule()

    def reset(self) -> None:
        self.window.restoreState(self.default_state, STATE_VERSION)
        self.forget()
        for dock in self.docks:
            dock.setFloating(False)
            dock.show()
        self.first.raise_()
        self.schedule()

    def schedule(self) -> None:
        self._timer.start()

    def forget(self) -> None:
        """The layout was put back to its default: nothing was moved."""
        self.tabbed_right = []

    def put_back(self) -> list[QDockWidget]:
        """Return the moved docks to the right column (before the layout is stored, so it is
        stored as the user made it); the docks that were moved."""
        moved = [dock for dock in self.tabbed_right if dock in self.columns().get(SIDES[0], [])]
        if moved:
            self._untab(moved)
        return moved

    def fit(self) -> None:
        """Docks give way to the 3D view after a resize, so it keeps VIEW_SHARE of the window's
        width (or VIEW_WIDTH, where that is less): the left and right dock columns are narrowed
        in proportion, each no further than it stays usable (`_needed`). When the two columns
        cannot both be usable in the room left, the right column's docks join the left one as
        tabs, and they go back when the window is wide enough again. Floating docks, and docks
        the user put elsewhere, are left alone."""
        width = self.window.width()
        room = max(width - VIEW_WIDTH, (1.0 - VIEW_SHARE) * width)
        self.keep_titles()
        columns = self.columns()
        left, right = (columns.get(side, []) for side in SIDES)
        moved = [dock for dock in self.tabbed_right if dock in left]
        stay = [dock for dock in left if dock not in moved]
        separators = 2 * self.window.style().pixelMetric(
            QStyle.PixelMetric.PM_DockWidgetSeparatorExtent
        )
        if not moved and left and right and _needed(left) + _needed(right) + separators > room:
            self._tab_into(left, right)
            self.schedule()  # narrow the column once the layout has the tabs
            return
        if moved and stay and _needed(stay) + _needed(moved) + separators <= room:
            self._untab(moved)
            self.schedule()
            return
        self.tabbed_right = moved
        self._narrow(columns, room - separators)

    def keep_titles(self) -> None:
        """Each dock tabbed with others gets the width their tab bar needs to show every title
        in full as its minimum; a dock on its own, none (its content's own minimum holds)."""
        for dock in self.docks:
            group = [dock, *self.window.tabifiedDockWidgets(dock)]
            shown = [d for d in group if d.toggleViewAction().isChecked() and not d.isFloating()]
            tabbed = len(shown) > 1 and dock in shown
            dock.setMinimumWidth(tabs_width(_titles(shown)) if tabbed else 0)

    def columns(self) -> dict[Qt.DockWidgetArea, list[QDockWidget]]:
        """The docks shown (as a tab or not) in the left and right columns."""
        columns: dict[Qt.DockWidgetArea, list[QDockWidget]] = {}
        for dock in self.window.findChildren(QDockWidget):
            area = self.window.dockWidgetArea(dock)
            if area in SIDES and not dock.isFloating() and dock.toggleViewAction().isChecked():
                columns.setdefault(area, []).append(dock)
        return columns

    def _tab_into(self, left: list[QDockWidget], right: list[QDockWidget]) -> None:
        current = _on_top(left)
        self.right_on_top = _on_top(right)  # shown again when they go back
        right = sorted(right, key=self._declared)  # in the window's order: Readouts, Compare
        for dock in right:
            self.window.tabifyDockWidget(current, dock)
        current.raise_()
        self.tabbed_right = right
        self.keep_titles()  # now, so the layout takes its new widths in one step

    def _untab(self, moved: list[QDockWidget]) -> None:
        """The moved docks back to the right column, in the window's order, with the one that
        was on top there on top again (not whichever was tabified last)."""
        first, *rest = sorted(moved, key=self._declared)
        self.window.addDockWidget(SIDES[1], first)
        for dock in rest:
            self.window.tabifyDockWidget(first, dock)
        on_top = self.right_on_top if self.right_on_top in moved else first
        on_top.raise_()
        self.tabbed_right = []
        self.keep_titles()

    def _declared(self, dock: QDockWidget) -> int:
        return self.docks.index(dock) if dock in self.docks else len(self.docks)

    def _narrow(self, columns: dict[Qt.DockWidgetArea, list[QDockWidget]], room: float) -> None:
        widths = {side: _column_width(docks) for side, docks in columns.items()}
        if not widths:
            return
        if sum(widths.values()) <= room:
            self._widen(columns, widths, room)
            return
        # Shrink in proportion; a column that reaches its usable width stays there and the
        # others share what is left.
        targets = dict(widths)
        free = set(widths)
        for _ in columns:
            budget = room - sum(targets[side] for side in widths if side not in free)
            scale = budget / max(sum(widths[side] for side in free), 1)
            for side in list(free):
                floor = min(_needed(columns[side]), widths[side])
                targets[side] = max(floor, round(widths[side] * scale))
                if floor > widths[side] * scale:
                    free.discard(side)
        shown = [_on_top(columns[side]) for side in targets]
        self.window.resizeDocks(shown, list(targets.values()), Qt.Orientation.Horizontal)

    def _widen(
        self, columns: dict[Qt.DockWidgetArea, list[QDockWidget]], widths: dict, room: float
    ) -> None:
        """Columns narrower than they are usable, widened to that where the room allows: the
        window's first layout squeezes the docks before the window has its size, and a form
        left narrower than its fields cut them off."""
        targets = {side: max(width, _needed(columns[side])) for side, width in widths.items()}
        if targets == widths or sum(targets.values()) > room:
            return
        shown = [_on_top(columns[side]) for side in targets]
        self.window.resizeDocks(shown, list(targets.values()), Qt.Orientation.Horizontal)


def _needed(docks: list[QDockWidget]) -> int:
    """How wide a column of docks must stay to be usable: its docks' minimum widths, up to
    USABLE_DOCK_WIDTH of what they would like (a scrolling form reports a tiny minimum), and
    the width of their titles as tabs of one tab bar, when there are several."""
    content = max(
        max(dock.minimumSizeHint().width(), min(dock.sizeHint().width(), USABLE_DOCK_WIDTH))
        for dock in docks
    )
    return max(content, tabs_width(_titles(docks)) if len(docks) > 1 else 0)


def _titles(docks: list[QDockWidget]) -> tuple[str, ...]:
    return tuple(dock.windowTitle() for dock in docks)


@functools.cache  # one font and style per run
def tabs_width(titles: tuple[str, ...]) -> int:
    """The width a tab bar needs to show these titles in full: measured on a tab bar of the
    application's style, as QMainWindow's own dock tab bars are."""
    bar = QTabBar()
    bar.setElideMode(Qt.TextElideMode.ElideNone)
    for title in titles:
        bar.addTab(title)
    return bar.sizeHint().width()


def _on_top(docks: list[QDockWidget]) -> QDockWidget:
    """The dock of a column one sees: a tab behind another counts as visible to Qt, but none of
    it is on screen."""
    return next((dock for dock in docks if not dock.visibleRegion().isEmpty()), docks[0])


def _column_width(docks: list[QDockWidget]) -> int:
    return _on_top(docks).width()
