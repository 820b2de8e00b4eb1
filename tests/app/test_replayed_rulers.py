"""Rulers in a replay: a recording's ruler edits show at their steps as the
replay plays or seeks either way, as the recorded run had them; once the user edits the replay,
the rulers are theirs."""

from __future__ import annotations

from qt_helpers import WAIT_MS

import clothlab
from clothlab.sim.document.commands import EditRulers
from clothlab.sim.document.recording import load_recording

A, B = (0, 164), (14, 150)  # two rulers across the hanging sheet's diagonals


def seek_and_wait(qtbot, controller, step: int) -> None:
    controller.seek(step)
    qtbot.waitUntil(lambda: controller.latest is not None and controller.latest.clock == step,
                    timeout=WAIT_MS)  # fmt: skip


def ends(scene) -> list[tuple[int, int]]:
    return [(r.start.particle, r.end.particle) for r in scene.rulers]


def test_a_replay_shows_the_rulers_the_recorded_run_had_at_each_step(
    qtbot, make_controller, tmp_path
):
    lab = clothlab.open("hanging-sheet")
    lab.run(10)
    lab.add_ruler(*A)  # step 10
    lab.run(20)
    lab.remove_ruler(0)  # step 30
    lab.run(10)
    lab.add_ruler(*B)  # step 40
    lab.run(20)
    path = tmp_path / "rulers.clothrec.json"
    lab.save_recording(path)
    assert load_recording(path).steps == 60

    player = make_controller()
    player.open(path)
    qtbot.waitUntil(lambda: player.latest is not None, timeout=WAIT_MS)
    for step, expected in ((5, []), (20, [A]), (35, []), (60, [B]), (10, [A]), (0, [])):
        seek_and_wait(qtbot, player, step)
        qtbot.waitUntil(lambda expected=expected: ends(player.scene) == expected, timeout=WAIT_MS)
    assert player.undo_stack.count() == 0  # the replay's own rulers: nothing to undo

    seek_and_wait(qtbot, player, 20)
    qtbot.waitUntil(lambda: ends(player.scene) == [A], timeout=WAIT_MS)
    mine = player.scene.rulers
    player.submit(EditRulers((), tuple(mine)))  # the user removes it: the document is theirs
    player.submit(EditRulers(tuple(mine), ()))
    player.set_running(True)
    qtbot.waitUntil(lambda: player.latest.clock >= 45, timeout=WAIT_MS)
    assert ends(player.scene) == [A]  # not B: the recorded edit no longer overrides theirs
