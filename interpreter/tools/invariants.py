"""The rulebook's hard guarantees, checked after every phase of a game (``--check-invariants``).

The guarantees are data (``rules/invariants.yaml``: each one's text, its rulebook source, the phases after which
it holds, and the checker that tests it); a checker is a general procedure here, which reads the state and asks
the game's own queries, and never names a card.

The checks hook in one place: :class:`CheckedGame`, a :class:`Game` watched by a :class:`Watch` (a ``Watcher``,
core/api.py), which the game tells when each phase begins and ends, and when a Unit suffers a loss, moves, or
reaches a moment of uses (to see what each Unit is charged). A game that is not checked has no watcher.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs

from ddaydice.dsl.compile import EffectSource
from ddaydice.dsl.diagnostics import RuleError
from ddaydice.dsl.places import bundled_root
from ddaydice.dsl.yamlsrc import read_yaml, structure
from ddaydice.interpreter.core.api import GameAPI
from ddaydice.interpreter.core.state import STAY_FORBIDDEN, Unit
from ddaydice.interpreter.core.values import Move
from ddaydice.interpreter.core.watching import Watching
from ddaydice.interpreter.game import Game

RESOURCES = ("soldiers", "stars", "courage", "item_points")


@attrs.frozen
class Invariant:
    id: str
    name: str
    after: tuple[str, ...]
    rule: str
    source: str


@attrs.frozen
class InvariantFile:
    provenance: str
    invariants: tuple[Invariant, ...]


@attrs.frozen
class Violation:
    invariant: str
    turn: int
    phase: str
    message: str

    def text(self) -> str:
        return f"invariant {self.invariant} broken after {self.phase} of turn {self.turn}: {self.message}"


@functools.cache
def invariants(path: Path | None = None) -> tuple[Invariant, ...]:
    """The guarantees of ``rules/invariants.yaml``, each with a checker (checked here: a missing one is an error)."""
    file = path or bundled_root() / "rules" / "invariants.yaml"
    doc, diags = read_yaml(str(file))
    data = None
    if doc is not None:
        data, more = structure(doc, doc.data, InvariantFile)
        diags += more
    if data is None or diags:
        raise RuleError("; ".join(f"{d.file}:{d.line}: {d.message}" for d in diags) or f"cannot read {file}")
    for inv in data.invariants:
        if inv.id not in CHECKERS:
            raise RuleError(f"{file}: no checker for invariant '{inv.id}' (checkers: {', '.join(sorted(CHECKERS))})")
    return data.invariants


# ---------------------------------------------------------------------------------------------- the watch
@attrs.define
class Snapshot:
    """What a phase's checks compare with: each player as the phase began."""

    sector: dict[str, str] = attrs.Factory(dict)
    status: dict[str, str] = attrs.Factory(dict)
    cards: dict[str, frozenset[str]] = attrs.Factory(dict)  # Specialists (dead ones too), Items, Vehicle, Awards
    tally: dict[str, frozenset[int]] = attrs.Factory(dict)  # the Final Tally's dice (by identity)
    offered: frozenset[str] = frozenset()  # cards in the Pool, a hand or placed in a Sector


@attrs.define
class Watch(Watching):
    """The checks of one game: what the phase began with, the losses charged during it, the violations."""

    report: Callable[[Violation], None] | None = None
    only: frozenset[str] | None = None  # the invariants to check (None: all)
    before: Snapshot = attrs.Factory(Snapshot)
    # (player, loss asked, DEF + MGF it should suffer then, MGF dice its Sector should roll) for each loss asked
    # during the phase (read then: what a card grants for the phase is gone once it ends)
    charged: list[tuple[str, int, int, int]] = attrs.Factory(list)
    moves: list[tuple[str, str, str, bool]] = attrs.Factory(list)  # (Unit, from, to, visited before) in the phase
    # (Unit, card) for each card an effect granted during the phase beyond the turn's limits, by the rules' data
    # (a tier or a kind of source marked beyond-turn-limits: an Award's, a Sector's, a Battle Condition's, an RWB's)
    beyond: set[tuple[str, str]] = attrs.Factory(set)
    rolled: dict[str, int] = attrs.Factory(dict)  # MGF dice the Unit's Sector should have rolled, read as they were
    violations: list[Violation] = attrs.Factory(list)

    def begin(self, game: GameAPI) -> None:
        self.before = snapshot(game)
        self.charged = []
        self.moves = []
        self.rolled = {}
        self.beyond = set()

    # ------------------------------------------------------------------ the game's moments (a Watcher)
    def phase_begins(self, game: GameAPI, phase: str) -> None:
        self.begin(game)

    def phase_ends(self, game: GameAPI, phase: str) -> None:
        self.end(game, phase)

    def game_ends(self, game: GameAPI) -> None:
        self.end(game, "end")

    def at_point(self, game: GameAPI, unit: Unit, point: str) -> None:
        if point == "after-mgf" and not unit.side:
            # The Sector has just rolled: the dice it should roll, before any card played now (a Grenadier
            # sacrificed after the roll silences the Sector from then on; the roll stands, as for the Grenade).
            self.rolled[unit.id] = game.value("mgf-dice", unit, sector=unit.sector)

    def moving(self, game: GameAPI, unit: Unit, move: Move) -> None:
        if move.to is not None:
            self.moves.append((unit.id, unit.sector, move.to, move.to in unit.visited))

    def granted(self, game: GameAPI, unit: Unit, card: str, source: EffectSource) -> None:
        if game.content.beyond_turn_limits(source.kind, source.tier):
            self.beyond.add((unit.id, card))

    def suffering(self, game: GameAPI, unit: Unit, amount: int, cause: str) -> None:
        if game.state.phase == "combat" and not unit.side:
            # What the Unit should be charged now: its Sector's DEF (the rules' query) and the MGF rolled there,
            # unless it ignores MGF casualties (read now: a Bunker conquered later in the phase lowers its DEF).
            rolls = game.state.sectors[unit.sector].mgf_roll or []
            mgf = 0 if game.flag("ignore-mgf-casualties", unit) else sum(rolls)
            self.charged.append((unit.id, amount, game.value("def", unit) + mgf,
                                 game.value("mgf-dice", unit, sector=unit.sector)))

    # ------------------------------------------------------------------ the checks
    def end(self, game: GameAPI, phase: str) -> None:
        for inv in invariants():
            if (self.only is not None and inv.id not in self.only) or not ("every" in inv.after or phase in inv.after):
                continue  # 'every': after each phase and at the end of the game ("end")
            for message in CHECKERS[inv.id](game, self, phase):
                v = Violation(inv.id, game.state.turn, phase, message)
                self.violations.append(v)
                if self.report is not None:
                    self.report(v)


