"""Why the rules refuse a scenario's step: a refusal's code, its message, and the rule that refuses it.

A scenario's step (``use:``, ``find:``, ``move:``, ...) that the rules refuse gives a :class:`Refusal`; the
scenario's ``refused: CODE`` (or a fragment of the message) says which refusal it expects (docs/scenarios.md).
The message names what refuses: the card's timing, its condition where the Unit stands, its limit, or the rule
(a Sector, a card) whose permission forbids the step, with that permission's derivation.
"""

from __future__ import annotations

import attrs

from ddaydice.dsl.compile import EffectSource, UseHook, limit_words
from ddaydice.dsl.words.events import USE_POINTS
from ddaydice.interpreter.core.precedence import Derivation
from ddaydice.interpreter.core.state import Unit
from ddaydice.interpreter.core.values import TRADE_RESOURCES
from ddaydice.interpreter.game import Game
from ddaydice.interpreter.mechanisms import decks

# Every refusal code, and what it means (docs/scenarios.md lists them).
CODES: dict[str, str] = {
    "not-held": "the Unit does not hold the card it would use",
    "no-use": "the card has no use to play",
    "timing": "the card is played, or the step taken, in another phase than the one the game stands in",
    "condition": "the card's condition is not met (where the Unit stands, what it holds)",
    "limit": "a limit is reached (once per turn, once per game, the purchases or the move of a turn, a card's "
             "limit on its trade: the Messenger's once per turn per card)",
    "forbidden": "a rule (a Sector's, a card's) forbids it: the refusal names it",
    "cost": "the Unit cannot pay the cost (Stars, Item Points, the Courage of an Advance)",
    "unavailable": "the card is not there to take (not in the Pool, or a Vehicle while the Unit has one)",
    "requirement": "the Sector's requirement is not met (a Specialist to have or to sacrifice)",
    "illegal-move": "the move is not among the Unit's legal moves (not next to it, visited, no room)",
    "no-deck": "the deck is not in this game (its optional rule is off; a deck no loaded pack has is an error "
               "before the run)",
    "other-sector": "not in the same Sector (two Units trading; a card that serves the Units of its own Sector)",
    "not-enough": "the Unit has not that much to give (a trade never gives its last Soldier)",
    "not-tradeable": "the Unit cannot trade that (a Specialist other than the Messenger, its last man, a Vehicle "
                     "to a Unit that has one, an Award)",
}


# The refusals each kind of step can meet (a step that is never refused, a phase or a turn, has none).
STEP_CODES: dict[str, tuple[str, ...]] = {
    "use": ("not-held", "no-use", "timing", "condition", "limit", "other-sector"),
    "move": ("timing", "illegal-move", "limit", "forbidden", "requirement", "cost"),
    "recruit": ("timing", "forbidden", "limit", "unavailable", "cost"),
    "find": ("timing", "forbidden", "limit", "unavailable", "cost"),
    "draw": ("no-deck", "limit"),
    "trade": ("timing", "forbidden", "other-sector", "not-enough", "not-tradeable", "not-held", "limit"),
}


@attrs.frozen
class Refusal:
    """A step the rules refuse: its code (one of :data:`CODES`), why in words, and, when a permission refuses
    it, that permission's derivation."""

    code: str
    message: str
    derivation: Derivation | None = None

    def matches(self, expected: object) -> bool:
        """Whether this is the refusal a step's ``refused:`` expects: ``true`` any refusal, a code that code, a
        text a fragment of the message (case aside)."""
        if expected is True:
            return True
        text = str(expected).strip()
        if text in CODES:
            return text == self.code
        return bool(text) and text.lower() in self.message.lower()

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


