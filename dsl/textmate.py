"""TextMate grammars of the effect language, generated from the grammar and the registry of words.

Nothing here lists a word of the language. The keywords and their phrases ('once per turn', 'all units',
'this turn') and the shapes of numbers, dice, comparisons and words are read from the Lark grammar
(``effect.lark``, through the parser built from it); the verbs, events, moments, conditions and counters from
:mod:`ddaydice.dsl.words`; the names content defines (resources, faces, colours, values, permissions, RWB
bonuses, tiers, phases, kinds, decks, tags) from a :class:`~ddaydice.dsl.vocab.Vocabulary`, the bundled one
for the published files. ``dday grammar -o DIR`` writes them; ``editors/vscode/`` holds the published ones.

Three files, an unpacked VS Code extension:

- ``ddaydice-effect.tmLanguage.json``: the language itself (scope ``source.ddaydice-effect``), for a file of
  effects or an editor's embedded block;
- ``ddaydice-effect-yaml.injection.tmLanguage.json``: injected into YAML (``source.yaml``), it colours the
  literal block of every ``effect: |`` key with the language;
- ``package.json``: the extension's manifest naming both.

Every character of a well-formed effect gets a scope (a word the grammar does not know is a name content
defines, such as a card id); a character the language has no place for is ``invalid.illegal``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import Any

from lark import Lark

from ddaydice.dsl import words
from ddaydice.dsl.checker import FILTER_WORDS
from ddaydice.dsl.vocab import Vocabulary

LANGUAGE = "ddaydice-effect"
SCOPE = f"source.{LANGUAGE}"
INJECTION_SCOPE = f"{LANGUAGE}.yaml-injection"
EMBEDDED = f"meta.embedded.block.{LANGUAGE}"
GRAMMAR_FILE = f"{LANGUAGE}.tmLanguage.json"
INJECTION_FILE = f"{LANGUAGE}-yaml.injection.tmLanguage.json"

# A word of the language starts here and ends here (words hold hyphens: 'advance-cost' is one word).
_BEFORE = "(?<![a-z0-9-])"
_AFTER = "(?![a-z0-9-])"

# Phrases of the grammar's rules, by rule, and the scope each takes.
_PHRASE_RULES = {
    "limit": "keyword.other.limit",
    "duration": "keyword.other.duration",
    "target": "variable.language.target",
}
# Single keywords: the logical ones, then every other keyword of the grammar.
_LOGICAL = ("and", "or", "not")
_PUNCTUATION = {
    "COLON": "punctuation.separator.colon",
    "COMMA": "punctuation.separator.comma",
    "SEMICOLON": "punctuation.terminator.clause",
    "LPAR": "punctuation.section.parens.begin",
    "RPAR": "punctuation.section.parens.end",
    "EQUAL": "keyword.operator.assignment",
}
# The terminals of the grammar that are numbers, in the order they must be tried (dice before plain numbers, a
# plain number before a chance's range of results, '5-6', which also reads a plain number).
_NUMBERS = {
    "SIGNED_DICE": "constant.numeric.dice.signed",
    "DICE": "constant.numeric.dice",
    "SIGNED": "constant.numeric.integer.signed",
    "NUMBER": "constant.numeric.integer",
    "RESULTS": "constant.numeric.range",
}
# Words by role (words.py), then names content defines (the vocabulary): a name in several lists takes the
# scope of the first.
_ROLE_SCOPES: tuple[tuple[words.Role, str], ...] = (
    ("action", "entity.name.function.action"),
    ("modifier", "keyword.other.modifier"),
    ("predicate", "support.function.condition"),
    ("counter", "support.variable.counter"),
    ("event", "support.function.event"),
    ("moment", "support.function.moment"),
)
# What a word's first argument names, when it is a name content defines (a card id, a sector id).
_REFERENCE_SCOPES = {
    "specialist": "entity.name.card",
    "item": "entity.name.card",
    "vehicle": "entity.name.card",
    "card": "entity.name.card",
    "sector": "entity.name.sector",
}
NAME_SCOPE = "variable.other.name"
INVALID_SCOPE = "invalid.illegal.character"


def _s(scope: str) -> str:
    return f"{scope}.{LANGUAGE}"


def _alt(names: Iterable[str]) -> str:
    """A regex alternation of names, longest first (so that 'def' never cuts 'def-x' short)."""
    return "|".join(re.escape(n) for n in sorted(set(names), key=lambda n: (-len(n), n)))


@functools.cache
def _lark() -> Lark:
    from ddaydice.dsl.parser import _parser

    return _parser()


def _terminals() -> dict[str, str]:
    """The grammar's terminals: name -> pattern (a regex, or the literal text of a keyword)."""
    return {t.name: t.pattern.value for t in _lark().terminals}