def snapshot(game: GameAPI) -> Snapshot:
    s = game.state
    snap = Snapshot()
    for u in game.players():
        snap.sector[u.id] = u.sector
        snap.status[u.id] = u.status
        snap.cards[u.id] = frozenset(_cards(u))
        snap.tally[u.id] = frozenset(id(d) for d in u.tally)
    snap.offered = frozenset(s.pool) | {c for h in s.hands.values() for c in h} | frozenset(s.placed)
    return snap


def _cards(u: Unit) -> Iterator[str]:
    yield from u.specialists
    yield from u.dead
    yield from u.items
    yield from u.used_items
    if u.vehicle:
        yield u.vehicle


class CheckedGame(Game):
    """A Game whose every phase is followed by the checks of ``rules/invariants.yaml`` (and the end of the game):
    its ``watch`` watches it (``Watcher``, core/api.py)."""

    def __init__(self, *args: Any, watch: Watch, **kw: Any) -> None:
        self.watch = watch
        kw["watchers"] = (*kw.get("watchers", ()), watch)
        super().__init__(*args, **kw)


# ------------------------------------------------------------------------------------------- the checkers
Checker = Callable[[GameAPI, Watch, str], list[str]]


def _resources(game: GameAPI, watch: Watch, phase: str) -> list[str]:
    return [f"{u.name} has {getattr(u, r)} {r.replace('_', ' ')}" for u in game.players() for r in RESOURCES
            if getattr(u, r) < 0]


def _alive(game: GameAPI, watch: Watch, phase: str) -> list[str]:
    if game.option_rules.automated_units:
        return []  # automated Units keep no Soldiers (solitaire Atlantikwall)
    return [f"{u.name} is in play with no Soldier (its Specialists counted)" for u in game.state.units
            if u.status == "active" and game.soldier_count(u) <= 0]


def _purchases(game: GameAPI, watch: Watch, phase: str) -> list[str]:
    out = []
    for u in game.players():
        if u.status == "dead":
            continue
        recruits, finds = game.value("recruits-per-turn", u), game.value("finds-per-turn", u)
        if u.recruited > recruits:
            out.append(f"{u.name} recruited {u.recruited} Specialists this turn (limit {recruits})")
        if u.found > finds:
            out.append(f"{u.name} found {u.found} Items this turn (limit {finds})")
        if phase != "purchase":
            continue
        # Independently of the engine's counts: the cards that came to the Unit from the Pool, a hand or a
        # Sector during Phase 3 (a trade between Units brings none of these), less those an effect granted beyond
        # the turn's limits (an Award's, a Sector attribute's, a Battle Condition's: the rules' data, as the
        # engine reads it).
        new = frozenset(_cards(u)) - watch.before.cards.get(u.id, frozenset())
        taken = [c for c in new if c in watch.before.offered and (u.id, c) not in watch.beyond]
        kinds = game.content.card_kinds
        roles = {c: ("specialist" if kinds.get(c) == "specialist" or game._role.get(kinds.get(c, "")) == "specialist"
                     else "item") for c in taken}
        specs = sum(1 for c in taken if roles[c] == "specialist")
        items = len(taken) - specs
        if specs > recruits:
            out.append(f"{u.name} took {specs} Specialists in Phase 3 within the turn's limits (limit {recruits})")
        if items > finds:
            out.append(f"{u.name} took {items} Items in Phase 3 within the turn's limits (limit {finds})")
    return out


