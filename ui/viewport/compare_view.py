"""The second 3D view beside the main one: the Compare panel shows one variant's cloth in it,
seen with the main view's camera, under a caption naming the variant. It is for looking only:
the mouse and the keyboard stay with the main view (tools, picking, the camera).

`beside(central, viewport)` puts the main viewport and this view in a splitter, in the place the
viewport had in the window's central stack, and returns the (hidden) view.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSplitter, QStackedWidget, QVBoxLayout, QWidget

from clothlab.sim.core.snapshot import Snapshot
from clothlab.sim.document.scene import Scene
from clothlab.sim.text import tr
from clothlab.ui.viewport.viewport import Viewport

CAPTION_STYLE = (
    "color: {colour}; font-weight: bold; padding: 2px 6px; margin: 6px;"
    " background: rgba(0, 0, 0, 150); border-radius: 3px;"
)
MAIN_CAPTION_COLOUR = "#cccccc"  # the Compare panel's "as is" grey, lighter to read on dark


class SideView(QWidget):
    """A look-only Viewport following `main`'s camera, with a caption over it."""

    def __init__(self, main: Viewport, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.main = main
        self.viewport = Viewport()
        self.viewport.setObjectName("side_viewport")
        # Clicks and keys pass to nothing here: the editing tools act on the main run only.
        self.viewport.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.viewport.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        # Captions over the views, not above: both views keep the same shape, so the same
        # camera frames the two cloths alike.
        self.caption = _caption(self.viewport, "side_caption")
        self.main_caption = _caption(main, "main_caption")
        self.main_caption.setText(tr("as is"))
        self.main_caption.setStyleSheet(CAPTION_STYLE.format(colour=MAIN_CAPTION_COLOUR))
        self.main_caption.adjustSize()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.viewport)
        main.camera_changed.connect(self.follow_camera)
        self.hide()

    def show_variant(self, name: str, colour: str) -> None:
        """Show the view, captioned `name`; it draws whatever `show_snapshot` hands it next."""
        if name != self.caption.text() or self.isHidden():
            self.viewport.show_snapshot(None)  # not another variant's (or run's) last frame
        self.caption.setText(name)
        self.caption.setStyleSheet(CAPTION_STYLE.format(colour=colour))
        self.caption.adjustSize()
        self.caption.show()
        self.main_caption.show()
        if self.isHidden():
            self._share_width()
        self.show()
        self.follow_camera()

    def _share_width(self) -> None:
        """Half the splitter each: a hidden widget's old size would leave this one a sliver."""
        splitter = self.parentWidget()
        if isinstance(splitter, QSplitter):
            half = max(splitter.width() // 2, 1)
            splitter.setSizes([half] * splitter.count())

    def hide_variant(self) -> None:
        self.hide()
        self.main_caption.hide()  # one view again: it needs no name

    def show_snapshot(self, snapshot: Snapshot | None) -> None:
        self.viewport.show_snapshot(snapshot)

    def set_scene(self, scene: Scene | None) -> None:
        self.viewport.set_scene(scene)

    def follow_camera(self) -> None:
        """Look as the main view looks (it says when its camera moves)."""
        if not self.isHidden():
            self.viewport.camera.set_spec(self.main.camera_spec())
            self.viewport.update()


def _caption(view: QWidget, name: str) -> QLabel:
    label = QLabel(view)
    label.setTextFormat(Qt.TextFormat.PlainText)  # a variant's name as typed
    label.setObjectName(name)
    label.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)  # the view's clicks
    label.move(0, 0)
    label.hide()
    return label


def beside(central: QStackedWidget, viewport: Viewport) -> SideView:
    """Put `viewport` and a new SideView side by side where `viewport` was in `central`."""
    index = central.indexOf(viewport)
    splitter = QSplitter(Qt.Orientation.Horizontal)
    splitter.setObjectName("compare_splitter")
    splitter.setChildrenCollapsible(False)
    central.insertWidget(index, splitter)
    side = SideView(viewport)
    splitter.addWidget(viewport)  # moves it out of the stack, which had hidden it
    viewport.show()
    splitter.addWidget(side)
    splitter.setStretchFactor(0, 1)
    splitter.setStretchFactor(1, 1)
    central.setCurrentWidget(splitter)
    return side
