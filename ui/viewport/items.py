"""The things the viewport draws, one small class each, in the spirit of pyqtgraph's GL items.

Every item follows `Item`: `create(programs)` once per GL context, `upload(snapshot, options)`
every frame, which touches the GPU only when the item's own inputs changed, `draw(frame)`, and
`release()` before the context goes. `scene_items()` returns them wired together in draw
order: background, floor, shadows, bodies, ball, other spheres, boxes, pin markers, grab
marker, lines, selection outline. The viewport uploads every item before drawing any, because
shadows are cast by items drawn after them.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import numpy as np
from OpenGL import GL

from clothlab.sim.core.snapshot import Snapshot
from clothlab.sim.core.topology import Topology
from clothlab.ui.viewport import meshes
from clothlab.ui.viewport.gl import Layout, Mesh, Program, line_width
from clothlab.ui.viewport.picking import Obstacle, obstacles

if TYPE_CHECKING:
    from clothlab.ui.selection import Selection

# Backdrop in the spirit of the three.js demo (0x0b1020), a little lighter towards the horizon.
BACKGROUND_TOP = (0.043, 0.063, 0.125)
BACKGROUND_HORIZON = (0.105, 0.140, 0.245)
# Towards the key light: above, in front (+z, where the default camera is) and to the right.
KEY_DIRECTION = np.array([0.45, 0.80, 0.55]) / np.linalg.norm([0.45, 0.80, 0.55])
FILL_DIRECTION = np.array([-0.6, 0.25, -0.75]) / np.linalg.norm([-0.6, 0.25, -0.75])
PIN_MARKER_SIZE = 0.07  # model units, edge of the cube drawn at each pin
MAX_PIN_MARKERS = 50_000  # beyond, pins are not marked (see PinMarkers)
GRAB_MARKER_RADIUS = 0.05
CHECKER_CELL = 0.5
FLOOR_HALF_SIZE = 100.0
LINE_LIFT = 0.008  # model units towards the eye, so lines on the cloth stay visible
SHADOW_STRENGTH = 0.38
# glPolygonOffset (slope factor, units) pushing back what cloth rests on: the floor, the ball,
# the other obstacles. More than the cloth's own back faces are pushed, so cloth lying on them
# wins the depth test with either side up, at any angle.
UNDER_CLOTH_DEPTH_OFFSET = (1.0, 4.0)
BACK_FACE_DEPTH_OFFSET = (0.5, 1.0)
# Drawn ball radius = collision radius minus the depth at which the flat faces of cloth lying on
# it cut the sphere (see ball_drawn_radius); the slack allows for faces stretched over it.
BALL_STRETCH_SLACK = 1.15
BALL_MIN_DRAWN_FRACTION = 0.75
BALL_MIN_INSET = 0.005  # of the radius: 0.0025 on the presets' ball, under half a pixel in view
FABRIC_SHINE = (24.0, 0.08)  # (shininess, specular): a dull sheen
MARKER_SHINE = (48.0, 0.35)  # ball and markers: plastic
# Particles resting on a box lie exactly on its faces, but a cell folded over an edge is a
# chord: with its corners s/2 from the edge on either face it passes s/(2√2) ≈ 0.35 s inside
# the corner. Drawn that much smaller on every side (for the largest cell, at least BOX_INSET,
# never more than a twentieth of its size), the box stays under cloth on it and over its edges.
BOX_INSET = 0.006
BOX_EDGE_FRACTION = 0.36
# Selection outline passes as (width in logical pixels, how much of the highlight colour is
# taken away): thin and dim where something hides it, then a dark halo under a bright line
# where it is in sight, so it reads on light cloth and dark backdrop alike.
OUTLINE_HIDDEN = (1.0, 0.6)
OUTLINE_HALO = (4.5, 0.8)
OUTLINE_LINE = (2.0, 0.0)
OUTLINE_LIFT = 0.012  # model units towards the eye, a little more than the wireframe's

# Attribute layouts of the vertex buffers; locations match the shaders.
DYNAMIC_LAYOUT: Layout = ((0, 3, 0), (1, 3, 3), (2, 3, 6))  # position, normal, stretch colour
STATIC_LAYOUT: Layout = ((3, 3, 0), (4, 3, 3), (5, 4, 6))  # front, back, fabric
SOLID_LAYOUT: Layout = DYNAMIC_LAYOUT + tuple(
    (location, size, offset + meshes.DYNAMIC_FLOATS) for location, size, offset in STATIC_LAYOUT
)
LINE_LAYOUT: Layout = ((0, 3, 0), (1, 3, 3))
OUTLINE_LAYOUT: Layout = ((0, 3, 0), (1, 3, 3), (2, 1, 6))  # this end, other end, side
POSITION_LAYOUT: Layout = ((0, 3, 0),)

PROGRAM_NAMES = ("background", "floor", "surface", "shadow", "lines", "outline")
Programs = Mapping[str, Program]
_IDENTITY = np.eye(4)


@dataclass(frozen=True)
class ViewOptions:
    """How the viewport shows a snapshot, independent of the camera."""

    wireframe: bool = False  # the links as lines instead of the filled surface
    colors: str = ""  # what the cloth's colours show: meshes.STRETCH, TENSION or "" (fabric)
    pin_forces: bool = False  # arrows on the pins (ui.viewport.force_overlay)
    selection: Selection | None = None  # outlined
    # The scene's obstacle kinds in order, which maps snapshot spheres and boxes to obstacle
    # indices (picking.obstacle_indices); None: unknown, spheres first.
    obstacle_kinds: tuple[str, ...] | None = None


@dataclass(frozen=True, eq=False)
class Frame:
    """What every item needs to draw one frame."""

    view_projection: np.ndarray  # (4, 4) float64, row-major
    eye: np.ndarray  # (3,) float64, world position of the camera
    size_px: tuple[int, int]  # framebuffer (width, height) in device pixels
    ratio: float  # device pixels per logical pixel


class Item(Protocol):
    def create(self, programs: Programs) -> None:
        """Make the item's GL objects; called once per context, with it current."""

    def upload(self, snapshot: Snapshot | None, options: ViewOptions) -> None:
        """Bring GPU data up to date; a no-op unless this item's inputs changed. None: there
        is nothing to show yet."""

    def draw(self, frame: Frame) -> None:
        """Draw what the last upload holds."""

    def release(self) -> None:
        """Delete the item's GL objects; the context is current."""


