"""Players of graded skill (policies/graded.py): the expert who slips on a share of his decisions.

Rulings of the design, each tested here:
- a level's slips come from the player's own generator, seeded per game: the same seed gives the same game, and
  two players of one game never share a stream of slips;
- ``expert`` and ``skill:1`` are the heuristic policy exactly (same choices), ``skill:0`` never asks it;
- the share of decisions the expert takes is the skill;
- a higher level wins more often on the same seeds (Omaha Beach: novice well below expert).
"""

from __future__ import annotations

import functools
from typing import Any

import pytest
from click.testing import CliRunner

from ddaydice.dsl.loader import Content, load
from ddaydice.interpreter.cli import main
from ddaydice.interpreter.core.api import GameView
from ddaydice.interpreter.core.decisions import Decision
from ddaydice.interpreter.core.state import digest
from ddaydice.interpreter.game import Game
from ddaydice.interpreter.policies.graded import GradedPolicy
from ddaydice.interpreter.policies.heuristic import HeuristicPolicy
from ddaydice.interpreter.policies.names import LEVELS, POLICIES, check_policy, parse_skill
from ddaydice.interpreter.policies.registry import describe, make_policy
from ddaydice.interpreter.tools.simulate import Spec, run


@functools.cache
def content() -> Content:
    loaded, diags = load()
    assert loaded is not None, diags
    return loaded


def play(policy: str, seed: int, map_id: str = "exercise-tiger", players: int = 1) -> Game:
    g = Game(content(), map_id, players=players, seed=seed,
             deciders=[make_policy(policy, seed + k) for k in range(players)])
    g.run()
    return g


def test_the_levels_are_named_policies_in_order_of_skill() -> None:
    assert [name for name in POLICIES if name in LEVELS] == ["novice", "casual", "expert"]
    assert LEVELS["novice"] < LEVELS["casual"] < LEVELS["expert"] == 1.0
    assert parse_skill("skill:0.35") == 0.35
    assert parse_skill("heuristic") is None
    assert "slips on 25%" in describe("skill:0.75")


@pytest.mark.parametrize("name", ["skill:", "skill:x", "skill:-0.1", "skill:1.5", "skill:nan", "skill:inf",
                                  "expertise", ""])
def test_a_bad_policy_name_is_refused_with_the_reason(name: str) -> None:
    with pytest.raises(ValueError, match=r"skill|no policy"):
        check_policy(name)


def test_a_graded_game_is_the_same_for_the_same_seed_and_differs_for_another() -> None:
    a, b = play("casual", 4242, players=2), play("casual", 4242, players=2)
    assert a.state.choices == b.state.choices
    assert digest(a.state) == digest(b.state)
    c = play("casual", 4243, players=2)
    assert a.state.choices != c.state.choices


def test_two_players_of_one_game_do_not_share_their_slips() -> None:
    # Seeds of neighbouring players are neighbours (seed + k); the streams of slips must still differ.
    first, second = GradedPolicy(0.5, 10), GradedPolicy(0.5, 11)
    assert [first.rng.random() for _ in range(5)] != [second.rng.random() for _ in range(5)]
    assert [first.rng.random() for _ in range(5)] != [first.slips.rng.random() for _ in range(5)]


@pytest.mark.parametrize("name", ["expert", "skill:1"])
def test_the_expert_is_the_heuristic_policy(name: str) -> None:
    assert isinstance(make_policy(name, 3), HeuristicPolicy)
    for seed in (1, 2):
        assert play(name, seed).state.choices == play("heuristic", seed).state.choices


class _Counting(HeuristicPolicy):
    """The expert, counting the decisions he is asked."""

    calls = 0

    def decide(self, game: GameView, decision: Decision) -> tuple[int, ...]:
        _Counting.calls += 1
        return super().decide(game, decision)


class _Tally(GradedPolicy):
    """A graded player, counting the decisions put to him."""

    asked = 0

    def decide(self, game: GameView, decision: Decision) -> tuple[int, ...]:
        _Tally.asked += 1
        return super().decide(game, decision)


def _shares(skill: float, seeds: range) -> tuple[int, int]:
    """(decisions the expert took, decisions put to the graded player) over games of this skill."""
    _Counting.calls = _Tally.asked = 0
    for seed in seeds:
        Game(content(), "exercise-tiger", seed=seed, deciders=[_Tally(skill, seed, expert=_Counting())]).run()
    return _Counting.calls, _Tally.asked


def test_skill_zero_never_asks_the_expert() -> None:
    expert, asked = _shares(0.0, range(3))
    assert expert == 0 and asked > 0


def test_the_share_of_decisions_the_expert_takes_is_the_skill() -> None:
    expert, asked = _shares(0.75, range(8))
    assert asked > 200
    assert 0.68 <= expert / asked <= 0.82, (expert, asked)


def test_a_higher_level_wins_more_on_the_same_seeds() -> None:
    games = 30
    rates: dict[str, float] = {}
    for level in ("novice", "expert"):
        records, _ = run(content(), Spec("omaha-beach", None, 1, level, seed=7), games)
        rates[level] = sum(1 for r in records if r.outcome == "won") / games
    assert rates["expert"] >= rates["novice"] + 0.3, rates


def test_simulate_takes_a_level_and_refuses_a_bad_skill() -> None:
    runner = CliRunner()
    ok = runner.invoke(main, ["simulate", "exercise-tiger", "--games", "3", "--policy", "novice", "-q",
                              "--format", "json"])
    assert ok.exit_code == 0, ok.output
    bad = runner.invoke(main, ["simulate", "exercise-tiger", "--games", "3", "--policy", "skill:1.2"])
    assert bad.exit_code == 2
    assert "the skill must be from 0 to 1" in bad.output
    unknown = runner.invoke(main, ["simulate", "exercise-tiger", "--policy", "grandmaster"])
    assert unknown.exit_code == 2
    assert "no policy 'grandmaster'" in unknown.output


def test_play_auto_takes_a_level_and_refuses_a_bad_one() -> None:
    runner = CliRunner()
    result: Any = runner.invoke(main, ["play", "exercise-tiger", "--auto", "u1=skill:2", "--seed", "1"])
    assert result.exit_code == 2
    assert "--auto u1=skill:2" in result.output and "from 0 to 1" in result.output
