"""When a Unit plays a use (a card's, a Sector's, a rule's): each card by the shape of its use, read from its effect
(cardtext.use_shape), any other card by generic_use, and which die a dice-changing card changes."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Final

from ddaydice.interpreter.core.api import GameView
from ddaydice.interpreter.core.decisions import Decision
from ddaydice.interpreter.policies.heuristic.cardtext import (
    UseShape,
    against_foe,
    award_price,
    dice_colour,
    generic_use,
    replacement_cost,
    use_shape,
)
from ddaydice.interpreter.policies.heuristic.dice import best_add, cry_gain, pending_courage, tally_values
from ddaydice.interpreter.policies.heuristic.facts import facts
from ddaydice.interpreter.policies.heuristic.foe import foe, standing
from ddaydice.interpreter.policies.heuristic.memory import Memory
from ddaydice.interpreter.policies.heuristic.model import DICE_CHANGE_MIN, FACES, MGF_MEAN
from ddaydice.interpreter.policies.heuristic.moves import choose_move
from ddaydice.interpreter.policies.heuristic.planner import shift, survival
from ddaydice.interpreter.policies.heuristic.values import plain_worth, star_value, tool_value
from ddaydice.interpreter.policies.heuristic.views import here_loss, plan_value, view

if TYPE_CHECKING:
    from ddaydice.interpreter.core.state import Unit


def use(mem: Memory, game: GameView, unit: Unit, d: Decision) -> int:
    """The first use offered that the Unit wants now (none: the first option)."""
    point = game.use_at if game.use_at is not None else _point_now(game, unit)
    for i, key in enumerate(d.keys):
        if key is None:
            continue
        owner = key[0]
        if wants_use(mem, game, unit, owner, point):
            return i
    return 0


def _point_now(game: GameView, unit: Unit) -> str:
    """The use point of the game's phase (in Combat: before or after the MGF roll)."""
    phase = game.state.phase
    if phase == "combat":
        sec = game.state.sectors[unit.sector]
        return "after-mgf" if sec.mgf_turn == game.state.turn else "before-mgf"
    return _PHASE_POINT.get(phase, phase)


_PHASE_POINT: Final[dict[str, str]] = {"roll": "after-final-tally", "purchase": "purchase", "movement": "movement"}


def wants_use(mem: Memory, game: GameView, unit: Unit, owner: str, point: str) -> bool:
    """Whether the Unit plays the use of ``owner`` (a card, a Sector, a rule) at use point ``point``."""
    s = game.state
    if point == "after-first-roll":  # offered only to re-roll a bad first roll (an option's Soldier Mulligan)
        return True
    if point.startswith("when-"):  # an event about to happen: replace it ('use when casualties: instead, ...')?
        return _wants_replacement(mem, game, unit, owner, point[len("when-"):])
    is_card = owner in game.content.cards
    if s.sides and is_card and any(against_foe(game, owner)) and foe(game) is not None:
        return True  # what hurts the German is used as soon as it may be: his losses shrink him for the Assault
    if is_card:
        shape = use_shape(game, owner)
        if shape.kind:
            return _shaped(mem, game, unit, owner, shape, point)
    if point == "movement":
        return _wants_movement_use(mem, game, unit, owner)
    price = award_price(game, owner)
    if price is not None and not is_card:  # an Award bought with Courage (the rules' purchase)
        c = unit.courage
        drop = plan_value(mem, game, unit, c, at_roll=False) - plan_value(mem, game, unit, c - price, at_roll=False)
        return drop < 3.0
    if is_card:
        return _generic_wants(mem, game, unit, owner, point)
    return False


