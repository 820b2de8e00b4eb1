"""Settled sag and max stretch of `hanging-sheet` against passes and stiffness.

Reproduces the table in RESEARCH.md:  .venv/bin/python bench/sweep.py
"""

from __future__ import annotations

from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.scene import build_simulation

SETTLE_STEPS = 1200  # 10 s of model time: motion has died down to < 1e-6 units/s


def settled(**settings: float) -> tuple[float, float, float]:
    sim = build_simulation(load_preset("hanging-sheet"))
    for key, value in settings.items():
        sim.settings = sim.settings.with_value(key, value)
    sim.step(SETTLE_STEPS)
    r = sim.readouts()
    return r.sag, r.max_stretch, r.motion


def main() -> None:
    print("passes (stiffness 1.0)    sag      max stretch   motion")
    for passes in (1, 2, 4, 8, 16, 32, 64):
        sag, stretch, motion = settled(passes=passes)
        print(f"{passes:>6} {sag:>22.4f} {stretch:>12.2%} {motion:>10.1e}")
    print("stiffness (8 passes)      sag      max stretch   motion")
    for stiffness in (1.0, 0.8, 0.5, 0.2, 0.1, 0.05):
        sag, stretch, motion = settled(stiffness=stiffness)
        print(f"{stiffness:>6} {sag:>22.4f} {stretch:>12.2%} {motion:>10.1e}")
    print("gravity (8 passes, stiffness 1.0)")
    for gravity in (4.9, 9.8, 19.6, 39.2):
        sag, stretch, motion = settled(gravity=gravity)
        print(f"{gravity:>6} {sag:>22.4f} {stretch:>12.2%} {motion:>10.1e}")


if __name__ == "__main__":
    main()
