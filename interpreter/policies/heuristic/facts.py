"""What a map's Sectors do and where a Unit can still go, read once from the Sectors' effects."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import TYPE_CHECKING, Any, Final

from ddaydice.dsl import ast as dsl_ast
from ddaydice.dsl.schema import Sector
from ddaydice.dsl.touches import reach
from ddaydice.interpreter.core.api import GameView
from ddaydice.interpreter.game import Game
from ddaydice.interpreter.policies.deciders import ReferencePolicy
from ddaydice.interpreter.policies.heuristic.model import D6_MEAN
from ddaydice.interpreter.policies.heuristic.percontent import memos, remember
from ddaydice.interpreter.policies.heuristic.statements import actions_of, name_of, named, only_options, options_allow

if TYPE_CHECKING:
    from ddaydice.interpreter.core.state import Unit


class Facts:
    """What a Sector's effects do, read once from their compiled trees. (A plain class rather than an attrs one, so that
    it is a native class when compiled with mypyc; its attributes are Final.)"""

    __slots__ = (
        "award",
        "battle_cry_only",
        "bunker",
        "climb",
        "combat_loss",
        "combat_loss_unless",
        "courage",
        "courage_penalty",
        "enter_soldiers",
        "enter_unless",
        "free_cards",
        "no_battle_cry",
        "no_entry_after",
        "no_stay",
        "printed_cost",
        "retreat",
        "skulls",
        "special_damage",
        "stars",
        "tools",
    )

    def __init__(self, *, courage: int = 0, stars: int = 0, tools: int = 0, skulls: int = 0, courage_penalty: int = 0,
                 enter_soldiers: float = 0.0, free_cards: tuple[str, ...] = (), award: bool = False,
                 combat_loss: float = 0.0, combat_loss_unless: str = "", climb: int = 0, battle_cry_only: bool = False,
                 no_battle_cry: bool = False, no_stay: bool = False, retreat: str | None = None,
                 enter_unless: str | None = None, no_entry_after: tuple[str, ...] = (), bunker: bool = False,
                 printed_cost: int | None = None, special_damage: str | None = None) -> None:
        self.courage: Final = courage  # per turn, added to the Final Tally
        self.stars: Final = stars
        self.tools: Final = tools
        self.skulls: Final = skulls
        self.courage_penalty: Final = courage_penalty
        self.enter_soldiers: Final = enter_soldiers
        self.free_cards: Final = free_cards
        self.award: Final = award
        self.combat_loss: Final = combat_loss  # Mortar Fire, Booby Traps
        self.combat_loss_unless: Final = combat_loss_unless
        self.climb: Final = climb  # Skulls needed to Advance from here
        self.battle_cry_only: Final = battle_cry_only
        self.no_battle_cry: Final = no_battle_cry
        self.no_stay: Final = no_stay
        self.retreat: Final = retreat
        self.enter_unless: Final = enter_unless  # Sector that must be conquered before entering
        self.no_entry_after: Final = no_entry_after  # no entry for a Unit that has been in all these Sectors
        # The Sector as printed (read natively here: the map's Sector is an attrs class, each field a generic read)
        self.bunker: Final = bunker
        self.printed_cost: Final = printed_cost  # its own Advance cost, None: the line's
        self.special_damage: Final = special_damage  # the MGF sixes' special damage here (the Sector's, else the map's)


#: What a Final Tally's 'add N WHAT' gives, by the Facts' field.
_TALLY_ADDS: Final = {"courage": "courage", "star": "stars", "tool": "tools", "skull": "skulls"}
_ON_ENTRY: Final = frozenset({"enter", "first-enter"})


def sector_facts(effects: Iterable[dsl_ast.Effect], printed: Sector, map_damage: str | None,
                 options: Collection[str] = ()) -> Facts:
    """A Sector's facts from its effects' trees, and as printed (``map_damage``: the map's special damage). What is
    read is the compiled effect, never its wording: a modder's Sector written otherwise (its clauses in another
    order, on one line or several) has the same facts as ours. A clause whose condition asks for an optional rule
    that the game's ``options`` leave off, or to be off one they turn on, is not read: it never acts; one whose
    condition asks only of the options, and holds, counts as always."""
    f: dict[str, Any] = {"bunker": printed.bunker, "printed_cost": printed.cost,
                         "special_damage": printed.special_damage or map_damage}
    cards: list[str] = []
    for effect in effects:
        for clause in effect.clauses:
            if isinstance(clause.body, dsl_ast.Modifier) and options_allow(clause.body.condition, options):
                _modifier_facts(f, clause.body)
        for body, part in actions_of(effect):
            if not options_allow(body.condition, options):
                continue
            event = body.event.name if isinstance(body, dsl_ast.Trigger) else ""
            _action_facts(f, cards, event, body.condition, part.statement)
    if cards:
        f["free_cards"] = tuple(cards)
    return Facts(**f)


def _action_facts(f: dict[str, Any], cards: list[str], event: str, condition: dsl_ast.Condition | None,
                  st: dsl_ast.Statement) -> None:
    """What one action of a Sector's trigger (on ``event``) or use (``event`` '') adds to its facts ``f``."""
    verb = st.verb.name
    first = st.args[0] if st.args else None
    what = named(st, 1)
    if verb == "retreat" and isinstance(first, dsl_ast.Word):
        f["retreat"] = first.name
    elif event == "final-tally" and only_options(condition) and isinstance(first, dsl_ast.Number):
        if verb == "add" and what in _TALLY_ADDS:
            key = _TALLY_ADDS[what]
            f[key] = f.get(key, 0) + first.value
        elif verb == "remove" and what == "courage":  # Stars taken away are not counted by the plan
            f["courage_penalty"] = f.get("courage_penalty", 0) + first.value
    elif event in _ON_ENTRY:  # (the condition read for its options only: a card is counted on whatever else it needs)
        if verb == "gain" and what == "soldiers" and isinstance(first, dsl_ast.Dice):
            f["enter_soldiers"] = f.get("enter_soldiers", 0.0) + D6_MEAN * first.count
        elif verb in {"recruit", "find"} and what == "free" and isinstance(first, dsl_ast.Word):
            cards.append(first.name)
        elif verb == "draw-award":
            f["award"] = True
    elif event == "combat" and verb == "lose" and what == "soldiers" and isinstance(first, dsl_ast.Dice):
        f["combat_loss"] = f.get("combat_loss", 0.0) + D6_MEAN * first.count  # Mortar Fire, Booby Traps
        spared = _conjunction(condition, negated=True)
        if spared is not None and len(spared) == 1 and spared[0].word.name == "has" and spared[0].args:
            f["combat_loss_unless"] = name_of(spared[0].args[0])


