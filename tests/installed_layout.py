"""The package clothlab laid out as it installs, for the tools that read a package from one
folder; and the type check of that layout (`python tests/installed_layout.py`; make test runs
it in tests/test_type_check.py).

The checkout keeps clothlab's parts in five folders (pyproject.toml's package-dir: api/ is
clothlab itself; app/, sim/, ui/, resources/ its subpackages). Checked as those folders, every
`clothlab.…` import resolved to nothing and mypy let any use of it pass; checked as the package,
each import is the module it names."""

from __future__ import annotations

import os
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# {"clothlab": "api", "clothlab.sim": "sim", …}, as the wheel is built
PACKAGE_DIR: dict[str, str] = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"][
    "setuptools"
]["package-dir"]


def installed_layout(folder: Path) -> Path:
    """`folder` with clothlab/ in it as installed, in symbolic links to the checkout's files (so
    that what a tool reports is about them). Returns `folder`."""
    for name, part in PACKAGE_DIR.items():
        target = folder / name.replace(".", "/")
        target.mkdir(parents=True, exist_ok=True)
        for source in (ROOT / part).iterdir():
            if source.name != "__pycache__" and not (target / source.name).exists():
                os.symlink(source, target / source.name)
    return folder


def checkout_path(line: str) -> str:
    """A tool's line about clothlab/sim/x.py as one about sim/x.py (api/x.py: clothlab/x.py)."""
    for name, part in sorted(PACKAGE_DIR.items(), key=lambda item: -len(item[0])):
        prefix = name.replace(".", "/") + "/"
        if line.startswith(prefix):
            return part + "/" + line[len(prefix) :]
    return line


def typecheck(folder: Path) -> tuple[str, int]:
    """mypy over the package laid out in `folder`, with pyproject.toml's settings: its report
    (in the checkout's paths) and its exit status."""
    from mypy import api

    cwd = os.getcwd()
    os.chdir(folder)
    try:
        out, err, status = api.run([
            "--config-file", str(ROOT / "pyproject.toml"),
            "--cache-dir", str(ROOT / ".mypy_cache"), "-p", "clothlab",
        ])  # fmt: skip
    finally:
        os.chdir(cwd)
    return "".join(checkout_path(line) + "\n" for line in (out + err).splitlines()), status


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        report, status = typecheck(installed_layout(Path(folder)))
    sys.stdout.write(report)
    return status


if __name__ == "__main__":
    sys.exit(main())
