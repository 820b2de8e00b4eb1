"""Composing a scene: bodies, obstacles and pin sets added, changed and removed.

Each function takes the document and returns a `Composed`: the new scene (validated) with the
one-line text its undo entry shows and, if something could not be carried over, a message
saying what was dropped. Pins and cuts are stored by particle and link index, so a body that
changes its particle count shifts the indices of every body after it; this module is the one
place that remaps them:

* a body moved, turned or resized without a new resolution keeps its pins (each anchor keeps
  its offset from its particle's rest position) and its cuts;
* a new resolution carries pins over by position on the body (the nearest particle of the
  new grid) and drops the body's cuts, with a message;
* a removed body takes its pins and cuts with it;
* rulers follow the particles they end on as pins do; a ruler on a removed body goes with it.

Pins of the set-up anchor rest places: a pin set is pinned where the body was set up, never
where a run has moved it, so step 0 starts unstretched (`pins_away_from_rest` counts the pins
moved on purpose). What a run tore is not part of the composition; a saved state's tears are
dropped by any change of bodies, which starts the model afresh with other links.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeAlias

import numpy as np
from pydantic import BaseModel, ValidationError

from clothlab.sim.core.fabrics import fabric_label
from clothlab.sim.core.topology import TopologyBuilder, disc_parts
from clothlab.sim.document.commands import EDITABLE_PARTS, EditScene
from clothlab.sim.document.scene import (
    MAX_BODIES,
    MAX_NAME,
    MAX_OBSTACLES,
    BodyShape,
    BoxSpec,
    DiscSpec,
    PinSpec,
    RulerEnd,
    RulerSpec,
    Scene,
    SceneError,
    SheetSpec,
    SphereSpec,
    Vec3,
    bodies_restructure,
    body_size,
    build_body,
    build_topology,
    field_range,
    validation_message,
)
from clothlab.sim.text import QT_TR_NOOP, tr

Body: TypeAlias = BodyShape
Obstacle: TypeAlias = SphereSpec | BoxSpec
DUPLICATE_OFFSET = 0.4  # units along +x between a body and its duplicate, beyond its width
# Units between an anchor and its particle's rest place below which the pin is at rest: far
# above float rounding (a file's 0.9 against a computed 1.0 − 0.1), far below any drag.
AT_REST = 1e-6


@dataclass(frozen=True)
class Composed:
    scene: Scene
    text: str  # what the undo entry says: "Add sheet 30 × 20"
    message: str = ""  # what could not be carried over, if anything


def edit_of(before: Scene, composed: Composed) -> EditScene:
    """The undoable edit that turns `before` into `composed.scene`, made while the model runs:
    the run's pins follow the document's as EditScene.live says (new ones hold their particles
    where they lie)."""
    after = composed.scene
    changed = [k for k in EDITABLE_PARTS if getattr(before, k) != getattr(after, k)]
    restart = restructures(before, after)
    return EditScene(
        {k: getattr(after, k) for k in changed},
        {k: getattr(before, k) for k in changed},
        composed.text,
        restart,
        live="pins" in changed and not restart,
    )


# --- bodies ------------------------------------------------------------------------------------


def add_body(scene: Scene, body: Body) -> Composed:
    if len(scene.bodies) >= MAX_BODIES:
        raise SceneError(tr("a scene holds at most {count} bodies").format(count=MAX_BODIES))
    text = tr("Add {what}").format(what=_noun(body))
    return Composed(_with(scene, bodies=[*scene.bodies, body]), text)


def remove_body(scene: Scene, index: int) -> Composed:
    body = _body(scene, index)
    bodies = [b for k, b in enumerate(scene.bodies) if k != index]
    pins, cuts, _ = _remap(scene, index, None)
    rulers, probes = _remap_rulers(scene, index, None), _remap_probes(scene, index, None)
    new = _with(scene, bodies=bodies, pins=pins, cuts=cuts, rulers=rulers, probes=probes)
    return Composed(new, tr("Remove {what}").format(what=_noun(body)))


def duplicate_body(scene: Scene, index: int) -> Composed:
    """A copy beside the original (to its right), with the original's pins and material."""
    body = _body(scene, index)
    width = body_width(body)
    copy = body.moved((width + DUPLICATE_OFFSET, 0.0, 0.0))
    if body.name:
        copy = copy.replaced(name=f"{body.name} copy"[:MAX_NAME])
    added = add_body(scene, copy).scene
    first_old = _first_particle(scene, index)
    first_new = _first_particle(added, len(added.bodies) - 1)
    offset = np.array((width + DUPLICATE_OFFSET, 0.0, 0.0))
    count = body_size(body)[0]
    copies = [
        PinSpec(particle=p.particle - first_old + first_new, anchor=_vec(p.anchor + offset))
        for p in scene.pins
        if first_old <= p.particle < first_old + count
    ]
    text = tr("Duplicate {what}").format(what=_noun(body))
    return Composed(_with(added, pins=[*added.pins, *copies]), text)


