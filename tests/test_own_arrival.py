"""A card's trigger on its own arrival ('on drawn') hears that card's draw only (ruling 14.8: a rule or a Sector
hears every draw), so asking that the card drawn be of another kind ('on drawn if drawn battle-condition' on a
Badge) is a condition that is never true: DSL139 at it, with the hint to write the clause in a rule. The card's own
kind, an 'or' with its own kind, and a rule's clause hearing every draw are accepted."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from pack_kit import one_card_pack

from ddaydice.interpreter.cli import main


def validate_badge(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, effect: str, kind: str = "badge") -> Result:
    monkeypatch.chdir(tmp_path)
    one_card_pack(tmp_path, kind, effect)
    return CliRunner().invoke(main, ["validate", "mypack"])


@pytest.mark.parametrize("condition", ["drawn battle-condition", "drawn battle-condition and have courage >= 1",
                                       "drawn battle-condition or drawn decoration"])
def test_a_condition_on_another_kinds_draw_is_never_true_on_a_card(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                   condition: str) -> None:
    result = validate_badge(tmp_path, monkeypatch, f"on drawn if {condition}: discard self, gain 1 courage")
    assert result.exit_code == 1, result.output
    assert ("x.yaml:8:19: DSL139 'drawn battle-condition' is never true here: a Badge's 'on drawn' is heard only "
            "when this card itself is drawn, and it is a card of kind 'badge'") in result.output, result.output
    assert "to act whenever a battle-condition is drawn, write the clause in a rule or an optional rule" \
        in result.output, result.output
    assert result.output.count("DSL139") == 1, result.output


@pytest.mark.parametrize("condition", ["drawn badge", "drawn battle-condition or drawn badge",
                                       "not drawn battle-condition"])
def test_a_condition_the_cards_own_draw_can_meet_is_accepted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             condition: str) -> None:
    result = validate_badge(tmp_path, monkeypatch, f"on drawn if {condition}: discard self, gain 1 courage")
    assert "DSL139" not in result.output, result.output
