"""Combining effects: the rulebook's order of precedence, as an algorithm.

A query (a value or a permission) starts from the game rules' base value.
Contributions are sorted by tier (lowest first, from rules/precedence.yaml),
then by when their source came into play, then by source id. They apply in
that order: additive changes accumulate; a set, forbid or allow replaces what
came before, so the highest tier has the last word. An explicit override
(``protect def against items-vehicles specialists``) overrules every
contribution of the named tiers that would lower the value, whatever its rank.
The rules' clamp (``minimum`` in rules/queries.yaml) applies last.

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

import attrs


@attrs.frozen
class Contribution:
    """One effect's part in a query."""

    source: str  # card id, "map/sector", "rule:...", with the owning Unit where it matters
    source_name: str
    tier: int
    tier_name: str
    op: str  # add, set, forbid, allow, protect
    value: int | None
    order: tuple[int, str]
    protects: tuple[str, ...] = ()
    text: str = ""


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
class Derivation:
    query: str
    subject: str
    base: int
    base_source: str
    steps: tuple[Step, ...]
    value: int
    clamp: int | None = None

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
        }


def _lowers(op: str, value: int | None, current: int) -> bool:
    if op == "add":
        return value is not None and value < 0
    if op == "set":
        return value is not None and value < current
    return False


def combine(base: int, contributions: Sequence[Contribution], minimum: int | None = None, *,
            explain: bool = False, query: str = "", subject: str = "", base_source: str = "game rules"
            ) -> tuple[int, Derivation | None]:
    """Apply contributions to a base value in precedence order; optionally explain. A permission has no
    ``minimum`` (rules/queries.yaml) and only forbid and allow change it (the language adds to and sets numbers:
    dsl/checker.py)."""
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
    ordered = sorted(contributions, key=lambda c: (c.tier, c.order))
    protections = [c for c in ordered if c.op == "protect"]
    value = base
    trace: list[Step] = []
    # The last set/forbid/allow wins; remember it to name what overruled earlier ones.
    replacing = [i for i, c in enumerate(ordered) if c.op in {"set", "forbid", "allow"}]
    last_replace = replacing[-1] if replacing else -1
    for i, c in enumerate(ordered):
        if c.op == "protect":
            if explain:
                trace.append(Step(c.source, c.source_name, c.tier_name, "protect", None, value, value,
                                  text=c.text, reason="explicit override: " + ", ".join(c.protects)))
            continue
        guard = next((p for p in protections if c.tier_name in p.protects and _lowers(c.op, c.value, value)), None)
        if guard is not None:
            if explain:
                trace.append(Step(c.source, c.source_name, c.tier_name, c.op, c.value, value, value,
                                  overruled_by=guard.source_name,
                                  reason="explicit override (it names this kind of effect, whatever its rank)",
                                  text=c.text))
            continue
        before = value
        if c.op == "add" and c.value is not None:
            value = value + c.value
        elif c.op == "set" and c.value is not None:
            value = c.value
        elif c.op == "forbid":
            value = False
        elif c.op == "allow":
            value = True
        if explain:
            overruled_by = None
            reason = None
            if i < last_replace:
                later = ordered[last_replace]
                overruled_by = later.source_name
                reason = ("a higher tier has the last word" if later.tier > c.tier
                          else "same tier, later in play order")
            trace.append(Step(c.source, c.source_name, c.tier_name, c.op, c.value, before, value,
                              overruled_by, reason, c.text))
    if minimum is not None and value < minimum:
        if explain:
            trace.append(Step("rules", "game rules", "rules", "clamp", minimum, value, minimum,
                              reason=f"the rules never let it go below {minimum}"))
        value = minimum
    if not explain:
        return value, None
    return value, Derivation(query, subject, base, base_source, tuple(trace), value, minimum)
