"""Policies: deciders that play Units by themselves.

- ``random``: uniform among legal answers, seeded per game.
- ``reference``: DESIGN.md section 10, fixed and deterministic (benchmarks, cross-implementation checks).
- ``heuristic``: a competent player (below). Deterministic: it draws no random numbers of its own.

A policy sees the whole game (as a player at the table does) and answers a
:class:`~ddaydice.interpreter.core.decisions.Decision` with option indices.

How the heuristic plays
-----------------------
Everything is priced in Soldiers, the currency of survival.

*The route planner* (:class:`_Planner`) is a small dynamic programme over (Sector, Sectors already visited
nearby, Courage, rolls spent in the Sector). Each combat costs the Sector's expected casualties (DEF, 3.5
per MGF die, Landmines on the way, Special Damage, a Specialist to sacrifice); each roll brings about six
Soldiers, fewer when its dice are steered to Courage (:data:`COURAGE_TARGETS`, with the chance of falling
short); a Unit may stay as long as its marker allows. Climbing Sectors (4 Skulls to Advance), Bunkers
entered only with a Battle Cry and Bunkers that open when another falls are moves available only with some
probability per turn. For each state the programme gives the plan's outlook: the chance the Unit is not
stranded (must move and cannot), and the mean and variance of the Soldiers it still gains (negative:
loses). It maximises ``live * mean + (1 - live) * DEATH``; a move is chosen for the best chance to come
through, ``live * P(Soldiers + gain > 0)``. Plans are cached by everything they depend on, so one plan
serves many turns and many games, and the Units' policies of one game share them.

*Dice*: every face of every die is valued in context: Soldiers at face value, Courage by what one more
Courage is worth to the plan (the planner's marginal value), Stars by the best Specialist they buy, Tools
by the Item Points table (which rewards piling them up), Skulls by the result they would cancel (or
highly, when climbing), plus the Red-White-Blue bonus a die would complete; Soldiers count more when this
turn's combat could wipe the Unit out. Dice are kept one at a time, each valued against those already kept
(a second Courage is worth less than the first): Locked where locking costs least, re-rolled when a fresh
die (with the re-rolls left) is worth more than the face shown.

*Cards*: Specialists and Items are valued for the map ahead (Advances left, combats left, Landmines,
the Bunker's DEF); Items are kept for the moment they pay (DEF breakers in the Bunker or when a combat
would kill, Flak Vest after a high MGF roll, the Dexedrine or a Battle Cry when a Bunker needs one,
Grappling Hooks when a Climb is one Skull short).

*Team play*: Units split between Bunkers that must all be conquered (every Unit computes the same
assignment from the shared state); Units of one Sector hand each other the Items that are worth more to the
other and even out their Soldiers, and a Unit gives Soldiers to a comrade the MGF just rolled would wipe
out; a Unit whose Bunker is still closed holds back.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from ddaydice.dsl import ast as dsl_ast
from ddaydice.interpreter.core.api import Decider, GameView
from ddaydice.interpreter.core.decisions import Decision
from ddaydice.interpreter.game import Game
from ddaydice.interpreter.policies.deciders import RandomDecider, ReferencePolicy
from ddaydice.interpreter.policies.side_policy import SidePolicy

if TYPE_CHECKING:
    from ddaydice.interpreter.core.state import Die, GameState, Unit

POLICIES = ("random", "reference", "heuristic")

# ------------------------------------------------------------------------------------------- the model
#: Soldiers a roll gives when every die is steered to Soldiers (measured: 5.8 with 2 Locks and 2 re-rolls).
ROLL_GAIN = 5.8
ROLL_VAR = 4.0
#: Steering a roll's dice to 0, 1, 2 or 3 Courage: the share of ROLL_GAIN kept as Soldiers, and the chances
#: of ending with 0, 1, 2, 3 Courage (measured by simulating the dice rule of this policy).
COURAGE_TARGETS = ((1.0, (0.57, 0.33, 0.10, 0.0)),
                   (0.91, (0.09, 0.70, 0.21, 0.0)),
                   (0.80, (0.09, 0.25, 0.56, 0.10)),
                   (0.72, (0.09, 0.25, 0.31, 0.35)))
MGF_MEAN = 3.5
D6_VAR = 35 / 12
#: The value of a plan that fails (a Unit that must move and cannot, or never reaches a Bunker).
DEATH = -100.0
CMAX = 16
#: Chance per turn of rolling a Battle Cry (Courage on a red, a white and a blue die) when aiming at it.
P_BATTLE_CRY = 0.3
#: Chance per turn of 4 Skulls when climbing (no Locks), and with one Skull given by an Item.
P_CLIMB = 0.21
P_CLIMB_HELPED = 0.47
UNLIMITED_STAY_CAP = 8
#: Against another side (the German): his Soldiers gained per turn before the Units' first turns tell (then the
#: game's own record takes over, as if this prior were FOE_PRIOR_TURNS turns seen), and the variance of a turn.
FOE_GAIN_PRIOR = 7.0
FOE_PRIOR_TURNS = 3
FOE_VAR = 6.0
#: Courage a Unit loses to the other side in a turn beyond what his cards in play take every turn (his
#: Decorations and Items, played now and then), as a chance per turn.
FOE_DRAIN_BASE = 0.25
#: Soldiers one Item Point is worth (Bazooka 15 -> 7, Field Radio 12 -> 5, Walkie-Talkie 5 -> 2).
ITEM_POINT_VALUE = 0.4
FACES = ("skull", "star", "one-soldier", "two-soldiers", "courage", "tool")
BUNKER_BREAKERS = {"flame-thrower": 10.0, "bazooka": 7.0, "gammon-bomb": 3.5}
SKULL_HELPERS = ("grappling-hook", "rope-ladder", "binoculars", "rangefinder")
#: Items the route planner counts on (the others are used as they come).
_PLANNED_ITEMS = frozenset({*BUNKER_BREAKERS, *SKULL_HELPERS, "dexedrine", "wirecutters"})
#: The cards the heuristic has rules of its own for (wants_use); any other card is played by what its effect does.
_OWN_RULES = frozenset({
    *BUNKER_BREAKERS, *SKULL_HELPERS, "field-radio", "walkie-talkie", "signalling-lamp", "medal-case", "lucky-charm",
    "pocket-bible", "memorial-cross", "legion-of-merit", "command-jacket", "shoulder-patch", "victoria-cross",
    "corporal", "jeep", "captain", "strategic-map", "ammo-box", "toolkit", "bangalore-torpedo", "grenade",
    "flak-vest", "grenadier", "mortar", "whistle", "mine-detector", "dexedrine", "wirecutters", "point-man"})


# ------------------------------------------------------------------------------------- sector facts
@attrs.frozen
class _Facts:
    """What a Sector's effects do, read once from their DSL text."""

    courage: int = 0  # per turn, added to the Final Tally
    stars: int = 0
    tools: int = 0
    skulls: int = 0
    star_penalty: int = 0
    courage_penalty: int = 0
    enter_soldiers: float = 0.0
    free_cards: tuple[str, ...] = ()
    award: bool = False
    combat_loss: float = 0.0  # Mortar Fire, Booby Traps
    combat_loss_unless: str = ""
    climb: int = 0  # Skulls needed to Advance from here
    battle_cry_only: bool = False
    no_battle_cry: bool = False
    no_stay: bool = False
    retreat: str | None = None
    no_find: bool = False
    enter_unless: str | None = None  # Sector that must be conquered before entering
    no_entry_after: tuple[str, ...] = ()  # no entry for a Unit that has been in all these Sectors


_ADD = re.compile(r"^on final-tally: add (\d+) (courage|star|tool|skull)")
_REMOVE = re.compile(r"^on final-tally: remove (\d+) (star|courage)")
_FREE = re.compile(r"(?:recruit|find) ([a-z-]+) free")
_CLIMB = re.compile(r"forbid advance unless count skull >= (\d+)")
_RETREAT = re.compile(r"retreat ([a-z0-9-]+)")
_ENTER_UNLESS = re.compile(r"forbid enter unless conquered ([a-z0-9-]+)")
_NO_ENTRY_AFTER = re.compile(r"^forbid enter if ((?:visited [a-z0-9-]+(?: and )?)+)$")


_PRESSURE = re.compile(r"^use once per turn[^:]*: (.*)$")
_HIT = re.compile(r"(lose (\d+) (soldiers|courage)|def \+(\d+) this turn|mgf-dice \+(\d+) this turn) "
                  r"(?:this turn )?to (another unit|all units)")


def _foe_pressure(game: GameView, card: str) -> tuple[float, float, bool]:
    """What another side's card in play takes from the Units every turn, read from its effect: (Soldiers,
    Courage, whether it hits one Unit of his choice rather than all)."""
    key = (id(game.content), card, tuple(sorted(game.options)))
    found = _PRESSURE_OF.get(key)
    if found is None:
        soldiers = courage = 0.0
        one = False
        c = game.content.cards.get(card)
        for raw in ((c.effect or "") if c is not None else "").splitlines():
            m = _PRESSURE.match(raw.strip())
            if m is None:
                continue
            head = raw.split(":", 1)[0]
            if any(o not in game.options for o in re.findall(r"(?<!unless )option ([a-z0-9-]+)", head)) or any(
                    o in game.options for o in re.findall(r"unless option ([a-z0-9-]+)", head)):
                continue
            for h in _HIT.finditer(m.group(1)):
                one = one or h.group(6) == "another unit"
                if h.group(3) == "soldiers":
                    soldiers += int(h.group(2))
                elif h.group(3) == "courage":
                    courage += int(h.group(2))
                elif h.group(4):
                    soldiers += int(h.group(4))
                elif h.group(5):
                    soldiers += MGF_MEAN * int(h.group(5))
        found = _PRESSURE_OF[key] = (soldiers, courage, one)
    return found


_PRESSURE_OF: dict[tuple[Any, ...], tuple[float, float, bool]] = {}
_AGAINST = re.compile(r"(lose|sacrifice|discard) (\d+) ([a-z-]+) to the ([a-z-]+)|steal (\d+) die")
#: What a loss is worth to the other side, in Soldiers (a Specialist: his body and what he does).
_FOE_LOSS = {"soldiers": 1.0, "specialist": 3.0, "item": 1.0, "decoration": 2.0, "courage": 0.4, "star": 0.6}


def _against_foe(game: GameView, card: str) -> tuple[float, float]:
    """What a Unit's card takes from another side's player, read from its effect (written 'to the german',
    or a die taken from his Final Tally): (once, each turn it works), in Soldiers."""
    key = (id(game.content), card)
    found = _AGAINST_OF.get(key)
    if found is None:
        once = each = 0.0
        sides = {d.id for d in game.side_defs.values()}
        c = game.content.cards.get(card)
        for raw in ((c.effect or "") if c is not None else "").splitlines():
            line = raw.strip()
            v = 0.0
            for h in _AGAINST.finditer(line):
                if h.group(5):
                    v += 1.5 * int(h.group(5))
                elif h.group(4) in sides:
                    v += int(h.group(2)) * _FOE_LOSS.get(h.group(3).rstrip("s") if h.group(3) != "soldiers"
                                                         else h.group(3), 1.0)
            if not v:
                continue
            if "per turn" in line.split(":", 1)[0]:
                each += v
            elif line.startswith("on combat"):
                each += 0.5 * v  # in the turns it stays
            else:
                once += v
        found = _AGAINST_OF[key] = (once, each)
    return found


_AGAINST_OF: dict[tuple[Any, ...], tuple[float, float]] = {}


def _generic_use(game: GameView, card: str) -> str:
    """How the heuristic plays a card it has no rule of its own for (an expansion's, a modder's), read from the
    actions of its ``use`` effect: 'gain' (resources, free cards, a die that is not a Skull: at once), 'defence'
    (DEF, casualties or MGF lowered, MGF casualties ignored: kept for a turn that needs it), 'cost' (the Advance
    made cheaper) or 'mines' (Landmines ignored), both at the move that needs them; '' (not played) for a card
    that costs the Unit something (a Soldier, itself) or only changes dice, which needs a plan of its own."""
    key = (id(game.content), card)
    found = _GENERIC_OF.get(key)
    if found is None:
        source = game.content.effects.get(card)
        kinds: set[str] = set()
        for clause in source.tree.clauses if source is not None else ():
            body = clause.body
            if not isinstance(body, dsl_ast.Use):
                continue
            for action in body.actions:
                for option in action.options:
                    for st in (option.statement, *(o.statement for o in option.also)):
                        kinds.add(_statement_kind(st, option.recipient is not None))
        ranked = [k for k in ("defence", "cost", "mines", "gain") if k in kinds]
        found = "" if "self-cost" in kinds or not ranked else ranked[0]
        _GENERIC_OF[key] = found
    return found


