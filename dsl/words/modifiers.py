"""Standing modifiers: forbid, allow, ignore, require, protect, and a card's own price (cost). Each record names
its parts (see :mod:`ddaydice.dsl.words.base`). The values of the rules (def, locked-dice, ...) are modifiers
too; they come from ``rules/queries.yaml``, and the compiler, the renderer and the conflict finder treat them alike."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ddaydice.dsl import ast
from ddaydice.dsl.words.base import (
    NOTHING,
    RAISING,
    Change,
    Checking,
    ModifierWord,
    Speaker,
    Touches,
    Wording,
    first_word,
    names_and_numbers,
    words_of,
)
from ddaydice.dsl.words.english import TIER_NAMES, upper_first


def touched(compile_: Callable[[ast.Statement], Change], *, needs_word: bool = True) \
        -> Callable[[ast.Statement], Touches]:
    """A modifier's conflict signature: the change it compiles to, its arguments as words."""

    def touches(stmt: ast.Statement) -> Touches:
        if needs_word and not first_word(stmt):
            return NOTHING
        change = compile_(stmt)
        return Touches(change=Change(change.query, change.op, tuple(str(a) for a in change.args)))

    return touches


def compile_forbid(stmt: ast.Statement) -> Change:
    return Change(first_word(stmt), "forbid")


def compile_allow(stmt: ast.Statement) -> Change:
    return Change(first_word(stmt), "allow")


def compile_ignore(stmt: ast.Statement) -> Change:
    """Ignoring a rule is a permission of its own: 'ignore landmines' allows ignore-landmines."""
    return Change(f"ignore-{first_word(stmt)}", "allow")


def compile_require(stmt: ast.Statement) -> Change:
    """A requirement to move into the Sector (the engine reads it as the 'enter' permission's)."""
    return Change("enter", "require", names_and_numbers(stmt))


def compile_protect(stmt: ast.Statement) -> Change:
    words = words_of(stmt.args)
    return Change(first_word(stmt), "protect", words[2:])


def say_protect(r: Speaker, w: Wording) -> str:
    return guarded(r.query(w.word(0)), [x.name for x in w.args[2:] if isinstance(x, ast.Word)])


def guarded(query: str, named: Sequence[str]) -> str:
    """What a protection names, in English: 'nothing can raise ...', 'no Items & Vehicles can reduce ... here'."""
    if list(named) == [RAISING]:
        return f"nothing can raise {query} (an explicit override, whatever its rank)"
    joined = " or ".join(TIER_NAMES.get(x, x) for x in named)
    return f"no {joined} can reduce {query} here (explicit override)"


def say_requirement(r: Speaker, w: Wording) -> str:
    """What moving into this Sector (or advancing from it) takes."""
    a = w.args
    if w.word(0) == "sacrifice":
        if isinstance(a[1], ast.Number):
            return f"requirement: sacrifice {a[1].value} Specialist to move here"
        return f"requirement: sacrifice the {r.name(w.word(1))} to move here"
    if w.word(0) == "battle-cry":
        return "requirement: can only be entered with a Battle Cry RWB"
    if w.word(0) == "climb":
        return "requirement: you must Climb (4 Skulls in your Final Tally) to Advance from here"
    return f"requirement: must have the {r.name(w.word(0))} to move here"


