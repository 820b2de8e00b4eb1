"""`clothlab validate [--fabric NAME] [--test NAME] [--own KEY=VALUE] [--specimens N]
[--csv FILE]`: run the textile lab's tests (cantilever, hanging strip, Cusick drape) on each
fabric and print what each measured against its band, one line per fabric and test.

Exit 0 when every check lands in its band, 1 when one is out; a bad option is exit 2 and one
line on stderr. `--own` adds the user's own fabric ("yours": cotton's numbers with those given
changed). Imports no Qt, like every headless command.
"""

from __future__ import annotations

import argparse
import contextlib
from typing import Any

from clothlab.sim.core.materials import SI_FABRICS, SIMaterial
from clothlab.sim.document.files import AtomicFile
from clothlab.sim.document.scene import SceneError, SIMaterialSpec
from clothlab.sim.lab import textile, variants

EXIT_OUT_OF_BAND = 1
OWN = "yours"


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "validate", help="run the textile lab's tests on each fabric against published values"
    )
    parser.add_argument(
        "--fabric", action="append", default=[], metavar="NAME",
        help=f"only this fabric (repeatable): {', '.join(SI_FABRICS)}",
    )  # fmt: skip
    parser.add_argument(
        "--test", action="append", default=[], metavar="NAME",
        help=f"only this test (repeatable): {', '.join(textile.TESTS)}",
    )  # fmt: skip
    parser.add_argument(
        "--own", action="append", default=[], metavar="KEY=VALUE",
        help=f"test your own fabric too: {', '.join(textile.FABRIC_VALUE_KEYS)} (the rest "
        "from cotton)",
    )  # fmt: skip
    parser.add_argument(
        "--specimens", type=specimen_count, default=1, metavar="N",
        help="drape N specimens on each mesh (each started raised its own way) and compare "
        f"their mean, as a lab averages its specimens (1…{textile.MAX_SPECIMENS}; default 1)",
    )  # fmt: skip
    parser.add_argument("--csv", metavar="FILE", help="write the checks as CSV")


def specimen_count(text: str) -> int:
    """A count of specimens from the command line, 1…textile.MAX_SPECIMENS."""
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if not 1 <= count <= textile.MAX_SPECIMENS:
        raise argparse.ArgumentTypeError(f"expected 1…{textile.MAX_SPECIMENS}, got {count}")
    return count


def _own_fabric(pairs: list[str]) -> SIMaterial:
    fields: dict[str, float] = {}
    for pair in pairs:
        key = pair.partition("=")[0].strip()
        if key not in textile.FABRIC_VALUE_KEYS:
            known = ", ".join(textile.FABRIC_VALUE_KEYS)
            raise SceneError(f"--own {pair}: expected KEY=VALUE with KEY one of {known}")
        try:
            fields.update(
                dict.fromkeys(textile.FABRIC_VALUE_KEYS[key], variants.parse_pair(pair)[1])
            )
        except variants.VariantError as error:
            raise SceneError(f"--own {error}") from None
    # through the scene file's checks (a bias under a quarter of warp + weft, …): one line, and
    # before any check runs
    return SIMaterialSpec.of(OWN, SI_FABRICS["cotton"]).replaced(**fields).material


def validate_command(args: argparse.Namespace) -> int:
    for name in args.fabric:
        if name not in SI_FABRICS:
            raise SceneError(f"--fabric {name}: unknown fabric (fabrics: {', '.join(SI_FABRICS)})")
    for test in args.test:
        if test not in textile.TESTS:
            raise SceneError(f"--test {test}: unknown test (tests: {', '.join(textile.TESTS)})")
    fabrics = {n: m for n, m in SI_FABRICS.items() if not args.fabric or n in args.fabric}
    if args.own:
        fabrics[OWN] = _own_fabric(args.own)
    checks = []
    # A CSV that cannot be written is refused before the first check runs (minutes before the
    # last); it is written whole when they are done, or not at all.
    with AtomicFile(args.csv) if args.csv else contextlib.nullcontext() as table:
        for check in textile.validate(fabrics, tuple(args.test) or textile.TESTS, args.specimens):
            print(check.line(), flush=True)
            checks.append(check)
        if table is not None:
            table.write(textile.checks_csv(checks).encode())
    return 0 if all(c.passed for c in checks) else EXIT_OUT_OF_BAND
