"""The typed classes agree with the tables they come from: the settings table is made of
Settings' fields (each declared once, with its row), Readouts agrees with READOUTS."""

from __future__ import annotations

import typing
from dataclasses import MISSING, fields

from clothlab.sim.core import parameters, readouts
from clothlab.sim.core.parameters import SETTINGS_TABLE, Settings
from clothlab.sim.core.readouts import READOUTS, Readouts

KINDS = {float: float, int: int, bool: bool, tuple: parameters.Vec3}


def test_settings_has_one_field_per_setting_of_its_kind_and_default():
    hints = typing.get_type_hints(Settings, vars(parameters))
    assert [f.name for f in fields(Settings)] == list(SETTINGS_TABLE)
    for f in fields(Settings):
        row = SETTINGS_TABLE[f.name]
        assert hints[f.name] == KINDS[row.kind], f.name
        assert f.default is not MISSING and f.default == row.default, f.name
        assert type(f.default) is row.kind, f.name  # 1.0, not 1, for a float
    assert Settings().is_classic


def test_readouts_has_model_time_and_one_field_per_readout_of_its_type():
    hints = typing.get_type_hints(Readouts, vars(readouts))
    assert [f.name for f in fields(Readouts)] == ["t", *(r.key for r in READOUTS)]
    assert hints["t"] is float
    for readout in READOUTS:
        count = readout.integer and readout.key != "folds"  # folds: NaN without a specimen
        assert hints[readout.key] is (int if count else float), readout.key
