"""The turn specialised from a game's plan: the same game as :meth:`Game.run_turn`, with the steps that cannot do
anything in this game left out.

Which steps can be left out is decided once per plan (content, map, variant, options) from the plan's data: the
events some effect listens to, the moments of the turn at which some card or rule could be used, the queries some
effect can change (the others are tables), the variant's ignore list and kept faces, and Phase 4's moves worked
out per Sector (:meth:`Game._compile_moves`). Never from a map, variant, option or policy name.

When every step a turn of this game could take is covered, :func:`play` plays the game to its end:

- no effect can ever run (no event on the turn's path is heard, no use point is served), so no grant, counter,
  card or attribute can change during the game: what the plan found constant stays constant;
- dice are small integers (positions in the content's list of faces); the Final Tally's ``Die`` records are made
  once, at the end, for the state (a card, a scenario or a trace reading the tally takes the general path);
- a decider whose class says it answers some kinds of choice from their keys alone (``pure_kinds``) is asked once
  per distinct set of dice, and its answers are remembered by their faces;
- the rare steps (a Landmine roll, a Unit wiped out, a Bunker entered, the game's end) call the general methods.

Otherwise (a game traced, several Units, another side's player, automated Units, a decider that reads the tally,
anything an effect could change) :func:`play` returns False and the general turn runs. Both give the same game,
choice for choice and state for state (tests/test_fastturn.py compares them over many seeds and games).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ddaydice.interpreter.deciders import Decision, legal_answer
from ddaydice.interpreter.state import MARKER_CHEVRONS, Die

if TYPE_CHECKING:
    from ddaydice.interpreter.deciders import Decider
    from ddaydice.interpreter.engine import Game
    from ddaydice.interpreter.state import Unit

# Events the fast turn would fire (Game.fire) on its path; none may be heard. 'straight' is fired only when every
# face counts (no kept-faces list), 'rwb' only when RWB bonuses are scored (checked apart).
_PATH_EVENTS = frozenset({"game-start", "final-tally", "upkeep", "casualties", "move", "advance", "enter",
                          "first-enter", "combat", "landmine", "specialist-lost"})
# The number queries and permissions the fast turn reads from the plan's tables.
_NUMBERS = ("dice-rolled", "locked-dice", "rolls", "stay-turns", "mgf-dice", "capacity")
_FLAGS = ("reroll-skull", "dice-trade", "marker-advance")
# Queries whose absence from the live set lets the fast turn use their base directly.
_BASES = ("def", "stay", "casualties")
_MEMO_LIMIT = 200_000  # remembered dice answers per kind of decider (at most 6**6 locks + 7**6 re-rolls)
_UNKNOWN: Any = object()  # a remembered first re-roll not worked out yet
_ASKED: Any = object()  # an answer asked through a Decision (not remembered)
_STAY_MARKERS = frozenset({"must-move", "cant-stay"})
_NEXT_MARKER = {"chevron-1": "chevron-2", "chevron-2": "chevron-3"}


class FastPlan:
    """What a plan's fast turn needs, worked out once; ``reason`` says why there is none (None: there is one)."""

    def __init__(self, game: Game) -> None:
        self.reason: str | None = self._why_not(game)
        if self.reason is not None:
            return
        c = game.content
        values, flags = game.static_values, game.static_flags
        self.locks = min(values["locked-dice"], len(game._layout))
        self.rolls = values["rolls"]
        self.stay_turns = values["stay-turns"]
        self.marker_advance = flags["marker-advance"]
        faces = game._faces
        skulls_ok = flags["reroll-skull"]
        # Per face: may it be re-rolled, and what it gives (Soldiers, Stars, Courage, Tools) when collected.
        self.rerollable = tuple(skulls_ok or f != "skull" for f in faces)
        worth: list[tuple[int, int, int, int]] = []
        for f in faces:
            if not game.counts_face(f):
                worth.append((0, 0, 0, 0))
            elif game._soldier_faces.get(f):
                worth.append((game._soldier_faces[f], 0, 0, 0))
            elif f == "star":
                worth.append((0, 1, 0, 0))
            elif f == "courage":
                worth.append((0, 0, 1, 0))
            elif f == "tool":
                worth.append((0, 0, 0, 1))
            else:
                worth.append((0, 0, 0, 0))
        self.worth = tuple(worth)
        self.tool_table = c.dice.tool_table
        self.tool_step = c.dice.tool_table_step
        # DEF as a table per (Sector, chevrons): nothing in this game changes it (the query is not live).
        info = game.queries["def"]
        self.defense: dict[str, tuple[int, ...]] = {}
        for sid, sec in game.sectors.items():
            row = [sec.defense[min(max(ch, 1), len(sec.defense)) - 1] for ch in range(4)]
            if info.minimum is not None:
                row = [max(v, info.minimum) for v in row]
            self.defense[sid] = tuple(row)
        # The Unit marker after upkeep, and the DEF suffered, by marker (chevrons: Unit.chevrons).
        markers = [m.id for m in c.game.marker_faces]
        self.next_marker = {m: self._after_upkeep(m) for m in markers}
        self.def_by_marker = {sid: {m: row[_chevrons(m)] for m in markers} for sid, row in self.defense.items()}
        self.cause = {sid: f"Combat in {sec.name}" for sid, sec in game.sectors.items()}
        self.black = {sid: sec.black for sid, sec in game.sectors.items()}
        self.bunker = {sid: sec.bunker for sid, sec in game.sectors.items()}
        from ddaydice.interpreter.engine import Move

        self.Move = Move
        self.stay_move = Move("stay", None, 0, False)
        # Phase 4's candidate moves per Sector, as the engine compiled them.
        assert game._fixed_moves is not None
        self.moves = game._fixed_moves
        self.faces = tuple(game._faces)
        self.tos = {sid: tuple(m[0] for m in cands) for sid, cands in self.moves.items()}
        # Per kind of decider: its remembered answers and its dice rules (decider_setup).
        self.deciders: dict[type, tuple[Any, Any, Any, Any, Any]] = {}
        self.all_positions = list(range(len(game._layout)))
        self.every_face_rerollable = all(self.rerollable)
        # What each face gives, packed: Soldiers, Stars << 10, Courage << 20, Tools << 30 (at most 6 dice of 2).
        self.packed = tuple(s | (st << 10) | (co << 20) | (to << 30) for s, st, co, to in self.worth)
        if max(max(w) for w in self.worth) * len(game._layout) >= 1024:
            self.reason = "a Final Tally worth too much to pack"
        self.lock_patterns: dict[tuple[int, ...], tuple[tuple[bool, ...], tuple[int, ...]]] = {}

    def decider_setup(self, decider: Decider) -> tuple[Any, Any, Any, Any, Any]:
        """What the fast turn keeps per kind of decider (class attributes and rules: the same for every instance):
        the answers remembered for the kinds it answers from keys alone (pure_kinds), its remembered moves when
        they read only the keys, the Unit's Sector and Courage (move_reads), and its dice rules as data
        (dice_rules), if any."""
        pure: frozenset[str] = getattr(decider, "pure_kinds", frozenset())
        memos: list[dict[Any, Any] | None] = [{} if kind in pure else None for kind in ("lock", "reroll", "casualty")]
        reads = set(getattr(decider, "move_reads", ("?",)))
        moves: dict[Any, Any] | None = {} if reads <= {"sector", "courage"} else None
        dice_rules = getattr(decider, "dice_rules", None)
        rules = dice_rules(self.faces) if dice_rules is not None else None
        return memos[0], memos[1], memos[2], moves, rules

    def _after_upkeep(self, marker: str) -> str:
        """Game._advance_marker with the plan's constants."""
        if marker in _STAY_MARKERS or not self.marker_advance:
            return marker
        nxt = _NEXT_MARKER.get(marker)
        return "must-move" if nxt is None or _chevrons(marker) >= self.stay_turns else nxt

    def gain(self, dice: Sequence[int]) -> tuple[int, int, int, int]:
        """Game._collect for a Final Tally of these faces (nothing cancelled): Soldiers, Stars, Courage and Item
        Points. Each face's worth is packed in one integer (10 bits a resource), so a tally is one sum."""
        total = sum([self.packed[f] for f in dice])
        tools = total >> 30
        table = self.tool_table
        points = table[tools] if tools < len(table) else table[-1] + (tools - len(table) + 1) * self.tool_step
        return total & 1023, (total >> 10) & 1023, (total >> 20) & 1023, points

    @staticmethod
    def _why_not(game: Game) -> str | None:
        if game.side_defs:
            return "another side's player"
        if game.option_rules.automated_units:
            return "automated Units"
        fired = _PATH_EVENTS | ({"straight"} if game.keep_faces is None else set())
        heard = sorted(game.live_events & fired)
        if heard:
            return f"events heard on the turn's path: {', '.join(heard)}"
        if "rwb" not in game.ignore and game.rwb_sources:
            return "RWB bonuses are scored"
        if "skulls" not in game.ignore and (game.keep_faces is None or "skull" in game.keep_faces):
            return "Skulls cancel results"
        # A use point is served when some card or rule other than the Award purchase could be used there (the
        # Award purchase is checked per game: it needs Awards in the deck).
        served = sorted(p for p in game.live_points if game._point_owners.get(p, frozenset()) - {"rule:buy-award"})
        if served:
            return f"use points served: {', '.join(served)}"
        if ("after", "first-roll") in game.live_windows:
            return "uses after the first roll"
        missing = [q for q in _NUMBERS if q not in game.static_values] + \
                  [q for q in _FLAGS if q not in game.static_flags] + [q for q in _BASES if q in game.live_queries]
        if missing:
            return f"queries some effect can change: {', '.join(missing)}"
        if game.static_values["dice-rolled"] < len(game._layout):
            return "fewer dice rolled than the Unit has"
        if game.static_flags["dice-trade"]:
            return "dice trading"
        if game.static_values["mgf-dice"] != 0:
            return "MGF dice are rolled"
        if game.static_values["capacity"] < 1:
            return "Sectors with no room"
        if game._fixed_moves is None:
            return "Phase 4's moves are not fixed"
        if "requirements" not in game.ignore and "attributes" not in game.ignore:
            return "Sector requirements"
        if sum(1 for sec in game.sectors.values() if sec.start is not None) > 1:
            return "several starting Sectors"
        return None


