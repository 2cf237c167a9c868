"""Plain-English rendering of effects, so a card's DSL can be read beside its text.

Every construct of the language renders; the output is what ``dday card`` and
the map renderer show, and it is snapshot-tested for all bundled content.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from ddaydice.dsl import ast, words
from ddaydice.dsl.words.base import Said, Wording
from ddaydice.dsl.words.english import FACE_NAMES, RESOURCE_NAMES, title, upper_first
from ddaydice.dsl.words.modifiers import guarded

DURATIONS = {
    "this-turn": "until the end of the turn",
    "this-phase": "until the end of the phase",
    "next-turn": "during the next turn",
    "permanently": "for the rest of the game",
}


class Renderer:
    """Renders checked effects; ``names`` maps card and sector ids to display names."""

    def __init__(self, names: Mapping[str, str] | None = None, queries: Mapping[str, str] | None = None) -> None:
        self.names = dict(names or {})
        self.queries = dict(queries or {})

    # ---------------------------------------------------------------- pieces
    def name(self, word: str) -> str:
        if word in self.names:
            return self.names[word]
        if word in RESOURCE_NAMES:
            return RESOURCE_NAMES[word]
        if word in FACE_NAMES:
            return FACE_NAMES[word]
        return title(word)

    def query(self, qid: str) -> str:
        return self.queries.get(qid, title(qid) if qid != "def" else "DEF")

    def amount(self, arg: ast.Arg) -> str:
        match arg:
            case ast.Number(value=n):
                return str(n)
            case ast.Dice(count=c):
                return f"{c}d6"
            case ast.Word(name="all"):
                return "all"
        return self.arg(arg)

    def arg(self, arg: ast.Arg) -> str:
        match arg:
            case ast.Number(value=n):
                return str(n)
            case ast.Signed(value=n):
                return f"{n:+d}"
            case ast.Dice(count=c, sign=s):
                return f"{'-' if s < 0 else '+' if s > 0 else ''}{c}d6"
            case ast.Assign(value=v):
                return self.arg(v)
            case ast.Word(name=n):
                return self.name(n)

    def per(self, per: ast.Per | None) -> str:
        """'per COUNTER [above N]' in English: the counter's record says it; a face of the tally needs none."""
        if per is None:
            return ""
        names = tuple(w.name for w in per.words)
        beyond = f" beyond the first {per.above}" if per.above is not None else ""
        counter = words.counter(names[0])
        if counter is not None:
            return counter.render(self, names) + beyond
        return f" for every {self.name(names[0])} in the Final Tally{beyond}"

    def filters(self, args: tuple[ast.Arg, ...], die: str = "die") -> str:
        """The filters of an action on dice ('die' or 'dice': the noun they follow): the faces and colours named,
        in brackets, then the rest. The engine leaves Locked dice alone unless the filters say 'locked' (ruling
        8.22), so that is said whether 'unlocked' is written or not."""
        words = [a.name for a in args if isinstance(a, ast.Word)]
        named: list[str] = []
        parts: list[str] = []
        if "locked" not in words:
            parts.append("that are not Locked" if die == "dice" else "that is not Locked")
        for w in words:
            if w == "locked":
                parts.append("even a Locked one")
            elif w == "any-roll":
                parts.append("including the Machine Gun Fire dice and a roll about to take effect (a Landmine die, a "
                             "Random Attribute roll)")
            elif w == "real":
                parts.append("real dice only")
            elif w == "same":
                parts.append("all to the same result")
            elif w not in {"die", "all", "unlocked"}:
                named.append(self.name(w))
        return (f" ({', '.join(named)})" if named else "") + ((" " + ", ".join(parts)) if parts else "")

    # ------------------------------------------------------------ statements
    def statement(self, stmt: ast.Statement, heard: str = "") -> str:
        """A statement in English: its word's record says it (:mod:`ddaydice.dsl.words`); any other verb names a
        query, changed by its argument. ``heard``: the pending event of its clause, as 'instead of' says it."""
        w = Wording(stmt.verb.name, stmt.args, self.per(stmt.per), heard)
        spec = words.action(w.verb) or words.modifier(w.verb)
        if spec is not None:
            return spec.render(self, w)
        return self._say_query_change(w)

    def _say_query_change(self, w: Wording) -> str:
        """A query changed: 'DEF becomes 0', 'DEF -1 for every ...'; a bare word as itself."""
        a = w.args
        bound = words.ceiling(a)
        if bound is not None:  # 'locked-dice at most 1'
            return f"{self.query(w.verb)} is at most {self.arg(bound)}"
        if a and isinstance(a[0], ast.Assign):
            against = words.guarded_set(a)
            if against is not None:  # 'mgf-dice = 0 against raising'
                return f"{self.query(w.verb)} becomes {self.arg(a[0])}{w.per} and {guarded('it', against)}"
            return f"{self.query(w.verb)} becomes {self.arg(a[0])}{w.per}"
        if a:
            return f"{self.query(w.verb)} {self.arg(a[0])}{w.per}"
        return w.verb

    def option(self, opt: ast.Option, heard: str = "") -> str:
        if opt.also:
            parts = (attrs.evolve(opt, also=()), *opt.also)
            first = [self.option(o, heard) for o in parts if _replaces(o)]
            return _instead(first, " and ".join(self.option(o, heard) for o in parts if not _replaces(o)))
        text = self.statement(opt.statement, heard)
        if opt.recipient is not None:
            who = self.target(opt.recipient.kind)
            if opt.recipient.condition is not None:
                who += f" ({self.condition(opt.recipient.condition).strip()})"
            text = f"{who}: {text}"
        if opt.until is not None:
            event = words.event(opt.until.name)
            text = f"{text} {event.until if event is not None else f'until the next {opt.until.name}'}"
        elif opt.duration is not None:
            text = f"{text} {DURATIONS[opt.duration]}"
        return text

    def action(self, action: ast.Action, heard: str = "") -> str:
        if action.roll is not None:  # a chance: 'roll 1d6: on 5-6, gain 2 Courage; otherwise, lose 1 Soldier'
            outcomes = []
            for results, opt in zip(action.ranges, action.options, strict=True):
                if results is None:
                    on = "otherwise"
                elif results[0] == results[1]:
                    on = f"on {results[0]}"
                else:
                    on = f"on {results[0]} to {results[1]}"
                outcomes.append(f"{on}, {self.option(opt, heard)}")
            return f"roll {action.roll.count}d6: " + "; ".join(outcomes)
        return " OR ".join(self.option(o, heard) for o in action.options)

    def actions(self, actions: tuple[ast.Action, ...], heard: str = "") -> str:
        """The actions in order; a replacement of the clause's pending event is said first, then what happens in
        its place ('instead of suffering the casualties, lose 2 Courage')."""
        alone = [a for a in actions if a.roll is None and len(a.options) == 1 and not a.options[0].also
                 and _replaces(a.options[0])]
        rest = "; ".join(self.action(a, heard) for a in actions if a not in alone)
        return _instead([self.action(a, heard) for a in alone], rest)

    # ------------------------------------------------------------ conditions
    def cond_expr(self, expr: ast.CondExpr) -> str:
        match expr:
            case ast.Not(operand=op):
                return f"not ({self.cond_expr(op)})" if not isinstance(op, ast.Predicate) else \
                    "not " + self.cond_expr(op)
            case ast.AllOf(operands=ops):
                return " and ".join(self.cond_expr(o) for o in ops)
            case ast.AnyOf(operands=ops):
                return " or ".join(self.cond_expr(o) for o in ops)
            case ast.Predicate(word=w, args=a, comparison=cmp):
                cmp_text = f" {cmp.op} {cmp.value}" if cmp else ""
                arg0 = a[0].name if a and isinstance(a[0], ast.Word) else ""
                spec = words.predicate(w.name)
                if spec is not None:
                    return spec.render(self, Said(w.name, arg0, cmp_text))
                return f"{title(w.name)}{cmp_text}"

    def target(self, kind: str) -> str:
        """Who a scope or a recipient is, in English (its record's phrase)."""
        found = words.target(kind)
        if found is None:
            raise AssertionError(f"no target '{kind}'")
        return found.phrase

    def moment(self, name: str) -> str:
        """A use's moment in English: a moment's record, an event's ('after the Final Tally'), else a phase's
        name."""
        found = words.moment(name)
        if found is not None:
            return found.phrase
        event = words.event(name)
        return event.moment if event is not None and event.moment else title(name)

    def condition(self, cond: ast.Condition | None) -> str:
        if cond is None:
            return ""
        word = "unless" if cond.negated else "if"
        return f" {word} {self.cond_expr(cond.expr)}"

    def limit(self, limit: ast.Limit | None) -> str:
        return f" ({self.once(limit)})" if limit else ""

    @staticmethod
    def once(limit: ast.Limit) -> str:
        """'once per turn'; counted on the card: 'once per turn, whoever holds the card'."""
        return f"once per {limit.period}" + (", whoever holds the card" if limit.on_card else "")

    def clause(self, clause: ast.Clause) -> str:
        scope = f"{upper_first(self.target(clause.scope.kind))}: " if clause.scope else ""
        body = clause.body
        match body:
            case ast.Trigger():
                event = words.event(body.event.name)
                phrase = event.phrase if event is not None else f"on {body.event.name}"
                heard = event.replaced if event is not None else ""
                text = f"{upper_first(phrase)}{self.condition(body.condition)}: {self.actions(body.actions, heard)}"
                text += self.limit(body.limit)
            case ast.Use():
                when = ""
                if body.window is not None:
                    moment = self.moment(body.window.moment.name)
                    when = f" {body.window.kind} {moment}"
                cond = self.condition(body.condition)
                once = " " + self.once(body.limit) if body.limit else ""
                if body.limit is not None and body.limit.on_card and (when or cond):
                    once += ","  # 'once per turn, whoever holds the card, after ...'
                event = words.event(body.window.moment.name) if body.window and body.window.kind == "when" else None
                heard = event.replaced if event is not None else ""
                text = (f"May be used{once}{when}{cond}: "
                        f"{self.actions(body.actions, heard)}")
            case ast.Modifier():
                stmt = self.statement(body.statement)
                text = stmt[0].upper() + stmt[1:] + self.condition(body.condition) + self.limit(body.limit)
        text = scope + text
        return text if text.endswith(".") else text + "."

    def effect(self, effect: ast.Effect) -> str:
        return " ".join(self.clause(c) for c in effect.clauses)

    def lines(self, effect: ast.Effect) -> list[str]:
        return [self.clause(c) for c in effect.clauses]


def _replaces(opt: ast.Option) -> bool:
    """Whether the option's statement replaces the pending event of its clause (its word's record says so)."""
    spec = words.action(opt.statement.verb.name)
    return spec is not None and spec.replaces


def _instead(first: list[str], rest: str) -> str:
    """A replacement said first, then what happens in its place (nothing, if nothing else is said)."""
    if not first:
        return rest
    return f"{', '.join(first)}, {rest or 'nothing happens'}"
