"""The wheel on its own: build it, install it (not editable, with its dependencies from the
package index) into a fresh virtual environment, and run the installed `clothlab` from a folder
outside the checkout with no PYTHONPATH, so nothing can come from the repository.

Built once per run (one module-scoped fixture). The first run downloads the dependencies; after
that pip's cache makes the install quick. The wheel is built from a copy of the checkout: an
in-tree build would leave build/ in the working tree, and setuptools' build/lib keeps files
that have since been deleted, which the next wheel would then ship."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import zipfile
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PRESETS = (
    "hanging-sheet", "ball-start", "drop", "shifted-pins", "soft-block", "curtain", "flag",
    "tear-lab",
)  # fmt: skip
INSTALL_TIMEOUT_S = 900
RUN_TIMEOUT_S = 300  # the first run of a fresh install compiles the numba kernels
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
NOT_COPIED = shutil.ignore_patterns(
    ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", "*.pyc", ".*_cache",
    ".hypothesis", "tests",
)  # fmt: skip


@dataclass(frozen=True)
class Installed:
    source: Path  # the copy of the checkout the wheel was built from
    wheel: Path
    venv: Path
    outside: Path  # the working folder for every command: not the checkout
    env: dict[str, str]
    build_output: str  # what `pip wheel` printed

    @property
    def python(self) -> Path:
        return self.venv / "bin" / "python"

    def run(self, *argv: str | Path, timeout: float = RUN_TIMEOUT_S, **env: str):
        return subprocess.run(
            [str(arg) for arg in argv],
            cwd=self.outside,
            env={**self.env, **env},
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def clothlab(self, *argv: str, **env: str):
        return self.run(self.venv / "bin" / "clothlab", *argv, **env)


def checked(result: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    assert result.returncode == 0, f"{result.args} exited {result.returncode}:\n{result.stderr}"
    return result


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    started = time.perf_counter()
    setuptools = tuple(int(part) for part in version("setuptools").split(".")[:2])
    assert setuptools >= (70, 1), (
        f"setuptools {version('setuptools')} in {sys.prefix} cannot build a wheel without"
        " build isolation; `make test` installs setuptools>=70.1"
    )
    folder = tmp_path_factory.mktemp("wheel")
    source = folder / "source"
    shutil.copytree(ROOT, source, ignore=NOT_COPIED)
    dist = folder / "dist"
    build = [sys.executable, "-m", "pip", "wheel", ".", "--no-deps", "--no-build-isolation"]
    built = checked(
        subprocess.run(
            [*build, "-w", str(dist)],
            cwd=source,
            capture_output=True,
            text=True,
            timeout=INSTALL_TIMEOUT_S,
        )
    )
    (wheel,) = dist.glob("clothlab-*.whl")

    outside = folder / "outside"
    outside.mkdir()
    venv = folder / "venv"
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "QT_QPA_PLATFORM")
    }
    env["PATH"] = os.pathsep.join([str(venv / "bin"), env.get("PATH", "")])
    env["VIRTUAL_ENV"] = str(venv)
    # its own settings and recovery folders: never the user's, never another test's
    env["XDG_CONFIG_HOME"] = str(folder / "config")
    env["XDG_DATA_HOME"] = str(folder / "data")
    result = Installed(source, wheel, venv, outside, env, built.stdout + built.stderr)
    checked(result.run(sys.executable, "-m", "venv", venv, timeout=120))
    install = [result.python, "-m", "pip", "install", "--quiet", wheel]  # with dependencies
    checked(result.run(*install, timeout=INSTALL_TIMEOUT_S))
    print(f"\nwheel built and installed in {time.perf_counter() - started:.1f} s")
    return result


def test_the_wheel_holds_the_package_data_and_only_the_clothlab_namespace(installed):
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    source = installed.source
    for folder, pattern in (("scenes", "*.json"), ("shaders", "*"), ("icons", "*.svg")):
        expected = {
            f"clothlab/resources/{folder}/{path.name}"
            for path in (source / "resources" / folder).glob(pattern)
        }
        assert expected, f"resources/{folder} is empty in the checkout"
        missing = expected - names
        assert not missing, f"the wheel lacks {sorted(missing)}"
    assert {f"clothlab/resources/scenes/{name}.json" for name in PRESETS} <= names
    # every module of the checkout, under the namespace (api/ is the clothlab package itself)
    for layer in ("app", "sim", "ui", "resources"):
        for path in (source / layer).rglob("*.py"):
            wanted = f"clothlab/{path.relative_to(source).as_posix()}"
            assert wanted in names, f"the wheel lacks {wanted}"
    for path in (source / "api").glob("*.py"):
        assert f"clothlab/{path.name}" in names, f"the wheel lacks clothlab/{path.name}"
    tops = {name.split("/")[0] for name in names}
    assert tops == {"clothlab", wheel_dist_info(installed.wheel)}, tops


def setuptools_complaints(output: str) -> list[str]:
    """The lines of a build's output where setuptools says the packaging is set up wrong."""
    signs = ("would be ignored", "absent from the `packages`", "importable package")
    return [line.strip() for line in output.splitlines() if any(s in line for s in signs)]


