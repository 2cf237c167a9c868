"""Decks of cards an expansion declares (rules/kinds.yaml): set-up, draws, cards in play, held cards, piles.

A kind of card is data (dsl/schema.py, ``KindDef``); nothing here, or in the engine, knows a card, a deck or
a module by its id. The general mechanisms:

- **decks**: the cards of a kind are shuffled into a deck at set-up when the kind's optional rule is on (or
  always, without one); cards are drawn from the top; the discard pile is shuffled into a new deck when the
  deck runs out (:func:`set_up`, :func:`take_top`);
- **cards in play for every Unit** (``held-by: game``): the game draws ``draw-each-turn`` cards at the
  start of each turn, before the first phase (:func:`start_of_turn`); each stays in play until the next
  turn's draw, its effects applying like a rule's, in its kind's precedence tier (the engine reads
  ``state.in_play``); a card tagged with a ``persist`` tag, while that option is on, stays until another
  card with the tag is drawn, and applies after the cards drawn with it (:func:`draw_for_turn`);
- **'use when drawn'**: a card's uses with the window 'when drawn' are offered to each Unit, in tie order,
  right after it is drawn, and only then (the losses that cancel a Battle Condition) (:func:`offer_when_drawn`);
  a card drawn into a Unit's hand offers them to that Unit (:func:`draw`);
- **held cards** (``held-by: unit``): a drawn card goes to the Unit that drew it, is used like an Item and
  then discarded, or kept with an option's ``keep-used`` setting (then usable once per turn); at most
  ``per-turn`` are drawn by one Unit in one turn; ``tradeable`` cards are traded like Items (:func:`draw`,
  :func:`used`);
- **discards and arranging**: 'discard' loses a card on purpose (an Item lost counts as used; a card in play
  is cancelled for every Unit); 'cancel' cancels every card of a deck in play; 'arrange-top' looks at the top
  cards of a deck and puts them back in any order (:func:`discard`, :func:`cancel`, :func:`arrange_top`);
- **piles**: an option's ``item-piles`` setting splits the Pool's Items into piles whose top cards alone
  may be found; the card under a found one becomes available (:func:`set_up_piles`, :func:`pile_taken`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ddaydice.dsl.loader import Content
from ddaydice.dsl.schema import KindDef
from ddaydice.interpreter.core.api import GameAPI
from ddaydice.interpreter.core.decisions import Decision
from ddaydice.interpreter.core.state import GameState, Unit

if TYPE_CHECKING:
    from ddaydice.dsl.compile import EffectSource

WHEN_DRAWN = ("when", "drawn")


# ==================================================================== kinds
def kinds_in_game(game: GameAPI) -> list[KindDef]:
    """The decks of this game: declared kinds with a deck whose optional rule is on (or that need none)."""
    return [k for k in game.content.kinds.kinds if k.deck and (k.option is None or k.option in game.options)]


def kind_of(game: GameAPI, card: str) -> KindDef | None:
    return game.content.kind_def(game.content.card_kinds.get(card, ""))


def reachable(game: GameAPI) -> set[str]:
    """Cards the decks of this game can bring into play (the engine's plan of live queries and events)."""
    kinds = {k.id for k in kinds_in_game(game)}
    c = game.content
    return {cid for cid, kind in c.card_kinds.items() if kind in kinds and not game._unavailable(cid)}


def kind_name(game: GameAPI, kind: str) -> str:
    found = game.content.kind_def(kind)
    return found.name if found is not None else kind


def _persisting_tags(game: GameAPI, kind: KindDef) -> set[str]:
    return {p.tag for p in kind.persist if p.option in game.options}


def _persists(game: GameAPI, card: str) -> bool:
    kind = kind_of(game, card)
    return kind is not None and bool(_persisting_tags(game, kind) & set(game.content.cards[card].tags))


# =================================================================== set-up
def set_up(game: GameAPI, state: GameState) -> None:
    """Shuffle the decks of the game, and split the Pool's Items into piles if an option says so."""
    for kind in kinds_in_game(game):
        cards = sorted(cid for cid, k in game.content.card_kinds.items() if k == kind.id
                       and not game._unavailable(cid))
        game.rng.shuffle(cards)
        state.decks[kind.id] = cards
        state.discards[kind.id] = []
        game.log("set-up", f"the {kind.plural or kind.name} deck is shuffled ({len(cards)} cards)", None)
    piles = game.option_rules.item_piles
    if piles:
        set_up_piles(game, state, piles)


def take_top(game: GameAPI, kind: str) -> str | None:
    """The top card of a deck, the discard pile shuffled into a new deck first if the deck is empty."""
    s = game.state
    deck = s.decks.setdefault(kind, [])
    if not deck:
        discard = s.discards.setdefault(kind, [])
        if not discard:
            return None
        deck.extend(discard)
        discard.clear()
        game.rng.shuffle(deck)
        game.log("reshuffle", f"the {kind_name(game, kind)} discard pile is shuffled into a new deck", None)
    return deck.pop(0)


def _to_discard(game: GameAPI, card: str) -> None:
    """A card goes to its discard pile (from play, from a Unit's hand): the effects in play change."""
    kind = game.content.card_kinds[card]
    game.state.discards.setdefault(kind, []).append(card)
    game.sources_changed()


# ============================================================ cards in play
def start_of_turn(game: GameAPI) -> None:
    """Before the first phase of each turn: the game draws the cards its decks put into play each turn."""
    for kind in kinds_in_game(game):
        if kind.held_by == "game" and kind.draw_each_turn > 0:
            draw_for_turn(game, kind.id)


def draw_for_turn(game: GameAPI, kind_id: str) -> None:
    """The turn's draw of a deck held by the game: last turn's cards leave play (persisting ones stay until
    another card with their tag is drawn), the new cards come into play and are revealed to every Unit."""
    s = game.state
    kind = game.content.kind_def(kind_id)
    if kind is None:
        return
    tags = _persisting_tags(game, kind)
    for old in [c for c in s.in_play if game.content.card_kinds[c] == kind_id]:
        if not tags & set(game.content.cards[old].tags):
            _leave_play(game, old, "its turn is over")
    for _ in range(max(kind.draw_each_turn, 1)):
        card = take_top(game, kind_id)
        if card is None:
            return
        mine = tags & set(game.content.cards[card].tags)
        if mine:
            for old in [c for c in s.in_play if mine & set(game.content.cards[c].tags)]:
                _leave_play(game, old, f"{game._name_of(card)} replaces it")
        put_in_play(game, card)


def put_in_play(game: GameAPI, card: str, drawer: Unit | None = None) -> None:
    """A card comes into play for every Unit. Its draw is one event, heard once (ruling 14.3): 'on drawn' runs for
    the Unit that drew it (``drawer``), or, for the game's own draw, the first Unit in tie order, and for each
    player of another side in what it writes for him ('for the german: on drawn: ...') and in his side's rules;
    what it writes for every player ('for all players: on drawn: ...') each Unit and player hears (ruling 14.7);
    its 'use when drawn' is offered to the Units until one uses it (:func:`offer_when_drawn`)."""
    s = game.state
    s.in_play.append(card)
    game.sources_changed()
    # Persisting cards apply after the cards drawn with them: they have the last word in their tier.
    s.in_play.sort(key=lambda c: _persists(game, c))
    s.play_order += 1
    if game.tracing:
        kind = kind_of(game, card)
        game.log("draw", f"{kind.name if kind else 'card'} drawn: {game._name_of(card)}", None, card,
                 game.content.effects[card].tier if card in game.content.effects else "")
    units = game.order()
    _hear_draw(game, card, drawer if drawer is not None else units[0] if units else None)
    offer_when_drawn(game, card)


def _hear_draw(game: GameAPI, card: str, hearer: Unit | None) -> None:
    """Every draw is one moment for the game, heard once (rulings 14.3, 14.7, 14.8): ``hearer`` (the Unit that drew
    the card, or the first Unit in tie order for the game's draw) hears it in the drawn card's own clauses, the
    rules and its Sector; each player of another side in what is written for him and in his side's rules ("when a
    card affects the German player, it says so", Atlantikwall); each other Unit in what is written for every
    player ('for all players: on drawn'), whichever card or rule writes it."""
    if hearer is not None:
        _fire_drawn(game, hearer, card)
    for player in game.side_players():
        if player is not hearer:
            _fire_drawn(game, player, card, heard_once=True)
    for unit in game.order():
        if unit is not hearer:
            _fire_drawn(game, unit, card, heard_once=True)


def _leave_play(game: GameAPI, card: str, why: str) -> None:
    game.state.in_play.remove(card)
    _to_discard(game, card)
    game.log("discard", f"{game._name_of(card)} leaves play ({why})", None, card)


def offer_when_drawn(game: GameAPI, card: str) -> None:
    """The card's 'use when drawn' clauses, offered to each Unit in tie order while the card is in play, until one
    of them uses one: the moment is the draw's, and passes with that use (ruling 14.3: "any Unit may ... for
    everyone" is one Unit's act, not one for each)."""
    src = game.content.effects.get(card)
    if src is None or not any(h.window == WHEN_DRAWN for h in src.compiled.uses):
        return
    for unit in game.acting():  # automated Units (solitaire Atlantikwall) use nothing
        if card not in game.state.in_play or game.state.outcome is not None:
            return
        if _offer_drawn(game, unit, src):
            return


def _offer_drawn(game: GameAPI, unit: Unit, src: EffectSource) -> bool:
    """The 'use when drawn' clauses of a card just drawn, offered to one Unit (the player's choice: 'nothing');
    True if it used one."""
    if unit.status != "active":
        return False
    uses = []
    for i, hook in enumerate(src.compiled.uses):
        if hook.window != WHEN_DRAWN or hook.scope == "the-german":
            continue
        ctx = game.context(unit, unit, src, unit.sector)
        if (hook.condition is not None and not hook.condition.holds(ctx)) \
                or (hook.feasible is not None and not hook.feasible(ctx)):  # ruling 10.9
            continue
        if hook.limit is not None and game._limit_used(unit, unit, src.owner, i, hook.limit):
            continue
        uses.append((i, hook))
    if not uses:
        return False
    labels = ["nothing"] + [f"{src.name}: {hook.text}" for _, hook in uses]
    keys = [None] + [(src.owner, i) for i, _ in uses]
    pick = game.ask_one(unit, "use", f"{unit.name}: use a card or rule now (drawn)?", labels, keys)
    if pick == 0:
        return False
    i, hook = uses[pick - 1]
    game.perform_use(unit, src, i, hook, "")
    return True


def _drawn_into_hand(game: GameAPI, unit: Unit, card: str) -> None:
    """A card the Unit drew into its hand: its draw heard ('on drawn', for the Unit), then its 'use when drawn'
    offered to the Unit alone, right after the draw and only then (ruling 14.3), while it still holds the card and
    is not automated (solitaire Atlantikwall: it uses nothing)."""
    _hear_draw(game, card, unit)
    src = game.content.effects.get(card)
    if src is None or not any(h.window == WHEN_DRAWN for h in src.compiled.uses):
        return
    if card in unit.cards and game.state.outcome is None and unit in game.acting():
        _offer_drawn(game, unit, src)


def _fire_drawn(game: GameAPI, unit: Unit, card: str, heard_once: bool = False) -> None:
    """'on drawn': the card's own triggers, then every other effect that hears draws ('if drawn KIND');
    ``heard_once``: a draw another player has heard already (rulings 14.3, 14.8): a Unit hears in it only what is
    written for every player."""
    before = game.drawing
    game.drawing = card
    try:
        src = game.content.effects.get(card)
        rules_heard = heard_once and not unit.side
        if src is not None and any(t.event == "drawn" for t in src.compiled.triggers):
            game.fire("drawn", unit, only=src, heard_once=heard_once, rules_heard=rules_heard)
        game.fire("drawn", unit, heard_once=heard_once, rules_heard=rules_heard)
    finally:
        game.drawing = before


# ============================================================== held cards
#: The base game's Award deck (``state.award_deck``), named as an expansion's deck is named by its kind.
AWARD_DECK = "award"


def deck_names(content: Content) -> list[str]:
    """Every deck a game may hold, by name: the base game's Award deck, then each kind of card with a deck (the
    one list a scenario's ``decks:``, ``discards:`` and ``draw:`` name)."""
    return [AWARD_DECK, *(k.id for k in content.kinds.kinds if k.deck)]


def waiting(game: GameAPI, card: str) -> list[str] | None:
    """The deck a card waits in to be drawn, the base game's Award deck or its kind's, if it is there."""
    s = game.state
    deck = s.award_deck if game.kind_of.get(card) == "award" else s.decks.get(game.kind_of.get(card, ""), [])
    return deck if card in deck else None


def discarded(game: GameAPI, card: str) -> bool:
    """Whether a card lies in its kind's discard pile (played and put away, as a used Item is)."""
    return card in game.state.discards.get(game.kind_of.get(card, ""), [])


def take_award(game: GameAPI, unit: Unit, index: int, counted: bool) -> None:
    """The Unit takes the Award at ``index`` of the Award deck (0: the top, a draw at random); ``counted``: it
    counts toward the one Award a Unit may draw in a turn (ruling 2.1; not a grant beyond the limits, 2.5)."""
    card = game.state.award_deck.pop(index)
    if counted:
        unit.awards_drawn += 1
    game.gain_card(unit, card)


def _drew_key(game: GameAPI, kind: str) -> str:
    return f"drew:{kind}@t{game.state.turn}"


def can_draw(game: GameAPI, unit: Unit, kind_id: str) -> bool:
    """Whether the Unit may draw a card of this kind now: its deck or discard pile has a card and the kind's
    limit per turn is not reached; the base game's Awards: the Award deck has a card and the Unit has drawn no
    Award this turn (draw-award: at most one per turn)."""
    s = game.state
    if kind_id == "award":
        return bool(s.award_deck) and unit.awards_drawn == 0
    kind = game.content.kind_def(kind_id)
    if kind is None or (not s.decks.get(kind_id) and not s.discards.get(kind_id)):
        return False
    return kind.per_turn is None or unit.counters.get(_drew_key(game, kind_id), 0) < kind.per_turn


def _receive(game: GameAPI, unit: Unit, kind_id: str, held_by: str, card: str) -> bool:
    """A card drawn by a Unit is counted (per turn and per game), then goes into play for every Unit or into the
    Unit's hand; True if the Unit holds it."""
    unit.counters[_drew_key(game, kind_id)] = unit.counters.get(_drew_key(game, kind_id), 0) + 1
    unit.counters[f"drawn:{kind_id}"] = unit.counters.get(f"drawn:{kind_id}", 0) + 1
    if held_by == "game":
        put_in_play(game, card, unit)
        return False
    unit.cards.append(card)
    game._came_into_play(unit, card)
    return True


def draw(game: GameAPI, unit: Unit, kind_id: str, count: int) -> str:
    """A Unit draws cards of a deck (a Badge on a Battle Cry): it holds them, or they go into play. The base
    game's Award deck: the top Award, as an effect's 'draw-award random', within the one Award a turn. Returns why
    it drew fewer than ``count`` ("" when it drew them all), for the caller to tell."""
    if kind_id == AWARD_DECK:
        for _ in range(count):
            if not can_draw(game, unit, kind_id):
                return "the Award deck is empty" if not game.state.award_deck else "1 Award per turn"
            take_award(game, unit, 0, True)
        return ""
    kind = game.content.kind_def(kind_id)
    if kind is None or kind_id not in game.state.decks:
        return f"there is no {kind_id} deck in this game"  # its optional rule is off
    empty = f"the {kind.plural or kind.name} deck is empty"
    for _ in range(count):
        if not can_draw(game, unit, kind_id):
            s = game.state
            if not s.decks.get(kind_id) and not s.discards.get(kind_id):
                return empty
            return f"{kind.per_turn} {kind.name if kind.per_turn == 1 else kind.plural or kind.name} per turn"
        card = take_top(game, kind_id)
        if card is None:
            return empty
        if _receive(game, unit, kind_id, kind.held_by, card) and game.tracing:
            game.log("draw", f"{unit.name} draws a {kind.name}: {game._name_of(card)}", unit, card,
                     game.content.effects[card].tier if card in game.content.effects else "")
        if kind.held_by != "game":
            _drawn_into_hand(game, unit, card)
    return ""


def _keeps_used(game: GameAPI, kind: str) -> bool:
    return kind in game.option_rules.keep_used


def used(game: GameAPI, unit: Unit, card: str) -> None:
    """A held card has been used: it goes to its discard pile, or stays (an option's keep-used), spent this turn."""
    kind = game.content.card_kinds[card]
    if _keeps_used(game, kind):
        unit.counters[f"spent:{card}@t{game.state.turn}"] = 1
        return
    unit.cards.remove(card)
    _to_discard(game, card)


def spent(game: GameAPI, unit: Unit, card: str) -> bool:
    """A kept card (keep-used) is used at most once per turn."""
    return bool(unit.counters.get(f"spent:{card}@t{game.state.turn}"))


def tradeable(game: GameAPI, card: str) -> bool:
    kind = kind_of(game, card)
    return kind is not None and kind.tradeable


def holds(game: GameAPI, unit: Unit, kind: str) -> int:
    """How many cards of a kind the Unit holds."""
    match kind:
        case "specialist":
            return len(unit.specialists)
        case "item":
            return len(unit.items)
        case "vehicle":
            return int(unit.vehicle is not None)
        case "award":
            return len(unit.awards)
    return sum(1 for c in unit.cards if game.content.card_kinds.get(c) == kind)


def tagged(game: GameAPI, unit: Unit, tag: str) -> list[str]:
    """The cards the Unit holds whose data carry the tag, in the order it holds them (one per card: Atlantikwall's
    Playing with Fire counts the Explosion symbols of the cards marked 'explosion')."""
    cards = game.content.cards
    return [c for c in game.held_cards(unit) if c in cards and tag in cards[c].tags]


# ========================================================= discard, arrange
def discard(game: GameAPI, unit: Unit, what: str | int, source: EffectSource, kind: str = "item") -> None:
    """Lose a card on purpose: this card, a named Item, or Items (or held cards of a deck's ``kind``) of the
    player's choice. An Item lost counts as used; a card in play leaves play for every Unit (a Battle
    Condition cancelled); a held card is discarded."""
    s = game.state
    if what == "self":
        card = source.owner
        if card in s.in_play:
            _leave_play(game, card, f"cancelled by {unit.name}")
        elif card in unit.cards:
            unit.cards.remove(card)
            _to_discard(game, card)
        elif card in unit.items:
            _lose_item(game, unit, card)
        return
    if isinstance(what, str):
        if what in unit.items:
            _lose_item(game, unit, what)
        return
    if kind != "item":
        for _ in range(what):
            held = [c for c in unit.cards if game.content.card_kinds.get(c) == kind]
            if not held:
                return
            i = game.ask_one(unit, "discard", f"{source.name}: lose which {kind_name(game, kind)}?",
                             [game._name_of(c) for c in held], held)
            unit.cards.remove(held[i])
            _to_discard(game, held[i])
            game.log("discard", f"{unit.name} loses the {game._name_of(held[i])}", unit, held[i])
        return
    for _ in range(what):
        if not unit.items:
            return
        i = game.ask_one(unit, "discard", f"{source.name}: lose which Item?",
                         [game._name_of(c) for c in unit.items], list(unit.items))
        _lose_item(game, unit, unit.items[i])


def cancel(game: GameAPI, unit: Unit, kind_id: str) -> None:
    """The cards of a deck in play for every Unit leave play for their discard pile (a Battle Condition
    cancelled by a card): persisting ones too. Nothing happens if none is in play."""
    for card in [c for c in game.state.in_play if game.content.card_kinds.get(c) == kind_id]:
        _leave_play(game, card, f"cancelled by {unit.name}")


def _lose_item(game: GameAPI, unit: Unit, item: str) -> None:
    unit.items.remove(item)
    game.sources_changed()
    unit.used_items.append(item)
    game.log("discard", f"{unit.name} loses the {game._name_of(item)}", unit, item)


def arrange_top(game: GameAPI, unit: Unit, kind_id: str, count: int, source: EffectSource) -> None:
    """Look at the top cards of a deck and put them back in any order (the first chosen goes on top)."""
    deck = game.state.decks.get(kind_id)
    if not deck:
        return
    top = deck[:count]
    del deck[:count]
    order: list[str] = []
    while top:
        i = game.ask(unit, Decision("arrange", unit.id, f"{source.name}: which {kind_name(game, kind_id)} goes "
                                    f"{'on top' if not order else 'next'}?",
                                    tuple(game._name_of(c) for c in top), tuple(top)))[0] if len(top) > 1 else 0
        order.append(top.pop(i))
    deck[:0] = order
    game.log("arrange", f"{unit.name} looks at the top of the {kind_name(game, kind_id)} deck and puts back: "
             + ", ".join(game._name_of(c) for c in order), unit)


def pick(game: GameAPI, unit: Unit, kind_id: str, count: int, source: EffectSource) -> None:
    """Take cards of the player's choice from a deck and its discard pile, then shuffle the deck (the German's
    straight: "draw the Decoration of your choice for free, then shuffle the deck")."""
    kind = game.content.kind_def(kind_id)
    s = game.state
    if kind is None or kind_id not in s.decks:
        return
    for _ in range(count):
        if not can_draw(game, unit, kind_id):
            return
        cards = s.decks[kind_id] + s.discards.get(kind_id, [])
        i = game.ask(unit, Decision("pick", unit.id, f"{source.name}: take which {kind.name}?",
                                    tuple(game._name_of(c) for c in cards), tuple(cards)))[0] if len(cards) > 1 else 0
        card = cards[i]
        if card in s.decks[kind_id]:
            s.decks[kind_id].remove(card)
        else:
            s.discards[kind_id].remove(card)
        game.rng.shuffle(s.decks[kind_id])
        if _receive(game, unit, kind_id, kind.held_by, card) and game.tracing:
            game.log("draw", f"{unit.name} takes a {kind.name} of his choice: {game._name_of(card)}", unit, card)
        if kind.held_by != "game":
            _drawn_into_hand(game, unit, card)


# ================================================================== piles
def set_up_piles(game: GameAPI, state: GameState, n: int) -> None:
    """The Pool's Items, shuffled and split into n piles as equal as can be; only their top cards are in the
    Pool (the rest wait in state.piles)."""
    c = game.content
    items = [p for p in state.pool if c.card_kinds[p] == "item"]
    game.rng.shuffle(items)
    size = -(-len(items) // n) if items else 0
    piles = [items[i * size:(i + 1) * size] for i in range(n)] if size else []
    state.piles = [p for p in piles if p]
    tops = {p[0] for p in state.piles}
    state.pool = [p for p in state.pool if c.card_kinds[p] != "item" or p in tops]
    game.log("set-up", "the Items are split into piles: " + "; ".join(
        f"{len(p)} cards, {game._name_of(p[0])} on top" for p in state.piles), None)


def pile_taken(game: GameAPI, card: str) -> None:
    """A pile's top card was taken from the Pool: the card under it becomes available."""
    s = game.state
    for pile in s.piles:
        if pile and pile[0] == card:
            pile.pop(0)
            if pile:
                s.pool.append(pile[0])
                game.log("pile", f"{game._name_of(pile[0])} is now on top of its pile", None)
            break
    s.piles = [p for p in s.piles if p]


# ============================================================== predicates
def active_skulls(game: GameAPI, unit: Unit) -> int:
    """The Unit's active Skulls this turn (Atlantikwall, 'Crâne Actif'): Skulls that actively cancelled a die in
    Phase 2, so neither ignored (Sharpshooter) nor part of an RWB (the Dead Man's Gift cancels nothing) nor of a
    straight. Each active Skull cancels exactly one die, so they are the cancelled dice, less the straight's
    Skull when the tally is a straight and that Skull cancelled a die too."""
    cancelled = sum(1 for d in unit.tally if d.cancelled)
    faces = {f.id for f in game.content.dice.faces}
    straight = faces <= {d.face for d in unit.tally}
    return max(0, cancelled - (1 if straight and cancelled else 0))

