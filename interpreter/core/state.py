"""Game state: attrs classes, saved and loaded as JSON through cattrs with nothing lost.

The state is mutable for speed (a simulated game changes it thousands of
times); :meth:`GameState.copy` makes an independent copy and :func:`digest`
a canonical hash, so two runs can be compared.

The classes are ``attr.s(auto_attribs=True)`` classes, the form mypyc compiles to native classes (compiled.txt),
whose attributes the compiled turn reads directly. A compiled class's annotations are erased to bare classes
(``list`` for ``list[Die]``, ``type`` for ``str | None``), so loading does not read them: :data:`SAVED_AS` names the
type of every field that holds more than JSON's own values, and saving follows the values themselves.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from typing import Any, Final

import attr
import attrs
import cattrs
from cattrs.gen import make_dict_structure_fn, override

MARKER_CHEVRONS = {"chevron-1": 1, "chevron-2": 2, "chevron-3": 3}
NEXT_MARKER = {"chevron-1": "chevron-2", "chevron-2": "chevron-3"}  # a turn more in the same Sector
STAY_FORBIDDEN = frozenset({"must-move", "cant-stay"})  # the faces on which the Unit may not stay (the 'stay' base)


@attr.s(auto_attribs=True, init=False)
class Die:
    """One result of a Final Tally. ``real`` is False for colourless "virtual" results added by effects.

    Its ``__init__`` is written out (attrs's is Python code, even for a compiled class): a game makes dozens of
    dice a turn. tests/test_state.py checks it takes the fields, in order, with their defaults."""

    face: str
    colour: str | None
    index: int  # position in the Unit's six dice (red 1, red 2, white 1, white 2, blue 1, blue 2); -1 if virtual
    locked: bool = False
    real: bool = True
    cancelled: bool = False
    source: str = ""  # for virtual results: the effect that added it

    def __init__(self, face: str, colour: str | None, index: int, locked: bool = False, real: bool = True,
                 cancelled: bool = False, source: str = "") -> None:
        self.face = face
        self.colour = colour
        self.index = index
        self.locked = locked
        self.real = real
        self.cancelled = cancelled
        self.source = source


@attr.s(auto_attribs=True)
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
    by: str | None = None  # the player whose card granted it (a Unit, another side's player), named in derivations


@attr.s(auto_attribs=True, init=False)
class Unit:
    id: str
    name: str
    sector: str
    soldiers: int = 0
    stars: int = 0
    courage: int = 0
    item_points: int = 0
    specialists: list[str] = attr.Factory(list)
    dead: list[str] = attr.Factory(list)
    items: list[str] = attr.Factory(list)
    used_items: list[str] = attr.Factory(list)
    vehicle: str | None = None
    awards: list[str] = attr.Factory(list)
    used_awards: list[str] = attr.Factory(list)
    marker: str = "chevron-1"
    visited: list[str] = attr.Factory(list)
    status: str = "active"  # active, safe (in a Bunker), dead
    tally: list[Die] = attr.Factory(list)
    kept_tally: list[Die] | None = None
    entered_turn: int = 0
    moved_turn: int = -1
    recruited: int = 0
    found: int = 0
    awards_drawn: int = 0
    counters: dict[str, int] = attr.Factory(dict)
    came_into_play: dict[str, int] = attr.Factory(dict)
    conquered: str | None = None
    trading_pool: list[Die] | None = None  # dice an option's Trading Pool holds (rolled once; None: not yet)
    cards: list[str] = attr.Factory(list)  # cards of an expansion's decks the Unit holds (Badges), used like Items
    side: str = ""  # "" for a Unit; else the side of a player who is not a Unit (rules/sides.yaml: the German)

    def __init__(self, id: str, name: str, sector: str, soldiers: int = 0, stars: int = 0, courage: int = 0,
                 item_points: int = 0, specialists: list[str] | None = None, dead: list[str] | None = None,
                 items: list[str] | None = None, used_items: list[str] | None = None, vehicle: str | None = None,
                 awards: list[str] | None = None, used_awards: list[str] | None = None, marker: str = "chevron-1",
                 visited: list[str] | None = None, status: str = "active", tally: list[Die] | None = None,
                 kept_tally: list[Die] | None = None, entered_turn: int = 0, moved_turn: int = -1,
                 recruited: int = 0, found: int = 0, awards_drawn: int = 0, counters: dict[str, int] | None = None,
                 came_into_play: dict[str, int] | None = None, conquered: str | None = None,
                 trading_pool: list[Die] | None = None, cards: list[str] | None = None, side: str = "") -> None:
        # (written out, as Die's: a list or dict left out is a new one)
        self.id = id
        self.name = name
        self.sector = sector
        self.soldiers = soldiers
        self.stars = stars
        self.courage = courage
        self.item_points = item_points
        self.specialists = [] if specialists is None else specialists
        self.dead = [] if dead is None else dead
        self.items = [] if items is None else items
        self.used_items = [] if used_items is None else used_items
        self.vehicle = vehicle
        self.awards = [] if awards is None else awards
        self.used_awards = [] if used_awards is None else used_awards
        self.marker = marker
        self.visited = [] if visited is None else visited
        self.status = status
        self.tally = [] if tally is None else tally
        self.kept_tally = kept_tally
        self.entered_turn = entered_turn
        self.moved_turn = moved_turn
        self.recruited = recruited
        self.found = found
        self.awards_drawn = awards_drawn
        self.counters = {} if counters is None else counters
        self.came_into_play = {} if came_into_play is None else came_into_play
        self.conquered = conquered
        self.trading_pool = trading_pool
        self.cards = [] if cards is None else cards
        self.side = side

    def chevrons(self) -> int:
        return MARKER_CHEVRONS.get(self.marker, 3 if self.marker == "must-move" else 1)

    def resource(self, name: str) -> int | None:
        """How much the Unit has of a resource named as the rules name it (rules/resources.yaml: ``item-points``), or
        of another count it keeps; None when it keeps no such count. (The resources are read natively: compiled,
        getattr() of a name worked out is a generic call, and conditions and scores ask every turn.)"""
        if name == "courage":
            return self.courage
        if name == "stars":
            return self.stars
        if name == "soldiers":
            return self.soldiers
        if name == "item-points":
            return self.item_points
        value = getattr(self, name.replace("-", "_"), None)
        return value if isinstance(value, int) else None


@attr.s(auto_attribs=True, init=False)
class SectorState:
    id: str
    attributes: list[str] = attr.Factory(list)
    entered: bool = False
    mgf_roll: list[int] | None = None
    mgf_turn: int = -1
    acquired: dict[str, int] = attr.Factory(dict)  # attribute -> when it came into play (play order)

    def __init__(self, id: str, attributes: list[str] | None = None, entered: bool = False,
                 mgf_roll: list[int] | None = None, mgf_turn: int = -1, acquired: dict[str, int] | None = None
                 ) -> None:
        # (written out, as Die's; a list or dict left out is a new one)
        self.id = id
        self.attributes = [] if attributes is None else attributes
        self.entered = entered
        self.mgf_roll = mgf_roll
        self.mgf_turn = mgf_turn
        self.acquired = {} if acquired is None else acquired


@attr.s(auto_attribs=True)
class Event:
    """One line of the trace: who did what, from which card and tier, what changed."""

    turn: int
    phase: str
    unit: str | None
    kind: str
    detail: str
    source: str = ""
    tier: str = ""
    data: dict[str, Any] = attr.Factory(dict)


@attr.s(auto_attribs=True, init=False)
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
    pool: list[str] = attr.Factory(list)  # Unique Specialists and Items in the Pool
    placed: dict[str, str] = attr.Factory(dict)  # card -> sector where it waits
    hands: dict[str, list[str]] = attr.Factory(dict)  # unit -> Regular Specialists in hand
    award_deck: list[str] = attr.Factory(list)
    award_discard: list[str] = attr.Factory(list)
    abandoned: list[str] = attr.Factory(list)
    bunker_specialists: dict[str, int] = attr.Factory(dict)
    grants: list[Grant] = attr.Factory(list)
    outcome: str | None = None  # "won" or "lost"
    reason: str = ""
    conquered: list[str] = attr.Factory(list)
    log: list[Event] = attr.Factory(list)
    choices: list[list[int]] = attr.Factory(list)
    play_order: int = 0
    awards_from_map: list[str] = attr.Factory(list)
    first_bunker_turn: int | None = None
    deaths: list[dict[str, Any]] = attr.Factory(list)
    conquests: list[dict[str, Any]] = attr.Factory(list)  # {unit, bunker, turn}: each Bunker a Unit survived
    # An expansion's decks (rules/kinds.yaml), top card first, and their discard piles, by kind of card.
    decks: dict[str, list[str]] = attr.Factory(dict)
    discards: dict[str, list[str]] = attr.Factory(dict)
    in_play: list[str] = attr.Factory(list)  # drawn cards in play for every Unit (Battle Conditions), in order
    piles: list[list[str]] = attr.Factory(list)  # an option's piles of Items, top first (its top is in the Pool)
    # Players of another side, who are not Units (rules/sides.yaml: the German player); they never move.
    sides: list[Unit] = attr.Factory(list)
    # This turn's shortfall of a side's casualties: it lowers the DEF of every Sector for the Units.
    shortfall: int = 0

    def __init__(self, map_id: str, variant: str | None, options: list[str], seed: int, rng: random.Random,
                 units: list[Unit], sectors: dict[str, SectorState], turn: int = 0, phase: str = "setup",
                 pool: list[str] | None = None, placed: dict[str, str] | None = None,
                 hands: dict[str, list[str]] | None = None, award_deck: list[str] | None = None,
                 award_discard: list[str] | None = None, abandoned: list[str] | None = None,
                 bunker_specialists: dict[str, int] | None = None, grants: list[Grant] | None = None,
                 outcome: str | None = None, reason: str = "", conquered: list[str] | None = None,
                 log: list[Event] | None = None, choices: list[list[int]] | None = None, play_order: int = 0,
                 awards_from_map: list[str] | None = None, first_bunker_turn: int | None = None,
                 deaths: list[dict[str, Any]] | None = None, conquests: list[dict[str, Any]] | None = None,
                 decks: dict[str, list[str]] | None = None, discards: dict[str, list[str]] | None = None,
                 in_play: list[str] | None = None, piles: list[list[str]] | None = None,
                 sides: list[Unit] | None = None, shortfall: int = 0) -> None:
        # (written out, as Die's: a list or dict left out is a new one)
        self.map_id = map_id
        self.variant = variant
        self.options = options
        self.seed = seed
        self.rng = rng
        self.units = units
        self.sectors = sectors
        self.turn = turn
        self.phase = phase
        self.pool = [] if pool is None else pool
        self.placed = {} if placed is None else placed
        self.hands = {} if hands is None else hands
        self.award_deck = [] if award_deck is None else award_deck
        self.award_discard = [] if award_discard is None else award_discard
        self.abandoned = [] if abandoned is None else abandoned
        self.bunker_specialists = {} if bunker_specialists is None else bunker_specialists
        self.grants = [] if grants is None else grants
        self.outcome = outcome
        self.reason = reason
        self.conquered = [] if conquered is None else conquered
        self.log = [] if log is None else log
        self.choices = [] if choices is None else choices
        self.play_order = play_order
        self.awards_from_map = [] if awards_from_map is None else awards_from_map
        self.first_bunker_turn = first_bunker_turn
        self.deaths = [] if deaths is None else deaths
        self.conquests = [] if conquests is None else conquests
        self.decks = {} if decks is None else decks
        self.discards = {} if discards is None else discards
        self.in_play = [] if in_play is None else in_play
        self.piles = [] if piles is None else piles
        self.sides = [] if sides is None else sides
        self.shortfall = shortfall

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


# The type of each field that holds more than JSON's own values (str, int, bool, None, and lists and dicts of them):
# the state's classes, a tuple, the generator. Every other field is loaded as its JSON value. (tests/test_state.py
# checks this against the classes' annotations, so a new field of a state class cannot be left out.)
SAVED_AS: Final[dict[type, dict[str, Any]]] = {
    Grant: {"args": tuple[str, ...]},
    Unit: {"tally": list[Die], "kept_tally": list[Die] | None, "trading_pool": list[Die] | None},
    GameState: {"rng": random.Random, "units": list[Unit], "sides": list[Unit], "sectors": dict[str, SectorState],
                "grants": list[Grant], "log": list[Event]},
}


def _rng_to_json(rng: random.Random) -> Any:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def _rng_from_json(data: Any, _: Any) -> random.Random:
    version, internal, gauss = data
    rng = random.Random()
    rng.setstate((version, tuple(internal), gauss))
    return rng


def _as_loaded(value: Any, _: Any) -> Any:
    return value


def _loader(converter: cattrs.Converter, typ: Any) -> Any:
    def load(value: Any, _: Any) -> Any:
        return converter.structure(value, typ)
    return load


def _converter() -> cattrs.Converter:
    converter = cattrs.Converter()
    converter.register_structure_hook(random.Random, _rng_from_json)
    for cls in (Die, SectorState, Event, Grant, Unit, GameState):
        typed = SAVED_AS.get(cls, {})
        hooks: dict[str, Any] = {
            f.name: override(struct_hook=_loader(converter, typed[f.name]) if f.name in typed else _as_loaded)
            for f in attrs.fields(cls)}
        converter.register_structure_hook(cls, make_dict_structure_fn(cls, converter, **hooks))
    return converter


_CONVERTERS: Final[list[cattrs.Converter]] = []  # built on the first load (cattrs compiles its loaders: ~15 ms)


def _plain(value: Any) -> Any:
    """A value as JSON's values, by what it is (a compiled class's annotations do not say): new lists and dicts, so
    that a copy shares nothing with its original."""
    if isinstance(value, str | int | float) or value is None:
        return value
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, random.Random):
        return _rng_to_json(value)
    return {f.name: _plain(getattr(value, f.name)) for f in attrs.fields(type(value))}


def unstructure_state(state: GameState) -> dict[str, Any]:
    data: dict[str, Any] = _plain(state)
    return data


def structure_state(data: dict[str, Any]) -> GameState:
    if not _CONVERTERS:
        _CONVERTERS.append(_converter())
    state: GameState = _CONVERTERS[0].structure(data, GameState)
    return state


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
    """A generator in the state ``random.Random(seed)`` gives, made without its Python layers.

    ``random.Random(seed)`` runs ``Random.__init__`` and ``Random.seed`` (Python code, about 9,000 instructions) around
    the C seeding of the Mersenne Twister (about 26,000). For an int, ``Random.seed`` hands the number to the C
    seeding unchanged and clears ``gauss_next``: done here directly, the state is the same (tests/test_state.py
    checks it), for some 0.8% of a Practice Run game."""
    rng: random.Random = random.Random.__new__(random.Random)
    C_SEED(rng, seed)
    rng.gauss_next = None  # type: ignore[attr-defined]
    return rng


#: The C generator's own seeding, under ``random.Random.seed`` (for an int: the same seeding, without the Python code).
C_SEED: Final[Callable[[random.Random, int], None]] = random.Random.__mro__[1].seed  # type: ignore[attr-defined]