def _shaped(mem: Memory, game: GameView, unit: Unit, owner: str, shape: UseShape, point: str) -> bool:
    """A card's use told apart by its shape (cardtext.UseShape): each played at the moment it pays."""
    kind = shape.kind
    if kind == "gain":
        return point == "after-final-tally" if shape.tally else True
    if kind == "recruit-for-soldiers":
        return point == "after-final-tally" and unit.recruited == 0 and unit.soldiers > shape.amount + 1
    if kind in _DICE:
        return _tally_use(mem, game, unit, owner, shape, point)
    if kind in _COMBAT:
        return _combat_use(mem, game, unit, shape, point)
    if point != "movement":
        return False  # the rest changes a move: a Barrier, a Battle Cry, a stay, the cost of an Advance
    return _movement_use(mem, game, unit, shape)


_DICE: Final = frozenset({"reroll", "recolour", "reface", "skull", "tools"})
_COMBAT: Final = frozenset({"breaker", "mgf-before", "mgf-adjacent", "mgf-for-good", "mgf-ignored"})


def _tally_use(mem: Memory, game: GameView, unit: Unit, owner: str, shape: UseShape, point: str) -> bool:
    """A card that changes the Final Tally's dice, played when the change is worth more than the card kept (a use
    once per turn costs nothing kept): a Skull when it completes this turn's Climb, a die turned, recoloured or
    re-rolled for the best gain (remembered as the intent, for the questions the use asks), Tools when they pile
    up; one that may change the MGF dice too, on a high MGF die that would hurt."""
    s = game.state
    if point == "after-mgf" and shape.any_roll:
        rolls = s.sectors[unit.sector].mgf_roll or []
        if rolls and s.sectors[unit.sector].mgf_turn == s.turn and max(rolls) >= 4 and (
                game.sectors[unit.sector].bunker or _lethal(mem, game, unit)):
            mem.intent["reface"] = (f"MGF die {rolls.index(max(rolls)) + 1}", None)
            return True
        return False
    if point != "after-final-tally":
        return False
    gives_skull = shape.kind == "skull" or (shape.kind == "reface" and not shape.skulls)
    if gives_skull and facts(game, unit.sector).climb:
        return _climb_help(mem, game, unit, shape)
    if shape.kind == "skull":
        return False
    if shape.kind == "tools":
        tools = sum(1 for dd in unit.tally if dd.face == "tool" and not dd.cancelled)
        return tool_value(game) > 0 and tools >= 2
    if shape.kind == "reface" and shape.skulls:
        return _plan_ammo(mem, game, unit)
    # A Specialist's or a Vehicle's use comes back; any other card is spent by its use.
    once = game.kind_of.get(owner) not in {"specialist", "vehicle"}
    kept = plain_worth(game, unit, owner) if once else 0.0
    least = max(DICE_CHANGE_MIN[shape.kind], kept)
    if shape.kind == "reface":
        return _plan_reface(mem, game, unit, shape.colour, least)
    if shape.kind == "recolour":
        return _plan_recolour(mem, game, unit, least)
    return _plan_reroll(mem, game, unit, least)


def _combat_use(mem: Memory, game: GameView, unit: Unit, shape: UseShape, point: str) -> bool:
    """A card played in Combat, before or after the MGF roll: a Sector's DEF lowered (in a Bunker entered this turn,
    when the Combat would wipe the Unit out, or a high DEF set to 0), its MGF dice lowered before the roll (when the
    Combat threatens), a Specialist given up for the Sector's MGF (when it would be lethal), the MGF casualties
    ignored after a high roll; another Sector's MGF: not played."""
    s = game.state
    sec = game.sectors[unit.sector]
    in_bunker_now = sec.bunker and unit.entered_turn == s.turn
    kind = shape.kind
    if kind == "breaker":
        if point not in {"before-mgf", "after-mgf"} or game.value("def", unit) <= 0:
            return False
        if (shape.bunker > 0 and not sec.bunker) or (shape.bunker < 0 and sec.bunker):
            return False
        if in_bunker_now and shape.bunker >= 0:
            return True
        if point == "after-mgf" and _lethal(mem, game, unit):
            return True
        return shape.zero and point == "after-mgf" and game.value("def", unit) >= 8
    if kind == "mgf-before":
        if point != "before-mgf" or game.value("mgf-dice", unit) <= 0:
            return False
        m, _ = here_loss(mem, game, unit)
        return in_bunker_now or m >= mem.count(game, unit) - 2
    if kind == "mgf-ignored":
        if point != "after-mgf":
            return False
        rolls = s.sectors[unit.sector].mgf_roll or []
        if not rolls or s.sectors[unit.sector].mgf_turn != s.turn:
            return False
        return _total(rolls) >= 5 or _lethal(mem, game, unit) or (in_bunker_now and _total(rolls) >= 3)
    if kind == "mgf-for-good":
        if point != "before-mgf" or sec.bunker or game.value("mgf-dice", unit) <= 0:
            return False
        return _lethal(mem, game, unit, expected=True)
    return False


