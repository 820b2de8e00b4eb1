"""The layout saved is the layout restored, and the window fits the screen
with dock titles one can read (item 12).

"The stored window layout could not be read" came on relaunch after a run at another
QT_SCALE_FACTOR (or on a screen of another size): Qt refuses a geometry saved on a screen more
than 25 % wider or narrower, and the window took that for an unreadable layout, dropping the
docks as the user had put them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QFileDialog, QTabBar
from qt_helpers import WAIT_MS, layout_settled

from clothlab.sim.document.presets import preset_path
from clothlab.ui.window.layout import LAYOUT_WARNING, USABLE_DOCK_WIDTH, tabs_width

REPOSITORY = Path(__file__).resolve().parents[3]

# A run of the real window in another process: the compare view shown beside the main one, the
# Scene dock made current and the History dock hidden, then closed (which stores the layout).
SAVE_A_LAYOUT = """
import os
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")
from PySide6.QtCore import QEventLoop
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from clothlab.app.controller import Controller
from clothlab.sim.document.presets import load_preset
from clothlab.ui.window.main_window import MainWindow

app = QApplication([])
controller = Controller()
window = MainWindow(controller)
controller.load(load_preset("hanging-sheet"))
window.show()
QTest.qWaitForWindowExposed(window)
def settle_layout():  # until the resizes and moves so far are taken and their fit has run
    app.sendPostedEvents()
    while window.layout_keeper._timer.isActive():
        app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)


window.compare_dock.raise_()
window.compare_panel.beside_box.setCurrentIndex(1)  # the side-by-side compare view
settle_layout()
assert not window.compare_panel.side_view.isHidden()
window.history_dock.hide()
window.scene_dock.raise_()
settle_layout()
window.close()
controller.shutdown()
"""


def docks_as_placed(window) -> dict[str, tuple]:
    """Each dock's area, whether it is shown, floating, and the docks tabbed with it."""
    placed = {}
    for dock in window.findChildren(QDockWidget):
        tabbed = sorted(d.objectName() for d in window.tabifiedDockWidgets(dock))
        shown = dock.toggleViewAction().isChecked()
        area = window.dockWidgetArea(dock)
        placed[dock.objectName()] = (area, shown, dock.isFloating(), tabbed)
    return placed


def run_script(
    script: str, config: Path, *args: str, **env: str
) -> subprocess.CompletedProcess[str]:
    """`script` in another Python process whose settings live in `config`."""
    return subprocess.run(
        [sys.executable, "-c", script, *args],
        env={**os.environ, "XDG_CONFIG_HOME": str(config), **env},
        capture_output=True, text=True, timeout=300, cwd=REPOSITORY,
    )  # fmt: skip


def save_layout_in_another_process(config: Path, scale: str) -> None:
    result = run_script(SAVE_A_LAYOUT, config, QT_SCALE_FACTOR=scale)
    assert result.returncode == 0, result.stderr


def test_a_layout_saved_at_scale_2_with_the_compare_view_is_restored_at_scale_1(
    make_window, isolated_settings, capfd
):
    save_layout_in_another_process(isolated_settings, scale="2")
    capfd.readouterr()
    window = make_window()
    assert LAYOUT_WARNING not in capfd.readouterr().err
    assert window.status.currentMessage() != LAYOUT_WARNING.capitalize()
    assert not window.history_dock.toggleViewAction().isChecked()  # as the user left it
    assert window.dockWidgetArea(window.readouts_dock) == Qt.DockWidgetArea.RightDockWidgetArea
    screen = window.screen().availableGeometry()
    assert window.width() <= screen.width() and window.height() <= screen.height()


def test_a_layout_saved_after_the_compare_view_is_the_layout_restored(
    make_window, isolated_settings, capfd
):
    save_layout_in_another_process(isolated_settings, scale="1")
    capfd.readouterr()
    first = make_window()
    placed = docks_as_placed(first)
    assert not placed["history_dock"][1]
    first.save_layout()
    first.close()
    again = make_window()
    assert LAYOUT_WARNING not in capfd.readouterr().err
    assert docks_as_placed(again) == placed


# --- item 12: fit the screen, keep the tab titles ----------------------------------------------

# The start of a script (run_script) that opens the real window and waits until it shows.
WINDOW_SHOWN = """
import os
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")
from PySide6.QtCore import QEventLoop
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from clothlab.app.controller import Controller
from clothlab.ui.window.main_window import MainWindow

app = QApplication([])
controller = Controller()
window = MainWindow(controller)
window.show()
QTest.qWaitForWindowExposed(window)

def settle_layout():  # until the resizes and moves so far are taken and their fit has run
    app.sendPostedEvents()
    while window.layout_keeper._timer.isActive():
        app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
"""

OPEN_AT_SCALE_2 = (
    WINDOW_SHOWN
    + """
screen = window.screen().availableGeometry()
print(window.width(), window.height(), screen.width(), screen.height())
window.close()
controller.shutdown()
"""
)


