"""Forces in the window: pin-force arrows, the tension map with its legend, and each
pin's force in the Scene panel, drawn from the solver's forces (sim.core.forces)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from clothlab.sim.core.snapshot import take_snapshot
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.scene import build_simulation
from clothlab.sim.lab import textile
from clothlab.ui.docks import scene_model
from clothlab.ui.docks.scene_model import SceneModel
from clothlab.ui.viewport import force_overlay, meshes
from tests.ui.viewport.test_viewport_gl import HEIGHT, WIDTH, render, rgb_at, viewport  # noqa: F401

pytestmark = pytest.mark.gl


@pytest.fixture(scope="module")
def settled():
    """The hanging sheet after 3 s: its pins hold 1 617 units of weight between them."""
    sim = build_simulation(load_preset("hanging-sheet"))
    sim.step(360)
    return take_snapshot(sim, frame=1)


def test_each_pin_gets_an_arrow_along_its_force_labelled_with_its_size(settled, viewport):  # noqa: F811
    viewport.set_camera(load_preset("hanging-sheet").camera)
    arrows = force_overlay.pin_arrows(settled, viewport.project)
    assert len(arrows) == 2
    left, right = sorted(arrows, key=lambda a: a.start.x())
    for arrow, outwards in ((left, -1.0), (right, 1.0)):
        assert arrow.end.y() < arrow.start.y()  # up the screen: the pins hold the sheet up
        assert (arrow.end.x() - arrow.start.x()) * outwards > 0.0  # and pull it outwards
    sizes = np.linalg.norm(settled.pin_force, axis=1)
    # particles of mass 1: model forces, not newtons
    assert {a.label for a in arrows} == {f"{s:.3g} mass·units/s²" for s in sizes}
    # an arrow as long as the cloth's weight would be WEIGHT_REACH of its size: each holds ~½
    world = np.linalg.norm(settled.pin_force, axis=1) / settled.forces.weight
    assert np.all((world > 0.4) & (world < 0.7))


def test_no_arrows_before_the_first_step():
    snapshot = take_snapshot(build_simulation(load_preset("hanging-sheet")), frame=0)
    assert snapshot.forces is None and np.isnan(snapshot.pin_force).all()
    assert force_overlay.pin_arrows(snapshot, lambda p: p[:, :2]) == []


def test_the_tension_map_is_red_where_the_pins_pull_and_blue_where_nothing_does(settled):
    mesh = meshes.BodyMesh(settled.topology)
    mesh.update(settled, meshes.TENSION, wireframe=False)
    tension = settled.link_tension
    assert mesh.tension_scale == pytest.approx(tension.max())
    assert mesh.tension_unit == "mass·units/s²"  # a model run's link pulls
    colours = mesh.dynamic[:, 6:9].copy()
    pinned = int(settled.pin_index[0])
    bottom = settled.topology.particle_count - 1  # a bottom corner: held by nothing below it
    assert colours[pinned, 0] > 0.9 and colours[pinned, 2] < 0.2  # red
    assert colours[bottom, 2] > 0.8 and colours[bottom, 0] < 0.45  # blue
    mesh.update(settled, meshes.STRETCH, wireframe=False)  # the stretch map differs from it
    assert not np.allclose(mesh.dynamic[:, 6:9], colours)


def test_an_si_fabrics_tension_map_is_per_unit_length_the_same_at_any_resolution():
    """Across a hanging SI strip's clamp the map's top is the tension per unit width (N/m),
    ρ·g·(L − s/2) whatever the spacing s; a link's own pull halves as the strip is refined."""
    scales, pulls = [], []
    for segments in (10, 20):
        sim = build_simulation(textile.hanging_strip_scene("cotton", 0.5, segments))
        sim.step(300)  # settled: its damping is high
        snapshot = take_snapshot(sim, frame=1)
        mesh = meshes.BodyMesh(snapshot.topology)
        mesh.update(snapshot, meshes.TENSION, wireframe=False)
        assert mesh.tension_unit == "N/m"
        scales.append(mesh.tension_scale)
        pulls.append(float(np.nanmax(snapshot.link_tension)))
    assert scales[0] == pytest.approx(scales[1], rel=0.05)
    assert pulls[1] == pytest.approx(pulls[0] / 2, rel=0.1)


def test_an_si_fabrics_pins_are_labelled_in_newtons(viewport):  # noqa: F811
    scene = textile.hanging_strip_scene("cotton")
    sim = build_simulation(scene)
    sim.step(30)
    viewport.set_camera(scene.camera)
    labels = [a.label for a in force_overlay.pin_arrows(take_snapshot(sim, 1), viewport.project)]
    assert labels and all(label.endswith(" N") for label in labels)


