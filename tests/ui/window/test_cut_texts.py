"""Texts shown whole or marked as cut: a closed combo box's text ends in "…" where it is wider
than its field (Fusion cut "Where does the sheet pull hardes" in a letter), and the tabs of
panels docked together keep their names ("Reado…", "Comp…", "Validati…" before)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QStyleOptionComboBox, QTabBar

from clothlab.ui.theme import combo_label_text, install_focus_ring

LONG = "Where does the sheet pull hardest? The pins, the middle, or the edges"


def test_a_long_combo_text_ends_in_an_ellipsis_and_a_short_one_is_whole(qtbot):
    install_focus_ring()  # the window's style, as MainWindow installs it
    combo = QComboBox()
    qtbot.addWidget(combo)
    combo.addItems(["cotton", LONG])
    combo.setFixedWidth(180)
    combo.show()
    qtbot.waitExposed(combo)
    option = QStyleOptionComboBox()
    combo.initStyleOption(option)
    assert combo_label_text(combo.style(), option, combo) == "cotton"
    combo.setCurrentIndex(1)
    combo.initStyleOption(option)
    shown = combo_label_text(combo.style(), option, combo)
    assert shown.endswith("…") and LONG.startswith(shown[:-1]) and len(shown) > 10
    assert combo.fontMetrics().horizontalAdvance(shown) < 180


def test_docked_panels_tabs_keep_their_names(qtbot, make_window):
    window = make_window(size=(1280, 800), paused=True)
    for dock in window.docks:
        if dock is not window.readouts_dock:
            window.tabifyDockWidget(window.readouts_dock, dock)
            dock.show()
    window.readouts_dock.raise_()
    qtbot.waitUntil(lambda: any(b.isVisible() and b.count() > 5 for b in bars(window)))
    for bar in bars(window):
        if bar.isVisible():
            assert bar.elideMode() == Qt.TextElideMode.ElideNone
            for k in range(bar.count()):
                room = bar.tabRect(k).width()
                assert room >= bar.fontMetrics().horizontalAdvance(bar.tabText(k)), bar.tabText(k)


def bars(window) -> list[QTabBar]:
    return [b for b in window.findChildren(QTabBar) if b.parent() is window]
