"""The desktop app's speed, measured in the real window (run it under a display, e.g. Xvfb):

    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python bench/gui_speed.py [--json]
        [--before REV [--rounds N]]

For each scene (the default, sheets of 128² and 256², and a 64² sheet of denim, SI units, pinned
at its two top corners), in a 1280 × 800 window with the default docks and live plots: wall
time from process start to the first frame drawn (the first scene includes the imports, i.e.
the app's start-up), frames drawn per second over a few seconds of running at 1× (median, min
and max of one-second windows), the solver's real-time factor, how often the plots redrew, and
the grab
latency: real mouse events grab the sheet's middle and move it sideways; each
move's latency is the wall time from the event to the first frame drawn with the particle at
the pointer's target. And where the two cores went over those seconds: the CPU time of each
group of the process's threads (Linux /proc), in cores — the GUI thread, the solver thread
with numba's worker threads (Linux names a thread after the one that started it: "solver"),
Mesa's llvmpipe threads and the rest.

With --before REV, each round measures revision REV (checked out into a temporary worktree)
and this checkout one after the other, each in a process of its own, and the end gives each
scene's figures over all rounds side by side.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

STARTED = time.perf_counter()

import numpy as np  # noqa: E402
from PySide6.QtCore import QEventLoop, QPoint, Qt, QTimer  # noqa: E402
from PySide6.QtGui import QSurfaceFormat  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402
from trees import IMPORT_TREE, ROOT, before_tree, run_child  # noqa: E402

from clothlab.app.controller import Controller  # noqa: E402
from clothlab.sim.document.commands import GrabMove  # noqa: E402
from clothlab.sim.document.composition import change_body  # noqa: E402
from clothlab.sim.document.presets import load_preset  # noqa: E402
from clothlab.sim.lab import textile  # noqa: E402
from clothlab.ui.viewport.viewport import surface_format  # noqa: E402
from clothlab.ui.window.main_window import MainWindow  # noqa: E402

MEASURE_S = 5.0  # after WARM_UP_S: the frames of five one-second windows
WARM_UP_S = 2.0
MOVES = 12  # pointer moves per latency run
MOVE_EVERY_S = 0.25
MOVE_PX = 8
LEFT, NONE = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier


def wait(seconds: float) -> None:
    loop = QEventLoop()
    QTimer.singleShot(round(seconds * 1000), loop.quit)
    loop.exec()


def spread(values: list[float], scale: float = 1.0, digits: int = 1) -> str:
    if not values:
        return "no data"
    median, low, high = (scale * f(values) for f in (statistics.median, min, max))
    return f"{median:.{digits}f} ({low:.{digits}f}–{high:.{digits}f})"


def thread_times() -> dict[str, float]:
    """CPU seconds this process's threads have used so far, by group: the main (GUI) thread,
    the solver's QThread with the numba workers it started, llvmpipe's, the rest."""
    ticks = os.sysconf("SC_CLK_TCK")
    groups: dict[str, float] = {}
    for task in Path("/proc/self/task").iterdir():
        try:
            stat = (task / "stat").read_text()
        except OSError:
            continue  # the thread ended
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        utime, stime = stat[stat.rindex(")") + 2 :].split()[11:13]
        if task.name == str(os.getpid()):
            group = "GUI"
        elif name == "solver":
            group = "solver"
        elif name.startswith("llvmpipe"):
            group = "llvmpipe"
        else:
            group = "other"
        groups[group] = groups.get(group, 0.0) + (int(utime) + int(stime)) / ticks
    return groups


def frame_rate(window: MainWindow) -> tuple[list[float], list[float], int, dict[str, float]]:
    """Frames a second in each second of MEASURE_S, real-time factors, plot redraws, and the
    cores each group of threads used (thread_times)."""
    frames: list[float] = []
    factors: list[float] = []
    window.viewport.frame_drawn.connect(lambda _frame: frames.append(time.perf_counter()))
    window.controller.timing_changed.connect(lambda factor, _behind: factors.append(factor))
    readouts = window.readouts_panel
    redraws_before = readouts.redraw_count
    cpu_before = thread_times()
    start = time.perf_counter()
    wait(MEASURE_S)
    wall = time.perf_counter() - start
    cpu = {
        group: (used - cpu_before.get(group, 0.0)) / wall for group, used in thread_times().items()
    }
    seconds = [sum(start + k <= t < start + k + 1 for t in frames) for k in range(int(MEASURE_S))]
    return [float(n) for n in seconds], factors, readouts.redraw_count - redraws_before, cpu


def grab_latency(window: MainWindow) -> list[float] | str:
    """Seconds from each pointer move of a grab to the first frame showing its particle there."""
    viewport = window.viewport
    x = window.controller.latest.x
    particle = int(np.argmin(np.linalg.norm(x - x.mean(axis=0), axis=1)))  # off the floor
    press = viewport.project(x[particle].reshape(1, 3))[0]
    if not np.all(np.isfinite(press)):
        return "the particle is not on screen"
    point = QPoint(round(press[0]), round(press[1]))
    pending: list[tuple[float, np.ndarray]] = []
    latencies: list[float] = []

    def sent(request: object) -> None:
        if isinstance(request, GrabMove):
            pending.append((time.perf_counter(), np.asarray(request.target, dtype=float)))

    def drawn(_frame: int) -> None:
        snapshot = viewport.snapshot()  # the grab takes the particle nearest the pointer
        if not pending or snapshot is None or snapshot.grabbed is None:
            return
        at = snapshot.x[snapshot.grabbed]
        for k, (moved, target) in enumerate(pending):
            if np.allclose(at, target, atol=1e-9):
                latencies.append(time.perf_counter() - moved)
                del pending[: k + 1]
                return

    viewport.interaction.command_requested.connect(sent)
    viewport.frame_drawn.connect(drawn)
    QTest.mousePress(viewport, LEFT, NONE, point)
    wait(MOVE_EVERY_S)
    for k in range(1, MOVES + 1):
        QTest.mouseMove(viewport, point + QPoint(MOVE_PX * k, 0))
        wait(MOVE_EVERY_S)
    QTest.mouseRelease(viewport, LEFT, NONE, point + QPoint(MOVE_PX * MOVES, 0))
    viewport.interaction.command_requested.disconnect(sent)
    viewport.frame_drawn.disconnect(drawn)
    return latencies if latencies else "no frame ever showed the particle at the pointer"


def open_window(app: QApplication, scene, running: bool) -> tuple[Controller, MainWindow, float]:
    """A window of the default docks at 1280 × 800 on `scene` (running or paused), once its 3D
    view has drawn the first frame; and when that was (perf_counter)."""
    controller = Controller()
    window = MainWindow(controller, remember_layout=False)
    window.resize(1280, 800)
    first: list[float] = []
    window.viewport.frame_drawn.connect(lambda _f: first or first.append(time.perf_counter()))
    controller.load(scene)
    window.show()
    controller.set_running(running)
    while not first:
        app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents, 50)
    return controller, window, first[0]


def measure(app: QApplication, name: str, scene, started: float) -> dict:
    """One scene in its own window: {scene, first_frame (s), fps (per second), factors (× real
    time readings), plots (redraws a second), latency (s per move, or what went wrong)}."""
    controller, window, first = open_window(app, scene, running=True)
    wait(WARM_UP_S)  # past the first compile and layout
    fps, factors, redraws, cores = frame_rate(window)
    latency = grab_latency(window)
    window.close()
    controller.shutdown()
    return {"scene": name, "first_frame": first - started, "fps": fps, "factors": factors,
            "plots": redraws / MEASURE_S, "latency": latency, "cores": cores}  # fmt: skip


def report(result: dict) -> str:
    latency = result["latency"]
    latency_text = latency if isinstance(latency, str) else spread(latency, 1000, 0) + " ms"
    factors = result["factors"]
    factor = f"{statistics.median(factors):.2f}×" if factors else "no reading"
    cores = " ".join(f"{group} {used:.2f}" for group, used in sorted(result["cores"].items()))
    return (f"{result['scene']:<14} first frame {result['first_frame']:5.2f} s · fps"
            f" {spread(result['fps'])} · {factor} real time · plots {result['plots']:.1f}/s · "
            f"grab latency {latency_text}\n{'':<14} cores: {cores}")  # fmt: skip


def sheet(cols: int, rows: int):
    return change_body(load_preset("hanging-sheet"), 0, cols=cols, rows=rows).scene


# A child measuring one tree: clothlab imported from the tree at sys.argv[1], then this script.
CHILD = (
    IMPORT_TREE
    + """
