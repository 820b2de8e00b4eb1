"""tests/ mirrors the code's folders: every folder of tests/ that holds test files is tests/ itself
or names a package folder of the checkout (tests/sim/core for sim/core, tests/api for api), so
the tests of a module are found where the module is."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent


def folders_without_code(tests: Path, root: Path) -> list[str]:
    """The folders under `tests` holding test files that name no package folder under `root`."""
    holding = sorted({path.parent for path in tests.rglob("test_*.py")})
    return [
        folder.relative_to(tests).as_posix()
        for folder in holding
        if folder != tests and not (root / folder.relative_to(tests) / "__init__.py").is_file()
    ]


def test_every_folder_of_tests_mirrors_a_folder_of_the_code():
    assert folders_without_code(TESTS, ROOT) == []
    assert (TESTS / "sim" / "core").is_dir() and (TESTS / "ui" / "window").is_dir()


def test_a_test_folder_for_no_package_is_found(tmp_path):
    for folder in ("sim/core", "ui"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "__init__.py").write_text("")
    for test in ("tests/test_top.py", "tests/sim/core/test_a.py", "tests/ui/old/test_b.py"):
        (tmp_path / test).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / test).write_text("")
    assert folders_without_code(tmp_path / "tests", tmp_path) == ["ui/old"]
