"""Where effects come from: the sources in play (rules, Sectors, cards held and drawn) and whom they reach."""

from __future__ import annotations

from typing import Final

from mypy_extensions import mypyc_attr, trait

from ddaydice.dsl.compile import ON_CARD, EffectSource
from ddaydice.interpreter.core.api import GameAPI
from ddaydice.interpreter.core.inplay import (
    EMPTY,
    InPlay,
    Modifier,
    RulesIndex,
    SectorIndex,
    SectorsIndex,
    Trigger,
    Use,
)
from ddaydice.interpreter.core.state import (
    SectorState,
    Unit,
)
from ddaydice.interpreter.core.values import HookKind
from ddaydice.interpreter.effects.ctx import Ctx

EMPTY_MODS: dict[str, list[Modifier]] = {}  # a Sector that modifies no query
EMPTY_SET: frozenset[str] = frozenset()
MEMO_LIMIT: Final = 512  # entries of the plan's memos of the Sectors' part of the index, before they start over


def _sector_key(sid: str, sec: SectorState) -> tuple[str, tuple[str, ...], tuple[int, ...]]:
    """What a Sector's part of the index depends on: its attributes and when each came into play."""
    return sid, tuple(sec.attributes), tuple([sec.acquired.get(a, 0) for a in sec.attributes])