def _statement_kind(st: dsl_ast.Statement, to_another: bool) -> str:
    verb = st.verb.name
    words = {a.name for a in st.args if isinstance(a, dsl_ast.Word)}
    lowered = any(isinstance(a, dsl_ast.Signed) and a.value < 0 for a in st.args) or any(
        isinstance(a, dsl_ast.Assign) and isinstance(a.value, dsl_ast.Number) and a.value.value == 0 for a in st.args)
    if verb in {"lose", "sacrifice", "discard"} and not to_another:
        return "self-cost"
    if (verb in {"def", "casualties", "mgf-dice"} and lowered) or (
            verb == "ignore" and words & {"mgf-casualties", "special-damage"}):
        return "defence"
    if verb == "advance-cost" and lowered:
        return "cost"
    if verb == "ignore" and "landmines" in words:
        return "mines"
    if verb in {"gain", "draw-award"} or (verb == "add" and "skull" not in words) or (
            verb in {"find", "recruit"} and "free" in words):
        return "gain"
    return ""


_GENERIC_OF: dict[tuple[Any, ...], str] = {}


def _parse_facts(texts: Iterable[str]) -> _Facts:
    f: dict[str, Any] = {}
    cards: list[str] = []
    for text in texts:
        for raw in text.splitlines():
            line = raw.strip()
            if (m := _ADD.match(line)) is not None:
                key = {"courage": "courage", "star": "stars", "tool": "tools", "skull": "skulls"}[m.group(2)]
                f[key] = f.get(key, 0) + int(m.group(1))
            elif (m := _REMOVE.match(line)) is not None:
                key = "star_penalty" if m.group(2) == "star" else "courage_penalty"
                f[key] = f.get(key, 0) + int(m.group(1))
            elif line.startswith(("on enter:", "on first-enter")) and "gain 1d6 soldiers" in line:
                f["enter_soldiers"] = f.get("enter_soldiers", 0.0) + 3.5
            elif (m := _FREE.search(line)) is not None and line.startswith(("on enter", "on first-enter")):
                cards.append(m.group(1))
            elif "draw-award" in line and line.startswith(("on enter", "on first-enter")):
                f["award"] = True
            elif line.startswith("on combat") and "lose 1d6 soldiers" in line:
                f["combat_loss"] = f.get("combat_loss", 0.0) + 3.5
                if "unless has " in line:
                    f["combat_loss_unless"] = line.split("unless has ", 1)[1].split(":", 1)[0].strip()
            elif (m := _CLIMB.search(line)) is not None:
                f["climb"] = int(m.group(1))
            elif line == "require battle-cry":
                f["battle_cry_only"] = True
            elif line.startswith("forbid battle-cry"):
                f["no_battle_cry"] = True
            elif line == "forbid stay":
                f["no_stay"] = True
            elif "retreat" in line and (m := _RETREAT.search(line)) is not None:
                f["retreat"] = m.group(1)
            elif line == "forbid find":
                f["no_find"] = True
            elif (m := _ENTER_UNLESS.search(line)) is not None:
                f["enter_unless"] = m.group(1)
            elif (m := _NO_ENTRY_AFTER.match(line)) is not None:
                f["no_entry_after"] = tuple(re.findall(r"visited ([a-z0-9-]+)", m.group(1)))
    if cards:
        f["free_cards"] = tuple(cards)
    return _Facts(**f)


def _facts(game: GameView, sid: str) -> _Facts:
    attrs_now = game.state.sectors[sid].attributes
    key = (id(game.content), game.map.id, game.variant.id if game.variant else None, sid,
           tuple(attrs_now) if attrs_now else ())
    found = _FACTS.get(key)
    if found is None:
        found = _parse_facts(src.text for src in game._sector_sources(sid))
        if len(_FACTS) > 4096:
            _FACTS.clear()
        _FACTS[key] = found
    return found


_FACTS: dict[tuple[Any, ...], _Facts] = {}


# ------------------------------------------------------------------------------------------- the planner
@attrs.frozen
class _Edge:
    to: str
    cost: int
    loss: float  # Landmines, a sacrifice (as Soldiers)
    var: float
    bonus: float  # Beachmaster, Pathfinder
    avail: float  # the chance the move is open at a given Phase 4 (Climbing, Battle Cry only)
    retreat: bool = False


@attrs.frozen
class _Params:
    """Everything a plan depends on; hashable, so plans are shared between turns and games."""

    loss: tuple[tuple[str, float, float], ...]  # sector, expected casualties per combat, variance
    gain: tuple[tuple[str, float, int], ...]  # sector, Soldiers per roll, free Courage per roll
    climbing: frozenset[str]  # Sectors where the dice go to Skulls (no Courage is rolled there)
    max_rolls: tuple[tuple[str, int], ...]
    enter: tuple[tuple[str, float], ...]  # one-off gain on entering
    terminal: frozenset[str]
    edges: tuple[tuple[str, tuple[_Edge, ...]], ...]
    #: Against another side (the German): per Sector, what each turn of Combat there costs the Unit's lead over
    #: him on top of its own casualties (his Soldiers gained per turn, less the printed DEF he loses), and
    #: the variance his turn adds. Empty: the plan counts the Unit's Soldiers alone.
    foe: tuple[tuple[str, float], ...] = ()
    foe_var: float = 0.0
    #: The chances of losing 0, 1, 2 Courage to the other side each turn, after the roll (empty: none).
    drain: tuple[float, ...] = ()


#: A plan's outlook: (utility, mean Soldiers to come if the Unit lives, their variance, chance to live), where
#: the utility is ``live * mean + (1 - live) * DEATH``, what the planner maximises.
Outlook = tuple[float, float, float, float]
LOST: Outlook = (DEATH, 0.0, 0.0, 0.0)


class _Planner:
    """Expected Soldiers to come (and their variance) from a Phase 4 state, playing the best plan.

    Sectors are numbered and the Sectors visited are a bit mask; a state is (Sector, visited Sectors
    still reachable from it, Courage, rolls made there).
    """

    def __init__(self, params: _Params) -> None:
        names = [s for s, _, _ in params.loss]
        self.index = {s: i for i, s in enumerate(names)}
        self.names = names
        idx = self.index
        #: Expected casualties per Combat (and variance): ``abs_loss`` the Unit's own, ``loss`` what the plan
        #: counts (against another side: the Unit's lead over him).
        self.abs_loss = [(m, v) for _, m, v in params.loss]
        foe = dict(params.foe)
        self.loss = [(m + foe.get(s, 0.0), v + (params.foe_var if s in foe else 0.0)) for s, m, v in params.loss]
        gains = {s: (g, c) for s, g, c in params.gain}
        self.gain = [gains[s] for s in names]
        self.climbing = [s in params.climbing for s in names]
        rolls = dict(params.max_rolls)
        self.max_rolls = [rolls.get(s, 3) for s in names]
        enter = dict(params.enter)
        self.enter = [enter.get(s, 0.0) for s in names]
        self.terminal = [s in params.terminal for s in names]
        edge_map = dict(params.edges)
        self.edges: list[tuple[_Edge, ...]] = [edge_map.get(s, ()) for s in names]
        self.edge_to = [tuple(idx[e.to] for e in es) for es in self.edges]
        self.memo: dict[int, Outlook] = {}
        self.rolled: dict[int, Outlook] = {}
        n = len(names)
        reach = [0] * n
        for i in range(n):
            seen = 0
            todo = list(self.edge_to[i])
            while todo:
                x = todo.pop()
                if seen >> x & 1:
                    continue
                seen |= 1 << x
                todo += self.edge_to[x]
            reach[i] = seen
        self.reach = reach
        self.n = n
        # The most Courage any way on from a Sector can still use: more is worth nothing to the plan.
        need = [0] * n
        for _ in range(n + 1):
            changed = False
            for i in range(n):
                best = 0
                for e, to in zip(self.edges[i], self.edge_to[i], strict=True):
                    best = max(best, e.cost + need[to])
                best = min(best, CMAX)
                if best != need[i]:
                    need[i] = best
                    changed = True
            if not changed:
                break
        self.need = need
        # The Courage a roll brings (COURAGE_TARGETS), less what the other side takes each turn before the Units
        # move (params.drain: the chances of losing 0, 1, 2): per target, (change in Courage, chance).
        drain = params.drain or (1.0,)
        self.drain = drain
        targets: list[tuple[float, tuple[tuple[int, float], ...]]] = []
        for share, dist in COURAGE_TARGETS:
            chances: dict[int, float] = {}
            for j, pj in enumerate(dist):
                for lost, pl in enumerate(drain):
                    if pj * pl:
                        chances[j - lost] = chances.get(j - lost, 0.0) + pj * pl
            targets.append((share, tuple(sorted(chances.items()))))
        self.targets = targets

    # ------------------------------------------------------------- by Sector name
    def at(self, sector: str, visited: int, c: int, k: int) -> Outlook:
        return self.value(self.index[sector], visited, max(0, c), k)

    def edges_of(self, sector: str) -> tuple[_Edge, ...]:
        return self.edges[self.index[sector]]

    def loss_of(self, sector: str) -> tuple[float, float]:
        """What a Combat in ``sector`` costs the plan (against another side: the Unit's lead over him)."""
        return self.loss[self.index[sector]]

    def abs_loss_of(self, sector: str) -> tuple[float, float]:
        """The Unit's own expected casualties in a Combat in ``sector``."""
        return self.abs_loss[self.index[sector]]

    def roll_at(self, sector: str, visited: int, c: int, k: int) -> Outlook:
        x = self.index[sector]
        return self.roll(x, visited | 1 << x, max(0, c), k)

    def take(self, e: _Edge, visited: int, c: int) -> Outlook:
        return self.arrive(e, self.index[e.to], visited, c)

    def mask(self, visited: Iterable[str]) -> int:
        m = 0
        for s in visited:
            i = self.index.get(s)
            if i is not None:
                m |= 1 << i
        return m

    def value(self, x: int, visited: int, c: int, k: int) -> Outlook:
        """Phase 4 in Sector ``x`` after ``k`` rolls there, with ``c`` Courage: the outlook of the best plan."""
        rv = visited & self.reach[x]
        c = min(c, self.need[x])
        key = ((rv * self.n + x) * (CMAX + 1) + c) * 64 + min(k, 63)
        found = self.memo.get(key)
        if found is not None:
            return found
        best: Outlook | None = None
        chancy: list[tuple[Outlook, float]] = []  # moves open only with some probability
        if k < self.max_rolls[x]:
            m, v = self.loss[x]
            best = _shift(self.roll(x, rv, c, k + 1), -m, v)
        for e, to in zip(self.edges[x], self.edge_to[x], strict=True):
            if rv >> to & 1 or e.cost > c or (e.retreat and k < 3):
                continue
            o = self.arrive(e, to, rv, c)
            if e.avail < 1.0:
                chancy.append((o, e.avail))
            elif best is None or o[0] > best[0]:
                best = o
        if chancy:
            if best is not None:
                chancy.append((best, 1.0))
            result = _mix(chancy)
        elif best is not None:
            result = best
        else:
            result = LOST
        self.memo[key] = result
        return result

    def arrive(self, e: _Edge, to: int, rv: int, c: int) -> Outlook:
        """Take edge ``e`` into Sector ``to`` (paying its cost) and go on."""
        rv |= 1 << to
        if e.retreat:
            return self.value(to, rv, c - e.cost, 0)
        lm, lv = self.loss[to]
        mean = e.bonus - e.loss + self.enter[to] - lm
        var = e.var + lv
        if self.terminal[to]:
            return (mean, mean, var, 1.0)
        return _shift(self.roll(to, rv, c - e.cost, 1), mean, var)

    def roll(self, x: int, rv: int, c: int, k: int) -> Outlook:
        """A roll in ``x`` (the dice steered to the best amount of Courage), then Phase 4."""
        gain, free = self.gain[x]
        base = min(max(0, c + free), self.need[x])
        rv &= self.reach[x] | 1 << x
        key = ((rv * self.n + x) * (CMAX + 1) + base) * 64 + min(k, 63)
        found = self.rolled.get(key)
        if found is not None:
            return found
        value = self.value
        if self.climbing[x]:
            result = _shift(value(x, rv, base, k), gain, ROLL_VAR)
            self.rolled[key] = result
            return result
        targets = self.targets
        lo = -(len(self.drain) - 1)
        outs = [value(x, rv, max(0, base + off), k) for off in range(lo, 4)]
        best_u = -math.inf
        best_i = 0
        for i, (share, d) in enumerate(targets):
            g = gain * share
            u = 0.0
            for off, p in d:
                o = outs[off - lo]
                u += p * (o[0] + o[3] * g)
            if u > best_u:
                best_u, best_i = u, i
        share, d = targets[best_i]
        g = gain * share
        q = 0.0
        mean = 0.0
        second = 0.0
        for off, p in d:
            o = outs[off - lo]
            w = p * o[3]
            q += w
            mo = o[1] + g
            mean += w * mo
            second += w * (o[2] + mo * mo)
        if q > 1e-12:
            mean /= q
            var = max(0.0, second / q - mean * mean) + ROLL_VAR
        else:
            mean, var = 0.0, 0.0
        result = (best_u, mean, var, q)
        self.rolled[key] = result
        return result


