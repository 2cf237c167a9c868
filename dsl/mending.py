"""What is checked of an effect whose syntax is broken (every mistake at once): the lines that parse, checked in
full, and each line that does not, mended so that the names written beside its error are checked too."""

from __future__ import annotations

import re

import attrs
from lark.exceptions import UnexpectedInput, UnexpectedToken

from ddaydice.dsl import ast
from ddaydice.dsl.diagnostics import Diagnostic
from ddaydice.dsl.limits import MAX_EFFECT_CHARS
from ddaydice.dsl.parser import SourceMap, _parser, keyword_slip, parse_effect


def parse_good_lines(text: str, smap: SourceMap) -> ast.Effect | None:
    """The effect made of the lines of ``text`` that parse alone (each broken one blanked, so that every line
    keeps its place), for checking the rest of an effect whose syntax errors are already reported; None when no
    line parses or the effect has a single line."""
    lines = text.splitlines()
    if len(lines) < 2:
        return None
    kept: list[str] = []
    for one in lines:
        try:
            _parser().parse(one)
            kept.append(one)
        except UnexpectedInput:
            kept.append("")
    if not any(k.strip() for k in kept) or kept == lines:
        return None
    tree, diags = parse_effect("\n".join(kept), smap)
    return tree if not diags else None


@attrs.frozen
class Mended:
    """The lines of an effect that do not parse, each mended (a misspelt keyword put right, else cut before its
    error), the other lines blanked; ``shifts``: where a mending changed a line's length (file line, file column
    after which, characters added), to put back in place what is found after it."""

    effect: ast.Effect
    shifts: tuple[tuple[int, int, int], ...]

    def place(self, diag: Diagnostic) -> Diagnostic:
        """A diagnostic found in the mended effect, at its place in the file as written."""
        for line, column, added in self.shifts:
            if diag.line == line and diag.column > column:
                diag = attrs.evolve(diag, column=diag.column - added)
        return diag


_MENDINGS = 4  # the mistakes mended in one line, at most
_CUTS = 16  # the words taken off before an error, at most, for a start of the line that parses
_LAST_WORD = re.compile(r"\s*\S+\s*$")


def _mend(line: str) -> tuple[str, int, int] | None:
    """One syntax error of ``line`` mended: the line, the offset of the mending and the characters it added; the
    keyword a misspelt or misplaced word is a slip of ('trun': 'turn', 'all unit': 'all units'), else the line
    cut before the error to its longest start that parses; None when the line parses or nothing of it does."""
    try:
        _parser().parse(line)
        return None
    except UnexpectedToken as err:
        tok, expected = err.token, set(err.expected)
        at = tok.start_pos if tok.start_pos is not None and tok.type != "$END" else len(line)
        value = str(tok.value) if tok.type != "$END" else ""
    except UnexpectedInput as err:
        at, value, expected = getattr(err, "pos_in_stream", None) or 0, "", set()
    except RecursionError:  # nested too deeply (DSL004): nothing to mend
        return None
    close = keyword_slip(value, expected)
    if close is not None:
        return line[:at] + close + line[at + len(value):], at, len(close) - len(value)
    head = line[:at]
    for _ in range(_CUTS):
        if not head.strip():
            break
        try:
            _parser().parse(head)
            return head, len(head), 0
        except (UnexpectedInput, RecursionError):
            head = _LAST_WORD.sub("", head)
    return None


def mend_lines(text: str, smap: SourceMap) -> Mended | None:
    """The lines of ``text`` that do not parse, mended (:func:`_mend`), for checking the names written beside a
    syntax error already reported (every mistake at once); None when none can be (or the effect is too long)."""
    if len(text) > MAX_EFFECT_CHARS:
        return None
    lines = text.splitlines()
    kept: list[str] = []
    shifts: list[tuple[int, int, int]] = []
    for i, one in enumerate(lines):
        mended, line = False, one
        for _ in range(_MENDINGS):
            found = _mend(line)
            if found is None:
                break
            line, at, added = found
            mended = True
            if added:
                shifts.append((*smap.place(i + 1, at + 1), added))
        try:
            _parser().parse(line)
        except (UnexpectedInput, RecursionError):
            mended = False
        kept.append(line if mended else "")
    if not any(k.strip() for k in kept):
        return None
    tree, diags = parse_effect("\n".join(kept), smap)
    return Mended(tree, tuple(shifts)) if tree is not None and not diags else None
