"""Events: the triggers that hear an event, lowest tier first; a pending event, which a replacement may stop."""

from __future__ import annotations

from collections.abc import Callable

from mypy_extensions import mypyc_attr, trait

from ddaydice.dsl import words
from ddaydice.dsl.compile import EffectSource, TriggerHook
from ddaydice.interpreter.core.api import GameAPI
from ddaydice.interpreter.core.inplay import EMPTY, Trigger
from ddaydice.interpreter.core.state import (
    Unit,
)
from ddaydice.interpreter.core.values import Pending

#: The events a card hears of its own arrival only ('on found', 'on drawn': this card), fired for it alone
#: (``only``); the other effects (a rule's 'on drawn if drawn badge') hear every such event.
OWN_EVENTS = frozenset(e.name for e in words.all_words() if isinstance(e, words.EventWord) and e.own)


def _always() -> bool:
    return True


def _for_each_player(scope: str | None, unit: Unit) -> bool:
    """Whether a clause of a card in play for every Unit is heard again by ``unit`` at a moment heard once (a draw,
    a turn's or the game's start): a clause written for every player ('for all players') is heard by each player,
    another side's included (ruling 14.7), and one written for the German by him (ruling 14.3)."""
    return scope == "all-players" or (scope == "the-german" and bool(unit.side))


_WHEN: dict[str, str] = {}  # each pending event's moment of 'use when EVENT', worded once


