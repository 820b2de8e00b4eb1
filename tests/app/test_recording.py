"""Recordings in the app: a run recorded with a grab drag and a cut, saved, opened and played;
seeking to any step gives the positions `sim.lab.engine.replay` builds there, bit for bit."""

from __future__ import annotations

import hashlib
import math

import numpy as np
from qt_helpers import WAIT_MS, a_step_later, settle

import clothlab
from clothlab.sim.core.solver import Simulation
from clothlab.sim.document.commands import (
    CutLinks,
    GrabMove,
    GrabRelease,
    GrabStart,
    SetSpeed,
    Stamped,
    Step,
)
from clothlab.sim.document.recording import Recording, load_recording, save_recording
from clothlab.sim.document.requests import SeamCut
from clothlab.sim.lab.engine import replay


def run_for(qtbot, controller, steps: int) -> None:
    target = controller.latest.steps + steps
    controller.set_running(True)
    qtbot.waitUntil(lambda: controller.latest.steps >= target, timeout=WAIT_MS)


def pause(qtbot, controller) -> None:
    controller.set_running(False)
    qtbot.waitUntil(lambda: not controller.running, timeout=WAIT_MS)
    settle(controller)  # the last snapshot and journal entries land


def digest(sim: Simulation) -> str:
    """The state a frame shows and the next step starts from, as one hash."""
    state = sim.state
    parts = (state.x, state.x_prev, state.link_alive)
    return hashlib.sha256(b"".join(np.ascontiguousarray(a).tobytes() for a in parts)).hexdigest()


def headless(recording: Recording, step: int) -> Simulation:
    """The run at `step` as replay builds it: the commands of steps up to it included."""
    journal: list[Stamped] = [item for item in recording.journal if item.step <= step]
    return replay(journal, step)


def record_a_run(qtbot, controller) -> Recording:
    controller.record()
    qtbot.waitUntil(lambda: controller.latest.steps == 0, timeout=WAIT_MS)
    run_for(qtbot, controller, 20)
    controller.submit(GrabStart(160, (0.5, -1.0, 0.6)))
    for k in range(8):
        controller.submit(GrabMove((0.5 + 0.05 * k, -1.0, 0.6 + 0.02 * k)))
        a_step_later(qtbot, controller)  # the moves spread over the run's steps
    controller.submit(GrabRelease())
    run_for(qtbot, controller, 15)
    controller.submit(SeamCut())
    run_for(qtbot, controller, 30)
    pause(qtbot, controller)
    return controller.recording()


def seek_and_wait(qtbot, controller, step: int) -> Simulation:
    controller.seek(step)
    qtbot.waitUntil(lambda: controller.latest is not None and controller.latest.steps == step,
                    timeout=WAIT_MS)  # fmt: skip
    settle(controller)  # nothing else is on its way: the worker is paused at `step`
    assert not controller.running
    return controller.worker.engine.sim


def test_seeking_a_played_recording_gives_the_replay_at_that_step(qtbot, make_controller, tmp_path):
    recorder = make_controller("hanging-sheet")
    qtbot.waitUntil(lambda: recorder.latest is not None, timeout=WAIT_MS)
    recorded = record_a_run(qtbot, recorder)
    path = tmp_path / "run.clothrec.json"
    save_recording(recorded, path)
    recording = load_recording(path)
    assert recording == recorded
    cut = next(item.step for item in recording.commands if isinstance(item.command, CutLinks))
    assert 0 < cut < recording.steps

    player = make_controller()
    player.open(path)  # File ▸ Open of a recording plays it
    assert player.replay == recording
    qtbot.waitUntil(lambda: player.latest is not None, timeout=WAIT_MS)
    # Forwards, backwards and onto the cut's own step: each seek stands on its own.
    for step in (cut - 6, recording.steps, cut, cut + 9, 0):
        sim = seek_and_wait(qtbot, player, step)
        assert digest(sim) == digest(headless(recording, step)), f"step {step}"
        assert sim.state.link_alive.all() == (step < cut)


def test_a_replay_pauses_at_its_end_and_says_so(qtbot, make_controller, tmp_path):
    recorder = make_controller("hanging-sheet")
    qtbot.waitUntil(lambda: recorder.latest is not None, timeout=WAIT_MS)
    recording = record_a_run(qtbot, recorder)

    player = make_controller()
    player.play(recording)
    player.submit(SetSpeed(math.inf))
    with qtbot.waitSignal(player.replay_finished, timeout=WAIT_MS) as finished:
        player.set_running(True)
    assert finished.args == [recording.steps]
    qtbot.waitUntil(lambda: not player.running and player.latest.steps == recording.steps,
                    timeout=WAIT_MS)  # fmt: skip
    settle(player)
    assert digest(player.worker.engine.sim) == digest(headless(recording, recording.steps))
    # The user may go on from there, and seek back into the recording.
    sim = seek_and_wait(qtbot, player, 12)
    assert digest(sim) == digest(headless(recording, 12))


