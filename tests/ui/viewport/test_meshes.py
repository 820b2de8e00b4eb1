"""Mesh preparation: normals, index buffers, colours and fixed shapes, without OpenGL."""

from __future__ import annotations

import math

import numpy as np
import pytest

from clothlab.sim.core.snapshot import take_snapshot
from clothlab.sim.core.state import faces_alive
from clothlab.sim.core.topology import TopologyBuilder
from clothlab.sim.document.commands import apply_to_simulation
from clothlab.sim.document.edits import CutLinks
from clothlab.sim.document.scene import BlockSpec, Scene, SheetSpec, build_simulation
from clothlab.ui.viewport import meshes
from clothlab.ui.viewport.camera import OrbitCamera


def sheet(cols: int = 5, rows: int = 4, horizontal: bool = False):
    builder = TopologyBuilder()
    builder.add_sheet(cols, rows, 0.2, (0.0, 1.0, 0.0), horizontal)
    return builder.build()


def normals_of(x: np.ndarray, faces: np.ndarray, alive: np.ndarray) -> np.ndarray:
    out = np.full((len(x), 3), 7.0)  # garbage: the kernel must overwrite everything
    meshes.compute_vertex_normals(x, faces, alive, out)
    return out


def triangle_normals(x: np.ndarray, indices: np.ndarray) -> np.ndarray:
    triangles = x[indices.reshape(-1, 3)]
    return np.cross(triangles[:, 1] - triangles[:, 0], triangles[:, 2] - triangles[:, 0])


# --- normals -----------------------------------------------------------------------------


def test_flat_hanging_sheet_has_unit_normals_along_z() -> None:
    topology = sheet()
    normals = normals_of(topology.rest_positions, topology.faces, np.ones(12, bool))
    np.testing.assert_allclose(np.abs(normals), np.tile([0.0, 0.0, 1.0], (20, 1)), atol=1e-12)
    # one consistent side: the quads wind clockwise seen from +z
    np.testing.assert_allclose(normals[:, 2], -1.0)


def test_flat_horizontal_sheet_has_unit_normals_along_y() -> None:
    topology = sheet(horizontal=True)
    normals = normals_of(topology.rest_positions, topology.faces, np.ones(12, bool))
    np.testing.assert_allclose(np.linalg.norm(normals, axis=1), 1.0)
    np.testing.assert_allclose(np.abs(normals[:, 1]), 1.0)


def test_normals_are_area_weighted() -> None:
    x = np.array(
        [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 2], [0, 1, 2]], dtype=np.float64
    )
    faces = np.array([[0, 1, 2, 3], [3, 0, 4, 5]], dtype=np.int32)
    # face 0: unit square in the x–y plane, normal +z; face 1: 1 × 2 in the y–z plane, −x
    normals = normals_of(x, faces, np.array([True, True]))
    np.testing.assert_allclose(normals[0], np.array([-2.0, 0.0, 1.0]) / math.sqrt(5.0))
    np.testing.assert_allclose(normals[1], [0.0, 0.0, 1.0])
    np.testing.assert_allclose(normals[4], [-1.0, 0.0, 0.0])


def test_dead_faces_do_not_contribute_to_normals() -> None:
    x = np.array(
        [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 2], [0, 1, 2]], dtype=np.float64
    )
    faces = np.array([[0, 1, 2, 3], [3, 0, 4, 5]], dtype=np.int32)
    normals = normals_of(x, faces, np.array([True, False]))
    np.testing.assert_allclose(normals[0], [0.0, 0.0, 1.0])
    np.testing.assert_allclose(normals[4], [0.0, 0.0, 0.0])  # touches no live face


def test_crumpled_sheet_normals_are_unit_length() -> None:
    topology = sheet(9, 7)
    rng = np.random.default_rng(5)
    x = topology.rest_positions + rng.normal(scale=0.05, size=topology.rest_positions.shape)
    normals = normals_of(x, topology.faces, np.ones(topology.face_count, bool))
    np.testing.assert_allclose(np.linalg.norm(normals, axis=1), 1.0)


# --- triangles ---------------------------------------------------------------------------


def test_index_count_is_six_per_live_face() -> None:
    topology = sheet(6, 5)
    alive = np.ones(topology.face_count, bool)
    alive[[0, 3, 7]] = False
    indices = np.zeros(6 * topology.face_count, np.uint32)
    count = meshes.fill_triangle_indices(topology.faces, alive, indices)
    assert count == 6 * (topology.face_count - 3) == 6 * int(alive.sum())


