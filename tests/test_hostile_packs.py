"""Hostile packs through ``dday validate``: links out of the pack, loops, devices, huge and bomb files, bad
manifests, card files, effects and maps (docs/security.md). Each case breaks the clean pack of tests/hostile_kit.py
one way and checks the exit status, the located message, no traceback and no secret in the output.
"""

from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hostile_kit import (
    CARDS_YAML,
    MAP_YAML,
    OPTION_YAML,
    PACK_YAML,
    SECOND_LINE,
    SECRET,
    World,
    check,
)

from ddaydice.dsl.diagnostics import Diagnostic
from ddaydice.dsl.limits import MAX_CONTENT_BYTES, MAX_EFFECT_CHARS, MAX_FILE_BYTES, MAX_FOLDER_ENTRIES
from ddaydice.dsl.sandbox import read_text
from ddaydice.dsl.yamlchars import CONTROL


def test_the_clean_pack_validates(world: World) -> None:
    """The baseline every case breaks: clean, with its map and option too."""
    (world.pack / "maps" / "test-map.yaml").write_text(MAP_YAML, encoding="utf-8")
    (world.pack / "rules" / "options" / "test-rule.yaml").write_text(OPTION_YAML, encoding="utf-8")
    check(world.validate(), 0, text=("ok:",))


# ---------------------------------------------------------------- links out of the pack, loops, devices
FILE_PLACES = ["cards/x.yaml", "maps/x.yaml", "rules/options/x.yaml", "rules/kinds.yaml", "rules/dice.yaml",
               "cards/specialists.yaml"]


def _link(target: Callable[[World, Path], str]) -> Callable[[World, Path], None]:
    def make(w: World, place: Path) -> None:
        if place.is_symlink() or place.exists():
            place.unlink()
        place.symlink_to(target(w, place))
    return make


LINKS: dict[str, tuple[Callable[[World, Path], None], str]] = {
    "to-a-secret-file": (_link(lambda w, _: str(w.outside / "secret.yaml")), "PACK010"),
    "to-a-secret-text": (_link(lambda w, _: str(w.outside / "secret.txt")), "PACK010"),
    "relative-out": (_link(lambda w, p: os.path.relpath(w.outside / "secret.yaml", p.parent)), "PACK010"),
    "to-a-folder-outside": (_link(lambda w, _: str(w.outside / "cards")), "PACK010"),
    "to-dev-zero": (_link(lambda _w, _p: "/dev/zero"), "PACK010"),
    "to-etc-passwd": (_link(lambda _w, _p: "/etc/passwd"), "PACK010"),
    "to-itself": (_link(lambda _w, p: p.name), "PACK011"),
    "broken": (_link(lambda _w, _p: "nothing-here.yaml"), "PACK011"),
}


@pytest.mark.parametrize("place", FILE_PLACES)
@pytest.mark.parametrize("how", sorted(LINKS))
def test_a_file_link_out_of_the_pack_is_refused(world: World, place: str, how: str) -> None:
    make, code = LINKS[how]
    make(world, world.pack / place)
    check(world.validate(), 1, (code,), file=f"pack/{place}")


@pytest.mark.parametrize("place", FILE_PLACES)
@pytest.mark.parametrize("how", ["to-a-secret-file", "to-a-secret-text", "relative-out", "to-dev-zero",
                                 "to-etc-passwd"])
def test_a_file_link_out_of_the_pack_named_on_its_own_is_refused(world: World, place: str, how: str) -> None:
    """``dday validate PACK/cards/x.yaml``: the file is checked within the pack it lies in (its place, not where
    the link leads), and the pack's rule refuses the link, as when the folder is validated."""
    make, code = LINKS[how]
    make(world, world.pack / place)
    check(world.validate(str(world.pack / place)), 1, (code,), file=f"pack/{place}")


