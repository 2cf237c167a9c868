"""The numbers the heuristic plays by: its model of the dice, of the other side, and the cards it knows."""

from __future__ import annotations

#: Soldiers a roll gives when every die is steered to Soldiers (measured: 5.8 with 2 Locks and 2 re-rolls).
ROLL_GAIN = 5.8
ROLL_VAR = 4.0
#: Steering a roll's dice to 0, 1, 2 or 3 Courage: the share of ROLL_GAIN kept as Soldiers, and the chances
#: of ending with 0, 1, 2, 3 Courage (measured by simulating the dice rule of this policy).
COURAGE_TARGETS = ((1.0, (0.57, 0.33, 0.10, 0.0)),
                   (0.91, (0.09, 0.70, 0.21, 0.0)),
                   (0.80, (0.09, 0.25, 0.56, 0.10)),
                   (0.72, (0.09, 0.25, 0.31, 0.35)))
MGF_MEAN = 3.5
D6_VAR = 35 / 12
#: The value of a plan that fails (a Unit that must move and cannot, or never reaches a Bunker).
DEATH = -100.0
CMAX = 16
#: Chance per turn of rolling a Battle Cry (Courage on a red, a white and a blue die) when aiming at it.
P_BATTLE_CRY = 0.3
#: Chance per turn of 4 Skulls when climbing (no Locks), and with one Skull given by an Item.
P_CLIMB = 0.21
P_CLIMB_HELPED = 0.47
UNLIMITED_STAY_CAP = 8
#: Against another side (the German): his Soldiers gained per turn before the Units' first turns tell (then the
#: game's own record takes over, as if this prior were FOE_PRIOR_TURNS turns seen), and the variance of a turn.
FOE_GAIN_PRIOR = 7.0
FOE_PRIOR_TURNS = 3
FOE_VAR = 6.0
#: Courage a Unit loses to the other side in a turn beyond what his cards in play take every turn (his
#: Decorations and Items, played now and then), as a chance per turn.
FOE_DRAIN_BASE = 0.25
#: Soldiers one Item Point is worth (Bazooka 15 -> 7, Field Radio 12 -> 5, Walkie-Talkie 5 -> 2).
ITEM_POINT_VALUE = 0.4
FACES = ("skull", "star", "one-soldier", "two-soldiers", "courage", "tool")
BUNKER_BREAKERS = {"flame-thrower": 10.0, "bazooka": 7.0, "gammon-bomb": 3.5}
SKULL_HELPERS = ("grappling-hook", "rope-ladder", "binoculars", "rangefinder")
#: Items the route planner counts on (the others are used as they come).
PLANNED_ITEMS = frozenset({*BUNKER_BREAKERS, *SKULL_HELPERS, "dexedrine", "wirecutters"})
#: The cards the heuristic has rules of its own for (wants_use); any other card is played by what its effect does.
OWN_RULES = frozenset({
    *BUNKER_BREAKERS, *SKULL_HELPERS, "field-radio", "walkie-talkie", "signalling-lamp", "medal-case", "lucky-charm",
    "pocket-bible", "memorial-cross", "legion-of-merit", "command-jacket", "shoulder-patch", "victoria-cross",
    "corporal", "jeep", "captain", "strategic-map", "ammo-box", "toolkit", "bangalore-torpedo", "grenade",
    "flak-vest", "grenadier", "mortar", "whistle", "mine-detector", "dexedrine", "wirecutters", "point-man"})
#: Specialists whose effect reaches other Units' plans (Locks, costs).
SHARED = frozenset({"general", "quartermaster", "messenger", "lieutenant"})
