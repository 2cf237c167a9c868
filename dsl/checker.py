"""Name and type checking of effects.

The checker walks a parsed :class:`~ddaydice.dsl.ast.Effect`, resolves every
word against the registry (:mod:`ddaydice.dsl.words`) and the content's
:class:`~ddaydice.dsl.vocab.Vocabulary`, checks arities and argument kinds,
and returns the effect with every name in its canonical spelling
(``soldier`` -> ``soldiers``) together with all the diagnostics it found.
"""

from __future__ import annotations

import attrs

from ddaydice.dsl import ast, words
from ddaydice.dsl.checking.arguments import FILTER_WORDS, Context
from ddaydice.dsl.checking.conditions import ConditionChecks
from ddaydice.dsl.checking.statements import StatementChecks, words_of
from ddaydice.dsl.diagnostics import Diagnostic, did_you_mean
from ddaydice.dsl.schema import USED_ONLY_KINDS
from ddaydice.dsl.vocab import Vocabulary

# What the checker's parts define, still read from here (the loader, the reference, the TextMate grammars, the tests).
__all__ = ["FILTER_WORDS", "MAX_CHANCE_DICE", "Context", "check_effect", "check_names"]

MAX_CHANCE_DICE = 6  # 'roll 6d6 (...)' at most: a chance is a few dice


