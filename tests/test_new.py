"""``dday new pack|card|scenario``: a pack started from nothing validates, its scenario stub fails until filled in,
each file names a schema that exists and is valid against it, and nothing is ever overwritten."""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner, Result
from ruamel.yaml import YAML

from ddaydice.interpreter.cli import main


def dday(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def pack(tmp_path: Path) -> Path:
    folder = tmp_path / "my-rations"
    assert dday("new", "pack", str(folder), "--name", "My Rations").exit_code == 0
    for kind, cid in (("item", "canteen"), ("specialist", "cook"), ("item", "mess-tin")):
        result = dday("new", "card", kind, cid, "--pack", str(folder))
        assert result.exit_code == 0, result.output
    assert dday("new", "scenario", "canteen", "--pack", str(folder)).exit_code == 0
    return folder


def test_a_new_pack_validates_with_its_cards(pack: Path) -> None:
    result = dday("validate", str(pack), "--format", "json")
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)
    assert {d["severity"] for d in found} <= {"warning"}  # AVAIL001: no map lists the new Specialist yet
    # the new Items are Regular, as the tutorial's (docs/modding.md): in every game that has Items, no warning
    assert not [d for d in found if d["file"].endswith("items.yaml")], found
    assert sorted(re.findall(r"- id: ([a-z-]+)", (pack / "cards" / "items.yaml").read_text())) == \
        ["canteen", "mess-tin"]
    card = dday("card", "cook", "--pack", str(pack))
    assert card.exit_code == 0 and "RECONSTRUCTED" in card.output


def test_its_scenario_fails_until_filled_in(pack: Path) -> None:
    stub = pack / "scenarios" / "canteen.yaml"
    result = dday("scenario", "run", str(stub))
    assert result.exit_code == 1 and "expected 'fill in'" in result.output, result.output
    stub.write_text(stub.read_text().replace('u1.courage: "fill in"', "u1.courage: 2"))
    result = dday("scenario", "run", str(stub))
    assert result.exit_code == 0 and result.output.startswith("PASS"), result.output


def test_every_file_names_a_schema_it_is_valid_against(pack: Path) -> None:
    files = [pack / "pack.yaml", pack / "cards" / "items.yaml", pack / "cards" / "specialists.yaml",
             pack / "scenarios" / "canteen.yaml"]
    for path in files:
        first = path.read_text(encoding="utf-8").splitlines()[0]
        named = re.fullmatch(r"# yaml-language-server: \$schema=(.+)", first)
        assert named, first
        schema = json.loads((path.parent / named.group(1)).read_text(encoding="utf-8"))
        errors = list(jsonschema.Draft202012Validator(schema).iter_errors(YAML(typ="safe").load(path)))
        assert not errors, (path, [e.message for e in errors])


def test_nothing_is_overwritten_and_bad_names_are_refused(pack: Path) -> None:
    manifest = (pack / "pack.yaml").read_text()
    again = dday("new", "pack", str(pack))
    assert again.exit_code == 1 and "nothing was written" in again.output
    assert (pack / "pack.yaml").read_text() == manifest
    twice = dday("new", "card", "item", "canteen", "--pack", str(pack))
    assert twice.exit_code == 1 and "already has a card 'canteen'" in twice.output
    scenario = dday("new", "scenario", "canteen", "--pack", str(pack))
    assert scenario.exit_code == 1 and "exists" in scenario.output
    unknown = dday("new", "scenario", "kettle", "--pack", str(pack))
    assert unknown.exit_code == 2 and "dday new card KIND kettle" in unknown.output
    nowhere = dday("new", "card", "item", "kettle", "--pack", str(pack.parent))
    assert nowhere.exit_code == 2 and "has no pack.yaml" in nowhere.output
    bad = dday("new", "card", "item", "!!!", "--pack", str(pack))
    assert bad.exit_code == 2 and "cannot make an id" in bad.output


@pytest.mark.parametrize("command", [
    ["validate", "."], ["validate", "..", "--from", "cards"], ["validate", "cards/items.yaml"],
    ["list", "items", "--pack", "."], ["card", "canteen", "--pack", "."], ["conflicts", "."],
    ["conflicts", "--pack", "../my-rations"]])
