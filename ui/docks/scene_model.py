"""The scene's objects and their properties as a Qt item model (Property | Value).

Top-level groups: Bodies (one row per body, its fields as children), Obstacles (the ball, then
the scene's spheres and boxes), Pins (of the selected body, else of the scene), then the
world's settings (floor, wind, solver, fabric). Every editable value item carries an address in
ADDRESS_ROLE saying what it edits; an edit made in a view becomes a command record on
`command_requested` (ChangeSetting, SetPin, or a Compose of a body's or an obstacle's fields), and
the document's answer comes back through `update_from_scene`, so the model always shows the
document, not what a view typed. Rows of bodies and obstacles carry their Selection in
SELECTION_ROLE.

Updates are in place: rows are added or removed only where bodies, obstacles or the listed
pins came or went, so an edit costs what it changed, not what the scene holds (a scene
may hold 10 000 pins), and at most PIN_ROWS pins are listed.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any, Literal

import numpy as np
from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QColor, QStandardItem, QStandardItemModel

from clothlab.sim.core import units
from clothlab.sim.core.parameters import (
    COORDINATE_LIMIT,
    PARAMETERS,
    Parameter,
    Settings,
    section_parameters,
)
from clothlab.sim.core.snapshot import Snapshot
from clothlab.sim.document import composition
from clothlab.sim.document.edits import SetPin
from clothlab.sim.document.requests import ChangeSetting, Compose
from clothlab.sim.document.scene import (
    BlockSpec,
    BodyShape,
    BoxSpec,
    DiscSpec,
    PinSpec,
    Scene,
    SheetSpec,
    SphereSpec,
    body_size,
    field_range,
    scene_settings,
)
from clothlab.sim.lab.engine import in_si_units
from clothlab.sim.text import QT_TR_NOOP, tr
from clothlab.ui.intents import change_body
from clothlab.ui.number_box import Limits
from clothlab.ui.numbers import localized
from clothlab.ui.selection import BALL, Selection

ADDRESS_ROLE = Qt.ItemDataRole.UserRole + 1  # ("setting", key) | ("ball_center", axis)
#   | ("pin", particle, axis) | ("body", index, field[, axis]) | ("obstacle", index, field[, axis])
UNIT_ROLE = Qt.ItemDataRole.UserRole + 2
SELECTION_ROLE = Qt.ItemDataRole.UserRole + 3  # the Selection a body or obstacle row stands for
PARAMETER_ROLE = Qt.ItemDataRole.UserRole + 4  # a value's Parameter (editor metadata)
READING_ROLE = Qt.ItemDataRole.UserRole + 5  # a live reading's row: its English label
AXES = "xyz"
PIN_ROWS = 1000  # most pins listed; the rest are counted in a "… n more" row
PIN_FORCE_TIP = QT_TR_NOOP(
    "The force this pin holds the cloth with over the last step: its size, then (x, y, z). "
    "In N with SI fabrics; in model units (mass 1 a particle) otherwise."
)
# the unit follows in the range tooltip_for adds, in the scene's system
COORDINATE_TIPS = {"x": QT_TR_NOOP("x coordinate."), "y": QT_TR_NOOP("y coordinate."),
                   "z": QT_TR_NOOP("z coordinate.")}  # fmt: skip
# Units as shown (spin box suffixes, values, tooltips): marked here for the catalogue, shown
# with `shown_unit`; the settings keep their English units (files, the command line).
UNIT_TEXTS = (
    QT_TR_NOOP("units"), QT_TR_NOOP("units/s"), QT_TR_NOOP("units/s²"), QT_TR_NOOP("units/force"),
    QT_TR_NOOP("1/units"), QT_TR_NOOP("× rest"), QT_TR_NOOP("mass·units/s²"),
)  # fmt: skip

Address = tuple[Any, ...]
Index = QModelIndex | QPersistentModelIndex
Body = BodyShape
Obstacle = SphereSpec | BoxSpec


@cache  # one per axis: the Scene panel asks for it for every coordinate it lists
def coordinate_parameter(label: str) -> Parameter:
    """Metadata for a position coordinate, so editors treat it like a declared setting."""
    return Parameter(
        label, label, "units", -COORDINATE_LIMIT, COORDINATE_LIMIT, 0.05, 0.0,
        COORDINATE_TIPS.get(label, label), "",
    )  # fmt: skip


def _field(
    label: str,
    unit: str,
    low: float,
    high: float,
    step: float,
    tip: str,
    kind: type = float,
    choices: tuple[str, ...] = (),
) -> Parameter:
    return Parameter(label, label, unit, low, high, step, low, tip, "", kind=kind, choices=choices)


def _number(
    label: str, unit: str, spec: type[Any], name: str, step: float, tip: str, kind: type = float
) -> Parameter:
    """A number field whose range is the scene format's (sim.document.scene.field_range)."""
    return _field(label, unit, *field_range(spec, name), step, tip, kind)


