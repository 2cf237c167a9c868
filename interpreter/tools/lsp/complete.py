"""Completion: in an effect, the words of the language and the names the rules and the content define, narrowed to
what the word before the cursor takes (``gain 2 `` → resources, ``on `` → events, ``has `` → cards); outside
effects, the ids a YAML key takes (``only-in:`` → optional rules, ``map:`` → maps, ``sector:``/``visited:`` →
Sectors, ``specialists:`` → Specialists (and so for Items and Vehicles), anything else → card ids)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import attrs
from lsprotocol import types

from ddaydice.dsl import schema, words
from ddaydice.dsl.loader import Content
from ddaydice.dsl.reference import entry
from ddaydice.dsl.words.events import POINTS
from ddaydice.interpreter.core.state import Unit
from ddaydice.interpreter.tools.lsp.describe import describe_id
from ddaydice.interpreter.tools.lsp.text import in_effect, key_of, prefix_at
from ddaydice.interpreter.tools.scenario_file import GAME_CHECKS, UNIT_CHECKS

K = types.CompletionItemKind
ROLE_KINDS = {"action": K.Function, "modifier": K.Keyword, "event": K.Event, "moment": K.Event,
              "predicate": K.Function, "counter": K.Variable, "target": K.Reference}
KEYWORDS = ("on", "use", "for", "if", "unless", "and", "or", "not", "this turn", "this phase", "next turn",
            "permanently", "once per turn", "once per phase", "once per game", "once per turn per card",
            "once per phase per card", "once per game per card", "to", "per", "above", "before", "after", "during",
            "when", "until", "roll 1d6 (", "else:", "as")
FORM_ROLES: tuple[words.Role, ...] = ("action", "modifier", "predicate", "counter")
WINDOWS = frozenset({"before", "after", "during", "when"})
OPTION_KEYS = frozenset({"only-in", "unavailable-in", "options", "option", "pending"})
SECTOR_KEYS = frozenset({"sector", "sectors", "visited", "from", "to", "start", "starts", "at", "retreat", "move"})
_WORD = re.compile(r"[a-z0-9][a-z0-9-]*|[=+-]?\d+(?:d6)?|=")


@attrs.frozen
class Name:
    """A name to offer: its text, what it is (shown beside it) and its kind of item."""

    label: str
    detail: str
    kind: types.CompletionItemKind
    doc: str = ""
    what: str = "word"  # what a resolved item describes it as: a 'word' of the reference, a 'card', an 'id'


@attrs.frozen
class Names:
    """Every name an effect may use, by kind of argument (dsl/words/ ``PARAM_KINDS``) or of clause part."""

    by_kind: dict[str, list[Name]]

    def of(self, *kinds: str) -> list[Name]:
        seen: dict[str, Name] = {}
        for kind in kinds:
            for name in self.by_kind.get(kind, ()):
                seen.setdefault(name.label, name)
        return list(seen.values())


def _words(role: str) -> list[Name]:
    return [Name(s.name, f"{s.role}: {'; '.join(s.signatures) or s.name}".rstrip(), ROLE_KINDS[s.role], s.summary)
            for s in words.all_words() if s.role == role]


def _windows() -> dict[str, list[Name]]:
    """The moments each window word takes ('window-before': 'mgf', 'movement'), from the language's one list of the
    windows the engine offers uses at (``words.windows``), each with where the turn offers it."""
    out: dict[str, list[Name]] = {f"window-{kind}": [] for kind in WINDOWS}
    for (kind, moment), points in words.windows().items():
        where = "; ".join(dict.fromkeys(POINTS.get(p, "as the event is about to happen") for p in points))
        spec = words.lookup("moment", moment) or words.lookup("event", moment)
        out[f"window-{kind}"].append(Name(moment, f"moment: {kind} {moment}", K.Event,
                                          f"offered {where}" + (f". {spec.summary}" if spec else "")))
    return out


def names(content: Content, map_id: str | None) -> Names:
    """The names of the language and of this content (a map's own Sectors, attributes and tables if the document
    is that map)."""
    v = content.vocab
    q = content.queries
    card = {cid: Name(cid, f"{content.card_kinds[cid]}: {c.name}", K.Class, c.text.strip(), "id")
            for cid, c in content.cards.items()}
    by: dict[str, list[Name]] = {
        "resource": [Name(r, "resource", K.Unit) for r in sorted(v.resources)],
        "face": [Name(f.id, f"face: {f.name}", K.EnumMember, f.text) for f in content.dice.faces]
        + [Name("any", "face: chosen", K.EnumMember)],
        "colour": [Name(c, "colour", K.Color) for c in sorted(v.colours)] + [Name("any-colour", "colour", K.Color)],
        "rwb": [Name(r.id, f"RWB: {r.name}", K.EnumMember, r.text) for r in content.rwb.rwb],
        "query": [Name(x.id, f"value: {x.name or x.id}", K.Property, x.text) for x in q.queries if x.kind == "number"],
        "flag": [Name(x.id, f"permission: {x.name or x.id}", K.Property, x.text) for x in q.queries
                 if x.kind == "flag"],
        "ignorable": [Name(i.id, "to ignore", K.EnumMember, i.text) for i in q.ignorables],
        "tier": [Name(t, "tier", K.EnumMember) for t in v.tiers],
        "phase": [Name(p.id, f"phase: {p.name}", K.EnumMember) for p in content.phases.phases],
        "kind": [Name(k, "kind of card", K.EnumMember) for k in (*schema.BASE_KINDS, *sorted(v.kinds))],
        "deck": [Name(k, "deck", K.EnumMember) for k in sorted(v.decks)],
        "tag": [Name(t, "tag", K.EnumMember) for t in sorted(v.tags)],
        "word": [Name(o, f"optional rule: {content.options[o].name}", K.Constant, what="id")
                 for o in sorted(content.options)],
        "card": list(card.values()),
        **{k: [card[c] for c in sorted(v.cards_of(k))] for k in ("specialist", "item", "vehicle")},
        **{role: _words(role) for role in ROLE_KINDS},
        "keyword": [Name(k, "keyword", K.Keyword) for k in KEYWORDS],
        **_windows(),
    }
    by["filter"] = by["colour"] + by["face"] + [Name(w, "die filter", K.EnumMember)
                                                for w in ("locked", "unlocked", "real", "any-roll")]
    by["counter"] = by["counter"] + by["face"]
    if map_id is not None and map_id in content.maps:
        bm = content.maps[map_id]
        by["sector"] = [Name(s.id, f"Sector: {s.name}", K.Module, what="") for s in bm.sectors]
        by["attribute"] = [Name(a.id, f"attribute: {a.name}", K.Module, what="") for a in bm.attributes]
        by["table"] = [Name(t.id, f"table: {t.name}", K.Module, what="") for t in bm.tables]
    return Names(by)


def expected(before: str) -> tuple[str, ...]:
    """The kinds of name the effect takes at the end of ``before`` (the line up to the cursor, the word being typed
    left out): what the last word's form takes next, or what the clause takes there."""
    clause = re.split(r"[:,;]", before)[-1]
    toks = _WORD.findall(clause)
    if not toks:
        return ("query", "flag", "modifier", "keyword") if ":" not in before else ("action", "query", "flag")
    last = toks[-1]
    if last in {"on", "until"}:  # a trigger's event; the event that ends an 'until' duration
        return ("event",)
    if last == "as":  # 'reface 1 die skull as FACE'
        return ("face",)
    if last in WINDOWS:  # only the moments the engine offers uses at with it ('before mgf', not 'before advance')
        return (f"window-{last}",)
    if last in {"if", "unless", "and", "or", "not"}:
        return ("predicate", "flag", "query")
    if last == "per":
        return ("counter",)
    if last in {"to", "for"}:
        return ("target",)
    for i in range(len(toks) - 1, -1, -1):
        kinds = _form_kinds(toks[i], toks[i + 1:])
        if kinds:
            return kinds
    return ()


