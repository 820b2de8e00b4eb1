"""Variants (sim.lab.variants) and the commands built on them: `clothlab run --replay` and
`clothlab compare`. The CLI is run as a user runs it, in a subprocess."""

from __future__ import annotations

import csv
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from cli_helpers import clothlab_in_process

from clothlab.sim.core import readouts
from clothlab.sim.core.readouts import CSV_COLUMNS, CSV_HEADER
from clothlab.sim.document.commands import (
    GrabMove,
    GrabRelease,
    GrabStart,
    Stamped,
    apply_to_simulation,
)
from clothlab.sim.document.edits import CutLinks, SetPin, SetSetting
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.recording import Recording, load_recording, save_recording
from clothlab.sim.document.scene import build_simulation, load_scene, save_scene, with_settings
from clothlab.sim.lab import variants
from clothlab.sim.lab.engine import Engine, replay
from clothlab.sim.lab.variants import VariantError, run_variant

ROOT = Path(__file__).resolve().parents[3]
MAIN = [sys.executable, "-m", "clothlab.app.main"]
STEPS = 40


clothlab = clothlab_in_process


def one_error_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2, (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr
    (line,) = result.stderr.splitlines()
    assert line.startswith("clothlab: error: ")
    return line


def a_recording() -> Recording:
    """A grab, a live setting, a cut and a pin moved, some of them at the same step."""
    commands = (
        Stamped(0, SetSetting("wind", 2.0, 0.0)),
        Stamped(5, GrabStart(150, (-0.5, -1.2, 0.5))),
        Stamped(8, GrabMove((-0.6, -1.2, 0.5))),
        Stamped(12, GrabRelease()),
        Stamped(12, CutLinks((3, 4, 5))),
        Stamped(20, SetPin(14, None, (1.4, 1.0, 0.0))),
    )
    return Recording(load_preset("hanging-sheet"), commands, STEPS)


@pytest.fixture
def recording_file(tmp_path: Path) -> Path:
    path = tmp_path / "run.clothlab-recording.json"
    save_recording(a_recording(), path)
    return path


def live_run(recording: Recording, steps: int) -> np.ndarray:
    """The recording played by hand: each command applied once the model has taken its
    step, one step at a time, as the app's solver thread does."""
    sim = build_simulation(recording.scene)
    due = list(recording.commands)
    for step in range(steps + 1):
        while due and due[0].step == step:
            apply_to_simulation(sim, due.pop(0).command)
        if step < steps:
            assert sim.step() == 1
    return sim.state.x


# --- the model -------------------------------------------------------------------------------


def test_the_engine_replays_a_recording_bit_for_bit_one_step_at_a_time_or_all_at_once():
    recording = a_recording()
    engine = Engine.of(recording)
    while engine.steps < STEPS:
        assert engine.advance(1) == 1
    assert np.array_equal(engine.sim.state.x, replay(recording.journal, STEPS).state.x)
    assert np.array_equal(engine.sim.state.x, live_run(recording, STEPS))
    assert engine.sim.settings.wind == 2.0 and engine.sim.links.count == 584 - 3


def test_changes_apply_as_set_pairs_one_by_one():
    """A repeated key counts where it last stands, so a fabric and a setting it also sets
    override each other in the order given, as `--set` does."""
    scene = load_preset("hanging-sheet")

    def passes(*pairs: str) -> int:
        return variants.apply_changes(scene, variants.parse_changes(pairs)).solver.passes

    assert passes("passes=4", "fabric=silk") == 1  # silk takes one pass of many substeps
    assert passes("fabric=silk", "passes=4") == 4
    assert passes("passes=4", "fabric=silk", "passes=8") == 8
    reshaped = variants.apply_changes(scene, {"resolution": (9, 4), "wind": 3.0})
    assert (reshaped.bodies[0].cols, reshaped.bodies[0].rows) == (9, 4)
    assert reshaped.wind.strength == 3.0


def test_a_variant_runs_as_its_scene_with_the_settings_set():
    scene = load_preset("hanging-sheet")
    result = run_variant(scene, {"passes": 3, "stiffness": 0.5}, 25)
    sim = build_simulation(with_settings(scene, {"passes": 3, "stiffness": 0.5}))
    rows = [readouts.row(0, sim.readouts())]
    for step in range(1, 26):
        sim.step()
        rows.append(readouts.row(step, sim.readouts()))
    assert result.status == "ok" and result.steps == 25
    assert result.rows == tuple(rows)  # every step's readouts, the same floats
    assert result.final_row == rows[-1]
    quiet = run_variant(scene, {"passes": 3, "stiffness": 0.5}, 25, keep_rows=False)
    assert quiet.rows == () and quiet.final_row == rows[-1]  # measuring changes nothing


def test_a_failing_variant_is_a_result_not_an_exception():
    scene = load_preset("hanging-sheet")
    too_fine = run_variant(scene, {"cols": 512, "width": 0.01}, 5)
    assert too_fine.failure.startswith("bad value: ") and too_fine.final is None
    falling = with_settings(load_preset("drop"), {"floor": False, "dt": 0.05, "damping": 1.0})
    blown = run_variant(falling, {"gravity": 100.0}, 2100, keep_rows=False)
    assert blown.failure.startswith("blew up at step ") and "faster than" in blown.detail
    stopped = run_variant(scene, {}, 100, should_stop=lambda: True)
    assert stopped.failure == "interrupted" and stopped.steps == 0


def test_a_recording_refuses_a_change_of_resolution_but_takes_settings():
    recording = a_recording()
    with pytest.raises(VariantError, match="cols"):
        variants.changed(recording, {"cols": 9})
    changed = variants.changed(recording, {"passes": 3, "width": 2.0})
    assert changed.commands == recording.commands and changed.scene.solver.passes == 3


def test_a_grid_is_every_combination_first_axis_slowest():
    axes = [variants.parse_axis("passes=4,8"), variants.parse_axis("xpbd=off, on")]
    grid = variants.grid(axes)
    assert [v.name for v in grid] == [
        "passes=4,xpbd=off", "passes=4,xpbd=on", "passes=8,xpbd=off", "passes=8,xpbd=on",
    ]  # fmt: skip
    assert grid[1].changes == {"passes": 4, "xpbd": True}
    assert grid[1].given == {"passes": "4", "xpbd": "on"}


@pytest.mark.parametrize(
    "texts, fragment",
    [
        (["passes"], "expected KEY=V1,V2"),
        (["passes="], "no values"),
        (["passes=4,,8"], "an empty value"),
        (["passes=4,x"], "expected an integer"),
        (["colour=red"], "unknown setting"),
        (["passes=4", "passes=8"], "varied twice"),
        (["passes=" + ",".join(map(str, range(1, 18))), "damping=" + ",".join(["0.9"] * 16)],
         "17 × 16 = 272 variants"),
    ],
)  # fmt: skip
def test_a_bad_grid_is_one_line(texts, fragment):
    with pytest.raises(VariantError, match=fragment) as caught:
        variants.grid([variants.parse_axis(text) for text in texts])
    assert "\n" not in str(caught.value)


# --- clothlab run --replay -------------------------------------------------------------------


def test_run_replay_equals_replay_and_a_live_run(tmp_path, recording_file):
    positions, table, saved = tmp_path / "x.npy", tmp_path / "r.csv", tmp_path / "end.json"
    result = clothlab("run", str(recording_file), "--replay", "--positions", str(positions),
                      "--csv", str(table), "--save", str(saved))  # fmt: skip
    assert result.returncode == 0, result.stderr
    recording = load_recording(recording_file)
    x = np.load(positions)
    assert np.array_equal(x, replay(recording.journal, STEPS).state.x)  # bit for bit
    assert np.array_equal(x, live_run(recording, STEPS))
    rows = list(csv.reader(table.open()))
    assert rows[0] == list(CSV_HEADER) and [int(r[0]) for r in rows[1:]] == list(range(41))
    links = CSV_COLUMNS.index("links")
    assert rows[1 + 11][links] == "584" and rows[1 + 12][links] == "581"  # cut at step 12
    end = load_scene(saved)  # the document after every command: the cut, the pin, the wind
    assert end.cuts == [3, 4, 5] and end.wind.strength == 2.0
    assert 14 not in {p.particle for p in end.pins}


def test_run_replay_takes_longer_steps_and_settings(tmp_path, recording_file):
    positions = tmp_path / "x.npy"
    result = clothlab("run", str(recording_file), "--replay", "--steps", "60",
                      "--set", "passes=3", "--positions", str(positions))  # fmt: skip
    assert result.returncode == 0, result.stderr
    recording = variants.changed(load_recording(recording_file), {"passes": 3})
    assert np.array_equal(np.load(positions), replay(recording.journal, 60).state.x)


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["run", "hanging-sheet", "--replay"], "is a scene, not a recording"),
        (["run", "{rec}"], "is a recording: play it with --replay"),
        (["run", "{rec}", "--replay", "--steps", "19"], "before the recording's last command"),
        (["run", "{rec}", "--replay", "--set", "cols=9"], "--set cols"),
        (["run", "{rec}", "--replay", "--seam"], "--seam"),
    ],
)
def test_replay_bad_input_is_one_line_and_writes_nothing(tmp_path, recording_file, args, fragment):
    out = tmp_path / "out.csv"
    args = [a.replace("{rec}", str(recording_file)) for a in args]
    line = one_error_line(clothlab(*args, "--csv", str(out)))
    assert fragment in line and not out.exists()