def test_face_with_a_dead_link_produces_no_triangles() -> None:
    topology = sheet(5, 4)
    link_alive = np.ones(topology.link_count, bool)
    victim = 5  # row 1, col 1
    link_alive[topology.face_links[victim, 4]] = False  # its falling diagonal only
    alive = faces_alive(link_alive, topology.face_links)
    assert not alive[victim] and alive.sum() == topology.face_count - 1
    indices = np.zeros(6 * topology.face_count, np.uint32)
    count = meshes.fill_triangle_indices(topology.faces, alive, indices)
    assert count == 6 * (topology.face_count - 1)
    triangles = {frozenset(t) for t in indices[:count].reshape(-1, 3).tolist()}
    quad = topology.faces[victim].tolist()
    assert frozenset([quad[0], quad[1], quad[2]]) not in triangles
    assert frozenset([quad[0], quad[2], quad[3]]) not in triangles


def test_triangles_keep_the_quad_winding() -> None:
    topology = sheet(4, 3)
    indices = np.zeros(6 * topology.face_count, np.uint32)
    count = meshes.fill_triangle_indices(
        topology.faces, np.ones(topology.face_count, bool), indices
    )
    normals = triangle_normals(topology.rest_positions, indices[:count])
    assert (normals[:, 2] < 0).all()  # the same side as the vertex normals
    assert set(indices[:count].tolist()) == set(range(topology.particle_count))


# --- merged cells (level of detail) -----------------------------------------------------


def sheet_triangles(topology, alive: np.ndarray, merge: int) -> np.ndarray:
    grid = topology.sheets[0]
    indices = np.zeros(6 * topology.face_count, np.uint32)
    count = meshes.fill_sheet_indices(
        alive, 0, grid.first_particle, grid.cols, grid.rows, merge, indices, 0
    )
    return indices[:count]


def triangle_areas(x: np.ndarray, indices: np.ndarray) -> np.ndarray:
    return 0.5 * np.linalg.norm(triangle_normals(x, indices), axis=1)


@pytest.mark.parametrize("merge", [1, 2, 4, 8])
def test_merged_cells_cover_the_sheet_once_with_the_faces_winding(merge: int) -> None:
    topology = sheet(11, 8)  # 10 × 7 cells: merged cells are cut short at the far edges
    x = topology.rest_positions
    triangles = sheet_triangles(topology, np.ones(topology.face_count, bool), merge)
    assert len(triangles) == 6 * math.ceil(10 / merge) * math.ceil(7 / merge)
    assert (triangle_normals(x, triangles)[:, 2] < 0).all()  # the faces' own winding
    assert triangle_areas(x, triangles).sum() == pytest.approx(10 * 7 * 0.2 * 0.2)
    assert set(triangles.tolist()) <= set(range(topology.particle_count))


def test_cells_one_by_one_are_the_plain_face_list() -> None:
    topology = sheet(9, 7)
    alive = np.random.default_rng(3).random(topology.face_count) > 0.3
    plain = np.zeros(6 * topology.face_count, np.uint32)
    count = meshes.fill_triangle_indices(topology.faces, alive, plain)
    np.testing.assert_array_equal(sheet_triangles(topology, alive, 1), plain[:count])


def test_a_merged_cell_with_a_cut_is_drawn_face_by_face() -> None:
    topology = sheet(9, 9)  # 8 × 8 cells, merged 4 × 4: four merged cells
    alive = np.ones(topology.face_count, bool)
    alive[3 * 8 + 2] = False  # row 3, column 2: in the first merged cell
    x = topology.rest_positions
    triangles = sheet_triangles(topology, alive, 4)
    assert len(triangles) == 6 * 3 + 6 * 15  # three whole merged cells, 15 live faces
    areas = triangle_areas(x, triangles)
    assert areas.sum() == pytest.approx(63 * 0.2 * 0.2)  # the cut face stays open
    np.testing.assert_allclose(np.sort(areas)[:30], 0.5 * 0.2 * 0.2)


@pytest.mark.parametrize(
    ("cell_px", "merge"), [(5.0, 1), (3.0, 1), (2.0, 2), (1.9, 2), (0.9, 4), (0.1, 8)]
)
def test_cells_merge_while_the_merged_cell_stays_within_the_budget(
    cell_px: float, merge: int
) -> None:
    assert meshes.merge_count(cell_px, 4.0) == merge
    assert meshes.merge_count(math.inf, 4.0) == 1


