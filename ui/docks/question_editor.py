"""The question editor: a teacher's own question set, made in the app without typing JSON.

File ▸ New question set… opens it empty; Edit… in the Questions panel opens it on the set shown
(a built-in set is edited as a copy: it saves to a new file). Each question has a title, its
scene (the current scene, embedded in the file on save, or the preset it came with), the
question, a prediction (two to four choices with one marked correct, or a number with unit and
tolerance), the evidence readout (one the Readouts panel shows), what to watch, the
explanation, an optional "now try" (a setting, its value, a note) — and checks made from what
was typed: the evidence readout after a chosen time must be what the answer says (a numeric
answer becomes "== answer ± tolerance" by itself), and optionally again with the now-try
setting. Checks a loaded set already had are kept as they are.

Check builds the set exactly as Save would write it, validates it as a file is validated, and
runs every check headless on the engine (sim.lab.questions.check_set, as `clothlab questions
--check` does) on a thread of its own, so that the window stays live, listing pass/fail per
check. Save writes one file with the scenes embedded (save_shared_set: atomic, and only a text
that opens again). Any problem is one line under the buttons.
"""

from __future__ import annotations

import contextlib
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from PySide6.QtCore import QLocale, QObject, Qt, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from clothlab.sim.core import readouts
from clothlab.sim.core.parameters import PARAMETERS, SETTINGS_TABLE
from clothlab.sim.document.files import describe
from clothlab.sim.document.presets import is_preset, load_preset, preset_names
from clothlab.sim.document.scene import (
    Scene,
    scene_settings,
    validation_message,
    with_settings,
)
from clothlab.sim.lab.questions import (
    EMBEDDED_NAME,
    HIDEABLE_PANELS,
    ClassMode,
    HideablePanel,
    QuestionSet,
    QuestionSetError,
    QuestionSetSpec,
    Sealed,
    check_at_time,
    check_set,
    evidence_shown,
    parse_question_set,
    save_shared_set,
    sealed_for_class,
    shared_set_json,
)
from clothlab.sim.text import QT_TR_NOOP, tr
from clothlab.ui.docks.scene_model import tooltip_for
from clothlab.ui.layouts import form_row, nest
from clothlab.ui.number_box import parse_number
from clothlab.ui.numbers import localized
from clothlab.ui.window import file_dialogs

SET_FILTER = QT_TR_NOOP("Cloth Lab question sets (*.json);;All files (*)")
MAX_CHOICES = 4
OPS = ("==", "<", "<=", ">", ">=")
READOUT_LABELS = {r.key: r.label for r in readouts.READOUTS}
PASSED, FAILED = QT_TR_NOOP("PASS"), QT_TR_NOOP("FAIL")
# the panels class mode may hide, by the titles the window gives their docks
PANEL_TITLES = {
    "parameters": QT_TR_NOOP("Parameters"),
    "scene": QT_TR_NOOP("Scene"),
    "history": QT_TR_NOOP("History"),
    "readouts": QT_TR_NOOP("Readouts"),
    "compare": QT_TR_NOOP("Compare"),
}


def slug(text: str, fallback: str) -> str:
    """An id from a title: "Where does it pull?" → "where-does-it-pull"."""
    words = re.findall(r"[a-z0-9]+", text.lower())
    return "-".join(words)[:60].strip("-") or fallback


@dataclass
class Draft:
    """One question as the editor holds it: what the form shows, plus what it keeps unseen."""

    scene: Scene
    preset: str | None = None  # the scene is this preset (kept by name), else embedded
    title: str = ""
    question: str = ""
    kind: str = "choices"  # or "number"
    choices: list[str] = field(default_factory=lambda: [""] * MAX_CHOICES)
    correct: int = 0
    answer: str = ""
    unit: str = ""
    tolerance: str = "0"
    evidence: str = readouts.SHOWN_KEYS[0]
    watch: str = ""
    explanation: str = ""
    now_try: bool = False
    try_setting: str = "passes"
    try_value: str = ""
    try_note: str = ""
    check_answer: bool = True
    at_seconds: str = "2"
    op: str = "=="
    value: str = ""
    check_tolerance: str = "0"
    check_try: bool = False
    seam: bool = False  # the checks' runs cut the seam before step 0
    grab: list[str] = field(default_factory=lambda: [""] * 4)  # particle, x, y, z: held so
    try_op: str = "<"
    try_check_value: str = ""
    # checks of a loaded set the form does not make, kept as they are (each can be deleted)
    kept_checks: list[dict[str, Any]] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)  # the question's own settings
    # what a loaded set had, so that saving it unchanged writes it unchanged
    scene_file: str = ""  # the embedded scene's name in the loaded set
    qid: str = ""  # the question's id (answers are kept by it): kept when the title changes
    decimals: int | None = None  # digits the student's answer box shows
    answer_check: dict[str, Any] | None = None  # the check the form's answer check came from
    try_check_found: dict[str, Any] | None = None  # the one the now-try check came from
    now_try_found: dict[str, Any] | None = None  # the first now try, as the file had it
    more_now_try: list[dict[str, Any]] = field(default_factory=list)  # the second and third
    # the checks' order in the file: "answer", "try", or one of kept_checks (by identity)
    order: list[Any] = field(default_factory=list)


class DraftError(ValueError):
    """What is wrong with a draft, one line naming the question and the field."""


def number_shown(value: float) -> str:
    """A number as the form shows it: short, every digit it has, the app's decimal point."""
    short = f"{value:g}"
    return localized(short if float(short) == value else repr(float(value)))


def _number(text: str, what: str) -> float:
    """A number typed in the app's language ("0,0105" in German), unrounded."""
    value = parse_number(text.strip(), QLocale().decimalPoint())
    if value is None:
        raise DraftError(
            tr("{what}: {text} is not a number").format(what=what, text=repr(text.strip()[:40]))
        ) from None
    if value != value or abs(value) == float("inf"):
        raise DraftError(
            tr("{what}: {text} is not a finite number").format(what=what, text=repr(text.strip()))
        )
    return value


def _delocalized(text: str, kind: type) -> str:
    """A setting's typed value as its parser reads it: "0,5" in German is 0.5."""
    if kind is not float:
        return text
    value = parse_number(text, QLocale().decimalPoint())
    return text if value is None else repr(value)


