"""A finer sheet hangs more stretched under the classic rule, and the lab says so:
the advice names the stretch the edited scene settles at, and its fix holds."""

from __future__ import annotations

import pytest

from clothlab.sim.document.composition import change_body
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.scene import Scene, with_setting
from clothlab.sim.lab.resolution import finer_sheet_advice, finer_sheets, settled_stretch


def refined(scene: Scene, cols: int, rows: int) -> Scene:
    return change_body(scene, 0, cols=cols, rows=rows).scene


def test_a_finer_sheet_is_told_how_stretched_it_will_hang_and_offered_tethers():
    before = load_preset("hanging-sheet")
    after = refined(before, 60, 43)
    assert finer_sheets(before, after) == [0]
    was, _ = settled_stretch(before)
    now, settled = settled_stretch(after)
    print(f"\n15 × 11: {100 * was:.1f} %, 60 × 43: {100 * now:.1f} %")
    assert settled and was < 0.05 and now > 1.0  # 2 % and 127 %
    advice = finer_sheet_advice(before, after)
    assert advice is not None and advice.setting == "tethers"
    assert f"hangs ≈ {100 * now:.0f} % stretched with 8 passes ({100 * was:.0f} % before)" in (
        advice.message
    )
    fixed, _ = settled_stretch(with_setting(after, "tethers", True))
    assert fixed < 0.01  # the fix holds it: 0.0 %


@pytest.mark.parametrize(
    "change",
    [
        lambda s: refined(s, 8, 6),  # coarser
        lambda s: refined(with_setting(s, "tethers", True), 60, 43),  # tethered already
        lambda s: refined(with_setting(s, "xpbd", True), 60, 43),  # not the classic rule
        lambda s: refined(s, 16, 11),  # finer, but hangs much as before
    ],
    ids=["coarser", "tethers", "xpbd", "a-little-finer"],
)
def test_no_advice_where_the_sheet_hangs_as_it_did(change):
    before = load_preset("hanging-sheet")
    after = change(before)
    if after.solver.xpbd or after.fabric.tethers:
        before = after.model_copy(update={"bodies": before.bodies})
    assert finer_sheet_advice(before, after) is None


def test_a_check_told_to_stop_gives_no_advice():
    before = load_preset("hanging-sheet")
    assert finer_sheet_advice(before, refined(before, 60, 43), stop=lambda: True) is None
