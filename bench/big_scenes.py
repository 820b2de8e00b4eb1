"""The GUI thread with the biggest scenes, in the real window (under a
display, e.g. Xvfb):

    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python bench/big_scenes.py

1. File ▸ Open of a sheet with 1 000, 3 000 and 10 000 pins, and a setting change at 10 000.
2. 10 000 pin moves, one undoable edit each, on a sheet with 10 000 pins: the GUI thread's time
   per edit (median and max, first and last thousand) as the undo stack grows.
3. File ▸ Open of the largest legal scene (8 blocks of 32³ cubes, every particle pinned, every
   link cut or torn: a 58 MB file): wall time to the Scene panel showing it and to the first
   frame, and the longest the GUI thread went without handling an event meanwhile.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtGui import QSurfaceFormat
from PySide6.QtWidgets import QApplication

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "sim"))
from test_reliability_targets import largest_legal_scene

from clothlab.app.controller import Controller
from clothlab.app.gui import freeze_start_up_heap
from clothlab.sim.document.composition import change_body
from clothlab.sim.document.edits import SetPin
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.scene import PinSpec, save_scene
from clothlab.ui.viewport.viewport import surface_format
from clothlab.ui.window.main_window import MainWindow

EDITS = 10_000


class StallMeter:
    """The longest gap between two runs of a 10 ms timer: how long the GUI thread was busy."""

    def __init__(self) -> None:
        self.longest = 0.0
        self._last = time.perf_counter()
        self._timer = QTimer()
        self._timer.setInterval(10)
        self._timer.timeout.connect(self._tick)
        self._timer.start()

    def _tick(self) -> None:
        now = time.perf_counter()
        self.longest = max(self.longest, now - self._last)
        self._last = now

    def reset(self) -> None:
        self.longest, self._last = 0.0, time.perf_counter()


def spin(app: QApplication, until, timeout_s: float) -> float | None:
    started = time.perf_counter()
    while not until():
        if time.perf_counter() - started > timeout_s:
            return None
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 10)
    return time.perf_counter() - started


def open_largest(app: QApplication, window: MainWindow, stalls: StallMeter) -> None:
    scene = largest_legal_scene()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "largest.json"
        save_scene(scene, path)
        frames: list[float] = []  # frames drawn of the new scene

        def drawn(_frame: int) -> None:
            shown = window.viewport.snapshot()
            if shown is not None and shown.topology.particle_count == len(scene.pins):
                frames.append(time.perf_counter())

        window.viewport.frame_drawn.connect(drawn)
        spin(app, lambda: False, 0.5)
        stalls.reset()
        started = time.perf_counter()
        window.controller.open(path)
        opened = time.perf_counter() - started
        shown = spin(app, lambda: window.controller.scene.name == scene.name, 60)
        drawn = spin(app, lambda: bool(frames), 120)
    if shown is None or drawn is None:
        print("FAILED: the largest legal scene was not shown within 3 minutes")
        return
    print(f"largest legal scene ({len(scene.pins)} pins, every particle): "
          f"open {opened:.2f} s on the GUI thread, first frame after {frames[0] - started:.2f} s, "
          f"longest GUI stall {stalls.longest:.2f} s")  # fmt: skip


def pinned_sheet(count: int):
    """A 100 × 100 sheet with its first `count` particles pinned."""
    sheet = change_body(load_preset("hanging-sheet"), 0, cols=100, rows=100).scene
    pins = [PinSpec(particle=k, anchor=(0.001 * k, 1.0, 0.0)) for k in range(count)]
    return sheet.model_copy(update={"pins": pins, "name": f"{count} pins"})


def open_pinned(app: QApplication, window: MainWindow) -> None:
    """File ▸ Open of 1 000 / 3 000 / 10 000 pins (the issue: 1.0 / 3.8 / 36.5 s), then one
    setting change at 10 000 (the issue: 38 s)."""
    controller = window.controller
    with tempfile.TemporaryDirectory() as folder:
        for count in (1_000, 3_000, 10_000):
            path = Path(folder) / f"{count}.json"
            save_scene(pinned_sheet(count), path)
            started = time.perf_counter()
            controller.open(path)
            app.processEvents()
            print(f"open {count} pins: {time.perf_counter() - started:.2f} s on the GUI thread")
    spin(app, lambda: False, 1.0)
    times = []
    for k in range(20):
        started = time.perf_counter()
        controller.set_setting("passes", 10 + k % 2)
        app.processEvents()
        times.append(time.perf_counter() - started)
    print(f"a setting change with 10 000 pins: median {1000 * statistics.median(times):.0f} ms, "
          f"max {1000 * max(times):.0f} ms (20 changes)")  # fmt: skip


def pin_moves(app: QApplication, window: MainWindow) -> None:
    controller = window.controller
    controller.load(pinned_sheet(10_000))
    spin(app, lambda: len(controller.scene.pins) == 10_000, 120)
    spin(app, lambda: False, 1.0)
    times = []
    for k in range(EDITS):
        started = time.perf_counter()
        controller.submit(SetPin(k % 10_000, (0.001 * k, 1.5, 0.0), None))
        app.processEvents()
        times.append(time.perf_counter() - started)
    ms = [1000 * t for t in times]
    first, last = ms[:1000], ms[-1000:]
    print(f"{EDITS} pin moves with 10 000 pins: per edit median {statistics.median(ms):.1f} ms, "
          f"max {max(ms):.0f} ms, {sum(m > 100 for m in ms)} over 100 ms; "
          f"first thousand median {statistics.median(first):.1f} ms, "
          f"last thousand {statistics.median(last):.1f} ms; undo stack "
          f"{controller.undo_stack.count()} entries")  # fmt: skip


def main() -> None:
    QSurfaceFormat.setDefaultFormat(surface_format())
    app = QApplication(sys.argv[:1])
    controller = Controller()
    window = MainWindow(controller, remember_layout=False)
    window.resize(1280, 800)
    controller.load(load_preset("hanging-sheet"))
    window.show()
    freeze_start_up_heap()  # as the app does once it is up
    stalls = StallMeter()
    open_pinned(app, window)
    pin_moves(app, window)
    open_largest(app, window, stalls)
    window.close()
    controller.shutdown()


if __name__ == "__main__":
    main()
