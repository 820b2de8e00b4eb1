"""The disc body: its grid, links, faces and round rim; the scene format, the
composition, the run and the mesh export that handle it as they handle sheets and blocks."""

import json
import math
import subprocess
import sys

import numpy as np
import pytest

from clothlab.sim.core.parameters import SETTINGS_TABLE
from clothlab.sim.core.snapshot import take_snapshot
from clothlab.sim.core.topology import TopologyBuilder, disc_parts
from clothlab.sim.document import composition
from clothlab.sim.document.scene import (
    DiscSpec,
    PinSpec,
    Scene,
    SceneError,
    SheetSpec,
    body_counts,
    build_simulation,
    build_topology,
    parse_scene,
    scene_json,
    with_settings,
)
from clothlab.sim.lab import mesh_export


def disc_topology(diameter=0.3, cols=31, center=(0.0, 1.0, 0.0), yaw=0.0):
    builder = TopologyBuilder()
    grid = builder.add_disc(diameter, cols, center, yaw)
    return builder.build(), grid


def cell_areas(points, faces):
    """Signed areas of quads (F, 4) of 2-D points (N, 2), by the shoelace formula."""
    p = points[faces]
    x, z = p[..., 0], p[..., 1]
    return 0.5 * np.sum(x * np.roll(z, -1, axis=1) - np.roll(x, -1, axis=1) * z, axis=1)


def boundary_sides(faces_links):
    """Side links (of the faces' first four) used by exactly one face: the outline."""
    sides, counts = np.unique(faces_links[:, :4], return_counts=True)
    return sides[counts == 1]


# --- topology ----------------------------------------------------------------------------------


def test_a_disc_of_5_across_keeps_21_points_12_cells_and_their_links():
    topology, grid = disc_topology(cols=5)
    # rows of kept points: 3, 5, 5, 5, 3 (the corners of the 5 × 5 grid lie outside r ≤ 2.5)
    assert topology.particle_count == grid.particle_count == 21
    assert topology.face_count == 12
    # sides: across 2+4+4+4+2 = 16, down the same, and two diagonals per cell
    assert topology.link_count == 16 + 16 + 2 * 12 == 56
    assert [tuple(ij) for ij in grid.cell_ij[:3]] == [(0, 1), (0, 2), (0, 3)]


def test_links_come_in_a_sheets_families_and_face_links_name_each_faces_sides():
    topology, grid = disc_topology(cols=31)
    ij = grid.cell_ij[topology.links]  # (M, 2 ends, 2)
    step = ij[:, 1] - ij[:, 0]
    families = [tuple(s) for s in step]
    kinds = [{(0, 1): 0, (1, 0): 1, (1, 1): 2, (1, -1): 3}[f] for f in families]
    assert kinds == sorted(kinds)  # across, then down, then falling, then rising diagonals
    for kind in range(4):  # each family row-major by its first end
        first = ij[np.array(kinds) == kind, 0]
        keys = first[:, 0] * 1000 + first[:, 1]
        assert np.all(np.diff(keys) > 0)
    faces = topology.faces
    corner_pairs = [(0, 1), (3, 2), (0, 3), (1, 2), (0, 2), (1, 3)]
    for k, (a, b) in enumerate(corner_pairs):
        link = topology.links[topology.face_links[:, k]]
        assert np.all(np.sort(link, axis=1) == np.sort(faces[:, [a, b]], axis=1))
    assert len(np.unique(np.sort(topology.links, axis=1), axis=0)) == topology.link_count


@pytest.mark.parametrize("cols", range(3, 202))
def test_no_cell_is_inverted_or_near_zero_area(cols):
    parts = disc_parts(cols)
    areas = cell_areas(parts.plane, parts.faces)  # in grid units: a square cell is 1
    assert areas.min() > 0.2, (cols, areas.min())


@pytest.mark.parametrize("cols", [3, 4, 5, 8, 31, 61, 200, 512])
def test_every_outline_point_lies_on_the_circle_and_no_point_outside_it(cols):
    topology, _ = disc_topology(diameter=0.3, cols=cols)
    r = np.hypot(*(topology.rest_positions[:, [0, 2]] - (0.0, 0.0)).T)
    rim = np.unique(topology.links[boundary_sides(topology.face_links)])
    assert np.allclose(r[rim], 0.15, rtol=0, atol=1e-12)
    assert r.max() <= 0.15 + 1e-12
    assert np.all(topology.rest_positions[:, 1] == 1.0)
    # every particle is in a cell
    assert np.array_equal(np.unique(topology.faces), np.arange(topology.particle_count))


def test_the_disc_mesh_is_a_round_polygon_of_nearly_pi_r_squared():
    for cols, within in ((31, 0.005), (61, 0.0015), (201, 0.0002)):
        topology, _ = disc_topology(diameter=0.3, cols=cols)
        area = cell_areas(topology.rest_positions[:, [0, 2]], topology.faces).sum()
        assert abs(area) == pytest.approx(math.pi * 0.15**2, rel=within)


