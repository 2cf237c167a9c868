"""Hostile scenario files through ``dday scenario run`` and ``dday explain``: every mistake of a unit, a step, an
answer, a check or a ``packs:`` entry is reported at its line of the scenario before anything runs, exit 2, no
traceback, no secret (docs/security.md)."""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET

import pytest
from hostile_kit import SECOND_LINE, SECRET, World, check

from ddaydice.dsl.limits import MAX_FILE_BYTES

SCENARIO = """\
scenario: Upkeep turns Tools into Item Points
map: exercise-tiger
variant: advanced-training
fallback: none
seed: 1
units:
  - {id: u1, sector: s1, soldiers: 4}
tally:
  u1: [red tool, red courage, white courage, white star, blue star, blue one-soldier]
answers:
  u1: []
steps:
  - phase: upkeep
expect:
  - u1.item-points: 1
"""


def _write(world: World, text: str | bytes, name: str = "q.yaml") -> str:
    path = world.work / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return name


def test_the_clean_scenario_passes(world: World) -> None:
    check(world.run("scenario", "run", _write(world, SCENARIO)), 0, text=("PASS",))


# (what to replace, by what) -> the code reported at the scenario's line
MISTAKES: dict[str, tuple[str, str, str]] = {
    # units
    "soldiers-negative": ("soldiers: 4}", "soldiers: -4}", "SCHEMA004"),
    "soldiers-huge": ("soldiers: 4}", "soldiers: 100000000000}", "SCHEMA004"),
    "soldiers-text": ("soldiers: 4}", "soldiers: many}", "SCHEMA004"),
    "soldiers-float": ("soldiers: 4}", "soldiers: 4.5}", "SCHEMA004"),
    "courage-negative": ("soldiers: 4}", "soldiers: 4, courage: -1}", "SCHEMA004"),
    "status-unknown": ("soldiers: 4}", "soldiers: 4, status: zombie}", "SCEN001"),
    "vehicle-unknown": ("soldiers: 4}", "soldiers: 4, vehicle: ../../etc/passwd}", "SCEN001"),
    "marker-unknown": ("soldiers: 4}", "soldiers: 4, marker: chevron-9}", "SCEN001"),
    "sector-unknown": ("sector: s1,", "sector: s99,", "SCEN001"),
    "specialist-unknown": ("soldiers: 4}", "soldiers: 4, specialists: [wizard]}", "SCEN001"),
    "item-unknown": ("soldiers: 4}", "soldiers: 4, items: [\"\\e[31m\"]}", "YAML007"),
    "unit-id-out-of-order": ("{id: u1,", "{id: u7,", "SCEN001"),
    "unit-unknown-key": ("soldiers: 4}", "soldiers: 4, hp: 9}", "SCHEMA002"),
    # the game
    "map-unknown": ("map: exercise-tiger", "map: ../../etc/passwd", "SCEN001"),
    "variant-unknown": ("variant: advanced-training", "variant: godmode", "SCEN001"),
    "option-unknown": ("fallback: none", "fallback: none\noptions: [cheat]", "SCEN001"),
    "fallback-unknown": ("fallback: none", "fallback: human", "SCHEMA004"),
    "seed-huge": ("seed: 1", "seed: 1000000000000000000000000000000", "SCHEMA004"),
    "seed-nan": ("seed: 1", "seed: .nan", "SCHEMA004"),
    "seed-inf": ("seed: 1", "seed: .inf", "SCHEMA004"),
    "seed-text": ("seed: 1", "seed: one", "SCHEMA004"),
    "turn-negative": ("seed: 1", "seed: 1\nturn: -3", "SCHEMA004"),
    "turn-huge": ("seed: 1", "seed: 1\nturn: 1000000", "SCHEMA004"),
    "phase-unknown": ("seed: 1", "seed: 1\nphase: lunch", "SCEN001"),
    "rolls-seven": ("seed: 1", "seed: 1\nrolls: [7]", "SCEN001"),
    "rolls-negative": ("seed: 1", "seed: 1\nrolls: [-1]", "SCEN001"),
    "unknown-top-key": ("seed: 1", "seed: 1\nexec: rm -rf /", "SCHEMA002"),
    "no-map": ("map: exercise-tiger\n", "", "SCHEMA003"),
    "units-a-text": ("units:\n  - {id: u1, sector: s1, soldiers: 4}", "units: everyone", "SCHEMA004"),
    # tally
    "tally-face": ("blue one-soldier]", "blue dragon]", "SCEN001"),
    "tally-colour": ("red tool,", "green tool,", "SCEN001"),
    "tally-words": ("red tool,", "red red red tool,", "SCEN001"),
    "tally-unit": ("  u1: [red tool", "  u9: [red tool", "SCEN001"),
    # a Final Tally holds no more dice than a player rolls (rules/dice.yaml: 2 of each of 3 colours)
    "tally-seven-dice": ("blue one-soldier]", "blue one-soldier, red skull]", "SCEN001"),
    "tally-5000-dice": ("blue one-soldier]", "blue one-soldier" + ", red skull" * 5000 + "]", "SCEN001"),
    "tally-die-place": ("red tool,", "red tool die 7,", "SCEN001"),
    "tally-die-place-unicode": ("red tool,", "red tool die ²,", "SCEN001"),
    "tally-die-place-huge": ("red tool,", "red tool die " + "9" * 5000 + ",", "SCEN001"),
    "tally-virtual-many": ("blue one-soldier]", "blue one-soldier" + ", courage" * 100 + "]", "SCEN001"),
    "kept-tally-seven-dice": ("soldiers: 4}", "soldiers: 4, kept-tally: [" + ", ".join(["red star"] * 7) + "]}",
                              "SCEN001"),
    "trading-pool-seven-dice": ("soldiers: 4}", "soldiers: 4, trading-pool: [" + ", ".join(["red star"] * 7)
                                + "]}", "SCEN001"),
    "units-more-than-the-map": ("  - {id: u1, sector: s1, soldiers: 4}",
                                "".join(f"  - {{id: u{i}, sector: s1}}\n" for i in range(1, 6)), "SCEN001"),
    "tally-number": ("red tool,", "3,", "SCHEMA004"),
    # answers
    "answers-unit": ("  u1: []", "  u9: []", "SCEN001"),
    "answers-mapping": ("  u1: []", "  u1: [{a: 1}]", "SCEN001"),
    "answers-bool": ("  u1: []", "  u1: [true]", "SCEN001"),
    "answers-negative": ("  u1: []", "  u1: [-1]", "SCEN001"),
    "answers-nested": ("  u1: []", "  u1: [[[1]]]", "SCEN001"),
    "answers-long-text": ("  u1: []", "  u1: [" + "x" * 300 + "]", "SCEN001"),
    "answers-a-text": ("  u1: []", "  u1: yes", "SCHEMA004"),
    # steps
    "step-unknown-word": ("  - phase: upkeep", "  - dance", "SCEN001"),
    "step-phase": ("  - phase: upkeep", "  - phase: lunch", "SCEN001"),
    "step-turns-huge": ("  - phase: upkeep", "  - turns: 100000000", "SCEN001"),
    "step-turns-negative": ("  - phase: upkeep", "  - turns: -5", "SCEN001"),
    "step-turns-text": ("  - phase: upkeep", "  - turns: many", "SCEN001"),
    "step-turns-float": ("  - phase: upkeep", "  - turns: 2.5", "SCEN001"),
    "step-turns-bool": ("  - phase: upkeep", "  - turns: true", "SCEN001"),
    "step-two-actions": ("  - phase: upkeep", "  - {phase: upkeep, turn: true}", "SCEN001"),
    "step-no-action": ("  - phase: upkeep", "  - {unit: u1}", "SCEN001"),
    "step-unit-unknown": ("  - phase: upkeep", "  - {use: medic, unit: u9}", "SCEN001"),
    "step-trade-unknown": ("  - phase: upkeep", "  - {trade: u9, give: soldiers}", "SCEN001"),
    "step-amount-text": ("  - phase: upkeep", "  - {trade: u1, amount: lots}", "SCEN001"),
    "step-amount-negative": ("  - phase: upkeep", "  - {trade: u1, amount: -3}", "SCEN001"),
    "step-give-list": ("  - phase: upkeep", "  - {trade: u1, give: [a]}", "SCEN001"),
    "step-refused-text": ("  - phase: upkeep", "  - {move: s2, refused: maybe}", "SCEN001"),
    "step-move-number": ("  - phase: upkeep", "  - {move: 5}", "SCEN001"),
    "step-use-mapping": ("  - phase: upkeep", "  - {use: {a: b}}", "SCEN001"),
    "step-unknown-key": ("  - phase: upkeep", "  - {phase: upkeep, with: style}", "SCEN001"),
    "step-a-number": ("  - phase: upkeep", "  - 42", "SCEN001"),
    "step-a-list": ("  - phase: upkeep", "  - [phase, upkeep]", "SCEN001"),
    # checks
    "check-field": ("  - u1.item-points: 1", "  - u1.hit-points: 1", "SCEN001"),
    "check-dunder": ("  - u1.item-points: 1", "  - u1.__class__: 1", "SCEN001"),
    "check-unit": ("  - u1.item-points: 1", "  - u9.item-points: 1", "SCEN001"),
    "check-query-unit": ("  - u1.item-points: 1", "  - query def for u9: 1", "SCEN001"),
    "check-query-grammar": ("  - u1.item-points: 1", "  - query def bogus: 1", "SCEN001"),
    "check-query-from": ("  - u1.item-points: 1", "  - query casualties for u1 from many: 1", "SCEN001"),
    "check-query-empty": ("  - u1.item-points: 1", "  - 'query ': 1", "SCEN001"),
    "check-game-field": ("  - u1.item-points: 1", "  - weather: sunny", "SCEN001"),
    "check-a-list": ("  - u1.item-points: 1", "  - [1, 2]", "SCEN001"),
    "check-a-text": ("  - u1.item-points: 1", "  - u1.item-points", "SCEN001"),
    "check-empty-mapping": ("  - u1.item-points: 1", "  - {}", "SCEN001"),
    # packs
    "packs-parent": ("fallback: none", "fallback: none\npacks: [..]", "PACK013"),
    "packs-outside": ("fallback: none", "fallback: none\npacks: [../outside/evil]", "PACK013"),
    "packs-absolute": ("fallback: none", "fallback: none\npacks: [/etc]", "PACK013"),
    # outside, and absent: the same answer as for a folder that is there (nothing is told of what lies outside)
    "packs-outside-absent": ("fallback: none", "fallback: none\npacks: [../outside/nowhere]", "PACK013"),
    "packs-absolute-absent": ("fallback: none", "fallback: none\npacks: [/nonexistent-dday-folder/x]", "PACK013"),
    "packs-unknown": ("fallback: none", "fallback: none\npacks: [nothere]", "PACK003"),
    "packs-empty": ("fallback: none", "fallback: none\npacks: ['']", "PACK003"),
    "packs-escape": ("fallback: none", 'fallback: none\npacks: ["\\e[31m"]', "YAML007"),
    "packs-bidi": ("fallback: none", 'fallback: none\npacks: ["x\\u202e"]', "YAML007"),
    "packs-number": ("fallback: none", "fallback: none\npacks: [5]", "PACK003"),
    "packs-no-folder": ("fallback: none", "fallback: none\npacks: [./nowhere]", "PACK003"),
    "packs-not-a-pack": ("fallback: none", "fallback: none\npacks: [./q.yaml]", "PACK003"),
}


