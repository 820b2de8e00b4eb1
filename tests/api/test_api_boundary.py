"""The API's boundary: numpy scalars become plain values and every save reopens;
bad values are one line; a Lab shared by two threads; Table as pandas and numpy users expect;
sweeps from a plain script; a replay keeps its rulers; long runs bounded and Ctrl+C clean."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading

import numpy as np
import pytest

import clothlab
from clothlab.sim.document.files import SceneError


def reopen_all(lab: clothlab.Lab, folder) -> clothlab.Lab:
    """Every save of the lab, each opened again; the recording and the state replayed to the
    lab's place."""
    lab.save(folder / "scene.json")
    lab.save_state(folder / "state.json")
    lab.save_recording(folder / "run.clothrec.json")
    assert clothlab.open(folder / "scene.json").scene == lab.scene
    clothlab.open(folder / "state.json")
    again = clothlab.open(folder / "run.clothrec.json")
    again.run()
    assert np.array_equal(again.positions, lab.positions)
    lab.state().save(folder / "at.clothstate.json")  # replayed and checked by its digest
    assert np.array_equal(clothlab.load_state(folder / "at.clothstate.json").positions,
                          lab.positions)  # fmt: skip
    return again


# --- item 1: numpy values at the boundary ------------------------------------------------------


def test_numpy_scalars_are_plain_values_from_the_boundary_on_and_every_save_reopens(tmp_path):
    lab = clothlab.open("hanging-sheet")
    x = lab.positions
    lowest = np.argmin(x[:, 1])  # np.int64, as a researcher gets an index
    assert lab.add_probe(np.int64(3)) == 1
    lab.pin(np.int64(3), at=np.array([-1.4, 1.0, 0.0]))
    lab.add_ruler(np.int32(0), (np.float64(0.5), np.float32(1.0), 0))
    lab.set(wind=np.float64(1.5), passes=np.int64(9), ball=np.bool_(True))
    lab.run(np.int64(5))
    lab.grab(lowest, np.array([0.1, -1.2, 0.4]))
    lab.move_grab((np.float64(0.2), -1.2, 0.4))
    lab.run(np.uint8(3))
    lab.release()
    assert lab.cut(np.array([0, 1, 2])) == 3
    assert lab.cut_seam(np.int64(0)) > 0
    lab.unpin(np.int64(3))
    lab.remove_ruler(np.int64(0))
    assert lab.probe(np.int64(1))["particle"] == 3
    lab.run(2)
    again = reopen_all(lab, tmp_path)
    assert again.recording.commands == lab.recording.commands
    entries = json.loads((tmp_path / "run.clothrec.json").read_text())["commands"]
    grab = next(e for e in entries if e["type"] == "grab_start")
    assert grab["particle"] == int(lowest) and type(grab["particle"]) is int


BAD_CALLS = [
    ("pin", (1.5,), "particle 1.5 is not an index"),
    ("pin", (True,), "particle True is not an index"),
    ("pin", (3, (10**400, 0, 0)), "beyond a float's range"),
    ("pin", (3, (float("nan"), 0, 0)), "not a finite number"),
    ("pin", (3, (1e9, 0, 0)), "beyond ±10000"),
    ("pin", (3, "abc"), "expected three numbers"),
    ("pin", (10**30,), "is not within 0…164"),
    ("cut", ([1.5],), "link 1.5 is not an index"),
    ("cut", (7,), "expected a list of indices"),
    ("cut", ([np.int64(9999)],), "link 9999 is not within"),
    ("grab", (3, (1, 2)), "expected three numbers (x, y, z)"),
    ("grab", (3, (1, 2, float("inf"))), "not a finite number"),
    ("grab", ("3", (1, 2, 3)), "particle '3' is not an index"),
    ("add_probe", (np.float64(3.0),), "is not an index"),
    ("probe", (True,), "give a probe's number"),
    ("remove_ruler", (np.int64(0),), "ruler 0: the scene has 0 rulers"),
    ("cut_seam", (1.0,), "sheet 1.0 is not an index"),
    ("run", (10**30,), "is more than 1_000_000_000"),
    ("run", (-1,), "is not a count of steps"),
    ("run", (1.5,), "is not a count of steps"),
    ("run", ("3",), "is not a count of steps"),
]


@pytest.mark.parametrize(("method", "args", "fragment"), BAD_CALLS)
def test_a_bad_argument_is_refused_in_one_line_and_changes_nothing(method, args, fragment):
    lab = clothlab.open("hanging-sheet")
    with pytest.raises(ValueError) as caught:
        getattr(lab, method)(*args)
    message = str(caught.value)
    assert fragment in message and "\n" not in message and len(message) < 200
    assert lab.steps == 0 and lab.recording.commands == ()


