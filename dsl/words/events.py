"""Events (what a trigger listens for, and what 'until' waits for) and moments (when a use may be played). Each
record carries its English: 'on EVENT', 'until EVENT', and the moment after 'before', 'after', 'during' or
'when'; a pending event (about to happen when its triggers run, so that 'instead' may replace it) says so, and what
does not happen when it is replaced. Phases name moments too (``rules/phases.yaml``); ``WINDOWS`` lists the moments
at which the engine offers uses, the only ones a use may name."""

from __future__ import annotations

from ddaydice.dsl.words.base import EventWord, MomentWord

_SECTOR = frozenset({"sector"})

_E = EventWord

#: The engine's moment at which a 'final-tally' or 'upkeep' trigger that reads the Final Tally's results and changes
#: none is heard: Phase 2, once Skulls have cancelled (rulings 1.9, 1.11). Not an event a modder writes.
TALLY_READ = "final-tally-read"

EVENTS = (
    _E(
        name="advance",
        summary="This Unit advanced (moved forward a row, or into a Bunker).",
        phrase="each time this Unit Advances", until="until this Unit next Advances",
    ),
    _E(
        name="move",
        summary="This Unit moved (lateral or forward).",
        phrase="each time this Unit moves", until="until this Unit next moves",
    ),
    _E(
        name="enter",
        summary="A Unit entered this Sector (for Sector attributes: this one).",
        phrase="when a Unit moves into this Sector", until="until a Unit next moves into this Sector",
        reaches=_SECTOR,  # heard by the Sector entered alone (interpreter/phases/movement.py)
    ),
    _E(
        name="first-enter",
        summary="The first Unit of the game entered this Sector.",
        phrase="when the first Unit of the game moves into this Sector",
        until="until the first Unit of the game moves into this Sector",
        reaches=_SECTOR,
    ),
    _E(
        name="final-tally",
        summary=("This Unit's Final Tally is complete (end of Phase 1). A trigger that reads its results and changes "
                 "none ('if same-face >= 4', 'per star') is heard once the Final Tally is complete in Phase 2: the "
                 "results of Sectors, Specialists and Items added, each die a Skull cancelled left out (ruling "
                 "1.9). One that both reads and changes them is refused (DSL134, ruling 1.11)."),
        phrase="when the Final Tally is complete", until="until this Unit's next Final Tally is complete",
        moment="the Final Tally", complete=TALLY_READ,
    ),
    _E(
        name="rwb",
        summary="This Unit scored an RWB bonus (once per RWB).",
        phrase="for every RWB this Unit scores", until="until this Unit next scores an RWB",
    ),
    _E(
        name="straight",
        summary="This Unit's Final Tally shows one of each face.",
        phrase="when the Final Tally is a straight", until="until this Unit's next straight",
    ),
    _E(
        name="upkeep",
        summary=("Phase 2 begins for this Unit. A trigger that reads the Final Tally's results and changes none "
                 "('if count courage >= 2', 'per star') is heard once the Skulls have cancelled, with the "
                 "'final-tally' triggers that read it (ruling 1.11)."),
        phrase="at each Upkeep", until="until this Unit's next Upkeep", complete=TALLY_READ,
    ),
    _E(
        name="movement",
        summary="Phase 4 begins for this Unit: before it plays its Move phase cards or moves.",
        example="on movement: lose 1 soldiers per tagged explosion above 2",
        phrase="when each Move phase begins for this Unit", until="until this Unit's next Move phase begins",
    ),
    _E(
        name="combat",
        summary="Phase 5: this Unit is about to suffer casualties in its Sector.",
        phrase="during each Combat phase", until="until this Unit's next Combat",
    ),
    _E(
        name="casualties",
        summary=("This Unit is about to lose Soldiers (any Phase: Combat, Landmines, a card's loss). Pending: its "
                 "triggers run before the Soldiers are lost, and 'instead' may replace it."),
        phrase="when this Unit suffers casualties", until="until this Unit next suffers casualties",
        moment="this Unit would suffer casualties", pending=True, replaced="suffering the casualties",
    ),
    _E(
        name="specialist-lost",
        summary=("One of this Unit's Specialists is about to be lost (a sacrifice it is made to make: a Sector's "
                 "requirement, a card's loss; not a casualty it chose, nor 'sacrifice self'). Pending: 'instead' may "
                 "replace it."),
        phrase="when another Specialist of this Unit would be lost", until="until this Unit next loses a Specialist",
        moment="a Specialist of this Unit would be lost", pending=True, replaced="losing the Specialist",
    ),
    _E(
        name="found",
        summary="This card was just found.",
        phrase="when this card is found", until="until this card is next found", moment="it is found", own=True,
        reaches=frozenset({"gained"}),  # heard by the card a Unit gains alone, as it comes
    ),
    _E(
        name="turn-start",
        summary=("A new turn begins, before the turn's draws (Battle Conditions). One moment for the game (ruling "
                 "14.3): each player hears it for himself, but a card in play for every Unit hears it once, for the "
                 "first Unit in tie order ('to all units' reaches every Unit; 'for the german:' the German)."),
        phrase="at the start of each turn", until="until the next turn begins",
    ),
    _E(
        name="game-start",
        summary=("The game begins (after set-up). One moment for the game, heard as 'turn-start' is (ruling 14.3): "
                 "by each player for himself, by a card in play for every Unit once."),
        phrase="at the start of the game", until="until the game begins",
    ),
    _E(
        name="landmine",
        summary="This Unit crossed a line with Landmines.",
        phrase="when this Unit crosses Landmines", until="until this Unit next crosses Landmines",
    ),
    _E(
        name="assault-won",
        summary="Another side's player won an Assault (Atlantikwall, Phase 7: the Allied Unit is destroyed).",
        example="on assault-won: draw 1 decoration",
        phrase="when this player wins an Assault", until="until this player next wins an Assault",
    ),
    _E(
        name="drawn",
        summary=("A card was drawn from an expansion's deck: this card, or any card for a rule's trigger (test which "
                 "with 'drawn KIND'). A draw is heard once (ruling 14.3): for the Unit that drew the card, or, when "
                 "the game draws it into play for every Unit, for the first Unit in tie order ('to all units' "
                 "reaches every Unit). 'use when drawn': a card's uses offered to each Unit in tie order right after "
                 "it is drawn, and only then, until one Unit uses one (losses that cancel it for everyone); a card "
                 "drawn into a Unit's hand offers its 'use when drawn' to that Unit right after its draw. The German "
                 "hears a "
                 "draw in what is written for him ('for the german: on drawn: ...'), and each player, every Unit and "
                 "the German, in what any effect writes for every player ('for all players: on drawn', ruling 14.8)."),
        example="on drawn if drawn badge: gain 1 courage to the german",
        phrase="when a card is drawn", until="until a card is next drawn", moment="it is drawn", own=True,
        reaches=frozenset({"drawn", "rule", "sector"}),  # the card drawn, and every effect that hears draws
    ),
)

