"""What Specialists, Items, Stars, Tools and cards are worth to a Unit, in Soldiers, for the map ahead."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ddaydice.dsl import ast as dsl_ast
from ddaydice.interpreter.core.api import GameView
from ddaydice.interpreter.policies.heuristic.cardtext import against_foe, statement_kind
from ddaydice.interpreter.policies.heuristic.effectworth import Ahead, profile, profiles
from ddaydice.interpreter.policies.heuristic.effectworth import worth as effect_worth
from ddaydice.interpreter.policies.heuristic.facts import facts, reachable
from ddaydice.interpreter.policies.heuristic.foe import foe
from ddaydice.interpreter.policies.heuristic.memory import CostNow, Memory
from ddaydice.interpreter.policies.heuristic.model import ITEM_POINT_VALUE

if TYPE_CHECKING:
    from ddaydice.interpreter.core.state import Unit


def remaining(game: GameView, unit: Unit) -> tuple[int, int]:
    """(Advances left, turns left), roughly, from the row of the Unit to the Bunker's."""
    top = _map_facts(game)[0]
    here = game.sectors[unit.sector].row
    adv = max(1, top - here)
    return adv, 2 * adv + 1


def _map_facts(game: GameView) -> tuple[int, bool]:
    """The map's top row (the Bunkers', 6 without one) and whether it has a Bunker, read once per map."""
    sectors = game.sectors
    hit = _MAP_FACTS.get(id(sectors))
    if hit is None or hit[0] is not sectors:  # (the identity is checked: ids are reused)
        if len(_MAP_FACTS) > 64:
            _MAP_FACTS.clear()
        rows = [sec.row for sec in sectors.values() if sec.bunker]
        hit = _MAP_FACTS[id(sectors)] = (sectors, (max(rows) if rows else 6, bool(rows)))
    return hit[1]


_MAP_FACTS: Final[dict[int, tuple[Any, tuple[int, bool]]]] = {}


def _ahead_of(game: GameView, unit: Unit, adv: int, turns: int,
              seen: tuple[bool, bool, bool, bool] = (False, False, False, False)) -> Ahead:
    """What a card's worth depends on, for this Unit now (``seen``: a Climb, a Battle-Cry-only Sector, a Barrier,
    Landmines ahead)."""
    s = game.state
    key = (adv, turns, sum(1 for u in s.units if u.status == "active"), len(s.units) > 1, _map_facts(game)[1],
           "skulls" not in game.ignore, *seen)
    found = _AHEADS.get(key)
    if found is None:
        if len(_AHEADS) > 4096:
            _AHEADS.clear()
        found = _AHEADS[key] = Ahead(*key)
    return found


_AHEADS: Final[dict[tuple[Any, ...], Ahead]] = {}


def spec_value(game: GameView, unit: Unit, spec: str) -> float:
    """A Specialist's worth to this Unit, in Soldiers, for the rest of the map: his body (what he counts for as
    Soldiers) and what his effects are worth over the Advances and turns left (effectworth.py); against the German,
    what he takes from him (a Unit that rushes him has about one turn per Advance left). SpecWorth prices many."""
    return SpecWorth(game, unit).of(spec)


#: The worth of a card whose effects say nothing the heuristic reads.
_UNREAD: Final = 0.5
_NOTHING_AHEAD: Final = (False, False, False, False)


def ahead(mem: Memory, game: GameView, unit: Unit) -> tuple[bool, bool, bool, bool]:
    """What lies ahead of the Unit: (a Climb, a Battle-Cry-only Sector, a Barrier, Landmines)."""
    key = (id(game.state), unit.id, unit.sector, len(unit.visited))
    found = mem.ahead.get(key)
    if found is None:
        reach = reachable(game, unit)
        climb = any(facts(game, s).climb for s in reach)
        cry = any(facts(game, s).battle_cry_only for s in reach)
        barrier = any(bar for s in reach for *_r, bar in game.moves[s])
        mines = any(m for s in reach for _t, _k, _c, m, _b in game.moves[s]) and "landmines" not in game.ignore
        found = mem.ahead[key] = (climb, cry, barrier, mines)
        if len(mem.ahead) > 256:
            mem.ahead.clear()
    return found


