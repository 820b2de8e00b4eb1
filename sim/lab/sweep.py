"""Sweeps run in parallel: each variant of a grid (sim.lab.variants) in a worker process on this
machine, or on an existing Dask cluster.

Both pools run the same function on the same pickled scene, and the model is deterministic,
so a variant's readouts are bit for bit the same wherever it ran. A variant's failure (a
blow-up, a bad combination of values, a worker that died) comes back as its result; the rest
go on. No Qt here: worker processes import this module to find the function they run.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor
from typing import Any, Protocol

from clothlab.sim.lab.variants import Source, Variant, VariantResult, run_variant

POLL_S = 0.05  # how often the main process looks for finished variants and for Ctrl+C
CONNECT_TIMEOUT_S = 10
PARENT_POLL_S = 0.5  # how often a worker looks for its parent where the kernel cannot tell it
PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
INSTALL_HINT = "pip install 'clothlab[cluster]'"
PACKAGE = __name__.split(".")[0]  # what a worker must import to unpickle a scene: clothlab


class SweepError(Exception):
    """A pool that cannot be started or used (Dask missing, a scheduler out of reach, workers
    without Cloth Lab); one line."""


class PoolLostError(SweepError):
    """The pool can run no more variants (its scheduler went away): those told so far are
    whole, the rest are lost. One line: why."""


class Pool(Protocol):
    def submit(self, source: Source, variants: list[Variant], steps: int) -> list[Any]: ...
    def lost(self, error: Exception) -> str | None:
        """Why no variant can run any more, if a variant's `error` says so; else None."""

    def stop(self, pending: list[Any]) -> None: ...
    def close(self) -> None: ...


# --- in a worker process ---------------------------------------------------------------------

_stop_event: Any = None  # the local pool's "stop now" flag, set in each worker at its start


def _start_worker(stop_event: Any, parent: int) -> None:
    global _stop_event
    _stop_event = stop_event
    _exit_with_parent(parent)
    # Ctrl+C reaches every process of the terminal's process group: the main process asks the
    # workers to stop through the event, not with a KeyboardInterrupt traceback of each.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _exit_with_parent(parent: int) -> None:
    """End this worker when the sweep that started it dies. SIGKILL cannot be caught, so a
    killed sweep cannot stop its workers: they ran their variants on to the end, then waited
    for work forever, and kept the resource tracker (which waits for their pipe) alive too."""
    if sys.platform.startswith("linux"):
        # The kernel sends the signal when the thread that started this process ends: the one
        # that submitted to the pool, which outlives the pool (run_sweep closes it).
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    else:
        threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    if os.getppid() != parent:  # it died before the signal was asked for
        os._exit(1)


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_S)
    os._exit(1)


def _stop_requested() -> bool:
    # run_variant asks every sim.lab.variants.STOP_CHECK_EVERY steps (each look is a system call)
    return _stop_event is not None and _stop_event.is_set()


def run_in_worker(source: Source, changes: dict[str, Any], steps: int) -> VariantResult:
    """One variant's final readouts (no rows: only the end goes back over the pipe)."""
    return run_variant(source, changes, steps, keep_rows=False, should_stop=_stop_requested)


# --- pools -----------------------------------------------------------------------------------


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Processes started in here ignore SIGINT from their start: an ignored signal stays
    ignored through exec, so Ctrl+C cannot interrupt a worker while it imports numba."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class LocalPool:
    """Worker processes on this machine, started fresh (spawn: no forked numba or threads)."""

    def __init__(self, workers: int) -> None:
        context = multiprocessing.get_context("spawn")
        self._stop = context.Event()
        self._executor = ProcessPoolExecutor(
            workers,
            mp_context=context,
            initializer=_start_worker,
            initargs=(self._stop, os.getpid()),
        )

    def submit(self, source: Source, variants: list[Variant], steps: int) -> list[Future]:
        with _sigint_ignored():  # the executor starts a process per submit, up to `workers`
            return [self._executor.submit(run_in_worker, source, v.changes, steps)
                    for v in variants]  # fmt: skip

    def lost(self, error: Exception) -> str | None:
        return None  # a worker that died fails its own variants; the rest go on

    def stop(self, pending: list[Any]) -> None:
        self._stop.set()  # the running variants return within STOP_CHECK_EVERY steps
        self._executor.shutdown(wait=True, cancel_futures=True)

    def close(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)


