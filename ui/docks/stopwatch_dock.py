"""The Stopwatch dock: start, stop, lap and reset in model time, read from the
snapshots, so it reads model seconds at ¼× speed and at "as fast as possible" alike, and in a
replay the model time of the replayed frames. The laps are listed and copied as text lines
(Copy, or Ctrl+C in the list).

Model time is counted in steps of the model's time step (steps × Δt), not as a difference of
the snapshots' clocks (a sum of Δt rounded at every step): N steps read N·Δt exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from clothlab.sim.core.snapshot import Snapshot
from clothlab.sim.document.scene import Scene
from clothlab.sim.text import tr
from clothlab.ui.layouts import nest
from clothlab.ui.numbers import localized

DECIMALS = 4  # the reading's: 1/120 s steps show as 0.0083, 0.0167, …


@dataclass
class Stopwatch:
    """Elapsed model time between Start and Stop, following the frames it is shown
    (`follow`). Time that goes back (a Reset, a load, a seek back in a replay, the instability
    guard's restore) is not elapsed: the count goes on from there. A change of the time step
    counts the steps before it at the old one."""

    running: bool = False
    laps: list[float] = field(default_factory=list)  # the reading at each Lap, s
    _base: float = 0.0  # seconds counted before the mark
    _mark: int = 0  # the step the count runs from
    _dt: float = 0.0  # the time step since the mark
    _steps: int = 0  # the newest frame's step, its load and time step
    _load: int = -1

    def follow(self, snapshot: Snapshot) -> None:
        """The newest frame (of the document or of a replay)."""
        steps, dt = snapshot.steps, snapshot.settings.dt
        if self.running:
            if snapshot.load != self._load or steps < self._mark:
                self._rebase(steps)  # time went back or started afresh: count from here
            elif dt != self._dt:
                self._rebase(self._steps)
            self._dt = dt
        self._steps, self._load = steps, snapshot.load
        if not self.running:
            self._mark, self._dt = steps, dt

    def _rebase(self, mark: int) -> None:
        self._base = self.reading
        self._mark = mark

    @property
    def reading(self) -> float:
        """Model seconds elapsed while running, s."""
        if not self.running:
            return self._base
        return self._base + (self._steps - self._mark) * self._dt

    def start(self) -> None:
        if not self.running:
            self._mark = self._steps
            self.running = True

    def stop(self) -> None:
        if self.running:
            self._base = self.reading
            self.running = False

    def lap(self) -> None:
        self.laps.append(self.reading)

    def reset(self) -> None:
        self._base, self._mark, self.laps = 0.0, self._steps, []

    def laps_text(self) -> str:
        """The laps as text lines, tab-separated for a spreadsheet: the lap, the reading at it
        and the time since the lap before (model seconds)."""
        lines = ["lap\ttime (s)\tsplit (s)"]
        previous = 0.0
        for k, at in enumerate(self.laps, 1):
            lines.append(f"{k}\t{at:.{DECIMALS}f}\t{at - previous:.{DECIMALS}f}")
            previous = at
        return "\n".join(lines) + "\n"


class StopwatchPanel(QWidget):
    """The stopwatch's dock: the reading in model seconds, Start/Stop, Lap, Reset, the laps and
    Copy. A panel (ui.docks.panels.Panel): it follows the window's frames."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.watch = Stopwatch()
        self.display = QLabel()
        self.display.setObjectName("stopwatch_reading")
        font = QFont(self.display.font())
        font.setPointSizeF(font.pointSizeF() * 1.8)
        font.setStyleHint(QFont.StyleHint.Monospace)
        font.setFamily("monospace")
        self.display.setFont(font)
        self.display.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.start_button = self._button(
            tr("Start"), tr("Start or stop the stopwatch (model time)")
        )
        self.lap_button = self._button(tr("Lap"), tr("Note the reading as a lap"))
        self.reset_button = self._button(tr("Reset"), tr("Back to 0 and no laps"))
        self.copy_button = self._button(tr("Copy laps"), tr("Copy the laps as text lines (Ctrl+C)"))
        self.laps = QListWidget()
        self.laps.setObjectName("stopwatch_laps")
        self.laps.setAccessibleName(tr("Laps"))
        QShortcut(
            QKeySequence.StandardKey.Copy, self.laps, self.copy_laps,
            context=Qt.ShortcutContext.WidgetWithChildrenShortcut,
        )  # fmt: skip
        self.start_button.clicked.connect(self.start_or_stop)
        self.lap_button.clicked.connect(self.lap)
        self.reset_button.clicked.connect(self.reset)
        self.copy_button.clicked.connect(self.copy_laps)
        self._lay_out()
        self._show()

    def _button(self, text: str, tip: str) -> QPushButton:
        button = QPushButton(text)
        button.setToolTip(tip)
        button.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # Tab reaches it on every platform
        return button

    def _lay_out(self) -> None:
        buttons = QHBoxLayout()
        for button in (self.start_button, self.lap_button, self.reset_button):
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.display)
        nest(layout, buttons)
        layout.addWidget(self.laps, 1)
        layout.addWidget(self.copy_button)

    # --- the buttons ---------------------------------------------------------------------------

    def start_or_stop(self) -> None:
        if self.watch.running:
            self.watch.stop()
        else:
            self.watch.start()
        self._show()

    def lap(self) -> None:
        self.watch.lap()
        self._show()

    def reset(self) -> None:
        self.watch.reset()
        self._show()

    def copy_laps(self) -> None:
        clipboard = QGuiApplication.clipboard()
        if clipboard is not None:
            clipboard.setText(self.watch.laps_text())

    # --- the window's frames (ui.docks.panels.Panel) ---------------------------------------------

    def show_scene(self, scene: Scene) -> None:
        """A new document: the stopwatch goes on (it counts from the new start, see Stopwatch)."""

    def show_edit(self, scene: Scene, command: object) -> None:
        pass

    def show_snapshot(self, snapshot: Snapshot) -> None:
        self.watch.follow(snapshot)
        self._show_reading()

    def _show(self) -> None:
        running = self.watch.running
        self.start_button.setText(tr("Stop") if running else tr("Start"))
        self.lap_button.setEnabled(running)
        self.copy_button.setEnabled(bool(self.watch.laps))
        if self.laps.count() != len(self.watch.laps):
            self.laps.clear()
            previous = 0.0
            for k, at in enumerate(self.watch.laps, 1):
                lap = tr("Lap {number}   {time} s   (+{split} s)").format(
                    number=k, time=f"{at:.{DECIMALS}f}", split=f"{at - previous:.{DECIMALS}f}"
                )
                self.laps.addItem(localized(lap))
                previous = at
            self.laps.scrollToBottom()
        self._show_reading()

    def _show_reading(self) -> None:
        self.display.setText(localized(f"{self.watch.reading:.{DECIMALS}f} s"))
