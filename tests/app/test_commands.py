"""One command path: what the worker applied, at which step, replays bit for bit; torn links
never come back with an undo, and only a saved state holds them."""

from __future__ import annotations

import math

import numpy as np
from qt_helpers import WAIT_MS, a_step_later, settle

from clothlab.sim.document.commands import GrabMove, GrabRelease, GrabStart, Load, SetSpeed
from clothlab.sim.document.edits import seam_links
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.requests import SeamCut
from clothlab.sim.document.scene import build_topology, parse_scene, scene_json, with_settings
from clothlab.sim.lab.engine import replay


def run_for(qtbot, controller, steps: int) -> None:
    target = controller.latest.steps + steps
    controller.set_running(True)
    qtbot.waitUntil(lambda: controller.latest.steps >= target, timeout=WAIT_MS)


def paused_state(qtbot, controller):
    """Pause, then read the worker's own simulation (still, once paused)."""
    controller.set_running(False)
    qtbot.waitUntil(lambda: not controller.running, timeout=WAIT_MS)
    settle(controller)  # the last snapshot and journal entries land
    return controller.worker.engine.sim


def test_a_live_run_with_a_grab_and_a_cut_replays_bit_for_bit(qtbot, make_controller):
    controller = make_controller("hanging-sheet")
    qtbot.waitUntil(lambda: controller.latest is not None, timeout=WAIT_MS)
    run_for(qtbot, controller, 20)
    controller.submit(GrabStart(160, (0.5, -1.0, 0.6)))
    for k in range(10):
        controller.submit(GrabMove((0.5 + 0.05 * k, -1.0, 0.6 + 0.02 * k)))
        a_step_later(qtbot, controller)  # the moves spread over the run's steps
    controller.submit(GrabRelease())
    run_for(qtbot, controller, 10)
    controller.submit(SeamCut())
    run_for(qtbot, controller, 30)
    live = paused_state(qtbot, controller)

    journal = list(controller.journal)
    kinds = [type(item.command).__name__ for item in journal]
    assert kinds[0] == "Load" and "GrabStart" in kinds and "CutLinks" in kinds
    assert kinds.count("GrabMove") == 10
    # each pointer move journalled with the steps it took, so the particle followed the hand
    glides = [i.command.over_steps for i in journal if isinstance(i.command, GrabMove)]
    assert all(isinstance(steps, int) for steps in glides) and sum(glides) > 0
    steps = [item.step for item in journal]
    assert steps == sorted(steps) and len(set(steps)) > 3  # applied between steps, over time
    for _ in range(2):  # twice: nothing in a replay depends on the one before
        again = replay(journal, live.state.steps)
        assert np.array_equal(again.state.x, live.state.x)
        assert np.array_equal(again.state.x_prev, live.state.x_prev)
        assert np.array_equal(again.state.link_alive, live.state.link_alive)


def test_replay_refuses_a_journal_without_a_load():
    import pytest

    from clothlab.sim.document.commands import CommandError, Stamped

    with pytest.raises(CommandError, match="starts with a Load"):
        replay([Stamped(0, GrabMove((0.0, 0.0, 0.0)))], 10)
    scene = load_preset("hanging-sheet")
    with pytest.raises(CommandError, match="back in time"):
        replay([Stamped(0, Load(scene)), Stamped(5, GrabStart(3, (0, 0, 0))),
                Stamped(2, GrabMove((0, 1, 0)))], 10)  # fmt: skip


