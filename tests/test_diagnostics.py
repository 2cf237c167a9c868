"""What a modder sees when content is broken: every kind of mistake, through ``dday validate``.

Each test writes a small content tree into ``tmp_path`` (the bundled rules, two
base card files, and the broken file), runs ``dday validate --root .`` from
inside it, checks the exit status and the place of the first diagnostic, and
snapshots the exact text (``--snapshot-update`` after a deliberate change of a
message).
"""

from __future__ import annotations

import json
import shutil
import textwrap
from collections.abc import Mapping
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from syrupy.assertion import SnapshotAssertion

from ddaydice.dsl.limits import MAX_EFFECT_NESTING
from ddaydice.dsl.places import bundled_root
from ddaydice.interpreter.cli import main

# A few base cards, so that names such as 'medic' or 'bazooka' resolve.
SPECIALISTS = """\
kind: specialist
cards:
  - id: medic
    name: Medic
    cost: 4
    text: Saves 1 Soldier in each Phase.
    effect: |
      casualties -1 once per phase
    provenance: rulebook
  - id: scout
    name: Scout
    cost: 3
    text: Re-rolls 1 die that is not Locked, once per turn.
    effect: |
      use once per turn after final-tally: reroll 1 die unlocked
    provenance: rulebook
"""

ITEMS = """\
kind: item
cards:
  - id: bazooka
    name: Bazooka
    cost: 5
    text: The DEF of the Sector is reduced by 2 this turn.
    effect: |
      use before mgf: def -2 this turn
    provenance: rulebook
"""

# A small, valid map; tests break one thing in it.
MAP = """\
id: tiny
name: Tiny Beach
provenance: reconstructed
note: a map made for tests
specialists: [medic, scout]
items: [bazooka]
sectors:
  - id: s1
    name: Sector 1
    row: 1
    def: [2]
    provenance: reconstructed
    start: {soldiers: 10, courage: 2}
  - id: s2
    name: Sector 2
    row: 2
    def: [3]
    bunker: true
    provenance: reconstructed
lines:
  - {from: [s1], to: [s2], kind: advance, cost: 2}
attributes:
  - {id: shelter, name: Shelter, text: DEF -1 here., effect: "def -1"}
tables:
  - {id: weather, name: Weather, results: [shelter, shelter, shelter, shelter, shelter, shelter]}
"""

PACK = """\
id: extra
name: Extra
version: "1.0"
text: A pack made for tests.
provenance: reconstructed
note: everything in it is ours
"""


def content_tree(root: Path, files: Mapping[str, str | bytes]) -> Path:
    """A content tree: the bundled rules (not its optional rules), two base card files, then ``files``."""
    (root / "rules").mkdir(parents=True)
    for src in sorted((bundled_root() / "rules").glob("*.yaml")):
        shutil.copyfile(src, root / "rules" / src.name)
    everything: dict[str, str | bytes] = {"cards/specialists.yaml": SPECIALISTS, "cards/items.yaml": ITEMS, **files}
    for rel, body in everything.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(body, bytes):
            path.write_bytes(body)
        else:
            path.write_text(body, encoding="utf-8")
    return root


def dday(monkeypatch: pytest.MonkeyPatch, where: Path, *args: str) -> Result:
    """Run ``dday ARGS`` from ``where``, as a user would (paths print relative to it)."""
    monkeypatch.chdir(where)
    return CliRunner().invoke(main, list(args), prog_name="dday", catch_exceptions=False)


def validate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: Mapping[str, str | bytes],
             *args: str) -> Result:
    content_tree(tmp_path, files)
    return dday(monkeypatch, tmp_path, "validate", "--root", ".", *args)


def card(effect: str | None = None, *, kind: str = "specialist", **fields: str) -> str:
    """A card file holding one card 'tester'; ``effect`` becomes a literal block at the end."""
    entry = {"id": "tester", "name": "Tester", "cost": "3", "text": "A card under test.", "provenance": "rulebook"}
    entry.update(fields)
    lines = [f"kind: {kind}", "cards:"]
    for i, (key, value) in enumerate(entry.items()):
        lines.append(f"{'  - ' if i == 0 else '    '}{key}: {value}")
    if effect is not None:
        lines.append("    effect: |")
        lines += ["      " + line for line in textwrap.dedent(effect).strip("\n").splitlines()]
    return "\n".join(lines) + "\n"


def bad(result: Result, where: str, *, status: int = 1) -> None:
    """The run failed with ``status`` and reported a diagnostic starting ``where`` (file:line:col: CODE)."""
    assert result.exit_code == status, result.output
    assert where in result.output, result.output


# ----------------------------------------------------------------------- YAML
def test_yaml_syntax_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snapshot: SnapshotAssertion) -> None:
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card(name="[Tester")})
    bad(result, "cards/new.yaml:5:9: YAML001")
    assert "the '[' at line 4, column 11 is never closed" in result.output
    assert result.output == snapshot


def test_duplicate_yaml_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snapshot: SnapshotAssertion) -> None:
    text = card().replace("    text: A card under test.\n", "    text: A card under test.\n    name: Other\n")
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": text})
    bad(result, "cards/new.yaml:7:5: YAML002 duplicate key \"name\"")
    assert result.output == snapshot


def test_tab_in_indentation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snapshot: SnapshotAssertion) -> None:
    text = card().replace("    name: Tester", "\tname: Tester")
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": text})
    bad(result, "cards/new.yaml:4:1: YAML001")
    assert "replace the tab with spaces" in result.output
    assert result.output == snapshot


def test_bad_indentation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snapshot: SnapshotAssertion) -> None:
    text = card().replace("    name: Tester", "   name: Tester")
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": text})
    bad(result, "cards/new.yaml:4:4: YAML001")
    assert result.output == snapshot


def test_unquoted_effect_with_colon(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                    snapshot: SnapshotAssertion) -> None:
    text = card() + "    effect: on advance: gain 3 soldiers\n"
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": text})
    bad(result, "cards/new.yaml:8:23: YAML001 YAML syntax error: mapping values are not allowed here")
    assert result.output == snapshot


def test_empty_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snapshot: SnapshotAssertion) -> None:
    result = validate(tmp_path, monkeypatch, {"cards/empty.yaml": "", "cards/comment.yaml": "# nothing yet\n"})
    bad(result, "cards/comment.yaml:1:1: SCHEMA001 the file is empty")
    bad(result, "cards/empty.yaml:1:1: SCHEMA001 the file is empty")
    assert result.output == snapshot


