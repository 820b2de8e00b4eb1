"""Every command is one record (sim.document.commands), whose file form is derived from it: each
kind a recording can hold goes through save, load and replay here, and its effects land. A kind
registered without an example here fails the first test, so a new command is covered or the
suite says so."""

from __future__ import annotations

import dataclasses
import json
import math
from functools import reduce
from pathlib import Path

import numpy as np
import pytest

from clothlab.sim.document import composition
from clothlab.sim.document.commands import (
    COMMANDS,
    BlowUp,
    Command,
    CutLinks,
    EditRulers,
    GrabMove,
    GrabRelease,
    GrabStart,
    Load,
    Pause,
    Run,
    SetPin,
    SetPositions,
    SetProbe,
    SetSceneInfo,
    SetSetting,
    SetSpeed,
    Stamped,
    Step,
    WorkerCommand,
    apply_to_document,
    validate,
)
from clothlab.sim.document.edits import seam_links
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.recording import (
    Recording,
    load_recording,
    recording_json,
    save_recording,
)
from clothlab.sim.document.scene import (
    BoxSpec,
    RulerEnd,
    RulerSpec,
    Scene,
    body_counts,
    build_topology,
)
from clothlab.sim.lab.engine import Engine, replay

STEPS = 60
BOX_MOVED_TO = (0.3, -1.4, 0.0)
BLOWN_UP = 54  # the run's clock after the step that blew up (it met the move on 53→54)


def table_scene() -> Scene:
    """The hanging sheet above a box, so that a composition change can move the box live."""
    sheet = load_preset("hanging-sheet")
    return composition.add_obstacle(sheet, BoxSpec(center=(0.0, -1.5, 0.0))).scene


def one_of_each(scene: Scene) -> list[Stamped]:
    """A run holding every kind of command, with values the app would record."""
    seam = tuple(int(k) for k in seam_links(build_topology(scene)))
    moved = composition.change_obstacle(scene, 0, center=BOX_MOVED_TO)
    return [
        Stamped(0, SetSpeed(2.0)),
        Stamped(0, Run()),
        Stamped(5, GrabStart(160, (0.5, -1.0, 0.6))),
        Stamped(6, GrabMove((0.6, -0.9, 0.6))),
        Stamped(15, GrabRelease()),
        Stamped(20, CutLinks(seam)),
        Stamped(25, SetPin(14, (1.2, 1.0, 0.1), (1.4, 1.0, 0.0))),
        Stamped(30, SetSetting("wind", 2.0, 0.0)),
        Stamped(35, composition.edit_of(scene, moved)),
        Stamped(36, SetSceneInfo("Sheet over a box", "A box under it", scene.name, "")),
        Stamped(37, SetProbe(160, True, 0)),
        Stamped(40, Pause()),
        Stamped(40, Step(3)),
        Stamped(45, SetSpeed(math.inf)),  # written as null
        # A grab dragged 9 000 units in a step: the model blows up on the step to 54 and the
        # guard puts back step 30; the drag goes back and the grab lets go, on the run's clock.
        Stamped(50, GrabStart(160, (0.5, -1.0, 0.6))),
        Stamped(52, GrabMove((9000.0, 0.0, 0.0))),
        Stamped(BLOWN_UP, BlowUp(30)),
        Stamped(BLOWN_UP, GrabMove((0.5, -1.0, 0.6))),
        Stamped(56, GrabMove((0.5, -1.0, 0.6))),  # still: let go, it keeps the pointer's speed
        Stamped(58, GrabRelease()),
        Stamped(59, EditRulers((RULER,), ())),
        Stamped(59, set_positions_of(scene)),
    ]


def set_positions_of(scene: Scene) -> SetPositions:
    """Every particle raised 0.01 and moving down 0.01 a substep (a state of the API's)."""
    up = np.array([0.0, 0.01, 0.0])
    x = build_topology(scene).rest_positions + up
    return SetPositions(tuple(x.ravel().tolist()), tuple((x + up).ravel().tolist()))


RULER = RulerSpec(start=RulerEnd(particle=0), end=RulerEnd(point=(1.0, -2.0, 0.5)))


def command_classes(base: type = Command) -> set[type]:
    found = set()
    for sub in base.__subclasses__():
        found |= {sub} | command_classes(sub)
    return found


