"""The "Selected body" group's SI fabric: its seven numbers in the units a textile lab quotes them
(g/m², N/m, µN·m), each range-checked as typed (ui.number_box), and the bending length they give.

A typed number is sent as a whole new fabric on `fabric_changed` (the panel makes it one
undoable body change); the fabric is then renamed "NAME (changed)", as `--set` does
(sim.lab.textile.with_fabric_values).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFormLayout, QLabel, QWidget

from clothlab.sim.core.materials import SIMaterial
from clothlab.sim.document.scene import SceneError, SIMaterialSpec, field_range
from clothlab.sim.lab.textile import GRAVITY
from clothlab.sim.text import QT_TR_NOOP, tr
from clothlab.ui.number_box import FloatBox, Limits
from clothlab.ui.numbers import localized

CHANGED = " (changed)"


@dataclass(frozen=True)
class FabricField:
    """One of SIMaterial's numbers as shown: `scale` × the SI value, in `unit`."""

    key: str  # SIMaterial's field
    label: str
    unit: str
    scale: float
    tip: str
    decimals: int = 2  # shown, unless a value needs more (ui.number_box keeps it as typed)

    @property
    def minimum(self) -> float:
        """In the shown unit: the scene format's range (sim.document.scene.field_range)."""
        return self.shown(field_range(SIMaterialSpec, self.key)[0])

    @property
    def maximum(self) -> float:
        return self.shown(field_range(SIMaterialSpec, self.key)[1])

    def shown(self, si_value: float) -> float:
        return round_noise(si_value * self.scale)

    def si(self, shown_value: float) -> float:
        return round_noise(shown_value / self.scale)


FABRIC_FIELDS = (
    FabricField("areal_density", QT_TR_NOOP("Areal density"), "g/m²", 1e3,
                QT_TR_NOOP("Mass per square metre of the fabric (weigh a swatch)."), 1),
    FabricField("stretch_warp", QT_TR_NOOP("Stretch warp"), "N/m", 1.0,
                QT_TR_NOOP("Force per unit width per unit strain down the sheet (along its "
                           "columns)."), 0),
    FabricField("stretch_weft", QT_TR_NOOP("Stretch weft"), "N/m", 1.0,
                QT_TR_NOOP("Force per unit width per unit strain across the sheet (along its "
                           "rows)."), 0),
    FabricField("shear", QT_TR_NOOP("Shear"), "N/m", 1.0,
                QT_TR_NOOP("In-plane shear stiffness, per radian."), 1),
    FabricField("bending_warp", QT_TR_NOOP("Bending warp"), "µN·m", 1e6,
                QT_TR_NOOP("Bending rigidity per unit width, curving the warp yarns (1 µN·m = "
                           "1e-6 N·m).")),
    FabricField("bending_weft", QT_TR_NOOP("Bending weft"), "µN·m", 1e6,
                QT_TR_NOOP("Bending rigidity per unit width, curving the weft yarns.")),
    FabricField("bending_bias", QT_TR_NOOP("Bending bias"), "µN·m", 1e6,
                QT_TR_NOOP("Bending rigidity per unit width along the bias (45°), as a textile "
                           "lab measures it there; at least a quarter of warp + weft. Until "
                           "typed, the mean of warp and weft.")),
)  # fmt: skip
BIAS = FABRIC_FIELDS[-1]


def field_value(spec: SIMaterialSpec, key: str) -> float:
    """A fabric's number as its box shows it (B along the bias: SIMaterial.bias_rigidity, the
    mean of warp and weft until one is given)."""
    return spec.material.bias_rigidity if key == "bending_bias" else getattr(spec, key)


def bias_refusal(spec: SIMaterialSpec, field: FabricField, value: float) -> str:
    """Why `value` typed into `field` would leave B along the bias under a quarter of warp +
    weft (in the fields' own words and units), or "" when it would not."""
    numbers = {**spec.model_dump(), field.key: field.si(value)}
    bias = numbers["bending_bias"]
    least = SIMaterialSpec.least_bias(numbers["bending_warp"], numbers["bending_weft"])
    if bias is None or bias >= least:
        return ""
    scale, typed = BIAS.scale, f"{tr(field.label)} {value:g} {field.unit}"
    if field is BIAS:
        said = tr(
            "{typed}: under a quarter of warp + weft ({least:.3g} µN·m), the least a fabric "
            "resists with along its bias"
        ).format(typed=typed, least=least * scale)
    else:
        said = tr(
            "{typed}: the bending bias, {bias:.3g} µN·m, would be under a quarter of warp "
            "+ weft ({least:.3g} µN·m); raise the bias first"
        ).format(typed=typed, bias=bias * scale, least=least * scale)
    return localized(said)


