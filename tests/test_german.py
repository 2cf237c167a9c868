"""Atlantikwall module 1, the German player: the second side's procedure (rulings: docs/rulings.md, section 11).

The module's rules are scenario files (tests/scenarios/atlantikwall/german-rule-*.yaml, run by
test_scenarios.py); what a scenario cannot set up (the start of a game, the dice he rolls, whole games on
every map with every combination of modules) is here.
"""

from __future__ import annotations

import functools
import itertools

import pytest

from ddaydice.dsl.loader import Content, load
from ddaydice.interpreter.core.api import GameView
from ddaydice.interpreter.core.decisions import Decision
from ddaydice.interpreter.core.state import Unit, digest, from_json, to_json
from ddaydice.interpreter.game import Game
from ddaydice.interpreter.policies.deciders import RandomDecider, ReferencePolicy
from ddaydice.interpreter.policies.heuristic import HeuristicPolicy

MODULES = ("german-player", "battle-conditions", "badges")


@functools.cache
def pack() -> Content:
    loaded, diags = load(packs=["atlantikwall"])
    assert loaded is not None, diags
    return loaded


def german(g: Game) -> Unit:
    (player,) = g.state.sides
    return player


@pytest.mark.parametrize(("players", "courage"), [(1, 0), (2, 3), (3, 6), (4, 9)])
def test_the_german_starts_with_4_soldiers_the_unteroffizier_and_3_courage_per_unit_after_the_first(
        players: int, courage: int) -> None:
    """"3 Courage against 2 Units, 6 Courage against 3 Units, and so on." """
    g = Game(pack(), "omaha-beach", players=players, seed=3, options=("german-player",), deciders=ReferencePolicy())
    player = german(g)
    assert (player.soldiers, player.specialists, player.courage) == (0, ["unteroffizier"], 0)
    before = [u.courage for u in g.state.units]
    for p in g.side_players() + g.order():
        g.fire("game-start", p)
    assert player.courage == courage
    assert player.soldiers == 4 and not player.sector and player.side == "german"
    assert [u.courage for u in g.state.units] == before  # the Units gain nothing


@pytest.mark.parametrize("players", [1, 3])
def test_the_german_blind_start_rolls_a_die_per_unit_one_for_soldiers_the_rest_for_courage(players: int) -> None:
    """"Roll 1d6 per Allied player: choose 1 result for your starting Soldiers; add up the others for your
    Courage. 2-player game or solitaire: roll 1d6 for your starting Soldiers." """
    class KeepLargest(ReferencePolicy):
        def decide(self, game: GameView, decision: Decision) -> tuple[int, ...]:
            if decision.kind == "choose" and decision.unit == "german":
                return (max(range(decision.size()), key=lambda i: int(decision.options[i].split()[0])),)
            return super().decide(game, decision)

    g = Game(pack(), "omaha-beach", players=players, seed=9, options=("german-blind-start",),
             deciders=KeepLargest(), trace=True)
    g.run_turn()
    (event,) = [e for e in g.state.log if e.kind == "roll-split"]
    rolls = [int(x) for x in event.detail.split("[")[1].split("]")[0].split(",")]
    assert len(rolls) == players
    assert event.detail.endswith(f"{max(rolls)} soldiers, {sum(rolls) - max(rolls)} courage")
    assert "german-player" in g.options and not any(e.kind == "gain" and e.unit == "german" and "4 soldiers" in
                                                    e.detail for e in g.state.log)


def test_the_german_rolls_red_white_and_black_dice_and_the_units_red_white_and_blue() -> None:
    g = Game(pack(), "exercise-tiger", variant="advanced-training", players=2, seed=5, options=("german-player",),
             deciders=ReferencePolicy())
    g.state.turn = 1
    g.run_phase("roll")
    assert sorted(d.colour or "" for d in german(g).tally) == ["black", "black", "red", "red", "white", "white"]
    for u in g.state.units:
        assert sorted(d.colour or "" for d in u.tally) == ["blue", "blue", "red", "red", "white", "white"]


def test_the_german_is_asked_after_the_units_and_acts_first() -> None:
    """His decider comes after the Units' (deciders[players]); in each phase he acts before them."""
    asked: list[str] = []

    class Recorder(ReferencePolicy):
        def decide(self, game: GameView, decision: Decision) -> tuple[int, ...]:
            asked.append(decision.unit)
            return super().decide(game, decision)

    g = Game(pack(), "exercise-tiger", variant="advanced-training", players=2, seed=1, options=("german-player",),
             deciders=[ReferencePolicy(), ReferencePolicy(), Recorder()])
    g.state.turn = 1
    g.run_phase("roll")
    assert asked and set(asked) == {"german"}
    g2 = Game(pack(), "exercise-tiger", variant="advanced-training", players=1, seed=1, options=("german-player",),
              deciders=ReferencePolicy(), trace=True)
    g2.run_turn()
    rolls = [e.unit for e in g2.state.log if e.kind == "tally"]
    assert rolls[:2] == ["german", "u1"]


def test_the_german_recruits_and_finds_without_a_limit_per_turn_and_only_from_his_reserve() -> None:
    g = Game(pack(), "exercise-tiger", variant="advanced-training", seed=2, options=("german-player",),
             deciders=ReferencePolicy())
    player, unit = german(g), g.state.units[0]
    player.stars = player.item_points = unit.stars = unit.item_points = 99
    g.state.turn, g.state.phase = 1, "purchase"
    mine = {c for c, _ in g.recruitable(player)}
    assert mine and all(pack().card_kinds[c] == "german-specialist" for c in mine)
    assert all(pack().card_kinds[c] == "german-item" for c, _ in g.findable(player))
    assert not {c for c, _ in g.recruitable(unit)} & mine
    got = [c for c in sorted(mine) if g.buy(player, "recruit", c)]
    assert len(got) == len(mine) >= 3  # no limit per turn
    items = [c for c, _ in g.findable(player)]
    assert all(g.buy(player, "find", c) for c in items[:3])
    assert g.buy(unit, "recruit", next(c for c, _ in g.recruitable(unit)))
    assert not g.recruitable(unit)  # the Units keep their 1 per turn