def change_body(scene: Scene, index: int, text: str = "", **changes: Any) -> Composed:
    """The body with fields changed (name, size, resolution, position, material…); pins and
    cuts follow it as the module says. `text` overrides the undo text."""
    old = _body(scene, index)
    new = old.replaced(**changes)
    if new == old:
        return Composed(scene, "")
    pins, cuts, dropped = _remap(scene, index, new)
    bodies = list(scene.bodies)
    bodies[index] = new
    message = ""
    if dropped > 0:
        message = tr("{body}: %n cut link(s) dropped, its resolution changed", "", dropped)
        message = message.format(body=old.label)
    rulers, probes = _remap_rulers(scene, index, new), _remap_probes(scene, index, new)
    new_scene = _with(scene, bodies=bodies, pins=pins, cuts=cuts, rulers=rulers, probes=probes)
    if body_size(new)[0] > body_size(old)[0]:  # refined: a point pin's sag grows with it
        message = "; ".join(m for m in (message, point_pin_note(new_scene, index)) if m)
    return Composed(new_scene, text or _change_text(old, new), message)


def body_width(body: Body) -> float:
    """How far a body reaches along x at rest, unturned: a sheet's width, a disc's diameter."""
    if isinstance(body, SheetSpec):
        return body.width
    if isinstance(body, DiscSpec):
        return body.diameter
    return body.size


def first_sheet(scene: Scene) -> int:
    """Index of the scene's first sheet; SceneError if it has none."""
    for k, body in enumerate(scene.bodies):
        if isinstance(body, SheetSpec):
            return k
    raise SceneError(tr("{scene}: the scene has no sheet").format(scene=scene.name))


def resize_sheet_keeping_rule(sheet: SheetSpec, width: float, height: float) -> dict[str, Any]:
    """The changes a new width and height make: the resolution stays, unless the sheet's
    spacing is locked, in which case the resolution follows the size."""
    if not sheet.lock_spacing:
        return {"width": width, "height": height}
    cols = max(2, round(width / sheet.spacing_x) + 1)
    rows = max(2, round(height / sheet.spacing_y) + 1)
    return {"width": width, "height": height, "cols": cols, "rows": rows}


