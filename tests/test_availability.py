"""AVAIL001: a card its author expects in games that no map brings into play (dsl/conflicts.py
``cards_in_no_game``, ``dday validate PATH``)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ddaydice.dsl import setups as setups_module
from ddaydice.dsl.conflicts import cards_in_no_game
from ddaydice.dsl.loader import load
from ddaydice.dsl.schema import BASE_KINDS
from ddaydice.interpreter.cli import main

CARD = """\
  - id: {id}
    name: {name}
    text: Gain 1 Soldier each turn.
    provenance: reconstructed
    note: invented for a test
    grade: {grade}
    cost: 2
    effect: |
      {effect}
"""


def pack(tmp_path: Path, *, only_in: str = "", listed_by_a_map: bool = False) -> Path:
    root = tmp_path / "cook-pack"
    (root / "cards").mkdir(parents=True)
    (root / "pack.yaml").write_text("id: cook-pack\nname: Cook Pack\nversion: '1.0'\ntext: a test pack\n"
                                    "provenance: reconstructed\nnote: invented for a test\n", encoding="utf-8")
    cook = CARD.format(id="cook", name="Cook", grade="regular", effect="on upkeep: gain 1 soldiers") + only_in
    (root / "cards" / "specialists.yaml").write_text("kind: specialist\ncards:\n" + cook, encoding="utf-8")
    canteen = CARD.format(id="canteen", name="Canteen", grade="regular", effect="use: gain 1 courage")
    (root / "cards" / "items.yaml").write_text("kind: item\ncards:\n" + canteen, encoding="utf-8")
    if listed_by_a_map:
        tiger = (Path(__file__).resolve().parent.parent / "maps" / "exercise-tiger.yaml").read_text(encoding="utf-8")
        (root / "maps").mkdir()
        mine = tiger.replace("id: exercise-tiger", "id: cooks-tiger", 1).replace(
            "specialists: [beachmaster,", "specialists: [cook, beachmaster,", 1)
        (root / "maps" / "cooks-tiger.yaml").write_text(mine, encoding="utf-8")
    return root


def validate(path: Path) -> list[dict[str, object]]:
    result = CliRunner().invoke(main, ["validate", str(path), "--format", "json"])
    assert result.exit_code == 0, result.output  # a warning: the pack still loads
    return [d for d in json.loads(result.output) if d["code"] == "AVAIL001"]


def test_a_regular_specialist_no_map_lists_is_said_with_the_options_that_bring_it(tmp_path: Path) -> None:
    found = validate(pack(tmp_path))
    assert [(d["line"], d["column"], d["severity"]) for d in found] == [(3, 9, "warning")]
    message = str(found[0]["message"])
    assert message.startswith("Cook ('cook') is in no game on any map as listed or in a variant")
    assert "Wild Specialists" in message  # the optional rule that deals every Specialist
    assert "only-in" in str(found[0]["hint"])
    # The Regular Item is on every map that has Items: no warning for it.


def test_only_in_or_a_map_that_lists_it_silences_it(tmp_path: Path) -> None:
    assert validate(pack(tmp_path / "a", only_in="    only-in: [wild-specialists]\n")) == []
    assert validate(pack(tmp_path / "b", listed_by_a_map=True)) == []


def test_no_bundled_card_is_in_no_game() -> None:
    content, diags = load(packs="all")
    assert content is not None, diags
    assert cards_in_no_game(content) == {}


def test_the_summary_of_a_run_with_warnings_counts_them(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["validate", str(pack(tmp_path)), "--no-cache"])
    assert result.exit_code == 0, result.output
    assert "AVAIL001" in result.output
    assert re.search(r"^ok: .* checked in \d+\.\d+s, 1 warning\(s\)$", result.output, re.MULTILINE), result.output


def _many_items(tmp_path: Path, files: int, per_file: int) -> Path:
    """The cook pack with ``files`` more card files of ``per_file`` Regular Items each (in every game with Items)."""
    root = pack(tmp_path)
    for f in range(files):
        cards = "".join(f"  - {{id: ration-{f}-{i}, name: Ration, grade: regular, cost: 1, text: t, "
                        f"provenance: reconstructed, note: n, effect: 'use: gain 1 star'}}\n" for i in range(per_file))
        (root / "cards" / f"rations-{f}.yaml").write_text("kind: item\ncards:\n" + cards, encoding="utf-8")
    return root


def test_each_effect_is_read_once_whatever_the_number_of_set_ups(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Finding the cards in no game reads what each effect brings into play once, not once per set-up (109 set-ups
    of the bundled maps and optional rules: a pack of 57,000 cards took minutes to validate)."""
    content, diags = load(packs="all", extra=[_many_items(tmp_path, 2, 150)])
    assert content is not None, diags
    reads: list[int] = []
    real = setups_module._named_cards

    def counted(*args: Any) -> Any:
        reads.append(id(args[1]))
        return real(*args)

    monkeypatch.setattr(setups_module, "_named_cards", counted)
    found = cards_in_no_game(content)
    assert set(found) == {"cook"} and "Wild Specialists" in found["cook"]
    assert len(reads) == len(set(reads)) <= len(content.effects)


def test_the_cards_in_no_game_are_those_no_set_up_brings(tmp_path: Path) -> None:
    """The cards in no game, found for all the set-ups together, are those that no set-up of any map brings into
    play (``setups``, which ``dday card`` and the conflict finder read), with the optional rules that bring each."""
    content, diags = load(packs="all", extra=[_many_items(tmp_path, 1, 3)])
    assert content is not None, diags
    listed: set[str] = set()
    by_option: dict[str, set[str]] = {}
    for mid in content.maps:
        for st in setups_module.setups(content, mid):
            for cid in st.cards:
                if st.options:
                    by_option.setdefault(cid, set()).add(content.options[st.options[0]].name)
                else:
                    listed.add(cid)
    asked = [cid for cid, card in content.cards.items()
             if content.card_kinds[cid] in BASE_KINDS and not card.only_in]
    assert cards_in_no_game(content) == {cid: tuple(sorted(by_option.get(cid, ()))) for cid in asked
                                         if cid not in listed} != {}
