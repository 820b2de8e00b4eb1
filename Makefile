# Two entry points, each doing all of its own set-up on a fresh Debian machine with Python 3.11:
#   make run    — launch Cloth Lab on the default scene
#   make test   — run the whole test suite (under Xvfb for the OpenGL tests)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Qt's xcb platform plugin, Mesa's software OpenGL and the virtual X server for tests; D-Bus,
# the desktop's accessibility bus and a screen reader's binding for tests/ui/window/test_accessibility_bus.py.
DEBIAN_PACKAGES := xvfb xauth libgl1-mesa-dri libegl1 libxkbcommon-x11-0 libxcb-cursor0 \
	libxcb-icccm4 libxcb-image0 libxcb-keysyms1 libxcb-randr0 libxcb-render-util0 \
	libxcb-shape0 libxcb-xinerama0 libxcb-xkb1 libdbus-1-3 libfontconfig1 \
	dbus-daemon at-spi2-core python3-dbus

# The catalogues of the app's languages (resources/i18n), compiled by the build.
CATALOGUES := $(wildcard resources/i18n/*.ts)
COMPILED := $(CATALOGUES:.ts=.qm)

.PHONY: run test debian bench lint translations

run: $(STAMP) $(COMPILED)
	$(BIN)/clothlab $(ARGS)

test: debian $(STAMP) $(COMPILED)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	@# a crashed worker ends the run: xdist's replacing it once hung the run until CI's timeout
	$(BIN)/python -m pytest -n auto --dist loadfile --max-worker-restart=0 $(PYTEST_ARGS)

bench: $(STAMP)
	$(BIN)/clothlab bench --grid 15x11 --grid 64x64 --grid 128x128 --grid 256x256

%.qm: %.ts | $(STAMP)
	$(BIN)/pyside6-lrelease -silent $< -qm $@

# After changing user-visible text: every tr("…") and QT_TR_NOOP("…") of sim/, ui/ and app/ into
# the catalogues (new ones unfinished, for a translator: pyside6-linguist opens them).
translations: $(STAMP)
	$(BIN)/pyside6-lupdate -extensions py -locations none -no-obsolete sim ui app -ts $(CATALOGUES)

# setuptools >= 70.1 builds wheels by itself (no `wheel` package): tests/test_wheel.py builds with
# --no-build-isolation, that is with this venv's setuptools, and a new Python 3.11 venv has 65.x.
# The Makefile is a prerequisite so that a venv made before such a line changed gets it too.
$(STAMP): pyproject.toml Makefile
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip 'setuptools>=70.1'
	$(BIN)/pip install --quiet -e '.[test]'
	$(BIN)/clothlab warm-up  # every kernel compiled now, once: no launch waits for the compiler
	touch $(STAMP)

# Installs only what is missing; needs root (as on CI) or sudo.
debian:
	@missing=$$(for p in $(DEBIAN_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		sudo=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$sudo apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing; \
	fi
