"""Actions on cards and bonuses: sacrifice, recruit, find, offer, draw-award, rwb, absorb, die-instead, and
instead (a pending event replaced). Each record names its parts (see :mod:`ddaydice.dsl.words.base`)."""

from __future__ import annotations

from ddaydice.dsl import ast
from ddaydice.dsl.effect_context import Action, Cond, Why
from ddaydice.dsl.words.base import (
    ActionWord,
    Change,
    Checking,
    Parts,
    Speaker,
    Touches,
    Wording,
    first_word,
    touches_nothing,
    words_of,
)


def card_or_count(p: Parts) -> str | int:
    """A named card, or how many of the player's choice."""
    first = p.args[0]
    return first.value if isinstance(first, ast.Number) else p.words[0]


def holds(kind: str) -> Cond:
    return lambda ctx: int(ctx.predicate("holds", (kind,))) >= 1


def has(card: str) -> Cond:
    return lambda ctx: bool(ctx.predicate("has", (card,)))


def acts(stmt: ast.Statement) -> Change:
    """An action the engine makes without asking the permission of that name (a find, a recruit)."""
    args = tuple(str(a.value) if isinstance(a, ast.Number) else a.name for a in stmt.args
                 if isinstance(a, ast.Number | ast.Word))
    return Change(stmt.verb.name, "act", args)


def named(stmt: ast.Statement) -> tuple[str, ...]:
    """The first word, which may name a card the action brings into play."""
    found = first_word(stmt)
    return (found,) if found else ()


# ---------------------------------------------------------------- sacrifice
def compile_sacrifice(p: Parts) -> Action:
    card, recipient = card_or_count(p), p.recipient
    return lambda ctx: ctx.sacrifice(card, recipient)


def say_sacrifice(r: Speaker, w: Wording) -> str:
    """This Specialist, so many of the player's choice, or a named one."""
    a = w.args
    if w.word(0) == "self":
        return "sacrifice this Specialist"
    if isinstance(a[0], ast.Number):
        return f"sacrifice {a[0].value} Specialist of your choice"
    return f"sacrifice the {r.name(w.word(0))}"


def can_sacrifice(stmt: ast.Statement) -> Cond | None:
    """Only a Specialist the player has (of his choice: one at least)."""
    first = stmt.args[0] if stmt.args else None
    if isinstance(first, ast.Number):
        return holds("specialist")
    if isinstance(first, ast.Word) and first.name != "self":
        return has(first.name)
    return None


SACRIFICE = ActionWord(
    name="sacrifice",
    signatures=("'self'", "count 'specialist'", "specialist"),
    summary=("Lose a Specialist on purpose (not a casualty of combat): this card, one of the player's choice, or a "
             "named one. With a recipient another player loses it, and chooses which ('sacrifice 1 specialist to "
             "the german': the German loses 1 Specialist of his choice). An option of an OR that would lose a card "
             "the player does not have cannot be chosen."),
    example="use: sacrifice self, allow stay this turn",
    english="sacrifice {0}",
    compile=compile_sacrifice, render=say_sacrifice, touches=touches_nothing, feasible=can_sacrifice, pays=True,
    spends_source=lambda stmt: words_of(stmt.args)[:1] == ("self",),
    self_reaches=frozenset({"specialist"}),  # the card itself is lost as a Specialist (interpreter: lose_specialist)
)


# ---------------------------------------------------------------- recruit, find, offer
def compile_recruit(p: Parts) -> Action:
    card, free = card_or_count(p), "free" in p.words
    return lambda ctx: ctx.recruit(card, free)


def compile_find(p: Parts) -> Action:
    card, free, words = card_or_count(p), "free" in p.words, p.words
    kind = "item"
    if isinstance(p.args[0], ast.Number):
        kind = "vehicle" if "vehicle" in words else "used-item" if "used-item" in words else "item"
    return lambda ctx: ctx.find(card, free, kind)


def say_recruit_or_find(r: Speaker, w: Wording) -> str:
    """A named card, or so many of the player's choice; 'free' says so."""
    a = w.args
    free = " for free" if w.word(len(a) - 1) == "free" else ""
    if isinstance(a[0], ast.Number):
        what = "Specialist" if w.verb == "recruit" else "Vehicle" if w.word(1) == "vehicle" else \
            "used Item (paying its cost again)" if w.word(1) == "used-item" else "Item"
        return f"{w.verb} {a[0].value} {what} of your choice{free}"
    return f"{w.verb} the {r.name(w.word(0))}{free}"


def touches_recruit(stmt: ast.Statement) -> Touches:
    return Touches(change=acts(stmt), cards=named(stmt))


