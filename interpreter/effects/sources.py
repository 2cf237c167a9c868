"""Where effects come from: the sources in play (rules, Sectors, cards held and drawn) and whom they reach."""

from __future__ import annotations

from ddaydice.dsl.compile import ModifierHook
from ddaydice.dsl.loader import EffectSource
from ddaydice.interpreter.core.api import GameAPI
from ddaydice.interpreter.core.state import (
    Unit,
)
from ddaydice.interpreter.effects.ctx import Ctx


class Sources(GameAPI):
    """Where effects come from: the sources in play (rules, Sectors, cards held and drawn) and whom they reach."""

    def _sector_sources(self, sector: str) -> list[EffectSource]:
        if "attributes" in self.ignore or not sector:  # another side's player stands in no Sector
            return []
        out = []
        src = self.content.effects.get(f"{self.map.id}/{sector}")
        if src is not None:
            out.append(src)
        for attr in self.state.sectors[sector].attributes:
            a = self.content.effects.get(f"{self.map.id}/attribute:{attr}")
            if a is not None:
                out.append(a)
        return out

    def held_cards(self, u: Unit) -> list[str]:
        out = list(u.specialists)
        if u.vehicle:
            out.append(u.vehicle)
        out += u.items
        out += u.awards
        out += u.cards
        return out

    def _tier(self, src: EffectSource) -> int:
        return self.tier_index.get(src.tier, 0)

    def _scoped(self, owner: Unit | None, scope: str | None, unit: Unit | None, sector: str | None,
                sector_subject: bool) -> bool:
        """Does a hook of a card held by ``owner`` reach ``unit`` (or ``sector``)?"""
        if scope == "the-german":
            # What is written for the German reaches another side's player only (the German is not a Unit).
            return unit is not None and bool(unit.side)
        if scope == "all-players":
            return True
        if unit is not None and unit.side:
            # Another side's player: only his own cards and his side's rules reach him, and what is written
            # for every player; what is written for Units never does ("the German is not a Unit").
            return owner is not None and owner is unit and scope is None
        if owner is None:
            return True
        if scope == "all-units":
            return True
        if scope == "units-here":
            where = sector if sector is not None else (unit.sector if unit else None)
            return owner.sector == where
        if sector_subject:
            # ruling: DEF and MGF belong to the Sector; a Unit's own card that changes them changes them for
            # every Unit present (rulebook: "DEF value changes affect all Units present").
            return owner.sector == sector
        return unit is not None and owner.id == unit.id

    def _candidates(self, name: str, sector: str | None, unit: Unit | None = None
                    ) -> list[tuple[EffectSource, Unit | None, int, int, ModifierHook]]:
        """Every standing modifier of query ``name`` that could reach ``sector`` (scope checked later)."""
        out: list[tuple[EffectSource, Unit | None, int, int, ModifierHook]] = []
        if unit is not None and unit.side:
            # Another side's player: his side's rules (held by him, so that they reach him alone), his cards,
            # and cards in play written for him; no Sector's attributes ("you ignore the attributes and
            # conditions of all Sectors"), no rule of the Units.
            for src, i, hook in self._side_mods.get(unit.side, {}).get(name, ()):
                out.append((src, unit, 0, i, hook))
            sector = None
        else:
            for src, i, hook in self._global_mods.get(name, ()):
                out.append((src, None, 0, i, hook))
        if sector is not None:
            acquired = self.state.sectors[sector].acquired
            for src in self._sector_sources(sector):
                # An attribute a Sector gains during the game came into play then (rulebook order: when the
                # effect came into play, then its id); the printed attributes were there from the start.
                played = acquired.get(src.owner.rsplit("attribute:", 1)[-1], 0) if acquired else 0
                for i, hook in self._mods_of(src).get(name, ()):
                    out.append((src, None, played, i, hook))
        for owner in self.players():
            if owner.status != "active":
                continue
            for card in owner.specialists:
                found = self._card_mods.get(card)
                if found and name in found:
                    src = self.content.effects[card]
                    played = owner.came_into_play.get(card, 0)
                    for i, hook in found[name]:
                        out.append((src, owner, played, i, hook))
            if owner.vehicle is not None:
                found = self._card_mods.get(owner.vehicle)
                if found and name in found:
                    src = self.content.effects[owner.vehicle]
                    played = owner.came_into_play.get(owner.vehicle, 0)
                    for i, hook in found[name]:
                        out.append((src, owner, played, i, hook))
        for played, card in enumerate(self.state.in_play):  # drawn cards in play for every Unit
            found = self._card_mods.get(card)
            if found and name in found:
                src = self.content.effects[card]
                for i, hook in found[name]:
                    out.append((src, None, played, i, hook))
        return out

    def _mods_of(self, src: EffectSource) -> dict[str, list[tuple[int, ModifierHook]]]:
        cached = self._mods_cache.get(src.owner)
        if cached is None:
            cached = {}
            for i, hook in enumerate(src.compiled.modifiers):
                cached.setdefault(hook.query, []).append((i, hook))
            self._mods_cache[src.owner] = cached
        return cached

    def _limit_key(self, unit: Unit | None, owner: str, index: int, period: str) -> str:
        s = self.state
        when = {"turn": f"t{s.turn}", "phase": f"t{s.turn}{s.phase}", "game": "g"}[period]
        return f"{owner}#{index}@{when}"

    def _name_of(self, owner: str) -> str:
        src = self.content.effects.get(owner)
        if src is not None:
            return src.name
        if owner in self.content.cards:
            return self.content.cards[owner].name
        return owner

    def context(self, unit: Unit | None, owner: Unit | None, source: EffectSource, sector: str | None,
                card: str | None = None) -> Ctx:
        """The context in which an effect's hook runs or its condition is read, for one Unit."""
        return Ctx(self, unit, owner, source, sector, card)
