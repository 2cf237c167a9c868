"""What a Unit buys in Phase 3: the Specialist to recruit (or none yet) and the Item to find."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ddaydice.interpreter.core.api import GameView
from ddaydice.interpreter.core.decisions import Decision
from ddaydice.interpreter.policies.heuristic.memory import Memory
from ddaydice.interpreter.policies.heuristic.values import SpecWorth, item_value, spec_value
from ddaydice.interpreter.policies.heuristic.views import here_loss

if TYPE_CHECKING:
    from ddaydice.interpreter.core.state import Unit


def recruit(mem: Memory, game: GameView, unit: Unit, d: Decision) -> int:
    """The Specialist worth most, or none yet when a much better one is a Star away and the Unit can wait."""
    best, best_v = (0 if d.keys and d.keys[0] is None else -1), 0.0
    worth = SpecWorth(game, unit)
    for i, key in enumerate(d.keys):
        if key is None:
            continue
        v = worth.of(key)
        if v > best_v:
            best, best_v = i, v
    if best < 0:
        return 0
    m, _ = here_loss(mem, game, unit)
    if d.keys and d.keys[0] is None and mem.count(game, unit) >= 2 * m + 3:
        # Wait a turn for a much better Specialist that is one Star away.
        hand = game.state.hands.get(unit.id, []) + [p for p in game.state.pool
                                                    if game.kind_of.get(p) == "specialist"]
        for spec in hand:
            if spec in unit.specialists or spec in unit.dead or spec in d.keys:
                continue
            cost = game.value("specialist-cost", unit, card=spec)
            if cost == unit.stars + 1 and spec_value(game, unit, spec) >= 2 * best_v + 2:
                return 0
        if best_v < 1.0:
            return 0
    return best


def find(mem: Memory, game: GameView, unit: Unit, d: Decision) -> int:
    """The Item worth most (and worth its cost), or none."""
    best, best_v = 0, 0.0
    for i, key in enumerate(d.keys):
        if key is None:
            continue
        card = key[0] if isinstance(key, tuple) else key
        cost = key[1] if isinstance(key, tuple) else game.value("item-cost", unit, card=card)
        v = item_value(mem, game, unit, card)
        if v < 1.0 or v < 0.2 * cost:
            continue
        if v > best_v:
            best, best_v = i, v
    if best == 0 and (not d.keys or d.keys[0] is not None):
        return 0
    return best

