"""The outcome measures of a game, besides who won: what a designer compares between two set-ups.

========================  =========================================================================================
``won``                   1 if the Units won, else 0 (its mean is the win rate)
``turns``                 turns played, won or lost
``turns_to_win``          turns played in a won game (no value in a lost game)
``soldiers_left``         Soldiers the Units hold at the end (a wiped-out Unit holds none), summed over the Units
``specialists_left``      Specialists the Units hold at the end, summed over the Units
``casualties``            Soldiers lost, a Specialist counting its Soldier value (the Paratrooper 6), over the game
``victory_points``        the rulebook's Victory Points (the optional rule's score table, counted in every game
                          whether the option is on or not), the group's score: that of the Unit with the least VP;
                          no value in a game the engine stopped at its turn limit (the rulebook counts VP when the
                          game ends, by victory or defeat, and such a game has neither)
========================  =========================================================================================

Casualties are also counted by Sector (``casualties_by_sector``). Each measure's distribution over a run (mean,
sd, quantiles, histogram) is in ``dday simulate``'s text, JSON and plot; ``dday compare`` pairs them by seed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, Final, Protocol

from ddaydice.interpreter.core.values import at_turn_limit
from ddaydice.interpreter.tools.stats import distribution


class GameRecord(Protocol):
    """What the measures read of a game's record (tools/simulate.py's ``GameRecord``)."""

    @property
    def outcome(self) -> str: ...
    @property
    def reason(self) -> str: ...
    @property
    def turns(self) -> int: ...
    @property
    def lost_by_sector(self) -> tuple[tuple[str, int], ...]: ...
    @property
    def soldiers_left(self) -> int: ...
    @property
    def specialists_left(self) -> int: ...
    @property
    def vp(self) -> int | None: ...


def _won(r: GameRecord) -> int | None:
    return int(r.outcome == "won")


def _turns(r: GameRecord) -> int | None:
    return r.turns


def _turns_to_win(r: GameRecord) -> int | None:
    return r.turns if r.outcome == "won" else None


def _soldiers(r: GameRecord) -> int | None:
    return r.soldiers_left


def _specialists(r: GameRecord) -> int | None:
    return r.specialists_left


def _casualties(r: GameRecord) -> int | None:
    return sum(k for _, k in r.lost_by_sector)


def _vp(r: GameRecord) -> int | None:
    return None if at_turn_limit(r.reason) else r.vp


MEASURES: dict[str, tuple[str, Callable[[GameRecord], int | None]]] = {
    "won": ("won", _won),
    "turns": ("turns played", _turns),
    "turns_to_win": ("turns to win", _turns_to_win),
    "soldiers_left": ("Soldiers left", _soldiers),
    "specialists_left": ("Specialists left", _specialists),
    "casualties": ("casualties", _casualties),
    "victory_points": ("Victory Points", _vp),
}


#: The measures that are a share of the games (0 or 1 a game), shown as percentages wherever they are shown: the
#: tables' cells (compare._fmt) and the plots' axes (plots.compare_plot).
PERCENT: frozenset[str] = frozenset({"won"})


def bounds(name: str) -> tuple[float, float] | None:
    """The range every value of a measure lies in, where it has one that bounds a difference: a share of the games
    (PERCENT) lies in 0 to 1, so a difference of two lies in -100% to +100% (stats.paired clips its interval)."""
    return (0.0, 1.0) if name in PERCENT else None


def measure_name(text: str) -> str:
    """A measure's name as the CLI accepts it (``turns-to-win`` or ``turns_to_win``)."""
    return text.strip().lower().replace("-", "_")


def typed(name: str) -> str:
    """A measure's name as a person types it on the command line (``turns-to-win``; ``turns_to_win`` is accepted
    too, measure_name)."""
    return name.replace("_", "-")


def values(records: Sequence[GameRecord], name: str) -> list[int | None]:
    """One measure of each game, in the records' order (None where it has no value)."""
    get = MEASURES[name][1]
    return [get(r) for r in records]


def summary(records: Sequence[GameRecord]) -> dict[str, Any]:
    """Each measure's distribution, and the casualties' by Sector (every game counts, 0 where none fell)."""
    out: dict[str, Any] = {}
    for name in MEASURES:
        out[name] = distribution([v for v in values(records, name) if v is not None])
    sectors = sorted({s for r in records for s, _ in r.lost_by_sector}, key=_natural)
    out_by: dict[str, Any] = {}
    for sector in sectors:
        out_by[sector] = distribution([dict(r.lost_by_sector).get(sector, 0) for r in records])
    return {"measures": out, "casualties_by_sector": out_by}


def _natural(sector: str) -> tuple[tuple[int, int | str], ...]:
    return tuple((0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", sector) if part)


def table_lines(summary: dict[str, Any]) -> list[str]:
    """The measures' distributions as a table a person reads (``dday simulate``'s text). A column is as wide as its
    widest cell and one space more (at least its usual width), so that two numbers never run together."""
    rows: list[tuple[str, list[str]]] = []

    def cells(d: dict[str, Any]) -> list[str]:
        return [str(d["n"]), f"{d['mean']:.2f}", f"{d['sd']:.2f}", str(d["min"]),
                *(f"{d[k]:g}" for k in ("p10", "p25", "median", "p75", "p90")), str(d["max"])]

    for name, (label, _) in MEASURES.items():
        d = summary["measures"][name]
        if d["n"]:
            rows.append((label, cells(d)))
    by = summary.get("casualties_by_sector", {})
    sector_rows = [(f"  {sector}", cells(d)) for sector, d in by.items()]
    widths = [max([w, *(len(c[i]) + 1 for _, c in rows + sector_rows)]) for i, w in enumerate(_WIDTHS)]
    label_width = max([18, *(len(label) + 1 for label, _ in rows + sector_rows)])

    def line(label: str, row: list[str]) -> str:
        return f"  {label:<{label_width}}" + "".join(f"{c:>{w}}" for c, w in zip(row, widths, strict=True))

    lines = [line("measure", list(_HEADS))]
    lines += [line(label, row) for label, row in rows]
    if sector_rows:
        lines.append("  casualties by Sector, per game:")
        lines += [line(label, row) for label, row in sector_rows]
    return lines


_HEADS: Final = ("games", "mean", "sd", "min", "10%", "25%", "50%", "75%", "90%", "max")
_WIDTHS: Final = (6, 8, 7, 6, 6, 6, 6, 6, 6, 6)  # (the usual widths: a wider cell widens its column)
