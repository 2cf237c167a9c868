"""The characters a YAML file of content may hold, checked where every YAML file is read (dsl/yamlsrc.py): its text
(no NUL, no line break that YAML counts and editors do not) and the texts it gives, keys and values (no control
character, no character that reorders text). What the engine prints is made printable as well
(dsl/diagnostics.py ``printable``); this refuses such a text at its place, before it reaches a name, a card's text
or a message."""

from __future__ import annotations

import re
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq, TaggedScalar

from ddaydice.dsl.diagnostics import Diagnostic

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_YAML_ONLY_BREAK = re.compile("[\x85\u2028\u2029]")
_BREAK_NAMES = {"\x85": "NEXT LINE character", "\u2028": "LINE SEPARATOR", "\u2029": "PARAGRAPH SEPARATOR"}

#: What no text of content holds: the control characters but the new line and the tab (a block's text has them),
#: which move a terminal's cursor, colour it or ring it (ESC, BEL, CR, the C1 controls); the line and paragraph
#: separators; and the embeddings, overrides and isolates that reorder the text around them (bidi controls).
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")
# A double-quoted scalar's escapes (YAML 1.2, 5.7) of one character; \x, \u, \U take 2, 4, 8 hex digits.
_ESCAPED = {"0": "\x00", "a": "\x07", "b": "\x08", "t": "\t", "\t": "\t", "n": "\n", "v": "\x0b", "f": "\x0c",
            "r": "\r", "e": "\x1b", "N": "\x85", "L": "\u2028", "P": "\u2029"}
_HEX_DIGITS = {"x": 2, "u": 4, "U": 8}


def char_position(text: str, offset: int) -> tuple[int, int]:
    """The line and column (1-based) of a character, lines ended as editors end them: CR LF, LF or CR."""
    before = text[:offset]
    breaks = list(_LINE_BREAK.finditer(before))
    return len(breaks) + 1, offset - (breaks[-1].end() if breaks else 0) + 1


def text_problem(file: str, text: str) -> Diagnostic | None:
    """YAML003 for a file's text that is no plain text: a NUL, or a line break that YAML counts and editors do
    not (each line after it would be told one off). Pasted text brings them: a Word line break, a cp1252 '...'."""
    if "\x00" in text:
        line, col = char_position(text, text.index("\x00"))
        return Diagnostic("YAML003", "not text: the file holds a NUL character", file, line, col,
                          hint="save the file as UTF-8 text")
    odd = _YAML_ONLY_BREAK.search(text)
    if odd is None:
        return None
    line, col = char_position(text, odd.start())
    char = odd.group()
    return Diagnostic("YAML003", f"not plain text: the file holds a {_BREAK_NAMES[char]} (U+{ord(char):04X}), "
                      "which YAML reads as a line break and editors do not", file, line, col,
                      hint="replace it with a space, or start a new line")


def control_problems(file: str, text: str, data: Any) -> list[Diagnostic]:
    """YAML007 for each text of the file, key or value, that holds a control character or one that reorders text
    (:data:`CONTROL`), at that character as written (a raw one, or the escape of a double-quoted text that gives
    it: ``"\\e[31m"``); every such text of the file is told."""
    out: list[Diagnostic] = []
    starts: list[int] = []  # (the offset of each line, computed for a file that has such a text)
    seen: set[int] = set()
    stack = [data]
    while stack:
        node = stack.pop()
        if id(node) in seen:  # (an alias names a part read already)
            continue
        seen.add(id(node))
        if isinstance(node, CommentedMap):
            found = [(_text(k), _place(node.lc.key, k)) for k in node]
            found += [(_text(v), _place(node.lc.value, k)) for k, v in node.items()]
            stack += [v for v in node.values() if isinstance(v, CommentedMap | CommentedSeq)]
        elif isinstance(node, CommentedSeq):
            found = [(_text(v), _place(node.lc.item, i)) for i, v in enumerate(node)]
            stack += [v for v in node if isinstance(v, CommentedMap | CommentedSeq)]
        else:
            continue
        for value, (line0, col0) in found:
            bad = CONTROL.search(value) if value is not None else None
            if bad is None:
                continue
            if not starts:
                starts = [0, *(m.end() for m in _LINE_BREAK.finditer(text))]
            at = starts[line0] + col0 if 0 <= line0 < len(starts) else 0
            where, width = _written_at(text, at, bad.group())
            out.append(_told(bad.group(), file, *char_position(text, where), width))
    return sorted(out, key=lambda d: (d.line, d.column))


def _place(where: Any, key: Any) -> tuple[int, int]:
    """ruamel's (line, column) of a key, a value or an item, both from 0; (-1, -1) where it keeps none."""
    try:
        found = where(key)
    except (KeyError, TypeError, IndexError):
        return -1, -1
    return (found[0], found[1]) if isinstance(found, list | tuple) and len(found) >= 2 else (-1, -1)


def _text(value: Any) -> str | None:
    """The text of a key or a value (a tagged one's too: ``!!str "..."``), None for another value."""
    value = value.value if isinstance(value, TaggedScalar) else value
    return value if isinstance(value, str) else None


def _told(char: str, file: str, line: int, col: int, width: int) -> Diagnostic:
    what = ("a character that reorders text" if _BIDI.match(char) else "a control character", "shows it in another "
            "order than it is written" if _BIDI.match(char) else "would act on it (a colour, a cursor's move, a bell)")
    return Diagnostic("YAML007", f"the text holds {what[0]} (U+{ord(char):04X}): a terminal {what[1]}", file, line,
                      col, width=width, hint="remove it: a text of content holds letters, digits, spaces, "
                      "punctuation, new lines and tabs")


def _written_at(text: str, start: int, char: str) -> tuple[int, int]:
    """Where the first character of :data:`CONTROL` of the scalar that starts at ``start`` is written, and how
    wide it is there: the character itself, or the escape that gives it in a double-quoted scalar. The scalar's
    start when it is not found (an alias that names it elsewhere)."""
    i = start
    while text[i:i + 1] in {"!", "&"}:  # its tag or anchor, before it
        while i < len(text) and text[i] not in " \t\r\n":
            i += 1
        while text[i:i + 1] in {" ", "\t"}:
            i += 1
    if text[i:i + 1] != '"':
        found = text.find(char, i)  # (plain, single-quoted and block texts hold it as written)
        return (found, 1) if found >= 0 else (start, 1)
    i += 1
    while i < len(text) and text[i] != '"':
        if text[i] != "\\":
            if text[i] != "\r" and CONTROL.match(text[i]):  # (a CR ends a line of a text written on several)
                return i, 1
            i += 1
            continue
        escape = text[i + 1:i + 2]
        digits = _HEX_DIGITS.get(escape, 0)
        try:
            given = chr(int(text[i + 2:i + 2 + digits], 16)) if digits else _ESCAPED.get(escape, "")
        except (ValueError, OverflowError):
            given = ""
        if given and CONTROL.match(given):
            return i, 2 + digits
        i += 2 + digits
    return start, 1
