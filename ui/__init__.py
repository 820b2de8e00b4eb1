"""Qt widgets of Cloth Lab: main window, OpenGL viewport, docks."""