def test_a_file_link_to_a_good_card_outside_is_refused_and_its_pack_checked(world: World) -> None:
    elsewhere = world.base / "elsewhere"  # (beside the working folder, as the secrets are)
    elsewhere.mkdir()
    (elsewhere / "good.yaml").write_text(CARDS_YAML.replace("cook", "outsider"), encoding="utf-8")
    (world.pack / "cards" / "x.yaml").symlink_to(os.path.relpath(elsewhere / "good.yaml", world.pack / "cards"))
    result = world.validate("pack/cards/x.yaml")
    check(result, 1, ("PACK010",), file="pack/cards/x.yaml")
    assert "outsider" not in result.output


def test_a_loose_file_link_leads_only_within_its_folder(world: World) -> None:
    """A content file in no pack, given as a link: followed within the folder that holds it, never outside."""
    (world.work / "loose.yaml").symlink_to(world.outside / "secret.yaml")
    check(world.validate("loose.yaml"), 1, ("PACK010",), file="loose.yaml")
    (world.work / "card.yaml").write_text(CARDS_YAML.replace("cook", "loose-cook"), encoding="utf-8")
    (world.work / "beside.yaml").symlink_to("card.yaml")
    check(world.validate("beside.yaml"), 0, text=("ok:",))


def _count_reads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The files read as YAML from now on (each read of its bytes: sandbox.read_text), in order."""
    reads: list[Path] = []

    def counting(path: Path, shown: str, *args: Any, **kwargs: Any) -> tuple[bytes | None, Diagnostic | None]:
        reads.append(Path(path).resolve())
        return read_text(path, shown, *args, **kwargs)
    monkeypatch.setattr("ddaydice.dsl.yamlsrc.read_text", counting)
    return reads


@pytest.mark.parametrize(("name", "text"), [("card.yaml", CARDS_YAML), ("map.yaml", MAP_YAML),
                                           ("options/rule.yaml", OPTION_YAML), ("empty.yaml", "")])
def test_a_file_given_on_its_own_is_read_once(world: World, monkeypatch: pytest.MonkeyPatch, name: str,
                                               text: str) -> None:
    """A content file in no pack, given alone: what it holds tells its kind, and those bytes are what is checked
    (it is not read a second time, which might read other bytes, and its size counts once against the limits)."""
    loose = world.work / name
    loose.parent.mkdir(exist_ok=True)
    loose.write_text(text, encoding="utf-8")
    reads = _count_reads(monkeypatch)
    result = world.validate(name)
    check(result, 1 if name == "empty.yaml" else 0, ("SCHEMA001",) if name == "empty.yaml" else ())
    assert reads.count(loose.resolve()) == 1, result.output


@pytest.mark.parametrize("place", FILE_PLACES[:3])
def test_a_two_link_loop_is_refused(world: World, place: str) -> None:
    a = world.pack / place
    b = a.with_name("y.yaml")
    b.symlink_to(a.name)
    a.symlink_to(b.name)
    check(world.validate(), 1, ("PACK011",), file=f"pack/{place}")


FOLDERS = ["cards", "maps", "rules", "rules/options"]
FOLDER_LINKS: dict[str, tuple[Callable[[World, Path], str], str]] = {
    "to-a-folder-outside": (lambda w, _: str(w.outside / "cards"), "PACK010"),
    "to-the-evil-pack": (lambda w, _: str(w.outside / "evil"), "PACK010"),
    "to-the-parent": (lambda _w, _p: "..", "PACK010"),
    "to-the-pack-itself": (lambda w, p: os.path.relpath(w.pack, p.parent), "PACK011"),
    "to-root": (lambda _w, _p: "/", "PACK010"),
    "broken": (lambda _w, _p: "gone", "PACK011"),
}


@pytest.mark.parametrize("folder", FOLDERS)
@pytest.mark.parametrize("how", sorted(FOLDER_LINKS))
def test_a_folder_link_out_of_the_pack_is_refused(world: World, folder: str, how: str) -> None:
    place = world.pack / folder
    target, code = FOLDER_LINKS[how]
    if place.is_dir():
        for child in sorted(place.rglob("*"), reverse=True):
            child.unlink() if not child.is_dir() or child.is_symlink() else child.rmdir()
        place.rmdir()
    place.symlink_to(target(world, place))
    if how == "to-the-parent" and "/" in folder:  # rules/options -> .. is rules/: inside, but a loop
        code = "PACK011"
    check(world.validate(), 1, (code,), file=f"pack/{folder}")


def test_the_manifest_as_a_link_outside_is_refused(world: World) -> None:
    (world.pack / "pack.yaml").unlink()
    (world.pack / "pack.yaml").symlink_to(world.outside / "evil" / "pack.yaml")
    check(world.validate(), 1, ("PACK010",), file="pack/pack.yaml")


def test_a_pack_folder_linked_outside_its_tree_is_refused(world: World, tmp_path: Path) -> None:
    tree = tmp_path / "tree2"
    tree.mkdir()
    (tree / "rules").symlink_to(world.tree / "rules")  # the tree's own folders may be links (src/ddaydice is)
    (tree / "expansions").mkdir()
    (tree / "expansions" / "evil").symlink_to(world.outside / "evil")
    check(world.run("validate", "--root", str(tree)), 1, ("PACK010",))


@pytest.mark.parametrize("folder", ["cards", "maps", "rules/options"])
def test_a_pipe_named_like_a_content_file_is_refused(world: World, folder: str) -> None:
    os.mkfifo(world.pack / folder / "pipe.yaml")
    check(world.validate(), 1, ("LOAD006",), file=f"pack/{folder}/pipe.yaml")


@pytest.mark.parametrize("folder", ["cards", "maps", "rules/options", "."])
def test_a_folder_with_too_many_entries_is_refused(world: World, folder: str) -> None:
    where = world.pack / folder
    for i in range(MAX_FOLDER_ENTRIES + 1):
        (where / f"f{i}.txt").touch()
    check(world.validate(), 1, ("PACK014",))


def test_a_pack_beyond_the_content_limit_is_refused_before_its_files_are_parsed(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """More than MAX_CONTENT_BYTES of one-line cards, in files of at most MAX_FILE_BYTES: LOAD008 at the file that
    goes beyond the limit, told as its folder is listed, and not one of the pack's card files is read (parsing
    them first took half a minute on a busy machine, for a refusal)."""
    cards, size, n = world.pack / "cards", 0, 0
    while size <= MAX_CONTENT_BYTES:
        lines = [f"  - {{id: c{n + i}, name: C{n + i}, cost: 1, text: x, provenance: rulebook}}\n" for i in range(800)]
        text = "kind: item\ncards:\n" + "".join(lines)
        assert len(text) <= MAX_FILE_BYTES
        (cards / f"c{n // 800:03}.yaml").write_text(text, encoding="utf-8")
        size, n = size + len(text), n + 800
    reads = _count_reads(monkeypatch)
    result = world.validate()
    told = re.search(r"^pack/cards/(c\d+\.yaml):1:1: LOAD008 (.*)$", result.output, re.MULTILINE)
    check(result, 1, ("LOAD008",))
    assert not [r for r in reads if r.parent == cards.resolve()], result.output
    assert told is not None and told[2] == (f"the content files to check come to more than {MAX_CONTENT_BYTES} "
                                            "bytes in all with this file: the check reads no more files"), result.output
    files = sorted(cards.glob("c*.yaml"))
    upto = sum(f.stat().st_size for f in files[:files.index(cards / told[1]) + 1])  # (the files read before the
    others = sum(f.stat().st_size for f in [*world.tree.rglob("*.yaml"), world.pack / "pack.yaml"])  # cards: fewer)
    assert upto - (cards / told[1]).stat().st_size <= MAX_CONTENT_BYTES < upto + others, told[1]


@pytest.mark.parametrize("name", ["a\x1b[31mred", "new\nline", "bidi\u202eevil", "tab\tbed", "cr\rreturn"])
def test_an_entry_with_control_characters_in_its_name_is_named_safely(world: World, name: str) -> None:
    (world.pack / name).touch()
    check(world.validate(), 1, ("PACK002",))


# ---------------------------------------------------------------- YAML attacks, in every kind of file
BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 9) + "]\n" for i in range(9))
YAML_ATTACKS: dict[str, tuple[str | bytes, str | None]] = {
    "billion-laughs": (BOMB, "YAML005"),
    "many-aliases": ("a: &a x\nb: [" + ", ".join(["*a"] * 150) + "]\n", "YAML005"),
    "alias-loop": ("a: &a [*a, *a]\n", None),
    "deep-flow": ("a: " + "[" * 120 + "]" * 120 + "\n", "YAML006"),
    "deep-block": ("".join("  " * i + f"k{i}:\n" for i in range(200)), "YAML006"),
    "too-large": ("# " + "x" * MAX_FILE_BYTES + "\n", "LOAD005"),
    "not-utf8": (b"id: caf\xe9\n", "YAML003"),
    "nul-byte": ("id: a\x00b\n", "YAML003"),
    "binary": (bytes(range(256)) * 4, "YAML003"),
    "plain-text": (f"just some text\n{SECOND_LINE}\n", "SCHEMA001"),
    "a-list": ("- 1\n- 2\n", "SCHEMA001"),
    "a-number": ("42\n", "SCHEMA001"),
    "empty": ("", "SCHEMA001"),
    "only-a-comment": ("# nothing\n", "SCHEMA001"),
    "tab-indent": ("a:\n\tb: 1\n", "YAML001"),
    "duplicate-key": ("id: a\nid: b\n", "YAML002"),
    "unclosed-flow": ("a: [1, 2\n", "YAML001"),
    "python-tag": ("!!python/object/apply:os.system ['echo hi']\n", None),
    "escape-in-key": ("\"\\e[31mkey\": 1\n", None),
    "bidi-in-key": ("\"\\u202ekey\": 1\n", None),
    "long-line": ("key: " + "x" * 60000 + "\n", None),
}


@pytest.mark.parametrize("place", ["pack.yaml", "cards/specialists.yaml", "maps/m.yaml", "rules/options/o.yaml"])
@pytest.mark.parametrize("attack", sorted(YAML_ATTACKS))
def test_a_yaml_attack_is_refused(world: World, place: str, attack: str) -> None:
    text, code = YAML_ATTACKS[attack]
    path = world.pack / place
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    check(world.validate(), 1, (code,) if code else (), file=f"pack/{place}")


# ---------------------------------------------------------------- manifests
REQUIRES = ["..", "../outside", "../outside/evil", "/", "/etc", "/tmp", "~", "~/x", ".", "./pack", "a/b", "a\\b",
            "", " ", "UPPER", "has space", "x\u202egnp", "\x1b[2J", "x" * 300, "evil/../..", "-lead", "trail-",
            "dou--ble", "é"]


@pytest.mark.parametrize("entry", REQUIRES, ids=[f"requires{i}" for i in range(len(REQUIRES))])
def test_requires_names_packs_by_id_only(world: World, entry: str) -> None:
    text = PACK_YAML.replace("requires: []", f"requires: [{_quoted(entry)}]")
    (world.pack / "pack.yaml").write_text(text, encoding="utf-8")
    code = "YAML007" if CONTROL.search(entry) else "PACK012"  # (a text with a control character: refused as such)
    check(world.validate(), 1, (code,), file="pack/pack.yaml")


def test_requires_cannot_reach_the_evil_pack_beside_by_a_link(world: World) -> None:
    (world.work / "evil").symlink_to(world.outside / "evil")  # a folder beside the pack, leading outside
    (world.pack / "pack.yaml").write_text(PACK_YAML.replace("requires: []", "requires: [evil]"), encoding="utf-8")
    check(world.validate(), 1, ("PACK004",), file="pack/pack.yaml")


@pytest.mark.parametrize("value", ["5", "null", "[[a]]", "{a: b}", "true"])
def test_requires_of_another_type_is_refused(world: World, value: str) -> None:
    text = PACK_YAML.replace("requires: []", f"requires: {value}" if value != "[[a]]" else "requires: [[a]]")
    (world.pack / "pack.yaml").write_text(text, encoding="utf-8")
    check(world.validate(), 1, ("SCHEMA004",), file="pack/pack.yaml")


MANIFEST = {
    "id-empty": (("id: pack", 'id: ""'), "SCHEMA004"),
    "id-path": (("id: pack", "id: ../pack"), "SCHEMA004"),
    "id-bidi": (("id: pack", 'id: "pa\\u202eck"'), "YAML007"),
    "id-escape": (("id: pack", 'id: "\\e[31mpack"'), "YAML007"),
    "id-number": (("id: pack", "id: 7"), "SCHEMA004"),
    "id-other": (("id: pack", "id: other"), "PACK001"),
    "version-number": (('version: "1.0"', "version: 1.0"), "SCHEMA004"),
    "provenance": (("provenance: reconstructed", "provenance: official"), "SCHEMA005"),
    "unknown-key": (("adds: [specialists]", "adds: [specialists]\nexec: rm -rf /"), "SCHEMA002"),
    "no-name": (("name: A Test Pack\n", ""), "SCHEMA003"),
    "deck-negative": (("adds: [specialists]", "adds: [specialists]\naward-deck-size: -1"), "SCHEMA004"),
    "deck-huge": (("adds: [specialists]", "adds: [specialists]\naward-deck-size: 1000000000000"), "SCHEMA004"),
    "deck-float": (("adds: [specialists]", "adds: [specialists]\naward-deck-size: 1.5"), "SCHEMA004"),
    "deck-inf": (("adds: [specialists]", "adds: [specialists]\naward-deck-size: .inf"), "SCHEMA004"),
    "deck-nan": (("adds: [specialists]", "adds: [specialists]\naward-deck-size: .nan"), "SCHEMA004"),
    "text-a-mapping": (("text: A pack for the hostile-input corpus.", "text: {a: 1}"), "SCHEMA004"),
}


@pytest.mark.parametrize("case", sorted(MANIFEST))
def test_a_bad_manifest_is_refused(world: World, case: str) -> None:
    (old, new), code = MANIFEST[case]
    assert old in PACK_YAML
    (world.pack / "pack.yaml").write_text(PACK_YAML.replace(old, new, 1), encoding="utf-8")
    check(world.validate(), 1, (code,), file="pack/pack.yaml")


# ---------------------------------------------------------------- card files
IDS = ['""', "../cook", "a/b", "/etc/passwd", '"co\\u202eok"', '"co\\x1bok"', '"co\\nok"', "Cook", "co ok",
       "co_ok", "-cook", "cook-", "co--ok", "x" * 65, "7", "null", "[a]", "{a: b}", '"c\\u200dook"', "çook"]


@pytest.mark.parametrize("value", IDS, ids=[f"id{i}" for i in range(len(IDS))])
def test_a_card_id_must_be_a_slug(world: World, value: str) -> None:
    text = CARDS_YAML.replace("  - id: cook", f"  - id: {value}")
    (world.pack / "cards" / "specialists.yaml").write_text(text, encoding="utf-8")
    code = "YAML007" if "\\u202e" in value or "\\x1b" in value else "SCHEMA004"  # (a control character)
    check(world.validate(), 1, (code,), file="pack/cards/specialists.yaml")


COSTS = ["-1", "-100", "100", "1000000000000000000000000", "1.5", ".inf", ".nan", '"3"', "true", "[3]", "0x10000"]


@pytest.mark.parametrize("value", COSTS, ids=[f"cost{i}" for i in range(len(COSTS))])
def test_a_card_cost_is_bounded(world: World, value: str) -> None:
    text = CARDS_YAML.replace("cost: 3", f"cost: {value}")
    (world.pack / "cards" / "specialists.yaml").write_text(text, encoding="utf-8")
    check(world.validate(), 1, ("SCHEMA004",), file="pack/cards/specialists.yaml")


CARD_FIELDS = {
    "grade": (("grade: unique", "grade: legendary"), "SCHEMA004"),
    "provenance": (("provenance: reconstructed", "provenance: leaked"), "SCHEMA005"),
    "kind": (("kind: specialist", "kind: ../../etc"), "SCHEMA004"),
    "unknown-key": (("    note: Invented for the tests.", "    note: x\n    script: import os"), "SCHEMA002"),
    "no-cost": (("    cost: 3\n", ""), "SCHEMA003"),
    "no-text": (("    text: At each Upkeep, your Unit gains 1 Soldier.\n", ""), "SCHEMA003"),
    "cards-a-text": (("cards:\n", f"cards: {SECRET[:3]}\nx:\n"), "SCHEMA002"),
    "a-card-a-text": (("  - id: cook", "  - just text\n  - id: cook"), "SCHEMA001"),
    "name-a-list": (("name: Cook", "name: [a, b]"), "SCHEMA004"),
    "duplicate": (("    note: Invented for the tests.\n",
                   "    note: Invented for the tests.\n  - {id: cook, name: C, cost: 1, text: x, "
                   "provenance: rulebook}\n"), "DUP001"),
    "only-in": (("    note: Invented for the tests.", "    note: x\n    only-in: [../x]"), "OPT003"),
}


@pytest.mark.parametrize("case", sorted(CARD_FIELDS))
def test_a_bad_card_is_refused(world: World, case: str) -> None:
    (old, new), code = CARD_FIELDS[case]
    assert old in CARDS_YAML
    (world.pack / "cards" / "specialists.yaml").write_text(CARDS_YAML.replace(old, new, 1), encoding="utf-8")
    check(world.validate(), 1, (code,), file="pack/cards/specialists.yaml")


# ---------------------------------------------------------------- effects
EFFECTS: dict[str, tuple[str, str | None]] = {
    "number-100": ("on upkeep: gain 100 soldiers", "DSL005"),
    "number-huge": ("on upkeep: gain 99999999999999999999999 soldiers", "DSL005"),
    "number-5000-digits": ("on upkeep: gain " + "9" * 3000 + " soldiers", "DSL005"),
    "signed-huge": ("def -1000 this turn", None),
    "dice-huge": ("on upkeep: gain 1000d6 soldiers", "DSL005"),
    "comparison-huge": ("use if soldiers >= 100000: gain 1 star", None),
    "too-long": ("on upkeep: gain 1 soldier\n" * (MAX_EFFECT_CHARS // 20), "DSL005"),
    "one-long-line": ("on upkeep: gain 1 soldier " + "and gain 1 star " * 300, "DSL005"),
    "nested-parens": ("use if " + "(" * 150 + "bunker" + ")" * 150 + ": gain 1 star", "DSL004"),
    "nested-not": ("use if " + "not " * 200 + "bunker: gain 1 star", "DSL004"),
    "escape": ("on upkeep: gain 1 soldier \x1b[31m", None),
    "bidi": ("on upkeep: gain 1 \u202esoldier", None),
    "python": ("__import__('os').system('id')", None),
    "eval": ("use: eval(open('/etc/passwd').read())", None),
    "path-word": ("use: recruit ../../etc/passwd free", None),
    "unknown-word": ("on upkeep: summon 3 dragons", None),
    "null-char": ("on upkeep: gain 1 soldier\\x00", None),
}


@pytest.mark.parametrize("case", sorted(EFFECTS))
def test_a_hostile_effect_is_refused(world: World, case: str) -> None:
    effect, code = EFFECTS[case]
    block = "\n".join("      " + line for line in effect.splitlines())
    text = CARDS_YAML.replace("      on upkeep: gain 1 soldier", block)
    (world.pack / "cards" / "specialists.yaml").write_text(text, encoding="utf-8")
    result = world.validate()
    check(result, 1, (code,) if code else (), file="pack/cards/specialists.yaml")
    if code is None:
        assert any(c.startswith(("DSL", "YAML")) for c in _codes(result.output)), result.output


@pytest.mark.parametrize("form", ['effect: ["gain 1 soldier"]', "effect: 7", "effect: {a: b}",
                                  "effect: >\n      on upkeep: gain 1 soldier"])
def test_an_effect_of_the_wrong_form_is_refused(world: World, form: str) -> None:
    text = CARDS_YAML.replace("effect: |\n      on upkeep: gain 1 soldier", form)
    (world.pack / "cards" / "specialists.yaml").write_text(text, encoding="utf-8")
    result = world.validate()
    check(result, 1, file="pack/cards/specialists.yaml")
    assert {"SCHEMA004", "YAML010"} & set(_codes(result.output)), result.output


# ---------------------------------------------------------------- maps
MAPS = {
    "def-negative": (("def: [2]", "def: [-1]")),
    "def-huge": (("def: [2]", "def: [1000000]")),
    "def-31": (("def: [2]", "def: [31]")),
    "def-float": (("def: [2]", "def: [2.5]")),
    "mgf-7": (("mgf: 1", "mgf: 7")),
    "mgf-negative": (("mgf: 1", "mgf: -1")),
    "row-0": (("row: 1", "row: 0")),
    "row-huge": (("row: 1", "row: 100000")),
    "players-0": (("players: [1, 4]", "players: [0, 4]")),
    "players-9": (("players: [1, 4]", "players: [1, 9]")),
    "number-negative": (("number: 1", "number: -5")),
    "start-negative": (("start: {soldiers: 4", "start: {soldiers: -4")),
    "start-huge": (("courage: 1,", "courage: 100000,")),
    "line-cost-negative": (("cost: 1}", "cost: -1}")),
    "line-cost-huge": (("cost: 1}", "cost: 1000}")),
    "sector-id-path": (("  - id: s1", "  - id: ../s1")),
    "sector-id-empty": (("  - id: s1", '  - id: ""')),
    "map-id-path": (("id: test-map", "id: /etc/passwd")),
    "map-id-bidi": (("id: test-map", 'id: "test\\u202emap"')),
    "at-least-9": (("item-points: 0}", "item-points: 0, at-least: 9}")),
}


@pytest.mark.parametrize("case", sorted(MAPS))
def test_a_map_number_out_of_the_rules_range_is_refused(world: World, case: str) -> None:
    old, new = MAPS[case]
    assert old in MAP_YAML
    (world.pack / "maps" / "test-map.yaml").write_text(MAP_YAML.replace(old, new, 1), encoding="utf-8")
    code = "YAML007" if "\\u202e" in new else "SCHEMA004"  # (a control character)
    check(world.validate(), 1, (code,), file="pack/maps/test-map.yaml")


SETTINGS = ["1000000", "-1000000", "{a: b}", ".inf"]


@pytest.mark.parametrize("value", SETTINGS, ids=[f"setting{i}" for i in range(len(SETTINGS))])
def test_an_option_setting_is_bounded(world: World, value: str) -> None:
    text = OPTION_YAML + f"settings:\n  items-per-turn: {value}\n"
    (world.pack / "rules" / "options" / "test-rule.yaml").write_text(text, encoding="utf-8")
    result = world.validate()
    check(result, 1, file="pack/rules/options/test-rule.yaml")
    assert {"SCHEMA004", "OPT001"} & set(_codes(result.output)), result.output


# ---------------------------------------------------------------- the same pack, through other commands
@pytest.mark.parametrize("command", [["list", "specialists"], ["card", "cook"],  # load_or_exit, load_content
                                     ["play", "exercise-tiger", "--auto", "reference"]])  # as simulate, render
def test_a_linked_secret_is_refused_by_every_command_with_pack(world: World, command: list[str]) -> None:
    (world.pack / "cards" / "x.yaml").symlink_to(world.outside / "secret.yaml")
    check(world.run(*command, "--pack", str(world.pack)), 1, ("PACK010",))


def _quoted(text: str) -> str:
    """A YAML double-quoted scalar (JSON's escapes are YAML's)."""
    return json.dumps(text)


def _codes(out: str) -> list[str]:
    from hostile_kit import LOCATED

    return LOCATED.findall(out)


assert SECRET not in PACK_YAML and SECOND_LINE not in CARDS_YAML


@pytest.mark.parametrize("where", ["cards/up", "loop", "maps/deeper/up"])
def test_a_pack_with_a_link_back_to_itself_loads_fast_through_pack(world: World, where: str) -> None:
    """The cached load's walk of a --pack folder follows no link below it: a loop cannot make it endless."""
    link = world.pack / where
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(os.path.relpath(world.pack, link.parent))
    result = world.run("list", "specialists", "--pack", str(world.pack))
    if where.startswith("maps/deeper"):  # a folder inside maps/ is not content: neither read nor walked
        check(result, 0, text=("cook",))
    else:
        check(result, 1, ("PACK011",), file=f"{world.pack.name}/{where}")


