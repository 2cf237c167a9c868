"""The turn specialised from the plan (interpreter/fastturn.py) plays exactly the general turn's game.

Each game is played twice from the same seed, once as usual (the fast turn where it applies) and once with the
fast turn switched off, and the two must agree choice for choice and state for state (the state's digest, the
Final Tally's Die records included). The cases cover games where the fast turn applies (options among them) and
games where it must not (several Units, a decider without the key protocol, a traced game, events heard).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from ddaydice.dsl.loader import Content, load
from ddaydice.interpreter import fastturn
from ddaydice.interpreter.engine import Game
from ddaydice.interpreter.policies import make_policy
from ddaydice.interpreter.simulate import Spec, game_seed, play_one
from ddaydice.interpreter.state import digest, to_json


@functools.cache
def content() -> Content:
    loaded, diags = load()
    assert loaded is not None, diags
    return loaded


@contextmanager
def general_turn_only() -> Iterator[None]:
    original = fastturn.play
    fastturn.play = lambda game, max_turns: False
    try:
        yield
    finally:
        fastturn.play = original


def new_game(map_id: str, variant: str | None, options: tuple[str, ...], policy: str, players: int, seed: int,
             trace: bool = False) -> Game:
    return Game(content(), map_id, players=players, seed=seed, variant=variant, options=options, trace=trace,
                deciders=[make_policy(policy, seed + k) for k in range(players)])


def outcome(game: Game) -> tuple[str, list[list[int]], str | None, int, str]:
    s = game.state
    return digest(s), s.choices, s.outcome, s.turn, s.reason


# (map, variant, options, policy, players, whether the fast turn applies)
CASES = [
    ("exercise-tiger", "practice-run", (), "reference", 1, True),
    ("exercise-tiger", "practice-run", ("victory-points",), "reference", 1, True),
    ("exercise-tiger", "practice-run", ("blind-start",), "reference", 1, True),
    ("exercise-tiger", "practice-run", ("well-equipped",), "reference", 1, True),
    ("exercise-tiger", "practice-run", ("solitaire",), "reference", 1, True),
    ("exercise-tiger", "practice-run", ("soldier-mulligan",), "reference", 1, False),
    ("exercise-tiger", "practice-run", (), "reference", 2, False),
    ("exercise-tiger", "practice-run", (), "random", 1, False),
    ("exercise-tiger", "practice-run", (), "heuristic", 1, False),
    ("exercise-tiger", "basic-training", (), "reference", 1, False),
    ("omaha-beach", None, (), "reference", 1, False),
]


@pytest.mark.parametrize(("map_id", "variant", "options", "policy", "players", "applies"), CASES)
def test_fast_turn_plays_the_general_turns_game(map_id: str, variant: str | None, options: tuple[str, ...],
                                                policy: str, players: int, applies: bool) -> None:
    seeds = range(300) if applies else range(20)
    for seed in seeds:
        fast = new_game(map_id, variant, options, policy, players, seed)
        assert (fastturn.why_not(fast) is None) == applies, fastturn.why_not(fast)
        fast.run()
        with general_turn_only():
            general = new_game(map_id, variant, options, policy, players, seed)
            general.run()
        assert outcome(fast) == outcome(general), (map_id, variant, options, policy, players, seed)
        assert to_json(fast.state) == to_json(general.state)


@functools.cache
def atlantikwall() -> Content:
    loaded, diags = load(packs=["atlantikwall"])
    assert loaded is not None, diags
    return loaded


@pytest.mark.parametrize(("options", "reason"), [(("german-player",), "another side's player"),
                                                 (("solitaire-atlantikwall",), "another side's player")])
def test_another_sides_player_or_automated_units_take_the_general_turn(options: tuple[str, ...],
                                                                       reason: str) -> None:
    def one(seed: int) -> Game:
        return Game(atlantikwall(), "exercise-tiger", variant="practice-run", seed=seed, options=options,
                    deciders=[make_policy("reference") for _ in range(2)])

    for seed in range(10):
        fast = one(seed)
        assert fastturn.why_not(fast) == reason
        assert fast._fast_plan.reason == reason
        fast.run()
        with general_turn_only():
            general = one(seed)
            general.run()
        assert outcome(fast) == outcome(general)


def test_automated_units_alone_never_take_the_fast_turn() -> None:
    game = Game(atlantikwall(), "exercise-tiger", variant="practice-run", seed=1,
                options=("solitaire-atlantikwall",), deciders=[make_policy("reference") for _ in range(2)])
    assert game.option_rules.automated_units
    assert fastturn.FastPlan._why_not(attrs_without_sides(game)) == "automated Units"


def attrs_without_sides(game: Game) -> Game:
    game.side_defs = {}  # the plan's check on automated Units, apart from the other side's player
    return game


def test_fast_turn_is_used_for_the_benchmark_and_gives_simulation_records_unchanged() -> None:
    spec = Spec("exercise-tiger", "practice-run", 1, "reference", seed=7)
    fast = [play_one(content(), spec, i) for i in range(400)]
    with general_turn_only():
        general = [play_one(content(), spec, i) for i in range(400)]
    assert fast == general
    game = new_game("exercise-tiger", "practice-run", (), "reference", 1, game_seed(7, 0))
    assert fastturn.why_not(game) is None


def test_a_traced_game_takes_the_general_turn_and_plays_the_same_game() -> None:
    for seed in range(30):
        traced = new_game("exercise-tiger", "practice-run", (), "reference", 1, seed, trace=True)
        assert fastturn.why_not(traced) == "the game is traced"
        traced.run()
        fast = new_game("exercise-tiger", "practice-run", (), "reference", 1, seed)
        fast.run()
        assert traced.state.log
        assert outcome(traced) == outcome(fast)


def test_a_shorter_game_limit_ends_the_same_way() -> None:
    for seed in range(50):
        fast = new_game("exercise-tiger", "practice-run", (), "reference", 1, seed)
        fast.run(max_turns=4)
        with general_turn_only():
            general = new_game("exercise-tiger", "practice-run", (), "reference", 1, seed)
            general.run(max_turns=4)
        assert outcome(fast) == outcome(general)


def test_a_game_resumed_after_general_turns_ends_the_same_way() -> None:
    for seed in range(50):
        mixed = new_game("exercise-tiger", "practice-run", (), "reference", 1, seed)
        for _ in range(3):
            if mixed.state.outcome is None:
                mixed.run_turn()  # the general turn, as `dday play` runs it
        mixed.run()
        with general_turn_only():
            general = new_game("exercise-tiger", "practice-run", (), "reference", 1, seed)
            general.run()
        assert outcome(mixed) == outcome(general)


def test_reference_policy_answers_on_faces_as_on_keys() -> None:
    policy = make_policy("reference")
    game = new_game("exercise-tiger", "practice-run", (), "reference", 1, 0)
    faces = tuple(game._faces)
    layout = game._layout
    rng = random.Random(5)
    for _ in range(3000):
        dice = [rng.randrange(len(faces)) for _ in layout]
        which = sorted(rng.sample(range(len(layout)), rng.randint(1, len(layout))))
        keys = tuple((layout[p][0], faces[dice[p]], layout[p][1]) for p in which)
        for kind, picks in (("lock", min(2, len(which))), ("reroll", 0)):
            on_faces = policy.decide_dice(kind, dice, which, faces, picks)  # type: ignore[attr-defined]
            on_keys = policy.decide_keys(game, "u1", kind, keys, picks)  # type: ignore[attr-defined]
            assert on_faces == on_keys, (kind, dice, which)
