"""Benchmarks that compare revisions: a revision checked out into a temporary worktree, and
child processes that import clothlab from a given tree."""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# The start of a child script: imports clothlab from the tree at sys.argv[1] (its top-level
# folders are the package's parts, as pyproject.toml maps them).
IMPORT_TREE = r"""
import importlib.util, json, sys, time
root = sys.argv[1]
parts = [("clothlab", "api"), ("clothlab.sim", "sim"), ("clothlab.app", "app"),
         ("clothlab.resources", "resources")]
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
    path = Path(tempfile.gettempdir()) / f"clothlab-before-{rev}"
    if not path.exists():
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(path), rev],
                       check=True, capture_output=True)  # fmt: skip
    return path
