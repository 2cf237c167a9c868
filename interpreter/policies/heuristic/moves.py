"""Where a Unit moves in Phase 4: every legal move scored by the Unit's chance to come through the plan it starts."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ddaydice.interpreter.core.api import GameView
from ddaydice.interpreter.core.decisions import Decision
from ddaydice.interpreter.policies.heuristic.foe import foe, standing
from ddaydice.interpreter.policies.heuristic.memory import Memory
from ddaydice.interpreter.policies.heuristic.model import D6_VAR, DEATH
from ddaydice.interpreter.policies.heuristic.planner import Edge, shift, survival
from ddaydice.interpreter.policies.heuristic.values import item_value
from ddaydice.interpreter.policies.heuristic.views import rolls_here, sure_move, view

if TYPE_CHECKING:
    from ddaydice.interpreter.core.state import Unit


def move(mem: Memory, game: GameView, unit: Unit, d: Decision) -> int:
    """Phase 4: the move to make."""
    return choose_move(mem, game, unit, list(d.keys))[0]


def choose_move(mem: Memory, game: GameView, unit: Unit, moves: Sequence[Any]) -> tuple[int, float]:
    """The move with the best chance to survive (near-ties go to the most Soldiers expected)."""
    scores = _move_scores(mem, game, unit, moves)
    # (Loops as max() compares, the first kept on a tie: compiled, max() of a generator or with a key is a generic
    # call.)
    top = scores[0][0]
    for sc in scores:
        if sc[0] > top:  # noqa: PLR1730
            top = sc[0]
    best = -1
    best_m = 0.0
    for i in range(len(moves)):
        if scores[i][0] >= top - 0.002:
            m = scores[i][1]
            if best < 0 or m > best_m:  # (on a tie, the first: its -i is the greater)
                best, best_m = i, m
    return best, scores[best][0]


def _move_scores(mem: Memory, game: GameView, unit: Unit, moves: Sequence[Any]) -> list[tuple[float, float, float]]:
    """For each move: (survival score, mean, variance) of the plan that starts with it."""
    tv = view(mem, game, unit)
    planner = tv.planner
    x = unit.sector
    k = rolls_here(mem, game, unit, at_roll=False)
    c = unit.courage
    soldiers = standing(mem, game, unit)
    edges = {e.to: e for e in planner.edges_of(x) if not e.retreat}
    out: list[tuple[float, float, float]] = []
    player = foe(game)
    for m in moves:
        if player is not None:
            # The plan counts the Unit's lead over the German; this turn's Combat must also leave the Unit
            # standing: it suffers the German's Soldiers at most (his shortfall lowers its DEF) and the rest.
            to = x if m.kind == "stay" else m.to
            lm, lv = planner.abs_loss_of(to) if to in planner.index else (0.0, 0.0)
            printed = float(game._base("def", unit, to, None, False)[0])
            lm -= max(0.0, printed - game.soldier_count(player))
            if m.kind != "stay" and to in edges:
                lm += edges[to].loss
                lv += edges[to].var
            alive = 0.5 * math.erfc(-(mem.count(game, unit) - lm - 0.5) / math.sqrt(2.0 * (lv + 1.0)))
        else:
            alive = 1.0
        if m.kind == "stay":
            lm, lv = planner.loss_of(x)
            o = shift(planner.roll_at(x, tv.visited, c, k + 1), -lm, lv)
            # Past the planner's horizon in a Sector without a stay limit, waiting is for what cannot
            # be had otherwise (a Battle Cry into a Bunker when no other way is any good).
            waiting = sure_move(mem, game, unit, c) <= DEATH / 2
            if k >= planner.max_rolls[planner.index[x]] and len(moves) > 1 and not waiting:
                # Past the planner's horizon in a Sector without a stay limit: stop putting it off.
                o = shift(o, -3.0 * (k - planner.max_rolls[planner.index[x]] + 1), 0.0)
            if tv.holding:
                o = shift(o, 2.0, 0.0)
        else:
            to = m.to
            e = edges.get(to)
            sec = game.sectors[to]
            if sec.bunker and to not in tv.targets:
                out.append((-1.0, DEATH, 0.0))
                continue
            if e is None:
                mines = 3.5 if m.landmines and not game.flag("ignore-landmines", unit) else 0.0
                e = Edge(to, m.cost, mines, D6_VAR if mines else 0.0, 0.0, 1.0)
            if m.battle_cry:
                sac = 0.0 if not any(r[0] == "sacrifice" for r in game._requirements(to)) else e.loss - (
                    3.5 if m.landmines else 0.0)
                e = Edge(e.to, e.cost, max(0.0, e.loss - sac), e.var, e.bonus, e.avail, e.retreat)
            e = Edge(e.to, m.cost, e.loss, e.var, e.bonus, 1.0, e.retreat)
            o = planner.take(e, tv.visited, c)
            if m.abandons_vehicle and unit.vehicle is not None:
                o = shift(o, -0.3 * item_value(mem, game, unit, unit.vehicle), 0.0)
            if tv.holding and m.kind == "advance" and not sec.bunker:
                o = shift(o, -4.0, 0.0)
        out.append((alive * survival(soldiers, o), o[0], o[2]))
    return out