@trait
@mypyc_attr(allow_interpreted_subclasses=True)
class Sources(GameAPI):
    """Where effects come from: the sources in play (rules, Sectors, cards held and drawn) and whom they reach."""

    def sources_changed(self) -> None:
        """A source of effects came into play or left (a card gained or lost, a Vehicle abandoned, a Unit out
        of the game, a Sector's new attribute): the index of the effects in play is rebuilt when next read."""
        self.epoch += 1
        self._index = None

    def in_play(self) -> InPlay:
        """The index of the effects in play in this epoch."""
        index = self._index
        if index is None:
            index = self._read_index()
        return index

    def _read_index(self) -> InPlay:
        """A read of the index that ``_index`` does not hold: the first of an epoch, built and kept in ``_index`` for
        the epoch's other reads; or any read of a game with watchers, which keeps its index in ``_watched_index``
        instead (``_index`` stays None), so that every read comes here and is shown to the watchers' ``index_read``
        (tests/test_index.py) while the reads of a game with none cost nothing more."""
        if not self.watchers:
            index = self._index = self._build_index()
            return index
        kept = self._watched_index
        if kept is None or kept.epoch != self.epoch:  # sources_changed() starts a new epoch
            kept = self._watched_index = self._build_index()
        for w in self.watchers:
            w.index_read(self, kept)
        return kept

    def _sector_sources(self, sector: str) -> list[EffectSource]:
        """A Sector's effects: its printed ones, then its attributes (none where a variant ignores them)."""
        if not sector:  # another side's player stands in no Sector
            return []
        return self.in_play().sector_sources.get(sector, [])

    def _build_index(self) -> InPlay:
        """Gather the sources in play, once per epoch: the one place where the turn finds its effects."""
        ip = InPlay(self.epoch)
        rules = self._rules_index[0] if self._rules_index else self._rules_part()
        ip.head = rules[0]  # (shared: never changed in place)
        for played, card in enumerate(self.state.in_play):  # drawn cards in play for every Unit
            drawn = self.effect_of.get(card)
            if drawn is not None:
                ip.drawn.append((played, drawn))
                _add(None, ip.drawn_triggers, drawn, None, played)
        sector_queries = sector_events = EMPTY_SET
        if "attributes" not in self.ignore:
            ip.sector_sources, ip.sector_modifiers, ip.sector_triggers, ip.sector_uses, sector_queries, \
                sector_events = self._sectors_part()
        for owner in self.players():
            if owner.status != "active":
                continue
            held = ip.held[owner.id] = []
            for card in self.held_cards(owner):
                effect = self.effect_of.get(card)
                if effect is None:
                    continue
                entry = (owner, card, effect, owner.came_into_play.get(card, 0))
                held.append(entry)
                _add(None, ip.held_triggers, effect, owner, entry[3])
                if card == owner.vehicle or card in owner.specialists:
                    # Standing modifiers are the Specialists' and Vehicles' (Items and Awards are used).
                    _add(ip.tail, None, effect, owner, entry[3])
                    for h in effect.compiled.uses:
                        if h.scope in _SHARED:
                            ip.shared.append(entry)
                            break
        for played, src in ip.drawn:
            _add(ip.tail, None, src, None, played)
        if ip.drawn_triggers:  # the rules' triggers, then the drawn cards' (a copy: the rules' are shared)
            ip.head_triggers = {event: list(trig) for event, trig in rules[1].items()}
            for event, trig in ip.drawn_triggers.items():
                ip.head_triggers.setdefault(event, []).extend(trig)
        else:
            ip.head_triggers = rules[1]
        ip.unit_queries = rules[2].union(ip.tail) if ip.tail else rules[2]
        ip.queries = ip.unit_queries.union(sector_queries) if sector_queries else ip.unit_queries
        ip.events = frozenset(ip.head_triggers).union(ip.held_triggers, sector_events, rules[3])
        return ip

    def _rules_part(self) -> RulesIndex:
        """The rules' and other sides' part of the index, worked out once for the plan (see RulesIndex)."""
        head: dict[str, list[Modifier]] = {}
        head_triggers: dict[str, list[Trigger]] = {}
        for src in self.global_sources:
            _add(head, head_triggers, src, None, 0)
        queries = set(head)
        for side_mods in self._side_mods.values():
            queries |= set(side_mods)
        events = {h.at for side in self.side_defs for src in self.side_sources[side] for h in src.compiled.triggers}
        part = (head, head_triggers, frozenset(queries), frozenset(events))
        self._rules_index.append(part)
        return part

    def _sectors_part(self) -> SectorsIndex:
        """Every Sector's part of the index, shared by the epochs and games of the plan while the Sectors have the
        same attributes (gained when): worked out afresh only when one gains an attribute. Both memos are bounded:
        when Sectors gain attributes in play, games differ in when, and a long run would fill them."""
        sectors = self.state.sectors
        sig = tuple([_sector_key(sid, sec) if sec.attributes else sid for sid, sec in sectors.items()])
        found = self._sectors_index.get(sig)
        if found is not None:
            return found
        srcs: dict[str, list[EffectSource]] = {}
        mods: dict[str, dict[str, list[Modifier]]] = {}
        trigs: dict[str, dict[str, list[Trigger]]] = {}
        uses: dict[str, dict[str, list[Use]]] = {}
        if len(self._sector_index) > MEMO_LIMIT:
            self._sector_index.clear()
        for sid, sec in sectors.items():
            key = _sector_key(sid, sec)
            one = self._sector_index.get(key)
            if one is None:
                one = self._sector_index[key] = self._index_sector(sid, sec.acquired)
            srcs[sid], mods[sid], trigs[sid], uses[sid] = one
        if len(self._sectors_index) > MEMO_LIMIT:
            self._sectors_index.clear()
        found = self._sectors_index[sig] = (srcs, mods, trigs, uses, frozenset(q for m in mods.values() for q in m),
                                            frozenset(e for t in trigs.values() for e in t))
        return found

    def held_cards(self, u: Unit) -> list[str]:
        out = list(u.specialists)
        if u.vehicle:
            out.append(u.vehicle)
        out += u.items
        out += u.awards
        out += u.cards
        return out

    def _tier(self, src: EffectSource) -> int:
        return self.tier_index.get(src.tier, 0)

    def _scoped(self, owner: Unit | None, scope: str | None, unit: Unit | None, sector: str | None,
                sector_subject: bool) -> bool:
        """Does a hook of a card held by ``owner`` reach ``unit`` (or ``sector``)?"""
        if scope == "the-german":
            # What is written for the German reaches another side's player only (the German is not a Unit).
            return unit is not None and bool(unit.side)
        if scope == "all-players":
            return True
        if unit is not None and unit.side:
            # Another side's player: only his own cards and his side's rules reach him, and what is written
            # for every player; what is written for Units never does ("the German is not a Unit").
            return owner is not None and owner is unit and scope is None
        if owner is None:
            return True
        if scope == "all-units":
            return True
        if scope == "units-here":
            where = sector if sector is not None else (unit.sector if unit else None)
            return owner.sector == where
        if sector_subject:
            # ruling: DEF and MGF belong to the Sector; a Unit's own card that changes them changes them for
            # every Unit present (rulebook: "DEF value changes affect all Units present").
            return owner.sector == sector
        return unit is not None and owner.id == unit.id

    def _index_sector(self, sid: str, acquired: dict[str, int]) -> SectorIndex:
        """A Sector's effects (printed, then its attributes), its modifiers by query and triggers by event;
        the same for every game of the plan while the Sector has the same attributes."""
        c = self.content
        prefix = f"{self.map.id}/"
        srcs = [src for src in (c.effects.get(prefix + sid),) if src is not None]
        srcs += [a for a in (c.effects.get(f"{prefix}attribute:{attr}") for attr in self.state.sectors[sid].attributes)
                 if a is not None]
        mods: dict[str, list[Modifier]] = {}
        trigs: dict[str, list[Trigger]] = {}
        for src in srcs:
            # An attribute a Sector gains during the game came into play then (rulebook order: when the
            # effect came into play, then its id); the printed attributes were there from the start.
            played = acquired.get(src.owner.rsplit("attribute:", 1)[-1], 0) if acquired else 0
            _add(mods, None, src, None, played)
            _add(None, trigs, src, None, 0)
        return srcs, mods, trigs, {}

    def touched(self, name: str, sector: str | None) -> bool:
        """Can anything in play modify query ``name`` in ``sector`` in this epoch: the rules, a card, another
        side's rules, or that Sector's own effects (exactly where ``_candidates`` looks)? A Sector's modifier of
        a query slows that query in that Sector only."""
        ip = self.in_play()
        if name not in ip.queries:
            return False
        if name in ip.unit_queries:
            return True
        return sector is not None and name in ip.sector_modifiers.get(sector, EMPTY_MODS)

    def _candidates(self, name: str, sector: str | None, unit: Unit | None = None) -> list[Modifier]:
        """Every standing modifier of query ``name`` that could reach ``sector`` (scope checked later)."""
        ip = self.in_play()
        tail = ip.tail.get(name, EMPTY)
        if unit is not None and unit.side:
            # Another side's player: his side's rules (held by him, so that they reach him alone), his cards,
            # and cards in play written for him; no Sector's attributes ("you ignore the attributes and
            # conditions of all Sectors"), no rule of the Units.
            return [(src, unit, 0, i, hook) for src, i, hook in self._side_mods.get(unit.side, {}).get(name, ())] \
                + list(tail)
        here = ip.sector_modifiers[sector].get(name, EMPTY) if sector is not None and ip.sector_modifiers else EMPTY
        return [*ip.head.get(name, EMPTY), *here, *tail]

    def _limit_key(self, owner: str, hook: HookKind, index: int, limit: str) -> str:
        """The counter of a limited hook ("once per turn") of an effect: which effect, which of its modifiers,
        triggers or uses, and for which turn or phase ('@g': the whole game); a limit counted on the card ('once
        per turn per card') has its own key, 'card:' first (see :meth:`_limit_count`)."""
        s = self.state
        on_card = limit.startswith(ON_CARD)
        period = limit[len(ON_CARD):] if on_card else limit
        when = {"turn": f"t{s.turn}", "phase": f"t{s.turn}{s.phase}", "game": "g"}[period]
        return f"{ON_CARD if on_card else ''}{owner}#{hook[0]}{index}@{when}"

    def _limit_count(self, served: Unit | None, holder: Unit | None, owner: str, hook: HookKind, index: int,
                     limit: str, sector: str | None = None) -> tuple[Unit | None, str]:
        """Where the count of a limited hook is kept: the Unit whose counters hold it, and its key. A limit is
        counted on the Unit the hook serves (``served``: a Vehicle's 'for units here ... once per phase' serves
        each Unit present once); one counted on the card ('once per turn per card') on the Unit that holds the card
        (``holder``), and its count goes with the card when it changes hands (:meth:`hand_over`), so that the card
        serves once, whoever holds it. A Sector's limit is the Sector's (``sector``: where the hook stands; ruling
        14.6): its key names the Sector, so that an attribute that stands in two Sectors has a count in each, and
        :meth:`_limit_left` adds up the Units' counts under it."""
        if sector and self._sector_effect(owner):
            owner = f"{owner}@{sector}"
        key = self._limit_key(owner, hook, index, limit)
        if holder is not None and limit.startswith(ON_CARD):
            return holder, key
        return served, key

    def _limit_left(self, counter: Unit, key: str, holder: Unit | None, owner: str, limit: str) -> int:
        """How many more times a limited hook may serve in its period (its count kept at ``counter``, ``key``). A
        limit counted on the Unit served: once. One counted on the card: once for each copy of the card its holder
        holds (a Regular Specialist traded to a Unit that has its own), the count being the copies that have
        served: each copy has its own 'once per turn', whichever the Unit uses first (ruling 4.3). A Sector's
        limit, for every period: once in the period in that Sector, the counts of every Unit (rulings 14.4, 14.6)."""
        if self._sector_effect(owner):
            # rulings 14.4, 14.6: a Sector's 'once per game' ('per turn', 'per phase') is the Sector's: once in
            # the period, whichever Unit uses it (each Unit that did keeps its count under the same key)
            s = self.state
            return 1 - sum(u.counters.get(key, 0) for u in (*s.units, *s.sides) if u.counters)
        used = counter.counters.get(key, 0) if counter.counters else 0
        if holder is not None and limit.startswith(ON_CARD):
            return self.held_cards(holder).count(owner) - used
        return 1 - used

    def _sector_effect(self, owner: str) -> bool:
        """Whether an effect is a Sector's (printed on it, or an attribute of the map)."""
        src = self.effect_of.get(owner)
        return src is not None and src.kind == "sector"

    def _limit_used(self, unit: Unit, holder: Unit, owner: str, index: int, limit: str) -> bool:
        """Whether a use's limit is used up for the Unit (counted where :meth:`_limit_count` says; a Sector's use
        is the Sector's where the Unit stands)."""
        counter, key = self._limit_count(unit, holder, owner, "use", index, limit, unit.sector)
        return counter is not None and self._limit_left(counter, key, holder, owner, limit) <= 0

    def hand_over(self, giver: Unit, taker: Unit, card: str) -> None:
        """A card changes hands (a trade): the counts of its limits counted on the card go with it. Of copies the
        giver holds, the one given is one that has served if any has (the copy a limited trade just used:
        ruling 4.3), so one count of each of its limits goes with it, and the copies the giver keeps keep theirs."""
        if not giver.counters:
            return
        prefix = f"{ON_CARD}{card}#"
        for key in [k for k in giver.counters if k.startswith(prefix)]:
            used = giver.counters.pop(key)
            if used > 1:
                giver.counters[key] = used - 1
            if used > 0:
                taker.counters[key] = taker.counters.get(key, 0) + 1

    def _holder_of(self, unit: Unit, card: str) -> Unit:
        """Who holds the card of a use offered to ``unit``: another Unit for 'u2:card' (a card that serves the
        Units with it), else ``unit`` itself."""
        return self.state.unit(card.split(":", 1)[0]) if ":" in card else unit

    def _name_of(self, owner: str) -> str:
        src = self.effect_of.get(owner)
        if src is not None:
            return src.name
        if owner in self.content.cards:
            return self.content.cards[owner].name
        return owner

    def context(self, unit: Unit | None, owner: Unit | None, source: EffectSource, sector: str | None,
                card: str | None = None) -> Ctx:
        """The context in which an effect's hook runs or its condition is read, for one Unit."""
        return Ctx(self, unit, owner, source, sector, card)


_SHARED = frozenset({"units-here", "all-units"})  # a held card's uses that serve other Units too


def _add(mods: dict[str, list[Modifier]] | None, trigs: dict[str, list[Trigger]] | None, src: EffectSource,
         holder: Unit | None, played: int) -> None:
    """File a source's modifiers by query and its triggers by event."""
    if mods is not None:
        for i, hook in enumerate(src.compiled.modifiers):
            if hook.op != "require":  # a requirement to enter is read by Phase 4 itself, never combined
                mods.setdefault(hook.query, []).append((src, holder, played, i, hook))
    if trigs is not None:
        for j, trig in enumerate(src.compiled.triggers):
            trigs.setdefault(trig.at, []).append((src, holder, played, j, trig))
