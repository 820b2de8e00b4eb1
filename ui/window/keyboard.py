"""The main window by keyboard: Tab reaches the toolbar, the 3D view and every
dock's widgets and leaves each of them; F6 / Shift+F6 cycle focus between the main areas; Space
pauses or runs from a number field without typing into it.

Qt's defaults this changes: toolbar buttons take no focus (Tab never reached them), a dock's
scroll area takes a Tab stop of its own that shows no ring, and a focused spin box or line edit
takes Space as text (Qt hands a text key to a focused field before any window shortcut), so a
selected number was replaced by a space and the Play shortcut never fired.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QKeyEvent, QKeySequence, QShortcut, QTextDocumentFragment
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSlider,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDockWidget,
    QFormLayout,
    QLabel,
    QLayout,
    QLineEdit,
    QMainWindow,
    QScrollArea,
    QTabBar,
    QToolBar,
    QToolButton,
    QWidget,
)
from shiboken6 import Shiboken

from clothlab.sim.text import tr

MOST_FOCUS_STOPS = 2000  # a walk round the focus chain stops here even if it never closes


def make_toolbars_reachable(window: QMainWindow) -> None:
    """Every toolbar button joins the Tab chain (a toolbar's widgets are in it already)."""
    for toolbar in window.findChildren(QToolBar):
        for button in toolbar.findChildren(QToolButton):
            if button.focusPolicy() == Qt.FocusPolicy.NoFocus:
                button.setFocusPolicy(Qt.FocusPolicy.TabFocus)


def drop_empty_stops(root: QWidget) -> None:
    """Plain scroll areas (a panel's frame, not an item view) leave the Tab chain: their stop
    shows nothing, and Tab on to the first field scrolls the area to it anyway."""
    for area in root.findChildren(QScrollArea):
        area.setFocusPolicy(Qt.FocusPolicy.NoFocus)


def on_show(widget: QWidget) -> bool:
    """Not in a dock behind another's tab: Qt moves such docks off the window, not hiding
    them, so Tab and F6 would focus widgets nobody sees."""
    parent: QWidget | None = widget
    while parent is not None and not isinstance(parent, QDockWidget):
        parent = parent.parentWidget()
    return parent is None or not parent.visibleRegion().isEmpty()


def focus_next_shown(forward: bool, step: Callable[[bool], bool]) -> bool:
    """Qt's Tab step (`step`, the window's own focusNextPrevChild), repeated past the widgets of
    docks behind another's tab."""
    for _ in range(MOST_FOCUS_STOPS):
        moved = step(forward)
        focused = QApplication.focusWidget()
        if not moved or focused is None or on_show(focused):
            return moved
    return False


def takes_tab(widget: QWidget) -> bool:
    return (
        on_show(widget)
        and widget.isVisible()
        and widget.isEnabled()
        and bool(widget.focusPolicy() & Qt.FocusPolicy.TabFocus)
    )


def first_stop(area: QWidget) -> QWidget | None:
    """The first widget of `area` (itself included) that Tab stops at, in focus-chain order."""
    if takes_tab(area):
        return area
    widget = area.nextInFocusChain()
    for _ in range(MOST_FOCUS_STOPS):
        if widget is None or widget is area:
            return None
        if area.isAncestorOf(widget) and takes_tab(widget):
            return widget
        widget = widget.nextInFocusChain()
    return None


class FocusAreas(QObject):
    """F6 / Shift+F6: focus the first widget of the next / previous main area (the toolbar, the
    3D view, each dock that shows), drawn with the keyboard focus ring. Ctrl+Tab and
    Ctrl+Shift+Tab are Tab and Shift+Tab everywhere."""

    def __init__(self, window: QMainWindow, areas: Callable[[], Sequence[QWidget]]) -> None:
        super().__init__(window)
        self._window = window
        self._areas = areas
        for key, step in (("F6", 1), ("Shift+F6", -1)):
            shortcut = QShortcut(QKeySequence(key), window)
            shortcut.activated.connect(lambda step=step: self.cycle(step))
        # Ctrl+Tab leaves a widget that keeps Tab for itself, as in Qt's text editors
        for key, forward in (("Ctrl+Tab", True), ("Ctrl+Shift+Tab", False)):
            shortcut = QShortcut(QKeySequence(key), window)
            shortcut.activated.connect(lambda forward=forward: window.focusNextPrevChild(forward))

    def shown(self) -> list[QWidget]:
        """The areas that show and have a widget to focus, in cycle order."""
        return [a for a in self._areas() if first_stop(a) is not None]

    def cycle(self, step: int) -> QWidget | None:
        areas = self.shown()
        if not areas:
            return None
        focused = QApplication.focusWidget()
        here = next((i for i, a in enumerate(areas) if _within(focused, a)), -step)
        target = first_stop(areas[(here + step) % len(areas)])
        if target is not None:
            # A shortcut's reason: Qt then marks the focus change as the keyboard's, and
            # styles draw the focus ring (with Tab's reason it does so only inside a Tab press).
            target.setFocus(Qt.FocusReason.ShortcutFocusReason)
        return target


def _within(widget: QWidget | None, area: QWidget) -> bool:
    return widget is not None and (widget is area or area.isAncestorOf(widget))


def is_number_field(widget: QObject) -> bool:
    """A spin box, or the line edit inside one: a space is never part of a number."""
    if isinstance(widget, QAbstractSpinBox):
        return True
    parent = widget.parent() if isinstance(widget, QLineEdit) else None
    return isinstance(parent, QAbstractSpinBox)


class SpaceKey(QObject):
    """Space in the window's fields: a number field never takes it (the window's Play
    shortcut runs or pauses); a text field takes it only once the user is typing in it, so
    Space on a field just reached by Tab, its text all selected, pauses instead of erasing it.
    Nor does a button or a checkbox: Space pauses wherever the focus is, and Enter presses the
    focused button (Qt presses a main window's buttons with Space only)."""

    def __init__(self, window: QMainWindow) -> None:
        super().__init__(window)
        self._window = window
        self._typing_in: QLineEdit | None = None  # the text field typed in since it took focus
        app = QApplication.instance()
        if app is not None:
            app.installEventFilter(self)  # removed by Qt when this object goes with the window

    # Every event of the application passes this filter: the others leave at the first test.
    WATCHED = frozenset((QEvent.Type.FocusOut, QEvent.Type.KeyPress, QEvent.Type.ShortcutOverride))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        kind = event.type()
        if kind not in self.WATCHED:
            return False
        if kind == QEvent.Type.FocusOut and watched is self._typing_in:
            self._typing_in = None
        elif kind == QEvent.Type.KeyPress and isinstance(watched, QLineEdit):
            assert isinstance(event, QKeyEvent)
            if event.text().strip() and not is_number_field(watched):
                self._typing_in = watched
        elif kind == QEvent.Type.KeyPress and self._presses(watched, event):
            assert isinstance(watched, QAbstractButton)
            watched.click()
            return True
        elif kind == QEvent.Type.ShortcutOverride and self._is_plain_space(event):
            keep = self._keeps_space_from(watched)
            if keep:
                event.ignore()  # not the field's key: Qt goes on to the window's shortcuts
            return keep
        return False

    @staticmethod
    def _is_plain_space(event: QEvent) -> bool:
        return (
            isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_Space
            and event.modifiers() == Qt.KeyboardModifier.NoModifier
        )

    def _presses(self, widget: QObject, event: QEvent) -> bool:
        """Enter on a button or checkbox of the window: it is pressed."""
        return (
            isinstance(widget, QAbstractButton)
            and widget.window() is self._window
            and isinstance(event, QKeyEvent)
            and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
            and not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        )

    def _keeps_space_from(self, widget: QObject) -> bool:
        if not isinstance(widget, QWidget) or widget.window() is not self._window:
            return False
        if is_number_field(widget) or isinstance(widget, QAbstractButton):
            return True
        return isinstance(widget, QLineEdit) and widget is not self._typing_in


# --- screen readers ------------------------------------------------------------------------


NAMING_EVERY_MS = 1000  # widgets built later (a panel's fields) get their names this soon


def name_for_screen_readers(window: QMainWindow) -> None:
    """Every widget that takes the focus gets an accessible name, and a number field a
    description with its unit: now, when one takes the focus, and within NAMING_EVERY_MS of
    being built later (the panels build fields as the selection changes). Not by an
    application-wide event filter: handed every event's object, Python wrapped Qt's internal
    objects too, and wrappers of objects Qt deleted crashed the next model reset."""
    _Namer(window)


class _Namer(QObject):
    """Names the window's widgets every NAMING_EVERY_MS, and the one that takes the focus at
    once; a child of the window, so its connection to the application ends with it."""

    def __init__(self, window: QMainWindow) -> None:
        super().__init__(window)
        self._window = window
        name_all(window)
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._focus_changed)
        timer = QTimer(self)
        timer.timeout.connect(lambda: name_all(self._window))
        timer.start(NAMING_EVERY_MS)

    def _focus_changed(self, _old: QWidget | None, now: QWidget | None) -> None:
        # this window's only: not another window's, nor a popup's list as it is deleted
        if now is not None and Shiboken.isValid(now) and now.window() is self._window:
            give_accessible_name(now)