def _ahead_plain(game: GameView, unit: Unit) -> tuple[bool, bool, bool, bool]:
    """``ahead`` without a policy's memory (its own small cache)."""
    key = (id(game.state), unit.id, unit.sector, len(unit.visited))
    hit = _AHEAD.get(key)
    if hit is not None and hit[0] is game.state:  # (the state's identity is checked: ids are reused)
        return hit[1]
    if len(_AHEAD) > 256:
        _AHEAD.clear()
    found = ahead(Memory(), game, unit)
    _AHEAD[key] = (game.state, found)
    return found


_AHEAD: Final[dict[tuple[Any, ...], tuple[Any, tuple[bool, bool, bool, bool]]]] = {}


def item_value(mem: Memory, game: GameView, unit: Unit, item: str) -> float:
    """An Item's (or Vehicle's) worth to this Unit, in Soldiers, for what lies ahead of it: what its effects are
    worth (effectworth.py)."""
    adv, turns = remaining(game, unit)
    seen = ahead(mem, game, unit)
    p = profile(game.content, item)
    v = effect_worth(p, _ahead_of(game, unit, adv, turns, seen)) if p.terms else _UNREAD
    if game.state.sides and foe(game) is not None:
        once, each = against_foe(game, item)
        v += once + 0.6 * each * adv
    if seen[0] and p.skull_giver:
        # Each more Skull-giver helps less: the first turns a 21% Climb into a 47% one.
        held = sum(1 for i in unit.items if profile(game.content, i).skull_giver) - (1 if item in unit.items else 0)
        v /= 1.0 + held
    return v


def plain_worth(game: GameView, unit: Unit, card: str) -> float:
    """What a card's effects are worth to the Unit with nothing particular ahead (no Climb, no Battle Cry needed):
    what a card spent on an ordinary turn gives up."""
    adv, turns = remaining(game, unit)
    p = profile(game.content, card)
    return effect_worth(p, _ahead_of(game, unit, adv, turns)) if p.terms else _UNREAD


def star_value(mem: Memory, game: GameView, unit: Unit) -> float:
    """What one more Star is worth: the best Specialist per Star within reach."""
    if not game.counts_face("star"):
        return 0.0
    s = game.state
    hand = s.hands.get(unit.id, [])
    pool = [p for p in s.pool if game.kind_of.get(p) == "specialist"]
    within = hand + pool
    now = mem.cost_now(game, unit)
    # Remembered while what it reads stays the same: the cards within reach, the Unit's, its place (the Advances
    # left, what lies ahead), the Units still in play. Not against the German (his state counts), nor when a card
    # within reach says its own price (which may depend on anything).
    key: tuple[Any, ...] | None = None
    if not s.sides and not any(c in game.own_prices for c in within):
        key = (unit.id, unit.sector, len(unit.visited), tuple(hand), tuple(pool), tuple(unit.dead), now,
               sum(1 for u in s.units if u.status == "active"))
        found = mem.stars.get(key)
        if found is not None:
            return found
    value = _star_value(mem, game, unit, within, now)
    if key is not None:
        if len(mem.stars) > 64:
            mem.stars.clear()
        mem.stars[key] = value
    return value


def _star_value(mem: Memory, game: GameView, unit: Unit, within: list[str],
                now: CostNow) -> float:
    """star_value's answer, worked out."""
    best = 0.0
    worth = SpecWorth(game, unit)
    for spec in within:
        if spec in unit.specialists or spec in unit.dead:
            continue
        cost = mem.cost(game, unit, spec, now)
        if cost <= 0:
            continue
        best = max(best, worth.of(spec) / cost)
    return 0.7 * best


