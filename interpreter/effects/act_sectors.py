"""Actions on Sectors and positions, and modifiers granted for a while."""

from __future__ import annotations

from typing import cast

from mypy_extensions import trait

from ddaydice.dsl.compile import EffectContext, ModifierHook
from ddaydice.interpreter.core.state import (
    Grant,
)
from ddaydice.interpreter.effects.context import ContextBase


@trait
class SectorActions(ContextBase):
    """Actions on Sectors and positions, and modifiers granted for a while."""

    __slots__ = ()

    def swap_sectors(self) -> None:
        g = self.game
        u = self._me()
        others = [o for o in g.state.active_units() if o is not u]
        if not others:
            return
        i = g.ask_one(u, "choose", f"{self.source.name}: switch Sectors with which Unit?", [o.name for o in others],
                      topic="switch-with")
        o = others[i]
        u.sector, o.sector = o.sector, u.sector
        for x in (u, o):
            if x.sector in x.visited:
                x.visited.remove(x.sector)
            x.visited.append(x.sector)

    def become(self, attribute: str) -> None:
        sec = self.game.state.sectors[self.sector or self._me().sector]
        if attribute not in sec.attributes:
            sec.attributes.append(attribute)
            self.game.state.play_order += 1
            sec.acquired[attribute] = self.game.state.play_order
            self.game.sources_changed()
            if self.game.tracing:
                self.game.log("attribute", f"{self.game.sectors[sec.id].name} becomes '{attribute}'", self.unit)

    def roll_attribute(self, table: str) -> None:
        g = self.game
        tab = next(t for t in g.map.tables if t.id == table)
        roll = g.d6()
        if g.tracing:
            g.log("attribute-roll", f"rolled {roll} on {tab.name}", self.unit)
        # The roll can be changed before its attribute is taken (Sword Beach: "Binoculars can be used to change
        # the result of the roll"), at the moment any roll can (ruling 10.7).
        if self.unit is not None:
            roll = g.after_roll(self.unit, tab.name, [roll])[0]
        self.become(tab.results[roll - 1])

    def retreat(self, sector: str) -> None:
        g = self.game
        u = self._me()
        if sector in u.visited or u.moved_turn == g.state.turn:
            return
        # ruling: a retreat is the Unit's move of the turn and a new stay in that Sector.
        u.sector = sector
        u.visited.append(sector)
        u.marker = "cant-stay" if g.sectors[sector].black else "chevron-1"
        u.moved_turn = g.state.turn
        u.entered_turn = g.state.turn
        if g.tracing:
            g.log("retreat", f"{u.name} retreats to {g.sectors[sector].name}", u)

    def win(self) -> None:
        u = self._me()
        u.entered_turn = self.game.state.turn

    def reset_marker(self) -> None:
        self._me().marker = "chevron-1"

    def grant(self, modifier: ModifierHook, duration: str, recipient: str | None) -> None:
        g = self.game
        s = g.state
        me = self._me()
        if duration.startswith("until:"):  # until the event next happens to the Unit that grants it
            expires = f"{duration}:{me.id}"
        else:
            expires = {"this-turn": f"turn:{s.turn}", "next-turn": f"turn:{s.turn + 1}",
                       "this-phase": f"phase:{s.turn}:{s.phase}", "permanently": "never"}[duration]
        info = g.queries.get(modifier.query)
        value = modifier.value(cast("EffectContext", self)) if modifier.value is not None else None
        args = tuple(str(a) for a in modifier.args)
        s.play_order += 1
        targets: list[tuple[str | None, str | None]]
        if recipient == "adjacent-sector":
            # ruling: adjacent = joined by a line, whichever way it is crossed (a Sector behind is adjacent too).
            near = sorted({to for to, *_ in g.moves[me.sector]}
                          | {a for a, outs in g.moves.items() if any(to == me.sector for to, *_ in outs)})
            near = [n for n in near if modifier.condition is None or
                    modifier.condition.holds(g.context(me, self.owner, self.source, n))]
            if not near:
                return
            i = g.ask_one(me, "choose", f"{self.source.name}: which adjacent Sector?",
                          [g.sectors[n].name for n in near], near, topic="adjacent-sector")
            targets = [(None, near[i])]
        elif info is not None and info.subject == "sector":
            # A Sector's value: the granter's Sector; another side's player, who stands in none, changes the
            # Sectors of the Units his effect reaches ('to all units').
            targets = [(None, me.sector)] if me.sector else [
                (None, sid) for sid in sorted({u.sector for u in self._recipients(recipient) if u.sector})]
        else:
            targets = [(u.id, None) for u in self._recipients(recipient)
                       if modifier.condition is None
                       or modifier.condition.holds(g.context(u, self.owner, self.source, u.sector))]
        for unit_id, sector in targets:
            s.grants.append(Grant(self.source.owner, 0, self.source.tier, modifier.query, modifier.op, value, args,
                                  modifier.text, expires, unit_id, sector, s.play_order,
                                  self.owner.id if self.owner is not None else None))
        if g.tracing:
            g.log("grant", f"{self.source.name}: {modifier.text} ({duration})", me, self.source.owner, self.source.tier)
