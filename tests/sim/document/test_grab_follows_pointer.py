"""A grab follows the pointer at the hand's speed: a pointer reports where it
is once a frame, and the held particle goes there over the steps the pointer took, not in one
jump per report. So a slow drag moves the particle at the hand's speed at 4 fps as at 30 fps, a
fling leaves at the hand's speed, and a recording of it replays bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from clothlab.sim.document.commands import (
    AS_THE_POINTER_TOOK,
    CommandError,
    GrabMove,
    GrabRelease,
    GrabStart,
)
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.recording import load_recording, save_recording
from clothlab.sim.lab.engine import Engine

HELD = 160
STEPS_PER_SECOND = 120  # hanging-sheet's Δt = 1/120 s


def drag(
    steps_per_frame: int, hand_speed: float, seconds: float = 2.0
) -> tuple[Engine, list[float]]:
    """Hold particle HELD and move the pointer along +x at `hand_speed` units/s, reporting once
    every `steps_per_frame` steps (a window drawing at 120/steps_per_frame fps); the held
    particle's speed at each step after the first report."""
    engine = Engine(load_preset("hanging-sheet"), record_every=0)
    engine.advance(60)
    dt = engine.sim.settings.dt
    start = engine.sim.state.x[HELD].copy()
    engine.apply(GrabStart(HELD, tuple(start)))
    speeds: list[float] = []
    frames = round(seconds * STEPS_PER_SECOND / steps_per_frame)
    for frame in range(1, frames + 1):
        for _ in range(steps_per_frame):
            engine.advance(1)
            state = engine.sim.state
            speeds.append(float(np.linalg.norm(state.x[HELD] - state.x_prev[HELD]) / dt))
        hand = start + np.array([hand_speed * frame * steps_per_frame * dt, 0.0, 0.0])
        engine.apply(GrabMove(tuple(hand), over_steps=AS_THE_POINTER_TOOK))
    return engine, speeds[steps_per_frame:]


@pytest.mark.parametrize("steps_per_frame", [30, 4])  # 4 fps and 30 fps
def test_a_slow_drag_moves_the_held_particle_at_the_hands_speed_at_any_frame_rate(
    steps_per_frame: int,
) -> None:
    _engine, speeds = drag(steps_per_frame, hand_speed=0.6)
    # One jump a report had it at 18 units/s (30 × the hand's) at 4 fps, 2.4 at 30 fps.
    assert max(speeds) == pytest.approx(0.6, rel=1e-6)
    assert np.mean(speeds) == pytest.approx(0.6, rel=1e-6)


def test_a_fling_leaves_at_the_hands_speed_whatever_the_frame_rate() -> None:
    leaving = []
    for steps_per_frame in (30, 4):
        engine, _speeds = drag(steps_per_frame, hand_speed=3.0, seconds=0.5)
        engine.advance(steps_per_frame // 2)  # let go between two reports
        state, dt = engine.sim.state, engine.sim.settings.dt
        leaving.append(np.linalg.norm(state.x[HELD] - state.x_prev[HELD]) / dt)
        engine.apply(GrabRelease())
    assert leaving == pytest.approx([3.0, 3.0], rel=1e-6)


def test_the_journal_holds_the_steps_each_move_took_and_its_recording_replays_bit_for_bit(
    tmp_path,
) -> None:
    engine, _speeds = drag(30, hand_speed=0.6, seconds=1.0)
    engine.apply(GrabRelease())
    engine.advance(45)
    moves = [s.command for s in engine.journal if isinstance(s.command, GrabMove)]
    assert [m.over_steps for m in moves] == [30] * 4
    path = tmp_path / "drag.clothrec.json"
    save_recording(engine.recording(), path)
    again = Engine.of(load_recording(path), record_every=0)
    again.advance_to(engine.clock)
    assert np.array_equal(again.sim.state.x, engine.sim.state.x)
    assert np.array_equal(again.sim.state.x_prev, engine.sim.state.x_prev)


def test_a_pointer_still_for_long_glides_its_next_move_at_most_half_a_second() -> None:
    engine = Engine(load_preset("hanging-sheet"), record_every=0)
    engine.apply(GrabStart(HELD, tuple(engine.sim.state.x[HELD])))
    engine.advance(600)
    engine.apply(GrabMove((0.5, -1.0, 0.6), over_steps=AS_THE_POINTER_TOOK))
    assert engine.journal[-1].command.over_steps == 60


def test_a_move_while_paused_or_without_a_count_goes_there_at_once() -> None:
    engine = Engine(load_preset("hanging-sheet"), record_every=0)
    engine.apply(GrabStart(HELD, tuple(engine.sim.state.x[HELD]), place=True))
    engine.apply(GrabMove((0.5, -1.0, 0.6), place=True, over_steps=AS_THE_POINTER_TOOK))
    assert engine.journal[-1].command.over_steps == 0
    assert tuple(engine.sim.state.x[HELD]) == (0.5, -1.0, 0.6)
    with pytest.raises(CommandError, match="over_steps"):
        engine.apply(GrabMove((0.5, -1.0, 0.6), over_steps=-1))


def test_two_reports_in_one_step_glide_over_the_steps_since_the_report_before() -> None:
    engine = Engine(load_preset("hanging-sheet"), record_every=0)
    engine.apply(GrabStart(HELD, tuple(engine.sim.state.x[HELD])))
    engine.apply(GrabMove((0.1, -1.0, 0.0), over_steps=AS_THE_POINTER_TOOK))  # same step: at once
    engine.advance(10)
    engine.apply(GrabMove((0.2, -1.0, 0.0), over_steps=AS_THE_POINTER_TOOK))
    engine.apply(GrabMove((0.3, -1.0, 0.0), over_steps=AS_THE_POINTER_TOOK))
    assert [s.command.over_steps for s in engine.journal[-3:]] == [0, 10, 10]
