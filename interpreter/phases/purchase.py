"""Phase 3, Purchase: recruiting Specialists, finding Items and Vehicles, trading between Units."""

from __future__ import annotations

from typing import Any

from mypy_extensions import mypyc_attr, trait

from ddaydice.interpreter.core.api import GameAPI
from ddaydice.interpreter.core.state import (
    Unit,
)
from ddaydice.interpreter.core.values import TRADE_RESOURCES
from ddaydice.interpreter.mechanisms import decks


@trait
@mypyc_attr(allow_interpreted_subclasses=True)
class PurchasePhase(GameAPI):
    """Phase 3, Purchase: recruiting Specialists, finding Items and Vehicles, trading between Units."""

    def phase_purchase(self) -> None:
        for player in self.side_players() if self.state.sides else ():
            self.purchase(player)
            self.use_point(player, "purchase")
        for unit in self.acting():
            if unit.status != "active":
                continue
            self.trade(unit)
            self.purchase(unit)
            self.use_point(unit, "purchase")

    def recruitable(self, unit: Unit) -> list[tuple[str, int]]:
        if not self.state.pool and not self.state.hands.get(unit.id):
            return []
        if unit.recruited >= self.value("recruits-per-turn", unit) or not self.flag("recruit", unit):
            return []
        kind = self._side_kind(unit, "specialist")
        kinds = self.kind_of
        specs = [spec for spec in self.state.hands.get(unit.id, []) + [p for p in self.state.pool if kinds[p] == kind]
                 if spec not in unit.specialists and spec not in unit.dead]
        costs = self.card_values("specialist-cost", unit, specs)  # (one per card; compiled, zip() is a generic call)
        return [(specs[i], costs[i]) for i in range(len(specs)) if costs[i] <= unit.stars]

    def findable(self, unit: Unit, *, free: bool = False) -> list[tuple[str, int]]:
        if not self.state.pool and not self.state.placed:
            return []
        if not free and (unit.found >= self.value("finds-per-turn", unit) or not self.flag("find", unit)):
            return []
        out: list[tuple[str, int]] = []
        kind = self._side_kind(unit, "item")
        kinds = self.kind_of
        if unit.side:
            cards = [p for p in self.state.pool if kinds[p] == kind]
        else:  # a Unit finds the Pool's Items and Vehicles (a map's 'vehicles:'), and what its Sector offers
            cards = [p for p in self.state.pool if kinds[p] == kind or kinds[p] == "vehicle"]
            if self.state.placed:
                cards += self._offered(unit)
        if not cards:
            return out
        costs = self.card_values("item-cost", unit, cards)
        has_vehicle = unit.vehicle is not None
        purse = unit.item_points
        for i in range(len(cards)):  # (indexed: a compiled loop, where a zip is a generic iterator)
            cost = costs[i]
            if free or cost <= purse:
                card = cards[i]
                if has_vehicle and kinds[card] == "vehicle":
                    continue
                out.append((card, 0 if free else cost))
        return out

    def _side_kind(self, unit: Unit, role: str) -> str:
        """The kind of card a player recruits ("specialist") or finds ("item"): a Unit the base kinds, another
        side's player the kinds written for his side (the German Reserve)."""
        if not unit.side:
            return role
        for kind, side in self._kind_side.items():
            if side == unit.side and self._role.get(kind) == role:
                return kind
        return f"(no {role} for {unit.side})"

    def _offered(self, unit: Unit) -> list[str]:
        """Cards a Sector offers to be found there, paying their cost (a Tank in Juno's Sector 5)."""
        here = f"offer:{unit.sector}"
        return [card for card, where in self.state.placed.items() if where == here]

    def purchase(self, unit: Unit) -> None:
        """Phase 3: recruit at most the allowed Specialists, then find at most the allowed Items."""
        options = self.recruitable(unit)
        if options:
            self._buy(unit, "recruit", options, "stars", "Stars", "recruit nobody", "a Specialist")
        options = self.findable(unit)
        if options:
            self._buy(unit, "find", options, "item_points", "Item Points", "find nothing", "an Item")

    def _buy(self, unit: Unit, kind: str, options: list[tuple[str, int]], purse: str, money: str, nothing: str,
             what: str) -> None:
        if not options:
            return
        have = getattr(unit, purse)

        def label(card: str | None) -> str:  # (worded only when read: the costs looked up then)
            return nothing if card is None else f"{kind} the {self._name_of(card)} ({dict(options)[card]} {money})"

        keys: list[str | None] = [None]
        keys += [card for card, _ in options]
        pick = self.ask_keys(unit, kind, lambda: f"{unit.name} has {have} {money}: {kind} {what}?", keys, label)
        if pick:
            self.buy(unit, kind, options[pick - 1][0])

    def buy(self, unit: Unit, kind: str, card: str) -> bool:
        """Recruit ("recruit") or find ("find") a card in Phase 3, paying its cost for this Unit and counting
        it toward the per-turn limit; False when the rules do not allow it now."""
        options = self.recruitable(unit) if kind == "recruit" else self.findable(unit)
        cost = next((c for cid, c in options if cid == card), None)
        if cost is None:
            return False
        self.flag(kind, unit, use=True)  # the permission to recruit or find (rules/queries.yaml) is used
        if kind == "recruit":
            unit.stars -= cost
            unit.recruited += 1
        else:
            unit.item_points -= cost
            unit.found += 1
        self.gain_card(unit, card)
        return True

    def gain_card(self, unit: Unit, card: str) -> None:
        kind = self.kind_of[card]
        s = self.state
        if card in s.pool:
            s.pool.remove(card)
            if s.piles:
                decks.pile_taken(self, card)  # an option's piles: the card under it becomes available
        hand = s.hands.get(unit.id, [])
        if card in hand:
            hand.remove(card)
        s.placed.pop(card, None)
        kind = self._role.get(kind, kind)  # another side's Specialists and Items are held like the Units'
        if kind == "specialist":
            unit.specialists.append(card)
        elif kind == "vehicle":
            if unit.vehicle is not None:
                self.abandon_vehicle(unit)
            unit.vehicle = card
        elif kind == "award":
            unit.awards.append(card)
        else:
            unit.items.append(card)
        self._came_into_play(unit, card)
        if self.tracing:
            self.log("gain-card", f"{unit.name} gains the {self._name_of(card)}", unit, card,
                     self.content.tier_of(kind))
        src = self.effect_of.get(card)
        if src is not None:
            self.fire("found", unit, only=src)

    def _came_into_play(self, unit: Unit, card: str) -> None:
        self.state.play_order += 1
        unit.came_into_play[card] = self.state.play_order
        self.sources_changed()

    def abandon_vehicle(self, unit: Unit) -> None:
        if unit.vehicle is None:
            return
        if self.tracing:
            self.log("abandon", f"{unit.name} abandons the {self._name_of(unit.vehicle)} for good", unit)
        self.state.abandoned.append(unit.vehicle)
        unit.vehicle = None
        self.sources_changed()

    def trade(self, unit: Unit) -> None:
        """Resource trading with Units in the same Sector (or anywhere, with a Carrier Pigeon): the Unit gives one
        thing at a time, as long as it wishes, among :meth:`trade_options`."""
        if not self.trade_partners(unit):
            return
        for _ in range(40):
            keys: list[Any] = [None, *self.trade_offers(unit)]
            pick = self.ask_keys(unit, "trade", f"{unit.name}: trade with another Unit?", keys, self._trade_label)
            if pick == 0:
                return
            self.give(unit, *keys[pick])

    def trade_partners(self, unit: Unit) -> list[Unit]:
        """The Units this Unit may trade with now: in its Sector (anywhere, with a Carrier Pigeon), when the
        rules let it trade at all (a single Unit has nobody to trade with)."""
        if len(self.state.units) == 1 or not self.flag("trade", unit):
            return []
        anywhere = self.flag("trade-anywhere", unit)
        return [u for u in self.state.active_units() if u is not unit and (anywhere or u.sector == unit.sector)]

    def trade_options(self, unit: Unit) -> list[tuple[str, tuple[str, str]]]:
        """What the Unit may give now, one thing at a time: ``(label, (partner id, what))``, ``what`` a resource
        (``soldiers``, ``courage``, ``stars``, ``item_points``: one of it) or a card (an Item, a tradeable card,
        its Vehicle, a Specialist the rules let it trade)."""
        return [(self._trade_label(key), key) for key in self.trade_offers(unit)]

    def trade_offers(self, unit: Unit) -> list[tuple[str, str]]:
        """:meth:`trade_options`' keys, ``(partner id, what)``, without their labels (worded only when read)."""
        out: list[tuple[str, str]] = []
        for other in self.trade_partners(unit):
            for res, have in self.tradeable_resources(unit):
                if have > 0:
                    out.append((other.id, res))
            for item in unit.items + [c for c in unit.cards if decks.tradeable(self, c)]:
                out.append((other.id, item))
            if unit.vehicle and other.vehicle is None:
                out.append((other.id, unit.vehicle))
            for spec in unit.specialists:
                if self.specialist_tradeable(unit, spec):
                    out.append((other.id, spec))
        return out

    def _trade_label(self, key: tuple[str, str] | None) -> str:
        if key is None:
            return "done trading"
        oid, what = key
        other = self.state.unit(oid).name
        if what in TRADE_RESOURCES:
            return f"give 1 {what.replace('_', ' ')} to {other}"
        return f"give the {self._name_of(what)} to {other}"

    def tradeable_resources(self, unit: Unit) -> tuple[tuple[str, int], ...]:
        """How much of each resource the Unit may give now."""
        # ruling: a trade may not leave a Unit without Soldiers (it would be wiped out at once and lose the game
        # for everyone); the last Soldier is not offered.
        spare = unit.soldiers if self.soldier_count(unit) > unit.soldiers else unit.soldiers - 1
        return tuple((res, spare if res == "soldiers" else getattr(unit, res)) for res in TRADE_RESOURCES)

    def specialist_tradeable(self, unit: Unit, spec: str) -> bool:
        """Whether the Unit may give this Specialist now: a rule lets it trade him (the Messenger's card, within its
        limit), and he is not its last man (ruling 4.2: a Messenger with no Soldier beside him)."""
        return self.flag("trade-specialist", unit, card=spec) and \
            self.soldier_count(unit) > self.value("soldier-value", unit, card=spec)

    def give(self, unit: Unit, oid: str, what: str) -> None:
        """One trade: ``unit`` gives ``what`` (one of a resource, or a card) to the Unit ``oid``."""
        other = self.state.unit(oid)
        # The trade uses the permissions it needs: a limit on one ('allow trade once per turn') counts it.
        self.flag("trade", unit, use=True)
        if other.sector != unit.sector:
            self.flag("trade-anywhere", unit, use=True)
        if what in TRADE_RESOURCES:
            setattr(unit, what, getattr(unit, what) - 1)
            setattr(other, what, getattr(other, what) + 1)
            label = f"give 1 {what.replace('_', ' ')}"
        else:
            if what in unit.items:
                unit.items.remove(what)
                other.items.append(what)
            elif what in unit.cards:
                unit.cards.remove(what)
                other.cards.append(what)
            elif what == unit.vehicle:
                unit.vehicle = None
                other.vehicle = what
            elif what in unit.specialists:
                self.flag("trade-specialist", unit, card=what, use=True)  # (the Messenger's 'once per turn per card')
                unit.specialists.remove(what)
                other.specialists.append(what)
            self.hand_over(unit, other, what)
            self.sources_changed()
            label = f"give the {self._name_of(what)}"
        if self.tracing:
            self.log("trade", f"{unit.name}: {label} to {other.name}", unit)
