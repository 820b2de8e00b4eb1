"""The Session (sim.lab.session): the document, its undo history and `submit`, without Qt or a
thread. A model that only writes down what reaches it stands in for the run."""

from __future__ import annotations

import pytest

from clothlab.sim.document.commands import Command, CommandError, CutLinks, SetPin, SetSetting
from clothlab.sim.document.composition import change_body
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.requests import (
    BeginGesture,
    ChangeSetting,
    EndGesture,
    Reset,
    SeamCut,
    ToggleProbe,
)
from clothlab.sim.document.scene import Scene, build_topology
from clothlab.sim.lab.session import Pushed, Session


class Written:
    """A model and an observer that write down what reaches them."""

    def __init__(self) -> None:
        self.sent: list[Command] = []
        self.restarts: list[str | None] = []
        self.pushes: list[Pushed] = []
        self.lines: list[str] = []
        self.edits = 0

    def send(self, command: Command) -> None:
        self.sent.append(command)

    def send_all(self, commands: list[Command]) -> None:
        self.sent.extend(commands)

    def restart(self, scene: Scene, because: str | None) -> None:
        self.restarts.append(because)

    def torn(self) -> frozenset[int]:
        return frozenset()

    def edited(self, scene: Scene, edit: object) -> None:
        self.edits += 1

    def pushed(self, edit: object, outcome: Pushed) -> None:
        self.pushes.append(outcome)

    def said(self, message: str) -> None:
        self.lines.append(message)


def session_of(scene: Scene | None = None) -> tuple[Session, Written]:
    written = Written()
    return Session(scene or load_preset("hanging-sheet"), written, written), written


def test_a_setting_is_one_entry_sent_live_and_undone_and_redone_through_the_model():
    session, written = session_of()
    wind = session.settings.wind
    session.submit(ChangeSetting("wind", 3.0))
    assert session.settings.wind == 3.0 and len(session.history.entries) == 1
    assert written.sent == [SetSetting("wind", 3.0, wind)] and written.pushes == [Pushed.ADDED]
    assert session.undo() == SetSetting("wind", 3.0, wind)
    assert session.settings.wind == wind and written.sent[-1] == SetSetting("wind", wind, 3.0)
    assert session.redo() == SetSetting("wind", 3.0, wind) and session.settings.wind == 3.0
    assert session.redo() is None and session.history.index == 1


def test_one_drag_of_a_slider_is_one_entry_and_a_drag_back_to_its_start_is_none():
    session, written = session_of()
    session.submit(BeginGesture())
    for value in (0.2, 0.3, 0.4):
        session.submit(ChangeSetting("bend_compliance", value))
    session.submit(EndGesture())
    assert len(session.history.entries) == 1
    assert written.pushes == [Pushed.ADDED, Pushed.MERGED, Pushed.MERGED]
    session.submit(BeginGesture())  # a second drag: a second entry, which goes back to 0.4
    session.submit(ChangeSetting("bend_compliance", 0.9))
    session.submit(ChangeSetting("bend_compliance", 0.4))
    assert written.pushes[-1] is Pushed.DROPPED and len(session.history.entries) == 1


def test_an_entry_saved_at_takes_no_more_changes():
    session, _ = session_of()
    session.submit(BeginGesture())
    session.submit(ChangeSetting("bend_compliance", 0.2))
    session.history.mark_saved()
    session.submit(ChangeSetting("bend_compliance", 0.3))
    assert [e.edit.value for e in session.history.entries] == [0.2, 0.3]  # type: ignore[attr-defined]


def test_a_refused_request_raises_one_line_and_changes_nothing():
    session, written = session_of()
    before = session.scene
    for request, error in [
        (ChangeSetting("wind", "gale"), ValueError),
        (ChangeSetting("no_such_setting", 1.0), KeyError),
        (SetPin(10**6, (0.0, 0.0, 0.0), None), CommandError),
        (CutLinks((10**7,)), CommandError),
    ]:
        with pytest.raises(error) as raised:
            session.submit(request)
        assert "\n" not in str(raised.value)
    assert session.scene is before and not session.history.entries and not written.sent
    with pytest.raises(TypeError):
        session.submit("cut everything")


def test_a_seam_cut_of_a_sheet_the_scene_has_not_is_one_line():
    session, _ = session_of(Scene(bodies=[]))
    with pytest.raises(ValueError, match="no sheet"):
        session.submit(SeamCut())
    session, _ = session_of()
    with pytest.raises(ValueError, match="sheet 3: the scene has 1 sheets"):
        session.submit(SeamCut(3))
    session.submit(SeamCut())
    (entry,) = session.history.entries
    assert isinstance(entry.edit, CutLinks) and len(entry.edit.links) > 0
    assert set(entry.edit.links) == set(session.scene.cuts)


def test_going_back_over_a_change_of_bodies_restarts_the_run_once_and_sends_nothing_live():
    session, written = session_of()
    session.submit(ChangeSetting("wind", 1.0))
    session.submit(change_body(session.scene, 0, cols=9, rows=7))
    session.submit(ToggleProbe(3))
    assert written.restarts == [session.history.entries[1].edit.text]
    sent = len(written.sent)
    session.go_to(0)
    assert written.restarts[1:] == [session.history.entries[1].edit.text]  # one restart
    assert len(written.sent) == sent and session.scene == load_preset("hanging-sheet")
    assert session.counts == (len(build_topology(session.scene).rest_positions),
                              build_topology(session.scene).link_count)  # fmt: skip
    session.go_to(1)  # the live setting alone: sent, no restart
    assert isinstance(written.sent[-1], SetSetting) and written.sent[-1].value == 1.0
    assert len(written.restarts) == 2 and session.settings.wind == 1.0


def test_a_reset_restarts_the_run_from_the_document_and_keeps_the_history():
    session, written = session_of()
    session.submit(ChangeSetting("wind", 2.0))
    session.submit(Reset())
    assert written.restarts == [None] and len(session.history.entries) == 1