class ShadowCaster(Protocol):
    def cast_shadow(self, program: Program, frame: Frame) -> None: ...


def scene_items() -> list[Item]:
    """Fresh items for one GL context, in draw order."""
    bodies, ball, spheres, boxes = Bodies(), Ball(), Spheres(), Boxes()
    shadows = Shadows([bodies, ball, spheres, boxes])
    return [
        Background(), Floor(), shadows, bodies, ball, spheres, boxes, PinMarkers(), GrabMarker(),
        Lines(bodies), Outline(),
    ]  # fmt: skip


def translate_scale(
    position: np.ndarray | Sequence[float], scale: float | Sequence[float] | np.ndarray
) -> np.ndarray:
    """(4, 4) float64 model matrix: scale (uniform, or along each axis), then translation to
    `position`."""
    model = np.diag([*np.broadcast_to(np.asarray(scale, dtype=np.float64), 3), 1.0])
    model[:3, 3] = position
    return model


def cell_sizes(topology: Topology) -> list[float]:
    """The rest spacing of every sheet, disc and block: how fine each body's cells are."""
    return (
        [grid.spacing for grid in topology.sheets]
        + [disc.spacing for disc in topology.discs]
        + [block.side for block in topology.blocks]
    )


def ball_drawn_radius(radius: float, topology: Topology) -> float:
    """How big the ball is drawn. Particles rest on the collision sphere, but the flat faces
    between them are chords: the middle of a face whose corners lie on a sphere of radius R
    lies R − √(R² − (d/2)²) inside it, d the face's diagonal, and a ball drawn at full size
    would show through there. Drawn that much smaller (for the largest face, with slack for
    stretch), and at least BALL_MIN_INSET of R smaller (the sphere's own flat faces and the
    depth buffer's resolution need room too, and a fine sheet's faces are sheared and
    stretched well past the slack where it carries its weight over the ball), it stays
    under the cloth; never below BALL_MIN_DRAWN_FRACTION of its size."""
    diagonals = [math.hypot(grid.spacing_x, grid.spacing_y) for grid in topology.sheets]
    diagonals += [math.sqrt(2.0) * disc.spacing for disc in topology.discs]
    diagonals += [math.sqrt(2.0) * block.side for block in topology.blocks]
    if not diagonals:
        return radius
    half_diagonal = 0.5 * max(diagonals) * BALL_STRETCH_SLACK
    depth = radius - math.sqrt(max(radius * radius - half_diagonal**2, 0.0))
    return max(radius - max(depth, BALL_MIN_INSET * radius), BALL_MIN_DRAWN_FRACTION * radius)


def pin_marker_size(topology: Topology) -> float:
    # No bigger than half a cell, so a pinned row stays a row of markers.
    spacings = cell_sizes(topology)
    return min([PIN_MARKER_SIZE] + [0.5 * s for s in spacings])


