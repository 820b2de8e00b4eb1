"""Every user action as a command record, and the two places commands are carried out.

Edits (sim.edits: cut, pin, setting, composition) change the document and the simulation; the other
commands steer the simulation (grab) or the solver thread (load, run, pause, step, speed).
`apply_to_document` is the one function that changes a scene by a command,
`apply_to_simulation` the one that changes a simulation. A run is a list of `Stamped` commands:
each carries the step it was applied at, so replaying the list from the same scene (an
sim.engine.Engine does) applies every command at the same step and reproduces the positions
bit for bit.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from clothlab.sim.composition import bodies_restructure
from clothlab.sim.edits import CutLinks, Edit, EditScene, SetPin, SetSetting, with_pin
from clothlab.sim.parameters import COORDINATE_LIMIT, SETTINGS_TABLE, Vec3
from clothlab.sim.scene import (
    PinSpec,
    Scene,
    body_materials,
    obstacle_shapes,
    with_setting,
)
from clothlab.sim.solver import Simulation


@dataclass(frozen=True)
class GrabStart:
    particle: int
    target: Vec3
    place: bool = False  # put the particle there now (the solver is paused), not at a step


@dataclass(frozen=True)
class GrabMove:
    target: Vec3
    place: bool = False


@dataclass(frozen=True)
class GrabRelease:
    pass


@dataclass(frozen=True)
class Load:
    """Start afresh from a scene at step 0 (opening a file, a preset, or Reset)."""

    scene: Scene


@dataclass(frozen=True)
class Run:
    pass


@dataclass(frozen=True)
class Pause:
    pass


@dataclass(frozen=True)
class Step:
    """Advance this many steps while paused."""

    count: int = 1


@dataclass(frozen=True)
class SetSpeed:
    speed: float  # model seconds per wall second; math.inf for as fast as possible


Command = Edit | GrabStart | GrabMove | GrabRelease | Load | Run | Pause | Step | SetSpeed
WORKER_COMMANDS = (Load, Run, Pause, Step, SetSpeed)  # carried out by the solver thread


@dataclass(frozen=True)
class Stamped:
    step: int  # apply when the simulation has taken this many steps (or later, if past)
    command: Command


class CommandError(ValueError):
    """A command that does not fit the model it is meant for; the message is one line."""


# --- the document ----------------------------------------------------------------------------


def apply_to_document(scene: Scene, command: Command) -> Scene:
    """The document after a command; commands that do not edit it leave it as it is."""
    if isinstance(command, SetSetting):
        return with_setting(scene, command.key, command.value)
    if isinstance(command, SetPin):
        # The other pins' specs are kept as they are: building every PinSpec anew made each
        # edit cost 50 ms at 10 000 pins. Pins stay in particle order.
        pins = [p for p in scene.pins if p.particle != command.particle]
        if command.anchor is not None:
            pin = PinSpec(particle=command.particle, anchor=command.anchor)
            bisect.insort(pins, pin, key=lambda p: p.particle)
        return scene.model_copy(update={"pins": pins})
    if isinstance(command, CutLinks):
        cuts = set(scene.cuts)
        cuts = cuts - set(command.links) if command.restore else cuts | set(command.links)
        return scene.model_copy(update={"cuts": sorted(cuts)})
    if isinstance(command, EditScene):
        update = dict(command.after)
        if command.restart:
            update["tears"] = []  # the model starts afresh: nothing is torn
        return scene.model_copy(update=update)
    if isinstance(command, Load):
        return command.scene
    return scene


# --- the simulation --------------------------------------------------------------------------


def apply_to_simulation(sim: Simulation, command: Command) -> None:
    """Carry out a command on a simulation. Load, run, pause, step and speed belong to the
    solver thread (app.worker) and do nothing here."""
    if isinstance(command, CutLinks):
        sim.set_cut(command.links, not command.restore)
    elif isinstance(command, SetPin):
        sim.set_pins(with_pin(sim.pins, command.particle, command.anchor))
    elif isinstance(command, SetSetting):
        sim.settings = sim.settings.with_value(command.key, command.value)
    elif isinstance(command, EditScene):
        _apply_composition(sim, command)
    elif isinstance(command, GrabStart):
        sim.grab(command.particle, command.target, command.place)
    elif isinstance(command, GrabMove):
        sim.move_grab(command.target, command.place)
    elif isinstance(command, GrabRelease):
        sim.release()
    elif not isinstance(command, WORKER_COMMANDS):
        raise TypeError(f"not a command: {command!r}")


def _apply_composition(sim: Simulation, edit: EditScene) -> None:
    """The live parts of a composition change: pins, obstacles, bodies' materials."""
    if edit.restart:
        raise CommandError(f"{edit.text}: a change of bodies starts the model afresh (a Load)")
    if "pins" in edit.after:
        sim.set_pins({p.particle: p.anchor for p in edit.after["pins"]})
    if "obstacles" in edit.after:
        sim.set_obstacles(*obstacle_shapes(edit.after["obstacles"]))
    if "bodies" in edit.after:
        sim.set_materials(body_materials(edit.after["bodies"]))


# --- validation ------------------------------------------------------------------------------


def validate(command: Command, particles: int, links: int) -> None:
    """Raise CommandError unless the command fits a model of that many particles and links:
    indices in range, finite coordinates, settings of their declared type and range."""
    if isinstance(command, CutLinks):
        _indices(command.links, links, "link")
    elif isinstance(command, SetPin):
        _indices((command.particle,), particles, "particle")
        if command.anchor is not None:
            _point(command.anchor, "anchor")
    elif isinstance(command, SetSetting):
        if command.key not in SETTINGS_TABLE:
            raise CommandError(f"{command.key}: unknown setting")
        try:
            SETTINGS_TABLE[command.key].check(command.value)
        except (TypeError, ValueError) as error:
            raise CommandError(f"{command.key}: {error}") from None
    elif isinstance(command, EditScene) and not command.restart:
        if "pins" in command.after:
            _indices([p.particle for p in command.after["pins"]], particles, "particle")
        if "cuts" in command.after:
            raise CommandError(f"{command.text}: cuts change with bodies only (a restart)")
        if "bodies" in command.after and bodies_restructure(
            command.before["bodies"], command.after["bodies"]
        ):
            raise CommandError(f"{command.text}: a change of bodies must start afresh")
    elif isinstance(command, GrabStart):
        _indices((command.particle,), particles, "particle")
        _point(command.target, "grab target")
    elif isinstance(command, GrabMove):
        _point(command.target, "grab target")
    elif isinstance(command, Step) and not (isinstance(command.count, int) and command.count >= 0):
        raise CommandError(f"step: {command.count!r} is not a count of steps")


def _indices(values: Any, limit: int, what: str) -> None:
    for value in values:
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise CommandError(f"{what} {value!r} is not an index")
        if not 0 <= value < limit:
            raise CommandError(f"{what} {value} is not within 0…{limit - 1}")


def _point(values: Any, what: str) -> None:
    """Three finite numbers within the scene file's coordinate limit (what a file can hold)."""
    if len(values) != 3 or not all(
        isinstance(v, (int, float, np.floating, np.integer))
        and math.isfinite(v)
        and abs(v) <= COORDINATE_LIMIT
        for v in values
    ):
        raise CommandError(f"{what} must be three finite numbers within ±{COORDINATE_LIMIT:g}")
