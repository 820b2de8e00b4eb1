"""The command line's error for bad input, shared by its subcommands."""


class UsageError(Exception):
    """Bad command-line input, or a file that cannot be read or written; the message is the
    one line shown to the user."""
