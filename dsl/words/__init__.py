"""The registry of words: every word of the effect language, one record each.

The grammar (effect.lark) fixes only the shape of a clause. What a word means is its record, and nowhere else:
its argument signatures, any check beyond them, its compiler, its English, its conflict signature, its reference
text and example (:mod:`ddaydice.dsl.words.base` describes the parts). The checker, the compiler
(:mod:`ddaydice.dsl.compile`), the renderer (:mod:`ddaydice.dsl.render`) and the conflict finder
(:mod:`ddaydice.dsl.conflicts`) look a word's parts up here by its name, and ``docs/dsl-reference.md`` is
generated from the records (:mod:`ddaydice.dsl.reference`).

The records live by role: actions in ``actions_tally``, ``actions_cards``, ``actions_board`` and
``actions_decks``, modifiers in ``modifiers``, events and moments in ``events``, conditions, counters and
targets in ``predicates``. Adding a word is one record in one of them, listed in that module's tuple of records;
:func:`register` adds one at run time (a test's throwaway word).

Names that come from content (dice faces, colours, resources, queries, flags, RWB bonuses, phases, tiers, cards,
sectors) are not listed here: they are read from ``rules/`` and the loaded cards and maps, so an expansion can
add a colour or a query without touching this package.
"""

from __future__ import annotations

from typing import TypeVar

from ddaydice.dsl import ast
from ddaydice.dsl.words import actions_board, actions_cards, actions_decks, actions_tally, events, modifiers, predicates
from ddaydice.dsl.words.base import (
    AT_MOST,
    EVERY_OWNER,
    OWNERS,
    PARAM_KINDS,
    RAISING,
    ActionWord,
    CounterWord,
    EventWord,
    ModifierWord,
    MomentWord,
    Param,
    PredicateWord,
    Role,
    Signature,
    TargetWord,
    WordSpec,
    ceiling,
    guarded_set,
    parse_signature,
)

__all__ = [
    "AT_MOST", "EVERY_OWNER", "KEYWORDS", "OWNERS", "PARAM_KINDS", "RAISING", "WORDS", "ActionWord", "CounterWord",
    "EventWord", "ModifierWord", "MomentWord", "Param", "PredicateWord", "Role", "Signature", "TargetWord", "WordSpec",
    "action", "all_words", "ceiling", "counter", "event", "guarded_set", "lookup", "modifier", "moment",
    "parse_signature", "predicate", "reading", "register", "signatures", "target", "unregister", "window_points",
    "window_reaches", "windows", "words",
]

# The built-in words, in the reference's order.
WORDS: tuple[WordSpec, ...] = (
    *actions_tally.WORDS, *actions_cards.WORDS, *actions_board.WORDS, *actions_decks.WORDS,
    *modifiers.WORDS,
    *events.EVENTS, *events.MOMENTS,
    *predicates.PREDICATES, *predicates.COUNTERS, *predicates.TARGETS,
)

