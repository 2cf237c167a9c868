"""The registry of words: every word of the effect language, in one table.

The grammar (effect.lark) fixes only the shape of a clause. What a word means,
which arguments it takes and how it reads in English is here, and nowhere else:
the checker resolves names against this table, the renderer and the compiler
dispatch on it, and ``docs/dsl-reference.md`` is generated from it.

Names that come from content (dice faces, colours, resources, queries, flags,
RWB bonuses, phases, tiers, cards, sectors) are not listed here: they are read
from ``rules/`` and the loaded cards and maps, so an expansion can add a colour
or a query without touching this file.

A signature is a string of parameters, one per argument:

``kind``       one argument of that kind (see :data:`PARAM_KINDS`)
``kind?``      optional
``kind+``      one or more
``'word'``     that literal word
``a|b``        either
"""

from __future__ import annotations

from typing import Literal

import attrs

Role = Literal["action", "modifier", "event", "moment", "predicate", "counter", "target", "keyword"]


@attrs.frozen
class WordSpec:
    name: str
    role: Role
    signatures: tuple[str, ...]
    summary: str
    example: str = ""
    english: str = ""
    before_after: str = ""
    aliases: tuple[str, ...] = ()


PARAM_KINDS: dict[str, str] = {
    "amount": "a number (3), a die roll (1d6) or 'all'",
    "count": "a whole number",
    "change": "a signed change (-2, +1, -1d6) or '= value' (= 0, = unlimited)",
    "resource": "a resource: soldiers, stars, courage, item-points (from rules/resources.yaml)",
    "face": "a die face: skull, star, one-soldier, two-soldiers, courage, tool, or 'any' (chosen)",
    "colour": "a die colour (red, white, blue; expansions add more) or 'any-colour' (chosen)",
    "filter": "a die filter: a colour, a face, 'locked', 'unlocked', 'real' or 'any-roll'",
    "specialist": "a Specialist id (medic, corporal, ...)",
    "item": "an Item id (bazooka, ...)",
    "vehicle": "a Vehicle id (tank, ...)",
    "card": "any card id",
    "rwb": "an RWB bonus id (leadership, battle-cry, ...)",
    "query": "a query id (def, advance-cost, locked-dice, ...; rules/queries.yaml)",
    "flag": "a permission id (stay, find, battle-cry-move, ...; rules/queries.yaml)",
    "ignorable": "something that can be ignored (landmines, barriers, requirements, ...)",
    "tier": "a precedence tier (rules, sectors, specialists, items-vehicles, awards)",
    "attribute": "a named Sector attribute of the same map",
    "tag": "a tag that some loaded card carries in its data ('tags: [explosion]': explosion, weather, black)",
    "table": "a random attribute table of the same map",
    "sector": "a sector id of the same map",
    "counter": "something counted (a face in the tally, 'locked skull', 'rwb', 'specialist')",
    "kind": "a card kind (specialist, item, vehicle, award; expansions add more in rules/kinds.yaml)",
    "deck": "a kind of card whose cards form a deck (an expansion's: battle-condition, badge; rules/kinds.yaml)",
}

_W = WordSpec

