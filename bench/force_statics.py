"""How exactly the solver's forces obey statics: each scene is stepped until at rest
(mean speed < 1e-9 units/s), then what the pins, links and obstacles hold is set against the
weight it must balance. Prints the relative errors the tests bound by 1 %.

    .venv/bin/python bench/force_statics.py
"""

from __future__ import annotations

import numpy as np

from clothlab.sim.core.parameters import Settings
from clothlab.sim.core.solver import Simulation
from clothlab.sim.core.topology import TopologyBuilder
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.scene import build_simulation, with_settings

AT_REST = 1e-9


def settle(sim: Simulation, most: int = 40_000) -> Simulation | None:
    for _ in range(most // 500):
        sim.step(500)
        if sim.instability is not None:
            return None
        if sim.readouts().motion < AT_REST:
            return sim
    return None


def preset(name: str, **settings: object) -> Simulation:
    return build_simulation(with_settings(load_preset(name), settings))


def weight(sim: Simulation) -> float:
    """The cloth's, Σ m·g, as the forces know it."""
    return sim.forces().weight


def report(name: str, sim: Simulation | None, measure) -> None:  # type: ignore[no-untyped-def]
    if sim is None:
        print(f"{name:44} did not come to rest (no figure)")
        return
    for label, value in measure(sim):
        print(f"{name:44} {label:34} {value:10.2e}")


def pins_hold_weight(sim: Simulation) -> list[tuple[str, float]]:
    forces, w = sim.forces(), weight(sim)
    left, right = forces.pin_force
    return [("|Σ pin_y − W| / W", abs(forces.pin_total[1] - w) / w),
            ("|left_y − right_y| / W", abs(left[1] - right[1]) / w),
            ("|left_x + right_x| / W", abs(left[0] + right[0]) / w)]  # fmt: skip


def chain(n: int = 8) -> Simulation:
    builder = TopologyBuilder()
    builder.add_sheet(1, n, 0.2, (0.0, 1.0, 0.0), False)
    topology = builder.build()
    top = tuple(float(v) for v in topology.rest_positions[0])
    return Simulation(topology, Settings(floor=False), pins={0: top})


def chain_tensions(sim: Simulation) -> list[tuple[str, float]]:
    n = sim.topology.particle_count
    below = n - sim.topology.links.max(axis=1)
    expected = below * sim.settings.gravity
    error = np.abs(sim.forces().link_tension - expected) / expected
    return [("max |T_k − W_below| / W_below", float(error.max()))]


def floor_sheet() -> Simulation:
    builder = TopologyBuilder()
    builder.add_sheet(6, 5, 0.2, (0.0, -1.5, 0.0), True)
    return Simulation(builder.build(), Settings(floor_y=-1.6))


def contact_holds_weight(sim: Simulation) -> list[tuple[str, float]]:
    w = weight(sim)
    return [("|Σ contact − W| / W", abs(sim.forces().contact_total - w) / w)]


def main() -> None:
    for xpbd in (False, True):
        for passes in (8, 32):
            name = f"hanging-sheet, {'XPBD' if xpbd else 'classic'}, {passes} passes"
            report(name, settle(preset("hanging-sheet", xpbd=xpbd, passes=passes)),
                   pins_hold_weight)  # fmt: skip
    report("hanging-sheet, bending links", settle(preset("hanging-sheet", bending=True)),
           pins_hold_weight)  # fmt: skip
    report("shifted-pins", settle(preset("shifted-pins")), pins_hold_weight)
    report("chain of 8 from one pin", settle(chain()), chain_tensions)
    report("6 × 5 sheet lying on the floor", settle(floor_sheet()), contact_holds_weight)
    report("drop: on the ball and the floor", settle(preset("drop")), contact_holds_weight)


if __name__ == "__main__":
    main()
