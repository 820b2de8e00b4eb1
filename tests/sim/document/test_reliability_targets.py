"""Reliability 4 — what a save replaces and what a load opens.

A save renames a temporary file over its target, which destroys whatever had the name: these
tests put every kind of thing at the target (new file, files of each mode and owner, symlinks,
FIFO, socket, device, folder, long names) and check the save updates a regular file the way an
editor would, or refuses in one line and leaves it as it was. Loads open regular files only,
without blocking. The largest legal scene saves to a file that loads, and no legal spacing
makes a readout divide by zero.
"""

from __future__ import annotations

import contextlib
import errno
import json
import math
import os
import socket
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from annotated_types import Ge, Gt

from clothlab.sim.core.readouts import READOUTS, ReadoutHistory
from clothlab.sim.document import files
from clothlab.sim.document.files import (
    AtomicFile,
    FileRefusedError,
    remove_stale_temps,
    write_atomically,
)
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.scene import (
    MAX_BODIES,
    MAX_FILE_BYTES,
    MAX_LIST,
    MAX_PARTICLES,
    MIN_SPACING,
    BlockSpec,
    PinSpec,
    Scene,
    SceneError,
    SheetSpec,
    body_counts,
    build_simulation,
    load_scene,
    parse_scene,
    pins_json,
    save_scene,
    scene_json,
)

MiB = 1024 * 1024
OLD = b"old content\n"

# --- the writers: every export goes through write_atomically ---------------------------------


def save_a_scene(path: Path) -> None:
    save_scene(load_preset("hanging-sheet"), path)


def export_csv(path: Path) -> None:
    history = ReadoutHistory()
    sim = build_simulation(load_preset("hanging-sheet"))
    history.append(sim.state.steps, sim.readouts())
    write_atomically(path, history.csv_text().encode("utf-8"))


def export_positions(path: Path) -> None:
    write_atomically(path, np.zeros((4, 3)).tobytes())


WRITERS = {"scene": save_a_scene, "csv": export_csv, "positions": export_positions}


def temp_files(*folders: Path) -> list[str]:
    return [p.name for folder in folders for p in folder.iterdir() if p.name.endswith(".tmp")]


@contextlib.contextmanager
def umask(mask: int):
    previous = os.umask(mask)
    try:
        yield
    finally:
        os.umask(previous)


def regular(folder: Path, mode: int, owner: tuple[int, int] | None = None) -> Path:
    path = folder / "target.out"
    path.write_bytes(OLD)
    os.chmod(path, mode)
    if owner:
        os.chown(path, *owner)
    return path


# --- what a save does to each kind of target -------------------------------------------------
# Each case makes a target in tmp_path and returns (the path to save to, a check after saving,
# or None if the save must be refused with a one-line FileRefusedError naming `reason`).

Case = tuple[Path, Callable[[], None] | str]


def new_file(tmp: Path) -> Case:
    path = tmp / "new.out"

    def check() -> None:
        assert stat.S_IMODE(path.stat().st_mode) == 0o640  # 0666 less the umask 027, not 0600

    return path, check


def mode_kept(mode: int) -> Callable[[Path], Case]:
    def case(tmp: Path) -> Case:
        path = regular(tmp, mode)

        def check() -> None:
            assert stat.S_IMODE(path.stat().st_mode) == mode
            assert path.read_bytes() != OLD

        return path, check

    return case


def owner_kept(tmp: Path) -> Case:
    path = regular(tmp, 0o640, owner=(4321, 4322))

    def check() -> None:
        status = path.stat()
        assert (status.st_uid, status.st_gid, stat.S_IMODE(status.st_mode)) == (4321, 4322, 0o640)

    return path, check


def symlink_to_file(tmp: Path) -> Case:
    target = regular(tmp, 0o604)
    link = tmp / "link.out"
    link.symlink_to(target.name)  # relative, as links often are

    def check() -> None:
        assert link.is_symlink() and os.readlink(link) == target.name
        assert target.read_bytes() != OLD and stat.S_IMODE(target.stat().st_mode) == 0o604

    return link, check


def dangling_symlink(tmp: Path) -> Case:
    link = tmp / "link.out"
    link.symlink_to(tmp / "not-yet.out")

    def check() -> None:
        assert link.is_symlink() and (tmp / "not-yet.out").stat().st_size > 0

    return link, check


def symlink_to_another_folder(tmp: Path) -> Case:
    elsewhere = tmp / "elsewhere"
    elsewhere.mkdir()
    target = regular(elsewhere, 0o644)
    link = tmp / "link.out"
    link.symlink_to(target)

    def check() -> None:
        assert link.is_symlink() and target.read_bytes() != OLD

    return link, check


