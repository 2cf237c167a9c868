"""What a map's lists bring into a game, said alike by the engine, ``dday card`` and ``dday validate``.

A map's ``vehicles:`` puts its Vehicles in the Pool, found like an Item (the scenario
tests/scenarios/local-pack/vehicle-listed-by-the-map.yaml plays it; Juno Beach's Tank, found in Sector 5 only,
is offered there and not listed: tests/scenarios/cards/juno-tank-only-in-sector-5.yaml). A Specialist a map
lists without a grade is dealt neither to a hand nor to the Pool: ``dday validate`` warns (AVAIL002) and ``dday
card`` says why, where it used to say "listed by the map".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_diagnostics import MAP, card, dday, validate

from ddaydice.dsl.loader import load
from ddaydice.interpreter.game import Game
from ddaydice.interpreter.policies.registry import make_policy

LANE = Path(__file__).resolve().parent / "scenarios" / "local-pack" / "lane-pack"


def test_a_specialist_listed_without_a_grade_is_a_warning_and_card_says_why(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = {"cards/new.yaml": card(), "maps/tiny.yaml": MAP.replace("[medic, scout]", "[medic, tester]", 1)}
    result = validate(tmp_path, monkeypatch, files, "cards/new.yaml")
    assert result.exit_code == 0, result.output
    assert ("cards/new.yaml:3:9: AVAIL002 warning: Tester ('tester') is listed by Tiny Beach but has no grade: a "
            "Specialist without a grade is never dealt") in result.output
    assert "AVAIL001" not in result.output, result.output  # the one warning that says why
    shown = dday(monkeypatch, tmp_path, "card", "tester", "--root", ".")
    assert shown.exit_code == 0, shown.output
    text = " ".join(shown.output.split())
    assert "Tiny Beach (tiny): listed by the map, but it has no grade: a Specialist without a grade" in text
    assert "listed by the map;" not in text and "can never come into play" not in text
    info = json.loads(dday(monkeypatch, tmp_path, "card", "tester", "--root", ".", "--format", "json").output)
    assert info["maps"] == [] and info["never_dealt"] == [{"map": "tiny", "name": "Tiny Beach"}]


def test_the_vehicles_a_map_lists_are_in_the_pool_and_findable() -> None:
    content, diags = load(packs=[str(LANE)])
    assert content is not None, diags
    game = Game(content, "lane", players=1, seed=1, deciders=[make_policy("random", 1)])
    assert "motorcycle" in game.state.pool
    unit = game.state.units[0]
    unit.item_points = 10
    assert ("motorcycle", 10) in game.findable(unit)
    unit.vehicle = "tank"  # one Vehicle per Unit
    assert "motorcycle" not in {c for c, _ in game.findable(unit)}


def test_card_and_validate_agree_with_the_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    """'dday card' says the map lists the Vehicle (and it is in the Pool); a Vehicle written under 'items:' gets
    a hint that names both ways in."""
    shown = dday(monkeypatch, LANE.parent, "card", "motorcycle", "--pack", "./lane-pack")
    assert shown.exit_code == 0, shown.output
    assert "Lane (lane): listed by the map" in shown.output


def test_a_vehicle_listed_as_an_item_gets_both_ways_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = validate(tmp_path, monkeypatch, {"cards/vehicles.yaml": card(kind="vehicle"),
                                              "maps/tiny.yaml": MAP.replace("items: [bazooka]", "items: [tester]")})
    assert "XREF004 map 'tiny' lists 'tester' as an item, but it is a vehicle" in result.output, result.output
    assert ("list a vehicle under 'vehicles:' (the Pool), or offer it in one Sector ('on enter: offer tester')"
            in result.output), result.output
