"""The kernels take records (sim.core.records), not long lists of positionals, and each record
keeps one numba type whoever hands it out: one compiled kernel per role, not one per caller."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import numba
import numpy as np
from sim_helpers import hanging_sheet

from clothlab.sim.core import records
from clothlab.sim.core.constraint_sets import BendingSet, Model
from clothlab.sim.core.parameters import Settings

SIM = Path(__file__).resolve().parents[3] / "sim"
MOST_PARAMETERS = 9  # the inline helpers of a link and a contact take nine numbers


def kernel_parameters() -> dict[str, int]:
    """Every @njit function under sim/: "module.function" → its number of parameters."""
    found = {}
    for path in sorted(SIM.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and any(
                "njit" in ast.unparse(d) for d in node.decorator_list
            ):
                found[f"{path.stem}.{node.name}"] = len(node.args.args)
    return found


def test_no_kernel_takes_ten_parameters_or_more():
    kernels = kernel_parameters()
    assert kernels["kernels.step_classic"] <= 6 and kernels["kernels.step_parallel"] <= 6
    assert {k for k, count in kernels.items() if count > MOST_PARAMETERS} == set()


def test_every_record_field_says_what_it_is():
    """Each record has a docstring, and each field a comment beside or above it, an array's
    with its shape (as DESIGN.md §4 asks)."""
    source = Path(records.__file__).read_text(encoding="utf-8")
    lines = source.splitlines()
    for node in ast.parse(source).body:
        if not isinstance(node, ast.ClassDef):
            continue
        assert ast.get_docstring(node), node.name
        for field in (f for f in node.body if isinstance(f, ast.AnnAssign)):
            line, above = lines[field.lineno - 1], lines[field.lineno - 2].strip()
            comment = line.split("#", 1)[1] if "#" in line else above
            assert (
                "#" in line
                or above.startswith("#")
                or ast.unparse(field.annotation) in ("bool", "float", "int")
            ), line
            if ast.unparse(field.annotation) == "np.ndarray":
                assert comment.lstrip("# ").startswith("("), line


def test_a_world_is_typed_the_same_whatever_the_settings_hold():
    """Settings given whole numbers (as a scene file may) still hand out a World of an int and
    five floats: the classic kernel is not compiled again for them."""
    usual = numba.typeof(Settings().world(0.0))
    whole = dataclasses.replace(Settings(), gravity=10, wind=0, dt=1, damping=1, passes=8)
    assert numba.typeof(whole.world(3)) == usual
    assert [str(t) for t in usual.types] == ["int64", *["float64"] * 5]


def test_the_links_and_the_bending_links_are_one_record_type():
    """project_links_xpbd runs over both: one compiled kernel serves them."""
    sim = hanging_sheet(6, 5, bending=True, xpbd=True)
    state = sim.state
    alive = (state.link_alive, state.face_alive)
    model = Model(sim.topology, *alive, state.pin_index, sim.links, sim.mechanics)
    bending = BendingSet()
    bending.build(model)
    links = sim.links.record(sim.link_material())
    assert numba.typeof(links) == numba.typeof(bending.links)
    assert np.shares_memory(links.moved, sim.links.moved)  # the kernels write the owner's


def test_contacts_are_typed_the_same_with_or_without_a_floor():
    sim = hanging_sheet(4, 3)
    obstacles = sim.obstacles()
    assert numba.typeof(obstacles.contacts(True, 0)) == numba.typeof(
        obstacles.contacts(np.bool_(False), -1.5)
    )


@numba.njit(cache=False)
def _moved_by(particles: records.Particles, by: float) -> float:
    particles.x[:] += by
    return float(particles.x.sum())


def test_a_prepared_call_runs_the_compiled_code_once_there_is_one_and_the_dispatcher_before():
    x = np.zeros((4, 3))
    particles = records.Particles(x, x.copy(), np.ones(4))
    first = records.prepared(_moved_by, particles, 0.5)
    assert first.func is _moved_by  # not compiled for these types yet: the dispatcher
    assert first() == 6.0
    again = records.prepared(_moved_by, particles, 0.5)
    assert again.func is not _moved_by  # the compiled code, without the dispatcher
    assert again() == 12.0 and np.all(x == 1.0)
    # other types (an int where a float was compiled, a read-only array): the dispatcher
    assert records.prepared(_moved_by, particles, 1).func is _moved_by
    frozen = x.copy()
    frozen.flags.writeable = False
    assert records.prepared(_moved_by, particles._replace(x_prev=frozen), 0.5).func is _moved_by
    assert records.prepared(_moved_by, particles, "half").func is _moved_by  # no fingerprint