def test_a_pack_named_from_inside_it_is_named_by_its_folder(pack: Path, monkeypatch: pytest.MonkeyPatch,
                                                            command: list[str]) -> None:
    """'.' and '..' stand for the folders they name: a pack checked from inside it has its folder's name (not ''
    or '..', PACK001), in every command that takes a pack by its path."""
    args = list(command)
    here = pack
    if "--from" in args:
        here = pack / args.pop(args.index("--from") + 1)
        args.remove("--from")
    monkeypatch.chdir(here)
    result = dday(*args)
    assert result.exit_code == 0, result.output
    assert "PACK001" not in result.output and "differs from its folder" not in result.output
    if command[0] == "list":
        assert "canteen" in result.output


def test_a_pack_checked_as_dot_finds_the_packs_beside_it(pack: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``requires:`` finds a pack beside the one checked, also when that one is given as '.'."""
    assert dday("new", "pack", str(pack.parent / "my-base")).exit_code == 0
    manifest = pack / "pack.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("requires: []", "requires: [my-base]"),
                        encoding="utf-8")
    monkeypatch.chdir(pack)
    result = dday("validate", ".", "--no-cache")
    assert result.exit_code == 0, result.output
    assert "2 expansions" in result.output


def test_a_scenario_file_named_to_validate_is_checked_not_passed_over(pack: Path) -> None:
    """``dday validate PACK/scenarios/x.yaml`` checks the scenario as ``dday scenario run`` does before a run (its
    YAML, keys, packs, set-up), with its pack; a named file that is no content and no scenario is refused, never
    'ok' unchecked."""
    scenario = pack / "scenarios" / "canteen.yaml"
    good = dday("validate", str(scenario), "--no-cache")
    assert good.exit_code == 0 and "1 scenario file(s)" in good.output, good.output
    scenario.write_text("units: [ [\n", encoding="utf-8")
    broken = dday("validate", str(scenario), "--no-cache", "--format", "json")
    assert broken.exit_code == 1, broken.output
    assert [(d["code"], Path(d["file"]).name, d["line"]) for d in json.loads(broken.output)] == [
        ("YAML001", "canteen.yaml", 1)]
    (pack / "scenarios" / "other.yaml").write_text(
        "scenario: x\nmap: exercise-tigr\nunits: [{id: u1, sector: s1}]\n", encoding="utf-8")
    wrong = dday("validate", str(pack / "scenarios" / "other.yaml"), "--no-cache", "--format", "json")
    assert wrong.exit_code == 1 and "exercise-tigr" in wrong.output, wrong.output
    (pack / "README.md").write_text("# My Rations\n", encoding="utf-8")
    for other in (pack / "README.md", pack / "schemas" / "cards.json"):
        refused = dday("validate", str(other), "--no-cache", "--format", "json")
        assert refused.exit_code == 1, refused.output
        assert [(d["code"], d["file"]) for d in json.loads(refused.output)] == [("LOAD007", str(other))]


def test_a_pack_validated_has_its_scenarios_checked(pack: Path) -> None:
    """``dday validate PACK`` checks the files of the pack's scenarios/ as ``dday validate PACK/scenarios/x.yaml``
    does (not run): a scenario naming a card or a map that does not exist fails the validation, at its line."""
    good = dday("validate", str(pack), "--no-cache")
    assert good.exit_code == 0 and "1 scenario file(s)" in good.output, good.output
    (pack / "scenarios" / "other.yaml").write_text(
        "scenario: x\nmap: exercise-tigr\nunits: [{id: u1, sector: s1}]\n", encoding="utf-8")
    wrong = dday("validate", str(pack), "--no-cache", "--format", "json")
    assert wrong.exit_code == 1, wrong.output
    errors = [(d["code"], Path(d["file"]).name, d["line"]) for d in json.loads(wrong.output)
              if d["severity"] == "error"]
    assert errors == [("SCEN001", "other.yaml", 2)], wrong.output
    assert "exercise-tigr" in wrong.output


@pytest.mark.parametrize("where", ["cards/items.yaml/sub", "cards/items.yaml/sub/deeper"])
def test_a_pack_where_a_file_stands_on_its_way_is_a_usage_error(pack: Path, where: str) -> None:
    before = sorted(pack.rglob("*"))
    result = dday("new", "pack", str(pack / where))
    assert result.exit_code == 2, (result.output, result.exception)
    assert f"Invalid value for FOLDER: {pack / 'cards' / 'items.yaml'} is not a folder" in result.output
    assert sorted(pack.rglob("*")) == before


def test_a_pack_whose_part_is_a_file_writes_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "half-made"
    folder.mkdir()
    (folder / "scenarios").write_text("not a folder\n", encoding="utf-8")
    result = dday("new", "pack", str(folder))
    assert result.exit_code == 2 and f"{folder / 'scenarios'} is a file, not a folder" in result.output
    assert [p.name for p in folder.iterdir()] == ["scenarios"]


@pytest.mark.parametrize(("folder", "made"), [("Bad_Name", "bad-name"), ("My Rations", "my-rations")])
def test_a_pack_folder_whose_name_is_no_id_is_refused_with_the_id(tmp_path: Path, folder: str, made: str) -> None:
    """The loader knows a pack by its folder's name, which must be its id (PACK001): a folder named otherwise would
    fail its first validation."""
    result = dday("new", "pack", str(tmp_path / folder))
    assert result.exit_code == 2, result.output
    assert f"'{folder}' is no id" in result.output and f"name it '{made}'" in result.output
    assert not (tmp_path / folder).exists()
    assert dday("new", "pack", str(tmp_path / made)).exit_code == 0
    assert dday("validate", str(tmp_path / made)).exit_code == 0


@pytest.mark.parametrize("umask", [0o022, 0o027], ids=["umask-022", "umask-027"])
def test_files_get_the_mode_a_plain_write_gives(tmp_path: Path, umask: int) -> None:
    """A new file's permissions are 0666 less the umask, as a plain write's; an existing file keeps its own (the
    temporary file the write goes through is private)."""
    old = os.umask(umask)
    try:
        folder = tmp_path / "my-rations"
        assert dday("new", "pack", str(folder)).exit_code == 0
        assert dday("new", "card", "item", "canteen", "--pack", str(folder)).exit_code == 0
        items = folder / "cards" / "items.yaml"
        for path in (folder / "pack.yaml", folder / "schemas" / "cards.json", items):
            assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask, path
        items.chmod(0o664)
        assert dday("new", "card", "item", "mess-tin", "--pack", str(folder)).exit_code == 0
        assert stat.S_IMODE(items.stat().st_mode) == 0o664
        assert "mess-tin" in items.read_text(encoding="utf-8")
    finally:
        os.umask(old)


ITEMS = "cards/items.yaml"


@pytest.mark.parametrize(("text", "shown"), [
    (b"\xff\xfe", f"{ITEMS}:1:1: YAML003 not UTF-8 text"),
    (b"kind: item\ncards: 5\n", f"{ITEMS}:2:1: SCHEMA004 'cards': expected a list of cards"),
    (b"kind: item\ncards: [\n", f"{ITEMS}:2:9: YAML001 YAML syntax error"),
    (b"kind: specialist\ncards: []\n", f"{ITEMS}:1:7: SCHEMA004 'kind': 'specialist' is not allowed in the file of "
                                       "item cards"),
    (b"kind: item\n", f"{ITEMS}:1:1: SCHEMA003 missing required key 'cards'"),
    (b"", f"{ITEMS}:1:1: SCHEMA001 the file is empty"),
])
def test_a_card_file_that_is_not_well_formed_is_refused_with_its_problems(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: bytes, shown: str) -> None:
    """The file is read as `dday validate` reads it; one it would refuse is shown as validate shows it, and kept."""
    monkeypatch.chdir(tmp_path)
    assert dday("new", "pack", "nc").exit_code == 0
    (tmp_path / "nc" / ITEMS).write_bytes(text)
    result = dday("new", "card", "item", "b", "--pack", "nc")
    assert result.exit_code == 1, (result.output, result.exception)
    assert f"nc/{shown}" in result.output and "nothing was written" in result.output
    assert (tmp_path / "nc" / ITEMS).read_bytes() == text
    assert sorted(p.name for p in (tmp_path / "nc" / "cards").iterdir()) == ["items.yaml"]


@pytest.mark.parametrize("text", [
    "kind: item\ncards: []\n",
    "# the pack's Items\nkind: item  # of the Units\ncards: [{id: a, name: A, text: t, provenance: rulebook, "
    "grade: special, cost: 1, effect: 'use: gain 1 courage'}]\n",
    "cards:\n- id: a\n  name: A  # its name\n  text: t\n  provenance: rulebook\n  grade: special\n  cost: 1\n"
    "  effect: |\n    use: gain 1 courage\nkind: item\n",
    "kind: item\ncards:\n    -   id: a\n        name: A\n        text: t\n        provenance: rulebook\n"
    "        grade: special\n        cost: 1\n        effect: |-\n          use: gain 1 courage",
])
def test_a_card_is_added_so_that_the_file_stays_valid(tmp_path: Path, text: str) -> None:
    pack = tmp_path / "nc"
    assert dday("new", "pack", str(pack)).exit_code == 0
    (pack / ITEMS).write_text(text, encoding="utf-8")
    result = dday("new", "card", "item", "b", "--pack", str(pack))
    assert result.exit_code == 0, result.output
    checked = dday("validate", str(pack), "--format", "json")
    assert checked.exit_code == 0, checked.output
    data = YAML(typ="safe").load(pack / ITEMS)
    assert [c["id"] for c in data["cards"]] == [*(["a"] if "id: a" in text else []), "b"]
    written = (pack / ITEMS).read_text(encoding="utf-8")
    assert all(comment in written for comment in re.findall(r"# .*", text))
    if text.startswith("kind: item\ncards:\n    -"):  # a block list ending the file: the card goes after, as written
        assert written.startswith(text + "\n    -   id: b\n        name: B\n")


def test_a_link_out_of_the_pack_is_refused_and_one_inside_it_is_written_through(tmp_path: Path) -> None:
    pack = tmp_path / "nc"
    assert dday("new", "pack", str(pack)).exit_code == 0
    outside = tmp_path / "outside.yaml"
    outside.write_text("kind: item\ncards: []\n", encoding="utf-8")
    (pack / ITEMS).symlink_to(outside)
    result = dday("new", "card", "item", "b", "--pack", str(pack))
    assert result.exit_code == 1 and "PACK010 this link leads outside the pack" in result.output
    assert (pack / ITEMS).is_symlink() and outside.read_text(encoding="utf-8") == "kind: item\ncards: []\n"
    (pack / ITEMS).unlink()
    (pack / "cards" / "kept.yml").write_text("kind: item\ncards: []\n", encoding="utf-8")
    (pack / ITEMS).symlink_to("kept.yml")
    result = dday("new", "card", "item", "b", "--pack", str(pack))
    assert result.exit_code == 0, result.output
    assert (pack / ITEMS).is_symlink() and "id: b" in (pack / "cards" / "kept.yml").read_text(encoding="utf-8")


def test_an_id_another_card_has_is_refused(pack: Path) -> None:
    """The pack's own cards, of any kind, and the base game's: a duplicate id fails validation (DUP001)."""
    specialists = (pack / "cards" / "specialists.yaml").read_text(encoding="utf-8")
    same = dday("new", "card", "specialist", "canteen", "--pack", str(pack))
    assert same.exit_code == 1, same.output
    assert "the pack already has a card 'canteen' (an item, " in same.output and "overrides" not in same.output
    base = dday("new", "card", "item", "medic", "--pack", str(pack))
    assert base.exit_code == 1 and "'medic' is the id of the specialist Medic of the base game" in base.output
    assert "overrides" not in base.output  # an item cannot replace a Specialist
    replace = dday("new", "card", "specialist", "medic", "--pack", str(pack))
    assert replace.exit_code == 1 and "write your specialist with 'overrides: true'" in replace.output
    assert (pack / "cards" / "specialists.yaml").read_text(encoding="utf-8") == specialists
    assert not (pack / "cards" / "items.yaml").read_text(encoding="utf-8").count("medic")


def test_a_failed_write_leaves_the_card_file_as_it_was(pack: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    items = pack / ITEMS
    before = items.read_text(encoding="utf-8")

    def full(self: Path, target: Path) -> Path:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Path, "replace", full)
    result = dday("new", "card", "item", "kettle", "--pack", str(pack))
    assert result.exit_code == 1 and "cannot write" in result.output and "No space left" in result.output
    assert items.read_text(encoding="utf-8") == before
    assert sorted(p.name for p in items.parent.iterdir()) == ["items.yaml", "specialists.yaml"]


def test_a_scenario_for_a_map_or_card_that_is_none_is_refused(pack: Path) -> None:
    """The card is the pack's, the map and its variant are in the game with the pack: anything else is a usage
    error naming every problem, with the name it may mean, and nothing is written."""
    result = dday("new", "scenario", "canten", "--map", "omaha-beech", "--pack", str(pack))
    assert result.exit_code == 2, result.output
    assert "CARD: no card 'canten'" in result.output and "did you mean 'canteen'?" in result.output
    assert "--map: no map 'omaha-beech'" in result.output and "did you mean 'omaha-beach'?" in result.output
    variant = dday("new", "scenario", "mess-tin", "--map", "exercise-tiger", "--variant", "advanced-trainng",
                   "--pack", str(pack))
    assert variant.exit_code == 2 and "has no variant 'advanced-trainng'" in variant.output, variant.output
    assert "did you mean 'advanced-training'?" in variant.output
    assert sorted(p.name for p in (pack / "scenarios").iterdir()) == ["canteen.yaml"]
    other = dday("new", "scenario", "mess-tin", "--map", "omaha-beach", "--pack", str(pack))
    assert other.exit_code == 0, other.output  # (another map: no variant unless one is given)
    written = (pack / "scenarios" / "mess-tin.yaml").read_text(encoding="utf-8")
    assert "map: omaha-beach\n" in written and "variant:" not in written


def test_a_card_of_every_kind_the_packs_content_declares_is_made(tmp_path: Path) -> None:
    """In a pack that requires Atlantikwall, a Badge, a Battle Condition, a Decoration and a German Specialist are
    made (each kind was refused: only specialist, item, vehicle and award were taken), each in its kind's file with
    the fields of its kind (a cost for a card bought, none for a card drawn), and the pack validates; a second card
    goes into the same file. Without the requirement, a Badge is refused with the expansion that declares it."""
    folder = tmp_path / "field-orders"
    assert dday("new", "pack", str(folder)).exit_code == 0
    manifest = folder / "pack.yaml"
    plain = manifest.read_text(encoding="utf-8")
    refused = dday("new", "card", "badge", "lucky-badge", "--pack", str(folder))
    assert refused.exit_code == 2 and "add 'requires: [atlantikwall]'" in refused.output, refused.output
    manifest.write_text(plain.replace("requires: []", "requires: [atlantikwall]"), encoding="utf-8")
    made = {"badge": "lucky-badge", "battle-condition": "fog-bank", "decoration": "iron-medal",
            "german-specialist": "gefreiter-x"}
    for kind, cid in made.items():
        result = dday("new", "card", kind, cid, "--pack", str(folder))
        assert result.exit_code == 0, result.output
    assert dday("new", "card", "badge", "second-badge", "--pack", str(folder)).exit_code == 0
    cards = {path.name: YAML(typ="safe").load(path) for path in (folder / "cards").glob("*.yaml")}
    assert {name: (data["kind"], [c["id"] for c in data["cards"]]) for name, data in cards.items()} == {
        "badges.yaml": ("badge", ["lucky-badge", "second-badge"]),
        "battle-conditions.yaml": ("battle-condition", ["fog-bank"]),
        "decorations.yaml": ("decoration", ["iron-medal"]),
        "german-specialists.yaml": ("german-specialist", ["gefreiter-x"])}
    assert cards["german-specialists.yaml"]["cards"][0]["cost"] == 2
    assert "cost" not in cards["badges.yaml"]["cards"][0] and "grade" not in cards["badges.yaml"]["cards"][0]
    result = dday("validate", str(folder), "--format", "json")
    assert result.exit_code == 0 and not [d for d in json.loads(result.output) if d["severity"] == "error"], \
        result.output
    unknown = dday("new", "card", "badg", "x", "--pack", str(folder))
    assert unknown.exit_code == 2 and "did you mean 'badge'?" in unknown.output, unknown.output
