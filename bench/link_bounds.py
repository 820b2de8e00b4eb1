"""What bounds the classic link pass: the pass as it is against variants that
each leave one cost out, timed in one process on the same state, one thread and two.

    .venv/bin/python bench/link_bounds.py [--grid 256x256]... [--repeats 9]

The state is the bench sheet's (clothlab bench, colour order) after 40 steps; each variant runs
8 passes over its links, alternating with the pass as it is, and prints M link projections/s
(median of --repeats) and its ratio to the pass as it is. Only "gather, compute, scatter"
computes what the pass does (its bits are checked and printed); the others drop work to show
what it costs:

* no sqrt or division: the length squared stands in for the length;
* positions only: no start direction, rest, stiffness or moved arrays read or written;
* rest, stiffness per run: the first link's for every link of its run, two arrays fewer read
  (a grid's rest lengths differ in their last bits along a run, so the bits differ too);
* gather, compute, scatter: blocks of 64 links copied into scratch, their corrections computed
  in a loop LLVM vectorises (error_model="numpy": Python's division check stops it), then
  applied.

First, for scale: how two threads scale a loop of square roots in the first-level cache and a
sum that streams 16 MB, against one.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Callable

import numba
import numpy as np
from numba import njit, prange

from clothlab.app.bench import bench_sheet, parse_grid
from clothlab.sim.core import kernels, ordering
from clothlab.sim.core.kernels import (
    FASTMATH,
    MAX_KEPT_TURN_COS,
    NO_REFCOUNTS,
    along_start,
    move_link_ends,
)

PASSES = 8
BLOCK = 64  # links a block of the gather-compute-scatter variant
KEEP = MAX_KEPT_TURN_COS**2


@njit(nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH)
def no_sqrt_or_division(x, inv_mass, runs, r, rest, stiffness, start, moved, scratch):
    first, i, step, gap = runs[r, 0], runs[r, 2], runs[r, 3], runs[r, 4]
    for k in range(first, first + runs[r, 1]):
        j = i + gap
        wi, wj = inv_mass[i], inv_mass[j]
        if wi + wj != 0.0:
            dx, dy, dz = x[j, 0] - x[i, 0], x[j, 1] - x[i, 1], x[j, 2] - x[i, 2]
            l2 = dx * dx + dy * dy + dz * dz
            vx, vy, vz, top, size = along_start(start, k, dx, dy, dz, l2)
            s = (l2 - rest[k]) * stiffness[k] * top * (l2 * (wi + wj)) * 1e-9
            moved[k] += s * size
            move_link_ends(x, i, j, vx, vy, vz, s * wi, s * wj)
        i += step


@njit(nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH)
def positions_only(x, inv_mass, runs, r, rest, stiffness, start, moved, scratch):
    first, i, step, gap = runs[r, 0], runs[r, 2], runs[r, 3], runs[r, 4]
    for _ in range(first, first + runs[r, 1]):
        j = i + gap
        wi, wj = inv_mass[i], inv_mass[j]
        if wi + wj != 0.0:
            dx, dy, dz = x[j, 0] - x[i, 0], x[j, 1] - x[i, 1], x[j, 2] - x[i, 2]
            length = math.sqrt(dx * dx + dy * dy + dz * dz)
            s = (length - 0.01) * 0.9 / (length * (wi + wj))
            move_link_ends(x, i, j, dx, dy, dz, s * wi, s * wj)
        i += step


@njit(nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH)
def per_run_constants(x, inv_mass, runs, r, rest, stiffness, start, moved, scratch):
    first, i, step, gap = runs[r, 0], runs[r, 2], runs[r, 3], runs[r, 4]
    rest_k, stiffness_k = rest[first], stiffness[first]
    for k in range(first, first + runs[r, 1]):
        kernels._project_link(x, inv_mass, start, k, i, i + gap, rest_k, stiffness_k, moved)
        i += step


@njit(nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH, error_model="numpy")
def _block_corrections(t, n):
    """t: (16·BLOCK,) rows of BLOCK: 0–2 x_j − x_i, 3–5 start, 6 rest, 7 stiffness, 8–9 inverse
    masses; out: 10–12 the direction, 13–14 s·w_i and s·w_j, 15 what moved gathers."""
    b = BLOCK
    for m in range(n):
        dx, dy, dz = t[m], t[b + m], t[2 * b + m]
        ex, ey, ez = t[3 * b + m], t[4 * b + m], t[5 * b + m]
        wi, wj = t[8 * b + m], t[9 * b + m]
        w = wi + wj
        length = math.sqrt(dx * dx + dy * dy + dz * dz)
        dot = dx * ex + dy * ey + dz * ez
        kept = (dot > 0.0) & (dot * dot >= KEEP * (length * length))
        top = dot if kept else 1.0
        s = (length - t[6 * b + m]) * t[7 * b + m] * top / (length * w)
        s = s if (w != 0.0) & (length != 0.0) else 0.0
        t[10 * b + m] = ex if kept else dx
        t[11 * b + m] = ey if kept else dy
        t[12 * b + m] = ez if kept else dz
        t[13 * b + m] = s * wi
        t[14 * b + m] = s * wj
        t[15 * b + m] = s * (1.0 if kept else length)


@njit(nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH)
def gather_compute_scatter(x, inv_mass, runs, r, rest, stiffness, start, moved, t):
    first, i0, step, gap = runs[r, 0], runs[r, 2], runs[r, 3], runs[r, 4]
    b = BLOCK
    for b0 in range(0, runs[r, 1], b):
        n = min(b, runs[r, 1] - b0)
        i, k = i0 + b0 * step, first + b0
        for m in range(n):
            j = i + gap
            t[m], t[b + m], t[2 * b + m] = x[j, 0] - x[i, 0], x[j, 1] - x[i, 1], x[j, 2] - x[i, 2]
            t[3 * b + m], t[4 * b + m], t[5 * b + m] = start[k, 0], start[k, 1], start[k, 2]
            t[6 * b + m], t[7 * b + m] = rest[k], stiffness[k]
            t[8 * b + m], t[9 * b + m] = inv_mass[i], inv_mass[j]
            i += step
            k += 1
        _block_corrections(t, np.int64(n))
        i, k = i0 + b0 * step, first + b0
        for m in range(n):
            moved[k] += t[15 * b + m]
            move_link_ends(
                x, i, i + gap, t[10 * b + m], t[11 * b + m], t[12 * b + m], t[13 * b + m],
                t[14 * b + m],
            )  # fmt: skip
            i += step
            k += 1


@njit(nogil=True, **NO_REFCOUNTS, fastmath=FASTMATH)
def as_it_is(x, inv_mass, runs, r, rest, stiffness, start, moved, scratch):
    kernels._project_run(x, inv_mass, runs, r, rest, stiffness, start, moved)


def passes_of(run: Callable) -> Callable:
    """PASSES passes in colour order, each colour's runs on the thread pool (scratch per thread)."""

    @njit(nogil=True, fastmath=FASTMATH, parallel=True)
    def passes(x, inv_mass, runs, run_start, rest, stiffness, start, moved, scratch):
        for _ in range(PASSES):
            for c in range(run_start.shape[0] - 1):
                for r in prange(run_start[c], run_start[c + 1]):
                    t = scratch[numba.get_thread_id()]
                    run(x, inv_mass, runs, r, rest, stiffness, start, moved, t)

    return passes


