"""Conflicts: pairs of effects that touch the same value or permission and can disagree.

A static analysis of loaded content; it needs no game state. Data flow::

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

``dsl/`` never imports the interpreter: the resolution below mirrors ``interpreter/core/precedence.py``
(lowest tier first, ``add`` accumulates, ``set``/``forbid``/``allow`` replace, ``protect`` overrules
the named tiers' reductions, clamps last), and the tests check that both agree on every bundled pair.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Literal

import attrs

from ddaydice.dsl import ast, words
from ddaydice.dsl.loader import Content, EffectSource
from ddaydice.dsl.render import Renderer
from ddaydice.dsl.schema import BASE_KINDS, BattleMap, Variant
from ddaydice.dsl.words.base import NOTHING, READS_STATE, Change, Reads, Touches

UNLIMITED = 10**9

# The precedence rules, as the report cites them (rules/precedence.yaml; DESIGN.md, section 5).
RULE_TIERS = ("Awards > Items & Vehicles > Specialists > Sector attributes > game rules: "
              "the higher tier has the last word")
RULE_EXPLICIT = "an effect that names what it overrides beats the default order"
RULE_ADD = "additive changes accumulate; a set from a higher tier replaces them"
RULE_WITHIN = "within a tier: when the effect came into play, then its id"
RULE_CLAMP = "clamps apply last"
RULE_NONE = "none: the engine does not ask this permission for it"

Kind = Literal["same-tier", "permission", "value", "override", "idle-override"]
KIND_ORDER: dict[str, int] = {"same-tier": 0, "permission": 1, "value": 2, "override": 3, "idle-override": 4}
KIND_TITLES: dict[str, str] = {
    "same-tier": "(a) same tier, no stated order",
    "permission": "(b) permission against permission",
    "value": "(c) a set against another change",
    "override": "(d) explicit override",
    "idle-override": "(d) override with nothing to overrule",
}
KIND_LABELS = {"rule": "game rule", "rwb": "RWB bonus", "option": "optional rule", "sector": "Sector",
               "specialist": "Specialist", "item": "Item", "vehicle": "Vehicle", "award": "Award"}

# Standing modifiers the engine reads (interpreter/effects/sources.py, the index of the effects in play): the
# game's rules and options, the Sector's own attributes, and the Specialists and Vehicle a Unit holds. Items and Awards
# act only through what they are used for.
STANDING_KINDS = frozenset({"rule", "option", "sector", "specialist", "vehicle"})
REPLACING = frozenset({"set", "forbid", "allow"})

Lit = tuple[str, bool]


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


def reach(stmt: ast.Statement) -> Touches:
    """A statement's conflict signature, from its word's record (:mod:`ddaydice.dsl.words`); a query changed
    ('def -2') is read by the analyser itself."""
    spec = words.action(stmt.verb.name) or words.modifier(stmt.verb.name)
    return spec.touches(stmt) if spec is not None else NOTHING


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


# ================================================================== touches
@attrs.frozen
class Touch:
    """One effect's part in a query or permission, found statically in its tree.

    ``source`` is the effect a player sees (the Dexedrine); ``via`` is the effect the change really
    comes from when the source grants an RWB (the Battle Cry RWB), and ``tier`` is the tier the engine
    gives the change (the RWB's).
    """

    source: EffectSource
    clause: int
    query: str
    op: str  # add, set, forbid, allow, protect, require, act (an action: find, recruit)
    value: tuple[int, int] | None  # for numbers: the least and greatest change or value; None: unknown
    args: tuple[str, ...]
    standing: bool
    scope: str | None  # the clause's scope (standing) or the action's recipient (granted)
    tier: str
    literals: frozenset[Lit]
    statement: str  # the DSL of the statement itself ('def -2')
    english: str  # the English of the statement itself
    via: EffectSource | None = None
    via_clause: int = 0
    shown: str = ""  # the source's own statement, when it grants an RWB ('rwb battle-cry')

    @property
    def key(self) -> tuple[str, int, str, str, str]:
        return (self.source.owner, self.clause, self.via.owner if self.via else "", self.query, self.statement)


def _pred_key(p: ast.Predicate) -> str:
    parts = [p.word.name]
    for a in p.args:
        match a:
            case ast.Word(name=n):
                parts.append(n)
            case ast.Number(value=n) | ast.Signed(value=n):
                parts.append(str(n))
            case _:
                parts.append("?")
    if p.comparison is not None:
        parts.append(f"{p.comparison.op}{p.comparison.value}")
    return " ".join(parts)


def _expr_lits(expr: ast.CondExpr, positive: bool) -> frozenset[Lit]:
    """What a condition certainly requires, as (predicate, truth) literals; empty when nothing certain."""
    match expr:
        case ast.Predicate():
            return frozenset({(_pred_key(expr), positive)})
        case ast.Not(operand=op):
            return _expr_lits(op, not positive)
        case ast.AllOf(operands=(only,)) | ast.AnyOf(operands=(only,)):
            return _expr_lits(only, positive)
        case ast.AllOf(operands=ops):
            # a and b: both hold; not (a and b): nothing certain about either
            return frozenset().union(*(_expr_lits(o, True) for o in ops)) if positive else frozenset()
        case ast.AnyOf(operands=ops):
            # not (a or b): neither holds; a or b: nothing certain
            return frozenset().union(*(_expr_lits(o, False) for o in ops)) if not positive else frozenset()


def condition_literals(cond: ast.Condition | None) -> frozenset[Lit]:
    if cond is None:
        return frozenset()
    return _expr_lits(cond.expr, not cond.negated)


def _value(arg: ast.Arg) -> tuple[int, int] | None:
    match arg:
        case ast.Number(value=n) | ast.Signed(value=n):
            return (n, n)
        case ast.Dice(count=c, sign=s):
            return (-6 * c, -c) if s < 0 else (c, 6 * c)
        case ast.Assign(value=v):
            if isinstance(v, ast.Word):
                return (UNLIMITED, UNLIMITED) if v.name == "unlimited" else None
            return _value(v)
        case ast.Word(name="unlimited"):
            return (UNLIMITED, UNLIMITED)
    return None


def statement_dsl(stmt: ast.Statement) -> str:
    """A statement written back in the effect language ('def -2', 'locked-dice = 1')."""
    parts = [stmt.verb.name]
    for a in stmt.args:
        parts.append(_arg_dsl(a))
    if stmt.per is not None:
        parts.append("per " + " ".join(w.name for w in stmt.per.words))
        if stmt.per.above is not None:
            parts.append(f"above {stmt.per.above}")
    return " ".join(parts)


def _arg_dsl(a: ast.Arg | ast.Number | ast.Dice | ast.Word) -> str:
    match a:
        case ast.Word(name=n):
            return n
        case ast.Number(value=n):
            return str(n)
        case ast.Signed(value=n):
            return f"{n:+d}"
        case ast.Dice(count=c, sign=sg):
            return f"{'-' if sg < 0 else '+' if sg > 0 else ''}{c}d6"
        case ast.Assign(value=v):
            return "= " + _arg_dsl(v)


class _Extractor:
    def __init__(self, content: Content) -> None:
        self.content = content
        self.numbers = content.vocab.numbers()
        self.renderer = Renderer({cid: c.name for cid, c in content.cards.items()})
        self.implied: dict[str, frozenset[Lit]] = {}
        # Cards drawn into play for every Unit (Battle Conditions) stand like a rule while in play.
        self.in_play_kinds = frozenset(k.id for k in content.kinds.kinds if k.held_by == "game")

    def implied_literals(self, src: EffectSource, standing: bool) -> frozenset[Lit]:
        """What is certainly true while this effect acts: its card is in play (if it stays in play), and
        an option it is unavailable in is off."""
        lits: set[Lit] = set()
        card = self.content.cards.get(src.owner)
        option, in_play = words.reading("option"), words.reading("card-in-play")
        if card is not None:
            if option is not None:
                lits |= {(f"{option} {o}", False) for o in card.unavailable_in}
            if standing and in_play is not None:
                lits.add((f"{in_play} {src.owner}", True))
        return frozenset(lits)

    def statement(self, stmt: ast.Statement) -> tuple[str, str, tuple[int, int] | None, tuple[str, ...]] | None:
        """(query, op, value, args) for a statement that changes a query or permission, else None: a query's
        change read here, a word's from its conflict signature."""
        v = stmt.verb.name
        if v in self.numbers and stmt.args:
            arg = stmt.args[0]
            if not isinstance(arg, ast.Assign | ast.Signed | ast.Dice):
                return None
            value = _value(arg) if stmt.per is None else None
            return v, "set" if isinstance(arg, ast.Assign) else "add", value, ()
        change = reach(stmt).change
        if change is None:
            return None
        return change.query, change.op, None, tuple(str(a) for a in change.args)

    def touches(self, src: EffectSource, *, shown: EffectSource | None = None, shown_clause: int = 0,
                outer: frozenset[Lit] = frozenset(), depth: int = 0, shown_stmt: str = "") -> list[Touch]:
        """Every touch of an effect. With ``shown``, the effect is an RWB granted by ``shown``."""
        out: list[Touch] = []
        for ci, clause in enumerate(src.tree.clauses):
            body = clause.body
            reported = shown if shown is not None else src
            rci = shown_clause if shown is not None else ci
            if clause.scope is not None and clause.scope.kind == "the-german":
                continue  # the German is not a Unit: nothing written for him meets a Unit's effects
            if isinstance(body, ast.Modifier):
                if shown is not None or (src.kind not in STANDING_KINDS and src.kind not in self.in_play_kinds):
                    continue
                found = self.statement(body.statement)
                if found is None or found[1] == "act":
                    continue
                if found[1] == "require" and src.kind != "sector":
                    continue  # the engine reads requirements from Sector attributes only
                lits = condition_literals(body.condition) | self.implied_literals(src, True) | outer
                out.append(self.make(reported, rci, found, True, clause.scope.kind if clause.scope else None,
                                     src.tier, lits, body.statement, src if shown is not None else None, ci,
                                     shown_stmt))
                continue
            lits = condition_literals(body.condition) | self.implied_literals(reported, False) | outer
            for action in body.actions:
                for opt in (part for o in action.options for part in o.parts()):
                    stmt = opt.statement
                    olits = lits | (condition_literals(opt.recipient.condition)
                                    if opt.recipient is not None else frozenset())
                    runs = reach(stmt).runs  # an effect the action runs (an RWB's), as if its own
                    if runs is not None and depth < 3:
                        inner = self.content.effects.get(runs)
                        if inner is not None:
                            out += self.touches(inner, shown=reported, shown_clause=rci, outer=olits,
                                                depth=depth + 1, shown_stmt=shown_stmt or statement_dsl(stmt))
                        continue
                    found = self.statement(stmt)
                    if found is None or found[1] == "require":
                        continue
                    out.append(self.make(reported, rci, found, False,
                                         opt.recipient.kind if opt.recipient is not None else None,
                                         src.tier, olits, stmt, src if shown is not None else None, ci,
                                         shown_stmt))
        return out

    def make(self, src: EffectSource, ci: int, found: tuple[str, str, tuple[int, int] | None, tuple[str, ...]],
             standing: bool, scope: str | None, tier: str, lits: frozenset[Lit], stmt: ast.Statement,
             via: EffectSource | None, via_ci: int, shown_stmt: str = "") -> Touch:
        query, op, value, args = found
        return Touch(src, ci, query, op, value, args, standing, scope, tier, lits,
                     statement_dsl(stmt), self.renderer.statement(stmt), via, via_ci, shown_stmt)


def touches(content: Content, src: EffectSource) -> list[Touch]:
    """Every change an effect makes to a query or permission (standing, or granted by its actions)."""
    return _Extractor(content).touches(src)


# ================================================================== placement
@attrs.frozen
class _Placed:
    touch: Touch
    sectors: frozenset[str]  # where it can act on this map
    setups: frozenset[str]  # which set-ups of the map it can be in play in (Setup.key)
    fixed: bool  # in play from the start, in a fixed order (played 0 in the engine): rules, Sectors


class _MapView:
    """One map: its Sectors, which Sectors can receive each attribute, and where Vehicles may be."""

    def __init__(self, content: Content, bm: BattleMap) -> None:
        self.bm = bm
        self.all = frozenset(s.id for s in bm.sectors)
        self.bunkers = frozenset(s.id for s in bm.sectors if s.bunker)
        self.names = {s.id: s.name for s in bm.sectors}
        self.defense = {s.id: s.defense for s in bm.sectors}
        self.mgf = {s.id: s.mgf for s in bm.sectors}
        self.into: dict[str, set[str]] = {s: set() for s in self.all}
        for line in bm.lines:
            for a in line.from_:
                for b in line.to:
                    self.into.setdefault(b, set()).add(a)
                    if line.kind == "lateral":
                        self.into.setdefault(a, set()).add(b)
        tables = {t.id: t.results for t in bm.tables}
        self.attribute_at: dict[str, set[str]] = {a.id: set() for a in bm.attributes}
        no_vehicle: set[str] = set()
        for sec in bm.sectors:
            src = content.effects.get(f"{bm.id}/{sec.id}")
            if src is None:
                continue
            for clause in src.tree.clauses:
                body = clause.body
                if isinstance(body, ast.Modifier):
                    change = reach(body.statement).change
                    if change == Change("vehicle-here", "forbid") and body.condition is None:
                        no_vehicle.add(sec.id)
                    continue
                for action in body.actions:
                    for opt in (part for o in action.options for part in o.parts()):
                        t = reach(opt.statement)
                        for table in t.tables:
                            for attr in tables.get(table, ()):
                                self.attribute_at.setdefault(attr, set()).add(sec.id)
                        for attr in t.attributes:
                            self.attribute_at.setdefault(attr, set()).add(sec.id)
        # An attribute given by an effect that is not a Sector's own can land anywhere.
        for key, src in content.effects.items():
            if key.startswith(f"{bm.id}/") and "/attribute:" not in key and key != f"{bm.id}/rules":
                continue
            for clause in src.tree.clauses:
                body = clause.body
                if isinstance(body, ast.Modifier):
                    continue
                for action in body.actions:
                    for opt in (part for o in action.options for part in o.parts()):
                        for attr in reach(opt.statement).attributes:
                            if attr in self.attribute_at:
                                self.attribute_at[attr] |= set(self.all)
        self.vehicle_ok = frozenset(self.all - self.bunkers - no_vehicle)

    def sector_name(self, sid: str) -> str:
        return self.names.get(sid, sid)

    def where(self, t: Touch) -> frozenset[str]:
        """The Sectors of this map where a touch can act (before its conditions)."""
        owner = t.source.owner
        prefix = f"{self.bm.id}/"
        if owner.startswith(prefix):
            rest = owner[len(prefix):]
            if rest == "rules":
                out = self.all
            elif rest.startswith("attribute:"):
                out = frozenset(self.attribute_at.get(rest.split(":", 1)[1], ()))
            else:
                out = frozenset({rest}) & self.all
        else:
            out = self.all
        if t.source.kind == "vehicle":
            out &= self.vehicle_ok  # a Vehicle never enters a Bunker, nor a Sector that forbids Vehicles
        return out

    def narrow(self, sectors: frozenset[str], lits: Iterable[Lit]) -> frozenset[str]:
        """Keep the Sectors where the touch's conditions on being in a Bunker can hold."""
        for key, truth in lits:
            if _reads(key).where == "bunkers":
                sectors = sectors & self.bunkers if truth else sectors - self.bunkers
        return sectors


def _reads(key: str) -> Reads:
    """What a literal's condition reads (its predicate's conflict signature); only a condition without
    arguments or comparison can be said to hold in whole Sectors, and only one with an argument names a rule or a
    card."""
    name, _, rest = key.partition(" ")
    spec = words.predicate(name)
    if spec is None or (spec.reads.where is not None and rest):
        return READS_STATE
    return spec.reads


def _compatible(a: frozenset[Lit], b: frozenset[Lit], options: frozenset[str]) -> bool:
    both = a | b
    for key, truth in both:
        if (key, not truth) in both:
            return False
        if truth and _reads(key).names == "option" and key.partition(" ")[2] not in options:
            return False  # an optional rule the content does not define is never on
    return True


# ================================================================== linked permissions
@attrs.frozen
class Link:
    """Two different permissions (or a requirement and a permission) that decide the same thing.

    ``first`` and ``second`` are (query, op) patterns; ``winner`` is the side whose word the engine
    follows; ``meet`` says where the second must act for them to meet: at the same Sector ('same'), or
    where a Unit stands when it moves into the first's Sector ('approach', or 'approach-or-same').
    """

    first: tuple[str, str]
    second: tuple[str, str]
    winner: Literal["first", "second"]
    meet: Literal["same", "approach", "approach-or-same"]
    disagree: str
    how: str
    rule: str
    require_battle_cry: bool | None = None  # for 'require': only requirements that are (not) 'battle-cry'
    require_sacrifice: bool = False


LINKS: tuple[Link, ...] = (
    Link(("battle-cry-here", "forbid"), ("battle-cry", "allow"), "first", "same",
         "whether a Unit may move with a Battle Cry here: {a} forbids Battle Cries in its Sector, {b} gives "
         "the Unit a Battle Cry",
         "a Battle Cry move needs both the Unit's Battle Cry and the Sector's leave (asked for the Sector the "
         "Unit is in and for the one it moves into), so the Sector's 'no Battle Cry' wins whatever the tiers: "
         "the Unit moves, if at all, paying Courage and meeting every requirement",
         RULE_EXPLICIT + " (the Sector names the Battle Cry it rules out)"),
    Link(("enter", "require"), ("battle-cry", "allow"), "second", "approach",
         "whether a Unit must meet the requirement of the Sector it moves into: {a} makes it a requirement, "
         "{b} gives a Battle Cry, which ignores every requirement of the Sector moved into",
         "a Unit moving with a Battle Cry ignores the requirement and pays no Courage (only 'can only be "
         "entered with a Battle Cry' is never waived)",
         RULE_EXPLICIT + " (the Battle Cry says it ignores every requirement)", require_battle_cry=False),
    Link(("enter", "require"), ("ignore-requirements", "allow"), "second", "approach-or-same",
         "whether a Unit must meet the requirement of the Sector it moves into: {a} makes it a requirement, "
         "{b} ignores requirements",
         "the requirement is waived ('can only be entered with a Battle Cry' excepted); the engine asks where "
         "the Unit stands when it chooses the move, and again in the Sector it arrives in",
         RULE_EXPLICIT + " (it says which rule it ignores)", require_battle_cry=False),
    Link(("enter", "require"), ("ignore-sacrifices", "allow"), "second", "approach-or-same",
         "whether a Unit must sacrifice a Specialist to move into the Sector: {a} requires it, {b} ignores "
         "sacrifices",
         "the Unit moves in without sacrificing anybody; the engine asks where the Unit stands when it "
         "chooses the move, and again in the Sector it arrives in, where the sacrifice is made (a Vehicle "
         "abandoned on the way, at Landmines, no longer helps there)",
         RULE_EXPLICIT + " (it says which rule it ignores)", require_battle_cry=False, require_sacrifice=True),
    Link(("enter", "require"), ("battle-cry-here", "forbid"), "second", "approach-or-same",
         "whether the Sector can be entered: {a} can only be entered with a Battle Cry, {b} allows no Battle "
         "Cry",
         "no Battle Cry can be used in or into that Sector, so {a} cannot be entered from there",
         RULE_EXPLICIT + " (it names the Battle Cry it rules out)", require_battle_cry=True),
    Link(("enter", "require"), ("battle-cry", "forbid"), "second", "approach",
         "whether the Sector can be entered: {a} can only be entered with a Battle Cry, {b} forbids the Unit "
         "a Battle Cry",
         "the Unit cannot use a Battle Cry from there, so it cannot enter {a} from there",
         RULE_EXPLICIT + " (it names the Battle Cry it rules out)", require_battle_cry=True),
    Link(("stay", "forbid"), ("stay-turns", "set"), "first", "same",
         "whether a Unit may stay: {a} forbids staying, {b} lets it stay longer",
         "the 'stay' permission is asked first and the Unit must move; the number of turns only decides when "
         "the Unit marker turns to 'must move'",
         RULE_EXPLICIT + " ('can't stay here' names what it forbids)"),
    Link(("find", "forbid"), ("find", "act"), "second", "same",
         "whether an Item can be found here: {a} forbids finding, {b} finds one",
         "the find happens: the engine asks the 'find' permission only when a Unit buys Items in Phase 3, "
         "never for a find made by an effect",
         RULE_NONE),
    Link(("recruit", "forbid"), ("recruit", "act"), "second", "same",
         "whether a Specialist can be recruited here: {a} forbids recruiting, {b} recruits one",
         "the recruit happens: the engine asks the 'recruit' permission only when a Unit buys Specialists in "
         "Phase 3, never for a recruit made by an effect",
         RULE_NONE),
)


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
        self.ex = _Extractor(content)
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
            return _subject(info.name)
        text = self.query_text(q)
        name = _subject(self.qname(q))
        return f"{name}, {text}" if "(" in text else f"{name} ({text})"

    def side(self, p: _Placed, mv: _MapView | None) -> Side:
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
    def placed(self, mv: _MapView, sets: Sequence[Setup]) -> list[_Placed]:
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
            if not sectors or not _compatible(t.literals, frozenset(), self.options):
                continue
            fixed = t.standing and t.source.kind in {"rule", "option", "sector"}
            out.append(_Placed(t, sectors, frozenset(where), fixed))
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

    def meet(self, mv: _MapView, a: _Placed, b: _Placed, mode: str = "same") -> frozenset[str]:
        """The Sectors where two touches can act together (empty: they never meet)."""
        if a.touch.source.owner == b.touch.source.owner and a.touch.clause == b.touch.clause:
            return frozenset()
        if not (a.setups & b.setups):
            return frozenset()
        if not _compatible(a.touch.literals, b.touch.literals, self.options):
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
        mv = _MapView(self.content, bm)
        sets = setups(self.content, map_id)
        all_setups = frozenset(s.key for s in sets)
        items = self.placed(mv, sets)
        by_query: dict[str, list[_Placed]] = {}
        for p in items:
            by_query.setdefault(p.touch.query, []).append(p)
        out: list[Conflict] = []

        def finish(c: Conflict, a: _Placed, b: _Placed | None, where: frozenset[str]) -> None:
            common = a.setups & (b.setups if b is not None else all_setups)
            if "" in common:  # the map as listed: say where they do not meet
                missing = tuple(s.label for s in sets if s.key not in common)
                only: tuple[str, ...] = ()
            else:
                missing, only = (), tuple(s.label for s in sets if s.key in common)
            names = tuple(mv.sector_name(s) for s in sorted(where, key=lambda s: _sector_order(mv, s)))
            out.append(attrs.evolve(c, map_id=map_id, maps=(map_id,), sectors=names,
                                    resolution=_subject(c.resolution), disagree=_subject(c.disagree.rstrip(".") + "."),
                                    where=c.where or f"in {compact_names(names)}",
                                    not_in=((map_id, missing),) if missing else (),
                                    only_in=((map_id, only),) if only else ()))

        for _q, group in sorted(by_query.items()):
            ordered = sorted(group, key=lambda p: p.touch.key)
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
                    if other is prot or other.touch.tier not in prot.touch.args:
                        continue
                    where = self.meet(mv, prot, other)
                    if not where or not self.lowers(other.touch, mv, where):
                        continue
                    hit.add(other.touch.tier)
                    finish(self.override(mv, prot, other, where), prot, other, where)
                idle = [t for t in prot.touch.args if t not in hit]
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

    def orient(self, mv: _MapView, a: _Placed, b: _Placed) -> tuple[_Placed, _Placed]:
        """The map's own effect first, else the lower tier (it applies first), else by id."""
        def rank(p: _Placed) -> tuple[int, int, tuple[str, int, str, str, str]]:
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
    def same_query(self, mv: _MapView, a: _Placed, b: _Placed, where: frozenset[str]) -> Conflict | None:
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

    def order(self, a: _Placed, b: _Placed) -> list[tuple[_Placed, _Placed]]:
        """The orders the engine can apply two touches in: lowest tier first; within a tier by when they
        came into play (rules and Sectors from the start, in id order), then by id."""
        ia, ib = self.tier_index(a.touch.tier), self.tier_index(b.touch.tier)
        if ia != ib:
            return [(a, b)] if ia < ib else [(b, a)]
        if a.fixed and b.fixed:
            return [(a, b)] if a.touch.source.owner <= b.touch.source.owner else [(b, a)]
        if a.fixed != b.fixed:
            return [(a, b)] if a.fixed else [(b, a)]
        return [(a, b), (b, a)]

    def base(self, mv: _MapView, q: str, where: frozenset[str]) -> tuple[int | None, str]:
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
            return info.default, f"{_number(info.default)}, the rules' value"
        return None, "its value before"

    def resolve(self, mv: _MapView, kind: Kind, a: _Placed, b: _Placed, where: frozenset[str]) -> Conflict:
        ta, tb = a.touch, b.touch
        q = ta.query
        info = self.queries.get(q)
        minimum = info.minimum if info is not None else None
        sa, sb = self.side(a, mv), self.side(b, mv)
        names = {id(a): sa.name, id(b): sb.name}
        qn = self.qname(q)
        disagree = f"{self.qphrase(q)}: {sa.name} {_does(ta)}; {sb.name} {_does(tb)}"
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
                texts.append(f"{names[id(first)]} {_does(first.touch)}, then {names[id(last)]} "
                             f"{_does(last.touch)}: {result}")
        else:
            if "add" in {ta.op, tb.op}:
                rules.append(RULE_ADD)
            base, base_text = self.base(mv, q, where)
            clamped = False
            for first, last in orders:
                low, high, cl = _combine(base, [first.touch, last.touch], minimum)
                clamped |= cl
                outcomes.append(Outcome("a" if first is a else "b", low, high, None, base))
                result = f"{qn} = {_range_text(low, high)}" if low is not None else \
                    f"{qn} = {base_text}, changed by both"
                if cl:
                    result += f" (never below {minimum})"
                results.append(result)
                texts.append(f"{names[id(first)]} {_does(first.touch)}, then {names[id(last)]} "
                             f"{_does(last.touch)}: {result}")
            if clamped:
                rules.append(RULE_CLAMP)
        distinct = {(o.low, o.high, o.flag) for o in outcomes}
        value: str | None = None
        if len(distinct) == 1:
            o = outcomes[0]
            if o.flag is not None:
                value = "allowed" if o.flag else "not allowed"
            elif o.low is not None:
                value = _range_text(o.low, o.high)
        if len(orders) == 1:
            first, last = orders[0]
            winner = "a" if last is a else "b"
            if ta.tier != tb.tier:
                lead = (f"{names[id(last)]} has the last word ({self.tier_name(last.touch.tier)} rank above "
                        f"{self.tier_name(first.touch.tier)})")
                if last.touch.op == "add":
                    lead = (f"{names[id(last)]}'s change applies after {names[id(first)]}'s "
                            f"({self.tier_name(last.touch.tier)} rank above {self.tier_name(first.touch.tier)})")
            else:
                lead = (f"Same tier, both in play from the start: they apply in id order "
                        f"({first.touch.source.owner} before {last.touch.source.owner}), so {names[id(last)]} "
                        "has the last word")
            resolution = f"{lead}. {_subject(texts[0])}."
        else:
            winner = "later"
            resolution = ("Same tier: whichever came into play later applies last. "
                          f"If {names[id(orders[0][0])]} came first: {texts[0]}. "
                          f"If {names[id(orders[1][0])]} came first: {texts[1]}.")
            if value is not None:
                resolution += f" Either way {results[0]}."
        return Conflict(kind, None, (), q, self.query_text(q), sa, sb, disagree, resolution, tuple(rules),
                        winner, value, tuple(outcomes))

    # ------------------------------------------------------------ overrides
    def lowers(self, t: Touch, mv: _MapView, where: frozenset[str]) -> bool:
        if t.op == "add":
            return t.value is None or t.value[0] < 0
        if t.op == "set":
            if t.value is None:
                return True
            base, _ = self.base(mv, t.query, where)
            return base is None or t.value[0] < base
        return False

    def override(self, mv: _MapView, prot: _Placed, other: _Placed, where: frozenset[str]) -> Conflict:
        sa, sb = self.side(prot, mv), self.side(other, mv)
        q = prot.touch.query
        qn = self.qname(q)
        tiers = " or ".join(self.tier_name(t) for t in prot.touch.args)
        base, base_text = self.base(mv, q, where)
        rank = (f"although {self.tier_name(other.touch.tier)} rank above {self.tier_name(prot.touch.tier)}"
                if self.tier_index(other.touch.tier) > self.tier_index(prot.touch.tier) else "whatever its rank")
        resolution = (f"{sa.name} wins, {rank}: {sb.name}'s '{other.touch.statement}' is overruled, and {qn} "
                      f"stays at {base_text}.")
        disagree = f"{self.qphrase(q)}: {sa.name} lets no {tiers} lower it; {sb.name} {_does(other.touch)}"
        return Conflict("override", None, (), q, self.query_text(q), sa, sb, disagree, resolution,
                        (RULE_EXPLICIT,), "a", str(base) if base is not None else None,
                        (Outcome("a", base, base, None, base),))

    def idle(self, mv: _MapView, prot: _Placed, idle: list[str], some: bool) -> Conflict:
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
    def linked(self, mv: _MapView, link: Link, a: _Placed, b: _Placed, where: frozenset[str]) -> Conflict:
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
        return Conflict("permission", None, (), q, self.query_text(link.first[0]), sa, sb, _subject(disagree),
                        resolution, (link.rule,), "a" if link.winner == "first" else "b", None, where=spot)

    # ------------------------------------------------------------ all maps
    def run(self, map_ids: Iterable[str]) -> Report:
        collected: dict[tuple[object, ...], list[Conflict]] = {}
        per_map: list[Conflict] = []
        maps = sorted(map_ids)
        for mid in maps:
            mv = _MapView(self.content, self.content.maps[mid])
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


def _merge(conflicts: list[Conflict], mv: _MapView) -> list[Conflict]:
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


def compact_names(names: Sequence[str]) -> str:
    """'Operation Deadstick, Sword Sector 1' ... 'Sword Sector 15' -> 'Operation Deadstick: Sword Sectors 1
    to 15'; 'Sector 9', 'Sector 10' -> 'Sectors 9 and 10'."""
    if not names:
        return ""
    if len(names) == 1:
        return names[0]
    head = ""
    heads = {n.split(", ", 1)[0] for n in names if ", " in n}
    if len(heads) == 1 and all(", " in n for n in names):
        head = next(iter(heads)) + ": "
        names = [n.split(", ", 1)[1] for n in names]
    groups: dict[str, list[int]] = {}
    others: list[str] = []
    for n in names:
        m = re.fullmatch(r"(.*\D)\s(\d+)", n)
        if m:
            groups.setdefault(m.group(1), []).append(int(m.group(2)))
        else:
            others.append(n)
    parts = []
    for pre, nums in groups.items():
        parts.append(f"{pre} {nums[0]}" if len(nums) == 1 else f"{pre}s {_runs(nums)}")
    return head + _and(parts + others)


def _runs(nums: list[int]) -> str:
    nums = sorted(set(nums))
    parts: list[str] = []
    i = 0
    while i < len(nums):
        j = i
        while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
            j += 1
        if j - i >= 2:
            parts.append(f"{nums[i]} to {nums[j]}")
        else:
            parts += [str(n) for n in nums[i:j + 1]]
        i = j + 1
    return _and(parts)


def _and(parts: Sequence[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _sector_order(mv: _MapView, sid: str) -> tuple[int, str]:
    ids = [s.id for s in mv.bm.sectors]
    return (ids.index(sid) if sid in ids else len(ids), sid)


def _subject(text: str) -> str:
    return text[:1].upper() + text[1:]


def _number(n: int) -> str:
    return "unlimited" if n >= UNLIMITED else str(n)


def _does(t: Touch) -> str:
    """What a touch does to its query, in a few words."""
    match t.op:
        case "set":
            if t.value is not None:
                return f"sets it to {_range_text(t.value[0], t.value[1])}"
            return f"sets it ({t.statement})"
        case "add":
            amount = t.statement.split(None, 1)[1] if " " in t.statement else t.statement
            amount = amount.split(" per ", 1)[0].lstrip("+-")
            if t.value is not None and t.value[1] < 0:
                return f"lowers it by {amount}"
            if t.value is not None and t.value[0] > 0:
                return f"raises it by {amount}"
            return f"changes it ({t.statement})"
        case "forbid":
            return "forbids it"
        case "allow":
            return "allows it"
        case "protect":
            return "protects it"
    return t.statement


def _range_text(low: int | None, high: int | None) -> str:
    if low is None or high is None:
        return "unknown"
    return _number(low) if low == high else f"{_number(low)} to {_number(high)}"


def _combine(base: int | None, seq: Sequence[Touch], minimum: int | None) -> tuple[int | None, int | None, bool]:
    """Apply touches in order, as interpreter/core/precedence.py does: (least, greatest, clamped).

    The value is ``coef * base + [low, high]``; with an unknown base it is known only once a set has
    replaced it. An unknown amount (a change 'per' something) makes it unknown.
    """
    coef, low, high = 1, 0, 0
    for t in seq:
        if t.value is None:
            return None, None, False
        if t.op == "set":
            coef, low, high = 0, t.value[0], t.value[1]
        elif t.op == "add":
            low, high = min(low + t.value[0], UNLIMITED), min(high + t.value[1], UNLIMITED)
    if coef == 1:
        if base is None:
            return None, None, False
        low, high = low + base, high + base
    clamped = minimum is not None and low < minimum
    if minimum is not None:
        low, high = max(low, minimum), max(high, minimum)
    return low, high, clamped


def analyse(content: Content, maps: Iterable[str] | None = None) -> Report:
    """Every pair of effects that can meet in a game and disagree, grouped by map."""
    return _Analyser(content).run(maps if maps is not None else content.maps)
