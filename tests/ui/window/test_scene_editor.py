"""The scene editor on the real window: the Add and Pin actions, the Scene panel's body and
obstacle fields, the Parameters panel's "Selected body" group, the selection shared by the
panels and the view, refusals in the status bar, and undo back to the file as it was."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSpinBox
from qt_helpers import WAIT_MS

from clothlab.sim.document.composition import change_obstacle
from clothlab.sim.document.requests import ChangeSetting, Compose
from clothlab.sim.document.scene import PinSpec, Scene, SheetSpec, body_counts
from clothlab.ui.docks.scene_model import PIN_ROWS, SceneModel
from clothlab.ui.intents import Select
from clothlab.ui.selection import BALL, Selection
from clothlab.ui.window import dialogs
from tests.ui.docks.test_scene_model import find_value


def undo_texts(window) -> list[str]:
    stack = window.controller.undo_stack
    return [stack.text(k) for k in range(stack.count())]


def edit_in_tree(qtbot, window, address, value) -> None:
    """Type a value into a field's spin box in the Scene panel and press Enter, as a user does."""
    window.scene_dock.raise_()
    tree = window.scene_panel.view
    index = find_value(window.scene_model, address)
    tree.scrollTo(index)
    tree.setCurrentIndex(index)
    tree.edit(index)
    editor = tree.indexWidget(index)
    assert editor is not None, address
    editor.setValue(value)
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    # the delegate commits on the next turn of the event loop
    qtbot.waitUntil(lambda: tree.indexWidget(index) is None, timeout=WAIT_MS)


def test_compose_a_scene_run_it_and_undo_back_to_the_file(qtbot, make_window, tmp_path):
    window = make_window(paused=True)
    controller, stack = window.controller, window.controller.undo_stack
    original = tmp_path / "original.json"
    controller.save(original)

    window.action_add_sheet.trigger()
    assert undo_texts(window) == ["Add sheet 15 × 11"]
    scene = controller.scene
    sheet = scene.bodies[1]
    assert isinstance(sheet, SheetSpec) and (sheet.cols, sheet.rows) == (15, 11)
    first = body_counts(scene.bodies[:1])[0]
    assert [p.particle - first for p in scene.pins if p.particle >= first] == [0, 14]
    assert sheet.top_center[0] - sheet.width / 2 > 1.4  # beside the first sheet, not on it
    assert window.editor.selection.current == Selection("body", 1)

    edit_in_tree(qtbot, window, ("body", 1, "cols"), 20)
    assert controller.scene.bodies[1].cols == 20
    assert stack.text(stack.count() - 1) == "Set resolution of sheet 20 × 11"

    window.action_pin_top_edge.trigger()
    assert stack.text(stack.count() - 1) == "Pin top edge (18 pins)"  # its corners were pinned

    window.action_add_box.trigger()
    assert stack.text(stack.count() - 1) == "Add box"
    assert window.editor.selection.current == Selection("obstacle", 0)
    box = controller.scene.obstacles[0]
    assert box.center[1] - box.size[1] / 2 > controller.settings.floor_y  # above the floor
    assert window.scene_model.setData(
        find_value(window.scene_model, ("obstacle", 0, "size", 0)), 1.5
    )
    assert controller.scene.obstacles[0].size[0] == 1.5
    assert stack.text(stack.count() - 1) == "Resize box"

    particles = body_counts(controller.scene.bodies)[0]
    controller.set_running(True)
    qtbot.waitUntil(
        lambda: (
            controller.latest is not None
            and controller.latest.x.shape[0] == particles
            and controller.latest.steps >= 20
        ),
        timeout=WAIT_MS,
    )
    controller.set_running(False)
    edited = controller.scene

    while stack.canUndo():
        stack.undo()
    undone = tmp_path / "undone.json"
    controller.save(undone)
    assert undone.read_bytes() == original.read_bytes()

    while stack.canRedo():
        stack.redo()
    assert controller.scene.model_dump(exclude={"tears"}) == edited.model_dump(exclude={"tears"})
    redone = tmp_path / "redone.json"
    controller.save(redone)
    saved = controller.scene
    controller.open(redone)
    assert controller.scene == saved


