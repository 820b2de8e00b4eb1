"""What the window and its parts use of the app layer, as Protocols: the controller (FrontDoor)
and the Compare panel's runs (CompareRuns). The app's Controller and CompareRunner
(app.controller, app.compare_runner) satisfy them, as the type check of app.gui, which hands
them to the window, proves; the ui is typed against these and never names the app, so another
front door (a Session driven without a solver thread, a test's double) can stand behind the
same window.

FrontDoor's signals carry what the document and the run did; its methods are the requests the
window makes besides `submit` (documents, recordings, the history view).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance
    from PySide6.QtGui import QUndoStack

    from clothlab.sim.core.parameters import Settings
    from clothlab.sim.core.readouts import ReadoutHistory
    from clothlab.sim.core.snapshot import Snapshot
    from clothlab.sim.document.recording import Recording
    from clothlab.sim.document.scene import CameraSpec, Scene
    from clothlab.sim.lab.engine import Engine
    from clothlab.sim.lab.variants import Variant


class FrontDoor(Protocol):
    """The document, the run and its history as the window sees them."""

    # --- what happened: signals (their arguments as app.controller.Controller documents) ----

    @property
    def scene_loaded(self) -> SignalInstance: ...  # Scene: a new document

    @property
    def scene_edited(self) -> SignalInstance: ...  # Scene, command: after an edit or undo

    @property
    def path_changed(self) -> SignalInstance: ...  # Path | None

    @property
    def snapshot_changed(self) -> SignalInstance: ...  # the newest Snapshot

    @property
    def timing_changed(self) -> SignalInstance: ...  # real-time factor, cannot keep up

    @property
    def running_changed(self) -> SignalInstance: ...  # bool

    @property
    def speed_changed(self) -> SignalInstance: ...  # float

    @property
    def load_failed(self) -> SignalInstance: ...  # str

    @property
    def instability_found(self) -> SignalInstance: ...  # str

    @property
    def stuck_found(self) -> SignalInstance: ...  # str

    @property
    def advice_found(self) -> SignalInstance: ...  # sim.lab.resolution.Advice

    @property
    def message(self) -> SignalInstance: ...  # str: one line for the status bar

    @property
    def replay_changed(self) -> SignalInstance: ...  # Recording | None

    @property
    def replay_finished(self) -> SignalInstance: ...  # int: the last step

    @property
    def restart_coming(self) -> SignalInstance: ...  # str: the edit that starts afresh

    # --- what is: the document, the run, the history -----------------------------------------

    @property
    def scene(self) -> Scene: ...

    @property
    def settings(self) -> Settings: ...

    @property
    def path(self) -> Path | None: ...

    @property
    def title_name(self) -> str: ...

    @property
    def running(self) -> bool: ...

    @property
    def speed(self) -> float: ...

    @property
    def latest(self) -> Snapshot | None: ...

    @property
    def replay(self) -> Recording | None: ...

    @property
    def undo_stack(self) -> QUndoStack: ...  # the history's view: Edit ▸ Undo, History panel

    def current_snapshot(self) -> Snapshot | None: ...

    # --- requests ----------------------------------------------------------------------------

    def submit(self, command: object) -> None:
        """Carry out a request; raises ValueError or KeyError (one line) when it does not fit."""

    def go_to_history(self, index: int) -> None: ...

    def load(self, scene: Scene, path: Path | None = None) -> None: ...

    def open(self, name_or_path: str | Path) -> None: ...

    def new_from_preset(self, name: str) -> None: ...

    def save(self, path: Path | None = None, camera: CameraSpec | None = None) -> Path: ...

    def state(
        self, snapshot: Snapshot | None = None, camera: CameraSpec | None = None
    ) -> Scene: ...

    def save_state(
        self, path: Path, camera: CameraSpec | None = None, snapshot: Snapshot | None = None
    ) -> Scene: ...

    def record(self) -> None: ...

    def recording(self) -> Recording: ...

    def play(self, recording: Recording) -> None: ...

    def seek(self, step: int) -> None: ...

    def fork(self) -> Engine | None: ...

    def shutdown(self) -> None: ...


class VariantRunView(Protocol):
    """One variant of a comparison as the Compare panel shows it."""

    @property
    def variant(self) -> Variant: ...

    @property
    def history(self) -> ReadoutHistory: ...  # its rows so far

    @property
    def status(self) -> str: ...

    @property
    def final(self) -> tuple[float, ...] | None: ...  # CSV_COLUMNS row at its newest step


class CompareRuns(Protocol):
    """Variants of the main run, run in the background, as the Compare panel drives them."""

    @property
    def updated(self) -> SignalInstance: ...  # rows, finals or statuses changed

    @property
    def running_changed(self) -> SignalInstance: ...  # bool

    @property
    def went_stale(self) -> SignalInstance: ...  # str: why the comparison is over

    @property
    def variant_snapshot(self) -> SignalInstance: ...  # run index, Snapshot

    @property
    def running(self) -> bool: ...

    @property
    def main(self) -> ReadoutHistory: ...  # the main run's rows

    @property
    def runs(self) -> Sequence[VariantRunView]: ...

    def start(self, chosen: Sequence[Variant]) -> None: ...

    def stop(self) -> None: ...

    def show(self, index: int | None) -> None: ...

    def mark_stale(self, reason: str) -> None: ...

    def forget(self) -> None: ...
