"""How the conflict finder resolves a pair: the precedence rules of ``interpreter/core/precedence.py``, mirrored
on touches (``dsl/`` never imports the interpreter; tests/test_conflicts.py checks that both agree on every
bundled pair). A touch's amount is a range (least, greatest); a base may be unknown (None)."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from ddaydice.dsl.effect_context import UNLIMITED
from ddaydice.dsl.touches import Placed, Touch
from ddaydice.dsl.words import AT_MOST, RAISING

__all__ = ["RAISING", "as_set", "assigns", "combine", "guards", "lowers", "raises"]


def assigns(t: Touch) -> bool:
    """A set, or a protection that sets the value it guards ('mgf-dice = 0 against raising'; precedence's
    ``_sets``)."""
    return t.op == "set" or (t.op == "protect" and t.value is not None)


def as_set(p: Placed) -> Placed:
    """A set that guards, as the set it is against a change it does not guard."""
    if p.touch.op == "protect" and p.touch.value is not None:
        return attrs.evolve(p, touch=attrs.evolve(p.touch, op="set"))
    return p


def lowers(t: Touch, base: int | None) -> bool:
    """Whether a change can lower the value it starts from (``base``)."""
    if t.op == "add":
        return t.value is None or t.value[0] < 0
    if assigns(t) or t.op == AT_MOST:
        return t.value is None or base is None or t.value[0] < base
    return False


def raises(t: Touch, base: int | None) -> bool:
    """Whether a change can raise the value it starts from (``base``)."""
    if t.op == "add":
        return t.value is None or t.value[1] > 0
    if assigns(t):
        return t.value is None or base is None or t.value[1] > base
    return False


def guards(named: Sequence[str], t: Touch, kept: int | None, base: int | None) -> str | None:
    """What of a protection naming ``named`` overrules the change ``t`` (``RAISING``, or ``t``'s tier), or None
    (precedence's ``guards``): a raise of the value the protection keeps (``kept``), whatever its tier, if it
    names raising; a reduction of the printed or rules' value (``base``) by a tier it names."""
    if RAISING in named and raises(t, kept):
        return RAISING
    if t.tier in named and lowers(t, base):
        return t.tier
    return None


def combine(base: int | None, seq: Sequence[Touch], minimum: int | None) -> tuple[int | None, int | None, bool]:
    """Apply touches in order, as interpreter/core/precedence.py does: (least, greatest, clamped).

    The value is ``coef * base + [low, high]``; with an unknown base it is known only once a set has
    replaced it. An unknown amount (a change 'per' something) makes it unknown.
    """
    coef, low, high = 1, 0, 0
    for t in seq:
        if t.value is None:
            return None, None, False
        if assigns(t):
            coef, low, high = 0, t.value[0], t.value[1]
        elif t.op == AT_MOST:  # a ceiling: the value so far, lowered to the bound if it is above
            if coef == 1:
                if base is None:
                    return None, None, False
                coef, low, high = 0, low + base, high + base
            low, high = min(low, t.value[0]), min(high, t.value[1])
        elif t.op == "add":
            low, high = min(low + t.value[0], UNLIMITED), min(high + t.value[1], UNLIMITED)
    if coef == 1:
        if base is None:
            return None, None, False
        low, high = low + base, high + base
    clamped = minimum is not None and low < minimum
    if minimum is not None:
        low, high = max(low, minimum), max(high, minimum)
    return low, high, clamped
