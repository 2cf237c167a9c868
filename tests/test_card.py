"""dday card ID: one card's text, effect, English, provenance, pack and where it can come into play."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from pack_kit import card as pack_card
from pack_kit import make_pack

from ddaydice.interpreter.cli import main

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _at_repo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)  # file paths print relative to the repository


@pytest.mark.parametrize("card", ["medic", "bangalore-torpedo", "legion-of-merit"])
def test_card(card: str, snapshot: object) -> None:
    result = CliRunner().invoke(main, ["card", card])
    assert result.exit_code == 0, result.output
    assert result.output == snapshot


def test_an_unknown_card_is_a_usage_error_with_a_suggestion(snapshot: object) -> None:
    result = CliRunner().invoke(main, ["card", "medik"], prog_name="dday")
    assert result.exit_code == 2
    assert "did you mean 'medic'?" in result.output
    assert result.output == snapshot


def test_a_reconstruction_is_flagged() -> None:
    text = CliRunner().invoke(main, ["card", "legion-of-merit"]).output
    assert "[RECONSTRUCTED: not an official card]" in text
    assert "rulebook" in CliRunner().invoke(main, ["card", "medic"]).output.split("provenance", 1)[1][:20]


def test_json_says_where_a_card_comes_into_play() -> None:
    result = CliRunner().invoke(main, ["card", "dexedrine", "--format", "json"])
    assert result.exit_code == 0, result.output
    info = json.loads(result.output)
    maps = {m["map"]: m for m in info["maps"]}
    listed = {m for m, entry in maps.items() if entry["as_listed"]["available"]}
    assert listed == {"gold-beach", "juno-beach", "merville-battery", "operation-deadstick"}
    assert "placed in Sector 9" in maps["merville-battery"]["as_listed"]["why"]
    # every Special Item is in the Pool with Bazooka Joe, whatever the map's list
    [joe] = [o for o in maps["sword-beach"]["options"] if o["options"] == ["bazooka-joe"]]
    assert joe["why"] == ["with the optional rule Bazooka Joe"]
    assert info["solitaire"] is True


def test_unavailable_in_solitaire_is_said() -> None:
    info = json.loads(CliRunner().invoke(main, ["card", "war-correspondent", "--format", "json"]).output)
    assert info["solitaire"] is False
    [juno] = [m for m in info["maps"] if m["map"] == "juno-beach"]
    [solo] = [o for o in juno["options"] if o["options"] == ["solitaire"]]
    assert solo["available"] is False
    text = CliRunner().invoke(main, ["card", "war-correspondent"]).output
    assert "not available in solitaire" in text and "not with the optional rule Solitaire" in text


def test_a_variant_that_leaves_a_card_out_says_so() -> None:
    info = json.loads(CliRunner().invoke(main, ["card", "scout", "--format", "json"]).output)
    [tiger] = [m for m in info["maps"] if m["map"] == "exercise-tiger"]
    by_variant = {v["variant"]: v for v in tiger["variants"]}
    assert by_variant["practice-run"]["available"] is False
    assert by_variant["advanced-training"]["why"] == ["listed by the variant",
                                                      "named by the effect of Exercise Tiger, Sector 2"]


def test_another_sides_card_has_its_kinds_name_its_price_and_comes_in_with_his_optional_rule() -> None:
    """The German's Dog (a German Item): the kind's declared name, its price in Item Points (a kind held as an Item),
    and the set-ups where the German player's optional rule deals it into his Reserve; before, 'cost 5 None',
    the kind's id and 'this card can never come into play'."""
    result = CliRunner().invoke(main, ["card", "dog", "--pack", "atlantikwall"])
    assert result.exit_code == 0, result.output
    text = result.output
    assert "kind        German Item\n" in text
    assert "cost        5 Item Points\n" in text
    assert "never come into play" not in text
    assert "only with an optional rule:" in text and "The German player (Atlantikwall)" in text
    info = json.loads(CliRunner().invoke(main, ["card", "dog", "--pack", "atlantikwall", "--format", "json"]).output)
    assert (info["kind"], info["kind_name"], info["cost_unit"]) == ("german-item", "German Item", "Item Points")
    omaha = next(m for m in info["maps"] if m["map"] == "omaha-beach")
    reserve = [why for o in omaha["options"] if o["available"] for why in o["why"]]
    assert "in the German player's Reserve" in reserve
    start = json.loads(CliRunner().invoke(main, ["card", "unteroffizier", "--pack", "atlantikwall",
                                                 "--format", "json"]).output)
    assert any("joins the German player at the start" in why for m in start["maps"] for o in m["options"]
               for why in o["why"])


def test_a_packs_badge_only_in_its_own_rule_comes_in_with_that_rule_and_the_badges_together(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pack's Badge 'only-in' the pack's own optional rule is dealt with that rule and the Badges rule (which brings
    the Badge deck) on together: no single rule brings it, and `dday card` called it 'can never come into play'
    while a scenario with both rules found it in the deck."""
    pack = make_pack(tmp_path, "hedge-pack", {"badges.yaml": "kind: badge\ncards:\n" + pack_card(
        "hedge-badge", "use during movement: advance-cost -2 this turn", cost=0, grade=None).replace(
        "    cost: 0\n", "    only-in: [hedge]\n")})
    (pack / "pack.yaml").write_text((pack / "pack.yaml").read_text(encoding="utf-8") + "requires: [atlantikwall]\n",
                                    encoding="utf-8")
    (pack / "rules" / "options").mkdir(parents=True)
    (pack / "rules" / "options" / "hedge.yaml").write_text(
        "id: hedge\nname: Hedgerows\ntext: The pack's cards join the game.\nprovenance: reconstructed\n"
        "note: a test\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["card", "hedge-badge", "--pack", "hedge-pack"])
    assert result.exit_code == 0, result.output
    assert "can never come into play" not in result.output
    assert "only with the optional rules Hedgerows and Badges together" in result.output
    info = json.loads(CliRunner().invoke(main, ["card", "hedge-badge", "--pack", "hedge-pack", "--format",
                                                "json"]).output)
    omaha = next(m for m in info["maps"] if m["map"] == "omaha-beach")
    both = [o for o in omaha["options"] if o["available"]]
    assert [o["name"] for o in both] == ["Omaha Beach with Hedgerows and Badges"]
    assert both[0]["why"] == ["in the Badges deck"]
