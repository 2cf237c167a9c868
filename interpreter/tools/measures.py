"""The outcome measures of a game, besides who won: what a designer compares between two set-ups.

========================  =========================================================================================
``won``                   1 if the Units won, else 0 (its mean is the win rate)
``turns``                 turns played, won or lost
``turns_to_win``          turns played in a won game (no value in a lost game)
``soldiers_left``         Soldiers the Units hold at the end (a wiped-out Unit holds none), summed over the Units
``specialists_left``      Specialists the Units hold at the end, summed over the Units
``casualties``            Soldiers lost, a Specialist counting its Soldier value (the Paratrooper 6), over the game
``victory_points``        the rulebook's Victory Points (the optional rule's score table, counted in every game
                          whether the option is on or not), the group's score: that of the Unit with the least VP
========================  =========================================================================================

Casualties are also counted by Sector (``casualties_by_sector``). Each measure's distribution over a run (mean,
sd, quantiles, histogram) is in ``dday simulate``'s text, JSON and plot; ``dday compare`` pairs them by seed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from ddaydice.interpreter.tools.stats import distribution


class GameRecord(Protocol):
    """What the measures read of a game's record (tools/simulate.py's ``GameRecord``)."""

    @property
    def outcome(self) -> str: ...
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
    return r.vp


MEASURES: dict[str, tuple[str, Callable[[GameRecord], int | None]]] = {
    "won": ("won", _won),
    "turns": ("turns played", _turns),
    "turns_to_win": ("turns to win", _turns_to_win),
    "soldiers_left": ("Soldiers left", _soldiers),
    "specialists_left": ("Specialists left", _specialists),
    "casualties": ("casualties", _casualties),
    "victory_points": ("Victory Points", _vp),
}


def measure_name(text: str) -> str:
    """A measure's name as the CLI accepts it (``turns-to-win`` or ``turns_to_win``)."""
    return text.strip().lower().replace("-", "_")


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
    """The measures' distributions as a table a person reads (``dday simulate``'s text)."""
    head = f"  {'measure':<18}{'games':>6}{'mean':>8}{'sd':>7}{'min':>6}{'10%':>6}{'25%':>6}{'50%':>6}{'75%':>6}" \
           f"{'90%':>6}{'max':>6}"
    lines = [head]

    def row(label: str, d: dict[str, Any]) -> str:
        qs = "".join(f"{d[k]:>6g}" for k in ("p10", "p25", "median", "p75", "p90"))
        return f"  {label:<18}{d['n']:>6}{d['mean']:>8.2f}{d['sd']:>7.2f}{d['min']:>6}{qs}{d['max']:>6}"

    for name, (label, _) in MEASURES.items():
        d = summary["measures"][name]
        if d["n"]:
            lines.append(row(label, d))
    by = summary.get("casualties_by_sector", {})
    if by:
        lines.append("  casualties by Sector, per game:")
        for sector, d in by.items():
            lines.append(row(f"  {sector}", d))
    return lines
