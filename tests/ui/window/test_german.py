"""The app in German shows no English. The window is built in a process of its
own (the language is chosen once, as the app starts) with the German catalogue installed, every
dock shown, the dialogs open (Preferences, Keyboard shortcuts, Fit my fabric, Save video, Class
results, the question editor, Scene properties); every text a user can read —
labels, buttons, menus and their actions, tooltips, tabs, headers, the Scene panel's rows, the
dialogs — is gathered, and none may be English: neither a source string of the catalogue shown
untranslated, nor a text with the common English words a translation would have replaced."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from PySide6.QtGui import QImage

from tests.test_translations import CATALOGUES, catalogue

ROOT = Path(__file__).resolve().parents[3]

WINDOW = r"""
import json, sys, time
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (QAbstractButton, QAbstractItemView, QApplication, QComboBox,
    QDockWidget, QGroupBox, QLabel, QLineEdit, QTabBar, QWidget)
app = QApplication([])
from clothlab.app import language
assert language.install("de") == "de"
language.attach(app)
from clothlab.app.controller import Controller
from clothlab.sim.document.presets import load_preset
from clothlab.ui.window import dialogs
from clothlab.ui.window.main_window import MainWindow
from clothlab.ui.window.preferences_dialog import PreferencesDialog

controller = Controller()
window = MainWindow(controller, remember_layout=False)
controller.load(load_preset("hanging-sheet"))
controller.set_running(True)
window.resize(1280, 800)
window.show()
for dock in window.docks:
    dock.show()
ends = time.monotonic() + 20
while time.monotonic() < ends and (controller.latest is None or controller.latest.steps < 120):
    app.processEvents()
    time.sleep(0.01)
window.grab().save(sys.argv[1])
window.show_questions()
from clothlab.ui.docks.class_results_dialog import ClassResultsDialog
from clothlab.ui.window.export import VideoDialog
from clothlab.ui.window.fit_dialog import FitDialog
shown = [
    window, PreferencesDialog(window), dialogs.ShortcutsDialog(window.shortcut_rows(), window),
    FitDialog(window.user_fabrics, window), VideoDialog(window), ClassResultsDialog(window),
    window.questions_panel.edit_set(),
    dialogs.ScenePropertiesDialog(window, controller.scene.name, controller.scene.description),
]

def texts(top):
    for w in [top, *top.findChildren(QWidget)]:
        yield w.toolTip(); yield w.accessibleName(); yield w.accessibleDescription()
        yield w.windowTitle() if isinstance(w, QDockWidget) or w is top else ""
        if isinstance(w, QLabel): yield w.text()
        if isinstance(w, QAbstractButton): yield w.text()
        if isinstance(w, QGroupBox): yield w.title()
        if isinstance(w, QLineEdit): yield w.placeholderText()
        if isinstance(w, QComboBox): yield from (w.itemText(i) for i in range(w.count()))
        if isinstance(w, QTabBar): yield from (w.tabText(i) for i in range(w.count()))
        if isinstance(w, QAbstractItemView) and w.model() is not None:
            yield from model_texts(w.model())
    for action in top.findChildren(QAction):
        yield action.text(); yield action.toolTip(); yield action.statusTip()

def model_texts(model, parent=None):
    from PySide6.QtCore import QModelIndex, Qt
    parent = parent or QModelIndex()
    try:
        columns = model.columnCount(parent)
    except TypeError:  # a list model's columnCount is private: one column
        columns = 1
    for column in range(columns):
        yield str(model.headerData(column, Qt.Orientation.Horizontal) or "")
    for row in range(model.rowCount(parent)):
        for column in range(columns):
            index = model.index(row, column, parent)
            yield str(index.data() or ""); yield str(index.data(Qt.ItemDataRole.ToolTipRole) or "")
        yield from model_texts(model, model.index(row, 0, parent))

try:
    found = sorted({t for top in shown for t in texts(top) if t and t.strip()})
finally:
    controller.shutdown()
print(json.dumps(found))
"""

# Words a German text would not have: any of them marks a text that was not translated ("was"
# is German too).
ENGLISH = re.compile(
    r"\b(the|and|with|from|this|that|these|of|to|is|are|not|click|press|select|show|hide|"
    r"open|save|when|where|which|what|its|it|you|your|or|for|by|each|every|off|on)\b",
    re.IGNORECASE,
)
TAGS = re.compile(r"<[^>]+>")
# settings as `--set` takes them (passes=16,xpbd=on), and what is quoted to be typed („on“)
KEYS = re.compile(r"\b\w+=\w+|„[^“]*“")


def english_in(texts: list[str]) -> tuple[list[str], list[str]]:
    """(catalogue sources shown untranslated, other texts with English words)."""
    messages = catalogue(CATALOGUES[0])
    translated = {s for s, (t, _done) in messages.items() if t and t != s}
    as_source = [t for t in texts if t in translated or t.replace("&", "") in translated]
    words = {t: KEYS.sub(" ", TAGS.sub(" ", t)).replace("&", "") for t in texts}
    worded = [t for t in texts if t not in as_source and ENGLISH.search(words[t])]
    return as_source, worded


def test_the_german_window_docks_menus_and_dialogs_show_no_english(tmp_path):
    picture = tmp_path / "german.png"
    done = subprocess.run(
        [sys.executable, "-c", WINDOW, str(picture)], capture_output=True, text=True,
        timeout=240, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    texts = json.loads(done.stdout.strip().splitlines()[-1])
    assert len(texts) > 400  # the whole window, not an empty one
    untranslated, english = english_in(texts)
    assert untranslated == []
    assert english == []
    assert not QImage(str(picture)).isNull()
