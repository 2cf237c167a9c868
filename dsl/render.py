"""Plain-English rendering of effects, so a card's DSL can be read beside its text.

Every construct of the language renders; the output is what ``dday card`` and
the map renderer show, and it is snapshot-tested for all bundled content.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import ClassVar

import attrs

from ddaydice.dsl import ast

FACE_NAMES = {
    "skull": "Skull",
    "star": "Star",
    "one-soldier": "1 Soldier",
    "two-soldiers": "2 Soldiers",
    "courage": "Courage",
    "tool": "Tool",
    "any": "result of the player's choice",
}
RESOURCE_NAMES = {"soldiers": "Soldiers", "stars": "Stars", "courage": "Courage", "item-points": "Item Points"}
EVENT_PHRASES = {
    "advance": "each time this Unit Advances",
    "move": "each time this Unit moves",
    "enter": "when a Unit moves into this Sector",
    "first-enter": "when the first Unit of the game moves into this Sector",
    "final-tally": "when the Final Tally is complete",
    "rwb": "for every RWB this Unit scores",
    "straight": "when the Final Tally is a straight",
    "upkeep": "at each Upkeep",
    "movement": "when each Move phase begins for this Unit",
    "combat": "during each Combat phase",
    "casualties": "when this Unit suffers casualties",
    "specialist-lost": "when another Specialist of this Unit would be lost",
    "found": "when this card is found",
    "turn-start": "at the start of each turn",
    "game-start": "at the start of the game",
    "landmine": "when this Unit crosses Landmines",
    "drawn": "when a card is drawn",
    "assault-won": "when this player wins an Assault",
}
MOMENT_PHRASES = {
    "final-tally": "the Final Tally",
    "mgf": "Machine Gun Fire is rolled",
    "movement": "movement",
    "first-roll": "the first roll",
    "purchase": "the purchase phase",
    "found": "it is found",
    "drawn": "it is drawn",
}
TARGET_PHRASES = {
    "all-units": "all Units",
    "units-here": "all Units in this Sector",
    "another-unit": "another Unit",
    "the-german": "the German",
    "all-players": "every player",
    "adjacent-sector": "an adjacent Sector of your choice",
}
DURATIONS = {
    "this-turn": "until the end of the turn",
    "this-phase": "until the end of the phase",
    "next-turn": "during the next turn",
    "permanently": "for the rest of the game",
}
# 'until EVENT': how long a granted modifier lasts, by the event that ends it (as it happens).
UNTIL_PHRASES = {
    "advance": "until this Unit next Advances",
    "move": "until this Unit next moves",
    "enter": "until a Unit next moves into this Sector",
    "first-enter": "until the first Unit of the game moves into this Sector",
    "final-tally": "until this Unit's next Final Tally is complete",
    "rwb": "until this Unit next scores an RWB",
    "straight": "until this Unit's next straight",
    "upkeep": "until this Unit's next Upkeep",
    "movement": "until this Unit's next Move phase begins",
    "combat": "until this Unit's next Combat",
    "casualties": "until this Unit next suffers casualties",
    "specialist-lost": "until this Unit next loses a Specialist",
    "found": "until this card is next found",
    "turn-start": "until the next turn begins",
    "game-start": "until the game begins",
    "landmine": "until this Unit next crosses Landmines",
    "drawn": "until a card is next drawn",
    "assault-won": "until this player next wins an Assault",
}
# The actions without arguments, as the cards word them.
FIXED_PHRASES = {
    "copy-tally": "copy another Unit's Final Tally and ignore your own",
    "keep-tally": "this Final Tally is also your Final Tally next turn",
    "die-instead": "sacrifice this Specialist in its place",
    "swap-sectors": "switch Sectors with another Unit (markers do not change)",
    "win": "this Unit has conquered its objective",
    "reset-marker": "turn the Unit marker back to 1 chevron",
    "second-tally": "roll a second Final Tally with a separate set of dice and keep either one",
}
TIER_NAMES = {
    "rules": "game rules",
    "sectors": "Sector attributes",
    "specialists": "Specialists",
    "items-vehicles": "Items or Vehicles",
    "awards": "Awards",
}


def upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


ACRONYMS = frozenset({"mgf", "def", "rwb"})
SINGULAR = {"soldiers": "Soldier", "stars": "Star", "item-points": "Item Point"}
PLURAL_FACES = {"skull": "Skulls", "star": "Stars", "tool": "Tools"}


def title(name: str) -> str:
    return " ".join(part.upper() if part in ACRONYMS else part.capitalize() for part in name.split("-"))


@attrs.frozen
class _Wording:
    """A statement as its English is made: the verb, the arguments, and the rendered 'per' tail."""

    verb: str
    args: tuple[ast.Arg, ...]
    per: str

    @property
    def die(self) -> str:
        """The noun for dice after the count: 'dice' after a number over 1, else 'die'."""
        a = self.args
        return "dice" if a and isinstance(a[0], ast.Number) and a[0].value > 1 else "die"

    def word(self, i: int) -> str:
        """The name of the i-th argument if it is a word, else ''."""
        if i < len(self.args):
            item = self.args[i]
            if isinstance(item, ast.Word):
                return item.name
        return ""


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
        if per is None:
            return ""
        names = [w.name for w in per.words]
        beyond = f" beyond the first {per.above}" if per.above is not None else ""
        if names[0] == "tagged":
            return f" for every card marked {self.name(names[1])} the Unit holds{beyond}"
        if beyond:
            return self.per(attrs.evolve(per, above=None)) + beyond
        if names[0] == "locked":
            return f" for every Locked {self.name(names[1])}"
        if names[0] in {"rwbs", "rwb"}:
            return " for every RWB scored this turn"
        if names[0] in {"specialists", "specialist"}:
            return " for every living Specialist"
        if names[0] == "active-skulls":
            return " for every active Skull this turn"
        if names[0] == "units-after-first":
            return " for every Unit in the game after the first"
        return f" for every {self.name(names[0])} in the Final Tally"

    def filters(self, args: tuple[ast.Arg, ...]) -> str:
        words = [a.name for a in args if isinstance(a, ast.Word)]
        parts = []
        for w in words:
            if w == "unlocked":
                parts.append("that is not Locked")
            elif w == "locked":
                parts.append("even a Locked one")
            elif w == "any-roll":
                parts.append("including Machine Gun Fire and Landmine dice")
            elif w == "real":
                parts.append("real dice only")
            elif w == "same":
                parts.append("all to the same result")
            elif w in {"die", "all"}:
                continue
            else:
                parts.append(f"({self.name(w)})")
        return (" " + ", ".join(parts)) if parts else ""

    # ------------------------------------------------------------ statements
    def statement(self, stmt: ast.Statement) -> str:
        """A statement in English: its verb's family says it (:attr:`_FAMILIES`); any other verb names a
        query, changed by its argument."""
        w = _Wording(stmt.verb.name, stmt.args, self.per(stmt.per))
        return self._FAMILIES.get(w.verb, Renderer._say_query_change)(self, w)

    def _say_query_change(self, w: _Wording) -> str:
        """A query changed: 'DEF becomes 0', 'DEF -1 for every ...'; a bare word as itself."""
        a = w.args
        if a and isinstance(a[0], ast.Assign):
            return f"{self.query(w.verb)} becomes {self.arg(a[0])}{w.per}"
        if a:
            return f"{self.query(w.verb)} {self.arg(a[0])}{w.per}"
        return w.verb

    def _say_fixed(self, w: _Wording) -> str:
        """The actions without arguments: always the same words (:data:`FIXED_PHRASES`)."""
        return FIXED_PHRASES[w.verb]

    def _say_resources(self, w: _Wording) -> str:
        """gain / lose: '1 Soldier' in the singular (when one, and not 'per' something)."""
        a = w.args
        one = isinstance(a[0], ast.Number) and a[0].value == 1 and not w.per
        what = SINGULAR.get(w.word(1), self.arg(a[1])) if one else self.arg(a[1])
        return f"{w.verb} {self.amount(a[0])} {what}{w.per}"

    def _say_add(self, w: _Wording) -> str:
        """add: results put into the Final Tally, of a colour, of any colour (chosen) or colourless."""
        a = w.args
        colour = w.word(2)
        if colour == "any-colour":
            tail = " of any colour (chosen)"
        elif colour:
            tail = f" ({self.name(colour)})"
        else:
            tail = " (colourless)"
        face = "result of the player's choice" if w.word(1) == "any" else self.name(w.word(1))
        if not (isinstance(a[0], ast.Number) and a[0].value == 1):
            face = PLURAL_FACES.get(w.word(1), face)
        return f"add {self.amount(a[0])} {face}{tail} to the Final Tally{w.per}"

    def _say_remove(self, w: _Wording) -> str:
        """remove: results taken out of the Final Tally."""
        return f"remove {self.amount(w.args[0])} {self.name(w.word(1))} from the Final Tally{w.per}"

    def _say_dice(self, w: _Wording) -> str:
        """reroll / reface / recolour / steal / pool-trade: dice of the Final Tally, with their filters."""
        a = w.args
        match w.verb:
            case "reroll":
                if w.word(0) == "all":
                    return f"re-roll every die{self.filters(a[1:])}"
                return f"re-roll {self.amount(a[0])} {w.die}{self.filters(a[1:])}"
            case "reface":
                count = "every" if w.word(0) == "all" else self.amount(a[0])
                words = [x.name for x in a if isinstance(x, ast.Word)]
                if "as" in words:  # a named face: 'reface 1 die skull as two-soldiers'
                    k = next(i for i, x in enumerate(a) if isinstance(x, ast.Word) and x.name == "as")
                    face = self.name(words[words.index("as") + 1])
                    return f"turn {count} {w.die}{self.filters(a[1:k])} into {face} (keeping its colour)"
                return f"change the result of {count} {w.die}{self.filters(a[1:])} (keeping its colour)"
            case "recolour":
                return f"change the colour of {self.amount(a[0])} {w.die}{self.filters(a[1:])} (keeping its result)"
            case "steal":
                return f"take {self.amount(a[0])} {w.die}{self.filters(a[2:])} from an opponent's Final Tally"
            case _:  # pool-trade
                return f"trade up to {self.amount(a[0])} {w.die} of your Final Tally with your trading pool"

    def _say_sacrifice(self, w: _Wording) -> str:
        """sacrifice: this Specialist, so many of the player's choice, or a named one."""
        a = w.args
        if w.word(0) == "self":
            return "sacrifice this Specialist"
        if isinstance(a[0], ast.Number):
            return f"sacrifice {a[0].value} Specialist of your choice"
        return f"sacrifice the {self.name(w.word(0))}"

    def _say_recruit_or_find(self, w: _Wording) -> str:
        """recruit / find: a named card, or so many of the player's choice; 'free' says so."""
        a = w.args
        free = " for free" if w.word(len(a) - 1) == "free" else ""
        if isinstance(a[0], ast.Number):
            what = "Specialist" if w.verb == "recruit" else "Vehicle" if w.word(1) == "vehicle" else \
                "used Item (paying its cost again)" if w.word(1) == "used-item" else "Item"
            return f"{w.verb} {a[0].value} {what} of your choice{free}"
        return f"{w.verb} the {self.name(w.word(0))}{free}"

    def _say_discard(self, w: _Wording) -> str:
        """discard: this card, so many cards of the player's choice (Items by default), or a named one."""
        a = w.args
        if w.word(0) == "self":
            return "discard this card"
        if isinstance(a[0], ast.Number):
            if w.word(1) not in {"", "item"}:
                return f"lose {a[0].value} {self.name(w.word(1))} of your choice (discarded)"
            return f"lose {a[0].value} Item of your choice (it counts as used)"
        return f"lose the {self.name(w.word(0))} (it counts as used)"

    def _say_cards(self, w: _Wording) -> str:
        """offer / draw-award / draw / cancel / pick / arrange-top: cards on offer, and decks."""
        a = w.args
        match w.verb:
            case "offer":
                return f"the {self.name(w.word(0))} can be found here (pay its cost)"
            case "draw-award":
                return "draw 1 Award at random" if w.word(0) == "random" else "choose 1 Award"
            case "draw":
                n = a[0].value if isinstance(a[0], ast.Number) else 1
                return f"draw {n} {self.name(w.word(1))}" + (" cards" if n > 1 else "")
            case "cancel":
                return f"cancel the {self.name(w.word(0))} in play (for every Unit)"
            case "pick":
                return (f"take {self.amount(a[0])} {self.name(w.word(1))} of your choice from the deck, then "
                        "shuffle it")
            case _:  # arrange-top
                return (f"look at the top {self.amount(a[0])} cards of the {self.name(w.word(1))} deck and put "
                        "them back in any order")

    def _say_bonus(self, w: _Wording) -> str:
        """rwb / absorb / roll-split: an RWB bonus, resources spent to save Soldiers, a die per Unit."""
        match w.verb:
            case "rwb":
                return f"gain a {self.name(w.word(0))} RWB"
            case "absorb":
                res = " or ".join(self.name(x.name) for x in w.args if isinstance(x, ast.Word))
                return f"spend {res} to save Soldiers, 1 for 1 (any mix)"
            case _:  # roll-split
                return (f"roll 1 die per Unit: one result of your choice gives {self.name(w.word(0))}, the others "
                        f"added up give {self.name(w.word(1))}")

    def _say_sector(self, w: _Wording) -> str:
        """become / roll-attribute / retreat: this Sector's attributes, and a step back to another one."""
        match w.verb:
            case "become":
                return f"this Sector gains '{self.name(w.word(0))}' for the rest of the game"
            case "roll-attribute":
                return f"roll 1d6 on the {self.name(w.word(0))} table; the result stays for the rest of the game"
            case _:  # retreat
                return f"retreat to {self.name(w.word(0))} (if not visited)"

    def _say_permission(self, w: _Wording) -> str:
        """forbid / allow / ignore / protect: permissions, rules ignored, queries no tier can reduce."""
        match w.verb:
            case "forbid":
                return f"{upper_first(self.query(w.word(0)))} is not allowed"
            case "allow":
                return f"{upper_first(self.query(w.word(0)))} is allowed"
            case "ignore":
                return f"ignore {self.name(w.word(0))}"
            case _:  # protect
                tiers = [TIER_NAMES.get(x.name, x.name) for x in w.args[2:] if isinstance(x, ast.Word)]
                joined = " or ".join(tiers)
                return f"no {joined} can reduce {self.query(w.word(0))} here (explicit override)"

    def _say_requirement(self, w: _Wording) -> str:
        """require: what moving into this Sector (or advancing from it) takes."""
        a = w.args
        if w.word(0) == "sacrifice":
            if isinstance(a[1], ast.Number):
                return f"requirement: sacrifice {a[1].value} Specialist to move here"
            return f"requirement: sacrifice the {self.name(w.word(1))} to move here"
        if w.word(0) == "battle-cry":
            return "requirement: can only be entered with a Battle Cry RWB"
        if w.word(0) == "climb":
            return "requirement: you must Climb (4 Skulls in your Final Tally) to Advance from here"
        return f"requirement: must have the {self.name(w.word(0))} to move here"

    # Each verb of the language, to the method that says its family's statements in English.
    _FAMILIES: ClassVar[dict[str, Callable[[Renderer, _Wording], str]]] = {
        "gain": _say_resources, "lose": _say_resources,
        "add": _say_add, "remove": _say_remove,
        "reroll": _say_dice, "reface": _say_dice, "recolour": _say_dice, "steal": _say_dice,
        "pool-trade": _say_dice,
        "sacrifice": _say_sacrifice, "recruit": _say_recruit_or_find, "find": _say_recruit_or_find,
        "discard": _say_discard,
        "offer": _say_cards, "draw-award": _say_cards, "draw": _say_cards, "cancel": _say_cards,
        "pick": _say_cards, "arrange-top": _say_cards,
        "rwb": _say_bonus, "absorb": _say_bonus, "roll-split": _say_bonus,
        "become": _say_sector, "roll-attribute": _say_sector, "retreat": _say_sector,
        "forbid": _say_permission, "allow": _say_permission, "ignore": _say_permission, "protect": _say_permission,
        "require": _say_requirement,
        **dict.fromkeys(FIXED_PHRASES, _say_fixed),
    }

    def option(self, opt: ast.Option) -> str:
        if opt.also:
            return " and ".join(self.option(o) for o in (attrs.evolve(opt, also=()), *opt.also))
        text = self.statement(opt.statement)
        if opt.recipient is not None:
            who = TARGET_PHRASES[opt.recipient.kind]
            if opt.recipient.condition is not None:
                who += f" ({self.condition(opt.recipient.condition).strip()})"
            text = f"{who}: {text}"
        if opt.until is not None:
            text = f"{text} {UNTIL_PHRASES.get(opt.until.name, f'until the next {opt.until.name}')}"
        elif opt.duration is not None:
            text = f"{text} {DURATIONS[opt.duration]}"
        return text

    def action(self, action: ast.Action) -> str:
        if action.roll is not None:  # a chance: 'roll 1d6: on 5-6, gain 2 Courage; otherwise, lose 1 Soldier'
            outcomes = []
            for results, opt in zip(action.ranges, action.options, strict=True):
                if results is None:
                    on = "otherwise"
                elif results[0] == results[1]:
                    on = f"on {results[0]}"
                else:
                    on = f"on {results[0]} to {results[1]}"
                outcomes.append(f"{on}, {self.option(opt)}")
            return f"roll {action.roll.count}d6: " + "; ".join(outcomes)
        return " OR ".join(self.option(o) for o in action.options)

    def actions(self, actions: tuple[ast.Action, ...]) -> str:
        return "; ".join(self.action(a) for a in actions)

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
                match w.name:
                    case "bunker":
                        return "in a Bunker"
                    case "has":
                        return f"the Unit has the {self.name(arg0)}"
                    case "count":
                        return f"the Final Tally's {self.name(arg0)} results{cmp_text}"
                    case "same-face":
                        return f"identical results in the Final Tally{cmp_text}"
                    case "option":
                        return f"the optional rule '{arg0}' is on"
                    case "in-play":
                        return f"the {self.name(arg0)} is in play"
                    case "occupied-by-us":
                        return f"a Unit occupies {self.name(arg0)}"
                    case "conquered":
                        return f"a Unit has entered {self.name(arg0)}"
                    case "visited":
                        return f"this Unit has visited {self.name(arg0)}"
                    case "started-alone":
                        return f"this Unit is the only one that started in {self.name(arg0)}"
                    case "battle-cry":
                        return "moving with a Battle Cry"
                    case "occupied":
                        return "another Unit is here"
                    case "have":
                        return f"the Unit's {self.name(arg0)}{cmp_text}"
                    case "holds":
                        return f"the {self.name(arg0)}s the Unit holds{cmp_text}"
                    case "tagged":
                        return f"the cards marked {self.name(arg0)} the Unit holds{cmp_text}"
                    case "colours":
                        return f"the colours showing {self.name(arg0)} in the Final Tally{cmp_text}"
                    case "active-skulls":
                        return f"the Unit's active Skulls this turn{cmp_text}"
                    case "card-is":
                        return f"it is the {self.name(arg0)}"
                    case "drawn":
                        return f"the card drawn is a {self.name(arg0)}"
                    case "can-draw":
                        kind = self.name(arg0)
                        return f"the Unit may draw {'an' if kind[:1] in 'AEIOU' else 'a'} {kind} now"
                    case "times-used":
                        return f"the times this card has been used{cmp_text}"
                    case "front-row":
                        return "the Unit's Sector is in the front row"
                    case "next-to-bunker":
                        return "the Unit's Sector is next to a final Bunker"
                return f"{title(w.name)}{cmp_text}"

    def condition(self, cond: ast.Condition | None) -> str:
        if cond is None:
            return ""
        word = "unless" if cond.negated else "if"
        return f" {word} {self.cond_expr(cond.expr)}"

    def limit(self, limit: ast.Limit | None) -> str:
        return f" (once per {limit.period})" if limit else ""

    def clause(self, clause: ast.Clause) -> str:
        scope = f"{upper_first(TARGET_PHRASES[clause.scope.kind])}: " if clause.scope else ""
        body = clause.body
        match body:
            case ast.Trigger():
                phrase = EVENT_PHRASES.get(body.event.name, f"on {body.event.name}")
                text = f"{upper_first(phrase)}{self.condition(body.condition)}: {self.actions(body.actions)}"
                text += self.limit(body.limit)
            case ast.Use():
                when = ""
                if body.window is not None:
                    moment = MOMENT_PHRASES.get(body.window.moment.name, title(body.window.moment.name))
                    when = f" {body.window.kind} {moment}"
                once = " once per " + body.limit.period if body.limit else ""
                text = f"May be used{once}{when}{self.condition(body.condition)}: {self.actions(body.actions)}"
            case ast.Modifier():
                stmt = self.statement(body.statement)
                text = stmt[0].upper() + stmt[1:] + self.condition(body.condition) + self.limit(body.limit)
        text = scope + text
        return text if text.endswith(".") else text + "."

    def effect(self, effect: ast.Effect) -> str:
        return " ".join(self.clause(c) for c in effect.clauses)

    def lines(self, effect: ast.Effect) -> list[str]:
        return [self.clause(c) for c in effect.clauses]
