"""Actions of the expansions' decks and dice: draw, discard, pick, cancel, arrange-top, steal, pool-trade,
second-tally. Each record names its parts (see :mod:`ddaydice.dsl.words.base`)."""

from __future__ import annotations

from ddaydice.dsl import ast
from ddaydice.dsl.effect_context import Action, Cond
from ddaydice.dsl.words.actions_cards import has, holds
from ddaydice.dsl.words.base import ActionWord, Parts, Speaker, Wording, touches_nothing, words_of


def _deck_and_count(p: Parts) -> tuple[str, int]:
    """So many cards of a deck (1 unless a number says)."""
    return p.words[0], p.args[0].value if isinstance(p.args[0], ast.Number) else 1


def compile_draw(p: Parts) -> Action:
    deck, count = _deck_and_count(p)
    return lambda ctx: ctx.draw(deck, count)


def say_draw(r: Speaker, w: Wording) -> str:
    a = w.args
    n = a[0].value if isinstance(a[0], ast.Number) else 1
    return f"draw {n} {r.name(w.word(1))}" + (" cards" if n > 1 else "")


def compile_discard(p: Parts) -> Action:
    a, words, recipient = p.args, p.words, p.recipient
    card: str | int = a[0].value if isinstance(a[0], ast.Number) else words[0]
    held = words[0] if isinstance(a[0], ast.Number) and words else "item"
    return lambda ctx: ctx.discard(card, recipient, held)


def say_discard(r: Speaker, w: Wording) -> str:
    """This card, so many cards of the player's choice (Items by default), or a named one."""
    a = w.args
    if w.word(0) == "self":
        return "discard this card"
    if isinstance(a[0], ast.Number):
        if w.word(1) not in {"", "item"}:
            return f"lose {a[0].value} {r.name(w.word(1))} of your choice (discarded)"
        return f"lose {a[0].value} Item of your choice (it counts as used)"
    return f"lose the {r.name(w.word(0))} (it counts as used)"


def can_discard(stmt: ast.Statement) -> Cond | None:
    """Only a card the player has (of his choice: one of that kind at least)."""
    first = stmt.args[0] if stmt.args else None
    if isinstance(first, ast.Number):
        held = words_of(stmt.args)
        return holds(held[0] if held else "item")
    if isinstance(first, ast.Word) and first.name != "self":
        return has(first.name)
    return None


def compile_pick(p: Parts) -> Action:
    deck, count = _deck_and_count(p)
    return lambda ctx: ctx.pick(deck, count)


def compile_cancel(p: Parts) -> Action:
    cancelled = p.words[0]
    return lambda ctx: ctx.cancel(cancelled)


def compile_arrange_top(p: Parts) -> Action:
    deck, count = _deck_and_count(p)
    return lambda ctx: ctx.arrange_top(deck, count)


def compile_steal(p: Parts) -> Action:
    filters, amount = tuple(w for w in p.words if w != "die"), p.amount
    return lambda ctx: ctx.steal(amount(ctx), filters)


def compile_pool_trade(p: Parts) -> Action:
    amount = p.amount
    return lambda ctx: ctx.pool_trade(amount(ctx))


def compile_second_tally(_p: Parts) -> Action:
    return lambda ctx: ctx.second_tally()