VARIANTS = {
    "no sqrt or division": passes_of(no_sqrt_or_division),
    "positions only": passes_of(positions_only),
    "rest, stiffness per run": passes_of(per_run_constants),
    "gather, compute, scatter": passes_of(gather_compute_scatter),
}
EXACT = ("gather, compute, scatter",)


@njit(nogil=True, fastmath=True, error_model="numpy")
def _square_roots(a, rounds):
    total = 0.0
    for r in range(rounds):
        for i in range(a.shape[0]):
            total += math.sqrt(a[i] + r)
    return total


@njit(nogil=True, fastmath=True, parallel=True)
def compute_on(a, rounds, parts):
    """Square roots over an array in the first-level cache, `parts` times, on the pool."""
    out = np.zeros(parts)
    for p in prange(parts):
        out[p] = _square_roots(a, rounds)
    return out


@njit(nogil=True, fastmath=True, parallel=True)
def stream(a, parts):
    """A sum over `a`, split into `parts` halves read on the pool."""
    out = np.zeros(parts)
    n = a.shape[0] // parts
    for p in prange(parts):
        total = 0.0
        for i in range(p * n, (p + 1) * n):
            total += a[i]
        out[p] = total
    return out


def machine(repeats: int) -> None:
    """How this machine's two threads scale a compute loop, and how fast they read 12 MB."""
    small, big = np.random.default_rng(1).random(2048), np.random.default_rng(2).random(1 << 21)
    rates = {}
    for threads in sorted({1, ordering.MOST_THREADS}):
        numba.set_num_threads(threads)
        compute_on(small, 1, 2), stream(big, 2)  # compiled for this count
        compute = [_time(lambda: compute_on(small, 20_000, 2)) for _ in range(repeats)]
        read = [_time(lambda: stream(big, 2)) for _ in range(repeats)]
        seconds, rate = statistics.median(compute), big.nbytes / statistics.median(read)
        rates[threads] = (1 / seconds, rate)
        print(f"machine, {threads} thread(s): the compute loop twice in {1e3 * seconds:.0f} ms, "
              f"16 MB read at {rate / 1e9:.1f} GB/s")  # fmt: skip
    if len(rates) == 2:
        one, two = rates.values()
        print(f"machine: two threads scale the compute loop {two[0] / one[0]:.2f}×, "
              f"the stream {two[1] / one[1]:.2f}×")  # fmt: skip


