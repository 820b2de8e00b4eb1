"""The Scene panel: a tree view on the SceneModel with range-aware editors; as a
ui.docks.panels.Panel it hands the document to the model. Choosing a body's or an obstacle's row
asks for it to be selected (a Select on `command_requested`); `show_selection` shows a
selection made anywhere (the 3D view) as the current row, with that body's fields and pins."""

from __future__ import annotations

import math
from collections.abc import Collection
from typing import Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QKeyEvent, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHeaderView,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from clothlab.sim.core import units
from clothlab.sim.core.parameters import Parameter
from clothlab.sim.core.snapshot import Snapshot
from clothlab.sim.document.scene import Scene
from clothlab.sim.text import tr
from clothlab.ui.docks.scene_model import (
    ADDRESS_ROLE,
    PARAMETER_ROLE,
    SELECTION_ROLE,
    SceneModel,
    parameter_for,
    shown_unit,
)
from clothlab.ui.intents import Select
from clothlab.ui.number_box import FloatBox, IntBox, Limits, number_box
from clothlab.ui.selection import Selection

Index = QModelIndex | QPersistentModelIndex
FORCES_EVERY_MS = 200  # the pins' forces in the tree: five times a second


def decimals_for(parameter: Parameter) -> int:
    """Enough decimals to show one step (0.001 → 3), at least two for readability."""
    return max(2, -math.floor(math.log10(parameter.step)) if parameter.step < 1 else 0)