def plan_for(game: Game) -> FastPlan:
    """The game's fast plan (shared by every game of the same plan)."""
    fp: FastPlan = game._fast_plan
    return fp


def why_not(game: Game) -> str | None:
    """Why the fast turn does not apply to this game as it stands (None: it applies)."""
    fp = plan_for(game)
    if fp.reason is not None:
        return fp.reason
    if game.tracing:
        return "the game is traced"
    s = game.state
    if len(s.units) != 1:
        return "more than one Unit"
    if s.sides or s.decks or s.grants or s.in_play or s.bunker_specialists:
        return "the state holds other sides, decks, grants, cards in play or Specialists beside a Bunker"
    u = s.units[0]
    if u.side or u.kept_tally is not None or u.specialists or u.vehicle is not None or u.items or u.awards \
            or u.cards or u.status != "active":
        return "the Unit holds cards, a kept tally, or is not active"
    if s.pool or s.hands.get(u.id) or s.placed:
        return "there is something to recruit or find"
    if game.live_points and s.award_deck:
        return "Awards can be bought"
    decider = _decider(game, u)
    if getattr(decider, "decide_keys", None) is None or getattr(decider, "reads_tally", True):
        return "the decider may read the Final Tally"
    return None


def _chevrons(marker: str) -> int:
    return MARKER_CHEVRONS.get(marker, 3 if marker == "must-move" else 1)  # as Unit.chevrons


