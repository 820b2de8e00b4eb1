"""Reliability 5 — the command line's failures and long runs.

Every failure is exit 2 and exactly one line on stderr, whatever the file system or the
argument does; a FIFO never hangs it; a long run shows progress on a terminal only, stops on
Ctrl+C with exit 130 keeping the CSV rows it finished, and streams its CSV in flat memory. Run
as the console script runs it, reading its output: in a subprocess where the process is what
is tested (its standard streams, a signal, a hang, its writes failing), else in this one.
"""

from __future__ import annotations

import csv
import json
import os
import pty
import signal
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest
from cli_helpers import clothlab_in_process
from sim_helpers import read_terminal_to_the_end

from clothlab.app import cli
from clothlab.sim.core.readouts import CSV_COLUMNS, CSV_HEADER
from clothlab.sim.document.scene import MIN_SPACING

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT_S = 120  # a hang fails the test instead of stopping the run
MAIN = [sys.executable, "-m", "clothlab.app.main"]
# The CLI with every write(2) failing as on a full disk.
FULL_DISK = [
    sys.executable, "-c",
    "import errno, os, sys\n"
    "def full(fd, data):\n"
    "    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))\n"
    "os.write = full\n"
    "from clothlab.app.main import main\n"
    "sys.exit(main(sys.argv[1:]))\n",
]  # fmt: skip


def in_a_process(*args: str, command: list[str] = MAIN) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*command, *args], capture_output=True, text=True, cwd=ROOT, timeout=TIMEOUT_S
    )


clothlab = clothlab_in_process