def _shift(o: Outlook, gain: float, var: float) -> Outlook:
    u, m, v, q = o
    return (u + q * gain, m + gain, v + var, q)


def _mix(options: Sequence[tuple[Outlook, float]]) -> Outlook:
    """The best available option, when some are open only with a probability (independently)."""
    ranked = sorted(options, key=lambda o: -o[0][0])
    left = 1.0
    q = 0.0
    mean = 0.0
    second = 0.0
    for (_u, m, v, qi), p in ranked:
        w = left * p
        if w <= 0:
            continue
        wq = w * qi
        q += wq
        mean += wq * m
        second += wq * (v + m * m)
        left -= w
        if left <= 1e-9:
            break
    if q > 1e-12:
        mean /= q
        var = max(0.0, second / q - mean * mean)
    else:
        mean, var = 0.0, 0.0
    return (q * mean + (1 - q) * DEATH, mean, var, q)


def _survival(soldiers: float, o: Outlook) -> float:
    """The chance a Unit with ``soldiers`` comes through a plan of outlook ``o`` alive."""
    _u, m, v, q = o
    z = (soldiers + m - 0.5) / math.sqrt(v + 1.0)
    return q * 0.5 * math.erfc(-z / math.sqrt(2.0))


_PLANS: dict[_Params, _Planner] = {}


# -------------------------------------------------------------------------------------------- the policy
@attrs.define
class _TurnView:
    """What the policy works out once per Unit and turn (and re-uses for every decision)."""

    params: _Params
    planner: _Planner
    visited: int  # the Sectors visited, as the planner's bit mask
    targets: frozenset[str]
    holding: bool  # the Unit's Bunker is closed for now: stay low


#: Views shared by the policies of one game's Units (keyed by the game state's identity, which is checked).
_VIEWS: dict[tuple[Any, ...], tuple[GameState, _TurnView]] = {}


