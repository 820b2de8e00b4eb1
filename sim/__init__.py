"""Cloth Lab's model and lab, pure numpy + numba, no Qt, no OpenGL: sim.core (the model) ←
sim.document (scenes, commands, recordings) ← sim.lab (the engine and the lab's services)."""
