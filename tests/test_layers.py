"""Layer contracts, read from the source with `ast`, so every breach is named by file:line:

* `sim` imports nothing from Qt (PySide6, shiboken6), OpenGL, pyqtgraph, clothlab.ui or
  clothlab.app — not even for type checking; and its parts go lab → document → core (at run
  time: a part may name a later one's types for checking);
* the Python API (`api/`, clothlab itself) imports nothing from Qt, OpenGL, pyqtgraph,
  clothlab.ui or clothlab.app; nor does the 3D view's description (ui/viewport/description.py),
  which is tested without a display;
* `ui` imports nothing from clothlab.app, not even for type checking: it is typed against
  the Protocols of ui.front_door, which the app's classes satisfy;
* `resources` imports only the standard library (and itself);
* no module imports clothlab.ui.window.main_window but the window's own and app/gui.py, which
  builds it — not even for type checking: the window's parts get a WindowContext (ui.context);
* no layer imports the old top-level names `sim`, `ui`, `app`, `resources`: installed, they
  exist only as clothlab.sim, clothlab.ui, clothlab.app, clothlab.resources.

Every import counts wherever it stands (inside functions too); relative imports are resolved
against the file's place in the clothlab namespace, and `importlib.import_module("...")` or
`__import__("...")` with a literal name counts as an import. The run-time check that importing
clothlab.sim loads no GUI module is tests/sim/test_isolation.py.
"""

from __future__ import annotations

import ast
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NAMESPACE = "clothlab"
# folders of the checkout, each clothlab.<folder> (api/ is clothlab itself)
LAYERS = ("api", "app", "sim", "ui", "resources")
GUI = ("PySide6", "shiboken6", "PyQt5", "PyQt6", "OpenGL", "pyqtgraph")
OLD_TOP_LEVEL = ("app", "sim", "ui", "resources")
SIM_PARTS = ("clothlab.sim.lab", "clothlab.sim.document", "clothlab.sim.core")  # in their order
NO_DISPLAY = ("ui/viewport/description.py",)  # modules tested without a display
WINDOW = f"{NAMESPACE}.ui.window.main_window"
WINDOW_IMPORTERS = ("ui/window/main_window.py", "app/gui.py")  # the window, and who builds it


@dataclass(frozen=True)
class Import:
    line: int
    module: str  # absolute dotted name; `from a import b` gives "a.b" (b may be a module)
    type_checking: bool  # inside the body of `if TYPE_CHECKING:`


@dataclass(frozen=True)
class Breach:
    file: str  # relative to the tree's root, with forward slashes
    line: int
    reason: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.reason}"


def is_type_checking(test: ast.expr) -> bool:
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return (
        isinstance(test, ast.Attribute)
        and test.attr == "TYPE_CHECKING"
        and isinstance(test.value, ast.Name)
        and test.value.id in ("typing", "typing_extensions")
    )