def test_bad_input_says_why_in_one_line_and_changes_nothing(qtbot, make_window):
    window = make_window(paused=True)
    controller, stack, model = window.controller, window.controller.undo_stack, window.scene_model
    window.editor.selection.select(Selection("body", 0))
    before = controller.scene
    model.setData(find_value(model, ("body", 0, "cols")), 1)
    message = window.status.currentMessage()
    assert message == "Columns 1: expected 2…512"  # the range, from the scene format
    assert controller.scene == before and stack.count() == 0
    assert find_value(model, ("body", 0, "cols")).data(Qt.ItemDataRole.EditRole) == 15

    window.action_add_box.trigger()
    count, before = stack.count(), controller.scene
    window.status.clearMessage()
    model.setData(find_value(model, ("obstacle", 0, "size", 1)), 0.0)
    message = window.status.currentMessage()
    assert message == "Size y 0: expected 0.0001…1000 units"
    assert controller.scene == before and stack.count() == count

    # in range, but refused by what the whole body must satisfy: the composition says why
    window.status.clearMessage()
    model.setData(find_value(model, ("body", 0, "width")), 0.0005)
    message = window.status.currentMessage()
    assert "finer than 0.0001 units between particles" in message and "\n" not in message
    assert controller.scene == before and stack.count() == count


def test_the_editors_know_their_ranges(make_window):
    window = make_window(paused=True)
    window.editor.selection.select(Selection("body", 0))
    tree = window.scene_panel.view
    index = find_value(window.scene_model, ("body", 0, "rows"))
    tree.edit(index)
    editor = tree.indexWidget(index)
    assert isinstance(editor, QSpinBox)
    assert (editor.minimum(), editor.maximum()) == (2, 512)


def test_a_resized_sheet_keeps_its_resolution_unless_its_spacing_is_locked(make_window):
    window = make_window(paused=True)
    controller, model = window.controller, window.scene_model
    model.setData(find_value(model, ("body", 0, "width")), 4.2)
    assert (controller.scene.bodies[0].width, controller.scene.bodies[0].cols) == (4.2, 15)
    model.setData(
        find_value(model, ("body", 0, "lock_spacing")),
        Qt.CheckState.Checked,
        Qt.ItemDataRole.CheckStateRole,
    )
    assert controller.scene.bodies[0].lock_spacing
    model.setData(find_value(model, ("body", 0, "width")), 2.1)
    assert controller.scene.bodies[0].cols == 8  # spacing 0.3 kept
    assert controller.undo_stack.text(2) == "Set resolution of sheet 8 × 11"


def test_selection_in_the_panel_and_the_selection_model_follow_each_other(qtbot, make_window):
    window = make_window(paused=True)
    selection, tree, model = window.editor.selection, window.scene_panel.view, window.scene_model
    window.action_add_sheet.trigger()
    window.action_add_box.trigger()
    assert selection.current == Selection("obstacle", 0)
    tree.setCurrentIndex(model.index_of(Selection("body", 0)))
    assert selection.current == Selection("body", 0)
    tree.setCurrentIndex(find_value(model, ("body", 1, "yaw")))  # a field selects its body
    assert selection.current == Selection("body", 1)
    tree.setCurrentIndex(find_value(model, ("setting", "wind")))  # a setting selects nothing new
    assert selection.current == Selection("body", 1)
    selection.select(Selection("obstacle", BALL))
    assert tree.currentIndex() == model.index_of(Selection("obstacle", BALL))
    assert not window.action_remove_selected.isEnabled()  # the ball stays
    assert not window.parameters_panel.body_group.isEnabled()
    selection.select(Selection("body", 0))
    assert tree.currentIndex() == model.index_of(Selection("body", 0))
    assert tree.isExpanded(tree.currentIndex())
    group = window.parameters_panel.body_group
    assert group.isEnabled() and group.title() == "Selected body: Sheet 15 × 11 (1)"
    window.viewport.interaction.command_requested.emit(Select(Selection("body", 1)))  # a click
    assert tree.currentIndex() == model.index_of(Selection("body", 1))
    window.action_undo.trigger()  # the box goes; the selection of a body stays
    window.action_undo.trigger()  # the second sheet goes, and with it the selection
    assert len(window.controller.scene.bodies) == 1
    assert selection.current in (None, Selection("body", 0))


