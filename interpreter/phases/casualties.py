"""Casualties: Soldiers and Specialists lost, Units wiped out."""

from __future__ import annotations

from typing import Any

from mypy_extensions import mypyc_attr, trait

from ddaydice.dsl.words.english import amount_of
from ddaydice.interpreter.core.api import GameAPI
from ddaydice.interpreter.core.precedence import Derivation
from ddaydice.interpreter.core.state import (
    Unit,
)


@trait
@mypyc_attr(allow_interpreted_subclasses=True)
class Casualties(GameAPI):
    """Casualties: Soldiers and Specialists lost, Units wiped out."""

    def soldier_count(self, unit: Unit) -> int:
        total = unit.soldiers
        for spec in unit.specialists:
            total += self.value("soldier-value", unit, card=spec)
        return total

    def suffer(self, unit: Unit, amount: int, cause: str) -> int:
        """Lose ``amount`` Soldiers (after protections), the player choosing Soldiers or Specialists; returns
        what could not be lost (another side's shortfall)."""
        if self.watchers:
            for w in self.watchers:
                w.suffering(self, unit, amount, cause)
        if amount <= 0 or unit.status == "dead" or (self.option_rules.automated_units and not unit.side):
            return 0  # an automated Unit keeps no Soldiers
        savers: Derivation | None = None
        if "casualties" in self.live_queries:
            after, savers = self.query("casualties", unit, base=amount, consume=True, explain=self.tracing)
            remaining = int(after)
        else:
            remaining = amount  # nothing in this game changes casualties (amount > 0: no clamp applies)
        if remaining < amount and self.tracing:
            spared = amount - remaining
            # who saved them: each effect that lowered the loss and was not overruled (the Medic, the Ambulance...)
            who = [s.source_name for s in savers.steps if s.after < s.before and s.overruled_by is None
                   and s.op != "clamp"] if savers is not None else []
            self.log("save", f"{unit.name} is spared {spared} {'casualty' if spared == 1 else 'casualties'}"
                     + (f": {', '.join(who)}" if who else ""), unit)
        outer, self.pending_casualties = self.pending_casualties, remaining  # outer: a loss this one happens within
        replaced = self.would("casualties", unit, self._casualties_left)
        remaining = self.pending_casualties
        self.pending_casualties = outer
        if replaced:
            return 0  # 'instead': the casualties are not suffered
        due, lost = remaining, 0
        told: list[str] = []  # what the Unit lost, as the trace tells it
        while remaining > 0 and self.soldier_count(unit) > 0:
            keys: list[Any] = []
            if unit.soldiers > 0:
                n = min(remaining, unit.soldiers)
                keys.append(("soldiers", n))
                if n > 1:
                    keys.append(("soldiers", 1))
            for spec in unit.specialists:
                keys.append(("specialist", spec))
            pick = self.ask_keys(unit, "casualty", _CasualtyPrompt(unit, remaining, cause), keys,
                                 _CasualtyLabel(self, unit), remaining)
            what, arg = keys[pick]
            if what == "soldiers":
                unit.soldiers -= arg
                remaining -= arg
                lost += arg
                told.append(amount_of(arg, "soldiers"))
            else:
                v = self.value("soldier-value", unit, card=arg)
                self.lose_specialist(unit, arg, forced=False, casualty=True)
                remaining -= v
                lost += v
                told.append(f"the {self._name_of(arg)}" + (f" (counts as {v})" if v != 1 else ""))
        if self.tracing:
            self.log("casualties", _losses_text(unit, told, lost, due, cause), unit, lost=lost, cause=cause)
        if unit.side:
            # Another side's player is not wiped out ("you do not lose the game!"), unless the game's rules
            # say so (solitaire Atlantikwall: options' setting side-loses-at-zero).
            if self.soldier_count(unit) <= 0 and self.option_rules.side_loses_at_zero:
                self.end("won", f"{unit.name} has no Soldier left ({cause})")
            return max(remaining, 0)
        if self.tracing:
            self.state.log[-1].data["sector"] = unit.sector
        self.state.deaths.append({"unit": unit.id, "sector": unit.sector, "lost": lost, "turn": self.state.turn})
        if self.soldier_count(unit) <= 0:
            self.wipe_out(unit, f"wiped out ({cause})")
        return 0

    def _casualties_left(self) -> bool:
        return self.pending_casualties > 0

    def lose_specialist(self, unit: Unit, spec: str, *, forced: bool, casualty: bool = False) -> None:
        if spec not in unit.specialists:
            return
        if forced:
            self._decoy = None
            self._losing = spec
            replaced = self.would("specialist-lost", unit)
            spec = self._take_decoy() or spec
            self._losing = None
            if replaced:
                return  # 'instead': the Specialist is not lost
        back = "back-to-pool" in self.live_queries and self.flag("back-to-pool", unit, card=spec, use=True)
        unit.specialists.remove(spec)
        self.sources_changed()
        if back:
            self.state.pool.append(spec)  # a card that returns to the Pool when lost (the Zwangsrekrut)
        else:
            unit.dead.append(spec)
        if self.tracing:
            self.log("specialist-lost", f"{unit.name} loses the {self._name_of(spec)}"
                     + (" (back to the Pool)" if back else ""), unit, spec)
        if unit.side and self.option_rules.side_loses_at_zero and self.soldier_count(unit) <= 0:
            self.end("won", f"{unit.name} has no Soldier left")  # "at any moment" (solitaire Atlantikwall)
        elif not (casualty or unit.side or self.option_rules.automated_units) and unit.status == "active" \
                and self.soldier_count(unit) <= 0:
            # ruling 5.8: a Unit that sacrifices its last man (no Soldier, no other Specialist) is wiped out, as by
            # casualties ("A player has no more Soldiers including Specialists"); casualties check it themselves.
            self.wipe_out(unit, "wiped out (it sacrificed its last man)")

    def _take_decoy(self) -> str | None:
        decoy, self._decoy = self._decoy, None
        return decoy

    def sacrifice_choice(self, unit: Unit, prompt: str) -> None:
        if not unit.specialists:
            return
        i = self.ask_one(unit, "sacrifice", f"{unit.name}: {prompt}",
                         [self._name_of(s) for s in unit.specialists], list(unit.specialists))
        self.lose_specialist(unit, unit.specialists[i], forced=True)

    def wipe_out(self, unit: Unit, why: str) -> None:
        unit.status = "dead"
        self.sources_changed()
        self.state.deaths.append({"unit": unit.id, "sector": unit.sector, "wiped": True, "turn": self.state.turn})
        if self.tracing:
            self.log("wiped-out", f"{unit.name} is {why}", unit)
        if not self._continue_after_loss():
            self.end("lost", f"{unit.name} is {why}")