@pytest.mark.parametrize("case", sorted(MISTAKES))
def test_a_scenario_mistake_is_located_before_it_runs(world: World, case: str) -> None:
    old, new, code = MISTAKES[case]
    assert old in SCENARIO, old
    name = _write(world, SCENARIO.replace(old, new, 1))
    result = world.run("scenario", "run", name)
    check(result, 2, (code,), file=name)
    assert "PASS" not in result.output and "FAIL" not in result.output, result.output  # nothing ran


YAML_ATTACKS: dict[str, tuple[str | bytes, str]] = {
    "billion-laughs": ("a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 9) + "]\n" for i in range(9)),
                       "YAML005"),
    "aliases-in-steps": (SCENARIO.replace("  - phase: upkeep", "  - &s {phase: upkeep}\n" + "  - *s\n" * 150),
                         "YAML005"),
    "deep": ("a: " + "[" * 200 + "]" * 200 + "\n", "YAML006"),
    "too-large": (SCENARIO + "# " + "x" * MAX_FILE_BYTES + "\n", "LOAD005"),
    "not-utf8": (b"scenario: caf\xe9\n", "YAML003"),
    "plain-text": (f"just a line\n{SECOND_LINE}\n", "SCHEMA001"),
    "a-list": ("- 1\n", "SCHEMA001"),
    "duplicate-key": (SCENARIO + "seed: 2\n", "YAML002"),
}


