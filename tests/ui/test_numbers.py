"""Numbers as the plots write them: pure functions, no display."""

from __future__ import annotations

import numpy as np

from clothlab.ui.numbers import decade_label


def test_a_log_axis_labels_the_1_2_and_5_of_each_decade_only():
    """Fit my fabric's B axis spans two decades: every minor tick labelled ran into the next."""
    ticks = np.log10([0.6e-6, 1e-6, 2e-6, 3e-6, 5e-6, 1e-5, 2e-5, 7e-5, 1e-4])
    labels = [decade_label(10.0**tick * 1e6) for tick in ticks]  # shown in µN·m
    assert labels == ["", "1", "2", "", "5", "10", "20", "", "100"]
    assert decade_label(0.5) == "0.5" and decade_label(0.0) == ""