def _use_lit(program: Program, frame: Frame, stretch: float, shine: tuple[float, float]) -> None:
    program.use()
    program.set_matrix("u_view_projection", frame.view_projection)
    program.set_vec("u_eye", *frame.eye)
    program.set_vec("u_key_direction", *KEY_DIRECTION)
    program.set_vec("u_fill_direction", *FILL_DIRECTION)
    program.set_vec("u_tint", 0.0, 0.0, 0.0, 0.0)
    program.set_vec("u_stretch", stretch)
    program.set_vec("u_shininess", shine[0])
    program.set_vec("u_specular", shine[1])


@contextlib.contextmanager
def _under_cloth() -> Iterator[None]:
    """Draw pushed back in depth as what cloth rests on (UNDER_CLOTH_DEPTH_OFFSET)."""
    GL.glEnable(GL.GL_POLYGON_OFFSET_FILL)
    GL.glPolygonOffset(*UNDER_CLOTH_DEPTH_OFFSET)
    try:
        yield
    finally:
        GL.glDisable(GL.GL_POLYGON_OFFSET_FILL)


def _solid(
    positions: np.ndarray,  # (V, 3)
    normals: np.ndarray,  # (V, 3)
    indices: np.ndarray,  # (T·3,) uint32
    color: tuple[float, float, float],
) -> Mesh:
    vertices = meshes.pack_surface(positions, normals, color)
    return Mesh([(vertices, SOLID_LAYOUT, False)], indices)


def _floor_height(snapshot: Snapshot | None) -> float | None:
    """The floor's y, or None when there is no floor to draw."""
    if snapshot is None or not snapshot.settings.floor:
        return None
    return float(snapshot.settings.floor_y)


class Background:
    """A vertical gradient behind everything; depends on nothing but the constants."""

    def __init__(self) -> None:
        self._mesh: Mesh | None = None

    def create(self, programs: Programs) -> None:
        self._program = programs["background"]
        # Core profiles draw nothing without a bound vertex array, even attribute-free.
        self._mesh = Mesh([])

    def upload(self, snapshot: Snapshot | None, options: ViewOptions) -> None:
        pass

    def draw(self, frame: Frame) -> None:
        if self._mesh is None:
            return
        GL.glDisable(GL.GL_DEPTH_TEST)  # behind everything without writing depth
        program = self._program
        program.use()
        program.set_vec("u_top_color", *BACKGROUND_TOP)
        program.set_vec("u_horizon_color", *BACKGROUND_HORIZON)
        GL.glBindVertexArray(self._mesh.vao)
        GL.glDrawArrays(GL.GL_TRIANGLES, 0, 3)
        GL.glEnable(GL.GL_DEPTH_TEST)

    def release(self) -> None:
        if self._mesh is not None:
            self._mesh.delete()
            self._mesh = None


class Floor:
    """A checkered plane at the floor height, fading into the backdrop; a fixed quad."""

    def __init__(self) -> None:
        self._mesh: Mesh | None = None
        self._floor_y: float | None = None

    def create(self, programs: Programs) -> None:
        self._program = programs["floor"]
        positions, indices = meshes.floor_quad(FLOOR_HALF_SIZE)
        self._mesh = Mesh([(positions, POSITION_LAYOUT, False)], indices)

    def upload(self, snapshot: Snapshot | None, options: ViewOptions) -> None:
        self._floor_y = _floor_height(snapshot)  # a uniform: nothing to re-upload

    def draw(self, frame: Frame) -> None:
        if self._floor_y is None or self._mesh is None:
            return
        program = self._program
        program.use()
        program.set_matrix("u_view_projection", frame.view_projection)
        program.set_vec("u_floor_y", self._floor_y)
        program.set_vec("u_eye", *frame.eye)
        program.set_vec("u_cell", CHECKER_CELL)
        program.set_vec("u_viewport_size", *frame.size_px)
        program.set_vec("u_top_color", *BACKGROUND_TOP)
        program.set_vec("u_horizon_color", *BACKGROUND_HORIZON)
        program.set_vec("u_key_direction", *KEY_DIRECTION)
        # Cloth resting on the floor lies exactly at its height (the collision clamps it
        # there): pushed back a little in depth, the floor never wins the depth test against
        # it. The slope term covers grazing views, where the depth changes fast across a pixel.
        with _under_cloth():
            self._mesh.draw_elements()

    def release(self) -> None:
        if self._mesh is not None:
            self._mesh.delete()
            self._mesh = None


