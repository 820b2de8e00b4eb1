"""Every dock of the main window, declared once as a row of DOCKS, and the docks, their View ▸
Panels entries and the default layout built from the table.

A row says what the dock holds (a factory of its widget), its name (the stored layout knows the
dock by `<name>_dock`, whatever the language), its title, where the default layout puts it (side,
tab group, the tab in front, the column's width) and whether it is shown there. Rows are in the
order of View ▸ Panels; a tab group's tabs are in the order their rows join it. A new panel is a
widget class and a row: the window hands every widget that is a Panel (ui.docks.panels) the
document and the frames, and connects its `command_requested` to the one way requests take and
its `refused` and `said` to the status bar.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, SignalInstance
from PySide6.QtWidgets import QDockWidget, QMainWindow, QWidget

from clothlab.sim.text import QT_TR_NOOP, tr
from clothlab.ui.docks.compare_dock import ComparePanel
from clothlab.ui.docks.history_dock import HistoryView
from clothlab.ui.docks.parameters_dock import ParametersPanel
from clothlab.ui.docks.probes_dock import ProbesPanel
from clothlab.ui.docks.questions_dock import QuestionsPanel
from clothlab.ui.docks.readouts_dock import ReadoutsPanel
from clothlab.ui.docks.scene_dock import ScenePanel
from clothlab.ui.docks.stopwatch_dock import StopwatchPanel
from clothlab.ui.docks.validation_dock import ValidationPanel

if TYPE_CHECKING:
    from clothlab.ui.docks.scene_model import SceneModel
    from clothlab.ui.front_door import FrontDoor
    from clothlab.ui.user_fabrics import UserFabrics
    from clothlab.ui.viewport.compare_view import SideView

LEFT, RIGHT = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea


@dataclass(frozen=True)
class DockParts:
    """What the docks' widgets are made from: the window's pieces they share."""

    controller: FrontDoor
    scene_model: SceneModel  # the Scene panel's model, which the window's parts edit too
    user_fabrics: UserFabrics  # Fit my fabric's, offered by the fabric choosers
    side_view: Callable[[], SideView]  # the 3D view split for a second view beside it


@dataclass(frozen=True)
class DockRow:
    name: str  # its object name is <name>_dock: the stored layout knows the dock by it
    title: str  # the English source (marked with QT_TR_NOOP); tr() where it is shown
    make: Callable[[DockParts], QWidget]
    area: Qt.DockWidgetArea
    # the dock whose tab this one's follows in their tab group in the default layout ("": it
    # heads a group, or stands alone)
    tab_after: str = ""
    in_front: bool = False  # the tab shown in front of its group in the default layout
    width: int = 0  # the default layout's width of its column, logical pixels (0: Qt's)
    # Shown in the default layout (and by Reset layout); one hidden there shows when asked for
    # (a menu's command, an attached probe) or from View ▸ Panels.
    shown: bool = True


def _compare(parts: DockParts) -> ComparePanel:
    panel = ComparePanel()  # its runs (app.compare_runner) are attached by the window's builder
    panel.show_beside(parts.side_view())  # a variant's view
    return panel


def _history(parts: DockParts) -> HistoryView:
    """The History view follows the undo stack by itself, so it is not a Panel."""
    controller = parts.controller
    return HistoryView(controller.undo_stack, tr("Scene as loaded"), go_to=controller.go_to_history)


DOCKS: tuple[DockRow, ...] = (
    DockRow("scene", QT_TR_NOOP("Scene"), lambda parts: ScenePanel(parts.scene_model), LEFT,
            tab_after="parameters"),
    DockRow("parameters", QT_TR_NOOP("Parameters"),
            lambda parts: ParametersPanel(parts.user_fabrics), LEFT, in_front=True, width=330),
    DockRow("readouts", QT_TR_NOOP("Readouts"), lambda parts: ReadoutsPanel(), RIGHT,
            in_front=True, width=340),
    DockRow("history", QT_TR_NOOP("History"), _history, LEFT, tab_after="scene"),
    DockRow("questions", QT_TR_NOOP("Questions"), lambda parts: QuestionsPanel(), LEFT,
            tab_after="history"),
    DockRow("compare", QT_TR_NOOP("Compare"), _compare, RIGHT, tab_after="readouts"),
    # Hidden until a probe is attached (or a probed scene opens), so the default layout's tabs
    # keep their room.
    DockRow("probes", QT_TR_NOOP("Probes"), lambda parts: ProbesPanel(), RIGHT,
            tab_after="stopwatch", shown=False),
    # Hidden until asked for (View ▸ Panels ▸ Stopwatch): a seventh tab in a narrow window's
    # one column would leave the 3D view too little room.
    DockRow("stopwatch", QT_TR_NOOP("Stopwatch"), lambda parts: StopwatchPanel(), RIGHT,
            tab_after="validation", shown=False),
    # Hidden until asked for (Lab ▸ Validate fabrics…).
    DockRow("validation", QT_TR_NOOP("Validation"),
            lambda parts: ValidationPanel(parts.user_fabrics), RIGHT, tab_after="compare",
            shown=False),
)  # fmt: skip


def build_docks(window: QMainWindow, parts: DockParts) -> dict[str, QDockWidget]:
    """Every dock of the table in the window, laid out as the default layout has them; by
    name, in the table's order. The docks shown there are laid out first, and then those
    hidden join their tab groups: the sizes the default layout keeps are the shown docks'."""
    docks: dict[str, QDockWidget] = {}
    shown = _in_tab_order([row for row in DOCKS if row.shown])
    for row in shown:  # each tab group's first dock first: it keeps its place in the column
        docks[row.name] = _dock(window, row, parts)
    for row in shown:
        if row.tab_after:
            window.tabifyDockWidget(docks[row.tab_after], docks[row.name])
    _bring_forward(window, docks)
    sized = [row for row in shown if row.width]
    window.resizeDocks(
        [docks[row.name] for row in sized], [row.width for row in sized],
        Qt.Orientation.Horizontal,
    )  # fmt: skip
    for row in _in_tab_order([row for row in DOCKS if not row.shown]):
        docks[row.name] = _dock(window, row, parts)
        if row.tab_after:
            window.tabifyDockWidget(docks[row.tab_after], docks[row.name])
            _bring_forward(window, docks)
        docks[row.name].hide()
    return {row.name: docks[row.name] for row in DOCKS}


