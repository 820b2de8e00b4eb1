"""The Parameters panel: one widget per declared setting, generated from PARAMETERS.

int → spin box, float → slider + spin box, bool → check box. Every change is sent at once as a
ChangeSetting on `command_requested`, and a slider's drag is bracketed by BeginGesture and
EndGesture (sim.document.requests), so it undoes as one; the document's answer comes back through
`show_scene` / `show_edit` (a ui.docks.panels.Panel) or `set_settings`, none of which re-emits.

Above the world's settings, the "Selected body" group sets the selected body's material (a
model-units one, an SI fabric, one of the user's own) and its own stiffness or its SI numbers
(a Compose of the body's changed fields, one undoable edit each).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import replace
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSlider,
    QVBoxLayout,
    QWidget,
)

from clothlab.sim.core import units
from clothlab.sim.core.constraint_sets import SolveReport
from clothlab.sim.core.fabrics import FABRICS, fabric_label
from clothlab.sim.core.materials import SI_FABRICS
from clothlab.sim.core.parameters import PARAMETERS, Parameter, Settings
from clothlab.sim.core.snapshot import Snapshot
from clothlab.sim.document import composition
from clothlab.sim.document.composition import held_at_points
from clothlab.sim.document.requests import (
    BeginGesture,
    ChangeSetting,
    Compose,
    EndGesture,
)
from clothlab.sim.document.scene import BlockSpec, BodyShape, Scene, SIMaterialSpec, scene_settings
from clothlab.sim.lab.engine import in_si_units
from clothlab.sim.text import QT_TR_NOOP, tr
from clothlab.ui.docks.fabric_fields import FabricFields, fabric_summary
from clothlab.ui.docks.scene_dock import decimals_for
from clothlab.ui.docks.scene_model import distinct_labels, shown_unit, tooltip_for
from clothlab.ui.intents import change_body
from clothlab.ui.number_box import FloatBox, IntBox, Limits
from clothlab.ui.plain_text import as_written
from clothlab.ui.selection import Selection
from clothlab.ui.user_fabrics import UserFabrics
from clothlab.ui.wheel_guard import guard_wheel

SPIN_BOX_CHROME = 40  # px a spin box needs besides its text: the arrows, frame and margins
SLIDER_WIDTH = 36  # px: enough to drag, and leaves a German row its label and number whole


class FloatEditor(QWidget):
    """A slider for dragging and a spin box for exact values, kept in step."""

    value_changed = Signal(float)
    drag_started = Signal()
    drag_finished = Signal()
    refused = Signal(str)  # one line: a typed value outside the setting's range

    def __init__(self, parameter: Parameter, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.parameter = parameter
        self.slider = QSlider(Qt.Orientation.Horizontal, self)
        self.slider.setRange(0, round((parameter.maximum - parameter.minimum) / parameter.step))
        limits = Limits.of(parameter, tr(parameter.label))
        self.spin_box = FloatBox(limits, decimals_for(parameter), self)
        self.spin_box.refused.connect(self.refused)
        self.spin_box.setSingleStep(parameter.step)
        self.spin_box.setKeyboardTracking(False)  # one change per typed number, not per digit
        self.slider.setMinimumWidth(SLIDER_WIDTH)
        self.show_units(si=False)
        # Wide enough for the default as shown (1/120 s reads "0.008333 s", not "0.008333 :"),
        # plus the arrows and the frame.
        default = self.spin_box.textFromValue(float(parameter.default)) + self.spin_box.suffix()
        text_width = self.spin_box.fontMetrics().horizontalAdvance(default)
        self.spin_box.setMinimumWidth(max(84, text_width + SPIN_BOX_CHROME))
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.slider, 1)
        layout.addWidget(self.spin_box)
        self.slider.valueChanged.connect(self._slider_moved)
        self.slider.sliderPressed.connect(self.drag_started)
        self.slider.sliderReleased.connect(self.drag_finished)
        self.spin_box.valueChanged.connect(self._spin_box_changed)

    def show_units(self, si: bool) -> None:
        """Its unit after the number (and in its refusals): the model's, or the SI one for a
        run in SI units."""
        unit = units.shown_in(self.parameter.unit, si)
        self.spin_box.limits = replace(self.spin_box.limits, unit=unit)
        if unit and not unit_in_label(self.parameter):
            self.spin_box.setSuffix(f" {shown_unit(unit)}")

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


WORLD = QT_TR_NOOP("World settings")  # the material combo's first entry: the world's links
OWN_FABRIC = QT_TR_NOOP("Your own…")  # the combo's last entry: Fit my fabric, to save one's own
# What each entry of the material combo stands for (its UserRole data): (kind, name)
WORLD_KIND, CLASSIC, SI_PRESET, USER_FABRIC, SHOWN_FABRIC, FIT = (
    "world", "classic", "si", "user", "shown", "fit"
)  # fmt: skip


def entry_data(kind: str, name: str) -> str:
    """A chooser entry's data: a string, which Qt compares (findData) as Python does."""
    return f"{kind}\t{name}"


