"""What a Unit's plan depends on: the Bunkers it aims at, and the casualties, gains and moves of every Sector ahead."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Final

from ddaydice.interpreter.core.api import GameView
from ddaydice.interpreter.policies.heuristic.effectworth import profiles
from ddaydice.interpreter.policies.heuristic.facts import Facts, facts, reachable, sector_uses_offered
from ddaydice.interpreter.policies.heuristic.memory import EnterNow, Memory
from ddaydice.interpreter.policies.heuristic.model import (
    D6_VAR,
    FOE_VAR,
    MGF_MEAN,
    P_BATTLE_CRY,
    P_CLIMB,
    P_CLIMB_HELPED,
    ROLL_GAIN,
    UNLIMITED_STAY_CAP,
)
from ddaydice.interpreter.policies.heuristic.planner import Edge, Params
from ddaydice.interpreter.policies.heuristic.values import SpecWorth, item_value, spec_value

if TYPE_CHECKING:
    from ddaydice.interpreter.core.state import Unit


# ------------------------------------------------------------------------------------------- the targets
def targets_of(mem: Memory, game: GameView, unit: Unit) -> tuple[frozenset[str], bool, bool]:
    """The Bunkers this Unit aims at (objectives are shared out between Units), whether it must hold
    back (its Bunker is closed for now) and whether a comrade waits beside the Bunker that opens it."""
    s = game.state
    where = (tuple((u.status, u.sector, len(u.visited)) for u in s.units), tuple(s.conquered))
    key = (unit.id, where)
    found = mem.target_memo.get(key)
    if found is not None:
        return found
    bunkers = [sid for sid, sec in game.sectors.items() if sec.bunker]
    objectives = [b for b in bunkers if game.sectors[b].objective]
    open_obj = [b for b in objectives if b not in s.conquered]
    active = s.active_units()
    mine: set[str] = set(bunkers)
    if len(s.units) > 1 and open_obj and len(active) > 1:
        # (one sharing-out for all the Units: worked out once, not again for each comrade whose plan is asked)
        assignment = mem.assigned.get(where)
        if assignment is None:
            if len(mem.assigned) > 64:
                mem.assigned.clear()
            assignment = mem.assigned[where] = _assign(mem, game, active, open_obj)
        if unit.id in assignment:
            mine = {assignment[unit.id]}
    elif len(s.units) > 1 and open_obj and len(active) == 1:
        mine = set(open_obj)
    holding = False
    near = False
    for b in list(mine):
        f = facts(game, b)
        if f.enter_unless is not None and f.enter_unless not in s.conquered:
            holding = True
            near = near or any(u is not unit and f.enter_unless in [t for t, *_r in game.moves[u.sector]]
                               for u in active)
    found = (frozenset(mine), holding, near)
    if len(mem.target_memo) > 64:
        mem.target_memo.clear()
    mem.target_memo[key] = found
    return found


def _assign(mem: Memory, game: GameView, active: list[Unit], bunkers: list[str]) -> dict[str, str]:
    """Share the open objective Bunkers out between the active Units (the same answer for every Unit)."""
    dist = {u.id: _hops(mem, game, u) for u in active}
    order = sorted(bunkers, key=lambda b: (game.sectors[b].column or 0, b))
    units = sorted(active, key=lambda u: u.id)
    best: tuple[float, tuple[str, ...]] | None = None
    n = min(len(units), len(order))
    for perm in itertools.permutations(order, n):
        cost = sum(dist[units[i].id].get(perm[i], 99) for i in range(n))
        if best is None or cost < best[0]:
            best = (cost, perm)
    assert best is not None
    return {units[i].id: best[1][i] for i in range(n)}


def _hops(mem: Memory, game: GameView, unit: Unit) -> dict[str, int]:
    """The moves the Unit needs to each Sector it may reach (a Bunker that opens later counts as open)."""
    dist = {unit.sector: 0}
    todo = [unit.sector]
    now = mem.enter_now(game, unit)  # (what may_enter's answers depend on, read once for the whole search)
    while todo:
        nxt = []
        for x in todo:
            for to, _kind, _cost, _mines, _barrier in game.moves[x]:
                if to in dist or to in unit.visited:
                    continue
                if not mem.may_enter(game, unit, to, now) and facts(game, to).enter_unless is None:
                    continue
                dist[to] = dist[x] + 1
                nxt.append(to)
        todo = nxt
    return dist


# ------------------------------------------------------------------------------------------- the plan's terms
class _Terms:
    """What the Unit brings to every Sector of its plan (its cards, read once per plan). (A plain class rather than
    an attrs one, so that it is a native class when compiled with mypyc.)"""

    __slots__ = (
        "barriers_ok",
        "beach",
        "breakers",
        "bunker_def",
        "casualties_saved",
        "cheapest",
        "cost_granted",
        "has_cry_item",
        "mines_free",
        "n_specs",
        "p_climb",
        "path",
        "platoon",
        "specs",
    )

    def __init__(self, *, specs: frozenset[str], casualties_saved: float, n_specs: int, cheapest: float,
                 mines_free: bool, barriers_ok: bool, p_climb: float, has_cry_item: bool, breakers: float, beach: float,
                 path: float, cost_granted: bool, platoon: int, bunker_def: float) -> None:
        self.specs: Final = specs
        self.casualties_saved: Final = casualties_saved
        self.n_specs: Final = n_specs
        self.cheapest: Final = cheapest  # the Specialist it would sacrifice
        self.mines_free: Final = mines_free
        self.barriers_ok: Final = barriers_ok
        self.p_climb: Final = p_climb
        self.has_cry_item: Final = has_cry_item
        self.breakers: Final = breakers  # DEF its Items take off a Bunker
        self.beach: Final = beach  # Soldiers its Specialists give on each Advance
        self.path: Final = path  # Soldiers its Specialists give on each move
        self.cost_granted: Final = cost_granted  # this turn's grants change the cost of an Advance
        self.platoon: Final = platoon  # Courage its Specialists take off each Advance
        self.bunker_def: Final = bunker_def  # DEF its Specialists take off a Bunker

    @staticmethod
    def of(game: GameView, unit: Unit) -> _Terms:
        """The terms of ``unit``, as it is now (its cards read from their effects: effectworth.Traits). (Loops
        rather than sum() and max() of generators, and the constructor called directly: compiled, each generator
        is an object and each of those calls a generic one; the same numbers, added in the same order.)"""
        ps = profiles(game.content)
        # What saves casualties in every Combat: a Specialist's or the Vehicle's (one saving counted: the greatest).
        saved = 0.0
        have_saver = False
        mines_ignored = False
        beach = 0.0
        path = 0.0
        bunker_def = 0.0
        for sp in frozenset(unit.specialists):  # (each Specialist once, in the order summed before)
            tr = ps[sp].traits
            if not have_saver or tr.casualties_saved > saved:
                saved = tr.casualties_saved
                have_saver = True
            mines_ignored = mines_ignored or tr.mines_ignored
            beach += tr.on_advance
            path += tr.on_move
            bunker_def += tr.bunker_def
        if unit.vehicle:
            v_saved = ps[unit.vehicle].traits.casualties_saved
            if not have_saver or v_saved > saved:
                saved = v_saved
        barriers = False
        skull_giver = False
        cry = False
        breakers = 0.0
        for i in unit.items:
            p = ps[i]
            barriers = barriers or p.traits.barriers_use
            skull_giver = skull_giver or p.skull_giver
            cry = cry or p.traits.cry_use
            breakers += p.traits.breaker
        # The Specialist it would sacrifice: the one worth least (the first of those worth as little), 0 with none.
        worth = SpecWorth(game, unit)
        cheapest = 0.0
        platoon = 0.0
        for n, sp in enumerate(unit.specialists):
            w = worth.of(sp)
            if n == 0 or w < cheapest:
                cheapest = w
            platoon += ps[sp].traits.advance_cut
        cost_granted = False
        for gr in game.state.grants:
            if gr.query == "advance-cost" and gr.unit in (None, unit.id):
                cost_granted = True
                break
        return _Terms(
            specs=frozenset(unit.specialists),
            casualties_saved=saved,
            n_specs=len(unit.specialists),
            cheapest=cheapest,
            mines_free=game.flag("ignore-landmines", unit) or mines_ignored,
            barriers_ok=game.flag("ignore-barriers", unit) or barriers,
            p_climb=P_CLIMB_HELPED if skull_giver else P_CLIMB,
            has_cry_item=cry,
            breakers=breakers,
            beach=beach,
            path=path,
            cost_granted=cost_granted,
            platoon=int(platoon),
            bunker_def=bunker_def,
        )


def params(mem: Memory, game: GameView, unit: Unit, targets: frozenset[str], near: bool,
           foe_model: tuple[float, float, tuple[float, ...]] | None = None) -> Params:
    """Everything the Unit's plan depends on, Sector by Sector of those it can still reach."""
    t = _Terms.of(game, unit)
    loss: list[tuple[str, float, float]] = []
    gain: list[tuple[str, float, int]] = []
    climbing: list[str] = []
    max_rolls: list[tuple[str, int]] = []
    enter: list[tuple[str, float]] = []
    edges: list[tuple[str, tuple[Edge, ...]]] = []
    cry_only = {b for b in targets if facts(game, b).battle_cry_only}
    waiting = {a for a in game.sectors for (b, *_rest) in game.moves[a] if b in cry_only} if cry_only else set()
    now = mem.enter_now(game, unit) if "enter" in game.live_queries else None
    reach = reachable(game, unit)
    reach_set = set(reach)
    for sid in reach:
        f = facts(game, sid)
        loss.append((sid, *_combat_loss(game, unit, sid, f, t)))
        gr = _roll_gain(mem, game, unit, sid, f)
        if f.climb:
            gr = 1.0
            climbing.append(sid)
        elif sid in waiting:
            gr -= 1.3
        gain.append((sid, gr, f.courage - f.courage_penalty))
        max_rolls.append((sid, _rolls_allowed(mem, game, unit, sid, f)))
        e_gain = _enter_gain(mem, game, unit, sid, f)
        if e_gain:
            enter.append((sid, e_gain))
        out = [e for move in game.moves[sid]
               if move[0] in reach_set and (e := _edge(mem, game, unit, sid, f, t, targets, near, move, now))
               is not None]
        if f.retreat is not None and f.retreat in reach_set and sector_uses_offered(game, sid):
            out.append(Edge(f.retreat, 0, 0.0, 0.0, 0.0, 1.0, retreat=True))
        edges.append((sid, tuple(out)))
    foe: tuple[tuple[str, float], ...] = ()
    drain: tuple[float, ...] = ()
    if foe_model is not None:
        # Each turn the German gains about foe_gain Soldiers and loses the printed DEF the Unit occupies
        # (both sides lose the same when he falls short: the shortfall lowers the Unit's DEF): a turn
        # costs the Unit's lead over him its own casualties less that DEF, plus his gain, plus what his
        # cards in play take from the Unit each turn.
        foe_gain, pressure, drain = foe_model
        foe = tuple((sid, foe_gain + pressure - float(game._base("def", unit, sid, None, False)[0]))
                    for sid in reach)
    return Params(tuple(loss), tuple(gain), frozenset(climbing), tuple(max_rolls), tuple(enter), targets,
                  tuple(edges), foe, FOE_VAR if foe else 0.0, drain)


