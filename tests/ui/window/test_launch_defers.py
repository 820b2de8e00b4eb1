"""A launch imports and builds only what its first frame shows: the question editor, the class
results, Fit my fabric and the sweep plot (and the libraries they bring) are imported when first
opened, and the Questions panel, tabbed behind Parameters, reads its built-in question set when
its tab is first chosen, not while the window is built."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTabBar

ROOT = Path(__file__).resolve().parents[3]

DEFERRED = (
    "clothlab.ui.window.fit_dialog",
    "clothlab.sim.lab.fit",
    "clothlab.ui.docks.question_editor",
    "clothlab.ui.docks.class_results_dialog",
    "clothlab.ui.docks.sweep_plot",
    "clothlab.sim.lab.sweep_results",
)

LAUNCH = r"""
import json, sys, time
from PySide6.QtWidgets import QApplication
app = QApplication([])
from clothlab.app.controller import Controller
from clothlab.sim.document.presets import load_preset
from clothlab.ui.window.main_window import MainWindow
controller = Controller()
window = MainWindow(controller, remember_layout=False)
controller.load(load_preset("hanging-sheet"))
controller.set_running(True)
window.resize(1280, 800)
window.show()
ends = time.monotonic() + 20
while time.monotonic() < ends and (controller.latest is None or controller.latest.steps < 10):
    app.processEvents()
print(json.dumps({"imported": sorted(m for m in sys.argv[1:] if m in sys.modules),
                  "questions_read": window.questions_panel._question_set is not None,
                  "steps": controller.latest.steps if controller.latest else 0}))
controller.shutdown()
"""


def test_the_first_frame_imports_no_hidden_dialog_and_reads_no_question_set():
    done = subprocess.run(
        [sys.executable, "-c", LAUNCH, *DEFERRED], capture_output=True, text=True,
        timeout=120, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    launched = json.loads(done.stdout.strip().splitlines()[-1])
    assert launched["steps"] >= 10  # the sheet moved: the window was up and running
    assert launched["imported"] == []
    assert launched["questions_read"] is False


def test_choosing_the_questions_tab_shows_the_built_in_set(qtbot, make_window):
    window = make_window(paused=True)
    panel = window.questions_panel
    # the window fits its docks' tabs once after its resizes: its tab bars are made anew then
    qtbot.waitUntil(lambda: not window.layout_keeper._timer.isActive())
    assert panel._question_set is None  # tabbed behind Parameters: not read yet
    bar, index = next(
        (bar, k)
        for bar in window.findChildren(QTabBar)
        for k in range(bar.count())
        if bar.tabText(k) == "Questions"
    )
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(index).center())
    qtbot.waitUntil(lambda: panel.question_box.count() > 0)
    assert panel.set_label.text() == panel.question_set.title
    assert panel.question_box.count() == len(panel.question_set.questions)
