"""Optional rules (rules/options/): the mechanisms their settings drive, checked beyond the scenario files.

Scenario files (tests/scenarios/options/) hold the rulings; these tests check what a scenario cannot say:
set-up refusals, random draws over many seeds, the CLI, content diagnostics, and that no option is a
special case of the engine's code.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from ddaydice.dsl import settings as settings_mod
from ddaydice.dsl.diagnostics import RuleError
from ddaydice.dsl.loader import Content, load
from ddaydice.interpreter.cli import main
from ddaydice.interpreter.core.option_rules import OptionRules
from ddaydice.interpreter.game import Game
from ddaydice.interpreter.mechanisms.options import score
from ddaydice.interpreter.policies.deciders import ReferencePolicy, Scripted
from ddaydice.interpreter.policies.registry import make_policy

OPTIONS = ("solitaire", "bazooka-joe", "bazooka-joe-2", "soldier-mulligan", "well-equipped", "wild-specialists",
           "quartermasters-whim", "blind-start", "victory-points")


@pytest.fixture(scope="module")
def content() -> Content:
    loaded, diags = load()
    assert loaded is not None, diags
    return loaded


def game(content: Content, map_id: str, options: tuple[str, ...], players: int = 1, seed: int = 0) -> Game:
    return Game(content, map_id, players=players, seed=seed, options=options, deciders=ReferencePolicy())


# ------------------------------------------------------------------ content
def test_every_option_of_the_issue_is_bundled(content: Content) -> None:
    assert set(OPTIONS) <= set(content.options)
    for oid in OPTIONS:
        opt = content.options[oid]
        first = opt.text.strip().splitlines()[0]
        assert 10 < len(first) <= 130, f"{oid}: the first line of text is the one-line description"
        assert opt.effect.strip() or opt.settings, f"{oid} does nothing"


def test_no_option_is_a_special_case_of_the_engine(content: Content) -> None:
    """No option id appears in the interpreter's code: every option works through its data."""
    root = Path(__file__).parents[1] / "interpreter"  # every layer of the engine, below the policies and tools
    sources = {str(path.relative_to(root)): path.read_text(encoding="utf-8") for path in root.rglob("*.py")
               if path.parent.name in {"core", "effects", "mechanisms", "phases", "game"}}
    for oid in content.options:
        for name, text in sources.items():
            assert not re.search(rf"['\"]{re.escape(oid)}['\"]", text), f"'{oid}' is named in interpreter/{name}"


def test_every_score_term_is_implemented(content: Content) -> None:
    g = game(content, "omaha-beach", ("victory-points",))
    terms = [t for t in settings_mod.SCORE_TERMS if t != "RESOURCE"]
    terms += sorted(set(content.vocab.resources.values()))
    result = score(g, [(t, 1) for t in terms])
    assert result is not None
    assert [t for t, _, _ in result.lines["u1"]] == terms


def test_every_setting_in_the_registry_is_read_by_the_mechanisms() -> None:
    # the modules' sources, read from their files (a compiled module has no source to inspect)
    root = Path(__file__).parents[1] / "interpreter"
    text = "".join((root / part).read_text(encoding="utf-8") for part in ("mechanisms/options.py",
                                                                          "core/option_rules.py"))
    for spec in settings_mod.SETTINGS:
        key = "start-" if spec.name == "start-RESOURCE" else spec.name
        assert f'"{key}' in text, (
            f"setting '{spec.name}' is read nowhere in core/option_rules.py or mechanisms/options.py")


def _validate_option(tmp_path: Path, text: str) -> tuple[int, str]:
    folder = tmp_path / "rules" / "options"
    folder.mkdir(parents=True)
    path = folder / "house-rule.yaml"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(path)])
    return result.exit_code, result.output


@pytest.mark.parametrize(("settings", "message"), [
    ("marker-table: ['chevron-9: 1 soldier']", "OPT001 'marker-table': no marker face 'chevron-9'"),
    ("marker-rols: 4", "OPT001 unknown setting 'marker-rols'"),
    ("special-items: 2 per unit", "OPT001 'special-items' takes 'map', 'all' or 'N per player'"),
    ("score: ['bunker: 20']", "OPT001 'score': no score term 'bunker'"),
    ("another-unit: myself", "OPT001 'another-unit' takes other or self or nobody"),
    ("max-players: 9", "OPT001 'max-players' must be from 1 to 4, not 9"),
])
def test_bad_settings_are_located_errors(tmp_path: Path, settings: str, message: str) -> None:
    code, out = _validate_option(tmp_path, "id: house-rule\nname: House rule\ntext: A house rule.\n"
                                 f"provenance: rulebook\nsettings:\n  {settings}\n")
    assert code == 1
    assert "house-rule.yaml:6:" in out and message in out, out


