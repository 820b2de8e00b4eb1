"""The document: the scene file format and its files, the commands that change a scene or a
run, recordings, composition and presets. Builds on sim.core only."""