def _time(call: Callable) -> float:
    started = time.perf_counter()
    call()
    return time.perf_counter() - started


def state(cols: int, rows: int) -> tuple[np.ndarray, ...]:
    sim = bench_sheet(cols, rows, PASSES, {"solver_mode": ordering.COLOUR_ORDER})
    sim.step(40)
    links = sim.links
    kernels.start_directions(sim.state.x_prev, links.a, links.b, links.start)
    return (
        sim.state.x.copy(), sim.fixed.inv_mass, links.runs, links.run_start, links.rest,
        sim.link_material().stiffness, links.start, links.moved.copy(),
    )  # fmt: skip


def timed(passes: Callable, arrays: tuple[np.ndarray, ...], scratch: np.ndarray) -> float:
    x, moved = arrays[0].copy(), arrays[7].copy()
    return _time(lambda: passes(x, *arrays[1:7], moved, scratch))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grid", action="append", default=None)
    parser.add_argument("--repeats", type=int, default=9)
    args = parser.parse_args()
    machine(args.repeats)
    scratch = np.zeros((ordering.MOST_THREADS, 16 * BLOCK))
    reference = passes_of(as_it_is)
    for grid in args.grid or ["128x128", "256x256"]:
        arrays = state(*parse_grid(grid))
        projections = PASSES * len(arrays[4])
        for threads in sorted({1, ordering.MOST_THREADS}):
            numba.set_num_threads(threads)
            print(f"{grid}, {threads} thread(s), M link projections/s (median of {args.repeats}):")
            for name, passes in VARIANTS.items():
                same = ""
                if name in EXACT:
                    xs = [arrays[0].copy() for _ in range(2)]
                    for p, x in zip((reference, passes), xs, strict=True):
                        p(x, *arrays[1:7], arrays[7].copy(), scratch)
                    same = ", the same bits" if np.array_equal(*xs) else ", OTHER BITS"
                now, variant = [], []
                for _ in range(args.repeats):
                    now.append(timed(reference, arrays, scratch))
                    variant.append(timed(passes, arrays, scratch))
                rate_now = projections / statistics.median(now) / 1e6
                rate = projections / statistics.median(variant) / 1e6
                print(f"  {name:26s} {rate:6.1f}  against {rate_now:6.1f} as it is: "
                      f"{rate / rate_now:.2f}×{same}")  # fmt: skip


if __name__ == "__main__":
    main()
