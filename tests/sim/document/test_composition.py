"""Composing scenes: bodies, obstacles, pin sets and materials, with numbers."""

from __future__ import annotations

import numpy as np
import pytest

from clothlab.sim.core.fabrics import FABRICS
from clothlab.sim.document import composition as c
from clothlab.sim.document.commands import (
    Load,
    Stamped,
    apply_to_document,
    apply_to_simulation,
    validate,
)
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.recording import Recording, parse_recording, recording_json
from clothlab.sim.document.scene import (
    MAX_BODIES,
    MAX_OBSTACLES,
    BlockSpec,
    BoxSpec,
    PinSpec,
    Scene,
    SceneError,
    SheetSpec,
    SphereSpec,
    body_counts,
    build_simulation,
    build_topology,
    parse_scene,
    scene_json,
)
from clothlab.sim.lab.engine import replay

FLOOR_OFF = {"floor": {"enabled": False, "y": -1.6}}


def flat_sheet_over(obstacle: BoxSpec | SphereSpec, top: float, **sheet: object) -> Scene:
    spec = {"cols": 9, "rows": 9, "width": 0.8, "height": 0.8, "horizontal": True,
            "top_center": (0.0, top, 0.0), **sheet}  # fmt: skip
    bodies = [SheetSpec(**spec).model_dump()]
    return Scene.model_validate(
        {"bodies": bodies, "obstacles": [obstacle.model_dump()], **FLOOR_OFF}
    )


# --- obstacles in the solver -------------------------------------------------------------------


def test_a_sheet_dropped_on_a_box_rests_on_its_top_face():
    box = BoxSpec(center=(0.0, -0.5, 0.0), size=(1.2, 1.0, 1.2))  # top face at y = 0
    sim = build_simulation(flat_sheet_over(box, 0.5))
    sim.step(360)  # 3 s: fallen 0.5 units and settled
    y = sim.state.x[:, 1]
    assert y.min() >= -1e-12  # the collision pass ends every step: nothing inside
    assert np.abs(y).max() < 1e-3  # and every particle lies on the top face
    assert sim.readouts().motion < 1e-3


def test_a_sheet_wider_than_the_box_drapes_over_its_edges_and_never_enters_it():
    box = BoxSpec(center=(0.0, -0.5, 0.0), size=(0.4, 1.0, 0.4))
    sim = build_simulation(flat_sheet_over(box, 0.3, cols=15, rows=15, width=1.4, height=1.4))
    for _ in range(240):
        sim.step(1)
        inside = np.all(np.abs(sim.state.x - (0.0, -0.5, 0.0)) < (0.2, 0.5, 0.2), axis=1)
        assert not inside.any()
    assert sim.state.x[:, 1].min() < -0.3  # the edges hang down the sides


def test_a_particle_falls_onto_an_extra_sphere_and_stays_on_its_surface():
    sphere = SphereSpec(center=(0.0, -0.5, 0.0), radius=0.4)
    sim = build_simulation(flat_sheet_over(sphere, 0.2, cols=3, rows=3, width=0.1, height=0.1))
    sim.step(240)
    distance = np.linalg.norm(sim.state.x - (0.0, -0.5, 0.0), axis=1)
    assert distance.min() >= 0.4 - 1e-12
    assert distance.max() < 0.4 + 0.02


def test_the_ball_is_the_first_sphere_and_boxes_come_after_it():
    scene = load_preset("drop")
    scene = c.add_obstacle(scene, BoxSpec(center=(2.0, 0.0, 0.0))).scene
    obstacles = build_simulation(scene).obstacles()
    assert obstacles.spheres.tolist() == [[*scene.ball.center, scene.ball.radius]]
    assert obstacles.boxes.tolist() == [[2.0, 0.0, 0.0, 0.5, 0.5, 0.5]]


def test_friction_on_a_box_top_stops_a_sliding_sheet_sooner():
    def slide(friction: float) -> float:
        box = BoxSpec(center=(0.0, -0.5, 0.0), size=(4.0, 1.0, 4.0))
        scene = flat_sheet_over(box, 0.0)
        scene = scene.model_copy(update={"fabric": scene.fabric.model_copy(update={
            "friction_static": friction, "friction_kinetic": friction})})  # fmt: skip
        sim = build_simulation(scene)
        sim.state.x_prev[:, 0] -= 2.0 * sim.settings.dt  # sliding along +x at 2 units/s
        sim.step(120)
        return float(sim.state.x[:, 0].mean())

    assert slide(0.5) < 0.5 * slide(0.0)