def _phrases(rule: str) -> list[str]:
    """The keyword phrases of a rule of the grammar ('limit' -> 'once per turn', ...)."""
    terms = _terminals()
    out = []
    for r in _lark().rules:
        if r.origin.name == rule and all(s.is_term for s in r.expansion):
            out.append(" ".join(terms[s.name] for s in r.expansion))
    return out


def _keywords() -> list[str]:
    """The keywords of the grammar that stand alone ('on', 'if', 'per'), not only inside a phrase of a limit, a
    duration or a target ('once', 'this', 'all', 'units', 'players': outside their phrase, words like others)."""
    terms = _terminals()
    alone = {s.name for r in _lark().rules if r.origin.name not in _PHRASE_RULES for s in r.expansion if s.is_term}
    return sorted(terms[name] for name in alone if terms[name].isalpha())


def vocabulary_names(vocab: Vocabulary) -> list[tuple[str, set[str]]]:
    """The names content defines, by scope, in the order of priority."""
    literals: set[str] = set(FILTER_WORDS) | {"unlimited", "any", "any-colour"}
    for spec in words.WORDS:
        for sig in words.signatures(spec):
            for param in sig.params:
                literals |= set(param.literals)
    return [
        ("variable.other.query", vocab.numbers()),
        ("variable.other.permission", vocab.flags()),
        ("support.constant.resource", set(vocab.resources)),
        ("support.constant.face", set(vocab.faces) | set(vocab.face_aliases)),
        ("support.constant.colour", set(vocab.colours)),
        ("constant.language", literals),
        ("support.constant.rwb", set(vocab.rwbs)),
        ("support.constant.ignorable", set(vocab.ignorables)),
        ("support.constant.tier", set(vocab.tiers)),
        ("support.constant.phase", set(vocab.phases)),
        ("support.constant.kind", {"specialist", "item", "vehicle", "award"} | set(vocab.kinds) | set(vocab.decks)),
        ("support.constant.tag", set(vocab.tags)),
    ]


def _word_lists(vocab: Vocabulary) -> list[tuple[str, list[str]]]:
    """Each scope with the words it colours, every word in the first list that names it."""
    seen = set(_keywords())
    out: list[tuple[str, list[str]]] = []
    groups = [(scope, set(words.words(role))) for role, scope in _ROLE_SCOPES] + vocabulary_names(vocab)
    for scope, names in groups:
        mine = sorted(n for n in names if n not in seen and " " not in n)
        seen |= set(mine)
        if mine:
            out.append((scope, mine))
    return out


def _references() -> list[dict[str, Any]]:
    """A word whose first argument may be a card or a sector, and that name: 'has medic', 'retreat s7' (not a
    literal its first argument may also be: 'sacrifice self')."""
    scopes = dict(_ROLE_SCOPES)
    found: dict[tuple[str, str], set[str]] = {}
    literals: set[str] = set()
    for spec in words.WORDS:
        if spec.role not in {"action", "modifier", "predicate"}:
            continue
        for sig in words.signatures(spec):
            first = sig.params[0] if sig.params else None
            if first is None:
                continue
            literals |= set(first.literals)
            for kind in first.kinds:
                if kind in _REFERENCE_SCOPES:
                    found.setdefault((scopes[spec.role], _REFERENCE_SCOPES[kind]), set()).add(spec.name)
    word = _terminals()["WORD"]
    not_literal = f"(?!(?:{_alt(literals)}){_AFTER})"
    return [{
        "match": f"{_BEFORE}({_alt(verbs)})[ \\t]+{not_literal}({word}){_AFTER}",
        "captures": {"1": {"name": _s(verb_scope)}, "2": {"name": _s(name_scope)}},
    } for (verb_scope, name_scope), verbs in sorted(found.items())]


