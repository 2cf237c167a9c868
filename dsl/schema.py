"""The shape of content files, as frozen attrs classes structured by cattrs.

YAML keys are spelt with hyphens (``special-damage``); attribute names use
underscores. Unknown keys are errors: a misspelt key that were dropped would
make a card silently do less.
"""

from __future__ import annotations

from typing import Annotated, Literal

import attrs

from ddaydice.dsl.limits import (
    ID,
    MAX_COST,
    MAX_DEF,
    MAX_MGF,
    MAX_PLAYERS,
    MAX_RESOURCE,
    MAX_ROWS,
    MAX_SECTOR_NUMBER,
    MAX_SMALL_COUNT,
    MAX_TABLE_NUMBER,
    RULING,
    RULING_REF,
    Range,
)

Provenance = Literal["rulebook", "printed-board", "reconstructed"]
CardKind = Literal["specialist", "item", "vehicle", "award"]
# The four kinds the base game knows; an expansion declares more in rules/kinds.yaml (KindDef).
BASE_KINDS: tuple[str, ...] = ("specialist", "item", "vehicle", "award")
# The base kinds whose cards act only when used (held until played, then discarded), by their name: no standing
# change, and no trigger but on the card's own coming, applies to them (the checker's DSL116). An expansion's kind
# held like an Item (rules/kinds.yaml: held-as item, or held by a Unit among its cards) is one too.
USED_ONLY_KINDS: dict[str, str] = {"item": "Item", "award": "Award"}

# Bounded values (dsl/limits.py, docs/security.md): the YAML reader refuses an id that is no slug and a number out
# of its range, at its place in the file. To the type checker they are plain str and int.
Id = Annotated[str, ID]
Cost = Annotated[int, Range(0, MAX_COST)]
Def = Annotated[int, Range(0, MAX_DEF)]
Resource_ = Annotated[int, Range(0, MAX_RESOURCE)]
Small = Annotated[int, Range(0, MAX_SMALL_COUNT)]
TableNumber = Annotated[int, Range(0, MAX_TABLE_NUMBER)]
Players = Annotated[int, Range(1, MAX_PLAYERS)]
RulingNo = Annotated[str, RULING]


@attrs.frozen
class RulingRef:
    """One entry of ``rulings:``: a ruling's number as the file writes it (``"7.3"``, or unquoted ``7.3``), or a
    mapping that says which queries it is about (``{ruling: "7.3", query: mgf-dice}``; ``query:`` one id or a
    list), so that ``dday explain`` shows it only under the steps of those queries (none: under every step of the
    entry). Read by dsl/limits.py ``RulingRefRule.structure``, checked at load (a number that is none, or a query no
    rules/queries.yaml lists: LOAD013; a number no rules/rulings.yaml lists: LOAD010)."""

    ruling: str
    query: tuple[str, ...] = ()


@attrs.frozen
class Cited:
    """Where the rulebook writes what an entry says, for ``dday explain`` and ``dday card``: ``rulebook``, the place
    (a section heading as printed, a page: "ITEMS, p. 7"), and ``rulings``, the numbers of the rulings that decide
    how it reads or combines (docs/rulings.md, listed in rules/rulings.yaml; a pack's own in its
    rules/rulings.yaml). Both optional; a ruling no rules/rulings.yaml lists is refused at its place (LOAD010).
    Keyword-only, so that a record's own fields keep their order."""

    rulebook: str = attrs.field(default="", kw_only=True)
    rulings: tuple[Annotated[RulingRef, RULING_REF], ...] = attrs.field(default=(), kw_only=True)


@attrs.frozen
class RulingDef:
    """A ruling on a question the rulebook leaves open (docs/rulings.md), by its number: what ``rulings:`` cites."""

    id: RulingNo
    title: str


@attrs.frozen
class RulingRules:
    provenance: Provenance
    rulings: tuple[RulingDef, ...] = ()
    note: str = ""  # what is ours, for a reconstruction (PROV001 without it)


@attrs.frozen
class Face:
    id: Id
    name: str
    text: str = ""
    soldiers: Small = 0


