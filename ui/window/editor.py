"""The scene editor: what the Add and Edit menus ask of the scene's composition, turned into
sim.document.composition changes for the controller.

The window makes one SceneEditor and hands it a WindowContext (ui.context); it keeps the
composition's actions enabled as the selection allows. Every change is one Compose request
(sim.document.requests) submitted through the context (one undo step); a change the
composition refuses (SceneError: a one-line reason) is said in the status bar and changes
nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
from PySide6.QtCore import QObject

from clothlab.sim.document import composition
from clothlab.sim.document.commands import EditRulers
from clothlab.sim.document.composition import Composed
from clothlab.sim.document.requests import Compose
from clothlab.sim.document.scene import (
    BlockSpec,
    BodyShape,
    BoxSpec,
    DiscSpec,
    Scene,
    SheetSpec,
    SphereSpec,
    as_point,
    build_topology,
    obstacle_shapes,
    scene_settings,
)
from clothlab.sim.text import tr
from clothlab.ui.number_box import Limits
from clothlab.ui.selection import BALL, Selection
from clothlab.ui.viewport.viewport import scene_points
from clothlab.ui.window import dialogs

if TYPE_CHECKING:
    from clothlab.ui.context import WindowContext

MESSAGE_MS = 8000  # how long a note or a refusal stays in the status bar
GAP = 0.4  # units between a new body and the rightmost one
NEW_SHEET = SheetSpec(cols=15, rows=11, width=2.8, height=2.0)
NEW_BLOCK = BlockSpec(cubes=4, size=0.8)
NEW_DISC = DiscSpec(diameter=1.6, cols=31)
# A new disc is held over the middle of its diameter, as the drape meter holds 18 cm of 30.
NEW_DISC_HELD = 0.6
NEW_SPHERE_RADIUS = 0.4
NEW_BOX_SIZE = (0.8, 0.6, 0.8)
# A new obstacle rests on the floor, below the cloth the camera looks at, unless the floor is
# further than this below the camera's target (then it would be out of view).
BELOW_TARGET = 1.5
CLEARANCE = 0.1  # units between a new obstacle and the cloth's rest place
# The Pin menu's rows (ui.window.actions) by the pin set they pin; "Pin every n-th" asks n first.
PIN_ACTIONS = {"pin_top_edge": "top edge", "pin_top_corners": "top corners",
               "pin_left_edge": "left edge",
               "pin_top_corner_clamps": "top corner clamps"}  # fmt: skip
BODY_ACTIONS = ("duplicate_body", "unpin_all")
SHEET_ACTIONS = (*PIN_ACTIONS, "pin_every_nth")
Vec3 = tuple[float, float, float]


def right_edge(body: BodyShape) -> float:
    """The largest x a body's rest shape reaches (a turned sheet: within half its width)."""
    if isinstance(body, SheetSpec):
        return body.top_center[0] + body.width / 2
    if isinstance(body, DiscSpec):
        return body.center[0] + body.diameter / 2
    return body.min_corner[0] + body.size


def new_sheet(scene: Scene) -> SheetSpec:
    """A sheet hanging to the right of the bodies, its top as high as the first sheet's."""
    sheets = [b for b in scene.bodies if isinstance(b, SheetSpec)]
    top = sheets[0].top_center[1] if sheets else NEW_SHEET.top_center[1]
    x = max((right_edge(b) for b in scene.bodies), default=-GAP - NEW_SHEET.width / 2)
    return NEW_SHEET.replaced(top_center=(x + GAP + NEW_SHEET.width / 2, top, 0.0))


def new_block(scene: Scene) -> BlockSpec:
    """A block to the right of the bodies, a little above the floor."""
    x = max((right_edge(b) for b in scene.bodies), default=-GAP - NEW_BLOCK.size / 2)
    floor = scene_settings(scene).floor_y
    y = max(NEW_BLOCK.min_corner[1], floor + 0.2)
    return NEW_BLOCK.replaced(min_corner=(x + GAP, y, -NEW_BLOCK.size / 2))


def new_disc(scene: Scene) -> DiscSpec:
    """A disc lying flat to the right of the bodies, as high as the first sheet's top."""
    sheets = [b for b in scene.bodies if isinstance(b, SheetSpec)]
    y = sheets[0].top_center[1] if sheets else NEW_DISC.center[1]
    radius = NEW_DISC.diameter / 2
    x = max((right_edge(b) for b in scene.bodies), default=-GAP - radius)
    return NEW_DISC.replaced(center=(x + GAP + radius, y, 0.0))


def obstacle_center(target: Vec3, half: Vec3, floor: float, bodies: np.ndarray) -> Vec3:
    """Where a new obstacle (half its size along x, y, z) goes: under the camera's target, its
    bottom above the floor, and moved forward (+z, towards the default camera) out of the
    bodies' rest box (`bodies`: (N, 3) float64 rest positions) if it would start in cloth."""
    y = max(target[1] - BELOW_TARGET, floor + half[1] + 0.05)
    center = np.array([target[0], y, target[2]], dtype=np.float64)
    if len(bodies):
        low, high = bodies.min(axis=0) - CLEARANCE, bodies.max(axis=0) + CLEARANCE
        if np.all(center + half > low) and np.all(center - half < high):
            center[2] = high[2] + half[2]
    return (float(center[0]), float(center[1]), float(center[2]))