class Shadows:
    """Planar shadows of `casters` on the floor, flattened along the key light. Owns no
    buffers: each caster draws its own geometry with the shadow program."""

    def __init__(self, casters: Sequence[ShadowCaster]) -> None:
        self._casters = tuple(casters)
        self._floor_y: float | None = None

    def create(self, programs: Programs) -> None:
        self._program = programs["shadow"]

    def upload(self, snapshot: Snapshot | None, options: ViewOptions) -> None:
        self._floor_y = _floor_height(snapshot)

    def draw(self, frame: Frame) -> None:
        if self._floor_y is None:
            return
        program = self._program
        program.use()
        program.set_matrix("u_view_projection", frame.view_projection)
        program.set_vec("u_key_direction", *KEY_DIRECTION)
        program.set_vec("u_floor_y", self._floor_y)
        program.set_vec("u_strength", SHADOW_STRENGTH)
        GL.glEnable(GL.GL_BLEND)
        # Darken the colour only: the framebuffer's alpha stays 1. Qt composes the widget's
        # framebuffer with its alpha when it grabs the window (screenshots), so a shadow that
        # lowered it would come out as a light patch over the window's background.
        GL.glBlendFuncSeparate(GL.GL_SRC_ALPHA, GL.GL_ONE_MINUS_SRC_ALPHA, GL.GL_ZERO, GL.GL_ONE)
        GL.glDepthMask(GL.GL_FALSE)
        # The stencil lets each floor pixel darken once, however many layers cast onto it.
        GL.glEnable(GL.GL_STENCIL_TEST)
        GL.glStencilFunc(GL.GL_EQUAL, 0, 0xFF)
        GL.glStencilOp(GL.GL_KEEP, GL.GL_KEEP, GL.GL_INCR)
        for caster in self._casters:
            caster.cast_shadow(program, frame)
        GL.glDisable(GL.GL_STENCIL_TEST)
        GL.glDepthMask(GL.GL_TRUE)
        GL.glDisable(GL.GL_BLEND)

    def release(self) -> None:
        pass


class Bodies:
    """Sheets and blocks: every particle a vertex, the live faces as triangles.

    Buffers are made once per topology; vertices are re-uploaded only for a new snapshot or
    new view options, indices only when faces were cut or the view merges a sheet's cells
    differently (`meshes.BodyMesh.follow_view`: big sheets far away are drawn with fewer
    triangles). `mesh` and `revision` (bumped on every refill) let `Lines` follow without
    filling anything twice."""

    def __init__(self) -> None:
        self.mesh: meshes.BodyMesh | None = None
        self.revision = 0
        self._gl: Mesh | None = None
        self._snapshot: Snapshot | None = None
        self._options = ViewOptions()
        self._followed: tuple[Snapshot, Frame] | None = None  # what `_follow` last saw
        self._index_revision = -1  # the mesh's triangles the index buffer holds

    def create(self, programs: Programs) -> None:
        self._program = programs["surface"]

    def upload(self, snapshot: Snapshot | None, options: ViewOptions) -> None:
        if snapshot is None:
            self._snapshot = None
            return
        if self.mesh is None or snapshot.topology is not self.mesh.topology:
            self._rebuild(snapshot.topology)
        elif snapshot is self._snapshot and options == self._options:
            return  # a repaint for the camera: the buffers already hold this frame
        mesh, body = self.mesh, self._gl
        assert mesh is not None and body is not None
        mesh.update(snapshot, options.colors, options.wireframe)
        body.update_vertices(mesh.dynamic)
        self._snapshot, self._options = snapshot, options
        self.revision += 1

    def _follow(self, frame: Frame) -> None:
        """Merge cells for this frame's view and upload the triangles if they changed; once
        per frame and snapshot (the shadow, drawn first, calls it too)."""
        mesh, body, snapshot = self.mesh, self._gl, self._snapshot
        assert mesh is not None and body is not None and snapshot is not None
        followed = self._followed
        if followed is None or followed[0] is not snapshot or followed[1] is not frame:
            mesh.follow_view(snapshot.x, frame.view_projection, frame.size_px)
            self._followed = (snapshot, frame)
        if mesh.index_revision != self._index_revision:
            body.update_indices(mesh.indices, mesh.index_end)
            self._index_revision = mesh.index_revision

    def _rebuild(self, topology: Topology) -> None:
        if self._gl is not None:
            self._gl.delete()
        mesh = self.mesh = meshes.BodyMesh(topology)
        self._gl = Mesh(
            [(mesh.dynamic, DYNAMIC_LAYOUT, True), (mesh.static, STATIC_LAYOUT, False)],
            mesh.indices,
            dynamic_indices=True,
        )
        self._index_revision = -1

    def _surface_shown(self) -> bool:
        return self._gl is not None and self._snapshot is not None and not self._options.wireframe

    def draw(self, frame: Frame) -> None:
        if not self._surface_shown():
            return
        assert self._gl is not None and self.mesh is not None
        self._follow(frame)
        triangles = self.mesh.surface_range
        _use_lit(self._program, frame, 1.0 if self._options.colors else 0.0, FABRIC_SHINE)
        self._program.set_matrix("u_model", _IDENTITY)
        # Cloth folded onto itself on the floor lies in one plane, two layers deep (the classic
        # model has no self-collision): drawn in one go the layers would fight for every pixel
        # in stripes. The faces turned away from the eye go second, pushed back a little in
        # depth, so one layer wins throughout; a single layer looks the same either way.
        GL.glEnable(GL.GL_CULL_FACE)
        GL.glCullFace(GL.GL_BACK)
        self._gl.draw_elements(*triangles)
        GL.glCullFace(GL.GL_FRONT)
        GL.glEnable(GL.GL_POLYGON_OFFSET_FILL)
        GL.glPolygonOffset(*BACK_FACE_DEPTH_OFFSET)
        self._gl.draw_elements(*triangles)
        GL.glDisable(GL.GL_POLYGON_OFFSET_FILL)
        GL.glCullFace(GL.GL_BACK)
        GL.glDisable(GL.GL_CULL_FACE)

    def cast_shadow(self, program: Program, frame: Frame) -> None:
        if self._surface_shown():
            assert self._gl is not None and self.mesh is not None
            self._follow(frame)
            program.set_matrix("u_model", _IDENTITY)
            self._gl.draw_elements(*self.mesh.shadow_range)

    def release(self) -> None:
        if self._gl is not None:
            self._gl.delete()
            self._gl = None