# The editable fields of bodies and obstacles: label and editor metadata by field name. Ranges
# are the file format's (sim.document.scene); what the whole scene must satisfy (particle caps,
# spacing) is checked by sim.document.composition, whose one-line refusal the window shows.
FIELDS: dict[str, Parameter] = {
    "name": _field(QT_TR_NOOP("Name"), "", 0, 0, 1,
                   QT_TR_NOOP("Shown in the panels; empty: named by its shape."), str),
    "width": _number(QT_TR_NOOP("Width"), "units", SheetSpec, "width", 0.1,
                     QT_TR_NOOP("Width of the sheet.")),
    "height": _number(QT_TR_NOOP("Height"), "units", SheetSpec, "height", 0.1,
                      QT_TR_NOOP("Height of the sheet (its length if flat).")),
    "cols": _number(QT_TR_NOOP("Columns"), "", SheetSpec, "cols", 1,
                    QT_TR_NOOP("Particles across the sheet."), int),
    "rows": _number(QT_TR_NOOP("Rows"), "", SheetSpec, "rows", 1,
                    QT_TR_NOOP("Particles down the sheet."), int),
    "lock_spacing": _field(QT_TR_NOOP("Lock spacing"), "", 0, 1, 1,
                           QT_TR_NOOP("On: a new width or height changes the resolution instead."),
                           bool),
    "horizontal": _field(QT_TR_NOOP("Lies"), "", 0, 1, 1,
                         QT_TR_NOOP("Hanging in x–y, or lying flat in x–z."), int,
                         (QT_TR_NOOP("hanging"), QT_TR_NOOP("flat"))),
    "top_center": _number(QT_TR_NOOP("Position"), "units", SheetSpec, "top_center", 0.05,
                          QT_TR_NOOP("Centre of the sheet's top edge.")),
    "yaw": _number(QT_TR_NOOP("Yaw"), "°", SheetSpec, "yaw", 5.0,
                   QT_TR_NOOP("Turn about the vertical (+y) axis.")),
    "cubes": _number(QT_TR_NOOP("Cubes per side"), "", BlockSpec, "cubes", 1,
                     QT_TR_NOOP("Small cubes along each edge."), int),
    "size": _number(QT_TR_NOOP("Size"), "units", BlockSpec, "size", 0.1,
                    QT_TR_NOOP("Length of each edge (a box: along each axis).")),
    "min_corner": _number(QT_TR_NOOP("Min corner"), "units", BlockSpec, "min_corner", 0.05,
                          QT_TR_NOOP("The corner with the smallest x, y and z.")),
    "center": _number(QT_TR_NOOP("Centre"), "units", SphereSpec, "center", 0.05,
                      QT_TR_NOOP("Centre of the obstacle.")),
    "radius": _number(QT_TR_NOOP("Radius"), "units", SphereSpec, "radius", 0.1,
                      QT_TR_NOOP("Radius of the sphere.")),
    "diameter": _number(QT_TR_NOOP("Diameter"), "units", DiscSpec, "diameter", 0.05,
                        QT_TR_NOOP("Distance across the disc.")),
}  # fmt: skip
# Where a field of one kind differs from the field of that name above: range or tooltip.
KIND_FIELDS: dict[tuple[str, str], Parameter] = {
    ("disc", "cols"): _number(QT_TR_NOOP("Columns"), "", DiscSpec, "cols", 1,
                              QT_TR_NOOP("Particles across the disc's diameter."), int),
    ("disc", "center"): _number(QT_TR_NOOP("Centre"), "units", DiscSpec, "center", 0.05,
                                QT_TR_NOOP("Centre of the disc (it lies flat in x–z).")),
    ("disc", "yaw"): _number(QT_TR_NOOP("Yaw"), "°", DiscSpec, "yaw", 5.0,
                             QT_TR_NOOP("Turn about the vertical (+y) axis: its grid turns with "
                                        "it.")),
}  # fmt: skip
SHEET_FIELDS = ("name", "width", "height", "cols", "rows", "lock_spacing", "horizontal",
                "top_center", "yaw")  # fmt: skip
BLOCK_FIELDS = ("name", "cubes", "size", "min_corner")
DISC_FIELDS = ("name", "diameter", "cols", "center", "yaw")
SPHERE_FIELDS = ("name", "center", "radius")
BOX_FIELDS = ("name", "center", "size")
VECTOR_FIELDS = frozenset({"top_center", "min_corner", "center"})  # and a box's size


