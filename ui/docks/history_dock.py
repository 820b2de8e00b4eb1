"""The History dock: the undo stack's entries, the current one selected; a click goes back (or
forward) to it.

Qt's QUndoView resets its whole model on every change of the stack, and its list view then lays
out every row again: shown, it took 26 ms a push at 10 000 entries (0.2 ms at none). This model
follows the stack with row inserts and removes, so an edit costs the same however long the
history is.
"""

from __future__ import annotations

import weakref
from typing import Any

import shiboken6
from PySide6.QtCore import QAbstractListModel, QItemSelectionModel, QModelIndex, QObject, Qt
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QAbstractItemView, QListView, QWidget


class HistoryModel(QAbstractListModel):
    """Row 0 is the scene before any edit, row k the stack's entry k − 1. The model does not
    keep the stack alive: were it the stack's last owner, the stack would be destroyed while the
    model is (say, with its window), and its farewell indexChanged would reach a half-destroyed
    model (a segfault)."""

    def __init__(self, stack: QUndoStack, empty_label: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._stack = weakref.ref(stack)
        self.empty_label = empty_label
        self._entries = stack.count()
        self._index = stack.index()
        stack.indexChanged.connect(self._follow)

    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: N802, B008 (Qt names it)
        return 0 if parent.isValid() else self._entries + 1

    @property
    def stack(self) -> QUndoStack | None:
        """The stack, or None once it is gone or going (its destructor still signals)."""
        stack = self._stack()
        return stack if stack is not None and shiboken6.isValid(stack) else None

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role != Qt.ItemDataRole.DisplayRole or not index.isValid():
            return None
        row, stack = index.row(), self.stack
        if row == 0:
            return self.empty_label
        return stack.text(row - 1) if stack is not None else None

    def _follow(self, index: int) -> None:
        """Entries from the older current one on may be new (a push drops what could be redone,
        a merge renames the top entry): insert or remove rows to match, and name them again."""
        stack = self.stack
        entries = stack.count() if stack is not None else 0
        if entries < self._entries:
            self.beginRemoveRows(QModelIndex(), entries + 1, self._entries)
            self._entries = entries
            self.endRemoveRows()
        elif entries > self._entries:
            self.beginInsertRows(QModelIndex(), self._entries + 1, entries)
            self._entries = entries
            self.endInsertRows()
        first = min(self._index, index)
        self._index = index
        if first <= entries:
            self.dataChanged.emit(self.index(first), self.index(entries))


class HistoryView(QListView):
    """The history as a list; choosing a row undoes or redoes up to it."""

    def __init__(self, stack: QUndoStack, empty_label: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.history = HistoryModel(stack, empty_label, self)
        self.setModel(self.history)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setUniformItemSizes(True)  # rows are laid out without asking each one's size
        stack.indexChanged.connect(self._show_current)  # after the model's own slot
        self.selectionModel().currentRowChanged.connect(self._go_to)
        self._show_current()

    def _show_current(self, *_: Any) -> None:
        stack = self.history.stack
        if stack is None:
            return
        row = self.history.index(stack.index())
        if self.currentIndex() != row:
            flags = QItemSelectionModel.SelectionFlag.ClearAndSelect
            self.selectionModel().setCurrentIndex(row, flags)
            self.scrollTo(row)

    def _go_to(self, current: QModelIndex, _previous: QModelIndex) -> None:
        stack = self.history.stack
        if stack is not None and current.isValid() and current.row() != stack.index():
            stack.setIndex(current.row())
