"""A trigger on a card that acts only when used (an Item, an Award, a kind held like an Item) is DSL116, as a
standing change there is: the engine reads the triggers of every card a Unit holds, so 'on upkeep: gain 1
soldiers' on an Item used to act at each Upkeep while the Item was merely held, and it was never discarded. The
only triggers such a card may have hear its own coming ('on found', 'on drawn': the black Decorations of
Atlantikwall are played at once so)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from pack_kit import one_card_pack
from test_diagnostics import card, validate

from ddaydice.interpreter.cli import main

HINT = "write 'use: ...' (played once, when the player chooses)"


@pytest.mark.parametrize(("kind", "effect", "name"), [
    ("item", "on upkeep: gain 1 soldiers", "an Item"),  # the review's Ration Tin
    ("award", "on combat: gain 1 courage", "an Award"),
    ("item", "use: gain 1 star\non advance if bunker: gain 2 soldiers", "an Item"),
])
def test_a_trigger_on_an_item_or_an_award_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str,
                                                      effect: str, name: str) -> None:
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card(effect, kind=kind)})
    assert result.exit_code == 1, result.output
    line = 9 + effect.count("\n")
    event = effect.splitlines()[-1].split()[1].rstrip(":")
    assert (f"cards/new.yaml:{line}:10: DSL116 {name} acts only when it is used; a trigger here would act each time "
            f"'{event}' happens while the card is merely held") in result.output
    assert HINT in result.output and "may have hear its own coming: 'on found'\n" in result.output, result.output
    assert "'on drawn'" not in result.output, result.output  # an Item or an Award is found, never drawn


def test_a_trigger_on_its_own_coming_is_allowed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """'on found' on an Item is heard once, as it is found; and a Specialist or a Vehicle acts while held."""
    result = validate(tmp_path, monkeypatch, {
        "cards/new.yaml": card("on found: gain 1 soldiers\nuse: gain 1 star", kind="item", grade="regular"),
        "cards/more.yaml": card("on upkeep: gain 1 soldiers", id="sergeant"),
    })
    assert "DSL116" not in result.output, result.output


@pytest.mark.parametrize(("kind", "name", "own"), [("badge", "Badge", "drawn"),
                                                   ("german-item", "German Item", "found")])
def test_a_trigger_on_a_card_used_like_an_item_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           kind: str, name: str, own: str) -> None:
    """Atlantikwall's kinds held like an Item (rules/kinds.yaml) are refused the same trigger; a Decoration's
    'on drawn' is not (the bundled black Decorations load). The hint names the one event of its own coming the
    kind hears: a Badge is drawn from its deck, a German Item found in the German Reserve."""
    monkeypatch.chdir(tmp_path)
    one_card_pack(tmp_path, kind, "on combat: gain 1 courage")
    result = CliRunner().invoke(main, ["validate", "mypack"])
    assert result.exit_code == 1, result.output
    assert (f"x.yaml:8:10: DSL116 a {name} (used like an Item) acts only when it is used; a trigger here would act "
            "each time 'combat' happens") in result.output
    assert result.output.count("DSL116") == 1, result.output
    assert f"may have hear its own coming: 'on {own}'\n" in result.output, result.output
