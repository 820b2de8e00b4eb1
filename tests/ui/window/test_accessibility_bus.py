"""The window on the desktop's accessibility bus: the real window, in a process of its own
on a D-Bus session of its own, read the way a screen reader reads it, over AT-SPI
(tests/ui/window/atspi: driver.py runs the window, reader.py is the screen reader's client). The
in-process tests (test_keyboard_session.py) ask Qt's accessibility interfaces; this one asks
what actually reaches the bus."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from clothlab.ui.viewport.describer import VIEW_NAME

DRIVER = Path(__file__).with_name("atspi") / "driver.py"
READER_PYTHON = "/usr/bin/python3"  # Debian's, with python3-dbus (make test installs it)


def run_on_the_bus() -> dict:
    for needed in (READER_PYTHON, "/usr/bin/dbus-run-session", "/usr/libexec/at-spi-bus-launcher"):
        assert Path(needed).exists(), f"{needed} missing: make test installs its Debian package"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DBUS_", "AT_SPI", "QT_LINUX"))}
    env["QT_QPA_PLATFORM"] = "xcb"  # the display pytest-xvfb started
    done = subprocess.run(
        ["dbus-run-session", "--", sys.executable, str(DRIVER), READER_PYTHON],
        capture_output=True, text=True, timeout=240, env=env,
    )  # fmt: skip
    lines = done.stdout.strip().splitlines()
    assert done.returncode == 0 and lines, done.stderr[-2000:]
    return json.loads(lines[-1])  # the bus's registry daemon prints a line of its own first


def test_a_screen_reader_on_the_bus_reads_every_control_and_the_view_as_it_changes():
    result = run_on_the_bus()
    assert result["enabled"] == {"enabled": True}
    before, after = result["before"], result["after"]
    rows = before["rows"]
    application = rows[0]
    assert (application["role"], application["name"]) == ("application", "Cloth Lab")
    focusable = [row for row in rows if row["focusable"]]
    assert len(focusable) > 150  # toolbar, menus, every panel's fields: all of them on the bus
    unnamed = [row for row in focusable if not row["name"].strip()]
    assert unnamed == [], "focusable objects a screen reader reads as nothing"
    # the 3D view: its name, and its description as Qt has it, before and after a cut
    (view,) = [row for row in rows if row["name"] == VIEW_NAME]
    assert view["focusable"] and view["description"] == before["view"]
    (cut_view,) = [row for row in after["rows"] if row["name"] == VIEW_NAME]
    assert cut_view["description"] == after["view"] != before["view"]
    assert "Cut 31 links" in cut_view["description"]
    assert "in two pieces" in cut_view["description"]
    # the readout plots say their latest values
    plots = [row["description"] for row in rows if row["description"].startswith("Latest: ")]
    assert any(text.startswith("Latest: Sag 0 units") for text in plots), plots
