"""A Session: the document (the scene as set up, with the user's edits), its undo history and
the one way to change them, `submit`.

The window's controller (app.controller), the API's Lab (api.lab) and the command line each
hold one, so a seam cut, a pin, a setting or an undo is checked, recorded and applied the same
way wherever it is asked for, and a request that does not fit the document is refused the same
way: a ValueError (CommandError, SceneError) or KeyError of one line, and nothing changed. A
session knows no thread and no Qt. What its edits do to the run goes to its `Model` (the solver
thread's inbox in the window, the engine itself in the API), and what its holder shows (views,
the undo stack's entries, a status line) to its `Observer`.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any, Protocol

from clothlab.sim.core.parameters import PARAMETERS, SETTINGS_TABLE, Settings
from clothlab.sim.document.commands import (
    Command,
    CutLinks,
    Edit,
    EditRulers,
    EditScene,
    GrabMove,
    GrabRelease,
    GrabStart,
    Pause,
    Run,
    SetPin,
    SetPositions,
    SetProbe,
    SetSceneInfo,
    SetSetting,
    SetSpeed,
    Step,
    apply_to_document,
    validate,
)
from clothlab.sim.document.composition import Composed, edit_of, pins_away_from_rest
from clothlab.sim.document.edits import seam_links
from clothlab.sim.document.requests import (
    BeginGesture,
    ChangeSetting,
    Compose,
    EndGesture,
    Preview,
    Reset,
    SeamCut,
    SetThenReset,
    ToggleProbe,
)
from clothlab.sim.document.scene import Scene, as_point, body_counts, build_topology
from clothlab.sim.document.scene import scene_settings as settings_of
from clothlab.sim.text import tr


class Model(Protocol):
    """The run of a session's document: where its edits and run commands go."""

    def send(self, command: Command) -> None:
        """Apply a command to the run as it is now: a live edit, a grab, run or pause."""

    def send_all(self, commands: list[Command]) -> None:
        """Apply several at once (an undo of many entries), in order."""

    def restart(self, scene: Scene, because: str | None) -> None:
        """Start the run afresh from `scene`: after an edit of its bodies (whose text is
        `because`) or a reset (None)."""

    def torn(self) -> Collection[int]:
        """The links the run has torn so far (the scene's own tears before its first step)."""


class Observer(Protocol):
    """What a session's holder shows of it."""

    def edited(self, scene: Scene, edit: Edit | None) -> None:
        """The document after an edit, an undo or a redo (None: after several at once)."""

    def pushed(self, edit: Edit, outcome: Pushed) -> None:
        """An edit entered the history, and was applied (`outcome`: how it entered)."""

    def said(self, message: str) -> None:
        """One line for the user: what an edit could not carry over, or a reset's warning."""


class Unobserved:
    """An Observer that shows nothing (the API's and the command line's sessions)."""

    def edited(self, scene: Scene, edit: Edit | None) -> None:
        pass

    def pushed(self, edit: Edit, outcome: Pushed) -> None:
        pass

    def said(self, message: str) -> None:
        pass


class Unrun:
    """The model of a document that has no run yet (a scene edited before it starts): edits
    change the document alone, and the torn links are the scene's own."""

    def __init__(self, scene: Scene) -> None:
        self._tears = frozenset(scene.tears)

    def send(self, command: Command) -> None:
        pass

    def send_all(self, commands: list[Command]) -> None:
        pass

    def restart(self, scene: Scene, because: str | None) -> None:
        pass

    def torn(self) -> frozenset[int]:
        return self._tears


def with_seam(scene: Scene, sheet: int = 0) -> Scene:
    """The scene with the model's seam cut of a sheet made its own before it runs (the command
    line's --seam, a question's "seam"), as a session cuts it; raises ValueError (one line)
    when the scene has no such sheet."""
    session = Session(scene, Unrun(scene))
    session.submit(SeamCut(sheet))
    return session.scene


