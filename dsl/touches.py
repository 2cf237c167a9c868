"""Touches: each effect's part in a value or permission, found statically in its tree, where on a map it can act,
and which permissions decide the same thing. Read by the conflict finder (:mod:`ddaydice.dsl.conflicts`); a
statement's part comes from its word's conflict signature (:mod:`ddaydice.dsl.words`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

import attrs

from ddaydice.dsl import ast, words
from ddaydice.dsl.compile import EffectSource
from ddaydice.dsl.loader import Content
from ddaydice.dsl.render import Renderer
from ddaydice.dsl.schema import BattleMap
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

# Standing modifiers the engine reads (interpreter/effects/sources.py, the index of the effects in play): the
# game's rules and options, the Sector's own attributes, and the Specialists and Vehicle a Unit holds. Items and Awards
# act only through what they are used for.
STANDING_KINDS = frozenset({"rule", "option", "sector", "specialist", "vehicle"})

Lit = tuple[str, bool]


def reach(stmt: ast.Statement) -> Touches:
    """A statement's conflict signature, from its word's record (:mod:`ddaydice.dsl.words`); a query changed
    ('def -2') is read by the analyser itself."""
    spec = words.action(stmt.verb.name) or words.modifier(stmt.verb.name)
    return spec.touches(stmt) if spec is not None else NOTHING


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
    waiting: bool = False  # the card's own price: it acts while the card waits, first in its tier (played 0)

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


def clause_dsl(src: EffectSource, ci: int) -> str:
    """A clause of an effect as written (its lines, joined), read off the effect's text by the clauses' lines."""
    lines = src.text.splitlines()
    clauses = src.tree.clauses
    start = clauses[ci].pos.line - src.line
    end = clauses[ci + 1].pos.line - src.line if ci + 1 < len(clauses) else len(lines)
    return " ".join(line.strip() for line in lines[max(start, 0):max(end, start + 1)] if line.strip())


def event_query(event: str) -> str:
    """What the triggers (and replacing uses) of a pending event are filed under ('on casualties'): never a query's
    id, which has no space."""
    return f"on {event}"


#: The query that prices a card, by what it is held as (a kind of another side's cards is held as one of these).
PRICE_QUERIES = {"specialist": "specialist-cost", "item": "item-cost", "vehicle": "item-cost"}


def _waiting(stmt: ast.Statement) -> bool:
    """Whether a modifier is what a card says of itself while it waits to be bought (its word's record)."""
    spec = words.modifier(stmt.verb.name)
    return spec is not None and spec.waiting


class Extractor:
    def __init__(self, content: Content) -> None:
        self.content = content
        self.numbers = content.vocab.numbers()
        self.renderer = Renderer({cid: c.name for cid, c in content.cards.items()})
        self.implied: dict[str, frozenset[Lit]] = {}
        # Cards drawn into play for every Unit (Battle Conditions) stand like a rule while in play.
        self.in_play_kinds = frozenset(k.id for k in content.kinds.kinds if k.held_by == "game")

    def sided(self, src: EffectSource) -> bool:
        """Whether an effect is a card of another side (rules/sides.yaml: the German player's)."""
        kind = self.content.kind_def(self.content.card_kinds.get(src.owner, ""))
        return kind is not None and kind.side is not None

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
            bound = words.ceiling(stmt.args)  # 'locked-dice at most 1'
            if bound is not None:
                return v, words.AT_MOST, _value(bound) if isinstance(bound, ast.Number) else None, ()
            arg = stmt.args[0]
            if not isinstance(arg, ast.Assign | ast.Signed | ast.Dice):
                return None
            value = _value(arg) if stmt.per is None else None
            against = words.guarded_set(stmt.args)  # a set that is a protection too ('mgf-dice = 0 against raising')
            if against is not None:
                return v, "protect", value, against
            return v, "set" if isinstance(arg, ast.Assign) else "add", value, ()
        change = reach(stmt).change
        if change is None or not self.may_ask(stmt, change):
            return None
        return change.query, change.op, None, tuple(str(a) for a in change.args)

    def may_ask(self, stmt: ast.Statement, change: Change) -> bool:
        """Whether an action that asks a permission of dice of some faces ('reroll-skull': of a Skull) may meet
        such a die: not when its face filter names only other faces ('reroll 1 die courage')."""
        if not change.faces:
            return True
        vocab = self.content.vocab
        named = {vocab.face_aliases.get(a.name, a.name) for a in stmt.args if isinstance(a, ast.Word)}
        named &= vocab.faces
        return not named or bool(named & set(change.faces))

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
                if _waiting(body.statement):  # the card's own price: a change of its cost query while it waits
                    if shown is None:
                        out += self.own_price(src, ci, body, outer)
                    continue
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
            if shown is None:
                out += self.on_pending(src, ci, body, outer)
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
                                                depth=depth + 1, shown_stmt=shown_stmt or ast.statement_dsl(stmt))
                        continue
                    found = self.statement(stmt)
                    if found is None or found[1] == "require":
                        continue
                    if found[1] == "asks" and opt.recipient is None and self.sided(src):
                        continue  # another side's player stands in no Sector: no Sector's forbid reaches him
                    out.append(self.make(reported, rci, found, False,
                                         opt.recipient.kind if opt.recipient is not None else None,
                                         src.tier, olits, stmt, src if shown is not None else None, ci,
                                         shown_stmt))
        return out

    def on_pending(self, src: EffectSource, ci: int, body: ast.Trigger | ast.Use, outer: frozenset[Lit]
                   ) -> list[Touch]:
        """A trigger on a pending event ('on casualties: ...'), or a use at its moment that replaces it ('use when
        casualties: instead, ...'), filed under :func:`event_query`: ``replace`` when its actions replace the
        event, ``hear`` for a trigger that only acts on it, ``replace-use`` for a use (offered after every
        trigger, the player's choice). Its text is the clause as written."""
        if isinstance(body, ast.Trigger):
            event, op = body.event.name, "replace" if words.replaces_event(body.actions) else "hear"
        elif body.window is not None and body.window.kind == "when" and words.replaces_event(body.actions):
            event, op = body.window.moment.name, "replace-use"
        else:
            return []
        record = words.event(event)
        if record is None or not record.pending:
            return []
        clause = src.tree.clauses[ci]
        text = clause_dsl(src, ci) or event
        lits = condition_literals(body.condition) | self.implied_literals(src, True) | outer
        return [Touch(src, ci, event_query(event), op, None, (), True, clause.scope.kind if clause.scope else None,
                      src.tier, lits, text, self.renderer.clause(clause))]

    def own_price(self, src: EffectSource, ci: int, body: ast.Modifier, outer: frozenset[Lit]) -> list[Touch]:
        """A card's own price ('cost = 0 if have soldiers < 3'): a change of the query that prices a card of its
        kind (specialist-cost for what is recruited, item-cost for what is found), in the card's tier, asked of
        that card alone (``card-is``), while it waits to be bought: the card is not in play then."""
        kind_id = self.content.card_kinds.get(src.owner, "")
        kind = self.content.kind_def(kind_id)
        role = (kind.held_as or kind.id) if kind is not None else kind_id
        query = PRICE_QUERIES.get(role)
        stmt = body.statement
        if query is None or not stmt.args:
            return []
        op = "set" if isinstance(stmt.args[0], ast.Assign) else "add"
        card_is = words.reading("card-asked")
        lits = condition_literals(body.condition) | self.implied_literals(src, False) | outer | (
            {(f"{card_is} {src.owner}", True)} if card_is is not None else set())
        return [attrs.evolve(self.make(src, ci, (query, op, _value(stmt.args[0]), ()), True, None, src.tier,
                                       frozenset(lits), stmt, None, ci), waiting=True)]

    def make(self, src: EffectSource, ci: int, found: tuple[str, str, tuple[int, int] | None, tuple[str, ...]],
             standing: bool, scope: str | None, tier: str, lits: frozenset[Lit], stmt: ast.Statement,
             via: EffectSource | None, via_ci: int, shown_stmt: str = "") -> Touch:
        query, op, value, args = found
        return Touch(src, ci, query, op, value, args, standing, scope, tier, lits,
                     ast.statement_dsl(stmt), self.renderer.statement(stmt), via, via_ci, shown_stmt)


def touches(content: Content, src: EffectSource) -> list[Touch]:
    """Every change an effect makes to a query or permission (standing, or granted by its actions)."""
    return Extractor(content).touches(src)


# ================================================================== placement
@attrs.frozen
class Placed:
    touch: Touch
    sectors: frozenset[str]  # where it can act on this map
    setups: frozenset[str]  # which set-ups of the map it can be in play in (Setup.key)
    fixed: bool  # in play from the start, in a fixed order (played 0 in the engine): rules, Sectors


class MapView:
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


def compatible(a: frozenset[Lit], b: frozenset[Lit], options: frozenset[str]) -> bool:
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
         "the Unit moves, if at all, paying Courage and meeting every requirement; an effect that asks 'if "
         "allowed battle-cry-here' (the Battle Cry RWB, the Dexedrine) gives nothing there, and a use that "
         "asks it is refused",
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
    Link(("recruit", "forbid"), ("recruit", "act"), "second", "same",
         "whether a Specialist can be recruited here: {a} forbids recruiting, {b} recruits one",
         "the recruit happens: the engine asks the 'recruit' permission only when a Unit buys Specialists in "
         "Phase 3, never for a recruit made by an effect",
         RULE_NONE),
)
