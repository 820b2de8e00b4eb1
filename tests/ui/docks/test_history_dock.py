"""The History dock follows the undo stack row by row, and a click there undoes or redoes."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QUndoCommand, QUndoStack
from PySide6.QtTest import QTest

from clothlab.ui.docks.history_dock import HistoryView
from clothlab.ui.icons import icon


class Renamed(QUndoCommand):
    """Merges with the one before it, as a slider drag's changes do."""

    def id(self) -> int:
        return 1

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 (Qt override)
        self.setText(other.text())
        return True


def rows(view: HistoryView) -> list[str]:
    model = view.model()
    return [model.index(row).data() for row in range(model.rowCount())]


def current_row(view: HistoryView) -> int:
    return view.currentIndex().row()


def test_the_history_follows_pushes_undo_redo_merges_and_clear_without_resetting(qtbot):
    stack = QUndoStack()
    view = HistoryView(stack, "Scene as loaded")
    qtbot.addWidget(view)
    resets: list[None] = []
    view.model().modelReset.connect(lambda: resets.append(None))
    for name in ("Cut", "Move pin", "Add ball"):
        stack.push(QUndoCommand(name))
    assert rows(view) == ["Scene as loaded", "Cut", "Move pin", "Add ball"]
    assert current_row(view) == 3
    stack.undo(), stack.undo()
    assert current_row(view) == 1
    stack.push(QUndoCommand("Wind on"))  # drops what could be redone
    assert rows(view) == ["Scene as loaded", "Cut", "Wind on"]
    stack.push(Renamed("Passes 8"))
    stack.push(Renamed("Passes 9"))  # merged into the entry before
    assert rows(view) == ["Scene as loaded", "Cut", "Wind on", "Passes 9"]
    assert current_row(view) == 3
    stack.clear()
    assert rows(view) == ["Scene as loaded"]
    assert current_row(view) == 0
    assert not resets  # each change moved rows; none laid the whole list out again


def test_a_click_on_an_entry_goes_back_to_it_and_forward_again(qtbot):
    stack = QUndoStack()
    view = HistoryView(stack, "Scene as loaded")
    qtbot.addWidget(view)
    view.show()
    qtbot.waitExposed(view)
    for name in ("Cut", "Move pin", "Add ball"):
        stack.push(QUndoCommand(name))

    def click(row: int) -> None:
        centre = view.visualRect(view.model().index(row)).center()
        QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=centre)

    click(1)
    assert stack.index() == 1 and current_row(view) == 1
    click(0)
    assert stack.index() == 0
    click(3)
    assert stack.index() == 3 and stack.count() == 3


def test_a_long_history_lists_the_newest_entries_and_follows_undo_past_them(qtbot):
    stack = QUndoStack()
    view = HistoryView(stack, "Scene as loaded", rows=5)
    qtbot.addWidget(view)
    for k in range(8):
        stack.push(QUndoCommand(f"Edit {k}"))
    assert rows(view) == ["… 3 earlier edits", "Edit 3", "Edit 4", "Edit 5", "Edit 6", "Edit 7"]
    assert current_row(view) == 5
    for _ in range(6):
        stack.undo()  # to index 2, before the rows listed: the list moves back with it
    assert rows(view) == ["… 2 earlier edits", "Edit 2", "Edit 3", "Edit 4", "Edit 5", "Edit 6"]
    assert current_row(view) == 0
    view.setCurrentIndex(view.model().index(3))  # choosing a row: the state after Edit 4
    assert stack.index() == 5
    stack.push(QUndoCommand("Cut"))  # drops Edits 5 to 7
    assert rows(view) == ["… 1 earlier edit", "Edit 1", "Edit 2", "Edit 3", "Edit 4", "Cut"]
    stack.clear()
    assert rows(view) == ["Scene as loaded"]


def marked(view: HistoryView) -> list[int]:
    """The rows drawn with the saved mark (the others with a blank of its size)."""
    model = view.model()
    return [r for r in range(model.rowCount()) if model.index(r).data(Qt.ToolTipRole)]


def test_the_saved_state_is_marked_where_it_is_and_not_once_it_is_dropped(qtbot):
    stack = QUndoStack()
    view = HistoryView(stack, "Scene as loaded")
    qtbot.addWidget(view)
    changed: list[int] = []
    view.model().dataChanged.connect(lambda top, _bottom, _roles: changed.append(top.row()))
    assert marked(view) == [0]  # as loaded
    stack.push(QUndoCommand("Cut"))
    stack.push(QUndoCommand("Move pin"))
    stack.setClean()  # saved
    assert marked(view) == [2]
    assert "saved" in view.model().index(2).data(Qt.ToolTipRole)
    assert view.model().index(2).data(Qt.DecorationRole).cacheKey() == icon("save").cacheKey()
    stack.undo()
    assert marked(view) == [2] and changed  # still the saved state, one redo away
    stack.push(QUndoCommand("Add ball"))  # drops it: no state listed is the saved one
    assert marked(view) == []


def test_a_click_that_undoes_hundreds_of_entries_rebuilds_the_model_and_views_once(
    qtbot, make_window
):
    """A click 920 entries back had restarted the model for every change of
    bodies on the way and told the views of each entry (1.6 s on the GUI thread). The entries
    are applied as one batch: one restart, one redraw, and the document and model of that
    entry."""
    from qt_helpers import WAIT_MS

    window = make_window()
    controller = window.controller
    qtbot.waitUntil(lambda: controller.latest is not None, timeout=WAIT_MS)
    stack = controller.undo_stack
    scenes = [controller.scene]  # the document at each stack index
    for k in range(920):
        if k in (700, 800):  # changes of bodies: each restarts the model
            window.action_add_sheet.trigger()
        else:
            controller.set_setting("wind", round(0.01 * (k + 1), 2))
        scenes.append(controller.scene)
    assert stack.count() == stack.index() == 920 and len(controller.scene.bodies) == 3
    edits, restarts = [], []
    controller.scene_edited.connect(lambda *args: edits.append(args))
    controller.restart_coming.connect(restarts.append)

    view = window.history_view
    assert rows(view)[0] == f"… {view.history.first} earlier edits"
    target = view.history.first
    centre = view.visualRect(view.model().index(0)).center()
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=centre)

    assert stack.index() == target < 700
    assert len(edits) == 1 and len(restarts) == 1  # not 920 and 2
    assert controller.scene == scenes[target] and len(controller.scene.bodies) == 1
    from clothlab.sim.document.scene import body_counts

    # the model, restarted once from that document, runs it
    particles = body_counts(scenes[target].bodies)[0]
    wind = scenes[target].wind.strength
    qtbot.waitUntil(lambda: controller.latest.settings.wind == wind
                    and controller.latest.x.shape[0] == particles, timeout=WAIT_MS)  # fmt: skip
