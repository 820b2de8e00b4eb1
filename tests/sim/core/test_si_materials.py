"""Fabrics in SI units (sim.core.materials): masses, stretch, bending and the textile lab's
tests, checked against the heavy elastica, ρ·g·L²/(2k) and the strip's weight."""

import json
import math

import numpy as np
import pytest

from clothlab.sim.core.materials import (
    SI_FABRICS,
    SIMaterial,
    derive_mechanics,
    run_coefficients,
    substeps_for_one_solve,
    substeps_needed,
)
from clothlab.sim.core.readouts import live_strains
from clothlab.sim.core.solver import BodyMaterial, Simulation
from clothlab.sim.core.specimens import (
    chord_angle,
    elongation,
    find_cantilever,
    tip_drop,
)
from clothlab.sim.core.topology import TopologyBuilder
from clothlab.sim.document.composition import change_body
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.scene import (
    SCHEMA_VERSION,
    SceneError,
    SIMaterialSpec,
    build_simulation,
    parse_scene,
    scene_json,
    scene_settings,
    with_settings,
)
from clothlab.sim.lab import textile, variants

COTTON = SI_FABRICS["cotton"]
G = 9.8


def elastica_tip_drop(overhang: float, c: float, n: int = 1000) -> float:
    """Tip drop of an inextensible heavy cantilever clamped level at s = 0, free at s = l:
    θ'' = −(l − s)·cos θ / c³ (c³ = B / (ρ·g)), θ(0) = 0, θ'(l) = 0, solved by shooting on
    θ'(0) with RK4 and bisection; drop = ∫ sin θ ds."""

    def shoot(curvature: float) -> tuple[float, float]:
        h, theta, omega, drop = overhang / n, 0.0, curvature, 0.0

        def f(s: float, th: float, om: float) -> tuple[float, float]:
            return om, -(overhang - s) * math.cos(th) / c**3

        for i in range(n):
            s = i * h
            k1 = f(s, theta, omega)
            k2 = f(s + h / 2, theta + h / 2 * k1[0], omega + h / 2 * k1[1])
            k3 = f(s + h / 2, theta + h / 2 * k2[0], omega + h / 2 * k2[1])
            k4 = f(s + h, theta + h * k3[0], omega + h * k3[1])
            step = h / 6 * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0])
            drop += h * math.sin(theta + step / 2)
            theta += step
            omega += h / 6 * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1])
        return omega, drop

    low, high = 0.0, overhang**2 / (2 * c**3)  # the small-deflection root is below this
    for _ in range(50):
        middle = (low + high) / 2
        low, high = (low, middle) if shoot(middle)[0] > 0 else (middle, high)
    return shoot(low)[1]


def test_the_elastica_reference_is_the_small_deflection_beam_for_a_short_strip():
    # q·l⁴ / (8·B) with q / B = 1 / c³
    assert elastica_tip_drop(0.2, 1.0) == pytest.approx(0.2**4 / 8, rel=1e-3)


def settled(scene, seconds: float = 3.0) -> Simulation:
    return textile.settle(scene, seconds)


@pytest.mark.parametrize(
    ("lengths", "segments"), [(1.0, 20), (2.0, 20), (3.0, 20), (2.0, 80), (3.0, 80)]
)
def test_a_cantilever_droops_as_the_heavy_elastica(lengths, segments):
    c = COTTON.bending_length(G)
    scene = textile.cantilever_scene("cotton", lengths * c, segments)
    drop = tip_drop(settled(scene))
    assert abs(drop - elastica_tip_drop(lengths * c, c)) < 0.03 * lengths * c


def test_the_cantilever_does_not_depend_on_the_substeps():
    c = COTTON.bending_length(G)
    scene = textile.cantilever_scene("cotton", 3 * c, 20)
    needed = substeps_needed(build_simulation(scene).mechanics, scene.solver.dt)
    assert needed <= 16  # so that 16 and 64 are both counts the model runs at
    drops = [
        tip_drop(settled(with_settings(scene, {"substeps": n}))) for n in (16, 64)
    ]  # fmt: skip
    reference = elastica_tip_drop(3 * c, c)
    assert all(abs(d - reference) < 0.03 * 3 * c for d in drops)
    assert abs(drops[0] - drops[1]) < 0.01 * 3 * c


