"""More broken content: a pack requiring an unknown pack; a broken card's effect still checked."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_diagnostics import MAP

from ddaydice.dsl.loader import load
from ddaydice.dsl.places import bundled_root
from ddaydice.interpreter.cli import main
from ddaydice.interpreter.tools.lsp.checking import check, unit_of

REPO = Path(__file__).resolve().parent.parent


def _pack(tmp: Path, requires: str) -> Path:
    pack = tmp / "mypack"
    (pack / "cards").mkdir(parents=True)
    (pack / "pack.yaml").write_text(
        "id: mypack\nname: My pack\nversion: '1'\ntext: A test pack.\nprovenance: reconstructed\n"
        f"note: invented for a test\nrequires: [{requires}]\n", encoding="utf-8")
    return pack


def test_a_pack_requiring_an_unknown_pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _pack(tmp_path, "atlantikwal")
    result = CliRunner().invoke(main, ["validate", "mypack"])
    assert result.exit_code == 1
    assert "mypack/pack.yaml:7:12: PACK004 pack 'mypack' requires 'atlantikwal', which does not exist" in result.output
    assert "did you mean 'atlantikwall'?" in result.output


GERMAN_ITEM = ("kind: german-item\ncards:\n  - id: flare-gun\n    name: Flare Gun\n    cost: 4\n"
               "    text: After the Final Tally, take 1 die of an Allied Unit.\n"
               "    effect: |\n      use after final-tally: steal 1 die\n    provenance: reconstructed\n"
               "    note: invented for a test\n")


def test_a_pack_brings_the_bundled_packs_it_requires(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A modder's pack that requires Atlantikwall is checked with it loaded first: its German Item is a known kind."""
    monkeypatch.chdir(tmp_path)
    pack = _pack(tmp_path, "atlantikwall")
    (pack / "cards" / "german.yaml").write_text(GERMAN_ITEM, encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", "mypack"])
    assert result.exit_code == 0, result.output
    assert "2 expansions" in result.output
    content, diags = load(extra=[pack])
    assert content is not None and not [d for d in diags if d.severity == "error"]
    assert list(content.packs) == ["atlantikwall", "mypack"] and "flare-gun" in content.cards


def test_a_single_file_of_a_pack_kind_needs_that_pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "german.yaml").write_text(GERMAN_ITEM, encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", "german.yaml"])
    assert result.exit_code == 1
    assert "german.yaml:1:7: SCHEMA004 'kind': 'german-item' is not allowed" in result.output
    assert "declared by the expansion 'atlantikwall': load it (--pack atlantikwall" in result.output
    result = CliRunner().invoke(main, ["validate", "german.yaml", "--pack", "atlantikwall"])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(main, ["validate", "german.yaml", "--pack", "atlantikwal"])
    assert result.exit_code == 2 and "'atlantikwal' is no bundled pack" in result.output
    assert "did you mean 'atlantikwall'?" in result.output


def test_a_bundled_pack_named_brings_what_it_requires(tmp_path: Path) -> None:
    """``load(packs=[...])`` (dday play/simulate --pack) loads what a bundled pack requires before it."""
    root = tmp_path / "tree"
    shutil.copytree(bundled_root(), root)
    _pack(root / "expansions", "atlantikwall")
    content, diags = load(root, packs=["mypack"])
    assert content is not None and not [d for d in diags if d.severity == "error"]
    assert list(content.packs) == ["atlantikwall", "mypack"]


def test_a_broken_card_still_has_its_effect_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    pack = _pack(tmp_path, "house-awards")
    (pack / "pack.yaml").write_text((pack / "pack.yaml").read_text().replace("[house-awards]", "[]"))
    (pack / "cards" / "x.yaml").write_text(
        "kind: item\ncards:\n  - id: lucky-sock\n    name: Lucky Sock\n    cost: three\n    text: x\n"
        "    effect: |\n      use: gian 2 soldiers\n    provenance: reconstructed\n    note: test\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", "mypack"])
    assert result.exit_code == 1
    assert "SCHEMA004 'cost': expected a whole number" in result.output
    assert "x.yaml:8:12: DSL101 unknown action 'gian'" in result.output


def test_a_deck_of_a_pack_not_loaded_says_which_pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "box.yaml").write_text(
        "kind: item\ncards:\n  - id: badge-box\n    name: Badge Box\n    cost: 4\n    grade: regular\n"
        "    text: Draw a Badge.\n    effect: |\n      use: draw 1 badge\n    provenance: reconstructed\n"
        "    note: invented for a test\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", "box.yaml"])
    assert result.exit_code == 1
    assert "box.yaml:9:19: DSL102 draw: unknown deck 'badge'" in result.output
    assert "'badge' is a kind of card of the expansion 'atlantikwall': load it (--pack atlantikwall" in result.output
    assert CliRunner().invoke(main, ["validate", "box.yaml", "--pack", "atlantikwall"]).exit_code == 0


def test_a_card_only_in_an_unknown_option_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A misspelt 'only-in' would keep the card out of every game: an error, with the likely option."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.yaml").write_text(
        "kind: item\ncards:\n  - id: lucky-sock\n    name: Lucky Sock\n    cost: 3\n    grade: regular\n"
        "    only-in: [bazooka-jo]\n    text: x\n    effect: |\n      use: gain 2 soldiers\n"
        "    provenance: reconstructed\n    note: invented for a test\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", "x.yaml"])
    assert result.exit_code == 1
    assert "x.yaml:7:15: OPT003 card 'lucky-sock' is only in 'bazooka-jo', which is no optional rule" in result.output
    assert "did you mean 'bazooka-joe'?" in result.output


