"""Hints that name what the modder meant, and every mistake of a line whose syntax is broken.

A syntax error used to hide the other mistakes of its clause ('on landmines: gain 1 courage once per trun'
reported 'trun' only, and 'landmines' on the next run): the line is mended (the keyword a word is a slip of, else
cut before the error) and its names are checked too. Hints used to be wrong or empty: 'for all unit' suggested
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


def test_a_syntax_error_does_not_hide_the_names_before_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = _run(tmp_path, monkeypatch, "on landmines: gain 1 courage once per trun")
    assert "cards/new.yaml:9:10: DSL107 unknown event 'landmines'" in out, out
    assert "cards/new.yaml:9:45: DSL002 unexpected 'trun'" in out and "did you mean 'turn'?" in out, out
    assert out.count("DSL") == 2, out


def test_a_mended_keyword_lets_the_rest_of_the_line_be_checked(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """'for all unit' is mended as 'for all units': the names after it are checked, at their places as written."""
    out = _run(tmp_path, monkeypatch, "for all unit: item-costs -1 if not bunkr")
    assert "cards/new.yaml:9:15: DSL002 unexpected 'unit'" in out and "hint: did you mean 'units'?" in out, out
    assert "units here" not in out, out
    assert "cards/new.yaml:9:21: DSL101 unknown modifier 'item-costs'" in out, out
    assert "cards/new.yaml:9:42: DSL109 unknown condition 'bunkr'" in out, out
    assert out.count("DSL") == 3, out


def test_only_names_are_checked_in_a_mended_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A line cut before its error is not checked for what the cut made ('def -2' without its duration)."""
    out = _run(tmp_path, monkeypatch, "use before mgf: def -2 this trun")
    assert "DSL002 unexpected 'trun'" in out and "DSL105" not in out and out.count("DSL") == 1, out


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


def test_every_broken_line_of_an_effect_is_mended(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each line is mended alone, and the lines that parse are checked in full, as before."""
    out = _run(tmp_path, monkeypatch, "use befor mfg: gain 1 star\ndef -1 this turn\non advanc: gain 1 curage or")
    assert "cards/new.yaml:9:11: DSL002 unexpected 'befor'" in out and "DSL108 unknown moment 'mfg'" in out, out
    assert "cards/new.yaml:10:" in out, out  # (a standing change lasts as long as its card)
    assert "cards/new.yaml:11:10: DSL107 unknown event 'advanc'" in out, out
    assert "cards/new.yaml:11:25: DSL102 gain: unknown resource 'curage'" in out, out