def projected_px(x: np.ndarray, view_projection: np.ndarray, size: tuple[int, int]):
    clip = np.c_[x, np.ones(len(x))] @ view_projection.T
    return clip[:, :2] / clip[:, 3:] * 0.5 * np.asarray(size)


@pytest.mark.parametrize(("yaw", "pitch"), [(0.0, 10.0), (50.0, 35.0), (-80.0, 60.0)])
def test_a_cell_is_never_bigger_on_screen_than_its_estimate(yaw: float, pitch: float) -> None:
    topology = sheet(21, 16)
    x = topology.rest_positions
    size = (600, 700)
    for distance in (5.0, 10.0, 30.0):
        view_projection = OrbitCamera((0.0, 0.6, 0.0), distance, yaw, pitch).view_projection(
            size[0] / size[1]
        )
        screen = projected_px(x, view_projection, size)
        ends = screen[topology.links]
        longest = float(np.linalg.norm(ends[:, 0] - ends[:, 1], axis=-1).max())
        grid = topology.sheets[0]
        (estimate,) = meshes.sheet_cell_pixels([(grid, 0)], x, view_projection, size)
        # a diagonal is √2 cells long; the estimate allows for stretch and perspective
        assert longest / math.sqrt(2) <= estimate <= 3.0 * longest


def test_a_far_sheet_merges_its_cells_and_a_near_one_does_not() -> None:
    sim = small_simulation()  # a 6 × 5 sheet and a block
    mesh = meshes.BodyMesh(sim.topology)
    snapshot = take_snapshot(sim, 0)
    mesh.update(snapshot, "", False)
    size = (80, 60)
    block_faces = sim.topology.face_count - 5 * 4
    for distance, sheet_triangle_count in ((500.0, 2), (2.0, 2 * 5 * 4)):
        view_projection = OrbitCamera((0.0, 0.5, 0.0), distance).view_projection(80 / 60)
        mesh.follow_view(snapshot.x, view_projection, size)
        revision = mesh.index_revision
        mesh.follow_view(snapshot.x, view_projection, size)
        assert mesh.index_revision == revision  # the same view: nothing refilled
        first, count = mesh.surface_range
        assert count == 3 * (sheet_triangle_count + 2 * block_faces)  # blocks never merge
        corners = set(mesh.indices[first : first + 3 * sheet_triangle_count].tolist())
        assert corners == ({0, 5, 24, 29} if distance > 10 else set(range(30)))


# --- strain colours ---------------------------------------------------------------------


def test_strain_colours_run_from_blue_to_red() -> None:
    strains = np.array([-0.2, 0.0, 0.05, 0.10, 0.5])  # the stretch at each of five particles
    vertices = np.zeros((5, meshes.DYNAMIC_FLOATS), np.float32)
    meshes.fill_dynamic_vertices(np.zeros((5, 3)), np.zeros((5, 3)), strains, True, vertices)
    relaxed, zero, half, full, beyond = vertices[:, 6:9]
    np.testing.assert_array_equal(relaxed, zero)  # compression reads as relaxed
    assert zero[2] > zero[0] + 0.4  # blue
    assert full[0] > 0.9 and full[1] < 0.25 and full[2] < 0.2  # red
    np.testing.assert_array_equal(beyond, full)
    assert zero[0] < half[0] <= full[0]


def test_vertex_max_strain_takes_the_worst_live_link() -> None:
    links = np.array([[0, 1], [1, 2], [2, 3]], np.int32)
    strains = np.array([0.01, 0.08, -0.03])
    out = np.full(4, 9.0)
    meshes.vertex_max_strain(links, np.array([True, True, True]), strains, out)
    np.testing.assert_allclose(out, [0.01, 0.08, 0.08, 0.0])
    meshes.vertex_max_strain(links, np.array([True, False, True]), strains, out)
    np.testing.assert_allclose(out, [0.01, 0.01, 0.0, 0.0])


# --- per-topology buffers -----------------------------------------------------------------


def small_simulation():
    scene = Scene(
        bodies=[SheetSpec(cols=6, rows=5), BlockSpec(cubes=2, min_corner=(2.0, 0.0, 0.0))],
        pins=[{"particle": 0, "anchor": (-0.5, 1.0, 0.0)}, {"particle": 5, "anchor": (0.5, 1, 0)}],
    )
    return build_simulation(scene)


