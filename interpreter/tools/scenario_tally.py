"""A scenario's fixed Final Tallies (`tally:`) and the turn's Phase 1 they stand for: completed by a `phase: roll`
step, or skipped by a later phase run straight away (the warning SCEN008, when that skips a Final Tally's effect)."""

from __future__ import annotations

from typing import Any

from ddaydice.interpreter.core.values import PHASES
from ddaydice.interpreter.game import Game
from ddaydice.interpreter.tools.scenario_file import ScenarioFile


def keep_fixed_tallies(game: Game, sc: ScenarioFile) -> None:
    """A `phase: roll` step in the turn whose Final Tallies `tally:` gives completes that Phase 1 with them: no die
    is rolled or Locked (the tally is kept, as the Combat Photographer keeps one), then the Final Tally's effects
    (`on final-tally`: a Sector's bonus results) and the uses after it come, as in any turn."""
    for uid in sc.tally:
        unit = game.state.unit(uid)
        if unit.kept_tally is None:
            unit.kept_tally = list(unit.tally)


def fixed_tally_step(game: Game, sc: ScenarioFile, step: Any, turn: int | None) -> tuple[int | None, str]:
    """A step in the turn whose Final Tallies `tally:` gives (``turn``; None once it is past): a `phase: roll`
    completes that Phase 1 with them (:func:`keep_fixed_tallies`); a later phase run before it, whichever step of
    the scenario that is (the steps before it being uses, trades or anything that runs no phase), leaves it
    incomplete, and when that skips a Final Tally's effect (a Sector's 'on final-tally', a held card's), the
    warning SCEN008 says so and to add `phase: roll` first. A scenario that says it starts later (`phase: upkeep`,
    or an `at:` step past Phase 1) is not warned. Returns the turn still awaiting its Phase 1, and the warning."""
    if turn is None or not isinstance(step, dict):
        return turn, ""
    if step.get("at") in PHASES and step["at"] != "roll":
        return None, ""  # the scenario says it stands later in the turn
    if step.get("phase") not in PHASES:
        return turn, ""
    if game.state.turn not in (turn, 0):
        return None, ""
    if step["phase"] == "roll":
        keep_fixed_tallies(game, sc)
        return None, ""
    if sc.phase not in (None, "roll") or sc.phase_done:
        return None, ""  # the scenario starts after Phase 1
    ip = game.in_play()
    skipped: dict[str, None] = {}
    for uid in sc.tally:
        unit = game.state.unit(uid)
        here = ip.sector_triggers.get(unit.sector, {}).get("final-tally", []) if ip.sector_triggers else []
        held = [t for t in ip.held_triggers.get("final-tally", []) if t[1] is unit]
        skipped.update((t[0].name, None) for t in [*here, *held])
    if not skipped:
        return None, ""
    return None, (f"phase {step['phase']} runs before the Phase 1 of the fixed tally is completed: the Final "
                  f"Tally's effects of {', '.join(skipped)} never come; add '- phase: roll' before this step "
                  "(docs/scenarios.md, tally)")
