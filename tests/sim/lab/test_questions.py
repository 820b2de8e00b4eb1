"""Question sets (sim.lab.questions) and `clothlab questions`: the format and its one-line errors,
the numeric checks, and every built-in question's explanation checked by numbers, headless."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import clothlab_in_process

from clothlab.sim.core.parameters import SETTINGS_TABLE
from clothlab.sim.core.readouts import READOUTS
from clothlab.sim.document.presets import preset_path
from clothlab.sim.lab.questions import (
    BUILTIN_SET,
    EVIDENCE,
    MAX_FILE_BYTES,
    MEASURES,
    QuestionSetError,
    builtin_set_names,
    check_question,
    check_set,
    load_builtin_set,
    load_question_set,
    parse_question_set,
    resolve_set,
)

ROOT = Path(__file__).resolve().parents[3]
BUILTIN = load_builtin_set()
BUILTIN_IDS = [q.id for q in BUILTIN.questions]


clothlab = clothlab_in_process


# --- the built-in set ------------------------------------------------------------------------


def test_the_builtin_set_has_at_least_ten_questions_each_with_checks_and_a_now_try():
    assert builtin_set_names() == [BUILTIN_SET]
    assert len(BUILTIN.questions) >= 10
    kinds = {"choice" if q.prediction.choices else "number" for q in BUILTIN.questions}
    assert kinds == {"choice", "number"}
    for question in BUILTIN.questions:
        assert question.checks and question.now_try, question.id
        assert question.evidence in EVIDENCE
        if question.prediction.choices:
            assert 2 <= len(question.prediction.choices) <= 4
    # the model notes' own questions are all there
    for wanted in ("drop", "ball-start", "more-passes", "longer-chain", "squashed-volume",
                   "edge-on-wind", "seam-faces", "shifted-grab", "sliding-landing",
                   "terminal-speed"):  # fmt: skip
        assert wanted in BUILTIN_IDS


def test_every_now_try_is_itself_checked_by_numbers():
    """A "now try" promises what the change does: some check runs with exactly that change."""
    for question in BUILTIN.questions:
        for suggestion in question.now_try:
            runs = [run for check in question.checks for run in check.runs()]
            assert any(run.set.get(suggestion.setting) == suggestion.value for run in runs), (
                f"{question.id}: now try {suggestion.label!r} is not checked"
            )


# Checks that measure something other than the question's evidence, and why that is right:
# each bears out a sentence of the explanation (or of the "watch" text) that is not the answer
# itself, and every one is seen where the question sends the student (the 3D view, or a plot the
# watch text names). The answer is always borne out on the evidence, by the first check.
SUPPORTING = {
    ("drop", "on_ball"): "where the sheet ends (the watch text asks) is seen in the 3D view",
    ("drop", "height"): "the sheet on the floor: seen in the 3D view",
    ("more-passes", "max_stretch"): "the explanation: sag comes from the stretch left",
    ("lower-stiffness", "max_stretch"): "the watch text names Max stretch too",
    ("longer-chain", "sag"): "the watch text names Sag too",
    ("squashed-volume", "max_stretch"): "the explanation: its links give a little",
    ("edge-on-wind", "height"): "on the floor, so Motion is its slide along it (3D view)",
    ("seam-faces", "links"): "the watch text: the seam cut's 31 links, in the footer",
    ("shifted-grab", "held_gap"): "a grab is a pin: the particle is at the pointer (3D view)",
    ("sliding-landing", "height"): "on the floor, so Motion is its slide along it (3D view)",
    ("pull-hardest", "pin_force"): "the watch text names Pin force: what the pins hold in all",
    ("pull-hardest", "hardest_at_pin"): "the tension map is red at the pins (3D view)",
}


def test_every_check_asserts_on_the_readout_its_question_points_at():
    """The question "Why do particles jump?" asked for the fastest particle, pointed at
    Motion (the mean speed, 5.5 units/s after one step) and checked the fastest particle (47),
    so a student who read the evidence was marked wrong. A question's answer is checked on the
    readout it highlights (its first check), the watch text names that readout, and any other
    check is a supporting claim listed above with its reason."""
    labels = {r.key: r.label for r in READOUTS}
    for question in BUILTIN.questions:
        readouts = [check.expect.readout for check in question.checks]
        assert readouts[0] == question.evidence, f"{question.id}: answer checked on {readouts[0]}"
        assert labels[question.evidence] in question.watch, question.id
        for readout in readouts:
            if readout != question.evidence:
                assert (question.id, readout) in SUPPORTING, f"{question.id}: {readout}"
    used = {(q.id, c.expect.readout) for q in BUILTIN.questions for c in q.checks}
    assert set(SUPPORTING) <= used  # no stale excuses


@pytest.fixture(scope="module")
def cli_check() -> dict[str, str]:
    """`clothlab questions --check` on the built-in set, as a teacher runs it: its lines by id."""
    result = clothlab("questions", "--check")
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == len(BUILTIN.questions)  # one line per question
    return {line.split()[1]: line for line in lines}


@pytest.mark.parametrize("question_id", BUILTIN_IDS)
def test_builtin_question_passes_its_headless_check(cli_check, question_id):
    line = cli_check[question_id]
    assert line.startswith("PASS  "), line
    question = BUILTIN.question(question_id)
    # every check's measured number is printed, one "; "-separated item each
    assert len(line.split("; ")) == len(question.checks)


def test_the_checks_measure_what_the_explanations_say():
    """In-process, the numbers the explanations quote (the CLI test above checks pass/fail)."""
    results = {r.question.id: r for r in check_set(BUILTIN)}
    measured = {qid: [c.measured for c in r.checks] for qid, r in results.items()}
    assert measured["seam-faces"][:2] == [10, 553]
    assert measured["terminal-speed"][0] == pytest.approx(9.8 / 120 / (1 - 0.994), abs=0.02)
    assert measured["ball-start"][0] == pytest.approx(46.91, abs=0.01)  # 0.4 units in 1/120 s
    assert measured["drop"][1] == 0  # no particle on the ball after 6 s
    assert measured["shifted-grab"][2] < 1e-12  # a grab is a pin: exactly at the pointer
    assert measured["sliding-landing"][0] == pytest.approx(0.21, abs=0.01)
    assert measured["sliding-landing"][2] == pytest.approx(0.994**120, abs=0.03)
    assert measured["edge-on-wind"][0] == pytest.approx(1.1, abs=0.05)
    assert all(r.passed for r in results.values())


def test_every_question_scene_loads_and_the_sets_scenes_are_package_data():
    for question in BUILTIN.questions:
        scene = BUILTIN.scene_for(question)
        assert scene.bodies
    shifted = BUILTIN.question("shifted-grab")
    assert BUILTIN.scene_for(shifted).wind.strength == 0.3  # the question's own setting
    package = sorted(p.name for p in (ROOT / "resources" / "questions").glob("*.json"))
    assert "lab.json" in package and "fine-sheet.json" in package


# --- a teacher's set -------------------------------------------------------------------------


def teacher_set(**question_changes) -> dict:
    question = {
        "id": "sag", "title": "Sag", "scene": "hanging-sheet",
        "question": "Does it sag?", "watch": "Watch Sag.", "evidence": "sag",
        "prediction": {"choices": [{"text": "Yes", "correct": True}, {"text": "No"}]},
        "explanation": "It sags a little.",
        "now_try": [{"label": "16 passes", "setting": "passes", "value": 16}],
        "checks": [{"claim": "it sags", "steps": 60,
                    "expect": {"readout": "sag", "op": ">", "value": 0.001}}],
    }  # fmt: skip
    question.update(question_changes)
    return {
        "format": "clothlab-questions", "schema_version": 1, "id": "teacher",
        "title": "A teacher's questions", "questions": [question],
    }  # fmt: skip


def write(folder: Path, data: dict, name: str = "set.json") -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_scene_file_next_to_the_set_is_found_from_any_working_folder(tmp_path, monkeypatch):
    folder = tmp_path / "class"
    scene = json.loads(preset_path("hanging-sheet").read_text())
    scene["name"] = "My sheet"
    scene["solver"]["passes"] = 4
    write(folder / "scenes", scene, "mine.json")
    path = write(folder, teacher_set(scene="scenes/mine.json"))
    monkeypatch.chdir(tmp_path)
    loaded = load_question_set(path)
    assert loaded.path == path and loaded.id == "teacher"
    assert loaded.scene_for(loaded.questions[0]).name == "My sheet"
    assert resolve_set(str(path)).questions[0].scene == "scenes/mine.json"


def test_checks_can_fail_compare_runs_and_report_a_blow_up(tmp_path):
    checks = [
        {"claim": "fails", "steps": 10, "expect": {"readout": "links", "op": "<", "value": 584}},
        {"claim": "difference", "compare": {"first": {"steps": 0},
         "second": {"steps": 0, "apply": ["seam"]}, "by": "difference"},
         "expect": {"readout": "links", "op": "==", "value": 31}},
        {"claim": "held", "steps": 5, "apply": [{"grab": 7, "to": [0.0, 2.0, 0.0]}],
         "expect": {"readout": "held_gap", "op": "<", "value": 1e-9}},
        # a free fall faster than the guard's 10⁴ units/s after 2000 steps (as in RESEARCH §7)
        {"claim": "blows up", "steps": 2500, "set": {"dt": 0.05, "gravity": 100.0, "floor": False,
         "ball": False, "damping": 1.0}, "scene": "drop",
         "expect": {"readout": "motion", "op": ">", "value": 0}},
    ]  # fmt: skip
    loaded = load_question_set(write(tmp_path, teacher_set(checks=checks)))
    result = check_question(loaded, loaded.questions[0])
    assert [c.passed for c in result.checks] == [False, True, True, False]
    assert not result.passed
    assert result.checks[0].text == "links 584 < 584"
    assert result.checks[1].text == "links difference 31 == 31"
    assert "blew up" in result.checks[3].text


def test_matching_a_prediction():
    question = BUILTIN.question("terminal-speed")
    assert question.prediction.matches(13.2) and not question.prediction.matches(12.8)
    assert question.prediction.describe(13.6) == "13.6 units/s"
    drop = BUILTIN.question("drop").prediction
    assert drop.matches(1) and not drop.matches(0) and not drop.matches(7)
    assert drop.answer_text == drop.choices[1].text


# --- bad files: one line naming the file and the field -------------------------------------------


def mutated(change) -> dict:
    data = teacher_set()
    change(data)
    return data


def question(data: dict) -> dict:
    return data["questions"][0]


BAD = {
    "unknown key": (lambda d: d.update(bogus=1), "bogus: Extra inputs are not permitted"),
    "wrong format": (lambda d: d.update(format="clothlab-scene"), "format: expected"),
    "newer version": (lambda d: d.update(schema_version=2), "schema_version: 2 is newer"),
    "version text": (lambda d: d.update(schema_version="1"), "schema_version: expected an int"),
    "no questions": (lambda d: d.update(questions=[]), "questions: List should have at least"),
    "bad id": (lambda d: question(d).update(id="Sag Q"), "questions.0.id: String should match"),
    "two correct": (
        lambda d: question(d)["prediction"]["choices"][1].update(correct=True),
        "questions.0.prediction: choices: exactly one must be correct",
    ),
    "five choices": (
        lambda d: question(d)["prediction"].update(choices=[{"text": "a", "correct": True}] * 5),
        "questions.0.prediction.choices: List should have at most 4",
    ),
    "choice and number": (
        lambda d: question(d)["prediction"].update(number={"answer": 1.0}),
        "questions.0.prediction: give either choices or number",
    ),
    "unknown setting": (
        lambda d: question(d).update(set={"stifness": 0.5}),
        "questions.0.set: stifness: unknown setting",
    ),
    "setting out of range": (
        lambda d: question(d)["checks"][0].update(set={"passes": 0}),
        "questions.0.checks.0.set: passes: 0 is outside 1…200",
    ),
    "now try out of range": (
        lambda d: question(d)["now_try"][0].update(value=500),
        "questions.0.now_try.0.value: passes: 500 is outside",
    ),
    "evidence not shown": (
        lambda d: question(d).update(evidence="kinetic_energy"),
        "questions.0.evidence: 'kinetic_energy': not a readout the panel shows",
    ),
    "unknown readout": (
        lambda d: question(d)["checks"][0]["expect"].update(readout="wiggle"),
        "questions.0.checks.0.expect.readout: 'wiggle': unknown readout",
    ),
    "bad op": (
        lambda d: question(d)["checks"][0]["expect"].update(op="=~"),
        "questions.0.checks.0.expect.op: Input should be",
    ),
    "compare and steps": (
        lambda d: question(d)["checks"][0].update(
            compare={"first": {"steps": 1}, "second": {"steps": 1}}
        ),
        "questions.0.checks.0: steps: belongs in compare.first",
    ),
    "no steps": (
        lambda d: question(d)["checks"][0].pop("steps"),
        "questions.0.checks.0: steps: a check needs steps",
    ),
    "too many steps": (
        lambda d: question(d)["checks"][0].update(steps=10**6),
        "questions.0.checks.0.steps: Input should be less than or equal to 20000",
    ),
    "nan value": (
        lambda d: question(d)["checks"][0]["expect"].update(value=float("nan")),
        "NaN is not a finite number",
    ),
    "bad action": (
        lambda d: question(d)["checks"][0].update(apply=["sew"]),
        "questions.0.checks.0.apply.0",
    ),
    "grab out of range": (
        lambda d: question(d)["checks"][0].update(apply=[{"grab": 165, "to": [0, 0, 0]}]),
        "questions.0.checks.0: grab 165 is not below the scene's 165 particles",
    ),
    "seam without a sheet": (
        lambda d: (
            question(d).update(scene="soft-block")
            or question(d)["checks"][0].update(apply=["seam"])
        ),
        "questions.0.checks.0: seam: scene 'Soft block' has no sheet",
    ),
    "duplicate ids": (
        lambda d: d["questions"].append(dict(question(d))),
        "questions.1.id: 'sag' is used twice",
    ),
    "unknown preset": (
        lambda d: question(d).update(scene="hanging-shet"),
        "questions.0.scene: 'hanging-shet' is not a preset",
    ),
    "escaping path": (
        lambda d: question(d).update(scene="../other/scene.json"),
        "questions.0.scene: '../other/scene.json': a scene path may not leave the set's folder",
    ),
    "absolute path": (
        lambda d: question(d).update(scene="/etc/scene.json"),
        "questions.0.scene: '/etc/scene.json': expected a preset name or a relative path",
    ),
    "missing scene file": (
        lambda d: question(d).update(scene="missing.json"),
        "missing.json: no such file",
    ),
    "check scene": (
        lambda d: question(d)["checks"][0].update(scene="nope.txt"),
        "questions.0.checks.0.scene: 'nope.txt': a scene file name ends in .json",
    ),
}


@pytest.mark.parametrize("case", list(BAD))
def test_a_bad_set_is_one_line_naming_the_file_and_field(tmp_path, case):
    change, expected = BAD[case]
    path = write(tmp_path, mutated(change))
    with pytest.raises(QuestionSetError) as caught:
        load_question_set(path)
    message = str(caught.value)
    assert "\n" not in message and len(message) <= 400
    assert message.startswith(f"{path}: "), message
    assert expected in message, message


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (b"{", "not valid JSON"),
        (b"\xff\xfe", "not UTF-8"),
        (b'{"format": "clothlab-questions", "format": "x"}', "duplicate key 'format'"),
        (b"[]", "top level must be an object"),
        (b"[" * 40 + b"]" * 40, "nested deeper"),
        (b'{"a": ' + b"9" * 5000 + b"}", "too many digits"),
    ],
)
def test_unreadable_files_are_one_line(tmp_path, raw, expected):
    path = tmp_path / "set.json"
    path.write_bytes(raw)
    with pytest.raises(QuestionSetError, match=expected):
        load_question_set(path)


def test_files_that_are_not_sets(tmp_path):
    with pytest.raises(QuestionSetError, match="no such file"):
        load_question_set(tmp_path / "none.json")
    with pytest.raises(QuestionSetError, match="is a folder"):
        load_question_set(tmp_path)
    big = tmp_path / "big.json"
    with big.open("wb") as stream:
        stream.truncate(MAX_FILE_BYTES + 1)
    with pytest.raises(QuestionSetError, match="larger than"):
        load_question_set(big)
    with pytest.raises(QuestionSetError, match="no such question set"):
        load_builtin_set("nope")


def test_a_scene_file_behind_a_link_may_not_leave_the_folder(tmp_path):
    outside = tmp_path / "outside.json"
    outside.write_text(preset_path("hanging-sheet").read_text())
    folder = tmp_path / "set"
    folder.mkdir()
    os.symlink(outside, folder / "linked.json")
    path = write(folder, teacher_set(scene="linked.json"))
    with pytest.raises(
        QuestionSetError, match=r"questions\.0\.scene: linked\.json: leaves the set"
    ):
        load_question_set(path)


def test_a_broken_scene_file_reports_its_own_field(tmp_path):
    scene = json.loads(preset_path("hanging-sheet").read_text())
    scene["solver"]["passes"] = 0
    write(tmp_path, scene, "broken.json")
    path = write(tmp_path, teacher_set(scene="broken.json"))
    with pytest.raises(QuestionSetError) as caught:
        load_question_set(path)
    assert "questions.0.scene: " in str(caught.value)
    assert "solver.passes" in str(caught.value)


def test_parse_without_a_folder_takes_presets_only():
    text = json.dumps(teacher_set())
    assert parse_question_set(text, "inline").questions[0].id == "sag"
    with pytest.raises(QuestionSetError, match="not a preset, and not a scene embedded in the set"):
        parse_question_set(json.dumps(teacher_set(scene="mine.json")), "inline")


def test_every_measure_has_a_name_the_format_accepts():
    assert {"sag", "volume", "motion", "max_speed", "max_stretch", "links", "faces",
            "on_ball"} <= set(MEASURES)  # fmt: skip
    assert len(MEASURES) == len(set(MEASURES))  # a readout is never a probe as well
    assert "passes" in SETTINGS_TABLE  # `set` is the settings table's own keys


# --- the command line --------------------------------------------------------------------------


def test_questions_lists_the_builtin_set():
    result = clothlab("questions")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("The lab's questions (lab, ")
    assert [line.split()[0] for line in lines[1:]] == BUILTIN_IDS
    assert "number" in lines[1 + BUILTIN_IDS.index("terminal-speed")]


def test_check_exits_1_on_a_failing_question_and_2_on_a_bad_file(tmp_path):
    never = {"claim": "no sag", "steps": 60, "expect": {"readout": "sag", "op": "<", "value": 1e-6}}
    failing = teacher_set(checks=[never])
    failing["questions"].append(teacher_set(id="passes")["questions"][0])
    path = write(tmp_path, failing)
    result = clothlab("questions", "--check", str(path), cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("FAIL  sag     sag 0.01") and "< 1e-06 [FAILS: no sag]" in lines[0]
    assert lines[1].startswith("PASS  passes  sag 0.01") and lines[1].endswith("> 0.001")
    only = clothlab("questions", "--check", str(path), "--question", "passes", cwd=tmp_path)
    assert only.returncode == 0 and len(only.stdout.splitlines()) == 1

    bad = write(tmp_path, mutated(lambda d: d.update(schema_version=9)), "bad.json")
    result = clothlab("questions", "--check", str(bad), cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"clothlab: error: {bad}: schema_version: 9 is newer")
    unknown = clothlab("questions", "--question", "nope")
    assert unknown.returncode == 2 and "--question nope" in unknown.stderr


def test_the_questions_command_imports_no_qt():
    code = (
        "import sys\n"
        "from clothlab.app.main import main\n"
        "code = main(['questions', '--check', '--question', 'seam-faces'])\n"
        "gui = sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyqtgraph'))\n"
        "assert code == 0 and not gui, (code, gui)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("PASS  seam-faces  faces difference 10 == 10")


def test_the_readme_example_set_loads_and_its_checks_pass(tmp_path):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    example = readme.split("**Writing a question set.**", 1)[1].split("```json\n", 1)[1]
    data = json.loads(example.split("```", 1)[0])
    write(
        tmp_path / "scenes", json.loads(preset_path("hanging-sheet").read_text()), "my-sheet.json"
    )
    loaded = load_question_set(write(tmp_path, data, "class.json"))
    assert loaded.id == "class-7b"
    results = check_set(loaded)
    assert all(result.passed for result in results), [c.text for c in results[0].checks]