@pytest.mark.parametrize("steps", ["3", -1, 1.5, True, 10**10])
def test_compare_and_sweep_refuse_a_bad_count_of_steps_in_one_line(steps):
    with pytest.raises(ValueError, match=r"steps: .*(is not a count of steps|is more than)"):
        clothlab.compare("hanging-sheet", ["passes=16"], steps=steps)
    with pytest.raises(ValueError, match="steps: "):
        clothlab.sweep("hanging-sheet", {"passes": [4]}, steps=steps)


def test_a_sweep_takes_numpy_values_and_gives_them_back_typed():
    rows = clothlab.sweep("hanging-sheet", {"passes": np.array([2, 4]), "wind": [np.float64(0.5)]},
                          steps=np.int64(3))  # fmt: skip
    assert [r.values for r in rows] == [{"passes": 2, "wind": 0.5}, {"passes": 4, "wind": 0.5}]
    assert all(type(r.values["passes"]) is int for r in rows)
    with pytest.raises(ValueError, match="not a list of values"):
        clothlab.sweep("hanging-sheet", {"passes": "4,8"}, steps=3)


def test_a_save_that_would_not_reopen_is_not_written(tmp_path, monkeypatch):
    """The last guard: a file is read back before it replaces anything."""
    lab = clothlab.open("hanging-sheet")
    path = tmp_path / "run.clothrec.json"
    lab.save_recording(path)
    good = path.read_bytes()
    monkeypatch.setattr("clothlab.lab.recording_json", lambda recording: '{"format": 1}')
    with pytest.raises(SceneError, match="not written, it would not reopen") as caught:
        lab.save_recording(path)
    assert "\n" not in str(caught.value)
    assert path.read_bytes() == good


# --- item 2: two threads ----------------------------------------------------------------------


def test_a_lab_shared_by_two_threads_writes_a_recording_that_replays_it(tmp_path):
    """Before the lock, 10 of 10 such runs saved recordings that replayed to other positions
    (commands stamped while the other thread was half way through a step), some not at all."""
    lab = clothlab.open("hanging-sheet")
    lab.run(1)
    stop = threading.Event()
    errors: list[BaseException] = []

    def step_on() -> None:
        try:
            while not stop.is_set():
                lab.run(1)
        except BaseException as error:  # the test reports it
            errors.append(error)

    stepper = threading.Thread(target=step_on)
    stepper.start()
    try:
        for k in range(40):
            lab.set(wind=float(k % 5))
            lab.cut([k])
            lab.grab(100, (0.0, -1.0, 0.5))
            lab.release()
    finally:
        stop.set()
        stepper.join()
    assert errors == []
    reopen_all(lab, tmp_path)


# --- item 3: Table ------------------------------------------------------------------------------


def test_a_table_is_rows_to_numpy_and_len():
    table = clothlab.open("hanging-sheet").run(24)
    assert len(table) == table.count == 25
    array = np.asarray(table)
    assert array.shape == (25, len(table.columns)) and array.dtype == np.float64
    assert np.array_equal(array[:, table.columns.index("sag")], table["sag"])
    assert list(table) == list(table.columns) and dict(table).keys() == set(table.columns)
    with pytest.raises(TypeError, match="read-only"):
        table["sag"] = np.zeros(25)
    with pytest.raises(ValueError):
        table["sag"][0] = 1.0
    with pytest.raises(KeyError, match="nope: not a column"):
        table["nope"]


def test_to_pandas_without_pandas_says_what_to_install(monkeypatch):
    table = clothlab.open("hanging-sheet").run(2)
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas raises ImportError
    with pytest.raises(ImportError, match=r"^Table.to_pandas needs pandas: pip install pandas$"):
        table.to_pandas()


def test_pandas_reads_a_table_as_rows_by_named_columns():
    pd = pytest.importorskip("pandas")
    table = clothlab.open("hanging-strip").run(24)
    frame = pd.DataFrame(table)
    assert frame.shape == (25, len(table.columns)) and list(frame.columns) == list(table.columns)
    converted = table.to_pandas()
    assert converted.shape == frame.shape and converted.attrs["units"]["sag"] == "m"
    assert np.array_equal(converted["sag"].to_numpy(), table["sag"])


# --- item 5: a sweep in worker processes from a plain script ----------------------------------

SWEEP = 'rows = clothlab.sweep("hanging-sheet", {"passes": [2, 4]}, steps=5, workers=2)'