def test_torn_links_stay_torn_after_a_seam_cut_is_undone_and_only_a_state_saves_them(
    qtbot, make_controller, tmp_path
):
    controller = make_controller("tear-lab")
    qtbot.waitUntil(lambda: controller.latest is not None, timeout=WAIT_MS)
    # Pull the middle of the bottom edge hard down so the seam tears.
    scene = controller.scene
    sheet = build_topology(scene).sheets[0]
    seam = set(seam_links(build_topology(scene)).tolist())
    bottom_middle = sheet.particle(sheet.rows - 1, sheet.cols // 2)
    controller.set_running(True)
    controller.submit(GrabStart(bottom_middle, (0.0, -60.0, 0.0)))
    qtbot.waitUntil(lambda: bool(set(controller.latest.torn) & seam), timeout=WAIT_MS)
    controller.submit(GrabRelease())
    paused_state(qtbot, controller)
    torn = set(controller.latest.torn)
    assert torn & seam, "the pull tore links on the seam"
    assert controller.scene.tears == []  # what the model did is not the set-up

    controller.submit(SeamCut())
    cut = controller.undo_stack.command(0)
    assert not set(cut.edit.links) & torn  # only live links are cut
    controller.undo_stack.undo()
    settle(controller)  # the undo's edit reached the model
    sim = controller.worker.engine.sim
    assert not sim.state.link_alive[sorted(torn)].any(), "undo must not revive torn links"
    assert set(controller.latest.torn) >= torn

    path = controller.save(tmp_path / "setup.json")
    assert parse_scene(path.read_text()).tears == []
    state = controller.save_state(tmp_path / "state.json")
    saved = parse_scene((tmp_path / "state.json").read_text())
    assert saved == state and set(saved.tears) == set(controller.latest.torn) and not saved.cuts


def test_a_scene_setting_and_the_same_set_value_give_one_simulation():
    """`--set KEY=VALUE` edits the document like the file does (solver_mode included)."""
    from clothlab.app import cli
    from clothlab.sim.lab.variants import split_changes

    settings, _ = split_changes(cli.parse_set(["xpbd=1", "solver_mode=2"]))
    scene = with_settings(load_preset("hanging-sheet"), settings)
    from_file = parse_scene(scene_json(scene))
    assert from_file.solver.solver_mode == 2 and from_file.solver.xpbd
    assert from_file == scene


def test_a_recording_saved_and_played_in_the_app_equals_the_headless_replay(
    qtbot, make_controller, tmp_path
):
    from clothlab.sim.document.recording import load_recording, save_recording

    controller = make_controller("hanging-sheet")
    qtbot.waitUntil(lambda: controller.latest is not None, timeout=WAIT_MS)
    controller.record()
    qtbot.waitUntil(lambda: controller.latest.steps == 0, timeout=WAIT_MS)
    run_for(qtbot, controller, 15)
    controller.submit(GrabStart(150, (-0.5, -1.2, 0.5)))
    for k in range(6):
        controller.submit(GrabMove((-0.5 - 0.05 * k, -1.2, 0.5)))
        a_step_later(qtbot, controller)  # the moves spread over the run's steps
    controller.submit(GrabRelease())
    controller.set_setting("wind", 4.0)
    run_for(qtbot, controller, 20)
    paused_state(qtbot, controller)
    path = tmp_path / "run.clothlab-recording.json"
    save_recording(controller.recording(), path)

    recording = load_recording(path)
    assert recording == controller.recording()  # the file holds it exactly
    player = make_controller()
    player.play(recording)
    player.submit(SetSpeed(math.inf))
    player.set_running(True)
    qtbot.waitUntil(lambda: player.latest is not None and player.latest.steps >= recording.steps,
                    timeout=WAIT_MS)  # fmt: skip
    played = paused_state(qtbot, player)
    headless = replay(recording.journal, played.state.steps)
    assert np.array_equal(played.state.x, headless.state.x)
    assert np.array_equal(played.state.x_prev, headless.state.x_prev)
    assert played.settings.wind == 4.0


def test_a_bad_recording_gives_one_line_naming_the_field(tmp_path):
    import json

    import pytest

    from clothlab.sim.document.recording import Recording, parse_recording, recording_json
    from clothlab.sim.document.scene import SceneError

    good = json.loads(recording_json(Recording(load_preset("hanging-sheet"), (), 10)))
    cases = {
        "particle": {"step": 3, "type": "grab_start", "particle": 9999, "target": [0, 0, 0]},
        "comes after": {"step": 1, "type": "pause"},
        "past the run": {"step": 11, "type": "run"},
        "type": {"step": 3, "type": "teleport"},
    }
    for fragment, command in cases.items():
        commands = [{"step": 2, "type": "run"}, command]
        text = json.dumps({**good, "commands": commands})
        with pytest.raises(SceneError, match=fragment) as caught:
            parse_recording(text, "bad.json")
        assert "\n" not in str(caught.value) and str(caught.value).startswith("bad.json")
