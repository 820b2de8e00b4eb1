"""Mesh export (sim.lab.mesh_export): OBJ and PLY files read back with the small parsers below."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from clothlab.sim.core.snapshot import take_snapshot
from clothlab.sim.core.topology import Topology, TopologyBuilder
from clothlab.sim.document.edits import seam_links
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.scene import build_simulation
from clothlab.sim.lab.mesh_export import (
    body_names,
    obj_text,
    ply_bytes,
    texture_coordinates,
    vertex_normals,
    write_mesh,
    write_sequence,
)


@dataclass(frozen=True)
class Frame:
    """Bare arrays as a frame to export: the functions take anything with these three (the app
    gives them snapshots)."""

    x: np.ndarray
    topology: Topology
    face_alive: np.ndarray


def mesh_frame(x: np.ndarray, topology: Topology) -> Frame:
    """A frame with every face live."""
    return Frame(np.asarray(x, dtype=np.float64), topology, np.ones(topology.face_count, bool))


def parse_obj(text: str) -> dict[str, list]:
    """v, vn, vt rows as floats; f rows as lists of (v, vt, vn) 1-based triples; o names."""
    parsed: dict[str, list] = {"v": [], "vn": [], "vt": [], "f": [], "o": [], "f_object": []}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        kind, *fields = line.split()
        if kind in ("v", "vn", "vt"):
            parsed[kind].append([float(value) for value in fields])
        elif kind == "o":
            parsed["o"].append(fields[0])
        elif kind == "f":
            parsed["f"].append([tuple(int(i) for i in corner.split("/")) for corner in fields])
            parsed["f_object"].append(len(parsed["o"]) - 1)
        else:
            raise AssertionError(f"unexpected OBJ line {line!r}")
    return parsed


def parse_ply(data: bytes) -> tuple[list[str], np.ndarray, np.ndarray]:
    """(header lines, (N, 6) float32 vertices, (F, 3) int32 triangles); asserts sizes."""
    end = data.index(b"end_header\n") + len(b"end_header\n")
    header = data[:end].decode("ascii").splitlines()
    counts = {line.split()[1]: int(line.split()[2]) for line in header if line.startswith("el")}
    n, f = counts["vertex"], counts["face"]
    body = data[end:]
    assert len(body) == n * 6 * 4 + f * (1 + 3 * 4)  # the binary body is exactly that long
    vertices = np.frombuffer(body[: n * 24], dtype="<f4").reshape(n, 6)
    faces = np.frombuffer(body[n * 24 :], dtype=[("count", "u1"), ("index", "<i4", (3,))])
    assert (faces["count"] == 3).all()
    return header, vertices, faces["index"]


@pytest.fixture
def sheet_and_block():
    builder = TopologyBuilder()
    builder.add_sheet(5, 4, 0.25, (0.0, 1.0, 0.0))
    builder.add_block(2, 0.3, (2.0, 0.0, 0.0))
    return builder.build()


def test_obj_has_a_vertex_normal_and_uv_per_particle_and_two_triangles_per_quad(
    sheet_and_block,
):
    topology = sheet_and_block
    parsed = parse_obj(obj_text(mesh_frame(topology.rest_positions, topology)))
    n = topology.particle_count
    assert len(parsed["v"]) == len(parsed["vn"]) == len(parsed["vt"]) == n
    assert len(parsed["f"]) == 2 * topology.face_count
    indices = np.array(parsed["f"])  # (T, 3 corners, 3 of v/vt/vn)
    assert indices.min() == 1 and indices.max() <= n
    assert (indices[..., 0] == indices[..., 1]).all() and (indices[..., 0] == indices[..., 2]).all()
    np.testing.assert_allclose(parsed["v"], topology.rest_positions, atol=1e-6)
    np.testing.assert_allclose(np.linalg.norm(parsed["vn"], axis=1), 1.0, atol=1e-4)
    assert parsed["o"] == ["sheet_1", "block_1"]
    # every triangle sits in the object of its body
    first_block = topology.blocks[0].first_particle + 1
    in_block = indices[:, 0, 0] >= first_block
    assert (np.array(parsed["f_object"]) == in_block.astype(int)).all()


def test_sheet_uvs_are_its_grid_with_the_top_row_at_v_1(sheet_and_block):
    uv = texture_coordinates(sheet_and_block)
    sheet = sheet_and_block.sheets[0]
    assert tuple(uv[sheet.particle(0, 0)]) == (0.0, 1.0)
    assert tuple(uv[sheet.particle(0, 4)]) == (1.0, 1.0)
    assert tuple(uv[sheet.particle(3, 0)]) == (0.0, 0.0)
    np.testing.assert_allclose(uv[sheet.particle(1, 2)], (0.5, 2 / 3))
    assert ((uv >= 0.0) & (uv <= 1.0)).all()  # the block's too


def test_a_flat_vertical_sheet_faces_plus_z_and_a_block_faces_outward(sheet_and_block):
    topology = sheet_and_block
    normals = vertex_normals(mesh_frame(topology.rest_positions, topology))
    sheet = topology.sheets[0]
    np.testing.assert_allclose(np.abs(normals[: sheet.particle_count, 2]), 1.0, atol=1e-9)
    assert len(set(np.sign(normals[: sheet.particle_count, 2]))) == 1  # one side, all of it
    block = slice(topology.blocks[0].first_particle, topology.particle_count)
    x = topology.rest_positions[block]
    outward = x - x.mean(axis=0)
    surface = np.linalg.norm(outward, axis=1) > 1e-9  # not the centre particle
    assert (np.einsum("ij,ij->i", normals[block][surface], outward[surface]) > 0).all()


def test_dead_faces_are_left_out_after_a_seam_cut():
    sim = build_simulation(load_preset("hanging-sheet"))
    sim.set_cut(seam_links(sim.topology), True)
    sim.step(5)
    snapshot = take_snapshot(sim, frame=1)
    live = int(snapshot.face_alive.sum())
    assert 0 < live < sim.topology.face_count
    parsed = parse_obj(obj_text(snapshot))
    assert len(parsed["f"]) == 2 * live
    assert len(parsed["v"]) == sim.topology.particle_count
    kept = {tuple(sorted(c[0] - 1 for c in face)) for face in parsed["f"]}
    for quad in sim.topology.faces[~snapshot.face_alive]:
        a, b, c, d = (int(i) for i in quad)
        assert tuple(sorted((a, b, c))) not in kept and tuple(sorted((a, c, d))) not in kept
    faces = parse_ply(ply_bytes(snapshot))[2]
    assert len(faces) == 2 * live and faces.max() < sim.topology.particle_count


def test_ply_header_counts_and_body_size(sheet_and_block):
    topology = sheet_and_block
    x = topology.rest_positions + 0.01
    header, vertices, faces = parse_ply(ply_bytes(mesh_frame(x, topology), comment="t = 1 s"))
    assert header[:2] == ["ply", "format binary_little_endian 1.0"]
    assert f"element vertex {topology.particle_count}" in header
    assert f"element face {2 * topology.face_count}" in header
    assert "comment t = 1 s" in header
    np.testing.assert_allclose(vertices[:, :3], x, atol=1e-6)
    assert faces.min() == 0 and faces.max() == topology.particle_count - 1


def test_write_mesh_picks_the_format_by_suffix_and_refuses_others(tmp_path, sheet_and_block):
    frame = mesh_frame(sheet_and_block.rest_positions, sheet_and_block)
    write_mesh(tmp_path / "cloth.OBJ", frame)
    write_mesh(tmp_path / "cloth.ply", frame)
    assert (tmp_path / "cloth.OBJ").read_text().startswith("# Cloth Lab mesh")
    assert (tmp_path / "cloth.ply").read_bytes().startswith(b"ply\n")
    with pytest.raises(ValueError, match=r"\.obj or \.ply"):
        write_mesh(tmp_path / "cloth.stl", frame)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cloth.OBJ", "cloth.ply"]  # no temps


@pytest.mark.parametrize("fmt", ["obj", "ply"])
def test_a_run_as_a_numbered_sequence(tmp_path, fmt):
    sim = build_simulation(load_preset("hanging-sheet"))

    def frames():
        for number in range(3):
            sim.step(4)
            yield take_snapshot(sim, frame=number)

    written = write_sequence(tmp_path / "out", frames(), fmt)
    names = [f"frame_{k:04d}.{fmt}" for k in range(3)]
    assert [p.name for p in written] == names
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == names
    first, last = (p.read_bytes() for p in (written[0], written[-1]))
    assert first != last  # the cloth moved between frames
    if fmt == "ply":
        parse_ply(last)
    else:
        assert len(parse_obj(last.decode())["v"]) == sim.topology.particle_count


def test_body_names_follow_scene_order():
    builder = TopologyBuilder()
    builder.add_block(1, 0.2, (0.0, 0.0, 0.0))
    builder.add_sheet(3, 3, 0.1)
    builder.add_sheet(3, 3, 0.1, (1.0, 1.0, 0.0))
    assert body_names(builder.build()) == ["block_1", "sheet_1", "sheet_2"]