def entry_of(data: object) -> tuple[str, str] | None:
    """(kind, name) of an entry's data; None for a separator."""
    if not isinstance(data, str):
        return None
    kind, _, name = data.partition("\t")
    return kind, name


def model_note(scene: Settings, model: Settings) -> str:
    """What the model runs with beyond what the panel shows (Simulation.model_settings: a body
    with an SI fabric needs XPBD and as many substeps and passes as its stiffness asks)."""
    if model == scene:
        return ""
    parts = [
        *(["XPBD"] if model.xpbd and not scene.xpbd else []),
        *(
            [tr("%n substep(s) a step", "", model.substeps)]
            if model.substeps != scene.substeps
            else []
        ),
        *([tr("%n pass(es)", "", model.passes)] if model.passes != scene.passes else []),
    ]
    return tr("The SI fabric runs with {parts}: what its stiffness needs.").format(
        parts=", ".join(parts)
    )


def solve_note(report: SolveReport | None) -> str:
    """How the last substep's fabric solve went: its iterations and what it left."""
    if report is None:
        return ""
    left = f"{report.residual:.2g}"
    n = report.iterations
    if report.projective:
        text = tr("Fabric solve: %n iteration(s); {left} of a particle's weight unbalanced.", "", n)
    else:
        text = tr("Fabric solve: %n iteration(s); the links within {left} of their length.", "", n)
    return text.format(left=left)


