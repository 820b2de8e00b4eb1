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

import ast
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

from clothlab import _boundary as boundary
from clothlab._boundary import shown
from clothlab.lab import Lab, Table
from clothlab.sim.document.presets import preset_names
from clothlab.sim.document.scene import SceneError
from clothlab.sim.lab import variants
from clothlab.sim.lab.variants import BASELINE, Source, Variant, VariantError, run_variant
from clothlab.state import LabState, state_from_file

__all__ = [
    "Lab", "LabState", "SceneError", "SweepRow", "Table", "VariantError", "compare", "keys",
    "load_state", "open", "open_state", "presets", "sweep",
]  # fmt: skip

Changes = str | Mapping[str, Any]  # "passes=16,wind=2" or {"passes": 16, "wind": 2}


def open(source: str | os.PathLike[str]) -> Lab:
    """A preset by name, a scene file or a recording (told apart by its first bytes). Raises
    SceneError (one line naming the file) for one that cannot be read."""
    text = os.fspath(source)
    return Lab(variants.read_source(text), name=text)


def load_state(path: str | os.PathLike[str]) -> LabState:
    """A state saved by `LabState.save`: its recording replayed to its step and its positions
    checked against the file's, bit for bit (as long as the run took). Give it to
    `Lab.restore`, or open a Lab at it with `open_state`. Raises SceneError (one line naming
    the file) for one that cannot be read or does not replay to its positions."""
    return state_from_file(path)


def open_state(path: str | os.PathLike[str]) -> Lab:
    """A Lab at a state saved by `LabState.save` (see load_state)."""
    return Lab.of_state(load_state(path))


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
    steps = boundary.step_count(steps)
    if isinstance(changes, str | Mapping):  # one set of changes where a list of them is meant
        raise ValueError(f"changes {shown(changes)}: give a list of them, as [{shown(changes)}]")
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
    """One variant of a sweep: `values` the varied keys' values as `Lab.set` parses them
    ({"passes": 4, "wind": 0.0}), `status` how its run went ("ok", "blew up at step N", "bad
    value: …"), `final` the readouts at its last step by CSV column key (None if it failed)."""

    values: dict[str, Any]  # the varied keys' values, parsed as `Lab.set` parses them (int 8)
    status: str  # "ok", "blew up at step N", "bad value: …"
    final: dict[str, float] | None  # the readouts at the last step; None if it failed


def sweep(
    source: str | os.PathLike[str] | Lab,
    vary: Mapping[str, Sequence[Any]],
    steps: int,
    workers: int = 1,
) -> list[SweepRow]:
    """Every combination of the values (the first key slowest), each run `steps` steps, in
    `workers` processes: one row per variant, as `clothlab sweep --csv` writes them. With
    workers > 1, a script calls it under `if __name__ == "__main__":` (the workers import the
    script again); from a script's top level it raises RuntimeError saying so."""
    steps = boundary.step_count(steps)
    workers = boundary.index(workers, "workers")
    if workers < 1:
        raise ValueError(f"workers: {workers} is not a count of processes (1 or more)")
    if not isinstance(vary, Mapping):
        raise ValueError(f"vary {shown(vary)}: give {{key: [values]}}, as {{'passes': [4, 8]}}")
    axes = [(key, _axis(key, values)) for key, values in vary.items()]
    grid = variants.grid(axes)
    base = _source(source)
    if workers > 1:
        _refuse_unguarded_script()
    results = _run_grid(base, grid, steps, workers)
    return [
        SweepRow(dict(v.changes), r.status,
                 None if r.final_row is None else dict(zip(Table.columns, r.final_row,
                                                           strict=True)))
        for v, r in zip(grid, results, strict=True)
    ]  # fmt: skip


def _axis(key: str, values: Any) -> list[tuple[str, Any]]:
    """One key's values as (text, parsed) pairs; a string or a lone value is refused."""
    if isinstance(values, str | bytes) or not hasattr(values, "__iter__"):
        raise ValueError(f"{key}: {shown(values)} is not a list of values (as [4, 8, 16])")
    texts = [variants.change_text(v) for v in values]
    return [(text, variants.parse_change(key, text)) for text in texts]


def _refuse_unguarded_script() -> None:
    """Raise RuntimeError when called from a script's top level outside `if __name__ ==
    "__main__":`. The worker processes start afresh and import the script to find its
    functions: unguarded, each would start a sweep of its own, fail, and the sweep got rows of
    `error: BrokenProcessPool` after pages of tracebacks."""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    frame = _main_module_frame(main)
    if frame is None or path is None:  # a notebook, `python -c`, or inside a function: fine
        return
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))  # `open` is clothlab's here
    except (OSError, SyntaxError, ValueError):  # not a script we can read: let it try
        return
    if not any(_is_main_guard(node, frame.f_lineno) for node in tree.body):
        raise RuntimeError(
            "clothlab.sweep(workers > 1) from a script's top level: put the script's code under "
            '`if __name__ == "__main__":` (each worker process imports the script again)'
        )


def _main_module_frame(main: Any) -> FrameType | None:
    """The frame of the main module's top-level code among the callers, if any."""
    frame: FrameType | None = sys._getframe(1)
    names = getattr(main, "__dict__", None)
    while frame is not None:
        if frame.f_globals is names and frame.f_code.co_name == "<module>":
            return frame
        frame = frame.f_back
    return None


def _is_main_guard(node: ast.stmt, line: int) -> bool:
    """Whether `node` is `if __name__ == "__main__":` and holds the line."""
    if not isinstance(node, ast.If) or not node.lineno <= line <= (node.end_lineno or 0):
        return False
    test = node.test
    return (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == "__name__"
        and len(test.comparators) == 1
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value == "__main__"
    )


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
