"""Conflicts: pairs of effects that touch the same value or permission and can disagree, and the replacements of an
event about to happen against the other effects of that event (which acts first, and what the other then does).

A static analysis of loaded content; it needs no game state. Data flow (set-ups in :mod:`ddaydice.dsl.setups`,
touches and placement in :mod:`ddaydice.dsl.touches`)::

    Content --setups()--> Setup (a map as listed, or one of its variants: the cards that can come into
                          play there, and why)
            --touches()--> Touch (one effect's part in a query: a standing modifier, or one that an
                           action grants, found in the effect's tree)
            --placement--> the Sectors where a Touch can act, and the conditions it needs
            --analyse()--> Conflict (two touches that can meet in a game, what they disagree on, how the
                           engine resolves it, and the precedence rule it uses)

Only pairs that can meet are reported: both effects must be in play in some set-up of the same map,
reach the same Sector (a Sector's attributes act only there; a Vehicle never enters a Bunker), and have
conditions that can hold together (``if bunker`` never meets ``if not bunker``; ``unless in-play
general`` never meets the General).

``dsl/`` never imports the interpreter: the resolution below (with :mod:`ddaydice.dsl.resolution`) mirrors
``interpreter/core/precedence.py`` (lowest tier first, ``add`` accumulates, ``set``/``forbid``/``allow``
replace, ``protect`` overrules the named tiers' reductions, or, ``against raising``, every raise; clamps last),
and the tests check that both agree on every bundled pair.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

import attrs

from ddaydice.dsl import words
from ddaydice.dsl.compile import EffectSource
from ddaydice.dsl.conflict_words import (
    after_first,
    compact_names,
    does,
    number_text,
    range_text,
    reacts,
    subject,
)
from ddaydice.dsl.loader import Content
from ddaydice.dsl.render import Renderer
from ddaydice.dsl.resolution import RAISING, as_set, assigns, combine, guards, lowers
from ddaydice.dsl.setups import KIND_LABELS, Setup, active_sources, cards_in_no_game, setups
from ddaydice.dsl.touches import (
    LINKS,
    RULE_ADD,
    RULE_CLAMP,
    RULE_EXPLICIT,
    RULE_NONE,
    RULE_TIERS,
    RULE_WITHIN,
    Extractor,
    Link,
    MapView,
    Placed,
    Touch,
    compatible,
    event_query,
    reach,
    touches,
)

# What the analysis was split from, still read from here (dday validate, dday conflicts, the tests).
__all__ = ["KIND_LABELS", "KIND_ORDER", "KIND_TITLES", "RULE_ADD", "RULE_CLAMP", "RULE_EXPLICIT", "RULE_NONE",
           "RULE_TIERS", "RULE_WITHIN", "Conflict", "Member", "Outcome", "Report", "Setup", "Side", "analyse",
           "cards_in_no_game", "compact_names", "reach", "setups", "touches"]

REPLACING = frozenset({"set", "forbid", "allow"})
REPLACES = frozenset({"replace", "replace-use"})  # the ops of what replaces a pending event (touches.on_pending)

Kind = Literal["same-tier", "permission", "value", "override", "idle-override", "replacement"]
KIND_ORDER: dict[str, int] = {"same-tier": 0, "permission": 1, "value": 2, "override": 3, "idle-override": 4,
                              "replacement": 5}
KIND_TITLES: dict[str, str] = {
    "same-tier": "(a) same tier, no stated order",
    "permission": "(b) permission against permission",
    "value": "(c) a set against another change",
    "override": "(d) explicit override",
    "idle-override": "(d) override with nothing to overrule",
    "replacement": "(e) a replacement against another effect of its event",
}
#: How the engine runs the effects of a pending event (interpreter/effects/events.py ``would``).
RULE_REPLACE = ("an event about to happen: its triggers run lowest tier first (within a tier, when they came into "
                "play), then the uses offered at it; the first that replaces it stops it, and what comes after "
                "hears nothing")


# ================================================================== conflicts
@attrs.frozen
class Member:
    """One effect on one side of a pair (several when identical Sector clauses are merged)."""

    owner: str
    name: str
    file: str
    line: int


@attrs.frozen
class Side:
    members: tuple[Member, ...]
    kind: str  # the source's kind (specialist, sector, rwb, ...)
    tier: str  # the tier the engine gives the change
    source_tier: str  # the source's own tier (differs for a card that grants an RWB)
    op: str
    value: str  # the statement as written ('def -2')
    english: str  # the clause in English
    via: str | None = None  # the RWB the change comes from, for a card that grants one
    where: str | None = None  # for a Random Attribute: where it can be rolled
    amount: tuple[int, int] | None = None  # a number's change or value (least, greatest), when known

    @property
    def name(self) -> str:
        return compact_names([m.name for m in self.members])

    @property
    def location(self) -> str:
        files = sorted({m.file for m in self.members})
        if len(files) == 1:
            return files[0] + ":" + ", ".join(str(m.line) for m in self.members)
        return ", ".join(f"{m.file}:{m.line}" for m in self.members)

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "sources": [attrs.asdict(m) for m in self.members],
            "name": self.name,
            "kind": self.kind,
            "tier": self.tier,
            "op": self.op,
            "dsl": self.value,
            "english": self.english,
        }
        if self.source_tier != self.tier:
            out["source_tier"] = self.source_tier
        if self.via:
            out["via"] = self.via
        if self.where:
            out["where"] = self.where
        if self.amount is not None:
            out["amount"] = list(self.amount)
        return out


@attrs.frozen
class Outcome:
    """One order the engine can apply the pair in, and what comes out (numbers: least and greatest)."""

    first: str  # 'a' or 'b': which applies first
    low: int | None = None
    high: int | None = None
    flag: bool | None = None
    base: int | None = None  # the base value the outcome was computed from, when one was needed


@attrs.frozen
class Conflict:
    kind: Kind
    map_id: str | None  # None: cards and rules only; they meet on every map in ``maps``
    maps: tuple[str, ...]
    query: str
    query_text: str
    a: Side
    b: Side | None
    disagree: str
    resolution: str
    rules: tuple[str, ...]
    winner: str | None  # 'a', 'b', 'later' (same tier: the one that came into play later), or None
    value: str | None  # the resulting value, when it can be said
    outcomes: tuple[Outcome, ...] = ()
    sectors: tuple[str, ...] = ()  # where they meet (names), on a map
    where: str = ""  # where they meet, in words
    not_in: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (map, set-ups where the pair cannot meet)
    only_in: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (map, the only set-ups where it can, if not as listed)

    def as_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "map": self.map_id,
            "maps": list(self.maps),
            "query": self.query,
            "query_text": self.query_text,
            "a": self.a.as_json(),
            "b": self.b.as_json() if self.b is not None else None,
            "disagree": self.disagree,
            "resolution": self.resolution,
            "rules": list(self.rules),
            "winner": self.winner,
            "value": self.value,
            "sectors": list(self.sectors),
            "where": self.where,
            "not_in": {m: list(v) for m, v in self.not_in},
            "only_in": {m: list(v) for m, v in self.only_in},
        }

    def sort_key(self) -> tuple[object, ...]:
        b = self.b
        return (KIND_ORDER[self.kind], self.query, self.a.members[0].file, self.a.members[0].line,
                b.members[0].file if b else "", b.members[0].line if b else 0, self.a.value, b.value if b else "")


@attrs.frozen
class Report:
    conflicts: tuple[Conflict, ...]
    maps: tuple[str, ...]  # every map analysed, in order

    def counts(self) -> dict[str, int]:
        out = dict.fromkeys(KIND_ORDER, 0)
        for c in self.conflicts:
            out[c.kind] += 1
        return out


class _Analyser:
    def __init__(self, content: Content) -> None:
        self.content = content
        self.ex = Extractor(content)
        self.tiers = {t.id: i for i, t in enumerate(content.precedence.tiers)}
        self.tier_names = {t.id: t.name for t in content.precedence.tiers}
        self.options = frozenset(content.options)
        self.queries = content.vocab.queries
        self.renderer = Renderer()
        self._touches: dict[str, list[Touch]] = {}

    # ------------------------------------------------------------ pieces
    def touches_of(self, src: EffectSource) -> list[Touch]:
        got = self._touches.get(src.owner)
        if got is None:
            got = self.ex.touches(src)
            self._touches[src.owner] = got
        return got

    def tier_index(self, tier: str) -> int:
        return self.tiers.get(tier, 0)

    def tier_name(self, tier: str) -> str:
        return self.tier_names.get(tier, tier)

    def query_text(self, q: str) -> str:
        info = self.queries.get(q)
        return info.text if info is not None else q

    def qname(self, q: str) -> str:
        """A query's name, as the English of effects says it: 'DEF', 'the number of Locked dice'."""
        info = self.queries.get(q)
        if info is not None and info.name:
            return info.name
        name = self.renderer.query(q)
        return f"the permission '{name}'" if info is not None and info.kind == "flag" else name

    def qphrase(self, q: str) -> str:
        """What the pair disagrees on: the query's name, or its title and what it is."""
        info = self.queries.get(q)
        if info is not None and info.name:
            return subject(info.name)
        text = self.query_text(q)
        name = subject(self.qname(q))
        return f"{name}, {text}" if "(" in text else f"{name} ({text})"

    def side(self, p: Placed, mv: MapView | None) -> Side:
        t = p.touch
        src = t.source
        clause = src.tree.clauses[t.clause]
        english = src.english[t.clause] if t.clause < len(src.english) else ""
        via = None
        if t.via is not None:
            vpos = t.via.tree.clauses[t.via_clause].pos
            vtext = t.via.english[t.via_clause] if t.via_clause < len(t.via.english) else ""
            via = f"the {t.via.name} RWB it grants ({vpos.file}:{vpos.line}): {vtext}"
        where = None
        if mv is not None and "/attribute:" in src.owner:
            spots = sorted(p.sectors, key=lambda s: _sector_order(mv, s))
            where = "a Random Attribute; it can be rolled in " + (
                compact_names([mv.sector_name(s) for s in spots]) if spots else "no Sector")
        name = f"the {src.name} RWB" if src.kind == "rwb" else src.name
        member = Member(src.owner, name, clause.pos.file, clause.pos.line)
        shown = f"{t.shown} -> {t.statement}" if t.shown else t.statement
        return Side((member,), src.kind, t.tier, src.tier, t.op, shown, english, via, where, t.value)

    # ------------------------------------------------------------ per map
    def placed(self, mv: MapView, sets: Sequence[Setup]) -> list[Placed]:
        by_touch: dict[tuple[str, int, str, str, str], tuple[Touch, set[str]]] = {}
        for st in sets:
            for src in active_sources(self.content, st):
                for t in self.touches_of(src):
                    if t.op == "require" and "requirements" in st.ignore:
                        continue
                    if t.via is not None and "rwb" in st.ignore:
                        continue
                    got = by_touch.setdefault(t.key, (t, set()))
                    got[1].add(st.key)
        out = []
        for t, where in by_touch.values():
            sectors = mv.narrow(mv.where(t), t.literals)
            if not sectors or not compatible(t.literals, frozenset(), self.options):
                continue
            fixed = t.standing and (t.source.kind in {"rule", "option", "sector"} or t.waiting)
            out.append(Placed(t, sectors, frozenset(where), fixed))
        return out

    def exclusive(self, one: str, other: str) -> bool:
        """Whether two cards are never in play together: cards of a deck the game draws from, one a turn, each in
        play until the next draw (Battle Conditions), unless one of them persists and the other does not (a
        Weather card with persistent weather stays beside the turn's regular card; another Weather card
        replaces it)."""
        c = self.content
        kind = c.kind_def(c.card_kinds.get(one, ""))
        if kind is None or one == other or c.card_kinds.get(other) != kind.id:
            return False
        if kind.held_by != "game" or kind.draw_each_turn != 1:
            return False
        tags = {p.tag for p in kind.persist}
        return (tags & set(c.cards[one].tags)) == (tags & set(c.cards[other].tags))

    def meet(self, mv: MapView, a: Placed, b: Placed, mode: str = "same") -> frozenset[str]:
        """The Sectors where two touches can act together (empty: they never meet)."""
        if a.touch.source.owner == b.touch.source.owner and a.touch.clause == b.touch.clause:
            return frozenset()
        if not (a.setups & b.setups):
            return frozenset()
        if not compatible(a.touch.literals, b.touch.literals, self.options):
            return frozenset()
        if self.exclusive(a.touch.source.owner, b.touch.source.owner):
            return frozenset()
        if mode == "same":
            return mv.narrow(mv.narrow(a.sectors & b.sectors, a.touch.literals), b.touch.literals)
        # 'approach': b acts where a Unit stands when it moves into a's Sector (or, too, in a's Sector).
        spots: set[str] = set()
        for s in a.sectors:
            near = mv.into.get(s, set()) | ({s} if mode == "approach-or-same" else set())
            spots |= near & b.sectors
        return frozenset(spots)

    def analyse_map(self, map_id: str) -> list[Conflict]:
        """Every pair on one map."""
        bm = self.content.maps[map_id]
        mv = MapView(self.content, bm)
        sets = setups(self.content, map_id)
        all_setups = frozenset(s.key for s in sets)
        items = self.placed(mv, sets)
        by_query: dict[str, list[Placed]] = {}
        for p in items:
            by_query.setdefault(p.touch.query, []).append(p)
        out: list[Conflict] = []

        def finish(c: Conflict, a: Placed, b: Placed | None, where: frozenset[str]) -> None:
            common = a.setups & (b.setups if b is not None else all_setups)
            if "" in common:  # the map as listed: say where they do not meet
                missing = tuple(s.label for s in sets if s.key not in common)
                only: tuple[str, ...] = ()
            else:
                missing, only = (), tuple(s.label for s in sets if s.key in common)
            names = tuple(mv.sector_name(s) for s in sorted(where, key=lambda s: _sector_order(mv, s)))
            out.append(attrs.evolve(c, map_id=map_id, maps=(map_id,), sectors=names,
                                    resolution=subject(c.resolution), disagree=subject(c.disagree.rstrip(".") + "."),
                                    where=c.where or f"in {compact_names(names)}",
                                    not_in=((map_id, missing),) if missing else (),
                                    only_in=((map_id, only),) if only else ()))

        for _q, group in sorted(by_query.items()):
            ordered = sorted(group, key=lambda p: p.touch.key)
            if _q.startswith(event_query("")):  # the effects of a pending event: the replacements' pairs
                for i, first in enumerate(ordered):
                    for second in ordered[i + 1:]:
                        if not {first.touch.op, second.touch.op} & REPLACES:
                            continue
                        a, b = self.orient(mv, first, second)
                        where = self.meet(mv, a, b)
                        if where:
                            finish(self.replacement(mv, a, b, where), a, b, where)
                continue
            for i, first in enumerate(ordered):
                for second in ordered[i + 1:]:
                    a, b = self.orient(mv, first, second)
                    where = self.meet(mv, a, b)
                    if where:
                        found = self.same_query(mv, a, b, where)
                        if found is not None:
                            finish(found, a, b, where)
            # explicit overrides: every effect they overrule, and the tiers they name in vain
            for prot in ordered:
                if prot.touch.op != "protect":
                    continue
                hit: set[str] = set()
                for other in ordered:
                    if other is prot:
                        continue
                    where = self.meet(mv, prot, other)
                    named = self.guards(prot, other, mv, where) if where else None
                    if named is None:
                        continue
                    hit.add(named)
                    finish(self.override(mv, prot, other, where), prot, other, where)
                # (a protection against raising with nothing to raise is no mistake: nothing to report)
                idle = [t for t in prot.touch.args if t not in hit and t != RAISING]
                if idle:
                    finish(self.idle(mv, prot, idle, bool(hit)), prot, None, prot.sectors)
        for link in LINKS:
            firsts = [p for p in by_query.get(link.first[0], []) if p.touch.op == link.first[1]
                      and self.link_filter(link, p.touch)]
            seconds = [p for p in by_query.get(link.second[0], []) if p.touch.op == link.second[1]]
            for a in sorted(firsts, key=lambda p: p.touch.key):
                for b in sorted(seconds, key=lambda p: p.touch.key):
                    where = self.meet(mv, a, b, link.meet)
                    if where:
                        finish(self.linked(mv, link, a, b, where), a, b, where)
        return out

    def orient(self, mv: MapView, a: Placed, b: Placed) -> tuple[Placed, Placed]:
        """The map's own effect first, else the lower tier (it applies first), else by id."""
        def rank(p: Placed) -> tuple[int, int, tuple[str, int, str, str, str]]:
            mine = p.touch.source.owner.startswith(f"{mv.bm.id}/")
            return (0 if mine else 1, self.tier_index(p.touch.tier), p.touch.key)
        return (a, b) if rank(a) <= rank(b) else (b, a)

    def link_filter(self, link: Link, t: Touch) -> bool:
        if t.op != "require":
            return True
        is_cry = t.args[:1] == ("battle-cry",)
        if link.require_battle_cry is not None and is_cry != link.require_battle_cry:
            return False
        return not (link.require_sacrifice and t.args[:1] != ("sacrifice",))

    # ------------------------------------------------------------ same query
    def same_query(self, mv: MapView, a: Placed, b: Placed, where: frozenset[str]) -> Conflict | None:
        for prot, other in ((a, b), (b, a)):
            if assigns(prot.touch) and prot.touch.op == "protect" and self.guards(prot, other, mv, where):
                return None  # the override's pair ('mgf-dice = 0 against raising' against a raise)
        a, b = as_set(a), as_set(b)  # else a set that guards is a set against what it does not guard
        ta, tb = a.touch, b.touch
        if {ta.op, tb.op} & {"protect", "require", "act"}:
            return None
        if not {ta.op, tb.op} & REPLACING:
            return None  # two additive changes accumulate: no disagreement
        if ta.op == tb.op and ta.op in {"forbid", "allow"}:
            return None  # they agree
        if ta.op == tb.op == "set" and ta.value is not None and ta.value == tb.value:
            return None  # the same value
        flags = ta.op in {"forbid", "allow"} and tb.op in {"forbid", "allow"}
        if ta.tier == tb.tier and ta.op in REPLACING and tb.op in REPLACING:
            kind: Kind = "same-tier"
        elif flags:
            kind = "permission"
        else:
            kind = "value"
        return self.resolve(mv, kind, a, b, where)

    def order(self, a: Placed, b: Placed) -> list[tuple[Placed, Placed]]:
        """The orders the engine can apply two touches in: lowest tier first; within a tier by when they
        came into play (rules and Sectors from the start, and a card's own price, in id order), then by id."""
        ia, ib = self.tier_index(a.touch.tier), self.tier_index(b.touch.tier)
        if ia != ib:
            return [(a, b)] if ia < ib else [(b, a)]
        if a.fixed and b.fixed:
            return [(a, b)] if a.touch.source.owner <= b.touch.source.owner else [(b, a)]
        if a.fixed != b.fixed:
            return [(a, b)] if a.fixed else [(b, a)]
        return [(a, b), (b, a)]

    def base(self, mv: MapView, q: str, where: frozenset[str]) -> tuple[int | None, str]:
        """The game rules' value where the pair meets, when one value can be said, and how to say it."""
        info = self.queries.get(q)
        if q in {"def", "mgf-dice"}:
            values = {(mv.defense[s][0] if q == "def" else mv.mgf[s]) for s in where}
            noun = "printed DEF" if q == "def" else "printed MGF"
            if len(values) == 1:
                v = next(iter(values))
                if len(where) == 1:
                    return v, f"{v}, the {noun} of {mv.sector_name(next(iter(where)))}"
                return v, f"{v}, the {noun}"
            return None, f"the {noun}"
        if info is not None and isinstance(info.default, int) and not isinstance(info.default, bool):
            return info.default, f"{number_text(info.default)}, the rules' value"
        return None, "its value before"

    def resolve(self, mv: MapView, kind: Kind, a: Placed, b: Placed, where: frozenset[str]) -> Conflict:
        ta, tb = a.touch, b.touch
        q = ta.query
        info = self.queries.get(q)
        minimum = info.minimum if info is not None else None
        sa, sb = self.side(a, mv), self.side(b, mv)
        names = {id(a): sa.name, id(b): sb.name}
        qn = self.qname(q)
        disagree = f"{self.qphrase(q)}: {sa.name} {does(ta)}; {sb.name} {does(tb)}"
        orders = self.order(a, b)
        rules = [RULE_WITHIN if ta.tier == tb.tier else RULE_TIERS]
        outcomes: list[Outcome] = []
        texts: list[str] = []
        results: list[str] = []
        if ta.op in {"forbid", "allow"}:
            for first, last in orders:
                allowed = last.touch.op == "allow"
                outcomes.append(Outcome("a" if first is a else "b", flag=allowed))
                result = f"{qn} is {'allowed' if allowed else 'not allowed'}"
                results.append(result)
                texts.append(f"{names[id(first)]} {does(first.touch)}, then {names[id(last)]} "
                             f"{does(last.touch)}: {result}")
        else:
            if "add" in {ta.op, tb.op}:
                rules.append(RULE_ADD)
            base, base_text = self.base(mv, q, where)
            clamped = False
            for first, last in orders:
                low, high, cl = combine(base, [first.touch, last.touch], minimum)
                clamped |= cl
                outcomes.append(Outcome("a" if first is a else "b", low, high, None, base))
                result = f"{qn} = {range_text(low, high)}" if low is not None else \
                    f"{qn} = {base_text}, changed by both"
                if cl:
                    result += f" (never below {minimum})"
                results.append(result)
                texts.append(f"{names[id(first)]} {does(first.touch)}, then {names[id(last)]} "
                             f"{does(last.touch)}: {result}")
            if clamped:
                rules.append(RULE_CLAMP)
        distinct = {(o.low, o.high, o.flag) for o in outcomes}
        value: str | None = None
        if len(distinct) == 1:
            o = outcomes[0]
            if o.flag is not None:
                value = "allowed" if o.flag else "not allowed"
            elif o.low is not None:
                value = range_text(o.low, o.high)
        if len(orders) == 1:
            first, last = orders[0]
            winner = "a" if last is a else "b"
            if ta.tier != tb.tier:
                lead = (f"{names[id(last)]} has the last word ({self.tier_name(last.touch.tier)} rank above "
                        f"{self.tier_name(first.touch.tier)})")
                if last.touch.op == "add":
                    lead = (f"{names[id(last)]}'s change applies after {names[id(first)]}'s "
                            f"({self.tier_name(last.touch.tier)} rank above {self.tier_name(first.touch.tier)})")
            elif first.fixed and last.fixed:
                lead = ("Same tier, both " + ("read before the cards in play" if first.touch.waiting
                                               and last.touch.waiting else "in play from the start")
                        + f": they apply in id order ({first.touch.source.owner} before "
                        f"{last.touch.source.owner}), so {names[id(last)]} has the last word")
            else:
                why = "a card's own price is read before the cards in play" if first.touch.waiting else \
                    "it is in play from the start"
                lead = (f"Same tier: {names[id(first)]} applies first ({why}), so {names[id(last)]} has the last "
                        "word")
            resolution = f"{lead}. {subject(texts[0])}."
        else:
            winner = "later"
            resolution = ("Same tier: whichever came into play later applies last. "
                          f"If {names[id(orders[0][0])]} came first: {texts[0]}. "
                          f"If {names[id(orders[1][0])]} came first: {texts[1]}.")
            if value is not None:
                resolution += f" Either way {results[0]}."
        return Conflict(kind, None, (), q, self.query_text(q), sa, sb, disagree, resolution, tuple(rules),
                        winner, value, tuple(outcomes))

    # ------------------------------------------------------------ replacements
    def replacement(self, mv: MapView, a: Placed, b: Placed, where: frozenset[str]) -> Conflict:
        """Two effects of the same pending event, one at least replacing it: which acts first, and what the other
        then does (nothing, when the first replaced the event)."""
        ta, tb = a.touch, b.touch
        event = ta.query.removeprefix(event_query(""))
        record = words.event(event)
        moment = record.moment if record is not None and record.moment else f"'{event}' is about to happen"
        spared = record.replaced if record is not None and record.replaced else "the event"
        sa, sb = self.side(a, mv), self.side(b, mv)
        names = {id(a): sa.name, id(b): sb.name}
        disagree = f"when {moment}: {sa.name} {reacts(ta, spared)}; {sb.name} {reacts(tb, spared)}"
        orders = self.event_order(a, b)
        texts = [after_first(names[id(first)], first.touch, names[id(last)], last.touch, spared)
                 for first, last in orders]
        rules = [RULE_REPLACE] + ([RULE_WITHIN if ta.tier == tb.tier else RULE_TIERS]
                                  if "replace-use" not in {ta.op, tb.op} else [])
        winner: str | None = None  # which side decides, when the order is known
        if len(orders) == 2 and "replace-use" in {ta.op, tb.op}:  # two uses: the player chooses
            resolution = (f"Both are offered after the triggers, and the player chooses: {texts[0]}; or "
                          f"{texts[1]}.")
        elif len(orders) == 1:
            first, last = orders[0]
            if "replace-use" in {first.touch.op, last.touch.op}:
                why = "a use is offered after every trigger"
            elif first.touch.tier != last.touch.tier:
                why = f"{self.tier_name(first.touch.tier)} rank below {self.tier_name(last.touch.tier)}"
            else:
                why = "it is in play from the start"
            resolution = f"{names[id(first)]} acts first ({why}): {texts[0]}."
            winner = "a" if (first if first.touch.op != "hear" else last) is a else "b"
        else:
            resolution = (f"Same tier: whichever came into play first acts first. If {names[id(orders[0][0])]} "
                          f"came first: {texts[0]}. If {names[id(orders[1][0])]} came first: {texts[1]}.")
        return Conflict("replacement", None, (), ta.query, f"when {moment}", sa, sb, disagree, resolution,
                        tuple(rules), winner, None)

    def event_order(self, a: Placed, b: Placed) -> list[tuple[Placed, Placed]]:
        """The orders the engine can run two effects of a pending event in: every trigger before the uses offered
        at it; triggers as the values' contributions are ordered (:meth:`order`); two uses, either."""
        use_a, use_b = a.touch.op == "replace-use", b.touch.op == "replace-use"
        if use_a != use_b:
            return [(b, a)] if use_a else [(a, b)]
        if use_a:
            return [(a, b), (b, a)]
        return self.order(a, b)

    # ------------------------------------------------------------ overrides
    def lowers(self, t: Touch, mv: MapView, where: frozenset[str]) -> bool:
        return lowers(t, self.base(mv, t.query, where)[0])

    def start(self, mv: MapView, prot: Placed, where: frozenset[str]) -> tuple[int | None, str]:
        """The value a protection keeps, and how to say it: the one it sets ('protect mgf-dice = 0 against
        raising'), else the printed or rules' value."""
        v = prot.touch.value
        if v is not None and v[0] == v[1]:
            return v[0], f"{v[0]}, as {self.side(prot, mv).name} sets it"
        return self.base(mv, prot.touch.query, where)

    def guards(self, prot: Placed, other: Placed, mv: MapView, where: frozenset[str]) -> str | None:
        """What of a protection overrules another change (``RAISING``, a tier), or None."""
        return guards(prot.touch.args, other.touch, self.start(mv, prot, where)[0], self.base(mv, other.touch.query,
                                                                                              where)[0])

    def override(self, mv: MapView, prot: Placed, other: Placed, where: frozenset[str]) -> Conflict:
        sa, sb = self.side(prot, mv), self.side(other, mv)
        q = prot.touch.query
        qn = self.qname(q)
        base, base_text = self.start(mv, prot, where)
        rank = (f"although {self.tier_name(other.touch.tier)} rank above {self.tier_name(prot.touch.tier)}"
                if self.tier_index(other.touch.tier) > self.tier_index(prot.touch.tier) else "whatever its rank")
        resolution = (f"{sa.name} wins, {rank}: {sb.name}'s '{other.touch.statement}' is overruled, and {qn} "
                      f"stays at {base_text}.")
        if RAISING in prot.touch.args and other.touch.tier not in prot.touch.args:
            disagree = f"{self.qphrase(q)}: {sa.name} lets nothing raise it; {sb.name} {does(other.touch)}"
        else:
            tiers = " or ".join(self.tier_name(t) for t in prot.touch.args)
            disagree = f"{self.qphrase(q)}: {sa.name} lets no {tiers} lower it; {sb.name} {does(other.touch)}"
        return Conflict("override", None, (), q, self.query_text(q), sa, sb, disagree, resolution,
                        (RULE_EXPLICIT,), "a", str(base) if base is not None else None,
                        (Outcome("a", base, base, None, base),))

    def idle(self, mv: MapView, prot: Placed, idle: list[str], some: bool) -> Conflict:
        sa = self.side(prot, mv)
        q = prot.touch.query
        qn = self.qname(q)
        names = " or ".join(self.tier_name(t) for t in idle)
        places = compact_names([mv.sector_name(s) for s in sorted(prot.sectors, key=lambda s: _sector_order(mv, s))])
        disagree = (f"{sa.name} names {names} among what cannot lower {qn}, but no effect of that tier that can "
                    f"be in play on {mv.bm.name} lowers {qn} in {places}")
        resolution = ("Nothing to resolve: that part of the override never applies" +
                      ("; the rest of it does (see the pairs above)." if some else
                       ": the override never overrules anything here."))
        return Conflict("idle-override", None, (), q, self.query_text(q), sa, None, disagree, resolution,
                        (RULE_EXPLICIT,), None, None)

    # ------------------------------------------------------------ links
    def linked(self, mv: MapView, link: Link, a: Placed, b: Placed, where: frozenset[str]) -> Conflict:
        sa, sb = self.side(a, mv), self.side(b, mv)
        win = sa if link.winner == "first" else sb
        order = sorted(where, key=lambda s: _sector_order(mv, s))
        places = compact_names([mv.sector_name(s) for s in order])
        targets = compact_names([mv.sector_name(s) for s in sorted(a.sectors, key=lambda s: _sector_order(mv, s))])
        before = [s for s in order if s not in a.sectors]
        inside = [s for s in order if s in a.sectors]
        if link.meet == "same":
            spot = f"in {places}"
        else:
            parts = []
            if before:
                parts.append(f"a Unit moving into {targets} from "
                             + compact_names([mv.sector_name(s) for s in before]))
            if inside:
                parts.append("in " + compact_names([mv.sector_name(s) for s in inside]) + " itself")
            spot = "; ".join(parts)
        how = link.how.format(a=sa.name, b=sb.name)
        resolution = f"{win.name} wins: {how}."
        q = link.first[0] if link.first[0] == link.second[0] else f"{link.first[0]}/{link.second[0]}"
        disagree = link.disagree.format(a=sa.name, b=sb.name)
        return Conflict("permission", None, (), q, self.query_text(link.first[0]), sa, sb, subject(disagree),
                        resolution, (link.rule,), "a" if link.winner == "first" else "b", None, where=spot)

    # ------------------------------------------------------------ all maps
    def run(self, map_ids: Iterable[str]) -> Report:
        collected: dict[tuple[object, ...], list[Conflict]] = {}
        per_map: list[Conflict] = []
        maps = sorted(map_ids)
        for mid in maps:
            mv = MapView(self.content, self.content.maps[mid])
            local: list[Conflict] = []
            for c in self.analyse_map(mid):
                owners = [m.owner for m in c.a.members] + ([m.owner for m in c.b.members] if c.b else [])
                if any(o.startswith(f"{mid}/") for o in owners):
                    local.append(c)
                else:
                    collected.setdefault(_identity(c), []).append(c)
            per_map += _merge(local, mv)
        shared: list[Conflict] = []
        for entries in collected.values():
            first = entries[0]
            met = tuple(sorted(c.map_id or "" for c in entries))
            missing = tuple(sorted(n for c in entries for n in c.not_in))
            only = tuple(sorted(n for c in entries for n in c.only_in))
            shared.append(attrs.evolve(first, map_id=None, maps=met, sectors=(), where="", not_in=missing,
                                       only_in=only))
        ordered = sorted(shared, key=lambda c: c.sort_key()) + sorted(
            per_map, key=lambda c: (c.map_id or "", *c.sort_key()))
        return Report(tuple(ordered), tuple(maps))