def use_refused(game: Game, unit: Unit, card: str, points: tuple[str, ...], phase: str) -> Refusal:
    """Why the Unit may not use ``card`` at these moments (``points``, those of ``phase``): no use, its timing,
    or the first test the game's offer of uses (effects/uses.py) fails, in the order the game reads them."""
    name = game._name_of(card)
    moments = (*points, *(p for p in USE_POINTS if p not in points))
    everywhere = [(point, c) for point in moments for c in _candidates(game, unit, point) if c[0].owner == card]
    if not everywhere:
        return Refusal("no-use", f"the {name} has no use {unit.name} may play")
    here = [c for point, c in everywhere if point in points]
    if not here:
        at = sorted({point for point, _ in everywhere}, key=moments.index)
        return Refusal("timing", f"the {name} is played at {', '.join(at)}, not in phase '{phase}'")
    refusals = [_refused_use(game, unit, *c) for c in here]
    return next((r for r in refusals if r.code != "condition"), refusals[0])


def _candidates(game: Game, unit: Unit, point: str) -> list[tuple[EffectSource, int, UseHook, str]]:
    """The uses the Unit could make at this moment before their tests (another side's player: his own)."""
    if not unit.side:
        return game._use_candidates(unit, point)
    sources: list[tuple[EffectSource, str]] = [(s, "") for s in game.side_sources.get(unit.side, ())]
    sources += [(src, card) for card, src in game._held_effects(unit)]
    return [(src, i, hook, card) for src, card in sources for i, hook in game._uses_at(src, point)]


def _refused_use(game: Game, unit: Unit, src: EffectSource, i: int, hook: UseHook, card: str) -> Refusal:
    """Why this use is not offered: the first of the game's tests it fails (effects/uses.py)."""
    name = game._name_of(src.owner)
    owner = card.split(":", maxsplit=1)[0] if ":" in card else None
    if hook.scope == "units-here" and owner is not None and game.state.unit(owner).sector != unit.sector:
        return Refusal("other-sector", f"the {name} serves the Units in its own Sector only")
    if card in unit.cards and decks.spent(game, unit, card):
        return Refusal("limit", f"the {name} was already used this turn")
    where = f" in {game.sectors[unit.sector].name}" if unit.sector in game.sectors else ""
    ctx = game.context(unit, unit, src, unit.sector or None)
    if hook.condition is not None and not hook.condition.holds(ctx):
        return Refusal("condition", f"the {name}'s condition is not met for {unit.name}{where}: {hook.text}")
    if hook.feasible is not None and not hook.feasible(ctx):
        failed = "; ".join(f"'{text}' " + ("cannot be paid (no such card to lose)" if pays else
                                            "would do nothing here" + (f" (it acts only{needs(ctx)})" if needs
                                                                       else ""))
                           for text, pays, check, needs in hook.checked if not check(ctx))
        return Refusal("condition", f"the {name} can do nothing for {unit.name}{where}, none of its actions can act "
                                    f"there (ruling 10.9): {failed or hook.text}")
    if hook.limit is not None and game._limit_used(unit, game._holder_of(unit, card), src.owner, i, hook.limit):
        return Refusal("limit", f"the {name} was already used ({limit_words(hook.limit)})")
    return Refusal("condition", f"the {name} cannot be used by {unit.name}{where}: {hook.text}")


def purchase_refused(game: Game, unit: Unit, kind: str, card: str) -> Refusal:
    """Why the Unit may not ``kind`` (recruit, find) ``card`` now: the rule that forbids it here, the turn's
    limit, the card's absence, or its cost."""
    name = game._name_of(card)
    allowed, derivation = game.query(kind, unit, explain=True)
    if not allowed:
        by = [step.source_name for step in derivation.steps if step.op == "forbid" and not step.overruled_by] \
            if derivation else []
        rule = " and ".join(by) if by else "a rule"
        return Refusal("forbidden", f"{rule} forbids {game.queries[kind].name} here ({unit.name} cannot {kind} the "
                       f"{name})", derivation)
    per_turn = "recruits-per-turn" if kind == "recruit" else "finds-per-turn"
    done = unit.recruited if kind == "recruit" else unit.found
    if done >= game.value(per_turn, unit):
        return Refusal("limit", f"{unit.name} has made the {kind}s this turn allows ({done})")
    if kind == "recruit":
        there = [c for c in game.state.hands.get(unit.id, []) + game.state.pool
                 if game.content.card_kinds.get(c) == game.content.card_kinds.get(card)
                 and c not in unit.specialists and c not in unit.dead]
    else:
        there = [cid for cid, _ in game.findable(unit, free=True)]
    if card not in there:
        return Refusal("unavailable", f"the {name} is not there for {unit.name} to {kind}")
    cost = game.card_values("specialist-cost" if kind == "recruit" else "item-cost", unit, [card])[0]
    purse, money = (unit.stars, "Stars") if kind == "recruit" else (unit.item_points, "Item Points")
    return Refusal("cost", f"{unit.name} cannot pay the {name}'s {cost} {money} (it has {purse})")


