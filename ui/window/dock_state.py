"""The structure of a stored dock layout (what QMainWindow.saveState writes), read in Python
before Qt reads it.

Qt trusts the bytes it restores: a dock area's number indexes an array of four unchecked, so a
layout whose checksum matched but whose area number was 5 crashed the app at every launch. Here
every part of the format is read and held to what QMainWindow writes: its markers, the dock
areas 0…3, each once, orientations, counts, sizes within a screen's, names of dock widgets and
toolbars, corners that name an area, and nothing left over. Only a layout that reads through
is handed to Qt. Imports no Qt: plain bytes in, True or False out.

The format (QDataStream, big-endian; QMainWindow, QDockAreaLayout, QToolBarAreaLayout):

    int 0xff, int version
    then sections until the end, each at most once but the floating tab groups:
      0xfd  docks: int count, count × (int area, QSize, info), QSize central, 4 × int corner
      0xf9  a floating tab group: QRect, info
      0xfc  toolbars: int lines, lines × (int area, int count, count × (QString name,
            uchar shown, int pos, int size, uint geometry, uint geometry))
    info: 0xfc sequence | 0xfa int current tab; uchar orientation; int count; count × item
    item: 0xfb QString name, uchar flags, 4 × int (geometry if floating, else pos, size, min,
          max) | 0xfc 4 × int (pos, size, min, max), info
"""

from __future__ import annotations

import struct

VERSION_MARKER = 0xFF
DOCKS_MARKER = 0xFD
FLOATING_TABS_MARKER = 0xF9
TOOLBARS_MARKER = 0xFC
TOOLBARS_MARKER_OLD = 0xFE  # Qt before 4.3.1 wrote one int of geometry fewer: never ours
SEQUENCE_MARKER = 0xFC
TAB_MARKER = 0xFA
WIDGET_MARKER = 0xFB

AREAS = 4  # left, right, top, bottom: Qt indexes an array of four by the stored number
ORIENTATIONS = (1, 2)  # Qt::Horizontal, Qt::Vertical
CORNER_AREAS = (1, 2, 4, 8)  # Qt::DockWidgetArea: left, right, top, bottom
MAX_ITEMS = 64  # in one sequence or tab group (the app has nine docks and two toolbars)
MAX_DEPTH = 8  # sequences within sequences
MAX_FLOATING_GROUPS = 16
MAX_NAME_BYTES = 256  # an object name, UTF-16
SCREEN_LIMIT = 1 << 20  # pixels: a position or size beyond this is no screen's
WIDGET_FLAGS = 0b11  # visible, floating


class UnreadableLayoutError(ValueError):
    """The bytes are not a dock layout this app wrote; str() says where they went wrong."""


def dock_state_readable(data: bytes, version: int) -> bool:
    """Whether `data` is a whole dock layout of `version` in QMainWindow.saveState's format,
    each part within what the app's window can hold."""
    try:
        _Reader(data).layout(version)
    except UnreadableLayoutError:
        return False
    return True


def why_unreadable(data: bytes, version: int) -> str | None:
    """What is wrong with `data` as a dock layout, or None if nothing is (for tests and logs)."""
    try:
        _Reader(data).layout(version)
    except UnreadableLayoutError as error:
        return str(error)
    return None


