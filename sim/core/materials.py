"""Fabrics in SI units: what a body's particles weigh and how stiff its links and lines are,
derived from a measured material and the mesh so that refining the mesh keeps the fabric.

A body with an `SIMaterial` is cloth of areal density ρ (kg/m²) in a world of metres and
seconds (the classic model's units already behave as metres: gravity is 9.8 units/s²). Its
particles weigh ρ × their share of the rest area (a quarter of each cell round them). Its links
run XPBD with compliances from the material (RESEARCH.md §8 derives them):

* a side link of rest length L along the weft (across the sheet) or the warp (down it) is a
  spring of k·w/L, w = the width it stands for (its cells' area / 2L): α = L² / (k · area);
* each cell's shear condition C = F_u·F_v (its deformation gradient's weft and warp columns,
  `shear_coefficients`) carries the shear stiffness G: α = 1 / (G · A_cell), so that sheared
  by γ it stores ½·G·γ²·A_cell, and stretched it stores nothing; the diagonals hold nothing;
* bending is a curvature constraint on each straight run of three particles along a warp or weft
  line, C = x_l − 2·x_i + x_r when evenly spaced (a vector; 0 when straight; `run_coefficients`
  for a disc's rim, where the last spacing is short), whose energy ½·|C|²/α equals the
  continuum ½·B·κ²·(length · width) it stands for: α = s⁴ / (B · A_i), s the spacing along the
  line and A_i the middle particle's area share;
* twisting is a constraint on each cell that is a parallelogram at rest, C = x_00 − x_01 + x_11
  − x_10 (= s_weft·s_warp·∂²x/∂u∂v), with α = (s_weft·s_warp)² / (T · A_cell): bent along the
  bias, the cloth resists with B_bias = (B_warp + B_weft + T)/4. A fabric without a measured
  B_bias takes the mean of its two rigidities (T = B_warp + B_weft), as the 45° bending of
  measured fabrics roughly does (RESEARCH.md §8).

Every compliance scales with the mesh as the physics does, so a finer sheet of the same material
is the same fabric. XPBD's passes give these compliances only once its substeps are short
enough for the stiffest bending run (`substeps_needed`); where they are not, the bending joins
the links' solve (constraint_sets.LinksTogether), which needs only the substeps its
linearisation does (`substeps_for_one_solve`). A body with an SI material runs at least those
substeps and MIN_PASSES passes, whatever the scene asks for, so that its fabric does not depend
on them either (Simulation.model_settings).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from functools import cached_property

import numpy as np

from clothlab.sim.core.topology import Topology

MIN_SHEAR = 1e-3  # N/m: a cell's shear of zero stiffness would have infinite compliance
# The compliance of a link that holds nothing: an SI fabric's diagonal, whose cell's shear
# condition carries the shear (the solver leaves it out of its link arrays: Simulation).
HOLDS_NOTHING = math.inf
# XPBD reaches a constraint's compliance α within a substep h when the passes converge: with
# MIN_PASSES passes that holds while (Σ w·|∇C|²)·h² ≤ STIFFNESS_RATIO·α. A cantilever of 20
# segments droops 0.2 % of its length from the elastica at 64 substeps × 4 passes (ratio 0.5),
# 0.6 % at 16 × 16 (ratio 8.6), and 5 % at 64 × 1 (RESEARCH.md §8).
MIN_PASSES = 4
STIFFNESS_RATIO = 2.0
# A solve of the links with the bending (constraint_sets.LinksTogether) is linearised where
# the substep's prediction put the cloth, g·h² below where it was: a link then turns by about
# g·h² / spacing, and at rest its linearisation's error bends the cloth at a clamp. A cotton
# cantilever of 20 segments read 10 % of its overhang off the elastica at g·h² = 0.63 spacing
# (one substep), 0.07 % at 0.16 (two); of 80 segments, 0.01 % at 0.16 (RESEARCH.md §8).
SOLVE_REACH = 0.2


@dataclass(frozen=True)
class SIMaterial:
    """A fabric as a textile lab measures it. Warp runs down a sheet (its height, along its
    columns), weft across it (its width, along its rows)."""

    areal_density: float  # kg/m²
    stretch_warp: float  # N/m: force per unit width per unit strain, along the warp
    stretch_weft: float  # N/m
    shear: float  # N/m: in-plane shear stiffness (per radian)
    bending_warp: float  # N·m: bending rigidity per unit width, curving the warp yarns
    bending_weft: float  # N·m
    # N·m: bent along the bias (45°), as a textile lab measures it there; None: the mean of
    # warp and weft, as the 45° rows of measured fabrics roughly give (RESEARCH.md §8)
    bending_bias: float | None = None

    @property
    def bias_rigidity(self) -> float:
        """B along the bias, N·m: the one given, else the mean of warp and weft."""
        if self.bending_bias is None:
            return 0.5 * (self.bending_warp + self.bending_weft)
        return self.bending_bias

    @property
    def torsion(self) -> float:
        """T, N·m: bent along the bias the cloth resists with (B_warp + B_weft + T)/4, so T =
        4·B_bias − B_warp − B_weft (B_warp + B_weft when B_bias is the mean)."""
        if self.bending_bias is None:
            return self.bending_warp + self.bending_weft
        return 4.0 * self.bending_bias - self.bending_warp - self.bending_weft

    def bending_length(self, gravity: float = 9.8) -> float:
        """Peirce's bending length c = (B / (ρ·g))^(1/3), m, along the warp."""
        return (self.bending_warp / (self.areal_density * gravity)) ** (1.0 / 3.0)

    def with_values(self, **changes: float | None) -> SIMaterial:
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        return SIMaterial(**{**values, **changes})