def test_the_examples_hold_every_kind_of_command() -> None:
    kinds = {item.command.kind for item in one_of_each(table_scene())}
    assert kinds == set(COMMANDS), "a kind of command without an example in one_of_each"
    # A command class declared without a kind could never be saved: only Load is never saved.
    records = {c for c in command_classes() if dataclasses.is_dataclass(c)}
    assert {c for c in records if c.kind is None} == {Load}, "a command class without a kind"
    assert {c.kind for c in records if c.kind} == set(COMMANDS)


class ThreadCalls:
    """A solver thread that notes what the commands ask of it
    (sim.document.commands.SolverThread)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, object]] = []

    def set_running(self, running: bool) -> None:
        self.calls.append(("running", running))

    def set_speed(self, speed: float) -> None:
        self.calls.append(("speed", speed))

    def step_paused(self, count: int) -> None:
        self.calls.append(("step", count))


def test_every_kind_of_command_is_saved_loaded_and_replayed(tmp_path: Path) -> None:
    scene = table_scene()
    commands = one_of_each(scene)
    recording = Recording(scene, tuple(commands), STEPS)
    particles, links = body_counts(scene.bodies)
    for item in commands:
        validate(item.command, particles, links)

    path = tmp_path / "every.clothrec.json"
    save_recording(recording, path)
    loaded = load_recording(path)
    assert loaded == recording
    text = path.read_text()
    assert recording_json(loaded) == text  # saved again, the same bytes
    entries = json.loads(text)["commands"]
    assert [e["type"] for e in entries] == [item.command.kind for item in commands]
    assert entries[13] == {"step": 45, "type": "set_speed", "speed": None}
    assert entries[16] == {"step": BLOWN_UP, "type": "blew_up", "restored": 30}
    assert all("restart" not in e for e in entries)

    # The simulation's commands replay at their steps; the solver thread's are left out.
    loaded_commands = [item.command for item in loaded.commands]
    engine = Engine.of(loaded)
    engine.advance_to(14)
    assert engine.sim.grabbed == 160
    assert np.allclose(engine.sim.state.x[160], (0.6, -0.9, 0.6))
    engine.advance_to(STEPS)
    sim = engine.sim
    live = [item for item in commands if not isinstance(item.command, WorkerCommand)]
    assert engine.journal[1:] == live
    assert not engine.blew_up and not engine.diverged  # the blow-up replayed where it was
    assert (engine.clock, engine.steps) == (STEPS, 30 + STEPS - BLOWN_UP)
    assert sim.grabbed is None
    seam = list(next(c.links for c in loaded_commands if isinstance(c, CutLinks)))
    assert not sim.state.link_alive[seam].any()
    assert sim.pins[14] == pytest.approx((1.2, 1.0, 0.1))
    assert sim.settings.wind == 2.0
    assert sim.boxes[0][0] == pytest.approx(BOX_MOVED_TO)
    same = Engine.of(recording)
    same.advance_to(STEPS)
    assert np.array_equal(same.sim.state.x, sim.state.x)
    assert np.array_equal(replay(loaded.journal, STEPS).state.x_prev, sim.state.x_prev)
    assert not np.array_equal(replay(loaded.journal[:1], STEPS).state.x, sim.state.x)

    # The edits land on the document, the solver thread's commands on the thread.
    document = reduce(apply_to_document, loaded_commands, scene)
    assert document.cuts == sorted(seam)
    assert [p.anchor for p in document.pins if p.particle == 14] == [(1.2, 1.0, 0.1)]
    assert document.wind.strength == 2.0
    assert document.obstacles[0].center == BOX_MOVED_TO
    assert (document.name, document.description) == ("Sheet over a box", "A box under it")
    assert document.rulers == [RULER]
    thread = ThreadCalls()
    for command in loaded_commands:
        command.on_thread(thread)
    assert thread.calls == [("speed", 2.0), ("running", True), ("running", False),
                            ("step", 3), ("speed", math.inf)]  # fmt: skip


def test_a_load_is_never_written_among_the_commands(tmp_path: Path) -> None:
    scene = table_scene()
    recording = Recording(scene, (Stamped(0, Load(scene)),), 1)
    with pytest.raises(ValueError, match="Load is never in a recording"):
        save_recording(recording, tmp_path / "load.clothrec.json")
