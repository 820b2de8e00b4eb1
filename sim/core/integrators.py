"""Integrators: how one Δt is taken.

`ClassicIntegrator` is the seed's model in fused kernels (predict, passes over links with ball
and floor after each), on one or two threads. `ExtendedIntegrator` takes substeps, forces
(aerodynamic wind) and loops over constraint sets (sim.core.constraint_sets) for every option beyond
the classic model; with every option off it computes what the classic one does.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from clothlab.sim.core import constraints, kernels
from clothlab.sim.core.arrays import FixedArrays, LinkArrays, LinkMaterial, Obstacles
from clothlab.sim.core.constraint_sets import (
    BendingSet,
    ConstraintSet,
    LinkSet,
    Model,
    ShearSet,
    SolveReport,
    Substep,
    TetherSet,
    air_surface,
    constraint_sets,
)
from clothlab.sim.core.forces import Impulses, ShearImpulses
from clothlab.sim.core.parameters import Settings, damping_per_step
from clothlab.sim.core.records import Surface
from clothlab.sim.core.state import State


class ClassicIntegrator:
    def __init__(self) -> None:
        self._impulses: Impulses | None = None

    def step(
        self,
        state: State,
        s: Settings,
        links: LinkArrays,
        fixed: FixedArrays,
        material: LinkMaterial,
        obstacles: Obstacles,
        stop: np.ndarray,
    ) -> int:
        """One step; returns the health the predict found (kernels.HEALTHY or a problem), or
        kernels.INTERRUPTED if `stop` ((1,) uint8) was set during it. What it moved stays in
        the links' lambdas and the obstacles' pushes (`impulses`)."""
        kernel = kernels.step_parallel if links.parallel else kernels.step_classic
        return kernel(
            fixed.particles(state.x, state.x_prev),
            fixed.held,
            links.record(material),
            s.world(state.t),
            obstacles.contacts(s.floor, s.floor_y),
            stop,
        )

    def impulses(
        self, s: Settings, links: LinkArrays, obstacles: Obstacles, fixed: FixedArrays
    ) -> Impulses:
        """What the last step's links and obstacles moved (sim.core.forces). The step writes
        them into the same arrays each time, so one record serves until the arrays change."""
        last = self._impulses
        if last is None or not last.is_of(s.dt, links, obstacles, fixed):
            last = self._impulses = Impulses(s.dt, links, obstacles, fixed)
        return last


class ExtendedIntegrator:
    """Substeps of predict + passes over the enabled constraint sets; each set is rebuilt
    lazily when something it depends on changed."""

    def __init__(self, particle_count: int) -> None:
        self.sets = constraint_sets()
        self.links_set = next(s for s in self.sets if isinstance(s, LinkSet))
        self._stale = set(range(len(self.sets)))  # sets to build before they next run
        self._active: list[ConstraintSet] = []  # the sets the last step ran
        self._impulses: tuple[list[ConstraintSet], Impulses] | None = None  # for _active
        self._acceleration = np.zeros((particle_count, 3))  # (N, 3) float64
        self._air: Surface | None = None  # for aerodynamic wind
        self._air_parallel = False  # on two threads, as the links are
        self._drag_stiffness = np.zeros((particle_count, 3, 3))  # (N, 3, 3) float64, −∂a/∂v

    def invalidate(self, what: str) -> None:
        """Links or pins changed: the sets that depend on them rebuild before they next run."""
        self._stale |= {k for k, c in enumerate(self.sets) if what in c.depends_on}
        if what == "links":
            self._air = None

    def step(
        self,
        state: State,
        s: Settings,
        fixed: FixedArrays,
        model: Model,
        material: LinkMaterial,
        obstacles: Obstacles,
        stop: np.ndarray,
    ) -> int:
        active = [c for c in self.sets if c.enabled(s, model)]
        if active != self._active:  # kept while it is the same: impulses() reuse their record
            self._active = active
        for k, c in enumerate(self.sets):
            if k in self._stale and c in active:
                c.build(model)
                self._stale.discard(k)
                self._impulses = None  # it has new arrays
        if s.aerodynamic and self._air is None:
            self._air = air_surface(model)
            self._air_parallel = model.links.parallel
        x, x_prev = state.x, state.x_prev
        h = s.dt / s.substeps
        sub = Substep(x, x_prev, fixed.inv_mass, s, h, material, obstacles)
        particles = sub.particles
        damping = damping_per_step(s.damping, h)
        projections = [call for c in active for call in c.projections(sub)]
        for k in range(s.substeps):
            self._accelerations(x, x_prev, s, state.t + k * h, h)
            x_prev[fixed.index] = x[fixed.index]  # a dragged pin's motion is not a velocity
            if s.aerodynamic:  # drag grows with speed²: solved for implicitly, stable at any drag
                health = constraints.accelerate_implicit(
                    particles, self._acceleration, self._drag_stiffness, damping, h
                )
            else:
                health = constraints.accelerate(particles, self._acceleration, damping, h)
            if health != kernels.HEALTHY:
                return health
            kernels.place_pins(x, fixed.index, fixed.anchor)
            for c in active:
                c.begin(sub)
            for c in active:
                c.solve(sub)
            for _ in range(s.passes):
                if stop[0]:
                    return kernels.INTERRUPTED
                for project in projections:
                    project()
        return kernels.HEALTHY

    def impulses(
        self, s: Settings, links: LinkArrays, obstacles: Obstacles, fixed: FixedArrays
    ) -> Impulses:
        """What the last substep's constraints moved (sim.core.forces). Each step writes into
        the same arrays, so one record serves until the arrays or the sets that ran change."""
        last = self._impulses
        h = s.dt / s.substeps
        if (
            last is not None
            and last[0] is self._active
            and last[1].is_of(h, links, obstacles, fixed)
        ):
            return last[1]
        bending = [c.moves for c in self._active if isinstance(c, BendingSet)]
        stencils = tuple(stencil for c in self._active for stencil in c.stencils())
        shear = next((c.shear for c in self._active if isinstance(c, ShearSet)), None)
        held = None if shear is None else ShearImpulses(shear.cells, shear.gradient, shear.lambdas)
        impulses = Impulses(h, links, obstacles, fixed, tuple(bending), stencils, held)
        tethers = next((c for c in self._active if isinstance(c, TetherSet)), None)
        if tethers is not None:
            impulses = replace(
                impulses, tether_particle=tethers.particle, tether_anchor=tethers.anchor,
                tether_pulled=tethers.pulled,
            )  # fmt: skip
        self._impulses = (self._active, impulses)
        return impulses

    def report(self) -> SolveReport | None:
        """How the last substep's fabric solve went; None: no set solved."""
        return next((r for c in self._active if (r := c.report()) is not None), None)

    def take_torn(self) -> np.ndarray:
        """Topology indices of links torn by the last steps (the caller marks them dead)."""
        return self.links_set.take_torn()

    def _accelerations(
        self, x: np.ndarray, x_prev: np.ndarray, s: Settings, t: float, h: float
    ) -> None:
        if not s.aerodynamic:
            constraints.classic_acceleration(x, s.gravity, s.wind, t, self._acceleration)
            return
        constraints.classic_acceleration(x, s.gravity, 0.0, t, self._acceleration)
        self._drag_stiffness[:] = 0.0
        surface = self._air
        assert surface is not None  # step() makes it before the first substep
        add = (
            constraints.add_aerodynamic_forces_parallel
            if self._air_parallel
            else constraints.add_aerodynamic_forces
        )
        add(x, x_prev, surface, s.air(t, h), self._acceleration, self._drag_stiffness)