def test_a_turned_disc_keeps_its_shape_and_centre():
    straight, _ = disc_topology(cols=21, center=(1.0, 2.0, -3.0))
    turned, grid = disc_topology(cols=21, center=(1.0, 2.0, -3.0), yaw=30.0)
    assert np.allclose(straight.rest_lengths, turned.rest_lengths)
    c, s = math.cos(math.radians(30.0)), math.sin(math.radians(30.0))
    x, z = grid.local_xz.T
    assert np.allclose(turned.rest_positions[:, 0] - 1.0, c * x + s * z)
    assert np.allclose(turned.rest_positions[:, 2] + 3.0, -s * x + c * z)
    assert grid.center == (1.0, 2.0, -3.0) and grid.radius == pytest.approx(0.15)


def test_discs_sit_after_other_bodies_in_the_scene_arrays():
    scene = Scene(bodies=[SheetSpec(cols=4, rows=3), DiscSpec(cols=9), DiscSpec(cols=5)])
    topology = build_topology(scene)
    first, second = topology.discs
    assert first.first_particle == 12 and second.first_particle == 12 + first.particle_count
    assert body_counts(scene.bodies) == (topology.particle_count, topology.link_count)
    assert topology.body_of(first.first_particle) == 1
    assert first.first_link == topology.bodies[1].first_link


# --- the scene format --------------------------------------------------------------------------


def test_a_disc_round_trips_through_a_scene_file():
    scene = Scene(bodies=[DiscSpec(name="Specimen", diameter=0.5, cols=41, center=(1, 2, 3),
                                   yaw=15.0, material="cotton")])  # fmt: skip
    again = parse_scene(scene_json(scene))
    assert again == scene
    assert json.loads(scene_json(scene))["bodies"][0]["kind"] == "disc"


@pytest.mark.parametrize(
    ("disc", "problem"),
    [
        ({"cols": 2}, "bodies.0.cols: Input should be greater than or equal to 3"),
        ({"cols": 513}, "bodies.0.cols: Input should be less than or equal to 512"),
        ({"diameter": 0.0}, "bodies.0.diameter: Input should be greater than or equal to 0.0001"),
        ({"diameter": 0.01, "cols": 512}, "is finer than 0.0001 units between particles"),
        ({"radius": 1.0}, "bodies.0.radius: Extra inputs are not permitted"),
    ],
)
def test_bad_discs_are_one_line_errors(disc, problem):
    text = json.dumps({"format": "clothlab-scene", "schema_version": 3,
                       "bodies": [{"kind": "disc", **disc}]})  # fmt: skip
    with pytest.raises(SceneError) as caught:
        parse_scene(text, "d.json")
    message = str(caught.value)
    assert "\n" not in message and problem in message and message.startswith("d.json: ")


# --- composition -------------------------------------------------------------------------------


def test_add_duplicate_move_and_resize_a_disc():
    scene = Scene(bodies=[SheetSpec()])
    added = composition.add_body(scene, DiscSpec(cols=11, center=(0.0, 1.0, 0.0)))
    assert added.text == "Add disc 11 across"
    count = body_counts(added.scene.bodies)[0] - 165
    pinned = added.scene.model_copy(
        update={"pins": [PinSpec(particle=165 + 5, anchor=(0, 1, -0.15))]}
    )
    copy = composition.duplicate_body(pinned, 1)
    assert copy.text == "Duplicate disc 11 across"
    assert copy.scene.bodies[2].center == pytest.approx((0.7, 1.0, 0.0))
    assert copy.scene.pins[-1] == PinSpec(particle=165 + count + 5, anchor=(0.7, 1.0, -0.15))
    moved = composition.change_body(pinned, 1, center=(0.0, 2.0, 0.0))
    assert moved.text == "Move disc"
    assert moved.scene.pins[0].anchor == pytest.approx((0.0, 2.0, -0.15))
    resized = composition.change_body(pinned, 1, diameter=0.6)
    assert resized.text == "Resize disc"
    assert composition.change_body(pinned, 1, yaw=90.0).text == "Turn disc"
    assert composition.change_body(pinned, 1, name="x").text == "Rename disc to 'x'"


def test_a_new_resolution_carries_a_discs_pins_by_place_and_drops_its_cuts():
    scene = Scene(bodies=[DiscSpec(cols=11)])
    topology = build_topology(scene)
    centre = int(np.argmin(np.linalg.norm(topology.rest_positions - (0, 1, 0), axis=1)))
    far = int(np.argmin(topology.rest_positions[:, 2]))  # the −z edge
    pins = [PinSpec(particle=k, anchor=tuple(topology.rest_positions[k])) for k in (centre, far)]
    scene = scene.model_copy(update={"pins": sorted(pins, key=lambda p: p.particle), "cuts": [3]})
    finer = composition.change_body(scene, 0, cols=41)
    assert finer.text == "Set resolution of disc 41 across"
    assert finer.scene.cuts == [] and "1 cut link dropped" in finer.message
    rest = build_topology(finer.scene).rest_positions
    anchors = sorted(tuple(np.round(p.anchor, 9)) for p in finer.scene.pins)
    assert anchors == sorted([(0.0, 1.0, 0.0), (0.0, 1.0, -0.15)])
    for pin in finer.scene.pins:
        assert np.allclose(rest[pin.particle], pin.anchor)


