"""Plots a user can read values from: every Readouts plot has a labelled time axis inside the
panel and the numbers of its value axis (a flat curve too), a box with the time and values under
the pointer, names outside the data; the Compare plot drops the variants of a scene that is gone."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPalette
from PySide6.QtWidgets import QApplication, QToolTip
from qt_helpers import WAIT_MS

from clothlab.sim.core.readouts import CSV_COLUMNS
from clothlab.ui.docks.readouts_dock import PLOTS, ReadoutsPanel
from clothlab.ui.readable_plots import short_ticks, value_range
from clothlab.ui.window.preferences_dialog import apply_theme


def drawn_texts(axis) -> list[str]:
    """The tick labels pyqtgraph draws on `axis` now (it leaves out those that do not fit)."""
    image = QImage(8, 8, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        specs = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    return [text for _rect, _flags, text in specs[2]] if specs else []


def shown_plots(panel: ReadoutsPanel) -> dict:
    return {key: panel.plots[key] for key in PLOTS if panel.plots[key].isVisible()}


def test_every_shown_readouts_plot_has_a_labelled_time_axis_in_view(qtbot, make_window):
    window = make_window("hanging-sheet")
    panel = window.readouts_panel
    window.readouts_dock.raise_()
    window.controller.set_running(True)
    qtbot.waitUntil(lambda: len(panel.history) > 60, timeout=WAIT_MS)
    panel.redraw()
    plots = shown_plots(panel)
    assert len(plots) >= 4
    inside = panel.rect()
    for key, plot in plots.items():
        axis = plot.getPlotItem().getAxis("bottom")
        assert axis.isVisible() and axis.labelText == "model time (s)", key
        assert axis.label.isVisible(), key
        assert drawn_texts(axis), f"{key}: no time values drawn"
        corner = plot.mapTo(panel, QPoint(0, plot.height() - 1))
        assert inside.contains(corner), f"{key}: the time axis is cut off"


FLAT = {"sag": 0.0114, "total_energy": -15.04, "motion": 0.0, "max_speed": 0.0,
        "max_stretch": 2.159, "pin_force": 1617.0, "contact_force": 0.0, "max_tension": 0.00042,
        "tip_drop": 0.00042, "chord_angle": 41.63, "volume": 3.2}  # fmt: skip


def test_a_flat_curve_keeps_the_numbers_of_its_value_axis(qtbot):
    panel = ReadoutsPanel()
    qtbot.addWidget(panel)
    panel.resize(380, 1100)
    panel.show()
    qtbot.waitExposed(panel)
    rows = np.zeros((240, len(CSV_COLUMNS)))
    rows[:, 0] = np.arange(240)
    rows[:, 1] = rows[:, 0] / 120.0
    for key, value in FLAT.items():
        rows[:, CSV_COLUMNS.index(key)] = value
    panel.history.extend(rows)
    panel._mark_dirty()
    panel.redraw()
    for key, plot in shown_plots(panel).items():
        texts = drawn_texts(plot.getPlotItem().getAxis("left"))
        assert len(texts) >= 2, f"{key}: value axis shows {texts}"


def test_value_ranges_and_short_ticks():
    assert value_range(0.0, 0.0) == (-0.75, 0.75)
    low, high = value_range(-15.04, -15.04)
    assert low < -15.04 < high and high - low == pytest.approx(0.05 * 15.04 * 1.5)
    assert value_range(0.0, 2.0) == (-0.5, 2.5)  # a curve that varies: a quarter above, below
    assert short_ticks([0.0004, 0.00041, 0.00042], 1e-5) == ["4.0e-4", "4.1e-4", "4.2e-4"]
    assert short_ticks([0.0, 1.5e7], 5e6) == ["0", "1.5e7"]


def test_the_pointer_over_a_plot_reads_time_and_values(qtbot, make_window):
    window = make_window("hanging-sheet")
    panel = window.readouts_panel
    window.readouts_dock.raise_()
    window.controller.set_running(True)
    qtbot.waitUntil(lambda: panel.history.rows[-1, 1] > 1.0 if len(panel.history) else False,
                    timeout=WAIT_MS)  # fmt: skip
    window.controller.set_running(False)
    qtbot.waitUntil(lambda: not window.controller.running, timeout=WAIT_MS)
    panel._mark_dirty()
    panel.redraw()
    plot, hover = panel.plots["motion"], panel.hovers["motion"]
    view = plot.getPlotItem().getViewBox()
    middle = plot.mapFromScene(view.sceneBoundingRect().center())
    qtbot.mouseMove(plot.viewport(), middle)
    qtbot.waitUntil(lambda: hover.text != "", timeout=WAIT_MS)
    lines = hover.text.splitlines()
    assert lines[0].startswith("t = ") and lines[0].endswith(" s")
    assert lines[1].startswith("Motion ") and lines[1].endswith("units/s")
    assert lines[2].startswith("Fastest particle ")
    assert hover.line.isVisible()
    qtbot.waitUntil(QToolTip.isVisible, timeout=WAIT_MS)
    assert QToolTip.text() == hover.text
    t = float(lines[0][4:-2])
    assert abs(hover.line.value() - t) < 0.01
    qtbot.mouseMove(plot.viewport(), QPoint(2, 2))  # over the value axis: out of the data
    qtbot.waitUntil(lambda: hover.text == "", timeout=WAIT_MS)
    assert not hover.line.isVisible()
    qtbot.waitUntil(lambda: not QToolTip.isVisible(), timeout=WAIT_MS)


def test_curve_names_are_outside_the_data(qtbot):
    panel = ReadoutsPanel()
    qtbot.addWidget(panel)
    panel.show()
    for key, drawn in PLOTS.items():
        item = panel.plots[key].getPlotItem()
        assert item.legend is None, key  # a pyqtgraph legend sits over the curves
        for series in drawn:
            swatch = panel.swatches[series.key]
            pen = panel._curves[series.key].opts["pen"]
            assert pen.color().name() in swatch.styleSheet(), series.key


LONG_VARIANT = "friction_static=0.5,friction_kinetic=0.4"


def test_the_compare_legend_is_above_the_data_and_a_new_scene_drops_the_variants(
    qtbot, compare_window
):
    window = compare_window()
    panel, controller = window.compare_panel, window.controller
    panel.rows[0].edit.setText("passes=4")
    panel.rows[1].edit.setText(LONG_VARIANT)
    qtbot.waitUntil(lambda: controller.latest is not None, timeout=WAIT_MS)
    controller.set_running(True)
    qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.runner.runs and panel.runner.runs[0].steps > 20, timeout=WAIT_MS)
    panel.redraw()
    names = [label.text for _sample, label in panel.legend.items]
    assert names == ["as is", "passes=4", LONG_VARIANT]
    view = panel.plot.getPlotItem().getViewBox()
    legend = panel.legend.sceneBoundingRect()
    assert not legend.intersects(view.sceneBoundingRect())
    assert legend.right() <= panel.plot.viewport().width()  # no name runs off the plot
    # every run's column in view, a long name's header ending in "…" with its tooltip whole
    table = panel.table
    widths = sum(table.horizontalHeader().sectionSize(c) for c in range(table.columnCount()))
    assert table.columnCount() == 3 and widths <= table.viewport().width()
    assert table.horizontalHeaderItem(2).toolTip() == LONG_VARIANT

    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=WAIT_MS)
    window.viewport.setFocus()
    qtbot.keyClick(window.viewport, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)  # File ▸ New
    qtbot.waitUntil(lambda: not panel.runner.runs, timeout=WAIT_MS)
    panel.redraw()
    assert [label.text for _sample, label in panel.legend.items] == ["as is"]
    assert panel.table.columnCount() == 1
    assert "New scene" in panel.message_label.text()


def test_the_compare_legend_is_readable_in_the_dark_theme(qtbot, compare_window):
    window = compare_window()
    panel = window.compare_panel
    try:
        apply_theme("dark")
        QApplication.sendPostedEvents()  # the palette and style changes it posted
        panel.redraw()
        base = panel.palette().color(QPalette.ColorRole.Base)
        assert panel.legend.brush().style() == Qt.BrushStyle.NoBrush  # the plot's background
        for _sample, label in panel.legend.items:
            colour = QColor(label.opts["color"])
            assert abs(colour.lightnessF() - base.lightnessF()) > 0.5, colour.name()
    finally:
        apply_theme("light")