def test_a_grab_target_inside_a_box_is_pushed_out_as_a_particle_would_be():
    box = BoxSpec(center=(0.0, -0.5, 0.0), size=(1.0, 1.0, 1.0))
    sim = build_simulation(flat_sheet_over(box, 0.3))
    assert sim.allowed_position(np.array([0.1, -0.1, 0.0])).tolist() == [0.1, 0.0, 0.0]


# --- materials ---------------------------------------------------------------------------------


def test_each_body_takes_its_own_material():
    scene = c.duplicate_body(load_preset("hanging-sheet"), 0).scene
    scene = c.change_body(scene, 0, material="silk").scene
    scene = c.change_body(scene, 1, material="paper").scene
    sim = build_simulation(scene)
    sim.step(240)
    spans = build_topology(scene).bodies
    strain = sim.state.x[sim.topology.links[:, 1]] - sim.state.x[sim.topology.links[:, 0]]
    stretch = np.linalg.norm(strain, axis=1) / sim.topology.rest_lengths - 1.0
    silk = stretch[: spans[0].link_count].max()
    paper = stretch[spans[1].first_link :].max()
    assert FABRICS["silk"].stiffness < FABRICS["paper"].stiffness
    assert silk > 1.5 * paper


def test_a_bodys_own_stiffness_overrides_its_material_and_the_world():
    scene = c.change_body(load_preset("hanging-sheet"), 0, material="denim", stiffness=0.2).scene
    assert np.all(build_simulation(scene).link_material().stiffness == 0.2)
    scene = c.change_body(scene, 0, stiffness=None, material=None).scene
    assert np.all(build_simulation(scene).link_material().stiffness == 1.0)  # the world's


def test_a_material_change_is_live_and_does_not_restart_the_model():
    scene = load_preset("hanging-sheet")
    composed = c.change_body(scene, 0, material="silk")
    edit = c.edit_of(scene, composed)
    assert not edit.restart and composed.text == "Set sheet to silk"
    sim = build_simulation(scene)
    sim.step(10)
    apply_to_simulation(sim, edit)
    assert sim.state.steps == 10
    assert np.all(sim.link_material().stiffness == FABRICS["silk"].stiffness)


# --- bodies: sizes, resolutions, pins and cuts carried over ----------------------------------


def test_a_new_resolution_keeps_the_sheets_size_and_its_corner_pins():
    scene = load_preset("hanging-sheet")  # 15 × 11, corners pinned
    finer = c.change_body(scene, 0, cols=29, rows=21).scene
    rest = build_topology(finer).rest_positions
    assert np.ptp(rest[:, 0]) == pytest.approx(2.8) and np.ptp(rest[:, 1]) == pytest.approx(2.0)
    assert [p.particle for p in finer.pins] == [0, 28]
    assert [p.anchor for p in finer.pins] == [p.anchor for p in scene.pins]


def test_a_new_size_keeps_the_resolution_unless_the_spacing_is_locked():
    sheet = load_preset("hanging-sheet").bodies[0]
    assert c.resize_sheet_keeping_rule(sheet, 5.6, 2.0) == {"width": 5.6, "height": 2.0}
    locked = sheet.replaced(lock_spacing=True)
    changes = c.resize_sheet_keeping_rule(locked, 5.6, 2.0)
    assert (changes["cols"], changes["rows"]) == (29, 11)


def test_moving_a_sheet_carries_its_pins_anchors_along():
    scene = load_preset("hanging-sheet")
    moved = c.change_body(scene, 0, top_center=(1.0, 2.0, 0.5))
    assert moved.text == "Move sheet"
    offsets = np.subtract([p.anchor for p in moved.scene.pins], [p.anchor for p in scene.pins])
    assert np.allclose(offsets, (1.0, 1.0, 0.5))


def test_a_new_resolution_drops_the_bodys_cuts_with_a_message_and_keeps_the_others():
    scene = c.duplicate_body(load_preset("hanging-sheet"), 0).scene
    links = body_counts(scene.bodies[:1])[1]
    scene = scene.model_copy(update={"cuts": [3, 4, links + 5]})
    composed = c.change_body(scene, 0, cols=20)
    new_links = body_counts(composed.scene.bodies[:1])[1]
    assert composed.scene.cuts == [new_links + 5]
    assert composed.message == "Sheet 15 × 11: 2 cut links dropped, its resolution changed"