def long_name(length: int) -> Callable[[Path], Case]:
    def case(tmp: Path) -> Case:
        path = tmp / ("n" * (length - 4) + ".out")

        def check() -> None:
            assert path.stat().st_size > 0

        return path, check

    return case


def fifo(tmp: Path) -> Case:
    path = tmp / "pipe.out"
    os.mkfifo(path)
    return path, "is a FIFO (named pipe), not a regular file"


def symlink_to_fifo(tmp: Path) -> Case:  # what /dev/stdout is when stdout is a pipe
    os.mkfifo(tmp / "pipe")
    link = tmp / "stdout"
    link.symlink_to(tmp / "pipe")
    return link, "is a FIFO (named pipe), not a regular file"


def unix_socket(tmp: Path) -> Case:
    path = tmp / "s.sock"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    server.close()  # the socket file stays
    return path, "is a socket, not a regular file"


def device(tmp: Path) -> Case:  # a /dev/null of our own: the real one is not ours to risk
    path = tmp / "null"
    os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    return path, "is a character device, not a regular file"


def folder(tmp: Path) -> Case:
    (tmp / "folder.out").mkdir()
    return tmp / "folder.out", "is a folder, not a regular file"


def read_only(tmp: Path) -> Case:
    return regular(tmp, 0o444), "is read-only (mode 0444)"


def read_only_folder(tmp: Path) -> Case:
    (tmp / "locked").mkdir()
    os.chmod(tmp / "locked", 0o555)
    return tmp / "locked" / "new.out", "is read-only"


def missing_folder(tmp: Path) -> Case:
    return tmp / "missing" / "new.out", "does not exist"


CASES = {
    "new file": new_file,
    "0644 file": mode_kept(0o644),
    "0600 file": mode_kept(0o600),
    "0664 file": mode_kept(0o664),
    "owner": owner_kept,
    "symlink to a file": symlink_to_file,
    "dangling symlink": dangling_symlink,
    "symlink to another folder": symlink_to_another_folder,
    "255-character name": long_name(255),
    "243-character name": long_name(243),
    "0444 file": read_only,
    "read-only folder": read_only_folder,
    "missing folder": missing_folder,
    "FIFO": fifo,
    "symlink to a FIFO": symlink_to_fifo,
    "socket": unix_socket,
    "device": device,
    "folder": folder,
}


def snapshot(path: Path) -> tuple:
    """What is at `path`, to compare before and after a refused save."""
    try:
        status = os.lstat(path)
    except FileNotFoundError:
        return ("nothing",)
    content = path.read_bytes() if stat.S_ISREG(status.st_mode) else None
    return status.st_mode, status.st_ino, status.st_uid, content


@pytest.mark.parametrize("writer", WRITERS)
@pytest.mark.parametrize("case", CASES)
def test_a_save_updates_a_regular_file_or_refuses_in_one_line(tmp_path, case, writer):
    path, outcome = CASES[case](tmp_path)
    folders = [tmp_path, *(p for p in tmp_path.iterdir() if p.is_dir() and not p.is_symlink())]
    before = snapshot(path)
    with umask(0o027):
        if callable(outcome):
            WRITERS[writer](path)
            outcome()
        else:
            with pytest.raises(FileRefusedError) as refused:
                WRITERS[writer](path)
            message = str(refused.value)
            assert outcome in message and "\n" not in message
            assert snapshot(path) == before  # left exactly as it was
    assert temp_files(*folders) == []


def test_the_temp_file_goes_in_the_folder_of_the_file_a_link_names(tmp_path, monkeypatch):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "link.json").symlink_to(elsewhere / "scene.json")
    renames = []
    real_replace = os.replace
    monkeypatch.setattr(os, "replace", lambda a, b: (renames.append((a, b)), real_replace(a, b)))
    save_a_scene(tmp_path / "link.json")
    ((source, destination),) = renames
    assert Path(source).parent == elsewhere and Path(destination) == elsewhere / "scene.json"


def test_temp_names_stay_short_for_a_255_character_target(tmp_path, monkeypatch):
    names = []
    real_open = os.open
    monkeypatch.setattr(
        os,
        "open",
        lambda path, *a, **k: (names.append(os.fspath(path)), real_open(path, *a, **k))[1],
    )
    write_atomically(tmp_path / ("x" * 255), b"data")
    temps = [Path(n).name for n in names if n.endswith(".tmp")]
    assert temps and all(len(name) <= 80 for name in temps), temps
    assert (tmp_path / ("x" * 255)).read_bytes() == b"data"