DRAW = ActionWord(
    name="draw",
    signatures=("count deck",),
    summary=("Draw cards from the top of an expansion's deck (rules/kinds.yaml); its discard pile is shuffled into "
             "a new deck when it runs out. A card its kind gives to a Unit is held and used like an Item; a card "
             "held by the game goes into play for every Unit. The kind's limit per Unit and turn applies."),
    example="use during purchase if can-draw badge: lose 1 star, lose 1 courage, draw 1 badge",
    english="draw {0} {1}",
    before_after="Badges held: none -> Military Aide after 'draw 1 badge'.",
    compile=compile_draw, render=say_draw, touches=touches_nothing,
)
DISCARD = ActionWord(
    name="discard",
    signatures=("'self'", "item", "count 'item'|deck"),
    summary=("Lose a card on purpose: this card (an Item or a held card; a card in play for every Unit, such as a "
             "Battle Condition, is cancelled for all), a named Item, or Items (or held cards of a deck: 'discard 1 "
             "decoration') of the player's choice. A lost Item counts as used. With a recipient another player "
             "loses it, and chooses which ('discard 1 item to another unit'). An option of an OR that would lose a "
             "card the player does not have cannot be chosen."),
    example="use when drawn if holds item >= 1: discard 1 item, discard self",
    english="discard {0}",
    compile=compile_discard, render=say_discard, touches=touches_nothing, feasible=can_discard, pays=True,
)
PICK = ActionWord(
    name="pick",
    signatures=("count deck",),
    summary=("Take cards of the player's choice from a deck (its discard pile included), then shuffle the deck (the "
             "German's straight: the Decoration of his choice). The kind's limit per turn applies."),
    example="on straight: pick 1 decoration",
    english="take {0} {1} of your choice from the deck, then shuffle it",
    compile=compile_pick, touches=touches_nothing,
    render=lambda r, w: (f"take {r.amount(w.args[0])} {r.name(w.word(1))} of your choice from the deck, then "
                         "shuffle it"),
)
CANCEL = ActionWord(
    name="cancel",
    signatures=("deck",),
    summary=("Cancel the cards of a deck that are in play for every Unit (a Battle Condition): they leave play for "
             "their discard pile at once; nothing happens if none is in play (or the deck is not in the game)."),
    example="use after final-tally if option battle-conditions: cancel battle-condition",
    english="cancel the {0} in play",
    before_after="In play: Rain -> none (Rain on the discard pile) after 'cancel battle-condition'.",
    compile=compile_cancel, touches=touches_nothing,
    render=lambda r, w: f"cancel the {r.name(w.word(0))} in play (for every Unit)",
)
ARRANGE_TOP = ActionWord(
    name="arrange-top",
    signatures=("count deck",),
    summary="Look at the top cards of a deck and put them back in any order (the player's).",
    example="use if has binoculars: discard binoculars, arrange-top 2 battle-condition",
    english="look at the top {0} cards of the {1} deck and put them back in any order",
    compile=compile_arrange_top, touches=touches_nothing,
    render=lambda r, w: (f"look at the top {r.amount(w.args[0])} cards of the {r.name(w.word(1))} deck and put "
                         "them back in any order"),
)
STEAL = ActionWord(
    name="steal",
    signatures=("count 'die' filter*",),
    summary=("Take dice of the player's choice from an opponent's Final Tally (another side's player: the German "
             "for a Unit, a Unit of his choice for the German) into this Final Tally; a die changes colour by the "
             "sides' colour-alias (a German black die becomes blue). Only real dice, not Locked unless the filter "
             "says 'locked'."),
    example="use once per turn after final-tally: steal 1 die",
    english="take {0} die {2} from an opponent's Final Tally",
    before_after="German tally [black courage, ...] -> [...]; Unit's tally gains a blue courage.",
    compile=compile_steal, touches=touches_nothing, tally=True,
    render=lambda r, w: (f"take {r.amount(w.args[0])} {w.die}{r.filters(w.args[2:], w.die)} from an opponent's "
                         "Final Tally"),
)
POOL_TRADE = ActionWord(
    name="pool-trade",
    signatures=("count 'die'",),
    summary=("Trade dice of the Final Tally, one for one, with the player's own trading pool of 6 extra dice (2 of "
             "each of his colours), rolled the first time it is needed and rolled again when it is empty; each pool "
             "die is taken once."),
    example="use after final-tally: pool-trade 2 die",
    english="trade up to {0} dice of your Final Tally with your trading pool",
    before_after=("Tally [red skull, ...] -> [red two-soldiers, ...] (the pool's die taken; the skull given leaves "
                  "the game)."),
    compile=compile_pool_trade, touches=touches_nothing, tally=True,
    render=lambda r, w: f"trade up to {r.amount(w.args[0])} {w.die} of your Final Tally with your trading pool",
)
SECOND_TALLY = ActionWord(
    name="second-tally",
    summary=("Roll a separate Final Tally (every die of the player's, re-rolled as if it were his own, Locks "
             "ignored) and keep either that one or the original, the player's choice."),
    example="use after final-tally: second-tally",
    english="roll a second Final Tally and keep either one",
    compile=compile_second_tally, touches=touches_nothing, tally=True,
    render=lambda _r, _w: "roll a second Final Tally with a separate set of dice and keep either one",
)

WORDS = (DRAW, DISCARD, PICK, CANCEL, ARRANGE_TOP, STEAL, POOL_TRADE, SECOND_TALLY)
