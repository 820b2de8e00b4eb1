"""The 3D view in words, for screen readers, in PhET's manner: what is there,
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
from clothlab.sim.text import QT_TR_NOOP, tr

# Mean particle speed (units/s) above which the cloth is said to swing, and below which it
# rests; between the two it settles. A hanging sheet swung by a grab moves at 0.3 or more; one
# left alone falls under 0.01 within seconds.
SWINGING_SPEED = 0.1
RESTING_SPEED = 0.005
NUMBER_WORDS = (QT_TR_NOOP("no"), QT_TR_NOOP("one"), QT_TR_NOOP("two"), QT_TR_NOOP("three"),
                QT_TR_NOOP("four"), QT_TR_NOOP("five"), QT_TR_NOOP("six"), QT_TR_NOOP("seven"),
                QT_TR_NOOP("eight"), QT_TR_NOOP("nine"), QT_TR_NOOP("ten"),
                QT_TR_NOOP("eleven"), QT_TR_NOOP("twelve"))  # fmt: skip


def count_words(count: int, one: str, many: str) -> str:
    """'two pins', 'one piece', '31 links': words up to twelve, as one reads them aloud. `one`
    is the text for one ("hangs from one pin"), `many` the template for any other count
    ("hangs from {amount} pins"), both translated: a language words them as it counts."""
    if count == 1:
        return one
    amount = tr(NUMBER_WORDS[count]) if 0 <= count < len(NUMBER_WORDS) else str(count)
    return many.format(amount=amount)


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
        names[sheet.first_particle] = tr("a sheet, {columns} by {rows}").format(
            columns=sheet.cols, rows=sheet.rows
        )
    for disc in topology.discs:
        names[disc.first_particle] = tr("a disc, {across} across").format(across=disc.cols)
    for block in topology.blocks:
        names[block.first_particle] = tr("a soft block of {n} by {n} by {n} cubes").format(
            n=block.cubes
        )
    return [names.get(span.first_particle, tr("a body")) for span in topology.bodies]


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
        if pins:
            held = count_words(pins, tr("hangs from one pin"), tr("hangs from {amount} pins"))
        else:
            held = tr("is free, with no pins")
        split = ""
        if count > 1:
            split = ", " + count_words(count, tr("in one piece"), tr("in {amount} pieces"))
        parts.append(f"{name}{split}, {held}")
    bodies = "; ".join(parts) if parts else tr("no cloth")
    ball = tr("the ball is on") if snapshot.settings.ball else tr("the ball is off")
    others = len(snapshot.spheres) + len(snapshot.boxes)
    obstacles = ""
    if others:
        obstacles = "; " + count_words(
            others, tr("one other obstacle"), tr("{amount} other obstacles")
        )
    return _sentence(f"{bodies}; {ball}{obstacles}")


def what_it_does(snapshot: Snapshot, running: bool, si: bool = False) -> str:
    """'Running: swinging; sag 0.31 units; stretch 2 %.' (`si`: a run in SI units, "0.31 m")"""
    readouts = snapshot.readouts
    if readouts.motion > SWINGING_SPEED:
        motion = tr("swinging")
    elif readouts.motion > RESTING_SPEED:
        motion = tr("settling")
    else:
        motion = tr("at rest")
    state = tr("running: {motion}") if running else tr("paused: {motion}")
    facts = [state.format(motion=motion)]
    pins = np.asarray(snapshot.pin_index).tolist()
    if math.isfinite(readouts.sag) and hangs_from_top_corners(snapshot.topology, pins):
        sag = tr("sag {sag:.2f} m") if si else tr("sag {sag:.2f} units")
        facts.append(sag.format(sag=readouts.sag))
    if math.isfinite(readouts.max_stretch):
        facts.append(tr("stretch {stretch:.0f} %").format(stretch=readouts.max_stretch * 100))
    if snapshot.grabbed is not None:
        facts.append(tr("particle {particle} is held").format(particle=snapshot.grabbed))
    return _sentence("; ".join(facts))


def describe(
    snapshot: Snapshot | None,
    running: bool,
    happened: str = "",
    hint: str = "",
    cursor: str = "",
    pieces: Sequence[int] | None = None,
    si: bool = False,
) -> str:
    """The whole description: what is there, what it does, what just happened, where the
    keyboard cursor is, and what to do next. Each part one sentence; empty parts left out.
    `pieces`: pieces_per_body of the snapshot, if known already; `si`: a run in SI units."""
    if happened == cursor:  # a step of the cursor: said once
        happened = ""
    if snapshot is None:
        return _join([tr("The 3D view is empty: no scene is loaded yet."), hint])
    return _join(
        [
            what_is_there(snapshot, pieces),
            what_it_does(snapshot, running, si),
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
            place = ": " + tr("row {row} of {rows}, column {column} of {columns}").format(
                row=row + 1, rows=sheet.rows, column=col + 1, columns=sheet.cols
            )
    pinned = ""
    if particle in set(np.asarray(snapshot.pin_index).tolist()):
        pinned = ", " + tr("pinned")
    return tr("Cursor on particle {particle}").format(particle=particle) + place + pinned


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _join(parts: Sequence[str]) -> str:
    return " ".join(p for p in parts if p)