import runpy
script = sys.argv[2]
sys.argv = [script, "--json"]
sys.path.insert(0, script.rsplit("/", 1)[0])
runpy.run_path(script, run_name="__main__")
"""
)


def side_by_side(before: str, rounds: int) -> None:
    trees = {"before": before_tree(before), "after": ROOT}
    print(f"before = {before}, after = this checkout; {rounds} round(s), alternated")
    for tree in trees.values():  # a new worktree compiles its kernels: not while measuring
        run_child(IMPORT_TREE + "from clothlab.app.warm_up import warm_up_command\n"
                  "warm_up_command(None)", str(tree))  # fmt: skip
    runs: dict[str, list[list[dict]]] = {label: [] for label in trees}
    for round_number in range(1, rounds + 1):
        for label, tree in trees.items():
            try:
                output = run_child(CHILD, str(tree), str(Path(__file__).resolve()))
            except subprocess.CalledProcessError as error:
                sys.exit(f"{label} failed in round {round_number}: {error.stderr.strip()[-500:]}")
            runs[label].append(json.loads(output.strip().splitlines()[-1]))
            print(f"round {round_number}, {label}: done", flush=True)
    for index, first in enumerate(runs["after"][0]):
        print(first["scene"])
        for label in trees:
            pooled = pool([results[index] for results in runs[label]])
            print(f"  {label:<6} " + report(pooled).split(" · ", 1)[1], flush=True)


def pool(results: list[dict]) -> dict:
    """One scene's results from several rounds as one: every second, reading and move."""

    def median(key: str) -> float:
        return statistics.median(r[key] for r in results)

    def every(key: str) -> list[float]:
        return [value for r in results for value in r[key]]

    moves = [r for r in results if not isinstance(r["latency"], str)]
    groups = results[0]["cores"]
    return {
        "scene": results[0]["scene"],
        "first_frame": median("first_frame"),
        "fps": every("fps"),
        "factors": every("factors"),
        "plots": median("plots"),
        "latency": [t for r in moves for t in r["latency"]] if moves else results[0]["latency"],
        "cores": {g: statistics.median(r["cores"].get(g, 0.0) for r in results) for g in groups},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--before", help="a revision to measure side by side with this one")
    parser.add_argument("--rounds", type=int, default=2, help="rounds with --before")
    args = parser.parse_args()
    if args.before:
        side_by_side(args.before, args.rounds)
        return
    as_json = args.json
    QSurfaceFormat.setDefaultFormat(surface_format())
    app = QApplication(sys.argv[:1])
    app.setQuitOnLastWindowClosed(False)  # several windows, one after the other
    if not as_json:
        print("median (min–max); the first figure of hanging-sheet is the app's start-up")
    results = []
    for name, scene in (
        ("hanging-sheet", lambda: load_preset("hanging-sheet")),
        ("128x128 sheet", lambda: sheet(128, 128)),
        ("256x256 sheet", lambda: sheet(256, 256)),
        ("64x64 denim", lambda: textile.with_fabric(sheet(64, 64), "denim")),
    ):
        loaded = scene()
        started = time.perf_counter() if results else STARTED  # the first: from the start-up
        results.append(measure(app, name, loaded, started))
        if not as_json:
            print(report(results[-1]), flush=True)
    if as_json:
        print(json.dumps(results))


if __name__ == "__main__":
    main()
