"""Citations: where the rulebook writes an entry's rule (``rulebook:``) and the rulings that decide it
(``rulings:``), on cards, Sectors, Sector attributes, queries and rules; checked at load (LOAD010) and printed by
``dday explain`` and ``dday card``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from ruamel.yaml import YAML
from test_diagnostics import PACK, card, content_tree

from ddaydice.dsl.loader import load
from ddaydice.interpreter.cli import main

REPO = Path(__file__).resolve().parent.parent
RULINGS_MD = REPO / "docs" / "rulings.md"
EXPLAIN = Path(__file__).parent / "explain"


def documented_rulings() -> dict[str, str]:
    """The rulings of docs/rulings.md by number, each with its title (less the mark '(engine fix)')."""
    found = re.findall(r"^#{3,4} (\d+(?:\.\d+)+) (.+)$", RULINGS_MD.read_text(encoding="utf-8"), flags=re.M)
    return {number: title.removesuffix(" (engine fix)").strip() for number, title in found}


def named_in_rulings(ids: list[str], names: dict[str, str]) -> dict[str, set[str]]:
    """What each ruling of docs/rulings.md names in its 'Where' and 'Tested by' lines, by number: a scenario or
    file whose name starts with an id of ``ids`` (the longest that fits: 'medic-once-per-phase.yaml' names the
    Medic), and the names of ``names`` (name -> id) a card file's parenthesis lists ('`cards/specialists.yaml`
    (Lieutenant)')."""
    ids = sorted(ids, key=len, reverse=True)
    out: dict[str, set[str]] = {}
    text = RULINGS_MD.read_text(encoding="utf-8")
    for part in re.split(r"^#{3,4} (?=\d+(?:\.\d+)+ )", text, flags=re.M)[1:]:
        section = re.split(r"^## ", part, flags=re.M)[0]  # up to the next chapter
        number = section.split(" ", 1)[0]
        bullets = re.findall(r"^- \*\*(?:Where|Tested by):\*\*(.*?)(?=^- \*\*|^\s*$|^#)", section, flags=re.M | re.S)
        inline = re.findall(r"\*\*(?:Where|Tested by):\*\*([^*\n]*)", section)  # both on one line
        for said in bullets + inline:
            for path in re.findall(r"`([^`\s]+?\.yaml)`", said):
                stem = path.rsplit("/", 1)[-1].removesuffix(".yaml")
                ident = next((i for i in ids if stem == i or stem.startswith(f"{i}-")), None)
                if ident is not None:
                    out.setdefault(number, set()).add(ident)
            for listed in re.findall(r"`cards/[a-z-]+\.yaml` \(([^)]*)\)", said):
                out.setdefault(number, set()).update(ident for name, ident in names.items()
                                                     if re.search(rf"\b{re.escape(name)}\b", listed))
    return out


def sectors_named_in_rulings(maps: dict[str, list[tuple[str, str]]]) -> dict[str, set[str]]:
    """The Sectors each ruling of docs/rulings.md names in its 'Where' and 'Tested by' lines, by number, as
    'map/sector': a 'Sector N' (or 'Sectors N and M') in the parenthesis after a file, of that file's map (a map
    file's own, a scenario's ``map:``). ``maps``: each map's Sectors, (id, name)."""
    scenarios = {path.name: path for path in (REPO / "tests" / "scenarios").rglob("*.yaml")}
    out: dict[str, set[str]] = {}
    text = RULINGS_MD.read_text(encoding="utf-8")
    for part in re.split(r"^#{3,4} (?=\d+(?:\.\d+)+ )", text, flags=re.M)[1:]:
        section = re.split(r"^## ", part, flags=re.M)[0]
        number = section.split(" ", 1)[0]
        said = " ".join(re.findall(r"\*\*(?:Where|Tested by):\*\*(.*?)(?=^- \*\*|^\s*$|^#|\Z)", section,
                                   flags=re.M | re.S))
        for path, paren in re.findall(r"`([^`\s]+?\.yaml)` \(([^)]*)\)", said):
            numbers = re.findall(r"\bSector (\d+)", paren) + [n for listed in re.findall(
                r"\bSectors (\d+(?:(?:,\s+|\s+and\s+|\s+or\s+)\d+)*)", paren) for n in re.findall(r"\d+", listed)]
            name = path.rsplit("/", 1)[-1]
            if not numbers or (not path.startswith("maps/") and name not in scenarios):
                continue
            mid = name.removesuffix(".yaml") if path.startswith("maps/") else \
                YAML(typ="safe").load(scenarios[name].read_text(encoding="utf-8"))["map"]
            out.setdefault(number, set()).update(f"{mid}/{sid}" for sid, sname in maps[mid]
                                                 if sname in {f"Sector {n}" for n in numbers})
    return out


