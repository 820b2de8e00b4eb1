"""Reliability 2 — hostile scene files.

Every file is either a Scene or a SceneError: one line, naming the field path or the problem.
No other exception, bounded time and memory. The fuzz mutates the preset files as text.
"""

from __future__ import annotations

import json
import os
import re
import time
import tracemalloc
from collections import Counter

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from reader_fuzz import KINDS, mutate, operation

from clothlab.sim.document.files import MAX_DEPTH, MAX_FILE_BYTES, MAX_MESSAGE, SceneError
from clothlab.sim.document.presets import preset_names, preset_path
from clothlab.sim.document.scene import MAX_LIST, Scene, load_scene, parse_scene

MiB = 1024 * 1024

# --- what a message may say ----------------------------------------------------------------

# Problems found before the fields are known: each message names the problem.
PROBLEMS = {
    "size": re.compile(r"file is larger than \d+ MiB$"),
    "not UTF-8": re.compile(r"not UTF-8 text \(byte \d+\)$"),
    "duplicate key": re.compile(r"duplicate key "),
    "not finite": re.compile(r"-?(NaN|Infinity) is not a finite number$"),
    "nesting": re.compile(r"nested deeper than \d+ levels$"),
    "not JSON": re.compile(r"not valid JSON: .+ at line \d+$"),
    "digits": re.compile(r"a number has too many digits$"),
    "top level": re.compile(r"top level must be an object$"),
}
SCENE_FIELDS = set(Scene.model_fields)


def assert_clear_error(error: SceneError, source: str) -> str:
    """One line, at most MAX_MESSAGE characters, `source: ` then the problem or the field path
    (`path: what`, or a whole-scene check that starts with the field it is about). Returns
    which of those it is."""
    message = str(error)
    assert "\n" not in message and "\r" not in message
    assert len(message) <= MAX_MESSAGE
    assert message.startswith(f"{source}: ")
    detail = message.removeprefix(f"{source}: ")
    for problem, pattern in PROBLEMS.items():
        if pattern.match(detail):
            return problem
    path, separator, what = detail.partition(": ")
    if separator and path.strip() and what.strip():
        return "field path"
    first_word = re.split(r"[ .:]", detail, maxsplit=1)[0]
    assert first_word in SCENE_FIELDS, message
    return "field path"


# --- mutations -------------------------------------------------------------------------------


def _seeds() -> list[bytes]:
    seeds = []
    for name in preset_names():
        data = json.loads(preset_path(name).read_text())
        seeds.append(json.dumps(data, separators=(",", ":")).encode())
        seeds.append(json.dumps(data, indent=2).encode())
    # one with pins and cuts lists to mutate as well
    data = json.loads(preset_path("hanging-sheet").read_text())
    data["cuts"] = [3, 17, 40, 41, 200]
    data["pins"].append({"particle": 7, "anchor": [0.0, 1.0, 0.0]})
    seeds.append(json.dumps(data, separators=(",", ":")).encode())
    return seeds


SEEDS = _seeds()
outcomes: Counter[str] = Counter()
figures = {"max_seconds": 0.0, "peak": 0}


