"""Set-ups: the ways to play a map (as listed, a variant, an optional rule on) and the cards that can come into
play in each, and why. A static reading of loaded content, for the conflict finder (:mod:`ddaydice.dsl.conflicts`)
and `dday validate` (a card in no game)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

import attrs

from ddaydice.dsl import ast
from ddaydice.dsl.compile import EffectSource
from ddaydice.dsl.loader import Content
from ddaydice.dsl.schema import BASE_KINDS, BattleMap, Variant
from ddaydice.dsl.touches import reach

KIND_LABELS = {"rule": "game rule", "rwb": "RWB bonus", "option": "optional rule", "sector": "Sector",
               "specialist": "Specialist", "item": "Item", "vehicle": "Vehicle", "award": "Award"}


NO_GRADE = ("a Specialist without a grade is never dealt, neither to each Unit's hand (grade: regular) nor to "
            "the Pool (grade: unique)")
"""Why a Specialist a map lists without a grade never comes into play from that list (the set-up deals the listed
Specialists by grade: interpreter/game/setup.py)."""


def listed_ungraded(content: Content, cid: str) -> list[str]:
    """The maps whose lists (as listed or in a variant) name this Specialist though it has no grade: lists that
    never deal it (:data:`NO_GRADE`). Empty for any other card."""
    if content.card_kinds.get(cid) != "specialist" or content.cards[cid].grade is not None:
        return []
    return [mid for mid, bm in content.maps.items()
            if cid in bm.specialists or any(v.specialists is not None and cid in v.specialists for v in bm.variants)]


# ================================================================== set-ups: what can be in play
@attrs.frozen
class Setup:
    """One way to play a map: as listed, one of its variants, or as listed with an optional rule on."""

    map_id: str
    variant: str | None
    name: str
    ignore: frozenset[str]
    cards: Mapping[str, tuple[str, ...]]  # card id -> why it can come into play
    options: tuple[str, ...] = ()  # the optional rules switched on (with those they require)
    label: str = "as listed"  # how a note says it: 'in Practice Run', 'with Bazooka Joe'

    @property
    def key(self) -> str:
        """'' for the map as listed, the variant's id, or 'option:ID'."""
        if self.options:
            return "option:" + self.options[0]
        return self.variant or ""


class _Index:
    """What every set-up of one content reads, found once for all of them (the cards of each kind and grade, the
    cards only in or unavailable in an optional rule, the effects that are no card's, the cards each effect brings
    into play): a set-up's work is then the cards it reaches, never a scan of every card, so that checking a pack's
    cards grows with the pack, not with the pack times its set-ups (docs/security.md)."""

    def __init__(self, content: Content) -> None:
        self.content = content
        self.by_kind: dict[str, list[str]] = {}
        self.by_kind_grade: dict[tuple[str, str | None], list[str]] = {}
        self.only_in: dict[str, list[str]] = {}
        self.conditional: set[str] = set()  # cards that say only-in or unavailable-in
        for cid, card in content.cards.items():
            kind = content.card_kinds[cid]
            self.by_kind.setdefault(kind, []).append(cid)
            self.by_kind_grade.setdefault((kind, card.grade), []).append(cid)
            for oid in card.only_in:
                self.only_in.setdefault(oid, []).append(cid)
            if card.only_in or card.unavailable_in:
                self.conditional.add(cid)
        self.position = {cid: i for i, cid in enumerate(content.cards)}
        self.plain = [(key, src) for key, src in content.effects.items() if key not in content.cards]
        self._named: dict[int, _Named] = {}

    def named(self, src: EffectSource) -> _Named:
        """:func:`_named_cards` of an effect, found once."""
        found = self._named.get(id(src))
        if found is None:
            found = self._named[id(src)] = _named_cards(self.content, src)
        return found


#: What an effect brings into play: cards it names, and kinds of card it lets the player choose from (each with why).
_Named = tuple[list[tuple[str, str]], list[tuple[str, str]]]


def _named_cards(content: Content, src: EffectSource) -> _Named:
    """Cards an effect brings into play by its actions (recruit X, find X, offer X, find 1 vehicle): those it names,
    and the kinds whose cards it lets the player choose."""
    named: list[tuple[str, str]] = []
    chosen: list[tuple[str, str]] = []
    for clause in src.tree.clauses:
        body = clause.body
        if isinstance(body, ast.Modifier):
            continue
        for action in body.actions:
            for opt in (part for o in action.options for part in o.parts()):
                t = reach(opt.statement)
                if t.cards and t.cards[0] in content.cards:
                    named.append((t.cards[0], f"named by the effect of {src.name}"))
                    continue
                chosen += [(kind, f"a {KIND_LABELS.get(kind, kind)} of the player's choice, by the effect of "
                            f"{src.name}") for kind in t.chosen]
    return named, chosen


