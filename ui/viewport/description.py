"""The 3D view in words, for screen readers (issue 28 item 2), in PhET's manner: what is there,
what it is doing, what just happened, and a hint for the next action.

Pure functions of a snapshot and a few strings: no Qt here, so the text is tested without a
display. ui.viewport.describer keeps the view's accessibleDescription set to it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from clothlab.sim.core.readouts import hangs_from_top_corners
from clothlab.sim.core.snapshot import Snapshot
from clothlab.sim.core.topology import Topology

# Mean particle speed (units/s) above which the cloth is said to swing, and below which it
# rests; between the two it settles. A hanging sheet swung by a grab moves at 0.3 or more; one
# left alone falls under 0.01 within seconds.
SWINGING_SPEED = 0.1
RESTING_SPEED = 0.005
NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                "ten", "eleven", "twelve")  # fmt: skip


def count_words(count: int, thing: str, plural: str | None = None) -> str:
    """'two pins', 'one piece', '31 links': words up to twelve, as one reads them aloud."""
    amount = NUMBER_WORDS[count] if 0 <= count < len(NUMBER_WORDS) else str(count)
    return f"{amount} {thing if count == 1 else (plural or thing + 's')}"


def pieces_per_body(topology: Topology, link_alive: np.ndarray) -> list[int]:
    """How many pieces each body is in: groups of two or more particles joined by live links (a
    particle a cut leaves on its own is no piece). Label propagation with pointer jumping: a few
    numpy passes, not a Python loop over the links, so it keeps up with large sheets."""
    alive = topology.links[np.asarray(link_alive, dtype=bool)]
    labels = np.arange(topology.particle_count)
    while True:
        low = np.minimum(labels[alive[:, 0]], labels[alive[:, 1]])
        hooked = labels.copy()
        np.minimum.at(hooked, labels[alive[:, 0]], low)
        np.minimum.at(hooked, labels[alive[:, 1]], low)
        while True:  # each particle points straight at its group's lowest label
            jumped = hooked[hooked]
            if np.array_equal(jumped, hooked):
                break
            hooked = jumped
        if np.array_equal(hooked, labels):
            break
        labels = hooked
    counts = []
    for span in topology.bodies:
        body = labels[span.first_particle : span.first_particle + span.particle_count]
        _, sizes = np.unique(body, return_counts=True)
        counts.append(int(np.count_nonzero(sizes >= 2)))
    return counts


def body_names(topology: Topology) -> list[str]:
    """Each body as one says it: 'a sheet, 15 by 11', 'a disc, 21 across', 'a soft block of
    4 by 4 by 4 cubes', in scene order."""
    names: dict[int, str] = {}
    for sheet in topology.sheets:
        names[sheet.first_particle] = f"a sheet, {sheet.cols} by {sheet.rows}"
    for disc in topology.discs:
        names[disc.first_particle] = f"a disc, {disc.cols} across"
    for block in topology.blocks:
        n = block.cubes
        names[block.first_particle] = f"a soft block of {n} by {n} by {n} cubes"
    return [names.get(span.first_particle, "a body") for span in topology.bodies]


def what_is_there(snapshot: Snapshot, pieces: Sequence[int] | None = None) -> str:
    """'A sheet, 15 by 11, hangs from two pins; the ball is off.' `pieces`: pieces_per_body
    of the snapshot, if known already."""
    topology = snapshot.topology
    pinned = np.asarray(snapshot.pin_index, dtype=np.int64)
    if pieces is None:
        pieces = pieces_per_body(topology, snapshot.link_alive)
    parts = []
    for name, span, count in zip(body_names(topology), topology.bodies, pieces, strict=True):
        first, end = span.first_particle, span.first_particle + span.particle_count
        pins = int(np.count_nonzero((pinned >= first) & (pinned < end)))
        held = f"hangs from {count_words(pins, 'pin')}" if pins else "is free, with no pins"
        split = f", in {count_words(count, 'piece')}" if count > 1 else ""
        parts.append(f"{name}{split}, {held}")
    bodies = "; ".join(parts) if parts else "no cloth"
    ball = "on" if snapshot.settings.ball else "off"
    others = len(snapshot.spheres) + len(snapshot.boxes)
    obstacles = f"; {count_words(others, 'other obstacle')}" if others else ""
    return _sentence(f"{bodies}; the ball is {ball}{obstacles}")


def what_it_does(snapshot: Snapshot, running: bool) -> str:
    """'Running: swinging; sag 0.31 units; stretch 2 %.'"""
    readouts = snapshot.readouts
    if readouts.motion > SWINGING_SPEED:
        motion = "swinging"
    elif readouts.motion > RESTING_SPEED:
        motion = "settling"
    else:
        motion = "at rest"
    facts = [f"{'running' if running else 'paused'}: {motion}"]
    pins = np.asarray(snapshot.pin_index).tolist()
    if math.isfinite(readouts.sag) and hangs_from_top_corners(snapshot.topology, pins):
        facts.append(f"sag {readouts.sag:.2f} units")
    if math.isfinite(readouts.max_stretch):
        facts.append(f"stretch {readouts.max_stretch * 100:.0f} %")
    if snapshot.grabbed is not None:
        facts.append(f"particle {snapshot.grabbed} is held")
    return _sentence("; ".join(facts))


def describe(
    snapshot: Snapshot | None,
    running: bool,
    happened: str = "",
    hint: str = "",
    cursor: str = "",
    pieces: Sequence[int] | None = None,
) -> str:
    """The whole description: what is there, what it does, what just happened, where the
    keyboard cursor is, and what to do next. Each part one sentence; empty parts left out.
    `pieces`: pieces_per_body of the snapshot, if known already."""
    if happened == cursor:  # a step of the cursor: said once
        happened = ""
    if snapshot is None:
        return _join(["The 3D view is empty: no scene is loaded yet.", hint])
    return _join(
        [
            what_is_there(snapshot, pieces),
            what_it_does(snapshot, running),
            _sentence(happened),
            _sentence(cursor),
            _sentence(hint),
        ]
    )


def cursor_words(snapshot: Snapshot, particle: int) -> str:
    """Where the keyboard cursor is: 'Cursor on particle 37: row 2, column 7 of the sheet,
    pinned'."""
    topology = snapshot.topology
    place = ""
    for sheet in topology.sheets:
        if sheet.first_particle <= particle < sheet.first_particle + sheet.particle_count:
            row, col = divmod(particle - sheet.first_particle, sheet.cols)
            place = f": row {row + 1} of {sheet.rows}, column {col + 1} of {sheet.cols}"
    pinned = ", pinned" if particle in set(np.asarray(snapshot.pin_index).tolist()) else ""
    return f"Cursor on particle {particle}{place}{pinned}"


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _join(parts: Sequence[str]) -> str:
    return " ".join(p for p in parts if p)
