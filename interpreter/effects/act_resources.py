"""Actions on resources: gains, losses, Courage or Stars spent to save Soldiers, splits of a roll."""

from __future__ import annotations

from mypy_extensions import trait

from ddaydice.dsl.words.english import amount_of
from ddaydice.interpreter.effects.context import ContextBase


@trait
class ResourceActions(ContextBase):
    """Actions on resources: gains, losses, Courage or Stars spent to save Soldiers, splits of a roll."""

    __slots__ = ()

    def gain(self, resource: str, amount: int, recipient: str | None) -> None:
        attr = resource.replace("-", "_")
        for u in self._recipients(recipient):
            if self.game.option_rules.automated_units and not u.side:
                continue  # an automated Unit keeps no resources
            setattr(u, attr, getattr(u, attr) + amount)
            if self.game.tracing:
                self.game.log("gain", f"{u.name} gains {amount_of(amount, resource)}", u, self.source.owner,
                              self.source.tier, resource=resource, amount=amount)

    def lose(self, resource: str, amount: int, recipient: str | None) -> None:
        attr = resource.replace("-", "_")
        for u in self._recipients(recipient):
            if attr == "soldiers":
                self.game.suffer(u, amount, self.source.name)
                continue
            if self.game.option_rules.automated_units and not u.side:
                continue  # an automated Unit keeps no resources
            have = getattr(u, attr)
            setattr(u, attr, max(0, have - amount))
            if self.game.tracing:
                self.game.log("lose", f"{u.name} loses {amount_of(min(have, amount), resource)}", u, self.source.owner,
                              self.source.tier)

    def absorb(self, resources: tuple[str, ...]) -> None:
        g = self.game
        u = self._me()
        for res in resources:
            attr = res.replace("-", "_")
            have = getattr(u, attr)
            most = min(have, g.pending_casualties)
            if most <= 0:
                continue
            n = g.ask_one(u, "absorb", f"{self.source.name}: spend how many {res} to save Soldiers?",
                          [str(k) for k in range(most + 1)], list(range(most + 1)), detail=res)
            setattr(u, attr, have - n)
            g.pending_casualties -= n
            if n and g.tracing:
                saved = f"{n} Soldier" if n == 1 else f"{n} Soldiers"
                g.log("absorb", f"{u.name} spends {n} {res} to save {saved}", u, self.source.owner, self.source.tier)

    def roll_split(self, keep: str, rest: str) -> None:
        g = self.game
        u = self._me()
        rolls = [g.d6() for _ in range(max(len(g.state.units), 1))]
        i = g.ask_one(u, "choose", f"{self.source.name}: rolled {rolls}; which die gives your {keep}?",
                      [f"{r} {keep}, {sum(rolls) - r} {rest}" for r in rolls], list(range(len(rolls))),
                      topic="split-roll", detail=keep)
        for res, n in ((keep, rolls[i]), (rest, sum(rolls) - rolls[i])):
            attr = res.replace("-", "_")
            setattr(u, attr, getattr(u, attr) + n)
        if g.tracing:
            g.log("roll-split", f"{u.name} rolls {rolls}: {rolls[i]} {keep}, {sum(rolls) - rolls[i]} {rest}", u,
                  self.source.owner, self.source.tier)