def test_not_utf8(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snapshot: SnapshotAssertion) -> None:
    text = card(name="Caf\u00e9").encode("latin-1")
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": text})
    bad(result, "cards/new.yaml:4:14: YAML003 not UTF-8 text: byte 0xe9")
    assert result.output == snapshot


def test_top_level_not_a_mapping(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                 snapshot: SnapshotAssertion) -> None:
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": "- id: medic\n- id: scout\n"})
    bad(result, "cards/new.yaml:1:1: SCHEMA001 expected a mapping, found a list")
    assert result.output == snapshot


# ------------------------------------------------------------ keys and types
def test_unknown_key_did_you_mean(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                  snapshot: SnapshotAssertion) -> None:
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card(provenence="rulebook")})
    bad(result, "cards/new.yaml:8:5: SCHEMA002 unknown key 'provenence'")
    assert "did you mean 'provenance'?" in result.output
    assert result.output == snapshot


def test_missing_required_keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snapshot: SnapshotAssertion) -> None:
    text = textwrap.dedent("""\
        kind: item
        cards:
          - id: no-provenance
            name: No Provenance
            cost: 1
            text: Lacks its provenance.
          - id: no-text
            name: No Text
            cost: 1
            provenance: rulebook
          - name: No Id
            cost: 1
            text: Lacks its id.
            provenance: rulebook
          - id: no-cost
            name: No Cost
            text: An Item must have a cost.
            provenance: rulebook
        """)
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": text})
    bad(result, "cards/new.yaml:3:5: SCHEMA003 missing required key 'provenance'")
    bad(result, "cards/new.yaml:7:5: SCHEMA003 missing required key 'text'")
    bad(result, "cards/new.yaml:11:5: SCHEMA003 missing required key 'id'")
    bad(result, "cards/new.yaml:15:5: SCHEMA003 missing required key 'cost' for an item")
    assert result.output == snapshot


def test_wrong_types(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snapshot: SnapshotAssertion) -> None:
    text = textwrap.dedent("""\
        kind: specialist
        cards:
          - {id: a, name: A, cost: four, text: x, provenance: rulebook}
          - {id: b, name: B, cost: true, text: x, provenance: rulebook}
          - {id: c, name: C, cost: 1, text: 3, provenance: rulebook}
          - {id: d, name: D, cost: 1, text: x, provenance: rulebook, effect: [gain 1 star]}
        """)
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": text})
    bad(result, "cards/new.yaml:3:28: SCHEMA004 'cost': expected a whole number, found the text 'four'")
    bad(result, "cards/new.yaml:4:28: SCHEMA004 'cost': expected a whole number, found true")
    bad(result, "cards/new.yaml:5:37: SCHEMA004 'text': expected text, found the number 3")
    bad(result, "cards/new.yaml:6:70: SCHEMA004 'effect': expected text, found a list")
    assert 'hint: YAML reads this as a number: to write text, quote it ("3")' in result.output
    assert result.output == snapshot


def test_a_key_with_no_value_is_told_at_the_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              snapshot: SnapshotAssertion) -> None:
    """'effect:' with nothing after it is told on its own line, the caret under the key, not under the key of the
    next line (where the YAML parser places the missing value)."""
    text = textwrap.dedent("""\
        kind: item
        cards:
          - id: empty-effect
            name: Empty Effect
            cost: 1
            text: Its effect is left empty.
            effect:
            provenance: rulebook
        """)
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": text})
    bad(result, "cards/new.yaml:7:5: SCHEMA004 'effect': expected text, found nothing (null)")
    assert "        effect:\n        ^\n" in result.output
    assert result.output == snapshot


def test_a_misspelt_kind_is_one_error_and_its_cards_are_still_checked(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """'kind: specialists' (for 'specialist'): SCHEMA004 with its hint, and the cards read as the kind it stands for,
    so their own mistakes are told too and what names them is not told of (one mistake, one error)."""
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card("use: gain 2 corage", kind="specialists")})
    bad(result, "cards/new.yaml:1:7: SCHEMA004 'kind': 'specialists' is not allowed")
    assert "did you mean 'specialist'?" in result.output
    bad(result, "cards/new.yaml:9:19: DSL102 gain: unknown resource 'corage'")


def test_cards_not_a_list(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snapshot: SnapshotAssertion) -> None:
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": "kind: item\ncards: bazooka\n"})
    bad(result, "cards/new.yaml:2:1: SCHEMA004 'cards': expected a list of cards")
    assert result.output == snapshot


def test_bad_provenance_did_you_mean(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     snapshot: SnapshotAssertion) -> None:
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card(provenance="printed-bord")})
    bad(result, "cards/new.yaml:7:17: SCHEMA005 'provenance': 'printed-bord' is not allowed")
    assert "did you mean 'printed-board'?" in result.output
    assert result.output == snapshot


def test_bad_literal_card_kind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snapshot: SnapshotAssertion) -> None:
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card(kind="specalist")})
    bad(result, "cards/new.yaml:1:7: SCHEMA004 'kind': 'specalist' is not allowed")
    assert "did you mean 'specialist'?" in result.output
    assert result.output == snapshot


def test_reconstructed_without_note(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                    snapshot: SnapshotAssertion) -> None:
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card(provenance="reconstructed")})
    bad(result, "cards/new.yaml:7:17: PROV001 a reconstruction needs a 'note'")
    assert result.output == snapshot


def test_duplicate_card_id_across_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        snapshot: SnapshotAssertion) -> None:
    # files load in name order: the second definition is the one reported
    result = validate(tmp_path, monkeypatch, {"cards/veterans.yaml": card(id="medic")})
    bad(result, "cards/veterans.yaml:3:9: DUP001 duplicate card id 'medic' (first defined at "
                "cards/specialists.yaml:3)")
    assert result.output == snapshot