def one_error_line(result: subprocess.CompletedProcess) -> str:
    """The failure's one stderr line; asserts exit 2 and nothing else on stderr."""
    assert result.returncode == 2, (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and result.stderr.endswith("\n"), result.stderr
    assert lines[0].startswith("clothlab: error: ")
    return lines[0]


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# --- every failure is one line ----------------------------------------------------------------


def test_a_read_only_folder(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    line = one_error_line(clothlab("run", "hanging-sheet", "--csv", str(locked / "r.csv")))
    assert line == f"clothlab: error: {locked / 'r.csv'}: folder {locked} is read-only"
    assert list(locked.iterdir()) == []


def test_a_read_only_file(tmp_path):
    target = tmp_path / "r.csv"
    target.write_text("precious\n")
    target.chmod(0o444)
    line = one_error_line(clothlab("run", "hanging-sheet", "--save", str(target)))
    assert line.endswith(": is read-only (mode 0444)")
    assert target.read_text() == "precious\n"


@pytest.mark.parametrize("option", ["--csv", "--positions", "--save"])
def test_a_full_disk(tmp_path, option):
    target = tmp_path / "out"
    result = in_a_process(
        "run", "hanging-sheet", "--steps", "5", option, str(target), command=FULL_DISK
    )
    assert one_error_line(result) == f"clothlab: error: {target}: No space left on device"
    assert list(tmp_path.iterdir()) == []  # neither the file nor a temp file


@pytest.mark.parametrize("length", [243, 250, 255])
def test_names_of_243_to_255_characters_work(tmp_path, length):
    target = tmp_path / ("r" * (length - 4) + ".csv")
    result = clothlab("run", "hanging-sheet", "--steps", "3", "--csv", str(target))
    assert result.returncode == 0 and result.stderr == ""
    assert len(target.read_text().splitlines()) == 1 + 4
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize(
    "args",
    [
        ["run", "s" * 300],
        ["run", "hanging-sheet", "--csv", "c" * 300],
        ["run", "hanging-sheet", "--save", "folder/" + "s" * 300 + "/scene.json"],
        ["run", "hanging-sheet", "--positions", "p" * 256],
        ["run", "hanging-sheet", "--set", "wind=" + "9" * 300],
        ["run", "hanging-sheet", "--steps", "9" * 300],
    ],
    ids=["scene", "csv", "save-folder", "positions-256", "set", "steps"],
)
def test_a_300_character_argument(tmp_path, args):
    line = one_error_line(clothlab(*args, cwd=tmp_path))
    assert len(line) <= len("clothlab: error: ") + 400  # the middle elided
    assert "…" in line or len(" ".join(args)) < 400


@pytest.mark.parametrize(
    "args, escaped",
    [
        (["run", "a\nb"], "a\\nb"),
        (["run", "hanging-sheet", "--csv", "x\ny/z.csv"], "x\\ny/z.csv"),
        (["run", "hanging-sheet", "--set", "pa\nsses=3"], "pa\\nsses"),
        (["run", "hanging-sheet", "--steps", "1\n2"], "1\\n2"),
        (["run", "hanging-sheet", "--save", "bell\a\x1b[31m/s.json"], "bell\\x07\\x1b[31m"),
    ],
    ids=["scene", "csv", "set", "steps", "control-characters"],
)
def test_an_argument_with_a_newline_or_control_characters(tmp_path, args, escaped):
    assert escaped in one_error_line(clothlab(*args, cwd=tmp_path))
    assert list(tmp_path.iterdir()) == []


def test_csv_to_standard_output_is_refused(tmp_path):
    """`--csv /dev/stdout`, through a link of our own to the same place (/proc/self/fd/1), so
    that code which replaced the link would not replace the system's /dev/stdout."""
    stdout = tmp_path / "stdout"
    stdout.symlink_to("/proc/self/fd/1")
    result = in_a_process("run", "hanging-sheet", "--steps", "2", "--csv", str(stdout))
    line = one_error_line(result)
    assert line.endswith(": is a FIFO (named pipe), not a regular file")  # stdout is a pipe
    assert stdout.is_symlink()


def test_csv_to_the_file_stdout_is_redirected_to_is_refused(tmp_path):
    log = tmp_path / "log.txt"
    with log.open("w") as stream:
        result = subprocess.run(
            [*MAIN, "run", "hanging-sheet", "--steps", "2", "--csv", str(log)],
            stdout=stream, stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=TIMEOUT_S,
        )  # fmt: skip
    assert one_error_line(result).endswith("is this command's standard output or error")


def test_a_scene_name_is_printed_with_control_characters_escaped(tmp_path):
    scene = tmp_path / "evil.json"
    scene.write_text(
        '{"format": "clothlab-scene", "schema_version": 3, "name": "two\\nlines\\u001b[2J"}'
    )
    result = clothlab("run", str(scene), "--steps", "1")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0].split(None, 1) == ["scene", "two\\nlines\\x1b[2J"]


def test_a_fifo_is_one_line_and_does_not_hang(tmp_path):
    fifo = tmp_path / "scene.json"
    os.mkfifo(fifo)
    line = one_error_line(in_a_process("run", str(fifo)))  # TimeoutExpired if it blocks
    assert line == f"clothlab: error: {fifo}: is a FIFO (named pipe), not a scene file"
    csv_fifo = tmp_path / "rows.csv"
    os.mkfifo(csv_fifo)
    line = one_error_line(in_a_process("run", "hanging-sheet", "--csv", str(csv_fifo)))
    assert line.endswith("is a FIFO (named pipe), not a regular file")


@pytest.mark.parametrize("version", [2, 3])
@pytest.mark.parametrize("spacing", [1e-17, 0.00009])
def test_a_degenerate_spacing_is_one_line(tmp_path, spacing, version):
    """Version 3 sizes a sheet in units (a 3 × 3 sheet of width w has spacing w/2); version 2
    gave the spacing, migrated to the same size."""
    size = {"spacing": spacing} if version == 2 else {"width": 2 * spacing, "height": 2 * spacing}
    body = {"kind": "sheet", "cols": 3, "rows": 3, **size}
    scene = tmp_path / "tiny.json"
    scene.write_text(
        json.dumps({"format": "clothlab-scene", "schema_version": version, "bodies": [body]})
    )
    line = one_error_line(clothlab("run", str(scene), "--steps", "2"))
    if 2 * spacing < MIN_SPACING:  # below the smallest length a scene may give
        assert line == (
            f"clothlab: error: {scene}: bodies.0.width: Input should be greater than or equal "
            f"to {MIN_SPACING}"
        )
        return
    assert line == (
        f"clothlab: error: {scene}: bodies.0: a {2 * spacing:g} × {2 * spacing:g} sheet of 3 × 3 "
        f"particles is finer than {MIN_SPACING:g} units between particles"
    )


def test_steps_are_bounded():
    line = one_error_line(clothlab("run", "hanging-sheet", "--steps", str(cli.MAX_STEPS + 1)))
    assert line == f"clothlab: error: --steps: {cli.MAX_STEPS + 1} is more than 1_000_000_000"


# --- long runs ----------------------------------------------------------------------------------


def test_progress_is_shown_on_a_terminal_and_cleared():
    controller, terminal = pty.openpty()
    try:
        process = subprocess.Popen(
            [*MAIN, "run", "hanging-sheet", "--steps", "300"],
            stdout=subprocess.PIPE, stderr=terminal, cwd=ROOT, text=True,
        )  # fmt: skip
        os.close(terminal)
        terminal = -1
        stdout, _ = process.communicate(timeout=TIMEOUT_S)
        seen = read_terminal_to_the_end(controller)
    finally:
        os.close(controller)
        if terminal >= 0:
            os.close(terminal)
    assert process.returncode == 0
    text = seen.decode()
    assert text.startswith("\rstep 0 of 300 (0.0 %)\x1b[K")  # at once, not after a while
    assert text.endswith("\r\x1b[K")  # and gone before the readouts are printed
    assert "Traceback" not in text and "\n" not in text.replace("\r\n", "")
    assert stdout.startswith("scene ")


def test_no_progress_when_stderr_is_not_a_terminal():
    result = clothlab("run", "hanging-sheet", "--steps", "300")
    assert result.returncode == 0 and result.stderr == ""


def wait_for_rows(folder: Path, process: subprocess.Popen) -> None:
    """Until the run has streamed its first block of CSV rows to its temp file."""
    deadline = time.monotonic() + TIMEOUT_S
    while time.monotonic() < deadline and process.poll() is None:
        if any(p.stat().st_size > 0 for p in folder.glob(".rows.csv.*.tmp")):
            return
        time.sleep(0.05)
    raise AssertionError(f"no CSV rows streamed (exit {process.poll()})")


def test_ctrl_c_stops_with_exit_130_and_keeps_every_finished_row(tmp_path):
    table = tmp_path / "rows.csv"
    process = subprocess.Popen(
        [*MAIN, "run", "hanging-sheet", "--steps", str(cli.MAX_STEPS), "--csv", str(table),
         "--save", str(tmp_path / "scene.json")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        # as a terminal's Ctrl+C finds it, even where this test runs with SIGINT ignored
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    try:
        wait_for_rows(tmp_path, process)
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=TIMEOUT_S)
    finally:
        process.kill()
    assert process.returncode == cli.EXIT_INTERRUPTED, stderr
    (line,) = stderr.splitlines()
    assert line.startswith("clothlab: interrupted after step ") and "Traceback" not in stderr
    last = int(line.split()[4])
    assert line == (
        f"clothlab: interrupted after step {last} of {cli.MAX_STEPS}; "
        f"{last + 1} rows written to {table}"
    )
    rows = list(csv.reader(table.open()))
    assert rows[0] == list(CSV_HEADER)
    assert [int(r[0]) for r in rows[1:]] == list(range(last + 1))  # every step, none cut off
    assert all(len(r) == len(CSV_COLUMNS) and float(r[1]) >= 0 for r in rows[1:])
    assert stdout == "" and not (tmp_path / "scene.json").exists()  # only the CSV is kept
    assert leftovers(tmp_path) == []
    print(f"\nCtrl+C after step {last}: exit 130, {last + 1} complete rows kept")


def test_a_long_csv_run_streams_its_rows_in_flat_memory(tmp_path, capsys):
    table = tmp_path / "rows.csv"
    small = ["--set", "cols=4", "--set", "rows=3"]
    assert cli.main(["run", "hanging-sheet", "--steps", "10", *small]) == 0  # warm up the JIT
    steps = 6_000
    tracemalloc.start()
    try:
        status = cli.main(
            ["run", "hanging-sheet", "--steps", str(steps), *small, "--csv", str(table)]
        )
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert status == 0, capsys.readouterr().err
    size = table.stat().st_size
    assert len(table.read_text().splitlines()) == 1 + steps + 1
    # rows kept in memory would be ~330 bytes each (a tuple of 9 floats), 2.0 MB here, and the
    # CSV text (1.8 MB) once more; streamed, the peak is 0.5 MiB at 6 000 steps as at 20 000
    assert peak < 1024 * 1024, peak
    print(f"\n{steps} steps to a {size / 1e6:.1f} MB CSV: peak {peak / 1024:.0f} KiB traced")
