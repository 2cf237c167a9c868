"""YAML's merge key (``<<``) and an alias inside the value it names, in every kind of YAML file the project reads.

Content does not use the merge key: a key it brings in has no place of its own in the file (a diagnostic about it
could only point at the ``<<`` or at the mapping it copies), and YAML 1.2 has none. It is refused as YAML005 at
the ``<<``, as is an alias used inside the value it names (docs/security.md); never a traceback, never a value
read as null in silence.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hostile_kit import CARDS_YAML, MAP_YAML, PACK_YAML
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from ddaydice.dsl.loader import load
from ddaydice.dsl.yamlsrc import read_yaml
from ddaydice.interpreter.cli import main

REPO = Path(__file__).resolve().parent.parent

SCENARIO_YAML = """\
scenario: Upkeep turns Tools into Item Points
map: exercise-tiger
variant: advanced-training
fallback: none
seed: 1
units:
  - {id: u1, sector: s1, soldiers: 4}
tally:
  u1: [red tool, red courage, white courage, white star, blue star, blue one-soldier]
steps:
  - phase: upkeep
expect:
  - u1.item-points: 1
"""
COMPARE_YAML = """\
base: {map: exercise-tiger, variant: practice-run, policy: reference}
games: 4
seed: 9
setups:
  - {name: none, absent: [medic]}
  - {name: given, give: [medic]}
