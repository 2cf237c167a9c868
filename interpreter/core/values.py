"""Value types and constants of the turn that every layer shares: the phases, the moments at which cards are used,
the moves of Phase 4."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Final, Literal, NamedTuple

import attrs

from ddaydice.dsl.words import window_points

PHASES = ("roll", "upkeep", "purchase", "movement", "combat")
# The resources a Unit may give another in a trade (Phase 3), one at a time, as the state names them.
TRADE_RESOURCES = ("soldiers", "courage", "stars", "item_points")
MAX_TURNS = 60
#: The reason of a game the engine stops at its turn limit (the rulebook has none: such a game has no result; it is
#: recorded as lost, and the tools count it apart, at_turn_limit).
TURN_LIMIT_REASON = "no result after {} turns"


def at_turn_limit(reason: str) -> bool:
    """Whether a game's end reason is the engine's turn limit, not the rulebook's victory or defeat."""
    return reason.startswith(TURN_LIMIT_REASON.split("{", 1)[0])


#: A player's counter of the times an owner's uses were played this game (a card's, a Sector's, a rule's):
#: ``USED + owner``, counted where a use is played (effects/uses.py), read by 'times-used' and by the tools.
USED: Final = "used:"


@attrs.define
class OpenRoll:
    """A roll whose result has not yet taken effect, offered at use point 'after-roll': what it is rolled for, as
    its die is named ('Landmine', 'Random Attributes (Sector 11)'), and its dice, which a card may change in place."""

    name: str
    dice: list[int]


class Paused(Exception):
    """Raised by the turn at the moment a game's ``pause_after`` names (the end of that phase of that turn): the game
    stands there, to be read or played on (tools/capture.py plays a game to a moment this way)."""

HookKind = Literal["modifier", "trigger", "use"]
"""The three kinds of hook an effect compiles to (dsl/compile.py), as a limit's counter names them."""


@attrs.define
class Pending:
    """An event about to happen to a Unit while its triggers run (a pending event: 'casualties', 'specialist-lost').
    ``left``: whether something is still to happen (casualties not all saved); ``replaced_by``: the effect whose
    'instead' replaced it (the event does not happen); ``running``: the replacing triggers at work, by (source,
    index), which do not hear the events their own actions cause."""

    event: str
    unit: str
    left: Callable[[], bool]
    replaced_by: str = ""
    running: list[tuple[str, int]] = attrs.field(factory=list)


def points_of(window: tuple[str, str] | None) -> tuple[str, ...]:
    """The moments of the turn at which a use with this window may be made (any moment of ``USE_POINTS`` without
    one), as the language's list of windows says (dsl/words/events.py ``WINDOWS``, the one the checker reads); 'when
    EVENT' of a pending event: the moment that event is about to happen ('when-casualties', offered by
    effects/events.py)."""
    return window_points(window)


_WORD = re.compile(r"[a-z0-9][a-z0-9-]*")  # the words of an effect's text, to find the cards it names


def cards_named(texts: Iterable[str], card_ids: Iterable[str]) -> set[str]:
    """The cards these effect texts name, as whole words ('medic' is not named by 'field-medic'), and
    'vehicle' if they speak of Vehicles at all."""
    words = set(_WORD.findall(" ".join(texts)))
    named = words.intersection(card_ids)
    if words & {"vehicle", "vehicles"}:
        named.add("vehicle")
    return named


COST_QUERIES = frozenset({"specialist-cost", "item-cost"})
"""The queries that price a card for a Unit; a card's printed cost is their base, and its own 'cost' clauses
(while it waits to be bought) join their contributions."""

OWN_BASE = frozenset({"def", "mgf-dice", "stay", *COST_QUERIES})
"""The queries whose base is not the rules' default: a Sector's DEF and MGF, the Unit marker, a card's cost."""


class Move(NamedTuple):
    """A legal move of Phase 4 (a tuple: built many times per turn)."""

    kind: str  # stay, lateral, advance
    to: str | None
    cost: int
    landmines: bool
    battle_cry: bool = False
    abandons_vehicle: bool = False


#: A Phase 4 candidate move under the rules' defaults (game/plan.py ``_compile_moves``): the Sector moved to, the
#: kind, the Courage, whether Landmines apply, whether a Unit with a Vehicle abandons it, and the Move offered to a
#: Unit without a Vehicle and to one with.
FixedMove = tuple[str, str, int, bool, bool, Move, Move]


def die_label(key: tuple[int, str, str | None]) -> str:
    """How a die offered in a decision reads: its colour and face ('red 3 Soldiers')."""
    _, face, colour = key
    return f"{colour or 'colourless'} {face}"