@given(st.sampled_from(SEEDS), st.lists(operation, min_size=1, max_size=5))
@example(SEEDS[0], [("key", 1, 6)])  # a duplicate key
@example(SEEDS[0], [("number", 0, KINDS.index("truncate"))])
@settings(max_examples=5000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_5000_mutated_scene_files_are_scenes_or_clear_scene_errors(seed, operations):
    text = mutate(seed, operations)
    tracemalloc.start()
    started = time.perf_counter()
    try:
        result = parse_scene(text, "fuzz.json")
    except SceneError as error:
        kind = assert_clear_error(error, "fuzz.json")
    else:
        assert isinstance(result, Scene)
        kind = "valid scene"
    finally:
        seconds = time.perf_counter() - started
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    outcomes[kind] += 1
    figures["max_seconds"] = max(figures["max_seconds"], seconds)
    figures["peak"] = max(figures["peak"], peak)
    # files of at most ~60 kB: memory bounded by a small multiple of that (deterministic)
    assert peak < 32 * MiB


@pytest.fixture(scope="module", autouse=True)
def fuzz_figures():
    """The fuzz's figures, printed once the module's tests ran (shown with -s)."""
    yield
    print(
        f"\nfuzz: {outcomes.total()} mutated files ({dict(outcomes.most_common())}); "
        f"max parse {figures['max_seconds'] * 1e3:.1f} ms (tracemalloc on), "
        f"peak memory {figures['peak'] / MiB:.2f} MiB"
    )


# --- explicit hostile files ------------------------------------------------------------------

HANGING = json.loads(preset_path("hanging-sheet").read_text())


def edited(**changes) -> dict:
    return {**json.loads(json.dumps(HANGING)), **changes}


def error_of(text: str | bytes, source: str = "hostile.json") -> str:
    with pytest.raises(SceneError) as caught:
        parse_scene(text, source)
    assert_clear_error(caught.value, source)
    return str(caught.value)


def measured(action):
    """(result or exception, seconds, peak traced bytes) of one call."""
    tracemalloc.start()
    started = time.perf_counter()
    try:
        result = action()
    except SceneError as error:
        result = error
    seconds = time.perf_counter() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return result, seconds, peak


def test_a_100_mb_sparse_file_is_refused_by_its_size_without_reading_it(tmp_path):
    path = tmp_path / "huge.json"
    with path.open("wb") as handle:
        handle.truncate(100 * MiB)  # sparse: no disk, but 100 MB of zeros if read
    error, seconds, peak = measured(lambda: load_scene(path))
    assert isinstance(error, SceneError)
    assert str(error) == f"{path}: file is larger than {MAX_FILE_BYTES // MiB} MiB"
    assert peak < MiB  # the 100 MB were never read
    print(f"\n100 MB sparse file refused in {seconds * 1e3:.2f} ms, peak {peak / 1024:.0f} KiB")


def test_size_is_checked_before_decoding_or_parsing():
    # invalid UTF-8 and invalid JSON both: only the size may be reported
    assert "larger than" in error_of(b"\xff" * (MAX_FILE_BYTES + 1))
    assert "larger than" in error_of("[" * (MAX_FILE_BYTES + 1))


def test_cuts_and_pins_lists_over_their_caps():
    text = json.dumps(edited(cuts=[])).replace('"cuts": []', '"cuts": [' + "0," * MAX_LIST + "0]")
    assert len(text) < MAX_FILE_BYTES
    result, seconds, peak = measured(lambda: parse_scene(text, "hostile.json"))
    assert isinstance(result, SceneError)
    assert_clear_error(result, "hostile.json")
    assert str(result).startswith("hostile.json: cuts: ") and "at most 2000000" in str(result)
    print(f"\n{MAX_LIST + 1} cuts refused in {seconds:.2f} s, peak {peak / MiB:.0f} MiB")
    # more pins than particles: the pins count is capped by the particle count
    pins = [{"particle": k, "anchor": [0, 0, 0]} for k in range(166)]
    assert "pins.165.particle 165 is not below 165" in error_of(json.dumps(edited(pins=pins)))


def test_a_512_by_512_sheet_with_every_particle_pinned_parses_within_bounds():
    """Every particle of the largest sheet pinned: 262 144 pins, a file well under the cap (the
    largest legal file of all is built in test_reliability_targets.py)."""
    pin = '{"particle":%d,"anchor":[0,0,0]}'
    count = 512 * 512
    pins = ",".join(pin % k for k in range(count))
    data = edited(bodies=[{"kind": "sheet", "cols": 512, "rows": 512}], pins=[])
    text = json.dumps(data).replace('"pins": []', f'"pins": [{pins}]')
    assert len(text) <= MAX_FILE_BYTES
    started = time.perf_counter()  # no tracemalloc here: it makes this parse four times slower
    result = parse_scene(text, "full.json")
    seconds = time.perf_counter() - started
    assert isinstance(result, Scene) and len(result.pins) == count
    print(f"\n{count} pins in {len(text) / MiB:.1f} MiB parsed in {seconds:.2f} s")


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 1000, 200_000])
def test_nesting_deeper_than_the_limit_anywhere(depth):
    nested = "[" * depth + "]" * depth
    for where in ("description", "cuts", "camera"):
        text = json.dumps(edited(**{where: 0})).replace(f'"{where}": 0', f'"{where}": {nested}')
        assert f"nested deeper than {MAX_DEPTH} levels" in error_of(text)


