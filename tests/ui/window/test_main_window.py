"""The main window: docks and their persistence, menus, title, bad files, GL failure."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from PySide6.QtCore import QByteArray, Qt
from PySide6.QtWidgets import QDockWidget, QMessageBox
from qt_helpers import WAIT_MS, a_frame_drawn, settle, ticks_pass

from clothlab.sim.document.presets import preset_names, preset_path
from clothlab.sim.document.scene import load_scene
from clothlab.ui.window import main_window
from clothlab.ui.window.main_window import settings
from tests.ui.docks.test_scene_model import find_value

# make_window (a shown window on a preset, closed and shut down after the test): tests/conftest.py


@pytest.fixture
def message_boxes(monkeypatch):
    """Record message boxes instead of showing them (a modal box would block the test)."""
    shown: list[tuple[str, str]] = []

    def record(_parent, title, text, *args, **kwargs):
        shown.append((title, text))
        return QMessageBox.StandardButton.Ok

    monkeypatch.setattr(QMessageBox, "warning", record)
    monkeypatch.setattr(QMessageBox, "critical", record)
    return shown


def test_docks_have_names_and_are_listed_in_view_panels(make_window):
    window = make_window()
    names = {dock.objectName() for dock in window.findChildren(QDockWidget)}
    assert names == {
        "scene_dock", "parameters_dock", "readouts_dock", "history_dock", "questions_dock",
        "compare_dock", "probes_dock", "stopwatch_dock", "validation_dock",
    }  # fmt: skip
    panel_texts = [action.text() for action in window.panels_menu.actions()]
    assert panel_texts == ["Scene", "Parameters", "Readouts", "History", "Questions", "Compare",
                           "Probes", "Stopwatch", "Validation"]  # fmt: skip


def test_a_new_panel_is_a_class_and_one_row_of_the_docks_table(make_window, monkeypatch):
    """The row alone gives the dock, its View ▸ Panels entry, its tab in the default layout,
    the document and the frames (a Panel), and its requests' one way."""
    from PySide6.QtCore import Signal
    from PySide6.QtWidgets import QLabel

    from clothlab.sim.document.commands import SetSpeed
    from clothlab.ui.window import dock_table

    class CountingPanel(QLabel):
        command_requested = Signal(object)

        def __init__(self) -> None:
            super().__init__("counting")
            self.scenes = 0

        def show_scene(self, scene) -> None:
            self.scenes += 1

        def show_edit(self, scene, command) -> None:
            pass

        def show_snapshot(self, snapshot) -> None:
            pass

    row = dock_table.DockRow("counting", "Counting", lambda parts: CountingPanel(),
                             dock_table.RIGHT, tab_after="compare")  # fmt: skip
    monkeypatch.setattr(dock_table, "DOCKS", (*dock_table.DOCKS, row))
    window = make_window(paused=True, fresh=True)  # built with the patched docks table
    dock = window.findChild(QDockWidget, "counting_dock")
    assert dock is not None and dock in window.docks  # shown by default: Reset layout shows it
    assert window.panels_menu.actions()[-1] is dock.toggleViewAction()
    assert dock in window.tabifiedDockWidgets(window.compare_dock)
    panel = dock.widget()
    assert panel.scenes >= 1  # the preset the window opened
    panel.command_requested.emit(SetSpeed(2.0))
    assert window.controller.speed == 2.0


