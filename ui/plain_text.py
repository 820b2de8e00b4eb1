"""Text from a file shown as written. Qt's message boxes and labels guess
whether a string is rich text (Qt::mightBeRichText): a scene named "<img src=…>" loaded a local
image in "Save the changes to …?", and an unknown key "<a href='file:///…'>" in a scene made a
live link in the error dialog that one click handed to the desktop. Question sets travel by
email: every string that holds text from a file goes through `as_written` before a message box,
and labels that show such text are set to plain text."""

from __future__ import annotations

import html

# Rich text that keeps the spaces and line breaks of the text it holds, as plain text shows them
_AS_WRITTEN = '<p style="white-space: pre-wrap">{}</p>'


def as_written(text: str) -> str:
    """`text` for a Qt widget that guesses its format (QMessageBox's static functions): shown
    exactly as written. Text without a "<" is never taken for rich text and is left as it is;
    other text becomes rich text with every character escaped (no tags, no links, no images)."""
    if "<" not in text:
        return text
    return _AS_WRITTEN.format(html.escape(text, quote=False))
