"""Spin boxes that take a typed number as typed, or refuse it: never a silent change.

Qt's own spin boxes drop a keystroke that would leave their range and quietly put the old value
back when the text is not one they take (1 000 000 000 passes became 100, width −5 became
5, columns 99 999 became 99, columns 1 reverted without a word). These let any number be
typed. When it is committed (Enter, leaving the field, an arrow key, a delegate's commit), a
number outside the range is refused: one line on `refused` ("Solver passes 1000000000: expected
1…200"), nothing is changed, and the box shows its value again. The range comes from the model
(a Parameter, the scene format's field_range, a preference), never from the widget.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFocusEvent, QKeyEvent, QValidator
from PySide6.QtWidgets import QDoubleSpinBox, QLabel, QPushButton, QSpinBox, QWidget

from clothlab.sim.text import tr
from clothlab.ui.numbers import localized

if TYPE_CHECKING:
    from clothlab.sim.core.parameters import Parameter

# What a number looks like while it is being typed: sign, digits, one point, an exponent.
_NUMBER_SO_FAR = re.compile(r"[+-]?\d*(\.\d*)?([eE][+-]?\d*)?")
# QDoubleSpinBox rounds every value to its decimals: keep them all (Qt's largest), so a typed
# 0.00833333 is the value taken; the box shows `shown_decimals` unless the value needs more.
ALL_DECIMALS = 323
FINE_DIGITS = 4  # significant digits shown for a value finer than the usual decimals (1/120 s)


@dataclass(frozen=True)
class Limits:
    """What a box takes: a number from minimum to maximum (both included), whole or not; the
    label and unit say it in a refusal."""

    label: str
    minimum: float
    maximum: float
    unit: str = ""
    integer: bool = False

    @classmethod
    def of(cls, parameter: Parameter, label: str | None = None) -> Limits:
        """A declared setting's or field's range (sim.core.parameters.Parameter)."""
        return cls(
            label or parameter.label,
            parameter.minimum,
            parameter.maximum,
            parameter.unit,
            parameter.kind is int,
        )

    def takes(self, number: float) -> bool:
        whole = not self.integer or number.is_integer()
        return math.isfinite(number) and whole and self.minimum <= number <= self.maximum

    def refusal(self, typed: str, number: float | None) -> str | None:
        """None if `number` is taken; else one line naming what was typed and the range."""
        if number is not None and self.takes(number):
            return None
        unit = f" {tr(self.unit)}" if self.unit else ""
        if (number is None and self.integer) or (
            number is not None and self.integer and not number.is_integer()
        ):
            template = tr("{label}{typed}: expected a whole number {minimum}…{maximum}{unit}")
        elif number is None:
            template = tr("{label}{typed}: expected a number {minimum}…{maximum}{unit}")
        else:
            template = tr("{label}{typed}: expected {minimum}…{maximum}{unit}")
        return template.format(
            label=tr(self.label),
            typed=f" {typed}" if typed else "",  # as typed, whatever its decimal point
            minimum=localized(f"{self.minimum:g}"),
            maximum=localized(f"{self.maximum:g}"),
            unit=unit,
        )


def parse_number(text: str, decimal_point: str = ".") -> float | None:
    """A typed number ("1 000 000", "-5", "2,5" where the decimal point is a comma, "1e9"), or
    None if the text is not one yet."""
    compact = "".join(text.split())
    if decimal_point != ".":
        if "." in compact:
            return None
        compact = compact.replace(decimal_point, ".")
    if not compact or not _NUMBER_SO_FAR.fullmatch(compact):
        return None
    try:
        return float(compact)
    except ValueError:  # "-", ".", "1e": a number not finished
        return None


class _TypedNumbers:
    """What the two boxes share; a mixin before the Qt class, so its overrides come first."""

    refused: Any  # Signal(str), declared on each box
    limits: Limits

    def typed(self) -> str:
        """The text without prefix, suffix and surrounding spaces."""
        box: Any = self
        text = box.lineEdit().text()
        return text.removeprefix(box.prefix()).removesuffix(box.suffix()).strip()

    def typed_number(self) -> float | None:
        box: Any = self
        return parse_number(self.typed(), box.locale().decimalPoint())

    def typed_refusal(self) -> str | None:
        """One line saying why the text typed is not taken, or None if it is."""
        return self.limits.refusal(self.typed(), self.typed_number())

    def accept_typed(self) -> bool:
        """True if the text typed can be taken. Otherwise show the box's value again, say why
        on `refused`, and return False: nothing is changed."""
        problem = self.typed_refusal()
        if problem is None:
            return True
        box: Any = self
        box.setValue(box.value())  # the text shows the value again; the same value emits nothing
        box.selectAll()
        self.refused.emit(problem)
        return False

    def _set_up(self, limits: Limits) -> None:
        box: Any = self
        # A value only when committed: with tracking on, Qt takes every number on the way
        # ("99" on the way to 99 999), and a refusal would show that instead of the value.
        box.setKeyboardTracking(False)
        self.set_limits(limits)

    def set_limits(self, limits: Limits) -> None:
        box: Any = self
        self.limits = limits
        if isinstance(self, QSpinBox):
            box.setRange(int(limits.minimum), int(limits.maximum))
        else:
            box.setRange(limits.minimum, limits.maximum)

    # --- Qt overrides ------------------------------------------------------------------------

    def validate(self, text: str, position: int) -> Any:  # a QValidator.State
        """Anything may be typed; only a number in range is a value, and anything else is
        refused when committed, saying why. Qt's own validation drops the keystroke instead, a
        silent change: "1,5" typed where the decimal point is "." became 15."""
        box: Any = self
        typed = text.removeprefix(box.prefix()).removesuffix(box.suffix()).strip()
        number = parse_number(typed, box.locale().decimalPoint())
        if number is not None and self.limits.takes(number):
            return QValidator.State.Acceptable
        return QValidator.State.Intermediate

    def fixup(self, text: str) -> str:
        return text  # nothing is changed for the user: a refusal says why instead

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt override)
        enter = event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        if enter and not self.accept_typed():
            event.accept()  # nor does a dialog take the Enter as its OK
            return
        super().keyPressEvent(event)  # type: ignore[misc]

    def focusOutEvent(self, event: QFocusEvent) -> None:  # noqa: N802 (Qt override)
        self.accept_typed()
        super().focusOutEvent(event)  # type: ignore[misc]

    def stepBy(self, steps: int) -> None:  # noqa: N802 (Qt override)
        if self.accept_typed():  # Qt would step from the old value, the typed one dropped
            super().stepBy(steps)  # type: ignore[misc]


class IntBox(_TypedNumbers, QSpinBox):
    """A whole number in `limits`."""

    refused = Signal(str)

    def __init__(self, limits: Limits, parent: QWidget | None = None) -> None:
        self.limits = limits  # first: Qt validates while it is set up
        super().__init__(parent)
        self._set_up(limits)

    def valueFromText(self, text: str) -> int:  # noqa: N802 (Qt override)
        number = parse_number(
            text.removeprefix(self.prefix()).removesuffix(self.suffix()),
            self.locale().decimalPoint(),
        )
        return self.value() if number is None else int(number)


class FloatBox(_TypedNumbers, QDoubleSpinBox):
    """A number in `limits`, shown with `shown_decimals` unless it needs more."""

    refused = Signal(str)

    def __init__(
        self, limits: Limits, shown_decimals: int = 2, parent: QWidget | None = None
    ) -> None:
        self.limits, self.shown_decimals = limits, shown_decimals  # first: Qt calls back
        super().__init__(parent)
        self.setDecimals(ALL_DECIMALS)
        self._set_up(limits)

    def valueFromText(self, text: str) -> float:  # noqa: N802 (Qt override)
        number = parse_number(
            text.removeprefix(self.prefix()).removesuffix(self.suffix()),
            self.locale().decimalPoint(),
        )
        return self.value() if number is None else number

    def textFromValue(self, value: float) -> str:  # noqa: N802 (Qt override)
        text = f"{value:.{self.shown_decimals}f}"
        if float(text) != value:  # finer than the usual decimals: all of it, as it is used
            text = f"{value:.{FINE_DIGITS}g}"
        return text.replace(".", self.locale().decimalPoint())


NumberBox = IntBox | FloatBox


def number_box(limits: Limits, shown_decimals: int = 2, parent: QWidget | None = None) -> NumberBox:
    """An IntBox for whole numbers, else a FloatBox."""
    if limits.integer:
        return IntBox(limits, parent)
    return FloatBox(limits, shown_decimals, parent)


class RefusalLine(QLabel):
    """A dialog's inline line for its boxes: says what a box would refuse as it is typed, and
    keeps the OK button off meanwhile, so OK never takes a value the user did not type."""

    def __init__(self, boxes: list[NumberBox], ok: QPushButton | None = None) -> None:
        super().__init__()
        self.setObjectName("refusal_line")
        self.setWordWrap(True)
        self.setStyleSheet("color: #c62828;")  # readable on light and dark palettes
        self.boxes, self.ok = boxes, ok
        for box in boxes:
            # as typed, and as set (Qt changes the text of a set value without saying so)
            box.lineEdit().textChanged.connect(self.update_line)
            box.valueChanged.connect(self.update_line)
            box.refused.connect(self._refused)
        self.update_line()

    def update_line(self, *_: object) -> None:
        problems = self._problems()
        self.show_refusal(problems[0] if problems else "")

    def _problems(self) -> list[str]:
        problems = [p for p in (box.typed_refusal() for box in self.boxes) if p is not None]
        if self.ok is not None:
            self.ok.setEnabled(not problems)
        return problems

    def _refused(self, text: str) -> None:
        """After Enter or leaving a box: the box shows its value again, the line says why."""
        self._problems()
        self.show_refusal(text)

    def show_refusal(self, text: str) -> None:
        self.setText(text)
        self.setVisible(bool(text))