@pytest.mark.parametrize("attack", sorted(YAML_ATTACKS))
def test_a_yaml_attack_on_a_scenario_is_refused(world: World, attack: str) -> None:
    text, code = YAML_ATTACKS[attack]
    name = _write(world, text)
    check(world.run("scenario", "run", name), 2, (code,), file=name)


def test_a_pack_that_links_a_secret_is_reported_against_its_files(world: World) -> None:
    (world.pack / "cards" / "x.yaml").symlink_to(world.outside / "secret.yaml")
    name = _write(world, SCENARIO.replace("fallback: none", "fallback: none\npacks: [./pack]"))
    check(world.run("scenario", "run", name), 2, ("PACK010", "SCEN002"), file=name)


def test_every_scenario_naming_packs_that_do_not_load_says_why(world: World) -> None:
    """The content of a run is loaded once per list of packs: a second scenario naming the same broken pack says
    why as the first does (the cache keeps the loader's diagnostics with the content it failed to give), and the
    pack's own errors are told once for the run, not once per scenario (JSON and text)."""
    (world.pack / "cards" / "x.yaml").symlink_to(world.outside / "secret.yaml")
    text = SCENARIO.replace("fallback: none", "fallback: none\npacks: [./pack]")
    first, second = _write(world, text, "q.yaml"), _write(world, text, "r.yaml")
    result = world.run("scenario", "run", "--format", "json", first, second)
    check(result, 2)
    diags = json.loads(result.output)["diagnostics"]
    codes = [d["code"] for d in diags]
    assert codes.count("PACK010") == 1 and codes.count("SCEN002") == 2, codes
    text_run = world.run("scenario", "run", first, second)
    assert text_run.output.count(": PACK010 ") == 1, text_run.output


