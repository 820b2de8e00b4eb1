"""A short Hypothesis fuzz of every reader of a file (tests/reader_fuzz.py): each mutated file
is read or refused in one line naming it, never another exception. bench/fuzz_readers.py runs
a long one."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from reader_fuzz import READERS, files_for, seeds_of

# about a second a reader on a quiet machine (a question set loads the scenes it names)
EXAMPLES = {"questions": 100}


@pytest.mark.parametrize("name", sorted(READERS))
def test_mutated_files_are_read_or_refused_in_one_line(name):
    assert all(READERS[name].read(seed) == "read" for seed in seeds_of(name))  # the seeds read

    @settings(max_examples=EXAMPLES.get(name, 300), deadline=None, derandomize=True,
              database=None, suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
    @given(files_for(name))
    def read_or_refused(data: bytes) -> None:
        assert READERS[name].read(data) in ("read", "refused")

    read_or_refused()