def test_the_window_opens_within_the_screen_at_scale_2(isolated_settings):
    env = {**os.environ, "XDG_CONFIG_HOME": str(isolated_settings), "QT_SCALE_FACTOR": "2"}
    result = subprocess.run(
        [sys.executable, "-c", OPEN_AT_SCALE_2],
        env=env, capture_output=True, text=True, timeout=300, cwd=REPOSITORY,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    width, height, screen_width, screen_height = map(int, result.stdout.split()[-4:])
    assert screen_width < 1280  # the screen in logical pixels is smaller than the default size
    assert width <= screen_width and height <= screen_height


def shown_tabs(window) -> list[tuple[str, int]]:
    """The dock tabs on screen: each title and its tab's width."""
    return [
        (bar.tabText(k), bar.tabRect(k).width())
        for bar in window.findChildren(QTabBar)
        if bar.isVisible()
        for k in range(bar.count())
    ]


def test_six_tabs_in_one_column_keep_their_titles(qtbot, make_window):
    window = make_window(size=(800, 500))  # a 1600 × 1000 screen at QT_SCALE_FACTOR=2
    qtbot.waitUntil(lambda: window.readouts_dock in window.tabifiedDockWidgets(
        window.parameters_dock), timeout=WAIT_MS)  # fmt: skip
    layout_settled(qtbot, window)
    tabs = shown_tabs(window)
    assert len(tabs) == 6
    for title, width in tabs:
        assert width >= tabs_width((title,)), (title, width)  # the whole title, no "Param…"
    assert window.viewport.width() >= 0.4 * window.width()  # still most of the rest


def test_tab_titles_at_the_default_size_stay_whole(qtbot, make_window):
    window = make_window(size=(1280, 800))
    layout_settled(qtbot, window)
    for title, width in shown_tabs(window):
        assert width >= tabs_width((title,)), (title, width)


def test_at_the_default_size_the_parameters_fields_are_not_cut_off(qtbot):
    """As `clothlab --screenshot` builds it (no remembered layout): the window's first layout
    squeezed the left column below the Parameters form's width, and the spin boxes lost their
    arrows; the column is widened to what it needs to be usable."""
    from clothlab.app.controller import Controller
    from clothlab.sim.document.presets import load_preset
    from clothlab.ui.window.main_window import MainWindow

    controller = Controller()
    window = MainWindow(controller, remember_layout=False)
    try:
        controller.load(load_preset("hanging-sheet"))
        window.resize(1280, 800)
        window.show()
        qtbot.waitExposed(window)
        dock = window.parameters_dock
        qtbot.waitUntil(lambda: dock.width() >= USABLE_DOCK_WIDTH, timeout=WAIT_MS)
        assert window.dockWidgetArea(window.readouts_dock) == RIGHT  # the plots keep their place
        spin_box = window.parameters_panel.editors["gravity"].spin_box
        assert spin_box.mapTo(dock, spin_box.rect().topRight()).x() < dock.width()
    finally:
        window.close()
        controller.shutdown()
        window.deleteLater()


# --- item 18: narrow and wide again; the last folder used ------------------------------------


def on_screen(dock) -> bool:
    """A dock one sees: a tab behind another counts as visible to Qt, but none of it is shown."""
    return not dock.visibleRegion().isEmpty()


def narrow_then_wide(qtbot, window) -> None:
    window.resize(800, 600)
    qtbot.waitUntil(lambda: window.readouts_dock in window.tabifiedDockWidgets(
        window.parameters_dock), timeout=WAIT_MS)  # fmt: skip
    layout_settled(qtbot, window)
    window.resize(1800, 1000)
    qtbot.waitUntil(lambda: window.dockWidgetArea(window.readouts_dock) == RIGHT, timeout=WAIT_MS)
    layout_settled(qtbot, window)


RIGHT = Qt.DockWidgetArea.RightDockWidgetArea


def test_after_narrow_and_wide_again_the_readouts_are_shown(qtbot, make_window):
    window = make_window(size=(1280, 800))
    assert on_screen(window.readouts_dock)
    narrow_then_wide(qtbot, window)
    assert on_screen(window.readouts_dock) and not on_screen(window.compare_dock)
    tabs = next(bar for bar in window.findChildren(QTabBar) if bar.isVisible()
                and "Compare" in [bar.tabText(k) for k in range(bar.count())])  # fmt: skip
    assert [tabs.tabText(k) for k in range(tabs.count())] == ["Readouts", "Compare"]


def test_after_narrow_and_wide_again_the_tab_the_user_had_is_shown(qtbot, make_window):
    window = make_window(size=(1280, 800))
    window.compare_dock.raise_()
    qtbot.waitUntil(lambda: on_screen(window.compare_dock), timeout=WAIT_MS)
    narrow_then_wide(qtbot, window)
    assert on_screen(window.compare_dock) and not on_screen(window.readouts_dock)


def test_file_dialogs_start_in_the_last_folder_used(make_window, monkeypatch, tmp_path):
    chosen = tmp_path / "class" / "week 3"
    chosen.mkdir(parents=True)
    (chosen / "flag.json").write_bytes(preset_path("flag").read_bytes())
    started: list[str] = []

    def open_name(parent, title, folder, filters, *rest):
        started.append(folder)
        return str(chosen / "flag.json"), filters

    def save_name(parent, title, suggestion, filters, *rest):
        started.append(suggestion)
        return "", filters  # cancelled

    monkeypatch.setattr(QFileDialog, "getOpenFileName", open_name)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_name)
    window = make_window(paused=True)
    window.action_open.trigger()
    assert started[0] == str(Path.home())  # nothing used yet
    assert window.controller.path == chosen / "flag.json"
    window.action_export_csv.trigger()  # was: the home folder
    assert Path(started[-1]).parent == chosen.resolve()
    window.action_save_as.trigger()
    assert Path(started[-1]).parent == chosen.resolve()
    window.close()

    again = make_window(paused=True)  # a new run: the folder is remembered
    again.action_new.trigger()
    again.action_screenshot.trigger()
    assert Path(started[-1]).parent == chosen.resolve()
    again.action_open.trigger()
    assert started[-1] == str(chosen.resolve())
