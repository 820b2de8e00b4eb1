"""What follows the theme besides Qt's own widgets: our SVG icons drawn in
the palette's text colour, pyqtgraph plots in its Base and Text colours, and a focus ring that
shows on light and dark palettes alike.

Icons: resources/icons draw their outlines in one neutral ink (ICON_INK); a ThemedSvgEngine
swaps it for the application palette's button text colour each time the icon is drawn, so a
palette change (Edit ▸ Preferences ▸ Theme) re-colours every toolbar icon with the repaint Qt
sends anyway. The icons' own colours (fills, the play triangle, the record dot) stay.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QIcon, QIconEngine, QPainter, QPalette, QPen, QPixmap
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import (
    QApplication,
    QProxyStyle,
    QStyle,
    QStyleOption,
    QStyleOptionComboBox,
    QStyleOptionComplex,
    QWidget,
)

ICON_INK = "#37474f"  # the outline colour every icon is drawn in, replaced by the palette's
FOCUS_RING_WIDTH = 2.0  # logical pixels
DARK_WINDOW_LIGHTNESS = 128  # a palette whose window is darker than this is a dark one


def is_dark(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Window).lightness() < DARK_WINDOW_LIGHTNESS


def icon_ink(palette: QPalette, mode: QIcon.Mode) -> QColor:
    """The colour an icon's outlines take: the palette's button text, greyed when disabled."""
    disabled = mode == QIcon.Mode.Disabled
    group = QPalette.ColorGroup.Disabled if disabled else QPalette.ColorGroup.Active
    return palette.color(group, QPalette.ColorRole.ButtonText)


class ThemedSvgEngine(QIconEngine):
    """An SVG icon whose ICON_INK is drawn in the application palette's current colour."""

    def __init__(self, svg: str) -> None:
        super().__init__()
        self._svg = svg
        self._renderers: dict[str, QSvgRenderer] = {}  # by ink: a theme has two at most

    def _renderer(self, mode: QIcon.Mode) -> QSvgRenderer:
        ink = icon_ink(QApplication.palette(), mode).name()
        renderer = self._renderers.get(ink)
        if renderer is None:
            text = self._svg.replace(ICON_INK, ink)
            renderer = self._renderers[ink] = QSvgRenderer(QByteArray(text.encode("utf-8")))
        return renderer

    def paint(self, painter: QPainter, rect: QRect, mode: QIcon.Mode, state: QIcon.State) -> None:
        self._renderer(mode).render(painter, QRectF(rect))

    def pixmap(self, size: QSize, mode: QIcon.Mode, state: QIcon.State) -> QPixmap:
        picture = QPixmap(size)
        picture.fill(Qt.GlobalColor.transparent)
        painter = QPainter(picture)
        self.paint(painter, QRect(0, 0, size.width(), size.height()), mode, state)
        painter.end()
        return picture

    def clone(self) -> QIconEngine:
        return ThemedSvgEngine(self._svg)


def themed_icon(svg: str) -> QIcon:
    return QIcon(ThemedSvgEngine(svg))


# --- focus ring ------------------------------------------------------------------------------


def focus_colour(palette: QPalette) -> QColor:
    """The palette's highlight, lightened on a dark palette so the ring stands out of the
    greys (Fusion's own ring is the highlight at 30 % opacity: invisible on dark grey)."""
    colour = QColor(palette.color(QPalette.ColorRole.Highlight))
    return colour.lighter(150) if is_dark(palette) else colour


class FocusRingStyle(QProxyStyle):
    """The application's style with a solid ring round the widget that has the keyboard
    focus: buttons, check boxes and item views (PE_FrameFocusRect), and line edits, spin boxes
    and combo boxes, whose own focus outline is one pixel of the highlight."""

    RINGED = (QStyle.ComplexControl.CC_SpinBox, QStyle.ComplexControl.CC_ComboBox)
    # check boxes, in a form and in a tree's cell: Fusion outlines them in the window colour
    # darkened, which on a dark palette is the colour of the box itself
    CHECKS = (
        QStyle.PrimitiveElement.PE_IndicatorCheckBox,
        QStyle.PrimitiveElement.PE_IndicatorItemViewItemCheck,
    )

    def drawPrimitive(  # noqa: N802 (Qt override)
        self,
        element: QStyle.PrimitiveElement,
        option: QStyleOption,
        painter: QPainter,
        widget: QWidget | None = None,
    ) -> None:
        if element == QStyle.PrimitiveElement.PE_FrameFocusRect:
            # as Fusion: a button or box reached by the keyboard, not one clicked
            if option.state & QStyle.StateFlag.State_KeyboardFocusChange:
                _ring(painter, option)
            return
        super().drawPrimitive(element, option, painter, widget)
        if element in self.CHECKS and is_dark(option.palette):
            _check_outline(painter, option)
        if element == QStyle.PrimitiveElement.PE_PanelLineEdit and _focused(option, widget):
            _ring(painter, option)

    def drawControl(  # noqa: N802 (Qt override)
        self,
        element: QStyle.ControlElement,
        option: QStyleOption,
        painter: QPainter,
        widget: QWidget | None = None,
    ) -> None:
        if element == QStyle.ControlElement.CE_ComboBoxLabel and isinstance(
            option, QStyleOptionComboBox
        ):
            option = QStyleOptionComboBox(option)
            option.currentText = combo_label_text(self, option, widget)
        super().drawControl(element, option, painter, widget)

    def drawComplexControl(  # noqa: N802 (Qt override)
        self,
        control: QStyle.ComplexControl,
        option: QStyleOptionComplex,
        painter: QPainter,
        widget: QWidget | None = None,
    ) -> None:
        super().drawComplexControl(control, option, painter, widget)
        if control in self.RINGED and _focused(option, widget):
            _ring(painter, option)


