"""The projective fabric solve (sim.core.fabric_solve): its shear condition leaves stretch to
the fabric's k, its stencils' targets are the nearest points of their rest sets, and its
forces hold the cloth's weight at the pins."""

import json

import numpy as np
import pytest

from clothlab.sim.core import fabric_solve
from clothlab.sim.core.constraint_sets import FabricSet, LinkSet
from clothlab.sim.core.materials import SI_FABRICS, shear_coefficients
from clothlab.sim.core.parameters import LINKS_THEN_PASSES, PROJECTIVE
from clothlab.sim.core.specimens import elongation
from clothlab.sim.document.composition import change_body
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.scene import (
    SCHEMA_VERSION,
    SIMaterialSpec,
    build_simulation,
    parse_scene,
    scene_json,
    scene_settings,
    with_settings,
)
from clothlab.sim.lab import textile

G = 9.8


def strip(shear: float, solver: int):
    """A 1 m strip of stretch stiffness 40 N/m (cotton's density), clamped along its top."""
    material = SI_FABRICS["cotton"].with_values(stretch_warp=40.0, stretch_weft=40.0, shear=shear)
    scene = textile.hanging_strip_scene(SIMaterialSpec.of("custom", material), length=1.0)
    sim = textile.settle(with_settings(scene, {"fabric_solver": solver}), 3.0)
    expected = material.areal_density * G * scene.bodies[0].height ** 2 / (2 * 40.0)
    return sim, expected


def test_a_strip_stretches_by_rho_g_l2_over_2k_whatever_its_shear():
    """Shear stiffer than stretch (G = 56 N/m, k = 40 N/m): the cells' shear condition keeps
    F_u ⊥ F_v, which a pull along the strip does not change, so only k resists it."""
    sim, expected = strip(56.0, PROJECTIVE)
    assert elongation(sim) == pytest.approx(expected, rel=0.02)
    forces = sim.forces()
    assert forces is not None and forces.pin_total[1] == pytest.approx(forces.weight, rel=1e-3)


@pytest.mark.parametrize("shear", [56.0, 4.0e4])
def test_the_links_solve_leaves_a_strips_stretch_to_k_whatever_its_shear(shear):
    """The default solver holds shear by the same condition (constraints.project_cell_shear),
    its diagonals holding nothing: a strip stiffer in shear than in stretch, even a thousand
    times, stretches by ρgL²/2k. (Its diagonals carried G before, and it hung 5 % short at
    G = 56 N/m and 54 % short at 4·10⁴.)"""
    sim, expected = strip(shear, LINKS_THEN_PASSES)
    assert elongation(sim) == pytest.approx(expected, rel=0.02)
    forces = sim.forces()
    assert forces is not None and forces.pin_total[1] == pytest.approx(forces.weight, rel=1e-3)


def test_the_nearest_square_pair_is_square_and_leaves_a_square_pair_alone():
    rng = np.random.default_rng(1)
    for _ in range(100):
        u, v = rng.standard_normal(3), rng.standard_normal(3)
        p = np.array(fabric_solve._square_pair(*u, *v))
        assert abs(p[:3] @ p[3:]) < 1e-12 * (1 + u @ u + v @ v)
        # no square pair a little way along the constraint is nearer
        for _ in range(20):
            turn = 1e-3 * rng.standard_normal(3)
            a = p[:3] + turn
            b = p[3:] - (a @ p[3:]) / (a @ a) * a  # square to a again
            near = np.sum((p[:3] - u) ** 2) + np.sum((p[3:] - v) ** 2)
            assert near <= np.sum((a - u) ** 2) + np.sum((b - v) ** 2) + 1e-12
    square = (1.0, 0.0, 0.0, 0.0, 2.0, 0.0)
    assert fabric_solve._square_pair(*square) == square


