"""What cards do, read from their effects: what the other side's cards take, what hurts him, how to play a card."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from ddaydice.dsl import ast as dsl_ast
from ddaydice.interpreter.core.api import GameView
from ddaydice.interpreter.policies.heuristic.model import MGF_MEAN
from ddaydice.interpreter.policies.heuristic.percontent import memos, remember
from ddaydice.interpreter.policies.heuristic.statements import (
    actions_of,
    amount_of,
    assigned,
    named,
    options_allow,
    words_of,
)


def foe_pressure(game: GameView, card: str) -> tuple[float, float, bool]:
    """What another side's card in play takes from the Units every turn, read from its effect's uses once per turn
    that the game's options allow: (Soldiers, Courage, whether it hits one Unit of his choice rather than all)."""
    table = memos(game.content).pressure
    key = (card, tuple(sorted(game.options)))
    found = table.get(key)
    if found is None:
        soldiers = courage = 0.0
        one = False
        for body, part in _actions(game, card):
            st, to = part.statement, part.recipient
            if not (isinstance(body, dsl_ast.Use) and body.limit is not None and body.limit.period == "turn"
                    and options_allow(body.condition, game.options)
                    and to is not None and to.kind in {"another-unit", "all-units"} and st.args):
                continue
            n, verb, what = st.args[0], st.verb.name, named(st, 1)
            if verb == "lose" and isinstance(n, dsl_ast.Number) and what in {"soldiers", "courage"}:
                if what == "soldiers":
                    soldiers += n.value
                else:
                    courage += n.value
            elif verb in {"def", "mgf-dice"} and isinstance(n, dsl_ast.Signed) and n.value > 0 \
                    and part.duration == "this-turn":
                soldiers += n.value if verb == "def" else MGF_MEAN * n.value
            else:
                continue
            one = one or to.kind == "another-unit"
        found = remember(table, key, (soldiers, courage, one))
    return found


def _actions(game: GameView, card: str) -> Iterable[tuple[dsl_ast.Trigger | dsl_ast.Use, dsl_ast.Option]]:
    """Each action of ``card``'s effect (statements.actions_of), none for a card without one."""
    source = game.content.effects.get(card)
    return actions_of(source.tree) if source is not None else ()


#: What a loss is worth to the other side, in Soldiers (a Specialist: his body and what he does).
_FOE_LOSS: Final = {"soldiers": 1.0, "specialist": 3.0, "item": 1.0, "decoration": 2.0, "courage": 0.4, "star": 0.6}


def against_foe(game: GameView, card: str) -> tuple[float, float]:
    """What a Unit's card takes from another side's player, read from its effect (given 'to the german', or a die
    taken from his Final Tally): (once, each turn it works), in Soldiers. What is given to another side is worth
    nothing in a game without one."""
    foes = bool(game.side_defs)
    table = memos(game.content).against
    key = (card, foes)
    found = table.get(key)
    if found is None:
        once = each = 0.0
        for body, part in _actions(game, card):
            st, to = part.statement, part.recipient
            n = st.args[0] if st.args else None
            if not isinstance(n, dsl_ast.Number):
                continue
            what = named(st, 1)
            if st.verb.name == "steal" and what == "die":
                v = 1.5 * n.value
            elif st.verb.name in {"lose", "sacrifice", "discard"} and foes and to is not None \
                    and to.kind == "the-german":
                v = n.value * _FOE_LOSS.get(what if what == "soldiers" else what.rstrip("s"), 1.0)
            else:
                continue
            if body.limit is not None and body.limit.period == "turn":
                each += v
            elif isinstance(body, dsl_ast.Trigger) and body.event.name == "combat":
                each += 0.5 * v  # in the turns it stays
            else:
                once += v
        found = remember(table, key, (once, each))
    return found


