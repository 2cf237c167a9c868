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
    # a Battle Cry requirement is a check of its own (a Unit with the Courage is still refused)
    ("merville-bunker-battle-cry.yaml", "may-enter for u1 in bunker"),
    # Playing with Fire's loss: the Soldiers the rule takes (a count of the language), then the casualties
    ("playing-with-fire.yaml", "tagged explosion above 2 for u1"),
    ("playing-with-fire.yaml", "casualties for u1 from 2"),
    ("playing-with-fire.yaml", "tagged explosion above 2 for u2"),
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
    assert [s["source_name"] for s in overruled] == ["Bazooka"]
    assert data == snapshot


def test_explain_bad_query_is_a_usage_error() -> None:
    result = CliRunner().invoke(main, ["explain", str(HERE / "costs.yaml"), "def", "by", "u1"])
    assert result.exit_code == 2
    assert "NAME for UNIT" in result.output


def test_explain_count_of_an_unknown_tag_is_a_usage_error() -> None:
    result = CliRunner().invoke(main, ["explain", str(HERE / "playing-with-fire.yaml"), "tagged", "explosive",
                                       "above", "2", "for", "u1"])
    assert result.exit_code == 2
    assert "no card carries the tag 'explosive'" in result.output
