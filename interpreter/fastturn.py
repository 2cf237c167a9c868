"""The turn specialised from a game's plan: the same game as :meth:`Game.run_turn`, with the steps that cannot do
anything in this game left out or played on tables.

What a turn may leave out is decided once per plan (content, map, variant, options) from the plan's data, never from
a map, variant, option or policy name. The plan's *standing* sources are the ones in play whatever happens: the game
rules, the options' rules, the RWB table and the map's Sectors. Cards (Specialists, Items, Vehicles, Awards, drawn
cards) and grants made by effects ("this turn") come and go. While no card is in play and no grant is standing (a
*plain* state, checked at each turn and after every step that runs the general code), only the standing sources can
act, so:

- an event no standing source hears does nothing, and a use point no standing source serves offers nothing;
- a query no standing source modifies keeps its base value (a table: DEF per Sector and Unit marker, the default
  numbers and permissions); one a standing source modifies is read through the general :meth:`Game.value`;
- Phase 4's candidate moves are compiled per Sector from those values (room and a Sector's requirements checked
  as the general turn checks them).

The turn plays dice as small integers (positions in the content's list of faces), Locks, re-rolls, Skulls' cancels
and casualties through the decider's key protocol (answers remembered by faces for the kinds a decider says it
answers from keys alone), several Units in the general turn's order, and calls the general methods for every step
whose effect it does not play itself: a Final Tally some Sector hears, an RWB bonus or a straight that could score
(the whole upkeep of that Unit), a purchase when something can be bought, the Award purchase, trading between
Units, a move some effect hears, Landmines, an MGF six with Special Damage, Bunkers, the game's end. When a step
puts a card in play or makes a grant, the rest of the turn runs through the general phases, and the next turns too
until the state is plain again. The Final Tally's ``Die`` records are made before any general step, at a turn handed
over, and when the game ends.

Otherwise (a game traced, another side's player, automated Units, a decider that reads the tally or has no key
protocol) :func:`play` returns False and the general turn runs. Both give the same game, choice for choice and
state for state (tests/test_fastturn.py compares them over many seeds and games).
"""

from __future__ import annotations

import functools
import types
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ddaydice.interpreter.deciders import Decision, legal_answer
from ddaydice.interpreter.state import MARKER_CHEVRONS, NEXT_MARKER, STAY_FORBIDDEN, Die

if TYPE_CHECKING:
    from ddaydice.dsl.loader import EffectSource
    from ddaydice.interpreter.deciders import Decider
    from ddaydice.interpreter.engine import Game
    from ddaydice.interpreter.state import Unit

_MEMO_LIMIT = 200_000  # remembered dice answers per kind of decider (at most 6**6 locks + 7**6 re-rolls)
_UNKNOWN: Any = object()  # a remembered first re-roll not worked out yet
_ASKED: Any = object()  # an answer asked through a Decision (not remembered)
_PHASES = ("roll", "upkeep", "purchase", "movement", "combat")
# The permissions and numbers Phase 4's compiled moves take at their base (as Game._compile_moves).
_MOVE_QUERIES = ("enter", "advance", "ignore-barriers", "vehicle-here", "vehicle-crosses-landmines", "battle-cry",
                 "battle-cry-here", "ignore-requirements", "ignore-sacrifices", "advance-cost")
_MOVE_EVENTS = ("move", "advance", "enter", "first-enter")
_OK, _BUY = 0, 1  # in play's list of flags: the state is plain; Phase 3 may do something (indexes the type checker
# does not narrow on)


