"""A document is an experiment's set-up: Save writes the scene as set up (the user's cuts,
pins, bodies, settings), never the links the model tore nor where the particles went; "Save
state" writes the set-up with the links torn so far, and says so. Pins of the set-up anchor
the particles' rest places, so step 0 (a load, a Reset) starts unstretched unless a pin was
moved on purpose."""

from __future__ import annotations

import json

import numpy as np
import pytest

from clothlab.lab import Lab
from clothlab.sim.document import composition
from clothlab.sim.document.commands import Stamped, apply_to_document, apply_to_simulation
from clothlab.sim.document.edits import SetPin
from clothlab.sim.document.presets import load_preset, preset_names
from clothlab.sim.document.recording import (
    Recording,
    parse_recording,
    recording_json,
)
from clothlab.sim.document.scene import (
    Scene,
    SheetSpec,
    body_counts,
    build_simulation,
    build_topology,
    load_scene,
    with_settings,
)

FLAT = 1e-9  # max stretch of a sheet at its rest lengths (float rounding only)


def pins_away(scene: Scene) -> int:
    from clothlab.sim.document.composition import pins_away_from_rest

    return pins_away_from_rest(scene)


def torn_tear_lab() -> Lab:
    """tear-lab with a low tear ratio: 120 steps tear a few links (7 at this commit)."""
    lab = Lab(load_preset("tear-lab"))
    lab.set(tear_ratio=1.05)
    lab.run(120)
    assert lab.readouts["links"] < body_counts(lab.scene.bodies)[1], "the model tore links"
    return lab


def torn_links(lab: Lab) -> list[int]:
    alive = lab._engine.sim.state.link_alive
    return [k for k in np.flatnonzero(~alive).tolist() if k not in set(lab.scene.cuts)]


# --- item 3: Save writes the set-up, Save state the torn cloth ---------------------------------


def test_a_scene_saved_after_the_model_tore_links_reopens_as_set_up(tmp_path):
    lab = torn_tear_lab()
    path = tmp_path / "setup.json"
    lab.save(path)
    reopened = load_scene(path)
    assert reopened.tears == []
    assert reopened == lab.scene
    links = body_counts(reopened.bodies)[1]
    assert build_simulation(reopened).state.link_alive.sum() == links  # the links as set up


def test_save_state_writes_the_links_torn_so_far_and_says_so(tmp_path):
    lab = torn_tear_lab()
    torn = torn_links(lab)
    path = tmp_path / "state.json"
    lab.save_state(path)
    state = load_scene(path)
    assert state.tears == torn
    assert state.name == f"Tear lab — state at t = 1.00 s ({len(torn)} links torn)"
    assert "positions are not stored" in state.description.lower()
    again = build_simulation(state)
    assert np.array_equal(again.state.link_alive, lab._engine.sim.state.link_alive)
    assert lab.scene.tears == []  # an export of the state: the set-up is as it was


def test_a_state_of_a_state_is_named_once():
    from clothlab.sim.document.scene import state_scene

    scene = load_preset("tear-lab")
    first = state_scene(scene, [3, 4], 1.0)
    second = state_scene(first, [3, 4, 5], 2.5)
    assert second.name == "Tear lab — state at t = 2.50 s (3 links torn)"
    assert state_scene(scene, [7], 0.5).name.endswith("(1 link torn)")
    long = scene.model_copy(update={"name": "x" * 200})
    assert len(state_scene(long, [1], 1.0).name) <= 200


def test_a_state_leaves_out_links_the_user_cut():
    from clothlab.sim.document.scene import state_scene

    scene = load_preset("tear-lab").model_copy(update={"cuts": [5]})
    assert state_scene(scene, [4, 5, 6], 1.0).tears == [4, 6]


def test_a_file_holding_tears_keeps_them_as_its_set_up(tmp_path):
    path = tmp_path / "state.json"
    torn_tear_lab().save_state(path)
    loaded = load_scene(path).tears
    lab = Lab(load_scene(path))
    assert lab.scene.tears == loaded
    lab.set(gravity=30.0)
    lab.run(60)  # tears more
    assert len(torn_links(lab)) > len(loaded)
    saved = tmp_path / "saved.json"
    lab.save(saved)
    assert load_scene(saved).tears == loaded  # as loaded, none of the new ones
    lab.reset()  # back to the set-up as loaded: torn as the file says
    assert torn_links(lab) == loaded and lab.steps == 0


def test_a_change_of_bodies_drops_the_files_tears_and_undo_brings_them_back():
    scene = load_preset("two-sheets")
    links = body_counts(scene.bodies[:1])[1]
    scene = scene.model_copy(update={"tears": [3, links + 3]})
    resized = composition.change_body(scene, 0, width=2.0)
    edit = composition.edit_of(scene, resized)
    after = apply_to_document(scene, edit)
    assert after.tears == []  # new particles: the torn links were the old model's
    assert apply_to_document(after, edit.inverse()).tears == scene.tears
    removed = composition.remove_body(scene, 0)  # the second sheet's links are renumbered
    assert removed.scene.tears == []


