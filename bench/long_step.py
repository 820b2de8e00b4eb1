"""How long pause and close wait while the solver is inside one long step: a
512 × 512 sheet with 200 passes and 16 substeps takes many seconds a step. Prints the step's
own duration, then the wall time from each command to its effect (medians of a few tries).

    .venv/bin/python bench/long_step.py [--grid 512]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from PySide6.QtCore import QCoreApplication, QEventLoop

from clothlab.app.controller import Controller
from clothlab.sim.document.composition import change_body
from clothlab.sim.document.presets import load_preset


def wait_for(app: QCoreApplication, condition, timeout_s: float) -> float | None:
    """Seconds until `condition()` holds, processing events; None on timeout."""
    started = time.perf_counter()
    while not condition():
        if time.perf_counter() - started > timeout_s:
            return None
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 5)
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grid", type=int, default=512)
    parser.add_argument("--tries", type=int, default=3)
    args = parser.parse_args()
    app = QCoreApplication(sys.argv[:1])
    scene = change_body(load_preset("hanging-sheet"), 0, cols=args.grid, rows=args.grid).scene
    controller = Controller()
    controller.load(scene)
    if wait_for(app, lambda: controller.latest is not None, 300) is None:
        print("FAILED: the scene did not load in 300 s")
        return 1
    controller.set_setting("passes", 200)
    controller.set_setting("substeps", 16)
    worker = controller.worker
    controller.set_running(True)
    first = wait_for(app, lambda: worker.steps_taken >= 1, 600)
    if first is None:
        print("FAILED: no step in 600 s")
        return 1
    print(f"{args.grid}² sheet, 200 passes, 16 substeps: first step {first:.1f} s (with compiling)")
    running = [True]  # as the worker last said
    controller.running_changed.connect(lambda on: running.__setitem__(0, on))
    pauses = []
    for _ in range(args.tries):
        time.sleep(0.5)  # well inside the next step
        controller.set_running(False)
        waited = wait_for(app, lambda: not running[0], 120)
        if waited is None:
            print("FAILED: pause not applied in 120 s")
            return 1
        pauses.append(waited)
        controller.set_running(True)
        wait_for(app, lambda: running[0], 10)
    time.sleep(0.5)
    started = time.perf_counter()
    controller.shutdown()
    closed = time.perf_counter() - started
    median, worst = 1000 * statistics.median(pauses), 1000 * max(pauses)
    print(f"pause applied after {median:.0f} ms (median of {len(pauses)}, max {worst:.0f}); "
          f"shutdown took {1000 * closed:.0f} ms")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
