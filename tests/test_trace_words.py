"""What the trace (`dday scenario run --trace`) tells a rule lawyer, in order: a roll before what it decides, the card
that saved a loss, a refusal and why, a card played with nothing to act on. Each test runs a scenario of
tests/scenarios and reads its game's trace."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ddaydice.dsl.loader import load
from ddaydice.interpreter.cli import main
from ddaydice.interpreter.core.state import Event
from ddaydice.interpreter.tools.scenario import resolve_packs
from ddaydice.interpreter.tools.scenario import run as scenario_run
from ddaydice.interpreter.tools.scenario_file import load_scenario

SCENARIOS = Path(__file__).parent / "scenarios"


def trace_of(name: str, text: str | None = None) -> list[Event]:
    """The trace of a scenario of tests/scenarios (run as written, which must pass), or of ``text`` given for it,
    with the packs it names."""
    path = SCENARIOS / name
    packs, problems = resolve_packs(path, text)
    assert not problems, problems
    content, diags = load(packs=packs)
    assert content is not None, diags
    loaded, problems = load_scenario(path, content, text)
    assert loaded is not None, problems
    result, game = scenario_run(loaded[0], content, str(path), trace=True, doc=loaded[1])
    assert result.passed and game is not None, result
    return list(game.state.log)


def details(events: list[Event]) -> list[str]:
    return [e.detail for e in events]


def test_a_random_attribute_is_told_after_its_roll_and_its_change() -> None:
    """Sword Beach, Sector 11: the roll, then the Binoculars' change, then the attribute the changed die gives (the
    attribute was told before the roll, and taken from the unchanged die)."""
    lines = details(trace_of("rulings/binoculars-on-a-random-attribute-roll.yaml"))
    rolled = lines.index("rolled 1 on Random Attributes (Sector 11)")
    changed = lines.index("Unit 1 changes the Random Attributes (Sector 11) die from 1 to 4")
    becomes = lines.index("Sector 11 becomes 'artillery-barrage'")
    assert rolled < changed < becomes


def test_a_grant_refused_by_a_limit_of_the_rules_says_so() -> None:
    """A limit per turn that refuses a card's grant is told, with the card and the limit (the trace was silent)."""
    medal = details(trace_of("cards/medal-case-limit.yaml"))
    assert "Medal Case: Unit 1 draws no Award (refused: 1 Award per turn)" in medal
    patch = details(trace_of("cards/shoulder-patch-limit.yaml"))
    assert "Shoulder Patch: Unit 1 recruits no Specialist (refused: 1 Specialist per turn)" in patch


def test_a_sectors_award_is_drawn_and_told_after_the_turns_straight() -> None:
    """Gold Beach, Sector 8, after a straight's Award: the Sector's Award is chosen and gained; nothing refused."""
    events = trace_of("rulings/gold-sector-8-award-after-a-straight.yaml")
    lines = details(events)
    assert "Gold Beach, Sector 8: choose an Award -> Legion of Merit" in lines
    assert "Unit 1 gains the Legion of Merit" in lines
    assert not [e for e in events if e.kind == "refused"]


def test_a_saved_loss_names_the_card_that_saved_it() -> None:
    """The Medic's save names the Medic and his Unit, and one casualty is a casualty (it was 'is spared 1
    casualties', naming nobody)."""
    lines = details(trace_of("rules/medic-in-combat.yaml"))
    assert "Unit 1 is spared 1 casualty: Medic (Unit 1)" in lines


def test_a_card_with_no_die_to_act_on_says_so() -> None:
    """The Binoculars played with no die to change: the use, then a line saying nothing changed (there was
    none)."""
    events = trace_of("rulings/binoculars-with-no-die-to-change.yaml")
    used = next(i for i, e in enumerate(events) if e.kind == "use" and e.source == "binoculars")
    assert events[used + 1].detail == "Binoculars: Unit 1 has no die to change; nothing changes"


