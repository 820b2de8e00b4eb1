"""A Lab's state out and in: kept and restored in memory and in a file, bit for bit; copies;
velocities; positions without a copy; bad state files in one line."""

from __future__ import annotations

import json
import threading

import numpy as np
import pytest

import clothlab
from clothlab.sim.document.files import SceneError


def rows(table: clothlab.Table) -> np.ndarray:
    return np.asarray(table)


def same(first: np.ndarray, second: np.ndarray) -> bool:
    return np.array_equal(first, second, equal_nan=True)


@pytest.fixture
def lab() -> clothlab.Lab:
    """A sheet with a probe, cut and stepped: a state with a journal and probe columns."""
    lab = clothlab.open("hanging-sheet")
    lab.add_probe(160)
    lab.run(40)
    lab.cut_seam()
    lab.run(20)
    return lab


def test_a_restored_state_goes_on_as_the_run_went_on(lab, tmp_path):
    kept = lab.state()
    assert (kept.steps, kept.positions.flags.writeable) == (60, False)
    lab.grab(150, (0.5, -1.0, 0.6))
    later = rows(lab.run(30))
    end = lab.positions
    for _ in range(2):  # a state can be restored again
        lab.restore(kept)
        assert lab.steps == 60 and np.array_equal(lab.positions, kept.positions)
        lab.grab(150, (0.5, -1.0, 0.6))
        assert same(rows(lab.run(30)), later)
        assert np.array_equal(lab.positions, end)
    # the recording went back with the state: it holds one grab and replays to here
    lab.save_recording(tmp_path / "run.clothrec.json")
    replay = clothlab.open(tmp_path / "run.clothrec.json")
    replay.run()
    assert np.array_equal(replay.positions, end)
    assert sum(type(s.command).__name__ == "GrabStart" for s in lab.recording.commands) == 1


def test_a_state_taken_before_any_step_gives_the_row_of_step_0_again():
    lab = clothlab.open("hanging-sheet")
    kept = lab.state()
    first = rows(lab.run(5))
    lab.restore(kept)
    assert len(first) == 6 and same(rows(lab.run(5)), first)


def test_a_copy_goes_on_by_itself_with_the_same_numbers(lab):
    twin = lab.copy()
    assert twin is not lab and twin.steps == lab.steps and twin.probes == lab.probes
    results: dict[str, np.ndarray] = {}
    thread = threading.Thread(target=lambda: results.update(twin=rows(twin.run(50))))
    thread.start()
    results["lab"] = rows(lab.run(50))
    thread.join()
    assert same(results["twin"], results["lab"])
    scene = lab.scene
    twin.set(wind=3.0)  # a change to the copy leaves the original as it is
    twin.run(10)
    assert lab.steps == 110 and lab.scene == scene and twin.scene != scene


def test_velocities_are_the_readouts_speeds(lab):
    speeds = np.linalg.norm(lab.velocities, axis=1)
    readouts = lab.readouts
    assert speeds.mean() == pytest.approx(readouts["motion"], rel=1e-12)
    assert speeds.max() == pytest.approx(readouts["max_speed"], rel=1e-12)
    assert lab.velocities.shape == (lab.particles, 3)


def test_positions_view_reads_the_model_without_a_copy(lab):
    view = lab.positions_view
    assert not view.flags.writeable and not view.flags.owndata
    assert np.shares_memory(view, lab.positions_view)
    with pytest.raises(ValueError, match="read-only"):
        view[0, 0] = 1.0
    lab.run(3)
    assert np.array_equal(view, lab.positions)  # the step wrote into the array it views


def test_a_state_file_opens_at_the_state_bit_for_bit(lab, tmp_path):
    path = tmp_path / "at-60.clothstate.json"
    lab.state().save(path)
    opened = clothlab.open_state(path)
    assert opened.steps == 60 and np.array_equal(opened.positions, lab.positions)
    assert np.array_equal(opened.velocities, lab.velocities)
    assert same(rows(opened.run(40)), rows(lab.run(40)))
    back = clothlab.load_state(path)
    lab.restore(back)
    assert lab.steps == 60