class Pushed(enum.Enum):
    """What an edit did to the history: a new entry, merged into the last one (one more step
    of a drag), or merged with it into nothing (a drag back to where it began)."""

    ADDED = "added"
    MERGED = "merged"
    DROPPED = "dropped"


@dataclass
class Entry:
    edit: Edit
    gesture: int | None  # the drag it was made in: a setting's changes within one merge


class History:
    """A plain undo history: the entries, how many of them are done (`index`; the rest are
    undone, ready to redo) and the entry the document was saved at. Only a parameter slider's
    changes merge, within one gesture: a whole drag is one entry and two drags are two. An
    entry saved at takes no more changes, so that undoing it goes back to the saved state."""

    def __init__(self) -> None:
        self.entries: list[Entry] = []
        self.index = 0
        self.saved: int | None = 0  # the index the document was saved at (None: none)

    def mark_saved(self) -> None:
        self.saved = self.index

    def forget_saved(self) -> None:
        """No index is the saved state (a document recovered from an autosave)."""
        self.saved = None

    def push(self, edit: Edit, gesture: int | None) -> Pushed:
        del self.entries[self.index :]
        if self.saved is not None and self.saved > self.index:
            self.saved = None  # the saved state was undone, and is now gone
        merged = self._merged(edit, gesture)
        if merged is None:
            self.entries.append(Entry(edit, gesture))
            self.index += 1
            return Pushed.ADDED
        if merged == merged.inverse():
            self.entries.pop()
            self.index -= 1
            return Pushed.DROPPED
        self.entries[-1].edit = merged
        return Pushed.MERGED

    def _merged(self, edit: Edit, gesture: int | None) -> Edit | None:
        if not self.entries or self.index == self.saved or gesture is None:
            return None
        last, key = self.entries[-1], merge_key(edit)
        if last.gesture != gesture or key is None or merge_key(last.edit) != key:
            return None
        return last.edit.merged(edit)


def merge_key(edit: Edit) -> str | None:
    """What an edit merges by: a parameter slider's setting (the key), or nothing."""
    if isinstance(edit, SetSetting) and edit.key in PARAMETERS:
        return edit.key
    return None