# Recommended values from published data where it was found (RESEARCH.md §8 gives each number's
# source and which are typical values rather than measured ones). Warp / weft; G per radian.
SI_FABRICS: dict[str, SIMaterial] = {
    "silk": SIMaterial(0.055, 8.0e3, 5.0e3, 11.0, 1.0e-6, 0.8e-6),
    "cotton": SIMaterial(0.120, 2.0e4, 1.2e4, 56.0, 1.2e-5, 0.8e-5),
    # B along the bias from the same measured denim's 45° row, scaled as its warp and weft
    "denim": SIMaterial(0.350, 1.04e4, 8.5e3, 110.0, 9.0e-5, 6.0e-5, 6.8e-5),
    "wool": SIMaterial(0.230, 1.0e4, 8.0e3, 34.0, 1.0e-5, 0.9e-5),
    "leather": SIMaterial(0.550, 8.0e3, 8.0e3, 2.0e3, 1.5e-5, 1.5e-5),
    "polyester": SIMaterial(0.115, 2.0e4, 1.6e4, 28.0, 1.4e-5, 1.0e-5),
}


@dataclass(frozen=True, eq=False)
class Mechanics:
    """What the SI bodies of a topology weigh and how stiff they are, by particle and link."""

    mass: np.ndarray  # (N,) float64, kg; 1 for particles of bodies without an SI material
    # (M,) float64, m/N by topology index; NaN: not an SI body's; inf: holds nothing (a diagonal)
    link_compliance: np.ndarray
    # (M,) float64, m: the width of cloth whose stress each side link carries (its cells' area
    # / 2L), so that its tension / width is the fabric's tension per unit length; NaN: a
    # diagonal, or not an SI body's link
    link_width: np.ndarray
    curves: np.ndarray  # (K, 3) int32, (left, middle, right) along straight warp/weft lines
    # (K, 3) float64: C = Σ c_m·x_m is the run's curvature × s̄², s̄ its mean spacing (1, −2, 1
    # when evenly spaced; `run_coefficients`)
    curve_coefficients: np.ndarray
    curve_links: np.ndarray  # (K, 2) int64, the two links each run spans (a dead one drops it)
    curve_compliance: np.ndarray  # (K,) float64
    twists: np.ndarray  # (T, 4) int32, a cell's corners (i, j), (i, j+1), (i+1, j+1), (i+1, j)
    twist_links: np.ndarray  # (T, 4) int64, its four sides (a dead one drops it)
    twist_compliance: np.ndarray  # (T,) float64
    # (M,) float64, N/m: each side link as a spring of the fabric's own stretch k·w/L (w its
    # width), 1 / link_compliance; NaN for a diagonal or a link not of an SI body
    side_stiffness: np.ndarray
    cells: np.ndarray  # (C, 4) int32, every cell's corners (i, j), (i, j+1), (i+1, j+1), (i+1, j)
    cell_links: np.ndarray  # (C, 6) int64, its links (a dead one drops its shear)
    # (C, 2, 4) float64: the coefficients on its corners of the deformation gradient's two
    # columns, along the weft and the warp (`shear_coefficients`): unit and square at rest
    cell_gradient: np.ndarray
    cell_shear_weight: np.ndarray  # (C,) float64, N·m: 2·G·A_cell (`shear_coefficients`)

    @cached_property  # asked for by every forces() call: a scan of the links each time
    def any(self) -> bool:
        return bool(np.any(~np.isnan(self.link_compliance)))

    @cached_property
    def every(self) -> bool:
        """Whether every body has an SI material (every link has its own compliance)."""
        return bool(len(self.link_compliance)) and not np.isnan(self.link_compliance).any()


