"""The main window's dock panels: scene tree, parameters, readouts."""