WORDS: tuple[WordSpec, ...] = (
    # ----------------------------------------------------------------- actions
    _W("gain", "action", ("amount resource",), "Gain resources.",
       "on advance: gain 3 soldiers", "gain {0} {1}",
       "Soldiers 4 -> 7 after 'gain 3 soldiers'."),
    _W("lose", "action", ("amount resource",), "Lose resources (never below 0). Losing Soldiers is a casualty.",
       "on combat unless has minesweeper: lose 1d6 soldiers", "lose {0} {1}",
       "Soldiers 7 -> 4 after 'lose 3 soldiers'."),
    _W("add", "action", ("amount face colour?",),
       "Add results to the Final Tally. Without a colour they are colourless ('virtual'): they never form "
       "an RWB and cannot be traded. With a colour (or any-colour, chosen) they count for RWBs.",
       "on final-tally: add 1 tool", "add {0} {1} {2}",
       "Tally [tool, star] -> [tool, star, tool*] (* colourless)."),
    _W("remove", "action", ("amount face",),
       "Remove results from the Final Tally (a penalty); nothing happens if the result is missing.",
       "on final-tally: remove 3 star", "remove {0} {1}",
       "Tally [star, star, courage] -> [courage] after 'remove 3 star'."),
    _W("reroll", "action", ("count|'all' 'die' filter*",),
       "Re-roll dice of the Final Tally chosen by the player ('all': every die the filter allows, no choice). "
       "Locked dice are never re-rolled unless the filter says 'locked'.",
       "use once per turn after final-tally: reroll 1 die unlocked", "re-roll {0} die {2}",
       "Tally [skull(red 1), ...] -> [courage(red 1), ...]."),
    _W("reface", "action", ("count|'all' 'die' filter* 'same'?", "count|'all' 'die' filter* 'as' face"),
       "Change the result of dice to a face the player chooses, keeping their colour. 'any-roll' also "
       "reaches MGF and Landmine dice; 'same' makes every changed die take the same face; 'as FACE' names the "
       "face (no choice): 'reface 1 die skull as two-soldiers' (the player chooses which Skull).",
       "use: reface 1 die any-roll", "change the result of {0} die {2}",
       "MGF die 6 -> 1 with 'reface 1 die any-roll'."),
    _W("recolour", "action", ("count 'die' filter*",),
       "Change the colour of dice, keeping their result (three dice of one colour become possible).",
       "use once per turn after final-tally: recolour 1 die", "change the colour of {0} die {2}",
       "white star -> blue star."),
    _W("copy-tally", "action", ("",),
       "Ignore this Unit's Final Tally and copy another Unit's (chosen).",
       "use after final-tally: copy-tally", "copy another Unit's Final Tally and ignore yours"),
    _W("keep-tally", "action", ("",),
       "This Final Tally will also be this Unit's Final Tally next turn (it does not roll then).",
       "use after final-tally: sacrifice self, keep-tally", "this Final Tally will also be your Final Tally next turn"),
    _W("sacrifice", "action", ("'self'", "count 'specialist'", "specialist"),
       "Lose a Specialist on purpose (not a casualty of combat): this card, one of the player's choice, or a "
       "named one. With a recipient another player loses it, and chooses which ('sacrifice 1 specialist to "
       "the german': the German loses 1 Specialist of his choice). An option of an OR that would lose a card "
       "the player does not have cannot be chosen.",
       "use: sacrifice self, allow stay this turn", "sacrifice {0}"),
    _W("recruit", "action", ("specialist 'free'?", "count 'specialist' 'free'?"),
       "Recruit a named Specialist or one of the player's choice; 'free' costs no Stars and does not count "
       "toward the 1-per-turn limit.",
       "on enter: recruit scout free", "recruit {0}"),
    _W("find", "action", ("item|vehicle 'free'?", "count 'item'|'vehicle'|'used-item' 'free'?"),
       "Find a named Item or Vehicle, or Items or a Vehicle of the player's choice; 'free' costs no Item "
       "Points and does not count toward the 1-per-turn limit. A Unit still holds at most 1 Vehicle. "
       "'used-item': one of the player's own used Items, paying its cost again (the German's Ingenuity).",
       "use after final-tally: find 1 vehicle free", "find {0}",
       "Vehicle: none -> Jeep (chosen) after 'find 1 vehicle free'; Item Points unchanged."),
    _W("offer", "action", ("vehicle|item",),
       "Make a card available to be found here by paying its cost (Vehicles in particular Sectors).",
       "offer tank", "{0} can be found here (pay its cost)"),
    _W("draw-award", "action", ("'random'|'choice'",),
       "Draw an Award card, at random or of the player's choice; at most one per turn.",
       "use: draw-award random", "draw an Award {0}"),
    _W("rwb", "action", ("rwb",),
       "Gain an RWB bonus as if it had been rolled (its OR choice included).",
       "use: rwb battle-cry", "gain a {0} RWB"),
    _W("absorb", "action", ("resource+",),
       "Spend any amount of these resources to save Soldiers from the current casualties, 1 for 1.",
       "on casualties: absorb courage stars", "spend {0} to save Soldiers, 1 for 1"),
    _W("die-instead", "action", ("",),
       "When another Specialist of this Unit would be lost, this card may be lost in its place.",
       "on specialist-lost: die-instead", "sacrifice this Specialist in place of the one being lost"),
    _W("swap-sectors", "action", ("",),
       "Switch Sectors with another Unit (chosen); Unit markers do not change, and both Units may "
       "re-enter Sectors they visited.",
       "use: sacrifice self, swap-sectors", "switch Sectors with another Unit"),
    _W("become", "action", ("attribute",),
       "This Sector gains a named attribute of its map for the rest of the game.",
       "on first-enter: become shelter", "this Sector becomes '{0}'"),
    _W("roll-attribute", "action", ("table",),
       "Roll 1d6 on one of the map's random attribute tables; this Sector keeps the result for the rest "
       "of the game.",
       "on first-enter: roll-attribute sword-table-1", "roll 1d6 on the {0} table"),
    _W("retreat", "action", ("sector",),
       "Move back to a named Sector (only if the Unit has not visited it); the only backward move.",
       "use if turns-here >= 3: retreat s7", "retreat to Sector {0}"),
    _W("win", "action", ("",), "This Unit has conquered its objective (as if it entered the Bunker).",
       "on enter: win", "this Unit has conquered its objective"),
    _W("roll-split", "action", ("resource resource",),
       "Roll 1d6 per Unit in the game; the player keeps the result of his choice as the first resource and adds "
       "up the others as the second (the German's blind start).",
       "on game-start if option german-blind-start: roll-split soldiers courage",
       "roll 1 die per Unit: one of your choice gives {0}, the others added up give {1}"),
    _W("reset-marker", "action", ("",), "Put this Unit's marker back on 1 chevron.",
       "use: reset-marker", "reset your Unit marker to 1 chevron"),
    _W("draw", "action", ("count deck",),
       "Draw cards from the top of an expansion's deck (rules/kinds.yaml); its discard pile is shuffled into a "
       "new deck when it runs out. A card its kind gives to a Unit is held and used like an Item; a card "
       "held by the game goes into play for every Unit. The kind's limit per Unit and turn applies.",
       "use during purchase if can-draw badge: lose 1 star, lose 1 courage, draw 1 badge", "draw {0} {1}",
       "Badges held: none -> Military Aide after 'draw 1 badge'."),
    _W("discard", "action", ("'self'", "item", "count 'item'|deck"),
       "Lose a card on purpose: this card (an Item or a held card; a card in play for every Unit, such as a "
       "Battle Condition, is cancelled for all), a named Item, or Items (or held cards of a deck: 'discard 1 "
       "decoration') of the player's choice. A lost Item counts as used. With a recipient another player "
       "loses it, and chooses which ('discard 1 item to another unit'). An option of an OR that would lose a "
       "card the player does not have cannot be chosen.",
       "use when drawn if holds item >= 1: discard 1 item, discard self", "discard {0}"),
    _W("pick", "action", ("count deck",),
       "Take cards of the player's choice from a deck (its discard pile included), then shuffle the deck "
       "(the German's straight: the Decoration of his choice). The kind's limit per turn applies.",
       "on straight: pick 1 decoration", "take {0} {1} of your choice from the deck, then shuffle it"),
    _W("cancel", "action", ("deck",),
       "Cancel the cards of a deck that are in play for every Unit (a Battle Condition): they leave play for "
       "their discard pile at once; nothing happens if none is in play (or the deck is not in the game).",
       "use after final-tally if option battle-conditions: cancel battle-condition", "cancel the {0} in play",
       "In play: Rain -> none (Rain on the discard pile) after 'cancel battle-condition'."),
    _W("arrange-top", "action", ("count deck",),
       "Look at the top cards of a deck and put them back in any order (the player's).",
       "use if has binoculars: discard binoculars, arrange-top 2 battle-condition",
       "look at the top {0} cards of the {1} deck and put them back in any order"),
    _W("steal", "action", ("count 'die' filter*",),
       "Take dice of the player's choice from an opponent's Final Tally (another side's player: the German "
       "for a Unit, a Unit of his choice for the German) into this Final Tally; a die changes colour by the "
       "sides' colour-alias (a German black die becomes blue). Only real dice, not Locked unless the filter "
       "says 'locked'.",
       "use once per turn after final-tally: steal 1 die", "take {0} die {2} from an opponent's Final Tally",
       "German tally [black courage, ...] -> [...]; Unit's tally gains a blue courage."),
    _W("pool-trade", "action", ("count 'die'",),
       "Trade dice of the Final Tally, one for one, with the player's own trading pool of 6 extra dice (2 "
       "of each of his colours), rolled the first time it is needed and rolled again when it is empty; "
       "each pool die is taken once.",
       "use after final-tally: pool-trade 2 die", "trade up to {0} dice of your Final Tally with your trading pool",
       "Tally [red skull, ...] -> [red two-soldiers, ...] (the pool's die taken; the skull given leaves the game)."),
    _W("second-tally", "action", ("",),
       "Roll a separate Final Tally (every die of the player's, re-rolled as if it were his own, Locks "
       "ignored) and keep either that one or the original, the player's choice.",
       "use after final-tally: second-tally", "roll a second Final Tally and keep either one"),
    # ------------------------------------------------------ standing modifiers
    _W("forbid", "modifier", ("flag",), "Take a permission away.",
       "forbid stay", "{0} is not allowed"),
    _W("allow", "modifier", ("flag",), "Grant a permission.",
       "use: allow trade-anywhere this turn", "{0} is allowed"),
    _W("ignore", "modifier", ("ignorable",), "Ignore a game rule (Landmines, Barriers, requirements, ...).",
       "ignore landmines", "ignore {0}"),
    _W("require", "modifier", ("specialist|item|vehicle", "'sacrifice' count 'specialist'",
                               "'sacrifice' specialist", "'battle-cry'", "'climb'"),
       "A requirement to move into this Sector: have a card, sacrifice a Specialist, move with a "
       "Battle Cry, or Climb. Moving with a Battle Cry ignores all requirements except 'battle-cry' itself.",
       "require sacrifice 1 specialist", "requirement: {0}"),
    _W("protect", "modifier", ("query 'against' tier+",),
       "An explicit override: no contribution from these tiers may lower the query here, whatever their rank.",
       "protect def against items-vehicles specialists", "no {2} can reduce {0} here"),
    # ------------------------------------------------------------------ events
    _W("advance", "event", ("",), "This Unit advanced (moved forward a row, or into a Bunker)."),
    _W("move", "event", ("",), "This Unit moved (lateral or forward)."),
    _W("enter", "event", ("",), "A Unit entered this Sector (for Sector attributes: this one)."),
    _W("first-enter", "event", ("",), "The first Unit of the game entered this Sector."),
    _W("final-tally", "event", ("",), "This Unit's Final Tally is complete (end of Phase 1)."),
    _W("rwb", "event", ("",), "This Unit scored an RWB bonus (once per RWB)."),
    _W("straight", "event", ("",), "This Unit's Final Tally shows one of each face."),
    _W("upkeep", "event", ("",), "Phase 2 begins for this Unit."),
    _W("movement", "event", ("",), "Phase 4 begins for this Unit: before it plays its Move phase cards or moves.",
       "on movement: lose 1 soldiers per tagged explosion above 2"),
    _W("combat", "event", ("",), "Phase 5: this Unit is about to suffer casualties in its Sector."),
    _W("casualties", "event", ("",), "This Unit is about to lose Soldiers (any Phase)."),
    _W("specialist-lost", "event", ("",), "One of this Unit's Specialists is about to be lost."),
    _W("found", "event", ("",), "This card was just found."),
    _W("turn-start", "event", ("",), "A new turn begins."),
    _W("game-start", "event", ("",), "The game begins (after set-up)."),
    _W("landmine", "event", ("",), "This Unit crossed a line with Landmines."),
    _W("assault-won", "event", ("",),
       "Another side's player won an Assault (Atlantikwall, Phase 7: the Allied Unit is destroyed).",
       "on assault-won: draw 1 decoration"),
    _W("drawn", "event", ("",),
       "A card was drawn from an expansion's deck: this card (for each Unit, when it comes into play for "
       "all), or any card for a rule's trigger (test which with 'drawn KIND'). 'use when drawn': a card's "
       "uses offered to each Unit right after it is drawn, and only then (losses that cancel it).",
       "on drawn if drawn badge: gain 1 courage to the german"),
    # ----------------------------------------------------------------- moments
    _W("mgf", "moment", ("",), "The Machine Gun Fire roll of Phase 5 ('before mgf': before it is rolled)."),
    _W("movement", "moment", ("",), "Phase 4, when Units move."),
    _W("first-roll", "moment", ("",),
       "Phase 1, right after the first roll, before any die is Locked ('after first-roll'; the tally is that roll).",
       "use once per game after first-roll if count one-soldier == 0: reroll all die"),
    _W("purchase", "moment", ("",), "Phase 3, when Units recruit, find and buy."),
    # -------------------------------------------------------------- predicates
    _W("bunker", "predicate", ("",), "This Unit's Sector is a Bunker.", "use if not bunker: def = 0 this turn"),
    _W("has", "predicate", ("card",), "This Unit has this card (a Specialist alive, an Item, a Vehicle).",
       "on combat unless has minesweeper: lose 1d6 soldiers"),
    _W("count", "predicate", ("face",), "How many results of this face the Final Tally shows.",
       "forbid advance unless count skull >= 4"),
    _W("same-face", "predicate", ("",), "The largest number of identical results in the Final Tally.",
       "on final-tally if same-face >= 4: gain 5 soldiers"),
    _W("chevrons", "predicate", ("",), "The number of chevrons on this Unit's marker (turns spent here)."),
    _W("turns-here", "predicate", ("",), "Turns this Unit has spent in its Sector (Combat phases fought here)."),
    _W("occupied", "predicate", ("",), "Another Unit stands in this Sector."),
    _W("option", "predicate", ("word",), "An optional rule is switched on.", "if option solitaire"),
    _W("players", "predicate", ("",), "The number of Units in the game."),
    _W("in-play", "predicate", ("card",), "Some player (a Unit, or another side's player) has this card in play.",
       "unless in-play general"),
    _W("front-row", "predicate", ("",),
       "This Unit's Sector is in the front row of the Battle Map (the highest row that is not a Bunker's).",
       "forbid trade if front-row"),
    _W("next-to-bunker", "predicate", ("",),
       "This Unit's Sector is joined by a line to a final Bunker (one the Units must conquer).",
       "forbid trade if next-to-bunker"),
    _W("occupied-by-us", "predicate", ("sector",), "Some Unit stands in the named Sector."),
    _W("conquered", "predicate", ("sector",),
       "Some Unit has entered the named Sector during this game (a Bunker: conquered it); it stays true.",
       "forbid enter unless conquered m-bunker"),
    _W("visited", "predicate", ("sector",),
       "This Unit has been in the named Sector during this game (its starting Sector included).",
       "forbid enter if visited s-s2 and visited m-s13"),
    _W("started-alone", "predicate", ("sector",),
       "This Unit is the only Unit that started the game in the named Sector.",
       "on first-enter if started-alone m-s2: find signalling-lamp free"),
    _W("battle-cry", "predicate", ("",), "This Unit moves this turn with a Battle Cry."),
    _W("have", "predicate", ("resource",), "How many of a resource this Unit has.",
       "use during purchase if have courage >= 6: lose 6 courage, draw-award random"),
    _W("holds", "predicate", ("kind",),
       "How many cards of a kind this Unit holds (living Specialists, Items, its Vehicle, Awards, an "
       "expansion's held cards).", "use when drawn if holds specialist >= 1: sacrifice 1 specialist, discard self"),
    _W("colours", "predicate", ("face",),
       "How many different colours show this face in the Final Tally (colourless results do not count).",
       "use once per turn after final-tally if colours skull == 2: add 1 skull any-colour"),
    _W("active-skulls", "predicate", ("",),
       "The active Skulls of this Unit's Final Tally this turn: those that cancelled a die in Phase 2 (not "
       "ignored, not part of an RWB or of a straight).", "on combat if active-skulls >= 2: lose 1 courage"),
    _W("card-is", "predicate", ("card",),
       "The card a card's value is asked about is this one (a cost: 'specialist-cost = 1 if card-is X').",
       "specialist-cost = 1 if card-is medic"),
    _W("drawn", "predicate", ("kind",), "The card just drawn is of this kind (in an 'on drawn' trigger).",
       "on drawn if drawn badge: gain 1 courage to the german"),
    _W("times-used", "predicate", ("",),
       "How many times the player has played this card's uses during the game (counted with tokens).",
       "use if times-used >= 3: gain 1 star"),
    _W("can-draw", "predicate", ("deck|'award'",),
       "This Unit may draw a card of this deck now: the deck or its discard pile has cards, and the kind's "
       "limit per turn is not reached ('award': the Award deck has a card and the Unit has drawn no Award this "
       "turn).", "use during purchase if can-draw badge: lose 1 star, draw 1 badge"),
    _W("tagged", "predicate", ("tag",),
       "How many cards this Unit holds whose data carry this tag (living Specialists, Items, its Vehicle, "
       "Awards, an expansion's held cards; one per card).", "on combat if tagged explosion >= 3: lose 1 soldiers"),
    # ---------------------------------------------------------------- counters
    _W("locked", "counter", ("face",), "Locked dice showing this face.", "gain 3 soldiers per locked skull"),
    _W("rwbs", "counter", ("",), "RWB bonuses scored this turn."),
    _W("units-after-first", "counter", ("",), "The Units in the game after the first (players - 1).",
       "on game-start: gain 3 courage per units-after-first"),
    _W("specialists", "counter", ("",), "This Unit's living Specialists."),
    _W("tagged", "counter", ("tag",), "The cards this Unit holds whose data carry this tag (see the condition).",
       "on movement: lose 1 soldiers per tagged explosion above 2"),
    _W("active-skulls", "counter", ("",), "This Unit's active Skulls this turn (see the condition).",
       "on combat: lose 1 soldiers per active-skulls"),
    # ----------------------------------------------------------------- targets
    _W("all units", "target", ("",), "Every Unit in the game (the German is not a Unit)."),
    _W("units here", "target", ("",), "Every Unit in the same Sector as the source."),
    _W("another unit", "target", ("",), "Another Unit of the player's choice (the player, in solitaire)."),
    _W("the german", "target", ("",), "The German player (Atlantikwall)."),
    _W("all players", "target", ("",), "Every player, the German included."),
    _W("adjacent sector", "target", ("",),
       "A Sector next to this Unit's, of the player's choice; a recipient only, of a Sector's values and "
       "permissions (shared by every Unit there). A filter limits the choice: 'unless bunker'.",
       "use before mgf: mgf-dice = 0 this turn to adjacent sector unless bunker", "an adjacent Sector",
       "MGF dice of Sector 5 (next to the Unit's Sector 4): 1 -> 0 until the end of the turn."),
)

