"""Which links an edit cuts: the model's seam, the links a stroke crosses.

The edit records (cut, pin, setting, composition, rulers), with their inverses and effects, are
commands declared in sim.document.commands; their names stay importable from here.
"""

from __future__ import annotations

import numpy as np

from clothlab.sim.core.topology import Topology
from clothlab.sim.document.commands import EDITABLE_PARTS as EDITABLE_PARTS
from clothlab.sim.document.commands import CutLinks as CutLinks
from clothlab.sim.document.commands import Edit as Edit
from clothlab.sim.document.commands import EditRulers as EditRulers
from clothlab.sim.document.commands import EditScene as EditScene
from clothlab.sim.document.commands import SetPin as SetPin
from clothlab.sim.document.commands import SetProbe as SetProbe
from clothlab.sim.document.commands import SetSetting as SetSetting
from clothlab.sim.document.commands import with_pin as with_pin

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
