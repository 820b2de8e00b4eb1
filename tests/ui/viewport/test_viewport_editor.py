"""The viewport side of the scene editor, under Xvfb (Mesa llvmpipe): obstacles drawn, the
selection outlined, and the Select and Move-obstacle tools driven by real mouse events."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QImage
from PySide6.QtTest import QTest

from clothlab.sim.core.snapshot import Snapshot, take_snapshot
from clothlab.sim.document.commands import GrabStart
from clothlab.sim.document.composition import change_obstacle
from clothlab.sim.document.requests import Preview
from clothlab.sim.document.scene import BoxSpec, Scene, SphereSpec, build_simulation
from clothlab.ui.intents import Select
from clothlab.ui.selection import BALL, Selection
from clothlab.ui.viewport.viewport import Viewport

pytestmark = pytest.mark.gl

WIDTH, HEIGHT = 320, 240
LEFT = Qt.MouseButton.LeftButton
NO_MODIFIER = Qt.KeyboardModifier.NoModifier
# A sphere first, so the box's scene index (1) differs from its place among the boxes (0).
SPHERE = SphereSpec(center=(1.1, -0.9, 0.8), radius=0.25)
BOX = BoxSpec(center=(0.0, -1.1, 0.0), size=(1.0, 0.6, 1.0))  # its front half before the sheet
SCENE = Scene(obstacles=[SPHERE, BOX])


@pytest.fixture
def viewport(qtbot):
    widget = Viewport()
    failures: list[str] = []
    widget.gl_failed.connect(failures.append)
    qtbot.addWidget(widget)
    widget.resize(WIDTH, HEIGHT)
    widget.show()
    qtbot.waitExposed(widget)
    widget.set_camera(SCENE.camera)
    widget.set_scene(SCENE)
    yield widget
    assert failures == []


@pytest.fixture
def snapshot() -> Snapshot:
    return take_snapshot(build_simulation(SCENE), frame=1)


def render(qtbot, viewport: Viewport, snapshot: Snapshot) -> QImage:
    with qtbot.waitSignal(viewport.frame_drawn, timeout=20_000):
        viewport.show_snapshot(snapshot)
    return viewport.grabFramebuffer()


def pixels(image: QImage) -> np.ndarray:
    """(H, W, 3) float copy of an image, in device pixels."""
    rgb = image.convertToFormat(QImage.Format.Format_RGB888)
    rows = np.frombuffer(rgb.constBits(), np.uint8).reshape(rgb.height(), rgb.bytesPerLine())
    return rows[:, : 3 * rgb.width()].reshape(rgb.height(), rgb.width(), 3).astype(float)


def rgb_at(image: QImage, point: np.ndarray) -> np.ndarray:
    ratio = image.devicePixelRatio()
    color = image.pixelColor(int(point[0] * ratio), int(point[1] * ratio))
    return np.array([color.red(), color.green(), color.blue()], dtype=float)


def is_obstacle(color: np.ndarray) -> bool:  # pale blue, like the ball
    red, _, blue = color
    return blue > 140 and blue > red + 30


def highlight_mask(image: QImage) -> np.ndarray:
    """(H, W) bool: pixels of the outline's bright orange."""
    red, green, blue = np.moveaxis(pixels(image), 2, 0)
    return (red > 220) & (green > 100) & (green < 180) & (blue < 50)


def near(mask: np.ndarray, image: QImage, points: np.ndarray, radius: int = 4) -> float:
    """Fraction of the projected `points` (widget pixels) with a highlight pixel nearby."""
    ratio = image.devicePixelRatio()
    hits = 0
    for x, y in points * ratio:
        x, y = round(x), round(y)
        window = mask[max(y - radius, 0) : y + radius + 1, max(x - radius, 0) : x + radius + 1]
        hits += bool(window.any())
    return hits / len(points)


def point_of(viewport: Viewport, world: tuple[float, float, float] | np.ndarray) -> QPoint:
    x, y = viewport.project(np.asarray(world, dtype=float).reshape(1, 3))[0]
    return QPoint(round(x), round(y))


# --- drawing -----------------------------------------------------------------------------------


