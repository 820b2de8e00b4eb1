"""`clothlab warm-up` (issue 31 item 4): after it, every kernel is in numba's cache, so that no
launch waits for the compiler (make runs it once after installing)."""

from __future__ import annotations

import importlib
import os
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


def test_the_warm_up_compiles_every_kernel_into_the_cache(tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, "-m", "clothlab.app.main", "warm-up"], env=env, capture_output=True,
        text=True, timeout=900, cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1].startswith("compiled in ")
    indexed = {path.name.split("-")[0] for path in tmp_path.rglob("*.nbi")}
    kernels = cached_kernels()
    assert len(kernels) > 40
    assert kernels <= indexed, sorted(kernels - indexed)