def _change_text(old: Body, new: Body) -> str:
    changed = {k for k in type(old).model_fields if getattr(old, k) != getattr(new, k)}
    noun = _kind(old.kind)
    if changed <= {"name"}:
        if new.name:
            return tr("Rename {what} to {name}").format(what=noun, name=repr(new.name))
        return tr("Rename {what}").format(what=noun)
    if changed & {"cols", "rows", "cubes"}:
        return tr("Set resolution of {what}").format(what=_noun(new))
    if changed & {"width", "height", "size", "diameter"}:
        return tr("Resize {what}").format(what=noun)
    if changed <= {"top_center", "min_corner", "center"}:
        return tr("Move {what}").format(what=noun)
    if changed <= {"yaw"}:
        return tr("Turn {what}").format(what=noun)
    if "si_material" in changed and changed <= {"si_material", "material", "stiffness"}:
        fabric = new.si_material.name if new.si_material is not None else None
        material = _material(fabric or new.material)
        return tr("Set {what} to {material}").format(what=noun, material=material)
    if changed <= {"material", "stiffness"}:
        if changed == {"stiffness"}:
            return tr("Set stiffness of {what}").format(what=noun)
        return tr("Set {what} to {material}").format(what=noun, material=_material(new.material))
    if changed <= {"horizontal"}:
        if getattr(new, "horizontal", False):
            return tr("Lay {what} flat").format(what=noun)
        return tr("Hang {what}").format(what=noun)
    return tr("Change {what}").format(what=noun)


def _material(name: str | None) -> str:
    """A body's material as an undo entry names it: a fabric's name, or the world's."""
    if not name:
        return tr("world settings")
    return fabric_label(name)


# The kinds of bodies and obstacles as undo entries name them ("Move sheet")
_KINDS: Final = {
    "sheet": QT_TR_NOOP("sheet"),
    "block": QT_TR_NOOP("block"),
    "disc": QT_TR_NOOP("disc"),
    "sphere": QT_TR_NOOP("sphere"),
    "box": QT_TR_NOOP("box"),
}


def _kind(kind: str) -> str:
    return tr(_KINDS[kind]) if kind in _KINDS else kind


def restructures(before: Scene, after: Scene) -> bool:
    """Whether the change moves particles or changes their number, so that the model must
    start afresh: any body changed in more than its appearance."""
    return bodies_restructure(before.bodies, after.bodies)


# --- obstacles ---------------------------------------------------------------------------------


def add_obstacle(scene: Scene, obstacle: Obstacle) -> Composed:
    if len(scene.obstacles) >= MAX_OBSTACLES:
        raise SceneError(
            tr("a scene holds at most {count} obstacles besides the ball").format(
                count=MAX_OBSTACLES
            )
        )
    text = tr("Add {what}").format(what=_kind(obstacle.kind))
    return Composed(_with(scene, obstacles=[*scene.obstacles, obstacle]), text)


def remove_obstacle(scene: Scene, index: int) -> Composed:
    obstacle = _obstacle(scene, index)
    kept = [o for k, o in enumerate(scene.obstacles) if k != index]
    text = tr("Remove {what}").format(what=_kind(obstacle.kind))
    return Composed(_with(scene, obstacles=kept), text)


def change_obstacle(scene: Scene, index: int, **changes: Any) -> Composed:
    old = _obstacle(scene, index)
    new = old.replaced(**changes)
    if new == old:
        return Composed(scene, "")
    obstacles = list(scene.obstacles)
    obstacles[index] = new
    if set(changes) <= {"center"}:
        text = tr("Move {what}")
    elif set(changes) <= {"name"}:
        text = tr("Rename {what}")
    else:
        text = tr("Resize {what}")
    return Composed(_with(scene, obstacles=obstacles), text.format(what=_kind(old.kind)))


# --- pins --------------------------------------------------------------------------------------

# "Pin every n-th of top edge": n from 1 (every particle) to the most columns a sheet has.
PIN_EVERY: Final = (1, int(field_range(SheetSpec, "cols")[1]))
# A corner clamp holds the sheet within this share of its width of the corner: a size of the
# cloth, not a count of particles, so that it holds the same cloth at any resolution.
CLAMP_SHARE: Final = 0.1
POINT_PIN_LIMIT: Final = QT_TR_NOOP(
    "{body}: point pins on an SI fabric are a known limit: the sag under a point grows as the "
    "sheet is refined. Edit ▸ Pin selected sheet ▸ Pin top corner clamps holds it alike at any "
    "resolution."
)


