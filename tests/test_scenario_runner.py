"""`dday scenario run` as a rule lawyer relies on it: strict scripts, refusals with their reason, matchers
(count, contains, one-of), the PASS/FAIL report with derivations, the JUnit XML and JSON reports, and folders
holding a scenario-local pack. The scenarios that must fail are written here; those that pass live in
tests/scenarios/runner/ (run by tests/test_scenarios.py)."""

from __future__ import annotations

import json
import re
import shlex
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import attrs
import pytest
from click.testing import CliRunner, Result
from syrupy.assertion import SnapshotAssertion

from ddaydice.dsl.limits import MAX_CHOICES
from ddaydice.dsl.loader import load
from ddaydice.interpreter.cli import main
from ddaydice.interpreter.tools.refusals import CODES, STEP_CODES
from ddaydice.interpreter.tools.scenario import run as scenario_run
from ddaydice.interpreter.tools.scenario_check import as_diagnostics, check_file
from ddaydice.interpreter.tools.scenario_file import MATCHERS, ScenarioFile, load_scenario, validate
from ddaydice.interpreter.tools.scenario_folder import collect

REPO = Path(__file__).resolve().parent.parent
LOCAL_PACK = REPO / "tests" / "scenarios" / "local-pack"
DOCS = REPO / "docs" / "scenarios.md"

# Unit 1 in Exercise Tiger's Sector 5 (DEF 3, MGF die 1): it loses 4 in Combat, the Corporal or Soldiers.
COMBAT = """\
scenario: Combat in Sector 5
map: exercise-tiger
variant: advanced-training
fallback: none
units:
  - {id: u1, sector: s5, soldiers: 6, specialists: [corporal], visited: [s1, s2, s5]}
rolls: [1]
"""


def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, *args: str) -> Result:
    """`dday scenario run` on a scenario written in a fresh folder, run from there (paths stay short)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "q.yaml").write_text(text, encoding="utf-8")
    return CliRunner().invoke(main, ["scenario", "run", *args, "q.yaml"])


# ------------------------------------------------------------------ strict scripts
def test_an_answer_never_consumed_fails_at_the_last_step(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         snapshot: SnapshotAssertion) -> None:
    text = COMBAT + "answers:\n  u1: [lose the Corporal, lose 3 Soldiers, lose 1 Soldier]\nsteps:\n" \
        "  - phase: combat\nexpect:\n  - u1.soldiers: 3\n"
    result = run(tmp_path, monkeypatch, text)
    assert result.exit_code == 1, result.output
    assert "q.yaml:11:5: step {'phase': 'combat'}: every scripted answer is consumed" in result.output
    assert "never consumed: u1: 'lose 1 Soldier'" in result.output
    assert result.output == snapshot


def test_a_steps_own_answers_must_be_consumed_by_that_step(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           snapshot: SnapshotAssertion) -> None:
    text = COMBAT + "answers:\n  u1: [lose the Corporal, lose 3 Soldiers]\nsteps:\n" \
        "  - {phase: upkeep, answers: {u1: [lose 2 Soldiers]}}\n  - phase: combat\n"
    result = run(tmp_path, monkeypatch, text)
    assert result.exit_code == 1, result.output
    assert "q.yaml:11:5: step {'phase': 'upkeep'" in result.output  # the step whose answers are left
    assert "never consumed: u1: 'lose 2 Soldiers'" in result.output
    assert result.output == snapshot


def test_an_answer_left_for_a_question_never_asked_names_that_question(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snapshot: SnapshotAssertion) -> None:
    # Three Soldiers and the Corporal lose 4: after 3 Soldiers, the Corporal is the only option: not asked.
    text = COMBAT.replace("soldiers: 6", "soldiers: 3") + \
        "answers:\n  u1: [lose 3 Soldiers, lose the Corporal]\nsteps:\n  - phase: combat\n"
    result = run(tmp_path, monkeypatch, text)
    assert result.exit_code == 1, result.output
    assert ("not asked, a single legal option: u1 'Unit 1 must lose 1 more (Combat in Sector 5)' "
            "(only 'lose the Corporal (counts as 1)')") in result.output
    assert result.output == snapshot
    assert result.output.splitlines()[1].strip() in DOCS.read_text(encoding="utf-8")  # the docs show this line


def test_a_question_without_an_answer_under_fallback_none_is_located(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    result = run(tmp_path, monkeypatch, COMBAT + "steps:\n  - phase: combat\n")
    assert result.exit_code == 1, result.output
    assert "error: q.yaml:9:5: the script has no answer left for casualty (u1)" in result.output
    assert "Traceback" not in result.output


def test_a_steps_answers_for_a_player_not_in_the_scenario_are_located(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    result = run(tmp_path, monkeypatch, COMBAT + "steps:\n  - {phase: combat, answers: {u9: [0]}}\n")
    assert result.exit_code == 2, result.output
    assert "q.yaml:9:5: SCEN001 no Unit 'u9' in this scenario" in result.output


# ------------------------------------------------------------------ a scenario that checks nothing
# Combat in Sector 5 with the reference policy answering: nothing the rules do can make it fail.
NOTHING = COMBAT.replace("fallback: none\n", "") + "steps:\n  - phase: combat\n"


def test_a_scenario_that_checks_nothing_passes_with_a_warning_in_every_report(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No expectation, no step the rules can refuse, no scripted answer: it passes (a captured position is such
    a scenario, and a starting point), and every report says that it checks nothing."""
    result = run(tmp_path, monkeypatch, NOTHING, "--junit", "r.xml")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "PASS q.yaml: Combat in Sector 5",
        "    warning: this scenario checks nothing: it has no expect: entry, no step the rules can refuse and no "
        "scripted answer, so it passes whatever the rules do (add what must follow under expect:)",
        "1 passed, 0 failed (1 of the passed check nothing)"]
    case = ET.parse(tmp_path / "r.xml").getroot().find("./testsuite/testcase")
    assert case is not None
    assert (case.findtext("system-err") or "").startswith("warning: this scenario checks nothing")
    data = json.loads(run(tmp_path, monkeypatch, NOTHING, "--format", "json").output)
    assert data["scenarios"][0]["warning"].startswith("this scenario checks nothing")
    assert (data["passed"], data["checking_nothing"]) == (1, 1)


@pytest.mark.parametrize("text", [
    NOTHING + "expect:\n  - u1.status: active\n",  # an expectation
    NOTHING.replace("  - phase: combat", "  - {find: toolkit}"),  # a step the rules can refuse (here they do)
    NOTHING.replace("  - phase: combat", "  - {move: s4, refused: true}"),  # and one they must refuse
    NOTHING + "answers:\n  u1: [lose the Corporal, lose 3 Soldiers]\n",  # scripted answers, all to be consumed
    NOTHING.replace("  - phase: combat", "  - {phase: combat, answers: {u1: [lose 4 Soldiers]}}"),  # a step's own
    COMBAT + "steps:\n  - phase: combat\n",  # fallback: none: a question without an answer fails
], ids=["expect", "step-allowed", "step-refused", "answers", "step-answers", "fallback-none"])
def test_a_scenario_that_can_fail_gets_no_warning(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  text: str) -> None:
    result = run(tmp_path, monkeypatch, text)
    assert result.exit_code in {0, 1}, result.output
    assert "checks nothing" not in result.output, result.output


