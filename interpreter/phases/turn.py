"""The turn: the five phases in order, the tie order of the players, the end of a turn and of the game."""

from __future__ import annotations

from mypy_extensions import mypyc_attr, trait

from ddaydice.dsl.diagnostics import RuleError
from ddaydice.interpreter.core.api import GameAPI
from ddaydice.interpreter.core.state import (
    Unit,
)
from ddaydice.interpreter.core.values import MAX_TURNS, PHASES, TURN_LIMIT_REASON, Paused
from ddaydice.interpreter.mechanisms import decks

_LAST = PHASES[-1]


@trait
@mypyc_attr(allow_interpreted_subclasses=True)
class Turn(GameAPI):
    """The turn: the five phases in order, the tie order of the players, the end of a turn and of the game."""

    def run(self, max_turns: int = MAX_TURNS) -> str:
        while self.state.outcome is None:
            if self.out_of_turns(max_turns):
                break
            self.run_turn()
        self.finish()
        return self.state.outcome or "lost"

    def out_of_turns(self, max_turns: int = MAX_TURNS) -> bool:
        """Whether the game has had its turns: then it is lost ("no result after 60 turns"), before another."""
        if self.state.turn >= max_turns:
            self.end("lost", TURN_LIMIT_REASON.format(max_turns))
            return True
        return False

    def finish(self) -> None:
        """The game has ended: its watchers hear it (an invariant checked at the end)."""
        for w in self.watchers:
            w.game_ends(self)

    def set_out(self) -> None:
        """The start of the first turn, before the 'game-start' triggers: the starting Sectors chosen, and the
        watchers told (cards forced into the game are given then: tools/forced.py)."""
        self.choose_starts()
        for w in self.watchers:
            w.starts_chosen(self)

    def run_turn(self) -> None:
        s = self.state
        if s.turn == 0:
            self.set_out()
            self.fire_moment("game-start")
        self.begin_turn()
        pause = self.pause_after
        for phase in PHASES:
            if s.outcome is not None:
                return
            self.run_phase(phase)
            if pause is not None and pause == (s.turn, phase) and phase != _LAST:
                raise Paused
        self.end_of_turn()
        if pause is not None and pause == (s.turn, _LAST):
            raise Paused

    def begin_turn(self) -> None:
        """A new turn: its number, the limits of a turn made afresh, its start heard ('on turn-start'; what lasts
        'until turn-start' ends), then an expansion's start-of-turn draws: the cards in play since the last turn's
        draw hear the start, the cards drawn for the new turn come after it."""
        s = self.state
        s.turn += 1
        s.shortfall = 0
        for u in self.players():
            u.recruited = 0
            u.found = 0
            u.awards_drawn = 0
        s.phase = "turn-start"
        self.fire_moment("turn-start")
        if s.decks:
            decks.start_of_turn(self)  # an expansion's cards drawn before the first phase (Battle Conditions)

    def run_phase(self, phase: str) -> None:
        watchers = self.watchers
        if watchers:  # (a test before the loop: no iterator made for a game with none)
            for w in watchers:
                w.phase_begins(self, phase)
        self.state.phase = phase
        match phase:  # each phase's method called directly (a compiled call, not a look-up by name)
            case "roll":
                self.phase_roll()
            case "upkeep":
                self.phase_upkeep()
            case "purchase":
                self.phase_purchase()
            case "movement":
                self.phase_movement()
            case "combat":
                self.phase_combat()
            case _:
                raise RuleError(f"no phase '{phase}' (the phases: {', '.join(PHASES)})")
        if self.state.grants:
            self._expire("phase")
        if watchers:
            for w in watchers:
                w.phase_ends(self, phase)

    def players(self) -> list[Unit]:
        """Every player: the Units, then the players of other sides (who are not Units)."""
        if not self.state.sides:
            return self.state.units
        return self.state.units + self.state.sides

    def side_players(self) -> list[Unit]:
        """Players of other sides still in the game; they act before the Units in each phase (ruling: the
        German "decides what happens first")."""
        return [p for p in self.state.sides if p.status == "active"]

    def order(self) -> list[Unit]:
        """Simultaneous actions in tie order: fewer Soldiers first, then Unit number."""
        units = self.state.units
        if len(units) == 1:
            return [units[0]] if units[0].status == "active" else []
        return sorted(self.state.active_units(), key=lambda u: (self.soldier_count(u), u.id))

    def acting(self) -> list[Unit]:
        """The Units that roll, keep resources and buy: none when the Units are automated."""
        return [] if self.option_rules.automated_units else self.order()

    def end_of_turn(self) -> None:
        self._expire("turn")
        s = self.state
        if s.outcome is not None:
            return
        if not any(u.status == "active" for u in s.units):
            if not any(u.status == "safe" for u in s.units):
                self.end("lost", "no Unit reached the objective")
                return
            missed = self._objectives_missed()
            if not missed:
                self.end("won", "every surviving Unit is safe in a Bunker")
            else:
                self.end("lost", f"{' and '.join(missed)} {'was' if len(missed) == 1 else 'were'} never conquered")

    def _objectives_missed(self) -> list[str]:
        """The names of the objective Bunkers nobody conquered (Gold Beach: "both Bunkers need to be conquered by
        at least 1 Unit", whatever the number of players; docs/optional-rules.md ruling 6)."""
        return [s.name for s in self.map.sectors if s.bunker and s.objective and s.id not in self.state.conquered]

    def end(self, outcome: str, reason: str) -> None:
        if self.state.outcome is None:
            self.state.outcome = outcome
            self.state.reason = reason
            if self.tracing:
                self.log("end", f"the game is {outcome}: {reason}", None)

    def _expire(self, period: str) -> None:
        s = self.state
        if period == "phase" and not s.grants:
            return
        if period == "turn":
            if s.grants:
                s.grants = [g for g in s.grants if g.expires == "never" or g.expires.startswith("until:") or
                            (g.expires.startswith("turn:") and int(g.expires[5:]) > s.turn)]
            for u in self.players():
                if u.counters:
                    u.counters = {k: v for k, v in u.counters.items() if "@t" not in k or k.endswith("@g")}
        else:
            s.grants = [g for g in s.grants if not g.expires.startswith("phase:")]

    def _continue_after_loss(self) -> bool:
        # Exercise Tiger's training variants: "If a Unit is killed along the way, the other players must continue".
        return self.variant is not None and self.variant.continue_after_loss and \
            bool(self.state.active_units())