# --- clothlab compare ------------------------------------------------------------------------


def run_csv(tmp_path: Path, name: str, *args: str) -> list[str]:
    table = tmp_path / f"{name}.csv"
    result = clothlab("run", *args, "--csv", str(table))
    assert result.returncode == 0, result.stderr
    return table.read_text().splitlines()


def compare_blocks(table: Path) -> dict[str, list[str]]:
    """The compare CSV's lines by variant, each without its variant cell."""
    lines = table.read_text().splitlines()
    assert lines[0] == "variant," + ",".join(CSV_HEADER)
    blocks: dict[str, list[str]] = {}
    for line, cells in zip(lines[1:], csv.reader(lines[1:]), strict=True):
        lead = f'"{cells[0]}",' if "," in cells[0] else f"{cells[0]},"
        assert line.startswith(lead)
        blocks.setdefault(cells[0], []).append(line.removeprefix(lead))
    return blocks


def test_compare_rows_equal_separate_runs_byte_for_byte(tmp_path):
    table = tmp_path / "compare.csv"
    variants_given = ["--variant", "passes=4", "--variant", "passes=16,xpbd=on"]
    result = clothlab("compare", "hanging-sheet", *variants_given, "--steps", "30",
                      "--csv", str(table))  # fmt: skip
    assert result.returncode == 0, result.stderr
    blocks = compare_blocks(table)
    assert list(blocks) == ["as is", "passes=4", "passes=16,xpbd=on"]  # the baseline first
    base = ["hanging-sheet", "--steps", "30"]
    assert blocks["as is"] == run_csv(tmp_path, "a", *base)[1:]
    assert blocks["passes=4"] == run_csv(tmp_path, "b", *base, "--set", "passes=4")[1:]
    both = run_csv(tmp_path, "c", *base, "--set", "passes=16", "--set", "xpbd=on")[1:]
    assert blocks["passes=16,xpbd=on"] == both
    table_lines = result.stdout.splitlines()  # a column per variant, a row per readout
    assert table_lines[0].split() == ["as", "is", "passes=4", "passes=16,xpbd=on"]
    assert table_lines[1].split() == ["status", "ok", "ok", "ok"]
    assert table_lines[2].split() == ["steps", "30", "30", "30"]