KEYWORDS: dict[str, str] = {
    "on": "starts a trigger: 'on EVENT [if ...]: actions'",
    "use": "starts a deliberate play: 'use [once per ...] [before|after|during|when MOMENT] [if ...]: actions'",
    "for": "sets a clause's scope: 'for all units: ...', 'for units here: ...'",
    "if / unless": "a condition on a clause",
    "and / or / not": "combine conditions; between actions, 'or' is the player's choice (the rulebook's OR)",
    "this turn / this phase / next turn / permanently": "how long a modifier granted by an action lasts",
    "until EVENT": "a modifier granted by an action lasts until the event next happens to the Unit that granted it "
                   "(it ends as the event happens): 'def -2 until move', 'ignore landmines until combat'; any "
                   "event (see *Events*)",
    "roll DICE (RESULTS: action, ..., else: action)": "a chance among actions: the dice are rolled (from the game's "
        "generator) and the first outcome whose results hold the total happens; 'else' is any other total, and "
        "with no outcome for the total nothing happens: 'use: roll 1d6 (5-6: gain 3 item-points, else: gain 1 "
        "item-points)'; RESULTS is one total (6) or a range (2-4), lowest first, within the dice's totals",
    "once per turn / phase / game": "how often a clause may apply",
    "to": "who receives an action: 'gain 4 soldiers to another unit'; 'to TARGET if/unless CONDITION' "
          "keeps only the recipients for which the condition holds (for now, on values and permissions only)",
    "per": "multiplies an amount: 'gain 3 soldiers per locked skull'",
    "above": "after 'per COUNTER', counts only what exceeds a limit: 'lose 1 soldiers per tagged explosion above 2' "
             "(4 cards: 2 Soldiers; 2 or fewer: none)",
    "= / + / -": "set or change a query: 'locked-dice = 1', 'def -2', 'def -1d6'",
}