def test_removing_a_body_takes_its_pins_and_shifts_the_later_ones():
    scene = c.duplicate_body(load_preset("hanging-sheet"), 0).scene
    assert [p.particle for p in scene.pins] == [0, 14, 165, 179]
    removed = c.remove_body(scene, 0)
    assert removed.text == "Remove sheet 15 × 11"
    assert [p.particle for p in removed.scene.pins] == [0, 14]
    assert removed.scene.pins[0].anchor == scene.pins[2].anchor


def test_pin_sets_of_a_sheet():
    scene = c.unpin_all(load_preset("hanging-sheet"), 0).scene
    assert scene.pins == []
    top = c.pin_set(scene, 0, "top edge")
    assert top.text == "Pin top edge (15 pins)"
    assert [p.particle for p in top.scene.pins] == list(range(15))
    left = c.pin_set(scene, 0, "left edge").scene
    assert [p.particle for p in left.pins] == list(range(0, 165, 15))
    nth = c.pin_set(scene, 0, "every nth of top edge", every=4)
    assert nth.text == "Pin every 4th of top edge (4 pins)"
    assert [p.particle for p in nth.scene.pins] == [0, 4, 8, 12]
    assert c.pin_set(top.scene, 0, "top corners").text == "Pin top corners (0 pins)"


def test_pin_sets_anchor_the_rest_places_of_the_set_up():
    scene = c.unpin_all(load_preset("two-sheets"), 1).scene
    rest = build_topology(scene).rest_positions
    pinned = c.pin_set(scene, 1, "top corners").scene
    new = [p for p in pinned.pins if p not in scene.pins]
    assert len(new) == 2 and all(p.anchor == tuple(rest[p.particle]) for p in new)
    assert c.pins_away_from_rest(pinned) == 0


def test_every_body_change_undoes_to_the_byte():
    scene = load_preset("hanging-sheet")
    steps = [
        lambda s: c.add_body(s, SheetSpec(cols=30, rows=20, top_center=(3.0, 1.0, 0.0))),
        lambda s: c.change_body(s, 1, cols=12, rows=8),
        lambda s: c.pin_set(s, 1, "top edge"),
        lambda s: c.add_obstacle(s, BoxSpec(center=(3.0, -1.0, 0.0))),
        lambda s: c.change_obstacle(s, 0, size=(2.0, 1.0, 1.0)),
        lambda s: c.add_body(s, BlockSpec(min_corner=(-3.0, 0.0, 0.0))),
        lambda s: c.remove_body(s, 0),
    ]
    texts, edits, current = [], [], scene
    for make in steps:
        composed = make(current)
        edits.append(c.edit_of(current, composed))
        texts.append(composed.text)
        current = apply_to_document(current, edits[-1])
        assert current == composed.scene
    assert texts == [
        "Add sheet 30 × 20", "Set resolution of sheet 12 × 8", "Pin top edge (12 pins)",
        "Add box", "Resize box", "Add block 4 × 4 × 4", "Remove sheet 15 × 11",
    ]  # fmt: skip
    assert parse_scene(scene_json(current)) == current  # saves and loads exactly
    for edit in reversed(edits):
        current = apply_to_document(current, edit.inverse())
    assert scene_json(current) == scene_json(scene)


@pytest.mark.parametrize(
    ("make", "problem"),
    [
        (lambda s: c.change_body(s, 0, cols=1), "cols: Input should be greater than or equal to 2"),
        (lambda s: c.add_obstacle(s, BoxSpec()).scene and c.change_obstacle(
            c.add_obstacle(s, BoxSpec()).scene, 0, size=(0.0, 1.0, 1.0)), "size.0"),
        (lambda s: c.change_obstacle(c.add_obstacle(s, SphereSpec()).scene, 0, radius=-1.0),
         "radius"),
        (lambda s: c.change_body(s, 0, cols=512, rows=512, width=100.0, height=100.0)
         and c.duplicate_body(c.change_body(s, 0, cols=512, rows=512, width=100.0,
                                            height=100.0).scene, 0), "particles, more than"),
        (lambda s: c.change_body(s, 0, cols=300, width=0.01), "finer than"),
        (lambda s: c.remove_body(s, 3), "body 3 is not within"),
    ],
)  # fmt: skip
def test_bad_compositions_are_one_line_errors(make, problem):
    with pytest.raises(SceneError, match=problem) as caught:
        make(load_preset("hanging-sheet"))
    assert "\n" not in str(caught.value)


