"""A game of D-Day Dice: content + map + options + deciders -> a played-out state and, if asked, a trace.

The Game is assembled from one part per layer, each in its own module; it holds the per-map plan (shared by every
game of a simulation), the state, and the effects in play. Everything a card or a Sector does comes from its
compiled effect (dsl/compile.py); the parts only know the game's procedure (the five phases, interpreter/phases/)
and how to ask questions (queries, combined by core/precedence.py) and fire events (interpreter/effects/).

Rulings on ambiguous rules are recorded in docs/rulings.md and tested; the code names them where they apply
(``# ruling: ...``).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from mypy_extensions import mypyc_attr

from ddaydice.dsl.loader import Content
from ddaydice.interpreter.core.api import Decider, GameAPI, KeysDecider, Watcher
from ddaydice.interpreter.core.inplay import InPlay
from ddaydice.interpreter.core.kernel import Kernel
from ddaydice.interpreter.core.state import GameState
from ddaydice.interpreter.core.values import OpenRoll, Pending
from ddaydice.interpreter.effects.events import Events
from ddaydice.interpreter.effects.queries import Queries
from ddaydice.interpreter.effects.sources import Sources
from ddaydice.interpreter.effects.uses import Uses
from ddaydice.interpreter.game.plan import Plan
from ddaydice.interpreter.game.setup import SetUp
from ddaydice.interpreter.phases.casualties import Casualties
from ddaydice.interpreter.phases.combat import CombatPhase
from ddaydice.interpreter.phases.movement import MovementPhase
from ddaydice.interpreter.phases.purchase import PurchasePhase
from ddaydice.interpreter.phases.roll import RollPhase
from ddaydice.interpreter.phases.turn import Turn
from ddaydice.interpreter.phases.upkeep import UpkeepPhase


# The parts are listed coldest first. No two define the same method (only GameAPI declares them all), so their
# order is the compiled engine's alone: a compiled part reads its own methods and the game's attributes through the
# part's table, which a game finds by a search from the last part listed to the first (mypyc's traits); the hottest
# parts last, the turn's and the queries', save about 1% of a Practice Run's instructions.
@mypyc_attr(allow_interpreted_subclasses=True)  # the tools' games (tools/forced.py, invariants.py) extend it
class Game(Plan, SetUp, Events, Kernel, PurchasePhase, Casualties, CombatPhase, Uses, Sources, UpkeepPhase,
           MovementPhase, RollPhase, Queries, Turn):
    """One game: content + map + options + deciders -> a played-out state and, if asked, a trace."""

    # Every attribute of a game is one GameAPI declares (core/api.py), held in a slot: the instance's own dict stays
    # empty, so CPython's specialised look-ups of the parts' methods hold from one game to the next (a dict filled
    # with the plan's sixty values, each game a new one, defeated them: about 8% more instructions per Practice Run
    # turn). tests/test_engine.py checks that no game keeps an attribute outside its slots.
    __slots__ = tuple(GameAPI.__annotations__)

    def __init__(self, content: Content, map_id: str, *, players: int = 1, seed: int = 0,
                 variant: str | None = None, options: Iterable[str] = (), deciders: Sequence[Decider] | Decider,
                 trace: bool = False, state: GameState | None = None, rng: random.Random | None = None,
                 watchers: Sequence[Watcher] = ()) -> None:
        self.content = content
        self.tracing = trace
        self.unasked = None
        self.pause_after = None
        self.watchers = tuple(watchers)
        self.extra_cards = frozenset()
        self.deciders: list[Decider] = list(deciders) if isinstance(deciders, Sequence) else [deciders]
        # Everything that depends only on (content, map, variant, options) is computed once and shared
        # by every game of a simulation: the graph, the effect indexes, the live queries and events.
        key = (id(content), map_id, variant, tuple(options))
        plan = _PLANS.get(key)
        if plan is None or plan[0] is not content:
            self._prepare(content, map_id, variant, list(options))
            plan = (content, self.plan_values())
            if len(_PLANS) > 64:
                _PLANS.clear()
            _PLANS[key] = plan
        else:
            self.take_plan(plan[1])
        self.pending_casualties = 0
        self.pending: list[Pending] = []
        self.open_roll: OpenRoll | None = None
        self._decider_of: dict[str, Decider] = {}
        self._fast_of: dict[str, KeysDecider | None] = {}  # the deciders that answer from keys, if any
        self._losing: str | None = None
        self._decoy: str | None = None
        self.epoch = 0
        self._index: InPlay | None = None
        self._watched_index: InPlay | None = None
        self.drawing: str | None = None  # the card being drawn, while 'on drawn' triggers run (mechanisms/decks.py)
        self.use_at: str | None = None  # the use point being offered (effects/uses.py use_point)
        self.state = state if state is not None else self._setup(players, seed, rng)
        self.rng = self.state.rng


    def plan_values(self) -> tuple[Any, ...]:
        """What the per-map plan holds, in the order of ``_PLAN_KEYS``, to be shared by the games of a simulation
        (``take_plan``)."""
        return tuple([getattr(self, k) for k in _PLAN_KEYS])

    def take_plan(self, values: tuple[Any, ...]) -> None:
        """Hold a plan worked out by another game of the same content, map, variant and options. Each value is
        stored by name, in the order of ``_PLAN_KEYS`` (a compiled store; a setattr for each cost a Practice Run
        game 1.5% of its instructions); tests/test_engine.py checks that every one is taken, in its place."""
        (self.option_rules, self.live_windows, self.live_points, self._setup_tpl, self.move_rank, self.move_queries,
         self._fixed_moves, self._fixed_capacity, self.map, self.variant, self.options, self.ignore, self.keep_faces,
         self.sectors, self.tier_index, self.queries, self.moves, self.courage_to_bunker, self.front_row,
         self.next_to_bunker, self.side_defs, self._role, self._kind_side, self.side_rwb, self.side_sources,
         self._side_mods, self._side_layout, self.global_sources, self.rwb_sources, self.rwb_faces, self.live_queries,
         self.own_prices, self.live_events, self.until_events, self.static_flags, self.static_values, self.defaults,
         self._req_cache, self._point_uses, self._sector_index, self._sectors_index, self._rule_uses,
         self._rules_index, self.printed_costs, self.kind_of, self.effect_of, self.query_minimum, self.printed_def,
         self.printed_mgf, self._faces, self._face_set, self._face_worth, self._rwb_plan, self._layout,
         self._soldier_faces) = values


_PLANS: dict[tuple[int, str, str | None, tuple[str, ...]], tuple[Content, tuple[Any, ...]]] = {}
_PLAN_KEYS = ("option_rules", "live_windows", "live_points",
              "_setup_tpl",
              "move_rank", "move_queries", "_fixed_moves", "_fixed_capacity",
              "map", "variant", "options", "ignore", "keep_faces", "sectors", "tier_index", "queries", "moves",
              "courage_to_bunker", "front_row", "next_to_bunker", "side_defs", "_role", "_kind_side",
              "side_rwb", "side_sources", "_side_mods", "_side_layout", "global_sources", "rwb_sources",
              "rwb_faces", "live_queries", "own_prices", "live_events", "until_events", "static_flags", "static_values",
              "defaults", "_req_cache",
              "_point_uses", "_sector_index", "_sectors_index", "_rule_uses", "_rules_index", "printed_costs",
              "kind_of", "effect_of", "query_minimum", "printed_def", "printed_mgf", "_faces", "_face_set",
              "_face_worth", "_rwb_plan", "_layout", "_soldier_faces")


def play(content: Content, map_id: str, deciders: Sequence[Decider] | Decider, **kw: Any) -> Game:
    """Set up and play a whole game; returns the finished Game."""
    game = Game(content, map_id, deciders=deciders, **kw)
    game.run()
    return game
