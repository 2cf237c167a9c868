"""Events: the triggers that hear an event, lowest tier first."""

from __future__ import annotations

from ddaydice.dsl.compile import TriggerHook
from ddaydice.dsl.loader import EffectSource
from ddaydice.interpreter.core.api import GameAPI
from ddaydice.interpreter.core.inplay import EMPTY, Trigger
from ddaydice.interpreter.core.state import (
    Unit,
)


class Events(GameAPI):
    """Events: the triggers that hear an event, lowest tier first."""

    def fire(self, event: str, unit: Unit, *, sector: str | None = None, only: EffectSource | None = None,
             sector_only: bool = False) -> None:
        """Run the triggers for ``event`` that reach ``unit``, lowest tier first. A modifier ``unit`` granted
        'until' this event ends first, as the event happens."""
        if event in self.until_events and self.state.grants:
            self._end_until(event, unit)
        if only is None and event not in self.live_events:
            return
        ip = self.in_play()
        if only is None and event not in ip.events:
            return
        where = sector if sector is not None else unit.sector
        heard: list[Trigger]
        if only is not None:
            heard = [(only, unit, 0, i, hook) for i, hook in enumerate(only.compiled.triggers) if hook.event == event]
        elif unit.side:
            # Another side's player: his side's rules and his cards (held by him), and cards in play or held by
            # others that are written for him or for every player.
            heard = [(src, unit, 0, i, hook) for src in self.side_sources.get(unit.side, ())
                     for i, hook in enumerate(src.compiled.triggers) if hook.event == event]
            heard += ip.drawn_triggers.get(event, EMPTY)
            heard += ip.held_triggers.get(event, EMPTY)
        else:
            heard = [] if sector_only else list(ip.head_triggers.get(event, EMPTY))  # the rules, drawn cards
            if not self.option_rules.automated_units and where and ip.sector_triggers:
                heard += ip.sector_triggers[where].get(event, EMPTY)  # an automated Unit: no Sector attribute
            if not sector_only:
                heard += ip.held_triggers.get(event, EMPTY)
        hits: list[tuple[int, tuple[int, str], EffectSource, Unit | None, int, TriggerHook]] = []
        for src, holder, played, i, hook in heard:
            if (only is None and not self._scoped(holder, hook.scope, unit, where, False)) \
                    or (hook.scope == "the-german" and not unit.side):
                continue
            hits.append((self._tier(src), (played, src.owner), src, holder, i, hook))
        if len(hits) > 1:
            hits.sort(key=lambda h: (h[0], h[1]))
        for _, _, src, holder, i, hook in hits:
            if unit.status != "active" and event not in {"enter", "first-enter", "casualties", "combat"}:
                return
            ctx = self.context(unit, holder, src, where)
            if hook.condition is not None and not hook.condition(ctx):
                continue
            if hook.limit is not None:
                key = self._limit_key(src.owner, "trigger", i, hook.limit)
                if unit.counters.get(key, 0) > 0:
                    continue
                unit.counters[key] = 1
            if self.tracing:
                self.log("effect", f"{src.name}: {hook.text}", unit, src.owner, src.tier, event=event)
            hook.run(ctx)

    def _end_until(self, event: str, unit: Unit) -> None:
        """The modifiers ``unit`` granted 'until' ``event`` end: the event is happening to it."""
        s = self.state
        ending = f"until:{event}:{unit.id}"
        kept = [g for g in s.grants if g.expires != ending]
        if len(kept) != len(s.grants):
            if self.tracing:
                for g in s.grants:
                    if g.expires == ending:
                        self.log("grant-ends", f"{g.text}: ends as {unit.name} meets '{event}'", unit, g.owner,
                                 g.tier)
            s.grants = kept
