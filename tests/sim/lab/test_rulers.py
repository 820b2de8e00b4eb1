"""Rulers: a ruler's length read from a state, following the cloth as it moves;
saved with the scene, refused in one line when it names a particle the scene lacks or a point
that is not finite; an edit of the document with its inverse; in the Python API."""

import json

import numpy as np
import pytest

from clothlab.sim.core.materials import SI_FABRICS
from clothlab.sim.document import composition
from clothlab.sim.document.commands import CommandError, EditRulers, validate
from clothlab.sim.document.files import SceneError
from clothlab.sim.document.presets import load_preset, preset_path
from clothlab.sim.document.scene import (
    SCHEMA_VERSION,
    RulerSpec,
    SIMaterialSpec,
    body_size,
    build_simulation,
    build_topology,
    load_scene,
    parse_scene,
    save_scene,
)
from clothlab.sim.lab.rulers import (
    length_text,
    particle_end,
    point_end,
    ruler_length,
    ruler_lengths,
    ruler_unit,
)


def between(a, b) -> RulerSpec:
    def end(value):
        return particle_end(value) if isinstance(value, int) else point_end(value)

    return RulerSpec(start=end(a), end=end(b))


def drop_scene():
    """The `drop` preset: a flat sheet above the ball with no pins, so it falls."""
    return load_preset("drop")


def test_a_ruler_between_two_particles_reads_their_distance_as_the_sheet_falls():
    scene = drop_scene()
    sim = build_simulation(scene)
    first, last = 0, sim.topology.particle_count - 1
    ruler = between(first, last)
    readings = []
    for _ in range(6):
        x = sim.state.x
        length = ruler_length(ruler, x)
        assert length == float(np.linalg.norm(x[first] - x[last]))  # exactly, not nearly
        readings.append(length)
        for _ in range(20):
            sim.step()
    # It falls flat at first, then drapes over the ball: the corners come closer
    assert readings[0] == readings[1] and readings[-1] < readings[0] - 1.0


def test_a_point_end_stays_where_it_was_put_while_the_particle_end_follows():
    sim = build_simulation(drop_scene())
    ruler = between(5, (0.0, 3.0, 0.0))
    heights = []
    for _ in range(3):
        x = sim.state.x
        assert ruler_length(ruler, x) == pytest.approx(np.linalg.norm(x[5] - [0.0, 3.0, 0.0]))
        heights.append(x[5, 1])
        for _ in range(30):
            sim.step()
    assert heights[0] > heights[1] > heights[2]  # falling away from the fixed end


def test_a_ruler_beyond_the_state_reads_nan_not_an_index_error():
    x = np.zeros((4, 3))
    assert np.isnan(ruler_lengths([between(0, 9)], x)[0])
    assert length_text(float("nan"), "units") == "—"


def test_rulers_round_trip_through_a_scene_file(tmp_path):
    scene = load_preset("hanging-sheet")
    rulers = [between(0, 14), between(3, (0.5, -1.0, 2.0)), between((0, 0, 0), (1.0, 2.0, 3.0))]
    scene = scene.model_copy(update={"rulers": rulers})
    path = tmp_path / "with-rulers.json"
    save_scene(scene, path)
    assert json.loads(path.read_text())["schema_version"] == SCHEMA_VERSION >= 5
    loaded = load_scene(path)
    assert loaded.rulers == rulers
    assert loaded == scene


def test_a_version_4_file_opens_with_no_rulers(tmp_path):
    data = json.loads(preset_path("hanging-sheet").read_text())
    data["schema_version"] = 4
    data.pop("rulers", None)
    scene = parse_scene(json.dumps(data))
    assert scene.rulers == [] and scene.schema_version == SCHEMA_VERSION


def write_with_rulers(tmp_path, rulers) -> str:
    data = json.loads(preset_path("hanging-sheet").read_text())
    data["schema_version"] = 5
    data["rulers"] = rulers
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(SceneError) as caught:
        load_scene(path)
    message = str(caught.value)
    assert "\n" not in message and str(path) in message
    return message