def test_body_mesh_update_fills_buffers_in_place() -> None:
    sim = small_simulation()
    mesh = meshes.BodyMesh(sim.topology)
    buffers = (mesh.dynamic, mesh.indices, mesh.lines, mesh.normals, mesh.strains)
    for frame in range(3):
        sim.step(5)
        snapshot = take_snapshot(sim, frame)
        mesh.update(snapshot, colors=meshes.STRETCH if frame == 1 else "", wireframe=frame > 0)
        assert all(
            a is b
            for a, b in zip(
                buffers,
                (mesh.dynamic, mesh.indices, mesh.lines, mesh.normals, mesh.strains),
                strict=True,
            )
        )
        np.testing.assert_allclose(mesh.dynamic[:, :3], snapshot.x, rtol=1e-6, atol=1e-6)
        assert mesh.surface_range == mesh.shadow_range == (0, 6 * sim.topology.face_count)
    assert mesh.index_revision == 1  # filled once: no cut happened since the first update


def test_body_mesh_cut_rebuilds_indices() -> None:
    sim = small_simulation()
    mesh = meshes.BodyMesh(sim.topology)
    mesh.update(take_snapshot(sim, 0), "", False)
    apply_to_simulation(sim, CutLinks(tuple(sim.topology.face_links[7].tolist())))
    snapshot = take_snapshot(sim, 1)
    mesh.update(snapshot, "", False)
    assert mesh.index_revision == 2
    assert mesh.surface_range == (0, 6 * int(snapshot.face_alive.sum()))
    assert mesh.surface_range[1] < 6 * sim.topology.face_count


def test_wireframe_lines_and_wires() -> None:
    sim = small_simulation()
    mesh = meshes.BodyMesh(sim.topology)
    snapshot = take_snapshot(sim, 0)
    mesh.update(snapshot, colors="", wireframe=True)
    assert mesh.link_range == (0, 2 * sim.topology.link_count)
    first, count = mesh.wire_range
    assert count == 2 * len(snapshot.pin_anchor)
    wires = mesh.lines[first : first + count, :3].reshape(-1, 2, 3)
    np.testing.assert_allclose(wires[:, 0], snapshot.pin_anchor)
    np.testing.assert_allclose(wires[:, 1] - wires[:, 0], [[0, meshes.WIRE_HEIGHT, 0]] * 2)
    mesh.update(snapshot, colors="", wireframe=False)
    assert mesh.link_range == (0, 0)


def test_stretch_colours_tint_vertices() -> None:
    sim = small_simulation()
    mesh = meshes.BodyMesh(sim.topology)
    sim.state.x[7, 1] -= 0.2  # stretch the links at particle 7 by far more than 10 %
    mesh.update(take_snapshot(sim, 0), colors=meshes.STRETCH, wireframe=False)
    red = mesh.dynamic[7, 6:9]
    assert red[0] > 0.9 and red[2] < 0.2
    calm = mesh.dynamic[29, 6:9]  # far corner of the sheet, untouched
    assert calm[2] > calm[0]


def test_static_attributes_tell_sheet_from_block() -> None:
    sim = small_simulation()
    attributes = meshes.static_attributes(sim.topology)
    block_start = sim.topology.blocks[0].first_particle
    np.testing.assert_allclose(attributes[:block_start, 3:6], [meshes.CLOTH_COLOR] * block_start)
    np.testing.assert_allclose(attributes[block_start:, 0:3], [meshes.BLOCK_COLOR] * 27)
    assert (attributes[block_start:, 6:10] == -1.0).all()  # no weave, no hem
    grid = sim.topology.sheets[0]
    border = np.minimum(attributes[: grid.particle_count, 8], attributes[: grid.particle_count, 9])
    on_edge = border.reshape(grid.rows, grid.cols) == 0.0
    expected = np.zeros((grid.rows, grid.cols), bool)
    expected[[0, -1], :] = True
    expected[:, [0, -1]] = True
    np.testing.assert_array_equal(on_edge, expected)


# --- fixed shapes ------------------------------------------------------------------------


