"""The effect context's own helpers: the Unit it speaks for and the recipients of an action."""

from __future__ import annotations

from collections.abc import Sequence

from mypy_extensions import trait

from ddaydice.dsl import ast
from ddaydice.dsl.compile import EffectSource
from ddaydice.interpreter.core.api import GameAPI
from ddaydice.interpreter.core.state import (
    Unit,
)


@trait
class ContextBase:
    """The effect context's own helpers: the Unit it speaks for and the recipients of an action."""

    __slots__ = ("card", "game", "owner", "sector", "source", "unit")

    def __init__(self, game: GameAPI, unit: Unit | None, owner: Unit | None, source: EffectSource,
                 sector: str | None, card: str | None = None) -> None:
        self.game = game
        self.unit = unit
        self.owner = owner
        self.source = source
        self.sector = sector or None  # another side's player stands in no Sector
        self.card = card  # the card a card's value is asked about ('card-is')

    def _me(self) -> Unit:
        assert self.unit is not None
        return self.unit

    def _permitted(self, permission: str, use: bool = False) -> bool:
        """Whether this effect's action may do what asks ``permission`` (a find asks 'find', a re-roll of a Skull
        'reroll-skull') for its Unit where it stands (ruling 7.4: a forbid of it stops the action, whatever the
        action's rank). An effect of a tier marked ``asks-no-permission`` (rules/precedence.yaml: Awards, which
        "override everything else") asks nothing and acts (ruling 7.5); ``use``: the turn acts on the permission,
        which a limited one counts (ruling 14.2)."""
        if self.game.content.asks_no_permission(self.source.tier):
            return True
        return self.game.flag(permission, self._me(), use=use)

    def _recipients(self, recipient: str | None) -> list[Unit]:
        g = self.game
        me = self._me()
        if recipient is None:
            return [me]
        if recipient == "all-units":
            return g.state.active_units()  # the German player is not a Unit
        if recipient == "all-players":
            return g.state.active_units() + g.side_players()
        if recipient == "the-german":
            return g.side_players()  # another side's players (nobody, in a game without them)
        if recipient == "units-here":
            return [u for u in g.state.active_units() if u.sector == me.sector]
        if recipient == "another-unit":
            how = g.option_rules.another_unit(self.source.kind)  # an option's setting: other, self or nobody
            if how == "nobody":
                return []
            others = [u for u in g.state.active_units() if u is not me] if how == "other" else []
            if not others:
                # rulebook, solitaire: "another Unit" means the player.
                return [me]
            i = g.ask_one(me, "choose", f"{self.source.name}: which other Unit?", [u.name for u in others],
                          [u.id for u in others], topic="other-unit")
            return [others[i]]
        return []

    def roll_d6(self) -> int:
        return self.game.d6()

    def roll_dice(self, count: int) -> int:
        """The total of dice an effect rolls ('lose 1d6 soldiers', 'def -1d6', a chance), from the game's generator;
        with the Unit's 'roll-high' (each +1: rolled once more, the higher total kept; each -1: the lower)."""
        g = self.game
        edge = g.value("roll-high", self._me()) if "roll-high" in g.live_queries else 0
        return sum(g.roll_with_edge(count, edge, lower_is_better=False))

    def roll_chance(self, count: int) -> int:
        """The dice of a chance ('roll 1d6 (5-6: ...)'), from the game's generator: their total."""
        g = self.game
        total = self.roll_dice(count)
        if g.tracing:
            g.log("chance", f"{self.source.name}: {self._me().name} rolls {total} ({count}d6)", self._me(),
                  self.source.owner, self.source.tier)
        return total

    def choose_option(self, labels: list[str], options: Sequence[ast.Option]) -> int:
        """An 'or': the options in English (``labels``) and as the effect's tree (the question's keys)."""
        return self.game.ask_one(self._me(), "or", f"{self.source.name}: choose one", labels, options)
