"""Cloth Lab's model: pure numpy + numba, no Qt, no OpenGL."""
