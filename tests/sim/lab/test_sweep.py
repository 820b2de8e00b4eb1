"""`clothlab sweep`: a grid of variants in worker processes or on a Dask cluster, the same
results bit for bit on both, a failed variant reported in its row, Ctrl+C keeping the rows
finished. Run as a user runs it, in a subprocess (workers are separate processes anyway)."""

from __future__ import annotations

import contextlib
import csv
import errno
import json
import os
import pty
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_helpers import clothlab_in_process
from sim_helpers import read_terminal_to_the_end

from clothlab.sim.core.readouts import CSV_HEADER
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.scene import save_scene, with_settings
from clothlab.sim.lab import sweep
from clothlab.sim.lab.variants import BASELINE

ROOT = Path(__file__).resolve().parents[3]
MAIN = [sys.executable, "-m", "clothlab.app.main"]
TIMEOUT_S = 300
# Falling freely at Δt = 0.05 s with no floor: at gravity 100 the model blows up at step 2000
# (a particle faster than 10⁴ units/s), at gravity 1 it does not.
GRID = ["--vary", "gravity=1,100", "--vary", "passes=2,4,8"]
STEPS = "2100"


def clothlab(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*MAIN, *args], capture_output=True, text=True, cwd=ROOT, timeout=TIMEOUT_S
    )


@pytest.fixture
def falling(tmp_path: Path) -> Path:
    path = tmp_path / "falling.json"
    scene = with_settings(load_preset("drop"), {"floor": False, "dt": 0.05, "damping": 1.0})
    save_scene(scene, path)
    return path


def read_rows(table: Path) -> list[dict[str, str]]:
    rows = list(csv.DictReader(table.open()))
    assert rows and list(rows[0]) == ["gravity", "passes", "status", *CSV_HEADER]
    return rows


def as_floats(row: dict[str, str]) -> list[float | None]:
    return [float(row[c]) if row[c] else None for c in CSV_HEADER]


def test_a_sweep_reports_each_variant_in_its_row(tmp_path, falling):
    table = tmp_path / "sweep.csv"
    result = clothlab("sweep", str(falling), *GRID, "--steps", STEPS, "--workers", "2",
                      "--csv", str(table))  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""  # no progress bar: stderr is not a terminal
    rows = read_rows(table)
    assert [(r["gravity"], r["passes"]) for r in rows] == [
        ("1", "2"), ("1", "4"), ("1", "8"), ("100", "2"), ("100", "4"), ("100", "8"),
    ]  # grid order, whichever finished first  # fmt: skip
    assert [r["status"] for r in rows[:3]] == ["ok"] * 3
    assert all(r["step"] == STEPS for r in rows[:3])
    assert [r["status"] for r in rows[3:]] == ["blew up at step 2000"] * 3  # the rest ran on
    assert all(v is None for r in rows[3:] for v in as_floats(r))
    assert len(result.stdout.splitlines()) == 1 + 6  # the table: a header and a row each


def test_a_sweeps_rows_equal_the_runs_of_its_variants(tmp_path):
    table = tmp_path / "sweep.csv"
    result = clothlab("sweep", "hanging-sheet", "--vary", "passes=3,6", "--vary", "xpbd=off,on",
                      "--steps", "30", "--csv", str(table))  # fmt: skip
    assert result.returncode == 0, result.stderr
    rows = list(csv.reader(table.open()))
    assert rows[0] == ["passes", "xpbd", "status", *CSV_HEADER]
    for passes, xpbd, status, *cells in rows[1:]:
        single = tmp_path / "run.csv"
        run = clothlab_in_process(
            "run", "hanging-sheet", "--steps", "30", "--set", f"passes={passes}",
            "--set", f"xpbd={xpbd}", "--csv", str(single),
        )  # fmt: skip
        assert run.returncode == 0 and status == "ok"
        assert cells == list(csv.reader(single.open()))[-1]  # the final row, cell for cell


