"""The `clothlab` console script: headless subcommands, or the desktop app.

The headless commands import no Qt, so `clothlab run` works on a machine without a display.
"""

from __future__ import annotations

import sys

HEADLESS_COMMANDS = ("run", "scenes", "bench")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in HEADLESS_COMMANDS:
        from clothlab.app import cli

        return cli.main(argv)
    from clothlab.app import gui

    return gui.main(argv)


if __name__ == "__main__":
    sys.exit(main())
