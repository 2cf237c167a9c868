"""Game state: attrs classes, saved and loaded as JSON through cattrs with nothing lost.

The state is mutable for speed (a simulated game changes it thousands of
times); :meth:`GameState.copy` makes an independent copy and :func:`digest`
a canonical hash, so two runs can be compared.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import attrs
import cattrs

MARKER_CHEVRONS = {"chevron-1": 1, "chevron-2": 2, "chevron-3": 3}
NEXT_MARKER = {"chevron-1": "chevron-2", "chevron-2": "chevron-3"}  # a turn more in the same Sector
STAY_FORBIDDEN = frozenset({"must-move", "cant-stay"})  # the faces on which the Unit may not stay (the 'stay' base)


@attrs.define
class Die:
    """One result of a Final Tally. ``real`` is False for colourless "virtual" results added by effects."""

    face: str
    colour: str | None
    index: int  # position in the Unit's six dice (red 1, red 2, white 1, white 2, blue 1, blue 2); -1 if virtual
    locked: bool = False
    real: bool = True
    cancelled: bool = False
    source: str = ""  # for virtual results: the effect that added it


@attrs.define
class Grant:
    """A modifier granted by an action for a while (``def -7 this turn``)."""

    owner: str  # the effect that granted it (card id, "map/sector", "rule:...")
    clause: int  # index of the hook in the granting effect's list of granted hooks
    tier: str
    query: str
    op: str
    value: int | None
    args: tuple[str, ...]
    text: str
    expires: str  # "turn:N", "phase:N:P", "never", "until:EVENT:UNIT" (ends as EVENT happens to UNIT)
    unit: str | None = None  # the Unit it applies to, or None for a Sector-wide grant
    sector: str | None = None
    order: int = 0


@attrs.define
class Unit:
    id: str
    name: str
    sector: str
    soldiers: int = 0
    stars: int = 0
    courage: int = 0
    item_points: int = 0
    specialists: list[str] = attrs.Factory(list)
    dead: list[str] = attrs.Factory(list)
    items: list[str] = attrs.Factory(list)
    used_items: list[str] = attrs.Factory(list)
    vehicle: str | None = None
    awards: list[str] = attrs.Factory(list)
    used_awards: list[str] = attrs.Factory(list)
    marker: str = "chevron-1"
    visited: list[str] = attrs.Factory(list)
    status: str = "active"  # active, safe (in a Bunker), dead
    tally: list[Die] = attrs.Factory(list)
    kept_tally: list[Die] | None = None
    entered_turn: int = 0
    moved_turn: int = -1
    recruited: int = 0
    found: int = 0
    awards_drawn: int = 0
    counters: dict[str, int] = attrs.Factory(dict)
    came_into_play: dict[str, int] = attrs.Factory(dict)
    conquered: str | None = None
    trading_pool: list[Die] | None = None  # dice an option's Trading Pool holds (rolled once; None: not yet)
    cards: list[str] = attrs.Factory(list)  # cards of an expansion's decks the Unit holds (Badges), used like Items
    side: str = ""  # "" for a Unit; else the side of a player who is not a Unit (rules/sides.yaml: the German)

    def chevrons(self) -> int:
        return MARKER_CHEVRONS.get(self.marker, 3 if self.marker == "must-move" else 1)


@attrs.define
class SectorState:
    id: str
    attributes: list[str] = attrs.Factory(list)
    entered: bool = False
    mgf_roll: list[int] | None = None
    mgf_turn: int = -1
    acquired: dict[str, int] = attrs.Factory(dict)  # attribute -> when it came into play (play order)


@attrs.define
class Event:
    """One line of the trace: who did what, from which card and tier, what changed."""

    turn: int
    phase: str
    unit: str | None
    kind: str
    detail: str
    source: str = ""
    tier: str = ""
    data: dict[str, Any] = attrs.Factory(dict)


@attrs.define
class GameState:
    map_id: str
    variant: str | None
    options: list[str]
    seed: int
    rng: random.Random  # the game's one source of randomness; saved as its state
    units: list[Unit]
    sectors: dict[str, SectorState]
    turn: int = 0
    phase: str = "setup"
    pool: list[str] = attrs.Factory(list)  # Unique Specialists and Items in the Pool
    placed: dict[str, str] = attrs.Factory(dict)  # card -> sector where it waits
    hands: dict[str, list[str]] = attrs.Factory(dict)  # unit -> Regular Specialists in hand
    award_deck: list[str] = attrs.Factory(list)
    award_discard: list[str] = attrs.Factory(list)
    abandoned: list[str] = attrs.Factory(list)
    bunker_specialists: dict[str, int] = attrs.Factory(dict)
    grants: list[Grant] = attrs.Factory(list)
    outcome: str | None = None  # "won" or "lost"
    reason: str = ""
    conquered: list[str] = attrs.Factory(list)
    log: list[Event] = attrs.Factory(list)
    choices: list[list[int]] = attrs.Factory(list)
    play_order: int = 0
    awards_from_map: list[str] = attrs.Factory(list)
    first_bunker_turn: int | None = None
    deaths: list[dict[str, Any]] = attrs.Factory(list)
    conquests: list[dict[str, Any]] = attrs.Factory(list)  # {unit, bunker, turn}: each Bunker a Unit survived
    # An expansion's decks (rules/kinds.yaml), top card first, and their discard piles, by kind of card.
    decks: dict[str, list[str]] = attrs.Factory(dict)
    discards: dict[str, list[str]] = attrs.Factory(dict)
    in_play: list[str] = attrs.Factory(list)  # drawn cards in play for every Unit (Battle Conditions), in order
    piles: list[list[str]] = attrs.Factory(list)  # an option's piles of Items, top first (its top is in the Pool)
    # Players of another side, who are not Units (rules/sides.yaml: the German player); they never move.
    sides: list[Unit] = attrs.Factory(list)
    # This turn's shortfall of a side's casualties: it lowers the DEF of every Sector for the Units.
    shortfall: int = 0

    def unit(self, uid: str) -> Unit:
        for u in self.units:
            if u.id == uid:
                return u
        for u in self.sides:
            if u.id == uid:
                return u
        raise KeyError(uid)

    def active_units(self) -> list[Unit]:
        return [u for u in self.units if u.status == "active"]

    def copy(self) -> GameState:
        return structure_state(unstructure_state(self))


_CONVERTER = cattrs.Converter()
_CONVERTER.register_structure_hook(Any, lambda v, _: v)


def _rng_to_json(rng: random.Random) -> Any:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def _rng_from_json(data: Any) -> random.Random:
    version, internal, gauss = data
    rng = random.Random()
    rng.setstate((version, tuple(internal), gauss))
    return rng


_CONVERTER.register_unstructure_hook(random.Random, _rng_to_json)
_CONVERTER.register_structure_hook(random.Random, lambda v, _: _rng_from_json(v))


def unstructure_state(state: GameState) -> dict[str, Any]:
    data: dict[str, Any] = _CONVERTER.unstructure(state)
    return data


def structure_state(data: dict[str, Any]) -> GameState:
    return _CONVERTER.structure(data, GameState)


def to_json(state: GameState) -> str:
    return json.dumps(unstructure_state(state), sort_keys=True, separators=(",", ":"))


def from_json(text: str) -> GameState:
    return structure_state(json.loads(text))


def digest(state: GameState) -> str:
    """A canonical hash of the state (without the trace), to compare two runs."""
    data = unstructure_state(state)
    data.pop("log", None)
    blob = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def position_digest(state: GameState) -> str:
    """The digest of a position: the state without the trace and without the choices that led to it (a replay's
    script), so that a scenario captured from a game (tools/position.py) compares with the game."""
    data = unstructure_state(state)
    data.pop("log", None)
    data.pop("choices", None)
    blob = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def new_rng(seed: int) -> random.Random:
    return random.Random(seed)
