"""The import contracts of pyproject.toml ([tool.importlinter]), checked by import-linter.

import-linter reads a package from one folder, and the checkout keeps clothlab's parts in five
(api/ is clothlab itself; app/, sim/, ui/, resources/ its subpackages): the test lays the
modules out as they install, in a temporary folder, and runs lint-imports there."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PARTS = ("app", "sim", "ui", "resources")


def installed_layout(folder: Path) -> Path:
    package = folder / "clothlab"
    shutil.copytree(ROOT / "api", package, ignore=shutil.ignore_patterns("__pycache__"))
    for part in PARTS:
        shutil.copytree(ROOT / part, package / part,
                        ignore=shutil.ignore_patterns("__pycache__", "*.json", "*.svg",
                                                      "*.vert", "*.frag"))  # fmt: skip
    return folder


def lint_imports(folder: Path, config: Path) -> subprocess.CompletedProcess[str]:
    code = (
        "import sys\n"
        f"sys.path.insert(0, {str(folder)!r})\n"  # before the editable install's finder
        "from importlinter.cli import lint_imports\n"
        f"sys.exit(lint_imports(config_filename={str(config)!r}, no_cache=True))\n"
    )
    return subprocess.run([sys.executable, "-c", code], cwd=folder, capture_output=True,
                          text=True, timeout=300)  # fmt: skip


def test_the_import_contracts_are_kept(tmp_path):
    result = lint_imports(installed_layout(tmp_path), ROOT / "pyproject.toml")
    report = result.stdout + result.stderr
    assert result.returncode == 0, report
    assert "Contracts: 6 kept, 0 broken." in report


def test_a_breach_is_caught(tmp_path):
    """The check can fail: a kernel module that imports the scene format breaks core's layer."""
    folder = installed_layout(tmp_path)
    kernels = folder / "clothlab" / "sim" / "core" / "kernels.py"
    kernels.write_text(kernels.read_text() + "\nfrom clothlab.sim.document import scene\n")
    result = lint_imports(folder, ROOT / "pyproject.toml")
    report = result.stdout + result.stderr
    assert result.returncode != 0
    assert "clothlab.sim.core.kernels -> clothlab.sim.document.scene" in report