class SpecWorth:
    """spec_value of one Unit's Specialists as things stand, what they share (the Advances and turns left, what lies
    ahead, the other side) worked out once for all the cards priced."""

    def __init__(self, game: GameView, unit: Unit) -> None:
        self.game = game
        self.unit = unit
        self.adv, self.turns = remaining(game, unit)
        self.profiles = profiles(game.content)
        self.against = bool(game.state.sides) and foe(game) is not None
        self.plain: Ahead | None = None
        self.nothing: Ahead | None = None

    def of(self, spec: str) -> float:
        """spec_value(game, unit, spec): the same worth, by the same arithmetic."""
        p = self.profiles[spec]
        if spec in self.unit.specialists:
            body = float(self.game.value("soldier-value", self.unit, card=spec))
        else:
            body = p.body if p.body is not None else 1.0
        if p.terms:
            if p.needs_ahead:
                if self.plain is None:
                    self.plain = _ahead_of(self.game, self.unit, self.adv, self.turns,
                                           _ahead_plain(self.game, self.unit))
                ahead_now = self.plain
            else:
                if self.nothing is None:
                    self.nothing = _ahead_of(self.game, self.unit, self.adv, self.turns, _NOTHING_AHEAD)
                ahead_now = self.nothing
            extra = effect_worth(p, ahead_now)
        else:
            extra = _UNREAD
        if self.against:
            once, each = against_foe(self.game, spec)
            extra += once + 0.6 * each * self.adv  # a Unit that rushes him has about one turn per Advance left
        return body + extra


def tool_value(game: GameView) -> float:
    """What one more Item Point is worth (nothing when no Item can be found)."""
    if not game.counts_face("tool"):
        return 0.0
    if not any(game.kind_of.get(p) == "item" for p in game.state.pool):
        return 0.0
    return ITEM_POINT_VALUE


def draw_value(mem: Memory, game: GameView, unit: Unit, deck: str) -> float:
    """What a card drawn at random from ``deck`` (a kind's id, as 'draw' names it: 'badge') is worth, in Soldiers:
    the mean over the kind's cards this game can hold of what each one's use does (card_worth)."""
    cards = [cid for cid, k in game.content.card_kinds.items() if k == deck and not game._unavailable(cid)]
    return sum(card_worth(mem, game, unit, cid) for cid in cards) / len(cards) if cards else 0.0


def card_worth(mem: Memory, game: GameView, unit: Unit, card: str) -> float:
    """What playing a card is worth, read from its use effect: resources gained at their value, a defence or a
    cheaper move a little (it waits for the turn that needs it), anything else less."""
    source = game.effect_of.get(card)
    worth = 0.0
    for clause in source.tree.clauses if source is not None else ():
        body = clause.body
        if not isinstance(body, dsl_ast.Use):
            continue
        for action in body.actions:
            worth += max((sum(_statement_worth(mem, game, unit, st, option.recipient is not None)
                              for st in (option.statement, *(o.statement for o in option.also)))
                          for option in action.options), default=0.0)
    return worth


def _statement_worth(mem: Memory, game: GameView, unit: Unit, st: dsl_ast.Statement, to_another: bool) -> float:
    """What one statement of a card's use is worth to the Unit."""
    kind = statement_kind(st, to_another)
    if st.verb.name == "gain":
        n = next((a.value for a in st.args if isinstance(a, dsl_ast.Number)), 1)
        what = next((a.name for a in st.args if isinstance(a, dsl_ast.Word)), "")
        per = {"soldiers": 1.0, "courage": 0.8, "stars": star_value(mem, game, unit), "item-points": 0.25}
        return n * per.get(what, 0.5) * (0.8 if to_another else 1.0)
    return {"defence": 2.0, "cost": 1.0, "mines": 1.0, "gain": 1.5, "self-cost": -1.0}.get(kind, 0.5)