class ImportCollector(ast.NodeVisitor):
    """Every import of one module's source, with relative imports made absolute."""

    def __init__(self, package: str) -> None:
        self.package = package  # the package a relative import starts from
        self.imports: list[Import] = []
        self.escapes: list[tuple[int, str]] = []  # relative imports reaching above clothlab
        self._type_checking = 0

    def _add(self, node: ast.AST, module: str) -> None:
        self.imports.append(Import(node.lineno, module, self._type_checking > 0))

    def visit_If(self, node: ast.If) -> None:
        if not is_type_checking(node.test):
            self.generic_visit(node)
            return
        self._type_checking += 1
        for child in node.body:
            self.visit(child)
        self._type_checking -= 1
        for child in node.orelse:  # the `else:` of `if TYPE_CHECKING:` runs
            self.visit(child)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._add(node, alias.name)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = node.module or ""
        if node.level:
            parts = self.package.split(".")
            kept = len(parts) - (node.level - 1)
            written = "." * node.level + base
            if kept < 1 or parts[0] != NAMESPACE:
                self.escapes.append((node.lineno, written))
                return
            base = ".".join(parts[:kept] + ([base] if base else []))
        for alias in node.names:
            self._add(node, base if alias.name == "*" else f"{base}.{alias.name}")

    def visit_Call(self, node: ast.Call) -> None:
        function = node.func
        name = (
            function.id
            if isinstance(function, ast.Name)
            else function.attr
            if isinstance(function, ast.Attribute)
            else None
        )
        if (
            name in ("import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and not node.args[0].value.startswith(".")
        ):
            self._add(node, node.args[0].value)
        self.generic_visit(node)


def within(module: str, *packages: str) -> bool:
    return any(module == package or module.startswith(package + ".") for package in packages)


def reason_against(layer: str, found: Import, package: str = "", file: str = "") -> str | None:
    """Why `found`, imported by `file` (a module of `layer` in `package`), breaks a contract;
    None if it does not."""
    module = found.module
    root = module.split(".")[0]
    front = (*GUI, f"{NAMESPACE}.ui", f"{NAMESPACE}.app")
    if root in OLD_TOP_LEVEL:
        return f"imports {module}: an old top-level name, installed only as {NAMESPACE}.{module}"
    if layer == "sim" and within(module, *front):
        return f"sim imports {module}: sim imports no Qt, OpenGL, pyqtgraph, ui or app"
    if layer == "api" and within(module, *front):
        return f"the API imports {module}: it imports no Qt, OpenGL, pyqtgraph, ui or app"
    if file in NO_DISPLAY and within(module, *GUI):
        return f"imports {module}: {file} is tested without a display"
    for k, part in enumerate(SIM_PARTS):
        if within(package, part) and within(module, *SIM_PARTS[:k]) and not found.type_checking:
            return f"{part} imports {module} at run time: sim's parts go lab → document → core"
    if layer == "ui" and within(module, f"{NAMESPACE}.app"):
        return (
            f"ui imports {module}: ui does not depend on app, not even for type checking"
            " (it is typed against ui.front_door)"
        )
    if (
        layer == "resources"
        and root not in sys.stdlib_module_names
        and not within(module, f"{NAMESPACE}.resources")
    ):
        return f"resources imports {module}: resources imports only the standard library"
    return None


def module_of(layer: str, relative: Path) -> tuple[str, str]:
    """(module, package) in the clothlab namespace of a file `relative` to its layer folder."""
    parts = [NAMESPACE, *([] if layer == "api" else [layer]), *relative.with_suffix("").parts]
    if parts[-1] == "__init__":
        parts.pop()
        return ".".join(parts), ".".join(parts)
    return ".".join(parts), ".".join(parts[:-1])


def collect(source: str, package: str) -> ImportCollector:
    collector = ImportCollector(package)
    collector.visit(ast.parse(source))
    return collector


def window_reason(file: str, found: Import) -> str | None:
    """Why `found`, imported by `file`, breaks the window's contract; None if it does not. A
    name imported from the ui package counts when it is the module (`from clothlab.ui import
    main_window`)."""
    if within(found.module, WINDOW) and file not in WINDOW_IMPORTERS:
        return (
            f"imports {found.module}: only {' and '.join(WINDOW_IMPORTERS)} import the window;"
            " its parts get a WindowContext (ui.context)"
        )
    return None


def check_source(source: str, layer: str, file: str, package: str) -> list[Breach]:
    try:
        collector = collect(source, package)
    except SyntaxError as error:
        return [Breach(file, error.lineno or 0, f"cannot be parsed: {error.msg}")]
    breaches = [
        Breach(file, line, f"relative import {written} reaches above the {NAMESPACE} namespace")
        for line, written in collector.escapes
    ]
    for found in collector.imports:
        for reason in (reason_against(layer, found, package, file), window_reason(file, found)):
            if reason is not None:
                breaches.append(Breach(file, found.line, reason))
    return sorted(breaches, key=lambda breach: breach.line)


def layer_sources(root: Path, layer: str) -> list[Path]:
    return sorted(path for path in (root / layer).rglob("*.py") if "__pycache__" not in path.parts)


def check_layer(root: Path, layer: str) -> list[Breach]:
    breaches: list[Breach] = []
    for path in layer_sources(root, layer):
        _, package = module_of(layer, path.relative_to(root / layer))
        file = path.relative_to(root).as_posix()
        breaches += check_source(path.read_text(encoding="utf-8"), layer, file, package)
    return breaches


def check_tree(root: Path) -> list[Breach]:
    return [breach for layer in LAYERS for breach in check_layer(root, layer)]


def report(breaches: list[Breach]) -> str:
    return "layer contract broken:\n" + "\n".join(f"  {breach}" for breach in breaches)


# --- the real tree -------------------------------------------------------------------------------


@pytest.mark.parametrize("layer", LAYERS)
def test_layer_keeps_its_contract(layer):
    breaches = check_layer(ROOT, layer)
    assert not breaches, report(breaches)


@pytest.mark.parametrize("layer", LAYERS)
def test_the_check_reads_every_layer(layer):
    # guards against a check that passes because it reads nothing (a renamed folder, a bad glob)
    sources = layer_sources(ROOT, layer)
    assert (ROOT / layer / "__init__.py") in sources
    found = [
        imported
        for path in sources
        for imported in collect(
            path.read_text(encoding="utf-8"),
            module_of(layer, path.relative_to(ROOT / layer))[1],
        ).imports
    ]
    assert found, f"no imports seen in {layer}/"


# --- planted breaches: the check must fail on them -------------------------------------------

SIM_SOURCE = """\
from __future__ import annotations

import numpy as np
from PySide6.QtCore import QObject
import OpenGL.GL as gl, math
from typing import TYPE_CHECKING

from clothlab.sim.core.topology import Topology
from clothlab import ui
from .. import app
from . import kernels

if TYPE_CHECKING:
    from clothlab.app.controller import Controller


def later():
    import pyqtgraph
    importlib.import_module("shiboken6")
"""


def lines_of(breaches: list[Breach]) -> list[int]:
    return [breach.line for breach in breaches]


def test_every_sim_breach_is_reported_with_its_line():
    breaches = check_source(SIM_SOURCE, "sim", "sim/solver.py", "clothlab.sim")
    assert lines_of(breaches) == [4, 5, 9, 10, 14, 18, 19]
    assert str(breaches[0]).startswith("sim/solver.py:4: sim imports PySide6.QtCore.QObject")
    assert "clothlab.ui" in breaches[2].reason and "clothlab.app" in breaches[3].reason
    assert "pyqtgraph" in breaches[5].reason and "shiboken6" in breaches[6].reason


def test_ui_imports_nothing_of_app_not_even_for_type_checking():
    source = """\
from typing import TYPE_CHECKING
import typing

from clothlab.sim.document.scene import Scene

if TYPE_CHECKING:
    from clothlab.app.controller import Controller
else:
    from clothlab.app.worker import Worker
if typing.TYPE_CHECKING:
    import clothlab.app.gui

from clothlab.app import controller
from ..app.cli import main
"""
    breaches = check_source(source, "ui", "ui/docks/scene_dock.py", "clothlab.ui.docks")
    assert lines_of(breaches) == [7, 9, 11, 13]  # `..` from clothlab.ui.docks is clothlab.ui
    assert "not even for type checking" in breaches[0].reason
    breaches = check_source(source, "ui", "ui/scene_model.py", "clothlab.ui")
    assert lines_of(breaches) == [7, 9, 11, 13, 14]  # here `..` is clothlab: clothlab.app.cli


def test_resources_may_import_only_the_standard_library():
    source = """\
from __future__ import annotations

import json
from importlib.resources import files
from importlib.resources.abc import Traversable
from . import scenes
import numpy
from clothlab.sim.document import presets
"""
    breaches = check_source(source, "resources", "resources/__init__.py", "clothlab.resources")
    assert lines_of(breaches) == [7, 8]
    assert "only the standard library" in breaches[0].reason


@pytest.mark.parametrize("layer", LAYERS)
def test_old_top_level_names_are_reported_in_every_layer(layer):
    source = "import sim\nimport ui.viewport\nfrom app import cli\nfrom resources import resource\n"
    package = f"clothlab.{layer}"
    breaches = check_source(source, layer, f"{layer}/x.py", package)
    assert lines_of(breaches) == [1, 2, 3, 4]
    assert all("old top-level name" in breach.reason for breach in breaches)


def test_app_may_import_every_layer():
    source = "from PySide6.QtCore import QObject\nfrom clothlab.ui import main_window\n"
    assert check_source(source, "app", "app/gui.py", "clothlab.app") == []


def test_only_the_window_and_the_gui_import_the_window():
    source = """\
from typing import TYPE_CHECKING

from clothlab.ui.context import WindowContext
from clothlab.ui.window import main_window
from clothlab.ui.window.main_window import FRAME_HZ
from . import main_window as window

if TYPE_CHECKING:
    from clothlab.ui.window.main_window import MainWindow


def later():
    importlib.import_module("clothlab.ui.window.main_window")
"""
    for file in ("ui/window/editor.py", "ui/docks/scene_dock.py", "app/autosave.py"):
        package = "clothlab." + file.rpartition("/")[0].replace("/", ".")
        breaches = check_source(source, file.split("/")[0], file, package)
        relative = [6] if package == "clothlab.ui.window" else []  # `.` is the window's package
        assert lines_of(breaches) == sorted([4, 5, *relative, 9, 13]), file
        assert all("only ui/window/main_window.py and app/gui.py" in b.reason for b in breaches)
    for file in WINDOW_IMPORTERS:
        assert check_source(source, file.split("/")[0], file, "clothlab.ui") == []


def test_the_window_contract_reads_the_real_imports():
    # guards against a check that passes because it sees no import of the window at all
    importers = sorted(
        path.relative_to(ROOT).as_posix()
        for layer in LAYERS
        for path in layer_sources(ROOT, layer)
        if any(
            within(found.module, WINDOW)
            for found in collect(
                path.read_text(encoding="utf-8"),
                module_of(layer, path.relative_to(ROOT / layer))[1],
            ).imports
        )
    )
    assert importers == ["app/gui.py"]  # the builder; test_layer_keeps_its_contract checks all


def test_relative_import_above_the_namespace_is_reported():
    breaches = check_source("from ... import other\n", "sim", "sim/scene.py", "clothlab.sim")
    assert lines_of(breaches) == [1]
    assert "reaches above" in breaches[0].reason


def test_unparsable_file_is_reported():
    breaches = check_source("def broken(:\n", "sim", "sim/scene.py", "clothlab.sim")
    assert lines_of(breaches) == [1] and "cannot be parsed" in breaches[0].reason


def test_planted_breaches_in_a_file_tree_are_reported_as_file_and_line(tmp_path):
    files = {
        "sim/__init__.py": '"""model"""\n',
        "sim/kernels.py": "import numpy as np\n\nfrom PySide6.QtCore import QObject\n",
        "ui/__init__.py": "",
        "ui/docks/__init__.py": "",
        "ui/docks/panel.py": (
            "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n"
            "    from clothlab.app.controller import Controller\n"
            "def later():\n"
            "    from ...app import worker\n"
        ),
        "app/__init__.py": "",
        "app/main.py": "from clothlab.ui.docks import panel\nimport sim.core.kernels\n",
        "resources/__init__.py": "import json\nimport numpy\n",
    }
    for name, source in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(source, encoding="utf-8")
    located = [f"{breach.file}:{breach.line}" for breach in check_tree(tmp_path)]
    assert located == [
        "app/main.py:2",
        "sim/kernels.py:3",
        "ui/docks/panel.py:3",
        "ui/docks/panel.py:5",
        "resources/__init__.py:2",
    ]
    assert "layer contract broken:\n  app/main.py:2: imports sim.core.kernels" in report(
        check_tree(tmp_path)
    )


def test_one_line_planted_in_a_copy_of_the_real_tree_is_the_one_new_breach(tmp_path):
    for layer in LAYERS:
        shutil.copytree(
            ROOT / layer, tmp_path / layer, ignore=shutil.ignore_patterns("__pycache__")
        )
    before = check_tree(tmp_path)
    target = tmp_path / "sim" / "__init__.py"
    lines = target.read_text(encoding="utf-8").count("\n")
    with target.open("a", encoding="utf-8") as stream:
        stream.write("\nimport pyqtgraph as pg\n")
    new = [breach for breach in check_tree(tmp_path) if breach not in before]
    assert [str(breach) for breach in new] == [
        f"sim/__init__.py:{lines + 2}: sim imports pyqtgraph:"
        " sim imports no Qt, OpenGL, pyqtgraph, ui or app"
    ]


def test_sims_parts_go_lab_document_core_at_run_time():
    source = """\
from typing import TYPE_CHECKING

from clothlab.sim.core import kernels
from clothlab.sim.document.scene import Scene
from clothlab.sim.lab import engine

if TYPE_CHECKING:
    from clothlab.sim.lab.engine import Engine
"""
    core = check_source(source, "sim", "sim/core/solver.py", "clothlab.sim.core")
    assert lines_of(core) == [4, 5] and "lab → document → core" in core[0].reason
    document = check_source(source, "sim", "sim/document/scene.py", "clothlab.sim.document")
    assert lines_of(document) == [5]
    assert check_source(source, "sim", "sim/lab/engine.py", "clothlab.sim.lab") == []


def test_the_api_and_the_views_description_import_no_gui():
    source = "import numpy\nfrom PySide6.QtCore import QObject\nfrom clothlab.app import cli\n"
    assert lines_of(check_source(source, "api", "api/lab.py", "clothlab")) == [2, 3]
    description = check_source(source, "ui", "ui/viewport/description.py", "clothlab.ui.viewport")
    assert lines_of(description) == [2, 3]  # Qt; and app, at run time
    assert lines_of(check_source(source, "ui", "ui/viewport/items.py", "clothlab.ui.viewport")) == [
        3
    ]