"""
SWEEP_YAML = (REPO / "docs" / "examples" / "sweep.yaml").read_text(encoding="utf-8")

#: kind of file -> (its clean text, where it goes: a pack's file or a file a command reads)
FILES: dict[str, tuple[str, str]] = {
    "card file": (CARDS_YAML, "pack/cards/x.yaml"),
    "pack.yaml": (PACK_YAML, "pack/pack.yaml"),
    "map": (MAP_YAML, "pack/maps/x.yaml"),
    "scenario": (SCENARIO_YAML, "scenario.yaml"),
    "set-up file": (COMPARE_YAML, "setups.yaml"),
    "sweep file": (SWEEP_YAML, "sweep.yaml"),
}
COMMANDS = {"scenario": ("scenario", "run"), "set-up file": ("compare",), "sweep file": ("sweep",)}


def _plain(node: Any) -> Any:
    return YAML(typ="safe", pure=True).load(io.StringIO(node)) if isinstance(node, str) else node


def _mappings(data: Any) -> list[dict[str, Any]]:
    """Every mapping of ``data``, in the order they are written."""
    found: list[dict[str, Any]] = []
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            found.append(node)
            stack.extend(reversed(list(node.values())))
        elif isinstance(node, list):
            stack.extend(reversed(node))
    return found


def _flow(data: Any, target: int, moved: int, form: str) -> tuple[str, int]:
    """``data`` written on one line of flow YAML, its mapping number ``target`` given a merge key that brings its
    first ``moved`` keys (``form``: 'inline' ``<<: {...}``, 'list' ``<<: [{...}]``, 'alias' ``<<: *m`` with
    the first mapping anchored ``&m``); the column of the ``<<``."""
    out: list[str] = []
    seen = [0]
    column = [0]

    def write(node: Any) -> None:
        if isinstance(node, dict):
            number = seen[0]
            seen[0] += 1
            if form == "alias" and number == 0:
                out.append("&m ")
            out.append("{")
            items = list(node.items())
            if number == target:
                column[0] = len("".join(out)) + 1
                shared = dict(items[:moved])
                if form == "alias":
                    out.append("<<: *m, ")
                else:
                    out.append("<<: " + ("[" if form == "list" else "") + json.dumps(shared)
                               + ("]" if form == "list" else "") + ", ")
                    items = items[moved:]
            for i, (k, v) in enumerate(items):
                out.append(("" if i == 0 else ", ") + json.dumps(str(k)) + ": ")
                write(v)
            out.append("}")
        elif isinstance(node, list):
            out.append("[")
            for i, v in enumerate(node):
                out.append("" if i == 0 else ", ")
                write(v)
            out.append("]")
        else:
            out.append(json.dumps(node))

    write(data)
    return "".join(out) + "\n", column[0]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("merge")


def _read_by_its_reader(folder: Path, small_tree: Path, kind: str, text: str) -> str:
    """What the project says of ``text`` as a file of this kind: the diagnostics, as the user reads them."""
    place = FILES[kind][1]
    pack = folder / "pack"
    for name, file_text in (("pack.yaml", PACK_YAML), ("cards/x.yaml", CARDS_YAML)):
        (pack / name).parent.mkdir(parents=True, exist_ok=True)
        (pack / name).write_text(file_text, encoding="utf-8")
    (pack / "maps").mkdir(exist_ok=True)
    for stale in (pack / "maps").iterdir():
        stale.unlink()
    (folder / place).write_text(text, encoding="utf-8")
    if place.startswith("pack/"):
        content, diags = load(small_tree, extra=[pack])
        assert content is None
        return "\n".join(f"{d.file}:{d.line}:{d.column}: {d.code} {d.message}" for d in diags)
    result = CliRunner().invoke(main, [*COMMANDS[kind], str(folder / place)])
    assert result.exit_code in (1, 2), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.output


@settings(max_examples=40, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(sorted(FILES)), pick=st.integers(0, 1000), moved=st.integers(0, 5),
       form=st.sampled_from(["inline", "list", "alias"]))
def test_a_merge_key_in_any_file_is_refused_at_its_place(folder: Path, small_tree: Path, kind: str, pick: int,
                                                         moved: int, form: str) -> None:
    data = _plain(FILES[kind][0])
    mappings = _mappings(data)
    target = pick % len(mappings)
    if form == "alias" and target == 0:
        target = len(mappings) - 1 if len(mappings) > 1 else 0
        form = "inline" if target == 0 else form
    text, column = _flow(data, target, moved, form)
    said = _read_by_its_reader(folder, small_tree, kind, text)
    assert f":1:{column}: YAML005 the merge key '<<' is not read" in said, (text, said)
    assert "Traceback" not in said


def test_the_flow_writer_reads_back_as_the_file() -> None:
    """The files the property writes are the clean ones but for the merge key (so its YAML005 is the only news)."""
    for kind, (clean, _) in FILES.items():
        text, _column = _flow(_plain(clean), -1, 0, "inline")
        doc, diags = read_yaml(kind, text)
        assert doc is not None and not diags and json.loads(json.dumps(doc.data)) == _plain(clean)


#: The clean card file (hostile_kit.CARDS_YAML) whose card a second one copies by the merge key (line 13).
MERGED_CARDS = CARDS_YAML.replace("  - id: cook\n", "  - &base\n    id: cook\n", 1) + "  - <<: *base\n    id: baker\n"


@pytest.mark.parametrize(("text", "where"), [
    (MERGED_CARDS, "x.yaml:13:5"),                                                        # the common form
    (MERGED_CARDS.replace("    id: baker\n", "    name: Baker\n"), "x.yaml:13:5"),        # the id inherited
    (CARDS_YAML.replace("  - id: cook", "  - {<<: {effect: 'use: gain 1 corage'}, id: cook}\n  - id: cook2"),
     "x.yaml:3:6"),                                                                        # an error inside it
])
@pytest.mark.parametrize("args", [("validate",), ("validate", "--format", "json"), ("conflicts",),
                                  ("list", "specialists", "--pack")])
def test_a_card_file_with_a_merge_key_is_told_by_every_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               text: str, where: str, args: tuple[str, ...]) -> None:
    monkeypatch.chdir(tmp_path)
    pack = tmp_path / "pack"
    (pack / "cards").mkdir(parents=True)
    (pack / "pack.yaml").write_text(PACK_YAML, encoding="utf-8")
    (pack / "cards" / "x.yaml").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, [*args, "./pack" if args[0] == "list" else "pack"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 1, result.output
    if "json" in args:
        [diag] = json.loads(result.output)
        assert (diag["file"], diag["line"], diag["column"], diag["code"]) == (
            "pack/cards/x.yaml", *map(int, where.split(":")[1:]), "YAML005")
    else:
        assert f"{where}: YAML005 the merge key '<<' is not read" in result.output


def test_a_merge_key_in_a_scenario_unit_is_told_before_it_runs(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("s.yaml").write_text(SCENARIO_YAML.replace("{id: u1, sector: s1", "{<<: {sector: s99}, id: u1, sector: s1"),
                              encoding="utf-8")
    result = CliRunner().invoke(main, ["scenario", "run", "s.yaml"])
    assert result.exit_code == 2 and "s.yaml:7:6: YAML005 the merge key" in result.output, result.output


@pytest.mark.parametrize(("text", "where", "alias"), [
    ("only-in: &o [*o]\n", "1:14", "*o"),
    ("cards:\n  - &c {id: cook, note: *c}\n", "2:25", "*c"),
    ("a: &a\n  b:\n    - *a\n", "3:7", "*a"),
])
def test_an_alias_inside_the_value_it_names_is_yaml005(text: str, where: str, alias: str) -> None:
    doc, diags = read_yaml("t.yaml", text)
    assert doc is None
    assert [(d.code, f"{d.line}:{d.column}", d.message) for d in diags] == [
        ("YAML005", where, f"the alias {alias} is used inside the value it names (a loop)")]


@pytest.mark.parametrize("text", ["note: <<\n", "note: [<<]\n", "<<: {a: 1}\n"])
def test_a_plain_merge_key_anywhere_is_refused_and_a_quoted_one_is_text(text: str) -> None:
    doc, diags = read_yaml("t.yaml", text)
    assert doc is None and [d.code for d in diags] == ["YAML005"], diags
    quoted, none = read_yaml("t.yaml", text.replace("<<", "'<<'"))
    assert quoted is not None and not none and "<<" in json.dumps(quoted.data)


@pytest.mark.parametrize(("written", "width"), [("!!merge Cook", 7), ("!!merge", 7),
                                                ("!<tag:yaml.org,2002:merge> Cook", 26)])
def test_a_value_tagged_merge_is_told_of_its_tag(written: str, width: int) -> None:
    """A value tagged '!!merge' (no '<<' written): the message names the tag, at the tag, not the merge key."""
    doc, [diag] = read_yaml("x.yaml", CARDS_YAML.replace("name: Cook", f"name: {written}"))
    assert doc is None
    assert (diag.code, diag.line, diag.column, diag.width) == ("YAML005", 4, 11, width)
    assert diag.message.startswith("the tag '!!merge' (of YAML's merge key '<<') is not read"), diag.message
    assert diag.hint == "remove the tag"
