"""Sag against solver passes: the classic rule leaves stretch that more passes remove.

Runs the default hanging sheet for 5 s of model time at each number of passes, prints the final
sag and max stretch, and plots sag against passes to sag_vs_passes.png (with matplotlib, if it
is installed: pip install matplotlib).

    python examples/sag_vs_passes.py [OUTPUT.png]
"""

from __future__ import annotations

import sys

import clothlab

PASSES = (1, 2, 4, 8, 16, 32, 64)
STEPS = 600  # 5 s of model time at 1/120 s a step


def measure() -> list[tuple[int, float, float]]:
    """(passes, sag, max stretch) at the end of each run."""
    results = []
    for passes in PASSES:
        lab = clothlab.open("hanging-sheet")
        lab.set(passes=passes)
        table = lab.run(STEPS)
        results.append((passes, float(table["sag"][-1]), float(table["max_stretch"][-1])))
    return results


def plot(results: list[tuple[int, float, float]], path: str) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")  # a file, no window
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    passes, sag, _ = zip(*results, strict=True)
    figure, axes = plt.subplots(figsize=(6, 4))
    axes.semilogx(passes, sag, "o-", base=2)
    axes.set_xlabel("solver passes per step")
    axes.set_ylabel("sag after 5 s (units)")
    axes.set_title("Hanging sheet: sag against passes")
    axes.grid(True, which="both", alpha=0.3)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return True


def main() -> None:
    path = sys.argv[1] if len(sys.argv) > 1 else "sag_vs_passes.png"
    results = measure()
    print(f"{'passes':>6}  {'sag':>8}  {'max stretch':>11}")
    for passes, sag, stretch in results:
        print(f"{passes:>6}  {sag:8.4f}  {stretch:11.4%}")
    if plot(results, path):
        print(f"plotted to {path}")
    else:
        print("matplotlib is not installed: no plot (pip install matplotlib)")


if __name__ == "__main__":
    main()
