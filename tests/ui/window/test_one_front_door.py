"""One front door: the window and the Python API change a document through the same Session
(sim.lab.session), so the same seam cut, pin and undo leave the same document."""

from __future__ import annotations

import clothlab
from clothlab.sim.document.commands import SetPin
from clothlab.sim.document.scene import as_point, build_topology, scene_json


def test_a_seam_cut_a_pin_and_an_undo_leave_the_same_document_in_the_window_and_the_api(
    qtbot, make_window
):
    window = make_window("hanging-sheet", paused=True)
    lab = clothlab.open("hanging-sheet")
    particle = 100  # a free particle, low on the sheet
    rest = as_point(build_topology(window.controller.scene).rest_positions[particle])

    window.action_seam.trigger()  # Edit ▸ Seam cut
    assert window.context.submit(SetPin(particle, rest, None))  # as the Pin tool asks, paused
    cut = lab.cut_seam()
    lab.pin(particle)
    assert cut == len(window.controller.scene.cuts) > 0
    assert scene_json(window.controller.scene) == scene_json(lab.scene)
    assert lab.history == [window.controller.undo_stack.text(k) for k in range(2)]

    window.action_undo.trigger()  # Edit ▸ Undo: the pin
    assert lab.undo() == window.controller.undo_stack.text(1)
    assert lab.history == [window.controller.undo_stack.text(0)]
    assert scene_json(window.controller.scene) == scene_json(lab.scene)
    assert [p.particle for p in lab.scene.pins] == [0, 14]
    window.action_redo.trigger()
    lab.redo()
    assert scene_json(window.controller.scene) == scene_json(lab.scene)
