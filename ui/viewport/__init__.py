"""The 3D view: the OpenGL viewport, its camera and drawn items, mesh preparation, picking, and
the tools that turn mouse gestures into commands."""
