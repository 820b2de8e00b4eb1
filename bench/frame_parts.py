"""What each part of the 3D view's frame costs, in the real window (run it under a display):

    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python bench/frame_parts.py [--grid 128x128]
        [--frames 40]

The default sheet at the given grid runs a second and is paused; the 3D view is then redrawn
--frames times with every item it draws, and again without one item (or group) at a time. Each
line gives the wall time per frame and the CPU time per frame of the GUI thread (where Mesa's
llvmpipe transforms each draw call's vertices and sets up its triangles) and of llvmpipe's own
threads (which rasterise and compose), from /proc (bench/gui_speed.py's thread_times). The
difference between a line and "everything" is what that part costs. With no GPU, llvmpipe
draws; a GPU would make every figure here small.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

from gui_speed import open_window, sheet, thread_times, wait
from PySide6.QtCore import QEventLoop
from PySide6.QtGui import QSurfaceFormat
from PySide6.QtWidgets import QApplication

from clothlab.app.bench import parse_grid
from clothlab.app.errors import UsageError
from clothlab.ui.viewport.viewport import surface_format

# label → which of the view's items (by class name) a frame keeps
PARTS: dict[str, Callable[[str], bool]] = {
    "everything": lambda name: True,
    "no shadows": lambda name: name != "Shadows",
    "no floor": lambda name: name != "Floor",
    "no background": lambda name: name != "Background",
    "no wire lines or outline": lambda name: name not in ("Lines", "Outline"),
    "no cloth (nor its shadow)": lambda name: name not in ("Bodies", "Shadows", "Lines"),
    "nothing (clear only)": lambda name: False,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grid", default="128x128")
    parser.add_argument("--frames", type=int, default=40)
    args = parser.parse_args()
    try:
        cols, rows = parse_grid(args.grid)
    except UsageError as error:
        sys.exit(str(error))
    if args.frames < 1:
        sys.exit(f"--frames must be at least 1, not {args.frames}")
    QSurfaceFormat.setDefaultFormat(surface_format())
    app = QApplication(sys.argv[:1])
    controller, window, _ = open_window(app, sheet(cols, rows), running=False)
    drawn: list[float] = []
    view = window.viewport
    view.frame_drawn.connect(lambda _frame: drawn.append(time.perf_counter()))
    controller.set_running(True)
    wait(1.0)  # the sheet swings: a frame of a moving sheet, then paused on it
    controller.set_running(False)
    wait(0.5)
    every = list(view._items)
    print(f"{cols}x{rows} sheet; 3D view {view.width()} × {view.height()} px; per frame:")
    for label, keep in PARTS.items():
        view._items = [item for item in every if keep(type(item).__name__)]
        view.update()
        wait(0.2)
        drawn.clear()
        before, started = thread_times(), time.perf_counter()
        while len(drawn) < args.frames:
            view.update()
            app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents, 5)
        wall = (time.perf_counter() - started) / args.frames
        used = {g: (t - before.get(g, 0.0)) / args.frames for g, t in thread_times().items()}
        gui, llvmpipe = (used.get(group, 0.0) * 1e3 for group in ("GUI", "llvmpipe"))
        print(f"  {label:<26} {wall * 1e3:5.1f} ms wall · CPU: GUI thread {gui:5.1f} ms, "
              f"llvmpipe {llvmpipe:5.1f} ms")  # fmt: skip
    view._items = every
    window.close()
    controller.shutdown()


if __name__ == "__main__":
    main()