class BodyGroup(QGroupBox):
    """The selected body's material (the world's settings, a model-units material, an SI fabric
    or one of the user's own) with its own stiffness or its SI numbers; disabled while no body
    is selected."""

    command_requested = Signal(object)  # a Compose of the body's material or stiffness
    fit_requested = Signal()  # "Your own…" chosen: Fit my fabric

    def __init__(self, user_fabrics: UserFabrics | None = None, parent: QWidget | None = None):
        super().__init__(tr("Selected body"), parent)
        self.setObjectName("selected_body")
        self.user_fabrics = user_fabrics if user_fabrics is not None else UserFabrics()
        self.index: int | None = None
        self._body: BodyShape | None = None
        self.hint = QLabel(tr("No body selected: choose one in the Scene panel or the 3D view."))
        self.hint.setWordWrap(True)
        self.material = QComboBox(self)
        self.material.setObjectName("body_material")
        self.material.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.material.setMinimumContentsLength(12)
        self.material.setToolTip(
            tr(
                "The body's fabric: a model-units material (its links' stiffness and compliance), "
                "or a fabric in SI units (sheets and discs)."
            )
        )
        self.own = QCheckBox(tr("Own stiffness"), self)
        self.own.setObjectName("body_own_stiffness")
        self.own.setToolTip(
            tr("Off: the material's stiffness (or the world's, for World settings).")
        )
        self.stiffness = FloatEditor(PARAMETERS["stiffness"], self)
        self.stiffness.setObjectName("body_stiffness")
        self.stiffness.slider.setTracking(False)  # one undo step per drag, at its release
        self.stiffness.setToolTip(tooltip_for(PARAMETERS["stiffness"]))
        self.fabric_fields = FabricFields(self)
        self.fabric_fields.setObjectName("body_fabric_fields")
        self.form = QFormLayout(self)
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.form.addRow(self.hint)
        self.form.addRow(tr("Material"), self.material)
        self.form.addRow(self.own)
        self.form.addRow(tr("Stiffness"), self.stiffness)
        self.form.addRow(self.fabric_fields)
        # A real fabric's sheet hung from a point pin stretches most next to it, and its sag
        # there grows as the sheet is refined (the point load is a singularity of the cloth as
        # a continuum; RESEARCH.md §8, "Refining"): say so, and offer the clamp a lab would use
        self.point_pin_hint = QWidget(self)  # parents from the start: shiboken then knows Qt
        # owns them (a widget reparented only by addRow could be deleted twice, by Qt and by gc)
        self.point_pin_hint.setObjectName("point_pin_hint")
        hint = QLabel(
            tr(
                "Held at a point: the fabric stretches most next to a point pin, and the sag "
                "there grows as the sheet is refined. A clamp holds it alike at any resolution."
            ),
            self.point_pin_hint,
        )
        hint.setWordWrap(True)
        self.clamp_button = QPushButton(tr("Clamp top corners"), self.point_pin_hint)
        self.clamp_button.setToolTip(
            tr(
                "Hold the sheet by every particle within a tenth of its width of a top corner, "
                "as a lab's clamp (Edit ▸ Pin selected sheet ▸ Pin top corner clamps)"
            )
        )
        self.clamp_button.clicked.connect(self._clamp_top_corners)
        row = QHBoxLayout(self.point_pin_hint)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(hint, 1)
        row.addWidget(self.clamp_button, 0, Qt.AlignmentFlag.AlignTop)
        self.form.addRow(self.point_pin_hint)
        self.form.setRowVisible(self.point_pin_hint, False)
        self.material.activated.connect(self._material_chosen)
        self.own.toggled.connect(self._own_toggled)
        self.stiffness.value_changed.connect(self._stiffness_changed)
        self.fabric_fields.fabric_changed.connect(self._fabric_typed)
        self._user = self.user_fabrics.fabrics()
        self.fill_materials()
        self.show_body(None, None)

    # --- the chooser's entries ----------------------------------------------------------------

    def reload_fabrics(self) -> None:
        """Read the user's fabrics again (one was saved) and show them."""
        self._user = self.user_fabrics.fabrics()
        self.fill_materials()
        self.show_body_again()

    def fill_materials(self) -> None:
        """World settings, the model-units materials, the SI fabrics, the user's own fabrics
        and "Your own…"."""
        combo = self.material
        combo.blockSignals(True)
        combo.clear()
        self._add(
            tr(WORLD),
            (WORLD_KIND, ""),
            tr("The world's stiffness and compliance (Solver settings)."),
        )
        combo.insertSeparator(combo.count())
        # headings: "cotton" is both a model-units material and a measured SI fabric
        self._heading(tr("Model units: stiffness of the links"))
        for name, fabric in FABRICS.items():
            tip = tr("Model units: stiffness {stiffness:g}, compliance {compliance:g} (XPBD)")
            tip = tip.format(stiffness=fabric.stiffness, compliance=fabric.compliance)
            self._add(fabric_label(name), (CLASSIC, name), tip)
        combo.insertSeparator(combo.count())
        self._heading(tr("SI units: measured fabrics"))
        for name, material in SI_FABRICS.items():
            tip = tr("A fabric in SI units from published measurements (RESEARCH.md §8).")
            text = f"{fabric_label(name)} — {fabric_summary(material)}"
            self._add(text, (SI_PRESET, name), tip)
        for name, spec in self._user.items():
            text = tr("{name} (yours) — {summary}").format(
                name=name, summary=fabric_summary(spec.material)
            )
            self._add(text, (USER_FABRIC, name), tr("Your own fabric (Fit my fabric)."))
        self._add(tr(OWN_FABRIC), (FIT, ""), tr("Fit my fabric: B from your own cantilever test."))
        combo.blockSignals(False)

    def _heading(self, text: str) -> None:
        """A title over the entries that follow: shown in bold, never chosen."""
        self.material.addItem(text)
        item = self.material.model().item(self.material.count() - 1)  # type: ignore[attr-defined]
        item.setFlags(Qt.ItemFlag.NoItemFlags)
        font = item.font()
        font.setBold(True)
        item.setFont(font)

    def _add(self, text: str, data: tuple[str, str], tip: str) -> None:
        self.material.addItem(text, entry_data(*data))
        self.material.setItemData(self.material.count() - 1, tip, Qt.ItemDataRole.ToolTipRole)

    def _entry_spec(self, kind: str, name: str) -> SIMaterialSpec | None:
        if kind == SI_PRESET:
            return SIMaterialSpec.of(name, SI_FABRICS[name])
        if kind == USER_FABRIC and name in self._user:
            return self._user[name]
        return None

    def _row_of(self, body: BodyShape) -> int:
        """The entry that names the body's material; a fabric of numbers no entry has (a
        changed or a loaded one) gets an entry of its own, "shown"."""
        spec = body.si_material
        if spec is None:
            kind, name = (CLASSIC, body.material) if body.material else (WORLD_KIND, "")
            return self.material.findData(entry_data(kind, name))
        for row in range(self.material.count()):
            data = entry_of(self.material.itemData(row))
            if data is not None and self._entry_spec(*data) == spec:
                return row
        text = f"{spec.name or tr('fabric')} — {fabric_summary(spec.material)}"
        before = self.material.findData(entry_data(FIT, ""))
        self.material.insertItem(before, text, entry_data(SHOWN_FABRIC, spec.name))
        return before

    def _enable_fabrics(self, on: bool) -> None:
        """SI fabrics are for sheets and discs: a block's entries are off."""
        model = self.material.model()
        for row in range(self.material.count()):
            data = entry_of(self.material.itemData(row))
            if data is not None and data[0] in (SI_PRESET, USER_FABRIC, FIT):
                item = model.item(row)  # type: ignore[attr-defined]
                item.setEnabled(on)

    # --- showing the body ---------------------------------------------------------------------

    def show_body(self, scene: Scene | None, index: int | None) -> None:
        """Show body `index` of the scene (None: no body selected); emits nothing."""
        body = None
        if scene is not None and index is not None and index < len(scene.bodies):
            body = scene.bodies[index]
        self.index = index if body is not None else None
        self._body = body
        self.setEnabled(body is not None)
        self.hint.setVisible(body is None)
        if body is None or scene is None or index is None:
            self.setTitle(tr("Selected body"))
            self.form.setRowVisible(self.fabric_fields, False)
            self.form.setRowVisible(self.point_pin_hint, False)
            return
        self.setTitle(tr("Selected body: {body}").format(body=distinct_labels(scene.bodies)[index]))
        world = scene_settings(scene).stiffness
        own = body.stiffness is not None
        shown = body.stiffness
        if shown is None:
            fabric = FABRICS.get(body.material or "")
            shown = world if fabric is None else fabric.stiffness
        for widget in (self.material, self.own):
            widget.blockSignals(True)
        self.fill_materials()
        self._enable_fabrics(not isinstance(body, BlockSpec))
        self.material.setCurrentIndex(self._row_of(body))
        self.material.setToolTip(as_written(self.material.currentText()))  # a long entry whole
        self.own.setChecked(own)
        for widget in (self.material, self.own):
            widget.blockSignals(False)
        self.stiffness.set_value(float(shown))
        self.stiffness.setEnabled(own)
        si = body.si_material is not None
        self.form.setRowVisible(self.own, not si)  # an SI fabric is over both
        self.form.setRowVisible(self.stiffness, not si)
        self.form.setRowVisible(self.fabric_fields, si)
        self.form.setRowVisible(self.point_pin_hint, si and held_at_points(scene, index))
        self.fabric_fields.show_spec(body.si_material)

    # --- requests -----------------------------------------------------------------------------

    def _material_chosen(self, row: int) -> None:
        if self.index is None:
            return
        entry = entry_of(self.material.itemData(row))
        if entry is None:
            return
        kind, name = entry
        if kind == FIT:
            self.fit_requested.emit()
            self.show_body_again()
            return
        if kind == SHOWN_FABRIC:
            return  # the body's own fabric, as it is
        spec = self._entry_spec(kind, name)
        if spec is not None:
            self._change(si_material=spec.model_dump())
        else:
            self._change(material=name if kind == CLASSIC else None, si_material=None)

    def show_body_again(self) -> None:
        """The entry of the body's material again (after "Your own…", which changes nothing)."""
        if self._body is not None:
            self.material.blockSignals(True)
            self.material.setCurrentIndex(self._row_of(self._body))
            self.material.blockSignals(False)

    def _clamp_top_corners(self) -> None:
        if self.index is not None:
            self.command_requested.emit(
                Compose(composition.pin_set, (self.index, "top corner clamps"), {})
            )

    def _own_toggled(self, on: bool) -> None:
        if self.index is not None:
            self._change(stiffness=self.stiffness.value() if on else None)

    def _stiffness_changed(self, value: float) -> None:
        if self.index is not None and self.own.isChecked():
            self._change(stiffness=value)

    def _fabric_typed(self, spec: SIMaterialSpec) -> None:
        if self.index is not None:
            self._change(si_material=spec.model_dump())

    def _change(self, **changes: object) -> None:
        self.command_requested.emit(Compose(change_body, (self.index,), changes))