def test_the_view_draws_the_arrows_and_the_legend_over_the_cloth(qtbot, viewport, settled):  # noqa: F811
    viewport.set_camera(load_preset("hanging-sheet").camera)
    plain = render(qtbot, viewport, settled)
    viewport.set_pin_forces(True)
    viewport.set_tension_colors(True)
    drawn = render(qtbot, viewport, take_snapshot_again(settled))
    arrow = force_overlay.pin_arrows(settled, viewport.project)[0]
    middle = np.array(
        [(arrow.start.x() + arrow.end.x()) / 2, (arrow.start.y() + arrow.end.y()) / 2]
    )
    assert rgb_at(drawn, middle)[2] < 120 < rgb_at(drawn, middle)[0]  # the arrow's yellow
    assert not rgb_at(plain, middle)[0] > 200
    legend = np.array([force_overlay.MARGIN_PX + 10, HEIGHT - force_overlay.MARGIN_PX - 20])
    assert rgb_at(drawn, legend)[2] > 150  # the ramp's blue end, over the dark backdrop
    viewport.set_stretch_colors(True)  # one map at a time
    assert viewport.stretch_colors() and not viewport.tension_colors()


def take_snapshot_again(snapshot):
    """The same state as a new frame, so the view draws it again."""
    return replace(snapshot, frame=snapshot.frame + 1)


def pin_force_texts(model: SceneModel) -> list[str]:
    pins = model._pins
    rows = [pins.child(k, 0) for k in range(pins.rowCount())]
    return [scene_model._reading(row, scene_model.FORCE_LABEL).text() for row in rows]


def test_the_scene_panel_lists_each_pins_force(settled):
    model = SceneModel()
    model.set_scene(load_preset("hanging-sheet"))
    assert pin_force_texts(model) == ["—", "—"]
    model.show_pin_forces(settled)
    texts = pin_force_texts(model)
    sizes = np.linalg.norm(settled.pin_force, axis=1)
    assert [t.split(" mass·units/s²  (")[0] for t in texts] == [f"{s:.4g}" for s in sizes]
    assert all(t.endswith(")") for t in texts)
    first = model._pins.child(0, 0)
    assert not scene_model._reading(first, scene_model.FORCE_LABEL).isEditable()


def test_the_scene_panel_shows_what_the_ball_and_the_floor_push_with():
    scene = load_preset("drop")
    sim = build_simulation(scene)
    sim.step(150)  # 1.25 s: the sheet lies on the ball
    snapshot = take_snapshot(sim, frame=1)
    model = SceneModel()
    model.set_scene(scene)
    model.show_forces(snapshot)
    rows = model._contact_rows()
    assert set(rows) == {"ball", "floor"}
    label = scene_model.CONTACT_LABEL
    shown = {name: scene_model._reading(row, label).text() for name, row in rows.items()}
    assert shown["ball"] == f"{snapshot.forces.contact['ball']:.4g} mass·units/s²"
    assert snapshot.forces.contact["ball"] > 0.0


def test_a_grabbed_particle_gets_the_hands_arrow(viewport):  # noqa: F811
    sim = build_simulation(load_preset("hanging-sheet"))
    sim.step(120)
    sim.grab(160, sim.state.x[160] + np.array([0.0, 0.0, 0.5]))
    sim.step(30)
    viewport.set_camera(load_preset("hanging-sheet").camera)
    labels = [a.label for a in force_overlay.pin_arrows(take_snapshot(sim, 1), viewport.project)]
    assert len(labels) == 3 and labels[-1].startswith("hand ")
    assert labels[-1].endswith(" mass·units/s²")


def test_a_label_by_the_views_right_edge_is_drawn_whole_inside_it(settled, viewport):  # noqa: F811
    """The right pin's "905 mass·units/s²" ran past the view's edge: its label flips left."""
    from PySide6.QtCore import QPointF, QRectF
    from PySide6.QtGui import QFontMetricsF

    viewport.set_camera(load_preset("hanging-sheet").camera)
    arrows = force_overlay.pin_arrows(settled, viewport.project)
    right = max(arrows, key=lambda a: a.end.x())
    view = QRectF(0.0, 0.0, WIDTH, HEIGHT)
    metrics = QFontMetricsF(force_overlay.label_font(viewport.font()))
    for tip in (
        QPointF(WIDTH - 10.0, 60.0),  # a pin near the right edge
        QPointF(WIDTH - 10.0, 3.0),  # in the top right corner
        QPointF(WIDTH + 40.0, -20.0),  # an arrow whose tip is off the view
    ):
        width = metrics.horizontalAdvance(right.label)
        assert tip.x() + force_overlay.LABEL_OFFSET_PX + width > WIDTH  # it would run past
        box = force_overlay.label_rect(metrics, tip, right.label, view)
        assert view.contains(box), (tip, box)
        assert box.width() == pytest.approx(width)
    middle = QPointF(WIDTH / 2, HEIGHT / 2)  # with room, right of and above the tip as before
    box = force_overlay.label_rect(metrics, middle, right.label, view)
    assert box.left() == pytest.approx(middle.x() + force_overlay.LABEL_OFFSET_PX)
    assert box.bottom() < middle.y()
