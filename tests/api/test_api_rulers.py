"""Rulers in the Python API: `Lab.rulers`, their lengths as the sheet
moves, bad ends refused in one line, and ruler edits kept in the run's recording."""

import numpy as np
import pytest

import clothlab
from clothlab.sim.document.commands import EditRulers
from clothlab.sim.document.recording import parse_recording, recording_json
from clothlab.sim.document.scene import RulerSpec
from clothlab.sim.lab.rulers import particle_end, point_end


def between(a, b) -> RulerSpec:
    def end(value):
        return particle_end(value) if isinstance(value, int) else point_end(value)

    return RulerSpec(start=end(a), end=end(b))


def test_the_api_lists_rulers_and_their_lengths_as_the_sheet_moves():
    lab = clothlab.open("drop")
    assert lab.rulers == [] and lab.ruler_lengths == []
    last = lab.particles - 1
    assert lab.add_ruler(0, last) == 0
    assert lab.add_ruler(0, (0.0, 5.0, 0.0)) == 1
    before = lab.ruler_lengths
    x = lab.positions
    assert before[0] == float(np.linalg.norm(x[0] - x[last]))
    assert before[1] == pytest.approx(np.linalg.norm(x[0] - [0, 5, 0]))
    lab.run(60)
    after = lab.ruler_lengths
    x = lab.positions
    assert after[0] == float(np.linalg.norm(x[0] - x[last]))
    assert after[1] > before[1]  # the corner fell away from the fixed point
    assert lab.ruler_unit(0) == "units"
    lab.remove_ruler(1)
    assert len(lab.rulers) == 1 and lab.scene.rulers == lab.rulers


@pytest.mark.parametrize(
    ("start", "end", "fragment"),
    [
        (0, 10_000, "is not within 0…164"),
        (-1, 3, "is not within 0…164"),
        ((0.0, float("nan"), 0.0), 3, "finite"),
        ("a", 3, "a particle or a point"),
        ((1.0, 2.0), 3, "a particle or a point"),
    ],
)
def test_the_api_refuses_a_bad_ruler_end_in_one_line(start, end, fragment):
    lab = clothlab.open("hanging-sheet")
    with pytest.raises(ValueError) as caught:
        lab.add_ruler(start, end)
    assert fragment in str(caught.value) and "\n" not in str(caught.value)
    assert lab.rulers == []
    with pytest.raises(ValueError, match="ruler 0: the scene has 0 rulers"):
        lab.remove_ruler(0)


def test_a_recording_keeps_ruler_edits_and_reads_them_back():
    lab = clothlab.open("hanging-sheet")
    lab.run(3)
    lab.add_ruler(0, 14)
    lab.run(2)
    lab.add_ruler(7, (0.0, -2.0, 0.0))
    lab.remove_ruler(0)
    recording = parse_recording(recording_json(lab.recording))
    kinds = [type(s.command).__name__ for s in recording.commands]
    assert kinds.count("EditRulers") == 3
    edits = [s.command for s in recording.commands if isinstance(s.command, EditRulers)]
    assert edits[-1].after == (between(7, (0.0, -2.0, 0.0)),)