class SceneEditor(QObject):
    """Does what the composition's actions ask (their rows in ui.window.actions call these
    methods) and keeps the actions following the selection (one per window)."""

    def __init__(self, context: WindowContext) -> None:
        super().__init__(context.parent)
        self.context = context
        self.controller = context.controller
        self.actions = context.actions
        self.selection = context.selection
        self._connect()
        self._enable_actions()

    # --- wiring ----------------------------------------------------------------------------

    def _connect(self) -> None:
        c = self.controller
        for signal, slot in (
            (c.scene_loaded, self._scene_changed), (c.scene_edited, self._scene_changed),
            (c.message, self.say), (self.selection.changed, self._enable_actions),
        ):  # fmt: skip
            signal.connect(slot)

    # --- showing ---------------------------------------------------------------------------

    def say(self, text: str) -> None:
        """One line in the status bar: a note on an edit, or why one was refused."""
        self.context.say(text, MESSAGE_MS)

    def _scene_changed(self, scene: Scene, *_: object) -> None:
        self.context.viewport.set_scene(scene)  # picks and outlines obstacles by scene index
        self.selection.keep_valid(scene)
        self._enable_actions()

    def _enable_actions(self, *_: object) -> None:
        scene, body = self.controller.scene, self.selection.body
        chosen = body is not None and body < len(scene.bodies)
        sheet = body is not None and chosen and isinstance(scene.bodies[body], SheetSpec)
        for name in BODY_ACTIONS:
            self.actions[name].setEnabled(chosen)
        for name in SHEET_ACTIONS:
            self.actions[name].setEnabled(sheet)
        current = self.selection.current
        removable = current is not None and current.index != BALL
        self.actions["remove_selected"].setEnabled(removable)
        self.actions["remove_rulers"].setEnabled(bool(scene.rulers))

    # --- composing -------------------------------------------------------------------------

    def compose(self, make: Callable[..., Composed], *args: Any, **changes: Any) -> bool:
        """Ask for make(scene, *args, **changes) as one edit; False (and a status line) if the
        composition or the controller refuses it."""
        return self.context.submit(Compose(make, args, changes))

    def add_sheet(self) -> None:
        """A new sheet, hanging from its two top corners like the default scene's: adding and
        pinning it are one edit, named by the add."""

        def add_pinned(scene: Scene) -> Composed:
            added = composition.add_body(scene, new_sheet(scene))
            index = len(added.scene.bodies) - 1
            pinned = composition.pin_set(added.scene, index, "top corners")
            return Composed(pinned.scene, added.text, added.message)

        if self.compose(add_pinned):
            self._select_new_body()

    def add_block(self) -> None:
        if self.compose(lambda scene: composition.add_body(scene, new_block(scene))):
            self._select_new_body()

    def add_disc(self) -> None:
        """A new disc lying flat, its middle pinned: adding and pinning are one edit."""

        def add_held(scene: Scene) -> Composed:
            disc = new_disc(scene)
            added = composition.add_body(scene, disc)
            index = len(added.scene.bodies) - 1
            held = NEW_DISC_HELD * disc.diameter / 2
            pinned = composition.pin_disc_middle(added.scene, index, held)
            return Composed(pinned.scene, added.text, added.message)

        if self.compose(add_held):
            self._select_new_body()

    def _select_new_body(self) -> None:
        """Select the body just added and turn the camera on the whole scene, new body and
        all: it is placed beside the others, maybe out of view."""
        scene = self.controller.scene
        self.selection.select(Selection("body", len(scene.bodies) - 1))
        spheres, boxes = obstacle_shapes(scene.obstacles)
        ball = [(scene.ball.center, scene.ball.radius)] if scene.ball.enabled else []
        rest = build_topology(scene).rest_positions
        self.context.viewport.frame(scene_points(rest, [*ball, *spheres], boxes))

    def add_sphere(self) -> None:
        r = NEW_SPHERE_RADIUS
        self._add_obstacle(lambda at: SphereSpec(center=at((r, r, r)), radius=r))

    def add_box(self) -> None:
        half = as_point(0.5 * v for v in NEW_BOX_SIZE)
        self._add_obstacle(lambda at: BoxSpec(center=at(half), size=NEW_BOX_SIZE))

    def _add_obstacle(self, make: Callable[[Callable[[Vec3], Vec3]], Any]) -> None:
        scene = self.controller.scene
        target = self.context.viewport.camera_spec().target
        floor, rest = self.controller.settings.floor_y, build_topology(scene).rest_positions
        obstacle = make(lambda half: obstacle_center(target, half, floor, rest))
        if self.compose(composition.add_obstacle, obstacle):
            self.selection.select(Selection("obstacle", len(self.controller.scene.obstacles) - 1))

    def duplicate_body(self) -> None:
        body = self.selection.body
        if body is not None and self.compose(composition.duplicate_body, body):
            self._select_new_body()

    def remove_selected(self) -> None:
        current = self.selection.current
        if current is None or current.index == BALL:
            return
        remove = composition.remove_body if current.kind == "body" else composition.remove_obstacle
        if self.compose(remove, current.index):
            self.selection.select(None)

    def remove_rulers(self) -> None:
        """Every ruler off at once (one undo step); one at a time: a click on its label."""
        rulers = tuple(self.controller.scene.rulers)
        if rulers:
            self.context.submit(EditRulers((), rulers))

    def pin(self, which: str, every: int = 2) -> None:
        """Pin a set of the selected sheet's particles at their rest places: the set-up's, so
        that Reset starts the sheet unstretched wherever the run has it now."""
        body = self.selection.body
        if body is not None:
            self.compose(composition.pin_set, body, which, every)

    def pin_every_nth(self) -> None:
        if self.selection.body is None:
            return
        low, high = composition.PIN_EVERY
        n = dialogs.ask_number(
            self.context.parent, tr("Pin every n-th of top edge"),
            tr("Pin every n-th particle, n:"),
            Limits("n", low, high, integer=True), 2,
        )  # fmt: skip
        if n is not None:
            self.pin("every nth of top edge", int(n))

    def unpin_all(self) -> None:
        body = self.selection.body
        if body is not None:
            self.compose(composition.unpin_all, body)
