"""The readouts CSV's header says the unit of every column, and everything
that finds a column by its key still finds it."""

from __future__ import annotations

import csv
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from sim_helpers import hanging_sheet

from clothlab.sim.core import readouts
from clothlab.sim.core.materials import SI_FABRICS
from clothlab.sim.core.readouts import CSV_COLUMNS, CSV_HEADER, READOUTS, column_key
from clothlab.sim.document.files import write_atomically
from clothlab.sim.document.scene import build_simulation
from clothlab.sim.lab import textile
from clothlab.sim.lab.sweep_results import parse_sweep_results

ROOT = Path(__file__).resolve().parents[3]
G = 9.8  # m/s²


def recorded_history(steps: int = 3) -> readouts.ReadoutHistory:
    sim = hanging_sheet()
    history = readouts.ReadoutHistory()
    history.append(0, sim.readouts())
    for step in range(1, steps + 1):
        sim.step()
        history.append(step, sim.readouts())
    return history


def test_the_header_names_each_columns_unit():
    header = readouts.csv_text([]).splitlines()[0].split(",")
    assert header == list(CSV_HEADER)
    assert header[:2] == ["step", "t (s)"]
    # max stretch is written as a fraction (the panels show it ×100 as %): the header says so
    assert "max_stretch (fraction)" in header and "residual (fraction)" in header
    assert {"sag (units)", "volume (units^3)", "motion (units/s)"} <= set(header)
    assert "total_energy (mass*units^2/s^2)" in header
    for readout in READOUTS:
        name = header[CSV_COLUMNS.index(readout.key)]
        if readout.integer:  # a count (links) has no unit, like the step
            assert name == readout.key
        else:
            assert readout.unit and name.startswith(f"{readout.key} (") and name.endswith(")")
    assert "".join(header).isascii()  # as before the units: no code-page surprises


def test_a_written_csv_reads_back_by_key(tmp_path):
    history = recorded_history()
    path = tmp_path / "readouts.csv"
    write_atomically(path, history.csv_text().encode("utf-8"))
    with path.open(encoding="utf-8") as stream:
        by_name = list(csv.DictReader(stream))
    rows = [{column_key(name): cell for name, cell in row.items()} for row in by_name]
    assert list(rows[0]) == list(CSV_COLUMNS)
    assert [int(row["step"]) for row in rows] == [0, 1, 2, 3]
    for row, expected in zip(rows, history.rows, strict=True):
        for key, value in zip(CSV_COLUMNS, expected, strict=True):
            if math.isnan(value):
                assert row[key] == ""
            elif key == "t":  # the time the steps make, without the sum's rounding errors
                assert float(row[key]) == float(f"{value:.12g}")
            else:
                assert float(row[key]) == value  # round-trip exact
    assert float(rows[-1]["max_stretch"]) == history.column("max_stretch")[-1]


def test_column_key_reads_both_headers():
    assert [column_key(name) for name in CSV_HEADER] == list(CSV_COLUMNS)
    assert [column_key(key) for key in CSV_COLUMNS] == list(CSV_COLUMNS)  # an older file


@pytest.mark.parametrize("header", [CSV_HEADER, CSV_COLUMNS], ids=["units", "bare keys"])
def test_sweep_results_read_a_header_with_or_without_units(header):
    final = recorded_history(1).rows[-1]
    lines = [["passes", "status", *header], ["4", "ok", *readouts.csv_cells(final)]]
    text = "".join(",".join(cells) + "\n" for cells in lines)
    results = parse_sweep_results(text, "sweep.csv")
    assert results.keys == ("passes",)
    values = results.rows[0].readouts
    assert list(values) == list(CSV_COLUMNS)
    assert values["max_stretch"] == final[CSV_COLUMNS.index("max_stretch")]