@attrs.define
class HeuristicPolicy:
    """A competent player; deterministic given the game (it draws no random numbers)."""

    fallback: ReferencePolicy = attrs.Factory(ReferencePolicy)
    _view_key: tuple[Any, ...] | None = None
    _target_memo: dict[tuple[Any, ...], tuple[frozenset[str], bool, bool]] = attrs.Factory(dict)
    _cards: tuple[Any, ...] = ()
    _quick: dict[tuple[Any, ...], tuple[Any, _TurnView]] = attrs.Factory(dict)
    _counts: dict[tuple[Any, ...], int] = attrs.Factory(dict)
    _game: Any = None
    _rerolls: dict[tuple[int, str], int] = attrs.Factory(dict)
    _fixed: dict[tuple[int, str], dict[int, tuple[str, str]]] = attrs.Factory(dict)
    _asides: dict[tuple[int, str], set[int]] = attrs.Factory(dict)
    _intent: dict[str, Any] = attrs.Factory(dict)
    _ctx: dict[tuple[Any, ...], _DiceContext] = attrs.Factory(dict)
    _statics: dict[tuple[Any, ...], int] = attrs.Factory(dict)
    _side_policy: SidePolicy = attrs.Factory(SidePolicy)
    _ahead: dict[tuple[Any, ...], tuple[bool, bool, bool, bool]] = attrs.Factory(dict)
    #: The other side's player seen at the first decision of each turn: turn -> (his Soldiers, the highest
    #: printed DEF the Units then occupied, where they fought the turn before).
    _foe_seen: dict[int, tuple[int, int]] = attrs.Factory(dict)

    # ================================================================ dispatch
    def decide(self, game: GameView, decision: Decision) -> tuple[int, ...]:
        if game.state.sides and game.state.unit(decision.unit).side:
            # another side's player (the German): his own policy (interpreter/side_policy.py)
            return self._side_policy.decide(game, decision)
        if self._game is not game:
            if not any(entry[0] is game.state for entry in _VIEWS.values()):
                _VIEWS.clear()  # a new game: let the old ones go
            self._game = game
            self._view_key = None
            self._target_memo = {}
            self._rerolls = {}
            self._fixed = {}
            self._asides = {}
            self._intent = {}
            self._ctx = {}
            self._statics = {}
            self._ahead = {}
            self._counts = {}
            self._quick = {}
            self._foe_seen = {}
        if game.state.sides and game.state.turn not in self._foe_seen:
            self._observe_foe(game)
        unit = game.state.unit(decision.unit)
        kind = decision.kind
        handler = _HANDLERS.get(kind)
        if handler is None:
            return self.fallback.decide(game, decision)
        answer = handler(self, game, unit, decision)
        return answer if isinstance(answer, tuple) else (answer,)

    # ================================================================ the plan
    def view(self, game: GameView, unit: Unit) -> _TurnView:
        s = game.state
        # Within one decision nothing changes: every answer given is recorded, so the count of answers
        # tells decisions apart.
        quick = (len(s.choices), unit.id, unit.sector, len(unit.items), len(unit.specialists))
        hit = self._quick.get(quick)
        if hit is not None:
            self._view_key = hit[0]
            return hit[1]
        view = self._view(game, unit)
        if len(self._quick) > 8:
            self._quick.clear()
        self._quick[quick] = (self._view_key, view)
        return view

    def _view(self, game: GameView, unit: Unit) -> _TurnView:
        s = game.state
        here = game.sectors[unit.sector]
        targets, holding, near = self._targets(game, unit)
        foe_model = self.foe_model(game, unit)
        # Only what the plan depends on: this Unit's cards, the cards that reach every Unit, the Sectors
        # whose first entry gives something, the Items the planner counts on.
        cards = tuple((u.id, tuple(u.specialists) if u is unit else tuple(c for c in u.specialists if c in _SHARED),
                       u.vehicle) for u in s.units if u.status == "active")
        firsts, randoms = _first_entry_sectors(game)
        key = (unit.id, unit.sector, unit.chevrons() if len(here.defense) > 1 else 0,
               tuple(i for i in unit.items if i in _PLANNED_ITEMS), tuple(s.conquered),
               tuple(sorted(s.bunker_specialists.items())), len(s.grants), cards,
               tuple(f for f in firsts if s.sectors[f].entered), tuple(len(s.sectors[r].attributes) for r in randoms),
               len(s.placed), bool(s.award_deck), targets, holding, near, foe_model)
        self._view_key = key
        # Every Unit's policy works out the same views (of itself and of its comrades): share them.
        shared = _VIEWS.get((id(s), key))
        if shared is not None and shared[0] is s:
            return shared[1]
        self._cards = cards
        params = self._params(game, unit, targets, near, foe_model)
        planner = _PLANS.get(params)
        if planner is None:
            if len(_PLANS) > 3000:
                _PLANS.clear()
            planner = _PLANS[params] = _Planner(params)
        view = _TurnView(params, planner, planner.mask(unit.visited), targets, holding)
        if len(_VIEWS) > 256:
            _VIEWS.clear()
        _VIEWS[(id(s), key)] = (s, view)
        return view

    def _targets(self, game: GameView, unit: Unit) -> tuple[frozenset[str], bool, bool]:
        """The Bunkers this Unit aims at (objectives are shared out between Units), whether it must hold
        back (its Bunker is closed for now) and whether a comrade waits beside the Bunker that opens it."""
        s = game.state
        key = (unit.id, tuple((u.status, u.sector, len(u.visited)) for u in s.units), tuple(s.conquered))
        found = self._target_memo.get(key)
        if found is not None:
            return found
        bunkers = [sid for sid, sec in game.sectors.items() if sec.bunker]
        objectives = [b for b in bunkers if game.sectors[b].objective]
        open_obj = [b for b in objectives if b not in s.conquered]
        active = s.active_units()
        mine: set[str] = set(bunkers)
        if len(s.units) > 1 and open_obj and len(active) > 1:
            assignment = _assign(game, active, open_obj, self._may_enter)
            if unit.id in assignment:
                mine = {assignment[unit.id]}
        elif len(s.units) > 1 and open_obj and len(active) == 1:
            mine = set(open_obj)
        holding = False
        near = False
        for b in list(mine):
            f = _facts(game, b)
            if f.enter_unless is not None and f.enter_unless not in s.conquered:
                holding = True
                near = near or any(u is not unit and f.enter_unless in [t for t, *_r in game.moves[u.sector]]
                                   for u in active)
        found = (frozenset(mine), holding, near)
        if len(self._target_memo) > 64:
            self._target_memo.clear()
        self._target_memo[key] = found
        return found

    def _params(self, game: GameView, unit: Unit, targets: frozenset[str], near: bool,
                foe_model: tuple[float, float, tuple[float, ...]] | None = None) -> _Params:
        g = game
        specs = set(unit.specialists)
        items = list(unit.items)
        medic = 1.0 if ("medic" in specs or unit.vehicle == "ambulance") else 0.0
        n_specs = len(unit.specialists)
        cheapest = min((self.spec_value(game, unit, sp) for sp in unit.specialists), default=0.0)
        mines_free = g.flag("ignore-landmines", unit) or "minesweeper" in specs
        barriers_ok = g.flag("ignore-barriers", unit) or "wirecutters" in items
        skull_help = sum(items.count(i) for i in SKULL_HELPERS)
        p_climb = P_CLIMB_HELPED if skull_help else P_CLIMB
        has_cry_item = "dexedrine" in items
        breakers = sum(BUNKER_BREAKERS.get(i, 0.0) for i in items)
        beach = 3.0 if "beachmaster" in specs else 0.0
        path = 1.0 if "pathfinder" in specs else 0.0
        special = game.map.special_damage
        loss: list[tuple[str, float, float]] = []
        gain: list[tuple[str, float, int]] = []
        climbing: list[str] = []
        max_rolls: list[tuple[str, int]] = []
        enter: list[tuple[str, float]] = []
        edges: list[tuple[str, tuple[_Edge, ...]]] = []
        waiting = {a for a in g.sectors for (b, *_rest) in g.moves[a]
                   if _facts(g, b).battle_cry_only and b in targets}
        reach = _reachable(g, unit)
        reach_set = set(reach)
        cost_granted = any(gr.query == "advance-cost" and gr.unit in (None, unit.id) for gr in g.state.grants)
        platoon = unit.specialists.count("platoon-leader")
        enter_live = "enter" in g.live_queries
        for sid in reach:
            sec = g.sectors[sid]
            f = _facts(g, sid)
            d = g.value("def", unit, sector=sid)
            if sec.bunker and "engineer" in specs and unit.sector != sid:
                d -= 5
            mgf = g.value("mgf-dice", unit, sector=sid)
            m = max(0.0, float(d)) + MGF_MEAN * mgf
            v = D6_VAR * mgf
            if f.combat_loss and not (f.combat_loss_unless and f.combat_loss_unless in specs):
                m += f.combat_loss
                v += D6_VAR
            sd = sec.special_damage or special
            if mgf and sd == "specialist" and n_specs:
                m += mgf / 6 * (1.0 + cheapest)
            elif mgf and sd == "courage":
                m += mgf / 6 * 0.5
            if sec.bunker:
                m = max(0.0, m - breakers)
            if m > 0:
                m = max(0.0, m - medic)
            loss.append((sid, m, v))
            rolled = self._static(g, unit, "dice-rolled", sid)
            locks = self._static(g, unit, "locked-dice", sid)
            gr = ROLL_GAIN * rolled / 6 * (1.0 + 0.03 * (2 - locks))
            gr -= 1.2 * f.skulls
            if f.climb:
                gr = 1.0
                climbing.append(sid)
            elif sid in waiting:
                gr -= 1.3
            gain.append((sid, gr, f.courage - f.courage_penalty))
            stay = self._static(g, unit, "stay-turns", sid)
            if sec.black or f.no_stay:
                mr = 1
            elif stay >= 100:
                mr = UNLIMITED_STAY_CAP
            else:
                mr = max(1, stay)
            max_rolls.append((sid, mr))
            e_gain = f.enter_soldiers
            first = not g.state.sectors[sid].entered
            for card in f.free_cards:
                if card in unit.specialists or card in unit.dead:
                    continue
                kind = g.content.card_kinds.get(card)
                if kind == "specialist":
                    if card in g.state.pool or card in g.state.hands.get(unit.id, []) or first:
                        e_gain += self.spec_value(game, unit, card)
                elif first and (card in g.state.placed or card in g.state.pool):
                    e_gain += 0.5 * self.item_value(game, unit, card)
            if f.award and first and g.state.award_deck:
                e_gain += 3.0
            for card, where in g.state.placed.items():
                if where == sid and first and card not in f.free_cards:
                    e_gain += 0.5 * self.item_value(game, unit, card)
            if e_gain:
                enter.append((sid, e_gain))
            out: list[_Edge] = []
            for to, kind_, line_cost, mines, barrier in g.moves[sid]:
                if to not in reach_set:
                    continue
                tsec = g.sectors[to]
                if barrier and not barriers_ok:
                    continue
                if tsec.bunker and to not in targets:
                    continue
                tf = _facts(g, to)
                if tf.no_entry_after and all(v in unit.visited or v == sid for v in tf.no_entry_after):
                    continue  # by the time the Unit gets there, it will have been where this forbids
                enterable = not enter_live or self._may_enter(g, unit, to)
                if not tsec.bunker and not enterable:
                    continue
                closed = tsec.bunker and not enterable
                if closed and not (tf.enter_unless is not None and tf.enter_unless not in g.state.conquered):
                    continue
                advance = kind_ == "advance" or tsec.cost is not None
                cost = tsec.cost if tsec.cost is not None else line_cost
                if advance:
                    # This turn's grants (a Whistle) do not last: the plan prices later Advances without them.
                    cost = max(0, cost - platoon) if cost_granted else self._static(g, unit, "advance-cost", None,
                                                                                    cost)
                else:
                    cost = 0
                e_loss = 0.0
                e_var = 0.0
                if mines and "landmines" not in g.ignore and not mines_free:
                    e_loss += 3.5 - (0.6 if medic else 0.0)
                    e_var += D6_VAR
                avail = 1.0
                reqs = g._requirements(to)
                feasible = True
                for req in reqs:
                    if req[0] == "battle-cry":
                        avail = 0.9 if has_cry_item else P_BATTLE_CRY
                        cost = 0
                    elif req[0] == "sacrifice":
                        need = req[1] if isinstance(req[1], int) else 1
                        # A Specialist still to come (free in a Sector, or recruited) is priced, not ruled out.
                        e_loss += need * (1.0 + cheapest) + 2.5 * max(0, need - n_specs)
                    elif req[0] != "climb" and req[0] not in g.held_cards(unit):
                        card = str(req[0])
                        obtainable = card not in unit.dead and (
                            card in g.state.hands.get(unit.id, []) or card in g.state.pool)
                        if not obtainable:
                            feasible = False
                        e_loss += 3.0
                if not feasible:
                    continue
                if f.climb and advance:
                    avail *= p_climb
                if closed and tf.enter_unless is not None:
                    # A Bunker that opens when another Bunker falls: it may open any turn, sooner when a Unit
                    # already waits beside that Bunker.
                    avail *= 0.3 if near else 0.1
                bonus = path + (beach if advance else 0.0)
                out.append(_Edge(to, cost, e_loss, e_var, bonus, avail))
            if f.retreat is not None and f.retreat in reach_set and _sector_uses_offered(g, sid):
                out.append(_Edge(f.retreat, 0, 0.0, 0.0, 0.0, 1.0, retreat=True))
            edges.append((sid, tuple(out)))
        foe: tuple[tuple[str, float], ...] = ()
        drain: tuple[float, ...] = ()
        if foe_model is not None:
            # Each turn the German gains about foe_gain Soldiers and loses the printed DEF the Unit occupies
            # (both sides lose the same when he falls short: the shortfall lowers the Unit's DEF): a turn
            # costs the Unit's lead over him its own casualties less that DEF, plus his gain, plus what his
            # cards in play take from the Unit each turn.
            foe_gain, pressure, drain = foe_model
            foe = tuple((sid, foe_gain + pressure - float(g._base("def", unit, sid, None, False)[0]))
                        for sid in reach)
        return _Params(tuple(loss), tuple(gain), frozenset(climbing), tuple(max_rolls), tuple(enter), targets,
                       tuple(edges), foe, FOE_VAR if foe else 0.0, drain)

    # ---------------------------------------------------------------- the other side (the German)
    @staticmethod
    def foe(game: GameView) -> Unit | None:
        """Another side's player whom a Unit must outnumber in an Assault, and who loses the highest DEF the
        Units occupy each turn (rules/sides.yaml): the German of Atlantikwall."""
        for p in game.state.sides:
            sd = game.side_defs.get(p.side) if p.side else None
            if p.status == "active" and sd is not None and sd.assault is not None \
                    and sd.casualties == "highest-occupied-def":
                return p
        return None

    def _observe_foe(self, game: GameView) -> None:
        foe = self.foe(game)
        if foe is None:
            return
        units = game.state.active_units()
        worst = max((int(game._base("def", u, u.sector, None, False)[0]) for u in units), default=0)
        self._foe_seen[game.state.turn] = (game.soldier_count(foe), worst)

    def foe_gain(self, game: GameView) -> float | None:
        """The German's Soldiers gained per turn, as this game has shown them so far (None: no such side)."""
        if self.foe(game) is None:
            return None
        seen = self._foe_seen
        total, n = FOE_GAIN_PRIOR * FOE_PRIOR_TURNS, FOE_PRIOR_TURNS
        for t, (now, worst) in seen.items():
            before = seen.get(t - 1)
            if before is None or now <= 0:
                continue  # at 0 he lost what he had, not the DEF: that turn tells nothing of his gains
            total += now - before[0] + worst
            n += 1
        return round(2.0 * total / n) / 2.0

    def foe_model(self, game: GameView, unit: Unit) -> tuple[float, float, tuple[float, ...]] | None:
        """Against another side: (his Soldiers gained per turn, the Soldiers his cards in play take from this Unit
        each turn, the chances it loses 0, 1, 2 Courage to him in a turn); None without such a side."""
        foe = self.foe(game)
        if foe is None:
            return None
        gain = self.foe_gain(game) or 0.0
        share = 1.0 / max(1, len(game.state.active_units()))
        soldiers = 0.0
        courage = FOE_DRAIN_BASE
        for card in foe.specialists:
            hit = _foe_pressure(game, card)
            soldiers += hit[0] * (share if hit[2] else 1.0)
            courage += hit[1] * (share if hit[2] else 1.0)
        courage = min(2.0, round(4.0 * courage) / 4.0)
        drain = (1.0 - courage, courage) if courage <= 1.0 else (0.0, 2.0 - courage, courage - 1.0)
        return gain, round(2.0 * soldiers) / 2.0, drain

    def standing(self, game: GameView, unit: Unit) -> float:
        """What the plan's outcome adds to: the Unit's Soldiers, or, against the German, its lead over him
        (after his roll of this turn, which the plan does not count again)."""
        count = float(self.count(game, unit))
        foe = self.foe(game)
        if foe is None:
            return count
        gain = self.foe_gain(game) or 0.0
        return count - game.soldier_count(foe) + gain

    def count(self, game: GameView, unit: Unit) -> int:
        """The Unit's Soldiers, its Specialists included (the engine's count, remembered)."""
        key = (unit.id, unit.soldiers, tuple(unit.specialists))
        found = self._counts.get(key)
        if found is None:
            if len(self._counts) > 256:
                self._counts.clear()
            found = self._counts[key] = game.soldier_count(unit)
        return found

    def _cost(self, game: GameView, unit: Unit, spec: str) -> int:
        key = ("cost", unit.id, spec, tuple(unit.specialists), tuple(c for u in game.state.units
                                                                     for c in u.specialists if c in _SHARED))
        found = self._statics.get(key)
        if found is None:
            found = self._statics[key] = game.value("specialist-cost", unit, card=spec)
        return found

    def _may_enter(self, game: GameView, unit: Unit, sector: str) -> bool:
        s = game.state
        key = ("enter", unit.id, sector, len(unit.visited), tuple(s.conquered),
               sum(1 for st in s.sectors.values() if st.entered))
        found = self._statics.get(key)
        if found is None:
            found = self._statics[key] = int(game.flag("enter", unit, sector=sector))
        return bool(found)

    def _static(self, game: GameView, unit: Unit, query: str, sector: str | None, base: int | None = None, *,
                cards: bool = False) -> int:
        """A value that depends only on the Sector and the cards in play (not on this turn's grants)."""
        sig = tuple((u.id, tuple(u.specialists), u.vehicle) for u in game.state.units) if cards else self._cards
        key = (query, unit.id, sector, base, sig)
        found = self._statics.get(key)
        if found is None:
            if len(self._statics) > 4096:
                self._statics.clear()
            if base is None:
                found = game.value(query, unit, sector=sector) if sector is not None else game.value(query, unit)
            else:
                found = game.value(query, unit, base=base)
            self._statics[key] = found
        return found

    # ------------------------------------------------------------------- state helpers
    def rolls_here(self, game: GameView, unit: Unit, *, at_roll: bool) -> int:
        """Rolls made in the Unit's Sector by Phase 4 of this turn (the planner's ``k``)."""
        stay = self._static(game, unit, "stay-turns", unit.sector, cards=True)
        if stay >= 100:
            return max(1, game.state.turn - unit.entered_turn)
        if unit.marker in {"must-move", "cant-stay"}:
            return 99
        return unit.chevrons() if at_roll else unit.chevrons() - 1

    def plan_value(self, game: GameView, unit: Unit, courage: int, *, at_roll: bool) -> float:
        view = self.view(game, unit)
        k = self.rolls_here(game, unit, at_roll=at_roll)
        return view.planner.at(unit.sector, view.visited, courage, k)[0]

    def courage_curve(self, game: GameView, unit: Unit, base: int, n: int) -> list[float]:
        """Planner values with ``base`` .. ``base + n`` Courage at this turn's Phase 4."""
        return [self.plan_value(game, unit, base + i, at_roll=True) for i in range(n + 1)]

    # ================================================================ values of cards
    def remaining(self, game: GameView, unit: Unit) -> tuple[int, int]:
        """(Advances left, turns left), roughly, from the row of the Unit to the Bunker's."""
        rows = [sec.row for sec in game.sectors.values() if sec.bunker]
        top = max(rows) if rows else 6
        here = game.sectors[unit.sector].row
        adv = max(1, top - here)
        return adv, 2 * adv + 1

    def spec_value(self, game: GameView, unit: Unit, spec: str) -> float:
        """A Specialist's worth to this Unit, in Soldiers, for the rest of the map."""
        adv, turns = self.remaining(game, unit)
        body = float(game.value("soldier-value", unit, card=spec)) if spec in unit.specialists else (
            6.0 if spec == "paratrooper" else 1.0)
        per: dict[str, float] = {
            "beachmaster": 3.0 * adv,
            "medic": 1.0 * turns,
            "engineer": 5.0,
            "minesweeper": 3.0,
            "pathfinder": 1.2 * adv + 1,
            "platoon-leader": 0.6 * adv,
            "general": 0.25 * turns * max(1, len(game.state.active_units())),
            "sharpshooter": 0.3 * turns,
            "corporal": 0.35 * turns,
            "scout": 0.25 * turns,
            "veteran": 0.15 * turns,
            "chaplain": 0.1 * turns,
            "hero": 2.0,
            "captain": 0.2 * turns,
            "messenger": 0.5,
            "quartermaster": 0.8,
            "marksman": 0.5 * turns,
            "grenadier": 2.0,
            "lieutenant": 0.5 if len(game.state.units) > 1 else 0.3,
            "decoy": 0.5,
            "point-man": 1.0,
            "combat-photographer": 0.5,
            "war-correspondent": 0.2,
        }
        extra = per.get(spec, 0.5)
        if spec == "engineer" and not any(sec.bunker for sec in game.sectors.values()):
            extra = 0.0
        if spec == "marksman" and "skulls" in game.ignore:
            extra = 0.0
        if game.state.sides and self.foe(game) is not None:
            once, each = _against_foe(game, spec)
            extra += once + 0.6 * each * adv  # a Unit that rushes him has about one turn per Advance left
        return body + extra

    def ahead(self, game: GameView, unit: Unit) -> tuple[bool, bool, bool, bool]:
        """What lies ahead of the Unit: (a Climb, a Battle-Cry-only Sector, a Barrier, Landmines)."""
        key = (id(game.state), unit.id, unit.sector, len(unit.visited))
        found = self._ahead.get(key)
        if found is None:
            reach = _reachable(game, unit)
            climb = any(_facts(game, s).climb for s in reach)
            cry = any(_facts(game, s).battle_cry_only for s in reach)
            barrier = any(bar for s in reach for *_r, bar in game.moves[s])
            mines = any(m for s in reach for _t, _k, _c, m, _b in game.moves[s]) and "landmines" not in game.ignore
            found = self._ahead[key] = (climb, cry, barrier, mines)
            if len(self._ahead) > 256:
                self._ahead.clear()
        return found

    def item_value(self, game: GameView, unit: Unit, item: str) -> float:
        """An Item's (or Vehicle's) worth to this Unit, in Soldiers, for what lies ahead of it."""
        _adv, turns = self.remaining(game, unit)
        climbing, cry_needed, barrier, mines = self.ahead(game, unit)
        solo = len(game.state.units) == 1
        base: dict[str, float] = {
            "bangalore-torpedo": 8.0, "bazooka": 7.0, "flame-thrower": 10.0, "gammon-bomb": 3.5,
            "field-radio": 5.0, "walkie-talkie": 2.0, "signalling-lamp": 6.0, "medal-case": 3.5,
            "grenade": 3.5, "flak-vest": 4.0, "mortar": 0.5 if solo else 2.0, "pocket-bible": 2.0,
            "lucky-charm": 1.0, "command-jacket": 2.5, "dexedrine": 12.0 if cry_needed else 3.0,
            "whistle": 2.0, "mine-detector": 2.0 if mines else 0.0, "binoculars": 7.0 if climbing else 3.0,
            "carrier-pigeon": 0.0 if solo else 0.5, "shoulder-patch": 3.0, "ammo-box": 2.0,
            "dispatch-case": 0.0 if solo else 1.0, "grappling-hook": 8.0 if climbing else -1.0,
            "rope-ladder": 9.0 if climbing else -1.0, "rangefinder": 6.0 if climbing else 1.5,
            "strategic-map": 1.0, "toolkit": 2.5, "wirecutters": 1.0 if barrier else 0.0,
            "tank": 0.7 * turns, "half-track": 0.2 * turns, "armored-car": 0.3 * turns, "bulldozer": 0.4 * turns,
            "jeep": 0.35 * turns, "ambulance": 1.0 * turns,
        }
        v = base[item] if item in base else max(0.5, self._card_worth(game, unit, item)
                                                + self._standing_worth(game, item, turns, mines))
        if game.state.sides and self.foe(game) is not None:
            once, each = _against_foe(game, item)
            v += once + 0.6 * each * _adv
        if climbing and item in SKULL_HELPERS:
            # Each more Skull-giver helps less: the first turns a 21% Climb into a 47% one.
            held = sum(1 for i in unit.items if i in SKULL_HELPERS) - (1 if item in unit.items else 0)
            v /= 1.0 + held
        return v

    def star_value(self, game: GameView, unit: Unit) -> float:
        """What one more Star is worth: the best Specialist per Star within reach."""
        if not game.counts_face("star"):
            return 0.0
        best = 0.0
        hand = game.state.hands.get(unit.id, [])
        pool = [p for p in game.state.pool if game.content.card_kinds.get(p) == "specialist"]
        for spec in hand + pool:
            if spec in unit.specialists or spec in unit.dead:
                continue
            cost = self._cost(game, unit, spec)
            if cost <= 0:
                continue
            best = max(best, self.spec_value(game, unit, spec) / cost)
        return 0.7 * best

    def tool_value(self, game: GameView) -> float:
        if not game.counts_face("tool"):
            return 0.0
        if not any(game.content.card_kinds.get(p) == "item" for p in game.state.pool):
            return 0.0
        return ITEM_POINT_VALUE

    # ================================================================ dice
    def dice_context(self, game: GameView, unit: Unit, *, rolling: bool = False) -> _DiceContext:
        """How much each result is worth now; ``rolling``: the Sector's and cards' bonus results are still to
        come (during the rolls), rather than already in the Final Tally."""
        view = self.view(game, unit)
        key = (self._view_key, game.state.turn, unit.marker, unit.courage, unit.stars, unit.item_points,
               len(game.state.pool), game.state.phase, rolling)
        found = self._ctx.get(key)
        if found is not None:
            return found
        if len(self._ctx) > 64:
            self._ctx.clear()
        ctx = self._ctx[key] = self._dice_context(game, unit, view, rolling)
        return ctx

    def _dice_context(self, game: GameView, unit: Unit, view: _TurnView, rolling: bool) -> _DiceContext:
        here = _facts(game, unit.sector)
        bonus_tools = here.tools + (1 if "scout" in unit.specialists else 0) + (
            1 if unit.vehicle == "half-track" else 0)
        base_courage = unit.courage + here.courage - here.courage_penalty + (
            1 if unit.vehicle == "bulldozer" else 0)
        if not rolling:
            bonus_tools = 0
            base_courage = unit.courage
        curve = self.courage_curve(game, unit, max(0, base_courage), 8)
        climb = here.climb if here.climb and any(
            e.avail < 1 for e in view.planner.edges_of(unit.sector)) else 0
        cry = 3.0
        aim = ""
        if not here.no_battle_cry and game.flag("battle-cry-here", unit):
            cry = max(cry, self.cry_gain(game, unit, base_courage))
            # Where the plan waits for a Battle Cry (a Bunker entered only with one), the dice aim at it.
            if any(e.avail < 1 and not e.retreat and _facts(game, e.to).battle_cry_only and e.to not in unit.visited
                   for e in view.planner.edges_of(unit.sector)):
                cry = max(cry, 12.0)
                aim = "courage"
        solo = len(game.state.units) == 1
        lm, _ = view.planner.abs_loss_of(unit.sector)
        if self.rolls_here(game, unit, at_roll=True) >= view.planner.max_rolls[view.planner.index[unit.sector]]:
            nxt = [view.planner.abs_loss_of(e.to)[0] + e.loss for e in view.planner.edges_of(unit.sector)
                   if e.to not in unit.visited and not e.retreat]
            lm = min(nxt, default=lm)
        return _DiceContext(
            soldier=float(self.count(game, unit)),
            danger=lm,
            curve=curve,
            star=self.star_value(game, unit),
            tool=self.tool_value(game),
            bonus_tools=bonus_tools,
            skull_free=game.value("skulls-ignored", unit) + (0 if "skulls" not in game.ignore else 99),
            climb=climb,
            rwb={"two-soldiers": 6.0, "one-soldier": 8.0 if solo else 6.5, "courage": cry,
                 "star": 2.5, "tool": 2.0, "skull": 14 * self.tool_value(game) + 1.0},
            rwb_on="rwb" not in game.ignore,
            counts={f: game.counts_face(f) for f in FACES},
            marksman="marksman" in unit.specialists,
            aim=aim,
        )

    def cry_gain(self, game: GameView, unit: Unit, courage: int) -> float:
        """What a Battle Cry this turn would be worth over the best plain move (Soldiers)."""
        view = self.view(game, unit)
        planner = view.planner
        k = self.rolls_here(game, unit, at_roll=True)
        plain = planner.at(unit.sector, view.visited, courage, k)[0]
        if k >= planner.max_rolls[planner.index[unit.sector]]:
            # Past the horizon: the Battle Cry competes with moving now, not with waiting for ever.
            sure = self._sure_move(game, unit, courage)
            if sure > DEATH / 2:
                plain = sure
        best = plain
        for e in planner.edges_of(unit.sector):
            if e.to in unit.visited or e.retreat:
                continue
            m = planner.take(attrs.evolve(e, cost=0, loss=max(0.0, e.loss - 3.0 * (e.loss > 3.5))),
                             view.visited, courage)[0]
            best = max(best, m)
        return best - plain

    # ---------------------------------------------------------------- lock / re-roll / cancel
    def _lock(self, game: GameView, unit: Unit, d: Decision) -> tuple[int, ...]:
        ctx = self.dice_context(game, unit, rolling=True)
        dice = [(k[1], k[2]) for k in d.keys]
        rerolls = max(0, game.value("rolls", unit) - 1)
        kept = self._keep_order(ctx, [], dice, rerolls, d.min_picks, forced=True)
        picked = tuple(sorted(kept))
        self._fixed[(game.state.turn, unit.id)] = {d.keys[i][0]: dice[i] for i in picked}
        return picked

    def _reroll(self, game: GameView, unit: Unit, d: Decision) -> tuple[int, ...]:
        ctx = self.dice_context(game, unit, rolling=True)
        key = (game.state.turn, unit.id)
        done = self._rerolls.get(key, 0)
        self._rerolls[key] = done + 1
        left = max(0, game.value("rolls", unit) - 2 - done)  # re-rolls left after this one
        free = [(k[1], k[2]) for k in d.keys]
        free_idx = {k[0] for k in d.keys}
        fixed = self._fixed.get(key, {})
        aside = self._asides.get(key, set())
        # Dice neither free nor Locked by us are Skulls that may not be re-rolled here.
        stuck = [("skull", colour) for idx, colour in game._layout
                 if idx not in free_idx and idx not in fixed and idx not in aside]
        held = list(fixed.values()) + stuck
        kept = set(self._keep_order(ctx, held, free, left, len(free), forced=False))
        return tuple(i for i in range(len(free)) if i not in kept)

    @staticmethod
    def _keep_order(ctx: _DiceContext, held: list[tuple[str, str]], dice: list[tuple[str, str]], rerolls: int,
                    most: int, *, forced: bool) -> list[int]:
        """Which dice to keep, decided one at a time, each in the light of those already kept.

        A die is kept when its face is worth more than a fresh die with ``rerolls`` re-rolls to come (or,
        when ``forced`` to keep ``most`` dice, the cheapest to keep first). Results that pile up (Tools)
        count the other dice showing them; results that run out of use (a second Courage when one is
        enough) count only those already kept.
        """
        kept: list[int] = []
        ctx_kept = list(held)
        undecided = list(range(len(dice)))
        while undecided and len(kept) < most:
            best_i = -1
            best = -math.inf
            best_v = -math.inf
            for i in undecided:
                face, colour = dice[i]
                others = ctx_kept + [dice[j] for j in undecided if j != i and dice[j][0] == "tool"]
                vals = ctx.values(colour, others)
                v = vals[face] + (3.0 if forced and ctx.marksman and face == "skull" else 0.0)
                margin = v - ctx.reroll_value(vals, rerolls)
                if margin > best + 1e-9 or (abs(margin - best) <= 1e-9 and v > best_v):
                    best_i, best, best_v = i, margin, v
            if not forced and best < -1e-9:
                break
            kept.append(best_i)
            ctx_kept.append(dice[best_i])
            undecided.remove(best_i)
        return kept

    def _cancel(self, game: GameView, unit: Unit, d: Decision) -> int:
        ctx = self.dice_context(game, unit)
        live = [dd for dd in unit.tally if not dd.cancelled and dd.face != "skull"]
        best = 0
        best_v = math.inf
        for i, key in enumerate(d.keys):
            _, face, colour = key
            others = _without(live, key)
            v = ctx.values(colour, others)[face]
            if v < best_v:
                best, best_v = i, v
        return best


    # ================================================================ moving
    def _move(self, game: GameView, unit: Unit, d: Decision) -> int:
        return self.choose_move(game, unit, list(d.keys))[0]

    def here_loss(self, game: GameView, unit: Unit) -> tuple[float, float]:
        """Expected casualties (and variance) if the Unit fights in its Sector this turn."""
        view = self.view(game, unit)
        return view.planner.abs_loss_of(unit.sector)

    def move_scores(self, game: GameView, unit: Unit, moves: Sequence[Any]) -> list[tuple[float, float, float]]:
        """For each move: (survival score, mean, variance) of the plan that starts with it."""
        view = self.view(game, unit)
        planner = view.planner
        x = unit.sector
        k = self.rolls_here(game, unit, at_roll=False)
        c = unit.courage
        soldiers = self.standing(game, unit)
        edges = {e.to: e for e in planner.edges_of(x) if not e.retreat}
        out: list[tuple[float, float, float]] = []
        foe = self.foe(game)
        for m in moves:
            if foe is not None:
                # The plan counts the Unit's lead over the German; this turn's Combat must also leave the Unit
                # standing: it suffers the German's Soldiers at most (his shortfall lowers its DEF) and the rest.
                to = x if m.kind == "stay" else m.to
                lm, lv = planner.abs_loss_of(to) if to in planner.index else (0.0, 0.0)
                printed = float(game._base("def", unit, to, None, False)[0])
                lm -= max(0.0, printed - game.soldier_count(foe))
                if m.kind != "stay" and to in edges:
                    lm += edges[to].loss
                    lv += edges[to].var
                alive = 0.5 * math.erfc(-(self.count(game, unit) - lm - 0.5) / math.sqrt(2.0 * (lv + 1.0)))
            else:
                alive = 1.0
            if m.kind == "stay":
                lm, lv = planner.loss_of(x)
                o = _shift(planner.roll_at(x, view.visited, c, k + 1), -lm, lv)
                # Past the planner's horizon in a Sector without a stay limit, waiting is for what cannot
                # be had otherwise (a Battle Cry into a Bunker when no other way is any good).
                waiting = self._sure_move(game, unit, c) <= DEATH / 2
                if k >= planner.max_rolls[planner.index[x]] and len(moves) > 1 and not waiting:
                    # Past the planner's horizon in a Sector without a stay limit: stop putting it off.
                    o = _shift(o, -3.0 * (k - planner.max_rolls[planner.index[x]] + 1), 0.0)
                if view.holding:
                    o = _shift(o, 2.0, 0.0)
            else:
                to = m.to
                e = edges.get(to)
                sec = game.sectors[to]
                if sec.bunker and to not in view.targets:
                    out.append((-1.0, DEATH, 0.0))
                    continue
                if e is None:
                    mines = 3.5 if m.landmines and not game.flag("ignore-landmines", unit) else 0.0
                    e = _Edge(to, m.cost, mines, D6_VAR if mines else 0.0, 0.0, 1.0)
                if m.battle_cry:
                    sac = 0.0 if not any(r[0] == "sacrifice" for r in game._requirements(to)) else e.loss - (
                        3.5 if m.landmines else 0.0)
                    e = attrs.evolve(e, loss=max(0.0, e.loss - sac))
                e = attrs.evolve(e, cost=m.cost, avail=1.0)
                o = planner.take(e, view.visited, c)
                if m.abandons_vehicle and unit.vehicle is not None:
                    o = _shift(o, -0.3 * self.item_value(game, unit, unit.vehicle), 0.0)
                if view.holding and m.kind == "advance" and not sec.bunker:
                    o = _shift(o, -4.0, 0.0)
            out.append((alive * _survival(soldiers, o), o[0], o[2]))
        return out

    def _sure_move(self, game: GameView, unit: Unit, courage: int) -> float:
        """The utility of the best move the Unit can surely make now (no Battle Cry or Climb needed)."""
        view = self.view(game, unit)
        planner = view.planner
        return max((planner.take(e, view.visited, courage)[0] for e in planner.edges_of(unit.sector)
                    if e.avail >= 1 and e.cost <= courage and not e.retreat and e.to not in unit.visited),
                   default=DEATH)

    def choose_move(self, game: GameView, unit: Unit, moves: Sequence[Any]) -> tuple[int, float]:
        """The move with the best chance to survive (near-ties go to the most Soldiers expected)."""
        scores = self.move_scores(game, unit, moves)
        top = max(sc[0] for sc in scores)
        near = [i for i in range(len(moves)) if scores[i][0] >= top - 0.002]
        best = max(near, key=lambda i: (scores[i][1], -i))
        return best, scores[best][0]

    # ================================================================ purchases
    def _recruit(self, game: GameView, unit: Unit, d: Decision) -> int:
        best, best_v = (0 if d.keys and d.keys[0] is None else -1), 0.0
        for i, key in enumerate(d.keys):
            if key is None:
                continue
            v = self.spec_value(game, unit, key)
            if v > best_v:
                best, best_v = i, v
        if best < 0:
            return 0
        m, _ = self.here_loss(game, unit)
        if d.keys and d.keys[0] is None and self.count(game, unit) >= 2 * m + 3:
            # Wait a turn for a much better Specialist that is one Star away.
            hand = game.state.hands.get(unit.id, []) + [p for p in game.state.pool
                                                        if game.content.card_kinds.get(p) == "specialist"]
            for spec in hand:
                if spec in unit.specialists or spec in unit.dead or spec in d.keys:
                    continue
                cost = game.value("specialist-cost", unit, card=spec)
                if cost == unit.stars + 1 and self.spec_value(game, unit, spec) >= 2 * best_v + 2:
                    return 0
            if best_v < 1.0:
                return 0
        return best

    def _find(self, game: GameView, unit: Unit, d: Decision) -> int:
        best, best_v = 0, 0.0
        for i, key in enumerate(d.keys):
            if key is None:
                continue
            card = key[0] if isinstance(key, tuple) else key
            cost = key[1] if isinstance(key, tuple) else game.value("item-cost", unit, card=card)
            v = self.item_value(game, unit, card)
            if v < 1.0 or v < 0.2 * cost:
                continue
            if v > best_v:
                best, best_v = i, v
        if best == 0 and (not d.keys or d.keys[0] is not None):
            return 0
        return best

    # ================================================================ casualties
    def _casualty(self, game: GameView, unit: Unit, d: Decision) -> int:
        soldiers = [(k[1], i) for i, k in enumerate(d.keys) if k[0] == "soldiers"]
        if soldiers:
            return max(soldiers)[1]
        remaining = _number(d.prompt, default=1)
        best, best_r = 0, math.inf
        for i, k in enumerate(d.keys):
            sv = game.value("soldier-value", unit, card=k[1])
            r = self.spec_value(game, unit, k[1]) / max(1, min(sv, remaining))
            if r < best_r:
                best, best_r = i, r
        return best

    def _sacrifice(self, game: GameView, unit: Unit, d: Decision) -> int:
        keys = d.keys or tuple(unit.specialists)
        return min(range(len(keys)), key=lambda i: (self.spec_value(game, unit, keys[i]), i))

    def _absorb(self, game: GameView, unit: Unit, d: Decision) -> int:
        most = d.size() - 1
        pending = game.pending_casualties
        lethal = pending >= self.count(game, unit)
        if lethal:
            return most
        if "star" in d.prompt.lower():
            return most if self.star_value(game, unit) < 0.8 else 0
        # Courage the route ahead can still use is kept; the rest saves Soldiers.
        view = self.view(game, unit)
        keep = view.planner.need[view.planner.index[unit.sector]]
        return max(0, min(most, unit.courage - keep))

    # ================================================================ choices
    def _or(self, game: GameView, unit: Unit, d: Decision) -> int:
        vals = [self.label_value(game, unit, label) for label in d.options]
        return max(range(len(vals)), key=lambda i: (vals[i], -i))

    def pending_courage(self, game: GameView, unit: Unit) -> int:
        if game.state.phase not in {"roll", "upkeep"}:
            return unit.courage
        extra = sum(1 for dd in unit.tally if dd.face == "courage" and not dd.cancelled)
        return unit.courage + extra

    def label_value(self, game: GameView, unit: Unit, label: str) -> float:
        text = label.lower()
        solo = len(game.state.units) == 1
        if ("battle cry" in text or "battle-cry" in text) and ("allow" in text or "move" in text):
            return self.cry_gain(game, unit, self.pending_courage(game, unit))
        if "add 1 result" in text:
            return self.best_add(game, unit, "white")[1]
        if "find 1 item" in text:
            pts = unit.item_points
            vals = [self.item_value(game, unit, c) for c, cost in game.findable(unit, free=True)
                    if game.value("item-cost", unit, card=c) <= pts]
            return max(vals, default=0.0)
        drawn = re.search(r"draw (\d+) ([a-z -]+)", text)
        if drawn is not None:
            return int(drawn.group(1)) * self.draw_value(game, unit, drawn.group(2).strip())
        m = re.search(r"gain (\d+) (soldier|star|courage|item)", text)
        if m is None:
            return 0.0
        n = int(m.group(1))
        what = m.group(2)
        other = "another unit" in text and not solo
        if what == "soldier":
            return float(n) * (0.8 if other else 1.0)
        if what == "star":
            return n * self.star_value(game, unit)
        if what == "courage":
            if other:
                return 0.8 * n
            c = self.pending_courage(game, unit)
            return max(0.1 * n, self.plan_value(game, unit, c + n, at_roll=True)
                       - self.plan_value(game, unit, c, at_roll=True))
        return 0.0

    def draw_value(self, game: GameView, unit: Unit, name: str) -> float:
        """What a card drawn at random from a deck (a Badge) is worth, in Soldiers: the mean over the kind's cards
        this game can hold of what each one's use does (_card_worth)."""
        kind = next((k for k in game.content.kinds.kinds if name in {k.id, k.name.lower(), k.plural.lower()}), None)
        if kind is None:
            return 0.0
        cards = [cid for cid, k in game.content.card_kinds.items() if k == kind.id and not game._unavailable(cid)]
        return sum(self._card_worth(game, unit, cid) for cid in cards) / len(cards) if cards else 0.0

    def _card_worth(self, game: GameView, unit: Unit, card: str) -> float:
        """What playing a card is worth, read from its use effect: resources gained at their value, a defence or a
        cheaper move a little (it waits for the turn that needs it), anything else less."""
        source = game.content.effects.get(card)
        worth = 0.0
        for clause in source.tree.clauses if source is not None else ():
            body = clause.body
            if not isinstance(body, dsl_ast.Use):
                continue
            for action in body.actions:
                worth += max((sum(self._statement_worth(game, unit, st, option.recipient is not None)
                                  for st in (option.statement, *(o.statement for o in option.also)))
                              for option in action.options), default=0.0)
        return worth

    @staticmethod
    def _standing_worth(game: GameView, card: str, turns: float, mines: bool) -> float:
        """What a card's standing changes (a Vehicle's 'advance-cost -1') are worth over the turns ahead."""
        source = game.content.effects.get(card)
        per_turn = {"defence": 0.5, "cost": 0.3, "mines": 0.3 if mines else 0.0}
        worth = 0.0
        for clause in source.tree.clauses if source is not None else ():
            if isinstance(clause.body, dsl_ast.Modifier):
                worth += per_turn.get(_statement_kind(clause.body.statement, False), 0.0) * turns
        return worth

    def _statement_worth(self, game: GameView, unit: Unit, st: dsl_ast.Statement, to_another: bool) -> float:
        kind = _statement_kind(st, to_another)
        if st.verb.name == "gain":
            n = next((a.value for a in st.args if isinstance(a, dsl_ast.Number)), 1)
            what = next((a.name for a in st.args if isinstance(a, dsl_ast.Word)), "")
            per = {"soldiers": 1.0, "courage": 0.8, "stars": self.star_value(game, unit), "item-points": 0.25}
            return n * per.get(what, 0.5) * (0.8 if to_another else 1.0)
        return {"defence": 2.0, "cost": 1.0, "mines": 1.0, "gain": 1.5, "self-cost": -1.0}.get(kind, 0.5)

    def best_add(self, game: GameView, unit: Unit, colour: str | None) -> tuple[str, float]:
        ctx = self.dice_context(game, unit)
        others = [(dd.face, dd.colour) for dd in unit.tally if not dd.cancelled]
        vals = ctx.values(colour, others)
        face = max(FACES, key=lambda f: (vals[f], f))
        return face, vals[face]

    def _choose(self, game: GameView, unit: Unit, d: Decision) -> int:
        p = d.prompt.lower()
        keys = d.keys
        n = d.size()
        intent = self._intent
        if "re-roll which die" in p:
            want = intent.pop("reroll", None)
            for i, k in enumerate(keys):
                if want is not None and k[0] == want:
                    return i
            return self._worst_die(game, unit, [(k[0], k[1]) for k in keys])
        if "change the colour of which die" in p:
            want = intent.get("recolour")
            for i, k in enumerate(keys):
                if want is not None and k[0] == want[0]:
                    return i
            return 0
        if "to which colour" in p:
            want = intent.pop("recolour", None)
            if want is not None and want[1] in keys:
                return keys.index(want[1])
            return 0
        if "set the mgf die" in p:
            return 0
        if "change which die" in p:
            want = intent.get("reface")
            labels = d.options
            if want is not None:
                for i, label in enumerate(labels):
                    if label == want[0]:
                        return i
            return 0
        if re.search(r"change .* to\?", p):
            want = intent.pop("reface", None)
            if want is not None and want[1] in keys:
                return keys.index(want[1])
            colour = "blue" if "blue" in p else ("red" if "red" in p else ("white" if "white" in p else None))
            face = self.best_add(game, unit, colour)[0]
            return keys.index(face) if face in keys else 0
        if "which result to add" in p:
            colour = "white" if "white" in p else None
            face = self.best_add(game, unit, colour)[0]
            if "leadership" in p:
                face = self.best_add(game, unit, "white")[0]
            return keys.index(face) if face in keys else 0
        if "take which die" in p and keys and isinstance(keys[0], tuple) and len(keys[0]) == 3:
            ctx = self.dice_context(game, unit)
            others = [(dd.face, dd.colour) for dd in unit.tally if not dd.cancelled]
            return max(range(n), key=lambda i: (ctx.values(None, others).get(keys[i][1], 0.0), -i))
        if "which colour" in p:
            have = {dd.colour for dd in unit.tally if dd.face == "skull" and not dd.cancelled and dd.real}
            for i, colour in enumerate(keys):
                if colour not in have:
                    return i
            return 0
        if "choose an award" in p:
            pref = ("victoria-cross", "memorial-cross", "legion-of-merit")
            order = {a: j for j, a in enumerate(pref)}
            # The printed three first (the heuristic has rules for them), then the others by what their use does.
            return min(range(n), key=lambda i: (order.get(keys[i], 9), -self._card_worth(game, unit, str(keys[i])), i))
        if "which other unit" in p or "copy whose" in p:
            return self._neediest(game, list(keys)) if keys else 0
        if "which adjacent sector" in p:
            mates = {u.sector for u in game.state.active_units() if u is not unit}
            for i, k in enumerate(keys):
                if k in mates:
                    return i
            return 0
        if "in place of" in p:
            return 1 if "yes" in [o.lower() for o in d.options] else 0
        return 0

    def _worst_die(self, game: GameView, unit: Unit, keys: Sequence[tuple[int, str]]) -> int:
        ctx = self.dice_context(game, unit)
        live = [dd for dd in unit.tally if not dd.cancelled]
        best, best_gain = 0, -math.inf
        for i, (idx, face) in enumerate(keys):
            die = next((dd for dd in live if dd.index == idx), None)
            colour = die.colour if die is not None else None
            others = [(dd.face, dd.colour) for dd in live if dd is not die]
            vals = ctx.values(colour, others)
            gain = ctx.reroll_value(vals, 0) - vals.get(face, 0.0)
            if gain > best_gain:
                best, best_gain = i, gain
        return best

    def _neediest(self, game: GameView, ids: list[Any]) -> int:
        def need(uid: Any) -> float:
            try:
                u = game.state.unit(str(uid))
            except KeyError:
                return 0.0
            if u.status != "active":
                return -1e9
            m, _ = self.here_loss(game, u)
            return m - self.count(game, u)
        return max(range(len(ids)), key=lambda i: (need(ids[i]), -i))

    # ================================================================ uses
    def _use(self, game: GameView, unit: Unit, d: Decision) -> int:
        m = re.search(r"\(([a-z-]+)\)\?\s*$", d.prompt)
        point = m.group(1) if m is not None else self._point(game, unit)
        for i, key in enumerate(d.keys):
            if key is None:
                continue
            owner = key[0]
            if self.wants_use(game, unit, owner, point):
                return i
        return 0

    @staticmethod
    def _point(game: GameView, unit: Unit) -> str:
        phase = game.state.phase
        if phase == "combat":
            sec = game.state.sectors[unit.sector]
            return "after-mgf" if sec.mgf_turn == game.state.turn else "before-mgf"
        return {"roll": "after-final-tally", "purchase": "purchase", "movement": "movement"}.get(phase, phase)

    def wants_use(self, game: GameView, unit: Unit, owner: str, point: str) -> bool:
        s = game.state
        sec = game.sectors[unit.sector]
        after_tally = point == "after-final-tally"
        in_bunker_now = sec.bunker and unit.entered_turn == s.turn
        if point == "after-first-roll":  # offered only to re-roll a bad first roll (an option's Soldier Mulligan)
            return True
        if s.sides and owner in game.content.cards and any(_against_foe(game, owner)) and self.foe(game) is not None:
            return True  # what hurts the German is used as soon as it may be: his losses shrink him for the Assault
        if owner in {"field-radio", "walkie-talkie", "signalling-lamp", "medal-case", "lucky-charm",
                     "pocket-bible"}:
            return point != "after-first-roll"
        if owner in {"memorial-cross", "legion-of-merit", "command-jacket"}:
            return after_tally
        if owner == "shoulder-patch":
            return after_tally and unit.recruited == 0 and unit.soldiers > 2
        if owner == "victoria-cross":
            return after_tally and self._deadly_turn(game, unit)
        if owner in {"corporal", "jeep"}:
            return after_tally and self._plan_reroll(game, unit)
        if owner in {"captain", "strategic-map"}:
            return after_tally and self._plan_recolour(game, unit)
        if owner in SKULL_HELPERS and after_tally and _facts(game, unit.sector).climb:
            return self._climb_help(game, unit, owner)
        if owner == "rangefinder":
            return after_tally and self._plan_reface(game, unit, "blue", 1.5)
        if owner == "binoculars":
            if point == "after-mgf":
                rolls = s.sectors[unit.sector].mgf_roll or []
                if rolls and s.sectors[unit.sector].mgf_turn == s.turn and max(rolls) >= 4 and (
                        sec.bunker or self._lethal(game, unit)):
                    self._intent["reface"] = (f"MGF die {rolls.index(max(rolls)) + 1}", None)
                    return True
                return False
            return after_tally and self._plan_reface(game, unit, None, 3.0)
        if owner == "ammo-box":
            return after_tally and self._plan_ammo(game, unit)
        if owner == "toolkit":
            tools = sum(1 for dd in unit.tally if dd.face == "tool" and not dd.cancelled)
            return after_tally and self.tool_value(game) > 0 and tools >= 2
        if owner in {"grappling-hook", "rope-ladder"}:
            return False
        if owner in BUNKER_BREAKERS or owner == "bangalore-torpedo":
            if point not in {"before-mgf", "after-mgf"}:
                return False
            if game.value("def", unit) <= 0:
                return False
            if owner == "flame-thrower" and not sec.bunker:
                return False
            if owner == "bangalore-torpedo" and sec.bunker:
                return False
            if in_bunker_now and owner != "bangalore-torpedo":
                return True
            if point == "after-mgf" and self._lethal(game, unit):
                return True
            return owner == "bangalore-torpedo" and point == "after-mgf" and game.value("def", unit) >= 8
        if owner == "grenade":
            if point != "before-mgf" or game.value("mgf-dice", unit) <= 0:
                return False
            m, _ = self.here_loss(game, unit)
            return in_bunker_now or m >= self.count(game, unit) - 2
        if owner == "flak-vest":
            if point != "after-mgf":
                return False
            rolls = s.sectors[unit.sector].mgf_roll or []
            if not rolls or s.sectors[unit.sector].mgf_turn != s.turn:
                return False
            return sum(rolls) >= 5 or self._lethal(game, unit) or (in_bunker_now and sum(rolls) >= 3)
        if owner == "grenadier":
            if point != "before-mgf" or sec.bunker or game.value("mgf-dice", unit) <= 0:
                return False
            return self._lethal(game, unit, expected=True)
        if owner == "mortar":
            return False
        if point == "movement":
            return self._wants_movement_use(game, unit, owner)
        if owner == "rule:buy-award":
            c = unit.courage
            drop = self.plan_value(game, unit, c, at_roll=False) - self.plan_value(game, unit, c - 6, at_roll=False)
            return drop < 3.0
        if owner in game.content.cards and owner not in _OWN_RULES:
            return self._generic_wants(game, unit, owner, point)
        return False

    def _generic_wants(self, game: GameView, unit: Unit, owner: str, point: str) -> bool:
        """A card the heuristic has no rule of its own for, played by what its effect does (_generic_use)."""
        kind = _generic_use(game, owner)
        if kind == "gain":
            return True
        if kind == "defence":
            if point == "after-final-tally":
                return self._deadly_turn(game, unit)
            if point in {"before-mgf", "after-mgf", "combat"}:
                sec = game.sectors[unit.sector]
                if sec.bunker and unit.entered_turn == game.state.turn:
                    return True
                m, _ = self.here_loss(game, unit)
                return m >= self.count(game, unit) - 2
            return False
        if kind in {"cost", "mines"} and point == "movement":
            moves = game.legal_moves(unit)
            if not moves:
                return False
            best = moves[self.choose_move(game, unit, moves)[0]]
            if kind == "cost":
                return best.kind == "advance" and best.cost >= 1 and not best.battle_cry
            return best.landmines and not game.flag("ignore-landmines", unit)
        return False

    def _wants_movement_use(self, game: GameView, unit: Unit, owner: str) -> bool:
        moves = game.legal_moves(unit)
        if not moves:
            best_i, best_z = -1, -math.inf
        else:
            best_i, best_z = self.choose_move(game, unit, moves)
        best = moves[best_i] if best_i >= 0 else None
        if owner == "whistle":
            return best is not None and best.kind == "advance" and best.cost >= 2 and not best.battle_cry
        if owner == "mine-detector":
            return best is not None and best.landmines and not game.flag("ignore-landmines", unit)
        if owner == "dexedrine":
            return self.cry_gain(game, unit, unit.courage) > 3.0
        if owner == "wirecutters":
            view = self.view(game, unit)
            barrier = [to for to, _k, _c, _m, bar in game.moves[unit.sector] if bar and to not in unit.visited]
            if not barrier:
                return False
            edges = [e for e in view.planner.edges_of(unit.sector) if e.to in barrier and e.cost <= unit.courage]
            soldiers = self.standing(game, unit)
            return any(_survival(soldiers, view.planner.take(e, view.visited, unit.courage)) > best_z + 0.01
                       for e in edges)
        if owner == "point-man":
            if any(m.kind == "stay" for m in moves):
                return False
            view = self.view(game, unit)
            lm, lv = view.planner.loss_of(unit.sector)
            o = _shift(view.planner.roll_at(unit.sector, view.visited, unit.courage, 2), -lm, lv)
            return _survival(self.standing(game, unit) - 1, o) > best_z + 0.02
        if owner.startswith(f"{game.map.id}/"):
            # A Sector's use during movement: the retreat from a failed Climb.
            f = _facts(game, unit.sector)
            if f.retreat is None or f.retreat in unit.visited:
                return False
            view = self.view(game, unit)
            if not any(e.retreat for e in view.planner.edges_of(unit.sector)):
                return False
            o = view.planner.at(f.retreat, view.visited | view.planner.mask([f.retreat]), unit.courage, 0)
            return _survival(self.standing(game, unit), o) > best_z
        if owner in game.content.cards and owner not in _OWN_RULES:
            return self._generic_wants(game, unit, owner, "movement")
        return False

    def _climb_help(self, game: GameView, unit: Unit, owner: str) -> bool:
        """Use a Skull-giving Item (or a die-changing one) when it completes this turn's Climb."""
        need = _facts(game, unit.sector).climb
        skulls = sum(1 for dd in unit.tally if dd.face == "skull")
        others = [dd for dd in unit.tally if dd.face != "skull"]
        blue = any(dd.colour == "blue" and dd.real for dd in others)
        helpers = sum(1 for item in unit.items if item in {"grappling-hook", "rope-ladder"}
                      or (item == "binoculars" and others) or (item == "rangefinder" and blue))
        if not skulls < need <= skulls + helpers:
            return False
        if owner in {"binoculars", "rangefinder"}:
            cands = [dd for dd in others if owner == "binoculars" or (dd.colour == "blue" and dd.real)]
            if not cands:
                return False
            die = cands[0]
            self._intent["reface"] = (f"{die.colour} {die.face}", "skull")
        return True

    def _lethal(self, game: GameView, unit: Unit, *, expected: bool = False) -> bool:
        s = game.state
        d = game.value("def", unit)
        if expected:
            loss = d + MGF_MEAN * game.value("mgf-dice", unit)
        else:
            rolls = s.sectors[unit.sector].mgf_roll or []
            mgf = sum(rolls) if s.sectors[unit.sector].mgf_turn == s.turn else 0
            if game.flag("ignore-mgf-casualties", unit):
                mgf = 0
            loss = d + mgf
        return loss >= self.count(game, unit)

    def _deadly_turn(self, game: GameView, unit: Unit) -> bool:
        view = self.view(game, unit)
        courage = self.pending_courage(game, unit)
        for to, _kind, _cost, _m, _b in game.moves[unit.sector]:
            if to in view.targets and to not in unit.visited:
                cost = game.sectors[to].cost or 0
                if game.value("advance-cost", unit, base=cost) <= courage:
                    return True
        m, _ = self.here_loss(game, unit)
        return m >= self.count(game, unit)

    def _tally_values(self, game: GameView, unit: Unit) -> tuple[_DiceContext, list[Die], list[float]]:
        ctx = self.dice_context(game, unit)
        live = [dd for dd in unit.tally if not dd.cancelled]
        vals = []
        for dd in live:
            others = [(o.face, o.colour) for o in live if o is not dd]
            vals.append(ctx.values(dd.colour, others)[dd.face])
        return ctx, live, vals

    def _plan_reroll(self, game: GameView, unit: Unit) -> bool:
        ctx, live, vals = self._tally_values(game, unit)
        best, best_gain = None, 0.3
        for dd, v in zip(live, vals, strict=True):
            if dd.locked or not dd.real:
                continue
            if dd.face == "skull" and not game.flag("reroll-skull", unit):
                continue
            others = [(o.face, o.colour) for o in live if o is not dd]
            gain = ctx.reroll_value(ctx.values(dd.colour, others), 0) - v
            if gain > best_gain:
                best, best_gain = dd.index, gain
        if best is None:
            return False
        self._intent["reroll"] = best
        return True

    def _plan_recolour(self, game: GameView, unit: Unit) -> bool:
        ctx, live, vals = self._tally_values(game, unit)
        best, best_gain = None, 1.5
        for dd, v in zip(live, vals, strict=True):
            if not dd.real:
                continue
            others = [(o.face, o.colour) for o in live if o is not dd]
            for colour in game.content.dice.colours:
                if colour == dd.colour:
                    continue
                gain = ctx.values(colour, others)[dd.face] - v
                # Moving this die may break a triple it was part of: values() already counts that.
                if gain > best_gain:
                    best, best_gain = (dd.index, colour), gain
        if best is None:
            return False
        self._intent["recolour"] = best
        return True

    def _plan_reface(self, game: GameView, unit: Unit, colour: str | None, threshold: float) -> bool:
        ctx, live, vals = self._tally_values(game, unit)
        best, best_gain = None, threshold
        for dd, v in zip(live, vals, strict=True):
            if colour is not None and dd.colour != colour:
                continue
            if not dd.real and colour is not None:
                continue
            others = [(o.face, o.colour) for o in live if o is not dd]
            fv = ctx.values(dd.colour, others)
            face = max(FACES, key=lambda f: fv[f])
            if fv[face] - v > best_gain:
                best, best_gain = (f"{dd.colour} {dd.face}", face), fv[face] - v
        if best is None:
            return False
        self._intent["reface"] = best
        return True

    def _plan_ammo(self, game: GameView, unit: Unit) -> bool:
        skulls = [dd for dd in unit.tally if dd.face == "skull" and not dd.cancelled]
        if len(skulls) < 1 or _facts(game, unit.sector).climb:
            return False
        face = self.best_add(game, unit, None)[0]
        self._intent["reface"] = (None, face)
        return len(skulls) >= 2 or face == "two-soldiers"

    # ================================================================ the rest
    def _start(self, game: GameView, unit: Unit, d: Decision) -> int:
        def score(sid: str) -> float:
            st = game.sectors[sid].start
            if st is None:
                return -1e9
            v = st.soldiers + 0.7 * st.courage + 0.5 * st.stars + 0.3 * st.item_points
            v += sum(1.5 for _ in st.specialists)
            return v
        return max(range(d.size()), key=lambda i: (score(d.keys[i]), -i))

    def _remain(self, game: GameView, unit: Unit, d: Decision) -> int:
        open_obj = [b for b, sec in game.sectors.items() if sec.bunker and sec.objective
                    and b not in game.state.conquered]
        others = [u for u in game.state.active_units() if u is not unit]
        want = "remain" if open_obj and not others else "leave"
        return d.keys.index(want) if want in d.keys else 0

    def _aside(self, game: GameView, unit: Unit, d: Decision) -> tuple[int, ...]:
        picks = tuple(range(d.min_picks))
        self._asides[(game.state.turn, unit.id)] = {d.keys[i] for i in picks}
        return picks

    def _trade(self, game: GameView, unit: Unit, d: Decision) -> int:
        if game.state.phase == "combat":
            return self._rescue(game, unit, d)
        # Phase 3: hand over what is worth more to a comrade of the Sector, and even out the Soldiers.
        mine_m = self._margin(game, unit)
        for i, key in enumerate(d.keys):
            if key is None:
                continue
            oid, what = key
            other = game.state.unit(oid)
            if other.status != "active":
                continue
            if what in unit.items:
                if self.item_value(game, other, what) > self.item_value(game, unit, what) + 1.0:
                    return i
            elif what == "soldiers":
                if unit.soldiers > 1 and mine_m - self._margin(game, other) >= 4.0:
                    return i
            elif what == "courage":
                give = self.plan_value(game, unit, unit.courage, at_roll=False) - self.plan_value(
                    game, unit, unit.courage - 1, at_roll=False)
                take = self.plan_value(game, other, other.courage + 1, at_roll=False) - self.plan_value(
                    game, other, other.courage, at_roll=False)
                if take > give + 1.0:
                    return i
        return 0

    def _margin(self, game: GameView, unit: Unit) -> float:
        """Soldiers the Unit is expected to have left in the Bunker."""
        view = self.view(game, unit)
        k = self.rolls_here(game, unit, at_roll=False)
        o = view.planner.at(unit.sector, view.visited, unit.courage, k)
        return self.standing(game, unit) + o[1] - 30.0 * (1.0 - o[3])

    def _rescue(self, game: GameView, unit: Unit, d: Decision) -> int:
        """After the MGF roll: give Soldiers to a comrade this combat would wipe out, if they can be spared."""
        mine = self._combat_loss_now(game, unit)
        spare = self.count(game, unit) - mine - 2
        if spare <= 0 or unit.soldiers <= 1:
            return 0
        for i, key in enumerate(d.keys):
            if key is None or key[1] != "soldiers":
                continue
            other = game.state.unit(key[0])
            if other.status != "active":
                continue
            need = self._combat_loss_now(game, other) - self.count(game, other) + 1
            if need > 0:
                return i
        return 0

    def _combat_loss_now(self, game: GameView, unit: Unit) -> int:
        s = game.state
        d = game.value("def", unit)
        rolls = s.sectors[unit.sector].mgf_roll or []
        mgf = sum(rolls) if s.sectors[unit.sector].mgf_turn == s.turn else 0
        if game.flag("ignore-mgf-casualties", unit):
            mgf = 0
        loss = d + mgf
        v, _ = game.query("casualties", unit, base=loss)
        return int(v)

    def _dice_trade(self, game: GameView, unit: Unit, d: Decision) -> int:
        if d.keys:
            return 0
        order = ("tool", "star", "one-soldier", "courage", "two-soldiers", "skull")
        rank = {f: i for i, f in enumerate(order)}
        return min(range(d.size()), key=lambda i: (rank.get(d.options[i].split()[-1], 9), i))

    def _mulligan(self, game: GameView, unit: Unit, d: Decision) -> int:
        return 1 if d.size() > 1 else 0


