"""Record a cut and replay it: a run with a grab and a seam cut, saved as a recording, opened
again and replayed bit for bit. The app plays the same file (File ▸ Open).

    python examples/record_and_replay.py [RECORDING.clothrec.json]
"""

from __future__ import annotations

import sys

import numpy as np

import clothlab


def record(path: str) -> np.ndarray:
    """Run the hanging sheet, pull a corner, cut it down the middle; returns the positions."""
    lab = clothlab.open("hanging-sheet")
    lab.run(60)  # let it settle for half a second
    lab.grab(160, (0.5, -1.0, 0.6))  # bottom row, near the middle
    for k in range(1, 11):  # drag it out towards the viewer over 10 steps
        lab.move_grab((0.5 + 0.05 * k, -1.0, 0.6 + 0.03 * k))
        lab.run(1)
    lab.release()
    cut = lab.cut_seam()
    lab.run(120)
    lab.save_recording(path)
    print(f"recorded {lab.steps} steps: a grab, a drag and a seam cut of {cut} links, to {path}")
    return lab.positions


def replay(path: str) -> np.ndarray:
    lab = clothlab.open(path)  # a recording: its commands apply at their steps
    table = lab.run()  # to the recording's end
    print(f"replayed {lab.steps} steps; live links at the end: {int(table['links'][-1])}")
    return lab.positions


def main() -> None:
    path = sys.argv[1] if len(sys.argv) > 1 else "cut.clothrec.json"
    recorded, replayed = record(path), replay(path)
    same = np.array_equal(recorded, replayed)
    print("the replay equals the run bit for bit" if same else "the replay differs!")
    sys.exit(0 if same else 1)


if __name__ == "__main__":
    main()
