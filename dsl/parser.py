"""Text to syntax tree: the Lark grammar (effect.lark) and the one transformer.

The grammar is LALR, loaded once. Positions inside an effect are mapped back to
the content file through a :class:`SourceMap`, so an error on line 2 of a YAML
block scalar is reported on its real line and column in the YAML file.
"""

from __future__ import annotations

import bisect
import contextlib
import functools
import hashlib
import os
import re
import tempfile
from importlib import resources
from pathlib import Path
from typing import Any

import attrs
import lark
from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from ddaydice.dsl import ast, words
from ddaydice.dsl.diagnostics import Diagnostic, did_you_mean, suggest
from ddaydice.dsl.limits import MAX_EFFECT_CHARS, MAX_EFFECT_NESTING, MAX_EFFECT_NUMBER, MAX_REMEMBERED_EFFECTS


@attrs.frozen
class SourceMap:
    """Where an effect's text sits in its file.

    ``line`` and ``column`` (1-based) are the file position of the text's first
    character. For a literal block scalar, each further line starts at
    ``indent + 1`` of the following file lines; for inline text there is one line.
    """

    file: str
    line: int = 1
    column: int = 1
    block_indent: int | None = None

    def place(self, line: int, column: int) -> tuple[int, int]:
        if self.block_indent is not None:
            return self.line + line - 1, self.block_indent + column
        if line == 1:
            return self.line, self.column + column - 1
        return self.line + line - 1, column


@functools.cache
def _grammar_text() -> str:
    return resources.files("ddaydice.dsl").joinpath("effect.lark").read_text(encoding="utf-8")


_LARK_OPTIONS: dict[str, Any] = {"parser": "lalr", "propagate_positions": True, "maybe_placeholders": False}


@functools.cache
def _parser() -> Lark:
    """The effect language's LALR parser. Building its tables took a third of ``dday validate``: they are kept in
    the user's cache folder (``$XDG_CACHE_HOME/ddaydice``, private to the user), under a key made of the grammar,
    the options and Lark's version, written atomically; any problem with the cache only means building again."""
    grammar = _grammar_text()
    key = hashlib.sha256(repr((grammar, sorted(_LARK_OPTIONS.items()), lark.__version__)).encode()).hexdigest()
    path = _cache_folder() / f"effect-parser-{key[:32]}.lark"
    with contextlib.suppress(Exception), path.open("rb") as fh:  # absent, unreadable, another version: build it
        if fh.readline().strip() == key.encode():
            return Lark.load(fh)
    parser = Lark(grammar, **_LARK_OPTIONS)
    with contextlib.suppress(OSError):  # a read-only home: no cache, the same parser
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".effect-parser.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(key.encode() + b"\n")
                parser.save(fh)
            Path(tmp).replace(path)
        finally:
            with contextlib.suppress(OSError):
                Path(tmp).unlink()
    return parser


#: The parse trees of effect texts read before in this process (a language server's checks, a test run, a
#: simulation's set-up), by their text: a tree holds positions within the text only (the SourceMap places them in
#: the file afterwards), and nothing changes it. At most MAX_TREES are kept.
_TREES: dict[str, Tree[Token]] = {}
MAX_TREES = 4096


def _parse_tree(text: str) -> Tree[Token]:
    """The parse tree of an effect's text (raises lark's UnexpectedInput for text it cannot parse, never kept)."""
    tree = _TREES.get(text)
    if tree is None:
        tree = _parser().parse(text)
        if len(_TREES) >= MAX_TREES:
            _TREES.clear()
        _TREES[text] = tree
    return tree


def _cache_folder() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "ddaydice"