def test_a_coarse_substep_count_is_raised_to_what_the_fabric_needs():
    """Stiff bending joins the links' solve, which needs the substeps its linearisation does
    (substeps_for_one_solve); with tethers the passes alone bend it, at the substeps its runs
    need (substeps_needed), which grow as the spacing's square."""
    scene = textile.cantilever_scene("cotton", segments=20)
    sim = build_simulation(scene)
    s, mechanics = sim.settings, sim.mechanics
    assert s.substeps == 1
    bend = substeps_needed(mechanics, s.dt)
    solve = substeps_for_one_solve(mechanics, sim.topology.rest_lengths, s.dt, s.gravity)
    assert sim.model_settings.substeps == solve and 1 < solve < bend
    assert sim.model_settings.xpbd and sim.model_settings.passes >= 4
    tethered = build_simulation(with_settings(scene, {"tethers": True}))
    assert tethered.model_settings.substeps == bend


def test_an_80_segment_cantilever_needs_no_more_substeps_than_a_20_segment_one():
    """Its bending solved with its links, a cantilever of 80 segments at one bending length
    droops as the elastica at a few substeps (passes alone needed 2 121)."""
    c = COTTON.bending_length(G)
    sim = settled(textile.cantilever_scene("cotton", c, 80))
    assert sim.model_settings.substeps <= 16
    assert abs(tip_drop(sim) - elastica_tip_drop(c, c)) < 0.003 * c


def test_at_twice_its_bending_length_a_strip_droops_to_peirces_41_5_degrees():
    for name in ("silk", "cotton", "denim"):
        material = SI_FABRICS[name]
        c = material.bending_length(G)
        sim = settled(textile.cantilever_scene(name, 2 * c))
        assert chord_angle(sim) == pytest.approx(41.5, abs=1.0)
        assert sim.readouts().bending_length == pytest.approx(c, rel=0.05)


def test_a_hanging_strip_stretches_by_rho_g_l2_over_2k_and_the_clamp_holds_its_weight():
    scene = textile.hanging_strip_scene("cotton", length=1.0)
    sim = settled(scene)
    strip = scene.bodies[0]
    weight = COTTON.areal_density * strip.width * strip.height * G
    expected = COTTON.areal_density * G * strip.height**2 / (2 * COTTON.stretch_warp)
    assert elongation(sim) == pytest.approx(expected, rel=0.03)
    assert sim.readouts().pin_force == pytest.approx(weight, rel=0.01)
    forces = sim.forces()
    assert forces is not None and forces.pin_total[1] == pytest.approx(weight, rel=0.01)


@pytest.mark.parametrize("name", sorted(SI_FABRICS))
@pytest.mark.parametrize("substeps", [1, 4])
def test_solved_together_a_strips_stretch_needs_no_more_substeps(name, substeps):
    """The links solved together each substep give every fabric's stretch within 1 % at 4
    passes and one substep or four (passes alone need 64 × 8 for cotton: `converged_stretch`)."""
    material = SI_FABRICS[name]
    scene = textile.hanging_strip_scene(name, length=1.0)
    sim = settled(with_settings(scene, {"substeps": substeps, "passes": 4}))
    assert (sim.model_settings.substeps, sim.model_settings.passes) == (substeps, 4)
    expected = material.areal_density * G / (2 * material.stretch_warp)
    assert elongation(sim) == pytest.approx(expected, rel=0.01)


def sheet(cols: int, rows: int, material: SIMaterial) -> Simulation:
    builder = TopologyBuilder()
    builder.add_sheet(cols, rows, 2.8 / (cols - 1), (0.0, 1.0, 0.0), False, 0.0, 2.0 / (rows - 1))
    topology = builder.build()
    return Simulation(topology, materials=[BodyMaterial(si=material)])


def test_a_particle_weighs_its_share_of_the_area_and_the_sheet_weighs_rho_times_its_area():
    sim = sheet(15, 11, COTTON)
    mass = sim.mechanics.mass
    assert mass.sum() == pytest.approx(COTTON.areal_density * 2.8 * 2.0, rel=1e-12)
    cell = COTTON.areal_density * 0.2 * 0.2
    assert mass[0] == pytest.approx(cell / 4) and mass[16] == pytest.approx(cell)
    assert np.array_equal(sim.fixed.inv_mass, 1.0 / mass)


