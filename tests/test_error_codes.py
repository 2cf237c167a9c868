"""Every error code the loader and the effect language give, each from a minimal bad input.

For each code, one row of :data:`CASES`: a small content tree with one mistake, the place the message must point
at (``file:line:col``), the words the message must name (the offending token, key or file, never a right one
beside it), and the hint, or that there is none. The run must report that mistake alone (a second message for
the same mistake would blur it), and the whole rendered diagnostic (``file:line:col: CODE message``, the source
line, the caret, the hint) is snapshotted.

``test_every_code_has_a_row`` reads the codes out of the source of dsl/ (and of ``dday validate``): a new code
without a row fails it. The codes of the interpreter's own inputs (replays, scenarios, set-ups) are listed in
:data:`ELSEWHERE` with the test that covers each.
"""

from __future__ import annotations

import errno
import os
import re
import socket
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import NamedTuple

import pytest
from click.testing import CliRunner, Result
from syrupy.assertion import SnapshotAssertion
from test_diagnostics import MAP, PACK, card, content_tree

from ddaydice.dsl.limits import MAX_EFFECT_CHARS, MAX_FILE_BYTES, MAX_FOLDER_ENTRIES
from ddaydice.dsl.loader import load
from ddaydice.dsl.loading import reading
from ddaydice.interpreter.cli import main

REPO = Path(__file__).resolve().parent.parent
Setup = Callable[[Path, pytest.MonkeyPatch], None]


class Case(NamedTuple):
    """A minimal bad input and what its message must say."""

    code: str
    files: Mapping[str, str | bytes]
    where: str  # file:line:col of the diagnostic
    names: tuple[str, ...]  # what the message must name: the offending token, key or file
    hint: str | None  # a part of the hint; None: the diagnostic has no hint
    args: tuple[str, ...] = ("validate", "--root", ".")
    setup: Setup | None = None  # what files cannot say: links, pipes, sockets
    also: tuple[str, ...] = ()  # other codes the same input must give too (a second, separate mistake)


def effect(text: str, **fields: str) -> dict[str, str]:
    """A card file whose one card has this effect (its line 9 is the effect's first line, column 7 its start)."""
    return {"cards/new.yaml": card(text, **fields)}


def at(col: int, line: int = 9) -> str:
    return f"cards/new.yaml:{line}:{col}"


def pack_tree(files: Mapping[str, str], manifest: str = PACK, name: str = "extra") -> dict[str, str]:
    """A pack 'extra' under expansions/ (loaded by 'validate --root .')."""
    return {f"expansions/{name}/pack.yaml": manifest, **{f"expansions/{name}/{k}": v for k, v in files.items()}}


def option(body: str, name: str = "opt") -> dict[str, str]:
    return {f"rules/options/{name}.yaml": f"id: {name}\nname: Opt\ntext: x\nprovenance: rulebook\n{body}"}


def map_with(old: str, new: str) -> dict[str, str]:
    assert old in MAP
    return {"maps/tiny.yaml": MAP.replace(old, new, 1)}


def _link(rel: str, target: str) -> Setup:
    def make(root: Path, _: pytest.MonkeyPatch) -> None:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.symlink_to(target)
    return make


def _fifo(rel: str) -> Setup:
    def make(root: Path, _: pytest.MonkeyPatch) -> None:
        os.mkfifo(root / rel)
    return make