class FastPlan:
    """What a plan's fast turn needs, worked out once; ``reason`` says why there is none (None: there is one)."""

    def __init__(self, game: Game) -> None:
        self.reason: str | None = self._why_not(game)
        if self.reason is not None:
            return
        c = game.content
        queries = game.queries
        standing = _standing_sources(game)
        # What the standing sources can do: the queries they modify (grants need a grant standing: not plain), the
        # events they hear through Game.fire (globally, or in one Sector), the use points they serve.
        self.modified = frozenset(h.query for src in standing for h in src.compiled.modifiers)
        heard_everywhere: set[str] = set()
        for src in game.global_sources:
            heard_everywhere |= {t.event for t in src.compiled.triggers}
        heard_in: dict[str, set[str]] = {}
        if "attributes" not in game.ignore:
            for sid in game.sectors:
                sector_src = c.effects.get(f"{game.map.id}/{sid}")
                for t in sector_src.compiled.triggers if sector_src is not None else ():
                    heard_in.setdefault(t.event, set()).add(sid)
        self.heard_everywhere = frozenset(heard_everywhere)
        self.heard_in = {e: frozenset(s) for e, s in heard_in.items()}
        # Per Sector: the events heard there (everywhere, or by the Sector's own effect).
        self.heard_at = {sid: frozenset(heard_everywhere | {e for e, where in heard_in.items() if sid in where})
                         for sid in game.sectors}
        from ddaydice.interpreter.engine import USE_POINTS, WINDOW_POINTS, Move

        owners: dict[str, set[str]] = {}
        for src in standing:
            for h in src.compiled.uses:
                for p in USE_POINTS if h.window is None else WINDOW_POINTS.get(h.window, ()):
                    owners.setdefault(p, set()).add(src.owner)
        self.points = frozenset(owners)
        # At Phase 3's use point, only the Award purchase (served when an Award can be bought): asked only then.
        self.purchase_awards_only = owners.get("purchase", set()) <= {"rule:buy-award"}

        def const(name: str) -> Any:
            """The base of a query no standing source modifies (None: read it through the general query)."""
            if name in self.modified:
                return None
            default = queries[name].default
            return default if isinstance(default, bool) else int(default or 0)

        self.dice_rolled = const("dice-rolled")
        self.locked_dice = const("locked-dice")
        self.rolls = const("rolls")
        self.reroll_skull = const("reroll-skull")
        self.dice_trade = const("dice-trade")
        self.skulls_ignored = const("skulls-ignored")
        self.marker_advance = const("marker-advance")
        self.stay_turns = const("stay-turns")
        self.mgf_by_sector: dict[str, int] | None = None if "mgf-dice" in self.modified else {
            sid: 0 if "mgf" in game.ignore else sec.mgf for sid, sec in game.sectors.items()}
        self.ignore_mgf_casualties = const("ignore-mgf-casualties")
        self.plain_casualties = "casualties" not in self.modified and const("soldier-value") is not None
        self.stay_is_marker = "stay" not in self.modified
        self.capacity = const("capacity")
        self.ndice = len(game._layout)
        faces = game._faces
        self.faces = tuple(faces)
        self.skull = faces.index("skull") if "skull" in faces else -1
        self.skulls_cancel = "skulls" not in game.ignore and (game.keep_faces is None or "skull" in game.keep_faces)
        self.straight_possible = game.keep_faces is None
        # RWB: the faces some bonus of the table is scored on, as bits; a Final Tally showing one of them in every
        # colour (before Skulls cancel) takes the general upkeep.
        self.rwb_mask = 0
        if "rwb" not in game.ignore:
            for rid in game.rwb_sources:
                face = game.rwb_faces.get(rid)
                if face in faces:
                    self.rwb_mask |= 1 << faces.index(face)
        colours = list(dict.fromkeys(colour for _, colour in game._layout))
        self.colour_of = tuple(colours.index(colour) for _, colour in game._layout)
        self.ncolours = len(colours)
        # Per face: may it be re-rolled (with and without re-rolling Skulls), and what it gives when collected.
        self.rerollable_all = tuple(True for _ in faces)
        self.rerollable_no_skull = tuple(f != "skull" for f in faces)
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
        # DEF as a table per (Sector, chevrons) when no standing source changes it.
        self.defense: dict[str, tuple[int, ...]] | None = None
        if "def" not in self.modified:
            info = queries["def"]
            self.defense = {}
            for sid, sec in game.sectors.items():
                row = [sec.defense[min(max(ch, 1), len(sec.defense)) - 1] for ch in range(4)]
                if info.minimum is not None:
                    row = [max(v, info.minimum) for v in row]
                self.defense[sid] = tuple(row)
        markers = [m.id for m in c.game.marker_faces]
        self.next_marker = {m: self._after_upkeep(m) for m in markers} \
            if self.marker_advance is not None and self.stay_turns is not None else None
        self.def_by_marker = {sid: {m: row[_chevrons(m)] for m in markers} for sid, row in self.defense.items()} \
            if self.defense is not None else None
        self.cause = {sid: f"Combat in {sec.name}" for sid, sec in game.sectors.items()}
        self.black = {sid: sec.black for sid, sec in game.sectors.items()}
        self.bunker = {sid: sec.bunker for sid, sec in game.sectors.items()}
        self.special_damage = {sid: bool((sec.special_damage or game.map.special_damage)
                                         and (sec.special_damage or game.map.special_damage) != "none"
                                         and "special-damage" not in game.ignore)
                               for sid, sec in game.sectors.items()}
        self.Move = Move
        self.stay_move = Move("stay", None, 0, False)
        self.moves = self._compile_moves(game)
        self.tos = {sid: tuple(m[0] for m in cands) for sid, cands in self.moves.items()} \
            if self.moves is not None else {}
        self.has_requirements = "requirements" not in game.ignore
        self.move_heard = bool((self.heard_everywhere | set(self.heard_in)) & set(_MOVE_EVENTS))
        # Per kind of decider: its remembered answers and its dice rules (decider_setup).
        self.deciders: dict[type, tuple[Any, ...]] = {}
        self.all_positions = list(range(self.ndice))
        # What each face gives, packed: Soldiers, Stars << 10, Courage << 20, Tools << 30 (at most 6 dice of 2).
        self.packed = tuple(s | (st << 10) | (co << 20) | (to << 30) for s, st, co, to in self.worth)
        if max(max(w) for w in self.worth) * self.ndice >= 1024:
            self.reason = "a Final Tally worth too much to pack"
        self.lock_patterns: dict[tuple[int, ...], tuple[tuple[bool, ...], tuple[int, ...]]] = {}
        # Use points: whether any card or rule could be used there at all, and in a plain state.
        live_points = game.live_points
        self.use_any = {p: p in live_points for p in USE_POINTS}
        self.use_plain = {p: self.use_any[p] and p in self.points for p in USE_POINTS}
        heard_somewhere = set().union(*self.heard_at.values()) if self.heard_at else set()
        # Whether the game's prologue (the starts chosen, game-start heard) could put something in play.
        self.prologue_acts = "game-start" in heard_somewhere or \
            sum(1 for sec in game.sectors.values() if sec.start is not None) > 1
        # One Unit's combat with no MGF die anywhere, no use, nothing heard, DEF and casualties at their bases.
        self.simple_combat = self.def_by_marker is not None and self.mgf_by_sector is not None \
            and not any(self.mgf_by_sector.values()) and not self.use_plain["before-mgf"] \
            and not self.use_plain["after-mgf"] and self.plain_casualties \
            and not heard_somewhere & {"combat", "casualties"}
        # An upkeep where nothing is cancelled, no RWB bonus is scored and nothing is heard.
        self.trivial_upkeep = not self.skulls_cancel and not self.rwb_mask and "upkeep" not in heard_somewhere \
            and not ("straight" in heard_somewhere and self.straight_possible)
        # One Unit's turn inline: constants for the roll, nothing heard after it, no trade, the moves compiled.
        self.simple = self.dice_rolled is not None and self.dice_rolled >= self.ndice \
            and self.locked_dice is not None and self.rolls is not None and self.reroll_skull is not None \
            and "final-tally" not in heard_somewhere and self.dice_trade is False \
            and not self.use_plain["after-final-tally"] and not self.use_plain["movement"] and self.simple_combat \
            and self.moves is not None and self.next_marker is not None
        # What play() reads, in one tuple (one unpacking per game instead of an attribute read per name).
        self.constants: tuple[Any, ...] = (
            self.faces,  # faces
            self.ndice,  # ndice
            self.all_positions,  # all_positions
            self.lock_patterns,  # lock_patterns
            self.packed,  # packed
            self.tool_table,  # tool_table
            self.next_marker,  # next_marker
            self.def_by_marker,  # def_by_marker
            self.black,  # black
            self.bunker,  # bunker
            self.cause,  # cause
            self.moves,  # fixed
            self.tos,  # tos
            self.Move,  # Move
            self.stay_move,  # stay_move
            self.skull,  # skull
            self.colour_of,  # colour_of
            self.ncolours,  # ncolours
            self.rwb_mask,  # rwb_mask
            self.plain_casualties,  # plain_casualties
            min(self.locked_dice, self.ndice) if self.locked_dice is not None else None,  # c_locks
            self.rolls,  # c_rolls
            self.reroll_skull,  # c_skulls_ok
            self.rerollable_all,  # rerollable_all
            self.rerollable_no_skull,  # rerollable_no_skull
            self.heard_at,  # heard_at
            self.use_any["after-final-tally"],  # aft_any
            self.use_plain["after-final-tally"],  # aft_plain
            self.use_any["movement"],  # mov_any
            self.use_plain["movement"],  # mov_plain
            self.use_any["before-mgf"],  # bmgf_any
            self.use_plain["before-mgf"],  # bmgf_plain
            self.use_any["after-mgf"],  # amgf_any
            self.use_plain["after-mgf"],  # amgf_plain
            self.use_any["purchase"],  # purchase_any
            self.dice_rolled is not None and self.dice_rolled >= self.ndice,  # roll_always
            self.dice_rolled is not None and self.dice_rolled < self.ndice,  # roll_never
            self.dice_trade is False,  # no_trade
            self.purchase_awards_only,  # awards_only
            self.simple_combat,  # simple_combat_plan
            self.simple,  # simple_plan
            self.trivial_upkeep,  # trivial_upkeep
            self.prologue_acts,  # prologue_acts
            self.stay_is_marker,  # stay_is_marker
            self.has_requirements,  # has_requirements
            self.move_heard,  # move_heard
        )

    def _compile_moves(self, game: Game) -> dict[str, list[tuple[str, str, int, bool]]] | None:
        """Phase 4's candidate moves per Sector in a plain state (as Game._compile_moves, with the bases of the
        permissions no standing source changes); None when a standing source changes one of them (the general
        moves then)."""
        enter_only_required = all(h.op == "require" for src in _standing_sources(game) for h in src.compiled.modifiers
                                  if h.query == "enter")
        if any(q in self.modified for q in _MOVE_QUERIES if q != "enter") or not enter_only_required:
            return None
        flags = {q: bool(game.queries[q].default) for q in _MOVE_QUERIES if q != "advance-cost"}
        if flags["battle-cry"] or flags["ignore-requirements"]:
            return None
        mines_on = "landmines" not in game.ignore
        fixed: dict[str, list[tuple[str, str, int, bool]]] = {}
        for here, lines in game.moves.items():
            cands: list[tuple[str, str, int, bool]] = []
            for to, line_kind, line_cost, mines, barrier in lines if flags["enter"] else ():
                if (barrier and not flags["ignore-barriers"]) or (line_kind == "advance" and not flags["advance"]):
                    continue
                target = game.sectors[to]
                kind, cost = line_kind, line_cost
                if target.cost is not None:  # entering a Sector with its own printed cost is an Advance
                    kind, cost = "advance", target.cost
                cands.append((to, kind, cost if kind == "advance" else 0, mines and mines_on))
            fixed[here] = cands
        return fixed

    def decider_setup(self, decider: Decider) -> tuple[Any, ...]:
        """What the fast turn keeps per kind of decider (class attributes and rules: the same for every instance):
        the answers remembered for the kinds it answers from keys alone (pure_kinds), its remembered moves when
        they read only the keys, the Unit's Sector and Courage (move_reads), and its dice rules as data
        (dice_rules), if any."""
        pure: frozenset[str] = getattr(decider, "pure_kinds", frozenset())
        memos: list[dict[Any, Any] | None] = [{} if kind in pure else None
                                              for kind in ("lock", "reroll", "casualty", "cancel")]
        reads = set(getattr(decider, "move_reads", ("?",)))
        moves: dict[Any, Any] | None = {} if reads <= {"sector", "courage"} else None
        dice_rules = getattr(decider, "dice_rules", None)
        rules = dice_rules(self.faces) if dice_rules is not None else None
        return memos[0], memos[1], memos[2], memos[3], moves, rules

    def _after_upkeep(self, marker: str) -> str:
        """Game._advance_marker with the plan's constants."""
        if marker in STAY_FORBIDDEN or not self.marker_advance:
            return marker
        nxt = NEXT_MARKER.get(marker)
        return "must-move" if nxt is None or _chevrons(marker) >= self.stay_turns else nxt

    def points_of(self, tools: int) -> int:
        table = self.tool_table
        return table[tools] if tools < len(table) else table[-1] + (tools - len(table) + 1) * self.tool_step

    def heard(self, event: str, sector: str) -> bool:
        """Could Game.fire(event) run anything for a Unit in this Sector, in a plain state?"""
        return event in self.heard_at[sector]

    @staticmethod
    def _why_not(game: Game) -> str | None:
        if game.side_defs:
            return "another side's player"
        if game.option_rules.automated_units:
            return "automated Units"
        if any(h.window == ("after", "first-roll") for src in _standing_sources(game) for h in src.compiled.uses):
            return "uses after the first roll"
        if game.queries["capacity"].default is not None and "capacity" not in _modified(game) \
                and int(game.queries["capacity"].default) < 1:
            return "Sectors with no room"
        return None


