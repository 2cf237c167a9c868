"""Phase 5, Combat: MGF rolled, DEF and MGF suffered, Bunkers conquered, another side's Assault."""

from __future__ import annotations

from mypy_extensions import mypyc_attr, trait

from ddaydice.interpreter.core.api import GameAPI
from ddaydice.interpreter.core.state import (
    Unit,
)


@trait
@mypyc_attr(allow_interpreted_subclasses=True)
class CombatPhase(GameAPI):
    """Phase 5, Combat: MGF rolled, DEF and MGF suffered, Bunkers conquered, another side's Assault."""

    def phase_combat(self) -> None:
        if self.state.sides:
            # Another side's players fight first: their cards, then their casualties (whose shortfall
            # lowers the DEF the Units suffer this turn).
            for player in self.side_players():
                self.use_point(player, "before-mgf")
                self.side_casualties(player)
        by_sector: dict[str, list[Unit]] = {}
        for unit in self.order():
            by_sector.setdefault(unit.sector, []).append(unit)
        # Every Unit may play its "before MGF is rolled" cards before any MGF is rolled (a Mortar can
        # silence a neighbouring Sector whose Combat comes first).
        if "before-mgf" in self.live_points:
            for units in by_sector.values():
                for unit in units:
                    self.use_point(unit, "before-mgf")
            # ruling 5.9: a Unit that changed Sector before MGF (the War Correspondent's switch) fights where it
            # now stands; the order of the Units is kept.
            regrouped: dict[str, list[Unit]] = {}
            for units in by_sector.values():
                for unit in units:
                    regrouped.setdefault(unit.sector, []).append(unit)
            by_sector = regrouped
        for sector, units in by_sector.items():
            if self.state.outcome is not None:
                return
            n = self.value("mgf-dice", units[0], sector=sector)
            rolls = self.roll_with_edge(n, self.value("mgf-edge", units[0], sector=sector)) if n else []
            if rolls and self.tracing:
                self.log("mgf", f"MGF in {self.sectors[sector].name}: {rolls}", None, rolls=rolls)
            self.state.sectors[sector].mgf_roll = rolls
            self.state.sectors[sector].mgf_turn = self.state.turn
            for unit in units:
                self.use_point(unit, "after-mgf")
                self.trade(unit)
            rolls = self.state.sectors[sector].mgf_roll or []
            for unit in units:
                if unit.status != "active":
                    continue
                self.fire("combat", unit)
                if unit.status != "active":
                    continue
                if self.option_rules.automated_units:
                    self.automated_combat(unit)
                    continue
                self.combat(unit, rolls)
        self.resolve_bunkers()

    def automated_combat(self, unit: Unit) -> None:
        """An automated Unit suffers nothing; an MGF another side's rules switch off in its Sector hits that
        side's player instead, Special Damage included (solitaire Atlantikwall: "If the Allies are in a Sector
        with an inactive MGF, you must roll the MGF and suffer the losses yourself")."""
        printed = 0 if "mgf" in self.ignore else self.sectors[unit.sector].mgf
        if not printed or self.value("mgf-dice", unit) > 0:
            return
        special = self.sectors[unit.sector].special_damage or self.map.special_damage
        src = self.content.effects.get(f"special-damage:{special}") if special and special != "none" else None
        for player in self.side_players():
            rolls = [self.d6() for _ in range(printed)]
            if self.tracing:
                self.log("mgf", f"inactive MGF in {self.sectors[unit.sector].name}: {player.name} rolls {rolls}",
                         player, rolls=rolls)
            for _ in range(sum(1 for r in rolls if r == 6) if src is not None else 0):
                self.fire("combat", player, only=src)
            self.suffer(player, sum(rolls), f"inactive MGF in {self.sectors[unit.sector].name}")

    def side_casualties(self, player: Unit) -> None:
        """A side's casualties in Combat (rules/sides.yaml ``casualties``). ``highest-occupied-def``: the
        highest DEF among the Sectors the Units occupy, as printed for the Unit there (no card, attribute or
        condition changes it: "you ignore the attributes and conditions of all Sectors"); what the player
        cannot lose is the shortfall, which lowers every Sector's DEF for the Units this turn."""
        how = self.side_defs[player.side].casualties
        units = self.state.active_units()
        if how != "highest-occupied-def" or not units:
            return
        worst, where = max((int(self._base("def", u, u.sector, None)[0]), u.sector) for u in units)
        short = self.suffer(player, worst, f"Combat: DEF {worst} of {self.sectors[where].name}")
        if short:
            self.state.shortfall += short
            if self.tracing:
                self.log("shortfall", f"{player.name} is {short} Soldier(s) short: the DEF of every Sector is "
                         f"lowered by {short} for the Units this turn", player, shortfall=short)

    def combat(self, unit: Unit, rolls: list[int]) -> None:
        sector = unit.sector
        if self.state.shortfall:
            # Another side's missing Soldiers lower the DEF; below 0, each Unit there gains the difference.
            raw = int(self.query("def", unit, clamp=False)[0])
            if raw < 0:
                unit.soldiers -= raw
                if self.tracing:
                    self.log("gain", f"{unit.name} gains {-raw} Soldiers (the DEF falls to {raw})", unit,
                             resource="soldiers", amount=-raw)
            defense = max(raw, 0)
        else:
            defense = self.value("def", unit)
        mgf = 0
        for r in rolls:  # (a loop: compiled, sum() is a generic call)
            mgf += r
        if mgf and self.flag("ignore-mgf-casualties", unit, use=True):
            if self.tracing:
                self.log("combat", f"{unit.name} ignores MGF casualties", unit)
            mgf = 0
        sixes = rolls.count(6)
        special = self.sectors[sector].special_damage or self.map.special_damage
        # ruling 5.3: Special Damage comes on top of the MGF casualties, and an effect that ignores those ignores
        # it only when it says so (the Flak Vest: "Special Damage is also ignored"; the Tank ignores it alone)
        if sixes and special and special != "none" and "special-damage" not in self.ignore \
                and self.flag("special-damage", unit) and not self.flag("ignore-special-damage", unit, use=True):
            self.flag("special-damage", unit, use=True)
            src = self.content.effects.get(f"special-damage:{special}")
            for _ in range(sixes):
                if src is not None:
                    self.fire("combat", unit, only=src)
        if self.tracing:
            self.log("combat", f"{unit.name} suffers DEF {defense} + MGF {mgf}", unit, defense=defense, mgf=mgf)
        self.suffer(unit, defense + mgf, f"Combat in {self.sectors[sector].name}")

    def resolve_bunkers(self) -> None:
        s = self.state
        entered: dict[str, list[Unit]] = {}
        for unit in s.active_units():
            if self.sectors[unit.sector].bunker and unit.entered_turn == s.turn:
                entered.setdefault(unit.sector, []).append(unit)
        if s.sides and self.option_rules.automated_units:
            # No Assault against an automated Unit: its attack on a final Bunker ends the game, which the other
            # side wins if still standing ("the objective is to survive the Allies attacking the Bunker").
            for bunker, units in entered.items():
                if self.sectors[bunker].objective and units:
                    self.end("lost", f"{units[0].name} attacked {self.sectors[bunker].name}: the "
                             f"{self.side_players()[0].name if self.side_players() else 'other side'} held it")
                    return
        elif s.sides:
            entered = self.assaults(entered)
        for bunker, units in entered.items():
            leaving: list[Unit] = []
            for unit in units:
                unit.conquered = bunker
                s.conquests.append({"unit": unit.id, "bunker": bunker, "turn": s.turn})
                if bunker not in s.conquered:
                    s.conquered.append(bunker)
                if s.first_bunker_turn is None:
                    s.first_bunker_turn = s.turn
                if self.flag("remain-in-play", unit) and self._wants_to_remain(unit):
                    self.flag("remain-in-play", unit, use=True)
                    unit.marker = "chevron-1"
                    if self.tracing:
                        self.log("bunker", f"{unit.name} conquers {self.sectors[bunker].name} and remains in play",
                                 unit)
                    continue
                unit.status = "safe"
                self.sources_changed()
                leaving.append(unit)
                if self.tracing:
                    self.log("bunker", f"{unit.name} is safe in {self.sectors[bunker].name} with "
                             f"{len(unit.specialists)} Specialist(s)", unit)
            # ruling: Units entering together do not benefit from each other's Specialists.
            s.bunker_specialists[bunker] = s.bunker_specialists.get(bunker, 0) + sum(
                len(u.specialists) for u in leaving)

    def assaults(self, entered: dict[str, list[Unit]]) -> dict[str, list[Unit]]:
        """Another side's Assault (rules/sides.yaml ``assault``; Atlantikwall's Phase 7) against every Unit that
        entered a final Bunker this turn, one Unit at a time in the order the Units choose (two Bunkers entered
        together count as one). Returns the Bunkers entered where no Assault is fought."""
        player = next((p for p in self.side_players() if self.side_defs[p.side].assault is not None), None)
        if player is None:
            return entered
        assault = self.side_defs[player.side].assault
        assert assault is not None
        units = [u for b, us in entered.items() if self.sectors[b].objective for u in us]
        rest = {b: us for b, us in entered.items() if not self.sectors[b].objective}
        self.state.phase = "assault"
        while units and self.state.outcome is None:
            i = self.ask_keys(units[0], "assault", f"{assault.name}: which Unit faces the {player.name} first?",
                              [u.id for u in units], lambda uid: self.state.unit(uid).name)
            unit = units.pop(i)
            mine, theirs = self.soldier_count(unit), self.soldier_count(player)
            if mine != theirs:
                wins = mine > theirs
                why = f"{mine} Soldiers against {theirs}"
            elif len(unit.specialists) != len(player.specialists):
                wins = len(unit.specialists) > len(player.specialists)
                why = (f"{mine} Soldiers each; {len(unit.specialists)} Specialists against "
                       f"{len(player.specialists)}")
            else:
                wins = assault.ties == "units"
                why = f"{mine} Soldiers and {len(unit.specialists)} Specialists each: the tie goes to " + (
                    "the Units" if wins else f"the {player.name}")
            if self.tracing:
                self.log("assault", f"{assault.name}: {unit.name} against the {player.name}: {why}; "
                         f"{unit.name if wins else 'the ' + player.name} wins", unit, won=wins)
            if wins:
                unit.conquered = unit.sector
                self.state.conquests.append({"unit": unit.id, "bunker": unit.sector, "turn": self.state.turn})
                self.end("won", f"{unit.name} wins the Assault of {self.sectors[unit.sector].name} ({why})")
                return {}
            unit.status = "dead"
            self.sources_changed()
            self.state.deaths.append({"unit": unit.id, "sector": unit.sector, "wiped": True,
                                      "turn": self.state.turn})
            if not self.state.active_units():
                self.end("lost", f"{unit.name} is destroyed in the Assault ({why})")
                return {}
            src = self.content.effects.get(f"side:{player.side}/assault")
            if src is not None:
                self.fire("assault-won", player, only=src)
        return rest

    def _wants_to_remain(self, unit: Unit) -> bool:
        """A Unit allowed to stay in play after conquering a Bunker chooses (Gold solitaire, Deadstick)."""
        unconquered = [b for b in self.sectors.values() if b.bunker and b.objective and b.id not in
                       self.state.conquered]
        others = [u for u in self.state.active_units() if u is not unit]
        keys = ["leave", "remain"]
        if unconquered and not others:
            keys = ["remain", "leave"]
        pick = self.ask_keys(unit, "remain", f"{unit.name} has conquered {self.sectors[unit.sector].name}: remain "
                             "in play (to go on to another Bunker) or leave play, safe?", keys,
                             lambda k: {"remain": "remain in play", "leave": "leave play, safe in the Bunker"}[k])
        return keys[pick] == "remain"