def test_the_cli_save_writes_the_set_up_and_save_state_the_tears(tmp_path, monkeypatch):
    from clothlab.app.cli import main

    monkeypatch.chdir(tmp_path)
    code = main(["run", "tear-lab", "--steps", "120", "--set", "tear_ratio=1.05",
                 "--save", "setup.json", "--save-state", "state.json"])  # fmt: skip
    assert code == 0
    lab = torn_tear_lab()
    assert json.loads((tmp_path / "setup.json").read_text())["tears"] == []
    assert load_scene(tmp_path / "state.json").tears == torn_links(lab)


# --- item 4: pins of the set-up anchor rest places ---------------------------------------------


@pytest.mark.parametrize("name", preset_names())
def test_every_preset_starts_unstretched_unless_a_pin_was_moved_on_purpose(name):
    scene = load_preset(name)
    # a start raised out of its plane on purpose (cusick-drape's `imperfection`) is not the pins'
    flat = with_settings(scene, {"imperfection": 0.0})
    stretch = build_simulation(flat).readouts().max_stretch
    away = pins_away(scene)
    if name == "shifted-pins":  # its right-hand pin is moved 0.4 left on purpose
        assert away == 1 and stretch > 0.1
    else:
        assert away == 0 and stretch < FLAT, (name, stretch)


def fallen_default_sheet() -> Lab:
    """File ▸ New's scene (one sheet, no pins) after it fell to the floor and settled."""
    lab = Lab(Scene())
    lab.run(480)
    fallen = lab.positions - build_topology(lab.scene).rest_positions
    assert np.linalg.norm(fallen, axis=1).min() > 0.5  # every particle down on the floor
    return lab


def test_pins_made_during_a_run_anchor_the_set_up_at_rest_and_reset_starts_unstretched():
    lab = fallen_default_sheet()
    sheet = build_topology(lab.scene).sheets[0]
    left = [sheet.particle(row, 0) for row in range(sheet.rows)]
    now = lab.positions
    for particle in left:
        lab.pin(particle)  # where it is now, in the run
    sim = lab._engine.sim
    assert all(np.allclose(sim.pins[p], now[p]) for p in left)  # the run holds it there
    rest = build_topology(lab.scene).rest_positions
    assert all(np.allclose(pin.anchor, rest[pin.particle]) for pin in lab.scene.pins)
    assert pins_away(lab.scene) == 0
    lab.set(tearing=True)
    lab.reset()
    assert lab.readouts["max_stretch"] < FLAT  # was 218 %
    lab.run(240)
    assert lab.readouts["links"] == body_counts(lab.scene.bodies)[1]  # nothing ripped off


def test_a_pin_moved_on_purpose_keeps_its_anchor_and_starts_stretched():
    lab = Lab(load_preset("hanging-sheet"))
    lab.run(30)
    lab.pin(14, (1.0, 1.0, 0.0))  # the right-hand corner, 0.4 left of its rest place
    assert pins_away(lab.scene) == 1
    lab.reset()
    assert lab.readouts["max_stretch"] > 0.1


def test_pin_sets_anchor_rest_positions():
    scene = Scene()
    pinned = composition.pin_set(scene, 0, "left edge").scene
    assert pins_away(pinned) == 0
    assert build_simulation(pinned).readouts().max_stretch < FLAT


# --- a pin made live: the run holds it where it is, the document at rest ------------------------


def test_a_live_pin_holds_where_the_particle_is_and_the_document_its_rest_place():
    scene = load_preset("hanging-sheet")
    sim = build_simulation(scene)
    sim.step(60)
    particle = 80
    rest = build_topology(scene).rest_positions[particle]
    live = tuple(float(v) for v in sim.state.x[particle])
    edit = SetPin(particle, tuple(float(v) for v in rest), None, live=live)
    assert apply_to_document(scene, edit).pins[-1].anchor == tuple(rest)
    apply_to_simulation(sim, edit)
    assert sim.pins[particle] == live
    apply_to_simulation(sim, edit.inverse())  # undo: unpinned
    assert particle not in sim.pins


def test_a_live_pin_goes_into_a_recording_and_old_entries_without_it_load():
    scene = load_preset("hanging-sheet")
    edit = SetPin(80, (0.0, 0.0, 0.0), None, live=(0.1, -0.5, 0.2))
    plain = SetPin(81, (0.2, 0.0, 0.0), None)
    recording = Recording(scene, (Stamped(30, edit), Stamped(40, plain)), 60)
    text = recording_json(recording)
    assert parse_recording(text).commands == recording.commands
    entries = json.loads(text)["commands"]
    assert entries[0]["live"] == [0.1, -0.5, 0.2]
    assert "live" not in entries[1]  # as an earlier version wrote it


def test_a_sheet_set_up_turned_or_flat_starts_unstretched_when_pinned_in_a_run():
    scene = Scene(bodies=[SheetSpec(yaw=30.0, horizontal=True)])
    lab = Lab(scene)
    lab.run(120)
    for particle in (0, 14):
        lab.pin(particle)
    lab.reset()
    assert lab.readouts["max_stretch"] < FLAT
