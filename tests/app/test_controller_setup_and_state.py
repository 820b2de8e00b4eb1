"""The controller's document is the experiment's set-up: Save writes
it and never the links the model tore; Save State exports them without touching the document's
file or clean state; a file holding tears keeps them through Save and Reset; pins made during a
run go into the set-up at rest places, and a Reset that starts stretched says why."""

from __future__ import annotations

from qt_helpers import WAIT_MS

from clothlab.sim.document.edits import SetPin
from clothlab.sim.document.requests import Reset
from clothlab.sim.document.scene import body_counts, build_topology, load_scene


def run_until(qtbot, controller, condition) -> None:
    controller.set_running(True)
    qtbot.waitUntil(lambda: controller.latest is not None and condition(controller.latest),
                    timeout=WAIT_MS)  # fmt: skip
    controller.set_running(False)
    qtbot.waitUntil(lambda: not controller.running, timeout=WAIT_MS)


def restart(qtbot, controller, start):
    """Call `start` (a Reset, an open) and return the step-0 frame it brings."""
    before = controller.latest.frame if controller.latest is not None else -1
    start()
    qtbot.waitUntil(
        lambda: controller.latest is not None and controller.latest.frame > before,
        timeout=WAIT_MS,
    )
    assert controller.latest.steps == 0
    return controller.latest


def reset(qtbot, controller):
    return restart(qtbot, controller, lambda: controller.submit(Reset()))


def torn_tear_lab(qtbot, make_controller):
    controller = make_controller("tear-lab")
    controller.set_setting("tear_ratio", 1.05)
    run_until(qtbot, controller, lambda snapshot: len(snapshot.torn) > 0)
    return controller


def test_save_writes_the_set_up_and_save_state_the_links_torn_so_far(
    qtbot, make_controller, tmp_path
):
    controller = torn_tear_lab(qtbot, make_controller)
    snapshot = controller.latest
    setup = controller.save(tmp_path / "setup.json")
    reopened = load_scene(setup)
    assert reopened.tears == [] and reopened == controller.scene
    assert controller.undo_stack.isClean()

    controller.set_setting("wind", 1.0)  # unsaved: Save State must leave it so
    state = controller.save_state(tmp_path / "state.json", snapshot=snapshot)
    assert controller.path == setup and not controller.undo_stack.isClean()
    assert controller.scene.tears == []
    written = load_scene(tmp_path / "state.json")
    assert written == state and written.tears == sorted(snapshot.torn)
    assert written.name == (
        f"Tear lab — state at t = {snapshot.t:.2f} s ({len(snapshot.torn)} links torn)"
    )
    assert "positions are not stored" in written.description.lower()


def test_a_saved_state_opens_torn_and_keeps_its_tears_through_save_and_reset(
    qtbot, make_controller, tmp_path
):
    source = torn_tear_lab(qtbot, make_controller)
    source.save_state(tmp_path / "state.json")
    tears = load_scene(tmp_path / "state.json").tears

    controller = make_controller()
    first = restart(qtbot, controller, lambda: controller.open(tmp_path / "state.json"))
    assert controller.scene.tears == tears
    assert list(first.torn) == tears  # the set-up as loaded is torn
    links = body_counts(controller.scene.bodies)[1]
    assert first.readouts.links == links - len(tears)

    run_until(qtbot, controller, lambda snapshot: len(snapshot.torn) > len(tears))
    assert controller.scene.tears == tears  # the run's own tears stay out of the document
    controller.save(tmp_path / "again.json")
    assert load_scene(tmp_path / "again.json").tears == tears

    # Reset: back to the set-up as loaded, torn as the file says
    assert list(reset(qtbot, controller).torn) == tears


def test_reset_of_a_sheet_pinned_during_a_run_starts_unstretched(qtbot, make_controller):
    controller = make_controller("hanging-sheet")
    run_until(qtbot, controller, lambda snapshot: snapshot.steps >= 120)
    snapshot = controller.latest
    rest = build_topology(controller.scene).rest_positions
    particle = 80  # the middle of the sheet, sagging below its rest place
    live = tuple(float(v) for v in snapshot.x[particle])
    controller.submit(SetPin(particle, tuple(rest[particle]), None, live=live))
    assert controller.scene.pins[-1].anchor == tuple(rest[particle])
    messages: list[str] = []
    controller.message.connect(messages.append)
    assert reset(qtbot, controller).readouts.max_stretch < 1e-9
    assert messages == []  # nothing to say: no pin was moved on purpose


def test_reset_with_a_pin_moved_on_purpose_says_the_cloth_starts_stretched(qtbot, make_controller):
    controller = make_controller("shifted-pins")
    qtbot.waitUntil(lambda: controller.latest is not None, timeout=WAIT_MS)
    with qtbot.waitSignal(controller.message, timeout=WAIT_MS) as said:
        first = reset(qtbot, controller)
    assert said.args == ["Reset: 1 pin is away from its rest place — the cloth starts stretched"]
    assert first.readouts.max_stretch > 0.1

    controller = make_controller("hanging-sheet")
    controller.submit(SetPin(0, (-1.0, 1.2, 0.0), None))  # both corners moved on purpose
    controller.submit(SetPin(14, (1.0, 1.2, 0.0), None))
    with qtbot.waitSignal(controller.message, timeout=WAIT_MS) as said:
        controller.submit(Reset())
    assert said.args == [
        "Reset: 2 pins are away from their rest places — the cloth starts stretched"
    ]