@attrs.frozen
class _DiceContext:
    soldier: float  # the Unit's Soldiers now
    danger: float  # the casualties expected in this turn's combat
    curve: list[float]  # plan value with base Courage + i
    star: float
    tool: float
    bonus_tools: int
    skull_free: int
    climb: int
    rwb: dict[str, float]
    rwb_on: bool
    counts: dict[str, bool]
    marksman: bool
    aim: str = ""  # a Red-White-Blue triple the dice aim at (the Battle Cry a Bunker needs)

    def courage_value(self, have: int) -> float:
        c = self.curve
        if have + 1 >= len(c):
            return max(0.0, c[-1] - c[-2]) if len(c) > 1 else 0.0
        return max(0.0, c[have + 1] - c[have])

    def values(self, colour: str | None, others: Sequence[tuple[str, str | None]]) -> dict[str, float]:
        """The worth of each face on a die of ``colour``, the other results being ``others``."""
        counts = dict.fromkeys(FACES, 0)
        for f, _ in others:
            if f in counts:
                counts[f] += 1
        table = (0, 1, 3, 6, 12, 24, 48)
        t = counts["tool"] + self.bonus_tools
        tool_gain = (table[min(t + 1, 6)] - table[min(t, 6)]) if t < 6 else 24
        # Soldiers are worth more when this turn's combat threatens to wipe the Unit out.
        men = self.soldier + counts["one-soldier"] + 2 * counts["two-soldiers"]
        w = 1.0 + 2.0 / (1.0 + math.exp(min(50.0, (men - self.danger - 2.0) / 1.5)))
        vals = {
            "one-soldier": w,
            "two-soldiers": 2.0 * w,
            "courage": self.courage_value(counts["courage"]),
            "star": self.star,
            "tool": self.tool * tool_gain,
        }
        # A Skull cancels the weakest other result (or nothing, while the Sharpshooter's are unused).
        if counts["skull"] + 1 <= self.skull_free:
            skull = 0.0
        else:
            weakest = [vals.get(f, 0.0) for f, _ in others if f != "skull"]
            skull = -min(weakest) if weakest else 0.0
            skull = min(0.0, skull)
        if self.climb:
            skull = 10.0 if counts["skull"] < self.climb else 0.0
        vals["skull"] = skull
        for f in FACES:
            if not self.counts.get(f, True):
                vals[f] = 0.0
        if self.rwb_on and colour is not None:
            for f in FACES:
                if not self.counts.get(f, True) and f != "skull":
                    continue
                have = {c for ff, c in others if ff == f and c is not None}
                if colour in have:
                    continue
                if len(have) >= 2:
                    vals[f] += self.rwb[f]
                elif f == self.aim:
                    vals[f] += self.rwb[f] * (0.5 if have else 0.25)
                elif have:
                    vals[f] += 0.15 * self.rwb[f]
        return vals

    @staticmethod
    def reroll_value(vals: dict[str, float], rerolls_after: int) -> float:
        """Expected worth of re-rolling a die now, with ``rerolls_after`` more re-rolls to come."""
        u = sum(vals.values()) / 6
        for _ in range(rerolls_after):
            u = sum(max(v, u) for v in vals.values()) / 6
        return u