@attrs.frozen
class DiceRules:
    provenance: Provenance
    faces: tuple[Face, ...]
    colours: tuple[Id, ...]
    dice_per_colour: Annotated[int, Range(1, MAX_SMALL_COUNT)]
    tool_table: tuple[TableNumber, ...]
    tool_table_step: Annotated[int, Range(1, MAX_TABLE_NUMBER)]
    rolls: Annotated[int, Range(1, MAX_SMALL_COUNT)]
    note: str = ""  # what is ours, for a reconstruction (PROV001 without it)


@attrs.frozen
class Resource:
    id: Id
    name: str
    aliases: tuple[Id, ...] = ()


@attrs.frozen
class ResourceRules:
    provenance: Provenance
    resources: tuple[Resource, ...]
    note: str = ""  # what is ours, for a reconstruction (PROV001 without it)


@attrs.frozen
class Tier:
    """A precedence tier. In a pack, a tier with the id of an existing one adds its ``sources`` to it (Badges
    rank with Items); a new tier goes on top, or right above the tier named by ``after`` (Battle Conditions
    sit between Sector attributes and Specialists). ``beyond-turn-limits``: what its effects grant (a Specialist
    recruited, an Item found, an Award drawn) is outside the game rules' limits per turn and does not count toward
    them (ruling 2.5: Awards, Sector attributes, Battle Conditions). ``asks-no-permission``: its effects' actions
    ask no permission (a find, a re-roll of a Skull), so no forbid stops them (ruling 7.5: Awards "override
    everything else")."""

    id: Id
    name: str
    sources: tuple[str, ...]
    after: str | None = None
    beyond_turn_limits: bool = False
    asks_no_permission: bool = False


@attrs.frozen
class PrecedenceRules(Cited):
    """The order of precedence; its ``rulebook:`` and ``rulings:`` are what ``dday explain`` cites under a step
    another effect overrules."""

    provenance: Provenance
    tiers: tuple[Tier, ...]
    note: str = ""  # what is ours, for a reconstruction (PROV001 without it)


@attrs.frozen
class Phase(Cited):
    """A phase of the turn; its ``rulebook:`` and ``rulings:`` are what ``dday explain`` cites under the checks
    the engine makes in it (the movement's, behind ``may-enter``)."""

    id: Id
    name: str


@attrs.frozen
class PhaseRules:
    provenance: Provenance
    phases: tuple[Phase, ...]
    note: str = ""  # what is ours, for a reconstruction (PROV001 without it)


@attrs.frozen
class QueryDef(Cited):
    id: Id
    kind: Literal["number", "flag"]
    subject: Literal["unit", "sector", "card", "game"]
    text: str
    base: int | bool | str = "computed"
    minimum: int | None = None
    name: str = ""
    # A number the turn uses up, and when (casualties: each loss); a limited change of it ('casualties -1 once
    # per phase') is counted at each use. A number only asked (DEF, a cost) has none: a limit on a change of it
    # is refused (DSL133).
    used: str = ""


@attrs.frozen
class Ignorable:
    id: Id
    text: str


@attrs.frozen
class QueryRules:
    provenance: Provenance
    queries: tuple[QueryDef, ...]
    ignorables: tuple[Ignorable, ...]
    note: str = ""  # what is ours, for a reconstruction (PROV001 without it)


@attrs.frozen
class RwbDef:
    id: Id
    name: str
    face: str
    text: str
    effect: str
    # An entry written for an optional rule stands in for the entry of the same id while that rule is on
    # (Badges: the Battle Cry RWB gains a third option); it is left out otherwise.
    option: str | None = None
    # The bonus belongs to the table of another side (rules/sides.yaml: the German player's RBN bonuses):
    # it is scored by that side's players only, on that side's colours.
    side: str | None = None


@attrs.frozen
class RwbRules:
    """The RWB bonuses. ``beyond-turn-limits``: what a bonus grants (the Special Find's Item) is outside the game
    rules' limits per turn, whatever its tier (ruling 1.6); a pack's rwb.yaml that says so marks them too."""

    provenance: Provenance
    rwb: tuple[RwbDef, ...]
    beyond_turn_limits: bool = False
    note: str = ""  # what is ours, for a reconstruction (PROV001 without it)