class Ball:
    """The collision ball: a fixed unit sphere placed by its model matrix, which is rebuilt
    only when the ball is switched, moved or resized. It is drawn a little smaller than it
    collides (`ball_drawn_radius`), so cloth lying on it hides it."""

    def __init__(self) -> None:
        self._mesh: Mesh | None = None
        self._placement: tuple[tuple[float, ...], float] | None = None  # (centre, radius)
        self._model: np.ndarray | None = None  # (4, 4) float64, None while there is no ball

    def create(self, programs: Programs) -> None:
        self._program = programs["surface"]
        positions, indices = meshes.uv_sphere()
        self._mesh = _solid(positions, positions, indices, meshes.BALL_COLOR)

    def upload(self, snapshot: Snapshot | None, options: ViewOptions) -> None:
        settings = None if snapshot is None else snapshot.settings
        placement = None
        if snapshot is not None and settings is not None and settings.ball:
            radius = ball_drawn_radius(float(settings.ball_radius), snapshot.topology)
            placement = (tuple(settings.ball_center), radius)
        if placement != self._placement:
            self._placement = placement
            self._model = None if placement is None else translate_scale(*placement)

    def draw(self, frame: Frame) -> None:
        if self._model is None or self._mesh is None:
            return
        _use_lit(self._program, frame, 0.0, MARKER_SHINE)
        self._program.set_matrix("u_model", self._model)
        with _under_cloth():
            self._mesh.draw_elements()

    def cast_shadow(self, program: Program, frame: Frame) -> None:
        if self._model is not None and self._mesh is not None:
            program.set_matrix("u_model", self._model)
            self._mesh.draw_elements()

    def release(self) -> None:
        if self._mesh is not None:
            self._mesh.delete()
            self._mesh = None


class _Placed:
    """A fixed unit mesh drawn once per model matrix, lit and casting a shadow: the obstacles
    besides the ball. Subclasses make the mesh and say where the snapshot puts its copies; the
    matrices are rebuilt only when the snapshot's obstacles or its topology change."""

    def __init__(self) -> None:
        self._mesh: Mesh | None = None
        self._shapes: tuple | None = None  # what `_models` were made from
        self._topology: Topology | None = None
        self._models: list[np.ndarray] = []  # (4, 4) float64 each

    def create(self, programs: Programs) -> None:
        self._program = programs["surface"]
        self._mesh = self._make_mesh()

    def _make_mesh(self) -> Mesh:
        raise NotImplementedError

    def _shapes_of(self, snapshot: Snapshot) -> tuple:
        raise NotImplementedError

    def _model(self, shape: tuple, topology: Topology) -> np.ndarray:
        raise NotImplementedError

    def upload(self, snapshot: Snapshot | None, options: ViewOptions) -> None:
        if snapshot is None:
            self._shapes, self._topology, self._models = None, None, []
            return
        shapes = self._shapes_of(snapshot)
        if shapes == self._shapes and snapshot.topology is self._topology:
            return
        self._shapes, self._topology = shapes, snapshot.topology
        self._models = [self._model(shape, snapshot.topology) for shape in shapes]

    def draw(self, frame: Frame) -> None:
        if not self._models or self._mesh is None:
            return
        _use_lit(self._program, frame, 0.0, MARKER_SHINE)
        with _under_cloth():
            for model in self._models:
                self._program.set_matrix("u_model", model)
                self._mesh.draw_elements()

    def cast_shadow(self, program: Program, frame: Frame) -> None:
        if self._mesh is None:
            return
        for model in self._models:
            program.set_matrix("u_model", model)
            self._mesh.draw_elements()

    def release(self) -> None:
        if self._mesh is not None:
            self._mesh.delete()
            self._mesh = None