def _form_kinds(word: str, args: Sequence[str]) -> tuple[str, ...]:
    """What the word's forms take after ``args`` (empty when the word is no word of a form, or its forms are
    complete)."""
    out: list[str] = []
    for role in FORM_ROLES:
        spec = words.lookup(role, word)
        if spec is None:
            continue
        for sig in words.signatures(spec):
            if len(args) < len(sig.params):
                param = sig.params[len(args)]
                out += list(param.kinds) + [f"'{lit}" for lit in param.literals]
    return tuple(dict.fromkeys(out))


def items(content: Content, map_id: str | None, lines: Sequence[str], line: int, char: int,
          edit: types.Range) -> list[types.CompletionItem]:
    """The completion items at the cursor; ``edit`` is the range of the word being typed (replaced by an item)."""
    all_names = names(content, map_id)
    if in_effect(lines, line, char):
        start, _ = prefix_at(lines, line, char)
        kinds = expected(lines[line][:start])
        literal = [Name(k[1:], "word", K.Keyword) for k in kinds if k.startswith("'")]
        offered = literal + all_names.of(*(k for k in kinds if not k.startswith("'")))
        if not offered:
            offered = all_names.of("action", "modifier", "query", "flag", "predicate", "event", "keyword", "card",
                                   "resource", "face", "sector")
    else:
        offered = _values(content, all_names, key_of(lines, line, char))
    return [item(n, i, edit) for i, n in enumerate(offered)]