_BY_ROLE: dict[str, dict[str, WordSpec]] = {}
for _spec in WORDS:
    _BY_ROLE.setdefault(_spec.role, {})[_spec.name] = _spec


def words(role: Role) -> dict[str, WordSpec]:
    """The words of one role, by name."""
    return _BY_ROLE.get(role, {})


def lookup(role: Role, name: str) -> WordSpec | None:
    return _BY_ROLE.get(role, {}).get(name)


@attrs.frozen
class Param:
    kinds: tuple[str, ...]
    literals: tuple[str, ...]
    optional: bool = False
    repeat: bool = False


@attrs.frozen
class Signature:
    params: tuple[Param, ...]
    text: str


def parse_signature(text: str) -> Signature:
    params: list[Param] = []
    for raw in text.split():
        optional = raw.endswith(("?", "*"))
        repeat = raw.endswith(("+", "*"))
        core = raw.rstrip("?+*")
        kinds: list[str] = []
        literals: list[str] = []
        for alt in core.split("|"):
            if alt.startswith("'"):
                literals.append(alt.strip("'"))
            else:
                kinds.append(alt)
        params.append(Param(tuple(kinds), tuple(literals), optional, repeat))
    return Signature(tuple(params), text)


def signatures(spec: WordSpec) -> tuple[Signature, ...]:
    return tuple(parse_signature(s) for s in spec.signatures)
