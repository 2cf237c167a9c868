"""Diagnostics: errors as values, every one with a place in a file.

Every stage (YAML, structure, DSL parse, DSL check, cross references) reports
problems as :class:`Diagnostic` values collected in a list, never as a bare
exception. A diagnostic prints as ``file:line:col: CODE message``, then the
offending source line with a caret, then a hint where one is likely.
"""

from __future__ import annotations

import json
import os
import re
import stat
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Literal

import attrs

Severity = Literal["error", "warning"]


def _as_names(names: Iterable[str]) -> tuple[str, ...]:
    """:attr:`Diagnostic.names` as a tuple (a diagnostic remembered as plain data gives a list back)."""
    return tuple(names)


@attrs.frozen
class Diagnostic:
    """One problem found in content, at a place in a file (1-based line and column)."""

    code: str
    message: str
    file: str
    line: int
    column: int
    severity: Severity = "error"
    hint: str | None = None
    width: int = 1
    # The names the problem is about, as data, so that no program reads them out of the message (LOAD012: the
    # names not checked), and what they name ('cards', 'optional rules', 'maps').
    names: tuple[str, ...] = attrs.field(default=(), converter=_as_names)
    names_of: str = ""

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
        }
        if self.hint:
            out["hint"] = self.hint
        if self.names:
            out["names"] = list(self.names)
            out["names_of"] = self.names_of
        return out


# A name not checked, for a file of cards, of an optional rule or of a map could not be read (loading/reading.py
# fold_unchecked).
UNCHECKED = "LOAD012"


def unchecked_note(name: str, file: str, line: int, col: int, of: str = "cards") -> Diagnostic:
    """That ``name`` was not checked against ``of`` (the cards, the optional rules, the maps), some of which could
    not be read (:data:`UNCHECKED`): a note the loader folds into one warning, the name carried as data."""
    return Diagnostic(UNCHECKED, f"'{name}' was not checked", file, line, col, severity="warning", width=len(name),
                      names=(name,), names_of=of)


class DDayError(Exception):
    """The one root of every exception the project raises on purpose."""


class ContentError(DDayError):
    """Content could not be loaded; carries every diagnostic found."""

    def __init__(self, diagnostics: Sequence[Diagnostic]) -> None:
        self.diagnostics = tuple(diagnostics)
        first = self.diagnostics[0] if self.diagnostics else None
        summary = f"{first.file}:{first.line}:{first.column}: {first.code} {first.message}" if first else ""
        more = f" (and {len(self.diagnostics) - 1} more)" if len(self.diagnostics) > 1 else ""
        super().__init__(summary + more)


class RuleError(DDayError):
    """A game action broke the rules (an illegal choice, an impossible step)."""


def suggest(name: str, candidates: Iterable[str]) -> str | None:
    """The candidate a misspelt ``name`` stands for, if it is one likely slip away; None when no candidate is, or
    when two are equally close, other than forms of one word (a wrong guess is worse than none).

    Both sides are compared as :func:`spelling` writes them (case, accents, '_' and spaces against '-' do not
    count). A name that is a candidate in another form (:func:`forms`: 'id' for 'ids', 'colours' for 'colour',
    'advance' for 'advancing') is that candidate. Otherwise the closest candidate is taken if at most
    :func:`slips` edits apart (a letter dropped, added or changed, or two swapped, each one edit; a different
    first letter, rarely a slip, costs one more; in a word of 3 letters only a swap or a doubled letter):
    'mgf-dise' for 'mgf-dice', 'color' for 'colour', 's8' for 's88', but nothing for 'colour' among 'courage'
    and 'tool'. A name that is a word longer or shorter than a single candidate, and no slip of any, is that
    candidate ('bunker' for 'in-bunker', 'utah-beach' for 'utah')."""
    key = spelling(name)
    if not key:
        return None
    pool: dict[str, str] = {}
    for candidate in sorted(set(candidates)):
        if spelling(candidate):
            pool.setdefault(spelling(candidate), candidate)
    if key in pool:
        return pool[key]
    same = next((pool[form] for form in forms(key) if form in pool), None)
    if same is not None:
        return same
    from rapidfuzz.distance import DamerauLevenshtein  # (only when a hint is wanted: every command imports this)

    best, closest = 0, list[str]()
    for written, candidate in pool.items():
        most = slips(max(len(key), len(written)))
        if abs(len(key) - len(written)) > max(most, 1):
            continue
        edits = DamerauLevenshtein.distance(key, written, score_cutoff=max(most, 1) + 1)
        if edits == 1 and most == 0 and _swapped_or_doubled(key, written):
            most = 1
        if key[0] != written[0] and key[:2] != written[1::-1]:
            edits += 1
        if edits > most or (closest and edits > best):
            continue
        if not closest or edits < best:
            best, closest = edits, []
        closest.append(candidate)
    if closest:  # one, or forms of one word ('soldier' and 'soldiers' for 'soldierz'): the shortest
        stem = min(closest, key=lambda c: (len(spelling(c)), c))
        return stem if all(c == stem or spelling(c) in forms(spelling(stem)) for c in closest) else None
    words = set(key.split("-"))
    wordier = [c for w, c in pool.items() if len(min(w, key, key=len)) >= 4 and _a_word_apart(words, set(w.split("-")))]
    return wordier[0] if len(wordier) == 1 else None


