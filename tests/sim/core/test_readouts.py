"""Readout definitions on hand-made configurations: sag, volume, speeds, max stretch, links,
faces."""

import math

import numpy as np
import pytest
from sim_helpers import block_topology, cut, lone_particles, sheet_topology

from clothlab.sim.core import readouts
from clothlab.sim.core.parameters import Settings
from clothlab.sim.core.solver import Simulation
from clothlab.sim.document.commands import apply_to_simulation
from clothlab.sim.document.edits import seam_links
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.scene import build_simulation


def preset_simulation(name):
    return build_simulation(load_preset(name))


def _distance_to_line(point, a, b):
    # independent of the solver's cross-product form: subtract the projection
    u = (b - a) / np.linalg.norm(b - a)
    offset = point - a
    return float(np.linalg.norm(offset - offset.dot(u) * u))


def test_sag_is_distance_from_corner_line_to_lowest_top_edge_particle_in_3d():
    sim = Simulation(sheet_topology(5, 3))
    top = np.array(
        [
            [0.0, 0.0, 0.0],  # left corner
            [0.3, -0.2, 0.4],
            [0.5, -0.5, 0.2],
            [0.8, -0.9, -0.3],  # the lowest of the top edge (not the middle one)
            [1.0, 0.6, 0.5],  # right corner, higher and out of plane
        ]
    )
    sim.state.x[:5] = top
    sim.state.x[5:, 1] = -5.0  # lower rows do not count, however low
    expected = _distance_to_line(top[3], top[0], top[4])
    # by hand: |p|² − (p·b)²/|b|² = 1.54 − 0.11²/1.61
    assert expected == pytest.approx(math.sqrt(1.54 - 0.11**2 / 1.61), rel=1e-12)
    assert readouts.sag(sim) == pytest.approx(expected, rel=1e-12)
    assert sim.readouts().sag == readouts.sag(sim)


def test_sag_of_the_rest_sheet_is_zero_and_of_a_dropped_middle_is_the_drop():
    sim = Simulation(sheet_topology(5, 3))
    assert readouts.sag(sim) == 0.0
    sim.state.x[2, 1] -= 0.37
    assert readouts.sag(sim) == pytest.approx(0.37, rel=1e-12)


def test_sag_is_nan_without_a_sheet_and_volume_nan_without_a_block():
    assert math.isnan(readouts.sag(Simulation(block_topology())))
    assert math.isnan(readouts.volume(Simulation(sheet_topology(3, 2))))


@pytest.mark.parametrize("scale", [0.5, 1.0, 1.7, 3.0])
def test_volume_of_a_scaled_block_is_0_512_s_cubed(scale):
    sim = Simulation(block_topology())
    sim.state.x[:] = sim.topology.rest_positions * scale
    assert readouts.volume(sim) == pytest.approx(0.512 * scale**3, rel=1e-12)


@pytest.mark.parametrize("shear", [0.3, -1.0, 2.5])
def test_a_sheared_block_keeps_its_volume(shear):
    sim = Simulation(block_topology())
    x = sim.topology.rest_positions.copy()
    x[:, 0] += shear * x[:, 1]
    x[:, 2] += 0.5 * shear * x[:, 0]
    sim.state.x[:] = x
    assert readouts.volume(sim) == pytest.approx(0.512, rel=1e-12)


def test_a_squashed_block_loses_volume_per_stretch_factors():
    sim = Simulation(block_topology())
    sim.state.x[:] = sim.topology.rest_positions * (1.2, 0.5, 1.0)
    assert readouts.volume(sim) == pytest.approx(0.512 * 0.6, rel=1e-12)


def test_a_unit_cube_with_its_far_corner_at_the_centre_has_volume_one_half():
    sim = Simulation(block_topology(cubes=1, side=1.0, min_corner=(0.0, 0.0, 0.0)))
    assert readouts.volume(sim) == pytest.approx(1.0, rel=1e-12)
    sim.state.x[7] = (0.5, 0.5, 0.5)
    # the six tetrahedra around the 0–7 diagonal become three pyramids with apex at the centre
    # over the faces that meet at corner 0: 3 · (1/3 · 1 · 1/2)
    assert readouts.volume(sim) == pytest.approx(0.5, rel=1e-12)