def near_any(rest: np.ndarray, points: Sequence[int], radius: float) -> np.ndarray:
    """The indices of the particles within `radius` of one of `points` (indices into `rest`,
    (N, 3) float64) where they lie at rest, as a clamp of that size holds cloth."""
    distance = np.linalg.norm(rest[:, None, :] - rest[list(points)][None, :, :], axis=2)
    return np.flatnonzero(distance.min(axis=1) <= radius)


def point_pinned(scene: Scene, index: int) -> bool:
    """Whether body `index` is a sheet of an SI fabric held by a point: a pinned particle none
    of whose grid neighbours is pinned. Its load is a singularity of the continuum, so the sag
    under it grows as the sheet is refined (RESEARCH.md §8, "Refining")."""
    sheet = scene.bodies[index]
    if not isinstance(sheet, SheetSpec) or sheet.si_material is None:
        return False
    first, cols, rows = _first_particle(scene, index), sheet.cols, sheet.rows
    pinned = {p.particle - first for p in scene.pins if 0 <= p.particle - first < cols * rows}
    for k in pinned:
        row, col = divmod(k, cols)
        neighbours = [(row + dr, col + dc) for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))]
        inside = [r * cols + c for r, c in neighbours if 0 <= r < rows and 0 <= c < cols]
        if not any(n in pinned for n in inside):
            return True
    return False


def point_pin_note(scene: Scene, index: int) -> str:
    """POINT_PIN_LIMIT for body `index` if it is point-pinned, else ""."""
    if not point_pinned(scene, index):
        return ""
    return tr(POINT_PIN_LIMIT).format(body=scene.bodies[index].label)


def pin_set(scene: Scene, index: int, which: str, every: int = 2) -> Composed:
    """Pin a set of a sheet's particles at their rest places (the set-up, wherever a run has
    them now): "top edge", "top corners", "left edge", "every nth of top edge" (columns 0, n,
    2n, …) or "top corner clamps" (every particle within CLAMP_SHARE of the width of a top
    corner). Particles already pinned keep their anchor. Point pins on an SI fabric come with
    a message: they are a known limit (point_pinned)."""
    sheet = _body(scene, index)
    if not isinstance(sheet, SheetSpec):
        raise SceneError(tr("{body}: only a sheet has edges to pin").format(body=sheet.label))
    low, high = PIN_EVERY
    if not low <= every <= high:
        raise SceneError(
            tr("every {every}: expected a count within {low}…{high}").format(
                every=every, low=low, high=high
            )
        )
    cols, rows = sheet.cols, sheet.rows
    rest = _rest(sheet)
    local = {
        "top edge": range(cols),
        "top corners": (0, cols - 1),
        "left edge": range(0, cols * rows, cols),
        "every nth of top edge": range(0, cols, every),
        "top corner clamps": near_any(rest, (0, cols - 1), CLAMP_SHARE * sheet.width).tolist(),
    }[which]
    first = _first_particle(scene, index)
    pinned = {p.particle for p in scene.pins}
    new = [
        PinSpec(particle=first + k, anchor=_vec(rest[k])) for k in local if first + k not in pinned
    ]
    n = len(new)
    text = {
        "top edge": tr("Pin top edge (%n pin(s))", "", n),
        "top corners": tr("Pin top corners (%n pin(s))", "", n),
        "left edge": tr("Pin left edge (%n pin(s))", "", n),
        "every nth of top edge": tr("Pin every {ordinal} of top edge (%n pin(s))", "", n),
        "top corner clamps": tr("Pin top corner clamps (%n pin(s))", "", n),
    }[which].format(ordinal=_ordinal(every))
    pins = sorted([*scene.pins, *new], key=lambda p: p.particle)
    pinned_scene = _with(scene, pins=pins)
    return Composed(pinned_scene, text, point_pin_note(pinned_scene, index))


