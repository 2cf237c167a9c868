"""Actions on resources and on the Final Tally: gain, lose, add, remove, reroll, reface, recolour, copy-tally,
keep-tally. Each record names its parts (see :mod:`ddaydice.dsl.words.base`)."""

from __future__ import annotations

from typing import Final

from ddaydice.dsl import ast
from ddaydice.dsl.effect_context import Action
from ddaydice.dsl.words.base import (
    ActionWord,
    Change,
    Checking,
    Parts,
    Speaker,
    Touches,
    Wording,
    touches_nothing,
    words_of,
)
from ddaydice.dsl.words.english import PLURAL_FACES, SINGULAR

# Each compiler returns a new closure per statement, even when it captures nothing: the hooks holding them
# compare their closures by identity.


# ---------------------------------------------------------------- gain, lose
def compile_gain(p: Parts) -> Action:
    """The last word names the resource."""
    res, amount, recipient = p.words[-1], p.amount, p.recipient
    return lambda ctx: ctx.gain(res, amount(ctx), recipient)


def compile_lose(p: Parts) -> Action:
    res, amount, recipient = p.words[-1], p.amount, p.recipient
    return lambda ctx: ctx.lose(res, amount(ctx), recipient)


def say_resources(r: Speaker, w: Wording) -> str:
    """gain / lose: '1 Soldier' in the singular (when one, and not 'per' something)."""
    a = w.args
    one = isinstance(a[0], ast.Number) and a[0].value == 1 and not w.per
    what = SINGULAR.get(w.word(1), r.arg(a[1])) if one else r.arg(a[1])
    return f"{w.verb} {r.amount(a[0])} {what}{w.per}"


GAIN = ActionWord(
    name="gain",
    signatures=("amount resource",),
    summary="Gain resources.",
    example="on advance: gain 3 soldiers",
    english="gain {0} {1}",
    before_after="Soldiers 4 -> 7 after 'gain 3 soldiers'.",
    compile=compile_gain, render=say_resources, touches=touches_nothing, per=True,
)
LOSE = ActionWord(
    name="lose",
    signatures=("amount resource",),
    summary="Lose resources (never below 0). Losing Soldiers is a casualty.",
    example="on combat unless has minesweeper: lose 1d6 soldiers",
    english="lose {0} {1}",
    before_after="Soldiers 7 -> 4 after 'lose 3 soldiers'.",
    compile=compile_lose, render=say_resources, touches=touches_nothing, per=True,
)


# ---------------------------------------------------------------- add, remove
def compile_add(p: Parts) -> Action:
    """Results put into the Final Tally, with a colour or colourless."""
    a, amount, recipient = p.args, p.amount, p.recipient
    face = words_of(a[1:2])[0]
    colour = words_of(a[2:3])[0] if len(a) > 2 else None
    return lambda ctx: ctx.add_result(face, amount(ctx), colour, recipient)


def say_add(r: Speaker, w: Wording) -> str:
    """Results put into the Final Tally, of a colour, of any colour (chosen) or colourless."""
    a = w.args
    colour = w.word(2)
    if colour == "any-colour":
        tail = " of any colour (chosen)"
    elif colour:
        tail = f" ({r.name(colour)})"
    else:
        tail = " (colourless)"
    face = "result of the player's choice" if w.word(1) == "any" else r.name(w.word(1))
    if not (isinstance(a[0], ast.Number) and a[0].value == 1):
        face = PLURAL_FACES.get(w.word(1), face)
    return f"add {r.amount(a[0])} {face}{tail} to the Final Tally{w.per}"


def compile_remove(p: Parts) -> Action:
    removed, amount = p.words[-1], p.amount
    return lambda ctx: ctx.remove_result(removed, amount(ctx))


def say_remove(r: Speaker, w: Wording) -> str:
    return f"remove {r.amount(w.args[0])} {r.name(w.word(1))} from the Final Tally{w.per}"


