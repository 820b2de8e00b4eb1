"""The type check (make test runs it: tests/installed_layout.py) reads the package as it installs
and fails on a planted error. The layers' import contracts are tests/test_layers.py."""

from __future__ import annotations

from installed_layout import installed_layout, typecheck


def test_the_type_check_reads_the_package_as_it_installs(tmp_path):
    """Checked as the checkout's folders, every clothlab import was Any and this passed."""
    folder = installed_layout(tmp_path)
    (folder / "clothlab" / "probe.py").write_text(
        "from clothlab.sim.core.parameters import Settings\n\n\n"
        "def passes() -> str:\n    return Settings().passes\n"
    )
    report, status = typecheck(folder)
    assert status == 1
    expected = 'api/probe.py:5: error: Incompatible return value type (got "int", expected "str")'
    assert expected in report
