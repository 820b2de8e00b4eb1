"""Point pins on a sheet of an SI fabric are a known limit (the sag under a point grows as the
sheet is refined): the window says so where the user pins or refines such a sheet, and Pin
selected sheet offers corner clamps, which hold the same cloth at any resolution."""

from __future__ import annotations

import numpy as np
from qt_helpers import WAIT_MS

from clothlab.sim.document import composition
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.scene import build_topology
from clothlab.sim.lab.textile import with_fabric
from clothlab.ui.selection import Selection
from tests.ui.test_typed_values import type_into_tree

LIMIT = "point pins on an SI fabric are a known limit"


def denim_sheet(qtbot, make_window):
    window = make_window("hanging-sheet", paused=True)
    window.controller.load(with_fabric(load_preset("hanging-sheet"), "denim"), None)
    qtbot.waitUntil(lambda: window.controller.scene.bodies[0].si_material is not None,
                    timeout=WAIT_MS)  # fmt: skip
    window.editor.selection.select(Selection("body", 0))
    return window


def test_refining_a_point_pinned_si_sheet_says_it_is_a_known_limit(qtbot, make_window):
    window = denim_sheet(qtbot, make_window)
    type_into_tree(qtbot, window, ("body", 0, "cols"), "29")
    assert window.controller.scene.bodies[0].cols == 29
    assert LIMIT in window.status.currentMessage()
    assert "Pin top corner clamps" in window.status.currentMessage()


def test_pinning_corners_of_an_si_sheet_says_it_clamps_do_not(qtbot, make_window):
    window = denim_sheet(qtbot, make_window)
    controller = window.controller
    window.action_unpin_all.trigger()
    qtbot.waitUntil(lambda: not controller.scene.pins, timeout=WAIT_MS)
    window.action_pin_top_corners.trigger()
    qtbot.waitUntil(lambda: len(controller.scene.pins) == 2, timeout=WAIT_MS)
    assert LIMIT in window.status.currentMessage()
    window.action_unpin_all.trigger()
    qtbot.waitUntil(lambda: not controller.scene.pins, timeout=WAIT_MS)
    window.status.clearMessage()
    window.action_pin_top_corner_clamps.trigger()
    qtbot.waitUntil(lambda: len(controller.scene.pins) > 2, timeout=WAIT_MS)
    assert LIMIT not in window.status.currentMessage()
    sheet = controller.scene.bodies[0]
    rest = build_topology(controller.scene).rest_positions
    corners = rest[[0, sheet.cols - 1]]
    held = np.array([p.particle for p in controller.scene.pins])
    # every particle within a tenth of the width of a top corner, and no other
    distance = np.linalg.norm(rest[:, None] - corners[None], axis=2).min(axis=1)
    assert set(held) == set(np.flatnonzero(distance <= 0.1 * sheet.width + 1e-12))
    assert not composition.point_pinned(controller.scene, 0)


def test_a_clamp_holds_the_same_cloth_at_any_resolution():
    scene = with_fabric(load_preset("hanging-sheet"), "denim")
    scene = composition._with(scene, pins=[])
    for cols, rows in ((15, 11), (29, 21), (57, 41)):
        sheet = composition.change_body(scene, 0, cols=cols, rows=rows).scene
        clamped = composition.pin_set(sheet, 0, "top corner clamps").scene
        rest = build_topology(clamped).rest_positions
        held = rest[[p.particle for p in clamped.pins]]
        corners = rest[[0, cols - 1]]
        reach = np.linalg.norm(held[:, None] - corners[None], axis=2).min(axis=1)
        assert reach.max() <= 0.1 * clamped.bodies[0].width + 1e-12  # the clamp's size
        assert len(held) >= 6  # more than the corners, finer sheets more
        assert not composition.point_pinned(clamped, 0)
    classic = load_preset("hanging-sheet")  # model units: the limit is an SI fabric's
    assert not composition.point_pinned(classic, 0)