def fields_of(spec: Body | Obstacle) -> tuple[str, ...]:
    return {
        "sheet": SHEET_FIELDS,
        "block": BLOCK_FIELDS,
        "disc": DISC_FIELDS,
        "sphere": SPHERE_FIELDS,
        "box": BOX_FIELDS,
    }[spec.kind]


def parameter_for(address: Address, kind: str = "") -> Parameter:
    """Editor metadata for an address; `kind` (a body's or obstacle's) where a field of that
    name differs between kinds (a disc's columns start at 3, a sheet's at 2)."""
    if address[0] == "setting":
        return PARAMETERS[address[1]]
    if address[0] in ("body", "obstacle"):
        return KIND_FIELDS.get((kind, address[2]), FIELDS[address[2]])
    return coordinate_parameter(f"{AXES[address[-1]]}")


def choice_name(address: Address | None, value: Any) -> str | None:
    """The name of a value, for settings and fields whose values are named (the table's
    `choices`); None for every other value."""
    if address is None or address[0] not in ("setting", "body"):
        return None
    choices = parameter_for(address).choices
    if choices and isinstance(value, int) and 0 <= value < len(choices):
        return tr(choices[value])
    return None


def shown_unit(unit: str) -> str:
    """A unit as the user reads it ("units" in the app's language; symbols as they are)."""
    return tr(unit) if unit else ""


def format_value(value: Any, unit: str = "") -> str:
    if isinstance(value, bool):
        return tr("on") if value else tr("off")
    if isinstance(value, float):
        text = "—" if math.isnan(value) else f"{value:.4g}"
    else:
        text = str(value)
    return localized(f"{text} {shown_unit(unit)}".rstrip())


def tooltip_for(parameter: Parameter, si: bool = False) -> str:
    """Tooltip text with the range and unit (`si`: a scene in SI units), shared by every widget
    that edits a setting."""
    tooltip = tr(parameter.tooltip) if parameter.tooltip else ""
    if parameter.kind in (bool, str) or (parameter.choices and parameter.key not in PARAMETERS):
        return tooltip
    unit = f" {shown_unit(units.shown_in(parameter.unit, si))}" if parameter.unit else ""
    low, high = f"{parameter.minimum:g}", f"{parameter.maximum:g}"
    span = tr("Range {low} … {high}{unit}, step {step:g}{unit}.").format(
        low=low, high=high, unit=unit, step=parameter.step
    )
    return f"{tooltip}\n{span}"


SHORT_LABELS = {
    "ball": QT_TR_NOOP("On"),
    "ball_radius": QT_TR_NOOP("Radius"),
    "floor": QT_TR_NOOP("On"),
    "wind": QT_TR_NOOP("Strength"),
}


def section_keys(section: str) -> list[str]:
    """The scalar settings stored in this section of a scene file, in table order."""
    return [p.key for p in section_parameters(section) if p.key in PARAMETERS]


def spec_value(spec: Body | Obstacle, field: str, axis: int | None = None) -> Any:
    """A field of a body or obstacle as the model shows it (a flag of a choice as its index)."""
    value = getattr(spec, field)
    if axis is not None:
        return float(value[axis])
    if field == "horizontal":
        return int(value)
    return value


def value_at(
    scene: Scene, address: Address, settings: Settings | None = None, anchors: dict | None = None
) -> Any:
    """The document's value for an address. `settings` and `anchors` (particle → anchor) are
    the scene's, when the caller has them at hand: derived once, not once per value."""
    kind = address[0]
    if kind == "setting":
        return getattr(settings or scene_settings(scene), address[1])
    if kind == "ball_center":
        return float(scene.ball.center[address[1]])
    if kind == "pin":
        if anchors is None:
            anchors = {p.particle: p.anchor for p in scene.pins}
        return float(anchors[address[1]][address[2]])
    if kind in ("body", "obstacle"):
        spec = (scene.bodies if kind == "body" else scene.obstacles)[address[1]]
        return spec_value(spec, address[2], address[3] if len(address) > 3 else None)
    raise KeyError(address)


def body_summary(body: Body) -> str:
    particles, links = body_size(body)
    return tr("{particles} particles, {links} links").format(particles=particles, links=links)


def obstacle_summary(obstacle: Obstacle) -> str:
    """ "radius 0.5", "0.8 × 0.6 × 0.8", with the language's decimal point."""
    if isinstance(obstacle, SphereSpec):
        return localized(tr("radius {radius:.3g}").format(radius=obstacle.radius))
    return localized(" × ".join(f"{v:.3g}" for v in obstacle.size))


