"""The command line run in the test's own process: `clothlab ARGS…` as the console script
runs it (app.main.main), its output captured."""

from __future__ import annotations

import contextlib
import io
import subprocess
from pathlib import Path

from clothlab.app.main import main


def clothlab_in_process(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """What `clothlab ARGS…` returns and prints, run by the function the console script calls:
    the code a subprocess runs, without the 0.8 s a subprocess takes to start (its imports, its
    kernels loaded from numba's cache). A test of the process itself (its exit on a signal,
    its standard streams as files, a closed pipe) runs a subprocess."""
    out, err = io.StringIO(), io.StringIO()
    folder = contextlib.chdir(cwd) if cwd is not None else contextlib.nullcontext()
    with folder, contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as exit:  # argparse's --help: the console script exits so too
            code = exit.code if isinstance(exit.code, int) else 1
    return subprocess.CompletedProcess(["clothlab", *args], code, out.getvalue(), err.getvalue())
