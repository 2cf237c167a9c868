"""How the engine resolves each kind of pair the conflict finder meets (:mod:`ddaydice.dsl.conflicts` places and
pairs the effects): two changes of one value or permission, the effects of an event about to happen, an explicit
override and the tiers it names in vain, and the linked permissions (``touches.LINKS``); each told as a
:class:`~ddaydice.dsl.conflict_records.Conflict` (what the sides disagree on, who wins, what comes out, the rule)."""

from __future__ import annotations

import attrs

from ddaydice.dsl import words
from ddaydice.dsl.conflict_records import Conflict, Kind, Outcome
from ddaydice.dsl.conflict_terms import Terms, sector_order
from ddaydice.dsl.conflict_words import after_first, compact_names, does, range_text, reacts, subject
from ddaydice.dsl.resolution import RAISING, as_set, assigns, combine, guards
from ddaydice.dsl.setups import KIND_LABELS
from ddaydice.dsl.touches import (
    RULE_ADD,
    RULE_CLAMP,
    RULE_EXPLICIT,
    RULE_TIERS,
    RULE_WITHIN,
    Link,
    MapView,
    Placed,
    Touch,
    event_query,
)

REPLACING = frozenset({"set", words.AT_MOST, "forbid", "allow"})
#: How the engine runs the effects of a pending event (interpreter/effects/events.py ``would``).
RULE_REPLACE = ("an event about to happen: its triggers run lowest tier first (within a tier, when they came into "
                "play), then the uses offered at it; the first that replaces it stops it, and what comes after "
                "hears nothing")


