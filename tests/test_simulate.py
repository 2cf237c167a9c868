"""dday simulate: the JSON contract, and identical results whatever --jobs is."""

from __future__ import annotations

import contextlib
import gc
import json
import random
from typing import Any

import pytest
from click.testing import CliRunner

from ddaydice.dsl.loader import load
from ddaydice.interpreter.cli import main
from ddaydice.interpreter.tools.collector import THRESHOLDS, many_games
from ddaydice.interpreter.tools.simulate import Spec, game_seed, play_one, wilson

ARGS = ["simulate", "exercise-tiger", "--variant", "practice-run", "--games", "80", "--seed", "7",
        "--policy", "reference", "--format", "json"]
TIMING = {"seconds", "games_per_s", "jobs"}


def _run(*extra: str) -> dict[str, Any]:
    result = CliRunner().invoke(main, [*ARGS, *extra])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.output)
    return data


def test_the_json_has_the_promised_fields() -> None:
    data = _run()
    for key in ("games", "wins", "win_rate", "mean_turns", "seconds", "games_per_s", "win_rate_ci95"):
        assert key in data
    assert data["games"] == 80
    assert data["win_rate"] == data["wins"] / 80
    assert data["mean_turns"] >= 1


def test_the_record_holds_the_items_and_vehicles_found_used_or_not() -> None:
    """Each game's record holds the Items and Vehicles its Units found or gained, as it holds the Specialists they
    recruited: every Item used was found first (no Unit starts with one here), and some are found and never used."""
    content, _ = load()
    assert content is not None
    spec = Spec("omaha-beach", None, 1, "casual", seed=3)
    records = [play_one(content, spec, i) for i in range(20)]
    found = [card for r in records for card in r.found]
    assert found and {content.held_as(c) for c in found} <= {"item", "vehicle"}
    for r in records:
        used = [c for c in r.items_used if content.held_as(c) == "item"]
        assert not set(used) - set(r.found), r
    data = json.loads(CliRunner().invoke(main, ["simulate", "omaha-beach", "--games", "20", "--seed", "3", "--policy",
                                                "casual", "--format", "json", "-q"]).output)
    assert sum(data["items_found"].values()) == len(found)


def test_same_seed_same_results_whatever_the_jobs() -> None:
    one = _run("--jobs", "1")
    two = _run("--jobs", "2")
    assert {k: v for k, v in one.items() if k not in TIMING} == {k: v for k, v in two.items() if k not in TIMING}


def test_another_seed_gives_other_games() -> None:
    a = _run()
    b = CliRunner().invoke(main, [*ARGS[:-4], "--seed", "8", "--policy", "reference", "--format", "json"])
    assert b.exit_code == 0
    assert json.loads(b.output)["turns_histogram"] != a["turns_histogram"]


def test_game_seeds_depend_on_the_run_seed_and_index_only() -> None:
    assert game_seed(7, 3) == game_seed(7, 3)
    assert game_seed(7, 3) != game_seed(7, 4) != game_seed(8, 3)


def test_game_seeds_are_those_of_a_generator_seeded_from_the_text() -> None:
    for run_seed in (0, 1, 7, 2**40 + 3):
        for index in range(500):
            expected = random.Random(f"ddaydice:{run_seed}:{index}").getrandbits(62)
            assert game_seed(run_seed, index) == expected


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert 0.40 < lo < 0.41 and 0.59 < hi < 0.60
    assert wilson(0, 0) == (0.0, 0.0)


def test_unknown_option_and_variant_are_usage_errors() -> None:
    bad = CliRunner().invoke(main, ["simulate", "exercise-tiger", "--option", "nope", "--games", "1"])
    assert bad.exit_code == 2
    bad = CliRunner().invoke(main, ["simulate", "exercise-tiger", "--variant", "practise-run", "--games", "1"])
    assert bad.exit_code == 2
    assert "practice-run" in bad.output