def _movement_use(mem: Memory, game: GameView, unit: Unit, shape: UseShape) -> bool:
    """A card played in Phase 4, when it makes the best move better: a Barrier crossed, a Battle Cry, a stay bought
    with a Specialist, a costly Advance made cheaper."""
    moves = game.legal_moves(unit)
    if not moves:
        best_i, best_z = -1, -math.inf
    else:
        best_i, best_z = choose_move(mem, game, unit, moves)
    best = moves[best_i] if best_i >= 0 else None
    kind = shape.kind
    if kind == "cost":
        # Kept for an Advance that costs at least what it saves (2 Courage for a free Advance).
        least = 2 if shape.zero else min(2, max(1, int(shape.amount)))
        return best is not None and best.kind == "advance" and best.cost >= least and not best.battle_cry
    if kind == "cry":
        return cry_gain(mem, game, unit, unit.courage) > 3.0
    if kind == "barriers":
        tv = view(mem, game, unit)
        barrier = [to for to, _k, _c, _m, bar in game.moves[unit.sector] if bar and to not in unit.visited]
        if not barrier:
            return False
        edges = [e for e in tv.planner.edges_of(unit.sector) if e.to in barrier and e.cost <= unit.courage]
        soldiers = standing(mem, game, unit)
        return any(survival(soldiers, tv.planner.take(e, tv.visited, unit.courage)) > best_z + 0.01
                   for e in edges)
    if kind == "stay":
        if any(m.kind == "stay" for m in moves):
            return False
        tv = view(mem, game, unit)
        lm, lv = tv.planner.loss_of(unit.sector)
        o = shift(tv.planner.roll_at(unit.sector, tv.visited, unit.courage, 2), -lm, lv)
        return survival(standing(mem, game, unit) - 1, o) > best_z + 0.02
    return False


def _generic_wants(mem: Memory, game: GameView, unit: Unit, owner: str, point: str) -> bool:
    """A card whose use has none of the shapes above, played by what its effect does (generic_use)."""
    kind = generic_use(game, owner)
    if kind == "gain":
        return True
    if kind in _DICE:
        return _tally_use(mem, game, unit, owner, UseShape(kind, colour=dice_colour(game, owner)), point)
    if kind == "defence":
        if point == "after-final-tally":
            return deadly_turn(mem, game, unit)
        if point in {"before-mgf", "after-mgf", "combat"}:
            sec = game.sectors[unit.sector]
            if sec.bunker and unit.entered_turn == game.state.turn:
                return True
            m, _ = here_loss(mem, game, unit)
            return m >= mem.count(game, unit) - 2
        return False
    if kind in {"cost", "mines"} and point == "movement":
        moves = game.legal_moves(unit)
        if not moves:
            return False
        best = moves[choose_move(mem, game, unit, moves)[0]]
        if kind == "cost":
            return best.kind == "advance" and best.cost >= 1 and not best.battle_cry
        return best.landmines and not game.flag("ignore-landmines", unit)
    return False


