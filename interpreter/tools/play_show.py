"""What ``dday play`` tells a player at the table between the prompts, besides the questions.

What the game did unasked, in the trace's own words (the game's events, read as they were logged: no rule is
written twice here): the RWBs a player scores and what they give, what the Upkeep collects, the MGF roll, the
Special Damage it brings, the casualties a card spares, what another side's shortfall does. A turn's line when
every player is a policy (``--auto``). What another side's player (the German) at 0 Soldiers means. The board's
Landmines, Barriers and Sector attributes, marked on it and told under it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ddaydice.interpreter.core.api import GameView
from ddaydice.interpreter.core.state import Event

#: The kinds of events a player is told at the table (the others are his own answers, or the engine's workings,
#: which the trace shows): what a Unit scored, gained, collected and lost, and what the dice it did not roll did.
TOLD = frozenset({
    "rwb", "no-rwb", "gain", "lose", "collect", "mgf", "combat", "save", "shortfall", "casualties",
    "specialist-lost", "wiped-out", "bunker", "landmines", "chance", "attribute-roll", "attribute", "assault",
})
#: Kinds told in one phase only: a card's or a Special Damage's effect firing in Combat (elsewhere, what it does
#: is told by the events above).
TOLD_IN = {"effect": "combat"}


def told(event: Event) -> bool:
    """Whether a player at the table is told ``event``."""
    return event.kind in TOLD or TOLD_IN.get(event.kind) == event.phase


def news(game: GameView, since: int) -> tuple[list[str], int]:
    """The lines a player is told of the game's events from the ``since``-th on (the trace's text of each, as
    ``dday play --trace`` prints it), and where the events now end."""
    log: Sequence[Event] = game.state.log
    return [f"  · {e.detail}" for e in log[since:] if told(e)], len(log)


def turn_line(game: GameView) -> str:
    """A turn of a game every player of which is a policy, in one line: each player's Sector and Soldiers."""
    s = game.state
    parts = []
    for u in game.players():
        where = f" in {game.sectors[u.sector].name}" if u.sector else ""
        status = "" if u.status == "active" else f" [{u.status}]"
        parts.append(f"{u.name}{where}{status}, Soldiers {u.soldiers}")
    return f"Turn {s.turn}: " + "; ".join(parts)


#: What a side's Soldiers at 0 mean, by the side's casualty rule (rules/sides.yaml ``casualties``; SideDef).
AT_ZERO = {
    "highest-occupied-def": "at 0 Soldiers he plays on: each Soldier he cannot lose in Combat lowers the DEF of "
                            "every Sector by 1 for the Units that turn (below 0, the Units there gain Soldiers)",
}


def side_at_zero(game: GameView, uid: str) -> str:
    """What another side's player's Soldiers at 0 mean for him (empty for a Unit, or Soldiers left): he loses
    (an option's ``side-loses-at-zero``), or what his casualty rule says."""
    u = game.state.unit(uid)
    if not u.side or u.soldiers > 0 or game.state.turn == 0:
        return ""
    if game.option_rules.side_loses_at_zero:
        return "at 0 Soldiers he loses"
    side = game.side_defs.get(u.side)
    return AT_ZERO.get(side.casualties or "", "") if side is not None else ""


def side_lines(game: GameView) -> list[str]:
    """Another side's rules in short (rules/sides.yaml ``text``), told when the game starts."""
    return [f"{d.name}: {' '.join(d.text.split())}" for d in game.side_defs.values()
            if any(p.side == d.id for p in game.state.sides)]


#: The mark after a Sector on the board that has something told under it (``board_legend``).
MARK = "!"


def board_legend(game: GameView, notes_of: Callable[[str], str]) -> tuple[set[str], list[str]]:
    """What the board tells under its rows, and the Sectors marked for it: the Sectors with an attribute (its
    English, ``notes_of``; one an effect gave it in the game, by name) or a Special Damage on an MGF 6, one line
    each; the lines with Landmines, and those with a Barrier, one line each (the map as printed; a variant or an
    option that ignores them: not told)."""
    marked: set[str] = set()
    lines: list[str] = []
    special_on = "special-damage" not in game.ignore and "mgf" not in game.ignore
    for sec in sorted(game.map.sectors, key=lambda s: (game._number(s.id), s.id)):
        told = [notes_of(sec.id)] + [f"'{a}'" for a in game.state.sectors[sec.id].attributes]
        special = sec.special_damage or game.map.special_damage
        src = game.content.effects.get(f"special-damage:{special}") if special and special != "none" else None
        if src is not None and sec.mgf and special_on:
            told.append(f"an MGF 6: {src.name}")
        told = [t for t in told if t]
        if told:
            marked.add(sec.id)
            lines.append(f"  {MARK} {sec.name}: " + "; ".join(told))
    for word, on in (("Landmines", "landmines" not in game.ignore), ("Barrier", True)):
        pairs = [f"{_names(game, line.from_)} and {_names(game, line.to)}" for line in game.map.lines
                 if on and (line.landmines if word == "Landmines" else line.barrier)]
        if pairs:
            lines.append(f"  {word} between " + ", ".join(pairs))
    return marked, lines


def _names(game: GameView, ids: Sequence[str]) -> str:
    return "/".join(game.sectors[i].name for i in ids)
