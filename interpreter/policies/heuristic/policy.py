"""The heuristic policy itself: a memory per game, and each decision handed to the module that decides it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from mypy_extensions import mypyc_attr

from ddaydice.dsl import ast as dsl_ast
from ddaydice.interpreter.core.api import GameView
from ddaydice.interpreter.core.decisions import Decision
from ddaydice.interpreter.policies.deciders import ReferencePolicy
from ddaydice.interpreter.policies.heuristic.casualties import absorb, casualty, sacrifice
from ddaydice.interpreter.policies.heuristic.choices import choose, either, option_value, remain, start
from ddaydice.interpreter.policies.heuristic.dice import aside, cancel, dice_trade, lock, reroll
from ddaydice.interpreter.policies.heuristic.foe import observe_foe
from ddaydice.interpreter.policies.heuristic.memory import Memory
from ddaydice.interpreter.policies.heuristic.moves import move
from ddaydice.interpreter.policies.heuristic.purchases import find, recruit
from ddaydice.interpreter.policies.heuristic.team import trade
from ddaydice.interpreter.policies.heuristic.uses import use, wants_use
from ddaydice.interpreter.policies.heuristic.values import item_value, remaining, spec_value
from ddaydice.interpreter.policies.heuristic.views import forget_other_games
from ddaydice.interpreter.policies.side_policy import SidePolicy

if TYPE_CHECKING:
    from ddaydice.interpreter.core.state import Unit

#: Who answers each kind of decision (any other kind: the reference policy).
_HANDLERS: Final[dict[str, Callable[[Memory, GameView, Unit, Decision], int | tuple[int, ...]]]] = {
    "lock": lock,
    "reroll": reroll,
    "cancel": cancel,
    "move": move,
    "recruit": recruit,
    "find": find,
    "casualty": casualty,
    "sacrifice": sacrifice,
    "absorb": absorb,
    "or": either,
    "choose": choose,
    "use": use,
    "start": start,
    "remain": remain,
    "aside": aside,
    "trade": trade,
    "dice-trade": dice_trade,
}


@mypyc_attr(allow_interpreted_subclasses=True)  # a policy may be extended (the tests count its calls)
class HeuristicPolicy:
    """A competent player; deterministic given the game (it draws no random numbers). (A plain class rather than an
    attrs one, so that it is a native class when compiled with mypyc.)"""

    __slots__ = ("_game", "_side_policy", "fallback", "memory")

    def __init__(self) -> None:
        self.fallback = ReferencePolicy()
        #: What it remembers of the game it plays (a new memory for each game).
        self.memory = Memory()
        self._side_policy = SidePolicy()
        self._game: Any = None

    def decide(self, game: GameView, decision: Decision) -> tuple[int, ...]:
        """The answer to ``decision``: from the module that decides its kind, the reference policy's otherwise."""
        if game.state.sides and game.state.unit(decision.unit).side:
            # another side's player (the German): his own policy (policies/side_policy.py)
            return self._side_policy.decide(game, decision)
        # A new game is told by its state (one for the game's life). The policy holds the state, not the game: the
        # game holds its policies, and a policy holding the game would make a cycle that only Python's cyclic
        # collector frees, game after game.
        if self._game is not game.state:
            forget_other_games(game.state)
            self._game = game.state
            self.memory = Memory()
        if game.state.sides and game.state.turn not in self.memory.foe_seen:
            observe_foe(self.memory, game)
        unit = game.state.unit(decision.unit)
        handler = _HANDLERS.get(decision.kind)
        if handler is None:
            return self.fallback.decide(game, decision)
        answer = handler(self.memory, game, unit, decision)
        return answer if isinstance(answer, tuple) else (answer,)

    # ------------------------------------------------------------------ what it thinks, asked directly
    def wants_use(self, game: GameView, unit: Unit, owner: str, point: str) -> bool:
        """Whether it plays the use of ``owner`` (a card, a Sector, a rule) at use point ``point``."""
        return wants_use(self.memory, game, unit, owner, point)

    def option_value(self, game: GameView, unit: Unit, option: dsl_ast.Option) -> float:
        """What one option of an 'or' (its tree) is worth to the Unit, in Soldiers."""
        return option_value(self.memory, game, unit, option)

    def item_value(self, game: GameView, unit: Unit, item: str) -> float:
        """An Item's (or Vehicle's) worth to the Unit, in Soldiers."""
        return item_value(self.memory, game, unit, item)

    def spec_value(self, game: GameView, unit: Unit, spec: str) -> float:
        """A Specialist's worth to the Unit, in Soldiers."""
        return spec_value(game, unit, spec)

    def remaining(self, game: GameView, unit: Unit) -> tuple[int, int]:
        """(Advances left, turns left), roughly."""
        return remaining(game, unit)