def _decider(game: Game, unit: Unit) -> Decider:
    decider = game._decider_of.get(unit.id)
    if decider is None:
        decider = game.deciders[(int(unit.id[1:]) - 1) % len(game.deciders)]
    return decider


def play(game: Game, max_turns: int) -> bool:
    """Play the game to its end with the fast turn, if it applies (else False, and nothing is changed)."""
    if why_not(game) is not None:
        return False
    fp: FastPlan = game._fast_plan
    s = game.state
    u = s.units[0]
    decider = game._decider_of[u.id] = _decider(game, u)
    decide = decider.decide_keys  # type: ignore[attr-defined]
    kind_of = type(decider)
    known = fp.deciders.get(kind_of)
    if known is None:
        known = fp.deciders[kind_of] = fp.decider_setup(decider)
    lock_memo, reroll_memo, casualty_memo, move_memo, rules = known
    rank, wish = rules if rules is not None else ((), ())
    lock_patterns = fp.lock_patterns
    every_face_rerollable = fp.every_face_rerollable
    on_faces = getattr(decider, "decide_dice", None)
    all_positions = fp.all_positions

    def decide_lock(dice: list[int], locks: int) -> tuple[int, ...] | None:
        if on_faces is not None:
            answer = on_faces("lock", dice, all_positions, faces, locks)
            if answer is not None:
                return legal_answer(ndice, locks, locks, answer)
        keys = keys_of(dice, all_positions)
        return legal_answer(ndice, locks, locks, decide(game, uid, "lock", keys, locks))

    def decide_reroll(dice: list[int], free: list[int]) -> tuple[int, ...] | None:
        if on_faces is not None:
            answer = on_faces("reroll", dice, free, faces, 0)
            if answer is not None:
                return legal_answer(len(free), 0, len(free), answer)
        return legal_answer(len(free), 0, len(free), decide(game, uid, "reroll", keys_of(dice, free), 0))

    faces = fp.faces
    layout = game._layout
    ndice = len(layout)
    positions = range(ndice)
    random = game.rng.random
    choices = s.choices
    uid = u.id
    locks, rolls = fp.locks, fp.rolls
    rerollable = fp.rerollable
    tos = fp.tos
    gain, packed, tool_table = fp.gain, fp.packed, fp.tool_table
    next_marker, def_by_marker = fp.next_marker, fp.def_by_marker
    black, bunker, cause, fixed = fp.black, fp.bunker, fp.cause, fp.moves
    sectors = s.sectors
    deaths = s.deaths
    visited = u.visited
    Move = fp.Move
    stay_move = fp.stay_move

    def keys_of(dice: list[int], which: list[int]) -> tuple[tuple[int, str, str], ...]:
        return tuple([(layout[i][0], faces[dice[i]], layout[i][1]) for i in which])

    def ask(kind: str, prompt: str, keys: tuple[Any, ...], lo: int, hi: int, labeler: Any) -> tuple[int, ...]:
        """The general way (as Game.pick), when the fast answer is not legal: the Final Tally made, then a
        Decision asked (an error for a fixed policy; another decider's answer otherwise)."""
        _materialise(u, faces, layout, dice, locked)
        return game.ask(u, Decision(kind, uid, prompt, (), keys, lo, hi, labeler))

    def over() -> bool:
        return s.outcome is not None

    asked: list[Any] = [None]

    def reroll_step(dice: list[int], locked: Sequence[bool]) -> Any:
        """A re-roll's answer and the dice it re-rolls (None: no die may be re-rolled). Its keys are the free
        dice (position and face): a pure decider's answers are remembered by those alone."""
        masked = tuple([dice[i] if not locked[i] and rerollable[dice[i]] else -1 for i in positions])
        hit = reroll_memo.get(masked) if reroll_memo is not None else None
        if hit is None:
            free = [i for i in positions if masked[i] >= 0]
            if not free:
                return None
            answer = decide_reroll(dice, free)
            if answer is None:
                answer = ask("reroll", "re-roll which dice?", keys_of(dice, free), 0, len(free), game._die_label)
                choices.pop()  # game.ask recorded it; recorded again by the caller, once
                asked[0] = (answer, tuple([free[i] for i in answer]))
                return _ASKED  # not the decider's own answer: not remembered
            hit = (answer, tuple([free[i] for i in answer]))
            if reroll_memo is not None and len(reroll_memo) < _MEMO_LIMIT:
                reroll_memo[masked] = hit
        return hit

    dice = [0] * ndice
    no_locks = (False,) * ndice
    locked: Sequence[bool] = no_locks
    rolled = False
    try:
        while s.outcome is None:
            turn = s.turn
            if turn >= max_turns:
                game.end("lost", f"no result after {max_turns} turns")
                break
            if turn == 0:
                game.choose_starts()
            turn = s.turn = turn + 1
            s.shortfall = 0
            u.recruited = u.found = u.awards_drawn = 0

            # Phase 1: roll, Lock, re-roll twice (no card can be used, no effect hears the Final Tally).
            s.phase = "roll"
            dice = [int(random() * 6) for _ in positions]
            locked = no_locks
            rolled = True
            if rules is not None:
                # The decider's rules as data: Lock the dice of least (rank, index); re-roll the wished faces.
                unlocked: Sequence[int] = positions
                if locks:
                    best = sorted([(rank[f] << 6) | i for i, f in enumerate(dice)])
                    picks = [b & 63 for b in best[:locks]]
                    picks.sort()
                    choices.append(picks)
                    pattern = lock_patterns.get(tuple(picks)) or _pattern(lock_patterns, tuple(picks), ndice)
                    locked, unlocked = pattern
                for _ in range(1, rolls):
                    free = unlocked if every_face_rerollable else [i for i in unlocked if rerollable[dice[i]]]
                    if not free:
                        break  # nothing left to re-roll: no question is asked
                    picks = [j for j, i in enumerate(free) if wish[dice[i]]]
                    choices.append(picks)
                    for j in picks:
                        dice[free[j]] = int(random() * 6)
            else:
                entry: list[Any] | None = None
                if locks:
                    key: Any = tuple(dice)
                    entry = lock_memo.get(key) if lock_memo is not None else None
                    if entry is None:
                        found = decide_lock(dice, locks)
                        asked_lock = found is None
                        if found is None:
                            found = ask("lock", "Lock dice (Locked dice are never re-rolled)",
                                        keys_of(dice, all_positions), locks, locks, game._die_label)
                            choices.pop()  # game.ask recorded it; recorded again below, once
                        # The Lock, the first re-roll once known (its keys follow from these faces and the Lock), and
                        # which dice are Locked.
                        entry = [found, _UNKNOWN, tuple(i in found for i in positions)]
                        if lock_memo is not None and not asked_lock and len(lock_memo) < _MEMO_LIMIT:
                            lock_memo[key] = entry
                    choices.append(list(entry[0]))
                    locked = entry[2]
                for r in range(1, rolls):
                    if r == 1 and entry is not None and entry[1] is not _UNKNOWN:
                        step = entry[1]
                    else:
                        step = reroll_step(dice, locked)
                        if r == 1 and entry is not None and reroll_memo is not None and step is not _ASKED:
                            entry[1] = step
                    if step is None:
                        break  # nothing left to re-roll: no question is asked
                    if step is _ASKED:
                        step = asked[0]
                    choices.append(list(step[0]))
                    for i in step[1]:
                        dice[i] = int(random() * 6)

            # Phase 2: upkeep (no Skull cancels, no RWB is scored): collect, then the Unit marker.
            s.phase = "upkeep"
            total = sum([packed[f] for f in dice])
            u.soldiers += total & 1023
            u.stars += (total >> 10) & 1023
            u.courage += (total >> 20) & 1023
            tools = total >> 30
            u.item_points += tool_table[tools] if tools < len(tool_table) else gain(dice)[3]
            marker = u.marker = next_marker.get(u.marker) or fp._after_upkeep(u.marker)

            # Phase 3: nothing to trade or buy, no card to use.
            s.phase = "purchase"

            # Phase 4: the moves compiled for this Sector.
            s.phase = "movement"
            here = u.sector
            may_stay = marker not in _STAY_MARKERS
            have = u.courage
            cands = fixed[here]
            mkey = None
            hit3 = None
            if u.moved_turn != turn and move_memo is not None:
                mkey = (here, may_stay, have, *map(visited.__contains__, tos[here]))
                hit3 = move_memo.get(mkey)
            if hit3 is None:
                if u.moved_turn == turn:
                    moves = [stay_move]
                else:
                    moves = [stay_move] if may_stay else []
                    for to, kind, cost, mines, _ in cands:
                        if to not in visited and cost <= have:
                            moves.append(Move(kind, to, cost, mines))
                if not moves:
                    hit3 = (None, None)
                elif len(moves) == 1:
                    hit3 = (moves[0], None)
                else:
                    mkeys = tuple(moves)
                    answer = legal_answer(len(mkeys), 1, 1, decide(game, uid, "move", mkeys, 1))
                    if answer is None:
                        answer = ask("move", "move?", mkeys, 1, 1, game.describe_move)
                        choices.pop()
                        mkey = None  # not the decider's own answer: not remembered
                    hit3 = (moves[answer[0]], answer)
                if mkey is not None and move_memo is not None and len(move_memo) < _MEMO_LIMIT:
                    move_memo[mkey] = hit3
            move, answer = hit3
            if move is None:
                if not may_stay:
                    game.wipe_out(u, "must move and cannot")
                    if over():
                        break
            else:
                if answer is not None:
                    choices.append(list(answer))
                if move.kind != "stay":
                    dest = move.to
                    assert dest is not None
                    u.courage = have - move.cost
                    u.sector = dest
                    visited.append(dest)
                    u.moved_turn = u.entered_turn = turn
                    u.marker = "cant-stay" if black[dest] else "chevron-1"
                    if move.landmines:
                        game.landmines(u)
                        if over():
                            break
                    if u.status == "active":
                        sectors[dest].entered = True

            # Phase 5: combat (no MGF die is rolled): the DEF from the table, the casualties.
            s.phase = "combat"
            if u.status == "active":
                here = u.sector
                state_here = sectors[here]
                state_here.mgf_roll = []
                state_here.mgf_turn = turn
                remaining = def_by_marker[here].get(u.marker)
                if remaining is None:
                    remaining = fp.defense[here][u.chevrons()]
                if remaining > 0:
                    lost = 0
                    while remaining > 0 and u.soldiers > 0:
                        n = min(remaining, u.soldiers)
                        pick = 0
                        if n > 1:
                            hit4 = casualty_memo.get(n) if casualty_memo is not None else None
                            if hit4 is None:
                                ckeys = (("soldiers", n), ("soldiers", 1))
                                hit4 = legal_answer(2, 1, 1, decide(game, uid, "casualty", ckeys, 1))
                                if hit4 is None:
                                    hit4 = ask("casualty", f"{u.name} must lose {remaining} more ({cause[here]})",
                                               ckeys, 1, 1, functools.partial(game._casualty_label, u))
                                    choices.pop()
                                elif casualty_memo is not None:
                                    casualty_memo[n] = hit4
                            choices.append(list(hit4))
                            pick = hit4[0]
                        k = n if pick == 0 else 1
                        u.soldiers -= k
                        remaining -= k
                        lost += k
                    deaths.append({"unit": uid, "sector": here, "lost": lost, "turn": turn})
                    if u.soldiers <= 0:
                        game.wipe_out(u, f"wiped out ({cause[here]})")
                if bunker[here] and u.entered_turn == turn and u.status == "active":
                    game.resolve_bunkers()

            # End of the turn.
            if u.counters:
                u.counters = {k: v for k, v in u.counters.items() if "@t" not in k or k.endswith("@g")}
            if u.status != "active":
                game.end_of_turn()
    finally:
        if rolled:
            _materialise(u, faces, layout, dice, locked)
    return True


def _pattern(patterns: dict[tuple[int, ...], tuple[tuple[bool, ...], tuple[int, ...]]], locked: tuple[int, ...],
             n: int) -> tuple[tuple[bool, ...], tuple[int, ...]]:
    """Which of ``n`` dice are Locked, and the positions of the others, for the Locked positions ``locked``
    (kept: a handful per plan)."""
    pattern = patterns[locked] = (tuple(i in locked for i in range(n)), tuple(i for i in range(n) if i not in locked))
    return pattern


def _materialise(unit: Unit, faces: Sequence[str], layout: list[tuple[int, str]], dice: list[int],
                 locked: Sequence[bool]) -> None:
    """The Final Tally as the general turn leaves it: one Die record per die."""
    unit.tally = [Die(faces[f], colour, idx, locked=lk) for (idx, colour), f, lk in zip(layout, dice, locked,
                                                                                        strict=True)]
