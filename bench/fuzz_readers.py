"""A long Hypothesis fuzz of every reader of a file (tests/reader_fuzz.py): a scene, a
recording, a question set, a sweep's results, the user's fabrics, the window layout and a
Lab's state. Prints, per reader, the files tried, how many were read and refused, the slowest
read, and any file that raised anything but the reader's one-line refusal (saved beside
--out, with the error); exits 1 if there was one.

    python bench/fuzz_readers.py [--examples N] [--reader NAME]... [--out FOLDER]

The suite runs a short fuzz of each (tests/sim/document/test_fuzz_readers.py); this one runs
as long as asked (default 5000 files a reader).
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from hypothesis import HealthCheck, given, settings
from reader_fuzz import READERS, files_for


def fuzz(name: str, examples: int, out: Path) -> bool:
    """Fuzz one reader; True when every file was read or refused in one line."""
    outcomes: Counter[str] = Counter()
    slowest = [0.0]
    failures: list[tuple[bytes, str]] = []

    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(files_for(name))
    def one(data: bytes) -> None:
        started = time.perf_counter()
        try:
            outcomes[READERS[name].read(data)] += 1
        except Exception:  # what the reader let through: the finding
            outcomes["failed"] += 1
            failures.append((data, traceback.format_exc()))
        slowest[0] = max(slowest[0], time.perf_counter() - started)

    started = time.perf_counter()
    one()
    seconds = time.perf_counter() - started
    counts = ", ".join(f"{kind} {count}" for kind, count in sorted(outcomes.items()))
    print(f"{name:<10} {outcomes.total():>6} files in {seconds:6.1f} s ({counts}); "
          f"slowest {slowest[0] * 1e3:.1f} ms")  # fmt: skip
    for k, (data, error) in enumerate(failures[:5]):
        out.mkdir(parents=True, exist_ok=True)
        (out / f"{name}-{k}.bin").write_bytes(data)
        (out / f"{name}-{k}.txt").write_text(error)
        print(f"  {out / f'{name}-{k}.bin'}: {error.strip().splitlines()[-1]}")
    return not failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=5000, help="files a reader (5000)")
    parser.add_argument("--reader", action="append", choices=sorted(READERS), default=[])
    parser.add_argument("--out", type=Path, default=Path("fuzz-findings"))
    args = parser.parse_args()
    results = [fuzz(name, args.examples, args.out) for name in args.reader or sorted(READERS)]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
