"""dday conflicts: every kind of pair, the false positives it must not report, and the report itself.

Small content trees are written inline (the bundled rules/ plus a few cards and one or two maps), so each
test states the situation it checks in the content language.
"""

from __future__ import annotations

import functools
import json
import shutil
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from ddaydice.dsl.conflicts import Conflict, Report, analyse, compact_names, setups
from ddaydice.dsl.loader import Content, load
from ddaydice.dsl.places import bundled_root
from ddaydice.interpreter.cli import main
from ddaydice.interpreter.core.precedence import Contribution, combine

REPO = Path(__file__).resolve().parent.parent

MAP = """\
id: test-map
name: Test Map
provenance: reconstructed
note: a map made up for the tests
specialists: {specialists}
items: {items}
{extra}
sectors:
  - id: s1
    name: Sector 1
    row: 1
    def: [3]
    start: {{soldiers: 4}}
    provenance: reconstructed
    effect: |
{s1}
  - id: s2
    name: Sector 2
    row: 2
    def: [5]
    provenance: reconstructed
    effect: |
{s2}
  - id: bunker
    name: Bunker
    row: 3
    def: [9]
    bunker: true
    cost: 4
    provenance: reconstructed
    effect: |
{bunker}
lines:
  - {{from: [s1], to: [s2], kind: advance, cost: 1}}
  - {{from: [s2], to: [bunker], kind: advance}}
"""


def _indent(text: str) -> str:
    return textwrap.indent(textwrap.dedent(text).strip() or "# nothing", " " * 6)


def write_map(root: Path, *, map_id: str = "test-map", s1: str = "", s2: str = "", bunker: str = "",
              specialists: str = "[]", items: str = "[]", extra: str = "") -> None:
    text = MAP.format(s1=_indent(s1), s2=_indent(s2), bunker=_indent(bunker), specialists=specialists,
                      items=items, extra=textwrap.dedent(extra).strip())
    text = text.replace("id: test-map\nname: Test Map", f"id: {map_id}\nname: {map_id.replace('-', ' ').title()}")
    (root / "maps").mkdir(exist_ok=True)
    (root / "maps" / f"{map_id}.yaml").write_text(text, encoding="utf-8")