def test_a_duplicate_card_is_still_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every mistake at once: the card whose id is taken is told DUP001, and its effect's and provenance's mistakes
    are told too (they were told only once the id was mended)."""
    dup = card("use: gain 2 corage", id="medic", provenance="reconstructed")
    result = validate(tmp_path, monkeypatch, {"cards/veterans.yaml": dup})
    bad(result, "cards/veterans.yaml:3:9: DUP001 duplicate card id 'medic'")
    bad(result, "cards/veterans.yaml:9:19: DSL102 gain: unknown resource 'corage'")
    bad(result, "cards/veterans.yaml:7:17: PROV001 a reconstruction needs a 'note'")


# --------------------------------------------------------- the effect language
def test_misspelt_verb(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snapshot: SnapshotAssertion) -> None:
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card("on advance: gian 3 soldiers")})
    bad(result, "cards/new.yaml:9:19: DSL101 unknown action 'gian'")
    assert "did you mean 'gain'?" in result.output
    assert result.output == snapshot


def test_action_written_as_standing_modifier(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             snapshot: SnapshotAssertion) -> None:
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card("gain 3 soldiers\nstay -1")})
    bad(result, "cards/new.yaml:9:7: DSL101 'gain' is an action; it needs a trigger or a use")
    bad(result, "cards/new.yaml:10:7: DSL101 'stay' is a permission, not a value")
    assert result.output == snapshot


def test_misspelt_resource(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snapshot: SnapshotAssertion) -> None:
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card("on advance: gain 3 curage")})
    bad(result, "cards/new.yaml:9:26: DSL102 gain: unknown resource 'curage'")
    assert "did you mean 'courage'?" in result.output
    assert result.output == snapshot


def test_misspelt_face_and_colour(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                  snapshot: SnapshotAssertion) -> None:
    effect = """\
        on final-tally: add 1 skul red
        on final-tally: add 1 skull whit
        use: reroll 1 die unlockd
        """
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card(effect)})
    bad(result, "cards/new.yaml:9:29: DSL102 add: unknown face 'skul'")
    bad(result, "cards/new.yaml:10:35: DSL102 add: unknown colour 'whit'")
    bad(result, "cards/new.yaml:11:25: DSL102 reroll: unknown filter 'unlockd'")
    assert "did you mean 'white'?" in result.output
    assert "did you mean 'unlocked'?" in result.output
    assert result.output == snapshot


def test_wrong_arity(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snapshot: SnapshotAssertion) -> None:
    effect = """\
        on advance: gain 3
        on advance: gain 3 soldiers now
        use: copy-tally 2
        """
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card(effect)})
    bad(result, "cards/new.yaml:9:19: DSL103 gain: missing resource")
    bad(result, "cards/new.yaml:10:35: DSL103 gain: 'now' is one argument too many")
    assert "hint: the form is: copy-tally\n" in result.output
    bad(result, "cards/new.yaml:11:23: DSL103 copy-tally: the number 2 is one argument too many")
    assert result.output == snapshot


def test_wrong_argument_kind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snapshot: SnapshotAssertion) -> None:
    effect = """\
        on advance: gain soldiers 3
        def 2
        use: recruit bazooka free
        """
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card(effect)})
    bad(result, "cards/new.yaml:9:24: DSL104 gain: expected amount, found 'soldiers'")
    assert "hint: the words are in the wrong order: 'gain 3 soldiers'" in result.output
    bad(result, "cards/new.yaml:10:11: DSL104 def: expected a change")
    bad(result, "cards/new.yaml:11:20: DSL104 recruit: expected specialist")
    assert result.output == snapshot


def test_a_right_change_followed_by_an_unknown_word_blames_the_word(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # The change -2 is right: the message must name what follows it (an unknown duration), not the change.
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card("use before mgf: def -2 until-move")})
    bad(result, "cards/new.yaml:9:30: DSL103 def: 'until-move' after the change -2 is not understood")
    assert "found the change" not in result.output
    assert "a duration is written in words, without a hyphen: 'until move'" in result.output


def test_a_condition_written_without_its_predicate_suggests_the_predicate(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    # 'soldiers' is a resource: the condition meant is 'have soldiers', not the nearest spelling ('holds').
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card("use if soldiers >= 3: gain 1 courage")})
    bad(result, "cards/new.yaml:9:14: DSL109 unknown condition 'soldiers'")
    assert "did you mean 'have soldiers'?" in result.output
    assert "'holds'" not in result.output


def test_modifier_in_actions_without_duration(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              snapshot: SnapshotAssertion) -> None:
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card("use before mgf: def -2")})
    bad(result, "cards/new.yaml:9:23: DSL105 'def' changes a value or a permission; inside actions it needs a "
                "duration")
    assert result.output == snapshot


def test_duration_on_instant_action(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                    snapshot: SnapshotAssertion) -> None:
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card("on advance: gain 3 soldiers this turn")})
    bad(result, "cards/new.yaml:9:19: DSL106 'gain' happens at once; 'this turn' makes no sense here")
    assert result.output == snapshot


def test_unknown_event(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snapshot: SnapshotAssertion) -> None:
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card("on advancing: gain 3 soldiers")})
    bad(result, "cards/new.yaml:9:10: DSL107 unknown event 'advancing'")
    assert "did you mean 'advance'?" in result.output
    assert result.output == snapshot


def test_unknown_window_moment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snapshot: SnapshotAssertion) -> None:
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card("use before mg-fire: def -2 this turn")})
    bad(result, "cards/new.yaml:9:18: DSL108 unknown moment 'mg-fire'")
    assert result.output == snapshot


def test_unknown_condition(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snapshot: SnapshotAssertion) -> None:
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card("use if in-bunker: def = 0 this turn")})
    bad(result, "cards/new.yaml:9:14: DSL109 unknown condition 'in-bunker'")
    assert result.output == snapshot


def test_number_predicate_without_comparison(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             snapshot: SnapshotAssertion) -> None:
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card("on final-tally if count skull: gain 1 star")})
    bad(result, "cards/new.yaml:9:25: DSL110 'count' is a number: compare it")
    assert "for example 'count skull >= 2'" in result.output
    assert result.output == snapshot


def test_boolean_predicate_with_comparison(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           snapshot: SnapshotAssertion) -> None:
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card("use if has medic >= 1: gain 1 star")})
    bad(result, "cards/new.yaml:9:14: DSL110 'has' is true or false and cannot be compared")
    assert "write 'if has medic' or 'unless has medic'" in result.output
    assert result.output == snapshot


def test_per_that_counts_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snapshot: SnapshotAssertion) -> None:
    effect = """\
        on final-tally: gain 1 soldier per locked
        use: reroll 1 die per skull
        """
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card(effect)})
    bad(result, "cards/new.yaml:9:38: DSL112 'per locked' needs a face")
    bad(result, "cards/new.yaml:10:25: DSL112 'reroll' cannot be multiplied with 'per'")
    assert result.output == snapshot


def test_map_word_outside_a_map(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snapshot: SnapshotAssertion) -> None:
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card("use: roll-attribute weather")})
    bad(result, "cards/new.yaml:9:12: DSL111 'roll-attribute' only makes sense in a map's Sector attributes")
    assert result.output == snapshot


def test_missing_colon(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snapshot: SnapshotAssertion) -> None:
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card("on advance gain 3 soldiers")})
    bad(result, "cards/new.yaml:9:18: DSL002 missing ':' before 'gain'")
    assert "put ':' before what they do" in result.output
    assert result.output == snapshot


def test_effect_ends_too_early(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snapshot: SnapshotAssertion) -> None:
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card("on advance:")})
    bad(result, "cards/new.yaml:9:18: DSL003 the clause ends too early")
    assert "hint: expected an action (gain 1 star, def -2 this turn) after ':'" in result.output
    assert result.output == snapshot


def test_unexpected_characters(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snapshot: SnapshotAssertion) -> None:
    text = textwrap.dedent("""\
        kind: specialist
        cards:
          - {id: a, name: A, cost: 1, text: x, provenance: rulebook, effect: "on advance: Gain 3 soldiers"}
          - {id: b, name: B, cost: 1, text: x, provenance: rulebook, effect: "advance_cost -1"}
        """)
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": text})
    bad(result, "cards/new.yaml:3:83: DSL001 unexpected character 'G'")
    bad(result, "cards/new.yaml:4:78: DSL001 unexpected character '_'")
    assert "words of the effect language are lower case: 'gain'" in result.output
    assert "words use hyphens, not underscores" in result.output
    assert result.output == snapshot


def test_error_on_second_line_of_block(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       snapshot: SnapshotAssertion) -> None:
    effect = """\
        casualties -1 once per phase
          on advance: gain 3 soldierz
        """
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card(effect)})
    # the block's second line, its own indentation included, in the file's own numbering
    bad(result, "cards/new.yaml:10:28: DSL102 gain: unknown resource 'soldierz'")
    assert result.output == snapshot


def test_error_in_quoted_one_line_effect(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         snapshot: SnapshotAssertion) -> None:
    text = card() + "    effect: 'use after final-tally: reface 1 die any-rol'\n"
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": text})
    bad(result, "cards/new.yaml:8:50: DSL102 reface: unknown filter 'any-rol'")
    assert "did you mean 'any-roll'?" in result.output
    assert result.output == snapshot


def test_folded_block_rejected(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snapshot: SnapshotAssertion) -> None:
    text = card() + "    effect: >\n      casualties -1\n      on advance: gain 1 star\n"
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": text})
    bad(result, "cards/new.yaml:8:13: YAML010 write effects as literal blocks ('|'), not folded ('>')")
    assert result.output == snapshot


def test_flow_scalar_on_several_lines_rejected(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               snapshot: SnapshotAssertion) -> None:
    # Regression: a quoted or plain effect folded over two lines merged its clauses, and errors
    # in it were reported on the wrong line.
    text = textwrap.dedent("""\
        kind: specialist
        cards:
          - id: a
            name: A
            cost: 1
            text: x
            provenance: rulebook
            effect: "casualties -1;
              on advance: gain 1 stra"
          - id: b
            name: B
            cost: 1
            text: x
            provenance: rulebook
            effect: casualties -1
              def -1
          - id: c
            name: C
            cost: 1
            text: x
            provenance: rulebook
            effect: "casualties -1\\non advance: gian 1 star"
        """)
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": text})
    bad(result, "cards/new.yaml:8:13: YAML011 an effect on several lines must be a literal block ('|')")
    bad(result, "cards/new.yaml:15:13: YAML011")
    bad(result, "cards/new.yaml:22:13: YAML011")
    assert "DSL" not in result.output
    assert result.output == snapshot


def test_nested_too_deeply(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snapshot: SnapshotAssertion) -> None:
    # Regression: 400 parentheses overflowed the Python stack in the tree transformer (see test_fuzz.py);
    # each level of parentheses adds two levels to the tree.
    deep = "(" * 60 + "bunker" + ")" * 60
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card(f"use if {deep}: def = 0 this turn")})
    assert MAX_EFFECT_NESTING < 60
    # pointed at the innermost word: 6 spaces of the block, 'use if ', 60 '('
    bad(result, f"cards/new.yaml:9:{6 + len('use if ') + 60 + 1}: DSL004 effect nested too deeply (60 brackets and "
                f"'not's inside each other; at most {MAX_EFFECT_NESTING} brackets and 'not's)")
    assert result.output == snapshot


# ----------------------------------------------------------------------- maps
def test_map_lists_unknown_specialist(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      snapshot: SnapshotAssertion) -> None:
    text = MAP.replace("specialists: [medic, scout]", "specialists: [medic, scoot]").replace(
        "items: [bazooka]", "items: [bazooka, medic]")
    result = validate(tmp_path, monkeypatch, {"maps/tiny.yaml": text})
    bad(result, "maps/tiny.yaml:5:22: XREF001 map 'tiny' lists specialist 'scoot' that does not exist")
    assert "did you mean 'scout'?" in result.output
    bad(result, "maps/tiny.yaml:6:18: XREF004 map 'tiny' lists 'medic' as an item, but it is a specialist")
    assert result.output == snapshot


def test_text_where_a_list_is_expected(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      snapshot: SnapshotAssertion) -> None:
    # Regression: 'specialists: medic' was read as the five Specialists 'm', 'e', 'd', 'i', 'c'.
    text = MAP.replace("specialists: [medic, scout]", "specialists: medic").replace(
        "  - {from: [s1], to: [s2], kind: advance, cost: 2}", "  - advance s1 to s2")
    result = validate(tmp_path, monkeypatch, {"maps/tiny.yaml": text})
    bad(result, "maps/tiny.yaml:5:14: SCHEMA004 'specialists': expected a list, found the text 'medic'")
    bad(result, "maps/tiny.yaml:21:5: SCHEMA004 item 1 of 'lines': expected a mapping, found the text 'advance s1 to "
                "s2'")
    assert "XREF" not in result.output
    assert result.output == snapshot


def test_map_line_to_unknown_sector(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                    snapshot: SnapshotAssertion) -> None:
    text = MAP.replace("{from: [s1], to: [s2]", "{from: [s1], to: [s3]")
    result = validate(tmp_path, monkeypatch, {"maps/tiny.yaml": text})
    bad(result, "maps/tiny.yaml:21:23: XREF002 line refers to unknown sector 's3'")
    assert "sectors of this map: s1, s2" in result.output
    assert result.output == snapshot


def test_map_without_start_or_bunker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     snapshot: SnapshotAssertion) -> None:
    text = MAP.replace("    start: {soldiers: 10, courage: 2}\n", "").replace("    bunker: true\n", "")
    result = validate(tmp_path, monkeypatch, {"maps/tiny.yaml": text})
    bad(result, "maps/tiny.yaml:1:1: MAP001 map 'tiny' has no starting sector")
    bad(result, "maps/tiny.yaml:1:1: MAP001 map 'tiny' has no Bunker")
    assert result.output == snapshot


def test_map_sector_and_line_values(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                    snapshot: SnapshotAssertion) -> None:
    text = (MAP.replace("    def: [3]\n", "    def: []\n").replace(", cost: 2}", "}")
            .replace("  - id: s2\n", "  - id: s1\n", 1))
    result = validate(tmp_path, monkeypatch, {"maps/tiny.yaml": text})
    bad(result, "maps/tiny.yaml:14:9: DUP001 duplicate sector id 's1' in map 'tiny' (first defined at "
                "maps/tiny.yaml:8)")
    bad(result, "maps/tiny.yaml:17:10: MAP003 sector 's1' has no DEF value")
    bad(result, "maps/tiny.yaml:21:5: MAP002 an advance line needs its Courage 'cost'")
    assert result.output == snapshot


def test_map_variant_sectors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snapshot: SnapshotAssertion) -> None:
    """A variant's printed Sectors: each one of the map's, once, with at least one DEF; all errors at once."""
    text = MAP.replace("sectors:\n", "variants:\n"
                       "  - id: rising\n"
                       "    name: Rising\n"
                       "    text: harder\n"
                       "    provenance: reconstructed\n"
                       "    sectors:\n"
                       "      - {id: s1, def: [2, 4]}\n"
                       "      - {id: s1, def: [2, 5]}\n"
                       "      - {id: s3, def: [6]}\n"
                       "      - {id: s2, def: []}\n"
                       "sectors:\n", 1)
    result = validate(tmp_path, monkeypatch, {"maps/tiny.yaml": text})
    bad(result, "maps/tiny.yaml:14:14: DUP001 variant 'rising' prints sector 's1' twice")
    bad(result, "maps/tiny.yaml:15:14: XREF002 variant 'rising' prints unknown sector 's3'")
    assert "sectors of this map: s1, s2" in result.output
    bad(result, "maps/tiny.yaml:16:23: MAP003 variant 'rising' gives sector 's2' no DEF value")
    assert result.output == snapshot


def test_random_table_with_five_results(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        snapshot: SnapshotAssertion) -> None:
    text = MAP.replace("results: [shelter, shelter, shelter, shelter, shelter, shelter]",
                       "results: [shelter, shelter, shelter, shelter, sheltr]")
    result = validate(tmp_path, monkeypatch, {"maps/tiny.yaml": text})
    bad(result, "maps/tiny.yaml:25:43: MAP004 table 'weather' has 5 results: it needs 6 (one per face of a d6)")
    bad(result, "maps/tiny.yaml:25:80: XREF003 table result 'sheltr' is not an attribute of the map")
    assert result.output == snapshot


def test_an_attribute_or_table_id_given_twice_is_a_duplicate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             snapshot: SnapshotAssertion) -> None:
    """A map's attribute or table id given twice is DUP001 at the second, naming the first's line, as a Sector's
    is: effects name them by id ('become', 'roll-attribute'), and the later would silently stand for the earlier."""
    text = (MAP.replace('  - {id: shelter, name: Shelter, text: DEF -1 here., effect: "def -1"}\n',
                        '  - {id: shelter, name: Shelter, text: DEF -1 here., effect: "def -1"}\n'
                        '  - {id: shelter, name: Farmyard, text: DEF +1 here., effect: "def +1"}\n')
            + "  - {id: weather, name: Storm, results: [shelter, shelter, shelter, shelter, shelter, shelter]}\n")
    result = validate(tmp_path, monkeypatch, {"maps/tiny.yaml": text})
    bad(result, "maps/tiny.yaml:24:10: DUP001 duplicate attribute id 'shelter' in map 'tiny' (first defined at "
                "maps/tiny.yaml:23)")
    bad(result, "maps/tiny.yaml:27:10: DUP001 duplicate table id 'weather' in map 'tiny' (first defined at "
                "maps/tiny.yaml:26)")
    assert result.output == snapshot


def test_a_map_whose_fewest_players_exceed_its_most_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               snapshot: SnapshotAssertion) -> None:
    """'players: [3, 1]' allows no number of players: the map could never be played (a scenario or a game refuses
    every count), so it is an error at 'players:'."""
    text = MAP.replace("note: a map made for tests\n", "note: a map made for tests\nplayers: [3, 1]\n")
    result = validate(tmp_path, monkeypatch, {"maps/tiny.yaml": text})
    bad(result, "maps/tiny.yaml:5:10: MAP007 map 'tiny' is for 3 to 1 players: no number of players can play it")
    assert "hint: write the fewest players first: 'players: [1, 3]'" in result.output
    assert result.output == snapshot


def test_the_cards_of_a_file_that_cannot_be_read_are_not_reported_missing(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch,
                                                                          snapshot: SnapshotAssertion) -> None:
    """A card file that cannot be read (here: not UTF-8) is told once, at its place; what names its cards elsewhere
    (a map's list, an effect's 'offer') is not reported as naming cards that do not exist (XREF001, DSL102), for
    they may well be there: one warning says which names were not checked, and why."""
    stove = b"kind: item\ncards:\n  - id: field-stove\n    name: Field Stov\xe9\n"
    text = MAP.replace("items: [bazooka]", "items: [bazooka, field-stove]").replace(
        "    bunker: true\n", "    bunker: true\n    effect: |\n      on enter: offer field-stove\n")
    result = validate(tmp_path, monkeypatch, {"cards/stove.yaml": stove, "maps/tiny.yaml": text})
    bad(result, "cards/stove.yaml:4:21: YAML003 not UTF-8 text")
    bad(result, "cards/stove.yaml:1:1: LOAD012 warning: 1 name(s) of cards were not checked ('field-stove'): the "
                "cards of cards/stove.yaml could not be read")
    assert "XREF001" not in result.output and "DSL102" not in result.output, result.output
    assert result.output == snapshot


def test_map_effect_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snapshot: SnapshotAssertion) -> None:
    text = MAP.replace("    bunker: true\n", "    bunker: true\n    effect: |\n      on first-enter: roll-attribute "
                       "wether\n      use if turns-here >= 3: retreat s9\n")
    result = validate(tmp_path, monkeypatch, {"maps/tiny.yaml": text})
    bad(result, "maps/tiny.yaml:20:38: DSL102 roll-attribute: unknown table 'wether'")
    bad(result, "maps/tiny.yaml:21:39: DSL102 retreat: unknown sector 's9'")
    assert "hint: one of: s1, s2" in result.output
    assert result.output == snapshot


# ---------------------------------------------------------------------- packs
def test_pack_redefines_base_card_without_overrides(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    snapshot: SnapshotAssertion) -> None:
    files = {"expansions/extra/pack.yaml": PACK, "expansions/extra/cards/specialists.yaml": card(id="medic")}
    result = validate(tmp_path, monkeypatch, files)
    bad(result, "expansions/extra/cards/specialists.yaml:3:9: DUP001 duplicate card id 'medic' (first defined at "
                "cards/specialists.yaml:3)")
    assert "an expansion that replaces a base card says 'overrides: true'" in result.output
    assert result.output == snapshot


def test_overrides_with_nothing_to_override(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            snapshot: SnapshotAssertion) -> None:
    files = {"expansions/extra/pack.yaml": PACK,
             "expansions/extra/cards/specialists.yaml": card(id="sniper", overrides="true")}
    result = validate(tmp_path, monkeypatch, files)
    bad(result, "expansions/extra/cards/specialists.yaml:3:9: DUP002 'sniper' says it overrides, but nothing has "
                "that id")
    assert result.output == snapshot


def test_pack_overrides_a_base_card(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the correct form of the two tests above: no diagnostic at all
    files = {"expansions/extra/pack.yaml": PACK,
             "expansions/extra/cards/specialists.yaml": card(id="medic", overrides="true")}
    result = validate(tmp_path, monkeypatch, files)
    assert result.exit_code == 0, result.output
    assert result.output.startswith("ok: 3 cards, 0 maps, 0 optional rules, 1 expansions")


def test_an_override_of_another_kind_is_refused_at_the_pack_card(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 snapshot: SnapshotAssertion) -> None:
    # An Item 'medic' that overrides the Specialist: one error at its 'overrides', and the Specialist stays as it
    # was, so the map listing 'medic' as a Specialist (a file the pack did not write) is not blamed.
    files = {"maps/tiny.yaml": MAP, "expansions/extra/pack.yaml": PACK,
             "expansions/extra/cards/items.yaml": card("use: gain 1 soldier", kind="item", id="medic",
                                                       overrides="true")}
    result = validate(tmp_path, monkeypatch, files)
    bad(result, "expansions/extra/cards/items.yaml:8:5: DUP003 'medic' overrides a specialist, but is written as an "
                "item: an override keeps the kind of the card it replaces")
    assert result.output.count(": DUP003 ") == 1
    assert "maps/tiny.yaml" not in result.output and "XREF" not in result.output, result.output
    assert result.output == snapshot


def test_a_refused_override_still_has_its_effect_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = {"expansions/extra/pack.yaml": PACK,
             "expansions/extra/cards/items.yaml": card("use: gain 1 soldeir", kind="item", id="medic",
                                                       overrides="true")}
    result = validate(tmp_path, monkeypatch, files)
    bad(result, "expansions/extra/cards/items.yaml:8:5: DUP003")
    bad(result, "expansions/extra/cards/items.yaml:10:19: DSL102")


OPTION = "id: {}\nname: Opt\ntext: x\nprovenance: rulebook\n"
# A duplicate id in a pack, and DUP001's hint: 'overrides: true' only where it would help (a card of the pack
# taking the id of a card of the base game or of another pack).
DUPLICATES = {
    "optional rule": ({"rules/options/solo.yaml": OPTION.format("solo"),
                       "expansions/extra/rules/options/solo.yaml": OPTION.format("solo")},
                      "expansions/extra/rules/options/solo.yaml:1:5: DUP001 duplicate optional rule id 'solo'",
                      "an optional rule cannot replace another: give this one an id of its own"),
    "card twice in a pack, overriding": (
        {"expansions/extra/cards/a.yaml": card(id="medic", overrides="true"),
         "expansions/extra/cards/b.yaml": card(id="medic", overrides="true")},
        "expansions/extra/cards/b.yaml:3:9: DUP001 duplicate card id 'medic' (first defined at "
        "expansions/extra/cards/a.yaml:3)", "'overrides: true' replaces a card of the base game or of another pack, "
        "not one of its own pack"),
    "card twice in a pack": ({"expansions/extra/cards/a.yaml": card(id="sniper"),
                              "expansions/extra/cards/b.yaml": card(id="sniper")},
                             "expansions/extra/cards/b.yaml:3:9: DUP001 duplicate card id 'sniper'",
                             "two cards of one pack cannot share an id"),
    "base kind declared by a pack": ({"expansions/extra/rules/kinds.yaml": "provenance: rulebook\nkinds:\n"
                                      "  - {id: item, name: Item, text: x}\n"},
                                     "expansions/extra/rules/kinds.yaml:3:10: DUP001 duplicate kind of card 'item': "
                                     "it is a kind of the base game",
                                     "a pack declares only kinds of its own; its cards of the base kind go in a card "
                                     "file of 'kind: item'"),
}


@pytest.mark.parametrize("case", list(DUPLICATES))
def test_a_duplicate_gets_the_hint_that_fits(case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files, where, hint = DUPLICATES[case]
    result = validate(tmp_path, monkeypatch, {"expansions/extra/pack.yaml": PACK, **files})
    bad(result, where)
    assert result.output.count(": DUP001 ") == 1, result.output
    assert f"hint: {hint}" in result.output, result.output
    assert "overrides" not in result.output or "overriding" in case, result.output


@pytest.mark.parametrize(("written", "meant"), [("Bad_Id", "bad-id"), ("Field Stove", "field-stove"),
                                               ("caf\u00e9", "cafe")])
def test_an_id_that_is_no_slug_is_told_the_slug(written: str, meant: str, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card(id=f'"{written}"')})
    bad(result, "cards/new.yaml:3:9: SCHEMA004 'id': expected an id")
    assert f"hint: did you mean '{meant}'?" in result.output, result.output


def test_a_pack_is_told_every_entry_it_may_hold(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = {"expansions/extra/pack.yaml": PACK + "requires: [../other-pack]\n",
             "expansions/extra/notes.txt": "x", "expansions/extra/Readme.md": "# Extra\n",
             "expansions/extra/README.md": "# Extra\n", "expansions/extra/scenarios/s.yaml": "x: 1\n"}
    result = validate(tmp_path, monkeypatch, files)
    bad(result, "expansions/extra/notes.txt:1:1: PACK002 unexpected entry 'notes.txt' in a pack")
    assert ("hint: a pack holds pack.yaml, README.md, rules/, cards/, maps/, scenarios/ and schemas/"
            in result.output), result.output
    bad(result, "expansions/extra/Readme.md:1:1: PACK002 unexpected entry 'Readme.md' in a pack")
    assert "hint: did you mean 'README.md'?" in result.output
    bad(result, "expansions/extra/pack.yaml:7:12: PACK012")
    assert "hint: a pack is named by its id, never by a path: write the id of a bundled pack" in result.output
    assert "did you mean 'other-pack'" not in result.output  # (no pack is named after a path's last folder)
    assert result.output.count(": PACK0") == 3, result.output


def test_pack_layout_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snapshot: SnapshotAssertion) -> None:
    files = {"expansions/extra/pack.yaml": PACK.replace("id: extra", "id: extras"),
             "expansions/extra/card/medic.yaml": card()}
    result = validate(tmp_path, monkeypatch, files)
    bad(result, "expansions/extra/pack.yaml:1:5: PACK001 pack id 'extras' differs from its folder 'extra'")
    bad(result, "expansions/extra/card:1:1: PACK002 unexpected entry 'card' in a pack")
    assert result.output == snapshot


def test_unknown_pack_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snapshot: SnapshotAssertion) -> None:
    content_tree(tmp_path, {"expansions/extra/pack.yaml": PACK})
    # a usage error, before any work: the name is looked for among the bundled packs of --root, wherever it is given
    result = dday(monkeypatch, tmp_path, "list", "--pack", "extr", "--root", ".")
    assert result.exit_code == 2, result.output
    assert "'extr' is no bundled pack (taken as a bundled pack's id: did you mean 'extra'?)" in result.output
    assert "PACK003" not in result.output
    assert result.output == snapshot


# ---------------------------------------------------------------- rules files
def test_rules_files_missing_or_unexpected(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           snapshot: SnapshotAssertion) -> None:
    content_tree(tmp_path, {"rules/phase.yaml": "provenance: rulebook\nphases: []\n"})
    (tmp_path / "rules" / "rwb.yaml").unlink()
    result = dday(monkeypatch, tmp_path, "validate", "--root", ".")
    bad(result, "rules:1:1: LOAD001 the rules need rwb.yaml")
    bad(result, "rules/phase.yaml:1:1: LOAD002 unexpected rules file 'phase.yaml'")
    assert "did you mean 'phases.yaml'?" in result.output
    assert result.output == snapshot


# ------------------------------------------------------- paths on the command line
def test_single_file_of_unknown_kind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     snapshot: SnapshotAssertion) -> None:
    files = {"new/notes.yaml": "hello: world\n", "new/cards.yaml": card("on advance: gain 3 soldierz")}
    result = validate(tmp_path, monkeypatch, files, "new/notes.yaml", "new/cards.yaml")
    bad(result, "new/cards.yaml:9:26: DSL102 gain: unknown resource 'soldierz'")
    bad(result, "new/notes.yaml:1:1: LOAD004 cannot tell what kind of content this file holds")
    assert result.output == snapshot


def test_folder_without_pack_manifest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      snapshot: SnapshotAssertion) -> None:
    result = validate(tmp_path, monkeypatch, {"new/cards/a.yaml": card()}, "new")
    bad(result, "new:1:1: LOAD003 a folder to validate must be an expansion (with pack.yaml)")
    assert result.output == snapshot


def test_root_without_rules_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             snapshot: SnapshotAssertion) -> None:
    (tmp_path / "elsewhere").mkdir()
    result = dday(monkeypatch, tmp_path, "validate", "--root", "elsewhere")
    bad(result, "Error: --root elsewhere: no rules/ folder there", status=2)
    assert result.output == snapshot


def test_path_that_does_not_exist(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                  snapshot: SnapshotAssertion) -> None:
    content_tree(tmp_path, {})
    result = dday(monkeypatch, tmp_path, "validate", "--root", ".", "cards/nope.yaml")
    bad(result, "Error: no such file or folder: cards/nope.yaml", status=2)
    assert result.output == snapshot


# ------------------------------------------------------------------ output forms
def test_json_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snapshot: SnapshotAssertion) -> None:
    text = card("on advance: gain 3 curage", provenance="reconstructed")
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": text}, "--format", "json")
    assert result.exit_code == 1
    found = json.loads(result.output)  # nothing but JSON on the output
    assert [(d["file"], d["line"], d["column"], d["code"]) for d in found] == [
        ("cards/new.yaml", 7, 17, "PROV001"), ("cards/new.yaml", 9, 26, "DSL102")]
    assert found[1]["hint"] == "did you mean 'courage'?"
    assert found == snapshot


def test_max_errors_cap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snapshot: SnapshotAssertion) -> None:
    effect = "\n".join(f"on advance: gain {n} soldierz" for n in range(1, 8))
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card(effect)}, "--max-errors", "3")
    assert result.exit_code == 1
    assert result.output.count("DSL102") == 3
    assert "... and 4 more\n7 error(s), 0 warning(s)\n" in result.output
    assert result.output == snapshot


def test_max_errors_must_be_positive(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    content_tree(tmp_path, {})
    result = dday(monkeypatch, tmp_path, "validate", "--root", ".", "--max-errors", "0")
    bad(result, "Invalid value for '--max-errors'", status=2)


def test_every_error_of_one_file_in_one_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            snapshot: SnapshotAssertion) -> None:
    text = textwrap.dedent("""\
        kind: item
        cards:
          - id: helmet
            name: Helmet
            cost: 2
            text: Saves a Soldier.
            provenance: rulebook
            costs: 3
          - id: grenade
            name: Grenade
            cost: 3
            text: DEF -1.
            provenance: rule-book
          - id: ammo
            name: Ammo
            cost: 2
            text: Re-roll.
            provenance: rulebook
            effect: |
              use: reroll 1 dei
              on advanse: gain 1 star
              use if has medik: gain 1 star
          - id: compass
            name: Compass
            cost: 1
            provenance: reconstructed
          - id: ammo
            name: Ammo again
            cost: 2
            text: A second helmet.
            provenance: rulebook
        """)
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": text})
    assert result.exit_code == 1
    places = [line.split(" ", 2)[:2] for line in result.output.splitlines() if line.startswith("cards/new.yaml:")]
    assert places == [
        ["cards/new.yaml:8:5:", "SCHEMA002"],
        ["cards/new.yaml:13:17:", "SCHEMA005"],
        ["cards/new.yaml:20:21:", "DSL102"],
        ["cards/new.yaml:21:10:", "DSL107"],
        ["cards/new.yaml:22:18:", "DSL102"],
        ["cards/new.yaml:23:5:", "SCHEMA003"],
        ["cards/new.yaml:26:17:", "PROV001"],
        ["cards/new.yaml:27:9:", "DUP001"],
    ]
    assert result.output.endswith("8 error(s), 0 warning(s)\n")
    assert result.output == snapshot


def test_every_number_too_large_is_reported_with_its_length() -> None:
    """A number too long to print whole is shown by its start and its number of digits, and underlined whole (it was
    printed cut to 12 digits, as if that were its value); every such number of an effect is reported, not the first
    alone."""
    from ddaydice.dsl.parser import SourceMap, parse_effect

    text = "use: gain 99999999999999999999 soldiers; gain 150 courage"
    effect, diags = parse_effect(text, SourceMap("cards.yaml"))
    assert effect is None
    assert [(d.code, d.column, d.width) for d in diags] == [("DSL005", 11, 20), ("DSL005", 47, 3)]
    assert "999999999999... (20 digits) is too large" in diags[0].message
    assert "the number 150 is too large" in diags[1].message


@pytest.mark.parametrize("char", ["\u2028", "\u2029", "\x85"])
def test_a_line_break_editors_do_not_count_is_refused_where_editors_see_it(char: str) -> None:
    """YAML's readers end a line at U+2028, U+2029 and U+0085 as at a new line, editors do not: a file holding one
    had every later line told one off (an error on line 12 reported on line 13, the language server's hover read
    the wrong line). It is refused at the character, counted as editors count (CR LF, LF or CR), and the line shown
    is the editor's whole line."""
    from ddaydice.dsl.diagnostics import SourceCache, editor_lines
    from ddaydice.dsl.yamlsrc import read_yaml

    text = f"kind: item\r\ncards:\r\n  - id: flare\r\n    text: \"The card{char}s text.\"\r\n    cost: 2\r\n"
    doc, diags = read_yaml("cards.yaml", text)
    assert doc is None and [(d.code, d.line, d.column) for d in diags] == [("YAML003", 4, 20)]
    assert f"(U+{ord(char):04X})" in diags[0].message
    cache = SourceCache()
    cache.register("cards.yaml", text)
    assert cache.line("cards.yaml", 4) == f"    text: \"The card{char}s text.\""
    assert cache.line("cards.yaml", 5) == "    cost: 2"
    assert editor_lines("a\rb\r\nc\x0cd\n") == ["a", "b", "c\x0cd"]
    doc, diags = read_yaml("cards.yaml", "kind: item\rcards: []\r  \x00")
    assert [(d.code, d.line, d.column) for d in diags] == [("YAML003", 3, 3)]


