"""Saved pictures of the window (File ▸ Save screenshot, `--screenshot`) show what the screen
shows: the 3D view's region of the saved image equals the viewport's own framebuffer."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QImage
from PySide6.QtTest import QTest
from qt_helpers import WAIT_MS

from tests.ui.viewport.test_viewport_gl import pixels

pytestmark = pytest.mark.gl


def shown_and_saved(window, image: QImage | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(framebuffer, the same region of the window image), both (H, W, 3) float."""
    viewport = window.viewport
    framebuffer = pixels(viewport.grabFramebuffer())
    image = window.window_image() if image is None else image
    ratio = window.devicePixelRatioF()
    corner = viewport.mapTo(window, QPoint(0, 0))
    x, y = round(corner.x() * ratio), round(corner.y() * ratio)
    height, width = framebuffer.shape[:2]
    region = pixels(image.copy(x, y, width, height))
    return framebuffer, region


def drawn(qtbot, window) -> None:
    """Wait until the viewport has drawn a frame of the loaded scene."""
    qtbot.waitUntil(lambda: window.controller.latest is not None, timeout=WAIT_MS)
    with qtbot.waitSignal(window.viewport.frame_drawn, timeout=WAIT_MS):
        window.viewport.show_snapshot(window.controller.latest)


def test_saved_image_shows_the_shadow_as_the_screen_does(qtbot, make_window, tmp_path):
    window = make_window("drop", paused=True)  # the ball's and the sheet's shadows on the floor
    drawn(qtbot, window)
    shown, saved = shown_and_saved(window)
    difference = np.abs(shown - saved).max(axis=2)
    assert difference.max() <= 8, f"{(difference > 8).mean():.2%} of the view differs"
    # and so does the file File ▸ Save screenshot and --screenshot write
    path = tmp_path / "shot.png"
    window.save_screenshot(path)
    shown, saved = shown_and_saved(window, QImage(str(path)))
    assert np.abs(shown - saved).max() <= 8


def test_saved_image_shows_the_cut_stroke_being_drawn(qtbot, make_window):
    window = make_window(paused=True)
    drawn(qtbot, window)
    viewport = window.viewport
    window.tool_actions["cut"].trigger()
    start = QPoint(viewport.width() // 4, viewport.height() // 3)
    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    for step in range(1, 13):
        QTest.mouseMove(viewport, start + QPoint(step * viewport.width() // 24, step * 4))
    assert len(viewport.interaction.tools["cut"].stroke) > 2
    shown, saved = shown_and_saved(window)
    difference = np.abs(shown - saved).max(axis=2)
    assert difference.max() <= 8, f"{(difference > 8).mean():.2%} of the view differs"
    red, green, blue = np.moveaxis(saved, 2, 0)
    stroke = (red > 200) & (green > 170) & (blue < 120)  # the yellow blade of the stroke
    assert stroke.sum() > 50
    viewport.interaction.cancel()
