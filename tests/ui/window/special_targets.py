"""Special files where the app writes or reads: the kinds a guarded writer refuses, made for
real, what each looked like before, and a guard that turns a read or write blocked on a FIFO
into a failure instead of a hung test.

The character device is a node of the test's own (os.mknod in the test's folder, of the same
device as /dev/null), reached through a symlink: a writer that replaced what the link names once
replaced the machine's /dev/null; now a regression can only replace the test's node. Where a
node cannot be made (not root, a filesystem mounted nodev), those tests are skipped."""

from __future__ import annotations

import contextlib
import os
import socket
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

KINDS = ("link to a device", "FIFO", "socket", "folder", "read-only file")
# what the one line says for each kind (sim.document.files.inspect_target)
REASONS = {
    "link to a device": "is a character device, not a regular file",
    "FIFO": "is a FIFO (named pipe), not a regular file",
    "socket": "is a socket, not a regular file",
    "folder": "is a folder, not a regular file",
    "read-only file": "is read-only (mode 0444)",
}
READ_ONLY_TEXT = b"[General]\nkept=as it was\n"
NULL_DEVICE = os.makedev(1, 3)  # the null device: what is written through the node goes nowhere
DEVICE_FOLDER = ".devices"  # beside the path made: the test's own folder holds the node


def own_device(folder: Path) -> Path:
    """A character device node of the null device in `folder`/.devices (made once); skips the
    test where nodes cannot be made."""
    node = folder / DEVICE_FOLDER / "null"
    if stat.S_ISCHR(os.lstat(node).st_mode if os.path.lexists(node) else 0):
        return node
    node.parent.mkdir(exist_ok=True)
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, NULL_DEVICE)
    except PermissionError as error:
        pytest.skip(f"cannot make a device node here: {error}")
    if not _opens(node):  # made, but a nodev mount refuses to open it
        node.unlink()
        pytest.skip(f"device nodes do not open in {folder}")
    return node


def _opens(node: Path) -> bool:
    try:
        os.close(os.open(node, os.O_WRONLY))
    except OSError:
        return False
    return True


def make_special(path: Path, kind: str) -> None:
    """Make `path` (its folder made if needed) the `kind` of file KINDS names."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "link to a device":
        path.symlink_to(own_device(path.parent))
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
        device = os.stat(path)
        return (
            "link",
            os.readlink(path),
            stat.S_ISCHR(device.st_mode),
            device.st_rdev,
            siblings,
            tuple(sorted(os.listdir(Path(path.parent, os.readlink(path)).parent))),
        )
    if stat.S_ISDIR(status.st_mode):
        return ("folder", status.st_ino, tuple(sorted(os.listdir(path))), siblings)
    if stat.S_ISREG(status.st_mode):
        return ("file", status.st_ino, status.st_mode, path.read_bytes(), siblings)
    return (stat.S_IFMT(status.st_mode), status.st_ino, siblings)


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