def test_compare_a_recording_replays_it_in_every_variant(tmp_path, recording_file):
    table = tmp_path / "compare.csv"
    result = clothlab("compare", str(recording_file), "--variant", "passes=3",
                      "--csv", str(table))  # fmt: skip
    assert result.returncode == 0, result.stderr
    blocks = compare_blocks(table)
    assert len(blocks["as is"]) == STEPS + 1  # the recording's own length
    replayed = run_csv(tmp_path, "a", str(recording_file), "--replay", "--set", "passes=3")
    assert blocks["passes=3"] == replayed[1:]
    assert blocks["as is"] == run_csv(tmp_path, "b", str(recording_file), "--replay")[1:]


@pytest.mark.parametrize(
    "args, fragment",
    [
        ([], "--variant: give at least one"),
        (["--variant", "passes=4"] * 5, "--variant: 5 given, at most 4"),
        (["--variant", "colour=red"], "--variant colour: unknown setting"),
        (["--variant", "passes=zero"], "--variant passes: expected an integer"),
        (["--variant", "passes=4,"], "expected KEY=VALUE pairs"),
        (["--variant", "passes"], "--variant passes: expected KEY=VALUE"),
        (["--variant", "cols=512,width=0.01"], "--variant cols=512,width=0.01: "),
        (["--variant", "passes=4", "--steps", "-1"], "--steps"),
    ],
)
def test_compare_bad_input_is_one_line_and_writes_nothing(tmp_path, args, fragment):
    out = tmp_path / "out.csv"
    line = one_error_line(clothlab("compare", "hanging-sheet", *args, "--csv", str(out)))
    assert fragment in line and not out.exists()


def test_compare_reports_a_variant_that_blew_up_and_runs_the_rest(tmp_path):
    falling = tmp_path / "falling.json"
    save_scene(with_settings(load_preset("drop"), {"floor": False, "dt": 0.05, "damping": 1.0}),
               falling)  # fmt: skip
    table = tmp_path / "compare.csv"
    result = clothlab("compare", str(falling), "--variant", "gravity=100", "--steps", "2100",
                      "--csv", str(table))  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "gravity=100: The model became unstable at step 2000" in result.stderr
    status = result.stdout.splitlines()[1].split()
    assert status[:2] == ["status", "ok"] and "blew" in status
    blocks = compare_blocks(table)
    assert len(blocks["as is"]) == 2101 and len(blocks["gravity=100"]) == 2001  # to step 2000


def test_compare_ctrl_c_keeps_the_rows_finished(tmp_path):
    table = tmp_path / "rows.csv"
    process = subprocess.Popen(
        [*MAIN, "compare", "hanging-sheet", "--variant", "passes=4", "--steps", "10000000",
         "--csv", str(table)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while not any(p.stat().st_size > 0 for p in tmp_path.glob(".rows.csv.*.tmp")):
            assert time.monotonic() < deadline and process.poll() is None
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=120)
    finally:
        process.kill()
    assert process.returncode == 130, stderr
    (line,) = stderr.splitlines()
    assert line.startswith("clothlab: interrupted in variant 1 of 2 (as is) after step ")
    rows = list(csv.reader(table.open()))
    last = int(line.split()[11])
    assert line.endswith(f"; {last + 1} rows written to {table}")
    assert [int(r[1]) for r in rows[1:]] == list(range(last + 1))
    assert {r[0] for r in rows[1:]} == {"as is"} and stdout == ""