def test_a_disc_too_fine_for_the_scene_is_refused_in_one_line():
    scene = Scene(bodies=[DiscSpec(cols=31)])
    with pytest.raises(SceneError, match=r"finer than 0\.0001 units"):
        composition.change_body(scene, 0, diameter=0.02, cols=512)


# --- running and exporting ---------------------------------------------------------------------


def test_a_disc_falls_and_lands_flat_on_the_floor():
    scene = Scene(bodies=[DiscSpec(cols=15, center=(0.0, 0.5, 0.0))])
    sim = build_simulation(scene)
    sim.step(240)
    assert np.all(sim.state.x[:, 1] < 0.5 - 1.0)  # it fell (the floor is at −1.6)
    assert np.ptp(sim.state.x[:, 1]) < 0.05  # flat on the floor


def test_clothlab_run_takes_a_scene_with_a_disc(tmp_path):
    path = tmp_path / "disc.json"
    path.write_text(scene_json(Scene(bodies=[DiscSpec(cols=9)])))
    out = tmp_path / "out.csv"
    done = subprocess.run(
        [sys.executable, "-m", "clothlab.app.main", "run", str(path), "--steps", "10",
         "--csv", str(out)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert len(out.read_text().splitlines()) >= 2


def test_mesh_export_names_the_disc_and_maps_its_rest_place_to_uv(tmp_path):
    scene = Scene(bodies=[SheetSpec(cols=3, rows=2), DiscSpec(cols=9, yaw=40.0)])
    topology = build_topology(scene)
    assert mesh_export.body_names(topology) == ["sheet_1", "disc_1"]
    uv = mesh_export.texture_coordinates(topology)[6:]
    local = topology.discs[0].local_xz
    assert np.allclose(uv[:, 0], local[:, 0] / 0.3 + 0.5)
    assert np.allclose(uv[:, 1], 0.5 - local[:, 1] / 0.3)
    assert uv.min() >= 0.0 and uv.max() <= 1.0
    assert np.hypot(uv[:, 0] - 0.5, uv[:, 1] - 0.5).max() == pytest.approx(0.5)


def test_pin_disc_middle_pins_within_the_radius_at_rest_and_keeps_existing_anchors():
    scene = Scene(bodies=[SheetSpec(cols=3, rows=2), DiscSpec(cols=21, center=(2.0, 1.0, 0.0))])
    first = 6
    moved = PinSpec(particle=first + 174, anchor=(9.0, 9.0, 9.0))  # the centre, moved on purpose
    scene = scene.model_copy(update={"pins": [moved]})
    held = composition.pin_disc_middle(scene, 1, 0.05)
    rest = build_topology(scene).rest_positions
    r = np.hypot(rest[first:, 0] - 2.0, rest[first:, 2])
    inside = set((np.flatnonzero(r <= 0.05) + first).tolist())
    assert {p.particle for p in held.scene.pins} == inside | {moved.particle}
    assert held.text == f"Pin middle of disc ({len(inside - {moved.particle})} pins)"
    for pin in held.scene.pins:
        expected = moved.anchor if pin.particle == moved.particle else tuple(rest[pin.particle])
        assert pin.anchor == pytest.approx(expected)
    with pytest.raises(SceneError, match=r"^Sheet 3 × 2: only a disc has a middle to pin$"):
        composition.pin_disc_middle(scene, 0, 0.05)


def test_an_unknown_body_kind_is_one_line_naming_the_kinds():
    text = json.dumps({"format": "clothlab-scene", "schema_version": 3,
                       "bodies": [{"kind": "disk"}]})  # fmt: skip
    with pytest.raises(SceneError) as caught:
        parse_scene(text, "d.json")
    message = str(caught.value)
    assert "\n" not in message and "'disc'" in message and message.startswith("d.json: bodies.0")


def test_a_disc_exports_as_an_obj_object_of_its_own():
    sim = build_simulation(Scene(bodies=[SheetSpec(cols=3, rows=2), DiscSpec(cols=9)]))
    text = mesh_export.obj_text(take_snapshot(sim, 0))
    lines = text.splitlines()
    assert [line for line in lines if line.startswith("o ")] == ["o sheet_1", "o disc_1"]
    assert sum(line.startswith("vt ") for line in lines) == sim.topology.particle_count
    faces = sum(line.startswith("f ") for line in lines)
    assert faces == 2 * sim.topology.face_count


def test_every_option_on_runs_a_disc_without_blowing_up():
    scene = Scene(bodies=[DiscSpec(cols=15, diameter=1.0)])
    scene = composition.pin_disc_middle(scene, 0, 0.2).scene
    options = {k: True for k, p in SETTINGS_TABLE.items() if p.kind is bool and not p.classic}
    sim = build_simulation(with_settings(scene, options))
    assert sim.step(60) == 60
    assert np.all(np.isfinite(sim.state.x))