def test_a_pack_is_never_told_it_may_mean_itself(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _pack(tmp_path, "mypac")
    result = CliRunner().invoke(main, ["validate", "mypack"])
    assert result.exit_code == 1
    assert "PACK004 pack 'mypack' requires 'mypac', which does not exist" in result.output
    assert "did you mean 'mypack'" not in result.output


def test_every_broken_clause_of_an_effect_is_reported_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two syntax errors and two unknown words in four clauses of one effect: four diagnostics, each on its line,
    a misspelt keyword of the grammar with the likely one."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.yaml").write_text(
        "kind: item\ncards:\n  - id: lucky-sock\n    name: Lucky Sock\n    cost: 3\n    grade: regular\n"
        "    text: x\n    effect: |\n      use befor mgf: gain 2 soldiers\n      use once per tun: gain 1 soldier\n"
        "      on combatt: gain 1 soldier\n      use after final-taly: gain 1 courage\n"
        "    provenance: reconstructed\n    note: invented for a test\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", "x.yaml"])
    assert result.exit_code == 1
    out = result.output
    assert "x.yaml:9:11: DSL002 unexpected 'befor'" in out and "did you mean 'before'?" in out
    assert "x.yaml:10:20: DSL002 unexpected 'tun'" in out
    assert "x.yaml:11:10: DSL107 unknown event 'combatt'" in out
    assert "x.yaml:12:17: DSL108 unknown moment 'final-taly'" in out
    assert "4 error(s)" in out


def test_a_file_is_checked_where_it_lives(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A card file inside a pack is checked within its pack (its 'only-in' names the pack's own option, in another
    file); a bundled file or a bundled pack's folder is the bundled content itself, not a second copy of it."""
    monkeypatch.chdir(tmp_path)
    pack = _pack(tmp_path, "atlantikwall")
    (pack / "pack.yaml").write_text((pack / "pack.yaml").read_text().replace("[atlantikwall]", "[]"))
    (pack / "rules" / "options").mkdir(parents=True)
    (pack / "rules" / "options" / "socks.yaml").write_text(
        "id: socks\nname: Socks\ntext: Lucky socks join the game.\nprovenance: reconstructed\nnote: a test\n",
        encoding="utf-8")
    (pack / "cards" / "x.yaml").write_text(
        "kind: item\ncards:\n  - id: lucky-sock\n    name: Lucky Sock\n    cost: 3\n    grade: regular\n"
        "    only-in: [socks]\n    text: x\n    effect: |\n      use: gain 2 soldiers\n"
        "    provenance: reconstructed\n    note: invented for a test\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", "mypack/cards/x.yaml"])
    assert result.exit_code == 0, result.output
    root = bundled_root()
    for inside in (root / "cards" / "items.yaml", root / "expansions" / "atlantikwall",
                   root / "expansions" / "atlantikwall" / "cards" / "badges.yaml"):
        result = CliRunner().invoke(main, ["validate", str(inside)])
        assert result.exit_code == 0, (inside, result.output)
        assert "DUP001" not in result.output


def test_a_pack_finds_the_pack_it_requires_beside_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """my-packs/other requires 'mypack', a folder next to it: loaded first, wherever the command runs from."""
    monkeypatch.chdir(tmp_path)
    base = _pack(tmp_path, "atlantikwall")
    (base / "pack.yaml").write_text((base / "pack.yaml").read_text().replace("[atlantikwall]", "[]"))
    other = tmp_path / "other"
    (other / "cards").mkdir(parents=True)
    (other / "pack.yaml").write_text(
        "id: other\nname: Other\nversion: '1'\ntext: A test pack.\nprovenance: reconstructed\n"
        "note: invented for a test\nrequires: [mypack]\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", "other"])
    assert result.exit_code == 0, result.output
    content, diags = load(packs=[str(other)])
    assert content is not None, diags
    assert list(content.packs) == ["mypack", "other"]


@pytest.mark.parametrize(("kind", "name"), [("badge", "Badge"), ("german-item", "German Item")])
def test_a_standing_change_on_a_card_used_like_an_item_is_an_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str, name: str) -> None:
    """A Badge (held by a Unit among its cards) and a German Item (held as an Item) act only when used, like the
    Items and Awards: the engine never reads a standing change on them, so the checker refuses it (DSL116)."""
    monkeypatch.chdir(tmp_path)
    pack = _pack(tmp_path, "atlantikwall")
    (pack / "cards" / "x.yaml").write_text(
        f"kind: {kind}\ncards:\n  - id: lucky-pin\n    name: Lucky Pin\n    cost: 2\n    text: x\n"
        "    effect: |\n      locked-dice +1\n    provenance: reconstructed\n    note: test\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", "mypack"])
    assert result.exit_code == 1, result.output
    assert (f"x.yaml:8:7: DSL116 a {name} (used like an Item) acts only when it is used; a standing change here "
            "would never apply") in result.output
    assert "write 'use: locked-dice +1 this turn'" in result.output


def _named(tmp: Path, pack_id: str, requires: str, card: str = "") -> None:
    pack = tmp / pack_id
    (pack / "cards").mkdir(parents=True)
    (pack / "pack.yaml").write_text(
        f"id: {pack_id}\nname: {pack_id}\nversion: '1'\ntext: A test pack.\nprovenance: reconstructed\n"
        f"note: invented for a test\nrequires: [{requires}]\n", encoding="utf-8")
    if card:
        (pack / "cards" / "items.yaml").write_text(card, encoding="utf-8")


