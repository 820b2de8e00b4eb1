"""The simulation: topology, state and settings, advanced by Δt.

It chooses the integrator (the classic one whenever only the seed's model is switched on),
keeps the kernels' arrays in step with cuts, tears, pins and the grab, and guards against
blow-ups. Links are dead when cut (an edit, undoable) or torn (the model's own doing): the two
are kept apart so that undoing a cut never revives a torn link.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any, NamedTuple

import numba
import numpy as np

from clothlab.sim.core import constraints, forces, kernels, ordering
from clothlab.sim.core.arrays import (
    FixedArrays,
    LinkArrays,
    LinkMaterial,
    Obstacles,
    build_fixed,
    build_link_material,
    build_links,
    build_obstacles,
)
from clothlab.sim.core.backend import StepBackend
from clothlab.sim.core.constraint_sets import (
    LINKS,
    MATERIALS,
    PINS,
    Model,
    SolveReport,
    bends_together,
    solves_fabric,
)
from clothlab.sim.core.fabrics import body_link_properties
from clothlab.sim.core.forces import Forces, Impulses
from clothlab.sim.core.guard import GoodStates, Instability, likely_cause
from clothlab.sim.core.integrators import ClassicIntegrator, ExtendedIntegrator
from clothlab.sim.core.materials import (
    MIN_PASSES,
    Mechanics,
    SIMaterial,
    derive_mechanics,
    substeps_for_one_solve,
    substeps_needed,
)
from clothlab.sim.core.parameters import Settings
from clothlab.sim.core.readouts import EnergyAccount, Readouts, account_for_next_step, measure
from clothlab.sim.core.records import Particles
from clothlab.sim.core.state import State, faces_alive, pin_arrays, raise_out_of_plane
from clothlab.sim.core.topology import Topology

Vec3 = tuple[float, float, float]


class BodyMaterial(NamedTuple):
    """What a body is made of: a model-units fabric (sim.core.fabrics) and its own stiffness,
    or a fabric in SI units (sim.core.materials), which then sets its links and masses."""

    name: str | None = None
    stiffness: float | None = None
    si: SIMaterial | None = None


class LastStep(NamedTuple):
    """The last step, for its forces: what they moved is read only when asked."""

    steps: int  # state.steps after it
    integrator: Any  # ClassicIntegrator or ExtendedIntegrator: the one that took it
    settings: Settings  # the model settings it ran with
    links: LinkArrays  # the arrays it ran with (a tear rebuilds the links)
    obstacles: Obstacles
    fixed: FixedArrays


SphereShape = tuple[Vec3, float]  # centre, radius
BoxShape = tuple[Vec3, Vec3]  # centre, full size
# Rounds of passes that relax the cloth around an edited obstacle (_push_out_gently).
# At most RELAX_ROUNDS, and at most RELAX_WORK link corrections in all, but never fewer than
# RELAX_MIN_ROUNDS: a 15 × 11 sheet gets all 60 (≈ 10 ms), a 128² one 8 (≈ 0.1 s, not 0.8 s
# for each move of a ball dragged through it). A count, not a clock: a replay relaxes the same.
RELAX_ROUNDS = 60
RELAX_MIN_ROUNDS = 8
RELAX_WORK = 2_000_000
RELAXED = 1e-4  # units: a round that moves no particle further than this is done (0.01 units/s)
# A step slower than this keeps a copy of the state it starts from, so that another thread
# may interrupt it (`stop`) and have the state as it was: a 512² sheet with 200 passes and
# 16 substeps takes seconds a step, and the window must not wait for it to close or pause.
INTERRUPTIBLE_AFTER_S = 0.02


def relax_rounds(links: int, passes: int) -> int:
    """Rounds of passes an obstacle edit relaxes the cloth by (Simulation._push_out_gently)."""
    affordable = RELAX_WORK // max(1, links * passes)
    return max(RELAX_MIN_ROUNDS, min(RELAX_ROUNDS, affordable))


class Simulation:
    def __init__(
        self,
        topology: Topology,
        settings: Settings | None = None,
        pins: dict[int, Vec3] | None = None,
        cuts: np.ndarray | list[int] | tuple[int, ...] = (),
        tears: np.ndarray | list[int] | tuple[int, ...] = (),
        materials: list[BodyMaterial] | list[tuple[Any, ...]] | None = None,
        spheres: list[SphereShape] | None = None,
        boxes: list[BoxShape] | None = None,
        backend: StepBackend | None = None,
    ) -> None:
        """`backend` steps the seed's model (sim.core.backend; None: ClassicIntegrator's numba
        kernels)."""
        self.topology = topology
        self._link_body = topology.link_body()  # (M,) int32
        self._material: tuple[tuple[Any, ...], LinkMaterial] | None = None
        self._extended: ExtendedIntegrator | None = None  # made on the first non-classic step
        self.spheres: list[SphereShape] = list(spheres or [])  # besides the ball
        self.boxes: list[BoxShape] = list(boxes or [])
        self._obstacles: tuple[tuple[Any, ...], Obstacles] | None = None
        self._obstacles_in_use = False  # built once: a later rebuild is an edit of them
        self.settings = settings or Settings()
        self.state = State.at_rest(topology)
        self.cut = np.zeros(topology.link_count, dtype=bool)  # (M,) bool, cut by an edit
        self.cut[np.asarray(cuts, dtype=np.int64)] = True
        self.torn_mask = np.zeros(topology.link_count, dtype=bool)  # (M,) bool, torn
        self.torn_mask[np.asarray(tears, dtype=np.int64)] = True
        self._grab: tuple[int, np.ndarray] | None = None  # the held particle and its anchor
        # Where the grab's anchor is on its way to, and in how many steps (move_grab)
        self._glide: tuple[np.ndarray, int] | None = None
        self._si: list[SIMaterial | None] | None = None  # each body's, as mechanics has them
        # (M,) bool: the links that hold something (not an SI fabric's diagonal, whose cell's
        # shear condition holds its shear); None until the materials are set
        self._holding: np.ndarray | None = None
        self.set_materials(materials or [BodyMaterial()] * len(topology.bodies))
        self._classic: StepBackend = backend or ClassicIntegrator()
        self.threads = ordering.ThreadChooser()  # automatic mode's, for the colour order
        self.stop = np.zeros(1, dtype=np.uint8)  # (1,) set by another thread: abandon the step
        self.interrupted = False  # the last step() ended early because `stop` was set
        self._never = np.zeros(1, dtype=np.uint8)  # the stop of a step that cannot be undone
        self.interruptible_after_s = INTERRUPTIBLE_AFTER_S
        self._slow = False  # the last step took over interruptible_after_s
        self.good_states = GoodStates(topology.rest_positions)
        self.instability: Instability | None = None  # the latest blow-up, if any
        self.energy_account: EnergyAccount | None = None  # of the last step, for readouts
        self._last_step: LastStep | None = None
        # (the step, the live links and) its forces: each readout asks, they are measured once
        self._forces: tuple[LastStep, np.ndarray, Forces] | None = None
        self._update_links()
        self.set_pins(pins or {})
        # Pinned particles start exactly on their anchors, at rest. Later pin and grab changes
        # land at the next step, whose start makes the anchor's motion the particle's velocity.
        kernels.place_pins(self.state.x, self.fixed.index, self.fixed.anchor)
        self.state.x_prev[:] = self.state.x
        if self.settings.imperfection:
            raise_out_of_plane(
                self.state, topology, self.fixed.index, self.settings.imperfection,
                self.settings.specimen,
            )  # fmt: skip

    # --- links ---------------------------------------------------------------------------

    def set_cut(self, links: np.ndarray | list[int] | tuple[int, ...], cut: bool) -> None:
        """Cut links, or (cut False) restore them; a torn link stays dead either way."""
        self.cut[np.asarray(links, dtype=np.int64)] = cut
        self._update_links()

    @property
    def torn(self) -> list[int]:
        return np.flatnonzero(self.torn_mask).tolist()

    def _update_links(self) -> None:
        self.state.link_alive = ~(self.cut | self.torn_mask)
        self.state.face_alive = faces_alive(self.state.link_alive, self.topology.face_links)
        assert self._holding is not None  # the materials are set first
        self.links: LinkArrays = build_links(
            self.topology, self.state.link_alive & self._holding, self.settings.solver_mode
        )
        if self._extended is not None:
            self._extended.invalidate(LINKS)

    # --- materials and obstacles -----------------------------------------------------------

    def set_materials(self, materials: list[BodyMaterial] | list[tuple[Any, ...]]) -> None:
        """Each body's material; the links and masses take them at the next step."""
        self.materials = [BodyMaterial(*m) for m in materials]
        si = [m.si for m in self.materials]
        if self._si != si:
            self._si = si
            self.mechanics: Mechanics = derive_mechanics(self.topology, si)
            self._total_mass = float(self.mechanics.mass.sum())
            # ((Δt, g), substeps_needed, substeps_for_one_solve) once known
            self._needed: tuple[tuple[float, float], int, int] | None = None
            self._update_fixed()
            holding, held = ~np.isinf(self.mechanics.link_compliance), self._holding
            self._holding = holding
            if held is not None and not np.array_equal(held, holding):
                self._update_links()
            if self._extended is not None:
                self._extended.invalidate(MATERIALS)
        self._material = None

    @property
    def model_settings(self) -> Settings:
        """The settings the model runs with: the scene's, except that a body with an SI
        material runs XPBD (its links have compliances from the fabric, not a stiffness factor)
        with at least the passes its fabric needs (sim.core.materials) and the substeps its
        bending runs need when passes alone bend it (not bends_together), or, when its stiff
        bending joins the links' solve, the substeps that solve's linearisation needs
        (substeps_for_one_solve); the projective solve (sim.core.fabric_solve) takes any."""
        s = self.settings
        if not self.mechanics.any:
            return s
        if solves_fabric(s, self.mechanics):
            return s if s.xpbd else replace(s, xpbd=True)
        if self._needed is None or self._needed[0] != (s.dt, s.gravity):
            bend = substeps_needed(self.mechanics, s.dt)
            solve = substeps_for_one_solve(
                self.mechanics, self.topology.rest_lengths, s.dt, s.gravity
            )
            self._needed = ((s.dt, s.gravity), bend, solve)
        _, bend, solve = self._needed
        passes = max(s.passes, MIN_PASSES)
        if not bends_together(s):
            substeps = max(s.substeps, bend)
        elif bend > s.substeps:  # the bending joins the links' solve
            substeps = max(s.substeps, solve)
        else:
            substeps = s.substeps
        if s.xpbd and (substeps, passes) == (s.substeps, s.passes):
            return s
        return replace(s, xpbd=True, substeps=substeps, passes=passes)

    def set_obstacles(self, spheres: list[SphereShape], boxes: list[BoxShape]) -> None:
        """Replace the obstacles; the cloth is pushed out of the new ones at once, gently."""
        self.spheres, self.boxes = list(spheres), list(boxes)
        self._obstacles = None
        self.obstacles()

    def link_material(self) -> LinkMaterial:
        """Each live link's stiffness and compliance, rebuilt when the links, a body's
        material or the world's stiffness or compliance changed."""
        s = self.settings
        key = (self.links, s.stiffness, s.compliance)
        if self._material is None or self._material[0] != key:
            properties = [
                body_link_properties(m.name, m.stiffness, s.stiffness, s.compliance)
                for m in self.materials
            ]
            own = self.mechanics.link_compliance if self.mechanics.any else None
            material = build_link_material(self.links, self._link_body, properties, own)
            self._material = (key, material)
        return self._material[1]

    def obstacles(self) -> Obstacles:
        """The ball (the first sphere, when on), the other spheres and the boxes."""
        s = self.settings
        key = (s.ball, s.ball_center, s.ball_radius)
        if self._obstacles is None or self._obstacles[0] != key:
            ball = (s.ball_center, s.ball_radius) if s.ball else None
            self._obstacles = (key, build_obstacles(ball, self.spheres, self.boxes))
            if self._obstacles_in_use:
                self._push_out_gently(self._obstacles[1])
            self._obstacles_in_use = True
        return self._obstacles[1]

    def _push_out_gently(self, obstacles: Obstacles) -> None:
        """An edited obstacle (grown, moved, added; the ball too) pushes the cloth out of it
        before the next step, as a move, not as a velocity: the particles it now holds go onto
        its surface and the links around them relax (RELAX_ROUNDS rounds of the step's passes
        without gravity), and x_prev follows x by the same displacement. Otherwise the next
        steps read the push and the stretch it made as velocities (a sphere grown by 0.1
        under a resting sheet flung it at 15 units/s)."""
        s, state, links = self.settings, self.state, self.links
        x, x_prev = state.x.copy(), state.x.copy()  # at rest: only the passes move it
        particles = self.fixed.particles(x, x_prev)
        # relaxing is no step: its pushes and moves are no force
        contacts = obstacles.contacts(s.floor, s.floor_y, obstacles.pushed.copy())
        kernels.collide(particles, contacts, 0.0, 0.0)
        if np.array_equal(x, state.x):
            return  # the edit reached no particle: nothing to push, nothing else changes
        relaxing = links.record(self.link_material())._replace(moved=np.zeros(links.count))
        # the passes alone: no damping, gravity or wind
        world = s.world(state.t)._replace(damping=1.0, gravity=0.0, wind=0.0)
        for _ in range(relax_rounds(len(links.a), s.passes)):
            kernels.step_classic(particles, self.fixed.held, relaxing, world, contacts, self._never)
            settled = np.abs(x - x_prev).max() < RELAXED
            x_prev[:] = x
            if settled:
                break
        moved = x - state.x
        if np.any(moved):
            state.x += moved
            state.x_prev += moved
            self.energy_account = None  # the energy changed outside any step

    def set_positions(self, x: np.ndarray, x_prev: np.ndarray) -> None:
        """Put every particle at `x` ((N, 3) float64), `x_prev` a substep before (Verlet's
        velocity (x − x_prev) / h): a state to go on from, its caller's. Pinned and held
        particles stay on their anchors, at rest there. The last step's forces and energy are
        no longer known, and the instability guard goes back no further than this state."""
        state = self.state
        state.x[:] = x
        state.x_prev[:] = x_prev
        kernels.place_pins(state.x, self.fixed.index, self.fixed.anchor)
        kernels.place_pins(state.x_prev, self.fixed.index, self.fixed.anchor)
        self._last_step = None
        self._forces = None
        self.energy_account = None  # the energy changed outside any step
        self.good_states.start_from(state.steps, state.t, state.x, state.x_prev)

    # --- pins and grab ---------------------------------------------------------------------

    def set_pins(self, pins: dict[int, Vec3]) -> None:
        """Replace all pins; a newly pinned particle jumps to its anchor at the next step."""
        old = self.state.pin_index
        self.state.pin_index, self.state.pin_anchor = pin_arrays(pins)
        self._update_fixed()
        if self._extended is not None and not np.array_equal(old, self.state.pin_index):
            self._extended.invalidate(PINS)

    @property
    def pins(self) -> dict[int, Vec3]:
        return self.state.pins

    def grab(self, particle: int, target: Vec3 | np.ndarray, place: bool = False) -> None:
        """Hold a particle at the target (pinned there) until `release`. The target is kept
        where the model lets particles be: above the floor, outside the ball. `place` puts
        the particle there at once and at rest (while paused), instead of at the next step."""
        self._glide = None
        where = self.allowed_position(np.asarray(target, dtype=np.float64))
        self._grab = (int(particle), where)
        self._update_fixed()
        if place:
            self.state.x[particle] = where
            self.state.x_prev[particle] = where
            self.energy_account = None  # the energy changed outside any step

    def move_grab(
        self, target: Vec3 | np.ndarray, place: bool = False, over_steps: int = 0
    ) -> None:
        """Move the held particle's anchor to the target: at once (`over_steps` 0, or `place`),
        or in equal parts over the next `over_steps` steps, as a pointer that took that long
        to get there moved. A pointer reports where it is once a frame: jumping there at
        each report would move the particle at the frame rate's pace, not the hand's."""
        if self._grab is None:
            return
        if place or over_steps <= 0:
            self.grab(self._grab[0], target, place)
            return
        self._glide = (np.array(target, dtype=np.float64).reshape(3), int(over_steps))

    def _glide_one_step(self) -> None:
        """The grab's anchor one part of the way on to where it is gliding (move_grab)."""
        assert self._grab is not None and self._glide is not None
        (particle, anchor), (target, steps_left) = self._grab, self._glide
        on_the_way = anchor + (target - anchor) / steps_left
        self._grab = (particle, self.allowed_position(on_the_way))
        self._glide = (target, steps_left - 1) if steps_left > 1 else None
        self._update_fixed()

    def allowed_position(self, point: np.ndarray) -> np.ndarray:
        """(3,) float64: the point pushed out of every obstacle and up onto the floor, by the
        collision pass itself run on that one point as on a free particle."""
        s, obstacles = self.settings, self.obstacles()
        x = np.array(point, dtype=np.float64).reshape(1, 3)
        contacts = obstacles.contacts(s.floor, s.floor_y, obstacles.pushed.copy())
        kernels.collide(Particles(x, x.copy(), np.ones(1)), contacts, 0.0, 0.0)
        return x[0]

    def release(self) -> None:
        """Let go; the particle keeps the pointer's last velocity (x − x_prev)."""
        self._grab = self._glide = None
        self._update_fixed()

    @property
    def grabbed(self) -> int | None:
        return None if self._grab is None else self._grab[0]

    def _update_fixed(self) -> None:
        state = self.state
        mass = self.mechanics.mass if self.mechanics.any else None
        fixed = build_fixed(
            self.topology.particle_count, state.pin_index, state.pin_anchor, self._grab, mass
        )
        kept = getattr(self, "fixed", None)
        if kept is not None and np.array_equal(kept.inv_mass, fixed.inv_mass):
            # a grab move holds the same particles: the same array, so that a system factored
            # for these masses (sim.core.fabric_solve) knows it still holds by identity
            fixed = replace(fixed, inv_mass=kept.inv_mass)
        self.fixed: FixedArrays = fixed

    # --- stepping ------------------------------------------------------------------------

    def step(self, count: int = 1) -> int:
        """Advance `count` steps. Returns how many were taken: fewer when the model blew up,
        in which case the last good state is back in place and `instability` says why, or
        when `stop` was set during a slow step (`interrupted`), which is then undone."""
        s, state = self.model_settings, self.state
        self.interrupted = False
        if self.links.solver_mode != s.solver_mode:
            self._update_links()
        classic = s.is_classic  # once per call: settings change only between calls
        account = None
        for taken in range(count):
            held = (self._grab, self._glide)  # as the step starts: an interrupted one puts it back
            if self._glide is not None:
                self._glide_one_step()
            if taken == count - 1:  # readouts see only the last step: account for it alone
                account = account_for_next_step(self)
            choosing = self.links.parallel and s.solver_mode == ordering.AUTOMATIC
            if self.links.parallel:  # numba's count is per calling thread
                numba.set_num_threads(self.threads.threads if choosing else ordering.MOST_THREADS)
            kept = (state.x.copy(), state.x_prev.copy()) if self._slow else None
            stop = self.stop if kept is not None else self._never
            started = time.perf_counter()
            links, obstacles, fixed = self.links, self.obstacles(), self.fixed
            if classic:
                health = self._classic.step(
                    state, s, links, fixed, self.link_material(), obstacles, stop
                )
            else:
                health = self._extended_step(s, stop)
            elapsed = time.perf_counter() - started
            self._slow = elapsed > self.interruptible_after_s
            if choosing:
                self.threads.measured(elapsed)
            if health == kernels.INTERRUPTED and kept is not None:
                state.x[:], state.x_prev[:] = kept
                if held[0] is not self._grab:  # the glide moved it
                    self._grab, self._glide = held
                    self._update_fixed()
                self.interrupted = True
                self._last_step = None  # the half step overwrote the last one's moves
                return taken
            if health != kernels.HEALTHY:
                self._recover(health)
                return taken
            state.steps += 1
            state.t += s.dt
            self.good_states.remember(state.steps, state.t, state.x, state.x_prev)
        integrator = self._classic if classic else self._extended
        if count and integrator is not None:
            self._last_step = LastStep(state.steps, integrator, s, links, obstacles, fixed)
        if account is not None:
            self.energy_account = replace(account, steps=state.steps)
        return count

    def _extended_step(self, s: Settings, stop: np.ndarray) -> int:
        if self._extended is None:
            self._extended = ExtendedIntegrator(self.topology.particle_count)
        state = self.state
        model = Model(
            self.topology, state.link_alive, state.face_alive, state.pin_index, self.links,
            self.mechanics,
        )  # fmt: skip
        health = self._extended.step(
            state, s, self.fixed, model, self.link_material(), self.obstacles(), stop
        )
        if health == kernels.INTERRUPTED:  # the step is undone: so are the tears it made
            self._extended.links_set.forget_torn()
            return health
        torn = self._extended.take_torn()
        if len(torn):
            # Links only die here: the link arrays drop them (build_links filters the colour
            # order) and the tethers find again only the paths that went through them.
            self.torn_mask[torn] = True
            self._update_links()
        return health

    def _recover(self, health: int) -> None:
        """Put back the newest good state (the state at load if none was kept yet)."""
        state, good = self.state, self.good_states.newest()
        failed_at = state.steps
        self.energy_account = None
        self._last_step = None
        state.x[:] = good.x
        state.x_prev[:] = good.x_prev
        state.steps, state.t = good.steps, good.t
        kernels.place_pins(state.x, self.fixed.index, self.fixed.anchor)
        self.instability = Instability(failed_at, health, good.steps, likely_cause(self.settings))

    def link_measures(self) -> tuple[float, float]:
        """(max stretch, residual) over the live links: max (L − rest)/rest, and the solver's
        own measure of convergence after the last step, max |C + α̃·λ| / rest (XPBD's
        multipliers where it ran; rest lengths for the classic rule)."""
        s, links = self.model_settings, self.links
        lambdas = np.zeros(0)
        if s.xpbd and self._extended is not None and self._extended.links_set.lambdas_for(links):
            lambdas = self._extended.links_set.lambdas
        # each link's own compliance (its body's material), as the XPBD pass used it
        record = links.record(self.link_material())
        return constraints.link_measures(self.state.x, record, lambdas, s.dt / s.substeps)

    def solve_report(self) -> SolveReport | None:
        """How the last substep's fabric solve went (the links' or the projective); None: the
        run has no fabric solve."""
        return None if self._extended is None else self._extended.report()

    def forces(self) -> Forces | None:
        """The forces the constraints exerted over the last (sub)step (sim.core.forces), with
        the state as it stands: a link cut since reads 0. None before the first step, after
        a blow-up was undone, and once pins or the grab changed (until the next step)."""
        last, alive = self._last_step, self.state.link_alive
        if last is None or last.steps != self.state.steps or last.fixed is not self.fixed:
            return None
        cached = self._forces
        if cached is not None and cached[0] is last and cached[1] is alive:
            return cached[2]
        s = last.settings
        impulses: Impulses = last.integrator.impulses(s, last.links, last.obstacles, last.fixed)
        mechanics = self.mechanics
        measured = forces.measure(
            impulses, self.state.x, mechanics.mass, self.state.pin_index, self.grabbed,
            s.gravity, self._total_mass * s.gravity, self.topology.link_count, s.floor,
            mechanics.link_width if mechanics.any else None,
        )  # fmt: skip
        if last.links is not self.links:  # cut or restored since: cut links pull 0
            measured.link_tension[~alive] = 0.0
        shared = (measured.link_tension, measured.pin_force, measured.grab_force)
        for array in (*shared, measured.link_width):
            if array is not None:  # shared as they are with snapshots and the API
                array.flags.writeable = False
        self._forces = (last, alive, measured)
        return measured

    def link_projections_per_step(self) -> int:
        s = self.model_settings
        return self.links.count * s.passes * s.substeps

    def readouts(self) -> Readouts:
        return measure(self)