def _combat_loss(g: GameView, unit: Unit, sid: str, f: Facts, t: _Terms) -> tuple[float, float]:
    """The casualties a Combat in ``sid`` is expected to cost the Unit (and their variance)."""
    d = float(g.value("def", unit, sector=sid))
    if f.bunker and t.bunker_def and unit.sector != sid:
        d -= t.bunker_def  # (in the Bunker, the query counts it already)
    mgf = g.value("mgf-dice", unit, sector=sid)
    m = max(0.0, d) + MGF_MEAN * mgf
    v = D6_VAR * mgf
    if f.combat_loss and not (f.combat_loss_unless and f.combat_loss_unless in t.specs):
        m += f.combat_loss
        v += D6_VAR
    sd = f.special_damage
    if mgf and sd == "specialist" and t.n_specs:
        m += mgf / 6 * (1.0 + t.cheapest)
    elif mgf and sd == "courage":
        m += mgf / 6 * 0.5
    if f.bunker:
        m = max(0.0, m - t.breakers)
    if m > 0:
        m = max(0.0, m - t.casualties_saved)
    return m, v


def _roll_gain(mem: Memory, g: GameView, unit: Unit, sid: str, f: Facts) -> float:
    """The Soldiers a roll in ``sid`` brings (the dice rolled and Locked there, less its Skulls)."""
    rolled = mem.static(g, unit, "dice-rolled", sid)
    locks = mem.static(g, unit, "locked-dice", sid)
    gr = ROLL_GAIN * rolled / 6 * (1.0 + 0.03 * (2 - locks))
    gr -= 1.2 * f.skulls
    return gr


