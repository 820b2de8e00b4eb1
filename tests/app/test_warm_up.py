"""`clothlab warm-up`: after it, every kernel is in numba's cache, so that no launch waits for
the compiler (make runs it once after installing)."""

from __future__ import annotations

import importlib
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

from numba.core.registry import CPUDispatcher

ROOT = Path(__file__).resolve().parents[2]
KERNEL_MODULES = [
    *(f"clothlab.sim.core.{m.name}" for m in pkgutil.iter_modules([str(ROOT / "sim" / "core")])),
    "clothlab.ui.viewport.meshes",
]


def cached_kernels() -> set[str]:
    """ "module.function" of every kernel compiled into the cache on its own (cache=True, not
    only inlined into others), as numba names its index files."""
    kernels = set()
    for name in KERNEL_MODULES:
        module = importlib.import_module(name)
        for value in vars(module).values():
            if not isinstance(value, CPUDispatcher) or value.__module__ != name:
                continue
            if value.targetoptions.get("inline") != "always":
                kernels.add(f"{name.rsplit('.', 1)[1]}.{value.__qualname__}")
    return kernels


# In a child process: the warm-up command, then the kernels (as cached_kernels names them) that
# it left without machine code (a JSON list). A kernel has machine code once compiled or loaded
# from numba's cache; a kernel only other kernels call has none of its own when they are loaded
# (their cached code holds it), so it counts as reached where a reached kernel calls it.
AFTER_WARM_UP = """
import argparse, importlib, inspect, json, sys
from numba.core.registry import CPUDispatcher
sys.path.insert(0, sys.argv[1])
from test_warm_up import cached_kernels, KERNEL_MODULES
from clothlab.app.warm_up import warm_up_command
warm_up_command(argparse.Namespace(jobs=1))
found = {f"{m.rsplit('.', 1)[1]}.{v.__qualname__}": v for m in KERNEL_MODULES
         for v in vars(importlib.import_module(m)).values() if isinstance(v, CPUDispatcher)}
reached = {k for k, v in found.items() if v.signatures}
sources = {k: inspect.getsource(v.py_func) for k, v in found.items()}
while called := {k for k in found.keys() - reached
                 if any(f"{found[k].__name__}(" in sources[r] for r in reached)}:
    reached |= called
print(json.dumps(sorted(cached_kernels() - reached)))
"""


def test_the_warm_up_reaches_every_kernel():
    """Every kernel is reached by the warm-up, so compiled into numba's cache (cache=True) or
    loaded from it: after `make`'s warm-up, loaded, so this costs a launch, not a compile of all
    of them (which took 313 s in a full run)."""
    result = subprocess.run(
        [sys.executable, "-c", AFTER_WARM_UP, str(Path(__file__).parent)], capture_output=True,
        text=True, timeout=900, cwd=ROOT,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[-2].startswith("compiled in ")
    assert len(cached_kernels()) > 40
    assert json.loads(lines[-1]) == []