def _rename_scenes(check: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """A kept check with its runs' scene files renamed to where they are embedded now."""
    check = dict(check)
    if check.get("scene") in names:
        check["scene"] = names[check["scene"]]
    if "compare" in check:
        compare = dict(check["compare"])
        for run in ("first", "second"):
            if compare[run].get("scene") in names:
                compare[run] = {**compare[run], "scene": names[compare[run]["scene"]]}
        check["compare"] = compare
    return check


def drafts_from_set(question_set: QuestionSet) -> list[Draft]:
    """The editor's drafts for a loaded set: every field as the form shows it. The checks the
    form makes (the evidence after a time, with and without the now-try setting) are shown in
    it, ticked; the others are kept as they are, in their order."""
    drafts = []
    for question in question_set.questions:
        prediction = question.prediction
        draft = Draft(
            scene=question_set.scenes[question.scene],
            preset=question.scene if is_preset(question.scene) else None,
            title=question.title,
            question=question.question,
            evidence=question.evidence,
            watch=question.watch,
            explanation=question.explanation,
            check_answer=False,
            settings=dict(question.set),
            qid=question.id,
            scene_file="" if is_preset(question.scene) else question.scene,
        )
        if prediction.choices is not None:
            texts = [c.text for c in prediction.choices]
            draft.choices = texts + [""] * (MAX_CHOICES - len(texts))
            draft.correct = prediction.correct_index
        elif prediction.number is not None:
            draft.kind = "number"
            draft.answer = number_shown(prediction.number.answer)
            draft.unit = prediction.number.unit
            draft.tolerance = number_shown(prediction.number.tolerance)
            draft.decimals = prediction.number.decimals
        if question.now_try:
            first, *more = (t.model_dump(mode="json") for t in question.now_try)
            draft.now_try, draft.try_setting = True, first["setting"]
            draft.try_value, draft.try_note = _value_shown(first["value"]), first["note"]
            draft.now_try_found, draft.more_now_try = first, more
        dt = scene_settings(question_set.scene_for(question)).dt
        for check in (c.model_dump(mode="json", exclude_none=True) for c in question.checks):
            draft.order.append(_take_check(draft, check, dt))
        drafts.append(draft)
    return drafts


def _take_check(draft: Draft, check: dict[str, Any], dt: float) -> Any:
    """Show `check` in the form if the form makes such a check, else keep it: what `order`
    holds for it."""
    run_keys = set(check) - {"claim", "expect"}
    expect = check["expect"]
    apply = check.get("apply", [])
    seam = "seam" in apply
    grabs = [a for a in apply if isinstance(a, dict)]
    grab = _grab_shown(grabs[0]) if grabs else [""] * 4
    one_run = run_keys <= {"steps", "set", "apply"} and "steps" in check
    one_run = one_run and apply == [*(["seam"] if seam else []), *grabs]  # as the form makes it
    if draft.answer_check is not None or draft.try_check_found is not None:
        one_run = one_run and (seam, grab) == (draft.seam, draft.grab)  # the two share them
    if not one_run or expect["readout"] != draft.evidence:
        draft.kept_checks.append(check)
        return check
    seconds = number_shown(check["steps"] * dt)
    settings = check.get("set") or {}
    as_answer = (expect["op"], expect["value"], expect["tolerance"])
    if draft.kind == "number":  # its check is "== answer ± tolerance", made from the answer
        answer = _number(draft.answer, "answer"), _number(draft.tolerance, "tolerance")
        numeric = as_answer == ("==", *answer)
    else:
        numeric = True
    if not settings and draft.answer_check is None and numeric:
        draft.answer_check, draft.check_answer, draft.at_seconds = check, True, seconds
        draft.seam, draft.grab = seam, grab
        if draft.kind == "choices":
            draft.op, draft.value = expect["op"], number_shown(expect["value"])
            draft.check_tolerance = number_shown(expect["tolerance"])
        return "answer"
    found = draft.now_try_found
    same_time = draft.answer_check is None or seconds == draft.at_seconds
    if (
        found is not None and draft.try_check_found is None and same_time
        and settings == {found["setting"]: found["value"]} and expect["tolerance"] == 0
    ):  # fmt: skip
        draft.try_check_found, draft.check_try, draft.at_seconds = check, True, seconds
        draft.seam, draft.grab = seam, grab
        draft.try_op, draft.try_check_value = expect["op"], number_shown(expect["value"])
        return "try"
    draft.kept_checks.append(check)
    return check


def _grab_shown(grab: dict[str, Any]) -> list[str]:
    """A check's grab as the form's four fields: the particle, then where it is held."""
    return [str(grab["grab"]), *(number_shown(v) for v in grab["to"])]


def _actions(draft: Draft) -> list[Any]:
    """What the form's checks do before step 0: the seam cut, a particle held."""
    actions: list[Any] = ["seam"] if draft.seam else []
    if any(text.strip() for text in draft.grab):
        particle = draft.grab[0].strip()
        if not particle.isdigit():
            raise DraftError(
                tr("hold particle: {text} is not a particle's number").format(text=repr(particle))
            )
        to = [_number(text, tr("held at")) for text in draft.grab[1:]]
        actions.append({"grab": int(particle), "to": to})
    return actions


def _value_shown(value: Any) -> str:
    """A setting's value as the form shows it (a number in the app's language)."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float):
        return number_shown(value)
    return str(value)


def _same_check(made: dict[str, Any], found: dict[str, Any] | None) -> dict[str, Any]:
    """The check as the file had it (its own words) if the form left it as it was."""
    if found is not None and {**made, "claim": ""} == {**found, "claim": ""}:
        return found
    return made


def build_set(
    title: str,
    drafts: list[Draft],
    class_mode: ClassMode,
    scenes: dict[str, Scene],
    set_id: str = "",
    description: str = "",
) -> tuple[QuestionSetSpec, dict[str, Scene]]:
    """The set the drafts make, validated as its file will be: (spec, embedded scenes).
    `scenes` holds the kept checks' own scene files (by their names in the loaded set);
    `set_id` is the loaded set's id (answers are kept by it), else one is made from the title.
    Raises DraftError or QuestionSetError with one line."""
    if not title.strip():
        raise DraftError(tr("Set title: empty"))
    embedded: dict[str, Scene] = {}
    renamed: dict[str, str] = {}
    for name, scene in scenes.items():
        renamed[name] = _embed(scene, _stem(name, f"run-{len(renamed) + 1}"), embedded)
    questions, ids = [], set()
    for k, draft in enumerate(drafts, start=1):
        qid = draft.qid or slug(draft.title, f"q{k}")
        while qid in ids:
            qid = f"{qid}-{k}"
        ids.add(qid)
        try:
            questions.append(_question(draft, qid, embedded, renamed))
        except DraftError as error:
            raise DraftError(
                tr("Question {number}: {error}").format(number=k, error=error)
            ) from None
    document: dict[str, Any] = {
        "id": set_id or slug(title, "my-set"),
        "title": title.strip(),
        "questions": questions,
    }
    if description:
        document["description"] = description
    if class_mode:
        document["class_mode"] = class_mode.model_dump(exclude_defaults=True)
    try:
        spec = QuestionSetSpec.model_validate(document)
    except ValidationError as error:  # the file reader's check, said in the form's words
        raise QuestionSetError(form_message(error)) from None
    # and read back as the file will be: scenes named, grabs and seams fitting their scenes
    loaded = parse_question_set(shared_set_json(spec, embedded).encode("utf-8"), tr("the set"))
    return loaded.spec, embedded


def _stem(name: str, fallback: str) -> str:
    """The name a scene file had in the loaded set, without .json, if it can name an embedded
    scene ("swing.json"; not "scenes/swing.json"), else `fallback`."""
    return name.removesuffix(".json") if re.fullmatch(EMBEDDED_NAME, name) else fallback


# the form's names for a question's fields, as its labels read
FIELD_LABELS = {
    "title": QT_TR_NOOP("Title"), "question": QT_TR_NOOP("Question"),
    "watch": QT_TR_NOOP("What to watch"), "explanation": QT_TR_NOOP("Explanation"),
    "prediction": QT_TR_NOOP("Prediction"), "now_try": QT_TR_NOOP("Now try"),
    "checks": QT_TR_NOOP("Check the answer by numbers"), "evidence": QT_TR_NOOP("Evidence"),
}  # fmt: skip


def form_message(error: ValidationError) -> str:
    """The first problem the set's model found, as the form says it: the question numbered
    as the list shows it (from 1), the field by its label, in the app's language where the
    problem is a common one ("empty", "too long"); e.g. "Question 5: What to watch: empty"."""
    first = error.errors()[0]
    location = [part for part in first["loc"] if isinstance(part, (int, str))]
    context = first.get("ctx") or {}
    problem = {
        "string_too_short": tr("empty"),
        "string_too_long": tr("longer than {count} characters").format(
            count=context.get("max_length", "")
        ),
        "too_long": tr("more than {count}").format(count=context.get("max_length", "")),
    }.get(first["type"], first["msg"].removeprefix("Value error, "))
    if len(location) >= 3 and location[0] == "questions" and isinstance(location[1], int):
        label = FIELD_LABELS.get(str(location[2]))
        inner = [str(p) for p in location[3:] if isinstance(p, str)]  # "steps" of a check
        field_name = ": ".join([tr(label) if label else str(location[2]), *inner])
        return tr("Question {number}: {field}: {problem}").format(
            number=location[1] + 1, field=field_name, problem=problem
        )
    return tr("the set: {reason}").format(reason=validation_message(error))


def _embed(scene: Scene, stem: str, embedded: dict[str, Scene]) -> str:
    """The name `scene` is embedded under: that of an equal scene already in (several questions
    on one scene store it once), else `stem`.json, numbered if the name is taken."""
    for name, other in embedded.items():
        if other == scene:
            return name
    name, n = f"{stem}.json", 1
    while name in embedded:
        n += 1
        name = f"{stem[:58]}-{n}.json"
    embedded[name] = scene
    return name


def _question(
    draft: Draft, qid: str, embedded: dict[str, Scene], renamed: dict[str, str]
) -> dict[str, Any]:
    stem = _stem(draft.scene_file, qid)
    scene_ref = draft.preset if draft.preset is not None else _embed(draft.scene, stem, embedded)
    dt = scene_settings(draft.scene).dt
    prediction: dict[str, Any]
    if draft.kind == "choices":
        texts = [(k, t.strip()) for k, t in enumerate(draft.choices) if t.strip()]
        if draft.correct not in [k for k, _ in texts]:
            raise DraftError(tr("prediction: the choice marked correct is empty"))
        prediction = {"choices": [{"text": t, "correct": k == draft.correct} for k, t in texts]}
    else:
        answer = _number(draft.answer, tr("answer"))
        tolerance = _number(draft.tolerance or "0", tr("tolerance"))
        prediction = {"number": {"unit": draft.unit.strip(), "answer": answer,
                                 "tolerance": tolerance}}  # fmt: skip
        if draft.decimals is not None:
            prediction["number"]["decimals"] = draft.decimals
    made: dict[str, dict[str, Any]] = {}
    label = READOUT_LABELS.get(draft.evidence, draft.evidence)
    if not evidence_shown(with_settings(draft.scene, draft.settings), draft.evidence):
        raise DraftError(
            tr("evidence: the scene “{scene}” never shows {readout}: choose another").format(
                scene=draft.scene.name, readout=tr(label)
            )
        )
    if draft.check_answer:
        seconds = _number(draft.at_seconds, tr("check time (s)"))
        if draft.kind == "number":
            expect = ("==", prediction["number"]["answer"], prediction["number"]["tolerance"])
        else:
            expect = (draft.op, _number(draft.value, tr("check value")),
                      _number(draft.check_tolerance or "0", tr("check tolerance")))  # fmt: skip
        claim = f"after {seconds:g} s, {label} {_expect_text(expect)}"
        apply = _actions(draft)
        made["answer"] = _same_check(
            check_at_time(claim, draft.evidence, seconds, dt, expect, apply=apply),
            draft.answer_check,
        )
    now_try = []
    if draft.now_try:
        parameter = SETTINGS_TABLE[draft.try_setting]
        try:
            value = parameter.parse(_delocalized(draft.try_value.strip(), parameter.kind))
        except ValueError as error:
            raise DraftError(
                tr("now try: {setting}: {error}").format(setting=tr(parameter.label), error=error)
            ) from None
        found = draft.now_try_found
        label_said = f"{parameter.label} {draft.try_value.strip()}"
        if found is not None and (found["setting"], found["value"]) == (draft.try_setting, value):
            label_said = found["label"]  # the file's own words for an unchanged now try
        now_try.append({"label": label_said, "setting": draft.try_setting, "value": value,
                        "note": draft.try_note.strip()})  # fmt: skip
        now_try += draft.more_now_try
        if draft.check_try:
            seconds = _number(draft.at_seconds, tr("check time (s)"))
            expect = (draft.try_op, _number(draft.try_check_value, tr("now-try check value")), 0.0)
            claim = f"with {parameter.label} {draft.try_value.strip()}, after {seconds:g} s, " \
                f"{label} {_expect_text(expect)}"  # fmt: skip
            made["try"] = _same_check(
                check_at_time(claim, draft.evidence, seconds, dt, expect,
                              {draft.try_setting: value}, _actions(draft)),
                draft.try_check_found,
            )  # fmt: skip
    checks = _in_order(draft, made, renamed)
    if not checks:
        raise DraftError(tr("checks: tick “Check the answer” (a question needs a check)"))
    return {
        "id": qid, "title": draft.title.strip(), "scene": scene_ref, "set": draft.settings,
        "question": draft.question.strip(), "prediction": prediction,
        "watch": draft.watch.strip(), "evidence": draft.evidence,
        "explanation": draft.explanation.strip(), "now_try": now_try, "checks": checks,
    }  # fmt: skip


def _in_order(
    draft: Draft, made: dict[str, dict[str, Any]], renamed: dict[str, str]
) -> list[dict[str, Any]]:
    """The question's checks in the order the file had them; the form's new ones at the end."""
    checks = []
    for slot in draft.order:
        if isinstance(slot, str):
            if slot in made:
                checks.append(made.pop(slot))
        elif any(slot is kept for kept in draft.kept_checks):  # not deleted
            checks.append(_rename_scenes(slot, renamed))
    kept_after = [k for k in draft.kept_checks if not any(k is slot for slot in draft.order)]
    checks += [_rename_scenes(k, renamed) for k in kept_after]
    return checks + [made[slot] for slot in ("answer", "try") if slot in made]


def _kept_check_text(check: dict[str, Any]) -> str:
    """A kept check in one line: its claim and what it expects."""
    expect = check["expect"]
    by = check["compare"]["by"] if "compare" in check else ""
    what = f"{expect['readout']} {by}".strip()
    triple = (expect["op"], expect["value"], expect.get("tolerance", 0.0))
    return localized(f"{check['claim']} ({what} {_expect_text(triple)})")


def _expect_text(expect: tuple[str, float, float]) -> str:
    op, value, tolerance = expect
    return f"{op} {value:g}" + (f" ± {tolerance:g}" if op == "==" and tolerance else "")


# --- the dialog ----------------------------------------------------------------------------------


def _text_box(object_name: str, lines: int = 3) -> QPlainTextEdit:
    box = QPlainTextEdit()
    box.setObjectName(object_name)
    box.setTabChangesFocus(True)  # Tab moves on, as in every other field of the form
    box.setFixedHeight(box.fontMetrics().lineSpacing() * lines + 12)
    return box


def _line(object_name: str, placeholder: str = "") -> QLineEdit:
    line = QLineEdit()
    line.setObjectName(object_name)
    line.setPlaceholderText(placeholder)
    return line


class CheckRun(QObject):
    """A question set's checks (sim.lab.questions.check_set) on a thread of their own; the
    results, or the error that stopped them, come back on `finished` in the GUI thread."""

    finished = Signal(object)  # list of QuestionResult, or the Exception

    def start(self, question_set: QuestionSet) -> None:
        thread = threading.Thread(target=self._run, args=(question_set,), daemon=True)
        thread.name = "question checks"
        thread.start()

    def _run(self, question_set: QuestionSet) -> None:
        try:
            outcome: list[Any] | Exception = check_set(question_set)
        except Exception as error:
            outcome = error
        with contextlib.suppress(RuntimeError):  # the editor was closed while they ran
            self.finished.emit(outcome)


class QuestionEditor(QDialog):
    """A question set's questions, one form each; Check runs them, Save writes one file."""

    saved = Signal(object)  # the QuestionSet as saved, for the Questions panel to open

    def __init__(
        self,
        current_scene: Scene,
        question_set: QuestionSet | None = None,
        index: int = 0,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("Question set editor"))
        self.current_scene = current_scene  # "Use the current scene" takes this one
        self.path: Path | None = None
        self.results: list[tuple[str, bool, str]] = []  # (question, passed, line) per check
        self._kept_scenes: dict[str, Scene] = {}
        self._checked_text = ""  # the set as Check last ran it (self.results are its)
        self._pending_save: Path | None = None  # Save waits for Check's runs
        self._build()
        self.set_id, self.description = "", ""  # a teacher's own set keeps its id (answers)
        self.teacher: Sealed | None = None  # the loaded set's passphrase, kept if none is typed
        if question_set is not None:
            self.set_title.setText(question_set.title)
            self.description = question_set.spec.description
            self.teacher = (question_set.spec.class_mode or ClassMode()).teacher
            if self.teacher is not None:
                self.passphrase_edit.setPlaceholderText(tr("kept (type a new one to change it)"))
            if question_set.path is not None:
                self.set_id = question_set.id
            self.drafts = drafts_from_set(question_set)
            # the scene files kept checks run on their own, embedded again on save
            self._kept_scenes = {
                run.scene: question_set.scenes[run.scene]
                for question in question_set.questions for check in question.checks
                for run in check.runs() if run.scene is not None and not is_preset(run.scene)
            }  # fmt: skip
            self._show_class_mode(question_set.spec.class_mode or ClassMode())
            if question_set.path is not None and question_set.spec.scenes:
                self.path = question_set.path  # a shared file saves back to itself
        else:
            self.drafts = [Draft(scene=current_scene)]
        self._shown = -1
        self._refresh_list()
        self.question_list.blockSignals(True)
        self.question_list.setCurrentRow(min(index, len(self.drafts) - 1))
        self.question_list.blockSignals(False)
        self._show(self.question_list.currentRow())
        self.resize(980, 760)

    # --- construction ----------------------------------------------------------------------------

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        top.addWidget(QLabel(tr("Set title:")))
        self.set_title = _line("set_title", tr("e.g. Forces in a hanging sheet"))
        top.addWidget(self.set_title, 1)
        nest(layout, top)

        splitter = QSplitter()
        left = QWidget()
        column = QVBoxLayout(left)
        column.setContentsMargins(0, 0, 0, 0)
        self.question_list = QListWidget()
        self.question_list.setObjectName("editor_questions")
        self.question_list.currentRowChanged.connect(self._show)
        self.add_button = QPushButton(tr("Add question"))
        self.add_button.clicked.connect(self.add_question)
        self.remove_button = QPushButton(tr("Remove"))
        self.remove_button.clicked.connect(self.remove_question)
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        column.addWidget(self.question_list, 1)
        nest(column, buttons)
        column.addWidget(self._build_class_group())
        splitter.addWidget(left)
        splitter.addWidget(self._build_form())
        splitter.setStretchFactor(1, 1)
        layout.addWidget(splitter, 1)

        self.result_list = QListWidget()
        self.result_list.setObjectName("check_results")
        self.result_list.setMaximumHeight(120)
        layout.addWidget(self.result_list)
        self.status = QLabel("")
        self.status.setObjectName("editor_status")
        self.status.setWordWrap(True)
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        layout.addWidget(self.status)
        bottom = QHBoxLayout()
        self.check_button = QPushButton(tr("Check"))
        self.check_button.setToolTip(tr("Run every check headless, as clothlab questions --check"))
        self.check_button.clicked.connect(self.run_checks)
        self._checks = CheckRun(self)
        self._checks.finished.connect(self._show_results)
        self.save_button = QPushButton(tr("Save as one file…"))
        self.save_button.clicked.connect(self.save_dialog)
        self.close_button = QPushButton(tr("Close"))
        self.close_button.clicked.connect(self.reject)
        bottom.addWidget(self.check_button)
        bottom.addStretch(1)
        bottom.addWidget(self.save_button)
        bottom.addWidget(self.close_button)
        nest(layout, bottom)

    def _build_form(self) -> QWidget:
        form_widget = QWidget()
        form = QFormLayout(form_widget)
        self.title = _line("question_title_edit", tr("e.g. Where does the sheet pull hardest?"))
        form.addRow(tr("Title:"), self.title)
        scene_row = QHBoxLayout()
        self.scene_label = QLabel()
        self.scene_label.setTextFormat(Qt.TextFormat.PlainText)  # a scene file's name, as written
        self.scene_label.setObjectName("editor_scene")
        self.use_scene_button = QPushButton(tr("Use the current scene"))
        self.use_scene_button.setToolTip(tr("The scene in the 3D view now, embedded in the file"))
        self.use_scene_button.clicked.connect(self.use_current_scene)
        self.preset_box = QComboBox()
        self.preset_box.setObjectName("editor_preset")
        self.preset_box.setAccessibleName(tr("A preset as the question's scene"))
        self.preset_box.addItem(tr("Preset…"), None)  # the scene is not a preset
        for name in preset_names():
            self.preset_box.addItem(name, name)
        self.preset_box.activated.connect(self._preset_chosen)
        scene_row.addWidget(self.scene_label, 1)
        scene_row.addWidget(self.preset_box)
        scene_row.addWidget(self.use_scene_button)
        form_row(form, tr("Scene:"), scene_row)
        self.question_text = _text_box("question_text_edit")
        form.addRow(tr("Question:"), self.question_text)

        kind_row = QHBoxLayout()
        self.choices_radio = QRadioButton(tr("Choices"))
        self.choices_radio.setObjectName("kind_choices")
        self.number_radio = QRadioButton(tr("A number"))
        self.number_radio.setObjectName("kind_number")
        self.kind_group = QButtonGroup(self)
        self.kind_group.addButton(self.choices_radio)
        self.kind_group.addButton(self.number_radio)
        self.choices_radio.toggled.connect(self._show_kind)
        kind_row.addWidget(self.choices_radio)
        kind_row.addWidget(self.number_radio)
        kind_row.addStretch(1)
        form_row(form, tr("Prediction:"), kind_row)
        self.choices_box = QWidget()
        choices = QVBoxLayout(self.choices_box)
        choices.setContentsMargins(0, 0, 0, 0)
        self.correct_group = QButtonGroup(self)
        self.choice_edits: list[QLineEdit] = []
        self.correct_buttons: list[QRadioButton] = []
        for k in range(MAX_CHOICES):
            row = QHBoxLayout()
            correct = QRadioButton(tr("correct"))
            correct.setObjectName(f"correct_{k}")
            self.correct_group.addButton(correct, k)
            placeholder = tr("choice {number} (optional)") if k > 1 else tr("choice {number}")
            edit = _line(f"choice_edit_{k}", placeholder.format(number=k + 1))
            row.addWidget(edit, 1)
            row.addWidget(correct)
            nest(choices, row)
            self.choice_edits.append(edit)
            self.correct_buttons.append(correct)
        form.addRow("", self.choices_box)
        self.number_box = QWidget()
        number = QHBoxLayout(self.number_box)
        number.setContentsMargins(0, 0, 0, 0)
        self.answer_edit = _line("answer_edit", tr("answer"))
        self.unit_edit = _line("unit_edit", tr("unit"))
        self.tolerance_edit = _line("tolerance_edit", tr("± tolerance"))
        for widget in (QLabel(tr("answer")), self.answer_edit, QLabel(tr("unit")), self.unit_edit,
                       QLabel("±"), self.tolerance_edit):  # fmt: skip
            number.addWidget(widget)
        form.addRow("", self.number_box)

        self.evidence_box = QComboBox()
        self.evidence_box.setObjectName("evidence_box")
        for key in readouts.SHOWN_KEYS:
            label = tr(READOUT_LABELS[key]) if key in READOUT_LABELS else key
            self.evidence_box.addItem(f"{label} ({key})", key)
        form.addRow(tr("Evidence readout:"), self.evidence_box)
        self.watch_text = _text_box("watch_edit", 2)
        form.addRow(tr("What to watch:"), self.watch_text)
        self.explanation_text = _text_box("explanation_edit", 4)
        form.addRow(tr("Explanation:"), self.explanation_text)

        self.now_try_box = QGroupBox(tr("Now try"))
        self.now_try_box.setObjectName("now_try_group")
        self.now_try_box.setCheckable(True)
        now_try = QFormLayout(self.now_try_box)
        self.setting_box = QComboBox()
        self.setting_box.setObjectName("try_setting")
        for key, parameter in SETTINGS_TABLE.items():
            if parameter.kind is not tuple:  # a position has no one-line value to type
                self.setting_box.addItem(f"{tr(parameter.label)} ({key})", key)
        self.try_value = _line("try_value", tr("value, e.g. 32 or on"))
        self.try_note = _line("try_note", tr("what to look for after the click"))
        now_try.addRow(tr("Setting:"), self.setting_box)
        now_try.addRow(tr("Value:"), self.try_value)
        now_try.addRow(tr("Note:"), self.try_note)
        form.addRow(self.now_try_box)

        self.check_box = QGroupBox(tr("Check the answer by numbers"))
        self.check_box.setObjectName("answer_check_group")
        self.check_box.setCheckable(True)
        check = QFormLayout(self.check_box)
        self.at_edit = _line("check_time", tr("seconds of model time"))
        check.addRow(tr("After (s):"), self.at_edit)
        expect = QHBoxLayout()
        self.op_box = QComboBox()
        self.op_box.setObjectName("check_op")
        self.op_box.addItems(OPS)
        self.value_edit = _line("check_value", tr("value"))
        self.check_tolerance_edit = _line("check_tolerance", tr("± tolerance"))
        for part in (self.op_box, self.value_edit, QLabel("±"), self.check_tolerance_edit):
            expect.addWidget(part)
        self.expect_label = QLabel(tr("the evidence readout must be"))
        form_row(check, self.expect_label, expect)
        self.seam_box = QCheckBox(tr("Cut the seam first (the seam cut before step 0)"))
        self.seam_box.setObjectName("check_seam")
        check.addRow(self.seam_box)
        grab_row = QHBoxLayout()
        self.grab_edits: list[QLineEdit] = []
        for k, placeholder in enumerate((tr("particle"), "x", "y", "z")):
            edit = _line(f"grab_{k}", placeholder)
            edit.setAccessibleName(tr("Hold a particle: {part}").format(part=placeholder))
            self.grab_edits.append(edit)
            grab_row.addWidget(edit)
        form_row(check, tr("Hold a particle at:"), grab_row)
        self.numeric_note = QLabel(tr("A numeric answer is checked as “== answer ± tolerance”."))
        check.addRow(self.numeric_note)
        self.try_check = QCheckBox(tr("Also check with the now-try setting: readout"))
        self.try_check.setObjectName("check_try")
        self.try_check.setEnabled(False)  # until there is a now try
        self.now_try_box.toggled.connect(self.try_check.setEnabled)
        try_row = QHBoxLayout()
        self.try_op_box = QComboBox()
        self.try_op_box.setObjectName("try_check_op")
        self.try_op_box.addItems(OPS)
        self.try_value_edit = _line("try_check_value", tr("value"))
        try_row.addWidget(self.try_op_box)
        try_row.addWidget(self.try_value_edit, 1)
        form_row(check, self.try_check, try_row)
        self.kept_list = QListWidget()
        self.kept_list.setObjectName("kept_checks")
        self.kept_list.setAccessibleName(tr("Other checks, kept as in the file"))
        self.kept_list.setMaximumHeight(90)
        self.kept_label = QLabel()
        self.delete_check_button = QPushButton(tr("Delete check"))
        self.delete_check_button.setObjectName("delete_check")
        self.delete_check_button.setToolTip(tr("Delete the check chosen in the list"))
        self.delete_check_button.clicked.connect(self.delete_kept_check)
        kept_row = QHBoxLayout()
        kept_row.addWidget(self.kept_label, 1)
        kept_row.addWidget(self.delete_check_button)
        form.addRow(self.check_box)
        # outside the group: a kept check can be deleted with the form's own check unticked
        form_row(form, "", kept_row)
        form.addRow("", self.kept_list)
        return form_widget

    # --- drafts ⇄ form ---------------------------------------------------------------------------

    def _refresh_list(self) -> None:
        self.question_list.blockSignals(True)
        row = self.question_list.currentRow()
        self.question_list.clear()
        untitled = tr("(untitled)")
        for k, draft in enumerate(self.drafts, start=1):
            self.question_list.addItem(f"{k}. {draft.title or untitled}")
        self.question_list.setCurrentRow(max(0, min(row, len(self.drafts) - 1)))
        self.question_list.blockSignals(False)
        self.remove_button.setEnabled(len(self.drafts) > 1)

    def _show(self, row: int) -> None:
        """Keep what the form holds in the draft it shows, then show the chosen one."""
        if 0 <= self._shown < len(self.drafts):
            self._store(self.drafts[self._shown])
        self._shown = row
        if 0 <= row < len(self.drafts):
            self._load(self.drafts[row])

    def _load(self, draft: Draft) -> None:
        self.title.setText(draft.title)
        self._show_scene(draft)
        self.question_text.setPlainText(draft.question)
        (self.choices_radio if draft.kind == "choices" else self.number_radio).setChecked(True)
        for edit, text in zip(self.choice_edits, draft.choices, strict=True):
            edit.setText(text)
        self.correct_buttons[draft.correct].setChecked(True)
        self.answer_edit.setText(draft.answer)
        self.unit_edit.setText(draft.unit)
        self.tolerance_edit.setText(draft.tolerance)
        self.evidence_box.setCurrentIndex(max(0, self.evidence_box.findData(draft.evidence)))
        self.watch_text.setPlainText(draft.watch)
        self.explanation_text.setPlainText(draft.explanation)
        self.now_try_box.setChecked(draft.now_try)
        # toggled says nothing when the box already was as the draft has it (a group box starts
        # ticked): the now-try check follows the draft here
        self.try_check.setEnabled(draft.now_try)
        self.setting_box.setCurrentIndex(max(0, self.setting_box.findData(draft.try_setting)))
        self.try_value.setText(draft.try_value)
        self.try_note.setText(draft.try_note)
        self.check_box.setChecked(draft.check_answer)
        self.at_edit.setText(draft.at_seconds)
        self.op_box.setCurrentText(draft.op)
        self.value_edit.setText(draft.value)
        self.check_tolerance_edit.setText(draft.check_tolerance)
        self.try_check.setChecked(draft.check_try)
        self.seam_box.setChecked(draft.seam)
        for edit, text in zip(self.grab_edits, draft.grab, strict=True):
            edit.setText(text)
        self.try_op_box.setCurrentText(draft.try_op)
        self.try_value_edit.setText(draft.try_check_value)
        self._show_kept(draft)
        self._show_kind()

    def _show_kept(self, draft: Draft) -> None:
        """The checks the form does not make, each deletable."""
        self.kept_list.clear()
        for check in draft.kept_checks:
            self.kept_list.addItem(_kept_check_text(check))
        kept = len(draft.kept_checks)
        kept_text = (
            tr("and {count} check kept from the file:")
            if kept == 1
            else tr("and {count} checks kept from the file:")
        )
        self.kept_label.setText(kept_text.format(count=kept))
        for widget in (self.kept_label, self.kept_list, self.delete_check_button):
            widget.setVisible(bool(kept))
        if kept:
            self.kept_list.setCurrentRow(0)

    def delete_kept_check(self) -> None:
        """Delete the kept check chosen in the list (Save then writes the set without it)."""
        draft, row = self.drafts[self._shown], self.kept_list.currentRow()
        if 0 <= row < len(draft.kept_checks):
            del draft.kept_checks[row]
            self._show_kept(draft)
            self.kept_list.setCurrentRow(min(row, len(draft.kept_checks) - 1))

    def _store(self, draft: Draft) -> None:
        draft.title = self.title.text()
        draft.question = self.question_text.toPlainText()
        draft.kind = "choices" if self.choices_radio.isChecked() else "number"
        draft.choices = [edit.text() for edit in self.choice_edits]
        draft.correct = max(0, self.correct_group.checkedId())
        draft.answer, draft.unit = self.answer_edit.text(), self.unit_edit.text()
        draft.tolerance = self.tolerance_edit.text()
        draft.evidence = self.evidence_box.currentData()
        draft.watch = self.watch_text.toPlainText()
        draft.explanation = self.explanation_text.toPlainText()
        draft.now_try = self.now_try_box.isChecked()
        draft.try_setting = self.setting_box.currentData()
        draft.try_value, draft.try_note = self.try_value.text(), self.try_note.text()
        draft.check_answer = self.check_box.isChecked()
        draft.at_seconds, draft.op = self.at_edit.text(), self.op_box.currentText()
        draft.value = self.value_edit.text()
        draft.check_tolerance = self.check_tolerance_edit.text()
        draft.check_try = self.try_check.isChecked()
        draft.seam = self.seam_box.isChecked()
        draft.grab = [edit.text() for edit in self.grab_edits]
        draft.try_op, draft.try_check_value = (
            self.try_op_box.currentText(),
            self.try_value_edit.text(),
        )

    def _show_kind(self) -> None:
        choices = self.choices_radio.isChecked()
        self.choices_box.setVisible(choices)
        self.number_box.setVisible(not choices)
        for widget in (self.op_box, self.value_edit, self.check_tolerance_edit, self.expect_label):
            widget.setEnabled(choices)
        self.numeric_note.setVisible(not choices)

    def _show_scene(self, draft: Draft) -> None:
        self.preset_box.setCurrentIndex(max(0, self.preset_box.findData(draft.preset)))
        where = (
            tr("preset {name}").format(name=draft.preset)
            if draft.preset
            else tr("embedded in the file")
        )
        self.scene_label.setText(f"{draft.scene.name} ({where})")

    def _preset_chosen(self, index: int) -> None:
        """A preset as the question's scene, chosen here rather than loaded in the window (the
        box shows the question's preset; "Preset…" for a scene of its own)."""
        name = self.preset_box.itemData(index)
        if name is None:
            return
        draft = self.drafts[self._shown]
        draft.scene, draft.preset, draft.settings = load_preset(name), name, {}
        draft.scene_file = ""
        self._show_scene(draft)

    def use_current_scene(self) -> None:
        draft = self.drafts[self._shown]
        draft.scene, draft.preset, draft.settings = self.current_scene, None, {}
        draft.scene_file = ""
        self._show_scene(draft)

    def add_question(self) -> None:
        self._store(self.drafts[self._shown])
        self.drafts.append(Draft(scene=self.current_scene))
        self._refresh_list()
        self.question_list.setCurrentRow(len(self.drafts) - 1)
        self.title.setFocus()

    def remove_question(self) -> None:
        if len(self.drafts) > 1:
            del self.drafts[self._shown]
            self._shown = -1  # the form's draft is gone: nothing to keep
            self._refresh_list()
            self._show(self.question_list.currentRow())

    # --- class mode ----------------------------------------------------------------------------

    def _build_class_group(self) -> QGroupBox:
        """Class mode: the panels, and the Parameters panel's settings, students do not see."""
        self.class_group = QGroupBox(tr("Class mode: hide these panels"))
        self.class_group.setToolTip(
            tr(
                "Students opening the set see these panels and settings hidden "
                "(View ▸ Leave class mode shows them again)"
            )
        )
        hide = QVBoxLayout(self.class_group)
        self.hide_boxes: dict[HideablePanel, QCheckBox] = {}
        for name in HIDEABLE_PANELS:
            box = QCheckBox(tr(PANEL_TITLES[name]) if name in PANEL_TITLES else name.capitalize())
            box.setObjectName(f"hide_{name}")
            hide.addWidget(box)
            self.hide_boxes[name] = box
        hide.addWidget(QLabel(tr("and these settings:")))
        self.hidden_settings = QListWidget()
        self.hidden_settings.setObjectName("hide_settings")
        self.hidden_settings.setAccessibleName(tr("Settings hidden in class mode"))
        self.hidden_settings.setMaximumHeight(110)
        for key, parameter in PARAMETERS.items():
            item = QListWidgetItem(f"{tr(parameter.label)} ({parameter.section})")
            item.setData(Qt.ItemDataRole.UserRole, key)
            item.setToolTip(tooltip_for(parameter))
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Unchecked)
            self.hidden_settings.addItem(item)
        hide.addWidget(self.hidden_settings)
        self.passphrase_edit = _line("teacher_passphrase_edit", tr("teacher's passphrase"))
        self.passphrase_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.passphrase_edit.setAccessibleName(tr("Teacher's passphrase"))
        self.passphrase_edit.setToolTip(
            tr(
                "Class mode asks for it before anyone leaves it, edits the questions or opens "
                "another set; the file keeps it, and the correct choices, only as salted hashes"
            )
        )
        hide.addWidget(QLabel(tr("Teacher's passphrase:")))
        hide.addWidget(self.passphrase_edit)
        return self.class_group

    def class_mode(self) -> ClassMode:
        """What the set hides from a class, as ticked (the passphrase is sealed in on save)."""
        settings = self.hidden_settings
        return ClassMode(
            hide=[name for name, box in self.hide_boxes.items() if box.isChecked()],
            hide_settings=[
                settings.item(k).data(Qt.ItemDataRole.UserRole) for k in range(settings.count())
                if settings.item(k).checkState() == Qt.CheckState.Checked
            ],
        )  # fmt: skip

    def _show_class_mode(self, mode: ClassMode) -> None:
        for name, box in self.hide_boxes.items():
            box.setChecked(name in mode.hide)
        for k in range(self.hidden_settings.count()):
            item = self.hidden_settings.item(k)
            hidden = item.data(Qt.ItemDataRole.UserRole) in mode.hide_settings
            item.setCheckState(Qt.CheckState.Checked if hidden else Qt.CheckState.Unchecked)

    # --- check and save --------------------------------------------------------------------------

    def build(self) -> tuple[QuestionSetSpec, dict[str, Scene]] | None:
        """The set as it will be saved, or None with the one-line reason in the status line."""
        self._store(self.drafts[self._shown])
        self._refresh_list()
        try:
            return build_set(
                self.set_title.text(), self.drafts, self.class_mode(), self._kept_scenes,
                self.set_id, self.description,
            )  # fmt: skip
        except (DraftError, QuestionSetError) as error:
            self.status.setText(tr("Cannot make the set: {error}").format(error=error))
            return None

    @property
    def waiting_to_save(self) -> bool:
        """Save is waiting for Check's runs (it saves, or asks, when they end)."""
        return self._pending_save is not None

    @property
    def checking(self) -> bool:
        """Check's runs are under way (the button is off until they end)."""
        return not self.check_button.isEnabled()

    def run_checks(self) -> None:
        """Every check of every question, headless, on a thread of its own (each run is up to
        20 000 steps: seconds that would freeze the window); the results are listed when
        they come."""
        built = self.build()
        if built is None:
            return
        spec, scenes = built
        question_set = parse_question_set(shared_set_json(spec, scenes).encode(), tr("the set"))
        count = sum(len(question.checks) for question in question_set.questions)
        self._checked_text = shared_set_json(spec, scenes)
        self.check_button.setEnabled(False)
        self.save_button.setEnabled(False)
        self.result_list.clear()
        checking = tr("Checking {count} check…") if count == 1 else tr("Checking {count} checks…")
        self.status.setText(checking.format(count=count))
        self._checks.start(question_set)

    def _show_results(self, outcome: list[Any] | Exception) -> None:
        self.check_button.setEnabled(True)
        self.save_button.setEnabled(True)
        pending, self._pending_save = self._pending_save, None
        if isinstance(outcome, Exception):
            self._checked_text = ""
            self.results = []
            reason = describe(outcome).splitlines()[0]
            self.status.setText(tr("Cannot check: {reason}").format(reason=reason))
            return
        self.results = [
            (result.question.title, check.passed, check.text)
            for result in outcome for check in result.checks
        ]  # fmt: skip
        for title, passed, text in self.results:
            self.result_list.addItem(f"{tr(PASSED if passed else FAILED)}  {title}: {text}")
        failed = sum(not passed for _, passed, _ in self.results)
        total = len(self.results)
        status = tr("{passed} of {total} checks pass").format(passed=total - failed, total=total)
        if failed:
            status += tr("; {failed} fail: change the expected numbers or the question").format(
                failed=failed
            )
        self.status.setText(status)
        if pending is not None:  # Save asked for these checks first
            self.save_to(pending)

    def _teacher(self) -> Sealed | None:
        """The passphrase typed (stretched and salted), else the loaded set's."""
        typed = self.passphrase_edit.text()
        return Sealed.of(typed, stretch=True) if typed else self.teacher

    def _save_anyway(self, failed: int) -> bool:
        """Ask before saving a set whose checks fail (its explanations are not borne out)."""
        buttons = QMessageBox.StandardButton
        answer = QMessageBox.warning(
            self,
            tr("Checks fail"),
            tr(
                "{failed} of {total} checks fail: the numbers do not bear the answers out. "
                "Save the set anyway?"
            ).format(failed=failed, total=len(self.results)),
            buttons.Save | buttons.Cancel,
            buttons.Cancel,
        )
        return answer == buttons.Save

    def save_dialog(self) -> None:
        suggestion = f"{slug(self.set_title.text(), 'my-set')}.json"
        if self.path is not None:
            suggestion = self.path.name
        path, _ = file_dialogs.get_save_file_name(
            self, tr("Save question set"), suggestion, tr(SET_FILTER)
        )
        if path:
            self.save_to(Path(path))

    def save_to(self, path: Path) -> bool:
        """Save the set to `path`, once its checks have run on it as it is now: True if it
        was written now. Checks not yet run for it start first (Save then follows by itself);
        failing ones ask before the set is written."""
        built = self.build()
        if built is None:
            return False
        if shared_set_json(*built) != self._checked_text:
            self.run_checks()
            if self.checking:
                self._pending_save = path
                self.status.setText(tr("Checking before saving…"))
            return False
        failed = sum(not passed for _, passed, _ in self.results)
        if failed and not self._save_anyway(failed):
            self.status.setText(tr("Not saved: {failed} checks fail").format(failed=failed))
            return False
        spec, scenes = built
        if spec.class_mode or self.passphrase_edit.text():  # a class's: answers sealed
            teacher = self._teacher()
            if teacher is None:
                self.status.setText(
                    tr("Cannot save: class mode needs a teacher's passphrase (under the panels)")
                )
                return False
            spec = sealed_for_class(spec, teacher)
        try:
            saved = save_shared_set(spec, scenes, path)
        except QuestionSetError as error:
            self.status.setText(tr("Cannot save: {error}").format(error=error))
            return False
        except OSError as error:
            self.status.setText(
                tr("Cannot save: {path}: {reason}").format(path=path, reason=describe(error))
            )
            return False
        self.path = path
        self.status.setText(
            tr("Saved {path} (%n question(s), scenes inside)", "", len(saved.questions)).format(
                path=path
            )
        )
        self.saved.emit(saved)
        return True