@pytest.mark.parametrize(
    ("rulers", "fragment"),
    [
        ([{"start": {"particle": 0}, "end": {"particle": 165}}], "rulers.0.end.particle 165"),
        ([{"start": {"particle": -1}, "end": {"particle": 2}}], "rulers.0.start.particle"),
        ([{"start": {"point": [0, "NaN", 0]}, "end": {"particle": 2}}], "rulers.0.start.point"),
        ([{"start": {"point": [0, 1e400, 0]}, "end": {"particle": 2}}], "rulers.0.start.point"),
        ([{"start": {"point": [0, 0]}, "end": {"particle": 2}}], "rulers.0.start.point"),
        ([{"start": {"particle": 1, "point": [0, 0, 0]}, "end": {"particle": 2}}],
         "particle or a point"),
        ([{"start": {}, "end": {"particle": 2}}], "particle or a point"),
        ([{"start": {"particle": True}, "end": {"particle": 2}}], "rulers.0.start.particle"),
        ([{"start": {"particle": 1}}], "rulers.0.end"),
        ([{"start": {"particle": 1}, "end": {"particle": 2}, "colour": "red"}], "colour"),
        ("one ruler", "rulers"),
        ([{"start": {"particle": 1}, "end": {"particle": 2}}] * 33, "rulers"),
    ],
)  # fmt: skip
def test_a_bad_ruler_is_refused_in_one_line_naming_it(tmp_path, rulers, fragment):
    assert fragment in write_with_rulers(tmp_path, rulers)


def test_a_nan_ruler_point_in_the_file_text_is_refused(tmp_path):
    # JSON has no NaN, but Python's reader takes it: the point is still refused
    text = preset_path("hanging-sheet").read_text()
    data = json.loads(text)
    data["rulers"] = [{"start": {"point": [0.0, 0.0, 0.0]}, "end": {"particle": 1}}]
    data["schema_version"] = 5
    path = tmp_path / "nan.json"
    path.write_text(json.dumps(data).replace("[0.0, 0.0, 0.0]", "[NaN, 0.0, 0.0]"))
    with pytest.raises(SceneError) as caught:
        load_scene(path)
    assert "\n" not in str(caught.value) and "rulers" in str(caught.value)


# --- the edit --------------------------------------------------------------------------------


def test_adding_and_removing_a_ruler_is_an_edit_whose_inverse_undoes_it():
    scene = load_preset("hanging-sheet")
    ruler = between(0, 14)
    add = EditRulers((ruler,), ())
    assert add.text == "Add ruler"
    added = add.on_document(scene)
    assert added.rulers == [ruler]
    assert add.inverse().text == "Remove ruler"
    assert add.inverse().on_document(added) == scene
    assert add.inverse().inverse() == add


def test_an_edit_naming_a_particle_the_model_lacks_is_refused_in_one_line():
    with pytest.raises(CommandError) as caught:
        validate(EditRulers((between(0, 500),), ()), 165, 400)
    assert str(caught.value) == "edit_rulers: rulers.0.end.particle 500 is not below 165"
    with pytest.raises(CommandError):  # its undo would put it back: refused too
        validate(EditRulers((), (between(0, 500),)), 165, 400)


# --- units -----------------------------------------------------------------------


def test_a_ruler_on_a_fabric_in_si_units_reads_metres_and_on_model_cloth_units():
    scene = load_preset("hanging-sheet")
    topology = build_topology(scene)
    ruler = between(0, 14)
    assert ruler_unit(scene, topology, ruler) == "units"
    name, fabric = next(iter(SI_FABRICS.items()))
    si_body = scene.bodies[0].model_copy(update={"si_material": SIMaterialSpec.of(name, fabric)})
    si_scene = scene.model_copy(update={"bodies": [si_body]})
    assert ruler_unit(si_scene, topology, ruler) == "m"


# --- composition: rulers follow their particles as pins do ------------------------------------


def test_rulers_follow_their_particles_when_a_body_before_them_goes_or_changes():
    scene = load_preset("two-sheets")
    first = body_size(scene.bodies[0])[0]
    on_second = between(first + 3, first + 10)
    on_first = between(2, (0.0, 0.0, 0.0))
    scene = scene.model_copy(update={"rulers": [on_second, on_first]})

    removed = composition.remove_body(scene, 0)
    assert removed.scene.rulers == [between(3, 10)]  # shifted; the one on the first sheet gone
    edit = composition.edit_of(scene, removed)
    assert edit.inverse().on_document(edit.on_document(scene)).rulers == scene.rulers

    finer = composition.change_body(scene, 0, cols=scene.bodies[0].cols * 2 - 1)
    shift = body_size(finer.scene.bodies[0])[0] - first
    assert finer.scene.rulers[0] == between(first + 3 + shift, first + 10 + shift)
    assert finer.scene.rulers[1] == between(4, (0.0, 0.0, 0.0))  # column 2 of 15 → 4 of 29
    moved = composition.change_body(scene, 1, top_center=(5.0, 1.0, 0.0))
    assert moved.scene.rulers == scene.rulers
