"""The turn runner: a game of D-Day Dice driven by content (rules, cards, maps) and deciders.

Everything a card or a Sector does comes from its compiled effect (dsl/compile.py);
this module only knows the game's procedure (the five phases) and how to ask
questions (queries, combined by interpreter/precedence.py) and fire events.

Rulings on ambiguous rules are recorded in docs/rulings.md and tested in
tests/rulings/; the code names them where they apply (``# ruling: ...``).
"""

from __future__ import annotations

import functools
import heapq
import random
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

import attrs

from ddaydice.dsl.compile import UNLIMITED, ModifierHook, TriggerHook, UseHook
from ddaydice.dsl.diagnostics import RuleError
from ddaydice.dsl.loader import Content, EffectSource
from ddaydice.dsl.schema import BattleMap, Sector, Variant
from ddaydice.interpreter import automaton, decks, fastturn
from ddaydice.interpreter.deciders import Decider, Decision, check_answer, legal_answer
from ddaydice.interpreter.options import OptionRules, pool_trade, printed_part, reachable, set_up, start_resources
from ddaydice.interpreter.precedence import Contribution, Derivation, Step, combine
from ddaydice.interpreter.state import (
    NEXT_MARKER,
    STAY_FORBIDDEN,
    Die,
    Event,
    GameState,
    Grant,
    SectorState,
    Unit,
    new_rng,
)

PHASES = ("roll", "upkeep", "purchase", "movement", "combat")
USE_POINTS = ("after-final-tally", "purchase", "movement", "after-landmine", "before-mgf", "after-mgf")
WINDOW_POINTS: dict[tuple[str, str], tuple[str, ...]] = {
    ("after", "final-tally"): ("after-final-tally",),
    ("during", "roll"): ("after-final-tally",),
    ("during", "upkeep"): ("after-final-tally",),
    ("during", "purchase"): ("purchase",),
    ("during", "movement"): ("movement", "after-landmine"),
    ("before", "movement"): ("movement",),
    ("during", "combat"): ("before-mgf", "after-mgf"),
    ("before", "mgf"): ("before-mgf",),
    ("after", "mgf"): ("after-mgf",),
    ("after", "first-roll"): ("after-first-roll",),
    ("when", "found"): USE_POINTS,
}
UNIT_COLOURS = ("red", "white", "blue")
_REROLL_PROMPTS = ("", "second roll: re-roll which dice (Locked dice stay)?",
                   "third and last roll: re-roll which dice (Locked dice stay)?")
MAX_TURNS = 60

_WORD = re.compile(r"[a-z0-9][a-z0-9-]*")  # the words of an effect's text, to find the cards it names


def cards_named(texts: Iterable[str], card_ids: Iterable[str]) -> set[str]:
    """The cards these effect texts name, as whole words ('medic' is not named by 'field-medic'), and
    'vehicle' if they speak of Vehicles at all."""
    words = set(_WORD.findall(" ".join(texts)))
    named = words.intersection(card_ids)
    if words & {"vehicle", "vehicles"}:
        named.add("vehicle")
    return named


class Move(NamedTuple):
    """A legal move of Phase 4 (a tuple: built many times per turn)."""

    kind: str  # stay, lateral, advance
    to: str | None
    cost: int
    landmines: bool
    battle_cry: bool = False
    abandons_vehicle: bool = False


