"""Every user-visible string goes through sim.text.tr, and the catalogues hold a
translation of each. Read from the source with `ast` (each breach named by file:line) and from
what pyside6-lupdate extracts now, so a string added without its translation fails here."""

from __future__ import annotations

import ast
import string
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("sim", "ui", "app")
CATALOGUES = sorted((ROOT / "resources" / "i18n").glob("clothlab_*.ts"))
LUPDATE = Path(sys.executable).with_name("pyside6-lupdate")


def sources() -> list[Path]:
    return sorted(p for layer in LAYERS for p in (ROOT / layer).rglob("*.py"))


def marker_calls(tree: ast.AST) -> list[tuple[ast.Call, bool]]:
    """Every call of tr or QT_TR_NOOP, and whether it runs inside a function (at call time)."""
    found: list[tuple[ast.Call, bool]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        call = isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        if call and node.func.id in ("tr", "QT_TR_NOOP"):  # type: ignore[attr-defined]
            found.append((node, in_function))  # type: ignore[arg-type]
        inner = in_function or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        for child in ast.iter_child_nodes(node):
            # a default value is made when the function is defined: at import
            visit(child, inner and not _is_default(node, child))

    visit(tree, False)
    return found


def _is_default(parent: ast.AST, child: ast.AST) -> bool:
    return isinstance(parent, ast.arguments) and (
        child in parent.defaults or child in parent.kw_defaults
    )


def fields(template: str) -> set[str]:
    parsed = string.Formatter().parse(template)
    return {name for _text, name, _spec, _conv in parsed if name is not None}


def breaches() -> list[str]:
    found = []
    for path in sources():
        where = path.relative_to(ROOT)
        for call, in_function in marker_calls(ast.parse(path.read_text(), str(path))):
            name, line = call.func.id, f"{where}:{call.lineno}"  # type: ignore[attr-defined]
            if name == "tr" and not in_function:
                found.append(f"{line}: tr() at import, before the language is chosen (QT_TR_NOOP)")
            argument = call.args[0] if call.args else None
            if isinstance(argument, ast.JoinedStr):
                found.append(f'{line}: {name}(f"…"): the catalogue needs a literal, named fields')
            elif name == "QT_TR_NOOP" and not (
                isinstance(argument, ast.Constant) and isinstance(argument.value, str)
            ):
                found.append(f"{line}: QT_TR_NOOP of something other than a string literal")
            elif isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                numbered = [f for f in fields(argument.value) if not f.isidentifier()]
                if numbered:
                    found.append(f"{line}: unnamed fields {numbered}: a translator can't move them")
    return found


def test_every_marked_text_is_translated_at_call_time_from_a_literal_with_named_fields():
    assert breaches() == []


def catalogue(path: Path) -> dict[str, tuple[str, bool]]:
    """source → (translation, finished) of a .ts file; a counted text's translation is its
    plural forms, one a line."""
    messages = {}
    for message in ElementTree.parse(path).iter("message"):
        source = message.findtext("source") or ""
        translation = message.find("translation")
        kind = translation.get("type", "") if translation is not None else "unfinished"
        text = (translation.text or "") if translation is not None else ""
        if message.get("numerus") == "yes" and translation is not None:
            text = "\n".join(form.text or "" for form in translation.iter("numerusform"))
        messages[source] = (text, kind == "")
    return messages


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> dict[str, tuple[str, bool]]:
    """What pyside6-lupdate finds in the code now."""
    target = tmp_path_factory.mktemp("i18n") / "now.ts"
    subprocess.run(
        [str(LUPDATE), "-extensions", "py", "-locations", "none", *LAYERS, "-ts", str(target)],
        cwd=ROOT, check=True, capture_output=True,
    )  # fmt: skip
    return catalogue(target)


def test_there_is_a_second_language():
    assert [p.name for p in CATALOGUES] == ["clothlab_de.ts"]


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: p.stem)
def test_the_catalogue_translates_every_string_the_code_shows(path, extracted):
    shipped = catalogue(path)
    assert len(extracted) > 500  # the app's texts are marked, not a few of them
    missing = sorted(s for s in extracted if s not in shipped or not shipped[s][1])
    assert missing == [], f"{len(missing)} strings without a translation: run make translations"
    empty = sorted(s for s in extracted if not shipped[s][0].strip())
    assert empty == []


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: p.stem)
def test_each_translation_keeps_the_fields_its_source_fills(path):
    wrong = {
        source: translation
        for source, (translation, _finished) in catalogue(path).items()
        if fields(source) != fields(translation)
    }
    assert wrong == {}