def test_a_cycle_of_requires_is_reported_at_the_entry_that_closes_it(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """pa -> pb -> pc -> pa: PACK006 at pc's 'pa', naming the cycle, whichever of them is validated; the packs are
    all loaded and checked otherwise (a card's mistake in one of them is reported too)."""
    monkeypatch.chdir(tmp_path)
    broken = ("kind: item\ncards:\n  - id: soup\n    name: Soup\n    text: x\n    provenance: reconstructed\n"
              "    note: a test\n    cost: 2\n    effect: |\n      use: gain 1 corage\n")
    _named(tmp_path, "pa", "pb")
    _named(tmp_path, "pb", "pc", broken)
    _named(tmp_path, "pc", "pa")
    for entry in ("pa", "pb", "pc"):
        result = CliRunner().invoke(main, ["validate", entry, "--no-cache"])
        assert result.exit_code == 1, result.output
        assert ("pc/pack.yaml:7:12: PACK006 pack 'pc' requires 'pa', which closes a cycle: pa -> pb -> pc -> pa"
                in result.output), result.output
        assert "pb/cards/items.yaml:10:19: DSL102" in result.output


def test_a_pack_requiring_itself(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _named(tmp_path, "pa", "pa")
    result = CliRunner().invoke(main, ["validate", "pa", "--no-cache"])
    assert result.exit_code == 1
    assert "pa/pack.yaml:7:12: PACK006 pack 'pa' requires itself" in result.output


def _rules(pack: Path, name: str, text: str) -> None:
    (pack / "rules").mkdir(exist_ok=True)
    (pack / "rules" / name).write_text(text, encoding="utf-8")


TIERS_BROKEN = """\
provenance: rulebook
tiers:
  - {id: mine, name: Mine, sources: [], after: nonsense}
  - {id: mine2, name: Mine 2, sources: [], after: mine3}
  - {id: mine3, name: Mine 3, sources: [], after: mine2}
  - {id: mine4, name: Mine 4, sources: [], after: mine4}
"""


def test_a_tier_after_no_tier_and_a_cycle_of_tiers_are_errors(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    pack = _pack(tmp_path, "")
    _rules(pack, "precedence.yaml", TIERS_BROKEN)
    result = CliRunner().invoke(main, ["validate", "mypack"])
    assert result.exit_code == 1, result.output
    assert "mypack/rules/precedence.yaml:3:48: XREF006 tier 'mine' is placed after 'nonsense', which is no tier" \
        in result.output
    assert "hint: tiers: rules, sectors, specialists, items-vehicles, awards, mine, mine2" in result.output
    assert ("mypack/rules/precedence.yaml:5:51: TIER001 tier 'mine3' is placed after 'mine2', which closes a "
            "cycle: mine3 -> mine2 -> mine3") in result.output
    assert "mypack/rules/precedence.yaml:6:51: TIER001 tier 'mine4' is placed after itself" in result.output
    assert result.output.count(": TIER001 ") == 2 and result.output.count(": XREF006 ") == 1
    assert load(extra=[pack])[0] is None  # nothing runs on it (conflicts, simulate)


def test_a_new_tier_goes_above_the_tier_it_names_wherever_its_file_lists_that_one(tmp_path: Path) -> None:
    pack = _pack(tmp_path, "")
    _rules(pack, "precedence.yaml", "provenance: rulebook\ntiers:\n"
           "  - {id: upper, name: Upper, sources: [], after: lower}\n"
           "  - {id: lower, name: Lower, sources: [], after: sectors}\n")
    content, diags = load(extra=[pack])
    assert content is not None, diags
    assert [t.id for t in content.precedence.tiers] == ["rules", "sectors", "lower", "upper", "specialists",
                                                        "items-vehicles", "awards"]


def test_a_pack_may_put_a_tier_beyond_the_turn_limits_and_a_merged_tier_keeps_the_mark(tmp_path: Path) -> None:
    """``beyond-turn-limits`` (docs/rulings.md 2.5): a pack's new tier carries it, a pack's tier of an existing id
    adds it to that tier, and a tier merged without it keeps the base game's (Awards)."""
    pack = _pack(tmp_path, "")
    _rules(pack, "precedence.yaml", "provenance: rulebook\ntiers:\n"
           "  - {id: orders, name: Orders, sources: [], after: sectors, beyond-turn-limits: true}\n"
           "  - {id: specialists, name: Specialists, sources: [], beyond-turn-limits: true}\n"
           "  - {id: awards, name: Awards, sources: []}\n")
    content, diags = load(extra=[pack])
    assert content is not None, diags
    assert [t.id for t in content.precedence.tiers if t.beyond_turn_limits] == ["sectors", "orders", "specialists",
                                                                                 "awards"]


# A rules file of a pack listing an id twice (each row: the file, its text, where the second is, what it says,
# a part of the hint).
SAME_FILE = "each {} is listed once"
ADDS = "adds to the base game's"
LISTED_TWICE = {
    "resource of the base game": ("resources.yaml", "provenance: rulebook\nresources:\n"
                                  "  - {id: courage, name: Courage}\n", "3:10", "duplicate resource id 'courage'",
                                  ADDS),
    "resource twice in the file": ("resources.yaml", "provenance: rulebook\nresources:\n"
                                   "  - {id: grit, name: Grit}\n  - {id: grit, name: Grit}\n", "4:10",
                                   "duplicate resource id 'grit'", SAME_FILE.format("resource")),
    "alias of a base resource": ("resources.yaml", "provenance: rulebook\nresources:\n"
                                 "  - {id: grit, name: Grit, aliases: [star]}\n", "3:38",
                                 "duplicate resource name 'star'", ADDS),
    "query": ("queries.yaml", "provenance: rulebook\nqueries:\n  - {id: def, kind: number, subject: sector, "
              "text: x}\nignorables: []\n", "3:10", "duplicate query id 'def'", ADDS),
    "phase": ("phases.yaml", "provenance: rulebook\nphases:\n  - {id: roll, name: Roll}\n", "3:10",
              "duplicate phase id 'roll'", ADDS),
    "dice face": ("dice.yaml", "provenance: rulebook\nfaces:\n  - {id: skull, name: Skull}\ncolours: []\n"
                  "dice-per-colour: 1\ntool-table: []\ntool-table-step: 1\nrolls: 1\n", "3:10",
                  "duplicate face id 'skull'", ADDS),
    "game rule": ("game.yaml", "provenance: rulebook\nrules:\n  - {id: extra-rule, name: A, text: x}\n"
                  "  - {id: extra-rule, name: B, text: y}\n", "4:10", "duplicate rule id 'extra-rule'",
                  SAME_FILE.format("rule")),
    "RWB": ("rwb.yaml", "provenance: rulebook\nrwb:\n  - {id: leadership, name: L, face: star, text: x, "
            "effect: 'on rwb: gain 1 star'}\n", "3:10", "duplicate RWB id 'leadership'", ADDS),
    "kind": ("kinds.yaml", "provenance: rulebook\nkinds:\n  - {id: ration, name: Ration, text: x}\n"
             "  - {id: ration, name: Ration, text: y}\n", "4:10", "duplicate kind of card id 'ration'",
             SAME_FILE.format("kind of card")),
    "tier twice in the file": ("precedence.yaml", "provenance: rulebook\ntiers:\n"
                               "  - {id: mine, name: M, sources: []}\n  - {id: mine, name: M, sources: []}\n", "4:10",
                               "duplicate tier id 'mine'", SAME_FILE.format("tier")),
}


@pytest.mark.parametrize("case", list(LISTED_TWICE))
def test_an_id_listed_twice_in_a_rules_file_is_an_error(case: str, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    name, text, where, message, hint = LISTED_TWICE[case]
    monkeypatch.chdir(tmp_path)
    pack = _pack(tmp_path, "")
    _rules(pack, name, text)
    result = CliRunner().invoke(main, ["validate", "mypack"])
    assert result.exit_code == 1, result.output
    assert f"mypack/rules/{name}:{where}: DUP001 {message} (first defined at " in result.output
    assert hint in result.output
    assert result.output.count(": DUP001 ") == 1, result.output


def test_a_tier_of_an_existing_id_merges_and_an_rwb_for_an_option_is_another_entry(tmp_path: Path) -> None:
    # What is not a duplicate: a pack's tier of a base id (its sources join it), an RWB written for an optional
    # rule beside the RWB of its id (Atlantikwall's Battle Cry for Badges).
    pack = _pack(tmp_path, "")
    _rules(pack, "precedence.yaml", "provenance: rulebook\ntiers:\n  - {id: awards, name: A, sources: [medal]}\n")
    content, diags = load(extra=[pack], packs=["atlantikwall"])
    assert content is not None, diags
    assert "medal" in next(t for t in content.precedence.tiers if t.id == "awards").sources
    assert [r.id for r in content.rwb.rwb].count("battle-cry") == 2


def test_a_rules_file_follows_the_provenance_policy_of_cards_and_maps(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A rules file of a pack, and an optional rule, say what is ours as a card or a map does: a 'note' is read,
    and a reconstruction without one is PROV001."""
    monkeypatch.chdir(tmp_path)
    pack = _pack(tmp_path, "")
    _rules(pack, "resources.yaml", "provenance: reconstructed\nresources:\n  - {id: grit, name: Grit}\n")
    (pack / "rules" / "options").mkdir()
    option = "id: gritty\nname: Gritty\ntext: Grit counts.\nprovenance: reconstructed\n"
    (pack / "rules" / "options" / "gritty.yaml").write_text(option, encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", "mypack"])
    assert result.exit_code == 1, result.output
    assert ("mypack/rules/resources.yaml:1:13: PROV001 a reconstruction needs a 'note' saying which part is ours"
            in result.output)
    assert "mypack/rules/options/gritty.yaml:4:13: PROV001" in result.output
    _rules(pack, "resources.yaml", "provenance: reconstructed\nnote: Grit is ours.\nresources:\n"
           "  - {id: grit, name: Grit}\n")
    (pack / "rules" / "options" / "gritty.yaml").write_text(option + "note: ours\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", "mypack"])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("args", [["validate", "cards.yaml"], ["scenario", "run", "q.yaml"],
                                  ["explain", "q.yaml", "def", "for", "u1"], ["compare", "setups.yaml"],
                                  ["sweep", "grid.yaml"]])
@pytest.mark.parametrize("text", ["", "# nothing yet\n", "~\n"])
def test_an_empty_file_is_told_alike_wherever_it_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          args: list[str], text: str) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("cards.yaml", "q.yaml", "setups.yaml", "grid.yaml"):
        (tmp_path / name).write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, args)
    assert f"{args[1] if args[0] != 'scenario' else args[2]}:1:1: SCHEMA001 the file is empty" in result.output, \
        result.output
    assert "found nothing" not in result.output and result.exit_code != 0


# A pack.yaml with five mistakes of its schema (an id that is no id, a number for text, an unknown key, a provenance
# that is none, 'text' missing) and a requirement of no pack; and a card with two keys missing and a broken effect.
BROKEN_MANIFEST = "id: Mypk\nname: Mypk\nversion: 3\nbogus: 1\nprovenance: official\nrequires: [nothere]\n"
BROKEN_CARD = ("kind: item\ncards:\n  - id: bar\n    name: Bar\n    cost: 2\n    effect: |\n"
               "      use: gian 1 courage\n")
EVERY_MISTAKE = [
    "mypk/cards/a.yaml:3:5: SCHEMA003 missing required key 'text'",
    "mypk/cards/a.yaml:3:5: SCHEMA003 missing required key 'provenance'",
    "mypk/cards/a.yaml:7:12: DSL101 unknown action 'gian'",
    "mypk/pack.yaml:1:1: SCHEMA003 missing required key 'text'",
    "mypk/pack.yaml:1:5: SCHEMA004 'id': expected an id",
    "mypk/pack.yaml:3:10: SCHEMA004 'version': expected text, found the number 3",
    "mypk/pack.yaml:4:1: SCHEMA002 unknown key 'bogus'",
    "mypk/pack.yaml:5:13: SCHEMA005 'provenance': 'official' is not allowed",
    "mypk/pack.yaml:6:12: PACK004 pack 'mypk' requires 'nothere', which does not exist",
]


def _told(output: str) -> list[str]:
    """The diagnostics of dday validate's text output, one line each ('file:line:col: CODE message')."""
    return [line for line in output.splitlines() if re.match(r"[^ ].*:\d+:\d+: [A-Z]+\d+ ", line)]


def _broken_pack(folder: Path) -> Path:
    (folder / "mypk" / "cards").mkdir(parents=True)
    (folder / "mypk" / "pack.yaml").write_text(BROKEN_MANIFEST, encoding="utf-8")
    (folder / "mypk" / "cards" / "a.yaml").write_text(BROKEN_CARD, encoding="utf-8")
    return folder / "mypk"


def test_a_broken_pack_yaml_hides_no_other_check_of_its_pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Mistakes of a pack.yaml's schema are told with those of the pack's files and of its 'requires' (PACK004), in
    one run, sorted, each once; the pack is checked under its folder's name (no PACK001 for the id 'Mypk'). The load
    still fails and gives no content; --format json says the same."""
    monkeypatch.chdir(tmp_path)
    pack = _broken_pack(tmp_path)
    result = CliRunner().invoke(main, ["validate", "mypk", "--no-cache"])
    assert result.exit_code == 1, result.output
    told = _told(result.output)
    assert len(told) == len(EVERY_MISTAKE), result.output
    assert all(line.startswith(want) for line, want in zip(told, EVERY_MISTAKE, strict=True)), result.output
    assert "9 error(s), 0 warning(s)" in result.output
    done = CliRunner().invoke(main, ["validate", "mypk", "--no-cache", "--format", "json"])
    assert done.exit_code == 1
    found = [f"{d['file']}:{d['line']}:{d['column']}: {d['code']} {d['message']}" for d in json.loads(done.stdout)]
    assert found == [line.split("\n")[0] for line in told]
    content, diags = load(extra=[pack])
    assert content is None
    assert len({(d.file, d.line, d.column, d.code, d.message) for d in diags}) == len(diags) == len(EVERY_MISTAKE)


def test_a_pack_reached_by_requires_or_by_its_path_is_checked_whole_despite_its_pack_yaml(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pack with a broken pack.yaml, required by another or named by --pack PATH, is loaded and checked all the
    same: its card's mistakes are told, and neither PACK005 (it is loaded) nor a PACK001 for its id; a cycle of
    'requires:' through it is told too (PACK006)."""
    monkeypatch.chdir(tmp_path)
    _broken_pack(tmp_path)
    _named(tmp_path, "pa", "mypk")
    result = CliRunner().invoke(main, ["validate", "pa", "--no-cache"])
    assert result.exit_code == 1, result.output
    told = _told(result.output)
    assert [line[:len(want)] for line, want in zip(told, EVERY_MISTAKE, strict=True)] == EVERY_MISTAKE, result.output
    (tmp_path / "solo.yaml").write_text("kind: item\ncards:\n  - id: solo\n    name: Solo\n    cost: 2\n    text: x\n"
                                        "    provenance: rulebook\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", "solo.yaml", "--pack", "./mypk", "--no-cache"])
    assert _told(result.output) == told, result.output
    (tmp_path / "mypk" / "pack.yaml").write_text(BROKEN_MANIFEST.replace("[nothere]", "[pa]"), encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", "pa", "--no-cache"])
    told = _told(result.output)
    assert "mypk/cards/a.yaml:7:12: DSL101 unknown action 'gian'" in told, result.output
    assert ("pa/pack.yaml:7:12: PACK006 pack 'pa' requires 'mypk', which closes a cycle: mypk -> pa -> mypk"
            in told), result.output
    assert not [line for line in told if "PACK00" in line and "PACK006" not in line], result.output


def test_a_wrong_key_in_a_file_hides_no_check_of_the_rest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same for every file of a pack that holds one record: an optional rule, a map, a rules file and a card
    file's envelope with an unknown key are checked whole (an effect, a map's sectors and cards, a card file's cards),
    and what they declare is known (no OPT003 for the cards 'only-in' the option, no SCHEMA004 for a card of the
    kind declared): each mistake is told once."""
    monkeypatch.chdir(tmp_path)
    pack = tmp_path / "field-kitchen"
    shutil.copytree(REPO / "docs" / "example-pack" / "field-kitchen", pack)
    option = pack / "rules" / "options" / "hot-meals.yaml"
    option.write_text(option.read_text().replace("id: hot-meals\n", "id: hot-meals\nsoup: 1\n")
                      .replace("finds-per-turn +1", "finds-per-turn +1\n  gian 1"))
    (pack / "maps").mkdir()
    (pack / "maps" / "tiny.yaml").write_text(
        MAP.replace("id: tiny\n", "id: tiny\nsoup: 1\n").replace("items: [bazooka]", "items: [bazoka]"))
    _rules(pack, "kinds.yaml", "provenance: rulebook\nsoup: 1\nkinds:\n"
           "  - {id: ration, name: Ration, text: x, held-by: game}\n")
    (pack / "cards" / "rations.yaml").write_text(
        "kind: ration\nsoup: 1\ncards:\n  - id: biscuit\n    name: Biscuit\n    text: x\n    provenance: rulebook\n"
        "    effect: |\n      use: gian 1 courage\n")
    result = CliRunner().invoke(main, ["validate", "field-kitchen", "--no-cache"])
    assert result.exit_code == 1, result.output
    assert [line.split(" ", 2)[:2] for line in _told(result.output)] == [
        ["field-kitchen/cards/rations.yaml:2:1:", "SCHEMA002"],
        ["field-kitchen/cards/rations.yaml:9:12:", "DSL101"],
        ["field-kitchen/maps/tiny.yaml:2:1:", "SCHEMA002"],
        ["field-kitchen/maps/tiny.yaml:7:9:", "XREF001"],
        ["field-kitchen/rules/kinds.yaml:2:1:", "SCHEMA002"],
        ["field-kitchen/rules/options/hot-meals.yaml:4:1:", "SCHEMA002"],
        ["field-kitchen/rules/options/hot-meals.yaml:15:3:", "DSL101"],
        ["field-kitchen/scenarios:1:1:", "PACK015"],  # (its scenarios: only their YAML, while these errors stand)
    ], result.output


def test_the_language_server_shows_every_mistake_of_a_pack_with_a_broken_pack_yaml(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """dday lsp checks the pack of an open file as dday validate does: with pack.yaml broken in the editor (not
    saved), the card file's mistakes and the PACK004 are still shown, each in its own file."""
    monkeypatch.chdir(tmp_path)
    pack = _broken_pack(tmp_path)
    manifest = pack / "pack.yaml"
    manifest.write_text("id: mypk\nname: Mypk\nversion: '3'\ntext: x\nprovenance: rulebook\n", encoding="utf-8")
    checked = check(unit_of(manifest), {os.path.realpath(manifest): BROKEN_MANIFEST})
    assert checked.content is None and not checked.loose
    told = {Path(file).name: [f"{d.line}:{d.column}: {d.code}" for d in diags]
            for file, diags in checked.by_file.items()}
    assert told == {"a.yaml": ["3:5: SCHEMA003", "3:5: SCHEMA003", "7:12: DSL101"],
                    "pack.yaml": ["1:1: SCHEMA003", "1:5: SCHEMA004", "3:10: SCHEMA004", "4:1: SCHEMA002",
                                  "5:13: SCHEMA005", "6:12: PACK004"]}


# Cards with mistakes of their schema, each still a card: 'bar' lacks its text and has an unknown key, 'Big_Gun' is
# no id (it stands for 'big-gun', as its hint says); 'helmet' names 'bar' in its effect.
BROKEN_ITEMS = ("kind: item\ncards:\n"
                "  - id: bar\n    name: Bar\n    cost: 2\n    soup: 1\n    provenance: rulebook\n"
                "  - id: Big_Gun\n    name: Big Gun\n    cost: 3\n    text: x\n    provenance: rulebook\n"
                "  - id: helmet\n    name: Helmet\n    cost: 1\n    text: x\n    provenance: rulebook\n"
                "    effect: |\n      use if has bar: gain 1 star\n")
ITEMS_MISTAKES = [
    "pa/cards/items.yaml:3:5: SCHEMA003 missing required key 'text'",
    "pa/cards/items.yaml:6:5: SCHEMA002 unknown key 'soup'",
    "pa/cards/items.yaml:8:9: SCHEMA004 'id': expected an id",
]
# A map of another pack that lists both cards, and a variant of it (a scenario of the map) that lists them again.
NAMING_MAP = (MAP.replace("items: [bazooka]", "items: [bar, big-gun]")
              + "variants:\n  - id: drill\n    name: Drill\n    text: x\n    items: [big-gun, bar]\n")


def test_a_card_with_schema_errors_is_known_to_what_names_it(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A card whose schema is wrong is still a card: a map of a pack that requires its pack, the map's variant and
    another card's effect name it without XREF001 (nor an unknown card in the effect); an id that is no id stands
    for the id it proposes. Only the cards' own mistakes are told; the load fails and gives no content."""
    monkeypatch.chdir(tmp_path)
    _named(tmp_path, "pa", "", BROKEN_ITEMS)
    _named(tmp_path, "pb", "pa")
    (tmp_path / "pb" / "maps").mkdir()
    (tmp_path / "pb" / "maps" / "tiny.yaml").write_text(NAMING_MAP, encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", "pb", "--no-cache"])
    assert result.exit_code == 1, result.output
    told = _told(result.output)
    assert [line[:len(want)] for line, want in zip(told, ITEMS_MISTAKES, strict=True)] == ITEMS_MISTAKES, \
        result.output
    assert "did you mean 'big-gun'?" in result.output
    content, diags = load(extra=[tmp_path / "pb"])
    assert content is None and [d.code for d in diags] == ["SCHEMA003", "SCHEMA002", "SCHEMA004"]


def test_a_card_with_schema_errors_is_checked_for_a_duplicate_id(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """DUP001 is told of a card with a mistake of its schema as of any card: after a card of its id, and for a
    card of its id after it; an 'overrides' that cannot be read is told alone (whether the card replaces another is
    not known)."""
    monkeypatch.chdir(tmp_path)
    card = "  - id: bar\n    name: Bar\n    cost: 2\n    text: x\n    provenance: rulebook\n"
    (tmp_path / "items.yaml").write_text(
        "kind: item\ncards:\n" + card + card.replace("    text: x\n", "")
        + "  - id: helmet\n    name: Helmet\n    cost: 1\n    text: x\n    provenance: rulebook\n    soup: 1\n"
        + card.replace("bar", "helmet") + card.replace("bar", "medkit").replace("text: x\n", "text: x\n    bogus: 1\n")
        + card.replace("bar", "medkit") + "    overrides: yes\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", "items.yaml", "--no-cache"])
    assert result.exit_code == 1, result.output
    assert [line.split(" ", 2)[:2] for line in _told(result.output)] == [
        ["items.yaml:8:5:", "SCHEMA003"],
        ["items.yaml:8:9:", "DUP001"],
        ["items.yaml:17:5:", "SCHEMA002"],
        ["items.yaml:18:9:", "DUP001"],
        ["items.yaml:27:5:", "SCHEMA002"],
        ["items.yaml:34:16:", "SCHEMA004"],
    ], result.output
    assert "duplicate card id 'bar' (first defined at items.yaml:3)" in result.output
    assert "duplicate card id 'helmet' (first defined at items.yaml:12)" in result.output


def _card(cid: str, rest: str) -> str:
    return f"  - id: {cid}\n    name: {cid.title()}\n" + "".join(f"    {line}\n" for line in rest.split("; "))


def test_a_card_with_schema_errors_has_its_provenance_cost_and_options_checked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A card with a mistake of its schema is checked as any card for what it does say: a reconstruction without a
    note (PROV001), an Item without a cost, an option that is none (OPT003); what is wrong is told once (a
    provenance that is none, or missing, asks for no note; a note that is no text, a cost that is no number, are not
    also missing)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "items.yaml").write_text("kind: item\ncards:\n" + "".join([
        _card("a", "cost: 1; text: x; soup: 1; provenance: reconstructed"),
        _card("b", "cost: 1; text: x; provenance: official"),
        _card("c", "cost: 1"),
        _card("d", "cost: 1; text: x; provenance: reconstructed; note: [x]"),
        _card("e", "provenance: rulebook"),
        _card("f", "cost: four; text: x; provenance: rulebook"),
        _card("g", "cost: 1; text: x; soup: 1; provenance: rulebook; only-in: [nomeal]"),
    ]), encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", "items.yaml", "--no-cache"])
    assert result.exit_code == 1, result.output
    assert [" ".join(line.split(" ", 2)[:2]) for line in _told(result.output)] == [
        "items.yaml:7:5: SCHEMA002",  # a: soup
        "items.yaml:8:17: PROV001",  # a: no note
        "items.yaml:13:17: SCHEMA005",  # b: official
        "items.yaml:14:5: SCHEMA003",  # c: text
        "items.yaml:14:5: SCHEMA003",  # c: provenance
        "items.yaml:22:11: SCHEMA004",  # d: a note that is no text
        "items.yaml:23:5: SCHEMA003",  # e: text
        "items.yaml:23:5: SCHEMA003",  # e: cost
        "items.yaml:28:11: SCHEMA004",  # f: a cost that is no number
        "items.yaml:35:5: SCHEMA002",  # g: soup
        "items.yaml:37:15: OPT003",  # g: only in no optional rule
    ], result.output
    assert "missing required key 'cost' for an item" in result.output


def test_a_note_that_is_no_text_is_not_also_missing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A reconstructed map whose note is no text: the note is told wrong (SCHEMA004), and neither the map nor its
    sectors, which have no note of their own, are also told to need one (PROV001)."""
    monkeypatch.chdir(tmp_path)
    _named(tmp_path, "pm", "")
    (tmp_path / "pm" / "maps").mkdir()
    (tmp_path / "pm" / "maps" / "tiny.yaml").write_text(MAP.replace("note: a map made for tests", "note: [a map]"),
                                                       encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", "pm", "--no-cache"])  # (its sectors say no note of their own)
    assert [" ".join(line.split(" ", 2)[:2]) for line in _told(result.output)] == [
        "pm/maps/tiny.yaml:4:7: SCHEMA004"], result.output


def test_the_language_server_knows_a_card_with_schema_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """dday lsp checks as dday validate does: with a pack's cards broken in the editor (not saved), the map of a pack
    that requires it names them without XREF001, and the cards' own mistakes are shown, a duplicate id among them."""
    monkeypatch.chdir(tmp_path)
    _named(tmp_path, "pa", "", BROKEN_ITEMS.replace("    soup: 1\n", "    text: x\n").replace("Big_Gun", "big-gun"))
    _named(tmp_path, "pb", "pa")
    (tmp_path / "pb" / "maps").mkdir()
    tiny = tmp_path / "pb" / "maps" / "tiny.yaml"
    tiny.write_text(NAMING_MAP, encoding="utf-8")
    assert not check(unit_of(tiny), {}).by_file
    items = tmp_path / "pa" / "cards" / "items.yaml"
    edited = BROKEN_ITEMS + "  - id: bar\n    name: Bar again\n    cost: 2\n    provenance: rulebook\n"
    checked = check(unit_of(tiny), {os.path.realpath(items): edited})
    assert checked.content is None and not checked.loose
    told = {Path(file).name: [f"{d.line}:{d.column}: {d.code}" for d in diags]
            for file, diags in checked.by_file.items()}
    assert told == {"items.yaml": ["3:5: SCHEMA003", "6:5: SCHEMA002", "8:9: SCHEMA004", "20:5: SCHEMA003",
                                   "20:9: DUP001"]}


def test_an_effect_that_is_no_text_is_told_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A card's or an optional rule's effect written as a list (on several lines) is told as a wrong value
    (SCHEMA004), and the record checked on without it: not also as an effect on several lines (YAML011)."""
    monkeypatch.chdir(tmp_path)
    effect = "effect: [gain 1 star,\n  gain 2 stars]\n"
    (tmp_path / "items.yaml").write_text(
        "kind: item\ncards:\n" + _card("d", "cost: 1; text: x; provenance: rulebook") + "    " + effect.replace(
            "\n  ", "\n      "), encoding="utf-8")
    (tmp_path / "options").mkdir()
    (tmp_path / "options" / "o.yaml").write_text("id: o\nname: O\ntext: x\nprovenance: rulebook\n" + effect,
                                                 encoding="utf-8")
    for file, where in (("items.yaml", "items.yaml:8:13:"), ("options/o.yaml", "options/o.yaml:5:9:")):
        result = CliRunner().invoke(main, ["validate", file, "--no-cache"])
        assert [line.split(" ", 2)[:2] for line in _told(result.output)] == [[where, "SCHEMA004"]], result.output


def test_two_packs_checked_together_that_share_a_card_id_are_told_so(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """'dday validate pa pb' loads them together: a card of both is no base card, and the hint does not say so."""
    monkeypatch.chdir(tmp_path)
    card = ("kind: specialist\ncards:\n  - id: cook\n    name: Cook\n    text: t\n    provenance: reconstructed\n"
            "    note: n\n    grade: regular\n    cost: 2\n    effect: |\n      on upkeep: gain 1 soldiers\n")
    for name in ("pa", "pb"):
        (tmp_path / name / "cards").mkdir(parents=True)
        (tmp_path / name / "pack.yaml").write_text(f"id: {name}\nname: P\nversion: '1'\ntext: t\n"
                                                   "provenance: reconstructed\nnote: n\nrequires: []\n")
        (tmp_path / name / "cards" / "s.yaml").write_text(card)
    result = CliRunner().invoke(main, ["validate", "pa", "pb", "--format", "json"])
    assert result.exit_code == 1
    found = [d for d in json.loads(result.output) if d["code"] == "DUP001"]
    assert len(found) == 1 and found[0]["file"] == "pb/cards/s.yaml"
    assert found[0]["hint"].startswith("the pack 'pa' has it too")
    assert "base card" not in found[0]["hint"]


@pytest.mark.parametrize(("move", "warned", "why"), [
    (("cards/items.yaml", "cards/more/items.yaml"), "cards/more", "a folder"),
    (("cards/items.yaml", "cards/items.YAML"), "cards/items.YAML", "'.YAML' is not '.yaml'"),
    (("cards/items.yaml", "cards/items.txt"), "cards/items.txt", "not a .yaml file"),
    (("cards/items.yaml", "maps/notes.md"), "maps/notes.md", "not a .yaml file"),
    (("cards/items.yaml", "rules/options/x.yaml.bak"), "rules/options/x.yaml.bak", "not a .yaml file"),
])
def test_a_file_of_a_content_folder_that_is_not_read_is_told(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             move: tuple[str, str], warned: str, why: str) -> None:
    """A pack's card file moved into a subfolder of cards/, or named *.YAML, was passed over in silence and the
    pack validated with fewer cards: each entry of cards/, maps/ and rules/options/ that is not read is a warning."""
    monkeypatch.chdir(tmp_path)
    shutil.copytree(REPO / "docs" / "example-pack" / "field-kitchen", "field-kitchen")
    old, new = (Path("field-kitchen") / part for part in move)
    new.parent.mkdir(parents=True, exist_ok=True)
    old.rename(new)
    result = CliRunner().invoke(main, ["validate", "field-kitchen", "--format", "json"])
    found = [(d["file"], d["code"], d["severity"]) for d in json.loads(result.output) if d["code"] == "LOAD009"]
    assert found == [(f"field-kitchen/{warned}", "LOAD009", "warning")], result.output
    assert why in result.output


@pytest.mark.parametrize(("folder", "hint"), [
    ("my pack", "name the folder 'field-kitchen' ('my pack' is no id, and a pack's folder is named by its id), or "
                "name it 'my-pack' and write 'id: my-pack'"),
    ("café", "name the folder 'field-kitchen' ('café' is no id, and a pack's folder is named by its id), or name it "
             "'cafe' and write 'id: cafe'"),
    ("Field_Kitchen", "name the folder 'field-kitchen' ('Field_Kitchen' is no id, and a pack's folder is named by its "
                      "id)"),
    ("kitchen", "write 'id: kitchen', or name the folder 'field-kitchen'"),
])
def test_pack001_suggests_only_ids(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, folder: str, hint: str) -> None:
    """PACK001's hint said "write 'id: my pack'" for a folder whose name is no id (following it gave SCHEMA004)."""
    monkeypatch.chdir(tmp_path)
    shutil.copytree(REPO / "docs" / "example-pack" / "field-kitchen", folder)
    result = CliRunner().invoke(main, ["validate", folder, "--format", "json"])
    found = [d for d in json.loads(result.output) if d["code"] == "PACK001"]
    assert [d["hint"] for d in found] == [hint], result.output


def test_a_map_file_checked_on_its_own_is_checked_as_in_a_pack(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A map file given alone is read as a pack's map is: a Sector reconstructed with no note of its own, on a map of
    the rulebook that has none either, is PROV001 at the Sector's provenance, in the pack and alone alike."""
    monkeypatch.chdir(tmp_path)
    bare = MAP.replace("provenance: reconstructed\nnote: a map made for tests\n", "provenance: rulebook\n", 1)
    (tmp_path / "tiny.yaml").write_text(bare, encoding="utf-8")
    _named(tmp_path, "pm", "")
    (tmp_path / "pm" / "maps").mkdir()
    (tmp_path / "pm" / "maps" / "tiny.yaml").write_text(bare, encoding="utf-8")
    told = {}
    for path in ("tiny.yaml", "pm"):
        result = CliRunner().invoke(main, ["validate", path, "--no-cache"])
        assert result.exit_code == 1, result.output
        told[path] = [" ".join(line.split(" ", 2)[:2]) for line in _told(result.output)]
    assert told["tiny.yaml"] == ["tiny.yaml:11:17: PROV001", "tiny.yaml:18:17: PROV001"], told
    assert told["pm"] == ["pm/maps/tiny.yaml:11:17: PROV001", "pm/maps/tiny.yaml:18:17: PROV001"], told
