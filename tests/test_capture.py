"""A position captured from a game (`dday replay --until --to-scenario`, tools/capture.py) sets up the same state:
the position digest of the game and of its scenario are the same over random games of many maps and options, and
the games played on from both are the same game."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner
from ruamel.yaml import YAML
from syrupy.assertion import SnapshotAssertion

from ddaydice.dsl.loader import Content, load_cached
from ddaydice.interpreter.cli import main
from ddaydice.interpreter.core.api import GameView
from ddaydice.interpreter.core.decisions import Decision
from ddaydice.interpreter.core.state import position_digest
from ddaydice.interpreter.core.values import PHASES
from ddaydice.interpreter.game import Game
from ddaydice.interpreter.policies.registry import make_policy
from ddaydice.interpreter.tools import capture, scenario
from ddaydice.interpreter.tools.capture import draws_since_seed, parse_moment, play_until
from ddaydice.interpreter.tools.scenario_file import ScenarioFile, load_scenario

REPO = Path(__file__).resolve().parent.parent
AW = "atlantikwall"
# (map, variant, players, options): the base game, its optional rules, and Atlantikwall's modules.
CONFIGS: list[tuple[str, str | None, int, tuple[str, ...]]] = [
    ("exercise-tiger", "advanced-training", 2, ()),
    ("exercise-tiger", "practice-run", 1, ("soldier-mulligan",)),
    ("omaha-beach", None, 3, ("victory-points",)),
    ("utah-beach", None, 4, ("well-equipped", "wild-specialists")),
    ("gold-beach", "rising-def", 2, ("blind-start",)),
    ("juno-beach", None, 2, ("quartermasters-whim",)),
    ("sword-beach", None, 1, ("solitaire",)),
    ("pointe-du-hoc", None, 3, ("bazooka-joe-2",)),
    ("merville-battery", None, 2, ("german-player",)),
    ("operation-deadstick", None, 2, ("battle-conditions", "badges", "badge-of-courage")),
    ("exercise-fabius", None, 3, ("german-player", "battle-conditions", "badges", "chaotic-resupply")),
    ("omaha-beach", None, 2, ("playing-with-fire", "badges", "badge-of-assistance", "badge-of-honour")),
    ("utah-beach", None, 2, ("battle-conditions", "persistent-weather", "advanced-observation",
                             "atlantikwall-material")),
    ("exercise-tiger", "basic-training", 1, ("solitaire-atlantikwall", "german-player")),
    ("juno-beach", None, 3, ("german-player", "german-blind-start", "victory-points")),
]
GAMES = 50


@pytest.fixture(scope="module")
def content() -> Content:
    loaded, _ = load_cached(packs=[AW])
    assert loaded is not None
    return loaded


class Relay:
    """A decider that hands every decision to another, which the test chooses after the capture."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def decide(self, game: GameView, decision: Decision) -> tuple[int, ...]:
        result: tuple[int, ...] = self.inner.decide(game, decision)
        return result


def random_game(content: Content, k: int) -> tuple[Game, list[Relay]]:
    """Game ``k`` of the corpus: a configuration in turn, random players seeded from ``k``."""
    map_id, variant, players, options = CONFIGS[k % len(CONFIGS)]
    relays = [Relay(make_policy("random", 1000 * k + i)) for i in range(players + 1)]
    return Game(content, map_id, players=players, seed=7919 * k + 13, variant=variant, options=options,
                deciders=relays), relays


def captured_positions(content: Content) -> Iterator[tuple[int, Game, list[Relay], tuple[int, str]]]:
    """The corpus: each game played to an early moment (turn 1 or 2, every phase in turn); a game over by then
    is captured at turn 1's roll instead."""
    for k in range(GAMES):
        moment = (1 + k % 2, PHASES[k % len(PHASES)])
        game, relays = random_game(content, k)
        if not play_until(game, *moment) or game.state.outcome is not None:
            game, relays = random_game(content, k)
            moment = (1, "roll")
            assert play_until(game, *moment) and game.state.outcome is None
        yield k, game, relays, moment


def scenario_of(content: Content, game: Game, folder: Path, k: int) -> ScenarioFile:
    """The game's position as a scenario file, written and read back as `dday scenario run` reads it."""
    data = capture.capture_position(game, title=f"game {k}", packs=[AW])
    path = folder / f"game-{k}.yaml"
    path.write_text(capture.scenario_text(data, f"game {k}"))
    loaded, diags = load_scenario(path, content)
    assert loaded is not None and not diags, [d.message for d in diags]
    return loaded[0]


