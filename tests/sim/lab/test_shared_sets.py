"""A question set shared as one file (sim.lab.questions: scenes embedded, class mode): the round
trip through save_shared_set, and hostile shared files, each refused with one line."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from clothlab.sim.document.presets import load_preset, preset_path
from clothlab.sim.document.scene import with_settings
from clothlab.sim.lab.questions import (
    MAX_FILE_BYTES,
    MAX_SCENES,
    QuestionSetError,
    QuestionSetSpec,
    check_set,
    load_question_set,
    save_shared_set,
)

SCENE = json.loads(preset_path("hanging-sheet").read_text())


def question(qid: str = "sag", scene: str = "mine.json", **changes: object) -> dict:
    data = {
        "id": qid, "title": "Sag", "scene": scene,
        "question": "Does it sag?", "watch": "Watch Sag.", "evidence": "sag",
        "prediction": {"choices": [{"text": "Yes", "correct": True}, {"text": "No"}]},
        "explanation": "It sags a little.",
        "now_try": [{"label": "16 passes", "setting": "passes", "value": 16}],
        "checks": [{"claim": "it sags", "steps": 30,
                    "expect": {"readout": "sag", "op": ">", "value": 0.001}}],
    }  # fmt: skip
    data.update(changes)
    return data


def shared(**changes: object) -> dict:
    data = {
        "format": "clothlab-questions", "schema_version": 1, "id": "shared",
        "title": "Shared", "questions": [question()], "scenes": {"mine.json": SCENE},
    }  # fmt: skip
    data.update(changes)
    return data


def test_a_set_and_its_scenes_round_trip_through_one_file(tmp_path):
    mine = with_settings(load_preset("hanging-sheet"), {"passes": 4}).model_copy(
        update={"name": "Four passes"}
    )
    questions = [
        question("choice"),
        question("number", prediction={"number": {"unit": "u", "answer": 0.2, "tolerance": 0.05}}),
        question("preset", scene="drop"),
    ]
    spec = QuestionSetSpec.model_validate(
        {
            "id": "mine",
            "title": "Mine",
            "questions": questions,
            "class_mode": {"hide": ["parameters", "compare"], "hide_settings": ["gravity"]},
        }
    )
    path = tmp_path / "class" / "mine.clothlab-set.json"
    path.parent.mkdir()
    saved = save_shared_set(spec, {"mine.json": mine}, path)
    assert not list(path.parent.glob("*.tmp*"))  # written atomically, nothing left beside it
    assert list(path.parent.iterdir()) == [path]  # one file: the scene is inside it
    loaded = load_question_set(path)
    assert loaded.spec.questions == spec.questions and loaded.spec.class_mode == spec.class_mode
    assert loaded.scenes["mine.json"] == mine and loaded.scenes["drop"] == load_preset("drop")
    assert saved.spec == loaded.spec and loaded.path == path
    assert list(json.loads(path.read_text())["scenes"]) == ["mine.json"]
    # saved again from what was loaded: the same bytes
    again = tmp_path / "again.json"
    save_shared_set(loaded.spec, {"mine.json": loaded.scenes["mine.json"]}, again)
    assert again.read_bytes() == path.read_bytes()
    results = check_set(loaded, loaded.questions[:1])
    assert results[0].passed and len(results[0].checks) == 1


def test_a_save_that_would_not_open_writes_nothing(tmp_path):
    spec = QuestionSetSpec.model_validate({"id": "x", "title": "X", "questions": [question()]})
    path = tmp_path / "x.json"
    path.write_text("the teacher's old file")
    with pytest.raises(QuestionSetError, match=r"mine\.json: not a preset, and not a scene embed"):
        save_shared_set(spec, {}, path)  # the scene it names is not given
    assert path.read_text() == "the teacher's old file"


def test_a_shared_set_never_reads_a_file_beside_it(tmp_path):
    (tmp_path / "other.json").write_text(json.dumps(SCENE))
    path = tmp_path / "set.json"
    path.write_text(json.dumps(shared(questions=[question(scene="other.json")])))
    with pytest.raises(QuestionSetError, match=r"other\.json: not a preset, and not a scene embed"):
        load_question_set(path)


def deep(levels: int) -> dict:
    scene = dict(SCENE)
    value: object = 1
    for _ in range(levels):
        value = [value]
    scene["name"] = value
    return scene


def hostile() -> list[tuple[str, bytes, str]]:
    """(what, file bytes, the one line's tell-tale words)."""
    good = json.dumps(shared()).encode()
    bad_scene = {**SCENE, "schema_version": 99}
    big_sheet = json.loads(json.dumps(SCENE))
    big_sheet["bodies"][0]["cols"] = 10**6
    too_many = {f"s{k}.json": SCENE for k in range(MAX_SCENES + 1)}
    cases = [
        ("truncated", good[: len(good) // 2], "not valid JSON"),
        ("empty", b"", "not valid JSON"),
        ("not UTF-8", b'{"id": "\xff"}', "not UTF-8"),
        ("scenes is a list", shared(scenes=[SCENE]), "scenes: Input should be a valid dictionary"),
        ("scene is a string", shared(scenes={"mine.json": "x"}), "scenes.mine.json: Input should"),
        ("name with ..", shared(scenes={"../mine.json": SCENE}), "plain file name"),
        ("name in a folder", shared(scenes={"sub/mine.json": SCENE}), "plain file name"),
        ("absolute name", shared(scenes={"/etc/passwd": SCENE}), "plain file name"),
        ("drive name", shared(scenes={"C:\\mine.json": SCENE}), "plain file name"),
        ("code as a name", shared(scenes={"__import__('os').json": SCENE}), "plain file name"),
        ("name not .json", shared(scenes={"mine": SCENE}), "plain file name"),
        ("scene's unknown key", shared(scenes={"mine.json": {**SCENE, "run": "rm -rf"}}),
         "scenes.mine.json: run: Extra inputs"),
        ("scene's wrong format", shared(scenes={"mine.json": {**SCENE, "format": "zip"}}),
         "scenes.mine.json: format"),
        ("scene's future version", shared(scenes={"mine.json": bad_scene}), "schema_version"),
        ("scene too big", shared(scenes={"mine.json": big_sheet}), "scenes.mine.json: bodies"),
        ("too many scenes", shared(scenes=too_many), "scenes: Dictionary should have at most"),
        ("nested too deep", shared(scenes={"mine.json": deep(20)}), "nested deeper"),
        ("duplicate ids", shared(questions=[question(), question()]), "'sag' is used twice"),
        ("wrong type", shared(title=7), "title: Input should be a valid string"),
        ("unknown panel", shared(class_mode={"hide": ["everything"]}), "class_mode.hide.0"),
        ("unknown setting", shared(class_mode={"hide_settings": ["__class__"]}),
         "'__class__': not a setting of the Parameters panel"),
        ("not embedded", shared(questions=[question(scene="gone.json")]), "not a scene embedded"),
        ("grab beyond scene", shared(questions=[question(checks=[{
            "claim": "held", "steps": 5, "apply": [{"grab": 10**6, "to": [0.0, 0.0, 0.0]}],
            "expect": {"readout": "held_gap", "op": "<", "value": 1}}])]), "grab 1000000"),
    ]  # fmt: skip
    encoded = [(w, d if isinstance(d, bytes) else json.dumps(d).encode(), m) for w, d, m in cases]
    duplicate_scene = good.replace(b'"scenes": {', b'"scenes": {"mine.json": {}, ', 1)
    nan = good.replace(b'"passes": 8', b'"passes": NaN', 1)
    assert nan != good
    return [
        *encoded,
        ("duplicate scene name", duplicate_scene, "duplicate key 'mine.json'"),
        ("NaN in a scene", nan, "NaN is not a finite number"),
        ("huge", b" " * (MAX_FILE_BYTES + 1), "larger than 8 MiB"),
    ]


HOSTILE = hostile()


def test_the_valid_set_behind_the_hostile_ones_opens(tmp_path):
    path = tmp_path / "set.json"
    path.write_text(json.dumps(shared()))
    assert load_question_set(path).scenes["mine.json"].name == SCENE["name"]


@pytest.mark.parametrize(("what", "raw", "words"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_a_hostile_shared_set_is_one_line(tmp_path: Path, what: str, raw: bytes, words: str):
    path = tmp_path / "set.json"
    path.write_bytes(raw)
    with pytest.raises(QuestionSetError) as caught:
        load_question_set(path)
    line = str(caught.value)
    assert "\n" not in line and line.startswith(str(path)), line
    assert words in line, line
    assert sorted(os.listdir(tmp_path)) == ["set.json"]  # nothing written, nothing unpacked


def test_there_are_at_least_twenty_hostile_cases():
    assert len(HOSTILE) >= 20


def test_a_set_for_a_class_seals_its_answers_and_the_teachers_passphrase(tmp_path):
    from clothlab.sim.lab.questions import Sealed, sealed_for_class

    three = [{"text": "Less"}, {"text": "More", "correct": True}, {"text": "Same"}]
    spec = QuestionSetSpec.model_validate({
        "id": "class", "title": "Class",
        "questions": [question(scene="hanging-sheet", prediction={"choices": three})],
        "class_mode": {"hide": ["parameters"]},
    })  # fmt: skip
    path = tmp_path / "class.json"
    save_shared_set(sealed_for_class(spec, Sealed.of("owl 42", stretch=True)), {}, path)
    text = path.read_text()
    assert '"correct": true' not in text and "owl 42" not in text
    loaded = load_question_set(path)
    prediction = loaded.questions[0].prediction
    assert prediction.correct_index == 1 and prediction.answer_text == "More"
    assert [prediction.matches(k) for k in range(3)] == [False, True, False]
    mode = loaded.spec.class_mode
    assert mode is not None and mode.teacher_holds("owl 42") and not mode.teacher_holds("owl")

    # a sealed answer that matches no choice, or a choice marked besides, is one line
    data = json.loads(text)
    data["questions"][0]["prediction"]["choices"][0]["text"] = "Fewer"
    data["questions"][0]["prediction"]["choices"][1]["text"] = "Much more"
    path.write_text(json.dumps(data))
    with pytest.raises(QuestionSetError, match="choices: exactly one must be correct"):
        load_question_set(path)
    data["questions"][0]["prediction"]["choices"][1] = {"text": "More", "correct": True}
    path.write_text(json.dumps(data))
    with pytest.raises(QuestionSetError, match="a sealed answer marks no choice correct"):
        load_question_set(path)


def test_a_set_from_before_sealing_still_opens_with_its_marked_answer(tmp_path):
    path = tmp_path / "old.json"
    path.write_text(json.dumps({
        "format": "clothlab-questions", "schema_version": 1, "id": "old", "title": "Old",
        "questions": [question(scene="hanging-sheet")], "class_mode": {"hide": ["compare"]},
    }))  # fmt: skip
    loaded = load_question_set(path)
    assert loaded.questions[0].prediction.correct_index == 0
    assert loaded.spec.class_mode is not None and loaded.spec.class_mode.teacher_holds("")