def combo_label_text(style: QStyle, option: QStyleOptionComboBox, widget: QWidget | None) -> str:
    """A closed combo box's text, ending in "…" where it is wider than its field: Fusion cut it
    in the middle of a letter ("Where does the sheet pull hardes")."""
    field = style.subControlRect(
        QStyle.ComplexControl.CC_ComboBox, option, QStyle.SubControl.SC_ComboBoxEditField, widget
    )
    room = field.width() - (option.iconSize.width() + 4 if not option.currentIcon.isNull() else 0)
    return option.fontMetrics.elidedText(option.currentText, Qt.TextElideMode.ElideRight, room)


def _focused(option: QStyleOption, widget: QWidget | None) -> bool:
    if widget is not None and _inner_line_edit(widget):
        return False
    state = option.state
    return bool(state & QStyle.StateFlag.State_HasFocus) and bool(
        state & QStyle.StateFlag.State_Enabled
    )


def _inner_line_edit(widget: QWidget) -> bool:
    """A spin box's or an editable combo box's own line edit: its parent draws the one ring."""
    parent = widget.parentWidget()
    return (
        parent is not None
        and widget.inherits("QLineEdit")
        and (parent.inherits("QAbstractSpinBox") or parent.inherits("QComboBox"))
    )


CHECK_OUTLINE_ALPHA = 150  # of the palette's text colour: seen, but quieter than the tick


def _check_outline(painter: QPainter, option: QStyleOption) -> None:
    """An outline in the palette's text colour round a check box's square, so that an
    unchecked one shows on a dark palette."""
    colour = QColor(option.palette.color(QPalette.ColorRole.Text))
    colour.setAlpha(CHECK_OUTLINE_ALPHA)
    side = min(option.rect.width(), option.rect.height())
    square = QRectF(option.rect.x(), option.rect.y(), side, side).adjusted(0.5, 0.5, -0.5, -0.5)
    square.moveCenter(QRectF(option.rect).center())
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setPen(QPen(colour, 1.0))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawRoundedRect(square, 2.0, 2.0)
    painter.restore()


def _ring(painter: QPainter, option: QStyleOption) -> None:
    palette = option.palette
    rect = QRectF(option.rect).adjusted(1, 1, -1, -1)
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setPen(QPen(focus_colour(palette), FOCUS_RING_WIDTH))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawRoundedRect(rect, 2.0, 2.0)
    painter.restore()


def install_focus_ring() -> None:
    """Wrap the application's style in FocusRingStyle, once."""
    app = QApplication.instance()
    if isinstance(app, QApplication) and not isinstance(app.style(), FocusRingStyle):
        app.setStyle(FocusRingStyle(app.style().name()))


# --- plots ------------------------------------------------------------------------------------

# The probes' colours, probe 1 first: their markers in the 3D view and their curves in the
# Probes panel (Okabe–Ito: told apart with the common colour-vision deficiencies too).
PROBE_COLOURS = ("#d55e00", "#0072b2", "#009e73", "#cc79a7")


def colour_plot(plot: object, palette: QPalette) -> None:
    """A pyqtgraph PlotWidget in the palette's Base and Text colours, legend included:
    pyqtgraph takes its colours once, at construction, and does not follow the palette."""
    text = palette.color(QPalette.ColorRole.Text)
    plot.setBackground(palette.color(QPalette.ColorRole.Base))  # type: ignore[attr-defined]
    item = plot.getPlotItem()  # type: ignore[attr-defined]
    for axis in ("left", "bottom"):
        item.getAxis(axis).setTextPen(text)  # the axis label's colour too
    legend = item.legend
    if legend is not None:
        legend.setLabelTextColor(text)
        for _sample, label in legend.items:
            label.setText(label.text)  # a label takes its new colour when set again
    plot.viewport().update()  # type: ignore[attr-defined]  # plots repaint only when asked