class Session:
    """The document, its history and `submit`: see the module's doc."""

    def __init__(self, scene: Scene, model: Model, observer: Observer | None = None) -> None:
        self.model = model
        self.observer: Observer = observer or Unobserved()
        self.replace(scene)
        self._gestures = 0  # gestures begun; the open one's number, or None
        self.gesture: int | None = None
        self._handlers = self._request_handlers()

    def replace(self, scene: Scene) -> None:
        """Make `scene` the document, with no history (a load; the run is its holder's)."""
        self.scene = scene
        self.history = History()
        self.counts = body_counts(scene.bodies)  # (particles, links) of the document

    @property
    def settings(self) -> Settings:
        return settings_of(self.scene)

    # --- requests: the one way in -------------------------------------------------------

    def submit(self, request: object) -> None:
        """Carry out a request: an edit or run record (sim.document.commands), a Composed, or a
        request of sim.document.requests. An edit is checked against the document, entered in
        the history (nothing when it changes nothing) and applied; a run command is checked and
        sent. Raises ValueError (CommandError, SceneError; one line) or KeyError (an unknown
        setting) and changes nothing when the request does not fit the document, TypeError
        when the session does not take it."""
        handler = self._handlers.get(type(request))
        if handler is None:
            raise TypeError(f"not a request: {request!r}")
        handler(request)

    def _request_handlers(self) -> dict[type, Callable[[Any], None]]:
        """By the request's type: one place says what each request does."""
        return {
            ChangeSetting: self._set_setting, SetSetting: self._set_setting,
            SetPin: self._set_pin, CutLinks: self._cut,
            EditScene: self.push, SetSceneInfo: self.push, EditRulers: self.push,
            Composed: self._compose,
            Compose: lambda request: self._compose(request.composed(self.scene)),
            Preview: self._preview,
            BeginGesture: self._begin_gesture, EndGesture: self._end_gesture,
            GrabStart: self._send, GrabMove: self._send, GrabRelease: self._send,
            Run: self._send, Pause: self._send, Step: self._send, SetSpeed: self._send,
            SetPositions: self._send,
            SetProbe: self._set_probe, ToggleProbe: self._toggle_probe,
            SeamCut: self._seam_cut, Reset: self._reset, SetThenReset: self._set_then_reset,
        }  # fmt: skip

    def push(self, edit: Edit) -> None:
        """An undoable edit: checked, entered in the history and applied; raises CommandError
        (a ValueError) if it does not fit the model."""
        validate(edit, *self.counts)
        outcome = self.history.push(edit, self.gesture)
        self.apply(edit)
        self.observer.pushed(edit, outcome)

    def _send(self, command: Command) -> None:
        validate(command, *self.counts)
        self.model.send(command)

    def _begin_gesture(self, _request: BeginGesture) -> None:
        self._gestures += 1
        self.gesture = self._gestures

    def _end_gesture(self, _request: EndGesture) -> None:
        self.gesture = None

    def _set_setting(self, request: ChangeSetting | SetSetting) -> None:
        """Change a setting from the value the document has (a SetSetting's own `previous` is
        what its sender saw); raises KeyError for an unknown key, ValueError outside the
        declared range."""
        key = request.key
        if key not in SETTINGS_TABLE:
            raise KeyError(f"{key}: no such setting")
        try:
            value = SETTINGS_TABLE[key].check(request.value)
        except ValueError as error:  # named, as a status line says it without the field
            raise ValueError(f"{key}: {error}") from None
        previous = getattr(self.settings, key)
        if value != previous:
            self.push(SetSetting(key, value, previous))

    def _set_pin(self, request: SetPin) -> None:
        """Pin, move or (anchor None) unpin a particle. A pin made where the particle is in the
        run (`live`, the Pin tool's) is the document's at `anchor`."""
        particle, anchor, live = request.particle, request.anchor, request.live
        previous = next((p.anchor for p in self.scene.pins if p.particle == particle), None)
        if anchor is not None:
            anchor = as_point(anchor)
        if live is not None:
            live = as_point(live)
        if anchor != previous:
            self.push(SetPin(particle, anchor, previous, None if live == anchor else live))

    def _cut(self, request: CutLinks) -> None:
        """Cut the links of a stroke that are still live (restore those that are cut)."""
        links = {int(k) for k in request.links}
        if request.restore:
            chosen = links & set(self.scene.cuts)
        else:
            chosen = links - set(self.scene.cuts) - set(self.model.torn())
        if chosen:
            self.push(CutLinks(tuple(sorted(chosen)), request.restore))

    def _set_probe(self, edit: SetProbe) -> None:
        """Attach or take off a probe; raises CommandError when it does not fit the document
        (a fifth probe, a particle probed twice)."""
        edit.fits(self.scene)
        self.push(edit)

    def _toggle_probe(self, request: ToggleProbe) -> None:
        """A probe on the particle, or off it if it has one."""
        particle, probes = int(request.particle), self.scene.probes
        if particle in probes:
            self._set_probe(SetProbe(particle, False, probes.index(particle)))
        else:
            self._set_probe(SetProbe(particle, True, len(probes)))

    def _seam_cut(self, request: SeamCut) -> None:
        """The model's own seam cut of a sheet (the first unless the request names one)."""
        topology = build_topology(self.scene)
        if not topology.sheets:
            raise ValueError(tr("the scene has no sheet to cut a seam in"))
        sheet = request.sheet
        if not 0 <= sheet < len(topology.sheets):
            raise ValueError(
                tr("sheet {sheet}: the scene has {count} sheets").format(
                    sheet=sheet, count=len(topology.sheets)
                )
            )
        self._cut(CutLinks(tuple(seam_links(topology, sheet).tolist())))

    def _compose(self, composed: Composed) -> None:
        """A change of the scene's composition (sim.document.composition): one edit, named by
        its text; what it could not carry over is said."""
        if composed.scene == self.scene or not composed.text:
            return
        self.push(edit_of(self.scene, composed))
        if composed.message:
            self.observer.said(composed.message)

    def _preview(self, preview: Preview) -> None:
        """Show a change being dragged (a pin, the ball, an obstacle) without recording it: the
        drag's end asks for one edit from where it began. Live changes only."""
        command = preview.command
        edit: Edit
        if isinstance(command, Compose):
            edit = edit_of(self.scene, command.composed(self.scene))
            if edit.restart:
                return
        elif isinstance(command, SetPin) and command.anchor is not None:  # a pin dragged
            edit = SetPin(command.particle, as_point(command.anchor), None)
        elif isinstance(command, ChangeSetting):
            value = SETTINGS_TABLE[command.key].check(command.value)
            edit = SetSetting(command.key, value, value)
        else:
            raise TypeError(f"not a preview: {command!r}")
        validate(edit, *self.counts)
        self.model.send(edit)

    def _reset(self, _request: Reset) -> None:
        """Back to t = 0 and the set-up: rest positions, the edits applied, the links the run
        tore whole again (a file's own tears, a saved state's, stay: they are its set-up). Pins
        of the set-up anchor rest places, so the sheet starts unstretched; if pins were moved
        on purpose it starts stretched, and the session says so."""
        self.model.restart(self.scene, None)
        away = pins_away_from_rest(self.scene)
        if away:
            message = (
                tr("Reset: 1 pin is away from its rest place — the cloth starts stretched")
                if away == 1
                else tr(
                    "Reset: {count} pins are away from their rest places — the cloth starts "
                    "stretched"
                )
            )
            self.observer.said(message.format(count=away))

    def _set_then_reset(self, request: SetThenReset) -> None:
        self._set_setting(request.change)  # raises, changing nothing, if it does not fit
        self._reset(Reset())

    # --- the history ------------------------------------------------------------------------

    def apply(self, edit: Edit, batch: list[Edit] | None = None) -> None:
        """Apply an edit to the document, then to the run: live, or (a change of bodies) by
        starting it afresh; into `batch` instead, for go_to to send at once."""
        self.scene = apply_to_document(self.scene, edit)
        if edit.restart:
            self.counts = body_counts(self.scene.bodies)
        if batch is not None:
            batch.append(edit)
            return
        if edit.restart:
            self.model.restart(self.scene, edit.text)
        else:
            self.model.send(edit)
        self.observer.edited(self.scene, edit)

    def undo(self) -> Edit | None:
        """Undo the last done entry; returns the edit undone (None: nothing to undo)."""
        history = self.history
        if history.index == 0:
            return None
        history.index -= 1
        edit = history.entries[history.index].edit
        self.apply(edit.inverse())
        return edit

    def redo(self) -> Edit | None:
        """Redo the first undone entry; returns it (None: nothing to redo)."""
        history = self.history
        if history.index == len(history.entries):
            return None
        edit = history.entries[history.index].edit
        history.index += 1
        self.apply(edit)
        return edit

    def go_to(self, index: int) -> None:
        """Undo or redo up to `index` as one batch: the document takes the edits one by one,
        then the run starts afresh once if any of them changes bodies, or else takes the live
        edits in one go, and the observer is told once (920 entries had meant 920 restarts and
        redraws: 1.6 s)."""
        history, batch = self.history, list[Edit]()
        index = max(0, min(index, len(history.entries)))
        while history.index > index:
            history.index -= 1
            self.apply(history.entries[history.index].edit.inverse(), batch)
        while history.index < index:
            self.apply(history.entries[history.index].edit, batch)
            history.index += 1
        if not batch:
            return
        restart = next((edit for edit in batch if edit.restart), None)
        if restart is not None:  # from the scene the edits leave, the live ones included
            self.model.restart(self.scene, restart.text)
        else:
            self.model.send_all(list(batch))
        self.observer.edited(self.scene, None)