MOMENTS = (
    MomentWord(
        name="mgf",
        summary="The Machine Gun Fire roll of Phase 5 ('before mgf': before it is rolled).",
        phrase="Machine Gun Fire is rolled",
    ),
    MomentWord(
        name="movement",
        summary="Phase 4, when Units move.",
        phrase="movement",
    ),
    MomentWord(
        name="first-roll",
        summary=("Phase 1, right after the first roll, before any die is Locked ('after first-roll'; the tally is "
                 "that roll)."),
        example="use once per game after first-roll if count one-soldier == 0: reroll all die",
        phrase="the first roll",
    ),
    MomentWord(
        name="purchase",
        summary="Phase 3, when Units recruit, find and buy.",
        phrase="the purchase phase",
    ),
)

USE_POINTS = ("after-final-tally", "purchase", "movement", "after-roll", "before-mgf", "after-mgf", "after-roll-other")
"""The moments of the turn at which the engine offers uses (interpreter/phases/, ``use_point``), in the turn's order
(the last, a roll outside Phase 4, may come in any phase); a use without a window is offered at each of them."""

POINTS: dict[str, str] = {
    "after-first-roll": "in Phase 1, after the first roll",
    "after-final-tally": "at the end of Phase 1, after the Final Tally",
    "purchase": "in Phase 3",
    "movement": "in Phase 4, before the Unit moves",
    "after-roll": "in Phase 4, after a roll whose result has not yet taken effect (a Landmine die, a Random "
                  "Attribute roll: rulings 10.1, 10.7)",
    "after-roll-other": "outside Phase 4, after a roll whose result has not yet taken effect (a map's "
                        "'roll-attribute' in another phase: ruling 10.10): the uses of any moment alone",
    "before-mgf": "in Phase 5, before the MGF roll",
    "after-mgf": "in Phase 5, after the MGF roll",
    "when-drawn": "right after the card is drawn, and only then",
}
"""Each moment of the turn at which the engine offers uses, in English ('when-EVENT' of a pending event: as the
event is about to happen)."""

POINT_REACHES: dict[str, frozenset[str]] = {
    "when-drawn": frozenset({"drawn"}),
}
"""The owners (``base.OWNERS``) whose uses the engine offers at a moment of the turn, where it offers them to some
only (at any other moment, every card a Unit holds and every rule): 'when drawn' is offered for the card drawn
alone (``mechanisms/decks.py``). A use whose window is offered to none of its owners is DSL129."""

WINDOWS: dict[tuple[str, str], tuple[str, ...]] = {
    ("after", "final-tally"): ("after-final-tally",),
    ("during", "roll"): ("after-final-tally",),
    ("during", "upkeep"): ("after-final-tally",),
    ("during", "purchase"): ("purchase",),
    ("before", "movement"): ("movement",),
    ("during", "movement"): ("movement", "after-roll"),
    ("during", "combat"): ("before-mgf", "after-mgf"),
    ("before", "mgf"): ("before-mgf",),
    ("after", "mgf"): ("after-mgf",),
    ("after", "first-roll"): ("after-first-roll",),
    ("when", "drawn"): ("when-drawn",),
}
"""The windows a use may name ('use KIND MOMENT: ...') and the moments of the turn at which the engine offers it
there: the one list the checker (any other window is DSL121), the language server's completion, the reference and
the engine (``core/values.py`` ``points_of``) read. Besides these, 'use when EVENT' of a pending event
(``words.windows``) is offered as the event is about to happen ('when-EVENT', ``effects/events.py``). 'during
roll' and 'during upkeep' are offered at the end of Phase 1 (Phase 2 has no moment of its own), 'when drawn'
right after the card is drawn (``mechanisms/decks.py``). A roll about to take effect is offered at 'after-roll' in
Phase 4 only, where 'during movement' reaches it; outside Phase 4 at 'after-roll-other', which no window names
(ruling 10.10)."""