class Game:
    """One game: content + map + options + deciders -> a played-out state and, if asked, a trace."""

    def __init__(self, content: Content, map_id: str, *, players: int = 1, seed: int = 0,
                 variant: str | None = None, options: Iterable[str] = (), deciders: Sequence[Decider] | Decider,
                 trace: bool = False, state: GameState | None = None, rng: random.Random | None = None) -> None:
        self.content = content
        self.tracing = trace
        self.deciders: list[Decider] = list(deciders) if isinstance(deciders, Sequence) else [deciders]
        # Everything that depends only on (content, map, variant, options) is computed once and shared
        # by every game of a simulation: the graph, the effect indexes, the live queries and events.
        key = (id(content), map_id, variant, tuple(options))
        plan = _PLANS.get(key)
        if plan is None or plan[0] is not content:
            self._prepare(content, map_id, variant, list(options))
            plan = (content, {k: self.__dict__[k] for k in _PLAN_KEYS})
            if len(_PLANS) > 64:
                _PLANS.clear()
            _PLANS[key] = plan
        else:
            self.__dict__.update(plan[1])
        self.pending_casualties = 0
        self._face_worth: dict[str, tuple[str, int]] | None = None
        self.landmine_roll: list[int] | None = None
        self._decider_of: dict[str, Decider] = {}
        self._losing: str | None = None
        self._decoy: str | None = None
        self.drawing: str | None = None  # the card being drawn, while 'on drawn' triggers run (interpreter/decks.py)
        self.state = state if state is not None else self._setup(players, seed, rng)
        self.rng = self.state.rng

    # ================================================================ setup
    def _prepare(self, content: Content, map_id: str, variant: str | None, options: list[str]) -> None:
        if map_id not in content.maps:
            raise RuleError(f"no map '{map_id}' (there are: {', '.join(sorted(content.maps))})")
        self.map: BattleMap = content.maps[map_id]
        self.variant: Variant | None = None
        if variant is not None:
            found = [v for v in self.map.variants if v.id == variant]
            if not found:
                raise RuleError(f"map '{map_id}' has no variant '{variant}' (it has: "
                                f"{', '.join(v.id for v in self.map.variants) or 'none'})")
            self.variant = found[0]
        # The options asked for and those they require; their settings drive general mechanisms
        # (interpreter/options.py), their effects join the game rules' hooks.
        self.option_rules = OptionRules.build(content, options)
        self.options = list(self.option_rules.options)
        self.ignore: set[str] = set(self.variant.ignore) if self.variant else set()
        self.keep_faces: set[str] | None = set(self.variant.keep_faces) \
            if self.variant and self.variant.keep_faces else None
        self.sectors: dict[str, Sector] = {s.id: s for s in self.map.sectors}
        self.tier_index = {t.id: i for i, t in enumerate(content.precedence.tiers)}
        self.queries = content.vocab.queries
        # Other sides than the Units (rules/sides.yaml) whose optional rule is on: the German player.
        self.side_defs = {d.id: d for d in content.sides.sides if d.option in self.options}
        self._role = {k.id: k.held_as for k in content.kinds.kinds if k.held_as is not None}
        self._kind_side = {k.id: k.side for k in content.kinds.kinds if k.side is not None}
        self._build_graph()
        self._index_effects()
        self._find_live()
        self._compile_moves()
        self._fold_constants()
        self._req_cache: dict[tuple[str, int], list[tuple[str | int, ...]]] = {}
        self._faces = [f.id for f in content.dice.faces]
        self._soldier_faces = {f.id: f.soldiers for f in content.dice.faces}
        per = content.dice.dice_per_colour
        self._layout = [(idx, c) for idx, c in enumerate(c for c in content.dice.colours for _ in range(per))]
        self._side_layout = {side: [(idx, c) for idx, c in enumerate(c for c in d.colours for _ in range(per))]
                             for side, d in self.side_defs.items()}
        self._setup_tpl = self._setup_template()
        self._fast_plan = fastturn.FastPlan(self)  # the turn specialised from this plan, if one applies

    def _find_live(self) -> None:
        """The queries and events some effect of this game could ever touch; the others are constant."""
        c = self.content
        sources: list[EffectSource] = list(self.global_sources)
        for side in self.side_defs:
            sources += self.side_sources[side]
            sources += list(self.side_rwb[side].values())
        if "rwb" not in self.ignore:
            sources += list(self.rwb_sources.values())
        if "attributes" not in self.ignore:
            sources += [e for k, e in c.effects.items() if k.startswith(f"{self.map.id}/")]
        sources += [c.effects[cid] for cid in self._reachable_cards() if cid in c.effects]
        live: set[str] = set()
        events: set[str] = set()
        for src in sources:
            for hook in src.compiled.modifiers:
                live.add(hook.query)
            for trig in src.compiled.triggers:
                events.add(trig.event)
            live |= {q for q in _granted_queries(src.tree) if q in self.queries}
        self.live_queries = frozenset(live)
        self.live_events = frozenset(events)
        self.live_windows = frozenset(h.window for src in sources for h in src.compiled.uses if h.window)
        # The moments of the turn at which some card or rule of this game could ever be used; at the others
        # use_point returns at once.
        self.live_points = frozenset(p for src in sources for h in src.compiled.uses
                                     for p in (USE_POINTS if h.window is None else WINDOW_POINTS.get(h.window, ())))
        owners: dict[str, set[str]] = {}
        for src in sources:
            for h in src.compiled.uses:
                for p in USE_POINTS if h.window is None else WINDOW_POINTS.get(h.window, ()):
                    owners.setdefault(p, set()).add(src.owner)
        self._point_owners = {p: frozenset(o) for p, o in owners.items()}  # who could be used at each point
        # Uses offered by the rules themselves (an option's, a map's rules), not only by cards held.
        self._shared_uses = any(src.compiled.uses for src in self.global_sources if src.owner != "rule:buy-award")
        self.static_flags = {q.id: bool(q.default) for q in self.queries.values()
                             if q.kind == "flag" and q.id not in live and q.id != "stay"}
        self.static_values = {q.id: int(q.default) for q in self.queries.values()
                              if q.kind == "number" and q.id not in live and q.default is not None
                              and not isinstance(q.default, bool) and q.id not in {"def", "mgf-dice"}}

    def _compile_moves(self) -> None:
        """Phase 4's candidate moves from each Sector, worked out once when nothing in this game can change the
        rules they follow (entering, Advancing, Barriers, Advance costs, room, Vehicles, Battle Cries): then a
        turn checks only what the Unit has visited, its Courage and Vehicle, room, and a Sector's requirements."""
        self._fixed_moves: dict[str, list[tuple[str, str, int, bool, bool]]] | None = None
        self._fixed_capacity = 0
        flags, values = self.static_flags, self.static_values
        needed = ("enter", "advance", "ignore-barriers", "vehicle-here", "vehicle-crosses-landmines", "battle-cry",
                  "ignore-requirements", "ignore-sacrifices")
        if "advance-cost" in self.live_queries or "capacity" not in values or any(q not in flags for q in needed) \
                or flags["battle-cry"]:
            return
        mines_on = "landmines" not in self.ignore
        fixed: dict[str, list[tuple[str, str, int, bool, bool]]] = {}
        for here, lines in self.moves.items():
            cands: list[tuple[str, str, int, bool, bool]] = []
            for to, line_kind, line_cost, mines, barrier in lines if flags["enter"] else ():
                if (barrier and not flags["ignore-barriers"]) or (line_kind == "advance" and not flags["advance"]):
                    continue
                target = self.sectors[to]
                kind, cost = line_kind, line_cost
                if target.cost is not None:  # entering a Sector with its own printed cost is an Advance
                    kind, cost = "advance", target.cost
                mines_apply = mines and mines_on
                # (to, kind, Courage, Landmines, whether a Unit with a Vehicle abandons it)
                cands.append((to, kind, cost if kind == "advance" else 0, mines_apply,
                              (mines_apply and not flags["vehicle-crosses-landmines"]) or target.bunker
                              or not flags["vehicle-here"]))
            fixed[here] = cands
        self._fixed_moves = fixed
        self._fixed_capacity = values["capacity"]

    def _fold_constants(self) -> None:
        """A number worked out from the map that nothing in this game changes and that is the same in every
        Sector is answered from the table too (the MGF dice where a variant ignores MGF)."""
        if "mgf-dice" not in self.live_queries:
            counts = {0 if "mgf" in self.ignore else sec.mgf for sec in self.sectors.values()}
            if len(counts) == 1:
                self.static_values["mgf-dice"] = max(0, counts.pop())

    def _reachable_cards(self) -> set[str]:
        """Cards that can come into play in this game: the lists, the placed cards, the Award deck, and
        any card an effect of the game names (a Specialist joining in a Sector), transitively."""
        c = self.content
        v = self.variant
        reach: set[str] = set(v.specialists if v and v.specialists is not None else self.map.specialists)
        no_items = v is not None and v.items is not None and not v.items
        if not no_items:
            reach |= set(v.items if v and v.items is not None else self.map.items)
            reach |= {cid for cid, card in c.cards.items() if c.card_kinds[cid] == "item" and card.grade == "regular"}
        reach |= {p.card for p in self.map.placed} | set(self.map.vehicles)
        reach |= reachable(self.option_rules, c)
        reach |= decks.reachable(self)  # the cards of an expansion's decks in this game
        reach |= {cid for cid, kind in c.card_kinds.items() if self._kind_side.get(kind) in self.side_defs
                  and not self._unavailable(cid)}  # the Pool of another side (the German Reserve)
        reach |= {cid for cid, card in c.cards.items() if c.card_kinds[cid] == "specialist" and card.only_in
                  and card.grade == "unique" and not self._unavailable(cid)}  # Specialists an option adds
        for d in self.side_defs.values():
            reach |= set(d.start.specialists)
        for s in self.map.sectors:
            if s.start is not None:
                reach |= set(s.start.specialists)
        if "awards" not in self.ignore:
            reach |= {a.id for a in c.cards_of("award") if not self._unavailable(a.id)}
        texts = [e.text for k, e in c.effects.items() if k.startswith((f"{self.map.id}/", "rule:"))]
        frontier = set(reach)
        while frontier:
            texts += [c.effects[cid].text for cid in frontier if cid in c.effects]
            frontier = set()
            named = cards_named(texts, c.cards)
            for cid in (named - reach).intersection(c.cards):
                reach.add(cid)
                frontier.add(cid)
            if "vehicle" in named:
                for veh in c.cards_of("vehicle"):
                    if veh.id not in reach and not self._unavailable(veh.id):
                        reach.add(veh.id)
                        frontier.add(veh.id)
        return reach

    def _build_graph(self) -> None:
        self.moves: dict[str, list[tuple[str, str, int, bool, bool]]] = {s: [] for s in self.sectors}
        for line in self.map.lines:
            for a in line.from_:
                for b in line.to:
                    if line.kind == "advance":
                        self.moves[a].append((b, "advance", line.cost or 0, line.landmines, line.barrier))
                    else:
                        self.moves[a].append((b, "lateral", 0, line.landmines, line.barrier))
                        self.moves[b].append((a, "lateral", 0, line.landmines, line.barrier))
        # Least Courage from each sector to a Bunker over forward paths (the reference policy's R).
        dist = dict.fromkeys(self.sectors, UNLIMITED)
        heap: list[tuple[int, str]] = []
        for sid, sec in self.sectors.items():
            if sec.bunker:
                dist[sid] = 0
                heap.append((0, sid))
        reverse: dict[str, list[tuple[str, int]]] = {s: [] for s in self.sectors}
        for a, outs in self.moves.items():
            for b, kind, cost, _, barrier in outs:
                target_cost = self.sectors[b].cost
                if target_cost is not None:
                    reverse[b].append((a, target_cost))
                elif not barrier and kind == "advance":
                    reverse[b].append((a, cost))
        heapq.heapify(heap)
        while heap:
            d, s = heapq.heappop(heap)
            if d > dist[s]:
                continue
            for a, c in reverse[s]:
                if d + c < dist[a]:
                    dist[a] = d + c
                    heapq.heappush(heap, (d + c, a))
        self.courage_to_bunker = dist
        # The front row (the highest row of Sectors that are not Bunkers) and the Sectors joined by a line to a
        # final Bunker: where another side's watch forbids trading (Atlantikwall).
        rows = [s.row for s in self.sectors.values() if not s.bunker]
        top = max(rows) if rows else 0
        self.front_row = frozenset(sid for sid, s in self.sectors.items() if not s.bunker and s.row == top)
        finals = {sid for sid, s in self.sectors.items() if s.bunker and s.objective}
        self.next_to_bunker = frozenset(a for a, outs in self.moves.items() if a not in finals
                                        and any(b in finals for b, *_ in outs))
        # How the reference policy ranks destinations: lowest first DEF, then lowest Sector number.
        self._move_rank = {sid: (sec.defense[0], self._number(sid)) for sid, sec in self.sectors.items()}

    def _index_effects(self) -> None:
        c = self.content
        self.global_sources: list[EffectSource] = list(_with_variants(c.effects, "rule:", self.options).values())
        for opt in self.options:
            key = f"option:{opt}"
            if key in c.effects:
                self.global_sources.append(c.effects[key])
        rwb_side = {r.id: r.side for r in c.rwb.rwb}
        every_rwb = _with_variants(c.effects, "rwb:", self.options)
        self.rwb_sources = {k: v for k, v in every_rwb.items() if rwb_side.get(k) is None}
        # Each side's own rules and RWB table (the German player's RBN bonuses) reach its players only.
        self.side_rwb = {side: {k: v for k, v in every_rwb.items() if rwb_side.get(k) == side}
                         for side in self.side_defs}
        self.side_sources = {side: [c.effects[k] for k in (f"side:{side}",) if k in c.effects]
                             for side in self.side_defs}
        self._side_mods: dict[str, dict[str, list[tuple[EffectSource, int, ModifierHook]]]] = {}
        for side, srcs in self.side_sources.items():
            mods: dict[str, list[tuple[EffectSource, int, ModifierHook]]] = {}
            for src in srcs:
                for i, hook in enumerate(src.compiled.modifiers):
                    mods.setdefault(hook.query, []).append((src, i, hook))
            self._side_mods[side] = mods
        self.rwb_faces = {r.id: r.face for r in c.rwb.rwb}
        mid = self.map.id
        if f"{mid}/rules" in c.effects:
            self.global_sources.append(c.effects[f"{mid}/rules"])
        self._mods_cache: dict[str, dict[str, list[tuple[int, ModifierHook]]]] = {}
        self._global_mods: dict[str, list[tuple[EffectSource, int, ModifierHook]]] = {}
        for src in self.global_sources:
            for i, hook in enumerate(src.compiled.modifiers):
                self._global_mods.setdefault(hook.query, []).append((src, i, hook))
        self._card_mods = {cid: self._mods_of(c.effects[cid]) for cid in c.cards if cid in c.effects
                           and c.effects[cid].compiled.modifiers}

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
        if not 1 <= players <= 4:
            raise RuleError("D-Day Dice is for 1 to 4 Units")
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

    def d6(self) -> int:
        """One die roll (1-6) from the game's generator; every die of the game comes from here."""
        return int(self.rng.random() * 6) + 1

    def _unavailable(self, card: str) -> bool:
        c = self.content.cards[card]
        return any(o in c.unavailable_in for o in self.options) or (
            bool(c.only_in) and not any(o in self.options for o in c.only_in))

    # ============================================================== logging
    def log(self, kind: str, detail: str, unit: Unit | None = None, source: str = "", tier: str = "",
            **data: Any) -> None:
        if self.tracing:
            self.state.log.append(Event(self.state.turn, self.state.phase, unit.id if unit else None, kind,
                                        detail, source, tier, data))

    # ============================================================ deciding
    def ask(self, unit: Unit, decision: Decision) -> tuple[int, ...]:
        decider = self._decider_of.get(unit.id)
        if decider is None:
            # A Unit's decider is the one at its number; another side's player comes after the Units.
            k = int(unit.id[1:]) - 1 if not unit.side else len(self.state.units) + self.state.sides.index(unit)
            decider = self._decider_of[unit.id] = self.deciders[k % len(self.deciders)]
        answer = check_answer(decision, decider.decide(self, decision))
        self.state.choices.append(list(answer))
        if self.tracing:
            self.log("choice", f"{decision.prompt} -> " + ", ".join(decision.options[i] for i in answer), unit,
                     kind_of=decision.kind)
        return answer

    def ask_one(self, unit: Unit, kind: str, prompt: str, options: Sequence[str], keys: Sequence[Any] = ()) -> int:
        if len(options) == 1:
            return 0
        return self.ask(unit, Decision(kind, unit.id, prompt, tuple(options), tuple(keys)))[0]

    def ask_keys(self, unit: Unit, kind: str, prompt: str | Callable[[], str], keys: Sequence[Any],
                 labeler: Callable[[Any], str]) -> int:
        """Ask for one of ``keys``; their English labels are made only if somebody reads them."""
        if len(keys) == 1:
            return 0
        return self.pick(unit, kind, prompt, tuple(keys), 1, 1, labeler)[0]

    def pick(self, unit: Unit, kind: str, prompt: str | Callable[[], str], keys: tuple[Any, ...], min_picks: int,
             max_picks: int, labeler: Callable[[Any], str]) -> tuple[int, ...]:
        """Ask for ``min_picks`` to ``max_picks`` of ``keys`` (labelled by ``labeler`` if somebody reads them).

        The fast protocol: a decider with ``decide_keys`` (a fixed policy) answers from the keys alone, and no
        Decision is built (nor the prompt worded, when it is given as a function) unless the game is traced or
        the answer fails the same legality test as every answer."""
        decider = self._decider_of.get(unit.id)
        fast = getattr(decider, "decide_keys", None) if decider is not None and not self.tracing else None
        if fast is not None:
            answer = legal_answer(len(keys), min_picks, max_picks, fast(self, unit.id, kind, keys, min_picks))
            if answer is not None:
                self.state.choices.append(list(answer))
                return answer
        return self.ask(unit, Decision(kind, unit.id, prompt if isinstance(prompt, str) else prompt(), (), keys,
                                       min_picks, max_picks, labeler))

    # =========================================================== the sources
    def _card_source(self, card: str) -> EffectSource | None:
        return self.content.effects.get(card)

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

    # ============================================================== queries
    def query(self, name: str, unit: Unit | None, *, sector: str | None = None, card: str | None = None,
              base: int | bool | None = None, explain: bool = False, consume: bool = False,
              clamp: bool = True) -> tuple[int | bool, Derivation | None]:
        info = self.queries.get(name)
        if info is None:
            raise RuleError(f"unknown query '{name}'")
        if sector is None and unit is not None:
            sector = unit.sector or None  # another side's player stands in no Sector
        if name == "def" and self.state.shortfall and sector is not None:
            return self._def_with_shortfall(unit, sector, card, explain, consume, clamp)
        sector_subject = info.subject == "sector"
        base_source = "game rules"
        if base is None:
            base, base_source = self._base(name, unit, sector, card, explain or consume)
        if not explain and name not in self.live_queries and (
                name != "def" or not self.state.bunker_specialists.get(sector or "")):
            if info.minimum is not None and not isinstance(base, bool) and base < info.minimum:
                return info.minimum, None
            return base, None
        candidates = self._candidates(name, sector, unit)
        grants = [g for g in self.state.grants if g.query == name] if self.state.grants else []
        bunker_n = self.state.bunker_specialists.get(sector, 0) if name == "def" and sector is not None else 0
        if not candidates and not grants and not bunker_n and not explain:
            # The common case: nothing changes this value; only the rules' clamp applies.
            if info.minimum is not None and not isinstance(base, bool) and base < info.minimum:
                return info.minimum, None
            return base, None
        contributions: list[Contribution] = []
        consumed: list[tuple[str, str, str]] = []
        ctx_unit = unit
        for src, owner, played, i, hook in candidates:
            if True:
                if not self._scoped(owner, hook.scope, unit, sector, sector_subject):
                    continue
                if card is not None and owner is not None and card != src.owner and info.subject == "card" \
                        and src.owner in self.content.cards \
                        and name not in {"specialist-cost", "item-cost"} and card in self.held_cards(owner):
                    # ruling: a held card's change to a value of a card in play speaks of the card itself
                    # (the Paratrooper "counts as 6", not his comrades; the Messenger alone may be traded);
                    # costs (Messenger, Quartermaster) are changed for any card.
                    continue
                ctx = Ctx(self, ctx_unit or owner, owner, src, sector, card)
                if hook.condition is not None and not hook.condition(ctx):
                    continue
                if hook.op == "require":
                    continue
                if hook.limit is not None:
                    # The limit is counted on the Unit that benefits (where `consume` records it below), so a
                    # Vehicle's "for units here ... once per phase" (Ambulance) serves each Unit present.
                    key = self._limit_key(ctx_unit or owner, src.owner, i, hook.limit)
                    holder = ctx_unit or owner
                    if holder is not None and holder.counters.get(key, 0) > 0:
                        continue
                    if consume:
                        consumed.append((key, src.owner, hook.text))
                value = hook.value(ctx) if hook.value is not None else None
                who = f"{src.name}" + (f" ({owner.name})" if owner is not None else "")
                contributions.append(Contribution(src.owner, who, self._tier(src), src.tier, hook.op, value,
                                                  (played, src.owner),
                                                  tuple(map(str, hook.args)) if hook.op == "protect" else (),
                                                  hook.text))
        for g in grants:
            if g.unit is not None and (unit is None or g.unit != unit.id):
                continue
            if g.sector is not None and g.sector != sector:
                continue
            contributions.append(Contribution(g.owner, self._name_of(g.owner), self.tier_index.get(g.tier, 0),
                                              g.tier, g.op, g.value, (g.order, g.owner), g.args, g.text))
        if bunker_n:
            contributions.append(Contribution("rule:bunker-specialists", "Specialists beside the Bunker",
                                              0, "rules", "add", -bunker_n, (-1, "rule"), (),
                                              f"{bunker_n} surviving Specialist(s) of earlier Units"))
        want_steps = explain or (consume and bool(consumed))
        value, derivation = combine(base, contributions, info.minimum if clamp else None, explain=want_steps,
                                    query=name, subject=self._subject(unit, sector, card) if want_steps else "",
                                    base_source=base_source)
        if consume and consumed and unit is not None and derivation is not None:
            # A limited effect ("once per phase") is used up only when it applied, not when it was overruled.
            overruled = {(s.source, s.text) for s in derivation.steps if s.overruled_by}
            for key, source, text in consumed:
                if (source, text) not in overruled:
                    unit.counters[key] = unit.counters.get(key, 0) + 1
        return value, (derivation if explain else None)

    def _def_with_shortfall(self, unit: Unit | None, sector: str, card: str | None, explain: bool, consume: bool,
                            clamp: bool) -> tuple[int | bool, Derivation | None]:
        """The DEF of a Sector for the Units while another side's casualties fell short this turn: the DEF
        the Units suffer (never below 0), then lowered by 1 per missing Soldier; below 0 only unclamped
        (each Unit there gains the difference: interpreter combat)."""
        shortfall = self.state.shortfall
        self.state.shortfall = 0
        try:
            value, derivation = self.query("def", unit, sector=sector, card=card, explain=explain, consume=consume)
        finally:
            self.state.shortfall = shortfall
        lowered = int(value) - shortfall
        final = max(lowered, 0) if clamp else lowered
        if derivation is not None:
            step = Step("rule:shortfall", "missing Soldiers of the other side", "rules", "add", -shortfall,
                        int(value), final, text=f"{shortfall} Soldier(s) missing from the other side's casualties "
                        "lower the DEF of every Sector")
            derivation = attrs.evolve(derivation, steps=(*derivation.steps, step), value=final)
        return final, derivation

    def value(self, name: str, unit: Unit | None, sector: str | None = None, card: str | None = None,
              base: int | None = None) -> int:
        """A number query's value (no derivation): a table lookup when nothing can change it."""
        if base is None:
            fixed = self.static_values.get(name)
            if fixed is not None:
                return fixed
        elif name not in self.live_queries:
            return base
        v, _ = self.query(name, unit, sector=sector, card=card, base=base)
        return int(v)

    def flag(self, name: str, unit: Unit | None, sector: str | None = None, card: str | None = None) -> bool:
        """A permission (no derivation): a table lookup when nothing can change it."""
        fixed = self.static_flags.get(name)
        if fixed is not None:
            return fixed
        v, _ = self.query(name, unit, sector=sector, card=card)
        return bool(v)

    def _subject(self, unit: Unit | None, sector: str | None, card: str | None) -> str:
        parts = []
        if unit is not None:
            parts.append(unit.name)
        if sector is not None:
            parts.append(self.sectors[sector].name)
        if card is not None:
            parts.append(self._name_of(card))
        return ", ".join(parts)

    def _name_of(self, owner: str) -> str:
        src = self.content.effects.get(owner)
        if src is not None:
            return src.name
        if owner in self.content.cards:
            return self.content.cards[owner].name
        return owner

    def _base(self, name: str, unit: Unit | None, sector: str | None, card: str | None, label: bool = True
              ) -> tuple[int | bool, str]:
        """The value before any effect, and where it comes from (worded only when ``label``: a derivation)."""
        info = self.queries[name]
        if name == "def":
            assert sector is not None
            sec = self.sectors[sector]
            turn = unit.chevrons() if unit is not None and unit.sector == sector else 1
            idx = min(max(turn, 1), len(sec.defense)) - 1
            if not label:
                return sec.defense[idx], ""
            return sec.defense[idx], f"{sec.name}'s printed DEF" + (f" (DEF #{idx + 1})" if len(sec.defense) > 1
                                                                    else "")
        if name == "mgf-dice":
            assert sector is not None
            if "mgf" in self.ignore:
                return 0, "ignored in this variant"
            return self.sectors[sector].mgf, f"{self.sectors[sector].name}'s MGF symbols"
        if name == "stay":
            if unit is None:
                return True, "game rules"
            must = unit.marker in STAY_FORBIDDEN
            return (not must), ("the Unit marker shows it must move" if must else "game rules")
        if name in {"specialist-cost", "item-cost"} and card is not None:
            return self.content.cards[card].cost or 0, f"{self._name_of(card)}'s printed cost"
        if info.default is None:
            return 0, "game rules"
        return info.default, "game rules"

    def _limit_key(self, unit: Unit | None, owner: str, index: int, period: str) -> str:
        s = self.state
        when = {"turn": f"t{s.turn}", "phase": f"t{s.turn}{s.phase}", "game": "g"}[period]
        return f"{owner}#{index}@{when}"

    # ============================================================== events
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

    # ================================================================ uses
    def available_uses(self, unit: Unit, point: str) -> list[tuple[EffectSource, int, UseHook, str]]:
        if unit.side:
            return self._side_uses(unit, point)
        here = [s for s in self._sector_sources(unit.sector) if s.compiled.uses]
        if not here and not unit.items and not unit.awards and not unit.specialists and unit.vehicle is None \
                and not unit.cards and not self.state.in_play and not self._shared_uses \
                and not self._can_buy_award(unit) and not self._others_share_uses(unit):
            return []
        out = []
        cards = self.held_cards(unit)
        sources: list[tuple[EffectSource, str]] = [(s, "") for s in self.global_sources]
        sources += [(s, "") for s in here]  # a Sector's own uses (Pointe-du-Hoc: retreat after a failed Climb)
        for card in self.state.in_play:  # drawn cards in play for every Unit: any Unit may use them
            in_play = self.content.effects.get(card)
            if in_play is not None and in_play.compiled.uses:
                sources.append((in_play, ""))
        for card in cards:
            src = self.content.effects.get(card)
            if src is not None:
                sources.append((src, card))
        for owner in self.state.units:
            if owner is unit or owner.status != "active":
                continue
            for card in owner.specialists + ([owner.vehicle] if owner.vehicle else []):
                src = self.content.effects.get(card)
                if src is not None and any(h.scope in {"units-here", "all-units"} for h in src.compiled.uses):
                    sources.append((src, f"{owner.id}:{card}"))
        for src, card in sources:
            for i, hook in enumerate(src.compiled.uses):
                if ":" in card and hook.scope not in {"units-here", "all-units"}:
                    continue
                if ":" in card and hook.scope == "units-here":
                    other = self.state.unit(card.split(":")[0])
                    if other.sector != unit.sector:
                        continue
                points = USE_POINTS if hook.window is None else WINDOW_POINTS.get(hook.window, ())
                if point not in points or hook.scope == "the-german":
                    continue
                if card in unit.cards and decks.spent(self, unit, card):
                    continue  # a held card kept after use (an option's keep-used) serves once per turn
                ctx = Ctx(self, unit, unit, src, unit.sector)
                if hook.condition is not None and not hook.condition(ctx):
                    continue
                if hook.limit is not None:
                    key = self._limit_key(unit, src.owner, 2000 + i, hook.limit)
                    if unit.counters.get(key, 0) > 0:
                        continue
                if src.owner == "rule:buy-award" and not self._can_buy_award(unit):
                    continue
                out.append((src, i, hook, card))
        return out

    def _side_uses(self, unit: Unit, point: str) -> list[tuple[EffectSource, int, UseHook, str]]:
        """The uses another side's player may make: his side's rules, his cards, and cards in play written
        for him or for every player (a Battle Condition the German ignores unless it names him)."""
        sources: list[tuple[EffectSource, str]] = [(s, "") for s in self.side_sources.get(unit.side, ())]
        for card in self.state.in_play:
            in_play = self.content.effects.get(card)
            if in_play is not None and in_play.compiled.uses:
                sources.append((in_play, "in-play"))
        for card in self.held_cards(unit):
            src = self.content.effects.get(card)
            if src is not None:
                sources.append((src, card))
        out = []
        for src, card in sources:
            for i, hook in enumerate(src.compiled.uses):
                if card == "in-play" and hook.scope not in {"the-german", "all-players"}:
                    continue
                points = USE_POINTS if hook.window is None else WINDOW_POINTS.get(hook.window, ())
                if point not in points:
                    continue
                if card in unit.cards and decks.spent(self, unit, card):
                    continue
                ctx = Ctx(self, unit, unit, src, None)
                if hook.condition is not None and not hook.condition(ctx):
                    continue
                if hook.limit is not None and unit.counters.get(self._limit_key(unit, src.owner, 2000 + i,
                                                                                hook.limit), 0) > 0:
                    continue
                out.append((src, i, hook, "" if card == "in-play" else card))
        return out

    def _others_share_uses(self, unit: Unit) -> bool:
        for owner in self.state.units:
            if owner is not unit and owner.status == "active" and (owner.specialists or owner.vehicle):
                return True
        return False

    def _can_buy_award(self, unit: Unit) -> bool:
        return unit.courage >= 6 and bool(self.state.award_deck) and unit.awards_drawn == 0

    def use_point(self, unit: Unit, point: str) -> None:
        """Offer the Unit every use it may make here, until it declines."""
        if point not in self.live_points or (self.option_rules.automated_units and not unit.side):
            return  # an automated Unit uses nothing
        for _ in range(20):
            if unit.status != "active" or self.state.outcome is not None:
                return
            uses = self.available_uses(unit, point)
            if not uses:
                return
            labels = ["nothing"] + [f"{src.name}: {hook.text}" for src, _, hook, _ in uses]
            keys: list[Any] = [None] + [(src.owner, i) for src, i, _, _ in uses]
            pick = self.ask_one(unit, "use", f"{unit.name}: use a card or rule now ({point})?", labels, keys) \
                if len(labels) > 1 else 0
            if pick == 0:
                return
            self.perform_use(unit, *uses[pick - 1])

    def perform_use(self, unit: Unit, src: EffectSource, index: int, hook: UseHook, card: str) -> None:
        used = f"used:{src.owner}"  # the times this card's uses were played this game ('times-used')
        unit.counters[used] = unit.counters.get(used, 0) + 1
        if hook.limit is not None:
            key = self._limit_key(unit, src.owner, 2000 + index, hook.limit)
            unit.counters[key] = unit.counters.get(key, 0) + 1
        kind = self.content.card_kinds.get(src.owner, "")
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
        if self.tracing:
            self.log("use", f"{unit.name} uses {src.name}: {hook.text}", unit, src.owner, src.tier)
        hook.run(Ctx(self, unit, unit, src, unit.sector))

    # =============================================================== turns
    def run(self, max_turns: int = MAX_TURNS) -> str:
        if fastturn.play(self, max_turns):  # the turn specialised from the plan, when it applies
            return self.state.outcome or "lost"
        while self.state.outcome is None:
            if self.state.turn >= max_turns:
                self.end("lost", f"no result after {max_turns} turns")
                break
            self.run_turn()
        return self.state.outcome or "lost"

    def run_turn(self) -> None:
        s = self.state
        if s.turn == 0:
            self.choose_starts()
            for u in self.side_players() + self.order():
                self.fire("game-start", u)
        s.turn += 1
        s.shortfall = 0
        for u in self.players():
            u.recruited = 0
            u.found = 0
            u.awards_drawn = 0
        if s.decks:
            s.phase = "turn-start"
            decks.start_of_turn(self)  # an expansion's cards drawn before the first phase (Battle Conditions)
        for phase in PHASES:
            if s.outcome is not None:
                return
            self.run_phase(phase)
        self.end_of_turn()

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
        for spec in unit.specialists:
            self._came_into_play(unit, spec)
        s.sectors[sector.id].entered = True
        if st.regular_specialists is not None and self.option_rules.regular == ("map",):
            s.hands[unit.id] = [c for c in st.regular_specialists if c not in unit.specialists]

    def run_phase(self, phase: str) -> None:
        self.state.phase = phase
        getattr(self, f"phase_{phase}")()
        if self.state.grants:
            self._expire("phase")

    def players(self) -> list[Unit]:
        """Every player: the Units, then the players of other sides (who are not Units)."""
        if not self.state.sides:
            return self.state.units
        return self.state.units + self.state.sides

    def side_players(self) -> list[Unit]:
        """Players of other sides still in the game; they act before the Units in each phase (ruling: the
        German "decides what happens first")."""
        return [p for p in self.state.sides if p.status == "active"]

    def order(self) -> list[Unit]:
        """Simultaneous actions in tie order: fewer Soldiers first, then Unit number."""
        units = self.state.units
        if len(units) == 1:
            return [units[0]] if units[0].status == "active" else []
        return sorted(self.state.active_units(), key=lambda u: (self.soldier_count(u), u.id))

    def acting(self) -> list[Unit]:
        """The Units that roll, keep resources and buy: none when the Units are automated."""
        return [] if self.option_rules.automated_units else self.order()

    # ------------------------------------------------------- phase 1: roll
    def phase_roll(self) -> None:
        sides = self.side_players() if self.state.sides else []
        for unit in sides + self.acting():
            self.roll_for(unit)
        for unit in sides + self.acting():
            self.fire("final-tally", unit)
        for unit in sides:
            self.use_point(unit, "after-final-tally")
        for unit in self.acting():
            self.lieutenant_trade(unit)
            self.use_point(unit, "after-final-tally")

    def roll_for(self, unit: Unit) -> None:
        if unit.kept_tally is not None:
            unit.tally = [attrs.evolve(d, cancelled=False) for d in unit.kept_tally]
            unit.kept_tally = None
            if self.tracing:
                self.log("roll", f"{unit.name} keeps last turn's Final Tally", unit)
            return
        faces = self._faces
        n = self.value("dice-rolled", unit)
        rng = self.rng
        random = rng.random
        layout = self._side_layout[unit.side] if unit.side else self._layout
        if n >= len(layout):
            dice = [Die(faces[int(random() * 6)], c, idx) for idx, c in layout]
        else:
            # ruling: when fewer dice are rolled, the player chooses which dice sit out (one per missing die),
            # before rolling; the dice that sit out are not rolled at all.
            dice = [Die("", c, idx) for idx, c in layout]
            per = self.content.dice.dice_per_colour
            out = self.ask(unit, Decision("aside", unit.id, f"{unit.name} rolls only {n} dice: which sit out?",
                                          tuple(f"{d.colour} {d.index % per + 1}" for d in reversed(dice)),
                                          tuple(d.index for d in reversed(dice)), len(dice) - n,
                                          len(dice) - n))
            drop = {len(dice) - 1 - i for i in out}
            dice = [d for d in dice if d.index not in drop]
            for d in dice:
                d.face = faces[int(random() * 6)]
        if ("after", "first-roll") in self.live_windows:
            unit.tally = dice  # uses 'after first-roll' read and change the first roll (Soldier Mulligan)
            self.use_point(unit, "after-first-roll")
        unit.tally = dice  # the dice on the table while rolling (what a player at the terminal is shown)
        locks = min(self.value("locked-dice", unit), len(dice))
        if locks:
            picked = self.pick(unit, "lock", "Lock dice (Locked dice are never re-rolled)",
                               tuple([(d.index, d.face, d.colour) for d in dice]), locks, locks, self._die_label)
            for i in picked:
                dice[i].locked = True
        rolls = self.value("rolls", unit)
        skulls_ok = self.flag("reroll-skull", unit)
        for r in range(1, rolls):
            free = [d for d in dice if not d.locked and (skulls_ok or d.face != "skull")]
            if not free:
                break
            picked = self.pick(unit, "reroll", _REROLL_PROMPTS[r] if r < 3 else "re-roll which dice?",
                               tuple([(d.index, d.face, d.colour) for d in free]), 0, len(free), self._die_label)
            for i in picked:
                free[i].face = faces[int(random() * 6)]
        unit.tally = dice
        if self.tracing:
            self.log("tally", f"{unit.name}'s Final Tally: " + ", ".join(
                f"{d.colour} {d.face}{' (locked)' if d.locked else ''}" for d in dice), unit)

    def lieutenant_trade(self, unit: Unit) -> None:
        if not self.flag("dice-trade", unit) or unit.counters.get(f"dicetrade@{self.state.turn}"):
            return
        partners = [u for u in self.state.active_units() if u is not unit
                    and not u.counters.get(f"dicetrade@{self.state.turn}")]
        if not partners:
            if self.option_rules.trading_pool:
                pool_trade(self, unit)  # nobody to trade with: an option's Trading Pool (solitaire)
            return
        options = ["no trade"] + [f"trade a die with {u.name}" for u in partners]
        pick = self.ask_one(unit, "dice-trade", f"{unit.name}: trade 1 die with another Unit (Lieutenant)?",
                            options, [None] + [u.id for u in partners])
        if pick == 0:
            return
        other = partners[pick - 1]
        mine = [d for d in unit.tally if d.real]
        theirs = [d for d in other.tally if d.real]
        a = self.ask_one(unit, "dice-trade", "give which die?", [f"{d.colour} {d.face}" for d in mine])
        b = self.ask_one(other, "dice-trade", f"{other.name}: give which die to {unit.name}?",
                         [f"{d.colour} {d.face}" for d in theirs])
        da, db = mine[a], theirs[b]
        unit.tally[unit.tally.index(da)] = db
        other.tally[other.tally.index(db)] = da
        unit.counters[f"dicetrade@{self.state.turn}"] = 1
        other.counters[f"dicetrade@{self.state.turn}"] = 1
        if self.tracing:
            self.log("dice-trade", f"{unit.name} gives {da.colour} {da.face} to {other.name} for {db.colour} "
                     f"{db.face}", unit)

    # ----------------------------------------------------- phase 2: upkeep
    def counts_face(self, face: str) -> bool:
        if self.keep_faces is not None:
            return face in self.keep_faces
        if face == "star" and "stars" in self.ignore:
            return False
        return not (face == "tool" and "tools" in self.ignore)

    def phase_upkeep(self) -> None:
        for unit in (self.side_players() if self.state.sides else []) + self.acting():
            self.upkeep_for(unit)

    def upkeep_for(self, unit: Unit) -> None:
        self.fire("upkeep", unit)
        tally = unit.tally
        # ruling: the straight is read on the Final Tally, before Skulls cancel anything.
        if self.keep_faces is None and unit.awards_drawn == 0 and \
                {f.id for f in self.content.dice.faces} <= {d.face for d in tally}:
            self.fire("straight", unit)
        rwb_on = "rwb" not in self.ignore
        table = self.side_rwb[unit.side] if unit.side else self.rwb_sources
        # The Skulls' RWB (Dead Man's Gift; the German's Distribution) is read before Skulls cancel: its
        # three Skulls cancel nothing.
        gift_id = next((rid for rid in table if self.rwb_faces.get(rid) == "skull"), "")
        gift: list[Die] = []
        if rwb_on and gift_id:
            gift = self._rwb_dice(unit, gift_id)
        self._cancel(unit, exclude=gift)
        if rwb_on:
            if gift:
                self._score_rwb(unit, gift_id, gift)
            for _ in range(4):
                scored = False
                for rid in table:
                    if rid == gift_id:
                        continue
                    dice = self._rwb_dice(unit, rid)
                    if dice:
                        self._score_rwb(unit, rid, dice)
                        scored = True
                if not scored:
                    break
        self._collect(unit)
        if not unit.side:
            self._advance_marker(unit)

    def _rwb_dice(self, unit: Unit, rid: str) -> list[Die]:
        face = self.rwb_faces.get(rid)
        colours = self.side_defs[unit.side].colours if unit.side else self.content.dice.colours
        picked: list[Die] = []
        for colour in colours:
            die = next((d for d in unit.tally if d.face == face and d.colour == colour and not d.cancelled
                        and d.source != "rwb-used"), None)
            if die is None:
                return []
            picked.append(die)
        return picked

    def _score_rwb(self, unit: Unit, rid: str, dice: list[Die]) -> None:
        for d in dice:
            d.source = "rwb-used"
        src = self.side_rwb[unit.side][rid] if unit.side else self.rwb_sources[rid]
        if self.tracing:
            self.log("rwb", f"{unit.name} scores {src.name}", unit, src.owner, src.tier)
        self.fire("rwb", unit, only=src)
        self.fire("rwb", unit)

    def _cancel(self, unit: Unit, exclude: list[Die]) -> None:
        if "skulls" in self.ignore or (self.keep_faces is not None and "skull" not in self.keep_faces):
            return
        skulls = [d for d in unit.tally if d.face == "skull" and d not in exclude]
        n = len(skulls) - self.value("skulls-ignored", unit)
        for _ in range(max(n, 0)):
            targets = [d for d in unit.tally if d.face != "skull" and not d.cancelled]
            if not targets:
                return
            i = self.ask_keys(unit, "cancel", f"{unit.name}: a Skull cancels which result?",
                              [(d.index, d.face, d.colour) for d in targets], self._die_label)
            targets[i].cancelled = True

    def _collect(self, unit: Unit) -> None:
        gains = {"soldiers": 0, "stars": 0, "courage": 0}
        tools = 0
        worth = self._face_worth
        if worth is None:
            # What each face of the Final Tally is worth in this game (variants count only some faces).
            worth = {}
            for face in self._faces:
                if not self.counts_face(face):
                    continue
                if self._soldier_faces.get(face):
                    worth[face] = ("soldiers", self._soldier_faces[face])
                elif face in {"star", "courage"}:
                    worth[face] = ("stars" if face == "star" else "courage", 1)
                elif face == "tool":
                    worth[face] = ("tools", 1)
            self._face_worth = worth
        for d in unit.tally:
            if d.cancelled:
                continue
            got = worth.get(d.face)
            if got is None:
                continue
            if got[0] == "tools":
                tools += 1
            else:
                gains[got[0]] += got[1]
        table = self.content.dice.tool_table
        points = table[tools] if tools < len(table) else table[-1] + (tools - len(table) + 1) * \
            self.content.dice.tool_table_step
        unit.soldiers += gains["soldiers"]
        unit.stars += gains["stars"]
        unit.courage += gains["courage"]
        unit.item_points += points
        if self.tracing:
            self.log("collect", f"{unit.name} collects {gains['soldiers']} Soldiers, {gains['stars']} Stars, "
                     f"{gains['courage']} Courage, {points} Item Points", unit, gains=gains, item_points=points)

    def _advance_marker(self, unit: Unit) -> None:
        if unit.marker in STAY_FORBIDDEN:
            return
        if not self.flag("marker-advance", unit):
            return
        nxt = NEXT_MARKER.get(unit.marker)
        stay = self.value("stay-turns", unit)
        if nxt is None or unit.chevrons() >= stay:
            unit.marker = "must-move"
        else:
            unit.marker = nxt

    # --------------------------------------------------- phase 3: purchase
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
        out = []
        kind = self._side_kind(unit, "specialist")
        for spec in self.state.hands.get(unit.id, []) + [p for p in self.state.pool
                                                          if self.content.card_kinds[p] == kind]:
            if spec in unit.specialists or spec in unit.dead:
                continue
            cost = self.value("specialist-cost", unit, card=spec)
            if cost <= unit.stars:
                out.append((spec, cost))
        return out

    def findable(self, unit: Unit, *, free: bool = False) -> list[tuple[str, int]]:
        if not self.state.pool and not self.state.placed:
            return []
        if not free and (unit.found >= self.value("finds-per-turn", unit) or not self.flag("find", unit)):
            return []
        out = []
        offered = self._offered(unit) if not unit.side else []
        kind = self._side_kind(unit, "item")
        for card in [p for p in self.state.pool if self.content.card_kinds[p] == kind] + offered:
            cost = self.value("item-cost", unit, card=card)
            if free or cost <= unit.item_points:
                if self.content.card_kinds[card] == "vehicle" and unit.vehicle is not None:
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
        labels = [nothing] + [f"{kind} the {self._name_of(c)} ({cost} {money})" for c, cost in options]
        pick = self.ask_one(unit, kind, f"{unit.name} has {getattr(unit, purse)} {money}: {kind} {what}?",
                            labels, [None] + [c for c, _ in options])
        if pick:
            self.buy(unit, kind, options[pick - 1][0])

    def buy(self, unit: Unit, kind: str, card: str) -> bool:
        """Recruit ("recruit") or find ("find") a card in Phase 3, paying its cost for this Unit and counting
        it toward the per-turn limit; False when the rules do not allow it now."""
        options = self.recruitable(unit) if kind == "recruit" else self.findable(unit)
        cost = next((c for cid, c in options if cid == card), None)
        if cost is None:
            return False
        if kind == "recruit":
            unit.stars -= cost
            unit.recruited += 1
        else:
            unit.item_points -= cost
            unit.found += 1
        self.gain_card(unit, card)
        return True

    def gain_card(self, unit: Unit, card: str) -> None:
        kind = self.content.card_kinds[card]
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
        src = self.content.effects.get(card)
        if src is not None:
            self.fire("found", unit, only=src)

    def _came_into_play(self, unit: Unit, card: str) -> None:
        self.state.play_order += 1
        unit.came_into_play[card] = self.state.play_order

    def abandon_vehicle(self, unit: Unit) -> None:
        if unit.vehicle is None:
            return
        if self.tracing:
            self.log("abandon", f"{unit.name} abandons the {self._name_of(unit.vehicle)} for good", unit)
        self.state.abandoned.append(unit.vehicle)
        unit.vehicle = None

    def trade(self, unit: Unit) -> None:
        """Resource trading with Units in the same Sector (or anywhere, with a Carrier Pigeon)."""
        if len(self.state.units) == 1 or not self.flag("trade", unit):
            return
        anywhere = self.flag("trade-anywhere", unit)
        partners = [u for u in self.state.active_units() if u is not unit and (anywhere or u.sector == unit.sector)]
        if not partners:
            return
        for _ in range(40):
            options: list[str] = ["done trading"]
            keys: list[Any] = [None]
            for other in partners:
                # ruling: a trade may not leave a Unit without Soldiers (it would be wiped out at once and
                # lose the game for everyone); the last Soldier is not offered.
                spare = unit.soldiers if self.soldier_count(unit) > unit.soldiers else unit.soldiers - 1
                for res, have in (("soldiers", spare), ("courage", unit.courage), ("stars", unit.stars),
                                  ("item_points", unit.item_points)):
                    if have > 0:
                        options.append(f"give 1 {res.replace('_', ' ')} to {other.name}")
                        keys.append((other.id, res))
                for item in unit.items + [c for c in unit.cards if decks.tradeable(self, c)]:
                    options.append(f"give the {self._name_of(item)} to {other.name}")
                    keys.append((other.id, item))
                if unit.vehicle and other.vehicle is None:
                    options.append(f"give the {self._name_of(unit.vehicle)} to {other.name}")
                    keys.append((other.id, unit.vehicle))
                for spec in unit.specialists:
                    if self.flag("trade-specialist", unit, card=spec) and \
                            not unit.counters.get(f"traded:{spec}@{self.state.turn}"):
                        options.append(f"give the {self._name_of(spec)} to {other.name}")
                        keys.append((other.id, spec))
            pick = self.ask_one(unit, "trade", f"{unit.name}: trade with another Unit?", options, keys)
            if pick == 0:
                return
            oid, what = keys[pick]
            other = self.state.unit(oid)
            if what in {"soldiers", "courage", "stars", "item_points"}:
                setattr(unit, what, getattr(unit, what) - 1)
                setattr(other, what, getattr(other, what) + 1)
            elif what in unit.items:
                unit.items.remove(what)
                other.items.append(what)
            elif what in unit.cards:
                unit.cards.remove(what)
                other.cards.append(what)
            elif what == unit.vehicle:
                unit.vehicle = None
                other.vehicle = what
            elif what in unit.specialists:
                unit.specialists.remove(what)
                other.specialists.append(what)
                other.counters[f"traded:{what}@{self.state.turn}"] = 1
            if self.tracing:
                self.log("trade", f"{unit.name}: {options[pick]}", unit)

    # --------------------------------------------------- phase 4: movement
    def phase_movement(self) -> None:
        for unit in self.order():
            if unit.status != "active" or self.state.outcome is not None:
                continue
            if self.option_rules.automated_units:
                move = automaton.next_move(self, unit)  # solitaire Atlantikwall's fixed procedure
                if move is not None:
                    self.do_move(unit, move)
                continue
            self.use_point(unit, "movement")
            self.move_phase_for(unit)

    def legal_moves(self, unit: Unit) -> list[Move]:
        s = self.state
        here = unit.sector
        moves: list[Move] = []
        if unit.moved_turn == s.turn:
            # rulebook, Phase 4: "A Unit can only move once per turn": once it has moved, it stays put.
            return [Move("stay", None, 0, False)]
        if self._may_stay(unit):
            moves.append(Move("stay", None, 0, False))
        fixed = self._fixed_moves
        if fixed is not None:  # the same checks as below, with the rules this game cannot change worked out
            visited, courage, vehicle = unit.visited, unit.courage, unit.vehicle is not None
            room = self._fixed_capacity
            crowd: dict[str, int] | None = None
            if room <= len(s.units):
                crowd = {}
                for u in s.units:
                    if u.status == "active":
                        crowd[u.sector] = crowd.get(u.sector, 0) + 1
            for to, kind, cost, mines_apply, abandons in fixed[here]:
                if to in visited or (crowd is not None and crowd.get(to, 0) >= room):
                    continue
                requirements = self._requirements(to)
                if requirements and any(r[:1] == ("battle-cry",) for r in requirements):
                    continue  # no Battle Cry in this game
                if cost <= courage and (not requirements or self._meets(unit, requirements)):
                    moves.append(Move(kind, to, cost, mines_apply, False, vehicle and abandons))
            return moves
        battle_cry = self.flag("battle-cry", unit) and self.flag("battle-cry-here", unit)
        occupancy: dict[str, int] = {}
        for u in s.units:
            if u.status == "active":
                occupancy[u.sector] = occupancy.get(u.sector, 0) + 1
        may_advance = self.flag("advance", unit)
        crosses_barriers: bool | None = None
        for to, line_kind, printed_cost, mines, barrier in self.moves[here]:
            kind, line_cost = line_kind, printed_cost
            if to in unit.visited:
                continue
            if barrier:
                if crosses_barriers is None:
                    crosses_barriers = self.flag("ignore-barriers", unit)
                if not crosses_barriers:
                    continue
            if kind == "advance" and not may_advance:
                continue
            if occupancy.get(to, 0) >= self.value("capacity", unit, sector=to):
                continue
            if not self.flag("enter", unit, sector=to):
                continue
            mines_apply = mines and "landmines" not in self.ignore
            abandons = unit.vehicle is not None and (
                (mines_apply and not self.flag("vehicle-crosses-landmines", unit)) or self.sectors[to].bunker
                or not self.flag("vehicle-here", unit, sector=to))
            requirements = self._requirements(to)
            needs_cry = any(r[:1] == ("battle-cry",) for r in requirements)
            if needs_cry and not (battle_cry and self.flag("battle-cry-here", unit, sector=to)):
                continue
            target_cost = self.sectors[to].cost
            if target_cost is not None:
                # Entering a Sector with its own printed cost (a Bunker) is an Advance from any line.
                kind = "advance"
                line_cost = target_cost
            cost = self.value("advance-cost", unit, base=line_cost) if kind == "advance" else 0
            plain_ok = cost <= unit.courage and self._meets(unit, requirements)
            if plain_ok and not needs_cry:
                moves.append(Move(kind, to, cost, mines_apply, False, abandons))
            if battle_cry and self.flag("battle-cry-here", unit, sector=to) and (
                    kind == "advance" or requirements) and not (plain_ok and cost == 0 and not requirements):
                moves.append(Move(kind, to, 0, mines_apply, True, abandons))
        return moves

    def _may_stay(self, unit: Unit) -> bool:
        """The 'stay' permission; when nothing in this game changes it, its base (the Unit marker) at once."""
        if "stay" in self.live_queries:
            return self.flag("stay", unit)
        return unit.marker not in STAY_FORBIDDEN

    def explain_entry(self, unit: Unit, to: str) -> tuple[bool, Derivation]:
        """Whether the Unit may move into ``to`` now, as a derivation of every check, in order."""
        from ddaydice.interpreter.precedence import Step

        steps: list[Step] = []

        def check(name: str, passed: bool, yes: str, no: str) -> None:
            steps.append(Step("rules", name, "rules", "check", None, True, passed, text=yes if passed else no))

        if to not in self.sectors:
            raise RuleError(f"no sector '{to}' on {self.map.name}")
        here_name, to_name = self.sectors[unit.sector].name, self.sectors[to].name
        lines = [m for m in self.moves[unit.sector] if m[0] == to]
        article = "an advance" if lines and lines[0][1] == "advance" else "a lateral"
        check("next to it", bool(lines), f"{article} line joins {here_name} and {to_name}",
              f"{to_name} does not touch {here_name}, or lies behind it (Units never go back)")
        check("not visited", to not in unit.visited, "not visited yet", "a Unit never visits the same Sector twice")
        check("one move per turn", unit.moved_turn != self.state.turn, "the Unit has not moved this turn",
              "the Unit has already moved this turn")
        if lines:
            _, kind, cost, _mines, barrier = lines[0]
            if barrier:
                check("Barrier", self.flag("ignore-barriers", unit), "the Unit may cross Barriers now",
                      "a Barrier is impassable (Wirecutters or a Bulldozer cross it)")
            if kind == "advance":
                check("may Advance", self.flag("advance", unit), "Advancing from here is allowed",
                      "Advancing from here is forbidden")
            enter, derivation = self.query("enter", unit, sector=to, explain=True)
            check("the Sector lets it in", bool(enter), "nothing forbids entering", "; ".join(
                f"{s.source_name}: {s.text}" for s in (derivation.steps if derivation else ())) or "forbidden")
            here = sum(1 for u in self.state.active_units() if u.sector == to)
            room = self.value("capacity", unit, sector=to)
            check("room", here < room, "there is room", f"at most {room} Unit(s) may stand there")
            reqs = self._requirements(to)
            if reqs:
                texts = "; ".join(" ".join(map(str, r)) for r in reqs)
                cry = self.flag("battle-cry", unit)
                check("requirements", self._meets(unit, reqs) or cry,
                      f"met ({texts})" if not cry else f"ignored by the Battle Cry ({texts})", f"not met: {texts}")
            target_cost = self.sectors[to].cost
            if target_cost is not None:
                kind, cost = "advance", target_cost
            if kind == "advance":
                need = 0 if self.flag("battle-cry", unit) else self.value("advance-cost", unit, base=cost)
                check("Courage", unit.courage >= need, f"the Advance costs {need} Courage; the Unit has "
                      f"{unit.courage}", f"the Advance costs {need} Courage; the Unit has only {unit.courage}")
        final = any(m.to == to for m in self.legal_moves(unit))
        return final, Derivation("may-enter", f"{unit.name}, {to_name}", True, "game rules", tuple(steps), final)

    def _requirements(self, sector: str) -> list[tuple[str | int, ...]]:
        if "requirements" in self.ignore:
            return []
        key = (sector, len(self.state.sectors[sector].attributes))
        cached = self._req_cache.get(key)
        if cached is None:
            cached = self._req_cache[key] = self._find_requirements(sector)
        return cached

    def _find_requirements(self, sector: str) -> list[tuple[str | int, ...]]:
        out = []
        for src in self._sector_sources(sector):
            for hook in src.compiled.modifiers:
                if hook.op == "require":
                    out.append(hook.args)
        return [("battle-cry",) if r[:1] == ("battle-cry",) else r for r in out] if out else []

    def _meets(self, unit: Unit, requirements: list[tuple[str | int, ...]]) -> bool:
        if self.flag("ignore-requirements", unit):
            return True
        for req in requirements:
            if req[0] == "battle-cry":
                continue
            if req[0] == "climb":
                continue
            if req[0] == "sacrifice":
                if self.flag("ignore-sacrifices", unit):
                    continue
                what = req[1]
                if isinstance(what, int):
                    if len(unit.specialists) < what:
                        return False
                elif what not in unit.specialists:
                    return False
            elif req[0] not in self.held_cards(unit):
                return False
        return True

    def move_phase_for(self, unit: Unit) -> None:
        moves = self.legal_moves(unit)
        must = not self._may_stay(unit)
        if not moves:
            if must:
                self.wipe_out(unit, "must move and cannot")
            return
        pick = self.ask_keys(
            unit, "move", lambda: f"{unit.name} in {self.sectors[unit.sector].name}{' (must move)' if must else ''}: "
            "move?", moves, self.describe_move)
        move = moves[pick]
        if move.kind == "stay":
            return
        self.do_move(unit, move)

    def describe_move(self, m: Move) -> str:
        if m.kind == "stay":
            return "stay"
        sec = self.sectors[m.to or ""]
        text = f"{'advance' if m.kind == 'advance' else 'move'} to {sec.name} (DEF {'/'.join(map(str, sec.defense))}"
        text += f", {m.cost} Courage)" if m.kind == "advance" else ")"
        if m.battle_cry:
            text += " with a Battle Cry"
        if m.landmines:
            text += " across Landmines"
        if m.abandons_vehicle:
            text += ", abandoning the Vehicle"
        return text

    def do_move(self, unit: Unit, move: Move) -> None:
        assert move.to is not None
        to = move.to
        frm = unit.sector
        if move.abandons_vehicle:
            self.abandon_vehicle(unit)
        unit.courage -= move.cost
        unit.sector = to
        unit.visited.append(to)
        unit.moved_turn = self.state.turn
        unit.entered_turn = self.state.turn
        unit.marker = "cant-stay" if self.sectors[to].black else "chevron-1"
        if self.tracing:
            self.log("move", f"{unit.name} {self.describe_move(move)}", unit, frm=frm, to=to)
        if move.landmines:
            self.landmines(unit)
        if unit.status != "active":
            return
        self.fire("move", unit)
        if move.kind == "advance":
            self.fire("advance", unit)
        # ruling: the sacrifice a Sector requires is made on arrival, after the Advance, so a Beachmaster
        # sacrificed to it has already given his bonus (rulebook: "If you sacrifice him after Advancing, you
        # still get his bonus"; cards/specialists.yaml).
        if not move.battle_cry and not self.flag("ignore-requirements", unit):
            for req in self._requirements(to):
                if req[0] == "sacrifice" and not self.flag("ignore-sacrifices", unit):
                    what = req[1]
                    if isinstance(what, int):
                        for _ in range(what):
                            self.sacrifice_choice(unit, f"sacrifice a Specialist to enter {self.sectors[to].name}")
                    else:
                        self.lose_specialist(unit, str(what), forced=True)
        first = not self.state.sectors[to].entered
        self.state.sectors[to].entered = True
        if self.option_rules.automated_units:
            return  # an automated Unit is not affected by Sector attributes
        self.fire("enter", unit, sector=to, sector_only=True)
        if first:
            self.fire("first-enter", unit, sector=to, sector_only=True)
        # A card placed in a Sector is obtained as the Sector's effect says ('on first-enter: find X free'),
        # never by entering alone: Merville's Sector 9 holds two, one for solitaire and one otherwise.

    def landmines(self, unit: Unit) -> None:
        if self.option_rules.automated_units:
            # An automated Unit keeps no Soldiers: Landmines another side's rules switch off hit that side's
            # player ("you must roll and suffer the losses yourself; you can only avoid this by activating").
            if self.flag("ignore-landmines", unit):
                for player in self.side_players():
                    roll = self.d6()
                    if self.tracing:
                        self.log("landmines", f"inactive Landmines: {player.name} rolls {roll}", player, roll=roll)
                    self.suffer(player, roll, "inactive Landmines")
            return
        if self.flag("ignore-landmines", unit):
            if self.tracing:
                self.log("landmines", f"{unit.name} ignores the Landmines", unit)
            return
        self.landmine_roll = [self.d6()]
        if self.tracing:
            self.log("landmines", f"{unit.name} crosses Landmines and rolls {self.landmine_roll[0]}", unit,
                     roll=self.landmine_roll[0])
        # Landmine dice can be modified (rulebook: "like using the Binoculars") before the losses are taken.
        self.use_point(unit, "after-landmine")
        roll = self.landmine_roll[0]
        self.landmine_roll = None
        self.suffer(unit, roll, "Landmines")
        self.fire("landmine", unit)  # 'on landmine': the Unit crossed Landmines (after their losses)

    # ----------------------------------------------------- phase 5: combat
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
        for units in by_sector.values() if "before-mgf" in self.live_points else ():
            for unit in units:
                self.use_point(unit, "before-mgf")
        for sector, units in by_sector.items():
            if self.state.outcome is not None:
                return
            n = self.value("mgf-dice", units[0], sector=sector)
            rolls = [self.d6() for _ in range(n)]
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
        mgf = sum(rolls)
        if mgf and self.flag("ignore-mgf-casualties", unit):
            if self.tracing:
                self.log("combat", f"{unit.name} ignores MGF casualties", unit)
            mgf = 0
        sixes = sum(1 for r in rolls if r == 6)
        special = self.sectors[sector].special_damage or self.map.special_damage
        if sixes and special and special != "none" and "special-damage" not in self.ignore \
                and self.flag("special-damage", unit) and not self.flag("ignore-special-damage", unit) \
                and not self.flag("ignore-mgf-casualties", unit):
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
                    unit.marker = "chevron-1"
                    if self.tracing:
                        self.log("bunker", f"{unit.name} conquers {self.sectors[bunker].name} and remains in play",
                                 unit)
                    continue
                unit.status = "safe"
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

    # ----------------------------------------------------------- casualties
    def soldier_count(self, unit: Unit) -> int:
        total = unit.soldiers
        for spec in unit.specialists:
            total += self.value("soldier-value", unit, card=spec)
        return total

    def suffer(self, unit: Unit, amount: int, cause: str) -> int:
        """Lose ``amount`` Soldiers (after protections), the player choosing Soldiers or Specialists; returns
        what could not be lost (another side's shortfall)."""
        if amount <= 0 or unit.status == "dead" or (self.option_rules.automated_units and not unit.side):
            return 0  # an automated Unit keeps no Soldiers
        if "casualties" in self.live_queries:
            after, _ = self.query("casualties", unit, base=amount, consume=True)
            remaining = int(after)
        else:
            remaining = amount  # nothing in this game changes casualties (amount > 0: no clamp applies)
        if remaining < amount and self.tracing:
            self.log("save", f"{unit.name} is spared {amount - remaining} casualties", unit)
        self.pending_casualties = remaining
        self.fire("casualties", unit)
        remaining = self.pending_casualties
        self.pending_casualties = 0
        lost = 0
        while remaining > 0 and self.soldier_count(unit) > 0:
            keys: list[Any] = []
            if unit.soldiers > 0:
                n = min(remaining, unit.soldiers)
                keys.append(("soldiers", n))
                if n > 1:
                    keys.append(("soldiers", 1))
            for spec in unit.specialists:
                keys.append(("specialist", spec))
            pick = self.ask_keys(unit, "casualty", functools.partial(self._casualty_prompt, unit, remaining, cause),
                                 keys, functools.partial(self._casualty_label, unit))
            what, arg = keys[pick]
            if what == "soldiers":
                unit.soldiers -= arg
                remaining -= arg
                lost += arg
            else:
                v = self.value("soldier-value", unit, card=arg)
                self.lose_specialist(unit, arg, forced=False)
                remaining -= v
                lost += v
        if self.tracing:
            self.log("casualties", f"{unit.name} loses {lost} ({cause})", unit, lost=lost, cause=cause)
        if unit.side:
            # Another side's player is not wiped out ("you do not lose the game!"), unless the game's rules
            # say so (solitaire Atlantikwall: options' setting side-loses-at-zero).
            if self.soldier_count(unit) <= 0 and self.option_rules.side_loses_at_zero:
                self.end("won", f"{unit.name} has no Soldier left ({cause})")
            return max(remaining, 0)
        if self.tracing:
            self.state.log[-1].data["sector"] = unit.sector
        self.state.deaths.append({"unit": unit.id, "sector": unit.sector, "lost": lost, "turn": self.state.turn})
        if self.soldier_count(unit) <= 0:
            self.wipe_out(unit, f"wiped out ({cause})")
        return 0

    @staticmethod
    def _casualty_prompt(unit: Unit, remaining: int, cause: str) -> str:
        return f"{unit.name} must lose {remaining} more ({cause})"

    def _casualty_label(self, unit: Unit, key: tuple[str, Any]) -> str:
        what, arg = key
        if what == "soldiers":
            return f"lose {arg} Soldier{'s' if arg > 1 else ''}"
        return f"lose the {self._name_of(arg)} (counts as {self.value('soldier-value', unit, card=arg)})"

    @staticmethod
    def _die_label(key: tuple[int, str, str | None]) -> str:
        _, face, colour = key
        return f"{colour or 'colourless'} {face}"

    def lose_specialist(self, unit: Unit, spec: str, *, forced: bool) -> None:
        if spec not in unit.specialists:
            return
        if forced:
            self._decoy = None
            self._losing = spec
            self.fire("specialist-lost", unit)
            spec = self._take_decoy() or spec
            self._losing = None
        back = "back-to-pool" in self.live_queries and self.flag("back-to-pool", unit, card=spec)
        unit.specialists.remove(spec)
        if back:
            self.state.pool.append(spec)  # a card that returns to the Pool when lost (the Zwangsrekrut)
        else:
            unit.dead.append(spec)
        if self.tracing:
            self.log("specialist-lost", f"{unit.name} loses the {self._name_of(spec)}"
                     + (" (back to the Pool)" if back else ""), unit, spec)
        if unit.side and self.option_rules.side_loses_at_zero and self.soldier_count(unit) <= 0:
            self.end("won", f"{unit.name} has no Soldier left")  # "at any moment" (solitaire Atlantikwall)

    def _take_decoy(self) -> str | None:
        decoy, self._decoy = self._decoy, None
        return decoy

    def sacrifice_choice(self, unit: Unit, prompt: str) -> None:
        if not unit.specialists:
            return
        i = self.ask_one(unit, "sacrifice", f"{unit.name}: {prompt}",
                         [self._name_of(s) for s in unit.specialists], list(unit.specialists))
        self.lose_specialist(unit, unit.specialists[i], forced=True)

    def wipe_out(self, unit: Unit, why: str) -> None:
        unit.status = "dead"
        self.state.deaths.append({"unit": unit.id, "sector": unit.sector, "wiped": True, "turn": self.state.turn})
        if self.tracing:
            self.log("wiped-out", f"{unit.name} is {why}", unit)
        if not self._continue_after_loss():
            self.end("lost", f"{unit.name} is {why}")

    def _continue_after_loss(self) -> bool:
        # Exercise Tiger's training variants: "If a Unit is killed along the way, the other players must continue".
        return self.variant is not None and self.variant.continue_after_loss and \
            bool(self.state.active_units())

    # ------------------------------------------------------------ end of turn
    def end_of_turn(self) -> None:
        self._expire("turn")
        s = self.state
        if s.outcome is not None:
            return
        if not any(u.status == "active" for u in s.units):
            if any(u.status == "safe" for u in s.units) and self._objectives_met():
                self.end("won", "every surviving Unit is safe in a Bunker")
            else:
                self.end("lost", "no Unit reached the objective")

    def _objectives_met(self) -> bool:
        bunkers = [s.id for s in self.map.sectors if s.bunker and s.objective]
        return all(b in self.state.conquered for b in bunkers) or (
            len(bunkers) > 1 and len(self.state.units) == 1 and bool(self.state.conquered)
            and not self.option_rules.every_objective)

    def end(self, outcome: str, reason: str) -> None:
        if self.state.outcome is None:
            self.state.outcome = outcome
            self.state.reason = reason
            if self.tracing:
                self.log("end", f"the game is {outcome}: {reason}", None)

    def _expire(self, period: str) -> None:
        s = self.state
        if period == "phase" and not s.grants:
            return
        if period == "turn":
            if s.grants:
                s.grants = [g for g in s.grants if g.expires == "never" or
                            (g.expires.startswith("turn:") and int(g.expires[5:]) > s.turn)]
            for u in self.players():
                if u.counters:
                    u.counters = {k: v for k, v in u.counters.items() if "@t" not in k or k.endswith("@g")}
        else:
            s.grants = [g for g in s.grants if not g.expires.startswith("phase:")]

    # ================================================================ policy
    def reference_move(self, decision: Decision) -> int:
        """DESIGN.md section 10's movement rule, for the reference policy."""
        return self.reference_move_keys(decision.unit, decision.keys)

    def reference_move_keys(self, unit_id: str, moves: tuple[Move, ...]) -> int:
        """DESIGN.md section 10's movement rule, from the legal moves of a Unit."""
        unit = self.state.unit(unit_id)
        need = self.courage_to_bunker.get(unit.sector, UNLIMITED)
        rank = self._move_rank
        # The best advance and the best lateral move: lowest (first DEF, Sector number), the first one on a tie.
        adv = lat = stay = None
        adv_rank = lat_rank = None
        for i, m in enumerate(moves):
            kind = m.kind
            if kind == "stay":
                if stay is None:
                    stay = i
            elif not m.battle_cry:
                r = rank[m.to or ""]
                if kind == "advance":
                    if adv_rank is None or r < adv_rank:
                        adv, adv_rank = i, r
                elif kind == "lateral" and (lat_rank is None or r < lat_rank):
                    lat, lat_rank = i, r
        if adv is not None and unit.courage >= need:
            return adv
        if stay is None:  # the Unit must move
            if lat is not None:
                return lat
            if adv is not None:
                return adv
        return stay if stay is not None else 0

    def _number(self, sector: str) -> int:
        sec = self.sectors[sector]
        if sec.number is not None:
            return sec.number
        digits = "".join(ch for ch in sector if ch.isdigit())
        return int(digits) if digits else 999


