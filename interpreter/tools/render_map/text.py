"""Text in the drawing: estimated widths (DejaVu Sans / Verdana metrics), so wrapping needs no font library;
and numbers and counts as the SVG writes them."""

from __future__ import annotations

from xml.sax.saxutils import escape

from ddaydice.dsl.diagnostics import printable

_NARROW = dict.fromkeys(" .,:;'!|il", 0.30) | dict.fromkeys("()[]{}jft-/\"", 0.37) | {"r": 0.42, "I": 0.30}
_WIDE = {"m": 0.98, "w": 0.82, "M": 0.87, "W": 1.0, "%": 0.95, "@": 1.0}


def text_width(text: str, size: float, *, bold: bool = False) -> float:
    """An estimate of the width of a text in DejaVu Sans (a little generous, never short)."""
    total = 0.0
    for ch in text:
        if ch in _NARROW:
            w = _NARROW[ch]
        elif ch in _WIDE:
            w = _WIDE[ch]
        elif ch.isdigit():
            w = 0.64
        elif ch.isupper():
            w = 0.72
        elif ch.islower():
            w = 0.62
        else:
            w = 0.70
        total += w
    return total * size * (1.1 if bold else 1.0)


def wrap(text: str, width: float, size: float, *, bold: bool = False) -> list[str]:
    """Greedy word wrap to a width in pixels; a word longer than the width is cut."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if text_width(candidate, size, bold=bold) <= width:
            current = candidate
            continue
        if current:
            lines.append(current)
        rest = word
        while text_width(rest, size, bold=bold) > width and len(rest) > 1:
            cut = len(rest)
            while cut > 1 and text_width(rest[:cut] + "-", size, bold=bold) > width:
                cut -= 1
            lines.append(rest[:cut] + "-")
            rest = rest[cut:]
        current = rest
    if current:
        lines.append(current)
    return lines or [""]


def num(v: float) -> str:
    """A coordinate or size as the SVG writes it: one decimal, none when it is whole."""
    s = f"{v:.1f}"
    return s[:-2] if s.endswith(".0") else s


def plural(n: int, one: str, many: str) -> str:
    """``1 Soldier``, ``2 Soldiers``."""
    return f"{n} {one if n == 1 else many}"


def xml_text(text: str) -> str:
    """Text of the content as it goes into the SVG, in an element or an attribute: made printable (a control
    character shown as ``\\uXXXX``, as diagnostics show it), so that the drawing is well-formed XML whatever a
    map's name says, and ``&``, ``<`` and ``>`` escaped (an attribute holds only ids, which hold no quote)."""
    return escape(printable(text))