def test_remove_duplicate_unpin_and_every_nth(qtbot, make_window, monkeypatch):
    window = make_window(paused=True)
    controller, stack = window.controller, window.controller.undo_stack
    assert not window.action_duplicate_body.isEnabled()  # nothing selected
    window.editor.selection.select(Selection("body", 0))
    window.action_unpin_all.trigger()
    assert stack.text(0).startswith("Unpin all") and not controller.scene.pins
    monkeypatch.setattr(dialogs, "ask_number", lambda *args, **kwargs: 3)
    window.action_pin_every_nth.trigger()
    assert stack.text(1) == "Pin every 3rd of top edge (5 pins)"
    window.action_duplicate_body.trigger()
    assert stack.text(2) == "Duplicate sheet 15 × 11"
    assert len(controller.scene.pins) == 10
    window.action_remove_selected.trigger()
    assert stack.text(3) == "Remove sheet 15 × 11"
    assert len(controller.scene.bodies) == 1 and window.editor.selection.current is None


def test_the_selected_body_group_sets_material_and_stiffness(qtbot, make_window):
    window = make_window(paused=True)
    controller, group = window.controller, window.parameters_panel.body_group
    assert not group.isEnabled()
    window.editor.selection.select(Selection("body", 0))
    group.material.activated.emit(group.material.findText("denim"))
    assert controller.scene.bodies[0].material == "denim"
    assert controller.undo_stack.text(0) == "Set sheet to denim"
    assert group.stiffness.value() == pytest.approx(0.9)  # denim's, until the body has its own
    assert not group.stiffness.isEnabled()
    group.own.setChecked(True)
    assert controller.scene.bodies[0].stiffness == pytest.approx(0.9)
    group.stiffness.spin_box.setValue(0.5)
    assert controller.scene.bodies[0].stiffness == pytest.approx(0.5)
    assert controller.undo_stack.text(2) == "Set stiffness of sheet"
    window.action_undo.trigger()
    assert group.stiffness.value() == pytest.approx(0.9)


def test_the_ball_row_edits_the_ball_settings_and_obstacles_move_from_the_view(make_window):
    window = make_window(paused=True)
    controller, model = window.controller, window.scene_model
    model.setData(find_value(model, ("setting", "ball_radius")), 0.7)
    assert controller.settings.ball_radius == 0.7
    window.action_add_sphere.trigger()
    tools = window.viewport.interaction  # what the Move tool asks for at the end of a drag
    tools.command_requested.emit(Compose(change_obstacle, (0,), {"center": (0.5, 0.0, 0.2)}))
    assert controller.scene.obstacles[0].center == (0.5, 0.0, 0.2)
    assert controller.undo_stack.text(controller.undo_stack.count() - 1) == "Move sphere"
    tools.command_requested.emit(ChangeSetting("ball_center", (0.1, 0.2, 0.3)))
    assert controller.settings.ball_center == (0.1, 0.2, 0.3)


def test_ten_thousand_pins_are_listed_in_part(qtbot):
    sheet = SheetSpec(cols=100, rows=100, width=20.0, height=20.0)
    pins = [PinSpec(particle=k, anchor=(0.0, 0.0, 0.0)) for k in range(10_000)]
    scene = Scene(bodies=[sheet], pins=pins)
    model = SceneModel()
    model.set_scene(scene)
    group = next(
        model.index(r, 0) for r in range(model.rowCount()) if model.index(r, 0).data() == "Pins"
    )
    assert model.rowCount(group) == PIN_ROWS + 1
    assert model.index(PIN_ROWS, 0, group).data() == f"… {10_000 - PIN_ROWS} more"
    assert group.siblingAtColumn(1).data() == "10000"
    # a setting changed: the pin rows stay as they are (nothing rebuilt)
    first = model.index(0, 0, group)
    model.update_from_scene(
        scene.model_copy(update={"wind": scene.wind.model_copy(update={"strength": 2.0})})
    )
    assert model.index(0, 0, group) == first and model.rowCount(group) == PIN_ROWS + 1


def test_new_obstacles_sit_above_the_floor_where_the_camera_looks_clear_of_the_cloth(
    qtbot, make_window
):
    window = make_window(paused=True)
    window.action_add_sphere.trigger()
    sphere = window.controller.scene.obstacles[0]
    target = window.viewport.camera_spec().target
    assert sphere.center[0] == pytest.approx(target[0])
    assert sphere.center[1] - sphere.radius > window.controller.settings.floor_y
    # under the target it would start in the hanging sheet (z = 0): it goes in front of it
    assert sphere.center[2] - sphere.radius > 0.0
    window.controller.set_running(True)
    controller = window.controller
    qtbot.waitUntil(
        lambda: controller.latest is not None and controller.latest.steps >= 60, timeout=WAIT_MS
    )
    assert window.controller.latest.readouts.sag == pytest.approx(0.0105, abs=0.002)
