"""What the Qt tests (tests/app, tests/ui) share besides fixtures: how long they wait.

Importable from any test module as `from qt_helpers import WAIT_MS`: tests/ is on sys.path
because tests/conftest.py sits there (pytest's default "prepend" import mode)."""

# Generous because the first wait of a session also compiles the numba kernels; a wait that
# succeeds returns as soon as its condition holds, so a passing run never waits this long.
WAIT_MS = 30_000