def test_menus_offer_the_documented_commands(make_window):
    window = make_window()
    menus = {
        action.text().replace("&", ""): [a.text().replace("&", "") for a in action.menu().actions()]
        for action in window.menuBar().actions()
    }
    assert list(menus) == ["File", "Edit", "Add", "View", "Simulation", "Lab", "Help"]
    assert menus["Lab"] == ["Validate fabrics…", "Fit my fabric…", "Class results…"]
    assert menus["Add"][:5] == ["Sheet", "Disc", "Soft block", "", "Sphere"]  # "" separates
    for item in ("Duplicate body", "Remove selected", "Pin selected sheet"):
        assert item in menus["Edit"]
    for item in ("New", "New from preset", "Open…", "Open recent", "Save", "Save As…", "Revert",
                 "Close", "Export readouts CSV…", "Export positions…", "Save screenshot…",
                 "Quit", "Open question set…", "New question set…"):  # fmt: skip
        assert item in menus["File"]
    assert "Leave class mode" in menus["View"]
    assert menus["Edit"][0].startswith("Undo") and menus["Edit"][1].startswith("Redo")
    for item in ("Panels", "Reset layout", "Wireframe", "Stretch colours", "Reset camera"):
        assert item in menus["View"]
    for item in ("Play", "Step", "Reset", "Speed"):
        assert item in menus["Simulation"]
    for item in ("Keyboard shortcuts", "User guide (README)", "Model notes (RESEARCH)",
                 "About Cloth Lab"):  # fmt: skip
        assert item in menus["Help"]
    assert len(window.preset_menu.actions()) == len(preset_names())


def test_shortcuts(make_window):
    window = make_window()
    keys = {a.text().replace("&", ""): a.shortcut().toString() for a in window.actions()}
    assert keys["Play"] == "Space"
    assert keys["Reset"] == "Ctrl+R"
    assert window.action_step.shortcut().toString() == "."
    rows = dict(window.shortcut_rows())
    assert rows["Play"] == "Space"
    assert rows["Orbit the camera (in the 3D view)"] == "Arrows"


def test_keys_drive_the_simulation(qtbot, make_window):
    window = make_window()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: window.controller.latest is not None, timeout=WAIT_MS)
    window.viewport.setFocus()
    qtbot.keyClick(window.viewport, Qt.Key.Key_Period)
    qtbot.waitUntil(lambda: window.controller.latest.steps == 1, timeout=WAIT_MS)
    # Right orbits the camera in the 3D view; '.' alone steps
    yaw = window.viewport.camera.yaw
    qtbot.keyClick(window.viewport, Qt.Key.Key_Right)
    assert window.viewport.camera.yaw != yaw
    ticks_pass(qtbot, window.controller)
    assert window.controller.latest.steps == 1
    with qtbot.waitSignal(window.controller.running_changed, timeout=WAIT_MS):
        qtbot.keyClick(window.viewport, Qt.Key.Key_Space)
    assert window.controller.running
    # in the scene tree, Right opens a group, neither stepping nor orbiting
    with qtbot.waitSignal(window.controller.running_changed, timeout=WAIT_MS):
        qtbot.keyClick(window.viewport, Qt.Key.Key_Space)
    settle(window.controller)  # a snapshot posted just before the pause may still be on its way
    window.scene_dock.raise_()
    tree = window.scene_panel.view
    tree.setFocus()
    tree.collapseAll()
    tree.setCurrentIndex(window.scene_model.index(0, 0))
    steps = window.controller.latest.steps
    qtbot.keyClick(tree, Qt.Key.Key_Right)
    assert tree.isExpanded(window.scene_model.index(0, 0))
    ticks_pass(qtbot, window.controller)
    assert window.controller.latest.steps == steps


def test_layout_round_trip(make_window):
    window = make_window()
    window.readouts_dock.hide()
    window.scene_dock.setFloating(True)
    window.save_layout()
    window.controller.shutdown()
    window.close()

    again = make_window()
    assert not again.readouts_dock.isVisible()
    assert again.scene_dock.isFloating()
    again.reset_layout()
    assert again.readouts_dock.isVisible()
    assert not again.scene_dock.isFloating()


@pytest.mark.parametrize(
    "garbage",
    [QByteArray(b"\x00\xffnot a state at all" * 7), QByteArray(), "a string", 42],
)
def test_garbage_in_stored_layout_gives_the_default_layout(make_window, garbage):
    stored = settings()
    stored.setValue("window/state", garbage)
    stored.setValue("window/geometry", garbage)
    stored.sync()
    window = make_window()
    for dock in window.docks:
        assert dock.isVisible()
        assert not dock.isFloating()
    assert window.dockWidgetArea(window.readouts_dock) == Qt.DockWidgetArea.RightDockWidgetArea