def finish(game: Game, phase: str) -> None:
    """Play on from the end of ``phase``: the rest of its turn as the turn runs it, then the game."""
    if phase != PHASES[-1]:
        for rest in PHASES[PHASES.index(phase) + 1:]:
            if game.state.outcome is not None:
                break
            game.run_phase(rest)
        game.end_of_turn()
    game.run()


def test_positions_of_50_random_games_round_trip_to_the_same_digest(content: Content, tmp_path: Path) -> None:
    seen = {"sides": 0, "decks": 0, "tally": 0, "counters": 0, "specialists": 0, "turn 2": 0, "deaths": 0}
    for k, game, _relays, moment in captured_positions(content):
        sc = scenario_of(content, game, tmp_path, k)
        again = scenario.build(sc, content)
        assert position_digest(again.state) == position_digest(game.state), (k, CONFIGS[k % len(CONFIGS)], moment)
        s = game.state
        seen["sides"] += bool(s.sides)
        seen["decks"] += bool(s.decks)
        seen["tally"] += any(u.tally for u in s.units)
        seen["counters"] += any(u.counters for u in s.units)
        seen["specialists"] += any(u.came_into_play for u in s.units)
        seen["turn 2"] += s.turn == 2
        seen["deaths"] += bool(s.deaths)
    assert all(n >= 5 for n in seen.values()), seen  # the corpus reaches what a position holds


def test_a_game_played_on_from_its_scenario_is_the_same_game(content: Content, tmp_path: Path) -> None:
    """Every tenth game of the corpus is played to its end twice from the moment captured: from the game itself
    and from its scenario, by the same new random players; both end in the same state (the generator and
    every counter were captured)."""
    for k, game, relays, moment in captured_positions(content):
        if k % 10:
            continue
        sc = scenario_of(content, game, tmp_path, k)
        again = scenario.build(sc, content)
        fresh = [make_policy("random", 99 + i) for i in range(len(relays))]
        for relay, policy in zip(relays, fresh, strict=True):
            relay.inner = policy
        finish(game, moment[1])
        twin = [Relay(make_policy("random", 99 + i)) for i in range(len(relays))]
        again.deciders = list(twin)
        finish(again, moment[1])
        assert game.state.outcome == again.state.outcome
        assert position_digest(again.state) == position_digest(game.state), k


def test_the_generator_is_captured_as_its_seed_and_the_words_drawn() -> None:
    import random

    rng = random.Random(42)
    for n in (0, 1, 623, 624, 625, 5000):
        fresh = random.Random(42)
        fresh.getrandbits(32 * n) if n else None
        assert draws_since_seed(fresh, 42) == n
        again = random.Random(42)
        capture.advance(again, n)
        assert again.getstate() == fresh.getstate()
    assert draws_since_seed(random.Random(43), 42, limit=10_000) is None
    rng.random()
    assert draws_since_seed(rng, 42) == 2  # a float is two words


