"""The Parameters panel: one widget per declared setting, generated from PARAMETERS.

int → spin box, float → slider + spin box, bool → check box. Every change is sent at once as
`setting_edit_requested`; the document's answer comes back through `show_scene` / `show_edit`
(a ui.panels.Panel) or `set_settings`, none of which re-emits.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSlider,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from clothlab.sim.parameters import PARAMETERS, Parameter, Settings
from clothlab.sim.scene import Scene, scene_settings
from clothlab.sim.snapshot import Snapshot
from clothlab.ui.docks.scene_dock import decimals_for
from clothlab.ui.scene_model import tooltip_for


class FloatEditor(QWidget):
    """A slider for dragging and a spin box for exact values, kept in step."""

    value_changed = Signal(float)
    drag_started = Signal()
    drag_finished = Signal()

    def __init__(self, parameter: Parameter, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.parameter = parameter
        self.slider = QSlider(Qt.Orientation.Horizontal, self)
        self.slider.setRange(0, round((parameter.maximum - parameter.minimum) / parameter.step))
        self.spin_box = QDoubleSpinBox(self)
        self.spin_box.setDecimals(decimals_for(parameter))
        self.spin_box.setRange(parameter.minimum, parameter.maximum)
        self.spin_box.setSingleStep(parameter.step)
        self.spin_box.setKeyboardTracking(False)  # one change per typed number, not per digit
        self.spin_box.setMinimumWidth(84)
        self.slider.setMinimumWidth(48)
        if parameter.unit and not unit_in_label(parameter):
            self.spin_box.setSuffix(f" {parameter.unit}")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.slider, 1)
        layout.addWidget(self.spin_box)
        self.slider.valueChanged.connect(self._slider_moved)
        self.slider.sliderPressed.connect(self.drag_started)
        self.slider.sliderReleased.connect(self.drag_finished)
        self.spin_box.valueChanged.connect(self._spin_box_changed)

    def value(self) -> float:
        return self.spin_box.value()

    def set_value(self, value: float) -> None:
        """Show a value without emitting value_changed."""
        for widget in (self.slider, self.spin_box):
            widget.blockSignals(True)
        self.spin_box.setValue(value)
        self.slider.setValue(self._position(value))
        for widget in (self.slider, self.spin_box):
            widget.blockSignals(False)

    def _position(self, value: float) -> int:
        return round((value - self.parameter.minimum) / self.parameter.step)

    def _slider_moved(self, position: int) -> None:
        value = self.parameter.minimum + position * self.parameter.step
        value = min(max(value, self.parameter.minimum), self.parameter.maximum)
        self.spin_box.blockSignals(True)
        self.spin_box.setValue(value)
        self.spin_box.blockSignals(False)
        self.value_changed.emit(self.spin_box.value())

    def _spin_box_changed(self, value: float) -> None:
        self.slider.blockSignals(True)
        self.slider.setValue(self._position(value))
        self.slider.blockSignals(False)
        self.value_changed.emit(value)


class ParametersPanel(QWidget):
    setting_edit_requested = Signal(str, object)  # Settings key, new value
    drag_started = Signal()  # a slider was pressed: what follows until release undoes as one
    drag_finished = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.editors: dict[str, QWidget] = {}
        form_host = QWidget()
        column = QVBoxLayout(form_host)
        column.setContentsMargins(0, 0, 0, 0)
        for group, parameters in _grouped(PARAMETERS.values()).items():
            box = QGroupBox(group)
            form = QFormLayout(box)
            form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
            for parameter in parameters:
                form.addRow(*self._make_row(parameter))
            column.addWidget(box)
        column.addStretch(1)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setWidget(form_host)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(scroll)

    def _make_row(self, parameter: Parameter) -> tuple[QLabel, QWidget]:
        editor = self._make_editor(parameter)
        editor.setObjectName(f"parameter_{parameter.key}")
        editor.setToolTip(tooltip_for(parameter))
        text = f"{parameter.label}\n({parameter.unit})" if unit_in_label(parameter) else None
        label = QLabel(text or parameter.label)
        label.setToolTip(tooltip_for(parameter))
        label.setBuddy(editor)
        self.editors[parameter.key] = editor
        return label, editor

    def _make_editor(self, parameter: Parameter) -> QWidget:
        key = parameter.key
        if parameter.kind is bool:
            check_box = QCheckBox(self)
            check_box.toggled.connect(lambda on: self.setting_edit_requested.emit(key, on))
            return check_box
        if parameter.choices:  # an int setting whose values have names
            combo_box = QComboBox(self)
            combo_box.addItems(list(parameter.choices))
            combo_box.activated.connect(lambda v: self.setting_edit_requested.emit(key, v))
            return combo_box
        if parameter.kind is int:
            spin_box = QSpinBox(self)
            spin_box.setRange(int(parameter.minimum), int(parameter.maximum))
            spin_box.setSingleStep(int(parameter.step))
            spin_box.setKeyboardTracking(False)
            spin_box.valueChanged.connect(lambda v: self.setting_edit_requested.emit(key, v))
            return spin_box
        editor = FloatEditor(parameter, self)
        editor.value_changed.connect(lambda v: self.setting_edit_requested.emit(key, v))
        editor.drag_started.connect(self.drag_started)
        editor.drag_finished.connect(self.drag_finished)
        return editor

    # --- Panel: the settings follow the document, not the frames ------------------------------

    def show_scene(self, scene: Scene) -> None:
        self.set_settings(scene_settings(scene))

    def show_edit(self, scene: Scene, command: object) -> None:
        self.set_settings(scene_settings(scene))

    def show_snapshot(self, snapshot: Snapshot) -> None:
        pass

    def set_settings(self, settings: Settings) -> None:
        """Show the document's settings; emits nothing."""
        for key in self.editors:
            self.set_value(key, getattr(settings, key))

    def set_value(self, key: str, value: Any) -> None:
        editor = self.editors[key]
        if isinstance(editor, FloatEditor):
            editor.set_value(float(value))
            return
        editor.blockSignals(True)
        if isinstance(editor, QCheckBox):
            editor.setChecked(bool(value))
        elif isinstance(editor, QSpinBox):
            editor.setValue(int(value))
        elif isinstance(editor, QComboBox):
            editor.setCurrentIndex(int(value))
        editor.blockSignals(False)


def _grouped(parameters: Iterable[Parameter]) -> dict[str, list[Parameter]]:
    """Parameters by their declared group, in declaration order."""
    groups: dict[str, list[Parameter]] = {}
    for parameter in parameters:
        groups.setdefault(getattr(parameter, "group", "") or "Settings", []).append(parameter)
    return groups


def unit_in_label(parameter: Parameter) -> bool:
    """Long units go next to the label, so the spin box leaves the slider room."""
    return len(parameter.unit) > 8
