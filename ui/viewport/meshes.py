"""Mesh preparation for the viewport, free of Qt and OpenGL so it can be tested on its own.

`BodyMesh` owns CPU-side buffers sized once per topology; `BodyMesh.update(snapshot, …)`
refills them in place through numba kernels, so drawing a frame allocates nothing big. The
viewport uploads the buffers with `glBufferSubData`.

Vertex layouts (float32, interleaved), split by how often they change:

* dynamic, every frame — position (3), normal (3), stretch colour (3): `DYNAMIC_FLOATS`.
* static, once per topology — front colour (3), back colour (3), fabric (4): `STATIC_FLOATS`.
  "Front" is the side the normal points to: the outside of a block, and the −z side of a
  hanging sheet (its quads wind clockwise seen from +z), so a sheet's main fabric colour is
  its back colour, the side the default camera sees. Fabric is (u, v) rest coordinates in
  model units for the weave, then the rest distances to the nearest left/right and top/bottom
  border in hem widths; −1 everywhere for solids (no weave, no hem).
* line vertex: position (3), colour (3) — `LINE_FLOATS`.
* outline vertex: this end (3), other end (3), side (1) — `OUTLINE_FLOATS` (`outline_quads`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numba import njit

from clothlab.sim.core import units
from clothlab.sim.core.kernels import link_strains
from clothlab.sim.core.snapshot import Snapshot
from clothlab.sim.core.topology import BodySpan, SheetGrid, Topology, link_indices

DYNAMIC_FLOATS = 9
STATIC_FLOATS = 10
SURFACE_FLOATS = DYNAMIC_FLOATS + STATIC_FLOATS  # fixed shapes keep both in one buffer
LINE_FLOATS = 6
OUTLINE_FLOATS = 7

STRAIN_FULL_RED = 0.10  # stretch (L − rest)/rest drawn fully red
# What the cloth's colours show instead of its fabric: each link's stretch, or its tension (the
# tension map: drawn fully red at the frame's largest, `BodyMesh.tension_scale`).
STRETCH, TENSION = "stretch", "tension"

# Colours are sRGB in 0…1. The fabric is warm so it stands out from the blue backdrop and the
# pale-blue ball; the reverse side is paler, as woven cloth usually is.
CLOTH_COLOR = (0.86, 0.36, 0.27)
CLOTH_REVERSE_COLOR = (0.93, 0.72, 0.55)
BLOCK_COLOR = (0.36, 0.78, 0.56)
BLOCK_INSIDE_COLOR = (0.20, 0.42, 0.32)
BALL_COLOR = (0.56, 0.72, 1.0)  # 0x8fb8ff, the three.js demo's sphere
OBSTACLE_COLOR = BALL_COLOR  # the other spheres and the boxes: all obstacles look alike
# The selection outline: a saturated orange, unlike any fabric, block, obstacle or backdrop.
HIGHLIGHT_COLOR = (1.0, 0.55, 0.0)
WIRE_COLOR = (0.78, 0.80, 0.86)
LINK_COLOR = (0.80, 0.86, 0.96)
PIN_COLOR = (1.0, 0.84, 0.30)
GRAB_COLOR = (1.0, 1.0, 1.0)
WIRE_HEIGHT = 0.9  # how far the cosmetic wires rise above each pin, model units
HEM_WIDTH = 0.05  # model units, at most 40 % of a cell
# Level of detail: a sheet whose cells are small on screen is drawn with its cells merged n × n
# (`fill_sheet_indices`), n a power of two up to MAX_MERGE, as long as a merged cell stays this
# many pixels across: llvmpipe's cost is per triangle, and a triangle smaller than a few pixels
# adds nothing to the picture. The shadow, a flat dark patch, takes coarser cells.
SURFACE_CELL_PX = 4.0
SHADOW_CELL_PX = 8.0
MAX_MERGE = 8
STRETCH_ALLOWANCE = 1.25  # how much longer than at rest a cell is taken to be on screen


# --- kernels ---------------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def compute_vertex_normals(
    x: np.ndarray,  # (N, 3) float64
    faces: np.ndarray,  # (F, 4) int32
    face_alive: np.ndarray,  # (F,) bool
    normals: np.ndarray,  # (N, 3) float32 or float64, written
) -> None:
    """Area-weighted unit normals from live faces; (0, 0, 0) where no live face touches.

    The cross product of a quad's diagonals is twice its (vector) area, so summing it gives
    each face a weight proportional to its area without a separate normalisation."""
    normals[:] = 0.0
    for f in range(faces.shape[0]):
        if not face_alive[f]:
            continue
        a = faces[f, 0]
        b = faces[f, 1]
        c = faces[f, 2]
        d = faces[f, 3]
        px = x[c, 0] - x[a, 0]
        py = x[c, 1] - x[a, 1]
        pz = x[c, 2] - x[a, 2]
        qx = x[d, 0] - x[b, 0]
        qy = x[d, 1] - x[b, 1]
        qz = x[d, 2] - x[b, 2]
        nx = py * qz - pz * qy
        ny = pz * qx - px * qz
        nz = px * qy - py * qx
        for corner in range(4):
            i = faces[f, corner]
            normals[i, 0] += nx
            normals[i, 1] += ny
            normals[i, 2] += nz
    for i in range(normals.shape[0]):
        length = math.sqrt(normals[i, 0] ** 2 + normals[i, 1] ** 2 + normals[i, 2] ** 2)
        if length > 0.0:
            normals[i, 0] /= length
            normals[i, 1] /= length
            normals[i, 2] /= length


@njit(cache=True, nogil=True)
def fill_triangle_indices(
    faces: np.ndarray,  # (F, 4) int32
    face_alive: np.ndarray,  # (F,) bool
    indices: np.ndarray,  # (≥ start + 6F,) uint32, written from `start`
    start: int = 0,
) -> int:
    """Two triangles (a, b, c), (a, c, d) per live quad, keeping the quad's winding.
    Returns the index after the last one written (start + 6 × live faces)."""
    count = start
    for f in range(faces.shape[0]):
        if not face_alive[f]:
            continue
        _write_quad(indices, count, faces[f, 0], faces[f, 1], faces[f, 2], faces[f, 3])
        count += 6
    return count


@njit(cache=True, nogil=True, inline="always")
def _write_quad(indices: np.ndarray, at: int, a: int, b: int, c: int, d: int) -> None:
    indices[at + 0] = a
    indices[at + 1] = b
    indices[at + 2] = c
    indices[at + 3] = a
    indices[at + 4] = c
    indices[at + 5] = d


@njit(cache=True, nogil=True)
def fill_sheet_indices(
    face_alive: np.ndarray,  # (F,) bool, scene-wide
    first_face: int,
    first_particle: int,
    cols: int,
    rows: int,
    merge: int,
    indices: np.ndarray,  # (≥ start + 6 × the sheet's faces,) uint32, written from `start`
    start: int,
) -> int:
    """A grid sheet's triangles with its cells merged `merge` × `merge` (fewer at the far
    edges): two triangles across the corners of each merged cell whose faces all live, the
    live faces one by one in a merged cell that has a cut. The corners are particles, so the
    merged surface passes through the cloth; the winding is the faces'. With merge 1 the
    same triangles, in the same order, as `fill_triangle_indices`. Returns the next index."""
    count = start
    face_cols = cols - 1
    for r0 in range(0, rows - 1, merge):
        r1 = min(r0 + merge, rows - 1)
        for c0 in range(0, face_cols, merge):
            c1 = min(c0 + merge, face_cols)
            whole = True
            for r in range(r0, r1):
                for c in range(c0, c1):
                    whole = whole and face_alive[first_face + r * face_cols + c]
            if whole:
                top, bottom = first_particle + r0 * cols, first_particle + r1 * cols
                _write_quad(indices, count, top + c0, top + c1, bottom + c1, bottom + c0)
                count += 6
                continue
            for r in range(r0, r1):
                for c in range(c0, c1):
                    if face_alive[first_face + r * face_cols + c]:
                        a = first_particle + r * cols + c
                        _write_quad(indices, count, a, a + 1, a + cols + 1, a + cols)
                        count += 6
    return count


@njit(cache=True, nogil=True, inline="always")
def _strain_rgb(strain: float) -> tuple[float, float, float]:
    # cool blue (relaxed) → warm yellow (half-way) → red (STRAIN_FULL_RED and beyond)
    t = strain / STRAIN_FULL_RED
    t = min(max(t, 0.0), 1.0)
    if t < 0.5:
        s = t * 2.0
        return 0.30 + 0.65 * s, 0.55 + 0.30 * s, 0.95 - 0.60 * s
    s = (t - 0.5) * 2.0
    return 0.95, 0.85 - 0.67 * s, 0.35 - 0.23 * s


@njit(cache=True, nogil=True)
def vertex_max_strain(
    links: np.ndarray,  # (M, 2) int32
    link_alive: np.ndarray,  # (M,) bool
    strains: np.ndarray,  # (M,) float64
    out: np.ndarray,  # (N,) float64, written: max strain of the live links at each particle
) -> None:
    out[:] = 0.0  # compression shows as relaxed
    for k in range(links.shape[0]):
        if not link_alive[k]:
            continue
        s = strains[k]
        i = links[k, 0]
        j = links[k, 1]
        if s > out[i]:
            out[i] = s
        if s > out[j]:
            out[j] = s


@njit(cache=True, nogil=True)
def fill_dynamic_vertices(
    x: np.ndarray,  # (N, 3) float64
    normals: np.ndarray,  # (N, 3) float64
    vertex_strain: np.ndarray,  # (N,) float64, read only when use_strain
    use_strain: bool,
    out: np.ndarray,  # (N, DYNAMIC_FLOATS) float32, written
) -> None:
    """Position, normal and (when use_strain) stretch colour of every particle."""
    for i in range(x.shape[0]):
        for k in range(3):
            out[i, k] = x[i, k]
            out[i, 3 + k] = normals[i, k]
        if use_strain:
            r, g, b = _strain_rgb(vertex_strain[i])
            out[i, 6] = r
            out[i, 7] = g
            out[i, 8] = b


@njit(cache=True, nogil=True)
def fill_link_lines(
    x: np.ndarray,  # (N, 3) float64
    links: np.ndarray,  # (M, 2) int32
    link_alive: np.ndarray,  # (M,) bool
    selection: np.ndarray,  # (K,) int32, which links to consider
    strains: np.ndarray,  # (M,) float64, read only when use_strain
    use_strain: bool,
    color: np.ndarray,  # (3,) float32, used when not use_strain
    out: np.ndarray,  # (≥ start + 2K, LINE_FLOATS) float32, written from row `start`
    start: int,
) -> int:
    """Two line vertices per live selected link; returns the row after the last one written."""
    row = start
    for s in range(selection.shape[0]):
        k = selection[s]
        if not link_alive[k]:
            continue
        if use_strain:
            r, g, b = _strain_rgb(strains[k])
        else:
            r, g, b = color[0], color[1], color[2]
        for end in range(2):
            i = links[k, end]
            out[row, 0] = x[i, 0]
            out[row, 1] = x[i, 1]
            out[row, 2] = x[i, 2]
            out[row, 3] = r
            out[row, 4] = g
            out[row, 5] = b
            row += 1
    return row


@njit(cache=True, nogil=True)
def fill_wires(
    anchors: np.ndarray,  # (P, 3) float64
    height: float,
    color: np.ndarray,  # (3,) float32
    out: np.ndarray,  # (≥ start + 2P, LINE_FLOATS) float32, written from row `start`
    start: int,
) -> int:
    """A vertical segment from each anchor up by `height`; returns the next free row."""
    row = start
    for p in range(anchors.shape[0]):
        for end in range(2):
            out[row, 0] = anchors[p, 0]
            out[row, 1] = anchors[p, 1] + height * end
            out[row, 2] = anchors[p, 2]
            out[row, 3] = color[0]
            out[row, 4] = color[1]
            out[row, 5] = color[2]
            row += 1
    return row


# --- per-topology buffers --------------------------------------------------------------------


def static_attributes(topology: Topology) -> np.ndarray:
    """(N, STATIC_FLOATS) float32: base colours per side and fabric coordinates per particle.
    Sheets and discs get fabric colours, a weave and a hem; blocks a solid colour."""
    n = topology.particle_count
    attributes = np.zeros((n, STATIC_FLOATS), dtype=np.float32)
    attributes[:, 0:3] = CLOTH_REVERSE_COLOR
    attributes[:, 3:6] = CLOTH_COLOR
    for grid in topology.sheets:
        span = slice(grid.first_particle, grid.first_particle + grid.particle_count)
        row, col = np.divmod(np.arange(grid.particle_count), grid.cols)
        hem = min(HEM_WIDTH, 0.4 * grid.spacing)
        # Distances to the nearest side and top/bottom edge separately: each is linear within
        # a face, so their minimum in the fragment shader gives square hem corners.
        attributes[span, 6] = col * grid.spacing
        attributes[span, 7] = row * grid.spacing
        attributes[span, 8] = np.minimum(col, grid.cols - 1 - col) * grid.spacing / hem
        attributes[span, 9] = np.minimum(row, grid.rows - 1 - row) * grid.spacing / hem
    for disc in topology.discs:
        span = slice(disc.first_particle, disc.first_particle + disc.particle_count)
        hem = min(HEM_WIDTH, 0.4 * disc.spacing)
        # The weave follows the disc's own grid (its rest place before its turn), and the hem
        # its round edge: one distance, given twice, so the shader's minimum is that distance.
        attributes[span, 6:8] = disc.local_xz + disc.radius
        to_edge = disc.radius - np.hypot(disc.local_xz[:, 0], disc.local_xz[:, 1])
        attributes[span, 8] = to_edge / hem
        attributes[span, 9] = to_edge / hem
    for block in topology.blocks:
        span = slice(block.first_particle, block.first_particle + block.particle_count)
        attributes[span, 0:3] = BLOCK_COLOR  # the outward side of a block face is its front
        attributes[span, 3:6] = BLOCK_INSIDE_COLOR  # seen only through cuts
        attributes[span, 6:10] = -1.0  # not fabric
    return attributes


class BodyMesh:
    """CPU-side buffers for the bodies of one topology, refilled in place every frame.

    `static` (N, STATIC_FLOATS) is fixed for the topology. After `update`: `dynamic`
    (N, DYNAMIC_FLOATS) holds every particle as a vertex; `indices` the live triangles of the
    surface, then of its shadow, at `surface_range` and `shadow_range` (first index, count),
    with each sheet's cells merged as `follow_view` last chose (none before it is called);
    `index_revision` moves whenever they are refilled; and `lines[:line_count]` line vertices
    in the ranges `link_range` (wireframe) and `wire_range` (first row, row count).
    """

    def __init__(self, topology: Topology) -> None:
        self.topology = topology
        n, m, f = topology.particle_count, topology.link_count, topology.face_count
        self.static = static_attributes(topology)  # (N, STATIC_FLOATS) float32
        self.dynamic = np.zeros((n, DYNAMIC_FLOATS), dtype=np.float32)
        self.all_links = np.arange(m, dtype=np.int32)  # (M,) selection for the wireframe
        self.normals = np.zeros((n, 3), dtype=np.float64)  # (N, 3) float64
        self.strains = np.zeros(m, dtype=np.float64)  # (M,) float64
        self.vertex_strain = np.zeros(n, dtype=np.float64)  # (N,) float64
        self.tension_scale = 0.0  # the tension drawn fully red in the last TENSION update
        # its unit (sim.core.units, untranslated): a force, or N/m where the bodies' tension is
        # per unit length
        self.tension_unit = units.FORCE
        self.indices = np.zeros(12 * f, dtype=np.uint32)  # (12F,) uint32: surface, shadow
        self.surface_range = (0, 0)
        self.shadow_range = (0, 0)
        self.index_revision = 0  # 0: not filled yet (no snapshot has said which faces live)
        self.face_alive = np.zeros(f, dtype=bool)  # (F,) the mask `indices` was built from
        self._sheets, others = _sheet_face_spans(topology)
        self._other_faces = topology.faces[others]  # (K, 4) int32: blocks', discs' faces
        self._other_face_index = others  # (K,) int64: where they are in `faces`
        self._merge = ((1,) * len(self._sheets),) * 2  # (surface, shadow): n per sheet
        self.lines = np.zeros((0, LINE_FLOATS), dtype=np.float32)
        self._reserve_lines(pin_count=8)
        self.line_count = 0
        self.link_range = (0, 0)
        self.wire_range = (0, 0)
        self._link_color = np.asarray(LINK_COLOR, dtype=np.float32)
        self._wire_color = np.asarray(WIRE_COLOR, dtype=np.float32)
        # A flat body's pins are what it lies on or is clamped by (a drape meter's discs, a
        # cantilever's slide), not strings it hangs from: no wires rise above them (a thousand
        # would stand as a grey column).
        self.lies_flat = np.zeros(n, dtype=bool)  # (N,) bool
        rest_y = topology.rest_positions[:, 1]
        for span in topology.bodies:
            body = slice(span.first_particle, span.first_particle + span.particle_count)
            flat = any(d.first_particle == span.first_particle for d in topology.discs) or (
                any(g.first_particle == span.first_particle for g in topology.sheets)
                and np.ptp(rest_y[body]) == 0.0
            )
            self.lies_flat[body] = flat

    def follow_view(
        self, x: np.ndarray, view_projection: np.ndarray, size_px: tuple[int, int]
    ) -> None:
        """Choose how many cells of each sheet to merge for a view ((4, 4) row-major
        view-projection, framebuffer size) of the particles at `x` ((N, 3)), and refill the
        triangles if that changed."""
        cells = sheet_cell_pixels(self._sheets, x, view_projection, size_px)
        surface = tuple(merge_count(c, SURFACE_CELL_PX) for c in cells)
        merge = (surface, tuple(merge_count(c, SHADOW_CELL_PX) for c in cells))
        if merge != self._merge:
            self._merge = merge
            if self.index_revision:
                self._fill_indices()

    def _fill_indices(self) -> None:
        surface, shadow = self._merge
        end = self._fill_triangles(surface, 0)
        self.surface_range = (0, end)
        if shadow == surface:
            self.shadow_range = self.surface_range
        else:
            self.shadow_range = (end, self._fill_triangles(shadow, end) - end)
        self.index_revision += 1

    @property
    def index_end(self) -> int:
        """How many of `indices` the surface and its shadow use."""
        return max(self.surface_range[1], sum(self.shadow_range))

    def _fill_triangles(self, merge: tuple[int, ...], start: int) -> int:
        count = start
        for (grid, first_face), n in zip(self._sheets, merge, strict=True):
            count = fill_sheet_indices(
                self.face_alive, first_face, grid.first_particle, grid.cols, grid.rows, n,
                self.indices, count,
            )  # fmt: skip
        alive = self.face_alive[self._other_face_index]
        return fill_triangle_indices(self._other_faces, alive, self.indices, count)

    def _tension_as_strain(self, snapshot: Snapshot) -> None:
        """Each link's tension on the stretch colours' scale: the frame's largest tension is
        drawn as STRAIN_FULL_RED. Unmeasured (no step yet) and pushing links show relaxed.
        With SI fabrics, the tension per unit length across each side link (a diagonal's shows
        relaxed), so that a finer sheet of the same fabric shows the same map."""
        measured = snapshot.forces
        per_length = measured.tension_per_length if measured is not None else None
        if per_length is None:
            self.tension_unit = units.shown_in(units.FORCE, snapshot.si)
        else:
            self.tension_unit = units.shown_in(units.FORCE_PER_LENGTH, si=True)
        chosen = snapshot.link_tension if per_length is None else per_length
        tension = np.nan_to_num(chosen, nan=0.0)
        live = tension[snapshot.link_alive]
        self.tension_scale = float(live.max()) if len(live) and live.max() > 0.0 else 0.0
        scale = STRAIN_FULL_RED / self.tension_scale if self.tension_scale else 0.0
        np.multiply(tension, scale, out=self.strains)

    def _reserve_lines(self, pin_count: int) -> None:
        rows = 2 * (self.topology.link_count + pin_count)
        if rows > len(self.lines):
            # Grows rarely (more pins than ever before); the viewport re-creates its buffer.
            self.lines = np.zeros((rows, LINE_FLOATS), dtype=np.float32)

    def update(self, snapshot: Snapshot, colors: str, wireframe: bool) -> None:
        """Refill the buffers from the snapshot; `colors` is STRETCH, TENSION or "" (the
        fabric's own)."""
        topology = self.topology
        x = snapshot.x
        compute_vertex_normals(x, topology.faces, snapshot.face_alive, self.normals)
        mapped = bool(colors)
        if colors == TENSION:
            self._tension_as_strain(snapshot)
        elif colors == STRETCH:
            link_strains(x, topology.links, topology.rest_lengths, self.strains)
        if mapped:
            vertex_max_strain(topology.links, snapshot.link_alive, self.strains, self.vertex_strain)
        fill_dynamic_vertices(x, self.normals, self.vertex_strain, mapped, self.dynamic)

        # Faces only change on cuts; refill (and re-upload) the triangles only then.
        if not self.index_revision or not np.array_equal(self.face_alive, snapshot.face_alive):
            self.face_alive[:] = snapshot.face_alive
            self._fill_indices()

        anchors = np.asarray(snapshot.pin_anchor, dtype=np.float64).reshape(-1, 3)
        if self.lies_flat.any():
            anchors = anchors[~self.lies_flat[np.asarray(snapshot.pin_index, dtype=np.int64)]]
        self._reserve_lines(len(anchors))
        row = 0
        if wireframe:
            row = fill_link_lines(
                x, topology.links, snapshot.link_alive, self.all_links, self.strains,
                mapped, self._link_color, self.lines, row,
            )  # fmt: skip
        self.link_range = (0, row)
        end = fill_wires(anchors, WIRE_HEIGHT, self._wire_color, self.lines, row)
        self.wire_range = (row, end - row)
        self.line_count = end


def _sheet_face_spans(topology: Topology) -> tuple[list[tuple[SheetGrid, int]], np.ndarray]:
    """The sheets whose faces are their grid's cells in row order, each with its first face,
    and the indices ((K,) int64) of every other face (blocks, discs)."""
    spans = []
    in_sheet = np.zeros(topology.face_count, dtype=bool)
    faces = topology.faces
    for grid in topology.sheets:
        first = np.flatnonzero(faces[:, 0] == grid.first_particle)
        if not len(first):
            continue
        span = slice(int(first[0]), int(first[0]) + grid.face_count)
        cells = np.arange(grid.face_count)
        a = grid.first_particle + cells // (grid.cols - 1) * grid.cols + cells % (grid.cols - 1)
        expected = np.stack([a, a + 1, a + grid.cols + 1, a + grid.cols], axis=1)
        if np.array_equal(faces[span], expected):
            spans.append((grid, span.start))
            in_sheet[span] = True
    return spans, np.flatnonzero(~in_sheet)


def sheet_cell_pixels(
    sheets: Sequence[tuple[SheetGrid, int]],
    x: np.ndarray,  # (N, 3) float64
    view_projection: np.ndarray,  # (4, 4) row-major
    size_px: tuple[int, int],
) -> list[float]:
    """How many pixels across each sheet's cell can be on screen at most: a cell (its rest
    spacing × STRETCH_ALLOWANCE) at the sheet's particle nearest the eye; infinite for a sheet
    that reaches the eye's plane."""
    if not sheets:
        return []  # blocks and discs only: nothing to project
    vp = np.asarray(view_projection, dtype=np.float64)
    # A row of the projection times the view's unit row: its length is the projection's scale.
    px_at_depth_one = 0.5 * max(
        size_px[0] * float(np.linalg.norm(vp[0, :3])),
        size_px[1] * float(np.linalg.norm(vp[1, :3])),
    )
    depth = x @ vp[3, :3] + vp[3, 3]  # (N,) distance in front of the eye (clip w)
    cells = []
    for grid, _ in sheets:
        first = grid.first_particle
        nearest = float(depth[first : first + grid.particle_count].min())
        cell = max(grid.spacing_x, grid.spacing_y) * STRETCH_ALLOWANCE
        cells.append(cell * px_at_depth_one / nearest if nearest > 1e-6 else math.inf)
    return cells


def merge_count(cell_px: float, budget_px: float) -> int:
    """How many cells of `cell_px` pixels to merge along each side: the largest power of two up
    to MAX_MERGE whose merged cell is at most `budget_px`; 1 when even one cell is larger."""
    n = 1
    while 2 * n <= MAX_MERGE and 2 * n * cell_px <= budget_px:
        n *= 2
    return n


# --- fixed shapes ----------------------------------------------------------------------------


def pack_surface(
    positions: np.ndarray,  # (V, 3)
    normals: np.ndarray,  # (V, 3)
    color: tuple[float, float, float],
    back_color: tuple[float, float, float] | None = None,
) -> np.ndarray:
    """(V, SURFACE_FLOATS) float32 vertices of a one-colour solid: the dynamic layout followed
    by the static one, no stretch colour, no fabric."""
    vertices = np.zeros((len(positions), SURFACE_FLOATS), dtype=np.float32)
    vertices[:, 0:3] = positions
    vertices[:, 3:6] = normals
    vertices[:, 9:12] = color
    vertices[:, 12:15] = back_color if back_color is not None else color
    vertices[:, 15:19] = -1.0  # not fabric
    return vertices


def uv_sphere(segments: int = 48, rings: int = 32) -> tuple[np.ndarray, np.ndarray]:
    """Unit sphere: (V, 3) float64 positions (which are also the normals) and (T·3,) uint32
    indices wound counter-clockwise seen from outside."""
    theta = np.linspace(0.0, np.pi, rings + 1)  # from the north pole (+y) down
    phi = np.linspace(0.0, 2.0 * np.pi, segments + 1)  # seam duplicated for clean wrapping
    t, p = np.meshgrid(theta, phi, indexing="ij")  # (rings+1, segments+1)
    positions = np.stack([np.sin(t) * np.sin(p), np.cos(t), np.sin(t) * np.cos(p)], axis=-1)
    positions = positions.reshape(-1, 3)
    row = segments + 1
    r, s = np.meshgrid(np.arange(rings), np.arange(segments), indexing="ij")
    a = (r * row + s).ravel()
    b = a + row  # next ring down
    triangles = np.stack([a, b, b + 1, a, b + 1, a + 1], axis=-1).reshape(-1, 3)
    # The pole rows have one degenerate triangle per quad; drop them.
    keep = ~(
        ((r.ravel() == 0)[:, None] & (np.arange(2) == 1))
        | ((r.ravel() == rings - 1)[:, None] & (np.arange(2) == 0))
    ).reshape(-1)
    triangles = triangles[keep]
    return positions, triangles.astype(np.uint32).ravel()


def cube(half: float = 0.5) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Axis-aligned cube with flat faces: (24, 3) positions, (24, 3) normals, (36,) uint32
    indices wound counter-clockwise seen from outside."""
    positions: list[np.ndarray] = []
    normals: list[np.ndarray] = []
    indices: list[int] = []
    for axis in range(3):
        for sign in (-1.0, 1.0):
            normal = np.zeros(3)
            normal[axis] = sign
            u = np.zeros(3)
            u[(axis + 1) % 3] = 1.0
            v = np.zeros(3)
            v[(axis + 2) % 3] = 1.0
            if sign < 0:
                u, v = v, u  # keep (u × v) pointing outwards
            base = len(positions)
            for du, dv in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
                positions.append((normal + du * u + dv * v) * half)
                normals.append(normal)
            indices += [base, base + 1, base + 2, base, base + 2, base + 3]
    return np.array(positions), np.array(normals), np.array(indices, dtype=np.uint32)


def floor_quad(half_size: float = 100.0) -> tuple[np.ndarray, np.ndarray]:
    """A square in the x–z plane at y = 0 (the shader lifts it to the floor height):
    (4, 3) float32 positions and (6,) uint32 indices facing up."""
    h = half_size
    positions = np.array([[-h, 0, -h], [-h, 0, h], [h, 0, h], [h, 0, -h]], dtype=np.float32)
    return positions, np.array([0, 1, 2, 0, 2, 3], dtype=np.uint32)


# --- selection outlines ----------------------------------------------------------------------


def outline_links(topology: Topology, body: int) -> np.ndarray:
    """(K,) int32 links that outline a body: a sheet's border, a block's twelve edges, a disc's
    rim, all links of any other body. Fixed for the topology; the caller draws the live ones."""
    span = topology.bodies[body]
    if any(disc.first_particle == span.first_particle for disc in topology.discs):
        return _rim_links(topology, span)
    sheets = [g for g in topology.sheets if g.first_particle == span.first_particle]
    blocks = [b for b in topology.blocks if b.first_particle == span.first_particle]
    if sheets:
        grid = sheets[0]
        index = span.first_particle + np.arange(grid.particle_count).reshape(grid.rows, grid.cols)
        sides = [index[0], index[-1], index[:, 0], index[:, -1]]
    elif blocks:
        n = blocks[0].cubes + 1
        block = span.first_particle + np.arange(n**3).reshape(n, n, n)
        ends = ((0, 0), (0, -1), (-1, 0), (-1, -1))
        sides = [np.moveaxis(block, axis, 0)[:, j, k] for axis in range(3) for j, k in ends]
    else:
        return np.arange(span.first_link, span.first_link + span.link_count, dtype=np.int32)
    pairs = np.concatenate([np.stack([side[:-1], side[1:]], axis=1) for side in sides])
    return _link_indices(topology, span, pairs)


def _rim_links(topology: Topology, span: BodySpan) -> np.ndarray:
    """(K,) int32: the body's face sides that only one face has, its outline."""
    faces = topology.faces
    own = (faces[:, 0] >= span.first_particle) & (
        faces[:, 0] < span.first_particle + span.particle_count
    )
    sides, counts = np.unique(topology.face_links[own, :4], return_counts=True)
    return sides[counts == 1].astype(np.int32)


def _link_indices(topology: Topology, span: BodySpan, pairs: np.ndarray) -> np.ndarray:
    """(K,) int32 indices of the body's links joining each (a, b) of `pairs`, either way
    round; pairs no link joins are left out."""
    links = topology.links[span.first_link : span.first_link + span.link_count]
    found = link_indices(links, pairs)
    return (span.first_link + np.unique(found[found >= 0])).astype(np.int32)


def sphere_outline(
    center: np.ndarray | tuple[float, ...], radius: float, segments: int = 72
) -> np.ndarray:
    """(6·segments, 3) float64 line-segment ends: three great circles, one about each axis."""
    angle = np.linspace(0.0, 2.0 * np.pi, segments + 1)
    ring = np.stack([np.cos(angle), np.sin(angle)], axis=1) * radius  # (segments+1, 2)
    circles = []
    for u, v in ((0, 1), (1, 2), (2, 0)):
        points = np.zeros((segments + 1, 3))
        points[:, u], points[:, v] = ring[:, 0], ring[:, 1]
        circles.append(np.stack([points[:-1], points[1:]], axis=1).reshape(-1, 3))
    return np.concatenate(circles) + np.asarray(center, dtype=np.float64)


def box_outline(
    center: np.ndarray | tuple[float, ...], size: np.ndarray | tuple[float, ...]
) -> np.ndarray:
    """(24, 3) float64 line-segment ends: the twelve edges of an axis-aligned box."""
    corners = np.array([[(k >> a) & 1 for a in range(3)] for k in range(8)], dtype=np.float64)
    corners = (corners - 0.5) * np.asarray(size, dtype=np.float64) + np.asarray(center, float)
    # Corners whose bit patterns differ in exactly one bit share an edge.
    edges = [(k, k | 1 << a) for k in range(8) for a in range(3) if not k >> a & 1]
    return corners[np.array(edges).ravel()]


def outline_quads(points: np.ndarray) -> np.ndarray:
    """(6K, OUTLINE_FLOATS) float32: two triangles per segment of (2K, 3) segment ends, each
    vertex this end (3), the other end (3) and its side (±1), for outline.vert to widen on
    screen. Seen from the other end the sides swap, so the far end's corners store −side."""
    a, b = points[0::2], points[1::2]
    corners = [(a, b, 1.0), (a, b, -1.0), (b, a, -1.0), (a, b, -1.0), (b, a, 1.0), (b, a, -1.0)]
    vertices = np.empty((len(a), 6, OUTLINE_FLOATS), dtype=np.float32)
    for k, (here, there, side) in enumerate(corners):
        vertices[:, k, 0:3] = here
        vertices[:, k, 3:6] = there
        vertices[:, k, 6] = side
    return vertices.reshape(-1, OUTLINE_FLOATS)
