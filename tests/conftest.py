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


class SharedWindow:
    """The main window a test module's tests share (make_window): made by the module's first
    call, reset for each later test, closed when the module ends."""

    def __init__(self) -> None:
        self.window: MainWindow | None = None

    def close(self) -> None:
        window, self.window = self.window, None
        if window is not None:
            # After the module's last test its settings folder is no longer set: a layout
            # stored now would go to the machine's own settings.
            window.remember_layout = False
            import shared_window

            with pytest.MonkeyPatch.context() as patches:  # its changes are the last test's
                discard_changes(patches)
                shared_window.close(window)


def discard_changes(patches: pytest.MonkeyPatch) -> None:
    """The unsaved-changes question a closing window asks, answered Discard."""
    from PySide6.QtWidgets import QMessageBox

    answer = QMessageBox.StandardButton.Discard
    patches.setattr(QMessageBox, "question", lambda *args, **kwargs: answer)


@pytest.fixture(scope="module")
def _module_window(qapp) -> Iterator[SharedWindow]:
    shared = SharedWindow()
    yield shared
    shared.close()


@pytest.fixture
def make_window(
    qtbot, request, monkeypatch: pytest.MonkeyPatch, isolated_settings, _module_window: SharedWindow
) -> Iterator[Callable[..., MainWindow]]:
    """make_window(scene="hanging-sheet", *, size=None, paused=False, fresh=False): the real
    main window with a preset loaded, shown and exposed, its solver not running. `paused` tells
    the solver to stay paused before the scene loads; `size` is (width, height).

    A test module's tests share one window: the module's first call builds it, and a later
    test's first call gets it back reset to what a fresh one would be (tests/shared_window.py
    says what that covers). `fresh=True`, a second window in one test, and a window made with
    stored settings (read as it is built), after the test patched the app's ui or app layers,
    or in another language or palette than the default are built afresh and closed when the
    test ends. A shared window that a test leaves in a state no reset undoes (closed, another
    language) is closed then too.

    Windows are closed by this fixture, not by qtbot: pytest-qt closes its widgets before
    fixtures finish, and a window with unsaved edits would ask whether to save them (this
    fixture answers Discard)."""
    import shared_window
    from PySide6.QtWidgets import QApplication

    made: list[MainWindow] = []
    # A quick double click, as a desktop may set it: the tests wait this long (and 50 ms more)
    # between two clicks on one spot, so that Qt takes them for two clicks, not a double one.
    # At the desktop's default of 400 ms those waits were most of a scripted lesson's time.
    hints = QApplication.styleHints()
    desktops = hints.mouseDoubleClickInterval()
    hints.setMouseDoubleClickInterval(DOUBLE_CLICK_MS)
    discard_changes(monkeypatch)
    shared = _module_window

    def make(
        scene: str = "hanging-sheet",
        *,
        size: tuple[int, int] | None = None,
        paused: bool = False,
        fresh: bool = False,
    ) -> MainWindow:
        sharing = not (
            fresh or made or shared_window.stored_anything(isolated_settings)
            or shared_window.patched_the_ui(monkeypatch)
        ) and shared_window.in_the_default_look()  # fmt: skip
        if sharing and shared.window is not None:
            window = shared.window
            if os.environ.get("CLOTHLAB_CHECK_SHARED"):  # a file to write the differences to
                changes = shared_window.check_against_fresh(
                    qtbot, window, scene, size=size, paused=paused
                )
                with open(os.environ["CLOTHLAB_CHECK_SHARED"], "a") as differences:
                    differences.writelines(f"{request.node.nodeid}: {c}\n" for c in changes)
            else:
                shared_window.reset(qtbot, window, scene, size=size, paused=paused)
        else:
            window = shared_window.build(qtbot, scene, size=size, paused=paused)
            if sharing:
                shared.window = window
        made.append(window)
        return window

    yield make
    from qt_helpers import layout_item_wrappers

    assert layout_item_wrappers() == [], "stale-prone wrappers: nest layouts with ui/layouts.py"
    for window in made:
        if window is not shared.window:
            shared_window.close(window)
        elif not shared_window.tidy(qtbot, window) or not shared_window.in_the_default_look():
            shared.close()
    hints.setMouseDoubleClickInterval(desktops)


@pytest.fixture
def compare_window(make_window):
    """compare_window(**make_window's): the window as app.gui builds it, the Compare panel
    with a runner attached and shown."""
    from clothlab.app.compare_runner import CompareRunner

    runners: list[CompareRunner] = []

    def make(**kwargs):
        # fresh: a runner attached to the Compare panel stays attached (shared_window.tidy)
        window = make_window("hanging-sheet", fresh=True, **kwargs)
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