def test_amounts_are_told_in_the_singular_and_by_their_names() -> None:
    """'Unit 1 gains 1 Star', not '1 stars' (the resource's id); the Upkeep's collection likewise ('1 Star')."""
    lines = details(trace_of("cards/lucky-charm.yaml"))
    assert "Unit 1 gains 1 Star" in lines and "Unit 2 gains 1 Courage" in lines, lines
    name = "runner/fixed-tally-then-phase-roll.yaml"
    text = (SCENARIOS / name).read_text(encoding="utf-8").replace("white star, white star", "white star, white tool")
    text = text.replace("u1.soldiers: 8", "u1.stars: 1")
    collected = [line for line in details(trace_of(name, text)) if " collects " in line]
    assert collected and collected[0].startswith("Unit 1 collects 2 Soldiers, 1 Star, 1 Courage, "), collected


def test_a_grant_that_gives_nothing_says_why() -> None:
    """Juno Beach, Sector 4's free Minesweeper, dead already: the trace says he is not recruited and why (it told
    the Sector's effect, then nothing)."""
    events = trace_of("rulings/juno-sector-4-dead-minesweeper.yaml")
    refused = [e.detail for e in events if e.kind == "refused"]
    assert refused == ["Juno Beach, Sector 4: Unit 1 does not recruit the Minesweeper (refused: he is dead)"], refused


def test_a_loss_paid_by_a_specialist_worth_more_tells_what_was_lost_for_what() -> None:
    """The Paratrooper (counts as 6) lost for Sector 5's DEF 4: the trace names him and the 4 casualties he paid
    ('Unit 1 loses 6' overstated the loss)."""
    lines = details(trace_of("rules/casualties-paratrooper-six.yaml"))
    assert "Unit 1 loses the Paratrooper (counts as 6) for 4 casualties (Combat in Sector 5)" in lines, lines
    assert "Unit 2 loses 2 Soldiers (Combat in Sector 3)" in lines, lines


def test_the_set_ups_lists_leave_out_the_cards_the_units_hold() -> None:
    """Bazooka Joe's second level, the Decoy and the Medic held: the set-up's line shows neither in the Pool or the
    hand (it listed the Pool and the hands before the scenario's Units took their cards)."""
    line = next(e.detail for e in trace_of("options/bazooka-joe-2-pool-without-held-cards.yaml")
                if e.detail.startswith("options' lists:"))
    hand, pool = line.removeprefix("options' lists: hands u1: ").split("; Pool: ")
    assert "decoy" not in pool.split(", ") and "grenadier" in pool.split(", "), line
    assert "medic" not in hand.split(", ") and "corporal" in hand.split(", "), line


def test_a_part_of_an_option_that_does_nothing_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """The invented Field Horn's 'rwb battle-cry and gain 1 courage', chosen in Crossfire (ruling 10.9): the trace
    says the Battle Cry did nothing and the condition that ruled it out, before the Courage it gave."""
    monkeypatch.chdir(SCENARIOS.parent.parent)
    result = CliRunner().invoke(main, ["scenario", "run", "--trace",
                                       "tests/scenarios/local-pack/field-horn-in-crossfire.yaml"])
    assert result.exit_code == 0, result.output
    lines = [line.split(": ", 1)[1] for line in result.output.splitlines() if line.startswith("      turn 1 ")]
    assert lines[2:] == ["Field Horn: the Battle Cry does nothing for Unit 1 here (it acts only if a Battle Cry RWB "
                         "here is allowed)  [field-horn, items-vehicles]",
                         "Unit 1 gains 1 Courage  [field-horn, items-vehicles]"], lines


def test_a_find_of_a_vehicle_refused_by_the_limit_says_vehicle() -> None:
    """An Item's find of a Vehicle after the turn's find: the refusal names what it looked for, a Vehicle (it said
    'finds no Item')."""
    lines = details(trace_of("local-pack/item-vehicle-find-limit.yaml"))
    assert "Motor Pool Chit: Unit 1 finds no Vehicle (refused: 1 Item per turn)" in lines
