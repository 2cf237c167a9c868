"""'instead': a pending event replaced (docs/dsl-reference.md, *instead*).

The word is checked (DSL119: only on a pending event, 'on EVENT' or 'use when EVENT'), said in English first
('instead of suffering the casualties, lose 2 Courage'), and played by the engine's general mechanism for pending
events (interpreter/effects/events.py, ``would``): the first replacement in order of precedence stops the event,
the triggers after it hear nothing, a replacement runs only while something is left to replace and never hears
the events its own actions cause, and 'use when EVENT' offers the player the choice. How the Field Manual's
Sergeant Major plays is settled by its scenarios (docs/example-pack/field-manual/scenarios/sergeant-major*.yaml);
the cards here are throwaway ones, in a pack made for the test.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from test_diagnostics import bad, card, validate

from ddaydice.dsl.loader import Content, load
from ddaydice.interpreter.tools import scenario as sc_mod

PACK = """\
id: extra
name: Extra
version: "1.0"
text: A pack made for tests.
provenance: reconstructed
note: everything in it is ours
"""
RULE = """id: extra-rule
name: Extra
text: The pack's cards join the game.
provenance: reconstructed
note: made for a test
"""


def _cards(kind: str, cards: dict[str, str]) -> str:
    """A card file of this kind (a unique Specialist, Regular Items), each card in the game with the pack's rule."""
    grade = "unique" if kind == "specialist" else "regular"
    out = [f"kind: {kind}", "cards:"]
    for cid, effect in cards.items():
        out += [f"  - id: {cid}", f"    name: {cid.title()}", "    cost: 3", f"    grade: {grade}",
                "    text: A card under test.", "    provenance: rulebook", "    only-in: [extra-rule]",
                "    effect: |", f"      {effect}"]
    return "\n".join(out) + "\n"


TRACE: list[str] = []  # the trace of the last game played


def play(tmp_path: Path, scenario: str, specialists: dict[str, str] | None = None,
         items: dict[str, str] | None = None, vehicles: dict[str, str] | None = None) -> list[str]:
    """Run a scenario on the base game and a pack of these cards; the failed checks (none: it passed). The game's
    trace is kept in TRACE."""
    pack = tmp_path / "extra"
    (pack / "cards").mkdir(parents=True)
    (pack / "pack.yaml").write_text(PACK, encoding="utf-8")
    (pack / "rules" / "options").mkdir(parents=True)
    (pack / "rules" / "options" / "extra-rule.yaml").write_text(RULE, encoding="utf-8")
    for kind, cards in (("specialist", specialists), ("item", items), ("vehicle", vehicles)):
        if cards:
            (pack / "cards" / f"{kind}s.yaml").write_text(_cards(kind, cards), encoding="utf-8")
    content: Content | None
    content, diags = load(extra=[pack])
    assert content is not None and not [d for d in diags if d.severity == "error"], [d.message for d in diags]
    path = tmp_path / "scenario.yaml"
    head = "map: exercise-tiger\nvariant: advanced-training\noptions: [extra-rule]\nfallback: none\n"
    path.write_text(head + textwrap.dedent(scenario), encoding="utf-8")
    loaded, diags = sc_mod.load_scenario(path, content)
    assert loaded is not None and not diags, [d.message for d in diags]
    result, game = sc_mod.run(loaded[0], content, str(path), trace=True)
    TRACE[:] = [e.detail for e in game.state.log] if game is not None else []
    out = [f"error: {result.error}"] if result.error else []
    return out + [f"{c.label}: expected {c.expected!r}, got {c.actual!r}" for c in result.checks if not c.passed]


COMBAT = """\
scenario: a combat in Sector 5 (DEF 3, 1 MGF die rolled 2)
phase: combat
rolls: [2]
steps:
  - phase: combat
"""


# ------------------------------------------------------------------ checked
@pytest.mark.parametrize(("effect", "where", "message"), [
    ("on advance: instead, gain 1 courage", "9:19", "'instead' cannot replace 'advance'"),
    ("use when advance: instead, gain 1 courage", "9:25", "'instead' cannot replace 'advance'"),
    ("use: instead, gain 1 courage", "9:12", "'instead' replaces an event about to happen"),
    ("use before mgf: instead", "9:23", "'instead' replaces an event about to happen"),
])
def test_instead_only_replaces_a_pending_event(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, effect: str,
                                               where: str, message: str) -> None:
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card(effect)})
    bad(result, f"cards/new.yaml:{where}: DSL119 {message}")
    assert "'casualties', 'specialist-lost'" in result.output, result.output