@pytest.mark.parametrize("options", [o for n in range(1, 4) for o in itertools.combinations(MODULES, n)
                                     if "german-player" in o])
def test_every_combination_with_the_german_plays_whole_games_on_every_map(options: tuple[str, ...]) -> None:
    for map_id, bm in pack().maps.items():
        players = max(bm.players[0], 1)
        for seed in range(2):
            g = Game(pack(), map_id, players=players, seed=seed, options=options,
                     variant=bm.variants[-1].id if bm.variants else None,
                     deciders=[RandomDecider(seed)] * players + [RandomDecider(seed + 7)])
            g.run()
            assert g.state.outcome in {"won", "lost"}, (map_id, options, seed)
            assert german(g).soldiers >= 0


def test_same_seed_same_game_and_a_saved_game_goes_on_identically() -> None:
    def game() -> Game:
        return Game(pack(), "omaha-beach", players=2, seed=11, options=("german-player", "badges"),
                    deciders=[RandomDecider(1), RandomDecider(2), RandomDecider(3)])

    a, b = game(), game()
    a.run()
    b.run()
    assert digest(a.state) == digest(b.state) and a.state.choices == b.state.choices
    c = game()
    for _ in range(3):
        c.run_turn()
    saved = from_json(to_json(c.state))
    assert saved.sides[0].side == "german" and digest(saved) == digest(c.state)


def test_the_heuristic_plays_the_allies_and_the_side_policy_the_german() -> None:
    wins = 0
    for seed in range(6):
        g = Game(pack(), "exercise-tiger", variant="advanced-training", seed=seed, options=("german-player",),
                 deciders=HeuristicPolicy())
        g.run()
        wins += g.state.outcome == "won"
        assert german(g).specialists != ["unteroffizier"] or german(g).dead  # he recruits
    assert wins >= 1


@pytest.mark.parametrize("extra", [(), ("battle-conditions", "badges")])
def test_solitaire_atlantikwall_plays_whole_games_on_every_one_player_map(extra: tuple[str, ...]) -> None:
    """The German against the automated Unit: every game ends, the Unit keeps no resources, and only the
    German decides (the Unit's decider is never asked)."""
    asked: set[str] = set()

    class Recorder(RandomDecider):
        def decide(self, game: GameView, decision: Decision) -> tuple[int, ...]:
            asked.add(decision.unit)
            return super().decide(game, decision)

    for map_id, bm in pack().maps.items():
        if bm.players[0] > 1:
            continue  # Operation Deadstick needs 2 players; solitaire is for 1
        for seed in range(3):
            g = Game(pack(), map_id, seed=seed, options=("solitaire-atlantikwall", *extra),
                     variant=bm.variants[-1].id if bm.variants else None, deciders=[Recorder(seed), Recorder(seed)])
            start = (g.state.units[0].soldiers, g.state.units[0].courage)
            g.run()
            assert g.state.outcome in {"won", "lost"}, (map_id, seed)
            assert (g.state.units[0].soldiers, g.state.units[0].courage) == start
    assert asked == {"german"}


def test_the_engine_plan_and_the_conflict_finder_see_actions_joined_with_and() -> None:
    """'... or discard 1 decoration and gain 1 courage to all units': the part after 'and' counts too."""
    from ddaydice.dsl import ast as dsl_ast
    from ddaydice.interpreter.game.plan import _granted_queries

    src = pack().effects["gold-wound-badge"]
    verbs = {p.statement.verb.name for clause in src.tree.clauses if not isinstance(clause.body, dsl_ast.Modifier)
             for action in clause.body.actions for o in action.options for p in o.parts()}
    assert {"sacrifice", "discard", "gain"} <= verbs
    from ddaydice.dsl.checker import Context, check_effect
    from ddaydice.dsl.parser import SourceMap, parse_effect

    tree, diags = parse_effect("use: gain 1 star or gain 1 courage and def -2 this turn", SourceMap("t.yaml"))
    assert tree is not None and not diags
    checked, diags = check_effect(tree, pack().vocab, Context("item"))
    assert not diags
    assert "def" in _granted_queries(checked)  # the grant after 'and' makes DEF a live query


def test_simulate_gives_the_german_his_own_policy() -> None:
    """--side-policy: the Units' policy and the German's can differ; by default both are --policy."""
    import json

    from click.testing import CliRunner

    from ddaydice.interpreter.cli import main

    def run(*extra: str) -> dict[str, object]:
        result = CliRunner().invoke(main, ["simulate", "exercise-fabius", "--pack", "atlantikwall", "--option",
                                           "german-player", "--games", "30", "--policy", "reference", "-q",
                                           "--format", "json", *extra])
        assert result.exit_code == 0, result.output
        data: dict[str, object] = json.loads(result.output)
        return data

    same, explicit, stronger = run(), run("--side-policy", "reference"), run("--side-policy", "heuristic")
    assert same["side_policy"] == "reference" and same["wins"] == explicit["wins"]
    assert stronger["side_policy"] == "heuristic"
    assert isinstance(stronger["wins"], int) and isinstance(same["wins"], int) and stronger["wins"] < same["wins"]
