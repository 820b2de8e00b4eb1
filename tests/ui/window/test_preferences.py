"""Edit ▸ Preferences: the four preferences are stored in the settings, read back
with a fallback for anything bad, applied live on OK (frame clock, Readouts window, autosave
timer, theme) and at start-up, and left alone by Cancel."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QKeySequence, QPalette
from PySide6.QtWidgets import QApplication, QDialog, QDialogButtonBox

from clothlab.app import autosave
from clothlab.app.autosave import Autosaver
from clothlab.ui.docks.readouts_dock import DEFAULT_WINDOW_S, ReadoutsPanel
from clothlab.ui.window import preferences, preferences_dialog
from clothlab.ui.window.main_window import FRAME_HZ
from clothlab.ui.window.preferences import (
    APPLICATION,
    AUTOSAVE_INTERVAL,
    FRAME_RATE_CAP,
    NUMBER_PREFERENCES,
    ORGANIZATION,
    PLOT_WINDOW,
    THEME_KEY,
    Preferences,
)
from clothlab.ui.window.preferences_dialog import PreferencesDialog, dark_palette

Buttons = QDialogButtonBox.StandardButton
WINDOW = QPalette.ColorRole.Window
CHOSEN = Preferences(
    autosave_interval_s=120, frame_rate_cap=30, plot_window_s=90, theme="dark", language="de"
)


@pytest.fixture(autouse=True)
def system_theme_after():
    """A dark palette set by one test must not colour the next ones."""
    yield
    preferences_dialog.apply_theme("system")


def fill(dialog: PreferencesDialog, values: Preferences) -> None:
    """Type the values in, as a user would, without pressing anything."""
    dialog.autosave_box.setValue(values.autosave_interval_s)
    dialog.frame_rate_box.setValue(values.frame_rate_cap)
    dialog.plot_window_box.setValue(values.plot_window_s)
    dialog.theme_box.setCurrentIndex(dialog.theme_box.findData(values.theme))
    dialog.language_box.setCurrentIndex(dialog.language_box.findData(values.language))


def press(dialog: PreferencesDialog, button: QDialogButtonBox.StandardButton) -> None:
    dialog.button_box.button(button).click()


def app_window_colour() -> str:
    return QApplication.palette().color(WINDOW).name()


def plot_backgrounds(panel: ReadoutsPanel) -> set[str]:
    return {plot.backgroundBrush().color().name() for plot in panel.plots.values()}


def test_the_defaults_are_the_windows_own():
    assert FRAME_RATE_CAP.default == FRAME_HZ
    assert PLOT_WINDOW.default == DEFAULT_WINDOW_S
    assert AUTOSAVE_INTERVAL.default == 60
    assert preferences.stored_preferences() == Preferences(60, FRAME_HZ, DEFAULT_WINDOW_S, "system")


def test_the_plot_window_has_the_panels_range(qtbot):
    panel = ReadoutsPanel()
    qtbot.addWidget(panel)
    box = panel.window_box
    assert (box.minimum(), box.maximum()) == (PLOT_WINDOW.minimum, PLOT_WINDOW.maximum)


def test_the_dialog_has_its_fields_with_units_and_ranges(qtbot):
    dialog = PreferencesDialog()
    qtbot.addWidget(dialog)
    boxes = (dialog.autosave_box, dialog.frame_rate_box, dialog.plot_window_box)
    for preference, box in zip(NUMBER_PREFERENCES, boxes, strict=True):
        assert box.suffix() == f" {preference.unit}"
        assert (box.minimum(), box.maximum()) == (preference.minimum, preference.maximum)
    assert [dialog.theme_box.itemData(k) for k in range(3)] == ["system", "light", "dark"]


def test_ok_stores_values_that_a_new_store_reads_back(qtbot):
    dialog = PreferencesDialog()
    qtbot.addWidget(dialog)
    fill(dialog, CHOSEN)
    with qtbot.waitSignal(preferences.signals().preferences_changed, timeout=1000):
        press(dialog, Buttons.Ok)
    assert dialog.result() == QDialog.DialogCode.Accepted
    assert preferences.stored_preferences() == CHOSEN
    # on disk: a store opened on the file itself, not the one that wrote it
    on_disk = QSettings(QSettings(ORGANIZATION, APPLICATION).fileName(), QSettings.Format.IniFormat)
    assert int(on_disk.value(AUTOSAVE_INTERVAL.key)) == 120
    assert int(on_disk.value(FRAME_RATE_CAP.key)) == 30
    assert int(on_disk.value(PLOT_WINDOW.key)) == 90
    assert on_disk.value(THEME_KEY) == "dark"
    assert on_disk.value(preferences.LANGUAGE_KEY) == "de"
    reopened = PreferencesDialog()
    qtbot.addWidget(reopened)
    assert reopened.values() == CHOSEN


@pytest.mark.parametrize(
    "bad", ["soon", "", "nan", "inf", "30.5", True, [1, 2], -1, 0, 100_000, "100000"]
)
def test_bad_stored_numbers_fall_back_to_the_defaults(qtbot, bad):
    for preference in NUMBER_PREFERENCES:
        preferences.settings().setValue(preference.key, bad)
        assert preferences.stored_number(preference) == preference.default, preference.key
    dialog = PreferencesDialog()
    qtbot.addWidget(dialog)
    assert dialog.values() == Preferences()


@pytest.mark.parametrize("bad", ["purple", "Dark", 3, [1], True])
def test_a_bad_stored_theme_falls_back_to_system(bad):
    preferences.settings().setValue(THEME_KEY, bad)
    assert preferences.theme() == "system"


def test_numbers_stored_as_text_read_as_numbers():
    preferences.settings().setValue(PLOT_WINDOW.key, "45")  # how an INI file gives them back
    assert preferences.plot_window_s() == 45
    preferences.settings().setValue(PLOT_WINDOW.key, 45.0)
    assert preferences.plot_window_s() == 45


def test_storing_a_bad_value_raises_and_stores_nothing():
    with pytest.raises(ValueError, match="outside 10…120 fps"):
        preferences.store_preferences(Preferences(frame_rate_cap=500, theme="dark"))
    with pytest.raises(ValueError, match="not one of"):
        preferences.store_preferences(Preferences(autosave_interval_s=300, theme="purple"))
    assert preferences.stored_preferences() == Preferences()


def test_ok_applies_the_preferences_live(qtbot, make_window):
    window = make_window()
    panel = window.readouts_panel
    assert window._frame_clock.interval() == round(1000 / FRAME_HZ)
    dialog = PreferencesDialog(window)
    fill(dialog, CHOSEN)
    press(dialog, Buttons.Ok)
    assert window._frame_clock.interval() == round(1000 / 30)
    assert window._frame_clock.isActive()
    assert panel.window_box.value() == 90
    assert app_window_colour() == dark_palette().color(WINDOW).name()
    # the plots take the dark Base colour (the palette reaches the docks a moment later)
    base = dark_palette().color(QPalette.ColorRole.Base).name()
    qtbot.waitUntil(lambda: plot_backgrounds(panel) == {base}, timeout=2000)


def test_ok_keeps_a_plot_window_typed_into_the_panel_unless_it_changed(make_window):
    window = make_window()
    window.readouts_panel.window_box.setValue(33)
    dialog = PreferencesDialog(window)
    dialog.frame_rate_box.setValue(40)  # the plot window stays as stored
    press(dialog, Buttons.Ok)
    assert window.readouts_panel.window_box.value() == 33
    assert window._frame_clock.interval() == round(1000 / 40)


def test_the_theme_goes_back_to_light_and_to_the_systems(qtbot, make_window):
    window = make_window()
    panel = window.readouts_panel
    system = app_window_colour()
    for theme, expected in (
        ("dark", dark_palette().color(WINDOW).name()),
        ("light", QApplication.style().standardPalette().color(WINDOW).name()),
        ("system", system),
    ):
        dialog = PreferencesDialog(window)
        dialog.theme_box.setCurrentIndex(dialog.theme_box.findData(theme))
        press(dialog, Buttons.Ok)
        assert app_window_colour() == expected, theme
        base = QApplication.palette().color(QPalette.ColorRole.Base).name()
        qtbot.waitUntil(lambda: plot_backgrounds(panel) == {base}, timeout=2000)  # noqa: B023


def test_ok_changes_the_autosave_timer(qtbot, make_controller, monkeypatch, tmp_path):
    monkeypatch.delenv(autosave.INTERVAL_ENV, raising=False)
    autosaver = Autosaver(make_controller("hanging-sheet"), folder=tmp_path)
    try:
        assert autosaver.interval_s == 60
        dialog = PreferencesDialog()
        qtbot.addWidget(dialog)
        dialog.autosave_box.setValue(120)
        press(dialog, Buttons.Ok)
        assert autosaver.interval_s == 120 and autosaver._timer.isActive()
    finally:
        autosaver.finish()
    started_later = Autosaver(make_controller(), folder=tmp_path)  # at start-up, as stored
    assert started_later.interval_s == 120
    started_later.finish()


def test_the_environment_variable_still_wins(qtbot, make_controller, monkeypatch, tmp_path):
    monkeypatch.setenv(autosave.INTERVAL_ENV, "0.5")
    preferences.store_preferences(Preferences(autosave_interval_s=300))
    autosaver = Autosaver(make_controller(), folder=tmp_path)
    try:
        assert autosaver.interval_s == 0.5
        preferences.store_preferences(Preferences(autosave_interval_s=600))
        assert autosaver.interval_s == 0.5
    finally:
        autosaver.finish()


def test_cancel_changes_nothing(qtbot, make_window):
    window = make_window()
    before = (window._frame_clock.interval(), window.readouts_panel.window_box.value(),
              app_window_colour())  # fmt: skip
    dialog = PreferencesDialog(window)
    fill(dialog, CHOSEN)
    with qtbot.assertNotEmitted(preferences.signals().preferences_changed):
        press(dialog, Buttons.Cancel)
    assert dialog.result() == QDialog.DialogCode.Rejected
    assert preferences.stored_preferences() == Preferences()
    assert all(preferences.settings().value(p.key) is None for p in NUMBER_PREFERENCES)
    after = (window._frame_clock.interval(), window.readouts_panel.window_box.value(),
             app_window_colour())  # fmt: skip
    assert after == before


def test_restore_defaults_shows_the_defaults_and_stores_them_only_on_ok(qtbot):
    preferences.store_preferences(CHOSEN)
    dialog = PreferencesDialog()
    qtbot.addWidget(dialog)
    assert dialog.values() == CHOSEN
    press(dialog, Buttons.RestoreDefaults)
    assert dialog.values() == Preferences()
    assert preferences.stored_preferences() == CHOSEN
    press(dialog, Buttons.Ok)
    assert preferences.stored_preferences() == Preferences()


def test_the_window_starts_with_the_stored_preferences(make_window):
    preferences.store_preferences(Preferences(frame_rate_cap=24, plot_window_s=45, theme="dark"))
    window = make_window()
    assert window._frame_clock.interval() == round(1000 / 24)
    assert window.readouts_panel.window_box.value() == 45
    assert app_window_colour() == dark_palette().color(WINDOW).name()


def test_the_edit_menu_has_preferences_with_its_shortcut(make_window, monkeypatch):
    window = make_window()
    edit = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Edit")
    assert window.action_preferences in edit.actions()
    assert window.action_preferences.text().replace("&", "") == "Preferences…"
    standard = QKeySequence(QKeySequence.StandardKey.Preferences)  # Cmd+, on macOS
    expected = standard if not standard.isEmpty() else QKeySequence("Ctrl+,")
    assert window.action_preferences.shortcut() == expected
    assert all(not key.isEmpty() for key in window.action_preferences.shortcuts())
    assert dict(window.shortcut_rows())["Preferences"] == expected.toString(
        QKeySequence.SequenceFormat.NativeText
    )
    opened: list[PreferencesDialog] = []

    def exec_(dialog: PreferencesDialog) -> int:
        opened.append(dialog)
        return QDialog.DialogCode.Rejected.value

    monkeypatch.setattr(PreferencesDialog, "exec", exec_)
    window.action_preferences.trigger()
    assert len(opened) == 1 and opened[0].parent() is window


def test_a_language_that_has_no_catalogue_is_refused_and_nothing_is_stored():
    with pytest.raises(ValueError, match="preferences/language: 'fr'"):
        preferences.store_preferences(Preferences(language="fr", theme="dark"))
    assert preferences.stored_preferences() == Preferences()