class _Checker(StatementChecks, ConditionChecks):
    """The clauses of an effect: triggers, uses and their windows, standing changes, limits, and the actions'
    options, chances and recipients (the statements and conditions are checked by the parts it derives from)."""

    def check_chance(self, action: ast.Action) -> None:
        """A chance's outcomes: results the dice can total, lowest first, 'else' last and once."""
        assert action.roll is not None
        count = action.roll.count
        low, high = count, 6 * count
        if not 1 <= count <= MAX_CHANCE_DICE:
            self.err("DSL117", f"roll: {count}d6 is not a chance's dice (1d6 to {MAX_CHANCE_DICE}d6)", action.roll.pos)
            return
        named: list[tuple[int, int]] = []
        for k, results in enumerate(action.ranges):
            where = action.range_pos[k] if k < len(action.range_pos) else action.options[k].pos
            if results is None:
                if k != len(action.ranges) - 1:
                    self.err("DSL117", "roll: 'else' is the last outcome (any total not named before it)", where)
                continue
            a, b = results
            shown = f"{a}" if a == b else f"{a}-{b}"
            if not low <= a <= b <= high:
                self.err("DSL117", f"roll: the results {shown} are not totals of {count}d6 ({low} to {high})",
                         where, f"name a total or a range of totals from {low} to {high}, such as "
                         f"'{low}-{(low + high) // 2}'")
            elif any(a <= d and c <= b for c, d in named):
                self.err("DSL117", f"roll: the results {shown} are named by an earlier outcome too", where,
                         "each total belongs to one outcome")
            named.append((a, b))

    def check_actions(self, actions: tuple[ast.Action, ...]) -> tuple[ast.Action, ...]:
        out: list[ast.Action] = []
        for action in actions:
            if action.roll is not None:
                self.check_chance(action)
            opts = []
            for opt in action.options:
                opts.append(attrs.evolve(self.check_option(opt),
                                         also=tuple(self.check_option(o) for o in opt.also)))
            out.append(attrs.evolve(action, options=tuple(opts)))
        return tuple(out)

    def check_option(self, opt: ast.Option) -> ast.Option:
        if opt.until is not None and words.lookup("event", opt.until.name) is None:
            self.unknown("event", opt.until, words.words("event"), code="DSL107")
        stmt = self.check_statement(opt.statement, in_actions=True, duration=opt.duration)
        action = words.action(stmt.verb.name)
        card = next((a for a in stmt.args[:1] if isinstance(a, ast.Word) and a.name == "self"), None)
        if action is not None and card is not None:  # an action on the card itself ('sacrifice self')
            self.check_reach(f"'{stmt.verb.name} self'", action.self_reaches, card.pos, "takes it")
        recipient = opt.recipient
        if recipient is not None:
            recipient = self.check_recipient(recipient, stmt)
        return attrs.evolve(opt, statement=stmt, recipient=recipient)

    def sector_valued(self, stmt: ast.Statement) -> bool:
        """Whether a statement changes a value or permission that belongs to a Sector (a requirement to move
        into it does)."""
        name = stmt.verb.name
        modifier = words.modifier(name)
        change = modifier.compile(stmt) if modifier is not None else None
        query = name if name in self.v.numbers() else change.query if change is not None else ""
        info = self.v.queries.get(query)
        return (info is not None and info.subject == "sector") or (change is not None and change.op == "require")

    def check_recipient(self, target: ast.Target, stmt: ast.Statement) -> ast.Target:
        name = stmt.verb.name
        is_modifier = name in self.v.numbers() or name in words.words("modifier")
        if target.kind == "adjacent-sector" and not self.sector_valued(stmt):
            self.err("DSL114", f"'adjacent sector' names a Sector: '{name}' does not change a Sector's value",
                     target.pos, "give it a Sector's value or permission, such as 'def -2 this turn' or "
                     "'mgf-dice = 0 this turn'")
        if target.condition is not None:
            if not is_modifier:
                self.err("DSL113", f"a condition on the recipient cannot filter '{name}' yet",
                         target.condition.pos, "recipient filters work on values and permissions given "
                         "for a while ('def -2 this turn to all units unless bunker')")
            return attrs.evolve(target, condition=self.check_condition(target.condition))
        return target

    def check_clause(self, clause: ast.Clause) -> ast.Clause:
        if clause.scope is not None and clause.scope.kind == "adjacent-sector":
            self.err("DSL114", "'adjacent sector' can only receive an action, not scope a clause",
                     clause.scope.pos, "write 'use ...: ... to adjacent sector'")
        body = clause.body
        match body:
            case ast.Trigger():
                spec = words.event(body.event.name)
                if spec is None:
                    self.unknown("event", body.event, words.words("event"), code="DSL107")
                elif (what := self.used_only()) is not None and not spec.own:
                    # a trigger on a card held until used would act at each event while merely held
                    self.err("DSL116", f"{what} acts only when it is used; a trigger here would act each time "
                             f"'{body.event.name}' happens while the card is merely held", body.event.pos,
                             "write 'use: ...' (played once, when the player chooses); the only triggers such a "
                             "card may have hear its own coming: " + ", ".join(
                                 f"'on {e}'" for e, w in words.words("event").items()
                                 if isinstance(w, words.EventWord) and w.own and w.reaches & self.ctx.owners))
                else:
                    self.check_reach(f"'on {body.event.name}'", spec.reaches, body.event.pos, "runs its triggers")
                    if spec.complete and words.tally_use(body.condition, body.actions) == (True, True):
                        self.err("DSL134", f"'on {body.event.name}' cannot both read the Final Tally's results and "
                                 "change them: what it read would depend on which other effects had changed it "
                                 "first (ruling 1.11)", body.event.pos,
                                 "read the complete Final Tally with a trigger that changes something else ('gain', "
                                 "'lose'), change it without reading it, or let the player choose the moment: "
                                 "'use after final-tally if ...: ...'")
                if spec is not None and spec.own and body.condition is not None and not body.condition.negated:
                    self.check_own_arrival(body.event.name, body.condition.expr)
                self.heard = body.event
                try:
                    new: ast.Body = attrs.evolve(body, condition=self.check_condition(body.condition),
                                                 actions=self.check_actions(body.actions))
                finally:
                    self.heard = None
            case ast.Use():
                if body.window is not None:
                    moment = body.window.moment.name
                    pool = set(words.words("event")) | set(words.words("moment")) | set(self.v.phases)
                    if moment not in pool:
                        self.unknown("moment", body.window.moment, pool, code="DSL108")
                    elif self.check_window(body.window):
                        self.check_reach(f"'use {body.window.kind} {moment}'", words.window_reaches(
                            (body.window.kind, moment)), body.window.pos, "offers its uses")
                    if body.window.kind == "when" and words.event(moment) is not None:
                        self.heard = body.window.moment  # 'use when EVENT' answers the event
                try:
                    new = attrs.evolve(body, condition=self.check_condition(body.condition),
                                       actions=self.check_actions(body.actions))
                finally:
                    self.heard = None
            case ast.Modifier():
                if self.waiting(body.statement):
                    self.check_waiting(clause, body)
                elif (what := self.used_only()) is not None:
                    self.err("DSL116", f"{what} acts only when it is used; a standing change here would never "
                             "apply", body.pos, f"write 'use: {words_of(body.statement)} this turn'")
                elif (change := words.modifier(body.statement.verb.name)) is not None:
                    self.check_reach(f"'{body.statement.verb.name}'", change.reaches, body.statement.verb.pos,
                                     "reads it")
                stmt = self.check_statement(body.statement, in_actions=False, duration=None)
                self.check_unused_limit(stmt, body.limit)
                new = attrs.evolve(body, statement=stmt, condition=self.check_condition(body.condition))
        return attrs.evolve(clause, body=new)

    def check_own_arrival(self, event: str, expr: ast.CondExpr) -> None:
        """A card's trigger on an event of its own arrival ('on drawn') hears that card's arrival only (ruling 14.8:
        a rule or a Sector hears every draw), so a condition that the card arriving is of another kind ('on drawn if
        drawn battle-condition' on a Badge) is never true: DSL139, at the condition that can never hold."""
        if self.ctx.owners & {"rule", "sector"}:
            return
        wrong = _never_arriving(expr, event, self.ctx.kind)
        if wrong is not None:
            kind = wrong.args[0].name if wrong.args and isinstance(wrong.args[0], ast.Word) else "?"
            self.err("DSL139", f"'{wrong.word.name} {kind}' is never true here: {self.ctx.label}'s 'on {event}' is "
                     f"heard only when this card itself is {event}, and it is a card of kind '{self.ctx.kind}'",
                     wrong.pos, f"to act whenever a {kind} is {event}, write the clause in a rule or an optional "
                     f"rule (rules/options/*.yaml); on this card, 'on {event}' alone acts when this card is {event}")

    def check_reach(self, said: str, reaches: frozenset[str], pos: ast.Pos, how: str) -> None:
        """A word that can never act for this effect's owner (the word's record says which owners it reaches,
        ``words.OWNERS``): an event heard only by the Sector entered, a window offered only for the card drawn, a
        change read only from Sectors, an action on 'self' that only a Specialist can take. Such a clause would
        validate and never act: DSL129."""
        if reaches & self.ctx.owners:
            return
        whose = " or ".join(text for owner, text in words.OWNERS.items() if owner in reaches)
        self.err("DSL129", f"{said} never acts on {self.ctx.label}: the engine {how} only for {whose}", pos,
                 "write it where it acts, or leave it out: as it is, the clause would validate and never act")

    def check_window(self, window: ast.Window) -> bool:
        """A use's window must be one the engine offers uses at (``words.windows``): a known word in another window
        ('before advance') would make a card that validates and is never offered. True when it is one."""
        offered = words.windows()
        if (window.kind, window.moment.name) in offered:
            return True
        said = f"{window.kind} {window.moment.name}"
        phrases = [f"{kind} {moment}" for kind, moment in offered]
        same = [f"'{kind} {moment}'" for kind, moment in offered if moment == window.moment.name]
        hint = f"did you mean {' or '.join(same)}?" if same else did_you_mean(said, phrases)
        spec = words.event(window.moment.name)
        if hint is None and spec is not None and spec.own:  # what the card does as it arrives is a trigger
            hint = f"what the card does when it is {window.moment.name}, it does by itself: write 'on " \
                   f"{window.moment.name}: ...'"
        listed = "uses are offered only " + ", ".join(phrases)
        self.err("DSL121", f"no use is ever offered '{said}': the turn has no such moment for a card's uses",
                 window.pos, f"{hint} ({listed})" if hint else listed)
        return False

    def used_only(self) -> str | None:
        """The card's kind, for a message, when it acts only when used (an Item, an Award, an expansion's kind held
        like an Item: rules/kinds.yaml), so that no standing change (DSL116) nor trigger on what happens while it
        is held applies; None for any other source."""
        base = USED_ONLY_KINDS.get(self.ctx.kind)
        if base is not None:
            return f"{'an' if base[0] in 'AEIOU' else 'a'} {base}"
        return f"a {self.ctx.used_only_as} (used like an Item)" if self.ctx.used_only_as is not None else None

    @staticmethod
    def waiting(stmt: ast.Statement) -> bool:
        """Whether the statement speaks of its own card while it waits to be bought (its word's record says)."""
        spec = words.modifier(stmt.verb.name)
        return spec is not None and spec.waiting

    def check_waiting(self, clause: ast.Clause, body: ast.Modifier) -> None:
        """A card's clause about its own price: on a card that is bought, for itself, without a limit (it is not
        a change in play, so DSL116 does not apply to it)."""
        name = body.statement.verb.name
        if not self.ctx.bought:
            where = {"sector": "a Sector", "rule": "a rule", "option": "an optional rule", "rwb": "an RWB bonus",
                     "award": "an Award"}.get(self.ctx.kind, f"a card of kind '{self.ctx.kind}'")
            self.err("DSL118", f"'{name}' speaks of a card's own price while it waits to be bought; {where} is "
                     "never bought", body.statement.verb.pos,
                     "write it on the Specialist, Item or Vehicle whose price it changes; to change the price of "
                     "other cards, change 'specialist-cost' or 'item-cost' ('item-cost -1 if card-is X')")
        elif clause.scope is not None:
            self.err("DSL118", f"'{name}' speaks of this card alone: it takes no scope", clause.scope.pos,
                     f"write '{words_of(body.statement)}' without 'for ...:'")
        elif body.limit is not None:
            self.err("DSL118", f"'{name}' is the card's price, asked whenever it is priced: it takes no limit",
                     body.limit.pos, f"write '{words_of(body.statement)}' without 'once per ...'")

    def check_unused_limit(self, stmt: ast.Statement, limit: ast.Limit | None) -> None:
        """A permission's limit counts the times the engine acts on it (a Unit finds, trades, Advances...: the
        permission is used); a limit on what is never acted on (a forbidden permission, a Sector's requirement, a
        protection) would never be used up."""
        if limit is None:
            return
        info = self.v.queries.get(stmt.verb.name)
        if info is not None and info.kind == "number" and not info.used:
            # A standing change of a number is asked whenever the value is needed (a Combat, a move, a price, a
            # rule reading it) and is used by nothing; only a number the turn uses up counts a limit (ruling 14.5).
            said = words_of(stmt)
            self.err("DSL133", f"'{said} once per {limit.period}': {info.name or info.id} is asked whenever it is "
                     "needed and never used up, so the limit would never be counted", limit.pos,
                     f"for a change the player makes once per {limit.period}, write a use: 'use once per "
                     f"{limit.period}: {said} this {'phase' if limit.period == 'phase' else 'turn'}'; for a standing "
                     f"change, '{said}' without 'once per ...'")
            return
        spec = words.modifier(stmt.verb.name)
        if spec is None:
            return
        op = spec.compile(stmt).op
        if op in _NEVER_USED:
            self.err("DSL122", f"'{words_of(stmt)} once per {limit.period}': {_NEVER_USED[op]}, so the limit would "
                     "never be used up", limit.pos, f"write '{words_of(stmt)}' without 'once per ...'")

    def check_limit(self, limit: ast.Limit | None) -> None:
        """A limit counted on the card ('once per turn per card') is the card's: on an effect that is no card a Unit
        holds (a rule, a Sector, a card in play for every Unit) there is nothing to count it on."""
        where = self.ctx.where()
        if limit is not None and limit.on_card and where is not None:
            self.err("DSL120", f"'once per {limit.period} per card' counts the limit on the card, whoever holds it; "
                     f"{where} is held by no Unit", limit.pos,
                     f"write 'once per {limit.period}' (counted on each Unit the clause serves)")

    def check(self, effect: ast.Effect) -> ast.Effect:
        for clause in effect.clauses:
            self.check_limit(clause.body.limit)
        return attrs.evolve(effect, clauses=tuple(self.check_clause(c) for c in effect.clauses))


