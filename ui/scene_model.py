"""The scene's objects and their properties as a Qt item model (Property | Value).

Rows are groups (bodies, ball, floor, wind, solver, pins) with one child per property. Every
editable value item carries an address in ADDRESS_ROLE saying what it edits; an edit made in a
view becomes a `*_edit_requested` signal, and the document's answer comes back through
`update_from_scene`, so the model always shows the document, not what a view typed.
"""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QStandardItem, QStandardItemModel

from clothlab.sim.parameters import COORDINATE_LIMIT, PARAMETERS, Parameter, section_parameters
from clothlab.sim.scene import BlockSpec, Scene, SheetSpec, body_counts, scene_settings

ADDRESS_ROLE = Qt.ItemDataRole.UserRole + 1  # ("setting", key) | ("ball_center", axis)
#                                               | ("pin", particle, axis)
UNIT_ROLE = Qt.ItemDataRole.UserRole + 2
AXES = "xyz"

Address = tuple[Any, ...]
Index = QModelIndex | QPersistentModelIndex


def coordinate_parameter(label: str) -> Parameter:
    """Metadata for a position coordinate, so editors treat it like a declared setting."""
    return Parameter(
        label, label, "units", -COORDINATE_LIMIT, COORDINATE_LIMIT, 0.05, 0.0,
        f"{label} (units).", "",
    )  # fmt: skip


def parameter_for(address: Address) -> Parameter:
    if address[0] == "setting":
        return PARAMETERS[address[1]]
    return coordinate_parameter(f"{AXES[address[-1]]}")


def choice_name(address: Address | None, value: Any) -> str | None:
    """The name of a setting's value, for settings whose values are named (the table's
    `choices`); None for every other value."""
    if address is None or address[0] != "setting":
        return None
    choices = PARAMETERS[address[1]].choices
    if choices and isinstance(value, int) and 0 <= value < len(choices):
        return choices[value]
    return None


def format_value(value: Any, unit: str = "") -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float):
        text = "—" if math.isnan(value) else f"{value:.4g}"
    else:
        text = str(value)
    return f"{text} {unit}".rstrip()


def tooltip_for(parameter: Parameter) -> str:
    """Tooltip text with the range and unit, shared by every widget that edits a setting."""
    if parameter.kind is bool:
        return parameter.tooltip
    unit = f" {parameter.unit}" if parameter.unit else ""
    low, high = f"{parameter.minimum:g}", f"{parameter.maximum:g}"
    return f"{parameter.tooltip}\nRange {low} … {high}{unit}, step {parameter.step:g}{unit}."


SHORT_LABELS = {"ball": "On", "floor": "On", "wind": "Strength"}  # the group says the rest


def section_keys(section: str) -> list[str]:
    """The scalar settings stored in this section of a scene file, in table order."""
    return [p.key for p in section_parameters(section) if p.key in PARAMETERS]


def value_at(
    scene: Scene, address: Address, settings: Any = None, anchors: dict | None = None
) -> Any:
    """The document's value for an address. `settings` and `anchors` (particle → anchor) are
    the scene's, when the caller has them at hand: derived once, not once per value."""
    if address[0] == "setting":
        return getattr(settings or scene_settings(scene), address[1])
    if address[0] == "ball_center":
        return float(scene.ball.center[address[1]])
    if address[0] == "pin":
        if anchors is None:
            anchors = {p.particle: p.anchor for p in scene.pins}
        return float(anchors[address[1]][address[2]])
    raise KeyError(address)


