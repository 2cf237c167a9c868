"""Conditions (what 'if' and 'unless' test), counters (what 'per' multiplies by) and targets (who a clause or
an action concerns; the grammar spells them, their records say them in English). Each record
names its parts (see :mod:`ddaydice.dsl.words.base`): a condition is compiled by asking the context by its name
(:func:`~ddaydice.dsl.asking.ask`), unless its record says otherwise."""

from __future__ import annotations

from ddaydice.dsl import ast
from ddaydice.dsl.words.base import Checking, CounterWord, PredicateWord, Reads, Said, Speaker, TargetWord
from ddaydice.dsl.words.english import title


def titled(_r: Speaker, s: Said) -> str:
    """The condition's own name, titled ('Turns Here >= 3')."""
    return f"{title(s.name)}{s.compared}"


def check_option(c: Checking, args: tuple[ast.Arg, ...]) -> None:
    """An optional rule the content defines (when it defines any)."""
    known = c.optional_rules()
    if args and isinstance(args[0], ast.Word) and known and args[0].name not in known:
        c.unknown("optional rule", args[0], known)


def check_locked(c: Checking, per: ast.Per) -> None:
    """'per locked FACE'."""
    if len(per.words) != 2 or per.words[1].name not in c.faces():
        c.err("DSL112", "'per locked' needs a face", per.pos, "for example 'per locked skull'")


def check_tagged(c: Checking, per: ast.Per) -> None:
    """'per tagged TAG': a tag some loaded card carries."""
    if len(per.words) != 2:
        c.err("DSL112", "'per tagged' needs a tag", per.pos,
              "for example 'per tagged " + (min(c.tags()) if c.tags() else "explosion") + "'")
    elif per.words[1].name not in c.tags():
        c.unknown("tag", per.words[1], sorted(c.tags()), code="DSL112")


def _a(noun: str) -> str:
    """The noun with its article: 'a Badge', 'an Award'."""
    return f"{'an' if noun[:1] in 'AEIOU' else 'a'} {noun}"


_P = PredicateWord

