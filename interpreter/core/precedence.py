"""Combining effects: the rulebook's order of precedence, as an algorithm.

A query (a value or a permission) starts from the game rules' base value.
Contributions are sorted by tier (lowest first, from rules/precedence.yaml),
then by when their source came into play, then by source id. They apply in
that order: additive changes accumulate; a set, forbid or allow replaces what
came before, so the highest tier has the last word; a ceiling (``locked-dice at
most 1``) lowers what came before to its bound if it is above, and keeps a lower
value (a Sector's 0 stays 0). An explicit override
(``protect def against items-vehicles specialists``) overrules every
contribution of the named tiers that would lower the value, whatever its rank;
one against raising (``protect mgf-dice = 0 against raising``: a value
nothing raises, such as a silenced MGF) overrules every contribution, of any
tier, that would raise it. A protection that says ``= N`` also sets the value,
in its place in the order, as a set does. The rules' clamp (``minimum`` in rules/queries.yaml)
applies last.

With ``explain=True`` the result carries its derivation: every contribution,
its source, tier, operation, the value before and after, and, for each one
that was overruled, by what and why.

Every value is typed ``int``, a permission's too: a bool is an int to mypy, and a
permission is read by its truth. Compiled (compiled.txt), mypyc keeps an ``int``
as a C integer, so a permission may come out as 1 or 0: it is made a bool where
it is shown (``Derivation.as_flag``, ``Queries.flag``, tools/scenario.py). An
annotation ``int | bool`` would promise what the compiled engine does not keep
(tests/test_compiled_rules.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import attrs


class Contribution:
    """One effect's part in a query.

    A plain class (native when compiled: made and read natively; an attrs class's ``__init__`` is Python code, and
    a game with cards in play makes one for every modifier that applies), with attrs's equality, hash and repr:
    the same fields, in order, compared as a tuple (tests/test_conflicts.py)."""

    __slots__ = ("op", "order", "protects", "source", "source_name", "text", "tier", "tier_name", "value")

    def __init__(self, source: str, source_name: str, tier: int, tier_name: str, op: str, value: int | None,
                 order: tuple[int, str], protects: tuple[str, ...] = (), text: str = "") -> None:
        self.source: Final = source  # card id, "map/sector", "rule:...", with the owning Unit where it matters
        self.source_name: Final = source_name
        self.tier: Final = tier
        self.tier_name: Final = tier_name
        self.op: Final = op  # add, set, at-most, forbid, allow, protect
        self.value: Final = value
        # (when its source came into play, then the source's id: kept as a tuple object, read without re-boxing)
        self.order: Final[tuple[object, ...]] = order
        self.protects: Final = protects
        self.text: Final = text

    def _fields(self) -> tuple[object, ...]:
        return (self.source, self.source_name, self.tier, self.tier_name, self.op, self.value, self.order,
                self.protects, self.text)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Contribution) or other.__class__ is not self.__class__:
            return False
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (f"Contribution(source={self.source!r}, source_name={self.source_name!r}, tier={self.tier!r}, "
                f"tier_name={self.tier_name!r}, op={self.op!r}, value={self.value!r}, order={self.order!r}, "
                f"protects={self.protects!r}, text={self.text!r})")


@attrs.frozen
class Step:
    source: str
    source_name: str
    tier: str
    op: str
    value: int | None
    before: int
    after: int
    overruled_by: str | None = None
    reason: str | None = None
    text: str = ""

    def as_json(self) -> dict[str, object]:
        return attrs.asdict(self)


@attrs.frozen
class NotApplied:
    """An effect in play that reaches the subject of a query but did not change it, and why (its condition does not
    hold; its limit is used up): what ``dday explain`` lists after the steps, so that "my card did nothing" reads
    apart from "my card is not there"."""

    source: str
    source_name: str
    tier: str
    text: str
    reason: str

    def as_json(self) -> dict[str, object]:
        return attrs.asdict(self)


@attrs.frozen
class Derivation:
    query: str
    subject: str
    base: int
    base_source: str
    steps: tuple[Step, ...]
    value: int
    clamp: int | None = None
    not_applied: tuple[NotApplied, ...] = ()
    #: The entry whose citation (Content.citations) the base's is, when it is not the query's ('query:ID'): the
    #: movement's checks behind ``may-enter`` cite their phase ('phase:movement').
    cites: str = ""

    def as_flag(self) -> Derivation:
        """The derivation of a permission: its values as bools (what the rules and the effects' words say)."""
        steps = tuple(attrs.evolve(s, before=bool(s.before), after=bool(s.after)) for s in self.steps)
        return attrs.evolve(self, base=bool(self.base), steps=steps, value=bool(self.value))

    def as_json(self) -> dict[str, object]:
        return {
            "query": self.query,
            "subject": self.subject,
            "base": self.base,
            "base_source": self.base_source,
            "steps": [s.as_json() for s in self.steps],
            "clamp": self.clamp,
            "value": self.value,
            "not_applied": [n.as_json() for n in self.not_applied],
        }


#: What a protection names, besides tiers: every contribution, of any tier, that would raise the value.
RAISING: Final = "raising"
#: A ceiling's operation ('locked-dice at most 1'; dsl/words/base.py ``AT_MOST``).
AT_MOST: Final = "at-most"


def _sets(op: str, value: int | None) -> bool:
    """A set, or a protection that sets the value it guards ('protect mgf-dice = 0 against raising')."""
    return value is not None and op in {"set", "protect"}


def _lowers(op: str, value: int | None, current: int) -> bool:
    if op == "add":
        return value is not None and value < 0
    if _sets(op, value) or op == AT_MOST:
        return value is not None and value < current
    return False


def _raises(op: str, value: int | None, current: int) -> bool:
    if op == "add":
        return value is not None and value > 0
    if _sets(op, value):
        return value is not None and value > current
    return False


def guards(protects: Sequence[str], tier_name: str, op: str, value: int | None, current: int) -> str | None:
    """Why a protection naming ``protects`` overrules a contribution (of ``tier_name``, ``op`` ``value``)
    applied to ``current``, or None: one that would raise it, of any tier, if it names raising; one that would
    lower it, of a tier it names. The one test of an explicit override (dsl/conflicts.py mirrors it)."""
    if RAISING in protects and _raises(op, value, current):
        return "explicit override (nothing may raise it, whatever its rank)"
    if tier_name in protects and _lowers(op, value, current):
        return "explicit override (it names this kind of effect, whatever its rank)"
    return None


def _guard(protections: Sequence[Contribution], c: Contribution, current: int) -> tuple[Contribution, str] | None:
    """The first protection (other than ``c``) that overrules ``c``, and why."""
    for p in protections:
        if p is not c:
            why = guards(p.protects, c.tier_name, c.op, c.value, current)
            if why is not None:
                return p, why
    return None


def _in_order(contributions: Sequence[Contribution]) -> list[Contribution]:
    """The contributions by tier, then by their order (when their source came into play, then its id); those equal
    in both keep their place (as ``sorted`` would). An insertion sort, compared field by field: a query has a few."""
    out: list[Contribution] = []
    for c in contributions:
        i = len(out)
        while i > 0 and _after(out[i - 1], c):
            i -= 1
        out.insert(i, c)
    return out


def _after(a: Contribution, b: Contribution) -> bool:
    """Whether ``a`` comes strictly after ``b``: (tier, order) compared as tuples."""
    if a.tier != b.tier:
        return a.tier > b.tier
    return a.order > b.order


def _tell(ordered: Sequence[Contribution], done: Sequence[tuple[tuple[Contribution, str] | None, int, int]],
          explain: bool, trace: list[Step], overruled: set[int] | None) -> None:
    """What each contribution did, as an explanation's steps (``explain``) and the ids of those overruled
    (``overruled``): one a protection guarded against is overruled by it; one before the last set, forbid or allow
    that took effect is overruled by that (a set a protection guarded against overrules nothing)."""
    replacing = [i for i, c in enumerate(ordered) if done[i][0] is None
                 and (c.op in {"forbid", "allow"} or _sets(c.op, c.value))]
    last_replace = replacing[-1] if replacing else -1
    for i, c in enumerate(ordered):
        guarded, before, after = done[i]
        if c.op == "protect" and c.value is None:
            if explain:
                trace.append(Step(c.source, c.source_name, c.tier_name, "protect", None, before, after,
                                  text=c.text, reason="explicit override: " + ", ".join(c.protects)))
            continue
        if guarded is not None:
            if overruled is not None and guarded[0].source_name:
                overruled.add(id(c))
            if explain:
                trace.append(Step(c.source, c.source_name, c.tier_name, c.op, c.value, before, after,
                                  overruled_by=guarded[0].source_name, reason=guarded[1], text=c.text))
            continue
        if overruled is not None and i < last_replace and ordered[last_replace].source_name:
            overruled.add(id(c))
        if explain:
            overruled_by = None
            reason = "explicit override: " + ", ".join(c.protects) if c.op == "protect" else None
            if i < last_replace:
                later = ordered[last_replace]
                overruled_by = later.source_name
                reason = ("a higher tier has the last word" if later.tier > c.tier
                          else "same tier, later in play order")
            trace.append(Step(c.source, c.source_name, c.tier_name, c.op, c.value, before, after,
                              overruled_by, reason, c.text))


def combine(base: int, contributions: Sequence[Contribution], minimum: int | None = None, *,
            explain: bool = False, query: str = "", subject: str = "", base_source: str = "game rules",
            overruled: set[int] | None = None) -> tuple[int, Derivation | None]:
    """Apply contributions to a base value in precedence order; optionally explain. A permission has no
    ``minimum`` (rules/queries.yaml) and only forbid and allow change it (the language adds to and sets numbers:
    dsl/checker.py). ``overruled``, if given, receives the ``id`` of each contribution overruled (those an
    explanation's steps name as overruled), with no explanation built: two contributions alike (two copies of a
    card) are told apart."""
    if not contributions:
        value = base
        if minimum is not None and value < minimum:
            value = minimum
        if not explain:
            return value, None
        steps: tuple[Step, ...] = ()
        if value != base:
            steps = (Step("rules", "game rules", "rules", "clamp", minimum, base, value,
                          reason=f"the rules never let it go below {minimum}"),)
        return value, Derivation(query, subject, base, base_source, steps, value, minimum)
    ordered = _in_order(contributions)
    protections = [c for c in ordered if c.op == "protect"]
    value = base
    told = explain or overruled is not None
    # What each contribution did, for the explanation: (guarded by, why) or None, and the value before and after.
    done: list[tuple[tuple[Contribution, str] | None, int, int]] = []
    for c in ordered:
        if c.op == "protect" and c.value is None:
            if told:
                done.append((None, value, value))
            continue
        guarded = _guard(protections, c, value) if protections else None
        if guarded is not None:
            if told:
                done.append((guarded, value, value))
            continue
        before = value
        if c.op == "add" and c.value is not None:
            value = value + c.value
        elif _sets(c.op, c.value) and c.value is not None:
            value = c.value
        elif c.op == AT_MOST and c.value is not None:
            value = min(value, c.value)
        elif c.op == "forbid":
            value = False
        elif c.op == "allow":
            value = True
        if told:
            done.append((None, before, value))
    trace: list[Step] = []
    if told:
        _tell(ordered, done, explain, trace, overruled)
    if minimum is not None and value < minimum:
        if explain:
            trace.append(Step("rules", "game rules", "rules", "clamp", minimum, value, minimum,
                              reason=f"the rules never let it go below {minimum}"))
        value = minimum
    if not explain:
        return value, None
    return value, Derivation(query, subject, base, base_source, tuple(trace), value, minimum)
