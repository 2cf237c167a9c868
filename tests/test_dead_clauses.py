"""A clause that can never act on its owner is DSL129, at the word: the words' records say which owners each event,
use window, standing change and action on 'self' reaches (words.OWNERS), and the checker reads them. 'on enter' and
'on first-enter' are heard by the Sector entered alone, 'require' is read from Sectors alone, 'on found' by a card a
Unit gains, 'on drawn' and 'use when drawn' by a card drawn from an expansion's deck, 'sacrifice self' takes a
Specialist: on any other owner each used to validate and never act (a Specialist's 'on enter', an Item's 'use when
drawn' refused 'no-use' forever, an Item's 'sacrifice self' read "sacrifice this Specialist")."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from pack_kit import one_card_pack
from test_diagnostics import MAP, card, validate

from ddaydice.interpreter.cli import main


@pytest.mark.parametrize(("kind", "effect", "col", "said", "owner"), [
    ("specialist", "on enter: gain 1 soldiers", 10, "'on enter'", "a Specialist"),
    ("specialist", "on first-enter: gain 1 stars", 10, "'on first-enter'", "a Specialist"),
    ("specialist", "require medic", 7, "'require'", "a Specialist"),
    ("specialist", "on drawn: gain 1 courage", 10, "'on drawn'", "a Specialist"),
    ("vehicle", "on enter: gain 1 soldiers", 10, "'on enter'", "a Vehicle"),
    ("item", "use when drawn: gain 1 stars", 11, "'use when drawn'", "an Item"),
    ("item", "use: sacrifice self, gain 1 stars", 22, "'sacrifice self'", "an Item"),
    ("item", "on drawn: gain 1 stars", 10, "'on drawn'", "an Item"),
])
def test_a_clause_that_never_acts_on_its_card_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          kind: str, effect: str, col: int, said: str,
                                                          owner: str) -> None:
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card(effect, kind=kind, grade="regular")})
    assert result.exit_code == 1, result.output
    assert f"cards/new.yaml:10:{col}: DSL129 {said} never acts on {owner}: the engine " in result.output
    assert "hint: write it where it acts, or leave it out" in result.output
    assert result.output.count("DSL") == 1, result.output  # that mistake alone


def test_on_found_on_a_rule_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule is never found: 'on found' is heard by the card a Unit gains alone."""
    result = validate(tmp_path, monkeypatch, {"rules/options/opt.yaml": (
        "id: opt\nname: Opt\ntext: x\nprovenance: reconstructed\nnote: test\neffect: |\n  on found: gain 1 star\n")})
    assert "DSL129 'on found' never acts on an optional rule: the engine runs its triggers only for a card a Unit " \
           "gains" in result.output, result.output


def test_where_each_clause_acts_it_is_allowed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Sector hears 'on enter' and has requirements; a Specialist and an Item hear their own finding; a
    Specialist sacrifices himself."""
    tiny = MAP.replace('effect: "def -1"}', 'effect: "def -1"}', 1)
    result = validate(tmp_path, monkeypatch, {
        "cards/new.yaml": card("on found: gain 1 soldiers\nuse: sacrifice self, gain 1 stars"),
        "cards/more.yaml": card("on found: gain 1 soldiers\nuse: discard self, gain 1 star", kind="item",
                                id="kit", grade="regular"),
        "maps/tiny.yaml": tiny.replace("    start: {soldiers: 10, courage: 2}",
                                       "    start: {soldiers: 10, courage: 2}\n    effect: |\n"
                                       "      on enter: gain 1 star\n      on first-enter: gain 1 star\n"
                                       "      require medic", 1),
    })
    assert "DSL129" not in result.output and result.exit_code == 0, result.output


def _pack(tmp_path: Path, kind: str, effect: str) -> str:
    pack = one_card_pack(tmp_path, kind, effect)
    return CliRunner().invoke(main, ["validate", "--no-cache", str(pack)]).output


def test_a_card_drawn_from_a_deck_hears_its_drawing_not_its_finding(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A Badge is drawn (rules/kinds.yaml): 'use when drawn' is offered it, 'on found' never heard."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    assert "DSL" not in _pack(tmp_path / "a", "badge", "use when drawn: gain 1 courage")
    out = _pack(tmp_path / "b", "badge", "on found: gain 1 courage")
    assert "DSL129 'on found' never acts on a Badge" in out, out