FORBID = ModifierWord(
    name="forbid",
    signatures=("flag",),
    summary="Take a permission away.",
    example="forbid stay",
    english="{0} is not allowed",
    compile=compile_forbid, touches=touched(compile_forbid),
    render=lambda r, w: f"{upper_first(r.query(w.word(0)))} is not allowed",
)
ALLOW = ModifierWord(
    name="allow",
    signatures=("flag",),
    summary="Grant a permission.",
    example="use: allow trade-anywhere this turn",
    english="{0} is allowed",
    compile=compile_allow, touches=touched(compile_allow),
    render=lambda r, w: f"{upper_first(r.query(w.word(0)))} is allowed",
)
IGNORE = ModifierWord(
    name="ignore",
    signatures=("ignorable",),
    summary="Ignore a game rule (Landmines, Barriers, requirements, ...).",
    example="ignore landmines",
    english="ignore {0}",
    compile=compile_ignore, touches=touched(compile_ignore),
    render=lambda r, w: f"ignore {r.name(w.word(0))}",
)
REQUIRE = ModifierWord(
    name="require",
    signatures=("specialist|item|vehicle", "'sacrifice' count 'specialist'", "'sacrifice' specialist", "'battle-cry'",
                "'climb'"),
    summary=("A requirement to move into this Sector: have a card, sacrifice a Specialist, move with a Battle Cry, "
             "or Climb. Moving with a Battle Cry ignores all requirements except 'battle-cry' itself."),
    example="require sacrifice 1 specialist",
    english="requirement: {0}",
    compile=compile_require, touches=touched(compile_require, needs_word=False), render=say_requirement,
    needs_duration=False, reaches=frozenset({"sector"}),  # read from the Sector entered alone (Phase 4)
)
PROTECT = ModifierWord(
    name="protect",
    signatures=("query 'against' tier+", "query 'against' 'raising'"),
    summary=("An explicit override: no contribution from these tiers may lower the query here, whatever their "
             "rank; or, 'against raising', no contribution of any tier may raise it. A set may say the same of "
             "the value it gives: 'mgf-dice = 0 against raising' (a silenced MGF, which nothing raises again)."),
    example="protect def against items-vehicles specialists",
    english="no {2} can reduce {0} here",
    compile=compile_protect, touches=touched(compile_protect), render=say_protect,
)


def compile_cost(stmt: ast.Statement) -> Change:
    """A card's own price while it waits to be bought: set ('cost = 0') or changed ('cost -2'); the engine adds it
    to the cost query asked of that card (specialist-cost, item-cost) for the Unit that would buy it."""
    arg = stmt.args[0] if stmt.args else None
    return Change("cost", "set" if isinstance(arg, ast.Assign) else "add")


def say_cost(r: Speaker, w: Wording) -> str:
    a = w.args[0] if w.args else None
    match a:
        case ast.Assign(value=ast.Number(value=n)):
            price = f"costs {n}"
        case ast.Signed(value=n) if n < 0:
            price = f"costs {-n} less"
        case ast.Signed(value=n):
            price = f"costs {n} more"
        case _:
            price = "costs " + (r.arg(a) if a is not None else "its printed cost")
    return f"it {price} while it waits to be bought"


def check_cost(c: Checking, stmt: ast.Statement) -> None:
    """A price is known before the card is bought: a number, never a die roll or 'unlimited'."""
    arg = stmt.args[0] if stmt.args else None
    if isinstance(arg, ast.Dice) or (isinstance(arg, ast.Assign) and not isinstance(arg.value, ast.Number)):
        c.err("DSL104", "cost: a card's price is a number, known before it is bought", arg.pos,
              "for example 'cost -2' or 'cost = 0'")


COST = ModifierWord(
    name="cost",
    signatures=("change",),
    summary=("The card's own price while it waits to be bought (in the Pool, a hand or a deck): set or changed, "
             "if its condition holds for the Unit that would buy it (that Unit, its Sector). Read wherever the "
             "game prices the card (Phase 3, a find, a recruit), combined with the other changes of its cost "
             "query in the card's tier; once the card is held it does nothing. Written on the card itself, an "
             "Item's too; never in a rule, a Sector or inside actions."),
    example="cost = 0 if have soldiers < 3",
    english="costs {0} while it waits to be bought",
    compile=compile_cost, touches=touched(compile_cost, needs_word=False), render=say_cost, check=check_cost,
    waiting=True,
)

WORDS = (FORBID, ALLOW, IGNORE, REQUIRE, PROTECT, COST)
