"""Help's document viewer: its title names the document once (the desktop adds the app's name:
"Cloth Lab — User guide (README.md) — Cloth Lab" had it twice), and a click on a link between the
documents opens the linked one."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QDesktopServices, QTextCursor
from PySide6.QtTest import QTest
from qt_helpers import WAIT_MS

from clothlab.ui.window.dialogs import APPLICATION, DocumentViewer

LEFT = Qt.MouseButton.LeftButton


def link_point(browser, href: str):
    """The middle of the first link to `href` in the browser's document, in viewport pixels,
    scrolled into view."""
    block = browser.document().begin()
    while block.isValid():
        fragments = block.begin()
        while not fragments.atEnd():
            fragment = fragments.fragment()
            if fragment.charFormat().anchorHref() == href:
                cursor = QTextCursor(browser.document())
                cursor.setPosition(fragment.position() + fragment.length() // 2)
                browser.setTextCursor(cursor)
                browser.ensureCursorVisible()
                return browser.cursorRect(cursor).center()
            fragments += 1
        block = block.next()
    raise LookupError(href)


def test_the_viewer_names_its_document_once_and_follows_its_links(qtbot, make_window):
    window = make_window(paused=True)
    window.action_readme.trigger()
    viewer = window.findChild(DocumentViewer)
    qtbot.waitExposed(viewer)
    assert viewer.windowTitle() == "User guide (README.md)"
    assert APPLICATION not in viewer.windowTitle()  # the desktop adds it
    browser = viewer.browser
    point = link_point(browser, "RESEARCH.md")
    QTest.mouseClick(browser.viewport(), Qt.MouseButton.LeftButton, pos=point)
    qtbot.waitUntil(lambda: browser.source().fileName() == "RESEARCH.md", timeout=WAIT_MS)
    assert "Gauss" in browser.toPlainText()
    assert viewer.windowTitle() == "Model notes (RESEARCH.md)"


def test_a_folder_or_web_link_goes_to_the_desktop_and_api_md_opens_here(
    qtbot, make_window, monkeypatch
):
    opened = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url) or True)
    window = make_window(paused=True)
    window.action_readme.trigger()
    viewer = window.findChild(DocumentViewer)
    qtbot.waitExposed(viewer)
    browser = viewer.browser
    QTest.mouseClick(browser.viewport(), LEFT, pos=link_point(browser, "examples"))
    qtbot.waitUntil(lambda: bool(opened), timeout=WAIT_MS)
    assert opened[0].isLocalFile() and opened[0].toLocalFile().endswith("/examples")
    assert browser.source().fileName() == "README.md"  # the guide stays
    QTest.mouseClick(browser.viewport(), LEFT, pos=link_point(browser, "docs/api.md"))
    qtbot.waitUntil(lambda: browser.source().fileName() == "api.md", timeout=WAIT_MS)
    assert browser.toPlainText().strip() and viewer.windowTitle() == "api.md"