def damaged_files(text: str) -> dict[str, tuple[str, str]]:
    """name → (file text, what the one line says)."""
    data = json.loads(text)
    wrong_digest = dict(data, positions_sha256="0" * 64)
    too_far = dict(data, steps=data["recording"]["steps"] + 1)
    return {
        "not a state": (json.dumps({"format": "clothlab-scene"}), "not a Cloth Lab state"),
        "unknown key": (json.dumps(dict(data, extra=1)), "unknown key 'extra'"),
        "other digest": (json.dumps(wrong_digest), "does not replay to the positions it holds"),
        "steps past": (json.dumps(too_far), "steps: not a step of the recording"),
        "cut short": (text[: len(text) // 2], ""),
        "not text": ("\udcff", ""),
        "bad recording": (json.dumps(dict(data, recording={"format": 1})), "recording"),
    }


@pytest.mark.parametrize(
    "kind",
    ["not a state", "unknown key", "other digest", "steps past", "cut short", "not text",
     "bad recording"],
)  # fmt: skip
def test_a_bad_state_file_is_one_line(lab, tmp_path, kind):
    good = tmp_path / "good.json"
    lab.state().save(good)
    text, said = damaged_files(good.read_text())[kind]
    bad = tmp_path / "bad.json"
    bad.write_bytes(text.encode("utf-8", "surrogateescape"))
    with pytest.raises(SceneError) as refused:
        clothlab.load_state(bad)
    message = str(refused.value)
    assert "\n" not in message and message.startswith(str(bad)) and said in message


def test_restore_takes_only_a_state(lab):
    with pytest.raises(ValueError, match=r"^state 'x': expected a LabState"):
        lab.restore("x")


def test_set_positions_starts_the_run_from_a_state_of_ones_own(tmp_path):
    lab = clothlab.open("hanging-sheet")
    x = lab.positions
    x[:, 2] += 0.3 * np.sin(x[:, 0])  # a ripple across the sheet
    up = np.tile([0.0, 0.0, 1.0], (lab.particles, 1))  # 1 unit/s towards +z
    lab.set_positions(x, velocities=up)
    pinned = [p.particle for p in lab.scene.pins]
    free = np.setdiff1d(np.arange(lab.particles), pinned)
    assert np.array_equal(lab.positions[free], x[free])
    assert np.allclose(lab.velocities[free], up[free], atol=1e-12)
    assert np.array_equal(lab.velocities[pinned], np.zeros((len(pinned), 3)))  # on their pins
    first = lab.run(40)
    # the row of step 0 is of the state set: every free particle at 1 unit/s, the pins at rest
    assert first["motion"][0] == pytest.approx(len(free) / lab.particles, rel=1e-12)
    # the recording holds the state: replayed, the same rows and positions bit for bit
    lab.save_recording(tmp_path / "rippled.clothrec.json")
    replay = clothlab.open(tmp_path / "rippled.clothrec.json")
    assert same(rows(replay.run()), rows(first))
    assert np.array_equal(replay.positions, lab.positions)
    lab.set_positions(lab.positions)  # later, mid-run: the sheet stopped where it is
    assert np.abs(lab.velocities).max() == 0.0


@pytest.mark.parametrize(
    ("positions", "velocities", "said"),
    [
        (np.zeros((3, 3)), None, r"^positions: expected \(165, 3\) numbers \(shape \(3, 3\)"),
        ([["1", "2", "3"]] * 165, None, r"^positions: expected \(165, 3\) numbers"),
        (np.full((165, 3), np.nan), None, "^positions: not all finite numbers"),
        (np.ones((165, 3), bool), None, r"^positions: expected \(165, 3\) numbers"),
        (np.full((165, 3), 1e5), None, r"^positions: a coordinate beyond ±10000"),
        (np.zeros((165, 3)), np.full((165, 3), np.inf), "^velocities: not all finite"),
        (np.zeros((165, 3)), np.full((165, 3), 1e9), "^velocities: a particle's place"),
        (np.zeros((165, 3)), "fast", r"^velocities: expected \(165, 3\) numbers"),
    ],
)
def test_set_positions_refuses_what_is_not_a_state_in_one_line(positions, velocities, said):
    lab = clothlab.open("hanging-sheet")
    with pytest.raises(ValueError, match=said) as refused:
        lab.set_positions(positions, velocities)
    assert "\n" not in str(refused.value) and lab.recording.commands == ()