def test_a_map_name_with_control_characters_is_refused_at_the_character(world: World) -> None:
    """A pack's map named with control characters (\\x01, an OSC escape, a bell) is refused where it is read, by
    every command, at the first of them as written (the escape), not loaded and shown escaped."""
    evil = MAP_YAML.replace("name: Test Map", 'name: "Evil \\x01 \\e]0;x\\a Beach"')
    (world.pack / "maps" / "test-map.yaml").write_text(evil, encoding="utf-8")
    for command in (["list", "maps"], ["render", "test-map", "-o", "m.svg"]):
        result = world.run(*command, "--pack", "./pack")
        check(result, 1, ("YAML007",), text=("pack/maps/test-map.yaml:2:13: YAML007 the text holds a control "
                                             "character (U+0001)",))
    assert not (world.work / "m.svg").exists()


def test_a_map_name_with_xml_characters_reaches_no_svg_raw(world: World) -> None:
    """A pack's map named with XML's own characters: `dday list` shows it as written and the SVG is well-formed
    XML whatever the name says."""
    evil = MAP_YAML.replace("name: Test Map", 'name: "Evil <b>&amp; ]]> Beach"')
    (world.pack / "maps" / "test-map.yaml").write_text(evil, encoding="utf-8")
    shown = "Evil <b>&amp; ]]> Beach"
    check(world.run("list", "maps", "--pack", "./pack"), 0, text=(shown,))
    check(world.run("render", "test-map", "--pack", "./pack", "-o", "m.svg"), 0, text=(f"wrote m.svg ({shown})",))
    title = ET.parse(world.work / "m.svg").getroot().find("{http://www.w3.org/2000/svg}title")
    assert title is not None and shown in (title.text or "")


@pytest.mark.parametrize("command", [["list"], ["simulate", "exercise-tiger", "--games", "1"]])
def test_json_output_stays_json_when_the_content_does_not_load(world: World, command: list[str]) -> None:
    """``--format json`` of a command that loads content: when the content does not load, standard output is
    the diagnostics as JSON (as dday validate gives them), never their text."""
    (world.pack / "cards" / "bin.yaml").write_bytes(b"\x00\xff\xfe binary")
    result = world.run(*command, "--pack", "./pack", "--format", "json")
    assert result.exit_code == 1, result.output
    diagnostics = json.loads(result.stdout)
    assert [d["file"] for d in diagnostics] == ["pack/cards/bin.yaml"]