def test_a_box_and_an_extra_sphere_are_drawn_solid(qtbot, viewport, snapshot) -> None:
    image = render(qtbot, viewport, snapshot)
    # The box's front face, in front of the sheet; and the sphere's centre.
    front = viewport.project(np.array([[0.0, -1.1, 0.5], SPHERE.center]))
    for point in front:
        assert is_obstacle(rgb_at(image, point)), (point, rgb_at(image, point))
    # Just beyond the box's right side (at its front), and beside the sphere: not obstacle.
    beside = viewport.project(np.array([[0.62, -1.1, 0.5], [1.1 + 0.45, -0.9, 0.8]]))
    for point in beside:
        assert not is_obstacle(rgb_at(image, point)), (point, rgb_at(image, point))
    # Lit, not flat: the box's top face is brighter than its front.
    top = rgb_at(image, viewport.project(np.array([[0.0, -0.8, 0.3]]))[0])
    assert is_obstacle(top) and top.sum() != rgb_at(image, front[0]).sum()


def test_the_box_casts_a_shadow_on_the_floor(qtbot, viewport) -> None:
    # Lifted above the floor, looked down on: its shadow falls away from the key light (−x, −z).
    box = BoxSpec(center=(0.0, -0.6, 1.2), size=(0.6, 0.6, 0.6))
    scene = Scene(obstacles=[box])
    with_box = take_snapshot(build_simulation(scene), frame=1)
    without = take_snapshot(build_simulation(Scene()), frame=2)
    from clothlab.sim.document.scene import CameraSpec

    viewport.set_camera(CameraSpec(target=(0.0, -1.6, 1.0), distance=5.0, pitch=70.0))
    floor_y = scene.floor.y
    key = np.array([0.45, 0.80, 0.55]) / np.linalg.norm([0.45, 0.80, 0.55])
    shadow = np.array(box.center) - key * ((box.center[1] - floor_y) / key[1])
    shadow[1] = floor_y
    where = viewport.project(shadow[None])[0]
    dark = rgb_at(render(qtbot, viewport, with_box), where)
    light = rgb_at(render(qtbot, viewport, without), where)
    assert dark.sum() < light.sum() - 15, (dark, light)


def test_the_selection_outline_shows_and_clears(qtbot, viewport, snapshot) -> None:
    assert not highlight_mask(render(qtbot, viewport, snapshot)).any()

    viewport.set_selection(Selection("obstacle", 1), SCENE)  # the box
    image = render(qtbot, viewport, dataclasses.replace(snapshot, frame=2))
    mask = highlight_mask(image)
    assert mask.sum() > 100
    corners = np.array([[x, y, 0.5] for x in (-0.5, 0.5) for y in (-1.4, -0.8)])
    assert near(mask, image, viewport.project(corners)) == 1.0  # the front corners

    viewport.set_selection(Selection("obstacle", 0))  # the sphere: its rim
    image = render(qtbot, viewport, dataclasses.replace(snapshot, frame=3))
    rim = np.array([[1.1 + 0.25, -0.9, 0.8], [1.1, -0.9 + 0.25, 0.8]])
    assert near(highlight_mask(image), image, viewport.project(rim)) == 1.0

    viewport.set_selection(None)
    assert not highlight_mask(render(qtbot, viewport, dataclasses.replace(snapshot, frame=4))).any()


def test_the_ball_can_be_outlined(qtbot, viewport) -> None:
    sim = build_simulation(SCENE)
    sim.settings = sim.settings.with_value("ball", True).with_value("ball_center", (-1.0, 0, 1))
    viewport.set_selection(Selection("obstacle", BALL))
    image = render(qtbot, viewport, take_snapshot(sim, 1))
    rim = np.array([[-1.0 - 0.5, 0.0, 1.0], [-1.0, 0.5, 1.0]])
    assert near(highlight_mask(image), image, viewport.project(rim)) == 1.0


