"""The time-step controller: owns topology, state and settings and advances them by Δt."""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass

import numpy as np

from clothlab.sim import kernels, ordering
from clothlab.sim.extended import ExtendedStepper
from clothlab.sim.parameters import Settings
from clothlab.sim.state import State, faces_alive, pin_arrays
from clothlab.sim.topology import Topology


@dataclass(frozen=True)
class Readouts:
    t: float  # model time, s
    sag: float  # units; NaN without a sheet
    volume: float  # units³; NaN without a block
    motion: float  # mean particle speed, units/s
    max_stretch: float  # max (L − rest)/rest over live links
    links: int  # live links

    CSV_COLUMNS = ("step", "t", "sag", "volume", "motion", "max_stretch", "links")


GOOD_STATE_EVERY = 30  # steps between the states kept for recovery (a quarter second)

_HEALTH_TEXT = {
    kernels.NOT_FINITE: "positions became NaN or infinite",
    kernels.TOO_FAR: f"a particle flew beyond {kernels.MAX_COORDINATE:g} units",
    kernels.TOO_FAST: f"a particle moved faster than {kernels.MAX_SPEED:g} units/s",
}


@dataclass(frozen=True)
class Instability:
    """A blow-up caught by the step: when, what, and the step restored."""

    step: int
    health: int  # kernels.NOT_FINITE, TOO_FAR or TOO_FAST
    restored_step: int
    advice: str

    @property
    def message(self) -> str:
        what = _HEALTH_TEXT.get(self.health, "the state became invalid")
        return (
            f"The model became unstable at step {self.step}: {what}. Restored step "
            f"{self.restored_step}. Likely cause: {self.advice}"
        )


def likely_cause(s: Settings) -> str:
    """The setting most likely to blame, and what to change (checked in order of likelihood)."""
    if s.dt > 1.0 / 60.0:
        return f"a long time step ({s.dt:.4g} s); try 1/120 s or more substeps."
    if abs(s.wind) > 50.0 or s.gravity > 50.0:
        return "very strong wind or gravity; lower them or take a shorter time step."
    if s.damping > 0.9995:
        return "almost no damping; lower damping below 0.999."
    if s.xpbd and s.compliance == 0.0 and s.passes < 4:
        return "rigid XPBD links with few passes; raise the passes or the compliance."
    return "a sudden large edit (a pin or the ball moved far in one step); undo it or reset."


