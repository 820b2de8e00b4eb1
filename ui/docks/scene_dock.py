"""The Scene panel: a tree view on the SceneModel with range-aware editors; as a
ui.panels.Panel it hands the document to the model."""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDoubleSpinBox,
    QHeaderView,
    QSpinBox,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from clothlab.sim.parameters import Parameter
from clothlab.sim.scene import Scene
from clothlab.sim.snapshot import Snapshot
from clothlab.ui.scene_model import ADDRESS_ROLE, SceneModel, parameter_for

Index = QModelIndex | QPersistentModelIndex


def decimals_for(parameter: Parameter) -> int:
    """Enough decimals to show one step (0.001 → 3), at least two for readability."""
    return max(2, -math.floor(math.log10(parameter.step)) if parameter.step < 1 else 0)


class ValueDelegate(QStyledItemDelegate):
    """Spin boxes with the range, step and unit the value's metadata declares; a list of the
    names for a setting whose values are named."""

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: Index) -> QWidget:  # noqa: N802
        address = index.data(ADDRESS_ROLE)
        if address is None:
            return super().createEditor(parent, option, index)
        parameter = parameter_for(address)
        if parameter.choices:
            combo_box = QComboBox(parent)
            combo_box.addItems(list(parameter.choices))
            return combo_box
        editor: QSpinBox | QDoubleSpinBox
        if parameter.kind is int:
            editor = QSpinBox(parent)
            editor.setRange(int(parameter.minimum), int(parameter.maximum))
        else:
            editor = QDoubleSpinBox(parent)
            editor.setDecimals(decimals_for(parameter))
            editor.setRange(parameter.minimum, parameter.maximum)
            editor.setSingleStep(parameter.step)
        if parameter.unit:
            editor.setSuffix(f" {parameter.unit}")
        editor.setFrame(False)
        return editor

    def setEditorData(self, editor: QWidget, index: Index) -> None:  # noqa: N802
        if isinstance(editor, QComboBox):
            editor.setCurrentIndex(int(index.data(Qt.ItemDataRole.EditRole)))
        elif isinstance(editor, (QSpinBox, QDoubleSpinBox)):
            editor.setValue(index.data(Qt.ItemDataRole.EditRole))
        else:
            super().setEditorData(editor, index)

    def setModelData(self, editor: QWidget, model: QAbstractItemModel, index: Index) -> None:  # noqa: N802
        if isinstance(editor, QComboBox):
            model.setData(index, editor.currentIndex(), Qt.ItemDataRole.EditRole)
        elif isinstance(editor, (QSpinBox, QDoubleSpinBox)):
            editor.interpretText()
            model.setData(index, editor.value(), Qt.ItemDataRole.EditRole)
        else:
            super().setModelData(editor, model, index)


class ScenePanel(QWidget):
    """Tree of the scene's objects; double-click (or F2) a value to edit it."""

    def __init__(self, model: SceneModel, parent: Any = None) -> None:
        super().__init__(parent)
        self.model = model
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
        model.rowsInserted.connect(self._expand)

    # --- Panel -----------------------------------------------------------------------------

    def show_scene(self, scene: Scene) -> None:
        self.model.set_scene(scene)

    def show_edit(self, scene: Scene, command: object) -> None:
        self.model.update_from_scene(scene)

    def show_snapshot(self, snapshot: Snapshot) -> None:
        pass  # the tree shows the document; frames change nothing in it

    def _expand(self, *_: Any) -> None:
        # Groups open, pins closed: a curtain has dozens of pins with three rows each.
        for row in range(self.model.rowCount()):
            index = self.model.index(row, 0)
            self.view.setExpanded(index, index.data() != "Pins")