class DaskPool:
    """The workers of a running Dask cluster; they need the same Cloth Lab installed."""

    def __init__(self, address: str) -> None:
        try:
            from distributed import Client
        except ImportError:
            raise SweepError(f"--scheduler needs dask.distributed: {INSTALL_HINT}") from None
        try:
            self._client = Client(address, timeout=CONNECT_TIMEOUT_S)
        except (OSError, TimeoutError, ValueError, TypeError) as error:
            reason = str(error).strip() or type(error).__name__
            raise SweepError(f"--scheduler {address}: cannot connect: {reason}") from None

    def submit(self, source: Source, variants: list[Variant], steps: int) -> list[Any]:
        try:  # the scene once to every worker, not once per variant
            (shared,) = self._client.scatter([source], broadcast=True, hash=False)
        except Exception as error:  # each worker unpickles the scene: Cloth Lab's classes
            raise SweepError(self.lost(error) or f"--scheduler: {_first_line(error)}") from None
        return [self._client.submit(run_in_worker, shared, v.changes, steps, pure=False)
                for v in variants]  # fmt: skip

    def lost(self, error: Exception) -> str | None:
        if f"No module named '{PACKAGE}" in str(error):
            hint = "install it there (the same version as here)"
            return f"the workers cannot import {PACKAGE}: {hint}"
        if not isinstance(error, CancelledError):  # stop() cancels, but asks for no result after
            return None
        reason = getattr(error, "reason", "")
        if "connection-lost" in reason:
            return "the scheduler went away"
        if reason == "already forgotten":  # the scene scattered to the workers went with them
            return "the workers went away"
        return f"the cluster cancelled the variants ({reason or 'no reason given'})"

    def stop(self, pending: list[Any]) -> None:
        with contextlib.suppress(Exception):  # a scheduler gone cannot be told, and need not be
            self._client.cancel(pending)

    def close(self) -> None:
        self._client.close(timeout=CONNECT_TIMEOUT_S)


def make_pool(workers: int, scheduler: str | None) -> Pool:
    return DaskPool(scheduler) if scheduler else LocalPool(workers)


# --- running ---------------------------------------------------------------------------------


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return f"{type(error).__name__} {text.splitlines()[0] if text else ''}".strip()


def _outcome(future: Any, pool: Pool) -> VariantResult:
    """A future's result; an error of the pool itself (a worker killed) as the variant's
    failure. Raises PoolLostError if the error says no variant can run any more."""
    try:
        return future.result()
    except Exception as error:  # whatever went wrong with this one, the rest go on
        lost = pool.lost(error)
        if lost:
            raise PoolLostError(lost) from None
        return VariantResult((), None, f"error: {_first_line(error)}", 0)


def run_sweep(
    pool: Pool,
    source: Source,
    variants: list[Variant],
    steps: int,
    on_done: Callable[[int, VariantResult], None],
    should_stop: Callable[[], bool] = lambda: False,
) -> bool:
    """Run every variant on the pool, telling `on_done` (index, result) as each finishes, in
    whatever order they finish. False if `should_stop` stopped it: the results told so far
    are whole; the others are dropped. Raises SweepError if the pool cannot run them, and
    PoolLostError if it went away on the way (the results told so far are whole)."""
    futures = pool.submit(source, variants, steps)
    pending = dict(enumerate(futures))
    while pending:
        if should_stop():
            pool.stop(list(pending.values()))
            return False
        done = [k for k, future in pending.items() if future.done()]
        for k in done:
            try:
                result = _outcome(pending.pop(k), pool)
            except PoolLostError:
                pool.stop(list(pending.values()))
                raise
            on_done(k, result)
        if not done:
            time.sleep(POLL_S)
    return True