@attrs.frozen
class RuleDef(Cited):
    id: Id
    name: str
    text: str
    effect: str = ""


@attrs.frozen
class MarkerFace:
    id: Id
    name: str


@attrs.frozen
class GameRules:
    provenance: Provenance
    rules: tuple[RuleDef, ...]
    marker_faces: tuple[MarkerFace, ...] = ()
    special_damage: tuple[RuleDef, ...] = ()
    note: str = ""  # what is ours, for a reconstruction (PROV001 without it)


@attrs.frozen
class OptionDef(Cited):
    """An optional rule or mode (rules/options/): settings and effects, switched on by id."""

    id: Id
    name: str
    text: str
    provenance: Provenance
    effect: str = ""
    note: str = ""
    settings: dict[str, int | bool | str | list[str]] = attrs.field(factory=dict)
    requires: tuple[str, ...] = ()


@attrs.frozen
class Card(Cited):
    id: Id
    name: str
    text: str
    provenance: Provenance
    effect: str = ""
    cost: Cost | None = None
    note: str = ""
    grade: Literal["regular", "unique", "special", "award"] | None = None
    unavailable_in: tuple[str, ...] = ()
    # The card is in a game only when one of these optional rules is on (the Atlantikwall Allied cards,
    # which "apply only with the Atlantikwall rules"); a pack may name here an option it lists as pending.
    only_in: tuple[str, ...] = ()
    # Words a deck's rules may test: a Battle Condition 'weather' card persists with Persistent Weather.
    tags: tuple[str, ...] = ()
    window: str | None = None
    overrides: bool = False


@attrs.frozen
class CardFile:
    kind: str  # one of BASE_KINDS, or a kind declared in rules/kinds.yaml (checked by the loader)
    cards: tuple[Card, ...]


@attrs.frozen
class Line:
    """Lines between sectors: advances go up a row, laterals go both ways.

    ``cost`` is the Courage printed at the left end of the line an Advance crosses. Moving into a
    Sector that has its own ``cost`` (a Bunker: the Courage printed on it) always counts as an
    Advance and costs the Sector's ``cost``, whatever line is crossed, a lateral one included
    (Gold Beach's top row); such an advance line may omit its own ``cost``.
    """

    from_: tuple[str, ...]
    to: tuple[str, ...]
    kind: Literal["advance", "lateral"]
    cost: Cost | None = None
    landmines: bool = False
    barrier: bool = False
    provenance: Provenance | None = None


@attrs.frozen
class Start:
    """A starting Sector's resources (printed at the bottom of the map).

    ``specialists`` join the Unit at the start. ``regular_specialists``, when given, replaces the
    map's list for the Regular Specialists a Unit starting here draws into its hand (scenarios that
    join maps, where each player's map decides his Regular Specialists: Operation Deadstick).
    ``at_least``: at least this many Units must start here ("at least 1 player per Map").
    """

    soldiers: Resource_ = 0
    stars: Resource_ = 0
    courage: Resource_ = 0
    item_points: Resource_ = 0
    specialists: tuple[str, ...] = ()
    regular_specialists: tuple[str, ...] | None = None
    at_least: Annotated[int, Range(0, MAX_PLAYERS)] = 0


@attrs.frozen
class Sector(Cited):
    id: Id
    name: str
    row: Annotated[int, Range(1, MAX_ROWS)]
    defense: tuple[Def, ...]
    provenance: Provenance
    number: Annotated[int, Range(0, MAX_SECTOR_NUMBER)] | None = None
    black: bool = False
    mgf: Annotated[int, Range(0, MAX_MGF)] = 0
    special_damage: str | None = None
    bunker: bool = False
    start: Start | None = None
    text: str = ""
    effect: str = ""
    note: str = ""
    column: float | None = None
    objective: bool = True  # a Bunker that at least 1 Unit must conquer (Gold Beach: both of them)
    cost: Cost | None = None  # Courage printed on a Bunker: entering it costs this, from any line


@attrs.frozen
class Attribute(Cited):
    """A named Sector attribute that effects can give a Sector later (random tables)."""

    id: Id
    name: str
    text: str
    effect: str = ""


@attrs.frozen
class Table:
    id: Id
    name: str
    results: tuple[str, ...]