def classic_mechanics(topology: Topology) -> Mechanics:
    """No SI body: every particle of mass 1, no compliance of the material's own."""
    return Mechanics(
        mass=np.ones(topology.particle_count),
        link_compliance=np.full(topology.link_count, np.nan),
        link_width=np.full(topology.link_count, np.nan),
        curves=np.zeros((0, 3), dtype=np.int32),
        curve_coefficients=np.zeros((0, 3)),
        curve_links=np.zeros((0, 2), dtype=np.int64),
        curve_compliance=np.zeros(0),
        twists=np.zeros((0, 4), dtype=np.int32),
        twist_links=np.zeros((0, 4), dtype=np.int64),
        twist_compliance=np.zeros(0),
        side_stiffness=np.full(topology.link_count, np.nan),
        cells=np.zeros((0, 4), dtype=np.int32),
        cell_links=np.zeros((0, 6), dtype=np.int64),
        cell_gradient=np.zeros((0, 2, 4)),
        cell_shear_weight=np.zeros(0),
    )


def derive_mechanics(topology: Topology, materials: list[SIMaterial | None]) -> Mechanics:
    """Masses and compliances of every body with an SI material (sheets and discs: a body
    with faces of quads and face_links of top, bottom, left, right, two diagonals)."""
    mechanics = classic_mechanics(topology)
    for body, material in enumerate(materials):
        if material is not None:
            mechanics = _add_body(mechanics, topology, body, material)
    return mechanics


