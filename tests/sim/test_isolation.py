"""`sim` stands alone: it imports no Qt, no OpenGL, no pyqtgraph, and nothing from ui/ or app/."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

SIM_DIR = Path(__file__).resolve().parents[2] / "sim"
FORBIDDEN = ("PySide6", "OpenGL", "pyqtgraph", "shiboken6", "PyQt5", "PyQt6", "ui", "app")

CHECK = (
    "import sys, sim, sim.topology, sim.kernels, sim.solver, sim.edits, sim.scene, sim.presets,"
    " sim.snapshot, sim.parameters, sim.state; "
    "bad = [m for m in sys.modules if m.split('.')[0] in "
    "('PySide6', 'OpenGL', 'pyqtgraph', 'shiboken6', 'PyQt5', 'PyQt6', 'ui', 'app')]; "
    "assert not bad, bad"
)


def test_importing_every_sim_module_loads_no_gui_module():
    result = subprocess.run(
        [sys.executable, "-c", CHECK],
        cwd=SIM_DIR.parent,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr


def test_the_check_itself_notices_a_gui_import():
    # guards against a check that can never fail (e.g. a typo in the module list)
    leaky = CHECK.replace("import sys, sim,", "import sys, sim, json as ui,").replace(
        "sys.modules", "[*sys.modules, 'ui']"
    )
    result = subprocess.run([sys.executable, "-c", leaky], capture_output=True, text=True)
    assert result.returncode != 0
    assert "AssertionError" in result.stderr


IMPORT_LINE = re.compile(r"^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w., ]+))", re.MULTILINE)


def imported_roots(source):
    roots = set()
    for from_module, modules in IMPORT_LINE.findall(source):
        names = [from_module] if from_module else [m.split(" as ")[0] for m in modules.split(",")]
        roots.update(name.strip().split(".")[0] for name in names if name.strip())
    return roots


def test_import_line_parser_sees_gui_imports():
    source = (
        "import numpy as np\nfrom PySide6.QtCore import Qt\n    import OpenGL.GL, ui.viewport\n"
    )
    assert imported_roots(source) == {"numpy", "PySide6", "OpenGL", "ui"}


@pytest.mark.parametrize("path", sorted(SIM_DIR.glob("*.py")), ids=lambda p: p.name)
def test_no_sim_source_file_imports_gui_or_app_code(path):
    roots = imported_roots(path.read_text(encoding="utf-8"))
    assert not roots & set(FORBIDDEN), f"{path.name} imports {sorted(roots & set(FORBIDDEN))}"


def test_sim_has_the_expected_modules():
    names = {p.stem for p in SIM_DIR.glob("*.py")}
    expected = {"topology", "kernels", "solver", "parameters", "state", "edits", "scene"}
    assert expected | {"presets", "snapshot"} <= names
