"""The effect context: the interpreter's side of dsl.compile.EffectContext, what an effect can do for one Unit.

Its actions are written one family a module (resources, dice, cards, Sectors) and its questions in another; the
class here only puts them together.
"""

from __future__ import annotations

from ddaydice.interpreter.effects.act_cards import CardActions
from ddaydice.interpreter.effects.act_dice import DiceActions
from ddaydice.interpreter.effects.act_resources import ResourceActions
from ddaydice.interpreter.effects.act_sectors import SectorActions
from ddaydice.interpreter.effects.questions import Questions


class Ctx(ResourceActions, DiceActions, CardActions, SectorActions, Questions):
    """What an effect can do, for one Unit (the owner of the card, the Sector it speaks of, the card asked about)."""

    __slots__ = ()
