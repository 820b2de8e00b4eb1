"""The cloth as a mesh file: Wavefront OBJ (text) or binary little-endian PLY, one frame each,
and numbered sequences of them for a run or a replay.

What is written, per frame:

* one vertex per particle, in particle order (so vertex k is particle k, 1-based k + 1 in OBJ);
* one unit normal per particle: the area-weighted normal of the live faces around it, wound as
  the topology winds its quads (a sheet's front, a block's outside); (0, 1, 0) where no live
  face touches it. Cloth is two-sided; one normal per vertex is what viewers expect;
* OBJ only, one texture coordinate per particle: a sheet's (col/(cols−1), 1 − row/(rows−1)),
  so row 0 (the top edge) is at v = 1, OBJ's top of the image. A block's particles get the
  front projection of their lattice place, (ix/cubes, iy/cubes): consistent on every face,
  exact on the two faces looking along z, stretched on the others. A disc's particles get their
  rest place on it, unturned: ((x − x₀)/D + ½, ½ − (z − z₀)/D), so the far (−z) edge is at the
  top of the image as a flat sheet's row 0 is;
* two triangles (a, b, c), (a, c, d) per live quad (a, b, c, d in order around it), split as the
  3D view splits them; dead faces (cut or torn away) are left out;
* OBJ: one `o` object per body, named sheet_1, sheet_2, block_1, disc_1, … in scene order.

The functions take anything with `x`, `topology` and `face_alive` (a sim.core.snapshot.Snapshot, or
bare arrays in any object that has them), so this module needs no Qt and no running simulation.
`run_frames` steps a run (sim.lab.engine) to give the frames of a run at a fixed model-time spacing
(`steps_per_frame`), for `write_sequence` or a video.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Protocol

import numpy as np

from clothlab.sim.core.snapshot import Snapshot
from clothlab.sim.core.topology import Topology
from clothlab.sim.core.topology import vertex_normals as vertex_normals_of
from clothlab.sim.document.files import write_atomically
from clothlab.sim.lab.engine import Engine

FORMATS = ("obj", "ply")
SEQUENCE_NAME = "frame_{:04d}.{}"  # frame_0000.obj, frame_0001.obj, …
_FRAME_NAME = re.compile(rf"frame_\d{{4,}}\.(?:{'|'.join(FORMATS)})")
NO_FACE_NORMAL = (0.0, 1.0, 0.0)  # a particle no live face touches: up, not a zero vector
# PLY face rows: a uchar count (always 3) and three int32 indices, packed (13 bytes)
PLY_FACE = np.dtype([("count", "u1"), ("index", "<i4", (3,))])
PLY_VERTEX = np.dtype("<f4")


class MeshSource(Protocol):
    """What a frame to export needs; sim.core.snapshot.Snapshot has it."""

    @property
    def x(self) -> np.ndarray: ...  # (N, 3) positions

    @property
    def topology(self) -> Topology: ...

    @property
    def face_alive(self) -> np.ndarray: ...  # (F,) bool


# --- geometry ----------------------------------------------------------------------------------


def triangles(source: MeshSource) -> np.ndarray:
    """(2L, 3) int64 0-based particle indices: two triangles per live quad, face order."""
    quads = np.asarray(source.topology.faces)[np.asarray(source.face_alive, dtype=bool)]
    first = quads[:, [0, 1, 2]]
    second = quads[:, [0, 2, 3]]
    return np.stack([first, second], axis=1).reshape(-1, 3).astype(np.int64)


def vertex_normals(source: MeshSource) -> np.ndarray:
    """(N, 3) float64 unit normals, area-weighted over the live faces around each particle."""
    quads = np.asarray(source.topology.faces)[np.asarray(source.face_alive, dtype=bool)]
    normals = vertex_normals_of(np.asarray(source.x, dtype=np.float64), quads)
    normals[~normals.any(axis=1)] = NO_FACE_NORMAL
    return normals


def texture_coordinates(topology: Topology) -> np.ndarray:
    """(N, 2) float64 (u, v) per particle: see the module docstring."""
    uv = np.zeros((topology.particle_count, 2))
    for sheet in topology.sheets:
        row, col = np.divmod(np.arange(sheet.particle_count), sheet.cols)
        span = slice(sheet.first_particle, sheet.first_particle + sheet.particle_count)
        uv[span, 0] = col / max(sheet.cols - 1, 1)
        uv[span, 1] = 1.0 - row / max(sheet.rows - 1, 1)
    for block in topology.blocks:
        n = block.cubes + 1
        k = np.arange(block.particle_count)
        span = slice(block.first_particle, block.first_particle + block.particle_count)
        uv[span, 0] = (k // (n * n)) / block.cubes  # index[ix, iy, iz] = ix n² + iy n + iz
        uv[span, 1] = ((k // n) % n) / block.cubes
    for disc in topology.discs:
        span = slice(disc.first_particle, disc.first_particle + disc.particle_count)
        diameter = 2.0 * disc.radius
        uv[span, 0] = disc.local_xz[:, 0] / diameter + 0.5
        uv[span, 1] = 0.5 - disc.local_xz[:, 1] / diameter
    return uv


def body_names(topology: Topology) -> list[str]:
    """sheet_1, block_1, sheet_2, disc_1, … for the bodies in scene order."""
    kinds = {sheet.first_particle: "sheet" for sheet in topology.sheets}
    kinds.update({disc.first_particle: "disc" for disc in topology.discs})
    counts = {"sheet": 0, "block": 0, "disc": 0}
    names = []
    for span in topology.bodies:
        kind = kinds.get(span.first_particle, "block")
        counts[kind] += 1
        names.append(f"{kind}_{counts[kind]}")
    return names


def _triangle_bodies(topology: Topology, faces: np.ndarray) -> np.ndarray:
    """(T,) the body each triangle belongs to, from its first corner."""
    starts = np.array([span.first_particle for span in topology.bodies], dtype=np.int64)
    return np.searchsorted(starts, faces[:, 0], side="right") - 1


# --- OBJ ---------------------------------------------------------------------------------------


def _rows(prefix: str, values: np.ndarray, fmt: str) -> str:
    if not len(values):
        return ""
    buffer = io.StringIO()
    np.savetxt(buffer, values, fmt=f"{prefix} {fmt}")
    return buffer.getvalue()


def obj_text(source: MeshSource, comment: str = "") -> str:
    """The frame as a Wavefront OBJ file (see the module docstring)."""
    topology = source.topology
    x = np.asarray(source.x, dtype=np.float64)
    faces = triangles(source)
    bodies = _triangle_bodies(topology, faces)
    header = [f"# Cloth Lab mesh: {len(x)} vertices, {len(faces)} triangles"]
    if comment:
        header.append(f"# {' '.join(comment.split())}")
    parts = ["\n".join(header) + "\n"]
    parts.append(_rows("v", x, "%.6f %.6f %.6f"))
    parts.append(_rows("vn", vertex_normals(source), "%.5f %.5f %.5f"))
    parts.append(_rows("vt", texture_coordinates(topology), "%.6f %.6f"))
    one_based = np.repeat(faces + 1, 3, axis=1)  # a a a b b b c c c: v/vt/vn share the index
    for body, name in enumerate(body_names(topology)):
        parts.append(f"o {name}\n")
        parts.append(_rows("f", one_based[bodies == body], "%d/%d/%d %d/%d/%d %d/%d/%d"))
    return "".join(parts)


# --- PLY ---------------------------------------------------------------------------------------


def ply_bytes(source: MeshSource, comment: str = "") -> bytes:
    """The frame as binary little-endian PLY: float x, y, z, nx, ny, nz per vertex and a
    uchar-counted int list of three indices per triangle."""
    x = np.asarray(source.x, dtype=np.float64)
    faces = triangles(source)
    lines = ["ply", "format binary_little_endian 1.0"]
    if comment:
        lines.append(f"comment {' '.join(comment.split())}")
    lines += [
        f"element vertex {len(x)}",
        *(f"property float {name}" for name in ("x", "y", "z", "nx", "ny", "nz")),
        f"element face {len(faces)}",
        "property list uchar int vertex_indices",
        "end_header",
    ]
    vertices = np.hstack([x, vertex_normals(source)]).astype(PLY_VERTEX)
    face_rows = np.zeros(len(faces), dtype=PLY_FACE)
    face_rows["count"] = 3
    face_rows["index"] = faces
    header = ("\n".join(lines) + "\n").encode("ascii")
    return header + vertices.tobytes() + face_rows.tobytes()


# --- files -------------------------------------------------------------------------------------


def mesh_format(path: str | os.PathLike[str]) -> str:
    """ "obj" or "ply" from a file name's suffix; ValueError for any other."""
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        raise ValueError("the name must end in .obj or .ply")
    return suffix


