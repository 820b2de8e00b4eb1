"""Cloth Lab from Python: the model the app runs, for scripts and notebooks. Imports no Qt.

    import clothlab
    lab = clothlab.open("hanging-sheet")     # a preset, a scene file or a recording
    lab.set(passes=16, wind=2.0)             # any key `clothlab run --set` takes
    table = lab.run(600)                     # readout rows, one per step, as `run --csv`
    table["sag"], lab.positions              # (601,) and (N, 3) float64
    lab.cut_seam(); lab.grab(160, (0.5, -1.0, 0.6)); lab.release(); lab.pin(14, (1.2, 1, 0))
    lab.save("my.json"); lab.save_recording("run.clothrec.json")
    clothlab.compare("hanging-sheet", ["passes=16", {"stiffness": 0.5}], steps=600)
    clothlab.sweep("hanging-sheet", {"passes": [4, 8, 16]}, steps=600)

The numbers are those of the CLI and the app bit for bit: every run is stepped by the same
engine (sim.lab.engine). The full reference is docs/api.md.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from clothlab.lab import Lab, Table
from clothlab.sim.document.presets import preset_names
from clothlab.sim.document.scene import SceneError
from clothlab.sim.lab import variants
from clothlab.sim.lab.variants import BASELINE, Source, Variant, VariantError, run_variant

__all__ = [
    "Lab", "SceneError", "SweepRow", "Table", "VariantError", "compare", "keys", "open",
    "presets", "sweep",
]  # fmt: skip

Changes = str | Mapping[str, Any]  # "passes=16,wind=2" or {"passes": 16, "wind": 2}


def open(source: str | os.PathLike[str]) -> Lab:
    """A preset by name, a scene file or a recording (told apart by its first bytes). Raises
    SceneError (one line naming the file) for one that cannot be read."""
    text = os.fspath(source)
    return Lab(variants.read_source(text), name=text)


def presets() -> list[str]:
    """The built-in scenes' names."""
    return preset_names()


def keys() -> list[str]:
    """Every key `Lab.set` (and `clothlab run --set`) takes."""
    return variants.known_keys()


def compare(
    source: str | os.PathLike[str] | Lab, changes: Sequence[Changes], steps: int
) -> dict[str, Table]:
    """The source as is and with each set of changes, each run `steps` steps: their readout
    rows by name ("as is", "passes=16", …), as `clothlab compare --csv` gives them. Raises
    RuntimeError naming a variant that blew up."""
    chosen = [BASELINE, *(_variant(c) for c in changes)]
    base = _source(source)
    tables = {}
    for variant in chosen:
        result = run_variant(base, variant.changes, steps)
        if result.failure:
            raise RuntimeError(f"{variant.name}: {result.failure}")
        tables[variant.name] = Table.of(result.rows)
    return tables


@dataclass(frozen=True)
class SweepRow:
    values: dict[str, str]  # the varied keys' values, as given
    status: str  # "ok", "blew up at step N", "bad value: …"
    final: dict[str, float] | None  # the readouts at the last step; None if it failed


def sweep(
    source: str | os.PathLike[str] | Lab,
    vary: Mapping[str, Sequence[Any]],
    steps: int,
    workers: int = 1,
) -> list[SweepRow]:
    """Every combination of the values (the first key slowest), each run `steps` steps, in
    `workers` processes: one row per variant, as `clothlab sweep --csv` writes them."""
    axes = [
        (key, [(str(v), variants.parse_change(key, variants.change_text(v))) for v in values])
        for key, values in vary.items()
    ]
    grid = variants.grid(axes)
    base = _source(source)
    results = _run_grid(base, grid, steps, workers)
    return [
        SweepRow(dict(v.given), r.status,
                 None if r.final_row is None else dict(zip(Table.columns, r.final_row,
                                                           strict=True)))
        for v, r in zip(grid, results, strict=True)
    ]  # fmt: skip


def _run_grid(base: Source, grid: list[Variant], steps: int, workers: int) -> list[Any]:
    if workers <= 1:
        return [run_variant(base, v.changes, steps, keep_rows=False) for v in grid]
    from clothlab.sim.lab.sweep import make_pool, run_sweep  # no Qt there: worker processes

    results: dict[int, Any] = {}
    pool = make_pool(min(workers, len(grid)), None)
    try:
        run_sweep(pool, base, grid, steps, results.__setitem__)
    finally:
        pool.close()
    return [results[k] for k in range(len(grid))]


def _source(source: str | os.PathLike[str] | Lab) -> Source:
    """A Lab's run from its step 0 with the commands given so far (as the app's Compare panel
    takes the main run), or a preset, scene or recording."""
    if isinstance(source, Lab):
        return variants.run_source(source.recording)
    return variants.read_source(os.fspath(source))


def _variant(changes: Changes) -> Variant:
    if isinstance(changes, str):
        return variants.parse_variant(changes)
    pairs = ",".join(f"{key}={variants.change_text(value)}" for key, value in changes.items())
    return variants.parse_variant(pairs)