def _standing_sources(game: Game) -> list[EffectSource]:
    """The sources in play whatever happens (as Game._find_live, without the cards)."""
    c = game.content
    sources: list[EffectSource] = list(game.global_sources)
    if "rwb" not in game.ignore:
        sources += list(game.rwb_sources.values())
    if "attributes" not in game.ignore:
        sources += [e for k, e in c.effects.items() if k.startswith(f"{game.map.id}/")]
    return sources


def _modified(game: Game) -> set[str]:
    return {h.query for src in _standing_sources(game) for h in src.compiled.modifiers}


def plan_for(game: Game) -> FastPlan:
    """The game's fast plan (shared by every game of the same plan)."""
    fp: FastPlan = game._fast_plan
    return fp


def why_not(game: Game) -> str | None:
    """Why the fast turn does not play this game (None: it plays it, taking the general turn for the turns that
    are not plain: :func:`plain_reason`)."""
    fp = plan_for(game)
    if fp.reason is not None:
        return fp.reason
    if game.tracing:
        return "the game is traced"
    for u in game.state.units:
        decider = _decider(game, u)
        if getattr(decider, "decide_keys", None) is None or getattr(decider, "reads_tally", True):
            return "the decider may read the Final Tally"
    return None


def plain_reason(game: Game) -> str | None:
    """Why the state is not plain (None: it is): a card in play, a grant standing, and the like. The turns of a
    state that is not plain take the general turn."""
    s = game.state
    if s.sides or s.decks or s.grants or s.in_play:
        return "the state holds other sides, decks, grants or cards in play"
    if any(s.bunker_specialists.values()):
        return "Specialists beside a Bunker"
    for u in s.units:
        if u.side or u.kept_tally is not None or u.specialists or u.vehicle is not None or u.items or u.awards \
                or u.cards:
            return "a Unit holds cards or a kept tally"
    for ss in s.sectors.values():
        if ss.attributes:
            return "a Sector gained attributes"
    return None