_PLAYER = re.compile(r"(?:^\s*-\s*|\{\s*)id:\s*([a-z0-9][a-z0-9-]*)")  # '- id: u1', '{id: u1, ...}'
_CHECK_KEY = re.compile(r"^(\s*-\s+)([^:#]*)$")


def expectations(content: Content, lines: Sequence[str], line: int, char: int) -> tuple[int, list[Name]] | None:
    """In a scenario, the key of a check being typed under ``expect:`` (``- u1.so``): the column where it starts,
    and what may be checked: each player's fields (``u1.soldiers``), ``query NAME for UNIT`` for each query, and
    the game's own checks (``outcome``). None elsewhere."""
    typed = _CHECK_KEY.match(lines[line][:char])
    if typed is None:
        return None
    top = next((text for text in reversed(lines[:line]) if text[:1].isalpha()), "")
    if top.split(":", 1)[0] != "expect":
        return None
    players: list[str] = []
    block = ""
    for text in lines:  # the ids of the scenario's Units and sides, as written (the file may not parse)
        if text[:1].isalpha():
            block = text.split(":", 1)[0]
        if block in {"units", "sides"}:
            players += [p for p in _PLAYER.findall(text) if p not in players]
    fields = sorted({f.name.replace("_", "-") for f in attrs.fields(Unit)} | {c.replace("_", "-") for c in UNIT_CHECKS})
    out = [Name(f"{p}.{f}", f"the {f} of {p} after the steps", K.Field, what="") for p in players for f in fields]
    out += [Name(f"query {q} for {p}", f"query: {info.text}", K.Function, what="")
            for q, info in sorted(content.vocab.queries.items()) for p in players[:1] or ["u1"]]
    out += [Name(g, "the game after the steps", K.Property, what="") for g in sorted(GAME_CHECKS)]
    return len(typed.group(1)), out


def _values(content: Content, all_names: Names, key: str | None) -> list[Name]:
    """The ids the value of a YAML key may be."""
    if key in OPTION_KEYS:
        return all_names.of("word")
    if key == "map":
        return [Name(m, f"map: {bm.name}", K.Folder, what="id") for m, bm in sorted(content.maps.items())]
    if key in SECTOR_KEYS:
        return list(_sectors(content))
    if key == "kind":
        return all_names.of("kind")
    if key in {"specialists", "items", "vehicles"}:  # a map's (or a variant's, a Unit's) lists
        return all_names.of(key.removesuffix("s"))
    return all_names.of("card")


def _sectors(content: Content) -> Iterable[Name]:
    """Every map's Sector ids, each with the maps that have it."""
    where: dict[str, list[str]] = {}
    for mid, bm in sorted(content.maps.items()):
        for sec in bm.sectors:
            where.setdefault(sec.id, []).append(mid)
    for sid, maps in where.items():
        yield Name(sid, "Sector of " + ", ".join(maps), K.Module, what="")


def item(name: Name, rank: int, edit: types.Range) -> types.CompletionItem:
    """A completion item that replaces ``edit`` with the name."""
    return types.CompletionItem(
        label=name.label, kind=name.kind, detail=name.detail,
        documentation=types.MarkupContent(types.MarkupKind.Markdown, name.doc) if name.doc else None,
        sort_text=f"{rank:04d}", filter_text=name.label,
        text_edit=types.TextEdit(edit, name.label), data={"what": name.what, "name": name.label} if name.what else None)


def resolve(item: types.CompletionItem, contents: Sequence[Content]) -> types.CompletionItem:
    """An item with its whole description (asked for when the client shows it): a word's reference entry, a card
    as ``dday card`` shows it, an optional rule or a map."""
    data = item.data if isinstance(item.data, dict) else {}
    what, name = data.get("what"), data.get("name")
    if not isinstance(name, str) or not contents:
        return item
    text = describe_id(contents, name) if what == "id" else entry(name, contents[0]) if what == "word" else None
    if text:
        item.documentation = types.MarkupContent(types.MarkupKind.Markdown, text)
    return item
