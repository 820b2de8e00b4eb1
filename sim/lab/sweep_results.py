"""A sweep's results read back (`clothlab sweep --csv`): one row per variant, its varied
settings first, then its status and final readouts, and how they plot: a readout against one
varied setting, one curve per value of another.
"""

from __future__ import annotations

import csv
import io
import math
import os
from dataclasses import dataclass
from pathlib import Path

from clothlab.sim.core.readouts import CSV_COLUMNS, column_key, header_name
from clothlab.sim.document.files import read_document

MAX_FILE_BYTES = 16 * 1024 * 1024  # 256 variants are some 100 KB


class SweepResultsError(ValueError):
    """A file that is not a sweep's results; the message is one line naming it."""


@dataclass(frozen=True)
class SweepRow:
    values: dict[str, str]  # varied setting → its value as typed
    status: str  # "ok", or why the variant has no readouts
    # column key (sim.core.readouts.CSV_COLUMNS) → final value, NaN if empty
    readouts: dict[str, float]


@dataclass(frozen=True)
class SweepResults:
    keys: tuple[str, ...]  # the varied settings, in the order of the --vary options
    rows: tuple[SweepRow, ...]
    si: bool = False  # its header names SI units (m, N, J): the sweep ran in them

    def curves(
        self, readout: str, x_key: str, group_key: str | None
    ) -> dict[str, tuple[list[float], list[float]]]:
        """{value of group_key: (x values, readout values)} over the variants that finished,
        x ascending; one curve named "" when there is no second setting."""
        curves: dict[str, list[tuple[float, float]]] = {}
        for row in self.rows:
            if row.status != "ok":
                continue
            group = row.values[group_key] if group_key else ""
            point = (_number(row.values[x_key]), row.readouts[readout])
            curves.setdefault(group, []).append(point)
        return {
            g: ([x for x, _ in sorted(p)], [y for _, y in sorted(p)]) for g, p in curves.items()
        }


def parse_sweep_results(text: str, source: str) -> SweepResults:
    try:  # newline=None: a file's lines may end in \n, \r\n or \r alone
        lines = list(csv.reader(io.StringIO(text, newline=None)))
    except csv.Error as error:  # a cell past the csv module's limit, a stray quote
        raise SweepResultsError(f"{source}: not a sweep's results ({error})") from None
    if not lines or "status" not in lines[0]:
        raise SweepResultsError(f"{source}: not a sweep's results (no status column)")
    header = lines[0]
    split = header.index("status")
    keys = tuple(header[:split])
    columns = [column_key(name) for name in header[split + 1 :]]  # with units or without
    if not keys or not _known_columns(columns):
        raise SweepResultsError(f"{source}: not a sweep's results (unexpected columns)")
    rows = []
    for number, cells in enumerate(lines[1:], start=2):
        if len(cells) != len(header):
            raise SweepResultsError(
                f"{source}: line {number}: {len(cells)} cells, not {len(header)}"
            )
        finals = dict(zip(columns, cells[split + 1 :], strict=True))
        # a readout the file's version did not have yet is NaN, as one that did not apply
        readouts = {c: _number(finals[c]) if finals.get(c) else math.nan for c in CSV_COLUMNS}
        rows.append(SweepRow(dict(zip(keys, cells[:split], strict=True)), cells[split], readouts))
    return SweepResults(keys, tuple(rows), _names_si_units(header[split + 1 :]))


def _names_si_units(names: list[str]) -> bool:
    """Whether a header names its columns in SI units: one whose unit differs between the two
    systems ("sag (m)", not "sag (units)") says which; a header without units is the model's."""
    for name in names:
        key = column_key(name)
        if key in CSV_COLUMNS and header_name(key, si=True) != header_name(key):
            return name == header_name(key, si=True)
    return False


def _known_columns(columns: list[str]) -> bool:
    """The readout columns of this version, or of an earlier one: step and t, then readouts
    this version knows, in its order (a readout added later is missing from older files)."""
    if columns[:2] != ["step", "t"] or not set(columns) <= set(CSV_COLUMNS):
        return False
    positions = [CSV_COLUMNS.index(c) for c in columns]
    return positions == sorted(set(positions))  # in this version's order, none twice


def load_sweep_results(path: str | os.PathLike[str]) -> SweepResults:
    path = Path(path)
    raw = read_document(path, MAX_FILE_BYTES, "a sweep's results", SweepResultsError)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SweepResultsError(f"{path}: not UTF-8 text") from None
    return parse_sweep_results(text, str(path))


def _number(text: str) -> float:
    """A value as a number for the x axis: on/off as 1/0, anything else NaN if not a number."""
    lowered = text.strip().lower()
    if lowered in ("on", "true", "yes"):
        return 1.0
    if lowered in ("off", "false", "no"):
        return 0.0
    try:
        return float(text)
    except ValueError:
        return math.nan
