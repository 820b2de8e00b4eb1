"""docs/reference.md is what docs/make_reference.py writes from the API's docstrings now."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def make_reference():
    spec = importlib.util.spec_from_file_location("make_reference", ROOT / "docs/make_reference.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_reference_is_up_to_date():
    written = (ROOT / "docs" / "reference.md").read_text(encoding="utf-8")
    assert written == make_reference().reference(), "python docs/make_reference.py writes it"


def test_the_reference_names_every_public_member_with_its_docstring():
    text = make_reference().reference()
    for name in (
        "clothlab.open(",
        "Lab.run(",
        "Lab.state()",
        "Lab.restore(",
        "Lab.copy()",
        "Lab.positions_view",
        "LabState.save(",
        "Table.to_pandas()",
        "SweepRow",
    ):
        assert f"`{name}" in text or f"`clothlab.{name}" in text, name