def _skulls(game: GameAPI, watch: Watch, phase: str) -> list[str]:
    out: list[str] = []
    for u in (game.side_players() if game.state.sides else []) + game.acting():
        if watch.before.status.get(u.id) != "active" or not game.skulls_cancel(u) \
                or game.used_up("ignore-skulls", u):
            continue  # (a limited 'ignore skulls' used this phase reads as used up once used)
        # The Final Tally the Skulls act on: the dice it held as Phase 2 began (a result an RWB adds afterwards,
        # a Skull chosen with Leadership, comes after the Skulls have cancelled).
        began = watch.before.tally.get(u.id, frozenset())
        tally = [d for d in u.tally if id(d) in began]
        if any(d.face == "skull" and d.cancelled for d in tally):
            out.append(f"{u.name}: a Skull was cancelled")
        # The Skulls that cancel nothing are the query skulls-ignored (the Sharpshooter; the Skulls' RWB, Dead
        # Man's Gift, grants +3 for its own three once scored).
        skulls = sum(1 for d in tally if d.face == "skull")
        active = max(skulls - game.value("skulls-ignored", u), 0)
        others = sum(1 for d in tally if d.face != "skull" and d.real)  # ruling 1.10: a Skull cancels a die
        cancelled = sum(1 for d in tally if d.face != "skull" and d.cancelled)
        if cancelled != min(active, others) or any(d.cancelled and not d.real for d in tally):
            out.append(f"{u.name}: {active} Skull(s) that cancel, {others} other result(s), but {cancelled} "
                       f"cancelled (Final Tally: {', '.join(d.face for d in tally)})")
    return out


def _black_shield(game: GameAPI, watch: Watch, phase: str) -> list[str]:
    if game.option_rules.automated_units:
        return []  # the automated Unit's own procedure (2 turns per Sector)
    if game.state.outcome is not None:
        return []  # the game ended during the phase: the Units after the one that ended it never moved
    out = []
    turn = game.state.turn
    for u in game.state.units:
        if watch.before.status.get(u.id) != "active" or u.status != "active":
            continue
        stayed = u.sector == watch.before.sector.get(u.id) and u.moved_turn != turn
        if stayed and not game.flag("stay", u):
            marker = " (its marker shows " + u.marker + ")" if u.marker in STAY_FORBIDDEN else ""
            out.append(f"{u.name} stayed in {game.sectors[u.sector].name}, where it may not stay{marker}")
    return out


def _one_move(game: GameAPI, watch: Watch, phase: str) -> list[str]:
    out = []
    seen: set[str] = set()
    for who, was, to, visited in watch.moves:  # the Phase 4 moves (a card's switch or retreat is not one)
        u = game.state.unit(who)
        if who in seen:
            out.append(f"{u.name} moved twice this turn")
        seen.add(who)
        if not any(there == to for there, *_ in game.moves.get(was, ())):
            out.append(f"{u.name} went from {game.sectors[was].name} to {game.sectors[to].name}, which no line joins")
        if visited:
            out.append(f"{u.name} entered {game.sectors[to].name} a second time")
    return out


def _combat(game: GameAPI, watch: Watch, phase: str) -> list[str]:
    s = game.state
    if game.option_rules.automated_units:
        return []
    out = []
    charged: dict[str, list[tuple[int, int]]] = {}
    dice: dict[str, int] = {}
    for who, amount, due, n in watch.charged:
        charged.setdefault(who, []).append((amount, due))
        dice[who] = n
    for u in s.units:
        if watch.before.status.get(u.id) != "active" or u.status == "dead":
            continue  # out before the Combat, or dead in it (Special Damage, an Assault): not checked
        if u.id not in charged and s.outcome is not None:
            continue  # the game ended during the Combat, before this Unit's turn to fight
        if u.sector != watch.before.sector.get(u.id):
            continue  # it switched Sectors during the Combat (the War Correspondent): see docs/simulation.md
        name = game.sectors[u.sector].name
        rolls = s.sectors[u.sector].mgf_roll or []
        if s.sectors[u.sector].mgf_turn != s.turn:
            if s.outcome is None:
                out.append(f"{u.name}: no MGF was rolled in {name} this turn")
            continue  # (the game ended before its Sector fought)
        should = watch.rolled.get(u.id, dice.get(u.id))
        if should is not None and len(rolls) != should:
            out.append(f"{u.name}: {len(rolls)} MGF dice rolled in {name}, the rules say {should}")
        if not any(amount == due for amount, due in charged.get(u.id, [])):
            asked = ", ".join(f"{a} (due {d})" for a, d in charged.get(u.id, [])) or "nothing"
            out.append(f"{u.name} in {name}: not charged its DEF + MGF (asked: {asked})")
    return out


CHECKERS: dict[str, Checker] = {
    "resources-never-negative": _resources,
    "alive-or-out": _alive,
    "purchases-per-turn": _purchases,
    "skull-cancels-a-result": _skulls,
    "black-shield-left": _black_shield,
    "one-move-along-a-line": _one_move,
    "def-and-mgf-in-combat": _combat,
}
