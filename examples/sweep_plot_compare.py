"""A notebook's work as a script, cell by cell: sweep, plot, compare.

1. Sweep the hanging sheet over solver passes and link stiffness (clothlab.sweep) and print
   the final sag of each.
2. Plot sag against passes, one line per stiffness, to sweep_plot_compare.png (matplotlib).
3. Compare the sheet as it is with 16 passes over time (clothlab.compare) and print when each
   settles; then go back to a state kept before a seam cut (Lab.state, Lab.restore) and show
   that the run from there is the same bit for bit.

    python examples/sweep_plot_compare.py [OUTPUT.png]

Each cell is a function, as a notebook's cells would be. The sweep runs in this process; with
`workers=2` it runs on two processes, which import this file again: that is why the script's
work starts under `if __name__ == "__main__":`.
"""

from __future__ import annotations

import sys

import numpy as np

import clothlab

STEPS = 360  # 3 s of model time
PASSES = [2, 4, 8, 16]
STIFFNESS = [0.5, 1.0]
SETTLED = 0.05  # units/s: the mean particle speed below which the sheet has settled


# --- cell 1: sweep ------------------------------------------------------------------------------


def sweep() -> dict[tuple[int, float], float]:
    """Final sag by (passes, stiffness)."""
    rows = clothlab.sweep(
        "hanging-sheet", {"passes": PASSES, "stiffness": STIFFNESS}, steps=STEPS, workers=1
    )
    sags = {}
    for row in rows:
        assert row.status == "ok" and row.final is not None, row.status
        sags[(row.values["passes"], row.values["stiffness"])] = row.final["sag"]
    print(f"{'passes':>6}  " + "  ".join(f"sag at k={k:<4}" for k in STIFFNESS))
    for passes in PASSES:
        print(f"{passes:>6}  " + "  ".join(f"{sags[(passes, k)]:<13.5f}" for k in STIFFNESS))
    return sags


# --- cell 2: plot -------------------------------------------------------------------------------


def plot(sags: dict[tuple[int, float], float], path: str) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")  # a file, no window
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plot (pip install matplotlib)")
        return False
    figure, axes = plt.subplots(figsize=(6, 4))
    for stiffness in STIFFNESS:
        axes.semilogx(PASSES, [sags[(p, stiffness)] for p in PASSES], "o-", base=2,
                      label=f"stiffness {stiffness}")  # fmt: skip
    axes.set_xlabel("solver passes per step")
    axes.set_ylabel(f"sag after {STEPS / 120:g} s (units)")
    axes.set_title("Hanging sheet: sag by passes and stiffness")
    axes.legend()
    axes.grid(True, which="both", alpha=0.3)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
    print(f"plotted to {path}")
    return True


# --- cell 3: compare, and a state kept -------------------------------------------------------


def compare() -> None:
    tables = clothlab.compare("hanging-sheet", ["passes=16"], steps=STEPS)
    for name, table in tables.items():
        moving = np.flatnonzero(np.asarray(table["motion"]) >= SETTLED)
        last = moving[-1] + 1 if len(moving) else 0  # the first row of those below from then on
        when = f"{table['t'][last]:.3f} s" if last < len(table) else "not within the run"
        print(f"{name:>10}: sag {table['sag'][-1]:.5f}, settled (motion < {SETTLED}) at {when}")

    lab = clothlab.open("hanging-sheet")
    lab.run(120)
    kept = lab.state()
    lab.cut_seam()
    first = np.asarray(lab.run(60))
    lab.restore(kept)
    lab.cut_seam()
    again = np.asarray(lab.run(60))
    same = np.array_equal(first, again, equal_nan=True)
    print(f"from the kept state at step {kept.steps}, the cut ran the same bit for bit: {same}")
    assert same


def main() -> None:
    path = sys.argv[1] if len(sys.argv) > 1 else "sweep_plot_compare.png"
    plot(sweep(), path)
    compare()


if __name__ == "__main__":
    main()