def test_building_the_wheel_prints_no_setuptools_warnings(installed):
    """The data folders under resources/ are listed as packages, so setuptools
    no longer prints ≈150 lines of "Package would be ignored" for each of them."""
    assert not setuptools_complaints(installed.build_output), installed.build_output


def test_the_editable_build_prints_no_setuptools_warnings(installed, tmp_path):
    """`pip install -e .` (make run's first step) runs this hook: the same packaging, editable."""
    hook = (
        "import sys\nfrom setuptools import build_meta\n"
        "print(build_meta.build_editable(sys.argv[1]))\n"
    )
    built = checked(
        subprocess.run(
            [sys.executable, "-c", hook, str(tmp_path)],
            cwd=installed.source,
            capture_output=True,
            text=True,
            timeout=INSTALL_TIMEOUT_S,
        )
    )
    output = built.stdout + built.stderr
    assert list(tmp_path.glob("clothlab-*.whl")), output
    assert not setuptools_complaints(output), output


def wheel_dist_info(wheel: Path) -> str:
    name, version = wheel.name.split("-")[:2]
    return f"{name}-{version}.dist-info"


def test_the_installed_package_comes_from_the_new_environment(installed):
    probe = (
        "import importlib.util, sysconfig\n"
        "import clothlab.app, clothlab.sim, clothlab.ui, clothlab.resources\n"
        "print(clothlab.sim.__file__)\n"
        "print(sysconfig.get_paths()['purelib'])\n"
        "print(*[n for n in ('app', 'sim', 'ui', 'resources') if importlib.util.find_spec(n)])\n"
        "from clothlab.resources import resource\n"
        "print(resource('scenes', 'hanging-sheet.json').is_file())\n"
    )
    lines = checked(installed.run(installed.python, "-c", probe)).stdout.splitlines()
    print(f"\nclothlab.sim.__file__ = {lines[0]}")
    sim_file, site_packages = Path(lines[0]).resolve(), Path(lines[1]).resolve()
    assert sim_file == site_packages / "clothlab" / "sim" / "__init__.py"
    assert ROOT not in sim_file.parents
    assert lines[2] == ""  # no old top-level app, sim, ui or resources package is importable
    assert lines[3] == "True"  # package data read through importlib.resources
    installed_files = site_packages / "clothlab" / "resources"
    assert {p.stem for p in (installed_files / "scenes").glob("*.json")} >= set(PRESETS)
    assert list((installed_files / "shaders").glob("*.vert"))
    assert list((installed_files / "icons").glob("*.svg"))
    for layer in ("app", "sim", "ui"):
        assert not (site_packages / layer).exists(), f"a top-level {layer}/ was installed"


def test_scenes_lists_every_preset(installed):
    listed = checked(installed.clothlab("scenes")).stdout
    names = [line.split()[0] for line in listed.splitlines() if line.strip()]
    assert set(PRESETS) <= set(names), listed
    assert names[0] == "hanging-sheet"


def test_run_steps_a_preset(installed):
    printed = checked(installed.clothlab("run", "hanging-sheet", "--steps", "10")).stdout
    assert re.search(r"^steps\s+10\s*$", printed, re.MULTILINE), printed


def test_the_python_api_of_the_installed_package_equals_its_cli(installed):
    """`import clothlab` from the wheel, outside the checkout: no Qt loaded, and the rows and
    positions of the installed `clothlab run` bit for bit."""
    checked(installed.clothlab("run", "drop", "--steps", "50", "--set", "passes=4",
                               "--csv", "cli.csv", "--positions", "cli.npy"))  # fmt: skip
    script = (
        "import sys, numpy as np, clothlab\n"
        "lab = clothlab.open('drop'); lab.set(passes=4); table = lab.run(50)\n"
        "print(table.csv() == open('cli.csv').read())\n"
        "print(np.array_equal(lab.positions, np.load('cli.npy')))\n"
        "print(any(m.split('.')[0] in ('PySide6', 'OpenGL', 'pyqtgraph') for m in sys.modules))\n"
        "print(clothlab.__file__)\n"
    )
    lines = checked(installed.run(installed.python, "-c", script)).stdout.splitlines()
    assert lines[:3] == ["True", "True", "False"], lines
    assert ROOT not in Path(lines[3]).resolve().parents


def test_screenshot_of_the_installed_app(installed, qapp):
    from PySide6.QtGui import QImage

    # pytest-xvfb starts the X server and sets DISPLAY for this process; the window needs the
    # real (xcb) platform, as offscreen gives the viewport no OpenGL context.
    display = os.environ.get("DISPLAY")
    assert display, "no X display: pytest-xvfb (and Debian's xvfb) should provide one"
    shot = installed.outside / "shot.png"
    shot.unlink(missing_ok=True)
    checked(installed.clothlab("--screenshot", "shot.png", DISPLAY=display))
    data = shot.read_bytes()
    assert data.startswith(PNG_SIGNATURE)
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert 320 <= width <= 8192 and 240 <= height <= 8192, (width, height)
    image = QImage(str(shot))
    assert not image.isNull()
    assert (image.width(), image.height()) == (width, height)
    colours = {
        image.pixel(x, y) for x in range(0, width, max(1, width // 40))
        for y in range(0, height, max(1, height // 30))
    }  # fmt: skip
    assert len(colours) > 20, f"{len(colours)} colours: the screenshot is (nearly) blank"
