"""Set-ups: the ways to play a map (as listed, a variant, an optional rule on) and the cards that can come into
play in each, and why. A static reading of loaded content, for the conflict finder (:mod:`ddaydice.dsl.conflicts`)
and `dday validate` (a card in no game)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import attrs

from ddaydice.dsl import ast
from ddaydice.dsl.compile import EffectSource
from ddaydice.dsl.loader import Content
from ddaydice.dsl.schema import BASE_KINDS, BattleMap, Variant
from ddaydice.dsl.touches import reach

KIND_LABELS = {"rule": "game rule", "rwb": "RWB bonus", "option": "optional rule", "sector": "Sector",
               "specialist": "Specialist", "item": "Item", "vehicle": "Vehicle", "award": "Award"}


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


def _named_cards(content: Content, src: EffectSource) -> list[tuple[str, str]]:
    """Cards an effect brings into play by its actions (recruit X, find X, offer X, find 1 vehicle)."""
    out: list[tuple[str, str]] = []
    for clause in src.tree.clauses:
        body = clause.body
        if isinstance(body, ast.Modifier):
            continue
        for action in body.actions:
            for opt in (part for o in action.options for part in o.parts()):
                t = reach(opt.statement)
                if t.cards and t.cards[0] in content.cards:
                    out.append((t.cards[0], f"named by the effect of {src.name}"))
                    continue
                for kind in t.chosen:
                    label = KIND_LABELS.get(kind, kind)
                    out += [(c.id, f"a {label} of the player's choice, by the effect of {src.name}")
                            for c in content.cards_of(kind)]
    return out


def _option_closure(content: Content, oid: str) -> tuple[str, ...]:
    """An optional rule and those it requires, itself first."""
    out = [oid]
    for o in out:
        for req in content.options[o].requires:
            if req in content.options and req not in out:
                out.append(req)
    return tuple(out)


def _option_cards(content: Content, options: Iterable[str]) -> dict[str, str]:
    """Cards an optional rule's availability settings may bring into play (a list 'all', or cards drawn at
    random from the whole deck), as interpreter/mechanisms/options.py reads them: 'GRADE-KINDs' other than 'map'."""
    out: dict[str, str] = {}
    for oid in options:
        opt = content.options[oid]
        for key, value in sorted(opt.settings.items()):
            grade, _, kinds = key.replace("_", "-").partition("-")
            kind = kinds[:-1] if kinds.endswith("s") else kinds
            if kind not in KIND_LABELS or value == "map":
                continue
            for cid, card in content.cards.items():
                if content.card_kinds[cid] == kind and card.grade == grade:
                    out.setdefault(cid, f"with the optional rule {opt.name}")
    return out


def _setup(content: Content, bm: BattleMap, v: Variant | None, options: tuple[str, ...] = ()) -> Setup:
    reasons: dict[str, list[str]] = {}
    barred = {cid for cid, card in content.cards.items() if set(card.unavailable_in) & set(options)
              or (card.only_in and not set(card.only_in) & set(options))}

    def add(cid: str, why: str) -> None:
        if cid in content.cards and cid not in barred:
            got = reasons.setdefault(cid, [])
            if why not in got:
                got.append(why)

    own = "listed by the variant" if v is not None else "listed by the map"
    specs = v.specialists if v is not None and v.specialists is not None else bm.specialists
    for cid in specs:
        add(cid, own if v is not None and v.specialists is not None else "listed by the map")
    no_items = v is not None and v.items is not None and not v.items
    if not no_items:
        listed = v.items if v is not None and v.items is not None else bm.items
        for cid in listed:
            add(cid, own if v is not None and v.items is not None else "listed by the map")
        for cid, card in content.cards.items():
            if content.card_kinds[cid] == "item" and card.grade == "regular":
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
    for cid, why in _option_cards(content, options).items():
        add(cid, why)
    for cid, card in content.cards.items():  # a Unique Specialist 'only-in' an option joins the Pool on any map
        if content.card_kinds[cid] == "specialist" and card.grade == "unique" and set(card.only_in) & set(options):
            add(cid, f"joins the Reserve with the optional rule {content.options[options[0]].name}")
    ignore = frozenset(v.ignore) if v is not None else frozenset()
    if "awards" not in ignore:
        for card in content.cards_of("award"):
            add(card.id, "in the Award deck")
    for kind in content.kinds.kinds:  # an expansion's decks whose optional rule is on (rules/kinds.yaml)
        if kind.deck and (kind.option is None or kind.option in options):
            for cid, k in content.card_kinds.items():
                if k == kind.id:
                    add(cid, f"in the {kind.plural or kind.name} deck")
    # Cards the game's effects bring into play, and those the cards they bring bring, and so on.
    frontier = _fixed_sources(content, bm, ignore, options)
    seen: set[str] = set()
    while frontier:
        nxt: list[EffectSource] = []
        for src in frontier:
            for cid, why in _named_cards(content, src):
                add(cid, why)
        for cid in list(reasons):
            if cid not in seen:
                seen.add(cid)
                if cid in content.effects:
                    nxt.append(content.effects[cid])
        frontier = nxt
    name = bm.name if v is None else v.name
    label = "as listed" if v is None else "in " + v.name.removeprefix(f"{bm.name}: ")
    if options:
        name = f"{bm.name} with {content.options[options[0]].name}"
        label = f"with {content.options[options[0]].name}"
    return Setup(bm.id, v.id if v is not None else None, name, ignore,
                 {cid: tuple(why) for cid, why in sorted(reasons.items())}, options, label)


def setups(content: Content, map_id: str) -> tuple[Setup, ...]:
    """The map as listed, each of its variants, then the map as listed with each optional rule on (an
    optional rule may change what can come into play, and its own effects join the game's rules)."""
    bm = content.maps[map_id]
    out = [_setup(content, bm, None), *(_setup(content, bm, v) for v in bm.variants)]
    for oid in sorted(content.options):
        closure = _option_closure(content, oid)
        most = min((int(m) for o in closure for k, m in content.options[o].settings.items()
                    if k.replace("_", "-") == "max-players" and isinstance(m, int)), default=4)
        if most < bm.players[0]:
            continue  # the map cannot be played with so few players (solitaire on Operation Deadstick)
        out.append(_setup(content, bm, None, closure))
    return tuple(out)


def cards_in_no_game(content: Content, ids: Iterable[str] | None = None) -> dict[str, tuple[str, ...]]:
    """The cards of the base kinds (Specialists, Items, Vehicles, Awards) that no map brings into play as listed
    or in a variant, and do not say ``only-in`` an optional rule: a card its author expects in games and that is
    in none (a pack's new Regular Specialist that no map lists). Each with the names of the optional rules that
    would bring it (none: it is in no game at all). Cards of an expansion's own kinds come with their option or
    side, and are not asked about. ``ids``: only these cards (all by default)."""
    asked = [cid for cid in (content.cards if ids is None else ids)
             if content.card_kinds.get(cid) in BASE_KINDS and not content.cards[cid].only_in]
    if not asked:
        return {}
    listed: set[str] = set()
    by_option: dict[str, set[str]] = {}
    for mid in sorted(content.maps):
        for st in setups(content, mid):
            if st.options:
                for cid in st.cards:
                    by_option.setdefault(cid, set()).add(content.options[st.options[0]].name)
            else:
                listed.update(st.cards)
    return {cid: tuple(sorted(by_option.get(cid, ()))) for cid in asked if cid not in listed}


def _fixed_sources(content: Content, bm: BattleMap, ignore: frozenset[str],
                   options: Iterable[str] = ()) -> list[EffectSource]:
    """The effects of a set-up that do not come from cards: rules, options on, RWBs, the map's Sectors."""
    on = {f"option:{o}" for o in options}
    # A rule or RWB written for an optional rule ('rwb:battle-cry@badges') stands in for the plain one in the
    # set-ups with that rule on, and is absent from the others (as in the engine).
    replaced = {key.split("@", 1)[0] for key in content.effects
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

    return [src for key, src in content.effects.items() if wanted(key)]


def active_sources(content: Content, setup: Setup) -> list[EffectSource]:
    """Every effect that can be in play in a set-up."""
    bm = content.maps[setup.map_id]
    out = _fixed_sources(content, bm, setup.ignore, setup.options)
    out += [content.effects[cid] for cid in setup.cards if cid in content.effects]
    return out
