"""Counts, order and geometry of the sheet and block topologies."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sim_helpers import block_topology, sheet_topology

from clothlab.sim.core import readouts
from clothlab.sim.core.solver import Simulation
from clothlab.sim.core.topology import (
    LATTICE_OFFSETS,
    TopologyBuilder,
    link_indices,
    link_lengths,
    sheet_link_count,
)
from clothlab.sim.document.scene import BlockSpec, SheetSpec, body_counts, build_topology
from clothlab.sim.document.scene import Scene as SceneModel


def test_classic_sheet_has_165_particles_584_links_140_faces():
    topology = sheet_topology(15, 11)
    assert topology.particle_count == 165
    assert topology.link_count == 584
    assert topology.face_count == 140
    assert topology.face_links.shape == (140, 6)
    assert sheet_link_count(15, 11) == 584


@given(cols=st.integers(2, 40), rows=st.integers(2, 40))
@settings(max_examples=40, deadline=None)
def test_sheet_counts_follow_the_formula(cols, rows):
    topology = sheet_topology(cols, rows)
    assert topology.particle_count == cols * rows
    expected = (cols - 1) * rows + cols * (rows - 1) + 2 * (cols - 1) * (rows - 1)
    assert topology.link_count == expected == sheet_link_count(cols, rows)
    assert topology.face_count == (cols - 1) * (rows - 1)
    assert topology.sheets[0].link_count == expected


def test_sheet_positions_row_major_from_top_left_centred_on_x0():
    x = sheet_topology(15, 11).rest_positions
    assert np.allclose(x[0], (-1.4, 1.0, 0.0))
    assert np.allclose(x[14], (1.4, 1.0, 0.0))
    assert np.allclose(x[15], (-1.4, 0.8, 0.0))
    assert np.allclose(x[164], (1.4, -1.0, 0.0))
    assert np.all(x[:, 2] == 0.0)
    assert abs(x[:, 0].mean()) < 1e-12


def test_sheet_rest_lengths_are_spacing_and_spacing_root2():
    topology = sheet_topology(15, 11)
    straight = 14 * 11 + 15 * 10
    assert np.allclose(topology.rest_lengths[:straight], 0.2, rtol=0, atol=1e-12)
    assert np.allclose(topology.rest_lengths[straight:], 0.2 * math.sqrt(2), rtol=0, atol=1e-12)


def test_sheet_link_families_in_order_across_down_falling_rising():
    cols, rows = 5, 4
    links = sheet_topology(cols, rows).links.tolist()

    def p(r, c):
        return r * cols + c

    across = [[p(r, c), p(r, c + 1)] for r in range(rows) for c in range(cols - 1)]
    down = [[p(r, c), p(r + 1, c)] for r in range(rows - 1) for c in range(cols)]
    falling = [[p(r, c), p(r + 1, c + 1)] for r in range(rows - 1) for c in range(cols - 1)]
    rising = [[p(r, c + 1), p(r + 1, c)] for r in range(rows - 1) for c in range(cols - 1)]
    assert links == across + down + falling + rising


def _check_face_links(topology, side):
    x = topology.rest_positions
    for face, face_links in zip(topology.faces, topology.face_links, strict=True):
        q0, q1, q2, q3 = (int(v) for v in face)
        sides = {frozenset(e) for e in ((q0, q1), (q1, q2), (q2, q3), (q3, q0))}
        diagonals = {frozenset((q0, q2)), frozenset((q1, q3))}
        got = [frozenset(int(v) for v in topology.links[k]) for k in face_links]
        assert set(got[:4]) == sides
        assert set(got[4:]) == diagonals
        # a square of the given side: four equal sides, two diagonals side·√2
        assert np.allclose(np.linalg.norm(x[[q1, q2, q3, q0]] - x[[q0, q1, q2, q3]], axis=1), side)
        assert np.isclose(np.linalg.norm(x[q2] - x[q0]), side * math.sqrt(2))
        assert np.isclose(np.linalg.norm(x[q3] - x[q1]), side * math.sqrt(2))


def test_sheet_face_links_are_each_faces_four_sides_and_two_diagonals():
    _check_face_links(sheet_topology(5, 4), 0.2)


def test_block_face_links_are_each_faces_four_sides_and_two_diagonals():
    _check_face_links(block_topology(), 0.2)


def test_block_has_125_particles_and_1036_links_by_kind():
    topology = block_topology()
    assert topology.particle_count == 125
    assert topology.link_count == 1036
    lengths = topology.rest_lengths
    assert np.isclose(lengths, 0.2).sum() == 300  # cube edges
    assert np.isclose(lengths, 0.2 * math.sqrt(2)).sum() == 480  # face diagonals
    assert np.isclose(lengths, 0.2 * math.sqrt(3)).sum() == 256  # body diagonals
    assert len({frozenset(link) for link in topology.links.tolist()}) == 1036


def test_block_has_96_surface_faces_with_outward_normals():
    topology = block_topology()
    assert topology.face_count == 96
    x = topology.rest_positions
    quads = x[topology.faces]
    normals = np.cross(quads[:, 1] - quads[:, 0], quads[:, 3] - quads[:, 0])
    outward = quads.mean(axis=1) - x.mean(axis=0)
    assert np.all(np.einsum("ij,ij->i", normals, outward) > 0)
    # every face lies on one of the block's six sides
    lo, hi = x.min(axis=0), x.max(axis=0)
    for quad in quads:
        assert any(
            np.allclose(quad[:, a], lo[a]) or np.allclose(quad[:, a], hi[a]) for a in range(3)
        )


def test_block_cells_list_each_cubes_corners_by_bits():
    topology = block_topology()
    x = topology.rest_positions
    cells = topology.blocks[0].cells
    assert cells.shape == (64, 8)
    for cell in cells:
        for k in range(8):
            offset = x[cell[k]] - x[cell[0]]
            assert np.allclose(offset, 0.2 * np.array([k & 1, (k >> 1) & 1, (k >> 2) & 1]))


def test_block_rest_volume_is_0_512():
    assert math.isclose(readouts.volume(Simulation(block_topology())), 0.512, rel_tol=1e-12)


def test_two_bodies_offset_indices():
    builder = TopologyBuilder()
    builder.add_sheet(3, 2, 0.2)
    builder.add_block(1, 0.2, (0.0, 0.0, 0.0))
    topology = builder.build()
    assert topology.particle_count == 6 + 8
    assert topology.link_count == sheet_link_count(3, 2) + 12 + 12 + 4
    assert topology.links[sheet_link_count(3, 2) :].min() >= 6
    assert topology.face_links[2:].min() >= sheet_link_count(3, 2)
    assert topology.blocks[0].cells.min() == 6


bodies = st.lists(
    st.one_of(
        st.builds(SheetSpec, cols=st.integers(2, 20), rows=st.integers(2, 20)),
        st.builds(BlockSpec, cubes=st.integers(1, 5)),
    ),
    min_size=1,
    max_size=3,
)


@given(bodies=bodies)
@settings(max_examples=30, deadline=None)
def test_body_counts_agree_with_the_built_topology(bodies):
    topology = build_topology(SceneModel(bodies=bodies))
    assert body_counts(bodies) == (topology.particle_count, topology.link_count)


def _lattice_by_loops(cubes: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The cube lattice as the file format defines it, one particle at a time: the order of
    its links is what scene files' cut indices refer to."""
    n = cubes + 1
    index = np.arange(n**3).reshape(n, n, n)
    links = []
    for offset in LATTICE_OFFSETS:
        for ix, iy, iz in np.ndindex(n, n, n):
            j = (ix + offset[0], iy + offset[1], iz + offset[2])
            if all(0 <= c < n for c in j):
                links.append((index[ix, iy, iz], index[j]))
    lookup = {frozenset(link): k for k, link in enumerate(links)}
    cells = [[index[ix + (k & 1), iy + (k >> 1 & 1), iz + (k >> 2 & 1)] for k in range(8)]
             for ix, iy, iz in np.ndindex(cubes, cubes, cubes)]  # fmt: skip
    faces, face_links = [], []
    for axis in range(3):
        for side in (0, cubes):
            for a, b in np.ndindex(cubes, cubes):
                corners = []
                for da, db in ((0, 0), (1, 0), (1, 1), (0, 1)):
                    at = [0, 0, 0]
                    at[axis], at[(axis + 1) % 3], at[(axis + 2) % 3] = side, a + da, b + db
                    corners.append(index[tuple(at)])
                q0, q1, q2, q3 = corners[::-1] if side == 0 else corners
                faces.append((q0, q1, q2, q3))
                sides = [(q0, q1), (q3, q2), (q0, q3), (q1, q2), (q0, q2), (q1, q3)]
                face_links.append([lookup[frozenset(s)] for s in sides])
    return np.array(links), np.array(faces), np.array(face_links), np.array(cells)


