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
- casualties and sacrifices: Soldiers before Specialists, then a Specialist who goes back to his Reserve, then the
  cheapest, the ones that switch the defences on last;
- a result of his choice, or a die taken from a Unit: the best result, never a Skull (a Skull in his own Final
  Tally cancels one of his dice);
- every other choice: its first option (an "OR": the first half; "nothing" only when it is the only option).
"""

from __future__ import annotations

from typing import Any, Final

from ddaydice.dsl import ast as dsl_ast
from ddaydice.interpreter.core.api import GameView
from ddaydice.interpreter.core.decisions import Decision

_KEEP: Final = {"two-soldiers": 0, "one-soldier": 1, "star": 2, "courage": 3, "tool": 4, "skull": 5}
_CANCEL: Final = {"tool": 0, "courage": 1, "star": 2, "one-soldier": 3, "two-soldiers": 4}


def wanted_specialists(game: GameView) -> list[str]:
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
        self._game: object = None  # the state of the game it plays (a new game: forgets the last one's)
        self._wanted: list[str] | None = None
        self._used: set[tuple[str, int, str, int]] = set()

    def decide(self, game: GameView, decision: Decision) -> tuple[int, ...]:
        if self._game is not game.state:  # (held: the state, never the game, which holds its policies)
            self._game = game.state
            self._wanted = None
            self._used = set()
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
            wanted = self._missing(game, player, all_wanted=True)
            return (min(range(len(keys)), key=lambda i: (keys[i][1] in wanted, self._worth(game, keys[i][1]), i)),)
        if kind == "sacrifice" and keys and all(isinstance(k, str) and k in game.content.cards for k in keys):
            # Lose the Specialist he misses least: never the ones that switch the Battle Map's defences on.
            wanted = self._missing(game, player, all_wanted=True)
            return (min(range(len(keys)), key=lambda i: (keys[i] in wanted, self._worth(game, keys[i]), i)),)
        if kind == "choose" and keys and all(isinstance(k, str) and k in _KEEP for k in keys):
            # A result of his choice: the best (never a Skull, which would cancel one of his own dice).
            return (min(range(len(keys)), key=lambda i: (_KEEP[keys[i]], i)),)
        if kind == "choose" and keys and all(isinstance(k, tuple) and len(k) == 3 and k[1] in _KEEP for k in keys):
            # A die taken from a Unit's Final Tally: the best result (a Skull would cancel one of his own).
            return (min(range(len(keys)), key=lambda i: (_KEEP[keys[i][1]], i)),)
        if decision.min_picks == 0:
            return ()
        return tuple(range(decision.min_picks))

    def _missing(self, game: GameView, player: Any, *, all_wanted: bool = False) -> list[str]:
        wanted = self._wanted
        if wanted is None:
            wanted = self._wanted = wanted_specialists(game)
        if all_wanted:
            return wanted
        return [c for c in wanted if c not in player.specialists]

    @staticmethod
    def _worth(game: GameView, card: str) -> float:
        """What losing a card costs him: its price, nothing for one that goes back to his Reserve when lost (his
        own card's 'allow back-to-pool' with no condition: he recruits it again)."""
        c = game.content.cards.get(card)
        if c is None:
            return 0.0
        if _goes_back(game, card):
            return -1.0
        return float(c.cost or 0)


def _goes_back(game: GameView, card: str) -> bool:
    """Does the card's own effect allow it back to its Pool when lost, with no condition ('allow back-to-pool')?"""
    source = game.content.effects.get(card)
    return source is not None and any(
        isinstance(clause.body, dsl_ast.Modifier) and clause.body.condition is None
        and clause.body.statement.verb.name == "allow"
        and any(isinstance(a, dsl_ast.Word) and a.name == "back-to-pool" for a in clause.body.statement.args)
        for clause in source.tree.clauses)
