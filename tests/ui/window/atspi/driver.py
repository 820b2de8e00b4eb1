"""Cloth Lab on the desktop's accessibility bus, for tests/ui/window/test_accessibility_bus.py. Run
under dbus-run-session and a display, with the python that has python3-dbus as argument:

    dbus-run-session -- .venv/bin/python driver.py /usr/bin/python3

A screen reader starts first (reader.py enable: the bus is up and accessibility on), then the real
window opens on the hanging sheet, paused; the reader walks every application's accessible
objects, the sheet is cut along its seam, and the reader walks them again. Prints one JSON object:
the 3D view's description as Qt has it and each walk's rows, before and after the cut.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtWidgets import QApplication

READER = Path(__file__).with_name("reader.py")
WAIT_S = 30.0


def pump(until, what: str) -> None:
    """Run the event loop (Qt answers the bus from it) until `until()` or WAIT_S; it sleeps
    until an event comes, so that each of the reader's calls is answered at once."""
    ends = time.monotonic() + WAIT_S
    tick = QTimer()  # wakes the loop to look at `until` when nothing else comes
    tick.start(20)
    while not until():
        if time.monotonic() > ends:
            raise SystemExit(f"driver: gave up waiting for {what}")
        QApplication.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)


def read(reader_python: str, what: str) -> list[dict]:
    """The reader's rows, while this process keeps answering the bus (Qt's loop is running)."""
    with tempfile.TemporaryFile("w+") as out:
        reader = subprocess.Popen([reader_python, str(READER), what], stdout=out, text=True)
        pump(lambda: reader.poll() is not None, f"reader.py {what}")
        if reader.returncode:
            raise SystemExit(f"driver: reader.py {what} failed ({reader.returncode})")
        out.seek(0)
        return [json.loads(line) for line in out]


def main() -> None:
    reader_python = sys.argv[1]
    # before Qt starts, as when a screen reader already runs
    enable = [reader_python, str(READER), "enable"]
    enabled = json.loads(subprocess.run(enable, capture_output=True, text=True, check=True).stdout)
    app = QApplication([])
    app.setApplicationName("Cloth Lab")

    from clothlab.app.controller import Controller
    from clothlab.sim.document.presets import load_preset
    from clothlab.ui.window.main_window import MainWindow

    controller = Controller()
    controller.set_running(False)
    window = MainWindow(controller, remember_layout=False)
    controller.load(load_preset("hanging-sheet"))
    window.show()
    view = window.viewport
    pump(lambda: controller.latest is not None and view.accessibleDescription() != "", "a frame")
    started = time.monotonic()
    pump(lambda: time.monotonic() - started > 1.0, "the panels to settle")
    before = {"view": view.accessibleDescription(), "rows": read(reader_python, "tree")}
    window.action_seam.trigger()
    pump(lambda: "pieces" in view.accessibleDescription(), "the cut to be described")
    after = {"view": view.accessibleDescription(), "rows": read(reader_python, "tree")}
    print(json.dumps({"enabled": enabled, "before": before, "after": after}))
    controller.shutdown()


if __name__ == "__main__":
    main()