def touches_find(stmt: ast.Statement) -> Touches:
    """A find asks the permission 'find' (but for a tier marked 'asks-no-permission', Awards: rulings 10.3, 7.5;
    the conflict finder reads the tier, as interpreter/effects/context.py ``_permitted`` does)."""
    chosen = ("vehicle",) if "vehicle" in words_of(stmt.args) else ()
    return Touches(change=Change("find", "asks"), cards=named(stmt), chosen=chosen)


def compile_offer(p: Parts) -> Action:
    card = p.words[0]
    return lambda ctx: ctx.offer(card)


RECRUIT = ActionWord(
    name="recruit",
    signatures=("specialist 'free'?", "count 'specialist' 'free'?"),
    summary=("Recruit a named Specialist or one of the player's choice; 'free' costs no Stars. An Award's, a "
             "Sector's, a Battle Condition's (a tier 'beyond-turn-limits') or an RWB's recruit is outside the "
             "1-per-turn limit; any other (an Item's, a Specialist's, a rule's) is refused once the Unit has "
             "recruited this turn, and counts toward the limit."),
    example="on enter: recruit scout free",
    english="recruit {0}",
    compile=compile_recruit, render=say_recruit_or_find, touches=touches_recruit,
)
FIND = ActionWord(
    name="find",
    signatures=("item|vehicle 'free'?", "count 'item'|'vehicle'|'used-item' 'free'?"),
    summary=("Find a named Item or Vehicle, or Items or a Vehicle of the player's choice; 'free' costs no Item "
             "Points. An Award's, a Sector's, a Battle Condition's (a tier 'beyond-turn-limits') or an RWB's find "
             "(the Special Find) is outside the 1-Item-per-turn limit; any other (an Item's, a Vehicle's, a "
             "Specialist's, a rule's), free or not, is refused once the Unit has made the turn's finds, and counts "
             "toward the limit. A Unit still holds at most 1 Vehicle. 'used-item': one of the player's own used "
             "Items, paying its cost again (the German's Ingenuity)."),
    example="use after final-tally: find 1 vehicle free",
    english="find {0}",
    before_after="Vehicle: none -> Jeep (chosen) after 'find 1 vehicle free'; Item Points unchanged.",
    compile=compile_find, render=say_recruit_or_find, touches=touches_find,
)
OFFER = ActionWord(
    name="offer",
    signatures=("vehicle|item",),
    summary="Make a card available to be found here by paying its cost (Vehicles in particular Sectors).",
    example="offer tank",
    english="{0} can be found here (pay its cost)",
    compile=compile_offer, touches=lambda stmt: Touches(cards=named(stmt)),
    render=lambda r, w: f"the {r.name(w.word(0))} can be found here (pay its cost)",
)


# ---------------------------------------------------------------- awards, bonuses, casualties
def compile_draw_award(p: Parts) -> Action:
    how = p.words[0]
    return lambda ctx: ctx.draw_award(how)


def compile_rwb(p: Parts) -> Action:
    rwb = p.words[0]
    return lambda ctx: ctx.gain_rwb(rwb)


def can_gain_rwb(stmt: ast.Statement) -> Cond | None:
    """Only a bonus whose own effect would act here: an RWB whose every 'on rwb' clause's condition fails (the
    Battle Cry's 'if allowed battle-cry-here' in Crossfire) gives nothing (ruling 10.9)."""
    rwb = first_word(stmt)
    return lambda ctx: ctx.rwb_acts(rwb)


def rwb_needs(stmt: ast.Statement) -> Why | None:
    """When the bonus's own effect acts (its 'on rwb' clauses' conditions, in English): what the trace and a
    refusal say of an 'rwb' that would do nothing (ruling 10.9)."""
    rwb = first_word(stmt)
    return lambda ctx: ctx.rwb_acts_only(rwb)


def compile_absorb(p: Parts) -> Action:
    words = p.words
    return lambda ctx: ctx.absorb(words)


def say_absorb(r: Speaker, w: Wording) -> str:
    res = " or ".join(r.name(x.name) for x in w.args if isinstance(x, ast.Word))
    return f"spend {res} to save Soldiers, 1 for 1 (any mix)"


def compile_die_instead(_p: Parts) -> Action:
    return lambda ctx: ctx.die_instead()


def touches_draw_award(stmt: ast.Statement) -> Touches:
    """A named Award is a card the action brings into play; 'random' and 'choice' name none."""
    return Touches(cards=tuple(c for c in named(stmt) if c not in _AWARD_DRAWS))


def say_draw_award(r: Speaker, w: Wording) -> str:
    how = w.word(0)
    if how == "random":
        return "draw 1 Award at random"
    return "choose 1 Award" if how == "choice" else f"draw the {r.name(how)} from the Award deck"


