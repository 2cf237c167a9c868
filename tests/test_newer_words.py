"""The newer words of the effect language (docs/dsl-reference.md): read, checked and rendered in English.

- 'until EVENT', a duration bounded by an event;
- 'reface ... as FACE', a face named by the card;
- 'mgf-edge' and 'landmine-edge', values of the rules: roll again, keep the better (or the worse);
- 'roll DICE (RESULTS: action, ..., else: action)', a chance among actions.

How they play is settled by the scenarios of docs/example-pack/field-manual/ (tests/test_example_pack.py): the
'until' modifier lasts across turns, ends as the event happens to the Unit that granted it, and only to that Unit;
the named face replaces the die's result without a question."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from test_diagnostics import bad, card, validate

from ddaydice.dsl.loader import load
from ddaydice.interpreter.game import Game
from ddaydice.interpreter.policies.deciders import ReferencePolicy


@pytest.mark.parametrize(("effect", "english"), [
    ("use: mgf-dice = 0 until move", "the number of MGF dice becomes 0 until this Unit next moves"),
    ("use: ignore landmines until combat", "until this Unit's next Combat"),
    ("on advance: def -2 until turn-start to all units", "until the next turn begins"),
    ("use after final-tally: reface 1 die skull as two-soldiers",
     "turn 1 die (Skull) that is not Locked into 2 Soldiers"),
    ("use after final-tally: reface all die white skull as star",
     "turn every die (White, Skull) that is not Locked into Star"),
    ("use: roll 1d6 (5-6: gain 3 item-points, else: gain 1 item-points)",
     "roll 1d6: on 5 to 6, gain 3 Item Points; otherwise, gain 1 Item Point"),
    ("on advance: roll 2d6 (12: gain 1 star and gain 1 courage, 2-3: def +1 this turn)",
     "roll 2d6: on 12, gain 1 Star and gain 1 Courage; on 2 to 3, DEF +1 until the end of the turn"),
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


def test_a_named_face_cannot_reach_mgf_dice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """MGF and Landmine dice show numbers: 'as FACE' with 'any-roll' is refused where 'as' stands."""
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card("use: reface 1 die any-roll as skull")})
    bad(result, "cards/new.yaml:9:34: DSL103 reface: 'as' names a face of the Final Tally's dice")


def test_as_needs_a_face(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card("use: reface 1 die skull as sixes")})
    assert result.exit_code == 1 and "DSL10" in result.output and "sixes" in result.output, result.output


@pytest.mark.parametrize(("effect", "where", "message"), [
    ("use: roll 1d6 (5-7: gain 1 star)", "9:22", "roll: the results 5-7 are not totals of 1d6 (1 to 6)"),
    ("use: roll 1d6 (5-6: gain 1 star, 6: gain 1 courage)", "9:40",
     "roll: the results 6 are named by an earlier outcome too"),
    ("use: roll 1d6 (else: gain 1 star, 6: gain 1 courage)", "9:22", "roll: 'else' is the last outcome"),
    ("use: roll 9d6 (9: gain 1 star)", "9:17", "roll: 9d6 is not a chance's dice (1d6 to 6d6)"),
])
def test_a_chance_names_totals_the_dice_can_make(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, effect: str,
                                                 where: str, message: str) -> None:
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card(effect)})
    bad(result, f"cards/new.yaml:{where}: DSL117 {message}")


def test_a_chance_outcome_is_checked_like_any_action(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A value changed in an outcome needs its duration (DSL105), a misspelt resource its suggestion (DSL102)."""
    result = validate(tmp_path, monkeypatch, {"cards/new.yaml": card("use: roll 1d6 (6: def -2, else: gain 1 stra)")})
    bad(result, "cards/new.yaml:9:25: DSL105 'def' changes a value or a permission")
    assert "9:46: DSL102 gain: unknown resource 'stra'" in result.output and "did you mean 'star'?" in result.output


class ScriptedRandom(random.Random):
    """The game's generator, scripted: each draw the face given, in order."""

    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.faces = faces

    def random(self) -> float:
        return (self.faces.pop(0) - 1 + 0.5) / 6  # d6(): int(random() * 6) + 1


def scripted_dice(draws: list[int]) -> tuple[Game, list[int]]:
    """A game whose die (Kernel.d6) rolls ``draws`` in order, and what is left of them."""
    game = Game(load()[0] or _missing(), "exercise-tiger", variant="practice-run", deciders=ReferencePolicy())
    script = list(draws)
    game.rng = ScriptedRandom(script)
    return game, script


def _missing() -> Any:
    raise AssertionError("the bundled content does not load")


@pytest.mark.parametrize(("count", "edge", "draws", "kept"), [
    (1, 0, [5, 2], [5]),           # no edge: one roll, one draw of the generator (the 2 is left)
    (1, 1, [5, 2], [2]),           # +1: once more, the lower kept (better for the Units)
    (1, -1, [2, 5], [5]),          # -1: the higher kept
    (1, 2, [4, 6, 3], [3]),        # +2: twice more, the lowest of the three
    (2, 1, [3, 3, 4, 1], [4, 1]),  # two MGF dice: their totals compared, 6 against 5
])
def test_rolling_with_an_edge(count: int, edge: int, draws: list[int], kept: list[int]) -> None:
    """'mgf-edge' and 'landmine-edge' (rules/queries.yaml): each +1 rolls once more and keeps the lower total,
    each -1 the higher; without an edge the generator is drawn as ever (the golden games are unchanged)."""
    game, script = scripted_dice(draws)
    assert game.roll_with_edge(count, edge) == kept
    assert script == ([2] if edge == 0 else [])


@pytest.mark.parametrize(("edge", "draws", "kept"), [
    (1, [2, 5], [5]),    # 'roll-high +1': the higher kept
    (-1, [5, 2], [2]),   # 'roll-high -1': the lower kept
    (0, [5, 2], [5]),    # no edge: one draw
])
def test_an_effects_own_dice_keep_the_higher_with_roll_high(edge: int, draws: list[int], kept: list[int]) -> None:
    """'roll-high' (rules/queries.yaml): for the dice an effect rolls, +1 keeps the higher total (which total is
    better depends on the card: the card says high or low)."""
    game, _ = scripted_dice(draws)
    assert game.roll_with_edge(1, edge, lower_is_better=False) == kept