_PLANS: dict[tuple[int, str, str | None, tuple[str, ...]], tuple[Content, dict[str, Any]]] = {}
_PLAN_KEYS = ("option_rules", "live_windows", "live_points", "_shared_uses", "_point_owners", "_fast_plan",
              "_setup_tpl",
              "_move_rank", "_fixed_moves", "_fixed_capacity",
              "map", "variant", "options", "ignore", "keep_faces", "sectors", "tier_index", "queries", "moves",
              "courage_to_bunker", "front_row", "next_to_bunker", "side_defs", "_role", "_kind_side",
              "side_rwb", "side_sources", "_side_mods", "_side_layout", "global_sources", "rwb_sources",
              "rwb_faces", "_mods_cache", "_global_mods",
              "_card_mods", "live_queries", "live_events", "static_flags", "static_values", "_req_cache",
              "_faces", "_layout", "_soldier_faces")


def _with_variants(effects: Any, prefix: str, options: Sequence[str]) -> dict[str, EffectSource]:
    """The effects under a prefix ('rule:', 'rwb:') by id. An entry written for an optional rule
    ('rwb:battle-cry@badges') stands in for the plain one while that rule is on, and is left out otherwise."""
    out: dict[str, EffectSource] = {}
    for key, src in effects.items():
        if not key.startswith(prefix) or "/" in key:
            continue
        ident, _, option = key[len(prefix):].partition("@")
        if option:
            if option in options:
                out[ident] = src
        elif ident not in out:
            out[ident] = src
    return out


