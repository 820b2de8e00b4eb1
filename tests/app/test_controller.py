"""The controller's document: edits applied to the scene, undo, save/open, reset."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from PySide6.QtCore import QCoreApplication
from qt_helpers import WAIT_MS

from clothlab.app.controller import Controller
from clothlab.app.worker import Seek
from clothlab.sim.core.parameters import PARAMETERS
from clothlab.sim.document.commands import apply_to_document
from clothlab.sim.document.edits import CutLinks, SetPin, SetSetting
from clothlab.sim.document.presets import load_preset, preset_path
from clothlab.sim.document.requests import BeginGesture, EndGesture, Reset
from clothlab.sim.document.scene import SceneError, load_scene, scene_settings


@pytest.fixture
def controller(make_controller) -> Controller:
    return make_controller("hanging-sheet")


def test_every_declared_setting_has_a_home_in_the_document():
    scene = load_preset("hanging-sheet")
    for key, parameter in PARAMETERS.items():
        value = getattr(scene_settings(scene), key)
        if parameter.kind is bool:
            new = not value
        else:
            new = parameter.kind(
                parameter.maximum if value != parameter.maximum else parameter.minimum
            )
        edited = apply_to_document(scene, SetSetting(key, new, value))
        assert getattr(scene_settings(edited), key) == new, key


def test_apply_to_document_covers_settings_pins_and_cuts():
    scene = load_preset("hanging-sheet")
    scene = apply_to_document(scene, SetSetting("ball_radius", 0.8, 0.5))
    assert scene.ball.radius == 0.8
    scene = apply_to_document(scene, SetSetting("ball_center", (0.0, -1.0, 0.5), (0.0, -0.6, 0.0)))
    assert scene.ball.center == (0.0, -1.0, 0.5)
    scene = apply_to_document(scene, SetPin(14, (1.0, 1.0, 0.0), (1.4, 1.0, 0.0)))
    assert [(p.particle, p.anchor) for p in scene.pins] == [
        (0, (-1.4, 1.0, 0.0)), (14, (1.0, 1.0, 0.0)),
    ]  # fmt: skip
    scene = apply_to_document(scene, SetPin(7, (0.0, 1.0, 0.0), None))
    assert [p.particle for p in scene.pins] == [0, 7, 14]
    scene = apply_to_document(scene, SetPin(0, None, (-1.4, 1.0, 0.0)))
    assert [p.particle for p in scene.pins] == [7, 14]
    scene = apply_to_document(scene, CutLinks((5, 3)))
    assert scene.cuts == [3, 5]
    scene = apply_to_document(scene, CutLinks((5,), restore=True))
    assert scene.cuts == [3]


def test_set_setting_is_undoable_and_marks_the_document(qtbot, controller):
    controller.set_setting("wind", 4.0)
    assert controller.scene.wind.strength == 4.0
    assert not controller.undo_stack.isClean()
    qtbot.waitUntil(
        lambda: controller.latest is not None and controller.latest.settings.wind == 4.0,
        timeout=WAIT_MS,
    )
    controller.undo_stack.undo()
    assert controller.scene.wind.strength == 0.0
    assert controller.undo_stack.isClean()
    qtbot.waitUntil(lambda: controller.latest.settings.wind == 0.0, timeout=WAIT_MS)


def test_changes_of_one_setting_within_a_gesture_merge_into_one_command(controller):
    controller.submit(BeginGesture())
    for value in (1.0, 2.0, 3.0):
        controller.set_setting("wind", value)
    controller.submit(EndGesture())
    controller.set_setting("gravity", 5.0)
    assert controller.undo_stack.count() == 2
    controller.undo_stack.undo()
    controller.undo_stack.undo()
    assert controller.scene.wind.strength == 0.0
    assert controller.scene.solver.gravity == 9.8


def test_out_of_range_setting_is_refused(controller):
    with pytest.raises(ValueError):
        controller.set_setting("passes", 0)
    with pytest.raises(KeyError):
        controller.set_setting("no_such_setting", 1)
    assert controller.undo_stack.count() == 0


def test_same_value_pushes_nothing(controller):
    controller.set_setting("gravity", 9.8)
    assert controller.undo_stack.count() == 0


def test_move_pin_is_undoable(controller):
    controller.submit(SetPin(14, (1.2, 1.1, 0.0), None))
    assert {p.particle: p.anchor for p in controller.scene.pins}[14] == (1.2, 1.1, 0.0)
    assert controller.undo_stack.undoText() == "Move pin"
    controller.undo_stack.undo()
    assert {p.particle: p.anchor for p in controller.scene.pins}[14] == (1.4, 1.0, 0.0)


def test_a_cut_takes_only_the_live_links_once_each_in_order(controller):
    controller.submit(CutLinks((5,)))
    controller.submit(CutLinks((7, 5, 3, 7)))
    assert controller.scene.cuts == [3, 5, 7]
    assert controller.undo_stack.undoText() == "Cut 2 links"
    controller.undo_stack.undo()
    assert controller.scene.cuts == [5]


def test_save_and_open_round_trip(controller, tmp_path):
    controller.set_setting("ball", True)
    path = tmp_path / "scene.json"
    controller.save(path)
    assert controller.path == path
    assert controller.undo_stack.isClean()
    assert load_scene(path).ball.enabled
    controller.new_from_preset("flag")
    assert controller.path is None
    assert controller.scene.name == "Flag"
    controller.open(path)
    assert controller.scene.ball.enabled
    assert controller.path == path


def test_save_without_a_path_asks_for_one(controller):
    with pytest.raises(ValueError):
        controller.save()


def test_open_bad_file_raises_and_keeps_the_document(controller, tmp_path):
    before = controller.scene
    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    with pytest.raises(SceneError):
        controller.open(bad)
    assert controller.scene is before
    with pytest.raises(SceneError):
        controller.open(tmp_path / "missing.json")
    assert controller.scene is before


def test_open_preset_by_name(controller):
    controller.open("soft-block")
    assert controller.scene == load_scene(preset_path("soft-block"))
    assert controller.path is None


def test_reset_keeps_edits_and_starts_at_rest(qtbot, controller):
    controller.set_setting("wind", 6.0)
    controller.set_running(True)
    qtbot.waitUntil(lambda: controller.latest is not None and controller.latest.t > 0.2,
                    timeout=WAIT_MS)  # fmt: skip
    controller.set_running(False)
    qtbot.waitUntil(lambda: not controller.running, timeout=WAIT_MS)
    controller.submit(Reset())
    qtbot.waitUntil(lambda: controller.latest.steps == 0, timeout=WAIT_MS)
    assert controller.latest.settings.wind == 6.0
    assert controller.undo_stack.count() == 1


def two_seconds_later(clock: Callable[[], float]) -> Callable[[], float]:
    return lambda: clock() + 2.0


def test_two_drags_are_two_entries_and_one_slow_drag_is_one(qtbot, controller, monkeypatch):
    """Merging went by time: two drags 0.5 s apart became one entry, one drag with a 2 s pause
    while held became two. Now a drag (press to release) is one entry, whatever the timing."""
    for value in (1.0, 2.0):  # two quick drags
        controller.submit(BeginGesture())
        controller.set_setting("wind", value)
        controller.set_setting("wind", value + 0.5)
        controller.submit(EndGesture())
    assert controller.undo_stack.count() == 2
    controller.submit(BeginGesture())  # one slow drag
    controller.set_setting("wind", 4.0)
    for clock in ("monotonic", "perf_counter", "time"):  # 2 s held, by any clock read
        monkeypatch.setattr(time, clock, two_seconds_later(getattr(time, clock)))
    QCoreApplication.processEvents()
    controller.set_setting("wind", 5.0)
    controller.submit(EndGesture())
    assert controller.undo_stack.count() == 3
    controller.set_setting("wind", 6.0)  # typed, not dragged: an entry of its own
    controller.set_setting("wind", 7.0)
    assert controller.undo_stack.count() == 5


def test_a_command_the_solver_thread_refuses_is_said_on_message(qtbot, controller):
    """The worker's command_failed reaches the status line: a refused command is never lost."""
    with qtbot.waitSignal(controller.message, timeout=WAIT_MS) as said:
        controller.send(Seek(3))  # nothing is being replayed
    assert said.args == ["no recording is being replayed"]


def test_the_undo_stack_is_a_view_of_the_sessions_history(qtbot, controller):
    """The Edit menu's undo and the History panel's jump go through the session: its history
    and the stack agree at every step, a drag is one entry in both."""
    history, stack = controller.session.history, controller.undo_stack
    controller.submit(BeginGesture())
    for value in (0.2, 0.3):
        controller.set_setting("bend_compliance", value)
    controller.submit(EndGesture())
    controller.set_setting("wind", 2.0)
    assert stack.count() == len(history.entries) == 2 and stack.index() == history.index == 2
    assert stack.text(0) == history.entries[0].edit.text
    stack.undo()
    assert history.index == 1 and controller.scene.wind.strength != 2.0
    controller.go_to_history(0)
    assert stack.index() == history.index == 0
    assert scene_settings(controller.scene).bend_compliance != 0.3
    stack.redo()
    assert history.index == 1 and scene_settings(controller.scene).bend_compliance == 0.3