def test_a_scenario_inside_a_pack_names_it_by_its_id(world: World) -> None:
    (world.pack / "scenarios" / "q.yaml").write_text(SCENARIO.replace("fallback: none", "fallback: none\n"
                                                                      "packs: [pack]"), encoding="utf-8")
    check(world.run("scenario", "run", "pack/scenarios"), 0, text=("PASS",))


def test_a_scenario_names_a_pack_beside_it_by_a_path_inside_the_current_folder(world: World) -> None:
    (world.work / "elsewhere").mkdir()
    (world.work / "elsewhere" / "q.yaml").write_text(SCENARIO.replace("fallback: none", "fallback: none\n"
                                                                      "packs: [../pack]"), encoding="utf-8")
    check(world.run("scenario", "run", "elsewhere/q.yaml"), 0, text=("PASS",))


@pytest.mark.parametrize("what", ["dev-zero", "pipe", "link-out"])
def test_a_scenario_that_is_no_regular_file_is_refused(world: World, what: str) -> None:
    if what == "dev-zero":
        check(world.run("scenario", "run", "/dev/zero"), 2, ("LOAD006",))
    elif what == "pipe":
        os.mkfifo(world.work / "p.yaml")
        check(world.run("scenario", "run", "p.yaml"), 2, ("LOAD006",), file="p.yaml")
    else:  # a folder of scenarios holding a link to a secret: the link is not followed, and said so
        (world.work / "s").mkdir()
        (world.work / "s" / "q.yaml").write_text(SCENARIO, encoding="utf-8")
        (world.work / "s" / "x.yaml").symlink_to(world.outside / "secret.yaml")
        (world.work / "s" / "loop").symlink_to(".")
        check(world.run("scenario", "run", "s"), 2, ("PACK010", "PACK011"), file="s/x.yaml",
              text=("1 passed, 0 failed, 2 unusable",))


