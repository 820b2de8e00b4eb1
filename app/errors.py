"""The command line's error for bad input, and the parser that raises it, shared by the GUI's
options and the CLI's subcommands."""

import argparse
from typing import NoReturn


class UsageError(Exception):
    """Bad command-line input, or a file that cannot be read or written; the message is the
    one line shown to the user."""


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # argparse would print usage and a second line
        raise UsageError(message)