def test_a_sheared_cells_energy_is_the_continuums():
    """½·w·distance² of the cell's gradient from the nearest square pair, w = 2·G·A, is
    ½·G·γ²·A for a small shear γ; a stretch alone costs nothing."""
    sx, sy = 0.02, 0.03
    rest = np.array([[0, 0, 0], [sx, 0, 0], [sx, -sy, 0], [0, -sy, 0]], dtype=float)
    coefficients = shear_coefficients(rest, np.array([[0, 1, 2, 3]]))[0]  # (2, 4)
    assert np.allclose(coefficients @ rest, [[1, 0, 0], [0, -1, 0]])
    gamma, shear, area = 1e-3, 56.0, sx * sy

    def energy(x: np.ndarray) -> float:
        u, v = coefficients @ x
        p = np.array(fabric_solve._square_pair(*u, *v))
        return 0.5 * 2 * shear * area * (np.sum((u - p[:3]) ** 2) + np.sum((v - p[3:]) ** 2))

    sheared = rest + np.outer(-rest[:, 1], [gamma, 0, 0])  # x += γ·(depth below the top)
    assert energy(sheared) == pytest.approx(0.5 * shear * gamma**2 * area, rel=1e-3)
    stretched = rest * [1.3, 0.8, 1.0]
    assert energy(stretched) == pytest.approx(0.0, abs=1e-20)


def test_the_solve_replaces_the_links_and_bending_passes_only_when_asked():
    scene = textile.with_fabric(load_preset("hanging-sheet"), "cotton")
    for solver, expected in ((LINKS_THEN_PASSES, LinkSet), (PROJECTIVE, FabricSet)):
        sim = build_simulation(with_settings(scene, {"fabric_solver": solver}))
        sim.step(2)
        assert sim._extended is not None
        active = {type(c) for c in sim._extended._active}
        assert expected in active and ({LinkSet, FabricSet} - {expected}).isdisjoint(active)
    # a model-units sheet keeps its own links whatever the setting says
    sim = build_simulation(with_settings(load_preset("hanging-sheet"), {"fabric_solver": 1}))
    sim.step(2)
    assert sim._extended is None or FabricSet not in map(type, sim._extended._active)


def test_a_sheet_on_it_hangs_as_on_the_links_solver_and_its_pins_hold_its_weight():
    sags = []
    for solver in (LINKS_THEN_PASSES, PROJECTIVE):
        scene = textile.with_fabric(load_preset("hanging-sheet"), "cotton")
        scene = change_body(scene, 0, cols=15, rows=11).scene
        scene = with_settings(scene, {"damping": textile.TEST_DAMPING, "fabric_solver": solver})
        sim = build_simulation(scene)
        sim.set_pins(textile.clamps(sim.topology.rest_positions, (0, 14), 0.2))
        assert sim.step(360) == 360
        forces = sim.forces()
        assert forces is not None
        assert forces.pin_total[1] == pytest.approx(forces.weight, rel=2e-3)
        sags.append(sim.readouts().sag)
    assert sags[1] == pytest.approx(sags[0], rel=0.01)
    assert sags[0] > 0.01  # it sags: the comparison is of something


def test_the_same_scene_gives_the_same_bits():
    def run() -> np.ndarray:
        scene = textile.with_fabric(load_preset("hanging-sheet"), "denim")
        scene = change_body(scene, 0, cols=20, rows=16).scene
        sim = build_simulation(with_settings(scene, {"fabric_solver": PROJECTIVE, "ball": True}))
        sim.step(30)
        return sim.state.x.copy()

    first, second = run(), run()
    assert np.isfinite(first).all() and np.array_equal(first, second)


def test_a_scene_file_keeps_its_fabric_solver_and_an_older_one_gets_the_links():
    scene = with_settings(load_preset("hanging-sheet"), {"fabric_solver": PROJECTIVE})
    text = scene_json(scene)
    assert json.loads(text)["schema_version"] == SCHEMA_VERSION == 8
    assert scene_settings(parse_scene(text)).fabric_solver == PROJECTIVE
    older = json.loads(text)
    older["schema_version"] = 7
    del older["solver"]["fabric_solver"]
    assert scene_settings(parse_scene(json.dumps(older))).fabric_solver == LINKS_THEN_PASSES
