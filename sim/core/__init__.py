"""The model: topology, state, settings, kernels, constraints, integrators and the
simulation that steps them, with its readouts and snapshots. Imports nothing else of Cloth Lab."""
