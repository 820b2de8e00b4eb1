"""The API's boundary: every argument becomes a plain Python value here, or is refused in one
line (ValueError). A numpy integer (an index from np.argmin) is an int from here on and a numpy
float a float, so nothing that is not plain JSON reaches a command, a scene or a file: a value
that slipped through once made every later save fail."""

from __future__ import annotations

import math
import numbers
import operator
from typing import Any

import numpy as np

from clothlab.sim.core.parameters import COORDINATE_LIMIT
from clothlab.sim.document.recording import MAX_STEPS  # as `clothlab run --steps` caps them

Vec3 = tuple[float, float, float]


def index(value: Any, what: str) -> int:
    """A whole number (an int, a numpy integer, anything with __index__) as an int. A bool is
    refused: True where an index is meant is a mistake, not particle 1."""
    if isinstance(value, bool | np.bool_):
        raise ValueError(f"{what} {shown(value)} is not an index (a whole number)")
    try:
        return operator.index(value)
    except TypeError:
        raise ValueError(f"{what} {shown(value)} is not an index (a whole number)") from None


def index_below(value: Any, what: str, count: int) -> int:
    """An index into `count` things."""
    k = index(value, what)
    if not 0 <= k < count:
        raise ValueError(f"{what} {shown(k)} is not within 0…{count - 1}")
    return k


def indices_below(values: Any, what: str, count: int) -> list[int]:
    """A sequence (or array) of indices into `count` things."""
    if isinstance(values, str | bytes) or not _iterable(values):
        raise ValueError(f"{what}s {shown(values)}: expected a list of indices")
    return [index_below(v, what, count) for v in values]


def step_count(value: Any, what: str = "steps") -> int:
    """A count of steps, 0 … MAX_STEPS."""
    try:
        steps = index(value, what)
    except ValueError:
        raise ValueError(f"{what}: {shown(value)} is not a count of steps") from None
    if steps < 0:
        raise ValueError(f"{what}: {shown(steps)} is not a count of steps")
    if steps > MAX_STEPS:
        raise ValueError(f"{what}: {shown(steps)} is more than {MAX_STEPS:_}")
    return steps


def number(value: Any, what: str) -> float:
    """A finite real number (an int, a float, a numpy scalar) as a float."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        raise ValueError(f"{what} {shown(value)} is not a number")
    try:
        result = float(value)
    except OverflowError:  # an int beyond a float's range
        raise ValueError(f"{what} {shown(value)} is beyond a float's range") from None
    if not math.isfinite(result):
        raise ValueError(f"{what} {shown(value)} is not a finite number")
    return result


def point(value: Any, what: str = "point") -> Vec3:
    """Three finite coordinates (a tuple, a list, a (3,) array) within the scene files' limit."""
    if isinstance(value, str | bytes) or not _iterable(value):
        raise ValueError(f"{what} {shown(value)}: expected three numbers (x, y, z)")
    items = list(value)
    if len(items) != 3:
        raise ValueError(f"{what} {shown(value)}: expected three numbers (x, y, z)")
    x, y, z = (number(v, f"{what}: coordinate") for v in items)
    if max(abs(x), abs(y), abs(z)) > COORDINATE_LIMIT:
        raise ValueError(f"{what} {(x, y, z)}: a coordinate beyond ±{COORDINATE_LIMIT:g}")
    return (x, y, z)


def _iterable(value: Any) -> bool:
    try:
        iter(value)
    except TypeError:
        return False
    return True


def shown(value: Any) -> str:
    """A value in a message: one line, and not a 400-digit number."""
    text = repr(value).replace("\n", " ")
    return text if len(text) <= 60 else text[:57] + "…"


def finite_array(value: Any, what: str, rows: int) -> np.ndarray:
    """A (rows, 3) array of finite real numbers (a nested list, a numpy array) as float64."""
    try:
        array = np.asarray(value)
    except (ValueError, TypeError):
        array = np.asarray(None)
    if array.dtype.kind not in "iuf" or array.shape != (rows, 3):
        shape = f"shape {array.shape} of {array.dtype}" if array.dtype != object else "not numbers"
        raise ValueError(f"{what}: expected ({rows}, 3) numbers ({shape})")
    array = array.astype(np.float64)
    if not np.isfinite(array).all():
        raise ValueError(f"{what}: not all finite numbers (NaN or infinity)")
    return array


def coordinates(value: Any, what: str, rows: int) -> np.ndarray:
    """(rows, 3) finite coordinates within the scene files' limit, as float64."""
    array = finite_array(value, what, rows)
    if np.abs(array).max(initial=0.0) > COORDINATE_LIMIT:
        raise ValueError(f"{what}: a coordinate beyond ±{COORDINATE_LIMIT:g}")
    return array
