"""The desktop app's speed, measured in the real window (run it under a display, e.g. Xvfb):

    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python bench/gui_speed.py

For each scene: wall time from process start to the first frame drawn, then, over a few
seconds of running at 1×, frames drawn per second and the solver's real-time factor.
"""

from __future__ import annotations

import statistics
import sys
import time

STARTED = time.perf_counter()

from PySide6.QtCore import QEventLoop, QTimer  # noqa: E402
from PySide6.QtGui import QSurfaceFormat  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from clothlab.app.controller import Controller  # noqa: E402
from clothlab.sim.composition import change_body  # noqa: E402
from clothlab.sim.presets import load_preset  # noqa: E402
from clothlab.ui.main_window import MainWindow  # noqa: E402
from clothlab.ui.viewport import surface_format  # noqa: E402

MEASURE_S = 6.0


def wait(seconds: float) -> None:
    loop = QEventLoop()
    QTimer.singleShot(round(seconds * 1000), loop.quit)
    loop.exec()


def measure(app: QApplication, name: str, scene, started: float) -> None:
    controller = Controller()
    window = MainWindow(controller, remember_layout=False)
    window.resize(1280, 800)
    frames: list[float] = []
    factors: list[float] = []
    window.viewport.frame_drawn.connect(lambda _frame: frames.append(time.perf_counter()))
    controller.timing_changed.connect(lambda factor, _behind: factors.append(factor))
    controller.load(scene)
    window.show()
    controller.set_running(True)
    while not frames:
        app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents, 50)
    first_frame = frames[0] - started
    wait(1.0)  # past the first compile and layout
    frames.clear()
    factors.clear()
    wait(MEASURE_S)
    fps = (len(frames) - 1) / (frames[-1] - frames[0]) if len(frames) > 1 else 0.0
    factor = statistics.median(factors) if factors else float("nan")
    print(f"{name:<16} first frame {first_frame:5.2f} s   {fps:5.1f} fps   "
          f"{factor:4.2f}× real time ({len(factors)} readings)")  # fmt: skip
    window.close()
    controller.shutdown()


def main() -> None:
    QSurfaceFormat.setDefaultFormat(surface_format())
    app = QApplication(sys.argv[:1])
    app.setQuitOnLastWindowClosed(False)  # two windows, one after the other
    measure(app, "hanging-sheet", load_preset("hanging-sheet"), STARTED)
    big = change_body(load_preset("hanging-sheet"), 0, cols=128, rows=128).scene
    measure(app, "128x128 sheet", big, time.perf_counter())


if __name__ == "__main__":
    main()
