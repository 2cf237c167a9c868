"""The base of a tool's watcher (core/api.py ``Watcher``): every moment of the game, doing nothing, so a watcher
writes only the moments it needs. This module stays Python when the engine is compiled (it is not in
compiled.txt): a compiled class's methods accept no instance of a subclass written in Python."""

from __future__ import annotations

from ddaydice.dsl.compile import EffectSource
from ddaydice.interpreter.core.api import GameAPI
from ddaydice.interpreter.core.inplay import InPlay
from ddaydice.interpreter.core.state import Unit
from ddaydice.interpreter.core.values import Move


class Watching:
    """A ``Watcher`` that does nothing at any moment: the class a tool's watcher extends."""

    def starts_chosen(self, game: GameAPI) -> None:
        """Each Unit's starting Sector is chosen (turn 0), before the 'game-start' triggers."""

    def phase_begins(self, game: GameAPI, phase: str) -> None:
        """A phase is about to begin."""

    def phase_ends(self, game: GameAPI, phase: str) -> None:
        """A phase has ended (its grants expired)."""

    def game_ends(self, game: GameAPI) -> None:
        """The game is over (``run`` returns)."""

    def at_point(self, game: GameAPI, unit: Unit, point: str) -> None:
        """The Unit reaches a moment of uses, before it is offered any."""

    def moving(self, game: GameAPI, unit: Unit, move: Move) -> None:
        """The Unit is about to make a move."""

    def suffering(self, game: GameAPI, unit: Unit, amount: int, cause: str) -> None:
        """The Unit is about to suffer a loss, before any protection."""

    def granted(self, game: GameAPI, unit: Unit, card: str, source: EffectSource) -> None:
        """An effect's grant (a recruit, a find) is about to give the Unit a card: ``source`` is the effect's."""

    def index_read(self, game: GameAPI, index: InPlay) -> None:
        """The index of the effects in play is read (``game.in_play()``), at each read: the index the turn is about
        to use, kept since the last ``sources_changed()`` (tests/test_index.py compares it with a fresh one)."""
