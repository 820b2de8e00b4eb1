"""The real viewport under Xvfb (Mesa llvmpipe): draw snapshots and read back pixels."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QImage, QMouseEvent, QWheelEvent

from clothlab.sim import edits
from clothlab.sim.commands import apply_to_simulation
from clothlab.sim.presets import load_preset
from clothlab.sim.scene import CameraSpec, build_simulation
from clothlab.sim.snapshot import Snapshot, take_snapshot
from clothlab.ui import gl as gl_module
from clothlab.ui.viewport import Viewport

pytestmark = pytest.mark.gl

WIDTH, HEIGHT = 320, 240


@pytest.fixture
def viewport(qtbot):
    widget = Viewport()
    failures: list[str] = []
    widget.gl_failed.connect(failures.append)
    qtbot.addWidget(widget)
    widget.resize(WIDTH, HEIGHT)
    widget.show()
    qtbot.waitExposed(widget)
    yield widget
    assert failures == []


@pytest.fixture
def hanging():
    scene = load_preset("hanging-sheet")
    return scene, build_simulation(scene)


def render(qtbot, viewport: Viewport, snapshot: Snapshot) -> QImage:
    with qtbot.waitSignal(viewport.frame_drawn, timeout=20_000) as blocker:
        viewport.show_snapshot(snapshot)
    assert blocker.args == [snapshot.frame]
    return viewport.grabFramebuffer()


def rgb_at(image: QImage, point: np.ndarray) -> np.ndarray:
    """Colour at a logical-pixel position (grabFramebuffer is in device pixels)."""
    ratio = image.devicePixelRatio()
    color = image.pixelColor(int(point[0] * ratio), int(point[1] * ratio))
    return np.array([color.red(), color.green(), color.blue()], dtype=float)


def is_cloth(color: np.ndarray) -> bool:
    red, green, blue = color
    return red > 110 and red > green + 40 and red > blue + 40


def is_ball(color: np.ndarray) -> bool:
    red, _, blue = color
    return blue > 140 and blue > red + 30


def is_backdrop(color: np.ndarray) -> bool:
    return color.max() < 80 and color[2] >= color[0]


def test_cloth_is_drawn_where_the_camera_sees_it(qtbot, viewport, hanging) -> None:
    scene, sim = hanging
    viewport.set_camera(scene.camera)
    snapshot = take_snapshot(sim, 1)
    image = render(qtbot, viewport, snapshot)
    assert image.width() >= WIDTH and image.height() >= HEIGHT

    centre = viewport.project(snapshot.x.mean(axis=0)[None])[0]
    assert 0 < centre[0] < WIDTH and 0 < centre[1] < HEIGHT
    assert is_cloth(rgb_at(image, centre)), rgb_at(image, centre)
    # above the sheet, away from the wires: the backdrop
    assert is_backdrop(rgb_at(image, np.array([6.0, 6.0]))), rgb_at(image, np.array([6.0, 6.0]))
    # the pin markers are drawn at the pins' anchors
    pin = viewport.project(snapshot.pin_anchor[:1])[0]
    red, green, blue = rgb_at(image, pin)
    assert red > 150 and green > 110 and blue < 110, (red, green, blue)


def test_switching_the_ball_on_draws_it(qtbot, viewport, hanging) -> None:
    scene, sim = hanging
    viewport.set_camera(scene.camera)
    center = (0.4, -0.5, 0.7)  # in front of the sheet, so nothing hides it
    sim.settings = sim.settings.with_value("ball_center", center).with_value("ball_radius", 0.3)
    where = viewport.project(np.array([center]))[0]

    image = render(qtbot, viewport, take_snapshot(sim, 1))
    assert not is_ball(rgb_at(image, where))

    sim.settings = sim.settings.with_value("ball", True)
    image = render(qtbot, viewport, take_snapshot(sim, 2))
    assert is_ball(rgb_at(image, where)), rgb_at(image, where)
    # the ball's rim is round: a point just outside its projected radius is not ball-coloured
    outside = viewport.project(np.array([[center[0] + 0.45, center[1], center[2]]]))[0]
    assert not is_ball(rgb_at(image, outside))


def test_cut_faces_vanish(qtbot, viewport, hanging) -> None:
    scene, sim = hanging
    viewport.set_camera(scene.camera)
    sim.settings = sim.settings.with_value("floor", False)  # nothing but backdrop behind
    topology = sim.topology
    grid = topology.sheets[0]
    row, col = 5, 7
    middle = row * (grid.cols - 1) + col
    block = [r * (grid.cols - 1) + c for r in (4, 5, 6) for c in (6, 7, 8)]
    face_centre = sim.state.x[topology.faces[middle]].mean(axis=0)
    where = viewport.project(face_centre[None])[0]

    image = render(qtbot, viewport, take_snapshot(sim, 1))
    assert is_cloth(rgb_at(image, where))

    apply_to_simulation(sim, edits.cut(sim, topology.face_links[block].ravel()))
    snapshot = take_snapshot(sim, 2)
    assert not snapshot.face_alive[block].any()
    image = render(qtbot, viewport, snapshot)
    seen = rgb_at(image, where)
    # The backdrop is a vertical gradient: compare with the same row at the left edge.
    backdrop = rgb_at(image, np.array([2.0, where[1]]))
    assert is_backdrop(backdrop)
    assert np.abs(seen - backdrop).max() <= 12, (seen, backdrop)
    # a face that kept all its links is still drawn
    kept = sim.state.x[topology.faces[0 * (grid.cols - 1) + 1]].mean(axis=0)
    assert is_cloth(rgb_at(image, viewport.project(kept[None])[0]))


def pixels(image: QImage) -> np.ndarray:
    """(H, W, 3) uint8 copy of an image."""
    rgb = image.convertToFormat(QImage.Format.Format_RGB888)
    rows = np.frombuffer(rgb.constBits(), np.uint8).reshape(rgb.height(), rgb.bytesPerLine())
    return rows[:, : 3 * rgb.width()].reshape(rgb.height(), rgb.width(), 3).astype(float)


def cloth_fraction(image: QImage) -> float:
    red, green, blue = np.moveaxis(pixels(image), 2, 0)
    return float(((red > 110) & (red > green + 40) & (red > blue + 40)).mean())


def test_wireframe_and_stretch_modes_draw(qtbot, viewport, hanging) -> None:
    scene, sim = hanging
    viewport.set_camera(scene.camera)
    sim.step(30)
    surface = cloth_fraction(render(qtbot, viewport, take_snapshot(sim, 1)))
    assert surface > 0.2

    viewport.set_stretch_colors(True)  # a resting sheet is barely stretched: cool colours
    snapshot = take_snapshot(sim, 2)
    image = render(qtbot, viewport, snapshot)
    centre = rgb_at(image, viewport.project(snapshot.x.mean(axis=0)[None])[0])
    assert not is_backdrop(centre) and not is_cloth(centre), centre
    assert cloth_fraction(image) < 0.02

    viewport.set_stretch_colors(False)
    viewport.set_wireframe(True)  # lines instead of the filled sheet
    image = render(qtbot, viewport, take_snapshot(sim, 3))
    assert cloth_fraction(image) < 0.02
    bright = (pixels(image).max(axis=2) > 150).mean()
    assert 0.01 < bright < 0.5


def test_camera_api_and_mouse(qtbot, viewport) -> None:
    home = CameraSpec(target=(0.0, -0.1, 0.0), distance=5.0, yaw=10.0, pitch=8.0)
    changes: list[None] = []
    viewport.camera_changed.connect(lambda: changes.append(None))
    viewport.set_camera(home)
    assert viewport.camera_spec() == home

    def mouse(kind, x, y, button, buttons):
        event = QMouseEvent(
            kind, QPointF(x, y), QPointF(x, y), button, buttons, Qt.KeyboardModifier.NoModifier
        )
        {
            QMouseEvent.Type.MouseButtonPress: viewport.mousePressEvent,
            QMouseEvent.Type.MouseMove: viewport.mouseMoveEvent,
            QMouseEvent.Type.MouseButtonRelease: viewport.mouseReleaseEvent,
        }[kind](event)

    right, none = Qt.MouseButton.RightButton, Qt.MouseButton.NoButton
    mouse(QMouseEvent.Type.MouseButtonPress, 100, 100, right, right)
    mouse(QMouseEvent.Type.MouseMove, 140, 110, none, right)
    mouse(QMouseEvent.Type.MouseButtonRelease, 140, 110, right, none)
    assert viewport.camera_spec().yaw < home.yaw  # dragging right swings the scene right
    assert viewport.camera_spec().pitch > home.pitch

    middle = Qt.MouseButton.MiddleButton
    target_before = np.array(viewport.camera_spec().target)
    mouse(QMouseEvent.Type.MouseButtonPress, 100, 100, middle, middle)
    mouse(QMouseEvent.Type.MouseMove, 80, 100, none, middle)
    mouse(QMouseEvent.Type.MouseButtonRelease, 80, 100, middle, none)
    assert np.linalg.norm(np.array(viewport.camera_spec().target) - target_before) > 0.01

    wheel = QWheelEvent(
        QPointF(50, 50), QPointF(50, 50), QPoint(0, 0), QPoint(0, 240), none,
        Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False,
    )  # fmt: skip
    viewport.wheelEvent(wheel)
    assert viewport.camera_spec().distance < home.distance
    assert len(changes) >= 4

    viewport.reset_camera()
    assert viewport.camera_spec() == home
    # project() follows the current camera, in widget pixels
    np.testing.assert_allclose(
        viewport.project(np.array([home.target])), [[WIDTH / 2, HEIGHT / 2]], atol=1e-6
    )


def test_topology_change_rebuilds_buffers(qtbot, viewport) -> None:
    for frame, name in enumerate(["soft-block", "curtain", "hanging-sheet"]):
        scene = load_preset(name)
        sim = build_simulation(scene)
        viewport.set_camera(scene.camera)
        snapshot = take_snapshot(sim, frame)
        image = render(qtbot, viewport, snapshot)
        centre = viewport.project(snapshot.x.mean(axis=0)[None])[0]
        assert not is_backdrop(rgb_at(image, centre)), name


def test_shader_failure_is_reported_not_raised(qtbot, monkeypatch, tmp_path) -> None:
    monkeypatch.setattr(gl_module, "SHADER_DIR", tmp_path)  # no shaders there
    widget = Viewport()
    qtbot.addWidget(widget)
    with qtbot.waitSignal(widget.gl_failed, timeout=20_000) as blocker:
        widget.resize(WIDTH, HEIGHT)
        widget.show()
    assert "shader" in blocker.args[0]
    assert "\n" not in blocker.args[0]
    assert not widget.is_gl_ok()
    scene = load_preset("hanging-sheet")
    widget.show_snapshot(take_snapshot(build_simulation(scene), 1))
    widget.grabFramebuffer()  # draws nothing, raises nothing
