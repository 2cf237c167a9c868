"""The route planner: the chance a Unit comes through and the Soldiers it gains, for the best plan from a state."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any, Final

from ddaydice.interpreter.policies.heuristic.model import CMAX, COURAGE_TARGETS, DEATH, ROLL_VAR


class Edge:
    """A move the plan may make from a Sector, priced. (A plain class rather than an attrs one, here and in the
    heuristic's other modules, so that it is a native class when compiled with mypyc; its attributes are Final,
    equality and hash by value, as an attrs frozen class's.)"""

    __slots__ = ("_hash", "avail", "bonus", "cost", "loss", "retreat", "to", "var")

    def __init__(self, to: str, cost: int, loss: float, var: float, bonus: float, avail: float,
                 retreat: bool = False) -> None:
        self.to: Final = to
        self.cost: Final = cost
        self.loss: Final = loss  # Landmines, a sacrifice (as Soldiers)
        self.var: Final = var
        self.bonus: Final = bonus  # Beachmaster, Pathfinder
        self.avail: Final = avail  # the chance the move is open at a given Phase 4 (Climbing, Battle Cry only)
        self.retreat: Final = retreat
        self._hash = -1  # (worked out when first asked: a hash is never -1)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Edge):
            return NotImplemented
        # (Field by field, the hashes first: a plan's Params are compared whole when found among the plans made.)
        return (self is other or (hash(self) == hash(other) and self.to == other.to and self.cost == other.cost
                and self.loss == other.loss and self.var == other.var and self.bonus == other.bonus
                and self.avail == other.avail and self.retreat == other.retreat))

    def __hash__(self) -> int:
        h = self._hash
        if h == -1:
            h = self._hash = hash((self.to, self.cost, self.loss, self.var, self.bonus, self.avail, self.retreat))
        return h


class Params:
    """Everything a plan depends on; hashable, so plans are shared between turns and games."""

    __slots__ = ("_hash", "climbing", "drain", "edges", "enter", "foe", "foe_var", "gain", "loss", "max_rolls",
                 "terminal")

    def __init__(self, loss: tuple[tuple[str, float, float], ...], gain: tuple[tuple[str, float, int], ...],
                 climbing: frozenset[str], max_rolls: tuple[tuple[str, int], ...], enter: tuple[tuple[str, float], ...],
                 terminal: frozenset[str], edges: tuple[tuple[str, tuple[Edge, ...]], ...],
                 foe: tuple[tuple[str, float], ...] = (), foe_var: float = 0.0, drain: tuple[float, ...] = ()) -> None:
        self.loss: Final = loss  # sector, expected casualties per combat, variance
        self.gain: Final = gain  # sector, Soldiers per roll, free Courage per roll
        self.climbing: Final = climbing  # Sectors where the dice go to Skulls (no Courage is rolled there)
        self.max_rolls: Final = max_rolls
        self.enter: Final = enter  # one-off gain on entering
        self.terminal: Final = terminal
        self.edges: Final = edges
        #: Against another side (the German): per Sector, what each turn of Combat there costs the Unit's lead over
        #: him on top of its own casualties (his Soldiers gained per turn, less the printed DEF he loses), and
        #: the variance his turn adds. Empty: the plan counts the Unit's Soldiers alone.
        self.foe: Final = foe
        self.foe_var: Final = foe_var
        #: The chances of losing 0, 1, 2 Courage to the other side each turn, after the roll (empty: none).
        self.drain: Final = drain
        self._hash = -1  # (worked out when first asked: a hash is never -1)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Params):
            return NotImplemented
        return self is other or (hash(self) == hash(other) and (
            self.loss, self.gain, self.climbing, self.max_rolls, self.enter, self.terminal, self.edges, self.foe,
            self.foe_var, self.drain) == (other.loss, other.gain, other.climbing, other.max_rolls, other.enter,
                                          other.terminal, other.edges, other.foe, other.foe_var, other.drain))

    def __hash__(self) -> int:
        h = self._hash
        if h == -1:
            h = self._hash = hash((self.loss, self.gain, self.climbing, self.max_rolls, self.enter, self.terminal,
                                   self.edges, self.foe, self.foe_var, self.drain))
        return h


#: A plan's outlook: (utility, mean Soldiers to come if the Unit lives, their variance, chance to live), where
#: the utility is ``live * mean + (1 - live) * DEATH``, what the planner maximises.
Outlook = tuple[float, float, float, float]
_CSPAN: Final = CMAX + 1


class _Step:
    """A move as the planner's DP reads it (Planner.moves; a plain class, read in place when compiled): the Sector's
    number, the cost, whether it is a retreat, whether it is open for sure (else: ``avail``, the chance it is), the
    Soldiers gained on arrival (arrive's mean) and their variance, whether the Sector is terminal, its free Courage,
    its need, its reach and itself."""

    __slots__ = ("avail", "cost", "free", "mean", "need", "reach", "retreat", "sure", "terminal", "to", "var")

    def __init__(self, to: int, cost: int, retreat: bool, avail: float, mean: float, var: float, terminal: bool,
                 free: int, need: int, reach: int) -> None:
        self.to = to
        self.cost = cost
        self.retreat = retreat
        self.sure = avail >= 1.0
        self.avail = avail
        self.mean = mean
        self.var = var
        self.terminal = terminal
        self.free = free
        self.need = need
        self.reach = reach


class Kept:
    """An outlook as the DP keeps it in its memos and passes it on (Outlook's four numbers, read only). A plain class:
    compiled, it is one object holding four unboxed floats, made at once and read without a call (a tuple of four
    floats is five objects, and each float read from it a call)."""

    __slots__ = ("m", "q", "u", "v")

    def __init__(self, u: float, m: float, v: float, q: float) -> None:
        self.u: Final = u
        self.m: Final = m
        self.v: Final = v
        self.q: Final = q


def _outlook(o: Kept) -> Outlook:
    return (o.u, o.m, o.v, o.q)


LOST: Final = Kept(DEATH, 0.0, 0.0, 0.0)


class Planner:
    """Expected Soldiers to come (and their variance) from a Phase 4 state, playing the best plan.

    Sectors are numbered (one numbering for every plan: ``_SECTOR_IDS``) and the Sectors visited are a bit mask; a
    state is (Sector, visited Sectors still reachable from it, Courage, rolls made there). What a state is worth
    depends only on the plan's terms for its Sector and the Sectors reachable from it, so the plans whose terms agree
    there share what they have worked out of it (``_shared_memos``): a new turn's plan re-uses the Sectors ahead.
    """

    def __init__(self, params: Params) -> None:
        names = [s for s, _, _ in params.loss]
        local = _LocalTerms(params, names)
        if len(_SHARED) > _SHARED_MAX or len(_SECTOR_IDS) > _SHARED_MAX:
            _forget()
        ids = [_SECTOR_IDS.setdefault(s, len(_SECTOR_IDS)) for s in names]
        size = max(ids) + 1
        # (Loops index their second sequence rather than zip(..., strict=True): compiled, such a zip is a generic
        # call and iterator.)
        self.index = {s: ids[t] for t, s in enumerate(names)}
        self.names = names
        self.n = size
        # (_spread and _glob are module functions, not closures: compiled, a closure is called generically)
        #: Expected casualties per Combat (and variance): ``abs_loss`` the Unit's own, ``loss`` what the plan
        #: counts (against another side: the Unit's lead over him).
        self.abs_loss: list[tuple[float, float]] = _spread(ids, size, local.abs_loss, (0.0, 0.0))
        self.loss: list[tuple[float, float]] = _spread(ids, size, local.loss, (0.0, 0.0))
        self.gain: list[tuple[float, int]] = _spread(ids, size, local.gain, (0.0, 0))
        self.climbing: list[bool] = _spread(ids, size, local.climbing, False)
        self.max_rolls: list[int] = _spread(ids, size, local.max_rolls, 0)
        self.enter: list[float] = _spread(ids, size, local.enter, 0.0)
        self.terminal: list[bool] = _spread(ids, size, local.terminal, False)
        self.edges: list[tuple[Edge, ...]] = _spread(ids, size, local.edges, ())
        self.edge_to: list[tuple[int, ...]] = _spread(ids, size, [tuple(ids[t] for t in ts) for ts in local.edge_to],
                                                      ())
        self.reach: list[int] = _spread(ids, size, [_glob(ids, m) for m in local.reach], 0)
        self.need: list[int] = _spread(ids, size, local.need, 0)
        self.drain = local.drain
        self.targets = local.targets
        self.lo = -(len(local.drain) - 1)
        #: Per Sector: the Sectors reachable from it, and itself.
        self.reach_self = [self.reach[i] | 1 << i for i in range(size)]
        #: Per target: (share, ((index into roll's outcomes, chance), ...)).
        self.target_rows = [(share, tuple((off - self.lo, p) for off, p in d)) for share, d in self.targets]
        self.moves = self._moves(ids)
        #: Per Sector: what value() and roll() have worked out of its states (shared with the plans that agree).
        self.memos, self.rolls = self._shared_memos(ids)

    def _moves(self, ids: list[int]) -> list[tuple[_Step, ...]]:
        """Per Sector: its moves, as the DP reads them."""
        moves: list[tuple[_Step, ...]] = [()] * self.n
        for i in ids:
            row = []
            tos = self.edge_to[i]
            for t, e in enumerate(self.edges[i]):
                to = tos[t]
                lm, lv = self.loss[to]
                row.append(_Step(to, e.cost, e.retreat, e.avail, e.bonus - e.loss + self.enter[to] - lm, e.var + lv,
                                 self.terminal[to], self.gain[to][1], self.need[to], self.reach_self[to]))
            moves[i] = tuple(row)
        return moves

    def _shared_memos(self, ids: list[int]) -> tuple[list[dict[int, Kept]], list[dict[int, Kept]]]:
        """Per Sector, the memos of value() and roll(): shared by the plans whose terms for it and every Sector
        reachable from it are the same (and whose other side drains the same Courage)."""
        rows: dict[int, int] = {}
        names = self.names
        for t, i in enumerate(ids):
            row = (i, names[t], self.loss[i], self.gain[i], self.climbing[i], self.max_rolls[i], self.enter[i],
                   self.terminal[i], self.edges[i], self.need[i])
            rows[i] = _ROWS.setdefault(row, len(_ROWS))
        memos: list[dict[int, Kept]] = [{} for _ in range(self.n)]
        rolled: list[dict[int, Kept]] = [{} for _ in range(self.n)]
        for i in ids:
            reach = self.reach_self[i]
            sig = (self.drain, i, tuple(rows[j] for j in sorted(rows) if reach >> j & 1))
            shared = _SHARED.get(sig)
            if shared is None:
                shared = _SHARED[sig] = ({}, {})
            memos[i], rolled[i] = shared
        return memos, rolled

    # ------------------------------------------------------------- by Sector name
    def at(self, sector: str, visited: int, c: int, k: int) -> Outlook:
        return _outlook(self.value(self.index[sector], visited, max(0, c), k))

    def edges_of(self, sector: str) -> tuple[Edge, ...]:
        return self.edges[self.index[sector]]

    def loss_of(self, sector: str) -> tuple[float, float]:
        """What a Combat in ``sector`` costs the plan (against another side: the Unit's lead over him)."""
        return self.loss[self.index[sector]]

    def abs_loss_of(self, sector: str) -> tuple[float, float]:
        """The Unit's own expected casualties in a Combat in ``sector``."""
        return self.abs_loss[self.index[sector]]

    def roll_at(self, sector: str, visited: int, c: int, k: int) -> Outlook:
        x = self.index[sector]
        return _outlook(self.roll(x, visited | 1 << x, max(0, c), k))

    def take(self, e: Edge, visited: int, c: int) -> Outlook:
        return _outlook(self.arrive(e, self.index[e.to], visited, c))

    def mask(self, visited: Iterable[str]) -> int:
        m = 0
        for s in visited:
            i = self.index.get(s)
            if i is not None:
                m |= 1 << i
        return m

    def value(self, x: int, visited: int, c: int, k: int) -> Kept:
        """Phase 4 in Sector ``x`` after ``k`` rolls there, with ``c`` Courage: the outlook of the best plan."""
        rv = visited & self.reach[x]
        need = self.need[x]
        c = need if c > need else c
        key = (rv * _CSPAN + c) * 64 + (k if k < 63 else 63)
        memo = self.memos[x]
        found = memo.get(key)
        if found is not None:
            return found
        # The best sure option so far, as four floats (an outlook is made only for what is kept).
        have = False
        bu = bm = bv = bq = 0.0
        chancy: list[tuple[Kept, float]] = []  # moves open only with some probability
        # roll()'s memo is read here first (its key worked out as roll() does), to save the calls that find it.
        rolls = self.rolls
        if k < self.max_rolls[x]:
            m, v = self.loss[x]
            b = c + self.gain[x][1]
            b = 0 if b < 0 else (need if b > need else b)
            k1 = k + 1
            r = rolls[x].get(((rv & self.reach_self[x]) * _CSPAN + b) * 64 + (k1 if k1 < 63 else 63))
            ro = r if r is not None else self.roll(x, rv, c, k1)
            bu = ro.u + ro.q * -m
            bm = ro.m + -m
            bv = ro.v + v
            bq = ro.q
            have = True
        # Each move as arrive() takes it (inlined: the same arithmetic).
        for mv in self.moves[x]:
            to = mv.to
            cost = mv.cost
            if rv >> to & 1 or cost > c or (mv.retreat and k < 3):
                continue
            if mv.retreat:
                ro = self.value(to, rv | 1 << to, c - cost, 0)
                ou = ro.u
                om = ro.m
                ov = ro.v
                oq = ro.q
            elif mv.terminal:
                ou = om = mv.mean
                ov = mv.var
                oq = 1.0
            else:
                b = c - cost + mv.free
                need_to = mv.need
                b = 0 if b < 0 else (need_to if b > need_to else b)
                r = rolls[to].get((((rv | 1 << to) & mv.reach) * _CSPAN + b) * 64 + 1)
                ro = r if r is not None else self.roll(to, rv | 1 << to, c - cost, 1)
                mean = mv.mean
                ou = ro.u + ro.q * mean
                om = ro.m + mean
                ov = ro.v + mv.var
                oq = ro.q
            if not mv.sure:
                chancy.append((Kept(ou, om, ov, oq), mv.avail))
            elif not have or ou > bu:
                bu = ou
                bm = om
                bv = ov
                bq = oq
                have = True
        if chancy:
            if have:
                chancy.append((Kept(bu, bm, bv, bq), 1.0))
            result = _mix(chancy)
        elif have:
            result = Kept(bu, bm, bv, bq)
        else:
            result = LOST
        memo[key] = result
        return result

    def arrive(self, e: Edge, to: int, rv: int, c: int) -> Kept:
        """Take edge ``e`` into Sector ``to`` (paying its cost) and go on."""
        rv |= 1 << to
        if e.retreat:
            return self.value(to, rv, c - e.cost, 0)
        lm, lv = self.loss[to]
        mean = e.bonus - e.loss + self.enter[to] - lm
        var = e.var + lv
        if self.terminal[to]:
            return Kept(mean, mean, var, 1.0)
        o = self.roll(to, rv, c - e.cost, 1)
        return Kept(o.u + o.q * mean, o.m + mean, o.v + var, o.q)

    def roll(self, x: int, rv: int, c: int, k: int) -> Kept:
        """A roll in ``x`` (the dice steered to the best amount of Courage), then Phase 4."""
        gain, free = self.gain[x]
        base = c + free
        need = self.need[x]
        base = 0 if base < 0 else (need if base > need else base)
        rv &= self.reach_self[x]
        key = (rv * _CSPAN + base) * 64 + (k if k < 63 else 63)
        rolled = self.rolls[x]
        found = rolled.get(key)
        if found is not None:
            return found
        if self.climbing[x]:
            o = self.value(x, rv, base, k)
            result = Kept(o.u + o.q * gain, o.m + gain, o.v + ROLL_VAR, o.q)
            rolled[key] = result
            return result
        # value()'s memo is read here first (its key worked out as value() does), to save the calls that find it.
        memo = self.memos[x]
        at = (rv & self.reach[x]) * _CSPAN
        kk = k if k < 63 else 63
        outs: list[Kept] = []
        for c2 in range(base + self.lo, base + 4):
            cc = c2 if c2 > 0 else 0
            cc = need if cc > need else cc
            got = memo.get((at + cc) * 64 + kk)
            outs.append(got if got is not None else self.value(x, rv, cc, k))
        best_u = -math.inf
        best_i = 0
        rows = self.target_rows
        for i, (share, d) in enumerate(rows):
            g = gain * share
            u = 0.0
            for j, p in d:
                o = outs[j]
                u += p * (o.u + o.q * g)
            if u > best_u:
                best_u, best_i = u, i
        share, d = rows[best_i]
        g = gain * share
        q = 0.0
        mean = 0.0
        second = 0.0
        for j, p in d:
            o = outs[j]
            w = p * o.q
            q += w
            mo = o.m + g
            mean += w * mo
            second += w * (o.v + mo * mo)
        if q > 1e-12:
            mean /= q
            var = max(0.0, second / q - mean * mean) + ROLL_VAR
        else:
            mean, var = 0.0, 0.0
        result = Kept(best_u, mean, var, q)
        rolled[key] = result
        return result


def shift(o: Outlook, gain: float, var: float) -> Outlook:
    u, m, v, q = o
    return (u + q * gain, m + gain, v + var, q)


def _mix(options: Sequence[tuple[Kept, float]]) -> Kept:
    """The best available option, when some are open only with a probability (independently)."""
    ranked = sorted(options, key=_minus_u)
    left = 1.0
    q = 0.0
    mean = 0.0
    second = 0.0
    for o, p in ranked:
        m = o.m
        v = o.v
        qi = o.q
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
    return Kept(q * mean + (1 - q) * DEATH, mean, var, q)


def _minus_u(option: tuple[Kept, float]) -> float:
    return -option[0].u


def survival(soldiers: float, o: Outlook) -> float:
    """The chance a Unit with ``soldiers`` comes through a plan of outlook ``o`` alive."""
    _u, m, v, q = o
    z = (soldiers + m - 0.5) / math.sqrt(v + 1.0)
    return q * 0.5 * math.erfc(-z / math.sqrt(2.0))


def _spread(ids: list[int], size: int, values: Sequence[Any], default: Any) -> list[Any]:
    """Values in a plan's own order of its Sectors, placed by the Sectors' numbers (``ids``), ``default`` elsewhere."""
    out = [default] * size
    for t, i in enumerate(ids):
        out[i] = values[t]
    return out


def _glob(ids: list[int], mask: int) -> int:
    """A mask of Sectors in a plan's own order, as a mask of the Sectors' numbers (``ids``)."""
    out = 0
    for j, i in enumerate(ids):
        if mask >> j & 1:
            out |= 1 << i
    return out


def planner_for(params: Params) -> Planner:
    """The planner of ``params``, shared by every turn and game that plans alike."""
    planner = _PLANS.get(params)
    if planner is None:
        if len(_PLANS) > 3000:
            _PLANS.clear()
            _forget()  # (what the plans shared goes with them)
        planner = _PLANS[params] = Planner(params)
    return planner


_PLANS: Final[dict[Params, Planner]] = {}


class _LocalTerms:
    """A plan's terms per Sector, numbered in the plan's own order (that of ``params.loss``)."""

    def __init__(self, params: Params, names: list[str]) -> None:
        idx = {s: i for i, s in enumerate(names)}
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
        self.edges: list[tuple[Edge, ...]] = [edge_map.get(s, ()) for s in names]
        self.edge_to = [tuple(idx[e.to] for e in es) for es in self.edges]
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
        self.need = self._need(n)
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

    def _need(self, n: int) -> list[int]:
        """The most Courage any way on from a Sector can still use: more is worth nothing to the plan."""
        need = [0] * n
        edges = self.edges
        edge_to = self.edge_to
        for _ in range(n + 1):
            changed = False
            for i in range(n):
                best = 0
                tos = edge_to[i]
                for t, e in enumerate(edges[i]):
                    best = max(best, e.cost + need[tos[t]])
                best = min(best, CMAX)
                if best != need[i]:
                    need[i] = best
                    changed = True
            if not changed:
                break
        return need


#: One numbering of Sector names for every plan (the planner's bit masks), and the plans' terms per Sector, numbered
#: (_ROWS); per (the other side's drain, Sector, the numbers of its terms and those of the Sectors reachable from it):
#: the memos of value() and roll() the plans that agree there share. Forgotten together (_forget), when they grow
#: past _SHARED_MAX or the plans themselves are forgotten (planner_for). What they hold is worked out from the terms
#: alone (no content is read), so plans of different content that agree share it rightly. (Terms that are equal as
#: Python values agree: as for _PLANS, whose Params are compared the same way.)
_SECTOR_IDS: Final[dict[str, int]] = {}
_ROWS: Final[dict[tuple[Any, ...], int]] = {}
_SHARED: Final[dict[tuple[Any, ...], tuple[dict[int, Kept], dict[int, Kept]]]] = {}
_SHARED_MAX: Final = 20000


def _forget() -> None:
    """Let the shared numbering and memos go (the planners made so far keep theirs)."""
    _SECTOR_IDS.clear()
    _ROWS.clear()
    _SHARED.clear()


class TurnView:
    """What the policy works out once per Unit and turn (and re-uses for every decision)."""

    __slots__ = ("holding", "planner", "targets", "visited")

    def __init__(self, planner: Planner, visited: int, targets: frozenset[str], holding: bool) -> None:
        self.planner = planner
        self.visited = visited  # the Sectors visited, as the planner's bit mask
        self.targets = targets
        self.holding = holding  # the Unit's Bunker is closed for now: stay low