_TERMINAL_NAMES = {
    "COLON": "':'",
    "SEMICOLON": "';'",
    "COMMA": "','",
    "WORD": "a word",
    "NUMBER": "a number",
    "SIGNED": "a signed number such as -1",
    "DICE": "a die roll such as 1d6",
    "SIGNED_DICE": "a signed die roll such as -1d6",
    "EQUAL": "'='",
    "_NL": "the end of the line",
    "$END": "the end of the effect",
    "CMP": "a comparison such as >=",
    "LPAR": "'('",
    "RPAR": "')'",
    "RESULTS": "a chance's next outcome, its totals and ':' ('6:', '3-5:')",
    "WS_INLINE": "a space",
    "COMMENT": "a comment",
}
# The rules of the grammar made of keywords only, whose phrases a message shows whole ('all units', not 'all').
_PHRASE_RULES = frozenset({"target", "limit", "duration"})
# The keywords after which the next word is a name of the registry, not an action (an event, a moment).
_NAMING_KEYWORDS = frozenset({"on", "before", "after", "during", "when"})
_WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")
# What must follow a keyword or a sign, for a clause cut short after it (or a wrong word after it).
_FOLLOWS = {
    ":": "an action (gain 1 star, def -2 this turn)",
    ",": "another action",
    "if": "a condition (bunker, count skull >= 2)",
    "unless": "a condition (bunker, count skull >= 2)",
    "not": "a condition (bunker, count skull >= 2)",
    "or": "another action, or another condition",
    "and": "another action, or another condition",
    "on": "an event (advance, final-tally, combat, ...)",
    # after a window's word, the moments the engine offers uses at with it (words.windows: 'before mgf, movement')
    **{kind: f"a moment ({', '.join(m for k, m in words.windows() if k == kind)})"
       for kind in ("before", "after", "during", "when")},
    "per": "what is counted (skull, locked skull, rwbs, specialists, ...)",
    "above": "a number",
}
_ONE_ACTION_HINT = ("after a chance's ',' comes its next outcome, its totals and ':' ('6: gain 1 star') or 'else: "
                    "...'; two actions in one outcome are joined with 'and' ('6: gain 1 star and gain 2 courage')")
_COLON_HINT = ("a trigger ('on EVENT [if ...]: ...'), a use ('use [...]: ...') and a scope ('for TARGET: ...') "
               "put ':' before what they do")


@functools.cache
def _phrases() -> dict[str, tuple[str, ...]]:
    """The keyword phrases of the grammar by the terminal of their first word ('ALL' -> 'all units', 'all
    players'), read from the grammar's rules."""
    lark_ = _parser()
    terms = {t.name: str(t.pattern.value) for t in lark_.terminals}
    out: dict[str, set[str]] = {}
    for rule in lark_.rules:
        if rule.origin.name in _PHRASE_RULES and len(rule.expansion) > 1 and all(s.is_term for s in rule.expansion):
            out.setdefault(rule.expansion[0].name, set()).add(" ".join(terms[s.name] for s in rule.expansion))
    return {first: tuple(sorted(found)) for first, found in out.items()}


@functools.cache
def _rule_heads(rule: str) -> frozenset[str]:
    """The terminals that open a rule's alternatives ('duration' -> THIS, NEXT, PERMANENTLY)."""
    return frozenset(r.expansion[0].name for r in _parser().rules
                     if r.origin.name == rule and r.expansion and r.expansion[0].is_term)


