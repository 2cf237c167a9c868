"""The record of a word, and what its parts are made of.

A word of the effect language is one record (:class:`WordSpec` and a class per role) that names every part of
it: its argument signatures, any check beyond them, its compiler, its English, its conflict signature (what it
changes, for :mod:`ddaydice.dsl.conflicts`), its reference text and its example. The checker, the compiler, the
renderer and the conflict finder look these parts up by the word's name (:mod:`ddaydice.dsl.words`); none of
them names a word.

A part is a plain function. The types it works with are here: what an action's compiler is given
(:class:`Parts`), what a renderer is given (:class:`Wording`, and a :class:`Speaker` that names things in
English), what a check may report through (:class:`Checking`), and what a statement changes (:class:`Change`,
:class:`Touches`).

A signature is a string of parameters, one per argument:

``kind``       one argument of that kind (see :data:`PARAM_KINDS`)
``kind?``      optional
``kind+``      one or more
``kind*``      any number
``'word'``     that literal word
``a|b``        either
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import ClassVar, Literal, Protocol

import attrs

from ddaydice.dsl import ast
from ddaydice.dsl.asking import ask
from ddaydice.dsl.effect_context import Action, Cond, EffectContext, Value, Why

Role = Literal["action", "modifier", "event", "moment", "predicate", "counter", "target", "keyword"]


# ================================================================ what the parts work with
def words_of(args: Iterable[ast.Arg]) -> tuple[str, ...]:
    """The names of the arguments that are words, in order."""
    return tuple(a.name for a in args if isinstance(a, ast.Word))


#: What a protection names besides tiers: every contribution, of any tier, that would raise the value
#: ('protect mgf-dice against raising', 'mgf-dice = 0 against raising'; interpreter/core/precedence.py).
RAISING = "raising"


def guarded_set(args: Sequence[ast.Arg]) -> tuple[str, ...] | None:
    """What a query's set guards against, when it says ('mgf-dice = 0 against raising': ('raising',); tiers
    likewise), from the statement's arguments, else None: the set then is a protection that sets the value it
    guards."""
    if len(args) >= 3 and isinstance(args[0], ast.Assign) and isinstance(args[1], ast.Word) \
            and args[1].name == "against":
        return tuple(x.name for x in args[2:] if isinstance(x, ast.Word))
    return None


#: The operation of a ceiling ('locked-dice at most 1': the value is lowered to 1 if it is above, else kept), in its
#: place in the order of precedence (interpreter/core/precedence.py).
AT_MOST = "at-most"


def ceiling(args: Sequence[ast.Arg]) -> ast.Arg | None:
    """The bound of a ceiling ('locked-dice at most 1': the argument after 'at most'), else None. Any statement
    that begins 'at most' is one; the checker refuses a bound that is not a number."""
    if len(args) >= 2 and isinstance(args[0], ast.Word) and args[0].name == "at" \
            and isinstance(args[1], ast.Word) and args[1].name == "most":
        return args[2] if len(args) > 2 else args[1]
    return None


def first_word(stmt: ast.Statement) -> str:
    """The statement's first word argument, or '' (a statement the checker refused may have none)."""
    found = words_of(stmt.args)
    return found[0] if found else ""


def names_and_numbers(stmt: ast.Statement) -> tuple[str | int, ...]:
    """The statement's words and numbers, in order ('require sacrifice 1 specialist')."""
    return tuple(a.value if isinstance(a, ast.Number) else a.name for a in stmt.args
                 if isinstance(a, ast.Number | ast.Word))


@attrs.frozen
class Parts:
    """What an action's compiler is given: its verb, its arguments and their words, its amount (the first
    argument, times its 'per'; 0 without arguments) and who receives it."""

    verb: str
    args: tuple[ast.Arg, ...]
    words: tuple[str, ...]
    amount: Value
    recipient: str | None


@attrs.frozen
class Wording:
    """What a renderer is given: the verb, the arguments, and the rendered 'per' tail."""

    verb: str
    args: tuple[ast.Arg, ...]
    per: str
    heard: str = ""  # the pending event the clause hears, as 'instead of' says it ('suffering the casualties')

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


@attrs.frozen
class Said:
    """What a condition's renderer is given: the predicate's first word argument and its comparison
    (' >= 2', or '')."""

    name: str
    arg0: str
    compared: str


class Speaker(Protocol):
    """Names things in English (implemented by :class:`ddaydice.dsl.render.Renderer`)."""

    def name(self, word: str) -> str: ...
    def query(self, qid: str) -> str: ...
    def amount(self, arg: ast.Arg) -> str: ...
    def arg(self, arg: ast.Arg) -> str: ...
    def filters(self, args: tuple[ast.Arg, ...], die: str = "die") -> str: ...