FAILING = SCENARIO.replace("u1.item-points: 1", "u1.item-points: 99")


def test_a_folder_of_scenarios_runs_its_links_inside_it_and_reports_the_others(world: World) -> None:
    """A link under a folder given to ``dday scenario run`` is run when it resolves inside that folder (to a file,
    or to a folder, entered once), and reported otherwise (PACK010 outside, PACK011 broken): none is passed over
    in silence, so a failing scenario linked in is never a green run. A file reached by several names (itself, a
    link to it, a link to its folder) runs once, under the first name in order."""
    s = world.work / "s"
    (s / "sub").mkdir(parents=True)
    (s / "real.yaml").write_text(SCENARIO, encoding="utf-8")
    (s / "sub" / "fails.yaml").write_text(FAILING, encoding="utf-8")
    (s / "inlink.yaml").symlink_to("sub/fails.yaml")
    (s / "linked").symlink_to("sub")
    (world.work / "shared.yaml").write_text(FAILING, encoding="utf-8")
    (s / "out.yaml").symlink_to(world.work / "shared.yaml")
    (s / "broken.yaml").symlink_to("nothing.yaml")
    result = world.run("scenario", "run", "s")
    check(result, 2, ("PACK010", "PACK011"), file="s/out.yaml",
          text=("FAIL s/inlink.yaml", "PASS s/real.yaml", "1 passed, 1 failed, 2 unusable"))
    assert "s/broken.yaml:1:1: PACK011" in result.output
    assert "s/linked/fails.yaml" not in result.output and "s/sub/fails.yaml" not in result.output
    check(world.run("scenario", "run", "s/out.yaml"), 1, text=("FAIL s/out.yaml",))  # named, it runs