def test_a_256_character_name_is_one_oserror(tmp_path):
    with pytest.raises(OSError) as caught:
        write_atomically(tmp_path / ("x" * 256), b"data")
    assert caught.value.errno == errno.ENAMETOOLONG
    assert temp_files(tmp_path) == []


@pytest.mark.parametrize("interruption", [KeyboardInterrupt, OSError(errno.ENOSPC, "full")])
@pytest.mark.parametrize("where", ["write", "fsync", "replace"])
def test_an_interrupted_save_leaves_the_target_and_no_temp_file(
    tmp_path, monkeypatch, where, interruption
):
    path = regular(tmp_path, 0o644)

    def interrupt(*args, **kwargs):
        raise interruption

    monkeypatch.setattr(os, where, interrupt)
    with pytest.raises(type(interruption) if isinstance(interruption, OSError) else interruption):
        write_atomically(path, b"new content" * 10_000)
    monkeypatch.undo()
    assert path.read_bytes() == OLD
    assert temp_files(tmp_path) == []


def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


@pytest.mark.parametrize("name", ["scene.json", "é" * 120])
def test_a_save_removes_temp_files_of_dead_savers_of_the_same_target(tmp_path, name):
    """What a SIGKILL between creating and renaming leaves: the next save of that file removes
    it, and leaves alone the temp files of living processes and of other targets."""
    target = tmp_path / name
    prefix = files._temp_prefix(name)
    stale = tmp_path / f"{prefix}{dead_pid()}.0123abcd.tmp"
    living = tmp_path / f"{prefix}{os.getppid()}.89abcdef.tmp"
    other = tmp_path / f"{files._temp_prefix('other.json')}{dead_pid()}.0123abcd.tmp"
    for file in (stale, living, other):
        file.write_bytes(b"partial")
    write_atomically(target, b"complete")
    assert not stale.exists() and living.exists() and other.exists()
    assert target.read_bytes() == b"complete"
    assert remove_stale_temps(tmp_path / "other.json") == [other.name]


def test_commit_checks_the_target_again(tmp_path):
    """A long run (a streamed CSV) may outlast the file it was to replace."""
    path = regular(tmp_path, 0o644)
    file = AtomicFile(path)
    file.write(b"rows")
    path.unlink()
    os.mkfifo(path)
    with pytest.raises(FileRefusedError, match="FIFO"):
        file.commit()
    assert stat.S_ISFIFO(os.lstat(path).st_mode) and temp_files(tmp_path) == []


# --- loading opens regular files only, without blocking ---------------------------------------


@contextlib.contextmanager
def unblocking(fifo_path: Path, after_s: float = 10.0):
    """If a reader still blocks on `fifo_path` after `after_s`, open and close its other end:
    a test of code that would hang then fails instead of hanging the test run."""
    done = threading.Event()

    def release() -> None:
        if not done.wait(after_s):
            with contextlib.suppress(OSError):  # ENXIO: nobody is reading, which is the point
                os.close(os.open(fifo_path, os.O_WRONLY | os.O_NONBLOCK))

    watchdog = threading.Thread(target=release, daemon=True)
    watchdog.start()
    try:
        yield
    finally:
        done.set()
        watchdog.join()


@pytest.mark.parametrize("through_link", [False, True])
def test_loading_a_fifo_is_one_line_and_does_not_block(tmp_path, through_link):
    pipe = tmp_path / "scene.json"
    os.mkfifo(pipe)
    path = pipe
    if through_link:
        path = tmp_path / "link.json"
        path.symlink_to(pipe)
    with unblocking(pipe), pytest.raises(SceneError) as caught:
        load_scene(path)
    assert str(caught.value) == f"{path}: is a FIFO (named pipe), not a scene file"


def test_a_recording_is_read_as_a_scene_is_a_regular_file_without_blocking(tmp_path):
    """Replay ▸ Open and `clothlab run.clothrec.json` read recordings: a FIFO there blocked the
    GUI thread in read() until a writer came, and a file of any size was read whole."""
    from clothlab.sim.document.recording import MAX_FILE_BYTES as RECORDING_BYTES
    from clothlab.sim.document.recording import load_recording

    pipe = tmp_path / "run.clothrec.json"
    os.mkfifo(pipe)
    with unblocking(pipe), pytest.raises(SceneError) as caught:
        load_recording(pipe)
    assert str(caught.value) == f"{pipe}: is a FIFO (named pipe), not a recording file"
    big = tmp_path / "big.clothrec.json"
    with big.open("wb") as file:
        file.truncate(RECORDING_BYTES + 1)  # sparse: no disk is used
    with pytest.raises(SceneError) as caught:
        load_recording(big)
    assert str(caught.value) == f"{big}: file is larger than {RECORDING_BYTES // MiB} MiB"
    with pytest.raises(SceneError, match=r"missing\.clothrec\.json: no such file$"):
        load_recording(tmp_path / "missing.clothrec.json")