def _wants_movement_use(mem: Memory, game: GameView, unit: Unit, owner: str) -> bool:
    """A use in Phase 4 that is no card's shaped use: a Sector's (the retreat from a failed Climb), or a card's read
    by generic_use."""
    if owner.startswith(f"{game.map.id}/"):
        moves = game.legal_moves(unit)
        best_z = choose_move(mem, game, unit, moves)[1] if moves else -math.inf
        f = facts(game, unit.sector)
        if f.retreat is None or f.retreat in unit.visited:
            return False
        tv = view(mem, game, unit)
        if not any(e.retreat for e in tv.planner.edges_of(unit.sector)):
            return False
        o = tv.planner.at(f.retreat, tv.visited | tv.planner.mask([f.retreat]), unit.courage, 0)
        return survival(standing(mem, game, unit), o) > best_z
    if owner in game.content.cards:
        return _generic_wants(mem, game, unit, owner, "movement")
    return False


def _climb_help(mem: Memory, game: GameView, unit: Unit, shape: UseShape) -> bool:
    """Use a Skull-giving card (or a die-changing one) when it and the Unit's other such Items complete this turn's
    Climb."""
    need = facts(game, unit.sector).climb
    skulls = sum(1 for dd in unit.tally if dd.face == "skull")
    others = [dd for dd in unit.tally if dd.face != "skull"]

    def helps(s: UseShape) -> bool:
        if s.kind == "skull":
            return True
        if s.kind != "reface" or s.skulls:
            return False
        return any(s.colour is None or (dd.colour == s.colour and dd.real) for dd in others)

    helpers = sum(1 for item in unit.items if helps(use_shape(game, item)))
    if not skulls < need <= skulls + helpers:
        return False
    if shape.kind == "reface":
        cands = [dd for dd in others if shape.colour is None or (dd.colour == shape.colour and dd.real)]
        if not cands:
            return False
        die = cands[0]
        mem.intent["reface"] = (f"{die.colour} {die.face}", "skull")
    return True


def _lethal(mem: Memory, game: GameView, unit: Unit, *, expected: bool = False) -> bool:
    """Whether this Combat wipes the Unit out (``expected``: with the MGF dice's mean, before they are rolled)."""
    s = game.state
    d = game.value("def", unit)
    if expected:
        loss = d + MGF_MEAN * game.value("mgf-dice", unit)
    else:
        rolls = s.sectors[unit.sector].mgf_roll or []
        mgf = _total(rolls) if s.sectors[unit.sector].mgf_turn == s.turn else 0
        if game.flag("ignore-mgf-casualties", unit):
            mgf = 0
        loss = float(d + mgf)
    return loss >= mem.count(game, unit)


def deadly_turn(mem: Memory, game: GameView, unit: Unit) -> bool:
    """Whether this turn is worth a defence: the Unit can pay to advance into a Bunker it aims at, or the Combat here
    would wipe it out."""
    tv = view(mem, game, unit)
    courage = pending_courage(game, unit)
    for to, _kind, _cost, _m, _b in game.moves[unit.sector]:
        if to in tv.targets and to not in unit.visited:
            cost = game.sectors[to].cost or 0
            if game.value("advance-cost", unit, base=cost) <= courage:
                return True
    m, _ = here_loss(mem, game, unit)
    return m >= mem.count(game, unit)


def _total(rolls: list[int]) -> int:
    """The sum of the MGF dice rolled (a loop: compiled, sum() is a generic call)."""
    n = 0
    for r in rolls:
        n += r
    return n


