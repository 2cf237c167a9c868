"""The ids a rules file defines are slugs, as card ids are: a pack's query 'Extra_Dice' or face 'Star ' is refused
at its place (SCHEMA004, the message of every id that is none), with the slug it likely stands for as the hint."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ddaydice.interpreter.cli import main

PACK = "id: odd\nname: Odd\nversion: '1'\ntext: A pack.\nprovenance: reconstructed\nnote: a test\n"
HEAD = "provenance: reconstructed\nnote: a test\n"
NO_ID = ("expected an id (lower-case letters and digits, in words joined by '-'), found the text {!r}: an id is "
         "lower-case letters and digits, in words joined by '-'")

# (rules file, its text, the place of the id that is none, what the message names, the id it stands for)
CASES = [
    ("queries.yaml", HEAD + "queries:\n  - {id: Extra_Dice, kind: number, base: 0, subject: unit, text: more}\n"
     "ignorables: []\n", "4:10", "'id'", "Extra_Dice", "extra-dice"),
    ("queries.yaml", HEAD + "queries: []\nignorables:\n  - {id: Big Skull, text: a skull}\n", "5:10", "'id'",
     "Big Skull", "big-skull"),
    ("dice.yaml", HEAD + "faces:\n  - {id: 'Star ', name: Star}\ncolours: [green]\ndice-per-colour: 2\n"
     "tool-table: [1]\ntool-table-step: 1\nrolls: 3\n", "4:10", "'id'", "Star ", "star"),
    ("dice.yaml", HEAD + "faces: []\ncolours: [Dark_Green]\ndice-per-colour: 2\ntool-table: [1]\n"
     "tool-table-step: 1\nrolls: 3\n", "4:11", "item 1 of 'colours'", "Dark_Green", "dark-green"),
    ("resources.yaml", HEAD + "resources:\n  - {id: Ammo, name: Ammo}\n", "4:10", "'id'", "Ammo", "ammo"),
    ("resources.yaml", HEAD + "resources:\n  - {id: ammo, name: Ammo, aliases: [Bullets]}\n", "4:38",
     "item 1 of 'aliases'", "Bullets", "bullets"),
    ("phases.yaml", HEAD + "phases:\n  - {id: Rest Phase, name: Rest}\n", "4:10", "'id'", "Rest Phase", "rest-phase"),
    ("precedence.yaml", HEAD + "tiers:\n  - {id: Orders, name: Orders, sources: []}\n", "4:10", "'id'", "Orders",
     "orders"),
    ("game.yaml", HEAD + "rules: []\nmarker-faces:\n  - {id: Chevron_4, name: 4 chevrons}\n", "5:10", "'id'",
     "Chevron_4", "chevron-4"),
    ("sides.yaml", HEAD + "sides:\n  - {id: italian, name: Italian, text: A side., option: italians, "
     "colours: [Green]}\n", "4:77", "item 1 of 'colours'", "Green", "green"),
]


@pytest.mark.parametrize(("file", "text", "place", "where", "written", "slug"), CASES,
                         ids=[f"{c[0]}:{c[4]}" for c in CASES])
def test_an_id_a_rules_file_defines_is_a_slug(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, file: str, text: str,
                                              place: str, where: str, written: str, slug: str) -> None:
    (tmp_path / "odd" / "rules").mkdir(parents=True)
    (tmp_path / "odd" / "pack.yaml").write_text(PACK, encoding="utf-8")
    (tmp_path / "odd" / "rules" / file).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["validate", "--no-cache", "odd"])
    assert result.exit_code == 1, result.output
    line = f"odd/rules/{file}:{place}: SCHEMA004 {where}: {NO_ID.format(written.strip())}"  # (shown trimmed)
    assert line in result.output.splitlines(), result.output
    shown = result.output.splitlines().index(line)
    caret = result.output.splitlines()[shown + 2]
    assert caret.index("^") - 4 == int(place.split(":")[1]) - 1, result.output
    assert f"hint: did you mean '{slug}'?" in result.output


def test_the_bundled_rules_ids_are_slugs() -> None:
    """The base game and every bundled pack still load: their rules files define only slugs."""
    for args in (["validate", "--no-cache"], ["validate", "--no-cache", "--pack", "all"]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, result.output
