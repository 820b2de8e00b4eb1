"""Special files where the app writes or reads (issue 30, items 2 and 3): the kinds a guarded
writer refuses, made for real (a symlink to /dev/null, never a device node of our own), what
each looked like before, and a guard that turns a read or write blocked on a FIFO into a
failure instead of a hung test."""

from __future__ import annotations

import contextlib
import os
import socket
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

KINDS = ("link to /dev/null", "FIFO", "socket", "folder", "read-only file")
# what the one line says for each kind (sim.document.files.inspect_target)
REASONS = {
    "link to /dev/null": "is a character device, not a regular file",
    "FIFO": "is a FIFO (named pipe), not a regular file",
    "socket": "is a socket, not a regular file",
    "folder": "is a folder, not a regular file",
    "read-only file": "is read-only (mode 0444)",
}
READ_ONLY_TEXT = b"[General]\nkept=as it was\n"


def make_special(path: Path, kind: str) -> None:
    """Make `path` (its folder made if needed) the `kind` of file KINDS names."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "link to /dev/null":
        path.symlink_to(os.devnull)
    elif kind == "FIFO":
        os.mkfifo(path)
    elif kind == "socket":
        # bound by its name within the folder: a socket's full path may hold 107 bytes only
        here = Path.cwd()
        os.chdir(path.parent)
        try:
            with socket.socket(socket.AF_UNIX) as server:
                server.bind(path.name)
        finally:
            os.chdir(here)
    elif kind == "folder":
        path.mkdir()
        (path / "inside.txt").write_text("mine")
    elif kind == "read-only file":
        path.write_bytes(READ_ONLY_TEXT)
        path.chmod(0o444)
    else:
        raise ValueError(kind)


def looks(path: Path) -> tuple[object, ...]:
    """What `path` is and holds, and its folder's names: equal before and after means untouched
    (and no temporary file left beside it)."""
    status = os.lstat(path)
    siblings = tuple(sorted(os.listdir(path.parent)))
    if stat.S_ISLNK(status.st_mode):
        device = os.stat(os.devnull)
        return ("link", os.readlink(path), stat.S_ISCHR(device.st_mode), device.st_rdev, siblings)
    if stat.S_ISDIR(status.st_mode):
        return ("folder", status.st_ino, tuple(sorted(os.listdir(path))), siblings)
    if stat.S_ISREG(status.st_mode):
        return ("file", status.st_ino, status.st_mode, path.read_bytes(), siblings)
    return (stat.S_IFMT(status.st_mode), status.st_ino, siblings)


def dev_temporaries() -> list[str]:
    """Temporary files a write through a link to /dev/null would leave in /dev."""
    return sorted(name for name in os.listdir("/dev") if name.endswith(".tmp"))


# Opens both ends of a FIFO and closes them, again each second, after a first wait.
RELEASE = """
import contextlib, os, sys, time
time.sleep(float(sys.argv[2]))
while True:
    with contextlib.suppress(OSError):
        reader = os.open(sys.argv[1], os.O_RDONLY | os.O_NONBLOCK)
        with contextlib.suppress(OSError):
            os.close(os.open(sys.argv[1], os.O_WRONLY | os.O_NONBLOCK))
        os.close(reader)
    time.sleep(1.0)
"""


@contextlib.contextmanager
def unblocking(fifo: Path, after_s: float = 10.0) -> Iterator[None]:
    """If something still waits on `fifo` after `after_s` (an open for reading waits for a
    writer, one for writing for a reader), open both ends and close them, and again each second:
    code that would hang then goes on, and the test fails on what it did instead of hanging.
    Another process does it: Qt waits in an open() holding Python's lock, so no thread of the
    test could run meanwhile."""
    helper = subprocess.Popen([sys.executable, "-c", RELEASE, str(fifo), str(after_s)])
    try:
        yield
    finally:
        helper.kill()
        helper.wait()