def _add_body(
    mechanics: Mechanics, topology: Topology, body: int, material: SIMaterial
) -> Mechanics:
    span = topology.bodies[body]
    x = topology.rest_positions
    in_body = (topology.faces[:, 0] >= span.first_particle) & (
        topology.faces[:, 0] < span.first_particle + span.particle_count
    )
    faces, face_links = topology.faces[in_body], topology.face_links[in_body]
    cell_area = 0.5 * np.linalg.norm(
        np.cross(x[faces[:, 2]] - x[faces[:, 0]], x[faces[:, 3]] - x[faces[:, 1]]), axis=1
    )  # (F,) a planar quad's area from its diagonals
    area = np.zeros(topology.particle_count)  # (N,) each particle's share
    np.add.at(area, faces.ravel(), np.repeat(cell_area / 4.0, 4))
    mass = mechanics.mass.copy()
    particles = np.arange(span.first_particle, span.first_particle + span.particle_count)
    mass[particles] = material.areal_density * np.maximum(area[particles], 1e-12)
    compliance, width = mechanics.link_compliance.copy(), mechanics.link_width.copy()
    side_stiffness = mechanics.side_stiffness.copy()
    _stretch_and_shear(
        compliance, width, side_stiffness, topology.rest_lengths, face_links, cell_area, material
    )
    gradient = shear_coefficients(x, faces)
    runs, coefficients, spans, run_compliance = _bending_runs(topology, face_links, area, material)
    cells, sides, twist_compliance = _twisting_cells(
        topology, faces, face_links, cell_area, material
    )
    return Mechanics(
        mass=mass,
        link_compliance=compliance,
        link_width=width,
        curves=np.ascontiguousarray(np.concatenate([mechanics.curves, runs]), dtype=np.int32),
        curve_coefficients=np.concatenate([mechanics.curve_coefficients, coefficients]),
        curve_links=np.concatenate([mechanics.curve_links, spans]).astype(np.int64),
        curve_compliance=np.concatenate([mechanics.curve_compliance, run_compliance]),
        twists=np.ascontiguousarray(np.concatenate([mechanics.twists, cells]), dtype=np.int32),
        twist_links=np.concatenate([mechanics.twist_links, sides]).astype(np.int64),
        twist_compliance=np.concatenate([mechanics.twist_compliance, twist_compliance]),
        side_stiffness=side_stiffness,
        cells=np.ascontiguousarray(np.concatenate([mechanics.cells, faces]), dtype=np.int32),
        cell_links=np.concatenate([mechanics.cell_links, face_links]).astype(np.int64),
        cell_gradient=np.concatenate([mechanics.cell_gradient, gradient]),
        cell_shear_weight=np.concatenate(
            [mechanics.cell_shear_weight, 2.0 * max(material.shear, MIN_SHEAR) * cell_area]
        ),
    )


def shear_coefficients(x: np.ndarray, cells: np.ndarray) -> np.ndarray:
    """(C, 2, 4) float64: for each cell (corners 00, 01, 11, 10 of `cells`, rest positions
    `x`), the coefficients c such that Σ c_m·x_m are the two columns F_u, F_v of its deformation
    gradient along the weft and the warp. Its mean weft and warp sides a, b are mapped through
    the inverse of their rest shape in the cell's own plane, so F_u, F_v are unit and square
    at rest on any quad (a disc's rim too). Sheared by γ, the nearest square pair lies γ²/2
    away (each column turned by γ/2), so the energy ½·w·distance² is the continuum ½·G·γ²·A
    when w = 2·G·A; stretched, F_u and F_v stay square and the condition does not resist."""
    along_weft = np.array([-0.5, 0.5, 0.5, -0.5])  # a = ((x01 − x00) + (x11 − x10)) / 2
    along_warp = np.array([-0.5, -0.5, 0.5, 0.5])  # b = ((x10 − x00) + (x11 − x01)) / 2
    corners = x[cells]  # (C, 4, 3)
    a = np.einsum("m,cmk->ck", along_weft, corners)
    b = np.einsum("m,cmk->ck", along_warp, corners)
    a_length = np.linalg.norm(a, axis=1)
    e1 = a / a_length[:, None]
    b_along = np.einsum("ck,ck->c", b, e1)
    b_across = np.linalg.norm(b - b_along[:, None] * e1, axis=1)
    # [a b] = [e1 e2]·[[|a|, b·e1], [0, b·e2]]: F = [a b]·that matrix's inverse
    inverse = np.zeros((len(cells), 2, 2))
    inverse[:, 0, 0] = 1.0 / a_length
    inverse[:, 0, 1] = -b_along / (a_length * b_across)
    inverse[:, 1, 1] = 1.0 / b_across
    rows = np.stack([np.broadcast_to(along_weft, (len(cells), 4)),
                     np.broadcast_to(along_warp, (len(cells), 4))], axis=1)  # fmt: skip
    return np.ascontiguousarray(np.einsum("cij,cim->cjm", inverse, rows))


