"""A competent player for another side than the Units (rules/sides.yaml: the German player of Atlantikwall).

The German never moves: his game is to have Soldiers enough for each turn's casualties (the highest DEF the
Allies occupy) and for the Assault, to switch on the Battle Map's defences (the Specialists whose presence the
rules test with ``in-play``: the Pionier and the Maschinengewehr-Schütze), and to spend Courage on Decorations.
The policy reads only decisions' keys and the state, never a card's id:

- dice: Lock and keep Soldiers first, then Stars while a Specialist is still to recruit, then Courage;
- Skulls cancel the least useful result (Tool, Courage, Star, 1 Soldier, 2 Soldiers);
- recruit the Specialist the game's rules name (``in-play`` conditions of the rules), else the dearest;
  find the dearest Item it can pay;
- use every card and rule use offered (Decorations are meant to be played), once per use point;
- casualties: Soldiers before Specialists, the cheapest Specialist first;
- every other choice: its first option (an "OR": the first half; "nothing" only when it is the only option).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ddaydice.dsl import ast as dsl_ast
from ddaydice.interpreter.deciders import Decision

if TYPE_CHECKING:
    from ddaydice.interpreter.engine import Game

_KEEP = {"two-soldiers": 0, "one-soldier": 1, "star": 2, "courage": 3, "tool": 4, "skull": 5}
_CANCEL = {"tool": 0, "courage": 1, "star": 2, "one-soldier": 3, "two-soldiers": 4}


def wanted_specialists(game: Game) -> list[str]:
    """Cards the game's rules test with 'in-play' (the defences a side switches on by recruiting them)."""
    out: list[str] = []
    for src in game.global_sources:
        for clause in src.tree.clauses:
            stack: list[Any] = [clause]
            while stack:
                node = stack.pop()
                if isinstance(node, dsl_ast.Predicate) and node.word.name == "in-play":
                    out += [a.name for a in node.args if isinstance(a, dsl_ast.Word)]
                elif hasattr(node, "__attrs_attrs__"):
                    stack += [getattr(node, f.name) for f in node.__attrs_attrs__]
                elif isinstance(node, tuple):
                    stack += list(node)
    return list(dict.fromkeys(out))


class SidePolicy:
    """Plays another side's player (see the module's docstring)."""

    def __init__(self) -> None:
        self._wanted: dict[int, list[str]] = {}
        self._used: set[tuple[str, int, str, int]] = set()

    def decide(self, game: Game, decision: Decision) -> tuple[int, ...]:
        player = game.state.unit(decision.unit)
        keys = decision.keys
        kind = decision.kind
        if kind in {"lock", "reroll"} and keys and isinstance(keys[0], tuple):
            need_stars = bool(self._missing(game, player))
            order = dict(_KEEP)
            if not need_stars:
                order["star"] = 4
            ranked = sorted(range(len(keys)), key=lambda i: (order.get(keys[i][1], 9), i))
            if kind == "lock":
                return tuple(ranked[: decision.min_picks])
            keep = {"two-soldiers", "one-soldier"} | ({"star"} if need_stars else set())
            picks = tuple(i for i, k in enumerate(keys) if k[1] not in keep)
            return picks[: decision.max_picks] if len(picks) >= decision.min_picks else tuple(
                range(decision.min_picks))
        if kind == "cancel" and keys:
            return (min(range(len(keys)), key=lambda i: (_CANCEL.get(keys[i][1], 9), i)),)
        if kind == "recruit":
            options = [(i, k) for i, k in enumerate(keys) if k is not None]
            if options:
                missing = self._missing(game, player)
                best = min(options, key=lambda ik: (ik[1] not in missing,
                                                    -(game.content.cards[ik[1]].cost or 0), ik[0]))
                return (best[0],)
        if kind == "find":
            options = [(i, k) for i, k in enumerate(keys) if k is not None]
            if options:
                def cost(k: Any) -> int:
                    card = k[0] if isinstance(k, tuple) else k
                    return game.content.cards[card].cost or 0 if card in game.content.cards else 0
                return (max(options, key=lambda ik: (cost(ik[1]), -ik[0]))[0],)
        if kind == "use":
            turn = game.state.turn
            for i, k in enumerate(keys):
                if k is None:
                    continue
                mark = (player.id, turn, str(k), game.state.play_order)
                if mark not in self._used:
                    self._used.add(mark)
                    return (i,)
            return (0,)
        if kind == "casualty" and keys:
            soldiers = [i for i, k in enumerate(keys) if k[0] == "soldiers"]
            if soldiers:
                return (soldiers[0],)
            return (min(range(len(keys)), key=lambda i: (game.content.cards[keys[i][1]].cost or 0, i)),)
        if decision.min_picks == 0:
            return ()
        return tuple(range(decision.min_picks))

    def _missing(self, game: Game, player: Any) -> list[str]:
        wanted = self._wanted.get(id(game))
        if wanted is None:
            if len(self._wanted) > 8:
                self._wanted.clear()
            wanted = self._wanted[id(game)] = wanted_specialists(game)
        return [c for c in wanted if c not in player.specialists]
