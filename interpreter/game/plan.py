"""The per-map plan: what depends only on (content, map, variant, options), computed once per simulation."""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from typing import Any

from mypy_extensions import mypyc_attr, trait

from ddaydice.dsl import ast as dsl_ast
from ddaydice.dsl.compile import UNLIMITED, EffectSource, ModifierHook, UseHook
from ddaydice.dsl.diagnostics import RuleError
from ddaydice.dsl.loader import Content
from ddaydice.dsl.schema import BattleMap, Sector, Variant
from ddaydice.interpreter.core.api import GameAPI
from ddaydice.interpreter.core.inplay import RulesIndex, SectorIndex, SectorsIndex, Use
from ddaydice.interpreter.core.option_rules import OptionRules
from ddaydice.interpreter.core.values import COST_QUERIES, OWN_BASE, FixedMove, Move, cards_named, points_of
from ddaydice.interpreter.mechanisms import decks
from ddaydice.interpreter.mechanisms.options import reachable


@trait
@mypyc_attr(allow_interpreted_subclasses=True)
class Plan(GameAPI):
    """The per-map plan: what depends only on (content, map, variant, options), computed once per simulation."""

    def _prepare(self, content: Content, map_id: str, variant: str | None, options: list[str]) -> None:
        if map_id not in content.maps:
            raise RuleError(f"no map '{map_id}' (there are: {', '.join(sorted(content.maps))})")
        self.map: BattleMap = content.maps[map_id]
        self.variant: Variant | None = None
        if variant is not None:
            problem = self.map.variant_problem(variant)
            if problem is not None:
                raise RuleError(problem[0] + (f"; {problem[1]}" if problem[1] else ""))
            self.variant = next(v for v in self.map.variants if v.id == variant)
            self.map = self.map.played_as(self.variant)
        # The options asked for and those they require; their settings drive general mechanisms
        # (interpreter/mechanisms/options.py), their effects join the game rules' hooks.
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
        self._fold_constants()
        self._compile_moves()
        self._req_cache: dict[tuple[str, int], list[tuple[str | int, ...]]] = {}
        self._point_uses: dict[tuple[str, str], tuple[tuple[int, UseHook], ...]] = {}
        self._sector_index: dict[tuple[str, tuple[str, ...], tuple[int, ...]], SectorIndex] = {}
        self._sectors_index: dict[tuple[object, ...], SectorsIndex] = {}
        self._rule_uses: dict[str, list[Use]] = {}
        self._rules_index: list[RulesIndex] = []
        self.printed_costs = {cid: card.cost or 0 for cid, card in content.cards.items()}
        self.kind_of = dict(content.card_kinds)
        self.effect_of = dict(content.effects)
        # Read natively by every query (the content's QueryInfo and the map's Sectors are attrs classes, each field a
        # generic read): each query's least value, each Sector's printed DEF and MGF symbols.
        self.query_minimum = {qid: q.minimum for qid, q in self.queries.items()}
        self.printed_def = {sid: tuple(sec.defense) for sid, sec in self.sectors.items()}
        self.printed_mgf = {sid: sec.mgf for sid, sec in self.sectors.items()}
        self._faces = [f.id for f in content.dice.faces]
        self._face_set = frozenset(self._faces)
        self._rwb_plan = {}
        self._face_worth = {}
        self._soldier_faces = {f.id: f.soldiers for f in content.dice.faces}
        per = content.dice.dice_per_colour
        self._layout = [(idx, c) for idx, c in enumerate(c for c in content.dice.colours for _ in range(per))]
        self._side_layout = {side: [(idx, c) for idx, c in enumerate(c for c in d.colours for _ in range(per))]
                             for side, d in self.side_defs.items()}
        self._setup_tpl = self._setup_template()

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
        until: set[str] = set()  # events that end a modifier granted 'until EVENT'
        for src in sources:
            for hook in src.compiled.modifiers:
                live.add(hook.query)
            for trig in src.compiled.triggers:
                events.add(trig.at)
            live |= {q for q in _granted_queries(src.tree) if q in self.queries}
            until |= _until_events(src.tree)
        # A card's own price while it waits to be bought ('cost = 0 if ...'): any loaded card's, for a scenario may
        # put any card in the Pool; the cost queries are then live (a card without one keeps its printed cost).
        self.own_prices = {cid: eff for cid in c.cards if (eff := c.effects.get(cid)) is not None
                           and eff.compiled.waiting}
        if self.own_prices:
            live |= COST_QUERIES & set(self.queries)
        self.live_queries = frozenset(live)
        self.live_events = frozenset(events | until)
        self.until_events = frozenset(until)
        self.live_windows = frozenset(h.window for src in sources for h in src.compiled.uses if h.window)
        # The moments of the turn at which some card or rule of this game could ever be used; at the others
        # use_point returns at once.
        self.live_points = frozenset(p for src in sources for h in src.compiled.uses
                                     for p in points_of(h.window))
        self.static_flags = {q.id: bool(q.default) for q in self.queries.values()
                             if q.kind == "flag" and q.id not in live and q.id != "stay"}
        self.static_values = {q.id: int(q.default) for q in self.queries.values()
                              if q.kind == "number" and q.id not in live and q.default is not None
                              and not isinstance(q.default, bool) and q.id not in {"def", "mgf-dice"}}

    def _compile_moves(self) -> None:
        """Phase 4's candidate moves from each Sector under the rules' defaults (entering, Advancing, Barriers,
        Advance costs, room, Vehicles, Battle Cries), worked out once: a turn in which nothing in play touches
        these queries (``move_queries``) checks only what the Unit has visited, its Courage and Vehicle, room,
        and a Sector's requirements; in the others, Phase 4 reads every query."""
        self._fixed_moves: dict[str, list[FixedMove]] | None = None
        self._fixed_capacity = 0
        flags = self.defaults
        needed = ("enter", "advance", "ignore-barriers", "vehicle-here", "vehicle-crosses-landmines", "battle-cry",
                  "ignore-requirements", "ignore-sacrifices", "vehicle-enters-bunker")
        self.move_queries = frozenset((*needed, "advance-cost", "capacity", "battle-cry-here"))
        if "capacity" not in flags or any(q not in flags for q in needed) or flags["battle-cry"]:
            return
        info = self.queries.get("advance-cost")
        least = info.minimum if info is not None and info.minimum is not None \
            and "advance-cost" in self.live_queries else None  # the general path clamps a live query
        mines_on = "landmines" not in self.ignore
        fixed: dict[str, list[FixedMove]] = {}
        for here, lines in self.moves.items():
            cands: list[FixedMove] = []
            for to, line_kind, line_cost, mines, barrier in lines if flags["enter"] else ():
                if (barrier and not flags["ignore-barriers"]) or (line_kind == "advance" and not flags["advance"]):
                    continue
                target = self.sectors[to]
                kind, cost = line_kind, line_cost
                if target.cost is not None:  # entering a Sector with its own printed cost is an Advance
                    kind, cost = "advance", target.cost
                mines_apply = mines and mines_on
                # (to, kind, Courage, Landmines, whether a Unit with a Vehicle abandons it, the Move offered to a
                # Unit without a Vehicle and to one with: made once here, handed out by every turn's Phase 4)
                if least is not None:
                    cost = max(cost, least)
                if kind != "advance":
                    cost = 0
                abandons = bool((mines_apply and not flags["vehicle-crosses-landmines"])
                                or (target.bunker and not flags["vehicle-enters-bunker"])
                                or not flags["vehicle-here"])
                cands.append((to, kind, cost, mines_apply, abandons, Move(kind, to, cost, mines_apply, False, False),
                              Move(kind, to, cost, mines_apply, False, abandons)))
            fixed[here] = cands
        self._fixed_moves = fixed
        self._fixed_capacity = int(flags["capacity"])

    def _fold_constants(self) -> None:
        """A number worked out from the map that nothing in this game changes and that is the same in every
        Sector is answered from the table too (the MGF dice where a variant ignores MGF)."""
        if "mgf-dice" not in self.live_queries:
            counts = {0 if "mgf" in self.ignore else sec.mgf for sec in self.sectors.values()}
            if len(counts) == 1:
                self.static_values["mgf-dice"] = max(0, counts.pop())
        # The value of each query whose base is the rules' default (not a Sector's DEF or MGF, the Unit
        # marker or a card's cost), clamped: its answer in every epoch in which nothing in play touches it.
        self.defaults: dict[str, int] = {}
        for q in self.queries.values():
            if q.id in OWN_BASE or q.default is None:
                continue
            if isinstance(q.default, bool):
                self.defaults[q.id] = q.default
            else:
                self.defaults[q.id] = max(q.default, q.minimum) if q.minimum is not None else q.default

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
        reach |= {p.card for p in self.map.placed}
        reach |= set(v.vehicles if v and v.vehicles is not None else self.map.vehicles)
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
        return reach | self.extra_cards

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
        self.move_rank = {sid: (sec.defense[0], self._number(sid)) for sid, sec in self.sectors.items()}

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

    def _unavailable(self, card: str) -> bool:
        c = self.content.cards[card]
        return any(o in c.unavailable_in for o in self.options) or (
            bool(c.only_in) and not any(o in self.options for o in c.only_in))

    def _number(self, sector: str) -> int:
        sec = self.sectors[sector]
        if sec.number is not None:
            return sec.number
        digits = "".join(ch for ch in sector if ch.isdigit())
        return int(digits) if digits else 999


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


def _until_events(tree: Any) -> set[str]:
    """The events that end a modifier the effect's actions grant ``until EVENT``."""
    return {opt.until.name for clause in tree.clauses if isinstance(clause.body, dsl_ast.Trigger | dsl_ast.Use)
            for action in clause.body.actions for o in action.options for opt in o.parts() if opt.until is not None}


def _granted_queries(tree: Any) -> set[str]:
    """Queries an effect may change through the modifiers its actions grant (``def -7 this turn``)."""
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