def _rolls_allowed(mem: Memory, g: GameView, unit: Unit, sid: str, f: Facts) -> int:
    """How many turns the plan may spend in ``sid``."""
    stay = mem.static(g, unit, "stay-turns", sid)
    if g.sectors[sid].black or f.no_stay:
        return 1
    if stay >= 100:
        return UNLIMITED_STAY_CAP
    return max(1, stay)


def _enter_gain(mem: Memory, g: GameView, unit: Unit, sid: str, f: Facts) -> float:
    """What entering ``sid`` gives (Soldiers, the free cards, an Award, the cards that wait there)."""
    e_gain = f.enter_soldiers
    first = not g.state.sectors[sid].entered
    for card in f.free_cards:
        if card in unit.specialists or card in unit.dead:
            continue
        kind = g.kind_of.get(card)
        if kind == "specialist":
            if card in g.state.pool or card in g.state.hands.get(unit.id, []) or first:
                e_gain += spec_value(g, unit, card)
        elif first and (card in g.state.placed or card in g.state.pool):
            e_gain += 0.5 * item_value(mem, g, unit, card)
    if f.award and first and g.state.award_deck:
        e_gain += 3.0
    for card, where in g.state.placed.items():
        if where == sid and first and card not in f.free_cards:
            e_gain += 0.5 * item_value(mem, g, unit, card)
    return e_gain