def generic_use(game: GameView, card: str) -> str:
    """How the heuristic plays a card it has no rule of its own for (an expansion's, a modder's), read from the
    actions of its ``use`` effect: 'gain' (resources, free cards, a die that is not a Skull: at once), 'defence'
    (DEF, casualties or MGF lowered, MGF casualties ignored: kept for a turn that needs it), 'cost' (the Advance
    made cheaper) or 'mines' (Landmines ignored), both at the move that needs them; the dice it changes on the
    Final Tally, each played when the change is worth more than keeping the card: 'skull' (a Skull added: when
    a Climb needs one), 'reface' (a die turned to another face), 'recolour', 'reroll'; '' (not played) for a card
    that costs the Unit something (a Soldier, itself)."""
    table = memos(game.content).generic
    found = table.get(card)
    if found is None:
        source = game.effect_of.get(card)
        kinds: set[str] = set()
        for clause in source.tree.clauses if source is not None else ():
            body = clause.body
            if not isinstance(body, dsl_ast.Use):
                continue
            for action in body.actions:
                for option in action.options:
                    for st in (option.statement, *(o.statement for o in option.also)):
                        kinds.add(statement_kind(st, option.recipient is not None))
        ranked = [k for k in ("defence", "cost", "mines", "gain", "skull", "reface", "recolour", "reroll")
                  if k in kinds]
        found = "" if "self-cost" in kinds or not ranked else ranked[0]
        remember(table, card, found)
    return found


def statement_kind(st: dsl_ast.Statement, to_another: bool) -> str:
    """What one statement of a card's effect does for the Unit: 'self-cost', 'defence', 'cost', 'mines', 'gain',
    'skull', 'reface', 'recolour', 'reroll' or '' (see generic_use)."""
    verb = st.verb.name
    words = {a.name for a in st.args if isinstance(a, dsl_ast.Word)}
    lowered = any(isinstance(a, dsl_ast.Signed) and a.value < 0 for a in st.args) or any(
        isinstance(a, dsl_ast.Assign) and isinstance(a.value, dsl_ast.Number) and a.value.value == 0 for a in st.args)
    if verb in {"lose", "sacrifice", "discard"} and not to_another:
        return "self-cost"
    if (verb in {"def", "casualties", "mgf-dice"} and lowered) or (
            verb == "ignore" and words & {"mgf-casualties", "special-damage"}):
        return "defence"
    if verb == "advance-cost" and lowered:
        return "cost"
    if verb == "ignore" and "landmines" in words:
        return "mines"
    if verb == "add" and "skull" in words:
        return "skull"
    if verb in {"reface", "recolour", "reroll"}:
        return verb
    if verb in {"gain", "draw-award"} or (verb == "add" and "skull" not in words) or (
            verb in {"find", "recruit"} and "free" in words) or (
            verb == "gift-colours" and not any(isinstance(a, dsl_ast.Signed) and a.value > 0 for a in st.args)):
        return "gain"  # (a Dead Man's Gift of fewer colours: its 20 Item Points)
    return ""


def dice_colour(game: GameView, card: str) -> str | None:
    """The one colour of die a card's use changes ('reface 1 die blue'), None when any die."""
    source = game.effect_of.get(card)
    colours = set(game.content.dice.colours)
    for clause in source.tree.clauses if source is not None else ():
        if not isinstance(clause.body, dsl_ast.Use):
            continue
        for action in clause.body.actions:
            for option in action.options:
                for part in option.parts():
                    found = [a.name for a in part.statement.args if isinstance(a, dsl_ast.Word) and a.name in colours]
                    if part.statement.verb.name in {"reface", "reroll", "recolour"} and found:
                        return found[0]
    return None


class UseShape:
    """What a card's use does, told apart for the moment to play it (uses.py): ``kind`` is one of

    'gain' (resources, free cards, a result that is not a Skull: at once; at the Final Tally when it adds a
    result), 'recruit-for-soldiers' (a Specialist recruited for Soldiers), 'breaker' (a Sector's DEF lowered,
    played in Combat), 'mgf-before' (the MGF dice lowered before they are rolled), 'mgf-adjacent' (another
    Sector's MGF: not played), 'mgf-for-good' (a Specialist given up for the Sector's MGF), 'mgf-ignored' (MGF
    casualties ignored, after the roll), 'cost' (the Advance made cheaper), 'barriers', 'cry' (a Battle Cry),
    'stay' (a Specialist given up to stay), 'reroll', 'recolour', 'reface', 'skull' (a Skull added), 'tools'
    (Tools added), or '' (read by generic_use)."""

    __slots__ = ("amount", "any_roll", "bunker", "colour", "kind", "skulls", "tally", "zero")

    def __init__(self, kind: str, amount: float = 0.0, zero: bool = False, bunker: int = 0, colour: str | None = None,
                 any_roll: bool = False, skulls: bool = False, tally: bool = False) -> None:
        self.kind: Final = kind
        self.amount: Final = amount  # DEF or Courage off; Soldiers paid
        self.zero: Final = zero  # the value set to 0
        self.bunker: Final = bunker  # +1: a Bunker only; -1: not in a Bunker
        self.colour: Final = colour  # the one colour of die it changes
        self.any_roll: Final = any_roll  # it may change the MGF dice too
        self.skulls: Final = skulls  # it changes Skulls into something else
        self.tally: Final = tally  # played on the Final Tally


