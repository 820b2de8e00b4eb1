"""Every speed figure of the lab in one table, each against its goal (run it under a display):

    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python bench/speed_table.py [--launch]

Runs, one after the other so that none slows another: bench/gui_speed.py (the real window at
1280 × 800 with the default docks and live plots), `clothlab bench --options` at 128² and 256²
(headless), bench/compare.py at 256² (against the plain C loop) and, with --launch,
bench/launch.py (the first launch after install and later ones; about a minute more). Prints
median (min–max) where there are several runs. A run that failed prints what happened in place
of its figures.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
Row = tuple[str, str, str, str]  # figure, goal, measured, met


def run_json(*command: str) -> object:
    """What a benchmark printed as JSON, or a one-line reason it did not."""
    done = subprocess.run([sys.executable, *command], capture_output=True, text=True)
    name = " ".join(Path(part).name for part in command[:2])
    if done.returncode != 0:
        reason = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return f"{name} failed (exit {done.returncode}): {reason}"
    try:
        return json.loads(done.stdout)
    except json.JSONDecodeError:
        return f"{name} printed no JSON: {done.stdout.strip()[-200:]!r}"


def spread(values: list[float], digits: int = 1, scale: float = 1.0) -> str:
    median, low, high = (scale * f(values) for f in (statistics.median, min, max))
    return f"{median:.{digits}f} ({low:.{digits}f}–{high:.{digits}f})"


def judged(figure: str, goal: str, text: str, met: bool) -> Row:
    return figure, goal, text, "yes" if met else "no"


def app_rows(results: object) -> list[Row]:
    if isinstance(results, str):
        return [("the app (bench/gui_speed.py)", "", results, "—")]
    goals = {"hanging-sheet": 30, "128x128 sheet": 30, "256x256 sheet": 15}
    latency_goals = {"128x128 sheet": 60, "256x256 sheet": 100}
    rows = []
    for result in results:
        scene, fps = result["scene"], result["fps"]
        rows.append(judged(f"app, {scene}: frames/s", f"≥ {goals[scene]}", spread(fps),
                           statistics.median(fps) >= goals[scene]))  # fmt: skip
        factors = result["factors"]
        if factors:
            # paced at 1×, a solver that keeps up reads 1.00 give or take the clock's jitter
            rows.append(judged(f"app, {scene}: × real time", "≥ 1.0 (± 2 %)", spread(factors, 2),
                               statistics.median(factors) >= 0.98))  # fmt: skip
        if scene in latency_goals:
            latency, goal = result["latency"], latency_goals[scene]
            if isinstance(latency, str):
                rows.append((f"app, {scene}: input → frame", f"≤ {goal} ms", latency, "—"))
            else:
                rows.append(judged(f"app, {scene}: input → frame", f"≤ {goal} ms",
                                   spread(latency, 0, 1000) + " ms",
                                   1000 * statistics.median(latency) <= goal))  # fmt: skip
    return rows


def headless_rows(report: object) -> list[Row]:
    if isinstance(report, str):
        return [("headless (clothlab bench)", "", report, "—")]
    rows = []
    for result in report["grids"]:
        grid, option = result["grid"], result["option"]
        name = f"headless {grid.replace('x', '×')}, {option}"
        if "failed" in result:
            rows.append((name, "", f"failed: {result['failed']}", "—"))
            continue
        factor = result["realtime_factor"]
        rate = result["steps_per_second"]
        low = result["steps_per_second_min"] / rate * factor
        high = result["steps_per_second_max"] / rate * factor
        text = f"{factor:.2f} ({low:.2f}–{high:.2f})× real, {rate:.0f} steps/s"
        if grid == "128x128":
            goal = 2.0 if option == "self_collision" else 2.5
            rows.append(judged(name, f"≥ {goal}× real", text, factor >= goal))
        elif option == "self_collision":
            rows.append(judged(name, "≥ 1.0× real", text, factor >= 1.0))
        elif option == "classic":
            rows.append(judged(name, "≥ 170 steps/s", text, rate >= 170))
    return rows


def c_rows(results: object) -> list[Row]:
    if isinstance(results, str):
        return [("classic 256², against C (bench/compare.py)", "", results, "—")]
    rates = results[0]["proj_per_second"]
    ours, c = rates["numba colour, 2 threads"], rates["C family order"]
    return [
        judged("classic 256², colour order, 2 threads: M proj/s", "≥ 450", f"{ours / 1e6:.0f}",
               ours / 1e6 >= 450),
        judged("… against the plain C loop, same run", "≥ 5× C", f"{ours / c:.2f}× C",
               ours / c >= 5),
    ]  # fmt: skip


def launch_rows(results: object) -> list[Row]:
    if isinstance(results, str):
        return [("launch (bench/launch.py)", "", results, "—")]
    first, later = results["first"], results["later"]
    rows = [("first launch after install (warm-up done)", "≤ 10 s", str(first), "—")]
    if isinstance(first, float):
        rows[0] = judged(rows[0][0], "≤ 10 s", f"{first:.2f} s", first <= 10)
    timed = [v for v in later if isinstance(v, float)]
    if len(timed) == len(later) and timed:
        rows.append(judged("later launches", "≤ 1.0 s", spread(timed, 2) + " s",
                           statistics.median(timed) <= 1.0))  # fmt: skip
    else:
        rows.append(("later launches", "≤ 1.0 s", next(v for v in later if isinstance(v, str)),
                     "—"))  # fmt: skip
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--launch", action="store_true", help="also time launches (slower)")
    args = parser.parse_args()
    if not os.environ.get("DISPLAY"):
        print("bench/speed_table.py: no display: run it under xvfb-run", file=sys.stderr)
        return 2
    rows = app_rows(run_json(str(HERE / "gui_speed.py"), "--json"))
    rows += headless_rows(run_json(
        "-m", "clothlab.app.main", "bench", "--grid", "128x128", "--grid", "256x256",
        "--options", "--json",
    ))  # fmt: skip
    rows += c_rows(run_json(str(HERE / "compare.py"), "--grid", "256x256", "--repeats", "3",
                            "--json"))  # fmt: skip
    if args.launch:
        rows += launch_rows(run_json(str(HERE / "launch.py"), "--json"))
    widths = [max(len(row[k]) for row in rows) for k in range(4)]
    for row in [("figure", "goal", "measured: median (min–max)", "met"), *rows]:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