def test_record_pressed_before_the_worker_took_its_load_records_the_scene_at_step_0(
    make_controller,
):
    """Record pressed at once after launch, before the worker's journal had its Load: the
    window asked for the run so far and got a CommandError traceback (seen by looking)."""
    controller = make_controller()
    controller.journal.clear()  # as before the worker reports the first load
    recording = controller.recording()
    assert recording == Recording(controller.scene, (), 0)


def test_a_load_ends_the_replay(qtbot, make_controller):
    import pytest

    from clothlab.sim.document.presets import load_preset

    player = make_controller()
    recording = Recording(load_preset("hanging-sheet"), (), 50)
    with qtbot.waitSignal(player.replay_changed):
        player.play(recording)
    assert player.replay == recording
    with qtbot.waitSignal(player.replay_changed) as changed:
        player.new_from_preset("flag")
    assert changed.args == [None] and player.replay is None
    with pytest.raises(ValueError, match="no recording"):
        player.seek(10)


# --- seeking from kept states --------------------------------------------------------------


def a_recording_with_a_cut_at(step: int, steps: int) -> Recording:
    """The extended integrator (XPBD), a grab, and a seam cut stamped for `step`."""
    from clothlab.sim.document.commands import GrabMove, GrabRelease, GrabStart
    from clothlab.sim.document.edits import SetSetting, seam_links
    from clothlab.sim.document.presets import load_preset
    from clothlab.sim.document.scene import build_topology

    scene = load_preset("hanging-sheet")
    commands = (
        Stamped(5, SetSetting("xpbd", True, False)),
        Stamped(23, GrabStart(160, (0.5, -1.0, 0.6))),
        Stamped(27, GrabMove((0.7, -1.0, 0.7))),
        Stamped(33, GrabRelease()),
        Stamped(step, CutLinks(tuple(seam_links(build_topology(scene))))),
    )
    return Recording(scene, commands, steps)


def test_a_copied_simulation_steps_on_bit_for_bit():
    from clothlab.sim.lab.engine import copy_simulation

    recording = a_recording_with_a_cut_at(40, 70)
    sim = headless(recording, 45)  # the extended integrator's caches are built and in use
    copied = copy_simulation(sim)
    assert copied.topology is sim.topology
    sim.step(25)
    copied.step(25)
    assert digest(copied) == digest(sim)


def test_kept_states_thin_evenly_when_full():
    from clothlab.sim.lab.engine import KeptState, KeptStates

    kept = KeptStates(every=10, at_most=4)
    for step in range(1, 101):
        if kept.wants(step):
            kept.add(KeptState(step, None, 0))  # type: ignore[arg-type]
    assert [k.step for k in kept.states] == [40, 80]
    assert kept.nearest(79).step == 40 and kept.nearest(39) is None
    fresh = kept.emptied()  # for another replay: none kept, the first spacing
    assert fresh.states == [] and fresh.every == 10


def test_a_seek_starts_from_the_nearest_kept_state(qtbot, make_controller):
    from clothlab.sim.lab.engine import KeptStates

    recording = a_recording_with_a_cut_at(40, 70)  # 40: a multiple of the kept spacing
    player = make_controller()
    player.worker.kept = KeptStates(every=10)
    player.play(recording)
    player.submit(SetSpeed(math.inf))
    with qtbot.waitSignal(player.replay_finished, timeout=WAIT_MS):
        player.set_running(True)
    qtbot.waitUntil(lambda: not player.running, timeout=WAIT_MS)
    settle(player)
    assert [k.step for k in player.worker.kept.states] == [10, 20, 30, 40, 50, 60, 70]
    # (step, where it starts from): a kept step, whose cut is applied after the copy; on from
    # there; before every kept state (from step 0); a later kept state rather than on from
    # here; at the end; back to the kept state before.
    for step, start in ((40, 40), (41, 40), (7, 0), (57, 50), (70, 70), (39, 30)):
        taken = player.worker.steps_taken
        sim = seek_and_wait(qtbot, player, step)
        assert digest(sim) == digest(headless(recording, step)), f"step {step}"
        assert sim.state.link_alive.all() == (step < 40)
        assert player.worker.steps_taken - taken == step - start, f"step {step}"
    # The journal is the rebuild's (a Load, then the run's commands up to step 39).
    from clothlab.sim.document.commands import WORKER_COMMANDS, Load

    journal = player.journal
    assert isinstance(journal[0].command, Load)
    edits = [item for item in journal[1:] if not isinstance(item.command, WORKER_COMMANDS)]
    assert edits == [item for item in recording.commands if item.step <= 39]


def test_a_recording_opened_while_running_plays_at_once_and_pauses_at_its_end(
    qtbot, make_controller
):
    """Play and pause are the user's: File ▸ Open of a recording on a running model plays it
    (a seek, by contrast, pauses); it stops at its last step."""
    player = make_controller("hanging-sheet")
    qtbot.waitUntil(lambda: player.latest is not None, timeout=WAIT_MS)
    player.set_running(True)
    qtbot.waitUntil(lambda: player.running, timeout=WAIT_MS)
    recording = a_recording_with_a_cut_at(40, 70)
    with qtbot.waitSignal(player.replay_finished, timeout=WAIT_MS) as finished:
        player.play(recording)
    assert finished.args == [recording.steps]
    qtbot.waitUntil(lambda: not player.running, timeout=WAIT_MS)
    player.seek(30)
    qtbot.waitUntil(lambda: player.latest.steps == 30, timeout=WAIT_MS)
    assert not player.running


