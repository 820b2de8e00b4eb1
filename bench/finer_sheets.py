"""How stretched `hanging-sheet` hangs 3 s after the start at finer resolutions, with the
classic rule as it is and with each fix the lab could offer: the figures of
sim.lab.resolution and RESEARCH.md §3.

    .venv/bin/python bench/finer_sheets.py [--grid 128x91 ...]
"""

from __future__ import annotations

import argparse
import time

from clothlab.sim.document.composition import change_body
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.scene import with_settings
from clothlab.sim.lab.resolution import settled_stretch

FIXES = {
    "classic, 8 passes": {},
    "32 passes": {"passes": 32},
    "XPBD, 8 substeps": {"xpbd": True, "substeps": 8},
    "tethers": {"tethers": True},
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grid", action="append", help="COLSxROWS (default 15x11 60x43 128x91)")
    grids = [tuple(int(n) for n in g.split("x")) for g in parser.parse_args().grid or []]
    print(f"{'sheet':>9}" + "".join(f"{name:>20}" for name in FIXES) + f"{'seconds':>9}")
    for cols, rows in grids or [(15, 11), (60, 43), (128, 91)]:
        scene = change_body(load_preset("hanging-sheet"), 0, cols=cols, rows=rows).scene
        started, cells = time.perf_counter(), []
        for changes in FIXES.values():
            stretch, settled = settled_stretch(with_settings(scene, changes))
            cells.append(f"{100 * stretch:.1f} %" + ("" if settled else " (cut short)"))
        took = time.perf_counter() - started
        print(f"{f'{cols}×{rows}':>9}" + "".join(f"{c:>20}" for c in cells) + f"{took:9.1f}")


if __name__ == "__main__":
    main()