def _edge(mem: Memory, g: GameView, unit: Unit, sid: str, f: Facts, t: _Terms, targets: frozenset[str],
          near: bool, move: tuple[str, str, int, bool, bool],
          now: EnterNow | None) -> Edge | None:
    """The move from ``sid`` along one of the map's lines, priced; None where the plan may not go."""
    to, kind_, line_cost, mines, barrier = move
    if barrier and not t.barriers_ok:
        return None
    tf = facts(g, to)
    if tf.bunker and to not in targets:
        return None
    if tf.no_entry_after and all(v in unit.visited or v == sid for v in tf.no_entry_after):
        return None  # by the time the Unit gets there, it will have been where this forbids
    enterable = now is None or mem.may_enter(g, unit, to, now)
    if not tf.bunker and not enterable:
        return None
    closed = tf.bunker and not enterable
    if closed and not (tf.enter_unless is not None and tf.enter_unless not in g.state.conquered):
        return None
    printed_cost = tf.printed_cost
    advance = kind_ == "advance" or printed_cost is not None
    cost = printed_cost if printed_cost is not None else line_cost
    if advance:
        # This turn's grants (a Whistle) do not last: the plan prices later Advances without them.
        cost = max(0, cost - t.platoon) if t.cost_granted else mem.static(g, unit, "advance-cost", None, cost)
    else:
        cost = 0
    e_loss = 0.0
    e_var = 0.0
    if mines and "landmines" not in g.ignore and not t.mines_free:
        e_loss += 3.5 - (0.6 if t.casualties_saved else 0.0)
        e_var += D6_VAR
    avail = 1.0
    for req in g._requirements(to):
        if req[0] == "battle-cry":
            avail = 0.9 if t.has_cry_item else P_BATTLE_CRY
            cost = 0
        elif req[0] == "sacrifice":
            need = req[1] if isinstance(req[1], int) else 1
            # A Specialist still to come (free in a Sector, or recruited) is priced, not ruled out.
            e_loss += need * (1.0 + t.cheapest) + 2.5 * max(0, need - t.n_specs)
        elif req[0] != "climb" and req[0] not in g.held_cards(unit):
            card = str(req[0])
            obtainable = card not in unit.dead and (card in g.state.hands.get(unit.id, []) or card in g.state.pool)
            if not obtainable:
                return None
            e_loss += 3.0
    if f.climb and advance:
        avail *= t.p_climb
    if closed and tf.enter_unless is not None:
        # A Bunker that opens when another Bunker falls: it may open any turn, sooner when a Unit
        # already waits beside that Bunker.
        avail *= 0.3 if near else 0.1
    bonus = t.path + (t.beach if advance else 0.0)
    return Edge(to, cost, e_loss, e_var, bonus, avail)