def write_cards(root: Path, kind: str, cards: dict[str, str]) -> None:
    lines = [f"kind: {kind}", "cards:"]
    for cid, effect in cards.items():
        lines += [f"  - id: {cid}", f"    name: {cid.replace('-', ' ').title()}", f"    text: The {cid}.",
                  "    provenance: rulebook", "    effect: |", _indent(effect)]
        if kind != "award":
            lines.append("    cost: 3")
        lines.append("    grade: " + {"specialist": "regular", "item": "special", "vehicle": "regular",
                                      "award": "award"}[kind])
    (root / "cards").mkdir(exist_ok=True)
    (root / "cards" / f"{kind}s.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty content tree with the bundled rules (but no optional rule), as the working directory."""
    shutil.copytree(bundled_root() / "rules", tmp_path / "rules", ignore=shutil.ignore_patterns("options"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def report_of(root: Path) -> tuple[Content, Report]:
    content, diags = load(root)
    assert content is not None, [f"{d.file}:{d.line}: {d.message}" for d in diags]
    return content, analyse(content)


def between(report: Report, a: str, b: str | None) -> list[Conflict]:
    """The pairs whose sides are (owned by) these two effects, in either order."""
    def owners(c: Conflict) -> set[str]:
        out = {m.owner for m in c.a.members}
        if c.b is not None:
            out |= {m.owner for m in c.b.members}
        return out

    wanted = {a} | ({b} if b else set())
    return [c for c in report.conflicts if owners(c) == wanted and (b is not None or c.b is None)]


# ------------------------------------------------------------------ (a) same tier
def test_two_sets_in_the_same_tier_with_no_stated_order(tree: Path) -> None:
    write_cards(tree, "specialist", {"alpha": "locked-dice = 1", "beta": "locked-dice = 3"})
    write_map(tree, specialists="[alpha, beta]")
    _, report = report_of(tree)
    [c] = between(report, "alpha", "beta")
    assert c.kind == "same-tier"
    assert c.winner == "later"
    assert c.value is None  # 1 or 3, depending on which came into play last
    assert sorted((o.low, o.high) for o in c.outcomes) == [(1, 1), (3, 3)]
    assert "within a tier: when the effect came into play, then its id" in c.rules


def test_two_sets_in_the_same_tier_in_play_from_the_start_go_by_id(tree: Path) -> None:
    write_map(tree, s2="locked-dice = 0", extra="rules: |\n  locked-dice = 3\n")
    _, report = report_of(tree)
    [c] = between(report, "test-map/s2", "test-map/rules")
    assert c.kind == "same-tier"
    # both are in play from the start: by id, 'test-map/rules' applies before 'test-map/s2'
    assert c.value == "0"
    assert len(c.outcomes) == 1
    assert "test-map/rules before test-map/s2" in c.resolution


# ------------------------------------------------------------------ (b) permissions
def test_a_forbid_against_an_allow_of_the_same_permission(tree: Path) -> None:
    write_cards(tree, "specialist", {"alpha": "use during movement: sacrifice self, allow stay this turn"})
    write_map(tree, specialists="[alpha]", s2="forbid stay")
    _, report = report_of(tree)
    [c] = between(report, "test-map/s2", "alpha")
    assert (c.kind, c.winner, c.value) == ("permission", "b", "allowed")
    assert c.rules[0].startswith("Awards > Items & Vehicles > Specialists > Sector attributes > game rules")
    assert c.sectors == ("Sector 2",)


def test_no_battle_cry_here_against_a_card_that_grants_a_battle_cry(tree: Path) -> None:
    write_cards(tree, "item", {"gizmo": "use: rwb battle-cry"})
    write_map(tree, items="[gizmo]", s2="forbid battle-cry-here")
    _, report = report_of(tree)
    [rolled] = between(report, "test-map/s2", "rwb:battle-cry")
    [card] = between(report, "test-map/s2", "gizmo")
    for c in (rolled, card):
        assert (c.kind, c.winner) == ("permission", "a")
        assert c.rules[0].startswith("an effect that names what it overrides beats the default order")
    assert card.b is not None
    assert card.b.via is not None and "Battle Cry RWB" in card.b.via
    assert (card.b.source_tier, card.b.tier) == ("items-vehicles", "rules")  # the RWB's change is the rules'


def test_requirements_against_what_ignores_them(tree: Path) -> None:
    write_cards(tree, "vehicle", {"medevac": "for units here: ignore sacrifices"})
    write_cards(tree, "award", {"medal": "use after final-tally: find 1 vehicle free"})
    write_map(tree, s2="require sacrifice 1 specialist")
    _, report = report_of(tree)
    [c] = between(report, "test-map/s2", "medevac")
    assert (c.kind, c.winner) == ("permission", "b")
    assert c.where == "a Unit moving into Sector 2 from Sector 1; in Sector 2 itself"
    [cry] = between(report, "test-map/s2", "rwb:battle-cry")
    assert cry.winner == "b"


def test_a_find_against_no_finding_here(tree: Path) -> None:
    """The engine asks 'find' for every find but an Award's (ruling 10.3; the scenario
    rulings/special-find-no-items-here.yaml): an Item's find and the Special Find RWB's lose to 'forbid find', an
    Award's goes through."""
    write_cards(tree, "award", {"medal": "use after final-tally: find 1 item free"})
    write_cards(tree, "item", {"crate": "use: find 1 item"})
    write_map(tree, items="[crate]", s1="forbid find")
    _, report = report_of(tree)
    [c] = between(report, "test-map/s1", "medal")
    assert (c.kind, c.winner, c.value) == ("permission", "b", None)
    assert c.rules[0].startswith("Awards > Items & Vehicles > Specialists > Sector attributes > game rules")
    assert "without asking finding Items" in c.resolution
    for other in ("crate", "rwb:special-find"):
        [c] = between(report, "test-map/s1", other)
        assert (c.kind, c.winner, c.value) == ("permission", "a", "not allowed"), other
        assert c.rules == ("an effect that names what it overrides beats the default order (it names what it "
                           "forbids)",)


def test_a_forbid_against_the_actions_that_ask_it(tree: Path) -> None:
    """A card's re-roll asks the permission to re-roll a Skull where the Unit stands: 'forbid reroll-skull' wins
    whatever the card's rank (ruling 7.4), but for an Award's, which asks no permission (ruling 7.5: Awards
    override everything); a card that allows it is a pair of its own, by tier."""
    write_cards(tree, "specialist", {"corporal": "use once per turn after final-tally: reroll 1 die unlocked"})
    write_cards(tree, "vehicle", {"jeep": "for units here: use once per turn after final-tally: reroll 1 die"})
    write_cards(tree, "award", {"medal": "use after final-tally: reroll 2 die",
                                "charm": "use after final-tally: allow reroll-skull this turn",
                                "motor-pool": "use after final-tally: find 1 vehicle free"})
    write_map(tree, specialists="[corporal]", s2="forbid reroll-skull")
    _, report = report_of(tree)
    for card, tier in [("corporal", "Specialists"), ("jeep", "Items & Vehicles")]:
        [c] = between(report, "test-map/s2", card)
        assert (c.kind, winner(c), c.value, c.sectors) == ("permission", "test-map/s2", "not allowed",
                                                           ("Sector 2",)), card
        assert f"although {tier} rank above Sector attributes" in c.resolution
        assert c.outcomes and c.outcomes[0].flag is False
    [medal] = between(report, "test-map/s2", "medal")  # ruling 7.5: the engine re-rolls the Skull (the scenario
    # rulings/award-re-rolls-a-skull-anywhere.yaml)
    assert (medal.kind, winner(medal), medal.value) == ("permission", "medal", None)
    assert "without asking re-rolling Skulls" in medal.resolution
    [allowed] = between(report, "test-map/s2", "charm")
    assert (allowed.kind, winner(allowed), allowed.value) == ("permission", "charm", "allowed")
    assert not between(report, "charm", "medal")  # an allow agrees with what asks it
    shown = CliRunner().invoke(main, ["conflicts", "--root", "."])
    assert "Re-rolling Skulls: Test Map, Sector 2 forbids it; Corporal's 'reroll 1 die unlocked' asks it" in \
        " ".join(shown.output.split())


def test_a_re_roll_of_other_faces_does_not_ask_the_skulls_permission(tree: Path) -> None:
    """A re-roll whose face filter names only other faces ('reroll 1 die courage') never meets a Skull, so it
    does not ask 'reroll-skull' and 'forbid reroll-skull' is no pair with it; a filter that names Skulls among
    others, or only colours, still is."""
    write_cards(tree, "specialist", {"corporal": "use once per turn after final-tally: reroll 1 die courage"})
    # (Items: an Award's re-roll asks no permission at all, ruling 7.5)
    write_cards(tree, "item", {"medal": "use after final-tally: reroll 2 die star tool",
                               "charm": "use after final-tally: reroll 1 die courage skull",
                               "ribbon": "use after final-tally: reroll 1 die red"})
    write_map(tree, specialists="[corporal]", items="[medal, charm, ribbon]", s2="forbid reroll-skull")
    _, report = report_of(tree)
    assert not between(report, "test-map/s2", "corporal")
    assert not between(report, "test-map/s2", "medal")
    for card in ("charm", "ribbon"):
        [c] = between(report, "test-map/s2", card)
        assert (c.kind, winner(c), c.value) == ("permission", "test-map/s2", "not allowed"), card


def test_the_bundled_skulls_that_cannot_be_re_rolled_against_the_cards_that_re_roll() -> None:
    """Utah Beach Sector 6 and the Minefield ('Skulls can't be re-rolled here') against the Corporal, the Jeep and
    the Expert Marksman Badge: the Sector wins, as the engine plays it (rulings/skull-not-re-rolled-by-a-card.yaml).
    The German player's Unteroffizier re-rolls the German's own dice, in no Sector: no pair."""
    content, diags = load(packs=["atlantikwall"])
    assert content is not None, diags
    report = analyse(content, ["utah-beach", "sword-beach"])
    for forbid in ("utah-beach/s6", "sword-beach/attribute:minefield"):
        for card in ("corporal", "jeep", "expert-marksman-badge"):
            [c] = between(report, forbid, card)
            assert (c.kind, winner(c), c.value) == ("permission", forbid, "not allowed"), (forbid, card)
        assert not between(report, forbid, "unteroffizier")


# ------------------------------------------------------------------ (c) values
def test_a_set_against_a_change_from_a_lower_tier(tree: Path) -> None:
    write_cards(tree, "specialist", {"alpha": "def -2"})
    write_cards(tree, "item", {"gizmo": "use if not bunker: def = 0 this turn"})
    write_map(tree, specialists="[alpha]", items="[gizmo]", s2="def +2")
    _, report = report_of(tree)
    [c] = between(report, "alpha", "gizmo")
    assert (c.kind, c.winner, c.value) == ("value", "b", "0")
    assert "additive changes accumulate; a set from a higher tier replaces them" in c.rules
    [s] = between(report, "test-map/s2", "gizmo")
    assert (s.kind, s.value, s.winner) == ("value", "0", "b")


def test_a_change_from_a_higher_tier_applies_on_top_of_a_set(tree: Path) -> None:
    write_cards(tree, "award", {"medal": "use after final-tally: def -4 this turn"})
    write_map(tree, s2="def = 7")
    _, report = report_of(tree)
    [c] = between(report, "test-map/s2", "medal")
    assert (c.kind, c.value, c.winner) == ("value", "3", "b")


def test_a_ceiling_against_a_set_above_it_and_not_one_below_it(tree: Path) -> None:
    """'locked-dice at most 1' (a Specialist) lowers a Sector's 'locked-dice = 3' to 1 and is told as a pair; a
    Sector's 'locked-dice = 0' already meets it in either order: no pair (ruling 7.1)."""
    write_cards(tree, "specialist", {"alpha": "for all units: locked-dice at most 1"})
    write_map(tree, specialists="[alpha]", s1="locked-dice = 0", s2="locked-dice = 3")
    _, report = report_of(tree)
    [c] = between(report, "test-map/s2", "alpha")
    assert (c.kind, c.value, c.winner) == ("value", "1", "b")
    assert "holds it to at most 1" in c.resolution
    assert not between(report, "test-map/s1", "alpha")


def test_the_engine_applies_a_ceiling_in_its_place_in_the_order() -> None:
    """A ceiling lowers what comes before it to its bound and keeps a lower value; a higher tier's set after it
    has the last word."""
    def contribution(tier: int, op: str, value: int) -> Contribution:
        return Contribution(f"s{tier}", f"s{tier}", tier, f"t{tier}", op, value, (0, f"s{tier}"))

    assert combine(2, [contribution(1, "at-most", 1)])[0] == 1
    assert combine(2, [contribution(0, "set", 0), contribution(1, "at-most", 1)])[0] == 0
    assert combine(2, [contribution(0, "set", 3), contribution(1, "at-most", 1)])[0] == 1
    assert combine(2, [contribution(1, "at-most", 1), contribution(2, "set", 3)])[0] == 3


def test_a_cards_own_price_against_the_changes_of_its_cost(tree: Path) -> None:
    """A card's own price ('cost = 0 if ...') is a change of the query that prices a card of its kind, in the
    card's tier, read while it waits to be bought: before the cards in play of its tier. An Item's own price
    meets the changes of item-cost (a Specialist's from a lower tier, a Vehicle's set of the same tier, an Award's
    from a higher one), never those of specialist-cost; each resolution is what the engine computes
    (test_the_engine_prices_a_card_as_the_report_says)."""
    write_cards(tree, "item", {"carbine": "cost = 0 if have soldiers < 3\nuse: gain 2 soldiers"})
    write_cards(tree, "specialist", {"quartermaster": "for all units: item-cost -2",
                                     "recruiter": "specialist-cost -1"})
    write_cards(tree, "vehicle", {"car": "for units here: item-cost = 2"})
    write_cards(tree, "award", {"medal": "use during purchase: item-cost -5 this turn",
                                "motor-pool": "use after final-tally: find 1 vehicle free"})  # the car comes
    write_map(tree, specialists="[quartermaster, recruiter]", items="[carbine]")
    _, report = report_of(tree)
    [lower] = between(report, "quartermaster", "carbine")
    assert (lower.kind, lower.query, winner(lower), lower.value) == ("value", "item-cost", "carbine", "0")
    assert "Items & Vehicles rank above Specialists" in lower.resolution
    [same] = between(report, "car", "carbine")
    assert (same.kind, winner(same), same.value) == ("same-tier", "car", "2")
    assert "Carbine applies first (a card's own price is read before the cards in play)" in same.resolution
    [higher] = between(report, "medal", "carbine")
    assert (higher.kind, winner(higher), higher.value) == ("value", "medal", "0")
    assert not between(report, "recruiter", "carbine")
    shown = CliRunner().invoke(main, ["conflicts", "--root", "."])
    assert shown.exit_code == 0, shown.output
    assert "It costs 0 while it waits to be bought if the Unit's Soldiers < 3.  [cost = 0]" in shown.output


@pytest.mark.parametrize(("held", "steps", "soldiers", "price"), [
    ("specialists: [quartermaster]", "", 2, 0),   # Specialists' -2 (3 -> 1), then the Item's own 0
    ("specialists: [quartermaster]", "", 5, 1),   # its condition fails: the Specialists' -2 alone
    ("vehicle: car", "", 2, 2),                   # its own price first (0), then the Vehicle's = 2 (not 0)
    ("awards: [medal]", "  - use: medal\n", 2, 0),  # its own 0, then the Award's -5, never below 0
    ("specialists: [recruiter]", "", 2, 0),       # specialist-cost changes do not price an Item
])
def test_the_engine_prices_a_card_as_the_report_says(tree: Path, held: str, steps: str, soldiers: int,
                                                      price: int) -> None:
    """The engine's item-cost of the Item with an own price, with each card the report pairs it with in play."""
    from ddaydice.interpreter.tools.scenario import run
    from ddaydice.interpreter.tools.scenario_file import load_scenario

    write_cards(tree, "item", {"carbine": "cost = 0 if have soldiers < 3\nuse: gain 2 soldiers"})
    write_cards(tree, "specialist", {"quartermaster": "for all units: item-cost -2",
                                     "recruiter": "specialist-cost -1"})
    write_cards(tree, "vehicle", {"car": "for units here: item-cost = 2"})
    write_cards(tree, "award", {"medal": "use during purchase: item-cost -5 this turn"})
    write_map(tree, specialists="[quartermaster, recruiter]", items="[carbine]")
    content, _ = report_of(tree)
    scenario = tree / "price.yaml"
    steps = steps or "  - at: purchase\n"
    scenario.write_text(f"scenario: the price\nmap: test-map\nphase: purchase\nunits:\n"
                        f"  - {{id: u1, sector: s1, soldiers: {soldiers}, {held}}}\n"
                        f"steps:\n{steps}expect:\n  - query item-cost for u1 of carbine: {price}\n")
    loaded, diags = load_scenario(scenario, content)
    assert loaded is not None and not diags, diags
    result, _ = run(loaded[0], content, str(scenario), doc=loaded[1])
    assert result.error is None and result.passed, result


REPLACING_CARDS = {
    "specialist": {"sarge": "on casualties if have courage >= 2: instead, lose 2 courage",
                   "hero": "on casualties: absorb courage stars",
                   "cook": "on upkeep: gain 1 soldier"},
    "vehicle": {"truck": "on casualties: gain 1 courage"},  # a tier above the Specialists', acting while held
    "item": {"flask": "use when casualties: instead, lose 1 stars"},
}


def write_replacing_cards(root: Path) -> None:
    for kind, cards in REPLACING_CARDS.items():
        write_cards(root, kind, cards)
    write_map(root, specialists="[sarge, hero, cook]", items="[flask]", extra="vehicles: [truck]")


def test_a_replacement_against_the_other_effects_of_its_event(tree: Path) -> None:
    """'instead' on an event about to happen (casualties): its triggers run lowest tier first, then the uses
    offered at it, and the first replacement stops the event. A replacement is paired with every other effect of
    its event: of the same tier, either may come first; of a higher tier, the lower acts first; a use comes after
    every trigger. Effects that only act on the event, or on another event, are no pair ('instead' on an event
    that has happened when its triggers run is refused by the checker)."""
    write_replacing_cards(tree)
    _, report = report_of(tree)
    [same] = between(report, "sarge", "hero")
    assert (same.kind, same.winner, same.query) == ("replacement", None, "on casualties")
    assert "Same tier: whichever came into play first acts first" in same.resolution
    assert "the Unit is spared suffering the casualties and Hero does not run" in same.resolution
    [tiers] = between(report, "sarge", "truck")
    assert (tiers.kind, winner(tiers)) == ("replacement", "sarge")
    assert tiers.resolution.startswith("Sarge acts first (Specialists rank below Items & Vehicles)")
    assert "Truck does not run" in tiers.resolution
    [use] = between(report, "hero", "flask")
    assert (use.kind, winner(use)) == ("replacement", "flask")
    assert use.resolution.startswith("Hero acts first (a use is offered after every trigger): Hero acts on the")
    [choice] = between(report, "sarge", "flask")
    assert winner(choice) == "sarge" and "Flask is not offered" in choice.resolution
    assert not between(report, "hero", "truck")  # both only act on the event: no disagreement
    assert not [c for c in report.conflicts if "cook" in {m.owner for m in c.a.members}
                | {m.owner for m in (c.b.members if c.b else ())}]  # another event's trigger meets none
    assert {c.kind for c in report.conflicts} == {"replacement"}
    shown = CliRunner().invoke(main, ["conflicts", "--root", "."])
    assert shown.exit_code == 0, shown.output
    assert "[on casualties if have courage >= 2: instead, lose 2" in shown.output  # the clause as written
    assert "(e) a replacement against another effect of its event: 5" in shown.output  # and Truck / Flask


@pytest.mark.parametrize(("start", "courage", "soldiers"), [
    (3, 1, 5),  # Sarge replaces the 3 casualties for 2 Courage: the Truck never runs (else 2 Courage)
    (0, 1, 2),  # no Courage to pay: the 3 casualties fall, and the Truck acts on them (0 + 1 Courage)
])
def test_the_engine_runs_the_effects_of_an_event_as_the_report_says(tree: Path, start: int, courage: int,
                                                                     soldiers: int) -> None:
    """Sarge (Specialists) acts before the Truck (a Vehicle): when he replaces the casualties, the Truck hears
    nothing; when his condition fails, the casualties fall and the Truck acts on them."""
    from ddaydice.interpreter.tools.scenario import run
    from ddaydice.interpreter.tools.scenario_file import load_scenario

    write_replacing_cards(tree)
    content, _ = report_of(tree)
    scenario = tree / "event.yaml"
    scenario.write_text(f"scenario: an event replaced\nmap: test-map\nphase: combat\nunits:\n"
                        f"  - {{id: u1, sector: s1, soldiers: 5, courage: {start}, specialists: [sarge], "
                        f"vehicle: truck}}\n"
                        f"steps:\n  - phase: combat\n"
                        f"expect:\n  - u1.courage: {courage}\n  - u1.soldiers: {soldiers}\n")
    loaded, diags = load_scenario(scenario, content)
    assert loaded is not None and not diags, diags
    result, _ = run(loaded[0], content, str(scenario), doc=loaded[1])
    assert result.error is None and result.passed, result


def winner(c: Conflict) -> str:
    """The owner of the side that has the last word."""
    side = c.a if c.winner == "a" else c.b
    assert side is not None
    return side.members[0].owner


def test_a_set_against_a_set_across_tiers(tree: Path) -> None:
    write_cards(tree, "specialist", {"alpha": "for all units: locked-dice = 1"})
    write_map(tree, specialists="[alpha]", s2="locked-dice = 0")
    _, report = report_of(tree)
    [c] = between(report, "test-map/s2", "alpha")
    assert (c.kind, c.winner, c.value) == ("value", "b", "1")


# ------------------------------------------------------------------ (d) overrides
def test_an_override_against_what_it_overrules_and_a_tier_it_names_in_vain(tree: Path) -> None:
    write_cards(tree, "item", {"gizmo": "use: def -3 this turn", "torch": "use if bunker: def -10 this turn"})
    write_cards(tree, "award", {"medal": "use after final-tally: def -4 this turn"})
    write_map(tree, items="[gizmo, torch]", s2="protect def against items-vehicles specialists")
    _, report = report_of(tree)
    [c] = between(report, "test-map/s2", "gizmo")
    assert (c.kind, c.winner, c.value) == ("override", "a", "5")  # Sector 2's printed DEF stays
    assert c.rules == ("an effect that names what it overrides beats the default order",)
    assert not between(report, "test-map/s2", "torch")  # only in a Bunker: it never reaches Sector 2
    assert not between(report, "test-map/s2", "medal")  # Awards are not named: nothing is overruled
    [idle] = between(report, "test-map/s2", None)
    assert idle.kind == "idle-override"
    assert "Specialists" in idle.disagree and "the rest of it does" in idle.resolution


def test_an_override_with_no_target_at_all(tree: Path) -> None:
    write_map(tree, s2="protect def against specialists")
    _, report = report_of(tree)
    [idle] = between(report, "test-map/s2", None)
    assert idle.kind == "idle-override"
    assert "never overrules anything" in idle.resolution


GUARDED = {"in one": "mgf-dice = 0 against raising this turn",
           "in two": "mgf-dice = 0 this turn, protect mgf-dice against raising this turn"}


def _guarded_pairs(root: Path, silence: str) -> set[tuple[str, str, str, str | None, str | None]]:
    write_cards(root, "specialist", {"gunner": "mgf-dice +2"})
    write_cards(root, "item", {"grenade": f"use: {silence}"})
    write_cards(root, "award", {"medal": "use: mgf-dice +1 this turn"})
    write_map(root, specialists="[gunner]", items="[grenade]", s2="mgf-dice = 3")
    _, report = report_of(root)
    return {(c.kind, c.a.members[0].owner, c.b.members[0].owner if c.b else "", winner(c) if c.winner else None,
             c.value) for c in report.conflicts}


def test_a_set_and_a_separate_protection_against_raising_are_one_guarded_set(tree: Path) -> None:
    """'mgf-dice = 0, protect mgf-dice against raising' is the guarded set 'mgf-dice = 0 against raising' in two
    statements (ruling 7.3; core/precedence.py): a raise of any tier is overruled and the MGF stays at the 0 the
    clause sets, never 'a set against an add' that the add wins, and the engine agrees."""
    two = _guarded_pairs(tree, GUARDED["in two"])
    assert ("override", "grenade", "medal", "grenade", "0") in two
    assert ("override", "grenade", "gunner", "grenade", "0") in two
    assert not {p for p in two if p[0] == "value" and "grenade" in p[1:3]}
    assert two == _guarded_pairs(tree, GUARDED["in one"])
    shown = CliRunner().invoke(main, ["conflicts", "--root", "."])
    assert "overruled, and the number of MGF dice stays at 0, as Grenade sets it" in shown.output


@pytest.mark.parametrize("form", sorted(GUARDED))
def test_the_engine_keeps_the_guarded_set_as_the_report_says(tree: Path, form: str) -> None:
    """The Grenade's silence, then the Medal's +1 (an Award, a tier above): the MGF stays at 0 either way."""
    from ddaydice.interpreter.tools.scenario import run
    from ddaydice.interpreter.tools.scenario_file import load_scenario

    _guarded_pairs(tree, GUARDED[form])
    content, _ = report_of(tree)
    scenario = tree / "silence.yaml"
    scenario.write_text("scenario: a silence, then a raise\nmap: test-map\nphase: combat\nunits:\n"
                        "  - {id: u1, sector: s2, items: [grenade], awards: [medal]}\n"
                        "steps:\n  - use: grenade\n  - use: medal\n"
                        "expect:\n  - query mgf-dice for u1: 0\n")
    loaded, diags = load_scenario(scenario, content)
    assert loaded is not None and not diags, diags
    result, _ = run(loaded[0], content, str(scenario), doc=loaded[1])
    assert result.error is None and result.passed, result


# ------------------------------------------------------------------ what must not be reported
def test_effects_that_agree_or_only_add_up_are_not_pairs(tree: Path) -> None:
    write_cards(tree, "specialist", {"alpha": "def -1", "beta": "def -2", "gamma": "locked-dice = 1",
                                     "delta": "for all units: locked-dice = 1"})
    write_map(tree, specialists="[alpha, beta, gamma, delta]", s2="forbid find")
    _, report = report_of(tree)
    assert not between(report, "alpha", "beta")
    assert not between(report, "gamma", "delta")


def test_sector_attributes_of_different_sectors_or_maps_never_meet(tree: Path) -> None:
    write_map(tree, s1="locked-dice = 0", s2="locked-dice = 3")
    write_map(tree, map_id="other-map", s1="locked-dice = 4")
    _, report = report_of(tree)
    assert report.conflicts == ()


def test_a_card_meets_only_the_maps_where_it_can_come_into_play(tree: Path) -> None:
    write_cards(tree, "specialist", {"alpha": "for all units: locked-dice = 1"})
    write_map(tree, specialists="[alpha]", s2="locked-dice = 0")
    write_map(tree, map_id="other-map", s2="locked-dice = 0")
    _, report = report_of(tree)
    assert [c.map_id for c in between(report, "test-map/s2", "alpha")] == ["test-map"]
    assert not between(report, "other-map/s2", "alpha")


def test_a_card_named_by_a_sector_effect_is_available(tree: Path) -> None:
    write_cards(tree, "specialist", {"alpha": "for all units: locked-dice = 1"})
    write_map(tree, s1="on enter: recruit alpha free", s2="locked-dice = 0")
    content, report = report_of(tree)
    assert between(report, "test-map/s2", "alpha")
    [as_listed] = setups(content, "test-map")
    assert as_listed.cards["alpha"] == ("named by the effect of Test Map, Sector 1",)


def test_conditions_that_cannot_hold_together_never_meet(tree: Path) -> None:
    write_cards(tree, "specialist", {"alpha": "for all units: locked-dice = 1", "beta": "def -5 if bunker"})
    write_cards(tree, "item", {"gizmo": "use if not bunker: def = 0 this turn"})
    write_map(tree, specialists="[alpha, beta]", items="[gizmo]", s2="locked-dice = 3 unless in-play alpha",
              bunker="def = 20")
    _, report = report_of(tree)
    assert not between(report, "test-map/s2", "alpha")  # 'unless the General is in play' never meets him
    assert not between(report, "beta", "gizmo")  # only in a Bunker / never in a Bunker
    assert not between(report, "test-map/bunker", "gizmo")  # the Bangalore-like item is not for Bunkers
    assert between(report, "test-map/bunker", "beta")  # but the Engineer-like Specialist is


def test_a_vehicle_never_meets_a_bunker(tree: Path) -> None:
    write_cards(tree, "vehicle", {"panzer": "for units here: def -2"})
    write_cards(tree, "award", {"medal": "use after final-tally: find 1 vehicle free"})
    write_map(tree, s2="protect def against items-vehicles", bunker="protect def against items-vehicles")
    _, report = report_of(tree)
    assert [c.kind for c in between(report, "test-map/s2", "panzer")] == ["override"]
    assert not between(report, "test-map/bunker", "panzer")


def test_a_vehicles_units_here_never_reach_a_sector_that_forbids_vehicles(tree: Path) -> None:
    write_cards(tree, "vehicle", {"jeep": "for units here: allow stay"})
    write_cards(tree, "award", {"medal": "use after final-tally: find 1 vehicle free"})
    write_map(tree, s1="forbid stay", s2="forbid stay\nforbid vehicle-here")
    _, report = report_of(tree)
    assert [c.sectors for c in between(report, "test-map/s1", "jeep")] == [("Sector 1",)]
    assert not between(report, "test-map/s2", "jeep")


def test_a_random_attribute_meets_only_the_sectors_that_roll_its_table(tree: Path) -> None:
    extra = """\
    attributes:
      - {id: high-ground, name: High Ground, text: No dice are Locked., effect: "locked-dice = 0"}
    tables:
      - {id: t, name: Table, results: [high-ground, high-ground, high-ground, high-ground, high-ground, high-ground]}
    """
    write_map(tree, s1="locked-dice = 3", s2="on first-enter: roll-attribute t\nlocked-dice = 2", extra=extra)
    _, report = report_of(tree)
    assert not between(report, "test-map/s1", "test-map/attribute:high-ground")
    [c] = between(report, "test-map/s2", "test-map/attribute:high-ground")
    assert c.kind == "same-tier"
    [attribute] = [side for side in (c.a, c.b) if side and side.members[0].owner.endswith("high-ground")]
    assert attribute.where == "a Random Attribute; it can be rolled in Sector 2"


def test_a_variant_that_leaves_an_effect_out_is_named(tree: Path) -> None:
    extra = """\
    variants:
      - {id: easy, name: Easy, text: No Sector attributes., ignore: [attributes]}
    """
    write_cards(tree, "specialist", {"alpha": "for all units: locked-dice = 1"})
    write_map(tree, specialists="[alpha]", s2="locked-dice = 0", extra=extra)
    _, report = report_of(tree)
    [c] = between(report, "test-map/s2", "alpha")
    assert c.not_in == (("test-map", ("in Easy",)),)


# ------------------------------------------------------------------ the bundled content
@functools.cache
def bundled() -> tuple[Content, Report]:
    content, diags = load()
    assert content is not None, diags
    return content, analyse(content)


def test_the_bundled_report_names_the_interactions_the_rulebook_talks_about() -> None:
    _, report = bundled()
    def overruled(map_id: str, *, listed: bool) -> set[str]:
        return {c.b.members[0].owner for c in report.conflicts if c.map_id == map_id and c.kind == "override"
                and c.b is not None and (not c.only_in) == listed}

    assert overruled("merville-battery", listed=True) == {"bangalore-torpedo", "tank"}
    # the Bazooka and the Gammon Bomb reach Merville only when an optional rule puts every Special Item in play
    assert overruled("merville-battery", listed=False) == {"bazooka", "gammon-bomb"}
    [bazooka] = between(report, "merville-battery/s11", "bazooka")
    assert bazooka.only_in == (("merville-battery", ("with Bazooka Joe", "with Bazooka Joe (all Specialists too)",
                                                     "with The Quartermaster's Whim")),)
    assert overruled("operation-deadstick", listed=True) == {"bangalore-torpedo", "bazooka", "gammon-bomb", "tank"}
    assert between(report, "operation-deadstick/attribute:crossfire", "dexedrine")
    assert between(report, "sword-beach/attribute:crossfire", "rwb:battle-cry")
    # the General's "Lock only 1 die" is a ceiling (ruling 7.1): Sector 7's 0 already meets it, so no pair
    assert not between(report, "exercise-tiger/s7", "general")
    # the Engineer and the Flame-Thrower act only in a Bunker: Sector 11 is not one
    owners = {m.owner for c in report.conflicts for side in (c.a, c.b) if side for m in side.members}
    assert "engineer" not in owners and "flame-thrower" not in owners


def test_a_silenced_mgf_overrules_the_german_s_mgf_dice() -> None:
    """The Grenadier's and the Grenade's 'protect mgf-dice = 0 against raising' against what the German player
    (Atlantikwall, in play with his optional rule, his Reserve's cards too) adds to MGF: each is an override
    the silence wins, whatever the tiers, and the MGF stays at 0."""
    content, diags = load(packs=["atlantikwall"])
    assert content is not None, diags
    report = analyse(content, ["merville-battery"])
    found = {(c.a.members[0].owner, c.b.members[0].owner): c for c in report.conflicts
             if c.kind == "override" and c.b is not None}
    for silence, adds in [("grenadier", "maschinengewehr-schutze"), ("grenadier", "mg42"), ("grenade", "mg42"),
                          ("grenade", "maschinengewehr-schutze"), ("mortar", "tracer-rounds")]:
        c = found[(silence, adds)]
        assert (c.query, c.winner, c.value) == ("mgf-dice", "a", "0"), c.resolution
        assert "lets nothing raise it" in c.disagree
    # reported once, as the override: never also as a set against an add that the report would resolve otherwise
    plain = {(c.a.members[0].owner, c.b.members[0].owner) for c in report.conflicts
             if c.kind != "override" and c.b is not None}
    assert not {p for p in plain if "grenadier" in p and "mg42" in p}


def _contribution(tier: int, op: str, value: int | bool | None, order: int, protects: tuple[str, ...] = (),
                  tier_name: str = "") -> Contribution:
    return Contribution(f"x{order}", f"x{order}", tier, tier_name, op, value, (order, f"x{order}"), protects)


def test_every_resolution_the_report_states_is_what_the_engine_computes() -> None:
    content, report = bundled()
    tiers = {t.id: i for i, t in enumerate(content.precedence.tiers)}
    checked = 0
    for c in report.conflicts:
        if c.b is None or c.kind in {"idle-override"} or not c.outcomes:
            continue
        info = content.vocab.queries.get(c.query)
        if info is None:
            continue
        for o in c.outcomes:
            sides = [c.a, c.b] if o.first == "a" else [c.b, c.a]
            if c.kind == "override":
                prot, other = c.a, c.b
                assert other.amount is not None
                for amount in sorted(set(other.amount)):
                    setting = prot.value.split(" against ", 1)[0].partition(" = ")[2]  # 'protect Q = N against'
                    value, _ = combine(o.base or 0, [
                        _contribution(tiers[prot.tier], "protect", int(setting) if setting else None, 0,
                                      tuple(prot.value.split(" against ", 1)[1].split())),
                        _contribution(tiers[other.tier], other.op, amount, 1, tier_name=other.tier)],
                        info.minimum)
                    assert value == o.base, c.resolution
                checked += 1
                continue
            if o.flag is not None:
                contribs = [_contribution(tiers[s.tier], s.op, None, i) for i, s in enumerate(sides)]
                value, _ = combine(not o.flag, contribs, info.minimum)
                # a permission, read by its truth (compiled, 1 or 0: core/precedence.py)
                assert bool(value) is o.flag, c.resolution
                checked += 1
                continue
            assert o.low is not None and o.high is not None
            assert sides[0].amount is not None and sides[1].amount is not None
            for x in sorted(set(sides[0].amount)):
                for y in sorted(set(sides[1].amount)):
                    contribs = [_contribution(tiers[sides[0].tier], sides[0].op, x, 0),
                                _contribution(tiers[sides[1].tier], sides[1].op, y, 1)]
                    value, _ = combine(o.base if o.base is not None else 5, contribs, info.minimum)
                    assert isinstance(value, int) and o.low <= value <= o.high, c.resolution
            checked += 1
    assert checked >= 10


def test_the_bundled_report(snapshot: object, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    result = CliRunner().invoke(main, ["conflicts"])
    assert result.exit_code == 0, result.output
    assert result.output == snapshot


def test_the_json_of_a_small_content_tree(tree: Path, snapshot: object) -> None:
    write_cards(tree, "specialist", {"alpha": "for all units: locked-dice = 1",
                                     "beta": "use during movement: sacrifice self, allow stay this turn"})
    write_cards(tree, "item", {"gizmo": "use if not bunker: def = 0 this turn", "bomb": "use: def -1d6 this turn"})
    write_map(tree, specialists="[alpha, beta]", items="[gizmo, bomb]",
              s1="locked-dice = 0\nforbid stay", s2="protect def against items-vehicles specialists")
    result = CliRunner().invoke(main, ["conflicts", "--root", str(tree), "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert {c["kind"] for c in data} == {"permission", "value", "override", "idle-override"}
    assert result.output == snapshot


# ------------------------------------------------------------------ the command
def test_usage_errors_exit_2(tree: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["conflicts", "no-such-file.yaml"]).exit_code == 2
    assert runner.invoke(main, ["conflicts", "--map", "no-such-map"]).exit_code == 2
    assert runner.invoke(main, ["conflicts", "--format", "xml"]).exit_code == 2
    assert runner.invoke(main, ["conflicts", "--root", str(tree / "nowhere")]).exit_code == 2


def test_content_errors_are_printed_like_validate_and_exit_1(tree: Path) -> None:
    bad = tree / "bad.yaml"
    bad.write_text("kind: item\ncards:\n  - id: oops\n    name: Oops\n    text: x\n    provenance: rulebook\n"
                   "    cost: 3\n    effect: |\n      use: def -2 thsi turn\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["conflicts", str(bad)])
    assert result.exit_code == 1
    assert "bad.yaml:9:" in result.output


def test_a_path_is_analysed_on_top_of_the_bundled_content(tree: Path) -> None:
    extra = tree / "specialists.yaml"
    extra.write_text("kind: specialist\ncards:\n  - id: drill-sergeant\n    name: Drill Sergeant\n    text: x\n"
                     "    provenance: rulebook\n    cost: 3\n    grade: unique\n"
                     "    effect: |\n      for all units: dice-rolled = 6\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["conflicts", str(extra), "--format", "json"])
    assert result.exit_code == 0, result.output
    mine = [c for c in json.loads(result.output) if "drill-sergeant" in json.dumps(c)]
    # on no map's list: he meets Exercise Tiger's 'roll only 5 dice' only when an optional rule brings
    # every Unique Specialist into play
    assert [(c["map"], c["b"]["sources"][0]["owner"]) for c in mine] == [("exercise-tiger", "drill-sergeant")]
    assert "with Bazooka Joe (all Specialists too)" in mine[0]["only_in"]["exercise-tiger"]


def test_an_optional_rule_that_makes_every_special_item_available(tree: Path) -> None:
    (tree / "rules" / "options").mkdir()
    (tree / "rules" / "options" / "armoury.yaml").write_text(
        "id: armoury\nname: Armoury\ntext: Every Special Item is available.\nprovenance: rulebook\n"
        "settings:\n  special-items: all\n", encoding="utf-8")
    write_cards(tree, "item", {"gizmo": "use: def -3 this turn"})
    write_map(tree, s2="protect def against items-vehicles")
    _, report = report_of(tree)
    [c] = between(report, "test-map/s2", "gizmo")
    assert c.only_in == (("test-map", ("with Armoury",)),)


def test_compact_names() -> None:
    assert compact_names(["Sword Sector 1", "Sword Sector 2", "Sword Sector 3", "Sword Sector 5"]) == \
        "Sword Sectors 1 to 3 and 5"
    assert compact_names(["Pointe-du-Hoc, Sector 9", "Pointe-du-Hoc, Sector 10"]) == "Pointe-du-Hoc: Sectors 9 and 10"
    assert compact_names(["Bunker"]) == "Bunker"


def test_cards_of_a_deck_drawn_one_a_turn_never_meet_unless_one_persists() -> None:
    """Two Weather cards (Fog: no Locks; Clear Skies: 3 Locks) are never in play together: one Battle Condition is
    drawn a turn, and with persistent weather a Weather card replaces the last. A Weather card meets a regular
    Battle Condition (it stays beside the turn's card)."""
    from ddaydice.dsl.conflicts import _Analyser

    content, diags = load(packs=["atlantikwall"])
    assert content is not None, diags
    an = _Analyser(content)
    assert an.exclusive("fog", "clear-skies")
    assert not an.exclusive("storm", "heavy-resistance")  # weather beside a regular condition
    assert not an.exclusive("fog", "medic")  # not the same deck
    pairs = [({m.owner for m in c.a.members}, {m.owner for m in c.b.members}) for c in analyse(content).conflicts
             if c.b is not None]
    assert not [p for p in pairs if {"fog", "clear-skies"} <= p[0] | p[1] and ("fog" in p[0]) != ("fog" in p[1])]


_OPS = st.sampled_from(["add", "set", "at-most", "forbid", "allow", "protect"])


@st.composite
def _contributions(draw: st.DrawFn) -> list[Contribution]:
    """A few contributions of random tiers, orders (ties included) and operations; a protection names tiers or
    raising, and may set the value it guards."""
    out = []
    for n in range(draw(st.integers(0, 6))):
        op = draw(_OPS)
        tier = draw(st.integers(0, 3))
        protects = tuple(draw(st.lists(st.sampled_from(["t0", "t1", "t2", "t3", "raising"]), max_size=2))) \
            if op == "protect" else ()
        value = draw(st.integers(-4, 4)) if op in {"add", "set", "at-most"} else None
        if op == "protect" and draw(st.booleans()):
            value = draw(st.integers(0, 4))
        out.append(Contribution(f"s{n}", f"name {n}", tier, f"t{tier}", op, value, (draw(st.integers(0, 2)), f"s{n}"),
                                protects, f"text {n}"))
    return out


@given(_contributions(), st.integers(-3, 8), st.sampled_from([None, 0]))
def test_what_combine_reports_overruled_is_what_its_explanation_says(contributions: list[Contribution], base: int,
                                                                      minimum: int | None) -> None:
    """A query that uses up a limited effect asks combine for the contributions overruled, without building an
    explanation: the same ones its explanation's steps name as overruled, and the same value."""
    overruled: set[int] = set()
    value, none = combine(base, contributions, minimum, overruled=overruled)
    explained, derivation = combine(base, contributions, minimum, explain=True)
    assert none is None and derivation is not None
    assert value == explained
    assert {(c.source, c.text) for c in contributions if id(c) in overruled} == \
        {(s.source, s.text) for s in derivation.steps if s.overruled_by}


def test_contributions_are_ordered_by_tier_then_play_order_as_sorted_would() -> None:
    """The insertion sort of combine keeps sorted's order: tier, then (played, id), ties in their given place."""
    cs = [Contribution(f"s{i}", f"s{i}", tier, f"t{tier}", "add", i, (played, sid))
          for i, (tier, played, sid) in enumerate([(2, 0, "b"), (1, 5, "a"), (2, 0, "a"), (1, 5, "a"), (0, 9, "z")])]
    _, derivation = combine(0, cs, explain=True)
    assert derivation is not None
    expected = sorted(cs, key=lambda c: (c.tier, c.order))
    assert [s.source for s in derivation.steps] == [c.source for c in expected] == ["s4", "s1", "s3", "s2", "s0"]


def test_a_set_a_protection_guards_against_overrules_nothing() -> None:
    """A set that a protection guards against does not take effect, so it overrules nothing: the changes before it
    count, and an explanation must not call them overruled (a modder's Sunken Lane: 'def -2' and 'protect def
    against items-vehicles', the Radio Sergeant's -1, then the Bangalore Torpedo's 'def = 0': the value is 1, made of
    the two changes the explanation marked 'overruled by Bangalore Torpedo'). The limits counted on what was
    overruled read the same."""
    lane = Contribution("map/s3", "Sunken Lane", 1, "sectors", "add", -2, (0, "a"))
    guard = Contribution("map/s3", "Sunken Lane", 1, "sectors", "protect", None, (0, "a"), ("items-vehicles",))
    sergeant = Contribution("radio-sergeant", "Radio Sergeant", 2, "specialists", "add", -1, (1, "b"))
    torpedo = Contribution("bangalore-torpedo", "Bangalore Torpedo", 3, "items-vehicles", "set", 0, (2, "c"))
    overruled: set[int] = set()
    value, _ = combine(4, [torpedo, sergeant, guard, lane], overruled=overruled)
    assert value == 1
    assert overruled == {id(torpedo)}
    _, derivation = combine(4, [torpedo, sergeant, guard, lane], explain=True)
    assert derivation is not None
    marks = {step.source_name + " " + step.op: step.overruled_by for step in derivation.steps}
    assert marks == {"Sunken Lane add": None, "Sunken Lane protect": None, "Radio Sergeant add": None,
                     "Bangalore Torpedo set": "Sunken Lane"}
