"""Windows built, fed scenes and closed in a loop: the stress that found the stale layout-item
wrappers (ui/layouts.py), which crashed a model reset within 10-60 windows.

    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python -X faulthandler \
        bench/window_churn.py [--windows 60] [--loads 8] [--seed 3]

Each window gets `--loads` presets at random, 50 ms of events apart, then is closed with its
controller. Prints how many windows and loads went by; a crash ends the process with Python's
fault report instead."""

from __future__ import annotations

import argparse
import random
import sys
import time

from PySide6.QtWidgets import QApplication


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--windows", type=int, default=60)
    parser.add_argument("--loads", type=int, default=8)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    app = QApplication(sys.argv[:1])
    from clothlab.app.controller import Controller
    from clothlab.sim.document.presets import load_preset, preset_names
    from clothlab.ui.window.main_window import MainWindow

    scenes = [load_preset(name) for name in preset_names()]
    chosen = random.Random(args.seed)

    def spin(seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            app.processEvents()

    start = time.monotonic()
    for k in range(args.windows):
        controller = Controller()
        window = MainWindow(controller, remember_layout=False)
        window.show()
        for _ in range(args.loads):
            controller.load(chosen.choice(scenes))
            spin(0.05)
        window.close()
        controller.shutdown()
        print(f"window {k + 1}", flush=True)
    elapsed = time.monotonic() - start
    print(f"{args.windows} windows, {args.windows * args.loads} loads, no crash ({elapsed:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
