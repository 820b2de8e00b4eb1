"""Garbage is collected on the GUI thread only (app/main_thread_gc.py): a QMenu collected on the
solver thread hung a test run in Qt's lock, the GUI thread waiting for the GIL."""

from __future__ import annotations

import gc
import threading

from qt_helpers import WAIT_MS

from clothlab.app import main_thread_gc


def test_cycles_are_collected_on_the_gui_thread_while_the_solver_runs(qtbot, make_controller):
    controller = make_controller("hanging-sheet")
    controller.set_running(True)
    assert not gc.isenabled()
    on_gui_thread: list[bool] = []

    class Cycle:
        def __init__(self) -> None:
            self.me = self

        def __del__(self) -> None:
            on_gui_thread.append(threading.current_thread() is threading.main_thread())

    for _ in range(50):
        Cycle()
    # kept alive past the youngest generation's threshold (freeing them would count back down)
    allocated = [[] for _ in range(2 * gc.get_threshold()[0])]
    qtbot.waitUntil(lambda: len(on_gui_thread) == 50, timeout=WAIT_MS)
    del allocated
    assert all(on_gui_thread)
    controller.shutdown()
    # automatic collection is back once no controller runs (one of another test may still)
    assert gc.isenabled() == (not main_thread_gc._running)