def test_an_unknown_event_is_reported_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card("on casualtys: instead, gain 1 courage")})
    bad(result, "cards/new.yaml:9:10: DSL107 unknown event 'casualtys'")
    assert "DSL119" not in result.output, result.output


@pytest.mark.parametrize(("effect", "english"), [
    ("on casualties if have courage >= 2: instead, lose 2 courage",
     "When this Unit suffers casualties if the Unit's Courage >= 2: instead of suffering the casualties, lose 2 "
     "Courage."),
    ("on casualties: lose 2 courage, instead", "instead of suffering the casualties, lose 2 Courage."),
    ("on casualties: instead", "When this Unit suffers casualties: instead of suffering the casualties, nothing "
     "happens."),
    ("on specialist-lost: instead, lose 1 courage", "instead of losing the Specialist, lose 1 Courage."),
    ("use when casualties: instead, lose 1 soldiers",
     "May be used when this Unit would suffer casualties: instead of suffering the casualties, lose 1 Soldier."),
    ("on casualties: instead and lose 2 courage or gain 1 star",
     "instead of suffering the casualties, lose 2 Courage OR gain 1 Star."),
])
def test_instead_is_said_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, effect: str, english: str) -> None:
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card(effect)})
    assert result.exit_code == 0, result.output
    content, _ = load(tmp_path)
    assert content is not None
    rendered = " ".join(content.effects["tester"].english)
    assert english in rendered, rendered


# ------------------------------------------------------------------ played
def test_the_first_replacement_by_precedence_replaces(tmp_path: Path) -> None:
    """A Specialist's replacement (tier specialists) runs before a Vehicle's (items-vehicles): it replaces the
    casualties, and the Vehicle's, with nothing left to replace, does not run (no Courage gained)."""
    failed = play(tmp_path, COMBAT + """\
units:
  - {id: u1, sector: s5, soldiers: 10, specialists: [sarge], vehicle: truck, visited: [s1, s2, s5]}
expect:
  - u1.soldiers: 10
  - u1.stars: 1
  - u1.courage: 0
""", specialists={"sarge": "on casualties: instead, gain 1 star"},
        vehicles={"truck": "on casualties: instead, gain 1 courage"})
    assert not failed, failed
    said = [line for line in TRACE if "replaces" in line]
    assert said == ["Sarge: replaces the event 'casualties' (Unit 1 is spared suffering the casualties)"], TRACE


def test_the_events_other_triggers_after_a_replacement_hear_nothing(tmp_path: Path) -> None:
    """The casualties do not happen: a trigger that would hear them after the replacement does not run."""
    failed = play(tmp_path, COMBAT + """\
units:
  - {id: u1, sector: s5, soldiers: 10, specialists: [sarge], vehicle: truck, visited: [s1, s2, s5]}
expect:
  - u1.soldiers: 10
  - u1.courage: 0
""", specialists={"sarge": "on casualties: instead"}, vehicles={"truck": "on casualties: gain 1 courage"})
    assert not failed, failed


def test_a_replacement_does_not_hear_the_casualties_it_causes(tmp_path: Path) -> None:
    """'instead, lose 1 soldiers': the 1 Soldier is a casualty too, which the same trigger does not replace again
    (it would never end); it is suffered."""
    failed = play(tmp_path, COMBAT + """\
answers:
  u1: [lose 1 Soldier]
units:
  - {id: u1, sector: s5, soldiers: 10, specialists: [sarge], visited: [s1, s2, s5]}
expect:
  - u1.soldiers: 9
""", specialists={"sarge": "on casualties: instead, lose 1 soldiers"})
    assert not failed, failed


def test_nothing_to_replace_nothing_runs(tmp_path: Path) -> None:
    """Casualties all saved before they happen (a change of 'casualties' to 0): the replacement does not run, and
    its other actions do not happen."""
    failed = play(tmp_path, COMBAT + """\
units:
  - {id: u1, sector: s5, soldiers: 10, specialists: [sarge, shield], visited: [s1, s2, s5]}
expect:
  - u1.soldiers: 10
  - u1.stars: 0
""", specialists={"sarge": "on casualties: instead, gain 1 star", "shield": "casualties = 0"})
    assert not failed, failed


