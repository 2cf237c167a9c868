"""Phase 4, Movement: the legal moves, entering a Sector, Landmines."""

from __future__ import annotations

from mypy_extensions import mypyc_attr, trait

from ddaydice.dsl.diagnostics import RuleError
from ddaydice.interpreter.core.api import GameAPI
from ddaydice.interpreter.core.precedence import Derivation, Step
from ddaydice.interpreter.core.state import (
    STAY_FORBIDDEN,
    Unit,
)
from ddaydice.interpreter.core.values import FixedMove, Move
from ddaydice.interpreter.mechanisms import automaton

_STAY = Move("stay", None, 0, False)  # (a tuple: one for every game)


@trait
@mypyc_attr(allow_interpreted_subclasses=True)
class MovementPhase(GameAPI):
    """Phase 4, Movement: the legal moves, entering a Sector, Landmines."""

    def phase_movement(self) -> None:
        for unit in self._movement_order():
            if unit.status != "active" or self.state.outcome is not None:
                continue
            if self.option_rules.automated_units:
                move = automaton.next_move(self, unit)  # solitaire Atlantikwall's fixed procedure
                if move is not None:
                    self.do_move(unit, move)
                continue
            if "movement" in self.live_events:  # 'on movement': Phase 4 begins for this Unit
                self.fire("movement", unit)
                if unit.status != "active" or self.state.outcome is not None:
                    continue
            self.use_point(unit, "movement")
            self.move_phase_for(unit)

    def _movement_order(self) -> list[Unit]:
        """The order in which the Units move: the tie order (fewer Soldiers first), except that a Unit next to a
        full Sector waits for the Units standing there to move (docs/rulings.md 3.8: "Any Unit present must
        leave to allow another to move in"; the phases are simultaneous, and the tie order is for Units doing the
        same thing). Those it waits for move first, in their own order; a circle of Units waiting for each other
        moves in the tie order."""
        pending = self.order()
        if len(pending) < 2 or self.option_rules.automated_units:
            return pending
        out: list[Unit] = []
        while pending:
            unit = next((u for u in pending if not self._waits_for(u, pending)), pending[0])
            pending.remove(unit)
            out.append(unit)
        return out

    def _waits_for(self, unit: Unit, pending: list[Unit]) -> bool:
        """Whether a Sector next to the Unit is full, with a Unit standing there that has yet to move."""
        stands = {u.sector for u in pending if u is not unit}
        lines = self.moves[unit.sector]
        if stands.isdisjoint(line[0] for line in lines):
            return False
        here: dict[str, int] = {}
        for u in self.state.active_units():
            here[u.sector] = here.get(u.sector, 0) + 1
        return any(to in stands and to not in unit.visited and here[to] >= self.value("capacity", unit, sector=to)
                   for to, *_ in lines)

    def legal_moves(self, unit: Unit) -> list[Move]:
        s = self.state
        here = unit.sector
        moves: list[Move] = []
        if unit.moved_turn == s.turn:
            # rulebook, Phase 4: "A Unit can only move once per turn": once it has moved, it stays put.
            return [_STAY]
        if self._may_stay(unit):
            moves.append(_STAY)
        fixed = self._fixed_moves
        if fixed is not None and self._moving_touched(here, fixed[here]):
            fixed = None  # something in play touches the rules of moving from here in this epoch
        if fixed is not None:  # the same checks as below, with the rules' defaults worked out
            visited, courage, vehicle = unit.visited, unit.courage, unit.vehicle is not None
            room = self._fixed_capacity
            crowd: dict[str, int] | None = None
            if room <= len(s.units):
                crowd = {}
                for u in s.units:
                    if u.status == "active":
                        crowd[u.sector] = crowd.get(u.sector, 0) + 1
            for to, _kind, cost, _mines, _abandons, plain, with_vehicle in fixed[here]:
                if to in visited or (crowd is not None and crowd.get(to, 0) >= room):
                    continue
                requirements = self._requirements(to)
                if requirements and any(r[:1] == ("battle-cry",) for r in requirements):
                    continue  # no Battle Cry in this game
                if cost <= courage and (not requirements or self._meets(unit, requirements)):
                    moves.append(with_vehicle if vehicle else plain)
            return moves
        battle_cry = self._battle_cry(unit)
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
                (mines_apply and not self.flag("vehicle-crosses-landmines", unit))
                or (self.sectors[to].bunker and not self.flag("vehicle-enters-bunker", unit))
                or not self.flag("vehicle-here", unit, sector=to))
            requirements = self._requirements(to)
            needs_cry = any(r[:1] == ("battle-cry",) for r in requirements)
            cry_into = self._cry_into(unit, to, battle_cry)
            if needs_cry and not cry_into:
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
            if cry_into and (kind == "advance" or requirements) and not (plain_ok and cost == 0 and not requirements):
                moves.append(Move(kind, to, 0, mines_apply, True, abandons))
        return moves

    def _battle_cry(self, unit: Unit) -> bool:
        """Whether the Unit moves with a Battle Cry from where it stands: its Battle Cry this turn, and its
        Sector's leave ('a Battle Cry RWB here': Crossfire forbids it)."""
        return self.flag("battle-cry", unit) and self.flag("battle-cry-here", unit)

    def _cry_into(self, unit: Unit, to: str, battle_cry: bool) -> bool:
        """Whether the Unit moves into ``to`` with a Battle Cry (``battle_cry``: :meth:`_battle_cry`): the Sector
        moved into must allow it too. legal_moves and explain_entry ask this one test."""
        return battle_cry and self.flag("battle-cry-here", unit, sector=to)

    def _moving_touched(self, here: str, lines: list[FixedMove]) -> bool:
        """Does anything in play touch the rules of moving out of ``here``: a card or rule anywhere, a grant,
        or this Sector's or a neighbour's own effects?"""
        queries = self.move_queries
        s = self.state
        if s.grants and any(g.query in queries for g in s.grants):
            return True
        ip = self.in_play()
        if queries.isdisjoint(ip.queries):
            return False
        if not queries.isdisjoint(ip.unit_queries):
            return True
        by_sector = ip.sector_modifiers
        return any(not queries.isdisjoint(by_sector.get(sid, ())) for sid in (here, *(line[0] for line in lines)))

    def _may_stay(self, unit: Unit) -> bool:
        """The 'stay' permission; when nothing in this game changes it, its base (the Unit marker) at once."""
        if "stay" in self.live_queries:
            return self.flag("stay", unit)
        return unit.marker not in STAY_FORBIDDEN

    def explain_entry(self, unit: Unit, to: str) -> tuple[bool, Derivation]:
        """Whether the Unit may move into ``to`` now, as a derivation of every check, in order."""

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
            standing = [u for u in self.state.active_units() if u.sector == to]
            room = self.value("capacity", unit, sector=to)
            check("room", len(standing) < room, "there is room", f"at most {room} Unit(s) may stand there"
                  + leaves_first(standing, self.state.turn))
            reqs = self._requirements(to)
            has_cry = self.flag("battle-cry", unit)
            cry = self._cry_into(unit, to, self._battle_cry(unit))
            if has_cry:  # the Unit's Battle Cry, and whether the Sectors let it be used (no check: how it moves)
                check("how it moves", True, "with a Battle Cry (no Courage, no requirements)" if cry else
                      f"without its Battle Cry, which {self._no_cry(unit, to)} forbids: paying Courage and meeting "
                      "every requirement", "")
            others = [r for r in reqs if r[:1] != ("battle-cry",)]
            if others:
                texts = "; ".join(" ".join(map(str, r)) for r in others)
                check("requirements", self._meets(unit, others) or cry,
                      f"met ({texts})" if not cry else f"ignored by the Battle Cry ({texts})", f"not met: {texts}")
            if len(others) < len(reqs):  # only a Battle Cry enters (as legal_moves reads the requirement)
                check("Battle Cry", cry, "the Unit moves with a Battle Cry",
                      "only a Unit moving with a Battle Cry may enter")
            target_cost = self.sectors[to].cost
            if target_cost is not None:
                kind, cost = "advance", target_cost
            if kind == "advance":
                need = 0 if cry else self.value("advance-cost", unit, base=cost)
                check("Courage", unit.courage >= need, f"the Advance costs {need} Courage; the Unit has "
                      f"{unit.courage}", f"the Advance costs {need} Courage; the Unit has only {unit.courage}")
        final = any(m.to == to for m in self.legal_moves(unit))
        return final, Derivation("may-enter", f"{unit.name}, {to_name}", True, "game rules", tuple(steps), final,
                                 cites="phase:movement")

    def _no_cry(self, unit: Unit, to: str) -> str:
        """What forbids the Unit's Battle Cry where it stands or where it would go: the effects that say so."""
        said = []
        for where in dict.fromkeys((unit.sector, to)):
            _, derivation = self.query("battle-cry-here", unit, sector=where, explain=True)
            said += [st.source_name for st in (derivation.steps if derivation else ())
                     if st.op == "forbid" and not st.overruled_by]
        return "; ".join(said) or "a rule"

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
                self.wipe_out(unit, "wiped out (it must move and cannot)")
            else:
                self.flag("stay", unit, use=True)  # the Unit stays: the permission is used (a limit on it counts)
            return
        pick = self.ask_keys(
            unit, "move", lambda: f"{unit.name} in {self.sectors[unit.sector].name}{' (must move)' if must else ''}: "
            "move?", moves, self.describe_move)
        move = moves[pick]
        if move.kind == "stay":
            self.flag("stay", unit, use=True)
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
        if self.watchers:
            for w in self.watchers:
                w.moving(self, unit, move)
        assert move.to is not None
        to = move.to
        frm = unit.sector
        self._use_move_permissions(unit, move, to)
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
        requirements = [] if move.battle_cry else self._requirements(to)
        if requirements and not self.flag("ignore-requirements", unit, use=True):
            for req in requirements:
                if req[0] == "sacrifice" and not self.flag("ignore-sacrifices", unit, use=True):
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
        self.enter_sector(unit, to, first)

    def enter_sector(self, unit: Unit, to: str, first: bool) -> None:
        """The Sector's entry effects: 'on enter', then 'on first-enter' for the game's first Unit in it."""
        for event in ("enter", "first-enter") if first else ("enter",):
            self._hear_entry(event, unit, to, None)

    def _hear_entry(self, event: str, unit: Unit, to: str, owners: frozenset[str] | None) -> None:
        """The Sector's effects hear the entry ``event`` (``owners``: only these). An effect that came into play in
        the Sector while they ran (an attribute rolled by 'roll-attribute') hears it next: it acts on the entry
        that gave it, for the Unit that is entering (ruling 10.11)."""
        present = {src.owner for src in self._sector_sources(to)}
        self.fire(event, unit, sector=to, sector_only=True, owners=owners)
        gained = frozenset(src.owner for src in self._sector_sources(to) if src.owner not in present)
        if gained:
            self._hear_entry(event, unit, to, gained)

    def _use_move_permissions(self, unit: Unit, move: Move, to: str) -> None:
        """The permissions a move acts on are used, as it is made (a limit on one counts it: ``flag``'s ``use``):
        entering the Sector, Advancing along an advance line, crossing a Barrier, the Battle Cry (and the leave of
        the Sectors it is cried from and into), the Vehicle going along (into the Sector, across Landmines, into a
        Bunker)."""
        line = next((m for m in self.moves.get(unit.sector, ()) if m[0] == to), None)
        self.flag("enter", unit, sector=to, use=True)
        if line is not None and line[1] == "advance":
            self.flag("advance", unit, use=True)
        if line is not None and line[4]:
            self.flag("ignore-barriers", unit, use=True)
        if move.battle_cry:
            self.flag("battle-cry", unit, use=True)
            self.flag("battle-cry-here", unit, use=True)
            self.flag("battle-cry-here", unit, sector=to, use=True)
        if unit.vehicle is not None and not move.abandons_vehicle:
            self.flag("vehicle-here", unit, sector=to, use=True)
            if move.landmines:
                self.flag("vehicle-crosses-landmines", unit, use=True)
            if self.sectors[to].bunker:
                self.flag("vehicle-enters-bunker", unit, use=True)

    def landmines(self, unit: Unit) -> None:
        if self.option_rules.automated_units:
            # An automated Unit keeps no Soldiers: Landmines another side's rules switch off hit that side's
            # player ("you must roll and suffer the losses yourself; you can only avoid this by activating").
            if self.flag("ignore-landmines", unit, use=True):
                for player in self.side_players():
                    roll = self.d6()
                    if self.tracing:
                        self.log("landmines", f"inactive Landmines: {player.name} rolls {roll}", player, roll=roll)
                    self.suffer(player, roll, "inactive Landmines")
            return
        if self.flag("ignore-landmines", unit, use=True):
            if self.tracing:
                self.log("landmines", f"{unit.name} ignores the Landmines", unit)
            return
        dice = self.roll_with_edge(1, self.value("landmine-edge", unit))
        if self.tracing:
            self.log("landmines", f"{unit.name} crosses Landmines and rolls {dice[0]}", unit, roll=dice[0])
        # Landmine dice can be modified (rulebook: "like using the Binoculars") before the losses are taken.
        roll = self.after_roll(unit, "Landmine", dice)[0]
        self.suffer(unit, roll, "Landmines")
        self.fire("landmine", unit)  # 'on landmine': the Unit crossed Landmines (after their losses)


def leaves_first(standing: list[Unit], turn: int) -> str:
    """What a full Sector's Units yet to move do in Phase 4 (ruling 3.8): they move, or stay, before a Unit that
    could enter, so the Sector may have room when they leave."""
    waiting = [u.name for u in standing if u.moved_turn != turn]
    if not waiting:
        return ""
    return (f", and {' and '.join(waiting)} {'stands' if len(waiting) == 1 else 'stand'} there; in the Movement "
            "phase a Unit standing in a full Sector moves, or stays, first (ruling 3.8): if it leaves, there is room")
