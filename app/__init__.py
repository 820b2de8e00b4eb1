"""Cloth Lab's wiring: entry point and CLI, controller, solver thread, undo commands."""