ADD = ActionWord(
    name="add",
    signatures=("amount face colour?",),
    summary=("Add results to the Final Tally. Without a colour they are colourless ('virtual'): they never form an "
             "RWB and cannot be traded. With a colour (or any-colour, chosen) they count for RWBs."),
    example="on final-tally: add 1 tool",
    english="add {0} {1} {2}",
    before_after="Tally [tool, star] -> [tool, star, tool*] (* colourless).",
    compile=compile_add, render=say_add, touches=touches_nothing, per=True, tally=True,
)
REMOVE = ActionWord(
    name="remove",
    signatures=("amount face",),
    summary="Remove results from the Final Tally (a penalty); nothing happens if the result is missing.",
    example="on final-tally: remove 3 star",
    english="remove {0} {1}",
    before_after="Tally [star, star, courage] -> [courage] after 'remove 3 star'.",
    compile=compile_remove, render=say_remove, touches=touches_nothing, per=True, tally=True,
)


# ---------------------------------------------------------------- dice of the Final Tally
#: The permission a re-roll asks before it takes a Skull (rules/queries.yaml; Utah Beach Sector 6, the Minefield:
#: "Skulls can't be re-rolled here"), whatever the card that re-rolls (interpreter/effects/act_dice.py).
REROLL_SKULL: Final = "reroll-skull"


def touches_reroll(_stmt: ast.Statement) -> Touches:
    """A re-roll asks the permission to re-roll a Skull (the conflict finder pairs it with what forbids it), unless
    its face filter names only other faces."""
    return Touches(change=Change(REROLL_SKULL, "asks", faces=("skull",)))


def compile_reroll(p: Parts) -> Action:
    """Dice chosen through filters ('all': every die the filters allow, no count)."""
    words, amount = p.words, p.amount
    every = bool(words) and words[0] == "all"
    filters = tuple(w for w in words if w not in {"die", "all"})
    return lambda ctx: ctx.reroll(None if every else amount(ctx), filters)


def say_reroll(r: Speaker, w: Wording) -> str:
    a = w.args
    if w.word(0) == "all":
        return f"re-roll every die{r.filters(a[1:])}"
    return f"re-roll {r.amount(a[0])} {w.die}{r.filters(a[1:], w.die)}"


def compile_reface(p: Parts) -> Action:
    words, amount = p.words, p.amount
    every = bool(words) and words[0] == "all"
    named = words[words.index("as") + 1] if "as" in words else None  # 'as FACE': the face, no choice
    chosen = words[:words.index("as")] if "as" in words else words
    filters = tuple(w for w in chosen if w not in {"die", "all", "same"})
    same = "same" in words
    return lambda ctx: ctx.reface(None if every else amount(ctx), filters, same, named)


def say_reface(r: Speaker, w: Wording) -> str:
    a = w.args
    count = "every" if w.word(0) == "all" else r.amount(a[0])
    words = [x.name for x in a if isinstance(x, ast.Word)]
    if "as" in words:  # a named face: 'reface 1 die skull as two-soldiers'
        k = next(i for i, x in enumerate(a) if isinstance(x, ast.Word) and x.name == "as")
        face = r.name(words[words.index("as") + 1])
        return f"turn {count} {w.die}{r.filters(a[1:k], w.die)} into {face} (keeping its colour)"
    return f"change the result of {count} {w.die}{r.filters(a[1:], w.die)} (keeping its colour)"


def check_reface(c: Checking, stmt: ast.Statement) -> None:
    """'as FACE' with 'any-roll': MGF dice and the other rolls it reaches show numbers, not faces."""
    named = [a for a in stmt.args if isinstance(a, ast.Word) and a.name in {"as", "any-roll"}]
    if len({a.name for a in named}) == 2:
        c.err("DSL103", f"{stmt.verb.name}: 'as' names a face of the Final Tally's dice, but 'any-roll' also "
              "reaches MGF dice and rolls about to take effect (a Landmine die, a Random Attribute roll), which show "
              "numbers", named[-1].pos, "leave out 'any-roll' or 'as'")