def test_a_missing_requirement_is_an_error(tmp_path: Path) -> None:
    code, out = _validate_option(tmp_path, "id: house-rule\nname: House rule\ntext: A house rule.\n"
                                 "provenance: rulebook\nrequires: [bazooka-jo]\n")
    assert code == 1
    assert "OPT002 option 'house-rule' requires 'bazooka-jo', which does not exist" in out
    assert "did you mean 'bazooka-joe'?" in out


# ------------------------------------------------------------ option sets
def test_a_requirement_is_switched_on_too(content: Content) -> None:
    g = game(content, "omaha-beach", ("bazooka-joe-2",))
    assert g.options == ["bazooka-joe-2", "bazooka-joe"]
    assert g.state.options == ["bazooka-joe-2", "bazooka-joe"]
    assert "grappling-hook" in g.state.pool


def test_options_that_set_the_same_thing_differently_cannot_be_played_together(content: Content) -> None:
    with pytest.raises(RuleError, match="'bazooka-joe' and 'quartermasters-whim' cannot be played together: "
                                        "they set 'special-items'"):
        game(content, "omaha-beach", ("bazooka-joe", "quartermasters-whim"))


def test_unknown_option_is_refused(content: Content) -> None:
    with pytest.raises(RuleError, match=r"no optional rule 'nope' \(there are: bazooka-joe, bazooka-joe-2, "):
        game(content, "omaha-beach", ("nope",))


def test_solitaire_is_for_one_player(content: Content) -> None:
    with pytest.raises(RuleError, match="'solitaire' is for at most 1 player"):
        game(content, "omaha-beach", ("solitaire",), players=2)


def test_the_option_rules_of_no_option_change_nothing(content: Content) -> None:
    rules = OptionRules.build(content, ())
    assert rules.options == () and not rules.settings
    assert rules.another_unit("award") == "other" and rules.printed_start and not rules.trading_pool


# ------------------------------------------------------------- set-up
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_wild_specialists_draw_3_3_1_by_cost_and_a_unique_per_player(content: Content, players: int) -> None:
    uniques = {c.id for c in content.cards_of("specialist") if c.grade == "unique"}
    hands_seen: set[tuple[str, ...]] = set()
    for seed in range(25):
        g = game(content, "omaha-beach", ("wild-specialists",), players=players, seed=seed)
        for u in g.state.units:
            hand = g.state.hands[u.id]
            assert len(set(hand)) == 7
            assert all(content.cards[s].grade == "regular" for s in hand)
            assert Counter(content.cards[s].cost for s in hand) == {2: 3, 3: 3, 4: 1}
            hands_seen.add(tuple(hand))
        in_pool = [p for p in g.state.pool if p in uniques]
        assert len(in_pool) == len(set(in_pool)) == players
    assert len(hands_seen) > 20  # the draws are random


@pytest.mark.parametrize(("map_id", "players"), [("omaha-beach", 1), ("omaha-beach", 3), ("merville-battery", 2)])
def test_quartermasters_whim_draws_2_special_items_per_player(content: Content, map_id: str, players: int) -> None:
    specials = {c.id for c in content.cards_of("item") if c.grade == "special"}
    regulars = {c.id for c in content.cards_of("item") if c.grade == "regular"}
    placed = {p.card for p in content.maps[map_id].placed}
    drawn: Counter[str] = Counter()
    for seed in range(25):
        g = game(content, map_id, ("quartermasters-whim",), players=players, seed=seed)
        pool = g.state.pool
        mine = [p for p in pool if p in specials]
        assert len(mine) == len(set(mine)) == 2 * players
        assert not placed & set(mine)
        assert regulars <= set(pool)
        drawn.update(mine)
    assert len(drawn) > 2 * players


def test_quartermasters_whim_in_solitaire_draws_no_unavailable_item(content: Content) -> None:
    for seed in range(40):
        pool = game(content, "omaha-beach", ("quartermasters-whim", "solitaire"), seed=seed).state.pool
        assert not {"mortar", "dispatch-case", "carrier-pigeon"} & set(pool)


def test_blind_start_adds_up_four_marker_rolls(content: Content) -> None:
    soldiers, stars = [], []
    for seed in range(400):
        u = game(content, "omaha-beach", ("blind-start",), seed=seed).state.units[0]
        assert (u.courage, u.item_points) == (0, 0)
        assert 1 + 0 <= u.soldiers <= 1 + 12 and 0 <= u.stars <= 8
        soldiers.append(u.soldiers)
        stars.append(u.stars)
    # per roll: Soldiers 1, 2, 3 (chevrons), Stars 1, 2 (arrows), nothing (shield): means 1 and 0.5
    assert abs(sum(soldiers) / 400 - 5.0) < 0.4
    assert abs(sum(stars) / 400 - 2.0) < 0.3


