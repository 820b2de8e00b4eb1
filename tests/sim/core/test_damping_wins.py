"""Damping wins: with damping < 1 and nothing driving it, a sheet or a block
comes to rest, however it was set moving — in classic mode and in XPBD.

A seam-cut half hanging from one pin, set spinning, used to spin for ever (kinetic energy 1.05
constant from t = 15 s: the passes put back, as a torque, what damping took out), and a block
squashed inside out turned at ≈ 8 units/s for ever. The mechanism is in RESEARCH.md §5."""

from __future__ import annotations

import numpy as np
import pytest

from clothlab.sim.core.solver import Simulation
from clothlab.sim.document.edits import seam_links
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.scene import build_simulation, build_topology, with_settings

XPBD = {"xpbd": True}
MODES = pytest.mark.parametrize("mode", [{}, XPBD], ids=["classic", "xpbd"])


def run_down(sim: Simulation, seconds: float) -> tuple[float, float]:
    """(peak, last) kinetic energy over `seconds` of model time."""
    peak = sim.readouts().kinetic_energy
    for _ in range(round(seconds / (sim.settings.dt * 60))):
        sim.step(60)
        peak = max(peak, sim.readouts().kinetic_energy)
    return peak, sim.readouts().kinetic_energy


def spinning_half_sheet(settings: dict, spin: float) -> Simulation:
    """hanging-sheet, seam cut, settled 5 s, then each half turned about the vertical through
    its pin at `spin` rad/s."""
    scene = with_settings(load_preset("hanging-sheet"), settings)
    sim = build_simulation(scene)
    sim.set_cut(seam_links(build_topology(scene)), True)
    sim.step(600)
    x, h = sim.state.x, sim.settings.dt / sim.settings.substeps
    for pin, anchor in sim.pins.items():
        half = np.sign(x[:, 0]) == np.sign(anchor[0])
        r = x[half] - np.asarray(anchor)
        velocity = spin * np.stack([r[:, 2], np.zeros(len(r)), -r[:, 0]], axis=1)
        sim.state.x_prev[half] = x[half] - velocity * h
        sim.state.x_prev[pin] = x[pin]
    return sim


@MODES
def test_a_spinning_half_sheet_comes_to_rest(mode):
    sim = spinning_half_sheet(mode, spin=3.0)
    peak, last = run_down(sim, 60.0)
    print(f"\nspinning halves: peak KE {peak:.3g}, after 60 s {last:.3g}")
    assert peak > 100.0  # it did spin
    assert last < 1e-6 * peak


def squashed_inside_out(settings: dict) -> Simulation:
    """soft-block with `settings`, its top-centre particle pulled down to the floor in one
    step (through the block: the cells under it turn inside out), held 1 s, let go."""
    sim = build_simulation(with_settings(load_preset("soft-block"), settings))
    sim.step(60)
    x = sim.state.x
    top = np.flatnonzero(np.isclose(x[:, 1], x[:, 1].max(), atol=0.05))
    centre = top[np.argmin(np.linalg.norm(x[top, ::2] - x[top, ::2].mean(axis=0), axis=1))]
    target = x[centre].copy()
    target[1] = sim.settings.floor_y + 0.01
    sim.grab(centre, target)
    sim.step(120)
    sim.release()
    return sim


FRICTIONLESS = {"friction_static": 0.0, "friction_kinetic": 0.0}


@pytest.mark.parametrize(
    "settings",
    [{}, XPBD, FRICTIONLESS, {**FRICTIONLESS, **XPBD}],
    ids=["preset", "xpbd", "frictionless", "frictionless-xpbd"],
)
def test_a_block_squashed_inside_out_comes_to_rest_right_side_out(settings):
    """The preset's floor friction is not what stops it: its cells come back right side out,
    and then nothing is left for the passes to fight over."""
    sim = squashed_inside_out(settings)
    peak, last = run_down(sim, 40.0)
    volume = sim.readouts().volume
    print(
        f"\nsquashed inside out {settings}: peak KE {peak:.3g}, last {last:.3g}, vol {volume:.3f}"
    )
    assert last < 1e-6 * peak
    assert volume == pytest.approx(0.512, abs=0.005)


def test_the_soft_block_preset_turns_its_cells_right_side_out():
    settings = build_simulation(load_preset("soft-block")).settings
    assert settings.upright_cells and not settings.volume_constraint


def test_a_cell_inside_out_reads_as_negative_volume():
    """The volume readout sums signed volumes: a block mirrored through its middle reads −0.512."""
    sim = build_simulation(load_preset("soft-block"))
    x = sim.state.x
    x[:, 1] = 2 * x[:, 1].mean() - x[:, 1]
    assert sim.readouts().volume == pytest.approx(-0.512)
