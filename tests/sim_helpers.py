"""Helpers for the headless model tests (tests/sim and the command line's in tests/app): a plain
module beside conftest.py, whose folder pytest puts on sys.path for every test."""

import errno
import os

import numpy as np

from clothlab.sim.core.parameters import Settings
from clothlab.sim.core.solver import Simulation
from clothlab.sim.core.topology import Topology, TopologyBuilder
from clothlab.sim.document.edits import CutLinks, SetPin, SetSetting

# The drape check on coarse meshes (textile.CHECK_COLS monkeypatched): the tests of what is wired
# to the check (a panel, a dialog, the command line's specimens) settle their specimens in a
# fraction of the time. The check on its own meshes, 51 and 61 across, is the README's
# `clothlab validate --fabric cotton` (tests/test_docs.py); 51 and 61 across took three such
# tests 360 s of the suite's.
WIRING_MESHES = (25, 31)


def sheet_topology(cols, rows, spacing=0.2, top_center=(0.0, 1.0, 0.0), horizontal=False):
    builder = TopologyBuilder()
    builder.add_sheet(cols, rows, spacing, top_center, horizontal)
    return builder.build()


def block_topology(cubes=4, side=0.2, min_corner=(-0.4, -0.6, -0.4)):
    builder = TopologyBuilder()
    builder.add_block(cubes, side, min_corner)
    return builder.build()


def lone_particles(positions):
    """Free particles with no links at all: pure predict, nothing else moves them."""
    positions = np.asarray(positions, dtype=np.float64).reshape(-1, 3)
    return Topology(
        rest_positions=positions,
        links=np.zeros((0, 2), np.int32),
        rest_lengths=np.zeros(0),
        faces=np.zeros((0, 4), np.int32),
        face_links=np.zeros((0, 6), np.int32),
    )


def hanging_sheet(cols=4, rows=3, **settings):
    """A small sheet hanging from its two top corners, pinned where they rest."""
    topology = sheet_topology(cols, rows)
    x = topology.rest_positions
    pins = {0: tuple(float(v) for v in x[0]), cols - 1: tuple(float(v) for v in x[cols - 1])}
    return Simulation(topology, Settings(**settings), pins=pins)


# --- edits of a running simulation ------------------------------------------------------------
# The app builds its edit records from the document (app.controller); these tests have only a
# simulation, so they take the values an edit records (what is live, the previous pin or
# setting) from it.


def cut(sim, links):
    """A cut of those of `links` that are still live (sorted, unique)."""
    candidates = np.unique(np.asarray(links, dtype=np.int64))
    live = candidates[sim.state.link_alive[candidates]]
    return CutLinks(tuple(int(k) for k in live))


def add_pin(sim, particle, anchor=None):
    """Pin a particle where it is now (or at `anchor`)."""
    where = anchor if anchor is not None else tuple(float(v) for v in sim.state.x[particle])
    return SetPin(particle, where, sim.pins.get(particle))


def remove_pin(sim, particle):
    return SetPin(particle, None, sim.pins.get(particle))


def move_pin(sim, particle, anchor):
    return SetPin(particle, tuple(float(v) for v in anchor), sim.pins.get(particle))


def move_ball(sim, center):
    return set_setting(sim, "ball_center", tuple(float(v) for v in center))


def set_setting(sim, key, value):
    return SetSetting(key, value, getattr(sim.settings, key))


def cases(default: int, slow: int) -> int:
    """How many cases a property test draws: `slow` on --runslow (tests/conftest.py)."""
    return slow if os.environ.get("CLOTHLAB_RUNSLOW") else default


def read_terminal_to_the_end(controller: int) -> bytes:
    """Everything a pseudo-terminal's other end wrote, once nothing holds it open any more."""
    seen = b""
    while True:
        try:
            chunk = os.read(controller, 65536)
        except OSError as error:  # EIO: the terminal has no writer left
            assert error.errno == errno.EIO
            return seen
        if not chunk:
            return seen
        seen += chunk
