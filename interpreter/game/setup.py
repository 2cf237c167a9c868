"""Set-up: the starting state of a game from its plan, and the choice of starting Sectors."""

from __future__ import annotations

import random
from typing import Any

from mypy_extensions import mypyc_attr, trait

from ddaydice.dsl.diagnostics import RuleError
from ddaydice.dsl.limits import MAX_PLAYERS
from ddaydice.dsl.schema import Sector
from ddaydice.interpreter.core.api import GameAPI
from ddaydice.interpreter.core.state import (
    GameState,
    SectorState,
    Unit,
    new_rng,
)
from ddaydice.interpreter.mechanisms import automaton, decks
from ddaydice.interpreter.mechanisms.options import printed_part, set_up, start_resources


def units_problem(players: int) -> str | None:
    """Why a game cannot have ``players`` Units whatever its map (the rulebook: 1 to 4), or None."""
    return None if 1 <= players <= MAX_PLAYERS else f"D-Day Dice is for 1 to {MAX_PLAYERS} Units, not {players}"


@trait
@mypyc_attr(allow_interpreted_subclasses=True)
class SetUp(GameAPI):
    """Set-up: the starting state of a game from its plan, and the choice of starting Sectors."""

    def _setup_template(self) -> dict[str, Any]:
        """What every game of this plan starts with, worked out once: the starts, the starting resources, the
        hands, the Pool, the placed cards and the Award deck before it is shuffled."""
        c = self.content
        starts = [s for s in self.map.sectors if s.start is not None]
        resources = {s.id: start_resources(self.option_rules, s.start) for s in starts if s.start is not None}
        # Availability: the variant's lists, else the map's; Regular Items always, unless the variant says none.
        specs = self.variant.specialists if self.variant and self.variant.specialists is not None \
            else self.map.specialists
        special_items = self.variant.items if self.variant and self.variant.items is not None else self.map.items
        no_items = self.variant is not None and self.variant.items is not None and not self.variant.items
        placed = {p.card: p.sector for p in self.map.placed}
        hand = [s for s in specs if c.cards[s].grade == "regular"]
        pool = [s for s in specs if c.cards[s].grade == "unique"]
        # Unique Specialists an optional rule adds to the Allied Reserve whatever the map ('only-in' it: the
        # German player's Sniper, PIAT Gunner and SOE Agent).
        pool += [cid for cid, card in c.cards.items() if c.card_kinds[cid] == "specialist" and card.only_in
                 and card.grade == "unique" and cid not in pool and any(o in self.options for o in card.only_in)]
        if not no_items:
            pool += [cid for cid, card in c.cards.items() if c.card_kinds[cid] == "item" and card.grade == "regular"]
            pool += [i for i in special_items if i not in pool]
        # The map's Vehicles (the variant's, if it lists them): in the Pool, found like an Item, with Item Points
        # (rulebook, VEHICLES). A Vehicle found only in one Sector is offered there instead ('on enter: offer').
        vehicles = self.variant.vehicles if self.variant and self.variant.vehicles is not None else self.map.vehicles
        pool += [v for v in vehicles if v not in pool]
        # Another side's Pool (the German Reserve): every card of the kinds written for that side.
        for side, d in self.side_defs.items():
            pool += [cid for cid, kind in c.card_kinds.items() if self._kind_side.get(kind) == side
                     and cid not in d.start.specialists]
        pool = [p for p in pool if p not in placed and not self._unavailable(p)]
        awards = [] if "awards" in self.ignore else [a.id for a in c.cards_of("award") if not self._unavailable(a.id)]
        return {"starts": starts, "resources": resources, "hand": hand, "pool": pool, "placed": placed,
                "awards": awards, "sectors": [s.id for s in self.map.sectors]}

    def _setup(self, players: int, seed: int, rng: random.Random | None = None) -> GameState:
        lo, hi = self.map.players
        if not lo <= players <= hi:
            raise RuleError(f"{self.map.name} is for {lo} to {hi} players, not {players}")
        why = units_problem(players)
        if why is not None:
            raise RuleError(why)
        most = self.option_rules.max_players
        if most is not None and players > most:
            raise RuleError(f"the optional rule '{self.option_rules.origin['max-players']}' is for at most {most} "
                            f"player(s), not {players}")
        rng = rng if rng is not None else new_rng(seed)
        tpl = self._setup_tpl
        starts = tpl["starts"]
        units = []
        for i in range(players):
            start = starts[0] if len(starts) == 1 else starts[i % len(starts)]
            assert start.start is not None
            u = Unit(id=f"u{i + 1}", name=f"Unit {i + 1}", sector=start.id, visited=[start.id])
            for attr, n in tpl["resources"][start.id].items():
                setattr(u, attr, n)
            for spec in start.start.specialists:
                u.specialists.append(spec)
            units.append(u)
        state = GameState(map_id=self.map.id, variant=self.variant.id if self.variant else None,
                          options=list(self.options), seed=seed, rng=rng, units=units,
                          sectors={sid: SectorState(sid) for sid in tpl["sectors"]})
        for u in units:
            state.sectors[u.sector].entered = True
        for u in units:
            state.hands[u.id] = list(tpl["hand"])
        state.pool = list(tpl["pool"])
        state.placed = dict(tpl["placed"])
        awards = list(tpl["awards"])
        rng.shuffle(awards)
        state.award_deck = awards
        self.state = state
        self.rng = rng
        for d in self.side_defs.values():
            player = Unit(id=d.id, name=d.name, sector="", side=d.id, soldiers=d.start.soldiers,
                          stars=d.start.stars, courage=d.start.courage, item_points=d.start.item_points,
                          specialists=list(d.start.specialists))
            state.sides.append(player)
        set_up(self, state)  # the options' set-up: marker rolls, lists drawn at random or complete
        decks.set_up(self, state)  # an expansion's decks shuffled; an option's piles of Items
        if self.option_rules.automated_units:
            for u in units:
                automaton.start(self, u)  # an automated Unit's random start (solitaire Atlantikwall)
        for u in units + state.sides:
            for spec in u.specialists:
                self._came_into_play(u, spec)
        return state

    def choose_starts(self) -> None:
        """Maps with several starting Sectors: each Unit chooses where it starts (at set-up), honouring
        the Sectors that need at least N Units ("at least 1 player per Map")."""
        starts = [s for s in self.map.sectors if s.start is not None]
        if len(starts) < 2 or self.option_rules.automated_units:
            return
        least = {s.id: s.start.at_least if s.start is not None else 0 for s in starts}
        placed: dict[str, int] = {}
        units = self.state.units
        for k, unit in enumerate(units):
            left = len(units) - k
            unmet = [s for s in starts if placed.get(s.id, 0) < least[s.id]]
            need = sum(least[s.id] - placed.get(s.id, 0) for s in unmet)
            options = unmet if need >= left else starts
            i = self.ask_keys(unit, "start", f"{unit.name}: where does it start?", [s.id for s in options],
                              self._start_label)
            chosen = options[i]
            placed[chosen.id] = placed.get(chosen.id, 0) + 1
            self._place_at_start(unit, chosen)

    def _start_label(self, sid: str) -> str:
        sec = self.sectors[sid]
        st = sec.start
        assert st is not None
        parts = [f"{n} {w}" for n, w in ((st.soldiers, "Soldiers"), (st.stars, "Stars"), (st.courage, "Courage"),
                                          (st.item_points, "Item Points")) if n]
        parts += [self._name_of(c) for c in st.specialists]
        return f"{sec.name} ({', '.join(parts) or 'nothing'})"

    def _place_at_start(self, unit: Unit, sector: Sector) -> None:
        st = sector.start
        assert st is not None
        s = self.state
        # Only the printed part of the resources changes with the start; the options' set-up stays.
        old = self.sectors[unit.sector].start
        before = printed_part(self.option_rules, old) if old is not None else {}
        for attr, n in printed_part(self.option_rules, st).items():
            setattr(unit, attr, getattr(unit, attr) - before.get(attr, 0) + n)
        unit.sector = sector.id
        unit.visited = [sector.id]
        unit.specialists = list(st.specialists)
        self.sources_changed()
        for spec in unit.specialists:
            self._came_into_play(unit, spec)
        s.sectors[sector.id].entered = True
        if st.regular_specialists is not None and self.option_rules.regular == ("map",):
            s.hands[unit.id] = [c for c in st.regular_specialists if c not in unit.specialists]
