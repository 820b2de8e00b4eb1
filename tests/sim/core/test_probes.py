"""Probes: what they read, in numbers; saved with the scene; undoable edits;
their columns in the CLI's CSV and the Python API."""

from __future__ import annotations

import csv
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import clothlab
from clothlab.sim.core import probes
from clothlab.sim.core.readouts import CSV_HEADER, column_key
from clothlab.sim.document import composition
from clothlab.sim.document.commands import CommandError, SetProbe, apply_to_document
from clothlab.sim.document.files import SceneError
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.recording import load_recording, parse_recording, recording_json
from clothlab.sim.document.scene import (
    SCHEMA_VERSION,
    Scene,
    build_topology,
    load_scene,
    parse_scene,
    save_scene,
    scene_json,
)
from clothlab.sim.lab.engine import Engine, probe_slots

ROOT = Path(__file__).resolve().parents[3]
FREE_FALL = ROOT / "resources" / "questions" / "free-fall.json"


def clothlab_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "clothlab.app.main", *args],
        capture_output=True, text=True, cwd=ROOT, timeout=300,
    )  # fmt: skip


# --- what a probe reads ---------------------------------------------------------------------


def test_a_probe_on_a_free_falling_particle_reaches_the_terminal_speed():
    """The speed the terminal-speed question predicts, g·Δt/(1 − d),
    13.61 units/s in classic, within 1 % after 10 s of free fall."""
    lab = clothlab.open(str(FREE_FALL))
    settings = lab.scene.solver
    predicted = settings.gravity * settings.dt / (1.0 - settings.damping)
    assert predicted == pytest.approx(13.61, abs=0.005)
    assert lab.add_probe(0) == 1
    table = lab.run(1200)
    speed = table["probe1_speed"]
    assert speed[-1] == pytest.approx(predicted, rel=0.01)
    assert speed[-1] == pytest.approx(13.61, rel=0.01)
    assert speed[0] == 0.0 and np.all(np.diff(speed) > 0)  # from rest, speeding up all the way
    assert lab.probe(1)["speed"] == speed[-1]


def test_a_probe_reads_its_particles_height_and_speed():
    lab = clothlab.open("hanging-sheet")
    for particle in (7, 160, 3):
        lab.add_probe(particle)
    lab.run(90)
    x = lab.positions
    for number, particle in enumerate((7, 160, 3), start=1):
        reading = lab.probe(number)
        assert reading["particle"] == particle
        assert reading["y"] == x[particle, 1]
    # speed as the Motion readout takes it: over one substep, Δt / substeps
    steps_x = [lab.positions]
    lab.run(1)
    steps_x.append(lab.positions)
    dt = lab.scene.solver.dt
    expected = np.linalg.norm(steps_x[1][160] - steps_x[0][160]) / dt
    assert lab.probe(2)["speed"] == pytest.approx(expected, rel=1e-12)
    # the largest tension among the links at the particle, as the solver's forces give them
    tensions = lab.link_tensions
    at = np.flatnonzero((lab_links(lab)[:, 0] == 160) | (lab_links(lab)[:, 1] == 160))
    assert lab.probe(2)["tension"] == tensions[at].max() > 0.0


def lab_links(lab: clothlab.Lab) -> np.ndarray:
    return build_topology(lab.scene).links


def test_a_probes_tension_is_nan_before_the_first_step_and_0_in_free_fall():
    lab = clothlab.open(str(FREE_FALL))
    lab.add_probe(80)
    assert math.isnan(lab.probe(1)["tension"])  # no step, no forces
    table = lab.run(120)
    assert math.isnan(table["probe1_tension"][0])
    # falling freely, nothing stretches the links: the classic rule moves nothing
    assert np.all(np.abs(table["probe1_tension"][1:]) < 1e-9)


def test_a_probe_at_a_pin_of_the_hanging_sheet_reads_the_pull_of_its_links():
    """At rest the two corner pins hold the sheet's weight (165 particles × 9.8, model units):
    the links at a corner pull it with about half of that, shared among them; the top
    middle of the edge, sagging between the pins, is pulled far less."""
    lab = clothlab.open("hanging-sheet")
    lab.add_probe(0)  # top-left corner, pinned
    lab.add_probe(7)  # top edge, middle
    table = lab.run(1200)
    corner, middle = table["probe1_tension"][-1], table["probe2_tension"][-1]
    weight = 165 * 9.8
    assert 0.25 * weight < corner <= weight / 2 * 1.01
    assert middle < 0.5 * corner
    held = np.linalg.norm(lab.pin_forces, axis=1)
    assert corner <= held[0] * 1.01  # no link pulls harder than the pin holds


