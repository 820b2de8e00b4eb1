"""Edit ▸ Preferences: the autosave interval, the frame-rate cap, the plot window, the theme and
the language, kept in the one QSettings store (ui.window.preferences) and applied live on OK (the
language at the next start), and at start-up.

The dialog only stores them; whoever a preference drives follows ui.window.preferences'
`preferences_changed` signal: the autosave (app layer) by itself, the window through a
LivePreferences given what to call (its frame clock, the Readouts panel's plot window). So
neither the dialog nor this module knows the window.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QWidget,
)

from clothlab.sim.text import LANGUAGES, QT_TR_NOOP, tr
from clothlab.ui.number_box import IntBox, Limits, RefusalLine
from clothlab.ui.window import preferences
from clothlab.ui.window.preferences import NumberPreference, Preferences

THEME_LABELS = {
    "system": QT_TR_NOOP("System"),
    "light": QT_TR_NOOP("Light"),
    "dark": QT_TR_NOOP("Dark"),
}  # shown with tr()
Buttons = QDialogButtonBox.StandardButton


class PreferencesDialog(QDialog):
    """The four fields; OK stores them (and so applies them, see LivePreferences), Cancel
    forgets them, Restore defaults shows the defaults (stored only by OK)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("Preferences"))
        self.setObjectName("preferences_dialog")
        self.autosave_box = _number_box(preferences.AUTOSAVE_INTERVAL)
        self.frame_rate_box = _number_box(preferences.FRAME_RATE_CAP)
        self.plot_window_box = _number_box(preferences.PLOT_WINDOW)
        self.theme_box = QComboBox()
        for name in preferences.THEMES:
            self.theme_box.addItem(tr(THEME_LABELS[name]), name)
        self.theme_box.setToolTip(
            tr("System: the desktop's colours. Light or Dark: Cloth Lab's own.")
        )
        self.language_box = QComboBox()
        self.language_box.addItem(tr("As the system's"), preferences.SYSTEM_LANGUAGE)
        for code, name in LANGUAGES.items():
            self.language_box.addItem(name, code)
        self.language_box.setToolTip(tr("Cloth Lab speaks it from its next start."))
        self.button_box = QDialogButtonBox(Buttons.Ok | Buttons.Cancel | Buttons.RestoreDefaults)
        self.button_box.accepted.connect(self.accept)
        self.button_box.rejected.connect(self.reject)
        restore = self.button_box.button(Buttons.RestoreDefaults)
        restore.clicked.connect(lambda: self.show_values(Preferences()))
        form = QFormLayout(self)
        for preference, box in self._number_boxes():
            form.addRow(tr(preference.label), box)
        form.addRow(tr("Theme"), self.theme_box)
        form.addRow(tr("Language"), self.language_box)
        # a number out of its range is said here, and OK waits until it is one in range
        ok = self.button_box.button(Buttons.Ok)
        self.refusal_line = RefusalLine([box for _, box in self._number_boxes()], ok)
        form.addRow(self.refusal_line)
        form.addRow(self.button_box)
        self.show_values(preferences.stored_preferences())

    def _number_boxes(self) -> tuple[tuple[NumberPreference, IntBox], ...]:
        return (
            (preferences.AUTOSAVE_INTERVAL, self.autosave_box),
            (preferences.FRAME_RATE_CAP, self.frame_rate_box),
            (preferences.PLOT_WINDOW, self.plot_window_box),
        )

    def show_values(self, values: Preferences) -> None:
        self.autosave_box.setValue(values.autosave_interval_s)
        self.frame_rate_box.setValue(values.frame_rate_cap)
        self.plot_window_box.setValue(values.plot_window_s)
        self.theme_box.setCurrentIndex(self.theme_box.findData(values.theme))
        self.language_box.setCurrentIndex(self.language_box.findData(values.language))

    def values(self) -> Preferences:
        return Preferences(
            self.autosave_box.value(),
            self.frame_rate_box.value(),
            self.plot_window_box.value(),
            str(self.theme_box.currentData()),
            str(self.language_box.currentData()),
        )

    def accept(self) -> None:
        preferences.store_preferences(self.values())  # preferences_changed: they apply
        super().accept()