def test_a_specialist_lost_is_replaced(tmp_path: Path) -> None:
    """'specialist-lost': a Specialist the Unit is made to lose (a card's 'sacrifice 1 specialist') is kept, and
    the replacement happens instead."""
    failed = play(tmp_path, """\
scenario: an Item that costs a Specialist
phase: roll
answers:
  u1: [Medic]
units:
  - {id: u1, sector: s5, soldiers: 10, courage: 3, specialists: [sarge, medic], items: [offering],
     visited: [s1, s2, s5]}
steps:
  - use: offering
expect:
  - u1.specialists: [sarge, medic]
  - u1.courage: 2
  - u1.stars: 1
""", specialists={"sarge": "on specialist-lost: instead, lose 1 courage"},
        items={"offering": "use: sacrifice 1 specialist, gain 1 star"})
    assert not failed, failed


@pytest.mark.parametrize(("answers", "soldiers", "used"), [
    ("[Kit]", 9, ["kit"]),                         # used: the 5 casualties are replaced by 1 (not asked: 1 way)
    ("[nothing, lose 5 Soldiers]", 5, []),        # declined: the 5 are suffered
])
def test_use_when_a_pending_event_is_the_players_choice(tmp_path: Path, answers: str, soldiers: int,
                                                       used: list[str]) -> None:
    """'use when casualties': offered as the casualties are about to be suffered, after the triggers; the player
    may decline."""
    failed = play(tmp_path, COMBAT + f"""\
answers:
  u1: {answers}
units:
  - {{id: u1, sector: s5, soldiers: 10, items: [kit], visited: [s1, s2, s5]}}
expect:
  - u1.soldiers: {soldiers}
  - u1.used-items: {used}
""", items={"kit": "use when casualties: instead, lose 1 soldiers"})
    assert not failed, failed


def test_a_loss_within_a_loss_leaves_the_first_to_replace(tmp_path: Path) -> None:
    """A trigger whose actions cost a Soldier while the Combat's 5 are pending: that 1 is a loss of its own
    (replaced by the Truck), and the 5 are still pending after it, for the Truck to replace in turn."""
    failed = play(tmp_path, COMBAT + """\
units:
  - {id: u1, sector: s5, soldiers: 10, stars: 1, specialists: [sarge], vehicle: truck, visited: [s1, s2, s5]}
expect:
  - u1.soldiers: 10
  - u1.stars: 0
  - u1.courage: 2
""", specialists={"sarge": "on casualties if have stars >= 1: lose 1 stars, lose 1 soldiers"},
        vehicles={"truck": "on casualties: instead, gain 1 courage"})
    assert not failed, failed


@pytest.mark.parametrize(("sarge", "answers", "soldiers", "def_after"), [
    (True, "", 10, 1),                                     # replaced: no hit, the cover goes on (DEF 3 - 2)
    (False, "answers:\n  u1: [lose 3 Soldiers]\n", 7, 3),  # suffered: the cover ends with the hit
])
def test_what_lasts_until_a_replaced_event_goes_on(tmp_path: Path, sarge: bool, answers: str, soldiers: int,
                                                   def_after: int) -> None:
    """Ruling (docs/rulings.md 14.1): a replaced event did not happen, so a modifier granted 'until' it goes on; an
    event that happens ends it. 'def -2 until casualties': the Combat's hit (DEF 1 + MGF 2) replaced, the DEF stays
    lowered; suffered, it is the printed 3 again."""
    failed = play(tmp_path, f"""\
scenario: a hit replaced, or not, under cover that lasts until the Unit is hit
phase: combat
rolls: [2]
{answers}units:
  - {{id: u1, sector: s5, soldiers: 10, specialists: [{'sarge' if sarge else ''}], items: [cover],
     visited: [s1, s2, s5]}}
steps:
  - {{use: cover}}
  - phase: combat
expect:
  - u1.soldiers: {soldiers}
  - query def for u1: {def_after}
""".replace("specialists: [], ", ""), specialists={"sarge": "on casualties: instead"},
        items={"cover": "use: def -2 until casualties"})
    assert not failed, failed
