"""Which dice to Lock, re-roll and cancel, and which result to add: every face valued in context."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from ddaydice.interpreter.core.api import GameView
from ddaydice.interpreter.core.decisions import Decision
from ddaydice.interpreter.policies.heuristic.dicevalue import DiceContext
from ddaydice.interpreter.policies.heuristic.effectworth import Traits, profile
from ddaydice.interpreter.policies.heuristic.facts import facts
from ddaydice.interpreter.policies.heuristic.memory import Memory
from ddaydice.interpreter.policies.heuristic.model import DEATH, FACES
from ddaydice.interpreter.policies.heuristic.planner import Edge, TurnView
from ddaydice.interpreter.policies.heuristic.values import star_value, tool_value
from ddaydice.interpreter.policies.heuristic.views import courage_curve, rolls_here, sure_move, view

if TYPE_CHECKING:
    from ddaydice.interpreter.core.state import Die, Unit


def dice_context(mem: Memory, game: GameView, unit: Unit, *, rolling: bool = False) -> DiceContext:
    """How much each result is worth now; ``rolling``: the Sector's and cards' bonus results are still to
    come (during the rolls), rather than already in the Final Tally."""
    tv = view(mem, game, unit)
    key = (mem.view_key, game.state.turn, unit.marker, unit.courage, unit.stars, unit.item_points,
           len(game.state.pool), game.state.phase, rolling)
    found = mem.ctx.get(key)
    if found is not None:
        return found
    if len(mem.ctx) > 64:
        mem.ctx.clear()
    ctx = mem.ctx[key] = _dice_context(mem, game, unit, tv, rolling)
    return ctx


def _dice_context(mem: Memory, game: GameView, unit: Unit, tv: TurnView, rolling: bool) -> DiceContext:
    """Work out dice_context's values (see there)."""
    here = facts(game, unit.sector)
    # What the Unit's Specialists and Vehicle add to each Final Tally, read from their effects.
    # (each Specialist once, in order, then the Vehicle; a loop: compiled, dict.fromkeys is a generic call)
    held: list[Traits] = []
    seen: set[str] = set()
    for c in unit.specialists:
        if c not in seen:
            seen.add(c)
            held.append(profile(game.content, c).traits)
    if unit.vehicle:
        held.append(profile(game.content, unit.vehicle).traits)
    bonus_tools = here.tools
    base_courage = unit.courage + here.courage - here.courage_penalty
    for tr in held:
        bonus_tools += tr.tally_tools
        base_courage += tr.tally_courage
    if not rolling:
        bonus_tools = 0
        base_courage = unit.courage
    curve = courage_curve(mem, game, unit, max(0, base_courage), 8)
    climb = here.climb if here.climb and any(
        e.avail < 1 for e in tv.planner.edges_of(unit.sector)) else 0
    cry = 3.0
    aim = ""
    if not here.no_battle_cry and game.flag("battle-cry-here", unit):
        cry = max(cry, cry_gain(mem, game, unit, base_courage))
        # Where the plan waits for a Battle Cry (a Bunker entered only with one), the dice aim at it.
        if any(e.avail < 1 and not e.retreat and facts(game, e.to).battle_cry_only and e.to not in unit.visited
               for e in tv.planner.edges_of(unit.sector)):
            cry = max(cry, 12.0)
            aim = "courage"
    solo = len(game.state.units) == 1
    lm, _ = tv.planner.abs_loss_of(unit.sector)
    if rolls_here(mem, game, unit, at_roll=True) >= tv.planner.max_rolls[tv.planner.index[unit.sector]]:
        nxt = [tv.planner.abs_loss_of(e.to)[0] + e.loss for e in tv.planner.edges_of(unit.sector)
               if e.to not in unit.visited and not e.retreat]
        if nxt:  # (the first of the least, as min(): compiled, min() with a default is a generic call)
            lm = nxt[0]
            for x in nxt:
                if x < lm:  # noqa: PLR1730
                    lm = x
    return DiceContext(
        soldier=float(mem.count(game, unit)),
        danger=lm,
        curve=curve,
        star=star_value(mem, game, unit),
        tool=tool_value(game),
        bonus_tools=bonus_tools,
        skull_free=game.value("skulls-ignored", unit) + (0 if game.skulls_cancel(unit) else 99),
        climb=climb,
        rwb={"two-soldiers": 6.0, "one-soldier": 8.0 if solo else 6.5, "courage": cry,
             "star": 2.5, "tool": 2.0, "skull": 14 * tool_value(game) + 1.0},
        rwb_on="rwb" not in game.ignore,
        counts={f: game.counts_face(f) for f in FACES},
        per_locked_skull=any(tr.per_locked_skull for tr in held),
        aim=aim,
    )