def _modifier_facts(f: dict[str, Any], body: dsl_ast.Modifier) -> None:
    """What one of a Sector's standing modifiers adds to its facts ``f``: the permissions it forbids or requires."""
    st = body.statement
    verb = st.verb.name
    if verb not in {"forbid", "require"} or not st.args:
        return
    what = name_of(st.args[0])
    cond = body.condition
    if verb == "require":
        if what == "battle-cry" and only_options(cond):
            f["battle_cry_only"] = True
    elif what in {"battle-cry", "battle-cry-here"}:
        f["no_battle_cry"] = True
    elif what == "stay" and only_options(cond):
        f["no_stay"] = True
    elif what == "advance":
        needs = _conjunction(cond, negated=True)
        for p in needs or ():
            c = p.comparison
            if p.word.name == "count" and p.args and name_of(p.args[0]) == "skull" and c is not None and c.op == ">=":
                f["climb"] = c.value
    elif what == "enter":
        unless = _conjunction(cond, negated=True)
        if unless is not None and len(unless) == 1 and unless[0].word.name == "conquered" and unless[0].args:
            f["enter_unless"] = name_of(unless[0].args[0])
        after = _conjunction(cond, negated=False)
        if after and all(p.word.name == "visited" and p.args for p in after):
            f["no_entry_after"] = tuple(name_of(p.args[0]) for p in after)


def _conjunction(cond: dsl_ast.Condition | None, *, negated: bool) -> tuple[dsl_ast.Predicate, ...] | None:
    """The predicates of a condition that is one conjunction of them (``if a and b``, or with ``negated``
    ``unless a and b``), None for any other condition."""
    if cond is None or cond.negated != negated:
        return None
    expr = cond.expr
    if isinstance(expr, dsl_ast.AnyOf):
        if len(expr.operands) != 1:
            return None
        expr = expr.operands[0]
    operands = expr.operands if isinstance(expr, dsl_ast.AllOf) else (expr,)
    found: list[dsl_ast.Predicate] = []
    for o in operands:
        if not isinstance(o, dsl_ast.Predicate):
            return None
        found.append(o)
    return tuple(found)


