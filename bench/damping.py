"""Does damping win? The scenes of tests/sim/core/test_damping_wins.py, run for a
minute of model time, printing the kinetic energy they peak at and keep. Pointed (PYTHONPATH) at an
older checkout's installed layout, it shows whether that version's link rule lets them spin.

    .venv/bin/python bench/damping.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "sim"))

from test_damping_wins import (
    FRICTIONLESS,
    XPBD,
    spinning_half_sheet,
    squashed_inside_out,
)

from clothlab.sim.core.solver import Simulation

SECONDS = (15, 30, 60)


def energies(sim: Simulation) -> tuple[float, list[float]]:
    """(peak, at each of SECONDS) kinetic energy, sampled every 60 steps."""
    peak, kept, steps = sim.readouts().kinetic_energy, [], 0
    for second in SECONDS:
        while steps * sim.settings.dt < second:
            sim.step(60)
            steps += 60
            peak = max(peak, sim.readouts().kinetic_energy)
        kept.append(sim.readouts().kinetic_energy)
    return peak, kept


def main() -> None:
    scenes = {
        "half sheets spun at 3 rad/s, classic": lambda: spinning_half_sheet({}, 3.0),
        "half sheets spun at 3 rad/s, XPBD": lambda: spinning_half_sheet(XPBD, 3.0),
        "soft-block squashed inside out": lambda: squashed_inside_out({}),
        "  the same, frictionless floor": lambda: squashed_inside_out(FRICTIONLESS),
        "  the same, XPBD": lambda: squashed_inside_out(XPBD),
    }
    header = "".join(f"{f'KE at {s} s':>12}" for s in SECONDS)
    print(f"{'scene':40}{'peak KE':>10}{header}{'volume':>9}")
    for name, build in scenes.items():
        sim = build()
        peak, kept = energies(sim)
        if sim.instability is not None:
            print(f"{name:40} blew up: {sim.instability.advice}")
            continue
        volume = sim.readouts().volume
        cells = "".join(f"{e:12.3g}" for e in kept)
        print(f"{name:40}{peak:10.3g}{cells}{volume:9.3f}")


if __name__ == "__main__":
    main()