def test_choosing_another_start_swaps_only_the_printed_resources(content: Content) -> None:
    """Utah Beach has two starts (Sector 1: 4 Soldiers; Sector 2: 0 Soldiers and the Corporal)."""
    for options, expected in ((("well-equipped",), (0, 10)), (("blind-start",), None)):
        g = Game(content, "utah-beach", seed=3, options=options, deciders=Scripted(["Sector 2"]))
        u = g.state.units[0]
        before = (u.soldiers, u.stars, u.item_points)
        g.choose_starts()
        assert u.sector == "s2" and u.specialists == ["corporal"]
        if expected is None:  # Blind Start: nothing printed counts, the marker rolls stay
            assert (u.soldiers, u.stars, u.item_points) == before
        else:  # Well Equipped: Sector 2's printed 0 Soldiers replace Sector 1's 4; the 10 Item Points stay
            assert (u.soldiers, u.item_points) == expected


# -------------------------------------------------------------- scoring
def test_the_first_in_a_bunker_is_counted_once_per_game(content: Content) -> None:
    g = game(content, "omaha-beach", ("victory-points",), players=2)
    u1, u2 = g.state.units
    for u, turn in ((u1, 7), (u2, 9)):
        u.sector, u.visited, u.status, u.soldiers, u.courage = "bunker", ["s1", "s3", "s5", "s8", "s9", "bunker"], \
            "safe", 3, 0
        g.state.conquests.append({"unit": u.id, "bunker": "bunker", "turn": turn})
    result = score(g)
    assert result is not None
    assert result.units == {"u1": 20 + 20 + 90 + 3, "u2": 20 + 90 + 3}
    assert result.group == 113


def test_two_bunkers_conquered_in_solitaire_score_twice(content: Content) -> None:
    g = game(content, "gold-beach", ("solitaire", "victory-points"))
    u = g.state.units[0]
    u.sector, u.status, u.soldiers = "bunker-east", "safe", 0
    u.visited = ["s1", "s2", "s4", "s7", "s9", "bunker-west", "s11", "bunker-east"]
    g.state.conquests += [{"unit": "u1", "bunker": "bunker-west", "turn": 8},
                          {"unit": "u1", "bunker": "bunker-east", "turn": 10}]
    result = score(g)
    assert result is not None
    assert result.units["u1"] == 2 * 20 + 20 + 11 * 10  # the last Sector before a Bunker: Sector 11


def test_first_in_bunker_goes_to_every_unit_that_conquered_on_the_first_turn_any_did(content: Content) -> None:
    """'first-in-bunker': the Units whose conquest came on the earliest turn of all the game's conquests (a tie
    scores for each); a Unit that conquered later, or never, scores none; no conquest at all, none."""
    g = game(content, "omaha-beach", ("victory-points",), players=3)

    def firsts() -> list[int]:
        result = score(g, [("first-in-bunker", 1)])
        assert result is not None
        return [result.units[u.id] for u in g.state.units]

    assert firsts() == [0, 0, 0]
    g.state.conquests += [{"unit": "u1", "bunker": "bunker", "turn": 9}, {"unit": "u2", "bunker": "bunker", "turn": 7}]
    assert firsts() == [0, 1, 0]
    g.state.conquests.append({"unit": "u3", "bunker": "bunker", "turn": 7})
    assert firsts() == [0, 1, 1]


def test_a_game_without_a_score_table_has_no_score(content: Content) -> None:
    assert score(game(content, "omaha-beach", ("solitaire",))) is None


def test_every_option_plays_whole_games_on_every_map(content: Content) -> None:
    for map_id, bm in content.maps.items():
        for oid in content.options:
            most = OptionRules.build(content, [oid]).max_players or 4
            players = max(bm.players[0], min(2, most))
            if players > most:
                continue
            for seed in range(2):
                g = Game(content, map_id, players=players, seed=seed, options=[oid],
                         deciders=[make_policy("random", seed + k) for k in range(players)])
                assert g.run() in {"won", "lost"}


# ------------------------------------------------------------------ CLI
def test_list_rules_shows_every_option_with_a_description() -> None:
    result = CliRunner().invoke(main, ["list", "rules", "--format", "json"])
    assert result.exit_code == 0
    rows = {r["id"]: r for r in json.loads(result.output)}
    for oid in OPTIONS:
        assert rows[oid]["kind"] == "optional-rule" and rows[oid]["description"]
    text = CliRunner().invoke(main, ["list", "rules"]).output
    assert "optional rules:" in text
    assert re.search(r"victory-points\s+Victory Points\s+Score every game, won or lost", text)