def _without(live: Sequence[Die], key: tuple[int, str, str | None]) -> list[tuple[str, str | None]]:
    out: list[tuple[str, str | None]] = []
    skipped = False
    for d in live:
        if not skipped and d.index == key[0] and d.face == key[1] and d.colour == key[2]:
            skipped = True
            continue
        out.append((d.face, d.colour))
    return out


def _assign(game: GameView, active: list[Unit], bunkers: list[str],
            may_enter: Callable[[GameView, Unit, str], bool]) -> dict[str, str]:
    """Share the open objective Bunkers out between the active Units (the same answer for every Unit)."""
    import itertools

    dist = {u.id: _hops(game, u, may_enter) for u in active}
    order = sorted(bunkers, key=lambda b: (game.sectors[b].column or 0, b))
    units = sorted(active, key=lambda u: u.id)
    best: tuple[float, tuple[str, ...]] | None = None
    n = min(len(units), len(order))
    for perm in itertools.permutations(order, n):
        cost = sum(dist[units[i].id].get(perm[i], 99) for i in range(n))
        if best is None or cost < best[0]:
            best = (cost, perm)
    assert best is not None
    return {units[i].id: best[1][i] for i in range(n)}


def _first_entry_sectors(game: GameView) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Sectors whose first entry gives something (a free card, an Award) or where a card waits; and Sectors
    that draw a random attribute."""
    key = (id(game.content), game.map.id, game.variant.id if game.variant else None)
    found = _FIRSTS.get(key)
    if found is None:
        placed = {p.sector for p in game.map.placed}
        texts = {sid: " ".join(src.text for src in game._sector_sources(sid)) for sid in game.sectors}
        found = (tuple(sid for sid in game.sectors if sid in placed or "first-enter" in texts[sid]),
                 tuple(sid for sid in game.sectors if "attribute" in texts[sid]))
        _FIRSTS[key] = found
    return found


_FIRSTS: dict[tuple[Any, ...], tuple[tuple[str, ...], tuple[str, ...]]] = {}
#: Specialists whose effect reaches other Units' plans (Locks, costs).
_SHARED = frozenset({"general", "quartermaster", "messenger", "lieutenant"})


def _sector_uses_offered(game: GameView, sector: str) -> bool:
    """Does the engine offer a Sector's own uses (Pointe-du-Hoc's retreat) to a Unit standing there?

    Probed once per map on a throwaway game, so the planner counts on the retreat only where it exists.
    """
    key = (id(game.content), game.map.id, game.variant.id if game.variant else None, sector)
    found = _OFFERED.get(key)
    if found is None:

        probe = Game(game.content, game.map.id, players=1, seed=0,
                      variant=game.variant.id if game.variant else None, options=game.options,
                      deciders=[ReferencePolicy()])
        u = probe.state.units[0]
        probe.state.turn = 10
        u.sector, u.visited, u.entered_turn, u.marker = sector, [sector], 1, "must-move"
        owner = f"{game.map.id}/{sector}"
        found = any(src.owner == owner for src, *_rest in probe.available_uses(u, "movement"))
        _OFFERED[key] = found
    return found


_OFFERED: dict[tuple[Any, ...], bool] = {}


def _reachable(game: GameView, unit: Unit) -> list[str]:
    """The Sectors the Unit may still reach (its own first), in the map's order."""
    seen = {unit.sector}
    todo = [unit.sector]
    while todo:
        x = todo.pop()
        nxt = [to for to, _kind, _cost, _mines, _barrier in game.moves[x]]
        retreat = _facts(game, x).retreat
        if retreat is not None:
            nxt.append(retreat)
        for to in nxt:
            if to not in seen and to not in unit.visited:
                seen.add(to)
                todo.append(to)
    return [unit.sector] + [s for s in game.sectors if s in seen and s != unit.sector]