def test_uv_sphere_is_a_closed_outward_unit_sphere() -> None:
    positions, indices = meshes.uv_sphere(24, 16)
    np.testing.assert_allclose(np.linalg.norm(positions, axis=1), 1.0)
    assert len(indices) % 3 == 0 and indices.dtype == np.uint32
    normals = triangle_normals(positions, indices)
    centres = positions[indices.reshape(-1, 3)].mean(axis=1)
    assert (np.einsum("ij,ij->i", normals, centres) > 0).all()
    # the triangles' projected areas cover the sphere's surface (≈ 4π for a fine mesh)
    assert 0.5 * np.linalg.norm(normals, axis=1).sum() == pytest.approx(4 * math.pi, rel=0.03)


def test_cube_faces_point_outwards() -> None:
    positions, normals, indices = meshes.cube(0.5)
    assert len(indices) == 36
    np.testing.assert_allclose(np.abs(positions), 0.5)
    winding = triangle_normals(positions, indices)
    corner_normals = normals[indices.reshape(-1, 3)[:, 0]]
    assert (np.einsum("ij,ij->i", winding, corner_normals) > 0).all()


def test_floor_quad_faces_up() -> None:
    positions, indices = meshes.floor_quad(10.0)
    assert (positions[:, 1] == 0).all()
    assert (triangle_normals(positions.astype(np.float64), indices)[:, 1] > 0).all()


def test_pack_surface_layout() -> None:
    positions, normals, _ = meshes.cube()
    vertices = meshes.pack_surface(positions, normals, (0.1, 0.2, 0.3))
    assert vertices.shape == (24, meshes.SURFACE_FLOATS) and vertices.dtype == np.float32
    np.testing.assert_allclose(vertices[:, 0:3], positions)
    np.testing.assert_allclose(vertices[:, 3:6], normals)
    np.testing.assert_allclose(vertices[:, 9:12], [[0.1, 0.2, 0.3]] * 24, rtol=1e-6)


# --- selection outlines ------------------------------------------------------------------


def test_outline_links_trace_a_sheet_border_and_a_block_s_edges() -> None:
    topology = build_simulation(
        Scene(bodies=[SheetSpec(cols=5, rows=4), BlockSpec(cubes=3)])
    ).topology
    border = meshes.outline_links(topology, 0)
    assert len(border) == 2 * 4 + 2 * 3  # the sheet's 14 border links
    grid = topology.sheets[0]
    on_border = {
        grid.particle(r, c) for r in range(4) for c in range(5) if r in (0, 3) or c in (0, 4)
    }
    assert set(topology.links[border].ravel()) == on_border
    edges = meshes.outline_links(topology, 1)
    assert len(edges) == 12 * 3
    span = topology.bodies[1]
    assert np.all((edges >= span.first_link) & (edges < span.first_link + span.link_count))


def test_box_and_sphere_outlines_and_their_quads() -> None:
    ends = meshes.box_outline((1.0, 2.0, 3.0), (2.0, 4.0, 6.0)).reshape(-1, 2, 3)
    assert len(ends) == 12
    lengths = sorted(np.linalg.norm(ends[:, 1] - ends[:, 0], axis=1).round(9))
    assert lengths == [2.0] * 4 + [4.0] * 4 + [6.0] * 4
    circles = meshes.sphere_outline((0.0, 1.0, 0.0), 0.5, segments=16)
    np.testing.assert_allclose(np.linalg.norm(circles - [0.0, 1.0, 0.0], axis=1), 0.5)
    quads = meshes.outline_quads(ends.reshape(-1, 3))
    assert quads.shape == (12 * 6, meshes.OUTLINE_FLOATS) and quads.dtype == np.float32


def test_pin_cubes_put_one_cube_of_the_marker_size_at_each_anchor_in_one_mesh():
    from clothlab.ui.viewport.items import pin_cubes

    anchors = np.array([[0.0, 0.0, 0.0], [1.0, 2.0, 3.0], [-4.0, 0.5, 0.0]])
    positions, normals, indices = pin_cubes(meshes.cube(0.5), anchors, 0.1)
    assert positions.shape == (72, 3) and normals.shape == (72, 3) and indices.shape == (108,)
    for k, anchor in enumerate(anchors):
        corners = positions[24 * k : 24 * (k + 1)]
        assert np.allclose(corners.min(axis=0), anchor - 0.05)
        assert np.allclose(corners.max(axis=0), anchor + 0.05)
        own = indices[36 * k : 36 * (k + 1)]
        assert own.min() == 24 * k and own.max() == 24 * k + 23  # each cube its own vertices
    assert indices.dtype == np.uint32