def use_shape(game: GameView, card: str) -> UseShape:
    """The shape of ``card``'s use (see UseShape), read once."""
    table = memos(game.content).shapes
    hit: UseShape | None = table.get(card)
    if hit is not None:
        return hit
    found = _shape(game, card)
    remember(table, card, found)
    return found


def _shape(game: GameView, card: str) -> UseShape:
    content = game.content
    source = content.effects.get(card)
    parts: list[dsl_ast.Option] = []
    window: tuple[str, str] | None = None
    bunker = 0
    for clause in source.tree.clauses if source is not None else ():
        body = clause.body
        if not isinstance(body, dsl_ast.Use):
            continue
        if body.window is not None:
            window = (body.window.kind, body.window.moment.name)
        bunker = bunker or condition_mentions(body.condition, "bunker")
        for action in body.actions:
            for option in action.options:
                parts += [p for p in option.parts()
                          if not (p.recipient is not None and p.recipient.kind == "the-german")
                          and not (p.statement.verb.name == "discard" and words_of(p.statement) == {"self"})]
    if not parts:
        return UseShape("")
    verbs = [p.statement.verb.name for p in parts]
    words = set().union(*(words_of(p.statement) for p in parts))
    amounts = [amount_of(p.statement) for p in parts]
    zero = any(assigned(p.statement) for p in parts)
    mine = all(p.recipient is None or p.recipient.kind == "units-here" for p in parts)
    colours = words & set(content.dice.colours)
    colour = next(iter(colours)) if colours else None
    vs = set(verbs)
    if vs == {"def"} and mine and window is None and all(a is not None and a <= 0 for a in amounts):
        return UseShape("breaker", -sum(a or 0.0 for a in amounts), zero, bunker)
    if vs == {"mgf-dice"} and all(p.recipient is not None and p.recipient.kind == "adjacent-sector" for p in parts):
        return UseShape("mgf-adjacent")
    if vs == {"mgf-dice"} and mine and window == ("before", "mgf") and all(
            p.duration in {"this-turn", "until"} and (a or 0) <= 0 for p, a in zip(parts, amounts, strict=True)):
        # 'until EVENT' lasts at least through this turn's MGF, as 'this turn' does
        return UseShape("mgf-before")
    if vs == {"mgf-dice", "sacrifice"} and words >= {"self"} and any(p.duration == "permanently" for p in parts):
        return UseShape("mgf-for-good")
    if vs == {"ignore"} and "mgf-casualties" in words and words <= {"mgf-casualties", "special-damage"}:
        return UseShape("mgf-ignored")
    if vs == {"advance-cost"} and mine and all(a is not None and a <= 0 for a in amounts):
        return UseShape("cost", 0.0 if zero else -sum(a or 0.0 for a in amounts), zero)
    if vs == {"ignore"} and words == {"barriers"}:
        return UseShape("barriers")
    faces = {r.id: r.face for r in content.rwb.rwb}
    if vs == {"rwb"} and any(faces.get(w) == "courage" for w in words):
        return UseShape("cry")
    if vs == {"sacrifice", "allow"} and "self" in words and "stay" in words:
        return UseShape("stay")
    if vs == {"lose", "recruit"} and "free" in words and words & {"soldier", "soldiers"}:
        return UseShape("recruit-for-soldiers", sum(a or 0.0 for v, a in zip(verbs, amounts, strict=True)
                                                    if v == "lose"))
    if vs == {"reroll"}:
        return UseShape("reroll", colour=colour)
    if vs == {"recolour"}:
        return UseShape("recolour", colour=colour)
    if vs == {"reface"}:
        return UseShape("reface", colour=colour, any_roll="any-roll" in words, skulls="skull" in words)
    if vs == {"add"} and "skull" in words:
        return UseShape("skull")
    if vs == {"gift-colours"}:  # a Dead Man's Gift of fewer colours: played on the Final Tally it is offered on
        return UseShape("gain", tally=True)
    if vs == {"add"} and words & {"tool"} and not words & {"skull"}:
        return UseShape("tools")
    gains = {"gain", "draw-award", "rwb", "find", "recruit", "add"}
    if vs <= gains and all(v not in {"find", "recruit"} or "free" in words_of(p.statement)
                           for v, p in zip(verbs, parts, strict=True)):
        adds = "add" in vs or any(_rwb_adds(content, w) for w in words if w in faces)
        return UseShape("gain", tally=adds or window == ("after", "final-tally"))
    return UseShape("")


