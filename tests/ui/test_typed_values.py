"""Typed numbers are taken as typed or refused, never changed silently.

Each test types with real key events, as a user does: select the field's text, type, press
Enter. A value out of range is refused with one line that says the range, the document is
left as it was, and the field shows the value the model uses."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractSpinBox, QDialog, QDialogButtonBox
from qt_helpers import WAIT_MS

from clothlab.sim.core.parameters import PARAMETERS
from clothlab.sim.document.composition import PIN_EVERY
from clothlab.sim.document.scene import SheetSpec, field_range
from clothlab.sim.lab.questions import load_builtin_set
from clothlab.ui.docks.scene_model import FIELDS
from clothlab.ui.number_box import Limits
from clothlab.ui.selection import Selection
from clothlab.ui.window.dialogs import NumberDialog
from clothlab.ui.window.preferences import PLOT_WINDOW
from clothlab.ui.window.preferences_dialog import PreferencesDialog
from tests.ui.docks.test_scene_model import find_value


def focus(qtbot, box: QAbstractSpinBox) -> None:
    """Give the box the keyboard focus, in an active window (Xvfb has no window manager to
    make it active; without it no focus events come, so leaving a field commits nothing)."""
    box.window().activateWindow()
    qtbot.waitUntil(box.window().isActiveWindow, timeout=WAIT_MS)
    box.setFocus()
    assert box.hasFocus()


def type_into(qtbot, box: QAbstractSpinBox, text: str) -> None:
    """Select everything in the box, type `text` and press Enter."""
    focus(qtbot, box)
    box.selectAll()
    qtbot.keyClicks(box, text)
    qtbot.keyClick(box, Qt.Key.Key_Return)


def type_into_tree(qtbot, window, address, text: str) -> QAbstractSpinBox:
    """Open a Scene panel field's editor, type `text` and press Enter; the editor closes."""
    window.scene_dock.raise_()
    tree = window.scene_panel.view
    index = find_value(window.scene_model, address)
    tree.scrollTo(index)
    tree.setCurrentIndex(index)
    tree.edit(index)
    editor = tree.indexWidget(index)
    assert isinstance(editor, QAbstractSpinBox), address
    qtbot.keyClicks(editor.lineEdit(), "")  # the editor has the focus
    editor.selectAll()
    qtbot.keyClicks(editor, text)
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: tree.indexWidget(index) is None, timeout=WAIT_MS)
    return editor


def test_passes_out_of_range_are_refused_with_the_range(qtbot, make_window):
    window = make_window(paused=True)
    controller = window.controller
    window.parameters_dock.raise_()
    box = window.parameters_panel.editors["passes"]
    before = controller.scene
    type_into(qtbot, box, "1000000000")
    passes = PARAMETERS["passes"]
    message = window.status.currentMessage()
    assert message == f"Solver passes 1000000000: expected {passes.minimum:g}…{passes.maximum:g}"
    assert controller.scene == before and controller.undo_stack.count() == 0
    assert box.value() == controller.settings.passes == 8
    assert box.text() == "8"
    # and a value in range is taken as typed
    type_into(qtbot, box, "150")
    assert controller.settings.passes == 150 and box.value() == 150


def test_a_float_parameter_out_of_range_is_refused_not_clamped(qtbot, make_window):
    window = make_window(paused=True)
    controller = window.controller
    window.parameters_dock.raise_()
    editor = window.parameters_panel.editors["gravity"]
    type_into(qtbot, editor.spin_box, "-3")
    assert window.status.currentMessage() == "Gravity -3: expected 0…100 units/s²"
    assert controller.settings.gravity == 9.8 and editor.value() == 9.8
    assert controller.undo_stack.count() == 0


def test_a_comma_where_the_decimal_point_is_a_point_is_refused_not_dropped(qtbot, make_window):
    """Typed in English, "1,5" is no number: refused with what was typed, where Qt's own
    validation dropped the comma and took 15."""
    window = make_window(paused=True)
    window.parameters_dock.raise_()
    editor = window.parameters_panel.editors["gravity"]
    type_into(qtbot, editor.spin_box, "1,5")
    assert window.status.currentMessage() == "Gravity 1,5: expected a number 0…100 units/s²"
    assert window.controller.settings.gravity == 9.8 and editor.value() == 9.8