def _losses_text(unit: Unit, told: list[str], lost: int, due: int, cause: str) -> str:
    """What a Unit lost to casualties, as the trace tells it: the Soldiers and the Specialists, and the casualties
    they paid when that is fewer than they count for (a Specialist counting as 6 lost for 4: ruling 5.4)."""
    what = " and ".join(told) if told else "nothing"
    paid = min(lost, due)
    if lost > due or (told and len(told) > 1):
        what += f" for {paid} {'casualty' if paid == 1 else 'casualties'}"
    return f"{unit.name} loses {what} ({cause})"


# A casualty's question and its options in words, made only if somebody reads them: small native objects, where
# functools.partial over a bound method cost a Practice Run game about 3% of its instructions.
class _CasualtyPrompt:
    def __init__(self, unit: Unit, remaining: int, cause: str) -> None:
        self.unit = unit
        self.remaining = remaining
        self.cause = cause

    def __call__(self) -> str:
        return f"{self.unit.name} must lose {self.remaining} more ({self.cause})"


class _CasualtyLabel:
    def __init__(self, game: GameAPI, unit: Unit) -> None:
        self.game = game
        self.unit = unit

    def __call__(self, key: tuple[str, Any]) -> str:
        what, arg = key
        if what == "soldiers":
            return f"lose {arg} Soldier{'s' if arg > 1 else ''}"
        return (f"lose the {self.game._name_of(arg)} "
                f"(counts as {self.game.value('soldier-value', self.unit, card=arg)})")
