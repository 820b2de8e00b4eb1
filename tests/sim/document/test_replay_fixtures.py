"""Recordings saved by an earlier version of Cloth Lab (commit c6a0d64) replay bit for bit:
the positions, the previous positions and the live links at the middle and the end, and every
readout row (its columns of that time: fixture_hashes.HASHED_COLUMNS), hash to what the model
computes (tests/sim/fixtures/recordings/expected.json, written anew only when the model changes
on purpose: by regenerate.py there). Between them the four runs
use every command a recording holds."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest
from fixture_hashes import rows_digest

from clothlab.sim.core.solver import Simulation
from clothlab.sim.document.recording import load_recording
from clothlab.sim.lab.engine import replay
from clothlab.sim.lab.variants import run_variant

FOLDER = Path(__file__).parents[1] / "fixtures" / "recordings"
EXPECTED = json.loads((FOLDER / "expected.json").read_text())


def digest(sim: Simulation) -> str:
    state = sim.state
    parts = (state.x, state.x_prev, state.link_alive)
    return hashlib.sha256(b"".join(np.ascontiguousarray(a).tobytes() for a in parts)).hexdigest()


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_an_old_recording_replays_bit_for_bit(name: str) -> None:
    expected = EXPECTED[name]
    recording = load_recording(FOLDER / f"{name}.clothrec.json")
    assert recording.steps == expected["steps"]
    middle = expected["middle_step"]
    journal = [item for item in recording.journal if item.step <= middle]
    assert digest(replay(journal, middle)) == expected["middle"]
    end = replay(recording.journal, recording.steps)
    assert digest(end) == expected["final"]
    assert len(end.torn) == expected["torn"]
    result = run_variant(recording, {}, recording.steps)
    assert result.failure is None
    assert rows_digest(result.rows) == expected["rows"]


def test_the_fixtures_use_every_command_a_recording_holds() -> None:
    kinds = set()
    for name in EXPECTED:
        text = (FOLDER / f"{name}.clothrec.json").read_text()
        kinds |= {entry["type"] for entry in json.loads(text)["commands"]}
    assert kinds >= {"cut", "set_pin", "set_setting", "edit_scene", "grab_start", "grab_move",
                     "grab_release", "run", "pause", "step", "set_speed"}  # fmt: skip
