"""Recording and replay in the window: Simulation ▸ Record and Save recording…, File ▸ Open
recording…, and the replay bar (play / pause, step, a seek slider over the recording's steps).

The window makes one Recorder. Recording is the controller's journal from step 0 of the
document (controller.record); a replay is controller.play, and seeking is controller.seek,
which rebuilds the run exactly (sim.lab.engine.replay). The bar follows the controller: it shows
while a recording is replayed and the step of the newest frame.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QAction, QKeyEvent
from PySide6.QtWidgets import QLabel, QSlider, QToolBar, QWidget

from clothlab.sim.core.snapshot import Snapshot
from clothlab.sim.document.files import describe
from clothlab.sim.document.recording import Recording, load_recording, save_recording
from clothlab.sim.document.scene import SceneError
from clothlab.sim.text import QT_TR_NOOP, tr
from clothlab.ui.intents import SeekReplay
from clothlab.ui.number_box import IntBox, Limits
from clothlab.ui.window import dialogs, file_dialogs, preferences

if TYPE_CHECKING:
    from clothlab.ui.context import WindowContext

RECORDING_FILTER = QT_TR_NOOP("Cloth Lab recordings (*.clothrec.json *.json);;All files (*)")
SUFFIX = ".clothrec.json"
MESSAGE_MS = 8000
STATUS_HZ = 4  # the "● Recording — step N" line: faster cannot be read, and costs repaints


class SeekSlider(QSlider):
    """The replay's slider keeps its own keys: Home and End go to the first and last step
    here, not to the window's shortcuts (Home is View ▸ Reset camera)."""

    OWN_KEYS = (Qt.Key.Key_Home, Qt.Key.Key_End, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown)

    def event(self, event: QEvent) -> bool:
        if (
            event.type() == QEvent.Type.ShortcutOverride
            and isinstance(event, QKeyEvent)
            and event.key() in self.OWN_KEYS
        ):
            event.accept()  # the key goes to keyPressEvent, as for any slider
            return True
        return super().event(event)


