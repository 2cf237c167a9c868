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

``dsl/`` never imports the interpreter: the resolution (:mod:`ddaydice.dsl.conflict_pairs`, with
:mod:`ddaydice.dsl.resolution`) mirrors ``interpreter/core/precedence.py`` (lowest tier first, ``add``
accumulates, ``set``/``forbid``/``allow`` replace, ``protect`` overrules the named tiers' reductions, or,
``against raising``, every raise; clamps last), and the tests check that both agree on every bundled pair. An
action that asks a permission before it acts (its word's signature says 'asks': a re-roll, a find) meets every
forbid of it where the Unit can stand, the forbid winning but for the kinds of card the engine does not ask.

The finder is assembled from parts: the records (:mod:`ddaydice.dsl.conflict_records`), how a pair's sides are
named (:mod:`ddaydice.dsl.conflict_terms`), how each kind of pair is resolved and told
(:mod:`ddaydice.dsl.conflict_pairs`), and here, the placing and pairing of the touches on every map.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import attrs

from ddaydice.dsl.compile import EffectSource
from ddaydice.dsl.conflict_pairs import Pairs
from ddaydice.dsl.conflict_records import KIND_ORDER, KIND_TITLES, Conflict, Member, Outcome, Report, Side
from ddaydice.dsl.conflict_terms import sector_order
from ddaydice.dsl.conflict_words import compact_names, subject
from ddaydice.dsl.loader import Content
from ddaydice.dsl.resolution import RAISING
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

REPLACES = frozenset({"replace", "replace-use"})  # the ops of what replaces a pending event (touches.on_pending)


class _Analyser(Pairs):
    """Placing and pairing: the touches of every effect that can be in play on a map, placed on the Sectors they
    reach, paired when they can meet, and the pairs of every map gathered into one report."""

    def __init__(self, content: Content) -> None:
        super().__init__(content)
        self.ex = Extractor(content)
        self.options = frozenset(content.options)
        self._touches: dict[str, list[Touch]] = {}

    def touches_of(self, src: EffectSource) -> list[Touch]:
        got = self._touches.get(src.owner)
        if got is None:
            got = self.ex.touches(src)
            self._touches[src.owner] = got
        return got

    def clause_mates(self, t: Touch) -> list[Touch]:
        via = t.via.owner if t.via else ""
        return [o for o in self.touches_of(t.source) if o.clause == t.clause and o.query == t.query
                and (o.via.owner if o.via else "") == via and o.key != t.key]

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
            names = tuple(mv.sector_name(s) for s in sorted(where, key=lambda s: sector_order(mv, s)))
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


def analyse(content: Content, maps: Iterable[str] | None = None) -> Report:
    """Every pair of effects that can meet in a game and disagree, grouped by map."""
    return _Analyser(content).run(maps if maps is not None else content.maps)