class Checking(Protocol):
    """What a word's own check reports through (implemented by the checker)."""

    def err(self, code: str, message: str, pos: ast.Pos, hint: str | None = None) -> None: ...
    def unknown(self, what: str, word: ast.Word, pool: Iterable[str], code: str = "DSL102") -> None: ...
    def optional_rules(self) -> frozenset[str]: ...
    def faces(self) -> set[str]: ...
    def tags(self) -> frozenset[str]: ...
    def event_heard(self) -> tuple[ast.Word, EventWord | None] | None:
        """The event the clause's actions answer ('on EVENT') and its record (None: unknown); None for a clause
        that answers no event."""

    def pending_events(self) -> tuple[str, ...]:
        """The events about to happen when their triggers run (their records say 'pending')."""


@attrs.frozen
class Change:
    """A change to a query or permission: the query, how (add, set, forbid, allow, require, protect; 'act': an
    action the engine makes without asking a permission, such as a recruit; 'asks': an action the engine makes
    only where the permission holds, such as a re-roll of a Skull, its arguments the kinds of card whose action
    the engine does not ask it for), and the arguments it reads. ``faces``: for 'asks', the faces of the dice the
    permission is asked for (a re-roll asks 'reroll-skull' of a Skull only): an action whose face filter names
    only other faces ('reroll 1 die courage') never asks it."""

    query: str
    op: str
    args: tuple[str | int, ...] = ()
    faces: tuple[str, ...] = ()


@attrs.frozen
class Touches:
    """A word's conflict signature: what a statement changes or brings into play, as the conflict finder
    (:mod:`ddaydice.dsl.conflicts`) reads it.

    ``change``: the query or permission it changes; ``runs``: another effect it runs, by key ('rwb:battle-cry');
    ``cards``: cards it names, that it may bring into play; ``chosen``: kinds of card of the player's choice it
    may bring into play ('vehicle'); ``attributes``: Sector attributes it gives; ``tables``: tables of attributes
    it rolls on.
    """

    change: Change | None = None
    runs: str | None = None
    cards: tuple[str, ...] = ()
    chosen: tuple[str, ...] = ()
    attributes: tuple[str, ...] = ()
    tables: tuple[str, ...] = ()


NOTHING = Touches()


def touches_nothing(_stmt: ast.Statement) -> Touches:
    """The conflict signature of a word that changes no query or permission and brings nothing into play."""
    return NOTHING


@attrs.frozen
class Reads:
    """A condition's conflict signature: what the conflict finder knows of what it reads. Two conditions written
    alike with opposite truths never hold together; beyond that, ``where='bunkers'``: it holds exactly in the
    map's Bunkers; ``names='option'``: it names an optional rule (never on if the content does not define it);
    ``names='card-in-play'``: it names a card, and holds while that card is in play; ``names='card-asked'``: it
    names a card, and holds when a value is asked of that card (its price)."""

    where: Literal["bunkers"] | None = None
    names: Literal["option", "card-in-play", "card-asked"] | None = None


READS_STATE = Reads()


# ================================================================ what a word can reach
#: The owners an effect may have, as the records of the words say which of them a word can act for (``reaches``):
#: an event a trigger hears, a window a use is offered at, a standing change the engine reads, an action on the card
#: itself. An effect's owner is one or more of them (dsl/checking/arguments.py, ``Context.owners``); a word whose
#: ``reaches`` holds none of them would never act there, and the checker refuses it (DSL129).
OWNERS: dict[str, str] = {
    "sector": "a Sector (its own effect or an attribute)",
    "rule": "a rule (the game's, a map's, an optional rule, an RWB bonus)",
    "card": "a card",
    "gained": "a card a Unit gains (recruited, found, an Award drawn)",
    "drawn": "a card drawn from an expansion's deck (a Badge, a Battle Condition, a Decoration)",
    "specialist": "a Specialist (or a card held as one)",
}
#: Every owner: what a word reaches unless its record says otherwise.
EVERY_OWNER: frozenset[str] = frozenset({"sector", "rule", "card"})


# ================================================================ the records
@attrs.frozen(kw_only=True)
class WordSpec:
    """A word: its name, its forms (signatures), its reference text (summary, example, English template, a
    before and after) and other spellings. Each role adds the parts it needs."""

    role: ClassVar[Role]
    name: str
    signatures: tuple[str, ...] = ("",)
    summary: str
    example: str = ""
    english: str = ""
    before_after: str = ""
    aliases: tuple[str, ...] = ()


ActionCompiler = Callable[[Parts], Action]
StatementRenderer = Callable[[Speaker, Wording], str]
StatementCheck = Callable[[Checking, ast.Statement], None]


def says_nothing(_stmt: ast.Statement) -> Why | None:
    return None