def test_title_follows_scene_and_undo_stack(qtbot, make_window):
    window = make_window()
    assert window.windowTitle() == "Hanging sheet[*] — Cloth Lab"
    assert not window.isWindowModified()
    window.controller.set_setting("wind", 5.0)
    assert window.isWindowModified()
    assert window.action_undo.text().replace("&", "") == "Undo Set wind"
    window.action_undo.trigger()
    assert not window.isWindowModified()
    assert window.controller.scene.wind.strength == 0.0


def test_parameter_change_reaches_document_and_solver(qtbot, make_window):
    window = make_window()
    window.parameters_panel.editors["passes"].setValue(20)
    assert window.controller.scene.solver.passes == 20
    qtbot.waitUntil(
        lambda: (
            window.controller.latest is not None and window.controller.latest.settings.passes == 20
        ),
        timeout=WAIT_MS,
    )
    # the scene tree shows the same document
    assert find_value(window.scene_model, ("setting", "passes")).data() == "20"


def test_opening_a_corrupt_file_keeps_the_current_scene(make_window, message_boxes, tmp_path):
    window = make_window()
    before = window.controller.scene
    bad = tmp_path / "broken.json"
    bad.write_text('{"format": "clothlab-scene", "schema_version": 1, "bodies": [{"kind": ')
    assert not window.files.open_path(bad)
    assert window.controller.scene is before
    assert window.windowTitle() == "Hanging sheet[*] — Cloth Lab"
    assert len(message_boxes) == 1
    title, text = message_boxes[0]
    assert title == "Cannot open scene"
    assert "broken.json" in text and "\n" not in text


def test_opening_a_good_file_adds_it_to_recent_files(make_window, message_boxes, tmp_path):
    window = make_window()
    good = tmp_path / "flag copy.json"
    good.write_bytes(preset_path("flag").read_bytes())
    assert window.files.open_path(good)
    assert window.controller.path == good
    assert window.recent_files() == [str(good.resolve())]
    window._fill_recent_menu()
    assert window.recent_menu.actions()[0].text() == "&1 flag copy.json"
    assert not message_boxes


def test_save_writes_the_edited_scene(make_window, tmp_path):
    window = make_window()
    window.controller.set_setting("ball", True)
    path = tmp_path / "saved.json"
    assert window.files.save_to(path)
    assert not window.isWindowModified()
    saved = load_scene(path)
    assert saved.ball.enabled
    assert window.windowTitle() == "saved.json[*] — Hanging sheet — Cloth Lab"


def test_gl_failure_shows_a_message_instead_of_the_view(make_window):
    window = make_window()
    window.viewport.gl_failed.emit("no OpenGL 3.3 context")
    assert window.central.currentWidget() is window.gl_message
    assert "no OpenGL 3.3 context" in window.gl_message.text()


def test_status_bar_reports_time_particles_and_links(qtbot, make_window):
    window = make_window()
    window.controller.set_running(True)
    qtbot.waitUntil(
        lambda: window.controller.latest is not None and window.controller.latest.t > 0.1,
        timeout=WAIT_MS,
    )
    window._update_status()
    assert window.status.count_label.text() == "165 particles · 584 links"
    assert window.status.time_label.text().startswith("t = ")
    qtbot.waitUntil(lambda: "real time" in window.status.factor_label.text(), timeout=WAIT_MS)


def test_play_pause_and_speed_actions(qtbot, make_window):
    window = make_window()
    with qtbot.waitSignal(window.controller.running_changed, timeout=WAIT_MS):
        window.action_play.trigger()
    assert window.action_play.text() == "&Pause"
    assert not window.action_step.isEnabled()
    window.speed_actions[0.25].trigger()
    assert window.controller.speed == 0.25
    assert window.speed_box.currentText() == "¼×"
    with qtbot.waitSignal(window.controller.running_changed, timeout=WAIT_MS):
        window.action_play.trigger()
    assert window.action_step.isEnabled()


def test_window_image_shows_the_cloth(qtbot, make_window, tmp_path):
    window = make_window()
    qtbot.waitUntil(lambda: window.controller.latest is not None, timeout=WAIT_MS)
    a_frame_drawn(qtbot, window.viewport)
    path = tmp_path / "shot.png"
    window.save_screenshot(path)
    assert Path(path).stat().st_size > 0