def pin_disc_middle(scene: Scene, index: int, radius: float) -> Composed:
    """Pin every particle of a disc within `radius` of its centre at its rest place, as a drape
    meter's clamping discs hold the middle of a specimen flat. Particles already pinned keep
    their anchor."""
    disc = _body(scene, index)
    if not isinstance(disc, DiscSpec):
        raise SceneError(tr("{body}: only a disc has a middle to pin").format(body=disc.label))
    first, rest = _first_particle(scene, index), _rest(disc)
    offset = rest[:, [0, 2]] - np.array([disc.center[0], disc.center[2]])
    # a particle exactly on the circle is in: r ≤ radius as the drape meter's support says
    held = np.flatnonzero(np.hypot(offset[:, 0], offset[:, 1]) <= radius * (1.0 + 1e-12))
    pinned = {p.particle for p in scene.pins}
    new = [
        PinSpec(particle=first + int(k), anchor=_vec(rest[k]))
        for k in held
        if first + k not in pinned
    ]
    pins = sorted([*scene.pins, *new], key=lambda p: p.particle)
    text = tr("Pin middle of disc (%n pin(s))", "", len(new))
    return Composed(_with(scene, pins=pins), text)


def pins_away_from_rest(scene: Scene, tolerance: float = AT_REST) -> int:
    """How many pins anchor their particle away from its rest place: pins moved on purpose (a
    drag, Move pin, `pin_shift`), from which step 0 starts stretched."""
    if not scene.pins:
        return 0
    rest = build_topology(scene).rest_positions
    particles = np.array([p.particle for p in scene.pins], dtype=np.int64)
    anchors = np.array([p.anchor for p in scene.pins], dtype=np.float64)
    return int(np.count_nonzero(np.linalg.norm(anchors - rest[particles], axis=1) > tolerance))


def held_at_points(scene: Scene, index: int) -> bool:
    """Whether sheet `index` hangs from a point pin: a pinned particle none of whose four grid
    neighbours is pinned, next to which a real fabric's links stretch most. A clamp (whole rows:
    the cantilever, the hanging strip) holds no point, nor does any body but a sheet (the drape
    meter's disc is held over a region)."""
    body = scene.bodies[index]
    if not isinstance(body, SheetSpec):
        return False
    first, cols, count = _first_particle(scene, index), body.cols, body.cols * body.rows
    pinned = {p.particle - first for p in scene.pins if first <= p.particle < first + count}

    def alone(local: int) -> bool:
        col = local % cols
        neighbours = [local - cols, local + cols]
        neighbours += [local - 1] if col > 0 else []
        neighbours += [local + 1] if col < cols - 1 else []
        return not pinned.intersection(neighbours)

    return any(alone(local) for local in pinned)


def shift_right_pins(scene: Scene, shift: float) -> Scene:
    """The scene with the anchors of the first sheet's right-hand column pins moved `shift`
    units left of their rest position (the seed's "shifted pins", `--set pin_shift`)."""
    index = first_sheet(scene)
    sheet, first = scene.bodies[index], _first_particle(scene, index)
    assert isinstance(sheet, SheetSpec)  # first_sheet's
    rest = _rest(sheet)
    pins = []
    for pin in scene.pins:
        local = pin.particle - first
        if 0 <= local < sheet.cols * sheet.rows and local % sheet.cols == sheet.cols - 1:
            x = float(rest[local, 0]) - shift
            pin = PinSpec(particle=pin.particle, anchor=(x, pin.anchor[1], pin.anchor[2]))
        pins.append(pin)
    return scene.model_copy(update={"pins": pins})


def unpin_all(scene: Scene, index: int) -> Composed:
    first = _first_particle(scene, index)
    count = body_size(_body(scene, index))[0]
    kept = [p for p in scene.pins if not first <= p.particle < first + count]
    removed = len(scene.pins) - len(kept)
    return Composed(_with(scene, pins=kept), tr("Unpin all (%n pin(s))", "", removed))


# --- helpers -----------------------------------------------------------------------------------