class ParametersPanel(QWidget):
    command_requested = Signal(object)  # ChangeSetting, Compose, BeginGesture, EndGesture
    refused = Signal(str)  # one line: why a typed value was not taken (it says the range)
    fit_requested = Signal()  # the fabric chooser's "Your own…": Fit my fabric

    def __init__(self, user_fabrics: UserFabrics | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.editors: dict[str, QWidget] = {}
        self.labels: dict[str, QLabel] = {}  # each setting's row label, by key
        self._scene: Scene | None = None
        self.si = False  # whether the scene's run is in SI units: the boxes' units say so
        self._groups: list[tuple[QGroupBox, QFormLayout, list[Parameter]]] = []
        form_host = QWidget()
        column = QVBoxLayout(form_host)
        column.setContentsMargins(0, 0, 0, 0)
        self.body_group = BodyGroup(user_fabrics)
        self.body_group.command_requested.connect(self.command_requested)
        self.body_group.stiffness.refused.connect(self.refused)
        self.body_group.fabric_fields.refused.connect(self.refused)
        self.body_group.fit_requested.connect(self.fit_requested)
        column.addWidget(self.body_group)
        self.model_note = QLabel(form_host)
        self.model_note.setObjectName("model_note")
        self.model_note.setWordWrap(True)
        self.model_note.hide()
        self.solve_note = QLabel(form_host)  # the fabric solve's iterations and residual
        self.solve_note.setObjectName("solve_note")
        self.solve_note.setWordWrap(True)
        self.solve_note.setTextFormat(Qt.TextFormat.PlainText)
        self.solve_note.hide()
        for group, parameters in _grouped(PARAMETERS.values()).items():
            box = QGroupBox(tr(group))
            form = QFormLayout(box)
            form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
            for parameter in parameters:
                form.addRow(*self._make_row(parameter))
                if parameter.key == "substeps":  # what an SI fabric raises, said beside it
                    form.addRow(self.model_note)
                if parameter.key == "fabric_solver":  # and how its solve goes
                    form.addRow(self.solve_note)
            column.addWidget(box)
            self._groups.append((box, form, parameters))
        column.addStretch(1)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        # The rows fit the panel's default width; one made narrower still scrolls rather than
        # cutting its fields off
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setWidget(form_host)
        self.wheel_guard = guard_wheel(form_host)  # the wheel scrolls the panel
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(scroll)

    def hide_settings(self, keys: Collection[str]) -> None:
        """A question set's class mode: these settings' rows hidden, and a group with none
        left; no keys shows every row again."""
        for box, form, parameters in self._groups:
            for parameter in parameters:
                form.setRowVisible(self.editors[parameter.key], parameter.key not in keys)
            box.setVisible(any(p.key not in keys for p in parameters))

    def _make_row(self, parameter: Parameter) -> tuple[QLabel, QWidget]:
        editor = self._make_editor(parameter)
        editor.setObjectName(f"parameter_{parameter.key}")
        editor.setToolTip(tooltip_for(parameter))
        label = QLabel(label_text(parameter, si=False))
        label.setWordWrap(True)  # a long name takes two lines rather than the field's room
        label.setToolTip(tooltip_for(parameter))
        label.setBuddy(editor)
        self.editors[parameter.key] = editor
        self.labels[parameter.key] = label
        return label, editor

    def _make_editor(self, parameter: Parameter) -> QWidget:
        key = parameter.key
        if parameter.kind is bool:
            check_box = QCheckBox(self)
            check_box.toggled.connect(lambda on: self._request(key, on))
            return check_box
        if parameter.choices:  # an int setting whose values have names
            combo_box = QComboBox(self)
            combo_box.addItems([tr(choice) for choice in parameter.choices])
            narrow_combo(combo_box)
            combo_box.activated.connect(lambda v: self._request(key, v))
            return combo_box
        if parameter.kind is int:
            spin_box = IntBox(Limits.of(parameter, tr(parameter.label)), self)
            spin_box.refused.connect(self.refused)
            spin_box.setSingleStep(int(parameter.step))
            spin_box.setKeyboardTracking(False)
            spin_box.valueChanged.connect(lambda v: self._request(key, v))
            return spin_box
        editor = FloatEditor(parameter, self)
        editor.refused.connect(self.refused)
        editor.value_changed.connect(lambda v: self._request(key, v))
        # a slider's drag, press to release, undoes as one
        editor.drag_started.connect(lambda: self.command_requested.emit(BeginGesture()))
        editor.drag_finished.connect(lambda: self.command_requested.emit(EndGesture()))
        return editor

    def _request(self, key: str, value: Any) -> None:
        self.command_requested.emit(ChangeSetting(key, value))

    # --- Panel: the settings follow the document, not the frames ------------------------------

    def show_scene(self, scene: Scene) -> None:
        self.show_edit(scene, None)

    def show_edit(self, scene: Scene, command: object) -> None:
        self._scene = scene
        si = in_si_units(scene)  # gravity in m/s², the ball's radius in m
        if si != self.si:  # not on every edit: a slider's drag makes many
            self.si = si
            for editor in self.editors.values():
                if isinstance(editor, FloatEditor):
                    editor.show_units(si)
            for key, label in self.labels.items():
                label.setText(label_text(PARAMETERS[key], si))
                tip = tooltip_for(PARAMETERS[key], si)  # its range in the same units
                label.setToolTip(tip)
                self.editors[key].setToolTip(tip)
        self.set_settings(scene_settings(scene))
        self.body_group.show_body(scene, self.body_group.index)

    def show_selection(self, selection: Selection | None) -> None:
        """The "Selected body" group edits the selected body; an obstacle or nothing selected
        leaves it with none."""
        index = selection.index if selection is not None and selection.kind == "body" else None
        self.body_group.show_body(self._scene, index)

    def show_snapshot(self, snapshot: Snapshot) -> None:
        """Say what the model runs with where an SI fabric raised the scene's settings, and how
        its fabric solve went."""
        for label, text in (
            (self.model_note, model_note(snapshot.settings, snapshot.model_settings)),
            (self.solve_note, solve_note(snapshot.solve)),
        ):
            if text != label.text():
                label.setText(text)
                label.setVisible(bool(text))

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
        elif isinstance(editor, IntBox):
            editor.setValue(int(value))
        elif isinstance(editor, QComboBox):
            editor.setCurrentIndex(int(value))
        editor.blockSignals(False)


COMBO_LETTERS = 10  # a choice's letters a closed combo box shows before eliding the rest


def narrow_combo(combo_box: QComboBox) -> None:
    """Size a combo box to a few letters, not its longest choice, so its row fits the panel: the
    closed box elides its text (ui.theme), the open list shows every choice whole."""
    combo_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo_box.setMinimumContentsLength(COMBO_LETTERS)


def _grouped(parameters: Iterable[Parameter]) -> dict[str, list[Parameter]]:
    """Parameters by their declared group, in declaration order."""
    groups: dict[str, list[Parameter]] = {}
    for parameter in parameters:
        group = getattr(parameter, "group", "") or QT_TR_NOOP("Settings")
        groups.setdefault(group, []).append(parameter)
    return groups


def label_text(parameter: Parameter, si: bool) -> str:
    """A row's label: its name, and a long unit under it (the model's or the SI one)."""
    text = tr(parameter.label)
    if unit_in_label(parameter):
        text = f"{text}\n({shown_unit(units.shown_in(parameter.unit, si))})"
    return text


def unit_in_label(parameter: Parameter) -> bool:
    """Long units go next to the label, so the spin box leaves the slider room."""
    return len(parameter.unit) > 8
