"""The main window's status bar: the tool's hint on the left; running state, model time,
real-time factor, frames drawn per second and particle / link counts on the right.

It is a ui.docks.panels.Panel for the snapshots: their numbers are shown at most STATUS_HZ times a
second, since text that changes faster cannot be read and every change costs a repaint.
"""

from __future__ import annotations

import math
import time

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QPainter, QPaintEvent, QPalette, QShowEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QStatusBar,
    QWidget,
)

from clothlab.sim.core.snapshot import Snapshot
from clothlab.sim.document.requests import ChangeSetting, Reset, SetThenReset
from clothlab.sim.document.scene import Scene
from clothlab.sim.lab.resolution import Advice
from clothlab.sim.text import QT_TR_NOOP, tr
from clothlab.ui.numbers import localized

STATUS_HZ = 4
WARNING_STYLE = "color: #c62828; font-weight: bold;"
# A running scene whose first step takes longer than this is being compiled (the first start
# after installing, or an option's first use): say so rather than look frozen.
PREPARING_AFTER_MS = 600
PREPARING = QT_TR_NOOP(
    "Preparing the solver: its first run compiles it (this takes up to a minute)…"
)  # shown as tr(PREPARING)


class ElidedLabel(QLabel):
    """A one-line label that ends in "…" where its text is longer than its width, instead of
    being cut off in the middle of a word ("…Strg+K"); text() is the whole text."""

    def shown_text(self) -> str:
        """The text as drawn now."""
        width = self.contentsRect().width()
        return self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, width)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt override)
        painter = QPainter(self)
        self.style().drawItemText(
            painter, self.contentsRect(), int(self.alignment()), self.palette(),
            self.isEnabled(), self.shown_text(), QPalette.ColorRole.WindowText,
        )  # fmt: skip
        painter.end()