def test_a_fifo_swapped_in_after_the_stat_is_caught_by_fstat(tmp_path, monkeypatch):
    """The name is checked, then opened: a FIFO put there between the two is opened without
    blocking (O_NONBLOCK) and refused by what fstat says about the open file."""
    pipe = tmp_path / "scene.json"
    os.mkfifo(pipe)
    regular_status = os.stat(regular(tmp_path, 0o644))
    real_stat = os.stat
    monkeypatch.setattr(
        os, "stat", lambda p, *a, **k: regular_status if Path(p) == pipe else real_stat(p, *a, **k)
    )
    with unblocking(pipe), pytest.raises(SceneError, match="is a FIFO"):
        load_scene(pipe)


def test_loading_a_socket_or_device_is_one_line(tmp_path):
    for make in (unix_socket, device):
        path, _ = make(tmp_path)
        with pytest.raises(SceneError, match=r"is a (socket|character device), not a scene file"):
            load_scene(path)


# --- the largest legal scene saves to a file that loads ----------------------------------------


def pin_line_bound() -> int:
    """The longest line a pin can have: the largest particle number, the longest floats."""
    longest = -2.2250738585072014e-308
    pin = PinSpec(particle=MAX_PARTICLES - 1, anchor=(longest,) * 3)
    return len(pins_json([pin]).splitlines()[1]) + len(",\n")


def test_no_legal_scene_can_save_a_file_over_the_cap():
    """Pins, cuts and tears are the only parts that grow: bound them."""
    most_links = MAX_BODIES * max(
        body_counts([SheetSpec(cols=512, rows=512)])[1], body_counts([BlockSpec(cubes=32)])[1]
    )
    dead_links = min(2 * MAX_LIST, most_links)  # cuts and tears never share a link
    link_bytes = len(str(most_links - 1)) + 1
    rest = 200 * 12 + 2000 * 12 + 20_000  # name, description (as \\uXXXX pairs), the rest
    bound = MAX_PARTICLES * pin_line_bound() + dead_links * link_bytes + rest
    assert bound < MAX_FILE_BYTES
    print(f"\nlargest possible scene file: under {bound / 1e6:.1f} MB; cap {MAX_FILE_BYTES} bytes")


def largest_legal_scene() -> Scene:
    """8 blocks of 32³ cubes (the most links a scene can have), every particle pinned with a
    17-digit anchor, every link cut or torn, the longest name and description."""
    bodies = [BlockSpec(cubes=32, min_corner=(-1e4 + k, -1e4, -1e4)) for k in range(MAX_BODIES)]
    particles, links = body_counts(bodies)
    anchors = -np.random.default_rng(1).uniform(1.0, 10.0, (particles, 3)) * 1e-200
    pins = [PinSpec(particle=k, anchor=tuple(anchor)) for k, anchor in enumerate(anchors.tolist())]
    return Scene.model_construct(
        **{
            **Scene().__dict__,
            "name": "\U0001f9f5" * 200,  # a thread: outside the BMP, 12 bytes escaped
            "description": "\U0001f9f5" * 2000,
            "bodies": bodies,
            "pins": pins,
            "cuts": list(range(MAX_LIST)),
            "tears": list(range(MAX_LIST, links)),
        }
    )


def test_the_largest_legal_scene_saves_and_loads_back_equal(tmp_path):
    scene = largest_legal_scene()
    path = tmp_path / "largest.json"
    started = time.perf_counter()
    save_scene(scene, path)
    saved = time.perf_counter()
    loaded = load_scene(path)
    seconds = time.perf_counter() - saved
    size = path.stat().st_size
    assert size <= MAX_FILE_BYTES
    assert loaded == scene
    print(
        f"\nlargest legal scene: {len(scene.pins)} pins, {len(scene.cuts) + len(scene.tears)} "
        f"dead links, {size / 1e6:.1f} MB ({size / MAX_FILE_BYTES:.0%} of the cap); saved in "
        f"{saved - started:.1f} s, loaded in {seconds:.1f} s"
    )


