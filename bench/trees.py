"""Benchmarks that compare revisions: a revision checked out into a temporary worktree, and
child processes that import clothlab from a given tree."""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# The start of a child script: imports clothlab from the tree at sys.argv[1] (its top-level
# folders are the package's parts, as pyproject.toml maps them).
IMPORT_TREE = r"""
import importlib.util, json, sys, time
root = sys.argv[1]
parts = [("clothlab", "api"), ("clothlab.sim", "sim"), ("clothlab.app", "app"),
         ("clothlab.ui", "ui"), ("clothlab.resources", "resources")]
modules = []
for name, folder in parts:
    spec = importlib.util.spec_from_file_location(
        name, f"{root}/{folder}/__init__.py", submodule_search_locations=[f"{root}/{folder}"])
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    modules.append((module, spec))
for module, spec in reversed(modules):
    spec.loader.exec_module(module)
"""


def before_tree(rev: str) -> Path:
    # named by the commit, not by what was asked for: a worktree of "HEAD" kept from an
    # earlier session would otherwise be that session's HEAD
    rev = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", rev], check=True,
                         capture_output=True, text=True).stdout.strip()  # fmt: skip
    path = Path(tempfile.gettempdir()) / f"clothlab-before-{rev}"
    if not path.exists():
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(path), rev],
                       check=True, capture_output=True)  # fmt: skip
    return path


def revisions(
    description: str, before: str, rounds: int = 3, **options: float | int | str
) -> tuple[argparse.Namespace, dict[str, Path]]:
    """The command line of a side-by-side benchmark (--before REV, --rounds N, and a --NAME X
    for each of `options`, their defaults, of their defaults' types) and its two trees,
    "before" and "after" (this checkout)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--before", default=before)
    parser.add_argument("--rounds", type=int, default=rounds)
    for name, default in options.items():
        parser.add_argument(f"--{name}", type=type(default), default=default)
    args = parser.parse_args()
    return args, {"before": before_tree(args.before), "after": ROOT}


def run_child(script: str, *args: str) -> str:
    """What a child script printed (python -c script args…), run from the temporary folder."""
    return subprocess.run(
        [sys.executable, "-c", script, *args], capture_output=True, text=True, check=True,
        cwd=tempfile.gettempdir(),
    ).stdout  # fmt: skip


def side_by_side(values: dict[str, list[float]]) -> str:
    """A figure in the two trees, each the median (min–max) of its rounds, and their ratio
    (after / before)."""
    spread = {
        tree: f"{statistics.median(v):.2f} ({min(v):.2f}–{max(v):.2f})"
        for tree, v in values.items()
    }
    ratio = statistics.median(values["after"]) / statistics.median(values["before"])
    return f"{spread['before']:>22} {spread['after']:>22} {ratio:>6.2f}"