def _dock(window: QMainWindow, row: DockRow, parts: DockParts) -> QDockWidget:
    dock = QDockWidget(tr(row.title), window)
    dock.setObjectName(f"{row.name}_dock")
    dock.setWidget(row.make(parts))
    window.addDockWidget(row.area, dock)
    return dock


def _bring_forward(window: QMainWindow, docks: dict[str, QDockWidget]) -> None:
    """The tabs in front in the default layout, to the front."""
    for row in DOCKS:
        if row.in_front and row.name in docks:
            docks[row.name].raise_()


def _in_tab_order(rows: list[DockRow]) -> list[DockRow]:
    """`rows` by tab group: each group's first dock, then the docks that follow it in their
    chain of `tab_after` (a row whose dock to follow is not among `rows` starts a chain)."""
    names = {row.name for row in rows}
    ordered: list[DockRow] = []

    def chain(name: str) -> None:
        for row in rows:
            if row.tab_after == name:
                ordered.append(row)
                chain(row.name)

    for row in rows:
        if row.tab_after not in names:
            ordered.append(row)
            chain(row.name)
    if len(ordered) != len(rows):
        raise ValueError("DOCKS: a chain of tab_after goes round in a circle")
    return ordered


def connect_widget(
    widget: QWidget, submit: Callable[[object], object], say: Callable[[str], None]
) -> None:
    """A dock's widget's requests (`command_requested`) to the one way they take, and its one
    lines (`refused`: a typed value not taken; `said`) to the status bar, where it has them."""
    for name, slot in (("command_requested", submit), ("refused", say), ("said", say)):
        signal = getattr(widget, name, None)
        if isinstance(signal, SignalInstance):
            signal.connect(slot)
