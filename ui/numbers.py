"""Numbers as the app's language writes them. Each is formatted by Python as before, so English
reads as it always has, and then takes the locale's decimal point ("0,5 LE" in German): the
locale app.language set (QLocale's default). Only for what is shown: files keep theirs."""

from __future__ import annotations

import math
import re
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import QLocale

_POINT = re.compile(r"(?<=\d)\.(?=\d)")  # a decimal point between digits: not "z. B." or "Max."


def localized(text: str) -> str:
    """`text` (a number, or a line with numbers in it) with the locale's decimal point."""
    point = QLocale().decimalPoint()
    return text if point == "." else _POINT.sub(point, text)


class LocalizedAxis(pg.AxisItem):
    """A plot axis whose tick labels take the locale's decimal point. On a log axis only the 1,
    2 and 5 of each decade are labelled: pyqtgraph labels every minor tick, and over two decades
    "3·10¹4·10¹5·10¹…" run into each other."""

    def tickStrings(self, values: list[float], scale: float, spacing: float) -> list[str]:  # noqa: N802
        return [localized(text) for text in super().tickStrings(values, scale, spacing)]

    def logTickStrings(self, values: list[float], scale: float, spacing: float) -> list[str]:  # noqa: N802
        return [decade_label(10.0**value * scale) for value in values]


def decade_label(value: float) -> str:
    """ "20" for 20, "0.5" for 0.5; "" for a value that is not 1, 2 or 5 times a power of 10."""
    if value <= 0.0:
        return ""
    leading = value / 10.0 ** math.floor(math.log10(value) + 1e-9)
    return f"{value:g}" if min(abs(leading - k) for k in (1.0, 2.0, 5.0)) < 1e-6 else ""


def plot_widget(**options: Any) -> pg.PlotWidget:
    """A PlotWidget (same options) whose axes write numbers as the app's language does."""
    axes = {side: LocalizedAxis(side) for side in ("left", "bottom")}
    return pg.PlotWidget(axisItems=axes, **options)
