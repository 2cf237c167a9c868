"""'cost': a card's own price while it waits to be bought (docs/dsl-reference.md, docs/modding.md § 2.5).

Checked where it makes sense (a card that is bought: an Item's too, the exception to DSL116) and refused
elsewhere (DSL118); read by the engine for that card alone, for the Unit that would buy it, as a contribution of
the card's tier to the cost query; never while the card is held; the fast paths stay for cards without one. How
the example card plays is settled by docs/example-pack/field-manual/scenarios/salvaged-carbine*.yaml."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_diagnostics import bad, card, validate

from ddaydice.dsl.checker import Context, check_effect
from ddaydice.dsl.loader import Content, load
from ddaydice.dsl.parser import SourceMap, parse_effect
from ddaydice.dsl.reference import reference_content
from ddaydice.interpreter.game import Game
from ddaydice.interpreter.policies.deciders import ReferencePolicy

REPO = Path(__file__).resolve().parent.parent
MANUAL = REPO / "docs" / "example-pack" / "field-manual"


@pytest.fixture(scope="module")
def base() -> Content:
    return reference_content()


@pytest.fixture(scope="module")
def manual() -> Content:
    loaded, diags = load(extra=[MANUAL])
    assert loaded is not None, [d.message for d in diags]
    return loaded


def _codes(text: str, context: Context, content: Content) -> list[str]:
    tree, diags = parse_effect(text, SourceMap("<test>"))
    assert tree is not None, diags
    return [f"{d.code} {d.message}" for d in check_effect(tree, content.vocab, context)[1]]


@pytest.mark.parametrize("kind", ["item", "specialist", "vehicle"])
def test_a_card_that_is_bought_may_say_its_own_price(base: Content, kind: str) -> None:
    assert _codes("cost = 0 if have soldiers < 3\ncost -2 if tagged explosion >= 1", Context(kind, bought=True),
                  base) == []


@pytest.mark.parametrize(("text", "context", "message"), [
    ("cost = 0", Context("sector"), "a Sector is never bought"),
    ("cost -1", Context("rule"), "a rule is never bought"),
    ("cost -1", Context("award"), "an Award is never bought"),
    ("for all units: cost -1", Context("item", bought=True), "it takes no scope"),
    ("cost -1 once per turn", Context("item", bought=True), "it takes no limit"),
    ("use: cost -1 this turn", Context("item", bought=True), "never an action"),
    ("use: cost -1", Context("item", bought=True), "never an action"),
])
def test_where_its_own_price_makes_no_sense_it_is_refused(base: Content, text: str, context: Context,
                                                          message: str) -> None:
    found = _codes(text, context, base)
    assert len(found) == 1 and found[0].startswith("DSL118") and message in found[0], found


@pytest.mark.parametrize("text", ["cost -1d6", "cost = unlimited"])
def test_a_price_is_a_number(base: Content, text: str) -> None:
    found = _codes(text, Context("item", bought=True), base)
    assert found and found[0].startswith("DSL104"), found


def test_a_standing_change_on_an_item_is_still_dsl116(base: Content) -> None:
    found = _codes("item-cost -1", Context("item", bought=True), base)
    assert found and found[0].startswith("DSL116"), found


def test_validate_locates_it_in_a_sector_rule_with_a_hint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card("cost = 0", kind="award")})
    bad(result, "cards/new.yaml:9:7: DSL118 'cost' speaks of a card's own price")
    assert "write it on the Specialist, Item or Vehicle" in result.output, result.output


def test_it_reads_in_english(manual: Content) -> None:
    english = manual.effects["salvaged-carbine"].english
    assert english[0] == "It costs 0 while it waits to be bought if the Unit's Soldiers < 3.", english


def test_its_clause_is_never_among_the_effects_in_play(manual: Content) -> None:
    compiled = manual.effects["salvaged-carbine"].compiled
    assert not compiled.modifiers and [h.op for h in compiled.waiting] == ["set"]


def test_without_such_a_card_the_cost_queries_keep_their_fast_paths(base: Content) -> None:
    game = Game(base, "exercise-tiger", variant="advanced-training", seed=1, deciders=ReferencePolicy())
    assert game.own_prices == {}
    unit = game.state.units[0]
    cards = ["grenade", "medic"]
    assert game.card_values("item-cost", unit, cards) == [base.cards[c].cost for c in cards]


def test_with_one_the_price_follows_the_unit_that_would_buy_it(manual: Content) -> None:
    game = Game(manual, "exercise-tiger", variant="advanced-training", options=["field-manual"], seed=1,
                deciders=ReferencePolicy())
    assert set(game.own_prices) == {"salvaged-carbine"} and "item-cost" in game.live_queries
    unit = game.state.units[0]
    unit.soldiers = 5
    assert game.card_values("item-cost", unit, ["salvaged-carbine", "grenade"]) == [4, 10]
    unit.soldiers = 2
    assert game.card_values("item-cost", unit, ["salvaged-carbine", "grenade"]) == [0, 10]
    _, derivation = game.query("item-cost", unit, card="salvaged-carbine", explain=True)
    assert derivation is not None
    assert [(s.source_name, s.op, s.after) for s in derivation.steps] == \
        [("Salvaged Carbine (its own price)", "set", 0)]
    unit.items.append("salvaged-carbine")
    game.sources_changed()
    assert game.value("item-cost", unit, card="salvaged-carbine") == 4  # held: the clause says nothing