@attrs.frozen
class VariantSector:
    """What a variant prints on one of the map's Sectors instead of the map's values: its DEFs (several are read
    by the Unit marker's chevrons, the rising DEF of a Unit that stays)."""

    id: Id
    defense: tuple[Def, ...]


@attrs.frozen
class Variant:
    """A way to play a map (Exercise Tiger's three trainings).

    ``specialists``, ``items``, ``vehicles``: ``None`` keeps the map's list; a list replaces it.
    As on the map, ``items`` lists Special Items, and Regular Items stay available, except that an
    empty list (``items: []``) means no Items at all, Regular Items included.
    """

    id: Id
    name: str
    text: str
    ignore: tuple[Literal["attributes", "mgf", "landmines", "faces", "skulls", "rwb", "requirements",
                          "special-damage", "stars", "tools", "awards"], ...] = ()
    keep_faces: tuple[str, ...] = ()
    specialists: tuple[str, ...] | None = None
    items: tuple[str, ...] | None = None
    vehicles: tuple[str, ...] | None = None
    # "If a Unit is killed along the way, the other players must continue" (Exercise Tiger's first trainings).
    continue_after_loss: bool = False
    # The Sectors this variant prints otherwise than the map (``sectors: [{id: s4, def: [5, 7, 9]}]``).
    sectors: tuple[VariantSector, ...] = ()
    # None: the map's own provenance. A variant of our own on a printed or reconstructed map says so here.
    provenance: Provenance | None = None


@attrs.frozen
class PlacedCard:
    """A card that can be found only in one Sector (free for the first Unit to enter).

    A placed card is set aside from the Pool at set-up: it is never recruited or found elsewhere.
    The Sector's effect says how it is obtained (``on first-enter: find shoulder-patch free``).
    """

    card: str
    sector: str


@attrs.frozen
class BattleMap:
    id: Id
    name: str
    provenance: Provenance
    sectors: tuple[Sector, ...]
    lines: tuple[Line, ...]
    number: str = ""
    text: str = ""
    note: str = ""
    specialists: tuple[str, ...] = ()
    items: tuple[str, ...] = ()
    vehicles: tuple[str, ...] = ()  # in the Pool, found like an Item (one found in a Sector only: its offer)
    placed: tuple[PlacedCard, ...] = ()
    variants: tuple[Variant, ...] = ()
    attributes: tuple[Attribute, ...] = ()
    tables: tuple[Table, ...] = ()
    special_damage: str | None = None
    rules: str = ""
    players: tuple[Players, Players] = (1, 4)
    encodes: tuple[str, ...] = ()

    def variant_problem(self, variant: str) -> tuple[str, str | None] | None:
        """Why ``variant`` is no variant of this map (naming those it has) and a did-you-mean hint, or None: the one
        check of a variant named on a command line, in a set-up or in a scenario."""
        from ddaydice.dsl.diagnostics import did_you_mean

        ids = [v.id for v in self.variants]
        if variant in ids:
            return None
        has = f"variants: {', '.join(ids)}" if ids else "it has none"
        return f"map '{self.id}' has no variant '{variant}' ({has})", did_you_mean(variant, ids)

    def played_as(self, variant: Variant | None) -> BattleMap:
        """The map as ``variant`` plays it: its Sectors with the variant's DEF values (itself if none)."""
        if variant is None or not variant.sectors:
            return self
        printed = {vs.id: vs for vs in variant.sectors}
        return attrs.evolve(self, sectors=tuple(
            attrs.evolve(s, defense=printed[s.id].defense) if s.id in printed else s for s in self.sectors))


@attrs.frozen
class Manifest:
    """An expansion pack's manifest (expansions/NAME/pack.yaml)."""

    id: Id
    name: str
    version: str
    text: str
    provenance: Provenance
    requires: tuple[str, ...] = ()
    adds: tuple[str, ...] = ()
    note: str = ""
    overrides: tuple[str, ...] = ()
    stands_in_for: str = ""
    award_deck_size: TableNumber | None = None
    # Optional rules the pack will add but does not implement yet: cards may say they are 'only-in' one of
    # them (they stay out of every game until it exists); `dday list` names them.
    pending: tuple[str, ...] = ()