def _rwb_adds(content: Any, bonus: str) -> bool:
    """Whether the RWB bonus adds a result to the Final Tally (so a card that scores it is played on the Tally)."""
    source = content.effects.get(f"rwb:{bonus}")
    for clause in source.tree.clauses if source is not None else ():
        for action in getattr(clause.body, "actions", ()):
            for option in action.options:
                if any(p.statement.verb.name == "add" for p in option.parts()):
                    return True
    return False


def condition_mentions(cond: dsl_ast.Condition | None, word: str) -> int:
    """+1 when the condition asks for ``word`` (a predicate such as 'bunker'), -1 when it asks for its absence,
    0 when it does not speak of it."""
    if cond is None:
        return 0
    return _mentions(cond.expr, word, -1 if cond.negated else 1)


def _mentions(e: Any, word: str, s: int) -> int:
    """condition_mentions within the expression ``e``, its sign so far ``s``. (A function of its own: a nested one
    calling itself would make a cycle, function and cell, that only the cyclic collector frees.)"""
    if isinstance(e, dsl_ast.Predicate):
        return s if e.word.name == word else 0
    if isinstance(e, dsl_ast.Not):
        return _mentions(e.operand, word, -s)
    for o in getattr(e, "operands", ()):
        r = _mentions(o, word, s)
        if r:
            return r
    return 0


def award_price(game: GameView, owner: str) -> int | None:
    """The Courage a use pays to draw an Award ('lose 6 courage, draw-award random': the rules' purchase of an
    Award, or any card or rule written so), or None when its use is not such a purchase (read once per content: the
    rules' purchase is asked of every turn)."""
    content = game.content
    pair = _AWARD_PRICES.pair
    if pair[0] is not content:  # (the pair is read and replaced whole: a sweep plays games in threads)
        pair = _AWARD_PRICES.pair = (content, {})
    memo = pair[1]
    if owner in memo:
        return memo[owner]
    price = memo[owner] = _award_price(game, owner)
    return price


class _PerContent:
    """A content and what was read of it (one slot, replaced whole)."""

    __slots__ = ("pair",)

    def __init__(self) -> None:
        self.pair: tuple[object, dict[str, int | None]] = (None, {})


_AWARD_PRICES: Final = _PerContent()


def _award_price(game: GameView, owner: str) -> int | None:
    """award_price's answer, read from the owner's effect."""
    source = game.effect_of.get(owner)
    if source is None:
        return None
    for clause in source.tree.clauses:
        body = clause.body
        if not isinstance(body, dsl_ast.Use):
            continue
        parts = [opt for action in body.actions for o in action.options for opt in o.parts()]
        verbs = {opt.statement.verb.name for opt in parts}
        if "draw-award" not in verbs:
            continue
        return sum(int(amount_of(opt.statement) or 0) for opt in parts
                   if opt.statement.verb.name == "lose" and "courage" in words_of(opt.statement))
    return None


def replacement_cost(game: GameView, owner: str, event: str) -> dict[str, float] | None:
    """What a 'use when EVENT: instead, ...' of ``owner`` pays in place of the event, by resource ('lose 2 courage':
    {'courage': 2}; a die counts its mean), or None when its use at that moment replaces nothing."""
    source = game.effect_of.get(owner)
    if source is None:
        return None
    for clause in source.tree.clauses:
        body = clause.body
        if not isinstance(body, dsl_ast.Use) or body.window is None or \
                (body.window.kind, body.window.moment.name) != ("when", event):
            continue
        parts = [opt for action in body.actions for o in action.options for opt in o.parts()]
        if not any(opt.statement.verb.name == "instead" for opt in parts):
            continue
        cost: dict[str, float] = {}
        for opt in parts:
            st = opt.statement
            if st.verb.name == "lose" and opt.recipient is None and st.args:
                first = st.args[0]
                n = MGF_MEAN * first.count if isinstance(first, dsl_ast.Dice) else abs(amount_of(st) or 0.0)
                for res in words_of(st):
                    cost[res] = cost.get(res, 0.0) + n
        return cost
    return None
