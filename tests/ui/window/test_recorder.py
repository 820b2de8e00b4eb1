"""Recording and replay in the real window: Simulation ▸ Record, Save recording…, File ▸ Open
recording… and the replay bar's seek slider."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog
from qt_helpers import WAIT_MS, a_step_later, settle

from clothlab.sim.document.commands import GrabRelease, GrabStart
from clothlab.sim.document.recording import load_recording
from tests.ui.test_typed_values import type_into


def frame_step(window) -> int | None:
    latest = window.controller.latest
    return None if latest is None else latest.steps


def run_for(qtbot, window, steps: int) -> None:
    controller = window.controller
    target = controller.latest.steps + steps
    controller.set_running(True)
    qtbot.waitUntil(lambda: controller.latest.steps >= target, timeout=WAIT_MS)


def pause(qtbot, window) -> None:
    window.controller.set_running(False)
    qtbot.waitUntil(lambda: not window.controller.running, timeout=WAIT_MS)
    settle(window.controller)  # the last snapshot and journal entries land


def record_and_save(qtbot, window, monkeypatch, path: Path) -> None:
    controller = window.controller
    assert not window.action_save_recording.isEnabled()  # nothing recorded yet
    window.action_record.trigger()
    assert window.action_record.isChecked() and window.recorder.recording_now
    qtbot.waitUntil(lambda: controller.latest.steps == 0, timeout=WAIT_MS)
    run_for(qtbot, window, 25)
    qtbot.waitUntil(lambda: window.status.currentMessage().startswith("● Recording — step "),
                    timeout=WAIT_MS)  # fmt: skip
    controller.submit(GrabStart(160, (0.5, -1.0, 0.6)))
    a_step_later(qtbot, controller)
    controller.submit(GrabRelease())
    window.action_seam.trigger()
    run_for(qtbot, window, 30)
    pause(qtbot, window)
    window.action_record.trigger()
    assert not window.recorder.recording_now
    assert window.status.currentMessage().startswith("Recorded ")
    assert window.action_save_recording.isEnabled()
    asked = []

    def save_name(*args, **kwargs):
        asked.append(args)
        return str(path), ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_name)
    window.action_save_recording.trigger()
    assert asked and asked[0][2].endswith(".clothrec.json")  # the suggested name
    assert path.is_file()


def test_record_save_open_and_seek_in_the_window(qtbot, make_window, monkeypatch, tmp_path):
    window = make_window()
    qtbot.waitUntil(lambda: window.controller.latest is not None, timeout=WAIT_MS)
    path = tmp_path / "run.clothrec.json"
    record_and_save(qtbot, window, monkeypatch, path)
    recording = load_recording(path)
    assert recording == window.recorder.kept and recording.steps >= 55
    assert not window.recorder.bar.isVisible()

    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    window.action_open_recording.trigger()
    bar = window.recorder.bar
    assert window.controller.replay == recording
    assert bar.isVisible() and bar.slider.maximum() == recording.steps
    assert f"of {recording.steps} " in bar.length_label.text()
    window.reset_layout()  # a layout put back keeps the bar while the replay is open
    assert bar.isVisible()

    bar.slider.setValue(40)  # a key or a click on the groove; a drag seeks on release
    qtbot.waitUntil(lambda: frame_step(window) == 40, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: bar.step_box.value() == 40, timeout=WAIT_MS)
    assert bar.slider.value() == 40 and not window.controller.running

    type_into(qtbot, bar.step_box, "99999")  # past the end: refused in one line, not clamped
    assert window.status.currentMessage() == f"Step 99999: expected 0…{recording.steps}"
    settle(window.controller)  # a seek, had one been sent, would be shown now
    assert frame_step(window) == 40 and bar.step_box.value() == 40

    bar.step_box.setValue(recording.steps)  # a typed step (entered) seeks too
    qtbot.waitUntil(
        lambda: window.status.currentMessage() == f"Replay finished at step {recording.steps}",
        timeout=WAIT_MS,
    )
    # the closing Pause is applied (and said) just before the last step's frame is published
    qtbot.waitUntil(lambda: window.controller.latest.steps == recording.steps, timeout=WAIT_MS)

    window.files.new()  # another document: the replay is over and the bar goes
    assert window.controller.replay is None and not bar.isVisible()
    assert window.files.open_path(path)  # File ▸ Open (and Open recent) play a recording too
    assert window.controller.replay == recording and bar.isVisible()


def test_add_sheet_while_recording_ends_the_recording_and_keeps_it(qtbot, make_window, tmp_path):
    """A change of bodies starts the model afresh: the recording ends before it, with every
    step and command recorded so far (it was cut down to the steps after)."""
    from clothlab.sim.document.commands import CutLinks

    window = make_window()
    controller = window.controller
    qtbot.waitUntil(lambda: controller.latest is not None, timeout=WAIT_MS)
    window.action_record.trigger()
    qtbot.waitUntil(lambda: controller.latest.steps == 0, timeout=WAIT_MS)
    run_for(qtbot, window, 40)
    controller.submit(GrabStart(160, (0.5, -1.0, 0.6)))
    controller.submit(GrabRelease())
    window.action_seam.trigger()
    run_for(qtbot, window, 40)
    pause(qtbot, window)
    before = controller.recording()
    assert before.steps >= 80 and len(before.commands) >= 4

    window.action_add_sheet.trigger()  # Add ▸ Sheet
    assert len(controller.scene.bodies) == 2
    assert not window.action_record.isChecked() and not window.recorder.recording_now
    assert window.recorder.kept == before  # nothing recorded was thrown away
    message = window.status.currentMessage()
    assert (
        message.startswith("Recording ended before “Add sheet")
        and f"{before.steps} steps" in message
    )
    run_for(qtbot, window, 20)  # the new run goes on, and is not recorded into it
    assert window.recorder.kept == before
    assert any(isinstance(item.command, CutLinks) for item in window.recorder.kept.commands)
    path = tmp_path / "kept.clothrec.json"
    assert window.recorder.save_to(path, window.recorder.to_save())
    assert load_recording(path) == before


def hostile_recording(command: dict) -> str:
    import json

    from clothlab.sim.document.presets import load_preset
    from clothlab.sim.document.recording import Recording, recording_json

    document = json.loads(recording_json(Recording(load_preset("hanging-sheet"), (), 20)))
    document["commands"] = [{"step": 1, **command}]
    return json.dumps(document)


HOSTILE = {  # each had given tracebacks (≈ 120 a second while replaying)
    "bodies emptied": {
        "type": "edit_scene",
        "text": "Edit",
        "after": {"bodies": []},
        "before": {"bodies": []},
    },
    "a 401-digit setting": {
        "type": "set_setting",
        "key": "stiffness",
        "value": 10**400,
        "previous": 1.0,
    },
}


@pytest.mark.parametrize("name", HOSTILE)
def test_open_recording_of_a_hostile_file_is_one_dialog_and_keeps_the_document(
    qtbot, make_window, monkeypatch, tmp_path, name
):
    from PySide6.QtWidgets import QMessageBox

    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(
        QMessageBox, "critical", lambda _p, title, text, *a, **k: shown.append((title, text))
    )
    monkeypatch.setattr(
        QMessageBox, "warning", lambda _p, title, text, *a, **k: shown.append((title, text))
    )
    window = make_window()
    before = window.controller.scene
    path = tmp_path / "hostile.clothrec.json"
    path.write_text(hostile_recording(HOSTILE[name]))
    assert not window.recorder.open_path(path)
    assert len(shown) == 1 and shown[0][0] == "Cannot open recording"
    assert str(path) in shown[0][1] and "\n" not in shown[0][1]
    assert window.controller.scene is before and window.controller.replay is None
