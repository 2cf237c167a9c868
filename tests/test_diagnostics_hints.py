"""Hints that name what the modder meant.

Hints used to be wrong or empty: 'for all unit' suggested
'units here' (itself an error), a chance's two actions in one outcome showed a grammar rule's name, '1d0' was an
unknown resource, a Cyrillic letter in an id was dropped from the id suggested, and a path in 'requires:'
suggested its last folder's name as a pack."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_diagnostics import card, validate

from ddaydice.dsl.parser import _TERMINAL_NAMES, _parser, keywords


def _run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, effect: str) -> str:
    return validate(tmp_path, monkeypatch, {"cards/new.yaml": card(effect)}).output


def test_a_keyword_in_place_of_another_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """'for all unit' is a slip of 'for all units' ('units here' would be a mistake too)."""
    out = _run(tmp_path, monkeypatch, "for all unit: def -1")
    assert "cards/new.yaml:9:15: DSL002 unexpected 'unit'" in out and "hint: did you mean 'units'?" in out, out
    assert "units here" not in out, out


def test_two_actions_in_one_outcome_say_how_an_outcome_is_written(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    out = _run(tmp_path, monkeypatch, "use: roll 1d6 (3-5: gain 1 star, 6: gain 1 star, gain 2 courage)")
    assert "DSL002 unexpected 'gain'" in out, out
    assert "two actions in one outcome are joined with 'and' ('6: gain 1 star and gain 2 courage')" in out, out
    assert "'results'" not in out, out


def test_no_terminal_of_the_grammar_is_shown_by_its_name() -> None:
    """Every terminal that is not a keyword has words for messages (a grammar's name is never shown)."""
    for term in _parser().terminals:
        if str(term.pattern.value) not in keywords():
            assert term.name in _TERMINAL_NAMES, term.name


def test_a_die_of_other_sides_is_no_die_roll(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = _run(tmp_path, monkeypatch, "use: gain 1d0 soldiers")
    assert "cards/new.yaml:9:17: DSL102 gain: '1d0' is no die roll" in out, out
    assert "hint: the dice are six-sided: a roll is written 1d6, 2d6" in out and "unknown resource" not in out, out


def test_a_letter_of_another_alphabet_in_an_id_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = validate(tmp_path, monkeypatch, {"cards/new.yaml": card(id="bocage-b\u0430dge")}).output
    assert "SCHEMA004" in out and "'\u0430' (U+0430 CYRILLIC SMALL LETTER A) is not one of them" in out, out
    assert "bocage-bdge" not in out, out
