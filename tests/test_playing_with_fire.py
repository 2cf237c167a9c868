"""Atlantikwall's Playing with Fire: the words it needs ('tagged TAG', 'per ... above N', 'on movement'), the
marked cards, and the option's listing. Its rulings are scenarios (tests/scenarios/atlantikwall/playing-with-fire*)."""

from __future__ import annotations

import functools

from click.testing import CliRunner

from ddaydice.dsl.checker import Context, check_effect
from ddaydice.dsl.diagnostics import Diagnostic
from ddaydice.dsl.loader import Content, load
from ddaydice.dsl.parser import SourceMap, parse_effect
from ddaydice.interpreter.cli import main


@functools.cache
def pack() -> Content:
    loaded, diags = load(packs=["atlantikwall"])
    assert loaded is not None, diags
    return loaded


def check(text: str) -> list[Diagnostic]:
    tree, diags = parse_effect(text, SourceMap("t.yaml"))
    assert tree is not None, diags
    return check_effect(tree, pack().vocab, Context("option"))[1]


def test_the_option_checks_and_reads_in_english() -> None:
    assert check(pack().options["playing-with-fire"].effect) == []
    english = " ".join(pack().effects["option:playing-with-fire"].english)
    assert "card marked Explosion the Unit holds beyond the first 2" in english
    assert "Move phase" in english


def test_a_tag_no_card_carries_is_refused_with_a_suggestion() -> None:
    diags = check("on movement: lose 1 soldiers per tagged explosive above 2")
    assert [d.code for d in diags] == ["DSL112"]
    assert "explosion" in (diags[0].hint or "")
    assert [d.code for d in check("on movement: lose 1 soldiers per tagged")] == ["DSL112"]
    assert [d.code for d in check("on combat if tagged explosive >= 3: lose 1 soldiers")] == ["DSL102"]


def test_tagged_is_a_number_to_compare_and_above_works_on_any_counter() -> None:
    assert check("on combat if tagged explosion >= 3: lose 1 soldiers") == []
    assert [d.code for d in check("on combat if tagged explosion: lose 1 soldiers")] == ["DSL110"]
    assert check("on combat: lose 1 soldiers per active-skulls above 1") == []


def test_every_marked_card_says_the_mark_is_ours() -> None:
    marked = {cid: c for cid, c in pack().cards.items() if "explosion" in c.tags}
    assert {"grenade", "bazooka", "bangalore-torpedo", "gammon-bomb", "mortar", "flame-thrower",
            "thermite-grenade", "tnt"} == set(marked)
    for cid, card in marked.items():
        assert "Explosion symbol" in card.note and ("RECONSTRUCTION" in card.note or "ours" in card.note), cid


def test_the_option_is_listed_with_the_pack() -> None:
    result = CliRunner().invoke(main, ["list", "rules", "--pack", "atlantikwall"])
    assert result.exit_code == 0, result.output
    line = next(x for x in result.output.splitlines() if x.strip().startswith("playing-with-fire"))
    assert "Playing with Fire" in line and "RECONSTRUCTED" in line