# --- a recording made across an instability -------------------------------


def test_a_recording_made_across_a_blow_up_opens_and_replays_to_the_same_state(
    qtbot, make_controller, tmp_path
):
    """A grab dragged 9 000 units in a step blows the model up while recording; the guard puts
    back an earlier step and the user goes on. The recording holds the blow-up where it
    happened: it saves, opens, and replays headless and in the app to the recorder's state."""
    from clothlab.sim.document.commands import BlowUp

    recorder = make_controller("hanging-sheet")
    qtbot.waitUntil(lambda: recorder.latest is not None, timeout=WAIT_MS)
    recorder.record()
    qtbot.waitUntil(lambda: recorder.latest.clock == 0, timeout=WAIT_MS)
    run_for(qtbot, recorder, 40)
    recorder.submit(GrabStart(160, (0.5, -1.0, 0.6)))
    with qtbot.waitSignal(recorder.worker.instability_found, timeout=WAIT_MS) as found:
        recorder.submit(GrabMove((9000.0, 0.0, 0.0)))  # the worker pauses at the blow-up
    assert "Restored step" in found.args[0]
    qtbot.waitUntil(lambda: not recorder.running, timeout=WAIT_MS)
    recorder.submit(GrabMove((0.5, -1.0, 0.6)))
    held = recorder.latest.clock + 4
    for _ in range(2):  # held still for a step or two: let go, it keeps the pointer's speed
        recorder.submit(Step(2))
    qtbot.waitUntil(lambda: recorder.latest.clock >= held, timeout=WAIT_MS)
    recorder.submit(GrabRelease())
    target = recorder.latest.clock + 30
    recorder.set_running(True)
    qtbot.waitUntil(lambda: recorder.latest.clock >= target, timeout=WAIT_MS)
    pause(qtbot, recorder)
    recorded = recorder.recording()
    blow_ups = [item for item in recorded.commands if isinstance(item.command, BlowUp)]
    assert len(blow_ups) == 1
    steps = [item.step for item in recorded.commands]
    assert steps == sorted(steps) and recorded.steps >= steps[-1]
    assert recorder.latest.steps < recorded.steps  # the model's count went back, the clock not
    expected = digest(recorder.worker.engine.sim)

    path = tmp_path / "blown.clothrec.json"
    save_recording(recorded, path)
    recording = load_recording(path)  # opens
    assert recording == recorded
    assert digest(replay(recording.journal, recording.steps)) == expected  # headless

    player = make_controller()
    player.open(path)
    player.submit(SetSpeed(math.inf))
    with qtbot.waitSignal(player.replay_finished, timeout=WAIT_MS):
        player.set_running(True)  # plays through the blow-up without stopping there
    qtbot.waitUntil(lambda: not player.running, timeout=WAIT_MS)
    settle(player)
    assert digest(player.worker.engine.sim) == expected
    from clothlab.sim.document.commands import WORKER_COMMANDS

    def model_commands(run: Recording) -> list[Stamped]:
        return [item for item in run.commands if not isinstance(item.command, WORKER_COMMANDS)]

    # what it replayed, blow-up included, saved again
    assert model_commands(player.recording()) == model_commands(recording)
    # Seeks on the recording's clock: before the blow-up, just after it, and past it.
    blown = blow_ups[0].step
    for step in (blown - 3, blown, blown + 5):
        player.seek(step)
        qtbot.waitUntil(lambda: player.latest.clock == step, timeout=WAIT_MS)  # noqa: B023
        settle(player)
        assert digest(player.worker.engine.sim) == digest(headless(recording, step)), step


def test_a_recording_that_sets_the_positions_plays_in_the_app_as_the_api_ran_it(
    qtbot, make_controller
):
    """A researcher's state (Lab.set_positions) in a recording: the app's replay reaches the
    positions the API's run did, bit for bit, and seeks back across the state set."""
    lab = clothlab.open("hanging-sheet")
    lab.run(10)
    x = lab.positions
    x[:, 2] += 0.2 * np.sin(x[:, 0])
    lab.set_positions(x, velocities=np.tile([0.0, -0.5, 0.0], (lab.particles, 1)))
    lab.run(20)
    recording = lab.recording
    assert [type(s.command).__name__ for s in recording.commands] == ["SetPositions"]

    player = make_controller()
    player.play(recording)
    player.submit(SetSpeed(math.inf))
    with qtbot.waitSignal(player.replay_finished, timeout=WAIT_MS):
        player.set_running(True)
    qtbot.waitUntil(lambda: not player.running and player.latest.steps == recording.steps,
                    timeout=WAIT_MS)  # fmt: skip
    assert np.array_equal(player.worker.engine.sim.state.x, lab.positions)
    sim = seek_and_wait(qtbot, player, 5)
    assert digest(sim) == digest(headless(recording, 5))
    sim = seek_and_wait(qtbot, player, 15)
    assert digest(sim) == digest(headless(recording, 15))