# ------------------------------------------------------------------ refusals
def test_a_refusal_for_another_reason_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            snapshot: SnapshotAssertion) -> None:
    # Sector 9 forbids finding Items: the step is refused, but not for lack of Item Points.
    text = """\
scenario: Finding in Sector 9
map: exercise-tiger
variant: advanced-training
phase: purchase
units:
  - {id: u1, sector: s9, soldiers: 20, item-points: 30, visited: [s1, s2, s4, s7, s9]}
steps:
  - {find: toolkit, refused: cost}
  - {find: toolkit, refused: "not enough Item Points"}
  - {find: toolkit, refused: true}
"""
    result = run(tmp_path, monkeypatch, text)
    assert result.exit_code == 1, result.output
    assert result.output.count("    FAIL ") == 2  # `refused: true` takes any reason
    assert "got 'forbidden: Exercise Tiger, Sector 9 forbids finding Items here" in result.output
    assert "sectors         Exercise Tiger, Sector 9: forbid: True -> False" in result.output  # the derivation
    assert result.output == snapshot


def test_an_item_refused_by_its_condition_does_not_blame_the_phase(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    text = """\
scenario: The Flame-Thrower outside a Bunker
map: exercise-tiger
variant: advanced-training
phase: combat
units:
  - {id: u1, sector: s9, soldiers: 20, items: [flame-thrower], visited: [s1, s2, s4, s7, s9]}
steps:
  - {use: flame-thrower, refused: timing}
"""
    result = run(tmp_path, monkeypatch, text)
    assert result.exit_code == 1, result.output
    assert "got \"condition: the Flame-Thrower's condition is not met for Unit 1 in Sector 9" in result.output
    assert "phase" not in result.output.split("got", 1)[1]


@pytest.mark.parametrize(("refused", "message"), [
    ("maybe", "no refusal code 'maybe'"),
    ("conditon", "no refusal code 'conditon' (did you mean 'condition'?)"),
    ("not-available", "no refusal code 'not-available' (did you mean 'unavailable'?)"),
    ("''", "'refused' is the reason expected"),
    ("[cost]", "'refused' is the reason expected"),
])
def test_a_refusal_reason_that_cannot_be_read_is_located(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         refused: str, message: str) -> None:
    result = run(tmp_path, monkeypatch, COMBAT + f"steps:\n  - {{find: toolkit, refused: {refused}}}\n")
    assert result.exit_code == 2, result.output
    assert f"q.yaml:9:5: SCEN001 {message}" in result.output


def test_the_bundled_scenarios_give_the_reason_of_each_refusal() -> None:
    """`refused: true` is loose (any reason passes): the project's own scenarios say which refusal they expect."""
    loose = [f"{path.relative_to(REPO)}:{n}" for folder in ("tests/scenarios", "docs/example-pack")
             for path in collect([REPO / folder])[0]
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(r"refused:\s*true", line)]
    assert not loose, loose


@pytest.mark.parametrize(("step", "message"), [
    ("{phase: upkeep, refused: true}", "a 'phase' step is never refused (steps that can be: use, move,"),
    ("{move: s2, refused: not-enough}",
     "a 'move' step is never refused for 'not-enough' (its refusals: timing, illegal-move,"),
    ("{use: toolkit, refused: cost}", "a 'use' step is never refused for 'cost'"),
])
def test_a_refusal_the_step_cannot_meet_is_located(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, step: str,
                                                   message: str) -> None:
    result = run(tmp_path, monkeypatch, COMBAT + f"steps:\n  - {step}\n")
    assert result.exit_code == 2, result.output
    assert f"q.yaml:9:5: SCEN001 {message}" in result.output


# Unit 1 in Exercise Tiger's Sector 7 with the General and a Bazooka: the steps below name what is not there.
MISNAMED = """\
scenario: mal
map: exercise-tiger
variant: advanced-training
fallback: none
units:
  - {id: u1, sector: s7, soldiers: 1, specialists: [general], items: [bazooka], visited: [s1, s2, s4, s7]}
"""


@pytest.mark.parametrize(("phase", "step", "message"), [
    ("roll", "{use: bazoka, refused: not-held}", "9:11: SCEN001 no card 'bazoka' to use"),
    ("purchase", "{find: bazoka, refused: unavailable}", "9:12: SCEN001 no item or vehicle 'bazoka'"),
    ("movement", "{move: s88, refused: illegal-move}", "9:12: SCEN001 map 'exercise-tiger' has no sector 's88'"),
    ("roll", "{use: nosuchcard}", "9:11: SCEN001 no card 'nosuchcard' to use"),
])
def test_a_misspelt_name_in_a_step_is_no_refusal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, phase: str,
                                                 step: str, message: str) -> None:
    """A card or a Sector that does not exist is an error at its step before anything runs: the run would refuse
    the step (not-held, unavailable, illegal-move), and a `refused:` would take the misspelling for the rules'
    answer."""
    result = run(tmp_path, monkeypatch, MISNAMED + f"phase: {phase}\nsteps:\n  - {step}\n"
                 "expect:\n  - u1.soldiers: 1\n")
    assert result.exit_code == 2, result.output
    assert f"q.yaml:{message}" in result.output
    assert "PASS" not in result.output and "FAIL" not in result.output


