"""How long a launch takes to show a moving sheet.

    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python bench/launch.py [--later 5] [--json]

Each launch is `clothlab hanging-sheet` in a process of its own, timed from its start to the
3D view's first paint of a frame the solver has stepped (the sheet moving), after which it
quits. Three cases, in one run:

* cold: an empty numba cache (NUMBA_CACHE_DIR a new folder): what the first launch would take
  if installing compiled nothing;
* warm-up: `clothlab warm-up` into that folder, as `make` runs it after installing;
* the first launch after that, then `--later` more: median and min–max, and where the later
  ones' time goes (imports, Qt and the controller, building the window, to the moving frame).

A launch that fails or never shows a moving sheet within TIMEOUT_S prints what happened, never a
figure."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TIMEOUT_S = 300.0
MARK = "moving sheet drawn"

# Runs the app as `clothlab` does, with a timer that watches the 3D view's paints.
CHILD = f"""
import time
T0 = time.perf_counter()
import sys
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication
from clothlab.app import gui
from clothlab.ui.window.main_window import MainWindow

def phase(name):
    print("phase", f"{{time.perf_counter() - T0:.4f}}", name, flush=True)

phase("imports")

class Watch(QObject):
    def __init__(self, window):
        super().__init__(window)
        self.window = window
        window.viewport.installEventFilter(self)

    def eventFilter(self, watched, event):
        if event.type() == QEvent.Type.Paint:
            shown = self.window.viewport.snapshot()
            if shown is not None and shown.steps > 0:
                phase("moving sheet drawn")
                print({MARK!r}, flush=True)
                QTimer.singleShot(0, QApplication.quit)
        return False

build = MainWindow.__init__
def init(self, *args, **kwargs):
    phase("Qt and the controller")
    build(self, *args, **kwargs)
    phase("window built")
MainWindow.__init__ = init
show = MainWindow.show
def shown(self):
    show(self)
    if not hasattr(self, "_launch_watch"):
        self._launch_watch = Watch(self)
MainWindow.show = shown
sys.exit(gui.main(["hanging-sheet", "--screenshot", sys.argv[1], "--after", "{TIMEOUT_S:g}"]))
"""


PHASES: list[dict[str, float]] = []  # each launch's phases, seconds after its Python started


def launch(cache: Path, picture: Path) -> float | str:
    """Seconds from the process's start to a moving sheet drawn, or what went wrong; its
    phases go to PHASES."""
    start = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(picture)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_with_cache(cache),
    )  # fmt: skip
    assert child.stdout is not None
    seen, phases = None, {}
    for line in child.stdout:
        if line.startswith("phase "):
            _, at, name = line.rstrip("\n").split(" ", 2)
            phases[name] = float(at)
        elif line.strip() == MARK:
            seen = time.perf_counter() - start
            break
    try:
        _, errors = child.communicate(timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        child.kill()
        return "no moving sheet: the app did not quit"
    if seen is None:
        return f"no moving sheet (exit {child.returncode}): {errors.strip()[-300:]}"
    PHASES.append(phases)
    return seen


def warm_up(cache: Path) -> float | str:
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "clothlab.app.main", "warm-up"],
        capture_output=True, text=True, env=_with_cache(cache), timeout=TIMEOUT_S * 4,
    )  # fmt: skip
    if done.returncode != 0:
        return f"warm-up failed (exit {done.returncode}): {done.stderr.strip()[-300:]}"
    return time.perf_counter() - start


def _with_cache(cache: Path) -> dict[str, str]:
    """This environment, with numba's cache in `cache`."""
    return {**os.environ, "NUMBA_CACHE_DIR": str(cache)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--later", type=int, default=5, help="launches after the first")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    args = parser.parse_args()
    if not os.environ.get("DISPLAY"):
        print("bench/launch.py: no display: run it under xvfb-run", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="clothlab-launch-") as folder:
        cache, picture = Path(folder) / "numba", Path(folder) / "shot.png"
        cache.mkdir()
        cold = launch(cache, picture)
        for stale in cache.rglob("*.nb[ic]"):  # the cold launch compiled some: start again
            stale.unlink()
        warm = warm_up(cache)
        runs = [launch(cache, picture) for _ in range(1 + args.later)]
    if args.json:  # seconds, or what went wrong instead
        print(json.dumps({"cold": cold, "warm_up": warm, "first": runs[0], "later": runs[1:]}))
        return 0
    print("launch of `clothlab hanging-sheet` to a moving sheet drawn (s)")
    _row("cold: empty numba cache", cold)
    _row("clothlab warm-up (make, after install)", warm)
    _row("first launch after warm-up", runs[0])
    later = [r for r in runs[1:] if isinstance(r, float)]
    failed = [r for r in runs[1:] if isinstance(r, str)]
    if failed:
        _row("later launches", failed[0])
    elif later:
        spread = f"{min(later):.2f}–{max(later):.2f}"
        _row(f"later launches, median of {len(later)}",
             f"{statistics.median(later):7.2f}   ({spread})")  # fmt: skip
        _phases(PHASES[-len(later) :])
    return 0


def _phases(launches: list[dict[str, float]]) -> None:
    """Where a later launch's time goes: each phase's median length."""
    print("where a later launch goes (s, medians; the rest before 'imports' is Python's start)")
    before = 0.0
    for name in launches[0]:
        at = statistics.median(phases[name] for phases in launches)
        print(f"  {name:42s} {at - before:7.2f}   (at {at:.2f})")
        before = at


def _row(name: str, value: float | str) -> None:
    shown = f"{value:7.2f}" if isinstance(value, float) else value
    print(f"  {name:42s} {shown}")


if __name__ == "__main__":
    sys.exit(main())
