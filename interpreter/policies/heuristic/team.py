"""What the Units of one Sector hand each other: Items worth more to a comrade, Soldiers to even out or to save one."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ddaydice.interpreter.core.api import GameView
from ddaydice.interpreter.core.decisions import Decision
from ddaydice.interpreter.policies.heuristic.foe import standing
from ddaydice.interpreter.policies.heuristic.memory import Memory
from ddaydice.interpreter.policies.heuristic.values import item_value
from ddaydice.interpreter.policies.heuristic.views import here_loss, plan_value, rolls_here, view

if TYPE_CHECKING:
    from ddaydice.interpreter.core.state import Unit


def trade(mem: Memory, game: GameView, unit: Unit, d: Decision) -> int:
    """What to hand a comrade of the Sector: in Combat, Soldiers to save him; in Phase 3, an Item worth more to him,
    Soldiers to even out, Courage his plan needs more."""
    if game.state.phase == "combat":
        return _rescue(mem, game, unit, d)
    # Phase 3: hand over what is worth more to a comrade of the Sector, and even out the Soldiers.
    mine_m = _margin(mem, game, unit)
    for i, key in enumerate(d.keys):
        if key is None:
            continue
        oid, what = key
        other = game.state.unit(oid)
        if other.status != "active":
            continue
        if what in unit.items:
            if item_value(mem, game, other, what) > item_value(mem, game, unit, what) + 1.0:
                return i
        elif what == "soldiers":
            if unit.soldiers > 1 and mine_m - _margin(mem, game, other) >= 4.0:
                return i
        elif what == "courage":
            give = plan_value(mem, game, unit, unit.courage, at_roll=False) - plan_value(
                mem, game, unit, unit.courage - 1, at_roll=False)
            take = plan_value(mem, game, other, other.courage + 1, at_roll=False) - plan_value(
                mem, game, other, other.courage, at_roll=False)
            if take > give + 1.0:
                return i
    return 0


def _margin(mem: Memory, game: GameView, unit: Unit) -> float:
    """Soldiers the Unit is expected to have left in the Bunker."""
    tv = view(mem, game, unit)
    k = rolls_here(mem, game, unit, at_roll=False)
    o = tv.planner.at(unit.sector, tv.visited, unit.courage, k)
    return standing(mem, game, unit) + o[1] - 30.0 * (1.0 - o[3])


def _rescue(mem: Memory, game: GameView, unit: Unit, d: Decision) -> int:
    """After the MGF roll: give Soldiers to a comrade this combat would wipe out, if they can be spared."""
    mine = _combat_loss_now(mem, game, unit)
    spare = mem.count(game, unit) - mine - 2
    if spare <= 0 or unit.soldiers <= 1:
        return 0
    for i, key in enumerate(d.keys):
        if key is None or key[1] != "soldiers":
            continue
        other = game.state.unit(key[0])
        if other.status != "active":
            continue
        need = _combat_loss_now(mem, game, other) - mem.count(game, other) + 1
        if need > 0:
            return i
    return 0


def _combat_loss_now(mem: Memory, game: GameView, unit: Unit) -> int:
    """The casualties this turn's Combat takes from the Unit, now the MGF dice are rolled."""
    s = game.state
    d = game.value("def", unit)
    rolls = s.sectors[unit.sector].mgf_roll or []
    mgf = sum(rolls) if s.sectors[unit.sector].mgf_turn == s.turn else 0
    if game.flag("ignore-mgf-casualties", unit):
        mgf = 0
    loss = d + mgf
    v, _ = game.query("casualties", unit, base=loss)
    return int(v)


def neediest(mem: Memory, game: GameView, ids: list[Any]) -> int:
    """The Unit of ``ids`` whose Combat here would cost it most for its Soldiers."""
    def need(uid: Any) -> float:
        try:
            u = game.state.unit(str(uid))
        except KeyError:
            return 0.0
        if u.status != "active":
            return -1e9
        m, _ = here_loss(mem, game, u)
        return m - mem.count(game, u)
    return max(range(len(ids)), key=lambda i: (need(ids[i]), -i))