def _unreadable(rel: str) -> Setup:
    """A file the system refuses to open (a file without read permission; the tests may run as root, whom
    permissions do not stop, so the refusal is made here)."""
    def make(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        (root / rel).write_text("kind: item\ncards: []\n", encoding="utf-8")
        real_open = os.open

        def refusing(path: str | os.PathLike[str], flags: int, *args: int) -> int:
            if Path(path).name == Path(rel).name:
                raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
            return real_open(path, flags, *args)
        monkeypatch.setattr(os, "open", refusing)
    return make


def _many(rel: str, n: int) -> Setup:
    def make(root: Path, _: pytest.MonkeyPatch) -> None:
        folder = root / rel
        folder.mkdir(parents=True, exist_ok=True)
        for i in range(n):
            (folder / f"note-{i}.txt").write_text("")
    return make


def _content_beyond_the_limit(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """MAX_CONTENT_BYTES made 60,000 bytes: the tree's other files hold less, and the last read, the pack's card
    file of more than 60,000 bytes, goes beyond it (the limit itself is 4 MiB)."""
    others = sum(p.stat().st_size for p in root.rglob("*.yaml") if p.name != "more.yaml")
    assert others < 60_000 < (root / "expansions/extra/cards/more.yaml").stat().st_size
    monkeypatch.setattr(reading, "MAX_CONTENT_BYTES", 60_000)


def _remove(rel: str) -> Setup:
    def make(root: Path, _: pytest.MonkeyPatch) -> None:
        (root / rel).unlink()
    return make


LINK_HINT = "a pack holds its files, not links to them"
SCENARIO = """\
scenario: a scenario naming a pack outside the current folder
map: exercise-tiger
packs: [../outside]
units:
  - {id: u1, sector: s1, soldiers: 4}
expect:
  - u1.soldiers: 4
"""
TIERS = """\
provenance: rulebook
tiers:
  - {id: mine, name: Mine, sources: [], after: sectorz}
"""
CYCLE = """\
provenance: rulebook
tiers:
  - {id: mine2, name: Mine 2, sources: [], after: mine3}
  - {id: mine3, name: Mine 3, sources: [], after: mine2}
"""
RWB = """\
provenance: rulebook
rwb:
  - {id: cheer, name: Cheer, face: star, text: x, effect: "on rwb: gain 1 star", side: quartermastr}
"""

CASES: dict[str, Case] = {
    # ------------------------------------------------------------------ YAML: the file itself
    "YAML001": Case("YAML001", {"cards/new.yaml": card(name="[Tester")}, "cards/new.yaml:5:9",
                    ("YAML syntax error", "expected ',' or ']'"), "the '[' at line 4, column 11 is never closed"),
    "YAML002": Case("YAML002", {"cards/new.yaml": card().replace("    text:", "    name: Other\n    text:")},
                    "cards/new.yaml:6:5", ('duplicate key "name"',), "once in a mapping"),
    "YAML003": Case("YAML003", {"cards/new.yaml": card(name="Caf\u00e9").encode("latin-1")}, "cards/new.yaml:4:14",
                    ("byte 0xe9",), "UTF-8"),
    "YAML004": Case("YAML004", {}, "cards/locked.yaml:1:1", ("cannot read file", "Permission denied"),
                    "a file of text that you may read", setup=_unreadable("cards/locked.yaml")),
    "YAML005": Case("YAML005", {"cards/new.yaml": "a: &a x\nb: [" + ", ".join(["*a"] * 150) + "]\n"},
                    "cards/new.yaml:1:4", ("too many aliases",), "write the values out"),
    "YAML006": Case("YAML006", {"cards/new.yaml": "a: " + "[" * 120 + "]" * 120 + "\n"}, "cards/new.yaml:1:",
                    ("nested too deeply",), None),
    "YAML007": Case("YAML007", {"cards/new.yaml": card(name='"Tes\\e[31mter"')}, "cards/new.yaml:4:15",
                    ("a control character", "U+001B"), "remove it"),
    "YAML010": Case("YAML010", {"cards/new.yaml": card() + "    effect: >\n      casualties -1\n"},
                    "cards/new.yaml:8:13", ("literal blocks ('|')", "not folded ('>')"), "use '|'"),
    "YAML011": Case("YAML011", {"cards/new.yaml": card() + "    effect: casualties -1\n      def -1\n"},
                    "cards/new.yaml:8:13", ("on several lines", "literal block ('|')"), "effect: |"),
    # ------------------------------------------------------------------ SCHEMA: the shape of a file
    "SCHEMA001": Case("SCHEMA001", {"cards/new.yaml": "- id: medic\n"}, "cards/new.yaml:1:1",
                      ("expected a mapping", "found a list"), None),
    "SCHEMA002": Case("SCHEMA002", {"cards/new.yaml": card(provenence="rulebook")}, "cards/new.yaml:8:5",
                      ("unknown key 'provenence'",), "did you mean 'provenance'?"),
    "SCHEMA003": Case("SCHEMA003", {"cards/new.yaml": card().replace("    text: A card under test.\n", "")},
                      "cards/new.yaml:3:5", ("missing required key 'text'",), None),
    "SCHEMA004": Case("SCHEMA004", {"cards/new.yaml": card(cost="four")}, "cards/new.yaml:5:11",
                      ("'cost'", "expected a whole number", "'four'"), None),
    "SCHEMA005": Case("SCHEMA005", {"cards/new.yaml": card(provenance="printed-bord")}, "cards/new.yaml:7:17",
                      ("'provenance'", "'printed-bord'"), "did you mean 'printed-board'?"),
    # ------------------------------------------------------------------ files and folders
    "LOAD001": Case("LOAD001", {}, "rules:1:1", ("the rules need dice.yaml",), None, setup=_remove("rules/dice.yaml")),
    "LOAD002": Case("LOAD002", {"rules/phase.yaml": "provenance: rulebook\n"}, "rules/phase.yaml:1:1",
                    ("unexpected rules file 'phase.yaml'",), "did you mean 'phases.yaml'?"),
    "LOAD003": Case("LOAD003", {"new/notes.txt": "x"}, "new:1:1", ("must be an expansion (with pack.yaml)",),
                    "--root", args=("validate", "--root", ".", "new")),
    "LOAD004": Case("LOAD004", {"new/notes.yaml": "colour: red\n"}, "new/notes.yaml:1:1",
                    ("cannot tell what kind of content",), "card files have 'cards:'",
                    args=("validate", "--root", ".", "new/notes.yaml")),
    "LOAD005": Case("LOAD005", {"cards/big.yaml": "# " + "x" * MAX_FILE_BYTES + "\n"}, "cards/big.yaml:1:1",
                    (f"{MAX_FILE_BYTES + 3} bytes", f"at most {MAX_FILE_BYTES}"), "split it"),
    "LOAD007": Case("LOAD007", {"extra/pack.yaml": PACK, "extra/README.md": "# Extra\n"}, "extra/README.md:1:1",
                    ("not content", "does not check it"), "name the pack's folder",
                    args=("validate", "--root", ".", "extra/README.md")),
    "LOAD012": Case("LOAD012", {**map_with("items: [bazooka]", "items: [bazooka, canteen]"),
                                "cards/new.yaml": b"kind: item\ncards:\n  - id: canteen\n    name: Cant\xe9en\n"},
                    "cards/new.yaml:1:1", ("'canteen'", "not checked", "cards/new.yaml could not be read"),
                    "fix the error told of that file", also=("YAML003",)),
    "LOAD009": Case("LOAD009", {"cards/more/items.yaml": "kind: item\ncards: []\n"}, "cards/more:1:1",
                    ("'more' is not read", "a folder", "cards/ holds *.yaml files"), "move its files up"),
    "LOAD008": Case("LOAD008", pack_tree({"cards/more.yaml": "kind: item\ncards: []\n" + "#\n" * 30_000}),
                    "expansions/extra/cards/more.yaml:1:1", ("more than", "bytes in all", "reads no more files"),
                    "split the pack", setup=_content_beyond_the_limit),
    "LOAD006": Case("LOAD006", {}, "cards/pipe.yaml:1:1", ("not a regular file", "pipe"), "a file of text",
                    setup=_fifo("cards/pipe.yaml")),
    "LOAD010": Case("LOAD010", {"cards/new.yaml": card(rulings="[8.10, 7.30]")}, "cards/new.yaml:8:21",
                    ("no ruling '7.30'", "rules/rulings.yaml"), "did you mean '7.3'?"),
    "LOAD013": Case("LOAD013", {"cards/new.yaml": card(rulings='["7.3", "7 3"]')}, "cards/new.yaml:8:22",
                    ("'7 3'", "no ruling's number"), "numbers joined by dots"),
    # ------------------------------------------------------------------ the effect language: syntax
    "DSL001": Case("DSL001", effect("on advance: Gain 3 soldiers"), at(19), ("unexpected character 'G'",),
                   "lower case: 'gain'"),
    "DSL002": Case("DSL002", effect("on advance gain 3 soldiers"), at(18), ("missing ':' before 'gain'",),
                   "put ':' before what they do"),
    "DSL003": Case("DSL003", effect("use: gain 1 star or"), at(26), ("the clause ends too early",),
                   "expected another action, or another condition after 'or'"),
    "DSL004": Case("DSL004", effect("use if " + "(" * 150 + "bunker" + ")" * 150 + ": gain 1 star"), at(7 + 7 + 150),
                   ("nested too deeply",), "simpler clauses"),
    "DSL005": Case("DSL005", effect("on upkeep: gain 100 soldiers"), at(23),
                   ("the number 100", "at most 99"), None),
    # ------------------------------------------------------------------ the effect language: words
    "DSL101": Case("DSL101", effect("on advance: gian 3 soldiers"), at(19), ("unknown action 'gian'",),
                   "did you mean 'gain'?"),
    "DSL102": Case("DSL102", effect("on advance: gain 3 curage"), at(26), ("unknown resource 'curage'",),
                   "did you mean 'courage'?"),
    "DSL103": Case("DSL103", effect("use before mgf: def -2 this-turn"), at(30),
                   ("'this-turn' after the change -2",), "without a hyphen: 'this turn'"),
    "DSL104": Case("DSL104", effect("def 2"), at(11), ("expected a change", "found the number 2"),
                   "'def +2' raises it by 2, 'def = 2' sets it to 2"),
    "DSL105": Case("DSL105", effect("use before mgf: def -2"), at(23), ("'def'", "needs a duration"),
                   "'this turn'"),
    "DSL106": Case("DSL106", effect("on advance: gain 3 soldiers this turn"), at(19),
                   ("'gain' happens at once", "'this turn'"), "durations belong to modifiers"),
    "DSL107": Case("DSL107", effect("on advancing: gain 3 soldiers"), at(10), ("unknown event 'advancing'",),
                   "did you mean 'advance'?"),
    "DSL108": Case("DSL108", effect("use before mfg: def -2 this turn"), at(18), ("unknown moment 'mfg'",),
                   "did you mean 'mgf'?"),
    "DSL109": Case("DSL109", effect("use if soldiers >= 3: gain 1 courage"), at(14),
                   ("unknown condition 'soldiers'",), "did you mean 'have soldiers'?"),
    "DSL110": Case("DSL110", effect("on final-tally if count skull: gain 1 star"), at(25),
                   ("'count' is a number", "compare it"), "'count skull >= 2'"),
    "DSL111": Case("DSL111", effect("use: roll-attribute weather"), at(12),
                   ("'roll-attribute'", "only makes sense in a map's Sector attributes"),
                   "write it in that map's 'sectors:'"),
    "DSL112": Case("DSL112", effect("on final-tally: gain 1 soldier per locked"), at(38),
                   ("'per locked' needs a face",), "for example 'per locked skull'"),
    "DSL113": Case("DSL113", effect("use: gain 1 star to all units if bunker"), at(37),
                   ("condition on the recipient", "cannot filter 'gain'"), "values and permissions"),
    "DSL114": Case("DSL114", effect("use: gain 1 star to adjacent sector"), at(27),
                   ("'adjacent sector' names a Sector", "'gain' does not change a Sector's value"),
                   "'def -2 this turn'"),
    "DSL116": Case("DSL116", effect("locked-dice +1", kind="item"), at(7),
                   ("an Item acts only when it is used",), "'use: locked-dice +1 this turn'"),
    "DSL117": Case("DSL117", effect("use: roll 1d6 (7: gain 1 star, else: gain 1 courage)"), at(22),
                   ("roll: the results 7", "not totals of 1d6 (1 to 6)"), "from 1 to 6, such as '1-3'"),
    "DSL118": Case("DSL118", effect("cost = 0 if have soldiers < 3", kind="award"), at(7),
                   ("'cost'", "a card's own price", "an Award is never bought"), "write it on the Specialist"),
    "DSL119": Case("DSL119", effect("on advance: instead, gain 1 courage"), at(19),
                   ("'instead' cannot replace 'advance'",), "only an event about to happen can be replaced"),
    "DSL120": Case("DSL120", map_with('effect: "def -1"}', 'effect: "casualties -1 once per turn per card"}'),
                   "maps/tiny.yaml:23:77", ("'once per turn per card'", "a Sector is held by no Unit"),
                   "write 'once per turn'"),
    "DSL122": Case("DSL122", effect("forbid find once per turn"), at(19),
                   ("'forbid find once per turn'", "nothing is done that is forbidden"),
                   "write 'forbid find' without 'once per ...'"),
    "DSL133": Case("DSL133", effect("def -1 once per turn"), at(14),
                   ("'def -1 once per turn'", "DEF is asked whenever it is needed and never used up"),
                   "'use once per turn: def -1 this turn'"),
    "DSL121": Case("DSL121", effect("use before advance: gain 1 soldiers"), at(11),
                   ("no use is ever offered 'before advance'",), "uses are offered only after final-tally"),
    "DSL129": Case("DSL129", effect("on enter: gain 1 soldiers"), at(10),
                   ("'on enter' never acts on a Specialist", "only for a Sector"), "write it where it acts"),
    "DSL132": Case("DSL132", effect("use: recruit 0 specialist free"), at(20),
                   ("'recruit 0 specialist free' does nothing", "its amount is 0"), "an amount of 1 or more"),
    "DSL134": Case("DSL134", effect("on final-tally if count tool >= 2: add 1 tool"), at(10),
                   ("'on final-tally' cannot both read the Final Tally's results and change them",),
                   "'use after final-tally if ...: ...'"),
    # ------------------------------------------------------------------ what a card says of itself
    "PROV001": Case("PROV001", {"cards/new.yaml": card(provenance="reconstructed")}, "cards/new.yaml:7:17",
                    ("needs a 'note'",), "add 'note: ...'"),
    "DUP001": Case("DUP001", {"cards/veterans.yaml": card(id="medic")}, "cards/veterans.yaml:3:9",
                   ("duplicate card id 'medic'", "cards/specialists.yaml:3"), None),
    "DUP002": Case("DUP002", pack_tree({"cards/x.yaml": card(id="medik", overrides="true")}),
                   "expansions/extra/cards/x.yaml:3:9", ("'medik' says it overrides", "nothing has that id"),
                   "did you mean 'medic'?"),
    "DUP003": Case("DUP003", pack_tree({"cards/x.yaml": card(id="medic", kind="item", overrides="true")}),
                   "expansions/extra/cards/x.yaml:8:5", ("'medic' overrides a specialist", "written as an item",
                                                          "keeps the kind"), "file of 'kind: specialist'"),
    # ------------------------------------------------------------------ references between files
    "XREF001": Case("XREF001", map_with("specialists: [medic, scout]", "specialists: [medic, scot]"),
                    "maps/tiny.yaml:5:22", ("specialist 'scot'", "does not exist"), "did you mean 'scout'?"),
    "XREF002": Case("XREF002", map_with("{from: [s1], to: [s2]", "{from: [s1], to: [s3]"), "maps/tiny.yaml:21:23",
                    ("unknown sector 's3'",), "sectors of this map: s1, s2"),
    "XREF003": Case("XREF003", map_with("results: [shelter, shelter,", "results: [sheltr, shelter,"),
                    "maps/tiny.yaml:25:44", ("'sheltr'", "not an attribute of the map"), "did you mean 'shelter'?"),
    "XREF004": Case("XREF004", map_with("items: [bazooka]", "items: [medic]"), "maps/tiny.yaml:6:9",
                    ("'medic' as an item", "it is a specialist"), "list a specialist under 'specialists:'"),
    "XREF005": Case("XREF005", pack_tree({"rules/rwb.yaml": RWB}), "expansions/extra/rules/rwb.yaml:3:88",
                    ("RWB 'cheer'", "the side 'quartermastr'", "not declared"), "sides declared: none"),
    "XREF006": Case("XREF006", pack_tree({"rules/precedence.yaml": TIERS}),
                    "expansions/extra/rules/precedence.yaml:3:48",
                    ("tier 'mine'", "after 'sectorz'", "no tier"), "did you mean 'sectors'?"),
    # ------------------------------------------------------------------ precedence tiers
    "TIER001": Case("TIER001", pack_tree({"rules/precedence.yaml": CYCLE}),
                    "expansions/extra/rules/precedence.yaml:4:51",
                    ("tier 'mine3'", "after 'mine2'", "closes a cycle: mine3 -> mine2 -> mine3"),
                    "no tier may come after itself"),
    "TIER002": Case("TIER002", pack_tree({"rules/precedence.yaml": TIERS.replace("id: mine,", "id: awards,").replace(
        "sectorz", "sectors")}), "expansions/extra/rules/precedence.yaml:3:50",
                    ("tier 'awards' exists already", "'after' does not move it"), "remove 'after'"),
    # ------------------------------------------------------------------ maps
    "MAP001": Case("MAP001", map_with("    bunker: true\n", ""), "maps/tiny.yaml:1:1", ("has no Bunker",),
                   "'bunker: true'"),
    "MAP002": Case("MAP002", map_with(", kind: advance, cost: 2}", ", kind: advance}"), "maps/tiny.yaml:21:5",
                   ("an advance line needs its Courage 'cost'",), "write 'cost: N'"),
    "MAP003": Case("MAP003", map_with("    def: [3]\n", "    def: []\n"), "maps/tiny.yaml:17:10",
                   ("sector 's2' has no DEF value",), "'def: [4]'"),
    "MAP004": Case("MAP004", map_with("shelter, shelter, shelter, shelter, shelter]", "shelter, shelter]"),
                   "maps/tiny.yaml:25:43", ("table 'weather' has 3 results", "it needs 6"), None),
    "MAP005": Case("MAP005", map_with("    bunker: true\n", "    bunker: true\n    cost: 3\n"),
                   "maps/tiny.yaml:22:49", ("the line costs 2 Courage", "'s2' is printed with 3"),
                   "drop the line's cost"),
    "MAP006": Case("MAP006", {"maps/tiny.yaml": MAP.replace("start: {soldiers: 10, courage: 2}", "start: {soldiers: "
                                                            "10, courage: 2, at-least: 3}").replace(
                       "note: a map made for tests\n", "note: a map made for tests\nplayers: [1, 2]\n")},
                   "maps/tiny.yaml:5:10", ("needs at least 3 Units", "allows 2 players"), "'at-least'"),
    "MAP007": Case("MAP007", {"maps/tiny.yaml": MAP.replace("note: a map made for tests\n",
                                                            "note: a map made for tests\nplayers: [3, 1]\n")},
                   "maps/tiny.yaml:5:10", ("for 3 to 1 players",), "'players: [1, 3]'"),
    # ------------------------------------------------------------------ optional rules
    "OPT001": Case("OPT001", option("settings:\n  max-player: 2\n"), "rules/options/opt.yaml:6:3",
                   ("unknown setting 'max-player'",), "did you mean 'max-players'?"),
    "OPT002": Case("OPT002", option("requires: [solitare]\n") | option("", name="solitaire"),
                   "rules/options/opt.yaml:5:12", ("requires 'solitare'", "does not exist"),
                   "did you mean 'solitaire'?"),
    "OPT003": Case("OPT003", {"cards/new.yaml": card(**{"only-in": "[solitare]"})} | option("", name="solitaire"),
                   "cards/new.yaml:8:15", ("only in 'solitare'", "no optional rule"), "did you mean 'solitaire'?"),
    # ------------------------------------------------------------------ packs
    "PACK001": Case("PACK001", pack_tree({}, PACK.replace("id: extra", "id: extras")),
                    "expansions/extra/pack.yaml:1:5", ("pack id 'extras'", "its folder 'extra'"), "write 'id: extra'"),
    "PACK002": Case("PACK002", pack_tree({"card/x.yaml": card()}), "expansions/extra/card:1:1",
                    ("unexpected entry 'card'",), "did you mean 'cards'?"),
    "PACK003": Case("PACK003", {"here/q.yaml": SCENARIO.replace("../outside", "atlantikwal")}, "q.yaml:3:9",
                    ("no expansion named 'atlantikwal'",), "did you mean 'atlantikwall'?",
                    args=("scenario", "run", "q.yaml")),
    "PACK004": Case("PACK004", pack_tree({}) | pack_tree({}, PACK.replace("extra", "other") + "requires: [extr]\n",
                                                         "other"),
                    "expansions/other/pack.yaml:7:12", ("requires 'extr'", "does not exist"), "did you mean 'extra'?"),
    # (a pack.yaml that is no mapping: a pack.yaml with keys wrong or missing is loaded, and checked, all the same)
    "PACK005": Case("PACK005", pack_tree({}, PACK + "requires: [broken]\n") | pack_tree({}, "[broken]\n", "broken"),
                    "expansions/extra/pack.yaml:7:12", ("requires 'broken'", "not loaded"), "its own errors",
                    also=("SCHEMA001",)),
    "PACK006": Case("PACK006", pack_tree({}, PACK + "requires: [extra]\n"), "expansions/extra/pack.yaml:7:12",
                    ("pack 'extra' requires itself",), "no pack may require itself"),
    "PACK010": Case("PACK010", pack_tree({}), "expansions/extra/cards/x.yaml:1:1", ("leads outside the pack",),
                    "copy the file in", setup=_link("expansions/extra/cards/x.yaml", "../../../cards/items.yaml")),
    "PACK011": Case("PACK011", pack_tree({}), "expansions/extra/cards/x.yaml:1:1", ("a link loop",), LINK_HINT,
                    setup=_link("expansions/extra/cards/x.yaml", "x.yaml")),
    "PACK012": Case("PACK012", pack_tree({}, PACK + "requires: [../other]\n"), "expansions/extra/pack.yaml:7:12",
                    ("by their id, not by a path", "'../other'"), "the id of a bundled pack"),
    "PACK013": Case("PACK013", {"here/q.yaml": SCENARIO, "outside/pack.yaml": PACK.replace("extra", "outside")},
                    "q.yaml:3:9", ("the pack path '../outside'", "leads outside the current folder"),
                    "run from a folder that holds the pack", args=("scenario", "run", "q.yaml")),
    "PACK014": Case("PACK014", pack_tree({}), "expansions/extra/cards:1:1", (f"more than {MAX_FOLDER_ENTRIES}",),
                    f"at most {MAX_FOLDER_ENTRIES} entries", setup=_many("expansions/extra/cards",
                                                                         MAX_FOLDER_ENTRIES + 1)),
    "PACK015": Case("PACK015", {"mine/pack.yaml": PACK.replace("extra", "mine"), "mine/cards/x.yaml": card(cost="x"),
                                "mine/scenarios/q.yaml": "scenario: q\n"}, "mine/scenarios:1:1",
                    ("1 scenario file(s)", "were not checked", "the pack's content has errors"),
                    "the next check checks the scenarios too", args=("validate", "--root", ".", "mine"),
                    also=("SCHEMA004",)),
    # ------------------------------------------------------------------ a card that no game brings in
    "AVAIL001": Case("AVAIL001", {"mine/new.yaml": card(grade="regular")}, "mine/new.yaml:3:9",
                     ("Tester ('tester')", "is in no game"), "only-in: [OPTION]",
                     args=("validate", "--root", ".", "mine/new.yaml")),
    "AVAIL002": Case("AVAIL002", {"mine/new.yaml": card(),
                                  **map_with("specialists: [medic, scout]", "specialists: [medic, tester]")},
                     "mine/new.yaml:3:9", ("Tester ('tester')", "listed by Tiny Beach but has no grade"),
                     "give it 'grade: regular'", args=("validate", "--root", ".", "mine/new.yaml")),
}

# The codes of the interpreter's own inputs (not content), and the tests that give each from a bad input.
ELSEWHERE = {
    "DSL139": "tests/test_own_arrival.py",
    "REPLAY001": "tests/test_hostile_replays_cli.py",
    "REPLAY002": "tests/test_hostile_replays_cli.py",
    "REPLAY003": "tests/test_hostile_replays_cli.py",
    "REPLAY004": "tests/test_hostile_replays_cli.py",
    "REPLAY005": "tests/test_hostile_replays_cli.py",
    "REPLAY006": "tests/test_hostile_replays_cli.py",
    "REPLAY007": "tests/test_capture.py",
    "SCEN001": "tests/test_hostile_scenarios.py",
    "SCEN002": "tests/test_hostile_scenarios.py",
    "SCEN003": "tests/test_lsp.py",
    "SCEN004": "tests/test_lsp.py",
    "SCEN005": "tests/test_lsp.py",
    "SCEN008": "tests/test_scenario_runner.py",
    "SCEN009": "tests/test_scenario_runner.py",
    "SCEN010": "tests/test_scenario_runner.py",
    "SETUP001": "tests/test_compare.py",
    "SETUP002": "tests/test_compare.py",
    "SETUP005": "tests/test_compare.py",
    "SETUP006": "tests/test_compare.py",
}
_HEAD = re.compile(r"^(?P<place>\S+:\d+:\d+): (?P<code>[A-Z]+\d{3}) (?P<warning>warning: )?(?P<message>.*)$")


class Shown(NamedTuple):
    """One rendered diagnostic: its place, code, message, hint (or None) and its whole text."""

    place: str
    code: str
    message: str
    hint: str | None
    text: str
    warning: bool


def shown(output: str) -> list[Shown]:
    """Every diagnostic in a command's output: a head line, then its indented lines (source, caret, hint)."""
    out: list[Shown] = []
    lines = output.splitlines()
    for i, line in enumerate(lines):
        head = _HEAD.match(line)
        if head is None:
            continue
        block = [line]
        for more in lines[i + 1:]:
            if not more.startswith("    "):
                break
            block.append(more)
        hint = next((b.removeprefix("    hint: ") for b in block if b.startswith("    hint: ")), None)
        out.append(Shown(head["place"], head["code"], head["message"], hint, "\n".join(block),
                         bool(head["warning"])))
    return out


def run(case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Result:
    root = tmp_path / "t"
    content_tree(root, case.files)
    if case.setup is not None:
        case.setup(root, monkeypatch)
    monkeypatch.chdir(root / "here" if case.args[0] == "scenario" else root)
    return CliRunner().invoke(main, list(case.args), prog_name="dday", catch_exceptions=False)


@pytest.mark.parametrize("code", sorted(CASES))
def test_the_message_names_the_mistake(code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       snapshot: SnapshotAssertion) -> None:
    case = CASES[code]
    assert case.code == code
    result = run(case, tmp_path, monkeypatch)
    found = shown(result.output)
    mine = [d for d in found if d.code == code]
    assert mine, result.output
    diag = mine[0]
    tail = r"[\d:]*$" if case.where.endswith(":") else "$"
    assert re.search(r"(?:^|/)" + re.escape(case.where) + tail, diag.place), (case.where, result.output)
    for name in case.names:
        assert name in diag.message, (name, diag.text)
    if case.hint is None:
        assert diag.hint is None, diag.text
    else:
        assert diag.hint is not None and case.hint in diag.hint, (case.hint, diag.text)
    errors = {d.code for d in found if not d.warning}
    assert errors - {code} == set(case.also), result.output  # that mistake alone (and the one named with it)
    status = 0 if diag.warning and not case.also else 1 if case.args[0] == "validate" else 2  # (a warning beside
    assert result.exit_code == status, result.output  # an error fails all the same)
    assert diag.text.replace(str(tmp_path), "<tmp>").replace(str(REPO), "<repo>") == snapshot


def test_every_code_has_a_row() -> None:
    """Every code the loader, the effect language and ``dday validate`` give has a row in CASES; the codes of
    the interpreter's own inputs are in ELSEWHERE, each given by the test named there."""
    source = [*(REPO / "dsl").rglob("*.py"), *(REPO / "interpreter").rglob("*.py")]  # the words' records too
    codes: dict[str, set[str]] = {}
    for path in source:
        for code in re.findall(r"\"([A-Z]{3,7}\d{3})\"", path.read_text(encoding="utf-8")):
            codes.setdefault(code, set()).add(str(path.relative_to(REPO)))
    assert len(codes) > 70
    missing = {c: sorted(w) for c, w in codes.items() if c not in CASES and c not in ELSEWHERE}
    assert not missing, missing
    assert not (set(CASES) | set(ELSEWHERE)) - set(codes), "a row for a code nothing gives"
    for code, test in ELSEWHERE.items():
        assert code in (REPO / test).read_text(encoding="utf-8"), (code, test)


def test_a_file_given_to_the_loader_that_is_not_there(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """LOAD001's other message: through the Python API only (every command refuses a missing PATH first, as a
    usage error)."""
    monkeypatch.chdir(tmp_path)
    content, diags = load(extra=[Path("gone.yaml")])
    assert content is None
    assert [(d.code, d.file, d.line, d.column, d.message) for d in diags] == [
        ("LOAD001", "gone.yaml", 1, 1, "file not found")]


def test_the_summary_stands_on_its_own_line(tmp_path: Path) -> None:
    """``dday validate`` run as a user runs it, its two streams on one terminal: the last diagnostic's hint
    ends its line, and the summary (standard error) is the last line, alone."""
    content_tree(tmp_path, {})
    (tmp_path / "bad.yaml").write_text(card("use if soldiers >= 3: gain 1 courage\nuse: gain 1 stra"),
                                       encoding="utf-8")
    dday = Path(sys.executable).with_name("dday")
    done = subprocess.run([str(dday), "validate", "--root", ".", "bad.yaml"], cwd=tmp_path, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=False, timeout=120)
    lines = done.stdout.splitlines()
    assert done.returncode == 1, done.stdout
    assert lines[-1] == "2 error(s), 0 warning(s)", lines[-3:]
    assert lines[-2] == "    hint: did you mean 'star'?", lines[-3:]
    assert done.stdout.endswith("\n")


def test_a_socket_is_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A socket named like a content file is refused as what it is (it cannot even be opened)."""
    content_tree(tmp_path, {})
    monkeypatch.chdir(tmp_path)  # a short name: a socket's path is limited to about 100 characters
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind("cards/s.yaml")
        result = CliRunner().invoke(main, ["validate", "--root", "."], catch_exceptions=False)
    assert result.exit_code == 1
    assert [(d.place, d.code, d.message) for d in shown(result.output)] == [
        ("cards/s.yaml:1:1", "LOAD006", "not a regular file (a socket): it is not read")]


# The other forms of the effect language's messages (CASES has one per code): each effect alone on a card of one
# file, checked in one run; (code, effect, column of the mistake in the effect, what the message names, the hint).
VARIANTS: dict[str, tuple[str, str, int, tuple[str, ...], str | None]] = {
    "action-as-modifier": ("DSL101", "gain 3 soldiers", 1, ("'gain' is an action",), "'on EVENT: gain ...'"),
    "permission-as-value": ("DSL101", "stay -1", 1, ("'stay' is a permission",), "'allow stay' or 'forbid stay'"),
    "misspelt-literal": ("DSL102", "use: reroll 1 dei", 15, ("expected 'die', found 'dei'",), "'die'?"),
    "missing-argument": ("DSL103", "on advance: gain 3", 13, ("gain: missing resource",), "gain amount resource"),
    "extra-argument": ("DSL103", "on advance: gain 3 soldiers now", 29, ("'now' is one argument too many",),
                       "gain amount resource"),
    "unknown-word-after-change": ("DSL103", "use: def -2 while-here", 13, ("'while-here' after the change -2",),
                                  "only by a duration"),
    "hyphenated-until": ("DSL103", "use: def -2 until-move", 13, ("'until-move' after the change -2",),
                         "without a hyphen: 'until move'"),
    "standing-change-with-duration": ("DSL103", "def -2 this-turn", 8, ("'this-turn' after the change -2",),
                                      "'use: def -2 this turn'"),
    "arguments-out-of-order": ("DSL104", "on advance: gain soldiers 3", 18, ("found 'soldiers'",),
                               "wrong order: 'gain 3 soldiers'"),
    "set-to-a-word": ("DSL104", "def = lots", 7, ("cannot be set to 'lots'",), "'unlimited'"),
    "ceiling-without-a-number": ("DSL104", "locked-dice at most one", 21, ("'at most' takes one number",
                                                                          "found 'one'"),
                                 "'locked-dice at most 1'"),
    "ceiling-cut-short": ("DSL104", "locked-dice at most", 16, ("'at most' takes one number, found nothing",),
                          "'locked-dice at most 1'"),
    "ceiling-per": ("DSL112", "def at most 3 per skull", 15, ("a ceiling is a number",), "'def at most 3'"),
    "misspelt-resource-as-condition": ("DSL109", "use if courag >= 2: gain 1 star", 8,
                                       ("unknown condition 'courag'",), "'have courage'"),
    "misspelt-condition": ("DSL109", "use if in-bunker: def = 0 this turn", 8, ("unknown condition 'in-bunker'",),
                           "did you mean 'bunker'?"),
    "compared-flag": ("DSL110", "use if has medic >= 1: gain 1 star", 8, ("'has' is true or false",),
                      "'if has medic'"),
    "per-tagged-alone": ("DSL112", "on movement: lose 1 soldiers per tagged", 30, ("'per tagged' needs a tag",),
                         "for example 'per tagged"),
    "per-counts-nothing": ("DSL112", "on final-tally: gain 1 soldier per lockd skull", 32, ("cannot count 'lockd "
                                                                                           "skull'",),
                           "did you mean 'locked'?"),
    "per-on-a-verb": ("DSL112", "use: reroll 1 die per skull", 19, ("'reroll' cannot be multiplied",),
                      "'per' multiplies"),
    "adjacent-sector-as-scope": ("DSL114", "for adjacent sector: def -1", 5, ("can only receive an action",),
                                 "'use ...: ... to adjacent sector'"),
    "glued-keyword": ("DSL002", "use once per turns: gain 1 star", 14, ("unexpected 'turns'",),
                      "did you mean 'turn'?"),
    "reversed-comparison": ("DSL002", "use if count skull => 2: gain 1 star", 20, ("unexpected '=>'",),
                            "'>=', not '=>'"),
    "misspelt-keyword": ("DSL002", "use befor mgf: def -2 this turn", 5, ("unexpected 'befor'",),
                         "did you mean 'before'?"),
    "colon-left-out-before-actions": ("DSL002", "use if bunker gain 1 star", 15, ("missing ':' before 'gain'",),
                                      "put ':' before what they do"),
    "no-recipient": ("DSL002", "use: gain 1 star to everyone", 21, ("unexpected 'everyone'",),
                     "'another unit'"),
    "no-moment": ("DSL002", "use after: gain 1 star", 10, ("unexpected ':'",), "a moment"),
    "head-alone": ("DSL003", "use if bunker", 14, ("ends before its ':' and what it does",), "put ':'"),
    "cut-after-unless": ("DSL003", "def -2 unless", 14, ("the clause ends too early",), "a condition"),
    "full-stop": ("DSL001", "on advance: gain 3 soldiers.", 28, ("unexpected character '.'",), "no '.'"),
    "two-signs": ("DSL001", "def --2", 5, ("unexpected character '-'",), "one sign"),
    "underscore-in-a-number": ("DSL001", "use: gain 1_000 stars", 12, ("unexpected character '_'",), "'1000'"),
    "underscore-in-a-word": ("DSL001", "advance_cost -1", 8, ("unexpected character '_'",), "'advance-cost'"),
    "keyword-twice": ("DSL101", "use: gain 1 star or or gain 1 courage", 21, ("'or' is a keyword",),
                      "written twice"),
    "scope-written-last": ("DSL103", "locked-dice = 1 for all units", 17, ("'for' after an assignment",),
                           "a scope comes first: 'for TARGET: locked-dice = 1'"),
    "duration-on-a-standing-change": ("DSL002", "def -2 this turn", 8,
                                      ("unexpected 'this'", "a standing change lasts as long as its card"),
                                      "'use: def -2 this turn'"),
    "too-long": ("DSL005", "on upkeep: gain 1 soldier; " * (MAX_EFFECT_CHARS // 27 + 1), 1,
                 ("the effect is too long",), "split the card's rule"),
}
_FIRST_LINE = 9  # of the first card's effect; each card takes 7 lines


@pytest.fixture(scope="module")
def variant_run(tmp_path_factory: pytest.TempPathFactory) -> dict[int, list[Shown]]:
    """The diagnostics of one run over a file holding each variant's effect on a card, by line."""
    root = tmp_path_factory.mktemp("variants")
    lines = ["kind: specialist", "cards:"]
    for i, (_code, text, _col, _names, _hint) in enumerate(VARIANTS.values()):
        lines += [f"  - id: t{i}", f"    name: T{i}", "    cost: 3", "    text: x", "    provenance: rulebook",
                  "    effect: |", f"      {text}"]
    content_tree(root, {"cards/new.yaml": "\n".join(lines) + "\n"})
    here = Path.cwd()
    os.chdir(root)
    try:
        result = CliRunner().invoke(main, ["validate", "--root", ".", "--max-errors", "500"], catch_exceptions=False)
    finally:
        os.chdir(here)
    by_line: dict[int, list[Shown]] = {}
    for diag in shown(result.output):
        by_line.setdefault(int(diag.place.split(":")[1]), []).append(diag)
    return by_line


@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_form_of_an_effect_message_names_the_mistake(name: str, variant_run: dict[int, list[Shown]]) -> None:
    code, _text, col, names, hint = VARIANTS[name]
    line = _FIRST_LINE + 7 * list(VARIANTS).index(name)
    found = variant_run.get(line, [])
    assert [d.code for d in found] == [code], found  # that mistake alone, under its code
    diag = found[0]
    assert diag.place == f"cards/new.yaml:{line}:{6 + col}", diag.text
    for part in names:
        assert part in diag.message, (part, diag.text)
    assert (diag.hint is None) if hint is None else (diag.hint is not None and hint in diag.hint), diag.text


def test_an_amount_of_0_is_a_warning_for_every_action_and_none_for_1(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """DSL132 at the 0 of 'gain 0 soldiers' as of 'find 0 item free' (both were accepted in silence), and nothing
    for the same actions with 1."""
    cases = (("use: gain 0 soldiers", 17), ("on combat: find 0 item free", 23))
    for i, (text, col) in enumerate(cases):
        for amount in ("0", "1"):
            root = tmp_path / f"{i}-{amount}"
            content_tree(root, effect(text.replace(" 0 ", f" {amount} ")))
            monkeypatch.chdir(root)
            result = CliRunner().invoke(main, ["validate", "--root", "."])
            assert result.exit_code == 0, result.output
            assert (f"{at(col)}: DSL132 warning: " in result.output) == (amount == "0"), result.output
