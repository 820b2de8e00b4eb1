"""A damaged stored layout is dropped, never handed to Qt (issue 30, item 1): one byte changed
in `window/state` segfaulted every launch, since Qt parses a dock state without checking it.
The layout is stored with its sha256, and only what the app wrote, byte for byte, is restored."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QByteArray
from test_window_layout import WINDOW_SHOWN, run_script

from clothlab.ui.window import preferences
from clothlab.ui.window.layout import LAYOUT_WARNING

LAUNCH = (
    WINDOW_SHOWN
    + """
QTest.qWait(200)
window.close()  # stores the layout
controller.shutdown()
"""
)

DAMAGE = """
import sys
from PySide6.QtCore import QByteArray
from clothlab.ui.window import preferences

stored = preferences.settings()
state = bytearray(bytes(stored.value(preferences.STATE_KEY).data()))
state[int(sys.argv[1])] = int(sys.argv[2])
stored.setValue(preferences.STATE_KEY, QByteArray(bytes(state)))
stored.sync()
"""


def test_a_layout_with_one_damaged_byte_launches_with_the_default_and_a_warning(tmp_path):
    """The probe's damage: byte 15 of the dock state from 0x00 to 0x02."""
    assert run_script(LAUNCH, tmp_path).returncode == 0
    assert run_script(DAMAGE, tmp_path, "15", "2").returncode == 0
    again = run_script(LAUNCH, tmp_path)
    assert again.returncode == 0, again.stderr  # it was -11, a segfault, at every launch
    assert f"clothlab: warning: {LAYOUT_WARNING}" in again.stderr
    third = run_script(LAUNCH, tmp_path)  # the default layout stored on closing is restored
    assert third.returncode == 0 and LAYOUT_WARNING not in third.stderr


def test_thousands_of_damaged_layouts_are_refused_before_qt_reads_them(make_window):
    window = make_window()
    preferences.store_layout(window, {})
    stored = preferences.settings()
    state = bytes(stored.value(preferences.STATE_KEY).data())
    assert preferences.restore_window(window)  # what the app wrote comes back
    rng = np.random.default_rng(30)
    for trial in range(3000):
        damaged = bytearray(state)
        kind = trial % 3
        if kind == 0:  # a byte changed
            at = int(rng.integers(len(damaged)))
            damaged[at] = (damaged[at] + int(rng.integers(1, 256))) % 256
        elif kind == 1:  # cut short
            damaged = damaged[: int(rng.integers(len(damaged)))]
        else:  # bytes added
            damaged += bytes(rng.integers(0, 256, int(rng.integers(1, 64)), dtype=np.uint8))
        stored.setValue(preferences.STATE_KEY, QByteArray(bytes(damaged)))
        assert not preferences.restore_window(window), trial
    stored.setValue(preferences.STATE_KEY, QByteArray(state))
    assert preferences.restore_window(window)
