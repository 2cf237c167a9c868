"""'until EVENT', a duration bounded by an event (docs/dsl-reference.md): read, checked, rendered in English and
kept in a captured position. How it plays is settled by the scenarios of docs/example-pack/field-manual/ (the
modifier lasts across turns, ends as the event happens to the Unit that granted it, and only to that Unit)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_diagnostics import bad, card, validate

from ddaydice.dsl.loader import load


@pytest.mark.parametrize(("effect", "english"), [
    ("use: mgf-dice = 0 until move", "the number of MGF dice becomes 0 until this Unit next moves"),
    ("use: ignore landmines until combat", "until this Unit's next Combat"),
    ("on advance: def -2 until turn-start to all units", "until the next turn begins"),
])
def test_until_reads_and_renders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, effect: str,
                                 english: str) -> None:
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card(effect)})
    assert result.exit_code == 0, result.output
    content, _ = load(tmp_path)
    assert content is not None
    rendered = " ".join(content.effects["tester"].english)
    assert english in rendered, rendered


def test_an_unknown_event_after_until_is_located_with_a_suggestion(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card("use: def -2 until moev")})
    bad(result, "cards/new.yaml:9:25: DSL107 unknown event 'moev'")
    assert "did you mean 'move'?" in result.output, result.output


def test_until_is_a_duration_of_modifiers_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An action that happens at once has no duration, 'until' included (DSL106)."""
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card("use: gain 2 courage until move")})
    bad(result, "cards/new.yaml:9:12: DSL106 'gain' happens at once; 'until an event' makes no sense here")