def test_a_dask_cluster_gives_the_same_results_bit_for_bit(tmp_path, falling):
    distributed = pytest.importorskip("distributed")
    local, remote = tmp_path / "local.csv", tmp_path / "dask.csv"
    result = clothlab("sweep", str(falling), *GRID, "--steps", STEPS, "--workers", "2",
                      "--csv", str(local))  # fmt: skip
    assert result.returncode == 0, result.stderr
    with distributed.LocalCluster(
        n_workers=2, processes=True, host="127.0.0.1", dashboard_address=None,
        threads_per_worker=1,
    ) as cluster:  # fmt: skip
        address = cluster.scheduler_address
        result = clothlab("sweep", str(falling), *GRID, "--steps", STEPS, "--scheduler", address,
                          "--csv", str(remote))  # fmt: skip
    assert result.returncode == 0, result.stderr
    here, there = read_rows(local), read_rows(remote)
    assert [r["status"] for r in here] == [r["status"] for r in there]
    assert [as_floats(r) for r in here] == [as_floats(r) for r in there]  # equal as floats
    assert local.read_text() == remote.read_text()


def test_ctrl_c_stops_the_sweep_and_keeps_the_rows_finished(tmp_path):
    """One worker: the small sheet finishes, the big one is still running at Ctrl+C, which
    the progress line on the terminal (stderr) shows; its worker stops at the next look."""
    table = tmp_path / "sweep.csv"
    controller, terminal = pty.openpty()
    process = subprocess.Popen(
        [*MAIN, "sweep", "hanging-sheet", "--vary", "resolution=4x3,96x96", "--steps", "20000",
         "--workers", "1", "--csv", str(table)],
        stdout=subprocess.PIPE, stderr=terminal, cwd=ROOT, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    os.close(terminal)
    seen = b""
    try:
        deadline = time.monotonic() + TIMEOUT_S
        while b"variant 1 of 2" not in seen:
            assert time.monotonic() < deadline and process.poll() is None, seen
            seen += os.read(controller, 65536)
        process.send_signal(signal.SIGINT)
        stdout, _ = process.communicate(timeout=60)  # the running variant stopped, not finished
        while True:
            try:
                chunk = os.read(controller, 65536)
            except OSError as error:  # EIO: the terminal has no writer left
                assert error.errno == errno.EIO
                break
            if not chunk:
                break
            seen += chunk
    finally:
        process.kill()
        os.close(controller)
    text = seen.decode()
    assert process.returncode == 130, text
    assert text.startswith("\rvariant 0 of 2 (0.0 %)\x1b[K") and "Traceback" not in text
    assert text.endswith(f"clothlab: interrupted after 1 of 2 variants; 1 rows written to {table}"
                         "\r\n")  # fmt: skip
    rows = list(csv.DictReader(table.open()))
    assert [(r["resolution"], r["status"]) for r in rows] == [("4x3", "ok")]
    assert stdout.splitlines()[1].split()[:2] == ["4x3", "ok"]


@pytest.mark.parametrize(
    "args, fragment",
    [
        ([], "--vary: give at least one"),
        (["--vary", "colour=red,blue"], "--vary colour: unknown setting"),
        (["--vary", "passes=4,many"], "--vary passes: expected an integer, got 'many'"),
        (["--vary", "stiffness=0.5,2"], "--vary stiffness: 2.0 is outside"),
        (["--vary", "passes="], "--vary passes: no values to vary over"),
        (["--vary", "passes"], "--vary passes: expected KEY=V1,V2"),
        (["--vary", "passes=1,2", "--vary", "passes=3"], "--vary: passes is varied twice"),
        (["--vary", "passes=" + ",".join(map(str, range(1, 101))), "--vary", "xpbd=on,off,1"],
         "--vary: 100 × 3 = 300 variants, more than 256"),
        (["--vary", "passes=4", "--workers", "0"], "--workers: 0 is outside"),
        (["--vary", "passes=4", "--workers", "2", "--scheduler", "tcp://127.0.0.1:9"],
         "--workers: not with --scheduler"),
        (["--vary", "passes=4", "--steps", "-5"], "--steps: -5 is negative"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line_exit_2_and_writes_nothing(tmp_path, args, fragment):
    out = tmp_path / "out.csv"
    result = clothlab_in_process("sweep", "hanging-sheet", *args, "--csv", str(out))
    assert result.returncode == 2, result.stderr
    (line,) = result.stderr.splitlines()
    assert line.startswith("clothlab: error: ") and fragment in line, line
    assert list(tmp_path.iterdir()) == []


def test_without_dask_the_scheduler_option_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if it were not installed
    with pytest.raises(sweep.SweepError, match=r"pip install 'clothlab\[cluster\]'"):
        sweep.make_pool(1, "tcp://127.0.0.1:8786")


def test_a_variant_whose_worker_failed_is_reported_not_raised():
    class Broken:
        def done(self) -> bool:
            return True

        def result(self) -> object:
            raise RuntimeError("worker died\nwith a long story")

    class Pool:
        def submit(self, source, variants, steps):
            return [Broken() for _ in variants]

        def lost(self, error):
            return None

        def stop(self, pending):
            raise AssertionError("not stopped")

        def close(self) -> None:
            pass

    told = []
    finished = sweep.run_sweep(Pool(), load_preset("hanging-sheet"), [BASELINE] * 2, 5,
                               lambda k, r: told.append((k, r.status)))  # fmt: skip
    assert finished  # the first line of the error only: a row's status is one line
    assert sorted(told) == [(0, "error: RuntimeError worker died"),
                            (1, "error: RuntimeError worker died")]  # fmt: skip


@pytest.mark.parametrize("moment", ["stepping", 0.3, 0.8, 1.3, 1.8, 2.5])
def test_workers_exit_when_a_killed_sweep_leaves_them(moment):
    """SIGKILL cannot be caught, so the sweep cannot stop its workers: each stops itself when
    its parent is gone, and the resource tracker, whose pipe they held, follows. Killed while
    the workers step, or at a moment of the start (spawning, importing, compiling)."""
    psutil = pytest.importorskip("psutil")
    tag = f"{os.getpid()}-{moment}-{time.monotonic_ns()}"  # inherited by every process it starts
    process = subprocess.Popen(
        [*MAIN, "sweep", "hanging-sheet", "--vary", "resolution=96x96,97x97", "--steps",
         "100000", "--workers", "2"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT,
        env={**os.environ, "CLOTHLAB_TEST_TAG": tag},
    )  # fmt: skip
    try:
        if moment == "stepping":
            deadline = time.monotonic() + TIMEOUT_S
            while len(started_by(psutil, tag)) < 4:  # the sweep, 2 workers, the tracker
                assert time.monotonic() < deadline and process.poll() is None
                time.sleep(0.1)
            while not all_stepping(workers_of(started_by(psutil, tag)), 2):
                assert time.monotonic() < deadline and process.poll() is None
                time.sleep(0.1)
        else:
            time.sleep(moment)
        assert process.poll() is None
        process.kill()
        process.wait(timeout=10)
        deadline = time.monotonic() + 10
        while (left := started_by(psutil, tag)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert left == [], [(p.pid, p.cmdline()) for p in left]
    finally:
        process.kill()
        for orphan in started_by(psutil, tag):
            with contextlib.suppress(psutil.Error):
                orphan.kill()


def workers_of(processes: list) -> list:
    """The sweep's worker processes among `processes` (multiprocessing starts them by spawn)."""
    found = []
    for process in processes:
        with contextlib.suppress(Exception):
            if "spawn_main" in " ".join(process.cmdline()):
                found.append(process)
    return found


def all_stepping(workers: list, count: int) -> bool:
    """`count` workers, each past its start: imports and kernels loaded take well under a
    second of processor time, so two seconds each means they are stepping their variants."""
    try:
        return len(workers) == count and all(w.cpu_times().user >= 2.0 for w in workers)
    except Exception:  # a worker that ended meanwhile
        return False


def started_by(psutil, tag: str) -> list:
    """The processes of a test's sweep, the orphans of a killed one too: they have its tag."""
    found = []
    for candidate in psutil.process_iter():
        with contextlib.suppress(psutil.Error):
            if candidate.environ().get("CLOTHLAB_TEST_TAG") == tag:
                found.append(candidate)
    return found


# --- a Dask cluster of real processes: `dask scheduler`, `dask worker` ------------------------


def start_scheduler(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    """A `dask scheduler` on a free port; its address, once it listens."""
    address_file = folder / "scheduler.json"
    scheduler = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port",
         "0", "--no-dashboard", "--scheduler-file", str(address_file)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=folder,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while not address_file.exists() or not address_file.read_text().strip().endswith("}"):
        assert time.monotonic() < deadline and scheduler.poll() is None
        time.sleep(0.1)
    return scheduler, json.loads(address_file.read_text())["address"]


def start_worker(python: str, address: str, folder: Path) -> subprocess.Popen[bytes]:
    """A `dask worker` of one thread, run by `python`, once the scheduler has it."""
    distributed = pytest.importorskip("distributed")
    worker = subprocess.Popen(
        [python, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1", "--no-nanny",
         "--no-dashboard"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=folder,
    )  # fmt: skip
    with distributed.Client(address, timeout=60) as client:
        client.wait_for_workers(1, timeout=120)
    return worker


@pytest.fixture
def processes():
    started: list[subprocess.Popen[bytes]] = []
    yield started
    for process in started:
        process.kill()
        process.wait()


@pytest.fixture
def python_without_clothlab(tmp_path: Path) -> str:
    """A Python of a virtual environment that sees this one's packages (Dask, numpy) but not
    Cloth Lab: a path line in a .pth file adds a folder, but not the .pth files in it, and
    Cloth Lab is installed (editable) by one of those."""
    import sysconfig
    import venv

    home = tmp_path / "without-clothlab"
    venv.create(home, with_pip=False)
    python = str(home / "bin" / "python")
    where = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    purelib = subprocess.run([python, "-c", where], capture_output=True, text=True, check=True)
    Path(purelib.stdout.strip(), "borrowed.pth").write_text(sysconfig.get_paths()["purelib"])
    check = subprocess.run([python, "-c", "import distributed, numpy; import clothlab"],
                           capture_output=True, text=True, cwd=tmp_path)  # fmt: skip
    assert "No module named 'clothlab'" in check.stderr, check.stderr  # and nothing else missing
    return python


def test_workers_without_clothlab_are_one_line_and_write_nothing(
    tmp_path, processes, python_without_clothlab
):
    scheduler, address = start_scheduler(tmp_path)
    processes.append(scheduler)
    processes.append(start_worker(python_without_clothlab, address, tmp_path))
    table = tmp_path / "sweep.csv"
    table.write_text("the user's\n")
    result = clothlab("sweep", "hanging-sheet", "--vary", "passes=2,4", "--steps", "20",
                      "--scheduler", address, "--csv", str(table))  # fmt: skip
    assert result.returncode == 2
    assert result.stderr == "clothlab: error: the workers cannot import clothlab: install it " \
        "there (the same version as here)\n"  # fmt: skip
    assert table.read_text() == "the user's\n" and result.stdout == ""


@pytest.mark.parametrize("killed", ["scheduler", "workers"])
def test_a_cluster_killed_mid_sweep_keeps_the_rows_finished(tmp_path, processes, killed):
    """One worker of one thread runs the variants one by one (the later ones slower: more
    passes); the scheduler or the worker is SIGKILLed once two have finished (the progress
    line on the terminal says so)."""
    scheduler, address = start_scheduler(tmp_path)
    worker = start_worker(sys.executable, address, tmp_path)
    processes.extend([scheduler, worker])
    table = tmp_path / "sweep.csv"
    controller, terminal = pty.openpty()
    process = subprocess.Popen(
        [*MAIN, "sweep", "hanging-sheet", "--vary", "passes=2,4,8,16,32,64", "--steps", "8000",
         "--scheduler", address, "--csv", str(table)],
        stdout=subprocess.PIPE, stderr=terminal, cwd=ROOT, text=True,
    )  # fmt: skip
    processes.append(process)  # type: ignore[arg-type]
    os.close(terminal)
    seen = b""
    try:
        deadline = time.monotonic() + TIMEOUT_S
        while not re.search(rb"variant [2-5] of 6", seen):  # two finished, or more (one look)
            assert time.monotonic() < deadline and process.poll() is None, seen
            seen += _read(controller)
        {"scheduler": scheduler, "workers": worker}[killed].kill()
        stdout, _ = process.communicate(timeout=120)
        seen += read_terminal_to_the_end(controller)
    finally:
        os.close(controller)
    text = seen.decode()
    assert process.returncode == 4, text
    assert "Traceback" not in text and "distributed" not in text and "ERROR" not in text, text
    finished = int(re.findall(r"after (\d+) of 6 variants", text)[-1])
    assert 2 <= finished < 6
    assert text.endswith(f"\x1b[Kclothlab: error: the {killed} went away after {finished} of 6 "
                         f"variants; {finished} rows written to {table}\r\n")  # fmt: skip
    rows = list(csv.DictReader(table.open()))
    assert [r["status"] for r in rows] == ["ok"] * finished
    assert all(r["step"] == "8000" for r in rows)
    assert len(stdout.splitlines()) == 1 + finished  # the table of the rows finished


def _read(controller: int) -> bytes:
    try:
        return os.read(controller, 65536)
    except OSError as error:  # EIO: the terminal has no writer left
        assert error.errno == errno.EIO
        return b""