def offered_vehicles(content: Content, bm: BattleMap) -> list[tuple[str, str]]:
    """The Vehicles a Sector of the map brings by its own effect ('on enter: offer tank'), each with the Sector's
    name: found there, not from the Pool (Juno Beach: "Vehicle: Tank (in Sector 5)")."""
    out: list[tuple[str, str]] = []
    for sec in bm.sectors:
        src = content.effects.get(f"{bm.id}/{sec.id}")
        if src is not None:
            out += [(cid, sec.name) for cid, _ in _named_cards(content, src)[0]
                    if content.card_kinds.get(cid) == "vehicle"]
    return list(dict.fromkeys(out))


class _Reached:
    """The cards a set-up (or several set-ups with the same optional rules on) can bring into play, and why: those
    it adds, then those their effects bring, and so on. ``why=False``: which cards only (a kind of card the player
    may choose from is then gone through once, not once per effect that offers it)."""

    def __init__(self, index: _Index, options: tuple[str, ...], *, why: bool = True) -> None:
        self.index = index
        self.on = set(options)
        self.why = why
        self.reasons: dict[str, list[str]] = {}
        self.pending: list[str] = []  # the cards reached, in the order reached; those from ``done`` on are
        self.done = 0  # still to read
        self.chosen: set[str] = set()  # (why=False) the kinds gone through

    def add(self, cid: str, why: str) -> None:
        index = self.index
        got = self.reasons.get(cid)
        if got is None:
            if cid not in index.content.cards:
                return
            if cid in index.conditional:
                card = index.content.cards[cid]
                if set(card.unavailable_in) & self.on or (card.only_in and not set(card.only_in) & self.on):
                    return
            got = self.reasons[cid] = []
            self.pending.append(cid)
        if self.why and why not in got:
            got.append(why)

    def read(self, src: EffectSource) -> None:
        """What an effect in play brings into play."""
        named, chosen = self.index.named(src)
        for cid, why in named:
            self.add(cid, why)
        for kind, why in chosen:
            if not self.why:
                if kind in self.chosen:
                    continue
                self.chosen.add(kind)
            for cid in self.index.by_kind.get(kind, ()):
                self.add(cid, why)

    def close(self) -> dict[str, list[str]]:
        """The cards reached once the effects of every card reached are read."""
        effects = self.index.content.effects
        while self.done < len(self.pending):
            cid = self.pending[self.done]
            self.done += 1
            if cid in effects:
                self.read(effects[cid])
        return self.reasons


def _option_closure(content: Content, oid: str) -> tuple[str, ...]:
    """An optional rule and those it requires, itself first."""
    out = [oid]
    for o in out:
        for req in content.options[o].requires:
            if req in content.options and req not in out:
                out.append(req)
    return tuple(out)


def _option_cards(index: _Index, options: Iterable[str]) -> dict[str, str]:
    """Cards an optional rule's availability settings may bring into play (a list 'all', or cards drawn at
    random from the whole deck), as interpreter/mechanisms/options.py reads them: 'GRADE-KINDs' other than 'map'."""
    out: dict[str, str] = {}
    for oid in options:
        opt = index.content.options[oid]
        for key, value in sorted(opt.settings.items()):
            grade, _, kinds = key.replace("_", "-").partition("-")
            kind = kinds[:-1] if kinds.endswith("s") else kinds
            if kind not in KIND_LABELS or value == "map":
                continue
            for cid in index.by_kind_grade.get((kind, grade), ()):
                out.setdefault(cid, f"with the optional rule {opt.name}")
    return out


def _setup(index: _Index, bm: BattleMap, v: Variant | None, options: tuple[str, ...] = (),
           named: tuple[str, ...] = ()) -> Setup:
    """The set-up of a map (or its variant) with the optional rules ``options`` on (each with those it requires),
    named by ``named`` (by default the first of them)."""
    content = index.content
    reached = _Reached(index, options)
    _reach(reached, bm, v, options)
    reasons = reached.close()
    name = bm.name if v is None else v.name
    label = "as listed" if v is None else "in " + v.name.removeprefix(f"{bm.name}: ")
    if options:
        label = "with " + " and ".join(content.options[o].name for o in named or options[:1])
        name = f"{bm.name} {label}"
    return Setup(bm.id, v.id if v is not None else None, name, _ignored(v),
                 {cid: tuple(why) for cid, why in sorted(reasons.items())}, options, label)


def _ignored(v: Variant | None) -> frozenset[str]:
    return frozenset(v.ignore) if v is not None else frozenset()


