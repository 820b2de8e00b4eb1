"""The History dock: the undo stack's entries, the current one selected, the saved one marked; a
click goes back (or forward) to it.

Qt's QUndoView resets its whole model on every change of the stack, and its list view then lays
out every row again: shown, it took 26 ms a push at 10 000 entries (0.2 ms at none). This model
follows the stack with row inserts and removes and lists the newest HISTORY_ROWS entries (a
list view still lays out all its rows on an insert: 13 ms at 10 000), so an edit costs the
same however long the history is.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from functools import cache
from typing import Any

import shiboken6
from PySide6.QtCore import (
    QAbstractListModel,
    QItemSelectionModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSize,
    Qt,
)
from PySide6.QtGui import QIcon, QPixmap, QUndoStack
from PySide6.QtWidgets import QAbstractItemView, QListView, QWidget

from clothlab.sim.text import tr
from clothlab.ui.icons import icon

HISTORY_ROWS = 500  # entries listed at most: a list view lays out all its rows on each change
ICON_PX = 16  # the saved mark's size


@cache
def _blank_icon() -> QIcon:
    blank = QPixmap(ICON_PX, ICON_PX)
    blank.fill(Qt.GlobalColor.transparent)
    return QIcon(blank)


class HistoryModel(QAbstractListModel):
    """Row r is the state at stack index first + r: row 0 the scene as loaded (or the edits
    before the rows listed, counted), row r > 0 the state after entry first + r − 1, named by
    it. At most `rows` entries are listed, the newest unless the current one is older.

    The model does not keep the stack alive: were it the stack's last owner, the stack would
    be destroyed while the model is (say, with its window), and its farewell indexChanged
    would reach a half-destroyed model (a segfault)."""

    def __init__(
        self,
        stack: QUndoStack,
        empty_label: str,
        parent: QObject | None = None,
        rows: int = HISTORY_ROWS,
    ) -> None:
        super().__init__(parent)
        self._stack = weakref.ref(stack)
        self.empty_label = empty_label
        self.rows = rows
        self.first, self.last = self._window()
        self._index = stack.index()
        stack.indexChanged.connect(self._follow)
        stack.cleanChanged.connect(self._mark_clean)

    @property
    def stack(self) -> QUndoStack | None:
        """The stack, or None once it is gone or going (its destructor still signals)."""
        stack = self._stack()
        return stack if stack is not None and shiboken6.isValid(stack) else None

    def row_of(self, index: int) -> int:
        """The row showing stack index `index` (row 0 for the edits before the list)."""
        return max(index - self.first, 0)

    def rowCount(  # noqa: N802 (Qt names it)
        self,
        parent: QModelIndex | QPersistentModelIndex = QModelIndex(),  # noqa: B008
    ) -> int:
        return 0 if parent.isValid() else self.last - self.first + 1

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        stack = self.stack
        if not index.isValid() or stack is None:
            return None
        row = index.row()
        if role == Qt.ItemDataRole.DisplayRole:
            if row == 0:
                if self.first:
                    return tr("… %n earlier edit(s)", "", self.first)
                return self.empty_label
            return stack.text(self.first + row - 1)
        clean = self._is_clean_row(stack, row)
        if role == Qt.ItemDataRole.DecorationRole:
            return icon("save") if clean else _blank_icon()  # the blank keeps the names aligned
        if role == Qt.ItemDataRole.ToolTipRole and clean:
            return tr("The scene as it was last opened or saved")
        return None

    def _is_clean_row(self, stack: QUndoStack, row: int) -> bool:
        return stack.cleanIndex() - self.first == row  # cleanIndex() is −1 once it is dropped

    def _window(self) -> tuple[int, int]:
        """(first, last) stack index listed."""
        stack = self.stack
        if stack is None:
            return 0, 0
        entries = stack.count()
        first = max(0, min(stack.index(), entries - self.rows))
        return first, min(entries, first + self.rows)

    def _follow(self, index: int) -> None:
        """Entries from the older current one on may be new (a push drops what could be redone,
        a merge renames the top entry): insert or remove rows to match, and name them again.
        Once the list is full, each push moves it on by an entry: it is laid out anew, at most
        `rows` rows."""
        first, last = self._window()
        if first != self.first:
            self.beginResetModel()
            self.first, self.last = first, last
            self.endResetModel()
        elif last < self.last:
            self.beginRemoveRows(QModelIndex(), last - first + 1, self.last - first)
            self.last = last
            self.endRemoveRows()
        elif last > self.last:
            self.beginInsertRows(QModelIndex(), self.last - first + 1, last - first)
            self.last = last
            self.endInsertRows()
        changed, bottom = self.row_of(min(self._index, index)), self.rowCount() - 1
        self._index = index
        if changed <= bottom:
            self.dataChanged.emit(self.index(changed), self.index(bottom))

    def _mark_clean(self, _clean: bool) -> None:
        """The saved state moved (a save, an open) or was dropped: its mark is drawn anew."""
        if self.rowCount():
            roles = [Qt.ItemDataRole.DecorationRole, Qt.ItemDataRole.ToolTipRole]
            self.dataChanged.emit(self.index(0), self.index(self.rowCount() - 1), roles)


class HistoryView(QListView):
    """The history as a list; choosing a row undoes or redoes up to it, by `go_to` (a stack
    index; the controller's go_to_history applies the entries as one batch), or else by
    setting the stack's index."""

    def __init__(
        self,
        stack: QUndoStack,
        empty_label: str,
        parent: QWidget | None = None,
        rows: int = HISTORY_ROWS,
        go_to: Callable[[int], None] | None = None,
    ) -> None:
        super().__init__(parent)
        self._go_to_index = go_to  # not stack.setIndex: the view may not keep the stack alive
        self.history = HistoryModel(stack, empty_label, self, rows)
        self.setModel(self.history)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setUniformItemSizes(True)  # rows are laid out without asking each one's size
        self.setIconSize(QSize(ICON_PX, ICON_PX))  # the saved mark and the blanks alike
        stack.indexChanged.connect(self._show_current)  # after the model's own slot
        self.selectionModel().currentRowChanged.connect(self._go_to)
        self._show_current()

    def _show_current(self, *_: Any) -> None:
        stack = self.history.stack
        if stack is None:
            return
        row = self.history.index(self.history.row_of(stack.index()))
        if self.currentIndex() != row:
            flags = QItemSelectionModel.SelectionFlag.ClearAndSelect
            self.selectionModel().setCurrentIndex(row, flags)
            self.scrollTo(row)

    def _go_to(self, current: QModelIndex, _previous: QModelIndex) -> None:
        stack = self.history.stack
        if stack is None or not current.isValid():
            return
        if self.history.row_of(stack.index()) != current.row():
            index = self.history.first + current.row()
            if self._go_to_index is None:
                stack.setIndex(index)
            else:
                self._go_to_index(index)
