"""A use's window ('use before mgf: ...') is one of the moments the engine offers uses at, or an error.

The windows are one list (dsl/words/events.py ``WINDOWS``, with 'when EVENT' of each pending event:
``words.windows``) that the checker, the engine (core/values.py ``points_of``), the language server's completion
and the reference read. A known word in a window the turn never offers ('before advance', 'after move') used to
validate, read in English and never be offered (refused ``no-use``): it is DSL121, at the window, with the windows
that exist.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_diagnostics import bad, card, validate

from ddaydice.dsl import words
from ddaydice.dsl.loader import load
from ddaydice.dsl.words.events import POINTS
from ddaydice.interpreter.core.values import points_of
from ddaydice.interpreter.tools.lsp.complete import expected, names
from ddaydice.interpreter.tools.scenario import PHASE_POINTS, WITHIN_A_STEP

# The windows a modder's review found accepted and never offered, and the window the hint offers instead, if any.
NEVER_OFFERED = [
    ("before advance", None), ("after advance", None), ("when advance", None), ("before upkeep", "during upkeep"),
    ("before game-start", None), ("after move", None), ("before first-roll", "after first-roll"),
]


@pytest.mark.parametrize(("window", "instead"), NEVER_OFFERED)
def test_a_window_the_turn_never_offers_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, window: str,
                                                    instead: str | None) -> None:
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card(f"use {window}: gain 1 soldiers", kind="item")})
    bad(result, f"cards/new.yaml:9:11: DSL121 no use is ever offered '{window}'")
    assert "uses are offered only after final-tally, during roll, during upkeep" in result.output, result.output
    assert "when casualties" in result.output, result.output
    if instead is not None:
        assert f"did you mean '{instead}'?" in result.output, result.output


def test_when_found_is_no_window_and_the_hint_names_the_trigger(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """'use when found' read "when it is found" and was offered at every moment of the turn, found or not: no such
    window is offered; what a card does as it is found is its trigger 'on found', which the hint names."""
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card("use when found: gain 1 soldiers", kind="item")})
    bad(result, "cards/new.yaml:9:11: DSL121 no use is ever offered 'when found'")
    assert "write 'on found: ...'" in result.output, result.output
    assert ("when", "found") not in words.windows()


def test_every_window_the_checker_accepts_is_offered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each window of the list validates, and the engine offers it at moments the turn has: those it offers in a
    phase (checked against whole games by test_scenario_phases.py), right after a card is drawn, or as a pending
    event is about to happen."""
    offered = words.windows()
    to_items = [w for w in offered if words.window_reaches(w) & {"card", "gained"}]  # 'when drawn': DSL129
    assert set(offered) - set(to_items) == {("when", "drawn")}
    effect = "\n".join(f"use {kind} {moment}: gain 1 soldiers" for kind, moment in to_items)
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card(effect, kind="item", grade="regular")})
    assert result.exit_code == 0, result.output
    content, _ = load(tmp_path)
    assert content is not None and len(content.effects["tester"].compiled.uses) == len(to_items)
    pending = {f"when-{e.name}" for e in words.words("event").values()
               if isinstance(e, words.EventWord) and e.pending}
    turn = {p for points in (*PHASE_POINTS.values(), *WITHIN_A_STEP.values()) for p in points}
    assert set(POINTS) - {"when-drawn"} == turn
    for window in offered:
        assert points_of(window), window
        assert set(points_of(window)) <= turn | {"when-drawn"} | pending, window
    assert points_of(("before", "advance")) == ()


def test_completion_offers_only_the_windows_there_are() -> None:
    """After 'use before ', the language server completes the moments offered with 'before', not every event."""
    content, diags = load()
    assert content is not None, diags
    assert expected("use before ") == ("window-before",)
    assert expected("use once per turn after ") == ("window-after",)
    every = names(content, None)
    assert {n.label for n in every.of("window-before")} == {"mgf", "movement"}
    assert {n.label for n in every.of("window-when")} == {"drawn", "casualties", "specialist-lost"}
    assert {"final-tally", "mgf", "first-roll"} == {n.label for n in every.of("window-after")}
    mgf = next(n for n in every.of("window-before") if n.label == "mgf")
    assert mgf.doc.startswith("offered in Phase 5, before the MGF roll"), mgf.doc