# The checks of a move (phases/movement.py, explain_entry) by the refusal code their failure gives.
_MOVE_CODES = {"one move per turn": "limit", "Barrier": "forbidden", "may Advance": "forbidden",
               "the Sector lets it in": "forbidden", "requirements": "requirement", "Battle Cry": "requirement",
               "Courage": "cost"}


def move_refused(game: Game, unit: Unit, to: str) -> Refusal:
    """Why the Unit may not move into ``to`` now: the first check of the move it fails, with every check."""
    legal = ", ".join(m.to or "stay" for m in game.legal_moves(unit)) or "none"
    if to not in game.sectors:
        return Refusal("illegal-move", f"there is no Sector '{to}' (legal moves of {unit.name}: {legal})")
    _allowed, derivation = game.explain_entry(unit, to)
    failed = [step for step in derivation.steps if not step.after]
    if not failed:
        return Refusal("illegal-move", f"{unit.name} may not move to {game.sectors[to].name} now (legal: {legal})",
                       derivation)
    first = failed[0]
    return Refusal(_MOVE_CODES.get(first.source_name, "illegal-move"),
                   f"{unit.name} may not move to {game.sectors[to].name}: {first.source_name}: {first.text}",
                   derivation)


def trade_refused(game: Game, unit: Unit, oid: str, what: str, amount: int = 1) -> Refusal:
    """Why the Unit may not give ``what`` (``amount`` of a resource, or a card) to the Unit ``oid`` now, among the
    turn's offers of a trade (phases/purchase.py): nobody to trade with there, not that much to give, or a card the
    rules do not let it trade."""
    other = game.state.unit(oid)
    if other is unit or other.status != "active":
        return Refusal("not-tradeable", f"{unit.name} cannot trade with {other.name}")
    if len(game.state.units) == 1 or not game.flag("trade", unit):
        allowed, derivation = game.query("trade", unit, explain=True)
        return Refusal("forbidden", f"{unit.name} may not trade now", derivation if not allowed else None)
    if other.sector != unit.sector and not game.flag("trade-anywhere", unit):
        return Refusal("other-sector", f"{unit.name} and {other.name} are not in the same Sector")
    if what in TRADE_RESOURCES:
        spare = dict(game.tradeable_resources(unit))[what]
        words = what.replace("_", " ")
        if what == "soldiers" and spare < min(amount, unit.soldiers):
            return Refusal("not-enough", f"{unit.name} may give {spare} Soldiers, not {amount}: not its last Soldier "
                           "(a trade never leaves a Unit without Soldiers)")
        return Refusal("not-enough", f"{unit.name} has {spare} {words} to give, not {amount}")
    name = game._name_of(what) if what in game.content.card_kinds else f"'{what}'"
    if what in unit.specialists:
        if game.flag("trade-specialist", unit, card=what):
            return Refusal("not-tradeable", f"the {name} is {unit.name}'s last man: a trade never leaves a Unit "
                           "without its men")
        spent = game.used_up("trade-specialist", unit, card=what)
        if spent:
            return Refusal("limit", f"the {name} may not be traded now: {spent[0]}")
        return Refusal("not-tradeable", f"Specialists may never be traded (the {name} is not one a rule lets "
                       f"{unit.name} trade)")
    if what == unit.vehicle:
        return Refusal("not-tradeable", f"{other.name} has a Vehicle already: it cannot take the {name}")
    if what in unit.awards or what in unit.cards:
        return Refusal("not-tradeable", f"the {name} may not be traded")
    return Refusal("not-held", f"{unit.name} does not hold the {name}") if what in game.content.card_kinds else \
        Refusal("not-tradeable", f"{unit.name} cannot trade {name}")