def _stretch_and_shear(
    compliance: np.ndarray,  # (M,) float64, filled in for the body's links
    width: np.ndarray,  # (M,) float64, filled in for the body's side links
    side_stiffness: np.ndarray,  # (M,) float64, filled in for the body's side links
    rest: np.ndarray,  # (M,) float64
    face_links: np.ndarray,  # (F, 6) int32, the body's cells: top, bottom, left, right, diagonals
    cell_area: np.ndarray,  # (F,) float64
    material: SIMaterial,
) -> None:
    """Each side link a spring of the fabric's whole stretch k·w/L (w = its cells' area / 2L,
    α = L² / (k·area)); the diagonals hold nothing (HOLDS_NOTHING): each cell's shear condition
    carries the shear (constraints.project_cell_shear), and it does not resist stretch."""
    side_area = np.zeros(len(rest))  # (M,) half the area of each side's cells
    np.add.at(side_area, face_links[:, :4].ravel(), np.repeat(cell_area / 2.0, 4))
    across, down = np.unique(face_links[:, :2]), np.unique(face_links[:, 2:4])
    for links, k in ((across, material.stretch_weft), (down, material.stretch_warp)):
        side_stiffness[links] = k * side_area[links] / rest[links] ** 2
        compliance[links] = 1.0 / side_stiffness[links]
        width[links] = side_area[links] / rest[links]
    compliance[face_links[:, 4:6].ravel()] = HOLDS_NOTHING


