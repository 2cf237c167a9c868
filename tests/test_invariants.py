"""The rulebook's guarantees (rules/invariants.yaml), checked after every phase: each checker fires on a state
broken on purpose, a checked game is the same game, and a sample of games across maps, options and policies
breaks none (benchmarks/soak.py runs the 100,000)."""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import attrs
import pytest
from click.testing import CliRunner

from ddaydice.dsl.loader import Content, load
from ddaydice.interpreter.cli import main
from ddaydice.interpreter.core.state import Die, Unit
from ddaydice.interpreter.core.values import Move
from ddaydice.interpreter.policies.registry import make_policy
from ddaydice.interpreter.tools import invariants as inv
from ddaydice.interpreter.tools import simulate as sim

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from soak import sample_specs


@functools.cache
def content(*packs: str) -> Content:
    loaded, diags = load(packs=list(packs))
    assert loaded is not None, diags
    return loaded


def fresh(map_id: str = "exercise-tiger", variant: str | None = "advanced-training",
          **kw: object) -> tuple[inv.CheckedGame, inv.Watch, Unit]:
    """A checked game at its first turn's start, its Unit on its starting Sector."""
    watch = inv.Watch()
    game = inv.CheckedGame(content(), map_id, players=1, seed=3, variant=variant,
                           deciders=[make_policy("reference")], watch=watch, **kw)
    game.choose_starts()
    game.state.turn = 1
    return game, watch, game.state.units[0]


def fires(checker: str, game: inv.CheckedGame, watch: inv.Watch, phase: str) -> list[str]:
    return inv.CHECKERS[checker](game, watch, phase)


def test_every_invariant_has_its_checker_and_every_checker_is_listed() -> None:
    ids = [i.id for i in inv.invariants()]
    assert sorted(ids) == sorted(inv.CHECKERS)
    assert len(ids) == len(set(ids))
    phases = {"every", "roll", "upkeep", "purchase", "movement", "combat"}
    for i in inv.invariants():
        assert i.rule and i.source and set(i.after) <= phases, i.id


def test_resources_never_negative_fires() -> None:
    game, watch, u = fresh()
    assert fires("resources-never-negative", game, watch, "roll") == []
    u.stars = -1
    assert fires("resources-never-negative", game, watch, "roll") == ["Unit 1 has -1 stars"]


def test_alive_or_out_fires() -> None:
    game, watch, u = fresh()
    assert fires("alive-or-out", game, watch, "roll") == []
    u.soldiers, u.specialists = 0, []
    assert fires("alive-or-out", game, watch, "roll") == ["Unit 1 is in play with no Soldier (its Specialists counted)"]


def test_purchases_per_turn_fires_on_the_count_and_on_the_cards_taken() -> None:
    game, watch, u = fresh()
    u.recruited = 2
    assert fires("purchases-per-turn", game, watch, "roll") == [
        "Unit 1 recruited 2 Specialists this turn (limit 1)"]
    u.recruited = 1
    watch.begin(game)
    hand = game.state.hands[u.id]
    u.specialists += hand[:2]  # two Specialists out of the hand in one Phase 3, the count left at 1
    assert fires("purchases-per-turn", game, watch, "purchase") == [
        "Unit 1 took 2 Specialists in Phase 3 within the turn's limits (limit 1)"]
    assert fires("purchases-per-turn", game, watch, "movement") == []  # the cards taken: Phase 3 only


def test_purchases_per_turn_leaves_out_a_find_beyond_the_turns_limits() -> None:
    """Phase 3's find, then a Sector attribute's find in the same phase (Juno Beach 13's Flame-Thrower): the
    Sector's is beyond the turn's limits (rules/precedence.yaml, ruling 2.6), so the invariant, reading the same
    data as the engine, reports nothing (it counted every card but an Award's, and reported 2 Items)."""
    game, watch, u = fresh("juno-beach", None)
    watch.begin(game)
    game.state.phase = "purchase"
    bought = next(c for c in game.state.pool if game.kind_of[c] == "item")
    game.gain_card(u, bought)  # the turn's find
    u.found = 1
    sector = game.content.effects["juno-beach/s13"]
    game.context(u, u, sector, u.sector).find("flame-thrower", True)
    assert "flame-thrower" in u.items and u.found == 1
    assert fires("purchases-per-turn", game, watch, "purchase") == []
    u.items.append(next(c for c in game.state.pool if game.kind_of[c] == "item" and c != bought))
    assert fires("purchases-per-turn", game, watch, "purchase") == [
        "Unit 1 took 2 Items in Phase 3 within the turn's limits (limit 1)"]


def test_skull_cancels_a_result_fires() -> None:
    game, watch, u = fresh()
    u.tally = [Die(f, c, i) for i, (c, f) in enumerate([("red", "skull"), ("red", "courage"), ("white", "star")])]
    watch.begin(game)
    u.tally[1].cancelled = True
    assert fires("skull-cancels-a-result", game, watch, "upkeep") == []
    u.tally[1].cancelled = False  # the Skull cancelled nothing
    assert "1 Skull(s) that cancel, 2 other result(s), but 0 cancelled" in \
        fires("skull-cancels-a-result", game, watch, "upkeep")[0]
    u.tally[0].cancelled = True  # a Skull cancelled (a Skull never cancels a Skull)
    assert fires("skull-cancels-a-result", game, watch, "upkeep")[0] == "Unit 1: a Skull was cancelled"


