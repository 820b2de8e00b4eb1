"""Folders written all or nothing: a run's frames (`clothlab run --obj-dir`).

The files go to a new folder beside the target, which commit() swaps in whole: the target then
holds exactly what was written, never a mix with what it held before (moving the files in one
by one left a longer earlier run's last frames behind, and a kill during the moves left the
frames of two runs). The swap is one rename: where the system can (Linux renameat2), an atomic
exchange of the two folders, so that the target is never missing; elsewhere the old folder is
renamed aside first, and put back by the next write if a kill came between the two renames.

An existing target is replaced only if all it holds is files the caller's `replaceable` accepts
(frames of an earlier run): anything else is refused in one line, never deleted.

The new folder is called ``.NAME.PID.RANDOM.new`` (the old one set aside, ``….old``), as the
temporary files of sim.document.files are: a write removes those of the same target left by
processes that are gone (SIGKILL cannot be caught).
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import re
import secrets
import shutil
import stat
import sys
from collections.abc import Callable
from pathlib import Path

from clothlab.sim.document.files import (
    FileRefusedError,
    _alive,
    _temp_prefix,
    _writable,
    file_kind,
)

NEW, OLD = ".new", ".old"
_AT_FDCWD = -100
_RENAME_EXCHANGE = 2  # <linux/fs.h>


class AtomicFolder:
    """A folder written beside `path` (`staging`) and swapped in on commit(); discard() removes
    it and leaves `path` as it was. Opening checks the target, so a folder that cannot be
    replaced is found before any work is done; commit() checks it again."""

    def __init__(self, path: str | os.PathLike[str], replaceable: Callable[[str], bool]) -> None:
        self.path = Path(path)
        self.replaceable = replaceable
        # through symlinks, as for files: the folder a link names is replaced, the link stays
        self.target = Path(os.path.realpath(self.path))
        self._check_parent()
        remove_stale_folders(self.target)  # first: it may put back the target itself
        self._check_target()
        prefix = f"{_temp_prefix(self.target.name)}{os.getpid()}."
        while True:
            self.staging = self.target.parent / f"{prefix}{secrets.token_hex(4)}{NEW}"
            try:
                os.mkdir(self.staging, 0o777)  # the kernel applies the umask, as for any folder
                break
            except FileExistsError:
                continue

    def _check_parent(self) -> None:
        """Refuse a target whose folder is read-only by its mode, as a file's save is: root may
        write there regardless of the mode, and a run once wrote its frames into a 0555 folder
        that `--csv` into the same folder refused."""
        parent = self.target.parent
        status = os.stat(parent)
        if not _writable(status, parent, os.W_OK | os.X_OK):
            mode = stat.S_IMODE(status.st_mode)
            reason = f"folder {parent} is read-only (mode {mode:04o})"
            raise FileRefusedError(errno.EACCES, reason, str(self.path))

    def _check_target(self) -> os.stat_result | None:
        """The target's status (None if there is none yet). Raises FileRefusedError if it is
        not a folder or holds something `replaceable` does not accept, OSError if it cannot
        be looked at (a symlink loop, no permission)."""
        try:
            status = os.stat(self.path)
        except FileNotFoundError:
            return None
        if not stat.S_ISDIR(status.st_mode):
            kind = file_kind(status.st_mode)
            raise FileRefusedError(errno.ENOTDIR, f"is {kind}, not a folder", str(self.path))
        if not _writable(status, self.target, os.W_OK | os.X_OK):  # as for files: mode says no
            mode = stat.S_IMODE(status.st_mode)
            raise FileRefusedError(errno.EACCES, f"is read-only (mode {mode:04o})", str(self.path))
        with os.scandir(self.target) as entries:
            for entry in entries:
                if not (entry.is_file(follow_symlinks=False) and self.replaceable(entry.name)):
                    reason = f"holds {entry.name!r}"
                    raise FileRefusedError(errno.ENOTEMPTY, reason, str(self.path))
        return status

    def commit(self) -> None:
        """Swap the new folder in; the old one's files are deleted. Either way the new folder
        is gone from beside the target."""
        try:
            status = self._check_target()
            if status is None:
                if _rename_new(self.staging, self.target):
                    return
                status = self._check_target()  # made during the run: what does it hold?
            if status is not None:
                os.chmod(self.staging, stat.S_IMODE(status.st_mode))  # the user's folder's mode
            if _exchange(self.staging, self.target):
                shutil.rmtree(self.staging, ignore_errors=True)  # it holds the old files now
                return
            aside = self.staging.with_name(self.staging.name[: -len(NEW)] + OLD)
            os.rename(self.target, aside)
            try:
                os.rename(self.staging, self.target)
            except BaseException:
                os.rename(aside, self.target)
                raise
            shutil.rmtree(aside, ignore_errors=True)
        except BaseException:
            self.discard()
            raise

    def discard(self) -> None:
        """Remove the new folder; the target is left as it was. Safe to call twice."""
        shutil.rmtree(self.staging, ignore_errors=True)


def _rename_new(source: Path, target: Path) -> bool:
    """Rename `source` to a `target` that did not exist; False if it does now (made meanwhile)."""
    try:
        os.rename(source, target)  # onto an empty folder made meanwhile, too: nothing is lost
    except OSError as error:
        if error.errno in (errno.EEXIST, errno.ENOTEMPTY):
            return False
        raise
    return True


def _exchange(first: Path, second: Path) -> bool:
    """Swap two folders' names in one step (Linux renameat2); False where it cannot be done."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2  # glibc 2.28 on
    except AttributeError:
        return False
    done = renameat2(_AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second),
                     _RENAME_EXCHANGE)  # fmt: skip
    if done == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL):  # an old kernel, or a file system that cannot
        return False
    raise OSError(code, os.strerror(code), str(second))


def remove_stale_folders(target: Path) -> list[str]:
    """Remove the new folders of writes to `target` whose process is gone; put an old folder
    back if its process was killed between its two renames (the target is missing). Their
    names."""
    pattern = re.compile(re.escape(_temp_prefix(target.name)) + r"(\d+)\.[0-9a-f]{8}(\.new|\.old)")
    try:
        with os.scandir(target.parent) as entries:
            stale = [
                (entry.name, found.group(2))
                for entry in entries
                if (found := pattern.fullmatch(entry.name))
                and entry.is_dir(follow_symlinks=False)
                and not _alive(int(found.group(1)))
            ]
    except OSError:
        return []
    for name, kind in sorted(stale, key=lambda item: item[1] != OLD):  # put back, then delete
        path = target.parent / name
        if kind == OLD and not os.path.lexists(target):
            with contextlib.suppress(OSError):  # if it cannot be put back, it is left as it is
                os.rename(path, target)
            continue
        shutil.rmtree(path, ignore_errors=True)
    return [name for name, _ in stale]
