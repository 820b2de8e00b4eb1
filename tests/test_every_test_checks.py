"""Every test checks something: each `test_*` function of tests/ asserts, expects an exception
(`pytest.raises`), compares with numpy's or pytest-qt's checks, or waits on a condition that
fails the test when it never holds (`qtbot.waitUntil`, `qtbot.waitSignal`) — itself or through
the helpers of tests/ it calls. A test that only runs code (or only prints figures) passes
whatever the code does."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

TESTS = Path(__file__).resolve().parent
# Calls that fail the test when what they check does not hold: by the called name's last part.
CHECKING_CALLS = frozenset(
    {"raises", "warns", "fail", "waitUntil", "waitSignal", "waitSignals", "check"}
)
CHECKING_PREFIXES = ("assert_", "assert", "expect_")


def called_name(call: ast.Call) -> str | None:
    function = call.func
    if isinstance(function, ast.Name):
        return function.id
    if isinstance(function, ast.Attribute):
        return function.attr
    return None


def checks_directly(node: ast.AST) -> bool:
    for inner in ast.walk(node):
        if isinstance(inner, ast.Assert):
            return True
        if isinstance(inner, ast.Call):
            name = called_name(inner)
            if name in CHECKING_CALLS or (name or "").startswith(CHECKING_PREFIXES):
                return True
    return False


def calls_of(node: ast.AST) -> set[str]:
    return {name for c in ast.walk(node) if isinstance(c, ast.Call) and (name := called_name(c))}


def functions(tree: ast.Module) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


def checkless_tests(sources: dict[str, str]) -> list[str]:
    """`file:line name` of each test function among `sources` (file name → source) that checks
    nothing itself or through any function of the sources it calls (by name)."""
    trees = {file: ast.parse(source) for file, source in sources.items()}
    helpers: dict[str, list[ast.AST]] = {}
    for tree in trees.values():
        for function in functions(tree):
            helpers.setdefault(function.name, []).append(function)
    checking = {name for name, defs in helpers.items() if any(map(checks_directly, defs))}
    grew = True
    while grew:  # a helper that calls a checking helper checks
        grew = False
        for name, defs in helpers.items():
            if name not in checking and any(calls_of(d) & checking for d in defs):
                checking.add(name)
                grew = True
    return sorted(
        f"{file}:{function.lineno} {function.name}"
        for file, tree in trees.items()
        for function in functions(tree)
        if function.name.startswith("test") and function.name not in checking
    )


def test_every_test_of_the_suite_checks_something():
    sources = {
        path.relative_to(TESTS).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted(TESTS.rglob("*.py"))
    }
    assert len(sources) > 100  # the whole tree was read
    assert checkless_tests(sources) == []


def test_a_test_that_only_runs_code_or_prints_is_found():
    source = """
import pytest


def helper(x):
    assert x > 0


def runs(x):
    helper(x)


def test_runs_only():
    sum(range(3))


def test_zz_report_figures():
    print("figures")


def test_through_a_helper_of_a_helper():
    runs(1)


def test_raises():
    with pytest.raises(ValueError):
        int("x")


def test_waits_on_a_condition(qtbot):
    qtbot.waitUntil(lambda: True)


def test_numpy_check():
    np.testing.assert_array_equal([1], [1])
"""
    assert checkless_tests({"planted.py": source}) == [
        "planted.py:13 test_runs_only",
        "planted.py:17 test_zz_report_figures",
    ]
