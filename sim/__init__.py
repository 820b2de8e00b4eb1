"""Cloth Lab's model: pure numpy + numba, no Qt, no OpenGL."""

import os

# The two-thread solver meets at a barrier per colour per pass. OpenMP's default spins there,
# which on a busy 2-core machine (GUI, software OpenGL, the solver) wastes the very core the
# other thread waits for: measured 100 vs 257 steps/s on 128 × 128 under load. Sleep instead.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