def test_every_name_the_steps_give_is_checked_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each action and key that names something (scenario_steps.STEP_NAMES) is checked against the content, every
    mistake at its place, with the closest name there is."""
    steps = ["{use: bazoka}", "{recruit: medik}", "{find: jep}", "{draw: badge}", "{trade: u2, give: soldier}",
             "{use: rule:buy-awrd, unit: u9}", "{use: option:solitair}", "{use: side:german}", "{move: s88}",
             "{recruit: bazooka}", "{trade: u1, give: bazooka}", "{use: rule:buy-award}"]
    result = run(tmp_path, monkeypatch, MISNAMED + "steps:\n" + "".join(f"  - {s}\n" for s in steps))
    assert result.exit_code == 2, result.output
    errors = [line for line in result.output.splitlines() if "SCEN001" in line]
    assert errors == [
        "q.yaml:8:11: SCEN001 no card 'bazoka' to use",
        "q.yaml:9:15: SCEN001 no specialist 'medik'",
        "q.yaml:10:12: SCEN001 no item or vehicle 'jep'",
        "q.yaml:11:12: SCEN001 no deck 'badge'",  # no pack of this scenario has the Badges
        "q.yaml:12:13: SCEN001 no Unit 'u2' in this scenario",
        "q.yaml:12:23: SCEN001 no resource or card 'soldier' to give",
        "q.yaml:13:11: SCEN001 no rule 'buy-awrd' with a use",
        "q.yaml:13:32: SCEN001 no Unit 'u9' in this scenario",
        "q.yaml:14:11: SCEN001 no optional rule 'solitair'",
        "q.yaml:15:11: SCEN001 no side 'german'",
        "q.yaml:16:12: SCEN001 map 'exercise-tiger' has no sector 's88'",
        "q.yaml:17:15: SCEN001 no specialist 'bazooka'",
    ], result.output
    for hint in ("did you mean 'bazooka'?", "did you mean 'medic'?", "did you mean 'jeep'?",
                 "did you mean 'soldiers'?", "did you mean 'rule:buy-award'?", "did you mean 'option:solitaire'?",
                 "did you mean 's8'?"):
        assert f"hint: {hint}" in result.output, hint


def test_a_draw_names_the_decks_that_decks_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`decks:`, `discards:` and `draw:` name the same decks (mechanisms/decks.deck_names): the base game's Award
    deck with the packs' ones. `decks: {award: [...]}` was accepted while `draw: award` was 'no deck'; a name that
    is no deck is the same error in each place, with the closest deck there is."""
    result = run(tmp_path, monkeypatch, MISNAMED + "decks: {awrd: []}\ndiscards: {awrd: []}\n"
                 "steps:\n  - {draw: awrd}\n  - {draw: award}\n")
    assert result.exit_code == 2, result.output
    errors = [line for line in result.output.splitlines() if "SCEN001" in line]
    assert errors == [
        "q.yaml:7:15: SCEN001 no deck 'awrd'",
        "q.yaml:8:18: SCEN001 no deck 'awrd'",
        "q.yaml:10:12: SCEN001 no deck 'awrd'",
    ], result.output
    assert result.output.count("hint: did you mean 'award'?") == 3, result.output


def test_a_tally_holds_no_more_dice_than_a_player_rolls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The game has 6 dice (rules/dice.yaml: 2 of each of red, white, blue): a tally of 5000 red Skulls passed,
    one of 20 dice took part in Combat. It is an error at the first die too many, reported once."""
    tally = ", ".join(["red skull"] * 5000)
    result = run(tmp_path, monkeypatch, MISNAMED + f"tally: {{u1: [{tally}]}}\nexpect:\n  - u1.soldiers: 1\n")
    assert result.exit_code == 2, result.output
    assert ("q.yaml:7:80: SCEN001 more dice than the 6 a player rolls (2 of each of its colours: red, white, blue)"
            in result.output)
    assert "hint: a result an effect adds is written without a colour, or 'virtual'" in result.output
    assert result.output.count("SCEN001") == 1, result.output


def test_a_tally_of_the_dice_and_the_results_effects_add_is_read(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Six dice, then results no die gave (colourless, or `virtual` with a colour), are a tally the game can
    hold."""
    tally = "red skull, red star, white tool, white courage, blue star, blue tool, courage, virtual red skull"
    result = run(tmp_path, monkeypatch, MISNAMED + f"tally: {{u1: [{tally}]}}\nexpect:\n  - u1.soldiers: 1\n")
    assert result.exit_code == 0, result.output


def test_the_rolls_of_a_scenario_are_bounded(tmp_path: Path) -> None:
    """`rolls:` are bounded as its answers are (MAX_CHOICES); a file cannot hold so many, a scenario built in
    code can."""
    (tmp_path / "q.yaml").write_text(MISNAMED, encoding="utf-8")
    content, diags = load()
    assert content is not None, diags
    loaded, problems = load_scenario(tmp_path / "q.yaml", content)
    assert loaded is not None and not problems, problems
    many = attrs.evolve(loaded[0], rolls=(3,) * (MAX_CHOICES + 1))
    assert [d.message for d in validate(many, loaded[1], content)] == [f"more than {MAX_CHOICES} rolls"]


# ------------------------------------------------------------------ steps follow the turn
# Unit 1 in Exercise Tiger's Sector 2 with Stars and Item Points, and Unit 2 beside it (the game stands at `phase:`).
TWO_UNITS = """\
scenario: Two Units in Sector 2
map: exercise-tiger
variant: advanced-training
fallback: none
units:
  - {id: u1, sector: s2, soldiers: 6, stars: 6, item-points: 10, courage: 2, visited: [s1, s2]}
  - {id: u2, sector: s2, soldiers: 6, visited: [s1, s2]}
"""


@pytest.mark.parametrize(("step", "phase", "message"), [
    ("{recruit: medic}", "roll", "Specialists are recruited in the Purchase phase, not in phase 'roll'"),
    ("{find: walkie-talkie}", "movement", "Items and Vehicles are found in the Purchase phase, not in phase "
                                          "'movement'"),
    ("{trade: u2, give: soldiers}", "combat", "Units trade in the Purchase phase, not in phase 'combat'"),
    ("{move: s4}", "purchase", "Units move in the Movement phase, not in phase 'purchase'"),
])
def test_an_action_outside_its_phase_is_refused_for_its_timing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               step: str, phase: str, message: str) -> None:
    """The turn lets a Unit recruit, find and trade in Phase 3 only, and move in Phase 4 only: a step in another
    phase is refused (`timing`), where it once acted in any phase."""
    text = TWO_UNITS + f"phase: {phase}\nsteps:\n  - {step}\n"
    result = run(tmp_path, monkeypatch, text)
    assert result.exit_code == 1, result.output
    assert "q.yaml:10:5: step {" in result.output and "refused: timing" in result.output
    assert message in result.output
    # the same step, expected refused for its timing, passes
    result = run(tmp_path, monkeypatch, text.replace(f"  - {step}\n", f"  - {step[:-1]}, refused: timing}}\n"))
    assert result.exit_code == 0, result.output


