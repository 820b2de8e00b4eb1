"""A sparse symmetric positive definite matrix factored once and solved many times: sparse
Cholesky (CHOLMOD, from the `cholespy` wheel), on the calling thread alone.

CHOLMOD's OpenMP threads gave no speed and took a core: headless, a 64² denim sheet's steps took
the same wall time on one thread as on two, at twice the CPU, and in the window those threads
took the core that draws. So OMP_NUM_THREADS is 1, unless the user set it, for the OpenMP runtime
cholespy brings, which reads it as it loads, here; numba sets its own threads' count itself.
"""

from __future__ import annotations

import atexit
import os
import weakref

import numpy as np
import scipy.sparse as sparse

os.environ.setdefault("OMP_NUM_THREADS", "1")
import cholespy


class Factor:
    """L·Lᵀ of a symmetric positive definite matrix (both triangles given)."""

    def __init__(self, matrix: sparse.spmatrix) -> None:
        coo = sparse.coo_matrix(matrix)
        self.size = coo.shape[0]
        self._solver = cholespy.CholeskySolverD(
            self.size, coo.row.astype(np.int32), coo.col.astype(np.int32), coo.data,
            cholespy.MatrixType.COO,
        )  # fmt: skip
        _LIVE.add(self)

    def solve(self, rhs: np.ndarray, out: np.ndarray) -> None:
        """out = matrix⁻¹·rhs; rhs and out (size,) or (size, k) float64, C-contiguous."""
        self._solver.solve(rhs, out)


# Factors still held when the interpreter exits (a simulation in a module's global, the app's)
# are freed before cholespy's module is: else its binding library prints a dozen lines of
# "leaked instance" on stderr at every exit.
_LIVE: weakref.WeakSet[Factor] = weakref.WeakSet()


@atexit.register
def _free_factors() -> None:
    for factor in list(_LIVE):
        del factor._solver
