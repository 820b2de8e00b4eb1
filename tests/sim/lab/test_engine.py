"""The engine (sim.lab.engine): the one thing that advances a simulation. However its steps are
taken (all at once, one by one, through a seek from a kept state, in a fork), a run gives the
same positions and readout rows bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from clothlab.sim.document.commands import (
    CommandError,
    CutLinks,
    GrabMove,
    GrabRelease,
    GrabStart,
    Load,
    Pause,
    SetSetting,
    Stamped,
)
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.recording import Recording
from clothlab.sim.lab.engine import Engine, KeptStates, replay

STEPS = 90


def a_recording() -> Recording:
    commands = (
        Stamped(10, GrabStart(160, (0.5, -1.0, 0.6))),
        *(Stamped(11 + k, GrabMove((0.5 + 0.05 * k, -1.0, 0.6))) for k in range(5)),
        Stamped(20, GrabRelease()),
        Stamped(30, SetSetting("wind", 3.0, 0.0)),
        Stamped(40, CutLinks((6, 20, 34))),
        Stamped(40, Pause()),  # how the user watched: only journalled
    )
    return Recording(load_preset("hanging-sheet"), commands, STEPS)


def state(engine: Engine) -> tuple[bytes, ...]:
    s = engine.sim.state
    return (s.x.tobytes(), s.x_prev.tobytes(), s.link_alive.tobytes())


def test_one_call_or_a_step_at_a_time_give_the_same_run_and_rows():
    whole, single = Engine.of(a_recording()), Engine.of(a_recording())
    assert whole.advance(STEPS) == STEPS
    while single.steps < STEPS:
        assert single.advance(1) == 1
    assert state(whole) == state(single)
    rows_whole, rows_single = whole.take_rows(), single.take_rows()
    assert len(rows_whole) == STEPS + 1 and rows_whole[0][0] == 0 and rows_whole[-1][0] == STEPS
    assert np.array_equal(np.array(rows_whole), np.array(rows_single), equal_nan=True)


def test_the_journal_holds_every_command_at_its_step_after_the_load():
    recording = a_recording()
    engine = Engine.of(recording)
    engine.advance(STEPS)
    assert isinstance(engine.journal[0].command, Load)
    simulation_commands = [s for s in recording.commands if not isinstance(s.command, Pause)]
    assert engine.journal[1:] == simulation_commands  # the Pause steered the thread only
    assert engine.recording().commands == tuple(simulation_commands)


def test_a_seek_from_a_kept_state_equals_the_replay_from_step_0():
    recording = a_recording()
    keep = KeptStates(every=10)
    engine = Engine.of(recording, keep=keep)
    engine.advance(STEPS)
    assert [k.step for k in keep.states] == [10, 20, 30, 40, 50, 60, 70, 80, 90]
    for step in (45, 40, 12, 89, 0):
        before = engine.stepped
        engine.seek(step)
        journal = [item for item in recording.commands if item.step <= step]
        assert state(engine) == state_of(replay([Stamped(0, Load(recording.scene)), *journal],
                                                step)), step  # fmt: skip
        nearest = keep.nearest(step)
        assert engine.stepped - before <= step - (nearest.step if nearest else 0)


def state_of(sim) -> tuple[bytes, ...]:
    s = sim.state
    return (s.x.tobytes(), s.x_prev.tobytes(), s.link_alive.tobytes())


def test_a_live_command_ends_the_exact_replay_and_a_seek_undoes_it():
    engine = Engine.of(a_recording(), keep=KeptStates(every=10))
    stop = engine.sim.stop
    engine.advance(50)
    engine.apply(GrabStart(100, (0.0, 0.0, 1.0)))
    assert not engine.exact
    engine.advance(10)
    engine.seek(60)  # back to the recording's own run
    assert engine.exact and engine.sim.grabbed is None
    assert engine.sim.stop is stop  # another thread can still interrupt its steps


def test_a_fork_goes_on_as_the_run_would_and_leaves_it_alone():
    engine = Engine.of(a_recording())
    engine.advance(15)  # the grab under way, the later commands still to come
    fork = engine.fork()
    fork.advance(STEPS - 15)
    assert engine.steps == 15
    engine.advance(STEPS - 15)
    assert state(fork) == state(engine)


def test_commands_that_do_not_fit_are_refused_before_anything_changes():
    engine = Engine(load_preset("hanging-sheet"))
    with pytest.raises(CommandError, match="particle 999"):
        engine.apply(GrabStart(999, (0.0, 0.0, 0.0)))
    with pytest.raises(CommandError, match="one Load"):
        engine.apply(Load(load_preset("drop")))
    assert engine.journal[1:] == []