KEYWORDS: dict[str, str] = {
    "on": "starts a trigger: 'on EVENT [if ...]: actions'",
    "use": "starts a deliberate play: 'use [once per ...] [before|after|during|when MOMENT] [if ...]: actions'",
    "for": "sets a clause's scope: 'for all units: ...', 'for units here: ...'",
    "if / unless": "a condition on a clause",
    "and / or / not": "combine conditions; between actions, 'or' is the player's choice (the rulebook's OR)",
    "this turn / this phase / next turn / permanently": "how long a modifier granted by an action lasts",
    "until EVENT": "a modifier granted by an action lasts until the event next happens to the Unit that granted it "
                   "(it ends as the event happens; an event replaced with 'instead' did not happen, and it goes on): "
                   "'def -2 until move', 'ignore landmines until combat'; any event (see *Events*)",
    "roll DICE (RESULTS: action, ..., else: action)": "a chance among actions: the dice are rolled (from the game's "
        "generator) and the first outcome whose results hold the total happens; 'else' is any other total, and "
        "with no outcome for the total nothing happens: 'use: roll 1d6 (5-6: gain 3 item-points, else: gain 1 "
        "item-points)'; RESULTS is one total (6) or a range (2-4), lowest first, within the dice's totals; an "
        "outcome is one action, or several joined with 'and' ('6: gain 1 star and gain 2 courage'): a ',' always "
        "starts the next outcome",
    "once per turn / phase / game": "how often a clause may apply, counted on each Unit it serves (a card's use "
                                    "once per turn serves the Unit holding it once a turn; a Vehicle's 'for units "
                                    "here: ... once per phase' serves each Unit present once), except a "
                                    "Sector's limit, which is the Sector's: its clause acts once in the turn, "
                                    "phase or game, whichever Unit triggers it, and an attribute has its own "
                                    "count in each Sector it stands in; a permission's "
                                    "('allow find once per game') is used each time the turn acts on it (a Unit "
                                    "finds, trades, moves, ...), not when it is only read; on 'forbid', 'require' "
                                    "or 'protect', never used, it is DSL122; a number's change counts it only on "
                                    "a number the turn uses up ('casualties -1 once per phase': the first loss of "
                                    "the phase), and on one only asked ('def -1 once per turn') it is DSL133",
    "once per turn / phase / game per card": "the limit counted on the card itself, whoever holds it: the card serves "
        "once in the period among every Unit, and its count goes with it when it changes hands ('allow "
        "trade-specialist once per turn per card': the Messenger is traded once a turn, and the Unit he was "
        "given to cannot give him back that turn); each copy of the card a Unit holds (two Messengers) serves once; "
        "on a card a Unit holds only (DSL120 elsewhere)",
    "to": "who receives an action: 'gain 4 soldiers to another unit'; 'to TARGET if/unless CONDITION' "
          "keeps only the recipients for which the condition holds (for now, on values and permissions only)",
    "per": "multiplies an amount: 'gain 3 soldiers per locked skull'",
    "above": "after 'per COUNTER', counts only what exceeds a limit: 'lose 1 soldiers per tagged explosion above 2' "
             "(4 cards: 2 Soldiers; 2 or fewer: none)",
    "= / + / -": "set or change a query: 'locked-dice = 1', 'def -2', 'def -1d6'",
    "at most": "a ceiling on a query: 'locked-dice at most 1' lowers the value to 1 if it is above, and keeps a lower "
               "one (a Sector's 0 stays 0), in its place in the order of precedence, as a set's; a higher tier's "
               "set or change comes after it",
    "against": "after a set, what it overrides, as 'protect' says it: 'mgf-dice = 0 against raising' sets the value "
               "and no effect of any tier raises it while the set lasts (a silenced or prevented MGF); 'def = 0 "
               "against specialists' sets it and no Specialist lowers it",
}

_BY_ROLE: dict[str, dict[str, WordSpec]] = {}


def register(word: WordSpec) -> WordSpec:
    """Add a word to the language (a record of its role, with every part); refuses a name its role already has."""
    table = _BY_ROLE.setdefault(word.role, {})
    if word.name in table:
        raise ValueError(f"the {word.role} '{word.name}' is already a word of the language")
    table[word.name] = word
    return word


def unregister(word: WordSpec) -> None:
    """Take a word added by :func:`register` out of the language."""
    table = _BY_ROLE.get(word.role, {})
    if table.get(word.name) is word:
        del table[word.name]


for _spec in WORDS:
    register(_spec)


def all_words() -> tuple[WordSpec, ...]:
    """Every word of the language, the built-in ones first in the reference's order, then those registered."""
    return tuple(spec for table in _ordered_roles() for spec in table.values())


def _ordered_roles() -> list[dict[str, WordSpec]]:
    order = ("action", "modifier", "event", "moment", "predicate", "counter", "target")
    return [_BY_ROLE[r] for r in order if r in _BY_ROLE] + [t for r, t in _BY_ROLE.items() if r not in order]


def words(role: Role) -> dict[str, WordSpec]:
    """The words of one role, by name."""
    return _BY_ROLE.get(role, {})


def lookup(role: Role, name: str) -> WordSpec | None:
    return _BY_ROLE.get(role, {}).get(name)


W = TypeVar("W", bound=WordSpec)


def _typed(role: Role, name: str, cls: type[W]) -> W | None:
    found = _BY_ROLE.get(role, {}).get(name)
    return found if isinstance(found, cls) else None


def action(name: str) -> ActionWord | None:
    return _typed("action", name, ActionWord)


def modifier(name: str) -> ModifierWord | None:
    return _typed("modifier", name, ModifierWord)


def event(name: str) -> EventWord | None:
    return _typed("event", name, EventWord)


def moment(name: str) -> MomentWord | None:
    return _typed("moment", name, MomentWord)


