"""Link orders for the Gauss–Seidel passes.

Classic order is the family order of the topology (all across, all down, then each diagonal
family). Colour order groups links into independent sets — no two links in a set share a
particle — so that within a set the updates do not wait on each other (the CPU overlaps them)
and two threads can split a set without locks.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import numpy as np
from numba import config, njit

AUTOMATIC, CLASSIC_ORDER, COLOUR_ORDER, TWO_THREADS = 0, 1, 2, 3
# Below this many live links, automatic keeps the classic order (the seed's) on one thread:
# the sheet is many times faster than real time anyway, and the order changes the results.
PARALLEL_MIN_LINKS = 20_000
MOST_THREADS: int = config.NUMBA_NUM_THREADS  # type: ignore[attr-defined]  # set at import


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


@njit(cache=True, nogil=True)
def _runs(
    link_a: np.ndarray,  # (L,) int32
    link_b: np.ndarray,  # (L,) int32
    colour_start: np.ndarray,  # (C + 1,) int64
) -> tuple[np.ndarray, np.ndarray]:
    runs = np.empty((link_a.shape[0], 5), dtype=np.int64)  # at most one run per link
    run_start = np.empty(colour_start.shape[0], dtype=np.int64)
    r = 0
    for c in range(colour_start.shape[0] - 1):
        run_start[c] = r
        k, end = colour_start[c], colour_start[c + 1]
        while k < end:
            first = np.int64(link_a[k])
            gap = np.int64(link_b[k]) - first
            step = np.int64(link_a[k + 1]) - first if k + 1 < end else 0
            m = k + 1
            while (
                m < end
                and np.int64(link_a[m]) - np.int64(link_a[m - 1]) == step
                and np.int64(link_b[m]) - np.int64(link_a[m]) == gap
            ):
                m += 1
            runs[r, 0], runs[r, 1], runs[r, 2], runs[r, 3], runs[r, 4] = k, m - k, first, step, gap
            r += 1
            k = m
    run_start[-1] = r
    return runs[:r].copy(), run_start


def link_runs(
    link_a: np.ndarray, link_b: np.ndarray, colour_start: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The links, in their order, as runs whose ends step evenly: (R, 5) uint64 rows (first
    link, count, first end, step, gap) in which link first + m joins particles
    i = first end + m·step and i + gap, and (C + 1,) int64 where each colour's runs begin (a
    run never crosses a colour's start). A grid sheet's colours are rows of such runs (57 links
    each on average at 128²); an irregular mesh gives runs of one link.

    The kernels walk runs rather than reading each link's two ends: the ends come from a sum
    instead of two loads, and, unsigned, index the arrays without numba's check for negative
    indices (a negative step or gap wraps around and comes out right, as unsigned sums do).
    That made the link passes 1.2× (two threads) to 1.3× (one) faster at 128², with the same
    bits (RESEARCH.md §3, "Links walked as runs")."""
    runs, run_start = _runs(link_a, link_b, colour_start)
    return runs.view(np.uint64), run_start


def resolve_mode(mode: int, live_links: int) -> tuple[bool, bool]:
    """(colour order?, two threads?) for a solver mode and a sheet size."""
    if mode == AUTOMATIC:
        big = live_links >= PARALLEL_MIN_LINKS
        return big, big
    return mode in (COLOUR_ORDER, TWO_THREADS), mode == TWO_THREADS


class ThreadChooser:
    """Automatic mode's thread count for the colour-order kernels: one thread or all of them,
    chosen by timing steps, never by a size rule. Both compute the same bits, so switching
    mid-run changes nothing but speed. Two threads win on a quiet machine; when another
    process holds a core, every per-colour barrier waits for a descheduled thread and two
    threads can be many times slower than one.

    It times TRIAL_STEPS steps on each count, keeps the faster, and re-tries the other after
    a while (doubling the wait each time the choice holds) or as soon as the choice's recent
    steps are slower than the other's last trial; a trial step slower than
    GIVE_UP × the other count's median ends that trial at once, so a bad count costs a step.
    With `required_rate` set (the steps a second a paced caller needs), it takes the fewest
    threads that keep up with HEADROOM to spare: the other core is then free for drawing."""

    TRIAL_STEPS = 6
    GIVE_UP = 3.0
    HEADROOM = 1.3
    FIRST_WAIT_S = 2.0
    LONGEST_WAIT_S = 32.0

    def __init__(
        self, most: int = MOST_THREADS, clock: Callable[[], float] = time.perf_counter
    ) -> None:
        self.options = (1, most) if most > 1 else (1,)
        self.required_rate: float | None = None  # steps/s; None: as fast as possible
        self._clock = clock
        self._times: dict[int, list[float]] = {n: [] for n in self.options}  # s per step
        self._queue: list[int] = list(self.options)  # counts still to try, the current first
        self.choice = self.options[-1]
        self._wait = self.FIRST_WAIT_S
        self._next_trial = 0.0
        self._warm = False  # the first step after a switch is not timed (caches, wake-up)

    @property
    def threads(self) -> int:
        """The count for the next step."""
        return self._queue[0] if self._queue else self.choice

    def rate(self, threads: int) -> float | None:
        """Measured steps a second on `threads`, or None before its trial."""
        times = self._times.get(threads)
        return 1.0 / statistics.median(times) if times else None

    def measured(self, seconds: float) -> None:
        """Report the wall time of the step just taken on `threads`."""
        if len(self.options) == 1:
            return
        threads = self.threads
        if self._queue:
            self._trial_step(threads, seconds)
            return
        if self._warm:
            self._time(threads, seconds)
        self._warm = True
        others = [n for n in self.options if n != self.choice]
        # Re-try when due, or at once when the choice has become slower than the other was:
        # the machine's load changes under a running solver.
        recent = len(self._times[self.choice]) == self.TRIAL_STEPS
        worse = recent and self._best_rate(others) > (self.rate(self.choice) or 0.0)
        if worse or self._clock() >= self._next_trial:
            self._try(others)

    def _trial_step(self, threads: int, seconds: float) -> None:
        others = [n for n in self.options if n != threads]
        hopeless = seconds * self._best_rate(others) > self.GIVE_UP  # even its first step
        if self._warm:
            self._time(threads, seconds)
        self._warm = True
        if hopeless or len(self._times[threads]) >= self.TRIAL_STEPS:
            self._try(self._queue[1:])
            if not self._queue:
                self._decide()

    def _time(self, threads: int, seconds: float) -> None:
        times = self._times[threads]
        times.append(seconds)
        del times[: -self.TRIAL_STEPS]  # the choice stays timed: its figure is always recent

    def _best_rate(self, counts: list[int]) -> float:
        return max((self.rate(n) or 0.0 for n in counts), default=0.0)

    def _try(self, counts: list[int]) -> None:
        self._queue = counts
        if counts:
            self._times[counts[0]] = []
        self._warm = False

    def _decide(self) -> None:
        rates = {n: self.rate(n) or 0.0 for n in self.options}
        choice = max(rates, key=lambda n: rates[n])
        if self.required_rate is not None:
            enough = [n for n in self.options if rates[n] >= self.HEADROOM * self.required_rate]
            choice = enough[0] if enough else choice
        held = choice == self.choice
        self.choice = choice
        self._wait = min(2 * self._wait, self.LONGEST_WAIT_S) if held else self.FIRST_WAIT_S
        self._next_trial = self._clock() + self._wait
