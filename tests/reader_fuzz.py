"""Fuzzing the readers of every file Cloth Lab opens, with Hypothesis: a scene, a recording, a
question set, a sweep's results (CSV), the user's fabrics, the stored window layout and a
Lab's state. Each reader is given files made from real ones by a few edits (bytes flipped,
cut, inserted or repeated; numbers, keys and values swapped for hostile ones) and must either
read the file or refuse it in one line naming it: no other exception, ever.

tests/sim/document/test_fuzz_readers.py runs a short fuzz of each reader; bench/fuzz_readers.py
a long one that prints what the files came to.
"""

from __future__ import annotations

import atexit
import csv
import functools
import io
import json
import re
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from hypothesis import strategies as st

from clothlab.sim.core import readouts
from clothlab.sim.document.files import MAX_MESSAGE, SceneError
from clothlab.sim.document.presets import preset_path
from clothlab.sim.document.recording import parse_recording
from clothlab.sim.document.scene import parse_scene
from clothlab.sim.lab.questions import QuestionSetError, parse_question_set
from clothlab.sim.lab.sweep_results import SweepResultsError, parse_sweep_results

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "sim" / "fixtures"
SOURCE = "fuzz.file"

# --- mutations -----------------------------------------------------------------------------------

NASTY_VALUES = [
    b"NaN", b"Infinity", b"-Infinity", b"1e400", b"-1e400", b"1e-400", b"-0", b"0.0", b"-1",
    b"9" * 5000, b"1" + b"0" * 40, b"2147483648", b"9223372036854775808", b"1.5",
    b'"text"', b'"' + b"x" * 1000 + b'"', b'""', b'"\\u0000\\n"', b'"\\ud800"',
    b"[]", b"[1,2,3]", b"[" * 20 + b"]" * 20, b"[" * 5000 + b"]" * 5000,
    b"[0" + b",0" * 3000 + b"]",
    b"{}", b'{"a":1}', b"null", b"true", b"false",
]  # fmt: skip
NASTY_KEYS = [
    b"", b"x", b"kind", b"format", b"cols", b"particle", b"__proto__", b"K\xc3\xadnd", b"\\n",
    b"a" * 5000, b"\\u0000",
]  # fmt: skip
INSERTS = [b"{", b"}", b"[", b"]", b'"', b",", b":", b"0", b"-", b"e9", b"\\", b"\xff", b"\x00"]
NUMBER = re.compile(rb"-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?")
KEY = re.compile(rb'"([^"\\]*)"\s*:')
VALUE = re.compile(rb':\s*("[^"\\]*"|true|false|null|\{[^{}\[\]]*\}|\[[^\[\]{}]*\])')
KINDS = ["flip", "delete", "insert", "duplicate", "number", "key", "value", "truncate"]


def _pick(matches: list[re.Match], n: int) -> re.Match | None:
    return matches[n % len(matches)] if matches else None


def mutate(seed: bytes, operations: list[tuple[str, int, int]]) -> bytes:
    data = bytearray(seed)
    for kind, a, b in operations:
        if not data:
            data = bytearray(INSERTS[b % len(INSERTS)])
            continue
        at = a % len(data)
        if kind == "flip":
            data[at] ^= 1 << (b % 8)
        elif kind == "delete":
            del data[at : at + 1 + b % 64]
        elif kind == "insert":
            data[at:at] = INSERTS[b % len(INSERTS)]
        elif kind == "duplicate":
            chunk = bytes(data[at : at + 1 + b % 200])
            data[b % len(data) : b % len(data)] = chunk
        elif kind == "truncate":
            del data[at:]
        else:
            pattern = {"number": NUMBER, "key": KEY, "value": VALUE}[kind]
            found = _pick(list(pattern.finditer(data)), a)
            if found is None:
                continue
            group = 1 if kind != "number" else 0
            start, end = found.span(group)
            if kind == "key":
                new = b'"' + NASTY_KEYS[b % len(NASTY_KEYS)] + b'"'
                if b % 3 == 0:  # another key of the file: often a duplicate
                    other = _pick(list(KEY.finditer(data)), b // 3)
                    new = other.group(0)[:-1].rstrip() if other else new
            else:
                new = NASTY_VALUES[b % len(NASTY_VALUES)]
            data[start:end] = new
    return bytes(data)


# Byte-level edits mostly break the JSON; the token edits keep it valid and reach the fields.
WEIGHTED_KINDS = [*KINDS, "number", "number", "key", "value", "value"]
operation = st.tuples(
    st.sampled_from(WEIGHTED_KINDS), st.integers(0, 1 << 20), st.integers(0, 1 << 20)
)
operations = st.lists(operation, min_size=1, max_size=4)


# --- the readers -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Reader:
    name: str
    seeds: Callable[[], list[bytes]]
    read: Callable[[bytes], str]  # what the file came to: "read" or "refused"


def refused_in_one_line(error: Exception, source: str = SOURCE) -> str:
    message = str(error)
    assert "\n" not in message and "\r" not in message, message
    assert len(message) <= MAX_MESSAGE + 100, message[:200]
    assert message.startswith(source), message[:200]
    return "refused"


def _json_seeds(*paths: Path) -> list[bytes]:
    seeds = []
    for path in paths:
        data = json.loads(path.read_text(encoding="utf-8"))
        seeds += [json.dumps(data, separators=(",", ":")).encode(), json.dumps(data).encode()]
    return seeds


def read_scene(data: bytes) -> str:
    try:
        parse_scene(data, SOURCE)
    except SceneError as error:
        return refused_in_one_line(error)
    return "read"


def read_recording(data: bytes) -> str:
    try:
        parse_recording(data, SOURCE)
    except SceneError as error:
        return refused_in_one_line(error)
    return "read"


def read_questions(data: bytes) -> str:
    try:  # the built-in set's scene files lie beside it
        parse_question_set(data, SOURCE, ROOT / "resources" / "questions")
    except QuestionSetError as error:
        return refused_in_one_line(error)
    return "read"


def sweep_seed() -> list[bytes]:
    header = readouts.csv_text(np.zeros((0, len(readouts.CSV_COLUMNS))), 0, False).splitlines()[0]
    cells = next(csv.reader([header]))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["passes", "wind", "status", *cells])
    for passes in (4, 8, 16):
        writer.writerow([passes, 0.0, "ok", 600, 5.0, *(0.01 * k for k in range(len(cells) - 2))])
    writer.writerow([32, 2.0, "blew up at step 17", *([""] * len(cells))])
    return [out.getvalue().encode()]