def test_max_stretch_of_a_hand_stretched_link():
    sim = Simulation(sheet_topology(2, 2))  # links 0–1, 2–3, 0–2, 1–3, 0–3, 1–2
    sim.state.x[1, 0] += 0.1  # across link 0–1: 0.2 → 0.3
    assert sim.readouts().max_stretch == pytest.approx(0.5, rel=1e-12)


def test_max_stretch_of_a_compressed_sheet_is_negative_and_zero_at_rest():
    sim = Simulation(sheet_topology(3, 3))
    assert sim.readouts().max_stretch == pytest.approx(0.0, abs=1e-15)
    sim.state.x[:] = sim.topology.rest_positions * 0.9
    assert sim.readouts().max_stretch == pytest.approx(-0.1, rel=1e-12)


def test_max_stretch_ignores_cut_links():
    sim = Simulation(sheet_topology(2, 2))
    sim.state.x[1, 0] += 0.1
    apply_to_simulation(sim, cut(sim, [0]))
    remaining = np.linalg.norm(sim.state.x[[2, 0, 1, 0, 1]] - sim.state.x[[3, 2, 3, 3, 2]], axis=1)
    rest = sim.topology.rest_lengths[1:]
    strains = (remaining - rest) / rest
    assert sim.readouts().max_stretch == pytest.approx(strains.max(), rel=1e-12)
    assert sim.readouts().max_stretch < 0.5


def test_links_readout_counts_live_links_after_cuts():
    sim = Simulation(sheet_topology(15, 11))
    assert sim.readouts().links == 584
    apply_to_simulation(sim, cut(sim, seam_links(sim.topology)))
    assert sim.readouts().links == 584 - 31
    apply_to_simulation(sim, cut(sim, [0, 1, 2, *seam_links(sim.topology)[:3].tolist()]))
    assert sim.readouts().links == 584 - 31 - 3


def test_faces_readout_counts_live_faces_after_cuts():
    """A face lives while all six of its links do: the seam's 31 links take the 10 squares of
    the middle column with them, and no others."""
    sim = Simulation(sheet_topology(15, 11))
    assert sim.readouts().faces == 14 * 10
    apply_to_simulation(sim, cut(sim, seam_links(sim.topology)))
    assert sim.readouts().faces == 140 - 10
    assert Simulation(block_topology()).readouts().faces == 6 * 16  # the block's surface


def test_max_speed_is_the_fastest_particles_speed_over_the_last_substep():
    """|x − x_prev| / h of the fastest particle, h = Δt / substeps as for motion (the mean)."""
    settings = Settings(floor=False, substeps=4, damping=1.0, gravity=0.0)
    sim = Simulation(lone_particles([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [2.0, 0.0, 0.0]]), settings)
    h = sim.settings.dt / 4
    velocities = np.array([[3.0, 0.0, 0.0], [0.0, 3.0, 4.0], [0.0, 0.0, 1.0]])
    sim.state.x_prev[:] = sim.state.x - velocities * h
    values = sim.readouts()
    assert values.max_speed == pytest.approx(5.0, rel=1e-12)  # the 3-4-5 particle
    assert values.motion == pytest.approx((3.0 + 5.0 + 1.0) / 3, rel=1e-12)
    sim.step(10)  # no forces, no damping: every particle keeps its speed
    assert sim.readouts().max_speed == pytest.approx(5.0, rel=1e-9)
    still = Simulation(lone_particles([0.0, 0.0, 0.0]))
    assert still.readouts().max_speed == 0.0 == still.readouts().motion


def test_the_fastest_particle_of_ball_start_jumps_at_tens_of_units_per_second():
    """In the first step of ball-start the ball throws particles out of it at
    about 47 units/s (up to 0.4 units in 1/120 s), where the mean speed, Motion, reads 5.5."""
    sim = preset_simulation("ball-start")
    sim.step()
    values = sim.readouts()
    speeds = np.linalg.norm(sim.state.x - sim.state.x_prev, axis=1) / sim.settings.dt
    assert values.max_speed == pytest.approx(speeds.max(), rel=1e-12)
    assert values.max_speed == pytest.approx(46.91, abs=0.01)
    assert values.motion == pytest.approx(5.55, abs=0.01)