def test_a_step_after_the_end_of_the_game_is_an_error_at_its_line(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    text = COMBAT.replace("fallback: none", "fallback: reference") + "steps:\n  - game\n  - phase: combat\n"
    result = run(tmp_path, monkeypatch, text)
    assert result.exit_code == 1, result.output
    assert "error: q.yaml:10:5: the game has ended (lost: " in result.output
    assert "no step runs after the end (check it with `outcome:`)" in result.output


def test_at_stands_at_a_phase_without_running_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`at: PHASE` puts the game at the start of that phase, not yet run (no question asked: fallback none), in
    this turn when the phase comes later in it, else in the next turn; the steps after it act in it."""
    text = TWO_UNITS + ("phase: purchase\nsteps:\n  - {recruit: medic}\n  - at: movement\n  - {move: s4}\n"
                        "  - at: purchase\n  - {recruit: scout}\nexpect:\n  - turn: 2\n  - phase: purchase\n"
                        "  - u1.specialists: [medic, scout]\n  - u1.sector: s4\n  - u1.recruited: 1\n")
    result = run(tmp_path, monkeypatch, text, "--verbose")
    assert result.exit_code == 0, result.output
    # without the next turn, the second recruit is one too many
    result = run(tmp_path, monkeypatch, text.replace("  - at: movement\n  - {move: s4}\n  - at: purchase\n", ""))
    assert result.exit_code == 1 and "refused: limit" in result.output, result.output


def test_a_refused_trade_gives_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`amount: 6` of 6 Soldiers would leave Unit 1 none: the whole step is refused, not 5 of them given."""
    text = TWO_UNITS + ("phase: purchase\nsteps:\n  - {trade: u2, give: soldiers, amount: 6, refused: not-enough}\n"
                        "expect:\n  - u1.soldiers: 6\n  - u2.soldiers: 6\n")
    result = run(tmp_path, monkeypatch, text, "--verbose")
    assert result.exit_code == 0, result.output
    assert "Unit 1 may give 5 Soldiers, not 6: not its last Soldier" in result.output


def test_a_whole_turn_ends_the_turn_the_game_stands_in_first(tmp_path: Path) -> None:
    """`turn` runs the next whole turn: the Bazooka used in turn 1 ("this turn") no longer lowers the DEF of turn
    2's Combat. Before, the turn the game stood in never ended, and its Bazooka was still at work in turn 2."""
    text = TWO_UNITS.replace("fallback: none", "fallback: reference").replace(
        "courage: 2, visited", "courage: 2, items: [bazooka], visited") + "steps:\n  - {use: bazooka}\n  - turn\n"
    (tmp_path / "q.yaml").write_text(text, encoding="utf-8")
    content, diags = load()
    assert content is not None, diags
    loaded, problems = load_scenario(tmp_path / "q.yaml", content)
    assert loaded is not None, problems
    result, game = scenario_run(loaded[0], content, "q.yaml", trace=True, doc=loaded[1])
    assert result.passed and game is not None, result
    combats = [e for e in game.state.log if e.unit == "u1" and "suffers DEF" in e.detail]
    assert [e.turn for e in combats] == [2]
    printed = game.value("def", game.state.unit("u1"))  # where it fought, with no card at work
    assert combats[0].data["defense"] == printed, (combats[0].detail, printed)


# ------------------------------------------------------------------ matchers
def test_matchers_that_do_not_hold_fail(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        snapshot: SnapshotAssertion) -> None:
    text = COMBAT.replace("specialists: [corporal]", "specialists: [corporal], items: [toolkit, flak-vest]") + """\
expect:
  - u1.items: {count: 3}
  - u1.items: {contains: first-aid-kit}
  - u1.items: {contains: [toolkit, bazooka]}
  - u1.items: {contains: toolkit, count: 1}
  - u1.sector: {one-of: [s7, s8]}
  - u1.items: {count: 2, contains: flak-vest}
  - query dice-rolled for u1: {one-of: [4, 5]}
"""
    result = run(tmp_path, monkeypatch, text)
    assert result.exit_code == 1, result.output
    assert result.output.count("    FAIL ") == 6
    assert "dice-rolled for Unit 1" in result.output  # a failed query's derivation
    assert result.output == snapshot


@pytest.mark.parametrize(("check", "holds"), [
    ("u1.soldiers: true", False),   # a count is no yes/no (in Python, True == 1)
    ("u1.soldiers: 1", True),
    ("query may-enter for u1 in s7: 0", False),  # a permission is no count
    ("query may-enter for u1 in s7: false", True),
    ("u1.items: {contains: true}", False),
    ("u1.soldiers: {one-of: [true, 2]}", False),
])
def test_a_yes_or_no_is_never_a_number(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, check: str,
                                       holds: bool) -> None:
    """A check of a count passed against `true`, and a permission's against `1`: a yes/no and a number are told
    apart, in a value and in a matcher."""
    text = COMBAT.replace("soldiers: 6", "soldiers: 1").replace("specialists: [corporal]", "items: [toolkit]")
    result = run(tmp_path, monkeypatch, text + f"expect:\n  - {check}\n")
    assert result.exit_code == (0 if holds else 1), result.output


@pytest.mark.parametrize(("check", "message"), [
    ("{count: many}", "'count' takes a whole number from 0"),
    ("{count: -1}", "'count' takes a whole number from 0"),
    ("{one-of: []}", "'one-of' takes a list of the values allowed"),
    ("{one-of: s3}", "'one-of' takes a list of the values allowed"),
    ("{contains: []}", "'contains' takes a value"),
    ("{count: 1, contain: toolkit}", "no matcher 'contain' (matchers: count, contains, one-of)"),
])
def test_a_matcher_that_cannot_be_read_is_located(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, check: str,
                                                  message: str) -> None:
    result = run(tmp_path, monkeypatch, COMBAT + f"expect:\n  - u1.items: {check}\n")
    assert result.exit_code == 2, result.output
    assert f"q.yaml:9:15: SCEN001 {message}" in result.output


# ------------------------------------------------------------------ reports
FAILING = COMBAT + """\
steps:
  - {phase: combat, answers: {u1: [lose the Corporal, lose 3 Soldiers]}}
expect:
  - u1.soldiers: 3
  - u1.dead: {contains: medic}
  - query def for u1: 9
"""


def test_the_text_report_shows_pass_fail_and_the_derivation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             snapshot: SnapshotAssertion) -> None:
    result = run(tmp_path, monkeypatch, FAILING, "--verbose")
    assert result.exit_code == 1, result.output
    assert result.output.startswith("FAIL q.yaml: Combat in Sector 5\n")
    assert "def for Unit 1, Sector 5: base 3" in result.output
    assert result.output == snapshot


def test_the_junit_report_parses_and_counts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            snapshot: SnapshotAssertion) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ok.yaml").write_text(FAILING.split("  - u1.dead")[0], encoding="utf-8")
    (tmp_path / "bad.yaml").write_text(FAILING, encoding="utf-8")
    (tmp_path / "broken.yaml").write_text(COMBAT.replace("s5, soldiers", "s99, soldiers"), encoding="utf-8")
    result = CliRunner().invoke(main, ["scenario", "run", "--junit", "report.xml", "ok.yaml", "bad.yaml",
                                       "broken.yaml"])
    assert result.exit_code == 2, result.output  # a file could not be run
    text = (tmp_path / "report.xml").read_text(encoding="utf-8")
    root = ET.fromstring(text)
    assert root.tag == "testsuites"
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("3", "1", "1")
    cases = root.findall("./testsuite/testcase")
    assert [c.get("file") for c in cases] == ["ok.yaml", "bad.yaml", "broken.yaml"]
    assert cases[0].find("failure") is None
    assert len(cases[1].findall("failure")) == 2
    assert cases[1].get("line") == "12"  # the first failed check's line (where a CI's annotation points)
    error = cases[2].find("error")
    assert error is not None
    assert (error.get("message") or "").startswith("broken.yaml:6:")
    assert [c.get("classname") for c in cases] == ["ok", "bad", "broken"]  # no ".yaml" for a CI to split on
    assert all(re.fullmatch(r"\d+\.\d{3}|0", c.get("time") or "") for c in cases)
    assert re.sub(r' time="[0-9.]+"', ' time="T"', text) == snapshot  # the times vary from run to run


