"""The other side's player (the German): who he is, what he gains each turn, what he takes from a Unit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ddaydice.interpreter.core.api import GameView
from ddaydice.interpreter.policies.heuristic.cardtext import foe_pressure
from ddaydice.interpreter.policies.heuristic.memory import Memory
from ddaydice.interpreter.policies.heuristic.model import FOE_DRAIN_BASE, FOE_GAIN_PRIOR, FOE_PRIOR_TURNS

if TYPE_CHECKING:
    from ddaydice.interpreter.core.state import Unit


def foe(game: GameView) -> Unit | None:
    """Another side's player whom a Unit must outnumber in an Assault, and who loses the highest DEF the
    Units occupy each turn (rules/sides.yaml): the German of Atlantikwall."""
    for p in game.state.sides:
        sd = game.side_defs.get(p.side) if p.side else None
        if p.status == "active" and sd is not None and sd.assault is not None \
                and sd.casualties == "highest-occupied-def":
            return p
    return None


def observe_foe(mem: Memory, game: GameView) -> None:
    """Remember the German's Soldiers at the first decision of this turn (and the DEF he then stood to lose)."""
    player = foe(game)
    if player is None:
        return
    units = game.state.active_units()
    worst = max((int(game._base("def", u, u.sector, None, False)[0]) for u in units), default=0)
    mem.foe_seen[game.state.turn] = (game.soldier_count(player), worst)


def foe_gain(mem: Memory, game: GameView) -> float | None:
    """The German's Soldiers gained per turn, as this game has shown them so far (None: no such side)."""
    if foe(game) is None:
        return None
    seen = mem.foe_seen
    total, n = FOE_GAIN_PRIOR * FOE_PRIOR_TURNS, FOE_PRIOR_TURNS
    for t, (now, worst) in seen.items():
        before = seen.get(t - 1)
        if before is None or now <= 0:
            continue  # at 0 he lost what he had, not the DEF: that turn tells nothing of his gains
        total += now - before[0] + worst
        n += 1
    return round(2.0 * total / n) / 2.0


def foe_model(mem: Memory, game: GameView, unit: Unit) -> tuple[float, float, tuple[float, ...]] | None:
    """Against another side: (his Soldiers gained per turn, the Soldiers his cards in play take from this Unit
    each turn, the chances it loses 0, 1, 2 Courage to him in a turn); None without such a side."""
    player = foe(game)
    if player is None:
        return None
    gain = foe_gain(mem, game) or 0.0
    share = 1.0 / max(1, len(game.state.active_units()))
    soldiers = 0.0
    courage = FOE_DRAIN_BASE
    for card in player.specialists:
        hit = foe_pressure(game, card)
        soldiers += hit[0] * (share if hit[2] else 1.0)
        courage += hit[1] * (share if hit[2] else 1.0)
    courage = min(2.0, round(4.0 * courage) / 4.0)
    drain = (1.0 - courage, courage) if courage <= 1.0 else (0.0, 2.0 - courage, courage - 1.0)
    return gain, round(2.0 * soldiers) / 2.0, drain


def standing(mem: Memory, game: GameView, unit: Unit) -> float:
    """What the plan's outcome adds to: the Unit's Soldiers, or, against the German, its lead over him
    (after his roll of this turn, which the plan does not count again)."""
    count = float(mem.count(game, unit))
    player = foe(game)
    if player is None:
        return count
    gain = foe_gain(mem, game) or 0.0
    return count - game.soldier_count(player) + gain
