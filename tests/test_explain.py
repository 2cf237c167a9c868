"""`dday explain`: the derivation a rule lawyer reads, snapshot-tested on representative cases."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from syrupy.assertion import SnapshotAssertion

from ddaydice.interpreter.cli import main

HERE = Path(__file__).parent / "explain"

CASES = [
    ("general-vs-sector-7.yaml", "locked-dice for u1"),
    ("merville-11-protect.yaml", "def for u1"),
    ("bazooka-engineer-clamp.yaml", "def for u1"),
    ("medic-casualties.yaml", "casualties for u1 from 9"),
    ("costs.yaml", "item-cost for u1 of bazooka"),
    ("costs.yaml", "specialist-cost for u1 of medic"),
    ("costs.yaml", "advance-cost for u1 from 2"),
    ("costs.yaml", "may-enter for u1 in s2"),
    ("general-vs-sector-7.yaml", "may-enter for u1 in s10"),
    ("general-vs-sector-7.yaml", "locked-and-rolled for u1"),
    # the General's ceiling ('locked-dice at most 1'): the rules' 2 lowered to 1, a Climb's 0 kept
    ("general-ceiling.yaml", "locked-dice for u1"),
    ("general-ceiling.yaml", "locked-dice for u2"),
    # a Battle Cry requirement is a check of its own (a Unit with the Courage is still refused)
    ("merville-bunker-battle-cry.yaml", "may-enter for u1 in bunker"),
    # a Battle Cry the Sector moved into rules out (Crossfire): the move is the plain one, at its Courage, the same
    # test legal_moves makes (before, the explanation read the Unit's Battle Cry alone: 'costs 0 Courage')
    ("crossfire-battle-cry.yaml", "may-enter for u1 in s11"),
    # the citations of a Sector attribute (Sword Beach's Crossfire: its map's page, ruling 3.7) and of the query
    ("crossfire-battle-cry.yaml", "battle-cry-here for u1 in s11"),
    # Playing with Fire's loss: the Soldiers the rule takes (a count of the language), then the casualties
    ("playing-with-fire.yaml", "tagged explosion above 2 for u1"),
    ("playing-with-fire.yaml", "casualties for u1 from 2"),
    ("playing-with-fire.yaml", "tagged explosion above 2 for u2"),
    # an effect that reaches the subject and does not apply is listed, with why (here: its condition)
    ("engineer-not-in-a-bunker.yaml", "def for u1"),
    # a card's limit used up: the permission it gives is not given, and the explanation says why
    ("messenger-traded.yaml", "trade-specialist for u2 of messenger"),
    # a full Sector: the Unit standing there moves first in Phase 4 (ruling 3.8), and the explanation says so
    ("omaha-full-sector.yaml", "may-enter for u2 in s8"),
]


@pytest.mark.parametrize(("file", "query"), CASES, ids=[f"{f}:{q}" for f, q in CASES])
def test_explain_text(file: str, query: str, snapshot: SnapshotAssertion) -> None:
    result = CliRunner().invoke(main, ["explain", str(HERE / file), *query.split()])
    assert result.exit_code == 0, result.output
    assert result.output == snapshot


def test_explain_json(snapshot: SnapshotAssertion) -> None:
    result = CliRunner().invoke(main, ["explain", str(HERE / "merville-11-protect.yaml"), "def", "for", "u1",
                                       "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["value"] == 8
    overruled = [s for s in data["derivation"]["steps"] if s["overruled_by"]]
    assert [s["source_name"] for s in overruled] == ["Bazooka (Unit 1)"]
    assert data == snapshot


def test_explain_names_the_player_whose_card_acted() -> None:
    """A card's contribution is named with its holder, a Unit or another side's player, whether it is a standing
    modifier or what a card's use granted (the Grenadier's, the Maschinengewehr-Schütze's 'this turn' were shown
    with no owner, the Engineer's with his Unit)."""
    result = CliRunner().invoke(main, ["explain", str(HERE / "german-card-owner.yaml"), "mgf-dice", "for", "u1"])
    assert result.exit_code == 0, result.output
    assert "Grenadier (Unit 1):" in result.output
    assert "Maschinengewehr-Schütze (German player):" in result.output


def test_explain_bad_query_is_a_usage_error() -> None:
    result = CliRunner().invoke(main, ["explain", str(HERE / "costs.yaml"), "def", "by", "u1"])
    assert result.exit_code == 2
    assert "NAME for UNIT" in result.output


def test_explain_count_of_an_unknown_tag_is_a_usage_error() -> None:
    result = CliRunner().invoke(main, ["explain", str(HERE / "playing-with-fire.yaml"), "tagged", "explosive",
                                       "above", "2", "for", "u1"])
    assert result.exit_code == 2
    assert "no card carries the tag 'explosive'" in result.output


GERMAN = """\
scenario: The German beside a Unit
map: exercise-tiger
variant: advanced-training
packs: [atlantikwall]
options: [german-player]
units:
  - {id: u1, sector: s1, soldiers: 10, items: [grenade]}
sides:
  - {id: german, soldiers: 4, specialists: [pionier]}
"""