def _hops(game: GameView, unit: Unit, may_enter: Callable[[GameView, Unit, str], bool]) -> dict[str, int]:
    dist = {unit.sector: 0}
    todo = [unit.sector]
    while todo:
        nxt = []
        for x in todo:
            for to, _kind, _cost, _mines, _barrier in game.moves[x]:
                if to in dist or to in unit.visited:
                    continue
                if not may_enter(game, unit, to) and _facts(game, to).enter_unless is None:
                    continue
                dist[to] = dist[x] + 1
                nxt.append(to)
        todo = nxt
    return dist


_HANDLERS: dict[str, Any] = {
    "lock": HeuristicPolicy._lock,
    "reroll": HeuristicPolicy._reroll,
    "cancel": HeuristicPolicy._cancel,
    "move": HeuristicPolicy._move,
    "recruit": HeuristicPolicy._recruit,
    "find": HeuristicPolicy._find,
    "casualty": HeuristicPolicy._casualty,
    "sacrifice": HeuristicPolicy._sacrifice,
    "absorb": HeuristicPolicy._absorb,
    "or": HeuristicPolicy._or,
    "choose": HeuristicPolicy._choose,
    "use": HeuristicPolicy._use,
    "start": HeuristicPolicy._start,
    "remain": HeuristicPolicy._remain,
    "aside": HeuristicPolicy._aside,
    "trade": HeuristicPolicy._trade,
    "dice-trade": HeuristicPolicy._dice_trade,
    "mulligan": HeuristicPolicy._mulligan,
}


def _number(text: str, default: int) -> int:
    m = re.search(r"(\d+)", text)
    return int(m.group(1)) if m is not None else default


def make_policy(name: str, seed: int = 0) -> Decider:
    if name == "random":
        return RandomDecider(seed)
    if name == "reference":
        return ReferencePolicy()
    if name == "heuristic":
        return HeuristicPolicy()
    raise ValueError(f"no policy '{name}' (policies: {', '.join(POLICIES)})")


def describe(name: str) -> str:
    return {"random": "uniformly random legal choices (seeded)",
            "reference": "the fixed reference policy of DESIGN.md section 10",
            "heuristic": "a competent player (a route planner, dice valued in context, cards when they pay)"
            }.get(name, name)


__all__: list[Any] = ["POLICIES", "HeuristicPolicy", "describe", "make_policy"]