def cry_gain(mem: Memory, game: GameView, unit: Unit, courage: int) -> float:
    """What a Battle Cry this turn would be worth over the best plain move (Soldiers)."""
    tv = view(mem, game, unit)
    planner = tv.planner
    k = rolls_here(mem, game, unit, at_roll=True)
    plain = planner.at(unit.sector, tv.visited, courage, k)[0]
    if k >= planner.max_rolls[planner.index[unit.sector]]:
        # Past the horizon: the Battle Cry competes with moving now, not with waiting for ever.
        sure = sure_move(mem, game, unit, courage)
        if sure > DEATH / 2:
            plain = sure
    best = plain
    for e in planner.edges_of(unit.sector):
        if e.to in unit.visited or e.retreat:
            continue
        m = planner.take(Edge(e.to, 0, max(0.0, e.loss - 3.0 * (e.loss > 3.5)), e.var, e.bonus, e.avail, e.retreat),
                         tv.visited, courage)[0]
        best = max(best, m)
    return best - plain


def pending_courage(game: GameView, unit: Unit) -> int:
    """The Unit's Courage once this turn's Final Tally is counted."""
    if game.state.phase not in {"roll", "upkeep"}:
        return unit.courage
    extra = sum(1 for dd in unit.tally if dd.face == "courage" and not dd.cancelled)
    return unit.courage + extra


def lock(mem: Memory, game: GameView, unit: Unit, d: Decision) -> tuple[int, ...]:
    """Which dice to Lock: those least worth re-rolling, remembered for the re-rolls."""
    ctx = dice_context(mem, game, unit, rolling=True)
    dice = [(k[1], k[2]) for k in d.keys]
    rerolls = max(0, game.value("rolls", unit) - 1)
    kept = _keep_order(ctx, [], dice, rerolls, d.min_picks, forced=True)
    picked = tuple(sorted(kept))
    mem.fixed[(game.state.turn, unit.id)] = {d.keys[i][0]: dice[i] for i in picked}
    return picked


def reroll(mem: Memory, game: GameView, unit: Unit, d: Decision) -> tuple[int, ...]:
    """Which dice to re-roll: those worth less than a fresh die with the re-rolls still to come."""
    ctx = dice_context(mem, game, unit, rolling=True)
    key = (game.state.turn, unit.id)
    done = mem.rerolls.get(key, 0)
    mem.rerolls[key] = done + 1
    left = max(0, game.value("rolls", unit) - 2 - done)  # re-rolls left after this one
    free = [(k[1], k[2]) for k in d.keys]
    free_idx = {k[0] for k in d.keys}
    fixed = mem.fixed.get(key, {})
    set_aside = mem.asides.get(key, set())
    # Dice neither free nor Locked by us are Skulls that may not be re-rolled here.
    stuck = [("skull", colour) for idx, colour in game._layout
             if idx not in free_idx and idx not in fixed and idx not in set_aside]
    held = list(fixed.values()) + stuck
    kept = set(_keep_order(ctx, held, free, left, len(free), forced=False))
    return tuple(i for i in range(len(free)) if i not in kept)


def aside(mem: Memory, game: GameView, unit: Unit, d: Decision) -> tuple[int, ...]:
    """Which dice sit out when fewer are rolled: the first offered (remembered, so the re-rolls know them)."""
    picks = tuple(range(d.min_picks))
    mem.asides[(game.state.turn, unit.id)] = {d.keys[i] for i in picks}
    return picks


def dice_trade(mem: Memory, game: GameView, unit: Unit, d: Decision) -> int:
    """Asked whether to trade a die (a Lieutenant's trade, a Trading Pool): no; asked which die to give: the first
    of Tool, Star, 1 Soldier, Courage, 2 Soldiers, Skull."""
    if d.keys:
        return 0
    order = ("tool", "star", "one-soldier", "courage", "two-soldiers", "skull")
    rank = {f: i for i, f in enumerate(order)}
    return min(range(d.size()), key=lambda i: (rank.get(d.options[i].split()[-1], 9), i))