@pytest.mark.parametrize(("name", "segments"), [("cotton", 10), ("cotton", 20), ("leather", 20)])
def test_a_strip_is_as_stiff_whatever_its_cells(name, segments):
    """Stretch compliances scale with the mesh, and a cell's sides leave to its diagonals the
    part of the stretch they carry (leather's shear is a quarter of its stretch): a strip of
    long cells (10 segments of 10 cm, 5 cm across) or square ones stretches by ρ·g·L²/(2k).
    (Leather in cells twice as long as wide is 4 % too stiff: RESEARCH.md §8's limits.)"""
    material = SI_FABRICS[name]
    width = 0.1 if segments == 10 else None  # cells twice as long as wide, or square
    scene = textile.hanging_strip_scene(name, length=1.0, segments=segments, width=width)
    sim = settled(scene)
    expected = material.areal_density * G / (2 * material.stretch_warp)
    assert elongation(sim) == pytest.approx(expected, rel=0.03)


def hung_from_its_corners(fabric: str, cols: int, rows: int, clamp: float) -> Simulation:
    """The default sheet in `fabric` at cols × rows, held over `clamp` m at each top corner
    (0: the corner particles alone), after 4 s."""
    scene = textile.with_fabric(load_preset("hanging-sheet"), fabric)
    scene = change_body(scene, 0, cols=cols, rows=rows).scene
    sim = build_simulation(with_settings(scene, {"damping": textile.TEST_DAMPING}))
    sim.set_pins(textile.clamps(sim.topology.rest_positions, (0, cols - 1), clamp))
    sim.step(round(4.0 / sim.settings.dt))
    return sim


REFINED = [(15, 11), (29, 21), (57, 41)]  # the default sheet's square cells halved, twice


def test_refining_keeps_the_cloth():
    """Cotton hung by clamps of 20 cm at its top corners sags and shears the same at every
    resolution (the classic rule's sheet: 2 % stretch at 15 × 11, 1 224 % at 128 × 91); its
    largest strain, where the clamp's edge meets the sheet's, is a singularity of the continuum
    and grows as the grid resolves it, slowly (RESEARCH.md §8, "Refining")."""
    sims = [hung_from_its_corners("cotton", cols, rows, 0.2) for cols, rows in REFINED]
    sags = np.array([sim.readouts().sag for sim in sims])
    shears = np.array([np.percentile(live_strains(sim), 99) for sim in sims])
    assert sags.max() / sags.min() < 1.05 and sags.min() > 0.01  # it sags, as cotton does
    assert shears.max() / shears.min() < 1.05
    assert all(sim.readouts().max_stretch < 0.025 for sim in sims)
    assert all(sim.readouts().motion < 1e-5 for sim in sims)  # at rest


def test_a_point_pins_load_is_resolved_more_finely_the_finer_the_sheet():
    """Held at its two corner particles alone, the same sheet's sag grows by about as much each
    time its spacing halves, as the displacement under a point load grows with the log of the
    distance from it, while the bulk of its links shear the same."""
    sims = [hung_from_its_corners("cotton", cols, rows, 0.0) for cols, rows in REFINED]
    sags = np.array([sim.readouts().sag for sim in sims])
    growth = np.diff(sags)
    assert np.all(growth > 0) and growth.max() / growth.min() < 1.5
    shears = np.array([np.percentile(live_strains(sim), 99) for sim in sims])
    assert shears.max() / shears.min() < 1.05


def test_a_model_units_scene_has_no_si_mechanics():
    sim = build_simulation(load_preset("hanging-sheet"))
    assert not sim.mechanics.any
    assert np.array_equal(sim.fixed.inv_mass[2:14], np.ones(12))
    sim.step(5)
    assert sim.model_settings is sim.settings


# --- files and --set --------------------------------------------------------------------------


def test_a_fabric_in_si_units_round_trips_through_a_scene_file():
    scene = textile.with_fabric(load_preset("hanging-sheet"), "denim")
    again = parse_scene(scene_json(scene))
    assert again == scene
    assert again.bodies[0].si_material.material == SI_FABRICS["denim"]
    assert again.schema_version == SCHEMA_VERSION  # written as the newest version


def test_a_fabric_given_to_cloth_changes_its_fabric_and_not_its_solver():
    """`--set material=denim`: the hanging sheet (model units) and the drape meter (cotton) each
    get denim and keep their settings; tethers would hold the cloth stiffer than its fabric."""
    for name in ("hanging-sheet", "cusick-drape"):
        scene = load_preset(name)
        denim = variants.apply_changes(scene, {"material": "denim"})
        assert denim.bodies[0].si_material.name == "denim"
        assert scene_settings(denim) == scene_settings(scene) and not scene_settings(denim).tethers


