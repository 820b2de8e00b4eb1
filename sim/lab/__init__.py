"""The lab's services over the model and its documents: the engine that advances every run,
variants, sweeps, questions, exports and checks. Builds on sim.core and sim.document."""