def test_a_body_outline_follows_the_moving_cloth(qtbot, viewport, snapshot) -> None:
    viewport.set_selection(Selection("body", 0))
    grid = snapshot.topology.sheets[0]
    border = [grid.particle(0, c) for c in range(1, grid.cols - 1, 3)]
    border += [grid.particle(r, 0) for r in range(1, grid.rows - 1, 3)]
    image = render(qtbot, viewport, snapshot)
    mask = highlight_mask(image)
    assert near(mask, image, viewport.project(snapshot.x[border])) == 1.0
    middle = grid.particle(grid.rows // 2, grid.cols // 2)
    assert near(mask, image, viewport.project(snapshot.x[[middle]])) == 0.0  # only the border

    moved = snapshot.x + np.array([0.4, 0.3, 0.0])
    moved.flags.writeable = False
    image = render(qtbot, viewport, dataclasses.replace(snapshot, frame=2, x=moved))
    mask = highlight_mask(image)
    assert near(mask, image, viewport.project(moved[border])) == 1.0


# --- tools -------------------------------------------------------------------------------------


def test_the_move_tool_drags_a_box(qtbot, viewport, snapshot) -> None:
    render(qtbot, viewport, snapshot)
    viewport.interaction.set_tool("ball")
    requests: list[object] = []
    viewport.interaction.command_requested.connect(requests.append)
    start = point_of(viewport, (0.0, -1.1, 0.5))  # the box's front face
    QTest.mousePress(viewport, LEFT, NO_MODIFIER, start)
    for k in range(1, 9):
        QTest.mouseMove(viewport, start + QPoint(6 * k, 0))
    QTest.mouseRelease(viewport, LEFT, NO_MODIFIER, start + QPoint(48, 0))
    # live previews while it is dragged, then one move of obstacle 1 (the box) on release
    moves = [request.command for request in requests if isinstance(request, Preview)]
    finished = [request for request in requests if not isinstance(request, Preview)]
    assert moves and all((m.make, m.args) == (change_obstacle, (1,)) for m in moves)
    assert moves[-1].changes["center"][0] > 0.2  # to the right
    assert len(finished) == 1
    assert (finished[0].make, finished[0].args) == (change_obstacle, (1,))
    np.testing.assert_allclose(viewport.interaction.tools["ball"].start, BOX.center)
    after = finished[0].changes["center"]
    np.testing.assert_allclose(after, moves[-1].changes["center"])
    assert abs(after[1] - BOX.center[1]) < 0.05  # a sideways drag keeps the height
    moved = finished[0].composed(SCENE)
    assert moved.text == "Move box" and moved.scene.obstacles[1].center == after


def test_the_move_tool_on_empty_background_orbits(qtbot, viewport, snapshot) -> None:
    render(qtbot, viewport, snapshot)
    viewport.interaction.set_tool("ball")
    moves: list[object] = []
    viewport.interaction.command_requested.connect(moves.append)
    yaw = viewport.camera_spec().yaw
    QTest.mousePress(viewport, LEFT, NO_MODIFIER, QPoint(8, 8))
    QTest.mouseMove(viewport, QPoint(60, 8))
    QTest.mouseRelease(viewport, LEFT, NO_MODIFIER, QPoint(60, 8))
    assert not moves and viewport.camera_spec().yaw != yaw


def test_select_tool_clicks_select_bodies_obstacles_and_nothing(qtbot, viewport, snapshot) -> None:
    render(qtbot, viewport, snapshot)
    viewport.interaction.set_tool("select")
    chosen: list[object] = []
    viewport.interaction.command_requested.connect(chosen.append)
    camera = viewport.camera_spec()
    QTest.mouseClick(viewport, LEFT, NO_MODIFIER, point_of(viewport, snapshot.x[5 * 15 + 4]))
    QTest.mouseClick(viewport, LEFT, NO_MODIFIER, point_of(viewport, (0.0, -1.1, 0.5)))
    QTest.mouseClick(viewport, LEFT, NO_MODIFIER, point_of(viewport, SPHERE.center))
    QTest.mouseClick(viewport, LEFT, NO_MODIFIER, QPoint(8, 8))
    assert chosen == [
        Select(Selection("body", 0)), Select(Selection("obstacle", 1)),
        Select(Selection("obstacle", 0)), Select(None),
    ]  # fmt: skip
    assert viewport.camera_spec() == camera  # clicks do not nudge the camera

    # A drag is not a click: it orbits and selects nothing.
    QTest.mousePress(viewport, LEFT, NO_MODIFIER, QPoint(100, 100))
    QTest.mouseMove(viewport, QPoint(150, 100))
    QTest.mouseRelease(viewport, LEFT, NO_MODIFIER, QPoint(150, 100))
    assert len(chosen) == 4 and viewport.camera_spec().yaw != camera.yaw


def test_ctrl_click_selects_in_any_tool(qtbot, viewport, snapshot) -> None:
    render(qtbot, viewport, snapshot)
    requests: list[object] = []
    viewport.interaction.command_requested.connect(requests.append)
    ctrl = Qt.KeyboardModifier.ControlModifier
    cloth = point_of(viewport, snapshot.x[5 * 15 + 4])
    for tool in ("grab", "pin", "cut", "ball"):
        viewport.interaction.set_tool(tool)
        QTest.mouseClick(viewport, LEFT, ctrl, cloth)
    viewport.interaction.set_tool("grab")
    QTest.mouseClick(viewport, LEFT, ctrl, point_of(viewport, (0.0, -1.1, 0.5)))
    chosen = [request for request in requests if isinstance(request, Select)]
    assert chosen == [Select(Selection("body", 0))] * 4 + [Select(Selection("obstacle", 1))]
    assert not [r for r in requests if isinstance(r, GrabStart)]  # Ctrl+click does not grab
