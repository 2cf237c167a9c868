"""Phase 1, Roll: dice rolled, Locked and re-rolled into the Final Tally; the Lieutenant's dice trade."""

from __future__ import annotations

import attrs
from mypy_extensions import mypyc_attr, trait

from ddaydice.interpreter.core.api import GameAPI
from ddaydice.interpreter.core.decisions import Decision
from ddaydice.interpreter.core.state import (
    Die,
    Unit,
)
from ddaydice.interpreter.core.values import die_label
from ddaydice.interpreter.mechanisms.options import pool_trade

_REROLL_PROMPTS = ("", "second roll: re-roll which dice (Locked dice stay)?",
                   "third and last roll: re-roll which dice (Locked dice stay)?")


@trait
@mypyc_attr(allow_interpreted_subclasses=True)
class RollPhase(GameAPI):
    """Phase 1, Roll: dice rolled, Locked and re-rolled into the Final Tally; the Lieutenant's dice trade."""

    def phase_roll(self) -> None:
        sides = self.side_players() if self.state.sides else []
        for unit in sides + self.acting():
            self.roll_for(unit)
        for unit in sides + self.acting():
            self.fire("final-tally", unit)
        for unit in sides:
            self.use_point(unit, "after-final-tally")
        for unit in self.acting():
            self.lieutenant_trade(unit)
            self.use_point(unit, "after-final-tally")

    def roll_for(self, unit: Unit) -> None:
        if unit.kept_tally is not None:
            unit.tally = [attrs.evolve(d, cancelled=False) for d in unit.kept_tally]
            unit.kept_tally = None
            if self.tracing:
                self.log("roll", f"{unit.name} rolls no dice: its Final Tally is kept as it lay", unit)
            return
        faces = self._faces
        n = self.value("dice-rolled", unit)
        rng = self.rng
        random = rng.random
        layout = self._side_layout[unit.side] if unit.side else self._layout
        if n >= len(layout):
            dice = [Die(faces[int(random() * 6)], c, idx) for idx, c in layout]
        else:
            # ruling: when fewer dice are rolled, the player chooses which dice sit out (one per missing die),
            # before rolling; the dice that sit out are not rolled at all.
            dice = [Die("", c, idx) for idx, c in layout]
            per = self.content.dice.dice_per_colour
            out = self.ask(unit, Decision("aside", unit.id, f"{unit.name} rolls only {n} dice: which sit out?",
                                          tuple(f"{d.colour} {d.index % per + 1}" for d in reversed(dice)),
                                          tuple(d.index for d in reversed(dice)), len(dice) - n,
                                          len(dice) - n))
            drop = {len(dice) - 1 - i for i in out}
            dice = [d for d in dice if d.index not in drop]
            for d in dice:
                d.face = faces[int(random() * 6)]
        if ("after", "first-roll") in self.live_windows:
            unit.tally = dice  # uses 'after first-roll' read and change the first roll (Soldier Mulligan)
            self.use_point(unit, "after-first-roll")
        unit.tally = dice  # the dice on the table while rolling (what a player at the terminal is shown)
        locks = min(self.value("locked-dice", unit), len(dice))
        if locks:
            picked = self.pick(unit, "lock", "Lock dice (Locked dice are never re-rolled)",
                               tuple([(d.index, d.face, d.colour) for d in dice]), locks, locks, die_label)
            for i in picked:
                dice[i].locked = True
        rolls = self.value("rolls", unit)
        for r in range(1, rolls):
            skulls_ok = self.flag("reroll-skull", unit)
            free = [d for d in dice if not d.locked and (skulls_ok or d.face != "skull")]
            if not free:
                break
            picked = self.pick(unit, "reroll", _REROLL_PROMPTS[r] if r < 3 else "re-roll which dice?",
                               tuple([(d.index, d.face, d.colour) for d in free]), 0, len(free), die_label)
            skull = False
            for i in picked:
                skull = skull or free[i].face == "skull"
                free[i].face = faces[int(random() * 6)]
            if skull:  # a re-roll of Skulls uses the permission (a limit on it counts it)
                self.flag("reroll-skull", unit, use=True)
        unit.tally = dice
        if self.tracing:
            self.log("tally", f"{unit.name}'s Final Tally: " + ", ".join(
                f"{d.colour} {d.face}{' (locked)' if d.locked else ''}" for d in dice), unit)

    def lieutenant_trade(self, unit: Unit) -> None:
        if not self.flag("dice-trade", unit) or unit.counters.get(f"dicetrade@{self.state.turn}"):
            return
        partners = [u for u in self.state.active_units() if u is not unit
                    and not u.counters.get(f"dicetrade@{self.state.turn}")]
        if not partners:
            if self.option_rules.trading_pool:
                pool_trade(self, unit)  # nobody to trade with: an option's Trading Pool (solitaire)
            return
        options = ["no trade"] + [f"trade a die with {u.name}" for u in partners]
        pick = self.ask_one(unit, "dice-trade", f"{unit.name}: trade 1 die with another Unit (Lieutenant)?",
                            options, [None] + [u.id for u in partners])
        if pick == 0:
            return
        other = partners[pick - 1]
        mine = [d for d in unit.tally if d.real]
        theirs = [d for d in other.tally if d.real]
        a = self.ask_one(unit, "dice-trade", "give which die?", [f"{d.colour} {d.face}" for d in mine])
        b = self.ask_one(other, "dice-trade", f"{other.name}: give which die to {unit.name}?",
                         [f"{d.colour} {d.face}" for d in theirs])
        da, db = mine[a], theirs[b]
        # ruling 1.12: a Lock is the roller's; a die changes hands unlocked, as every die taken from another does
        unit.tally[unit.tally.index(da)] = attrs.evolve(db, locked=False)
        other.tally[other.tally.index(db)] = attrs.evolve(da, locked=False)
        self.flag("dice-trade", unit, use=True)  # the trade uses the permission (a limit on it counts it)
        unit.counters[f"dicetrade@{self.state.turn}"] = 1
        other.counters[f"dicetrade@{self.state.turn}"] = 1
        if self.tracing:
            self.log("dice-trade", f"{unit.name} gives {da.colour} {da.face} to {other.name} for {db.colour} "
                     f"{db.face}", unit)
