"""What a die's face is worth to a Unit, in Soldiers, given the other results of its Final Tally."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

from ddaydice.interpreter.policies.heuristic.model import FACES


class DiceContext:
    """What each die result is worth to a Unit now (in Soldiers), as one Final Tally is being made."""

    __slots__ = (
        "_bits",
        "_codes",
        "_held",
        "_memo",
        "_off",
        "_rerolls",
        "aim",
        "bonus_tools",
        "climb",
        "counts",
        "curve",
        "danger",
        "per_locked_skull",
        "rwb",
        "rwb_on",
        "skull_free",
        "soldier",
        "star",
        "tool",
    )

    def __init__(self, *, soldier: float, danger: float, curve: list[float], star: float, tool: float,
                 bonus_tools: int, skull_free: int, climb: int, rwb: dict[str, float], rwb_on: bool,
                 counts: dict[str, bool], per_locked_skull: bool, aim: str = "") -> None:
        self.soldier: Final = soldier  # the Unit's Soldiers now
        self.danger: Final = danger  # the casualties expected in this turn's combat
        self.curve: Final = curve  # plan value with base Courage + i
        self.star: Final = star
        self.tool: Final = tool
        self.bonus_tools: Final = bonus_tools
        self.skull_free: Final = skull_free
        self.climb: Final = climb
        self.rwb: Final = rwb
        self.rwb_on: Final = rwb_on
        self.counts: Final = counts
        self.per_locked_skull: Final = per_locked_skull
        self.aim: Final = aim  # a Red-White-Blue triple the dice aim at (the Battle Cry a Bunker needs)
        #: The faces that count for nothing here (read once).
        self._off: Final = tuple(f for f in FACES if not counts.get(f, True))
        #: values, remembered by their arguments (numbered: _codes); the ids of the dicts it holds; reroll_value,
        #: remembered by (id of such a dict, re-rolls after).
        self._memo: Final[dict[int, dict[str, float]]] = {}
        self._codes: Final[dict[object, int]] = {}  # a colour, a (face, colour) result
        self._held: Final[set[int]] = set()
        self._rerolls: Final[dict[int, float]] = {}
        self._bits: Final[dict[str, int]] = {}  # a die colour's bit in _values' masks

    def courage_value(self, have: int) -> float:
        c = self.curve
        if have + 1 >= len(c):
            return max(0.0, c[-1] - c[-2]) if len(c) > 1 else 0.0
        return max(0.0, c[have + 1] - c[have])

    def values(self, colour: str | None, others: Sequence[tuple[str, str | None]]) -> dict[str, float]:
        """The worth of each face on a die of ``colour``, the other results being ``others`` (remembered: the
        context does not change; the dict returned is shared, never to be changed).

        The memo's key is an int (the colour and each result numbered, in base 64), so that looking it up allocates
        nothing the garbage collector tracks."""
        codes = self._codes
        known = codes.get(colour)
        key = known if known is not None else self._code(colour)
        # (Each result is looked up as the tuple it is, read from a sequence of objects: compiled, an item of a
        # sequence of tuple[str, str | None] is unboxed as it is read, and boxed again, a new tuple, to be looked up.)
        results: Sequence[object] = others
        for pair in results:
            known = codes.get(pair)
            c = known if known is not None else self._code(pair)
            if not c or not key:  # (more than 63 colours and results: not remembered)
                return self._values(colour, tuple(others))
            key = key << 6 | c  # (key * 64 + c: compiled, a product past 2**30 is a slow generic operation)
        if not key:
            return self._values(colour, tuple(others))
        memo = self._memo
        found = memo.get(key)
        if found is None:
            if len(memo) > 4096:
                memo.clear()
                self._held.clear()
                self._rerolls.clear()
            found = memo[key] = self._values(colour, tuple(others))
            self._held.add(id(found))
        return found

    def _code(self, what: object) -> int:
        """A new number (1 .. 63) for a colour or a result in values' keys; 0 when there are no more."""
        n = len(self._codes) + 1
        if n >= 64:
            return 0
        self._codes[what] = n
        return n

    def _values(self, colour: str | None, others: tuple[tuple[str, str | None], ...]) -> dict[str, float]:
        """Work out values (see there): one pass over the other results counts each face and the colours it shows
        (as bits: _bit), with nothing allocated but the dict returned."""
        n_one = n_two = n_courage = n_tool = n_skull = n_star = n_other = 0
        # The colours each face shows among the others, as bits (Red-White-Blue).
        s_skull = s_star = s_one = s_two = s_courage = s_tool = 0
        for f, c in others:
            b = 0 if c is None else self._bit(c)
            if f == "one-soldier":
                n_one += 1
                s_one |= b
            elif f == "two-soldiers":
                n_two += 1
                s_two |= b
            elif f == "courage":
                n_courage += 1
                s_courage |= b
            elif f == "tool":
                n_tool += 1
                s_tool |= b
            elif f == "skull":
                n_skull += 1
                s_skull |= b
            elif f == "star":
                n_star += 1
                s_star |= b
            else:
                n_other += 1
        t = n_tool + self.bonus_tools
        tool_gain = (_TOOL_TABLE[min(t + 1, 6)] - _TOOL_TABLE[min(t, 6)]) if t < 6 else 24
        # Soldiers are worth more when this turn's combat threatens to wipe the Unit out.
        men = self.soldier + n_one + 2 * n_two
        w = 1.0 + 2.0 / (1.0 + math.exp(min(50.0, (men - self.danger - 2.0) / 1.5)))
        courage = self.courage_value(n_courage)
        star = self.star
        tool = self.tool * tool_gain
        vals = {"one-soldier": w, "two-soldiers": 2.0 * w, "courage": courage, "star": star, "tool": tool}
        # A Skull cancels the weakest other result (or nothing, while the Sharpshooter's are unused).
        skull = 0.0
        if n_skull + 1 > self.skull_free and (n_one or n_two or n_courage or n_star or n_tool or n_other):
            weakest = math.inf
            if n_one and w < weakest:
                weakest = w
            if n_two and 2.0 * w < weakest:
                weakest = 2.0 * w
            if n_courage and courage < weakest:
                weakest = courage
            if n_star and star < weakest:
                weakest = star
            if n_tool and tool < weakest:
                weakest = tool
            if n_other and weakest > 0.0:  # a face of no worth here
                weakest = 0.0
            skull = min(0.0, -weakest)
        if self.climb:
            skull = 10.0 if n_skull < self.climb else 0.0
        vals["skull"] = skull
        for f in self._off:
            vals[f] = 0.0
        if self.rwb_on and colour is not None:
            self._add_rwb(vals, colour, s_skull, s_star, s_one, s_two, s_courage, s_tool)
        return vals

    def _add_rwb(self, vals: dict[str, float], colour: str, s_skull: int, s_star: int, s_one: int, s_two: int,
                 s_courage: int, s_tool: int) -> None:
        """The Red-White-Blue triples a die of ``colour`` completes (or starts) among the other results, added to
        vals (``s_skull`` .. ``s_tool``: the colours each face shows among them, as bits)."""
        mine = self._bit(colour)
        off = self._off
        rwb = self.rwb
        aim = self.aim
        for f in FACES:
            if f == "skull":
                have = s_skull
            elif f in off:
                continue
            elif f == "star":
                have = s_star
            elif f == "one-soldier":
                have = s_one
            elif f == "two-soldiers":
                have = s_two
            elif f == "courage":
                have = s_courage
            else:
                have = s_tool
            if have & mine:
                continue
            if have & (have - 1):  # two colours or more
                vals[f] += rwb[f]
            elif f == aim:
                vals[f] += rwb[f] * (0.5 if have else 0.25)
            elif have:
                vals[f] += 0.15 * rwb[f]

    def _bit(self, colour: str) -> int:
        """The bit of a die colour in _values' masks."""
        bits = self._bits
        b = bits.get(colour)
        if b is None:
            b = bits[colour] = 1 << len(bits)
        return b

    def reroll_value(self, vals: dict[str, float], rerolls_after: int) -> float:
        """Expected worth of re-rolling a die now, with ``rerolls_after`` more re-rolls to come (remembered for the
        dicts values holds in its memo, by their identity: unique while they are held, forgotten with them)."""
        if rerolls_after >= 8 or id(vals) not in self._held:
            return _reroll_value(vals, rerolls_after)
        key = id(vals) << 3 | rerolls_after  # (id(vals) * 8 + rerolls_after, as values' key)
        u = self._rerolls.get(key)
        if u is None:
            u = self._rerolls[key] = _reroll_value(vals, rerolls_after)
        return u


def _reroll_value(vals: dict[str, float], rerolls_after: int) -> float:
    """Expected worth of re-rolling a die now, with ``rerolls_after`` more re-rolls to come. (Summed in order, from
    0.0, as the built-in sum adds floats; no list is made for each re-roll.)"""
    vs = list(vals.values())
    total = 0.0
    for v in vs:
        total += v
    u = total / 6
    for _ in range(rerolls_after):
        total = 0.0
        for v in vs:
            total += u if u > v else v  # (max(v, u): the same float)
        u = total / 6
    return u


#: The Items' points by Tools rolled (0 .. 6).
_TOOL_TABLE: Final[tuple[int, ...]] = (0, 1, 3, 6, 12, 24, 48)
