"""The window and its parts: the main window, its action table, layout, status bar, dialogs and
preferences, and the scene editor's, exporter's and recorder's wiring."""
