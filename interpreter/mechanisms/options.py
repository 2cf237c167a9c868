"""Optional rules as data: the general mechanisms that options' settings switch on.

An optional rule (rules/options/ID.yaml) is a DSL ``effect`` (its hooks join the game rules' tier,
like any rule) and ``settings`` (dsl/settings.py lists every key). This module turns the settings of
the options switched on into behaviour, and nothing here, or in the engine, knows any option by its id:

- **option set**: the options asked for, plus those they ``require``, with their settings merged; two
  options that set one key to different values cannot be played together (:meth:`OptionRules.build`);
- **set-up**: the most players, starting resources (printed or not, set to a number), and a table of
  results for rolling the Unit marker N times (:func:`start_resources`, :func:`set_up`);
- **availability**: each Unit's hand of Regular Specialists, the Pool's Unique Specialists and
  Special Items: the map's lists, all of them, or drawn at random (:func:`set_up`, :func:`reachable`);
- **recipients**: who "another Unit" is, for all effects or for one kind of source (:meth:`another_unit`);
- **dice trading with a pool**: a Unit that may trade dice and has nobody to trade with trades with its
  own Trading Pool (:func:`pool_trade`);
- **scoring**: a table of terms and points, counted at the end of every game (:func:`score`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from ddaydice.dsl.diagnostics import RuleError
from ddaydice.dsl.loader import Content
from ddaydice.dsl.schema import Start
from ddaydice.interpreter.core.api import GameAPI
from ddaydice.interpreter.core.option_rules import MAP, OptionRules
from ddaydice.interpreter.core.state import Die, GameState, Unit


# ==================================================================== set-up
def start_resources(rules: OptionRules, start: Start) -> dict[str, int]:
    """A Unit's resources at a starting Sector: the printed ones (unless ignored), then the options' numbers.
    Only this part changes when a Unit chooses another start (engine: _place_at_start)."""
    out = {}
    for attr in ("soldiers", "stars", "courage", "item_points"):
        out[attr] = int(getattr(start, attr, 0)) if rules.printed_start else 0
    out.update(rules.start)
    return out


def printed_part(rules: OptionRules, start: Start) -> dict[str, int]:
    """The part of the starting resources that comes from the printed start (what a change of start swaps)."""
    fixed = rules.start
    return {attr: 0 if (not rules.printed_start or attr in fixed) else int(getattr(start, attr, 0))
            for attr in ("soldiers", "stars", "courage", "item_points")}


def set_up(game: GameAPI, state: GameState) -> None:
    """The options' set-up, after the engine's: marker rolls, then the random or complete card lists."""
    rules = game.option_rules
    if rules.marker_rolls:
        faces = [f.id for f in game.content.game.marker_faces]
        table = rules.marker_table
        for unit in state.units:
            for _ in range(rules.marker_rolls):
                face = faces[int(game.rng.random() * len(faces))]
                n, res = table.get(face, (0, ""))
                if n:
                    attr = res.replace("-", "_")
                    setattr(unit, attr, getattr(unit, attr) + n)
                game.log("set-up", f"{unit.name} rolls its Unit marker: {face}" + (f" (+{n} {res})" if n else ""),
                         unit, face=face)
    if rules.regular != MAP or rules.unique != MAP or rules.special_items != MAP:
        _availability(game, state, rules)


def _cards(game: GameAPI, kind: str, grade: str) -> list[str]:
    c = game.content
    placed = {p.card for p in game.map.placed}
    return [cid for cid, card in c.cards.items() if c.card_kinds[cid] == kind and card.grade == grade
            and cid not in placed and not game._unavailable(cid)]


def _availability(game: GameAPI, state: GameState, rules: OptionRules) -> None:
    c = game.content
    rng = game.rng
    players = len(state.units)
    if rules.regular != MAP:
        regulars = _cards(game, "specialist", "regular")
        for unit in state.units:
            if rules.regular[0] == "all":
                hand = list(regulars)
            else:
                hand = []
                for cost, n in rules.regular[1]:
                    pile = [s for s in regulars if c.cards[s].cost == cost]
                    hand += rng.sample(pile, min(n, len(pile)))
            state.hands[unit.id] = [s for s in hand if s not in unit.specialists]
    for setting, kind, grade in ((rules.unique, "specialist", "unique"), (rules.special_items, "item", "special")):
        if setting == MAP:
            continue
        every = _cards(game, kind, grade)
        if setting[0] == "per-player":
            pile = list(every)
            rng.shuffle(pile)
            chosen = pile[: setting[1] * players]
        else:
            chosen = every
        keep = [p for p in state.pool if not (c.card_kinds[p] == kind and c.cards[p].grade == grade)]
        state.pool = keep + chosen
    game.log("set-up", _lists_text(state), None, lists=True)


def _lists_text(state: GameState) -> str:
    """The options' lists as the set-up's line of the trace tells them: each Unit's hand, then the Pool."""
    return "options' lists: hands " + "; ".join(
        f"{u}: {', '.join(h)}" for u, h in state.hands.items()) + "; Pool: " + ", ".join(state.pool)


