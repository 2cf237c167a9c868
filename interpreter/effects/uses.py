"""Uses: the cards and rules a player may use at a moment of the turn, and using one."""

from __future__ import annotations

from typing import Any

from mypy_extensions import mypyc_attr, trait

from ddaydice.dsl.compile import EffectSource, UseHook
from ddaydice.interpreter.core.api import GameAPI
from ddaydice.interpreter.core.state import (
    Unit,
)
from ddaydice.interpreter.core.values import USED, OpenRoll, points_of
from ddaydice.interpreter.mechanisms import decks


@trait
@mypyc_attr(allow_interpreted_subclasses=True)
class Uses(GameAPI):
    """Uses: the cards and rules a player may use at a moment of the turn, and using one."""

    def available_uses(self, unit: Unit, point: str) -> list[tuple[EffectSource, int, UseHook, str]]:
        if unit.side:
            return self._side_uses(unit, point)
        out = []
        for src, i, hook, card in self._use_candidates(unit, point):
            if hook.scope == "units-here" and ":" in card and self.state.unit(card.split(":")[0]).sector != unit.sector:
                continue
            if card in unit.cards and decks.spent(self, unit, card):
                continue  # a held card kept after use (an option's keep-used) serves once per turn
            if hook.condition is not None or hook.feasible is not None:
                ctx = self.context(unit, unit, src, unit.sector)
                if (hook.condition is not None and not hook.condition.holds(ctx)) \
                        or (hook.feasible is not None and not hook.feasible(ctx)):
                    continue  # ruling 10.9: a use with nothing it can do is not offered
            if hook.limit is not None and self._limit_used(unit, self._holder_of(unit, card), src.owner, i, hook.limit):
                continue
            out.append((src, i, hook, card))
        return out

    def _use_candidates(self, unit: Unit, point: str) -> list[tuple[EffectSource, int, UseHook, str]]:
        """The uses a Unit could make at this moment in this epoch, before their conditions and limits are
        read: the rules', its Sector's, the drawn cards', its own cards', and other Units' Specialists and
        Vehicles that serve every Unit or the Units with them (``card`` is then 'u2:card')."""
        ip = self.in_play()
        key = (unit.id, point)
        found = ip.uses.get(key)
        if found is None:
            before = self._rule_uses.get(point)
            if before is None:  # the rules' are the same in every epoch and game of the plan
                before = self._rule_uses[point] = self._uses_of([(s, "") for s in self.global_sources], point)
            # The cards' (as _uses_of, one source at a time, with no list of sources made first): drawn (for any
            # Unit), the Unit's own, and other Units' that serve it
            after: list[tuple[EffectSource, int, UseHook, str]] = []
            for _, src in ip.drawn:
                self._add_uses(after, src, "", point)
            held = ip.held.get(unit.id)
            if held is not None:
                for _, card, src, _ in held:
                    self._add_uses(after, src, card, point)
            else:
                for card, src in self._held_effects(unit):
                    self._add_uses(after, src, card, point)
            for owner, card, src, _ in ip.shared:
                if owner is not unit and not owner.side:
                    self._add_uses(after, src, f"{owner.id}:{card}", point)
            found = ip.uses[key] = (before, after, before + after)
        by_point = ip.sector_uses.get(unit.sector)
        here = by_point.get(point) if by_point is not None else None
        if here is None and by_point is not None:  # a Sector's own (Pointe-du-Hoc: retreat after a failed Climb)
            here = by_point[point] = self._uses_of([(s, "") for s in ip.sector_sources[unit.sector]], point)
        return [*found[0], *here, *found[1]] if here else found[2]

    def _uses_of(self, sources: list[tuple[EffectSource, str]], point: str
                 ) -> list[tuple[EffectSource, int, UseHook, str]]:
        """The uses of these sources at this moment that may serve the Unit asking (not the German's; of another
        Unit's card, only those for every Unit or the Units with it)."""
        return [(src, i, hook, card) for src, card in sources for i, hook in self._uses_at(src, point)
                if hook.scope != "the-german" and (":" not in card or hook.scope in {"units-here", "all-units"})]

    def _add_uses(self, out: list[tuple[EffectSource, int, UseHook, str]], src: EffectSource, card: str,
                  point: str) -> None:
        """One source's uses at this moment that may serve the Unit asking, added to ``out`` (as ``_uses_of``)."""
        for i, hook in self._uses_at(src, point):
            if hook.scope != "the-german" and (":" not in card or hook.scope in {"units-here", "all-units"}):
                out.append((src, i, hook, card))

    def _side_uses(self, unit: Unit, point: str) -> list[tuple[EffectSource, int, UseHook, str]]:
        """The uses another side's player may make: his side's rules, his cards, and cards in play written
        for him or for every player (a Battle Condition the German ignores unless it names him)."""
        ip = self.in_play()
        sources: list[tuple[EffectSource, str]] = [(s, "") for s in self.side_sources.get(unit.side, ())]
        sources += [(src, "in-play") for _, src in ip.drawn if src.compiled.uses]
        sources += [(src, card) for card, src in self._held_effects(unit)]
        out = []
        for src, card in sources:
            for i, hook in self._uses_at(src, point):
                if card == "in-play" and hook.scope not in {"the-german", "all-players"}:
                    continue
                if card in unit.cards and decks.spent(self, unit, card):
                    continue
                ctx = self.context(unit, unit, src, None)
                if (hook.condition is not None and not hook.condition.holds(ctx)) \
                        or (hook.feasible is not None and not hook.feasible(ctx)):
                    continue
                if hook.limit is not None and self._limit_used(unit, unit, src.owner, i, hook.limit):
                    continue
                out.append((src, i, hook, "" if card == "in-play" else card))
        return out

    def _uses_at(self, src: EffectSource, point: str) -> tuple[tuple[int, UseHook], ...]:
        """A source's uses that may be made at this moment of the turn (its index of uses by point)."""
        key = (src.owner, point)
        found = self._point_uses.get(key)
        if found is None:
            found = self._point_uses[key] = tuple((i, hook) for i, hook in enumerate(src.compiled.uses)
                                                  if point in points_of(hook.window))
        return found

    def _held_effects(self, unit: Unit) -> list[tuple[str, EffectSource]]:
        """The cards a player holds that have an effect (from the index while he is in the game)."""
        held = self.in_play().held.get(unit.id)
        if held is not None:
            return [(card, src) for _, card, src, _ in held]
        return [(card, src) for card in self.held_cards(unit) if (src := self.effect_of.get(card)) is not None]

    def use_point(self, unit: Unit, point: str) -> None:
        """Offer the Unit every use it may make here, until it declines."""
        if self.watchers:  # (a test before the loop: no iterator made for a game with none)
            for w in self.watchers:
                w.at_point(self, unit, point)
        if point not in self.live_points or (self.option_rules.automated_units and not unit.side):
            return  # an automated Unit uses nothing
        for _ in range(20):
            if unit.status != "active" or self.state.outcome is not None:
                return
            uses = self.available_uses(unit, point)
            if not uses:
                return
            keys: list[Any] = [None] + [(src.owner, i) for src, i, _, _ in uses]
            outer, self.use_at = self.use_at, point  # (what a policy reads, rather than the question's wording)
            pick = self.ask_keys(unit, "use", _UsePrompt(unit, point), keys, _UseLabel(uses))
            self.use_at = outer
            if pick == 0:
                return
            self.perform_use(unit, *uses[pick - 1])

    def after_roll(self, unit: Unit, name: str, dice: list[int]) -> list[int]:
        """A roll whose result has not yet taken effect (a Landmine die, a Random Attribute roll): the Unit may first
        use what it may use at any time (or during movement, in Phase 4 alone: a map's roll in another phase is
        offered at 'after-roll-other', ruling 10.10), and a card that changes any roll (the Binoculars: 'reface ...
        any-roll') may change its dice (rulings 10.1, 10.7). Returns the dice as they then stand."""
        outer, self.open_roll = self.open_roll, OpenRoll(name, dice)
        try:
            self.use_point(unit, "after-roll" if self.state.phase == "movement" else "after-roll-other")
        finally:
            self.open_roll = outer
        return dice

    def perform_use(self, unit: Unit, src: EffectSource, index: int, hook: UseHook, card: str) -> None:
        used = USED + src.owner  # the times this card's uses were played this game ('times-used')
        unit.counters[used] = unit.counters.get(used, 0) + 1
        if hook.limit is not None:
            counter, key = self._limit_count(unit, self._holder_of(unit, card), src.owner, "use", index, hook.limit,
                                             unit.sector)
            if counter is not None:
                counter.counters[key] = counter.counters.get(key, 0) + 1
        kind = self.kind_of.get(src.owner, "")
        kind = self._role.get(kind, kind)  # another side's Items are used like Items
        if kind == "item" and src.owner in unit.items:
            unit.items.remove(src.owner)
            unit.used_items.append(src.owner)
        elif kind == "award" and src.owner in unit.awards:
            unit.awards.remove(src.owner)
            unit.used_awards.append(src.owner)
            self.state.award_discard.append(src.owner)
        elif src.owner in unit.cards:  # a card of an expansion's deck, held like an Item
            decks.used(self, unit, src.owner)
        self.sources_changed()
        if self.tracing:
            self.log("use", f"{unit.name} uses {src.name}: {hook.text}", unit, src.owner, src.tier)
        hook.run(self.context(unit, unit, src, unit.sector))


# A use's question and its options in words, made only if somebody reads them (small native objects: a
# functools.partial and the prompt worded at once cost every moment of uses).
class _UsePrompt:
    def __init__(self, unit: Unit, point: str) -> None:
        self.unit = unit
        self.point = point

    def __call__(self) -> str:
        return f"{self.unit.name}: use a card or rule now ({self.point})?"


class _UseLabel:
    def __init__(self, uses: list[tuple[EffectSource, int, UseHook, str]]) -> None:
        self.uses = uses

    def __call__(self, key: tuple[str, int] | None) -> str:
        """A use's option as a player reads it ('nothing' for None)."""
        if key is None:
            return "nothing"
        for src, i, hook, _ in self.uses:
            if src.owner == key[0] and i == key[1]:
                return f"{src.name}: {hook.text}"
        raise KeyError(key)