def settings_summary(section: str, s: Settings, si: bool = False) -> str:
    """A settings group's own value cell, what its row says while folded (and what a screen
    reader reads for the row): "on", "off", the wind's strength, the solver, the options on
    (`si`: a scene in SI units); numbers with the language's decimal point ("Δt 0,00833 s" in
    German)."""
    return localized(_settings_summary(section, s, si))


def _settings_summary(section: str, s: Settings, si: bool) -> str:
    if section in ("ball", "floor"):
        return tr("on") if getattr(s, section) else tr("off")
    if section == "wind":
        unit = shown_unit(units.shown_in(PARAMETERS["wind"].unit, si))
        wind = f"{s.wind:.3g} {unit}" if s.wind else tr("off")
        return tr("{wind}, aerodynamic").format(wind=wind) if s.aerodynamic else wind
    if section == "solver":
        substeps = (
            tr("{substeps} substeps × ").format(substeps=s.substeps) if s.substeps > 1 else ""
        )
        passes = tr("%n pass(es), Δt {dt:.3g} s", "", s.passes).format(dt=s.dt)
        return f"{'XPBD, ' if s.xpbd else ''}{substeps}{passes}"
    keys = [k for k in section_keys(section) if PARAMETERS[k].kind is bool and getattr(s, k)]
    on = [_in_a_list(PARAMETERS[k].label) for k in keys]
    if s.friction_static or s.friction_kinetic:
        on.append(tr("friction"))
    return ", ".join(on) or tr("the classic model")


def _in_a_list(label: str) -> str:
    """A setting's label inside a line of them: lower case in English ("tethers, bending"); a
    translation as it is written (a German noun keeps its capital)."""
    shown = tr(label)
    return shown.lower() if shown == label else shown


def distinct_labels(specs: list[Any]) -> list[str]:
    """Labels that tell specs apart: a label two of them share gets a number ("Sheet 15 × 11
    (2)"), so two default sheets are not two identical rows."""
    labels = [spec.label for spec in specs]
    seen: dict[str, int] = {}
    distinct = []
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
        shared = labels.count(label) > 1
        distinct.append(f"{label} ({seen[label]})" if shared else label)
    return distinct


def _text_item(text: str, tooltip: str = "") -> QStandardItem:
    item = QStandardItem(text)
    item.setEditable(False)
    if tooltip:
        item.setToolTip(tooltip)
    return item


