"""The `clothlab` console script: headless subcommands, or the desktop app.

The headless commands import no Qt, so `clothlab run` works on a machine without a display.
"""

from __future__ import annotations

import sys

HEADLESS_COMMANDS = (
    "run",
    "compare",
    "sweep",
    "scenes",
    "bench",
    "questions",
    "validate",
    "warm-up",
)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in HEADLESS_COMMANDS:
        try:  # importing numpy, numba and pydantic takes ~0.7 s: Ctrl+C may land in it
            from clothlab.app import cli
        except KeyboardInterrupt:
            print("clothlab: interrupted", file=sys.stderr)
            return 130
        return cli.main(argv)
    from clothlab.app import gui

    return gui.main(argv)


if __name__ == "__main__":
    sys.exit(main())
