"""Garbage is collected on the GUI thread only (app/main_thread_gc.py): a QMenu collected on the
solver thread hung a test run in Qt's lock, the GUI thread waiting for the GIL.

Checked in a process of its own: the collector's state is the process's, and what earlier tests
leave running in a test process (a Dask cluster's threads, say) can hold it (a collection
in progress on another thread makes gc.collect return at once, collecting nothing)."""

from __future__ import annotations

import os
import subprocess
import sys

CHECK = """
import gc, threading, time
from PySide6.QtCore import QCoreApplication
from clothlab.app import main_thread_gc
from clothlab.app.controller import Controller
from clothlab.sim.document.presets import load_preset

app = QCoreApplication([])
controller = Controller()
controller.load(load_preset("hanging-sheet"))
controller.set_running(True)
assert not gc.isenabled(), "automatic collection is on while a controller runs"
on_gui_thread = []

class Cycle:
    def __init__(self):
        self.me = self

    def __del__(self):
        on_gui_thread.append(threading.current_thread() is threading.main_thread())

for _ in range(50):
    Cycle()
# kept alive past the youngest generation's threshold (freeing them would count back down)
allocated = [[] for _ in range(2 * gc.get_threshold()[0])]
deadline = time.monotonic() + 30.0
while len(on_gui_thread) < 50 and time.monotonic() < deadline:
    app.processEvents()
    time.sleep(0.01)
del allocated
assert len(on_gui_thread) == 50, f"{len(on_gui_thread)} of 50 cycles collected in 30 s"
assert all(on_gui_thread), "a cycle was collected on the solver thread"
controller.shutdown()
assert gc.isenabled() and not main_thread_gc._running, "collection is not back on"
print("collected on the GUI thread")
"""


def test_cycles_are_collected_on_the_gui_thread_while_the_solver_runs():
    environment = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, "-c", CHECK], capture_output=True, text=True, timeout=120, env=environment
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "collected on the GUI thread"
