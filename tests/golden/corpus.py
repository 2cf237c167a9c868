"""The equivalence corpus: games whose digests and choices are recorded in digests.json (see record.py)."""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Sequence

from ddaydice.dsl.loader import Content, load
from ddaydice.interpreter.core.api import Watcher
from ddaydice.interpreter.core.state import digest
from ddaydice.interpreter.game import Game
from ddaydice.interpreter.policies.registry import make_policy

# (map, variant, options, policy, players, seeds, packs)
CASES: list[tuple[str, str | None, tuple[str, ...], str, int, int, tuple[str, ...]]] = [
    ("exercise-tiger", "practice-run", (), "reference", 1, 300, ()),
    ("exercise-tiger", "practice-run", ("victory-points",), "reference", 1, 300, ()),
    ("exercise-tiger", "practice-run", ("blind-start",), "reference", 1, 300, ()),
    ("exercise-tiger", "practice-run", ("well-equipped",), "reference", 1, 300, ()),
    ("exercise-tiger", "practice-run", ("solitaire",), "reference", 1, 300, ()),
    ("exercise-tiger", "practice-run", ("soldier-mulligan",), "reference", 1, 100, ()),
    ("exercise-tiger", "practice-run", (), "reference", 2, 300, ()),
    ("exercise-tiger", "practice-run", (), "reference", 4, 300, ()),
    ("exercise-tiger", "practice-run", (), "random", 1, 100, ()),
    ("exercise-tiger", "practice-run", (), "heuristic", 1, 40, ()),
    ("exercise-tiger", "basic-training", (), "reference", 1, 300, ()),
    ("exercise-tiger", "basic-training", (), "reference", 3, 300, ()),
    ("exercise-tiger", "advanced-training", (), "reference", 1, 300, ()),
    ("exercise-tiger", "advanced-training", (), "reference", 2, 300, ()),
    ("exercise-tiger", "advanced-training", (), "random", 1, 100, ()),
    ("exercise-tiger", "advanced-training", (), "heuristic", 1, 40, ()),
    ("omaha-beach", None, (), "reference", 1, 300, ()),
    ("omaha-beach", None, (), "reference", 2, 300, ()),
    ("omaha-beach", None, (), "heuristic", 2, 30, ()),
    ("utah-beach", None, (), "reference", 1, 300, ()),
    ("gold-beach", None, (), "reference", 2, 300, ()),
    ("juno-beach", None, (), "reference", 1, 300, ()),
    ("sword-beach", None, (), "reference", 1, 300, ()),
    ("pointe-du-hoc", None, (), "reference", 1, 300, ()),
    ("merville-battery", None, (), "reference", 1, 300, ()),
    ("operation-deadstick", None, (), "reference", 2, 300, ()),
    ("exercise-tiger", "basic-training", (), "heuristic", 1, 40, ()),
    ("exercise-tiger", "practice-run", ("german-player",), "reference", 1, 40, ("atlantikwall",)),
    ("exercise-tiger", "practice-run", ("solitaire-atlantikwall",), "reference", 1, 40, ("atlantikwall",)),
    ("omaha-beach", None, ("german-player", "battle-conditions", "badges"), "heuristic", 2, 20, ("atlantikwall",)),
    ("exercise-fabius", None, ("german-player",), "random", 1, 40, ("atlantikwall",)),
]

# `dday simulate` runs whose JSON results (less the timings) are recorded.
SIMULATIONS: list[list[str]] = [
    ["exercise-tiger", "--variant", "practice-run", "--games", "300", "--seed", "3"],
    ["exercise-tiger", "--variant", "advanced-training", "--games", "100", "--policy", "heuristic", "--seed", "3"],
    ["omaha-beach", "--players", "2", "--games", "200", "--seed", "3"],
    ["utah-beach", "--games", "200", "--seed", "3"],
    ["gold-beach", "--games", "200", "--seed", "3", "--policy", "random"],
    ["juno-beach", "--games", "200", "--seed", "3"],
    ["sword-beach", "--games", "200", "--seed", "3"],
    ["pointe-du-hoc", "--games", "200", "--seed", "3"],
    ["merville-battery", "--games", "200", "--seed", "3"],
    ["operation-deadstick", "--players", "2", "--games", "200", "--seed", "3"],
    ["omaha-beach", "--pack", "atlantikwall", "--option", "german-player", "--option", "battle-conditions",
     "--option", "badges", "--players", "2", "--games", "30", "--policy", "heuristic", "--seed", "3"],
]


@functools.cache
def content(packs: tuple[str, ...]) -> Content:
    loaded, diags = load(packs=list(packs)) if packs else load()
    assert loaded is not None, diags
    return loaded


def play_case(map_id: str, variant: str | None, options: tuple[str, ...], policy: str, players: int, seeds: int,
              packs: tuple[str, ...], watchers: Sequence[Watcher] = ()) -> list[str]:
    """Each seed's game, as 'digest choices-hash outcome turn' (``watchers``: given to each game)."""
    rows = []
    sides = 1 if any(o in {"german-player", "solitaire-atlantikwall"} for o in options) else 0
    for seed in range(seeds):
        game = Game(content(packs), map_id, players=players, seed=seed, variant=variant, options=options,
                    deciders=[make_policy(policy, seed + k) for k in range(players + sides)], watchers=watchers)
        game.run()
        s = game.state
        choices = hashlib.sha256(json.dumps(s.choices).encode()).hexdigest()[:12]
        rows.append(f"{digest(s)} {choices} {s.outcome} {s.turn}")
    return rows