class Pairs(Terms):
    """Each kind of pair, resolved as the engine would and told."""

    # ------------------------------------------------------------ same query
    def same_query(self, mv: MapView, a: Placed, b: Placed, where: frozenset[str]) -> Conflict | None:
        for prot, other in ((a, b), (b, a)):
            if any(self.guards(p, other, mv, where) for p in self.protections(prot)):
                return None  # the override's pair ('mgf-dice = 0 against raising' against a raise)
        if {a.touch.op, b.touch.op} == {"forbid", "asks"}:
            return self.asked(mv, a, b, where)
        a, b = as_set(a), as_set(b)  # else a set that guards is a set against what it does not guard
        ta, tb = a.touch, b.touch
        if {ta.op, tb.op} & {"protect", "require", "act", "asks"}:
            return None
        if not {ta.op, tb.op} & REPLACING:
            return None  # two additive changes accumulate: no disagreement
        if ta.op == tb.op and ta.op in {"forbid", "allow"}:
            return None  # they agree
        if ta.op == tb.op == "set" and ta.value is not None and ta.value == tb.value:
            return None  # the same value
        if self.within(ta, tb) or self.within(tb, ta):
            return None  # a set the ceiling already admits, or two ceilings: the lower holds in either order
        flags = ta.op in {"forbid", "allow"} and tb.op in {"forbid", "allow"}
        if ta.tier == tb.tier and ta.op in REPLACING and tb.op in REPLACING:
            kind: Kind = "same-tier"
        elif flags:
            kind = "permission"
        else:
            kind = "value"
        return self.resolve(mv, kind, a, b, where)

    @staticmethod
    def within(t: Touch, ceiling: Touch) -> bool:
        """Whether ``ceiling`` is a ceiling that never changes what ``t`` gives, in either order: a set at or
        below it, or another ceiling (the lower of two holds whichever comes first)."""
        if ceiling.op != words.AT_MOST or t.value is None or ceiling.value is None:
            return False
        return t.op == words.AT_MOST or (t.op == "set" and t.value[1] <= ceiling.value[0])

    def order(self, a: Placed, b: Placed) -> list[tuple[Placed, Placed]]:
        """The orders the engine can apply two touches in: lowest tier first; within a tier by when they
        came into play (rules and Sectors from the start, and a card's own price, in id order), then by id."""
        ia, ib = self.tier_index(a.touch.tier), self.tier_index(b.touch.tier)
        if ia != ib:
            return [(a, b)] if ia < ib else [(b, a)]
        if a.fixed and b.fixed:
            return [(a, b)] if a.touch.source.owner <= b.touch.source.owner else [(b, a)]
        if a.fixed != b.fixed:
            return [(a, b)] if a.fixed else [(b, a)]
        return [(a, b), (b, a)]

    def resolve(self, mv: MapView, kind: Kind, a: Placed, b: Placed, where: frozenset[str]) -> Conflict:
        ta, tb = a.touch, b.touch
        q = ta.query
        info = self.queries.get(q)
        minimum = info.minimum if info is not None else None
        sa, sb = self.side(a, mv), self.side(b, mv)
        names = {id(a): sa.name, id(b): sb.name}
        qn = self.qname(q)
        disagree = f"{self.qphrase(q)}: {sa.name} {does(ta)}; {sb.name} {does(tb)}"
        orders = self.order(a, b)
        rules = [RULE_WITHIN if ta.tier == tb.tier else RULE_TIERS]
        outcomes: list[Outcome] = []
        texts: list[str] = []
        results: list[str] = []
        if ta.op in {"forbid", "allow"}:
            for first, last in orders:
                allowed = last.touch.op == "allow"
                outcomes.append(Outcome("a" if first is a else "b", flag=allowed))
                result = f"{qn} is {'allowed' if allowed else 'not allowed'}"
                results.append(result)
                texts.append(f"{names[id(first)]} {does(first.touch)}, then {names[id(last)]} "
                             f"{does(last.touch)}: {result}")
        else:
            if "add" in {ta.op, tb.op}:
                rules.append(RULE_ADD)
            base, base_text = self.base(mv, q, where)
            clamped = False
            for first, last in orders:
                low, high, cl = combine(base, [first.touch, last.touch], minimum)
                clamped |= cl
                outcomes.append(Outcome("a" if first is a else "b", low, high, None, base))
                result = f"{qn} = {range_text(low, high)}" if low is not None else \
                    f"{qn} = {base_text}, changed by both"
                if cl:
                    result += f" (never below {minimum})"
                results.append(result)
                texts.append(f"{names[id(first)]} {does(first.touch)}, then {names[id(last)]} "
                             f"{does(last.touch)}: {result}")
            if clamped:
                rules.append(RULE_CLAMP)
        distinct = {(o.low, o.high, o.flag) for o in outcomes}
        value: str | None = None
        if len(distinct) == 1:
            o = outcomes[0]
            if o.flag is not None:
                value = "allowed" if o.flag else "not allowed"
            elif o.low is not None:
                value = range_text(o.low, o.high)
        if len(orders) == 1:
            first, last = orders[0]
            winner = "a" if last is a else "b"
            if ta.tier != tb.tier:
                lead = (f"{names[id(last)]} has the last word ({self.tier_name(last.touch.tier)} rank above "
                        f"{self.tier_name(first.touch.tier)})")
                if last.touch.op == "add":
                    lead = (f"{names[id(last)]}'s change applies after {names[id(first)]}'s "
                            f"({self.tier_name(last.touch.tier)} rank above {self.tier_name(first.touch.tier)})")
            elif first.fixed and last.fixed:
                lead = ("Same tier, both " + ("read before the cards in play" if first.touch.waiting
                                               and last.touch.waiting else "in play from the start")
                        + f": they apply in id order ({first.touch.source.owner} before "
                        f"{last.touch.source.owner}), so {names[id(last)]} has the last word")
            else:
                why = "a card's own price is read before the cards in play" if first.touch.waiting else \
                    "it is in play from the start"
                lead = (f"Same tier: {names[id(first)]} applies first ({why}), so {names[id(last)]} has the last "
                        "word")
            resolution = f"{lead}. {subject(texts[0])}."
        else:
            winner = "later"
            resolution = ("Same tier: whichever came into play later applies last. "
                          f"If {names[id(orders[0][0])]} came first: {texts[0]}. "
                          f"If {names[id(orders[1][0])]} came first: {texts[1]}.")
            if value is not None:
                resolution += f" Either way {results[0]}."
        return Conflict(kind, None, (), q, self.query_text(q), sa, sb, disagree, resolution, tuple(rules),
                        winner, value, tuple(outcomes))

    # ------------------------------------------------------------ a forbid against an action that asks it
    def asked(self, mv: MapView, a: Placed, b: Placed, where: frozenset[str]) -> Conflict:
        """A forbidden permission against an action that asks it ('forbid reroll-skull' against a card's re-roll):
        the action does not change the permission, it asks it where the Unit stands, so the forbid decides,
        whatever the action's rank (it names what it forbids, ruling 7.2), unless the action's effect asks no
        permission (a tier marked 'asks-no-permission', Awards: rulings 7.5, 10.3). A card
        that allows the permission is a pair of its own (a forbid against an allow, ranked by tier)."""
        forbid, action = (a, b) if a.touch.op == "forbid" else (b, a)
        sa, sb = self.side(a, mv), self.side(b, mv)
        sf, sc = (sa, sb) if forbid is a else (sb, sa)
        t = action.touch
        q = t.query
        qn = self.qname(q)
        doer = t.via or t.source  # the effect that acts (an RWB's, when a card grants it)
        kind = self.content.card_kinds.get(doer.owner, doer.kind)
        disagree = (f"{self.qphrase(q)}: {sf.name} forbids it; {sc.name}'s '{t.statement}' asks it "
                    f"({self.query_text(q)})")
        if self.content.asks_no_permission(doer.tier):
            # ruling 7.5: a tier marked 'asks-no-permission' (Awards) asks nothing (rules/precedence.yaml)
            label = KIND_LABELS.get(kind, kind)
            resolution = (f"{sc.name} wins: the engine makes the {label}'s '{t.statement}' without asking {qn}, "
                          f"so {sf.name}'s forbid does not stop it ({self.tier_name(t.tier)} override "
                          "everything).")
            return Conflict("permission", None, (), q, self.query_text(q), sa, sb, disagree, resolution,
                            (RULE_TIERS,), "b" if action is b else "a", None)
        rank = (f", although {self.tier_name(t.tier)} rank above {self.tier_name(forbid.touch.tier)}"
                if self.tier_index(t.tier) > self.tier_index(forbid.touch.tier) else "")
        resolution = (f"{sf.name} wins{rank}: {sc.name}'s '{t.statement}' changes no permission, it asks {qn} "
                      f"where the Unit stands, and {sf.name} forbids it by name, so {qn} is not allowed to "
                      f"{sc.name} there either; only an effect that allows it would give it back (a permission "
                      "against a permission, ranked by tier).")
        first = "a" if action is a else "b"
        return Conflict("permission", None, (), q, self.query_text(q), sa, sb, disagree, resolution,
                        (RULE_EXPLICIT + " (it names what it forbids)",), "a" if forbid is a else "b",
                        "not allowed", (Outcome(first, flag=False),))

    # ------------------------------------------------------------ replacements
    def replacement(self, mv: MapView, a: Placed, b: Placed, where: frozenset[str]) -> Conflict:
        """Two effects of the same pending event, one at least replacing it: which acts first, and what the other
        then does (nothing, when the first replaced the event)."""
        ta, tb = a.touch, b.touch
        event = ta.query.removeprefix(event_query(""))
        record = words.event(event)
        moment = record.moment if record is not None and record.moment else f"'{event}' is about to happen"
        spared = record.replaced if record is not None and record.replaced else "the event"
        sa, sb = self.side(a, mv), self.side(b, mv)
        names = {id(a): sa.name, id(b): sb.name}
        disagree = f"when {moment}: {sa.name} {reacts(ta, spared)}; {sb.name} {reacts(tb, spared)}"
        orders = self.event_order(a, b)
        texts = [after_first(names[id(first)], first.touch, names[id(last)], last.touch, spared)
                 for first, last in orders]
        rules = [RULE_REPLACE] + ([RULE_WITHIN if ta.tier == tb.tier else RULE_TIERS]
                                  if "replace-use" not in {ta.op, tb.op} else [])
        winner: str | None = None  # which side decides, when the order is known
        if len(orders) == 2 and "replace-use" in {ta.op, tb.op}:  # two uses: the player chooses
            resolution = (f"Both are offered after the triggers, and the player chooses: {texts[0]}; or "
                          f"{texts[1]}.")
        elif len(orders) == 1:
            first, last = orders[0]
            if "replace-use" in {first.touch.op, last.touch.op}:
                why = "a use is offered after every trigger"
            elif first.touch.tier != last.touch.tier:
                why = f"{self.tier_name(first.touch.tier)} rank below {self.tier_name(last.touch.tier)}"
            else:
                why = "it is in play from the start"
            resolution = f"{names[id(first)]} acts first ({why}): {texts[0]}."
            winner = "a" if (first if first.touch.op != "hear" else last) is a else "b"
        else:
            resolution = (f"Same tier: whichever came into play first acts first. If {names[id(orders[0][0])]} "
                          f"came first: {texts[0]}. If {names[id(orders[1][0])]} came first: {texts[1]}.")
        return Conflict("replacement", None, (), ta.query, f"when {moment}", sa, sb, disagree, resolution,
                        tuple(rules), winner, None)

    def event_order(self, a: Placed, b: Placed) -> list[tuple[Placed, Placed]]:
        """The orders the engine can run two effects of a pending event in: every trigger before the uses offered
        at it; triggers as the values' contributions are ordered (:meth:`order`); two uses, either."""
        use_a, use_b = a.touch.op == "replace-use", b.touch.op == "replace-use"
        if use_a != use_b:
            return [(b, a)] if use_a else [(a, b)]
        if use_a:
            return [(a, b), (b, a)]
        return self.order(a, b)

    # ------------------------------------------------------------ overrides
    def clause_mates(self, t: Touch) -> list[Touch]:
        """The other changes of ``t``'s query that the same clause of the same effect makes with it (the finder
        knows them: :class:`ddaydice.dsl.conflicts._Analyser`)."""
        return []

    def protections(self, p: Placed) -> list[Placed]:
        """The protections that come with a change: itself if it is a set that guards ('mgf-dice = 0 against
        raising'), and the separate protections of its clause when it sets the value ('mgf-dice = 0, protect
        mgf-dice against raising': the same guarded set in two statements, ruling 7.3)."""
        t = p.touch
        if t.op == "protect":
            return [p] if t.value is not None else []
        if not assigns(t):
            return []
        return [attrs.evolve(p, touch=m) for m in self.clause_mates(t) if m.op == "protect" and m.value is None]

    def start(self, mv: MapView, prot: Placed, where: frozenset[str]) -> tuple[int | None, str]:
        """The value a protection keeps, and how to say it: the one it sets ('protect mgf-dice = 0 against
        raising') or the set of its clause sets ('mgf-dice = 0, protect mgf-dice against raising'), else the
        printed or rules' value."""
        values = [prot.touch.value] + [m.value for m in self.clause_mates(prot.touch) if assigns(m)]
        for v in values:
            if v is not None and v[0] == v[1]:
                return v[0], f"{v[0]}, as {self.side(prot, mv).name} sets it"
        return self.base(mv, prot.touch.query, where)

    def guards(self, prot: Placed, other: Placed, mv: MapView, where: frozenset[str]) -> str | None:
        """What of a protection overrules another change (``RAISING``, a tier), or None."""
        return guards(prot.touch.args, other.touch, self.start(mv, prot, where)[0], self.base(mv, other.touch.query,
                                                                                              where)[0])

    def override(self, mv: MapView, prot: Placed, other: Placed, where: frozenset[str]) -> Conflict:
        sa, sb = self.side(prot, mv), self.side(other, mv)
        q = prot.touch.query
        qn = self.qname(q)
        base, base_text = self.start(mv, prot, where)
        rank = (f"although {self.tier_name(other.touch.tier)} rank above {self.tier_name(prot.touch.tier)}"
                if self.tier_index(other.touch.tier) > self.tier_index(prot.touch.tier) else "whatever its rank")
        resolution = (f"{sa.name} wins, {rank}: {sb.name}'s '{other.touch.statement}' is overruled, and {qn} "
                      f"stays at {base_text}.")
        if RAISING in prot.touch.args and other.touch.tier not in prot.touch.args:
            disagree = f"{self.qphrase(q)}: {sa.name} lets nothing raise it; {sb.name} {does(other.touch)}"
        else:
            tiers = " or ".join(self.tier_name(t) for t in prot.touch.args)
            disagree = f"{self.qphrase(q)}: {sa.name} lets no {tiers} lower it; {sb.name} {does(other.touch)}"
        return Conflict("override", None, (), q, self.query_text(q), sa, sb, disagree, resolution,
                        (RULE_EXPLICIT,), "a", str(base) if base is not None else None,
                        (Outcome("a", base, base, None, base),))

    def idle(self, mv: MapView, prot: Placed, idle: list[str], some: bool) -> Conflict:
        sa = self.side(prot, mv)
        q = prot.touch.query
        qn = self.qname(q)
        names = " or ".join(self.tier_name(t) for t in idle)
        places = compact_names([mv.sector_name(s) for s in sorted(prot.sectors, key=lambda s: sector_order(mv, s))])
        disagree = (f"{sa.name} names {names} among what cannot lower {qn}, but no effect of that tier that can "
                    f"be in play on {mv.bm.name} lowers {qn} in {places}")
        resolution = ("Nothing to resolve: that part of the override never applies" +
                      ("; the rest of it does (see the pairs above)." if some else
                       ": the override never overrules anything here."))
        return Conflict("idle-override", None, (), q, self.query_text(q), sa, None, disagree, resolution,
                        (RULE_EXPLICIT,), None, None)

    # ------------------------------------------------------------ links
    def linked(self, mv: MapView, link: Link, a: Placed, b: Placed, where: frozenset[str]) -> Conflict:
        sa, sb = self.side(a, mv), self.side(b, mv)
        win = sa if link.winner == "first" else sb
        order = sorted(where, key=lambda s: sector_order(mv, s))
        places = compact_names([mv.sector_name(s) for s in order])
        targets = compact_names([mv.sector_name(s) for s in sorted(a.sectors, key=lambda s: sector_order(mv, s))])
        before = [s for s in order if s not in a.sectors]
        inside = [s for s in order if s in a.sectors]
        if link.meet == "same":
            spot = f"in {places}"
        else:
            parts = []
            if before:
                parts.append(f"a Unit moving into {targets} from "
                             + compact_names([mv.sector_name(s) for s in before]))
            if inside:
                parts.append("in " + compact_names([mv.sector_name(s) for s in inside]) + " itself")
            spot = "; ".join(parts)
        how = link.how.format(a=sa.name, b=sb.name)
        resolution = f"{win.name} wins: {how}."
        q = link.first[0] if link.first[0] == link.second[0] else f"{link.first[0]}/{link.second[0]}"
        disagree = link.disagree.format(a=sa.name, b=sb.name)
        return Conflict("permission", None, (), q, self.query_text(link.first[0]), sa, sb, subject(disagree),
                        resolution, (link.rule,), "a" if link.winner == "first" else "b", None, where=spot)