def _bending_runs(
    topology: Topology, face_links: np.ndarray, area: np.ndarray, material: SIMaterial
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The body's straight weft and warp runs, their stencils' coefficients, the links each
    spans and their compliances."""
    x = topology.rest_positions
    runs, coefficients, spans, compliance = [], [], [], []
    families = (
        (np.unique(face_links[:, :2]), material.bending_weft),
        (np.unique(face_links[:, 2:4]), material.bending_warp),
    )
    for family, bending in families:
        found, spanned = straight_runs(topology, family)
        weights, s = run_coefficients(x, found)
        runs.append(found)
        coefficients.append(weights)
        spans.append(spanned)
        compliance.append(s**4 / (bending * area[found[:, 1]]))
    return (
        np.concatenate(runs), np.concatenate(coefficients), np.concatenate(spans),
        np.concatenate(compliance),
    )  # fmt: skip


def run_coefficients(x: np.ndarray, runs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(K, 3) float64 coefficients of each run's curvature stencil and (K,) its mean spacing s̄.
    With spacings a (left) and b (right), C = s̄·((x_l − x_i)/a + (x_r − x_i)/b) = s̄²·κ, the
    second difference of unevenly spaced points: zero for any three in a line at rest, as a
    disc's rim (moved onto its circle) leaves them, and x_l − 2·x_i + x_r when a = b."""
    a = np.linalg.norm(x[runs[:, 0]] - x[runs[:, 1]], axis=1)
    b = np.linalg.norm(x[runs[:, 2]] - x[runs[:, 1]], axis=1)
    s = 0.5 * (a + b)
    left, right = s / a, s / b
    return np.stack([left, -(left + right), right], axis=1), s


def _twisting_cells(
    topology: Topology,
    faces: np.ndarray,  # (F, 4) int32, the body's cells
    face_links: np.ndarray,  # (F, 6) int32
    cell_area: np.ndarray,  # (F,) float64
    material: SIMaterial,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The body's cells that are parallelograms at rest (not a disc's rim, moved onto its
    circle), their four sides and their twist compliances (s_weft·s_warp)² / (T · A_cell):
    the energy ½·|C|²/α is the continuum ½·T·|∂²x/∂u∂v|²·A_cell (T: SIMaterial.torsion)."""
    x, rest = topology.rest_positions, topology.rest_lengths
    twist = x[faces[:, 0]] - x[faces[:, 1]] + x[faces[:, 2]] - x[faces[:, 3]]
    weft, warp = rest[face_links[:, 0]], rest[face_links[:, 2]]  # a top side, a left side
    flat = np.linalg.norm(twist, axis=1) <= 1e-9 * weft
    if material.torsion <= 0.0:  # B_bias a quarter of B_warp + B_weft: nothing resists twist
        flat[:] = False
    compliance = (weft * warp) ** 2 / (material.torsion * np.maximum(cell_area, 1e-300))
    return faces[flat], face_links[flat, :4], compliance[flat]


STRAIGHT_COS = -0.999  # two links at a particle continue each other within 2.6°


def straight_runs(topology: Topology, family: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(K, 3) int32 runs (left, middle, right) of particles joined by two links of `family`
    (one direction's side links, each from its lower grid index to its higher) that continue
    each other in a straight line at rest, and (K, 2) int64 those two links."""
    ends = topology.links[family]
    n = topology.particle_count
    arriving = np.full(n, -1, dtype=np.int64)  # the family's link ending at each particle
    leaving = np.full(n, -1, dtype=np.int64)  # and starting there
    arriving[ends[:, 1]] = family
    leaving[ends[:, 0]] = family
    middle = np.flatnonzero((arriving >= 0) & (leaving >= 0))
    left = topology.links[arriving[middle], 0]
    right = topology.links[leaving[middle], 1]
    x = topology.rest_positions
    back, ahead = x[left] - x[middle], x[right] - x[middle]
    cos = np.einsum("ij,ij->i", back, ahead) / (
        np.linalg.norm(back, axis=1) * np.linalg.norm(ahead, axis=1)
    )
    straight = cos < STRAIGHT_COS
    runs = np.stack([left, middle, right], axis=1)[straight]
    spans = np.stack([arriving[middle], leaving[middle]], axis=1)[straight]
    return runs.astype(np.int32), spans


def substeps_needed(mechanics: Mechanics, dt: float, links: np.ndarray | None = None) -> int:
    """The fewest substeps of a Δt step at which XPBD (with MIN_PASSES passes) gives every
    bending run and twist its compliance (longest_substep). Given `links` ((M, 2) int32, the
    topology's), the SI links' stretch too (h ∝ spacing): far more, so that only a test of
    stretch itself asks for it (sim.lab.textile's hanging strip)."""
    longest = longest_substep(mechanics, links)
    return 1 if longest == math.inf else max(1, math.ceil(dt / longest))


def substeps_for_one_solve(
    mechanics: Mechanics, rest_lengths: np.ndarray, dt: float, gravity: float
) -> int:
    """The fewest substeps of a Δt step at which gravity's prediction moves the cloth at most
    SOLVE_REACH of its finest SI link's rest length (`rest_lengths`, (M,) by topology index)."""
    own = ~np.isnan(mechanics.link_compliance)
    finest = float(rest_lengths[own].min(initial=np.inf))
    if not own.any() or gravity <= 0.0:
        return 1
    return max(1, math.ceil(dt * math.sqrt(abs(gravity) / (SOLVE_REACH * finest))))


def longest_substep(mechanics: Mechanics, links: np.ndarray | None = None) -> float:
    """The longest substep h (s) at which XPBD's passes give every bending run and twist its
    compliance: h ≤ √(STIFFNESS_RATIO · α / Σ c_m²·w_m), c_m the gradients (1, −2, 1 along an
    evenly spaced run; ±1 round a cell). The finer the mesh the shorter (h ∝ spacing²), as
    for any bending model; with `links`, the SI links' stretch too (h ∝ spacing); inf if
    nothing bends."""
    w = 1.0 / mechanics.mass
    ratios = [np.inf]
    if len(mechanics.curves):
        weight = np.sum(mechanics.curve_coefficients**2 * w[mechanics.curves], axis=1)
        ratios.append(float(np.min(mechanics.curve_compliance / weight)))
    if len(mechanics.twists):
        weight = w[mechanics.twists].sum(axis=1)  # gradients ±1
        ratios.append(float(np.min(mechanics.twist_compliance / weight)))
    if links is not None:
        own = ~np.isnan(mechanics.link_compliance)
        ends = links[own]
        weight = w[ends[:, 0]] + w[ends[:, 1]]
        ratios.append(float(np.min(mechanics.link_compliance[own] / weight, initial=np.inf)))
    return math.sqrt(STIFFNESS_RATIO * min(ratios))
