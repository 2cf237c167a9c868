"""The numbers the heuristic plays by: its model of the dice, of the other side, and what each kind of effect is
worth."""

from __future__ import annotations

from typing import Final

#: Soldiers a roll gives when every die is steered to Soldiers (measured: 5.8 with 2 Locks and 2 re-rolls).
ROLL_GAIN: Final = 5.8
ROLL_VAR: Final = 4.0
#: Steering a roll's dice to 0, 1, 2 or 3 Courage: the share of ROLL_GAIN kept as Soldiers, and the chances
#: of ending with 0, 1, 2, 3 Courage (measured by simulating the dice rule of this policy).
COURAGE_TARGETS: Final = ((1.0, (0.57, 0.33, 0.10, 0.0)),
                          (0.91, (0.09, 0.70, 0.21, 0.0)),
                          (0.80, (0.09, 0.25, 0.56, 0.10)),
                          (0.72, (0.09, 0.25, 0.31, 0.35)))
MGF_MEAN: Final = 3.5
D6_VAR: Final = 35 / 12
#: The value of a plan that fails (a Unit that must move and cannot, or never reaches a Bunker).
DEATH: Final = -100.0
CMAX: Final = 16
#: Chance per turn of rolling a Battle Cry (Courage on a red, a white and a blue die) when aiming at it.
P_BATTLE_CRY: Final = 0.3
#: Chance per turn of 4 Skulls when climbing (no Locks), and with one Skull given by an Item.
P_CLIMB: Final = 0.21
P_CLIMB_HELPED: Final = 0.47
UNLIMITED_STAY_CAP: Final = 8
#: Against another side (the German): his Soldiers gained per turn before the Units' first turns tell (then the
#: game's own record takes over, as if this prior were FOE_PRIOR_TURNS turns seen), and the variance of a turn.
FOE_GAIN_PRIOR: Final = 7.0
FOE_PRIOR_TURNS: Final = 3
FOE_VAR: Final = 6.0
#: Courage a Unit loses to the other side in a turn beyond what his cards in play take every turn (his
#: Decorations and Items, played now and then), as a chance per turn.
FOE_DRAIN_BASE: Final = 0.25
#: Soldiers one Item Point is worth (Bazooka 15 -> 7, Field Radio 12 -> 5, Walkie-Talkie 5 -> 2).
ITEM_POINT_VALUE: Final = 0.4
#: (A tuple of any length to the type checker: compiled, a fixed-length tuple constant is built anew at each use.)
FACES: Final[tuple[str, ...]] = ("skull", "star", "one-soldier", "two-soldiers", "courage", "tool")
D6_MEAN: Final = 3.5
#: What each kind of effect is worth, in Soldiers (effectworth.py reads a card's effect into these kinds; no card
#: is named). Standing effects and triggers are worth so much per turn, per Advance or once; a use is worth so
#: much once (an Item), or per turn (a use once per turn). '-climbing' and '-team' entries count only with a
#: Climb ahead, or with comrades.
EFFECT_WORTH: Final[dict[str, float]] = {
    # standing effects, while the card is in play
    "casualties-saved": 1.0,  # per casualty saved in each turn's Combat
    "def-per-turn": 0.3,  # per point of DEF lowered (or of MGF expected) in each turn's Combat
    "landmines-ignored": 3.0,
    "barriers-ignored": 1.0,
    "special-damage-ignored": 0.1,  # per turn
    "advance-cost": 0.6,  # per Courage off each Advance left
    "lock-fewer": 0.25,  # per die fewer Locked, per turn (and per Unit when it reaches every Unit)
    "skull-ignored": 0.3,  # per Skull ignored, per turn
    "cost-cut": 0.4,  # per Star or Item Point off a purchase
    "stay": 0.5,  # per turn more a Unit may stay
    "allow-trade-team": 0.5,
    "allow-trade-solo": 0.3,
    "allow": 0.1,
    # triggered gains, per Soldier's worth gained each time
    "per-locked-skull": 1.0 / 6.0,  # per turn, for a gain per Locked Skull
    "per-move": 1.2,  # per Advance left (and once more)
    "per-rwb": 0.15,  # per turn: the chance of a Red-White-Blue triple
    "per-other-event": 0.5,  # per turn, for an event that may or may not come
    "add-each-turn-tool": 0.25,
    "add-each-turn-courage": 0.4,
    "add-each-turn-star": 0.3,
    "add-each-turn-other": 0.2,
    "absorb": 2.0,  # casualties absorbed by Courage or Stars
    "die-instead": 0.5,  # a Specialist dies in another's place
    # what a resource is worth, per unit
    "gain-soldier": 1.0,
    "gain-courage": 2.0 / 3.0,
    "gain-star": 1.0,
    "gain-item-point": 0.25,
    "gain-other": 0.5,
    "to-another": 0.8,  # a gain handed to a comrade
    # uses, once (an Item) or per turn (a use once per turn)
    "reroll": 1.0,
    "reroll-each-turn": 0.35,
    "recolour": 1.0,
    "recolour-each-turn": 0.2,
    "reface": 3.0,  # a die of any colour turned to any face
    "reface-colour": 1.5,  # a die of one colour only
    "reface-climbing": 7.0,  # ... when a Climb needs a Skull
    "reface-colour-climbing": 6.0,
    "reface-skulls": 2.0,  # the Skulls turned into another face
    "skull-climbing": 8.0,  # a Skull added when a Climb needs one
    "skull-to-all": 1.0,  # ... for every Unit
    "skull-not-climbing": -1.0,
    "add-tool": 1.25,
    "add-courage": 0.8,
    "add-star": 1.0,
    "add-other": 1.0,
    "def-to-zero": 8.0,  # a Sector's DEF set to 0 for a turn (a typical DEF ahead)
    "mgf-off": MGF_MEAN,
    "mgf-off-permanently": MGF_MEAN,
    "mgf-off-adjacent-team": 2.0,
    "mgf-off-adjacent-solo": 0.5,
    "casualties-to-zero": 8.0,
    "casualties-now": 1.0,
    "special-damage-now": 0.5,
    "landmines-now": 2.0,
    "barriers-now": 1.0,
    "advance-free": 2.0,
    "advance-cheaper": 1.0,
    "draw-award": 3.5,
    "draw": 1.5,
    "rwb-cry-needed": 12.0,  # a Battle Cry when a Bunker ahead needs one
    "rwb-cry": 3.0,
    "free-card": 4.0,
    "self-sacrifice": -1.5,  # a Specialist given up for his use
    "allow-stay": 2.5,
    "copy-tally": 1.0,
    "keep-tally": 2.0,
    "swap-sectors": 1.7,
}
#: A Red-White-Blue bonus scored by a card, by the face of its triple (a Battle Cry: EFFECT_WORTH 'rwb-cry').
RWB_FACE_WORTH: Final = {"two-soldiers": 6.0, "one-soldier": 6.5, "star": 2.5, "tool": 2.0, "skull": 1.0}
#: The least gain (in Soldiers) for which a card that changes a die of the Final Tally is played (more: what the
#: card is worth kept, for a card used once).
DICE_CHANGE_MIN: Final = {"reroll": 0.3, "recolour": 1.5, "reface": 1.5}
