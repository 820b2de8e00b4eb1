"""The type check (tests/installed_layout.py) reads the package as it installs: the package
passes it, and a planted error fails it. It runs here, among the tests, so that a fresh clone's
first check (half a minute without mypy's cache) runs beside other tests on the second core.
The layers' import contracts are tests/test_layers.py."""

from __future__ import annotations

from installed_layout import installed_layout, typecheck


def test_the_package_passes_the_type_check(tmp_path):
    report, status = typecheck(installed_layout(tmp_path))
    assert status == 0, report


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
