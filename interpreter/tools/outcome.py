"""What a finished game's record holds (tools/simulate.py's ``GameRecord``), read from the game at its end.

Compiled with the engine (compiled.txt): a simulation reads it once a game, and in Python it cost a Practice Run
game about a tenth of its time (the casualties by Sector, the Specialists recruited, the Items used, the measures of
tools/measures.py and the rulebook's Victory Points, the uses played).
"""

from __future__ import annotations

from typing import Final

from ddaydice.dsl.diagnostics import RuleError
from ddaydice.dsl.loader import Content
from ddaydice.interpreter.core.api import GameAPI
from ddaydice.interpreter.core.option_rules import OptionRules
from ddaydice.interpreter.core.values import USED
from ddaydice.interpreter.mechanisms.options import Score, score

#: What the record holds of a game, in GameRecord's order from ``outcome`` to ``unit_scores`` then the measures, the
#: uses and the Items and Vehicles found: see ``read``.
Read = tuple[str, int, str, tuple[str, ...], tuple[tuple[str, int], ...], tuple[str, ...], tuple[str, ...],
             int | None, tuple[int, ...], int, int, int | None, tuple[tuple[str, int], ...], tuple[str, ...]]

#: What a card found is held as (a kind's ``held_as``, or the kind itself): an Item or a Vehicle.
FOUND_ROLES: Final = frozenset({"item", "vehicle"})


def start_cards(game: GameAPI) -> dict[str, set[str]]:
    """Each Unit's Specialists, and every card in play with it, as the game starts (those it recruits, finds or that
    join it are told from them)."""
    return {u.id: set(u.specialists) | set(u.came_into_play) for u in game.state.units}


def found_cards(game: GameAPI, start: dict[str, set[str]]) -> list[str]:
    """The Items and Vehicles the Units found or gained during the game (each card that came into play with a Unit
    after the start, held as an Item or a Vehicle), used or not, kept or not: sorted."""
    content = game.content
    found: list[str] = []
    for u in game.state.units:
        had = start[u.id]
        for card in u.came_into_play:
            if card in had:
                continue
            if content.held_as(card) in FOUND_ROLES:
                found.append(card)
    found.sort()
    return found


def read(game: GameAPI, start: dict[str, set[str]]) -> Read:
    """The record's fields of a finished game: outcome, turns, reason, the Sectors where Units were wiped out, the
    Soldiers lost by Sector, the Specialists recruited or joined (``start``: start_cards's), the Items and Awards
    used, the options' score (group, per Unit), the Soldiers and Specialists left, the rulebook's Victory Points, the
    uses played and the Items and Vehicles found (or gained)."""
    s = game.state
    lost: dict[str, int] = {}
    dead_at: list[str] = []
    for d in s.deaths:
        if d.get("wiped"):
            dead_at.append(d["sector"])
        else:
            sector: str = d["sector"]
            n = d.get("lost", 0)  # (an int, read natively: compiled, int() of an Any is a generic call)
            lost[sector] = lost.get(sector, 0) + (n if isinstance(n, int) else int(n))
    recruited: list[str] = []
    items: list[str] = []
    for u in s.units:
        had = start[u.id]
        for sp in set(u.specialists + u.dead):
            if sp not in had:
                recruited.append(sp)
        items += u.used_items
        items += u.used_awards
    recruited.sort()
    items.sort()
    scored = score(game)
    soldiers, specs_left, vp = end_of_game(game, scored)
    return (s.outcome or "lost", s.turn, s.reason, tuple(dead_at), tuple(sorted(lost.items())), tuple(recruited),
            tuple(items), scored.group if scored is not None else None,
            tuple(scored.units.values()) if scored is not None else (), soldiers, specs_left, vp, uses_played(game),
            tuple(found_cards(game, start)))


def uses_played(game: GameAPI) -> tuple[tuple[str, int], ...]:
    """The uses played in the game, by owner (the players' ``USED + owner`` counters, effects/uses.py), summed over
    the players and sorted."""
    found: dict[str, int] = {}
    cut = len(USED)
    for u in game.state.units:
        if u.counters:  # (most games of the plain rules have none)
            for key, n in u.counters.items():
                if n and key.startswith(USED):
                    owner = key[cut:]
                    found[owner] = found.get(owner, 0) + n
    return tuple(sorted(found.items()))


_TABLES: Final[dict[int, tuple[Content, OptionRules | None]]] = {}


def vp_table(content: Content) -> OptionRules | None:
    """The rules of the optional rule that holds the rulebook's score table (the first option, by id, whose
    settings have a ``score`` table); None if the content has none."""
    hit = _TABLES.get(id(content))
    if hit is not None and hit[0] is content:
        return hit[1]
    found: OptionRules | None = None
    for oid in sorted(content.options):
        if "score" in content.options[oid].settings:
            try:
                found = OptionRules.build(content, [oid])
            except RuleError:
                continue
            break
    if len(_TABLES) > 16:
        _TABLES.clear()
    _TABLES[id(content)] = (content, found)
    return found


def end_of_game(game: GameAPI, own: Score | None = None) -> tuple[int, int, int | None]:
    """Soldiers and Specialists the Units hold at the end, and the group's Victory Points: with the game's own
    score table if an option gives it one (``own``: its score, when the caller has counted it), else the rulebook's
    (counted although the option is off)."""
    units = game.state.units
    soldiers = 0
    specialists = 0
    for u in units:
        if u.status != "dead":
            soldiers += u.soldiers
            specialists += len(u.specialists)
    rules = game.option_rules if game.option_rules.score_terms else vp_table(game.content)
    if rules is None or not units:
        return soldiers, specialists, None
    result = own if own is not None and rules is game.option_rules else score(game, rules.score_terms)
    if result is None:
        return soldiers, specialists, None
    totals: list[int] = list(result.units.values())
    vp = sum(totals) if rules.group_score == "total" else min(totals)
    return soldiers, specialists, vp