def facts(game: GameView, sid: str) -> Facts:
    """The facts of Sector ``sid`` as it is now (its attributes drawn), read once."""
    state = game.state
    attrs_now = state.sectors[sid].attributes
    # A Sector with no attribute drawn: found among the last game's by its name alone (a game's content, map and
    # variant do not change). The game is told by its state and content, held rather than the game itself, which
    # would then outlive its run. They and the table are one tuple, read and replaced whole: a sweep plays games in
    # threads, and each reads the table of its own game.
    content = game.content
    last = _LAST.game
    if not attrs_now and last[0] is state and last[1] is content:
        hit = last[2].get(sid)
        if hit is not None:
            return hit
    table = memos(content).facts
    key = (game.map.id, game.variant.id if game.variant else None, tuple(game.options), sid,
           tuple(attrs_now) if attrs_now else ())
    found: Facts | None = table.get(key)
    if found is None:
        found = sector_facts((src.tree for src in game._sector_sources(sid)), game.sectors[sid],
                             game.map.special_damage, game.options)
        remember(table, key, found)
    if not attrs_now:
        if last[0] is not state or last[1] is not content:
            last = _LAST.game = (state, content, {})
        last[2][sid] = found
    return found


class _Last:
    """The game (its state and content) facts() last read plain Sectors of, and their facts by Sector (one slot,
    replaced whole)."""

    __slots__ = ("game",)

    def __init__(self) -> None:
        self.game: tuple[object, object, dict[str, Facts]] = (None, None, {})


_LAST: Final = _Last()


def first_entry_sectors(game: GameView) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Sectors whose first entry gives something (a free card, an Award) or where a card waits; and Sectors
    that draw a random attribute."""
    table = memos(game.content).firsts
    key = (game.map.id, game.variant.id if game.variant else None, tuple(game.options))
    found = table.get(key)
    if found is None:
        placed = {p.sector for p in game.map.placed}
        found = remember(table, key, (tuple(sid for sid in game.sectors if sid in placed or _on_first_entry(game, sid)),
                                      tuple(sid for sid in game.sectors if _gains_attributes(game, sid))))
    return found


def _on_first_entry(game: GameView, sid: str) -> bool:
    """Does something happen when Sector ``sid`` is first entered?"""
    return any(isinstance(clause.body, dsl_ast.Trigger) and clause.body.event.name == "first-enter"
               for src in game._sector_sources(sid) for clause in src.tree.clauses)


def _gains_attributes(game: GameView, sid: str) -> bool:
    """Can Sector ``sid``'s own effects give it an attribute (a named one, or one rolled on a table)?"""
    for src in game._sector_sources(sid):
        for _body, part in actions_of(src.tree):
            reached = reach(part.statement)
            if reached.attributes or reached.tables:
                return True
    return False


def sector_uses_offered(game: GameView, sector: str) -> bool:
    """Does the engine offer a Sector's own uses (Pointe-du-Hoc's retreat) to a Unit standing there?

    Probed once per map on a throwaway game, so the planner counts on the retreat only where it exists.
    """
    table = memos(game.content).offered
    key = (game.map.id, game.variant.id if game.variant else None, tuple(game.options), sector)
    found = table.get(key)
    if found is None:
        probe = Game(game.content, game.map.id, players=1, seed=0,
                     variant=game.variant.id if game.variant else None, options=game.options,
                     deciders=[ReferencePolicy()])
        u = probe.state.units[0]
        probe.state.turn = 10
        u.sector, u.visited, u.entered_turn, u.marker = sector, [sector], 1, "must-move"
        owner = f"{game.map.id}/{sector}"
        found = any(src.owner == owner for src, *_rest in probe.available_uses(u, "movement"))
        remember(table, key, found)
    return found


def reachable(game: GameView, unit: Unit) -> list[str]:
    """The Sectors the Unit may still reach (its own first), in the map's order."""
    seen = {unit.sector}
    todo = [unit.sector]
    while todo:
        x = todo.pop()
        nxt = [to for to, _kind, _cost, _mines, _barrier in game.moves[x]]
        retreat = facts(game, x).retreat
        if retreat is not None:
            nxt.append(retreat)
        for to in nxt:
            if to not in seen and to not in unit.visited:
                seen.add(to)
                todo.append(to)
    return [unit.sector] + [s for s in game.sectors if s in seen and s != unit.sector]
