"""The disc in the window: Add ▸ Disc clicked in the menu bar, its fields edited in
the Scene panel with their own ranges, its selection outline, pins without wires, its weave and
hem."""

from __future__ import annotations

import numpy as np
from PySide6.QtTest import QTest
from qt_helpers import WAIT_MS

from clothlab.sim.core.snapshot import take_snapshot
from clothlab.sim.document.scene import (
    DiscSpec,
    PinSpec,
    Scene,
    SheetSpec,
    body_counts,
    build_simulation,
    build_topology,
)
from clothlab.sim.lab import textile
from clothlab.ui.selection import Selection
from clothlab.ui.viewport import meshes
from clothlab.ui.window.editor import NEW_DISC_HELD
from tests.ui.docks.test_scene_model import find_value
from tests.ui.test_typed_values import type_into_tree
from tests.ui.window.test_window_setup_and_state import CTRL, LEFT, click_menu, screen_point


def last_undo_text(window) -> str:
    stack = window.controller.undo_stack
    return stack.text(stack.count() - 1)


def test_add_disc_from_the_menu_and_edit_its_fields(qtbot, make_window):
    window = make_window(paused=True)
    controller = window.controller
    original = controller.scene
    click_menu(qtbot, window, "Add", "Disc")
    qtbot.waitUntil(lambda: len(controller.scene.bodies) == 2, timeout=WAIT_MS)
    assert last_undo_text(window) == "Add disc 31 across"
    disc = controller.scene.bodies[1]
    assert isinstance(disc, DiscSpec)
    assert disc.center[0] - disc.diameter / 2 > 1.4  # beside the sheet, not on it
    assert window.editor.selection.current == Selection("body", 1)
    # its middle is pinned at rest, as a drape meter's support holds it
    topology = build_topology(controller.scene)
    first = topology.discs[0].first_particle
    r = np.hypot(*(topology.rest_positions[first:, [0, 2]] - (disc.center[0], 0.0)).T)
    held = NEW_DISC_HELD * disc.diameter / 2
    pinned = [p.particle - first for p in controller.scene.pins if p.particle >= first]
    assert pinned == list(np.flatnonzero(r <= held * (1 + 1e-12))) and len(pinned) > 100

    # picked in the view: Ctrl+click selects the sheet, then the disc
    rest = topology.rest_positions
    drawn = window.viewport.snapshot  # the view picks in the frame it shows: the disc's
    qtbot.waitUntil(lambda: drawn() is not None and len(drawn().x) == len(rest), timeout=WAIT_MS)
    sheet_point, disc_point = (
        rest[7],
        rest[first + int(np.argmin(np.abs(r - 0.7 * disc.diameter / 2)))],
    )
    QTest.mouseClick(window.viewport, LEFT, CTRL, screen_point(window, sheet_point))
    qtbot.waitUntil(lambda: window.editor.selection.body == 0, timeout=WAIT_MS)
    QTest.mouseClick(window.viewport, LEFT, CTRL, screen_point(window, disc_point))
    qtbot.waitUntil(lambda: window.editor.selection.body == 1, timeout=WAIT_MS)

    # the Scene panel lists its fields, with a disc's own range for columns
    before = controller.scene
    type_into_tree(qtbot, window, ("body", 1, "cols"), "2")
    assert window.status.currentMessage() == "Columns 2: expected 3…512"
    assert controller.scene == before
    type_into_tree(qtbot, window, ("body", 1, "cols"), "41")
    assert controller.scene.bodies[1].cols == 41
    assert last_undo_text(window) == "Set resolution of disc 41 across"
    type_into_tree(qtbot, window, ("body", 1, "diameter"), "2")
    assert controller.scene.bodies[1].diameter == 2.0
    assert last_undo_text(window) == "Resize disc"
    type_into_tree(qtbot, window, ("body", 1, "center", 1), "1.5")
    assert controller.scene.bodies[1].center[1] == 1.5
    assert last_undo_text(window) == "Move disc"
    shown = find_value(window.scene_model, ("body", 1, "diameter"))
    assert shown.data() == "2 units"

    for _ in range(3):  # the move, the resize, the resolution
        controller.undo_stack.undo()
    assert controller.scene == before
    controller.undo_stack.undo()  # the add, with its pins
    assert controller.scene == original


def test_a_disc_is_outlined_along_its_rim():
    scene = Scene(bodies=[SheetSpec(cols=3, rows=3), DiscSpec(cols=21, center=(2.0, 1.0, 0.0))])
    topology = build_topology(scene)
    outline = meshes.outline_links(topology, 1)
    ends = topology.rest_positions[topology.links[outline]]  # (K, 2, 3)
    r = np.hypot(ends[..., 0] - 2.0, ends[..., 2])
    assert np.allclose(r, 0.15)  # every outline link joins two rim particles
    assert topology.bodies[1].first_link <= outline.min()
    # the rim goes once round: as many links as rim particles, each particle in two
    particles, counts = np.unique(topology.links[outline], return_counts=True)
    assert len(outline) == len(particles) and np.all(counts == 2)
    lengths = topology.rest_lengths[outline]
    assert np.isclose(lengths.sum(), 2 * np.pi * 0.15, rtol=0.01)


def test_a_disc_gets_a_weave_and_a_round_hem():
    scene = Scene(bodies=[SheetSpec(cols=3, rows=3), DiscSpec(cols=21, yaw=30.0)])
    topology = build_topology(scene)
    attributes = meshes.static_attributes(topology)[9:]
    disc = topology.discs[0]
    hem = min(meshes.HEM_WIDTH, 0.4 * disc.spacing)
    r = np.hypot(disc.local_xz[:, 0], disc.local_xz[:, 1])
    assert np.allclose(attributes[:, 8], (0.15 - r) / hem)
    assert np.allclose(attributes[:, 9], attributes[:, 8])
    assert np.allclose(attributes[:, 6:8], disc.local_xz + 0.15)  # the unturned grid
    np.testing.assert_allclose(attributes[:, 3:6], [meshes.CLOTH_COLOR] * len(attributes))


def test_a_discs_pins_rise_no_wires_and_a_sheets_do():
    scene = textile.cusick_drape_scene(None, cols=21)
    sheet = SheetSpec(cols=3, rows=2, top_center=(1.0, 1.0, 0.0))
    scene = scene.model_copy(update={"bodies": [*scene.bodies, sheet]})
    first_sheet = body_counts(scene.bodies[:1])[0]
    pins = [*scene.pins, PinSpec(particle=first_sheet, anchor=(0.8, 1.0, 0.0))]
    sim = build_simulation(scene.model_copy(update={"pins": pins}))
    mesh = meshes.BodyMesh(sim.topology)
    mesh.update(take_snapshot(sim, 0), colors="", wireframe=False)
    assert len(scene.pins) > 50
    assert mesh.wire_range[1] == 2  # one wire, the sheet's pin's
    start = mesh.wire_range[0]
    assert np.allclose(mesh.lines[start, :3], (0.8, 1.0, 0.0))