def test_every_sector_a_ruling_names_cites_it() -> None:
    """A Sector that a ruling's 'Where' or 'Tested by' names ('`rules/ties-fewer-soldiers-first.yaml` (Gold Beach,
    Sector 8's Award)': the scenario's map) carries the ruling's number in its ``rulings:``."""
    content, diags = load(packs="all")
    assert content is not None, diags
    named = sectors_named_in_rulings({mid: [(s.id, s.name) for s in bm.sectors] for mid, bm in content.maps.items()})
    assert len(named) >= 4, named  # the parsing finds what the rulings name
    missing = sorted((number, owner) for number, owners in named.items() for owner in owners
                     if number not in dict(getattr(content.citations.get(owner), "rulings", ())))
    assert not missing, missing


def test_every_optional_rule_of_docs_optional_rules_cites_the_rulebook() -> None:
    """Each optional rule docs/optional-rules.md rules on from the rulebook's lines ('### Solitaire (lines
    364-374)') is an option of rules/options/ (by its name) whose ``rulebook:`` cites the rulebook's heading."""
    content, diags = load(packs="all")
    assert content is not None, diags
    text = (REPO / "docs" / "optional-rules.md").read_text(encoding="utf-8")
    sections = re.findall(r"^### (.+?) \(lines? [\d-]+\)$", text, flags=re.M)
    assert len(sections) >= 8, sections
    by_name = {opt.name.lower(): oid for oid, opt in content.options.items()}
    for section in sections:
        oid = by_name.get(section.lower())
        assert oid is not None, f"no optional rule named {section!r}"
        cited = content.citations.get(f"option:{oid}")
        assert cited is not None and section.upper() in cited.rulebook.upper(), (oid, cited)


def test_the_rulings_listed_are_those_of_docs_rulings() -> None:
    """rules/rulings.yaml (what the package ships: docs/ is not in it) lists every ruling of docs/rulings.md, by
    its number and title, and no other."""
    data = YAML(typ="safe").load((REPO / "rules" / "rulings.yaml").read_text(encoding="utf-8"))
    listed = {entry["id"]: entry["title"] for entry in data["rulings"]}
    assert listed == documented_rulings(), "rules/rulings.yaml is stale: run scripts/regenerate"
    assert len(listed) == len(data["rulings"])


def test_every_card_and_attribute_a_ruling_names_cites_it() -> None:
    """A card or a Sector attribute that a ruling's 'Where' or 'Tested by' names carries the ruling's number in
    its ``rulings:`` (an attribute: on every map that has it), so that the docs and the data cannot drift."""
    content, diags = load(packs="all")
    assert content is not None, diags
    attributes: dict[str, list[str]] = {}
    for mid, bm in content.maps.items():
        for attr in bm.attributes:
            attributes.setdefault(attr.id, []).append(f"{mid}/attribute:{attr.id}")
    owners = {**{cid: [cid] for cid in content.cards}, **attributes}  # an attribute's id first (Crossfire)
    named = named_in_rulings(list(owners), {c.name: cid for cid, c in content.cards.items()})
    assert len(named) > 40, named  # the parsing finds what the rulings name
    missing = sorted((number, owner) for number, idents in named.items() for ident in idents
                     for owner in owners[ident]
                     if number not in dict(getattr(content.citations.get(owner), "rulings", ())))
    assert not missing, missing


def test_a_ruling_that_is_not_listed_is_refused_at_its_place(tmp_path: Path) -> None:
    """A card citing a ruling no rules/rulings.yaml lists: LOAD010 at the number (its line and column), with the
    closest number; every such mistake at once, in text and JSON; the load gives no content."""
    root = content_tree(tmp_path, {"cards/new.yaml": card(rulings='[7.30, "99.1", 5.5]')})
    content, diags = load(root)
    assert content is None
    assert [(d.code, str(Path(d.file).relative_to(root)), d.line, d.column) for d in diags] == [
        ("LOAD010", "cards/new.yaml", 8, 15), ("LOAD010", "cards/new.yaml", 8, 21)]
    assert diags[0].hint == "did you mean '7.3'?"
    result = CliRunner().invoke(main, ["validate", "--root", str(root), "--format", "json"])
    assert result.exit_code == 1, result.output
    found = json.loads(result.output.split("\n]")[0] + "\n]")
    assert [(d["code"], d["line"], d["column"], d["message"]) for d in found] == [
        ("LOAD010", 8, 15, "no ruling '7.30': rules/rulings.yaml lists no ruling of this number"),
        ("LOAD010", 8, 21, "no ruling '99.1': rules/rulings.yaml lists no ruling of this number")]


