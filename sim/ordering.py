"""Link orders for the Gauss–Seidel passes.

Classic order is the family order of the topology (all across, all down, then each diagonal
family). Colour order groups links into independent sets — no two links in a set share a
particle — so that within a set the updates do not wait on each other (the CPU overlaps them)
and two threads can split a set without locks.
"""

from __future__ import annotations

import numpy as np
from numba import njit

AUTOMATIC, CLASSIC_ORDER, COLOUR_ORDER, TWO_THREADS = 0, 1, 2, 3
SOLVER_MODES = ("automatic", "classic order", "colour order", "colour order, 2 threads")
# Below this many live links, automatic keeps the classic order on one thread: thread
# start-up and the per-colour barriers cost more than they save.
PARALLEL_MIN_LINKS = 20_000


@njit(cache=True, nogil=True)
def greedy_colours(
    link_a: np.ndarray,  # (L,) int32
    link_b: np.ndarray,  # (L,) int32
    particle_count: int,
) -> np.ndarray:
    """(L,) int64 colour per link: the smallest colour neither end already has, in link
    order. A grid sheet in family order gets 8 colours, a soft block a few more."""
    used = np.zeros(particle_count, dtype=np.uint64)  # bit c set: a link of colour c touches it
    colour = np.empty(link_a.shape[0], dtype=np.int64)
    for k in range(link_a.shape[0]):
        taken = used[link_a[k]] | used[link_b[k]]
        c = 0
        while (taken >> np.uint64(c)) & np.uint64(1):
            c += 1
        if c >= 64:
            raise ValueError("a particle has more than 63 links")
        colour[k] = c
        bit = np.uint64(1) << np.uint64(c)
        used[link_a[k]] |= bit
        used[link_b[k]] |= bit
    return colour


def colour_order(
    link_a: np.ndarray, link_b: np.ndarray, particle_count: int
) -> tuple[np.ndarray, np.ndarray]:
    """A permutation putting links in colour order (stable: family order within a colour)
    and (C + 1,) int64 offsets where each colour starts."""
    colour = greedy_colours(link_a, link_b, particle_count)
    order = np.argsort(colour, kind="stable")
    starts = np.searchsorted(colour[order], np.arange(colour.max(initial=-1) + 2))
    return order, starts.astype(np.int64)


def resolve_mode(mode: int, live_links: int) -> tuple[bool, bool]:
    """(colour order?, two threads?) for a solver mode and a sheet size."""
    if mode == AUTOMATIC:
        big = live_links >= PARALLEL_MIN_LINKS
        return big, big
    return mode in (COLOUR_ORDER, TWO_THREADS), mode == TWO_THREADS