PREDICATES = (
    _P(
        name="bunker",
        summary="This Unit's Sector is a Bunker.",
        example="use if not bunker: def = 0 this turn",
        render=lambda _r, _s: "in a Bunker", reads=Reads(where="bunkers"),
    ),
    _P(
        name="has",
        signatures=("card",),
        summary="This Unit has this card (a Specialist alive, an Item, a Vehicle).",
        example="on combat unless has minesweeper: lose 1d6 soldiers",
        render=lambda r, s: f"the Unit has the {r.name(s.arg0)}",
    ),
    _P(
        name="count",
        signatures=("face",),
        summary="How many results of this face the Final Tally shows.",
        example="forbid advance unless count skull >= 4",
        render=lambda r, s: f"the Final Tally's {r.name(s.arg0)} results{s.compared}", number=True, tally=True,
    ),
    _P(
        name="same-face",
        summary="The largest number of identical results in the Final Tally.",
        example="on final-tally if same-face >= 4: gain 5 soldiers",
        render=lambda _r, s: f"identical results in the Final Tally{s.compared}", number=True, tally=True,
    ),
    _P(
        name="chevrons",
        summary="The number of chevrons on this Unit's marker (turns spent here).",
        render=titled, number=True,
    ),
    _P(
        name="turns-here",
        summary="Turns this Unit has spent in its Sector (Combat phases fought here).",
        render=titled, number=True,
    ),
    _P(
        name="occupied",
        summary="Another Unit stands in this Sector.",
        render=lambda _r, _s: "another Unit is here",
    ),
    _P(
        name="option",
        signatures=("word",),
        summary="An optional rule is switched on.",
        example="if option solitaire",
        render=lambda _r, s: f"the optional rule '{s.arg0}' is on", reads=Reads(names="option"), check=check_option,
    ),
    _P(
        name="players",
        summary="The number of Units in the game.",
        render=titled, number=True,
    ),
    _P(
        name="in-play",
        signatures=("card",),
        summary="Some player (a Unit, or another side's player) has this card in play.",
        example="unless in-play general",
        render=lambda r, s: f"the {r.name(s.arg0)} is in play", reads=Reads(names="card-in-play"),
    ),
    _P(
        name="front-row",
        summary="This Unit's Sector is in the front row of the Battle Map (the highest row that is not a Bunker's).",
        example="forbid trade if front-row",
        render=lambda _r, _s: "the Unit's Sector is in the front row",
    ),
    _P(
        name="next-to-bunker",
        summary="This Unit's Sector is joined by a line to a final Bunker (one the Units must conquer).",
        example="forbid trade if next-to-bunker",
        render=lambda _r, _s: "the Unit's Sector is next to a final Bunker",
    ),
    _P(
        name="occupied-by-us",
        signatures=("sector",),
        summary="Some Unit stands in the named Sector.",
        render=lambda r, s: f"a Unit occupies {r.name(s.arg0)}",
    ),
    _P(
        name="conquered",
        signatures=("sector",),
        summary="Some Unit has entered the named Sector during this game (a Bunker: conquered it); it stays true.",
        example="forbid enter unless conquered m-bunker",
        render=lambda r, s: f"a Unit has entered {r.name(s.arg0)}",
    ),
    _P(
        name="visited",
        signatures=("sector",),
        summary="This Unit has been in the named Sector during this game (its starting Sector included).",
        example="forbid enter if visited s-s2 and visited m-s13",
        render=lambda r, s: f"this Unit has visited {r.name(s.arg0)}",
    ),
    _P(
        name="started-alone",
        signatures=("sector",),
        summary="This Unit is the only Unit that started the game in the named Sector.",
        example="on first-enter if started-alone m-s2: find signalling-lamp free",
        render=lambda r, s: f"this Unit is the only one that started in {r.name(s.arg0)}",
    ),
    _P(
        name="allowed",
        signatures=("flag",),
        summary=("A permission of this Unit, asked where it stands, as the engine asks it (every rule, Sector "
                 "attribute and card in play, by precedence): 'allowed battle-cry-here' is false in a Sector that "
                 "says 'forbid battle-cry-here' (Sword Beach's Crossfire)."),
        example="on rwb if allowed battle-cry-here: gain 3 soldiers or allow battle-cry this turn",
        render=lambda r, s: f"{r.query(s.arg0)} is allowed",
    ),
    _P(
        name="battle-cry",
        summary="This Unit moves this turn with a Battle Cry.",
        render=lambda _r, _s: "moving with a Battle Cry",
    ),
    _P(
        name="have",
        signatures=("resource",),
        summary="How many of a resource this Unit has.",
        example="use during purchase if have courage >= 6: lose 6 courage, draw-award random",
        render=lambda r, s: f"the Unit's {r.name(s.arg0)}{s.compared}", number=True,
    ),
    _P(
        name="holds",
        signatures=("kind",),
        summary=("How many cards of a kind this Unit holds (living Specialists, Items, its Vehicle, Awards, an "
                 "expansion's held cards)."),
        example="use when drawn if holds specialist >= 1: sacrifice 1 specialist, discard self",
        render=lambda r, s: f"the {r.name(s.arg0)}s the Unit holds{s.compared}", number=True,
    ),
    _P(
        name="colours",
        signatures=("face",),
        summary="How many different colours show this face in the Final Tally (colourless results do not count).",
        example="use once per turn after final-tally if colours skull == 2: add 1 skull any-colour",
        render=lambda r, s: f"the colours showing {r.name(s.arg0)} in the Final Tally{s.compared}", number=True,
        tally=True,
    ),
    _P(
        name="active-skulls",
        summary=("The active Skulls of this Unit's Final Tally this turn: those that cancelled a die in Phase 2 "
                 "(not ignored, not part of an RWB or of a straight)."),
        example="on combat if active-skulls >= 2: lose 1 courage",
        render=lambda _r, s: f"the Unit's active Skulls this turn{s.compared}", number=True,
    ),
    _P(
        name="card-is",
        signatures=("card",),
        summary="The card a card's value is asked about is this one (a cost: 'specialist-cost = 1 if card-is X').",
        example="specialist-cost = 1 if card-is medic",
        render=lambda r, s: f"it is the {r.name(s.arg0)}", reads=Reads(names="card-asked"),
    ),
    _P(
        name="drawn",
        signatures=("kind",),
        summary="The card just drawn is of this kind (in an 'on drawn' trigger).",
        example="on drawn if drawn badge: gain 1 courage to the german",
        render=lambda r, s: f"the card drawn is a {r.name(s.arg0)}",
    ),
    _P(
        name="times-used",
        summary="How many times the player has played this card's uses during the game (counted with tokens).",
        example="use if times-used >= 3: gain 1 star",
        render=lambda _r, s: f"the times this card has been used{s.compared}", number=True,
    ),
    _P(
        name="can-draw",
        signatures=("deck|'award'",),
        summary=("This Unit may draw a card of this deck now: the deck or its discard pile has cards, and the "
                 "kind's limit per turn is not reached ('award': the Award deck has a card and the Unit has drawn "
                 "no Award this turn)."),
        example="use during purchase if can-draw badge: lose 1 star, draw 1 badge",
        render=lambda r, s: f"the Unit may draw {_a(r.name(s.arg0))} now",
    ),
    _P(
        name="tagged",
        signatures=("tag",),
        summary=("How many cards this Unit holds whose data carry this tag (living Specialists, Items, its Vehicle, "
                 "Awards, an expansion's held cards; one per card)."),
        example="on combat if tagged explosion >= 3: lose 1 soldiers",
        render=lambda r, s: f"the cards marked {r.name(s.arg0)} the Unit holds{s.compared}", number=True,
    ),
)

