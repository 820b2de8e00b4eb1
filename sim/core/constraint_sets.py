"""Constraint sets of the extended integrator, and the pure functions that derive them.

A constraint set is switched on by a setting (`enabled`), derives its arrays from the model
(`build`: from the topology, the live links and the pins), may prepare each substep (`begin`)
and corrects positions once per pass (`project`). Each declares what invalidates it
(`depends_on`): tetrahedra depend on the topology only, tethers on links and pins, so a cut
rebuilds the second and not the first. Adding a constraint type is one class here plus its
kernel in sim/core/constraints.py.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, partial
from typing import ClassVar

import numpy as np
import scipy.sparse as sparse

from clothlab.sim.core import constraints, fabric_solve, kernels, multigrid, ordering
from clothlab.sim.core.arrays import LinkArrays, LinkMaterial, Obstacles
from clothlab.sim.core.factor import Factor
from clothlab.sim.core.forces import StencilImpulses
from clothlab.sim.core.materials import Mechanics, longest_substep
from clothlab.sim.core.parameters import LINKS_BY_MULTIGRID, PROJECTIVE, Settings
from clothlab.sim.core.records import (
    Contacts,
    Graph,
    Jacobian,
    LinearStencils,
    LinkMoves,
    Links,
    Particles,
    PathTree,
    ShearCells,
    SparseRows,
    Surface,
    SystemRows,
    prepared,
)
from clothlab.sim.core.topology import Topology

Projections = tuple[Callable[[], object], ...]  # a pass's calls (ConstraintSet.projections)

LINKS, PINS, MATERIALS = "links", "pins", "materials"  # what can invalidate a constraint set
# Pairs are found once per substep, before the passes move particles: search wider than the
# collision distance so that pairs closing in during the passes are already known.
PAIR_SEARCH_MARGIN = 1.5
# The automatic collision distance, as a fraction of the finest rest spacing: more than the
# 0.71 from a square cell's corners to its middle, so that no particle of another layer gets
# through the middle of a cell without coming that close to a corner. (At 0.4, the five layers
# of a folded sheet passed through each other under their weight:
# tests/sim/core/test_self_contact.py.)
# Neighbours joined by a link, a spacing apart at rest, are left to the link (SelfContactSet).
AUTO_COLLISION_FRACTION = 0.75
# Corners around each cell's 0–7 diagonal, as in kernels.cells_volume: six tetrahedra a cell.
_RING = (1, 3, 2, 6, 4, 5)


@dataclass(frozen=True)
class Model:
    """What a constraint set builds from."""

    topology: Topology
    link_alive: np.ndarray  # (M,) bool
    face_alive: np.ndarray  # (F,) bool
    pin_index: np.ndarray  # (P,) int32, pins only (not the grab)
    links: LinkArrays
    mechanics: Mechanics  # the SI bodies' masses and compliances


@dataclass
class Substep:
    """What a projection reads and writes during one substep."""

    x: np.ndarray  # (N, 3) float64, updated in place
    x_prev: np.ndarray  # (N, 3) float64
    inv_mass: np.ndarray  # (N,) float64
    settings: Settings
    h: float  # substep length, s
    material: LinkMaterial  # each live link's stiffness and compliance
    obstacles: Obstacles

    @cached_property
    def particles(self) -> Particles:
        """The particles as the kernels take them: made once a substep, not once a pass (a
        record a call cost a small specimen's hundreds of thousands of passes half their time)."""
        return Particles(self.x, self.x_prev, self.inv_mass)

    @cached_property
    def contacts(self) -> Contacts:
        """The obstacles and the floor as the contact kernels take them, once a substep."""
        return self.obstacles.contacts(self.settings.floor, self.settings.floor_y)


@dataclass(frozen=True)
class SolveReport:
    """How the last substep's fabric solve went, for a readout."""

    iterations: int
    # what it left: the links' largest |C + α̃·λ| over their rest length (the links' solve), or
    # the largest unbalanced force over a particle's weight (the projective solve)
    residual: float
    projective: bool


class ConstraintSet:
    depends_on: ClassVar[frozenset[str]] = frozenset()

    def enabled(self, s: Settings, model: Model) -> bool:
        return True

    def build(self, model: Model) -> None:
        pass

    def begin(self, sub: Substep) -> None:
        pass

    def solve(self, sub: Substep) -> None:
        """A solve of the whole set, once a substep after every set's `begin`."""

    def projections(self, sub: Substep) -> Projections:
        """The calls of one pass over the set, made once a step and repeated every pass of
        its substeps: what changes from one substep to the next they read from arrays the set
        changes in place (or from the set, as they are called)."""
        raise NotImplementedError

    def stencils(self) -> tuple[StencilImpulses, ...]:
        """Its linear constraints and their multipliers after the last substep, for forces."""
        return ()

    def report(self) -> SolveReport | None:
        """How its last solve went (`solve`), if it solves."""
        return None


def solves_fabric(s: Settings, mechanics: Mechanics) -> bool:
    """Whether FabricSet's one solve takes the place of the links' and bending's passes: in a
    run whose every body has an SI fabric, without tethers (which hold the cloth to its rest
    distances from the pins, not to its fabric's) or tearing (which the passes do)."""
    return (
        s.fabric_solver == PROJECTIVE and mechanics.every and not s.tethers
        and not s.tearing
    )  # fmt: skip


def solves_together(s: Settings) -> bool:
    """Whether an SI run's links and cells' shear (and, LinksTogether.shapes_too, its stiff
    bending) are solved together before the passes: not with tethers (LinkSet)."""
    return s.xpbd and not s.tethers


def bends_together(s: Settings) -> bool:
    """Whether an SI run's bending is solved with its links (an SI run is XPBD), so that its
    substeps need not follow its runs' stiffness (materials.substeps_needed)."""
    return LinksTogether.shapes_too and not s.tethers


class LinkSet(ConstraintSet):
    """Every live link: the classic rule, or XPBD with a compliance; tears when overstretched.
    A run with an SI fabric first solves all its links together at each substep (LinksTogether),
    then passes over them; not with tethers, which hold the cloth to its rest distances from
    the pins where the links, solved, stretch as the fabric does: the two would fight."""

    depends_on = frozenset({LINKS, MATERIALS})
    tore = 0  # links torn since take_torn (none before it is built)

    def __init__(self, shear: ShearSet, curvature: CurvatureSet) -> None:
        self.shear, self.curvature = shear, curvature  # solved with the links

    def enabled(self, s: Settings, model: Model) -> bool:
        return not solves_fabric(s, model.mechanics)

    def build(self, model: Model) -> None:
        self.links = model.links
        self.lambdas = np.zeros(model.links.count)  # (L,) float64, per substep
        self.torn = np.zeros(model.links.count, dtype=bool)  # (L,) bool, this step's tears
        self.tore = 0
        self.together = (
            LinksTogether(model.links.count, model.topology.particle_count)
            if model.mechanics.any
            else None
        )
        if self.together is not None:
            self.together.grid_keys = multigrid.grid_keys(model.topology)
        self.passes_bend_within = longest_substep(model.mechanics) if model.mechanics.any else 0.0

    def begin(self, sub: Substep) -> None:
        self.lambdas[:] = 0.0
        self.links.moved[:] = 0.0
        directions = (
            kernels.start_directions_parallel if self.links.parallel else kernels.start_directions
        )
        directions(sub.x_prev, self.links.a, self.links.b, self.links.start)

    def solve(self, sub: Substep) -> None:
        if self.together is not None and solves_together(sub.settings):
            # the bending too where the substep is too long for the passes to bend it
            stiff = sub.h > self.passes_bend_within
            shapes = (self.curvature.runs, self.curvature.twists) if stiff else ()
            by_multigrid = sub.settings.fabric_solver == LINKS_BY_MULTIGRID
            self.together.solve(
                sub, self.links, self.lambdas, self.torn, self.shear.shear, shapes, by_multigrid
            )

    def projections(self, sub: Substep) -> Projections:
        s = sub.settings
        tear_ratio = float(s.tear_ratio) if s.tearing else 0.0
        # colour order on two threads, as the classic kernel chose
        project = (
            constraints.project_links_xpbd_parallel
            if self.links.parallel
            else constraints.project_links_xpbd
        )
        links = self.links.record(sub.material)
        call = prepared(
            project, sub.particles, links, self.lambdas, self.torn, bool(s.xpbd), float(sub.h),
            tear_ratio,
        )  # fmt: skip
        if not tear_ratio:
            return (call,)

        def tearing() -> None:  # the kernel returns how many links it tore
            self.tore += call()

        return (tearing,)

    def report(self) -> SolveReport | None:
        together = self.together
        if together is None or together.rest is None:
            return None
        return SolveReport(together.iterations, together.worst_residual(), projective=False)

    def lambdas_for(self, links: LinkArrays) -> bool:
        """Whether `lambdas` holds the multipliers of these links (built, not stale)."""
        return getattr(self, "links", None) is links

    def take_torn(self) -> np.ndarray:
        """Topology indices of the links torn since the last call."""
        if not self.tore:
            return np.zeros(0, dtype=np.int64)
        self.tore = 0
        return self.links.live[np.flatnonzero(self.torn)]

    def forget_torn(self) -> None:
        """Revive the links torn since the last take_torn (their step was abandoned)."""
        if self.tore:
            self.torn[:] = False
            self.tore = 0


class LinksTogether:
    """The linearised XPBD system of the links (constraints.links_rows), the cells' shear
    conditions (constraints.shear_rows) and the fabric's linear shapes, its bending runs and
    twists (constraints.shape_rows), solved together each substep by conjugate gradients, and
    applied. A stiff fabric needs it: Gauss–Seidel passes carry a correction one link further
    per pass, and a cotton disc 41 particles across drapes as its fabric does only from about
    64 substeps × 64 passes (RESEARCH.md §8); this carries it across the sheet in one solve, so
    the links keep their length at a few passes. The shapes in the same solve (`shapes_too`)
    bend a fine strip without the substeps that passes over its runs need, which grow as the
    spacing's square (materials.substeps_needed).

    With a diagonal preconditioner the iterations grow in proportion to the sheet's width (793,
    2 125 and 4 706 to 10⁻⁶ on a moving cotton sheet of 32², 64² and 128² while the diagonals
    were among the links; 234, 510 and 1 154 without them), so the system is
    preconditioned by itself at the directions of the substep it is made in, inverted through
    the particles' factored system (LinksInverse): 9, 18 and 50 (bench/fabric_solvers.py). A
    preconditioner need not be the system, only near it: the factor is made again when the
    rows change (a link torn, or held at both ends; the shapes rebuilt) or the substep does,
    and when the cloth has turned away from the directions it was made at, by the iterations
    it costs (`refactor_by_average`). A count, not a clock, so that a run's bits do not depend
    on the machine; and not at every change of the pins or grab, only when the solves it
    brings cost more than a factorisation. Stiff bending in the solve makes a factor stale
    within a few substeps (RESEARCH.md §8, "Bending in the links' solve"), so a solve that
    reaches STALE_AFTER iterations starts again from its guess with a factor made where the
    cloth now is.
    """

    factored = True  # False: the diagonal preconditioner, which bench/fabric_solvers.py measures
    # The V-cycle's coarse levels are made again when the solves since they were made have
    # taken this many iterations more than the first of them did: about their cost in cycles.
    # Not on a solve's length alone: a stiff system (the drape at 4 substeps) takes 60
    # iterations with fresh levels too, and remaking them each substep then cost 110 in 6 s
    COARSEN_EXCESS = 20
    # With multigrid, the cloth at rest is solved by the factor: at rest it takes 0–1
    # iterations where a V-cycle takes 2–4, each a third of a cycle's cost (RESEARCH.md §8,
    # "Multigrid in the solve"). The cycle's iterations, averaged over the solves (each solve
    # weighs CALM_WEIGHT), below RESTING_ITERATIONS say the cloth rests (a cycle takes 1–4 at
    # rest from 32² to 160², 5–9 while the cloth moves: bench/fabric_solvers.py). A factor's
    # solve that reaches FACTOR_WORTH iterations, about a moving cloth's cycles in factor
    # solves, says it moves again (the cycle then takes over from its guess), and so do solves
    # that creep up (their iterations past EXPECTED_ITERATIONS past REFACTOR_EXCESS, as for
    # the factor alone). The factor is then dropped, not made again, until the cloth rests
    # once more. Counts, not clocks, as for the factor alone. `factor_at_rest` False: the
    # cycle alone.
    factor_at_rest = True
    RESTING_ITERATIONS = 4.5
    CALM_WEIGHT = 0.05
    FACTOR_WORTH = 15
    shapes_too = True  # False: the shapes left to the passes, which the bench measures
    # The factor alone is made again when the solve it preconditions costs more iterations than
    # the average since it was made, a factorisation counted as FACTOR_COST iterations (24–35
    # on a clamped cotton sheet from 64² to 128², about 40 on the drape specimens): the renewal
    # that keeps the mean cost of a substep least while a factor's solves grow as the cloth
    # turns away from it. A grab begun on a resting sheet makes it once (its solves go from 3
    # iterations to 7, and a factor made then brings them back to 3), not at every move.
    # `refactor_by_average` False: by the excess past EXPECTED_ITERATIONS, as multigrid's
    # factor at rest still is, which the bench measures.
    refactor_by_average = True
    FACTOR_COST = 40
    EXPECTED_ITERATIONS = 10
    REFACTOR_EXCESS = 100
    STALE_AFTER = 40  # a solve this long has a stale factor: it starts again with a fresh one

    def __init__(self, link_count: int, particle_count: int) -> None:
        self.gradient = np.zeros((link_count, 3))  # (L, 3) float64
        self.moves = np.zeros((particle_count, 3))  # (N, 3) float64
        self.iterations = 0  # the last solve's (TOGETHER_MAX_ITERATIONS: it stopped short)
        self.rest: np.ndarray | None = None  # (L,) float64, the last solve's links' (None: none)
        self._shear = NO_SHEAR
        self._shapes: tuple[Stencils, ...] = ()
        self._rows = ShapeRows.of((), particle_count)
        self._resize(link_count)
        # the factor, and the substep and rows it was made for
        self._factor: tuple[Factor | LinksInverse, float, np.ndarray] | None = None
        self._excess = 0  # iterations past EXPECTED_ITERATIONS since it was made
        self._spent = 0  # FACTOR_COST and the iterations since it was made
        self._solves = 0  # the solves since it was made
        self.factorisations = 0  # how many times it was made, for the bench
        self.grid_keys: np.ndarray | None = None  # (N, 3) int64, multigrid.grid_keys
        # the V-cycle, and the rows its pattern was made for; its coarse levels are stale
        self._multigrid: tuple[multigrid.Multigrid, multigrid.Pattern, np.ndarray] | None = None
        self._coarse_stale = True
        self._baseline: int | None = None  # the first solve's iterations after they were made
        self._coarse_excess = 0  # iterations past it since
        self._calm = float(self.FACTOR_WORTH)  # the cycle's iterations, averaged
        self.resting = False  # multigrid's solves are the factor's while the cloth rests

    def _resize(self, link_count: int) -> None:
        rows = link_count + len(self._shear.cells) + 3 * len(self._rows.members)
        # (R,) float64, −Δλ of the links' rows, the cells', then the shapes': the guess, then
        # the solution, which is the next solve's guess (at rest the same system: the answer.
        # The multipliers after the passes are not: contacts move them, so as a guess they cost
        # iterations every substep at rest)
        self.change = np.zeros(rows)
        self.residual = np.zeros(rows)  # (R,) float64
        self.product = np.zeros(rows)  # (R,) float64
        self.alpha = np.zeros(rows)  # (R,) float64, α̃
        self.inverse_diagonal = np.zeros(rows)  # (R,) float64
        self.shear_gradient = np.zeros((len(self._shear.cells), 4, 3))  # (C, 4, 3) float64
        self.rows = SystemRows(self.residual, self.alpha, self.inverse_diagonal)
        self._jacobian: tuple[LinkArrays, Jacobian] | None = None  # jacobian's, for its links

    def solve(
        self,
        sub: Substep,
        links: LinkArrays,
        lambdas: np.ndarray,
        torn: np.ndarray,
        shear: CellShear | None = None,
        shapes: tuple[Stencils, ...] = (),
        by_multigrid: bool = False,
    ) -> None:
        """One solve of the links (their multipliers `lambdas`), the cells' `shear` and the
        `shapes` (theirs in their sets), x moved in place; `by_multigrid`: preconditioned by a
        V-cycle where it can be (_takes_multigrid), else by the factor."""
        shear = NO_SHEAR if shear is None else shear
        if not self.shapes_too:
            shapes = ()
        if (
            shear is not self._shear
            or len(shapes) != len(self._shapes)
            or any(a is not b for a, b in zip(shapes, self._shapes, strict=False))
        ):
            self._shear, self._shapes = shear, shapes
            self._rows = ShapeRows.of(shapes, len(sub.x))
            self._resize(len(links.a))
            self._factor = self._multigrid = None
        h2, shape, first = sub.h * sub.h, self._rows, len(links.a)
        self.rest = links.rest
        particles, jacobian = sub.particles, self.jacobian(links)
        constraints.links_rows(
            particles, links.record(sub.material), torn, lambdas, h2, self.gradient, self.rows
        )
        cells = shear.record._replace(gradient=self.shear_gradient)  # the solve's rows, not ∇C
        constraints.shear_rows(particles, cells, h2, first, self.rows)
        constraints.shape_rows(
            particles, jacobian, shape.compliance, h2, first + len(shear.cells), self.rows
        )
        rows = self.inverse_diagonal > 0.0
        self.change[~rows] = 0.0  # a row left out: its guess too
        self._multiply(sub, links, self.change)
        self.residual -= self.product
        limit = self._limit(links)
        if by_multigrid and self._takes_multigrid(rows):
            self.iterations = self._moving_or_resting_solve(sub, links, rows, limit)
        elif not self.factored:
            self.iterations = self._conjugate_gradients(
                sub, links, self._diagonal, limit, constraints.TOGETHER_MAX_ITERATIONS
            )
        else:
            guess, residual = self.change.copy(), self.residual.copy()
            self.iterations = self._conjugate_gradients(
                sub, links, self._factor_for(sub, links, rows).solve, limit, self.STALE_AFTER
            )
            if self.iterations == self.STALE_AFTER or self._factor_worn():
                self._factor = None
            if self.iterations == self.STALE_AFTER:  # stopped short: again, with a fresh factor
                self.change[:], self.residual[:] = guess, residual
                self.iterations += self._conjugate_gradients(
                    sub, links, self._factor_for(sub, links, rows).solve, limit,
                    constraints.TOGETHER_MAX_ITERATIONS - self.STALE_AFTER,
                )  # fmt: skip
        constraints.apply_together_change(
            particles, jacobian, self.change, lambdas, links.moved, self.moves
        )
        shear.lambdas -= self.change[first : first + len(shear.cells)]
        first += len(shear.cells)
        for stencils, (lo, hi) in zip(shapes, shape.bounds, strict=True):
            stencils.lambdas -= self.change[first + 3 * lo : first + 3 * hi].reshape(-1, 3)

    def _factor_worn(self) -> bool:
        """Whether the factor alone is worth making again after this solve (FACTOR_COST)."""
        if not self.refactor_by_average:
            self._excess += max(0, self.iterations - self.EXPECTED_ITERATIONS)
            return self._excess > self.REFACTOR_EXCESS
        self._spent += self.iterations
        self._solves += 1
        return self.iterations * self._solves > self._spent

    def _takes_multigrid(self, rows: np.ndarray) -> bool:
        """Every particle lies on a grid and every row has a compliance (an inextensible link
        has no particles' system: the factor's)."""
        return self.grid_keys is not None and bool(np.all(self.alpha[rows] > 0.0))

    def _moving_or_resting_solve(
        self, sub: Substep, links: LinkArrays, rows: np.ndarray, limit: np.ndarray
    ) -> int:
        """By the factor while the cloth rests, else by multigrid (factor_at_rest's comment).
        Returns the iterations taken, a factor's that came to nothing included."""
        taken = 0
        if self.resting:
            guess, residual = self.change.copy(), self.residual.copy()
            factor = self._factor_for(sub, links, rows)
            taken = self._conjugate_gradients(sub, links, factor.solve, limit, self.FACTOR_WORTH)
            self._excess += max(0, taken - self.EXPECTED_ITERATIONS)
            solved = taken < self.FACTOR_WORTH
            if not solved or self._excess > self.REFACTOR_EXCESS:  # the cloth moves again
                self.resting, self._factor, self._calm = False, None, float(self.FACTOR_WORTH)
            if solved:
                return taken
            self.change[:], self.residual[:] = guess, residual
        iterations = self._multigrid_solve(sub, links, rows, limit)
        self._calm += self.CALM_WEIGHT * (iterations - self._calm)
        self.resting = self.factor_at_rest and self._calm < self.RESTING_ITERATIONS
        return taken + iterations

    def _multigrid_solve(
        self, sub: Substep, links: LinkArrays, rows: np.ndarray, limit: np.ndarray
    ) -> int:
        """The same answer by way of the particles (bench/preconditioners.py): conjugate
        gradients on P·u = b = Gᵀ·α̃⁻¹·r, P = W⁻¹ + Gᵀ·α̃⁻¹·G, preconditioned by one V-cycle,
        then −Δλ = α̃⁻¹·(r − G·u). The links' residual that −Δλ leaves is G·W·(P·u − b), so the
        solve stops by the links' own test. Returns the iterations taken."""
        cycle = self._multigrid_ready(sub, links, rows)
        jacobian = self.jacobian(links)
        zeros = np.zeros_like(self.residual)  # no α̃·v term: G·moves alone

        def links_residual(left: np.ndarray, out: np.ndarray) -> None:
            """out = −G·W·left, the links' residual of u whose b − P·u is `left`."""
            np.multiply(left, sub.inv_mass[:, None], out=self.moves)
            constraints.gather(self.moves, jacobian, self.rows, zeros, out)
            out *= -1.0

        def over_alpha(v: np.ndarray) -> np.ndarray:
            """(R,) α̃⁻¹·v, 0 on a row left out."""
            return np.divide(v, self.alpha, out=np.zeros_like(v), where=rows)

        scaled = over_alpha(self.residual)
        free = (sub.inv_mass > 0.0).astype(np.float64)
        left = np.zeros_like(self.moves)  # (N, 3) b − P·u, u = 0
        constraints.spread(scaled, jacobian, free, left)
        u, iterations = self._primal_conjugate_gradients(cycle, left, free, links_residual, limit)
        constraints.gather(u, jacobian, self.rows, zeros, self.product)
        self.change += scaled - over_alpha(self.product)
        links_residual(left, self.residual)
        if self._baseline is None:
            self._baseline = iterations
        self._coarse_excess += max(0, iterations - self._baseline)
        self._coarse_stale = self._coarse_excess > self.COARSEN_EXCESS
        return iterations

    def _primal_conjugate_gradients(
        self,
        cycle: multigrid.Multigrid,
        left: np.ndarray,  # (N, 3) float64, b − P·u: in, b; out, what u leaves
        free: np.ndarray,  # (N,) float64, 1 for a particle that moves
        links_residual: Callable[[np.ndarray, np.ndarray], None],
        limit: np.ndarray,  # (R,) float64, each row's tolerance
    ) -> tuple[np.ndarray, int]:
        """(u, iterations) of conjugate gradients on P·u = b from u = 0, until the links'
        residual of u is within `limit` on every row."""
        finest = cycle.finest
        u, z, search, product = (np.zeros_like(left) for _ in range(4))
        last_fit = math.inf
        for taken in range(constraints.TOGETHER_MAX_ITERATIONS):
            links_residual(left, self.product)
            if np.all(np.abs(self.product) <= limit):
                return u, taken
            cycle.cycle(left, z)
            z *= free[:, None]  # a held particle does not move (its row is the identity)
            fit = constraints.dot(left.reshape(-1), z.reshape(-1))
            search *= fit / last_fit
            search += z
            multigrid.multiply(finest.indptr, finest.indices, finest.data, search, product)
            curvature = constraints.dot(search.reshape(-1), product.reshape(-1))
            if curvature <= 0.0:
                return u, taken
            step = fit / curvature
            u += step * search
            left -= step * product
            last_fit = fit
        return u, constraints.TOGETHER_MAX_ITERATIONS

    def _multigrid_ready(
        self, sub: Substep, links: LinkArrays, rows: np.ndarray
    ) -> multigrid.Multigrid:
        """The V-cycle with its finest level P at this substep, its coarse levels made again
        when stale."""
        cycle, pattern = self._multigrid_for(sub, links, rows)
        multigrid.assemble(
            sub.inv_mass, self.jacobian(links), self.rows, pattern.slots, cycle.finest.data
        )
        if self._coarse_stale:
            cycle.coarsen(sub.inv_mass > 0.0)
            self._coarse_stale, self._baseline, self._coarse_excess = False, None, 0
            self.factorisations += 1
        cycle.refresh_finest()
        return cycle

    def _multigrid_for(
        self, sub: Substep, links: LinkArrays, rows: np.ndarray
    ) -> tuple[multigrid.Multigrid, multigrid.Pattern]:
        kept = self._multigrid
        if kept is None or not np.array_equal(kept[2], rows):
            assert self.grid_keys is not None
            pattern = multigrid.Pattern.of(
                len(sub.x), np.stack([links.a, links.b], axis=1), self._shear.cells,
                self._rows.members,
            )  # fmt: skip
            data = np.zeros((len(pattern.indices), 3, 3))
            finest = multigrid.Level(pattern.indptr, pattern.indices, data, self.grid_keys)
            kept = self._multigrid = (multigrid.Multigrid(finest), pattern, rows.copy())
            self._coarse_stale = True
        return kept[0], kept[1]

    def worst_residual(self) -> float:
        """The largest |C + α̃·λ| / rest over the links the last solve left (0: none)."""
        if self.rest is None or not len(self.rest):
            return 0.0
        return float(np.max(np.abs(self.residual[: len(self.rest)]) / self.rest))

    def _diagonal(self, residual: np.ndarray, out: np.ndarray) -> None:
        np.multiply(self.inverse_diagonal, residual, out=out)

    def _factor_for(
        self, sub: Substep, links: LinkArrays, rows: np.ndarray
    ) -> Factor | LinksInverse:
        kept = self._factor
        if kept is None or kept[1] != sub.h or not np.array_equal(kept[2], rows):
            n = len(sub.x)
            g = sparse.vstack([
                links_gradient(self.gradient, links.a, links.b, n),
                rows_gradient(self._shear.cells, self.shear_gradient, n),
                self._rows.matrix,
            ]).tocsr()  # fmt: skip
            made: Factor | LinksInverse
            if np.all(self.alpha[rows] > 0.0):
                made = LinksInverse(g, sub.inv_mass, self.alpha, rows)
            else:  # an inextensible link: only the system itself can be factored
                made = Factor(together_system(g, sub.inv_mass, self.alpha, rows))
            kept = self._factor = (made, sub.h, rows)
            self._excess, self._spent, self._solves = 0, self.FACTOR_COST, 0
            self.factorisations += 1
        return kept[0]

    def jacobian(self, links: LinkArrays) -> Jacobian:
        """G's rows as the kernels take them: the links', the cells' shear, the shapes'. Made
        once for these links and rows (_resize forgets it), not at every product of a solve."""
        kept = self._jacobian
        if kept is None or kept[0] is not links:
            shape = self._rows
            made = Jacobian(
                self.gradient,
                links.a,
                links.b,
                self._shear.cells,
                self.shear_gradient,
                shape.members,
                shape.gradient,
            )
            kept = self._jacobian = (links, made)
        return kept[1]

    def _multiply(self, sub: Substep, links: LinkArrays, v: np.ndarray) -> None:
        """product = (G·W·Gᵀ + α̃)·v"""
        constraints.multiply_together(
            v, self.jacobian(links), sub.inv_mass, self.rows, self.moves, self.product
        )

    def _limit(self, links: LinkArrays) -> np.ndarray:
        """(R,) float64: each row's tolerance, TOGETHER_TOLERANCE of its length (a link's rest
        length; a shape's, the mean link's) or of its angle (a cell's shear)."""
        limit = np.empty_like(self.residual)
        limit[: len(links.a)] = constraints.TOGETHER_TOLERANCE * links.rest
        first = len(links.a) + len(self._shear.cells)
        limit[len(links.a) : first] = constraints.TOGETHER_TOLERANCE  # a cell's C is an angle
        if len(limit) > first:  # shapes
            limit[first:] = constraints.TOGETHER_TOLERANCE * links.rest.mean()
        return limit

    def _conjugate_gradients(
        self,
        sub: Substep,
        links: LinkArrays,
        precondition: Callable[[np.ndarray, np.ndarray], None],
        limit: np.ndarray,
        most: int,
    ) -> int:
        """Conjugate gradients from `change` and its `residual` until every row's residual is
        within its limit; returns the iterations taken (`most`: it stopped short)."""
        change, residual, product = self.change, self.residual, self.product
        preconditioned, search = np.zeros_like(residual), np.zeros_like(residual)
        last_fit = math.inf  # the first search direction keeps nothing of the (zero) last
        for iterations in range(most):
            if np.all(np.abs(residual) <= limit):
                return iterations
            precondition(residual, preconditioned)
            fit = constraints.dot(residual, preconditioned)
            search *= fit / last_fit
            search += preconditioned
            self._multiply(sub, links, search)
            curvature = constraints.dot(search, product)
            if curvature <= 0.0:
                return iterations
            step = fit / curvature
            change += step * search
            residual -= step * product
            last_fit = fit
        return most


@dataclass(frozen=True)
class ShapeRows:
    """Linear shapes of several kinds (Stencils) as rows of one system with the links: their
    members, and G's rows −c_m (the links' rows are −∇C too: constraints.links_rows), padded
    to the widest kind (a padded member has 0), and G's rows as a matrix, three rows a shape
    (x, y, z), for the preconditioner."""

    members: np.ndarray  # (K, M) int32
    gradient: np.ndarray  # (K, M) float64, −c_m
    compliance: np.ndarray  # (K,) float64
    bounds: tuple[tuple[int, int], ...]  # each kind's shapes [lo, hi)
    matrix: sparse.csr_matrix  # (3K, 3N)

    @classmethod
    def of(cls, shapes: tuple[Stencils, ...], particle_count: int) -> ShapeRows:
        width = max((s.members.shape[1] for s in shapes), default=1)
        members = np.zeros((0, width), dtype=np.int32)
        gradient = np.zeros((0, width))
        pads = [(s.members, s.coefficients, width - s.members.shape[1]) for s in shapes]
        if pads:
            members = np.concatenate([np.pad(m, ((0, 0), (0, p)), mode="edge") for m, _, p in pads])
            gradient = -np.concatenate([np.pad(c, ((0, 0), (0, p))) for _, c, p in pads])
        sizes = np.cumsum([0] + [len(s.members) for s in shapes])
        # as scalar rows: row 3k + c moves each member along axis c by its entry
        per_axis = gradient[:, None, :, None] * np.eye(3)[None, :, None, :]  # (K, 3, M, 3)
        matrix = rows_gradient(
            np.repeat(members, 3, axis=0), per_axis.reshape(-1, width, 3), particle_count
        )
        matrix.eliminate_zeros()
        return cls(
            np.ascontiguousarray(members), np.ascontiguousarray(gradient),
            np.concatenate([np.zeros(0)] + [s.compliance for s in shapes]),
            tuple(zip(sizes[:-1].tolist(), sizes[1:].tolist(), strict=True)), matrix,
        )  # fmt: skip


def links_gradient(
    gradient: np.ndarray,  # (L, 3) float64, G's rows (constraints.links_rows)
    link_a: np.ndarray,  # (L,) int32
    link_b: np.ndarray,  # (L,) int32
    particle_count: int,
) -> sparse.csr_matrix:
    """(L, 3N) G: a link's row moves its first end along +gradient and its second along
    −gradient (constraints.multiply_together)."""
    ends = np.stack([link_a, link_b], axis=1)
    return rows_gradient(ends, np.stack([gradient, -gradient], axis=1), particle_count)


def rows_gradient(
    members: np.ndarray,  # (C, M) int32
    gradient: np.ndarray,  # (C, M, 3) float64, each member's row entries
    particle_count: int,
) -> sparse.csr_matrix:
    """(C, 3N) G of scalar rows over several particles each (a link's, a cell's shear, a
    shape's axis)."""
    columns = 3 * members[:, :, None] + np.arange(3)
    rows = np.broadcast_to(np.arange(len(members))[:, None, None], columns.shape)
    return sparse.csr_matrix(
        (gradient.ravel(), (rows.ravel(), columns.ravel())),
        shape=(len(members), 3 * particle_count),
    )


def together_system(
    g: sparse.csr_matrix,  # (R, 3N) G
    inv_mass: np.ndarray,  # (N,) float64
    alpha: np.ndarray,  # (R,) float64, α̃ = α / h²
    rows: np.ndarray,  # (R,) bool, the rows in the system; the others are identity rows
) -> sparse.csr_matrix:
    """(R, R): G·W·Gᵀ + α̃."""
    g = sparse.diags(rows.astype(float)) @ g
    system = g @ sparse.diags(np.repeat(inv_mass, 3)) @ g.T
    return (system + sparse.diags(np.where(rows, alpha, 1.0))).tocsr()


class LinksInverse:
    """(G·W·Gᵀ + α̃)⁻¹ applied through the particles' system, by Woodbury's identity:
    α̃⁻¹·r − α̃⁻¹·G·P⁻¹·Gᵀ·α̃⁻¹·r with P = W⁻¹ + Gᵀ·α̃⁻¹·G over the free particles'
    coordinates. With the diagonals among the links it was the cheaper inverse, 409 ms to make
    and 9.4 ms an iteration at 128² against the links' own 1 146 and 19 ms; without them the
    links' own is (66 and 20 ms against 81 and 41: bench/fabric_solvers.py --part system), but
    in the whole solve, cells' rows and all, neither wins (RESEARCH.md §8). Needs every row's
    α̃ > 0 (a fabric's links, cells and shapes have a compliance); rows left out of the system
    are identity rows."""

    def __init__(
        self,
        g: sparse.csr_matrix,  # (R, 3N) G
        inv_mass: np.ndarray,  # (N,) float64
        alpha: np.ndarray,  # (R,) float64, > 0 on every row
        rows: np.ndarray,  # (R,) bool
    ) -> None:
        free = np.repeat(inv_mass > 0.0, 3)
        g = g[rows][:, free]
        self.rows = rows
        self.inverse_alpha = 1.0 / alpha[rows]  # (R',) float64
        self.g, self.g_t = g.tocsr(), g.T.tocsr()
        masses = sparse.diags(1.0 / np.repeat(inv_mass, 3)[free])
        self.factor = Factor(masses + self.g_t @ sparse.diags(self.inverse_alpha) @ self.g)
        self._moves = np.zeros(self.g.shape[1])  # (3F,) float64
        # the same products in two kernels: scipy's `@` costs 9 µs a call besides its work,
        # a quarter of an iteration on a drape specimen 31 across
        self._row_index = np.flatnonzero(rows)  # (R',) int64
        self._g, self._g_t = SparseRows.of(self.g), SparseRows.of(self.g_t)
        self._scaled = np.zeros(len(self._row_index))  # (R',) float64
        self._rhs = np.zeros(self.g.shape[1])  # (3F,) float64

    def solve(self, residual: np.ndarray, out: np.ndarray) -> None:
        ends = (self._row_index, self.inverse_alpha)
        constraints.woodbury_right_side(residual, *ends, self._g_t, self._scaled, self._rhs)
        self.factor.solve(self._rhs, self._moves)
        constraints.woodbury_answer(residual, *ends, self._g, self._scaled, self._moves, out)


class BendingSet(ConstraintSet):
    depends_on = frozenset({LINKS})

    def enabled(self, s: Settings, model: Model) -> bool:
        return s.bending

    def __init__(self) -> None:
        self._candidates: tuple[Topology, BendCandidates] | None = None  # of the topology

    def build(self, model: Model) -> None:
        if self._candidates is None or self._candidates[0] is not model.topology:
            self._candidates = (model.topology, BendCandidates.of(model.topology))
        a, b, rest = self._candidates[1].live(model.link_alive)
        # In colour order, split over the threads where the links are: in the topology's
        # order each projection waited on the one before (24 M a second at 128², 0.6× real
        # time), while independent ones overlap.
        order, colour_start = ordering.colour_order(a, b, model.topology.particle_count)
        self.a, self.b, self.rest = a[order], b[order], rest[order]
        self.runs, self.run_start = ordering.link_runs(self.a, self.b, colour_start)
        self.parallel = model.links.parallel
        self.lambdas = np.zeros(len(self.rest))  # (B,) float64
        self.moved = np.zeros(len(self.rest))  # (B,) float64, for sim.core.forces
        self.never_torn = np.zeros(len(self.rest), dtype=bool)  # (B,) bool
        self.unused = np.ones(len(self.rest))  # (B,) float64: the classic rule's stiffness
        self.compliance = np.zeros(len(self.rest))  # (B,) float64
        self.start = np.zeros((len(self.rest), 3))  # (B, 3) float64, start_directions
        self.links = Links(
            self.a,
            self.b,
            self.runs,
            self.run_start,
            self.rest,
            self.unused,
            self.compliance,
            self.start,
            self.moved,
        )

    @property
    def moves(self) -> LinkMoves:
        """What the last substep's passes moved, for the forces."""
        return LinkMoves(self.a, self.b, self.start, self.moved)

    def begin(self, sub: Substep) -> None:
        self.lambdas[:] = 0.0
        self.moved[:] = 0.0
        self.compliance[:] = sub.settings.bend_compliance
        directions = (
            kernels.start_directions_parallel if self.parallel else kernels.start_directions
        )
        directions(sub.x_prev, self.a, self.b, self.start)

    def projections(self, sub: Substep) -> Projections:
        project = (
            constraints.project_links_xpbd_parallel
            if self.parallel
            else constraints.project_links_xpbd
        )
        links = (self.links, self.lambdas, self.never_torn, True, float(sub.h), 0.0)
        return (prepared(project, sub.particles, *links),)


class TetherSet(ConstraintSet):
    """`tethers(model)`, kept up to date as links tear or are cut: a tether must never hold a
    particle nearer its pin than its distance along the live links, and removing links
    lengthens exactly the paths that went through them. So the set keeps the shortest-path
    trees from the pins and, when links only died since the last build, finds again the
    paths of the particles below them in a tree (`repair_path_trees`) instead of every path.
    Anything else (pins changed, links restored, the first cut of an uncut sheet, whose
    tethers are straight rest distances) builds afresh."""

    depends_on = frozenset({LINKS, PINS})

    def __init__(self) -> None:
        self._topology: Topology | None = None
        self._adjacency: Adjacency | None = None
        self._trees: PathTrees | None = None  # None: no trees (uncut sheet, or no pins)
        self._pins = np.zeros(0, dtype=np.int32)  # (P,) int32, what it was built for
        self._alive = np.zeros(0, dtype=bool)  # (M,) bool
        self.repaired = 0  # particles whose paths the last build found again (0: afresh)

    def enabled(self, s: Settings, model: Model) -> bool:
        return s.tethers

    def build(self, model: Model) -> None:
        alive, pins = model.link_alive, model.pin_index
        if self._topology is not model.topology:
            self._topology, self._adjacency = model.topology, link_adjacency(model.topology)
            self._trees = None
        elif not np.array_equal(self._pins, pins):
            self._trees = None
        self.repaired = 0
        trees, adjacency = self._trees, self._adjacency
        assert adjacency is not None  # built with the model
        if trees is not None and not (alive & ~self._alive).any():  # links only died
            removed = np.flatnonzero(self._alive & ~alive)
            if len(removed):
                self.repaired = repair_path_trees(trees, model, adjacency, removed)
            if self.repaired:  # else no path used a removed link: every tether stands
                self.particle, self.anchor, self.length = tethers_from_trees(model, trees)
        elif len(pins) and not alive.all():
            self._trees = path_trees(model, adjacency)
            self.particle, self.anchor, self.length = tethers_from_trees(model, self._trees)
        else:
            self._trees = None
            self.particle, self.anchor, self.length = tethers(model)
        self._pins, self._alive = pins.copy(), alive.copy()
        self.pulled = np.zeros(len(self.particle))  # (T,) float64, per substep
        # On the links' threads when they have two: chunks that split no particle's tethers.
        self.bounds = tether_chunks(self.particle, TETHER_CHUNKS if model.links.parallel else 1)

    def begin(self, sub: Substep) -> None:
        self.pulled[:] = 0.0

    def projections(self, sub: Substep) -> Projections:
        tethers = (sub.x, sub.inv_mass, self.particle, self.anchor, self.length, self.pulled)
        if len(self.bounds) > 2:
            return (prepared(constraints.project_tethers_parallel, *tethers, self.bounds),)
        return (prepared(constraints.project_tethers, *tethers),)


class VolumeSet(ConstraintSet):
    """The blocks' tetrahedra back to their rest volume (keep volume), or only those squashed
    inside out back to zero (cells right side out)."""

    def enabled(self, s: Settings, model: Model) -> bool:
        return s.volume_constraint or s.upright_cells

    def build(self, model: Model) -> None:
        self.tets, self.rest = block_tetrahedra(model.topology)

    def projections(self, sub: Substep) -> Projections:
        inverted_only = not sub.settings.volume_constraint
        volumes = (sub.x, sub.inv_mass, self.tets, self.rest, inverted_only)
        return (prepared(constraints.project_volumes, *volumes),)


class SelfContactSet(ConstraintSet):
    """Particles that come close are pushed apart; pairs are found once per substep. Two
    particles joined by a link are left to it: its constraint keeps them apart (a cut or torn
    one no longer does, and they become pairs).

    The pairs are projected in three groups (constraints.group_pairs): those within one half
    of the cloth at rest, those within the other, those across. Where the links run on two
    threads, so do the first two groups, with the same bits as on one. The halves are cut
    across the cloth's longest extent at rest: a sheet hung from its top corners crumples at
    its bottom and folds along its height, so that of a 128 × 128 sheet's 15 000 pairs 63 were
    across its left and right halves, and 13 000 were in the bottom half of its rows."""

    depends_on = frozenset({LINKS})

    def __init__(self) -> None:
        self._topology: Topology | None = None  # what the arrays below were made for

    def enabled(self, s: Settings, model: Model) -> bool:
        return s.self_collision

    def build(self, model: Model) -> None:
        topology = model.topology
        self.parallel = model.links.parallel  # two threads are worth it where the links' are
        if self._topology is not topology:  # all but which links live is the topology's
            self._topology, self._links = topology, link_adjacency(topology)
            self.rest_positions = rest_positions = topology.rest_positions
            rest = topology.rest_lengths
            self.spacing = float(rest[rest > 0].min()) if (rest > 0).any() else 0.2
            along = rest_positions[:, np.argmax(np.ptp(rest_positions, axis=0))]
            self.side = along > np.median(along)  # (N,) bool, the half each particle is in
            self._grow(4 * topology.particle_count + 16)
        links = self._links
        self.linked = (links.offsets, links.neighbour, links.via, model.link_alive)
        self.count = 0

    def _grow(self, rows: int) -> None:
        self.found = np.zeros((rows, 2), dtype=np.int32)  # (P, 2) int32, as the search found
        self.found_targets = np.zeros(rows)  # (P,) float64
        self.pairs = np.zeros((rows, 2), dtype=np.int32)  # (P, 2) int32, in groups
        self.targets = np.zeros(rows)  # (P,) float64

    def distance(self, s: Settings) -> float:
        return s.collision_distance or AUTO_COLLISION_FRACTION * self.spacing

    def begin(self, sub: Substep) -> None:
        distance = self.distance(sub.settings)
        while True:
            self.count = constraints.find_close_pairs(
                sub.x, self.rest_positions, PAIR_SEARCH_MARGIN * distance, distance,
                self.linked, self.found, self.found_targets,
            )  # fmt: skip
            if self.count <= len(self.found):
                break
            self._grow(2 * self.count)
        self.groups = constraints.group_pairs(
            self.found, self.found_targets, self.count, self.side, self.pairs, self.targets
        )

    def projections(self, sub: Substep) -> Projections:
        return (partial(self._project, sub),)  # the pairs are found again every substep

    def _project(self, sub: Substep) -> None:
        if not self.count:
            return
        if self.parallel:
            constraints.project_pairs_parallel(
                sub.x, sub.inv_mass, self.pairs, self.targets, self.count, self.groups
            )
        else:
            constraints.project_pairs(sub.x, sub.inv_mass, self.pairs, self.targets, self.count)


class ContactSet(ConstraintSet):
    """Ball and floor, after every pass; with Coulomb friction when a coefficient is set."""

    depends_on = frozenset({LINKS})  # whether the threads are worth it follows the links

    def build(self, model: Model) -> None:
        self.parallel = model.links.parallel

    def begin(self, sub: Substep) -> None:
        sub.obstacles.pushed[:] = 0.0

    def projections(self, sub: Substep) -> Projections:
        s = sub.settings
        # friction reads each particle's own motion only, so the threads may split it too
        collide = kernels.collide_parallel if self.parallel else kernels.collide
        friction = (float(s.friction_static), float(s.friction_kinetic))
        return (prepared(collide, sub.particles, sub.contacts, *friction),)


class Stencils:
    """Linear constraints C = Σ c_m·x_m of one kind (constraints.project_stencils_xpbd)."""

    def __init__(
        self, members: np.ndarray, coefficients: np.ndarray, compliance: np.ndarray
    ) -> None:
        self.members = np.ascontiguousarray(members, dtype=np.int32)  # (K, M) int32
        self.coefficients = np.ascontiguousarray(coefficients, dtype=np.float64)  # (K, M)
        self.compliance = np.ascontiguousarray(compliance, dtype=np.float64)  # (K,) float64
        self.lambdas = np.zeros((len(members), 3))  # (K, 3) float64, per substep

        self.record = LinearStencils(self.members, self.coefficients, self.compliance, self.lambdas)

    def projections(self, sub: Substep) -> Projections:
        if not len(self.members):
            return ()
        project = constraints.project_stencils_xpbd
        return (prepared(project, sub.particles, self.record, float(sub.h)),)


class CellShear:
    """Cells held square by their shear conditions (constraints.project_cell_shear)."""

    def __init__(self, cells: np.ndarray, coefficients: np.ndarray, compliance: np.ndarray) -> None:
        self.cells = np.ascontiguousarray(cells, dtype=np.int32)  # (C, 4) int32
        self.coefficients = np.ascontiguousarray(coefficients, dtype=np.float64)  # (C, 2, 4)
        self.compliance = np.ascontiguousarray(compliance, dtype=np.float64)  # (C,) float64
        self.lambdas = np.zeros(len(cells))  # (C,) float64, per substep
        self.gradient = np.zeros((len(cells), 4, 3))  # (C, 4, 3) float64, ∇C as last projected

        self.record = ShearCells(
            self.cells, self.coefficients, self.compliance, self.lambdas, self.gradient
        )

    def projections(self, sub: Substep) -> Projections:
        if not len(self.cells):
            return ()
        project = constraints.project_cell_shear
        return (prepared(project, sub.particles, self.record, float(sub.h)),)


# No cells (one object: a solve compares its sets by identity to know its layout still holds)
NO_SHEAR = CellShear(np.zeros((0, 4)), np.zeros((0, 2, 4)), np.zeros(0))


class ShearSet(ConstraintSet):
    """The shear of SI-material bodies: each cell whose links live held square by its shear
    condition, α = 1/(G·A_cell) (sim.core.materials); their diagonals hold nothing."""

    depends_on = frozenset({LINKS, MATERIALS})

    def __init__(self) -> None:
        self.shear = NO_SHEAR

    def enabled(self, s: Settings, model: Model) -> bool:
        return model.mechanics.any and not solves_fabric(s, model.mechanics)

    def build(self, model: Model) -> None:
        m = model.mechanics
        live = model.link_alive[m.cell_links].all(axis=1)
        self.shear = CellShear(
            m.cells[live], m.cell_gradient[live], 2.0 / m.cell_shear_weight[live]
        )

    def begin(self, sub: Substep) -> None:
        self.shear.lambdas[:] = 0.0

    def projections(self, sub: Substep) -> Projections:
        return self.shear.projections(sub)


TWIST = (1.0, -1.0, 1.0, -1.0)  # x_00 − x_01 + x_11 − x_10 (a run's: Mechanics.curve_coefficients)


class CurvatureSet(ConstraintSet):
    """The bending of SI-material bodies (sim.core.materials): one curvature constraint per
    straight run of three particles along a warp or weft line whose two links live, and one
    twist constraint per cell whose four sides live."""

    depends_on = frozenset({LINKS, MATERIALS, PINS})

    def __init__(self) -> None:
        self.runs = Stencils(np.zeros((0, 3)), np.zeros((0, 3)), np.zeros(0))
        self.twists = Stencils(np.zeros((0, 4)), np.zeros((0, 4)), np.zeros(0))

    def enabled(self, s: Settings, model: Model) -> bool:
        return not solves_fabric(s, model.mechanics)

    def build(self, model: Model) -> None:
        m, alive = model.mechanics, model.link_alive
        live = alive[m.curve_links].all(axis=1)
        runs = m.curves[live]
        compliance = clamped(runs, m.curve_compliance[live], model.pin_index)
        self.runs = Stencils(runs, m.curve_coefficients[live], compliance)
        live = alive[m.twist_links].all(axis=1)
        twists = m.twists[live]
        self.twists = Stencils(twists, np.tile(TWIST, (len(twists), 1)), m.twist_compliance[live])

    def begin(self, sub: Substep) -> None:
        self.runs.lambdas[:] = 0.0
        self.twists.lambdas[:] = 0.0

    def projections(self, sub: Substep) -> Projections:
        return self.runs.projections(sub) + self.twists.projections(sub)

    def stencils(self) -> tuple[StencilImpulses, ...]:
        return tuple(
            StencilImpulses(s.members, s.coefficients, s.lambdas)
            for s in (self.runs, self.twists)
            if len(s.members)
        )


class FabricSet(ConstraintSet):
    """The SI fabric's stretch, shear, bending and twist solved together at the start of
    each substep (sim.core.fabric_solve), in place of the links' and the runs' passes; the
    passes then carry the contacts. Its matrix is factored again only when the links, pins,
    grab, materials or substep length change."""

    depends_on = frozenset({LINKS, MATERIALS, PINS})

    def __init__(self) -> None:
        self.projective: fabric_solve.ProjectiveSolve | None = None

    def enabled(self, s: Settings, model: Model) -> bool:
        return solves_fabric(s, model.mechanics)

    def build(self, model: Model) -> None:
        m, alive, links = model.mechanics, model.link_alive, model.links
        runs = alive[m.curve_links].all(axis=1)
        twists = alive[m.twist_links].all(axis=1)
        cells = alive[m.cell_links].all(axis=1)
        twist_coefficients = np.tile(TWIST, (int(twists.sum()), 1))
        self.energy = fabric_solve.fabric_energy(
            model.topology.rest_positions,
            (links.a, links.b, m.side_stiffness[links.live]),
            [
                (m.curves[runs], m.curve_coefficients[runs],
                 clamped(m.curves[runs], m.curve_compliance[runs], model.pin_index)),
                (m.twists[twists], twist_coefficients, m.twist_compliance[twists]),
            ],
            (m.cells[cells], m.cell_gradient[cells], m.cell_shear_weight[cells]),
        )  # fmt: skip
        self.mass, self.links = m.mass, links
        first = self.energy.spring_count  # the stencils past the springs: forces by multiplier
        self.shapes = StencilImpulses(
            self.energy.members[first:], self.energy.coefficients[first:],
            np.zeros((len(self.energy.weight) - first, 3)),
        )  # fmt: skip
        self.projective = None

    def solve(self, sub: Substep) -> None:
        solve = self.projective
        if solve is None or solve.h != sub.h or solve.inv_mass is not sub.inv_mass:
            solve = self.projective = fabric_solve.ProjectiveSolve(
                self.energy, self.mass, sub.inv_mass, sub.h
            )
        solve.solve(sub.x)
        links, e = self.links, self.energy
        fabric_solve.link_pulls(
            sub.x, links.a, links.b, e.springs, e.weight, e.size, sub.h, links.start,
            links.moved,
        )  # fmt: skip
        first = e.spring_count
        fabric_solve.stencil_pulls(
            sub.x, e.members[first:], e.coefficients[first:], e.weight[first:], e.kind[first:],
            e.size[first:], sub.h, self.shapes.lambdas,
        )  # fmt: skip

    def projections(self, sub: Substep) -> Projections:
        return ()

    def stencils(self) -> tuple[StencilImpulses, ...]:
        return (self.shapes,) if len(self.shapes.members) else ()

    def report(self) -> SolveReport | None:
        solve = self.projective
        return None if solve is None else SolveReport(solve.iterations, solve.residual, True)


def clamped(curves: np.ndarray, compliance: np.ndarray, pins: np.ndarray) -> np.ndarray:
    """(K,) float64: the runs' compliances, halved where a run ends at a clamp (its middle and
    one end pinned). The cloth is straight on the clamp's side and curved on the other, so
    x_l − 2·x_i + x_r sees half the curvature there: halving α gives that segment the energy
    ½·B·κ² of the curved half alone (without it a cantilever droops too far by O(spacing))."""
    pinned = np.zeros(int(curves.max(initial=-1)) + 1, dtype=bool)
    pinned[pins[pins < len(pinned)]] = True
    ends = pinned[curves[:, 0]].astype(int) + pinned[curves[:, 2]]
    at_clamp = pinned[curves[:, 1]] & (ends == 1)
    return np.ascontiguousarray(np.where(at_clamp, 0.5 * compliance, compliance))


def constraint_sets() -> list[ConstraintSet]:
    """A fresh set of each kind, in the order the passes visit them."""
    shear, curvature = ShearSet(), CurvatureSet()
    return [
        LinkSet(shear, curvature), FabricSet(), shear, curvature, BendingSet(), TetherSet(),
        VolumeSet(), SelfContactSet(), ContactSet(),
    ]  # fmt: skip


# --- derived constraint sets (pure functions of topology, live links and pins) ---------------


@dataclass(frozen=True, eq=False)
class BendCandidates:
    """Every bending link a topology can have (all links live), with the two links each
    spans: a cut or a tear then drops bending links by a mask, not by building them again."""

    a: np.ndarray  # (B,) int32, across then down, sheet by sheet, row-major
    b: np.ndarray  # (B,) int32
    rest: np.ndarray  # (B,) float64
    spans: np.ndarray  # (2, B) int64, the topology links between a and the middle and b

    @classmethod
    def of(cls, topology: Topology) -> BendCandidates:
        a_parts, b_parts, first, second = [], [], [], []
        for grid in topology.sheets:
            cols, rows = grid.cols, grid.rows
            index = np.arange(cols * rows).reshape(rows, cols) + grid.first_particle
            n_across = (cols - 1) * rows
            across = grid.first_link + np.arange(n_across).reshape(rows, cols - 1)
            down = grid.first_link + n_across + np.arange(cols * (rows - 1)).reshape(rows - 1, cols)
            a_parts += [index[:, :-2].ravel(), index[:-2, :].ravel()]
            b_parts += [index[:, 2:].ravel(), index[2:, :].ravel()]
            first += [across[:, :-1].ravel(), down[:-1, :].ravel()]
            second += [across[:, 1:].ravel(), down[1:, :].ravel()]
        a, b = (
            np.concatenate(p).astype(np.int32) if p else np.zeros(0, np.int32)
            for p in (a_parts, b_parts)
        )
        spans = np.zeros((2, 0), np.int64)
        if first:
            spans = np.stack([np.concatenate(first), np.concatenate(second)]).astype(np.int64)
        rest_positions = topology.rest_positions
        rest = np.linalg.norm(rest_positions[b] - rest_positions[a], axis=1)
        return cls(a=a, b=b, rest=rest, spans=spans)

    def live(self, link_alive: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        keep = link_alive[self.spans[0]] & link_alive[self.spans[1]]
        return self.a[keep], self.b[keep], self.rest[keep]


TETHERS_PER_PARTICLE = 4  # nearest pins only: a curtain has a pin per column
# A pin nearer a taken one than this share of the taken one's distance gives no tether: the
# particle's tethers spread over the clamps around it (constraints.nearest_tethers)
TETHER_SPREAD = 0.5
TETHER_CHUNKS = 4  # the tethers' share of work on two threads: two chunks each
_PATH_PINS = 8  # path trees of a cut sheet at most: more pins are grouped (pin_groups)
_CHUNK = 4096  # particles per block of the distance table, to bound memory


@dataclass(frozen=True, eq=False)
class Adjacency:
    """Each particle's links, for walking the cloth: particle i's are entries
    offsets[i]:offsets[i + 1]. Of the topology, dead links included (kernels skip them)."""

    offsets: np.ndarray  # (N + 1,) int64
    neighbour: np.ndarray  # (2M,) int32, the particle at the link's other end
    via: np.ndarray  # (2M,) int64, the topology link

    def graph(self, weight: np.ndarray, alive: np.ndarray) -> Graph:
        """With each link's `weight` ((M,) float64) and whether it lives ((M,) bool)."""
        return Graph(self.offsets, self.neighbour, self.via, weight, alive)


def link_adjacency(topology: Topology) -> Adjacency:
    return adjacency(topology.links, topology.particle_count)


def adjacency(ends: np.ndarray, n: int) -> Adjacency:
    """The Adjacency of n particles joined by the links `ends` ((M, 2) particle pairs)."""
    m = len(ends)
    start = np.concatenate([ends[:, 0], ends[:, 1]])
    order = np.argsort(start, kind="stable")
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(start, minlength=n), out=offsets[1:])
    return Adjacency(
        offsets=offsets,
        neighbour=np.ascontiguousarray(np.concatenate([ends[:, 1], ends[:, 0]])[order]),
        via=np.ascontiguousarray(np.tile(np.arange(m, dtype=np.int64), 2)[order]),
    )


@dataclass(frozen=True, eq=False)
class PathTrees:
    """Shortest paths over the live links from the pins: a tree per pin (up to _PATH_PINS
    pins), or a tree per group of pins (`pin_groups`; more pins), from whichever pin of the
    group is nearest. Updated in place as links die (`repair_path_trees`)."""

    length: np.ndarray  # (R, N) float64, along the cloth at rest; inf: unreachable
    parent_link: np.ndarray  # (R, N) int64, the link each path arrives by; -1 at a pin or none
    origin: np.ndarray  # (R, N) int64, the pin each path starts at; -1 where unreachable

    def tree(self, r: int) -> PathTree:
        """Tree r, its rows of the arrays (views: writing it writes them)."""
        return PathTree(self.length[r], self.parent_link[r], self.origin[r])


def path_trees(model: Model, adjacency: Adjacency) -> PathTrees:
    pins = np.ascontiguousarray(model.pin_index, dtype=np.int32)
    sources = (
        [pins[k : k + 1] for k in range(len(pins))]
        if len(pins) <= _PATH_PINS
        else pin_groups(model.topology.rest_positions, pins, _PATH_PINS)
    )
    n = model.topology.particle_count
    trees = PathTrees(
        length=np.empty((len(sources), n)),
        parent_link=np.empty((len(sources), n), dtype=np.int64),
        origin=np.empty((len(sources), n), dtype=np.int64),
    )
    graph = adjacency.graph(model.topology.rest_lengths, model.link_alive)
    for r, start in enumerate(sources):
        constraints.shortest_paths(graph, start, trees.tree(r))
    return trees


def pin_groups(rest: np.ndarray, pins: np.ndarray, count: int) -> list[np.ndarray]:
    """`pins` ((P,) int32) in `count` groups of pins near each other at rest: the first pin and
    then, each in turn, the pin farthest from those chosen head a group, and every pin joins the
    nearest head. A clamp of pins at each corner of a sheet gives groups within each clamp, none
    across, so a particle's tethers can reach both clamps (TETHER_SPREAD)."""
    where = rest[pins]  # (P, 3)
    heads = [0]
    nearest = np.linalg.norm(where - where[0], axis=1)  # (P,) to the nearest head
    while len(heads) < count:
        heads.append(int(np.argmax(nearest)))
        nearest = np.minimum(nearest, np.linalg.norm(where - where[heads[-1]], axis=1))
    group = np.argmin(np.linalg.norm(where[:, None, :] - where[None, heads, :], axis=2), axis=1)
    return [pins[group == g] for g in range(count)]


def repair_path_trees(
    trees: PathTrees, model: Model, adjacency: Adjacency, removed: np.ndarray
) -> int:
    """Bring the trees up to date after the links `removed` ((K,) int64) died (and none came
    back); returns how many particle paths went through them and were found again."""
    graph = adjacency.graph(model.topology.rest_lengths, model.link_alive)
    ends = model.topology.links
    return sum(
        constraints.repair_shortest_paths(graph, ends, removed, trees.tree(r))
        for r in range(trees.length.shape[0])
    )


def tethers_from_trees(model: Model, trees: PathTrees) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    free = np.ones(model.topology.particle_count, dtype=bool)
    free[model.pin_index] = False
    return constraints.nearest_tethers(
        trees.length, trees.origin, free, TETHERS_PER_PARTICLE, model.topology.rest_positions,
        TETHER_SPREAD,
    )  # fmt: skip


def tether_chunks(particle: np.ndarray, chunks: int) -> np.ndarray:
    """(C + 1,) int64 bounds of about `chunks` equal runs of tethers ((T,) `particle`, each
    particle's tethers together), cut only where the particle changes; one run, the serial
    order, when a particle's tethers are not all together."""
    count = len(particle)
    starts = np.flatnonzero(np.diff(particle, prepend=-1) != 0)  # where each particle begins
    if chunks < 2 or len(starts) != len(np.unique(particle)):
        return np.array([0, count], dtype=np.int64)
    wanted = np.arange(1, chunks) * count // chunks
    cuts = np.append(starts, count)[np.searchsorted(starts, wanted)]
    return np.concatenate(([0], cuts, [count])).astype(np.int64)


def tethers(model: Model) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(T,) particle, (T,) pin and (T,) length: each free particle tethered to its nearest
    pins at its distance from them along the cloth at rest — the straight rest distance on
    an uncut sheet, the shortest path over live links once it is cut (a cut only lengthens the
    way round). Several pins matter: tethered to one each, the two halves of a sheet held at
    both top corners could swing apart at the middle; and they are spread (TETHER_SPREAD), or
    the halves of a sheet held by a clamp of pins at each corner would swing apart the same
    way. Built afresh; TetherSet keeps the same up to date as links tear."""
    pins = model.pin_index
    if len(pins) == 0:
        return np.zeros(0, np.int32), np.zeros(0, np.int32), np.zeros(0)
    if not model.link_alive.all():
        return tethers_from_trees(model, path_trees(model, link_adjacency(model.topology)))
    free = np.ones(model.topology.particle_count, dtype=bool)
    free[pins] = False
    rest = model.topology.rest_positions
    parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    origin = pins.astype(np.int64)[:, None]  # (P, 1): every particle's row r is pin r
    for start in range(0, len(free), _CHUNK):
        rows = np.flatnonzero(free[start : start + _CHUNK]) + start
        table = np.linalg.norm(rest[rows, None, :] - rest[None, pins, :], axis=2).T  # (P, rows)
        found, anchor, length = constraints.nearest_tethers(
            table, np.broadcast_to(origin, table.shape), np.ones(len(rows), dtype=bool),
            TETHERS_PER_PARTICLE, rest, TETHER_SPREAD,
        )  # fmt: skip
        parts.append((rows[found], anchor, length))
    particle, anchor, length = (np.concatenate(column) for column in zip(*parts, strict=True))
    return particle.astype(np.int32), anchor.astype(np.int32), np.ascontiguousarray(length)


def block_tetrahedra(topology: Topology) -> tuple[np.ndarray, np.ndarray]:
    """(T, 4) int32 tetrahedra of every block cell and their (T,) rest volumes."""
    parts = [
        np.stack([cells[:, 0], cells[:, a], cells[:, b], cells[:, 7]], axis=1)
        for block in topology.blocks
        for cells in (block.cells,)
        for a, b in zip(_RING, _RING[1:] + _RING[:1], strict=True)
    ]
    tets = np.concatenate(parts).astype(np.int32) if parts else np.zeros((0, 4), np.int32)
    return tets, constraints.tet_volumes(topology.rest_positions, tets)


def live_triangles(model: Model) -> np.ndarray:
    """(T, 3) int32: two triangles per live face, wound like the face."""
    faces = model.topology.faces[model.face_alive]
    return np.ascontiguousarray(
        np.concatenate([faces[:, [0, 1, 2]], faces[:, [0, 2, 3]]]), dtype=np.int32
    )


def air_surface(model: Model) -> Surface:
    """What aerodynamic wind acts on (constraints.add_aerodynamic_forces): the live triangles,
    the rest area each particle stands for, each particle's triangles in order (a particle
    gathers their forces, so that two threads need not add into one particle), and scratch
    for each triangle's force."""
    triangles = live_triangles(model)
    n = model.topology.particle_count
    corners = triangles.ravel()
    # a stable sort keeps each particle's triangles in the order the triangles come
    owner = np.repeat(np.arange(len(triangles)), 3)[np.argsort(corners, kind="stable")]
    start = np.zeros(n + 1, dtype=np.int64)
    start[1:] = np.cumsum(np.bincount(corners, minlength=n))
    area = vertex_areas(model.topology, triangles)
    return Surface(triangles, area, start, owner, np.zeros((len(triangles), 9)))


def vertex_areas(topology: Topology, triangles: np.ndarray) -> np.ndarray:
    """(N,) float64: a third of the rest area of every live triangle round each particle."""
    out = np.zeros(topology.particle_count)
    constraints.triangle_vertex_areas(
        topology.rest_positions, np.ascontiguousarray(triangles, dtype=np.int32), out
    )
    return out