def streamed_csv(tmp_path: Path, scene: str) -> list[str]:
    """The lines `clothlab run SCENE --steps 2 --csv FILE` writes."""
    table = tmp_path / "run.csv"
    result = subprocess.run(
        [sys.executable, "-m", "clothlab.app.main", "run", scene, "--steps", "2",
         "--csv", str(table)],
        capture_output=True, text=True, cwd=ROOT, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return table.read_text(encoding="utf-8").splitlines()


def test_the_clis_streamed_csv_has_the_same_header(tmp_path):
    lines = streamed_csv(tmp_path, "hanging-sheet")
    assert lines[0] == readouts.csv_text([]).rstrip("\n") == ",".join(CSV_HEADER)
    assert len(lines) == 1 + 3


def test_a_run_in_si_units_says_metres_and_joules(tmp_path):
    """A fabric's run has lengths in metres and masses in kg: its CSV says m, m/s and J where a
    run in model units says units and mass·units²/s² (the values are the same numbers)."""
    header = streamed_csv(tmp_path, "hanging-strip")[0].split(",")
    assert header == list(readouts.csv_header(si=True)) != list(CSV_HEADER)
    assert {"sag (m)", "volume (m^3)", "motion (m/s)", "total_energy (J)"} <= set(header)
    assert {"solver_loss (J per step)", "pin_force (N)", "elongation (m)"} <= set(header)
    assert [column_key(name) for name in header] == list(CSV_COLUMNS)
    assert "".join(header).isascii()


def test_a_fabrics_energy_is_in_joules():
    """The potential energy of a strip at rest is its weight in N times its mean height in m."""
    scene = textile.hanging_strip_scene("cotton", length=1.0)
    sim, strip = build_simulation(scene), scene.bodies[0]
    weight = SI_FABRICS["cotton"].areal_density * strip.width * strip.height * G  # N
    mean_height = float(np.average(sim.state.x[:, 1], weights=sim.mechanics.mass))
    assert sim.readouts().potential_energy == pytest.approx(weight * mean_height, rel=1e-9)


def test_the_time_column_is_the_time_the_steps_make():
    """Step 3600 of 1/120 s was written t = 29.999999999998938 (a sum of
    3600 Δt's); t = step·Δt, to 12 significant digits."""
    from clothlab.sim.core.readouts import csv_cells

    width = len(CSV_COLUMNS)
    for step, summed, written in ((3600, 29.999999999998938, "30.0"), (3, 0.024999999999999998,
                                  "0.025"), (1, 1 / 120, "0.00833333333333")):  # fmt: skip
        row = [float(step), summed, *[0.0] * (width - 2)]
        assert csv_cells(row)[CSV_COLUMNS.index("t")] == written


def test_a_run_in_model_units_names_its_forces_in_model_units():
    """Particles of mass 1 pull with mass·units/s², not newtons: every force column of a model
    run (readouts and probes alike) says so, and every length column says units."""
    header = readouts.csv_text([], probe_slots=1).splitlines()[0].split(",")
    force = "(mass*units/s^2)"
    for key in ("pin_force", "max_tension", "contact_force", "probe1_tension"):
        assert f"{key} {force}" in header
    for key in ("tip_drop", "bending_length", "elongation", "probe1_y"):
        assert f"{key} (units)" in header
    assert not [name for name in header if name.endswith("(N)") or name.endswith("(m)")]


def test_a_run_in_si_units_names_every_force_in_newtons():
    header = readouts.csv_text([], probe_slots=1, si=True).splitlines()[0].split(",")
    for key in ("pin_force", "max_tension", "contact_force", "probe1_tension"):
        assert f"{key} (N)" in header
    for key in ("tip_drop", "bending_length", "elongation", "probe1_y"):
        assert f"{key} (m)" in header


def test_the_panels_scale_lengths_to_cm_and_mm_only_in_si_units():
    """A bending length of 0.0217 m shows as 2.17 cm; 0.0217 model units stay units."""
    bending = next(r for r in READOUTS if r.key == "bending_length")
    assert readouts.shown_unit(bending, si=True) == "cm"
    assert readouts.shown_scale(bending, si=True) == 100.0
    assert readouts.shown_unit(bending, si=False) == "units"
    assert readouts.shown_scale(bending, si=False) == 1.0
    stretch = next(r for r in READOUTS if r.key == "max_stretch")
    assert readouts.shown_unit(stretch, si=True) == readouts.shown_unit(stretch) == "%"


@pytest.mark.parametrize("si", [False, True], ids=["model units", "SI units"])
def test_sweep_results_know_the_unit_system_from_their_header(si):
    final = recorded_history(1).rows[-1]
    header = readouts.csv_header(si)
    lines = [["passes", "status", *header], ["4", "ok", *readouts.csv_cells(final)]]
    text = "".join(",".join(cells) + "\n" for cells in lines)
    assert parse_sweep_results(text, "sweep.csv").si is si


def test_the_cantilevers_lengths_are_shown_in_one_unit():
    """Tip drop and bending length, one above the other in the Readouts panel, both in cm for
    an SI cantilever (both in m in the CSV and Table.units, both in units for a model run)."""
    tip, bending = (next(r for r in READOUTS if r.key == k) for k in ("tip_drop", "bending_length"))
    for si in (False, True):
        assert readouts.shown_unit(tip, si) == readouts.shown_unit(bending, si)
        assert readouts.shown_scale(tip, si) == readouts.shown_scale(bending, si)
        assert readouts.unit_of("tip_drop", si) == readouts.unit_of("bending_length", si)


def test_the_engine_knows_since_when_its_run_is_in_its_present_units():
    """A fabric given mid-run changes the unit system: the engine names the step, and a seek
    back before it (a restart) forgets it again."""
    from clothlab.sim.document.composition import change_body, edit_of
    from clothlab.sim.document.presets import load_preset
    from clothlab.sim.lab.engine import Engine
    from clothlab.sim.lab.textile import si_spec

    scene = load_preset("hanging-sheet")
    engine = Engine(scene, record_every=1)
    engine.advance_to(30)
    assert engine.unit_system_since == 0
    denim = si_spec("denim").model_dump()
    engine.apply(edit_of(scene, change_body(scene, 0, si_material=denim)))
    engine.advance_to(40)
    assert engine.unit_system_since == 30 and engine.system_changes == [30]
    engine._restart(None)
    assert engine.unit_system_since == 0