def test_a_run_in_si_units_names_its_units_in_refusals_and_labels_too(qtbot, make_window):
    """The drape meter runs in SI units: its boxes say m, and so do their refusals and the
    labels that carry a long unit (compliance: m/N, not units/force)."""
    window = make_window("cusick-drape", paused=True)
    window.parameters_dock.raise_()
    panel = window.parameters_panel
    editor = panel.editors["imperfection"]
    assert editor.spin_box.suffix() == " m"
    type_into(qtbot, editor.spin_box, "2")
    assert window.status.currentMessage() == "Start imperfection 2: expected 0…1 m"
    assert panel.labels["compliance"].text().endswith("(m/N)")


def test_a_sheet_width_below_its_range_is_refused_not_made_positive(qtbot, make_window):
    window = make_window(paused=True)
    controller = window.controller
    window.editor.selection.select(Selection("body", 0))
    before = controller.scene
    low, high = field_range(SheetSpec, "width")
    editor = type_into_tree(qtbot, window, ("body", 0, "width"), "-5")
    assert window.status.currentMessage() == f"Width -5: expected {low:g}…{high:g} units"
    assert controller.scene == before and controller.undo_stack.count() == 0
    assert editor.value() == before.bodies[0].width
    shown = find_value(window.scene_model, ("body", 0, "width"))
    assert shown.data(Qt.ItemDataRole.EditRole) == before.bodies[0].width
    type_into_tree(qtbot, window, ("body", 0, "width"), "4.25")
    assert controller.scene.bodies[0].width == 4.25


def test_too_many_columns_are_refused_not_cut_to_two_digits(qtbot, make_window):
    window = make_window(paused=True)
    controller = window.controller
    window.editor.selection.select(Selection("body", 0))
    before = controller.scene
    editor = type_into_tree(qtbot, window, ("body", 0, "cols"), "99999")
    assert window.status.currentMessage() == "Columns 99999: expected 2…512"
    assert controller.scene == before and controller.undo_stack.count() == 0
    assert editor.value() == before.bodies[0].cols == 15


def test_too_few_columns_are_refused_not_silently_reverted(qtbot, make_window):
    window = make_window(paused=True)
    controller = window.controller
    window.editor.selection.select(Selection("body", 0))
    before = controller.scene
    type_into_tree(qtbot, window, ("body", 0, "cols"), "1")
    assert window.status.currentMessage() == "Columns 1: expected 2…512"
    assert controller.scene == before and controller.undo_stack.count() == 0
    shown = find_value(window.scene_model, ("body", 0, "cols"))
    assert shown.data(Qt.ItemDataRole.EditRole) == 15


def test_a_fractional_count_is_refused_not_read_as_another_number(qtbot, make_window):
    window = make_window(paused=True)
    window.editor.selection.select(Selection("body", 0))
    before = window.controller.scene
    type_into_tree(qtbot, window, ("body", 0, "rows"), "2.5")
    assert window.status.currentMessage() == "Rows 2.5: expected a whole number 2…512"
    assert window.controller.scene == before


def test_the_scene_fields_take_their_ranges_from_the_scene_format():
    for name, spec in (("width", SheetSpec), ("cols", SheetSpec), ("yaw", SheetSpec)):
        assert (FIELDS[name].minimum, FIELDS[name].maximum) == field_range(spec, name)


def test_leaving_a_field_with_a_refused_number_says_why_too(qtbot, make_window):
    window = make_window(paused=True)
    window.parameters_dock.raise_()
    box = window.parameters_panel.editors["passes"]
    focus(qtbot, box)
    box.selectAll()
    qtbot.keyClicks(box, "0")
    qtbot.keyClick(box, Qt.Key.Key_Tab)  # on to the next field: the typed value is committed
    assert window.status.currentMessage() == "Solver passes 0: expected 1…200"
    assert window.controller.settings.passes == 8 and box.text() == "8"


