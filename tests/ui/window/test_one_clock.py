"""One clock: the status bar, the Readouts line and the replay bar show the
time and step of the frame the 3D view shows, all at once (3.42 s / 3.57 s and step 428 / 443
were on screen together)."""

from __future__ import annotations

import re

from qt_helpers import WAIT_MS

from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.recording import Recording, save_recording
from clothlab.sim.lab.engine import Engine


def shown_clocks(window) -> tuple[str, str, int]:
    """(the status bar's time, the Readouts line's time, its step) and the replay bar's step."""
    status = re.fullmatch(r"t = (\S+) s", window.status.time_label.text())
    readouts = re.fullmatch(r"t = (\S+) s · step (\d+)", window.readouts_panel.time_label.text())
    assert status and readouts, (window.status.time_label.text(),)
    assert status.group(1) == readouts.group(1), "status bar and Readouts differ"
    return status.group(1), readouts.group(2), window.recorder.bar.step_box.value()


def test_the_status_bar_readouts_and_replay_bar_read_one_clock_while_a_replay_plays(
    qtbot, make_window, tmp_path
):
    scene = load_preset("hanging-sheet")
    path = tmp_path / "long.clothrec.json"
    save_recording(Recording(scene, (), 2400), path)
    window = make_window("hanging-sheet", paused=True)
    window.controller.open(path)
    qtbot.waitUntil(lambda: window.controller.replay is not None, timeout=WAIT_MS)
    window.controller.set_running(True)
    seen = set()
    for _ in range(12):  # while it runs: every frame shown updates all three at once
        with qtbot.waitSignal(window.viewport.frame_drawn, timeout=WAIT_MS):
            pass
        _t, step, replay_step = shown_clocks(window)
        assert int(step) == replay_step
        seen.add(replay_step)
    assert len(seen) > 3  # it ran
    dt = Engine(scene, record_every=0).sim.settings.dt
    t, step, _ = shown_clocks(window)
    assert abs(float(t) - int(step) * dt) <= 0.005 + 1e-9  # the time is of that step