@pytest.mark.parametrize(("written", "read"), [("[8.10]", "8.10"), ("[8.1]", "8.1"), ('["8.10"]', "8.10"),
                                               ("[15.1]", "15.1")])
def test_a_ruling_number_reads_as_written(tmp_path: Path, written: str, read: str) -> None:
    """Unquoted, 8.10 is a number to YAML (8.1): the number is read as the file writes it, so that it names
    ruling 8.10, not 8.1."""
    root = content_tree(tmp_path, {"cards/new.yaml": card(rulings=written, rulebook='"SPECIALISTS, p. 6"')})
    content, diags = load(root)
    assert content is not None, diags
    cited = content.citations["tester"]
    assert cited.rulebook == "SPECIALISTS, p. 6"
    assert [number for number, _ in cited.rulings] == [read]


def test_a_pack_cites_rulings_of_its_own(tmp_path: Path) -> None:
    """A pack lists its own rulings in its rules/rulings.yaml, and its cards cite them as ours cite ours; a number
    of its own that it does not list is refused all the same."""
    rulings = 'provenance: reconstructed\nnote: ours\nrulings:\n  - {id: "X-1", title: "Our ruling"}\n'
    files = {"expansions/extra/pack.yaml": PACK, "expansions/extra/rules/rulings.yaml": rulings,
             "expansions/extra/cards/new.yaml": card(rulings='["X-1", "7.3"]', rulebook='"Our rulebook, p. 2"')}
    content, diags = load(content_tree(tmp_path / "a", files), packs=["extra"])
    assert content is not None, diags
    assert content.citations["tester"].rulings[0] == ("X-1", "Our ruling")
    files["expansions/extra/cards/new.yaml"] = card(rulings='["X-2"]')
    root = content_tree(tmp_path / "b", files)
    content, diags = load(root, packs=["extra"])
    assert content is None
    assert [(d.code, str(Path(d.file).relative_to(root)), d.line) for d in diags] == [
        ("LOAD010", "expansions/extra/cards/new.yaml", 8)]


def test_explain_cites_the_base_and_every_step() -> None:
    """`dday explain`: under the base, the query's rulebook place and rulings (rules/queries.yaml); under each step,
    its card's or Sector's; JSON: 'rulebook' and 'rulings' on the derivation and on every step."""
    args = ["explain", str(EXPLAIN / "bazooka-engineer-clamp.yaml"), "def", "for", "u1"]
    text = CliRunner().invoke(main, args).output
    lines = text.splitlines()
    assert lines[2:5] == ["    rulebook: DEFENSE (DEF), p. 10", "    ruling 5.1: DEF and MGF belong to the Sector",
                          "    ruling 5.2: DEF never below 0, and the clamp comes last"]
    engineer = lines.index("    specialists     Engineer (Unit 1): add -5: 12 -> 7")
    assert lines[engineer + 3].strip() == "ruling 8.5: Engineer: the Bunker his Unit is in"
    data = json.loads(CliRunner().invoke(main, [*args, "--format", "json"]).output)["derivation"]
    assert (data["rulebook"], data["rulings"]) == ("DEFENSE (DEF), p. 10", ["5.1", "5.2"])
    assert [(s["source"], s["rulebook"], s["rulings"]) for s in data["steps"]] == [
        ("engineer", "SPECIALISTS, p. 6", ["5.1", "8.5"]), ("bazooka", "ITEMS, p. 7", []),
        ("flame-thrower", "ITEMS, p. 7", ["8.15"]), ("rules", "DEFENSE (DEF), p. 10", [])]


