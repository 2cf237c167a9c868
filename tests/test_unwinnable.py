"""A set-up whose map cannot be won by its number of Units is told at the start (dday play, dday simulate), from the
map's declared end: Gold Beach's two objective Bunkers, each to be conquered, with one Unit and no solitaire
option (docs/optional-rules.md ruling 6)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from ddaydice.interpreter.cli import main

WARNED = ("Gold Beach cannot be won by 1 Unit(s): each of its 2 objective Bunkers (Bunker (west), Bunker (east)) "
          "must be conquered, and a Unit leaves play in the first it conquers, nothing in play letting it remain")


def dday(*args: str) -> str:
    result = CliRunner().invoke(main, list(args), prog_name="dday", catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_simulate_warns_that_one_unit_cannot_win_gold_beach_without_solitaire() -> None:
    out = dday("simulate", "gold-beach", "--players", "1", "--games", "1", "--quiet")
    assert f"warning: {WARNED} (Bunker (west): Solitaire: the Unit stays in play" in out, out


def test_simulate_json_lists_the_warning() -> None:
    summary = json.loads(dday("simulate", "gold-beach", "--players", "1", "--games", "1", "--format", "json"))
    assert len(summary["warnings"]) == 1 and summary["warnings"][0].startswith(WARNED), summary["warnings"]


@pytest.mark.parametrize("args", [("--players", "1", "--option", "solitaire"), ("--players", "2"),
                                  ("--players", "1")], ids=["solitaire", "two-units", "one-bunker-map"])
def test_no_warning_where_the_map_can_be_won(args: tuple[str, ...]) -> None:
    """With the solitaire option the lone Unit may remain in play; two Units can take a Bunker each; a map with
    one objective Bunker (Omaha Beach) is won by one Unit."""
    map_id = "omaha-beach" if args == ("--players", "1") else "gold-beach"
    summary = json.loads(dday("simulate", map_id, *args, "--games", "1", "--format", "json"))
    assert "warnings" not in summary
    assert "cannot be won" not in dday("simulate", map_id, *args, "--games", "1", "--quiet")


def test_play_warns_at_the_start() -> None:
    out = dday("play", "gold-beach", "--players", "1", "--auto", "reference", "--seed", "1")
    start = out.split("turn 1", 1)[0] if "turn 1" in out else out[:3000]
    assert f"warning: {WARNED}" in start, out[:3000]
