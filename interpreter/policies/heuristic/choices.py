"""The Unit's other answers: an 'or' between effects, the questions of 'choose', where to start, whether to remain."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ddaydice.dsl import ast as dsl_ast
from ddaydice.interpreter.core.api import GameView
from ddaydice.interpreter.core.decisions import Decision
from ddaydice.interpreter.policies.heuristic.dice import best_add, cry_gain, dice_context, pending_courage, worst_die
from ddaydice.interpreter.policies.heuristic.memory import Memory
from ddaydice.interpreter.policies.heuristic.statements import count_of, named, words_of
from ddaydice.interpreter.policies.heuristic.team import neediest
from ddaydice.interpreter.policies.heuristic.values import draw_value, item_value, star_value
from ddaydice.interpreter.policies.heuristic.views import plan_value

if TYPE_CHECKING:
    from ddaydice.interpreter.core.state import Unit


def either(mem: Memory, game: GameView, unit: Unit, d: Decision) -> int:
    """An 'or' between effects (the question's keys: the options' trees): the one worth most."""
    vals = [option_value(mem, game, unit, o) if isinstance(o, dsl_ast.Option) else 0.0 for o in d.keys]
    return max(range(len(vals)), key=lambda i: (vals[i], -i))


def option_value(mem: Memory, game: GameView, unit: Unit, option: dsl_ast.Option) -> float:
    """What one option of an 'or' is worth to the Unit, in Soldiers, read from its actions: a Battle Cry allowed, a
    result of its choice added, an Item found, cards drawn from a deck, Soldiers, Stars or Courage gained (the
    first of these it does, in that order; anything else is worth 0)."""
    parts = [p.statement for p in option.parts()]
    for st in parts:
        if st.verb.name == "allow" and "battle-cry" in words_of(st):
            return cry_gain(mem, game, unit, pending_courage(game, unit))
    for st in parts:
        if st.verb.name == "add" and "any" in words_of(st):
            colours = [w for w in words_of(st) if w in game.content.dice.colours]
            return best_add(mem, game, unit, colours[0] if colours else None)[1]
    for st in parts:
        if st.verb.name == "find" and count_of(st) == 1 and "item" in words_of(st):
            pts = unit.item_points
            vals = [item_value(mem, game, unit, c) for c, cost in game.findable(unit, free=True)
                    if game.value("item-cost", unit, card=c) <= pts]
            return max(vals, default=0.0)
    for st in parts:
        if st.verb.name == "draw" and named(st, 1):
            return count_of(st) * draw_value(mem, game, unit, named(st, 1))
    for p in option.parts():
        st = p.statement
        what = named(st, 1)
        if st.verb.name != "gain" or what not in _GAINED:
            continue
        n = count_of(st)
        other = p.recipient is not None and p.recipient.kind == "another-unit" and len(game.state.units) > 1
        if what == "soldiers":
            return float(n) * (0.8 if other else 1.0)
        if what == "stars":
            return n * star_value(mem, game, unit)
        if what == "courage":
            if other:
                return 0.8 * n
            c = pending_courage(game, unit)
            return max(0.1 * n, plan_value(mem, game, unit, c + n, at_roll=True)
                       - plan_value(mem, game, unit, c, at_roll=True))
        return 0.0  # Item points: not counted
    return 0.0


#: What an option's gain is read for (the first found decides).
_GAINED: Final = frozenset({"soldiers", "stars", "courage", "item-points"})


def choose(mem: Memory, game: GameView, unit: Unit, d: Decision) -> int:
    """A question of a card's effect, told apart by its topic (the die or colour a card changes as it meant, a result
    to add, an Award, a comrade, a Sector); the first option for a topic it does not know."""
    topic = d.topic
    keys = d.keys
    intent = mem.intent
    if topic == "reroll-die":
        want = intent.pop("reroll", None)
        for i, k in enumerate(keys):
            if want is not None and k[0] == want:
                return i
        return worst_die(mem, game, unit, [(k[0], k[1]) for k in keys])
    if topic == "recolour-die":
        want = intent.get("recolour")
        for i, k in enumerate(keys):
            if want is not None and k[0] == want[0]:
                return i
        return 0
    if topic == "recolour-colour":
        want = intent.pop("recolour", None)
        if want is not None and want[1] in keys:
            return keys.index(want[1])
        return 0
    if topic == "reface-die":
        want = intent.get("reface")
        if want is not None:
            for i, label in enumerate(d.options):
                if label == want[0]:
                    return i
        return 0
    if topic == "reface-face":
        want = intent.pop("reface", None)
        if want is not None and want[1] in keys:
            return keys.index(want[1])
        return _best_face(mem, game, unit, d)
    if topic == "add-result":
        return _best_face(mem, game, unit, d)
    if topic == "take-die" and keys and isinstance(keys[0], tuple) and len(keys[0]) == 3:
        ctx = dice_context(mem, game, unit)
        others = [(dd.face, dd.colour) for dd in unit.tally if not dd.cancelled]
        return max(range(d.size()), key=lambda i: (ctx.values(None, others).get(keys[i][1], 0.0), -i))
    if topic == "add-colour":
        have = {dd.colour for dd in unit.tally if dd.face == "skull" and not dd.cancelled and dd.real}
        for i, colour in enumerate(keys):
            if colour not in have:
                return i
        return 0
    if topic == "award":
        # The Award whose use is worth most (read from its effect).
        return min(range(d.size()), key=lambda i: (-item_value(mem, game, unit, str(keys[i])), i))
    if topic in {"other-unit", "copy-tally"}:
        return neediest(mem, game, list(keys)) if keys else 0
    if topic == "adjacent-sector":
        mates = {u.sector for u in game.state.active_units() if u is not unit}
        for i, k in enumerate(keys):
            if k in mates:
                return i
        return 0
    if topic == "in-place":
        return 1  # a Specialist who may be lost in place of another is lost (his card says he is worth less)
    return 0


def _best_face(mem: Memory, game: GameView, unit: Unit, d: Decision) -> int:
    """The face (of ``d``'s keys) best added to the Unit's Final Tally, of the colour the question is about (its
    detail: None, or 'any-colour', for a die of any colour)."""
    colour = d.detail if isinstance(d.detail, str) and d.detail in game.content.dice.colours else None
    face = best_add(mem, game, unit, colour)[0]
    return d.keys.index(face) if face in d.keys else 0


def start(mem: Memory, game: GameView, unit: Unit, d: Decision) -> int:
    """The starting Sector that gives the most."""
    def score(sid: str) -> float:
        st = game.sectors[sid].start
        if st is None:
            return -1e9
        v = st.soldiers + 0.7 * st.courage + 0.5 * st.stars + 0.3 * st.item_points
        v += sum(1.5 for _ in st.specialists)
        return v
    return max(range(d.size()), key=lambda i: (score(d.keys[i]), -i))


def remain(mem: Memory, game: GameView, unit: Unit, d: Decision) -> int:
    """Remain (to conquer an objective still open, as the last Unit) or leave."""
    open_obj = [b for b, sec in game.sectors.items() if sec.bunker and sec.objective
                and b not in game.state.conquered]
    others = [u for u in game.state.active_units() if u is not unit]
    want = "remain" if open_obj and not others else "leave"
    return d.keys.index(want) if want in d.keys else 0