def test_a_folder_of_too_many_scenarios_is_refused_not_clipped(world: World,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """More scenario files under a folder than MAX_FOLDER_ENTRIES: the folder is refused with PACK014 naming it
    and the limit (exit 2), never run short of its last files. (The limit is lowered for the test.)"""
    monkeypatch.setattr("ddaydice.interpreter.tools.scenario_folder.MAX_FOLDER_ENTRIES", 3)
    (world.work / "many" / "sub").mkdir(parents=True)
    for name in ("a.yaml", "b.yaml", "c.yaml"):
        (world.work / "many" / name).write_text(SCENARIO, encoding="utf-8")
    (world.work / "many" / "sub" / "z.yaml").write_text(FAILING, encoding="utf-8")  # the last in sort order
    check(world.run("scenario", "run", "many/sub"), 1, text=("FAIL many/sub/z.yaml",))
    result = world.run("scenario", "run", "many")
    check(result, 2, ("PACK014",), file="many", text=("more than 3 scenario files", "0 passed, 0 failed, 1 unusable"))
    check(world.run("scenario", "run", "many", "--format", "json"), 2)
    (world.work / "many" / "sub" / "z.yaml").unlink()
    check(world.run("scenario", "run", "many"), 0, text=("3 passed",))


@pytest.mark.parametrize("case", ["step-turns-huge", "check-field", "packs-outside", "status-unknown"])
def test_explain_refuses_the_same_mistakes(world: World, case: str) -> None:
    old, new, code = MISTAKES[case]
    name = _write(world, SCENARIO.replace(old, new, 1))
    check(world.run("explain", name, "def", "for", "u1"), 2, (code,), file=name)


@pytest.mark.parametrize("case", ["status-unknown", "packs-outside", "pack-does-not-load"])
def test_explain_json_stays_json_when_the_scenario_does_not_load(world: World, case: str) -> None:
    """``dday explain --format json``: a scenario that does not load (its own mistake, a ``packs:`` entry refused,
    or a pack whose content does not load) gives its diagnostics as JSON on standard output, as dday validate
    --format json does, never their text."""
    if case == "pack-does-not-load":
        (world.pack / "cards" / "bin.yaml").write_bytes(b"\x00\xff\xfe binary")
        text = SCENARIO.replace("fallback: none", "fallback: none\npacks: [./pack]")
        expected, status = ("file", "pack/cards/bin.yaml"), 1
    else:
        old, new, code = MISTAKES[case]
        text, expected, status = SCENARIO.replace(old, new, 1), ("code", code), 2
    name = _write(world, text)
    result = world.run("explain", name, "def", "for", "u1", "--format", "json")
    assert result.exit_code == status, result.output
    diagnostics = json.loads(result.stdout)
    key, value = expected
    assert [d[key] for d in diagnostics] == [value], diagnostics


@pytest.mark.parametrize("query", ["def for u9", "casualties for u1 from 999999999999999999999999", "bogus",
                                   "def for u1 with style", "\x1b[31m"])
def test_explain_refuses_a_bad_query(world: World, query: str) -> None:
    name = _write(world, SCENARIO)
    result = world.run("explain", name, *query.split())
    check(result, 2, text=("Error",))


def test_a_runtime_refusal_names_its_step(world: World) -> None:
    """A step the rules refuse at run time (not known before: the Bazooka exists, Unit 1 does not hold it) names
    its line."""
    name = _write(world, SCENARIO.replace("  - phase: upkeep", "  - {use: bazooka}"))
    result = world.run("scenario", "run", name)
    check(result, 1, text=("FAIL", f"{name}:13:5: step"))


assert SECRET not in SCENARIO


HOSTILE_TITLE = 'a <b> & "c" ]]> RED'


def test_content_text_and_file_names_reach_no_terminal_and_no_xml_raw(world: World) -> None:
    """A scenario's file's name may hold control characters (an OSC escape, ESC, a bell) and its title XML's own
    characters: the PASS/FAIL line shows the name's as \\uXXXX, as diagnostics do (check() finds no control
    character in the output), and the JUnit report is well-formed XML that says the same."""
    name = "x\x1b]0;T\x07y.yaml"
    (world.work / "s").mkdir()
    (world.work / "s" / name).write_text(FAILING.replace(
        "scenario: Upkeep turns Tools into Item Points", 'scenario: "a <b> & \\"c\\" ]]> RED"'), encoding="utf-8")
    result = world.run("scenario", "run", "s", "--junit", "report.xml")
    check(result, 1, text=("FAIL s/x\\u001b]0;T\\u0007y.yaml: a <b> & \"c\" ]]> RED",))
    root = ET.parse(world.work / "report.xml").getroot()  # well-formed
    case = root.find("./testsuite/testcase")
    assert case is not None
    assert case.get("name") == HOSTILE_TITLE
    assert case.get("file") == "s/x\\u001b]0;T\\u0007y.yaml"
    assert case.get("classname") == "s.x\\u001b]0;T\\u0007y"
    data = json.loads(world.run("scenario", "run", "s", "--format", "json").output)
    assert data["scenarios"][0]["scenario"] == HOSTILE_TITLE


def test_a_title_with_control_characters_is_refused_at_the_character(world: World) -> None:
    """A scenario's title holding control characters (\\x01, an OSC escape, a bidi override) is refused as content's
    texts are (YAML007, at the first as written), before it runs: no line shows it."""
    (world.work / "s.yaml").write_text(FAILING.replace(
        "scenario: Upkeep turns Tools into Item Points", 'scenario: "a \\x01 \\e]0;pwned\\a \\u202e"'),
        encoding="utf-8")
    check(world.run("scenario", "run", "s.yaml"), 2, ("YAML007",), text=("s.yaml:1:14: YAML007",))


def test_a_junit_report_is_written_when_no_scenario_is_found(world: World) -> None:
    """A CI's report step reads the JUnit file whatever happened: with nothing to run it is still written (zero
    test cases), and the run is a usage error."""
    (world.work / "empty").mkdir()
    check(world.run("scenario", "run", "empty", "--junit", "report.xml"), 2, text=("no scenario files found",))
    root = ET.parse(world.work / "report.xml").getroot()
    assert (root.get("tests"), root.findall(".//testcase")) == ("0", [])
