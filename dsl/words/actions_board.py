"""Actions on the board: swap-sectors, become, roll-attribute, retreat, win, roll-split, reset-marker. Each
record names its parts (see :mod:`ddaydice.dsl.words.base`)."""

from __future__ import annotations

from ddaydice.dsl import ast
from ddaydice.dsl.effect_context import Action
from ddaydice.dsl.words.base import ActionWord, Parts, Touches, first_word, touches_nothing


def _one(stmt: ast.Statement) -> tuple[str, ...]:
    found = first_word(stmt)
    return (found,) if found else ()


def compile_swap_sectors(_p: Parts) -> Action:
    return lambda ctx: ctx.swap_sectors()


def compile_become(p: Parts) -> Action:
    attr = p.words[0]
    return lambda ctx: ctx.become(attr)


def compile_roll_attribute(p: Parts) -> Action:
    table = p.words[0]
    return lambda ctx: ctx.roll_attribute(table)


def compile_retreat(p: Parts) -> Action:
    sector = p.words[0]
    return lambda ctx: ctx.retreat(sector)


def compile_win(_p: Parts) -> Action:
    return lambda ctx: ctx.win()


def compile_roll_split(p: Parts) -> Action:
    keep, rest = p.words[0], p.words[1]
    return lambda ctx: ctx.roll_split(keep, rest)


def compile_reset_marker(_p: Parts) -> Action:
    return lambda ctx: ctx.reset_marker()


SWAP_SECTORS = ActionWord(
    name="swap-sectors",
    summary=("Switch Sectors with another Unit (chosen); Unit markers do not change, and both Units may re-enter "
             "Sectors they visited."),
    example="use: sacrifice self, swap-sectors",
    english="switch Sectors with another Unit",
    compile=compile_swap_sectors, touches=touches_nothing,
    render=lambda _r, _w: "switch Sectors with another Unit (markers do not change)",
)
BECOME = ActionWord(
    name="become",
    signatures=("attribute",),
    summary=("This Sector gains a named attribute of its map for the rest of the game. Gained as a Unit enters, "
             "it acts on that entry: its 'on enter' (and, on the Sector's first entry, 'on first-enter') runs for "
             "that Unit."),
    example="on first-enter: become shelter",
    english="this Sector becomes '{0}'",
    compile=compile_become, touches=lambda stmt: Touches(attributes=_one(stmt)),
    render=lambda r, w: f"this Sector gains '{r.name(w.word(0))}' for the rest of the game",
)
ROLL_ATTRIBUTE = ActionWord(
    name="roll-attribute",
    signatures=("table",),
    summary=("Roll 1d6 on one of the map's random attribute tables; this Sector keeps the result for the rest of "
             "the game. Before the attribute is taken, the Unit may play what it may play at any time: a card that "
             "changes any roll ('reface ... any-roll', the Binoculars) may change the die. Rolled as a Unit "
             "enters, the attribute acts on that entry: its 'on enter' (and, on the Sector's first entry, "
             "'on first-enter') runs for the Unit that rolled it."),
    example="on first-enter: roll-attribute sword-table-1",
    english="roll 1d6 on the {0} table",
    compile=compile_roll_attribute, touches=lambda stmt: Touches(tables=_one(stmt)),
    render=lambda r, w: f"roll 1d6 on the {r.name(w.word(0))} table; the result stays for the rest of the game",
)
RETREAT = ActionWord(
    name="retreat",
    signatures=("sector",),
    summary="Move back to a named Sector (only if the Unit has not visited it); the only backward move.",
    example="use if turns-here >= 3: retreat s7",
    english="retreat to Sector {0}",
    compile=compile_retreat, touches=touches_nothing,
    render=lambda r, w: f"retreat to {r.name(w.word(0))} (if not visited)",
)
WIN = ActionWord(
    name="win",
    summary="This Unit has conquered its objective (as if it entered the Bunker).",
    example="on enter: win",
    english="this Unit has conquered its objective",
    compile=compile_win, touches=touches_nothing, render=lambda _r, _w: "this Unit has conquered its objective",
)
ROLL_SPLIT = ActionWord(
    name="roll-split",
    signatures=("resource resource",),
    summary=("Roll 1d6 per Unit in the game; the player keeps the result of his choice as the first resource and "
             "adds up the others as the second (the German's blind start)."),
    example="on game-start if option german-blind-start: roll-split soldiers courage",
    english="roll 1 die per Unit: one of your choice gives {0}, the others added up give {1}",
    compile=compile_roll_split, touches=touches_nothing,
    render=lambda r, w: (f"roll 1 die per Unit: one result of your choice gives {r.name(w.word(0))}, the others "
                         f"added up give {r.name(w.word(1))}"),
)
RESET_MARKER = ActionWord(
    name="reset-marker",
    summary="Put this Unit's marker back on 1 chevron.",
    example="use: reset-marker",
    english="reset your Unit marker to 1 chevron",
    compile=compile_reset_marker, touches=touches_nothing,
    render=lambda _r, _w: "turn the Unit marker back to 1 chevron",
)

WORDS = (SWAP_SECTORS, BECOME, ROLL_ATTRIBUTE, RETREAT, WIN, ROLL_SPLIT, RESET_MARKER)