def test_card_shows_its_citations() -> None:
    result = CliRunner().invoke(main, ["card", "grenadier", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["rulebook"] == "SPECIALISTS, p. 6"
    assert [r["number"] for r in data["rulings"]] == ["5.1", "7.3", "8.6"]


def test_a_ruling_about_a_query_is_cited_under_that_query_alone(tmp_path: Path) -> None:
    """``{ruling: N, query: ID}`` (or a list of ids) cites a ruling about one query of what the entry does: under
    a step of another query it is left out; a plain number is about all of it. `dday card` says which."""
    rulings = '[{ruling: "7.3", query: mgf-dice}, "5.1", {ruling: 8.10, query: [def, mgf-dice]}]'
    content, diags = load(content_tree(tmp_path, {"cards/new.yaml": card(rulings=rulings)}))
    assert content is not None, diags
    cited = content.citations["tester"]
    assert [n for n, _ in cited.rulings] == ["7.3", "5.1", "8.10"]
    assert [n for n, _ in cited.about("mgf-dice").rulings] == ["7.3", "5.1", "8.10"]
    assert [n for n, _ in cited.about("def").rulings] == ["5.1", "8.10"]
    assert [n for n, _ in cited.about("tagged").rulings] == ["5.1"]
    data = json.loads(CliRunner().invoke(main, ["card", "grenade", "--format", "json"]).output)
    assert [(r["number"], r["queries"]) for r in data["rulings"]] == [("5.1", ["mgf-dice"]), ("7.3", ["mgf-dice"])]
    text = CliRunner().invoke(main, ["card", "grenade"]).output
    assert "ruling      7.3: A silenced or prevented MGF is raised by nothing (about mgf-dice)" in text


def test_a_count_of_explosion_symbols_cites_no_ruling_on_mgf() -> None:
    """The Grenade's rulings are about the MGF it prevents: a count of the Explosion symbols held shows its
    rulebook place, not them."""
    args = ["explain", str(EXPLAIN / "playing-with-fire.yaml"), "tagged", "explosion", "above", "2", "for", "u1"]
    lines = CliRunner().invoke(main, args).output.splitlines()
    grenade = lines.index("    item            Grenade (Unit 1): add 1: 0 -> 1")
    assert lines[grenade + 1].strip() == "rulebook: ITEMS, p. 7"
    assert not any("7.3" in line for line in lines)


def test_the_clamp_the_overrule_and_the_movement_checks_cite_the_rules() -> None:
    """The clamp cites where the query's minimum is written; a step overruled, the rulebook's RULE CONFLICTS AND
    TIES (rules/precedence.yaml); the checks behind may-enter, the movement phase (rules/phases.yaml)."""
    clamp = CliRunner().invoke(main, ["explain", str(EXPLAIN / "bazooka-engineer-clamp.yaml"), "def", "for", "u1"])
    lines = clamp.output.splitlines()
    at = next(i for i, line in enumerate(lines) if "clamp 0" in line)
    assert lines[at + 1].strip() == "rulebook: DEFENSE (DEF), p. 10"
    args = ["explain", str(EXPLAIN / "merville-11-protect.yaml"), "def", "for", "u1", "--format", "json"]
    steps = json.loads(CliRunner().invoke(main, args).output)["derivation"]["steps"]
    assert [s["precedence"] for s in steps] == [None, {"rulebook": "RULE CONFLICTS AND TIES", "rulings": ["7.2"]}]
    args = ["explain", str(EXPLAIN / "costs.yaml"), "may-enter", "for", "u1", "in", "s2"]
    lines = CliRunner().invoke(main, args).output.splitlines()
    assert lines[2:4] == ["    rulebook: Phase 4 ★ MOVING, p. 9", "    ruling 3.3: One move per turn"]
    data = json.loads(CliRunner().invoke(main, [*args, "--format", "json"]).output)["derivation"]
    assert (data["rulebook"], data["rulings"]) == ("Phase 4 ★ MOVING, p. 9", ["3.3", "3.4", "3.5"])


def test_every_bad_entry_of_a_rulings_list_is_told_at_once(tmp_path: Path) -> None:
    """A number that is none (a space in it, a list, nothing) or a query no rules/queries.yaml lists: LOAD013 at
    its place, beside the LOAD010 of a number no rules/rulings.yaml lists; one does not hide the others."""
    rulings = '["7 3", "99.1", [1], {ruling: "7.3", query: mgf-dise}, {ruling: "x y"}]'
    root = content_tree(tmp_path, {"cards/new.yaml": card(rulings=rulings)})
    content, diags = load(root)
    assert content is None
    assert [(d.code, d.line, d.column, d.message) for d in diags] == [
        ("LOAD013", 8, 15, "'7 3' is no ruling's number"),
        ("LOAD010", 8, 22, "no ruling '99.1': rules/rulings.yaml lists no ruling of this number"),
        ("LOAD013", 8, 30, "no ruling's number here: a number (7.3), or {ruling: 7.3, query: def}"),
        ("LOAD013", 8, 58, "no query 'mgf-dise': a ruling is about a query of rules/queries.yaml"),
        ("LOAD013", 8, 78, "'x y' is no ruling's number")]
    assert diags[3].hint == "did you mean 'mgf-dice'?"