def _with(scene: Scene, **update: Any) -> Scene:
    """The scene with fields replaced, validated as a whole (indices in range, caps)."""
    data = scene.model_dump()
    if "bodies" in update and bodies_restructure(scene.bodies, update["bodies"]):
        data["tears"] = []  # a new model: the torn links were the old one's
    data.update({k: [v.model_dump() if isinstance(v, BaseModel) else v for v in values]
                 for k, values in update.items()})  # fmt: skip
    try:
        return Scene.model_validate(data)
    except ValidationError as error:
        raise SceneError(validation_message(error)) from None


def _body(scene: Scene, index: int) -> Body:
    if not 0 <= index < len(scene.bodies):
        raise SceneError(
            tr("body {index} is not within 0…{last}").format(
                index=index, last=len(scene.bodies) - 1
            )
        )
    return scene.bodies[index]


def _obstacle(scene: Scene, index: int) -> Obstacle:
    if not 0 <= index < len(scene.obstacles):
        raise SceneError(
            tr("obstacle {index} is not within 0…{last}").format(
                index=index, last=len(scene.obstacles) - 1
            )
        )
    return scene.obstacles[index]


def _noun(body: Body) -> str:
    if isinstance(body, SheetSpec):
        return tr("sheet {cols} × {rows}").format(cols=body.cols, rows=body.rows)
    if isinstance(body, DiscSpec):
        return tr("disc {cols} across").format(cols=body.cols)
    return tr("block {n} × {n} × {n}").format(n=body.cubes)


def _ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20 or n % 10 not in (1, 2, 3):
        return tr("{n}th").format(n=n)
    return {1: tr("{n}st"), 2: tr("{n}nd"), 3: tr("{n}rd")}[n % 10].format(n=n)


def _first_particle(scene: Scene, index: int) -> int:
    return sum(body_size(b)[0] for b in scene.bodies[:index])


def _first_link(scene: Scene, index: int) -> int:
    return sum(body_size(b)[1] for b in scene.bodies[:index])


def _vec(values: Any) -> Vec3:
    return (float(values[0]), float(values[1]), float(values[2]))


def _rest(body: Body) -> np.ndarray:
    """(n, 3) float64 rest positions of one body on its own."""
    builder = TopologyBuilder()
    build_body(builder, body)
    return builder.build().rest_positions


def _grid_shape(body: Body) -> tuple[int, ...]:
    """The body's grid of points: a disc keeps the points of a cols × cols grid in its circle."""
    if isinstance(body, SheetSpec):
        return (body.rows, body.cols)
    if isinstance(body, DiscSpec):
        return (body.cols, body.cols)
    return (body.cubes + 1,) * 3


def _same_grid(old: Body, new: Body) -> bool:
    """Whether the two have the same particles and links, index for index."""
    return old.kind == new.kind and _grid_shape(old) == _grid_shape(new)


def _carry_over(old: Body, new: Body, local: int) -> int:
    """The particle of `new` at the place on the body where `local` is on `old`."""
    if _same_grid(old, new):
        return local
    if isinstance(old, DiscSpec) and isinstance(new, DiscSpec):
        return _nearest_on_disc(old, new, local)
    old_shape, new_shape = _grid_shape(old), _grid_shape(new)
    where = np.unravel_index(local, old_shape)
    target = [
        round(w / (o - 1) * (n - 1)) for w, o, n in zip(where, old_shape, new_shape, strict=True)
    ]
    return int(np.ravel_multi_index(target, new_shape))


def _nearest_on_disc(old: DiscSpec, new: DiscSpec, local: int) -> int:
    """The particle of disc `new` at the place, as a fraction of the radius, of particle `local`
    of disc `old`: the one at the nearest grid point, or (off the new disc's grid points, at
    its rim) the nearest of all."""
    old_parts, new_parts = disc_parts(old.cols), disc_parts(new.cols)
    old_radius, new_radius = (old.cols - 1) / 2.0, (new.cols - 1) / 2.0
    x, z = old_parts.plane[local] / old_radius * new_radius  # in the new disc's spacings
    row, col = round(z + new_radius), round(x + new_radius)
    if 0 <= row < new.cols and 0 <= col < new.cols and new_parts.grid_index[row, col] >= 0:
        return int(new_parts.grid_index[row, col])
    offsets = new_parts.plane - (x, z)
    return int(np.argmin(np.einsum("ij,ij->i", offsets, offsets)))