class SceneModel(QStandardItemModel):
    command_requested = Signal(object)  # ChangeSetting, SetPin, Compose (sim.document.requests)
    edit_refused = Signal(str)  # one line: why a typed value was not taken

    def __init__(self, parent: Any = None) -> None:
        super().__init__(0, 2, parent)
        self.setHorizontalHeaderLabels([tr("Property"), tr("Value")])
        self._scene: Scene | None = None
        self._values: dict[Address, QStandardItem] = {}
        self._bodies: QStandardItem | None = None
        self._obstacles: QStandardItem | None = None
        self._pins: QStandardItem | None = None
        self._pin_body: int | None = None  # whose pins are listed; None: the scene's
        self._listed: list[int] = []  # particles of the pin rows
        self._anchors: dict[int, Any] = {}  # their anchors
        self._floor: QStandardItem | None = None
        self._settings_groups: dict[str, QStandardItem] = {}  # section → its group's row
        self._syncing = False
        self._si = False  # whether the scene runs in SI units (sim.lab.engine.in_si_units)

    @property
    def scene(self) -> Scene | None:
        return self._scene

    @property
    def si(self) -> bool:
        """Whether the values are shown in SI units (m, m/s², N) rather than the model's."""
        return self._si

    @property
    def syncing(self) -> bool:
        """True while the model shows the document (rows may come and go): not a user's act."""
        return self._syncing

    # --- building ---------------------------------------------------------------------------

    def set_scene(self, scene: Scene) -> None:
        """Rebuild for a new document."""
        self._scene = None
        self._si = in_si_units(scene)
        self._values.clear()
        self._settings_groups.clear()
        self._listed = []
        self._bodies = self._obstacles = self._pins = self._floor = None  # deleted with the rows
        self._syncing = True  # rows go and come: no view takes that for a user's choice
        self.removeRows(0, self.rowCount())
        self._bodies = self._group(
            tr("Bodies"), tr("Sheets, discs and soft blocks: select one to edit it.")
        )
        self._obstacles = self._group(tr("Obstacles"), tr("What the bodies collide with."))
        self._add_ball(self._obstacles)
        self._pins = self._group(tr("Pins"), self._pins_tip())
        self._floor = self._group(tr("Floor"), tr("Nothing goes below the floor."))
        _add_reading(self._floor, CONTACT_LABEL, CONTACT_TIP)
        self._add_settings(self._floor, "floor")
        self._add_settings(self._group(tr("Wind"), tr(PARAMETERS["wind"].tooltip)), "wind")
        self._add_settings(self._group(tr("Solver"), tr("How the model is stepped.")), "solver")
        self._add_settings(
            self._group(tr("Fabric"), tr("Options beyond the classic model.")), "fabric"
        )
        if self._pin_body is not None and self._pin_body >= len(scene.bodies):
            self._pin_body = None
        self.update_from_scene(scene)

    def _group(
        self, title: str, tooltip: str, parent: QStandardItem | None = None, summary: str = ""
    ) -> QStandardItem:
        name, value = _text_item(title, tooltip), _text_item(summary)
        (parent.appendRow if parent is not None else self.appendRow)([name, value])
        return name

    def _add_ball(self, obstacles: QStandardItem) -> None:
        ball = self._group(tr("Ball"), tr("The classic model's ball."), obstacles)
        ball.setData(Selection("obstacle", BALL), SELECTION_ROLE)
        self._add_settings(ball, "ball")
        for axis in range(3):
            self._add_value(
                ball, tr("Centre {axis}").format(axis=AXES[axis]), ("ball_center", axis)
            )
        _add_reading(ball, CONTACT_LABEL, CONTACT_TIP)

    def _add_settings(self, group: QStandardItem, section: str) -> None:
        self._settings_groups[section] = group
        for key in section_keys(section):
            label = tr(SHORT_LABELS.get(key, PARAMETERS[key].label))
            self._add_value(group, label, ("setting", key))

    def _add_value(
        self, group: QStandardItem, label: str, address: Address, kind: str = ""
    ) -> None:
        parameter = parameter_for(address, kind)
        name = _text_item(label, tooltip_for(parameter, self._si))
        item = QStandardItem()
        item.setData(address, ADDRESS_ROLE)
        item.setData(parameter.unit, UNIT_ROLE)
        item.setData(parameter, PARAMETER_ROLE)
        item.setToolTip(tooltip_for(parameter, self._si))
        if parameter.kind is bool:
            item.setEditable(False)
            item.setCheckable(True)
        selection = group.data(SELECTION_ROLE)
        if selection is not None:  # a click on a field selects its body or obstacle, too
            name.setData(selection, SELECTION_ROLE)
        group.appendRow([name, item])
        self._values[address] = item

    def _add_fields(self, row: QStandardItem, kind: str, index: int, spec: Body | Obstacle) -> None:
        for field in fields_of(spec):
            label = tr(parameter_for((kind, index, field), spec.kind).label)
            if field in VECTOR_FIELDS or (field == "size" and isinstance(spec, BoxSpec)):
                for axis in range(3):
                    address = (kind, index, field, axis)
                    self._add_value(row, f"{label} {AXES[axis]}", address, spec.kind)
            else:
                self._add_value(row, label, (kind, index, field), spec.kind)

    def _drop_values(self, row: QStandardItem) -> None:
        for child in range(row.rowCount()):
            address = row.child(child, 1).data(ADDRESS_ROLE)
            self._values.pop(address, None)

    # --- keeping up with the document ------------------------------------------------------

    def update_from_scene(self, scene: Scene) -> None:
        """Show the document's values, adding and removing only the rows that came or went."""
        old, self._scene = self._scene, scene
        self._syncing = True
        try:
            self._show_unit_system(in_si_units(scene))
            if old is None or old.bodies is not scene.bodies:
                self._sync_specs(self._bodies, "body", scene.bodies, first_row=0)
            if old is None or old.obstacles is not scene.obstacles:
                self._sync_specs(self._obstacles, "obstacle", scene.obstacles, first_row=1)
            before, listed = self._anchors, self._listed
            anchors = self._sync_pins(scene, old)
            same_rows = listed == self._listed
            settings = scene_settings(scene)
            for section, group in self._settings_groups.items():
                summary = self.itemFromIndex(group.index().siblingAtColumn(1))
                _set_text(summary, settings_summary(section, settings, self._si))
            for address, item in self._values.items():
                if address[0] == "pin" and same_rows and anchors[address[1]] == before[address[1]]:
                    continue  # unchanged: a pin edit costs its own rows, not every pin's
                self._show(item, value_at(scene, address, settings, anchors))
        finally:
            self._syncing = False

    def _show_unit_system(self, si: bool) -> None:
        """Name every unit in SI units or the model's, as the scene now runs: a fabric given to
        every body, or taken from one, changes the system of the values already listed."""
        if si == self._si:
            return
        self._si = si
        for item in self._values.values():
            parameter = item.data(PARAMETER_ROLE)
            name = self.itemFromIndex(item.index().siblingAtColumn(0))
            for shown in (item, name):
                if shown is not None:
                    shown.setToolTip(tooltip_for(parameter, si))
            item.emitDataChanged()  # its text names its unit (data)
        if self._pins is not None:
            self._pins.setToolTip(self._pins_tip())

    def _pins_tip(self) -> str:
        return tr("Pinned particles and their anchors ({unit}).").format(
            unit=shown_unit(units.shown_in(units.LENGTH, self._si))
        )

    def _force_text(self, force: float) -> str:
        """A force as the Scene panel writes it: "19.21 N", or in the model's units."""
        return f"{force:.4g} {shown_unit(units.shown_in(units.FORCE, self._si))}"

    def _sync_specs(
        self,
        group: QStandardItem | None,
        kind: Literal["body", "obstacle"],
        specs: list[Any],
        first_row: int,
    ) -> None:
        """One row per spec after `first_row` (the ball's): rows of a spec of another kind are
        rebuilt, surplus rows removed, missing ones added; labels and summaries updated."""
        if group is None:
            return
        summarise = body_summary if kind == "body" else obstacle_summary
        labels = distinct_labels(specs)
        for index, spec in enumerate(specs):
            row = first_row + index
            name = group.child(row, 0) if row < group.rowCount() else None
            if name is not None and name.data(Qt.ItemDataRole.UserRole) != spec.kind:
                self._drop_values(name)
                group.removeRow(row)
                name = None
            if name is None:
                name = _text_item(labels[index])
                name.setData(spec.kind, Qt.ItemDataRole.UserRole)
                name.setData(Selection(kind, index), SELECTION_ROLE)
                group.insertRow(row, [name, _text_item("")])
                self._add_fields(name, kind, index, spec)
                if kind == "obstacle":
                    _add_reading(name, CONTACT_LABEL, CONTACT_TIP)
            _set_text(name, labels[index])
            _set_text(group.child(row, 1), summarise(spec))
        while group.rowCount() > first_row + len(specs):
            self._drop_values(group.child(group.rowCount() - 1, 0))
            group.removeRow(group.rowCount() - 1)
        if kind == "body":
            _set_text(self.item(group.row(), 1), str(len(specs)))
        else:
            _set_text(self.item(group.row(), 1), tr("ball + {count}").format(count=len(specs)))

    # --- pins -------------------------------------------------------------------------------

    def show_pins_of(self, body: int | None) -> None:
        """List the pins of this body (None: of the whole scene)."""
        if body == self._pin_body:
            return
        self._pin_body = body
        scene = self._scene
        if scene is None:
            return
        self._syncing = True
        try:
            anchors = self._sync_pins(scene, None)
            for address in [a for a in self._values if a[0] == "pin"]:
                self._show(self._values[address], value_at(scene, address, None, anchors))
        finally:
            self._syncing = False

    def _pins_shown(self, scene: Scene) -> list[PinSpec]:
        body = self._pin_body
        if body is None or body >= len(scene.bodies):
            return scene.pins
        first = sum(body_size(b)[0] for b in scene.bodies[:body])
        count = body_size(scene.bodies[body])[0]
        return [p for p in scene.pins if first <= p.particle < first + count]

    def _sync_pins(self, scene: Scene, old: Scene | None) -> dict[int, Any]:
        """Rebuild the pin rows if the listed particles changed; the anchors of the listed
        pins, by particle (at most PIN_ROWS of them)."""
        if old is not None and old.pins is scene.pins and old.bodies is scene.bodies:
            pins = None  # nothing that decides the list changed (a setting, say)
        else:
            pins = self._pins_shown(scene)
        if pins is not None:
            listed = pins[:PIN_ROWS]
            particles = [p.particle for p in listed]
            rebuilt = particles != self._listed
            if rebuilt:
                self._build_pin_rows(listed, len(pins))
            changed = [
                (row, pin) for row, pin in enumerate(listed)
                if rebuilt or self._anchors.get(pin.particle) != pin.anchor
            ]  # fmt: skip
            self._show_pin_summaries(scene, changed, len(pins))
            self._anchors = {p.particle: p.anchor for p in listed}
        return self._anchors

    def _build_pin_rows(self, listed: list[PinSpec], total: int) -> None:
        group = self._pins
        if group is None:
            return
        for address in [a for a in self._values if a[0] == "pin"]:
            del self._values[address]
        group.removeRows(0, group.rowCount())
        for pin in listed:
            name = _text_item(tr("Particle {particle}").format(particle=pin.particle))
            for axis in range(3):  # before the row joins the model: no insertion signals
                anchor = tr("Anchor {axis}").format(axis=AXES[axis])
                self._add_value(name, anchor, ("pin", pin.particle, axis))
            _add_reading(name, FORCE_LABEL, PIN_FORCE_TIP)
            group.appendRow([name, _text_item("")])
        if total > len(listed):
            more = tr("… {count} more").format(count=total - len(listed))
            group.appendRow([_text_item(more), _text_item("")])
        self._listed = [p.particle for p in listed]

    def show_forces(self, snapshot: Snapshot) -> None:
        """The forces of a frame: each listed pin's, and the ball's, the floor's and each
        obstacle's push on the cloth, in a "Contact force" row of its own."""
        self.show_pin_forces(snapshot)
        contact = snapshot.forces.contact if snapshot.forces is not None else {}
        for name, row in self._contact_rows().items():
            value = contact.get(name)
            text = "—" if value is None else self._force_text(value)
            _set_text(_reading(row, CONTACT_LABEL), text)

    def _contact_rows(self) -> dict[str, QStandardItem]:
        """The rows of what the cloth can touch, by Forces.contact's names ("sphere 2" is the
        scene's second sphere, wherever it is among the obstacles)."""
        rows: dict[str, QStandardItem] = {}
        if self._obstacles is None or self._floor is None or self._scene is None:
            return rows
        rows["ball"], rows["floor"] = self._obstacles.child(0, 0), self._floor
        counts = {"sphere": 0, "box": 0}
        for index, obstacle in enumerate(self._scene.obstacles):
            counts[obstacle.kind] += 1
            row = self._obstacles.child(1 + index, 0)
            if row is not None:
                rows[f"{obstacle.kind} {counts[obstacle.kind]}"] = row
        return rows

    def show_pin_forces(self, snapshot: Snapshot) -> None:
        """Each listed pin's force on the cloth in the last step (Snapshot.pin_force)."""
        pins = np.asarray(snapshot.pin_index)
        forces = snapshot.pin_force
        group = self._pins
        if group is None:
            return
        for listed, particle in enumerate(self._listed):
            item = _reading(group.child(listed, 0), FORCE_LABEL)
            row = int(np.searchsorted(pins, particle))
            if row < len(pins) and pins[row] == particle and np.all(np.isfinite(forces[row])):
                f = forces[row]
                size = self._force_text(float(np.linalg.norm(f)))
                text = f"{size}  ({f[0]:.3g}, {f[1]:.3g}, {f[2]:.3g})"
            else:
                text = "—"  # not measured yet (no step since load, or the pin changed)
            _set_text(item, text)

    def _show_pin_summaries(
        self, scene: Scene, changed: list[tuple[int, PinSpec]], total: int
    ) -> None:
        """The pins' count, and the anchors of the listed rows that changed."""
        group = self._pins
        if group is None:
            return
        body = self._pin_body
        shown = body is not None and body < len(scene.bodies)
        if body is not None and shown:
            count = tr("{count} of {body}").format(
                count=total, body=distinct_labels(scene.bodies)[body]
            )
        else:
            count = str(total)
        _set_text(self.item(group.row(), 1), count)
        for row, pin in changed:
            text = "(" + ", ".join(f"{v:.3g}" for v in pin.anchor) + ")"
            _set_text(group.child(row, 1), text)

    def _show(self, item: QStandardItem, value: Any) -> None:
        if item.isCheckable():
            state = Qt.CheckState.Checked if value else Qt.CheckState.Unchecked
            if item.checkState() != state:
                item.setCheckState(state)
            _set_text(item, format_value(bool(value)))
        elif item.data(Qt.ItemDataRole.EditRole) != value:
            item.setData(value, Qt.ItemDataRole.EditRole)

    # --- finding rows -----------------------------------------------------------------------

    def index_of(self, selection: Selection) -> QModelIndex:
        """The row of a body or obstacle (invalid if the model has none)."""
        if selection.kind == "body":
            group, row = self._bodies, selection.index
        else:
            group, row = self._obstacles, 0 if selection.index == BALL else selection.index + 1
        if group is None or not 0 <= row < group.rowCount():
            return QModelIndex()
        return group.child(row, 0).index()

    def is_pins_group(self, index: QModelIndex) -> bool:
        """True for the Pins group's row (whatever language its title is in)."""
        return self._pins is not None and index == self._pins.index()

    # --- Qt model overrides ------------------------------------------------------------------

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        value = super().data(index, role)
        is_number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ForegroundRole) and value == "":
            address = super().data(index, ADDRESS_ROLE)
            if address is not None and address[2:3] == ("name",):  # an unnamed body or obstacle
                if role == Qt.ItemDataRole.ForegroundRole:
                    return QColor(Qt.GlobalColor.gray)
                return tr("unnamed")
        if role == Qt.ItemDataRole.DisplayRole and is_number:
            choice = choice_name(super().data(index, ADDRESS_ROLE), value)
            if choice is not None:
                return choice  # "automatic", as the Parameters panel says, not "0"
            unit = units.shown_in(super().data(index, UNIT_ROLE) or "", self._si)
            return format_value(value, unit)
        return value

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:  # noqa: N802
        address = super().data(index, ADDRESS_ROLE)
        if self._syncing or address is None:
            return super().setData(index, value, role)
        if role == Qt.ItemDataRole.CheckStateRole:
            value = Qt.CheckState(value) == Qt.CheckState.Checked
        elif role != Qt.ItemDataRole.EditRole:
            return super().setData(index, value, role)
        parameter = super().data(index, PARAMETER_ROLE) or parameter_for(address)
        try:
            value = parameter.kind(value)
            refusal = self._refusal(address, parameter, value)
            if refusal is None and address[0] not in ("body", "obstacle"):
                value = parameter.check(value)  # a body's fields: the composition checks them
        except (TypeError, ValueError) as error:
            refusal = f"{tr(parameter.label)}: {error}"
        if refusal is not None:
            self.edit_refused.emit(refusal)
            return False
        if self._scene is not None and value == value_at(self._scene, address):
            return True  # nothing changed: no command, no undo step
        self._request(address, value)
        return True

    @staticmethod
    def _refusal(address: Address, parameter: Parameter, value: Any) -> str | None:
        """One line if a number is outside its range, in the words the spin boxes use."""
        if parameter.kind not in (int, float) or parameter.choices:
            return None
        label = tr(parameter.label)
        if address[0] in ("body", "obstacle") and len(address) > 3:
            label = f"{label} {AXES[address[3]]}"  # "Position y"
        return Limits.of(parameter, label).refusal(f"{value:g}", float(value))

    def _request(self, address: Address, value: Any) -> None:
        scene = self._scene
        if scene is None:
            return
        kind = address[0]
        if kind == "setting":
            self.command_requested.emit(ChangeSetting(address[1], value))
        elif kind == "ball_center":
            center = list(scene.ball.center)
            center[address[1]] = value
            self.command_requested.emit(ChangeSetting("ball_center", tuple(center)))
        elif kind == "pin":
            anchor = list(self._anchors[address[1]])
            anchor[address[2]] = value
            self.command_requested.emit(SetPin(address[1], tuple(anchor), None))
        elif kind in ("body", "obstacle"):
            index, field = address[1], address[2]
            spec = (scene.bodies if kind == "body" else scene.obstacles)[index]
            if len(address) > 3:
                vector = list(getattr(spec, field))
                vector[address[3]] = value
                value = tuple(vector)
            elif field == "horizontal":
                value = bool(value)
            make = change_body if kind == "body" else composition.change_obstacle
            self.command_requested.emit(Compose(make, (index,), {field: value}))