def can_always(_stmt: ast.Statement) -> Cond | None:
    """An action that can always be chosen in an OR."""
    return None


def keeps_source(_stmt: ast.Statement) -> bool:
    return False


@attrs.frozen(kw_only=True)
class ActionWord(WordSpec):
    """Something that happens at once. ``compile``: the closure it runs; ``render``: its English; ``touches``:
    its conflict signature; ``check``: a check beyond its signatures; ``per``: whether 'per COUNTER' may multiply
    it; ``feasible``: whether an OR may offer it ("you cannot choose to lose what you do not have"), and so
    whether a use may be offered (one of its actions at least must be feasible: ruling 10.9); ``pays``: its
    ``feasible`` is a price, a card to lose ('sacrifice', 'discard'): an option joined with 'and' that has such a
    part is chosen only if every price is paid, while any other part that cannot act ('rwb battle-cry' where the
    bonus does nothing) leaves the option to its parts that can (ruling 10.9); ``needs``: what it needs to act, in
    English, when its ``feasible`` fails (the trace and the refusal both say it: ruling 10.9);
    ``spends_source``: whether it loses the card that holds it ('sacrifice self'); ``replaces``: whether it
    replaces the pending event its clause hears (the event does not happen; the clause's other actions happen in
    its place): the engine runs such a clause only while there is something to replace, and the English says it
    first ('instead of suffering the casualties, lose 2 Courage'); ``tally``: it changes the Final Tally (its
    results, their dice or colours), so a trigger that runs it helps make the Final Tally (``EventWord.complete``);
    ``self_reaches``: the owners (:data:`OWNERS`) whose card 'self' names something this word acts on ('sacrifice
    self': a Specialist; elsewhere it is DSL129)."""

    role: ClassVar[Role] = "action"
    compile: ActionCompiler
    render: StatementRenderer
    touches: Callable[[ast.Statement], Touches]
    check: StatementCheck | None = None
    per: bool = False
    feasible: Callable[[ast.Statement], Cond | None] = can_always
    needs: Callable[[ast.Statement], Why | None] = says_nothing
    pays: bool = False
    spends_source: Callable[[ast.Statement], bool] = keeps_source
    replaces: bool = False
    tally: bool = False
    self_reaches: frozenset[str] = EVERY_OWNER


@attrs.frozen(kw_only=True)
class ModifierWord(WordSpec):
    """A standing change to a permission or a rule. ``compile``: the change it makes (the compiler makes the
    hook; a change whose op is 'set' or 'add' takes its amount from the first argument); ``render``: its English;
    ``touches``: its conflict signature; ``needs_duration``: whether it needs a duration inside actions;
    ``waiting``: the clause speaks of its own card while the card waits to be bought (in the Pool, a hand, a
    deck), never while it is held: the engine reads it for that card alone, the checker allows it on a card
    that is bought (an Item too) and refuses it anywhere else; ``reaches``: the owners (:data:`OWNERS`) whose
    standing change the engine reads ('require': a Sector's; elsewhere it is DSL129)."""

    role: ClassVar[Role] = "modifier"
    compile: Callable[[ast.Statement], Change]
    render: StatementRenderer
    touches: Callable[[ast.Statement], Touches]
    check: StatementCheck | None = None
    needs_duration: bool = True
    waiting: bool = False
    reaches: frozenset[str] = EVERY_OWNER


@attrs.frozen(kw_only=True)
class EventWord(WordSpec):
    """What a trigger listens for. ``phrase``: 'on EVENT' in English; ``until``: 'until EVENT' in English;
    ``moment``: the event as a use's moment ('after the Final Tally'), when it names one; ``pending``: the event
    is about to happen when its triggers run (a replacement, 'instead', may stop it), with ``replaced``, what
    does not happen, after 'instead of' ('suffering the casualties'); ``own``: the event is the card's own coming to
    its holder (found, drawn), heard as it comes: the one trigger a card that acts only when used (an Item, an Award,
    a kind held like an Item) may have; ``complete``: the engine's moment at which a trigger on this event that
    reads the Final Tally's results and changes none is heard instead, once the Final Tally is complete (ruling
    1.9: such a trigger on 'final-tally' is heard in Phase 2, after Skulls cancel); ``reaches``: the owners
    (:data:`OWNERS`) whose triggers on it the engine runs ('enter': a Sector's; elsewhere it is DSL129)."""

    role: ClassVar[Role] = "event"
    phrase: str
    until: str
    moment: str = ""
    pending: bool = False
    replaced: str = ""
    own: bool = False
    complete: str = ""
    reaches: frozenset[str] = EVERY_OWNER


