"""`sim` stands alone at run time: importing every module of clothlab.sim loads no Qt, no OpenGL,
no pyqtgraph, nothing of clothlab.ui or clothlab.app, and none of the old top-level names.

The same rules read from the source, with file:line for each breach, are tests/test_layers.py."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SIM_DIR = ROOT / "sim"

# Every module of the package, found by pkgutil so a new one is checked without listing it here.
# {plant} is where the self-check below slips a forbidden module in.
CHECK = """
import importlib, pkgutil, sys
import clothlab.sim
names = sorted(m.name for m in pkgutil.iter_modules(clothlab.sim.__path__))
for name in names:
    importlib.import_module("clothlab.sim." + name)
{plant}
roots = ("PySide6", "OpenGL", "pyqtgraph", "shiboken6", "PyQt5", "PyQt6", "ui", "app", "sim")
packages = ("clothlab.ui", "clothlab.app")
bad = sorted(
    m for m in sys.modules
    if m.split(".")[0] in roots or any(m == p or m.startswith(p + ".") for p in packages)
)
assert not bad, bad
print(" ".join(names))
"""


def run_check(plant: str = "") -> subprocess.CompletedProcess[str]:
    # From the checkout's root, where the old top-level names sim/, ui/, app/ are importable
    # folders: a module importing one of them would succeed there, and be seen.
    return subprocess.run(
        [sys.executable, "-c", CHECK.format(plant=plant)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_importing_every_sim_module_loads_no_gui_module():
    result = run_check()
    assert result.returncode == 0, result.stderr
    imported = set(result.stdout.split())
    assert {"topology", "kernels", "solver", "edits", "scene", "presets", "snapshot"} <= imported


@pytest.mark.parametrize(
    "plant",
    [
        "import json as _planted; sys.modules['PySide6'] = _planted",
        "import json as _planted; sys.modules['clothlab.ui.viewport'] = _planted",
        "import json as _planted; sys.modules['app'] = _planted",
    ],
)
def test_the_check_itself_notices_a_gui_import(plant):
    # guards against a check that can never fail (e.g. a typo in the module list)
    result = run_check(plant)
    assert result.returncode != 0
    assert "AssertionError" in result.stderr


def test_sim_has_the_expected_modules():
    names = {p.stem for p in SIM_DIR.glob("*.py")}
    expected = {"topology", "kernels", "solver", "parameters", "state", "edits", "scene"}
    assert expected | {"presets", "snapshot"} <= names
