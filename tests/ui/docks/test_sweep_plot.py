"""A sweep's CSV opened in the app as plots: a readout against one setting, a curve per value
of the other."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

from clothlab.sim.lab.sweep_results import SweepResultsError, load_sweep_results
from clothlab.ui.docks.sweep_plot import SweepPlot

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def sweep_csv(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("sweep") / "sweep.csv"
    result = subprocess.run(
        [sys.executable, "-m", "clothlab.app.main", "sweep", "hanging-sheet", "--vary",
         "passes=2,4,8", "--vary", "gravity=9.8,100", "--steps", "60", "--workers", "1",
         "--csv", str(path)],
        capture_output=True, text=True, cwd=ROOT, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return path


def test_the_results_read_back_as_curves(sweep_csv):
    results = load_sweep_results(sweep_csv)
    assert results.keys == ("passes", "gravity") and len(results.rows) == 6
    curves = results.curves("sag", "passes", "gravity")
    assert list(curves) == ["9.8", "100"]
    xs, ys = curves["9.8"]
    assert xs == [2.0, 4.0, 8.0] and all(math.isfinite(y) for y in ys)
    assert ys[0] > ys[2]  # more passes, less sag (DESIGN: it halves with each doubling)
    assert curves["100"][1][0] > ys[0]  # stronger gravity, more sag


def test_the_plot_draws_a_curve_per_value_and_follows_the_choices(qtbot, sweep_csv):
    plot = SweepPlot(load_sweep_results(sweep_csv), "sweep.csv")
    qtbot.addWidget(plot)
    assert len(plot.plot.listDataItems()) == 2
    plot.per.setCurrentIndex(0)  # (none): one curve through every finished variant
    assert len(plot.plot.listDataItems()) == 1
    plot.readout.setCurrentIndex(plot.readout.findData("max_stretch"))
    assert plot.plot.getPlotItem().getAxis("left").labelText == "Max stretch (%)"


@pytest.mark.parametrize(
    ("text", "problem"),
    [("a,b\n1,2\n", "no status column"), ("passes,status,step\n2,ok,60\n", "unexpected columns")],
)
def test_a_file_that_is_not_a_sweep_is_one_line(tmp_path, text, problem):
    path = tmp_path / "other.csv"
    path.write_text(text)
    with pytest.raises(SweepResultsError, match=problem):
        load_sweep_results(path)


def test_a_sweep_written_before_a_readout_was_added_still_reads(tmp_path, sweep_csv):
    """A sweep's CSV from a version without max_speed and faces:
    its columns read as before, the readouts it does not have are NaN."""
    lines = sweep_csv.read_text().splitlines()
    header = lines[0].split(",")
    dropped = [k for k, name in enumerate(header) if name.split(" (")[0] in ("max_speed", "faces")]
    assert len(dropped) == 2
    older = [",".join(c for k, c in enumerate(line.split(",")) if k not in dropped)
             for line in lines]  # fmt: skip
    path = tmp_path / "older.csv"
    path.write_text("\n".join(older) + "\n")
    results, current = load_sweep_results(path), load_sweep_results(sweep_csv)
    assert results.curves("sag", "passes", "gravity") == current.curves("sag", "passes", "gravity")
    assert all(math.isnan(row.readouts["max_speed"]) for row in results.rows)