def name_all(window: QWidget) -> None:
    for widget in window.findChildren(QWidget):
        give_accessible_name(widget)


def give_accessible_name(widget: QWidget) -> None:
    """The name a screen reader reads for a focusable widget without one: its label's text
    (a form row's, a buddy's, or the label just before it), its own text, its tooltip's first
    line, its holders' label or tooltip, its dock's title or its object name; a number field or
    slider also gets its (or its row's) tooltip, with range and unit, as its description."""
    if widget.focusPolicy() == Qt.FocusPolicy.NoFocus:
        return
    if not widget.accessibleName():
        name = accessible_name_of(widget)
        if name:
            widget.setAccessibleName(name)
    value_field = isinstance(widget, (QAbstractSpinBox, QAbstractSlider))
    if value_field and not widget.accessibleDescription():
        unit = getattr(widget, "suffix", lambda: "")().strip()
        tips = (" ".join(w.toolTip().split()) for w in _holders(widget))
        tip = next((t for t in tips if t), "")  # its row's, with the range and unit
        words = [tip, tr("in {unit}").format(unit=unit) if unit else ""]
        description = "; ".join(w for w in words if w)
        if description:
            widget.setAccessibleDescription(description)


NAME_LEVELS = 3  # how far up a field's holders its label is looked for (a slider in a row)
DIRECT = Qt.FindChildOption.FindDirectChildrenOnly