def test_kinetic_energy_of_free_particles_tends_to_the_terminal_value():
    """½·v² per particle of mass 1, with v → g·Δt/(1 − damping) = 13.61 units/s."""
    sim = Simulation(lone_particles([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]]), Settings(floor=False))
    assert sim.readouts().kinetic_energy == 0.0
    sim.step(4000)
    terminal = 9.8 / 120.0 / (1.0 - 0.994)
    assert sim.readouts().kinetic_energy == pytest.approx(2 * 0.5 * terminal**2, rel=2e-6)


def test_kinetic_energy_counts_the_substep_velocity():
    settings = Settings(floor=False, substeps=4, damping=1.0, gravity=0.0)
    sim = Simulation(lone_particles([0.0, 0.0, 0.0]), settings)
    sim.state.x_prev[0] = (-3.0 * sim.settings.dt / 4, 0.0, 0.0)  # 3 units/s along +x
    assert sim.readouts().kinetic_energy == pytest.approx(0.5 * 9.0, rel=1e-12)
    sim.step(10)
    assert sim.readouts().kinetic_energy == pytest.approx(0.5 * 9.0, rel=1e-9)
    assert sim.readouts().motion == pytest.approx(3.0, rel=1e-9)


def test_csv_columns_carry_the_energy_readouts_and_row_0_has_no_losses():
    assert readouts.CSV_COLUMNS == (
        "step", "t", "sag", "volume", "motion", "max_speed", "max_stretch", "residual",
        "kinetic_energy", "potential_energy", "total_energy", "damping_loss", "wind_work",
        "solver_loss", "pin_force", "max_tension", "contact_force", "tip_drop", "chord_angle",
        "bending_length", "elongation", "drape_coefficient", "folds", "links", "faces",
    )  # fmt: skip
    sim = Simulation(sheet_topology(3, 2), Settings(floor=False))
    history = readouts.ReadoutHistory()
    history.append(0, sim.readouts())
    sim.step()
    history.append(1, sim.readouts())
    header, first, second = history.csv_text().splitlines()
    keys = [readouts.column_key(name) for name in header.split(",")]
    cells = dict(zip(keys, first.split(","), strict=True))
    assert [cells[k] for k in ("damping_loss", "wind_work", "solver_loss")] == ["0.0"] * 3
    assert cells["kinetic_energy"] == "0.0"
    assert float(cells["potential_energy"]) == pytest.approx(9.8 * (3 * 1.0 + 3 * 0.8))
    cells = dict(zip(keys, second.split(","), strict=True))
    assert float(cells["damping_loss"]) == 0.0  # from rest: nothing to damp yet
    assert float(cells["total_energy"]) == pytest.approx(
        float(cells["kinetic_energy"]) + float(cells["potential_energy"]), rel=1e-15
    )


def test_a_row_of_the_step_last_recorded_takes_its_place():
    """An edit, an undo or a reset while paused gives new readouts at the
    step already recorded; the record keeps one row per step, the newest state's (it used to
    keep the first and drop the rest, and the panel went on showing the old state)."""
    sim = Simulation(sheet_topology(15, 11))
    history = readouts.ReadoutHistory()
    assert history.append(0, sim.readouts())
    assert not history.append(0, sim.readouts())  # the same again changes nothing
    apply_to_simulation(sim, cut(sim, seam_links(sim.topology)))  # at step 0, paused
    assert history.append(0, sim.readouts())
    assert len(history) == 1 and history.column("links")[-1] == 553
    sim.step(2)
    history.append(1, sim.readouts())  # (a stand-in for step 1's row)
    history.append(2, sim.readouts())
    rows = np.array([readouts.row(2, sim.readouts()), readouts.row(3, sim.readouts())])
    rows[0, readouts.CSV_COLUMNS.index("links")] = 500  # step 2 again, changed, then step 3
    assert history.extend(rows)
    assert list(history.column("step")) == [0, 1, 2, 3]
    assert list(history.column("links")) == [553, 553, 500, 553]
    assert not history.extend(())  # a snapshot between rows (it raised in reshape)
    assert not history.extend(np.zeros((0, len(readouts.CSV_COLUMNS))))
    assert len(history) == 4