@pytest.mark.parametrize("changes", [{"fabric": "denim"}, {"material": "silk", "fabric": "silk"}])
def test_a_model_units_fabric_on_si_cloth_is_refused_in_one_line(changes):
    """A model-units fabric is solver settings: given to cloth of an SI fabric it would change
    the experiment and leave the cloth's fabric as it was."""
    refusal = r"^fabric: the scene's cloth is of an SI fabric.*material=NAME"
    with pytest.raises(SceneError, match=refusal):
        variants.apply_changes(load_preset("cusick-drape"), changes)
    applied = variants.apply_changes(load_preset("hanging-sheet"), {"fabric": "denim"})
    assert applied.bodies[0].si_material is None  # model-units cloth takes it as before


def test_a_version_3_file_opens_without_si_fabrics():
    text = '{"format": "clothlab-scene", "schema_version": 3}'
    scene = parse_scene(text)
    assert scene.schema_version == SCHEMA_VERSION and scene.bodies[0].si_material is None


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ({"kind": "block", "si_material": SIMaterialSpec.of("x", COTTON).model_dump()},
         "an SI fabric is a sheet's material, not a block's"),
        ({"kind": "sheet", "si_material": {**SIMaterialSpec.of("x", COTTON).model_dump(),
                                           "areal_density": 0.0}},
         "areal_density"),
        ({"kind": "sheet", "si_material": {**SIMaterialSpec.of("x", COTTON).model_dump(),
                                           "bending_warp": float("1e400")}},
         "bending_warp"),
    ],
)  # fmt: skip
def test_a_bad_si_fabric_in_a_file_is_one_line_naming_it(body, problem):
    text = json.dumps({"format": "clothlab-scene", "schema_version": 4, "bodies": [body]})
    text = text.replace("Infinity", "1e400")
    with pytest.raises(SceneError) as error:
        parse_scene(text)
    assert problem in str(error.value) and "\n" not in str(error.value)


def test_set_material_and_its_numbers_give_every_sheet_the_fabric():
    scene = load_preset("two-sheets")
    changes = variants.parse_changes(["material=wool", "bending_rigidity=2e-5"])
    changed = variants.apply_changes(scene, changes)
    for body in changed.bodies:
        fabric = body.si_material
        assert fabric.name == "wool (changed)"
        assert fabric.areal_density == SI_FABRICS["wool"].areal_density
        assert fabric.bending_warp == fabric.bending_weft == 2e-5


def test_set_overhang_pushes_the_strip_further_and_keeps_its_fabric():
    scene = textile.cantilever_scene("denim", 0.05)
    changed = variants.apply_changes(scene, variants.parse_changes(["overhang=0.08"]))
    sim = build_simulation(changed)
    found = find_cantilever(sim.topology, sim.state.pin_index)
    assert found is not None and found.overhang == pytest.approx(0.08)
    assert changed.bodies[0].si_material.name == "denim"


@pytest.mark.parametrize(
    ("pair", "message"),
    [
        ("material=felt", "material: unknown fabric 'felt' (fabrics: silk, cotton"),
        ("areal_density=0", "areal_density: 0.0 is outside 0.001…10.0"),
        ("overhang=-1", "overhang: -1.0 is outside"),
    ],
)
def test_bad_fabric_changes_are_one_line(pair, message):
    with pytest.raises(variants.VariantError) as error:
        variants.parse_changes([pair])
    assert str(error.value).startswith(message)


def test_overhang_on_a_scene_without_a_cantilever_is_one_line():
    with pytest.raises(SceneError) as error:
        variants.apply_changes(load_preset("hanging-sheet"), {"overhang": 0.1})
    assert str(error.value).startswith("overhang: the scene holds no cantilever")


@pytest.mark.parametrize("name", sorted(textile.PRESETS))
def test_the_textile_presets_are_what_their_builders_make(name):
    assert load_preset(name) == textile.PRESETS[name]()


