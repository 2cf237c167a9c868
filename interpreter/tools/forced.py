"""Cards forced into a game, or out of it, at the start: what ``dday compare`` and ``dday impact`` vary.

A card is *given* to each Unit the way a scenario file gives a Unit its cards (tools/scenario.py): it is put among
the Unit's held cards of its kind (Specialists, Items, its Vehicle, Awards, an expansion's cards held by a Unit, or
into play for every Unit for a kind held by the game), marked as come into play, and taken out of the Pool, the
hands and the decks; then the index of the effects in play is rebuilt. A card put *into the Pool* may be recruited
or found like any card there (a Regular Specialist goes into every Unit's hand, as the rules deal them; an Award
or a card of a deck goes on top of its deck). A card made *absent* is taken
out of the Pool, the hands, the decks and the Sectors where it waits, so no one can get it.

A card given or put into the Pool may be one the map's lists never make available (a Specialist on a variant
without Specialists): the game's plan, which knows which queries and events some card of the game could ever
touch (game/plan.py), is then worked out again with the forced cards among the game's cards (once per set-up).

The cards are given after the starting Sectors are chosen (a map with several starts places each Unit and gives
it the start's Specialists then) and before the 'game-start' triggers fire, so a card's own 'game-start' effect
runs. No card is named here: the kinds come from the content.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Literal

import attrs

from ddaydice.dsl.loader import Content
from ddaydice.interpreter.core.api import GameAPI
from ddaydice.interpreter.core.state import GameState, Unit
from ddaydice.interpreter.core.watching import Watching
from ddaydice.interpreter.game import Game

Where = Literal["give", "pool", "absent"]
WHERE: tuple[Where, ...] = ("give", "pool", "absent")


@attrs.frozen
class Forced:
    """A card given to each Unit at the start (``give``), put into the Pool (``pool``), or out of the game
    (``absent``)."""

    card: str
    where: Where = "give"


def problem(content: Content, card: str, where: str) -> str | None:
    """Why this card cannot be forced there (None if it can)."""
    kind = content.card_kinds.get(card)
    if kind is None:
        return f"no card '{card}'"
    kdef = content.kind_def(kind)
    if kdef is not None and kdef.side is not None:
        return f"'{card}' is a card of the {kdef.side}'s side, not one a Unit holds"
    if where == "pool" and kdef is not None and not kdef.deck and kdef.held_by == "game":
        return f"'{card}' is a {kind} played into the game, not drawn: it cannot be put into the Pool"
    return None


class ForcedGame(Game):
    """A game whose cards are forced in or out at the start (after the starting Sectors are chosen, by its
    ``Giving`` watcher)."""

    __slots__ = ("forced",)  # as the Game's own attributes (its method look-ups stay specialised)

    def __init__(self, content: Content, map_id: str, *, forced: Sequence[Forced], **kw: Any) -> None:
        self.forced = tuple(forced)
        kw["watchers"] = (*kw.get("watchers", ()), Giving(self.forced))
        super().__init__(content, map_id, **kw)
        extra = frozenset(f.card for f in self.forced if f.where != "absent")
        if extra:  # the plan with the forced cards among the cards of the game (shared by the set-up's games)
            variant, options = kw.get("variant"), tuple(kw.get("options", ()))
            key = (id(content), map_id, variant, options, extra)
            hit = _FORCED_PLANS.get(key)
            if hit is None or hit[0] is not content:
                self.extra_cards = extra
                self._prepare(content, map_id, variant, list(options))
                self.extra_cards = frozenset()
                hit = (content, self.plan_values())
                if len(_FORCED_PLANS) > 64:
                    _FORCED_PLANS.clear()
                _FORCED_PLANS[key] = hit
            else:
                self.take_plan(hit[1])
            self.sources_changed()
        absent = [f.card for f in self.forced if f.where == "absent"]
        if absent:  # before the game starts: no one may recruit, find or draw it
            remove_everywhere(self.state, absent)
            self.sources_changed()


@attrs.frozen
class Giving(Watching):
    """The watcher (core/api.py) that gives the forced cards once the starting Sectors are chosen: to each Unit, or
    into the Pool."""

    forced: tuple[Forced, ...]

    def starts_chosen(self, game: GameAPI) -> None:
        for f in self.forced:
            if f.where == "give":
                for unit in game.state.units:
                    give(game, unit, f.card)
            elif f.where == "pool":
                into_pool(game, f.card)
        game.sources_changed()


def give(game: GameAPI, unit: Unit, card: str) -> None:
    """The card among the Unit's held cards of its kind (or in play for every Unit), out of everywhere else."""
    c, s = game.content, game.state
    kind = c.card_kinds[card]
    kdef = c.kind_def(kind)
    remove_everywhere(s, [card])
    if kdef is not None and kdef.held_by == "game":
        if card not in s.in_play:
            s.in_play.append(card)
        return
    if kind == "specialist":
        unit.specialists.append(card)
    elif kind == "item":
        unit.items.append(card)
    elif kind == "vehicle":
        unit.vehicle = card
    elif kind == "award":
        unit.awards.append(card)
    else:
        unit.cards.append(card)
    game._came_into_play(unit, card)


def into_pool(game: GameAPI, card: str) -> None:
    """The card where the Pool's cards of its kind wait: on top of its deck, in every hand, or in the Pool."""
    c, s = game.content, game.state
    kind = c.card_kinds[card]
    if kind == "award":
        s.award_deck = [card, *(a for a in s.award_deck if a != card)]
    elif c.kind_def(kind) is not None:
        s.decks[kind] = [card, *(k for k in s.decks.get(kind, []) if k != card)]
    elif kind == "specialist" and c.cards[card].grade == "regular":  # a Regular Specialist: in every hand
        for u in s.units:
            hand = s.hands.setdefault(u.id, [])
            if card not in hand and card not in u.specialists:
                hand.append(card)
    elif card not in s.pool:
        s.pool.append(card)
        s.placed.pop(card, None)


_FORCED_PLANS: dict[tuple[Any, ...], tuple[Content, tuple[Any, ...]]] = {}


def remove_everywhere(state: GameState, cards: Iterable[str]) -> None:
    """Take cards out of the Pool, the hands, the Award deck, the decks and their discards, and the Sectors."""
    gone = set(cards)
    state.pool = [c for c in state.pool if c not in gone]
    for uid, hand in state.hands.items():
        state.hands[uid] = [c for c in hand if c not in gone]
    state.award_deck = [c for c in state.award_deck if c not in gone]
    for pile in (state.decks, state.discards):
        for kind, cards_ in pile.items():
            pile[kind] = [c for c in cards_ if c not in gone]
    for card in gone:
        state.placed.pop(card, None)
    if state.piles:
        state.piles = [[c for c in p if c not in gone] for p in state.piles]
        state.piles = [p for p in state.piles if p]
