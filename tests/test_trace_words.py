"""What the trace (`dday scenario run --trace`) tells a rule lawyer, in order: a roll before what it decides, the card
that saved a loss, a refusal and why, a card played with nothing to act on. Each test runs a scenario of
tests/scenarios and reads its game's trace."""

from __future__ import annotations

from pathlib import Path

from ddaydice.dsl.loader import load
from ddaydice.interpreter.core.state import Event
from ddaydice.interpreter.tools.scenario import run as scenario_run
from ddaydice.interpreter.tools.scenario_file import load_scenario

SCENARIOS = Path(__file__).parent / "scenarios"


def trace_of(name: str, text: str | None = None) -> list[Event]:
    """The trace of a scenario of tests/scenarios (run as written, which must pass), or of ``text`` given for it."""
    content, diags = load()
    assert content is not None, diags
    path = SCENARIOS / name
    loaded, problems = load_scenario(path, content, text)
    assert loaded is not None, problems
    result, game = scenario_run(loaded[0], content, str(path), trace=True, doc=loaded[1])
    assert result.passed and game is not None, result
    return list(game.state.log)


def details(events: list[Event]) -> list[str]:
    return [e.detail for e in events]


def test_a_random_attribute_is_told_after_its_roll_and_its_change() -> None:
    """Sword Beach, Sector 11: the roll, then the Binoculars' change, then the attribute the changed die gives (the
    attribute was told before the roll, and taken from the unchanged die)."""
    lines = details(trace_of("rulings/binoculars-on-a-random-attribute-roll.yaml"))
    rolled = lines.index("rolled 1 on Random Attributes (Sector 11)")
    changed = lines.index("Unit 1 changes the Random Attributes (Sector 11) die from 1 to 4")
    becomes = lines.index("Sector 11 becomes 'artillery-barrage'")
    assert rolled < changed < becomes