def _phrase_patterns() -> list[dict[str, Any]]:
    out = []
    for rule, scope in _PHRASE_RULES.items():
        phrases = [p.replace(" ", "[ \\t]+") for p in sorted(_phrases(rule), key=lambda p: (-len(p), p))]
        out.append({"match": f"{_BEFORE}(?:{'|'.join(phrases)}){_AFTER}", "name": _s(scope)})
    return out


def _context_patterns(vocab: Vocabulary) -> list[dict[str, Any]]:
    """A keyword and the word it introduces: 'on EVENT', 'before MOMENT', 'per COUNTER'."""
    events = set(words.words("event"))
    moments = events | set(words.words("moment")) | set(vocab.phases)
    windows = _phrases_of_rule_heads("window")
    until = _word_heads("duration")  # 'until EVENT': a duration that lasts until an event
    counters = set(words.words("counter"))
    out = []
    for head, names, scope in ((["on", *until], events, "support.function.event"),
                               (windows, moments, "support.function.moment"),
                               (["per"], counters, "support.variable.counter")):
        out.append({
            "match": f"{_BEFORE}({_alt(head)})(?:[ \\t]+({_alt(names)}){_AFTER})?{_AFTER}",
            "captures": {"1": {"name": _s("keyword.control")}, "2": {"name": _s(scope)}},
        })
    return out


def _word_heads(rule: str) -> list[str]:
    """The keywords of a rule's alternatives that a word follows ('duration' -> until, of 'until EVENT')."""
    terms = _terminals()
    return sorted({terms[r.expansion[0].name] for r in _lark().rules
                   if r.origin.name == rule and len(r.expansion) == 2 and r.expansion[0].is_term
                   and r.expansion[1].name == "word"})


def _phrases_of_rule_heads(rule: str) -> list[str]:
    """The keywords that open a rule's alternatives ('window' -> before, after, during, when)."""
    terms = _terminals()
    return sorted({terms[r.expansion[0].name] for r in _lark().rules
                   if r.origin.name == rule and r.expansion and r.expansion[0].is_term})


def effect_grammar(vocab: Vocabulary) -> dict[str, Any]:
    """The TextMate grammar of the effect language (scope ``source.ddaydice-effect``)."""
    terms = _terminals()
    keywords = [k for k in _keywords() if k not in _LOGICAL]
    patterns: list[dict[str, Any]] = [
        {"match": f"{terms['COMMENT']}", "name": _s("comment.line.number-sign")},
        *_phrase_patterns(),
        *_context_patterns(vocab),
        {"match": f"{_BEFORE}(?:{_alt(_LOGICAL)}){_AFTER}", "name": _s("keyword.operator.logical")},
        {"match": f"{_BEFORE}(?:{_alt(keywords)}){_AFTER}", "name": _s("keyword.control")},
        *({"match": f"{_BEFORE}{terms[name]}{_AFTER}", "name": _s(scope)} for name, scope in _NUMBERS.items()
          if name in terms),
        {"match": terms["CMP"], "name": _s("keyword.operator.comparison")},
        *({"match": re.escape(terms[name]), "name": _s(scope)} for name, scope in _PUNCTUATION.items()),
        *_references(),
        *({"match": f"{_BEFORE}(?:{_alt(names)}){_AFTER}", "name": _s(scope)} for scope, names in _word_lists(vocab)),
        {"match": f"{_BEFORE}{terms['WORD']}{_AFTER}", "name": _s(NAME_SCOPE)},
        {"match": "\\S", "name": _s(INVALID_SCOPE)},
    ]
    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
        "name": "D-Day Dice effect",
        "scopeName": SCOPE,
        "comment": "Generated by `dday grammar` from dsl/effect.lark, dsl/words.py and the bundled rules; "
                   "do not edit.",
        "fileTypes": ["ddayeffect"],
        "patterns": [{"include": "#effect"}],
        "repository": {"effect": {"patterns": patterns}},
    }