class Simulation:
    """Classic position-based cloth: predict, then passes over links with ball and floor."""

    def __init__(
        self,
        topology: Topology,
        settings: Settings | None = None,
        pins: dict[int, tuple[float, float, float]] | None = None,
        link_alive: np.ndarray | None = None,
    ) -> None:
        self.topology = topology
        self.settings = settings or Settings()
        self.state = State.at_rest(topology)
        if link_alive is not None:
            self.state.link_alive = np.asarray(link_alive, dtype=bool).copy()
        self._grab: tuple[int, np.ndarray] | None = None
        self._extended: ExtendedStepper | None = None  # built on first non-classic step
        # (steps, t, x, x_prev) of recent finite states, to fall back on after a blow-up
        self._good_states: deque[tuple[int, float, np.ndarray, np.ndarray]] = deque(maxlen=4)
        self.instability: Instability | None = None  # the latest blow-up, if any
        self.set_pins(pins or {})
        self._rebuild_links()

    # --- topology and pins -------------------------------------------------------------

    def set_link_alive(self, link_alive: np.ndarray) -> None:
        """Replace the live-link mask (cuts and their undo); faces follow their links."""
        self.state.link_alive = link_alive
        self._rebuild_links()

    def set_pins(self, pins: dict[int, tuple[float, float, float]]) -> None:
        """Replace all pins; a newly pinned particle jumps to its anchor at the next step."""
        self.state.pin_index, self.state.pin_anchor = pin_arrays(pins)
        self._rebuild_constraints()

    @property
    def pins(self) -> dict[int, tuple[float, float, float]]:
        return self.state.pins

    def _rebuild_links(self) -> None:
        # Compact live links once per edit, so the hot loop has no branch on the mask.
        live = np.flatnonzero(self.state.link_alive)
        coloured, self._parallel = ordering.resolve_mode(self.settings.solver_mode, len(live))
        links = self.topology.links[live]
        self._colour_start = np.array([0, len(live)], dtype=np.int64)  # (C + 1,) int64
        if coloured:
            order, self._colour_start = ordering.colour_order(
                links[:, 0], links[:, 1], self.topology.particle_count
            )
            live, links = live[order], links[order]
        self._layout = (self.settings.solver_mode, coloured)
        self._live = live  # (L,) int64, topology index of each compacted link
        self._link_a = np.ascontiguousarray(links[:, 0])
        self._link_b = np.ascontiguousarray(links[:, 1])
        self._rest = np.ascontiguousarray(self.topology.rest_lengths[live])
        self.state.face_alive = faces_alive(self.state.link_alive, self.topology.face_links)
        self._extended = None

    def _rebuild_constraints(self) -> None:
        index, anchor = self.state.pin_index, self.state.pin_anchor
        if self._grab is not None and self._grab[0] not in set(index.tolist()):
            index = np.append(index, np.int32(self._grab[0])).astype(np.int32)
            anchor = np.vstack([anchor, self._grab[1]])
        self._fixed_index = index
        self._fixed_anchor = np.ascontiguousarray(anchor, dtype=np.float64).reshape(-1, 3)
        self._inv_mass = np.ones(self.topology.particle_count)
        self._inv_mass[index] = 0.0
        if self._extended is not None and not np.array_equal(
            self.state.pin_index, self._extended_pins
        ):
            self._extended = None  # tethers follow the pins

    # --- grab ----------------------------------------------------------------------------

    def grab(self, particle: int, target: tuple[float, float, float] | np.ndarray) -> None:
        """Hold a particle at the target (pinned there) until `release`."""
        self._grab = (int(particle), np.asarray(target, dtype=np.float64).copy())
        self._rebuild_constraints()

    def move_grab(self, target: tuple[float, float, float] | np.ndarray) -> None:
        if self._grab is not None:
            self.grab(self._grab[0], target)

    def release(self) -> None:
        """Let go; the particle keeps the pointer's last velocity (x − x_prev)."""
        self._grab = None
        self._rebuild_constraints()

    @property
    def grabbed(self) -> int | None:
        return None if self._grab is None else self._grab[0]

    # --- stepping ------------------------------------------------------------------------

    def step(self, count: int = 1) -> int:
        """Advance `count` steps. Returns how many were taken: fewer when the model blew up,
        in which case the last good state is back in place and `instability` says why."""
        s = self.settings
        classic = s.is_classic
        if classic and self._layout[0] != s.solver_mode:
            self._rebuild_links()
        ball_center = np.asarray(s.ball_center, dtype=np.float64)  # once, not per step
        for taken in range(count):
            health = self._step_once(ball_center) if classic else self._extended_stepper().step()
            if health != kernels.HEALTHY:
                self._recover(health)
                return taken
            self.state.steps += 1
            self.state.t += s.dt
            if self.state.steps % GOOD_STATE_EVERY == 0:
                self._remember_good_state()
        return count

    def _step_once(self, ball_center: np.ndarray) -> int:
        """One step of the classic model, in the link order the solver mode chose."""
        s, state = self.settings, self.state
        kernel = kernels.step_parallel if self._parallel else kernels.step_classic
        colours = (self._colour_start,) if self._parallel else ()
        return kernel(
            state.x, state.x_prev, self._inv_mass,
            self._fixed_index, self._fixed_anchor,
            self._link_a, self._link_b, self._rest, *colours,
            s.passes, s.stiffness, s.damping, s.gravity, s.wind, state.t, s.dt,
            s.ball, ball_center, s.ball_radius, s.floor, s.floor_y,
        )  # fmt: skip

    # --- instability guard ---------------------------------------------------------------

    def _remember_good_state(self) -> None:
        state = self.state
        if np.isfinite(state.x).all() and np.isfinite(state.x_prev).all():
            self._good_states.append((state.steps, state.t, state.x.copy(), state.x_prev.copy()))

    def _recover(self, health: int) -> None:
        """Put back the newest good state (the state at load if none was kept yet)."""
        state = self.state
        failed_at = state.steps
        if self._good_states:
            steps, t, x, x_prev = self._good_states[-1]
        else:
            steps, t, x, x_prev = 0, 0.0, self.topology.rest_positions, self.topology.rest_positions
        state.x[:] = x
        state.x_prev[:] = x_prev
        state.steps, state.t = steps, t
        kernels.place_pins(state.x, self._fixed_index, self._fixed_anchor)
        self.instability = Instability(failed_at, health, steps, likely_cause(self.settings))

    def _extended_stepper(self) -> ExtendedStepper:
        if self._extended is None:
            self._extended = ExtendedStepper(self)
            self._extended_pins = self.state.pin_index.copy()
        return self._extended

    def _tear(self, compact: np.ndarray) -> None:
        """Links torn inside a step: dead from now on, like a cut."""
        alive = self.state.link_alive.copy()
        alive[self._live[compact]] = False
        self.set_link_alive(alive)

    @property
    def live_link_count(self) -> int:
        return len(self._rest)

    def link_projections_per_step(self) -> int:
        return len(self._rest) * self.settings.passes * self.settings.substeps

    # --- readouts --------------------------------------------------------------------------

    def readouts(self) -> Readouts:
        x = self.state.x
        return Readouts(
            t=self.state.t,
            sag=self.sag(),
            volume=self.volume(),
            motion=kernels.mean_speed(x, self.state.x_prev, self.settings.dt),
            max_stretch=kernels.max_strain(x, self._link_a, self._link_b, self._rest),
            links=self.live_link_count,
        )

    def sag(self) -> float:
        """Distance from the line through the first sheet's top corners to its lowest top-edge
        particle."""
        if not self.topology.sheets:
            return math.nan
        sheet = self.topology.sheets[0]
        top = self.state.x[sheet.first_particle : sheet.first_particle + sheet.cols]
        a, b = top[0], top[-1]
        lowest = top[np.argmin(top[:, 1])]
        axis = b - a
        length = np.linalg.norm(axis)
        if length == 0.0:
            return float(np.linalg.norm(lowest - a))
        return float(np.linalg.norm(np.cross(lowest - a, axis)) / length)

    def volume(self) -> float:
        if not self.topology.blocks:
            return math.nan
        return float(sum(kernels.cells_volume(self.state.x, b.cells) for b in self.topology.blocks))
