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
prefix = "clothlab.sim."
names = sorted(m.name[len(prefix):] for m in pkgutil.walk_packages(clothlab.sim.__path__, prefix))
for name in names:
    importlib.import_module(prefix + name)
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
    assert {"core.topology", "core.kernels", "core.solver", "document.edits", "document.scene",
            "document.presets", "core.snapshot", "lab.engine", "lab.sweep"} <= imported  # fmt: skip


@pytest.mark.parametrize(
    "plant",
    [
        "import json as _planted; sys.modules['PySide6'] = _planted",
        "import json as _planted; sys.modules['clothlab.ui.viewport.viewport'] = _planted",
        "import json as _planted; sys.modules['app'] = _planted",
    ],
)
def test_the_check_itself_notices_a_gui_import(plant):
    # guards against a check that can never fail (e.g. a typo in the module list)
    result = run_check(plant)
    assert result.returncode != 0
    assert "AssertionError" in result.stderr


def test_sim_has_the_expected_modules():
    names = {p.relative_to(SIM_DIR).with_suffix("").as_posix() for p in SIM_DIR.rglob("*.py")}
    expected = {"core/topology", "core/kernels", "core/solver", "core/parameters", "core/state"}
    assert (
        expected | {"document/edits", "document/scene", "document/presets", "lab/engine"} <= names
    )
