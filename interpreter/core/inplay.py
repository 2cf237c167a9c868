"""The index of the effects in play, as data: modifiers by query, triggers by event, uses' sources, per epoch.

It is built by interpreter/effects/sources.py from the sources in play (the game rules, the Sectors and their
attributes, the cards the active players hold, the cards drawn into play) and rebuilt when one of them changes:
a card comes into play or leaves, a Vehicle is gained or abandoned, a Unit leaves the game, a Sector gains an
attribute. Every such change calls ``game.sources_changed()``, which starts a new epoch. A query that nothing in
play modifies is then a table look-up; a card slows only the queries it modifies and the events it hears.
"""

from __future__ import annotations

from ddaydice.dsl.compile import EffectSource, ModifierHook, TriggerHook, UseHook
from ddaydice.interpreter.core.state import Unit

Modifier = tuple[EffectSource, Unit | None, int, int, ModifierHook]
"""A standing modifier: its source, the player holding it (None: the rules, a Sector, a card drawn for every
Unit), when it came into play (the play order), the hook's index in its source, the hook."""

Trigger = tuple[EffectSource, Unit | None, int, int, TriggerHook]
"""A trigger, as a modifier: source, holder, play order, index, hook."""

Held = tuple[Unit, str, EffectSource, int]
"""A card a player holds that has an effect: the player, the card, its effect, when it came into play."""

Use = tuple[EffectSource, int, UseHook, str]
"""A use a Unit could make: its source, the hook's index, the hook, the card held ('' for the rules, 'u2:card'
for another Unit's card that serves it)."""

SectorIndex = tuple[list[EffectSource], dict[str, list[Modifier]], dict[str, list[Trigger]], dict[str, list[Use]]]
"""A Sector's effects (printed, then gained attributes), its modifiers by query, its triggers by event, and its
uses by moment of the turn (filled as asked)."""

SectorsIndex = tuple[dict[str, list[EffectSource]], dict[str, dict[str, list[Modifier]]],
                     dict[str, dict[str, list[Trigger]]], dict[str, dict[str, list[Use]]],
                     frozenset[str], frozenset[str]]
"""Every Sector's part of the index at once (the four dicts of InPlay, by Sector), with the queries their modifiers
change and the events their triggers hear: the same for every epoch and game of the plan while the Sectors have the
same attributes."""

RulesIndex = tuple[dict[str, list[Modifier]], dict[str, list[Trigger]], frozenset[str], frozenset[str]]
"""The part of the index the game rules and the other sides make, the same in every epoch and game of the plan: the
rules' modifiers by query and triggers by event (InPlay's ``head`` and, with no drawn card, ``head_triggers``: never
changed in place), the queries they and the other sides' rules modify, and the events the other sides' rules hear."""

EMPTY: tuple[()] = ()


class InPlay:
    """The effects in play during one epoch, indexed for the three ways the turn asks for them."""

    __slots__ = ("drawn", "drawn_triggers", "epoch", "events", "head", "head_triggers", "held", "held_triggers",
                 "queries", "sector_modifiers", "sector_sources", "sector_triggers", "sector_uses", "shared", "tail",
                 "unit_queries", "uses")

    def __init__(self, epoch: int) -> None:
        self.epoch = epoch
        # Modifiers of a query for a Unit: the game rules' (head), then a Sector's (sector_modifiers), then
        # the cards held and drawn (tail), in the order the precedence ties were always broken.
        self.head: dict[str, list[Modifier]] = {}
        self.tail: dict[str, list[Modifier]] = {}
        self.sector_modifiers: dict[str, dict[str, list[Modifier]]] = {}
        # Triggers of an event: the game rules' and the drawn cards' (head), a Sector's, the cards held.
        self.head_triggers: dict[str, list[Trigger]] = {}
        self.drawn_triggers: dict[str, list[Trigger]] = {}
        self.sector_triggers: dict[str, dict[str, list[Trigger]]] = {}
        self.held_triggers: dict[str, list[Trigger]] = {}
        # The sources themselves, for uses: a Sector's (printed and gained attributes), the drawn cards, the
        # cards each active player holds, and the Specialists and Vehicles whose uses serve other Units.
        self.sector_sources: dict[str, list[EffectSource]] = {}
        self.drawn: list[tuple[int, EffectSource]] = []
        self.held: dict[str, list[Held]] = {}
        self.shared: list[Held] = []
        # The uses a Unit could make at a moment of the turn, filled as asked: by (Unit, moment) the rules' and
        # the cards' (a Sector's come between them) and both together, and by Sector and moment the Sector's own.
        self.uses: dict[tuple[str, str], tuple[list[Use], list[Use], list[Use]]] = {}
        self.sector_uses: dict[str, dict[str, list[Use]]] = {}
        # Every query something in play modifies, and every event something in play hears.
        self.queries: frozenset[str] = frozenset()
        # The queries something in play modifies wherever the subject stands (the rules, cards, other sides):
        # with a Sector's own modifiers (sector_modifiers[sector]), what can touch a query in that Sector.
        self.unit_queries: frozenset[str] = frozenset()
        self.events: frozenset[str] = frozenset()