def _identity(c: Conflict) -> tuple[object, ...]:
    return (c.kind, c.query, c.a, c.b, c.disagree, c.resolution)


def _merge(conflicts: list[Conflict], mv: MapView) -> list[Conflict]:
    """Merge pairs that differ only by which Sector holds an identical clause: one entry, every line."""
    groups: dict[tuple[object, ...], list[Conflict]] = {}
    prefix = f"{mv.bm.id}/"
    for c in conflicts:
        key: tuple[object, ...] = (id(c),)
        if c.b is not None:
            mine_a = all(m.owner.startswith(prefix) for m in c.a.members)
            mine_b = all(m.owner.startswith(prefix) for m in c.b.members)
            if mine_a != mine_b:
                side, other = (c.a, c.b) if mine_a else (c.b, c.a)
                key = ("a" if mine_a else "b", c.kind, c.query, other, side.value, side.english, side.tier,
                       side.via, c.not_in, c.only_in, c.resolution.replace(side.name, "\0"),
                       c.disagree.replace(side.name, "\0"))
        groups.setdefault(key, []).append(c)
    out: list[Conflict] = []
    for key, items in groups.items():
        if len(items) == 1:
            out.append(items[0])
            continue
        items.sort(key=lambda c: c.sort_key())
        first = items[0]
        assert first.b is not None
        which = "a" if key[0] == "a" else "b"
        old_side = first.a if which == "a" else first.b
        members = tuple(m for c in items for m in (c.a if which == "a" else c.b or c.a).members)
        new_side = attrs.evolve(old_side, members=members)
        sectors = tuple(dict.fromkeys(s for c in items for s in c.sectors))
        where = f"in {compact_names(sectors)}" if all(c.where.startswith("in ") for c in items) else \
            "; ".join(c.where for c in items)
        merged = attrs.evolve(first, disagree=first.disagree.replace(old_side.name, new_side.name),
                              resolution=first.resolution.replace(old_side.name, new_side.name), sectors=sectors,
                              where=where)
        out.append(attrs.evolve(merged, a=new_side) if which == "a" else attrs.evolve(merged, b=new_side))
    return out


def _sector_order(mv: MapView, sid: str) -> tuple[int, str]:
    ids = [s.id for s in mv.bm.sectors]
    return (ids.index(sid) if sid in ids else len(ids), sid)


def analyse(content: Content, maps: Iterable[str] | None = None) -> Report:
    """Every pair of effects that can meet in a game and disagree, grouped by map."""
    return _Analyser(content).run(maps if maps is not None else content.maps)
