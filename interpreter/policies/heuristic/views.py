"""The Unit's plan for this turn (shared by the Units' policies of a game) and the planner's values from it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ddaydice.interpreter.core.api import GameView
from ddaydice.interpreter.policies.heuristic.effectworth import profiles, shared_cards
from ddaydice.interpreter.policies.heuristic.facts import first_entry_sectors
from ddaydice.interpreter.policies.heuristic.foe import foe_model
from ddaydice.interpreter.policies.heuristic.memory import Memory
from ddaydice.interpreter.policies.heuristic.model import DEATH
from ddaydice.interpreter.policies.heuristic.params import params, targets_of
from ddaydice.interpreter.policies.heuristic.planner import TurnView, planner_for

if TYPE_CHECKING:
    from ddaydice.interpreter.core.state import GameState, Unit

#: Views shared by the policies of one game's Units (keyed by the game state's identity, which is checked).
_VIEWS: Final[dict[tuple[Any, ...], tuple[GameState, TurnView]]] = {}


def forget_other_games(state: GameState) -> None:
    """A policy meets a game: unless another Unit's policy already shares views of it, let the old ones go."""
    if not any(entry[0] is state for entry in _VIEWS.values()):
        _VIEWS.clear()


def view(mem: Memory, game: GameView, unit: Unit) -> TurnView:
    """The Unit's plan as of now (worked out once per decision)."""
    s = game.state
    # Within one decision nothing changes: every answer given is recorded, so the count of answers
    # tells decisions apart.
    quick = (len(s.choices), unit.id, unit.sector, len(unit.items), len(unit.specialists))
    hit = mem.quick.get(quick)
    if hit is not None:
        mem.view_key = hit[0]
        return hit[1]
    found = _view(mem, game, unit)
    if len(mem.quick) > 8:
        mem.quick.clear()
    mem.quick[quick] = (mem.view_key, found)
    return found


def _view(mem: Memory, game: GameView, unit: Unit) -> TurnView:
    """Work out the Unit's view (see view), or find it among those its comrades' policies shared."""
    s = game.state
    here = game.sectors[unit.sector]
    targets, holding, near = targets_of(mem, game, unit)
    foe = foe_model(mem, game, unit)
    # Only what the plan depends on: this Unit's cards, the cards that reach every Unit, the Sectors
    # whose first entry gives something, the Items the planner counts on.
    ps = profiles(game.content)
    reach_all = shared_cards(game.content)
    cards = tuple((u.id, tuple(u.specialists) if u is unit else tuple(c for c in u.specialists if c in reach_all),
                   u.vehicle) for u in s.units if u.status == "active")
    known = mem.firsts
    if known is None or known[0] is not s:  # (the game told by its state: see HeuristicPolicy.decide)
        known = mem.firsts = (s, first_entry_sectors(game))
    firsts, randoms = known[1]
    key = (unit.id, unit.sector, unit.chevrons() if len(here.defense) > 1 else 0,
           tuple(i for i in unit.items if (p := ps[i]).skull_giver or p.traits.planned), tuple(s.conquered),
           tuple(sorted(s.bunker_specialists.items())),
           tuple((g.owner, g.query, g.op, g.value, g.unit, g.sector) for g in s.grants) if s.grants else (), cards,
           tuple(f for f in firsts if s.sectors[f].entered), tuple(len(s.sectors[r].attributes) for r in randoms),
           len(s.placed), bool(s.award_deck), targets, holding, near, foe)
    mem.view_key = key
    # Every Unit's policy works out the same views (of itself and of its comrades): share them.
    shared = _VIEWS.get((id(s), key))
    if shared is not None and shared[0] is s:
        return shared[1]
    mem.use_cards(cards)
    plan = params(mem, game, unit, targets, near, foe)
    planner = planner_for(plan)
    found = TurnView(planner, planner.mask(unit.visited), targets, holding)
    if len(_VIEWS) > 256:
        _VIEWS.clear()
    _VIEWS[(id(s), key)] = (s, found)
    return found


def rolls_here(mem: Memory, game: GameView, unit: Unit, *, at_roll: bool) -> int:
    """Rolls made in the Unit's Sector by Phase 4 of this turn (the planner's ``k``)."""
    stay = mem.static(game, unit, "stay-turns", unit.sector, cards=True)
    if stay >= 100:
        return max(1, game.state.turn - unit.entered_turn)
    if unit.marker in {"must-move", "cant-stay"}:
        return 99
    return unit.chevrons() if at_roll else unit.chevrons() - 1


def plan_value(mem: Memory, game: GameView, unit: Unit, courage: int, *, at_roll: bool) -> float:
    """The utility of the Unit's best plan with ``courage`` Courage at this turn's Phase 4."""
    v = view(mem, game, unit)
    k = rolls_here(mem, game, unit, at_roll=at_roll)
    return v.planner.at(unit.sector, v.visited, courage, k)[0]


def courage_curve(mem: Memory, game: GameView, unit: Unit, base: int, n: int) -> list[float]:
    """Planner values with ``base`` .. ``base + n`` Courage at this turn's Phase 4 (plan_value's, the view and the
    rolls made read once)."""
    v = view(mem, game, unit)
    k = rolls_here(mem, game, unit, at_roll=True)
    planner = v.planner
    x = planner.index[unit.sector]
    visited = v.visited
    return [planner.value(x, visited, c if c > 0 else 0, k).u for c in range(base, base + n + 1)]


def sure_move(mem: Memory, game: GameView, unit: Unit, courage: int) -> float:
    """The utility of the best move the Unit can surely make now (no Battle Cry or Climb needed)."""
    v = view(mem, game, unit)
    planner = v.planner
    best = DEATH
    found = False
    for e in planner.edges_of(unit.sector):  # (a loop as max() compares: compiled, max() of a generator is generic)
        if e.avail >= 1 and e.cost <= courage and not e.retreat and e.to not in unit.visited:
            u = planner.take(e, v.visited, courage)[0]
            if not found or u > best:
                best, found = u, True
    return best


def here_loss(mem: Memory, game: GameView, unit: Unit) -> tuple[float, float]:
    """Expected casualties (and variance) if the Unit fights in its Sector this turn."""
    return view(mem, game, unit).planner.abs_loss_of(unit.sector)