def _reach(reached: _Reached, bm: BattleMap, v: Variant | None, options: tuple[str, ...]) -> None:
    """Add to ``reached`` what a set-up brings into play: its cards, then what the game's effects bring."""
    index = reached.index
    _seed(index, bm, v, options, reached.add)
    for src in _fixed_sources(index.content, bm, _ignored(v), options, index.plain):
        reached.read(src)


def _seed(index: _Index, bm: BattleMap, v: Variant | None, options: tuple[str, ...],
          add: Callable[[str, str], None]) -> None:
    """The cards a set-up brings into play by its lists, its decks and its optional rules (before the effects)."""
    content = index.content
    own = "listed by the variant" if v is not None else "listed by the map"
    specs = v.specialists if v is not None and v.specialists is not None else bm.specialists
    for cid in specs:
        if content.cards[cid].grade is None:
            continue  # never dealt (NO_GRADE)
        add(cid, own if v is not None and v.specialists is not None else "listed by the map")
    no_items = v is not None and v.items is not None and not v.items
    if not no_items:
        listed = v.items if v is not None and v.items is not None else bm.items
        for cid in listed:
            add(cid, own if v is not None and v.items is not None else "listed by the map")
        for cid in index.by_kind_grade.get(("item", "regular"), ()):
            add(cid, "a Regular Item (on every map that has Items)")
    vehicles = v.vehicles if v is not None and v.vehicles is not None else bm.vehicles
    for cid in vehicles:
        add(cid, own if v is not None and v.vehicles is not None else "listed by the map")
    names = {s.id: s.name for s in bm.sectors}
    for pc in bm.placed:
        add(pc.card, f"placed in {names.get(pc.sector, pc.sector)}")
    for sec in bm.sectors:
        if sec.start is None:
            continue
        for cid in sec.start.specialists:
            add(cid, f"joins the Units that start in {sec.name}")
        for cid in sec.start.regular_specialists or ():
            add(cid, f"in the hand of the Units that start in {sec.name}")
    for cid, why in _option_cards(index, options).items():
        add(cid, why)
    joining = {cid for oid in options for cid in index.only_in.get(oid, ())  # a Unique Specialist 'only-in' an
               if content.card_kinds[cid] == "specialist" and content.cards[cid].grade == "unique"}  # option joins
    for cid in sorted(joining, key=index.position.__getitem__):  # the Pool on any map
        add(cid, f"joins the Reserve with the optional rule {content.options[options[0]].name}")
    if "awards" not in _ignored(v):
        for cid in index.by_kind.get("award", ()):
            add(cid, "in the Award deck")
    for kind in content.kinds.kinds:  # an expansion's decks whose optional rule is on (rules/kinds.yaml)
        if kind.deck and (kind.option is None or kind.option in options):
            for cid in index.by_kind.get(kind.id, ()):
                add(cid, f"in the {kind.plural or kind.name} deck")
    for side in content.sides.sides:  # another side's player, whose optional rule is on: his start and his Reserve
        if side.option not in options:  # (every card of the kinds written for his side, as the set-up deals them)
            continue
        for cid in side.start.specialists:
            add(cid, f"joins the {side.name} at the start")
        for kind in content.kinds.kinds:
            if kind.side == side.id and not kind.deck:
                for cid in index.by_kind.get(kind.id, ()):
                    if cid not in side.start.specialists:
                        add(cid, f"in the {side.name}'s Reserve")


def setups(content: Content, map_id: str) -> tuple[Setup, ...]:
    """The map as listed, each of its variants, then the map as listed with each optional rule on (an
    optional rule may change what can come into play, and its own effects join the game's rules)."""
    return _setups(_Index(content), map_id)


def _setups(index: _Index, map_id: str) -> tuple[Setup, ...]:
    """:func:`setups`, with the content's index."""
    bm = index.content.maps[map_id]
    out = [_setup(index, bm, None), *(_setup(index, bm, v) for v in bm.variants)]
    out += [_setup(index, bm, None, closure) for closure in _options_on(index.content, bm)]
    return tuple(out)


def card_setups(content: Content, map_id: str, cid: str) -> tuple[Setup, ...]:
    """The set-ups of :func:`setups`, and for a card 'only-in' an optional rule whose kind's deck comes with an
    optional rule of its own (a pack's Badge only in the pack's rule needs the Badges rule too), the map with both
    on: no single rule brings such a card, and ``dday card`` would call it never in play."""
    index = _Index(content)
    out = list(_setups(index, map_id))
    kind = content.kind_def(content.card_kinds[cid])
    deck_option = kind.option if kind is not None and kind.deck else None
    if deck_option is None or deck_option not in content.options:
        return tuple(out)
    bm = content.maps[map_id]
    playable = set(_options_on(content, bm))
    for oid in content.cards[cid].only_in:
        if oid not in content.options or deck_option in _option_closure(content, oid):
            continue  # (a rule that brings the deck's rule itself: its own set-up has the card)
        if _option_closure(content, oid) in playable and _option_closure(content, deck_option) in playable:
            both = tuple(dict.fromkeys((*_option_closure(content, oid), *_option_closure(content, deck_option))))
            out.append(_setup(index, bm, None, both, named=(oid, deck_option)))
    return tuple(out)


