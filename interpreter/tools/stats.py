"""Statistics of many games: distributions (quantiles, histogram) and paired differences with Student's t.

Pure Python (no numpy, no scipy): the t distribution's CDF from the regularized incomplete beta function (the
continued fraction of Numerical Recipes, ``betacf``), its quantile by bisection. The paired interval of a
difference is ``mean(d) ± t(0.975, n-1) · sd(d) / √n`` over the per-seed differences ``d`` (docs/simulation.md).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import attrs


def quantile(ordered: Sequence[float], q: float) -> float:
    """The ``q`` quantile of sorted values, interpolated linearly between ranks (numpy's default, type 7)."""
    if not ordered:
        return 0.0
    pos = (len(ordered) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return float(ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo))


QUANTILES = (("p10", 0.10), ("p25", 0.25), ("median", 0.50), ("p75", 0.75), ("p90", 0.90))
MAX_BARS = 30


def histogram(values: Sequence[int]) -> dict[str, int]:
    """Counts by value when there are at most 30 distinct values, else by equal bins ``"lo-hi"`` (inclusive)."""
    if not values:
        return {}
    lo, hi = min(values), max(values)
    if len(set(values)) <= MAX_BARS:
        counts: dict[int, int] = {}
        for v in values:
            counts[v] = counts.get(v, 0) + 1
        return {str(k): counts[k] for k in sorted(counts)}
    width = math.ceil((hi - lo + 1) / 20)
    bins: dict[int, int] = {}
    for v in values:
        start = lo + (v - lo) // width * width
        bins[start] = bins.get(start, 0) + 1
    return {f"{k}-{k + width - 1}": bins[k] for k in sorted(bins)}


def mean_sd(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the sample standard deviation (0 for fewer than 2 values)."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0
    m = math.fsum(values) / n
    if n < 2:
        return m, 0.0
    return m, math.sqrt(math.fsum((v - m) ** 2 for v in values) / (n - 1))


def distribution(values: Sequence[int]) -> dict[str, Any]:
    """A measure over games: n, mean, sd, min, the 10/25/50/75/90% quantiles, max and a histogram."""
    ordered = sorted(values)
    m, sd = mean_sd(ordered)
    out: dict[str, Any] = {"n": len(ordered), "mean": m, "sd": sd, "min": ordered[0] if ordered else 0}
    for name, q in QUANTILES:
        out[name] = quantile(ordered, q)
    out["max"] = ordered[-1] if ordered else 0
    out["histogram"] = histogram(ordered)
    return out


# ------------------------------------------------------------------ Student's t
def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / (c if abs(c) > tiny else tiny)
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / (c if abs(c) > tiny else tiny)
        step = d * c
        h *= step
        if abs(step - 1.0) < 1e-15:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` degrees of freedom."""
    tail = 0.5 * betainc(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t > 0 else tail


def t_ppf(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t (bisection on the CDF; 1e-10 close)."""
    lo, hi = -1e3, 1e3
    for _ in range(200):
        mid = (lo + hi) / 2
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-10:
            break
    return (lo + hi) / 2


@attrs.frozen
class Paired:
    """The difference ``b - a`` of a measure over games paired by seed: its mean, 95% interval and p-value."""

    n: int
    mean_a: float
    mean_b: float
    diff: float
    lo: float
    hi: float
    p: float
    significant: bool

    @property
    def width(self) -> float:
        return self.hi - self.lo

    def as_json(self) -> dict[str, Any]:
        return {"n": self.n, "mean_a": self.mean_a, "mean_b": self.mean_b, "difference": self.diff,
                "ci95": [self.lo, self.hi], "p": self.p, "significant": self.significant}


def paired(a: Sequence[float | None], b: Sequence[float | None], level: float = 0.95,
           bounds: tuple[float, float] | None = None) -> Paired:
    """The paired t interval of ``b - a`` over the pairs where both values exist (a measure such as turns to win
    exists only in won games). Fewer than 2 pairs: an infinite interval, not significant. All differences equal:
    the interval is that single value, significant when it is not 0. ``bounds``: the range every value lies in (a
    win rate's 0 and 1); the interval is clipped to the differences possible, ``lo - hi`` to ``hi - lo`` (a
    difference of two win rates is never beyond ±100%, which the t interval runs past on a few games). The clip
    keeps 0 where it was, so the p-value and what is significant do not change."""
    pairs = [(x, y) for x, y in zip(a, b, strict=True) if x is not None and y is not None]
    n = len(pairs)
    mean_a = math.fsum(x for x, _ in pairs) / n if n else 0.0
    mean_b = math.fsum(y for _, y in pairs) / n if n else 0.0
    if n < 2:
        return Paired(n, mean_a, mean_b, mean_b - mean_a, -math.inf, math.inf, 1.0, False)
    d, sd = mean_sd([y - x for x, y in pairs])
    if sd == 0.0:
        zero = abs(d) < 1e-12
        return Paired(n, mean_a, mean_b, d, d, d, 1.0 if zero else 0.0, not zero)
    se = sd / math.sqrt(n)
    half = t_ppf(0.5 + level / 2, n - 1) * se
    p = 2.0 * (1.0 - t_cdf(abs(d) / se, n - 1))
    lo, hi = d - half, d + half
    if bounds is not None:
        lo, hi = max(lo, bounds[0] - bounds[1]), min(hi, bounds[1] - bounds[0])
    return Paired(n, mean_a, mean_b, d, lo, hi, max(0.0, min(1.0, p)), not lo <= 0.0 <= hi)


def holm(ps: Sequence[float]) -> list[float]:
    """Holm's step-down correction of p-values tested together (a comparison's measures): each p-value made
    comparable with the family's level, so that the chance that any of the tests reads a difference where there is
    none stays under it. The smallest p-value is multiplied by the number of tests, the next by one less, and so
    on, each at least the one before (and at most 1)."""
    m = len(ps)
    out = [1.0] * m
    running = 0.0
    for rank, i in enumerate(sorted(range(m), key=lambda j: ps[j])):
        running = max(running, min(1.0, (m - rank) * ps[i]))
        out[i] = running
    return out
