"""The win rate of each player of graded skill on each bundled map, with its 95% interval (kept out of the tests).

    python benchmarks/calibrate_skill.py [--games N] [--jobs J] [--levels novice,casual,expert] [--maps a,b]

Each cell plays N games of the map (the smallest number of players that can win it as listed, every Unit played
by the same level: Gold Beach needs two without the solitaire option) on the
same seeds (game i of every cell is seeded from the run's seed and i), so the levels are compared on the same
dice as far as their games agree. Prints a Markdown table (the one in docs/simulation.md) and, with --json, the
figures. A map's difficulty shows as the level at which its win rate rises.
"""

from __future__ import annotations

import argparse
import json
import time

from ddaydice.dsl.loader import Content, load
from ddaydice.interpreter.policies.names import check_policy
from ddaydice.interpreter.tools.setups import unwinnable_setup
from ddaydice.interpreter.tools.simulate import Spec, run, wilson


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--levels", default="random,reference,novice,casual,expert")
    parser.add_argument("--maps", default="")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    content, _ = load()
    assert content is not None
    levels = [check_policy(level) for level in args.levels.split(",")]
    maps = args.maps.split(",") if args.maps else sorted(content.maps)
    rows: dict[str, dict[str, tuple[int, int, float]]] = {}
    started = time.perf_counter()
    for map_id in maps:
        players = least_players(content, map_id)
        rows[map_id] = {}
        for level in levels:
            records, _ = run(content, Spec(map_id, None, players, level, args.seed), args.games, jobs=args.jobs)
            wins = sum(1 for r in records if r.outcome == "won")
            won_turns = [r.turns for r in records if r.outcome == "won"]
            rows[map_id][level] = (wins, len(records), sum(won_turns) / len(won_turns) if won_turns else 0.0)
    if args.json:
        print(json.dumps({m: {lv: {"wins": w, "games": n, "win_rate": w / n, "ci95": wilson(w, n),
                                   "mean_turns_to_win": t} for lv, (w, n, t) in row.items()}
                          for m, row in rows.items()}, indent=2))
        return
    print("| map (players) | " + " | ".join(levels) + " |")
    print("|---|" + "---|" * len(levels))
    for map_id, row in rows.items():
        cells = []
        for level in levels:
            w, n, _ = row[level]
            lo, hi = wilson(w, n)
            cells.append(f"{w / n:.0%} ({lo:.0%}–{hi:.0%})")
        print(f"| {map_id} ({least_players(content, map_id)}) | " + " | ".join(cells) + " |")
    print(f"\n{args.games} games per cell, seed {args.seed}, {time.perf_counter() - started:.0f} s")


def least_players(content: Content, map_id: str) -> int:
    """The smallest number of players that can win the map as listed (no option): Gold Beach's two Bunkers need two
    Units without the solitaire option (docs/optional-rules.md, ruling 6), which dday simulate warns of."""
    least, most = min(content.maps[map_id].players), max(content.maps[map_id].players)
    return next((p for p in range(least, most + 1)
                 if unwinnable_setup(content, map_id, players=p, variant=None, options=()) is None), least)


if __name__ == "__main__":
    main()