def test_lab_probe_refuses_what_is_not_a_probe_in_one_line():
    lab = clothlab.open("hanging-sheet")
    with pytest.raises(ValueError, match=r"^probe 1: the probes are none: add one"):
        lab.probe(1)
    lab.add_probe(5)
    with pytest.raises(ValueError, match=r"^probe 2: the probes are 1…1$"):
        lab.probe(2)
    with pytest.raises(ValueError, match="particle 5 has a probe already"):
        lab.add_probe(5)
    with pytest.raises(ValueError, match=r"particle 165 is not within 0…164"):
        lab.add_probe(165)
    for particle in (6, 7, 8):
        lab.add_probe(particle)
    with pytest.raises(ValueError, match="at most 4 probes"):
        lab.add_probe(9)
    with pytest.raises(ValueError, match="particle 9 has no probe"):
        lab.remove_probe(9)
    lab.remove_probe(5)
    assert lab.probes == (6, 7, 8)


# --- saved with the scene -------------------------------------------------------------------


def test_probes_are_saved_with_the_scene_and_read_back(tmp_path):
    scene = load_preset("hanging-sheet").model_copy(update={"probes": [160, 7]})
    path = tmp_path / "probed.json"
    save_scene(scene, path)
    data = json.loads(path.read_text())
    assert data["schema_version"] == SCHEMA_VERSION >= 5
    assert data["probes"] == [160, 7]
    assert load_scene(path) == scene


def test_a_version_4_scene_opens_with_no_probes():
    text = json.dumps({"format": "clothlab-scene", "schema_version": 4, "name": "old"})
    scene = parse_scene(text)
    assert scene.probes == [] and scene.schema_version == SCHEMA_VERSION


@pytest.mark.parametrize(
    ("probes_listed", "message"),
    [
        ([0, 165], "x.json: probes.1: particle 165 is not below 165"),
        ([3, 3], "x.json: probes: a particle has two probes"),
        ([1, 2, 3, 4, 5], "x.json: probes: List should have at most 4 items after validation"),
        ([-1], "x.json: probes.0: Input should be greater than or equal to 0"),
        (["1"], "x.json: probes.0: Input should be a valid integer"),
        ([True], "x.json: probes.0: Input should be a valid integer"),
        (7, "x.json: probes: Input should be a valid list"),
    ],
)
def test_a_bad_probe_is_one_line_naming_it(probes_listed, message):
    data = json.loads(scene_json(Scene()))
    data["probes"] = probes_listed
    with pytest.raises(SceneError) as caught:
        parse_scene(json.dumps(data), "x.json")
    assert str(caught.value).startswith(message)
    assert "\n" not in str(caught.value)


def test_the_cli_refuses_a_bad_probe_with_one_line_and_exit_2(tmp_path):
    data = json.loads(scene_json(Scene()))
    data["probes"] = [0, 999]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    result = clothlab_cli("run", str(path), "--steps", "1")
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert "probes.1: particle 999 is not below 165" in result.stderr


# --- undoable edits -------------------------------------------------------------------------


def test_adding_and_removing_a_probe_undo_and_redo_exactly():
    scene = load_preset("hanging-sheet")
    add_first = SetProbe(7, add=True, slot=0)
    add_second = SetProbe(160, add=True, slot=1)
    one = apply_to_document(scene, add_first)
    two = apply_to_document(one, add_second)
    assert two.probes == [7, 160]
    assert add_second.text == "Add probe 2"
    # remove probe 1: probe 2 moves up; undo puts it back in its place
    remove = SetProbe(7, add=False, slot=0)
    assert remove.text == "Remove probe 1"
    removed = apply_to_document(two, remove)
    assert removed.probes == [160]
    assert apply_to_document(removed, remove.inverse()) == two
    assert apply_to_document(apply_to_document(two, add_second.inverse()), add_second) == two
    assert apply_to_document(one, add_first.inverse()) == scene


def test_a_probe_edit_that_does_not_fit_is_refused():
    scene = load_preset("hanging-sheet").model_copy(update={"probes": [1, 2, 3, 4]})
    with pytest.raises(CommandError, match="at most 4 probes"):
        SetProbe(5, True, 4).fits(scene)
    with pytest.raises(CommandError, match="particle 1 has a probe already"):
        SetProbe(1, True, 0).check(165, 584) or SetProbe(1, True, 0).fits(scene)
    with pytest.raises(CommandError, match="particle 2 has no probe 1"):
        SetProbe(2, False, 0).fits(scene)
    with pytest.raises(CommandError, match="particle 165 is not within 0…164"):
        SetProbe(165, True, 0).check(165, 584)


def test_a_probe_added_during_a_replay_keeps_it_the_recordings_run():
    """A probe changes nothing the model computes: the replay stays exact (its seeks go on
    from kept states), and the probe reads the recorded run's positions."""
    lab = clothlab.open("hanging-sheet")
    lab.run(10)
    lab.grab(160, (0.5, -1.0, 0.6))
    lab.run(30)
    lab.release()
    lab.run(20)
    recording = lab.recording
    engine = Engine.of(recording)
    engine.advance(25)
    engine.apply(SetProbe(160, True, 0))
    assert engine.exact
    engine.advance(recording.steps - 25)
    assert engine.probe_readings()[0].y == lab.positions[160, 1]


