"""The screen reader's side of the desktop's accessibility bus (AT-SPI), for
tests/ui/window/test_accessibility_bus.py. It runs under Debian's python3 with python3-dbus, the
binding screen readers such as Orca use (the venv's Qt can serve AT-SPI, not read it):

    python3 reader.py enable   start the accessibility bus and switch accessibility on, as a
                               screen reader does when it starts
    python3 reader.py tree     print every accessible object of every application on the bus,
                               one JSON object a line: depth, role, name, description, states

The session bus is the one of the environment (the test runs everything under dbus-run-session).
"""

from __future__ import annotations

import json
import sys

import dbus

ACCESSIBLE = "org.a11y.atspi.Accessible"
PROPERTIES = "org.freedesktop.DBus.Properties"
# AtspiStateType: bit k of the two 32-bit words GetState returns
STATES = {"focusable": 11, "focused": 12, "showing": 25, "visible": 30}


def a11y_bus() -> tuple[dbus.proxies.ProxyObject, dbus.bus.BusConnection]:
    """The bus launcher (started on first use) and a connection to the bus it runs."""
    launcher = dbus.SessionBus().get_object("org.a11y.Bus", "/org/a11y/bus")
    address = str(launcher.GetAddress(dbus_interface="org.a11y.Bus"))
    return launcher, dbus.bus.BusConnection(address)


def enable() -> None:
    launcher, _bus = a11y_bus()
    status = dbus.Interface(launcher, PROPERTIES)
    status.Set("org.a11y.Status", "IsEnabled", dbus.Boolean(True))
    print(json.dumps({"enabled": bool(status.Get("org.a11y.Status", "IsEnabled"))}))


def tree() -> None:
    _launcher, bus = a11y_bus()
    root = bus.get_object("org.a11y.atspi.Registry", "/org/a11y/atspi/accessible/root")
    stack = [(0, str(n), str(p)) for n, p in reversed(root.GetChildren(dbus_interface=ACCESSIBLE))]
    while stack:
        depth, name, path = stack.pop()
        node = bus.get_object(name, path)
        properties = dbus.Interface(node, PROPERTIES)
        words = node.GetState(dbus_interface=ACCESSIBLE)
        bits = int(words[0]) | int(words[1]) << 32
        row = {
            "depth": depth,
            "role": str(node.GetRoleName(dbus_interface=ACCESSIBLE)),
            "name": str(properties.Get(ACCESSIBLE, "Name")),
            "description": str(properties.Get(ACCESSIBLE, "Description")),
            **{state: bool(bits >> bit & 1) for state, bit in STATES.items()},
        }
        print(json.dumps(row), flush=True)
        children = node.GetChildren(dbus_interface=ACCESSIBLE)
        stack += [(depth + 1, str(n), str(p)) for n, p in reversed(children)]


if __name__ == "__main__":
    {"enable": enable, "tree": tree}[sys.argv[1]]()