class StatusBar(QStatusBar):
    command_requested = Signal(object)  # the notice's button: Reset, or a ChangeSetting

    def __init__(self, tool_hint: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.fps = 0.0
        self._frames_drawn = 0
        self._fps_clock = time.perf_counter()
        self._last_update = -math.inf
        self._message_timeout = 0  # of the message shown last, ms
        self.tool_label = ElidedLabel(tool_hint)
        self.tool_label.setToolTip(tool_hint)
        self.tool_label.setContentsMargins(6, 0, 6, 0)
        self.tool_label.setObjectName("tool_label")
        # The hint gives way in a narrow window (ending in "…"; the tooltip has it all) rather
        # than holding the window wider than the screen or the 3D view wants.
        self.tool_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.addWidget(self.tool_label, 1)
        self.state_label = self._label(tr("Paused"))
        self.time_label = self._label(localized(tr("t = {t:.2f} s").format(t=0.0)))
        self.factor_label = self._label(
            "—", tr("Model seconds per wall-clock second (real-time factor)")
        )
        self.fps_label = self._label(tr("— fps"), tr("Frames drawn by the viewport per second"))
        self.count_label = self._label("", tr("Particles and live links"))
        for label in (self.state_label, self.time_label, self.factor_label, self.fps_label):
            self.addPermanentWidget(label)
        self.addPermanentWidget(self.count_label)
        self._notice_command: object = None
        self.notice = self._notice()
        self.addWidget(self.notice)  # left, in place of the tool hint while shown
        self._running = False
        self._last_steps = 0  # of the last snapshot
        self._waiting = False  # for a new scene's first step
        self._start_step: int | None = None  # the step its first snapshot showed
        self._preparing = QTimer(self)
        self._preparing.setInterval(PREPARING_AFTER_MS)  # until the first step: Run may come late
        self._preparing.timeout.connect(self._say_preparing)

    def _notice(self) -> QWidget:
        notice = QWidget()
        notice.setObjectName("notice")
        layout = QHBoxLayout(notice)
        layout.setContentsMargins(0, 0, 0, 0)
        self.notice_label = QLabel()
        self.notice_label.setStyleSheet(WARNING_STYLE)
        self.notice_button = QPushButton()
        self.notice_button.clicked.connect(self._act_on_notice)
        layout.addWidget(self.notice_label, 1)
        layout.addWidget(self.notice_button)
        notice.hide()
        return notice

    def show_notice(self, message: str, tooltip: str, action: str, command: object) -> None:
        """A state the model cannot leave by itself, or a setting that would serve the scene
        better: one line in place of the tool hint, with the one command that helps at hand."""
        self._notice_command = command
        self.notice_label.setText(message)
        self.notice_label.setToolTip(tooltip)
        self.notice_button.setText(action)
        self.notice_button.setToolTip(tooltip)
        self.tool_label.hide()
        self.notice.show()

    def show_stuck(self, message: str) -> None:
        """The model rests tangled and cannot leave on its own: say so, with Reset at hand."""
        message = tr(message)
        tooltip = tr(
            "{message}: tangled, and nothing in the model will undo it. Reset starts again "
            "from the rest shape, keeping your edits."
        ).format(message=message)
        self.show_notice(message, tooltip, tr("Reset"), Reset())

    def show_advice(self, advice: Advice) -> None:
        """A setting that would serve the scene better (sim.lab.resolution): one click sets it."""
        message, label = tr(advice.message), tr(advice.label)
        tooltip = tr("{message}. {label}: one undoable change of the settings.").format(
            message=message, label=label
        )
        command = ChangeSetting(advice.setting, True)
        # tethers pull the cloth to its rest shape: switched on in a stretched run, a clean start
        restart = advice.setting == "tethers"
        if restart:
            tooltip = tr(
                "{message}. {label}: one undoable change of the settings, then a start from rest."
            ).format(message=message, label=label)
        self.show_notice(message, tooltip, label, SetThenReset(command) if restart else command)

    def _act_on_notice(self) -> None:
        self._hide_notice()
        self.command_requested.emit(self._notice_command)

    def _hide_notice(self) -> None:
        if self.notice.isVisibleTo(self):
            self.notice.hide()
            self.tool_label.show()

    def _label(self, text: str, tooltip: str = "") -> QLabel:
        label = QLabel(text)
        label.setToolTip(tooltip)
        label.setContentsMargins(6, 0, 6, 0)
        return label

    # --- Panel ------------------------------------------------------------------------------

    def show_scene(self, scene: Scene) -> None:
        self._hide_notice()  # a new start
        self._waiting, self._start_step = True, None
        self._preparing.start()

    def show_edit(self, scene: Scene, command: object) -> None:
        self._hide_notice()  # the model may leave where it rests now; the solver says if not

    def show_snapshot(self, snapshot: Snapshot) -> None:
        if snapshot.steps < self._last_steps:  # a reset or a seek: a new start
            self._hide_notice()
        self._last_steps = snapshot.steps
        if self._waiting:
            if self._start_step is None:
                self._start_step = snapshot.steps
            elif snapshot.steps != self._start_step:
                self._stepping()
        self.show_time(snapshot)
        if time.perf_counter() - self._last_update >= 1.0 / STATUS_HZ:
            self.show_numbers(snapshot)

    def show_time(self, snapshot: Snapshot) -> None:
        """The time of the frame shown: the window's one clock, which the Readouts line and the
        replay bar read at the same frame (a clock of its own, updated 4 times a second from
        the newest frame, read 3.42 s where they read 3.57 s)."""
        text = localized(tr("t = {t:.2f} s").format(t=snapshot.t))
        if self.time_label.text() != text:
            self.time_label.setText(text)

    def _say_preparing(self) -> None:
        if self._running and self.currentMessage() != tr(PREPARING):
            self.showMessage(tr(PREPARING))

    def _stepping(self) -> None:
        self._waiting = False
        self._preparing.stop()
        if self.currentMessage() == tr(PREPARING):
            self.clearMessage()

    # --- what the window reports --------------------------------------------------------------

    def count_frame(self, _frame: int) -> None:
        self._frames_drawn += 1

    def show_numbers(self, snapshot: Snapshot | None) -> None:
        """Frames per second (once a second has gone by), and the snapshot's time and counts."""
        now = time.perf_counter()
        self._last_update = now
        elapsed = now - self._fps_clock
        if elapsed >= 1.0:
            self.fps = self._frames_drawn / elapsed
            self._frames_drawn = 0
            self._fps_clock = now
            self.fps_label.setText(localized(tr("{fps:.0f} fps").format(fps=self.fps)))
        if snapshot is not None:
            counts = tr("{particles} particles · {links} links")
            particles = snapshot.topology.particle_count
            self.count_label.setText(
                counts.format(particles=particles, links=snapshot.readouts.links)
            )

    def show_running(self, running: bool) -> None:
        self._running = running
        self.state_label.setText(tr("Running") if running else tr("Paused"))
        if not running:
            self.show_timing(0.0, False, running=False)

    def show_timing(self, factor: float, behind: bool, running: bool) -> None:
        if not running:
            self.factor_label.setText(tr("— × real time"))
        elif behind:
            self.factor_label.setText(
                localized(tr("{factor:.2f}× real time — can't keep up").format(factor=factor))
            )
        else:
            self.factor_label.setText(
                localized(tr("{factor:.2f}× real time").format(factor=factor))
            )
        self.factor_label.setStyleSheet(WARNING_STYLE if behind else "")

    def showMessage(self, text: str, timeout: int | None = 0) -> None:  # noqa: N802 (Qt override)
        timeout = timeout or 0
        self._message_timeout = timeout
        super().showMessage(text, timeout)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt override)
        # QStatusBar hides its normal widgets under a message only if they are visible when
        # the message comes: one shown before the window was (a replay opened at start-up)
        # would be drawn over the tool hint. Showing it again now hides the hint as usual.
        super().showEvent(event)
        message = self.currentMessage()
        if message:  # Qt ignores the same text again: clear it first
            super().clearMessage()
            super().showMessage(message, self._message_timeout)

    def show_tool(self, hint: str) -> None:
        self.tool_label.setText(hint)
        self.tool_label.setToolTip(hint)