def compile_recolour(p: Parts) -> Action:
    filters, amount = tuple(w for w in p.words if w != "die"), p.amount
    return lambda ctx: ctx.recolour(amount(ctx), filters)


def say_recolour(r: Speaker, w: Wording) -> str:
    return f"change the colour of {r.amount(w.args[0])} {w.die}{r.filters(w.args[1:], w.die)} (keeping its result)"


REROLL = ActionWord(
    name="reroll",
    signatures=("count|'all' 'die' filter*",),
    summary=("Re-roll dice of the Final Tally chosen by the player ('all': every die the filter allows, no choice). "
             "Locked dice are never re-rolled unless the filter says 'locked'."),
    example="use once per turn after final-tally: reroll 1 die unlocked",
    english="re-roll {0} die {2}",
    before_after="Tally [skull(red 1), ...] -> [courage(red 1), ...].",
    compile=compile_reroll, render=say_reroll, touches=touches_reroll, tally=True,
)
REFACE = ActionWord(
    name="reface",
    signatures=("count|'all' 'die' filter* 'same'?", "count|'all' 'die' filter* 'as' face"),
    summary=("Change the result of dice to a face the player chooses, keeping their colour. 'any-roll' also reaches "
             "the MGF dice of the Unit's Sector and a roll about to take effect (a Landmine die, a Random Attribute "
             "roll: `roll-attribute`); 'same' makes every changed die take the same face; 'as FACE' names the face "
             "(no choice): 'reface 1 die skull as two-soldiers' (the player chooses which Skull). Locked dice are "
             "left alone unless the filter says 'locked' (ruling 8.22)."),
    example="use: reface 1 die any-roll",
    english="change the result of {0} die {2}",
    before_after="MGF die 6 -> 1 with 'reface 1 die any-roll'.",
    compile=compile_reface, render=say_reface, touches=touches_nothing, check=check_reface, tally=True,
)
RECOLOUR = ActionWord(
    name="recolour",
    signatures=("count 'die' filter*",),
    summary=("Change the colour of dice, keeping their result (three dice of one colour become possible). Locked "
             "dice are left alone unless the filter says 'locked' (ruling 8.22)."),
    example="use once per turn after final-tally: recolour 1 die",
    english="change the colour of {0} die {2}",
    before_after="white star -> blue star.",
    compile=compile_recolour, render=say_recolour, touches=touches_nothing, tally=True,
)


# ---------------------------------------------------------------- whole tallies
def compile_copy_tally(_p: Parts) -> Action:
    return lambda ctx: ctx.copy_tally()


def compile_keep_tally(_p: Parts) -> Action:
    return lambda ctx: ctx.keep_tally()


COPY_TALLY = ActionWord(
    name="copy-tally",
    summary="Ignore this Unit's Final Tally and copy another Unit's (chosen).",
    example="use after final-tally: copy-tally",
    english="copy another Unit's Final Tally and ignore yours",
    compile=compile_copy_tally, touches=touches_nothing, tally=True,
    render=lambda _r, _w: "copy another Unit's Final Tally and ignore your own",
)
KEEP_TALLY = ActionWord(
    name="keep-tally",
    summary="This Final Tally will also be this Unit's Final Tally next turn (it does not roll then).",
    example="use after final-tally: sacrifice self, keep-tally",
    english="this Final Tally will also be your Final Tally next turn",
    compile=compile_keep_tally, touches=touches_nothing,
    render=lambda _r, _w: "this Final Tally is also your Final Tally next turn",
)

WORDS = (GAIN, LOSE, ADD, REMOVE, REROLL, REFACE, RECOLOUR, COPY_TALLY, KEEP_TALLY)
