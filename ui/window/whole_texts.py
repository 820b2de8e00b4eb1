"""Texts shown whole. Dialogs as wide as their title: a desktop writes a dialog's title with the
application's name after it ("Unsaved changes — Cloth Lab") between the title bar's icon and its
buttons, and a message box sized to its text alone showed "Unsaved cha… — Cloth Lab", "Export
vid…". The tabs of docked panels with their whole names and scroll arrows when they do not fit:
Qt elided them to "Reado…", "Comp…", "Validati…"."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QFontMetrics, QGuiApplication
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QGridLayout,
    QMainWindow,
    QMessageBox,
    QSizePolicy,
    QSpacerItem,
    QTabBar,
)

# pixels of a title bar that are not its title: the icon, the close, maximise and minimise
# buttons and the margins round them on common desktops
TITLE_BAR_EXTRA = 160
ROOM_MADE = "title_room_width"  # a message box's property: the width its spacer holds


def shown_title(title: str) -> str:
    """The title as a desktop writes it: with the application's display name after it."""
    name = QGuiApplication.applicationDisplayName()
    return f"{title} — {name}" if name and not title.endswith(name) else title


def title_width(title: str) -> int:
    """The width a dialog needs for `title` in its title bar, in pixels."""
    # the font QMessageBox measures titles in (the stubs want bytes, which crashes PySide6 6.11)
    font = QApplication.font("QMdiSubWindowTitleBar")  # type: ignore[call-overload]
    return QFontMetrics(font).horizontalAdvance(shown_title(title)) + TITLE_BAR_EXTRA


def make_room(dialog: QDialog) -> None:
    """Widen `dialog` to its title. A message box sizes itself as it shows (to its text and its
    title without the application's name): a spacer in its grid holds it wider."""
    width = title_width(dialog.windowTitle())
    if isinstance(dialog, QMessageBox):
        layout = dialog.layout()
        if isinstance(layout, QGridLayout) and dialog.property(ROOM_MADE) != width:
            spacer = QSpacerItem(width, 0, QSizePolicy.Policy.Minimum, QSizePolicy.Policy.Fixed)
            layout.addItem(spacer, layout.rowCount(), 0, 1, layout.columnCount())
            dialog.setProperty(ROOM_MADE, width)  # a box shown again keeps its one spacer
    elif dialog.minimumWidth() < width:
        dialog.setMinimumWidth(min(width, _screen_width(dialog)))


def _screen_width(dialog: QDialog) -> int:
    screen = dialog.screen() or QGuiApplication.primaryScreen()
    return screen.availableGeometry().width() if screen is not None else 10_000


def whole_tab_names(bar: QTabBar) -> None:
    """A docked panels' tab bar: whole names, scroll arrows where they do not fit."""
    if bar.elideMode() != Qt.TextElideMode.ElideNone:
        bar.setElideMode(Qt.TextElideMode.ElideNone)
        bar.setUsesScrollButtons(True)


class WholeTexts(QObject):
    """Widens every dialog of the application to its title as it shows (make_room), and gives
    the main window's dock tab bars whole names (whole_tab_names)."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        if event.type() == QEvent.Type.Show:
            if isinstance(watched, QDialog):
                make_room(watched)
            elif isinstance(watched, QTabBar) and isinstance(watched.parent(), QMainWindow):
                whole_tab_names(watched)
        return False


_installed: WholeTexts | None = None


def install() -> None:
    """Watch the application's dialogs, once."""
    global _installed
    application = QApplication.instance()
    if _installed is None and application is not None:
        _installed = WholeTexts(application)
        application.installEventFilter(_installed)