class Spheres(_Placed):
    """The scene's spheres besides the ball, drawn like it (a little smaller than they
    collide, see `ball_drawn_radius`)."""

    def _make_mesh(self) -> Mesh:
        positions, indices = meshes.uv_sphere()
        return _solid(positions, positions, indices, meshes.OBSTACLE_COLOR)

    def _shapes_of(self, snapshot: Snapshot) -> tuple:
        return tuple(snapshot.spheres)

    def _model(self, shape: tuple, topology: Topology) -> np.ndarray:
        center, radius = shape
        return translate_scale(center, ball_drawn_radius(float(radius), topology))


class Boxes(_Placed):
    """The scene's axis-aligned boxes: a unit cube scaled along each axis (its face normals
    stay along the axes, so the lit shader needs no normal matrix)."""

    def _make_mesh(self) -> Mesh:
        positions, normals, indices = meshes.cube(0.5)
        return _solid(positions, normals, indices, meshes.OBSTACLE_COLOR)

    def _shapes_of(self, snapshot: Snapshot) -> tuple:
        return tuple(snapshot.boxes)

    def _model(self, shape: tuple, topology: Topology) -> np.ndarray:
        center, size = shape
        size = np.asarray(size, dtype=np.float64)
        cells = cell_sizes(topology)
        inset = np.minimum(max([BOX_INSET] + [BOX_EDGE_FRACTION * c for c in cells]), 0.05 * size)
        return translate_scale(center, size - 2.0 * inset)


class PinMarkers:
    """A small cube at every pin anchor, all in one mesh drawn with one call (a call per pin
    took 0.4 s a frame at 10 000 pins); rebuilt only when the anchors or the topology (which
    sets the marker size) change. Past MAX_PIN_MARKERS pins no markers are drawn: a body
    pinned everywhere would be a wall of them, and the mesh hundreds of MB."""

    def __init__(self) -> None:
        self._cube = meshes.cube(0.5)
        self._mesh: Mesh | None = None  # every marker, in world coordinates
        self._topology: Topology | None = None
        self._size = PIN_MARKER_SIZE
        self._anchors: np.ndarray | None = None  # (P, 3) float64, the anchors of `_mesh`

    def create(self, programs: Programs) -> None:
        self._program = programs["surface"]

    def upload(self, snapshot: Snapshot | None, options: ViewOptions) -> None:
        anchors = None if snapshot is None else np.asarray(snapshot.pin_anchor).reshape(-1, 3)
        before = self._anchors
        if snapshot is not None and snapshot.topology is not self._topology:
            self._topology = snapshot.topology
            self._size = pin_marker_size(snapshot.topology)
            before = None
        elif anchors is not None and before is not None and np.array_equal(anchors, before):
            return
        self._anchors = anchors  # a read-only snapshot copy: safe to keep
        if anchors is None or not 0 < len(anchors) <= MAX_PIN_MARKERS:
            self.release()
            return
        if self._mesh is not None and before is not None and len(before) == len(anchors):
            self._move_cubes(anchors, np.flatnonzero(np.any(anchors != before, axis=1)))
            return
        self.release()
        positions, normals, indices = pin_cubes(self._cube, anchors, self._size)
        self._mesh = _solid(positions, normals, indices, meshes.PIN_COLOR)

    def _move_cubes(self, anchors: np.ndarray, moved: np.ndarray) -> None:
        """Pins dragged: the same cubes, these ones in new places (just their vertices: one
        pin of 10 000 must not re-send them all)."""
        assert self._mesh is not None
        first, last = int(moved.min()), int(moved.max()) + 1  # one span: usually one pin
        positions, normals, _ = pin_cubes(self._cube, anchors[first:last], self._size)
        vertices = meshes.pack_surface(positions, normals, meshes.PIN_COLOR)
        self._mesh.update_vertices(vertices, first=first * len(self._cube[0]))

    def draw(self, frame: Frame) -> None:
        if self._mesh is None:
            return
        _use_lit(self._program, frame, 0.0, MARKER_SHINE)
        self._program.set_matrix("u_model", np.eye(4))
        self._mesh.draw_elements()

    def release(self) -> None:
        if self._mesh is not None:
            self._mesh.delete()
            self._mesh = None