class ValueDelegate(QStyledItemDelegate):
    """Spin boxes with the range, step and unit the value's metadata declares; a list of the
    names for a setting whose values are named. A typed number out of range is refused in one
    line (ui.number_box), never clamped."""

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: Index) -> QWidget:  # noqa: N802
        address = index.data(ADDRESS_ROLE)
        if address is None:
            return super().createEditor(parent, option, index)
        parameter = index.data(PARAMETER_ROLE) or parameter_for(address)
        if parameter.kind is str:  # a name: the line edit Qt gives text
            return super().createEditor(parent, option, index)
        if parameter.choices:
            combo_box = QComboBox(parent)
            combo_box.addItems([tr(choice) for choice in parameter.choices])
            return combo_box
        limits = Limits.of(parameter, tr(parameter.label))
        editor = number_box(limits, decimals_for(parameter), parent)
        if isinstance(editor, IntBox):
            editor.setSingleStep(round(parameter.step))
        else:
            editor.setSingleStep(parameter.step)
        model = index.model()
        si = isinstance(model, SceneModel) and model.si  # the unit of the scene's system
        if parameter.unit:
            editor.setSuffix(f" {shown_unit(units.shown_in(parameter.unit, si))}")
        editor.setFrame(False)
        if isinstance(model, SceneModel):  # a refusal goes where the model's refusals go
            editor.refused.connect(model.edit_refused)
        return editor

    def eventFilter(self, editor: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        # Qt's delegate makes a spin box interpret its text before Enter, Tab or leaving it is
        # committed, which puts the old value back without a word: say the refusal first.
        if isinstance(editor, (IntBox, FloatBox)) and _commits(event):
            editor.accept_typed()
        return super().eventFilter(editor, event)

    def setEditorData(self, editor: QWidget, index: Index) -> None:  # noqa: N802
        if isinstance(editor, QComboBox):
            editor.setCurrentIndex(int(index.data(Qt.ItemDataRole.EditRole)))
        elif isinstance(editor, (IntBox, FloatBox)):
            editor.setValue(index.data(Qt.ItemDataRole.EditRole))
        else:
            super().setEditorData(editor, index)

    def setModelData(self, editor: QWidget, model: QAbstractItemModel, index: Index) -> None:  # noqa: N802
        if isinstance(editor, QComboBox):
            model.setData(index, editor.currentIndex(), Qt.ItemDataRole.EditRole)
        elif isinstance(editor, (IntBox, FloatBox)):
            if editor.accept_typed():  # else refused in one line, and nothing is changed
                editor.interpretText()
                model.setData(index, editor.value(), Qt.ItemDataRole.EditRole)
        else:
            super().setModelData(editor, model, index)


class ScenePanel(QWidget):
    """Tree of the scene's objects; double-click (or F2) a value to edit it."""

    command_requested = Signal(object)  # Select: a body's or an obstacle's row was chosen

    def __init__(self, model: SceneModel, parent: Any = None) -> None:
        super().__init__(parent)
        self.model = model
        self.selection: Selection | None = None
        self._showing = False  # setting the current row to show a selection, not choosing one
        self._scroll_pending = False
        self._hidden_settings: frozenset[str] = frozenset()  # by a question set's class mode
        self._pending_forces: Snapshot | None = None  # the newest frame not yet shown
        self._forces_timer = QTimer(self, interval=FORCES_EVERY_MS, singleShot=True)
        self._forces_timer.timeout.connect(self._show_forces)
        self.view = QTreeView(self)
        self.view.setObjectName("scene_tree")
        self.view.setModel(model)
        self.view.setItemDelegateForColumn(1, ValueDelegate(self.view))
        self.view.setAlternatingRowColors(True)
        self.view.setUniformRowHeights(True)
        self.view.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.SelectedClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
        )
        header = self.view.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.view)
        model.modelReset.connect(self._expand)
        model.rowsInserted.connect(self._expand_inserted)
        model.modelReset.connect(self._hide_rows)
        model.rowsInserted.connect(lambda *_: self._hide_rows())
        self.view.selectionModel().currentChanged.connect(self._current_changed)

    # --- Panel -----------------------------------------------------------------------------

    def hide_settings(self, keys: Collection[str]) -> None:
        """A question set's class mode: the settings the Parameters panel hides are hidden here
        too (a student could otherwise change gravity in the tree); no keys shows them all."""
        self._hidden_settings = frozenset(keys)
        self._hide_rows()

    def _hide_rows(self, parent: QModelIndex | None = None) -> None:
        parent = parent if parent is not None else QModelIndex()
        for row in range(self.model.rowCount(parent)):
            value = self.model.index(row, 1, parent)
            address = value.data(ADDRESS_ROLE)
            hidden = (
                isinstance(address, tuple) and len(address) == 2 and address[0] == "setting"
                and address[1] in self._hidden_settings
            )  # fmt: skip
            self.view.setRowHidden(row, parent, hidden)
            self._hide_rows(self.model.index(row, 0, parent))

    def show_scene(self, scene: Scene) -> None:
        self.model.set_scene(scene)
        self._hide_rows()
        self._expand()
        self.show_selection(self.selection, force=True)

    def show_edit(self, scene: Scene, command: object) -> None:
        self.model.update_from_scene(scene)

    def show_snapshot(self, snapshot: Snapshot) -> None:
        """The tree shows the document; of a frame, only the forces (SceneModel.show_forces),
        at most every FORCES_EVERY_MS (text that changes every frame cannot be read), the
        newest last."""
        self._pending_forces = snapshot
        if not self._forces_timer.isActive():
            self._show_forces()
            self._forces_timer.start()

    def _show_forces(self) -> None:
        if self._pending_forces is not None:
            self.model.show_forces(self._pending_forces)
            self._pending_forces = None

    # --- selection -------------------------------------------------------------------------

    def show_selection(self, selection: Selection | None, force: bool = False) -> None:
        """Make the selected body's or obstacle's row current and open (emits nothing)."""
        if selection == self.selection and not force:
            return
        previous, self.selection = self.selection, selection
        self.model.show_pins_of(selection.index if selection and selection.kind == "body" else None)
        self._showing = True
        try:
            if previous is not None and previous != selection:
                self.view.collapse(self.model.index_of(previous))
            index = self.model.index_of(selection) if selection is not None else QModelIndex()
            if index.isValid():
                self.view.expand(index.parent())
                self.view.expand(index)
                self.view.setCurrentIndex(index)
                self._scroll_to(index)
            elif _selection_at(self.view.currentIndex()) is not None:
                self.view.setCurrentIndex(QModelIndex())
        finally:
            self._showing = False

    def _scroll_to(self, index: QModelIndex) -> None:
        """Show the row and its group's title ("Bodies", "Obstacles"). A dock tab behind
        another is "visible" but squeezed to a few pixels, and scrolling in that would hide
        the group's title, so that waits until the panel is shown at its size."""
        if self.view.visibleRegion().isEmpty():
            self._scroll_pending = True
            return
        self._scroll_pending = False
        self.view.scrollTo(index.parent(), QAbstractItemView.ScrollHint.PositionAtTop)
        self.view.scrollTo(index)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        if self._scroll_pending and self.selection is not None:
            index = self.model.index_of(self.selection)
            if index.isValid():
                QTimer.singleShot(0, lambda: self._scroll_to(index))  # once the view has a size

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if self._showing or self.model.syncing:
            return  # the model's rows moved, or a selection is being shown: nobody chose
        selection = _selection_at(current)
        if selection is not None and selection != self.selection:
            self.command_requested.emit(Select(selection))

    def _expand(self, *_: Any) -> None:
        # Groups open, pins closed: a curtain has dozens of pins with three rows each.
        for row in range(self.model.rowCount()):
            index = self.model.index(row, 0)
            self.view.setExpanded(index, not self.model.is_pins_group(index))

    def _expand_inserted(self, parent: QModelIndex, *_: Any) -> None:
        if not parent.isValid():
            self._expand()


def _commits(event: QEvent) -> bool:
    """True for the events on which a delegate commits an editor's value."""
    if event.type() == QEvent.Type.FocusOut:
        return True
    keys = (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Tab, Qt.Key.Key_Backtab)
    return (
        isinstance(event, QKeyEvent)
        and event.type() == QEvent.Type.KeyPress
        and (event.key() in keys)
    )


def _selection_at(index: QModelIndex) -> Selection | None:
    """The body or obstacle a row belongs to (its own row or one of its fields), if any."""
    index = index.siblingAtColumn(0)
    while index.isValid():
        selection = index.data(SELECTION_ROLE)
        if selection is not None:
            return selection
        index = index.parent()
    return None
