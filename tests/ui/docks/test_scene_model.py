"""The scene item model: Qt's model checks, values from the document, edits as requests."""

from __future__ import annotations

from PySide6.QtCore import Qt

from clothlab.sim.document.composition import change_obstacle
from clothlab.sim.document.edits import SetPin
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.requests import ChangeSetting, Compose
from clothlab.ui.docks.scene_model import ADDRESS_ROLE, SceneModel
from clothlab.ui.intents import change_body


def find_value(model: SceneModel, address):
    """The index of the value cell with this address, searched through the whole tree."""
    pending = [model.index(row, 0) for row in range(model.rowCount())]
    while pending:
        index = pending.pop()
        value = index.siblingAtColumn(1)
        if value.data(ADDRESS_ROLE) == address:
            return value
        pending += [model.index(row, 0, index) for row in range(model.rowCount(index))]
    raise LookupError(address)


def top_level_titles(model: SceneModel) -> list[str]:
    return [model.index(row, 0).data() for row in range(model.rowCount())]


def test_model_passes_qt_model_checks(qtmodeltester):
    model = SceneModel()
    model.set_scene(load_preset("hanging-sheet"))
    qtmodeltester.check(model)
    model.set_scene(load_preset("soft-block"))
    qtmodeltester.check(model)


def test_objects_of_the_scene_are_listed():
    model = SceneModel()
    model.set_scene(load_preset("hanging-sheet"))
    titles = top_level_titles(model)
    assert titles == ["Bodies", "Obstacles", "Pins", "Floor", "Wind", "Solver", "Fabric"]
    bodies, obstacles = model.index(0, 0), model.index(1, 0)
    assert model.index(0, 0, bodies).data() == "Sheet 15 × 11"
    assert model.index(0, 1, bodies).data() == "165 particles, 584 links"
    assert model.index(0, 0, obstacles).data() == "Ball"  # the ball first, then the obstacles
    assert model.index(0, 0, model.index(2, 0)).data() == "Particle 0"
    model.set_scene(load_preset("soft-block"))
    assert model.index(0, 0, model.index(0, 0)).data() == "Block 4 × 4 × 4"


def test_body_fields_and_obstacles_are_listed_and_edited(qtbot):
    from clothlab.sim.document.scene import BoxSpec

    model = SceneModel()
    scene = load_preset("hanging-sheet")
    model.set_scene(scene.model_copy(update={"obstacles": [BoxSpec()]}))
    assert find_value(model, ("body", 0, "cols")).data() == "15"
    assert find_value(model, ("body", 0, "horizontal")).data() == "hanging"
    assert find_value(model, ("obstacle", 0, "size", 2)).data() == "1 units"
    with qtbot.waitSignal(model.command_requested) as blocker:
        model.setData(find_value(model, ("body", 0, "top_center", 1)), 2.0)
    assert blocker.args == [Compose(change_body, (0,), {"top_center": (0.0, 2.0, 0.0)})]
    with qtbot.waitSignal(model.command_requested) as blocker:
        model.setData(find_value(model, ("body", 0, "horizontal")), 1)
    assert blocker.args == [Compose(change_body, (0,), {"horizontal": True})]
    with qtbot.waitSignal(model.command_requested) as blocker:
        model.setData(find_value(model, ("obstacle", 0, "name")), "crate")
    assert blocker.args == [Compose(change_obstacle, (0,), {"name": "crate"})]


def test_the_pins_of_the_selected_body_are_listed():
    from clothlab.sim.document.composition import duplicate_body

    model = SceneModel()
    scene = duplicate_body(load_preset("hanging-sheet"), 0).scene  # two sheets, 2 + 2 pins
    model.set_scene(scene)
    pins = model.index(2, 0)
    assert model.rowCount(pins) == 4 and pins.siblingAtColumn(1).data() == "4"
    model.show_pins_of(1)
    assert [model.index(r, 0, pins).data() for r in range(2)] == ["Particle 165", "Particle 179"]
    assert pins.siblingAtColumn(1).data() == "2 of Sheet 15 × 11 (2)"


def test_values_show_the_document_with_units():
    model = SceneModel()
    scene = load_preset("flag")
    model.set_scene(scene)
    wind = find_value(model, ("setting", "wind"))
    assert wind.data(Qt.ItemDataRole.EditRole) == scene.wind.strength
    assert wind.data() == f"{scene.wind.strength:g} units/s²"
    assert "Range -100 … 100 units/s²" in wind.data(Qt.ItemDataRole.ToolTipRole)
    ball = find_value(model, ("setting", "ball"))
    assert Qt.CheckState(ball.data(Qt.ItemDataRole.CheckStateRole)) == Qt.CheckState.Unchecked
    anchor_x = find_value(model, ("pin", 0, 0)).data(Qt.ItemDataRole.EditRole)
    assert anchor_x == scene.pins[0].anchor[0]


def test_editing_a_value_requests_the_change(qtbot):
    model = SceneModel()
    model.set_scene(load_preset("hanging-sheet"))
    with qtbot.waitSignal(model.command_requested) as blocker:
        assert model.setData(find_value(model, ("setting", "ball_radius")), 0.8)
    assert blocker.args == [ChangeSetting("ball_radius", 0.8)]
    with qtbot.waitSignal(model.command_requested) as blocker:
        model.setData(find_value(model, ("setting", "passes")), 20)
    assert blocker.args == [ChangeSetting("passes", 20)]
    with qtbot.waitSignal(model.command_requested) as blocker:
        model.setData(
            find_value(model, ("setting", "ball")),
            Qt.CheckState.Checked,
            Qt.ItemDataRole.CheckStateRole,
        )
    assert blocker.args == [ChangeSetting("ball", True)]
    with qtbot.waitSignal(model.command_requested) as blocker:
        model.setData(find_value(model, ("ball_center", 1)), -0.2)
    # the preset ball: in front
    assert blocker.args == [ChangeSetting("ball_center", (0.0, -0.2, 0.75))]
    with qtbot.waitSignal(model.command_requested) as blocker:
        model.setData(find_value(model, ("pin", 14, 0)), 1.0)
    assert blocker.args == [SetPin(14, (1.0, 1.0, 0.0), None)]


def test_out_of_range_edit_is_refused(qtbot):
    model = SceneModel()
    model.set_scene(load_preset("hanging-sheet"))
    with qtbot.assertNotEmitted(model.command_requested):
        assert not model.setData(find_value(model, ("setting", "passes")), 0)
        assert not model.setData(find_value(model, ("setting", "wind")), float("nan"))


def test_update_from_scene_follows_edits_and_pins(qtbot):
    model = SceneModel()
    scene = load_preset("hanging-sheet")
    model.set_scene(scene)
    edited = scene.model_copy(
        update={
            "wind": scene.wind.model_copy(update={"strength": 3.5}),
            "pins": scene.pins[:1],
        }
    )
    with qtbot.assertNotEmitted(model.command_requested):
        model.update_from_scene(edited)
    assert find_value(model, ("setting", "wind")).data(Qt.ItemDataRole.EditRole) == 3.5
    pins = model.index(2, 0)
    assert model.rowCount(pins) == 1
    assert pins.siblingAtColumn(1).data() == "1"