def test_a_fourth_skull_equal_to_one_of_the_gift_cancels() -> None:
    """Ruling 1.8: a blue Skull traded in (equal in every field to the Dead Man's Gift's blue Skull) still cancels."""
    game, watch, u = fresh()
    faces = [("red", "skull"), ("white", "skull"), ("blue", "skull"), ("blue", "skull"), ("white", "two-soldiers"),
             ("blue", "tool")]
    u.tally = [Die(f, c, 4 if c == "blue" else i) for i, (c, f) in enumerate(faces)]
    watch.begin(game)
    game.upkeep_for(u)
    assert sum(d.cancelled for d in u.tally) == 1
    assert fires("skull-cancels-a-result", game, watch, "upkeep") == []


def test_black_shield_left_fires() -> None:
    game, watch, u = fresh()
    watch.begin(game)
    assert fires("black-shield-left", game, watch, "movement") == []
    u.marker = "cant-stay"  # it may not stay, and it stayed
    assert fires("black-shield-left", game, watch, "movement") == [
        f"Unit 1 stayed in {game.sectors[u.sector].name}, where it may not stay (its marker shows cant-stay)"]


def test_one_move_along_a_line_fires() -> None:
    game, watch, u = fresh()
    watch.begin(game)
    start = u.sector
    game.do_move(u, Move("advance", "s10", 0, False))  # from a first-row Sector straight to the last row
    assert fires("one-move-along-a-line", game, watch, "movement") == [
        f"Unit 1 went from {game.sectors[start].name} to Sector 10, which no line joins"]
    watch.begin(game)
    game.do_move(u, Move("lateral", start, 0, False))  # back where it started: no line either, and visited
    game.do_move(u, Move("advance", "s2", 0, False))
    broken = fires("one-move-along-a-line", game, watch, "movement")
    assert f"Unit 1 entered {game.sectors[start].name} a second time" in broken
    assert "Unit 1 moved twice this turn" in broken


def test_def_and_mgf_in_combat_fires() -> None:
    game, watch, u = fresh()
    game.state.phase = "combat"
    watch.begin(game)
    sector = game.state.sectors[u.sector]
    sector.mgf_roll, sector.mgf_turn = [3] * game.value("mgf-dice", u), 1
    due = game.value("def", u) + sum(sector.mgf_roll)
    assert "not charged its DEF + MGF (asked: nothing)" in fires("def-and-mgf-in-combat", game, watch, "combat")[0]
    u.soldiers = 50
    game.suffer(u, due - 1, "a loss skipped")
    assert f"(asked: {due - 1} (due {due}))" in fires("def-and-mgf-in-combat", game, watch, "combat")[0]
    game.suffer(u, due, "the Combat")
    assert fires("def-and-mgf-in-combat", game, watch, "combat") == []
    sector.mgf_roll = [*sector.mgf_roll, 2]  # one MGF die more than the rules give
    assert "MGF dice rolled" in " ".join(fires("def-and-mgf-in-combat", game, watch, "combat"))


def test_a_checked_game_is_the_same_game() -> None:
    spec = sim.Spec("omaha-beach", None, 2, "random", 11)
    checked = attrs.evolve(spec, check_invariants=True)
    for i in range(5):
        plain, seen = sim.play_one(content(), spec, i), sim.play_one(content(), checked, i)
        assert seen.violations == ()
        assert seen._replace(violations=()) == plain


def test_a_violation_prints_the_seed_and_a_replay_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(inv.CHECKERS, "resources-never-negative",
                        lambda game, watch, phase: ["broken on purpose"] if phase == "combat" else [])
    result = CliRunner().invoke(main, ["simulate", "exercise-tiger", "--variant", "advanced-training",
                                                       "--games", "2", "--seed", "4", "-q", "--check-invariants"])
    assert result.exit_code == 1
    seed = sim.game_seed(4, 0)
    assert f"game 0 (seed {seed}): invariant resources-never-negative broken after combat of turn 1: " \
           "broken on purpose" in result.stderr
    assert "replay: dday simulate exercise-tiger --variant advanced-training --players 1 --policy reference " \
           "--seed 4 --game 0 --check-invariants" in result.stderr
    assert "invariants   checked after every phase: " in result.stdout


def test_the_replay_command_plays_the_one_game() -> None:
    base = ["simulate", "juno-beach", "--players", "2", "--policy", "random", "--seed", "7", "-q", "--format", "json",
            "--check-invariants"]
    import json
    whole = json.loads(CliRunner().invoke(main, [*base, "--games", "3"]).output)
    one = json.loads(CliRunner().invoke(main, [*base, "--game", "2"]).output)
    assert one["games"] == 1 and whole["games"] == 3
    assert one["invariants"] == {"checked": True, "games_with_violations": 0, "violations": 0, "first": []}


@pytest.mark.parametrize("spec", sample_specs(),
                         ids=lambda s: f"{s.map_id}|{s.players}|{s.policy}|{','.join(s.options)}")
def test_a_sample_of_games_breaks_no_invariant(spec: sim.Spec) -> None:
    games = 2 if spec.policy == "heuristic" else 6
    for i in range(games):
        record = sim.play_one(content(*spec.packs), spec, i)
        assert record.violations == (), (sim.replay_command(spec, i), record.violations)