def test_a_recording_keeps_probe_edits_and_replays_their_columns(tmp_path):
    lab = clothlab.open("hanging-sheet")
    lab.run(5)
    lab.add_probe(160)
    lab.run(5)
    lab.add_probe(7)
    lab.run(5)
    lab.remove_probe(160)
    lab.run(5)
    path = tmp_path / "probed.clothrec.json"
    lab.save_recording(path)
    recording = load_recording(path)
    kinds = [type(s.command).__name__ for s in recording.commands]
    assert kinds.count("SetProbe") == 3
    assert probe_slots(recording) == 2
    replayed = clothlab.open(str(path)).run()
    assert replayed["probe1_y"][3] != replayed["probe1_y"][3]  # NaN: not attached yet
    assert replayed["probe1_y"][7] == replayed["probe1_y"][7]
    # a recording whose removal names a probe the scene does not have is refused
    text = recording_json(recording).replace('"add":true', '"add":false', 1)
    with pytest.raises(SceneError, match="particle 160 has no probe 1"):
        parse_recording(text, "r.json")


# --- CSV and API columns --------------------------------------------------------------------


def test_run_csv_has_the_probes_columns_with_their_values(tmp_path):
    scene = load_preset("hanging-sheet").model_copy(update={"probes": [160, 7]})
    path, table = tmp_path / "probed.json", tmp_path / "r.csv"
    save_scene(scene, path)
    result = clothlab_cli("run", str(path), "--steps", "20", "--csv", str(table))
    assert result.returncode == 0, result.stderr
    rows = list(csv.reader(table.open()))
    header = rows[0]
    assert header[: len(CSV_HEADER)] == list(CSV_HEADER)
    assert header[len(CSV_HEADER) :] == [
        "probe1_y (units)", "probe1_speed (units/s)", "probe1_tension (mass*units/s^2)",
        "probe2_y (units)", "probe2_speed (units/s)", "probe2_tension (mass*units/s^2)",
    ]  # fmt: skip
    assert all(name.isascii() for name in header)
    keys = [column_key(name) for name in header]
    lab = clothlab.open(str(path))
    expected = lab.run(20)
    assert len(rows) == 1 + 21
    for key in ("probe1_y", "probe1_speed", "probe2_y", "probe2_speed"):
        written = np.array([float(r[keys.index(key)]) for r in rows[1:]])
        assert np.array_equal(written, expected[key])  # bit for bit, as the API's
    assert float(rows[1][keys.index("probe1_y")]) == scene_y(scene, 160)
    assert rows[-1][keys.index("probe2_speed")] != ""


def scene_y(scene: Scene, particle: int) -> float:
    lab = clothlab.open("hanging-sheet")
    lab.run(0)
    return float(lab.positions[particle, 1])


def test_run_csv_without_probes_has_the_usual_columns(tmp_path):
    table = tmp_path / "r.csv"
    result = clothlab_cli("run", "hanging-sheet", "--steps", "2", "--csv", str(table))
    assert result.returncode == 0, result.stderr
    assert next(csv.reader(table.open())) == list(CSV_HEADER)


def test_probe_columns_and_units():
    assert probes.column_keys(2) == (
        "probe1_y", "probe1_speed", "probe1_tension", "probe2_y", "probe2_speed", "probe2_tension",
    )  # fmt: skip
    assert probes.header_names(1, si=True)[2] == "probe1_tension (N)"
    assert probes.csv_cells([1.5, math.nan]) == ["1.5", ""]


# --- probes follow their particles when the bodies change ------------------------------------


def test_probes_follow_a_new_resolution_and_a_removed_body_with_undo():
    scene = load_preset("two-sheets")
    sheets = [b for b in scene.bodies if b.kind == "sheet"]
    assert len(sheets) == 2 and scene.bodies[0].cols * scene.bodies[0].rows == 165
    probed = scene.model_copy(update={"probes": [7, 165 + 3, 152]})
    # 15 × 11 → 5 × 4: probe 1 at the top edge's middle stays there, probe 3 at row 10 col 2
    # goes to row 3 col 1; the second sheet's probe moves down by the particles the first lost
    coarser = composition.change_body(probed, 0, cols=5, rows=4)
    assert coarser.scene.probes == [2, 20 + 3, 3 * 5 + 1]
    edit = composition.edit_of(probed, coarser)
    assert edit.after["probes"] == [2, 23, 16] and edit.before["probes"] == [7, 168, 152]
    assert apply_to_document(apply_to_document(probed, edit), edit.inverse()) == probed
    # a removed body takes its probes with it; the others keep their order
    removed = composition.remove_body(probed, 0).scene
    assert removed.probes == [3]
    parse_scene(scene_json(removed))  # the scene after is a valid one


def test_run_with_a_new_resolution_keeps_the_probes_on_the_sheet(tmp_path):
    scene = load_preset("hanging-sheet").model_copy(update={"probes": [7, 152]})
    path, table = tmp_path / "probed.json", tmp_path / "r.csv"
    save_scene(scene, path)
    result = clothlab_cli(
        "run", str(path), "--set", "resolution=5x4", "--steps", "2", "--csv", str(table)
    )
    assert result.returncode == 0, result.stderr
    header = next(csv.reader(table.open()))
    assert "probe2_speed (units/s)" in header