def test_the_json_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snapshot: SnapshotAssertion) -> None:
    result = run(tmp_path, monkeypatch, FAILING, "--format", "json")
    assert result.exit_code == 1, result.output
    data = json.loads(result.output)
    assert (data["passed"], data["failed"], data["unusable"]) == (0, 1, 0)
    failed = [c for c in data["scenarios"][0]["checks"] if not c["passed"]]
    assert [c["check"] for c in failed] == ["u1.dead", "query def for u1"]
    assert [(c["line"], c["column"]) for c in failed] == [(12, 14), (13, 23)]  # each expectation's value
    assert failed[1]["derivation"]["query"] == "def"
    assert data == snapshot


FIXED_TALLY = (REPO / "tests/scenarios/runner/fixed-tally-then-phase-roll.yaml").read_text(encoding="utf-8")


def test_a_fixed_tally_run_straight_into_upkeep_warns_of_the_phase_1_it_skips(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fixed tally followed straight by 'phase: upkeep' in Exercise Tiger's Sector 2: the Sector's Final Tally
    bonus never comes, and SCEN008 at the step says so and to add 'phase: roll' (it passed in silence); with the
    'phase: roll' step, or a scenario that starts at 'phase: upkeep' (or an 'at:' step past Phase 1), no warning.
    Every step is looked at: a phase run after a step that runs none ('at: roll') is warned as the first is."""
    text = FIXED_TALLY.replace("  - {phase: roll}\n", "").replace("u1.courage: 1", "u1.courage: 0").replace(
        "blue tool, courage]", "blue tool]")
    result = run(tmp_path, monkeypatch, text)
    assert result.exit_code == 0, result.output
    assert ("    warning: q.yaml:15:5: SCEN008 phase upkeep runs before the Phase 1 of the fixed tally is completed: "
            "the Final Tally's effects of Exercise Tiger, Sector 2 never come; add '- phase: roll' before this step "
            "(docs/scenarios.md, tally)") in result.output.splitlines(), result.output
    data = json.loads(run(tmp_path, monkeypatch, text, "--format", "json").output)
    assert [w.split(": ", 1)[0] for w in data["scenarios"][0]["warnings"]] == ["q.yaml:15:5"]
    checked = check_file(tmp_path / "q.yaml")
    assert [(d.code, d.line, d.severity) for d in as_diagnostics(checked)] == [("SCEN008", 15, "warning")]
    combat = text.replace("  - {phase: upkeep}\n", "  - {phase: upkeep}\n  - {phase: combat}\n")
    stopped = run(tmp_path, monkeypatch, combat)
    assert "error: q.yaml:16:5: the script has no answer left" in stopped.output, stopped.output
    assert "    warning: q.yaml:15:5: SCEN008 " in stopped.output, stopped.output  # told when the run stops too
    later = text.replace("  - {phase: upkeep}\n", "  - {at: roll}\n  - {phase: upkeep}\n")
    result = run(tmp_path, monkeypatch, later)  # not the first step: warned all the same, at its own line
    assert "    warning: q.yaml:16:5: SCEN008 phase upkeep runs before the Phase 1" in result.output, result.output
    for quiet in (FIXED_TALLY, text.replace("\ntally:", "\nphase: upkeep\ntally:"),
                  text.replace("  - {phase: upkeep}\n", "  - {at: upkeep}\n  - {phase: upkeep}\n")):
        result = run(tmp_path, monkeypatch, quiet)
        assert result.exit_code == 0 and "SCEN008" not in result.output, result.output


def test_a_trace_asked_for_is_told_when_the_run_stops_before_anything_happened(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--trace on a scenario stopped by its first question: the trace says nothing happened before the error (text)
    and is an empty list (JSON), so that it is not taken for forgotten (it printed nothing, and the JSON had no
    'trace')."""
    text = ("scenario: no answer for the first move\nmap: exercise-tiger\nfallback: none\n"
            "units:\n  - {id: u1, sector: s1, soldiers: 5, courage: 3}\nsteps:\n  - phase: movement\n"
            "expect:\n  - u1.sector: s2\n")
    result = run(tmp_path, monkeypatch, text, "--trace")
    assert result.exit_code == 1, result.output
    assert "    what happened: nothing before the error" in result.output.splitlines(), result.output
    data = json.loads(run(tmp_path, monkeypatch, text, "--trace", "--format", "json").output)
    assert data["scenarios"][0]["error"] and data["scenarios"][0]["trace"] == []
    assert "what happened" not in run(tmp_path, monkeypatch, text).output  # only when asked


def test_trace_shows_what_happened_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """--trace: each scenario's game trace after its checks, in order: the effects that acted (with their card and
    tier), the choices, an event replaced. Here the Hero acts before the Sergeant Major (he came into play first),
    spends what the script has him spend, and the Sergeant Major replaces what is left."""
    monkeypatch.chdir(REPO)
    scenario = "docs/example-pack/field-manual/scenarios/hero-before-the-sergeant-major.yaml"
    result = CliRunner().invoke(main, ["scenario", "run", "--trace", scenario])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    shown = lines[lines.index("    what happened:") + 1:-1]
    assert shown[0] == "      turn 1 combat u1: Unit 1 suffers DEF 5 + MGF 0"
    assert shown[1].startswith("      turn 1 combat u1: Hero: When this Unit suffers casualties") and \
        shown[1].endswith("[hero, specialists]")
    assert "Hero: spend how many courage to save Soldiers? -> 1" in shown[2]
    assert shown[-1] == ("      turn 1 combat u1: Sergeant Major: replaces the event 'casualties' (Unit 1 is spared "
                         "suffering the casualties)")
    plain = CliRunner().invoke(main, ["scenario", "run", scenario])
    assert "what happened" not in plain.output  # only when asked
    data = json.loads(CliRunner().invoke(main, ["scenario", "run", "--trace", "--format", "json", scenario]).output)
    trace = data["scenarios"][0]["trace"]
    assert [e["kind"] for e in trace][-1] == "replaced" and trace[1]["source"] == "hero"
    assert {"turn", "phase", "unit", "kind", "detail", "source", "tier"} == set(trace[0])


def test_the_junit_file_cannot_be_written_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = run(tmp_path, monkeypatch, FAILING, "--junit", "no-such-folder/report.xml")
    assert result.exit_code == 2, result.output
    assert "--junit no-such-folder/report.xml: the folder no-such-folder does not exist" in result.output
    assert "Traceback" not in result.output and "FAIL" not in result.output  # (said before the run)


# ------------------------------------------------------------------ folders with a local pack
def test_a_folder_with_a_local_pack_runs_its_scenarios_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    result = CliRunner().invoke(main, ["scenario", "run", str(LOCAL_PACK.relative_to(REPO))])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "36 passed, 0 failed"
    assert "unusable" not in result.output and "canteen-pack/pack.yaml" not in result.output \
        and "sandbags-pack/pack.yaml" not in result.output and "runner-pack/pack.yaml" not in result.output \
        and "orders-pack/pack.yaml" not in result.output and "ration-pack/pack.yaml" not in result.output \
        and "lane-pack/pack.yaml" not in result.output and "penny-pack/pack.yaml" not in result.output \
        and "limits-pack/pack.yaml" not in result.output and "chit-pack/pack.yaml" not in result.output \
        and "airdrop-pack/pack.yaml" not in result.output and "uses-pack/pack.yaml" not in result.output \
        and "omen-pack/pack.yaml" not in result.output and "beacon-pack/pack.yaml" not in result.output \
        and "motor-pool-pack/pack.yaml" not in result.output and "citation-pack/pack.yaml" not in result.output


def test_the_example_pack_folder_runs_clean(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    result = CliRunner().invoke(main, ["scenario", "run", "docs/example-pack"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "24 passed, 0 failed"


# ------------------------------------------------------------------ docs/scenarios.md
def test_the_docs_quote_scenarios_the_suite_runs() -> None:
    """Each ```yaml block of docs/scenarios.md opening with '# file: PATH' is word for word in that scenario,
    which tests/test_scenarios.py runs."""
    bundled = {p.resolve() for p in collect([REPO / "tests" / "scenarios"])[0]}
    quoted = [(m.group(1), m.group(2)) for m in
              re.finditer(r"```yaml\n# file: (\S+)\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.DOTALL)]
    assert len(quoted) >= 3
    for path, text in quoted:
        assert (REPO / path).resolve() in bundled, f"docs/scenarios.md quotes {path}, which the suite does not run"
        assert text in (REPO / path).read_text(encoding="utf-8"), f"docs/scenarios.md's excerpt of {path} differs"


def test_the_docs_name_every_key_refusal_code_and_matcher() -> None:
    text = DOCS.read_text(encoding="utf-8")
    keys = [f.name.replace("_", "-") for f in attrs.fields(ScenarioFile)]
    for word in [*keys, *CODES]:
        assert f"`{word}" in text, f"docs/scenarios.md does not name `{word}`"
    for word in MATCHERS:
        assert f"`{{{word}: " in text, f"docs/scenarios.md does not show the matcher {word}"


def test_the_docs_table_of_refusals_is_the_runners() -> None:
    """Each refusal code's row in docs/scenarios.md says what the code means and which steps can meet it, as
    tools/refusals.py has them."""
    text = DOCS.read_text(encoding="utf-8")
    for code, what in CODES.items():
        steps = ", ".join(f"`{kind}`" for kind, codes in STEP_CODES.items() if code in codes)
        assert f"| `{code}` | {what} | {steps} |" in text, f"docs/scenarios.md's row of `{code}` differs"


def test_the_docs_first_question_runs_as_shown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/scenarios.md's first example: the scenario it writes, then `dday scenario run -v` and `dday explain` on
    it print what the page shows."""
    text = DOCS.read_text(encoding="utf-8")
    first = text.index("## A first question")
    block = re.search(r"```yaml\n(.*?)```", text[first:], re.DOTALL)
    assert block is not None
    shells = re.findall(r"```sh\n\$ dday (.*?)\n(.*?)```", text[first:text.index("## The file")], re.DOTALL)
    assert [cmd.split()[:2] for cmd, _ in shells] == [["scenario", "run"], ["explain", "general-vs-s7.yaml"]]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "general-vs-s7.yaml").write_text(block.group(1), encoding="utf-8")
    for cmd, shown in shells:
        args = shlex.split(cmd)
        if args[0] == "explain":  # `dday explain FILE QUERY`: the query is the rest of the line, unquoted
            args = [*args[:2], " ".join(args[2:])]
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, result.output
        assert result.output == shown, f"dday {cmd}:\n{result.output}"


def test_unusable_counts_files_not_diagnostics(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file is passed, failed or unusable, once: one whose pack does not load (several diagnostics) is one
    unusable file, and every diagnostic is still listed."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "pack.yaml").write_text("id: broken\n", encoding="utf-8")  # no name, version, text, ...
    (tmp_path / "ok.yaml").write_text(FAILING.split("  - u1.dead")[0], encoding="utf-8")
    (tmp_path / "packed.yaml").write_text(COMBAT + "packs: [./broken]\n", encoding="utf-8")
    (tmp_path / "twice.yaml").write_text(COMBAT.replace("soldiers: 6", "soldiers: 6, corage: 2, colr: 1"),
                                         encoding="utf-8")
    files = ["ok.yaml", "packed.yaml", "twice.yaml"]
    result = CliRunner().invoke(main, ["scenario", "run", "--junit", "report.xml", *files])
    assert result.exit_code == 2, result.output
    assert result.output.splitlines()[-1] == "1 passed, 0 failed, 2 unusable", result.output
    shown = re.findall(r"^\S+:\d+:\d+: [A-Z]+\d+ ", result.output, re.MULTILINE)
    assert len(shown) > 3, result.output  # every diagnostic listed
    data = json.loads(CliRunner().invoke(main, ["scenario", "run", "--format", "json", *files]).output)
    assert (data["passed"], data["failed"], data["unusable"]) == (1, 0, 2)
    assert data["unusable_files"] == ["packed.yaml", "twice.yaml"] and len(data["diagnostics"]) == len(shown)
    root = ET.fromstring((tmp_path / "report.xml").read_text(encoding="utf-8"))
    assert (root.get("tests"), root.get("errors")) == ("3", "2")
    assert [c.get("file") for c in root.findall("./testsuite/testcase")] == files


def test_a_check_of_an_unknown_unit_or_field_points_at_that_part_of_its_key(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    text = COMBAT + 'expect:\n  - u1.corage: 2\n  - u9.courage: 1\n  - query def for u7: 3\n  - "u1.stras": 1\n'
    result = run(tmp_path, monkeypatch, text)
    assert result.exit_code == 2, result.output
    blocks = re.findall(r"^(q\.yaml:\d+:\d+): SCEN001 ([^\n]*)\n([^\n]*)\n([^\n]*)$", result.output, re.MULTILINE)
    under = {message: (place, line[len(caret) - len(caret.lstrip()):][:len(caret.strip())])
             for place, message, line, caret in blocks}
    assert under["a Unit has no 'corage' to check"] == ("q.yaml:9:8", "corage")
    assert under["no Unit 'u9' in this scenario"] == ("q.yaml:10:5", "u9")
    assert under["no Unit 'u7' in this scenario"] == ("q.yaml:11:19", "u7")
    assert under["a Unit has no 'stras' to check"] == ("q.yaml:12:9", "stras")


def test_a_ctrl_c_during_a_scenario_is_taken_after_its_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C while a scenario runs is taken after its file, never inside the (compiled) engine: the first file
    is checked to its end, the second never begins, and dday scenario run says Aborted!, exit 1."""
    import os
    import signal

    from ddaydice.interpreter.tools import scenario_check

    for name in ("a.yaml", "b.yaml"):
        (tmp_path / name).write_text(COMBAT + "expect:\n  - u1.soldiers: {one-of: [0, 1, 2, 3, 4, 5, 6]}\n",
                                     encoding="utf-8")
    checked: list[str] = []
    real = scenario_check.check_file

    def check_file(f: Path, *args: Any, **kw: Any) -> Any:
        if not checked:
            os.kill(os.getpid(), signal.SIGINT)  # a Ctrl-C, as the first file begins
        found = real(f, *args, **kw)
        checked.append(f.name)
        return found

    monkeypatch.setattr(scenario_check, "check_file", check_file)
    before = signal.signal(signal.SIGINT, signal.default_int_handler)  # (as at a terminal)
    try:
        result = CliRunner().invoke(main, ["scenario", "run", str(tmp_path / "a.yaml"), str(tmp_path / "b.yaml")])
    finally:
        signal.signal(signal.SIGINT, before)
    assert result.exit_code == 1 and result.output.endswith("Aborted!\n"), result.output
    assert checked == ["a.yaml"]


HEAD = "scenario: x\nmap: exercise-tiger\nunits:\n  - {id: u1, sector: s1, soldiers: 8}\n"
#: A mistake of the file, each told before the run as unusable (exit 2) at its place: (the scenario's text, the
#: line and column, the message, the hint or None). A misspelt query was a FAIL (exit 1): a typo looked like a
#: change of the rules in CI.
FOUND_BEFORE_THE_RUN = {
    "unknown query": (HEAD + "expect:\n  - query nope for u1: 1\n", "6:11", "SCEN001 unknown query 'nope'",
                      "queries: advance,"),
    "unknown Sector of a query": (HEAD + "expect:\n  - query advance-cost for u1 in s77: 1\n", "6:34",
                                  "SCEN001 no Sector 's77'", None),
    "unknown card of a query": (HEAD + "expect:\n  - query item-cost for u1 of bazoka: 1\n", "6:31",
                                "SCEN001 no card 'bazoka'", "bazooka"),
    "unknown Unit of a query": (HEAD + "expect:\n  - query def for u2: 1\n", "6:19",
                                "SCEN001 no Unit 'u2' in this scenario", None),
    "a key named as written": (HEAD + "sectors:\n  s1: {def: 1000}\nexpect: []\n", "6:8",
                               "SCHEMA002 unknown key 'def'", "allowed keys: attributes, acquired, mgf-roll"),
    "a Unit is a mapping": ("scenario: x\nmap: exercise-tiger\nunits: [1]\nexpect: []\n", "3:9",
                            "SCHEMA004 item 1 of 'units': expected a mapping, found the number 1", None),
    "a map of a bundled pack not loaded": ("scenario: x\nmap: exercise-fabius\nunits: []\nexpect: []\n", "2:6",
                                           "SCEN001 no map 'exercise-fabius'", "add --pack atlantikwall"),
    "no Python type names": ("scenario: x\nmap: exercise-tiger\nunits: !!set {a, b}\nexpect: []\n", "3:8",
                             "SCHEMA004 'units': expected a list, found a set", None),
}


@pytest.mark.parametrize("case", sorted(FOUND_BEFORE_THE_RUN))
def test_a_mistake_of_the_file_is_found_before_the_run(case: str, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    text, where, message, hint = FOUND_BEFORE_THE_RUN[case]
    result = run(tmp_path, monkeypatch, text)
    assert result.exit_code == 2, result.output
    assert f"q.yaml:{where}: {message}\n" in result.output, result.output
    if hint is not None:
        assert "hint: " in result.output and hint in result.output.split("hint: ", 1)[1], result.output
    assert "0 passed, 0 failed, 1 unusable" in result.output


PASSING = HEAD + "expect:\n  - u1.soldiers: 8\n"


def test_a_file_met_twice_runs_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/scenarios.md: each file is passed, failed or unusable, once (given twice, by another name, in a folder
    given too): it ran and counted once for each name, and the JUnit report held it twice."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "q.yaml").write_text(PASSING, encoding="utf-8")
    result = CliRunner().invoke(main, ["scenario", "run", "s/q.yaml", "./s/q.yaml", "s", "--junit", "r.xml"])
    assert result.exit_code == 0, result.output
    assert "1 passed, 0 failed" in result.output
    assert len(list(ET.parse(tmp_path / "r.xml").getroot().iter("testcase"))) == 1


def test_the_junit_report_is_checked_before_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--junit naming a scenario file being run would replace it with the report (the scenario lost); a report
    that cannot be written is said before any scenario runs."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "q.yaml").write_text(PASSING, encoding="utf-8")
    result = CliRunner().invoke(main, ["scenario", "run", "q.yaml", "--junit", "./q.yaml"])
    assert result.exit_code == 2
    assert "--junit q.yaml: q.yaml is one of the scenario files run" in " ".join(result.output.split())
    assert (tmp_path / "q.yaml").read_text(encoding="utf-8") == PASSING
    result = CliRunner().invoke(main, ["scenario", "run", "q.yaml", "--junit", "no/such/r.xml"])
    assert result.exit_code == 2 and "--junit no/such/r.xml: the folder no/such does not exist" in result.output
    assert "passed" not in result.output  # (refused before the run)


def test_a_scenario_takes_the_seeds_a_game_takes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The seeds of dday play, simulate and replay: strictly between -2**64 and 2**64 (dsl/limits.py MAX_SEED)."""
    assert run(tmp_path, monkeypatch, f"seed: {2**64 - 1}\n" + PASSING).exit_code == 0
    for seed in (2**64, -(2**64)):
        result = run(tmp_path, monkeypatch, f"seed: {seed}\n" + PASSING)
        assert result.exit_code == 2 and "q.yaml:1:7: SCHEMA004 'seed'" in result.output, result.output


def test_a_specialist_that_comes_with_an_optional_rule_is_told_which(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The Sniper (Atlantikwall, only with the German player's rule) in a scenario that does not switch it on:
    SCEN001 says which optional rule brings him and where to write it, before the Specialists the game has."""
    text = ("scenario: x\nmap: omaha-beach\npacks: [atlantikwall]\n"
            "units:\n  - {id: u1, sector: s1, soldiers: 4, specialists: [sniper]}\nexpect:\n  - u1.soldiers: 4\n")
    result = run(tmp_path, monkeypatch, text)
    assert result.exit_code == 2, result.output
    assert "SCEN001 the Sniper is not available on this map" in result.output
    assert "hint: it comes with the optional rule 'german-player': add it to 'options:'; available: " \
        in result.output


def test_an_answer_may_say_what_is_not_offered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """{answer: A, not-offered: [labels]}: the scenario fails at its step when the question offers one of the
    labels (a rule lawyer's check that a rule leaves an option out), and a malformed one is refused before the run,
    at its place."""
    offered = COMBAT + "answers:\n  u1: [{answer: lose 3 Soldiers, not-offered: [lose the Corporal]}]\n" \
        "steps:\n  - phase: combat\n"
    result = run(tmp_path, monkeypatch, offered)
    assert result.exit_code == 1, result.output
    assert "'lose the Corporal' is offered, which the script says it is not" in result.output
    wrong = COMBAT + "answers:\n  u1: [{answer: lose 3 Soldiers, not_offered: x}]\nsteps:\n  - phase: combat\n"
    result = run(tmp_path, monkeypatch, wrong)
    assert result.exit_code == 2, result.output
    assert "not-offered: [labels]}" in result.output


def test_an_answer_that_begins_two_different_options_is_an_error(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """An answer that begins the labels of two different options ('lose' of 'lose 4 Soldiers' and 'lose the
    Corporal') names neither: the scenario fails at it and lists the options it begins, where the first was taken
    silently (a rule lawyer read the plain Advance taken for the Battle Cry one as a rule's bug). The start of one
    label alone still answers."""
    ambiguous = COMBAT + "answers:\n  u1: [lose]\nsteps:\n  - phase: combat\n"
    result = run(tmp_path, monkeypatch, ambiguous)
    assert result.exit_code == 1, result.output
    assert "answer 'lose' begins 3 options: 0: lose 4 Soldiers; 1: lose 1 Soldier; 2: lose the Corporal" \
        in result.output
    assert "give more of the label, or the option's number" in result.output
    begun = COMBAT + "answers:\n  u1: [lose the Corp, lose 3 Soldiers]\nsteps:\n  - phase: combat\n" \
        "expect:\n  - u1.specialists: []\n"
    result = run(tmp_path, monkeypatch, begun)
    assert result.exit_code == 0, result.output


def test_a_tally_check_writes_an_effects_coloured_result_virtual_as_tally_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A coloured result an effect adds (the Grappling Hook's Skull of a chosen colour) is no die: the check of
    `u1.tally` writes it `virtual red skull`, as `tally:` does, where it wrote `red skull`, which in `tally:` means a
    real die; and `red skull` no longer passes for it."""
    base = ("scenario: a Skull of a chosen colour\nmap: exercise-tiger\nvariant: advanced-training\nfallback: none\n"
            "units:\n  - {id: u1, sector: s1, items: [grappling-hook]}\n"
            "tally:\n  u1: [red star, white star]\nanswers:\n  u1: [red]\nsteps:\n  - use: grappling-hook\n"
            "expect:\n")
    result = run(tmp_path, monkeypatch, base + "  - u1.tally: [red star, white star, virtual red skull]\n")
    assert result.exit_code == 0, result.output
    result = run(tmp_path, monkeypatch, base + "  - u1.tally: [red star, white star, red skull]\n")
    assert result.exit_code == 1, result.output
    assert "got ['red star', 'white star', 'virtual red skull']" in result.output


PLACED = """\
scenario: the Tank waits in Juno's Sector 5
map: juno-beach
fallback: none
phase: purchase
units:
  - {id: u1, sector: s5, soldiers: 10, item-points: 25, visited: [s1, s3, s5]}
placed: {PLACED}
steps:
  - {find: tank}
expect:
  - u1.vehicle: tank
"""


@pytest.mark.parametrize(("placed", "code", "col", "message", "hint"), [
    # Sector 5 offers the Tank ('on enter: offer tank'): written lying there, it was never offered, and the find
    # was refused as if the rules refused it
    ("{tank: s5}", "SCEN009", 16, "'s5': the Tank is offered by a Sector's effect, not placed by the map; as "
     "written it lies there and is never offered to be found", "write 'tank: \"offer:s5\"'"),
    ("{tank: \"offer:s5\", flame-thrower: s12}", "SCEN009", 43,
     "'s12': the map places the Flame-Thrower in Sector 13, not in Sector 12", "write 'flame-thrower: s13'"),
    # the map places the Flame-Thrower in Sector 13 (its effect takes it): written offered, it could be bought
    ("{tank: \"offer:s5\", flame-thrower: \"offer:s13\"}", "SCEN010", 43,
     "'offer:s13': no effect of Sector 13 offers the Flame-Thrower; as written it waits there to be bought in the "
     "Purchase phase, as in no game",
     "the map places the Flame-Thrower in Sector 13, where the effect that names it takes it: write "
     "'flame-thrower: s13'"),
    ("{tank: \"offer:s4\"}", "SCEN010", 16, "'offer:s4': no effect of Sector 4 offers the Tank",
     "a Sector that offers it: write 'tank: \"offer:s5\"'"),
])
def test_a_placed_card_in_the_form_the_map_does_not_mean_is_an_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, placed: str, code: str, col: int, message: str,
        hint: str) -> None:
    """`placed:` writes a card lying in a Sector (`s13`, as the map's `placed:` sets it aside) or a Sector's offer
    (`"offer:s5"`, what 'on enter: offer tank' leaves): each form is read as what it says, so the other form for
    such a card set up a game the file did not mean, in silence. It is an error at the entry, with the form the
    map means; the forms the map means run (tests/scenarios/runner/placed-unit-and-the-sector-offer.yaml)."""
    result = run(tmp_path, monkeypatch, PLACED.replace("{PLACED}", placed))
    assert result.exit_code == 2, result.output
    assert f"q.yaml:7:{col}: {code} {message}" in result.output, result.output
    assert f"    hint: {hint}" in result.output.splitlines(), result.output
    assert result.output.count("SCEN0") == 1, result.output
    good = run(tmp_path, monkeypatch, PLACED.replace("{PLACED}", "{tank: \"offer:s5\", flame-thrower: s13}"))
    assert good.exit_code == 0, good.output


# The position keys whose examples name a map's Sectors (or Bunkers).
SECTOR_KEYS = ("placed", "conquered", "entered", "bunker-specialists", "conquests")


def docs_sector_examples(text: str) -> list[tuple[str, str]]:
    """Each inline example of docs/scenarios.md that sets a position key naming Sectors (`placed: {...}`), with
    the map the page says it is on (its name just after the example: "on Operation Deadstick"), Exercise Tiger
    when it names none."""
    content, _ = load()
    assert content is not None
    names = {bm.name: map_id for map_id, bm in content.maps.items()}
    found = []
    keys = "|".join(SECTOR_KEYS)
    for m in re.finditer(rf"`((?:{keys}): [\[{{][^`]*)`", text):
        after = text[m.end():m.end() + 40]
        found.append((m.group(1), next((mid for name, mid in names.items() if name in after), "exercise-tiger")))
    return found


def test_the_docs_examples_of_a_position_name_sectors_of_their_map(tmp_path: Path) -> None:
    """Every inline example of docs/scenarios.md that names a Sector or a Bunker is set up on the map the page
    puts it on, without an error (`placed: {medal-case: m-s6}` on Operation Deadstick, where s6 is no Sector)."""
    content, _ = load()
    assert content is not None
    examples = docs_sector_examples(DOCS.read_text(encoding="utf-8"))
    assert len(examples) >= 6, examples
    for example, map_id in examples:
        bm = content.maps[map_id]
        units = "".join(f"  - {{id: u{k + 1}, sector: {bm.sectors[0].id}}}\n" for k in range(min(bm.players)))
        path = tmp_path / "example.yaml"
        text = f"scenario: an example of the docs\nmap: {map_id}\nunits:\n{units}{example}\n"
        path.write_text(text, encoding="utf-8")
        loaded, diags = load_scenario(path, content)
        assert loaded is not None and not diags, (example, map_id, [str(d) for d in diags])
