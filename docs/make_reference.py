"""Write docs/reference.md, the Python API's reference, from the docstrings and signatures of
what `import clothlab` offers (its `__all__`): each function, and each class with its public
methods and properties. tests/api/test_reference.py holds the file to what this writes.

    python docs/make_reference.py
"""

from __future__ import annotations

import inspect
import re
import sys
from pathlib import Path

import clothlab

OUTPUT = Path(__file__).resolve().with_name("reference.md")
HEADER = """# Python API reference

Generated from the docstrings by `python docs/make_reference.py` (a test holds this file to
it): every name `import clothlab` offers, with its signature and what its docstring says.
[api.md](api.md) is the guide: what each part is for, with examples.
"""


def reference() -> str:
    """The reference's Markdown text."""
    parts = [HEADER]
    names = sorted(clothlab.__all__, key=lambda n: (inspect.isclass(getattr(clothlab, n)), n))
    for name in names:
        value = getattr(clothlab, name)
        if inspect.isclass(value):
            parts.append(class_section(name, value))
        else:
            parts.append(entry(f"clothlab.{name}", value, level=2))
    return "\n".join(parts).rstrip() + "\n"


def class_section(name: str, cls: type) -> str:
    lines = [f"## `clothlab.{name}`\n", docstring(cls) + "\n"]
    for member, value in members(cls):
        lines.append(entry(f"{name}.{member}", value, level=3))
    return "\n".join(lines)


def members(cls: type) -> list[tuple[str, object]]:
    """The public methods and properties a class defines itself (not dict's or Exception's)."""
    own = []
    for member, value in vars(cls).items():
        if member.startswith("_") or member in _INHERITED_NOISE:
            continue
        if isinstance(value, property | classmethod | staticmethod) or inspect.isfunction(value):
            own.append((member, value))
    return sorted(own)


_INHERITED_NOISE = {"clear", "pop", "popitem", "setdefault", "update"}  # Table refuses these


def entry(title: str, value: object, level: int) -> str:
    heading = "#" * level
    if isinstance(value, property):
        return f"{heading} `{title}` (property)\n\n{docstring(value.fget)}\n"
    function = value.__func__ if isinstance(value, classmethod | staticmethod) else value
    signature = plain_signature(function)
    return f"{heading} `{title}{signature}`\n\n{docstring(function)}\n"


def plain_signature(function: object) -> str:
    try:
        text = str(inspect.signature(function))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return "(…)"
    text = re.sub(r"'([^']*)'", r"\1", text)  # annotations kept as text (postponed evaluation)
    return re.sub(r"\bself, |\(self\)|\bcls, ", lambda m: "()" if m[0] == "(self)" else "", text)


def docstring(value: object) -> str:
    text = inspect.getdoc(value)
    if not text:
        raise ValueError(f"{getattr(value, '__qualname__', value)}: no docstring")
    return text


def main() -> None:
    OUTPUT.write_text(reference(), encoding="utf-8")
    print(f"wrote {OUTPUT}")


if __name__ == "__main__":
    sys.exit(main())