def test_an_arrow_key_after_a_refused_number_steps_from_the_value_in_use(qtbot, make_window):
    window = make_window(paused=True)
    window.parameters_dock.raise_()
    box = window.parameters_panel.editors["passes"]
    focus(qtbot, box)
    box.selectAll()
    qtbot.keyClicks(box, "999")
    qtbot.keyClick(box, Qt.Key.Key_Up)
    assert window.status.currentMessage() == "Solver passes 999: expected 1…200"
    assert window.controller.settings.passes == 8 and box.value() == 8


def test_the_plot_window_box_refuses_a_window_out_of_its_range(qtbot, make_window):
    window = make_window(paused=True)
    window.readouts_dock.raise_()
    box = window.readouts_panel.window_box
    before = box.value()
    type_into(qtbot, box, "1")
    low, high = PLOT_WINDOW.minimum, PLOT_WINDOW.maximum
    assert window.status.currentMessage() == f"Plot window 1: expected {low}…{high} s"
    assert box.value() == before


def test_the_pin_every_nth_dialog_says_the_range_and_keeps_ok_off(qtbot):
    low, high = PIN_EVERY
    dialog = NumberDialog(None, "Pin", "n:", Limits("n", low, high, integer=True), 2)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    ok = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
    focus(qtbot, dialog.box)
    dialog.box.selectAll()
    qtbot.keyClicks(dialog.box, "999")
    assert dialog.refusal_line.text() == f"n 999: expected {low}…{high}"
    assert dialog.refusal_line.isVisible() and not ok.isEnabled()
    qtbot.keyClick(dialog.box, Qt.Key.Key_Return)  # refused: the dialog stays, n is as it was
    assert dialog.isVisible() and dialog.box.value() == 2 and dialog.box.text() == "2"
    assert dialog.refusal_line.text() == f"n 999: expected {low}…{high}" and ok.isEnabled()
    dialog.box.selectAll()
    qtbot.keyClicks(dialog.box, "5")
    assert not dialog.refusal_line.isVisible()
    qtbot.keyClick(dialog.box, Qt.Key.Key_Return)  # taken, and Enter is the dialog's OK
    assert dialog.result() == QDialog.DialogCode.Accepted and dialog.box.value() == 5


def test_the_preferences_dialog_refuses_an_autosave_interval_out_of_range(qtbot):
    dialog = PreferencesDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    box = dialog.autosave_box
    focus(qtbot, box)
    box.selectAll()
    qtbot.keyClicks(box, "5")
    ok = dialog.button_box.button(QDialogButtonBox.StandardButton.Ok)
    assert dialog.refusal_line.text() == "Autosave every 5: expected 10…3600 s"
    assert not ok.isEnabled()


def test_a_prediction_out_of_the_answers_range_is_refused_inline(qtbot, make_window):
    window = make_window(paused=True)
    panel = window.questions_panel
    window.show_questions()
    panel.select([q.id for q in load_builtin_set().questions].index("terminal-speed"))
    panel.start_button.click()
    assert panel.stage == "predict"
    box = panel.number_box
    focus(qtbot, box)
    box.selectAll()
    qtbot.keyClicks(box, "2.75")
    assert panel.prediction == 2.75 and panel.lock_button.isEnabled()  # typed, not yet entered
    box.selectAll()
    qtbot.keyClicks(box, "1e12")
    qtbot.keyClick(box, Qt.Key.Key_Return)
    assert panel.number_refusal.text() == "Prediction 1e12: expected -1e+09…1e+09"
    assert box.value() == 0.0 and panel.prediction == 0.0  # what the box holds, as shown


def test_tabbing_out_of_a_tree_field_with_a_refused_number_says_why(qtbot, make_window):
    window = make_window(paused=True)
    window.editor.selection.select(Selection("body", 0))
    window.scene_dock.raise_()
    tree = window.scene_panel.view
    index = find_value(window.scene_model, ("body", 0, "cols"))
    tree.scrollTo(index)
    tree.setCurrentIndex(index)
    tree.edit(index)
    editor = tree.indexWidget(index)
    focus(qtbot, editor)
    editor.selectAll()
    qtbot.keyClicks(editor, "600")
    qtbot.keyClick(editor, Qt.Key.Key_Tab)
    qtbot.waitUntil(lambda: tree.indexWidget(index) is None, timeout=WAIT_MS)
    assert window.status.currentMessage() == "Columns 600: expected 2…512"
    assert window.controller.scene.bodies[0].cols == 15