def mesh_bytes(source: MeshSource, fmt: str, comment: str = "") -> bytes:
    if fmt == "obj":
        return obj_text(source, comment).encode("utf-8")
    if fmt == "ply":
        return ply_bytes(source, comment)
    raise ValueError(f"unknown mesh format {fmt!r}: use one of {', '.join(FORMATS)}")


def write_mesh(path: str | os.PathLike[str], source: MeshSource, comment: str = "") -> None:
    """One frame to `path`, OBJ or PLY by its suffix, written atomically."""
    write_atomically(path, mesh_bytes(source, mesh_format(path), comment))


def write_sequence(
    folder: str | os.PathLike[str], frames: Iterable[MeshSource], fmt: str = "obj"
) -> list[Path]:
    """frame_0000.obj, frame_0001.obj, … (or .ply) in `folder` (made if missing), one per
    frame, each written atomically as it comes: a long run can stream its frames in. Returns
    the paths written."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown mesh format {fmt!r}: use one of {', '.join(FORMATS)}")
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for number, frame in enumerate(frames):
        path = target / SEQUENCE_NAME.format(number, fmt)
        write_atomically(path, mesh_bytes(frame, fmt))
        written.append(path)
    return written


def is_frame_name(name: str) -> bool:
    """True for a name SEQUENCE_NAME gives, in any format: frame_0042.obj, frame_12345.ply."""
    return _FRAME_NAME.fullmatch(name) is not None


# --- frames of a run ---------------------------------------------------------------------------


def steps_per_frame(fps: float, dt: float) -> int:
    """Model steps between frames shown at `fps` (1/fps of model time each): 4 at 30 fps with
    the 1/120 s step. At least one; rounded where 1/fps is not a whole number of steps."""
    if fps <= 0 or dt <= 0:
        raise ValueError(f"frame rate {fps} and step {dt} must be positive")
    return max(1, round(1.0 / (fps * dt)))


class UnstableRunError(RuntimeError):
    """The model blew up while frames were taken; str() is its one-line reason."""


def run_frames(engine: Engine, count: int, steps: int) -> Iterator[Snapshot]:
    """`count` snapshots of a run: as it is now, then after every `steps` more steps. Raises
    UnstableRunError if the model blows up on the way (it has its last good state back)."""
    for number in range(count):
        if number and (engine.advance(steps) < steps or engine.blew_up):
            instability = engine.sim.instability
            raise UnstableRunError(instability.message if instability else "the model stopped")
        yield engine.snapshot(frame=number)
