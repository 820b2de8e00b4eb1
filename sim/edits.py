"""Edits as data: the commands that change the document, each knowing its inverse.

Four records cover every edit: links cut or restored, a pin set (added, moved or removed), a
setting changed (ball moved or toggled, any parameter), and the scene's composition changed
(bodies, obstacles, many pins at once: sim.composition makes these). Undo applies the inverse.
Where commands are applied, and the commands that are not edits, are in sim.commands.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from clothlab.sim.topology import Topology

Vec3 = tuple[float, float, float]


@dataclass(frozen=True)
class CutLinks:
    links: tuple[int, ...]  # link indices, all live before a cut (all dead before a restore)
    restore: bool = False

    def inverse(self) -> CutLinks:
        return CutLinks(self.links, not self.restore)

    @property
    def text(self) -> str:
        noun = "link" if len(self.links) == 1 else "links"
        return f"{'Restore' if self.restore else 'Cut'} {len(self.links)} {noun}"


@dataclass(frozen=True)
class SetPin:
    particle: int
    anchor: Vec3 | None  # None: not pinned
    previous: Vec3 | None

    def inverse(self) -> SetPin:
        return SetPin(self.particle, self.previous, self.anchor)

    @property
    def text(self) -> str:
        if self.previous is None:
            return "Add pin"
        return "Remove pin" if self.anchor is None else "Move pin"


@dataclass(frozen=True)
class SetSetting:
    key: str
    value: Any
    previous: Any

    def inverse(self) -> SetSetting:
        return SetSetting(self.key, self.previous, self.value)

    @property
    def text(self) -> str:
        if self.key == "ball_center":
            return "Move ball"
        return f"Set {self.key.replace('_', ' ')}"


@dataclass(frozen=True)
class EditScene:
    """Parts of the scene replaced as a whole: any of bodies, obstacles, pins and cuts, with
    what they were. `restart`: the change moves particles or changes their number, so the
    model starts afresh from the edited scene (a Load) instead of taking the change live."""

    after: dict[str, Any]  # scene field → its new value (a list of specs or indices)
    before: dict[str, Any]
    text: str
    restart: bool = False

    def inverse(self) -> EditScene:
        return EditScene(self.before, self.after, self.text, self.restart)


EDITABLE_PARTS = ("bodies", "obstacles", "pins", "cuts")

Edit = CutLinks | SetPin | SetSetting | EditScene


def with_pin(pins: dict[int, Vec3], particle: int, anchor: Vec3 | None) -> dict[int, Vec3]:
    result = dict(pins)
    if anchor is None:
        result.pop(particle, None)
    else:
        result[particle] = anchor
    return result


# --- which links to cut --------------------------------------------------------------------


def seam_links(topology: Topology, sheet: int = 0) -> np.ndarray:
    """The model's seam cut: every link crossing the vertical line between the sheet's middle
    columns (cols//2 − 1 and cols//2, 0-based; columns 7 and 8 of 15 counted from 1)."""
    grid = topology.sheets[sheet]
    left = grid.cols // 2 - 1
    links = (
        topology.links[grid.first_link : grid.first_link + grid.link_count] - grid.first_particle
    )
    col_a = links[:, 0] % grid.cols
    col_b = links[:, 1] % grid.cols
    crossing = np.minimum(col_a, col_b) == left
    crossing &= np.maximum(col_a, col_b) == left + 1
    return np.flatnonzero(crossing) + grid.first_link


def links_crossing_stroke(
    screen: np.ndarray,  # (N, 2) float64, projected particle positions; NaN if not visible
    links: np.ndarray,  # (M, 2) int32
    link_alive: np.ndarray,  # (M,) bool
    stroke: np.ndarray,  # (K, 2) float64, the stroke polyline in the same screen space
) -> np.ndarray:
    """Indices of the live links whose on-screen segment properly crosses the stroke."""
    stroke = np.asarray(stroke, dtype=np.float64).reshape(-1, 2)
    if len(stroke) < 2 or len(links) == 0:
        return np.zeros(0, dtype=np.int64)
    p = screen[links[:, 0]][:, None, :]  # (M, 1, 2)
    r = screen[links[:, 1]][:, None, :] - p
    q = stroke[None, :-1, :]  # (1, K−1, 2)
    s = stroke[None, 1:, :] - q
    denominator = _cross(r, s)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        along_link = _cross(q - p, s) / denominator
        along_stroke = _cross(q - p, r) / denominator
    hit = (denominator != 0) & (along_link >= 0) & (along_link <= 1)
    hit &= (along_stroke >= 0) & (along_stroke <= 1)
    return np.flatnonzero(hit.any(axis=1) & link_alive)


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]