def _granted_queries(tree: Any) -> set[str]:
    """Queries an effect may change through the modifiers its actions grant (``def -7 this turn``)."""
    from ddaydice.dsl import ast as dsl_ast

    out: set[str] = set()
    for clause in tree.clauses:
        body = clause.body
        if isinstance(body, dsl_ast.Trigger | dsl_ast.Use):
            for action in body.actions:
                for opt in (part for o in action.options for part in o.parts()):
                    verb = opt.statement.verb.name
                    words = [a.name for a in opt.statement.args if isinstance(a, dsl_ast.Word)]
                    if verb in {"forbid", "allow"} and words:
                        out.add(words[0])
                    elif verb == "ignore" and words:
                        out.add(f"ignore-{words[0]}")
                    elif verb in {"protect"} and words:
                        out.add(words[0])
                    elif opt.statement.args and isinstance(opt.statement.args[0], dsl_ast.Signed | dsl_ast.Assign
                                                           | dsl_ast.Dice):
                        out.add(verb)  # a number query changed for a while, as in: def -7 this turn
    return out


class Ctx:
    """The interpreter's side of dsl.compile.EffectContext: what an effect can do, for one Unit."""

    __slots__ = ("card", "game", "owner", "sector", "source", "unit")

    def __init__(self, game: Game, unit: Unit | None, owner: Unit | None, source: EffectSource,
                 sector: str | None, card: str | None = None) -> None:
        self.game = game
        self.unit = unit
        self.owner = owner
        self.source = source
        self.sector = sector or None  # another side's player stands in no Sector
        self.card = card  # the card a card's value is asked about ('card-is')

    # ------------------------------------------------------------ helpers
    def _me(self) -> Unit:
        assert self.unit is not None
        return self.unit

    def _recipients(self, recipient: str | None) -> list[Unit]:
        g = self.game
        me = self._me()
        if recipient is None:
            return [me]
        if recipient == "all-units":
            return g.state.active_units()  # the German player is not a Unit
        if recipient == "all-players":
            return g.state.active_units() + g.side_players()
        if recipient == "the-german":
            return g.side_players()  # another side's players (nobody, in a game without them)
        if recipient == "units-here":
            return [u for u in g.state.active_units() if u.sector == me.sector]
        if recipient == "another-unit":
            how = g.option_rules.another_unit(self.source.kind)  # an option's setting: other, self or nobody
            if how == "nobody":
                return []
            others = [u for u in g.state.active_units() if u is not me] if how == "other" else []
            if not others:
                # rulebook, solitaire: "another Unit" means the player.
                return [me]
            i = g.ask_one(me, "choose", f"{self.source.name}: which other Unit?", [u.name for u in others],
                          [u.id for u in others])
            return [others[i]]
        return []

    def roll_d6(self) -> int:
        return self.game.d6()

    # ------------------------------------------------------------ actions
    def gain(self, resource: str, amount: int, recipient: str | None) -> None:
        attr = resource.replace("-", "_")
        for u in self._recipients(recipient):
            if self.game.option_rules.automated_units and not u.side:
                continue  # an automated Unit keeps no resources
            setattr(u, attr, getattr(u, attr) + amount)
            if self.game.tracing:
                self.game.log("gain", f"{u.name} gains {amount} {resource}", u, self.source.owner, self.source.tier,
                              resource=resource, amount=amount)

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
                self.game.log("lose", f"{u.name} loses {min(have, amount)} {resource}", u, self.source.owner,
                              self.source.tier)

    def add_result(self, face: str, amount: int, colour: str | None, recipient: str | None) -> None:
        g = self.game
        faces = [f.id for f in g.content.dice.faces]
        for u in self._recipients(recipient):
            for _ in range(min(amount, 12)):
                chosen = face
                if face == "any":
                    chosen = faces[g.ask_one(u, "choose", f"{self.source.name}: which result to add?", faces, faces)]
                col = colour
                if colour == "any-colour":
                    cols = list(g.content.dice.colours)
                    col = cols[g.ask_one(u, "choose", f"{self.source.name}: which colour?", cols, cols)]
                u.tally.append(Die(chosen, col, -1, real=False, source=self.source.owner))
                if g.tracing:
                    g.log("add-result", f"{u.name}'s tally gains a {col or 'colourless'} {chosen}", u,
                          self.source.owner, self.source.tier)

    def remove_result(self, face: str, amount: int) -> None:
        u = self._me()
        removed = 0
        for d in list(u.tally):
            if removed >= amount:
                break
            if d.face == face and not d.cancelled:
                u.tally.remove(d)
                removed += 1
        if removed and self.game.tracing:
            self.game.log("remove-result", f"{u.name}'s tally loses {removed} {face}", u, self.source.owner,
                          self.source.tier)

    def _dice(self, filters: tuple[str, ...]) -> list[Die]:
        u = self._me()
        g = self.game
        colours = set(g.content.dice.colours)
        faces = {f.id for f in g.content.dice.faces}
        out = []
        for d in u.tally:
            if not d.real and "any-roll" not in filters:
                continue
            if d.locked and "locked" not in filters:
                continue
            if any(f in colours for f in filters) and d.colour not in filters:
                continue
            if any(f in faces for f in filters) and d.face not in filters:
                continue
            out.append(d)
        return out

    def reroll(self, count: int | None, filters: tuple[str, ...]) -> None:
        g = self.game
        u = self._me()
        cands = [d for d in self._dice(filters) if g.flag("reroll-skull", u) or d.face != "skull"]
        faces = [f.id for f in g.content.dice.faces]
        if count is None:  # 'reroll all die': every die the filters allow, nobody chooses
            for d in cands:
                old = d.face
                d.face = faces[g.d6() - 1]
                g.log("reroll", f"{u.name} re-rolls {d.colour} {old} -> {d.face}", u, self.source.owner,
                      self.source.tier)
            return
        for _ in range(count):
            if not cands:
                return
            i = g.ask_one(u, "choose", f"{self.source.name}: re-roll which die?",
                          [f"{d.colour} {d.face}" for d in cands], [(d.index, d.face) for d in cands])
            d = cands.pop(i)
            old = d.face
            d.face = faces[g.d6() - 1]
            if g.tracing:
                g.log("reroll", f"{u.name} re-rolls {d.colour} {old} -> {d.face}", u, self.source.owner,
                      self.source.tier)

    def reface(self, count: int | None, filters: tuple[str, ...], same: bool) -> None:
        g = self.game
        u = self._me()
        faces = [f.id for f in g.content.dice.faces]
        targets: list[Any] = list(self._dice(filters))
        if "any-roll" in filters:
            for sid, sec in g.state.sectors.items():
                if sec.mgf_roll and sec.mgf_turn == g.state.turn and sid == u.sector:
                    targets += [("mgf", sid, i) for i in range(len(sec.mgf_roll))]
            if g.landmine_roll is not None:
                targets.append(("landmine", "", 0))
        if count is None:
            chosen = targets
        else:
            chosen = []
            for _ in range(count):
                if not targets:
                    break
                i = g.ask_one(u, "choose", f"{self.source.name}: change which die?",
                              [self._label(t) for t in targets], list(range(len(targets))))
                chosen.append(targets.pop(i))
        new_face: str | None = None
        for t in chosen:
            if isinstance(t, tuple):
                what, sid, i = t
                rolls = g.landmine_roll if what == "landmine" else g.state.sectors[sid].mgf_roll
                assert rolls is not None
                name = "Landmine" if what == "landmine" else "MGF"
                pick = g.ask_one(u, "choose", f"{self.source.name}: set the {name} die to?", [str(n) for n in
                                                                                              range(1, 7)])
                rolls[i] = pick + 1
                continue
            if new_face is None or not same:
                new_face = faces[g.ask_one(u, "choose", f"{self.source.name}: change {t.colour} {t.face} to?",
                                           faces, faces)]
            t.face = new_face
            if g.tracing:
                g.log("reface", f"{u.name} changes a {t.colour} die to {new_face}", u, self.source.owner,
                      self.source.tier)

    def _label(self, t: Any) -> str:
        if isinstance(t, tuple):
            return "the Landmine die" if t[0] == "landmine" else f"MGF die {t[2] + 1}"
        return f"{t.colour} {t.face}"

    def recolour(self, count: int, filters: tuple[str, ...]) -> None:
        g = self.game
        u = self._me()
        cands = self._dice(filters)
        cols = list(g.content.dice.colours)
        for _ in range(count):
            if not cands:
                return
            i = g.ask_one(u, "choose", f"{self.source.name}: change the colour of which die?",
                          [f"{d.colour} {d.face}" for d in cands], [(d.index, d.face) for d in cands])
            d = cands.pop(i)
            d.colour = cols[g.ask_one(u, "choose", "to which colour?", cols, cols)]

    def copy_tally(self) -> None:
        g = self.game
        u = self._me()
        others = [o for o in g.state.active_units() if o is not u]
        if not others:
            return
        i = g.ask_one(u, "choose", f"{self.source.name}: copy whose Final Tally?", [o.name for o in others],
                      [o.id for o in others])
        u.tally = [attrs.evolve(d, locked=False) for d in others[i].tally if d.real]

    def keep_tally(self) -> None:
        u = self._me()
        u.kept_tally = [attrs.evolve(d, cancelled=False) for d in u.tally if d.real]

    def sacrifice(self, what: str | int, recipient: str | None = None) -> None:
        g = self.game
        if what == "self":
            g.lose_specialist(self._me(), self.source.owner, forced=False)
            return
        # With a recipient, another player loses the Specialist and chooses which (rulebook, Atlantikwall:
        # "the loss is always the choice of the Allied Unit's player").
        for u in self._recipients(recipient):
            if isinstance(what, int):
                for _ in range(what):
                    g.sacrifice_choice(u, f"{self.source.name}: {'lose' if recipient else 'sacrifice'} a Specialist")
            else:
                g.lose_specialist(u, what, forced=True)

    def recruit(self, what: str | int, free: bool) -> None:
        g = self.game
        u = self._me()
        if isinstance(what, str):
            if what in u.specialists or what in u.dead:
                return
            g.gain_card(u, what)
            return
        # ruling: only an Award's recruit is outside the 1-Specialist-per-turn limit (rulebook, AWARDS: "these
        # never count toward the 1-per-turn limit"); an Item's (the Shoulder Patch's) counts toward it.
        counted = self.game.content.card_kinds.get(self.source.owner) != "award"
        if counted and u.recruited >= g.value("recruits-per-turn", u):
            return
        kind = g._side_kind(u, "specialist")  # another side's player recruits from his own Reserve
        options = [c for c, _ in g.recruitable(u)] if not free else [
            c for c in g.state.hands.get(u.id, []) + [p for p in g.state.pool if g.content.card_kinds[p] == kind]
            if c not in u.specialists and c not in u.dead]
        if not options:
            return
        i = g.ask_one(u, "recruit", f"{self.source.name}: recruit which Specialist?",
                      [g._name_of(c) for c in options], options)
        if not free:
            u.stars -= g.value("specialist-cost", u, card=options[i])
        g.gain_card(u, options[i])
        if counted:
            u.recruited += 1

    def find(self, what: str | int, free: bool, kind: str = "item") -> None:
        g = self.game
        u = self._me()
        # ruling: "Items can't be found here" stops every find in that Sector (a Special Find RWB's too),
        # except an Award's, which overrides everything (rulebook, RULE CONFLICTS).
        if g.content.card_kinds.get(self.source.owner) != "award" and not g.flag("find", u):
            if g.tracing:
                g.log("find", f"{u.name} cannot find anything here", u, self.source.owner, self.source.tier)
            return
        if isinstance(what, int) and kind == "used-item":
            # One of the player's own used Items, back in hand for its cost (the German's Ingenuity).
            used = [c for c in dict.fromkeys(u.used_items) if free or g.value("item-cost", u, card=c) <= u.item_points]
            if not used:
                return
            i = g.ask_one(u, "find", f"{self.source.name}: find which used Item again?",
                          ["nothing"] + [g._name_of(c) for c in used], [None, *used])
            if i == 0:
                return
            card = used[i - 1]
            if not free:
                u.item_points -= g.value("item-cost", u, card=card)
            u.used_items.remove(card)
            u.items.append(card)
            g._came_into_play(u, card)
            if g.tracing:
                g.log("gain-card", f"{u.name} finds the used {g._name_of(card)} again", u, card)
            return
        if isinstance(what, int) and kind == "vehicle":
            if u.side:
                return  # Vehicles are the Units'
            vehicles = [c.id for c in g.content.cards_of("vehicle") if c.id not in g.state.abandoned
                        and not g._unavailable(c.id) and not any(o.vehicle == c.id for o in g.state.units)]
            if not vehicles:
                return
            i = g.ask_one(u, "find", f"{self.source.name}: take which Vehicle?", [g._name_of(v) for v in vehicles],
                          vehicles)
            g.gain_card(u, vehicles[i])
            return
        if isinstance(what, str):
            if what in u.items or u.vehicle == what:
                return
            if what in g.state.pool or what in g.state.placed or free:
                g.gain_card(u, what)
            return
        options = g.findable(u, free=True)
        if not free:
            options = [(c, g.value("item-cost", u, card=c)) for c, _ in options]
            options = [(c, cost) for c, cost in options if cost <= u.item_points]
        if not options:
            return
        labels = ["nothing"] + [g._name_of(c) for c, _ in options]
        i = g.ask_one(u, "find", f"{self.source.name}: find which Item?", labels, [None, *options])
        if i == 0:
            return
        card, _ = options[i - 1]
        if not free:
            u.item_points -= g.value("item-cost", u, card=card)
        g.gain_card(u, card)

    def offer(self, card: str) -> None:
        g = self.game
        if card in g.content.cards and card not in g.state.abandoned:
            g.state.placed.setdefault(card, f"offer:{self.sector}")

    def draw_award(self, how: str) -> None:
        g = self.game
        u = self._me()
        deck = g.state.award_deck
        if not deck or u.awards_drawn:
            return
        if how == "random":
            card = deck.pop(0)
        else:
            i = g.ask_one(u, "choose", f"{self.source.name}: choose an Award", [g._name_of(a) for a in deck], deck)
            card = deck.pop(i)
        u.awards_drawn += 1
        g.gain_card(u, card)

    def gain_rwb(self, rwb: str) -> None:
        g = self.game
        u = self._me()
        g.fire("rwb", u, only=g.rwb_sources[rwb])
        g.fire("rwb", u)

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
                          [str(k) for k in range(most + 1)], list(range(most + 1)))
            setattr(u, attr, have - n)
            g.pending_casualties -= n
            if n and g.tracing:
                g.log("absorb", f"{u.name} spends {n} {res} to save {n} Soldiers", u, self.source.owner,
                      self.source.tier)

    def die_instead(self) -> None:
        g = self.game
        u = self._me()
        losing = g._losing
        me = self.source.owner
        if losing is None or losing == me or me not in u.specialists:
            return
        pick = g.ask_one(u, "choose", f"{g._name_of(me)}: be lost in place of the {g._name_of(losing)}?",
                         ["no", "yes"])
        if pick == 1:
            g._decoy = me

    def swap_sectors(self) -> None:
        g = self.game
        u = self._me()
        others = [o for o in g.state.active_units() if o is not u]
        if not others:
            return
        i = g.ask_one(u, "choose", f"{self.source.name}: switch Sectors with which Unit?", [o.name for o in others])
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
            if self.game.tracing:
                self.game.log("attribute", f"{self.game.sectors[sec.id].name} becomes '{attribute}'", self.unit)

    def roll_attribute(self, table: str) -> None:
        g = self.game
        tab = next(t for t in g.map.tables if t.id == table)
        roll = g.d6()
        self.become(tab.results[roll - 1])
        if g.tracing:
            g.log("attribute-roll", f"rolled {roll} on {tab.name}", self.unit)

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

    def draw(self, deck: str, count: int) -> None:
        decks.draw(self.game, self._me(), deck, count)

    def discard(self, what: str | int, recipient: str | None = None, kind: str = "item") -> None:
        if what == "self":
            decks.discard(self.game, self._me(), what, self.source)
            return
        for u in self._recipients(recipient):
            decks.discard(self.game, u, what, self.source, kind)

    def steal(self, count: int, filters: tuple[str, ...]) -> None:
        """Take dice from an opponent's Final Tally (another side's player); colours change by colour-alias."""
        g = self.game
        me = self._me()
        foes = g.state.active_units() if me.side else g.side_players()
        if not foes:
            return
        foe = foes[g.ask_one(me, "choose", f"{self.source.name}: take a die from whom?", [f.name for f in foes],
                             [f.id for f in foes])] if len(foes) > 1 else foes[0]
        side = g.side_defs.get(foe.side or me.side or "")
        alias = dict(side.colour_alias) if side is not None else {}
        colours = set(g.content.dice.colours) | {c for d in g.side_defs.values() for c in d.colours}
        faces = {f.id for f in g.content.dice.faces}
        for _ in range(count):
            cands = [d for d in foe.tally if d.real and not d.cancelled and d.source != "rwb-used"
                     and (not d.locked or "locked" in filters)
                     and (not any(f in colours for f in filters) or d.colour in filters)
                     and (not any(f in faces for f in filters) or d.face in filters)]
            if not cands:
                return
            i = g.ask_one(me, "choose", f"{self.source.name}: take which die from {foe.name}?",
                          [f"{d.colour} {d.face}" for d in cands], [(d.index, d.face, d.colour) for d in cands])
            d = cands[i]
            foe.tally.remove(d)
            me.tally.append(attrs.evolve(d, colour=alias.get(d.colour or "", d.colour), locked=False, index=-1))
            if g.tracing:
                g.log("steal", f"{me.name} takes a {d.colour} {d.face} from {foe.name}'s Final Tally", me,
                      self.source.owner, self.source.tier)

    def pool_trade(self, count: int) -> None:
        """Trade dice one for one with the player's own trading pool of 6 extra dice, 2 of each of his colours
        (rolled when first needed, and again when empty)."""
        g = self.game
        me = self._me()
        colours = list(g.side_defs[me.side].colours) if me.side else list(g.content.dice.colours)
        faces = [f.id for f in g.content.dice.faces]
        for _ in range(count):
            if not me.trading_pool:
                me.trading_pool = [Die(faces[g.d6() - 1], colours[(k // 2) % len(colours)], -1) for k in range(6)]
                if g.tracing:
                    g.log("trading-pool", f"{me.name} rolls a trading pool: " + ", ".join(
                        f"{d.colour} {d.face}" for d in me.trading_pool), me)
            pool = me.trading_pool
            mine = [d for d in me.tally if d.real and not d.cancelled]
            if not mine:
                return
            pick = g.ask_one(me, "dice-trade", f"{self.source.name}: take which die of the trading pool?",
                             ["no trade"] + [f"{d.colour} {d.face}" for d in pool], [None, *range(len(pool))])
            if pick == 0:
                return
            taken = pool.pop(pick - 1)
            give = g.ask_one(me, "dice-trade", f"{self.source.name}: give which die for the {taken.colour} "
                             f"{taken.face}?", [f"{d.colour} {d.face}" for d in mine],
                             [(d.index, d.face, d.colour) for d in mine])
            given = mine[give]
            me.tally[me.tally.index(given)] = Die(taken.face, taken.colour, given.index)
            if g.tracing:
                g.log("dice-trade", f"{me.name} gives {given.colour} {given.face} for the pool's {taken.colour} "
                      f"{taken.face}", me, self.source.owner, self.source.tier)

    def second_tally(self) -> None:
        """Roll a separate Final Tally (every real die re-rolled, Locks ignored) and keep either one."""
        g = self.game
        me = self._me()
        faces = [f.id for f in g.content.dice.faces]
        real = [d for d in me.tally if d.real]
        new = [attrs.evolve(d, face=faces[g.d6() - 1], locked=False, cancelled=False) for d in real]
        labels = ["keep the original: " + ", ".join(f"{d.colour} {d.face}" for d in real),
                  "keep the new one: " + ", ".join(f"{d.colour} {d.face}" for d in new)]
        if g.ask_one(me, "choose", f"{self.source.name}: which Final Tally?", labels) == 1:
            me.tally = new + [d for d in me.tally if not d.real]

    def cancel(self, deck: str) -> None:
        decks.cancel(self.game, self._me(), deck)

    def arrange_top(self, deck: str, count: int) -> None:
        decks.arrange_top(self.game, self._me(), deck, count, self.source)

    def pick(self, deck: str, count: int) -> None:
        decks.pick(self.game, self._me(), deck, count, self.source)

    def roll_split(self, keep: str, rest: str) -> None:
        g = self.game
        u = self._me()
        rolls = [g.d6() for _ in range(max(len(g.state.units), 1))]
        i = g.ask_one(u, "choose", f"{self.source.name}: rolled {rolls}; which die gives your {keep}?",
                      [f"{r} {keep}, {sum(rolls) - r} {rest}" for r in rolls], list(range(len(rolls))))
        for res, n in ((keep, rolls[i]), (rest, sum(rolls) - rolls[i])):
            attr = res.replace("-", "_")
            setattr(u, attr, getattr(u, attr) + n)
        if g.tracing:
            g.log("roll-split", f"{u.name} rolls {rolls}: {rolls[i]} {keep}, {sum(rolls) - rolls[i]} {rest}", u,
                  self.source.owner, self.source.tier)

    def reset_marker(self) -> None:
        self._me().marker = "chevron-1"

    def grant(self, modifier: ModifierHook, duration: str, recipient: str | None) -> None:
        g = self.game
        s = g.state
        me = self._me()
        expires = {"this-turn": f"turn:{s.turn}", "next-turn": f"turn:{s.turn + 1}",
                   "this-phase": f"phase:{s.turn}:{s.phase}", "permanently": "never"}[duration]
        info = g.queries.get(modifier.query)
        value = modifier.value(self) if modifier.value is not None else None
        args = tuple(str(a) for a in modifier.args)
        s.play_order += 1
        targets: list[tuple[str | None, str | None]]
        if recipient == "adjacent-sector":
            # ruling: adjacent = joined by a line, whichever way it is crossed (a Sector behind is adjacent too).
            near = sorted({to for to, *_ in g.moves[me.sector]}
                          | {a for a, outs in g.moves.items() if any(to == me.sector for to, *_ in outs)})
            near = [n for n in near if modifier.condition is None or
                    modifier.condition(Ctx(g, me, self.owner, self.source, n))]
            if not near:
                return
            i = g.ask_one(me, "choose", f"{self.source.name}: which adjacent Sector?",
                          [g.sectors[n].name for n in near], near)
            targets = [(None, near[i])]
        elif info is not None and info.subject == "sector":
            # A Sector's value: the granter's Sector; another side's player, who stands in none, changes the
            # Sectors of the Units his effect reaches ('to all units').
            targets = [(None, me.sector)] if me.sector else [
                (None, sid) for sid in sorted({u.sector for u in self._recipients(recipient) if u.sector})]
        else:
            targets = [(u.id, None) for u in self._recipients(recipient)
                       if modifier.condition is None or modifier.condition(Ctx(g, u, self.owner, self.source,
                                                                                 u.sector))]
        for unit_id, sector in targets:
            s.grants.append(Grant(self.source.owner, 0, self.source.tier, modifier.query, modifier.op, value, args,
                                  modifier.text, expires, unit_id, sector, s.play_order))
        if g.tracing:
            g.log("grant", f"{self.source.name}: {modifier.text} ({duration})", me, self.source.owner, self.source.tier)

    def choose_option(self, labels: list[str]) -> int:
        return self.game.ask_one(self._me(), "or", f"{self.source.name}: choose one", labels)

    # ------------------------------------------------------------ questions
    def count(self, what: tuple[str, ...]) -> int:
        u = self._me()
        if what[0] == "locked":
            return sum(1 for d in u.tally if d.locked and d.face == what[1] and not d.cancelled)
        if what[0] in {"rwbs", "rwb"}:
            return sum(1 for d in u.tally if d.source == "rwb-used") // 3
        if what[0] in {"specialists", "specialist"}:
            return len(u.specialists)
        if what[0] == "active-skulls":
            return decks.active_skulls(self.game, u)
        if what[0] == "units-after-first":
            return max(len(self.game.state.units) - 1, 0)
        return sum(1 for d in u.tally if d.face == what[0] and not d.cancelled)

    def predicate(self, name: str, args: tuple[str, ...]) -> int | bool:
        g = self.game
        u = self.unit
        sector = self.sector or (u.sector if u else None)
        match name:
            case "bunker":
                return sector is not None and g.sectors[sector].bunker
            case "has":
                return u is not None and args[0] in g.held_cards(u)
            case "count":
                return self.count(args) if u else 0
            case "same-face":
                if u is None:
                    return 0
                counts: dict[str, int] = {}
                for d in u.tally:
                    if not d.cancelled:
                        counts[d.face] = counts.get(d.face, 0) + 1
                return max(counts.values(), default=0)
            case "chevrons":
                return u.chevrons() if u else 0
            case "turns-here":
                return (g.state.turn - u.entered_turn) if u else 0
            case "occupied":
                return any(o is not u and o.sector == sector for o in g.state.active_units())
            case "option":
                return args[0] in g.options
            case "players":
                return len(g.state.units)
            case "in-play":
                return any(args[0] in g.held_cards(o) for o in g.players() if o.status == "active")
            case "front-row":
                return sector is not None and sector in g.front_row
            case "next-to-bunker":
                return sector is not None and sector in g.next_to_bunker
            case "occupied-by-us":
                return any(o.sector == args[0] for o in g.state.active_units())
            case "conquered":
                # A Bunker is conquered by a Unit that survives entering it; another Sector, by entering it.
                if g.sectors[args[0]].bunker:
                    return args[0] in g.state.conquered
                return g.state.sectors[args[0]].entered and not any(
                    s.start is not None and s.id == args[0] for s in g.map.sectors)
            case "battle-cry":
                return u is not None and g.flag("battle-cry", u)
            case "visited":
                return u is not None and args[0] in u.visited
            case "started-alone":
                starters = [o for o in g.state.units if o.visited[:1] == [args[0]]]
                return u is not None and starters == [u]
            case "have":
                return int(getattr(u, args[0].replace("-", "_"))) if u else 0
            case "colours":
                return len({d.colour for d in u.tally if d.face == args[0] and d.colour and not d.cancelled}) \
                    if u else 0
            case "active-skulls":
                return decks.active_skulls(g, u) if u else 0
            case "card-is":
                return self.card == args[0]
            case "drawn":
                return g.drawing is not None and g.content.card_kinds.get(g.drawing) == args[0]
            case "holds":
                return decks.holds(g, u, args[0]) if u else 0
            case "can-draw":
                return u is not None and decks.can_draw(g, u, args[0])
            case "times-used":
                return u.counters.get(f"used:{self.source.owner}", 0) if u else 0
        raise RuleError(f"no predicate '{name}'")


def play(content: Content, map_id: str, deciders: Sequence[Decider] | Decider, **kw: Any) -> Game:
    """Set up and play a whole game; returns the finished Game."""
    game = Game(content, map_id, deciders=deciders, **kw)
    game.run()
    return game


RUNNERS: dict[str, Callable[[Game], None]] = {p: getattr(Game, f"phase_{p}") for p in PHASES}
