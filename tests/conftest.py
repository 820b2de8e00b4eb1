"""Shared fixtures: every test gets its own settings and data folders, so no test reads or writes
the user's real Cloth Lab settings (dock layout, recent files), autosaves, or another test's."""

from __future__ import annotations

import os
import sys

import pytest

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
    return folder


# --- slow tests --------------------------------------------------------------------------------
# Here rather than in tests/sim/conftest.py: pytest reads command-line options only from the
# conftest files it finds at start-up, and from the repository root that is this one.


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--runslow", action="store_true", default=False, help="run tests marked slow")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="slow: give --runslow to run it")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
