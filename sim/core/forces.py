"""The forces the model's constraints exert, from what the solver moved.

A position-based step moves particles instead of applying forces, but each move is a force
in disguise: a constraint that moves a particle of mass m by Δx over the passes of a (sub)step
of length h has pushed it with m·Δx / h². XPBD keeps that sum per constraint as its multiplier
λ (mass × length); the classic rule and the collision sweeps gather the same measure as they
move (kernels._project_link, kernels.collide, constraints.project_tethers), so every solver
gives forces the same way, at the cost of one add per projection.

At rest this is exact: the pins and the obstacles' pushes then cancel gravity to the last bit,
so Σ pin force + Σ contact force = the cloth's weight, whatever the passes left unconverged.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from clothlab.sim.core import constraints
from clothlab.sim.core.arrays import FixedArrays, LinkArrays, Obstacles
from clothlab.sim.core.records import LinkMoves
from clothlab.sim.core.topology import Topology


@dataclass(frozen=True, eq=False)
class StencilImpulses:
    """A family of linear constraints C = Σ c_m·x_m (constraints.project_stencils_xpbd) and
    their multipliers after the substep's passes."""

    members: np.ndarray  # (K, M) int32
    coefficients: np.ndarray  # (K, M) float64
    lambdas: np.ndarray  # (K, 3) float64


@dataclass(frozen=True, eq=False)
class ShearImpulses:
    """The cells' shear conditions (constraints.project_cell_shear): their gradients as last
    projected and their multipliers after the substep's passes."""

    cells: np.ndarray  # (C, 4) int32
    gradient: np.ndarray  # (C, 4, 3) float64
    lambdas: np.ndarray  # (C,) float64


def _none(dtype: type, *shape: int) -> np.ndarray:
    """An empty array shared by every Impulses without that constraint set (read-only): one
    is made each step the readouts are read, and five fresh empties cost as much as a link pass."""
    empty: np.ndarray = np.zeros((0, *shape), dtype=dtype)
    empty.flags.writeable = False
    return empty


_NO_TETHERS, _NO_PULLS = _none(np.int32), _none(np.float64)


@dataclass(frozen=True, eq=False)
class Impulses:
    """What the constraints moved over the last (sub)step, mass × length; force = it / h²."""

    h: float  # the (sub)step's length, s
    links: LinkArrays  # their moves (LinkArrays.moved)
    obstacles: Obstacles  # their pushes
    fixed: FixedArrays  # the particles it held
    distances: tuple[LinkMoves, ...] = ()  # distance constraints besides the links (bending)
    stencils: tuple[StencilImpulses, ...] = ()  # the SI bodies' bending runs and twists
    shear: ShearImpulses | None = None  # the SI bodies' cells
    tether_particle: np.ndarray = field(default_factory=lambda: _NO_TETHERS)  # (T,) int32
    tether_anchor: np.ndarray = field(default_factory=lambda: _NO_TETHERS)  # (T,) int32
    tether_pulled: np.ndarray = field(default_factory=lambda: _NO_PULLS)  # (T,) float64

    def is_of(self, h: float, links: LinkArrays, obstacles: Obstacles, fixed: FixedArrays) -> bool:
        """Whether this record is of a step of length h over these arrays: each step writes into
        the same ones, so an integrator keeps one record until they change."""
        return (self.h == h and self.links is links and self.obstacles is obstacles
                and self.fixed is fixed)  # fmt: skip


