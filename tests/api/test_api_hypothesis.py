"""Hypothesis drives the API with numpy scalars, NaN and infinities, huge and
wrong-typed values, from one thread and from two, with states kept and restored: every call
either works or raises ValueError in one line, and every save the Lab then makes opens again
(the recording and the state replaying it)."""

from __future__ import annotations

import math
import threading
import weakref
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import clothlab
from tests.api.test_api_boundary import reopen_all

PARTICLES, LINKS = 165, 584  # hanging-sheet's
KEPT_STATE = "the state kept last"  # stands for it among the calls' arguments
kept: weakref.WeakKeyDictionary[clothlab.Lab, clothlab.LabState] = weakref.WeakKeyDictionary()

whole = st.one_of(
    st.integers(-3, PARTICLES + 3),
    st.integers(-3, PARTICLES + 3).map(np.int64),
    st.integers(0, 255).map(np.uint8),
    st.integers(min_value=10**18, max_value=10**400),
)
real = st.one_of(
    st.floats(-3, 3),
    st.floats(-3, 3).map(np.float64),
    st.floats(-3, 3).map(np.float32),
    st.sampled_from([math.nan, math.inf, -math.inf, 1e300, np.float64("nan")]),
    st.integers(-3, 3),
    st.integers(min_value=10**308, max_value=10**400),
)
wrong = st.one_of(
    st.none(), st.booleans(), st.text(max_size=4), st.just(1.5), st.just(b"3"), st.just([1]),
    st.just({"x": 1}), st.just(np.array([1, 2])), st.just(complex(1, 1)),
)  # fmt: skip
point = st.one_of(
    st.tuples(real, real, real),
    st.tuples(real, real, real).map(np.array),
    st.lists(real, min_size=0, max_size=4),
    wrong,
)
index = st.one_of(whole, wrong)
setting = st.sampled_from(["wind", "passes", "ball", "floor_y"])

CALLS = st.one_of(
    st.tuples(st.just("pin"), st.tuples(index)),
    st.tuples(st.just("pin"), st.tuples(index, point)),
    st.tuples(st.just("unpin"), st.tuples(index)),
    st.tuples(st.just("cut"), st.tuples(st.lists(index, max_size=3) | wrong)),
    st.tuples(st.just("grab"), st.tuples(index, point)),
    st.tuples(st.just("move_grab"), st.tuples(point)),
    st.tuples(st.just("release"), st.just(())),
    st.tuples(st.just("add_probe"), st.tuples(index)),
    st.tuples(st.just("remove_probe"), st.tuples(index)),
    st.tuples(st.just("probe"), st.tuples(index)),
    st.tuples(st.just("add_ruler"), st.tuples(index | point, index | point)),
    st.tuples(st.just("remove_ruler"), st.tuples(index)),
    st.tuples(st.just("cut_seam"), st.tuples(index)),
    st.tuples(st.just("run"), st.tuples(st.integers(0, 4) | st.integers(0, 4).map(np.int64))),
    st.tuples(st.just("run"), st.tuples(wrong | st.just(10**30) | st.just(-1))),
    st.tuples(st.just("set"), st.dictionaries(setting, real | whole | wrong, max_size=2)),
    st.tuples(st.just("keep"), st.just(())),  # a state kept, for "restore" to go back to
    st.tuples(st.just("restore"), st.tuples(st.just(KEPT_STATE) | wrong)),
)  # fmt: skip


def call(lab: clothlab.Lab, name: str, args: Any) -> None:
    """A call that works, or fails in one line as a ValueError (VariantError is one)."""
    if name == "keep":
        kept[lab] = lab.state()
        return
    if name == "restore" and args[0] is KEPT_STATE:
        args = (kept.get(lab, lab.state()),)
    method = getattr(lab, name)
    try:
        method(**args) if name == "set" else method(*args)
    except ValueError as error:
        text = str(error)
        assert text and "\n" not in text and len(text) < 400, text


SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])  # fmt: skip


@SETTINGS
@given(calls=st.lists(CALLS, max_size=12))
def test_any_calls_either_work_or_fail_in_one_line_and_every_save_reopens(calls, tmp_path):
    lab = clothlab.open("hanging-sheet")
    for name, args in calls:
        call(lab, name, args)
    reopen_all(lab, tmp_path)


@SETTINGS
@given(calls=st.lists(CALLS, min_size=1, max_size=12))
def test_calls_from_a_second_thread_while_the_first_runs_leave_saves_that_reopen(calls, tmp_path):
    lab = clothlab.open("hanging-sheet")
    stop = threading.Event()

    def step_on() -> None:
        while not stop.is_set():
            lab.run(1)

    stepper = threading.Thread(target=step_on)
    stepper.start()
    try:
        for name, args in calls:
            call(lab, name, args)
    finally:
        stop.set()
        stepper.join()
    reopen_all(lab, tmp_path)
