"""Which language the app starts in (app/language.py): the command line's, else the stored
preference, else the system's where there is a catalogue for it, else English."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QLocale

from clothlab.app.language import catalogue, chosen

GERMAN, FRENCH = QLocale(QLocale.Language.German), QLocale(QLocale.Language.French)


@pytest.mark.parametrize(
    ("requested", "stored", "system", "expected"),
    [
        ("de", "en", FRENCH, "de"),  # the command line first
        (None, "de", FRENCH, "de"),  # then Edit ▸ Preferences
        (None, "en", GERMAN, "en"),  # English chosen on a German desktop
        (None, "", GERMAN, "de"),  # "as the system's"
        (None, "", FRENCH, "en"),  # no French catalogue
        (None, "xx", GERMAN, "de"),  # a stored value the app does not know
    ],
)
def test_the_language_chosen_at_start(requested, stored, system, expected):
    assert chosen(requested, stored, system) == expected


def test_the_catalogue_is_a_compiled_file_of_the_package():
    assert catalogue("de").endswith("resources/i18n/clothlab_de.qm")
