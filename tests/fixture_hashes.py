"""How the recordings in tests/sim/fixtures/recordings are hashed (expected.json): the states
and the readout rows their replays give. Importable from any test module (tests/ is on
sys.path, as for qt_helpers)."""

from __future__ import annotations

import hashlib

import numpy as np

from clothlab.sim.core.readouts import CSV_COLUMNS

# The readout columns the rows' hashes were computed over, by the version that saved the
# fixtures (commit c6a0d64). Readouts added since (max_speed, faces) are not in the hashes:
# their own tests check them, and the columns that were there must still come out bit for bit.
HASHED_COLUMNS = (
    "step", "t", "sag", "volume", "motion", "max_stretch", "residual", "kinetic_energy",
    "potential_energy", "total_energy", "damping_loss", "wind_work", "solver_loss", "links",
)  # fmt: skip


def rows_digest(rows: object) -> str:
    """sha256 of the rows' HASHED_COLUMNS, float64, row-major (rows as CSV_COLUMNS)."""
    array = np.array(rows, dtype=np.float64).reshape(-1, len(CSV_COLUMNS))
    picked = array[:, [CSV_COLUMNS.index(key) for key in HASHED_COLUMNS]]
    return hashlib.sha256(np.ascontiguousarray(picked).tobytes()).hexdigest()