def _keep_order(ctx: DiceContext, held: list[tuple[str, str]], dice: list[tuple[str, str]], rerolls: int,
                most: int, *, forced: bool) -> list[int]:
    """Which dice to keep, decided one at a time, each in the light of those already kept.

    A die is kept when its face is worth more than a fresh die with ``rerolls`` re-rolls to come (or,
    when ``forced`` to keep ``most`` dice, the cheapest to keep first). Results that pile up (Tools)
    count the other dice showing them; results that run out of use (a second Courage when one is
    enough) count only those already kept.
    """
    kept: list[int] = []
    # (The results are handled as the objects they are: compiled, a tuple[str, str] read from a list is unboxed, and
    # boxed again, a new tuple, wherever it is then stored or looked up.)
    results: Sequence[object] = dice
    faces = [d[0] for d in dice]
    colours = [d[1] for d in dice]
    ctx_kept: list[object] = list(held)
    undecided = list(range(len(dice)))
    per_locked_skull = forced and ctx.per_locked_skull
    while undecided and len(kept) < most:
        best_i = -1
        best = -math.inf
        best_v = -math.inf
        tools = [j for j in undecided if faces[j] == "tool"]
        # Dice alike (face and colour) are worth the same in a pass: the other results are the same for them (in
        # another order for two Tools, which values() does not heed). Each die's margin and worth, by the first
        # alike die's place in margins and worths.
        alike: dict[object, int] = {}
        margins: list[float] = []
        worths: list[float] = []
        for i in undecided:
            die = results[i]
            at = alike.get(die)
            if at is None:
                face = faces[i]
                others = ctx_kept + [results[j] for j in tools if j != i]
                vals = ctx.values(colours[i], cast("list[tuple[str, str]]", others))
                v = vals[face] + (3.0 if per_locked_skull and face == "skull" else 0.0)
                at = alike[die] = len(margins)
                margins.append(v - ctx.reroll_value(vals, rerolls))
                worths.append(v)
            margin = margins[at]
            v = worths[at]
            if margin > best + 1e-9 or (abs(margin - best) <= 1e-9 and v > best_v):
                best_i, best, best_v = i, margin, v
        if not forced and best < -1e-9:
            break
        kept.append(best_i)
        ctx_kept.append(results[best_i])
        undecided.remove(best_i)
    return kept


def cancel(mem: Memory, game: GameView, unit: Unit, d: Decision) -> int:
    """The result a Skull cancels: the one worth least."""
    ctx = dice_context(mem, game, unit)
    live = [dd for dd in unit.tally if not dd.cancelled and dd.face != "skull"]
    best = 0
    best_v = math.inf
    for i, key in enumerate(d.keys):
        _, face, colour = key
        others = _without(live, key)
        v = ctx.values(colour, others)[face]
        if v < best_v:
            best, best_v = i, v
    return best


def best_add(mem: Memory, game: GameView, unit: Unit, colour: str | None) -> tuple[str, float]:
    """The result worth most on a die of ``colour`` added to the Final Tally, and its worth."""
    ctx = dice_context(mem, game, unit)
    others = [(dd.face, dd.colour) for dd in unit.tally if not dd.cancelled]
    vals = ctx.values(colour, others)
    face = max(FACES, key=lambda f: (vals[f], f))
    return face, vals[face]


def worst_die(mem: Memory, game: GameView, unit: Unit, keys: Sequence[tuple[int, str]]) -> int:
    """The die of ``keys`` (index, face) that gains most by a re-roll."""
    ctx = dice_context(mem, game, unit)
    live = [dd for dd in unit.tally if not dd.cancelled]
    best, best_gain = 0, -math.inf
    for i, (idx, face) in enumerate(keys):
        die = next((dd for dd in live if dd.index == idx), None)
        colour = die.colour if die is not None else None
        others = [(dd.face, dd.colour) for dd in live if dd is not die]
        vals = ctx.values(colour, others)
        gain = ctx.reroll_value(vals, 0) - vals.get(face, 0.0)
        if gain > best_gain:
            best, best_gain = i, gain
    return best


def tally_values(mem: Memory, game: GameView, unit: Unit) -> tuple[DiceContext, list[Die], list[float]]:
    """The dice context, the live dice of the Final Tally and what each one's result is worth."""
    ctx = dice_context(mem, game, unit)
    live = [dd for dd in unit.tally if not dd.cancelled]
    vals = []
    for dd in live:
        others = [(o.face, o.colour) for o in live if o is not dd]
        vals.append(ctx.values(dd.colour, others)[dd.face])
    return ctx, live, vals


def _without(live: Sequence[Die], key: tuple[int, str, str | None]) -> list[tuple[str, str | None]]:
    """The results of ``live`` but the die ``key`` (index, face, colour)."""
    out: list[tuple[str, str | None]] = []
    skipped = False
    for d in live:
        if not skipped and d.index == key[0] and d.face == key[1] and d.colour == key[2]:
            skipped = True
            continue
        out.append((d.face, d.colour))
    return out
