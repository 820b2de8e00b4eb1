"""Immutable copies of the model's state, the only thing that crosses from the solver thread."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from clothlab.sim.core import units
from clothlab.sim.core.constraint_sets import SolveReport
from clothlab.sim.core.forces import Forces
from clothlab.sim.core.parameters import Settings
from clothlab.sim.core.readouts import CSV_COLUMNS, Readouts
from clothlab.sim.core.solver import Simulation
from clothlab.sim.core.topology import Topology


@dataclass(frozen=True)
class Snapshot:
    frame: int  # increases by one per snapshot taken from a simulation
    load: int  # which Load of the solver thread this state descends from (1, 2, …)
    steps: int  # model steps taken
    clock: int  # steps on the run's timeline (sim.lab.engine): past `steps` after a blow-up
    topology: Topology  # shared, never mutated
    x: np.ndarray  # (N, 3) float64, read-only copy
    x_prev: np.ndarray  # (N, 3) float64, read-only copy
    link_alive: np.ndarray  # (M,) bool, read-only copy
    face_alive: np.ndarray  # (F,) bool, read-only copy
    pin_index: np.ndarray  # (P,) int32, read-only copy
    pin_anchor: np.ndarray  # (P, 3) float64, read-only copy
    torn: tuple[int, ...]  # torn links (a saved state's and the run's own), ascending
    grabbed: int | None
    settings: Settings
    model_settings: Settings  # what the model runs with: SI fabrics raise some (Simulation's)
    spheres: tuple[tuple[tuple[float, float, float], float], ...]  # (centre, radius), no ball
    boxes: tuple[tuple[tuple[float, float, float], tuple[float, float, float]], ...]  # (centre,
    # full size)
    readouts: Readouts
    forces: Forces | None  # of the last step (sim.core.forces), arrays read-only; None: none
    rows: np.ndarray  # (k, columns) float64, read-only: readout rows recorded since the last
    # snapshot (sim.core.readouts.CSV_COLUMNS, every record_stride steps from step 0)
    substep: float = 1.0 / 120.0  # s, Δt / substeps as the model steps: x_prev is this far back
    # (k, PROBE_WIDTH) float64, read-only: the probes' readings beside each row (None: not
    # recorded, as by a run that records no probes)
    probe_rows: np.ndarray | None = None
    solve: SolveReport | None = None  # how the last substep's fabric solve went; None: none
    si: bool = False  # its run measures in SI units (measures_in_si), its rows too

    @property
    def t(self) -> float:
        return self.readouts.t

    @property
    def link_tension(self) -> np.ndarray:
        """(M,) float64: each link's pull (Forces.link_tension); NaN where not measured."""
        if self.forces is None:
            return np.full(self.topology.link_count, np.nan)
        return self.forces.link_tension

    @property
    def pin_force(self) -> np.ndarray:
        """(P, 3) float64: each pin's force on the cloth, as pin_index; NaN if not measured."""
        if self.forces is None:
            return np.full((len(self.pin_index), 3), np.nan)
        return self.forces.pin_force


def _frozen(array: np.ndarray) -> np.ndarray:
    copy = np.array(array, copy=True)
    copy.flags.writeable = False
    return copy


def measures_in_si(sim: Simulation) -> bool:
    """Whether the simulation measures in SI units (m, N, J): sim.core.units.is_si of its
    bodies' materials."""
    return units.is_si(material.si for material in sim.materials)


def take_snapshot(
    sim: Simulation,
    frame: int,
    load: int = 0,
    rows: np.ndarray | None = None,
    readouts: Readouts | None = None,
    clock: int | None = None,
) -> Snapshot:
    """A frozen copy of the simulation; `readouts` are its readouts if already measured,
    `clock` the run's (sim.lab.engine), if not its step count."""
    state = sim.state
    return Snapshot(
        frame=frame,
        load=load,
        steps=state.steps,
        clock=state.steps if clock is None else clock,
        topology=sim.topology,
        x=_frozen(state.x),
        x_prev=_frozen(state.x_prev),
        link_alive=_frozen(state.link_alive),
        face_alive=_frozen(state.face_alive),
        pin_index=_frozen(state.pin_index),
        pin_anchor=_frozen(state.pin_anchor),
        torn=tuple(sim.torn),
        grabbed=sim.grabbed,
        settings=sim.settings,
        model_settings=sim.model_settings,
        spheres=tuple(sim.spheres),
        boxes=tuple(sim.boxes),
        readouts=readouts if readouts is not None else sim.readouts(),
        forces=sim.forces(),  # read-only already, and never changed once measured
        rows=_frozen(rows if rows is not None else np.zeros((0, len(CSV_COLUMNS)))),
        substep=sim.model_settings.dt / sim.model_settings.substeps,
        solve=sim.solve_report(),
        si=measures_in_si(sim),
    )


def merged(older: Snapshot, newer: Snapshot) -> Snapshot:
    """`newer`, carrying also the rows of an `older` snapshot nobody took, unless they are of
    another load or in another unit system (a fabric given or taken in between)."""
    if older.load != newer.load or older.si != newer.si or not len(older.rows):
        return newer
    probe_rows = None
    if older.probe_rows is not None and newer.probe_rows is not None:
        probe_rows = _frozen(np.concatenate([older.probe_rows, newer.probe_rows]))
    rows = _frozen(np.concatenate([older.rows, newer.rows]))
    return replace(newer, rows=rows, probe_rows=probe_rows)