CONTACT_LABEL = QT_TR_NOOP("Contact force")
CONTACT_TIP = QT_TR_NOOP(
    "How hard this pushes the cloth (its normal force) over the last step: at rest, the weight "
    "of the cloth it carries. In N with SI fabrics; in model units (mass 1 a particle) "
    "otherwise."
)


FORCE_LABEL = QT_TR_NOOP("Force")


def _add_reading(row: QStandardItem, label: str, tip: str) -> None:
    """A read-only child row for a live reading ("—" until the first frame). Only ever added to
    an item Python made and holds while the row is built: a child appended to the passing
    wrapper of an item Qt made (QStandardItem.child) lost its Python half with that wrapper,
    and the model's next reset crashed deleting it."""
    name = _text_item(tr(label), tr(tip))
    name.setData(label, READING_ROLE)  # what _reading finds it by: not the shown text
    row.appendRow([name, _text_item("—", tr(tip))])


def _reading(row: QStandardItem | None, label: str) -> QStandardItem | None:
    """The value item of a row's reading labelled `label` (_add_reading), if it has one."""
    for k in range(row.rowCount() if row is not None else 0):
        assert row is not None
        if row.child(k, 0).data(READING_ROLE) == label:
            return row.child(k, 1)
    return None


def _set_text(item: QStandardItem | None, text: str) -> None:
    if item is not None and item.text() != text:
        item.setText(text)