def test_icons_exist_for_toolbar_actions():
    for name in ("play", "pause", "step", "reset", "open", "save", "screenshot", "wireframe",
                 "stretch", "reset-camera"):  # fmt: skip
        assert (main_window.Path(__file__).parents[3] / "resources/icons" / f"{name}.svg").is_file()


def test_unreadable_stored_layout_warns_once_and_uses_the_default(make_window, capfd):
    stored = settings()
    stored.setValue("window/geometry", QByteArray(b"\x00garbage"))
    stored.setValue("window/state", QByteArray(b"not a dock state"))
    stored.sync()
    window = make_window()
    warnings = [line for line in capfd.readouterr().err.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "layout" in warnings[0]
    assert all(not dock.isFloating() for dock in window.docks)


def test_reset_settings_clears_what_was_stored(tmp_path):
    import os
    import subprocess
    import sys

    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path)}
    ini = tmp_path / "ClothLab" / "Cloth Lab.conf"
    ini.parent.mkdir(parents=True)
    ini.write_text("[General]\nrecent_files=/nowhere/a.json\n")
    shot = tmp_path / "shot.png"
    result = subprocess.run(
        [sys.executable, "-m", "clothlab.app.gui", "--reset-settings", "--screenshot", str(shot),
         "--after", "0.5"],
        env=env, capture_output=True, text=True, timeout=300,
        cwd=Path(__file__).resolve().parents[3],
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "settings cleared" in result.stderr and shot.exists()
    assert "recent_files" not in ini.read_text()


def test_the_readouts_keep_the_rows_of_snapshots_the_window_did_not_draw(qtbot, make_window):
    """The window draws at most FRAME_HZ snapshots a second and dropped the
    readout rows of those it did not draw (27 gaps in 716 steps of the default scene at 1x, seen
    in the real window), so Export CSV skipped steps where `clothlab run --csv` has one row per
    step. Two snapshots arriving between two frames: both one's rows reach the plots."""
    import numpy as np

    from clothlab.sim.document.presets import load_preset
    from clothlab.sim.lab.engine import Engine

    window = make_window("hanging-sheet", paused=True)
    controller = window.controller
    qtbot.waitUntil(lambda: controller.latest is not None, timeout=WAIT_MS)
    engine = Engine(load_preset("hanging-sheet"))
    engine.advance(3)
    first = engine.snapshot(frame=1, load=controller.latest.load)  # the rows of steps 0 … 3
    engine.advance(3)
    second = engine.snapshot(frame=2, load=controller.latest.load)  # 4 … 6
    controller.snapshot_changed.emit(first)
    controller.snapshot_changed.emit(second)  # before the frame clock draws the first
    history = window.readouts_panel.history
    qtbot.waitUntil(lambda: len(history) and history.column("step")[-1] == 6, timeout=WAIT_MS)
    assert np.array_equal(history.column("step"), np.arange(7))


def test_the_exported_readouts_equal_the_cli_csv_row_for_row(qtbot, make_window, tmp_path):
    """Export CSV of a run equals `clothlab run --csv` of the same run."""
    import subprocess
    import sys

    from clothlab.sim.document.commands import Step

    window = make_window("hanging-sheet", paused=True)
    controller = window.controller
    qtbot.waitUntil(lambda: controller.latest is not None, timeout=WAIT_MS)
    controller.submit(Step(120))
    history = window.readouts_panel.history
    qtbot.waitUntil(lambda: len(history) and history.column("step")[-1] == 120, timeout=WAIT_MS)
    cli = tmp_path / "cli.csv"
    command = ["run", "hanging-sheet", "--steps", "120", "--csv", str(cli)]
    subprocess.run([sys.executable, "-m", "clothlab.app.main", *command], check=True,
                   capture_output=True, timeout=300)  # fmt: skip
    assert history.csv_text() == cli.read_text()


def test_the_exported_readouts_carry_the_probes_columns_as_the_cli_csv(
    qtbot, make_window, tmp_path
):
    """A probed scene's Export CSV has the probes' columns, row for row as
    `clothlab run --csv` writes them."""
    import subprocess
    import sys

    from clothlab.sim.document.commands import Step
    from clothlab.sim.document.presets import load_preset
    from clothlab.sim.document.scene import save_scene

    scene = load_preset("hanging-sheet").model_copy(update={"probes": [7, 152]})
    path = tmp_path / "probed.json"
    save_scene(scene, path)
    window = make_window("hanging-sheet", paused=True)
    controller = window.controller
    qtbot.waitUntil(lambda: controller.latest is not None, timeout=WAIT_MS)
    first = controller.latest.load  # loads are counted over the window's life
    controller.load(scene)
    qtbot.waitUntil(lambda: controller.latest is not None and controller.latest.load > first,
                    timeout=WAIT_MS)  # fmt: skip
    controller.submit(Step(120))
    history = window.readouts_panel.history
    qtbot.waitUntil(lambda: len(history) and history.column("step")[-1] == 120, timeout=WAIT_MS)
    cli = tmp_path / "cli.csv"
    command = ["run", str(path), "--steps", "120", "--csv", str(cli)]
    subprocess.run([sys.executable, "-m", "clothlab.app.main", *command], check=True,
                   capture_output=True, timeout=300)  # fmt: skip
    exported = history.csv_text()
    assert "probe2_tension" in exported.splitlines()[0]
    assert exported == cli.read_text()


# --- the readouts of the state shown ---------------------------------------------------------


def dock_text(window) -> dict[str, str]:
    """What the Readouts dock shows now: every value beside a visible plot, the counts under the
    plots and the time."""
    panel = window.readouts_panel
    shown = {k: label.text() for k, label in panel.value_labels.items() if label.isVisibleTo(panel)}
    counts = {k: label.text() for k, label in panel.count_labels.items()}
    return {**shown, **counts, "t": panel.time_label.text()}


def readouts_text(window, snapshot) -> dict[str, str]:
    """What the Readouts dock should show for `snapshot`, written as the dock writes it."""
    from clothlab.sim.core.readouts import shown_scale
    from clothlab.ui.docks.readouts_dock import COUNTS, READOUTS_BY_KEY, value_text

    panel = window.readouts_panel
    scale = {k: shown_scale(readout, panel.si) for k, readout in READOUTS_BY_KEY.items()}
    expected = {
        k: value_text(k, getattr(snapshot.readouts, k) * scale[k], panel.si)
        for k, label in panel.value_labels.items()
        if label.isVisibleTo(panel)
    }
    counts = {c.key: getattr(snapshot.readouts, c.key) for c in COUNTS}
    expected.update(
        {c.key: f"{c.label} {'—' if math.isnan(counts[c.key]) else counts[c.key]}" for c in COUNTS}
    )
    expected["t"] = f"t = {snapshot.readouts.t:.2f} s · step {snapshot.steps}"
    return expected


def test_every_reset_load_and_undo_while_paused_shows_the_readouts_of_the_state_shown(
    qtbot, make_window
):
    """History ▸ "Scene as loaded" then Ctrl+R while paused showed 218 % max
    stretch for an unstretched sheet until a step was taken. Paused throughout, after each
    reset (Ctrl+R), load (File ▸ New, New from preset), edit and undo (Ctrl+Z of a cut and of
    a pin move), the Readouts dock shows the readouts of the snapshot the 3D view shows, and
    its newest recorded row is that snapshot's."""
    import numpy as np
    from PySide6.QtTest import QTest

    from clothlab.sim.core.readouts import row
    from clothlab.sim.document.edits import SetPin

    window = make_window("hanging-sheet", paused=True)
    controller, viewport = window.controller, window.viewport
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=WAIT_MS)
    ctrl = Qt.KeyboardModifier.ControlModifier

    def shows(condition, what: str) -> None:
        """Wait for the 3D view to show a state for which `condition(snapshot)` holds, then
        for the dock to show that state's readouts (a stale dock never does)."""
        qtbot.waitUntil(
            lambda: viewport.snapshot() is not None and condition(viewport.snapshot()),
            timeout=WAIT_MS,
        )
        assert not controller.running, what
        shown = viewport.snapshot()
        try:
            qtbot.waitUntil(lambda: dock_text(window) == readouts_text(window, shown), timeout=2000)
        except Exception:
            raise AssertionError(
                f"{what}: the dock shows {dock_text(window)}, the state shown has "
                f"{readouts_text(window, shown)}"
            ) from None
        newest = window.readouts_panel.history.rows[-1]
        assert np.array_equal(newest, row(shown.steps, shown.readouts), equal_nan=True), what

    def key(k, modifier=Qt.KeyboardModifier.NoModifier) -> None:
        viewport.setFocus()
        QTest.keyClick(viewport, k, modifier)

    shows(lambda s: s.steps == 0, "loaded")
    for _ in range(20):
        key(Qt.Key.Key_Period)  # Step
    shows(lambda s: s.steps == 20, "20 steps")

    window.action_seam.trigger()  # at step 20: 553 links, the same step
    shows(lambda s: s.readouts.links == 553, "seam cut at step 20")
    key(Qt.Key.Key_Z, ctrl)
    shows(lambda s: s.readouts.links == 584, "Ctrl+Z of the cut at step 20")

    pin = controller.scene.pins[0]
    moved = (pin.anchor[0] - 0.6, pin.anchor[1], pin.anchor[2])  # outwards: 121 % at a step

    def anchored_at(snapshot, where) -> bool:
        k = list(snapshot.pin_index).index(pin.particle)
        return bool(np.allclose(snapshot.pin_anchor[k], where))

    controller.submit(
        SetPin(pin.particle, moved, pin.anchor)
    )  # what a drag of the Pin tool ends in
    shows(lambda s: anchored_at(s, moved), "pin moved at step 20 (its particle follows at a step)")
    key(Qt.Key.Key_Period)
    shows(lambda s: s.steps == 21 and s.readouts.max_stretch > 1.0, "a step with the pin moved")
    key(Qt.Key.Key_Z, ctrl)
    shows(lambda s: anchored_at(s, pin.anchor), "Ctrl+Z of the pin move")
    key(Qt.Key.Key_Period)
    shows(lambda s: s.steps == 22 and s.readouts.max_stretch < 1.0, "a step with the pin back")

    key(Qt.Key.Key_R, ctrl)  # Reset
    shows(lambda s: s.steps == 0 and s.readouts.links == 584, "Ctrl+R")
    window.action_seam.trigger()  # at step 0
    shows(lambda s: s.steps == 0 and s.readouts.links == 553, "seam cut at step 0")
    key(Qt.Key.Key_R, ctrl)
    shows(lambda s: s.steps == 0 and s.readouts.links == 553, "Ctrl+R after the cut")
    window.history_dock.raise_()  # History ▸ "Scene as loaded", then Ctrl+R (the report)
    view = window.history_view
    qtbot.waitUntil(lambda: not view.visibleRegion().isEmpty(), timeout=WAIT_MS)
    centre = view.visualRect(view.model().index(0, 0)).center()
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=centre)
    shows(lambda s: s.readouts.links == 584, "History ▸ Scene as loaded")
    key(Qt.Key.Key_R, ctrl)
    shows(lambda s: s.steps == 0 and s.readouts.links == 584, "Ctrl+R after Scene as loaded")

    key(Qt.Key.Key_N, ctrl)  # File ▸ New: a blank scene, one sheet, no pins
    shows(lambda s: s.steps == 0 and not len(s.pin_index), "File ▸ New")
    for _ in range(5):
        key(Qt.Key.Key_Period)
    shows(lambda s: s.steps == 5, "5 steps of the new scene")
    soft_block = next(a for a in window.preset_menu.actions() if "soft" in a.text().lower())
    soft_block.trigger()  # File ▸ New from preset ▸ Soft block
    shows(lambda s: s.steps == 0 and bool(s.topology.blocks), "New from preset ▸ Soft block")
    key(Qt.Key.Key_R, ctrl)
    shows(lambda s: s.steps == 0 and bool(s.topology.blocks), "Ctrl+R of the soft block")