def test_the_names_of_an_optional_rule_file_that_cannot_be_read_are_not_reported_missing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pack's optional rule file that cannot be read (broken YAML; a list where a mapping goes) is told at its
    place, and the cards that are 'only-in' or 'unavailable-in' the rule it may declare, or an option that
    requires it, are not reported as naming a rule that does not exist (OPT002, OPT003): one warning says which
    names were not checked, and why. The names are carried as data, so a name the message quotes ("brewer's")
    is kept whole."""
    stout = card(kind="item", **{"only-in": "[brewing]", "unavailable-in": "[\"brewer's\"]"})
    tea = "id: tea\nname: Tea\ntext: t\nprovenance: rulebook\nrequires: [brewing]\n"
    files = {"extra/pack.yaml": PACK.replace("id: extra", "id: extra\nadds: [items, optional-rules]"),
             "extra/cards/items.yaml": stout, "extra/rules/options/tea.yaml": tea,
             "extra/rules/options/brewing.yaml": "id: brewing\nname: [Brewing\n"}
    content_tree(tmp_path, files)
    result = dday(monkeypatch, tmp_path, "validate", "--root", ".", "extra", "--format", "json")
    assert result.exit_code == 1, result.output
    found = json.loads(result.output)
    assert [d["code"] for d in found] == ["LOAD012", "YAML001"], result.output
    assert found[0]["file"] == "extra/rules/options/brewing.yaml"
    assert found[0]["names"] == ["brewing", "brewer's"] and found[0]["names_of"] == "optional rules"
    assert found[0]["message"] == ("2 name(s) of optional rules were not checked ('brewing', 'brewer's'): the "
                                   "optional rules of extra/rules/options/brewing.yaml could not be read")
    (tmp_path / "extra/rules/options/brewing.yaml").write_text("- id: brewing\n", encoding="utf-8")
    result = dday(monkeypatch, tmp_path, "validate", "--root", ".", "extra", "--no-cache")
    bad(result, "extra/rules/options/brewing.yaml:1:1: SCHEMA001 expected a mapping, found a list")
    bad(result, "extra/rules/options/brewing.yaml:1:1: LOAD012 warning: 2 name(s) of optional rules were not "
                "checked")
    assert "OPT002" not in result.output and "OPT003" not in result.output, result.output


def test_a_packs_scenarios_are_said_unchecked_while_its_content_has_errors(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The scenarios of a pack whose content has errors cannot be checked against it: their YAML is checked all
    the same (a syntax error is told at its place), and one warning (PACK015) says how many were not checked
    further, and why, where before they were passed over in silence."""
    files = {"extra/pack.yaml": PACK, "extra/cards/items.yaml": card(kind="item", cost="three"),
             "extra/scenarios/broken.yaml": "scenario: x\nmap: [tiny\n",
             "extra/scenarios/fine.yaml": "scenario: y\nmap: tiny\n"}
    content_tree(tmp_path, files)
    result = dday(monkeypatch, tmp_path, "validate", "--root", ".", "extra", "--no-cache")
    bad(result, "extra/cards/items.yaml:5:11: SCHEMA004")
    bad(result, "extra/scenarios/broken.yaml:2:11: YAML001 YAML syntax error")
    bad(result, "extra/scenarios:1:1: PACK015 warning: 2 scenario file(s) of scenarios/ were not checked against the "
                "content (only their YAML): the pack's content has errors")
    assert "hint: fix the errors above: the next check checks the scenarios too" in result.output