@trait
@mypyc_attr(allow_interpreted_subclasses=True)
class Events(GameAPI):
    """Events: the triggers that hear an event, lowest tier first; a pending event, which a replacement may stop."""

    def would(self, event: str, unit: Unit, left: Callable[[], bool] | None = None) -> bool:
        """A pending event is about to happen to ``unit`` (its record says 'pending'): its triggers run, lowest tier
        first, and the first that replaces it ('instead') stops it; the triggers after it hear nothing. ``left``:
        whether something is still to happen (a replacement runs only then). Returns whether it was replaced: the
        caller then does not make it happen."""
        point = _WHEN.get(event) or _WHEN.setdefault(event, f"when-{event}")
        offered = point in self.live_points  # 'use when EVENT'
        if event not in self.live_events and not offered:
            return False
        pending = Pending(event, unit.id, left or _always)
        self.pending.append(pending)
        try:
            self.fire(event, unit)
            if offered and not pending.replaced_by:
                self._offer_when(unit, pending)
        finally:
            self.pending.pop()
        if not pending.replaced_by and event in self.until_events and self.state.grants:
            self._end_until(event, unit)  # ruling: a replaced event did not happen, so what lasts 'until' it goes on
        if pending.replaced_by and self.tracing:
            record = words.event(event)
            what = record.replaced if record is not None and record.replaced else event
            self.log("replaced", f"{pending.replaced_by}: replaces the event '{event}' ({unit.name} is spared "
                     f"{what})", unit, event=event)
        return bool(pending.replaced_by)

    def _offer_when(self, unit: Unit, pending: Pending) -> None:
        """'use when EVENT': after the event's triggers, the Unit may use what it may use at that moment, one use at
        a time, while the event is still to happen and nothing has replaced it (the player's choice: 'nothing')."""
        point = f"when-{pending.event}"
        for _ in range(20):
            if pending.replaced_by or not pending.left() or unit.status != "active" or self.state.outcome is not None:
                return
            uses = self.available_uses(unit, point)
            if not uses:
                return
            labels = ["nothing"] + [f"{src.name}: {hook.text}" for src, _, hook, _ in uses]
            keys: list[object] = [None] + [(src.owner, i) for src, i, _, _ in uses]
            pick = self.ask_one(unit, "use", f"{unit.name}: use a card or rule now (when {pending.event})?", labels,
                                keys)
            if pick == 0:
                return
            self.perform_use(unit, *uses[pick - 1])

    def _replacing(self, pending: Pending | None, key: tuple[str, int], hook: TriggerHook) -> bool | None:
        """For a trigger on a pending event: None when it may run as any trigger, True when it stops the run (the
        event is replaced: nothing is left to hear), False when it is skipped (a replacement with nothing to
        replace, or one that hears the event its own actions caused)."""
        if pending is None:
            return None
        if pending.replaced_by:
            return True
        if hook.replaces and (not pending.left() or any(key in p.running for p in self.pending)):
            return False
        return None

    def fire_moment(self, event: str) -> None:
        """An event that is one moment for the game, not each Unit's own (the game's start, a turn's start): each
        player hears it for his side's rules, the game's rules and the cards he holds, each for himself; a card in
        play for every Unit hears it once (ruling 14.3): for the first Unit in tie order, and for another side's
        player in what is written for him; what it writes for every player ('for all players'), each player hears
        once (ruling 14.7; ``heard_once``)."""
        units = self.order()
        for player in self.side_players():
            self.fire(event, player, heard_once=True)
        for i, unit in enumerate(units):
            self.fire(event, unit, heard_once=i > 0)

    def fire(self, event: str, unit: Unit, *, sector: str | None = None, only: EffectSource | None = None,
             sector_only: bool = False, owners: frozenset[str] | None = None, heard_once: bool = False,
             rules_heard: bool = False) -> None:
        """Run the triggers for ``event`` that reach ``unit``, lowest tier first. A modifier ``unit`` granted
        'until' this event ends first, as the event happens (a pending event's, once it is not replaced: ``would``).
        ``owners``: only the triggers of these sources, which hear late an event that has happened (the attributes a
        Sector gained as the Unit entered it): what lasts 'until' the event has already ended. ``heard_once``: the
        event is one for the game and a Unit has heard it already, so the cards in play for every Unit are not heard
        again, but for what they write for another side's player, heard by him (ruling 14.3), and for every player,
        heard by each (ruling 14.7). ``rules_heard``: a draw another Unit heard reaches ``unit`` in what is written
        for every player alone (ruling 14.8)."""
        if owners is None and event in self.until_events and self.state.grants and not (
                self.pending and self.pending[-1].event == event and self.pending[-1].unit == unit.id):
            self._end_until(event, unit)
        if only is None and event not in self.live_events:
            return
        ip = self.in_play()
        if only is None and event not in ip.events:
            return
        where = sector if sector is not None else unit.sector
        heard: list[Trigger]
        if only is not None:
            heard = [(only, unit, 0, i, hook) for i, hook in enumerate(only.compiled.triggers) if hook.at == event]
        elif unit.side:
            # Another side's player: his side's rules and his cards (held by him), and cards in play or held by
            # others that are written for him or for every player.
            heard = [(src, unit, 0, i, hook) for src in self.side_sources.get(unit.side, ())
                     for i, hook in enumerate(src.compiled.triggers) if hook.at == event]
            heard += [t for t in ip.head_triggers.get(event, EMPTY)  # drawn cards; rules for every player
                      if t[4].scope == "all-players" or t[0].owner in self.state.in_play]
            heard += ip.held_triggers.get(event, EMPTY)
        else:
            heard = [] if sector_only else list(ip.head_triggers.get(event, EMPTY))  # the rules, drawn cards
            if not self.option_rules.automated_units and where and ip.sector_triggers:
                heard += ip.sector_triggers[where].get(event, EMPTY)  # an automated Unit: no Sector attribute
            if not sector_only:
                heard += ip.held_triggers.get(event, EMPTY)
        if rules_heard and not unit.side:
            heard = [t for t in heard if t[4].scope == "all-players"]
        hits: list[tuple[int, tuple[int, str], EffectSource, Unit | None, int, TriggerHook]] = []
        own = only is None and event in OWN_EVENTS  # a card hears its own arrival only ('on drawn': this card)
        in_play = () if not heard_once else (only.owner,) if only is not None else self.state.in_play
        for src, holder, played, i, hook in heard:
            if (only is None and not self._scoped(holder, hook.scope, unit, where, False)) \
                    or (hook.scope == "the-german" and not unit.side) or (own and src.owner in self.content.cards) \
                    or (owners is not None and src.owner not in owners) \
                    or (heard_once and src.owner in in_play and not _for_each_player(hook.scope, unit)):
                continue
            hits.append((self._tier(src), (played, src.owner), src, holder, i, hook))
        if len(hits) > 1:
            hits.sort(key=lambda h: (h[0], h[1]))
        top = self.pending[-1] if self.pending else None
        pending = top if top is not None and top.event == event and top.unit == unit.id and only is None else None
        for _, _, src, holder, i, hook in hits:
            if unit.status != "active" and event not in {"enter", "first-enter", "casualties", "combat"}:
                return
            replacing = self._replacing(pending, (src.owner, i), hook)
            if replacing is not None:
                if replacing:
                    return
                continue
            ctx = self.context(unit, holder, src, where)
            if hook.condition is not None and not hook.condition.holds(ctx):
                continue
            if hook.limit is not None:
                counter, key = self._limit_count(unit, holder, src.owner, "trigger", i, hook.limit, where)
                if counter is not None:
                    if self._limit_left(counter, key, holder, src.owner, hook.limit) <= 0:
                        continue
                    counter.counters[key] = counter.counters.get(key, 0) + 1
            if self.tracing:
                self.log("effect", f"{src.name}: {hook.text}", unit, src.owner, src.tier, event=hook.event)
            if pending is not None and hook.replaces:
                pending.running.append((src.owner, i))
                try:
                    hook.run(ctx)
                finally:
                    pending.running.pop()
                continue
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
