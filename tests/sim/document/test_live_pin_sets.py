"""Pins made by a composition edit (Edit ▸ Pin selected sheet) on a moved sheet hold it where it
lies in the run; the document pins it at the rest places. A recording of it
replays bit for bit."""

from __future__ import annotations

import numpy as np

from clothlab.sim.document.commands import apply_to_document
from clothlab.sim.document.composition import edit_of, pin_set
from clothlab.sim.document.recording import load_recording, save_recording
from clothlab.sim.document.scene import blank_scene, build_topology
from clothlab.sim.lab.engine import Engine

EDGE = list(range(0, 165, 15))


def fallen() -> Engine:
    engine = Engine(blank_scene(), record_every=0)
    engine.advance(480)
    return engine


def test_a_pin_set_on_a_fallen_sheet_holds_it_where_it_lies_and_the_document_at_rest(tmp_path):
    engine = fallen()
    lying = engine.sim.state.x.copy()
    edit = edit_of(engine.scene, pin_set(engine.scene, 0, "left edge"))
    assert edit.live
    engine.apply(edit)
    assert engine.sim.pins == {p: tuple(lying[p]) for p in EDGE}
    engine.advance(240)
    assert np.array_equal(engine.sim.state.x[EDGE], lying[EDGE])
    assert engine.readouts().max_stretch < 0.05  # 101 % when the edge jumped to its rest place
    rest = build_topology(engine.scene).rest_positions
    document = apply_to_document(engine.scene, edit)
    assert all(np.allclose(p.anchor, rest[p.particle]) for p in document.pins)

    engine.apply(edit.inverse())  # undo: let go
    assert engine.sim.pins == {}
    path = tmp_path / "pins.clothrec.json"
    save_recording(engine.recording(), path)
    again = Engine.of(load_recording(path), record_every=0)
    again.advance_to(engine.clock)
    assert np.array_equal(again.sim.state.x, engine.sim.state.x)


def test_pins_the_edit_leaves_keep_the_runs_anchors():
    engine = fallen()
    first = edit_of(engine.scene, pin_set(engine.scene, 0, "top corners"))
    engine.apply(first)
    corners = dict(engine.sim.pins)
    scene = apply_to_document(engine.scene, first)
    engine.advance(60)
    engine.apply(edit_of(scene, pin_set(scene, 0, "left edge")))
    assert all(engine.sim.pins[p] == corners[p] for p in corners)  # not back to rest places
