"""Shared fixtures: every test gets its own settings and data folders, so no test reads or writes
the user's real Cloth Lab settings (dock layout, recent files), autosaves, or another test's;
and the Qt tests make their controllers and windows one way (`make_controller`, `make_window`).

The Qt fixtures import Qt only when a test asks for them: the sim tests must stay free of it."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from clothlab.app.controller import Controller
    from clothlab.ui.window.main_window import MainWindow

DOUBLE_CLICK_MS = 100  # the windows' double-click interval (make_window)

# pyqtgraph picks its Qt binding at import time; make it the one the app uses.
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")


@pytest.fixture(autouse=True)
def isolated_settings(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    folder = tmp_path_factory.mktemp("config")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folder))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))  # autosaves
    # Only when a Qt test has imported Qt already: the sim tests must stay free of it.
    if "PySide6.QtCore" in sys.modules:
        from PySide6.QtCore import QSettings

        for settings_format in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
            QSettings.setPath(settings_format, QSettings.Scope.UserScope, str(folder))
    if "clothlab.ui.window.preferences" in sys.modules:  # a refused file's settings end here
        sys.modules["clothlab.ui.window.preferences"].forget_session_settings()
    return folder


# --- controllers and windows -------------------------------------------------------------------


@pytest.fixture
def make_controller(qtbot) -> Iterator[Callable[..., Controller]]:
    """make_controller() gives a controller with no scene; make_controller("flag") one with that
    preset loaded. Each is shut down (its solver thread stopped) when the test ends."""
    from clothlab.app.controller import Controller
    from clothlab.sim.document.presets import load_preset

    made: list[Controller] = []

    def make(scene: str | None = None) -> Controller:
        controller = Controller()
        made.append(controller)
        if scene is not None:
            controller.load(load_preset(scene))
        return controller

    yield make
    for controller in made:
        controller.shutdown()


@pytest.fixture
def make_window(qtbot, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., MainWindow]]:
    """make_window(scene="hanging-sheet", *, size=None, paused=False): the real main window on
    its own controller with a preset loaded, shown and exposed. `paused` tells the solver to stay
    paused before the scene loads; `size` is (width, height).

    Windows are closed by this fixture, not by qtbot: pytest-qt closes its widgets before
    fixtures finish, and a window with unsaved edits would ask whether to save them (this
    fixture answers Discard)."""
    from PySide6.QtWidgets import QApplication, QMessageBox

    from clothlab.app.controller import Controller
    from clothlab.sim.document.presets import load_preset
    from clothlab.ui.window.main_window import MainWindow

    made: list[MainWindow] = []
    # A quick double click, as a desktop may set it: the tests wait this long (and 50 ms more)
    # between two clicks on one spot, so that Qt takes them for two clicks, not a double one.
    # At the desktop's default of 400 ms those waits were most of a scripted lesson's time.
    hints = QApplication.styleHints()
    desktops = hints.mouseDoubleClickInterval()
    hints.setMouseDoubleClickInterval(DOUBLE_CLICK_MS)
    monkeypatch.setattr(
        QMessageBox, "question", lambda *args, **kwargs: QMessageBox.StandardButton.Discard
    )

    def make(
        scene: str = "hanging-sheet",
        *,
        size: tuple[int, int] | None = None,
        paused: bool = False,
    ) -> MainWindow:
        controller = Controller()
        window = MainWindow(controller)
        made.append(window)
        if paused:
            controller.set_running(False)
        controller.load(load_preset(scene))
        if size is not None:
            window.resize(*size)
        window.show()
        qtbot.waitExposed(window)
        return window

    yield make
    from qt_helpers import layout_item_wrappers

    assert layout_item_wrappers() == [], "stale-prone wrappers: nest layouts with ui/layouts.py"
    for window in made:
        window.close()
        window.controller.shutdown()
        window.deleteLater()
    hints.setMouseDoubleClickInterval(desktops)


@pytest.fixture
def compare_window(make_window):
    """compare_window(**make_window's): the window as app.gui builds it, the Compare panel
    with a runner attached and shown."""
    from clothlab.app.compare_runner import CompareRunner

    runners: list[CompareRunner] = []

    def make(**kwargs):
        window = make_window("hanging-sheet", **kwargs)
        runner = CompareRunner(window.controller, window.controller)
        window.compare_panel.attach(runner)
        runners.append(runner)
        window.compare_dock.show()
        window.compare_dock.raise_()
        return window

    yield make
    for runner in runners:
        runner.stop()


# --- slow tests --------------------------------------------------------------------------------
# Here rather than in tests/sim/conftest.py: pytest reads command-line options only from the
# conftest files it finds at start-up, and from the repository root that is this one.


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--runslow", action="store_true", default=False, help="run tests marked slow")


def pytest_configure(config: pytest.Config) -> None:
    # Property tests read it at import (sim_helpers.cases): more cases on --runslow.
    if config.getoption("--runslow"):
        os.environ["CLOTHLAB_RUNSLOW"] = "1"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="slow: give --runslow to run it")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