def test_sectors_are_reported_in_reading_order() -> None:
    from ddaydice.interpreter.tools.simulate import _natural

    assert sorted(["s10", "bunker", "s2", "s1", "bunker-2"], key=_natural) == ["bunker", "bunker-2", "s1", "s2", "s10"]


# ------------------------------------------------------------ the collector set for many games (tools/collector.py)
def test_many_games_sets_the_collector_and_restores_it() -> None:
    before, frozen = gc.get_threshold(), gc.get_freeze_count()
    with many_games():
        assert gc.get_threshold() == THRESHOLDS
        assert gc.get_freeze_count() > frozen or frozen > 0  # what lived before is set aside
        with many_games():  # nested (a comparison's batch in a run): one setting
            assert gc.get_threshold() == THRESHOLDS
        assert gc.get_threshold() == THRESHOLDS, "the inner block left it in force"
        cycle: list[Any] = []
        cycle.append(cycle)
        del cycle
        assert gc.collect() >= 1, "cyclic garbage is still collected"
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == frozen, "what was set aside is put back (unless somebody else had set some aside)"


@pytest.mark.parametrize(("map_id", "variant", "players", "policy"), [
    ("exercise-tiger", "advanced-training", 1, "heuristic"),
    ("omaha-beach", None, 2, "heuristic"),
    ("omaha-beach", None, 2, "novice"),
    ("omaha-beach", None, 2, "reference"),
])
def test_a_game_leaves_no_cyclic_garbage(map_id: str, variant: str | None, players: int, policy: str) -> None:
    """A game is freed by reference counting as it ends, its policies with it: nothing is left in a cycle for the
    cyclic collector to find. (A policy that held its game made one, since the game holds its policies; so did a
    nested function calling itself.)"""
    content, _ = load()
    assert content is not None
    spec = Spec(map_id, variant, players, policy, seed=5)
    play_one(content, spec, 0)  # the caches that live from game to game are filled
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        play_one(content, spec, 1)
        gc.collect()
        # (only the project's objects count: a thread another test left running, a Dask client's, may leave
        # garbage of its own at any moment)
        ours = [o for o in gc.garbage if _of_the_project(o)]
        assert ours == [], f"a game left cyclic garbage: {ours[:5]}"
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


def _of_the_project(obj: object) -> bool:
    """Whether a garbage object is one of the project's: an instance of its classes, or one of its functions."""
    module = getattr(obj, "__module__", None) if callable(obj) else type(obj).__module__
    return isinstance(module, str) and module.startswith("ddaydice")


def test_many_games_is_restored_when_a_game_fails() -> None:
    before = gc.get_threshold()
    with contextlib.suppress(RuntimeError), many_games():
        raise RuntimeError("a game failed")
    assert gc.get_threshold() == before


def test_the_games_are_the_same_with_the_collector_set_for_many() -> None:
    """Nothing in a game depends on when the collector runs: the same records, the heuristic's caches included
    (its memos and plans, which live from game to game, are what the collector walks)."""
    content, _ = load()
    assert content is not None
    spec = Spec("exercise-tiger", "advanced-training", 1, "heuristic", seed=3)
    plain = [play_one(content, spec, i) for i in range(4)]
    with many_games():
        tuned = [play_one(content, spec, i) for i in range(4)]
    assert tuned == plain


@pytest.fixture
def sigint_raises() -> Any:
    """SIGINT handled by Python's own handler, as at a terminal (a test run in the background may have it ignored)."""
    import signal

    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