def test_the_caps_on_bodies_and_obstacles():
    scene = load_preset("hanging-sheet")
    for k in range(MAX_BODIES - 1):
        scene = c.add_body(scene, SheetSpec(cols=2, rows=2, top_center=(k, 0.0, 0.0))).scene
    with pytest.raises(SceneError, match=f"at most {MAX_BODIES} bodies"):
        c.add_body(scene, SheetSpec())
    for _ in range(MAX_OBSTACLES):
        scene = c.add_obstacle(scene, SphereSpec()).scene
    with pytest.raises(SceneError, match=f"at most {MAX_OBSTACLES} obstacles"):
        c.add_obstacle(scene, SphereSpec())


# --- edits, validation and recordings ------------------------------------------------------------


def test_a_body_change_restarts_and_an_obstacle_change_does_not():
    scene = load_preset("drop")
    assert c.edit_of(scene, c.change_body(scene, 0, cols=10)).restart
    assert c.edit_of(scene, c.add_body(scene, SheetSpec())).restart
    assert not c.edit_of(scene, c.add_obstacle(scene, BoxSpec())).restart
    assert not c.edit_of(scene, c.pin_set(scene, 0, "top edge")).restart


def test_a_live_pin_set_out_of_range_is_refused():
    scene = load_preset("hanging-sheet")
    edit = c.edit_of(scene, c.pin_set(scene, 0, "top edge"))
    validate(edit, 165, 584)
    with pytest.raises(ValueError, match="particle 10 is not within 0…9"):
        validate(edit, 10, 584)


def test_a_recorded_obstacle_move_and_pin_set_replay_bit_for_bit():
    scene = c.add_obstacle(load_preset("drop"), BoxSpec(center=(0.0, -1.2, 0.0))).scene
    moved = c.edit_of(scene, c.change_obstacle(scene, 0, center=(0.5, -1.0, 0.0)))
    pinned = c.edit_of(scene, c.pin_set(scene, 0, "top corners"))
    journal = [Stamped(0, Load(scene)), Stamped(30, moved), Stamped(60, pinned)]
    live = replay(journal, 120)
    recording = Recording(scene, tuple(journal[1:]), 120)
    again = parse_recording(recording_json(recording))
    assert again.commands == recording.commands
    assert np.array_equal(replay(again.journal, 120).state.x, live.state.x)
    assert not np.array_equal(replay(journal[:1], 120).state.x, live.state.x)


def test_a_v3_scene_with_every_new_field_round_trips():
    scene = Scene(
        bodies=[
            SheetSpec(name="Curtain", material="silk", stiffness=0.4, cols=20, rows=10,
                      width=3.0, height=1.5, yaw=30.0, lock_spacing=True),
            BlockSpec(name="Cube", material="leather", cubes=3, size=0.9),
        ],
        obstacles=[SphereSpec(name="Moon", center=(1.0, 0.0, 0.0), radius=0.3),
                   BoxSpec(name="Table", size=(1.0, 0.5, 2.0))],
        pins=[PinSpec(particle=0, anchor=(0.0, 1.0, 0.0))],
    )  # fmt: skip
    assert parse_scene(scene_json(scene)) == scene


def test_a_turned_sheet_is_turned_about_the_vertical():
    straight = build_topology(Scene(bodies=[SheetSpec()])).rest_positions
    turned = build_topology(Scene(bodies=[SheetSpec(yaw=90.0)])).rest_positions
    assert np.allclose(turned[:, 0], 0.0) and np.allclose(turned[:, 2], -straight[:, 0])
    assert np.allclose(turned[:, 1], straight[:, 1])


@pytest.mark.parametrize(
    ("preset", "held"),
    [("hanging-sheet", [True]), ("two-sheets", [True, False]), ("curtain", [False]),
     ("hanging-strip", [False]), ("cantilever", [False]), ("cusick-drape", [False])],
)  # fmt: skip
def test_a_sheet_hangs_from_points_where_a_pin_has_no_pinned_neighbour(preset, held):
    """Corners are points; a pinned row (a curtain, a clamp) is not, nor is a disc held over a
    region."""
    scene = load_preset(preset)
    assert [c.held_at_points(scene, k) for k in range(len(scene.bodies))] == held


def test_a_sheet_pinned_along_its_top_edge_hangs_from_no_point_and_every_other_one_does():
    sheet = load_preset("hanging-sheet")
    assert not c.held_at_points(c.pin_set(sheet, 0, "top edge").scene, 0)
    assert c.held_at_points(
        c.pin_set(c.unpin_all(sheet, 0).scene, 0, "every nth of top edge").scene, 0
    )
