"""A damaged stored layout is dropped, never handed to Qt: one byte changed
in `window/state` segfaulted every launch, since Qt parses a dock state without checking it.
The layout is stored with its sha256, and only what the app wrote, byte for byte, is restored."""

from __future__ import annotations

import struct

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QByteArray

from clothlab.ui.window import preferences
from clothlab.ui.window.dock_state import why_unreadable
from clothlab.ui.window.layout import LAYOUT_WARNING
from tests.ui.window.test_window_layout import WINDOW_SHOWN, run_script

LAUNCH = (
    WINDOW_SHOWN
    + """
settle_layout()
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


# --- damage the checksum cannot see: bytes changed and the checksum written to match -----------


def store_state(state: bytes) -> None:
    stored = preferences.settings()
    geometry = stored.value(preferences.GEOMETRY_KEY)
    stored.setValue(preferences.STATE_KEY, QByteArray(state))
    stored.setValue(
        preferences.CHECKSUM_KEY, preferences.layout_checksum(geometry, QByteArray(state))
    )


def test_a_dock_area_beyond_the_four_is_refused_though_the_checksum_matches(make_window):
    """The probe's damage: the last byte of the first dock area's number (bytes 13–16) made 5,
    and the checksum written to match. Qt indexed its array of four areas by it: exit -11."""
    window = make_window()
    preferences.store_layout(window, {})
    state = bytearray(preferences.settings().value(preferences.STATE_KEY).data())
    for at in (16, 251):  # the first area's number and the second's
        damaged = bytearray(state)
        damaged[at] = 5
        assert why_unreadable(bytes(damaged), preferences.STATE_VERSION) == (
            f"dock area 5 at byte {at - 3}"
        )
        store_state(bytes(damaged))
        assert not preferences.restore_window(window)


# Values that mean something in the format: markers, areas, counts, flags, sizes.
TELLING = [0, 1, 2, 3, 4, 5, 7, 8, 0xF9, 0xFA, 0xFB, 0xFC, 0xFD, 0xFE, 0xFF, 0x7F, 0x80]
TELLING_INTS = [-1, 0, 1, 2, 3, 4, 5, 64, 65, 2**16, 2**31 - 1, -(2**31)]


@st.composite
def damaged(draw: st.DrawFn, state: bytes) -> bytes:
    """A stored state with a few bytes or whole ints changed, cut short or added to."""
    data = bytearray(state)
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(data) - 1))
        kind = draw(st.sampled_from(["byte", "int", "cut", "insert"]))
        if kind == "byte":
            data[at] = draw(st.sampled_from(TELLING) | st.integers(0, 255))
        elif kind == "int":
            value = draw(st.sampled_from(TELLING_INTS) | st.integers(-(2**31), 2**31 - 1))
            data[at : at + 4] = struct.pack(">i", value)
        elif kind == "cut":
            del data[at : at + draw(st.integers(1, 8))]
        else:
            data[at:at] = draw(st.binary(min_size=1, max_size=8))
    return bytes(data)


def test_damaged_layouts_with_matching_checksums_never_reach_qt_unread(make_window):
    """Hypothesis changes the stored dock state and writes the checksum to match: every one is
    either read through and restored, or refused; none crashes the app (a crash ends the test
    run). What is refused is what the structure reader says is wrong."""
    window = make_window()
    preferences.store_layout(window, {})
    state = bytes(preferences.settings().value(preferences.STATE_KEY).data())
    assert why_unreadable(state, preferences.STATE_VERSION) is None

    @settings(max_examples=100, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
    @given(damaged(state))
    def restores_or_refuses(data: bytes) -> None:
        store_state(data)
        readable = why_unreadable(data, preferences.STATE_VERSION) is None
        restored = preferences.restore_window(window)
        assert restored <= readable  # nothing unread restored

    restores_or_refuses()
    store_state(state)
    assert preferences.restore_window(window)
