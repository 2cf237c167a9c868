"""Where the cursor stands in a YAML content file, read from the text alone (the file may not parse while it is
being typed): the id or word under the cursor, whether it is inside an effect (``effect: |`` and the other keys
whose value is in the effect language), and the YAML key a value belongs to."""

from __future__ import annotations

import re
from collections.abc import Sequence

import attrs

# The keys whose value is written in the effect language (cards, Sector attributes, maps' rules, sides' trophies).
EFFECT_KEYS = frozenset({"effect", "rules", "trophy"})
_TOKEN = re.compile(r"[a-z0-9][a-z0-9-]*")
_KEY = re.compile(r"^(\s*)(?:-\s+)?([A-Za-z0-9_.-]+)\s*:(?:\s|$)")
_HEADER = re.compile(r"^(\s*)(?:-\s+)?([A-Za-z0-9_-]+)\s*:\s*([|>][-+0-9]*)?\s*(?:#.*)?$")
_VALUE_OF = re.compile(r"([A-Za-z0-9_-]+)\s*:\s*(?:\[[^\]]*)?[a-z0-9-]*$")
_INLINE = re.compile(r"^(\s*)(?:-\s+)?([A-Za-z0-9_-]+)\s*:\s+(?![|>])(\S.*)$")


@attrs.frozen
class Token:
    """An id or a word of the effect language under the cursor: its text and its columns on the line."""

    text: str
    line: int
    start: int
    end: int


def token_at(lines: Sequence[str], line: int, char: int) -> Token | None:
    """The id or word (lower-case letters, digits and '-') that holds column ``char`` of ``line`` (or ends there)."""
    if not 0 <= line < len(lines):
        return None
    text = lines[line]
    for m in _TOKEN.finditer(text):
        if m.start() <= char <= m.end():
            return Token(m.group(), line, m.start(), m.end())
    return None


def prefix_at(lines: Sequence[str], line: int, char: int) -> tuple[int, str]:
    """The part of an id or word typed before the cursor, and the column where it starts (for completion)."""
    text = lines[line][:char] if 0 <= line < len(lines) else ""
    m = re.search(r"[a-z0-9-]*$", text)
    start = m.start() if m else char
    return start, text[start:]


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip(" "))


def in_effect(lines: Sequence[str], line: int, char: int) -> bool:
    """Whether the cursor is inside an effect: on a line of an ``effect: |`` block (or ``rules:``, ``trophy:``),
    or after ``effect:`` on a line that holds the effect itself."""
    if not 0 <= line < len(lines):
        return False
    here = lines[line]
    inline = _INLINE.match(here)
    if inline is not None and inline.group(2) in EFFECT_KEYS:
        return char >= inline.start(3)
    if here.strip() and _indent(here) == 0:
        return False
    # (a line that looks like a YAML key, 'use:' as typed, is the effect's own text when it is indented under the
    # effect's header: what decides is the line above it at a lower indent)
    lowest = _indent(here) if here.strip() else char
    for above in reversed(lines[:line]):
        if not above.strip():
            continue
        indent = _indent(above)
        if indent >= lowest:
            continue
        header = _HEADER.match(above)
        if header is not None and header.group(2) in EFFECT_KEYS and (header.group(3) or "").startswith("|"):
            return True
        if above.lstrip().startswith("- ") or indent == 0 or header is not None:
            return False
        lowest = indent
    return False


def key_of(lines: Sequence[str], line: int, char: int) -> str | None:
    """The YAML key the value being typed at column ``char`` belongs to: the last key before it on the line
    (``sector: s7``, ``{id: u1, sector: s7}``, ``visited: [s1, s4]``), or the key of the list it is an item of
    (``visited:`` above ``- s4``)."""
    if not 0 <= line < len(lines):
        return None
    m = _VALUE_OF.search(lines[line][:char])
    if m is not None:
        return m.group(1)
    here = lines[line]
    if here.strip() and not here.lstrip().startswith("-"):
        return None
    lowest = _indent(here) if here.strip() else char
    for above in reversed(lines[:line]):
        if not above.strip():
            continue
        if _indent(above) < lowest:
            key = _KEY.match(above)
            return key.group(2) if key is not None else None
    return None


def is_value(lines: Sequence[str], tok: Token) -> bool:
    """Whether a token outside effects is a whole YAML value (``id: medic``, ``- medic``, ``[medic, scout]``,
    ``{card: medic}``), not a word of prose (a card's ``text:``) nor a key."""
    text = lines[tok.line]
    before = text[:tok.start].rstrip()
    after = text[tok.end:].lstrip()
    return (before == "" or before[-1] in ":[,{-") and (after == "" or after[0] in ",]}#")


def is_key(lines: Sequence[str], tok: Token) -> bool:
    """Whether a token is a YAML key (``medic:`` in a mapping keyed by ids)."""
    return lines[tok.line][tok.end:].startswith(":")


def phrase_at(lines: Sequence[str], tok: Token, phrases: Sequence[str]) -> str | None:
    """The phrase of several words (``all units``, ``the german``) that the token is part of, if any."""
    text = lines[tok.line]
    for phrase in phrases:
        for m in re.finditer(rf"(?<![a-z0-9-]){re.escape(phrase)}(?![a-z0-9-])", text):
            if m.start() <= tok.start and tok.end <= m.end():
                return phrase
    return None