@pytest.mark.parametrize("cubes", [1, 2, 3, 5])
def test_block_lattice_equals_its_definition_one_particle_at_a_time(cubes):
    builder = TopologyBuilder()
    block = builder.add_block(cubes, 0.2, (0.0, 0.0, 0.0))
    topology = builder.build()
    links, faces, face_links, cells = _lattice_by_loops(cubes)
    np.testing.assert_array_equal(topology.links, links)
    np.testing.assert_array_equal(topology.faces, faces)
    np.testing.assert_array_equal(topology.face_links, face_links)
    np.testing.assert_array_equal(block.cells, cells)


def test_link_indices_finds_either_way_round_and_marks_missing_pairs():
    links = np.array([[0, 1], [2, 1], [3, 0]])
    found = link_indices(links, np.array([[1, 0], [1, 2], [0, 3], [0, 2]]))
    np.testing.assert_array_equal(found, [0, 1, 2, -1])


def test_link_lengths_are_the_bits_of_numpys_norm():
    """Rest lengths decide every step: the kernel must not round differently."""
    rng = np.random.default_rng(0)
    positions = rng.normal(size=(1000, 3)) * 10.0 ** rng.integers(-5, 5, (1000, 1))
    links = rng.integers(0, 1000, (100_000, 2)).astype(np.int32)
    expected = np.linalg.norm(positions[links[:, 1]] - positions[links[:, 0]], axis=1)
    np.testing.assert_array_equal(link_lengths(positions, links), expected)
