"""Hostile recordings and question sets: each is refused with one
line naming the file and the field (the CLI: `error: …`, exit 2), never a traceback; and a
recording is validated as a whole, so that what `--save` writes is what the replay simulated
and opens again.

The inputs are made here from a real recording of the hanging sheet, one change each."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import clothlab_in_process

from clothlab.sim.document import composition
from clothlab.sim.document.commands import GrabStart, SetSetting, Stamped
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.recording import (
    Recording,
    load_recording,
    recording_json,
    save_recording,
)
from clothlab.sim.document.scene import SceneError, body_counts, load_scene
from clothlab.sim.lab.engine import Engine
from clothlab.sim.lab.questions import QuestionSetError, load_question_set

ROOT = Path(__file__).resolve().parents[3]
MAIN = [sys.executable, "-m", "clothlab.app.main"]
HUGE = 10**400  # a JSON integer no float holds: float() of it is an OverflowError


def base() -> dict[str, Any]:
    return json.loads(recording_json(Recording(load_preset("hanging-sheet"), (), 20)))


def with_command(entry: dict[str, Any]) -> dict[str, Any]:
    document = base()
    document["commands"] = [{"step": 1, **entry}]
    return document


def sheet() -> dict[str, Any]:
    return base()["scene"]["bodies"][0]


def coarser_sheet() -> dict[str, Any]:
    other = copy.deepcopy(sheet())
    other["cols"], other["rows"] = 4, 3
    return other


def edit_scene(after: dict[str, Any], before: dict[str, Any]) -> dict[str, Any]:
    return {"type": "edit_scene", "text": "Edit", "after": after, "before": before}


def pinned_twice() -> list[dict[str, Any]]:
    return [{"particle": 0, "anchor": [0.0, 0.0, 0.0]}, {"particle": 0, "anchor": [1.0, 0.0, 0.0]}]


# name → (the recording's JSON, a fragment of the one line that refuses it)
HOSTILE_RECORDINGS: dict[str, tuple[Callable[[], dict[str, Any]], str]] = {
    "edit_scene: bodies emptied": (
        lambda: with_command(edit_scene({"bodies": []}, {"bodies": [sheet()]})),
        "commands.0: Edit: a change of bodies must start afresh",
    ),
    "edit_scene: bodies empty before and after": (
        lambda: with_command(edit_scene({"bodies": []}, {"bodies": []})),
        "commands.0: Edit: its bodies before are not the scene's there",
    ),
    "edit_scene: other bodies than the scene's, before and after alike": (
        lambda: with_command(
            edit_scene({"bodies": [coarser_sheet()]}, {"bodies": [coarser_sheet()]})
        ),
        "commands.0: Edit: its bodies before are not the scene's there",
    ),
    "edit_scene: a particle pinned twice": (
        lambda: with_command(edit_scene({"pins": pinned_twice()}, {"pins": []})),
        "commands.0: the scene after it: pins: a particle is pinned twice",
    ),
    "set_setting: a 401-digit stiffness": (
        lambda: with_command(
            {"type": "set_setting", "key": "stiffness", "value": HUGE, "previous": 1.0}
        ),
        "commands.0: stiffness: an integer of about 400 digits is not a finite number",
    ),
    "set_setting: a 401-digit previous": (
        lambda: with_command(
            {"type": "set_setting", "key": "stiffness", "value": 0.5, "previous": HUGE}
        ),
        "commands.0: stiffness (previous): an integer of about 400 digits",
    ),
    "set_setting: a 401-digit time step": (
        lambda: with_command({"type": "set_setting", "key": "dt", "value": HUGE, "previous": 0.01}),
        "commands.0: dt: an integer of about 400 digits is not a finite number",
    ),
    "set_setting: a 401-digit ball centre": (
        lambda: with_command(
            {
                "type": "set_setting",
                "key": "ball_center",
                "value": [0, HUGE, 0],
                "previous": [0, 0, 0],
            }
        ),
        "commands.0",
    ),
    "set_setting: a 401-digit pass count": (
        lambda: with_command(
            {"type": "set_setting", "key": "passes", "value": HUGE, "previous": 8}
        ),
        "commands.0: passes: an integer of about 400 digits is outside 1…200",
    ),
}


def assert_one_line(message: str, fragment: str, path: Path) -> None:
    assert "\n" not in message and "Traceback" not in message
    assert str(path) in message and fragment in message, message


@pytest.mark.parametrize("name", HOSTILE_RECORDINGS)
def test_a_hostile_recording_is_refused_in_one_line(name, tmp_path):
    make, fragment = HOSTILE_RECORDINGS[name]
    path = tmp_path / "hostile.clothrec.json"
    path.write_text(json.dumps(make()))
    with pytest.raises(SceneError) as refused:  # what the app's Open recording shows
        load_recording(path)
    assert_one_line(str(refused.value), fragment, path)


@pytest.mark.parametrize("name", HOSTILE_RECORDINGS)
def test_the_cli_refuses_a_hostile_recording_with_exit_2_and_one_line(name, tmp_path):
    make, fragment = HOSTILE_RECORDINGS[name]
    path = tmp_path / "hostile.clothrec.json"
    path.write_text(json.dumps(make()))
    saved = tmp_path / "saved.json"
    result = clothlab_in_process("run", "--replay", str(path), "--save", str(saved))
    assert result.returncode == 2, result.stderr
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("clothlab: error: ")
    assert_one_line(line, fragment, path)
    assert not saved.exists()


# --- question sets -------------------------------------------------------------------------

LAB_SET = ROOT / "resources" / "questions" / "lab.json"
HOSTILE_QUESTION_SETS = {  # name → (text replaced, its replacement, a fragment of the line)
    "now_try": ('"value": 1.0', f'"value": {HUGE}', "now_try.0.value: friction_static: an"),
    "set": (
        '"set": {"friction_static": 1.0}',
        f'"set": {{"friction_static": {HUGE}}}',
        "set: friction_static: an integer of about 400 digits",
    ),
}


@pytest.mark.parametrize("name", HOSTILE_QUESTION_SETS)
def test_a_question_set_with_a_401_digit_setting_is_refused_in_one_line(name, tmp_path):
    old, new, fragment = HOSTILE_QUESTION_SETS[name]
    text = LAB_SET.read_text()
    assert old in text
    path = tmp_path / "hostile.json"
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(QuestionSetError) as refused:  # what the app's Open question set shows
        load_question_set(path)
    assert_one_line(str(refused.value), fragment, path)
    result = clothlab_in_process("questions", str(path))
    assert result.returncode == 2 and result.stderr.startswith("clothlab: error: ")
    assert len(result.stderr.strip().splitlines()) == 1


# --- item 9: what --save writes is what the replay simulated, and opens again -------------------


def test_a_recording_of_live_composition_edits_saves_a_scene_that_reopens(tmp_path):
    """A material change and a pin set, as the app records them: `--save` writes the bodies the
    replay simulated, and the scene opens again."""
    scene = load_preset("hanging-sheet")
    engine = Engine(scene, record_every=0)
    engine.advance(10)
    silk = composition.change_body(scene, 0, material="silk")
    engine.apply(composition.edit_of(scene, silk))
    engine.advance(10)
    pinned = composition.pin_set(silk.scene, 0, "top edge")
    engine.apply(composition.edit_of(silk.scene, pinned))
    engine.apply(SetSetting("wind", 2.0, 0.0))
    engine.apply(GrabStart(160, (0.5, -1.0, 0.6)))
    engine.advance(10)
    path = tmp_path / "live.clothrec.json"
    save_recording(engine.recording(), path)
    assert load_recording(path).commands == tuple(engine.recording().commands)

    saved = tmp_path / "saved.json"
    result = clothlab_in_process("run", "--replay", str(path), "--save", str(saved))
    assert result.returncode == 0, result.stderr
    reopened = load_scene(saved)
    assert body_counts(reopened.bodies) == (engine.sim.topology.particle_count,
                                            engine.sim.topology.link_count)  # fmt: skip
    assert reopened.bodies[0].material == "silk" and len(reopened.pins) == len(pinned.scene.pins)
    assert reopened.wind.strength == 2.0


def test_a_recording_that_restarts_in_the_middle_is_refused_not_saved(tmp_path):
    """The journal of a recording may not hold a restart: its entries would not be the
    model the replay simulates (Stamped edit of a change of resolution)."""
    scene = load_preset("hanging-sheet")
    finer = composition.change_body(scene, 0, cols=30, rows=22)
    recording = Recording(scene, (Stamped(5, composition.edit_of(scene, finer)),), 10)
    path = tmp_path / "restart.clothrec.json"
    with pytest.raises((SceneError, ValueError)):
        save_recording(recording, path)
        load_recording(path)


# --- paths through a loop of symbolic links ------------------------------------------------


def looping_question_set(folder: Path) -> list[str]:
    """A question set whose first question's scene is a file through a symbolic link loop."""
    text = LAB_SET.read_text().replace('"scene": "drop"', '"scene": "loop/drop.json"', 1)
    (folder / "set.json").write_text(text)
    return ["questions", str(folder / "set.json")]