def _plan_reroll(mem: Memory, game: GameView, unit: Unit, threshold: float = 0.3) -> bool:
    """A die worth re-rolling by a card by more than ``threshold`` (remembered as the intent); whether there is one."""
    ctx, live, vals = tally_values(mem, game, unit)
    best, best_gain = None, threshold
    for n in range(len(live)):  # (live and vals pair up; compiled, zip(strict=True) is a generic call)
        dd = live[n]
        v = vals[n]
        if dd.locked or not dd.real:
            continue
        if dd.face == "skull" and not game.flag("reroll-skull", unit):
            continue
        others = [(o.face, o.colour) for o in live if o is not dd]
        gain = ctx.reroll_value(ctx.values(dd.colour, others), 0) - v
        if gain > best_gain:
            best, best_gain = dd.index, gain
    if best is None:
        return False
    mem.intent["reroll"] = best
    return True


def _plan_recolour(mem: Memory, game: GameView, unit: Unit, threshold: float = 1.5) -> bool:
    """A die worth changing to another colour by more than ``threshold`` (remembered as the intent); whether there
    is one."""
    ctx, live, vals = tally_values(mem, game, unit)
    best, best_gain = None, threshold
    for n in range(len(live)):
        dd = live[n]
        v = vals[n]
        if not dd.real:
            continue
        others = [(o.face, o.colour) for o in live if o is not dd]
        for colour in game.content.dice.colours:
            if colour == dd.colour:
                continue
            gain = ctx.values(colour, others)[dd.face] - v
            # Moving this die may break a triple it was part of: values() already counts that.
            if gain > best_gain:
                best, best_gain = (dd.index, colour), gain
    if best is None:
        return False
    mem.intent["recolour"] = best
    return True


def _plan_reface(mem: Memory, game: GameView, unit: Unit, colour: str | None, threshold: float) -> bool:
    """A die (of ``colour``) worth turning to another face by more than ``threshold`` (remembered as the intent)."""
    ctx, live, vals = tally_values(mem, game, unit)
    best, best_gain = None, threshold
    for n in range(len(live)):
        dd = live[n]
        v = vals[n]
        if colour is not None and dd.colour != colour:
            continue
        if not dd.real and colour is not None:
            continue
        others = [(o.face, o.colour) for o in live if o is not dd]
        fv = ctx.values(dd.colour, others)
        face = FACES[0]
        for f in FACES:  # (the first of the best, as max() with a key: compiled, a generic call)
            if fv[f] > fv[face]:
                face = f
        if fv[face] - v > best_gain:
            best, best_gain = (f"{dd.colour} {dd.face}", face), fv[face] - v
    if best is None:
        return False
    mem.intent["reface"] = best
    return True


def _plan_ammo(mem: Memory, game: GameView, unit: Unit) -> bool:
    """Whether to turn a Skull into the best result (the intent remembers the face)."""
    skulls = [dd for dd in unit.tally if dd.face == "skull" and not dd.cancelled]
    if len(skulls) < 1 or facts(game, unit.sector).climb:
        return False
    face = best_add(mem, game, unit, None)[0]
    mem.intent["reface"] = (None, face)
    return len(skulls) >= 2 or face == "two-soldiers"


def _wants_replacement(mem: Memory, game: GameView, unit: Unit, owner: str, event: str) -> bool:
    """Whether the Unit replaces the casualties about to fall on it with what the use pays instead: always when they
    would wipe it out, else when the price is worth fewer Soldiers than it is spared (Courage its route ahead does
    not need costs nothing; Stars at their worth). Other pending events are never replaced."""
    cost = replacement_cost(game, owner, event)
    pending = game.pending_casualties
    if cost is None or event != "casualties" or pending <= 0:
        return False
    if pending >= mem.count(game, unit):
        return True  # the Unit would be wiped out
    paid = cost.get("soldiers", 0.0)
    courage = cost.get("courage", 0.0)
    if courage:
        tv = view(mem, game, unit)
        spare = unit.courage - tv.planner.need[tv.planner.index[unit.sector]]
        if courage > spare:
            return False  # the route ahead needs that Courage
    paid += cost.get("stars", 0.0) * star_value(mem, game, unit)
    if set(cost) - {"soldiers", "courage", "stars"}:
        return False  # a price it does not know how to weigh
    return paid < pending