def _chevrons(marker: str) -> int:
    return MARKER_CHEVRONS.get(marker, 3 if marker == "must-move" else 1)  # as Unit.chevrons


def _decider(game: Game, unit: Unit) -> Decider:
    decider = game._decider_of.get(unit.id)
    if decider is None:
        decider = game.deciders[(int(unit.id[1:]) - 1) % len(game.deciders)]
    return decider


class _Hand:
    """One Unit's dice this turn while they are integers, and its decider's fast answers."""

    __slots__ = (
        "cancel_memo",
        "cancelled",
        "casualty_memo",
        "decide",
        "dice",
        "fresh",
        "lock_memo",
        "locked",
        "move_memo",
        "on_faces",
        "reroll_memo",
        "rules",
        "uid",
        "unit",
    )

    def __init__(self, fp: FastPlan, game: Game, unit: Unit) -> None:
        self.unit = unit
        self.uid = unit.id
        decider = game._decider_of[unit.id] = _decider(game, unit)
        self.decide = decider.decide_keys  # type: ignore[attr-defined]
        self.on_faces = getattr(decider, "decide_dice", None)
        kind_of = type(decider)
        known = fp.deciders.get(kind_of)
        if known is None:
            known = fp.deciders[kind_of] = fp.decider_setup(decider)
        self.lock_memo, self.reroll_memo, self.casualty_memo, self.cancel_memo, self.move_memo, self.rules = known
        self.dice: list[int] = []
        self.locked: Sequence[bool] = ()
        self.cancelled: list[bool] | None = None
        self.fresh = False  # the dice are integers, not yet Die records in unit.tally


