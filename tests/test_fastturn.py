"""The turn specialised from the plan (interpreter/fastturn.py) plays exactly the general turn's game.

Each game is played twice from the same seed, once as usual (the fast turn where it applies) and once with the
fast turn switched off, and the two must agree choice for choice and state for state (the state's digest, the
Final Tally's Die records included). The cases cover games where the fast turn applies (options among them) and
games where it must not (several Units, a decider without the key protocol, a traced game, events heard).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import pytest

from ddaydice.dsl.diagnostics import RuleError
from ddaydice.dsl.loader import Content, load
from ddaydice.interpreter import fastturn
from ddaydice.interpreter.deciders import Decision, ReferencePolicy
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
    # Several Units: the tie order, trading, room.
    ("exercise-tiger", "practice-run", (), "reference", 2, True),
    ("exercise-tiger", "practice-run", (), "reference", 4, True),
    ("exercise-tiger", "practice-run", (), "random", 1, False),
    ("exercise-tiger", "practice-run", (), "heuristic", 1, False),
    # Skulls cancelling, RWB bonuses (the general upkeep when one could score), Landmines, something to recruit.
    ("exercise-tiger", "basic-training", (), "reference", 1, True),
    ("exercise-tiger", "basic-training", (), "reference", 3, True),
    # Sector effects (Final Tally, entering, requirements, Lock and dice rolled changed), MGF, Items and Awards
    # to buy, cards gained along the way (the general turn while they are in play).
    ("exercise-tiger", "advanced-training", (), "reference", 1, True),
    ("exercise-tiger", "advanced-training", (), "reference", 2, True),
    ("omaha-beach", None, (), "reference", 1, True),
    ("omaha-beach", None, (), "reference", 2, True),
    ("utah-beach", None, (), "reference", 1, True),
    ("gold-beach", None, (), "reference", 2, True),
    ("juno-beach", None, (), "reference", 1, True),
    ("sword-beach", None, (), "reference", 1, True),
    ("pointe-du-hoc", None, (), "reference", 1, True),
    ("merville-battery", None, (), "reference", 1, True),
    ("operation-deadstick", None, (), "reference", 2, True),
    ("exercise-tiger", "basic-training", (), "heuristic", 1, False),
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
        assert to_json(fast.state) == to_json(general.state), seed


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


class KeysOnly:
    """The reference policy through the key protocol alone (no dice rules, no answers on faces): the fast turn
    remembers its answers by the dice faces."""

    pure_kinds: frozenset[str] = ReferencePolicy.pure_kinds
    reads_tally = False
    move_reads: tuple[str, ...] = ("sector", "courage")

    def __init__(self) -> None:
        self.policy = ReferencePolicy()

    def decide(self, game: Game, decision: Decision) -> tuple[int, ...]:
        return self.decide_keys(game, decision.unit, decision.kind, decision.keys, decision.min_picks)

    def decide_keys(self, game: Game, unit: str, kind: str, keys: tuple[Any, ...], min_picks: int
                    ) -> tuple[int, ...]:
        return self.policy.decide_keys(game, unit, kind, keys, min_picks)


class OnFaces(KeysOnly):
    """... and answering on faces (decide_dice) when an answer is not remembered yet."""

    def decide_dice(self, kind: str, dice: Sequence[int], which: Sequence[int], faces: Sequence[str],
                    min_picks: int) -> tuple[int, ...] | None:
        return self.policy.decide_dice(kind, dice, which, faces, min_picks)


class Unremembered(KeysOnly):
    """... answering nothing from keys alone: asked every time."""

    pure_kinds = frozenset()
    move_reads = ("sector", "courage", "something else")


class Illegal(KeysOnly):
    """A fixed policy whose Lock is illegal: the same error through both turns."""

    def decide_keys(self, game: Game, unit: str, kind: str, keys: tuple[Any, ...], min_picks: int
                    ) -> tuple[int, ...]:
        return (0, 0) if kind == "lock" else super().decide_keys(game, unit, kind, keys, min_picks)


@pytest.mark.parametrize("decider", [KeysOnly, OnFaces, Unremembered])
def test_deciders_through_the_key_protocol_alone_play_the_same_games(decider: type[KeysOnly]) -> None:
    for seed in range(150):
        def one(seed: int = seed) -> Game:
            return Game(content(), "exercise-tiger", seed=seed, variant="practice-run", deciders=[decider()])

        fast = one()
        assert fastturn.why_not(fast) is None
        fast.run()
        with general_turn_only():
            general = one()
            general.run()
        assert outcome(fast) == outcome(general), seed


def test_an_illegal_answer_is_the_same_error_through_both_turns() -> None:
    messages = []
    for use_fast in (True, False):
        game = Game(content(), "exercise-tiger", seed=3, variant="practice-run", deciders=[Illegal()])
        with pytest.raises(RuleError) as caught:
            if use_fast:
                game.run()
            else:
                with general_turn_only():
                    game.run()
        messages.append(str(caught.value))
    assert messages[0] == messages[1]


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
        # Its dice rules: Lock the dice of least (rank, index), re-roll the free dice whose face is wished away.
        rank, wish = policy.dice_rules(faces)  # type: ignore[attr-defined]
        locks = min(2, len(which))
        by_rules = tuple(sorted(j for _, _, j in sorted((rank[dice[p]], p, j) for j, p in enumerate(which))[:locks]))
        assert by_rules == policy.decide_keys(game, "u1", "lock", keys, locks)  # type: ignore[attr-defined]
        assert tuple(j for j, p in enumerate(which) if wish[dice[p]]) == \
            policy.decide_keys(game, "u1", "reroll", keys, 0)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("map_id", "variant", "players"), [("exercise-tiger", "basic-training", 2),
                                                             ("omaha-beach", None, 2)])
@pytest.mark.parametrize("decider", [KeysOnly, OnFaces, Unremembered])
def test_deciders_through_the_key_protocol_alone_cancel_skulls_and_play_several_units(
        decider: type[KeysOnly], map_id: str, variant: str | None, players: int) -> None:
    for seed in range(60):
        def one(seed: int = seed) -> Game:
            return Game(content(), map_id, seed=seed, variant=variant, players=players,
                        deciders=[decider() for _ in range(players)])

        fast = one()
        assert fastturn.why_not(fast) is None
        fast.run()
        with general_turn_only():
            general = one()
            general.run()
        assert outcome(fast) == outcome(general), seed
        assert to_json(fast.state) == to_json(general.state), seed


class IllegalCancel(KeysOnly):
    """A fixed policy whose Skull cancels an option that does not exist: the same error through both turns."""

    def decide_keys(self, game: Game, unit: str, kind: str, keys: tuple[Any, ...], min_picks: int
                    ) -> tuple[int, ...]:
        return (len(keys),) if kind == "cancel" else super().decide_keys(game, unit, kind, keys, min_picks)


def test_an_illegal_cancel_is_the_same_error_through_both_turns() -> None:
    messages = []
    for use_fast in (True, False):
        game = Game(content(), "exercise-tiger", seed=3, variant="basic-training", deciders=[IllegalCancel()])
        with pytest.raises(RuleError) as caught:
            if use_fast:
                game.run()
            else:
                with general_turn_only():
                    game.run()
        messages.append(str(caught.value))
    assert messages[0] == messages[1]


def count_turns(game: Game) -> tuple[list[int], int]:
    """(the turns played by the general turn, turns in all) for one game."""
    general: list[int] = []
    original = Game.run_turn

    def counted(self: Game) -> None:
        original(self)
        general.append(self.state.turn)

    Game.run_turn = counted  # type: ignore[method-assign]
    try:
        game.run()
    finally:
        Game.run_turn = original  # type: ignore[method-assign]
    return general, game.state.turn


def test_cards_in_play_hand_over_to_the_general_turn_and_back() -> None:
    """Advanced Training: Sectors give Specialists, RWB bonuses find Items; while a card is in play the turns are
    the general ones, and the fast turn takes over again when none is (an Item used, a Specialist lost)."""
    general_turns = fast_turns = back = 0
    for seed in range(60):
        game = new_game("exercise-tiger", "advanced-training", (), "reference", 1, seed)
        turns, total = count_turns(game)
        general_turns += len(turns)
        fast_turns += total - len(turns)
        back += bool(turns) and max(turns) < total  # fast again after general turns
    assert general_turns > 0 and fast_turns > 0 and back > 0


def test_a_state_that_is_not_plain_takes_the_general_turn_and_plays_the_same_game() -> None:
    for seed in range(40):
        def one(seed: int = seed) -> Game:
            game = new_game("exercise-tiger", "basic-training", (), "reference", 1, seed)
            game.state.units[0].specialists.append("medic")  # a card in play from the start
            game.state.hands["u1"].remove("medic")
            return game

        fast = one()
        assert fastturn.why_not(fast) is None
        assert fastturn.plain_reason(fast) == "a Unit holds cards or a kept tally"
        fast.run()
        with general_turn_only():
            general = one()
            general.run()
        assert outcome(fast) == outcome(general), seed
        assert to_json(fast.state) == to_json(general.state), seed


@pytest.mark.parametrize(("map_id", "variant", "players", "reason"), [
    ("exercise-tiger", "practice-run", 1, None),
    ("exercise-tiger", "basic-training", 3, None),
    ("exercise-tiger", "advanced-training", 1, None),
    ("omaha-beach", None, 2, None),
])
def test_why_not_reads_the_plan_and_the_deciders_only(map_id: str, variant: str | None, players: int,
                                                      reason: str | None) -> None:
    game = new_game(map_id, variant, (), "reference", players, 1)
    assert fastturn.why_not(game) == reason
    assert fastturn.plain_reason(game) is None
    mixed = Game(content(), map_id, variant=variant, players=players, seed=1,
                 deciders=[make_policy("reference")] + [make_policy("random", 1)] * (players - 1))
    assert fastturn.why_not(mixed) == (None if players == 1 else "the decider may read the Final Tally")


def test_the_plans_standing_sources_decide_what_the_fast_turn_plays() -> None:
    practice = plan_of("exercise-tiger", "practice-run")
    assert practice.simple and practice.trivial_upkeep and practice.simple_combat
    basic = plan_of("exercise-tiger", "basic-training")
    # Skulls cancel and RWB bonuses are scored; no standing source changes a query or hears an event on the path.
    assert basic.skulls_cancel and basic.rwb_mask and not basic.trivial_upkeep and basic.modified == frozenset()
    advanced = plan_of("exercise-tiger", "advanced-training")
    # Sectors change the Lock and the dice rolled, hear the Final Tally and the entering, and hold MGF.
    assert advanced.locked_dice is None and advanced.dice_rolled is None and advanced.move_heard
    assert advanced.heard("final-tally", "s2") and not advanced.heard("final-tally", "s1")
    assert not advanced.simple_combat and advanced.moves is not None
    omaha = plan_of("omaha-beach", None)
    assert omaha.capacity is None and omaha.moves is not None  # room read where a Sector changes it


def plan_of(map_id: str, variant: str | None) -> fastturn.FastPlan:
    plan = fastturn.plan_for(new_game(map_id, variant, (), "reference", 1 if map_id != "omaha-beach" else 2, 1))
    assert plan.reason is None
    return plan