@attrs.frozen(kw_only=True)
class MomentWord(WordSpec):
    """When a use may be played (besides events and phases). ``phrase``: the moment in English."""

    role: ClassVar[Role] = "moment"
    phrase: str


PredicateCompiler = Callable[[str, tuple[str, ...]], Callable[[EffectContext], int]]


@attrs.frozen(kw_only=True)
class PredicateWord(WordSpec):
    """What 'if' and 'unless' test. ``compile``: the closure reading it; ``render``: its English; ``reads``: its
    conflict signature; ``number``: whether it is a number to compare; ``check``: a check beyond its
    signatures; ``tally``: it reads the results of the Final Tally (``EventWord.complete``)."""

    role: ClassVar[Role] = "predicate"
    compile: PredicateCompiler = ask
    render: Callable[[Speaker, Said], str]
    reads: Reads = READS_STATE
    number: bool = False
    check: Callable[[Checking, tuple[ast.Arg, ...]], None] | None = None
    tally: bool = False


@attrs.frozen(kw_only=True)
class CounterWord(WordSpec):
    """What 'per' multiplies by (the context counts it by name). ``render``: 'for every ...' in English, given
    the counter's words; ``singular``: another name 'per' accepts for it ('per rwb'); ``check``: the form of a
    counter that names what it counts ('per locked skull'; without it, 'per' takes the counter's name alone);
    ``tally``: it counts dice of the Final Tally, so a trigger that multiplies by it reads the Final Tally."""

    role: ClassVar[Role] = "counter"
    render: Callable[[Speaker, tuple[str, ...]], str]
    singular: str = ""  # also counted under this name ('per rwb')
    check: Callable[[Checking, ast.Per], None] | None = None
    tally: bool = False  # it counts dice of the Final Tally ('per locked skull'), read once it is complete (1.12)


@attrs.frozen(kw_only=True)
class TargetWord(WordSpec):
    """Who a clause or an action concerns (the grammar spells them). ``phrase``: who, in English."""

    role: ClassVar[Role] = "target"
    phrase: str


# ================================================================ signatures
PARAM_KINDS: dict[str, str] = {
    "amount": "a number (3), a die roll (1d6) or 'all'",
    "count": "a whole number",
    "change": "a signed change (-2, +1, -1d6) or '= value' (= 0, = unlimited)",
    "resource": "a resource: soldiers, stars, courage, item-points (from rules/resources.yaml)",
    "face": "a die face: skull, star, one-soldier, two-soldiers, courage, tool, or 'any' (chosen)",
    "colour": "a die colour (red, white, blue; expansions add more) or 'any-colour' (chosen)",
    "filter": "a die filter: a colour, a face, 'locked', 'unlocked', 'real' or 'any-roll'",
    "specialist": "a Specialist id (medic, corporal, ...)",
    "item": "an Item id (bazooka, ...)",
    "vehicle": "a Vehicle id (tank, ...)",
    "award": "an Award id (victoria-cross, ...)",
    "card": "any card id",
    "rwb": "an RWB bonus id (leadership, battle-cry, ...)",
    "query": "a query id (def, advance-cost, locked-dice, ...; rules/queries.yaml)",
    "flag": "a permission id (stay, find, battle-cry-move, ...; rules/queries.yaml)",
    "ignorable": "something that can be ignored (landmines, barriers, requirements, ...)",
    "tier": "a precedence tier (rules, sectors, specialists, items-vehicles, awards)",
    "attribute": "a named Sector attribute of the same map",
    "tag": "a tag that some loaded card carries in its data ('tags: [explosion]': explosion, weather, black)",
    "table": "a random attribute table of the same map",
    "sector": "a sector id of the same map",
    "counter": "something counted (a face in the tally, 'locked skull', 'rwb', 'specialist')",
    "kind": "a card kind (specialist, item, vehicle, award; expansions add more in rules/kinds.yaml)",
    "deck": "a kind of card whose cards form a deck (an expansion's: battle-condition, badge; rules/kinds.yaml)",
}


@attrs.frozen
class Param:
    kinds: tuple[str, ...]
    literals: tuple[str, ...]
    optional: bool = False
    repeat: bool = False


@attrs.frozen
class Signature:
    params: tuple[Param, ...]
    text: str


def parse_signature(text: str) -> Signature:
    params: list[Param] = []
    for raw in text.split():
        optional = raw.endswith(("?", "*"))
        repeat = raw.endswith(("+", "*"))
        core = raw.rstrip("?+*")
        kinds: list[str] = []
        literals: list[str] = []
        for alt in core.split("|"):
            if alt.startswith("'"):
                literals.append(alt.strip("'"))
            else:
                kinds.append(alt)
        params.append(Param(tuple(kinds), tuple(literals), optional, repeat))
    return Signature(tuple(params), text)
