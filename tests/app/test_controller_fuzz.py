"""Random calls of the controller's public API, valid and hostile, with the solver running.

Every request is validated against the current document before it reaches
it or a kernel. Whatever is asked, a refused request raises a ValueError (one line) and leaves
the document as it was; the solver thread never dies; the document always saves to a file that
loads back equal; undoing everything gives back the document the run started from.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from qt_helpers import WAIT_MS

from clothlab.sim.core.parameters import PARAMETERS
from clothlab.sim.document import composition
from clothlab.sim.document.commands import GrabMove, GrabRelease, GrabStart, Step
from clothlab.sim.document.edits import CutLinks, SetPin
from clothlab.sim.document.requests import Reset
from clothlab.sim.document.scene import BoxSpec, SheetSpec, SphereSpec, parse_scene, scene_json
from clothlab.ui.window.editor import PIN_ACTIONS

HOSTILE_NUMBERS = st.one_of(
    st.integers(min_value=-(10**6), max_value=10**6),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([np.int64(3), np.float32(0.5), True, 3.5, -1]),
)
POINTS = st.one_of(
    st.tuples(*(st.floats(-3.0, 3.0),) * 3),
    st.tuples(*(st.floats(allow_nan=True, allow_infinity=True),) * 3),
    st.just((0.0, 0.0)),
)


def _composition(scene, draw):
    """A random composition change of the scene, or a bad one."""
    bodies, obstacles = len(scene.bodies), len(scene.obstacles)
    index = draw(st.integers(-1, max(bodies, 1)))
    choice = draw(st.sampled_from(
        ["add_sheet", "add_box", "add_sphere", "remove", "resize", "resolution", "pins",
         "unpin", "material", "move_obstacle", "resize_obstacle"]
    ))  # fmt: skip
    if choice == "add_sheet":
        return composition.add_body(scene, SheetSpec(cols=draw(st.integers(2, 20)), rows=4))
    if choice == "add_box":
        return composition.add_obstacle(scene, BoxSpec(center=(0.0, -1.2, 1.0)))
    if choice == "add_sphere":
        return composition.add_obstacle(scene, SphereSpec(center=(1.0, -1.0, 1.0)))
    if choice == "remove":
        return composition.remove_body(scene, index)
    if choice == "resize":
        return composition.change_body(scene, index, width=draw(HOSTILE_NUMBERS))
    if choice == "resolution":
        return composition.change_body(scene, index, cols=draw(HOSTILE_NUMBERS))
    if choice == "pins":
        # the pin sets the Pin menu asks for (ui.window.editor), and its every n-th
        which = draw(st.sampled_from([*PIN_ACTIONS.values(), "every nth of top edge"]))
        return composition.pin_set(scene, index, which, draw(st.integers(-2, 5)))
    if choice == "unpin":
        return composition.unpin_all(scene, index)
    if choice == "material":
        material = draw(st.sampled_from([None, "silk", "paper", "wool"]))
        return composition.change_body(scene, index, material=material)
    k = draw(st.integers(-1, obstacles))
    if choice == "move_obstacle":
        return composition.change_obstacle(scene, k, center=draw(POINTS))
    return composition.change_obstacle(scene, k, radius=draw(HOSTILE_NUMBERS))


@settings(
    max_examples=40, deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)  # fmt: skip
@given(data=st.data())
def test_random_requests_never_break_the_document_or_the_solver(qtbot, make_controller, data):
    controller = make_controller("hanging-sheet")
    controller.set_running(True)
    start = scene_json(controller.scene)
    keys = sorted(PARAMETERS)
    for _ in range(data.draw(st.integers(5, 25))):
        before = controller.scene
        particles = 10**6 if data.draw(st.booleans()) else data.draw(st.integers(-5, 400))
        request = data.draw(st.sampled_from(
            ["pin", "cut", "setting", "grab", "compose", "undo", "redo", "reset", "step"]
        ))  # fmt: skip
        try:
            if request == "pin":
                controller.submit(SetPin(particles, data.draw(st.one_of(st.none(), POINTS)), None))
            elif request == "cut":
                controller.submit(
                    CutLinks(tuple(data.draw(st.lists(st.integers(-5, 2000), max_size=5))))
                )
            elif request == "setting":
                controller.set_setting(data.draw(st.sampled_from(keys)), data.draw(HOSTILE_NUMBERS))
            elif request == "grab":
                controller.submit(GrabStart(particles, data.draw(POINTS)))
                controller.submit(GrabMove(data.draw(POINTS)))
                controller.submit(GrabRelease())
            elif request == "compose":
                controller.submit(_composition(controller.scene, data.draw))
            elif request == "undo":
                controller.undo_stack.undo()
            elif request == "redo":
                controller.undo_stack.redo()
            elif request == "reset":
                controller.submit(Reset())
            else:
                controller.submit(Step())
        except (ValueError, KeyError, TypeError, IndexError) as refused:
            assert "\n" not in str(refused)
            assert controller.scene == before  # a refused request changes nothing
        assert parse_scene(scene_json(controller.scene)) == controller.scene
    # the solver thread is alive and steps the document it has now
    steps = controller.latest.steps if controller.latest is not None else -1
    qtbot.waitUntil(
        lambda: (
            controller.latest is not None
            and controller.latest.steps > steps
            and controller.latest.x.shape[0] == _particles(controller.scene)
        ),
        timeout=WAIT_MS,
    )
    assert np.isfinite(controller.latest.x).all()
    while controller.undo_stack.canUndo():
        controller.undo_stack.undo()
    assert scene_json(controller.scene) == start


def _particles(scene) -> int:
    from clothlab.sim.document.scene import body_counts

    return body_counts(scene.bodies)[0]


def test_a_nan_or_infinite_setting_is_refused_in_one_line(make_controller):
    controller = make_controller("hanging-sheet")
    for value in (math.nan, math.inf, -math.inf):
        try:
            controller.set_setting("gravity", value)
        except ValueError as refused:
            assert "not a finite number" in str(refused) and "\n" not in str(refused)
        else:
            raise AssertionError(f"gravity = {value} was accepted")
    assert controller.undo_stack.count() == 0
