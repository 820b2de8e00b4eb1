"""The import contracts of pyproject.toml ([tool.importlinter]), checked by import-linter.

import-linter reads a package from one folder, and the checkout keeps clothlab's parts in five
(api/ is clothlab itself; app/, sim/, ui/, resources/ its subpackages): the test lays the
modules out as they install, in a temporary folder, and runs lint-imports there."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from installed_layout import ROOT, installed_layout, typecheck


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


def test_the_type_check_reads_the_package_as_it_installs(tmp_path):
    """Checked as the checkout's folders, every clothlab import was Any and this passed."""
    folder = installed_layout(tmp_path, link=True)
    (folder / "clothlab" / "probe.py").write_text(
        "from clothlab.sim.core.parameters import Settings\n\n\n"
        "def passes() -> str:\n    return Settings().passes\n"
    )
    report, status = typecheck(folder)
    assert status == 1
    expected = 'api/probe.py:5: error: Incompatible return value type (got "int", expected "str")'
    assert expected in report