def spelling(text: str) -> str:
    """``text`` as :func:`suggest` compares it: lower case, without accents, words joined by single '-'
    ('Extra_Dice', 'extra dice' and 'extra-dice' are spelt alike)."""
    plain = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    return re.sub(r"[-_\s]+", "-", plain.casefold()).strip("-")


def forms(word: str) -> list[str]:
    """The other forms of a word :func:`suggest` takes for it: its plural or singular ('ids', 'id'), its stem
    without '-ing' or '-ed' ('advancing', 'moved': 'advance', 'move'), and its negation written with 'un'
    ('not-available', 'non-available': 'unavailable'). Each is 2 letters or more."""
    out = [word + "s", word + "es"]
    out += ["un" + word[len(no):] for no in ("not-", "non-", "no-") if word.startswith(no)]
    for ending in ("s", "es", "ing", "ed", "d"):
        stem = word.removesuffix(ending)
        if stem != word:
            out += [stem, stem + "e"] if ending in {"ing", "ed"} else [stem]
    return [form for form in out if len(form) >= 2]


def slips(length: int) -> int:
    """How many edits :func:`suggest` takes for a slip in a word of ``length`` characters: none up to 3 (among
    short words one edit is another word: 'foo' is not 'for'; a swap or a doubled letter excepted), 1 up to 7,
    2 up to 14, then 3."""
    return 0 if length <= 3 else 1 if length <= 7 else 2 if length <= 14 else 3


def _a_word_apart(these: set[str], those: set[str]) -> bool:
    """The words of one name are those of the other, and one more."""
    return len(these ^ those) == 1 and (these < those or those < these)


def _swapped_or_doubled(one: str, other: str) -> bool:
    """``one`` is ``other`` with two neighbouring letters swapped, or one letter doubled or undoubled."""
    if len(one) == len(other):
        diff = [i for i, (a, b) in enumerate(zip(one, other, strict=True)) if a != b]
        return len(diff) == 2 and diff[1] == diff[0] + 1 and one[diff[0]] == other[diff[1]]
    longer, shorter = (one, other) if len(one) > len(other) else (other, one)
    return any(longer[i] == longer[i - 1] and longer[:i] + longer[i + 1:] == shorter for i in range(1, len(longer)))


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    best = suggest(name, candidates)
    return f"did you mean '{best}'?" if best else None


class SourceCache:
    """Reads each source file once, to print the offending line under a diagnostic."""

    def __init__(self) -> None:
        self._lines: dict[str, list[str]] = {}
        self._virtual: dict[str, str] = {}

    def register(self, file: str, text: str) -> None:
        """Make text available for a name that is not a file on disk (a test, stdin)."""
        self._virtual[file] = text
        self._lines.pop(file, None)

    def line(self, file: str, line: int) -> str | None:
        """The line of a file a diagnostic points at. Only a regular file, named without a link on its way
        (the loader names every file it read by its real place, a refused link by the link), of at most
        :data:`SOURCE_LIMIT` bytes, is read: a diagnostic never shows a line of a file it was refused."""
        if file not in self._lines:
            text = self._virtual.get(file)
            if text is None:
                text = _read_source(file)
            self._lines[file] = editor_lines(text)
        lines = self._lines[file]
        if 1 <= line <= len(lines):
            return lines[line - 1]
        return None