def test_nesting_within_the_limit_is_a_type_error_with_a_path():
    nested = "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1)
    text = json.dumps(edited(cuts=0)).replace('"cuts": 0', f'"cuts": {nested}')
    assert error_of(text).startswith("hostile.json: cuts.0: ")


@pytest.mark.parametrize("section", ["top", "solver", "bodies", "pins"])
def test_duplicate_keys_at_any_depth(section):
    text = json.dumps(HANGING, separators=(",", ":"))
    duplicate = {
        "top": ('"name":"Hanging sheet"', '"name":"again","name":"Hanging sheet"'),
        "solver": ('"passes":8', '"passes":8,"passes":9'),
        "bodies": ('"cols":15', '"cols":15,"cols":15'),
        "pins": ('"particle":0', '"particle":0,"particle":0'),
    }[section]
    assert text.count(duplicate[0]) == 1
    message = error_of(text.replace(*duplicate))
    assert "duplicate key" in message


@pytest.mark.parametrize("name", preset_names())
def test_every_truncation_of_a_preset_is_a_clear_error(name):
    text = preset_path(name).read_bytes()
    end = len(text.rstrip())
    for cut_at in range(end):
        error_of(text[:cut_at])
    assert isinstance(parse_scene(text[:end]), Scene)


@pytest.mark.parametrize(
    "data",
    [
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
        b"\x00" * 1000,
        bytes(range(256)) * 4,
        json.dumps(HANGING).encode("utf-16"),
        b"\xef\xbb\xbf" + json.dumps(HANGING).encode(),  # UTF-8 byte order mark
        b"PK\x03\x04" + bytes(100),
        b"",
        b"   ",
    ],
    ids=["png", "zeros", "all-bytes", "utf-16", "bom", "zip", "empty", "blank"],
)
def test_binary_files(data, tmp_path):
    error_of(data)
    path = tmp_path / "binary.json"
    path.write_bytes(data)
    with pytest.raises(SceneError) as caught:
        load_scene(path)
    assert_clear_error(caught.value, str(path))


@pytest.mark.parametrize(
    "where",
    [
        lambda d, v: d.update(name=v),
        lambda d, v: d.update(format=v),
        lambda d, v: d.update({v: 1}),
        lambda d, v: d["solver"].update({v: 1}),
        lambda d, v: d["bodies"][0].update(kind=v),
    ],
    ids=["name", "format", "unknown-key", "unknown-nested-key", "body-kind"],
)
def test_a_megabyte_key_or_value_still_gives_a_short_message(where):
    data = edited()
    where(data, "k\n" * 500_000)
    message = error_of(json.dumps(data))  # the megabyte is in the message, elided
    assert len(message) <= MAX_MESSAGE


@pytest.mark.parametrize("name", ["a" * 300, "b" * 300 + ".json", "/tmp/" + "c" * 300 + ".json"])
def test_a_name_too_long_for_the_file_system_is_one_line(name):
    """File ▸ Open with a 300-character name raised OSError from a path check."""
    from clothlab.sim.document.presets import resolve_scene

    with pytest.raises(SceneError, match="cannot read: File name too long"):
        resolve_scene(name)


def test_a_question_set_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    from clothlab.sim.lab.questions import QuestionSetError, load_question_set

    fifo = tmp_path / "set.json"
    os.mkfifo(fifo)
    with pytest.raises(QuestionSetError, match="is a FIFO"):
        load_question_set(fifo)  # before the fix this blocked in open() forever


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ('{"format": "clothlab-scene", "schema_version": 3, "solver": {"passes": NaN}}',
         "solver.passes: NaN"),
        ('{"bodies": [{"kind": "sheet", "top_center": [0, Infinity, 0]}]}',
         "bodies.0.top_center.1: Infinity"),
        ("-Infinity", "nan.json: -Infinity"),
    ],
)  # fmt: skip
def test_a_non_finite_number_names_its_field(text, where):
    """`nan.json: NaN is not a finite number` named no field."""
    with pytest.raises(SceneError, match=re.escape(f"{where} is not a finite number")):
        parse_scene(text, "nan.json")
