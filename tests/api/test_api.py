"""The Python API (`import clothlab`): the CLI's numbers bit for bit, the app's commands, its
files, and no Qt. The examples in examples/ run as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import clothlab
from clothlab.sim.core import units
from clothlab.sim.document.commands import GrabStart, SetSetting
from clothlab.sim.document.edits import CutLinks
from clothlab.sim.document.recording import load_recording
from clothlab.sim.lab.variants import VariantError, run_variant

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "sim" / "fixtures" / "recordings"


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "clothlab.app.main", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)  # fmt: skip


def test_importing_clothlab_imports_no_qt():
    code = "import sys, clothlab; clothlab.open('drop').run(2); print(sorted(sys.modules))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=300, check=True)  # fmt: skip
    modules = result.stdout
    assert "clothlab.sim" in modules
    for banned in ("PySide6", "OpenGL", "pyqtgraph", "clothlab.ui", "clothlab.app"):
        assert f"'{banned}" not in modules, banned


def test_a_run_equals_the_cli_bit_for_bit(tmp_path):
    result = cli("run", "hanging-sheet", "--steps", "240", "--set", "passes=16", "--set",
                 "wind=2.5", "--seam", "--csv", "r.csv", "--positions", "x.npy", "--save",
                 "s.json", cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr
    lab = clothlab.open("hanging-sheet")
    lab.set(passes=16, wind=2.5)
    lab.cut_seam()  # before step 0, as --seam cuts
    table = lab.run(240)
    assert table.count == 241 and table["step"][0] == 0 and table["step"][-1] == 240
    assert table.csv() == (tmp_path / "r.csv").read_text()  # every float, as text that round-trips
    assert np.array_equal(lab.positions, np.load(tmp_path / "x.npy"))
    lab.save(tmp_path / "api.json")
    cli_scene = json.loads((tmp_path / "s.json").read_text())
    assert json.loads((tmp_path / "api.json").read_text()) == cli_scene


def test_the_fastest_particle_and_the_faces_are_readouts_of_a_lab_and_columns_of_a_table():
    """`max_speed` (and faces, which the seam question asks about) in the API."""
    lab = clothlab.open("ball-start")
    table = lab.run(1)
    assert table["max_speed"][0] == 0.0 and table["max_speed"][1] == pytest.approx(46.91, abs=0.01)
    assert table.units["max_speed"] == "units/s" and "max_speed" in table.columns
    assert lab.readouts["max_speed"] == table["max_speed"][-1]
    assert lab.readouts["max_speed"] > 8 * lab.readouts["motion"]  # the fastest, not the mean
    assert lab.readouts["faces"] == 140 and isinstance(lab.readouts["faces"], int)
    lab.cut_seam()
    assert lab.readouts["faces"] == 130


def test_runs_continue_where_they_stopped_and_add_up_to_one_run():
    whole = clothlab.open("soft-block").run(90)
    lab = clothlab.open("soft-block")
    parts = [lab.run(30), lab.run(0), lab.run(60)]
    assert [p.count for p in parts] == [31, 0, 60]
    joined = np.concatenate([p.rows for p in parts])
    assert np.array_equal(joined, whole.rows, equal_nan=True)
    assert lab.steps == 90 and lab.t == pytest.approx(0.75)


def test_an_old_recording_replays_to_the_hashes_saved_with_it():
    from fixture_hashes import rows_digest

    expected = json.loads((FIXTURES / "expected.json").read_text())["tear-lab-pull"]
    lab = clothlab.open(FIXTURES / "tear-lab-pull.clothrec.json")
    table = lab.run()  # to the recording's end
    assert lab.steps == expected["steps"]
    assert rows_digest(table.rows) == expected["rows"]


def test_edits_after_the_first_step_are_the_commands_the_app_records(tmp_path):
    lab = clothlab.open("hanging-sheet")
    lab.run(10)
    lab.set(wind=3.0)
    assert lab.cut([0, 1, 1, 2]) == 3  # a link named twice is cut once
    assert lab.cut([0]) == 0  # already cut
    lab.grab(160, (0.0, -1.0, 0.5))
    lab.run(5)
    lab.release()
    lab.pin(14, (1.2, 1.0, 0.0))
    commands = [item.command for item in lab.recording.commands]
    assert commands[0] == SetSetting("wind", 3.0, 0.0)
    assert commands[1] == CutLinks((0, 1, 2))
    assert isinstance(commands[2], GrabStart)
    assert [item.step for item in lab.recording.commands] == [10, 10, 10, 15, 15]
    # the recording replays to the same positions, and the document holds the edits
    path = tmp_path / "r.clothrec.json"
    lab.save_recording(path)
    again = clothlab.open(path)
    again.run(15)
    assert np.array_equal(again.positions, lab.positions)
    assert load_recording(path).scene.wind.strength == 0.0  # the scene at step 0
    assert lab.scene.wind.strength == 3.0 and lab.scene.cuts == [0, 1, 2]
    assert [p.particle for p in lab.scene.pins] == [0, 14]


def test_undo_and_redo_take_an_edit_back_at_the_current_step_and_the_recording_keeps_both(
    tmp_path,
):
    lab = clothlab.open("hanging-sheet")
    lab.run(10)
    cut = lab.cut_seam()
    lab.set(wind=2.0)
    lab.run(5)
    cut_text, wind_text = CutLinks(tuple(lab.scene.cuts)).text, SetSetting("wind", 2.0, 0.0).text
    assert cut > 0 and lab.history == [cut_text, wind_text]
    assert lab.undo() == wind_text and lab.history == [cut_text]
    assert lab.redo() == wind_text and lab.undo() == wind_text
    assert lab.undo() == cut_text
    assert lab.scene.cuts == [] and lab.history == [] and lab.undo() is None
    assert lab.scene.wind.strength == 0.0
    lab.run(5)
    commands = [item.command for item in lab.recording.commands]
    assert [type(c).__name__ for c in commands] == [
        "CutLinks", "SetSetting", "SetSetting", "SetSetting", "SetSetting", "CutLinks"
    ]  # fmt: skip
    assert commands[-1] == CutLinks(commands[0].links, restore=True)
    path = tmp_path / "undone.clothrec.json"
    lab.save_recording(path)
    again = clothlab.open(path)
    again.run(20)
    assert np.array_equal(again.positions, lab.positions)


def test_an_edit_undone_at_the_first_step_is_undone_in_the_scene_itself():
    lab = clothlab.open("hanging-sheet")
    lab.pin(100, (0.0, 0.0, 0.0))
    assert [p.particle for p in lab.scene.pins] == [0, 14, 100] and lab.steps == 0
    lab.undo()
    assert [p.particle for p in lab.scene.pins] == [0, 14]
    assert lab.recording.commands == () and lab.recording.scene == lab.scene


def test_bad_keys_values_and_late_reshapes_are_one_line_errors():
    lab = clothlab.open("hanging-sheet")
    with pytest.raises(VariantError, match="pases: unknown setting"):
        lab.set(pases=4)
    with pytest.raises(VariantError, match="passes"):
        lab.set(passes=0)
    lab.set(resolution=(9, 5))  # before the first step a reshape builds the scene anew
    assert lab.particles == 45
    lab.run(1)
    with pytest.raises(ValueError, match="cols: reshapes only before the first step"):
        lab.set(cols=12)
    with pytest.raises(ValueError, match="particle 999 is not within"):
        lab.grab(999, (0, 0, 0))
    with pytest.raises(clothlab.SceneError, match=r"nothing\.json"):
        clothlab.open("nothing.json")


def test_compare_and_sweep_give_what_the_variants_give():
    tables = clothlab.compare("hanging-sheet", ["passes=16", {"stiffness": 0.5}], steps=30)
    assert list(tables) == ["as is", "passes=16", "stiffness=0.5"]
    alone = run_variant(clothlab.open("hanging-sheet").recording.scene, {"passes": 16}, 30)
    assert np.array_equal(tables["passes=16"].rows, np.array(alone.rows), equal_nan=True)
    rows = clothlab.sweep("hanging-sheet", {"passes": [2, 8], "wind": [0, 1.5]}, steps=30)
    assert [r.values for r in rows] == [
        {"passes": 2, "wind": 0.0}, {"passes": 2, "wind": 1.5},
        {"passes": 8, "wind": 0.0}, {"passes": 8, "wind": 1.5},
    ]  # fmt: skip
    assert type(rows[0].values["passes"]) is int  # typed as Lab.set parses them
    assert all(r.status == "ok" for r in rows)
    assert rows[2].final["sag"] == tables["as is"]["sag"][-1]  # passes=8, no wind: as is


@pytest.mark.parametrize("example", ["sag_vs_passes.py", "record_and_replay.py"])
def test_the_examples_run(example, tmp_path):
    result = subprocess.run([sys.executable, str(ROOT / "examples" / example)], cwd=tmp_path,
                            capture_output=True, text=True, timeout=600)  # fmt: skip
    assert result.returncode == 0, result.stderr
    if example == "sag_vs_passes.py":
        lines = result.stdout.splitlines()
        sags = [float(line.split()[1]) for line in lines[1:8]]
        assert sags == sorted(sags, reverse=True)  # more passes, less sag
        assert (tmp_path / "sag_vs_passes.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    else:
        assert "bit for bit" in result.stdout
        assert (tmp_path / "cut.clothrec.json").is_file()


def test_the_notebook_runs_cell_by_cell_in_a_kernel(tmp_path, monkeypatch):
    """examples/sweep_plot_compare.ipynb, executed as Jupyter does (nbclient, a Python kernel),
    in a folder of its own: its sweep, plot, comparison and kept state. The kernel's files
    (IPython's profile, Jupyter's connection file, matplotlib's cache) go there too."""
    import nbformat
    from nbclient import NotebookClient

    own = {"IPYTHONDIR": "ipython", "JUPYTER_RUNTIME_DIR": "runtime",
           "JUPYTER_DATA_DIR": "jupyter", "MPLCONFIGDIR": "matplotlib"}  # fmt: skip
    for variable, folder in own.items():
        monkeypatch.setenv(variable, str(tmp_path / folder))

    notebook = nbformat.read(ROOT / "examples" / "sweep_plot_compare.ipynb", as_version=4)
    NotebookClient(notebook, timeout=600, resources={"metadata": {"path": str(tmp_path)}}).execute()
    printed = [
        "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
        for cell in notebook.cells
        if cell.cell_type == "code"
    ]
    lines = printed[1].splitlines()
    table = [[float(v) for v in line.split()] for line in lines[1:5]]
    for column in (1, 2):  # at each stiffness: more passes, less sag
        sags = [row[column] for row in table]
        assert sags == sorted(sags, reverse=True)
    assert all(row[1] > row[2] for row in table)  # softer links sag more
    assert (tmp_path / "sweep_plot_compare.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "settled" in printed[3]
    assert printed[4].strip().endswith("the cut ran the same bit for bit: True")


def test_a_lab_measures_the_pins_links_and_floor_with_the_solvers_forces():
    """Lab.pin_forces, link_tensions and contact_forces; the pins of the
    hanging sheet hold its weight (165 particles × 9.8) once it has settled."""
    lab = clothlab.open("hanging-sheet")
    assert np.isnan(lab.pin_forces).all() and lab.contact_forces == {}
    lab.run(3000)
    weight = lab.particles * lab.scene.solver.gravity
    assert lab.pin_forces.shape == (2, 3)
    assert lab.pin_forces.sum(axis=0)[1] == pytest.approx(weight, rel=1e-3)
    assert lab.readouts["pin_force"] == pytest.approx(weight, rel=1e-3)
    assert lab.link_tensions.shape == (lab.links,) and lab.link_tensions.max() > 0.0
    assert lab.contact_forces == {"floor": 0.0}
    assert lab.tension_per_length is None  # model units: no fabric to be per unit length of
    silk = clothlab.open("hanging-sheet")
    silk.set(material="silk")
    silk.run(50)
    per_length = silk.tension_per_length
    assert per_length is not None and np.nanmax(per_length) > 0.0  # N/m, side links only
    assert np.isnan(per_length).sum() == silk.links - np.isfinite(per_length).sum()


def test_a_fabrics_table_is_in_si_units():
    """A run whose bodies have SI fabrics measures in metres and joules; its table says so."""
    table = clothlab.open("hanging-strip").run(1)
    assert table.units["total_energy"] == "J" and table.units["sag"] == "m"
    assert table.units["max_speed"] == "m/s" and table.units["pin_force"] == "N"
    assert table.csv().splitlines()[0].startswith("step,t (s),sag (m),volume (m^3)")


@pytest.mark.parametrize("scene", ["hanging-sheet", "hanging-strip", "cantilever"])
def test_a_tables_units_are_its_csv_headers_units(scene):
    """Table.units and the CSV header name every column in the same unit (the CSV in ASCII):
    the model's "mass·units/s²" for a model run's forces, N and m for a fabric's."""
    lab = clothlab.open(scene)
    lab.add_probe(0)
    table = lab.run(1)
    header = table.csv().splitlines()[0].split(",")
    from_header = {
        name.split(" (", 1)[0]: name.split(" (", 1)[1][:-1] if " (" in name else ""
        for name in header
    }
    assert from_header == {key: units.ascii_unit(unit) for key, unit in table.units.items()}
    si = scene != "hanging-sheet"
    assert (
        table.units["pin_force"]
        == table.units["probe1_tension"]
        == ("N" if si else "mass·units/s²")
    )
    assert table.units["tip_drop"] == table.units["probe1_y"] == ("m" if si else "units")