def injection_grammar() -> dict[str, Any]:
    """Injected into YAML: the literal block of an ``effect: |`` key, in a mapping or a list item, is an effect.

    The block's lines are those indented deeper than the key (YAML's rule for a block scalar); it ends at the
    first line that is not blank and not so indented. ``\\1`` is the indentation of the key's line, and in a list
    item ``\\2`` the spaces after its dash: the key stands at ``\\1`` plus one column plus ``\\2``."""
    head = "(effect)[ ]*(:)[ ]+(\\|)([1-9]?[+-]?|[+-]?[1-9]?)[ ]*(#.*)?$"
    captures = {
        "1": {"name": "entity.name.tag.yaml"},
        "2": {"name": "punctuation.separator.key-value.mapping.yaml"},
        "3": {"name": "keyword.control.flow.block-scalar.literal.yaml"},
        "4": {"name": "storage.modifier.chomping-indicator.yaml"},
        "5": {"name": "comment.line.number-sign.yaml"},
    }

    def shifted(by: int) -> dict[str, Any]:
        return {k if not k.isdigit() else str(int(k) + by): v for k, v in captures.items()}

    blank_or_deeper = "^(?=[ ]*\\S)"
    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
        "name": "D-Day Dice effects in YAML",
        "scopeName": INJECTION_SCOPE,
        "comment": "Generated by `dday grammar`; do not edit.",
        "injectionSelector": "L:source.yaml -comment",
        "patterns": [{"include": "#effect-block"}, {"include": "#effect-block-in-list"}],
        "repository": {
            "effect-block": {
                "begin": f"^([ ]*){head}",
                "beginCaptures": shifted(1),
                "end": f"{blank_or_deeper}(?!\\1[ ])",
                "contentName": EMBEDDED,
                "patterns": [{"include": SCOPE}],
            },
            "effect-block-in-list": {
                "begin": f"^([ ]*)(-)([ ]+){head}",
                "beginCaptures": {"2": {"name": "punctuation.definition.block.sequence.item.yaml"}, **shifted(3)},
                "end": f"{blank_or_deeper}(?!\\1 \\3[ ])",
                "contentName": EMBEDDED,
                "patterns": [{"include": SCOPE}],
            },
        },
    }


def extension_manifest() -> dict[str, Any]:
    """The VS Code extension's package.json: the language, its grammar and the injection into YAML."""
    return {
        "name": LANGUAGE,
        "displayName": "D-Day Dice effects",
        "description": "Syntax colour for the effect language of ddaydice, in effect files and in the "
                       "'effect: |' blocks of its YAML content files. Generated by `dday grammar`.",
        "version": "0.1.0",
        "publisher": "ddaydice",
        "license": "MIT",
        "engines": {"vscode": "^1.60.0"},
        "categories": ["Programming Languages"],
        "contributes": {
            "languages": [{"id": LANGUAGE, "aliases": ["D-Day Dice effect"], "extensions": [".ddayeffect"]}],
            "grammars": [
                {"language": LANGUAGE, "scopeName": SCOPE, "path": f"./{GRAMMAR_FILE}"},
                {"scopeName": INJECTION_SCOPE, "path": f"./{INJECTION_FILE}", "injectTo": ["source.yaml"],
                 "embeddedLanguages": {EMBEDDED: LANGUAGE}},
            ],
        },
    }


def files(vocab: Vocabulary) -> dict[str, dict[str, Any]]:
    """Every file of the extension, by name."""
    return {
        GRAMMAR_FILE: effect_grammar(vocab),
        INJECTION_FILE: injection_grammar(),
        "package.json": extension_manifest(),
    }
