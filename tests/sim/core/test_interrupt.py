"""A slow step can be interrupted from another thread and is then undone:
the window must close or pause without waiting seconds for a step to end. The app's own test
(tests/app/test_worker.py) interrupts a step seconds long from the GUI thread."""

from __future__ import annotations

import numpy as np
import pytest
from sim_helpers import sheet_topology

from clothlab.sim.core.parameters import Settings
from clothlab.sim.core.solver import Simulation


def sheet(**options) -> Simulation:
    topology = sheet_topology(40, 30, 2.8 / 39)
    pins = {0: tuple(topology.rest_positions[0]), 39: tuple(topology.rest_positions[39])}
    sim = Simulation(topology, Settings(**options), pins)
    sim.interruptible_after_s = 0.0  # treat every step as slow: each keeps its start
    return sim


@pytest.mark.parametrize(
    "options", [{}, {"solver_mode": 3}, {"xpbd": True, "substeps": 4}],
    ids=["classic", "two threads", "extended"],
)  # fmt: skip
def test_an_interrupted_step_is_undone_and_the_next_one_is_as_if_it_never_was(options):
    plain, sim = sheet(**options), sheet(**options)
    for s in (plain, sim):
        assert s.step(30) == 30
    before = sim.state.x.copy(), sim.state.x_prev.copy(), sim.state.steps, sim.state.t
    sim.stop[0] = 1  # as the GUI thread does when a command arrives mid-step
    assert sim.step(5) == 0 and sim.interrupted
    assert np.array_equal(sim.state.x, before[0]) and np.array_equal(sim.state.x_prev, before[1])
    assert (sim.state.steps, sim.state.t) == before[2:]
    assert sim.instability is None  # not a blow-up: nothing to report
    sim.stop[0] = 0
    assert sim.step(30) == 30 and not sim.interrupted
    plain.step(30)
    assert np.array_equal(sim.state.x, plain.state.x)


def test_a_quick_step_is_never_interrupted_half_done():
    """Quick steps keep no copy of their start: a stop set then waits for the step's end."""
    topology = sheet_topology(15, 11, 0.2)
    sim = Simulation(topology, Settings(), {0: tuple(topology.rest_positions[0])})
    sim.stop[0] = 1
    assert sim.step(5) == 5 and not sim.interrupted