class ReplayBar(QToolBar):
    """Play / pause and step (the window's own actions), a slider 0…steps and a box for the
    step, and the recording's length. Moving the slider or typing a step asks for a seek."""

    command_requested = Signal(object)  # SeekReplay

    def __init__(self, play: QAction, step: QAction, parent: QWidget | None = None) -> None:
        super().__init__(tr("Replay"), parent)
        self.setObjectName("replay_bar")
        self.setMovable(False)
        self.toggleViewAction().setVisible(False)  # it shows exactly while a replay is open
        self.wanted = False
        self.addWidget(_label(tr("Replay"), tr("The recording being replayed")))
        self.addActions([play, step])
        self.slider = SeekSlider(Qt.Orientation.Horizontal)
        self.slider.setObjectName("replay_slider")
        self.slider.setMinimumWidth(240)
        self.slider.setToolTip(tr("Drag to any step of the recording: the run is rebuilt exactly"))
        # a step out of the recording is refused in the status bar (`refused`), not clamped;
        # like every number box, it seeks once the step is entered, not per digit
        self.step_box = IntBox(step_limits(0))
        self.step_box.setObjectName("replay_step")
        self.refused = self.step_box.refused
        self.step_box.setToolTip(tr("The step shown; type one to go there"))
        self.length_label = _label("", tr("The recording's length"))
        self.addWidget(self.slider)
        self.addWidget(_label(tr("Step"), ""))
        self.addWidget(self.step_box)
        self.addWidget(self.length_label)
        self.slider.sliderMoved.connect(self._show_dragged)
        self.slider.sliderReleased.connect(lambda: self._seek(self.slider.value()))
        self.slider.valueChanged.connect(self._slider_changed)
        self.step_box.valueChanged.connect(self._seek)

    def setVisible(self, visible: bool) -> None:  # noqa: N802 (Qt override)
        # Only a replay shows the bar: a restored or reset window layout must not.
        super().setVisible(self.wanted)

    def show_recording(self, recording: Recording | None) -> None:
        self.wanted = recording is not None
        if recording is not None:
            steps = recording.steps
            dt = recording.scene.solver.dt
            for widget in (self.slider, self.step_box):
                widget.blockSignals(True)
            self.slider.setRange(0, steps)
            self.step_box.set_limits(step_limits(steps))
            for widget in (self.slider, self.step_box):
                widget.blockSignals(False)
            self.slider.setPageStep(max(1, steps // 20))
            self.length_label.setText(
                tr("of {steps} ({seconds:.2f} s)").format(steps=steps, seconds=steps * dt)
            )
        self.setVisible(self.wanted)

    def show_step(self, steps: int) -> None:
        """The newest frame's step, except where the user is dragging or typing one."""
        box = self.step_box
        typing = box.hasFocus() and box.text() != str(box.value())  # a step not entered yet
        widgets: list[QSlider | IntBox] = [] if self.slider.isSliderDown() else [self.slider]
        for widget in [*widgets, *([] if typing else [box])]:
            widget.blockSignals(True)
            widget.setValue(steps)
            widget.blockSignals(False)

    def _show_dragged(self, value: int) -> None:
        self.step_box.blockSignals(True)
        self.step_box.setValue(value)
        self.step_box.blockSignals(False)

    def _slider_changed(self, value: int) -> None:
        if not self.slider.isSliderDown():  # keys and page clicks; a drag seeks on release
            self._seek(value)

    def _seek(self, step: int) -> None:
        self.command_requested.emit(SeekReplay(step))


def step_limits(steps: int) -> Limits:
    """The steps a recording of `steps` steps has: 0 (as loaded) to its last."""
    return Limits(tr("Step"), 0, steps, integer=True)


def _label(text: str, tip: str) -> QLabel:
    label = QLabel(text)
    label.setToolTip(tip)
    label.setContentsMargins(6, 0, 6, 0)
    return label


class Recorder(QObject):
    """Holds the recording state (recording now, the last recording), does what its actions ask
    (their rows in ui.window.actions call these methods) and wires the replay bar to the
    controller (one per window). The window puts `bar` at its bottom."""

    def __init__(self, context: WindowContext) -> None:
        super().__init__(context.parent)
        self.context = context
        self.controller = context.controller
        self.actions = actions = context.actions
        self.recording_now = False
        self.kept: Recording | None = None  # the last recording made here
        self._said = 0.0  # when the recording line was last written
        self.bar = ReplayBar(actions["play"], actions["step"], context.parent)
        self.bar.show_recording(self.controller.replay)
        self._connect()
        self._enable_save()

    def _connect(self) -> None:
        c = self.controller
        for signal, slot in (
            (c.scene_loaded, self._stop_on_load),
            (c.replay_changed, self._show_replay), (c.replay_finished, self._say_finished),
            (c.restart_coming, self._stop_before_restart),
            (self.bar.command_requested, self.context.submit),
            (self.bar.refused, self.context.say),
        ):  # fmt: skip
            signal.connect(slot)

    # --- recording ---------------------------------------------------------------------------

    def set_recording(self, on: bool) -> None:
        """Record (on): back to step 0, everything from now on is journalled. Stop (off): the
        run so far is kept for Save recording…."""
        if on == self.recording_now:
            return
        self.recording_now = on
        if on:
            self.controller.record()
            self.say(tr("● Recording — step {step}").format(step=0), 0)
        else:
            self.kept = self.controller.recording()
            self.say(
                tr(
                    "Recorded %n step(s): Simulation ▸ Save recording… keeps them",
                    "",
                    self.kept.steps,
                )
            )
        self._enable_save()

    def _stop_on_load(self, *_: object) -> None:
        """A new document ends the recording: it was of the one before."""
        self.actions["record"].setChecked(False)

    def _stop_before_restart(self, text: str) -> None:
        """A change of bodies starts the model afresh, so it cannot be in a recording: the
        recording ends before it, keeping every step and command recorded so far."""
        if not self.recording_now:
            return
        self.actions["record"].setChecked(False)  # set_recording(False) keeps the run so far
        assert self.kept is not None
        self.say(
            tr(
                "Recording ended before “{change}” (a change of bodies starts the model afresh): "
                "%n step(s) kept, Simulation ▸ Save recording… saves them",
                "",
                self.kept.steps,
            ).format(change=text)
        )

    def save_dialog(self) -> None:
        recording = self.to_save()
        if recording is None:
            self.say(tr("Nothing recorded yet: Simulation ▸ Record first"))
            return
        name = dialogs.slug(self.controller.title_name)
        path, _ = file_dialogs.get_save_file_name(
            self.context.parent, tr("Save recording"), f"{name}{SUFFIX}", tr(RECORDING_FILTER)
        )
        if path:
            self.save_to(Path(path), recording)

    def to_save(self) -> Recording | None:
        """While recording, the run so far; else the last recording, else the one replayed."""
        if self.recording_now:
            return self.controller.recording()
        return self.kept or self.controller.replay

    def save_to(self, path: Path, recording: Recording) -> bool:
        if not path.name.endswith(".json"):
            path = path.with_name(path.name + SUFFIX)
        try:
            save_recording(recording, path)
        except (SceneError, OSError) as error:
            dialogs.show_error(
                self.context.parent, tr("Cannot save recording"), f"{path}: {describe(error)}"
            )
            return False
        self.say(
            tr("Saved a recording of %n step(s) to {path}", "", recording.steps).format(path=path)
        )
        return True

    # --- replay --------------------------------------------------------------------------------

    def open_dialog(self) -> None:
        if not self.context.confirm_discard():
            return
        path, _ = file_dialogs.get_open_file_name(
            self.context.parent, tr("Open recording"), tr(RECORDING_FILTER)
        )
        if path:
            self.open_path(Path(path))

    def open_path(self, path: Path) -> bool:
        """Replay the recording in `path`; a file that is not one says why and changes nothing."""
        try:
            recording = load_recording(path)
        except SceneError as error:
            dialogs.show_error(self.context.parent, tr("Cannot open recording"), str(error))
            return False
        self.controller.play(recording)
        preferences.add_recent_file(path)  # File ▸ Open recent plays it again (controller.open)
        return True

    def _show_replay(self, recording: Recording | None) -> None:
        if recording is not None and not self.bar.wanted:  # a replay begins, not a seek
            self.say(tr("Replaying %n step(s): Space plays, the slider seeks", "", recording.steps))
        self.bar.show_recording(recording)
        self._enable_save()

    def _say_finished(self, step: int) -> None:
        self.bar.show_step(step)
        self.say(tr("Replay finished at step {step}").format(step=step))

    # --- showing -------------------------------------------------------------------------------

    def show_snapshot(self, snapshot: Snapshot) -> None:
        """The frame the window shows (MainWindow presents it to every part at once: the
        replay bar's step is of the frame the status bar's and the Readouts' times are)."""
        if self.controller.replay is not None:  # the slider is on the recording's clock
            self.bar.show_step(snapshot.clock)
        now = time.perf_counter()
        if self.recording_now and now - self._said >= 1.0 / STATUS_HZ:
            self._said = now
            self.say(tr("● Recording — step {step}").format(step=snapshot.steps), 0)

    def say(self, text: str, timeout_ms: int = MESSAGE_MS) -> None:
        self.context.say(text, timeout_ms)

    def _enable_save(self) -> None:
        self.actions["save_recording"].setEnabled(self.to_save() is not None)