def test_a_sweep_with_workers_from_a_scripts_top_level_says_what_to_add(tmp_path):
    script = tmp_path / "plain.py"
    script.write_text(f"import clothlab\n{SWEEP}\nprint([r.status for r in rows])\n")
    result = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True,
                            text=True, timeout=300)  # fmt: skip
    assert result.returncode == 1
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("RuntimeError: clothlab.sweep(workers > 1) from a script's top level")
    assert 'if __name__ == "__main__":' in last
    assert "BrokenProcessPool" not in result.stderr and result.stderr.count("Traceback") == 1


def test_a_guarded_script_sweeps_in_worker_processes(tmp_path):
    script = tmp_path / "guarded.py"
    body = f"    {SWEEP}\n    print([r.status for r in rows])\n"
    script.write_text(f'import clothlab\n\nif __name__ == "__main__":\n{body}')
    result = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True,
                            text=True, timeout=300)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "['ok', 'ok']"


# --- item 6: a replay keeps the recorded rulers ---------------------------------------------


def test_a_replay_keeps_the_rulers_cuts_and_pins_it_recorded(tmp_path):
    lab = clothlab.open("hanging-sheet")
    lab.run(5)
    lab.add_ruler(0, 14)
    lab.cut([3, 4])
    lab.run(5)
    lab.add_ruler(7, (0.0, -2.0, 0.0))
    lab.pin(80, (0.0, -1.0, 0.0))
    lab.run(5)
    path = tmp_path / "r.clothrec.json"
    lab.save_recording(path)
    replay = clothlab.open(path)
    assert replay.rulers == []  # at step 0, before its ruler edits
    replay.run(7)
    assert len(replay.rulers) == 1 and replay.scene.cuts == [3, 4]
    replay.run()
    assert replay.rulers == lab.rulers and replay.scene == lab.scene
    assert replay.ruler_lengths == lab.ruler_lengths


# --- item 7: bounds, every/keep/progress, Ctrl+C ---------------------------------------------


def test_a_long_run_keeps_what_is_asked_and_says_how_far_it_is():
    whole = clothlab.open("hanging-sheet").run(300)
    lab = clothlab.open("hanging-sheet")
    told: list[tuple[int, int]] = []
    sparse = lab.run(300, every=25, progress=lambda done, steps: told.append((done, steps)))
    assert list(sparse["step"]) == list(range(0, 301, 25))
    assert np.array_equal(sparse.rows, whole.rows[::25], equal_nan=True)  # the same numbers
    assert told[-1] == (300, 300) and [d for d, _ in told] == sorted(d for d, _ in told)
    last = lab.run(1000, keep=3)
    assert list(last["step"]) == [1298, 1299, 1300]
    with pytest.raises(ValueError, match="rows, more than 2_000_000: keep fewer with every="):
        lab.run(10**8)
    assert lab.steps == 1300  # refused before a step


def test_every_and_keep_are_checked():
    lab = clothlab.open("hanging-sheet")
    for bad in ({"every": 0}, {"every": 2.5}, {"keep": -1}, {"progress": 3}):
        with pytest.raises(ValueError):
            lab.run(3, **bad)


def test_ctrl_c_stops_a_run_at_a_whole_step_with_its_rows_consistent():
    lab = clothlab.open("hanging-sheet")
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt, match="the run stopped at step"):
            lab.run(10**6, every=10**6)
    finally:
        timer.cancel()
    stopped = lab.steps
    assert 0 < stopped < 10**6
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # handed back
    after = lab.run(2)
    assert list(after["step"]) == [stopped + 1, stopped + 2]  # not the interrupted run's rows
    fresh = clothlab.open("hanging-sheet")
    fresh.run(stopped + 2, every=10**6)
    assert np.array_equal(fresh.positions, lab.positions)  # whole steps, the same ones


# --- item 8: a closed pipe ----------------------------------------------------------------------


def test_a_closed_pipe_is_a_normal_end_of_the_scenes_list():
    """`clothlab scenes | head -1`: the reader has what it wanted; no error, exit 0."""
    process = subprocess.Popen([sys.executable, "-m", "clothlab.app.main", "scenes"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    process.stdout.close()  # before the list is printed: every write meets a closed pipe
    _, error = process.communicate(timeout=300)
    assert process.returncode == 0 and error == b""


def test_a_ruler_to_a_particle_the_sheet_lacks_is_refused_in_one_short_line():
    """Hypothesis found it: a particle of 400 digits came back whole from the edit's check."""
    lab = clothlab.open("hanging-sheet")
    for end in (10**400, 165, -1):
        with pytest.raises(ValueError) as refused:
            lab.add_ruler(0, end)
        text = str(refused.value)
        assert "\n" not in text and len(text) < 200 and "ruler end" in text, text
    assert lab.rulers == []
