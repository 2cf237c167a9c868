"""A `use:` step is tried only at the moments the real turn offers uses in the scenario's phase
(interpreter/tools/scenario.py PHASE_POINTS), checked against whole games; Phase 2 offers none."""

from __future__ import annotations

import functools
from collections import defaultdict
from pathlib import Path

import pytest
from click.testing import CliRunner

from ddaydice.dsl.loader import Content, load
from ddaydice.interpreter.cli import main
from ddaydice.interpreter.core.api import GameAPI
from ddaydice.interpreter.core.state import Unit
from ddaydice.interpreter.core.watching import Watching
from ddaydice.interpreter.game import Game
from ddaydice.interpreter.policies.registry import make_policy
from ddaydice.interpreter.tools.scenario import PHASE_POINTS, WITHIN_A_STEP


@functools.cache
def content() -> Content:
    loaded, diags = load(packs="all")
    assert loaded is not None, diags
    return loaded


class Points(Watching):
    """A watcher (core/api.py) noting the moments of uses each phase reaches."""

    def __init__(self, seen: dict[str, set[str]]) -> None:
        self.seen = seen

    def at_point(self, game: GameAPI, unit: Unit, point: str) -> None:
        self.seen[game.state.phase].add(point)


@pytest.mark.parametrize(("map_id", "variant", "options"), [
    ("exercise-tiger", "advanced-training", ("soldier-mulligan",)),
    ("omaha-beach", None, ("german-player", "battle-conditions")),
])
def test_the_turn_offers_uses_only_where_the_table_says(map_id: str, variant: str | None,
                                                        options: tuple[str, ...]) -> None:
    seen: dict[str, set[str]] = defaultdict(set)
    players = 2
    for seed in range(6):
        g = Game(content(), map_id, players=players, seed=seed, variant=variant, options=options,
                 deciders=[make_policy("random", seed + k) for k in range(players + 1)], watchers=[Points(seen)])
        g.run()
    for phase, points in seen.items():
        allowed = set(PHASE_POINTS[phase]) | set(WITHIN_A_STEP.get(phase, ()))
        assert points <= allowed, (phase, points - allowed)
    assert "upkeep" not in seen  # Phase 2 offers no use
    assert {"roll", "purchase", "movement", "combat"} <= set(seen)


SCENARIO = """\
scenario: "The Corporal's re-roll is played at the end of Phase 1, not in Upkeep"
map: exercise-tiger
variant: advanced-training
fallback: {fallback}
phase: {phase}
units:
  - {{id: u1, sector: s1, soldiers: 6, specialists: [corporal]}}
tally:
  u1: [one-soldier, one-soldier, courage, skull, star, star]
steps:
  - {{use: corporal, unit: u1{refused}}}
"""


def test_a_card_of_the_end_of_phase_one_is_refused_in_upkeep(tmp_path: Path) -> None:
    """Before, `phase: upkeep` offered the end-of-Phase-1 moment: the Corporal's re-roll was accepted in Upkeep."""
    upkeep = tmp_path / "upkeep.yaml"
    upkeep.write_text(SCENARIO.format(phase="upkeep", fallback="none", refused=", refused: timing"),
                      encoding="utf-8")
    roll = tmp_path / "roll.yaml"  # the die re-rolled: the reference policy chooses it
    roll.write_text(SCENARIO.format(phase="roll", fallback="reference", refused=""), encoding="utf-8")
    for path in (upkeep, roll):
        result = CliRunner().invoke(main, ["scenario", "run", str(path)])
        assert result.exit_code == 0, result.output
        assert result.output.startswith("PASS"), result.output