def editor_lines(text: str) -> list[str]:
    """A text's lines as editors (and YAML's readers, and the language server protocol) count them: ended by CR LF,
    LF or CR alone. (``str.splitlines`` also ends a line at a form feed, U+2028 and others, which editors do not.)"""
    lines = _LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()  # (a last line break ends the last line; it starts none)
    return lines


_LINE_BREAK = re.compile(r"\r\n|\r|\n")

# The most a diagnostic shows of a source line, around its column.
SHOWN_LINE = 160
# A source file larger than this is not read to show a line (the loader refuses such files anyway).
SOURCE_LIMIT = 1024 * 1024


def _read_source(file: str) -> str:
    path = os.path.abspath(file)  # noqa: PTH100
    try:
        if os.path.realpath(path) != path:  # a link on its way: a refused link, or a name given through one
            return ""
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return ""
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > SOURCE_LIMIT:
            return ""
        return os.read(fd, SOURCE_LIMIT).decode("utf-8", errors="replace")
    except OSError:
        return ""
    finally:
        os.close(fd)


def printable(text: str) -> str:
    """``text`` safe for a terminal and for XML: control characters (escape sequences, carriage returns, NUL),
    the characters that reorder text (bidi controls), a lone surrogate (a file name's undecodable byte) and the
    two noncharacters XML forbids are shown as ``\\uXXXX``; a tab becomes a space. Every character XML 1.0
    forbids is among these, so printable text is always well-formed in an XML file (``dday scenario run --junit``,
    ``dday render``)."""
    out = []
    for c in text:
        if c == "\t":
            out.append(" ")
        elif c != "\n" and (unicodedata.category(c) in {"Cc", "Cf", "Zl", "Zp", "Cs", "Co"} or c in "\ufffe\uffff"):
            out.append(f"\\u{ord(c):04x}")
        else:
            out.append(c)
    return "".join(out)


def render_diagnostic(diag: Diagnostic, sources: SourceCache | None = None) -> str:
    """``file:line:col: CODE message``, the source line, a caret, and the hint (every part made printable)."""
    head = f"{diag.file}:{diag.line}:{diag.column}: {diag.code} {diag.message}"
    if diag.severity == "warning":
        head = f"{diag.file}:{diag.line}:{diag.column}: {diag.code} warning: {diag.message}"
    parts = [printable(head).replace("\n", " ")]
    src = sources.line(diag.file, diag.line) if sources else None
    if src is not None:
        text = src.replace("\t", " ")
        caret_at = max(diag.column - 1, 0)
        if len(text) > SHOWN_LINE:  # a window of the line around the column
            start = max(0, min(caret_at - SHOWN_LINE // 2, len(text) - SHOWN_LINE))
            text = text[start:start + SHOWN_LINE]
            caret_at -= start
        shown = printable(text)
        caret_at = len(printable(text[:caret_at]))
        parts.append(f"    {shown}")
        parts.append("    " + " " * caret_at + "^" * max(1, min(diag.width, max(1, len(shown) - caret_at))))
    if diag.hint:
        parts.append(printable(f"    hint: {diag.hint}").replace("\n", " "))
    return "\n".join(parts)


def render_all(diags: Sequence[Diagnostic], sources: SourceCache | None = None, *, limit: int = 50) -> str:
    """Every diagnostic, capped at ``limit`` with "... and N more"."""
    shown = [render_diagnostic(d, sources) for d in diags[:limit]]
    if len(diags) > limit:
        shown.append(f"... and {len(diags) - limit} more")
    return "\n".join(shown)


def to_json(diags: Sequence[Diagnostic]) -> str:
    return json.dumps([d.as_json() for d in diags], indent=2, ensure_ascii=False)


def sort_key(diag: Diagnostic) -> tuple[str, int, int, str]:
    return (diag.file, diag.line, diag.column, diag.code)