#: The modifiers a limit cannot count (DSL122), and why: what the engine never acts on.
_NEVER_USED = {
    "forbid": "a permission's limit counts the times the turn acts on it, and nothing is done that is forbidden",
    "require": "a Sector's requirement is met, never used",
    "protect": "a protection guards a value and is never used",
}


def check_effect(effect: ast.Effect, vocab: Vocabulary, context: Context) -> tuple[ast.Effect, list[Diagnostic]]:
    """Resolve names and check types; returns the canonical effect and every diagnostic."""
    checker = _Checker(vocab, context)
    checked = checker.check(effect)
    return checked, checker.diags


def check_names(effect: ast.Effect, vocab: Vocabulary, context: Context) -> list[Diagnostic]:
    """The names of an effect mended from a syntax error (``mending.mend_lines``) that are unknown: what the
    modder wrote beside the error is checked too (every mistake at once), and nothing the mending may have made."""
    checker = _Checker(vocab, context)
    checker.check(effect)
    return checker.names


def _never_arriving(expr: ast.CondExpr, event: str, kind: str) -> ast.Predicate | None:
    """The predicate that makes ``expr`` never true in a card's trigger on its own arrival: '{event} KIND' of
    another kind than the card's, required by the whole condition (alone, in an 'and', or in every branch of an
    'or'); None when the condition can hold."""
    match expr:
        case ast.Predicate(word=word, args=(ast.Word(name=named), *_)) if word.name == event and named != kind:
            return expr
        case ast.AllOf(operands=operands):
            return next((p for o in operands if (p := _never_arriving(o, event, kind)) is not None), None)
        case ast.AnyOf(operands=operands):
            found = [_never_arriving(o, event, kind) for o in operands]
            return found[0] if all(p is not None for p in found) else None
    return None