@pytest.mark.parametrize("oid", OPTIONS)
def test_simulate_takes_every_option(oid: str) -> None:
    map_id = "gold-beach"
    result = CliRunner().invoke(main, ["simulate", map_id, "--games", "3", "--option", oid, "--policy", "random",
                                       "--format", "json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["options"] == [oid] and summary["games"] == 3
    assert ("victory_points" in summary) == (oid == "victory-points")


def test_simulate_reports_the_score() -> None:
    result = CliRunner().invoke(main, ["simulate", "omaha-beach", "--games", "20", "--option", "victory-points",
                                       "--option", "solitaire", "-q"])
    assert result.exit_code == 0, result.output
    assert re.search(r"score\s+group mean \d+\.\d, min \d+, max \d+", result.output)
    data = json.loads(CliRunner().invoke(main, ["simulate", "omaha-beach", "--games", "20", "--option",
                                                "victory-points", "--format", "json"]).output)
    vp = data["victory_points"]
    assert vp["group"]["min"] <= vp["group"]["mean"] <= vp["group"]["max"]
    assert set(vp) == {"group", "group_won", "group_lost", "unit"}


def test_simulate_rejects_an_unknown_option_naming_the_known_ones() -> None:
    result = CliRunner().invoke(main, ["simulate", "omaha-beach", "--games", "2", "--option", "bazoka-joe"])
    assert result.exit_code == 2
    assert "no optional rule 'bazoka-joe'" in result.output
    for oid in OPTIONS:
        assert oid in result.output


def test_simulate_tells_every_problem_of_its_set_up_at_once() -> None:
    """A bad map hides no bad option; each problem on its own line, named by the argument or option that sets it."""
    result = CliRunner().invoke(main, ["simulate", "omaha-bech", "--games", "2", "--option", "bazoka-joe",
                                       "--option", "solitaire"])
    assert result.exit_code == 2
    lines = [line.removeprefix("Error: ") for line in result.output.splitlines()]
    assert lines[-2].startswith("MAP: no map 'omaha-bech' (there are: exercise-tiger, ")
    assert lines[-2].endswith("(did you mean 'omaha-beach'?)")
    assert lines[-1].startswith("--option: no optional rule 'bazoka-joe' (there are: bazooka-joe, ")
    assert lines[-1].endswith("(did you mean 'bazooka-joe'?)")


def test_simulate_rejects_options_that_cannot_be_played_together() -> None:
    result = CliRunner().invoke(main, ["simulate", "omaha-beach", "--games", "2", "--option", "solitaire",
                                       "--players", "2"])
    assert result.exit_code == 2
    assert "'solitaire' is for at most 1 player" in result.output


def test_play_shows_the_score_at_the_end() -> None:
    result = CliRunner().invoke(main, ["play", "omaha-beach", "--seed", "4", "--auto", "reference", "--option",
                                       "victory-points"])
    assert result.exit_code == 0, result.output
    assert "Victory Points:" in result.output
    assert re.search(r"Unit 1: \d+ VP \(", result.output)
    assert re.search(r"group \(the lowest Unit\): \d+ VP", result.output)


def test_play_without_a_score_table_shows_no_score() -> None:
    result = CliRunner().invoke(main, ["play", "omaha-beach", "--seed", "4", "--auto", "reference"])
    assert result.exit_code == 0, result.output
    assert "VP" not in result.output


def test_the_documentation_describes_every_setting_score_term_and_option(content: Content) -> None:
    doc = (Path(__file__).parent.parent / "docs" / "optional-rules.md").read_text(encoding="utf-8")
    for spec in settings_mod.SETTINGS:
        assert f"`{spec.name}`" in doc, f"docs/optional-rules.md does not describe the setting '{spec.name}'"
    for term in settings_mod.SCORE_TERMS:
        if term != "RESOURCE":
            assert f"`{term}`" in doc, f"docs/optional-rules.md does not describe the score term '{term}'"
    for oid in content.options:
        assert f"`{oid}`" in doc, f"docs/optional-rules.md does not list the option '{oid}'"
    scenarios = Path(__file__).parent / "scenarios" / "options"
    for path in scenarios.glob("*.yaml"):
        assert path.stem in doc, f"docs/optional-rules.md names no ruling for {path.name}"


def test_a_scenario_may_give_a_unit_a_specialist_an_option_makes_available(content: Content, tmp_path: Path) -> None:
    from ddaydice.interpreter.tools.scenario import load_scenario

    def diagnostics(options: str) -> list[str]:
        path = tmp_path / "s.yaml"
        path.write_text(f"scenario: x\nmap: omaha-beach\noptions: {options}\nunits:\n"
                        "  - {id: u1, specialists: [general]}\n", encoding="utf-8")
        _, diags = load_scenario(path, content)
        return [d.message for d in diags]

    assert diagnostics("[bazooka-joe-2]") == []
    assert any("the General is not available on this map" in m for m in diagnostics("[]"))
    assert any("cannot be played together" in m for m in diagnostics("[bazooka-joe-2, wild-specialists]"))