# A counter's English is 'for every ...', given the counter's words ('locked', 'skull'); 'per' on a face of the
# tally needs no counter ('per skull').
COUNTERS = (
    CounterWord(
        name="locked",
        signatures=("face",),
        summary="Locked dice of the Final Tally still showing this face, counted once it is complete (ruling 1.12).",
        example="gain 3 soldiers per locked skull",
        render=lambda r, names: f" for every Locked {r.name(names[1])}", check=check_locked,
        tally=True,  # the Locked dice of the Final Tally still showing the face (ruling 1.12)
    ),
    CounterWord(
        name="rwbs",
        summary="RWB bonuses scored this turn.",
        render=lambda _r, _names: " for every RWB scored this turn", singular="rwb",
    ),
    CounterWord(
        name="units-after-first",
        summary="The Units in the game after the first (players - 1).",
        example="on game-start: gain 3 courage per units-after-first",
        render=lambda _r, _names: " for every Unit in the game after the first",
    ),
    CounterWord(
        name="specialists",
        summary="This Unit's living Specialists.",
        render=lambda _r, _names: " for every living Specialist", singular="specialist",
    ),
    CounterWord(
        name="tagged",
        signatures=("tag",),
        summary="The cards this Unit holds whose data carry this tag (see the condition).",
        example="on movement: lose 1 soldiers per tagged explosion above 2",
        render=lambda r, names: f" for every card marked {r.name(names[1])} the Unit holds", check=check_tagged,
    ),
    CounterWord(
        name="active-skulls",
        summary="This Unit's active Skulls this turn (see the condition).",
        example="on combat: lose 1 soldiers per active-skulls",
        render=lambda _r, _names: " for every active Skull this turn",
    ),
)

TARGETS = (
    TargetWord(
        name="all units",
        phrase="all Units",
        summary="Every Unit in the game (the German is not a Unit).",
    ),
    TargetWord(
        name="units here",
        phrase="all Units in this Sector",
        summary="Every Unit in the same Sector as the source.",
    ),
    TargetWord(
        name="another unit",
        phrase="another Unit",
        summary="Another Unit of the player's choice (the player, in solitaire).",
    ),
    TargetWord(
        name="the german",
        phrase="the German",
        summary="The German player (Atlantikwall).",
    ),
    TargetWord(
        name="all players",
        phrase="every player",
        summary="Every player, the German included.",
    ),
    TargetWord(
        name="adjacent sector",
        phrase="an adjacent Sector of your choice",
        summary=("A Sector next to this Unit's, of the player's choice; a recipient only, of a Sector's values and "
                 "permissions (shared by every Unit there). A filter limits the choice: 'unless bunker'."),
        example="use before mgf: mgf-dice = 0 this turn to adjacent sector unless bunker",
        english="an adjacent Sector",
        before_after="MGF dice of Sector 5 (next to the Unit's Sector 4): 1 -> 0 until the end of the turn.",
    ),
)
