"""Ruling 2.7 (docs/rulings.md): a grant that names its card takes that card from where it lies and never gives a
second one. These tests call a find's grant as the engine runs it, naming a card of a deck (an Award, a Badge),
which the one rule of named grants (CardActions._give_named) serves for every grant that names a card;
local-pack/named-award-out-of-the-deck.yaml names an Award in the effect language ('draw-award victoria-cross')."""

from __future__ import annotations

import functools

from ddaydice.dsl.loader import Content, load
from ddaydice.interpreter.core.state import Event, Unit
from ddaydice.interpreter.game import Game
from ddaydice.interpreter.mechanisms import decks
from ddaydice.interpreter.policies.registry import make_policy


@functools.cache
def content(*packs: str) -> Content:
    loaded, diags = load(packs=list(packs))
    assert loaded is not None, diags
    return loaded


def fresh(*packs: str, options: tuple[str, ...] = ()) -> tuple[Game, Unit]:
    game = Game(content(*packs), "exercise-tiger", players=1, seed=3, variant="advanced-training",
                deciders=[make_policy("reference")], options=list(options), trace=True)
    game.choose_starts()
    return game, game.state.units[0]


def grant(game: Game, u: Unit, card: str) -> None:
    """A free find naming ``card``, as a Sector attribute's grant (Juno Beach 13's) runs it."""
    game.context(u, u, game.content.effects["juno-beach/s13"], u.sector).find(card, True)


def test_a_named_award_still_in_its_deck_is_taken_out_and_never_drawn_again() -> None:
    """The Award named is taken out of the Award deck: every later draw gives another Award (it stayed in the deck,
    and the last draws gave it a second time)."""
    game, u = fresh()
    award = game.state.award_deck[-1]
    grant(game, u, award)
    assert u.awards == [award]
    assert award not in game.state.award_deck
    while game.state.award_deck:
        decks.take_award(game, u, 0, False)
    assert u.awards.count(award) == 1


def test_a_named_card_in_its_discard_pile_is_not_given() -> None:
    """A Badge put away in the Badge discard pile is not there to give: the grant gives nothing and says why (it was
    given, and stayed in the pile to come back at the reshuffle)."""
    game, u = fresh("atlantikwall", options=("badges",))
    badge = game.state.decks["badge"].pop()
    game.state.discards["badge"].append(badge)
    grant(game, u, badge)
    assert badge not in game.held_cards(u)
    refused = [e.detail for e in game.state.log if isinstance(e, Event) and e.kind == "refused"]
    assert refused[-1].endswith("(refused: it has been discarded)")