def test_a_saved_file_puts_long_lists_on_few_lines():
    scene = load_preset("hanging-sheet").model_copy(update={"cuts": list(range(500))})
    text = scene_json(scene)
    assert parse_scene(text) == scene
    lines = text.splitlines()
    assert sum('"cuts"' in line for line in lines) == 1 and len(lines) < 120
    pin_lines = [line for line in lines if line.lstrip().startswith('{"particle"')]
    assert len(pin_lines) == len(scene.pins)  # one line a pin


# --- no legal spacing divides by zero -----------------------------------------------------------


@pytest.mark.parametrize("version", [2, 3])
@pytest.mark.parametrize("body", ["sheet", "block"])
@pytest.mark.parametrize("spacing", [1e-17, 1e-5, 0.0])
def test_a_degenerate_spacing_is_a_scene_error(body, spacing, version):
    """A default sheet (15 × 11) or block (4 cubes a side) with particles `spacing` apart:
    version 3 gives its size in units, version 2 gave the spacing (migrated to the size)."""
    if version == 2:
        fields = {"spacing": spacing} if body == "sheet" else {"side": spacing}
    else:
        fields = {"width": 14 * spacing, "height": 10 * spacing} if body == "sheet" else {
            "size": 4 * spacing}  # fmt: skip
    text = json.dumps(
        {"format": "clothlab-scene", "schema_version": version,
         "bodies": [{"kind": body, **fields}]}
    )  # fmt: skip
    size = 14 * spacing if body == "sheet" else 4 * spacing
    if size < MIN_SPACING:  # a size below the finest spacing: refused as a length
        expected = "bodies.0.width" if body == "sheet" else "bodies.0.size"
        expected += f": Input should be greater than or equal to {MIN_SPACING}"
    elif body == "sheet":
        expected = (f"bodies.0: a {14 * spacing:g} × {10 * spacing:g} sheet of 15 × 11 "
                    "particles is finer than 0.0001 units between particles")  # fmt: skip
    else:
        expected = (f"bodies.0: a block of {4 * spacing:g} units in 4 cubes a side has cubes "
                    "smaller than 0.0001 units")  # fmt: skip
    with pytest.raises(SceneError) as caught:
        parse_scene(text)
    assert str(caught.value) == f"scene: {expected}"


def _minimum(field_info) -> object:
    for bound in field_info.metadata:
        if isinstance(bound, Ge):
            return bound.ge
        if isinstance(bound, Gt):
            return math.nextafter(bound.gt, math.inf)
    return None


def all_minimum(model: type, options_on: bool) -> dict:
    """Every number of a section at its smallest legal value, booleans all on or all off."""
    values = {}
    for name, info in model.model_fields.items():
        if info.annotation in (bool, "bool"):
            values[name] = options_on
        elif (low := _minimum(info)) is not None:
            values[name] = low
    return values


@pytest.mark.parametrize("options_on", [False, True])
@pytest.mark.parametrize("body", ["sheet", "block"])
def test_the_all_minimum_scene_runs_with_finite_or_missing_readouts(body, options_on):
    """Smallest bodies at the smallest spacing, at the far corner of the coordinate range, with
    every setting at its minimum: no readout divides by zero."""
    corner = (-1e4, -1e4, -1e4)
    bodies = {
        "sheet": {"kind": "sheet", "cols": 2, "rows": 2, "width": MIN_SPACING,
                  "height": MIN_SPACING, "top_center": list(corner)},
        "block": {"kind": "block", "cubes": 1, "size": MIN_SPACING, "min_corner": list(corner)},
    }  # fmt: skip
    data = {"format": "clothlab-scene", "schema_version": 3, "bodies": [bodies[body]]}
    for section in ("solver", "wind", "ball", "floor", "fabric"):
        data[section] = all_minimum(type(getattr(Scene(), section)), options_on)
    data["pins"] = [{"particle": 0, "anchor": list(corner)}]
    sim = build_simulation(parse_scene(json.dumps(data)))
    assert sim.topology.link_count > 0 and float(np.min(sim.links.rest)) > 0.0
    assert float(np.min(sim.links.rest)) == pytest.approx(MIN_SPACING, rel=1e-6)
    for _ in range(20):
        sim.step()
        values = sim.readouts()
        # what does not apply to the body, and forces after a blow-up the guard undid
        missing = {r.key for r in READOUTS if not r.applies(sim.topology, sim.pins)}
        missing |= {"volume"} if body == "sheet" else {"sag"}
        missing |= {"pin_force", "max_tension", "contact_force"} if sim.forces() is None else set()
        for readout in READOUTS:
            value = getattr(values, readout.key)
            assert math.isfinite(value) or (readout.key in missing and math.isnan(value))