def read_sweep(data: bytes) -> str:
    try:  # as sweep_results.load_sweep_results reads a file's bytes
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return "refused"
    try:
        parse_sweep_results(text, SOURCE)
    except SweepResultsError as error:
        return refused_in_one_line(error)
    return "read"


def fabrics_seed() -> list[bytes]:
    """Two fabrics, as the app saves them: the cantilever's cotton, and one with a markup name."""
    scene = json.loads(preset_path("cantilever").read_text(encoding="utf-8"))
    cotton = {k: v for k, v in scene["bodies"][0]["si_material"].items() if k != "name"}
    fabrics = {"my cotton": cotton, "<b>bold</b>": dict(cotton, areal_density=0.3)}
    document = {"format": "clothlab-fabrics", "version": 1, "fabrics": fabrics}
    return [json.dumps(document, indent=1).encode()]


@functools.cache
def _fabrics_folder() -> Path:
    """A temporary folder of the fuzz's own, removed when the process ends."""
    folder = Path(tempfile.mkdtemp(prefix="clothlab-fuzz-"))
    atexit.register(shutil.rmtree, folder, True)
    return folder


def read_fabrics(data: bytes) -> str:
    """The user's fabrics file: read, or set aside with one warning line; never raises."""
    from clothlab.ui.user_fabrics import UserFabrics

    file = _fabrics_folder() / "fabrics.json"
    for leftover in file.parent.iterdir():
        leftover.unlink()
    file.write_bytes(data)
    store = UserFabrics(file)
    fabrics = store.fabrics()
    assert "\n" not in store.warning
    return "read" if fabrics or not store.warning else "refused"


def layout_seed() -> list[bytes]:
    return [(FIXTURES / "window_state.bin").read_bytes()]


def read_layout(data: bytes) -> str:
    from clothlab.ui.window.dock_state import dock_state_readable
    from clothlab.ui.window.preferences import STATE_VERSION

    return "read" if dock_state_readable(data, STATE_VERSION) else "refused"


def state_seed() -> list[bytes]:
    import clothlab

    lab = clothlab.open("hanging-sheet")
    lab.run(12)
    lab.cut_seam()
    lab.run(12)
    path = _fabrics_folder() / "seed.clothstate.json"
    lab.state().save(path)
    return [path.read_bytes()]


def read_state(data: bytes) -> str:
    from clothlab.state import parse_state_text

    try:
        parse_state_text(data, SOURCE)
    except SceneError as error:
        return refused_in_one_line(error)
    return "read"


READERS = {
    reader.name: reader
    for reader in (
        Reader("scene", lambda: _json_seeds(preset_path("hanging-sheet"), preset_path("drop")),
               read_scene),
        Reader("recording",
               lambda: _json_seeds(FIXTURES / "recordings/hanging-sheet-gestures.clothrec.json"),
               read_recording),
        Reader("questions", lambda: _json_seeds(ROOT / "resources/questions/lab.json"),
               read_questions),
        Reader("sweep", sweep_seed, read_sweep),
        Reader("fabrics", fabrics_seed, read_fabrics),
        Reader("layout", layout_seed, read_layout),
        Reader("state", state_seed, read_state),
    )
}  # fmt: skip


@functools.cache
def seeds_of(name: str) -> tuple[bytes, ...]:
    return tuple(READERS[name].seeds())


def files_for(name: str) -> st.SearchStrategy[bytes]:
    """Files for a reader: one of its seeds with a few edits."""
    return st.builds(mutate, st.sampled_from(seeds_of(name)), operations)
