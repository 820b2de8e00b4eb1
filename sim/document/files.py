"""Files the model writes and reads: scenes, CSV, positions, recovery files.

Every write is atomic: the bytes go to a temporary file beside the target, which is flushed,
synced and renamed over it, so the target is always the old or the new complete file. A rename
replaces whatever has the name, so before it the target is checked:

* a symlink is followed: the file it names is updated and the link stays a link; the temporary
  file goes in that file's folder, so a link to another file system works;
* only regular files are replaced. A device, FIFO, socket or folder is refused in one line:
  renaming over /dev/null as root would replace the system's /dev/null with a plain file;
* a read-only file (no write bit at all, or none for this user) is refused. Root may write
  anything, so for root the mode bits are all that says "do not";
* the new file keeps the old one's mode and owner; a new file gets 0666 less the umask, as any
  program's would (not mkstemp's 0600).

Temporary files are called ``.NAME.PID.RANDOM.tmp`` (NAME shortened for long names, so a
255-byte target name still leaves room). An exception or Ctrl+C removes its own; SIGKILL cannot
be caught, so each save also removes those of the same target left by processes that are gone.
Writers that work in a folder of their own (a video being encoded) make it with
make_temp_folder, named ``PREFIX.PID.RANDOM`` for the same reason.

Reads open regular files only, without blocking: opening a FIFO would wait for a writer forever.
"""

from __future__ import annotations

import contextlib
import errno
import gc
import hashlib
import json
import os
import re
import secrets
import shutil
import stat
from collections.abc import Iterator
from itertools import chain
from pathlib import Path
from types import TracebackType
from typing import Any

import numpy as np
from pydantic_core import from_json

from clothlab.sim.text import tr

CHUNK = 1 << 16  # bytes gathered before a write(2)
TEMP_SUFFIX = ".tmp"
_NAME_KEPT = 40  # bytes of the target's name a temporary file's name keeps whole
_NAME_CUT = 24  # … and of a longer name, followed by a hash of all of it


class FileRefusedError(OSError):
    """A file Cloth Lab will not replace or read (what it is, or its mode, says not to).
    str() is the one-line reason, e.g. "is a FIFO (named pipe), not a regular file"."""

    def __str__(self) -> str:
        return self.strerror or super().__str__()


class NotARegularFileError(FileRefusedError):
    def __init__(self, path: str | os.PathLike[str], kind: str) -> None:
        code = errno.EISDIR if kind == "a folder" else errno.EINVAL
        super().__init__(code, f"is {kind}, not a regular file", os.fspath(path))
        self.kind = kind


class FileTooLargeError(FileRefusedError):
    def __init__(self, path: str | os.PathLike[str], limit: int) -> None:
        reason = tr("is larger than {limit} bytes").format(limit=limit)
        super().__init__(errno.EFBIG, reason, os.fspath(path))
        self.limit = limit


def resolved(path: str | os.PathLike[str]) -> Path:
    """The absolute path, symbolic links followed; an OSError (ELOOP) for a loop of them,
    which Python 3.11's Path.resolve raises as a RuntimeError."""
    try:
        return Path(path).resolve()
    except RuntimeError:
        raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), os.fspath(path)) from None


