"""Events: the triggers that hear an event, lowest tier first."""

from __future__ import annotations

from ddaydice.dsl.compile import TriggerHook
from ddaydice.dsl.loader import EffectSource
from ddaydice.interpreter.core.api import GameAPI
from ddaydice.interpreter.core.state import (
    Unit,
)
from ddaydice.interpreter.effects.ctx import Ctx


class Events(GameAPI):
    """Events: the triggers that hear an event, lowest tier first."""

    def fire(self, event: str, unit: Unit, *, sector: str | None = None, only: EffectSource | None = None,
             sector_only: bool = False) -> None:
        """Run the triggers for ``event`` that reach ``unit``, lowest tier first."""
        if only is None and event not in self.live_events:
            return
        where = sector if sector is not None else unit.sector
        hits: list[tuple[int, tuple[int, str], EffectSource, Unit | None, int, TriggerHook]] = []
        sources: list[tuple[EffectSource, Unit | None, int]] = []
        if only is not None:
            sources = [(only, unit, 0)]
        elif unit.side:
            # Another side's player: his side's rules and his cards (held by him), and cards in play or held by
            # others that are written for him or for every player.
            sources += [(s, unit, 0) for s in self.side_sources.get(unit.side, ())]
            for played, card in enumerate(self.state.in_play):
                in_play = self.content.effects.get(card)
                if in_play is not None and in_play.compiled.triggers:
                    sources.append((in_play, None, played))
            for owner in self.players():
                if owner.status != "active":
                    continue
                for card in self.held_cards(owner):
                    held = self.content.effects.get(card)
                    if held is not None and held.compiled.triggers:
                        sources.append((held, owner, owner.came_into_play.get(card, 0)))
        else:
            if not sector_only:
                sources += [(s, None, 0) for s in self.global_sources]
                for played, card in enumerate(self.state.in_play):  # drawn cards in play for every Unit
                    in_play = self.content.effects.get(card)
                    if in_play is not None and in_play.compiled.triggers:
                        sources.append((in_play, None, played))
            if not self.option_rules.automated_units:  # an automated Unit: no Sector attribute
                sources += [(s, None, 0) for s in self._sector_sources(where)]
            if not sector_only:
                for owner in self.players():
                    if owner.status != "active":
                        continue
                    for card in self.held_cards(owner):
                        held = self.content.effects.get(card)
                        if held is not None and held.compiled.triggers:
                            sources.append((held, owner, owner.came_into_play.get(card, 0)))
        for src, holder, played in sources:
            for i, hook in enumerate(src.compiled.triggers):
                if hook.event != event:
                    continue
                if (only is None and not self._scoped(holder, hook.scope, unit, where, False)) \
                        or (hook.scope == "the-german" and not unit.side):
                    continue
                hits.append((self._tier(src), (played, src.owner), src, holder, i, hook))
        hits.sort(key=lambda h: (h[0], h[1]))
        for _, _, src, holder, i, hook in hits:
            if unit.status != "active" and event not in {"enter", "first-enter", "casualties", "combat"}:
                return
            ctx = Ctx(self, unit, holder, src, where)
            if hook.condition is not None and not hook.condition(ctx):
                continue
            if hook.limit is not None:
                key = self._limit_key(unit, src.owner, 1000 + i, hook.limit)
                if unit.counters.get(key, 0) > 0:
                    continue
                unit.counters[key] = 1
            if self.tracing:
                self.log("effect", f"{src.name}: {hook.text}", unit, src.owner, src.tier, event=event)
            hook.run(ctx)