def round_noise(value: float) -> float:
    """`value` to 12 significant digits: 9e-5 N·m shows as 90 µN·m, not 90.00000000000001."""
    return float(f"{value:.12g}")


def bending_length_cm(material: SIMaterial) -> float:
    """Peirce's bending length c = (B/(ρg))^(1/3) along the warp, in cm."""
    return material.bending_length(GRAVITY) * 100.0


def fabric_summary(material: SIMaterial) -> str:
    """ "350 g/m², B 9.0e-5 N·m": what tells fabrics apart in a list."""
    density, rigidity = material.areal_density * 1e3, short_e(material.bending_warp)
    return localized(f"{density:.4g} g/m², B {rigidity} N·m")


def short_e(value: float, digits: int = 2) -> str:
    """9e-05 as "9.0e-5": `digits` significant digits, the exponent without padding."""
    mantissa, _, exponent = f"{value:.{digits - 1}e}".partition("e")
    return f"{mantissa}e{int(exponent)}"


def changed_name(name: str) -> str:
    """The name of a fabric with a number changed: "denim (changed)", once."""
    base = name.strip() or "fabric"
    return base if base.endswith(CHANGED) else base + CHANGED


class FabricFields(QWidget):
    """The seven numbers of the selected body's SI fabric and its bending length (read only)."""

    fabric_changed = Signal(object)  # an SIMaterialSpec: the fabric with one number changed
    refused = Signal(str)  # one line: a typed number outside its range

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.spec: SIMaterialSpec | None = None
        self.boxes: dict[str, FloatBox] = {}
        form = QFormLayout(self)
        form.setContentsMargins(0, 0, 0, 0)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        for field in FABRIC_FIELDS:
            limits = Limits(tr(field.label), field.minimum, field.maximum, field.unit)
            box = FloatBox(limits, field.decimals, self)
            box.setObjectName(f"fabric_{field.key}")
            box.setSuffix(f" {field.unit}")
            tip = tr("{tip} Range {low:g}…{high:g} {unit}.").format(
                tip=tr(field.tip), low=field.minimum, high=field.maximum, unit=field.unit
            )
            box.setToolTip(tip)
            box.refused.connect(self.refused)
            box.valueChanged.connect(lambda value, f=field: self._typed(f, value))
            form.addRow(tr(field.label), box)
            self.boxes[field.key] = box
        self.bending_length = QLabel(self)
        self.bending_length.setObjectName("fabric_bending_length")
        self.bending_length.setToolTip(
            tr(
                "Peirce's bending length c = (B/(ρ·g))^⅓ along the warp: a strip pushed 2c over an "
                "edge droops to about 41.5°."
            )
        )
        form.addRow(tr("Bending length"), self.bending_length)

    def show_spec(self, spec: SIMaterialSpec | None) -> None:
        """Show a fabric's numbers; emits nothing."""
        self.spec = spec
        if spec is None:
            return
        for field in FABRIC_FIELDS:
            box = self.boxes[field.key]
            box.blockSignals(True)
            box.setValue(field.shown(field_value(spec, field.key)))
            box.blockSignals(False)
        length = f"{bending_length_cm(spec.material):.2f}"
        self.bending_length.setText(
            localized(tr("c = {length} cm from (B/ρg)^⅓").format(length=length))
        )

    def _typed(self, field: FabricField, value: float) -> None:
        if self.spec is None:
            return
        si_value = field.si(value)
        if si_value == field_value(self.spec, field.key):
            return
        refusal = bias_refusal(self.spec, field, value)
        if refusal:
            self.refused.emit(refusal)
            self.show_spec(self.spec)
            return
        try:
            changed = self.spec.replaced(**{field.key: si_value}, name=changed_name(self.spec.name))
        except SceneError as error:
            self.refused.emit(str(error))
            self.show_spec(self.spec)
            return
        self.fabric_changed.emit(changed)