def play(game: Game, max_turns: int) -> bool:
    """Play the game to its end with the fast turn, if it applies (else False, and nothing is changed)."""
    if why_not(game) is not None:
        return False
    fp: FastPlan = game._fast_plan
    s = game.state
    units = s.units
    single = len(units) == 1
    hands = {units[0].id: _Hand(fp, game, units[0])} if single else {u.id: _Hand(fp, game, u) for u in units}
    only = hands[units[0].id] if single else None
    (faces, ndice, all_positions, lock_patterns, packed, tool_table, next_marker, def_by_marker, black, bunker,
     cause, fixed, tos, Move, stay_move, skull, colour_of, ncolours, rwb_mask, plain_casualties, c_locks, c_rolls,
     c_skulls_ok, rerollable_all, rerollable_no_skull, heard_at, aft_any, aft_plain, mov_any, mov_plain, bmgf_any,
     bmgf_plain, amgf_any, amgf_plain, purchase_any, roll_always, roll_never, no_trade, awards_only,
     simple_combat_plan, simple_plan, trivial_upkeep, prologue_acts, stay_is_marker, has_requirements,
     move_heard) = fp.constants
    layout = game._layout
    positions = range(ndice)
    random = game.rng.random
    choices = s.choices
    sectors = s.sectors
    deaths = s.deaths
    state_ok = [plain_reason(game) is None, True]
    simple_combat = single and simple_combat_plan

    def materialise(h: _Hand) -> None:
        if h.fresh:
            h.fresh = False
            cancelled = h.cancelled
            h.unit.tally = [Die(faces[f], colour, idx, locked=lk, cancelled=cancelled is not None and cancelled[i])
                            for i, ((idx, colour), f, lk) in enumerate(zip(layout, h.dice, h.locked, strict=True))]

    def sync() -> None:
        """The Final Tallies as Die records, before a general step (which may read them)."""
        for h in hands.values():
            if h.fresh:
                materialise(h)

    def general(fn: Any, *args: Any) -> Any:
        """A general step: the tallies made first; whether the state is still plain worked out after."""
        sync()
        out = fn(*args)
        if s.outcome is None:  # (a game over plays nothing more)
            state_ok[_OK] = plain_reason(game) is None
            state_ok[_BUY] = buying()
        return out

    def buying() -> bool:
        """Could Phase 3 ask or do anything for one Unit (something to recruit or find, an Award to buy)? Only a
        general step changes it (or Courage, for the Award purchase: checked when the Award deck is not empty)."""
        return bool(s.pool or s.placed or s.hands.get(units[0].id) or (purchase_any and (not awards_only
                                                                                         or s.award_deck)))

    def over() -> bool:
        return s.outcome is not None

    made: list[Any] = []

    def steps() -> Any:
        """The steps of the turn beside the inline one (made when first needed: most games of a plain plan with
        one Unit need none)."""
        if not made:
            made.append(_make_steps())
        return made[0]

    def _make_steps() -> Any:
        def keys_of(dice: list[int], which: Sequence[int]) -> tuple[tuple[int, str, str], ...]:
            return tuple([(layout[i][0], faces[dice[i]], layout[i][1]) for i in which])

        def ask(h: _Hand, kind: str, prompt: str, keys: tuple[Any, ...], lo: int, hi: int, labeler: Any
                ) -> tuple[int, ...]:
            """The general way (as Game.pick), when the fast answer is not legal: the Final Tallies made, then a
            Decision asked (an error for a fixed policy; another decider's answer otherwise)."""
            sync()
            answer = game.ask(h.unit, Decision(kind, h.uid, prompt, (), keys, lo, hi, labeler))
            choices.pop()  # game.ask recorded it; recorded again by the caller, once
            return answer

        asked: list[Any] = [None]

        def reroll_step(h: _Hand, dice: list[int], locked: Sequence[bool], rerollable: Sequence[bool]) -> Any:
            """A re-roll's answer and the dice it re-rolls (None: no die may be re-rolled)."""
            masked = tuple([dice[i] if not locked[i] and rerollable[dice[i]] else -1 for i in positions])
            memo = h.reroll_memo
            hit = memo.get(masked) if memo is not None else None
            if hit is None:
                free = [i for i in positions if masked[i] >= 0]
                if not free:
                    return None
                answer = None
                if h.on_faces is not None:
                    answer = h.on_faces("reroll", dice, free, faces, 0)
                    answer = legal_answer(len(free), 0, len(free), answer) if answer is not None else None
                if answer is None:
                    keys = keys_of(dice, free)
                    answer = legal_answer(len(free), 0, len(free), h.decide(game, h.uid, "reroll", keys, 0))
                if answer is None:
                    answer = ask(h, "reroll", "re-roll which dice?", keys_of(dice, free), 0, len(free),
                                 game._die_label)
                    asked[0] = (answer, tuple([free[i] for i in answer]))
                    return _ASKED  # not the decider's own answer: not remembered
                hit = (answer, tuple([free[i] for i in answer]))
                if memo is not None and len(memo) < _MEMO_LIMIT:
                    memo[masked] = hit
            return hit

        def roll(h: _Hand) -> None:
            """Phase 1 for one Unit on integers: roll, Lock, re-roll (as Game.roll_for)."""
            u = h.unit
            locks = c_locks if c_locks is not None else min(game.value("locked-dice", u), ndice)
            rolls = c_rolls if c_rolls is not None else game.value("rolls", u)
            skulls_ok = c_skulls_ok if c_skulls_ok is not None else game.flag("reroll-skull", u)
            rerollable = rerollable_all if skulls_ok else rerollable_no_skull
            dice = [int(random() * 6) for _ in positions]
            locked: Sequence[bool] = (False,) * ndice
            rules = h.rules
            if rules is not None:
                rank, wish = rules
                unlocked: Sequence[int] = positions
                if locks:
                    best = sorted([(rank[f] << 6) | i for i, f in enumerate(dice)])
                    picks = [b & 63 for b in best[:locks]]
                    picks.sort()
                    choices.append(picks)
                    pattern = lock_patterns.get(tuple(picks)) or _pattern(lock_patterns, tuple(picks), ndice)
                    locked, unlocked = pattern
                for _ in range(1, rolls):
                    free = unlocked if skulls_ok else [i for i in unlocked if rerollable[dice[i]]]
                    if not free:
                        break  # nothing left to re-roll: no question is asked
                    picks = [j for j, i in enumerate(free) if wish[dice[i]]]
                    choices.append(picks)
                    for j in picks:
                        dice[free[j]] = int(random() * 6)
            else:
                entry: list[Any] | None = None
                if locks:
                    key: Any = (locks, skulls_ok, tuple(dice))
                    memo = h.lock_memo
                    entry = memo.get(key) if memo is not None else None
                    if entry is None:
                        found = None
                        if h.on_faces is not None:
                            found = h.on_faces("lock", dice, all_positions, faces, locks)
                            found = legal_answer(ndice, locks, locks, found) if found is not None else None
                        if found is None:
                            found = legal_answer(ndice, locks, locks,
                                                 h.decide(game, h.uid, "lock", keys_of(dice, all_positions), locks))
                        asked_lock = found is None
                        if found is None:
                            h.dice, h.locked, h.cancelled, h.fresh = dice, locked, None, True
                            found = ask(h, "lock", "Lock dice (Locked dice are never re-rolled)",
                                        keys_of(dice, all_positions), locks, locks, game._die_label)
                        # The Lock, the first re-roll once known, and which dice are Locked.
                        entry = [found, _UNKNOWN, tuple(i in found for i in positions)]
                        if memo is not None and not asked_lock and len(memo) < _MEMO_LIMIT:
                            memo[key] = entry
                    choices.append(list(entry[0]))
                    locked = entry[2]
                for r in range(1, rolls):
                    if r == 1 and entry is not None and entry[1] is not _UNKNOWN:
                        step = entry[1]
                    else:
                        h.dice, h.locked, h.cancelled, h.fresh = dice, locked, None, True
                        step = reroll_step(h, dice, locked, rerollable)
                        if r == 1 and entry is not None and h.reroll_memo is not None and step is not _ASKED:
                            entry[1] = step
                    if step is None:
                        break  # nothing left to re-roll: no question is asked
                    if step is _ASKED:
                        step = asked[0]
                    choices.append(list(step[0]))
                    for i in step[1]:
                        dice[i] = int(random() * 6)
            h.dice, h.locked, h.cancelled, h.fresh = dice, locked, None, True

        def upkeep(h: _Hand) -> bool:
            """Phase 2 for one Unit on integers: Skulls cancel, then collect, then the Unit marker. False when this
            turn's upkeep must be the general one (an RWB bonus or a straight could score, or the upkeep is heard)."""
            u = h.unit
            dice = h.dice
            heard = heard_at[u.sector]
            if "upkeep" in heard:
                return False
            if rwb_mask:
                masks = [0] * ncolours
                for i, f in enumerate(dice):
                    masks[colour_of[i]] |= 1 << f
                common = rwb_mask
                for m in masks:
                    common &= m
                if common:
                    return False
            if fp.straight_possible and u.awards_drawn == 0 and "straight" in heard \
                    and len(set(dice)) == len(faces):
                return False
            cancelled = None
            if fp.skulls_cancel and skull in dice:
                ignored = fp.skulls_ignored if fp.skulls_ignored is not None else game.value("skulls-ignored", u)
                n = dice.count(skull) - ignored
                if n > 0:
                    cancelled = [False] * ndice
                    h.cancelled = cancelled
                    memo = h.cancel_memo
                    for _ in range(n):
                        targets = [i for i in positions if dice[i] != skull and not cancelled[i]]
                        if not targets:
                            break
                        if len(targets) == 1:
                            cancelled[targets[0]] = True
                            continue
                        key = tuple([dice[i] if i in targets else -1 for i in positions]) if memo is not None else None
                        pick = memo.get(key) if memo is not None else None
                        if pick is None:
                            keys = keys_of(dice, targets)
                            answer = legal_answer(len(keys), 1, 1, h.decide(game, h.uid, "cancel", keys, 1))
                            if answer is None:
                                answer = ask(h, "cancel", f"{u.name}: a Skull cancels which result?", keys, 1, 1,
                                             game._die_label)
                            elif memo is not None and len(memo) < _MEMO_LIMIT:
                                memo[key] = answer
                            pick = answer
                        choices.append(list(pick))
                        cancelled[targets[pick[0]]] = True
            if cancelled is None:
                total = sum([packed[f] for f in dice])
            else:
                total = sum([packed[f] for f, c in zip(dice, cancelled, strict=True) if not c])
            u.soldiers += total & 1023
            u.stars += (total >> 10) & 1023
            u.courage += (total >> 20) & 1023
            tools = total >> 30
            u.item_points += tool_table[tools] if tools < len(tool_table) else fp.points_of(tools)
            if next_marker is not None:
                u.marker = next_marker.get(u.marker) or fp._after_upkeep(u.marker)
            else:
                game._advance_marker(u)
            return True

        cheapest: dict[Any, tuple[int, int]] = {}

        def might_buy(u: Unit) -> bool:
            """Could Game.purchase offer anything (Specialists and Items at their printed costs, no standing source
            changing costs or permissions)? If not, it asks nothing and changes nothing."""
            hand = s.hands.get(u.id)
            if not s.pool and not hand and not s.placed:
                return False
            if s.placed or fp.modified & {"specialist-cost", "item-cost", "recruit", "find", "recruits-per-turn",
                                          "finds-per-turn"}:
                return True
            key = (len(s.pool), u.id, len(hand or ()))
            costs = cheapest.get(key)
            if costs is None:
                cards, kinds = game.content.cards, game.content.card_kinds
                specs = [cards[c].cost or 0 for c in list(hand or ()) + s.pool if kinds[c] == "specialist"]
                items = [cards[c].cost or 0 for c in s.pool if kinds[c] != "specialist"]
                costs = cheapest[key] = (min(specs, default=1 << 30), min(items, default=1 << 30))
            return u.stars >= costs[0] or u.item_points >= costs[1]

        def move_step(h: _Hand, turn: int) -> bool:
            """Phase 4 for one Unit with the compiled moves (as Game.move_phase_for); False if the game is over."""
            u = h.unit
            here = u.sector
            marker = u.marker
            may_stay = marker not in STAY_FORBIDDEN if fp.stay_is_marker else game._may_stay(u)
            have = u.courage
            memo = h.move_memo
            mkey = None
            hit = None
            crowd: dict[str, int] | None = None
            if not single:
                crowd = {}
                for o in units:
                    if o.status == "active":
                        crowd[o.sector] = crowd.get(o.sector, 0) + 1
            if u.moved_turn != turn and memo is not None:
                visited = u.visited
                if crowd is None:
                    mkey = (here, may_stay, have, *map(visited.__contains__, tos[here]))
                else:
                    mkey = (here, may_stay, have, *map(visited.__contains__, tos[here]),
                            *[crowd.get(t, 0) for t in tos[here]])
                hit = memo.get(mkey)
            if hit is None:
                if u.moved_turn == turn:
                    moves = [stay_move]
                else:
                    moves = [stay_move] if may_stay else []
                    visited = u.visited
                    for to, kind, cost, mines in fixed[here]:
                        if to in visited:
                            continue
                        if crowd is not None and crowd.get(to, 0) and crowd[to] >= (
                                fp.capacity if fp.capacity is not None else game.value("capacity", u, sector=to)):
                            continue
                        if fp.has_requirements:
                            requirements = game._requirements(to)
                            if requirements and (any(r[:1] == ("battle-cry",) for r in requirements)
                                                 or not game._meets(u, requirements)):
                                continue
                        if cost <= have:
                            moves.append(Move(kind, to, cost, mines))
                if not moves:
                    hit = (None, None)
                elif len(moves) == 1:
                    hit = (moves[0], None)
                else:
                    mkeys = tuple(moves)
                    answer = legal_answer(len(mkeys), 1, 1, h.decide(game, h.uid, "move", mkeys, 1))
                    if answer is None:
                        answer = ask(h, "move", "move?", mkeys, 1, 1, game.describe_move)
                        mkey = None  # not the decider's own answer: not remembered
                    hit = (moves[answer[0]], answer)
                if mkey is not None and memo is not None and len(memo) < _MEMO_LIMIT:
                    memo[mkey] = hit
            move, answer = hit
            if move is None:
                if not may_stay:
                    general(game.wipe_out, u, "must move and cannot")
                return s.outcome is None
            if answer is not None:
                choices.append(list(answer))
            if move.kind == "stay":
                return True
            if fp.move_heard:
                general(game.do_move, u, move)
                return s.outcome is None
            dest = move.to
            assert dest is not None
            u.courage = have - move.cost
            u.sector = dest
            u.visited.append(dest)
            u.moved_turn = u.entered_turn = turn
            u.marker = "cant-stay" if black[dest] else "chevron-1"
            if move.landmines:
                general(game.landmines, u)
                if s.outcome is not None:
                    return False
            if u.status == "active":
                sectors[dest].entered = True
            return True

        def suffer(h: _Hand, amount: int, here: str, turn: int, lost: int = 0) -> None:
            """Game.suffer for a Unit holding no card, nothing changing casualties, nobody hearing them (``lost``: the
            Soldiers it has already lost of these casualties)."""
            u = h.unit
            remaining = amount
            memo = h.casualty_memo
            while remaining > 0 and u.soldiers > 0:
                n = min(remaining, u.soldiers)
                pick = 0
                if n > 1:
                    hit = memo.get(n) if memo is not None else None
                    if hit is None:
                        ckeys = (("soldiers", n), ("soldiers", 1))
                        hit = legal_answer(2, 1, 1, h.decide(game, h.uid, "casualty", ckeys, 1))
                        if hit is None:
                            hit = ask(h, "casualty", f"{u.name} must lose {remaining} more ({cause[here]})", ckeys,
                                      1, 1, functools.partial(game._casualty_label, u))
                        elif memo is not None:
                            memo[n] = hit
                    choices.append(list(hit))
                    pick = hit[0]
                k = n if pick == 0 else 1
                u.soldiers -= k
                remaining -= k
                lost += k
            deaths.append({"unit": h.uid, "sector": here, "lost": lost, "turn": turn})
            if u.soldiers <= 0:
                general(game.wipe_out, u, f"wiped out ({cause[here]})")

        def combat_phase(turn: int) -> None:
            """Phase 5 (as Game.phase_combat): MGF per Sector, then each Unit's DEF and MGF."""
            if simple_combat and state_ok[_OK]:
                # One Unit, no MGF die anywhere, no use, nothing heard, DEF and casualties at their bases.
                unit = units[0]
                if unit.status != "active":
                    return
                here = unit.sector
                state_here = sectors[here]
                state_here.mgf_roll = []
                state_here.mgf_turn = turn
                defense = def_by_marker[here].get(unit.marker)
                if defense is None:
                    defense = fp.defense[here][unit.chevrons()]  # type: ignore[index]
                if defense > 0:
                    suffer(only, defense, here, turn)  # type: ignore[arg-type]
                if bunker[here] and unit.entered_turn == turn and unit.status == "active":
                    general(game.resolve_bunkers)
                return
            by_sector: dict[str, list[Unit]] = {}
            if single:
                unit = units[0]
                if unit.status == "active":
                    by_sector[unit.sector] = [unit]
            else:
                for unit in game.order():
                    by_sector.setdefault(unit.sector, []).append(unit)
            if bmgf_any and (not state_ok[_OK] or bmgf_plain):
                for us in by_sector.values():
                    for unit in us:
                        general(game.use_point, unit, "before-mgf")
            for sector, us in by_sector.items():
                if s.outcome is not None:
                    return
                if state_ok[_OK] and fp.mgf_by_sector is not None:
                    n = fp.mgf_by_sector[sector]
                else:
                    n = game.value("mgf-dice", us[0], sector=sector)
                rolls = [int(random() * 6) + 1 for _ in range(n)] if n else []
                state_here = sectors[sector]
                state_here.mgf_roll = rolls
                state_here.mgf_turn = turn
                for unit in us:
                    if amgf_any and (not state_ok[_OK] or amgf_plain):
                        general(game.use_point, unit, "after-mgf")
                    if not single:
                        general(game.trade, unit)
                rolls = state_here.mgf_roll or []
                for unit in us:
                    if unit.status != "active":
                        continue
                    if not state_ok[_OK] or "combat" in heard_at[sector]:
                        general(game.fire, "combat", unit)
                        if unit.status != "active":
                            continue
                    if not state_ok[_OK] or s.shortfall or 6 in rolls:
                        general(game.combat, unit, rolls)
                        continue
                    mgf = sum(rolls)
                    if mgf and (fp.ignore_mgf_casualties is None or fp.ignore_mgf_casualties):
                        general(game.combat, unit, rolls)
                        continue
                    here = unit.sector
                    if def_by_marker is not None:
                        defense = def_by_marker[here].get(unit.marker)
                        if defense is None:
                            defense = fp.defense[here][unit.chevrons()]  # type: ignore[index]
                    else:
                        defense = game.value("def", unit)
                    amount = defense + mgf
                    if amount <= 0:
                        continue
                    if not plain_casualties or "casualties" in heard_at[here]:
                        general(game.suffer, unit, amount, cause[here])
                    else:
                        suffer(hands[unit.id], amount, here, turn)
            entered = False
            for unit in units:
                if unit.status == "active" and bunker[unit.sector] and unit.entered_turn == turn:
                    entered = True
            if entered:
                general(game.resolve_bunkers)

        def rest_general(phase: int) -> None:
            """The rest of the turn through the general phases, from this one (the state is no longer plain)."""
            sync()
            for name in _PHASES[phase:]:
                if s.outcome is not None:
                    return
                game.run_phase(name)
            game.end_of_turn()

        def fast_turn(turn: int) -> None:
            """One turn from Phase 1, the state plain at its start."""
            # Phase 1: roll, Lock, re-roll; the Final Tally heard; the Lieutenant's trade and uses after it.
            s.phase = "roll"
            acting = [only] if single and only is not None and only.unit.status == "active" else \
                ([] if single else [hands[u.id] for u in game.order()])
            for h in acting:
                if state_ok[_OK] and (roll_always or (not roll_never and game.value("dice-rolled", h.unit) >= ndice)):
                    roll(h)
                else:
                    general(game.roll_for, h.unit)
            for h in acting:
                if not state_ok[_OK] or "final-tally" in heard_at[h.unit.sector]:
                    general(game.fire, "final-tally", h.unit)
            for h in acting:
                if not state_ok[_OK] or not no_trade:
                    general(game.lieutenant_trade, h.unit)
                if aft_any and (not state_ok[_OK] or aft_plain):
                    general(game.use_point, h.unit, "after-final-tally")
            if s.grants:
                game._expire("phase")
            if not state_ok[_OK]:
                return rest_general(1)
            # Phase 2: upkeep: Skulls cancel, collect, the Unit marker (the general upkeep when more could happen).
            s.phase = "upkeep"
            for h in acting:
                if not state_ok[_OK] or not h.fresh or not upkeep(h):
                    general(game.upkeep_for, h.unit)
            if s.grants:
                game._expire("phase")
            if not state_ok[_OK]:
                return rest_general(2)
            # Phase 3: trading between Units, recruiting and finding, the Award purchase.
            s.phase = "purchase"
            if not single or s.pool or s.placed or s.hands.get(units[0].id) or \
                    (purchase_any and (not awards_only or s.award_deck)):
                for h in acting:
                    u = h.unit
                    if u.status != "active":
                        continue
                    if not single:
                        general(game.trade, u)
                    if not state_ok[_OK] or might_buy(u):
                        general(game.purchase, u)
                    if purchase_any and (not state_ok[_OK] or not fp.purchase_awards_only or game._can_buy_award(u)):
                        general(game.use_point, u, "purchase")
                if s.grants:
                    game._expire("phase")
            if not state_ok[_OK]:
                return rest_general(3)
            # Phase 4: the compiled moves.
            if s.outcome is not None:
                return None
            s.phase = "movement"
            for unit in ([only.unit] if single and only is not None else game.order()):
                if unit.status != "active" or s.outcome is not None:
                    continue
                if mov_any and (not state_ok[_OK] or mov_plain):
                    general(game.use_point, unit, "movement")
                if not state_ok[_OK] or fixed is None:
                    general(game.move_phase_for, unit)
                else:
                    move_step(hands[unit.id], turn)
            if s.grants:
                game._expire("phase")
            if over():
                return None
            if not state_ok[_OK]:
                return rest_general(4)
            # Phase 5: combat.
            s.phase = "combat"
            combat_phase(turn)
            if s.grants:
                game._expire("phase")
            # End of the turn (as Game.end_of_turn).
            if s.grants or not single:
                sync()
                game.end_of_turn()
                state_ok[_OK] = plain_reason(game) is None
                return None
            u = units[0]
            if u.counters:
                u.counters = {k: v for k, v in u.counters.items() if "@t" not in k or k.endswith("@g")}
            if u.status != "active":
                game.end_of_turn()
            return None

        return types.SimpleNamespace(**{k: v for k, v in locals().items() if callable(v)})

    # One Unit and a plain plan for every step of the turn but the rare ones: the turn inline (no call per phase).
    h0 = hands[units[0].id]
    state_ok[_BUY] = buying()
    u0 = h0.unit
    simple = single and simple_plan and h0.rules is not None
    rank, wish = h0.rules if h0.rules is not None else ((), ())
    casualty_memo, move_memo = h0.casualty_memo, h0.move_memo

    no_locks = (False,) * ndice
    try:
        while s.outcome is None:
            turn = s.turn
            if turn >= max_turns:
                game.end("lost", f"no result after {max_turns} turns")
                break
            if not state_ok[_OK]:
                state_ok[_OK] = plain_reason(game) is None
            if not state_ok[_OK]:
                sync()
                game.run_turn()
                state_ok[_OK] = plain_reason(game) is None
                continue
            if turn == 0:
                game.choose_starts()
                for u in game.order():
                    game.fire("game-start", u)
                if prologue_acts:
                    state_ok[_OK] = plain_reason(game) is None
            turn = s.turn = turn + 1
            s.shortfall = 0
            if single:
                u0.recruited = u0.found = u0.awards_drawn = 0
            else:
                for u in units:
                    u.recruited = u.found = u.awards_drawn = 0
            if s.decks:
                steps().rest_general(0)  # not reached in a plain state: decks are never plain
                continue
            if not (simple and state_ok[_OK] and u0.status == "active"):
                steps().fast_turn(turn)
                continue
            # Phase 1 with the decider's rules as data: Lock the dice of least (rank, index); re-roll the wished.
            s.phase = "roll"
            dice = [int(random() * 6) for _ in positions]
            locked: Sequence[bool] = no_locks
            unlocked: Sequence[int] = positions
            if c_locks:
                best = sorted([(rank[f] << 6) | i for i, f in enumerate(dice)])
                picks = [b & 63 for b in best[:c_locks]]
                picks.sort()
                choices.append(picks)
                locked, unlocked = lock_patterns.get(tuple(picks)) or _pattern(lock_patterns, tuple(picks), ndice)
            for _ in range(1, c_rolls):
                free = unlocked if c_skulls_ok else [i for i in unlocked if rerollable_no_skull[dice[i]]]
                if not free:
                    break  # nothing left to re-roll: no question is asked
                picks = [j for j, i in enumerate(free) if wish[dice[i]]]
                choices.append(picks)
                for j in picks:
                    dice[free[j]] = int(random() * 6)
            h0.dice, h0.locked, h0.cancelled, h0.fresh = dice, locked, None, True
            # Phase 2: collect (nothing cancelled, nothing else heard), then the Unit marker.
            s.phase = "upkeep"
            if trivial_upkeep:
                total = sum([packed[f] for f in dice])
                u0.soldiers += total & 1023
                u0.stars += (total >> 10) & 1023
                u0.courage += (total >> 20) & 1023
                tools = total >> 30
                u0.item_points += tool_table[tools] if tools < len(tool_table) else fp.points_of(tools)
                u0.marker = next_marker.get(u0.marker) or fp._after_upkeep(u0.marker)
            elif not steps().upkeep(h0):
                general(game.upkeep_for, u0)
                if s.grants:
                    game._expire("phase")
                if not state_ok[_OK]:
                    steps().rest_general(2)
                    continue
            # Phase 3: recruiting, finding, the Award purchase, when there is something to buy.
            s.phase = "purchase"
            if state_ok[_BUY]:
                if steps().might_buy(u0):
                    general(game.purchase, u0)
                if purchase_any and (not state_ok[_OK] or not awards_only or game._can_buy_award(u0)):
                    general(game.use_point, u0, "purchase")
                if s.grants:
                    game._expire("phase")
                if not state_ok[_OK]:
                    steps().rest_general(3)
                    continue
            # Phase 4: the compiled moves (as move_step, for one Unit).
            s.phase = "movement"
            here = u0.sector
            may_stay = u0.marker not in STAY_FORBIDDEN if stay_is_marker else game._may_stay(u0)
            have = u0.courage
            hit3 = None
            if u0.moved_turn != turn and move_memo is not None and not has_requirements:
                hit3 = move_memo.get((here, may_stay, have, *map(u0.visited.__contains__, tos[here])))
            if hit3 is None:
                if not steps().move_step(h0, turn):
                    continue
            else:
                move, answer = hit3
                if move is None:
                    if not may_stay:
                        general(game.wipe_out, u0, "must move and cannot")
                        if over():
                            continue
                else:
                    if answer is not None:
                        choices.append(list(answer))
                    if move.kind != "stay":
                        if move_heard:
                            general(game.do_move, u0, move)
                            if over():
                                continue
                        else:
                            dest = move.to
                            u0.courage = have - move.cost
                            u0.sector = dest
                            u0.visited.append(dest)
                            u0.moved_turn = u0.entered_turn = turn
                            u0.marker = "cant-stay" if black[dest] else "chevron-1"
                            if move.landmines:
                                general(game.landmines, u0)
                                if over():
                                    continue
                            if u0.status == "active":
                                sectors[dest].entered = True
            if s.grants:
                game._expire("phase")
            if not state_ok[_OK]:
                steps().rest_general(4)
                continue
            # Phase 5: combat (no MGF die, DEF from the table); the end of the turn.
            s.phase = "combat"
            if u0.status == "active":
                here = u0.sector
                state_here = sectors[here]
                state_here.mgf_roll = []
                state_here.mgf_turn = turn
                defense = def_by_marker[here].get(u0.marker)
                if defense is None:
                    defense = fp.defense[here][u0.chevrons()]  # type: ignore[index]
                if defense > 0:
                    remaining = defense
                    lost = 0
                    while remaining > 0 and u0.soldiers > 0:
                        n = min(remaining, u0.soldiers)
                        pick = 0
                        if n > 1:
                            hit = casualty_memo.get(n) if casualty_memo is not None else None
                            if hit is None:
                                steps().suffer(h0, remaining, here, turn, lost)  # asked: the rest the general way
                                break
                            choices.append(list(hit))
                            pick = hit[0]
                        k = n if pick == 0 else 1
                        u0.soldiers -= k
                        remaining -= k
                        lost += k
                    else:
                        deaths.append({"unit": u0.id, "sector": here, "lost": lost, "turn": turn})
                        if u0.soldiers <= 0:
                            general(game.wipe_out, u0, f"wiped out ({cause[here]})")
                if bunker[here] and u0.entered_turn == turn and u0.status == "active":
                    general(game.resolve_bunkers)
            if s.grants or not state_ok[_OK]:
                if s.grants:
                    game._expire("phase")
                sync()
                game.end_of_turn()
                state_ok[_OK] = plain_reason(game) is None
                continue
            if u0.counters:
                u0.counters = {k: v for k, v in u0.counters.items() if "@t" not in k or k.endswith("@g")}
            if u0.status != "active":
                game.end_of_turn()
    finally:
        sync()
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
