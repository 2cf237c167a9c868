"""The JSON Schemas of the content files (dsl/json_schema.py, ``dday schema``, ``schemas/``).

- the published ``schemas/*.json`` are what ``dday schema -o schemas`` writes today (never written by hand);
- every bundled content file (base game, expansions, the example pack) and every bundled scenario is valid
  against the schema of its kind;
- a file the loader refuses for its shape (an unknown key, text for a number, a number out of range, an id that
  is no slug) is refused by the schema too, at the same key.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner
from ruamel.yaml import YAML

from ddaydice.dsl.json_schema import schema_for
from ddaydice.interpreter.cli import main
from ddaydice.interpreter.cli.schema import kinds

REPO = Path(__file__).resolve().parent.parent
KINDS = kinds()
RULE_KINDS = {f"{kind}.yaml": kind for kind in KINDS if kind in {"dice", "resources", "precedence", "phases",
                                                                 "queries", "rwb", "game", "kinds", "sides",
                                                                 "rulings"}}
FOLDERS = {"cards": "cards", "maps": "map", "scenarios": "scenario"}


def kind_of(path: Path) -> str | None:
    """The kind of a content file by where it lives, as the loader and the scenario runner read it: inside a pack
    (a folder with pack.yaml) or the base tree, by its folder; scenarios anywhere under tests/scenarios."""
    if path.name == "pack.yaml":
        return "pack"
    pack = next((p for p in path.parents if (p / "pack.yaml").is_file()), None)
    base = pack or REPO
    if pack is None and REPO / "tests" in path.parents:
        return "scenario" if REPO / "tests" / "scenarios" in path.parents else None
    first = path.relative_to(base).parts[0]
    if first == "rules":
        if path.parent.name == "options":
            return "option"
        return RULE_KINDS.get(path.name)  # invariants.yaml: read by interpreter/tools/invariants
    return FOLDERS.get(first)


def content_files() -> list[tuple[Path, str]]:
    roots = [REPO / "cards", REPO / "maps", REPO / "rules", REPO / "expansions", REPO / "docs" / "example-pack",
             REPO / "tests" / "scenarios"]
    out = []
    for root in roots:
        for path in sorted(root.rglob("*.yaml")):
            kind = kind_of(path)
            if kind is not None:
                out.append((path, kind))
    return out


def read(path: Path) -> Any:
    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))


def validator(kind: str) -> jsonschema.Draft202012Validator:
    schema = schema_for(*KINDS[kind])
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_the_published_schemas_are_the_generated_ones(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["schema", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == sorted(f"{k}.json" for k in KINDS)
    for name in written:
        published = REPO / "schemas" / name
        assert published.is_file(), f"schemas/{name} is missing: run `dday schema -o schemas`"
        assert published.read_text(encoding="utf-8") == (tmp_path / name).read_text(encoding="utf-8"), \
            f"schemas/{name} is stale: run `dday schema -o schemas` (or scripts/regenerate)"


def test_every_kind_is_found_among_the_bundled_files() -> None:
    kinds = {kind for _, kind in content_files()}
    assert kinds == set(KINDS), set(KINDS) - kinds


@pytest.mark.parametrize(("path", "kind"), content_files(), ids=lambda v: str(v.relative_to(REPO))
                         if isinstance(v, Path) else v)
def test_every_bundled_file_is_valid_against_its_schema(path: Path, kind: str) -> None:
    errors = sorted(validator(kind).iter_errors(read(path)), key=lambda e: list(map(str, e.path)))
    assert not errors, "\n".join(f"{'/'.join(map(str, e.path))}: {e.message}" for e in errors)


CARDS = """\
kind: item
cards:
  - id: field-stove
    name: Field Stove
    text: Hot food.
    provenance: reconstructed
    note: ours
    cost: 2
"""


@pytest.mark.parametrize(("change", "where", "code"), [
    (("    cost: 2\n", "    cost: 2\n    colour: red\n"), ["cards", 0], "SCHEMA002"),   # an unknown key
    (("    cost: 2\n", "    cost: two\n"), ["cards", 0, "cost"], "SCHEMA004"),           # text for a number
    (("    cost: 2\n", "    cost: 99999\n"), ["cards", 0, "cost"], "SCHEMA004"),         # out of its range
    (("id: field-stove", "id: Field_Stove"), ["cards", 0, "id"], "SCHEMA004"),            # no slug
    (("provenance: reconstructed", "provenance: official"), ["cards", 0, "provenance"], "SCHEMA005"),
    (("    text: Hot food.\n", ""), ["cards", 0], "SCHEMA003"),                             # a key missing
])
def test_what_the_loader_refuses_for_its_shape_the_schema_refuses(
        tmp_path: Path, change: tuple[str, str], where: list[str | int], code: str) -> None:
    text = CARDS.replace(*change)
    assert text != CARDS
    errors = list(validator("cards").iter_errors(YAML(typ="safe").load(text)))
    assert errors, text
    assert any(list(e.path) == where for e in errors), [(list(e.path), e.message) for e in errors]
    (tmp_path / "items.yaml").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(tmp_path / "items.yaml"), "--format", "json"])
    assert result.exit_code == 1, result.output
    assert code in {d["code"] for d in json.loads(result.output)}, result.output


SCENARIO = """\
scenario: Two Units
map: exercise-tiger
phase: purchase
units:
  - {id: u1, sector: s1}
  - {id: u2, sector: s1}