def _options_on(content: Content, bm: BattleMap) -> list[tuple[str, ...]]:
    """The optional rules (each with those it requires) a map can be played with, one set-up each."""
    out = []
    for oid in sorted(content.options):
        closure = _option_closure(content, oid)
        most = min((int(m) for o in closure for k, m in content.options[o].settings.items()
                    if k.replace("_", "-") == "max-players" and isinstance(m, int)), default=4)
        if most < bm.players[0]:
            continue  # the map cannot be played with so few players (solitaire on Operation Deadstick)
        out.append(closure)
    return out


def cards_in_no_game(content: Content, ids: Iterable[str] | None = None) -> dict[str, tuple[str, ...]]:
    """The cards of the base kinds (Specialists, Items, Vehicles, Awards) that no map brings into play as listed
    or in a variant, and do not say ``only-in`` an optional rule: a card its author expects in games and that is
    in none (a pack's new Regular Specialist that no map lists). Each with the names of the optional rules that
    would bring it (none: it is in no game at all). Cards of an expansion's own kinds come with their option or
    side, and are not asked about. ``ids``: only these cards (all by default).

    The set-ups with the same optional rules on read the same cards the same way, so the cards they bring are
    found together, once (what any of them brings): the work grows with the cards, not with the cards times the
    set-ups; the set-ups with an optional rule on are read only if some card is in no set-up without."""
    asked = [cid for cid in (content.cards if ids is None else ids)
             if content.card_kinds.get(cid) in BASE_KINDS and not content.cards[cid].only_in]
    if not asked:
        return {}
    index = _Index(content)
    listed = _Reached(index, (), why=False)
    for mid in sorted(content.maps):
        bm = content.maps[mid]
        for v in (None, *bm.variants):
            _reach(listed, bm, v, ())
    in_games = listed.close()
    unlisted = [cid for cid in asked if cid not in in_games]
    if not unlisted:
        return {}
    by_option: dict[str, set[str]] = {}
    with_option: dict[tuple[str, ...], _Reached] = {}
    for mid in sorted(content.maps):
        for closure in _options_on(content, content.maps[mid]):
            reached = with_option.setdefault(closure, _Reached(index, closure, why=False))
            _reach(reached, content.maps[mid], None, closure)
    for closure, reached in with_option.items():
        brought = reached.close()
        for cid in unlisted:
            if cid in brought:
                by_option.setdefault(cid, set()).add(content.options[closure[0]].name)
    return {cid: tuple(sorted(by_option.get(cid, ()))) for cid in unlisted}


def _fixed_sources(content: Content, bm: BattleMap, ignore: frozenset[str], options: Iterable[str] = (),
                   plain: Iterable[tuple[str, EffectSource]] | None = None) -> list[EffectSource]:
    """The effects of a set-up that do not come from cards: rules, options on, RWBs, the map's Sectors.
    ``plain``: the content's effects that are no card's (:class:`_Index`), when known."""
    on = {f"option:{o}" for o in options}
    effects = list(content.effects.items() if plain is None else plain)
    # A rule or RWB written for an optional rule ('rwb:battle-cry@badges') stands in for the plain one in the
    # set-ups with that rule on, and is absent from the others (as in the engine).
    replaced = {key.split("@", 1)[0] for key, _ in effects
                if "@" in key and f"option:{key.split('@', 1)[1]}" in on}

    def wanted(key: str) -> bool:
        if key.startswith("option:"):
            return key in on
        if "@" in key:
            if f"option:{key.split('@', 1)[1]}" not in on:
                return False
        elif key in replaced:
            return False
        if key.startswith(("rule:", "special-damage:")):
            return "/" not in key
        if key.startswith("rwb:"):
            return "rwb" not in ignore
        if key == f"{bm.id}/rules":
            return True
        return key.startswith(f"{bm.id}/") and "attributes" not in ignore

    return [src for key, src in effects if wanted(key)]


def active_sources(content: Content, setup: Setup) -> list[EffectSource]:
    """Every effect that can be in play in a set-up."""
    bm = content.maps[setup.map_id]
    out = _fixed_sources(content, bm, setup.ignore, setup.options)
    out += [content.effects[cid] for cid in setup.cards if cid in content.effects]
    return out