def pin_cubes(
    cube: tuple[np.ndarray, np.ndarray, np.ndarray], anchors: np.ndarray, size: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(P·24, 3) positions, (P·24, 3) normals and (P·36,) uint32 indices of a cube of edge
    `size` at each of the (P, 3) anchors."""
    positions, normals, indices = cube
    count, corners = len(anchors), len(positions)
    placed = (anchors[:, None, :] + size * positions[None, :, :]).reshape(-1, 3)
    offsets = (corners * np.arange(count, dtype=np.uint32))[:, None]
    return placed, np.tile(normals, (count, 1)), (indices[None, :] + offsets).ravel()


class GrabMarker:
    """A white bead on the particle being dragged; follows it on every new snapshot."""

    def __init__(self) -> None:
        self._mesh: Mesh | None = None
        self._snapshot: Snapshot | None = None
        self._model: np.ndarray | None = None  # (4, 4) float64, None while nothing is held

    def create(self, programs: Programs) -> None:
        self._program = programs["surface"]
        # Its own copy of the ball's sphere (tinted when drawn): ~150 kB buys independence.
        positions, indices = meshes.uv_sphere()
        self._mesh = _solid(positions, positions, indices, meshes.BALL_COLOR)

    def upload(self, snapshot: Snapshot | None, options: ViewOptions) -> None:
        if snapshot is self._snapshot:
            return
        self._snapshot = snapshot
        held = None if snapshot is None else snapshot.grabbed
        if snapshot is None or held is None or not 0 <= held < len(snapshot.x):
            self._model = None
        else:
            self._model = translate_scale(snapshot.x[held], GRAB_MARKER_RADIUS)

    def draw(self, frame: Frame) -> None:
        if self._model is None or self._mesh is None:
            return
        _use_lit(self._program, frame, 0.0, MARKER_SHINE)
        self._program.set_vec("u_tint", *meshes.GRAB_COLOR, 0.8)
        self._program.set_matrix("u_model", self._model)
        self._mesh.draw_elements()

    def release(self) -> None:
        if self._mesh is not None:
            self._mesh.delete()
            self._mesh = None


class Lines:
    """Wireframe links (lifted towards the eye) and the cosmetic wires above the pins.

    The vertices come from the `Bodies` item's mesh, so they are re-uploaded exactly when it
    refilled them (its `revision` moved); the buffer is re-made for a new topology or when
    more pins than ever before outgrew it."""

    def __init__(self, bodies: Bodies) -> None:
        self._bodies = bodies
        self._gl: Mesh | None = None
        self._mesh: meshes.BodyMesh | None = None  # the mesh `_gl` was sized for
        self._revision = -1
        self._shown = False

    def create(self, programs: Programs) -> None:
        self._program = programs["lines"]

    def upload(self, snapshot: Snapshot | None, options: ViewOptions) -> None:
        mesh = self._bodies.mesh
        self._shown = snapshot is not None and mesh is not None
        if mesh is None or self._bodies.revision == self._revision:
            return
        outgrown = self._gl is not None and mesh.lines.nbytes != self._gl.vertex_bytes[0]
        if self._gl is None or mesh is not self._mesh or outgrown:
            if self._gl is not None:
                self._gl.delete()
            self._gl = Mesh([(mesh.lines, LINE_LAYOUT, True)])  # uploads the lines as well
            self._mesh = mesh
        elif mesh.line_count:
            self._gl.update_vertices(mesh.lines[: mesh.line_count])
        self._revision = self._bodies.revision

    def draw(self, frame: Frame) -> None:
        mesh, lines = self._mesh, self._gl
        if not self._shown or mesh is None or lines is None:
            return
        program = self._program
        program.use()
        program.set_matrix("u_view_projection", frame.view_projection)
        program.set_vec("u_eye", *frame.eye)
        program.set_vec("u_lift", LINE_LIFT)
        line_width(1.0 * frame.ratio)
        lines.draw_arrays(GL.GL_LINES, *mesh.link_range)
        program.set_vec("u_lift", 0.0)
        line_width(1.5 * frame.ratio)
        lines.draw_arrays(GL.GL_LINES, *mesh.wire_range)
        line_width(1.0)

    def release(self) -> None:
        if self._gl is not None:
            self._gl.delete()
            self._gl = None


class Outline:
    """The selected body or obstacle outlined in the highlight colour: a sheet's border, a
    block's edges, three great circles of a sphere, the twelve edges of a box. Rebuilt from
    every new snapshot, so it follows moving cloth and dragged obstacles.

    Drawn last, first with the depth test off (thin and dim, so a selected thing stays
    findable behind cloth or other obstacles), then with it on (a dark halo and a bright line
    over it, lifted towards the eye) where it is in sight."""

    def __init__(self) -> None:
        self._gl: Mesh | None = None
        self._count = 0  # vertices in the buffer, six per segment
        self._key: tuple | None = None  # (snapshot, selection, kinds) the buffer holds
        self._links: tuple[Topology, int, np.ndarray] | None = None  # a body's outline links

    def create(self, programs: Programs) -> None:
        self._program = programs["outline"]

    def upload(self, snapshot: Snapshot | None, options: ViewOptions) -> None:
        selection, kinds = options.selection, options.obstacle_kinds
        if snapshot is None or selection is None:
            self._key, self._count = None, 0
            return
        key = (snapshot, selection, kinds)
        if self._key is not None and _same_key(key, self._key):
            return
        self._key = key
        vertices = meshes.outline_quads(self._points(snapshot, selection, kinds))
        self._count = len(vertices)
        if not self._count:
            return
        if self._gl is None or vertices.nbytes > self._gl.vertex_bytes[0]:
            if self._gl is not None:
                self._gl.delete()
            self._gl = Mesh([(vertices, OUTLINE_LAYOUT, True)])
        else:
            self._gl.update_vertices(vertices)

    def _points(
        self, snapshot: Snapshot, selection: Selection, kinds: tuple[str, ...] | None
    ) -> np.ndarray:
        """(V, 3) float64 line-segment ends outlining the selection; none if it is gone."""
        if selection.kind == "body":
            if not 0 <= selection.index < len(snapshot.topology.bodies):
                return np.zeros((0, 3))
            links = self._body_links(snapshot.topology, selection.index)
            live = links[snapshot.link_alive[links]]
            return snapshot.x[snapshot.topology.links[live]].reshape(-1, 3)
        wanted = [o for o in obstacles(snapshot, kinds) if o.index == selection.index]
        return _obstacle_outline(wanted[0]) if wanted else np.zeros((0, 3))

    def _body_links(self, topology: Topology, body: int) -> np.ndarray:
        cached = self._links
        if cached is None or cached[0] is not topology or cached[1] != body:
            cached = self._links = (topology, body, meshes.outline_links(topology, body))
        return cached[2]

    def draw(self, frame: Frame) -> None:
        if not self._count or self._gl is None:
            return
        program = self._program
        program.use()
        program.set_matrix("u_view_projection", frame.view_projection)
        program.set_vec("u_eye", *frame.eye)
        program.set_vec("u_viewport_size", *frame.size_px)
        program.set_vec("u_color", *meshes.HIGHLIGHT_COLOR)
        GL.glDisable(GL.GL_DEPTH_TEST)
        self._pass(frame, OUTLINE_HIDDEN, 0.0)
        GL.glEnable(GL.GL_DEPTH_TEST)
        # Tested against the scene but not written: the bright line, drawn last, would lose
        # the depth test to its own halo where the wider quads' depths differ by a hair.
        GL.glDepthMask(GL.GL_FALSE)
        self._pass(frame, OUTLINE_HALO, OUTLINE_LIFT)
        self._pass(frame, OUTLINE_LINE, OUTLINE_LIFT)
        GL.glDepthMask(GL.GL_TRUE)

    def _pass(self, frame: Frame, style: tuple[float, float], lift: float) -> None:
        assert self._gl is not None
        width, dim = style
        self._program.set_vec("u_lift", lift)
        self._program.set_vec("u_dim", dim)
        self._program.set_vec("u_width", width * frame.ratio)
        self._gl.draw_arrays(GL.GL_TRIANGLES, 0, self._count)

    def release(self) -> None:
        if self._gl is not None:
            self._gl.delete()
            self._gl = None


def _same_key(a: tuple, b: tuple) -> bool:
    # The snapshot by identity: comparing two snapshots field by field would compare arrays.
    return a[0] is b[0] and a[1:] == b[1:]


def _obstacle_outline(obstacle: Obstacle) -> np.ndarray:
    if obstacle.kind == "box":
        return meshes.box_outline(obstacle.center, obstacle.extent)
    return meshes.sphere_outline(obstacle.center, float(obstacle.extent[0]))