@pytest.mark.parametrize(("query", "message"), [
    # a query whose base is a Sector's value needs a Unit (standing in a Sector) or a Sector named
    ("def", "write: def for UNIT [in SECTOR]"),
    ("mgf-dice", "write: mgf-dice for UNIT [in SECTOR]"),
    ("def of grenade", "def takes no 'of' (write: def for UNIT [in SECTOR])"),
    ("def --format json", "write: def for UNIT [in SECTOR]"),
    ("def for german", "german stands in no Sector: write: def for german in SECTOR"),
    ("locked-and-rolled", "write: locked-and-rolled for UNIT"),
    # a clause the query does not take, or lacks
    ("def for u1 from 3", "def takes no 'from'"),
    ("def for u1 for u1", "'for' twice in query"),
    ("def for u1 in s1 at s2", "'at' twice in query"),
    ("item-cost for u1", "write: item-cost for UNIT of CARD"),
    ("casualties for u1", "write: casualties for UNIT from N"),
    ("soldier-count for u1 in s2", "soldier-count takes no 'in'"),
    # a card the query does not price
    ("item-cost for u1 of medic", "item-cost prices no specialist ('medic' is one); "
                                  "did you mean 'specialist-cost for u1 of medic'?"),
    ("specialist-cost for u1 of grenade", "specialist-cost prices no item ('grenade' is one); "
                                          "did you mean 'item-cost for u1 of grenade'?"),
    # unknown names, with the names there and the closest
    ("def for u9", "no Unit 'u9' in this scenario (Units: u1, german)"),
    ("def for U1", "no Unit 'U1' in this scenario (Units: u1, german); did you mean 'u1'?"),
    ("def for u1 in s99", "no Sector 's99' on Exercise Tiger; did you mean 's9'?"),
    ("item-cost for u1 of granade", "no card 'granade' in the content loaded; did you mean 'grenade'?"),
    ("deff for u1", "unknown query 'deff'; did you mean 'def'?"),
    ("tagged explosion for u9", "no Unit 'u9' in this scenario"),
])
def test_explain_a_query_it_cannot_ask_is_a_usage_error(tmp_path: Path, query: str, message: str) -> None:
    file = tmp_path / "german.yaml"
    file.write_text(GERMAN, encoding="utf-8")
    result = CliRunner().invoke(main, ["explain", str(file), *query.split()])
    assert result.exit_code == 2, (result.output, result.exception)
    assert message in result.output
    assert isinstance(result.exception, SystemExit)  # no traceback


@pytest.mark.parametrize("query", ["specialist-cost for german of pionier", "item-cost for u1 of grenade",
                                   "def for german in s1", "casualties for german from 5", "soldier-count for u1"])
def test_explain_the_forms_a_query_takes(tmp_path: Path, query: str) -> None:
    file = tmp_path / "german.yaml"
    file.write_text(GERMAN, encoding="utf-8")
    result = CliRunner().invoke(main, ["explain", str(file), *query.split()])
    assert result.exit_code == 0, result.output


def test_a_scenario_check_of_a_query_it_cannot_ask_fails_at_its_line(tmp_path: Path) -> None:
    file = tmp_path / "german.yaml"
    file.write_text(GERMAN + "expect:\n  - query def: 2\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["scenario", "run", str(file)])
    assert result.exit_code == 1, (result.output, result.exception)
    assert "german.yaml:11:16: write: def for UNIT [in SECTOR]" in result.output


def test_an_effect_that_does_not_apply_is_listed_with_why() -> None:
    """'My card did nothing' reads apart from 'my card is not there': the Engineer's 'def -5 if bunker' outside a
    Bunker is not applied, its condition does not hold (text and JSON)."""
    args = ["explain", str(HERE / "engineer-not-in-a-bunker.yaml"), "def", "for", "u1"]
    text = CliRunner().invoke(main, args).output
    assert "not applied: Engineer (Unit 1) (specialists): def -5 if bunker  [its condition does not hold]" in text
    data = json.loads(CliRunner().invoke(main, [*args, "--format", "json"]).output)
    assert data["value"] == 10
    assert data["derivation"]["not_applied"] == [{"source": "engineer", "source_name": "Engineer (Unit 1)",
                                                  "tier": "specialists", "text": "def -5 if bunker",
                                                  "reason": "its condition does not hold"}]


def test_the_clause_not_applied_is_the_one_whose_condition_failed() -> None:
    """Two clauses of a card that read alike ('def -1 if not bunker', 'def -1 if bunker'): outside a Bunker the
    second is not applied, and the explanation names that one (found by its place in the effect, not by its text)."""
    result = CliRunner().invoke(main, ["explain", str(HERE / "twin-clauses.yaml"), "def", "for", "u1"])
    assert result.exit_code == 0, result.output
    assert "not applied: Twin Jeep (Unit 1) (items-vehicles): def -1 if bunker  [its condition does not hold]" \
        in result.output, result.output