BUILT_IN_WORDS = sorted((ROOT / "resources" / "i18n").glob("*.*.json"))


def words_of(data: object, fields: frozenset[str], key: str = "") -> set[str]:
    if isinstance(data, dict):
        return set().union(*(words_of(v, fields, k) for k, v in data.items()))
    if isinstance(data, list):
        return set().union(*(words_of(v, fields, key) for v in data))
    return {data} if isinstance(data, str) and key in fields else set()


@pytest.mark.parametrize("path", BUILT_IN_WORDS, ids=lambda p: p.name)
def test_the_built_in_scenes_and_questions_have_all_their_words_in_each_language(path):
    import json

    from clothlab.sim.core.materials import SI_FABRICS
    from clothlab.sim.document.presets import PRESET_WORDS
    from clothlab.sim.lab.questions import TRANSLATED_FIELDS

    translation = json.loads(path.read_text())
    assert translation["format"] == "clothlab-translation"
    name, language = path.name.split(".")[:2]
    assert translation["language"] == language
    if name == "presets":
        files, fields = sorted((ROOT / "resources" / "scenes").glob("*.json")), PRESET_WORDS
    else:
        files, fields = [ROOT / "resources" / "questions" / f"{name}.json"], TRANSLATED_FIELDS
    words = set().union(*(words_of(json.loads(f.read_text()), fields) for f in files))
    words -= {"", *SI_FABRICS}  # a fabric's name is a key (its label is in the catalogue)
    strings = translation["strings"]
    assert sorted(words - set(strings)) == []
    assert all(strings[w].strip() for w in words)


def test_in_german_a_preset_and_the_lab_questions_speak_german_and_do_the_same():
    from clothlab.sim import text
    from clothlab.sim.document.presets import load_preset
    from clothlab.sim.lab.questions import load_builtin_set

    english_scene, english_set = load_preset("drop"), load_builtin_set()
    text.use_language("de", None)
    try:
        scene, german_set = load_preset("drop"), load_builtin_set()
    finally:
        text.use_language("en", None)
    assert (english_scene.name, scene.name) == ("Drop on the ball", "Fall auf die Kugel")
    assert scene.model_dump(exclude={"name", "description"}) == english_scene.model_dump(
        exclude={"name", "description"}
    )
    first, english_first = german_set.spec.questions[0], english_set.spec.questions[0]
    assert first.title != english_first.title
    assert (first.id, first.scene, first.evidence) == (english_first.id, english_first.scene,
                                                       english_first.evidence)  # fmt: skip
    assert [c.correct for c in first.prediction.choices] == [
        c.correct for c in english_first.prediction.choices
    ]


def test_shown_numbers_take_the_locales_decimal_point_and_nothing_else_changes():
    from PySide6.QtCore import QLocale

    from clothlab.ui.numbers import localized

    before = QLocale()
    try:
        QLocale.setDefault(QLocale(QLocale.Language.German))
        shown = localized("Max. Dehnung 1.978 %, z. B. 0.5 LE")
        assert shown == "Max. Dehnung 1,978 %, z. B. 0,5 LE"
        QLocale.setDefault(QLocale(QLocale.Language.English))
        assert localized("sag 0.31 units") == "sag 0.31 units"
    finally:
        QLocale.setDefault(before)
