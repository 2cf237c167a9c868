"""The heuristic policy: how it plays, where it decides. Deterministic: it draws no random numbers of its own.

A policy sees the whole game (as a player at the table does) and answers a
:class:`~ddaydice.interpreter.core.decisions.Decision` with option indices.

How the heuristic plays
-----------------------
Everything is priced in Soldiers, the currency of survival.

*The route planner* (:class:`~.planner.Planner`) is a small dynamic programme over (Sector, Sectors already visited
nearby, Courage, rolls spent in the Sector). Each combat costs the Sector's expected casualties (DEF, 3.5
per MGF die, Landmines on the way, Special Damage, a Specialist to sacrifice); each roll brings about six
Soldiers, fewer when its dice are steered to Courage (:data:`~.model.COURAGE_TARGETS`, with the chance of falling
short); a Unit may stay as long as its marker allows. Climbing Sectors (4 Skulls to Advance), Bunkers
entered only with a Battle Cry and Bunkers that open when another falls are moves available only with some
probability per turn. For each state the programme gives the plan's outlook: the chance the Unit is not
stranded (must move and cannot), and the mean and variance of the Soldiers it still gains (negative:
loses). It maximises ``live * mean + (1 - live) * DEATH``; a move is chosen for the best chance to come
through, ``live * P(Soldiers + gain > 0)``. Plans are cached by everything they depend on, so one plan
serves many turns and many games, and the Units' policies of one game share them; plans that agree on a Sector
and every Sector reachable from it share what the programme worked out for that Sector's states.

*Dice*: every face of every die is valued in context: Soldiers at face value, Courage by what one more
Courage is worth to the plan (the planner's marginal value), Stars by the best Specialist they buy, Tools
by the Item Points table (which rewards piling them up), Skulls by the result they would cancel (or
highly, when climbing), plus the Red-White-Blue bonus a die would complete; Soldiers count more when this
turn's combat could wipe the Unit out. Dice are kept one at a time, each valued against those already kept
(a second Courage is worth less than the first): Locked where locking costs least, re-rolled when a fresh
die (with the re-rolls left) is worth more than the face shown.

*Cards*: no card is named; each is read from its compiled effect (:mod:`.effectworth`). Specialists and
Items are valued for the map ahead: each effect's kind (a DEF lowered, casualties saved, Soldiers on each
Advance, a die re-rolled each turn, a Skull for a Climb, ...) is worth so much once, per turn or per Advance
left (:data:`~.model.EFFECT_WORTH`). Items are kept for the moment they pay, told by the shape of their use
(:func:`~.cardtext.use_shape`): DEF breakers in the Bunker or when a combat would kill, MGF casualties ignored
after a high MGF roll, a Battle Cry when a Bunker needs one, Skulls when a Climb is short and the Unit's
Skull-givers make it up, a die changed when the change is worth more than the card kept.

*Team play*: Units split between Bunkers that must all be conquered (every Unit computes the same
assignment from the shared state); Units of one Sector hand each other the Items that are worth more to the
other and even out their Soldiers, and a Unit gives Soldiers to a comrade the MGF just rolled would wipe
out; a Unit whose Bunker is still closed holds back.

Where each part is decided
--------------------------
:mod:`.policy` hands each decision to its module: :mod:`.dice` (Locks, re-rolls, Skulls cancelled, a result
added), :mod:`.moves` (Phase 4), :mod:`.purchases` (Phase 3), :mod:`.casualties`, :mod:`.team` (trades between
Units), :mod:`.uses` (cards played) and :mod:`.choices` (the other questions). They rest on :mod:`.views` (the
Unit's plan for the turn, built by :mod:`.params` from :mod:`.facts`, :mod:`.values` and :mod:`.foe`, solved by
:mod:`.planner`), :mod:`.dicevalue`, :mod:`.effectworth` (what a card is worth and what the plans count on, read
from its effect), :mod:`.cardtext` (the shape of a card's use, and what the other side's cards do), :mod:`.memory`
(what it remembers of a game) and :mod:`.model` (its numbers).
"""

from __future__ import annotations

from ddaydice.interpreter.policies.heuristic.cardtext import against_foe, foe_pressure, generic_use
from ddaydice.interpreter.policies.heuristic.policy import HeuristicPolicy

__all__ = ["HeuristicPolicy", "against_foe", "foe_pressure", "generic_use"]