steps:
  - {trade: u2, give: soldiers, refused: not-enough}
"""


@pytest.mark.parametrize(("change", "error"), [
    (("refused: not-enough", "refused: cost"), "a 'trade' step is never refused for 'cost'"),  # not a trade's code
    (("refused: not-enough", "refused: enough"), "no refusal code 'enough'"),                  # no code at all
    (("{trade: u2, give: soldiers, refused: not-enough}", "{at: lunch}"), "no phase 'lunch'"),
    (("{trade: u2, give: soldiers, refused: not-enough}", "{phase: combat, refused: true}"),
     "a 'phase' step is never refused"),
    (("{trade: u2, give: soldiers, refused: not-enough}", "{move: s2, find: toolkit}"), "a step names one action"),
    (("give: soldiers", "give: soldiers, to: u1"), "unknown key(s) in step: to"),
])
def test_a_step_the_runner_refuses_the_schema_refuses(tmp_path: Path, change: tuple[str, str], error: str) -> None:
    """The steps are free-form data the runner checks itself; their schema is written from the same tables (the
    step kinds, each kind's refusal codes), so an editor flags what `dday scenario run` would refuse."""
    assert not list(validator("scenario").iter_errors(YAML(typ="safe").load(SCENARIO)))
    text = SCENARIO.replace(*change)
    assert text != SCENARIO
    errors = list(validator("scenario").iter_errors(YAML(typ="safe").load(text)))
    assert errors and all(list(e.path)[:2] == ["steps", 0] for e in errors), [(list(e.path), e.message)
                                                                             for e in errors]
    (tmp_path / "q.yaml").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["scenario", "run", str(tmp_path / "q.yaml")])
    assert result.exit_code == 2 and error in result.output, result.output


def test_the_cli_lists_prints_and_refuses(tmp_path: Path) -> None:
    runner = CliRunner()
    listing = runner.invoke(main, ["schema"])
    assert listing.exit_code == 0 and "map" in listing.output and "maps/*.yaml" in listing.output
    one = runner.invoke(main, ["schema", "map"])
    assert one.exit_code == 0 and json.loads(one.output)["properties"]["variants"]["items"] == {
        "$ref": "#/$defs/Variant"}
    wrong = runner.invoke(main, ["schema", "mapp"])
    assert wrong.exit_code == 2 and "did you mean 'map'" in wrong.output
    target = tmp_path / "cards.json"
    target.write_text("old", encoding="utf-8")
    assert runner.invoke(main, ["schema", "cards", "-o", str(target)]).exit_code == 0
    assert json.loads(target.read_text(encoding="utf-8"))["required"] == ["kind", "cards"]


@pytest.mark.parametrize(("args", "message"), [
    (["schema", "-o", "{file}/sub"], "-o {file}/sub: {file} is not a folder"),
    (["schema", "cards", "-o", "{file}/x.json"], "-o {file}/x.json: {file} is not a folder"),
    (["schema", "cards", "-o", "{file}/deeper/x.json"], "{file} is not a folder"),
    (["schema", "cards", "-o", "{tmp}/nowhere/x.json"], "the folder {tmp}/nowhere does not exist"),
    (["grammar", "-o", "{file}/editor"], "-o {file}/editor: {file} is not a folder"),
])
def test_an_output_that_cannot_be_written_is_a_usage_error(tmp_path: Path, args: list[str], message: str) -> None:
    """A file where the output's folder must be: a usage error (exit 2) naming it, no traceback, nothing written."""
    file = tmp_path / "a-file"
    file.write_text("kept\n", encoding="utf-8")
    before = sorted(tmp_path.rglob("*"))
    fill = {"file": str(file), "tmp": str(tmp_path)}
    result = CliRunner().invoke(main, [a.format(**fill) for a in args])
    assert result.exit_code == 2, (result.output, result.exception)
    assert message.format(**fill) in result.output
    assert sorted(tmp_path.rglob("*")) == before and file.read_text(encoding="utf-8") == "kept\n"