def _moved_particle(scene: Scene, index: int, new: Body | None, particle: int) -> int | None:
    """Where a particle goes when body `index` becomes `new` (None: is removed): an earlier
    body's stays, a later body's shifts with the particle count, and this body's is carried
    over by place as a pin is (None: it goes with the body)."""
    old = scene.bodies[index]
    old_particles, first = body_size(old)[0], _first_particle(scene, index)
    local = particle - first
    if local < 0:
        return particle
    if local >= old_particles:
        return particle + (body_size(new)[0] if new is not None else 0) - old_particles
    return None if new is None else first + _carry_over(old, new, local)


def _remap_rulers(scene: Scene, index: int, new: Body | None) -> list[RulerSpec]:
    """The rulers after body `index` becomes `new` (None: is removed): an end on a particle
    follows it (_moved_particle); a ruler with an end on a removed body is dropped."""

    def moved(end: RulerEnd) -> RulerEnd | None:
        if end.particle is None:
            return end
        particle = _moved_particle(scene, index, new, end.particle)
        return None if particle is None else RulerEnd(particle=particle)

    rulers = []
    for ruler in scene.rulers:
        start, end = moved(ruler.start), moved(ruler.end)
        if start is not None and end is not None:
            rulers.append(RulerSpec(start=start, end=end))
    return rulers


def _remap_probes(scene: Scene, index: int, new: Body | None) -> list[int]:
    """The probes after body `index` becomes `new` (None: is removed), in their order
    (_moved_particle); a removed body's go with it, and two that land on one particle (a
    coarser resolution) become one."""
    probes: list[int] = []
    for particle in scene.probes:
        moved = _moved_particle(scene, index, new, particle)
        if moved is not None and moved not in probes:
            probes.append(moved)
    return probes


def _remap(scene: Scene, index: int, new: Body | None) -> tuple[list[PinSpec], list[int], int]:
    """Pins and cuts after body `index` becomes `new` (None: is removed), and how many of the
    body's own cuts could not be carried over."""
    old = scene.bodies[index]
    old_particles, old_links = body_size(old)
    new_particles, new_links = body_size(new) if new is not None else (0, 0)
    first_particle, first_link = _first_particle(scene, index), _first_link(scene, index)
    particle_shift, link_shift = new_particles - old_particles, new_links - old_links
    same_grid = new is not None and _same_grid(old, new)
    moved = new is not None and bodies_restructure([old], [new])
    rest_old = _rest(old) if moved else None
    rest_new = _rest(new) if moved and new is not None else None

    pins: dict[int, PinSpec] = {}
    for pin in scene.pins:
        local = pin.particle - first_particle
        if local < 0:
            pins[pin.particle] = pin
        elif local >= old_particles:
            pins[pin.particle + particle_shift] = PinSpec(
                particle=pin.particle + particle_shift, anchor=pin.anchor
            )
        elif new is not None:
            target = _carry_over(old, new, local)
            anchor = pin.anchor
            if rest_old is not None and rest_new is not None:
                anchor = _vec(rest_new[target] + (np.asarray(pin.anchor) - rest_old[local]))
            particle = first_particle + target
            pins.setdefault(particle, PinSpec(particle=particle, anchor=anchor))
    cuts, dropped = [], 0
    for link in scene.cuts:
        local = link - first_link
        if local < 0:
            cuts.append(link)
        elif local >= old_links:
            cuts.append(link + link_shift)
        elif same_grid:
            cuts.append(link)
        elif new is not None:
            dropped += 1
    return sorted(pins.values(), key=lambda p: p.particle), sorted(cuts), dropped