def test_a_ctrl_c_during_a_game_is_taken_after_it(monkeypatch: pytest.MonkeyPatch, sigint_raises: None) -> None:
    """A KeyboardInterrupt raised inside the compiled engine may be taken by mypyc's C code for a failed allocation
    (fatal: out of memory, SIGABRT): a Ctrl-C while games are played is raised between two games, in Python. Here a
    SIGINT comes as game 1 begins: that game is played to its end, game 2 never begins, and dday simulate says
    Aborted!, exit 1."""
    import os
    import signal

    from ddaydice.interpreter.tools import simulate as sim

    games: list[Any] = []
    real = sim.game_of

    def game_of(content: Any, spec: Spec, index: int) -> Any:
        if index == 1:
            os.kill(os.getpid(), signal.SIGINT)  # a Ctrl-C, as game 1 begins
        found = real(content, spec, index)
        games.append(found[0])
        return found

    monkeypatch.setattr(sim, "game_of", game_of)
    result = CliRunner().invoke(main, ["simulate", "exercise-tiger", "--variant", "practice-run", "--games", "3",
                                       "-q"])
    assert result.exit_code == 1 and result.output.endswith("Aborted!\n"), result.output
    assert len(games) == 2 and all(g.state.outcome is not None for g in games)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # (the handler is put back)
    # The interrupt is taken once: a game played afterwards in the same process (a notebook's, a sweep's worker
    # thread's) is not interrupted at its end (it was: a Dask worker thread then hung the sweep waiting for it).
    monkeypatch.setattr(sim, "game_of", real)
    content, _ = load()
    assert content is not None
    assert sim.play_one(content, Spec("exercise-tiger", "practice-run", 1, "reference", seed=1), 0).turns > 0


def test_a_side_policy_with_no_side_to_play_is_told() -> None:
    alone = CliRunner().invoke(main, ["simulate", "exercise-tiger", "--games", "1", "-q", "--side-policy", "random"])
    assert alone.exit_code == 0, alone.output
    assert "note: --side-policy random is not used: no other side plays" in alone.output
    played = CliRunner().invoke(main, ["simulate", "omaha-beach", "--games", "1", "-q", "--side-policy", "random",
                                       "--pack", "atlantikwall", "--option", "german-player"])
    assert played.exit_code == 0 and "is not used" not in played.output, played.output


def test_an_option_or_a_pack_named_twice_is_taken_once() -> None:
    args = ["simulate", "exercise-tiger", "--games", "1", "-q", "--format", "json"]
    once = json.loads(CliRunner().invoke(main, [*args, "--option", "bazooka-joe", "--pack", "atlantikwall"]).output)
    twice = CliRunner().invoke(main, [*args, "--option", "bazooka-joe", "--option", "bazooka-joe",
                                      "--pack", "atlantikwall", "--pack", "atlantikwall"])
    assert twice.exit_code == 0, twice.output
    assert json.loads(twice.output) | {"seconds": 0, "games_per_s": 0} == once | {"seconds": 0, "games_per_s": 0}
    assert (once["options"], once["packs"]) == (["bazooka-joe"], ["atlantikwall"])  # the run says what it loaded
    text = CliRunner().invoke(main, ["simulate", "exercise-tiger", "--games", "1", "-q", "--option", "bazooka-joe",
                                     "--option", "bazooka-joe"])
    assert "options: bazooka-joe\n" in text.output, text.output


def test_games_stopped_at_the_turn_limit_are_told_apart_and_left_out_of_the_score() -> None:
    """A game the engine stops after 60 turns has no result (the rulebook has no turn limit, and counts VP when the
    game ends, by victory or defeat): it is counted lost, told apart ('unfinished'), and its score is left out of
    the score's means and of the Victory Points measure. The reference policy waits in Merville Battery's Sector 13
    (which lets a Unit stay) until the limit, piling up Soldiers: its 494 VP were averaged in as 'lost games'."""
    args = ["simulate", "merville-battery", "--games", "2", "--policy", "reference", "--option", "victory-points"]
    data = json.loads(CliRunner().invoke(main, [*args, "--format", "json"]).output)
    assert data["unfinished"] == 2 and data["wins"] == 0
    assert "victory_points" not in data
    assert data["measures"]["victory_points"]["n"] == 0
    text = CliRunner().invoke(main, args).output
    assert "unfinished   2 of the games lost had no result after 60 turns" in text
    assert "  score  " not in text
    ended = _run()
    assert ended["unfinished"] == 0 and ended["measures"]["victory_points"]["n"] == 80