def _standing(line: str) -> bool:
    """Whether the clause of ``line`` (up to a place in it) is a standing change: neither a trigger nor a use."""
    found = re.findall(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*|:", line)
    if found[:1] == ["for"] and ":" in found:
        found = found[found.index(":") + 1:]
    return bool(found) and found[0] not in {"on", "use"}


@functools.cache
def keywords() -> frozenset[str]:
    """Every keyword of the grammar ('before', 'turn', 'units')."""
    return frozenset(str(t.pattern.value) for t in _parser().terminals if str(t.pattern.value).isalpha())


def _describe_expected(expected: set[str]) -> str:
    names: list[str] = []
    phrases = _phrases()
    for term in sorted(expected):
        if term in phrases:
            names.extend(f"'{p}'" for p in phrases[term])
        elif term in _TERMINAL_NAMES:
            names.append(_TERMINAL_NAMES[term])
        elif re.fullmatch(r"[A-Z_]+", term):
            names.append(f"'{term.lower()}'")
        else:
            names.append(term)
    uniq = sorted(set(names))
    if len(uniq) > 6:
        uniq = [*uniq[:6], "..."]
    return ", ".join(uniq)


@attrs.frozen
class _Found:
    """A syntax error as the modder should read it: a code, a message, a hint, and where it is when that is not
    where the parser stopped (``at``: an offset in the text, ``width`` characters)."""

    code: str
    message: str
    hint: str | None
    at: int | None = None
    width: int = 1


def _word_around(text: str, at: int, chars: frozenset[str] | str = _WORD_CHARS) -> tuple[int, int]:
    """The start and end of the word of ``chars`` that holds offset ``at``."""
    start, end = at, at
    while start > 0 and text[start - 1] in chars:
        start -= 1
    while end < len(text) and text[end] in chars:
        end += 1
    return start, end


def _bad_character(text: str, at: int) -> _Found:
    ch = text[at] if at < len(text) else ""
    near = text[max(at - 1, 0):at + 2]
    start, end = _word_around(text, at, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
    word = text[start:end]
    hint = None
    if ch.isupper():
        hint = f"words of the effect language are lower case: '{word.lower()}'"
    elif ch == "_" and word.replace("_", "").isdigit():
        hint = f"a number is written without separators: '{word.replace('_', '')}'"
    elif ch == "_":
        hint = f"words use hyphens, not underscores: '{word.replace('_', '-')}'"
    elif ch in "+-" and sum(c in "+-" for c in near) > 1:
        hint = "a change has one sign: -2, +1, -1d6"
    elif ch in "0123456789-":
        hint = "numbers stand alone; write '4 of' as separate words, and dice as 1d6"
    elif ch == ".":
        hint = "an effect has no '.': a clause ends at the end of its line, or at ';'"
    return _Found("DSL001", f"unexpected character {ch!r}", hint)


def _early_end(text: str, at: int, expected: set[str]) -> _Found:
    """The clause ended (at the end of the line or of the effect) before the grammar was done with it: a ':' left
    out between a trigger's or a use's head and its actions, or a clause cut short."""
    line_start = text.rfind("\n", 0, at) + 1
    if "COLON" in expected:
        verbs = set(words.words("action")) | set(words.words("modifier"))
        previous = ""
        for match in re.finditer(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*", text[line_start:at]):
            if match.start() > 0 and match.group() in verbs and previous not in _NAMING_KEYWORDS:
                return _Found("DSL002", f"missing ':' before '{match.group()}'", _COLON_HINT,
                              at=line_start + match.start(), width=len(match.group()))
            previous = match.group()
        return _Found("DSL003", "the clause ends before its ':' and what it does", _COLON_HINT)
    return _Found("DSL003", "the clause ends too early", _expected_after(text[line_start:at], expected))


def _expected_after(before: str, expected: set[str]) -> str:
    """What is expected after the text ``before`` (of the same line): said by what it ends with when the grammar
    names it ('if' -> a condition), else the grammar's expected terminals."""
    last = re.findall(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*|[+-]?[0-9]*d6|[+-]?[0-9]+|[<>=!]=|[^\sa-z0-9]", before)
    if last and last[-1] in _FOLLOWS and "WORD" in expected:
        return f"expected {_FOLLOWS[last[-1]]} after '{last[-1]}'"
    return f"expected {_describe_expected(expected)}" + (f" after '{last[-1]}'" if last else "")


def _bad_token(text: str, tok: Token, expected: set[str]) -> _Found:
    at = tok.start_pos if tok.start_pos is not None else len(text)
    if tok.type == "$END":
        return _early_end(text, len(text.rstrip()), expected)
    if tok.type == "_NL":
        return _early_end(text, at, expected)
    value = str(tok.value)
    if value in {">", "<"} and text[at - 1:at] == "=":
        return _Found("DSL002", f"unexpected '={value}'", f"a comparison is written '{value}=', not '={value}'",
                      at=at - 1, width=2)
    start, end = _word_around(text, at) if tok.type == "WORD" else (at, at + len(value))
    if start < at:  # glued to a keyword the lexer took: 'once per turns' is 'turn' then 's'
        word = text[start:end]
        return _Found("DSL002", f"unexpected '{word}'", did_you_mean(word, keywords()) or
                      f"expected {_describe_expected(expected)}", at=start, width=end - start)
    start = text.rfind("\n", 0, at) + 1
    before, line = text[start:at], text[start:].split("\n", 1)[0]
    durations = _rule_heads("duration")
    if tok.type in durations and not expected & durations and _standing(before):
        return _Found("DSL002", f"unexpected '{value}': a standing change lasts as long as its card",
                      f"to give it for a while, write it in a use or a trigger: 'use: {line.strip()}'",
                      width=len(value))
    hint = _expected_after(before, expected)
    if "RESULTS" in expected and "WORD" not in expected and tok.type not in {"RESULTS", "NUMBER"}:
        return _Found("DSL002", f"unexpected '{value}'", _ONE_ACTION_HINT)
    close = keyword_slip(value, expected)
    if close is not None:
        return _Found("DSL002", f"unexpected '{value}'", f"did you mean '{close}'?")
    if tok.type == "WORD" and "COLON" in expected:
        return _Found("DSL002", f"missing ':' before '{value}'", _COLON_HINT, at=at, width=len(value))
    return _Found("DSL002", f"unexpected '{value}'".replace("\n", "\\n"), hint)


def keyword_slip(value: str, expected: set[str]) -> str | None:
    """The keyword the grammar expects that a word is a slip of: misspelt ('befor', 'trun'), or another keyword in
    its place ('all unit': 'units'); None for none (or for a token that is no word)."""
    keywords_ = {name.lower() for name in expected if name.isalpha() and name.isupper()} - {"word", "number"}
    return suggest(value, keywords_) if value[:1].isalpha() else None


def _friendly(err: UnexpectedInput, text: str) -> _Found:
    """What a parse error means, said as the modder's mistake."""
    if isinstance(err, UnexpectedCharacters):
        return _bad_character(text, err.pos_in_stream or 0)
    if isinstance(err, UnexpectedToken):
        return _bad_token(text, err.token, set(err.expected))
    return _Found("DSL002", "syntax error", None)  # the LALR parser raises nothing else


def _pos(smap: SourceMap, meta: Any, width: int | None = None) -> ast.Pos:
    if meta is None or getattr(meta, "empty", True):
        return ast.Pos(smap.file, smap.line, smap.column)
    line, col = smap.place(meta.line, meta.column)
    w = width if width is not None else max(1, (meta.end_column - meta.column) if meta.end_line == meta.line else 1)
    return ast.Pos(smap.file, line, col, w)


def _tok_pos(smap: SourceMap, tok: Token) -> ast.Pos:
    line, col = smap.place(tok.line or 1, tok.column or 1)
    return ast.Pos(smap.file, line, col, max(1, len(str(tok))))


class _ToAst(Transformer[Token, Any]):
    """The one transformer from Lark's tree to :mod:`ddaydice.dsl.ast`."""

    def __init__(self, smap: SourceMap) -> None:
        super().__init__()
        self.smap = smap

    def word(self, children: list[Token]) -> ast.Word:
        tok = children[0]
        return ast.Word(str(tok), _tok_pos(self.smap, tok))

    def number(self, children: list[Token]) -> ast.Number:
        tok = children[0]
        return ast.Number(int(tok), _tok_pos(self.smap, tok))

    def signed(self, children: list[Token]) -> ast.Signed:
        tok = children[0]
        return ast.Signed(int(tok), _tok_pos(self.smap, tok))

    def dice(self, children: list[Token]) -> ast.Dice:
        tok = children[0]
        count = str(tok)[:-2]
        return ast.Dice(int(count) if count else 1, 0, _tok_pos(self.smap, tok))

    def signed_dice(self, children: list[Token]) -> ast.Dice:
        tok = children[0]
        text = str(tok)
        count = text[1:-2]
        return ast.Dice(int(count) if count else 1, -1 if text[0] == "-" else 1, _tok_pos(self.smap, tok))

    @v_args(meta=True)
    def assign(self, meta: Any, children: list[Any]) -> ast.Assign:
        return ast.Assign(children[0], _pos(self.smap, meta))

    @v_args(meta=True)
    def per(self, meta: Any, children: list[ast.Word | int]) -> ast.Per:
        names = tuple(c for c in children if isinstance(c, ast.Word))
        above = next((c for c in children if isinstance(c, int)), None)
        return ast.Per(names, above, _pos(self.smap, meta))

    def above(self, children: list[Any]) -> int:
        return int(children[0])

    @v_args(meta=True)
    def statement(self, meta: Any, children: list[Any]) -> ast.Statement:
        verb = children[0]
        rest = children[1:]
        per = None
        if rest and isinstance(rest[-1], ast.Per):
            per = rest[-1]
            rest = rest[:-1]
        return ast.Statement(verb, tuple(rest), per, _pos(self.smap, meta))

    def _target(self, kind: ast.TargetKind, meta: Any) -> ast.Target:
        return ast.Target(kind, _pos(self.smap, meta))

    @v_args(meta=True)
    def all_units(self, meta: Any, _: list[Any]) -> ast.Target:
        return self._target("all-units", meta)

    @v_args(meta=True)
    def units_here(self, meta: Any, _: list[Any]) -> ast.Target:
        return self._target("units-here", meta)

    @v_args(meta=True)
    def another_unit(self, meta: Any, _: list[Any]) -> ast.Target:
        return self._target("another-unit", meta)

    @v_args(meta=True)
    def the_german(self, meta: Any, _: list[Any]) -> ast.Target:
        return self._target("the-german", meta)

    @v_args(meta=True)
    def all_players(self, meta: Any, _: list[Any]) -> ast.Target:
        return self._target("all-players", meta)

    @v_args(meta=True)
    def adjacent_sector(self, meta: Any, _: list[Any]) -> ast.Target:
        return self._target("adjacent-sector", meta)

    def scope(self, children: list[ast.Target]) -> ast.Target:
        return children[0]

    def recipient(self, children: list[Any]) -> ast.Target:
        target: ast.Target = children[0]
        if len(children) > 1:
            return attrs.evolve(target, condition=children[1])
        return target

    @v_args(meta=True)
    def recipient_if(self, meta: Any, children: list[Any]) -> ast.Condition:
        return ast.Condition(children[0], False, _pos(self.smap, meta))

    @v_args(meta=True)
    def recipient_unless(self, meta: Any, children: list[Any]) -> ast.Condition:
        return ast.Condition(children[0], True, _pos(self.smap, meta))

    def this_turn(self, _: list[Any]) -> str:
        return "this-turn"

    def this_phase(self, _: list[Any]) -> str:
        return "this-phase"

    def next_turn(self, _: list[Any]) -> str:
        return "next-turn"

    def permanently(self, _: list[Any]) -> str:
        return "permanently"

    def until(self, children: list[Any]) -> ast.Until:
        return ast.Until(children[0])

    @v_args(meta=True)
    def option(self, meta: Any, children: list[Any]) -> ast.Option:
        statement = children[0]
        duration = None
        until = None
        recipient = None
        also: list[ast.Option] = []
        for extra in children[1:]:
            if isinstance(extra, str):
                duration = extra
            elif isinstance(extra, ast.Until):
                duration, until = "until", extra.event
            elif isinstance(extra, ast.Target):
                recipient = extra
            elif isinstance(extra, ast.Option):
                also.append(extra)
        return ast.Option(statement, duration, recipient, _pos(self.smap, meta),  # type: ignore[arg-type]
                          tuple(also), until)

    @v_args(meta=True)
    def also(self, meta: Any, children: list[Any]) -> ast.Option:
        part: ast.Option = self.option(meta, children)
        return part

    @v_args(meta=True)
    def action(self, meta: Any, children: list[ast.Option]) -> ast.Action:
        return ast.Action(tuple(children), _pos(self.smap, meta))

    @v_args(meta=True)
    def chance(self, meta: Any, children: list[Any]) -> ast.Action:
        dice = self.dice([children[0]])
        outcomes: list[tuple[tuple[int, int] | None, ast.Pos, ast.Option]] = children[1:]
        return ast.Action(tuple(opt for _, _, opt in outcomes), _pos(self.smap, meta), dice,
                          tuple(results for results, _, _ in outcomes), tuple(pos for _, pos, _ in outcomes))

    def outcome(self, children: list[Any]) -> tuple[tuple[int, int], ast.Pos, ast.Option]:
        low, _, high = str(children[0]).partition("-")
        return (int(low), int(high or low)), _tok_pos(self.smap, children[0]), children[1]

    @v_args(meta=True)
    def otherwise(self, meta: Any, children: list[Any]) -> tuple[None, ast.Pos, ast.Option]:
        return None, _pos(self.smap, meta), children[0]

    def actions(self, children: list[ast.Action]) -> tuple[ast.Action, ...]:
        return tuple(children)

    def _limit(self, period: ast.PeriodKind, meta: Any, on_card: bool = False) -> ast.Limit:
        return ast.Limit(period, _pos(self.smap, meta), on_card)

    @v_args(meta=True)
    def per_turn(self, meta: Any, _: list[Any]) -> ast.Limit:
        return self._limit("turn", meta)

    @v_args(meta=True)
    def per_phase(self, meta: Any, _: list[Any]) -> ast.Limit:
        return self._limit("phase", meta)

    @v_args(meta=True)
    def per_game(self, meta: Any, _: list[Any]) -> ast.Limit:
        return self._limit("game", meta)

    @v_args(meta=True)
    def per_turn_card(self, meta: Any, _: list[Any]) -> ast.Limit:
        return self._limit("turn", meta, on_card=True)

    @v_args(meta=True)
    def per_phase_card(self, meta: Any, _: list[Any]) -> ast.Limit:
        return self._limit("phase", meta, on_card=True)

    @v_args(meta=True)
    def per_game_card(self, meta: Any, _: list[Any]) -> ast.Limit:
        return self._limit("game", meta, on_card=True)

    def _window(self, kind: ast.WindowKind, meta: Any, children: list[ast.Word]) -> ast.Window:
        return ast.Window(kind, children[0], _pos(self.smap, meta))

    @v_args(meta=True)
    def before(self, meta: Any, children: list[ast.Word]) -> ast.Window:
        return self._window("before", meta, children)

    @v_args(meta=True)
    def after(self, meta: Any, children: list[ast.Word]) -> ast.Window:
        return self._window("after", meta, children)

    @v_args(meta=True)
    def during(self, meta: Any, children: list[ast.Word]) -> ast.Window:
        return self._window("during", meta, children)

    @v_args(meta=True)
    def when(self, meta: Any, children: list[ast.Word]) -> ast.Window:
        return self._window("when", meta, children)

    def comparison(self, children: list[Token]) -> ast.Comparison:
        return ast.Comparison(str(children[0]), int(children[1]))

    @v_args(meta=True)
    def predicate(self, meta: Any, children: list[Any]) -> ast.Predicate:
        word = children[0]
        rest = children[1:]
        comparison = None
        if rest and isinstance(rest[-1], ast.Comparison):
            comparison = rest[-1]
            rest = rest[:-1]
        return ast.Predicate(word, tuple(rest), comparison, _pos(self.smap, meta))

    @v_args(meta=True)
    def negate(self, meta: Any, children: list[Any]) -> ast.Not:
        return ast.Not(children[0], _pos(self.smap, meta))

    @v_args(meta=True)
    def all_of(self, meta: Any, children: list[Any]) -> ast.CondExpr:
        return ast.AllOf(tuple(children), _pos(self.smap, meta))

    @v_args(meta=True)
    def any_of(self, meta: Any, children: list[Any]) -> ast.CondExpr:
        return ast.AnyOf(tuple(children), _pos(self.smap, meta))

    @v_args(meta=True)
    def cond_if(self, meta: Any, children: list[Any]) -> ast.Condition:
        return ast.Condition(children[0], False, _pos(self.smap, meta))

    @v_args(meta=True)
    def cond_unless(self, meta: Any, children: list[Any]) -> ast.Condition:
        return ast.Condition(children[0], True, _pos(self.smap, meta))

    @v_args(meta=True)
    def trigger(self, meta: Any, children: list[Any]) -> ast.Trigger:
        event = children[0]
        cond = next((c for c in children[1:] if isinstance(c, ast.Condition)), None)
        actions = next(c for c in children[1:] if isinstance(c, tuple))
        limit = next((c for c in children[1:] if isinstance(c, ast.Limit)), None)
        return ast.Trigger(event, cond, actions, limit, _pos(self.smap, meta))

    @v_args(meta=True)
    def use(self, meta: Any, children: list[Any]) -> ast.Use:
        limit = next((c for c in children if isinstance(c, ast.Limit)), None)
        window = next((c for c in children if isinstance(c, ast.Window)), None)
        cond = next((c for c in children if isinstance(c, ast.Condition)), None)
        actions = next(c for c in children if isinstance(c, tuple))
        return ast.Use(limit, window, cond, actions, _pos(self.smap, meta))

    @v_args(meta=True)
    def modifier(self, meta: Any, children: list[Any]) -> ast.Modifier:
        statement = children[0]
        cond = next((c for c in children[1:] if isinstance(c, ast.Condition)), None)
        limit = next((c for c in children[1:] if isinstance(c, ast.Limit)), None)
        return ast.Modifier(statement, cond, limit, _pos(self.smap, meta))

    @v_args(meta=True)
    def clause(self, meta: Any, children: list[Any]) -> ast.Clause:
        if len(children) == 2:
            return ast.Clause(children[0], children[1], _pos(self.smap, meta))
        return ast.Clause(None, children[0], _pos(self.smap, meta))

    @v_args(meta=True)
    def start(self, meta: Any, children: list[ast.Clause]) -> ast.Effect:
        return ast.Effect(tuple(children), _pos(self.smap, meta))


_NUMBER_TOKENS = frozenset({"NUMBER", "SIGNED", "DICE", "SIGNED_DICE"})

# Deeper trees are refused before they reach the (recursive) transformer, checker and renderer. What a writer
# nests is bounded before, and lower (MAX_EFFECT_NESTING): this bounds the parse tree whatever the form.
MAX_DEPTH = 100


def _nesting(text: str, tree: Tree[Token]) -> tuple[int, Any]:
    """The deepest nesting the writer wrote (brackets and 'not's inside each other: ``not (not (x))`` is 4 deep,
    ``((x))`` 2), and the meta of a node there. A node's brackets are those open where it starts."""
    opens, depths = _brackets(text)
    best, meta = 0, None
    stack: list[tuple[Tree[Token], int]] = [(tree, 0)]
    while stack:
        node, nots = stack.pop()
        nots += node.data == "negate"
        if not node.meta.empty:
            at = bisect.bisect_right(opens, node.meta.start_pos - 1)  # (brackets before the node's start)
            level = nots + (depths[at - 1] if at else 0)
            if level > best:
                best, meta = level, node.meta
        stack.extend((child, nots) for child in node.children if isinstance(child, Tree))
    return best, meta


def _brackets(text: str) -> tuple[list[int], list[int]]:
    """The positions where the bracket depth changes, and the depth after each: the brackets of the effect's text,
    a comment's left out (the language has no quoted text; a comment runs from '#' to the end of its line). Read
    off the text, not by Lark's lexer, whose ``lex`` builds a scanner on each call (most of a load's time)."""
    opens: list[int] = []
    depths: list[int] = []
    depth = 0
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        if c in "()":
            depth += 1 if c == "(" else -1
            opens.append(i)
            depths.append(depth)
        i += 1
    return opens, depths


def _deepest(tree: Tree[Token]) -> tuple[int, Any]:
    """The depth of the tree and the meta of its deepest node (iteratively: no recursion limit)."""
    best, meta = 0, None
    stack: list[tuple[Tree[Token], int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > best:
            best, meta = depth, node.meta
        stack.extend((child, depth + 1) for child in node.children if isinstance(child, Tree))
    return best, meta


def _syntax_error(err: UnexpectedInput, text: str, smap: SourceMap, offset: int = 0) -> Diagnostic:
    """A parse error as a diagnostic at its place in the file (``offset``: lines of the effect before ``text``)."""
    found = _friendly(err, text)
    if found.at is not None:
        line = text.count("\n", 0, found.at) + 1
        column = found.at - (text.rfind("\n", 0, found.at) + 1) + 1
    elif isinstance(err, UnexpectedToken) and err.token.type == "$END":
        lines = text.rstrip().splitlines() or [""]
        line, column = len(lines), len(lines[-1]) + 1
    else:
        line = getattr(err, "line", 1) or 1
        column = getattr(err, "column", 1) or 1
    fline, fcol = smap.place(max(line, 1) + offset, max(column, 1))
    return Diagnostic(found.code, found.message, smap.file, fline, fcol, hint=found.hint, width=found.width)


def parse_effect(text: str, smap: SourceMap) -> tuple[ast.Effect | None, list[Diagnostic]]:
    """Parse an effect. Returns the tree, or None and the diagnostics; never raises.

    The same text at the same place gives the same (immutable) tree: the last :data:`MAX_REMEMBERED_EFFECTS` are
    remembered, for the loads of a long-running process (the language server, ``dday validate --watch``)."""
    tree, diags = _parse_remembered(text, smap)
    return tree, list(diags)


@functools.lru_cache(maxsize=MAX_REMEMBERED_EFFECTS)
def _parse_remembered(text: str, smap: SourceMap) -> tuple[ast.Effect | None, tuple[Diagnostic, ...]]:
    tree, diags = _parse_effect(text, smap)
    return tree, tuple(diags)


def _parse_effect(text: str, smap: SourceMap) -> tuple[ast.Effect | None, list[Diagnostic]]:
    if len(text) > MAX_EFFECT_CHARS:
        fline, fcol = smap.place(1, 1)
        return None, [Diagnostic("DSL005", f"the effect is too long ({len(text)} characters; at most "
                                 f"{MAX_EFFECT_CHARS})", smap.file, fline, fcol,
                                 hint="an effect is a few clauses; split the card's rule into simpler ones")]
    try:
        tree = _parse_tree(text)
    except UnexpectedInput as err:
        # Clauses are one per line: each line is parsed alone, so that every broken clause is reported at once.
        lines = text.splitlines()
        found: list[Diagnostic] = []
        if len(lines) > 1:
            for i, one in enumerate(lines):
                if not one.strip():
                    continue
                try:
                    _parser().parse(one)
                except UnexpectedInput as line_err:
                    found.append(_syntax_error(line_err, one, smap, offset=i))
        return None, found or [_syntax_error(err, text, smap)]
    except RecursionError:
        fline, fcol = smap.place(1, 1)
        return None, [Diagnostic("DSL004", "effect nested too deeply", smap.file, fline, fcol)]
    nested, meta = _nesting(text, tree)
    depth, deepest = _deepest(tree)
    if nested > MAX_EFFECT_NESTING or depth > MAX_DEPTH:
        meta = meta if nested > MAX_EFFECT_NESTING else deepest
        line, column = (meta.line, meta.column) if meta is not None and not meta.empty else (1, 1)
        fline, fcol = smap.place(line, column)
        what = (f"{nested} brackets and 'not's inside each other" if nested > MAX_EFFECT_NESTING
                else "its parts inside each other")
        return None, [Diagnostic("DSL004", f"effect nested too deeply ({what}; at most {MAX_EFFECT_NESTING} "
                                 "brackets and 'not's)", smap.file, fline, fcol,
                                 hint="split the condition into simpler clauses")]
    too_large: list[Diagnostic] = []
    for tok in tree.scan_values(lambda v: isinstance(v, Token) and v.type in _NUMBER_TOKENS):
        digits = str(tok).lstrip("+-").removesuffix("d6")
        if digits and (len(digits) > 4 or int(digits) > MAX_EFFECT_NUMBER):
            fline, fcol = smap.place(tok.line or 1, tok.column or 1)
            # (a number too long to print whole is shown by its start and its length, and underlined whole)
            shown = str(tok) if len(tok) <= 12 else f"{str(tok)[:12]}... ({len(digits)} digits)"
            too_large.append(Diagnostic("DSL005", f"the number {shown} is too large (at most {MAX_EFFECT_NUMBER})",
                                        smap.file, fline, fcol, width=min(len(tok), 80)))
    if too_large:
        return None, too_large
    effect = _ToAst(smap).transform(tree)
    assert isinstance(effect, ast.Effect)
    return effect, []
