"""The text the user reads, in the language the app was started in.

`tr("…")` marks a string for translation and returns it translated, when it is called: so it is
called where the text is made for showing, inside a function, never at import (a module's or a
class's constant is marked with `QT_TR_NOOP("…")`, which returns it as it is, and translated
where it is shown: `tr(parameter.label)`). pyside6-lupdate finds every `tr("…")` and
`QT_TR_NOOP("…")` with a literal in sim/, ui/ and app/ and writes the catalogue
(resources/i18n/clothlab_*.ts, `make translations`). A string with parts that vary is one
literal with named fields, filled after: `tr("Cut {count} links").format(count=n)`, so that a
translator can move the fields. A count is said with Qt's plural forms: `tr("Cut %n link(s)", "",
n)` gives "Cut 1 link" and "Cut 2 links", and the catalogue holds each language's forms ("1
Verbindung", "2 Verbindungen"). tests/test_translations.py holds these rules.

Qt-free, as sim/ is: the app hands it Qt's translator as a plain function (`use_language`)
before it builds the window. The headless commands, the files and the tests read the English
source.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from clothlab.resources import resource

# The languages with a catalogue (resources/i18n), each named in itself, as a list offers them
LANGUAGES: dict[str, str] = {"en": "English", "de": "Deutsch"}

# source text and a count (-1: none) → its translation, "" for none
_translate: Callable[[str, int], str] | None = None
language = "en"  # the language `tr` answers in, as an ISO 639 code
COUNT = "%n"  # where a counted text (`tr(text, "", n)`) shows its count


def tr(text: str, disambiguation: str = "", n: int | None = None) -> str:
    """`text` in the app's language; as it is when it has no translation. With a count `n`,
    `text` says it at COUNT ("%n link(s)"): the language's form for n (English's from the
    source, `english_count`), with n in it. `disambiguation` is Qt's comment for the
    catalogue (pyside6-lupdate reads the count as the third argument)."""
    if n is None:
        return (_translate(text, -1) if _translate is not None else "") or text
    counted = (_translate(text, n) if _translate is not None else "") or english_count(text, n)
    return counted.replace(COUNT, str(n))


def english_count(text: str, n: int) -> str:
    """A counted source text's English form: "%n link(s)" → "%n link" for 1, else "%n links";
    "%n pass(es)" likewise."""
    return re.sub(r"\((e?s)\)", "" if n == 1 else r"\1", text)


def QT_TR_NOOP(text: str) -> str:  # noqa: N802 (the name pyside6-lupdate looks for)
    """Marks `text` for the catalogue and returns it untranslated: for constants made at import,
    before the app has chosen its language. Translate it where it is shown, with `tr`."""
    return text


def use_language(code: str, translate: Callable[[str, int], str] | None) -> None:
    """Answer in the language `code` with `translate` ((source text, count or -1) → its
    translation in the count's form, "" for none); None: the English source."""
    global _translate, language
    _translate, language = translate, code


# The built-in scenes' and question sets' own words (data, not code, so not in the catalogue):
# resources/i18n/<name>.<language>.json, {"format": TRANSLATION_FORMAT, "language": …, "set": …,
# "strings": {English: translation}}, for the values of the fields a file's reader names.
TRANSLATION_FORMAT = "clothlab-translation"


def in_language(data: bytes, name: str, fields: frozenset[str]) -> bytes:
    """A built-in file's JSON with the values of `fields` (at any depth) in the app's language,
    where resources/i18n has them; as it is otherwise (English, or no translation)."""
    translation = resource("i18n", f"{name}.{language}.json")
    if language == "en" or not translation.is_file():
        return data
    strings = json.loads(translation.read_bytes())["strings"]
    return json.dumps(_translated(json.loads(data), strings, fields)).encode("utf-8")


def _translated(
    value: Any, strings: Mapping[str, str], fields: frozenset[str], key: str = ""
) -> Any:
    if isinstance(value, dict):
        return {k: _translated(v, strings, fields, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_translated(v, strings, fields, key) for v in value]
    if isinstance(value, str) and key in fields:
        return strings.get(value, value)
    return value