LOOPS: dict[str, Callable[[Path], list[str]]] = {
    "a question set's scene reference": looping_question_set,
    "--obj-dir": lambda folder: [
        "run",
        "hanging-sheet",
        "--steps",
        "2",
        "--obj-dir",
        str(folder / "loop" / "frames"),
    ],
    "--screenshot": lambda folder: ["--screenshot", str(folder / "loop" / "shot.png")],
    "a scene file": lambda folder: ["run", str(folder / "loop"), "--steps", "2"],
    "a recording": lambda folder: ["run", "--replay", str(folder / "loop"), "--steps", "2"],
}


@pytest.mark.parametrize("name", LOOPS)
def test_a_path_through_a_symbolic_link_loop_is_one_line_and_exit_2(name, tmp_path):
    (tmp_path / "loop").symlink_to("loop")
    args = LOOPS[name](tmp_path)
    result = clothlab_in_process(*args)
    assert result.returncode == 2, result.stderr
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("clothlab: error: ") and "symbolic links" in line, line


# --- sweep results (File ▸ Open sweep results shows the one line in a dialog) -----------------


def sweep_csv(newline: str, first_cell: str = "4") -> str:
    from clothlab.sim.core.readouts import CSV_COLUMNS

    header = ["passes", "status", *CSV_COLUMNS]
    rows = [
        [first_cell, "ok", *("1.5" for _ in CSV_COLUMNS)],
        ["8", "ok", *("2.5" for _ in CSV_COLUMNS)],
    ]
    return newline.join(",".join(cells) for cells in (header, *rows)) + newline


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_sweep_results_read_with_any_line_ending(newline, tmp_path):
    from clothlab.sim.lab.sweep_results import load_sweep_results

    path = tmp_path / "sweep.csv"
    path.write_bytes(sweep_csv(newline).encode())
    results = load_sweep_results(path)
    assert results.keys == ("passes",) and [r.values["passes"] for r in results.rows] == ["4", "8"]
    assert results.rows[1].readouts["sag"] == 2.5