_AWARD_DRAWS = frozenset({"random", "choice"})
DRAW_AWARD = ActionWord(
    name="draw-award",
    signatures=("'random'|'choice'", "award"),
    summary=("Draw an Award card, at random, of the player's choice, or the one named, from the Award deck (a named "
             "Award is taken out of it; one another player holds, or used, is not given: ruling 2.7); at most one "
             "per turn, except an Award's or a Sector's draw, which is outside that limit and does not count toward "
             "it."),
    example="use: draw-award random",
    english="draw an Award {0}",
    compile=compile_draw_award, touches=touches_draw_award, render=say_draw_award,
)
RWB = ActionWord(
    name="rwb",
    signatures=("rwb",),
    summary=("Gain an RWB bonus as if it had been rolled (its OR choice included). Where the bonus's own effect "
             "would do nothing (its conditions fail: the Battle Cry in a Sector that says 'forbid "
             "battle-cry-here'), the action cannot be chosen: a use with nothing else to do is not offered."),
    example="use: rwb battle-cry",
    english="gain a {0} RWB",
    compile=compile_rwb, render=lambda r, w: f"gain a {r.name(w.word(0))} RWB", feasible=can_gain_rwb,
    needs=rwb_needs,
    touches=lambda stmt: Touches(runs=f"rwb:{first_word(stmt)}"),  # the bonus's own effect, as if rolled
)
ABSORB = ActionWord(
    name="absorb",
    signatures=("resource+",),
    summary="Spend any amount of these resources to save Soldiers from the current casualties, 1 for 1.",
    example="on casualties: absorb courage stars",
    english="spend {0} to save Soldiers, 1 for 1",
    compile=compile_absorb, render=say_absorb, touches=touches_nothing,
)
DIE_INSTEAD = ActionWord(
    name="die-instead",
    summary="When another Specialist of this Unit would be lost, this card may be lost in its place.",
    example="on specialist-lost: die-instead",
    english="sacrifice this Specialist in place of the one being lost",
    compile=compile_die_instead, touches=touches_nothing,
    render=lambda _r, _w: "sacrifice this Specialist in its place",
)


# ---------------------------------------------------------------- a pending event replaced
def compile_instead(_p: Parts) -> Action:
    return lambda ctx: ctx.instead()


def say_instead(_r: Speaker, w: Wording) -> str:
    """'instead of' what the clause's pending event would do; the renderer says it first, then what happens."""
    return f"instead of {w.heard or 'what was about to happen'}"


def check_instead(c: Checking, stmt: ast.Statement) -> None:
    """Only an event about to happen can be replaced: 'instead' belongs in 'on EVENT' or 'use when EVENT' of a
    pending event."""
    heard = c.event_heard()
    if heard is not None and (heard[1] is None or heard[1].pending):
        return  # an unknown event is reported as such (DSL107), once
    listed = ", ".join(f"'{e}'" for e in c.pending_events())
    if heard is None:
        c.err("DSL119", "'instead' replaces an event about to happen: it belongs in 'on EVENT' or 'use when EVENT'",
              stmt.verb.pos, f"write 'on casualties: instead, lose 2 courage'; the events it can replace: {listed}")
        return
    c.err("DSL119", f"'instead' cannot replace '{heard[0].name}': that event has happened when its triggers run",
          stmt.verb.pos, f"only an event about to happen can be replaced: {listed}")


INSTEAD = ActionWord(
    name="instead",
    summary=("Replaces a pending event (one about to happen: 'casualties', 'specialist-lost'): the event does not "
             "happen (the casualties are not suffered, the Specialist is not lost) and the clause's other actions "
             "happen in its place. In 'on EVENT' it replaces at once, when the trigger's condition holds; in 'use "
             "when EVENT' the player is offered the use as the event is about to happen, after its triggers, and "
             "may decline; in an OR it is the player's choice. Of several that would replace the same event, the "
             "first in order of precedence (lowest tier first, as triggers run; then the uses) replaces it, and "
             "the later ones, with nothing left to replace, do not run, nor do the event's other triggers. A "
             "replacement runs only while something is left to replace (not for casualties all saved), does not "
             "hear the events its own actions cause, and uses its 'once per' limit only when it runs."),
    example="on casualties if have courage >= 2: instead, lose 2 courage",
    english="instead of EVENT, the other actions",
    before_after="Soldiers 8, Courage 3; 5 casualties -> Soldiers 8, Courage 1 after the example.",
    compile=compile_instead, render=say_instead, touches=touches_nothing, check=check_instead, replaces=True,
)

WORDS = (SACRIFICE, RECRUIT, FIND, OFFER, DRAW_AWARD, RWB, ABSORB, DIE_INSTEAD, INSTEAD)