@pytest.mark.parametrize("text, problem", [
    ("3", "is not TURN.PHASE"), ("3.lunch", "no phase 'lunch'"), ("0.roll", "a turn from 1 to 100"),
    ("x.roll", "is not TURN.PHASE"),
])
def test_a_moment_that_cannot_be_read_says_why(text: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        parse_moment(text)
    assert parse_moment("3.combat") == (3, "combat")


@pytest.fixture
def in_tmp(tmp_path: Path) -> Iterator[Path]:
    old = Path.cwd()
    os.chdir(tmp_path)
    try:
        yield tmp_path
    finally:
        os.chdir(old)


def _saved_game(folder: Path) -> Path:
    save = folder / "game.json"
    result = CliRunner().invoke(main, ["play", "exercise-tiger", "--variant", "advanced-training", "--players", "2",
                                       "--seed", "5", "--auto", "random", "--save", "game.json"])
    assert result.exit_code == 0, result.output
    return save


def test_dday_replay_captures_a_position_that_dday_scenario_runs(in_tmp: Path, snapshot: SnapshotAssertion) -> None:
    _saved_game(in_tmp)
    result = CliRunner().invoke(main, ["replay", "game.json", "--until", "1.purchase", "--to-scenario", "pos.yaml"])
    assert result.exit_code == 0, result.output
    assert result.output == snapshot(name="output")
    assert (in_tmp / "pos.yaml").read_text() == snapshot(name="file")
    ran = CliRunner().invoke(main, ["scenario", "run", "pos.yaml"])
    assert ran.exit_code == 0, ran.output
    # The position writes no check (its digest is a comment): it passes with a warning, and stays a starting point.
    assert "warning: this scenario checks nothing" in ran.output
    assert ran.output.endswith("1 passed, 0 failed (1 of the passed check nothing)\n"), ran.output
    explained = CliRunner().invoke(main, ["explain", "pos.yaml", "def", "for", "u1"])
    assert explained.exit_code == 0, explained.output
    assert not [p for p in in_tmp.iterdir() if p.name.startswith(".")]  # written atomically: no temporary left
    schema = json.loads((REPO / "schemas" / "scenario.json").read_text(encoding="utf-8"))
    data = YAML(typ="safe").load((in_tmp / "pos.yaml").read_text())
    assert not list(jsonschema.Draft202012Validator(schema).iter_errors(data))  # the published schema takes it


def test_a_captured_scenario_plays_on_with_steps(in_tmp: Path) -> None:
    """The rest of the turn and the next one, as steps added to the captured file."""
    _saved_game(in_tmp)
    CliRunner().invoke(main, ["replay", "game.json", "--until", "1.movement", "--to-scenario", "pos.yaml"])
    text = (in_tmp / "pos.yaml").read_text()
    (in_tmp / "on.yaml").write_text(text + "steps:\n- phase: combat\n- turn\nexpect:\n- turn: 2\n")
    ran = CliRunner().invoke(main, ["scenario", "run", "on.yaml"])
    assert ran.exit_code in {0, 1}, ran.output  # the steps run (the game may be over: 'turn' then is a check)
    assert "error" not in ran.output, ran.output


@pytest.mark.parametrize("moment, steps, turn", [
    ("1.combat", "- phase: roll\n", 2),  # the end of turn 1: the next phase is turn 2's
    ("1.upkeep", "- phase: upkeep\n", 2),  # upkeep has run: the next upkeep is turn 2's
    ("1.upkeep", "- phase: purchase\n", 1),  # purchase is still to come in turn 1
])
def test_phase_steps_after_a_captured_phase_follow_the_turn(in_tmp: Path, moment: str, steps: str,
                                                            turn: int) -> None:
    _saved_game(in_tmp)
    CliRunner().invoke(main, ["replay", "game.json", "--until", moment, "--to-scenario", "pos.yaml"])
    text = (in_tmp / "pos.yaml").read_text()
    assert "phase-done: true" in text
    (in_tmp / "on.yaml").write_text(text + f"steps:\n{steps}expect:\n- turn: {turn}\n")
    ran = CliRunner().invoke(main, ["scenario", "run", "on.yaml"])
    assert ran.exit_code == 0, ran.output


def test_a_moment_after_the_end_of_the_game_is_a_located_error(in_tmp: Path, snapshot: SnapshotAssertion) -> None:
    _saved_game(in_tmp)
    result = CliRunner().invoke(main, ["replay", "game.json", "--until", "60.roll", "--to-scenario", "pos.yaml"])
    assert result.exit_code == 1
    assert "REPLAY007" in result.output and "game.json:" in result.output
    assert result.output == snapshot
    assert not (in_tmp / "pos.yaml").exists()


@pytest.mark.parametrize("args, message", [
    (["--until", "2.roll"], "go together"),
    (["--to-scenario", "x.yaml"], "go together"),
    (["--until", "2.lunch", "--to-scenario", "x.yaml"], "no phase 'lunch'"),
])
def test_replay_capture_options_are_checked_before_the_game(in_tmp: Path, args: list[str], message: str) -> None:
    _saved_game(in_tmp)
    result = CliRunner().invoke(main, ["replay", "game.json", *args])
    assert result.exit_code == 2 and message in result.output, result.output


def test_dday_simulate_captures_game_i_of_a_run(in_tmp: Path) -> None:
    args = ["simulate", "merville-battery", "--players", "2", "--policy", "random", "--seed", "3", "--pack", AW,
            "--option", "german-player", "--game", "4", "--until", "1.upkeep"]
    result = CliRunner().invoke(main, [*args, "--to-scenario", "sim.yaml"])
    assert result.exit_code == 0, result.output
    assert "identical" in result.output
    text = (in_tmp / "sim.yaml").read_text()
    assert "--game 4 --until 1.upkeep --to-scenario sim.yaml" in text and "sides:" in text
    alone = CliRunner().invoke(main, [a for a in args if a not in {"--game", "4"}] + ["--to-scenario", "s.yaml"])
    assert alone.exit_code == 2 and "--game I" in alone.output


def _scenario(folder: Path, body: str) -> CliRunner:
    (folder / "s.yaml").write_text("scenario: t\nmap: exercise-tiger\nvariant: advanced-training\n" + body)
    return CliRunner()


def test_the_award_deck_and_the_pool_are_set_in_order(in_tmp: Path) -> None:
    body = ("units:\n  - {id: u1, awards: [victoria-cross]}\n"
            "decks: {award: [memorial-cross, legion-of-merit]}\n"
            "pool: [medic, bazooka]\n"
            "expect:\n  - award-deck: [memorial-cross, legion-of-merit]\n  - pool: [medic, bazooka]\n"
            "  - u1.awards: [victoria-cross]\n")
    ran = _scenario(in_tmp, body).invoke(main, ["scenario", "run", "s.yaml"])
    assert ran.exit_code == 0, ran.output


@pytest.mark.parametrize("body, where, message", [
    ("units:\n  - {id: u1}\ndecks: {award: [medic]}\n", "6:17:", "no card 'medic' (award)"),
    ("units:\n  - {id: u1}\npool: [medic, nothing]\n", "6:15:", "no card 'nothing'"),
    ("units:\n  - {id: u1, hand: [bazooka]}\n", "5:21:", "no card 'bazooka' (specialist)"),
    ("units:\n  - {id: u1}\ntally: {u1: [red skull die 99]}\n", "6:14:", "'die N' is a die's place"),
    ("units:\n  - {id: u1}\ngrants:\n  - {owner: bazooka, tier: cosmic, query: def, op: add, text: t, "
     "expires: never}\n", "7:", "no tier 'cosmic'"),
    ("units:\n  - {id: u1}\ngrants:\n  - {owner: bazooka, tier: items, query: def, op: add, text: t, "
     "expires: soon}\n", "7:", "a grant expires 'never'"),
    ("units:\n  - {id: u1}\nsectors: {s99: {mgf-turn: 1}}\n", "6:", "has no sector 's99'"),
    ("units:\n  - {id: u1}\ndraws: -1\n", "6:", "draws"),
])
def test_a_position_key_that_cannot_be_set_up_is_a_located_error(in_tmp: Path, body: str, where: str,
                                                                  message: str) -> None:
    ran = _scenario(in_tmp, body).invoke(main, ["scenario", "run", "s.yaml"])
    assert ran.exit_code == 2, ran.output
    assert f"s.yaml:{where}" in ran.output and message in ran.output, ran.output
    assert "Traceback" not in ran.output


@pytest.mark.parametrize("play, moment", [
    (["exercise-tiger", "--variant", "advanced-training", "--players", "3", "--seed", "21"], "1.combat"),
    (["omaha-beach", "--players", "2", "--seed", "11", "--pack", AW, "--option", "german-player", "--option",
      "battle-conditions"], "1.upkeep"),
    (["utah-beach", "--players", "2", "--seed", "2", "--pack", AW, "--option", "badges", "--option",
      "victory-points"], "3.movement"),
])
def test_play_on_writes_the_rest_of_the_game_and_the_scenario_ends_as_the_game_did(
        in_tmp: Path, play: list[str], moment: str) -> None:
    saved = CliRunner().invoke(main, ["play", *play, "--auto", "random", "--save", "game.json"])
    assert saved.exit_code == 0, saved.output
    result = CliRunner().invoke(main, ["replay", "game.json", "--until", moment, "--to-scenario", "on.yaml",
                                       "--play-on"])
    assert result.exit_code == 0, result.output
    assert "identical; played on to the end: the same" in result.output
    text = (in_tmp / "on.yaml").read_text()
    assert "fallback: none" in text and "- {outcome: " in text
    ran = CliRunner().invoke(main, ["scenario", "run", "on.yaml"])  # strict: every answer consumed, none missing
    assert ran.exit_code == 0, ran.output


def test_play_on_goes_with_to_scenario(in_tmp: Path) -> None:
    _saved_game(in_tmp)
    result = CliRunner().invoke(main, ["replay", "game.json", "--play-on"])
    assert result.exit_code == 2 and "--play-on" in result.output