def windows() -> dict[tuple[str, str], tuple[str, ...]]:
    """Every window a use may name ('use KIND MOMENT: ...'), with the moments of the turn at which the engine offers
    it (``events.WINDOWS``, and 'when EVENT' of each pending event, offered as it is about to happen)."""
    out = dict(events.WINDOWS)
    for spec in _BY_ROLE.get("event", {}).values():
        if isinstance(spec, EventWord) and spec.pending:
            out[("when", spec.name)] = (f"when-{spec.name}",)
    return out


def window_points(window: tuple[str, str] | None) -> tuple[str, ...]:
    """The moments of the turn at which the engine offers a use with this window (without one: at each of
    ``events.USE_POINTS``); none for a window it never offers (which the checker refuses, DSL121)."""
    if window is None:
        return events.USE_POINTS
    found = events.WINDOWS.get(window)
    if found is None and window[0] == "when" and (spec := event(window[1])) is not None and spec.pending:
        return (f"when-{window[1]}",)
    return found or ()


def window_reaches(window: tuple[str, str] | None) -> frozenset[str]:
    """The owners (``OWNERS``) whose use with this window the engine offers at one moment of the turn at least
    (``events.POINT_REACHES``); every owner for a window offered to all, and for none (DSL121 tells of that)."""
    points = window_points(window)
    if not points:
        return EVERY_OWNER
    return frozenset().union(*(events.POINT_REACHES.get(p, EVERY_OWNER) for p in points))


def predicate(name: str) -> PredicateWord | None:
    return _typed("predicate", name, PredicateWord)


def counter(name: str) -> CounterWord | None:
    """A counter by its name, or by the other name 'per' accepts for it ('rwb')."""
    found = _typed("counter", name, CounterWord)
    if found is None:
        found = next((c for c in _BY_ROLE.get("counter", {}).values()
                      if isinstance(c, CounterWord) and c.singular == name), None)
    return found


def replaces_event(actions: tuple[ast.Action, ...]) -> bool:
    """Whether some statement of these actions replaces the pending event of its clause ('instead')."""
    for part in (p for act in actions for o in act.options for p in o.parts()):
        spec = action(part.statement.verb.name)
        if spec is not None and spec.replaces:
            return True
    return False


def _reads_tally(expr: ast.CondExpr) -> bool:
    match expr:
        case ast.Predicate():
            spec = predicate(expr.word.name)
            return spec is not None and spec.tally
        case ast.Not():
            return _reads_tally(expr.operand)
        case _:
            return any(_reads_tally(e) for e in expr.operands)


def tally_use(condition: ast.Condition | None, actions: tuple[ast.Action, ...]) -> tuple[bool, bool]:
    """Whether a clause reads the Final Tally's results (a condition on them, 'per FACE', 'per locked FACE') and
    whether it changes them (an action whose record says so: 'add', 'reroll', 'reface', ...)."""
    parts = [p.statement for act in actions for o in act.options for p in o.parts()]
    changes = any((a := action(s.verb.name)) is not None and a.tally for s in parts)
    reads = condition is not None and _reads_tally(condition.expr)
    reads = reads or any(s.per is not None and ((c := counter(s.per.words[0].name)) is None or c.tally)
                         for s in parts)
    return reads, changes


def heard_at(name: str, condition: ast.Condition | None, actions: tuple[ast.Action, ...]) -> str:
    """The moment at which the engine runs a trigger on the event ``name``: the event itself, or, for a trigger that
    reads the Final Tally's results (a condition on them, or 'per FACE') and changes none, the moment the event's
    record names for a complete Final Tally (ruling 1.9: 'on final-tally if same-face >= 4' is read once the
    results of Specialists and Items are added and Skulls have cancelled; ruling 1.11: 'on upkeep' too). A trigger
    that both reads and changes them is refused by the checker (DSL134)."""
    spec = event(name)
    if spec is None or not spec.complete:
        return name
    reads, changes = tally_use(condition, actions)
    return spec.complete if reads and not changes else name


def reading(names: str) -> str | None:
    """The condition whose conflict signature says it names this ('option': the condition that an optional rule
    is on; 'card-in-play': that a card is in play)."""
    return next((p.name for p in _BY_ROLE.get("predicate", {}).values()
                 if isinstance(p, PredicateWord) and p.reads.names == names), None)


def target(kind: str) -> TargetWord | None:
    """A target by the grammar's name of it ('all-units') or its own ('all units')."""
    return _typed("target", kind.replace("-", " "), TargetWord)


def signatures(spec: WordSpec) -> tuple[Signature, ...]:
    return tuple(parse_signature(s) for s in spec.signatures)