def retell_lists(state: GameState) -> None:
    """The set-up's line of the options' lists told again once the Units hold cards set for them (a scenario's, out
    of the hands and the Pool), so that it shows what the game starts with: no card a Unit holds."""
    for e in state.log:
        if e.kind == "set-up" and e.data.get("lists"):
            e.detail = _lists_text(state)


def reachable(rules: OptionRules, content: Content) -> set[str]:
    """Cards an option's lists may bring into play (every card of a list that is drawn at random)."""
    out: set[str] = set()
    for setting, kind, grade in ((rules.regular, "specialist", "regular"), (rules.unique, "specialist", "unique"),
                                 (rules.special_items, "item", "special")):
        if setting != MAP:
            out |= {cid for cid, card in content.cards.items() if content.card_kinds[cid] == kind
                    and card.grade == grade}
    return out


# ========================================================= dice trading pool
def pool_trade(game: GameAPI, unit: Unit) -> None:
    """Trade 1 die of the Final Tally with 1 of the Unit's Trading Pool (once per turn, each pool die once).

    The pool is rolled once, the first time the Unit may trade dice with nobody else: as many dice as the
    option says, the colours in turn (2 of each for 6), never re-rolled. The die taken keeps its colour and
    result and counts for RWBs; the die given leaves the Final Tally; the pool die is discarded once traded.
    """
    size = game.option_rules.trading_pool
    if unit.trading_pool is None:
        colours = list(game.content.dice.colours)
        faces = [f.id for f in game.content.dice.faces]
        per = max(1, size // len(colours)) if size >= len(colours) else 1
        pool = []
        for i in range(size):
            colour = colours[(i // per) % len(colours)]
            pool.append(Die(faces[int(game.rng.random() * len(faces))], colour, -1))
        unit.trading_pool = pool
        game.log("trading-pool", f"{unit.name} rolls its Trading Pool: " + ", ".join(
            f"{d.colour} {d.face}" for d in pool), unit)
    pool = unit.trading_pool
    mine = [d for d in unit.tally if d.real]
    if not pool or not mine:
        return
    keys: list[Any] = [None, *range(len(pool))]
    labels = ["no trade"] + [f"take the {d.colour} {d.face} from the Trading Pool" for d in pool]
    pick = game.ask_one(unit, "dice-trade", f"{unit.name}: trade 1 die with the Trading Pool?", labels, keys)
    if pick == 0:
        return
    taken = pool[pick - 1]
    give = game.ask_one(unit, "dice-trade", f"{unit.name}: give which die for the {taken.colour} {taken.face}?",
                        [f"{d.colour} {d.face}" for d in mine], [(d.index, d.face, d.colour) for d in mine])
    given = mine[give]
    unit.tally[unit.tally.index(given)] = Die(taken.face, taken.colour, given.index)
    pool.remove(taken)
    game.flag("dice-trade", unit, use=True)  # the trade uses the permission (a limit on it counts it)
    unit.counters[f"dicetrade@{game.state.turn}"] = 1
    game.log("dice-trade", f"{unit.name} gives {given.colour} {given.face} for the Trading Pool's {taken.colour} "
             f"{taken.face}", unit)


# =================================================================== scoring
class Score:
    """The score of a finished game: each Unit's total, its lines (term, count, points), and the group's. (A plain
    class, native when compiled: a score is counted at the end of every game a simulation plays.)"""

    __slots__ = ("group", "how", "lines", "units")

    def __init__(self, units: Mapping[str, int], lines: Mapping[str, tuple[tuple[str, int, int], ...]], group: int,
                 how: str) -> None:
        self.units: Final = units
        self.lines: Final = lines
        self.group: Final = group
        self.how: Final = how

    def __repr__(self) -> str:
        return f"Score(units={self.units!r}, lines={self.lines!r}, group={self.group!r}, how={self.how!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Score) and (self.units, self.lines, self.group, self.how) == \
            (other.units, other.lines, other.group, other.how)

    def __hash__(self) -> int:
        return hash((tuple(self.units.items()), tuple(self.lines.items()), self.group, self.how))

    def as_json(self) -> dict[str, Any]:
        return {"units": dict(self.units), "group": self.group, "group_is": self.how,
                "lines": {u: [{"term": t, "count": n, "points": p} for t, n, p in ls] for u, ls in self.lines.items()}}


def _term(game: GameAPI, unit: Unit, term: str, mine: list[dict[str, Any]]) -> int:
    """A score term's count for the Unit (``mine``: the Unit's conquests)."""
    if term == "bunkers-entered":
        return len({c["bunker"] for c in mine})
    if term == "first-in-bunker":
        # (loops rather than min() and any() over generators: compiled, a term is counted at the end of every game
        # a simulation plays, for its Victory Points)
        first = -1
        for c in game.state.conquests:
            turn = int(c["turn"])
            if first < 0 or turn < first:
                first = turn
        for c in mine:
            if int(c["turn"]) == first:
                return 1
        return 0
    if term == "last-sector":
        sectors = game.sectors
        last = unit.sector
        for v in unit.visited:
            if not sectors[v].bunker:
                last = v
        return sectors[last].number or 0
    if term == "specialists":
        return len(unit.specialists)
    if term == "awards":
        return len(unit.awards) + len(unit.used_awards)
    if term.startswith("drawn-"):  # cards of a kind drawn from its deck (interpreter/mechanisms/decks.py counts them)
        return unit.counters.get(f"drawn:{term[6:]}", 0)
    value = unit.resource(term)  # a resource (Soldiers, Courage, Stars), or another count the Unit keeps
    if value is None:
        raise RuleError(f"no score term '{term}'")
    return value


def score(game: GameAPI, terms: Sequence[tuple[str, int]] | None = None) -> Score | None:
    """The options' score table applied to the game as it stands (at its end: won or lost)."""
    rules = game.option_rules
    terms = rules.score_terms if terms is None else terms
    if not terms:
        return None
    units: dict[str, int] = {}
    lines: dict[str, tuple[tuple[str, int, int], ...]] = {}
    conquests = game.state.conquests
    for unit in game.state.units:
        mine = [c for c in conquests if c["unit"] == unit.id]
        rows = []
        total = 0
        for term, points in terms:
            n = _term(game, unit, term, mine)
            rows.append((term, n, n * points))
            total += n * points
        lines[unit.id] = tuple(rows)
        units[unit.id] = total
    how = rules.group_score
    group = sum(units.values()) if how == "total" else min(units.values(), default=0)
    return Score(units, lines, group, how)


def score_text(game: GameAPI, result: Score) -> list[str]:
    """The score as a player reads it at the end of ``dday play``."""
    out = []
    for unit in game.state.units:
        parts = [f"{t} {n} = {p}" for t, n, p in result.lines[unit.id] if n]
        out.append(f"  {unit.name}: {result.units[unit.id]} VP ({'; '.join(parts) or 'nothing'})")
    out.append(f"  group ({'the lowest Unit' if result.how == 'lowest' else 'the sum'}): {result.group} VP")
    return out


def score_summary(groups: Sequence[int | None], won: Sequence[bool],
                  units: Sequence[Sequence[int]]) -> dict[str, Any] | None:
    """Statistics of the scores of many games (``dday simulate``); None when no game was scored."""
    scored = [(g, w, u) for g, w, u in zip(groups, won, units, strict=True) if g is not None]
    if not scored:
        return None

    def stats(values: list[int]) -> dict[str, float]:
        if not values:
            return {"mean": 0.0, "min": 0, "max": 0}
        return {"mean": sum(values) / len(values), "min": min(values), "max": max(values)}

    return {
        "group": stats([g for g, _, _ in scored]),
        "group_won": stats([g for g, w, _ in scored if w]),
        "group_lost": stats([g for g, w, _ in scored if not w]),
        "unit": stats([x for _, _, u in scored for x in u]),
    }
