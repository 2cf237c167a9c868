"""What a Unit gives up: which casualty to take, which Specialist to sacrifice, what absorbs the casualties."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ddaydice.interpreter.core.api import GameView
from ddaydice.interpreter.core.decisions import Decision
from ddaydice.interpreter.policies.heuristic.memory import Memory
from ddaydice.interpreter.policies.heuristic.values import spec_value, star_value
from ddaydice.interpreter.policies.heuristic.views import view

if TYPE_CHECKING:
    from ddaydice.interpreter.core.state import Unit


def casualty(mem: Memory, game: GameView, unit: Unit, d: Decision) -> int:
    """Which casualty to take: Soldiers first (the most at once), then the Specialist worth least per Soldier he stands
    for."""
    soldiers = [(k[1], i) for i, k in enumerate(d.keys) if k[0] == "soldiers"]
    if soldiers:
        return max(soldiers)[1]
    remaining = d.detail if isinstance(d.detail, int) else 1  # the casualties left to take
    best, best_r = 0, math.inf
    for i, k in enumerate(d.keys):
        sv = game.value("soldier-value", unit, card=k[1])
        r = spec_value(game, unit, k[1]) / max(1, min(sv, remaining))
        if r < best_r:
            best, best_r = i, r
    return best


def sacrifice(mem: Memory, game: GameView, unit: Unit, d: Decision) -> int:
    """The Specialist worth least to the Unit."""
    keys = d.keys or tuple(unit.specialists)
    return min(range(len(keys)), key=lambda i: (spec_value(game, unit, keys[i]), i))


def absorb(mem: Memory, game: GameView, unit: Unit, d: Decision) -> int:
    """How much Courage (or how many Stars) absorbs casualties: all when the casualties would wipe the Unit out;
    Stars when they buy little; the Courage its route ahead cannot use."""
    most = d.size() - 1
    pending = game.pending_casualties
    lethal = pending >= mem.count(game, unit)
    if lethal:
        return most
    if d.detail == "stars":  # (the resource spent)
        return most if star_value(mem, game, unit) < 0.8 else 0
    # Courage the route ahead can still use is kept; the rest saves Soldiers.
    tv = view(mem, game, unit)
    keep = tv.planner.need[tv.planner.index[unit.sector]]
    return max(0, min(most, unit.courage - keep))