@pytest.mark.parametrize("bias", [None, 2.5e-5])
@pytest.mark.parametrize("degrees", [0, 30, 45, 90])
def test_a_sheet_bent_about_any_axis_resists_with_the_fabrics_rigidity_that_way(degrees, bias):
    """Bent into a cylinder of curvature κ across a line at θ to the weft, a sheet stores
    ½·B(θ)·κ²·area in its runs and twists: B(θ) = B_weft·cos⁴θ + B_warp·sin⁴θ + T·cos²θ·sin²θ,
    T = 4·B_bias − B_warp − B_weft, so B(45°) is the B_bias given, or the mean of the two
    rigidities, as the 45° bending of measured fabrics roughly is (RESEARCH.md §8). Without the
    twists it was half that."""
    material = COTTON.with_values(bending_bias=bias)
    builder = TopologyBuilder()
    builder.add_sheet(81, 81, 0.5 / 80, (0.0, 1.0, 0.0))
    topology = builder.build()
    mechanics = derive_mechanics(topology, [material])
    theta, kappa = math.radians(degrees), 2.0  # 1/m
    x = topology.rest_positions.copy()
    across = x[:, 0] * math.cos(theta) + x[:, 1] * math.sin(theta)
    x[:, 2] = 0.5 * kappa * across**2  # C is linear in x: exact for this shape
    energy = 0.0
    for members, coefficients, compliance in (
        (mechanics.curves, mechanics.curve_coefficients, mechanics.curve_compliance),
        (mechanics.twists, np.tile((1.0, -1.0, 1.0, -1.0), (len(mechanics.twists), 1)),
         mechanics.twist_compliance),
    ):  # fmt: skip
        c = np.einsum("km,kmj->kj", coefficients, x[members])
        energy += float(np.sum(0.5 * np.einsum("kj,kj->k", c, c) / compliance))
    cos2, sin2 = math.cos(theta) ** 2, math.sin(theta) ** 2
    torsion = material.torsion
    rigidity = material.bending_weft * cos2**2 + material.bending_warp * sin2**2
    rigidity += torsion * cos2 * sin2
    # the runs stop one particle short of the edges: a 80-cell sheet is 1/80 short each way
    assert energy == pytest.approx(0.5 * rigidity * kappa**2 * 0.5**2, rel=0.03)
    if degrees == 45:
        mean = 0.5 * (material.bending_warp + material.bending_weft)
        assert rigidity == pytest.approx(mean if bias is None else bias)


@pytest.mark.parametrize("right", [1.0, 0.6, 0.2])
def test_a_runs_stencil_reads_no_curvature_on_a_line_and_its_curvature_on_a_circle(right):
    # A disc's rim (moved onto its circle) leaves runs whose last spacing is short: before, the
    # stencil x_l − 2·x_i + x_r read them as bent by up to 0.22 spacings and pulled them straight.
    spacing, radius = 0.01, 0.2
    line = np.array([[[-spacing, 0.0, 0.0], [0.0, 0.0, 0.0], [right * spacing, 0.0, 0.0]]])
    weights, s = run_coefficients(line[0], np.array([[0, 1, 2]]))
    assert np.abs(np.einsum("km,kmj->kj", weights, line)).max() < 1e-15
    assert s[0] == pytest.approx(0.5 * (1.0 + right) * spacing)
    angles = np.array([-spacing, 0.0, right * spacing]) / radius
    arc = radius * np.stack([np.sin(angles), 1.0 - np.cos(angles), np.zeros(3)], axis=1)
    weights, s = run_coefficients(arc, np.array([[0, 1, 2]]))
    curvature = np.linalg.norm(weights[0] @ arc) / s[0] ** 2
    assert curvature == pytest.approx(1.0 / radius, rel=0.01)


def test_a_bias_rigidity_under_a_quarter_of_warp_and_weft_is_one_line():
    spec = SIMaterialSpec.of("cotton", COTTON)  # B 12 and 8 µN·m: at least 5 along the bias
    assert spec.replaced(bending_bias=5e-6).material.torsion == pytest.approx(0.0, abs=1e-20)
    with pytest.raises(SceneError) as refused:
        spec.replaced(bending_bias=4e-6)
    assert str(refused.value).startswith("bending_bias: 4e-06 N·m is under 5e-06 N·m, a quarter")
    assert "\n" not in str(refused.value)


def test_research_names_the_hanging_strip_preset_as_it_is():
    """RESEARCH.md said 50 mm × 1 m and 0.0588 N; the preset is 100 mm wide
    and its clamp holds 0.1176 N."""
    from pathlib import Path

    research = (Path(__file__).resolve().parents[3] / "RESEARCH.md").read_text(encoding="utf-8")
    (strip,) = load_preset("hanging-strip").bodies
    width_mm = round(strip.width * 1000)
    weight = strip.si_material.areal_density * 9.8 * strip.width * strip.height
    assert f"`hanging-strip`: {width_mm} mm × {strip.height:g} m" in research
    assert f"{weight:.4f} N for\n  the `hanging-strip` preset's" in research
    assert "0.0588 N" not in research