def describe(error: BaseException) -> str:
    """The reason an error gives, without its errno and file name: "No space left on device"."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error) or type(error).__name__


_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
)


def file_kind(mode: int) -> str:
    """What an st_mode describes, in words: "a regular file", "a FIFO (named pipe)", …"""
    if stat.S_ISREG(mode):
        return "a regular file"
    return next((kind for test, kind in _KINDS if test(mode)), "not a file")


def _require_regular(status: os.stat_result, path: str | os.PathLike[str]) -> None:
    if not stat.S_ISREG(status.st_mode):
        raise NotARegularFileError(path, file_kind(status.st_mode))


def _writable(status: os.stat_result, path: str | os.PathLike[str], mode: int) -> bool:
    if not status.st_mode & 0o222:
        return False  # read-only for everyone, root included: root's writes ignore the bits
    if not hasattr(os, "geteuid") or os.geteuid() == 0:
        return True
    effective = os.access in os.supports_effective_ids
    return os.access(path, mode, effective_ids=effective)


# --- writing ---------------------------------------------------------------------------------


def inspect_target(path: str | os.PathLike[str]) -> tuple[Path, os.stat_result | None]:
    """(the file a save to `path` replaces, its status, or None for a new file). Raises
    FileRefusedError if saving there would destroy something else, OSError if it cannot be looked
    at (a name too long, a symlink loop, no permission)."""
    try:
        status: os.stat_result | None = os.stat(path)  # through symlinks, as a write would go
    except FileNotFoundError:
        status = None
    target = Path(os.path.realpath(path))
    if status is not None:
        _require_regular(status, path)
        try:
            resolved = os.stat(target)
        except FileNotFoundError:
            resolved = None
        # /dev/stdout and /proc/self/fd/N name open files, not names a rename can replace
        same = resolved is not None and os.path.samestat(resolved, status)
        if not same:
            reason = tr("is not a file name that can be replaced")
            raise FileRefusedError(errno.EINVAL, reason, str(path))
        if not _writable(status, target, os.W_OK):
            mode = stat.S_IMODE(status.st_mode)
            reason = tr("is read-only (mode {mode:04o})").format(mode=mode)
            raise FileRefusedError(errno.EACCES, reason, str(path))
    folder = target.parent
    try:
        folder_status = os.stat(folder)
    except FileNotFoundError:
        reason = tr("folder {folder} does not exist").format(folder=folder)
        raise FileRefusedError(errno.ENOENT, reason, str(path)) from None
    if not stat.S_ISDIR(folder_status.st_mode):
        reason = tr("{folder} is not a folder").format(folder=folder)
        raise FileRefusedError(errno.ENOTDIR, reason, str(path))
    if not _writable(folder_status, folder, os.W_OK | os.X_OK):
        reason = tr("folder {folder} is read-only").format(folder=folder)
        raise FileRefusedError(errno.EACCES, reason, str(path))
    return target, status


def _temp_prefix(name: str) -> str:
    raw = os.fsencode(name)
    if len(raw) > _NAME_KEPT:
        # a cut through a multi-byte character is kept as surrogate escapes: the same bytes
        name = os.fsdecode(raw[:_NAME_CUT]) + "~" + hashlib.sha256(raw).hexdigest()[:8]
    return f".{name}."


def _alive(pid: int) -> bool:
    if os.name != "posix" or pid == os.getpid():
        return True  # this process's own (another thread may be saving); elsewhere, keep it
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process
    except (OverflowError, ValueError):
        return False  # no process can have that number
    return True


def remove_stale_temps(target: Path, names: str | None = None) -> list[str]:
    """Remove temporary files of saves to `target` whose process is gone; their names. With
    `names` (a regular expression for target names in target's folder), those of saves to any
    file so named: a writer whose file name is new each run (the autosave's) finds the
    temporary files of its earlier, killed runs that way."""
    name = re.escape(_temp_prefix(target.name)) if names is None else rf"\.(?:{names})\."
    pattern = re.compile(name + r"(\d+)\.[0-9a-f]{8}" + re.escape(TEMP_SUFFIX))
    return _remove_stale(target.parent, pattern, folders=False)


def _remove_stale(folder: Path, pattern: re.Pattern[str], folders: bool) -> list[str]:
    """Remove the entries of `folder` whose names `pattern` matches in full, with the process
    id in its first group gone; regular files only, or (`folders`) folders and what they hold.
    Symbolic links are never followed: only what a writer made itself is removed."""
    removed: list[str] = []
    try:
        with os.scandir(folder) as entries:
            stale = [
                entry.name
                for entry in entries
                if (found := pattern.fullmatch(entry.name))
                and (entry.is_dir if folders else entry.is_file)(follow_symlinks=False)
                and not _alive(int(found.group(1)))
            ]
    except OSError:
        return removed
    for name in stale:
        try:
            if folders:
                shutil.rmtree(folder / name)
            else:
                os.unlink(folder / name)
        except OSError:
            continue
        removed.append(name)
    return removed


def make_temp_folder(parent: Path, prefix: str) -> Path:
    """A new, private folder ``PREFIX.PID.RANDOM`` in `parent` for a writer's work in progress,
    after removing those of the same prefix whose process is gone (a SIGKILL leaves them).
    Raises OSError if it cannot be made."""
    remove_stale_temp_folders(parent, prefix)
    while True:
        folder = parent / f"{prefix}.{os.getpid()}.{secrets.token_hex(4)}"
        try:
            folder.mkdir(mode=0o700)
            return folder
        except FileExistsError:
            continue


def remove_stale_temp_folders(parent: Path, prefix: str) -> list[str]:
    """Remove the folders make_temp_folder(parent, prefix) made for processes that are gone."""
    pattern = re.compile(re.escape(prefix) + r"\.(\d+)\.[0-9a-f]{8}")
    return _remove_stale(parent, pattern, folders=True)


def _copy_owner_and_mode(fd: int, status: os.stat_result) -> None:
    now = os.fstat(fd)
    if hasattr(os, "fchown") and (now.st_uid, now.st_gid) != (status.st_uid, status.st_gid):
        try:
            os.fchown(fd, status.st_uid, status.st_gid)
        except PermissionError:  # only root gives files away; keep at least the group
            with contextlib.suppress(PermissionError):
                os.fchown(fd, -1, status.st_gid)
    os.fchmod(fd, stat.S_IMODE(status.st_mode))  # after chown, which clears set-id bits


def _write_all(fd: int, data: bytes | bytearray | memoryview) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _sync_folder(folder: Path) -> None:
    """Make a rename in `folder` durable (where the system allows opening a folder)."""
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)


@contextlib.contextmanager
def naming(path: str | os.PathLike[str]) -> Iterator[None]:
    """An OSError raised inside that names no file is raised again naming `path`: a write(2)
    error does not say which file it was writing ("No space left on device", and where?)."""
    try:
        yield
    except OSError as error:
        if error.filename is not None:
            raise
        raise OSError(error.errno, describe(error), os.fspath(path)) from error


def write_new_file(path: str | os.PathLike[str], payload: bytes) -> None:
    """Create the file `path` (it must not exist: a writer's own temporary file) with
    `payload`. An OSError names `path`."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    with naming(path):
        fd = os.open(path, flags, 0o666)
        try:
            _write_all(fd, payload)
        finally:
            os.close(fd)


class AtomicFile:
    """A file written beside its target and renamed over it on commit(); discard() (or an
    exception inside `with`) removes it and leaves the target as it was.

    Opening checks the target (see inspect_target) and creates the temporary file, so a file
    that cannot be written is found before any work is done; commit() checks it again, as a
    long run may have outlasted the file it was to replace."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.target, status = inspect_target(self.path)
        prefix = _temp_prefix(self.target.name)
        remove_stale_temps(self.target)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
        while True:
            name = f"{prefix}{os.getpid()}.{secrets.token_hex(4)}{TEMP_SUFFIX}"
            self.temporary = self.target.parent / name
            try:
                self._fd = os.open(self.temporary, flags, 0o666)  # the kernel applies the umask
                break
            except FileExistsError:
                continue
        self._buffer = bytearray()
        self._finished = False
        try:
            self._new_file_mode = stat.S_IMODE(os.fstat(self._fd).st_mode)
            if status is not None:  # before any byte is written: a 0600 file stays private
                _copy_owner_and_mode(self._fd, status)
        except BaseException:
            self.discard()
            raise

    def write(self, data: bytes | bytearray) -> None:
        if self._finished:
            raise ValueError(f"{self.path}: already committed or discarded")
        if len(data) >= CHUNK:
            self._drain()
            with naming(self.path):
                _write_all(self._fd, data)
            return
        self._buffer += data
        if len(self._buffer) >= CHUNK:
            self._drain()

    def _drain(self) -> None:
        if self._buffer:
            data = bytes(self._buffer)
            self._buffer.clear()
            with naming(self.path):  # the target's name: the temporary file is ours alone
                _write_all(self._fd, data)

    def commit(self) -> None:
        """Flush, sync and rename over the target. Either way the temporary file is gone."""
        if self._finished:
            raise ValueError(f"{self.path}: already committed or discarded")
        try:
            self._drain()
            target, status = inspect_target(self.path)
            if target != self.target:
                raise FileRefusedError(
                    errno.EINVAL, tr("changed while it was written"), str(self.path)
                )
            if status is not None:
                _copy_owner_and_mode(self._fd, status)
            else:
                os.fchmod(self._fd, self._new_file_mode)
            with naming(self.path):  # a full disk may only say so now
                os.fsync(self._fd)
            fd, self._fd = self._fd, -1
            os.close(fd)
            os.replace(self.temporary, self.target)
        except BaseException:
            self.discard()
            raise
        self._finished = True
        _sync_folder(self.target.parent)

    def discard(self) -> None:
        """Remove the temporary file; the target is left as it was. Safe to call twice."""
        self._finished = True
        self._buffer.clear()
        if self._fd >= 0:
            fd, self._fd = self._fd, -1
            with contextlib.suppress(OSError):
                os.close(fd)
        with contextlib.suppress(OSError):  # gone already (renamed), or it cannot be helped
            os.unlink(self.temporary)

    def __enter__(self) -> AtomicFile:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if kind is None:
            self.commit()
        else:
            self.discard()


def write_atomically(path: str | os.PathLike[str], payload: bytes) -> None:
    """Replace the file at `path` (through symlinks) with `payload`, all or nothing. Raises
    FileRefusedError for a target that must not be replaced, OSError if the write fails."""
    with AtomicFile(path) as file:
        file.write(payload)


# --- reading ---------------------------------------------------------------------------------


def read_regular_file(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file at `path`, at most `limit` of them. Raises
    FileNotFoundError, NotARegularFileError (without opening it: a FIFO would block),
    FileTooLargeError (without reading it), or OSError."""
    _require_regular(os.stat(path), path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0))
    try:
        status = os.fstat(fd)  # what was opened, in case the name changed since the stat
        _require_regular(status, path)
        if status.st_size > limit:
            raise FileTooLargeError(path, limit)
        chunks = []
        total = 0
        while total <= limit:  # the file may grow while it is read
            chunk = os.read(fd, min(max(status.st_size - total, 0) + CHUNK, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    finally:
        os.close(fd)
    if total > limit:
        raise FileTooLargeError(path, limit)
    return b"".join(chunks)


def read_document(
    path: str | os.PathLike[str], limit: int, what: str, error: type[Exception]
) -> bytes:
    """The bytes of a document the user named (a scene, a recording, a question set, a sweep's
    results), read as read_regular_file reads. Raises `error` with one line naming the file
    and the problem, e.g. "run.json: is a FIFO (named pipe), not a recording"; `what` names
    the kind of document."""
    try:
        return read_regular_file(path, limit)
    except FileNotFoundError:
        raise error(tr("{path}: no such file").format(path=path)) from None
    except FileTooLargeError:
        raise error(
            tr("{path}: file is larger than {size:g} MiB").format(path=path, size=limit / 1024**2)
        ) from None
    except NotARegularFileError as refused:
        raise error(f"{path}: is {refused.kind}, not {what}") from None
    except OSError as failed:
        raise error(
            tr("{path}: cannot read: {reason}").format(path=path, reason=describe(failed))
        ) from None


# --- reading the lab's JSON files ---------------------------------------------------------------
# Scenes, recordings, question sets and sweep results are JSON documents read by one hardened
# reader: a cap on size, UTF-8, no duplicate keys, no NaN or Infinity, a cap on nesting.

# Cloth Lab saves loads again: at most MAX_PARTICLES pin lines of ≤ 111 bytes (full-precision
# anchors) and 2 × MAX_LIST cut or torn links of ≤ 8 bytes, 65.3 MB. The largest legal scene
# (8 blocks of 32³ cubes, every particle pinned, every link cut or torn) saves to 58 MB
# (tests/sim/document/test_reliability_targets.py).
MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_DEPTH = 16
MAX_MESSAGE = 400  # characters of a SceneError message


class SceneError(ValueError):
    """A scene that cannot be read; the message is one line naming the file and field.
    `format_found`: the format a file of another kind says it is (a question set, say)."""

    format_found: object = None

    def __init__(self, message: str) -> None:
        # Field names come from the file: escape line breaks and other control characters,
        # and elide the middle of a message a megabyte-long key or value would blow up (the
        # start names the file and field, the end says what is wrong).
        line = "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)
        if len(line) > MAX_MESSAGE:
            half = (MAX_MESSAGE - 1) // 2
            line = f"{line[:half]}…{line[-half:]}"
        super().__init__(line)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise SceneError(f"duplicate key {key!r}")
        result[key] = value
    return result


class _NonFinite:
    """What NaN, Infinity and -Infinity parse to: a marker, found again after parsing so that
    the error can name the field it stands in (json.loads does not say where it is)."""

    def __init__(self, name: str) -> None:
        self.name = name


def _first_non_finite(data: Any) -> str | None:
    """ "field.path: NaN is not a finite number" for the first marker in document order."""
    stack: list[tuple[Any, str]] = [(data, "")]
    while stack:
        item, path = stack.pop()
        if isinstance(item, _NonFinite):
            return f"{path + ': ' if path else ''}" + tr("{value} is not a finite number").format(
                value=item.name
            )
        children = item.items() if isinstance(item, dict) else enumerate(item) \
            if isinstance(item, list) else ()  # fmt: skip
        nested = [(v, f"{path}.{k}" if path else str(k)) for k, v in children
                  if isinstance(v, (dict, list, _NonFinite))]  # fmt: skip
        stack.extend(reversed(nested))
    return None


_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')
_NOT_BRACKETS = bytes(sorted(set(range(256)) - set(b"[]{}")))


def _bracket_depth(raw: bytes) -> int:
    """How deep the brackets of valid JSON nest outside its strings. _depth is at most one more
    (it counts a dict's scalar values as a level), so a file this bounds needs no walk of its
    parsed values: for the largest legal file, 0.3 s instead of 0.8."""
    brackets = np.frombuffer(_JSON_STRING.sub(b"", raw).translate(None, _NOT_BRACKETS), np.uint8)
    if not len(brackets):
        return 0
    opening = (brackets == ord("[")) | (brackets == ord("{"))
    return int(np.cumsum(np.where(opening, 1, -1)).max())


def _depth(value: Any, limit: int) -> int:
    stack = [(value, 1)]
    deepest = 0
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if deepest > limit:
            break
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        # A list of millions of numbers (cuts) holds no containers: find that out in C (map,
        # set) rather than looking at each item in Python.
        elif isinstance(item, list) and set(map(type, item)) & {dict, list}:
            stack.extend((v, depth + 1) for v in item if isinstance(v, (dict, list)))
    return deepest


def read_json_object(
    text: str | bytes,
    source: str,
    max_bytes: int = MAX_FILE_BYTES,
    error: type[SceneError] = SceneError,
) -> dict[str, Any]:
    """A JSON document's top-level object, for every file format of the lab (scenes,
    recordings, question sets): at most `max_bytes`, UTF-8, no duplicate keys, no NaN or
    Infinity, nested at most MAX_DEPTH deep. Raises `error` with one line naming `source`."""
    if len(text) > max_bytes:
        size = f"{max_bytes // 1024**2} MiB" if max_bytes >= 1024**2 else f"{max_bytes // 1024} KiB"
        raise error(tr("{source}: file is larger than {size}").format(source=source, size=size))
    raw = text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as problem:
            raise error(
                tr("{source}: not UTF-8 text (byte {byte})").format(
                    source=source, byte=problem.start
                )
            ) from None
    data = _parse_quickly(raw)
    if data is None:
        data = _parse_carefully(text, raw, source, error)
    if not isinstance(data, dict):
        raise error(tr("{source}: top level must be an object").format(source=source))
    return data


def _parse_quickly(raw: bytes) -> Any | None:
    """The document as pydantic-core's JSON reader parses it (0.5 s with the checks below for the
    largest legal scene, against 1.0 for the careful parse), or None whenever the careful parser
    must look: for anything the reader refuses (it accepts no more than json does), a key that
    may be repeated (the reader keeps the last), or deep nesting."""
    try:
        data = from_json(raw, allow_inf_nan=False)
    except ValueError:
        return None
    depth, pairs, colons = _shape(data)
    # Outside its strings, valid JSON has a colon between each key and its value, so the file's
    # colons are the pairs plus those in strings. A repeated key is dropped with its value, and
    # the colons left to count fall short. Escapes can only add colons (\u003a), and a drop
    # still falls short once they are taken away: no false "no repeats".
    escaped = raw.count(b"\\u003a") + raw.count(b"\\u003A") if b"\\u003" in raw else 0
    if depth + 1 > MAX_DEPTH or raw.count(b":") != pairs + colons - escaped:
        return None
    return data


_SCALARS = {int, float, bool, type(None)}


def _shape(data: Any) -> tuple[int, int, int]:
    """(how deep containers nest, key–value pairs, colons in keys and strings) of parsed JSON,
    one nesting level at a time so that C does most of the walking (the largest legal scene
    holds 2.6 million values)."""
    depth = pairs = colons = 0
    level: list[Any] = [data]
    while level and not (kinds := set(map(type, level))) <= _SCALARS:
        dicts: list[dict[str, Any]] = [i for i in level if type(i) is dict] if dict in kinds else []
        lists: list[list[Any]] = [i for i in level if type(i) is list] if list in kinds else []
        strings: list[str] = [i for i in level if type(i) is str] if str in kinds else []
        colons += "".join(strings).count(":")
        if not dicts and not lists:
            break
        depth += 1
        keys = list(chain.from_iterable(dicts))
        pairs += len(keys)
        colons += "".join(keys).count(":")
        # A long run of numbers (cuts, tears) holds nothing to count: find that out in C and
        # leave it out, rather than look at its millions of items in each pass above.
        lists = [items for items in lists if len(items) < 1000 or set(map(type, items)) - _SCALARS]
        level = [*chain.from_iterable(map(dict.values, dicts)), *chain.from_iterable(lists)]
    return depth, pairs, colons


def _parse_carefully(text: str, raw: bytes, source: str, error: type[SceneError]) -> Any:
    """json's parse, which names what is wrong: a repeated key, NaN or Infinity and the field
    it stands in, nesting deeper than MAX_DEPTH, bad syntax and its line."""
    constants: list[_NonFinite] = []

    def non_finite(name: str) -> _NonFinite:
        constants.append(_NonFinite(name))
        return constants[-1]

    try:
        data = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=non_finite)
    except SceneError as problem:
        raise error(f"{source}: {problem}") from None
    except RecursionError:
        raise error(
            tr("{source}: nested deeper than {depth} levels").format(source=source, depth=MAX_DEPTH)
        ) from None
    except json.JSONDecodeError as problem:
        raise error(
            tr("{source}: not valid JSON: {problem} at line {line}").format(
                source=source, problem=problem.msg, line=problem.lineno
            )
        ) from None
    except ValueError:  # Python refuses integers of more than 4300 digits
        raise error(tr("{source}: a number has too many digits").format(source=source)) from None
    if constants:
        raise error(f"{source}: {_first_non_finite(data)}")
    if _bracket_depth(raw) + 1 > MAX_DEPTH and _depth(data, MAX_DEPTH) > MAX_DEPTH:
        raise error(
            tr("{source}: nested deeper than {depth} levels").format(source=source, depth=MAX_DEPTH)
        )
    return data


@contextlib.contextmanager
def no_garbage_collection() -> Iterator[None]:
    """Parsing makes millions of objects and no reference cycles: Python's collector, which
    walks the young objects again and again as they pile up, took 0.9 of 2.2 s to load the
    largest legal scene. (Sending the survivors straight to the oldest generation with
    gc.freeze and gc.unfreeze would save the one walk left, 0.2 s, but made the solver
    thread's next collection crash: a segfault, every time.)"""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