class SceneModel(QStandardItemModel):
    setting_edit_requested = Signal(str, object)  # Settings key, new value
    pin_edit_requested = Signal(int, object)  # particle, new anchor (x, y, z)

    def __init__(self, parent: Any = None) -> None:
        super().__init__(0, 2, parent)
        self.setHorizontalHeaderLabels(["Property", "Value"])
        self._scene: Scene | None = None
        self._values: dict[Address, QStandardItem] = {}
        self._pins_group: QStandardItem | None = None
        self._syncing = False

    @property
    def scene(self) -> Scene | None:
        return self._scene

    # --- building ---------------------------------------------------------------------------

    def set_scene(self, scene: Scene) -> None:
        """Rebuild for a new document."""
        self._scene = scene
        self._values.clear()
        self._pins_group = None
        self.removeRows(0, self.rowCount())
        for body_index, body in enumerate(scene.bodies):
            self._add_body(body_index, body)
        ball = self._group("Ball", "The collision ball.")
        self._add_settings(ball, "ball")
        for axis in range(3):
            self._add_value(ball, f"Centre {AXES[axis]}", ("ball_center", axis))
        self._add_settings(self._group("Floor", "Nothing goes below the floor."), "floor")
        self._add_settings(self._group("Wind", PARAMETERS["wind"].tooltip), "wind")
        self._add_settings(self._group("Solver", "How the model is stepped."), "solver")
        self._add_settings(self._group("Fabric", "Options beyond the classic model."), "fabric")
        self._build_pins(scene)
        self.update_from_scene(scene)

    def _group(self, title: str, tooltip: str, summary: str = "") -> QStandardItem:
        name = QStandardItem(title)
        name.setEditable(False)
        name.setToolTip(tooltip)
        value = QStandardItem(summary)
        value.setEditable(False)
        self.appendRow([name, value])
        return name

    def _add_fixed(self, group: QStandardItem, label: str, value: Any, unit: str = "") -> None:
        name = QStandardItem(label)
        name.setEditable(False)
        item = QStandardItem(format_value(value, unit))
        item.setEditable(False)
        item.setToolTip("Fixed by the scene file (the sheet's shape cannot change while running).")
        group.appendRow([name, item])

    def _add_body(self, body_index: int, body: SheetSpec | BlockSpec) -> None:
        particles, links = body_counts([body])
        summary = f"{particles} particles, {links} links"
        if isinstance(body, SheetSpec):
            group = self._group(f"Sheet {body.cols} × {body.rows}", "A sheet of cloth.", summary)
            self._add_fixed(group, "Columns", body.cols)
            self._add_fixed(group, "Rows", body.rows)
            self._add_fixed(group, "Spacing", body.spacing, "units")
            self._add_fixed(group, "Lies flat", body.horizontal)
        else:
            title = f"Block {body.cubes} × {body.cubes} × {body.cubes}"
            group = self._group(title, "A soft block of linked cubes.", summary)
            self._add_fixed(group, "Cubes per side", body.cubes)
            self._add_fixed(group, "Cube side", body.side, "units")

    def _add_settings(self, group: QStandardItem, section: str) -> None:
        for key in section_keys(section):
            label = SHORT_LABELS.get(key, PARAMETERS[key].label)
            self._add_value(group, label, ("setting", key))

    def _add_value(self, group: QStandardItem, label: str, address: Address) -> None:
        parameter = parameter_for(address)
        name = QStandardItem(label)
        name.setEditable(False)
        name.setToolTip(tooltip_for(parameter))
        item = QStandardItem()
        item.setData(address, ADDRESS_ROLE)
        item.setData(parameter.unit, UNIT_ROLE)
        item.setToolTip(tooltip_for(parameter))
        if parameter.kind is bool:
            item.setEditable(False)
            item.setCheckable(True)
        group.appendRow([name, item])
        self._values[address] = item

    def _build_pins(self, scene: Scene) -> None:
        if self._pins_group is not None:
            for address in [a for a in self._values if a[0] == "pin"]:
                del self._values[address]
            self.removeRow(self._pins_group.row())
        group = self._group("Pins", "Pinned particles and their anchors (units).")
        group.model().item(group.row(), 1).setText(str(len(scene.pins)))
        for pin in scene.pins:
            pin_item = QStandardItem(f"Particle {pin.particle}")
            pin_item.setEditable(False)
            anchor = QStandardItem()
            anchor.setEditable(False)
            group.appendRow([pin_item, anchor])
            for axis in range(3):
                self._add_value(pin_item, f"Anchor {AXES[axis]}", ("pin", pin.particle, axis))
        self._pins_group = group

    # --- keeping up with the document ------------------------------------------------------

    def update_from_scene(self, scene: Scene) -> None:
        """Show the document's values; rebuilds the pins group when pins come or go."""
        self._syncing = True
        try:
            old_pins = [p.particle for p in self._scene.pins] if self._scene else []
            self._scene = scene
            if old_pins != [p.particle for p in scene.pins] or self._pins_group is None:
                self._build_pins(scene)
            settings = scene_settings(scene)
            anchors = {p.particle: p.anchor for p in scene.pins}
            for address, item in self._values.items():
                self._show(item, value_at(scene, address, settings, anchors))
            self._show_pin_summaries(scene)
        finally:
            self._syncing = False

    def _show(self, item: QStandardItem, value: Any) -> None:
        if item.isCheckable():
            state = Qt.CheckState.Checked if value else Qt.CheckState.Unchecked
            if item.checkState() != state:
                item.setCheckState(state)
            text = format_value(bool(value))
            if item.text() != text:
                item.setText(text)
        elif item.data(Qt.ItemDataRole.EditRole) != value:
            item.setData(value, Qt.ItemDataRole.EditRole)

    def _show_pin_summaries(self, scene: Scene) -> None:
        if self._pins_group is None:
            return
        anchors = {p.particle: p.anchor for p in scene.pins}
        for row in range(self._pins_group.rowCount()):
            name = self._pins_group.child(row, 0)
            particle = int(name.text().split()[-1])
            text = "(" + ", ".join(f"{v:.3g}" for v in anchors[particle]) + ")"
            summary = self._pins_group.child(row, 1)
            if summary.text() != text:
                summary.setText(text)

    # --- Qt model overrides ------------------------------------------------------------------

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        value = super().data(index, role)
        is_number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if role == Qt.ItemDataRole.DisplayRole and is_number:
            choice = choice_name(super().data(index, ADDRESS_ROLE), value)
            if choice is not None:
                return choice  # "automatic", as the Parameters panel says, not "0"
            return format_value(value, super().data(index, UNIT_ROLE) or "")
        return value

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:  # noqa: N802
        address = super().data(index, ADDRESS_ROLE)
        if self._syncing or address is None:
            return super().setData(index, value, role)
        if role == Qt.ItemDataRole.CheckStateRole:
            value = Qt.CheckState(value) == Qt.CheckState.Checked
        elif role != Qt.ItemDataRole.EditRole:
            return super().setData(index, value, role)
        parameter = parameter_for(address)
        try:
            value = parameter.check(parameter.kind(value))
        except (TypeError, ValueError):
            return False
        self._request(address, value)
        return True

    def _request(self, address: Address, value: Any) -> None:
        scene = self._scene
        if scene is None:
            return
        if address[0] == "setting":
            self.setting_edit_requested.emit(address[1], value)
        elif address[0] == "ball_center":
            center = list(scene.ball.center)
            center[address[1]] = value
            self.setting_edit_requested.emit("ball_center", tuple(center))
        elif address[0] == "pin":
            anchor = list({p.particle: p.anchor for p in scene.pins}[address[1]])
            anchor[address[2]] = value
            self.pin_edit_requested.emit(address[1], tuple(anchor))
