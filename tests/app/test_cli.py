"""The headless command line, run as the console script runs it, reading its output (in this
process: tests/cli_helpers.py)."""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from cli_helpers import clothlab_in_process
from sim_helpers import WIRING_MESHES

from clothlab.app import cli
from clothlab.sim.core.readouts import CSV_COLUMNS, CSV_HEADER, column_key
from clothlab.sim.document.presets import preset_names
from clothlab.sim.lab import textile

ROOT = Path(__file__).resolve().parents[2]


clothlab = clothlab_in_process


def readouts(stdout: str) -> dict[str, str]:
    return dict(line.split(None, 1) for line in stdout.splitlines() if line.strip())


def test_scenes_lists_every_preset_one_line_each():
    result = clothlab("scenes")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines] == preset_names()
    assert lines[0].startswith("hanging-sheet")


def test_the_apps_help_names_the_headless_commands():
    result = clothlab("--help")
    assert result.returncode == 0 and "usage: clothlab" in result.stdout
    assert "{run,compare,sweep,scenes,bench,questions,validate,warm-up}" in result.stdout


def test_run_writes_csv_positions_and_scene(tmp_path):
    table, positions, saved = tmp_path / "r.csv", tmp_path / "x.npy", tmp_path / "s.json"
    result = clothlab(
        "run", "hanging-sheet", "--steps", "30", "--seam", "--set", "passes=4",
        "--csv", str(table), "--positions", str(positions), "--save", str(saved),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    values = readouts(result.stdout)
    assert values["steps"] == "30"
    assert values["links"] == str(584 - 31)

    rows = list(csv.reader(table.open()))
    assert rows[0] == list(CSV_HEADER)  # the same columns as the app's export, with units
    header = [column_key(name) for name in rows[0]]
    assert header == list(CSV_COLUMNS)
    assert header[:2] == ["step", "t"] and {"sag", "volume", "motion", "max_stretch"} <= set(header)
    assert len(rows) == 1 + 31  # row 0 is the initial state
    links = header.index("links")
    assert rows[1][0] == "0" and rows[1][links] == "553"  # the seam cut is already in row 0
    assert rows[1][header.index("volume")] == ""  # no block, no volume
    assert float(rows[-1][1]) == pytest.approx(30 / 120)

    x = np.load(positions, allow_pickle=False)
    assert x.shape == (165, 3) and x.dtype == np.float64
    assert np.allclose(x[0], [-1.4, 1.0, 0.0]) and np.allclose(x[14], [1.4, 1.0, 0.0])

    scene = json.loads(saved.read_text())
    assert len(scene["cuts"]) == 31 and scene["solver"]["passes"] == 4


def test_saved_scene_runs_to_the_same_positions(tmp_path):
    first, again = tmp_path / "a.npy", tmp_path / "b.npy"
    saved = tmp_path / "edited.json"
    assert clothlab("run", "hanging-sheet", "--seam", "--steps", "0", "--save", str(saved),
                    "--set", "wind=3").returncode == 0  # fmt: skip
    assert clothlab("run", "hanging-sheet", "--seam", "--steps", "50", "--set", "wind=3",
                    "--positions", str(first)).returncode == 0  # fmt: skip
    assert clothlab("run", str(saved), "--steps", "50", "--positions", str(again)).returncode == 0
    assert np.array_equal(np.load(first), np.load(again))


def test_soft_block_reports_volume():
    values = readouts(clothlab("run", "soft-block", "--steps", "1").stdout)
    assert float(values["volume"]) == pytest.approx(0.512, rel=1e-3)
    assert values["sag"] == "-"


def test_a_readout_that_means_nothing_for_the_scene_prints_a_dash():
    """A cantilever hangs from no top corners: "sag 0" where the window
    leaves the plot out."""
    values = readouts(clothlab("run", "cantilever", "--steps", "1").stdout)
    assert values["sag"] == "-" and values["pin_force"] != "-"
    assert float(values["bending_length"]) > 0


@pytest.mark.parametrize(
    "size, left, right",
    [
        ([], -1.4, 1.2),  # a new resolution keeps the sheet's 2.8 × 2.0 units
        (["--set", "width=1.6", "--set", "height=0.6"], -0.8, 0.6),  # and a new size with it
    ],
)
def test_resize_and_pin_shift_keep_corner_pins(tmp_path, size, left, right):
    positions = tmp_path / "x.npy"
    result = clothlab(
        "run", "hanging-sheet", "--steps", "5", "--set", "cols=9", "--set", "rows=4", *size,
        "--set", "pin_shift=0.2", "--positions", str(positions),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    x = np.load(positions)
    assert x.shape == (36, 3)
    assert np.allclose(x[0], [left, 1.0, 0.0]) and np.allclose(x[8], [right, 1.0, 0.0])


@pytest.mark.parametrize(
    "args, names",
    [
        (["run", "no-such-scene"], "no-such-scene"),
        (["run", "missing/file.json"], "missing/file.json"),
        (["run", "hanging-sheet", "--set", "passes=zero"], "passes"),
        (["run", "hanging-sheet", "--set", "stiffness=2"], "stiffness"),
        (["run", "hanging-sheet", "--set", "gravity=nan"], "gravity"),
        (["run", "hanging-sheet", "--set", "colour=red"], "colour"),
        (["run", "hanging-sheet", "--set", "ball"], "ball"),
        (["run", "hanging-sheet", "--set", "ball=maybe"], "ball"),
        (["run", "hanging-sheet", "--set", "cols=1"], "cols"),
        (["run", "hanging-sheet", "--steps", "-1"], "--steps"),
        (["run", "hanging-sheet", "--steps", "many"], "--steps"),
        (["run", "soft-block", "--seam"], "--seam"),
        (["bench", "--grid", "12by4"], "--grid"),
        (["run", "cusick-drape", "--set", "specimen=0"], "specimen"),
        (["run", "cusick-drape", "--set", "specimen=2.5"], "specimen"),
        (["validate", "--specimens", "0"], "--specimens"),
        (["validate", "--specimens", "three"], "--specimens"),
        (["validate", "--fabric", "burlap"], "burlap"),
        (["validate", "--test", "crease"], "crease"),
        (["validate", "--own", "colour=red"], "--own"),
        (["validate", "--own", "bending_bias=1e-9"], "bending_bias"),  # refused before a run
        (["validate", "--csv", "no-such-folder/checks.csv"], "no-such-folder"),
        (["warm-up", "--jobs", "0"], "--jobs: 0 is outside 1…64"),
    ],
)
def test_bad_input_exits_2_with_one_line(args, names):
    result = clothlab(*args)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert names in result.stderr


def test_validate_prints_a_line_a_check_writes_them_as_csv_and_exits_0_when_all_pass(tmp_path):
    table = tmp_path / "checks.csv"
    tests = ("--test", "cantilever", "--test", "hanging-strip")
    result = clothlab("validate", "--fabric", "denim", *tests, "--csv", str(table))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert [line.split()[:3] for line in lines] == [
        ["PASS", "denim", "cantilever"], ["PASS", "denim", "hanging-strip"]
    ]  # fmt: skip
    rows = list(csv.reader(table.open()))
    assert [row[:2] for row in rows[1:]] == [["denim", "cantilever"], ["denim", "hanging-strip"]]
    assert [row[8] for row in rows[1:]] == ["True", "True"]


def test_validate_drapes_several_specimens_a_mesh_and_holds_their_mean_to_the_band(
    monkeypatch, capsys
):
    """Two specimens a mesh: the line gives each mesh's range of the two, and the coefficient it
    holds to the band is their mean (with two, the middle of the range). On the coarse meshes
    of the wiring tests (sim_helpers.WIRING_MESHES): what is checked is how the command
    averages; the check's own meshes are the README's `validate --fabric cotton`."""
    monkeypatch.setattr(textile, "CHECK_COLS", WIRING_MESHES)
    status = cli.main(
        ["validate", "--fabric", "silk", "--test", "cusick-drape", "--specimens", "2"]
    )
    (line,) = capsys.readouterr().out.splitlines()
    verdict, fabric, *_ = line.split()
    assert (verdict, fabric, status) in (("PASS", "silk", 0), ("FAIL", "silk", 1)), line
    ranges = re.findall(r"2 specimens ([\d.]+)…([\d.]+) %", line)
    assert len(ranges) == 2, line  # each mesh's
    coarse = float(re.search(r"drape coefficient ([\d.]+) %", line)[1])
    fine = float(re.search(r"31 across: ([\d.]+) %", line)[1])
    for mean, (low, high) in zip((coarse, fine), ranges, strict=True):
        assert mean == pytest.approx((float(low) + float(high)) / 2, abs=0.06), line
    low, high = map(float, re.search(r"published: ([\d.]+)…([\d.]+) %", line).groups())
    apart = abs(coarse - fine) > textile.MESH_AGREEMENT
    assert (verdict == "PASS") is (low <= coarse <= high and low <= fine <= high and not apart)


@pytest.mark.parametrize(
    "content",
    [b"", b"{", b"\x00\xff\xfe binary", b'{"format": "clothlab-scene", "schema_version": 1, '
     b'"bodies": [{"kind": "sheet", "cols": "15"}]}', b"[1, 2, 3]"],
)  # fmt: skip
def test_corrupt_file_names_the_file_and_writes_nothing(tmp_path, content):
    scene = tmp_path / "bad.json"
    scene.write_bytes(content)
    out = tmp_path / "out.csv"
    result = clothlab("run", str(scene), "--csv", str(out), "--save", str(tmp_path / "s.json"))
    assert result.returncode == 2
    assert str(scene) in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert not out.exists() and not (tmp_path / "s.json").exists()


def test_invalid_field_is_named_by_path(tmp_path):
    scene = tmp_path / "bad.json"
    scene.write_text('{"format": "clothlab-scene", "schema_version": 1, "solver": {"passes": 0}}')
    result = clothlab("run", str(scene))
    assert result.returncode == 2 and "solver.passes" in result.stderr


def test_output_into_missing_folder_is_refused_before_running(tmp_path):
    result = clothlab("run", "hanging-sheet", "--csv", str(tmp_path / "nope" / "r.csv"))
    assert result.returncode == 2 and "does not exist" in result.stderr


def test_bench_json_reports_warm_rates():
    result = clothlab("bench", "--grid", "8x6", "--repeats", "1", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    (grid,) = report["grids"]
    assert grid["grid"] == "8x6" and grid["links"] == 7 * 6 + 8 * 5 + 2 * 7 * 5
    assert grid["steps_per_second"] > 0 and grid["link_projections_per_second"] > 0
    assert report["jit"]["warm_first_step_seconds"] > 0


def test_bench_reports_a_run_that_blew_up_instead_of_its_figures(monkeypatch):
    from clothlab.app import bench
    from clothlab.sim.core.guard import Instability
    from clothlab.sim.core.solver import Simulation

    real_step = Simulation.step

    def blows_up_on_the_timed_runs(self, count=1):
        if count <= 10:
            return real_step(self, count)
        self.instability = Instability(self.state.steps + 3, 1, self.state.steps, "test")
        return 3

    monkeypatch.setattr(Simulation, "step", blows_up_on_the_timed_runs)
    result = bench.bench_grid(8, 6, 8, 2)
    assert result["failed"].startswith("The model became unstable at step 14")
    assert "steps_per_second" not in result and "link_projections_per_second" not in result


def test_bench_keeps_the_default_sheets_size_at_any_resolution():
    result = clothlab("bench", "--grid", "64x64", "--repeats", "1", "--json", "--options")
    assert result.returncode == 0, result.stderr
    for grid in json.loads(result.stdout)["grids"]:
        assert "failed" not in grid, grid  # a 64 × 64 sheet of 2.8 × 2.0 units stays up
        assert grid["steps_per_second_min"] <= grid["steps_per_second"]
        assert grid["steps_per_second"] <= grid["steps_per_second_max"]
        assert grid["path"].startswith("classic" if grid["option"] == "classic" else "extended")


def test_headless_commands_import_no_qt():
    code = (
        "import sys; from app import main; main.main(['scenes']);"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'OpenGL', 'pyqtgraph')];"
        "assert not bad, bad"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