def test_sweep_results_with_a_cell_past_the_csv_limit_are_refused_in_one_line(tmp_path):
    from clothlab.sim.lab.sweep_results import SweepResultsError, load_sweep_results

    path = tmp_path / "sweep.csv"
    path.write_text(sweep_csv("\n", first_cell="4" * 131_073))
    with pytest.raises(SweepResultsError) as refused:
        load_sweep_results(path)
    assert_one_line(str(refused.value), "not a sweep's results (field larger than", path)


# --- special files given to --replay ---------------------------------------

SPECIAL_FILES: dict[str, tuple[Callable[[Path], Any], str]] = {  # name → (make it, its kind)
    "pipe": (os.mkfifo, "a FIFO (named pipe)"),
    "sub": (Path.mkdir, "a folder"),
}


@pytest.mark.parametrize("name", SPECIAL_FILES)
def test_replay_of_a_special_file_says_it_is_not_a_recording_file(name, tmp_path):
    make, kind = SPECIAL_FILES[name]
    path = tmp_path / name
    make(path)
    # a subprocess: one that opened a FIFO to read it would hang, and its timeout ends it
    result = subprocess.run([*MAIN, "run", "--replay", str(path)], capture_output=True,
                            text=True, cwd=ROOT, timeout=300)  # fmt: skip
    assert result.returncode == 2
    assert result.stderr.strip() == f"clothlab: error: {path}: is {kind}, not a recording file"