def _number_box(preference: NumberPreference) -> IntBox:
    box = IntBox(Limits(tr(preference.label), preference.minimum, preference.maximum,
                        preference.unit, integer=True))  # fmt: skip
    box.setSuffix(f" {preference.unit}")
    box.setToolTip(
        tr("{tooltip} ({minimum} … {maximum} {unit}, default {default})").format(
            tooltip=tr(preference.tooltip), minimum=preference.minimum,
            maximum=preference.maximum, unit=preference.unit, default=preference.default,
        )
    )  # fmt: skip
    box.setObjectName(preference.key.rpartition("/")[2])
    return box


def edit_preferences(parent: QWidget) -> bool:
    """Edit ▸ Preferences…: True if the user pressed OK."""
    return PreferencesDialog(parent).exec() == QDialog.DialogCode.Accepted


# --- applying them -----------------------------------------------------------------------------


class LivePreferences(QObject):
    """Keeps the stored preferences live in a window: `frame_rate_cap(fps)` and
    `plot_window(seconds)` are what the window's frame clock and Readouts panel take. It starts
    from the defaults, which a window starts with; `apply()` brings the stored ones, and every
    store after that (preferences_changed) applies what changed since: a plot window typed into
    the panel stays unless the preference itself changed."""

    def __init__(
        self,
        frame_rate_cap: Callable[[int], None],
        plot_window: Callable[[int], None],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._frame_rate_cap = frame_rate_cap
        self._plot_window = plot_window
        self.applied = Preferences()
        preferences.signals().preferences_changed.connect(self.apply)

    def apply(self) -> None:
        chosen = preferences.stored_preferences()
        before, self.applied = self.applied, chosen
        if chosen.frame_rate_cap != before.frame_rate_cap:
            self._frame_rate_cap(chosen.frame_rate_cap)
        if chosen.plot_window_s != before.plot_window_s:
            self._plot_window(chosen.plot_window_s)
        if chosen.theme != before.theme:
            apply_theme(chosen.theme)


_system_palette: QPalette | None = None  # the desktop's, kept before the first theme replaces it


def apply_theme(name: str) -> None:
    """Set the application's palette: the desktop's ("system"), the style's standard one
    ("light") or dark_palette(). Widgets follow by themselves; the Readouts plots re-colour on
    the palette change they are sent."""
    global _system_palette
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        return
    if _system_palette is None:
        if name == "system":
            return  # nothing replaced yet: the desktop's palette is the one in use
        _system_palette = QPalette(app.palette())
    if name == "dark":
        app.setPalette(dark_palette())
    elif name == "light":
        app.setPalette(app.style().standardPalette())
    else:
        app.setPalette(_system_palette)


def dark_palette() -> QPalette:
    """Fusion's usual dark colours: light text on greys, blue selection, greyed-out disabled."""
    palette = QPalette()
    role = QPalette.ColorRole
    colours = {
        role.Window: "#353535", role.WindowText: "#f0f0f0", role.Base: "#262626",
        role.AlternateBase: "#2f2f2f", role.ToolTipBase: "#202020", role.ToolTipText: "#f0f0f0",
        role.Text: "#f0f0f0", role.Button: "#3a3a3a", role.ButtonText: "#f0f0f0",
        role.BrightText: "#ff5555", role.Link: "#5aa0ff", role.Highlight: "#2a82da",
        role.HighlightedText: "#ffffff", role.PlaceholderText: "#8a8a8a", role.Light: "#505050",
        role.Midlight: "#444444", role.Mid: "#2c2c2c", role.Dark: "#202020",
        role.Shadow: "#141414",
    }  # fmt: skip
    for colour_role, colour in colours.items():
        palette.setColor(colour_role, QColor(colour))
    disabled = QPalette.ColorGroup.Disabled
    for colour_role in (role.WindowText, role.Text, role.ButtonText):
        palette.setColor(disabled, colour_role, QColor("#7a7a7a"))
    palette.setColor(disabled, role.Highlight, QColor("#505050"))
    return palette