class _Reader:
    def __init__(self, data: bytes) -> None:
        self._data = bytes(data)
        self._at = 0

    # --- the parts ------------------------------------------------------------------------------

    def layout(self, version: int) -> None:
        if self.int32() != VERSION_MARKER:
            raise UnreadableLayoutError("no version marker")
        if self.int32() != version:
            raise UnreadableLayoutError("another layout version")
        seen: set[int] = set()
        floating = 0
        while self._at < len(self._data):
            marker = self.byte()
            if marker == FLOATING_TABS_MARKER:
                floating += 1
                if floating > MAX_FLOATING_GROUPS:
                    raise UnreadableLayoutError("too many floating tab groups")
                self.rect()
                self.info(depth=0)
                continue
            if marker in seen or marker not in (DOCKS_MARKER, TOOLBARS_MARKER):
                raise UnreadableLayoutError(f"section marker {marker:#x} at byte {self._at - 1}")
            seen.add(marker)
            if marker == DOCKS_MARKER:
                self.docks()
            else:
                self.toolbars()

    def docks(self) -> None:
        count = self.count(AREAS, "dock areas")
        areas = set()
        for _ in range(count):
            area = self.area()
            if area in areas:
                raise UnreadableLayoutError(f"dock area {area} twice")
            areas.add(area)
            self.size()
            self.info(depth=0)
        self.size()  # the central widget's
        for _ in range(4):
            corner = self.int32()
            if corner not in CORNER_AREAS:
                raise UnreadableLayoutError(f"a corner given to area {corner}")

    def info(self, depth: int) -> None:
        if depth > MAX_DEPTH:
            raise UnreadableLayoutError("docks nested too deep")
        marker = self.byte()
        current = None
        if marker == TAB_MARKER:
            current = self.int32()
        elif marker != SEQUENCE_MARKER:
            raise UnreadableLayoutError(f"dock group marker {marker:#x} at byte {self._at - 1}")
        if self.byte() not in ORIENTATIONS:
            raise UnreadableLayoutError(f"an orientation at byte {self._at - 1}")
        count = self.count(MAX_ITEMS, "docks in a group")
        if current is not None and not -1 <= current < max(count, 1):
            raise UnreadableLayoutError(f"current tab {current} of {count}")
        for _ in range(count):
            self.item(depth)

    def item(self, depth: int) -> None:
        marker = self.byte()
        if marker == WIDGET_MARKER:
            self.name()
            if self.byte() & ~WIDGET_FLAGS:
                raise UnreadableLayoutError(f"dock flags at byte {self._at - 1}")
            self.pixels(2)  # x, y or pos, size
            (
                self.int32(),
                self.int32(),
            )  # width, height or the minimum and maximum (Qt ignores those)
        elif marker == SEQUENCE_MARKER:
            self.pixels(2)
            self.int32(), self.int32()
            self.info(depth + 1)
        else:
            raise UnreadableLayoutError(f"dock item marker {marker:#x} at byte {self._at - 1}")

    def toolbars(self) -> None:
        lines = self.count(MAX_ITEMS, "toolbar lines")
        for _ in range(lines):
            self.area()
            for _ in range(self.count(MAX_ITEMS, "toolbars in a line")):
                self.name()
                if self.byte() & ~0b11:  # shown, vertical
                    raise UnreadableLayoutError(f"toolbar flags at byte {self._at - 1}")
                self.pixels(2)  # pos, preferred size (-1: its own)
                self.uint32(), self.uint32()  # its geometry, packed

    # --- the values -----------------------------------------------------------------------------

    def take(self, size: int) -> bytes:
        end = self._at + size
        if end > len(self._data):
            raise UnreadableLayoutError(f"cut short at byte {len(self._data)}")
        chunk = self._data[self._at : end]
        self._at = end
        return chunk

    def byte(self) -> int:
        return self.take(1)[0]

    def int32(self) -> int:
        value: int = struct.unpack(">i", self.take(4))[0]
        return value

    def uint32(self) -> int:
        value: int = struct.unpack(">I", self.take(4))[0]
        return value

    def count(self, most: int, what: str) -> int:
        value = self.int32()
        if not 0 <= value <= most:
            raise UnreadableLayoutError(f"{value} {what}")
        return value

    def area(self) -> int:
        value = self.int32()
        if not 0 <= value < AREAS:
            raise UnreadableLayoutError(f"dock area {value} at byte {self._at - 4}")
        return value

    def pixels(self, count: int) -> None:
        for _ in range(count):
            value = self.int32()
            if not -SCREEN_LIMIT <= value <= SCREEN_LIMIT:
                raise UnreadableLayoutError(f"{value} pixels at byte {self._at - 4}")

    def size(self) -> None:
        self.pixels(2)

    def rect(self) -> None:
        self.pixels(4)

    def name(self) -> str:
        length = self.uint32()
        if length == 0xFFFFFFFF or length == 0 or length > MAX_NAME_BYTES or length % 2:
            raise UnreadableLayoutError(f"a name of {length} bytes at byte {self._at - 4}")
        try:
            name = self.take(length).decode("utf-16-be")
        except UnicodeDecodeError:
            raise UnreadableLayoutError(f"a name that is not text at byte {self._at}") from None
        if not name.isprintable():
            raise UnreadableLayoutError(f"a name that is not text at byte {self._at}")
        return name