def accessible_name_of(widget: QWidget) -> str:
    """The widget's own label or text; else its holder's label (a box in a parameter's row)
    or tooltip; else the dock it fills; else its object name."""
    names = [_label_text(widget), _own_text(widget), _first_line(widget.toolTip())]
    for holder in _holders(widget):
        if holder is not widget:
            names += [_label_text(holder), _first_line(holder.toolTip())]
        parent = holder.parentWidget()
        if isinstance(parent, QDockWidget):
            names.append(_clean(parent.windowTitle()))
    return next((name for name in names if name), widget.objectName().replace("_", " ").strip())


def _holders(widget: QWidget) -> list[QWidget]:
    """The widget and the NAME_LEVELS widgets that hold it."""
    found = [widget]
    holder = widget.parentWidget()
    while len(found) <= NAME_LEVELS and holder is not None:
        found.append(holder)
        holder = holder.parentWidget()
    return found


def _label_text(widget: QWidget) -> str:
    """The text of the label that names the widget: its form row's, or a buddy label's."""
    parent = widget.parentWidget()
    if parent is None:
        return ""
    layout = parent.layout()
    if isinstance(layout, QFormLayout):
        label = layout.labelForField(widget)
        if isinstance(label, QLabel):
            return _clean(label.text())
    for label in parent.findChildren(QLabel):
        if label.buddy() is widget:
            return _clean(label.text())
    before = _item_before(layout, widget) if layout is not None else None
    return _clean(before.text()) if isinstance(before, QLabel) else ""


def _item_before(layout: QLayout, widget: QWidget) -> QWidget | None:
    """The widget just before `widget` in whichever of `layout`'s nested layouts holds it (a
    row's "Window" label before its box). Found by index among the holder's children, never by
    layout.itemAt, whose item wrappers outlive the items (see ui/layouts.py)."""
    index = layout.indexOf(widget)
    holder = widget.parentWidget()
    if index == 0 or holder is None:
        return None
    if index > 0:
        siblings = holder.findChildren(QWidget, options=DIRECT)
        return next((s for s in siblings if layout.indexOf(s) == index - 1), None)
    for inner in layout.findChildren(QLayout, options=DIRECT):
        found = _item_before(inner, widget)
        if found is not None:
            return found
    return None


def _own_text(widget: QWidget) -> str:
    if isinstance(widget, QToolButton) and widget.defaultAction() is not None:
        return _clean(widget.defaultAction().text())
    if isinstance(widget, QAbstractButton):
        return _clean(widget.text())
    if isinstance(widget, QLineEdit):
        return widget.placeholderText().strip()
    if isinstance(widget, QTabBar):  # docks tabbed together: the panels it switches between
        tabs = [_clean(widget.tabText(k)) for k in range(widget.count())]
        return tr("Panels: {panels}").format(panels=", ".join(tabs)) if tabs else ""
    if isinstance(widget, QLabel):  # a label one can tab to: a link
        return _clean(widget.text())
    if isinstance(widget, QComboBox):
        return ""  # its current item is its value, not its name
    return ""


def _first_line(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return _clean(line)


def _clean(text: str) -> str:
    """A label's text as read aloud: no mnemonic ampersand, no trailing colon, no markup."""
    text = text.replace("&&", "\0").replace("&", "").replace("\0", "&")
    if "<" in text:
        text = QTextDocumentFragment.fromHtml(text).toPlainText()
    return " ".join(text.split()).rstrip(":").strip()
