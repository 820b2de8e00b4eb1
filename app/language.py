"""The language the desktop app speaks, chosen once as it starts: `--language` on the command
line, else Edit ▸ Preferences ▸ Language, else the system's locale where Cloth Lab has a
catalogue for it, else English.

The catalogues are resources/i18n/clothlab_<code>.ts, kept by `make translations`
(pyside6-lupdate over sim/, ui/ and app/) and compiled to .qm by the build (pyside6-lrelease).
Installing one hands its translator to sim.text (every `tr` of the app), Qt's own catalogue to
the application (its dialogs' buttons), and the language's locale to every number field. Files
never change with the language: their numbers are written by Python, in the C locale.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from clothlab.resources import resource
from clothlab.sim import text
from clothlab.sim.text import LANGUAGES


def catalogue(code: str) -> str:
    """The compiled catalogue of a language (which the build makes)."""
    return str(resource("i18n", f"clothlab_{code}.qm"))


def chosen(requested: str | None, stored: str, system: QLocale | None = None) -> str:
    """The language to start in: the command line's, the preference's, the system's if there
    is a catalogue for it, else English."""
    for code in (requested, stored):
        if code is not None and code in LANGUAGES:
            return code
    locale = system if system is not None else QLocale.system()
    code = QLocale.languageToCode(locale.language())
    return code if code in LANGUAGES else "en"


_translators: list[QTranslator] = []  # ours and Qt's, for the application once it is made


def install(code: str) -> str:
    """Speak `code` from now on (before the scene loads, so that a preset's name is in it too);
    returns the language installed: English when the catalogue is missing, said once on
    stderr. `attach` gives Qt's own texts the language too."""
    _translators.clear()
    if code == "en":
        text.use_language("en", None)
        return "en"
    ours = QTranslator()
    if not ours.load(catalogue(code)):
        print(f"clothlab: no {LANGUAGES[code]} catalogue ({catalogue(code)}); run make",
              file=sys.stderr)  # fmt: skip
        return install("en")
    qt = QTranslator()  # Qt's own texts: a message box's buttons, a file dialog
    if qt.load(f"qtbase_{code}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        _translators.append(qt)
    _translators.append(ours)
    text.use_language(code, lambda source, n: ours.translate("", source, None, n) or "")
    QLocale.setDefault(QLocale(code))
    return code


def attach(app: QCoreApplication) -> None:
    """The installed language's translators into the application, for Qt's own texts."""
    for translator in _translators:
        app.installTranslator(translator)
