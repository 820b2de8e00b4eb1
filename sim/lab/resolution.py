"""A finer sheet hangs more stretched under the classic rule.

The classic rule's stretch is whatever error its passes leave, and the error left over a longer
chain of links grows fast: `hanging-sheet`'s max stretch over its third second is 2 % at
15 × 11, 117 % at 60 × 43 and 794 % at 128 × 91 with the same 8 passes (RESEARCH.md §3). So when
an edit makes a sheet finer, `finer_sheet_advice` runs the edited scene from rest for a few
seconds of model time and, if the sheet would hang much more stretched than before, says so in
one line and names the fix: tethers, which hold every particle within its distance along the
cloth from a pin, whatever the resolution (0.3 % at 128 × 91), where 4× the passes or XPBD with
8 substeps still leave 217 % and 563 % (`bench/finer_sheets.py`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from clothlab.sim.document.scene import Scene, SheetSpec, build_simulation, scene_settings

SETTLE_S = 3.0  # of model time from rest: long enough for a hanging sheet to take its stretch
ADVISE_ABOVE = 0.10  # a finer sheet stretched by more than this is worth a word
ADVISE_RATIO = 2.0  # … and by more than this × its stretch before the edit
MAX_WALL_S = 30.0  # a check taking longer gives its figure so far as a lower bound


@dataclass(frozen=True)
class Advice:
    message: str  # one line for the status bar
    setting: str  # the setting that fixes it, switched on with one click
    label: str  # the button's text


def finer_sheets(before: Scene, after: Scene) -> list[int]:
    """Indices of the sheets of `after` with more particles than the body at that index in
    `before` (the same sheet, re-resolved)."""
    return [
        k
        for k, (old, new) in enumerate(zip(before.bodies, after.bodies, strict=False))
        if isinstance(old, SheetSpec)
        and isinstance(new, SheetSpec)
        and new.cols * new.rows > old.cols * old.rows
    ]


def worth_checking(before: Scene, after: Scene) -> bool:
    """An edit made a sheet finer and the classic rule, without tethers, holds it."""
    settings = scene_settings(after)
    return bool(finer_sheets(before, after)) and not settings.xpbd and not settings.tethers


def settled_stretch(scene: Scene, stop: Callable[[], bool] = lambda: False) -> tuple[float, bool]:
    """(max stretch, settled) of `scene` run SETTLE_S from rest: the mean over the last second
    of its max stretch, since a hanging sheet still sways. Not settled when `stop` said so, when
    MAX_WALL_S ran out first or when the model blew up: then the max stretch it had got to,
    which only grows as a sheet comes to hang, is a lower bound."""
    sim = build_simulation(scene)
    steps = math.ceil(SETTLE_S / sim.settings.dt)
    averaged = min(steps, math.ceil(1.0 / sim.settings.dt))  # the last second's steps
    started, total = time.perf_counter(), 0.0
    for step in range(steps):
        if stop() or time.perf_counter() - started > MAX_WALL_S or sim.step(1) == 0:
            return float(sim.readouts().max_stretch), False
        if step >= steps - averaged:
            total += sim.readouts().max_stretch
    return total / averaged, True


def finer_sheet_advice(
    before: Scene, after: Scene, stop: Callable[[], bool] = lambda: False
) -> Advice | None:
    """Advice when the edit `before` → `after` made a sheet finer and it would hang much more
    stretched; None when it would not (or `stop` said to give up)."""
    if not worth_checking(before, after):
        return None
    was, _ = settled_stretch(before, stop)
    now, settled = settled_stretch(after, stop)
    if stop() or now <= max(ADVISE_ABOVE, ADVISE_RATIO * was):
        return None
    sheet = after.bodies[finer_sheets(before, after)[0]]
    assert isinstance(sheet, SheetSpec)
    passes = scene_settings(after).passes
    about = "≈" if settled else "at least"
    message = (
        f"At {sheet.cols} × {sheet.rows} this sheet hangs {about} {100 * now:.0f} % stretched "
        f"with {passes} passes ({100 * was:.0f} % before): tethers hold it at any resolution"
    )
    return Advice(message, "tethers", "Tethers on")