@dataclass(frozen=True, eq=False)
class Forces:
    """The forces of the last (sub)step: N where the bodies have SI materials, model units
    (mass 1 a particle, so g = 9.81 units/s² weighs 9.81) otherwise."""

    link_tension: np.ndarray  # (M,) float64 by topology index: each link's pull on its ends
    # along itself (< 0: it pushes them apart); 0 for a dead link
    pin_force: np.ndarray  # (P, 3) float64: each pin's force on the cloth, as state.pin_index
    contact: dict[str, float]  # each obstacle's normal force on the cloth: "ball", "floor", …
    weight: float  # the cloth's: Σ m·g, what the pins and obstacles hold between them at rest
    grab_force: np.ndarray | None = None  # (3,) float64: the hand's force on a grabbed particle
    # (M,) float64, m: Mechanics.link_width (the SI bodies' side links); None: no SI body
    link_width: np.ndarray | None = None

    @property
    def pin_total(self) -> np.ndarray:
        """(3,) float64: the pins' net force on the cloth."""
        return self.pin_force.sum(axis=0)

    @property
    def max_tension(self) -> float:
        return float(self.link_tension.max(initial=0.0))

    @property
    def tension_per_length(self) -> np.ndarray | None:
        """(M,) float64, N/m: the SI bodies' tension per unit length across each side link
        (NaN for a diagonal and for a body in model units); None without an SI body."""
        if self.link_width is None:
            return None
        return self.link_tension / self.link_width

    @property
    def contact_total(self) -> float:
        return float(sum(self.contact.values()))


_NO_TOPOLOGY_INDEX = np.zeros(0, dtype=np.int64)


def measure(
    impulses: Impulses,
    x: np.ndarray,  # (N, 3) float64
    mass: np.ndarray,  # (N,) float64, each particle's mass (held ones too)
    pins: np.ndarray,  # (P,) int32
    grabbed: int | None,  # the particle the pointer holds, if any
    gravity: float,
    weight: float,  # the cloth's, Σ m·g
    link_count: int,
    floor: bool,
    link_width: np.ndarray | None = None,  # Mechanics.link_width where a body has an SI fabric
) -> Forces:
    """The forces of the impulses: each link's tension, each obstacle's push and each pin's
    force on the cloth (the reaction to what every constraint with a held end pulled it with,
    and the weight of its own particle, which it holds too)."""
    h, inv_mass, links = impulses.h, impulses.fixed.inv_mass, impulses.links
    tension = np.zeros(link_count)
    on_held = np.zeros(x.shape)  # (N, 3) float64: what the constraints pull held particles with
    constraints.link_forces(x, inv_mass, links.moves, h, links.live, tension, on_held)
    for moves in impulses.distances:
        constraints.link_forces(x, inv_mass, moves, h, _NO_TOPOLOGY_INDEX, tension, on_held)
    for s in impulses.stencils:
        constraints.stencil_forces_on_held(
            inv_mass, s.members, s.coefficients, s.lambdas, h, on_held
        )
    if impulses.shear is not None:
        shear = impulses.shear
        constraints.shear_forces_on_held(
            inv_mass, shear.cells, shear.gradient, shear.lambdas, h, on_held
        )
    _tether_forces_on_held(impulses, x, on_held)
    held = np.append(pins, np.int32(grabbed)) if grabbed is not None else pins
    held_force = constraints.held_reactions(on_held, held, mass, gravity)
    pin_force, grab_force = (
        (held_force[:-1], held_force[-1]) if grabbed is not None else (held_force, None)
    )
    obstacles, per_impulse = impulses.obstacles, 1.0 / h**2
    pushes = [push * per_impulse for push in obstacles.pushed.tolist()]
    contact = dict(zip(obstacles.names[:-1], pushes[:-1], strict=True))  # the last: floor
    if floor:
        contact["floor"] = pushes[-1]
    return Forces(tension, pin_force, contact, weight, grab_force, link_width)


def _tether_forces_on_held(impulses: Impulses, x: np.ndarray, out: np.ndarray) -> None:
    """A tether pulls its particle towards its pin: the pin is pulled towards the particle."""
    pulled = impulses.tether_pulled
    if not len(pulled) or not pulled.any():
        return
    anchor, particle = impulses.tether_anchor, impulses.tether_particle
    towards = x[particle] - x[anchor]  # (T, 3) float64
    distance = np.linalg.norm(towards, axis=1, keepdims=True)
    pull = np.divide(towards, distance, out=np.zeros_like(towards), where=distance > 0.0)
    np.add.at(out, anchor, pull * (pulled / impulses.h**2)[:, None])


def tension_around(topology: Topology, link_tension: np.ndarray, particle: int) -> float:
    """The largest tension among the links at a particle (0 where none pulls)."""
    ends = topology.links
    at = (ends[:, 0] == particle) | (ends[:, 1] == particle)
    return float(link_tension[at].max(initial=0.0))