@attrs.frozen
class Persist:
    """Cards of a deck with this tag stay in play, while the optional rule is on, until another card with
    the tag is drawn; they apply after the cards drawn with them, so they win their conflicts."""

    tag: str
    option: str


@attrs.frozen
class KindDef:
    """A kind of card an expansion adds (rules/kinds.yaml), and how its deck works.

    ``deck``: the cards are shuffled into a deck at set-up (if ``option`` is on, or always without one);
    a card is drawn from the top, and the discard pile is shuffled into a new deck when it runs out.
    ``held_by``: a drawn card goes to the Unit that drew it, held and used like an Item (``unit``), or into
    play for every Unit (``game``): its effects are in play like a rule's, in its kind's precedence tier.
    ``draw_each_turn``: cards the game draws into play at the start of each turn, before the first phase;
    each stays until the next turn's draw. ``per_turn``: the most one Unit may draw in one turn.
    ``tradeable``: held cards are traded like Items. ``persist``: tagged cards that outlast the turn.
    """

    id: Id
    name: str
    text: str
    deck: bool = True
    option: str | None = None
    held_by: Literal["unit", "game"] = "unit"
    draw_each_turn: Small = 0
    per_turn: Annotated[int, Range(0, MAX_TABLE_NUMBER)] | None = None
    tradeable: bool = False
    persist: tuple[Persist, ...] = ()
    plural: str = ""
    # Cards of this kind are held and counted like Specialists or like Items (another side's Specialists
    # and Items: recruited or found from the Pool by that side's players only).
    held_as: Literal["specialist", "item"] | None = None
    # What the kind's cards grant (a Specialist recruited, an Item found, an Award drawn) is outside the game
    # rules' limits per turn and does not count toward them, whatever their tier (ruling 2.5, as an RWB's).
    beyond_turn_limits: bool = False
    side: str | None = None  # the side whose players alone recruit, find or draw these cards


@attrs.frozen
class KindRules:
    provenance: Provenance
    kinds: tuple[KindDef, ...] = ()
    note: str = ""  # what is ours, for a reconstruction (PROV001 without it)


@attrs.frozen
class Assault:
    """A contest between a side and a Unit entering an objective Bunker (Atlantikwall, Phase 7: Assault).

    Each side counts its Soldiers (Specialists count as their Soldier value); more wins; a tie goes to the
    side with more Specialists, then to ``ties``. A Unit that wins ends the game (won); a Unit that loses is
    destroyed, and the game goes on while other Units are in play; ``trophy`` is the side's effect then
    (in the effect language, run for the side's player)."""

    name: str
    text: str
    ties: Literal["side", "units"] = "side"
    trophy: str = ""


@attrs.frozen
class SideStart:
    soldiers: Resource_ = 0
    stars: Resource_ = 0
    courage: Resource_ = 0
    item_points: Resource_ = 0
    specialists: tuple[str, ...] = ()


@attrs.frozen
class SideDef:
    """Another side than the Allied Units (rules/sides.yaml): a player who is not a Unit.

    The side's player rolls ``colours`` (a die changing hands changes colour by ``colour-alias``), scores the
    RWB entries written for the side, recruits and finds the cards of the kinds written for the side, never
    moves, and its turn is the game's phases, acting first (the side decides the order of simultaneous
    things). ``casualties``: how the side loses Soldiers in Combat (``highest-occupied-def``: the highest
    printed DEF among the Sectors the Units occupy; a shortfall lowers the DEF of every Sector for the
    Units, and below 0 gives the Units there Soldiers). ``effect``: the side's own rules, in the effect
    language; they reach the side's players only (the game rules' effects reach Units only)."""

    id: Id
    name: str
    text: str
    option: str
    colours: tuple[Id, ...]
    colour_alias: dict[str, str] = attrs.field(factory=dict)
    start: SideStart = SideStart()
    casualties: Literal["highest-occupied-def"] | None = None
    assault: Assault | None = None
    effect: str = ""
    note: str = ""


@attrs.frozen
class SideRules:
    provenance: Provenance
    sides: tuple[SideDef, ...] = ()
    note: str = ""  # what is ours, for a reconstruction (PROV001 without it)
